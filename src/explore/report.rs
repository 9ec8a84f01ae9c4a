//! What a search found: each property's `Verdict` and example (a
//! `Counterexample` with its run, or a `PathExample`, its path alone, as
//! the page's workers send it), and the `Report` of the whole search, which
//! merges with the reports of the other slices of one search.
//!
//! Owns the verdicts and how reports merge. It must not search or replay.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Bound, Choice, ExploreConfig, Finding, Property, Quantifier};
use crate::protocol::file::monitor::FileFinding;
use crate::protocol::file::Expect;
use crate::protocol::Trace;

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
/// rebuilds the run and what it found from the path ([`super::replay_finding`])
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

/// A run that breaks a file's property (or shows a `sometimes` one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileCounterexample {
    /// What happened.
    pub finding: FileFinding,
    /// The choices from the start.
    pub path: Vec<Choice>,
    /// Faults it uses.
    pub faults: usize,
    /// The fault bound its path replays under (see [`Counterexample`]).
    pub bound: usize,
    /// The run as a trace.
    pub trace: Trace,
}

impl Example for FileCounterexample {
    fn faults(&self) -> usize {
        self.faults
    }
    fn choices(&self) -> usize {
        self.path.len()
    }
}

/// The quantifier of a file's property.
pub(super) fn quantifier(expect: Expect) -> Quantifier {
    match expect {
        Expect::Always => Quantifier::Always,
        Expect::Sometimes => Quantifier::Sometimes,
        Expect::Eventually => Quantifier::Eventually,
    }
}

/// One file property's result (`ExploreConfig::file_properties`, in the
/// file's order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FilePropertyReport {
    /// Its name in the file.
    pub name: String,
    /// Its quantifier.
    pub quantifier: Quantifier,
    /// The verdict.
    pub verdict: Verdict,
    /// The run with the fewest faults, then the shortest, that breaks it
    /// (or, for `sometimes`, shows it).
    pub example: Option<FileCounterexample>,
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
    /// (no depth, state or memory bound cut the search).
    pub complete: bool,
    /// The bound that cut the search short, if one did (`None` for a
    /// complete search, and for random runs cut by none: those are never
    /// complete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<Bound>,
    /// The most bytes the search's own structures held at once, as the
    /// memory bound counts them ([`Bound::Memory`]): deterministic, a lower
    /// bound on the process's memory.
    #[serde(default)]
    pub peak_memory: u64,
    /// How runs ended, and how many distinct end states each.
    pub outcomes: BTreeMap<String, u64>,
    /// Each property's verdict.
    pub properties: Vec<PropertyReport<E>>,
    /// Each of the file's properties' verdict (none without a file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub file_properties: Vec<FilePropertyReport>,
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
            stopped_by: self.stopped_by,
            peak_memory: self.peak_memory,
            outcomes: self.outcomes,
            properties,
            file_properties: self.file_properties,
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

    /// True when any property fails (a file's included).
    pub fn any_fails(&self) -> bool {
        self.properties.iter().any(|p| p.verdict == Verdict::Fails) || self.file_properties.iter().any(|p| p.verdict == Verdict::Fails)
    }

    /// The chance, at most, that two of the distinct states visited had the
    /// same 64-bit state hash, counted as the birthday bound
    /// `n (n − 1) / 2 · 2⁻⁶⁴` for `n` distinct states. The visited set keeps
    /// each state's hash, not the state (a fingerprint set, as TLC's and
    /// SPIN's hash compaction): two states with one hash are taken for one,
    /// and the second one's moves are not explored. The bound assumes the
    /// hash spreads states evenly over its 2⁶⁴ values.
    pub fn hash_collision_bound(&self) -> f64 {
        let n = self.distinct_states as f64;
        (n * (n - 1.0).max(0.0) / 2.0 / 2f64.powi(64)).min(1.0)
    }

    /// One report from the reports of the slices of one search (see
    /// [`super::Slice`]): counters summed (each worker counts the distinct states
    /// it holds, so when they exchanged claims the sum is about the whole
    /// search's; without the exchange it over-counts where their subtrees
    /// meet), each verdict the whole search's, and each example the best of
    /// the slices'. The wall time is the slowest slice's (they run side by
    /// side). `None` for no reports.
    ///
    /// The best example, as one breadth-first search would choose it:
    /// - **every slice complete:** the fewest faults, then the shortest. The
    ///   shortest run with `f` faults is reached at its depth by some slice
    ///   (one expands each state, the one that reaches it no deeper), and
    ///   each slice reports its fewest-fault run, so the best of those is
    ///   the whole search's.
    /// - **a slice cut short:** the shortest, then the fewest faults, which
    ///   shrinking searches (`Shrinking`) then bring to fewer faults. Taking
    ///   the fewest faults first would keep, say, a slice's 0-fault run of 6
    ///   choices over another's 1-fault run of 3, and never look for the
    ///   0-fault run of 4 the space may hold beyond where the first stopped.
    pub fn merge(parts: Vec<Report<E>>) -> Option<Report<E>> {
        let mut parts = parts.into_iter();
        let mut out = parts.next()?;
        out.config.slice = None;
        let parts: Vec<Report<E>> = parts.collect();
        let complete = out.complete && parts.iter().all(|p| p.complete);
        let key = |e: &E| if complete { (e.faults(), e.choices()) } else { (e.choices(), e.faults()) };
        for part in parts {
            out.states += part.states;
            out.distinct_states += part.distinct_states;
            out.depth = out.depth.max(part.depth);
            out.complete &= part.complete;
            out.stopped_by = out.stopped_by.or(part.stopped_by);
            out.peak_memory = out.peak_memory.max(part.peak_memory);
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
                    (Some(a), Some(b)) => key(b) < key(a),
                    _ => false,
                };
                if better {
                    ours.example = theirs.example;
                }
            }
            for (ours, theirs) in out.file_properties.iter_mut().zip(part.file_properties) {
                let better = match (&ours.example, &theirs.example) {
                    (None, Some(_)) => true,
                    (Some(a), Some(b)) => {
                        let key = |e: &FileCounterexample| if complete { (e.faults, e.path.len()) } else { (e.path.len(), e.faults) };
                        key(b) < key(a)
                    }
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
        for p in &mut out.file_properties {
            p.verdict = Verdict::judge(p.quantifier, p.example.is_some(), out.complete);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::{explore, ExploreConfig, Property};

    /// A slice's report whose `some_request_approved` example uses
    /// `faults` faults and takes `choices` choices.
    fn part((faults, choices): (usize, usize), complete: bool) -> Report<PathExample> {
        let mut r = explore(&ExploreConfig { threads: 1, ..ExploreConfig::new("shutdown") }).unwrap().paths();
        r.complete = complete;
        let p = r.properties.iter_mut().find(|p| p.property == Property::SomeRequestApproved).unwrap();
        let step = p.example.as_ref().unwrap().path[0].clone();
        p.example = Some(PathExample { path: vec![step; choices], faults, bound: 2 });
        r
    }

    #[test]
    fn merged_slices_keep_the_fewest_faults_then_the_shortest_or_if_one_was_cut_short_the_shortest() {
        let merged = |a, b, b_complete| {
            let m = Report::merge(vec![part(a, true), part(b, b_complete)]).unwrap();
            let e = m.property(Property::SomeRequestApproved).and_then(|p| p.example.clone()).unwrap();
            (e.faults, e.path.len(), m.complete)
        };
        assert_eq!(merged((1, 3), (0, 6), true), (0, 6, true));
        assert_eq!(merged((0, 6), (1, 3), true), (0, 6, true));
        assert_eq!(merged((0, 6), (0, 4), true), (0, 4, true));
        assert_eq!(merged((1, 3), (0, 6), false), (1, 3, false));
        assert_eq!(merged((0, 6), (1, 3), false), (1, 3, false));
    }
    #[test]
    fn the_hash_collision_bound_is_the_birthday_bound_of_the_distinct_states() {
        let mut r = explore(&ExploreConfig { threads: 1, ..ExploreConfig::new("shutdown") }).unwrap();
        let with = |r: &mut Report, n: u64| {
            r.distinct_states = n;
            r.hash_collision_bound()
        };
        assert_eq!(with(&mut r, 0), 0.0);
        assert_eq!(with(&mut r, 1), 0.0, "one state has no pair to collide with");
        assert_eq!(with(&mut r, 2), 2f64.powi(-64), "one pair: one chance in 2^64");
        let at_2_32 = with(&mut r, 1 << 32);
        assert!((at_2_32 - 0.5).abs() < 1e-6, "2^32 states: about one half, got {at_2_32}");
        assert_eq!(with(&mut r, u64::MAX), 1.0, "a probability: never above one");
        assert!(with(&mut r, 400_000) < 1e-8 && with(&mut r, 400_000) > 4e-9);
    }
}
