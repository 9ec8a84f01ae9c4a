//! What a search has found: the first run breaking each property with
//! each number of faults (`Found`), the states it counted, and the
//! report built from them, each example's run rebuilt (`Traces`,
//! `file_report`). Owns no order of visiting: that is the search's.

use std::collections::BTreeMap;

use super::expansion::Waiting;
use crate::explore::claims::Claims;
use crate::explore::config::Bound;
use crate::explore::node::Path;
use crate::explore::rebuild::rebuild_traces;
use crate::explore::report::quantifier;
use crate::explore::{
    outcome, Choice, Counterexample, ExploreConfig, ExploreError, FileCounterexample, FilePropertyReport, Finding, Node, Property,
    PropertyReport, Report, Slice, Step, Strategy, Verdict,
};
use crate::protocol::file::monitor::FileFinding;
use crate::runtime::scenarios::Scenario;

/// A run that breaks a property, before its trace is rebuilt.
pub(super) struct Example {
    pub(super) finding: Finding,
    pub(super) path: Vec<Choice>,
    pub(super) faults: usize,
}

/// A run that breaks (or shows) a file's property, before its trace is
/// rebuilt.
pub(super) struct FileExample {
    pub(super) finding: FileFinding,
    pub(super) path: Vec<Choice>,
    pub(super) faults: usize,
}
/// What the search has found so far.
pub(super) struct Found {
    /// The first run found that breaks each property with each number of
    /// faults: breadth first, the shortest with that many. The report keeps
    /// the one with the fewest (see [`explore`]).
    pub(super) examples: BTreeMap<(Property, usize), Example>,
    /// The same for the file's properties, by their place in the file.
    pub(super) file_examples: BTreeMap<(usize, usize), FileExample>,
    pub(super) outcomes: BTreeMap<String, u64>,
    pub(super) states: u64,
    pub(super) claims: Claims,
    pub(super) depth: usize,
    pub(super) cut: bool,
    /// The bound that cut the search, the first one reached.
    pub(super) stopped_by: Option<Bound>,
    /// The most bytes the search's own structures held at once
    /// ([`Bound::Memory`] says what is counted).
    pub(super) peak_memory: u64,
}

/// The bytes one state waiting to be expanded holds, as the memory bound
/// counts them: its place in the frontier, its node (the world's own
/// fields, not the agents' loops it shares) and its own link of its path
/// (the rest it shares with the states before it: `Path`).
pub(super) fn state_bytes() -> u64 {
    (std::mem::size_of::<Waiting>() + std::mem::size_of::<Node>() + Path::link_bytes()) as u64
}

impl Found {
    pub(super) fn new(slice: Option<Slice>) -> Self {
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
    pub(super) fn stop(&mut self, bound: Bound) {
        self.cut = true;
        self.stopped_by.get_or_insert(bound);
    }

    /// Weighs the search's structures with `waiting` states waiting to be
    /// expanded and `sleeps` bytes of the
    /// reduction's sleep sets (`Por::bytes`), and cuts the search once they
    /// pass the memory bound.
    pub(super) fn weigh(&mut self, waiting: usize, config: &ExploreConfig, sleeps: u64) {
        let bytes = self.claims.bytes() + waiting as u64 * state_bytes() + sleeps;
        self.peak_memory = self.peak_memory.max(bytes);
        if config.max_memory.is_some_and(|most| bytes > most) {
            self.stop(Bound::Memory);
        }
    }

    /// Counts a state; true if it is new (then its findings are kept).
    pub(super) fn visit(&mut self, hash: u64, node: &Node, step: &Step, config: &ExploreConfig) -> bool {
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
    pub(super) fn dealt(&mut self, total: usize, share: usize) {
        self.claims.dealt(total, share);
        if !self.claims.first() {
            self.outcomes.clear();
            self.states = 0;
        }
        self.claims.share();
    }

    pub(super) fn report(mut self, scenario: Scenario, config: &ExploreConfig, complete: bool) -> Result<Report, ExploreError> {
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
pub(super) fn keep_file_examples(found: BTreeMap<(usize, usize), FileExample>, complete: bool) -> BTreeMap<usize, FileExample> {
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
pub(super) struct Traces {
    /// The run of each distinct path, until its last example takes it.
    pub(super) traces: Vec<Option<crate::protocol::Trace>>,
    /// How many examples have yet to take each path's run.
    pub(super) users: Vec<usize>,
}

impl Traces {
    /// The run of the `i`th distinct path, for one example on it.
    pub(super) fn take(&mut self, i: usize) -> crate::protocol::Trace {
        self.users[i] -= 1;
        let trace = if self.users[i] == 0 { self.traces[i].take() } else { self.traces[i].clone() };
        trace.expect("a path's run is moved out to its last example only")
    }
}

/// The file's properties' verdicts, each with its kept example
/// (`keep_file_examples`) and that example's rebuilt run.
pub(super) fn file_report(
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
