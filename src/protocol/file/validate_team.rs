//! The refusals for a file's `[team]` and `[[property]]` tables: team id,
//! rule names, teammates (names, gates, scripted answers), steps (one
//! action each; asking only with a protocol the lead may use, answering
//! only one the lead answers; the teammates, protocols and fields they
//! name), fault rules, and properties naming an unknown protocol, event,
//! field, tool or agent.
//!
//! Owns these checks. It reads specs only (through `validate::Known`).

use super::errors::{FileError, Problems};
use super::model::{Asker, FieldValue, Role, ScriptedAnswer, Side};
use super::parse::{ActionKind, FieldKind, FieldSpec, FileSpec, MatcherSpec, PropertySpec, ProtocolSpec, StepSpec, TeamSpec, TeammateSpec};
use super::property::EventKind;
use super::read::{At, Scalar};
use super::validate::{is_name, list, scripted_rejections, unique, Known, FILE_ONLY_RULES};
use crate::protocol::faults::MAX_DELAY_MS;
use crate::protocol::{AgentName, Rule};

/// The value `v` takes in field `f`, or `None` when it is of another type.
pub(crate) fn field_value(f: &FieldSpec, v: &Scalar) -> Option<FieldValue> {
    match (f.kind.as_ref().map(|k| k.value)?, v) {
        (FieldKind::String, Scalar::Text(s)) => Some(FieldValue::Text(s.clone())),
        (FieldKind::Bool, Scalar::Bool(b)) => Some(FieldValue::Bool(*b)),
        (FieldKind::Int, Scalar::Int(i)) => Some(FieldValue::Int(*i)),
        (FieldKind::Enum, Scalar::Text(s)) => {
            let values = &f.values.as_ref()?.value;
            values.iter().position(|x| x.value == *s).and_then(|i| u8::try_from(i).ok()).map(FieldValue::Enum)
        }
        _ => None,
    }
}

fn type_words(f: &FieldSpec) -> String {
    match f.kind.as_ref().map(|k| k.value) {
        Some(FieldKind::String) => "a string".into(),
        Some(FieldKind::Bool) => "true or false".into(),
        Some(FieldKind::Int) => "a whole number".into(),
        Some(FieldKind::Enum) => format!(
            "one of {}",
            list(f.values.as_ref().map(|v| v.value.iter().map(|x| x.value.as_str()).collect::<Vec<_>>()).unwrap_or_default().into_iter())
        ),
        None => "of an unknown type".into(),
    }
}

/// Finds field `name` in `sides` of `pr`.
pub(crate) fn find_field<'s>(pr: &'s ProtocolSpec, sides: &[Side], name: &str) -> Option<(Side, usize, &'s FieldSpec)> {
    sides.iter().find_map(|side| {
        let list = match side {
            Side::Request => &pr.request_fields,
            Side::Response => &pr.response_fields,
        };
        list.iter().position(|f| f.name.as_ref().is_some_and(|n| n.value == name)).map(|i| (*side, i, &list[i]))
    })
}

fn field_names(pr: &ProtocolSpec, sides: &[Side]) -> String {
    let mut names = Vec::new();
    for side in sides {
        let list = if *side == Side::Request { &pr.request_fields } else { &pr.response_fields };
        names.extend(list.iter().filter_map(|f| f.name.as_ref().map(|n| n.value.as_str())));
    }
    list(names.into_iter())
}

fn check_fields(pr: &ProtocolSpec, sides: &[Side], given: &[(At<String>, At<Scalar>)], p: &mut Problems<'_>) {
    let pname = pr.name.as_ref().map_or("?", |n| n.value.as_str());
    for (k, v) in given {
        match find_field(pr, sides, &k.value) {
            None => p.add(
                k.span.clone(),
                k.path.clone(),
                FileError::Unknown {
                    kind: "field",
                    name: k.value.clone(),
                    known: format!("{} (of protocol '{pname}')", field_names(pr, sides)),
                },
            ),
            Some((_, _, f)) if field_value(f, &v.value).is_none() => {
                p.add(v.span.clone(), v.path.clone(), FileError::FieldValue { field: k.value.clone(), expected: type_words(f) })
            }
            Some(_) => {}
        }
    }
}

/// Every check of this module.
pub(crate) fn validate_team_and_properties(file: &FileSpec, known: &Known<'_>, p: &mut Problems<'_>) {
    if let Some(team) = &file.team {
        validate_team(team, known, p);
    }
    unique("property", file.properties.iter().filter_map(|x| x.name.as_ref().map(|n| (n, false))), p);
    for prop in &file.properties {
        property(prop, file.team.as_ref(), known, p);
    }
}

fn validate_team(team: &TeamSpec, known: &Known<'_>, p: &mut Problems<'_>) {
    if let Some(id) = &team.id {
        let ok = id.value.bytes().next().is_some_and(|c| c.is_ascii_lowercase())
            && id.value.len() <= 32
            && id.value.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-');
        if !ok {
            p.add(id.span.clone(), id.path.clone(), FileError::BadTeamId(id.value.clone()));
        }
    }
    for r in &team.rules_off {
        if Rule::by_name(&r.value).is_err() && !FILE_ONLY_RULES.contains(&r.value.as_str()) {
            let names = Rule::ALL.iter().map(|r| r.name()).chain(FILE_ONLY_RULES).collect::<Vec<_>>().join(", ");
            p.add(r.span.clone(), r.path.clone(), FileError::Unknown { kind: "rule", name: r.value.clone(), known: names });
        }
    }
    unique("teammate", team.teammates.iter().filter_map(|t| t.name.as_ref().map(|n| (n, false))), p);
    for t in &team.teammates {
        if let Some(n) = &t.name {
            match AgentName::parse(&n.value) {
                Err(e) => p.add(n.span.clone(), n.path.clone(), FileError::BadAgentName { name: n.value.clone(), why: e.to_string() }),
                Ok(a) if a.is_lead() => p.add(
                    n.span.clone(),
                    n.path.clone(),
                    FileError::BadAgentName {
                        name: n.value.clone(),
                        why: "the lead is always there; name the teammate something else".into(),
                    },
                ),
                Ok(_) => {}
            }
        }
        for g in t.gates.iter().filter(|g| !known.has_gate(&g.value)) {
            p.add(g.span.clone(), g.path.clone(), FileError::Unknown { kind: "gate", name: g.value.clone(), known: known.gate_names() });
        }
        for (name, s) in &t.scripted {
            match known.protocol(&name.value) {
                None => p.add(
                    name.span.clone(),
                    name.path.clone(),
                    FileError::Unknown { kind: "protocol", name: name.value.clone(), known: known.protocol_names() },
                ),
                Some(pr) if pr.to.as_ref().is_some_and(|t| t.value != Role::Teammate) => p.add(
                    name.span.clone(),
                    name.path.clone(),
                    FileError::Invalid(format!("a teammate does not answer protocol '{}' (its `to` is \"lead\")", name.value)),
                ),
                Some(_) => scripted_rejections(s, p),
            }
        }
    }
    let prompts = team.prompts.len().max(1) as i64;
    for s in &team.steps {
        step(s, team, known, prompts, p);
    }
    let types = known.message_types();
    for f in &team.faults {
        if let Some(t) = f.msg_type.as_ref().filter(|t| !types.contains(&t.value.as_str())) {
            p.add(
                t.span.clone(),
                t.path.clone(),
                FileError::Unknown { kind: "message type", name: t.value.clone(), known: types.join(", ") },
            );
        }
        if let Some(pr) = f.probability.as_ref().filter(|x| !(0.0..=1.0).contains(&x.value)) {
            p.add(pr.span.clone(), pr.path.clone(), FileError::Invalid(format!("a probability is from 0 to 1, not {}", pr.value)));
        }
        let delay = f.action.as_ref().is_some_and(|a| a.value == ActionKind::Delay);
        match (&f.ms, delay) {
            (None, true) => p.add(
                f.at.span.clone(),
                format!("{}.ms", f.at.path),
                FileError::MissingKey { key: "ms".into(), why: "a delay says how long, in ms" },
            ),
            (Some(ms), false) => p.add(ms.span.clone(), ms.path.clone(), FileError::Invalid("only a delay takes `ms`; remove it".into())),
            (Some(ms), true) if !(1..=MAX_DELAY_MS as i64).contains(&ms.value) => p.add(
                ms.span.clone(),
                ms.path.clone(),
                FileError::OutOfRange { value: ms.value.to_string(), min: 1, max: MAX_DELAY_MS as i64 },
            ),
            _ => {}
        }
    }
}

fn teammate_known(team: &TeamSpec, name: &At<String>, p: &mut Problems<'_>) -> bool {
    let found = team.teammates.iter().any(|t| t.name.as_ref().is_some_and(|n| n.value == name.value));
    if !found {
        let names = list(team.teammates.iter().filter_map(|t| t.name.as_ref().map(|n| n.value.as_str())));
        p.add(name.span.clone(), name.path.clone(), FileError::Unknown { kind: "teammate", name: name.value.clone(), known: names });
    }
    found
}

fn step(s: &StepSpec, team: &TeamSpec, known: &Known<'_>, prompts: i64, p: &mut Problems<'_>) {
    let actions = [s.spawn.is_some(), s.ask.is_some(), s.answer.is_some(), s.list.is_some(), s.send.is_some()];
    if actions.iter().filter(|a| **a).count() != 1 {
        p.add(s.at.span.clone(), s.at.path.clone(), FileError::StepAction);
        return;
    }
    if let Some(n) = s.prompt.as_ref().filter(|n| !(1..=prompts).contains(&n.value)) {
        p.add(n.span.clone(), n.path.clone(), FileError::OutOfRange { value: n.value.to_string(), min: 1, max: prompts });
    }
    let stray = |key: &str, at: Option<std::ops::Range<usize>>, p: &mut Problems<'_>| {
        if let Some(span) = at {
            p.add(span, format!("{}.{key}", s.at.path), FileError::Invalid(format!("`{key}` has no meaning in this step; remove it")));
        }
    };
    let span = |x: &Option<At<String>>| x.as_ref().map(|a| a.span.clone());
    let fields_span = s.fields.first().map(|f| f.0.span.clone());
    if s.ask.is_none() {
        stray("after", span(&s.after), p);
        stray("until", span(&s.until), p);
    }
    if s.answer.is_none() {
        stray("approve", s.approve.as_ref().map(|a| a.span.clone()), p);
        stray("from", span(&s.from), p);
    }
    if let Some(name) = &s.spawn {
        teammate_known(team, name, p);
        stray("to", span(&s.to), p);
        stray("fields", fields_span, p);
    } else if let Some(l) = &s.list {
        if !l.value {
            p.add(l.span.clone(), l.path.clone(), FileError::Invalid("write list = true, or remove the step".into()));
        }
        stray("to", span(&s.to), p);
        stray("fields", fields_span, p);
    } else if s.send.is_some() {
        match &s.to {
            Some(to) => {
                teammate_known(team, to, p);
            }
            None => p.add(s.at.span.clone(), format!("{}.to", s.at.path), FileError::MissingKey { key: "to".into(), why: "say to whom" }),
        }
        stray("fields", fields_span, p);
    } else if let Some(name) = &s.ask {
        let Some(pr) = protocol_named(known, name, p) else { return };
        if pr.from.as_ref().is_some_and(|f| f.value == Asker::Teammate) {
            p.add(name.span.clone(), name.path.clone(), FileError::LeadMayNotAsk(name.value.clone()));
        }
        match (&s.to, pr.to.as_ref().map(|t| t.value)) {
            (Some(to), Some(Role::Teammate)) => {
                teammate_known(team, to, p);
            }
            (None, Some(Role::Teammate)) => p.add(
                s.at.span.clone(),
                format!("{}.to", s.at.path),
                FileError::MissingKey { key: "to".into(), why: "name the teammate asked" },
            ),
            (Some(to), _) => {
                p.add(to.span.clone(), to.path.clone(), FileError::Invalid("this protocol is answered by the lead: remove `to`".into()))
            }
            (None, _) => {}
        }
        if let Some(after) = &s.after {
            after_names(after, team, known, p);
        }
        if let Some(u) = s.until.as_ref().filter(|u| u.value != "approved") {
            p.add(u.span.clone(), u.path.clone(), FileError::BadChoice { value: u.value.clone(), allowed: "approved" });
        }
        if let (Some(u), Some(to)) = (s.until.as_ref().filter(|u| u.value == "approved"), &s.to) {
            if always_rejects(team, &to.value, pr) {
                let why = format!(
                    "{} always rejects '{}' (its scripted answer is \"reject\"), so asking until approved would never end: remove `until`, or give {} another scripted answer",
                    to.value, name.value, to.value
                );
                p.add(u.span.clone(), u.path.clone(), FileError::UnboundedRetry(why));
            }
        }
        check_fields(pr, &[Side::Request], &s.fields, p);
        for f in pr.request_fields.iter().filter(|f| f.required) {
            let Some(n) = &f.name else { continue };
            if !s.fields.iter().any(|(k, _)| k.value == n.value) {
                p.add(
                    s.at.span.clone(),
                    format!("{}.fields.{}", s.at.path, n.value),
                    FileError::MissingKey { key: n.value.clone(), why: "the request needs it: fields = { NAME = value }" },
                );
            }
        }
    } else if let Some(name) = &s.answer {
        let Some(pr) = protocol_named(known, name, p) else { return };
        if pr.to.as_ref().is_some_and(|t| t.value != Role::Lead) {
            p.add(name.span.clone(), name.path.clone(), FileError::LeadMayNotAnswer(name.value.clone()));
        }
        match &s.from {
            Some(from) => {
                teammate_known(team, from, p);
            }
            None => p.add(
                s.at.span.clone(),
                format!("{}.from", s.at.path),
                FileError::MissingKey { key: "from".into(), why: "say whose request" },
            ),
        }
        if s.approve.is_none() {
            p.add(
                s.at.span.clone(),
                format!("{}.approve", s.at.path),
                FileError::MissingKey { key: "approve".into(), why: "say yes or no" },
            );
        }
        stray("to", span(&s.to), p);
        check_fields(pr, &[Side::Response], &s.fields, p);
    }
}

/// True when teammate `to` answers every request of `pr` with a no: its
/// own scripted answer to `pr`, or else the protocol's, is `reject`.
fn always_rejects(team: &TeamSpec, to: &str, pr: &ProtocolSpec) -> bool {
    let Some(pname) = pr.name.as_ref() else { return false };
    let own = team
        .teammates
        .iter()
        .filter(|t| t.name.as_ref().is_some_and(|n| n.value == to))
        .flat_map(|t| &t.scripted)
        .find(|(k, _)| k.value == pname.value)
        .map(|(_, s)| s);
    let answer = own.or(pr.scripted.as_ref()).and_then(|s| s.answer.as_ref()).map(|a| a.value);
    answer == Some(ScriptedAnswer::Reject)
}

fn after_names(after: &At<String>, team: &TeamSpec, known: &Known<'_>, p: &mut Problems<'_>) {
    let bad = || FileError::BadChoice { value: after.value.clone(), allowed: "settled:PROTOCOL, message:TEAMMATE" };
    match after.value.split_once(':') {
        Some(("settled", name)) => {
            protocol_named(known, &after.map(|_| name.to_string()), p);
        }
        Some(("message", name)) => {
            teammate_known(team, &after.map(|_| name.to_string()), p);
        }
        _ => p.add(after.span.clone(), after.path.clone(), bad()),
    }
}

fn protocol_named<'s>(known: &Known<'s>, name: &At<String>, p: &mut Problems<'_>) -> Option<&'s ProtocolSpec> {
    let found = known.protocol(&name.value);
    if found.is_none() {
        p.add(
            name.span.clone(),
            name.path.clone(),
            FileError::Unknown { kind: "protocol", name: name.value.clone(), known: known.protocol_names() },
        );
    }
    found
}

fn property(prop: &PropertySpec, team: Option<&TeamSpec>, known: &Known<'_>, p: &mut Problems<'_>) {
    if let Some(n) = prop.name.as_ref().filter(|n| !is_name(&n.value, 32)) {
        p.add(n.span.clone(), n.path.clone(), FileError::BadName(n.value.clone()));
    }
    if let Some(n) = prop.n.as_ref().filter(|n| !(0..=1_000_000).contains(&n.value)) {
        p.add(n.span.clone(), n.path.clone(), FileError::OutOfRange { value: n.value.to_string(), min: 0, max: 1_000_000 });
    }
    let mut named = Vec::new();
    for (_, m) in &prop.matchers {
        if let Some(pr) = matcher(m, team, known, p) {
            named.push(pr);
        }
    }
    let Some(scope) = &prop.scope else { return };
    match scope.value.as_str() {
        "run" | "per_agent" | "per_request" => {}
        s if s.starts_with("per_key:") => {
            let field = &s["per_key:".len()..];
            if named.is_empty() {
                p.add(
                    scope.span.clone(),
                    scope.path.clone(),
                    FileError::Invalid("per_key reads a field of a protocol: name the protocol in the pattern's events".into()),
                );
            }
            for pr in named {
                if find_field(pr, &[Side::Request, Side::Response], field).is_none() {
                    let pname = pr.name.as_ref().map_or("?", |n| n.value.as_str());
                    let known = format!("{} (of protocol '{pname}')", field_names(pr, &[Side::Request, Side::Response]));
                    p.add(scope.span.clone(), scope.path.clone(), FileError::Unknown { kind: "field", name: field.to_string(), known });
                }
            }
        }
        _ => p.add(
            scope.span.clone(),
            scope.path.clone(),
            FileError::BadChoice { value: scope.value.clone(), allowed: "run, per_agent, per_request, per_key:FIELD" },
        ),
    }
}

/// Checks one matcher; returns the protocol it names.
fn matcher<'s>(m: &MatcherSpec, team: Option<&TeamSpec>, known: &Known<'s>, p: &mut Problems<'_>) -> Option<&'s ProtocolSpec> {
    let pr = m.protocol.as_ref().and_then(|name| protocol_named(known, name, p));
    let is_tool = m.event.as_ref().is_some_and(|e| e.value == EventKind::Tool);
    match (&m.tool, is_tool) {
        (Some(t), false) => p.add(t.span.clone(), t.path.clone(), FileError::Invalid("`tool` goes with event = \"tool\" only".into())),
        (Some(t), true) if !known.tool_names().contains(&t.value.as_str()) => p.add(
            t.span.clone(),
            t.path.clone(),
            FileError::Unknown { kind: "tool", name: t.value.clone(), known: known.tool_names().join(", ") },
        ),
        _ => {}
    }
    if let Some(a) = &m.agent {
        agent(a, team, p);
    }
    match pr {
        Some(pr) => check_fields(pr, &[Side::Request, Side::Response], &m.fields, p),
        None => {
            for (k, _) in m.fields.iter().filter(|_| m.protocol.is_none()) {
                let known = "event, protocol, agent, tool; a field filter needs `protocol` to say whose field".to_string();
                p.add(k.span.clone(), k.path.clone(), FileError::Unknown { kind: "key or field", name: k.value.clone(), known });
            }
        }
    }
    pr
}

fn agent(a: &At<String>, team: Option<&TeamSpec>, p: &mut Problems<'_>) {
    let teammates: Vec<&TeammateSpec> = team.map(|t| t.teammates.iter().collect()).unwrap_or_default();
    if let Some(role) = a.value.strip_prefix("role:") {
        let roles: Vec<&str> = teammates.iter().filter_map(|t| t.role.as_ref().map(|r| r.value.as_str())).collect();
        if team.is_some() && !roles.contains(&role) {
            p.add(
                a.span.clone(),
                a.path.clone(),
                FileError::Unknown { kind: "role", name: role.to_string(), known: list(roles.into_iter()) },
            );
        }
        return;
    }
    if a.value == "lead" {
        return;
    }
    if let Err(e) = AgentName::parse(&a.value) {
        p.add(a.span.clone(), a.path.clone(), FileError::BadAgentName { name: a.value.clone(), why: e.to_string() });
    } else if team.is_some() && !teammates.iter().any(|t| t.name.as_ref().is_some_and(|n| n.value == a.value)) {
        let names = std::iter::once("lead").chain(teammates.iter().filter_map(|t| t.name.as_ref().map(|n| n.value.as_str())));
        p.add(a.span.clone(), a.path.clone(), FileError::Unknown { kind: "agent", name: a.value.clone(), known: list(names) });
    }
}
