//! Small pure views of a trace for the panels: one line per event, the
//! workspace as of an event, the model errors to surface, what was said in
//! a request's messages.
//!
//! Owns text and derived data only; no DOM, no signals.

use std::collections::BTreeMap;

use crate::protocol::{AgentName, Event, RequestId, Trace, TraceEntry};
use crate::view::fate::fault_words;
use crate::view::words::captions::{said_in, Said};

/// The event log entry of one event: its number, time and what happened.
/// Multi-line text (tool output, a model reply) is kept whole, line breaks
/// included; the panel decides how to wrap it.
pub fn describe(entry: &TraceEntry) -> String {
    let what = match &entry.event {
        Event::RunStarted { prompt } => format!("run started: {prompt}"),
        Event::RunFinished => "run finished: the team is quiet".to_string(),
        Event::MemberSpawned { name, role, plan_mode } => {
            format!("{name} spawned as {role}{}", if *plan_mode { " (plan mode)" } else { "" })
        }
        Event::MemberStatusChanged { name, from, to } => format!("{name}: {from} -> {to}"),
        Event::MessageSent { message } => match &message.request_id {
            Some(id) => format!("{} -> {}: {} [{id}]", message.from, message.to, message.msg_type),
            None => format!("{} -> {}: {} \"{}\"", message.from, message.to, message.msg_type, message.content),
        },
        Event::FaultApplied { action, message, .. } => {
            format!("fault: {} -> {}: {} {}", message.from, message.to, message.msg_type, fault_words(action))
        }
        Event::MessageReleased { held } => format!("message held by #{held} released"),
        Event::InboxDrained { agent, message_ids } => format!("{agent} read {} message(s)", message_ids.len()),
        Event::RequestCreated { request_id, request_kind, requester, addressee, .. } => {
            format!("{request_kind} request {request_id} from {requester} to {addressee}: pending")
        }
        Event::RequestTransitioned { request_id, from, to, by, .. } => format!("request {request_id}: {from} -> {to} (by {by})"),
        Event::RequestExpired { request_id, .. } => format!("request {request_id}: pending -> rejected (expired)"),
        Event::ModelCalled { agent } => format!("{agent} calls its model"),
        Event::ModelReplied { agent, stop_reason, text, output_tokens, .. } => {
            // Whole, line breaks kept: a summary's later lines matter too.
            let said = if text.is_empty() { String::new() } else { format!(": \"{}\"", text.trim_end()) };
            format!("{agent}'s model replied ({stop_reason}, {output_tokens} tokens){said}")
        }
        Event::ModelFailed { agent, error } => format!("{agent}'s model call failed: {error}"),
        Event::BudgetReached { agent, limit, spent, unpriced, .. } => {
            if *unpriced {
                format!("budget of {} reached: the model has no price, so {agent}'s model call was not made; the run stopped", limit.cap())
            } else {
                format!(
                    "budget of {} reached ({} spent): {agent}'s next model call would pass it; the run stopped",
                    limit.cap(),
                    limit.amount(*spent)
                )
            }
        }
        Event::ToolCalled { agent, tool, input, .. } => format!("{agent} runs {tool} {input}"),
        Event::ToolReturned { agent, tool, is_error, output, .. } => {
            // Whole, line breaks kept (list_teammates answers in lines).
            format!("{agent}: {tool} {} {}", if *is_error { "failed:" } else { "->" }, output.trim_end())
        }
    };
    format!("#{} {} {what}", entry.seq, entry.time)
}

/// The workspace files as of the first `cursor` events: every successful
/// `write_file` and `edit_file`, replayed in order.
pub fn workspace_at(trace: &Trace, cursor: Option<usize>) -> BTreeMap<String, String> {
    let entries = &trace.entries()[..cursor.unwrap_or(usize::MAX).min(trace.len())];
    let mut calls: BTreeMap<&str, (&str, &serde_json::Value)> = BTreeMap::new();
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for e in entries {
        match &e.event {
            Event::ToolCalled { tool_use_id, tool, input, .. } => {
                calls.insert(tool_use_id, (tool, input));
            }
            Event::ToolReturned { tool_use_id, is_error: false, .. } => {
                let Some((tool, input)) = calls.remove(tool_use_id.as_str()) else { continue };
                let Ok(path) = crate::runtime::workspace::normalise(input["path"].as_str().unwrap_or_default()) else { continue };
                match tool {
                    "write_file" => {
                        files.insert(path, input["content"].as_str().unwrap_or_default().to_string());
                    }
                    "edit_file" => {
                        if let Some(f) = files.get_mut(&path) {
                            *f = f.replacen(
                                input["old_text"].as_str().unwrap_or_default(),
                                input["new_text"].as_str().unwrap_or_default(),
                                1,
                            );
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    files
}

/// The last failed model call of the run, if any: (agent, error). Reads
/// from the end, so it costs nothing when the run has no failure near it.
pub fn last_model_error(trace: &Trace) -> Option<(AgentName, String)> {
    trace.entries().iter().rev().find_map(|e| match &e.event {
        Event::ModelFailed { agent, error } => Some((agent.clone(), error.clone())),
        _ => None,
    })
}

/// What was said, whole, in the messages of request `id` sent among
/// `entries` (the events shown): the plan, the lead's feedback, a
/// teammate's reason, in the order sent — the request detail shows them,
/// as the diagram can only show the start of each under its arrow.
pub fn said_about(entries: &[TraceEntry], id: &RequestId) -> Vec<Said> {
    said_in(entries.iter().filter_map(|e| match &e.event {
        Event::MessageSent { message } if message.request_id.as_ref() == Some(id) => Some(message),
        _ => None,
    }))
}

/// The typed fields of one message of a request, as the request detail
/// lists them: a file protocol's request or answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaidFields {
    /// The message's type (`review_response`).
    pub msg_type: String,
    /// Its approve or reject, for an answer.
    pub approve: Option<bool>,
    /// Each field as `name: value`, in name order.
    pub fields: Vec<String>,
}

/// The fields carried by the messages of request `id` (its request and its
/// answers, in order), for the messages that carry any.
pub fn fields_about(entries: &[TraceEntry], id: &RequestId) -> Vec<SaidFields> {
    entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::MessageSent { message } if message.request_id.as_ref() == Some(id) && !message.fields.is_empty() => Some(SaidFields {
                msg_type: message.msg_type.to_string(),
                approve: message.approve,
                fields: message.fields.iter().map(|(k, v)| format!("{k}: {v}")).collect(),
            }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Millis;
    use serde_json::json;

    fn tool(trace: &mut Trace, id: &str, tool: &str, input: serde_json::Value, ok: bool) {
        let agent = AgentName::parse("a").unwrap();
        trace.append(Millis(0), Event::ToolCalled { agent: agent.clone(), tool_use_id: id.into(), tool: tool.into(), input }).unwrap();
        trace
            .append(
                Millis(0),
                Event::ToolReturned { agent, tool_use_id: id.into(), tool: tool.into(), output: String::new(), is_error: !ok },
            )
            .unwrap();
    }

    #[test]
    fn a_file_requests_detail_lists_each_messages_typed_fields() {
        use crate::protocol::file::ProtocolIx;
        use crate::protocol::{FieldValue, Fields};
        let text = crate::view::protocol_file::TEMPLATE.replace(
            r#"response_fields = [{ name = "comment", type = "string", content = true }]"#,
            r#"response_fields = [{ name = "comment", type = "string", content = true }, { name = "severity", type = "enum", values = ["minor", "major"] }, { name = "urgent", type = "bool" }]"#,
        );
        let mut t = crate::protocol::testing::team_under(&text, 3, &["alice"]);
        let alice = AgentName::parse("alice").unwrap();
        let mut asked = Fields::new();
        asked.set("change", FieldValue::Text("src/auth.py".into()));
        let id = t.ask(ProtocolIx(0), &AgentName::lead(), &alice, asked, Millis(1)).unwrap();
        let mut answer = Fields::new();
        answer.set("severity", FieldValue::Text("major".into()));
        answer.set("urgent", FieldValue::Bool(true));
        t.respond(ProtocolIx(0), &id, &alice, false, answer, Millis(2)).unwrap();
        let listed = fields_about(t.trace().entries(), &id);
        assert_eq!(
            listed,
            [
                SaidFields { msg_type: "review_request".into(), approve: None, fields: vec!["change: src/auth.py".into()] },
                SaidFields {
                    msg_type: "review_response".into(),
                    approve: Some(false),
                    fields: vec!["severity: major".into(), "urgent: true".into()]
                },
            ]
        );
        // The lesson's messages carry their words in their own keys: none here.
        let lesson = crate::protocol::testing::handshake();
        let shutdown = lesson.entries().iter().find_map(|e| match &e.event {
            Event::RequestCreated { request_id, .. } => Some(request_id.clone()),
            _ => None,
        });
        let shutdown = shutdown.expect("the handshake asks alice to shut down");
        assert!(!said_about(lesson.entries(), &shutdown).is_empty(), "its reason is said");
        assert!(fields_about(lesson.entries(), &shutdown).is_empty());
    }

    #[test]
    fn the_workspace_is_rebuilt_from_successful_writes_and_edits_as_of_the_cursor() {
        let mut t = Trace::new("d", 0);
        tool(&mut t, "1", "write_file", json!({"path": "./a.txt", "content": "hello world"}), true);
        tool(&mut t, "2", "edit_file", json!({"path": "a.txt", "old_text": "world", "new_text": "team"}), true);
        tool(&mut t, "3", "write_file", json!({"path": "b.txt", "content": "refused"}), false);
        assert_eq!(workspace_at(&t, None).get("a.txt").map(String::as_str), Some("hello team"));
        assert!(!workspace_at(&t, None).contains_key("b.txt"), "a refused write changes nothing");
        assert_eq!(workspace_at(&t, Some(2)).get("a.txt").map(String::as_str), Some("hello world"));
        assert!(workspace_at(&t, Some(1)).is_empty(), "a write counts once it returned");
    }

    #[test]
    fn every_event_has_a_log_line_with_its_number_and_time() {
        let mut t = Trace::new("d", 0);
        t.append(Millis(1500), Event::RunStarted { prompt: "go".into() }).unwrap();
        assert_eq!(describe(&t.entries()[0]), "#0 1.500s run started: go");
    }

    #[test]
    fn multi_line_tool_output_and_model_text_are_shown_whole() {
        let mut t = Trace::new("d", 0);
        let lead = AgentName::lead();
        let list = "Team: default\n  alice (coder): shutdown\n  bob (coder): idle";
        let output = Event::ToolReturned {
            agent: lead.clone(),
            tool_use_id: "t".into(),
            tool: "list_teammates".into(),
            output: list.into(),
            is_error: false,
        };
        t.append(Millis(0), output).unwrap();
        let said = "Plan approved for 'bob' (request b).\nEarlier: Plan rejected for 'bob' (request a).";
        let reply = Event::ModelReplied {
            agent: lead,
            text: said.into(),
            stop_reason: "end_turn".into(),
            input_tokens: 1,
            output_tokens: 2,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
            measured: false,
        };
        t.append(Millis(0), reply).unwrap();
        let line = describe(&t.entries()[0]);
        assert!(line.ends_with(&format!("lead: list_teammates -> {list}")), "{line}");
        let line = describe(&t.entries()[1]);
        assert!(line.ends_with(&format!("\"{said}\"")), "{line}");
    }
}
