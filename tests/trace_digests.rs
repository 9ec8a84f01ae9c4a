//! The traces the runtime writes, pinned: a digest of every scenario's trace
//! for many seeds and fault plans, recorded from the runtime before its agent
//! loops became sans-IO state machines (`runtime::world`). Any change to what
//! a run records, or in which order, shows here: the digests are an insta
//! snapshot (`tests/snapshots/trace_digests__trace_digests.snap`), so a change
//! fails the test and leaves a `.snap.new` to review (`cargo insta review`)
//! before it is accepted after a deliberate change.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::fmt::Write as _;

use team_protocols::protocol::{FaultAction, FaultPlan, FaultRule, MessageType};
use team_protocols::runtime::scenarios;

/// FNV-1a, 64 bits: a stable digest with no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn rule(action: FaultAction, msg_type: Option<MessageType>, probability: f64) -> FaultRule {
    FaultRule { action, msg_type, from: None, to: None, probability }
}

fn plans() -> Vec<(&'static str, FaultPlan)> {
    vec![
        ("none", FaultPlan::default()),
        ("drop-answers", FaultPlan::new(vec![rule(FaultAction::Drop, Some(MessageType::SHUTDOWN_RESPONSE), 0.5)])),
        ("duplicate", FaultPlan::new(vec![rule(FaultAction::Duplicate, None, 0.3)])),
        ("delay", FaultPlan::new(vec![rule(FaultAction::Delay { ms: 700 }, None, 0.4)])),
        ("reorder", FaultPlan::new(vec![rule(FaultAction::Reorder, None, 0.4)])),
    ]
}

fn digests() -> String {
    let mut out = String::new();
    for sc in scenarios::ALL {
        for (plan_name, plan) in plans() {
            for seed in 0..12u64 {
                let (_rt, trace) = common::run_scenario(sc, seed, plan.clone());
                let json = serde_json::to_string(&trace).expect("a trace serialises");
                writeln!(out, "{} {plan_name} {seed} {} {:016x}", sc.id, trace.entries().len(), fnv1a(json.as_bytes())).unwrap();
            }
        }
    }
    let (_rt, trace) = common::run_scenario(scenarios::SCALE, common::SEED, FaultPlan::default());
    let json = serde_json::to_string(&trace).expect("a trace serialises");
    writeln!(out, "scale none {} {} {:016x}", common::SEED, trace.entries().len(), fnv1a(json.as_bytes())).unwrap();
    out
}

#[test]
fn every_scenario_records_the_same_trace_as_before_for_every_seed_and_fault_plan() {
    insta::assert_snapshot!("trace_digests", digests());
}
