//! The agent runtime: the team and its agents as one sans-IO state machine
//! (`world`, whose loops are `agent`), their tools over the team and an
//! in-memory workspace, a scheduler that makes every run repeatable from its
//! seed — and here, the async driver that runs a world against a real
//! `model::Model`, with pacing, Step mode and Stop.
//!
//! Owns running agents. It changes the team only through `protocol::Team`
//! (so every event lands in the trace) and reaches models only through
//! `model::Model`. It must not draw anything: the UI reads the trace.

pub mod agent;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod clock;
pub mod executor;
pub mod loops;
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
    /// Live mode: real milliseconds to wait before each turn (0 = none).
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
    /// The driver task is alive (until a stop has settled).
    driving: Cell<bool>,
    /// The driver, waiting for a granted turn.
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

/// Waits until the world has a granted turn to begin (true) or is stopped
/// (false).
struct Granted<'a>(&'a Inner);

impl Future for Granted<'_> {
    type Output = bool;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        let world = self.0.world.borrow();
        if world.is_stopped() {
            return Poll::Ready(false);
        }
        if world.turns().has_granted() {
            return Poll::Ready(true);
        }
        *self.0.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// The driver: begins each granted turn, paces it (Live mode), and runs the
/// agent holding the baton, calling its model whenever it asks.
async fn drive(inner: Rc<Inner>) {
    while Granted(&inner).await {
        inner.with_world(World::begin);
        inner.after_change();
        let pace = inner.pace_ms.get();
        if inner.world.borrow().turns().mode() == Mode::Live && pace > 0 {
            inner.sleeper.sleep(pace).await;
        }
        if inner.world.borrow().is_stopped() {
            break;
        }
        loop {
            match inner.with_world(World::proceed) {
                Next::Yielded => break,
                Next::CallModel { agent } => {
                    inner.after_change();
                    let request = inner.world.borrow().model_request(&agent);
                    let result = match request {
                        Some(request) => call_model(&inner, &agent, &request).await,
                        None => Err(ModelError::Cancelled),
                    };
                    inner.with_world(|w| w.model_returned(&agent, result));
                }
            }
            inner.after_change();
        }
        inner.after_change();
    }
    inner.driving.set(false);
    inner.after_change();
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
        };
        let source = if host.clock.is_some() { TimeSource::Wall } else { TimeSource::Virtual };
        let mut world = World::new(world_config, config.mode, source);
        world.set_faults(config.faults.clone());
        let inner = Rc::new_cyclic(|weak| Inner {
            world: RefCell::new(world),
            model,
            clock: host.clock,
            sleeper: host.sleeper,
            cancel: CancelToken::new(),
            pace_ms: Cell::new(config.pace_ms),
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
    /// the page may show. All of them except in Step mode.
    pub fn released(&self) -> usize {
        self.inner.world.borrow().released()
    }

    /// How many recorded events wait for a `step` to be released.
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

    /// Live mode: real milliseconds to wait before each event (0 = none).
    pub fn set_pace(&self, ms: u64) {
        self.inner.pace_ms.set(ms);
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
    /// mode) with events still to release.
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
