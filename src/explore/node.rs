//! A state of the search and its moves: `Node` (a world, the properties
//! its path has broken, the budget left, the path), the `Choice`s open at
//! it, the forced moves made after each choice, its canonical hash, and the
//! runs rebuilt from a path (`replay_path`, `replay_finding`).
//!
//! Owns what one move does. It must not search (`search`) or judge a whole
//! search (`report`).

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{ExploreConfig, ExploreError, Finding, Monitor, Property};
use crate::explore::file_team::file_team_run;
use crate::model::scripted::choices::Alternative;
use crate::model::scripted::FileScriptedModel;
use crate::protocol::canon::StableHasher;
use crate::protocol::file::monitor::{FileFinding, Monitor as FileMonitor};
use crate::protocol::file::ProtocolFile;
use crate::protocol::{AgentName, Event, FaultAction, RequestId, Trace};
use crate::runtime::scenarios::Scenario;
use crate::runtime::scheduler::TurnKind;
use crate::runtime::world::{World, WorldConfig};

/// One choice on a path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "choice", rename_all = "snake_case")]
pub enum Choice {
    /// Give the baton to this agent's waiting turn, with a fault on the
    /// first message it sends in that turn.
    Turn {
        /// Whose turn.
        agent: AgentName,
        /// The fault, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fault: Option<FaultAction>,
    },
    /// The agent's model gives the `option`-th of its alternatives.
    Reply {
        /// Whose model.
        agent: AgentName,
        /// Which alternative (0: the policy's own).
        option: usize,
        /// The alternative, in words.
        label: String,
    },
    /// A pending request's deadline passes now, whatever the clock says
    /// (its protocol has a `deadline_ms`): it expires unanswered, and its
    /// requester and addressee are told so. One decision off the script.
    Expire {
        /// The request.
        request: RequestId,
    },
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Turn { agent, fault: None } => write!(f, "{agent} goes next"),
            Choice::Turn { agent, fault: Some(a) } => write!(f, "{agent} goes next, and its message is hit by {}", a.name()),
            Choice::Reply { agent, label, .. } => write!(f, "{agent}'s model: {label}"),
            Choice::Expire { request } => write!(f, "request {request} expires unanswered (its deadline passes)"),
        }
    }
}

/// Tools whose turn sends a message (a fault can hit it): the lesson's, and
/// under a file's team (`file`) its protocols' request and answer tools.
fn sends(kind: &TurnKind, file: Option<&ProtocolFile>) -> bool {
    match kind {
        TurnKind::Tool { name } => {
            matches!(name.as_str(), "send_message" | "broadcast" | "shutdown_request" | "shutdown_response" | "plan_approval")
                || file.is_some_and(|f| {
                    f.protocols.iter().any(|p| p.tools.request.name == *name || p.tools.respond.as_ref().is_some_and(|t| t.name == *name))
                })
        }
        _ => false,
    }
}

/// A state of the search: the world, the properties its path has broken,
/// and the budget left.
#[derive(Debug, Clone)]
pub struct Node {
    /// The team and its agents.
    pub world: World,
    /// Boxed: a node small enough for the allocator's fast sizes.
    monitor: Box<Monitor>,
    /// The fold of the file's properties (`ExploreConfig::file_properties`);
    /// `None` without any.
    file: Option<Box<FileMonitor>>,
    /// The sequence number of the first entry the monitor has not seen.
    seen: u64,
    /// Keep the whole trace (a counterexample being rebuilt); otherwise a
    /// state carries no history.
    keep_history: bool,
    /// Prompts of the scenario (or the file's team) not yet given.
    prompts: Vec<Arc<str>>,
    faults_left: usize,
    decisions_left: usize,
    /// The replies open to the agent whose model call is out, computed once
    /// per call and shared by the states that branch from it.
    replies: Option<std::sync::Arc<Vec<Alternative>>>,
    /// Choices from the start (forced moves are not recorded).
    pub path: Path,
}

/// The choices from the start to a state, shared with the states before
/// it: a state adds one link to its parent's path instead of copying it
/// (a team-3 state 13 choices deep held 624 bytes of path copied from its
/// parent; `examples/node_bytes.rs`). Read as a list with `to_vec`.
#[derive(Clone, Default)]
pub struct Path {
    last: Option<Arc<Link>>,
    len: usize,
}

/// One choice of a [`Path`] and the path before it.
struct Link {
    choice: Choice,
    before: Option<Arc<Link>>,
}

impl Path {
    /// How many choices.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True at the start.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `choice` at the end.
    pub fn push(&mut self, choice: Choice) {
        self.last = Some(Arc::new(Link { choice, before: self.last.take() }));
        self.len += 1;
    }

    /// The choices, first to last.
    pub fn to_vec(&self) -> Vec<Choice> {
        let mut out = Vec::with_capacity(self.len);
        let mut at = self.last.as_deref();
        while let Some(link) = at {
            out.push(link.choice.clone());
            at = link.before.as_deref();
        }
        out.reverse();
        out
    }

    /// The bytes one link holds (what a state adds to its parent's path),
    /// as the memory bound counts it.
    pub fn link_bytes() -> usize {
        // The link and its two reference counts.
        std::mem::size_of::<Link>() + 2 * std::mem::size_of::<usize>()
    }
}

impl Drop for Path {
    /// Unlinks one link at a time, so a long path is not dropped by as
    /// many nested calls.
    fn drop(&mut self) {
        let mut at = self.last.take();
        while let Some(link) = at {
            at = match Arc::try_unwrap(link) {
                Ok(mut only) => only.before.take(),
                Err(_) => None,
            };
        }
    }
}

impl std::fmt::Debug for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.to_vec()).finish()
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.to_vec() == other.to_vec()
    }
}

/// What one transition found.
#[derive(Debug, Clone, Default)]
pub struct Step {
    /// Properties broken (or shown) on the way.
    pub findings: Vec<Finding>,
    /// The file's properties broken (or shown) on the way.
    pub file_findings: Vec<FileFinding>,
    /// The run is over: no prompt left, nothing waits.
    pub terminal: bool,
    /// What the move (with its forced moves) touched: the partial-order
    /// reduction's independence (`Footprint::disjoint`).
    pub touched: Footprint,
}

/// What one move touched, read from the events it made: the agents whose
/// state (conversation, inbox, status, gates) it read or changed, the
/// requests it created, answered or looked up, whether it used the
/// workspace, and whether it touched anything the whole team shares (the
/// roster, held messages, the clock's deadlines, a run's start or end, a
/// file property's watched events). Two moves of different agents whose
/// footprints are disjoint commute (`search`'s sleep sets): either order
/// ends in the same state up to the numbering of ids, and every property
/// the explorer checks gives the same verdict on both orders
/// (README, "Partial-order reduction").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Footprint {
    agents: Vec<AgentName>,
    requests: Vec<RequestId>,
    workspace: bool,
    shared: bool,
}

impl Footprint {
    fn agent(&mut self, a: &AgentName) {
        if !self.agents.contains(a) {
            self.agents.push(a.clone());
        }
    }

    fn request(&mut self, r: &RequestId) {
        if !self.requests.contains(r) {
            self.requests.push(r.clone());
        }
    }

    /// A footprint that conflicts with every other (a move the reduction
    /// never reorders).
    pub fn everything() -> Self {
        Footprint { shared: true, ..Footprint::default() }
    }

    /// The bytes its lists hold (the memory bound's count of a sleep set).
    pub fn list_bytes(&self) -> usize {
        self.agents.len() * std::mem::size_of::<AgentName>() + self.requests.len() * std::mem::size_of::<RequestId>()
    }

    /// True when neither touched what the other did: the moves commute.
    pub fn disjoint(&self, other: &Footprint) -> bool {
        let overlap = self.shared
            || other.shared
            || (self.workspace && other.workspace)
            || self.agents.iter().any(|a| other.agents.contains(a))
            || self.requests.iter().any(|r| other.requests.contains(r));
        !overlap
    }

    /// Adds what `entry` touched in `world` (after it), under `config`.
    fn add(&mut self, world: &World, event: &Event, config: &ExploreConfig) {
        let watched = !config.file_properties.is_empty();
        match event {
            Event::MessageSent { message } => {
                self.agent(&message.from);
                self.agent(&message.to);
                if let Some(r) = &message.request_id {
                    self.request(r);
                }
                self.shared |= watched;
            }
            Event::InboxDrained { agent, .. }
            | Event::ModelCalled { agent }
            | Event::ModelReplied { agent, .. }
            | Event::ModelFailed { agent, .. }
            | Event::ToolReturned { agent, .. } => self.agent(agent),
            Event::MemberStatusChanged { name, .. } => self.agent(name),
            Event::ToolCalled { agent, tool, input, .. } => {
                self.agent(agent);
                let file = config.team.as_deref();
                let protocol_tool = file.is_some_and(|f| {
                    f.protocols.iter().any(|p| p.tools.request.name == *tool || p.tools.respond.as_ref().is_some_and(|t| t.name == *tool))
                });
                match tool.as_str() {
                    "read_file" | "write_file" | "edit_file" | "list_files" => self.workspace = true,
                    "send_message" | "shutdown_request" | "shutdown_response" | "plan_approval" => {}
                    _ if protocol_tool => {}
                    _ => self.shared = true,
                }
                for key in ["to", "teammate", "name"] {
                    if let Some(Ok(a)) = input.get(key).and_then(|v| v.as_str()).map(AgentName::parse) {
                        self.agent(&a);
                    }
                }
                if let Some(Ok(r)) = input.get("request_id").and_then(|v| v.as_str()).map(RequestId::parse) {
                    self.request(&r);
                }
            }
            Event::RequestCreated { request_id, request_kind, requester, addressee, .. } => {
                self.request(request_id);
                self.agent(requester);
                self.agent(addressee);
                // A deadline runs on the team's clock, which every move moves.
                let deadline = world.team().protocols().protocol_of(*request_kind).is_some_and(|(_, p)| p.deadline_ms.is_some());
                self.shared |= watched || deadline;
            }
            Event::RequestTransitioned { request_id, by, .. } => {
                self.request(request_id);
                self.agent(by);
                if let Some(r) = world.team().tracker().get(request_id) {
                    self.agent(&r.requester);
                    self.agent(&r.addressee);
                }
                self.shared |= watched;
            }
            Event::RunStarted { .. }
            | Event::RunFinished
            | Event::MemberSpawned { .. }
            | Event::RequestExpired { .. }
            | Event::FaultApplied { .. }
            | Event::MessageReleased { .. }
            | Event::BudgetReached { .. } => self.shared = true,
        }
    }
}

impl Node {
    /// The start of `scenario`: its first prompt given. With `keep_history`
    /// the node and those after it keep their whole trace (to show a run);
    /// otherwise they forget it as they go (to search). With
    /// `ExploreConfig::team`, the start of that file's own team instead
    /// (`file_team_run`: its world, prompts and fault rules; the rules are
    /// the config's): `scenario` is not read.
    pub fn start(scenario: Scenario, config: &ExploreConfig, keep_history: bool) -> Result<(Node, Step), ExploreError> {
        let (mut world, prompts) = match &config.team {
            None => (
                World::explored(WorldConfig {
                    team_name: "default".into(),
                    seed: config.seed,
                    max_rounds: 50,
                    lead_max_rounds: 50,
                    max_tokens: 8000,
                    protocols: None,
                }),
                scenario.prompts.iter().rev().map(|p| Arc::from(*p)).collect(),
            ),
            Some(file) => {
                let run = file_team_run(Arc::clone(file), config.seed).map_err(|e| ExploreError::Refused(e.to_string()))?;
                let mut world = World::explored(run.config);
                world.set_faults(run.faults);
                (world, run.prompts.iter().rev().map(|p| Arc::from(p.as_str())).collect())
            }
        };
        world.set_rules(config.rules);
        // Under a file the monitor's checker knows the file's protocols.
        let monitor = Box::new(match &config.team {
            None => Monitor::new(),
            Some(_) => Monitor::with_protocols(world.team().trace().protocols().clone()),
        });
        let mut node = Node {
            world,
            monitor,
            file: (!config.file_properties.is_empty()).then(|| Box::new(config.file_properties.monitor())),
            seen: 0,
            keep_history,
            prompts,
            faults_left: config.max_faults,
            decisions_left: config.max_decisions,
            replies: None,
            path: Path::default(),
        };
        let mut step = Step::default();
        node.settle(config, &mut step)?;
        Ok((node, step))
    }

    /// The faults this run may still use.
    pub fn faults_left(&self) -> usize {
        self.faults_left
    }

    /// The trace of the path so far (no entries unless the node keeps its
    /// history: then only its numbering and clock go on).
    pub fn trace(&self) -> &Trace {
        self.world.team().trace()
    }

    /// The choices open here (none at the end of a run).
    pub fn choices(&self, config: &ExploreConfig) -> Vec<Choice> {
        if let Some(agent) = self.world.awaiting_model() {
            let replies = self.replies.as_deref().map_or(&[][..], Vec::as_slice);
            // Past the bound on decisions, the agent follows its script.
            let open = if self.decisions_left == 0 { replies.len().min(1) } else { replies.len() };
            return replies[..open]
                .iter()
                .enumerate()
                .map(|(option, alt)| Choice::Reply { agent: agent.clone(), option, label: alt.label.clone() })
                .collect();
        }
        let mut out = Vec::new();
        for (_, agent, kind) in self.world.turns().open_turns() {
            out.push(Choice::Turn { agent: agent.clone(), fault: None });
            if self.faults_left > 0 && sends(kind, config.team.as_deref()) {
                for action in &config.fault_kinds {
                    out.push(Choice::Turn { agent: agent.clone(), fault: Some(action.clone()) });
                }
            }
        }
        // A file's team: each pending request with a deadline may expire
        // before any of those turns (a decision off the script).
        if config.team.is_some() && self.decisions_left > 0 && !out.is_empty() {
            out.extend(self.world.expirable().map(|id| Choice::Expire { request: id.clone() }));
        }
        out
    }

    /// The node after `choice` and every forced move after it.
    pub fn after(&self, choice: &Choice, config: &ExploreConfig) -> Result<(Node, Step), ExploreError> {
        let mut next = Node {
            world: self.world.clone(),
            monitor: self.monitor.clone(),
            file: self.file.clone(),
            seen: self.seen,
            keep_history: self.keep_history,
            prompts: self.prompts.clone(),
            faults_left: self.faults_left,
            decisions_left: self.decisions_left,
            replies: self.replies.clone(),
            path: self.path.clone(),
        };
        let mut step = Step::default();
        // A move touches its mover even when it leaves no event (a turn
        // that finds its inbox empty and yields): its state (ticket,
        // conversation) changed, and a message sent to it meanwhile would
        // have been read.
        // A decision off the script (a reply but the policy's own, an
        // expiry) uses up the run's shared budget of decisions, which
        // decides whether every other agent's next model call offers a
        // choice or follows its script: it commutes with nothing.
        match choice {
            Choice::Turn { agent, .. } => step.touched.agent(agent),
            Choice::Reply { agent, option, .. } => {
                step.touched.agent(agent);
                step.touched.shared |= *option > 0;
            }
            Choice::Expire { .. } => step.touched.shared = true,
        }
        next.apply(choice, config)?;
        next.path.push(choice.clone());
        next.settle(config, &mut step)?;
        Ok((next, step))
    }

    fn bad(&self, choice: &Choice, config: &ExploreConfig) -> ExploreError {
        let open: Vec<String> = self.choices(config).iter().map(ToString::to_string).collect();
        ExploreError::BadPath { step: self.path.len() + 1, choice: choice.to_string(), open: open.join("; ") }
    }

    fn apply(&mut self, choice: &Choice, config: &ExploreConfig) -> Result<(), ExploreError> {
        match choice {
            Choice::Reply { agent, option, .. } => {
                let Some(who) = self.world.awaiting_model() else { return Err(self.bad(choice, config)) };
                let reply = self.replies.as_ref().and_then(|r| r.get(*option)).map(|alt| alt.reply.clone());
                let allowed = who == agent && (*option == 0 || self.decisions_left > 0);
                let Some(reply) = reply.filter(|_| allowed) else { return Err(self.bad(choice, config)) };
                if *option > 0 {
                    self.decisions_left -= 1;
                }
                self.replies = None;
                self.world.model_returned(agent, Ok(reply));
                self.run_on();
            }
            Choice::Turn { agent, fault } => {
                let ticket = self
                    .world
                    .turns()
                    .open_turns()
                    .find(|(_, a, _)| *a == agent)
                    .map(|(id, _, kind)| (id, sends(kind, config.team.as_deref())));
                let Some((ticket, sending)) = ticket else { return Err(self.bad(choice, config)) };
                if fault.is_some() && (self.faults_left == 0 || !sending) {
                    return Err(self.bad(choice, config));
                }
                let before = self.trace().next_seq();
                if let Some(action) = fault {
                    self.world.arm_fault(action.clone());
                }
                self.world.turns.grant(ticket);
                self.world.begin();
                self.run_on();
                let hit = self.world.team().events_since(before).iter().any(|e| matches!(e.event, Event::FaultApplied { rule: None, .. }));
                if hit {
                    self.faults_left -= 1;
                }
            }
            Choice::Expire { request } => {
                let open = config.team.is_some()
                    && self.decisions_left > 0
                    && self.world.awaiting_model().is_none()
                    && self.world.turns().open_turns().next().is_some()
                    && self.world.expirable().any(|id| id == request);
                if !open {
                    return Err(self.bad(choice, config));
                }
                self.world.expire_now(request).map_err(|e| ExploreError::Refused(e.to_string()))?;
                self.decisions_left -= 1;
            }
        }
        Ok(())
    }

    /// Runs the agent holding the baton until it waits for its model or
    /// yields.
    fn run_on(&mut self) {
        // Either way the next move is a choice: the model's reply, or a turn.
        let _ = self.world.proceed();
    }

    /// Feeds new trace entries to the monitor, then makes the forced moves
    /// (one open choice) until a real choice point or the end.
    fn settle(&mut self, config: &ExploreConfig, step: &mut Step) -> Result<(), ExploreError> {
        loop {
            self.observe(config, step);
            if self.replies.is_none() {
                let caller = self.world.awaiting_model().and_then(|a| self.world.model_caller(a));
                let model = config.team.as_ref().map(|f| FileScriptedModel::playing_team(Arc::clone(f)));
                self.replies = caller.map(|agent| super::replies::alternatives(agent, config.decisions, model.as_ref()));
            }
            if self.world.awaiting_model().is_some() || self.world.turns().open_turns().next().is_some() {
                let choices = self.choices(config);
                if choices.len() == 1 {
                    self.apply(&choices[0], config)?;
                    continue;
                }
                return Ok(());
            }
            if self.world.is_running() {
                let seq = self.trace().next_seq().saturating_sub(1);
                step.findings.extend(self.monitor.at_stuck(seq));
                self.file_at_end(config, seq, step);
                step.terminal = true;
                return Ok(());
            }
            match self.prompts.pop() {
                Some(prompt) => self.world.submit_prompt(&prompt).map_err(|e| ExploreError::Refused(e.to_string()))?,
                None => {
                    let seq = self.trace().next_seq().saturating_sub(1);
                    step.findings.extend(self.monitor.at_end(self.world.team(), seq));
                    self.file_at_end(config, seq, step);
                    step.terminal = true;
                    return Ok(());
                }
            }
        }
    }

    /// A run's end for the file's properties: both kinds of terminal state
    /// (nothing left to do, nothing able to move) end a run.
    fn file_at_end(&mut self, config: &ExploreConfig, seq: u64, step: &mut Step) {
        if let Some(file) = &mut self.file {
            step.file_findings.extend(file.at_end(&config.file_properties, seq));
        }
    }

    fn observe(&mut self, config: &ExploreConfig, step: &mut Step) {
        for entry in self.world.team().events_since(self.seen) {
            step.touched.add(&self.world, &entry.event, config);
            step.findings.extend(self.monitor.observe(entry));
            if let Some(file) = &mut self.file {
                step.file_findings.extend(file.observe(&config.file_properties, entry));
            }
            if matches!(entry.event, Event::RunFinished) {
                step.findings.extend(self.monitor.at_quiet(self.world.team(), entry.seq));
            }
        }
        self.seen = self.world.team().trace().next_seq();
        if !self.keep_history {
            self.world.team.forget_all_history();
        }
    }

    /// The state's canonical hash: what decides its future, and what its
    /// path has broken.
    pub fn state_hash(&self, config: &ExploreConfig) -> u64 {
        let mut h = StableHasher::default();
        // A file property naming one teammate tells alike teammates apart.
        self.world.hash_state(config.symmetry && !config.file_properties.names_a_teammate(), &mut h);
        self.monitor.broken().hash(&mut h);
        if let Some(file) = &self.file {
            file.hash_into(&mut h);
        }
        self.prompts.hash(&mut h);
        (self.faults_left, self.decisions_left).hash(&mut h);
        h.finish()
    }
}

impl Node {
    /// The parts of `state_hash`, apart (`World::state_parts`, then what
    /// the node adds: the properties its path has broken, as `monitors`,
    /// and the prompts, faults and decisions left, as `node.rest`): for
    /// finding what multiplies a search's distinct states
    /// (`examples/state_parts.rs`). The parts without a `VIEW_MARK` together
    /// tell apart what `state_hash` tells apart.
    pub fn state_parts(&self, config: &ExploreConfig) -> Vec<(String, u64)> {
        let mut parts = self.world.state_parts(config.symmetry && !config.file_properties.names_a_teammate());
        let mut monitors = StableHasher::default();
        self.monitor.broken().hash(&mut monitors);
        if let Some(file) = &self.file {
            file.hash_into(&mut monitors);
        }
        parts.push(("monitors".to_owned(), monitors.finish()));
        let mut rest = StableHasher::default();
        self.prompts.hash(&mut rest);
        (self.faults_left, self.decisions_left).hash(&mut rest);
        parts.push(("node.rest".to_owned(), rest.finish()));
        parts
    }
}

/// How a run ended, in words: each teammate's status and the requests'.
pub fn outcome(world: &World) -> String {
    let team = world.team();
    let mut parts: Vec<String> = team.roster().members.iter().map(|m| format!("{} {}", m.name, m.status)).collect();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for r in team.tracker().iter() {
        *counts.entry(format!("{} {}", r.kind, r.status)).or_default() += 1;
    }
    parts.extend(counts.into_iter().map(|(k, n)| format!("{n} {k}")));
    if parts.is_empty() {
        "no teammates".into()
    } else {
        parts.join(", ")
    }
}

/// Rebuilds the node a path leads to (a counterexample, a shared link).
pub fn replay_path(scenario: Scenario, config: &ExploreConfig, path: &[Choice]) -> Result<Node, ExploreError> {
    let (mut node, _) = Node::start(scenario, config, true)?;
    for choice in path {
        node = node.after(choice, config)?.0;
    }
    Ok(node)
}

/// Rebuilds a run from its path, with the first finding of `property` on
/// it (where the run breaks or shows the property), for a run opened from a
/// link.
pub fn replay_finding(
    scenario: Scenario,
    config: &ExploreConfig,
    path: &[Choice],
    property: Property,
) -> Result<(Trace, Option<Finding>), ExploreError> {
    let (mut node, step) = Node::start(scenario, config, true)?;
    let mut found = step.findings.into_iter().find(|f| f.property == property);
    for choice in path {
        let (next, step) = node.after(choice, config)?;
        node = next;
        if found.is_none() {
            found = step.findings.into_iter().find(|f| f.property == property);
        }
    }
    Ok((node.trace().clone(), found))
}

/// Rebuilds a run from its path, with the first finding of the file's
/// property number `property` on it (`ExploreConfig::file_properties`): a
/// file property's example replayed.
pub fn replay_file_finding(
    scenario: Scenario,
    config: &ExploreConfig,
    path: &[Choice],
    property: usize,
) -> Result<(Trace, Option<FileFinding>), ExploreError> {
    let (mut node, step) = Node::start(scenario, config, true)?;
    let mut found = step.file_findings.into_iter().find(|f| f.property == property);
    for choice in path {
        let (next, step) = node.after(choice, config)?;
        node = next;
        if found.is_none() {
            found = step.file_findings.into_iter().find(|f| f.property == property);
        }
    }
    Ok((node.trace().clone(), found))
}
