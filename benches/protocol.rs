//! Throughput of the protocol core: the bus, the request tracker, the
//! full `Team` command path, and loading a protocol file.
//!
//! Run with `cargo bench --bench protocol`; `cargo bench --bench protocol --
//! --test` runs every benchmark once as a smoke test.
//!
//! Every benchmark is one iteration = N operations, with a fresh structure
//! built in the untimed setup of `iter_batched(.., PerIteration)`. What the
//! routine returns (the filled structure, drained messages) is dropped by
//! criterion outside the timed part, so freeing memory is not measured.
//! `Throughput::Elements(N)` turns the time per iteration into operations per
//! second.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use team_protocols::protocol::ids::SeededIds;
use team_protocols::protocol::{
    AgentName, Bus, Envelope, Incarnations, Message, MessageId, MessageType, Millis, RequestKind, Team, Tracker,
};

/// Teammates next to the lead: the bus has `TEAMMATES + 1` inboxes.
const TEAMMATES: usize = 8;

/// The bus is drained (every inbox) after this many sends, and once more at
/// the end.
const DRAIN_EVERY: usize = 64;

fn agents() -> Vec<AgentName> {
    std::iter::once(AgentName::lead())
        .chain((0..TEAMMATES).map(|i| AgentName::parse(&format!("teammate-{i}")).expect("valid name")))
        .collect()
}

/// Sampling for one size. `sample_size(10)` is criterion's minimum. Sizes
/// whose single iteration takes well over 100 ms (`heavy`) use flat sampling
/// with a 1 s target: criterion then runs the minimum of 10 timed iterations
/// after one warm-up iteration, and prints "Unable to complete 10 samples in
/// 1.0s", which is expected and harmless. Light sizes get 10 linear samples in
/// about 2 s. A full `cargo bench --bench protocol` run (after the build)
/// takes about 1.5 to 2.5 minutes on a 2-core machine, depending on load,
/// two thirds of it in `tracker/create_resolve/1000000` (11 runs of 5-8 s).
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, n: usize, heavy: bool) {
    group.sample_size(10);
    group.throughput(Throughput::Elements(n as u64));
    if heavy {
        group.sampling_mode(SamplingMode::Flat);
        group.warm_up_time(Duration::from_millis(1));
        group.measurement_time(Duration::from_secs(1));
    } else {
        group.sampling_mode(SamplingMode::Auto);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
    }
}

/// `bus/send_drain/N`: N plain messages over lead + 8 teammates. Message `i`
/// goes from agent `i % 9` to a different agent (rotating, never itself), so
/// every inbox receives and every agent sends. Every `DRAIN_EVERY` sends all
/// nine inboxes are drained, and all nine once more at the end.
///
/// Timed: `Bus::send` (validation, sender/recipient lookup, enqueue) and
/// `Bus::drain` (dequeue into a fresh `Vec`). Not timed: building the N
/// `Message`s (and their name/content strings) and the `MessageId`s, and
/// dropping the drained envelopes.
fn bus_send_drain(c: &mut Criterion) {
    let agents = agents();
    let k = agents.len();
    let mut group = c.benchmark_group("bus");
    for (n, heavy) in [(1_000usize, false), (100_000, false), (1_000_000, true)] {
        configure(&mut group, n, heavy);
        group.bench_with_input(BenchmarkId::new("send_drain", n), &n, |b, &n| {
            b.iter_batched(
                || {
                    let mut bus = Bus::new();
                    for a in &agents {
                        bus.register(a);
                    }
                    let messages: Vec<Message> = (0..n)
                        .map(|i| {
                            let from = i % k;
                            let to = (from + 1 + (i / k) % (k - 1)) % k;
                            Message::new(MessageType::Message, agents[from].clone(), agents[to].clone(), "status update", Millis(i as u64))
                        })
                        .collect();
                    // Room for every drain's result, so pushing them is not a
                    // reallocation inside the timed part.
                    let drained: Vec<Vec<Envelope>> = Vec::with_capacity((n / DRAIN_EVERY + 1) * k);
                    (bus, messages, drained)
                },
                |(mut bus, messages, mut drained)| {
                    for (i, message) in messages.into_iter().enumerate() {
                        bus.send(MessageId(i as u64), message).expect("known agents, plain message");
                        if (i + 1) % DRAIN_EVERY == 0 {
                            for a in &agents {
                                drained.push(bus.drain(a).expect("registered"));
                            }
                        }
                    }
                    for a in &agents {
                        drained.push(bus.drain(a).expect("registered"));
                    }
                    // Cheap next to the sends (one length per drain).
                    assert_eq!(drained.iter().map(Vec::len).sum::<usize>(), n);
                    assert_eq!(bus.pending_total(), 0);
                    (bus, drained)
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

/// `tracker/create_resolve/N`: N shutdown requests from the lead to the 8
/// teammates in turn, each with an id from `Tracker::fresh_id` over
/// `SeededIds` (8 hex chars = 32 bits: at 1M ids the birthday bound gives
/// about N^2 / 2^33 ~ 116 collisions, each retried; that is part of the cost),
/// created first; then all N answered in creation order by their addressee,
/// approve and reject alternating.
///
/// Timed: `fresh_id`, `create` (with the clones of the id and two names it
/// takes by value) and `answer`. Not timed: the empty tracker, the id source,
/// and the capacity of the id list.
fn tracker_create_resolve(c: &mut Criterion) {
    let agents = agents();
    let lead = agents[0].clone();
    let teammates = &agents[1..];
    let mut group = c.benchmark_group("tracker");
    for (n, heavy) in [(1_000usize, false), (100_000, true), (1_000_000, true)] {
        configure(&mut group, n, heavy);
        group.bench_with_input(BenchmarkId::new("create_resolve", n), &n, |b, &n| {
            b.iter_batched(
                || (Tracker::new(), SeededIds::new(0x5EED ^ n as u64), Vec::with_capacity(n)),
                |(mut tracker, mut ids, mut created)| {
                    for i in 0..n {
                        let id = tracker.fresh_id(&mut ids).expect("a free id within 64 tries");
                        let to = teammates[i % teammates.len()].clone();
                        tracker
                            .create(
                                id.clone(),
                                RequestKind::SHUTDOWN,
                                lead.clone(),
                                to,
                                Incarnations { requester: 1, addressee: 1 },
                                None,
                                Default::default(),
                                Millis(i as u64),
                            )
                            .expect("fresh id");
                        created.push(id);
                    }
                    for (i, id) in created.iter().enumerate() {
                        let by = &teammates[i % teammates.len()];
                        tracker
                            .answer(id, RequestKind::SHUTDOWN, by, i % 2 == 0, Millis((n + i) as u64))
                            .expect("pending, right addressee");
                    }
                    // Every answer above succeeded, so none is pending.
                    assert_eq!(tracker.len(), n);
                    (tracker, created)
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

/// `team/handshake/N`: N shutdown handshakes through `Team`: the lead's
/// `request_shutdown` to the 8 teammates in turn, then at once the
/// teammate's `answer` (approve and reject alternating; an approval does not
/// change the roster, so every teammate stays requestable). Each handshake
/// is two commands, appends 4 trace events and leaves one message in each
/// side's inbox (inboxes are not drained here: draining is a `Team` command
/// of its own).
///
/// Timed: everything the two commands do, including `Team::fresh_id`, the
/// validation, the state update and the trace append. Not timed: the new
/// team with its 8 spawned teammates.
///
/// `Team::commit` checks every event against the current state and then
/// applies it in place, so one handshake costs the same at any N (an earlier
/// version cloned the whole state per command and was quadratic).
fn team_handshake(c: &mut Criterion) {
    let agents = agents();
    let lead = agents[0].clone();
    let teammates = &agents[1..];
    let mut group = c.benchmark_group("team");
    for (n, heavy) in [(1_000usize, false), (100_000, true), (1_000_000, true)] {
        configure(&mut group, n, heavy);
        group.bench_with_input(BenchmarkId::new("handshake", n), &n, |b, &n| {
            b.iter_batched(
                || {
                    let mut team = Team::new("bench", 0x5EED);
                    for t in teammates {
                        team.spawn(t, "worker", false, Millis(0)).expect("new teammate");
                    }
                    team
                },
                |mut team| {
                    for i in 0..n {
                        let at = Millis(1 + 2 * i as u64);
                        let target = &teammates[i % teammates.len()];
                        let id = team.request_shutdown(&lead, target, at).expect("lead asks a live teammate");
                        let approve = i % 2 == 0;
                        team.answer(RequestKind::SHUTDOWN, &id, target, approve, "ok", Millis(at.0 + 1)).expect("addressee answers");
                    }
                    black_box(team.trace().len());
                    team
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

/// `protocol_file/load/NAME`: one load of a protocol file — read the TOML,
/// merge the lesson where it is used, validate, resolve names to indices —
/// for the lesson, each built-in team and each example (the refused
/// permission example is timed to its refusal). One iteration = one load.
/// Also `protocol_file/tools/lesson`: generating the lesson's tool set.
fn protocol_file_load(c: &mut Criterion) {
    use team_protocols::protocol::file::{builtin, load};
    let mut group = c.benchmark_group("protocol_file");
    configure(&mut group, 1, false);
    let files = std::iter::once(("lesson", builtin::LESSON)).chain(builtin::TEAMS).chain(builtin::EXAMPLES);
    for (name, text) in files {
        group.bench_with_input(BenchmarkId::new("load", name), text, |b, text| b.iter(|| black_box(load(black_box(text)).is_ok())));
    }
    // `protocol_file/tools/lesson`: the lesson's tool set generated from its
    // loaded file — both roles' schemas (fixed + protocol tools) and the
    // name tables. One iteration = one generation.
    if let Ok(lesson) = builtin::lesson() {
        let lesson = std::sync::Arc::new(lesson);
        group.bench_function(BenchmarkId::new("tools", "lesson"), |b| {
            b.iter(|| black_box(team_protocols::runtime::tools::ToolSet::new(std::sync::Arc::clone(black_box(&lesson)))))
        });
    }
    group.finish();
}

criterion_group!(benches, bus_send_drain, tracker_create_resolve, team_handshake, protocol_file_load);
criterion_main!(benches);
