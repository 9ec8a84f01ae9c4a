//! The search itself: breadth first (level by level, each level's states
//! expanded on every core and merged in order, so a report is the same on
//! one core or many), depth first, or seeded random walks. Deterministic;
//! it reads no clock (the driver times it).
//!
//! Owns visiting states and collecting findings; what a state is and what
//! moves it has belong to `Node`.

use std::collections::{BTreeMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::{
    outcome, replay_path, Choice, Counterexample, ExploreConfig, ExploreError, Finding, Node, Progress, Property, PropertyReport, Report,
    Step, Strategy, Verdict,
};
use crate::protocol::ids::SeededIds;
use crate::runtime::scenarios::{self, Scenario};

/// A run that breaks a property, before its trace is rebuilt.
struct Example {
    finding: Finding,
    path: Vec<Choice>,
    faults: usize,
}

/// The visited set's hasher: its keys are already well-mixed 64-bit state
/// hashes, so hashing them again (SipHash, by default) is wasted work.
#[derive(Default)]
struct AsIs(u64);

impl Hasher for AsIs {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed; this covers any other use, byte by byte.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The set of state hashes seen.
type Visited = HashSet<u64, BuildHasherDefault<AsIs>>;

/// How many visits between two progress reports.
const PROGRESS_EVERY: u64 = 1024;

/// A driver's progress callback.
type OnProgress<'a> = &'a mut dyn FnMut(Progress);

/// What the search has found so far.
struct Found<'a> {
    examples: BTreeMap<Property, Example>,
    outcomes: BTreeMap<String, u64>,
    states: u64,
    visited: Visited,
    depth: usize,
    cut: bool,
    pass: u32,
    on_progress: OnProgress<'a>,
}

impl<'a> Found<'a> {
    fn new(pass: u32, on_progress: OnProgress<'a>) -> Self {
        Found {
            examples: BTreeMap::new(),
            outcomes: BTreeMap::new(),
            states: 0,
            visited: Visited::default(),
            depth: 0,
            cut: false,
            pass,
            on_progress,
        }
    }

    /// Tells the driver how far the search has got.
    fn progress(&mut self, frontier: usize) {
        let p = Progress { states: self.states, distinct_states: self.visited.len() as u64, depth: self.depth, frontier, pass: self.pass };
        (self.on_progress)(p);
    }

    /// Reports progress every `PROGRESS_EVERY` visits.
    fn tick(&mut self, frontier: usize) {
        if self.states.is_multiple_of(PROGRESS_EVERY) {
            self.progress(frontier);
        }
    }

    /// Counts a state; true if it is new (then its findings are kept).
    fn visit(&mut self, hash: u64, node: &Node, step: &Step, config: &ExploreConfig) -> bool {
        self.states += 1;
        if !self.visited.insert(hash) {
            return false;
        }
        self.depth = self.depth.max(node.path.len());
        for finding in &step.findings {
            self.examples.entry(finding.property).or_insert_with(|| Example {
                finding: finding.clone(),
                path: node.path.clone(),
                faults: config.max_faults - node.faults_left(),
            });
        }
        if step.terminal {
            *self.outcomes.entry(outcome(&node.world)).or_default() += 1;
        }
        if self.visited.len() >= config.max_states {
            self.cut = true;
        }
        true
    }

    fn report(self, scenario: Scenario, config: &ExploreConfig, complete: bool) -> Result<Report, ExploreError> {
        let mut examples = BTreeMap::new();
        for (property, e) in self.examples {
            // The search forgets history; the run is rebuilt from its path.
            let trace = replay_path(scenario, config, &e.path)?.trace().clone();
            examples.insert(property, Counterexample { finding: e.finding, path: e.path, faults: e.faults, trace });
        }
        let properties = Property::ALL
            .into_iter()
            .map(|property| {
                let example = examples.remove(&property);
                let verdict = Verdict::judge(property.quantifier(), example.is_some(), complete);
                PropertyReport { property, verdict, example }
            })
            .collect();
        Ok(Report {
            config: config.clone(),
            states: self.states,
            distinct_states: self.visited.len() as u64,
            depth: self.depth,
            complete,
            outcomes: self.outcomes,
            properties,
            seconds: 0.0,
            states_per_second: 0.0,
        })
    }
}

/// The states one move leads to, each with its hash and what the move found.
type Expanded = Vec<(u64, Node, Step)>;

/// Every move from `node`, each with its hash.
fn expand(node: &Node, config: &ExploreConfig) -> Result<Expanded, ExploreError> {
    node.choices(config)
        .iter()
        .map(|choice| {
            let (child, step) = node.after(choice, config)?;
            Ok((child.state_hash(config), child, step))
        })
        .collect()
}

/// The fewest states per thread for which a level is shared between
/// threads: below it, starting the threads costs more than they save
/// (measured: a 67-state search ran 2.4 times slower on two threads).
#[cfg(not(target_arch = "wasm32"))]
const PER_THREAD: usize = 32;

/// Expands a level, on `threads` threads when it is large enough; the
/// result is in the level's order whatever the thread count.
fn expand_level(level: &[Node], config: &ExploreConfig, threads: usize) -> Result<Expanded, ExploreError> {
    #[cfg(not(target_arch = "wasm32"))]
    if threads > 1 && level.len() >= PER_THREAD * threads {
        let chunk = level.len().div_ceil(threads);
        let parts: Vec<Result<Expanded, ExploreError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = level
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        let mut out = Vec::new();
                        for node in part {
                            out.extend(expand(node, config)?);
                        }
                        Ok(out)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
        });
        let mut out = Vec::new();
        for part in parts {
            out.extend(part?);
        }
        return Ok(out);
    }
    let _ = threads;
    let mut out = Vec::new();
    for node in level {
        out.extend(expand(node, config)?);
    }
    Ok(out)
}

fn threads(config: &ExploreConfig) -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    if config.threads == 0 {
        return std::thread::available_parallelism().map_or(1, usize::from);
    }
    config.threads.max(1)
}

fn bfs(root: Node, config: &ExploreConfig, found: &mut Found) -> Result<(), ExploreError> {
    let threads = threads(config);
    let mut level = vec![root];
    let mut depth = 0;
    let mut sliced = config.slice.is_none();
    while !level.is_empty() && !found.cut {
        if depth >= config.max_depth {
            found.cut = true;
            break;
        }
        if !sliced {
            if let Some(slice) = config.slice.filter(|s| s.wide_enough(level.len())) {
                level = slice.deal(level);
                sliced = true;
            }
        }
        found.progress(level.len());
        let mut next = Vec::new();
        if threads > 1 {
            for (hash, node, step) in expand_level(&level, config, threads)? {
                if found.visit(hash, &node, &step, config) && !step.terminal {
                    next.push(node);
                }
                found.tick(level.len() + next.len());
                if found.cut {
                    break;
                }
            }
        } else {
            // One thread: expand and visit node by node (the same order), so
            // progress flows during a wide level.
            'level: for node in &level {
                for (hash, child, step) in expand(node, config)? {
                    if found.visit(hash, &child, &step, config) && !step.terminal {
                        next.push(child);
                    }
                    found.tick(level.len() + next.len());
                    if found.cut {
                        break 'level;
                    }
                }
            }
        }
        level = next;
        depth += 1;
    }
    found.progress(0);
    Ok(())
}

fn dfs(root: Node, config: &ExploreConfig, found: &mut Found) -> Result<(), ExploreError> {
    let mut stack = vec![root];
    let mut sliced = config.slice.is_none();
    while let Some(node) = stack.pop() {
        if found.cut {
            break;
        }
        if !sliced {
            if let Some(slice) = config.slice.filter(|s| s.wide_enough(stack.len() + 1)) {
                stack.push(node);
                stack = slice.deal(stack);
                sliced = true;
                continue;
            }
        }
        if node.path.len() >= config.max_depth {
            found.cut = true;
            continue;
        }
        let children = expand(&node, config)?;
        for (hash, child, step) in children.into_iter().rev() {
            if found.visit(hash, &child, &step, config) && !step.terminal {
                stack.push(child);
            }
            found.tick(stack.len());
        }
    }
    found.progress(0);
    Ok(())
}

fn simulate(root: Node, config: &ExploreConfig, runs: u64, seed: u64, found: &mut Found) -> Result<(), ExploreError> {
    // Each slice walks its own share of the runs with its own seed.
    let (seed, runs) = match config.slice {
        Some(slice) if slice.of > 1 => {
            let share = runs / slice.of as u64 + u64::from((slice.index as u64) < runs % slice.of as u64);
            (seed.wrapping_add(slice.index as u64), share)
        }
        _ => (seed, runs),
    };
    let mut rng = SeededIds::new(seed ^ 0x51_u64.rotate_left(40));
    for _ in 0..runs {
        let mut node = root.clone();
        loop {
            let choices = node.choices(config);
            if choices.is_empty() || found.cut {
                break;
            }
            if node.path.len() >= config.max_depth {
                found.cut = true;
                break;
            }
            let pick = &choices[(rng.next_u64() % choices.len() as u64) as usize];
            let (child, step) = node.after(pick, config)?;
            found.visit(child.state_hash(config), &child, &step, config);
            found.tick(0);
            if step.terminal {
                break;
            }
            node = child;
        }
        found.cut = false;
    }
    found.progress(0);
    Ok(())
}

/// Explores the scenario `config` names within its bounds and judges every
/// property. Each example (a counterexample, or the witness of a
/// `sometimes` property) that uses faults is shrunk to the fewest: the whole
/// space is searched again with fewer faults allowed (once per bound, for
/// every property), and the first bound under which the example still
/// exists gives it (breadth first, so the shortest run with that few
/// faults). So every example is the fewest faults first, then the shortest
/// — the order [`Report::merge`] keeps for slices.
pub fn explore(config: &ExploreConfig) -> Result<Report, ExploreError> {
    explore_with(config, &mut |_| {})
}

/// [`explore`], telling `on_progress` how far it has got every thousand or
/// so states and at the end of each level (the driver's live counters; a
/// page's worker posts them to the page).
pub fn explore_with(config: &ExploreConfig, on_progress: &mut dyn FnMut(Progress)) -> Result<Report, ExploreError> {
    let mut report = search(config, 0, on_progress)?;
    // Shrinking searches cover the whole space even for a slice: a fewer-
    // fault run may lie in another slice's part (see `Slice`).
    let mut smaller: BTreeMap<usize, Report> = BTreeMap::new();
    for index in 0..report.properties.len() {
        let Some(faults) = report.properties[index].example.as_ref().map(|e| e.faults) else { continue };
        let property = report.properties[index].property;
        for fewer in 0..faults {
            if !smaller.contains_key(&fewer) {
                let pass = smaller.len() as u32 + 1;
                let bound = ExploreConfig { max_faults: fewer, slice: None, ..config.clone() };
                smaller.insert(fewer, search(&bound, pass, on_progress)?);
            }
            let example = smaller.get(&fewer).and_then(|r| r.property(property)).and_then(|p| p.example.clone());
            if let Some(example) = example {
                report.properties[index].example = Some(example);
                break;
            }
        }
    }
    Ok(report)
}

/// One search within `config`'s bounds.
fn search(config: &ExploreConfig, pass: u32, on_progress: &mut dyn FnMut(Progress)) -> Result<Report, ExploreError> {
    let scenario = scenarios::explorable(&config.scenario).ok_or_else(|| ExploreError::UnknownScenario(config.scenario.clone()))?;
    let (root, step) = Node::start(scenario, config, false)?;
    let mut found = Found::new(pass, on_progress);
    found.visit(root.state_hash(config), &root, &step, config);
    let complete = match config.strategy {
        Strategy::Bfs if !step.terminal => {
            bfs(root, config, &mut found)?;
            !found.cut
        }
        Strategy::Dfs if !step.terminal => {
            dfs(root, config, &mut found)?;
            !found.cut
        }
        Strategy::Simulate { runs, seed } => {
            simulate(root, config, runs, seed, &mut found)?;
            false
        }
        _ => true,
    };
    found.report(scenario, config, complete)
}
