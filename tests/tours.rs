//! The guided tours against real runs: every stop of every tour is found in
//! the default-seed run of its scenario (the scripted model on the native
//! host, through the shared harness), in the order the tour tells them, and
//! each lands on the event it talks about. Also the lesson's opening
//! contrast that the "Without protocols" tour walks through: a plain
//! "please stop" gets nothing the lead can match, the handshake does.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use team_protocols::protocol::{
    check, Event, FaultAction, FaultPlan, FaultRule, MemberStatus, MessageType, RequestKind, RequestStatus, Trace,
};
use team_protocols::runtime::scenarios;
use team_protocols::view::i18n::Catalog;
use team_protocols::view::tours::{self, ResolvedStop, TOURS};

fn stops_of(id: &str) -> (Trace, Vec<ResolvedStop>) {
    let tour = tours::by_id(id).expect("a tour with this id");
    let trace = common::scenario_trace(tour.scenario);
    let stops = tours::resolve(Catalog::en(), tour, trace.entries());
    (trace, stops)
}

fn event_at<'a>(trace: &'a Trace, stop: &ResolvedStop) -> &'a Event {
    &trace.entries()[stop.cursor - 1].event
}

#[test]
fn every_stop_of_every_tour_resolves_in_the_default_seed_run_of_its_scenario_in_the_order_told() {
    for tour in &TOURS {
        let (trace, stops) = stops_of(tour.id);
        let found: Vec<usize> = stops.iter().map(|s| s.stop).collect();
        assert_eq!(found, (0..tour.stops.len()).collect::<Vec<_>>(), "{}: every stop, in the tour's order", tour.id);
        assert!(stops.windows(2).all(|w| w[0].seq < w[1].seq), "{}: each stop is a later event than the one before", tour.id);
        for s in &stops {
            assert!(s.cursor >= 1 && s.cursor <= trace.len(), "{}: {s:?}", tour.id);
            assert_eq!(trace.entries()[s.cursor - 1].seq, s.seq, "{}: the cursor shows the stop's own event", tour.id);
            let told = &tour.stops[s.stop];
            for (key, said) in [(told.title_key(), &s.title), (told.why_key(), &s.text)] {
                let vars = Catalog::en().variables(&key);
                assert!(!said.contains('{') && !said.contains('}'), "{}: every placeholder is filled: {said}", tour.id);
                assert!(!vars.iter().any(|v| v == "id") || s.id.is_some(), "{}: the run names the request: {said}", tour.id);
                assert!(!vars.iter().any(|v| v == "name") || s.name.is_some(), "{}: the run names the teammate: {said}", tour.id);
            }
        }
    }
}

#[test]
fn a_tour_of_a_run_with_a_dropped_answer_skips_what_never_happened_and_keeps_the_rest() {
    let tour = tours::by_id("shutdown").unwrap();
    let drop = FaultPlan::new(vec![FaultRule { msg_type: Some(MessageType::SHUTDOWN_RESPONSE), ..FaultRule::new(FaultAction::Drop) }]);
    let (_rt, trace) = common::run_scenario(tour.scenario, common::SEED, drop);
    let stops = tours::resolve(Catalog::en(), tour, trace.entries());
    let found: Vec<usize> = stops.iter().map(|s| s.stop).collect();
    // The answer never reaches the lead, so "Matched by request_id" (the
    // last stop) is missing; alice still approved and exited.
    assert_eq!(found, (0..tour.stops.len() - 1).collect::<Vec<_>>());
}

#[test]
fn the_stop_on_why_a_second_answer_is_refused_is_the_lead_asking_again_with_a_new_request_id() {
    let (trace, stops) = stops_of("reject-then-accept");
    let s = stops.iter().find(|s| s.title == "Why a second answer is refused").expect("the stop");
    let Event::RequestCreated { request_id, request_kind: RequestKind::SHUTDOWN, .. } = event_at(&trace, s) else {
        panic!("a new shutdown request: {:?}", event_at(&trace, s))
    };
    let rejected = trace.entries()[..s.cursor].iter().find_map(|e| match &e.event {
        Event::RequestTransitioned { request_id, to: RequestStatus::Rejected, .. } => Some(request_id.clone()),
        _ => None,
    });
    let rejected = rejected.expect("the first request was rejected before");
    assert_ne!(&rejected, request_id, "a new id, not the rejected one again");
    assert!(s.text.contains(request_id.as_str()), "{}", s.text);
}

#[test]
fn the_stop_on_finishing_the_turn_is_the_teammates_last_model_call_before_it_exits() {
    for id in ["shutdown", "reject-then-accept"] {
        let (trace, stops) = stops_of(id);
        let last_turn = stops.iter().find(|s| s.title == "The last turn").expect("the stop");
        let Event::ModelCalled { agent } = event_at(&trace, last_turn) else { panic!("{id}: a model call") };
        let exit = trace
            .entries()
            .iter()
            .position(|e| matches!(&e.event, Event::MemberStatusChanged { name, to: MemberStatus::Shutdown, .. } if name == agent))
            .expect("it exits");
        assert!(last_turn.cursor - 1 < exit, "{id}: before the exit");
        let between = &trace.entries()[last_turn.cursor..exit];
        assert!(!between.iter().any(|e| matches!(&e.event, Event::ModelCalled { agent: a } if a == agent)), "{id}: its last call");
        assert!(
            between
                .iter()
                .any(|e| matches!(&e.event, Event::ToolReturned { agent: a, tool, .. } if a == agent && tool == "shutdown_response")),
            "{id}: the turn's answer completes before the exit"
        );
    }
}

#[test]
fn the_answer_out_of_order_answers_the_request_made_second_before_the_first_is_answered() {
    let (trace, stops) = stops_of("out-of-order");
    let s = stops.iter().find(|s| s.title == "An answer out of order").expect("the stop");
    let Event::MessageSent { message } = event_at(&trace, s) else { panic!("a message") };
    assert_eq!(message.msg_type, MessageType::SHUTDOWN_RESPONSE);
    let created: Vec<_> = trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::RequestCreated { request_id, .. } => Some(request_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(message.request_id.as_ref(), created.get(1), "the answer is to the second request");
    let first_answered = trace.entries()[..s.cursor]
        .iter()
        .any(|e| matches!(&e.event, Event::RequestTransitioned { request_id, .. } if Some(request_id) == created.first()));
    assert!(!first_answered, "the first request is still pending when it arrives");
}

#[test]
fn the_plan_gate_stops_land_on_the_plan_mode_spawn_and_the_first_write_after_approval() {
    for id in ["reject-plan", "approve-plan"] {
        let (trace, stops) = stops_of(id);
        assert!(matches!(event_at(&trace, &stops[0]), Event::MemberSpawned { plan_mode: true, .. }), "{id}");
        let write = stops.last().unwrap();
        assert!(matches!(event_at(&trace, write), Event::ToolReturned { tool, is_error: false, .. } if tool == "write_file"), "{id}");
        let approved = trace.entries()[..write.cursor]
            .iter()
            .any(|e| matches!(&e.event, Event::RequestTransitioned { request_kind: RequestKind::PLAN, to: RequestStatus::Approved, .. }));
        assert!(approved, "{id}: the write comes after an approval");
    }
}

#[test]
fn without_protocols_the_lead_gets_nothing_to_match_and_with_the_handshake_it_does() {
    let trace = common::scenario_trace(scenarios::WITHOUT_PROTOCOLS);
    assert_eq!(check(&trace), vec![], "a clean run");
    let entries = trace.entries();
    let plain = entries
        .iter()
        .position(|e| matches!(&e.event, Event::MessageSent { message } if message.msg_type == MessageType::Message))
        .expect("a plain message");
    let Event::MessageSent { message } = &entries[plain].event else { unreachable!() };
    assert!(message.from.is_lead() && message.to.as_str() == "alice" && message.request_id.is_none());
    assert!(message.content.to_lowercase().contains("please stop"), "{}", message.content);
    // Until the second prompt: no request, nothing sent to the lead, and
    // alice ends idle — in her loop, not shut down.
    let second = entries.iter().enumerate().filter(|(_, e)| matches!(e.event, Event::RunStarted { .. })).nth(1).map(|(i, _)| i).unwrap();
    let first_half = &entries[plain..second];
    assert!(!first_half.iter().any(|e| matches!(e.event, Event::RequestCreated { .. })));
    assert!(!first_half.iter().any(|e| matches!(&e.event, Event::MessageSent { message } if message.to.is_lead())), "nothing comes back");
    assert!(first_half.iter().any(|e| matches!(&e.event, Event::MemberStatusChanged { to: MemberStatus::Idle, .. })));
    assert!(!first_half.iter().any(|e| matches!(&e.event, Event::MemberStatusChanged { to: MemberStatus::Shutdown, .. })));
    // Then the handshake: the answer carries the request's id and alice exits.
    let second_half = &entries[second..];
    let id = second_half
        .iter()
        .find_map(|e| match &e.event {
            Event::RequestCreated { request_id, .. } => Some(request_id.clone()),
            _ => None,
        })
        .expect("a shutdown request");
    assert!(second_half.iter().any(|e| matches!(&e.event,
        Event::MessageSent { message } if message.msg_type == MessageType::SHUTDOWN_RESPONSE && message.request_id.as_ref() == Some(&id) && message.to.is_lead())));
    assert!(second_half.iter().any(|e| matches!(&e.event, Event::MemberStatusChanged { to: MemberStatus::Shutdown, .. })));
}

#[test]
fn every_stop_of_every_tour_is_told_in_every_language_with_nothing_left_over() {
    use team_protocols::view::i18n::Locale;
    for tour in &TOURS {
        let trace = common::scenario_trace(tour.scenario);
        let en = tours::resolve(Catalog::en(), tour, trace.entries());
        for l in Locale::ALL {
            let cat = Catalog::get(l);
            let told = tours::resolve(cat, tour, trace.entries());
            assert_eq!(told.len(), tour.stops.len(), "{} {}: every stop", l.tag(), tour.id);
            for (s, e) in told.iter().zip(&en) {
                for text in [&s.title, &s.text] {
                    assert!(
                        !text.contains('{') && !text.contains('}') && !text.contains('⟦') && !text.trim().is_empty(),
                        "{} {}: {text}",
                        l.tag(),
                        tour.id
                    );
                }
                if l != Locale::En {
                    assert_ne!(s.text, e.text, "{} {}: its own words", l.tag(), tour.id);
                }
            }
            for text in [tour.title(cat), tour.intro(cat)] {
                assert!(!text.contains('⟦') && !text.trim().is_empty(), "{} {}: {text}", l.tag(), tour.id);
            }
        }
    }
}

/// Next stop from every card, walked one event at a time as the page does:
/// the card at each cursor on the way, and where the walk ends.
fn walk_the_tour(stops: &[ResolvedStop], len: usize) -> (Vec<(usize, tours::Card)>, usize) {
    let mut shown = stops.first().map_or(0, |s| s.cursor);
    let mut seen = vec![(shown, tours::card_at(stops, shown, len))];
    while let Some(target) = tours::next_target(stops, tours::card_at(stops, shown, len), len) {
        assert!(target > shown, "Next stop goes forward: {target} after {shown}");
        while shown < target {
            shown += 1;
            seen.push((shown, tours::card_at(stops, shown, len)));
        }
    }
    (seen, shown)
}

#[test]
fn the_tour_card_follows_the_cursor_and_never_tells_a_stop_before_the_diagram_reaches_it() {
    for tour in &TOURS {
        let (trace, stops) = stops_of(tour.id);
        let (seen, _) = walk_the_tour(&stops, trace.len());
        for (shown, card) in seen {
            if let tours::Card::Stop(i) = card {
                assert!(stops[i].cursor <= shown, "{}: stop {i} (at {}) told at cursor {shown}", tour.id, stops[i].cursor);
                assert!(stops.get(i + 1).is_none_or(|next| next.cursor > shown), "{}: a later stop is reached at {shown}", tour.id);
            }
        }
    }
}

#[test]
fn every_tour_walks_to_the_last_event_of_its_run_and_ends_there() {
    for tour in &TOURS {
        let (trace, stops) = stops_of(tour.id);
        let len = trace.len();
        let (seen, end) = walk_the_tour(&stops, len);
        assert_eq!(end, len, "{}: the last Next stop reaches step {len}, not {end}", tour.id);
        let last = seen.last().map(|(_, card)| *card);
        let expected = if stops.last().is_some_and(|s| s.cursor < len) { tours::Card::End } else { tours::Card::Stop(stops.len() - 1) };
        assert_eq!(last, Some(expected), "{}", tour.id);
        // Every stop was shown on the way, in order.
        let told: Vec<usize> = seen.iter().filter_map(|(_, c)| if let tours::Card::Stop(i) = c { Some(*i) } else { None }).collect();
        let mut distinct = told.clone();
        distinct.dedup();
        assert_eq!(distinct, (0..stops.len()).collect::<Vec<_>>(), "{}", tour.id);
    }
}

#[test]
fn previous_stop_from_the_end_or_between_stops_goes_back_to_the_stop_the_card_shows() {
    let (trace, stops) = stops_of(scenarios::SHUTDOWN.id);
    let len = trace.len();
    assert!(stops.last().is_some_and(|s| s.cursor < len), "the shutdown run goes on past its last stop");
    let last = stops.len() - 1;
    assert_eq!(tours::previous_target(&stops, tours::Card::End, len), Some(stops[last].cursor));
    let gap = stops.windows(2).position(|w| w[0].cursor + 1 < w[1].cursor).expect("two stops with events between");
    let between = stops[gap].cursor + 1;
    let card = tours::card_at(&stops, between, len);
    assert_eq!(card, tours::Card::Stop(gap));
    assert_eq!(tours::previous_target(&stops, card, between), Some(stops[gap].cursor));
    assert_eq!(tours::previous_target(&stops, tours::Card::Stop(1), stops[1].cursor), Some(stops[0].cursor));
    assert_eq!(tours::previous_target(&stops, tours::Card::Stop(0), stops[0].cursor), None);
    assert_eq!(tours::card_at(&stops, stops[0].cursor - 1, len), tours::Card::Intro);
}
