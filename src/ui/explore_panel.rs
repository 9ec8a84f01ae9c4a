//! The Explore panel: choose a scenario, the bounds and the properties to
//! show; Start and Stop; live counters while Web Workers search; each
//! property's verdict, and each example (a counterexample, or a
//! `sometimes` property's witness) opened on the diagram, with a card saying
//! what broke and why, the run's choices in words, and its link.
//!
//! Owns the panel's view and its state (`ExploreUi`, in context). The job's
//! rules are `explore_job`, the workers `explore_workers`, the words
//! `explore_words`; a run opens through the `Session` like any other.

use std::rc::Rc;

use leptos::ev;
use leptos::prelude::*;

use super::explore_job::{ExploreLink, ExploreSettings, FromWorker, Job, JobState, Reaction, MAX_FAULTS, MAX_WORKERS};
use super::explore_words::{self, Card};
use super::explore_workers::{cores, OnMessage, Workers};
use super::fork_align::{align, Alignment};
use super::i18n::tr;
use super::i18n_view::lang;
use super::session::Session;
use super::share;
use crate::explore::{fork, replay_finding, Choice, PathExample, Property, PropertyReport, Quantifier, Strategy, Verdict};
use crate::protocol::{FaultAction, Trace};
use crate::runtime::scenarios;

/// A run of a search opened on the diagram (an example, a branch of a
/// fork, or a run on screen recovered as a path to fork it).
#[derive(Debug, Clone, PartialEq)]
pub struct Opened {
    /// The property it breaks (or shows), if it is an example.
    pub property: Option<Property>,
    /// What its card says (worded when drawn).
    pub card: Card,
    /// The entry where it breaks, if known.
    pub seq: Option<u64>,
    /// Its choices from the start.
    pub path: Vec<Choice>,
    /// The settings of the search it came from.
    pub settings: ExploreSettings,
}

/// A gallery search under way or shown.
#[derive(Debug, Clone, PartialEq)]
pub struct GalleryRun {
    /// The entry's id.
    pub entry: &'static str,
    /// The entry's rule is on.
    pub rule_on: bool,
    /// The counterexample's choices (found with the rule off).
    pub path: Option<Vec<Choice>>,
    /// Waiting for the search to end to open its run.
    pub pending: bool,
}

/// A fork to show.
#[derive(Debug, Clone, PartialEq)]
pub struct ForkShown {
    /// The step (from 0) where the runs take different choices.
    pub at: usize,
    /// The run forked from.
    pub original: fork::Branch,
    /// The run that took `choice` there.
    pub forked: fork::Branch,
    /// The other choice.
    pub choice: Choice,
    /// The two runs' rows.
    pub alignment: Alignment,
    /// Where the original came from (its card), to reopen either run.
    pub from: Opened,
}

/// The panel's state, shared by the panel, the card over the diagram and
/// the link opener. `Copy`: pass it around freely.
#[derive(Clone, Copy)]
pub struct ExploreUi {
    /// What the next search will explore.
    pub settings: RwSignal<ExploreSettings>,
    /// The search on screen (running or over).
    pub job: RwSignal<Option<Job>>,
    /// Its workers while they run.
    workers: StoredValue<Option<Workers>, LocalStorage>,
    /// Workers started before a search needs them (`warm`), loaded and
    /// waiting for the next Start.
    spare: StoredValue<Option<Workers>, LocalStorage>,
    /// The timer that starts spare workers after a search.
    warm_later: StoredValue<Option<gloo_timers::callback::Timeout>, LocalStorage>,
    /// The run of a search on the diagram, if any.
    pub opened: RwSignal<Option<Opened>>,
    /// Which properties the verdict list shows.
    pub shown: RwSignal<Vec<Property>>,
    /// A fork shown side by side.
    pub fork: RwSignal<Option<ForkShown>>,
    /// A gallery entry's search, under way or shown.
    pub gallery: RwSignal<Option<GalleryRun>>,
}

impl ExploreUi {
    /// A panel with the default settings and nothing explored.
    pub fn new() -> Self {
        ExploreUi {
            settings: RwSignal::new(ExploreSettings::default()),
            job: RwSignal::new(None),
            workers: StoredValue::new_local(None),
            spare: StoredValue::new_local(None),
            warm_later: StoredValue::new_local(None),
            opened: RwSignal::new(None),
            shown: RwSignal::new(Property::ALL.to_vec()),
            fork: RwSignal::new(None),
            gallery: RwSignal::new(None),
        }
    }

    /// Starts the workers the next search will need (as many as the
    /// settings say), unless they are started already or a search runs:
    /// called when the user moves into the panel or the gallery, and after
    /// each search. Loading a worker compiles its code, which on a device
    /// with few cores competes with the page; done now, it is not done while
    /// the search runs, and Start sends the slices at once. A spare worker
    /// that fails to load is let go: Start then starts its own, and says
    /// why if that fails too.
    pub fn warm(self) {
        if self.job.with_untracked(|j| j.as_ref().is_some_and(Job::is_running)) {
            return;
        }
        let n = self.settings.with_untracked(|x| x.workers.clamp(1, MAX_WORKERS));
        if self.spare.with_value(|w| w.as_ref().is_some_and(|w| w.len() == n)) {
            return;
        }
        let on_message: OnMessage = Rc::new(move |_, message| {
            if matches!(message, Ok(FromWorker::Failed { .. }) | Err(_)) {
                // Not from inside the worker's own listener: later.
                gloo_timers::callback::Timeout::new(0, move || self.spare.set_value(None)).forget();
            }
        });
        let mut spare = self.spare.try_update_value(Option::take).flatten();
        let resized = match spare.as_mut() {
            Some(w) => w.resize(n),
            None => Workers::start(n, on_message).map(|w| spare = Some(w)),
        };
        self.spare.set_value(spare.filter(|_| resized.is_ok()));
    }

    /// True when spare workers are started.
    pub fn has_spare(self) -> bool {
        self.spare.with_value(Option::is_some)
    }

    /// How many spare workers have loaded and said `ready`.
    pub fn spare_ready(self) -> usize {
        self.spare.with_value(|w| w.as_ref().map_or(0, Workers::ready))
    }

    /// Ends every worker (a search's, the spare ones, the ones due to
    /// start): the panel is gone.
    pub fn close(self) {
        // `try_`: in a page being torn down the panel's state may be gone.
        self.warm_later.try_set_value(None);
        self.spare.try_set_value(None);
        self.workers.try_set_value(None);
        self.job.try_update(|j| {
            if let Some(j) = j {
                j.stop(now())
            }
        });
    }

    /// Starts a search with the settings on screen; a search still running
    /// is stopped first. Bad settings go to the banner. The spare workers
    /// (`warm`) run it when there are; more are started when it needs more.
    pub fn start(self, s: Session) {
        self.stop();
        let job = match Job::new(self.settings.get_untracked(), now()) {
            Ok(job) => job,
            Err(e) => {
                let cat = lang().cat_untracked();
                return s.error(tr!(cat, "explore-not-started", error = explore_words::job_error(cat, &e)));
            }
        };
        let n = job.workers();
        self.job.set(Some(job));
        let on_message: OnMessage = Rc::new(move |index, message| {
            let message = message.unwrap_or_else(|e| FromWorker::Failed { error: e.to_string() });
            let mut reaction = Reaction::None;
            self.job.update_untracked(|job| {
                if let Some(job) = job {
                    reaction = job.on_message(index, message, now());
                }
            });
            if reaction == Reaction::Finished {
                // On the page's timeline (the browser benchmark splits its
                // frames there): the workers have stopped.
                let done = self.job.with_untracked(|j| matches!(j, Some(Job { state: JobState::Done(_), .. })));
                if let Some(p) = window().performance().filter(|_| done) {
                    let _ = p.mark("explore: last report read");
                }
                // The report was read and merged in this task; it is drawn
                // (the verdicts, the status) in the next frame's, so the
                // two halves of the work share no frame.
                request_animation_frame(move || self.job.notify());
            } else {
                self.job.notify();
            }
            match reaction {
                Reaction::Send(m) => self.workers.with_value(|w| {
                    if let Some(w) = w {
                        w.send(index, &m)
                    }
                }),
                Reaction::SendEach(messages) => self.workers.with_value(|w| {
                    if let Some(w) = w {
                        for (i, m) in messages.iter().enumerate() {
                            w.send(i, m)
                        }
                    }
                }),
                // Not from inside the worker's own listener: later. Fresh
                // spare workers for the next search once the verdicts are
                // drawn (a worker's memory keeps the size its search grew it
                // to; a fresh one starts small).
                Reaction::Finished => {
                    gloo_timers::callback::Timeout::new(0, move || self.workers.set_value(None)).forget();
                    self.warm_later.set_value(Some(gloo_timers::callback::Timeout::new(WARM_AFTER_MS, move || self.warm())));
                }
                Reaction::None => {}
            }
        });
        let started = match self.spare.try_update_value(Option::take).flatten() {
            Some(mut spare) => spare.resize(n).map(|()| spare),
            None => Workers::start(n, on_message.clone()),
        };
        match started {
            Ok(w) => {
                let ready = w.hand_to(on_message.clone());
                self.workers.set_value(Some(w));
                // The spare workers loaded already: their slices go now.
                for index in ready {
                    on_message(index, Ok(FromWorker::Ready));
                }
            }
            Err(e) => {
                self.job.update(|j| {
                    if let Some(j) = j {
                        j.state = JobState::Failed(e.to_string())
                    }
                });
            }
        }
    }

    /// Stops the search: its workers are terminated; what they found so far
    /// is dropped (a report needs every worker's end).
    pub fn stop(self) {
        self.workers.set_value(None);
        self.job.update(|j| {
            if let Some(j) = j {
                j.stop(now())
            }
        });
    }

    /// Opens a property's example on the diagram: the run loads like any
    /// recorded trace, the cursor goes to where it breaks, the card says why.
    /// Workers send each example as its path; the run and what it found are
    /// rebuilt from it here, when it is opened, under the fault bound of the
    /// search that found it: the opened run's settings carry that bound, so
    /// its link, its forks and its choices replay the same run.
    pub fn open(self, s: Session, settings: ExploreSettings, report: &PropertyReport<PathExample>) {
        let Some(PathExample { path, faults, bound }) = report.example.as_ref() else { return };
        let settings = ExploreSettings { max_faults: *bound, ..settings };
        let config = settings.config();
        let rebuilt = scenarios::explorable(&config.scenario)
            .ok_or_else(|| crate::explore::ExploreError::UnknownScenario(config.scenario.clone()))
            .and_then(|scenario| replay_finding(scenario, &config, path, report.property));
        let (trace, finding) = match rebuilt {
            Ok(run) => run,
            Err(e) => return s.error(e),
        };
        let card = Card::Finding {
            property: report.property,
            detail: finding.as_ref().map(|f| f.detail.clone()),
            faults: *faults,
            choices: path.len(),
            entry: None,
        };
        let seq = finding.map(|f| f.seq);
        self.show(s, trace, Opened { property: Some(report.property), card, seq, path: path.clone(), settings });
    }

    /// Loads `trace` on the diagram as the run `opened` describes, the
    /// cursor at its marked event.
    pub fn show(self, s: Session, trace: Trace, opened: Opened) {
        let at = opened.seq.and_then(|seq| trace.entries().iter().position(|e| e.seq == seq));
        s.load(trace, None);
        if let Some(i) = at {
            s.seek(i + 1);
        }
        // An example's event is marked on the diagram.
        let mark = opened.property.and(opened.seq).map(|seq| (seq, opened.card.words(super::i18n_view::lang().cat_untracked()).0));
        s.playback.marked.set(mark);
        self.opened.set(Some(opened));
    }

    /// Opens an explorer link: the settings go to the panel; a path is
    /// replayed and opened on the diagram. False when the run cannot be
    /// rebuilt (the banner says why).
    pub fn open_link(self, s: Session, link: ExploreLink) -> bool {
        self.settings.set(link.settings.clone());
        let (Some(path), Some(property)) = (link.path.clone(), link.property()) else { return true };
        let config = link.settings.config();
        let Some(scenario) = scenarios::explorable(&config.scenario) else { return false };
        match replay_finding(scenario, &config, &path, property) {
            Ok((trace, finding)) => {
                let faults =
                    trace.entries().iter().filter(|e| matches!(e.event, crate::protocol::Event::FaultApplied { rule: None, .. })).count();
                let detail = finding.as_ref().map(|f| f.detail.clone());
                let card = Card::Finding { property, detail, faults, choices: path.len(), entry: None };
                self.show(s, trace, Opened { property: Some(property), card, seq: finding.map(|f| f.seq), path, settings: link.settings });
                true
            }
            Err(e) => {
                s.error(tr!(lang().cat_untracked(), "explore-link-not-rebuilt", error = e.to_string()));
                false
            }
        }
    }
}

impl ExploreUi {
    /// Recovers the run on screen (a scripted scenario run, untouched) as
    /// the explorer's path and opens it, so any of its choices can be
    /// forked. The banner says why when it cannot.
    pub fn fork_on_screen(self, s: Session) {
        let Some(snapshot) = s.run.snapshot.get_untracked() else {
            return s.error(lang().cat_untracked().t("explore-fork-no-snapshot"));
        };
        let Some(scenario) = snapshot.reproducible_scenario() else {
            return s.error(lang().cat_untracked().t("explore-fork-not-reproducible"));
        };
        if !snapshot.faults.rules.is_empty() {
            return s.error(lang().cat_untracked().t("explore-fork-fault-rules"));
        }
        let settings =
            ExploreSettings { scenario: scenario.id.to_string(), seed: snapshot.seed, max_faults: 1, ..self.settings.get_untracked() };
        let trace = s.run.trace.get_untracked();
        match fork::recover_path(scenario, &settings.config(), &trace) {
            Ok(branch) => {
                let card = Card::OnScreen { choices: branch.path.len() };
                let seq = s.playback.cursor.get_untracked().and_then(|c| trace.entries().get(c.saturating_sub(1)).map(|e| e.seq));
                self.opened.set(Some(Opened { property: None, card, seq, path: branch.path, settings }));
            }
            Err(e) => s.error(e),
        }
    }

    /// Forks the opened run at step `at` with `choice`, and shows both.
    pub fn fork_at(self, s: Session, at: usize, choice: Choice) {
        let Some(from) = self.opened.get_untracked() else { return };
        let config = from.settings.config();
        let Some(scenario) = scenarios::explorable(&config.scenario) else { return };
        let original = crate::explore::replay_path(scenario, &config, &from.path)
            .map(|node| fork::Branch { path: from.path.clone(), trace: node.trace().clone() });
        match original.and_then(|original| fork::fork(scenario, &config, &from.path, at, &choice).map(|forked| (original, forked))) {
            Ok((original, forked)) => {
                let alignment = align(&original.trace, &forked.trace);
                self.fork.set(Some(ForkShown { at, original, forked, choice, alignment, from }));
            }
            Err(e) => s.error(tr!(lang().cat_untracked(), "explore-fork-failed", error = e.to_string())),
        }
    }
}

impl Default for ExploreUi {
    fn default() -> Self {
        ExploreUi::new()
    }
}

/// Milliseconds from the page's time origin.
fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// A snake_case name that may wrap after its underscores (never inside a
/// word): the parts with `<wbr>` between them; copying it gives the name.
fn breakable(name: &str) -> impl IntoView {
    let parts: Vec<String> = name.split_inclusive('_').map(str::to_string).collect();
    parts.into_iter().enumerate().map(|(i, part)| view! { {(i > 0).then(|| view! { <wbr/> })}{part} }).collect_view()
}

/// Thousands separated, for counters.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

const FAULT_KINDS: [(&str, FaultAction); 4] = [
    ("drop", FaultAction::Drop),
    ("duplicate", FaultAction::Duplicate),
    ("delay", FaultAction::Delay { ms: 1_000 }),
    ("reorder", FaultAction::Reorder),
];

/// The Explore panel.
#[component]
pub fn ExplorePanel() -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let max_workers = cores(MAX_WORKERS);
    let all_cores = cores(usize::MAX);
    // The team on screen: a run of an explorable scenario sets the panel's
    // scenario (and seed) unless a search is running.
    Effect::new(move |_| {
        let Some(snapshot) = s.run.snapshot.get() else { return };
        let Some(id) = snapshot.scenario.clone().filter(|id| scenarios::explorable(id).is_some()) else { return };
        if !ui.job.with_untracked(|j| j.as_ref().is_some_and(Job::is_running)) {
            ui.settings.update(|x| {
                x.scenario = id;
                x.seed = snapshot.seed;
            });
        }
    });
    on_cleanup(move || ui.close());
    // Spare workers follow the number chosen (`ExploreUi::warm` starts them
    // once the user comes to the panel).
    Effect::new(move |first: Option<()>| {
        ui.settings.with(|x| x.workers);
        if first.is_some() && ui.has_spare() {
            ui.warm();
        }
    });
    let set = move |f: &dyn Fn(&mut ExploreSettings)| ui.settings.update(|x| f(x));
    let number = move |ev: &ev::Event| event_target_value(ev).trim().parse::<usize>().ok();
    let running = move || ui.job.with(|j| j.as_ref().is_some_and(Job::is_running));
    let kind_checked = move |name: &'static str| move || ui.settings.with(|x| x.fault_kinds.iter().any(|k| k.name() == name));
    let toggle_kind = move |name: &'static str, action: FaultAction| {
        move |ev: ev::Event| {
            let on = event_target_checked(&ev);
            ui.settings.update(|x| {
                x.fault_kinds.retain(|k| k.name() != name);
                if on {
                    x.fault_kinds.push(action.clone());
                }
            });
        }
    };
    let not_whole = move |key: &'static str| s.error(l.cat_untracked().t(key));
    view! {
        <section class="panel explore" aria-labelledby="explore-title" on:pointerenter=move |_| ui.warm() on:focusin=move |_| ui.warm()>
            <h2 id="explore-title">{move || l.t("explore-title")}</h2>
            <p class="muted small">{move || l.t("explore-intro")}</p>
            <div class="explore-form">
                <label class="field">{move || l.t("explore-scenario")}
                    <select aria-label=move || l.t("explore-scenario-label") prop:value=move || ui.settings.with(|x| x.scenario.clone()) on:change=move |ev| { let v = event_target_value(&ev); set(&|x| x.scenario = v.clone()) }>
                        {scenarios::ALL.into_iter().chain([scenarios::TWINS, scenarios::RESPAWN, scenarios::WITHOUT_PROTOCOLS]).map(|sc| view! { <option value=sc.id>{move || super::i18n::scenario_title(l.cat(), sc.id, sc.title)}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">{move || l.t("explore-faults-per-run")}
                    <input type="number" min="0" max=MAX_FAULTS.to_string() aria-label=move || l.t("explore-faults-per-run") prop:value=move || ui.settings.with(|x| x.max_faults.to_string())
                        on:change=move |ev| match number(&ev) { Some(n) => set(&|x| x.max_faults = n), None => not_whole("explore-faults-not-whole") }/>
                </label>
                <fieldset class="explore-kinds">
                    <legend>{move || l.t("explore-fault-kinds")}</legend>
                    {FAULT_KINDS.into_iter().map(|(name, action)| view! {
                        <label class="inline"><input type="checkbox" prop:checked=kind_checked(name) on:change=toggle_kind(name, action)/>{name}</label>
                    }).collect_view()}
                </fieldset>
                <label class="field">{move || l.t("explore-depth")}
                    <input type="number" min="1" aria-label=move || l.t("explore-depth") prop:value=move || ui.settings.with(|x| x.max_depth.to_string())
                        on:change=move |ev| match number(&ev) { Some(n) => set(&|x| x.max_depth = n), None => not_whole("explore-depth-not-whole") }/>
                </label>
                <label class="field">{move || l.t("explore-decisions")}
                    <input type="number" min="0" aria-label=move || l.t("explore-decisions-label") prop:value=move || ui.settings.with(|x| x.max_decisions.to_string())
                        on:change=move |ev| match number(&ev) { Some(n) => set(&|x| x.max_decisions = n), None => not_whole("explore-decisions-not-whole") }/>
                </label>
                <label class="inline"><input type="checkbox" prop:checked=move || ui.settings.with(|x| x.decisions.withhold_answers) on:change=move |ev| { let on = event_target_checked(&ev); set(&|x| x.decisions.withhold_answers = on) }/>{move || l.t("explore-withhold")}</label>
                <label class="field">{move || l.t("explore-search")}
                    <select aria-label=move || l.t("explore-search-label") on:change=move |ev| {
                        let v = event_target_value(&ev);
                        set(&|x| x.strategy = match v.as_str() { "dfs" => Strategy::Dfs, "simulate" => Strategy::Simulate { runs: 2_000, seed: 1 }, _ => Strategy::Bfs })
                    }>
                        <option value="bfs">{move || l.t("explore-bfs")}</option>
                        <option value="dfs">{move || l.t("explore-dfs")}</option>
                        <option value="simulate">{move || l.t("explore-simulate")}</option>
                    </select>
                </label>
                <label class="field">{move || l.t("explore-workers")}
                    <select aria-label=move || l.t("explore-workers") on:change=move |ev| { if let Some(n) = number(&ev) { set(&|x| x.workers = n) } }>
                        {(1..=max_workers).map(|n| view! { <option value=n.to_string() selected=move || ui.settings.with(|x| x.workers == n)>{n.to_string()}</option> }).collect_view()}
                    </select>
                </label>
            </div>
            // Workers on every core leave none to the page: it may respond
            // later while they search (measured: the browser benchmark).
            {move || {
                let n = ui.settings.with(|x| x.workers);
                (n > 1 && n >= all_cores).then(|| view! { <p class="small muted">{tr!(l.cat(), "explore-workers-all-cores", count = n)}</p> })
            }}
            <div class="row wrap">
                <button class="primary" disabled=running on:click=move |_| ui.start(s)>{move || l.t("explore-start")}</button>
                <button disabled=move || !running() on:click=move |_| ui.stop()>{move || l.t("explore-stop")}</button>
                <button disabled=move || s.run.running.get() || s.run.trace.with(Trace::is_empty) on:click=move |_| ui.fork_on_screen(s)>{move || l.t("explore-fork-on-screen")}</button>
            </div>
            <Counters/>
            <Verdicts/>
        </section>
    }
}

/// The live counters and the job's state.
#[component]
fn Counters() -> impl IntoView {
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    // Fine-grained: a worker's message changes the numbers' text nodes only;
    // the status line and the bar change when the job's state does.
    let has_job = Memo::new(move |_| ui.job.with(Option::is_some));
    let running = Memo::new(move |_| ui.job.with(|j| j.as_ref().is_some_and(Job::is_running)));
    let counters = Memo::new(move |_| ui.job.with(|j| j.as_ref().map(|j| j.counters(now()))).unwrap_or_default());
    let status = Memo::new(move |_| {
        let cat = l.cat();
        ui.job.with(|job| {
            let Some(job) = job.as_ref() else { return String::new() };
            match &job.state {
                JobState::Running => {
                    let c = job.counters(0.0);
                    match c.shrinking {
                        Some(faults) => {
                            let faults = explore_words::faults(cat, faults);
                            tr!(cat, "explore-state-shrinking", faults = faults.as_str(), done = c.finished, count = c.workers)
                        }
                        None => tr!(cat, "explore-state-running", done = c.finished, count = c.workers),
                    }
                }
                JobState::Done(r) if r.complete => cat.t("explore-state-done"),
                JobState::Done(_) => cat.t("explore-state-done-cut"),
                JobState::Stopped => cat.t("explore-state-stopped"),
                JobState::Failed(why) => tr!(cat, "explore-state-failed", error = why.as_str()),
            }
        })
    });
    let counter = move |key: &'static str, name: &'static str, value: fn(&super::explore_job::Counters) -> String| {
        view! { <div><dt>{move || l.t(key)}</dt><dd data-counter=name>{move || counters.with(value)}</dd></div> }
    };
    move || {
        has_job.get().then(|| {
            view! {
                <div class="explore-status">
                    {move || {
                        let progress = l.t("explore-progress");
                        if running.get() {
                            view! { <progress class="explore-progress" aria-label=progress></progress> }.into_any()
                        } else {
                            view! { <progress class="explore-progress" aria-label=progress max="1" value="1"></progress> }.into_any()
                        }
                    }}
                    <p class="small" role="status">{move || status.get()}</p>
                    <dl class="explore-counters">
                        {counter("explore-counter-states", "states", |c| grouped(c.states))}
                        {counter("explore-counter-rate", "rate", |c| grouped(c.states_per_second.round() as u64))}
                        {counter("explore-counter-distinct", "distinct", |c| grouped(c.distinct_states))}
                        {counter("explore-counter-depth", "depth", |c| c.depth.to_string())}
                        {counter("explore-counter-frontier", "frontier", |c| grouped(c.frontier as u64))}
                        {counter("explore-counter-seconds", "seconds", |c| format!("{:.1}", c.seconds))}
                    </dl>
                </div>
            }
        })
    }
}

/// Verdict rows drawn in the frame a report arrives; the rest follow in the
/// next frame, so no frame draws the whole list (the browser benchmark's
/// frame budget).
const FIRST_ROWS: usize = 8;

/// How long after a search ends its spare workers for the next one start:
/// once the verdicts are drawn and the user has had a moment with them.
const WARM_AFTER_MS: u32 = 1_000;

/// Each property's verdict, with a button that opens its example, and the
/// choice of which properties the list shows. The list is drawn once per
/// report, in two frames (`aria-busy` until its last rows are in); ticking
/// a property shows or hides its row, so the ticked box keeps its focus and
/// the choice stays open (the choice itself is drawn once, with the panel,
/// not with each report).
#[component]
fn Verdicts() -> impl IntoView {
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let done = Memo::new(move |_| ui.job.with(|job| matches!(job, Some(Job { state: JobState::Done(_), .. }))));
    let rest = RwSignal::new(false);
    let list = move || {
        let cat = l.cat();
        let (report, settings) = ui.job.with(|job| match job {
            Some(Job { state: JobState::Done(report), settings, .. }) => Some((report.clone(), settings.clone())),
            _ => None,
        })?;
        let outcomes = report.outcomes.len();
        let runs: u64 = report.outcomes.values().sum();
        let mut first = report.properties;
        let later = first.split_off(FIRST_ROWS.min(first.len()));
        rest.update_untracked(|r| *r = later.is_empty());
        if !later.is_empty() {
            request_animation_frame(move || rest.set(true));
        }
        let rows = {
            let settings = settings.clone();
            move || first.iter().map(|p| view! { <VerdictRow report=p.clone() settings=settings.clone()/> }).collect_view()
        };
        let more = move || {
            rest.get().then(|| later.iter().map(|p| view! { <VerdictRow report=p.clone() settings=settings.clone()/> }).collect_view())
        };
        Some(view! {
            <p class="small">{tr!(cat, "explore-outcomes", runs = grouped(runs), count = outcomes)}</p>
            <ul class="verdicts" aria-label=cat.t("explore-verdicts") aria-busy=move || (!rest.get()).to_string()>
                {rows()}
                {more}
            </ul>
        })
    };
    view! {
        {list}
        <details class="small" hidden=move || !done.get()>
            <summary>{move || l.t("explore-which-properties")}</summary>
            {Property::ALL.into_iter().map(|p| view! {
                <label class="inline"><input type="checkbox" prop:checked=move || ui.shown.with(|v| v.contains(&p))
                    on:change=move |ev| { let on = event_target_checked(&ev); ui.shown.update(|v| { v.retain(|x| *x != p); if on { v.push(p) } }) }/>
                    <code>{breakable(p.name())}</code></label>
            }).collect_view()}
        </details>
    }
}

/// One property's verdict, its statement when it fails (or a `sometimes`
/// one is not shown), and the button that opens its example.
#[component]
fn VerdictRow(
    /// The property's result.
    report: PropertyReport<PathExample>,
    /// The settings of the search it came from (to open its example).
    settings: ExploreSettings,
) -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let cat = lang().cat_untracked();
    let property = report.property;
    let name = property.name();
    let button = report.example.as_ref().map(|e| {
        let kind = explore_words::example_kind(cat, property);
        let faults = explore_words::faults(cat, e.faults);
        let label = tr!(cat, "explore-open-example-label", kind = kind.as_str(), property = name, choices = e.path.len(), faults = faults);
        let opening = report.clone();
        view! { <button class="small" aria-label=label on:click=move |_| ui.open(s, settings.clone(), &opening)>{tr!(cat, "explore-open-example", kind = kind)}</button> }
    });
    let class = format!("verdict verdict-{}", explore_words::verdict_class(report.verdict));
    let highlight =
        report.verdict == Verdict::Fails || (property.quantifier() == Quantifier::Sometimes && report.verdict != Verdict::Holds);
    view! {
        <li class=class data-property=name hidden=move || !ui.shown.with(|v| v.contains(&property))>
            <span class="verdict-badge">{explore_words::verdict(cat, report.verdict)}</span>
            <span class="verdict-name"><code>{explore_words::quantifier(property)}" "{breakable(name)}</code>
                {highlight.then(|| view! { <span class="small muted">{format!(" — {}", explore_words::statement(cat, property))}</span> })}
            </span>
            {button}
        </li>
    }
}

/// The card over the diagram for a run of a search: what it breaks and
/// why, its choices in words (each one can be forked), its link; Close
/// returns to plain replay.
#[component]
pub fn ExploreFinding() -> impl IntoView {
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let copy_status = RwSignal::new(String::new());
    move || {
        let cat = l.cat();
        let opened = ui.opened.get()?;
        let href = opened.property.and_then(|p| {
            let link = ExploreLink { settings: opened.settings.clone(), path: Some(opened.path.clone()), property: Some(p.name().into()) };
            let f = share::explore_fragment(&link).ok()?;
            let location = web_sys::window()?.location();
            Some(format!("{}{}#{f}", location.origin().ok()?, location.pathname().ok()?))
        });
        let (title, text) = opened.card.words(cat);
        let marked = opened.seq.map(|seq| tr!(cat, "explore-marked", seq = seq.to_string()));
        let steps = opened.path.len();
        Some(view! {
            <section class="explore-finding" class:explore-example=opened.property.is_some() aria-labelledby="finding-title" aria-live="polite">
                <h2 id="finding-title">{title}</h2>
                <p>{text}</p>
                {marked.filter(|_| opened.property.is_some()).map(|m| view! { <p class="small">{m}</p> })}
                <details open=opened.property.is_none()>
                    <summary>{tr!(cat, "explore-path-summary", count = steps)}</summary>
                    <ol class="explore-path small">
                        {opened.path.iter().enumerate().map(|(at, c)| view! { <PathStep at=at choice=c.clone()/> }).collect_view()}
                    </ol>
                </details>
                <div class="row wrap">
                    {href.map(|h| {
                        let copied = h.clone();
                        view! {
                            <a class="explore-link" href=h>{cat.t("explore-link")}</a>
                            <button on:click=move |_| super::web::copy_to_clipboard(l, copied.clone(), copy_status)>{cat.t("explore-copy-link")}</button>
                            <span class="copy-status small" role="status">{move || copy_status.get()}</span>
                        }
                    })}
                    <button on:click=move |_| ui.opened.set(None)>{cat.t("ui-close")}</button>
                </div>
            </section>
        })
    }
}

/// One choice of an opened run, with a Fork button that lists the other
/// choices open there.
#[component]
fn PathStep(at: usize, choice: Choice) -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let others = RwSignal::new(None::<Vec<Choice>>);
    let list = move |_| {
        if others.get_untracked().is_some() {
            return others.set(None);
        }
        let Some(from) = ui.opened.get_untracked() else { return };
        let config = from.settings.config();
        let Some(scenario) = scenarios::explorable(&config.scenario) else { return };
        match fork::open_choices(scenario, &config, &from.path, at) {
            Ok(open) => others.set(Some(open.into_iter().skip(1).collect())),
            Err(e) => s.error(e),
        }
    };
    let words = {
        let choice = choice.clone();
        move || explore_words::choice(l.cat(), &choice)
    };
    let label = {
        let choice = choice.clone();
        move || tr!(l.cat(), "fork-at-label", n = at + 1, choice = explore_words::choice(l.cat(), &choice))
    };
    view! {
        <li>
            <span>{words}</span>" "
            <button class="link-button" aria-label=label aria-expanded=move || others.with(Option::is_some).to_string() on:click=list>{move || l.t("fork-button")}</button>
            {move || others.get().map(|open| if open.is_empty() {
                view! { <p class="muted">{l.t("fork-none-open")}</p> }.into_any()
            } else {
                let cat = l.cat();
                view! {
                    <ul class="fork-choices" aria-label=tr!(cat, "fork-others-label", n = at + 1)>
                        {open.into_iter().map(|c| {
                            let text = explore_words::choice(cat, &c);
                            view! { <li><button on:click=move |_| ui.fork_at(s, at, c.clone())>{tr!(cat, "fork-instead", choice = text)}</button></li> }
                        }).collect_view()}
                    </ul>
                }.into_any()
            })}
        </li>
    }
}
