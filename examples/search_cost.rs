//! Runs one scenario's search K times in one process, to measure the
//! search apart from the process's fixed costs (start-up, the command
//! line, writing the report): under cachegrind, the instructions of
//! K = 11 less those of K = 1, over 10, are one search's.
//!
//! `cargo run --release --example search_cost -- SCENARIO FAULTS K [MAX_STATES]`
//! explores as `explore --scenario SCENARIO --faults FAULTS --threads 1
//! [--max-states MAX_STATES]` does (breadth first, partial-order
//! reduction on; a built-in team file such as `team-3` as `explore` loads
//! it) and prints each search's states, distinct states and failing
//! properties, so the runs can be checked against the command line's.

/// The same allocator as the `explore` binary's, so the search costs the same.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;

use team_protocols::explore::file_team::team_config;
use team_protocols::explore::{explore, ExploreConfig, Verdict};
use team_protocols::protocol::file;
use team_protocols::runtime::scenarios;

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: search_cost SCENARIO FAULTS K [MAX_STATES]";
    let scenario = args.next().expect(usage);
    let faults: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let k: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let max_states: Option<usize> = args.next().map(|a| a.parse().expect(usage));
    let mut config = match file::builtin::team(&scenario).filter(|_| scenarios::explorable(&scenario).is_none()) {
        Some(text) => {
            let loaded = file::load(text).unwrap_or_else(|_| panic!("the built-in team file {scenario} loads"));
            let mut config = team_config(Arc::new(loaded)).expect("a built-in team file has a team");
            config.compile_team_properties().expect("the built-in team file's properties compile");
            config
        }
        None => ExploreConfig::new(&scenario),
    };
    config.max_faults = faults;
    config.threads = 1;
    config.reduction = true;
    if let Some(max) = max_states {
        config.max_states = max;
    }
    for _ in 0..k {
        let report = explore(&config).expect("the scenario explores");
        let failing: Vec<String> =
            report.properties.iter().filter(|p| p.verdict == Verdict::Fails).map(|p| p.property.name().to_string()).collect();
        println!("{} states, {} distinct, failing: {}", report.states, report.distinct_states, failing.join(","));
    }
}
