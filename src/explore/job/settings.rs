//! What the Explore panel asks for (`ExploreSettings`), checked against the
//! most the panel offers (the `MAX_*` bounds), turned into the search's
//! configuration and one slice per Web Worker; and what an explorer link
//! carries (`ExploreLink`).
//!
//! Owns the settings and their bounds only: the job that runs them is
//! `explore::job`, the search is `explore`.

use serde::{Deserialize, Serialize};

use super::ExploreJobError;
use crate::explore::gallery::Entry;
use crate::explore::{Choice, ExploreConfig, Property, Slice, Strategy};
use crate::model::scripted::choices::Decisions;
use crate::protocol::FaultAction;
use crate::protocol::Rules;
use crate::runtime::scenarios;

/// The most workers a page starts for one search.
pub const MAX_WORKERS: usize = 4;

/// Workers for a gallery entry's search (`ExploreSettings::of_entry`).
pub const GALLERY_WORKERS: usize = 1;

/// The most faults per run the panel offers (the space grows fast).
pub const MAX_FAULTS: usize = 3;

/// The most choices per run the panel offers (the explorer's own default,
/// 200, and the panel's, 120, are within it).
pub const MAX_DEPTH: usize = 1_000;

/// The most distinct states a worker searches: the panel's own bound (it
/// offers no other), so a link cannot ask a worker for a search that runs
/// until its memory runs out.
pub const MAX_STATES: usize = 300_000;

/// The most off-script decisions per run the panel offers.
pub const MAX_DECISIONS: usize = 10;

/// The random runs of the panel's random search (and the most a link may
/// ask for).
pub const MAX_RUNS: u64 = 2_000;

/// What the Explore panel asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExploreSettings {
    /// The scenario's id.
    pub scenario: String,
    /// Fixes request ids (a run's seed, for a run forked from the screen).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// At most this many faults per run.
    pub max_faults: usize,
    /// The kinds of fault to try.
    pub fault_kinds: Vec<FaultAction>,
    /// At most this many choices per run.
    pub max_depth: usize,
    /// Stop after this many distinct states (per worker).
    pub max_states: usize,
    /// At most this many off-script decisions per run.
    pub max_decisions: usize,
    /// Which off-script decisions the policy may make (withholding an
    /// answer is one).
    #[serde(default)]
    pub decisions: Decisions,
    /// The protective rules the explored team runs under (a gallery entry
    /// switches one off).
    #[serde(default)]
    pub rules: Rules,
    /// How to search.
    pub strategy: Strategy,
    /// How many workers share the search.
    pub workers: usize,
    /// A protocol file whose own team is explored instead of `scenario`
    /// (`ExploreConfig::team`), with its `[[property]]` entries; carried
    /// as its text (in a link too).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "crate::explore::config::file_text")]
    pub team: Option<std::sync::Arc<crate::protocol::file::ProtocolFile>>,
}

fn default_seed() -> u64 {
    ExploreConfig::new("").seed
}

impl Default for ExploreSettings {
    fn default() -> Self {
        let c = ExploreConfig::new("shutdown");
        ExploreSettings {
            scenario: c.scenario,
            seed: c.seed,
            max_faults: 1,
            fault_kinds: c.fault_kinds,
            max_depth: 120,
            max_states: MAX_STATES,
            max_decisions: c.max_decisions,
            decisions: c.decisions,
            rules: c.rules,
            strategy: Strategy::Bfs,
            workers: 1,
            team: None,
        }
    }
}

impl ExploreSettings {
    /// Checks the settings before a search starts.
    pub fn validate(&self) -> Result<(), ExploreJobError> {
        match &self.team {
            Some(file) => {
                if file.team.is_none() {
                    return Err(ExploreJobError::File(crate::explore::file_team::FileTeamError::NoTeam.to_string()));
                }
                crate::protocol::file::monitor::PropertySet::compile(file).map_err(|e| ExploreJobError::File(e.to_string()))?;
            }
            None if scenarios::explorable(&self.scenario).is_none() => {
                return Err(ExploreJobError::UnknownScenario(self.scenario.clone()));
            }
            None => {}
        }
        if !(1..=MAX_WORKERS).contains(&self.workers) {
            return Err(ExploreJobError::Workers(self.workers));
        }
        if self.max_faults > MAX_FAULTS {
            return Err(ExploreJobError::Faults(self.max_faults));
        }
        if self.max_faults > 0 && self.fault_kinds.is_empty() {
            return Err(ExploreJobError::NoFaultKind);
        }
        if self.max_depth == 0 {
            return Err(ExploreJobError::Zero("the depth bound"));
        }
        if self.max_states == 0 {
            return Err(ExploreJobError::Zero("the state bound"));
        }
        let too_large =
            |bound, value: u64, max: u64| if value > max { Err(ExploreJobError::TooLarge { bound, value, max }) } else { Ok(()) };
        too_large("the depth bound", self.max_depth as u64, MAX_DEPTH as u64)?;
        too_large("the state bound", self.max_states as u64, MAX_STATES as u64)?;
        too_large("the off-script decisions bound", self.max_decisions as u64, MAX_DECISIONS as u64)?;
        if let Strategy::Simulate { runs, .. } = self.strategy {
            too_large("the number of random runs", runs, MAX_RUNS)?;
        }
        Ok(())
    }

    /// The whole search's configuration (one thread: a worker has one).
    pub fn config(&self) -> ExploreConfig {
        let mut c = ExploreConfig::new(&self.scenario);
        c.seed = self.seed;
        c.max_faults = self.max_faults;
        c.fault_kinds = self.fault_kinds.clone();
        c.max_depth = self.max_depth;
        c.max_states = self.max_states;
        c.max_decisions = self.max_decisions;
        c.decisions = self.decisions;
        c.rules = self.rules;
        c.strategy = self.strategy;
        c.threads = 1;
        c.team = self.team.clone();
        // `validate` refuses properties that do not compile.
        let _ = c.compile_team_properties();
        c
    }

    /// The panel's settings for `file`'s own team (its id as the
    /// scenario's, its protective rules), the other bounds as `self`.
    pub fn for_file(&self, file: std::sync::Arc<crate::protocol::file::ProtocolFile>) -> Result<ExploreSettings, ExploreJobError> {
        let c = crate::explore::file_team::team_config(std::sync::Arc::clone(&file)).map_err(|e| ExploreJobError::File(e.to_string()))?;
        Ok(ExploreSettings { scenario: c.scenario, rules: c.rules, team: Some(file), ..self.clone() })
    }

    /// The settings that run a gallery entry's search, its rule on or off
    /// (`GALLERY_WORKERS`: the entries are small).
    pub fn of_entry(entry: &Entry, rule_on: bool) -> ExploreSettings {
        ExploreSettings::of_gallery(entry.config(rule_on))
    }

    /// The settings that run a protocol file's gallery entry: its file's
    /// team, with the entry's bounds (`GALLERY_WORKERS`).
    pub fn of_file_entry(entry: &crate::explore::gallery::FileEntry) -> Result<ExploreSettings, crate::explore::ExploreError> {
        entry.config().map(ExploreSettings::of_gallery)
    }

    /// A gallery entry's search `c` as settings: its bounds, the default
    /// state bound, `GALLERY_WORKERS` workers.
    fn of_gallery(c: ExploreConfig) -> ExploreSettings {
        ExploreSettings {
            scenario: c.scenario,
            seed: c.seed,
            max_faults: c.max_faults,
            fault_kinds: c.fault_kinds,
            max_depth: c.max_depth,
            max_states: ExploreSettings::default().max_states,
            max_decisions: c.max_decisions,
            decisions: c.decisions,
            rules: c.rules,
            strategy: c.strategy,
            workers: GALLERY_WORKERS,
            team: c.team,
        }
    }

    /// One configuration per worker, each with its slice of the search.
    pub fn slices(&self) -> Vec<ExploreConfig> {
        let of = self.workers.clamp(1, MAX_WORKERS);
        (0..of).map(|index| ExploreConfig { slice: (of > 1).then_some(Slice { index, of }), ..self.config() }).collect()
    }
}

/// What an explorer link carries: the panel's settings, and optionally a
/// run to open (a counterexample's path and the property it breaks).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExploreLink {
    /// The panel's settings.
    pub settings: ExploreSettings,
    /// The choices of the run to open, from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<Choice>>,
    /// The property the run breaks (or shows), by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property: Option<String>,
    /// The gallery entry the run reproduces, by id (its card tells the
    /// entry's story), if it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
}

impl ExploreLink {
    /// The property the link names, if it names a known one.
    pub fn property(&self) -> Option<Property> {
        self.property.as_deref().and_then(Property::by_name)
    }

    /// The gallery entry the link names, if it names a known one.
    pub fn entry(&self) -> Option<&'static crate::explore::gallery::Entry> {
        self.entry.as_deref().and_then(crate::explore::gallery::by_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(scenario: &str, workers: usize) -> ExploreSettings {
        ExploreSettings { scenario: scenario.into(), workers, fault_kinds: vec![FaultAction::Drop], ..ExploreSettings::default() }
    }

    #[test]
    fn a_gallery_entrys_settings_run_its_own_search() {
        for entry in crate::explore::gallery::GALLERY {
            for rule_on in [false, true] {
                let settings = ExploreSettings::of_entry(entry, rule_on);
                assert_eq!(settings.validate(), Ok(()), "{}", entry.id);
                assert_eq!(
                    ExploreConfig { max_states: entry.config(rule_on).max_states, ..settings.config() },
                    entry.config(rule_on),
                    "{} rule on: {rule_on}",
                    entry.id
                );
            }
        }
    }

    #[test]
    fn bad_settings_are_refused_with_a_reason() {
        let bad = |s: ExploreSettings| s.validate().unwrap_err();
        assert_eq!(bad(settings("nope", 1)), ExploreJobError::UnknownScenario("nope".into()));
        assert_eq!(bad(settings("shutdown", 0)), ExploreJobError::Workers(0));
        assert_eq!(bad(settings("shutdown", MAX_WORKERS + 1)), ExploreJobError::Workers(MAX_WORKERS + 1));
        assert_eq!(bad(ExploreSettings { max_faults: 4, ..settings("shutdown", 1) }), ExploreJobError::Faults(4));
        assert_eq!(bad(ExploreSettings { fault_kinds: vec![], ..settings("shutdown", 1) }), ExploreJobError::NoFaultKind);
        assert_eq!(bad(ExploreSettings { max_depth: 0, ..settings("shutdown", 1) }), ExploreJobError::Zero("the depth bound"));
        assert!(ExploreSettings { fault_kinds: vec![], max_faults: 0, ..settings("shutdown", 1) }.validate().is_ok());
    }

    #[test]
    fn a_bound_above_the_panels_most_is_refused_naming_the_bound_and_its_most() {
        let bad = |s: ExploreSettings| s.validate().unwrap_err();
        let too_large = |bound, value: usize, max: usize| ExploreJobError::TooLarge { bound, value: value as u64, max: max as u64 };
        assert_eq!(
            bad(ExploreSettings { max_depth: MAX_DEPTH + 1, ..settings("shutdown", 1) }),
            too_large("the depth bound", MAX_DEPTH + 1, MAX_DEPTH)
        );
        assert_eq!(
            bad(ExploreSettings { max_states: usize::MAX, ..settings("shutdown", 1) }),
            too_large("the state bound", usize::MAX, MAX_STATES)
        );
        assert_eq!(
            bad(ExploreSettings { max_decisions: MAX_DECISIONS + 1, ..settings("shutdown", 1) }),
            too_large("the off-script decisions bound", MAX_DECISIONS + 1, MAX_DECISIONS)
        );
        let runs = |runs| ExploreSettings { strategy: Strategy::Simulate { runs, seed: 1 }, ..settings("shutdown", 1) };
        assert_eq!(bad(runs(u64::MAX)), ExploreJobError::TooLarge { bound: "the number of random runs", value: u64::MAX, max: MAX_RUNS });
        assert_eq!(
            bad(ExploreSettings { max_depth: MAX_DEPTH + 1, ..settings("shutdown", 1) }).to_string(),
            format!("the depth bound is {}: choose at most {MAX_DEPTH}", MAX_DEPTH + 1)
        );
        // Each bound at its most is taken.
        let most = ExploreSettings { max_depth: MAX_DEPTH, max_states: MAX_STATES, max_decisions: MAX_DECISIONS, ..runs(MAX_RUNS) };
        assert!(most.validate().is_ok());
    }

    #[test]
    fn the_settings_the_page_makes_are_within_the_bounds() {
        assert_eq!(ExploreSettings::default().validate(), Ok(()));
        for entry in crate::explore::gallery::GALLERY {
            for rule_on in [false, true] {
                assert_eq!(ExploreSettings::of_entry(entry, rule_on).validate(), Ok(()), "{} rule on: {rule_on}", entry.id);
            }
        }
    }
}
