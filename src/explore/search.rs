//! The search itself: breadth first (level by level, each level's states
//! expanded on every core and merged in order, so a report is the same on
//! one core or many), depth first, or seeded random walks. Deterministic;
//! it reads no clock (the driver times it).
//!
//! The search is a value ([`Exploration`]) that runs in steps, in the
//! sans-IO manner: [`Exploration::run`] visits up to a budget of states and
//! returns, so a driver can do other things between steps — a Web Worker
//! yields to its event loop, reads its messages and posts its counters. When
//! several workers share one search (each with its [`Slice`]), each
//! publishes the states it claims ([`Exploration::take_claims`]) and learns
//! the others' ([`Exploration::learn`]), so a state where their subtrees
//! meet is expanded once, by one of them (the rules and why they lose no
//! run: `claims`). [`explore_with`] runs one to the end.
//!
//! Owns the order of visiting states (`expansion`: a state's moves and a
//! level on several threads; `sleep`: the sleep sets; `found`: what the
//! visits found, and the report). What a state is and what
//! moves it has belong to `Node`; who expands a shared state, to `claims`.

use super::claims::Claim;
use super::config::Bound;
use super::shrink::Shrinking;
use super::{ExploreConfig, ExploreError, Node, Progress, Report, Strategy};
use crate::protocol::ids::SeededIds;
use crate::runtime::scenarios::{self, Scenario};

mod expansion;
mod found;
mod sleep;

use expansion::{expand, threads, Child, Waiting};
#[cfg(not(target_arch = "wasm32"))]
use expansion::{expand_level, PER_THREAD};
use found::Found;
use sleep::{expand_reduced, Por, Sleep};

/// How many visits between two progress reports of [`explore_with`].
const PROGRESS_EVERY: u64 = 1024;

/// A breadth-first search between two steps.
struct Bfs {
    /// The level being expanded, each state with its hash.
    level: Vec<Waiting>,
    /// The next state of `level` to expand.
    at: usize,
    /// Children of the states expanded, not yet visited.
    pending: std::vec::IntoIter<Child>,
    /// The next level so far.
    next: Vec<Waiting>,
    depth: usize,
    /// The level's start is done (bound checked, slice dealt).
    begun: bool,
    /// The level's states when it began: held until the level is over, as
    /// the memory bound counts them (whatever the threads).
    level_len: usize,
    sliced: bool,
    /// The partial-order reduction's sleep sets (`ExploreConfig::reduction`).
    por: Option<Box<Por>>,
    /// The sleep set of each child in `pending`, in order (with `por`).
    pending_sleep: std::vec::IntoIter<Sleep>,
}

/// A depth-first search between two steps.
struct Dfs {
    stack: Vec<Waiting>,
    sliced: bool,
}

/// Random walks between two steps.
struct Walks {
    root: Node,
    rng: SeededIds,
    runs_left: u64,
    /// Where the current walk is.
    at: Option<Node>,
}

/// Where a search is.
enum Walk {
    Bfs(Bfs),
    Dfs(Dfs),
    Walks(Box<Walks>),
    /// Over: complete or not.
    Over(bool),
}

/// One search within one configuration's bounds, run in steps.
struct Pass {
    config: ExploreConfig,
    scenario: Scenario,
    number: u32,
    threads: usize,
    found: Found,
    walk: Walk,
}

/// What stands for the scenario when a protocol file's own team is
/// explored (`ExploreConfig::team`): the team's prompts are the file's.
const FILE_TEAM: Scenario = Scenario { id: "file-team", title: "a protocol file's own team", prompts: &[] };

impl Pass {
    fn new(mut config: ExploreConfig, number: u32) -> Result<Pass, ExploreError> {
        // The reduction runs breadth first on one worker's whole space; the
        // report's config says whether it ran.
        config.reduction &= config.strategy == Strategy::Bfs && config.slice.is_none();
        let scenario = match &config.team {
            // A file's own team brings its prompts (`Node::start`).
            Some(_) => FILE_TEAM,
            None => scenarios::explorable(&config.scenario).ok_or_else(|| ExploreError::UnknownScenario(config.scenario.clone()))?,
        };
        let (root, step) = Node::start(scenario, &config, false)?;
        let mut found = Found::new(config.slice);
        let hash = root.state_hash(&config);
        found.visit(hash, &root, &step, &config);
        let walk = match config.strategy {
            Strategy::Bfs if !step.terminal => Walk::Bfs(Bfs {
                level: vec![(hash, Box::new(root))],
                at: 0,
                pending: Vec::new().into_iter(),
                next: Vec::new(),
                depth: 0,
                begun: false,
                level_len: 1,
                sliced: config.slice.is_none(),
                por: config.reduction.then(Box::<Por>::default),
                pending_sleep: Vec::new().into_iter(),
            }),
            Strategy::Dfs if !step.terminal => Walk::Dfs(Dfs { stack: vec![(hash, Box::new(root))], sliced: config.slice.is_none() }),
            Strategy::Simulate { runs, seed } => {
                // Each slice walks its own share of the runs with its own seed.
                let (seed, runs) = match config.slice {
                    Some(slice) if slice.of > 1 => {
                        let share = runs / slice.of as u64 + u64::from((slice.index as u64) < runs % slice.of as u64);
                        (seed.wrapping_add(slice.index as u64), share)
                    }
                    _ => (seed, runs),
                };
                Walk::Walks(Box::new(Walks { root, rng: SeededIds::new(seed ^ 0x51_u64.rotate_left(40)), runs_left: runs, at: None }))
            }
            _ => Walk::Over(true),
        };
        Ok(Pass { threads: threads(&config), config, scenario, number, found, walk })
    }

    /// Visits up to `budget` states (a level shared between threads goes
    /// whole).
    fn run(&mut self, budget: u64) -> Result<(), ExploreError> {
        let Pass { config, found, walk, threads, .. } = self;
        let over = match walk {
            Walk::Bfs(b) => b.run(budget, config, *threads, found)?,
            Walk::Dfs(d) => d.run(budget, config, found)?,
            Walk::Walks(w) => w.run(budget, config, found)?,
            Walk::Over(_) => return Ok(()),
        };
        if let Some(complete) = over {
            *walk = Walk::Over(complete);
        }
        Ok(())
    }

    fn is_over(&self) -> bool {
        matches!(self.walk, Walk::Over(_))
    }

    fn frontier(&self) -> usize {
        match &self.walk {
            Walk::Bfs(b) => b.level.len() - b.at + b.next.len(),
            Walk::Dfs(d) => d.stack.len(),
            Walk::Walks(_) | Walk::Over(_) => 0,
        }
    }

    fn progress(&self) -> Progress {
        // Until a search is dealt out every slice searches the same first
        // levels: the first slice counts them (as its report does), the
        // others nothing yet, so the counters added up are the search's.
        // (Random runs are shared out from the start.)
        let claims = &self.found.claims;
        if !claims.first() && !claims.shared() && matches!(self.config.strategy, Strategy::Bfs | Strategy::Dfs) {
            return Progress { depth: self.found.depth, pass: self.number, ..Progress::default() };
        }
        Progress {
            states: self.found.states,
            distinct_states: claims.held(),
            depth: self.found.depth,
            frontier: self.frontier(),
            pass: self.number,
        }
    }

    fn report(self) -> Result<Report, ExploreError> {
        let complete = matches!(self.walk, Walk::Over(true));
        self.found.report(self.scenario, &self.config, complete)
    }
}

/// `Some(complete)` once the search is over.
type Ran = Option<bool>;

impl Bfs {
    fn run(&mut self, budget: u64, config: &ExploreConfig, threads: usize, found: &mut Found) -> Result<Ran, ExploreError> {
        let mut used = 0;
        while used < budget {
            if let Some((hash, child, step)) = self.pending.next() {
                used += 1;
                let sleep = self.pending_sleep.next().unwrap_or_default();
                // Known already (`expand_level`): only counted.
                let Some(child) = child else {
                    found.states += 1;
                    continue;
                };
                let new = found.visit(hash, &child, &step, config);
                if new && !step.terminal {
                    if let Some(por) = &mut self.por {
                        por.insert(hash, sleep);
                    }
                    self.next.push((hash, child));
                    let sleeps = self.por.as_ref().map_or(0, |por| por.bytes());
                    found.weigh(self.level_len + self.next.len(), config, sleeps);
                } else if !new && !step.terminal && self.por.as_mut().is_some_and(|por| por.revisit(hash, &sleep)) {
                    // Reached again with fewer moves asleep: those moves
                    // are explored from it at the next level.
                    self.next.push((hash, child));
                }
                if found.cut {
                    return Ok(Some(false));
                }
                continue;
            }
            if !self.begun {
                if found.cut {
                    return Ok(Some(false));
                }
                if self.level.is_empty() {
                    return Ok(Some(true));
                }
                if self.depth >= config.max_depth {
                    found.stop(Bound::Depth);
                    return Ok(Some(false));
                }
                if !self.sliced {
                    if let Some(slice) = config.slice.filter(|s| s.wide_enough(self.level.len())) {
                        let total = self.level.len();
                        self.level = slice.deal(std::mem::take(&mut self.level));
                        found.dealt(total, self.level.len());
                        self.sliced = true;
                    }
                }
                self.level_len = self.level.len();
                let sleeps = self.por.as_ref().map_or(0, |por| por.bytes());
                found.weigh(self.level_len, config, sleeps);
                if found.cut {
                    return Ok(Some(false));
                }
                self.begun = true;
                #[cfg(not(target_arch = "wasm32"))]
                if threads > 1 && self.por.is_none() && self.level.len() >= PER_THREAD * threads {
                    let level = std::mem::take(&mut self.level);
                    self.pending = expand_level(level, config, &found.claims, threads)?.into_iter();
                    self.at = 0;
                    continue;
                }
                continue;
            }
            if let Some((hash, node)) = self.level.get(self.at) {
                self.at += 1;
                // Ceded to a worker that reached it no deeper: it expands it.
                if !found.claims.ours(*hash) {
                    continue;
                }
                match &mut self.por {
                    None => {
                        self.pending = expand(node, config)?.into_iter().map(|(h, n, s)| (h, Some(n), s)).collect::<Vec<_>>().into_iter();
                    }
                    Some(por) => {
                        let Some((sleep, only)) = por.take(*hash) else { continue };
                        let (children, sleeps): (Vec<Child>, Vec<Sleep>) = expand_reduced(node, &sleep, only.as_deref(), config)?
                            .into_iter()
                            .map(|(h, n, s, z)| ((h, Some(n), s), z))
                            .unzip();
                        self.pending = children.into_iter();
                        self.pending_sleep = sleeps.into_iter();
                    }
                }
                continue;
            }
            self.level = std::mem::take(&mut self.next);
            self.at = 0;
            self.depth += 1;
            self.begun = false;
        }
        let _ = threads;
        Ok(None)
    }
}

impl Dfs {
    fn run(&mut self, budget: u64, config: &ExploreConfig, found: &mut Found) -> Result<Ran, ExploreError> {
        let mut used = 0;
        while used < budget {
            let Some((hash, node)) = self.stack.pop() else { return Ok(Some(!found.cut)) };
            if found.cut {
                return Ok(Some(false));
            }
            if !self.sliced {
                if let Some(slice) = config.slice.filter(|s| s.wide_enough(self.stack.len() + 1)) {
                    self.stack.push((hash, node));
                    let total = self.stack.len();
                    self.stack = slice.deal(std::mem::take(&mut self.stack));
                    found.dealt(total, self.stack.len());
                    self.sliced = true;
                    continue;
                }
            }
            if node.path.len() >= config.max_depth {
                found.stop(Bound::Depth);
                continue;
            }
            if !found.claims.ours(hash) {
                continue;
            }
            for (hash, child, step) in expand(&node, config)?.into_iter().rev() {
                used += 1;
                if found.visit(hash, &child, &step, config) && !step.terminal {
                    self.stack.push((hash, child));
                }
            }
            found.weigh(self.stack.len(), config, 0);
        }
        Ok(None)
    }
}

impl Walks {
    fn run(&mut self, budget: u64, config: &ExploreConfig, found: &mut Found) -> Result<Ran, ExploreError> {
        let mut used = 0;
        while used < budget {
            let node = match self.at.take() {
                Some(node) => node,
                None if self.runs_left == 0 => return Ok(Some(false)),
                None => {
                    self.runs_left -= 1;
                    // A bound cuts one walk, not the next.
                    found.cut = false;
                    self.root.clone()
                }
            };
            let choices = node.choices(config);
            if choices.is_empty() || found.cut || node.path.len() >= config.max_depth {
                continue;
            }
            let pick = &choices[(self.rng.next_u64() % choices.len() as u64) as usize];
            let (child, step) = node.after(pick, config)?;
            used += 1;
            found.visit(child.state_hash(config), &child, &step, config);
            found.weigh(usize::from(!step.terminal), config, 0);
            if found.stopped_by == Some(Bound::Memory) {
                return Ok(Some(false));
            }
            if !step.terminal {
                self.at = Some(child);
            }
        }
        Ok(None)
    }
}

/// An exploration that runs in steps: the search of `config`'s space, then,
/// if a bound cut it short, the shrinking searches its examples need (see
/// [`explore`]), unless it is [`Exploration::one_search`].
pub struct Exploration {
    config: ExploreConfig,
    pass: Option<Pass>,
    /// Whether it runs the shrinking searches itself.
    shrinks: bool,
    /// The first search's report and the fewer-fault ones', once the first
    /// search is over.
    shrinking: Option<Shrinking>,
    last: Progress,
    /// Claims of a search's last step, made after its last `take_claims`.
    unsent: Vec<Claim>,
}

impl Exploration {
    /// An exploration of `config`, not started.
    pub fn new(config: &ExploreConfig) -> Result<Exploration, ExploreError> {
        let pass = Pass::new(config.clone(), 0)?;
        let last = pass.progress();
        Ok(Exploration { config: config.clone(), pass: Some(pass), shrinks: true, shrinking: None, last, unsent: Vec::new() })
    }

    /// The search of `config`'s space alone: its report keeps the examples
    /// as found, for a driver that shares the shrinking searches among
    /// workers itself ([`Shrinking`]).
    pub fn one_search(config: &ExploreConfig) -> Result<Exploration, ExploreError> {
        Ok(Exploration { shrinks: false, ..Exploration::new(config)? })
    }

    /// Visits up to about `budget` states (on several threads a whole level
    /// may go at once; a step also ends where one search ends and the next
    /// begins, so [`Exploration::progress`] shows each one's last counters);
    /// the report once the exploration is over (once: after
    /// that, `None` and [`Exploration::is_over`]).
    pub fn run(&mut self, budget: u64) -> Result<Option<Report>, ExploreError> {
        if let Some(mut pass) = self.pass.take() {
            pass.run(budget)?;
            self.last = pass.progress();
            if !pass.is_over() {
                self.pass = Some(pass);
                return Ok(None);
            }
            let number = pass.number;
            // The other workers still searching want them as much as any.
            if self.shrinking.is_none() {
                self.unsent = pass.found.claims.take_fresh();
            }
            let report = pass.report()?;
            if !self.shrinks {
                return Ok(Some(report));
            }
            let shrinking = match self.shrinking.take() {
                None => Shrinking::new(report),
                Some(mut shrinking) => {
                    shrinking.add(report);
                    shrinking
                }
            };
            let Some(fewer) = shrinking.next_bound() else {
                return Ok(Some(shrinking.finish()));
            };
            // Shrinking searches cover the whole space even for a slice: a
            // fewer-fault run may lie in another's part.
            let bound = ExploreConfig { max_faults: fewer, slice: None, ..self.config.clone() };
            self.shrinking = Some(shrinking);
            self.pass = Some(Pass::new(bound, number + 1)?);
            // A step ends with a search: its last counters are shown.
            return Ok(None);
        }
        Ok(None)
    }

    /// True once the report has been given.
    pub fn is_over(&self) -> bool {
        self.pass.is_none()
    }

    /// How far it has got.
    pub fn progress(&self) -> Progress {
        self.last
    }

    /// The states this worker claimed since the last call, to hand to the
    /// other workers of the search, up to the step that ended it (none
    /// after the first search, or without a slice).
    pub fn take_claims(&mut self) -> Vec<Claim> {
        match (&mut self.pass, &self.shrinking) {
            (Some(pass), None) => pass.found.claims.take_fresh(),
            _ => std::mem::take(&mut self.unsent),
        }
    }

    /// Takes in the claims of worker `from` (its slice's index).
    pub fn learn(&mut self, from: usize, claims: &[Claim]) {
        if let (Some(pass), None) = (&mut self.pass, &self.shrinking) {
            pass.found.claims.learn(from, claims);
        }
    }
}

/// Explores the scenario `config` names within its bounds and judges every
/// property. Each example (a counterexample, or the witness of a
/// `sometimes` property) is the run with the fewest faults, then the
/// shortest. A complete search finds it itself: faults used only grow along
/// a run, so it keeps the first run with each number of faults, breadth
/// first the shortest with that many, and reports the one with the fewest.
/// A search cut short by a bound may not have reached that run: its
/// examples that use faults are shrunk by searching the space again with
/// fewer faults allowed (once per bound, see [`Shrinking`]). Either way the
/// order is the one [`Report::merge`] keeps for slices.
pub fn explore(config: &ExploreConfig) -> Result<Report, ExploreError> {
    explore_with(config, &mut |_| {})
}

/// [`explore`], telling `on_progress` how far it has got every thousand or
/// so states and at the end (the driver's live counters).
pub fn explore_with(config: &ExploreConfig, on_progress: &mut dyn FnMut(Progress)) -> Result<Report, ExploreError> {
    let mut exploration = Exploration::new(config)?;
    on_progress(exploration.progress());
    loop {
        let report = exploration.run(PROGRESS_EVERY)?;
        on_progress(exploration.progress());
        if let Some(report) = report {
            return Ok(report);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every state a complete search of `config` visits.
    fn visited(config: &ExploreConfig) -> std::collections::HashSet<u64> {
        let mut pass = Pass::new(config.clone(), 0).expect("it starts");
        while !pass.is_over() {
            pass.run(1 << 20).expect("it runs");
        }
        assert!(matches!(pass.walk, Walk::Over(true)), "{}: the search completes", config.scenario);
        pass.found.claims.hashes().collect()
    }

    #[test]
    fn sleep_sets_prune_transitions_never_states() {
        // out-of-order with 1 fault lost 363 of its 12,341 states before a
        // turn that leaves its model call waiting for one of several
        // replies was kept awake: e.g. erin ×5, frank, lead, erin, then
        // lead, frank, erin (erin's last turn, asleep since her turn before
        // lead's, opens a choice of replies the other order never reached).
        let kinds = vec![crate::protocol::FaultAction::Drop, crate::protocol::FaultAction::Duplicate];
        for (scenario, faults) in [("out-of-order", 1), ("reject-then-accept", 1), ("shutdown", 1)] {
            let config = ExploreConfig { max_faults: faults, threads: 1, fault_kinds: kinds.clone(), ..ExploreConfig::new(scenario) };
            let full = visited(&ExploreConfig { reduction: false, ..config.clone() });
            let reduced = visited(&ExploreConfig { reduction: true, ..config.clone() });
            let lost = full.difference(&reduced).count();
            assert_eq!(lost, 0, "{scenario} with {faults} fault(s): the reduced search never reached {lost} of {} states", full.len());
            assert_eq!(reduced.len(), full.len(), "{scenario}: no state the full search does not reach");
        }
    }
}
