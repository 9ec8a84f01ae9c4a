//! Native tests of the team's cross-module rules, each named after the rule.
#![cfg(not(target_arch = "wasm32"))]

use team_protocols::protocol::*;

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

fn lead() -> AgentName {
    AgentName::lead()
}

fn team_with(members: &[&str]) -> Team {
    let mut t = Team::new("default", 7);
    for m in members {
        t.spawn(&name(m), "coder", false, Millis(0)).unwrap();
    }
    t
}

fn last_message(t: &Team) -> Message {
    t.trace()
        .entries()
        .iter()
        .rev()
        .find_map(|e| match &e.event {
            Event::MessageSent { message } => Some(message.clone()),
            _ => None,
        })
        .expect("a message was sent")
}

#[test]
fn shutdown_handshake_moves_the_request_and_correlates_both_messages() {
    let mut t = team_with(&["alice"]);
    let id = t.request_shutdown(&lead(), &name("alice"), Millis(10)).unwrap();
    assert_eq!(id.as_str().len(), 8);
    let req = last_message(&t);
    assert_eq!((req.msg_type, req.content.as_str()), (MessageType::SHUTDOWN_REQUEST, "Please shut down gracefully."));
    assert_eq!(req.request_id.as_ref(), Some(&id));
    assert_eq!(t.request(&id).unwrap().status, RequestStatus::Pending);

    let status = t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "all done", Millis(30)).unwrap();
    assert_eq!(status, RequestStatus::Approved);
    let resp = last_message(&t);
    assert_eq!(resp.msg_type, MessageType::SHUTDOWN_RESPONSE);
    assert_eq!((resp.from.as_str(), resp.to.as_str()), ("alice", "lead"));
    assert_eq!(resp.request_id.as_ref(), Some(&id));
    assert_eq!(resp.approve, Some(true));
    assert_eq!(resp.reason.as_deref(), Some("all done"));
    assert_eq!(t.request(&id).unwrap().latency(), Some(Millis(20)));
}

#[test]
fn plan_handshake_sends_the_plan_and_returns_feedback() {
    let mut t = team_with(&["bob"]);
    let id = t.submit_plan(&name("bob"), "1. rename 2. test", Millis(5)).unwrap();
    let req = last_message(&t);
    assert_eq!(req.msg_type, MessageType::PLAN_APPROVAL_REQUEST);
    assert_eq!(req.plan.as_deref(), Some("1. rename 2. test"));
    assert_eq!(req.to, lead());
    t.answer(RequestKind::PLAN, &id, &lead(), false, "too risky", Millis(9)).unwrap();
    let resp = last_message(&t);
    assert_eq!(resp.msg_type, MessageType::PLAN_APPROVAL_RESPONSE);
    assert_eq!((resp.approve, resp.feedback.as_deref()), (Some(false), Some("too risky")));
    assert_eq!(resp.to, name("bob"));
    assert_eq!(t.request(&id).unwrap().status, RequestStatus::Rejected);
}

#[test]
fn a_refused_command_leaves_state_and_trace_unchanged() {
    let mut t = team_with(&["alice", "bob"]);
    let id = t.request_shutdown(&lead(), &name("alice"), Millis(1)).unwrap();
    let before_state = t.state().clone();
    let before_len = t.trace().len();
    let unknown = RequestId::parse("00000000").unwrap();
    assert!(matches!(
        t.answer(RequestKind::SHUTDOWN, &unknown, &name("alice"), true, "", Millis(2)),
        Err(TeamError::Tracker(TrackerError::UnknownRequest(_)))
    ));
    assert!(matches!(
        t.answer(RequestKind::SHUTDOWN, &id, &name("bob"), true, "", Millis(2)),
        Err(TeamError::Tracker(TrackerError::NotAddressee { .. }))
    ));
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), false, "busy", Millis(3)).unwrap();
    let settled_state = t.state().clone();
    let settled_len = t.trace().len();
    assert!(matches!(
        t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "", Millis(4)),
        Err(TeamError::Tracker(TrackerError::AlreadySettled { .. }))
    ));
    assert_eq!((t.state(), t.trace().len()), (&settled_state, settled_len));
    assert_ne!(&before_state, &settled_state);
    assert_eq!(before_len + 2, settled_len, "one transition and one response message");
}

#[test]
fn sending_to_an_unknown_agent_is_refused_not_lost() {
    let mut t = team_with(&["alice"]);
    let err = t.send(&lead(), &name("bob"), "message", "hi", Millis(1)).unwrap_err();
    assert!(err.to_string().contains("no agent named 'bob'"), "{err}");
    assert!(t.trace().is_empty() || t.trace().entries().iter().all(|e| !matches!(e.event, Event::MessageSent { .. })));
}

#[test]
fn sending_an_unknown_type_is_refused() {
    let mut t = team_with(&["alice"]);
    let err = t.send(&lead(), &name("alice"), "poke", "hi", Millis(1)).unwrap_err();
    assert!(err.to_string().starts_with("unknown message type 'poke'"), "{err}");
}

#[test]
fn protocol_types_cannot_bypass_their_tools() {
    let mut t = team_with(&["alice"]);
    let err = t.send(&name("alice"), &lead(), "shutdown_response", "ok", Millis(1)).unwrap_err();
    assert_eq!(err, TeamError::ProtocolTypeViaSend(MessageType::SHUTDOWN_RESPONSE));
    assert!(err.to_string().contains("use the shutdown_response tool"));
}

#[test]
fn a_message_to_an_exited_teammate_is_refused_not_lost() {
    let mut t = team_with(&["alice"]);
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(1)).unwrap();
    let err = t.send(&lead(), &name("alice"), "message", "hello?", Millis(2)).unwrap_err();
    assert_eq!(err, TeamError::RecipientExited(name("alice")));
    assert!(err.to_string().contains("spawn it again"));
    assert!(t.peek(&name("alice")).unwrap().is_empty());
}

#[test]
fn only_the_lead_requests_shutdowns() {
    let mut t = team_with(&["alice", "bob"]);
    assert_eq!(t.request_shutdown(&name("bob"), &name("alice"), Millis(1)), Err(TeamError::NotLead(name("bob"))));
}

#[test]
fn a_shutdown_request_to_an_exited_teammate_is_refused() {
    let mut t = team_with(&["alice"]);
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(1)).unwrap();
    assert_eq!(t.request_shutdown(&lead(), &name("alice"), Millis(2)), Err(TeamError::TargetExited(name("alice"))));
    assert!(matches!(t.request_shutdown(&lead(), &name("zed"), Millis(2)), Err(TeamError::Roster(RosterError::UnknownMember(_)))));
}

#[test]
fn broadcast_skips_the_sender_and_exited_teammates() {
    let mut t = team_with(&["alice", "bob", "carol"]);
    t.set_status(&name("carol"), MemberStatus::Shutdown, Millis(1)).unwrap();
    let got = t.broadcast(&lead(), "standup", Millis(2)).unwrap();
    assert_eq!(got, vec![name("alice"), name("bob")]);
    let got = t.broadcast(&name("alice"), "hello", Millis(3)).unwrap();
    assert_eq!(got, vec![name("bob"), lead()]);
    assert_eq!(t.peek(&name("bob")).unwrap().len(), 2);
    assert!(t.peek(&name("carol")).unwrap().is_empty());
}

#[test]
fn drain_records_which_messages_were_delivered() {
    let mut t = team_with(&["alice"]);
    let a = t.send(&lead(), &name("alice"), "message", "one", Millis(1)).unwrap();
    let b = t.send(&lead(), &name("alice"), "message", "two", Millis(2)).unwrap();
    let got = t.drain(&name("alice"), Millis(3)).unwrap();
    assert_eq!(got.iter().map(|e| e.id).collect::<Vec<_>>(), vec![a, b]);
    let last = t.trace().entries().last().unwrap();
    assert_eq!(last.event, Event::InboxDrained { agent: name("alice"), message_ids: vec![a, b] });
    let len = t.trace().len();
    assert!(t.drain(&name("alice"), Millis(4)).unwrap().is_empty());
    assert_eq!(t.trace().len(), len, "an empty drain records nothing");
}

#[test]
fn plan_mode_gate_opens_only_on_an_approved_plan() {
    let mut t = Team::new("default", 1);
    t.spawn(&name("charlie"), "coder", true, Millis(0)).unwrap();
    assert!(t.plan_gate_closed(&name("charlie")));
    let first = t.submit_plan(&name("charlie"), "v1", Millis(1)).unwrap();
    t.answer(RequestKind::PLAN, &first, &lead(), false, "no", Millis(2)).unwrap();
    assert!(t.plan_gate_closed(&name("charlie")), "a rejected plan keeps the gate shut");
    let second = t.submit_plan(&name("charlie"), "v2", Millis(3)).unwrap();
    t.answer(RequestKind::PLAN, &second, &lead(), true, "ok", Millis(4)).unwrap();
    assert!(!t.plan_gate_closed(&name("charlie")));
    t.set_status(&name("charlie"), MemberStatus::Idle, Millis(5)).unwrap();
    t.spawn(&name("charlie"), "coder", true, Millis(6)).unwrap();
    assert!(t.plan_gate_closed(&name("charlie")), "a restart in plan mode needs a new approval");
    assert!(!Team::replay(t.trace()).unwrap().plan_gate_closed(&name("bob")), "non-members have no gate");
}

#[test]
fn every_transition_is_recorded_with_its_time_and_author() {
    let mut t = team_with(&["alice"]);
    let id = t.request_shutdown(&lead(), &name("alice"), Millis(100)).unwrap();
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "", Millis(350)).unwrap();
    let req = t.request(&id).unwrap();
    assert_eq!(req.created_at, Millis(100));
    assert_eq!(
        req.transitions,
        vec![Transition { from: RequestStatus::Pending, to: RequestStatus::Approved, at: Millis(350), by: name("alice"), expired: false }]
    );
}

#[test]
fn same_seed_gives_the_same_request_ids() {
    let run = |seed| {
        let mut t = Team::new("d", seed);
        for n in ["a", "b", "c"] {
            t.spawn(&name(n), "r", false, Millis(0)).unwrap();
        }
        ["a", "b", "c"].iter().zip(0..).map(|(n, i)| t.request_shutdown(&lead(), &name(n), Millis(i)).unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
    let ids = run(9);
    assert!(ids[0] != ids[1] && ids[1] != ids[2]);
}

#[test]
fn replay_rebuilds_the_exact_state() {
    let mut t = team_with(&["alice", "bob"]);
    let id = t.request_shutdown(&lead(), &name("alice"), Millis(1)).unwrap();
    t.drain(&name("alice"), Millis(2)).unwrap();
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "", Millis(3)).unwrap();
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
    t.submit_plan(&name("bob"), "plan", Millis(5)).unwrap();
    let json = t.trace().to_json();
    let replayed = Team::replay(&Trace::from_json(&json).unwrap()).unwrap();
    assert_eq!(replayed.state(), t.state());
}

#[test]
fn replay_refuses_a_trace_that_breaks_the_rules_and_names_the_event() {
    let mut t = team_with(&["alice"]);
    let id = t.request_shutdown(&lead(), &name("alice"), Millis(1)).unwrap();
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "", Millis(2)).unwrap();
    let mut entries = t.trace().entries().to_vec();
    let dup = entries.iter().find(|e| matches!(e.event, Event::RequestTransitioned { .. })).unwrap().clone();
    entries.push(TraceEntry { seq: entries.len() as u64, ..dup });
    let bad = Trace::from_parts("default".into(), 7, 1, entries).unwrap();
    let err = Team::replay(&bad).unwrap_err();
    assert_eq!(err.seq, bad.len() as u64 - 1);
    assert!(matches!(err.source, TeamError::Tracker(TrackerError::AlreadySettled { .. })));
    assert!(err.to_string().contains("already approved"), "{err}");
}

#[test]
fn replay_refuses_a_delivery_that_does_not_match_the_inbox() {
    let mut t = team_with(&["alice"]);
    t.send(&lead(), &name("alice"), "message", "hi", Millis(1)).unwrap();
    let mut entries = t.trace().entries().to_vec();
    entries.push(TraceEntry {
        seq: entries.len() as u64,
        time: Millis(2),
        event: Event::InboxDrained { agent: name("alice"), message_ids: vec![MessageId(99)] },
    });
    let bad = Trace::from_parts("default".into(), 7, 1, entries).unwrap();
    assert!(matches!(Team::replay(&bad).unwrap_err().source, TeamError::DeliveryMismatch { .. }));
}

#[test]
fn commands_refuse_time_going_backwards() {
    let mut t = team_with(&["alice"]);
    t.send(&lead(), &name("alice"), "message", "late", Millis(50)).unwrap();
    let err = t.send(&lead(), &name("alice"), "message", "early", Millis(10)).unwrap_err();
    assert!(matches!(err, TeamError::Trace(TraceError::TimeWentBackwards { .. })));
    assert_eq!(t.peek(&name("alice")).unwrap().len(), 1);
}

/// alice is asked to shut down, goes idle without answering, and is spawned
/// again (incarnation 2) before she answers.
fn restarted_with_a_pending_shutdown() -> (Team, RequestId) {
    let mut t = team_with(&["alice"]);
    let id = t.request_shutdown(&lead(), &name("alice"), Millis(1)).unwrap();
    t.set_status(&name("alice"), MemberStatus::Idle, Millis(2)).unwrap();
    t.spawn(&name("alice"), "coder", false, Millis(3)).unwrap();
    (t, id)
}

#[test]
fn a_stale_shutdown_answer_is_refused_with_its_own_error() {
    let (mut t, id) = restarted_with_a_pending_shutdown();
    let len = t.trace().len();
    let err = t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "ok", Millis(4)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "request '{id}' was addressed to alice's previous run (incarnation 1); alice has restarted (incarnation 2) and cannot answer it"
        )
    );
    assert_eq!(t.request(&id).unwrap().status, RequestStatus::Pending, "the stale request stays as it was");
    assert_eq!(t.trace().len(), len, "nothing recorded");
    assert!(!t.is_exiting(&name("alice")), "the new run does not exit");
}

#[test]
fn incarnations_count_spawns_and_bind_requests_and_replay_derives_them() {
    let (mut t, id) = restarted_with_a_pending_shutdown();
    assert_eq!(t.roster().get(&name("alice")).unwrap().incarnation, 2);
    let req = t.request(&id).unwrap();
    assert_eq!((req.incarnations.requester, req.incarnations.addressee), (1, 1));
    let fresh = t.request_shutdown(&lead(), &name("alice"), Millis(4)).unwrap();
    assert_eq!(t.request(&fresh).unwrap().incarnations.addressee, 2);
    assert_eq!(t.answer(RequestKind::SHUTDOWN, &fresh, &name("alice"), true, "ok", Millis(5)), Ok(RequestStatus::Approved));
    assert_eq!(Team::replay(t.trace()).unwrap().state(), t.state());
    assert!(!t.trace().to_json().contains("incarnation"), "the trace format is unchanged");
}

#[test]
fn a_stale_shutdown_in_a_trace_is_refused_on_replay() {
    let (t, id) = restarted_with_a_pending_shutdown();
    let mut entries = t.trace().entries().to_vec();
    let moved = Event::RequestTransitioned {
        request_id: id.clone(),
        request_kind: RequestKind::SHUTDOWN,
        by: name("alice"),
        from: RequestStatus::Pending,
        to: RequestStatus::Approved,
    };
    entries.push(TraceEntry { seq: entries.len() as u64, time: Millis(4), event: moved });
    let trace = Trace::from_parts("default".into(), 7, t.trace().version, entries).unwrap();
    let err = Team::replay(&trace).unwrap_err();
    assert!(matches!(err.source, TeamError::StaleRequest { addressed: 1, current: 2, .. }), "{err}");
}

#[test]
fn a_plan_approved_for_an_earlier_run_does_not_open_the_new_runs_gate() {
    let mut t = Team::new("default", 7);
    t.spawn(&name("bob"), "coder", true, Millis(0)).unwrap();
    let plan = t.submit_plan(&name("bob"), "old plan", Millis(1)).unwrap();
    t.set_status(&name("bob"), MemberStatus::Idle, Millis(2)).unwrap();
    t.spawn(&name("bob"), "coder", true, Millis(3)).unwrap();
    assert_eq!(t.answer(RequestKind::PLAN, &plan, &lead(), true, "fine", Millis(4)), Ok(RequestStatus::Approved));
    assert!(t.plan_gate_closed(&name("bob")), "the approval was for bob's previous run");
    let fresh = t.submit_plan(&name("bob"), "new plan", Millis(5)).unwrap();
    t.answer(RequestKind::PLAN, &fresh, &lead(), true, "fine", Millis(6)).unwrap();
    assert!(!t.plan_gate_closed(&name("bob")), "the new run's own plan opens it");
    assert_eq!(Team::replay(t.trace()).unwrap().state(), t.state());
}

#[test]
fn a_second_shutdown_request_while_one_is_pending_is_refused() {
    let mut t = team_with(&["alice"]);
    let first = t.request_shutdown(&lead(), &name("alice"), Millis(1)).unwrap();
    let len = t.trace().len();
    let err = t.request_shutdown(&lead(), &name("alice"), Millis(2)).unwrap_err();
    assert_eq!(err.to_string(), format!("a shutdown request to 'alice' is already pending ({first}); wait for its answer"));
    assert_eq!(t.trace().len(), len);
    t.answer(RequestKind::SHUTDOWN, &first, &name("alice"), false, "busy", Millis(3)).unwrap();
    assert!(t.request_shutdown(&lead(), &name("alice"), Millis(4)).is_ok(), "once answered, the lead may ask again");
}

#[test]
fn a_teammate_that_approved_its_shutdown_is_exiting_until_it_shuts_down_or_respawns() {
    let mut t = team_with(&["alice", "bob"]);
    let a = t.request_shutdown(&lead(), &name("alice"), Millis(1)).unwrap();
    let b = t.request_shutdown(&lead(), &name("bob"), Millis(1)).unwrap();
    assert!(!t.is_exiting(&name("alice")), "asked is not exiting");
    t.answer(RequestKind::SHUTDOWN, &b, &name("bob"), false, "busy", Millis(2)).unwrap();
    assert!(!t.is_exiting(&name("bob")), "a rejection keeps it working");
    t.answer(RequestKind::SHUTDOWN, &a, &name("alice"), true, "ok", Millis(2)).unwrap();
    assert!(t.is_exiting(&name("alice")), "approved: it finishes its turn, then exits");
    assert!(Team::replay(t.trace()).unwrap().is_exiting(&name("alice")), "derived on replay");
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(3)).unwrap();
    assert!(!t.is_exiting(&name("alice")), "it has exited");
    t.spawn(&name("alice"), "coder", false, Millis(4)).unwrap();
    assert!(!t.is_exiting(&name("alice")), "a new run is not exiting");
    assert!(!t.is_exiting(&name("ghost")));
    assert_eq!(Team::replay(t.trace()).unwrap().state(), t.state());
}

#[test]
fn events_since_returns_exactly_the_entries_a_poller_has_not_seen() {
    let mut t = team_with(&["alice"]);
    assert_eq!(t.events_since(0), t.trace().entries());
    let seen = t.trace().len() as u64;
    assert!(t.events_since(seen).is_empty(), "nothing new");
    t.send(&lead(), &name("alice"), "message", "hi", Millis(1)).unwrap();
    let new = t.events_since(seen);
    assert_eq!(new.len(), 1);
    assert_eq!(new[0].seq, seen);
    assert!(matches!(new[0].event, Event::MessageSent { .. }));
    assert!(t.events_since(u64::MAX).is_empty(), "past the end is empty, not a panic");
}

#[test]
fn replay_refuses_a_transition_whose_recorded_from_state_is_wrong() {
    let mut t = team_with(&["alice"]);
    let id = t.request_shutdown(&lead(), &name("alice"), Millis(1)).unwrap();
    let mut entries = t.trace().entries().to_vec();
    let moved = Event::RequestTransitioned {
        request_id: id.clone(),
        request_kind: RequestKind::SHUTDOWN,
        by: name("alice"),
        from: RequestStatus::Rejected,
        to: RequestStatus::Approved,
    };
    entries.push(TraceEntry { seq: entries.len() as u64, time: Millis(2), event: moved });
    let trace = Trace::from_parts("default".into(), 7, t.trace().version, entries).unwrap();
    assert_eq!(Team::replay(&trace).unwrap_err().source, TeamError::TransitionMismatch(id));
}

#[test]
fn a_teammate_that_has_shut_down_can_send_nothing() {
    let mut t = team_with(&["alice", "bob"]);
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(1)).unwrap();
    let before = t.trace().len();
    assert_eq!(t.send(&name("alice"), &name("bob"), "message", "still here", Millis(2)), Err(TeamError::SenderExited(name("alice"))));
    assert_eq!(t.broadcast(&name("alice"), "still here", Millis(2)), Err(TeamError::SenderExited(name("alice"))));
    assert_eq!(t.trace().len(), before, "nothing recorded");
    assert!(TeamError::SenderExited(name("alice")).to_string().contains("'alice' has shut down and can send nothing"));
}

#[test]
fn forgetting_history_keeps_the_last_entry_the_state_and_the_numbering() {
    let mut t = team_with(&["alice"]);
    t.send(&lead(), &name("alice"), "message", "one", Millis(1)).unwrap();
    let last = t.trace().entries().last().unwrap().clone();
    let state = t.state().clone();
    t.forget_history();
    assert_eq!(t.trace().entries(), std::slice::from_ref(&last), "only the last entry is kept");
    assert_eq!(t.state(), &state, "the state is untouched");
    let next = t.send(&lead(), &name("alice"), "message", "two", Millis(2)).unwrap();
    assert_eq!(next, MessageId(last.seq + 1), "the numbering goes on");
    assert_eq!(t.events_since(last.seq + 1).len(), 1);
}

#[test]
fn releasing_when_nothing_is_held_records_nothing_and_cannot_fail() {
    let mut t = team_with(&["alice"]);
    t.send(&lead(), &name("alice"), "message", "hi", Millis(50)).unwrap();
    let len = t.trace().len();
    // A poll with an older clock reading: nothing to release, so nothing to refuse.
    assert_eq!(t.release_due(Millis(10)), Ok(0));
    assert_eq!(t.release_all(Millis(10)), Ok(0));
    assert_eq!(t.trace().len(), len);
}
