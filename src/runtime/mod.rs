//! The agent runtime: the lead and each teammate as their own async task,
//! their tools over the team and an in-memory workspace, and a scheduler
//! that makes every run repeatable from its seed.
//!
//! Owns running agents. It changes the team only through `protocol::Team`
//! (so every event lands in the trace) and reaches models only through
//! `model::Model`. It must not draw anything: the UI reads the trace.

pub mod agent;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod clock;
pub mod executor;
pub mod scenarios;
pub mod scheduler;
pub mod tools;
pub mod workspace;

pub use tools::ToolOutcome;

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::{Rc, Weak};

use crate::model::sleep::Sleeper;
use crate::model::{CancelToken, Model, ModelError, ModelRequest, ModelResponse, TextSink, Turn};
use crate::protocol::ids::SeededIds;
use crate::protocol::{
    AgentName, Event, FaultError, FaultPlan, MemberStatus, MessageError, Millis, RequestId, RequestKind, RequestStatus, Team, TeamError,
    Trace,
};
use clock::Clock;
use executor::Spawner;
use scheduler::{Mode, Scheduler, Stopped, TurnKind};
use workspace::Workspace;

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

/// Shared by the runtime handle and every agent task.
pub(crate) struct Inner {
    pub(crate) config: RuntimeConfig,
    pub(crate) team: RefCell<Team>,
    pub(crate) workspace: RefCell<Workspace>,
    pub(crate) sched: Scheduler,
    pub(crate) model: Rc<dyn Model>,
    spawner: Rc<dyn Spawner>,
    clock: Rc<dyn Clock>,
    sleeper: Rc<dyn Sleeper>,
    costs: RefCell<SeededIds>,
    pub(crate) cancel: CancelToken,
    /// Prompts waiting for the lead, oldest first.
    pub(crate) prompts: RefCell<VecDeque<String>>,
    /// New prompts for teammates restarted while their task still runs.
    pub(crate) restarts: RefCell<BTreeMap<AgentName, VecDeque<String>>>,
    /// Teammates whose task is alive.
    pub(crate) alive: RefCell<BTreeSet<AgentName>>,
    run_active: Cell<bool>,
    /// Why the runtime stopped itself, if it did.
    failure: RefCell<Option<RuntimeError>>,
    pace_ms: Cell<u64>,
    tasks: Cell<usize>,
    /// Streamed model text per agent, for the current call.
    pub(crate) streaming: RefCell<BTreeMap<AgentName, String>>,
    listeners: RefCell<Vec<Rc<dyn Fn()>>>,
    self_ref: Weak<Inner>,
}

impl Inner {
    /// Now, never earlier than the last event recorded: a host clock that
    /// jumps back (or wraps around) cannot move the trace backwards.
    pub(crate) fn now(&self) -> Millis {
        let last = self.team.borrow().trace().entries().last().map_or(Millis(0), |e| e.time);
        self.clock.now().max(last)
    }

    /// Stops the run because the team refused to record what the runtime
    /// did. The first failure is kept for the UI (`Runtime::failure`).
    fn halt(&self, error: TeamError) {
        if self.failure.borrow().is_none() {
            *self.failure.borrow_mut() = Some(RuntimeError::Halted(error));
        }
        self.run_active.set(false);
        self.cancel.cancel();
        self.sched.stop();
        self.after_change();
    }

    /// Waits for a turn, then moves virtual time by the turn's cost and
    /// paces (Live mode).
    pub(crate) async fn turn(&self, agent: &AgentName, kind: TurnKind) -> Result<(), Stopped> {
        let ticket = self.sched.enqueue(agent, kind.clone());
        self.after_change();
        self.sched.wait(ticket).await?;
        self.begin_turn(&kind).await
    }

    /// What every granted turn does first: cost and pacing.
    pub(crate) async fn begin_turn(&self, kind: &TurnKind) -> Result<(), Stopped> {
        let jitter = self.costs.borrow_mut().next_u64();
        let cost = match kind {
            TurnKind::Deliver => 2 + jitter % 4,
            TurnKind::ModelCall => 1,
            TurnKind::Tool { .. } => 5 + jitter % 30,
        };
        self.clock.advance(cost);
        self.release_held(false);
        let pace = self.pace_ms.get();
        if self.sched.mode() == Mode::Live && pace > 0 {
            self.sleeper.sleep(pace).await;
        }
        if self.sched.is_stopped() {
            return Err(Stopped);
        }
        Ok(())
    }

    /// Records an event that changes no protocol state.
    pub(crate) fn observe(&self, event: Event) {
        let at = self.now();
        let recorded = self.team.borrow_mut().observe(event, at);
        match recorded {
            Ok(()) => self.after_change(),
            Err(e) => self.halt(e),
        }
    }

    /// Tells listeners that something changed.
    pub(crate) fn after_change(&self) {
        let listeners: Vec<_> = self.listeners.borrow().clone();
        for l in listeners {
            l();
        }
    }

    /// Calls the model for `agent`, recording the call and its reply.
    pub(crate) async fn call_model(&self, agent: &AgentName, request: &ModelRequest) -> Result<ModelResponse, ModelError> {
        self.observe(Event::ModelCalled { agent: agent.clone() });
        self.streaming.borrow_mut().insert(agent.clone(), String::new());
        let sink: TextSink = {
            let (weak, who) = (self.self_ref.clone(), agent.clone());
            Rc::new(move |delta: &str| {
                if let Some(inner) = weak.upgrade() {
                    inner.streaming.borrow_mut().entry(who.clone()).or_default().push_str(delta);
                    inner.after_change();
                }
            })
        };
        // Stop must end the call even if the provider never looks at the
        // token again (a hung request): race the call against it.
        let result = first_of(self.model.complete(request, sink, self.cancel.clone()), self.cancel.cancelled()).await;
        self.streaming.borrow_mut().remove(agent);
        let think = 300 + self.costs.borrow_mut().next_u64() % 900;
        self.clock.advance(think);
        match &result {
            Ok(reply) => {
                let text = Turn { role: crate::model::Role::Assistant, content: reply.content.clone() }.text();
                self.observe(Event::ModelReplied {
                    agent: agent.clone(),
                    text,
                    stop_reason: reply.stop_reason.to_string(),
                    input_tokens: reply.usage.input_tokens,
                    output_tokens: reply.usage.output_tokens,
                });
            }
            Err(ModelError::Cancelled) => {}
            Err(e) => self.observe(Event::ModelFailed { agent: agent.clone(), error: e.to_string() }),
        }
        result
    }

    /// Sends a plain message and wakes its recipient.
    pub(crate) fn send_as(&self, from: &AgentName, to: &AgentName, msg_type: &str, content: &str) -> Result<(), TeamError> {
        let at = self.now();
        if msg_type == "broadcast" {
            let to = self.team.borrow_mut().broadcast(from, content, at)?;
            self.wake(&to);
            return Ok(());
        }
        self.team.borrow_mut().send(from, to, msg_type, content, at)?;
        self.wake(std::slice::from_ref(to));
        Ok(())
    }

    /// Answers a request as `by` through the protocol path, marks an approved
    /// shutdown for its teammate, and wakes whoever must react.
    pub(crate) fn answer(
        &self,
        kind: RequestKind,
        id: &RequestId,
        by: &AgentName,
        approve: bool,
        text: &str,
    ) -> Result<RequestStatus, TeamError> {
        let at = self.now();
        let status = self.team.borrow_mut().answer(kind, id, by, approve, text, at)?;
        let requester = self.team.borrow().request(id).map(|r| r.requester.clone());
        if kind == RequestKind::Shutdown && approve {
            self.wake(std::slice::from_ref(by));
        }
        if let Some(requester) = requester {
            self.wake(&[requester]);
        }
        Ok(status)
    }

    /// Runs a teammate the team has just spawned: an idle teammate whose
    /// task still runs gets the new prompt, otherwise a task starts.
    pub(crate) fn launch_teammate(&self, name: &AgentName, role: &str, prompt: &str) {
        if self.alive.borrow().contains(name) {
            // An idle teammate whose task still runs: hand it the new prompt.
            self.restarts.borrow_mut().entry(name.clone()).or_default().push_back(prompt.to_string());
            self.wake(std::slice::from_ref(name));
        } else {
            self.start_teammate(name.clone(), role.to_string(), prompt.to_string());
        }
    }

    fn start_teammate(&self, name: AgentName, role: String, prompt: String) {
        // Tasks start only from a running runtime's own methods, so the
        // runtime is alive; if it were being dropped there is nothing to run.
        let Some(me) = self.self_ref.upgrade() else { return };
        self.alive.borrow_mut().insert(name.clone());
        let first = self.sched.enqueue(&name, TurnKind::ModelCall);
        self.task_started();
        self.spawner.spawn(Box::pin(agent::teammate_task(me, name, role, prompt, first)));
    }

    /// Gives each parked recipient a delivery turn.
    pub(crate) fn wake(&self, names: &[AgentName]) {
        for n in names {
            self.sched.unpark(n);
        }
    }

    pub(crate) fn task_started(&self) {
        self.tasks.set(self.tasks.get() + 1);
    }

    pub(crate) fn task_ended(&self, agent: &AgentName) {
        self.tasks.set(self.tasks.get().saturating_sub(1));
        self.alive.borrow_mut().remove(agent);
        self.sched.finish(agent);
        self.check_quiet();
    }

    /// Sets a teammate's status (a no-op when unchanged).
    pub(crate) fn set_status(&self, agent: &AgentName, status: MemberStatus) {
        let at = self.now();
        // Refused only for a member already shut down, which the loops never ask.
        let _ = self.team.borrow_mut().set_status(agent, status, at);
        self.after_change();
    }

    /// Releases the messages fault injection holds on the bus: the delayed
    /// ones now due, or (`all`) every one. Wakes their recipients and
    /// returns how many were released.
    fn release_held(&self, all: bool) -> usize {
        let before = self.team.borrow().held().to_vec();
        if before.is_empty() {
            return 0;
        }
        let now = self.now();
        let released = {
            let mut team = self.team.borrow_mut();
            if all {
                team.release_all(now)
            } else {
                team.release_due(now)
            }
        };
        let released = match released {
            Ok(n) => n,
            Err(e) => {
                self.halt(e);
                return 0;
            }
        };
        if released > 0 {
            let still: BTreeSet<u64> = self.team.borrow().held().iter().map(|h| h.seq).collect();
            let mut to: Vec<AgentName> = Vec::new();
            for h in before.iter().filter(|h| !still.contains(&h.seq)) {
                if !to.contains(&h.message.to) {
                    to.push(h.message.to.clone());
                }
            }
            self.wake(&to);
            self.after_change();
        }
        released
    }

    /// Records the end of a run once nothing is running or waiting. Messages
    /// still held by faults are released first (the clock moves on to the
    /// latest due time); the run ends only if that wakes nobody.
    pub(crate) fn check_quiet(&self) {
        if self.run_active.get() && self.sched.is_quiet() && !self.sched.is_stopped() {
            let latest = self.team.borrow().held().iter().filter_map(|h| h.due).max();
            if let Some(latest) = latest {
                self.clock.advance(latest.0.saturating_sub(self.clock.now().0));
            }
            if self.release_held(true) > 0 && !self.sched.is_quiet() {
                return;
            }
        }
        if self.run_active.get() && self.sched.is_quiet() && !self.sched.is_stopped() {
            self.run_active.set(false);
            let at = self.now();
            let finished = self.team.borrow_mut().finish_run(at);
            if let Err(e) = finished {
                self.halt(e);
                return;
            }
        }
        self.after_change();
    }
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

/// The services a runtime runs on: where tasks run, what time it is, how to
/// wait. Native tests pass a `LocalExecutor`, a `VirtualClock` and `NoSleep`.
#[derive(Clone)]
pub struct Host {
    /// Starts agent tasks.
    pub spawner: Rc<dyn Spawner>,
    /// Tells the time.
    pub clock: Rc<dyn Clock>,
    /// Waits (pacing).
    pub sleeper: Rc<dyn Sleeper>,
}

/// A running team: the handle the UI and tests hold.
#[derive(Clone)]
pub struct Runtime {
    inner: Rc<Inner>,
}

impl Runtime {
    /// A team with only the lead, whose task is started and parked, waiting
    /// for a prompt.
    pub fn new(config: RuntimeConfig, model: Rc<dyn Model>, host: Host) -> Self {
        let mut team = Team::new(&config.team_name, config.seed);
        team.set_faults(config.faults.clone());
        let inner = Rc::new_cyclic(|weak| Inner {
            team: RefCell::new(team),
            workspace: RefCell::new(Workspace::new()),
            sched: Scheduler::new(config.mode, config.seed),
            costs: RefCell::new(SeededIds::new(config.seed.rotate_left(17) ^ 0xC057)),
            pace_ms: Cell::new(config.pace_ms),
            config,
            model,
            spawner: host.spawner,
            clock: host.clock,
            sleeper: host.sleeper,
            cancel: CancelToken::new(),
            prompts: RefCell::new(VecDeque::new()),
            restarts: RefCell::new(BTreeMap::new()),
            alive: RefCell::new(BTreeSet::new()),
            run_active: Cell::new(false),
            failure: RefCell::new(None),
            tasks: Cell::new(0),
            streaming: RefCell::new(BTreeMap::new()),
            listeners: RefCell::new(Vec::new()),
            self_ref: weak.clone(),
        });
        let lead = AgentName::lead();
        let parked = inner.sched.park(&lead);
        inner.task_started();
        inner.spawner.spawn(Box::pin(agent::lead_task(inner.clone(), parked)));
        Runtime { inner }
    }

    /// Starts (or continues) a run with a user prompt for the lead.
    pub fn submit_prompt(&self, prompt: &str) -> Result<(), RuntimeError> {
        let prompt = prompt.trim();
        if prompt.is_empty() {
            return Err(RuntimeError::EmptyPrompt);
        }
        self.check_can_run()?;
        let at = self.inner.now();
        self.inner.team.borrow_mut().start_run(prompt, at)?;
        self.inner.run_active.set(true);
        self.inner.prompts.borrow_mut().push_back(prompt.to_string());
        self.inner.wake(&[AgentName::lead()]);
        self.inner.after_change();
        Ok(())
    }

    /// Step mode: releases exactly one waiting event. False when nothing is
    /// waiting or an event is still in progress.
    pub fn step(&self) -> bool {
        let released = self.inner.sched.step();
        self.inner.after_change();
        released
    }

    /// Switches between Live and Step.
    pub fn set_mode(&self, mode: Mode) {
        self.inner.sched.set_mode(mode);
        self.inner.after_change();
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.inner.sched.mode()
    }

    /// Live mode: real milliseconds to wait before each event (0 = none).
    pub fn set_pace(&self, ms: u64) {
        self.inner.pace_ms.set(ms);
    }

    /// Ends every task cleanly: waiting turns end, in-flight model calls are
    /// cancelled, no tool is left half applied (tools run between turns).
    pub fn stop(&self) {
        self.inner.cancel.cancel();
        self.inner.sched.stop();
        self.inner.after_change();
    }

    /// True after `stop`.
    pub fn is_stopped(&self) -> bool {
        self.inner.sched.is_stopped()
    }

    /// How many agent tasks are still alive (zero after a stop has settled).
    pub fn live_tasks(&self) -> usize {
        self.inner.tasks.get()
    }

    /// True while a run is in progress (started and not yet quiet).
    pub fn is_running(&self) -> bool {
        self.inner.run_active.get()
    }

    /// The events waiting to be released, in ticket order.
    pub fn waiting(&self) -> Vec<(AgentName, TurnKind)> {
        self.inner.sched.waiting()
    }

    /// A copy of the trace so far.
    pub fn trace(&self) -> Trace {
        self.inner.team.borrow().trace().clone()
    }

    /// Reads the team (roster, tracker, inboxes, trace) without copying it.
    pub fn with_team<T>(&self, f: impl FnOnce(&Team) -> T) -> T {
        f(&self.inner.team.borrow())
    }

    /// Reads the workspace without copying it.
    pub fn with_workspace<T>(&self, f: impl FnOnce(&Workspace) -> T) -> T {
        f(&self.inner.workspace.borrow())
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
        let id = RequestId::parse(request_id)?;
        let kind = self.inner.team.borrow().request(&id).map(|r| r.kind);
        let kind = kind.ok_or_else(|| RuntimeError::UnknownRequest(id.clone()))?;
        // The team's check, not only the tracker's: a stale answer across a
        // restart is refused before anything is recorded.
        self.inner.team.borrow().check_answer(kind, &id, as_agent, approve)?;
        self.begin_human_run(&format!("by hand: {as_agent} {} request {id}", if approve { "approves" } else { "rejects" }))?;
        let result = self.inner.answer(kind, &id, as_agent, approve, text).map_err(RuntimeError::from);
        self.inner.check_quiet();
        result
    }

    /// A human sends a plain message as any agent.
    pub fn send_as(&self, from: &AgentName, to: &AgentName, content: &str) -> Result<(), RuntimeError> {
        self.inner.team.borrow().check_send(from, to, "message")?;
        self.begin_human_run(&format!("by hand: {from} messages {to}"))?;
        let result = self.inner.send_as(from, to, "message", content).map_err(RuntimeError::from);
        self.inner.check_quiet();
        result
    }

    /// Refuses new work after a stop or a failure, and when a fault rule
    /// cannot run: the plan came in without validation (its delay would
    /// push time past any sensible end), so nothing starts.
    fn check_can_run(&self) -> Result<(), RuntimeError> {
        if let Some(failure) = self.inner.failure.borrow().clone() {
            return Err(failure);
        }
        if self.inner.sched.is_stopped() {
            return Err(RuntimeError::Stopped);
        }
        for (i, rule) in self.inner.config.faults.rules.iter().enumerate() {
            rule.validate().map_err(|source| RuntimeError::BadFaultRule { index: i + 1, source })?;
        }
        Ok(())
    }

    /// Why the runtime stopped itself (the team refused to record an event),
    /// if it did; `None` for a run that is fine or was stopped by `stop`.
    pub fn failure(&self) -> Option<RuntimeError> {
        self.inner.failure.borrow().clone()
    }

    /// Work a human starts while the team is quiet is a run of its own, so
    /// it ends with `RunFinished` and the checker judges it like any run.
    fn begin_human_run(&self, what: &str) -> Result<(), RuntimeError> {
        self.check_can_run()?;
        if !self.inner.run_active.get() {
            let at = self.inner.now();
            self.inner.team.borrow_mut().start_run(what, at)?;
            self.inner.run_active.set(true);
        }
        Ok(())
    }
}
