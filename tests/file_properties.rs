//! A protocol file's `[[property]]` entries searched by the explorer on
//! the built-in scenarios (`protocol::file::monitor`,
//! `ExploreConfig::file_properties`): the verdicts of the example file
//! `lesson-properties.toml`, and each example replayed from its path to
//! the same finding.
#![cfg(not(target_arch = "wasm32"))]

use team_protocols::explore::{explore, replay_file_finding, ExploreConfig, Quantifier, Report, Verdict};
use team_protocols::protocol::file::{self, monitor::PropertySet};
use team_protocols::runtime::scenarios;

const EXAMPLE: &str = include_str!("../src/protocol/file/examples/lesson-properties.toml");

fn searched(scenario: &str, faults: usize) -> Report {
    let set = PropertySet::compile(&file::load(EXAMPLE).expect("the example loads")).expect("it compiles for today's engine");
    let config = ExploreConfig { max_faults: faults, threads: 1, file_properties: set, ..ExploreConfig::new(scenario) };
    explore(&config).unwrap()
}

fn verdicts(r: &Report) -> Vec<(&str, Verdict)> {
    r.file_properties.iter().map(|p| (p.name.as_str(), p.verdict)).collect()
}

/// Each example replays from its path to a finding of the same property,
/// at the same event, and its trace is the replayed run.
fn examples_replay(r: &Report) {
    let scenario = scenarios::explorable(&r.config.scenario).unwrap();
    for (i, p) in r.file_properties.iter().enumerate() {
        let Some(e) = &p.example else {
            assert!(p.verdict != Verdict::Fails || p.quantifier == Quantifier::Sometimes, "{}: a failure has its run", p.name);
            continue;
        };
        let config = ExploreConfig { max_faults: e.bound, ..r.config.clone() };
        let (trace, found) = replay_file_finding(scenario, &config, &e.path, i).unwrap();
        assert_eq!(found.as_ref(), Some(&e.finding), "{} on {}", p.name, r.config.scenario);
        assert_eq!(trace, e.trace, "{}", p.name);
    }
}

#[test]
fn every_shutdown_request_settles_unless_a_message_is_dropped_as_the_builtin_settle_property_shows() {
    let clean = searched("shutdown", 0);
    assert!(clean.complete);
    use Verdict::*;
    assert_eq!(
        verdicts(&clean),
        vec![
            ("every_shutdown_request_settles", Holds),
            ("shutdown_only_after_work", Fails),
            ("plan_approved_at_most_once", Holds),
            ("lead_never_writes", Holds),
            ("sometimes_a_plan_is_rejected", Fails),
            ("shutdown_messages_are_read", Holds),
        ]
    );
    examples_replay(&clean);
    let one = searched("shutdown", 1);
    let settles = &one.file_properties[0];
    assert_eq!(settles.verdict, Fails);
    let e = settles.example.as_ref().unwrap();
    assert_eq!(e.faults, 1);
    let builtin = one.property(team_protocols::explore::Property::RequestsSettle).unwrap();
    assert_eq!(builtin.verdict, Fails, "the built-in property fails on the same runs");
    assert_eq!(builtin.example.as_ref().map(|b| &b.path), Some(&e.path), "the same shortest run");
    examples_replay(&one);
}

#[test]
fn a_rejected_plan_is_witnessed_and_a_fault_lets_a_teammate_have_a_plan_approved_twice() {
    use Verdict::*;
    let clean = searched("reject-plan", 0);
    assert_eq!(verdicts(&clean).iter().filter(|(_, v)| *v != Holds).count(), 0, "{:?}", verdicts(&clean));
    let witness = clean.file_properties[4].example.as_ref().expect("a witness run");
    assert_eq!(witness.faults, 0);
    examples_replay(&clean);
    let one = searched("reject-plan", 1);
    assert_eq!(one.file_properties[2].verdict, Fails, "plan_approved_at_most_once: {:?}", verdicts(&one));
    assert_eq!(one.file_properties[2].example.as_ref().map(|e| e.faults), Some(1));
    examples_replay(&one);
}

#[test]
fn on_approve_plan_the_example_holds_without_faults() {
    let clean = searched("approve-plan", 0);
    assert!(clean.file_properties.iter().all(|p| p.verdict == Verdict::Holds), "{:?}", verdicts(&clean));
    examples_replay(&clean);
}

#[test]
fn without_file_properties_the_search_is_the_same() {
    let set = PropertySet::compile(&file::load(EXAMPLE).unwrap()).unwrap();
    let base = ExploreConfig { max_faults: 1, threads: 1, ..ExploreConfig::new("shutdown") };
    let plain = explore(&base).unwrap();
    assert!(plain.file_properties.is_empty());
    let with = explore(&ExploreConfig { file_properties: set, ..base }).unwrap();
    // The built-in verdicts do not change; the file's counters may split
    // states the built-in ones merge, so only more states, never fewer.
    let v = |r: &Report| r.properties.iter().map(|p| (p.property, p.verdict)).collect::<Vec<_>>();
    assert_eq!(v(&plain), v(&with));
    assert!(with.distinct_states >= plain.distinct_states);
}
