//! Forks: a run recovered as the explorer's path replays event for event; a
//! fork takes the other branch at its choice point and keeps to the
//! original everywhere else; a run the explorer cannot reproduce is refused
//! with where it parts.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use team_protocols::explore::fork::{fork, open_choices, recover_path};
use team_protocols::explore::{Choice, ExploreConfig, ExploreError};
use team_protocols::protocol::{Event, FaultAction, FaultPlan, FaultRule, RequestStatus, Trace};
use team_protocols::runtime::scenarios;

fn config(seed: u64) -> ExploreConfig {
    ExploreConfig { seed, max_faults: 1, ..ExploreConfig::new("") }
}

fn events(t: &Trace) -> Vec<&Event> {
    t.entries().iter().map(|e| &e.event).collect()
}

#[test]
fn a_live_scripted_run_is_recovered_as_a_path_that_replays_it_event_for_event() {
    for scenario in scenarios::ALL {
        for seed in [0, 3, 2026] {
            let (_rt, live) = common::run_scenario(scenario, seed, FaultPlan::default());
            let branch = recover_path(scenario, &config(seed), &live).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", scenario.id));
            assert_eq!(events(&branch.trace), events(&live), "{} seed {seed}", scenario.id);
        }
    }
}

#[test]
fn a_run_with_fault_rules_cannot_be_forked_and_the_error_says_where_it_parts() {
    let plan = FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]);
    let (_rt, live) = common::run_scenario(scenarios::SHUTDOWN, 1, plan);
    let err = recover_path(scenarios::SHUTDOWN, &config(1), &live).unwrap_err();
    let ExploreError::Unforkable { seq, .. } = err else { panic!("{err}") };
    let at = live.entries().iter().find(|e| e.seq == seq).expect("it names a recorded entry");
    assert!(matches!(at.event, Event::FaultApplied { rule: Some(_), .. }), "it parts at the fault rule's drop: {:?}", at.event);
    assert!(err.to_string().contains(&format!("#{seq}")), "{err}");
}

#[test]
fn a_fork_takes_the_other_branch_and_keeps_to_the_original_elsewhere() {
    let c = config(2026);
    let (_rt, live) = common::run_scenario(scenarios::REJECT_PLAN, 2026, FaultPlan::default());
    let original = recover_path(scenarios::REJECT_PLAN, &c, &live).unwrap();
    // The lead's review: the reply that rejects the plan, with its other answer open.
    let (at, other) = original
        .path
        .iter()
        .enumerate()
        .find_map(|(i, _)| {
            let open = open_choices(scenarios::REJECT_PLAN, &c, &original.path, i).unwrap();
            assert_eq!(open.first(), original.path.get(i), "the path's own choice comes first");
            open.into_iter().skip(1).find(|o| matches!(o, Choice::Reply { label, .. } if label.contains("approve"))).map(|o| (i, o))
        })
        .expect("the lead's review can approve instead");
    let forked = fork(scenarios::REJECT_PLAN, &c, &original.path, at, &other).unwrap();
    assert_eq!(forked.path[..at], original.path[..at], "the same choices up to the fork");
    assert_eq!(forked.path[at], other);
    let same = events(&forked.trace).into_iter().zip(events(&original.trace)).take_while(|(a, b)| a == b).count();
    assert!(same > 0 && same < original.trace.len(), "the runs share a prefix, then part");
    // The first plan: rejected in the original, approved in the fork.
    let first_plan = |t: &Trace| {
        t.entries().iter().find_map(|e| match &e.event {
            Event::RequestTransitioned { to, .. } => Some(*to),
            _ => None,
        })
    };
    assert_eq!((first_plan(&original.trace), first_plan(&forked.trace)), (Some(RequestStatus::Rejected), Some(RequestStatus::Approved)));
    // Forking with the original's own choice gives the original back.
    let same_run = fork(scenarios::REJECT_PLAN, &c, &original.path, at, &original.path[at]).unwrap();
    assert_eq!(events(&same_run.trace), events(&original.trace));
}

#[test]
fn a_files_team_run_is_recovered_and_forked_under_its_file() {
    use std::sync::Arc;
    use team_protocols::explore::file_team::{team_config, FILE_TEAM};
    use team_protocols::view::protocol_file::TEMPLATE;
    let file = Arc::new(team_protocols::protocol::file::load(TEMPLATE).unwrap());
    // The team's run as the page runs it: its own prompts, the scripted model.
    let (world, quiet) = common::file_team::run_file_team(Arc::clone(&file), 2026, 400).unwrap();
    assert!(quiet);
    let live = world.team().trace().clone();
    let c = ExploreConfig { seed: 2026, max_faults: 1, ..team_config(Arc::clone(&file)).unwrap() };
    let original = recover_path(FILE_TEAM, &c, &live).expect("an untouched run of the file's team is the explorer's path");
    assert_eq!(events(&original.trace), events(&live));
    // alice's review: the reply that approves, with a rejection open instead.
    let (at, other) = (0..original.path.len())
        .find_map(|i| {
            let open = open_choices(FILE_TEAM, &c, &original.path, i).unwrap();
            open.into_iter().skip(1).find(|o| matches!(o, Choice::Reply { label, .. } if label.contains("reject"))).map(|o| (i, o))
        })
        .expect("alice may reject the review instead");
    let forked = fork(FILE_TEAM, &c, &original.path, at, &other).unwrap();
    let settled = |t: &Trace| {
        t.entries().iter().find_map(|e| match &e.event {
            Event::RequestTransitioned { to, .. } => Some(*to),
            _ => None,
        })
    };
    assert_eq!((settled(&original.trace), settled(&forked.trace)), (Some(RequestStatus::Approved), Some(RequestStatus::Rejected)));
    // The branch ran under the file: its trace carries it, its arrows are the file's.
    assert_eq!(forked.trace.protocols().file().map(|f| f.text.as_ref()), Some(TEMPLATE));
    let types: Vec<String> = forked
        .trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::MessageSent { message } => Some(message.msg_type.to_string()),
            _ => None,
        })
        .collect();
    assert!(types.contains(&"review_request".to_string()) && types.contains(&"review_response".to_string()), "{types:?}");
}
