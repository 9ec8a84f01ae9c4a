//! Partial-order reduction (sleep sets, `ExploreConfig::reduction`) keeps
//! every verdict: on every built-in scenario with 0 and 1 fault, on the
//! team-N benchmark files small enough for a debug build, and on random
//! small protocol files (a property test), the reduced search gives each
//! property (built-in and the file's own) the verdict the full search
//! gives, runs no more transitions but reaches exactly as many distinct
//! states, each counterexample (or witness) it reports replays from its
//! path to its property's finding, and none is shorter than the full
//! search's (stderr names those that are longer).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::Arc;

use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use team_protocols::explore::file_team::team_config;
use team_protocols::explore::{explore, replay_file_finding, replay_finding, ExploreConfig, Report, Verdict};
use team_protocols::protocol::file::{self, builtin, monitor::PropertySet};
use team_protocols::protocol::FaultAction;
use team_protocols::runtime::scenarios;

/// The verdicts of a report: the built-in properties', then the file's.
fn verdicts(r: &Report) -> Vec<(String, Verdict)> {
    let built_in = r.properties.iter().map(|p| (p.property.name().to_string(), p.verdict));
    built_in.chain(r.file_properties.iter().map(|p| (p.name.clone(), p.verdict))).collect()
}

/// Explores `config` with and without the reduction; checks the verdicts
/// agree, the reduced search ran no more transitions, and its examples
/// replay. Returns (full, reduced).
fn both(config: &ExploreConfig, what: &str) -> Result<(Report, Report), String> {
    let full = explore(&ExploreConfig { reduction: false, ..config.clone() }).map_err(|e| format!("{what}: {e}"))?;
    let reduced = explore(&ExploreConfig { reduction: true, ..config.clone() }).map_err(|e| format!("{what}: {e}"))?;
    if !full.complete || !reduced.complete {
        return Err(format!("{what}: a search was cut short ({:?} / {:?})", full.stopped_by, reduced.stopped_by));
    }
    if !reduced.config.reduction || full.config.reduction {
        return Err(format!("{what}: the reports name the wrong mode"));
    }
    if verdicts(&full) != verdicts(&reduced) {
        return Err(format!("{what}: verdicts differ\nfull:    {:?}\nreduced: {:?}", verdicts(&full), verdicts(&reduced)));
    }
    if reduced.states > full.states {
        return Err(format!("{what}: the reduction explored more ({} > {})", reduced.states, full.states));
    }
    // Sleep sets prune transitions, never states (a state the reduced
    // search never reached would be a run it never judged).
    if reduced.distinct_states != full.distinct_states {
        return Err(format!("{what}: distinct states differ: {} reduced vs {} full", reduced.distinct_states, full.distinct_states));
    }
    replays(&reduced, what)?;
    no_shorter(&full, &reduced, what)?;
    Ok((full, reduced))
}

/// Each example of the reduced search uses no fewer faults than the full
/// search's and, with as many, is no shorter: both searches are complete
/// and breadth first, and the full one explores every order, so its
/// example is the shortest run with the fewest faults; the reduced one's
/// is the shortest among the orders it explores. Where it is longer, says
/// so on stderr (`--nocapture`: the README's list of longer examples).
fn no_shorter(full: &Report, reduced: &Report, what: &str) -> Result<(), String> {
    let built_in = |r: &Report| -> Vec<(String, Option<(usize, usize)>)> {
        let examples = r.properties.iter().map(|p| (p.property.name().to_string(), p.example.as_ref().map(|e| (e.faults, e.path.len()))));
        examples.chain(r.file_properties.iter().map(|p| (p.name.clone(), p.example.as_ref().map(|e| (e.faults, e.path.len()))))).collect()
    };
    for ((name, f), (_, r)) in built_in(full).into_iter().zip(built_in(reduced)) {
        let (Some(f), Some(r)) = (f, r) else { continue };
        if r < f {
            return Err(format!("{what}: {name}'s reduced example {r:?} (faults, length) beats the full search's {f:?}"));
        }
        if r > f {
            eprintln!("{what}: {name}: the reduced example is longer: (faults, length) {r:?} vs {f:?}");
        }
    }
    Ok(())
}

/// Every example of `report` replays from its path to its finding.
fn replays(report: &Report, what: &str) -> Result<(), String> {
    // Under a file's team the scenario is not read.
    let scenario = scenarios::explorable(&report.config.scenario).or_else(|| scenarios::explorable("shutdown")).expect("a scenario");
    for p in &report.properties {
        let Some(e) = &p.example else { continue };
        let config = ExploreConfig { max_faults: e.bound, ..report.config.clone() };
        let (_, finding) = replay_finding(scenario, &config, &e.path, p.property).map_err(|err| format!("{what}: {err}"))?;
        if finding.as_ref() != Some(&e.finding) {
            return Err(format!("{what}: {}'s example does not replay to its finding", p.property.name()));
        }
    }
    for (i, p) in report.file_properties.iter().enumerate() {
        let Some(e) = &p.example else { continue };
        let config = ExploreConfig { max_faults: e.bound, ..report.config.clone() };
        let (_, finding) = replay_file_finding(scenario, &config, &e.path, i).map_err(|err| format!("{what}: {err}"))?;
        if finding.as_ref() != Some(&e.finding) {
            return Err(format!("{what}: file property {}'s example does not replay to its finding", p.name));
        }
    }
    Ok(())
}

fn team(id: &str, faults: usize, decisions: usize) -> ExploreConfig {
    let f = file::load(builtin::team(id).expect("a built-in team file")).expect("it loads");
    ExploreConfig { max_faults: faults, max_decisions: decisions, ..team_config(Arc::new(f)).expect("it has a team") }
}

#[test]
fn the_reduction_keeps_every_verdict_of_every_built_in_scenario_with_0_and_1_fault() {
    let mut saved = 0;
    let mut ids: Vec<&str> = scenarios::ALL.iter().chain(&[scenarios::TWINS, scenarios::RESPAWN]).map(|s| s.id).collect();
    ids.dedup();
    // `scale` (fifty teammates) is the runtime's benchmark, not a search.
    for id in ids.into_iter().filter(|id| *id != "scale" && scenarios::explorable(id).is_some()) {
        for faults in [0, 1] {
            let mut config = ExploreConfig { max_faults: faults, threads: 1, ..ExploreConfig::new(id) };
            if faults > 0 && matches!(id, "out-of-order" | "twins") {
                // Two teammates: every fault kind takes minutes in a debug
                // build; a drop and a duplicate keep it to seconds (the
                // release measurements in the README take all four).
                config.fault_kinds = vec![FaultAction::Drop, FaultAction::Duplicate];
            }
            let (full, reduced) = both(&config, &format!("{id} with {faults} fault(s)")).unwrap();
            saved += full.states - reduced.states;
        }
    }
    assert!(saved > 0, "the reduction ran fewer transitions somewhere");
}

#[test]
fn the_reduction_keeps_every_verdict_of_the_small_team_n_files() {
    // team-2 with decisions off the script, with 1 fault, and team-3 take
    // minutes in a debug build: the README gives their release rows
    // (`explore --compare-reduction`).
    for (id, faults, decisions) in [("team-1", 0, 2), ("team-1", 1, 2), ("team-2", 0, 0)] {
        let (full, reduced) = both(&team(id, faults, decisions), &format!("{id}, {faults} fault(s), {decisions} decision(s)")).unwrap();
        assert!(reduced.states < full.states, "{id}: {} < {}", reduced.states, full.states);
    }
}

#[test]
fn the_reduction_keeps_every_verdict_of_random_small_protocol_files() {
    let cases = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(12);
    let seed = std::env::var("FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let mut runner = TestRunner::new(Config {
        cases,
        max_shrink_iters: 100,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    });
    let compared = std::cell::Cell::new(0);
    let result = runner.run(&common::protocol_gen::protocol_file_text(), |text| {
        let f = file::load(&text).map_err(|e| TestCaseError::fail(format!("a valid file was refused:\n{}", e.render("generated"))))?;
        let mut config = ExploreConfig::new("generated");
        config.threads = 1;
        config.max_states = 1_500;
        config.max_depth = 60;
        config.rules = f.team.as_ref().map(|t| t.rules.rules).unwrap_or_default();
        config.file_properties = PropertySet::compile(&f).unwrap_or_default();
        config.team = Some(Arc::new(f));
        let full = explore(&config).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if !full.complete {
            // Too large to compare within the test's bounds.
            return Ok(());
        }
        both(&config, "a generated file").map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        compared.set(compared.get() + 1);
        Ok(())
    });
    result.unwrap();
    assert!(compared.get() > cases as usize / 4, "too few files compared: {}", compared.get());
}
