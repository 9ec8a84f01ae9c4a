//! End-to-end cost of the agent runtime: whole runs on the native host
//! (`LocalExecutor` + virtual time + `NoSleep`), Live mode, no pacing.
//!
//! Run with `cargo bench --bench runtime`; `cargo bench --bench runtime --
//! --test` runs every benchmark once as a smoke test.
//!
//! Every benchmark uses `iter_custom`, so each iteration is built, timed and
//! checked by hand:
//!
//! - untimed setup: a new executor, clock and `Runtime::new` (which spawns
//!   the lead task), then one `run_until_stalled` so the lead task is polled
//!   once and parks, waiting for a prompt;
//! - timed: every `submit_prompt` of the run, each followed by
//!   `run_until_stalled` (the team runs until nothing is left to do);
//! - untimed checks: the run ended by itself (`!is_running()` after every
//!   prompt), the trace has the expected length and passes
//!   `protocol::check`; then `stop` and one more `run_until_stalled` end the
//!   parked tasks (without it the lead task, which holds the runtime, and the
//!   executor, which holds the task, would keep each other alive), and the
//!   runtime is dropped — all outside the timed part.
//!
//! Runs are deterministic (fixed seed, virtual time, a deterministic
//! executor and model), so every iteration of a benchmark produces the same
//! trace; its length, measured once before the benchmark, is the
//! `Throughput::Elements` of the `scenario/*` benchmarks.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;
use std::rc::Rc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use serde::Deserialize;
use serde_json::{json, Value};
use team_protocols::model::scripted::ScriptedModel;
use team_protocols::model::sleep::NoSleep;
use team_protocols::model::{
    CancelToken, ContentBlock, LocalBoxFuture, Model, ModelError, ModelRequest, ModelResponse, Role, StopReason, TextSink, Usage,
};
use team_protocols::protocol::{check, Event, MemberStatus, RequestStatus, Trace};
use team_protocols::runtime::executor::LocalExecutor;
use team_protocols::runtime::scenarios::{self, Scenario};
use team_protocols::runtime::{Host, Runtime, RuntimeConfig};

/// One seed for every run (the runtime's default).
const SEED: u64 = 2026;

/// A runtime ready for its first prompt: built and with the lead parked.
fn fresh(model: Rc<dyn Model>) -> (Runtime, LocalExecutor) {
    let ex = LocalExecutor::new();
    let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
    let config = RuntimeConfig { seed: SEED, pace_ms: 0, ..RuntimeConfig::default() };
    let rt = Runtime::new(config, model, host);
    ex.run_until_stalled();
    assert!(!rt.is_running(), "no run before the first prompt");
    (rt, ex)
}

/// The timed part: every prompt, each run until the team is quiet. Returns
/// the time taken and whether every prompt's run ended by itself.
fn drive(rt: &Runtime, ex: &LocalExecutor, prompts: &[&str]) -> (Duration, bool) {
    let start = Instant::now();
    let mut ended = true;
    for p in prompts {
        rt.submit_prompt(p).expect("the runtime takes the prompt");
        ex.run_until_stalled();
        ended &= !rt.is_running();
    }
    (start.elapsed(), ended)
}

/// Ends the parked tasks so the runtime and its executor can be freed.
fn teardown(rt: Runtime, ex: LocalExecutor) {
    rt.stop();
    ex.run_until_stalled();
    assert_eq!(rt.live_tasks(), 0, "every task ends after stop");
    assert_eq!(ex.live_tasks(), 0, "the executor holds no task after stop");
}

/// Wraps a model to add up the time spent inside its calls (including the
/// streamed-text callbacks into the runtime, which are small). Used only in
/// the untimed first run of each benchmark, to log how much of a run is the
/// model's policy rather than the runtime.
struct Timed<M> {
    inner: M,
    spent: Rc<Cell<Duration>>,
}

impl<M: Model> Model for Timed<M> {
    fn label(&self) -> String {
        self.inner.label()
    }

    fn complete<'a>(
        &'a self,
        request: &'a ModelRequest,
        on_text: TextSink,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        let call = self.inner.complete(request, on_text, cancel);
        let spent = self.spent.clone();
        Box::pin(async move {
            let start = Instant::now();
            let result = call.await;
            spent.set(spent.get() + start.elapsed());
            result
        })
    }
}

/// The model for a run: bare for the measured runs, wrapped in `Timed` for
/// the logged first run.
fn model_for<M: Model + 'static>(model: M, spent: Option<&Rc<Cell<Duration>>>) -> Rc<dyn Model> {
    match spent {
        Some(spent) => Rc::new(Timed { inner: model, spent: spent.clone() }),
        None => Rc::new(model),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

// ------------------------------------------------------------- scenarios

/// One scenario run with the scripted model (wrapped in `Timed` when `spent`
/// is given); returns the timed duration and the trace length, after
/// checking the run.
fn scenario_once(s: &Scenario, spent: Option<&Rc<Cell<Duration>>>) -> (Duration, usize) {
    let (rt, ex) = fresh(model_for(ScriptedModel, spent));
    let (took, ended) = drive(&rt, &ex, s.prompts);
    assert!(ended, "{}: every run ends by itself", s.id);
    assert!(!rt.is_running(), "{}: the run ends by itself", s.id);
    let trace = rt.trace();
    let violations = check(&trace);
    assert!(violations.is_empty(), "{}: {violations:?}", s.id);
    let len = trace.len();
    teardown(rt, ex);
    (took, len)
}

/// `scenario/<id>`: one of the six ready-made scenarios, start to quiet.
///
/// Timed: `submit_prompt` and `run_until_stalled` for each prompt — the
/// lead's and teammates' loops, the scheduler, the scripted model's policy
/// (which reads the whole conversation on every call, and serialises the
/// request to estimate tokens), the tools, the team commands and the trace.
/// Not timed: `Runtime::new` and the lead's first poll; the checks; `stop`;
/// freeing the runtime.
fn scenarios_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("scenario");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for s in scenarios::ALL {
        let spent = Rc::new(Cell::new(Duration::ZERO));
        let (took, events) = scenario_once(&s, Some(&spent));
        eprintln!(
            "scenario/{}: {events} trace events per run; first run {:.3} ms, {:.3} ms of it in the model",
            s.id,
            ms(took),
            ms(spent.get())
        );
        group.throughput(Throughput::Elements(events as u64));
        group.bench_function(s.id, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (took, len) = scenario_once(&s, None);
                    assert_eq!(len, events, "{}: the same seed gives the same trace", s.id);
                    total += took;
                }
                total
            });
        });
    }
    group.finish();
}

// ---------------------------------------------------------------- stress

/// Teammates the stress lead spawns.
const TEAMMATES: usize = 50;
/// Shutdown requests the lead sends each teammate; a teammate rejects all
/// but the last, which it approves.
const ROUNDS: usize = 20;

fn teammate_name(i: usize) -> String {
    format!("t{i:02}")
}

/// A model for the stress run. The lead spawns `TEAMMATES` teammates in one
/// reply, then sends one `shutdown_request` to each teammate per reply until
/// it has sent `ROUNDS` such replies, then ends its turn (also on every later
/// wake-up). A teammate answers every `shutdown_request` it has heard and not
/// answered yet: it rejects ("busy") all but the `ROUNDS`-th request it
/// receives, which it approves.
///
/// Like any provider, it sees only the `ModelRequest`: it counts what it did
/// from its own `tool_use` blocks and what it heard from the user text.
#[derive(Debug, Default, Clone, Copy)]
struct StressModel;

impl Model for StressModel {
    fn label(&self) -> String {
        "stress (bench)".to_string()
    }

    fn complete<'a>(
        &'a self,
        request: &'a ModelRequest,
        on_text: TextSink,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(async move {
            if cancel.is_cancelled() {
                return Err(ModelError::Cancelled);
            }
            let turn = request.messages.iter().filter(|t| t.role == Role::Assistant).count();
            let (who, decision) = if request.system.starts_with("You are a team lead") {
                ("lead".to_string(), lead_policy(request))
            } else {
                let name = request.system.split('\'').nth(1).unwrap_or("teammate").to_string();
                let calls = teammate_policy(request);
                (name, calls)
            };
            Ok(reply(&who, turn, decision, &on_text))
        })
    }
}

/// Text to say, or tool calls to make.
enum Decision {
    Say(&'static str),
    Call(Vec<(&'static str, Value)>),
}

fn reply(who: &str, turn: usize, decision: Decision, on_text: &TextSink) -> ModelResponse {
    let (content, stop_reason) = match decision {
        Decision::Say(text) => {
            on_text(text);
            (vec![ContentBlock::text(text)], StopReason::EndTurn)
        }
        Decision::Call(calls) => {
            let blocks = calls
                .into_iter()
                .enumerate()
                .map(|(i, (name, input))| ContentBlock::ToolUse { id: format!("toolu_{who}_{turn}_{i}"), name: name.to_string(), input })
                .collect();
            (blocks, StopReason::ToolUse)
        }
    };
    let blocks = content.len() as u64;
    ModelResponse { content, stop_reason, usage: Usage::plain(100, 20 * blocks) }
}

fn tool_uses<'a>(request: &'a ModelRequest, tool: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    request.messages.iter().filter(|t| t.role == Role::Assistant).flat_map(|t| &t.content).filter_map(move |b| match b {
        ContentBlock::ToolUse { name, input, .. } if name == tool => Some(input),
        _ => None,
    })
}

fn user_texts(request: &ModelRequest) -> impl Iterator<Item = &str> {
    request.messages.iter().filter(|t| t.role == Role::User).flat_map(|t| &t.content).filter_map(|b| match b {
        ContentBlock::Text { text } => Some(text.as_str()),
        _ => None,
    })
}

/// The fields of a bus message the stress policies read (the rest of the
/// JSON is skipped, which is cheaper than building a `Value`).
#[derive(Deserialize)]
struct Heard {
    #[serde(rename = "type")]
    msg_type: String,
    #[serde(default)]
    from: String,
    #[serde(default)]
    request_id: Option<String>,
    #[serde(default)]
    approve: Option<bool>,
}

fn lead_policy(request: &ModelRequest) -> Decision {
    if tool_uses(request, "spawn_teammate").next().is_none() {
        let calls = (0..TEAMMATES)
            .map(|i| {
                let name = teammate_name(i);
                let prompt = format!("You are {name}. Keep working until the lead asks you to shut down.");
                ("spawn_teammate", json!({ "name": name, "role": "worker", "prompt": prompt }))
            })
            .collect();
        return Decision::Call(calls);
    }
    let rounds = request
        .messages
        .iter()
        .filter(|t| t.role == Role::Assistant)
        .filter(|t| t.content.iter().any(|b| matches!(b, ContentBlock::ToolUse { name, .. } if name == "shutdown_request")))
        .count();
    if rounds >= ROUNDS {
        return Decision::Say("Every teammate has been asked to shut down.");
    }
    // The last shutdown answer from each teammate, from the inbox deliveries
    // (`<inbox>[...]</inbox>`, oldest first): one that approved has left.
    let mut last_answer: BTreeMap<String, bool> = BTreeMap::new();
    for text in user_texts(request) {
        let Some(inbox) = text.trim().strip_prefix("<inbox>").and_then(|t| t.strip_suffix("</inbox>")) else { continue };
        let Ok(messages) = serde_json::from_str::<Vec<Heard>>(inbox) else { continue };
        for m in messages {
            if let ("shutdown_response", Some(approve)) = (m.msg_type.as_str(), m.approve) {
                last_answer.insert(m.from, approve);
            }
        }
    }
    let calls: Vec<_> = (0..TEAMMATES)
        .map(teammate_name)
        .filter(|n| last_answer.get(n) != Some(&true))
        .map(|n| ("shutdown_request", json!({ "teammate": n })))
        .collect();
    if calls.is_empty() {
        return Decision::Say("Every teammate has shut down.");
    }
    Decision::Call(calls)
}

fn teammate_policy(request: &ModelRequest) -> Decision {
    // Requests heard, in order: each message arrives as its own user text
    // block holding the message JSON.
    let received: Vec<String> = user_texts(request)
        .filter(|t| t.trim_start().starts_with('{'))
        .filter_map(|t| serde_json::from_str::<Heard>(t).ok())
        .filter(|m| m.msg_type == "shutdown_request")
        .filter_map(|m| m.request_id)
        .collect();
    let answered: BTreeSet<&str> = tool_uses(request, "shutdown_response").filter_map(|i| i["request_id"].as_str()).collect();
    let calls: Vec<_> = received
        .iter()
        .enumerate()
        .filter(|(_, id)| !answered.contains(id.as_str()))
        .map(|(k, id)| {
            let approve = k + 1 == ROUNDS;
            let reason = if approve { "done, shutting down" } else { "busy" };
            ("shutdown_response", json!({ "request_id": id, "approve": approve, "reason": reason }))
        })
        .collect();
    if calls.is_empty() {
        return Decision::Say("Working; nothing to answer.");
    }
    Decision::Call(calls)
}

/// Event counts by kind, and the lead's model calls, for the log.
fn describe(trace: &Trace) -> String {
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut lead_calls = 0;
    for e in trace.entries() {
        if let Event::ModelCalled { agent } = &e.event {
            lead_calls += usize::from(agent.is_lead());
        }
        let kind = e.event.kind();
        *kinds.entry(kind).or_default() += 1;
    }
    format!("{kinds:?}; lead model calls: {lead_calls}")
}

/// One stress run: the timed duration and the trace length, after checking
/// the run (and, with `spent`, logging what it did and the model's share).
fn stress_once(spent: Option<&Rc<Cell<Duration>>>) -> (Duration, usize) {
    let (rt, ex) = fresh(model_for(StressModel, spent));
    let prompt = format!("Spawn {TEAMMATES} workers, then ask each of them to shut down {ROUNDS} times.");
    let (took, ended) = drive(&rt, &ex, &[prompt.as_str()]);
    assert!(ended, "the stress run ends by itself");
    let requests = TEAMMATES * ROUNDS;
    rt.with_team(|t| {
        let tracker = t.tracker();
        assert_eq!(tracker.len(), requests, "every shutdown request was made");
        assert_eq!(tracker.pending().count(), 0, "every request is settled");
        let approved = tracker.iter().filter(|r| r.status == RequestStatus::Approved).count();
        assert_eq!(approved, TEAMMATES, "each teammate approves exactly once");
        let members: Vec<_> = t.roster().members.iter().filter(|m| !m.name.is_lead()).collect();
        assert_eq!(members.len(), TEAMMATES);
        assert!(members.iter().all(|m| m.status == MemberStatus::Shutdown), "every teammate shut down");
    });
    let trace = rt.trace();
    let violations = check(&trace);
    assert!(violations.is_empty(), "stress: {violations:?}");
    let refused = trace.entries().iter().filter(|e| matches!(e.event, Event::ToolReturned { is_error: true, .. })).count();
    assert_eq!(refused, 0, "no tool call is refused (no request to a teammate that has left)");
    if let Some(spent) = spent {
        eprintln!(
            "stress/{TEAMMATES}x{ROUNDS}: first run {:.1} ms, {:.1} ms of it in the model; {}",
            ms(took),
            ms(spent.get()),
            describe(&trace)
        );
    }
    let len = trace.len();
    black_box(trace);
    teardown(rt, ex);
    (took, len)
}

/// `stress/50x20`: 50 teammates, 20 shutdown requests each (1000 requests,
/// 950 rejected and 50 approved), in one run of one prompt.
///
/// Timed: the run, as for the scenarios, with `StressModel` (which parses
/// the lead's inbox deliveries while it still has rounds to send, and each
/// teammate's messages, on every call). Not timed: as for the scenarios,
/// plus the tracker, roster and checker checks.
fn stress_bench(c: &mut Criterion) {
    let (_, events) = stress_once(Some(&Rc::new(Cell::new(Duration::ZERO))));
    eprintln!("stress/{TEAMMATES}x{ROUNDS}: {events} trace events per run, {} requests", TEAMMATES * ROUNDS);
    let mut group = c.benchmark_group("stress");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements((TEAMMATES * ROUNDS) as u64));
    group.bench_function(format!("{TEAMMATES}x{ROUNDS}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (took, len) = stress_once(None);
                assert_eq!(len, events, "the same seed gives the same trace");
                total += took;
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, scenarios_bench, stress_bench);
criterion_main!(benches);
