//! What the page's first draw of a long loaded run costs natively: the
//! derived views of a 100,000-event trace (`RunViews::of`, what the page
//! builds when it shows a recorded run), and each of its parts alone: the
//! protocol timeline (`Timeline::extend`), the diagram `Layout`, and the
//! checker. The trace is the browser bench's (`busy_trace(100_000, 8, 7)`).
//!
//! Run with `cargo bench --bench view --features bench-fixtures`; add `--
//! --test` to run each once as a smoke test. Each iteration builds its
//! views from nothing; the trace is built once, untimed.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use team_protocols::protocol::checker::Checker;
use team_protocols::protocol::timeline::{Timeline, DEFAULT_KEYFRAME_EVERY};
use team_protocols::view::derived::RunViews;
use team_protocols::view::diagram::layout::Layout;
use team_protocols::view::synthetic::busy_trace;

fn first_draw(c: &mut Criterion) {
    let trace = busy_trace(100_000, 8, 7);
    let mut group = c.benchmark_group("first_draw_100k");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(2));
    group.throughput(Throughput::Elements(trace.len() as u64));
    group.bench_function("run_views_of", |b| b.iter(|| black_box(RunViews::of(&trace))));
    group.bench_function("timeline", |b| {
        b.iter(|| {
            let mut tl = Timeline::of_header(&trace, DEFAULT_KEYFRAME_EVERY);
            tl.extend(trace.entries()).expect("a synthetic trace replays");
            black_box(tl)
        })
    });
    group.bench_function("timeline_one_frame", |b| {
        b.iter(|| {
            let mut tl = Timeline::of_header(&trace, usize::MAX);
            tl.extend(trace.entries()).expect("a synthetic trace replays");
            black_box(tl)
        })
    });
    group.bench_function("layout", |b| b.iter(|| black_box(Layout::of(&trace))));
    group.bench_function("checker", |b| {
        b.iter(|| {
            let mut checker = Checker::with_protocols(trace.protocols().clone());
            for entry in trace.entries() {
                checker.observe(entry);
            }
            black_box(checker)
        })
    });
    group.finish();
}

criterion_group!(benches, first_draw);
criterion_main!(benches);
