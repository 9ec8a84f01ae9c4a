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
    t.answer(RequestKind::SHUTDOWN, &shut, &name("alice"), true, "", Millis(2)).unwrap();
    let plan = t.submit_plan(&name("bob"), "p", Millis(3)).unwrap();
    (t, shut, plan)
}

#[test]
fn a_clean_run_has_no_violations() {
    let (mut t, _, plan) = base();
    t.answer(RequestKind::PLAN, &plan, &AgentName::lead(), true, "", Millis(4)).unwrap();
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(5)).unwrap();
    t.finish_run(Millis(6)).unwrap();
    assert_eq!(check(t.trace()), vec![]);
}

#[test]
fn an_answer_to_an_unknown_id_is_flagged() {
    let (t, _, _) = base();
    let ghost = RequestId::parse("deadbeef").unwrap();
    // From bob: alice approved her shutdown, so a word from her now would
    // be an act after it too.
    let bad = inject(t.trace(), response(MessageType::SHUTDOWN_RESPONSE, "bob", "lead", &ghost));
    let v = check(&bad);
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].kind, v[0].seq), (ViolationKind::AnswerToUnknownRequest, bad.len() as u64 - 1));
    assert_eq!(v[0].request_id, Some(ghost));
}

#[test]
fn an_answer_of_the_wrong_protocol_counts_as_unknown() {
    let (t, shut, _) = base();
    let bad = inject(t.trace(), response(MessageType::PLAN_APPROVAL_RESPONSE, "lead", "alice", &shut));
    assert_eq!(kinds(&bad), [ViolationKind::AnswerToUnknownRequest]);
}

#[test]
fn a_second_answer_is_flagged() {
    let (t, shut, _) = base();
    let bad = inject(t.trace(), response(MessageType::SHUTDOWN_RESPONSE, "alice", "lead", &shut));
    assert_eq!(kinds(&bad), [ViolationKind::SecondAnswer]);
}

#[test]
fn an_answer_from_the_wrong_agent_is_flagged() {
    let (t, _, plan) = base();
    let bad = inject(t.trace(), response(MessageType::PLAN_APPROVAL_RESPONSE, "bob", "bob", &plan));
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
    assert!(v[0].detail.to_string().contains("pending"));
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
    let bad = inject(t.trace(), response(MessageType::SHUTDOWN_RESPONSE, "alice", "lead", &shut));
    let v = check(&bad);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!((v[0].kind, v[0].seq, v[0].request_id.clone()), (ViolationKind::AnswerAcrossRestart, bad.len() as u64 - 1, Some(shut)));
    assert_eq!(
        v[0].detail.to_string(),
        format!(
            "alice (incarnation 2) answered shutdown request {}, which was addressed to its previous run (incarnation 1)",
            v[0].request_id.clone().unwrap()
        )
    );
}

#[test]
fn a_request_read_by_the_run_after_the_one_it_was_addressed_to_crossed_a_restart() {
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let shut = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    // alice is started again before she read the request: her new run finds it.
    t.set_status(&name("alice"), MemberStatus::Idle, Millis(2)).unwrap();
    t.spawn(&name("alice"), "coder", false, Millis(2)).unwrap();
    t.drain(&name("alice"), Millis(3)).unwrap();
    let v = check(t.trace());
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!((v[0].kind, v[0].request_id.clone()), (ViolationKind::RequestAcrossRestart, Some(shut.clone())));
    assert_eq!(v[0].seq, t.trace().len() as u64 - 1, "at the read");
    assert_eq!(
        v[0].detail.to_string(),
        format!("alice (incarnation 2) read shutdown request {shut}, which was addressed to its previous run (incarnation 1)")
    );
    // Read by the run it was addressed to, it is an ordinary request.
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.drain(&name("alice"), Millis(2)).unwrap();
    t.set_status(&name("alice"), MemberStatus::Idle, Millis(3)).unwrap();
    t.spawn(&name("alice"), "coder", false, Millis(3)).unwrap();
    t.drain(&name("alice"), Millis(4)).unwrap();
    assert_eq!(kinds(t.trace()), vec![], "read before the restart");
    // Answered before the restart, the unread message is only old news.
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), false, "not yet", Millis(2)).unwrap();
    t.set_status(&name("alice"), MemberStatus::Idle, Millis(3)).unwrap();
    t.spawn(&name("alice"), "coder", false, Millis(3)).unwrap();
    t.drain(&name("alice"), Millis(4)).unwrap();
    assert_eq!(kinds(t.trace()), vec![], "settled before the restart");
}

#[test]
fn a_request_made_before_its_addressee_first_spawns_is_addressed_to_its_first_run() {
    // As an imported trace can have it: the lead asks carol, not spawned yet.
    let id = RequestId::parse("0badcafe").unwrap();
    let created = Event::RequestCreated {
        request_id: id.clone(),
        request_kind: RequestKind::SHUTDOWN,
        requester: AgentName::lead(),
        addressee: name("carol"),
        plan: None,
        fields: Default::default(),
    };
    let mut m = Message::new(MessageType::SHUTDOWN_REQUEST, AgentName::lead(), name("carol"), "please stop", Millis(0));
    m.request_id = Some(id.clone());
    let asked = inject(&inject(Team::new("default", 3).trace(), created.clone()), Event::MessageSent { message: m });
    let spawned = Event::MemberSpawned { name: name("carol"), role: "coder".into(), plan_mode: false };
    let read = Event::InboxDrained { agent: name("carol"), message_ids: vec![MessageId(1)] };
    // Her first run reads the request and answers it: neither crosses a restart.
    let answered = [spawned.clone(), read.clone(), response(MessageType::SHUTDOWN_RESPONSE, "carol", "lead", &id)];
    let first = answered.into_iter().fold(asked.clone(), |t, e| inject(&t, e));
    assert_eq!(kinds(&first), vec![], "{:?}", check(&first));
    // Her second run is another matter: the first one left it unread.
    let second = [spawned.clone(), spawned, read].into_iter().fold(asked, |t, e| inject(&t, e));
    assert_eq!(kinds(&second), vec![ViolationKind::RequestAcrossRestart]);
    // The team binds it to her first run too: that run may answer it.
    let mut t = Team::replay(&inject(Team::new("default", 3).trace(), created)).unwrap();
    t.spawn(&name("carol"), "coder", false, Millis(1)).unwrap();
    assert_eq!(t.answer(RequestKind::SHUTDOWN, &id, &name("carol"), true, "", Millis(2)), Ok(RequestStatus::Approved));
}

#[test]
fn every_violation_kind_has_a_readable_name() {
    let names: Vec<String> = ViolationKind::ALL.iter().map(ToString::to_string).collect();
    assert_eq!(
        names,
        [
            "answer to unknown request",
            "second answer",
            "answer from wrong agent",
            "answer across a restart",
            "request across a restart",
            "message to exited teammate",
            "request left pending",
            "answer lost",
            "duplicate delivered",
            "act after approved shutdown",
            "gated tool while closed",
            "answer after expiry",
        ]
    );
}

/// alice has a pending shutdown request; the rest is up to the test.
fn asked_alice() -> (Team, RequestId) {
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    (t, id)
}

fn pending_detail(t: &Trace) -> (String, Option<u64>) {
    let v = check(t);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].kind, ViolationKind::LeftPending);
    (v[0].detail.to_string(), v[0].fault)
}

#[test]
fn a_request_left_pending_says_why_when_the_trace_shows_it() {
    // The addressee restarted before answering.
    let (mut t, id) = asked_alice();
    t.set_status(&name("alice"), MemberStatus::Idle, Millis(2)).unwrap();
    t.spawn(&name("alice"), "coder", false, Millis(3)).unwrap();
    t.finish_run(Millis(4)).unwrap();
    assert_eq!(
        pending_detail(t.trace()),
        (
            format!(
                "shutdown request {id} to alice was still pending when the run finished: alice restarted (incarnation 2) \
                 before answering, and its new run cannot answer for the old one"
            ),
            None
        )
    );
    // The addressee shut down without answering.
    let (mut t, id) = asked_alice();
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(2)).unwrap();
    t.finish_run(Millis(3)).unwrap();
    let want = format!("shutdown request {id} to alice was still pending when the run finished; alice shut down without answering it");
    assert_eq!(pending_detail(t.trace()), (want, None));
    // Nothing in the trace explains it.
    let (mut t, id) = asked_alice();
    t.finish_run(Millis(2)).unwrap();
    assert_eq!(pending_detail(t.trace()), (format!("shutdown request {id} to alice was still pending when the run finished"), None));
    // A reply arrived but the tracker never moved (only an import has that).
    let (t, id) = asked_alice();
    let bad = inject(&inject(t.trace(), response(MessageType::SHUTDOWN_RESPONSE, "alice", "lead", &id)), Event::RunFinished);
    let want = format!(
        "shutdown request {id} to alice was still pending when the run finished; a reply arrived but the tracker never recorded an answer"
    );
    assert_eq!(pending_detail(&bad), (want, None));
}

#[test]
fn a_request_held_back_by_a_fault_and_left_pending_names_the_fault() {
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let late = FaultRule { msg_type: Some(MessageType::SHUTDOWN_REQUEST), ..FaultRule::new(FaultAction::Delay { ms: 500 }) };
    let quiet = FaultRule { msg_type: Some(MessageType::Broadcast), ..FaultRule::new(FaultAction::Drop) };
    t.set_faults(FaultPlan::new(vec![quiet, late]));
    let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.finish_run(Millis(2)).unwrap();
    let want = format!(
        "shutdown request {id} to alice was still pending when the run finished: fault rule 2 held the request back (#2) and alice never answered it"
    );
    assert_eq!(pending_detail(t.trace()), (want, Some(2)));
}

/// alice answers her shutdown request (`approve`) under `rule`; returns
/// the violations and the request id.
fn shutdown_answered_under(approve: bool, rule: FaultRule) -> (Vec<Violation>, RequestId) {
    let (mut t, id) = asked_alice();
    t.set_faults(FaultPlan::new(vec![rule]));
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), approve, "no", Millis(2)).unwrap();
    (check(t.trace()), id)
}

#[test]
fn a_lost_rejection_says_rejected_and_nobody_exits() {
    let (v, id) = shutdown_answered_under(false, FaultRule::new(FaultAction::Drop));
    assert_eq!(v.len(), 1);
    assert_eq!(
        v[0].detail.to_string(),
        format!("alice rejected shutdown request {id}; fault rule 1 dropped the reply (#4), so the lead never learned it")
    );
}

#[test]
fn a_lost_plan_approval_does_not_say_the_teammate_exits() {
    let mut t = Team::new("default", 3);
    t.spawn(&name("bob"), "coder", true, Millis(0)).unwrap();
    let id = t.submit_plan(&name("bob"), "p", Millis(1)).unwrap();
    t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]));
    t.answer(RequestKind::PLAN, &id, &AgentName::lead(), true, "ok", Millis(2)).unwrap();
    let v = check(t.trace());
    assert_eq!(v.len(), 1);
    assert_eq!(
        v[0].detail.to_string(),
        format!("the lead approved plan request {id}; fault rule 1 dropped the reply (#4), so bob never learned it")
    );
}

#[test]
fn a_dropped_reply_that_was_no_valid_answer_is_not_an_answer_lost() {
    let (t, id) = asked_alice();
    let mut reply = Message::new(MessageType::SHUTDOWN_RESPONSE, name("bob"), AgentName::lead(), "", Millis(0));
    reply.request_id = Some(id.clone());
    reply.approve = Some(true);
    let spawn_bob = Event::MemberSpawned { name: name("bob"), role: "r".into(), plan_mode: false };
    let wrong_agent = Event::FaultApplied { action: FaultAction::Drop, message: reply.clone(), rule: Some(1) };
    let mut plan_reply = reply.clone();
    plan_reply.msg_type = MessageType::PLAN_APPROVAL_RESPONSE;
    plan_reply.from = name("alice");
    let wrong_kind = Event::FaultApplied { action: FaultAction::Drop, message: plan_reply, rule: Some(1) };
    let bad = inject(&inject(&inject(t.trace(), spawn_bob), wrong_agent), wrong_kind);
    assert_eq!(check(&bad), vec![], "nobody lost an answer: neither was the addressee's reply");
    // A reply dropped after one already arrived lost nothing either.
    let (mut t, id) = asked_alice();
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "ok", Millis(2)).unwrap();
    let mut again = Message::new(MessageType::SHUTDOWN_RESPONSE, name("alice"), AgentName::lead(), "ok", Millis(0));
    again.request_id = Some(id.clone());
    again.approve = Some(true);
    let dropped = Event::FaultApplied { action: FaultAction::Drop, message: again, rule: Some(1) };
    assert_eq!(check(&inject(t.trace(), dropped)), vec![]);
}

#[test]
fn a_different_message_after_a_duplicate_fault_is_not_its_copy() {
    let (mut t, id) = asked_alice();
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "ok", Millis(2)).unwrap();
    let mut reply = Message::new(MessageType::SHUTDOWN_RESPONSE, name("alice"), AgentName::lead(), "again", Millis(0));
    reply.request_id = Some(id.clone());
    reply.approve = Some(true);
    let note = Message::new(MessageType::Message, name("alice"), AgentName::lead(), "note", Millis(0));
    let dup = Event::FaultApplied { action: FaultAction::Duplicate, message: note, rule: Some(1) };
    let bad = inject(&inject(t.trace(), dup), Event::MessageSent { message: reply });
    let kinds: Vec<ViolationKind> = check(&bad).into_iter().map(|v| v.kind).collect();
    assert_eq!(kinds, [ViolationKind::SecondAnswer], "a second answer, not a duplicate's copy");
}

#[test]
fn a_lost_answer_the_tracker_never_recorded_says_what_the_dropped_reply_said() {
    // Only an import has this: the reply was dropped but no transition was recorded.
    for (approve, said) in [(true, "approved"), (false, "rejected")] {
        let (t, id) = asked_alice();
        let mut reply = Message::new(MessageType::SHUTDOWN_RESPONSE, name("alice"), AgentName::lead(), "", Millis(0));
        reply.request_id = Some(id.clone());
        reply.approve = Some(approve);
        let bad = inject(t.trace(), Event::FaultApplied { action: FaultAction::Drop, message: reply, rule: Some(1) });
        let at = bad.len() as u64 - 1;
        let v = check(&bad);
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!((v[0].kind, v[0].fault), (ViolationKind::AnswerLost, Some(at)));
        let exits = if approve { " and exits" } else { "" };
        let want =
            format!("alice {said} shutdown request {id}{exits}; fault rule 1 dropped the reply (#{at}), so the lead never learned it");
        assert_eq!(v[0].detail.to_string(), want);
    }
}

#[test]
fn a_duplicated_request_left_pending_is_not_said_to_be_held_back() {
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    t.set_faults(FaultPlan::new(vec![FaultRule {
        msg_type: Some(MessageType::SHUTDOWN_REQUEST),
        ..FaultRule::new(FaultAction::Duplicate)
    }]));
    let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.finish_run(Millis(2)).unwrap();
    assert!(t.trace().entries().iter().any(|e| matches!(e.event, Event::FaultApplied { action: FaultAction::Duplicate, .. })));
    let want = format!("shutdown request {id} to alice was still pending when the run finished");
    assert_eq!(pending_detail(t.trace()), (want, None), "a copy delivered it twice: nothing held it back");
}

#[test]
fn a_copy_that_is_the_only_delivery_of_a_reply_is_the_answer_not_a_duplicate() {
    // Only an import has this: the duplicate fault's copy arrives with no
    // original before it.
    let (t, id) = asked_alice();
    let mut reply = Message::new(MessageType::SHUTDOWN_RESPONSE, name("alice"), AgentName::lead(), "", Millis(0));
    reply.request_id = Some(id.clone());
    reply.approve = Some(true);
    let dup = Event::FaultApplied { action: FaultAction::Duplicate, message: reply.clone(), rule: Some(1) };
    let bad = inject(&inject(t.trace(), dup), Event::MessageSent { message: reply });
    assert_eq!(check(&bad), vec![], "the requester read the answer once");
}

/// A tool call of `agent` (its `ToolCalled`), as a loop records it.
fn tool_called(agent: &str, id: &str, tool: &str) -> Event {
    Event::ToolCalled { agent: name(agent), tool_use_id: id.into(), tool: tool.into(), input: serde_json::json!({}) }
}

fn tool_returned(agent: &str, id: &str, tool: &str) -> Event {
    Event::ToolReturned { agent: name(agent), tool_use_id: id.into(), tool: tool.into(), output: "ok".into(), is_error: false }
}

#[test]
fn a_teammate_that_calls_its_model_after_its_shutdown_was_approved_is_flagged_once() {
    // alice's shutdown was approved (by her or by whoever answered for her):
    // a model call is new work.
    let (t, shut, _) = base();
    let approved = t.trace().entries().iter().find(|e| matches!(e.event, Event::RequestTransitioned { .. })).unwrap().seq;
    let bad = inject(&inject(t.trace(), Event::ModelCalled { agent: name("alice") }), Event::ModelCalled { agent: name("alice") });
    let v = check(&bad);
    assert_eq!(v.len(), 1, "one finding per approval: {v:?}");
    assert_eq!(
        (v[0].kind, v[0].seq, v[0].request_id.clone()),
        (ViolationKind::ActAfterShutdownApproved, bad.len() as u64 - 2, Some(shut.clone()))
    );
    assert_eq!(
        v[0].detail.to_string(),
        format!(
            "alice approved shutdown request {shut} (#{approved}), then called its model again instead of finishing its turn and exiting"
        )
    );
}

#[test]
fn a_teammate_finishing_the_turn_it_approved_its_shutdown_in_is_not_flagged() {
    // alice's reply asked for shutdown_response and then send_message: the
    // second tool is the rest of her turn, and the answer is the answer.
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let shut = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.drain(&name("alice"), Millis(2)).unwrap();
    let mut trace = inject(t.trace(), Event::ModelCalled { agent: name("alice") });
    trace = inject(&trace, tool_called("alice", "t1", "shutdown_response"));
    let mut t = Team::replay(&trace).unwrap();
    t.answer(RequestKind::SHUTDOWN, &shut, &name("alice"), true, "done", Millis(3)).unwrap();
    let mut trace = inject(t.trace(), tool_returned("alice", "t1", "shutdown_response"));
    trace = inject(&trace, tool_called("alice", "t2", "send_message"));
    let mut t = Team::replay(&trace).unwrap();
    t.send(&name("alice"), &AgentName::lead(), "message", "bye", Millis(4)).unwrap();
    let trace = inject(t.trace(), tool_returned("alice", "t2", "send_message"));
    let mut t = Team::replay(&trace).unwrap();
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(5)).unwrap();
    t.finish_run(Millis(6)).unwrap();
    assert_eq!(check(t.trace()), vec![]);
    // Once she has left, running a tool is one act too many.
    let after = inject(t.trace(), tool_called("alice", "t3", "write_file"));
    let v = check(&after);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].kind, ViolationKind::ActAfterShutdownApproved);
    assert!(v[0].detail.to_string().contains("then ran write_file"), "{}", v[0].detail);
}

#[test]
fn a_message_sent_as_a_teammate_after_its_shutdown_was_approved_is_flagged_unless_it_is_the_answer() {
    // Approved by hand: the answer is sent outside any tool of hers, and is
    // the answer; a plain message after it is not.
    let mut t = Team::new("default", 3);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let shut = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.answer(RequestKind::SHUTDOWN, &shut, &name("alice"), true, "by hand", Millis(2)).unwrap();
    assert_eq!(check(t.trace()), vec![]);
    t.send(&name("alice"), &AgentName::lead(), "message", "one more thing", Millis(3)).unwrap();
    let v = check(t.trace());
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!((v[0].kind, v[0].seq), (ViolationKind::ActAfterShutdownApproved, t.trace().len() as u64 - 1));
    assert!(v[0].detail.to_string().contains("then sent a message to the lead"), "{}", v[0].detail);
}

#[test]
fn a_teammate_spawned_again_after_an_approved_shutdown_may_work() {
    let (mut t, _, _) = base();
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
    t.spawn(&name("alice"), "coder", false, Millis(5)).unwrap();
    let trace = inject(t.trace(), Event::ModelCalled { agent: name("alice") });
    assert_eq!(kinds(&trace), vec![]);
}
