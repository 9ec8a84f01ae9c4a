//! Any protocol of a protocol file on the team's one FSM (issue 26, item 2):
//! asking and answering with a file protocol's typed fields, its effects on
//! settle (`exit`, `open_gate`, `close_gate`), the same refusals the
//! lesson's protocols have, deadlines and bounded retries, the checker's
//! findings, and traces that replay and travel as JSON.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;

use team_protocols::protocol::file::{self, builtin, GateIx, ProtocolFile, ProtocolIx};
use team_protocols::protocol::testing::team_under;
use team_protocols::protocol::trace_file::{import_json, import_json_under, trace_json};
use team_protocols::protocol::{
    check, AgentName, Event, FieldValue, Fields, Message, MessageType, Millis, ProtocolSet, ProtocolsError, RequestKind, RequestStatus,
    Team, TeamError, TrackerError, ViolationKind,
};

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

fn lead() -> AgentName {
    AgentName::lead()
}

fn load(text: &str) -> Arc<ProtocolFile> {
    match file::load(text) {
        Ok(f) => Arc::new(f),
        Err(e) => panic!("refused:\n{}", e.render("test")),
    }
}

fn fields(pairs: &[(&str, FieldValue)]) -> Fields {
    pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

fn text(s: &str) -> FieldValue {
    FieldValue::Text(s.into())
}

/// Teammates claim tasks from the lead: an enum, an int and a bool field; a
/// deadline and one retry; one pending claim per addressee (the lead).
const CLAIM: &str = r#"
format = 1

[[gate]]
name = "build"
tools = ["write_file"]

[[protocol]]
name = "claim"
request = "claim_request"
response = "claim_response"
from = "teammate"
to = "lead"
request_fields = [{ name = "task", type = "enum", values = ["parser", "lexer"], required = true },
                  { name = "hours", type = "int" },
                  { name = "note", type = "string", content = true }]
response_fields = [{ name = "why", type = "string", content = true }, { name = "urgent", type = "bool" }]
on_approve = [{ effect = "open_gate", gate = "build", who = "requester" }]
on_reject = [{ effect = "close_gate", gate = "build", who = "requester" }]
one_pending_per_addressee = true
deadline_ms = 1000
retries = 1
tools.request = { name = "claim_task", description = "Claim a task." }
tools.respond = { name = "answer_claim", description = "Answer a claim." }
scripted = { answer = "approve" }

[[protocol]]
name = "handoff"
request = "handoff_request"
response = "handoff_response"
from = "lead"
to = "teammate"
on_approve = [{ effect = "exit", who = "addressee" }]
tools.request = { name = "hand_off", description = "Ask a teammate to hand off and leave." }
tools.respond = { name = "answer_handoff", description = "Answer a handoff." }
scripted = { answer = "approve" }

[team]
id = "claims"
title = "ann and ben claim tasks"
prompt = "Spawn ann and ben."

[[team.teammate]]
name = "ann"
role = "coder"
task = "Build the parser."
gates = ["build"]

[[team.teammate]]
name = "ben"
role = "coder"
task = "Build the lexer."

[[team.step]]
spawn = "ann"
"#;

const CLAIM_IX: ProtocolIx = ProtocolIx(0);
const HANDOFF_IX: ProtocolIx = ProtocolIx(1);
const BUILD: GateIx = GateIx(0);

/// A team under `CLAIM` with ann and ben spawned.
fn claims() -> Team {
    team_under(CLAIM, 7, &["ann", "ben"])
}

fn claim(task: &str) -> Fields {
    fields(&[("task", text(task))])
}

fn assert_replays(t: &Team) {
    assert_eq!(Team::replay(t.trace()).unwrap().state(), t.state(), "replay equals live state");
}

#[test]
fn a_file_protocol_request_is_pending_with_its_fields_and_its_answer_settles_it() {
    let mut t = claims();
    let ask = fields(&[("task", text("parser")), ("hours", FieldValue::Int(3)), ("note", text("mine"))]);
    let id = t.ask(CLAIM_IX, &name("ann"), &lead(), ask.clone(), Millis(1)).unwrap();
    let req = t.request(&id).unwrap();
    assert_eq!((req.status, req.kind.to_string(), &req.fields), (RequestStatus::Pending, "claim".to_string(), &ask));
    let sent = &t.peek(&lead()).unwrap()[0].message;
    assert_eq!((sent.msg_type.as_str(), sent.content.as_str(), &sent.fields), ("claim_request", "mine", &ask));
    assert!(sent.msg_type.is_request());

    let answer = fields(&[("why", text("go")), ("urgent", FieldValue::Bool(true))]);
    assert_eq!(t.respond(CLAIM_IX, &id, &lead(), true, answer.clone(), Millis(2)), Ok(RequestStatus::Approved));
    let reply = &t.peek(&name("ann")).unwrap()[0].message;
    assert_eq!((reply.msg_type.as_str(), reply.approve, &reply.fields), ("claim_response", Some(true), &answer));
    assert!(reply.msg_type.is_response());
    assert_replays(&t);
}

#[test]
fn a_file_protocols_names_are_written_as_the_file_wrote_them() {
    let mut t = claims();
    let id = t.ask(CLAIM_IX, &name("ann"), &lead(), claim("lexer"), Millis(1)).unwrap();
    let json = trace_json(t.trace());
    assert!(json.contains(r#""request_kind": "claim""#), "{json}");
    assert!(json.contains(r#""type": "claim_request""#), "{json}");
    assert!(json.contains(r#""task": "lexer""#), "fields sit beside the envelope: {json}");
    let created = t.trace().entries().iter().find(|e| matches!(e.event, Event::RequestCreated { .. })).unwrap();
    let v = serde_json::to_value(&created.event).unwrap();
    assert_eq!(v["fields"]["task"], "lexer");
    assert_eq!(v["request_id"], id.as_str());
}

/// The trace as written before headers recorded their protocol file
/// (format version 1).
fn without_recorded_file(json: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    v.as_object_mut().unwrap().remove("protocol_file");
    v["version"] = 1.into();
    v.to_string()
}

#[test]
fn a_trace_with_file_protocol_events_travels_as_json_and_replays_under_its_file() {
    let mut t = claims();
    let id = t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(1)).unwrap();
    t.respond(CLAIM_IX, &id, &lead(), false, fields(&[("why", text("no"))]), Millis(2)).unwrap();
    let id2 = t.ask(CLAIM_IX, &name("ben"), &lead(), claim("lexer"), Millis(3)).unwrap();
    t.expire(&id2, Millis(1003)).unwrap();
    let json = trace_json(t.trace());
    assert!(json.contains(r#""kind": "request_expired""#), "{json}");

    // The header records the file: the trace imports without it.
    assert_eq!(import_json(&json).unwrap().entries(), t.trace().entries(), "the trace carries its file");
    // A trace written before headers recorded their file needs it.
    let refused = import_json(&without_recorded_file(&json)).unwrap_err();
    assert!(refused.to_string().contains("'claim'") && refused.to_string().contains("load its protocol file"), "{refused}");
    let old = import_json_under(&without_recorded_file(&json), t.protocols()).unwrap();
    assert_eq!(old.entries(), t.trace().entries());

    let imported = import_json_under(&json, t.protocols()).unwrap();
    assert_eq!(imported.entries(), t.trace().entries(), "every event reads back as written");
    assert_eq!(Team::replay(&imported).unwrap().state(), t.state());
    assert_eq!(trace_json(&imported), json, "export, import, export is byte-identical");
}

#[test]
fn resolving_a_trace_against_a_file_that_lacks_its_names_is_refused() {
    let mut t = claims();
    t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(1)).unwrap();
    let json = trace_json(t.trace());
    let review = builtin::EXAMPLES.iter().find(|(n, _)| *n == "review-gate").unwrap().1;
    let other = ProtocolSet::new(load(review));
    // The trace names the file it ran under: the difference is named.
    let refused = import_json_under(&json, &other).unwrap_err();
    assert!(refused.to_string().contains("this trace ran under protocol file 'claims'"), "{refused}");
    // A trace that does not record its file is read under the one given.
    let refused = import_json_under(&without_recorded_file(&json), &other).unwrap_err();
    assert!(refused.to_string().contains("'claim' is not a message type or protocol of this team's protocol file"), "{refused}");
    let mut raw = t.trace().clone();
    let err = raw.resolve_protocols(other).unwrap_err();
    assert_eq!(err.source, ProtocolsError::UnknownName("claim".into()));
}

#[test]
fn open_gate_and_close_gate_change_the_requesters_gate_and_spawn_closes_its_listed_gates() {
    let mut t = claims();
    let (ann, ben) = (name("ann"), name("ben"));
    assert!(t.gate_closed(&ann, BUILD), "ann's team entry lists the build gate");
    assert!(!t.gate_closed(&ben, BUILD));
    assert_eq!(t.closed_gate_for_tool(&ann, "write_file"), Some(BUILD));
    assert_eq!(t.closed_gate_for_tool(&ann, "read_file"), None);

    let id = t.ask(CLAIM_IX, &ann, &lead(), claim("parser"), Millis(1)).unwrap();
    t.respond(CLAIM_IX, &id, &lead(), true, Fields::new(), Millis(2)).unwrap();
    assert!(!t.gate_closed(&ann, BUILD), "on_approve opens it");
    assert_replays(&t);

    let id = t.ask(CLAIM_IX, &ben, &lead(), claim("lexer"), Millis(3)).unwrap();
    t.respond(CLAIM_IX, &id, &lead(), false, Fields::new(), Millis(4)).unwrap();
    assert!(t.gate_closed(&ben, BUILD), "on_reject closes it");
    assert!(!t.gate_closed(&ann, BUILD), "per agent");
    assert_replays(&t);

    t.set_status(&ann, team_protocols::protocol::MemberStatus::Shutdown, Millis(5)).unwrap();
    t.spawn(&ann, "coder", false, Millis(6)).unwrap();
    assert!(t.gate_closed(&ann, BUILD), "a restart closes its gates again");
    assert_replays(&t);
}

#[test]
fn an_approved_exit_effect_makes_the_party_finish_its_turn_and_leave() {
    let mut t = claims();
    let ben = name("ben");
    let id = t.ask(HANDOFF_IX, &lead(), &ben, Fields::new(), Millis(1)).unwrap();
    assert!(!t.is_exiting(&ben));
    t.respond(HANDOFF_IX, &id, &ben, true, Fields::new(), Millis(2)).unwrap();
    assert!(t.is_exiting(&ben), "like an approved shutdown");
    assert_replays(&t);
    let rejected = {
        let mut t = claims();
        let id = t.ask(HANDOFF_IX, &lead(), &ben, Fields::new(), Millis(1)).unwrap();
        t.respond(HANDOFF_IX, &id, &ben, false, Fields::new(), Millis(2)).unwrap();
        t.is_exiting(&ben)
    };
    assert!(!rejected, "a rejection has no exit effect");
}

#[test]
fn only_the_askers_role_may_ask_and_only_to_the_answering_role() {
    let mut t = claims();
    let err = t.ask(CLAIM_IX, &lead(), &lead(), claim("parser"), Millis(1)).unwrap_err();
    assert_eq!(err.to_string(), "lead cannot ask with the claim protocol: only teammates may");
    let err = t.ask(HANDOFF_IX, &name("ann"), &name("ben"), Fields::new(), Millis(1)).unwrap_err();
    assert!(matches!(err, TeamError::MayNotAsk { .. }), "{err}");
    let err = t.ask(CLAIM_IX, &name("ann"), &name("ben"), claim("parser"), Millis(1)).unwrap_err();
    assert_eq!(err.to_string(), "a claim request goes to the lead; 'ben' is not one");
    let err = t.ask(HANDOFF_IX, &lead(), &name("ghost"), Fields::new(), Millis(1)).unwrap_err();
    assert!(err.to_string().contains("ghost"), "{err}");
    let err = t.ask(ProtocolIx(9), &lead(), &name("ann"), Fields::new(), Millis(1)).unwrap_err();
    assert_eq!(err, TeamError::Protocol(Box::new(ProtocolsError::UnknownProtocol(9))));
    assert_eq!(t.trace().len(), 2, "nothing recorded by a refusal");
}

#[test]
fn a_lesson_only_team_counts_protocols_in_the_lesson_file_and_refuses_any_other() {
    let mut t = Team::new("t", 1);
    // Index 0 is the lesson file's shutdown: asked of the lead, it is
    // refused in the lesson's words, as `request_shutdown` is.
    let err = t.ask(ProtocolIx(0), &lead(), &lead(), Fields::new(), Millis(1)).unwrap_err();
    assert_eq!(err, t.request_shutdown(&lead(), &lead(), Millis(1)).unwrap_err());
    let err = t.ask(ProtocolIx(2), &lead(), &lead(), Fields::new(), Millis(1)).unwrap_err();
    assert!(err.to_string().contains("no protocol number 2"), "{err}");
    assert_eq!(t.trace().len(), 0, "nothing recorded by a refusal");
}

#[test]
fn required_fields_their_types_and_enum_values_are_checked() {
    let mut t = claims();
    let ann = name("ann");
    let cases = [
        (Fields::new(), "a claim_request needs the field 'task'"),
        (claim("docs"), "the field 'task' of a claim_request must be one of parser, lexer, not 'docs'"),
        (
            fields(&[("task", text("parser")), ("hours", text("three"))]),
            "the field 'hours' of a claim_request must be a whole number, not 'three'",
        ),
        (fields(&[("task", FieldValue::Int(1))]), "the field 'task' of a claim_request must be one of parser, lexer, not '1'"),
        (fields(&[("task", text("parser")), ("who", text("me"))]), "a claim_request has no field 'who'; its fields are: task, hours, note"),
    ];
    for (given, says) in cases {
        let err = t.ask(CLAIM_IX, &ann, &lead(), given, Millis(1)).unwrap_err();
        assert_eq!(err.to_string(), says);
    }
    let id = t.ask(CLAIM_IX, &ann, &lead(), claim("parser"), Millis(1)).unwrap();
    let err = t.respond(CLAIM_IX, &id, &lead(), true, fields(&[("urgent", text("yes"))]), Millis(2)).unwrap_err();
    assert_eq!(err.to_string(), "the field 'urgent' of a claim_response must be true or false, not 'yes'");
    assert_eq!(t.request(&id).unwrap().status, RequestStatus::Pending, "a refused answer moves nothing");
}

#[test]
fn an_answer_to_an_unknown_id_a_second_answer_a_non_addressee_and_the_wrong_protocol_are_refused() {
    let mut t = claims();
    let id = t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(1)).unwrap();
    let ghost = team_protocols::protocol::RequestId::parse("0badf00d").unwrap();
    let err = t.respond(CLAIM_IX, &ghost, &lead(), true, Fields::new(), Millis(2)).unwrap_err();
    assert_eq!(err, TeamError::Tracker(TrackerError::UnknownRequest(ghost)));
    let err = t.respond(CLAIM_IX, &id, &name("ben"), true, Fields::new(), Millis(2)).unwrap_err();
    assert_eq!(err.to_string(), format!("request '{id}' is addressed to 'lead'; 'ben' cannot answer it"));
    let err = t.respond(HANDOFF_IX, &id, &lead(), true, Fields::new(), Millis(2)).unwrap_err();
    assert_eq!(err.to_string(), format!("request '{id}' is a claim request, not a handoff request"));
    let err = t.answer(RequestKind::SHUTDOWN, &id, &lead(), true, "", Millis(2)).unwrap_err();
    assert!(matches!(err, TeamError::Tracker(TrackerError::WrongKind { .. })), "{err}");
    t.respond(CLAIM_IX, &id, &lead(), true, Fields::new(), Millis(2)).unwrap();
    let err = t.respond(CLAIM_IX, &id, &lead(), false, Fields::new(), Millis(3)).unwrap_err();
    assert!(err.to_string().contains("can be answered only once"), "{err}");
}

#[test]
fn a_restarted_addressee_cannot_answer_a_request_made_to_its_previous_run() {
    let mut t = claims();
    let ben = name("ben");
    let id = t.ask(HANDOFF_IX, &lead(), &ben, Fields::new(), Millis(1)).unwrap();
    t.set_status(&ben, team_protocols::protocol::MemberStatus::Shutdown, Millis(2)).unwrap();
    t.spawn(&ben, "coder", false, Millis(3)).unwrap();
    let err = t.respond(HANDOFF_IX, &id, &ben, true, Fields::new(), Millis(4)).unwrap_err();
    assert!(matches!(err, TeamError::StaleRequest { .. }), "{err}");
}

#[test]
fn one_pending_per_addressee_refuses_a_second_request_while_the_first_waits() {
    let mut t = claims();
    let first = t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(1)).unwrap();
    let err = t.ask(CLAIM_IX, &name("ben"), &lead(), claim("lexer"), Millis(2)).unwrap_err();
    assert_eq!(err.to_string(), format!("a claim request to 'lead' is already pending ({first}); wait for its answer"));
    t.respond(CLAIM_IX, &first, &lead(), true, Fields::new(), Millis(3)).unwrap();
    t.ask(CLAIM_IX, &name("ben"), &lead(), claim("lexer"), Millis(4)).unwrap();
    // Without the flag, two handoffs to ben may wait at once.
    t.ask(HANDOFF_IX, &lead(), &name("ben"), Fields::new(), Millis(5)).unwrap();
    t.ask(HANDOFF_IX, &lead(), &name("ben"), Fields::new(), Millis(6)).unwrap();
}

#[test]
fn a_request_expires_once_its_deadline_passes_in_virtual_time() {
    let mut t = claims();
    let id = t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(10)).unwrap();
    assert_eq!(t.expire_due(Millis(1009)), Ok(vec![]), "not yet due");
    assert_eq!(t.due_expiries(Millis(1010)), vec![id.clone()]);
    let len = t.trace().len();
    assert_eq!(t.expire_due(Millis(1010)), Ok(vec![id.clone()]));
    assert_eq!(t.trace().len(), len + 1);
    let req = t.request(&id).unwrap();
    assert_eq!(req.status, RequestStatus::Rejected);
    assert!(req.expired() && req.transitions[0].expired);
    assert_eq!(req.transitions[0].by, lead(), "the addressee, who did not answer");
    assert!(t.gate_closed(&name("ann"), BUILD), "an expiry is a rejection: on_reject applies");
    assert_eq!(t.trace().entries().last().unwrap().event, Event::RequestExpired { request_id: id.clone(), request_kind: req.kind });
    assert_replays(&t);

    let err = t.respond(CLAIM_IX, &id, &lead(), true, Fields::new(), Millis(1011)).unwrap_err();
    assert_eq!(err, TeamError::Tracker(TrackerError::Expired(id.clone())));
    assert!(err.to_string().contains("expired unanswered"), "{err}");
    assert!(matches!(t.expire(&id, Millis(1012)), Err(TeamError::Tracker(TrackerError::Expired(_)))));
}

#[test]
fn only_a_pending_request_of_a_protocol_with_a_deadline_can_expire() {
    let mut t = claims();
    let handoff = t.ask(HANDOFF_IX, &lead(), &name("ben"), Fields::new(), Millis(1)).unwrap();
    assert_eq!(t.expire(&handoff, Millis(99_999)), Err(TeamError::Tracker(TrackerError::NoDeadline(handoff.clone()))));
    assert!(t.due_expiries(Millis(99_999)).is_empty());
    let id = t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(1)).unwrap();
    t.respond(CLAIM_IX, &id, &lead(), true, Fields::new(), Millis(2)).unwrap();
    assert!(matches!(t.expire(&id, Millis(5000)), Err(TeamError::Tracker(TrackerError::AlreadySettled { .. }))));
    assert!(t.due_expiries(Millis(5000)).is_empty(), "an answered request has no deadline left");
}

#[test]
fn the_explorer_may_take_an_expiry_as_a_choice_before_the_clock_gets_there() {
    let mut t = claims();
    let id = t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(1)).unwrap();
    t.expire(&id, Millis(2)).unwrap();
    assert!(t.request(&id).unwrap().expired());
}

#[test]
fn after_an_expiry_the_requester_may_ask_again_only_as_often_as_retries_allow() {
    let mut t = claims();
    let ann = name("ann");
    let first = t.ask(CLAIM_IX, &ann, &lead(), claim("parser"), Millis(0)).unwrap();
    t.expire(&first, Millis(1000)).unwrap();
    let retry = t.ask(CLAIM_IX, &ann, &lead(), claim("parser"), Millis(1001)).unwrap();
    t.expire(&retry, Millis(2001)).unwrap();
    let err = t.ask(CLAIM_IX, &ann, &lead(), claim("parser"), Millis(2002)).unwrap_err();
    assert_eq!(err, TeamError::RetriesExhausted { protocol: "claim".into(), target: lead(), expired: 2, retries: 1 });
    assert_eq!(
        err.to_string(),
        "your last 2 claim requests to 'lead' expired unanswered and the protocol allows 1 retry after an expiry; do not ask again"
    );
    // Another requester has its own count.
    t.ask(CLAIM_IX, &name("ben"), &lead(), claim("lexer"), Millis(2003)).unwrap();
    assert_replays(&t);
}

#[test]
fn an_answered_request_starts_the_retry_count_afresh() {
    let mut t = claims();
    let ann = name("ann");
    let a = t.ask(CLAIM_IX, &ann, &lead(), claim("parser"), Millis(0)).unwrap();
    t.expire(&a, Millis(1000)).unwrap();
    let b = t.ask(CLAIM_IX, &ann, &lead(), claim("parser"), Millis(1001)).unwrap();
    t.respond(CLAIM_IX, &b, &lead(), false, Fields::new(), Millis(1002)).unwrap();
    let c = t.ask(CLAIM_IX, &ann, &lead(), claim("parser"), Millis(1003)).unwrap();
    t.expire(&c, Millis(2003)).unwrap();
    t.ask(CLAIM_IX, &ann, &lead(), claim("parser"), Millis(2004)).unwrap();
}

#[test]
fn the_deadline_example_runs_its_own_shutdown_with_an_expiry_and_one_retry() {
    let toml = builtin::EXAMPLES.iter().find(|(n, _)| *n == "deadline-retry").unwrap().1;
    let mut t = team_under(toml, 3, &["alice"]);
    let alice = name("alice");
    let first = t.ask(ProtocolIx(0), &lead(), &alice, Fields::new(), Millis(1)).unwrap();
    assert!(t.request(&first).unwrap().kind.is_file(), "the file's own shutdown, not the lesson's");
    assert_eq!(t.expire_due(Millis(30_001)), Ok(vec![first]));
    let retry = t.ask(ProtocolIx(0), &lead(), &alice, Fields::new(), Millis(30_002)).unwrap();
    t.respond(ProtocolIx(0), &retry, &alice, true, fields(&[("reason", text("done"))]), Millis(30_003)).unwrap();
    assert!(t.is_exiting(&alice));
    let imported = import_json_under(&trace_json(t.trace()), t.protocols()).unwrap();
    assert_eq!(imported.entries(), t.trace().entries(), "its shutdown_request reads back as the file's type");
    assert_eq!(Team::replay(&imported).unwrap().state(), t.state());
}

#[test]
fn a_file_that_uses_the_lesson_asks_its_shutdown_and_plan_the_lessons_way() {
    let toml = builtin::EXAMPLES.iter().find(|(n, _)| *n == "review-gate").unwrap().1;
    let mut t = team_under(toml, 3, &["alice"]);
    let alice = name("alice");
    let id = t.ask(ProtocolIx(0), &lead(), &alice, Fields::new(), Millis(1)).unwrap();
    assert_eq!(t.request(&id).unwrap().kind, RequestKind::SHUTDOWN);
    assert_eq!(t.peek(&alice).unwrap()[0].message.msg_type, MessageType::SHUTDOWN_REQUEST);
    t.respond(ProtocolIx(0), &id, &alice, true, fields(&[("reason", text("ok"))]), Millis(2)).unwrap();
    assert!(t.is_exiting(&alice));
    assert_eq!(t.peek(&lead()).unwrap()[0].message.reason.as_deref(), Some("ok"));
    // Its own review protocol opens alice's write gate, closed at spawn.
    let mut t = team_under(toml, 3, &["alice"]);
    let write = t.protocols().gate_named("write").unwrap();
    assert!(t.gate_closed(&alice, write));
    let review = t.protocols().file().unwrap().protocol_named("review").unwrap();
    let id = t.ask(review, &alice, &lead(), fields(&[("diff", text("+greet"))]), Millis(1)).unwrap();
    t.respond(review, &id, &lead(), true, fields(&[("severity", text("minor"))]), Millis(2)).unwrap();
    assert!(!t.gate_closed(&alice, write));
    assert_replays(&t);
}

// ---- The checker judges file protocols too ------------------------------

/// `t`'s trace with `message` forced in after its last event.
fn forced(t: &Team, message: Message) -> team_protocols::protocol::Trace {
    let mut trace = t.trace().clone();
    let at = trace.entries().last().map_or(Millis(0), |e| e.time);
    trace.append(at, Event::MessageSent { message }).unwrap();
    trace
}

fn response(t: &Team, from: &AgentName, to: &AgentName, id: &team_protocols::protocol::RequestId) -> Message {
    let mut m = Message::new(t.protocols().response_type(CLAIM_IX).unwrap(), from.clone(), to.clone(), "", Millis(0));
    m.request_id = Some(id.clone());
    m.approve = Some(true);
    m
}

fn kinds(trace: &team_protocols::protocol::Trace) -> Vec<ViolationKind> {
    check(trace).into_iter().map(|v| v.kind).collect()
}

#[test]
fn an_answer_forced_after_an_expiry_is_a_finding() {
    let mut t = claims();
    let id = t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(1)).unwrap();
    t.expire(&id, Millis(1001)).unwrap();
    assert_eq!(kinds(t.trace()), []);
    let found = check(&forced(&t, response(&t, &lead(), &name("ann"), &id)));
    assert_eq!(found.iter().map(|v| v.kind).collect::<Vec<_>>(), [ViolationKind::AnswerAfterExpiry]);
    assert_eq!(found[0].detail.to_string(), format!("the lead answered claim request {id} after it had expired"));
}

#[test]
fn an_answer_to_an_unknown_id_or_from_a_non_addressee_or_a_second_one_is_a_finding() {
    let mut t = claims();
    let id = t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(1)).unwrap();
    let ghost = team_protocols::protocol::RequestId::parse("0badf00d").unwrap();
    assert_eq!(kinds(&forced(&t, response(&t, &lead(), &name("ann"), &ghost))), [ViolationKind::AnswerToUnknownRequest]);
    assert_eq!(kinds(&forced(&t, response(&t, &name("ben"), &name("ann"), &id))), [ViolationKind::AnswerFromWrongAgent]);
    t.respond(CLAIM_IX, &id, &lead(), true, Fields::new(), Millis(2)).unwrap();
    assert_eq!(kinds(t.trace()), []);
    assert_eq!(kinds(&forced(&t, response(&t, &lead(), &name("ann"), &id))), [ViolationKind::SecondAnswer]);
}

#[test]
fn a_request_still_pending_when_the_run_finishes_is_a_finding() {
    let mut t = claims();
    t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(1)).unwrap();
    t.finish_run(Millis(2)).unwrap();
    let found = check(t.trace());
    assert_eq!(found.iter().map(|v| v.kind).collect::<Vec<_>>(), [ViolationKind::LeftPending]);
    assert!(found[0].detail.to_string().starts_with("claim request"), "{}", found[0].detail);
}

#[test]
fn acting_after_an_approved_exit_effect_is_a_finding() {
    let mut t = claims();
    let ben = name("ben");
    let id = t.ask(HANDOFF_IX, &lead(), &ben, Fields::new(), Millis(1)).unwrap();
    t.respond(HANDOFF_IX, &id, &ben, true, Fields::new(), Millis(2)).unwrap();
    assert_eq!(kinds(t.trace()), [], "the answer itself is part of the turn it finishes");
    t.observe(Event::ModelCalled { agent: ben.clone() }, Millis(3)).unwrap();
    assert_eq!(kinds(t.trace()), [ViolationKind::ActAfterShutdownApproved]);
}

/// The explorer's hash of a team at `now` (`Canon::hash_team`).
fn team_hash_at(t: &Team, now: Millis) -> u64 {
    use std::hash::Hasher;
    let canon = team_protocols::protocol::canon::Canon::of_requests(t.tracker().iter());
    let mut h = team_protocols::protocol::canon::StableHasher::default();
    canon.hash_team(t, now, &mut h);
    h.finish()
}

#[test]
fn a_pending_requests_time_left_before_its_deadline_is_part_of_the_state() {
    // ann claims at 100 in one run and at 400 in the other; the deadline is
    // 1,000 ms, and it expires by the clock before a turn with no move
    // choosing it, so what decides the future is the time left.
    let claimed_at = |at: u64| {
        let mut t = claims();
        t.ask(CLAIM_IX, &name("ann"), &lead(), claim("parser"), Millis(at)).unwrap();
        t
    };
    let (early, late) = (claimed_at(100), claimed_at(400));
    assert_eq!(team_hash_at(&early, Millis(600)), team_hash_at(&late, Millis(900)), "500 ms left in both: one state");
    assert_ne!(team_hash_at(&early, Millis(600)), team_hash_at(&late, Millis(600)), "500 ms left against 800: it expires first in one");
}
