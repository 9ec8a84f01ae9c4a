//! The model checker's speed: states per second exploring each scenario
//! exhaustively with 0 and 1 faults, on one thread and on every core.
//!
//! Run with `cargo bench --bench explore`; `-- --test` runs each once as a
//! smoke test. `Throughput::Elements(states)` turns the time of one full
//! exploration into states (transitions) per second. With the command
//! line's allocator (mimalloc).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use team_protocols::explore::{explore, ExploreConfig};

/// As the command line runs it (`src/bin/explore.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("explore");
    group.sampling_mode(SamplingMode::Flat).sample_size(10).measurement_time(Duration::from_secs(2));
    for (scenario, faults) in [("shutdown", 0), ("shutdown", 1), ("reject-then-accept", 1), ("out-of-order", 0), ("out-of-order", 1)] {
        for threads in [1, 0] {
            let config = ExploreConfig { max_faults: faults, threads, ..ExploreConfig::new(scenario) };
            // The work is fixed: count it once, untimed.
            let states = explore(&config).expect("the scenario explores").states;
            group.throughput(Throughput::Elements(states));
            let label = format!("{scenario}/faults={faults}/{}", if threads == 1 { "1 thread" } else { "all cores" });
            group.bench_with_input(BenchmarkId::from_parameter(label), &config, |b, config| b.iter(|| black_box(explore(config))));
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
