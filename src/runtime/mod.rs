//! The agent runtime: the team and its agents as one sans-IO state machine
//! (`world`, whose loops are `agent`), their tools over the team and an
//! in-memory workspace, a scheduler that makes every run repeatable from its
//! seed — and here, the async driver that runs a world against a real
//! `model::Model`, with pacing, Step mode and Stop. A paced Live run is
//! shown one event at a time: after each turn (and while a model thinks)
//! the driver releases the recorded events one by one, dwelling on each for
//! `pace_ms × pace::weight(event)` (`pace`).
//!
//! Owns running agents. It changes the team only through `protocol::Team`
//! (so every event lands in the trace) and reaches models only through
//! `model::Model`. It must not draw anything: the UI reads the trace.

pub mod agent;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod budget;
pub mod clock;
pub mod executor;
pub mod loops;
pub mod pace;
pub mod scenarios;
pub mod scheduler;
pub mod tools;
pub mod workspace;
pub mod world;

pub use tools::ToolOutcome;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll, Waker};

use crate::model::sleep::Sleeper;
use crate::model::{CancelToken, Model, ModelError, TextSink};
use crate::protocol::{AgentName, FaultError, FaultPlan, MessageError, RequestId, RequestStatus, Team, TeamError, Trace};
use clock::Clock;
use executor::Spawner;
use scheduler::{Mode, TurnKind};
use workspace::Workspace;
use world::{Next, TimeSource, World, WorldConfig};

/// Errors from the runtime's own API (what a user or the UI asked for).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RuntimeError {
    /// The team refused.
    #[error(transparent)]
    Team(#[from] TeamError),
    /// The run was stopped; start a new one.
    #[error("the run was stopped; start a new run")]
    Stopped,
    /// A prompt must say something.
    #[error("the prompt is empty")]
    EmptyPrompt,
    /// A request id that is not one (8 lowercase hex characters).
    #[error(transparent)]
    BadRequestId(#[from] MessageError),
    /// No request has this id.
    #[error("unknown request_id '{0}'")]
    UnknownRequest(RequestId),
    /// A fault rule of the run's plan cannot run (it skipped validation).
    #[error("fault rule {index} cannot run: {source}")]
    BadFaultRule {
        /// Its number, from 1, as the fault form shows it.
        index: usize,
        /// What is wrong with it.
        source: FaultError,
    },
    /// The team refused to record what the runtime did (a broken host, e.g.
    /// a clock error), so the run was stopped rather than left half done.
    #[error("the run was stopped: {0}")]
    Halted(TeamError),
}

/// How a run is set up.
#[derive(Debug, Clone, PartialEq)]
pub struct RuntimeConfig {
    /// The team's name (the roster's `team_name`).
    pub team_name: String,
    /// Fixes request ids, turn order and virtual time.
    pub seed: u64,
    /// Live or Step.
    pub mode: Mode,
    /// Live mode: real milliseconds a pace unit lasts (`pace::weight`); each
    /// event is shown alone for its weight in units before the next one. 0:
    /// unpaced, every event shown as soon as it is recorded.
    pub pace_ms: u64,
    /// Most model calls in one teammate loop (the lesson's 50).
    pub max_rounds: usize,
    /// Most model calls the lead makes for one wake-up.
    pub lead_max_rounds: usize,
    /// `max_tokens` of each model call.
    pub max_tokens: u32,
    /// Faults injected on the bus (none by default). Agents never see them:
    /// a sender gets its usual tool result whatever happens to the message.
    pub faults: FaultPlan,
    /// The run's budget (`budget`): none by default.
    pub budget: Option<budget::Budget>,
    /// The run's model's price per million tokens, for a dollar budget
    /// (none: unknown model, or the scripted one).
    pub rates: Option<budget::Rates>,
    /// The protocol file the team runs under (`WorldConfig::protocols`):
    /// its protocols' tools, trackers and trace header (format v2); `None`:
    /// the lesson's two.
    pub protocols: Option<std::sync::Arc<crate::protocol::file::ProtocolFile>>,
    /// The protective rules the run is under (`World::set_rules`): every
    /// rule on by default; a file's team may leave one off.
    pub rules: crate::protocol::Rules,
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        RuntimeConfig {
            team_name: "default".into(),
            seed: 2026,
            mode: Mode::Live,
            pace_ms: 0,
            max_rounds: 50,
            lead_max_rounds: 50,
            max_tokens: 8000,
            faults: FaultPlan::default(),
            budget: None,
            rates: None,
            protocols: None,
            rules: crate::protocol::Rules::default(),
        }
    }
}

/// Shared by the runtime handle and its driver task.
struct Inner {
    world: RefCell<World>,
    model: Rc<dyn Model>,
    clock: Option<Rc<dyn Clock>>,
    sleeper: Rc<dyn Sleeper>,
    cancel: CancelToken,
    pace_ms: Cell<u64>,
    /// The sequence number of the last event the driver has dwelt on for its
    /// whole weight (a paced Live run), so it is not dwelt on twice.
    dwelt: Cell<Option<u64>>,
    /// The driver task is alive (until a stop has settled).
    driving: Cell<bool>,
    /// The driver, waiting for work or dwelling on an event: woken by every
    /// world input.
    waker: RefCell<Option<Waker>>,
    /// Streamed model text per agent, for the current call.
    streaming: RefCell<BTreeMap<AgentName, String>>,
    listeners: RefCell<Vec<Rc<dyn Fn()>>>,
    self_ref: Weak<Inner>,
}

impl Inner {
    /// Runs `f` on the world, with the wall clock read first (a wall-clock
    /// run) and the driver woken after, since `f` may have granted a turn.
    fn with_world<T>(&self, f: impl FnOnce(&mut World) -> T) -> T {
        let out = {
            let mut world = self.world.borrow_mut();
            if let Some(clock) = &self.clock {
                world.set_wall_time(clock.now());
            }
            f(&mut world)
        };
        if self.world.borrow().is_stopped() {
            // A stop, or the world halted itself: in-flight calls end too.
            self.cancel.cancel();
        }
        if let Some(w) = self.waker.borrow_mut().take() {
            w.wake();
        }
        out
    }

    /// Tells listeners that something changed.
    fn after_change(&self) {
        let listeners: Vec<_> = self.listeners.borrow().clone();
        for l in listeners {
            l();
        }
    }
}

/// What the driver does next.
enum Work {
    /// The run was stopped: the driver ends.
    Stop,
    /// A paced Live run holds recorded events: release them one at a time.
    Release,
    /// A granted turn may begin.
    Turn,
}

/// Waits until the driver has work: a stop, held events to release (a paced
/// Live run), or a granted turn that may begin (`World::can_begin`).
struct Ready<'a>(&'a Inner);

impl Future for Ready<'_> {
    type Output = Work;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Work> {
        let world = self.0.world.borrow();
        if world.is_stopped() {
            return Poll::Ready(Work::Stop);
        }
        if world.pacing_due() {
            return Poll::Ready(Work::Release);
        }
        if world.can_begin() {
            return Poll::Ready(Work::Turn);
        }
        *self.0.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// The driver: releases the events a paced Live run holds, one at a time;
/// begins each granted turn and runs the agent holding the baton, calling
/// its model whenever it asks.
async fn drive(inner: Rc<Inner>) {
    loop {
        match Ready(&inner).await {
            Work::Stop => break,
            Work::Release => release_paced(&inner, false).await,
            Work::Turn => take_turn(&inner).await,
        }
    }
    inner.driving.set(false);
    inner.after_change();
}

/// Runs the granted turn to its end. While the agent's model thinks, the
/// events recorded so far are released at their pace (a paced Live run), so
/// a slow model and the reading time overlap.
async fn take_turn(inner: &Rc<Inner>) {
    inner.with_world(World::begin);
    inner.after_change();
    loop {
        match inner.with_world(World::proceed) {
            Next::Yielded => break,
            Next::CallModel { agent } => {
                inner.after_change();
                let request = inner.world.borrow().model_request(&agent);
                let result = match request {
                    Some(request) => both(call_model(inner, &agent, &request), release_paced(inner, true)).await.0,
                    None => Err(ModelError::Cancelled),
                };
                // A reply that came before a stop cut the dwell short is not
                // recorded: nothing is, after a stop.
                let result = if inner.world.borrow().is_stopped() { Err(ModelError::Cancelled) } else { result };
                inner.with_world(|w| w.model_returned(&agent, result));
            }
        }
        inner.after_change();
    }
    inner.after_change();
}

/// A paced Live run: releases the held events one at a time, first dwelling
/// on the event shown last for `pace::dwell_ms` (unless that was done
/// already), so each event is shown alone for its weight. With `linger`
/// (a model call is out) it also dwells on the last event once nothing is
/// held. Returns at once when the run is not paced Live (Step mode, pace 0,
/// stopped). A change of speed, mode or what is shown (an answer by hand)
/// cuts a dwell short and it starts over from the event shown last, at the
/// pace then; a stop ends it.
async fn release_paced(inner: &Rc<Inner>, linger: bool) {
    loop {
        let (due, paced_live, last) = {
            let world = inner.world.borrow();
            let paced_live = world.is_paced() && world.turns().mode() == Mode::Live && !world.is_stopped();
            let last = world.last_released().map(|e| (e.seq, pace::dwell_ms(inner.pace_ms.get(), &e.event)));
            (world.pacing_due(), paced_live, last)
        };
        if !(due || linger && paced_live) {
            return;
        }
        if let Some((seq, ms)) = last.filter(|(seq, _)| inner.dwelt.get() != Some(*seq)) {
            if !Dwell::new(inner, ms).await {
                continue;
            }
            inner.dwelt.set(Some(seq));
        }
        if !inner.with_world(World::release_one) {
            return;
        }
        inner.after_change();
    }
}

/// What cuts a dwell short: a stop, a mode switch, a change of pace, or
/// another event shown (work by hand shows at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PaceKey {
    stopped: bool,
    mode: Mode,
    paced: bool,
    pace_ms: u64,
    released: usize,
}

impl PaceKey {
    fn of(inner: &Inner) -> Self {
        let world = inner.world.borrow();
        PaceKey {
            stopped: world.is_stopped(),
            mode: world.turns().mode(),
            paced: world.is_paced(),
            pace_ms: inner.pace_ms.get(),
            released: world.released(),
        }
    }
}

/// One dwell: true when it lasted its time, false when cut short
/// (`PaceKey`).
struct Dwell<'a> {
    inner: &'a Inner,
    sleep: crate::model::LocalBoxFuture<'static, ()>,
    key: PaceKey,
}

impl<'a> Dwell<'a> {
    fn new(inner: &'a Inner, ms: u64) -> Self {
        Dwell { inner, sleep: inner.sleeper.sleep(ms), key: PaceKey::of(inner) }
    }
}

impl Future for Dwell<'_> {
    type Output = bool;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        if PaceKey::of(self.inner) != self.key {
            return Poll::Ready(false);
        }
        if self.sleep.as_mut().poll(cx).is_ready() {
            return Poll::Ready(true);
        }
        *self.inner.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// Runs `a` and `b` together until both are done.
async fn both<A, B>(a: impl Future<Output = A>, b: impl Future<Output = B>) -> (A, B) {
    let (mut a, mut b) = (std::pin::pin!(a), std::pin::pin!(b));
    let (mut out_a, mut out_b) = (None, None);
    std::future::poll_fn(move |cx| {
        if out_a.is_none() {
            if let Poll::Ready(v) = a.as_mut().poll(cx) {
                out_a = Some(v);
            }
        }
        if out_b.is_none() {
            if let Poll::Ready(v) = b.as_mut().poll(cx) {
                out_b = Some(v);
            }
        }
        match (out_a.take(), out_b.take()) {
            (Some(a), Some(b)) => Poll::Ready((a, b)),
            (a, b) => {
                (out_a, out_b) = (a, b);
                Poll::Pending
            }
        }
    })
    .await
}

/// One model call, its text streamed to listeners; Stop ends it even if the
/// provider never looks at the token again (a hung request).
async fn call_model(
    inner: &Rc<Inner>,
    agent: &AgentName,
    request: &crate::model::ModelRequest,
) -> Result<crate::model::ModelResponse, ModelError> {
    inner.streaming.borrow_mut().insert(agent.clone(), String::new());
    let sink: TextSink = {
        let (weak, who) = (inner.self_ref.clone(), agent.clone());
        Rc::new(move |delta: &str| {
            if let Some(inner) = weak.upgrade() {
                inner.streaming.borrow_mut().entry(who.clone()).or_default().push_str(delta);
                inner.after_change();
            }
        })
    };
    let result = first_of(inner.model.complete(request, sink, inner.cancel.clone()), inner.cancel.cancelled()).await;
    inner.streaming.borrow_mut().remove(agent);
    result
}

/// Runs `call` until it finishes or `cancelled` does, whichever is first.
async fn first_of<T>(
    call: impl std::future::Future<Output = Result<T, ModelError>>,
    cancelled: impl std::future::Future<Output = ()>,
) -> Result<T, ModelError> {
    let mut call = std::pin::pin!(call);
    let mut cancelled = std::pin::pin!(cancelled);
    std::future::poll_fn(move |cx| {
        if cancelled.as_mut().poll(cx).is_ready() {
            return std::task::Poll::Ready(Err(ModelError::Cancelled));
        }
        call.as_mut().poll(cx)
    })
    .await
}

/// The services a runtime runs on: where its driver runs, what time it is,
/// how to wait. Native tests pass a `LocalExecutor`, `TimeSource::Virtual`
/// (no clock) and `NoSleep`.
#[derive(Clone)]
pub struct Host {
    /// Starts the driver task.
    pub spawner: Rc<dyn Spawner>,
    /// A wall clock, for runs on a real model; `None`: virtual time, moved
    /// by each turn's seeded cost, so a run repeats byte for byte.
    pub clock: Option<Rc<dyn Clock>>,
    /// Waits (pacing).
    pub sleeper: Rc<dyn Sleeper>,
}

/// A running team: the handle the UI and tests hold.
#[derive(Clone)]
pub struct Runtime {
    inner: Rc<Inner>,
}

impl Runtime {
    /// A team with only the lead, parked, waiting for a prompt; its driver
    /// is started.
    pub fn new(config: RuntimeConfig, model: Rc<dyn Model>, host: Host) -> Self {
        let world_config = WorldConfig {
            team_name: config.team_name.clone(),
            seed: config.seed,
            max_rounds: config.max_rounds,
            lead_max_rounds: config.lead_max_rounds,
            max_tokens: config.max_tokens,
            protocols: config.protocols.clone(),
        };
        let source = if host.clock.is_some() { TimeSource::Wall } else { TimeSource::Virtual };
        let mut world = World::new(world_config, config.mode, source);
        world.set_faults(config.faults.clone());
        world.set_rules(config.rules);
        world.set_paced(config.pace_ms > 0);
        world.set_budget(config.budget, config.rates);
        let inner = Rc::new_cyclic(|weak| Inner {
            world: RefCell::new(world),
            model,
            clock: host.clock,
            sleeper: host.sleeper,
            cancel: CancelToken::new(),
            pace_ms: Cell::new(config.pace_ms),
            dwelt: Cell::new(None),
            driving: Cell::new(true),
            waker: RefCell::new(None),
            streaming: RefCell::new(BTreeMap::new()),
            listeners: RefCell::new(Vec::new()),
            self_ref: weak.clone(),
        });
        host.spawner.spawn(Box::pin(drive(inner.clone())));
        Runtime { inner }
    }

    /// Runs a world call and tells listeners.
    fn act<T>(&self, f: impl FnOnce(&mut World) -> T) -> T {
        let out = self.inner.with_world(f);
        self.inner.after_change();
        out
    }

    /// Starts (or continues) a run with a user prompt for the lead.
    pub fn submit_prompt(&self, prompt: &str) -> Result<(), RuntimeError> {
        self.act(|w| w.submit_prompt(prompt))
    }

    /// Step mode: releases exactly one event of the trace (`World::step`):
    /// one recorded already, or the next one the team records. False when
    /// there is none to release.
    pub fn step(&self) -> bool {
        self.act(World::step)
    }

    /// Switches between Live and Step.
    pub fn set_mode(&self, mode: Mode) {
        self.act(|w| w.set_mode(mode));
    }

    /// How many events of the trace are released (`World::released`): what
    /// the page may show. All of them except in Step mode and a paced Live
    /// run.
    pub fn released(&self) -> usize {
        self.inner.world.borrow().released()
    }

    /// How many recorded events wait to be released (by a `step`, or by the
    /// driver in a paced Live run).
    pub fn unreleased(&self) -> usize {
        self.inner.world.borrow().unreleased()
    }

    /// The released events from sequence number `from` on.
    pub fn released_since(&self, from: u64) -> Vec<crate::protocol::TraceEntry> {
        let world = self.inner.world.borrow();
        let released = world.released();
        let since = world.team().events_since(from);
        let take = released.saturating_sub(usize::try_from(from).unwrap_or(usize::MAX)).min(since.len());
        since[..take].to_vec()
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.inner.world.borrow().turns().mode()
    }

    /// Live mode: real milliseconds a pace unit lasts (`pace::weight`), from
    /// the next dwell on (a dwell under way starts over at the new pace); 0
    /// shows every held event at once and paces nothing more.
    pub fn set_pace(&self, ms: u64) {
        self.inner.pace_ms.set(ms);
        self.act(|w| w.set_paced(ms > 0));
    }

    /// The pace of Live mode: milliseconds a pace unit lasts (0: unpaced).
    pub fn pace(&self) -> u64 {
        self.inner.pace_ms.get()
    }

    /// Ends every loop cleanly: waiting turns end, in-flight model calls are
    /// cancelled, no tool is left half applied (tools run between turns).
    pub fn stop(&self) {
        self.act(World::stop);
    }

    /// True after `stop`.
    pub fn is_stopped(&self) -> bool {
        self.inner.world.borrow().is_stopped()
    }

    /// How many agent loops are still alive (zero after a stop has settled).
    pub fn live_tasks(&self) -> usize {
        let world = self.inner.world.borrow();
        if world.is_stopped() && !self.inner.driving.get() {
            return 0;
        }
        world.live_agents()
    }

    /// True while a run is in progress: started and not yet quiet, or (Step
    /// mode, a paced Live run) with events still to release.
    pub fn is_running(&self) -> bool {
        let world = self.inner.world.borrow();
        world.is_running() || world.unreleased() > 0
    }

    /// The events waiting to be released, in ticket order.
    pub fn waiting(&self) -> Vec<(AgentName, TurnKind)> {
        self.inner.world.borrow().turns().waiting()
    }

    /// A copy of the trace so far.
    pub fn trace(&self) -> Trace {
        self.inner.world.borrow().team().trace().clone()
    }

    /// Reads the team (roster, tracker, inboxes, trace) without copying it.
    pub fn with_team<T>(&self, f: impl FnOnce(&Team) -> T) -> T {
        f(self.inner.world.borrow().team())
    }

    /// Reads the workspace without copying it.
    pub fn with_workspace<T>(&self, f: impl FnOnce(&Workspace) -> T) -> T {
        f(self.inner.world.borrow().workspace())
    }

    /// The text streamed so far by each agent's in-flight model call.
    pub fn streaming_text(&self) -> BTreeMap<AgentName, String> {
        self.inner.streaming.borrow().clone()
    }

    /// The model's label.
    pub fn model_label(&self) -> String {
        self.inner.model.label()
    }

    /// Calls `listener` after every change (event, turn, streamed text).
    pub fn subscribe(&self, listener: Rc<dyn Fn()>) {
        self.inner.listeners.borrow_mut().push(listener);
    }

    /// A human answers a pending request as its addressee (`as_agent`),
    /// through the same protocol path as a model's tool call.
    pub fn answer_as(&self, as_agent: &AgentName, request_id: &str, approve: bool, text: &str) -> Result<RequestStatus, RuntimeError> {
        self.act(|w| w.answer_as(as_agent, request_id, approve, text))
    }

    /// A human answers a pending request as its addressee with the
    /// answer's typed fields, as a model's answer tool would
    /// (`World::answer_as_with_fields`).
    pub fn answer_as_with_fields(
        &self,
        as_agent: &AgentName,
        request_id: &str,
        approve: bool,
        fields: crate::protocol::Fields,
    ) -> Result<RequestStatus, RuntimeError> {
        self.act(|w| w.answer_as_with_fields(as_agent, request_id, approve, fields))
    }

    /// A human sends a plain message as any agent.
    pub fn send_as(&self, from: &AgentName, to: &AgentName, content: &str) -> Result<(), RuntimeError> {
        self.act(|w| w.human_send(from, to, content))
    }

    /// Why the runtime stopped itself (the team refused to record an event),
    /// if it did; `None` for a run that is fine or was stopped by `stop`.
    pub fn failure(&self) -> Option<RuntimeError> {
        self.inner.world.borrow().failure().cloned()
    }
}
