//! What to explore and within which bounds: the scenario, the faults and
//! policy decisions to try, the depth and state bounds, the strategy, and
//! one worker's `Slice` of a shared search; and the live `Progress` a
//! search reports to its driver.
//!
//! Owns these values and their defaults. It must not search: that is
//! `search`.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::model::scripted::choices::Decisions;
use crate::protocol::file::monitor::PropertySet;
use crate::protocol::file::ProtocolFile;
use crate::protocol::{FaultAction, Rules};

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
    /// Stop once the search's own structures (the visited set and the
    /// states waiting to be expanded, as [`Bound::Memory`] counts them)
    /// would hold more than this many bytes; `None`: no memory bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_memory: Option<u64>,
    /// How to search.
    pub strategy: Strategy,
    /// Worker threads (native only; 0 = every core).
    pub threads: usize,
    /// Symmetry reduction: teammates configured alike are interchangeable.
    pub symmetry: bool,
    /// Partial-order reduction (sleep sets over whose turn comes next,
    /// `search`): a move that commutes with one already explored from the
    /// same state is not explored again after it. Every state is still
    /// visited and every verdict is the same; fewer transitions are run.
    /// Breadth first on one worker only (no slice); off by default here,
    /// on by default on the command line (`--no-reduction`).
    #[serde(default)]
    pub reduction: bool,
    /// Search only this slice of the space (one of several workers), or all
    /// of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice: Option<Slice>,
    /// The protective rules the explored world runs under (all on unless
    /// switched off, as the gallery does to reproduce a failure). Fixed for
    /// a whole search, so not part of any state's hash.
    #[serde(default, skip_serializing_if = "Rules::is_default")]
    pub rules: Rules,
    /// A protocol file's `[[property]]` entries, checked besides the
    /// built-in properties (`protocol::file::monitor`); empty by default,
    /// and then the search is the same as without them. Not serialized:
    /// a worker compiles them from `team` (`ExploreConfig::compile_team_properties`).
    #[serde(skip)]
    pub file_properties: PropertySet,
    /// A protocol file whose own `[team]` is explored instead of the
    /// built-in scenario (`explore::file_team::file_team_run`: its world
    /// under the file, its prompts, fault rules and rules, its replies from
    /// `FileScriptedModel::playing_team`); `None` for a built-in scenario.
    /// Serialized as the file's text (the page sends it to its workers,
    /// which load it again and compile its `[[property]]` entries).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "file_text")]
    pub team: Option<Arc<ProtocolFile>>,
}

/// A protocol file as its text on the wire, loaded again when read.
pub(crate) mod file_text {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serializer};

    use crate::protocol::file::{self, ProtocolFile};

    pub(crate) fn serialize<S: Serializer>(file: &Option<Arc<ProtocolFile>>, to: S) -> Result<S::Ok, S::Error> {
        match file {
            Some(f) => to.serialize_some(&*f.text),
            None => to.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(from: D) -> Result<Option<Arc<ProtocolFile>>, D::Error> {
        let Some(text) = Option::<String>::deserialize(from)? else { return Ok(None) };
        let file = file::load(&text).map_err(|refused| {
            let first = refused.0.first().map_or_else(String::new, |r| format!("line {}: {}", r.line, r.error));
            serde::de::Error::custom(format!("the protocol file does not load: {first}"))
        })?;
        Ok(Some(Arc::new(file)))
    }
}

impl ExploreConfig {
    /// Compiles the `[[property]]` entries of `team`'s file into
    /// `file_properties` (what a worker does with a config it was sent:
    /// the properties travel as the file's text). Nothing without a team.
    pub fn compile_team_properties(&mut self) -> Result<(), crate::protocol::file::monitor::MonitorError> {
        if let Some(file) = &self.team {
            self.file_properties = PropertySet::compile(file)?;
        }
        Ok(())
    }
}

/// The bound that cut a search short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// `max_states`: the distinct states reached it.
    States,
    /// `max_depth`: a run reached it with choices left.
    Depth,
    /// `max_memory`: the search's own structures reached it, counted
    /// deterministically (so a report does not depend on the machine): the
    /// visited set's table (its buckets, each a state's hash and its claim,
    /// and a control byte) and each state waiting to be expanded (its box,
    /// its node and its own link of its path, `Path`), and under
    /// partial-order reduction the sleep sets of the states seen. The agents' loops a state shares with its
    /// neighbours (`Arc`) are not counted, so the process uses more: the
    /// command line reports its peak resident memory besides.
    Memory,
}

impl Bound {
    /// Its name, as the command line's flag says it.
    pub fn flag(self) -> &'static str {
        match self {
            Bound::States => "--max-states",
            Bound::Depth => "--depth",
            Bound::Memory => "--max-memory",
        }
    }

    /// Its name in a JSON report.
    pub fn name(self) -> &'static str {
        match self {
            Bound::States => "states",
            Bound::Depth => "depth",
            Bound::Memory => "memory",
        }
    }
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
    pub(crate) fn deal<T>(self, items: Vec<T>) -> Vec<T> {
        let of = self.of.max(1);
        items.into_iter().enumerate().filter(|(i, _)| i % of == self.index % of).map(|(_, x)| x).collect()
    }

    /// True when `len` states are enough to share.
    pub(crate) fn wide_enough(self, len: usize) -> bool {
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
            max_memory: None,
            strategy: Strategy::Bfs,
            threads: 0,
            symmetry: true,
            reduction: false,
            slice: None,
            rules: Rules::default(),
            file_properties: PropertySet::default(),
            team: None,
        }
    }
}
