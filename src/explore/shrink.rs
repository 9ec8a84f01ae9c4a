//! Shrinking examples to the fewest faults when a search could not finish.
//!
//! A complete breadth-first search of a space with up to K faults needs no
//! shrinking: it keeps, for each property, the first run with each number
//! of faults, and reports the one with the fewest (`search`). Faults used
//! only grow along a run, so every run that breaks a property with `f`
//! faults is in the space, and the first one breadth first meets is the
//! shortest with that few. (Shortest in this search's choices: where a
//! fault may still strike, a move that is forced without faults is a
//! choice, so a search allowed only `f` faults may count a choice or two
//! fewer for the same kind of run.)
//!
//! A search cut short (by its state or depth bound, or random walks) may
//! not have reached a fewer-fault run that a smaller space still holds.
//! For those, the same space is searched again with fewer faults allowed —
//! once per bound, and only for the bounds some example still needs — and
//! each example is replaced by the one found under the smallest bound that
//! still has it.
//!
//! Owns which searches are still needed and how their reports combine; it
//! runs nothing. One driver runs the searches itself (`Exploration`, the
//! command line); the page shares each of them among its workers and gives
//! [`Shrinking`] the merged report of each (`explore::job`).

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

    /// The fault bound of the next search needed, if any: none after a
    /// complete first search (its examples have the fewest faults already);
    /// otherwise, for each property in turn whose example uses faults, the
    /// fewer-fault searches are tried from none up, and the first one not
    /// yet run is the answer. `None` once every example is as small as it
    /// gets.
    pub fn next_bound(&self) -> Option<usize> {
        if self.main.complete {
            return None;
        }
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
        for (i, p) in self.main.file_properties.iter().enumerate() {
            let Some(faults) = p.example.as_ref().map(|e| e.faults) else { continue };
            for fewer in 0..faults {
                match self.smaller.get(&fewer) {
                    None => return Some(fewer),
                    Some(r) if r.file_properties.get(i).is_some_and(|q| q.example.is_some()) => break,
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
        for (i, p) in main.file_properties.iter_mut().enumerate() {
            let Some(faults) = p.example.as_ref().map(|e| e.faults) else { continue };
            let fewer = (0..faults).find_map(|fewer| smaller.get(&fewer)?.file_properties.get(i)?.example.clone());
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

    /// The first search's report of `config`, its examples as found (no
    /// fewer-fault searches run).
    fn first_search(config: &ExploreConfig) -> Report {
        let mut e = crate::explore::Exploration::one_search(config).unwrap();
        loop {
            if let Some(r) = e.run(1 << 20).unwrap() {
                return r;
            }
        }
    }

    #[test]
    fn a_complete_search_needs_no_shrinking_as_its_examples_have_the_fewest_faults_any_run_has() {
        for (scenario, k) in [("shutdown", 2), ("reject-plan", 1)] {
            let with = |faults: usize| ExploreConfig {
                scenario: scenario.into(),
                fault_kinds: vec![FaultAction::Drop, FaultAction::Duplicate],
                ..config(faults)
            };
            let report = first_search(&with(k));
            assert!(report.complete, "{scenario}");
            assert_eq!(Shrinking::new(report.clone()).next_bound(), None, "{scenario}: nothing to search again");
            let fewer: Vec<Report> = (0..k).map(|b| explore(&with(b)).unwrap()).collect();
            let mut shrunk = false;
            for p in &report.properties {
                let Some(example) = &p.example else { continue };
                let found_under = |r: &Report| r.property(p.property).is_some_and(|q| q.example.is_some());
                // No run with fewer faults breaks (or shows) it, and one with that many does.
                assert!(fewer.iter().take(example.faults).all(|r| !found_under(r)), "{scenario}: {}", p.property.name());
                if let Some(r) = fewer.get(example.faults) {
                    assert!(found_under(r), "{scenario}: {}", p.property.name());
                    shrunk = true;
                }
            }
            assert!(shrunk, "{scenario}: some example uses fewer faults than the search allowed");
        }
    }

    #[test]
    fn a_search_cut_short_is_searched_again_with_fewer_faults_for_the_examples_that_use_some() {
        let cut = ExploreConfig { max_states: 40, ..config(2) };
        let main = first_search(&cut);
        assert!(!main.complete);
        let mut shrinking = Shrinking::new(main.clone());
        let mut bounds = Vec::new();
        while let Some(bound) = shrinking.next_bound() {
            assert!(!bounds.contains(&bound), "bound {bound} asked for twice");
            bounds.push(bound);
            shrinking.add(first_search(&ExploreConfig { max_faults: bound, ..cut.clone() }));
        }
        assert!(!bounds.is_empty() && bounds.iter().all(|b| *b < 2), "{bounds:?}");
        let shrunk = shrinking.finish();
        assert_eq!(shrunk, explore(&cut).unwrap(), "the same report as the explorer's own shrinking");
        assert_eq!((shrunk.states, shrunk.distinct_states), (main.states, main.distinct_states), "counters are the first search's");
        for (p, q) in shrunk.properties.iter().zip(&main.properties) {
            let faults = |r: &crate::explore::PropertyReport| r.example.as_ref().map(|e| e.faults);
            assert!(faults(p) <= faults(q), "{}: {:?} then {:?}", p.property.name(), faults(q), faults(p));
        }
    }
}
