//! The team's own tests: faults on the way out of a command, and the
//! atomic commit and its undo.

mod faults_on_the_way_out {
    use super::super::*;
    use crate::protocol::faults::FaultRule;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// A team with alice, where every message matching `rule` is hit.
    fn team_with(rule: FaultRule) -> Team {
        let mut t = Team::new("t", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        t.set_faults(FaultPlan::new(vec![rule]));
        t
    }

    fn kinds(t: &Team) -> Vec<&'static str> {
        t.trace()
            .entries()
            .iter()
            .skip(1)
            .map(|e| match &e.event {
                Event::MessageSent { .. } => "sent",
                Event::FaultApplied { action, .. } => action.name(),
                Event::MessageReleased { .. } => "released",
                Event::RequestCreated { .. } => "created",
                Event::RequestTransitioned { .. } => "moved",
                Event::InboxDrained { .. } => "drained",
                _ => "other",
            })
            .collect()
    }

    fn assert_replays(t: &Team) {
        assert_eq!(Team::replay(t.trace()).unwrap().state(), t.state(), "replay equals live state");
    }

    #[test]
    fn a_dropped_message_replaces_its_send_and_reaches_no_inbox() {
        let mut t = team_with(FaultRule::new(FaultAction::Drop));
        let id = t.send(&AgentName::lead(), &name("alice"), "message", "hi", Millis(1)).unwrap();
        assert_eq!(id, MessageId(1), "the sender still gets an id");
        assert_eq!(kinds(&t), ["drop"]);
        assert!(t.peek(&name("alice")).unwrap().is_empty());
        assert_replays(&t);
    }

    #[test]
    fn a_duplicated_message_is_sent_twice_around_its_fault_event() {
        let mut t = team_with(FaultRule::new(FaultAction::Duplicate));
        t.send(&AgentName::lead(), &name("alice"), "message", "hi", Millis(1)).unwrap();
        assert_eq!(kinds(&t), ["sent", "duplicate", "sent"]);
        let inbox: Vec<_> = t.peek(&name("alice")).unwrap().iter().map(|e| (e.id, e.message.content.clone())).collect();
        assert_eq!(inbox, [(MessageId(1), "hi".to_string()), (MessageId(3), "hi".to_string())]);
        assert_replays(&t);
    }

    #[test]
    fn a_delayed_message_is_held_until_it_is_due() {
        let mut t = team_with(FaultRule::new(FaultAction::Delay { ms: 100 }));
        t.send(&AgentName::lead(), &name("alice"), "message", "later", Millis(10)).unwrap();
        assert_eq!(t.held().len(), 1);
        assert_eq!(t.held()[0].due, Some(Millis(110)));
        assert_eq!(t.release_due(Millis(109)), Ok(0));
        assert!(t.peek(&name("alice")).unwrap().is_empty());
        assert_replays(&t);
        assert_eq!(t.release_due(Millis(110)), Ok(1));
        assert_eq!(t.trace().entries().last().unwrap().event, Event::MessageReleased { held: 1 });
        assert_eq!(t.peek(&name("alice")).unwrap()[0].id, MessageId(2), "its id is the release's seq");
        assert!(t.held().is_empty());
        assert_replays(&t);
    }

    #[test]
    fn a_reordered_message_follows_the_next_one_to_its_recipient() {
        let only_first = FaultRule { msg_type: Some(MessageType::Broadcast), ..FaultRule::new(FaultAction::Reorder) };
        let mut t = team_with(only_first);
        t.broadcast(&AgentName::lead(), "first", Millis(1)).unwrap();
        t.send(&AgentName::lead(), &name("alice"), "message", "second", Millis(2)).unwrap();
        assert_eq!(kinds(&t), ["reorder", "sent", "released"]);
        let inbox: Vec<_> = t.peek(&name("alice")).unwrap().iter().map(|e| e.message.content.clone()).collect();
        assert_eq!(inbox, ["second", "first"]);
        assert_replays(&t);
    }

    #[test]
    fn release_all_releases_every_held_message_in_hold_order() {
        let mut t = team_with(FaultRule::new(FaultAction::Delay { ms: 500 }));
        t.send(&AgentName::lead(), &name("alice"), "message", "a", Millis(1)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Reorder)]));
        t.send(&AgentName::lead(), &name("alice"), "message", "b", Millis(2)).unwrap();
        assert_eq!(t.release_all(Millis(3)), Ok(2));
        let inbox: Vec<_> = t.peek(&name("alice")).unwrap().iter().map(|e| e.message.content.clone()).collect();
        assert_eq!(inbox, ["a", "b"]);
        assert_eq!(t.release_all(Millis(3)), Ok(0), "nothing left, nothing recorded");
        assert_replays(&t);
    }

    #[test]
    fn a_dropped_response_still_moves_the_request() {
        let mut t = Team::new("t", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
        t.drain(&name("alice"), Millis(2)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]));
        t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "ok", Millis(3)).unwrap();
        assert_eq!(t.request(&id).unwrap().status, RequestStatus::Approved);
        assert!(t.peek(&AgentName::lead()).unwrap().is_empty(), "the lead never hears");
        assert_replays(&t);
    }

    #[test]
    fn releasing_a_message_that_is_not_held_is_refused() {
        let t = Team::new("t", 1);
        let entry = TraceEntry { seq: 0, time: Millis(0), event: Event::MessageReleased { held: 7 } };
        assert_eq!(t.state().check(&entry), Err(TeamError::Bus(BusError::NotHeld(7))));
        let bad = Message::new(MessageType::Message, AgentName::lead(), name("ghost"), "x", Millis(0));
        let entry =
            TraceEntry { seq: 0, time: Millis(0), event: Event::FaultApplied { action: FaultAction::Drop, message: bad, rule: None } };
        assert!(matches!(t.state().check(&entry), Err(TeamError::Bus(BusError::UnknownRecipient { .. }))));
    }

    #[test]
    fn the_same_seed_and_plan_make_the_same_decisions() {
        let half = FaultPlan::new(vec![FaultRule { probability: 0.5, ..FaultRule::new(FaultAction::Drop) }]);
        let run = || {
            let mut t = Team::new("t", 42);
            t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
            t.set_faults(half.clone());
            for i in 0..20 {
                t.send(&AgentName::lead(), &name("alice"), "message", &format!("m{i}"), Millis(i)).unwrap();
            }
            t.trace().to_json()
        };
        let trace = run();
        assert_eq!(trace, run());
        assert!(trace.contains(r#""kind":"fault_applied""#) && trace.contains(r#""kind":"message_sent""#), "some hit, some not");
    }

    #[test]
    fn an_armed_fault_hits_the_next_message_without_a_rule_until_disarmed() {
        // The plan never hits: only the armed fault does.
        let mut t = team_with(FaultRule { probability: 0.0, ..FaultRule::new(FaultAction::Drop) });
        t.arm_fault(FaultAction::Drop);
        t.send(&AgentName::lead(), &name("alice"), "message", "lost", Millis(1)).unwrap();
        t.disarm_fault();
        t.send(&AgentName::lead(), &name("alice"), "message", "kept", Millis(2)).unwrap();
        assert_eq!(kinds(&t), ["drop", "sent"]);
        assert!(matches!(t.trace().entries()[1].event, Event::FaultApplied { rule: None, .. }), "an armed fault has no rule");
        let inbox: Vec<_> = t.peek(&name("alice")).unwrap().iter().map(|e| e.message.content.clone()).collect();
        assert_eq!(inbox, ["kept"]);
    }
}

mod commit_rules {
    use super::super::*;
    use crate::protocol::fields::Fields;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    #[test]
    fn an_event_the_state_refuses_after_its_checks_is_an_error_naming_the_event_not_a_crash() {
        let mut t = Team::new("t", 1);
        let alice = name("alice");
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        let state = t.state().clone();
        let at = |event| TraceEntry { seq: 9, time: Millis(1), event };
        let ghost = Message::new(MessageType::Message, AgentName::lead(), name("ghost"), "x", Millis(1));
        let unchecked = [
            (at(Event::MessageReleased { held: 7 }), "message_released", "event 7 holds no message"),
            (at(Event::MessageSent { message: ghost.clone() }), "message_sent", "no agent named 'ghost'"),
            (at(Event::InboxDrained { agent: name("ghost"), message_ids: vec![] }), "inbox_drained", "'ghost' has an inbox"),
            (
                at(Event::FaultApplied { action: FaultAction::Delay { ms: 5 }, message: ghost, rule: None }),
                "fault_applied",
                "no agent named 'ghost'",
            ),
            (
                at(Event::MemberStatusChanged { name: name("ghost"), from: MemberStatus::Idle, to: MemberStatus::Working }),
                "member_status_changed",
                "ghost",
            ),
            (at(Event::MemberSpawned { name: alice.clone(), role: "coder".into(), plan_mode: false }), "member_spawned", "alice"),
            (
                at(Event::RequestTransitioned {
                    request_id: RequestId::parse("0badc0de").unwrap(),
                    request_kind: RequestKind::SHUTDOWN,
                    by: alice.clone(),
                    from: RequestStatus::Pending,
                    to: RequestStatus::Approved,
                }),
                "request_transitioned",
                "0badc0de",
            ),
        ];
        for (entry, kind, says) in unchecked {
            let mut s = state.clone();
            let err = s.apply_checked(&entry).unwrap_err();
            assert!(matches!(&err, TeamError::Inconsistent { event, .. } if *event == kind), "{err:?}");
            let text = err.to_string();
            assert!(text.starts_with(&format!("the {kind} event passed its checks but could not be applied: ")), "{text}");
            assert!(text.contains(says), "{text}");
            assert_eq!(s, state, "{kind}: nothing was applied");
        }
    }

    #[test]
    fn an_event_that_needs_the_one_before_it_in_the_same_command_is_accepted() {
        let mut t = Team::new("t", 1);
        let bob = name("bob");
        let hello = Message::new(MessageType::Message, AgentName::lead(), bob.clone(), "hi", Millis(1));
        let events =
            vec![Event::MemberSpawned { name: bob.clone(), role: "coder".into(), plan_mode: false }, Event::MessageSent { message: hello }];
        assert_eq!(t.commit(Millis(1), events), Ok(0..2), "bob's inbox exists once the first event is applied");
        assert_eq!(t.peek(&bob).unwrap().len(), 1);
        assert_eq!(Team::replay(t.trace()).unwrap().state(), t.state());
    }

    #[test]
    fn an_event_that_contradicts_the_one_before_it_in_the_same_command_is_refused_whole() {
        let mut t = Team::new("t", 1);
        let alice = name("alice");
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        let id = t.send(&AgentName::lead(), &alice, "message", "hi", Millis(1)).unwrap();
        let (state, len) = (t.state().clone(), t.trace().len());
        let drained = Event::InboxDrained { agent: alice.clone(), message_ids: vec![id] };
        let err = t.commit(Millis(2), vec![drained.clone(), drained]).unwrap_err();
        assert!(matches!(err, TeamError::DeliveryMismatch { .. }), "{err}");
        assert_eq!((t.state(), t.trace().len()), (&state, len), "nothing of the command stays");
    }

    #[test]
    fn a_refused_command_undoes_every_kind_of_event_it_applied() {
        let mut t = Team::new("t", 1);
        let alice = name("alice");
        t.spawn(&alice, "coder", true, Millis(0)).unwrap();
        t.send(&AgentName::lead(), &alice, "message", "one", Millis(1)).unwrap();
        t.set_faults(FaultPlan::new(vec![crate::protocol::faults::FaultRule::new(FaultAction::Delay { ms: 5 })]));
        t.send(&AgentName::lead(), &alice, "message", "held", Millis(1)).unwrap();
        t.set_faults(FaultPlan::default());
        let plan = t.submit_plan(&alice, "p", Millis(1)).unwrap();
        let held = t.held()[0].clone();
        let (state, len) = (t.state().clone(), t.trace().len());
        let ids: Vec<MessageId> = t.peek(&alice).unwrap().iter().map(|e| e.id).collect();
        let note = Message::new(MessageType::Message, alice.clone(), AgentName::lead(), "x", Millis(2));
        let events = vec![
            Event::MemberSpawned { name: name("carol"), role: "r".into(), plan_mode: false },
            Event::MemberStatusChanged { name: alice.clone(), from: MemberStatus::Working, to: MemberStatus::Idle },
            Event::MessageSent { message: note.clone() },
            Event::InboxDrained { agent: alice.clone(), message_ids: ids },
            Event::RequestTransitioned {
                request_id: plan.clone(),
                request_kind: RequestKind::PLAN,
                by: AgentName::lead(),
                from: RequestStatus::Pending,
                to: RequestStatus::Approved,
            },
            Event::RequestCreated {
                request_id: RequestId::parse("0badc0de").unwrap(),
                request_kind: RequestKind::SHUTDOWN,
                requester: AgentName::lead(),
                addressee: alice.clone(),
                plan: None,
                fields: Fields::new(),
            },
            Event::FaultApplied { action: FaultAction::Reorder, message: note, rule: None },
            Event::MessageReleased { held: held.seq },
            Event::MessageReleased { held: held.seq },
        ];
        assert_eq!(t.commit(Millis(3), events), Err(TeamError::Bus(BusError::NotHeld(held.seq))));
        assert_eq!((t.state(), t.trace().len()), (&state, len), "every applied event was undone");
        assert!(t.plan_gate_closed(&alice));
    }

    /// alice has a message held by a delay fault and a pending shutdown
    /// request; `events` (given the request and alice) are committed, then
    /// refused by a release of a message nobody holds. Returns the team
    /// after the refusal, and its state and trace length before the command.
    fn refused_after(events: impl FnOnce(&RequestId, &AgentName) -> Vec<Event>) -> (Team, TeamState, usize) {
        let mut t = Team::new("t", 1);
        let alice = name("alice");
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        t.set_faults(FaultPlan::new(vec![crate::protocol::faults::FaultRule::new(FaultAction::Delay { ms: 5 })]));
        t.send(&AgentName::lead(), &alice, "message", "held", Millis(1)).unwrap();
        t.set_faults(FaultPlan::default());
        let id = t.request_shutdown(&AgentName::lead(), &alice, Millis(1)).unwrap();
        let (state, len) = (t.state().clone(), t.trace().len());
        let mut events = events(&id, &alice);
        events.push(Event::MessageReleased { held: 99 });
        assert_eq!(t.commit(Millis(2), events), Err(TeamError::Bus(BusError::NotHeld(99))));
        (t, state, len)
    }

    #[test]
    fn a_refused_command_takes_back_a_shutdown_approval() {
        let (t, state, len) = refused_after(|id, alice| {
            vec![Event::RequestTransitioned {
                request_id: id.clone(),
                request_kind: RequestKind::SHUTDOWN,
                by: alice.clone(),
                from: RequestStatus::Pending,
                to: RequestStatus::Approved,
            }]
        });
        assert!(!t.is_exiting(&name("alice")), "alice is not exiting: her approval was taken back");
        assert_eq!((t.state(), t.trace().len()), (&state, len));
    }

    #[test]
    fn taking_back_a_drop_fault_leaves_the_held_messages_held() {
        let (t, state, len) = refused_after(|_, alice| {
            let lost = Message::new(MessageType::Message, alice.clone(), AgentName::lead(), "lost", Millis(2));
            vec![Event::FaultApplied { action: FaultAction::Drop, message: lost, rule: None }]
        });
        assert_eq!(t.held().len(), 1, "a drop held nothing, so its undo releases nothing");
        assert_eq!((t.state(), t.trace().len()), (&state, len));
    }
}
