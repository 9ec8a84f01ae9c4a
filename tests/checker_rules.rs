//! Native tests of the invariant checker: one per violation kind, plus a clean
//! run that must raise nothing.
#![cfg(not(target_arch = "wasm32"))]

use team_protocols::protocol::*;

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

/// Appends a raw event, bypassing the team's rules, as an import or a fault
/// injector could.
fn inject(trace: &Trace, event: Event) -> Trace {
    let mut entries = trace.entries().to_vec();
    let time = trace.last_time();
    entries.push(TraceEntry { seq: entries.len() as u64, time, event });
    Trace::from_parts(trace.team_name.clone(), trace.seed, trace.version, entries).unwrap()
}

fn response(kind: MessageType, from: &str, to: &str, id: &RequestId) -> Event {
    let mut m = Message::new(kind, name(from), name(to), "", Millis(0));
    m.request_id = Some(id.clone());
    m.approve = Some(true);
    Event::MessageSent { message: m }
}

fn kinds(trace: &Trace) -> Vec<ViolationKind> {
    check(trace).into_iter().map(|v| v.kind).collect()
}

/// alice answered a shutdown; bob has a pending plan.
fn base() -> (Team, RequestId, RequestId) {
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    t.spawn(&name("bob"), "coder", true, Millis(0)).unwrap();
    let shut = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.answer(RequestKind::Shutdown, &shut, &name("alice"), true, "", Millis(2)).unwrap();
    let plan = t.submit_plan(&name("bob"), "p", Millis(3)).unwrap();
    (t, shut, plan)
}

#[test]
fn a_clean_run_has_no_violations() {
    let (mut t, _, plan) = base();
    t.answer(RequestKind::Plan, &plan, &AgentName::lead(), true, "", Millis(4)).unwrap();
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(5)).unwrap();
    t.finish_run(Millis(6)).unwrap();
    assert_eq!(check(t.trace()), vec![]);
}

#[test]
fn an_answer_to_an_unknown_id_is_flagged() {
    let (t, _, _) = base();
    let ghost = RequestId::parse("deadbeef").unwrap();
    let bad = inject(t.trace(), response(MessageType::ShutdownResponse, "alice", "lead", &ghost));
    let v = check(&bad);
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].kind, v[0].seq), (ViolationKind::AnswerToUnknownRequest, bad.len() as u64 - 1));
    assert_eq!(v[0].request_id, Some(ghost));
}

#[test]
fn an_answer_of_the_wrong_protocol_counts_as_unknown() {
    let (t, shut, _) = base();
    let bad = inject(t.trace(), response(MessageType::PlanApprovalResponse, "lead", "alice", &shut));
    assert_eq!(kinds(&bad), [ViolationKind::AnswerToUnknownRequest]);
}

#[test]
fn a_second_answer_is_flagged() {
    let (t, shut, _) = base();
    let bad = inject(t.trace(), response(MessageType::ShutdownResponse, "alice", "lead", &shut));
    assert_eq!(kinds(&bad), [ViolationKind::SecondAnswer]);
}

#[test]
fn an_answer_from_the_wrong_agent_is_flagged() {
    let (t, _, plan) = base();
    let bad = inject(t.trace(), response(MessageType::PlanApprovalResponse, "alice", "bob", &plan));
    assert_eq!(kinds(&bad), [ViolationKind::AnswerFromWrongAgent]);
}

#[test]
fn a_message_to_an_exited_teammate_is_flagged() {
    let (mut t, _, _) = base();
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
    let note = Message::new(MessageType::Message, AgentName::lead(), name("alice"), "still there?", Millis(5));
    let bad = inject(t.trace(), Event::MessageSent { message: note });
    assert_eq!(kinds(&bad), [ViolationKind::MessageToExitedTeammate]);
    let mut again = Team::replay(&bad).unwrap();
    again.spawn(&name("alice"), "coder", false, Millis(6)).unwrap();
    again.send(&AgentName::lead(), &name("alice"), "message", "welcome back", Millis(7)).unwrap();
    assert_eq!(kinds(again.trace()).len(), 1, "a restarted teammate may be messaged again");
}

#[test]
fn a_request_left_pending_at_the_end_of_a_run_is_flagged_once() {
    let (mut t, _, plan) = base();
    t.finish_run(Millis(4)).unwrap();
    t.finish_run(Millis(5)).unwrap();
    let v = check(t.trace());
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].kind, v[0].request_id.clone()), (ViolationKind::LeftPending, Some(plan)));
    assert!(v[0].detail.contains("pending"));
}

#[test]
fn a_pending_request_in_an_unfinished_run_is_not_a_violation() {
    let (t, _, _) = base();
    assert_eq!(check(t.trace()), vec![]);
}

#[test]
fn an_answer_across_a_restart_is_flagged() {
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let shut = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.set_status(&name("alice"), MemberStatus::Idle, Millis(2)).unwrap();
    t.spawn(&name("alice"), "coder", false, Millis(3)).unwrap();
    let bad = inject(t.trace(), response(MessageType::ShutdownResponse, "alice", "lead", &shut));
    let v = check(&bad);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!((v[0].kind, v[0].seq, v[0].request_id.clone()), (ViolationKind::AnswerAcrossRestart, bad.len() as u64 - 1, Some(shut)));
    assert_eq!(
        v[0].detail,
        format!(
            "alice (incarnation 2) answered shutdown request {}, which was addressed to its previous run (incarnation 1)",
            v[0].request_id.clone().unwrap()
        )
    );
}
