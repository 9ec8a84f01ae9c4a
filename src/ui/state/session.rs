//! The session: the link between the runtime and the reactive graph. It
//! holds the parts of the page's state, each in its own module — the
//! settings being edited (`settings`), the run on screen (`run`), playback
//! (`playback`), saved runs (`library`) — plus the error banner, and it is
//! the only place that talks to the runtime. Runtime changes reach the
//! trace once per animation frame, however many events happened in between.
//!
//! Owns the actions (run, stop, step, answer; saving, opening and sharing
//! runs in `saved`). It must not draw anything, and it must not build a
//! model itself (`model::provider_settings`).

use std::cell::Cell;
use std::collections::VecDeque;
use std::rc::Rc;

use leptos::prelude::*;

use crate::explore::file_team::{file_team_run, FileTeamRun};
use crate::model::provider_settings::{self, Provider};
use crate::protocol::file::ProtocolFile;
use crate::protocol::{AgentName, RequestId, Trace};
use crate::runtime::scenarios::Scenario;
use crate::runtime::scheduler::Mode;
use crate::runtime::{browser, Runtime, RuntimeConfig};
use crate::ui::browser::lang::Lang;
use crate::ui::state::library::Library;
use crate::ui::state::playback::Playback;
use crate::ui::state::run::Run;
use crate::ui::state::settings::{Settings, TeamSettings};
use crate::ui::state::storage;
use crate::ui::state::storage::StorageError;
use crate::view::derived::RunViews;
use crate::view::export::snapshot::RunSnapshot;
use crate::view::i18n::{tr, Catalog, Locale};

mod saved;

/// Base pacing of Live mode at 1x, in milliseconds per unit of an event's
/// weight (`runtime::pace`).
pub const BASE_PACE_MS: f64 = crate::runtime::pace::BASE_PACE_MS as f64;

/// Every part of one session. `Copy`: pass it around freely.
#[derive(Clone, Copy)]
pub struct Session {
    rt: StoredValue<Option<Runtime>, LocalStorage>,
    /// What the runtime's team was built from (with the key: never stored).
    rt_settings: StoredValue<Option<TeamSettings>>,
    queued: StoredValue<VecDeque<String>, LocalStorage>,
    sync_pending: StoredValue<Rc<Cell<bool>>, LocalStorage>,
    /// Live pacing at 1x, in milliseconds per event.
    base_pace: StoredValue<f64>,
    /// How many runs were started or shown: a restore that finds it changed
    /// leaves the newer run on screen.
    runs_shown: StoredValue<u64>,
    /// Where runs are kept, and the reads and writes waiting their turn.
    storage: StoredValue<storage::StorageQueue, LocalStorage>,
    /// The settings being edited (they build the next team).
    pub settings: Settings,
    /// The run on screen.
    pub run: Run,
    /// Cursor, mode, speed, selection.
    pub playback: Playback,
    /// Saved runs.
    pub library: Library,
    /// A dismissible error for the banner.
    pub banner: RwSignal<Option<String>>,
    /// The page's language, for what the session writes in the banner.
    lang: Lang,
}

impl Session {
    /// A session with no run yet, pacing Live mode at `base_pace_ms` per
    /// event at 1x (0 runs as fast as the agents go).
    pub fn new(base_pace_ms: f64) -> Self {
        Session {
            rt: StoredValue::new_local(None),
            rt_settings: StoredValue::new(None),
            queued: StoredValue::new_local(VecDeque::new()),
            sync_pending: StoredValue::new_local(Rc::new(Cell::new(false))),
            base_pace: StoredValue::new(base_pace_ms),
            runs_shown: StoredValue::new(0),
            storage: StoredValue::new_local(storage::StorageQueue::new(storage::Runs::default())),
            settings: Settings::new(),
            run: Run::new(),
            playback: Playback::new(),
            library: Library::new(),
            banner: RwSignal::new(None),
            lang: Lang(RwSignal::new(Locale::En)),
        }
    }

    /// The same session, writing its banner in `lang`'s language.
    pub fn speaking(self, lang: Lang) -> Self {
        Session { lang, ..self }
    }

    /// Reads and keeps this session's runs through `queue` from now on
    /// (a queue of its own, on the page's database, unless told otherwise
    /// before any run is read or kept).
    pub fn keep_runs_through(&self, queue: storage::StorageQueue) {
        self.storage.set_value(queue);
    }

    /// The catalog of the page's language, untracked.
    fn cat(&self) -> &'static Catalog {
        self.lang.cat_untracked()
    }

    /// Shows an error in the banner.
    pub fn error(&self, e: impl std::fmt::Display) {
        self.banner.set(Some(tr!(self.cat(), "ui-error", error = e.to_string())));
    }

    /// Shows what browser storage refused, in the page's language.
    pub fn storage_error(&self, e: &StorageError) {
        self.error(storage::words(self.cat(), e));
    }

    /// The pace of Live mode at the current speed.
    pub fn pace_ms(&self) -> u64 {
        (self.base_pace.get_value() / self.playback.speed.get_untracked()).round() as u64
    }

    /// Runs `f` on the runtime, if there is one (none once the page that
    /// owned the session is gone: a runtime notice or an animation frame
    /// that arrives after it unmounted then does nothing).
    pub fn with_rt<T>(&self, f: impl FnOnce(&Runtime) -> T) -> Option<T> {
        self.rt.try_with_value(|rt| rt.as_ref().map(f)).flatten()
    }

    /// The page is going away: its team stops (no loop, timer or model
    /// call outlives the page that shows it).
    pub fn end(&self) {
        self.with_rt(Runtime::stop);
    }

    /// The number of events shown (tracked).
    pub fn shown(&self) -> usize {
        let len = self.run.trace.with(Trace::len);
        self.playback.shown(len)
    }

    /// Replaces the runtime with a fresh team built from the settings shown
    /// (the old one is stopped). False (and the banner says why) if the
    /// settings cannot build a team.
    pub fn reset(&self) -> bool {
        self.start_team(None)
    }

    /// `reset`, or with `file` a fresh team of that protocol file: its
    /// world under the file, its fault rules and protective rules, played
    /// by the file's scripted model when the provider is the scripted one
    /// (a real provider gets the file's tools as generated).
    fn start_team(&self, file: Option<&FileTeamRun>) -> bool {
        if let Some(why) = self.settings.first_problem() {
            self.error(tr!(self.cat(), "session-fix-settings", why = why.to_string()));
            return false;
        }
        let team = self.settings.team_untracked();
        let built = team.faults.validate().map_err(|e| e.to_string()).and_then(|()| {
            let sleeper = Rc::new(crate::model::sleep::TimerSleeper);
            provider_settings::build(&team.provider, crate::model::fetch::FetchTransport, sleeper).map_err(|e| e.to_string())
        });
        let built = match file {
            Some(run) if team.provider.provider == Provider::Scripted => Ok(Rc::new(run.model.clone()) as Rc<dyn crate::model::Model>),
            _ => built,
        };
        let model = match built {
            Ok(model) => model,
            Err(e) => {
                // The team on screen (if any) carries on untouched.
                self.error(e);
                return false;
            }
        };
        self.with_rt(Runtime::stop);
        let config = RuntimeConfig {
            seed: team.seed,
            max_tokens: team.provider.max_tokens,
            faults: team.faults.clone(),
            mode: self.playback.mode.get_untracked(),
            pace_ms: self.pace_ms(),
            budget: team.budget,
            rates: team.rates,
            ..RuntimeConfig::default()
        };
        let config = match file {
            Some(run) => RuntimeConfig { faults: run.faults.clone(), rules: run.rules, protocols: run.config.protocols.clone(), ..config },
            None => config,
        };
        let host = if team.provider.provider == Provider::Scripted { browser::host() } else { browser::real_time_host() };
        let rt = Runtime::new(config, model, host);
        let session = *self;
        rt.subscribe(Rc::new(move || session.schedule_sync()));
        self.rt.set_value(Some(rt));
        let mut snapshot = team.snapshot();
        snapshot.by_hand = self.playback.mode.get_untracked() == Mode::Step;
        self.rt_settings.set_value(Some(team.clone()));
        self.queued.update_value(VecDeque::clear);
        self.run.start(team.seed, snapshot);
        if file.is_some() {
            // The trace's header as the world writes it: the file it runs
            // under (format v2) and its rules, so a link, an export or a
            // reload reads the run under its own file, and the page's views
            // replay it under the file's protocols.
            let header = self.with_rt(Runtime::trace);
            if let Some(header) = header {
                // Its views know the file's protocols too: the checker, the
                // trackers and the requests panel read its requests.
                self.run.views.set(crate::view::derived::RunViews::of(&header));
                self.run.trace.set(header);
            }
        }
        self.runs_shown.update_value(|n| *n += 1);
        self.playback.rewind_to_latest();
        self.banner.set(None);
        self.sync();
        true
    }

    /// Shows a recorded trace for replay: the running team (if any) is
    /// stopped and set aside; a new prompt starts a fresh team.
    pub fn load(&self, trace: Trace, snapshot: Option<RunSnapshot>) {
        self.load_built(RunViews::of(&trace), trace, snapshot);
    }

    /// [`Session::load`] with the trace's views already built.
    fn load_built(&self, views: RunViews, trace: Trace, snapshot: Option<RunSnapshot>) {
        self.with_rt(Runtime::stop);
        self.rt.set_value(None);
        self.rt_settings.set_value(None);
        self.queued.update_value(VecDeque::clear);
        self.playback.playing.set(false);
        self.run.show_built(views, trace, snapshot);
        self.runs_shown.update_value(|n| *n += 1);
        self.playback.rewind_to_latest();
        self.banner.set(None);
    }

    /// The label of the model of the run on screen, for the header.
    pub fn model_label(&self) -> String {
        self.with_rt(Runtime::model_label).unwrap_or_default()
    }

    /// True when the team behind the run on screen was built from exactly
    /// the settings shown (tracked), so Run continues it.
    pub fn settings_match_team(&self) -> bool {
        let shown = self.settings.team();
        self.rt_settings.with_value(|t| t.as_ref() == Some(&shown))
    }

    /// True while the runtime has work in flight.
    pub fn is_busy(&self) -> bool {
        self.with_rt(|rt| rt.is_running() && !rt.is_stopped()).unwrap_or(false)
    }

    /// Sends a prompt to the lead. The team on screen continues when it was
    /// built from the settings shown and is not stopped; otherwise a new
    /// team starts from the settings shown. Refused while a run is going.
    pub fn submit(&self, prompt: &str) {
        if self.is_busy() {
            self.error(self.cat().t("session-busy"));
            return;
        }
        if let Some(why) = self.settings.first_problem() {
            self.error(tr!(self.cat(), "session-fix-settings", why = why.to_string()));
            return;
        }
        let continue_team = !self.with_rt(Runtime::is_stopped).unwrap_or(true) && untrack(|| self.settings_match_team());
        if !continue_team && !self.reset() {
            return; // reset said what is missing
        }
        self.send_prompt(prompt);
    }

    fn send_prompt(&self, prompt: &str) {
        match self.with_rt(|rt| rt.submit_prompt(prompt)) {
            Some(Err(e)) => self.error(e),
            Some(Ok(())) => {
                self.run.snapshot.update(|s| {
                    if let Some(s) = s {
                        s.prompts.push(prompt.to_string());
                    }
                });
                self.playback.cursor.set(None);
            }
            None => {}
        }
        self.sync();
    }

    /// Runs a scenario on a fresh team built from the settings shown; its
    /// later prompts wait for the team to go quiet.
    pub fn run_scenario(&self, scenario: Scenario) {
        if !self.reset() {
            return;
        }
        self.run.snapshot.update(|s| {
            if let Some(s) = s {
                s.scenario = Some(scenario.id.to_string());
            }
        });
        self.queued.update_value(|q| q.extend(scenario.prompts.iter().skip(1).map(|p| p.to_string())));
        self.send_prompt(scenario.prompts[0]);
    }

    /// Runs a protocol file's own team (`explore::file_team`) on a fresh
    /// runtime: its first prompt at once, the others once the team goes
    /// quiet. False (the banner says why) when the file has no team or
    /// the settings cannot build one.
    pub fn run_file(&self, file: std::sync::Arc<ProtocolFile>) -> bool {
        let seed = self.settings.team_untracked().seed;
        let run = match file_team_run(file, seed) {
            Ok(run) => run,
            Err(e) => {
                self.error(e);
                return false;
            }
        };
        let Some((first, rest)) = run.prompts.split_first() else {
            self.error(self.cat().t("session-file-no-prompt"));
            return false;
        };
        if !self.start_team(Some(&run)) {
            return false;
        }
        self.run.snapshot.update(|s| {
            if let Some(s) = s {
                s.scenario = None;
            }
        });
        self.queued.update_value(|q| q.extend(rest.iter().cloned()));
        self.send_prompt(first);
        true
    }

    /// Live or Step.
    pub fn set_mode(&self, mode: Mode) {
        self.playback.mode.set(mode);
        if mode == Mode::Step && self.run.running.get_untracked() {
            self.run.mark_by_hand();
        }
        self.with_rt(|rt| rt.set_mode(mode));
        self.sync();
    }

    /// Changes speed (and Live pacing).
    pub fn set_speed(&self, speed: f64) {
        self.playback.speed.set(speed.clamp(0.25, 4.0));
        let pace = self.pace_ms();
        self.with_rt(|rt| rt.set_pace(pace));
    }

    /// Stops every agent; the trace stays for replay.
    pub fn stop(&self) {
        let had_run = self.with_rt(|_| ()).is_some();
        self.with_rt(Runtime::stop);
        self.playback.playing.set(false);
        self.queued.update_value(VecDeque::clear);
        if had_run {
            // A run cut short is reproduced by its trace only, also after a reload.
            if self.run.running.get_untracked() {
                self.run.mark_by_hand();
            }
            self.run.stopped_by_user.set(true);
        }
        self.sync();
    }

    /// One event forward: through the recorded trace, or (at its end, in
    /// Step mode) by releasing the next event of the run — exactly one
    /// (`World::step`).
    pub fn next(&self) {
        let len = self.run.trace.with_untracked(Trace::len);
        if !self.playback.forward(len) && self.playback.mode.get_untracked() == Mode::Step {
            self.with_rt(Runtime::step);
            self.sync();
        }
    }

    /// One event back.
    pub fn back(&self) {
        self.playback.back(self.run.trace.with_untracked(Trace::len));
    }

    /// Jumps to an event count (the scrubber); the end follows the latest.
    pub fn seek(&self, to: usize) {
        self.playback.seek(to, self.run.trace.with_untracked(Trace::len));
    }

    /// A human answers a request as its addressee, with the answer's typed
    /// fields (`view::answer_form`), as a model's answer tool would. False
    /// when it was refused (the banner says why).
    pub fn answer(&self, as_agent: &AgentName, id: &RequestId, approve: bool, fields: crate::protocol::Fields) -> bool {
        let answered = match self.with_rt(|rt| rt.answer_as_with_fields(as_agent, id.as_str(), approve, fields)) {
            Some(Err(e)) => {
                self.error(e);
                false
            }
            Some(Ok(_)) => {
                self.run.mark_by_hand();
                true
            }
            None => false,
        };
        self.sync();
        answered
    }

    /// A human sends a message as any agent still in the team; a teammate
    /// that has shut down is refused.
    pub fn send(&self, from: &AgentName, to: &AgentName, content: &str) {
        let gone = self.with_rt(|rt| rt.with_team(|t| t.roster().status(from))).flatten() == Some(crate::protocol::MemberStatus::Shutdown);
        if gone {
            self.error(tr!(self.cat(), "session-sender-gone", name = from.as_str()));
            return;
        }
        match self.with_rt(|rt| rt.send_as(from, to, content)) {
            Some(Err(e)) => self.error(e),
            Some(Ok(())) => self.run.mark_by_hand(),
            None => {}
        }
        self.sync();
    }

    fn schedule_sync(&self) {
        // A notice from a runtime whose page is gone: nothing to show.
        let Some(pending) = self.sync_pending.try_get_value() else { return };
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
        let Some((new_entries, running, stopped, waiting, streaming, behind)) = self.with_rt(|rt| {
            let have = self.run.trace.with_untracked(Trace::len);
            // Only the events released so far: in Step mode one per Next, in
            // a paced Live run one per dwell (`runtime::pace`).
            let new = rt.released_since(have as u64);
            // What Next lets run: a waiting turn, once every event recorded is out.
            let waiting = if rt.unreleased() > 0 {
                Vec::new()
            } else {
                rt.waiting().into_iter().map(|(who, kind)| format!("{who}: {kind}")).collect::<Vec<_>>()
            };
            // Only Step mode holds events back for Next: a paced Live run lets
            // its held events out by itself.
            let behind = rt.unreleased() > 0 && rt.mode() == Mode::Step;
            (new, rt.is_running(), rt.is_stopped(), waiting, rt.streaming_text(), behind)
        }) else {
            return;
        };
        self.run.append(new_entries);
        let finished = self.run.running.get_untracked() && !running;
        let newly_stopped = stopped && !self.run.stopped.get_untracked();
        if newly_stopped
            && self
                .run
                .trace
                .with_untracked(|t| t.entries().iter().any(|e| matches!(e.event, crate::protocol::Event::BudgetReached { .. })))
        {
            // A run its budget cut short is reproduced by its trace only, as after Stop.
            self.run.mark_by_hand();
            self.run.stopped_by_user.set(true);
        }
        let running = running && !stopped;
        self.run.running.set(running);
        self.run.stopped.set(stopped);
        if finished || newly_stopped {
            self.keep_current();
        }
        self.run.next_up.set(if stopped { Vec::new() } else { waiting });
        self.run.behind.set(behind && !stopped);
        self.run.streaming.set(if stopped { Default::default() } else { streaming });
        if !running && !stopped {
            let next = self.queued.try_update_value(VecDeque::pop_front).flatten();
            if let Some(prompt) = next {
                self.send_prompt(&prompt);
            }
        }
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new(BASE_PACE_MS)
    }
}
