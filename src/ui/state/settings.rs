//! The settings being edited: provider, key, base URL, model, max tokens,
//! seed, fault rules, the run's budget and the price table (kept in this
//! browser). They describe the NEXT team; the run on screen
//! keeps its own snapshot (`run::Run::snapshot`).
//!
//! Owns these signals and the rule that every value put into them (typed,
//! restored from storage, or read from a link) has passed validation. It
//! must not touch the runtime or the run on screen.

use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::model::provider_settings::{Provider, ProviderSettings};
use crate::protocol::FaultPlan;
use crate::runtime::budget::{Budget, Rates};
use crate::view::export::snapshot::{RunSnapshot, SnapshotError};
use crate::view::prices::PriceTable;

/// Every setting the page edits. `Copy`: pass it around freely.
#[derive(Clone, Copy)]
pub struct Settings {
    /// The model provider for the next team.
    pub provider: RwSignal<Provider>,
    /// The API key, in memory (and on the device only if remembered).
    pub api_key: RwSignal<String>,
    /// Keep the key in this browser's local storage.
    pub remember_key: RwSignal<bool>,
    /// Base URL override (empty: the provider's default).
    pub base_url: RwSignal<String>,
    /// Model id override (empty: the provider's default).
    pub model_name: RwSignal<String>,
    /// `max_tokens` of each model call.
    pub max_tokens: RwSignal<u32>,
    /// The seed of the next run.
    pub seed: RwSignal<u64>,
    /// Fault rules for the next team's bus.
    pub faults: RwSignal<FaultPlan>,
    /// The run's budget (tokens or dollars); `None`: no budget.
    pub budget: RwSignal<Option<Budget>>,
    /// The price table (defaults, or as edited on this device).
    pub prices: RwSignal<PriceTable>,
    /// Fields whose typed text was refused (field name → why). While any
    /// is listed, no team starts: the page never runs an older value than
    /// the one on screen.
    pub invalid: RwSignal<BTreeMap<&'static str, String>>,
}

/// What a team is built from: the provider settings (with the key), the
/// seed and the fault rules. Two equal values build the same team.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamSettings {
    /// Provider, key, base URL, model, max tokens.
    pub provider: ProviderSettings,
    /// The seed.
    pub seed: u64,
    /// The fault rules.
    pub faults: FaultPlan,
    /// The run's budget.
    pub budget: Option<Budget>,
    /// The price of the team's model, if the table has one (never for the
    /// scripted model, whose counts are estimates).
    pub rates: Option<Rates>,
}

impl TeamSettings {
    /// The snapshot of a run this team starts (no key, no prompts yet).
    pub fn snapshot(&self) -> RunSnapshot {
        RunSnapshot {
            provider: self.provider.provider.id().to_string(),
            base_url: self.provider.base_url.trim().to_string(),
            model: self.provider.model.trim().to_string(),
            max_tokens: self.provider.max_tokens,
            seed: self.seed,
            scenario: None,
            faults: self.faults.clone(),
            prompts: Vec::new(),
            by_hand: false,
            budget: self.budget.map(|b| b.limit()),
        }
    }
}

impl Settings {
    /// The defaults: scripted, seed 2026, no faults.
    pub fn new() -> Self {
        Settings {
            provider: RwSignal::new(Provider::Scripted),
            api_key: RwSignal::new(String::new()),
            remember_key: RwSignal::new(false),
            base_url: RwSignal::new(String::new()),
            model_name: RwSignal::new(String::new()),
            max_tokens: RwSignal::new(crate::model::anthropic::DEFAULT_MAX_TOKENS),
            seed: RwSignal::new(2026),
            faults: RwSignal::new(FaultPlan::default()),
            budget: RwSignal::new(None),
            prices: RwSignal::new(crate::ui::state::storage::remembered_prices().unwrap_or_default()),
            invalid: RwSignal::new(BTreeMap::new()),
        }
    }

    /// The settings as shown (tracked: use it in views).
    pub fn team(&self) -> TeamSettings {
        TeamSettings {
            provider: ProviderSettings {
                provider: self.provider.get(),
                api_key: self.api_key.get(),
                base_url: self.base_url.get(),
                model: self.model_name.get(),
                max_tokens: self.max_tokens.get(),
                jitter_seed: self.seed.get(),
            },
            seed: self.seed.get(),
            faults: self.faults.get(),
            budget: self.budget.get(),
            rates: self.rates(),
        }
    }

    /// The price of the model the settings name, as the runtime's budget
    /// reads it (tracked).
    pub fn rates(&self) -> Option<Rates> {
        let provider = self.provider.get();
        if provider == Provider::Scripted {
            return None;
        }
        let typed = self.model_name.get();
        let model = if typed.trim().is_empty() { provider.default_model().to_string() } else { typed };
        self.prices.with(|t| {
            t.price_of(&model).map(|p| Rates { input: p.input, output: p.output, cache_read: p.cache_read, cache_write: p.cache_write })
        })
    }

    /// The settings as shown, without subscribing.
    pub fn team_untracked(&self) -> TeamSettings {
        untrack(|| self.team())
    }

    /// Puts a restored snapshot's settings on the form, after validating
    /// it; a bad snapshot changes nothing and says why.
    pub fn apply(&self, snapshot: &RunSnapshot) -> Result<(), SnapshotError> {
        let provider = snapshot.validate()?;
        let budget = snapshot.budget()?;
        self.provider.set(provider);
        self.base_url.set(snapshot.base_url.clone());
        self.model_name.set(snapshot.model.clone());
        self.max_tokens.set(snapshot.max_tokens);
        self.seed.set(snapshot.seed);
        self.faults.set(snapshot.faults.clone());
        self.budget.set(budget);
        self.invalid.set(BTreeMap::new());
        self.load_remembered_key();
        Ok(())
    }

    /// Records whether the text typed into `field` was accepted.
    pub fn mark(&self, field: &'static str, problem: Option<String>) {
        self.invalid.update(|m| match problem {
            Some(why) => {
                m.insert(field, why);
            }
            None => {
                m.remove(field);
            }
        });
    }

    /// The first refused field's problem, if any (untracked).
    pub fn first_problem(&self) -> Option<String> {
        self.invalid.with_untracked(|m| m.values().next().cloned())
    }

    /// Loads a key remembered on this device for the current provider.
    pub fn load_remembered_key(&self) {
        let stored = crate::ui::state::storage::remembered_key(self.provider.get_untracked());
        self.remember_key.set(stored.is_some());
        self.api_key.set(stored.unwrap_or_default());
    }

    /// Stores or forgets the key on this device, as the checkbox says.
    pub fn store_key(&self) -> Result<(), crate::ui::state::storage::StorageError> {
        let key = self.api_key.get_untracked();
        let keep = self.remember_key.get_untracked() && !key.is_empty();
        crate::ui::state::storage::remember_key(self.provider.get_untracked(), keep.then_some(key.as_str()))
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings::new()
    }
}
