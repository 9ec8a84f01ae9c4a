//! Rules of a paced Live run (`runtime::pace`, `World::set_paced`), each
//! test named after the rule it checks: the page is shown one event per
//! dwell, each dwell lasting the pace times the weight of the event on
//! screen (protocol events longest); an unpaced run shows everything at once
//! and never sleeps; pacing changes nothing the run records; Stop ends a
//! dwell at once; Live -> Step -> Live keeps the gate where it was; a speed
//! change starts the dwell over at the new pace; work by hand shows at once
//! up to its first event.
//!
//! The runtime runs on a `LocalExecutor` with a sleeper whose sleeps end
//! only when the test says so, so no test waits for real time.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use team_protocols::model::scripted::ScriptedModel;
use team_protocols::model::sleep::Sleeper;
use team_protocols::model::{CancelToken, LocalBoxFuture, Model, ModelError, ModelRequest, ModelResponse, TextSink};
use team_protocols::protocol::checker::check;
use team_protocols::protocol::{AgentName, Event, FaultPlan, RequestStatus, Trace};
use team_protocols::runtime::executor::LocalExecutor;
use team_protocols::runtime::pace::{self, BASE_PACE_MS, PROTOCOL, ROUTINE};
use team_protocols::runtime::scenarios::{self, Scenario};
use team_protocols::runtime::scheduler::Mode;
use team_protocols::runtime::{Host, Runtime, RuntimeConfig};

use common::SEED;

/// The pace the tests run at: milliseconds a unit of weight lasts.
const PACE: u64 = 100;

/// One sleep asked of the sleeper.
struct Slot {
    ms: u64,
    done: Cell<bool>,
    /// Dropped before it was done: the dwell was cut short.
    dropped: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

/// A sleep that ends when the test ends it (`Sleeps::finish`).
struct Sleep(Rc<Slot>);

impl Future for Sleep {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0.done.get() {
            return Poll::Ready(());
        }
        *self.0.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        if !self.0.done.get() {
            self.0.dropped.set(true);
        }
    }
}

/// A recording sleeper: every sleep asked, in order; each ends only when
/// the test ends it.
#[derive(Default)]
struct Sleeps {
    slots: RefCell<Vec<Rc<Slot>>>,
}

impl Sleeper for Sleeps {
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        let slot = Rc::new(Slot { ms, done: Cell::new(false), dropped: Cell::new(false), waker: RefCell::new(None) });
        self.slots.borrow_mut().push(slot.clone());
        Box::pin(Sleep(slot))
    }
}

impl Sleeps {
    /// The sleep under way, if any (the driver sleeps one at a time).
    fn pending(&self) -> Option<Rc<Slot>> {
        let slots = self.slots.borrow();
        let pending: Vec<_> = slots.iter().filter(|s| !s.done.get() && !s.dropped.get()).cloned().collect();
        assert!(pending.len() <= 1, "the driver sleeps one sleep at a time: {}", pending.len());
        pending.into_iter().next()
    }

    /// How many sleeps were asked.
    fn count(&self) -> usize {
        self.slots.borrow().len()
    }

    /// Ends the sleep under way.
    fn finish(&self, slot: &Slot) {
        slot.done.set(true);
        if let Some(w) = slot.waker.borrow_mut().take() {
            w.wake();
        }
    }
}

/// A runtime on the scripted model, paced at `pace_ms`, and its sleeper.
struct Paced {
    ex: LocalExecutor,
    rt: Runtime,
    sleeps: Rc<Sleeps>,
}

fn start(seed: u64, mode: Mode, pace_ms: u64) -> Paced {
    let ex = LocalExecutor::new();
    let sleeps = Rc::new(Sleeps::default());
    let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: sleeps.clone() };
    let rt = Runtime::new(RuntimeConfig { seed, mode, pace_ms, ..RuntimeConfig::default() }, Rc::new(ScriptedModel), host);
    Paced { ex, rt, sleeps }
}

impl Paced {
    fn prompt(&self, prompt: &str) {
        self.rt.submit_prompt(prompt).unwrap();
        self.ex.run_until_stalled();
    }

    /// What the page sees: the released events.
    fn seen(&self) -> Vec<Event> {
        self.rt.released_since(0).into_iter().map(|e| e.event).collect()
    }

    /// The event on screen: the last one released.
    fn on_screen(&self) -> Event {
        self.seen().pop().expect("an event is shown")
    }

    /// Ends the dwell under way and lets the driver run: returns the dwell's
    /// length.
    fn finish_dwell(&self) -> u64 {
        let slot = self.sleeps.pending().expect("a dwell is under way");
        self.sleeps.finish(&slot);
        self.ex.run_until_stalled();
        slot.ms
    }
}

/// One dwell of a paced run: how long, and on what event.
struct Dwelt {
    ms: u64,
    on: Event,
}

/// Runs `scenario` paced, ending one dwell at a time and checking that each
/// releases exactly one event, lasts the pace times the weight of the event
/// on screen, and that no turn is taken while an event is held; returns the
/// run and its dwells.
fn pace_through(scenario: Scenario, seed: u64) -> (Paced, Vec<Dwelt>) {
    let run = start(seed, Mode::Live, PACE);
    let mut dwells = Vec::new();
    for p in scenario.prompts {
        let before = run.rt.trace().len();
        run.prompt(p);
        assert_eq!(run.rt.released(), before + 1, "{}: the prompt shows at once, alone", scenario.id);
        while run.rt.is_running() {
            assert!(dwells.len() < 1000, "{}: the run ends", scenario.id);
            let (released, recorded, on) = (run.rt.released(), run.rt.trace().len(), run.on_screen());
            let ms = run.finish_dwell();
            assert_eq!(ms, pace::dwell_ms(PACE, &on), "{}: dwell {} lasts the pace times the weight of {on:?}", scenario.id, dwells.len());
            assert_eq!(run.rt.released(), released + 1, "{}: dwell {} releases exactly one event", scenario.id, dwells.len());
            if released + 1 < recorded {
                assert_eq!(run.rt.trace().len(), recorded, "{}: no turn is taken while an event is held", scenario.id);
            }
            dwells.push(Dwelt { ms, on });
        }
        assert_eq!(run.rt.released(), run.rt.trace().len(), "{}: every event is shown at the end", scenario.id);
        assert!(run.sleeps.pending().is_none(), "{}: nothing is slept once the run is over", scenario.id);
    }
    (run, dwells)
}

#[test]
fn in_a_paced_live_run_each_dwell_releases_exactly_one_event_and_lasts_its_weight() {
    for scenario in scenarios::ALL {
        let (run, dwells) = pace_through(scenario, SEED);
        let trace = run.rt.trace();
        // Every event but each prompt's RunStarted (shown when it is given)
        // comes out after a dwell of its own.
        assert_eq!(dwells.len(), trace.len() - scenario.prompts.len(), "{}: one dwell per event", scenario.id);
        assert_eq!(run.sleeps.count(), dwells.len(), "{}: no other sleep", scenario.id);
        assert_eq!(check(&trace), vec![], "{}", scenario.id);
    }
}

#[test]
fn pacing_changes_nothing_the_run_records() {
    for scenario in scenarios::ALL {
        for seed in [SEED, 1, 0xFEED_BEEF] {
            let (paced, _) = pace_through(scenario, seed);
            let (_, unpaced) = common::run_scenario(scenario, seed, FaultPlan::default());
            assert_eq!(paced.rt.trace().to_json(), unpaced.to_json(), "{} seed {seed}: identical trace", scenario.id);
        }
    }
}

#[test]
fn protocol_events_stay_on_screen_several_times_longer_than_model_and_tool_calls() {
    let (_, dwells) = pace_through(scenarios::SHUTDOWN, SEED);
    let protocol: Vec<&Dwelt> = dwells.iter().filter(|d| pace::weight(&d.on) == PROTOCOL).collect();
    let kinds: Vec<&str> = protocol.iter().map(|d| d.on.kind()).collect();
    for kind in ["member_spawned", "request_created", "message_sent", "request_transitioned"] {
        assert!(kinds.contains(&kind), "{kind} gets the protocol dwell: {kinds:?}");
    }
    let model_calls: Vec<&Dwelt> = dwells.iter().filter(|d| matches!(d.on, Event::ModelCalled { .. } | Event::ToolCalled { .. })).collect();
    assert!(!model_calls.is_empty());
    let longest_call = model_calls.iter().map(|d| d.ms).max().unwrap();
    let shortest_protocol = protocol.iter().map(|d| d.ms).min().unwrap();
    assert!(shortest_protocol >= 3 * longest_call, "protocol {shortest_protocol} ms vs model and tool calls {longest_call} ms");
}

/// Total time of `scenario` at 1× (the page's base pace), in ms, and how
/// long its shortest protocol dwell is.
fn at_one_x(scenario: Scenario) -> (u64, u64) {
    let (_, dwells) = pace_through(scenario, SEED);
    let units: u64 = dwells.iter().map(|d| u64::from(pace::weight(&d.on))).sum();
    let protocol = dwells.iter().filter(|d| pace::weight(&d.on) == PROTOCOL).map(|_| BASE_PACE_MS * u64::from(PROTOCOL)).min().unwrap_or(0);
    (units * BASE_PACE_MS, protocol)
}

#[test]
fn at_1x_the_graceful_shutdown_takes_25_to_40_seconds_and_each_protocol_event_stays_2_seconds() {
    let (total, protocol) = at_one_x(scenarios::SHUTDOWN);
    assert!((25_000..=40_000).contains(&total), "the shutdown scenario takes {total} ms at 1x");
    assert!(protocol >= 2_000, "a protocol event stays {protocol} ms");
    assert!(BASE_PACE_MS * u64::from(ROUTINE) <= 1_000, "a model or tool call stays at most a second");
    for scenario in scenarios::ALL {
        let (total, _) = at_one_x(scenario);
        println!("{}: {:.1} s at 1x, {:.1} s at 4x", scenario.id, total as f64 / 1000.0, total as f64 / 4000.0);
        assert!(total / 4 <= 30_000, "{}: {total} ms at 1x is more than 30 s even at 4x", scenario.id);
    }
}

#[test]
fn an_unpaced_live_run_shows_every_event_at_once_and_never_sleeps() {
    for scenario in scenarios::ALL {
        let run = start(SEED, Mode::Live, 0);
        for p in scenario.prompts {
            run.prompt(p);
            assert!(!run.rt.is_running(), "{}: the run ends without a sleep", scenario.id);
            assert_eq!(run.rt.released(), run.rt.trace().len(), "{}: everything is shown", scenario.id);
        }
        assert_eq!(run.sleeps.count(), 0, "{}: no sleep", scenario.id);
        let (_, unpaced) = common::run_scenario(scenario, SEED, FaultPlan::default());
        assert_eq!(run.rt.trace().to_json(), unpaced.to_json(), "{}", scenario.id);
    }
}

/// A paced shutdown run with `dwells` dwells ended.
fn paced_shutdown_after(dwells: usize) -> Paced {
    let run = start(SEED, Mode::Live, PACE);
    run.prompt(scenarios::SHUTDOWN.prompts[0]);
    for _ in 0..dwells {
        run.finish_dwell();
    }
    run
}

/// Ends dwells until the team has recorded at least two events the page
/// does not show yet.
fn until_two_held(run: &Paced) {
    while run.rt.unreleased() < 2 {
        assert!(run.rt.is_running(), "some turn records two events at once");
        run.finish_dwell();
    }
}

#[test]
fn stop_during_a_dwell_ends_the_run_at_once_and_shows_what_was_recorded() {
    let (full, _) = pace_through(scenarios::SHUTDOWN, SEED);
    let full = full.rt.trace();
    for dwells in 0..full.len() - 1 {
        let run = paced_shutdown_after(dwells);
        if !run.rt.is_running() {
            break;
        }
        let slot = run.sleeps.pending().expect("a dwell is under way");
        let recorded = run.rt.trace();
        run.rt.stop();
        run.ex.run_until_stalled();
        let ctx = format!("stopped after {dwells} dwells");
        assert!(slot.dropped.get(), "{ctx}: the dwell is cut short");
        assert!(run.sleeps.pending().is_none(), "{ctx}: nothing more is slept");
        assert_eq!(run.ex.live_tasks(), 0, "{ctx}: the driver ended");
        assert_eq!(run.rt.live_tasks(), 0, "{ctx}");
        assert_eq!(run.rt.trace(), recorded, "{ctx}: stopping records nothing");
        assert_eq!(run.rt.released(), recorded.len(), "{ctx}: what was recorded is shown");
        assert_eq!(full.entries()[..recorded.len()], *recorded.entries(), "{ctx}: a prefix of the full run");
    }
}

/// Steps `run` to its end, one event per step, and returns its trace.
fn step_to_the_end(run: &Paced) -> Trace {
    loop {
        let released = run.rt.released();
        if !run.rt.step() {
            break;
        }
        run.ex.run_until_stalled();
        assert_eq!(run.rt.released(), released + 1, "each Next releases one event");
    }
    assert!(!run.rt.is_running());
    run.rt.trace()
}

#[test]
fn going_step_during_a_paced_run_keeps_what_is_held_and_next_releases_one_event_each() {
    let run = paced_shutdown_after(0);
    until_two_held(&run);
    let (released, recorded) = (run.rt.released(), run.rt.trace().len());
    let slot = run.sleeps.pending().expect("a dwell is under way");
    run.rt.set_mode(Mode::Step);
    run.ex.run_until_stalled();
    assert!(slot.dropped.get(), "the dwell is cut short");
    assert_eq!(run.rt.released(), released, "what was shown stays shown, what was held stays held");
    assert_eq!(run.rt.trace().len(), recorded, "no turn is taken while an event is held");
    let sleeps = run.sleeps.count();
    let trace = step_to_the_end(&run);
    assert_eq!(run.sleeps.count(), sleeps, "Step mode never sleeps");
    let (_, live) = common::run_scenario(scenarios::SHUTDOWN, SEED, FaultPlan::default());
    assert_eq!(trace.to_json(), live.to_json());
}

#[test]
fn going_live_again_releases_the_held_events_at_the_pace() {
    let run = start(SEED, Mode::Step, PACE);
    run.prompt(scenarios::SHUTDOWN.prompts[0]);
    while run.rt.unreleased() < 2 {
        assert!(run.rt.step(), "some turn records two events at once");
        run.ex.run_until_stalled();
    }
    assert_eq!(run.sleeps.count(), 0, "Step mode never sleeps");
    let released = run.rt.released();
    run.rt.set_mode(Mode::Live);
    run.ex.run_until_stalled();
    assert_eq!(run.rt.released(), released, "going Live shows nothing at once");
    let on = run.on_screen();
    assert_eq!(run.finish_dwell(), pace::dwell_ms(PACE, &on), "the event on screen gets its dwell");
    assert_eq!(run.rt.released(), released + 1, "then the next event shows");
    while run.rt.is_running() {
        run.finish_dwell();
    }
    let (_, live) = common::run_scenario(scenarios::SHUTDOWN, SEED, FaultPlan::default());
    assert_eq!(run.rt.trace().to_json(), live.to_json());
}

#[test]
fn a_speed_change_during_a_dwell_starts_it_over_at_the_new_pace() {
    let run = paced_shutdown_after(3);
    let (released, on) = (run.rt.released(), run.on_screen());
    let slot = run.sleeps.pending().expect("a dwell is under way");
    assert_eq!(slot.ms, pace::dwell_ms(PACE, &on));
    run.rt.set_pace(PACE / 4);
    run.ex.run_until_stalled();
    assert!(slot.dropped.get(), "the dwell at the old pace is cut short");
    assert_eq!(run.rt.released(), released, "nothing more is shown");
    assert_eq!(run.finish_dwell(), pace::dwell_ms(PACE / 4, &on), "the same event, at the new pace");
    assert_eq!(run.rt.released(), released + 1);
    assert_eq!(run.sleeps.pending().map(|s| s.ms), Some(pace::dwell_ms(PACE / 4, &run.on_screen())), "the next dwell too");
}

#[test]
fn pace_zero_during_a_run_shows_every_held_event_at_once_and_the_run_ends_without_sleeping() {
    let run = paced_shutdown_after(0);
    until_two_held(&run);
    let slot = run.sleeps.pending().expect("a dwell is under way");
    let sleeps = run.sleeps.count();
    run.rt.set_pace(0);
    run.ex.run_until_stalled();
    assert!(slot.dropped.get());
    assert!(!run.rt.is_running(), "the run goes on to its end at once");
    assert_eq!(run.rt.released(), run.rt.trace().len());
    assert_eq!(run.sleeps.count(), sleeps, "no more sleeps");
}

#[test]
fn in_a_paced_run_an_answer_by_hand_shows_at_once_up_to_its_first_event_and_the_rest_at_the_pace() {
    let run = paced_shutdown_after(0);
    // Until the shutdown request is shown, still pending.
    while run.rt.with_team(|t| t.tracker().pending().next().is_none())
        || !run.seen().iter().any(|e| matches!(e, Event::RequestCreated { .. }))
    {
        run.finish_dwell();
    }
    let id = run.rt.with_team(|t| t.tracker().pending().next().unwrap().id.clone());
    let before = run.rt.trace().len();
    run.rt.answer_as(&AgentName::parse("alice").unwrap(), id.as_str(), true, "by hand").unwrap();
    run.ex.run_until_stalled();
    assert_eq!(run.rt.released(), before + 1, "everything before the answer and its first event show at once");
    let first = run.on_screen();
    assert!(matches!(first, Event::RequestTransitioned { to: RequestStatus::Approved, .. }), "{first:?}");
    assert!(run.rt.unreleased() > 0, "its response message is held");
    assert_eq!(run.finish_dwell(), pace::dwell_ms(PACE, &first), "the answer gets the protocol dwell");
    assert!(matches!(run.on_screen(), Event::MessageSent { .. }));
    while run.rt.is_running() {
        run.finish_dwell();
    }
    assert_eq!(check(&run.rt.trace()), vec![]);
}

/// The scripted model, slow: each reply waits until the test lets it out
/// (`calls`, one gate per call, as a sleeper's sleeps).
struct Slow {
    calls: Rc<Sleeps>,
}

impl Model for Slow {
    fn label(&self) -> String {
        "slow scripted".into()
    }

    fn complete<'a>(
        &'a self,
        request: &'a ModelRequest,
        on_text: TextSink,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        let gate = self.calls.sleep(0);
        Box::pin(async move {
            gate.await;
            ScriptedModel.complete(request, on_text, cancel).await
        })
    }
}

#[test]
fn while_a_model_thinks_the_events_so_far_are_told_at_their_pace_and_its_reply_waits_for_its_dwell() {
    let ex = LocalExecutor::new();
    let (sleeps, calls) = (Rc::new(Sleeps::default()), Rc::new(Sleeps::default()));
    let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: sleeps.clone() };
    let rt =
        Runtime::new(RuntimeConfig { seed: SEED, pace_ms: PACE, ..RuntimeConfig::default() }, Rc::new(Slow { calls: calls.clone() }), host);
    let run = Paced { ex, rt, sleeps };
    run.prompt(scenarios::SHUTDOWN.prompts[0]);
    // The lead's first model call is out, its ModelCalled held behind the
    // dwell on the prompt.
    let call = calls.pending().expect("the lead's model call is out");
    assert!(matches!(run.rt.trace().entries().last().map(|e| &e.event), Some(Event::ModelCalled { .. })));
    assert_eq!(run.rt.released(), 1);
    assert_eq!(run.finish_dwell(), pace::dwell_ms(PACE, &Event::RunStarted { prompt: scenarios::SHUTDOWN.prompts[0].into() }));
    assert!(matches!(run.on_screen(), Event::ModelCalled { .. }), "ModelCalled is told while the model thinks");
    // Its dwell runs while the model thinks; the call outlasts it.
    assert_eq!(run.finish_dwell(), pace::dwell_ms(PACE, &run.on_screen()));
    assert!(run.sleeps.pending().is_none(), "nothing to dwell on until the reply");
    let released = run.rt.released();
    run.calls_done(&calls, &call);
    assert_eq!(run.rt.released(), released + 1, "the reply shows at once: ModelCalled had its dwell");
    assert!(matches!(run.on_screen(), Event::ModelReplied { .. }));
    // A call that returns before the dwell on ModelCalled ends waits for it.
    while calls.pending().is_none() {
        run.finish_dwell();
    }
    let call = calls.pending().unwrap();
    assert!(matches!(run.rt.trace().entries().last().map(|e| &e.event), Some(Event::ModelCalled { .. })));
    while !matches!(run.on_screen(), Event::ModelCalled { .. }) {
        run.finish_dwell();
    }
    let released = run.rt.released();
    run.calls_done(&calls, &call);
    assert_eq!(run.rt.released(), released, "the reply waits for ModelCalled's dwell");
    run.finish_dwell();
    assert_eq!(run.rt.released(), released + 1);
    assert!(matches!(run.on_screen(), Event::ModelReplied { .. }));
}

impl Paced {
    /// Lets a slow model's call return.
    fn calls_done(&self, calls: &Sleeps, call: &Slot) {
        calls.finish(call);
        self.ex.run_until_stalled();
    }
}
