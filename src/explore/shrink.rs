//! Shrinking examples to the fewest faults: after the first search of a
//! space with up to K faults, the same space is searched again with fewer
//! faults allowed — once per bound, and only for the bounds some example
//! still needs — and each example is replaced by the one found under the
//! smallest bound that still has it. Breadth first, that is the shortest
//! run with that few faults.
//!
//! Owns which searches are still needed and how their reports combine; it
//! runs nothing. One driver runs the searches itself (`Exploration`, the
//! command line); the page shares each of them among its workers and gives
//! [`Shrinking`] the merged report of each (`ui::explore_job`).

use std::collections::BTreeMap;

use super::{Counterexample, Example, Report};

/// The first search's report and the reports of the fewer-fault searches
/// run so far, by their bound.
#[derive(Debug, Clone, PartialEq)]
pub struct Shrinking<E = Counterexample> {
    main: Report<E>,
    smaller: BTreeMap<usize, Report<E>>,
}

impl<E: Example + Clone> Shrinking<E> {
    /// Starts from the first search's report (of the whole space: merged,
    /// if slices searched it).
    pub fn new(main: Report<E>) -> Shrinking<E> {
        Shrinking { main, smaller: BTreeMap::new() }
    }

    /// The fault bound of the next search needed, if any: for each property
    /// in turn whose example uses faults, the fewer-fault searches are tried
    /// from none up, and the first one not yet run is the answer. `None`
    /// once every example is as small as it gets.
    pub fn next_bound(&self) -> Option<usize> {
        for p in &self.main.properties {
            let Some(faults) = p.example.as_ref().map(E::faults) else { continue };
            for fewer in 0..faults {
                match self.smaller.get(&fewer) {
                    None => return Some(fewer),
                    Some(r) if r.property(p.property).is_some_and(|q| q.example.is_some()) => break,
                    Some(_) => {}
                }
            }
        }
        None
    }

    /// The first search's report, as it was given.
    pub fn first(&self) -> &Report<E> {
        &self.main
    }

    /// Takes in the report of a fewer-fault search of the whole space (its
    /// bound is its configuration's `max_faults`).
    pub fn add(&mut self, report: Report<E>) {
        self.smaller.insert(report.config.max_faults, report);
    }

    /// The first report with each example replaced by the one with the
    /// fewest faults found. Its counters stay the first search's.
    pub fn finish(self) -> Report<E> {
        let Shrinking { mut main, smaller } = self;
        for p in &mut main.properties {
            let Some(faults) = p.example.as_ref().map(E::faults) else { continue };
            let fewer = (0..faults).find_map(|fewer| smaller.get(&fewer)?.property(p.property)?.example.clone());
            if let Some(example) = fewer {
                p.example = Some(example);
            }
        }
        main
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::{explore, ExploreConfig};
    use crate::protocol::FaultAction;

    fn config(max_faults: usize) -> ExploreConfig {
        let mut c = ExploreConfig::new("shutdown");
        c.max_faults = max_faults;
        c.fault_kinds = vec![FaultAction::Drop];
        c.threads = 1;
        c
    }

    /// The first search's report with up to `k` faults, its examples as
    /// found (the explorer's own shrinking undone by searching with a
    /// driver that never runs the fewer-fault searches).
    fn unshrunk(k: usize) -> Report {
        let mut e = crate::explore::Exploration::one_search(&config(k)).unwrap();
        loop {
            if let Some(r) = e.run(1 << 20).unwrap() {
                return r;
            }
        }
    }

    #[test]
    fn only_the_bounds_an_example_still_needs_are_searched_and_each_example_gets_the_fewest_faults() {
        let main = unshrunk(2);
        let mut shrinking = Shrinking::new(main.clone());
        let mut bounds = Vec::new();
        while let Some(bound) = shrinking.next_bound() {
            assert!(!bounds.contains(&bound), "bound {bound} asked for twice");
            bounds.push(bound);
            shrinking.add(unshrunk(bound));
        }
        assert!(!bounds.is_empty() && bounds.iter().all(|b| *b < 2), "{bounds:?}");
        let shrunk = shrinking.finish();
        assert_eq!(shrunk, explore(&config(2)).unwrap(), "the same report as the explorer's own shrinking");
        assert_eq!((shrunk.states, shrunk.distinct_states), (main.states, main.distinct_states), "counters are the first search's");
        for (p, q) in shrunk.properties.iter().zip(&main.properties) {
            let faults = |r: &crate::explore::PropertyReport| r.example.as_ref().map(|e| e.faults);
            assert!(faults(p) <= faults(q), "{}: {:?} then {:?}", p.property.name(), faults(q), faults(p));
        }
    }
}
