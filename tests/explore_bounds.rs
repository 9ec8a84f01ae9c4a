//! The explorer's bounds say so: a search cut short by its memory, state or
//! depth bound reports which bound stopped it and what it covered, and the
//! memory it counts is its own structures' (the same on one thread or many),
//! so a bound falls at the same place on any machine.
#![cfg(not(target_arch = "wasm32"))]

use team_protocols::explore::{explore, Bound, ExploreConfig, Verdict};
use team_protocols::protocol::FaultAction;

fn config(scenario: &str, threads: usize) -> ExploreConfig {
    ExploreConfig { max_faults: 1, fault_kinds: vec![FaultAction::Drop, FaultAction::Duplicate], threads, ..ExploreConfig::new(scenario) }
}

#[test]
fn a_tiny_memory_bound_stops_the_search_and_the_report_says_so() {
    let whole = explore(&config("out-of-order", 1)).unwrap();
    assert!(whole.complete && whole.stopped_by.is_none(), "unbounded, it finishes");
    let most = whole.peak_memory / 4;
    let cut = explore(&ExploreConfig { max_memory: Some(most), ..config("out-of-order", 1) }).unwrap();
    assert!(!cut.complete);
    assert_eq!(cut.stopped_by, Some(Bound::Memory));
    assert!(cut.distinct_states > 0 && cut.distinct_states < whole.distinct_states, "it covered a part");
    assert!(cut.peak_memory > most, "it stopped on passing {most} bytes, at {}", cut.peak_memory);
    assert!(cut.peak_memory < whole.peak_memory);
    assert!(
        cut.properties.iter().all(|p| p.verdict != Verdict::Holds || p.example.is_some()),
        "no property holds for want of a counterexample in a search cut short"
    );
}

#[test]
fn a_memory_bound_the_search_stays_under_changes_nothing() {
    let whole = explore(&config("reject-plan", 1)).unwrap();
    let roomy = explore(&ExploreConfig { max_memory: Some(whole.peak_memory), ..config("reject-plan", 1) }).unwrap();
    assert_eq!(roomy.properties, whole.properties);
    assert_eq!((roomy.states, roomy.distinct_states, roomy.complete, roomy.stopped_by), (whole.states, whole.distinct_states, true, None));
}

#[test]
fn the_state_bound_stops_the_search_and_the_report_says_so() {
    let cut = explore(&ExploreConfig { max_states: 50, ..config("out-of-order", 1) }).unwrap();
    assert!(!cut.complete);
    assert_eq!(cut.stopped_by, Some(Bound::States));
    assert_eq!(cut.distinct_states, 50);
}

#[test]
fn the_depth_bound_stops_the_search_and_the_report_says_so() {
    let cut = explore(&ExploreConfig { max_depth: 3, ..config("shutdown", 1) }).unwrap();
    assert!(!cut.complete);
    assert_eq!(cut.stopped_by, Some(Bound::Depth));
    assert!(cut.depth <= 3);
}

#[test]
fn the_memory_counted_is_the_same_on_one_thread_or_many_so_a_bound_falls_alike() {
    for scenario in ["out-of-order", "reject-then-accept"] {
        let one = explore(&config(scenario, 1)).unwrap();
        let two = explore(&config(scenario, 2)).unwrap();
        assert_eq!(one.peak_memory, two.peak_memory, "{scenario}");
        let most = Some(one.peak_memory / 3);
        let a = explore(&ExploreConfig { max_memory: most, ..config(scenario, 1) }).unwrap();
        let b = explore(&ExploreConfig { max_memory: most, ..config(scenario, 2) }).unwrap();
        assert_eq!((a.states, a.distinct_states, a.stopped_by), (b.states, b.distinct_states, b.stopped_by), "{scenario}");
    }
}

#[test]
fn every_team_n_benchmark_file_loads_as_a_lead_and_n_teammates_in_plan_mode() {
    use team_protocols::protocol::file::{self, builtin};
    for n in 1..=5 {
        let id = format!("team-{n}");
        let f = file::load(builtin::team(&id).expect("built in")).unwrap();
        let team = f.team.as_ref().unwrap();
        assert_eq!(team.id, id);
        assert!(f.uses_lesson, "{id} is written on the lesson's protocols");
        assert_eq!(team.teammates.len(), n, "{id}");
        let plan = f.gates.iter().position(|g| g.name == "plan").expect("the lesson's plan gate");
        assert!(team.teammates.iter().all(|t| t.gates.iter().any(|g| usize::from(g.0) == plan)), "{id}: each starts in plan mode");
        assert_eq!(team.steps.len(), 3 * n, "{id}: a spawn, a plan answered and a shutdown asked per teammate");
    }
}
