//! What built the run on screen: the settings when its team started (no
//! key) and every prompt it was given. Share links, saved runs and the
//! header read this, never the settings boxes as they are now.
//!
//! Owns the snapshot's shape and its validation: every snapshot that comes
//! back from storage or a link passes the same checks as the settings form.
//! Pure: no DOM, no storage, no signals.

use serde::{Deserialize, Serialize};

use crate::model::provider_settings::{BuildError, Provider, ProviderSettings, MAX_TOKENS_LIMIT};
use crate::protocol::{BudgetLimit, FaultError, FaultPlan};
use crate::runtime::budget::{Budget, BudgetError};
use crate::runtime::scenarios::{self, Scenario};

/// What a snapshot of an unknown provider is described as.
pub const UNKNOWN_PROVIDER: &str = "an unknown provider";

/// The most prompts a snapshot keeps.
pub const MAX_PROMPTS: usize = 200;

/// Why a snapshot (from storage, a link or an import) is refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SnapshotError {
    /// The provider id is unknown.
    #[error("{0}")]
    Provider(#[from] BuildError),
    /// A fault rule is out of range.
    #[error("a fault rule is not valid: {0}")]
    Faults(#[from] FaultError),
    /// `max_tokens` is out of range.
    #[error("max tokens must be from 1 to {MAX_TOKENS_LIMIT}, not {0}")]
    MaxTokens(u32),
    /// The scenario id is not one this version has.
    #[error("the scenario '{0}' is not one this version has")]
    UnknownScenario(String),
    /// Too many prompts.
    #[error("the run has {0} prompts; the most kept is {MAX_PROMPTS}")]
    TooManyPrompts(usize),
    /// The budget is zero or out of range.
    #[error("{0}")]
    Budget(#[from] BudgetError),
}

fn default_max_tokens() -> u32 {
    crate::model::anthropic::DEFAULT_MAX_TOKENS
}

fn default_provider() -> String {
    Provider::Scripted.id().to_string()
}

/// The settings and prompts that built one run. Never holds a key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSnapshot {
    /// Provider id.
    #[serde(default = "default_provider")]
    pub provider: String,
    /// Base URL override.
    #[serde(default)]
    pub base_url: String,
    /// Model override.
    #[serde(default)]
    pub model: String,
    /// `max_tokens` of each model call.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u32,
    /// Seed.
    pub seed: u64,
    /// The scenario it came from, if any.
    #[serde(default)]
    pub scenario: Option<String>,
    /// The fault rules of its bus.
    #[serde(default)]
    pub faults: FaultPlan,
    /// Every prompt the lead was given, in order.
    #[serde(default)]
    pub prompts: Vec<String>,
    /// A human acted in the run (answered, sent, stepped by hand), so only
    /// its trace reproduces it.
    #[serde(default)]
    pub by_hand: bool,
    /// The run's budget, as the trace records one (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<BudgetLimit>,
}

impl Default for RunSnapshot {
    fn default() -> Self {
        RunSnapshot {
            provider: default_provider(),
            base_url: String::new(),
            model: String::new(),
            max_tokens: default_max_tokens(),
            seed: 2026,
            scenario: None,
            faults: FaultPlan::default(),
            prompts: Vec::new(),
            by_hand: false,
            budget: None,
        }
    }
}

impl RunSnapshot {
    /// Checks every field as the settings form does; returns the provider.
    pub fn validate(&self) -> Result<Provider, SnapshotError> {
        let provider = Provider::parse(&self.provider)?;
        if self.max_tokens == 0 || self.max_tokens > MAX_TOKENS_LIMIT {
            return Err(SnapshotError::MaxTokens(self.max_tokens));
        }
        self.faults.validate()?;
        if let Some(id) = &self.scenario {
            if scenarios::by_id(id).is_none() {
                return Err(SnapshotError::UnknownScenario(id.chars().take(40).collect()));
            }
        }
        if self.prompts.len() > MAX_PROMPTS {
            return Err(SnapshotError::TooManyPrompts(self.prompts.len()));
        }
        self.budget()?;
        Ok(provider)
    }

    /// The run's budget, checked as the Settings form checks a typed one.
    pub fn budget(&self) -> Result<Option<Budget>, SnapshotError> {
        Ok(self.budget.as_ref().map(Budget::from_limit).transpose()?)
    }

    /// Which model ran: "Scripted (offline)", "Anthropic · claude-…".
    pub fn describe(&self) -> String {
        match Provider::parse(&self.provider) {
            Ok(provider) => {
                ProviderSettings { provider, base_url: self.base_url.clone(), model: self.model.clone(), ..ProviderSettings::default() }
                    .describe()
            }
            Err(_) => UNKNOWN_PROVIDER.into(),
        }
    }

    /// The scenario this run replays exactly from its seed and faults: a
    /// scripted run of exactly that scenario's prompts, nothing by hand.
    pub fn reproducible_scenario(&self) -> Option<Scenario> {
        let scenario = scenarios::by_id(self.scenario.as_deref()?)?;
        let same_prompts = self.prompts.iter().map(String::as_str).eq(scenario.prompts.iter().copied());
        (self.provider == Provider::Scripted.id() && same_prompts && !self.by_hand).then_some(scenario)
    }

    /// True when this run is `file`'s own team run untouched, so its seed
    /// reproduces it as the explorer plays the file (`explore::file_team`):
    /// a scripted run of exactly the team's prompts, from no scenario,
    /// nothing by hand. The team's fault rules are the file's own, which
    /// the explorer applies too (the settings' fault rules do not run
    /// under a file).
    pub fn reproducible_file_team(&self, file: &crate::protocol::file::ProtocolFile) -> bool {
        let Some(team) = file.team.as_ref() else { return false };
        let same_prompts = self.prompts.iter().eq(team.prompts.iter());
        self.provider == Provider::Scripted.id() && self.scenario.is_none() && same_prompts && !self.by_hand
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{FaultAction, FaultRule};

    fn scenario_run() -> RunSnapshot {
        let sc = scenarios::SHUTDOWN;
        RunSnapshot { scenario: Some(sc.id.into()), prompts: sc.prompts.iter().map(|p| p.to_string()).collect(), ..RunSnapshot::default() }
    }

    #[test]
    fn a_scenario_run_with_a_typed_prompt_is_not_a_scenario_run() {
        let mut run = scenario_run();
        assert_eq!(run.reproducible_scenario().map(|s| s.id), Some("shutdown"));
        run.prompts.push("Spawn bob.".into());
        assert_eq!(run.reproducible_scenario(), None);
    }

    #[test]
    fn a_files_team_run_reproduces_from_its_seed_only_untouched_on_the_scripted_model() {
        let file = crate::protocol::file::load(crate::view::protocol_file::TEMPLATE).unwrap();
        let prompts = file.team.as_ref().unwrap().prompts.clone();
        let run = RunSnapshot { prompts: prompts.clone(), ..RunSnapshot::default() };
        assert!(run.reproducible_file_team(&file));
        assert!(!RunSnapshot { by_hand: true, ..run.clone() }.reproducible_file_team(&file), "answered or stepped by hand");
        assert!(!RunSnapshot { provider: "anthropic".into(), ..run.clone() }.reproducible_file_team(&file), "a real model");
        let mut more = run.clone();
        more.prompts.push("Spawn bob.".into());
        assert!(!more.reproducible_file_team(&file), "a prompt typed after the team's");
        assert!(!RunSnapshot { scenario: Some("shutdown".into()), ..run.clone() }.reproducible_file_team(&file));
        let lesson = crate::protocol::file::load(crate::protocol::file::builtin::LESSON).unwrap();
        assert!(!run.reproducible_file_team(&lesson), "a file without a team has no run of its own");
    }

    #[test]
    fn a_run_answered_by_hand_or_on_a_real_model_is_not_reproducible_from_its_seed() {
        assert!(RunSnapshot { by_hand: true, ..scenario_run() }.reproducible_scenario().is_none());
        assert!(RunSnapshot { provider: "anthropic".into(), ..scenario_run() }.reproducible_scenario().is_none());
    }

    #[test]
    fn a_restored_snapshot_passes_the_forms_checks() {
        assert_eq!(scenario_run().validate(), Ok(Provider::Scripted));
        let delay = FaultPlan::new(vec![FaultRule::new(FaultAction::Delay { ms: u64::MAX })]);
        assert!(matches!(RunSnapshot { faults: delay, ..RunSnapshot::default() }.validate(), Err(SnapshotError::Faults(_))));
        let nan = FaultPlan::new(vec![FaultRule { probability: f64::NAN, ..FaultRule::new(FaultAction::Drop) }]);
        assert!(matches!(RunSnapshot { faults: nan, ..RunSnapshot::default() }.validate(), Err(SnapshotError::Faults(_))));
        assert!(matches!(RunSnapshot { provider: "gemini".into(), ..RunSnapshot::default() }.validate(), Err(SnapshotError::Provider(_))));
        assert_eq!(RunSnapshot { max_tokens: 0, ..RunSnapshot::default() }.validate(), Err(SnapshotError::MaxTokens(0)));
        assert!(matches!(
            RunSnapshot { scenario: Some("nope".into()), ..RunSnapshot::default() }.validate(),
            Err(SnapshotError::UnknownScenario(_))
        ));
    }

    #[test]
    fn settings_stored_before_snapshots_still_read() {
        let old = r#"{"provider":"scripted","base_url":"","model":"","seed":7,"scenario":"shutdown","faults":{"rules":[]}}"#;
        let snap: RunSnapshot = serde_json::from_str(old).unwrap();
        assert_eq!(snap.seed, 7);
        assert!(snap.prompts.is_empty());
        assert_eq!(snap.validate(), Ok(Provider::Scripted));
        assert_eq!(snap.budget(), Ok(None), "no budget in older snapshots");
    }

    #[test]
    fn a_snapshots_budget_is_kept_and_checked_as_the_form_checks_it() {
        let with = |budget| RunSnapshot { budget: Some(budget), ..scenario_run() };
        for limit in [BudgetLimit::Tokens(1_500), BudgetLimit::Microdollars(500_000)] {
            let snap = with(limit);
            let back: RunSnapshot = serde_json::from_str(&serde_json::to_string(&snap).unwrap()).unwrap();
            assert_eq!(back, snap, "the budget survives storage");
            assert_eq!(back.budget().unwrap().map(|b| b.limit()), Some(limit));
        }
        assert!(!serde_json::to_string(&scenario_run()).unwrap().contains("budget"), "absent when none");
        assert_eq!(with(BudgetLimit::Tokens(0)).validate(), Err(SnapshotError::Budget(BudgetError::NotPositive)));
        assert_eq!(with(BudgetLimit::Tokens(u64::MAX)).validate(), Err(SnapshotError::Budget(BudgetError::TooLarge)));
    }
}
