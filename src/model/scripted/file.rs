//! The scripted model under a protocol file: before the lesson's policies
//! decide, an agent answers each request of a file protocol it has heard
//! as that protocol's `scripted` says (`approve`, `reject`, `reject_first`
//! with `rejections`, `never`; `by_task` leaves it to the policies), and a
//! teammate about to use a tool its closed gate holds asks first with the
//! protocol whose approval opens the gate, then waits for the answer.
//! Playing a file's `[team]`, a request one of its steps answers is left
//! to the steps (`team`), and its teammate asks it first.
//!
//! Owns only those two decisions, read from message types, request ids,
//! `approve` flags and the file's declarations: no English word of a
//! message is matched. An answer the tool refused for its input (it does
//! not fit the file's declarations) counts as not given: the agent answers
//! again on its next turn. It sees only the request (and the file): it must
//! not reach into the runtime or the team.

use serde_json::{json, Map, Value};

use super::conversation::{Conversation, Decision};
use crate::protocol::file::{Effect, Field, FieldType, GateIx, Party, Protocol, ProtocolFile, Role, Scripted, ScriptedAnswer};

/// How many times a teammate asks to open a gate before it gives up.
const MAX_GATE_ASKS: usize = 3;

/// The file's decision for `me` (`None` for the lead), ahead of the
/// lesson's policies, or `None` to leave the turn to them. `base` is what
/// the policies would do (or, with `steps`, the lead's next step of the
/// file's team: then the requests a step answers are left to it).
/// With `ask_at_gates` off, a teammate skips asking before a gated tool
/// and calls it (the explorer's alternative: the core refuses it while the
/// gate is closed).
pub(super) fn decide(
    file: &ProtocolFile,
    me: Option<&str>,
    c: &Conversation,
    base: &Decision,
    steps: bool,
    ask_at_gates: bool,
) -> Option<Decision> {
    answer(file, me, c, steps)
        .or_else(|| me.filter(|_| steps).and_then(|me| super::team::ask_first(file, me, c)))
        .or_else(|| unanswered(file, me, base, steps))
        .or_else(|| me.filter(|_| ask_at_gates).and_then(|me| gate_first(file, me, c, base)))
}

/// The protocol's policy for `me` (a teammate's own, when the file's team
/// gives it one).
fn scripted_for(file: &ProtocolFile, me: Option<&str>, ix: usize, p: &Protocol) -> Scripted {
    me.and_then(|me| file.team.as_ref()?.teammates.iter().find(|t| t.name.as_str() == me))
        .and_then(|t| t.scripted.iter().find(|(i, _)| usize::from(i.0) == ix).map(|(_, s)| *s))
        .unwrap_or(p.scripted)
}

/// The lesson's policies may answer a file protocol's request (its message
/// type can be the lesson's); a protocol whose `scripted` says how to
/// answer (here: `never`) keeps them from it: those calls are dropped.
fn unanswered(file: &ProtocolFile, me: Option<&str>, base: &Decision, steps: bool) -> Option<Decision> {
    if me.is_none() && steps {
        // The lead follows the team's steps, not the lesson's policies.
        return None;
    }
    let held = |tool: &str| {
        file.protocols.iter().enumerate().any(|(ix, p)| {
            !p.builtin
                && p.to == role(me)
                && p.tools.respond.as_ref().is_some_and(|t| t.name == tool)
                && scripted_for(file, me, ix, p).answer != ScriptedAnswer::ByTask
        })
    };
    if !base.calls.iter().any(|(tool, _)| held(tool)) {
        return None;
    }
    let mut d = Decision::say(base.text.clone());
    d.calls = base.calls.iter().filter(|(tool, _)| !held(tool)).cloned().collect();
    Some(d)
}

/// The role `me` plays in a file protocol.
fn role(me: Option<&str>) -> Role {
    if me.is_some() {
        Role::Teammate
    } else {
        Role::Lead
    }
}

/// Answers the oldest request of a file protocol addressed to this agent
/// that it has not answered yet and that has not expired, as the
/// protocol's `scripted` says.
fn answer(file: &ProtocolFile, me: Option<&str>, c: &Conversation, steps: bool) -> Option<Decision> {
    for m in &c.all_messages {
        let Some(msg_type) = m["type"].as_str() else { continue };
        let Some((ix, p)) = file.protocols.iter().enumerate().find(|(_, p)| !p.builtin && p.request_type == msg_type) else {
            continue;
        };
        if p.to != role(me)
            || (me.is_none() && steps && super::team::answered_by_a_step(file, msg_type, m["from"].as_str().unwrap_or_default()))
        {
            continue;
        }
        let (Some(tool), Some(id)) = (p.tools.respond.as_ref(), m["request_id"].as_str()) else { continue };
        // An answer the tool refused for its input (a slip: it does not fit
        // the respond tool's schema) never reached the team: answer again.
        // One the team refused (it fit) stands: asking again would be
        // refused again.
        let answered = c
            .all_calls
            .iter()
            .any(|k| k.name == tool.name && k.arg("request_id") == id && k.result.is_some() && (k.ok() || fits_answer(p, k.input)));
        if answered || c.expired_to_me(id) {
            continue;
        }
        let scripted = scripted_for(file, me, ix, p);
        let rejected_before = c.all_calls.iter().filter(|k| k.name == tool.name && k.ok() && k.input["approve"] == false).count();
        let approve = match scripted.answer {
            ScriptedAnswer::Approve => true,
            ScriptedAnswer::Reject => false,
            ScriptedAnswer::RejectFirst => rejected_before >= usize::try_from(scripted.rejections).unwrap_or(usize::MAX),
            ScriptedAnswer::Never | ScriptedAnswer::ByTask => continue,
        };
        let mut input = fields(&p.response_fields, "");
        input.insert("request_id".into(), json!(id));
        input.insert("approve".into(), json!(approve));
        let say = if approve { "Approving." } else { "Rejecting." };
        return Some(Decision::say(say).call(&tool.name, Value::Object(input)));
    }
    None
}

/// True when `input` fits `p`'s respond tool's schema (`runtime::tools`
/// reads a call against the same declarations): a text `request_id`, a
/// true/false `approve`, no key the protocol does not declare, every
/// required field present and each value of its field's type (an enum's
/// among its values). Read from the file's declarations, not from the
/// refusal's words.
pub(super) fn fits_answer(p: &Protocol, input: &Value) -> bool {
    let Some(o) = input.as_object() else { return false };
    let envelope = o.get("request_id").is_some_and(Value::is_string) && o.get("approve").is_some_and(Value::is_boolean);
    let declared = o.keys().all(|k| k == "request_id" || k == "approve" || p.response_fields.iter().any(|f| f.name == *k));
    envelope
        && declared
        && p.response_fields.iter().all(|f| match o.get(f.name.as_str()).filter(|v| !v.is_null()) {
            None => !f.required,
            Some(v) => match &f.field_type {
                FieldType::String => v.is_string(),
                FieldType::Bool => v.is_boolean(),
                FieldType::Int => v.is_i64(),
                FieldType::Enum(values) => v.as_str().is_some_and(|s| values.iter().any(|e| e == s)),
            },
        })
}

/// A value for each required field (and each content field, which carries
/// `text`): an enum's first value, `true`, `0`, or `text`.
pub(super) fn fields(declared: &[Field], text: &str) -> Map<String, Value> {
    declared
        .iter()
        .filter(|f| f.required || (f.content && !text.is_empty()))
        .map(|f| {
            let value = match &f.field_type {
                FieldType::String => json!(if text.is_empty() { "ok" } else { text }),
                FieldType::Bool => json!(true),
                FieldType::Int => json!(0),
                FieldType::Enum(values) => json!(values.first().cloned().unwrap_or_default()),
            };
            (f.name.clone(), value)
        })
        .collect()
}

/// The protocol a teammate asks with to open gate `g`, if one does.
fn opener(file: &ProtocolFile, g: GateIx) -> Option<&Protocol> {
    file.protocols.iter().find(|p| {
        p.from.allows(Role::Teammate) && p.on_approve.iter().any(|e| matches!(e, Effect::OpenGate(o, Party::Requester) if *o == g))
    })
}

/// A teammate whose next call (`base`) uses a tool a closed gate of its
/// holds: it asks with the protocol that opens the gate instead (or waits
/// for the answer to the ask it made). Its gates start as the file's team
/// closes them, and open and close with the answers it has read.
fn gate_first(file: &ProtocolFile, me: &str, c: &Conversation, base: &Decision) -> Option<Decision> {
    let spec = file.team.as_ref()?.teammates.iter().find(|t| t.name.as_str() == me)?;
    let mut closed: Vec<GateIx> = spec.gates.clone();
    for m in &c.all_messages {
        let Some(p) = file.protocols.iter().find(|p| m["type"].as_str() == Some(p.response_type.as_str())) else { continue };
        let effects = if m["approve"] == true { &p.on_approve } else { &p.on_reject };
        for e in effects {
            match e {
                Effect::OpenGate(g, Party::Requester) => closed.retain(|c| c != g),
                Effect::CloseGate(g, Party::Requester) if !closed.contains(g) => closed.push(*g),
                _ => {}
            }
        }
    }
    let (tool, input) = base.calls.first()?;
    let g = *closed.iter().find(|g| file.gates.get(usize::from(g.0)).is_some_and(|gate| gate.tools.iter().any(|t| t == tool)))?;
    let p = opener(file, g)?;
    let asks: Vec<_> = c.all_calls.iter().filter(|k| k.name == p.tools.request.name && k.ok()).collect();
    let answers = c.all_messages.iter().filter(|m| m["type"].as_str() == Some(p.response_type.as_str())).count();
    let expired = c.all_expiries.iter().filter(|e| e["protocol"] == p.name.as_str()).count();
    if asks.len() > answers + expired {
        return Some(Decision::say("Waiting for an answer before I go on."));
    }
    // After an expiry, ask again only while the protocol's retries last.
    let heard = super::team::outcomes(c, p, None);
    if asks.len() >= MAX_GATE_ASKS || (heard.expired_in_a_row() > 0 && !heard.may_retry(p)) {
        return Some(Decision::say("Still not allowed; waiting for new instructions."));
    }
    let what = format!("{tool} {}", input["path"].as_str().unwrap_or_default());
    let mut ask = fields(&p.request_fields, what.trim());
    if p.to == Role::Teammate {
        // A teammate-to-teammate opener needs an addressee the file does not
        // name: leave the gate to the lesson's policies.
        return None;
    }
    ask.remove("teammate");
    Some(Decision::say("Asking first.").call(&p.tools.request.name, Value::Object(ask)))
}
