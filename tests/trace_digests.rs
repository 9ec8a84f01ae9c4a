//! The traces the runtime writes, pinned: a digest of every scenario's trace
//! for many seeds and fault plans, recorded from the runtime before its agent
//! loops became sans-IO state machines (`runtime::world`). Any change to what
//! a run records, or in which order, shows here. `BLESS=1 cargo test --test
//! trace_digests` rewrites the file after a deliberate change.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::fmt::Write as _;

use team_protocols::protocol::{FaultAction, FaultPlan, FaultRule, MessageType};
use team_protocols::runtime::scenarios;

const EXPECTED: &str = "tests/expected/trace_digests.txt";

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
        ("drop-answers", FaultPlan::new(vec![rule(FaultAction::Drop, Some(MessageType::ShutdownResponse), 0.5)])),
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
    let got = digests();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(EXPECTED, &got).expect("write the expected digests");
        return;
    }
    let want = std::fs::read_to_string(EXPECTED).expect("tests/expected/trace_digests.txt (BLESS=1 writes it)");
    let differ: Vec<String> =
        want.lines().zip(got.lines()).filter(|(w, g)| w != g).map(|(w, g)| format!("want {w}\n got {g}")).take(10).collect();
    assert!(differ.is_empty() && want.lines().count() == got.lines().count(), "traces changed:\n{}", differ.join("\n"));
}
