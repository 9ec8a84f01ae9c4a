//! The whole team as one sans-IO state machine: the protocol core (`Team`),
//! the workspace, turn order (`Turns`), virtual time and every agent's loop
//! (`agent`), in the manner of quinn-proto and str0m — inputs in (a prompt,
//! a granted turn, a model's reply, a human's answer), outputs polled (the
//! model call an agent waits for). It never awaits and never reads a clock:
//! time is virtual, or passed in for runs on a real model.
//!
//! Two drivers run it: the async runtime (`runtime::Runtime`, for the page
//! and real providers) and the explorer (`crate::explore`), which clones a
//! world at every choice point. Both therefore run the very same rules —
//! drain before each model call, finish the turn before exiting, wake on a
//! message, the plan gate.
//!
//! In Step mode it also gates the trace (`gate`): the page is shown one
//! event per step, and the team takes its next turn only once every event
//! of the last one is out; a paced Live run is gated alike.
//!
//! Deadlines (expiring requests, telling both parties) are `expiry`'s; the
//! run's budget on the world is `metering`'s; what a person does to the
//! team (a prompt, an answer or a message by hand) is `hand`'s; the state
//! hash the explorer compares is `state_hash`'s.
//!
//! Owns running agents. It changes the team only through `protocol::Team`
//! (so every event lands in the trace); it must not draw anything, call a
//! model or sleep.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::hash::Hash;

mod expiry;
mod gate;
mod hand;
mod metering;
mod state_hash;
mod state_parts;

use gate::Gate;
pub use state_parts::VIEW_MARK;

use super::agent::{Agent, Progress};
use super::scheduler::{Mode, Pick, Ticket, TurnKind, Turns};
use super::tools::ToolSet;
use super::workspace::Workspace;
use super::RuntimeError;
use crate::model::{ModelError, ModelRequest, ModelResponse};
use crate::protocol::file::ProtocolFile;
use crate::protocol::ids::SeededIds;
use crate::protocol::{AgentName, Event, FaultAction, MemberStatus, Millis, RequestId, RequestKind, RequestStatus, Team, TeamError};

/// How a run is set up.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldConfig {
    /// The team's name (the roster's `team_name`).
    pub team_name: String,
    /// Fixes request ids, turn order and virtual time.
    pub seed: u64,
    /// Most model calls in one teammate loop (the lesson's 50).
    pub max_rounds: usize,
    /// Most model calls the lead makes for one wake-up.
    pub lead_max_rounds: usize,
    /// `max_tokens` of each model call.
    pub max_tokens: u32,
    /// The protocol file whose protocols the agents' tools offer (the
    /// lesson's when `None`); the team runs them (`Team::with_protocols`),
    /// their gates, effects and deadlines.
    pub protocols: Option<std::sync::Arc<ProtocolFile>>,
}

/// Where the world's time comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeSource {
    /// Each turn moves time by a seeded cost: a run repeats byte for byte.
    Virtual,
    /// The driver passes the wall clock in (`World::set_wall_time`).
    Wall,
}

/// What the driver must do next for the agent holding the baton.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Call the model with the request `World::awaiting_model` shows, and
    /// hand the reply to `World::model_returned`.
    CallModel {
        /// Whose model.
        agent: AgentName,
    },
    /// The agent waits for its next turn (or parked, or ended).
    Yielded,
}

/// The team and its agents, as one value.
#[derive(Debug, Clone)]
pub struct World {
    /// Fixed for the run: shared between clones.
    pub(crate) config: std::sync::Arc<WorldConfig>,
    pub(crate) team: Team,
    pub(crate) workspace: Workspace,
    pub(crate) turns: Turns,
    costs: SeededIds,
    time: Millis,
    source: TimeSource,
    /// Each agent's loop, shared between clones of the world until one
    /// changes it (`Agent::edit`): a transition copies only the agent that
    /// moved.
    pub(crate) agents: BTreeMap<AgentName, std::sync::Arc<Agent>>,
    /// The agents' tools, from the config's protocol file: fixed for the
    /// run, shared between clones.
    pub(crate) tools: std::sync::Arc<ToolSet>,
    /// The agent that began its granted turn and has not yielded it.
    running: Option<AgentName>,
    /// Prompts waiting for the lead, oldest first.
    pub(crate) prompts: VecDeque<String>,
    /// New prompts for teammates restarted while their loop still runs.
    pub(crate) restarts: BTreeMap<AgentName, VecDeque<String>>,
    run_active: bool,
    /// Why the world stopped itself, if it did.
    failure: Option<RuntimeError>,
    /// A fault the explorer armed for the next message sent this turn.
    armed: Option<FaultAction>,
    /// Step mode's (and a paced Live run's) gate on the trace: how many of
    /// its events have been released (the page shows no more), and whether
    /// a `step` waits for the next event to be recorded.
    gate: Gate,
    /// The run's budget and what was spent (`set_budget`); none by default
    /// (and always in the explorer's worlds).
    meter: Option<Box<super::budget::Meter>>,
}

impl World {
    /// A team with only the lead, parked, waiting for a prompt.
    pub fn new(config: WorldConfig, mode: Mode, source: TimeSource) -> Self {
        let turns = Turns::new(mode, config.seed);
        World::with_turns(config, turns, source)
    }

    /// A world whose every turn is granted by the caller (`Pick::Chosen`):
    /// the explorer's.
    pub fn explored(config: WorldConfig) -> Self {
        World::with_turns(config, Turns::with_pick(Mode::Live, Pick::Chosen), TimeSource::Virtual)
    }

    fn with_turns(config: WorldConfig, turns: Turns, source: TimeSource) -> Self {
        let team = match &config.protocols {
            Some(file) => Team::with_protocols(&config.team_name, config.seed, std::sync::Arc::clone(file)),
            None => Team::new(&config.team_name, config.seed),
        };
        let lead = AgentName::lead();
        let tools = match &config.protocols {
            Some(file) => std::sync::Arc::new(ToolSet::new(std::sync::Arc::clone(file))),
            None => std::sync::Arc::clone(ToolSet::lesson()),
        };
        let mut world = World {
            team,
            workspace: Workspace::new(),
            turns,
            costs: SeededIds::new(config.seed.rotate_left(17) ^ 0xC057),
            time: Millis(0),
            source,
            agents: BTreeMap::new(),
            tools,
            running: None,
            prompts: VecDeque::new(),
            restarts: BTreeMap::new(),
            run_active: false,
            failure: None,
            armed: None,
            gate: Gate::default(),
            meter: None,
            config: std::sync::Arc::new(config),
        };
        let agent = Agent::lead(world.config.max_tokens, &world.tools);
        world.agents.insert(lead.clone(), std::sync::Arc::new(agent));
        world.turns.park(&lead);
        world
    }

    /// Now, never earlier than the last event recorded: a host clock that
    /// jumps back cannot move the trace backwards.
    pub fn now(&self) -> Millis {
        let last = self.team.trace().last_time();
        self.time.max(last)
    }

    /// Moves virtual time forward (a wall clock ignores this); it stops at
    /// the end of `u64` milliseconds rather than wrapping around.
    pub(crate) fn advance(&mut self, ms: u64) {
        if self.source == TimeSource::Virtual {
            self.time = Millis(self.time.0.saturating_add(ms));
        }
    }

    /// A wall-clock world: the driver's reading of the clock, before each
    /// input. Ignored by a virtual world.
    pub fn set_wall_time(&mut self, now: Millis) {
        if self.source == TimeSource::Wall {
            self.time = self.time.max(now);
        }
    }

    /// Sets the protective rules for the run (`protocol::rules`): the
    /// team's (recorded in the trace) and the loops'. Before the first
    /// prompt; by default every rule is on.
    pub fn set_rules(&mut self, rules: crate::protocol::Rules) {
        self.team.set_rules(rules);
    }

    /// Sets the fault plan every message is passed through from now on.
    pub fn set_faults(&mut self, plan: crate::protocol::FaultPlan) {
        self.team.set_faults(plan);
    }

    /// The team: roster, tracker, inboxes, trace.
    pub fn team(&self) -> &Team {
        &self.team
    }

    /// The files the agents share.
    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// Turn order: what waits, who holds the baton.
    pub fn turns(&self) -> &Turns {
        &self.turns
    }

    /// True while a run is in progress (started and not yet quiet).
    pub fn is_running(&self) -> bool {
        self.run_active
    }

    /// Why the world stopped itself, if it did.
    pub fn failure(&self) -> Option<&RuntimeError> {
        self.failure.as_ref()
    }

    /// How many agent loops are alive (the lead's until a stop, each
    /// teammate's until it leaves its loop).
    pub fn live_agents(&self) -> usize {
        self.agents.values().filter(|a| !a.has_ended()).count()
    }

    /// The agent whose model call is out.
    pub fn awaiting_model(&self) -> Option<&AgentName> {
        let name = self.running.as_ref()?;
        self.agents.get(name)?.awaits_model().then_some(name)
    }

    /// The request of `agent`'s model call: its conversation so far.
    pub fn model_request(&self, agent: &AgentName) -> Option<ModelRequest> {
        self.agents.get(agent).map(|a| a.request())
    }

    /// The length as JSON of `agent`'s model request (`model_request`),
    /// from the remembered lengths of its parts.
    pub fn model_request_chars(&self, agent: &AgentName) -> Option<usize> {
        self.agents.get(agent).map(|a| a.request_chars())
    }

    /// `agent`'s loop, for the explorer to read its model call (system
    /// prompt, shared turns, request length) without copying a request.
    pub(crate) fn model_caller(&self, agent: &AgentName) -> Option<&Agent> {
        self.agents.get(agent).map(|a| &**a)
    }

    /// Each agent's name and whether its loop still runs.
    pub fn loops(&self) -> impl Iterator<Item = (&AgentName, bool)> {
        self.agents.iter().map(|(n, a)| (n, !a.has_ended()))
    }

    /// The explorer: the next message sent in the turn about to run gets
    /// `action` (a fault with no rule). Cleared when the turn yields.
    pub fn arm_fault(&mut self, action: FaultAction) {
        self.armed = Some(action);
    }

    /// Stops the run because the team refused to record what the runtime
    /// did. The first failure is kept (`failure`).
    pub(crate) fn halt(&mut self, error: TeamError) {
        if self.failure.is_none() {
            self.failure = Some(RuntimeError::Halted(error));
        }
        self.run_active = false;
        self.stop();
    }

    /// Ends every agent loop: nothing is granted or recorded afterwards. An
    /// agent waiting on its model ends when the driver hands back the
    /// cancelled call.
    pub fn stop(&mut self) {
        self.turns.stop();
        self.running = None;
        for agent in self.agents.values_mut() {
            if !agent.awaits_model() && !agent.has_ended() {
                Agent::edit(agent).end();
            }
        }
    }

    /// True after `stop` (or a failure).
    pub fn is_stopped(&self) -> bool {
        self.turns.is_stopped()
    }

    /// Records an event that changes no protocol state.
    pub(crate) fn observe(&mut self, event: Event) {
        let at = self.now();
        if let Err(e) = self.team.observe(event, at) {
            self.halt(e);
        }
    }

    /// Begins the granted turn, if one is waiting to begin: moves virtual
    /// time by the turn's cost, releases the delayed messages now due and
    /// expires the requests whose deadline has passed. Returns who holds
    /// the baton now.
    pub fn begin(&mut self) -> Option<AgentName> {
        let Ticket { agent, kind, .. } = self.turns.take_granted()?;
        let jitter = self.costs.next_u64();
        let cost = match kind {
            TurnKind::Deliver => 2 + jitter % 4,
            TurnKind::ModelCall => 1,
            TurnKind::Tool { .. } => 5 + jitter % 30,
        };
        self.advance(cost);
        self.release_held(false);
        self.expire_due();
        self.running = Some(agent.clone());
        self.settle_gate();
        Some(agent)
    }

    /// Runs the agent that began its turn until it needs its model or
    /// yields the turn.
    pub fn proceed(&mut self) -> Next {
        let Some(agent) = self.running.clone() else { return Next::Yielded };
        let next = match self.resume(&agent) {
            Progress::Model => Next::CallModel { agent },
            Progress::Yielded => {
                self.running = None;
                self.armed = None;
                Next::Yielded
            }
        };
        self.settle_gate();
        next
    }

    /// Hands an agent its model's reply (or why there is none). Virtual
    /// time moves by the thinking time; the reply is recorded.
    pub fn model_returned(&mut self, agent: &AgentName, result: Result<ModelResponse, ModelError>) {
        if matches!(result, Err(ModelError::Cancelled)) {
            self.end_agent_quietly(agent);
            return;
        }
        let think = 300 + self.costs.next_u64() % 900;
        self.advance(think);
        let mut result = result;
        match &mut result {
            Ok(reply) => {
                if let Some(meter) = &mut self.meter {
                    // The conversation is still the request's: the reply is not in it yet.
                    let chars = self.agents.get(agent).map_or(0, |a| a.request_chars());
                    meter.record_reply(&reply.usage, chars);
                }
                // The reply's text as a turn has it, without copying the reply.
                let turn = crate::model::Turn { role: crate::model::Role::Assistant, content: std::mem::take(&mut reply.content) };
                let text = turn.text();
                reply.content = turn.content;
                self.observe(Event::ModelReplied {
                    agent: agent.clone(),
                    text,
                    stop_reason: reply.stop_reason.as_str().to_string(),
                    input_tokens: reply.usage.input_tokens,
                    output_tokens: reply.usage.output_tokens,
                    cache_read_tokens: reply.usage.cache_read_tokens,
                    cache_write_tokens: reply.usage.cache_write_tokens,
                    measured: reply.usage.measured,
                });
            }
            Err(e) => self.observe(Event::ModelFailed { agent: agent.clone(), error: e.to_string() }),
        }
        if let Some(a) = self.agents.get_mut(agent) {
            Agent::edit(a).take_reply(result.ok());
        }
        self.settle_gate();
    }

    /// A loop that ends without a word (a stop reached it mid-call).
    fn end_agent_quietly(&mut self, agent: &AgentName) {
        if let Some(a) = self.agents.get_mut(agent) {
            Agent::edit(a).end();
        }
        self.turns.finish(agent);
        if self.running.as_ref() == Some(agent) {
            self.running = None;
        }
    }

    /// Sends a plain message and wakes its recipient.
    pub(crate) fn send_as(&mut self, from: &AgentName, to: &AgentName, msg_type: &str, content: &str) -> Result<(), TeamError> {
        let at = self.now();
        if msg_type == "broadcast" {
            let to = self.with_armed(|t| t.broadcast(from, content, at))?;
            self.wake(&to);
            return Ok(());
        }
        self.with_armed(|t| t.send(from, to, msg_type, content, at))?;
        self.wake(std::slice::from_ref(to));
        Ok(())
    }

    /// Runs a team command with the explorer's armed fault, if any (used
    /// once, by the first message the command sends).
    pub(crate) fn with_armed<T>(&mut self, f: impl FnOnce(&mut Team) -> Result<T, TeamError>) -> Result<T, TeamError> {
        match self.armed.take() {
            None => f(&mut self.team),
            Some(action) => {
                let sent_before = self.team.trace().next_seq();
                self.team.arm_fault(action.clone());
                let out = f(&mut self.team);
                self.team.disarm_fault();
                if out.is_err() || self.team.trace().next_seq() == sent_before {
                    // Nothing was sent: the fault waits for the next message.
                    self.armed = Some(action);
                }
                out
            }
        }
    }

    /// Answers a request as `by` through the protocol path (`text` its
    /// answer's content field) and wakes whoever must react (`answered`).
    pub(crate) fn answer(
        &mut self,
        kind: RequestKind,
        id: &RequestId,
        by: &AgentName,
        approve: bool,
        text: &str,
    ) -> Result<RequestStatus, TeamError> {
        let at = self.now();
        let status = self.with_armed(|t| t.answer(kind, id, by, approve, text, at))?;
        self.answered(id, by);
        Ok(status)
    }

    /// The one wake rule for an answer, whoever gave it (a human's
    /// `answer_as`, a model's tool) and whatever its protocol (the lesson's
    /// or a file's): once `by`'s answer to request `id` is recorded, each
    /// party the answer made exit (an `exit` effect: an approved shutdown)
    /// takes its last turn whatever `wake_on_message` says — not a message
    /// but the end of its loop —, then the requester, to whom the answer
    /// was sent, is woken as any recipient is (`wake`). Nobody else is told.
    pub(crate) fn answered(&mut self, id: &RequestId, by: &AgentName) {
        let Some(requester) = self.team.request(id).map(|r| r.requester.clone()) else { return };
        for party in [&requester, by] {
            if self.team.is_exiting(party) {
                self.turns.unpark(party);
            }
        }
        self.wake(std::slice::from_ref(&requester));
    }

    /// Runs a teammate the team has just spawned: an idle teammate whose
    /// loop still runs gets the new prompt, otherwise a loop starts.
    pub(crate) fn launch_teammate(&mut self, name: &AgentName, role: &str, prompt: &str) {
        if self.agents.get(name).is_some_and(|a| !a.has_ended()) {
            self.restarts.entry(name.clone()).or_default().push_back(prompt.to_string());
            self.wake(std::slice::from_ref(name));
        } else {
            self.agents.insert(name.clone(), std::sync::Arc::new(Agent::teammate(self.config.max_tokens, &self.tools, name, role, prompt)));
            self.turns.enqueue(name, TurnKind::ModelCall);
        }
    }

    /// Gives each parked recipient a delivery turn.
    pub(crate) fn wake(&mut self, names: &[AgentName]) {
        for n in names {
            // With `wake_on_message` off an idle teammate sleeps through
            // whatever arrives (anthropics/claude-code#51556).
            if !self.team.rules().wake_on_message && !n.is_lead() {
                continue;
            }
            self.turns.unpark(n);
        }
    }

    /// A loop left: its turns go, and the run may be over.
    pub(crate) fn agent_ended(&mut self, agent: &AgentName) {
        self.turns.finish(agent);
        self.check_quiet();
    }

    /// Sets a member's status (a no-op when unchanged).
    pub(crate) fn set_status(&mut self, agent: &AgentName, status: MemberStatus) {
        let at = self.now();
        // Refused only for a member already shut down, which the loops never ask.
        let _ = self.team.set_status(agent, status, at);
    }

    /// Releases the messages fault injection holds on the bus: the delayed
    /// ones now due, or (`all`) every one. Wakes their recipients and
    /// returns how many were released.
    fn release_held(&mut self, all: bool) -> usize {
        if self.team.held().is_empty() {
            return 0;
        }
        let before = self.team.held().to_vec();
        let now = self.now();
        let released = if all { self.team.release_all(now) } else { self.team.release_due(now) };
        let released = match released {
            Ok(n) => n,
            Err(e) => {
                self.halt(e);
                return 0;
            }
        };
        if released > 0 {
            let still: BTreeSet<u64> = self.team.held().iter().map(|h| h.seq).collect();
            let mut to: Vec<AgentName> = Vec::new();
            for h in before.iter().filter(|h| !still.contains(&h.seq)) {
                if !to.contains(&h.message.to) {
                    to.push(h.message.to.clone());
                }
            }
            self.wake(&to);
        }
        released
    }

    /// Records the end of a run once nothing is running or waiting. Messages
    /// still held by faults are released first (the clock moves on to the
    /// latest due time), then, in virtual time, requests left unanswered
    /// expire as their deadlines pass (the clock moves on to each); the run
    /// ends only if that wakes nobody.
    pub(crate) fn check_quiet(&mut self) {
        if self.run_active && self.turns.is_quiet() && !self.turns.is_stopped() {
            let latest = self.team.held().iter().filter_map(|h| h.due).max();
            if let Some(latest) = latest {
                self.advance(latest.0.saturating_sub(self.time.0));
            }
            if self.release_held(true) > 0 && !self.turns.is_quiet() {
                return;
            }
            while self.source == TimeSource::Virtual && self.failure.is_none() {
                let Some(deadline) = self.next_deadline() else { break };
                self.advance(deadline.0.saturating_sub(self.time.0));
                if self.expire_due() == 0 || !self.turns.is_quiet() {
                    break;
                }
            }
            if !self.turns.is_quiet() {
                return;
            }
        }
        if self.run_active && self.turns.is_quiet() && !self.turns.is_stopped() {
            self.run_active = false;
            let at = self.now();
            if let Err(e) = self.team.finish_run(at) {
                self.halt(e);
            }
        }
    }
}
