//! The explorer: a model checker for agent teams. It searches the runs a
//! scenario can take — every order in which waiting agents get the baton,
//! every decision the scripted policy may legally make (`model::scripted::
//! choices`), every fault (drop, duplicate, delay, reorder) on any message up
//! to a bound — and judges each run by the properties in `properties`,
//! reporting the shortest run that breaks each one as an ordinary trace.
//!
//! It runs the real rules: each state is a `runtime::world::World` (the
//! protocol core and the sans-IO agent loops the live runtime drives),
//! cloned at every choice point. States are deduplicated by a hash of what
//! decides their future (team state, agent loops, turns; not the trace or
//! the clock), plus the properties the path has already broken.
//!
//! Owns search and reporting. It must not draw anything or call a real
//! model; the page's panel and the `explore` binary are its drivers.

mod claims;
pub mod detail;
pub mod fork;
pub mod gallery;
pub mod properties;
mod search;
pub mod shrink;

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

pub use claims::Claim;
pub use detail::Detail;
pub use properties::{Finding, Monitor, Property, Quantifier};
pub use search::{explore, explore_with, Exploration};
pub use shrink::Shrinking;

use crate::model::scripted::choices::{Alternative, Decisions};
use crate::protocol::canon::StableHasher;
use crate::protocol::{AgentName, Event, FaultAction, Rules, Trace};
use crate::runtime::scenarios::Scenario;
use crate::runtime::scheduler::TurnKind;
use crate::runtime::world::{World, WorldConfig};

/// Why an exploration could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExploreError {
    /// No scenario has this id.
    #[error("no scenario '{0}'; try --list")]
    UnknownScenario(String),
    /// A path names a choice that is not open at its state.
    #[error("step {step} of the path cannot be taken: {choice} is not one of the open choices ({open})")]
    BadPath {
        /// The step, from 1.
        step: usize,
        /// The choice, in words.
        choice: String,
        /// What was open there.
        open: String,
    },
    /// The world refused a prompt of the scenario.
    #[error("the scenario's prompt was refused: {0}")]
    Refused(String),
    /// A recorded run that no path of the explorer reproduces.
    #[error("this run cannot be forked: from event #{seq} on (choice {step}) it is not a run of its scenario on the scripted model with no fault rules and nobody's hand in it")]
    Unforkable {
        /// The choice where the paths part, from 1.
        step: usize,
        /// The first recorded entry not reproduced.
        seq: u64,
    },
}

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Breadth first: each counterexample is a shortest one.
    Bfs,
    /// Depth first: less memory, any counterexample.
    Dfs,
    /// Seeded random walks, for spaces too large to exhaust.
    Simulate {
        /// How many walks.
        runs: u64,
        /// Seeds the walks.
        seed: u64,
    },
}

/// What to explore and within which bounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExploreConfig {
    /// The scenario's id (`runtime::scenarios`).
    pub scenario: String,
    /// Fixes request ids (the world's seed).
    pub seed: u64,
    /// At most this many faults per run.
    pub max_faults: usize,
    /// The faults to try on a message.
    pub fault_kinds: Vec<FaultAction>,
    /// The policy decisions to try.
    pub decisions: Decisions,
    /// At most this many decisions per run that differ from the script.
    pub max_decisions: usize,
    /// At most this many choices per run.
    pub max_depth: usize,
    /// Stop after this many distinct states.
    pub max_states: usize,
    /// How to search.
    pub strategy: Strategy,
    /// Worker threads (native only; 0 = every core).
    pub threads: usize,
    /// Symmetry reduction: teammates configured alike are interchangeable.
    pub symmetry: bool,
    /// Search only this slice of the space (one of several workers), or all
    /// of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice: Option<Slice>,
    /// The protective rules the explored world runs under (all on unless
    /// switched off, as the gallery does to reproduce a failure). Fixed for
    /// a whole search, so not part of any state's hash.
    #[serde(default, skip_serializing_if = "Rules::is_default")]
    pub rules: Rules,
}

/// One worker's share of a search: the states of the first level wide
/// enough to share (at least four per worker, so each gets several
/// subtrees) are dealt out in turn, and worker `index` of `of` explores those
/// at positions `index`, `index + of`, … and what lies below them. Deterministic: every worker computes the same
/// level. Subtrees meet again: workers that exchange their claims
/// ([`Exploration::take_claims`], [`Exploration::learn`]) expand each state
/// where they meet once, by one of them; without that exchange each expands
/// it, and their distinct states overlap. Either way each shortest
/// counterexample is the shortest of the workers' (see `claims`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slice {
    /// This worker's index, from 0.
    pub index: usize,
    /// How many workers share the search.
    pub of: usize,
}

impl Slice {
    /// Keeps this slice's share of `items`.
    fn deal<T>(self, items: Vec<T>) -> Vec<T> {
        let of = self.of.max(1);
        items.into_iter().enumerate().filter(|(i, _)| i % of == self.index % of).map(|(_, x)| x).collect()
    }

    /// True when `len` states are enough to share.
    fn wide_enough(self, len: usize) -> bool {
        self.of <= 1 || len >= 4 * self.of
    }
}

/// How far a search has got: the live counters of a driver (the page's
/// Explore panel, the command line's `--progress`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Transitions taken so far (states visited, duplicates included).
    pub states: u64,
    /// Distinct states so far.
    pub distinct_states: u64,
    /// The deepest path so far, in choices.
    pub depth: usize,
    /// States waiting to be expanded.
    pub frontier: usize,
    /// Which search: 0 for the first, then one per shrinking search.
    pub pass: u32,
}

impl ExploreConfig {
    /// The defaults for `scenario`: BFS, no faults, every core.
    pub fn new(scenario: &str) -> Self {
        ExploreConfig {
            scenario: scenario.to_string(),
            seed: 2026,
            max_faults: 0,
            fault_kinds: vec![FaultAction::Drop, FaultAction::Duplicate, FaultAction::Delay { ms: 1_000 }, FaultAction::Reorder],
            decisions: Decisions::default(),
            max_decisions: 2,
            max_depth: 200,
            max_states: 2_000_000,
            strategy: Strategy::Bfs,
            threads: 0,
            symmetry: true,
            slice: None,
            rules: Rules::default(),
        }
    }
}

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
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Turn { agent, fault: None } => write!(f, "{agent} goes next"),
            Choice::Turn { agent, fault: Some(a) } => write!(f, "{agent} goes next, and its message is hit by {}", a.name()),
            Choice::Reply { agent, label, .. } => write!(f, "{agent}'s model: {label}"),
        }
    }
}

/// Tools whose turn sends a message (a fault can hit it).
fn sends(kind: &TurnKind) -> bool {
    match kind {
        TurnKind::Tool { name } => {
            matches!(name.as_str(), "send_message" | "broadcast" | "shutdown_request" | "shutdown_response" | "plan_approval")
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
    /// The sequence number of the first entry the monitor has not seen.
    seen: u64,
    /// Keep the whole trace (a counterexample being rebuilt); otherwise a
    /// state carries no history.
    keep_history: bool,
    /// Prompts of the scenario not yet given.
    prompts: Vec<&'static str>,
    faults_left: usize,
    decisions_left: usize,
    /// The replies open to the agent whose model call is out, computed once
    /// per call and shared by the states that branch from it.
    replies: Option<std::sync::Arc<Vec<Alternative>>>,
    /// Choices from the start (forced moves are not recorded).
    pub path: Vec<Choice>,
}

/// What one transition found.
#[derive(Debug, Clone, Default)]
pub struct Step {
    /// Properties broken (or shown) on the way.
    pub findings: Vec<Finding>,
    /// The run is over: no prompt left, nothing waits.
    pub terminal: bool,
}

impl Node {
    /// The start of `scenario`: its first prompt given. With `keep_history`
    /// the node and those after it keep their whole trace (to show a run);
    /// otherwise they forget it as they go (to search).
    pub fn start(scenario: Scenario, config: &ExploreConfig, keep_history: bool) -> Result<(Node, Step), ExploreError> {
        let mut world = World::explored(WorldConfig {
            team_name: "default".into(),
            seed: config.seed,
            max_rounds: 50,
            lead_max_rounds: 50,
            max_tokens: 8000,
        });
        world.set_rules(config.rules);
        let mut node = Node {
            world,
            monitor: Box::new(Monitor::new()),
            seen: 0,
            keep_history,
            prompts: scenario.prompts.iter().rev().copied().collect(),
            faults_left: config.max_faults,
            decisions_left: config.max_decisions,
            replies: None,
            path: Vec::new(),
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
            if self.faults_left > 0 && sends(kind) {
                for action in &config.fault_kinds {
                    out.push(Choice::Turn { agent: agent.clone(), fault: Some(action.clone()) });
                }
            }
        }
        out
    }

    /// The node after `choice` and every forced move after it.
    pub fn after(&self, choice: &Choice, config: &ExploreConfig) -> Result<(Node, Step), ExploreError> {
        // The path is copied once, with room for the new choice.
        let mut path = Vec::with_capacity(self.path.len() + 1);
        path.extend_from_slice(&self.path);
        let mut next = Node {
            world: self.world.clone(),
            monitor: self.monitor.clone(),
            seen: self.seen,
            keep_history: self.keep_history,
            prompts: self.prompts.clone(),
            faults_left: self.faults_left,
            decisions_left: self.decisions_left,
            replies: self.replies.clone(),
            path,
        };
        let mut step = Step::default();
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
                let ticket = self.world.turns().open_turns().find(|(_, a, _)| *a == agent).map(|(id, _, kind)| (id, sends(kind)));
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
            self.observe(step);
            if self.replies.is_none() {
                self.replies = self.world.awaiting_model().and_then(|a| self.world.model_alternatives(a, config.decisions));
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
                step.terminal = true;
                return Ok(());
            }
            match self.prompts.pop() {
                Some(prompt) => self.world.submit_prompt(prompt).map_err(|e| ExploreError::Refused(e.to_string()))?,
                None => {
                    let seq = self.trace().next_seq().saturating_sub(1);
                    step.findings.extend(self.monitor.at_end(self.world.team(), seq));
                    step.terminal = true;
                    return Ok(());
                }
            }
        }
    }

    fn observe(&mut self, step: &mut Step) {
        for entry in self.world.team().events_since(self.seen) {
            step.findings.extend(self.monitor.observe(entry));
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
        self.world.hash_state(config.symmetry, &mut h);
        self.monitor.broken().hash(&mut h);
        self.prompts.hash(&mut h);
        (self.faults_left, self.decisions_left).hash(&mut h);
        h.finish()
    }
}

/// A property's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// No explored run breaks it (`always`, `eventually`), or some explored
    /// run shows it (`sometimes`).
    Holds,
    /// An explored run breaks it (or, for `sometimes`, none shows it).
    Fails,
    /// The bounds cut the search before a verdict: no counterexample in the
    /// part explored.
    Unknown,
}

impl Verdict {
    /// The verdict on a property with `quantifier`, given whether a run that
    /// breaks it (or, for `sometimes`, shows it) was found and whether the
    /// search was complete.
    pub fn judge(quantifier: Quantifier, example: bool, complete: bool) -> Verdict {
        match (quantifier, example, complete) {
            (Quantifier::Sometimes, true, _) => Verdict::Holds,
            (Quantifier::Sometimes, false, true) => Verdict::Fails,
            (_, true, _) => Verdict::Fails,
            (_, false, true) => Verdict::Holds,
            (_, false, false) => Verdict::Unknown,
        }
    }
}

/// A run that breaks a property (or shows a `sometimes` one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Counterexample {
    /// What happened.
    pub finding: Finding,
    /// The choices from the start.
    pub path: Vec<Choice>,
    /// Faults it uses.
    pub faults: usize,
    /// The fault bound of the search that found it (a shrinking search's,
    /// for a shrunk example). Its path replays under that bound only: where
    /// a fault may still happen, a run stops for a choice.
    pub bound: usize,
    /// The run as a trace: it opens, steps and exports like any run.
    pub trace: Trace,
}

/// What a report needs of an example to keep the best of several (the
/// fewest faults, then the fewest choices) when reports merge or examples
/// shrink.
pub trait Example {
    /// Faults the run uses.
    fn faults(&self) -> usize;
    /// Choices the run takes from the start.
    fn choices(&self) -> usize;
}

impl Example for Counterexample {
    fn faults(&self) -> usize {
        self.faults
    }
    fn choices(&self) -> usize {
        self.path.len()
    }
}

/// An example as its path alone: what a Web Worker sends the page, which
/// rebuilds the run and what it found from the path ([`replay_finding`])
/// when it opens one. So the page reads no trace or finding while a search
/// runs, and its code reads none from a worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathExample {
    /// The choices from the start.
    pub path: Vec<Choice>,
    /// Faults it uses.
    pub faults: usize,
    /// The fault bound its path replays under (see [`Counterexample`]).
    pub bound: usize,
}

impl Example for PathExample {
    fn faults(&self) -> usize {
        self.faults
    }
    fn choices(&self) -> usize {
        self.path.len()
    }
}

impl From<Counterexample> for PathExample {
    fn from(c: Counterexample) -> Self {
        PathExample { path: c.path, faults: c.faults, bound: c.bound }
    }
}

/// One property's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PropertyReport<E = Counterexample> {
    /// Which.
    pub property: Property,
    /// The verdict.
    pub verdict: Verdict,
    /// The shortest run found that breaks it (or the witness that shows a
    /// `sometimes` property).
    pub example: Option<E>,
}

/// What an exploration found; each example a [`Counterexample`] (a whole
/// run), or a [`PathExample`] as a worker sends it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report<E = Counterexample> {
    /// What was explored.
    pub config: ExploreConfig,
    /// Transitions taken (states visited, duplicates included).
    pub states: u64,
    /// Distinct states.
    pub distinct_states: u64,
    /// The longest path, in choices.
    pub depth: usize,
    /// True when every reachable state within the fault bound was explored
    /// (no depth or state bound cut the search).
    pub complete: bool,
    /// How runs ended, and how many distinct end states each.
    pub outcomes: BTreeMap<String, u64>,
    /// Each property's verdict.
    pub properties: Vec<PropertyReport<E>>,
    /// Wall time (filled in by the driver; the search reads no clock).
    pub seconds: f64,
    /// `states / seconds`.
    pub states_per_second: f64,
}

impl Report {
    /// The report with each example as its path alone.
    pub fn paths(self) -> Report<PathExample> {
        let properties = self
            .properties
            .into_iter()
            .map(|p| PropertyReport { property: p.property, verdict: p.verdict, example: p.example.map(PathExample::from) })
            .collect();
        Report {
            config: self.config,
            states: self.states,
            distinct_states: self.distinct_states,
            depth: self.depth,
            complete: self.complete,
            outcomes: self.outcomes,
            properties,
            seconds: self.seconds,
            states_per_second: self.states_per_second,
        }
    }
}

impl<E: Example> Report<E> {
    /// The property's report.
    pub fn property(&self, p: Property) -> Option<&PropertyReport<E>> {
        self.properties.iter().find(|r| r.property == p)
    }

    /// True when any property fails.
    pub fn any_fails(&self) -> bool {
        self.properties.iter().any(|p| p.verdict == Verdict::Fails)
    }

    /// One report from the reports of the slices of one search (see
    /// [`Slice`]): counters summed (each worker counts the distinct states
    /// it holds, so when they exchanged claims the sum is about the whole
    /// search's; without the exchange it over-counts where their subtrees
    /// meet), each verdict the whole search's, and each example the one with
    /// the shortest path, then the fewest faults. The wall time is the
    /// slowest slice's (they run side by side). `None` for no reports.
    ///
    /// Shortest first, as one breadth-first search finds it: each slice's
    /// example is the shortest in its part, whatever its faults, so the
    /// shortest of them is the whole search's, and shrinking it to fewer
    /// faults (`Shrinking`) then finds what it would for one search. Taking
    /// the fewest faults first would keep, say, a slice's 0-fault run of 6
    /// choices over another's 1-fault run of 3, and never look for the
    /// 0-fault run of 4 the whole space holds. (Slices that shrink their own
    /// examples first give examples with the fewest faults any run has, so
    /// for them the two orders agree.)
    pub fn merge(parts: Vec<Report<E>>) -> Option<Report<E>> {
        let mut parts = parts.into_iter();
        let mut out = parts.next()?;
        out.config.slice = None;
        for part in parts {
            out.states += part.states;
            out.distinct_states += part.distinct_states;
            out.depth = out.depth.max(part.depth);
            out.complete &= part.complete;
            out.seconds = out.seconds.max(part.seconds);
            for (outcome, n) in part.outcomes {
                *out.outcomes.entry(outcome).or_default() += n;
            }
            for theirs in part.properties {
                let Some(ours) = out.properties.iter_mut().find(|p| p.property == theirs.property) else {
                    out.properties.push(theirs);
                    continue;
                };
                let better = match (&ours.example, &theirs.example) {
                    (None, Some(_)) => true,
                    (Some(a), Some(b)) => (b.choices(), b.faults()) < (a.choices(), a.faults()),
                    _ => false,
                };
                if better {
                    ours.example = theirs.example;
                }
            }
        }
        for p in &mut out.properties {
            p.verdict = Verdict::judge(p.property.quantifier(), p.example.is_some(), out.complete);
        }
        out.states_per_second = if out.seconds > 0.0 { out.states as f64 / out.seconds } else { 0.0 };
        Some(out)
    }

    /// Sets the wall time the driver measured.
    pub fn timed(mut self, seconds: f64) -> Self {
        self.seconds = seconds;
        self.states_per_second = if seconds > 0.0 { self.states as f64 / seconds } else { 0.0 };
        self
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
