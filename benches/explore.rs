//! The model checker's speed: states per second exploring each scenario
//! exhaustively with 0 and 1 faults, on one thread and on every core; and
//! the team-N benchmark family's smallest rows (`team-1` with 0 and 1
//! fault and the default decisions off the script: a lead and one teammate
//! in plan mode, a built-in team file); and out-of-order and team-1 with 1
//! fault under partial-order reduction (sleep sets, one thread), beside
//! their full searches (each with its reduction factor, states with /
//! without), and team-2 on the script under it.
//!
//! Run with `cargo bench --bench explore`; `-- --test` runs each once as a
//! smoke test. `Throughput::Elements(states)` turns the time of one full
//! exploration into states (transitions) per second. Before each row it
//! prints the row's report: states, distinct states, depth, seconds of the
//! counting run and its states per second, peak memory as the search counts it (visited set and
//! frontier, `Bound::Memory`) and the verdicts. With the command line's
//! allocator (mimalloc). Larger team-N rows take minutes: measure them with
//! `explore --scenario team-N --json` (README, "The explorer's speed").

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use team_protocols::explore::file_team::team_config;
use team_protocols::explore::{explore, ExploreConfig, Verdict};
use team_protocols::protocol::file::{self, builtin};

/// As the command line runs it (`src/bin/explore/main.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The search of built-in team file `id` with `faults`.
fn team(id: &str, faults: usize) -> ExploreConfig {
    let f = file::load(builtin::team(id).expect("a built-in team file")).expect("it loads");
    ExploreConfig { max_faults: faults, ..team_config(Arc::new(f)).expect("it has a team") }
}

/// One row: counts it once, untimed by criterion, prints its report, and
/// benchmarks it.
fn row(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, label: String, config: ExploreConfig) {
    let started = Instant::now();
    let report = explore(&config).expect("the scenario explores");
    let seconds = started.elapsed().as_secs_f64();
    let count = |v: Verdict| report.properties.iter().filter(|p| p.verdict == v).count();
    eprintln!(
        "{label}: {} states, {} distinct, depth {}, {seconds:.2} s, {:.0} states/s, peak memory {:.1} MiB counted, verdicts {} holds / {} fails / {} unknown{}",
        report.states,
        report.distinct_states,
        report.depth,
        report.states as f64 / seconds.max(1e-9),
        report.peak_memory as f64 / (1u64 << 20) as f64,
        count(Verdict::Holds),
        count(Verdict::Fails),
        count(Verdict::Unknown),
        report.stopped_by.map(|b| format!(" (stopped by the {} bound)", b.name())).unwrap_or_default()
    );
    group.throughput(Throughput::Elements(report.states));
    group.bench_with_input(BenchmarkId::from_parameter(label), &config, |b, config| b.iter(|| black_box(explore(config))));
}

/// Prints a reduced search's reduction factor: its states (transitions)
/// and distinct states over the full search's.
fn factor(label: &str, reduced: &ExploreConfig) {
    let with = explore(reduced).expect("the scenario explores");
    let without = explore(&ExploreConfig { reduction: false, ..reduced.clone() }).expect("the scenario explores");
    eprintln!(
        "{label}: reduction factor (states with / without) {:.3} ({} / {}), distinct {} / {}",
        with.states as f64 / without.states as f64,
        with.states,
        without.states,
        with.distinct_states,
        without.distinct_states
    );
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("explore");
    group.sampling_mode(SamplingMode::Flat).sample_size(10).measurement_time(Duration::from_secs(2));
    for (scenario, faults) in [("shutdown", 0), ("shutdown", 1), ("reject-then-accept", 1), ("out-of-order", 0), ("out-of-order", 1)] {
        for threads in [1, 0] {
            let config = ExploreConfig { max_faults: faults, threads, ..ExploreConfig::new(scenario) };
            let label = format!("{scenario}/faults={faults}/{}", if threads == 1 { "1 thread" } else { "all cores" });
            row(&mut group, label, config);
        }
    }
    for (id, faults) in [("team-1", 0), ("team-1", 1)] {
        row(&mut group, format!("{id}/faults={faults}/all cores"), team(id, faults));
    }
    let reduced = ExploreConfig { max_faults: 1, threads: 1, reduction: true, ..ExploreConfig::new("out-of-order") };
    factor("out-of-order/faults=1", &reduced);
    row(&mut group, "out-of-order/faults=1/sleep sets/1 thread".into(), reduced);
    let reduced = ExploreConfig { threads: 1, reduction: true, ..team("team-1", 1) };
    factor("team-1/faults=1", &reduced);
    row(&mut group, "team-1/faults=1/sleep sets/1 thread".into(), reduced);
    // team-2 with 0 faults on the script (no decisions off it): a row the
    // canonical hash of commuting moves brought to seconds.
    let reduced = ExploreConfig { threads: 1, reduction: true, max_decisions: 0, ..team("team-2", 0) };
    factor("team-2/faults=0/decisions=0", &reduced);
    row(&mut group, "team-2/faults=0/decisions=0/sleep sets/1 thread".into(), reduced);
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
