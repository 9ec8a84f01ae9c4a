//! The session: the running team and the signals every component reads —
//! the trace (the single source of truth), the cursor (which event the view
//! shows), the controls' state. Runtime changes reach the trace once per
//! animation frame, however many events happened in between.
//!
//! Owns the link between the runtime and the reactive graph. Components read
//! signals; only the actions here talk to the runtime.

use std::cell::Cell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use leptos::prelude::*;

use crate::model::scripted::ScriptedModel;
use crate::model::Model;
use crate::protocol::{AgentName, FaultPlan, RequestId, Trace};
use crate::runtime::scenarios::Scenario;
use crate::runtime::scheduler::Mode;
use crate::runtime::{browser, Runtime, RuntimeConfig};
use super::{export, share, storage};

/// Base pacing of Live mode at 1x, in milliseconds per event.
pub const BASE_PACE_MS: f64 = 320.0;

/// Which model the team runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// The offline scripted model.
    Scripted,
    /// The Anthropic Messages API (or a proxy).
    Anthropic,
    /// Any OpenAI-compatible Chat Completions server.
    OpenAi,
}

impl Provider {
    /// Every provider, in menu order.
    pub const ALL: [Provider; 3] = [Provider::Scripted, Provider::Anthropic, Provider::OpenAi];

    /// A stable id (the `<option>` value, the storage key).
    pub fn id(self) -> &'static str {
        match self {
            Provider::Scripted => "scripted",
            Provider::Anthropic => "anthropic",
            Provider::OpenAi => "openai",
        }
    }

    /// What the menu says.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Scripted => crate::model::scripted::LABEL,
            Provider::Anthropic => "Anthropic (your key)",
            Provider::OpenAi => "OpenAI-compatible (base URL)",
        }
    }

    /// The provider with this id.
    pub fn from_id(id: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The default base URL, shown as a placeholder.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::Scripted => "",
            Provider::Anthropic => crate::model::anthropic::DEFAULT_BASE_URL,
            Provider::OpenAi => "http://127.0.0.1:11434/v1",
        }
    }

    /// The default model id, shown as a placeholder.
    pub fn default_model(self) -> &'static str {
        match self {
            Provider::Scripted => "",
            Provider::Anthropic => crate::model::anthropic::DEFAULT_MODEL,
            Provider::OpenAi => crate::model::openai::DEFAULT_MODEL,
        }
    }
}

/// Where a remembered key is kept on this device.
fn storage_key(p: Provider) -> String {
    format!("team-protocols.api-key.{}", p.id())
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// Every signal of one session. `Copy`: pass it around freely.
#[derive(Clone, Copy)]
pub struct Session {
    rt: StoredValue<Option<Runtime>, LocalStorage>,
    queued: StoredValue<VecDeque<String>, LocalStorage>,
    sync_pending: StoredValue<Rc<Cell<bool>>, LocalStorage>,
    /// The trace so far.
    pub trace: RwSignal<Trace>,
    /// The number of events shown; `None` follows the latest.
    pub cursor: RwSignal<Option<usize>>,
    /// Live or Step.
    pub mode: RwSignal<Mode>,
    /// Replay (or auto-step) is playing.
    pub playing: RwSignal<bool>,
    /// Playback and pacing speed, 0.25x to 4x.
    pub speed: RwSignal<f64>,
    /// The request whose messages are highlighted.
    pub selected: RwSignal<Option<RequestId>>,
    /// A dismissible error for the banner.
    pub banner: RwSignal<Option<String>>,
    /// A run is in progress.
    pub running: RwSignal<bool>,
    /// The runtime was stopped.
    pub stopped: RwSignal<bool>,
    /// Step mode: what Next will release.
    pub next_up: RwSignal<Vec<String>>,
    /// Text streaming from in-flight model calls.
    pub streaming: RwSignal<BTreeMap<AgentName, String>>,
    /// The seed of the next run.
    pub seed: RwSignal<u64>,
    /// Live pacing at 1x, in milliseconds per event.
    base_pace: StoredValue<f64>,
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
    /// Fault rules for the next team's bus.
    pub faults: RwSignal<FaultPlan>,
    /// The trace on screen was imported (no team runs behind it).
    pub imported: RwSignal<bool>,
    /// The scenario the current run came from, for share links.
    pub scenario: RwSignal<Option<&'static str>>,
    /// Saved runs, as last read from storage.
    pub saved: RwSignal<Vec<(u64, String)>>,
}

impl Session {
    /// A session with no run yet, pacing Live mode at `base_pace_ms` per
    /// event at 1x (0 runs as fast as the agents go).
    pub fn new(base_pace_ms: f64) -> Self {
        Session {
            base_pace: StoredValue::new(base_pace_ms),
            provider: RwSignal::new(Provider::Scripted),
            api_key: RwSignal::new(String::new()),
            remember_key: RwSignal::new(false),
            base_url: RwSignal::new(String::new()),
            model_name: RwSignal::new(String::new()),
            max_tokens: RwSignal::new(crate::model::anthropic::DEFAULT_MAX_TOKENS),
            faults: RwSignal::new(FaultPlan::default()),
            imported: RwSignal::new(false),
            scenario: RwSignal::new(None),
            saved: RwSignal::new(Vec::new()),
            rt: StoredValue::new_local(None),
            queued: StoredValue::new_local(VecDeque::new()),
            sync_pending: StoredValue::new_local(Rc::new(Cell::new(false))),
            trace: RwSignal::new(Trace::new("default", 2026)),
            cursor: RwSignal::new(None),
            mode: RwSignal::new(Mode::Live),
            playing: RwSignal::new(false),
            speed: RwSignal::new(1.0),
            selected: RwSignal::new(None),
            banner: RwSignal::new(None),
            running: RwSignal::new(false),
            stopped: RwSignal::new(false),
            next_up: RwSignal::new(Vec::new()),
            streaming: RwSignal::new(BTreeMap::new()),
            seed: RwSignal::new(2026),
        }
    }

    /// The pace of Live mode at the current speed.
    pub fn pace_ms(&self) -> u64 {
        (self.base_pace.get_value() / self.speed.get_untracked()).round() as u64
    }

    /// Runs `f` on the runtime, if there is one.
    pub fn with_rt<T>(&self, f: impl FnOnce(&Runtime) -> T) -> Option<T> {
        self.rt.with_value(|rt| rt.as_ref().map(f))
    }

    /// The model the settings describe, or what is missing.
    fn model(&self) -> Result<Rc<dyn Model>, String> {
        use crate::model::anthropic::{AnthropicConfig, AnthropicModel};
        use crate::model::http::{ApiKey, FetchTransport, TimerSleeper};
        use crate::model::openai::{OpenAiConfig, OpenAiModel};
        let provider = self.provider.get_untracked();
        let or_default = |value: String, default: &str| if value.trim().is_empty() { default.to_string() } else { value.trim().to_string() };
        let base_url = or_default(self.base_url.get_untracked(), provider.default_base_url());
        let model = or_default(self.model_name.get_untracked(), provider.default_model());
        let key = ApiKey::new(self.api_key.get_untracked().trim());
        let jitter = self.seed.get_untracked();
        Ok(match provider {
            Provider::Scripted => Rc::new(ScriptedModel),
            Provider::Anthropic => {
                if key.is_empty() {
                    return Err("enter your Anthropic API key in Settings, or choose the offline scripted model".into());
                }
                let config = AnthropicConfig { base_url, model, api_key: key, max_tokens: self.max_tokens.get_untracked(), ..AnthropicConfig::default() };
                Rc::new(AnthropicModel::new(config, FetchTransport, Rc::new(TimerSleeper)).with_jitter_seed(jitter))
            }
            Provider::OpenAi => {
                let config = OpenAiConfig { api_key: key, max_tokens: self.max_tokens.get_untracked(), ..OpenAiConfig::new(base_url, model) };
                Rc::new(OpenAiModel::new(config, FetchTransport, Rc::new(TimerSleeper)).with_jitter_seed(jitter))
            }
        })
    }

    /// Loads a key remembered on this device for the current provider.
    pub fn load_remembered_key(&self) {
        let stored = local_storage().and_then(|s| s.get_item(&storage_key(self.provider.get_untracked())).ok().flatten());
        self.remember_key.set(stored.is_some());
        self.api_key.set(stored.unwrap_or_default());
    }

    /// Stores or forgets the key on this device, as the checkbox says.
    pub fn store_key(&self) {
        let Some(storage) = local_storage() else { return };
        let name = storage_key(self.provider.get_untracked());
        let key = self.api_key.get_untracked();
        if self.remember_key.get_untracked() && !key.is_empty() {
            let _ = storage.set_item(&name, &key);
        } else {
            let _ = storage.remove_item(&name);
        }
    }

    /// Replaces the runtime with a fresh team (the old one is stopped).
    pub fn reset(&self) {
        self.with_rt(Runtime::stop);
        let config = RuntimeConfig {
            seed: self.seed.get_untracked(),
            max_tokens: self.max_tokens.get_untracked(),
            faults: self.faults.get_untracked(),
            mode: self.mode.get_untracked(),
            pace_ms: self.pace_ms(),
            ..RuntimeConfig::default()
        };
        let model = match self.model() {
            Ok(model) => model,
            Err(e) => {
                self.rt.set_value(None);
                self.banner.set(Some(format!("Error: {e}")));
                return;
            }
        };
        let host = if self.provider.get_untracked() == Provider::Scripted { browser::host() } else { browser::real_time_host() };
        let rt = Runtime::new(config, model, host);
        let session = *self;
        rt.subscribe(Rc::new(move || session.schedule_sync()));
        self.rt.set_value(Some(rt));
        self.queued.update_value(VecDeque::clear);
        self.trace.set(Trace::new("default", self.seed.get_untracked()));
        self.cursor.set(None);
        self.selected.set(None);
        self.banner.set(None);
        self.stopped.set(false);
        self.imported.set(false);
        self.scenario.set(None);
        self.sync();
    }

    /// Shows an imported trace for replay: the running team (if any) is
    /// stopped and set aside; a new prompt starts a fresh team.
    pub fn load(&self, trace: Trace) {
        self.with_rt(Runtime::stop);
        self.rt.set_value(None);
        self.queued.update_value(VecDeque::clear);
        self.playing.set(false);
        self.trace.set(trace);
        self.cursor.set(None);
        self.selected.set(None);
        self.banner.set(None);
        self.running.set(false);
        self.stopped.set(true);
        self.imported.set(true);
        self.next_up.set(Vec::new());
        self.streaming.set(BTreeMap::new());
    }

    /// The model's label for the header.
    pub fn model_label(&self) -> String {
        self.with_rt(Runtime::model_label).unwrap_or_default()
    }

    /// Sends a prompt to the lead, starting a team first if needed.
    pub fn submit(&self, prompt: &str) {
        if self.with_rt(Runtime::is_stopped).unwrap_or(true) {
            self.reset();
        }
        if self.with_rt(|_| ()).is_none() {
            return; // reset said what is missing
        }
        match self.with_rt(|rt| rt.submit_prompt(prompt)) {
            Some(Err(e)) => self.banner.set(Some(format!("Error: {e}"))),
            _ => self.cursor.set(None),
        }
        self.sync();
    }

    /// Runs a scenario on a fresh team; later prompts wait for the team to
    /// go quiet.
    pub fn run_scenario(&self, scenario: Scenario) {
        self.reset();
        self.scenario.set(Some(scenario.id));
        self.queued.update_value(|q| q.extend(scenario.prompts.iter().skip(1).map(|p| p.to_string())));
        self.submit(scenario.prompts[0]);
    }

    /// Live or Step.
    pub fn set_mode(&self, mode: Mode) {
        self.mode.set(mode);
        self.with_rt(|rt| rt.set_mode(mode));
        self.sync();
    }

    /// Changes speed (and Live pacing).
    pub fn set_speed(&self, speed: f64) {
        self.speed.set(speed.clamp(0.25, 4.0));
        let pace = self.pace_ms();
        self.with_rt(|rt| rt.set_pace(pace));
    }

    /// Stops every agent; the trace stays for replay.
    pub fn stop(&self) {
        self.with_rt(Runtime::stop);
        self.playing.set(false);
        self.queued.update_value(VecDeque::clear);
        self.sync();
    }

    /// One event forward: through the recorded trace, or (at its end, in
    /// Step mode) by releasing the next event of the run.
    pub fn next(&self) {
        let len = self.trace.with_untracked(Trace::len);
        match self.cursor.get_untracked() {
            Some(c) if c + 1 < len => self.cursor.set(Some(c + 1)),
            Some(_) => self.cursor.set(None),
            None => {
                if self.mode.get_untracked() == Mode::Step {
                    self.with_rt(Runtime::step);
                    self.sync();
                }
            }
        }
    }

    /// One event back.
    pub fn back(&self) {
        let len = self.trace.with_untracked(Trace::len);
        let at = self.cursor.get_untracked().unwrap_or(len);
        self.cursor.set(Some(at.saturating_sub(1)));
    }

    /// The number of events shown.
    pub fn shown(&self) -> usize {
        let len = self.trace.with(Trace::len);
        self.cursor.get().map_or(len, |c| c.min(len))
    }

    /// Jumps to an event count (the scrubber); the end follows the latest.
    pub fn seek(&self, to: usize) {
        let len = self.trace.with_untracked(Trace::len);
        self.cursor.set(if to >= len { None } else { Some(to) });
    }

    /// A human answers a request as its addressee.
    pub fn answer(&self, as_agent: &AgentName, id: &RequestId, approve: bool, text: &str) {
        if let Some(Err(e)) = self.with_rt(|rt| rt.answer_as(as_agent, id.as_str(), approve, text)) {
            self.banner.set(Some(format!("Error: {e}")));
        }
        self.sync();
    }

    /// A human sends a message as any agent.
    pub fn send(&self, from: &AgentName, to: &AgentName, content: &str) {
        if let Some(Err(e)) = self.with_rt(|rt| rt.send_as(from, to, content)) {
            self.banner.set(Some(format!("Error: {e}")));
        }
        self.sync();
    }

    fn schedule_sync(&self) {
        let pending = self.sync_pending.get_value();
        if pending.replace(true) {
            return;
        }
        let session = *self;
        request_animation_frame(move || {
            pending.set(false);
            session.sync();
        });
    }

    /// Copies what changed in the runtime into the signals.
    pub fn sync(&self) {
        let Some((new_entries, running, stopped, waiting, streaming)) = self.with_rt(|rt| {
            let have = self.trace.with_untracked(Trace::len);
            let new = rt.with_team(|t| t.trace().entries()[have.min(t.trace().len())..].to_vec());
            let waiting = rt.waiting().into_iter().map(|(who, kind)| format!("{who}: {kind}")).collect::<Vec<_>>();
            (new, rt.is_running(), rt.is_stopped(), waiting, rt.streaming_text())
        }) else {
            return;
        };
        if !new_entries.is_empty() {
            self.trace.update(|t| {
                for e in new_entries {
                    // The runtime's trace only grows, in time order.
                    let _ = t.append(e.time, e.event);
                }
            });
        }
        let finished = self.running.get_untracked() && !running;
        let newly_stopped = stopped && !self.stopped.get_untracked();
        self.running.set(running);
        self.stopped.set(stopped);
        if finished || newly_stopped {
            self.keep_current();
        }
        self.next_up.set(waiting);
        self.streaming.set(streaming);
        if !running && !stopped {
            let next = self.queued.try_update_value(VecDeque::pop_front).flatten();
            if let Some(prompt) = next {
                self.submit(&prompt);
            }
        }
    }
}

impl Session {
    fn settings(&self) -> storage::RunSettings {
        storage::RunSettings {
            provider: self.provider.get_untracked().id().to_string(),
            base_url: self.base_url.get_untracked(),
            model: self.model_name.get_untracked(),
            seed: self.seed.get_untracked(),
            scenario: self.scenario.get_untracked().map(str::to_string),
            faults: self.faults.get_untracked(),
        }
    }

    fn stored(&self, title: String) -> storage::StoredRun {
        let id = js_sys::Date::now() as u64;
        storage::StoredRun { id, title, settings: self.settings(), trace: self.trace.with_untracked(export::trace_json) }
    }

    fn title(&self) -> String {
        let prompt = self.trace.with_untracked(|t| {
            t.entries().iter().find_map(|e| match &e.event {
                crate::protocol::Event::RunStarted { prompt } => Some(prompt.clone()),
                _ => None,
            })
        });
        let prompt = prompt.unwrap_or_else(|| "empty run".into());
        format!("{} ({} events)", prompt.chars().take(60).collect::<String>(), self.trace.with_untracked(Trace::len))
    }

    /// Keeps the run on screen as the one a reload restores.
    pub fn keep_current(&self) {
        if let Err(e) = storage::save_current(&self.stored(self.title())) {
            self.banner.set(Some(format!("Error: {e}")));
        }
    }

    /// Shows the run from before the reload, if there was one. True if so.
    pub fn restore_current(&self) -> bool {
        match storage::load_current() {
            Ok(Some(run)) => match run.trace() {
                Ok(trace) if !trace.is_empty() => {
                    self.apply_settings(&run.settings);
                    self.load(trace);
                    self.scenario.set(run.settings.scenario.as_deref().and_then(crate::runtime::scenarios::by_id).map(|s| s.id));
                    true
                }
                Ok(_) => false,
                Err(e) => {
                    self.banner.set(Some(format!("Error: {e}")));
                    false
                }
            },
            Ok(None) => false,
            Err(e) => {
                self.banner.set(Some(format!("Error: {e}")));
                false
            }
        }
    }

    fn apply_settings(&self, settings: &storage::RunSettings) {
        if let Some(p) = Provider::from_id(&settings.provider) {
            self.provider.set(p);
        }
        self.base_url.set(settings.base_url.clone());
        self.model_name.set(settings.model.clone());
        self.seed.set(settings.seed);
        self.faults.set(settings.faults.clone());
        self.load_remembered_key();
    }

    /// Adds the run on screen to the saved runs.
    pub fn save_run(&self) {
        match storage::save(self.stored(self.title())) {
            Ok(()) => self.refresh_saved(),
            Err(e) => self.banner.set(Some(format!("Error: {e}"))),
        }
    }

    /// Re-reads the saved runs list.
    pub fn refresh_saved(&self) {
        match storage::saved() {
            Ok(runs) => self.saved.set(runs.into_iter().map(|r| (r.id, r.title)).collect()),
            Err(e) => self.banner.set(Some(format!("Error: {e}"))),
        }
    }

    /// Opens a saved run for replay.
    pub fn open_saved(&self, id: u64) {
        let run = storage::saved().and_then(|runs| runs.into_iter().find(|r| r.id == id).ok_or(storage::StorageError::Corrupt("it is gone".into())));
        match run.and_then(|r| r.trace().map(|t| (r.settings, t))) {
            Ok((settings, trace)) => {
                self.apply_settings(&settings);
                self.load(trace);
                self.keep_current();
            }
            Err(e) => self.banner.set(Some(format!("Error: {e}"))),
        }
    }

    /// Deletes a saved run.
    pub fn delete_saved(&self, id: u64) {
        if let Err(e) = storage::delete(id) {
            self.banner.set(Some(format!("Error: {e}")));
        }
        self.refresh_saved();
    }

    /// A link that reopens the run: for a scripted scenario run, its id, seed
    /// and fault rules (the run replays exactly); otherwise the trace itself,
    /// compressed, when it fits in a link.
    pub fn share_link(&self) -> Result<String, String> {
        if self.running.get() {
            return Err("The share link appears when the run ends.".into());
        }
        let location = web_sys::window().ok_or("no window")?.location();
        let base = format!("{}{}", location.origin().map_err(|_| "no origin")?, location.pathname().map_err(|_| "no path")?);
        let fragment = match self.scenario.get() {
            Some(id) if self.provider.get() == Provider::Scripted && !self.imported.get() => {
                share::scenario_fragment(id, self.seed.get(), &self.faults.get())
            }
            _ => self.trace.with(share::trace_fragment).map_err(|e| e.to_string())?,
        };
        Ok(format!("{base}#{fragment}"))
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new(BASE_PACE_MS)
    }
}
