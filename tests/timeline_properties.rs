//! The keyframed timeline against replay from event 0: for any scenario,
//! seed, fault and keyframe spacing, the protocol state at every cursor
//! computed from the nearest keyframe equals `Team::replay` of the prefix.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use team_protocols::protocol::timeline::Timeline;
use team_protocols::protocol::*;
use team_protocols::runtime::scenarios;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn the_state_at_any_cursor_from_keyframes_equals_replay_from_zero(
        scenario in 0..scenarios::ALL.len(),
        seed in any::<u64>(),
        kind in 0u8..5,
        probability in 0.1f64..1.0,
        every in 1usize..64,
    ) {
        let (_, trace) = common::run_scenario(scenarios::ALL[scenario], seed, common::fault_plan(kind, probability));
        let mut timeline = Timeline::new(&trace.team_name, every);
        prop_assert!(timeline.extend(trace.entries()).is_ok());
        for cursor in 0..=trace.len() {
            let replayed = Team::replay(&trace.prefix(cursor)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&timeline.state_at(trace.entries(), Some(cursor)), replayed.state(), "cursor {} of {}", cursor, trace.len());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn the_spend_and_split_at_any_cursor_from_kept_folds_equal_the_fold_from_zero(
        scenario in 0..scenarios::ALL.len(),
        seed in any::<u64>(),
        kind in 0u8..5,
        probability in 0.1f64..1.0,
    ) {
        use team_protocols::view::cost::{protocol_split, spend_at};
        use team_protocols::view::derived::RunViews;
        let (_, trace) = common::run_scenario(scenarios::ALL[scenario], seed, common::fault_plan(kind, probability));
        let views = RunViews::of(&trace);
        for cursor in (0..=trace.len()).map(Some).chain([None]) {
            prop_assert_eq!(views.spend_at(trace.entries(), cursor), spend_at(&trace, cursor), "cursor {:?}", cursor);
            prop_assert_eq!(views.split_at(trace.entries(), cursor), protocol_split(&trace, cursor), "cursor {:?}", cursor);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Next applies one event and Back takes one back (`Timeline::walk`):
    /// stepping forward through the run, back to its start, then moving by
    /// small and large jumps, every state equals the replay of the prefix,
    /// for any scenario, seed, fault and keyframe spacing.
    #[test]
    fn stepping_forward_then_back_gives_the_state_replayed_from_zero(
        scenario in 0..scenarios::ALL.len(),
        seed in any::<u64>(),
        kind in 0u8..5,
        probability in 0.1f64..1.0,
        every in 1usize..64,
        moves in proptest::collection::vec(0usize..10_000, 0..40),
    ) {
        use team_protocols::protocol::timeline::Walker;
        let (_, trace) = common::run_scenario(scenarios::ALL[scenario], seed, common::fault_plan(kind, probability));
        let mut timeline = Timeline::new(&trace.team_name, every);
        prop_assert!(timeline.extend(trace.entries()).is_ok());
        let replayed: Vec<TeamState> = (0..=trace.len())
            .map(|c| Team::replay(&trace.prefix(c)).map(|t| t.state().clone()))
            .collect::<Result<_, _>>()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut walker = Walker::default();
        let path = (0..=trace.len()).chain((0..trace.len()).rev()).chain(moves.iter().map(|m| m % (trace.len() + 1)));
        for cursor in path {
            prop_assert_eq!(&timeline.walk(&mut walker, trace.entries(), Some(cursor)), &replayed[cursor], "cursor {} of {}", cursor, trace.len());
        }
        prop_assert_eq!(&timeline.walk(&mut walker, trace.entries(), None), &replayed[trace.len()]);
    }
}

/// Every scenario, plain and under each kind of fault: Next through the
/// whole run then Back to its start give the replayed state at each step.
#[test]
fn every_scenario_steps_forward_and_back_to_the_replayed_states() {
    use team_protocols::protocol::timeline::Walker;
    for scenario in scenarios::ALL {
        for kind in 0u8..5 {
            let (_, trace) = common::run_scenario(scenario, 7, common::fault_plan(kind, 0.5));
            let mut timeline = Timeline::new(&trace.team_name, 16);
            timeline.extend(trace.entries()).unwrap();
            let mut walker = Walker::default();
            for cursor in (0..=trace.len()).chain((0..trace.len()).rev()) {
                let replayed = Team::replay(&trace.prefix(cursor)).unwrap();
                assert_eq!(
                    &timeline.walk(&mut walker, trace.entries(), Some(cursor)),
                    replayed.state(),
                    "{} fault {kind} cursor {cursor}",
                    scenario.id
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// A live run (issue 28 §1): the page appends each batch of the
    /// runtime's new events to the run's views (`RunViews::extend`) and
    /// reads them at the tip, one walker step per event; after batches of
    /// any sizes, what the panels read there (the state, the request rows,
    /// the spend, the workspace, the findings, the messages table) equals
    /// the views of the same prefix built from scratch (`RunViews::of`).
    #[test]
    fn views_appended_in_batches_and_read_at_the_tip_equal_those_built_from_scratch(
        scenario in 0..scenarios::ALL.len(),
        seed in any::<u64>(),
        kind in 0u8..5,
        probability in 0.1f64..1.0,
        batches in proptest::collection::vec(1usize..40, 1..60),
    ) {
        use team_protocols::view::derived::RunViews;
        use team_protocols::view::lists;
        let (_, trace) = common::run_scenario(scenarios::ALL[scenario], seed, common::fault_plan(kind, probability));
        let mut live = Trace::new(&trace.team_name, trace.seed);
        live.rules = trace.rules;
        let mut views = RunViews::of(&live);
        let mut at = 0;
        for size in batches.iter().copied().cycle() {
            if at == trace.len() {
                break;
            }
            let batch = &trace.entries()[at..(at + size).min(trace.len())];
            views.extend(batch);
            for e in batch {
                live.append(e.time, e.event.clone()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            at += batch.len();
            let fresh = RunViews::of(&live);
            let entries = live.entries();
            let state = views.state_at(entries, None);
            prop_assert_eq!(&state, &fresh.state_at(entries, None), "state after {} events", at);
            if let Ok(st) = &state {
                prop_assert_eq!(
                    lists::request_rows(&st.tracker, views.creation_order(), None, "", lists::REQUEST_ROWS),
                    lists::request_rows(&st.tracker, fresh.creation_order(), None, "", lists::REQUEST_ROWS),
                    "request rows after {} events", at
                );
            }
            prop_assert_eq!(views.spend_at(entries, None), fresh.spend_at(entries, None), "spend after {} events", at);
            prop_assert_eq!(views.workspace_at(None), fresh.workspace_at(None));
            prop_assert_eq!(views.violations_at(None), fresh.violations_at(None));
            prop_assert_eq!(views.messages_at(entries, None, 40), fresh.messages_at(entries, None, 40));
        }
    }
}
