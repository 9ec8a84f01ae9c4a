//! The scripted lead under a protocol file's `[team]`: it follows the
//! team's steps in order — spawn a teammate with its role and task, answer
//! a teammate's request of a protocol (once that request is in its inbox),
//! ask with a protocol (after what the step waits for; again after each
//! rejection when it asks until approved, at most `MAX_ASKS_UNTIL_APPROVED`
//! times), list the team, send a plain
//! message — and when every step is done it summarises as the lesson's
//! lead does. A teammate whose request the steps answer asks it first.
//!
//! Owns those decisions only, read from the conversation's calls, message
//! types, senders and request ids and from the file: no English word of a
//! message is matched. It must not reach into the runtime or the team.

use serde_json::{json, Map, Value};

use super::conversation::{Conversation, Decision, Learned};
use super::goal::parse_lead_goal;
use super::lead::summary;
use crate::protocol::file::{
    After, FieldSetting, FieldType, FieldValue, Protocol, ProtocolFile, ProtocolIx, StepAction, Teammate, TeammateIx, MAX_REJECTIONS,
};

/// The most asks of one `until = "approved"` step: one past the most
/// rejections a scripted answer gives before its yes (`reject_first`), so a
/// teammate that never approves (an answer flipped by the explorer, a file
/// built in code) ends the step instead of the run never going quiet.
pub(super) const MAX_ASKS_UNTIL_APPROVED: usize = MAX_REJECTIONS as usize + 1;

/// The prompt the scripted lead hands a teammate of the team.
pub(super) fn teammate_prompt(t: &Teammate) -> String {
    format!("You are {}, a {}. Your task: {}", t.name, t.role, t.task)
}

/// The lead's next move under `file`'s team, or `None` when the file has
/// no team (the lesson's lead decides then).
pub(super) fn lead(file: &ProtocolFile, c: &Conversation) -> Option<Decision> {
    let team = file.team.as_ref()?;
    let heard = c.prompts.len().max(1);
    for step in team.steps.iter().filter(|s| usize::from(s.prompt) < heard) {
        match &step.action {
            StepAction::Spawn(t) => {
                let t = teammate(file, *t);
                if !c.calls_named("spawn_teammate").any(|k| k.arg("name") == t.name.as_str()) {
                    let input = json!({ "name": t.name.as_str(), "role": t.role, "prompt": teammate_prompt(t), "plan_mode": false });
                    return Some(Decision::say(format!("Spawning {}.", t.name)).call("spawn_teammate", input));
                }
            }
            StepAction::Answer { protocol, from, approve, fields } => {
                let p = file.protocol(*protocol);
                let t = teammate(file, *from);
                let Some(tool) = p.tools.respond.as_ref() else { continue };
                let ids: Vec<&str> = requests_from(c, &p.request_type, t.name.as_str());
                let tried = |id: &str, ok: bool| c.calls_named(&tool.name).any(|k| k.arg("request_id") == id && (k.ok() || !ok));
                if ids.iter().any(|id| tried(id, true)) {
                    continue;
                }
                // A request that expired (the lead was told so, or its
                // answer was refused) is passed over for the next one.
                let Some(id) = ids.iter().find(|id| !tried(id, false) && !c.expired_to_me(id)) else {
                    return Some(Decision::say(format!("Waiting for {}'s {} request.", t.name, p.name)));
                };
                let mut input = values(file, *protocol, fields, &p.response_fields);
                input.insert("request_id".into(), json!(id));
                input.insert("approve".into(), json!(approve));
                let say = if *approve { "Approving." } else { "Rejecting." };
                return Some(Decision::say(say).call(&tool.name, Value::Object(input)));
            }
            StepAction::Ask { protocol, to, after, until_approved, fields } => {
                let p = file.protocol(*protocol);
                let who = to.map(|t| teammate(file, t).name.as_str());
                let tool = &p.tools.request.name;
                let asks: Vec<_> = c.calls_named(tool).filter(|k| who.is_none_or(|w| k.arg("teammate") == w)).collect();
                let heard = outcomes(c, p, who);
                let ask = || {
                    let mut input = values(file, *protocol, fields, &p.request_fields);
                    if let Some(w) = who {
                        input.insert("teammate".into(), json!(w));
                    }
                    Decision::say(format!("Asking with {}.", p.name)).call(tool, Value::Object(input))
                };
                match asks.last() {
                    None if after.is_some_and(|a| !happened(file, c, &a)) => {
                        return Some(Decision::say(format!("Waiting before I ask with {}.", p.name)));
                    }
                    None => return Some(ask()),
                    Some(last) if !last.ok() => {}
                    Some(_) if heard.approved() => {}
                    Some(_) if heard.settled() < asks.len() && *until_approved => {
                        return Some(Decision::say(format!("Waiting for the answer to my {} request.", p.name)));
                    }
                    Some(_) if heard.settled() < asks.len() => {}
                    // Expired unanswered: ask again while the protocol's retries last.
                    Some(_) if heard.expired_in_a_row() > 0 => {
                        if heard.may_retry(p) {
                            return Some(ask());
                        }
                    }
                    // Rejected: ask again, but no more often than any
                    // scripted answer says no before its yes.
                    Some(_) if *until_approved && asks.len() < MAX_ASKS_UNTIL_APPROVED => return Some(ask()),
                    Some(_) => {}
                }
            }
            StepAction::ListTeammates => {
                if c.calls_named("list_teammates").next().is_none() {
                    return Some(Decision::say("Listing the team.").call("list_teammates", json!({})));
                }
            }
            StepAction::Send { to, content } => {
                let t = teammate(file, *to);
                if !c.calls_named("send_message").any(|k| k.arg("to") == t.name.as_str() && k.arg("content") == content) {
                    let input = json!({ "to": t.name.as_str(), "content": content });
                    return Some(Decision::say("Sending a plain message.").call("send_message", input));
                }
            }
        }
    }
    Some(Decision::say(summary(c, &parse_lead_goal("", &[])).trim_end()))
}

/// True when the request with `request_type` from `from` is one a step of
/// the team answers (the protocol's `scripted` must leave it to the step).
pub(super) fn answered_by_a_step(file: &ProtocolFile, request_type: &str, from: &str) -> bool {
    file.team.iter().flat_map(|t| &t.steps).any(|s| match &s.action {
        StepAction::Answer { protocol, from: t, .. } => {
            file.protocol(*protocol).request_type == request_type && teammate(file, *t).name.as_str() == from
        }
        _ => false,
    })
}

/// A teammate whose request of a protocol a step of the team answers asks
/// it before anything else, then waits for the answer (`None` once it has
/// one, or when no step answers it).
pub(super) fn ask_first(file: &ProtocolFile, me: &str, c: &Conversation) -> Option<Decision> {
    let team = file.team.as_ref()?;
    let me_ix = team.teammates.iter().position(|t| t.name.as_str() == me)?;
    for step in &team.steps {
        let StepAction::Answer { protocol, from, .. } = &step.action else { continue };
        if usize::from(from.0) != me_ix {
            continue;
        }
        let p = file.protocol(*protocol);
        let asked = c.calls_named(&p.tools.request.name).filter(|k| k.ok()).count();
        let heard = outcomes(c, p, None);
        let ask = || {
            let input = super::file::fields(&p.request_fields, "");
            Some(Decision::say(format!("Asking with {} first.", p.name)).call(&p.tools.request.name, Value::Object(input)))
        };
        if asked == 0 {
            return ask();
        }
        if heard.answered() {
            continue;
        }
        if heard.settled() < asked {
            return Some(Decision::say("Waiting for the lead's answer."));
        }
        // Every ask expired unanswered: again while the retries last.
        if heard.may_retry(p) {
            return ask();
        }
    }
    None
}

/// What one agent heard back about its requests of a protocol, in the
/// order it heard it: each answer once per request (approved or not), and
/// each expiry note (`Heard::Expired`).
#[derive(Debug, Default)]
pub(super) struct Outcomes(Vec<Option<bool>>);

impl Outcomes {
    /// How many of the requests settled as far as the asker knows.
    pub(super) fn settled(&self) -> usize {
        self.0.len()
    }

    /// Some request was approved.
    pub(super) fn approved(&self) -> bool {
        self.0.contains(&Some(true))
    }

    /// Some request was answered (either way).
    pub(super) fn answered(&self) -> bool {
        self.0.iter().any(Option::is_some)
    }

    /// How many of the latest outcomes in a row are expiries.
    pub(super) fn expired_in_a_row(&self) -> usize {
        self.0.iter().rev().take_while(|o| o.is_none()).count()
    }

    /// The latest request expired, and the protocol lets its asker ask
    /// again (as many expiries in a row as its `retries`, as the core
    /// counts them).
    pub(super) fn may_retry(&self, p: &Protocol) -> bool {
        let n = self.expired_in_a_row();
        n > 0 && n <= usize::from(p.retries)
    }
}

/// The outcomes of the asks with `p` (to `to`, when named) heard since the
/// latest prompt: the answers (messages of its response type) and the
/// expiry notes of its requests, by request id.
pub(super) fn outcomes(c: &Conversation, p: &Protocol, to: Option<&str>) -> Outcomes {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Outcomes::default();
    for item in &c.learned {
        let (v, outcome) = match *item {
            Learned::Message(i) if c.messages[i]["type"] == p.response_type.as_str() && to.is_none_or(|w| c.messages[i]["from"] == w) => {
                (&*c.messages[i], Some(c.messages[i]["approve"] == true))
            }
            Learned::Expired(i) if c.expiries[i]["protocol"] == p.name.as_str() && to.is_none_or(|w| c.expiries[i]["to"] == w) => {
                (&*c.expiries[i], None)
            }
            _ => continue,
        };
        let id = v["request_id"].as_str().unwrap_or_default();
        if !seen.contains(&id) {
            seen.push(id);
            out.0.push(outcome);
        }
    }
    out
}

fn teammate(file: &ProtocolFile, t: TeammateIx) -> &Teammate {
    &file.team.as_ref().expect("a step names a teammate of the file's team").teammates[usize::from(t.0)]
}

/// The ids of the requests of `request_type` from `from` in the inbox.
fn requests_from<'c>(c: &'c Conversation, request_type: &str, from: &str) -> Vec<&'c str> {
    c.all_messages.iter().filter(|m| m["type"] == request_type && m["from"] == from).filter_map(|m| m["request_id"].as_str()).fold(
        Vec::new(),
        |mut ids, id| {
            if !ids.contains(&id) {
                ids.push(id);
            }
            ids
        },
    )
}

/// True once what an `after` waits for has happened, as the lead saw it.
fn happened(file: &ProtocolFile, c: &Conversation, after: &After) -> bool {
    match after {
        After::Settled(p) => {
            let p = file.protocol(*p);
            let answered =
                p.tools.respond.as_ref().is_some_and(|t| c.calls_named(&t.name).any(|k| k.ok() && k.input.get("approve").is_some()));
            // An expiry settles a request too (rejected, cause `expired`).
            answered || c.messages_of(&p.response_type).next().is_some() || c.expiries.iter().any(|e| e["protocol"] == p.name.as_str())
        }
        After::MessageFrom(t) => {
            let name = teammate(file, *t).name.as_str();
            c.messages_of("message").any(|m| m["from"] == name)
        }
    }
}

/// A step's field settings as tool input, each required field the step
/// leaves out filled as the scripted answers fill it.
fn values(
    file: &ProtocolFile,
    protocol: ProtocolIx,
    settings: &[FieldSetting],
    declared: &[crate::protocol::file::Field],
) -> Map<String, Value> {
    let mut input = super::file::fields(declared, "");
    let p = file.protocol(protocol);
    for s in settings.iter().filter(|s| s.protocol == protocol) {
        let Some(f) = p.fields(s.side).get(usize::from(s.field.0)) else { continue };
        let value = match (&s.value, &f.field_type) {
            (FieldValue::Text(t), _) => json!(t),
            (FieldValue::Bool(b), _) => json!(b),
            (FieldValue::Int(i), _) => json!(i),
            (FieldValue::Enum(i), FieldType::Enum(vs)) => json!(vs.get(usize::from(*i)).cloned().unwrap_or_default()),
            (FieldValue::Enum(_), _) => continue,
        };
        input.insert(f.name.clone(), value);
    }
    input
}
