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
//! Owns visiting states and collecting findings; what a state is and what
//! moves it has belong to `Node`; who expands a shared state, to `claims`.

use std::collections::BTreeMap;

use super::claims::{ByHash, Claim, Claims};
use super::config::Bound;
use super::node::{Footprint, Path};
use super::rebuild::rebuild_traces;
use super::report::quantifier;
use super::shrink::Shrinking;
use super::{
    outcome, Choice, Counterexample, ExploreConfig, ExploreError, FileCounterexample, FilePropertyReport, Finding, Node, Progress,
    Property, PropertyReport, Report, Slice, Step, Strategy, Verdict,
};
use crate::protocol::file::monitor::FileFinding;
use crate::protocol::ids::SeededIds;
use crate::protocol::AgentName;
use crate::runtime::scenarios::{self, Scenario};

/// A run that breaks a property, before its trace is rebuilt.
struct Example {
    finding: Finding,
    path: Vec<Choice>,
    faults: usize,
}

/// A run that breaks (or shows) a file's property, before its trace is
/// rebuilt.
struct FileExample {
    finding: FileFinding,
    path: Vec<Choice>,
    faults: usize,
}

/// How many visits between two progress reports of [`explore_with`].
const PROGRESS_EVERY: u64 = 1024;

/// What the search has found so far.
struct Found {
    /// The first run found that breaks each property with each number of
    /// faults: breadth first, the shortest with that many. The report keeps
    /// the one with the fewest (see [`explore`]).
    examples: BTreeMap<(Property, usize), Example>,
    /// The same for the file's properties, by their place in the file.
    file_examples: BTreeMap<(usize, usize), FileExample>,
    outcomes: BTreeMap<String, u64>,
    states: u64,
    claims: Claims,
    depth: usize,
    cut: bool,
    /// The bound that cut the search, the first one reached.
    stopped_by: Option<Bound>,
    /// The most bytes the search's own structures held at once
    /// ([`Bound::Memory`] says what is counted).
    peak_memory: u64,
}

/// The bytes one state waiting to be expanded holds, as the memory bound
/// counts them: its place in the frontier, its node (the world's own
/// fields, not the agents' loops it shares) and its own link of its path
/// (the rest it shares with the states before it: `Path`).
fn state_bytes() -> u64 {
    (std::mem::size_of::<Waiting>() + std::mem::size_of::<Node>() + Path::link_bytes()) as u64
}

impl Found {
    fn new(slice: Option<Slice>) -> Self {
        let (me, of) = slice.map_or((0, 1), |s| (s.index, s.of));
        Found {
            examples: BTreeMap::new(),
            file_examples: BTreeMap::new(),
            outcomes: BTreeMap::new(),
            states: 0,
            claims: Claims::new(me, of),
            depth: 0,
            cut: false,
            stopped_by: None,
            peak_memory: 0,
        }
    }

    /// Cuts the search with `bound` (the first bound reached is the one
    /// reported).
    fn stop(&mut self, bound: Bound) {
        self.cut = true;
        self.stopped_by.get_or_insert(bound);
    }

    /// Weighs the search's structures with `waiting` states waiting to be
    /// expanded and `sleeps` bytes of the
    /// reduction's sleep sets (`Por::bytes`), and cuts the search once they
    /// pass the memory bound.
    fn weigh(&mut self, waiting: usize, config: &ExploreConfig, sleeps: u64) {
        let bytes = self.claims.bytes() + waiting as u64 * state_bytes() + sleeps;
        self.peak_memory = self.peak_memory.max(bytes);
        if config.max_memory.is_some_and(|most| bytes > most) {
            self.stop(Bound::Memory);
        }
    }

    /// Counts a state; true if it is new (then its findings are kept).
    fn visit(&mut self, hash: u64, node: &Node, step: &Step, config: &ExploreConfig) -> bool {
        self.states += 1;
        if !self.claims.visit(hash, node.path.len() as u32) {
            return false;
        }
        self.depth = self.depth.max(node.path.len());
        let faults = config.max_faults - node.faults_left();
        for finding in &step.findings {
            self.examples.entry((finding.property, faults)).or_insert_with(|| Example {
                finding: finding.clone(),
                path: node.path.to_vec(),
                faults,
            });
        }
        for finding in &step.file_findings {
            self.file_examples.entry((finding.property, faults)).or_insert_with(|| FileExample {
                finding: finding.clone(),
                path: node.path.to_vec(),
                faults,
            });
        }
        if step.terminal {
            *self.outcomes.entry(outcome(&node.world)).or_default() += 1;
        }
        if self.claims.held() >= config.max_states as u64 {
            self.stop(Bound::States);
        }
        true
    }

    /// The states reached so far were dealt out among the workers: `total`
    /// of them waiting, `share` this worker's. Only worker 0 keeps the
    /// counts of what every worker did before (transitions, terminal
    /// states); from now on claims are shared.
    fn dealt(&mut self, total: usize, share: usize) {
        self.claims.dealt(total, share);
        if !self.claims.first() {
            self.outcomes.clear();
            self.states = 0;
        }
        self.claims.share();
    }

    fn report(mut self, scenario: Scenario, config: &ExploreConfig, complete: bool) -> Result<Report, ExploreError> {
        // A slice whose search never got wide enough to be dealt out
        // searched the whole space, as slice 0 did: only slice 0 counts it
        // (its examples are slice 0's too, and kept).
        let whole_again = config.slice.is_some_and(|s| s.index > 0 && s.of > 1)
            && matches!(config.strategy, Strategy::Bfs | Strategy::Dfs)
            && !self.claims.shared();
        if whole_again {
            self.states = 0;
            self.depth = 0;
            self.outcomes.clear();
        }
        // Each property's example: a complete search's is the one with the
        // fewest faults (the shortest with that few); a search cut short
        // gives the shortest it found, which shrinking searches may then
        // bring to fewer faults (`Shrinking`).
        let mut kept: BTreeMap<Property, Example> = BTreeMap::new();
        for ((property, _), e) in self.examples {
            match kept.get(&property) {
                Some(k) if complete || (k.path.len(), k.faults) <= (e.path.len(), e.faults) => {}
                _ => {
                    kept.insert(property, e);
                }
            }
        }
        let kept_file = keep_file_examples(std::mem::take(&mut self.file_examples), complete);
        // The search forgets history; each example's run is rebuilt from
        // its path, once for every path however many properties it breaks
        // or shows (a request dropped is one left pending that never
        // settles), and each prefix the paths share once (`rebuild`).
        let mut paths: Vec<&[Choice]> = Vec::new();
        let mut users: Vec<usize> = Vec::new();
        // Each example's path, by its place in `paths`: the built-in
        // properties' first, then the file's.
        let mut place: Vec<usize> = Vec::with_capacity(kept.len() + kept_file.len());
        for path in kept.values().map(|e| &e.path).chain(kept_file.values().map(|e| &e.path)) {
            let i = paths.iter().position(|p| *p == path.as_slice()).unwrap_or_else(|| {
                paths.push(path);
                users.push(0);
                paths.len() - 1
            });
            users[i] += 1;
            place.push(i);
        }
        let rebuilt = rebuild_traces(scenario, config, &paths)?;
        let mut traces = Traces { traces: rebuilt.into_iter().map(Some).collect(), users };
        let (place, file_place) = place.split_at(kept.len());
        let file_traces: Vec<_> = file_place.iter().map(|&i| traces.take(i)).collect();
        let mut examples: BTreeMap<Property, Counterexample> = BTreeMap::new();
        for ((property, e), &i) in kept.into_iter().zip(place) {
            let trace = traces.take(i);
            examples
                .insert(property, Counterexample { finding: e.finding, path: e.path, faults: e.faults, bound: config.max_faults, trace });
        }
        let properties = Property::ALL
            .into_iter()
            .map(|property| {
                let example = examples.remove(&property);
                let verdict = Verdict::judge(property.quantifier(), example.is_some(), complete);
                PropertyReport { property, verdict, example }
            })
            .collect();
        let file_properties = file_report(kept_file, file_traces, config, complete);
        Ok(Report {
            config: config.clone(),
            states: self.states,
            distinct_states: if whole_again { 0 } else { self.claims.held() },
            depth: self.depth,
            complete,
            stopped_by: if complete { None } else { self.stopped_by },
            peak_memory: self.peak_memory,
            outcomes: self.outcomes,
            properties,
            file_properties,
            seconds: 0.0,
            states_per_second: 0.0,
        })
    }
}

/// The example kept for each of the file's properties (by its place in
/// the file), chosen as the built-in ones are.
fn keep_file_examples(found: BTreeMap<(usize, usize), FileExample>, complete: bool) -> BTreeMap<usize, FileExample> {
    let mut kept: BTreeMap<usize, FileExample> = BTreeMap::new();
    for ((property, _), e) in found {
        match kept.get(&property) {
            Some(k) if complete || (k.path.len(), k.faults) <= (e.path.len(), e.faults) => {}
            _ => {
                kept.insert(property, e);
            }
        }
    }
    kept
}

/// The rebuilt runs of a report's examples, one per distinct path, each
/// handed out to the examples on that path: moved to the last of them,
/// copied for the others.
struct Traces {
    /// The run of each distinct path, until its last example takes it.
    traces: Vec<Option<crate::protocol::Trace>>,
    /// How many examples have yet to take each path's run.
    users: Vec<usize>,
}

impl Traces {
    /// The run of the `i`th distinct path, for one example on it.
    fn take(&mut self, i: usize) -> crate::protocol::Trace {
        self.users[i] -= 1;
        let trace = if self.users[i] == 0 { self.traces[i].take() } else { self.traces[i].clone() };
        trace.expect("a path's run is moved out to its last example only")
    }
}

/// The file's properties' verdicts, each with its kept example
/// (`keep_file_examples`) and that example's rebuilt run.
fn file_report(
    mut kept: BTreeMap<usize, FileExample>,
    traces: Vec<crate::protocol::Trace>,
    config: &ExploreConfig,
    complete: bool,
) -> Vec<FilePropertyReport> {
    let mut traces: BTreeMap<usize, crate::protocol::Trace> = kept.keys().copied().zip(traces).collect();
    let mut out = Vec::new();
    for (i, p) in config.file_properties.properties().iter().enumerate() {
        let example = kept.remove(&i).map(|e| FileCounterexample {
            finding: e.finding,
            trace: traces.remove(&i).expect("each kept example has its run"),
            path: e.path,
            faults: e.faults,
            bound: config.max_faults,
        });
        let quantifier = quantifier(p.expect);
        let verdict = Verdict::judge(quantifier, example.is_some(), complete);
        out.push(FilePropertyReport { name: p.name.clone(), quantifier, verdict, example });
    }
    out
}

/// The states one move leads to, each with its hash and what the move found.
type Expanded = Vec<(u64, Box<Node>, Step)>;

/// A state one move leads to, waiting to be visited; `None` where it is
/// known already and only to be counted (`expand_level`).
type Child = (u64, Option<Box<Node>>, Step);

/// A state of a level, with its hash, waiting to be expanded.
type Waiting = (u64, Box<Node>);

/// The children of a chunk of a level, in order, or why its expansion
/// stopped.
#[cfg(not(target_arch = "wasm32"))]
type ChunkResult = Result<Vec<Child>, ExploreError>;

/// Every move from `node`, each with its hash.
fn expand(node: &Node, config: &ExploreConfig) -> Result<Expanded, ExploreError> {
    let choices = node.choices(config);
    let mut out = Vec::with_capacity(choices.len());
    for choice in &choices {
        let (child, step) = node.after(choice, config)?;
        // Boxed: a state is moved from list to list, and a world is large.
        out.push((child.state_hash(config), Box::new(child), step));
    }
    Ok(out)
}

/// The fewest states per thread for which a level is shared between
/// threads: below it, sharing costs more than it saves (measured: a
/// 67-state search ran 2.4 times slower on two threads; on shutdown with 2
/// faults, whose levels hold 27 states at most, sharing every level of 4 or
/// more took 2.4 ms instead of 1.9, and helper threads kept for a whole
/// step, woken per level, 2.3 ms; README, "The explorer's speed").
#[cfg(not(target_arch = "wasm32"))]
const PER_THREAD: usize = 32;

/// Expands a level's states on `threads` threads; the result is in the
/// level's order whatever the thread count. The level is cut into many
/// small chunks that the threads take in turn as they finish one (states
/// differ in how many moves they have and how dear each is, so halves of a
/// level would keep one core waiting for the other), and each thread drops
/// the states it expanded, which the level no longer needs. Each thread
/// also drops the children that `claims` (which stand still meanwhile)
/// already hold, and the ones it already returned, keeping only their place
/// (`None`): `Found::visit` would only count them. So they are dropped on
/// the thread that made them, and the level's duplicates neither wait in
/// memory nor travel between cores. States `claims` ceded to another
/// worker are dropped unexpanded.
#[cfg(not(target_arch = "wasm32"))]
fn expand_level(level: Vec<Waiting>, config: &ExploreConfig, claims: &Claims, threads: usize) -> Result<Vec<Child>, ExploreError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads = threads.max(1);
    let size = level.len().div_ceil(threads * CHUNKS_PER_THREAD).max(1);
    let mut chunks: Vec<Mutex<Vec<Waiting>>> = Vec::new();
    let mut level = level.into_iter();
    loop {
        let chunk: Vec<_> = level.by_ref().take(size).collect();
        if chunk.is_empty() {
            break;
        }
        chunks.push(Mutex::new(chunk));
    }
    let next = AtomicUsize::new(0);
    // The chunks one thread expanded, each with its place in the level.
    let work = || {
        let mut returned = std::collections::HashSet::new();
        let mut done: Vec<(usize, ChunkResult)> = Vec::new();
        loop {
            let place = next.fetch_add(1, Ordering::Relaxed);
            let Some(chunk) = chunks.get(place) else { break };
            let part = std::mem::take(&mut *chunk.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
            done.push((place, expand_chunk(part, config, claims, &mut returned)));
        }
        done
    };
    let mut done: Vec<(usize, ChunkResult)> = Vec::new();
    std::thread::scope(|scope| {
        // The calling thread is one of the `threads`.
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        done.extend(work());
        for helper in helpers {
            done.extend(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
    });
    done.sort_unstable_by_key(|(place, _)| *place);
    let mut out = Vec::new();
    for (_, part) in done {
        out.extend(part?);
    }
    Ok(out)
}

/// Expands one chunk of a level (see [`expand_level`]): its children in
/// order, those `claims` hold or `returned` has seen kept only as a place.
#[cfg(not(target_arch = "wasm32"))]
fn expand_chunk(part: Vec<Waiting>, config: &ExploreConfig, claims: &Claims, returned: &mut std::collections::HashSet<u64>) -> ChunkResult {
    let mut out = Vec::new();
    for (hash, node) in part {
        if !claims.ours(hash) {
            continue;
        }
        for (hash, child, step) in expand(&node, config)? {
            if claims.would_claim(hash, child.path.len() as u32) && returned.insert(hash) {
                out.push((hash, Some(child), step));
            } else {
                out.push((hash, None, Step::default()));
            }
        }
    }
    Ok(out)
}

/// How many chunks a level shared between threads is cut into, per thread.
#[cfg(not(target_arch = "wasm32"))]
const CHUNKS_PER_THREAD: usize = 16;

fn threads(config: &ExploreConfig) -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    if config.threads == 0 {
        return std::thread::available_parallelism().map_or(1, usize::from);
    }
    config.threads.max(1)
}

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

/// A sleep set (Godefroid): moves already explored from an earlier state
/// or a sibling, each with its footprint there, that commute with every
/// move made since: exploring one here would only reach, in the other
/// order, states the search reaches anyway. Only turns without a fault go
/// to sleep.
type Sleep = Vec<(Choice, Footprint)>;

/// The sleep sets of the states visited (`ExploreConfig::reduction`).
/// A state reached again with a sleep set that lacks some of its stored
/// one's moves explores those moves then (the stored set becomes the
/// intersection), so state caching loses no state.
#[derive(Default)]
struct Por {
    /// Each state's sleep set, and whether it has been expanded.
    sleeps: ByHash<(Sleep, bool)>,
    /// Moves of an expanded state to explore when it comes up again.
    again: ByHash<Vec<Choice>>,
    /// The bytes the sleep sets' and the moves' own lists hold, kept up
    /// to date as they change (`Por::bytes` adds the tables).
    lists: u64,
}

/// The bytes one move asleep holds, as the memory bound counts them: its
/// place in a sleep set and its footprint's lists.
fn asleep_bytes(sleep: &Sleep) -> u64 {
    sleep.iter().map(|(_, f)| (std::mem::size_of::<(Choice, Footprint)>() + f.list_bytes()) as u64).sum()
}

impl Por {
    /// The bytes the reduction's bookkeeping holds, as the memory bound
    /// counts them (`Bound::Memory`): each table's buckets (an entry and a
    /// control byte), every sleep set's moves with their footprints' lists,
    /// and the moves waiting to be explored again. Choices' and names'
    /// own texts are not counted.
    fn bytes(&self) -> u64 {
        let table = |capacity: usize, entry: usize| (capacity * (entry + 1)) as u64;
        table(self.sleeps.capacity(), std::mem::size_of::<(u64, (Sleep, bool))>())
            + table(self.again.capacity(), std::mem::size_of::<(u64, Vec<Choice>)>())
            + self.lists
    }

    /// Stores the sleep set of a state seen for the first time.
    fn insert(&mut self, hash: u64, sleep: Sleep) {
        self.lists += asleep_bytes(&sleep);
        if let Some((old, _)) = self.sleeps.insert(hash, (sleep, false)) {
            self.lists -= asleep_bytes(&old);
        }
    }

    /// What to explore of state `hash`: its sleep set, and the only moves
    /// to explore when it was expanded before (`None`: nothing to do).
    fn take(&mut self, hash: u64) -> Option<(Sleep, Option<Vec<Choice>>)> {
        let (sleep, expanded) = self.sleeps.entry(hash).or_default();
        if !*expanded {
            *expanded = true;
            return Some((sleep.clone(), None));
        }
        let only = self.again.remove(&hash)?;
        self.lists -= (only.len() * std::mem::size_of::<Choice>()) as u64;
        Some((sleep.clone(), Some(only)))
    }

    /// State `hash`, known already, reached again with sleep set `sleep`:
    /// true when it must be expanded again for the moves its stored sleep
    /// set had and this one lacks.
    fn revisit(&mut self, hash: u64, sleep: &Sleep) -> bool {
        let Some((stored, expanded)) = self.sleeps.get_mut(&hash) else { return false };
        let asleep = |c: &Choice| sleep.iter().any(|(s, _)| s == c);
        let missing: Vec<Choice> = stored.iter().filter(|(c, _)| !asleep(c)).map(|(c, _)| c.clone()).collect();
        if missing.is_empty() {
            return false;
        }
        let before = asleep_bytes(stored);
        stored.retain(|(c, _)| asleep(c));
        self.lists = self.lists - before + asleep_bytes(stored);
        if !*expanded {
            return false;
        }
        self.lists += (missing.len() * std::mem::size_of::<Choice>()) as u64;
        let again = self.again.entry(hash).or_default();
        let first = again.is_empty();
        again.extend(missing);
        first
    }
}

/// A child of a reduced expansion: its hash, node, what the move found,
/// and its sleep set.
type Reduced = (u64, Box<Node>, Step, Sleep);

/// The agent a move belongs to.
fn mover(choice: &Choice) -> Option<&AgentName> {
    match choice {
        Choice::Turn { agent, .. } | Choice::Reply { agent, .. } => Some(agent),
        Choice::Expire { .. } => None,
    }
}

/// The moves of `node` that are not asleep (or only `only`), each child
/// with its hash, what the move found and the child's sleep set: the moves
/// asleep here and the siblings explored before it that commute with the
/// move (another agent's, disjoint footprints). While messages are held
/// (their release waits on the clock every move moves) nothing goes to
/// sleep, nor does a turn the move did not end (its model call waits for
/// one of several replies).
fn expand_reduced(node: &Node, sleep: &Sleep, only: Option<&[Choice]>, config: &ExploreConfig) -> Result<Vec<Reduced>, ExploreError> {
    let quiet = node.world.team().held().is_empty();
    let mut done: Sleep = Vec::new();
    let mut out = Vec::new();
    for choice in node.choices(config) {
        let explore = match only {
            Some(only) => only.contains(&choice),
            None => !sleep.iter().any(|(c, _)| *c == choice),
        };
        if !explore {
            continue;
        }
        let (child, step) = node.after(&choice, config)?;
        let turn = matches!(choice, Choice::Turn { fault: None, .. });
        let mut next = Sleep::new();
        if quiet && (turn || matches!(choice, Choice::Reply { .. })) {
            let me = mover(&choice);
            next = sleep.iter().chain(done.iter()).filter(|(c, f)| mover(c) != me && f.disjoint(&step.touched)).cloned().collect();
        }
        // A turn goes to sleep for its later siblings only when the move
        // ended it: a turn that leaves its model call waiting for one of
        // several replies holds the baton (no other agent moves until the
        // reply) and its footprint does not yet hold what the reply does,
        // so it commutes with nothing known (README, "Partial-order
        // reduction": the states it lost before).
        let whole = child.world.awaiting_model().is_none();
        if turn && quiet && whole {
            done.push((choice, step.touched.clone()));
        }
        out.push((child.state_hash(config), Box::new(child), step, next));
    }
    Ok(out)
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

    fn turn(agent: &str) -> Choice {
        Choice::Turn { agent: AgentName::parse(agent).expect("a name"), fault: None }
    }

    /// The bytes of every list `por` holds, counted anew.
    fn recount(por: &Por) -> u64 {
        let sleeps: u64 = por.sleeps.values().map(|(s, _)| asleep_bytes(s)).sum();
        let again: u64 = por.again.values().map(|v| (v.len() * std::mem::size_of::<Choice>()) as u64).sum();
        sleeps + again
    }

    #[test]
    fn the_sleep_sets_are_weighed_as_they_grow_and_shrink() {
        let mut por = Por::default();
        let empty = por.bytes();
        let asleep: Sleep = vec![(turn("c1"), Footprint::everything()), (turn("c2"), Footprint::default())];
        por.insert(1, asleep.clone());
        por.insert(2, asleep.clone());
        assert_eq!(por.lists, recount(&por));
        assert!(por.bytes() > empty, "sleep sets weigh something");
        // State 1 is expanded, then reached again with c2 awake: c2 is to be
        // explored from it again, and its sleep set shrinks.
        assert!(por.take(1).is_some());
        assert!(por.revisit(1, &vec![asleep[0].clone()]));
        assert_eq!(por.lists, recount(&por));
        let (_, only) = por.take(1).expect("c2 again");
        assert_eq!(only, Some(vec![turn("c2")]));
        assert_eq!(por.lists, recount(&por));
        // A state stored again replaces its sleep set's weight.
        por.insert(2, Vec::new());
        assert_eq!(por.lists, recount(&por));
    }

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
