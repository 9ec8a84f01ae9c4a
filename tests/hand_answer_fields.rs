//! A hand answer with the answer's typed fields (issue 27: the request
//! panel's form) goes the way a model's answer tool goes: the request
//! moves and the response message carries exactly the fields a tool call
//! with the same values records; fields that do not fit the protocol are
//! refused with nothing recorded (the lesson's answer with its one field:
//! `runtime_rules`).
//!
//! Driven on the sans-IO world natively, the file's team run as the page
//! runs it (`common::file_team`), its teammate never answering so the
//! request waits for the hand.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::Arc;

use serde_json::json;

use common::file_team::run_file_team;
use team_protocols::protocol::file::load;
use team_protocols::protocol::{AgentName, Event, FieldValue, Fields, RequestId, RequestStatus, TraceEntry};
use team_protocols::runtime::tools::{parse_with, AgentRole, ToolCall, ToolSet};
use team_protocols::runtime::world::World;
use team_protocols::runtime::RuntimeError;

/// A review a teammate never answers on its own, whose answer has a text,
/// an enum, a bool and an int field.
const FILE: &str = r#"format = 1
[[protocol]]
name = "review"
request = "review_request"
response = "review_response"
from = "lead"
to = "teammate"
request_fields = [{ name = "change", type = "string", required = true, content = true }]
response_fields = [{ name = "comment", type = "string", content = true },
                   { name = "severity", type = "enum", values = ["minor", "major"], required = true, description = "How bad it is." },
                   { name = "urgent", type = "bool" },
                   { name = "rounds", type = "int" }]
on_approve = []
on_reject = []
tools.request = { name = "review_request", description = "Ask for a review." }
tools.respond = { name = "review_response", description = "Answer a review." }
scripted = { answer = "never" }

[team]
id = "hand-review"
title = "alice waits for a human"
prompt = "Spawn alice as a reviewer, then ask her to review src/auth.py."
rules_off = ["responder_required"]

[[team.teammate]]
name = "alice"
role = "reviewer"
task = "Review src/auth.py."

[[team.step]]
spawn = "alice"
[[team.step]]
ask = "review"
to = "alice"
fields = { change = "src/auth.py" }
"#;

fn alice() -> AgentName {
    AgentName::parse("alice").unwrap()
}

/// The file's run gone quiet with alice's review pending, and its id.
fn pending_review() -> (World, RequestId) {
    let file = Arc::new(load(FILE).unwrap_or_else(|e| panic!("{}", e.render("hand-review"))));
    let (world, quiet) = run_file_team(file, 11, 400).unwrap();
    assert!(quiet, "the run goes quiet");
    let pending: Vec<RequestId> = world.team().tracker().pending().map(|r| r.id.clone()).collect();
    assert_eq!(pending.len(), 1, "alice never answers: the review waits");
    let id = pending[0].clone();
    (world, id)
}

/// The request's move and its answer's message, as recorded.
fn answer_events(entries: &[TraceEntry]) -> Vec<(u64, Event)> {
    entries
        .iter()
        .filter(|e| match &e.event {
            Event::RequestTransitioned { .. } => true,
            Event::MessageSent { message } => message.msg_type.as_str() == "review_response",
            _ => false,
        })
        .map(|e| (e.time.0, e.event.clone()))
        .collect()
}

#[test]
fn a_hand_answer_with_fields_records_what_the_tool_answer_with_them_records() {
    let (mut world, id) = pending_review();
    let before = world.team().clone();
    let input = json!({ "request_id": id.as_str(), "approve": false, "comment": "split the parser", "severity": "major", "urgent": true, "rounds": 2 });
    // The fields a model's answer tool hands over for that input.
    let tools = ToolSet::new(Arc::new(before.protocols().file().unwrap().clone()));
    let Ok(ToolCall::Answer { protocol, fields, approve, .. }) = parse_with(&tools, AgentRole::Teammate, "review_response", &input) else {
        panic!("the answer tool reads the input")
    };
    let mut typed = Fields::new();
    typed.set("comment", FieldValue::Text("split the parser".into()));
    typed.set("severity", FieldValue::Text("major".into()));
    typed.set("urgent", FieldValue::Bool(true));
    typed.set("rounds", FieldValue::Int(2));
    assert_eq!(fields, typed, "the form's fields are the tool's");

    let from = world.team().trace().len();
    assert_eq!(world.answer_as_with_fields(&alice(), id.as_str(), false, typed), Ok(RequestStatus::Rejected));
    let by_hand = answer_events(&world.team().trace().entries()[from..]);
    assert_eq!(by_hand.len(), 2, "the request moves and the answer is sent: {by_hand:?}");
    // The tool's path on the team as it was, at the same moment.
    let mut by_tool = before;
    let from = by_tool.trace().len();
    by_tool.respond(protocol, &id, &alice(), approve, fields, team_protocols::protocol::Millis(by_hand[0].0)).unwrap();
    assert_eq!(answer_events(&by_tool.trace().entries()[from..]), by_hand);
    let Event::MessageSent { message } = &by_hand[1].1 else { panic!("{by_hand:?}") };
    assert_eq!(message.content, "split the parser", "the content field is the message's content");
    assert_eq!(message.fields.get("severity"), Some(&FieldValue::Text("major".into())));
}

#[test]
fn a_hand_answer_whose_fields_do_not_fit_is_refused_and_records_nothing() {
    let (mut world, id) = pending_review();
    let len = world.team().trace().len();
    let refused = |world: &mut World, fields: Fields| {
        let err = world.answer_as_with_fields(&alice(), id.as_str(), true, fields).unwrap_err();
        assert!(matches!(err, RuntimeError::Team(_)), "{err:?}");
        err.to_string()
    };
    // The required enum missing.
    assert!(refused(&mut world, Fields::new()).contains("needs the field 'severity'"));
    // A value off its list, a field of the wrong type, one it does not have.
    let mut off = Fields::new();
    off.set("severity", FieldValue::Text("huge".into()));
    assert!(refused(&mut world, off).contains("one of minor, major"));
    let mut wrong = Fields::new();
    wrong.set("severity", FieldValue::Text("minor".into()));
    wrong.set("rounds", FieldValue::Text("two".into()));
    assert!(refused(&mut world, wrong).contains("a whole number"));
    let mut unknown = Fields::new();
    unknown.set("severity", FieldValue::Text("minor".into()));
    unknown.set("tone", FieldValue::Text("kind".into()));
    assert!(refused(&mut world, unknown).contains("no field 'tone'"));
    assert_eq!(world.team().trace().len(), len, "nothing recorded");
    assert_eq!(world.team().request(&id).map(|r| r.status), Some(RequestStatus::Pending));
}
