//! The team-N benchmark files' searches finish: with the default decisions
//! off the script (a plan or a shutdown answered the other way, work begun
//! without a plan) no agent keeps taking turns until the depth bound, so
//! every built-in property gets a verdict. (Before the lesson's plan
//! approval opened a file teammate's `plan` gate, a teammate whose plan was
//! approved was refused its file on every turn, fifty rounds a wake.)
#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;

use team_protocols::explore::file_team::team_config;
use team_protocols::explore::{explore, ExploreConfig, Property, Verdict};
use team_protocols::protocol::file::{self, builtin};

/// The search of built-in team file `id` with `faults` and the default
/// decisions off the script.
fn team(id: &str, faults: usize) -> ExploreConfig {
    let f = file::load(builtin::team(id).expect("a built-in team file")).expect("it loads");
    ExploreConfig { max_faults: faults, ..team_config(Arc::new(f)).expect("it has a team") }
}

#[test]
fn team_1_with_the_default_decisions_completes_with_every_verdict() {
    for faults in [0, 1] {
        let config = team("team-1", faults);
        let report = explore(&config).unwrap();
        assert!(report.complete, "team-1, {faults} fault(s): stopped by {:?} at depth {}", report.stopped_by, report.depth);
        assert!(report.depth < config.max_depth / 4, "team-1, {faults} fault(s): runs end well before the bound: {}", report.depth);
        let unknown: Vec<_> = report.properties.iter().filter(|p| p.verdict == Verdict::Unknown).map(|p| p.property).collect();
        assert!(unknown.is_empty(), "team-1, {faults} fault(s): no verdict for {unknown:?}");
    }
}

#[test]
fn a_teammate_whose_plan_is_approved_is_not_refused_its_file_turn_after_turn() {
    // Any run of team-1 on the script: once c1's plan is approved, c1's
    // file is never refused (its `plan` gate, closed at spawn, opens).
    let config = ExploreConfig { max_decisions: 0, ..team("team-1", 0) };
    let report = explore(&config).unwrap();
    assert!(report.complete);
    assert!(report.depth <= 12, "a lead and one teammate on the script take a dozen choices at most, not {}", report.depth);
    assert!(report.outcomes.keys().all(|o| o.contains("1 plan approved")), "{:?}", report.outcomes);
    // The checker opens the gate as the team does: the write after the
    // approval is no gated tool used while closed.
    let gated = report.property(Property::NoGatedToolWhileClosed).expect("a built-in property");
    assert_eq!(gated.verdict, Verdict::Holds, "{:?}", gated.example.as_ref().map(|e| &e.finding));
}
