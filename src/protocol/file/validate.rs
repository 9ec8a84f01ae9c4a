//! The refusals of the contract's "Refused" list for a file's format,
//! gates and protocols: names (shape, twice used), tool names (shape,
//! clashing with a built-in tool or another protocol's tool of the same
//! role), message types (`message`, `broadcast`, another protocol's),
//! reserved field names, field types, effects (`exit` on the lead, gates
//! that do not exist), unbounded retries, and the protective rule
//! `responder_required` (a protocol nobody can answer, a gate nobody
//! opens) unless the team switches it off. The team's and the properties'
//! refusals are `validate_team`'s.
//!
//! Owns these checks and the table of what the file (with the lesson, when
//! it uses it) names (`Known`). It reads specs only; it builds nothing.

use std::collections::HashMap;

use super::errors::{FileError, Problems, MAX_DEADLINE_MS, MAX_RETRIES};
use super::model::{Asker, Party, Role, ScriptedAnswer, MAX_REJECTIONS};
use super::parse::{EffectKind, FieldKind, FieldSpec, FileSpec, GateSpec, ProtocolSpec};
use super::read::At;
use super::result_text;

/// The tools every agent has without a protocol (the contract's list).
pub const BUILTIN_TOOLS: [&str; 9] =
    ["list_files", "read_file", "write_file", "edit_file", "spawn_teammate", "list_teammates", "send_message", "read_inbox", "broadcast"];

/// Field names every protocol message already has.
pub const RESERVED_FIELDS: [&str; 7] = ["type", "from", "to", "content", "timestamp", "request_id", "approve"];

/// The protective rules only a protocol file knows (not in
/// `protocol::rules`, whose `Rule` list the runtime, the page and the trace
/// header share: adding one there would change them).
pub const FILE_ONLY_RULES: [&str; 1] = ["responder_required"];

/// `[a-z][a-z0-9_]{0,max-1}`.
pub(crate) fn is_name(s: &str, max: usize) -> bool {
    let mut b = s.bytes();
    b.next().is_some_and(|c| c.is_ascii_lowercase())
        && s.len() <= max
        && b.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}

/// `^[a-zA-Z0-9_-]{1,64}$`.
pub(crate) fn is_tool_name(s: &str) -> bool {
    (1..=64).contains(&s.len()) && s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
}

/// What the file names, with the lesson's items first when it is used.
pub(crate) struct Known<'s> {
    pub(crate) protocols: Vec<(&'s ProtocolSpec, bool)>,
    pub(crate) gates: Vec<(&'s GateSpec, bool)>,
    /// `responder_required` is on (the team did not switch it off).
    pub(crate) responder_required: bool,
}

impl<'s> Known<'s> {
    pub(crate) fn new(file: &'s FileSpec, lesson: Option<&'s FileSpec>) -> Self {
        let builtin = |f: &'s FileSpec| f.protocols.iter().map(|p| (p, true)).collect::<Vec<_>>();
        let mut protocols = lesson.map(builtin).unwrap_or_default();
        protocols.extend(file.protocols.iter().map(|p| (p, false)));
        let mut gates: Vec<(&GateSpec, bool)> = lesson.map(|l| l.gates.iter().map(|g| (g, true)).collect()).unwrap_or_default();
        gates.extend(file.gates.iter().map(|g| (g, false)));
        let off = file.team.as_ref().is_some_and(|t| t.rules_off.iter().any(|r| r.value == "responder_required"));
        Known { protocols, gates, responder_required: !off }
    }

    pub(crate) fn protocol(&self, name: &str) -> Option<&'s ProtocolSpec> {
        self.protocols.iter().map(|(p, _)| *p).find(|p| p.name.as_ref().is_some_and(|n| n.value == name))
    }

    pub(crate) fn protocol_names(&self) -> String {
        list(self.protocols.iter().filter_map(|(p, _)| p.name.as_ref().map(|n| n.value.as_str())))
    }

    pub(crate) fn gate_names(&self) -> String {
        list(self.gates.iter().filter_map(|(g, _)| g.name.as_ref().map(|n| n.value.as_str())))
    }

    pub(crate) fn has_gate(&self, name: &str) -> bool {
        self.gates.iter().any(|(g, _)| g.name.as_ref().is_some_and(|n| n.value == name))
    }

    /// Every tool name an agent may hold: the built-in ones and each
    /// protocol's.
    pub(crate) fn tool_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = BUILTIN_TOOLS.to_vec();
        for (p, _) in &self.protocols {
            for t in [&p.request_tool, &p.respond_tool, &p.status_tool].into_iter().flatten() {
                if let Some(n) = &t.name {
                    names.push(&n.value);
                }
            }
        }
        names
    }

    /// Every message type: `message`, `broadcast` and each protocol's two.
    pub(crate) fn message_types(&self) -> Vec<&str> {
        let mut types = vec!["message", "broadcast"];
        for (p, _) in &self.protocols {
            types.extend(p.request.iter().chain(&p.response).map(|t| t.value.as_str()));
        }
        types
    }
}

/// Names joined for a refusal ("(none)" when there are none).
pub(crate) fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "(none)".into()
    } else {
        v.join(", ")
    }
}

/// Refuses a second use of a name among items of one kind; `builtin` names
/// were taken by the lesson.
pub(crate) fn unique<'a>(kind: &'static str, names: impl Iterator<Item = (&'a At<String>, bool)>, p: &mut Problems<'_>) {
    let mut seen: HashMap<&str, (usize, bool)> = HashMap::new();
    for (n, builtin) in names {
        match seen.get(n.value.as_str()) {
            Some((_, true)) if !builtin => p.add(
                n.span.clone(),
                n.path.clone(),
                FileError::Invalid(format!("'{}' is the name of the lesson's {kind} (use = [\"lesson\"]); choose another name", n.value)),
            ),
            Some((first, _)) if !builtin => {
                p.add(n.span.clone(), n.path.clone(), FileError::DuplicateName { kind, name: n.value.clone(), first_line: *first })
            }
            Some(_) => {}
            None => {
                let line = if builtin { 0 } else { p.line_of(n.span.start) };
                seen.insert(&n.value, (line, builtin));
            }
        }
    }
}

/// Every check of this module over a file (and the lesson it uses).
pub(crate) fn validate_protocols(file: &FileSpec, known: &Known<'_>, p: &mut Problems<'_>) {
    match &file.format {
        None => p.add(0..0, "format", FileError::NoFormat),
        Some(f) if f.value != 1 => p.add(f.span.clone(), f.path.clone(), FileError::UnsupportedFormat(f.value)),
        Some(_) => {}
    }
    for u in file.uses.iter().filter(|u| u.value != "lesson") {
        p.add(u.span.clone(), u.path.clone(), FileError::UnknownBuiltin(u.value.clone()));
    }
    let own = |b: &bool| !*b;
    for (name, _) in known.gates.iter().filter(|g| own(&g.1)).filter_map(|(g, b)| g.name.as_ref().map(|n| (n, b))) {
        if !is_name(&name.value, 32) {
            p.add(name.span.clone(), name.path.clone(), FileError::BadName(name.value.clone()));
        }
    }
    unique("gate", known.gates.iter().filter_map(|(g, b)| g.name.as_ref().map(|n| (n, *b))), p);
    unique("protocol", known.protocols.iter().filter_map(|(g, b)| g.name.as_ref().map(|n| (n, *b))), p);
    let tools = known.tool_names();
    for (g, _) in known.gates.iter().filter(|g| own(&g.1)) {
        for t in &g.tools {
            if !tools.contains(&t.value.as_str()) {
                p.add(t.span.clone(), t.path.clone(), FileError::Unknown { kind: "tool", name: t.value.clone(), known: tools.join(", ") });
            }
        }
        let opened = known.protocols.iter().any(|(pr, _)| {
            pr.on_approve.iter().chain(&pr.on_reject).any(|e| {
                e.effect.as_ref().is_some_and(|k| k.value == EffectKind::OpenGate)
                    && e.gate.as_ref().zip(g.name.as_ref()).is_some_and(|(a, b)| a.value == b.value)
            })
        });
        if let (false, true, Some(name)) = (opened, known.responder_required, &g.name) {
            p.add(name.span.clone(), name.path.clone(), FileError::GateNeverOpens(name.value.clone()));
        }
    }
    message_types(known, p);
    tool_clashes(known, p);
    let teammates = file.team.as_ref().map(|t| t.teammates.len());
    for (pr, _) in known.protocols.iter().filter(|g| own(&g.1)) {
        protocol(pr, known, teammates, p);
    }
}

fn message_types(known: &Known<'_>, p: &mut Problems<'_>) {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (pr, builtin) in &known.protocols {
        let owner = pr.name.as_ref().map_or("?", |n| n.value.as_str());
        for t in pr.request.iter().chain(&pr.response) {
            if !builtin && !is_name(&t.value, 64) {
                p.add(t.span.clone(), t.path.clone(), FileError::BadName(t.value.clone()));
            } else if !builtin && ["message", "broadcast"].contains(&t.value.as_str()) {
                p.add(t.span.clone(), t.path.clone(), FileError::MessageTypeReserved(t.value.clone()));
            } else if let Some(other) = seen.get(t.value.as_str()).filter(|_| !builtin) {
                p.add(t.span.clone(), t.path.clone(), FileError::MessageTypeClash { name: t.value.clone(), other: (*other).to_string() });
            }
            seen.entry(&t.value).or_insert(owner);
        }
    }
}

fn tool_clashes(known: &Known<'_>, p: &mut Problems<'_>) {
    for role in [Role::Lead, Role::Teammate] {
        let mut seen: HashMap<&str, &str> = HashMap::new();
        for (pr, builtin) in &known.protocols {
            let (Some(from), Some(to)) = (&pr.from, &pr.to) else { continue };
            let owner = pr.name.as_ref().map_or("?", |n| n.value.as_str());
            let mut held = Vec::new();
            if from.value.allows(role) {
                held.extend(&pr.request_tool);
            }
            if to.value == role {
                held.extend(&pr.respond_tool);
            }
            if from.value.allows(role) {
                held.extend(&pr.status_tool);
            }
            for name in held.into_iter().filter_map(|t| t.name.as_ref()) {
                if let Some(other) = seen.get(name.value.as_str()).filter(|_| !builtin) {
                    let error = FileError::ToolClash { name: name.value.clone(), role: role.name(), other: (*other).to_string() };
                    p.add(name.span.clone(), name.path.clone(), error);
                }
                seen.entry(&name.value).or_insert(owner);
            }
        }
    }
}

fn protocol(pr: &ProtocolSpec, known: &Known<'_>, teammates: Option<usize>, p: &mut Problems<'_>) {
    let pname = pr.name.as_ref().map_or("?", |n| n.value.as_str()).to_string();
    if let Some(n) = pr.name.as_ref().filter(|n| !is_name(&n.value, 32)) {
        p.add(n.span.clone(), n.path.clone(), FileError::BadName(n.value.clone()));
    }
    for t in [&pr.request_tool, &pr.respond_tool, &pr.status_tool].into_iter().flatten().filter_map(|t| t.name.as_ref()) {
        if !is_tool_name(&t.value) {
            p.add(t.span.clone(), t.path.clone(), FileError::BadToolName(t.value.clone()));
        } else if BUILTIN_TOOLS.contains(&t.value.as_str()) {
            p.add(t.span.clone(), t.path.clone(), FileError::ToolClashesWithBuiltin(t.value.clone()));
        }
    }
    for r in [&pr.request_tool, &pr.respond_tool, &pr.status_tool].into_iter().flatten().filter_map(|t| t.result.as_ref()) {
        if let Err(e) = result_text::check(&r.value) {
            p.add(r.span.clone(), r.path.clone(), FileError::BadResult(e));
        }
    }
    let to_teammate = pr.to.as_ref().is_some_and(|t| t.value == Role::Teammate);
    fields(&pr.request_fields, to_teammate, p);
    fields(&pr.response_fields, false, p);
    for e in pr.on_approve.iter().chain(&pr.on_reject) {
        let (Some(kind), Some(who)) = (&e.effect, &e.who) else { continue };
        match (kind.value, &e.gate) {
            (EffectKind::Exit, Some(g)) => {
                p.add(g.span.clone(), g.path.clone(), FileError::EffectGate("an exit takes no gate; remove `gate`"))
            }
            (EffectKind::Exit, None) => {
                let lead_requester = pr.from.as_ref().is_some_and(|f| f.value != Asker::Teammate);
                let lead_addressee = pr.to.as_ref().is_some_and(|t| t.value == Role::Lead);
                if (who.value == Party::Requester && lead_requester) || (who.value == Party::Addressee && lead_addressee) {
                    p.add(who.span.clone(), who.path.clone(), FileError::ExitOnLead);
                }
            }
            (_, None) => p.add(
                e.at.span.clone(),
                format!("{}.gate", e.at.path),
                FileError::EffectGate("open_gate and close_gate name the gate: add gate = \"NAME\""),
            ),
            (_, Some(g)) if !known.has_gate(&g.value) => {
                p.add(g.span.clone(), g.path.clone(), FileError::Unknown { kind: "gate", name: g.value.clone(), known: known.gate_names() })
            }
            (_, Some(_)) => {}
        }
    }
    if let Some(d) = &pr.deadline_ms {
        if !(1..=MAX_DEADLINE_MS as i64).contains(&d.value) {
            p.add(
                d.span.clone(),
                d.path.clone(),
                FileError::OutOfRange { value: d.value.to_string(), min: 1, max: MAX_DEADLINE_MS as i64 },
            );
        }
    }
    if let Some(r) = &pr.retries {
        if r.value > i64::from(MAX_RETRIES) {
            let why = format!("{} retries is too many to explore: allow at most {MAX_RETRIES}", r.value);
            p.add(r.span.clone(), r.path.clone(), FileError::UnboundedRetry(why));
        } else if r.value < 0 {
            p.add(
                r.span.clone(),
                r.path.clone(),
                FileError::OutOfRange { value: r.value.to_string(), min: 0, max: i64::from(MAX_RETRIES) },
            );
        } else if r.value > 0 && pr.deadline_ms.is_none() {
            let why = "retries happen after an expiry, and this protocol has no deadline: add deadline_ms, or remove retries".to_string();
            p.add(r.span.clone(), r.path.clone(), FileError::UnboundedRetry(why));
        }
    }
    if let Some(s) = &pr.scripted {
        scripted_rejections(s, p);
    }
    if !known.responder_required {
        return;
    }
    let no_responder = |why: &str| FileError::NoResponder { protocol: pname.clone(), why: why.to_string() };
    if let (Some(f), Some(t)) = (&pr.from, &pr.to) {
        if f.value == Asker::Lead && t.value == Role::Lead {
            p.add(t.span.clone(), t.path.clone(), no_responder("the lead would ask itself (from = \"lead\", to = \"lead\")"));
        }
        if t.value == Role::Teammate && teammates == Some(0) {
            p.add(t.span.clone(), t.path.clone(), no_responder("it is answered by a teammate and the team has none"));
        }
    }
    if pr.respond_tool.is_none() && pr.request_tool.is_some() {
        let why = "it has no answer tool: add tools.respond = { name, description }";
        p.add(pr.tools_at.span.clone(), format!("{}.respond", pr.tools_at.path), no_responder(why));
    }
}

pub(crate) fn scripted_rejections(s: &super::parse::ScriptedSpec, p: &mut Problems<'_>) {
    let Some(r) = &s.rejections else { return };
    if s.answer.as_ref().is_some_and(|a| a.value != ScriptedAnswer::RejectFirst) {
        p.add(r.span.clone(), r.path.clone(), FileError::Invalid("`rejections` is for answer = \"reject_first\" only".into()));
    } else if !(1..=i64::from(MAX_REJECTIONS)).contains(&r.value) {
        p.add(r.span.clone(), r.path.clone(), FileError::OutOfRange { value: r.value.to_string(), min: 1, max: i64::from(MAX_REJECTIONS) });
    }
}

fn fields(list: &[FieldSpec], to_teammate: bool, p: &mut Problems<'_>) {
    unique("field", list.iter().filter_map(|f| f.name.as_ref().map(|n| (n, false))), p);
    let mut content_seen = false;
    for f in list {
        if let Some(n) = &f.name {
            if RESERVED_FIELDS.contains(&n.value.as_str()) {
                p.add(n.span.clone(), n.path.clone(), FileError::ReservedField(n.value.clone()));
            } else if to_teammate && n.value == "teammate" {
                p.add(n.span.clone(), n.path.clone(), FileError::TeammateField);
            } else if !is_name(&n.value, 32) {
                p.add(n.span.clone(), n.path.clone(), FileError::BadName(n.value.clone()));
            }
        }
        let is_enum = f.kind.as_ref().is_some_and(|k| k.value == FieldKind::Enum);
        match (&f.values, is_enum) {
            (Some(v), false) => {
                p.add(v.span.clone(), v.path.clone(), FileError::EnumValues("`values` belongs to type = \"enum\" only; remove it"))
            }
            (None, true) => p.add(
                f.at.span.clone(),
                format!("{}.values", f.at.path),
                FileError::EnumValues("an enum lists its values: values = [\"a\", \"b\"]"),
            ),
            (Some(v), true) if v.value.is_empty() => {
                p.add(v.span.clone(), v.path.clone(), FileError::EnumValues("an enum needs at least one value"))
            }
            (Some(v), true) => {
                for (i, x) in v.value.iter().enumerate() {
                    if v.value[..i].iter().any(|y| y.value == x.value) {
                        p.add(x.span.clone(), x.path.clone(), FileError::DuplicateValue(x.value.clone()));
                    } else if x.value.is_empty() {
                        p.add(x.span.clone(), x.path.clone(), FileError::EnumValues("an enum value is not empty"));
                    }
                }
            }
            (None, false) => {}
        }
        if let Some(c) = f.content.as_ref().filter(|c| c.value) {
            if f.kind.as_ref().is_some_and(|k| k.value != FieldKind::String) {
                p.add(c.span.clone(), c.path.clone(), FileError::Content("only a string field can be the message's content"));
            } else if content_seen {
                p.add(c.span.clone(), c.path.clone(), FileError::Content("only one field of a message can be its content"));
            }
            content_seen = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_a_lowercase_letter_then_lowercase_letters_digits_or_underscores() {
        for ok in ["a", "review", "plan_2", &"a".repeat(32)] {
            assert!(is_name(ok, 32), "{ok}");
        }
        for bad in ["", "Review", "2plan", "_a", "a-b", "a b", "é", &"a".repeat(33)] {
            assert!(!is_name(bad, 32), "{bad}");
        }
    }

    #[test]
    fn a_tool_name_is_what_providers_accept() {
        for ok in ["review", "Review-2", "a_b", &"x".repeat(64)] {
            assert!(is_tool_name(ok), "{ok}");
        }
        for bad in ["", "a b", "a.b", "é", &"x".repeat(65)] {
            assert!(!is_tool_name(bad), "{bad}");
        }
    }

    #[test]
    fn the_built_in_tools_are_the_ones_every_agent_may_hold_without_a_protocol() {
        assert_eq!(BUILTIN_TOOLS.len(), 9);
        assert!(!BUILTIN_TOOLS.contains(&"shutdown_request"), "protocol tools are not built in");
        assert_eq!(FILE_ONLY_RULES, ["responder_required"]);
        assert!(crate::protocol::Rule::by_name("responder_required").is_err(), "not one of protocol::rules' rules");
    }
}
