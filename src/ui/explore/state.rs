//! The Explore panel's state and what it does (`ExploreUi`, in context):
//! start a search on Web Workers (spare ones loaded before Start, `warm`),
//! stop it, read the workers' messages into the job; open an example, a
//! link or a fork on the diagram; recover the run on screen as a path.
//!
//! Owns those actions and the state they share with the views (the panel,
//! the card over the diagram, the fork view, the gallery). It must not
//! draw: the views are `panel`, `fork`, `gallery`. The
//! job's rules are `explore::job`, the workers `workers`, the words
//! `view::words::explorer`; a run opens through the `Session` like any other.

use std::rc::Rc;

use leptos::prelude::*;

use crate::explore::job::{ExploreLink, ExploreSettings, FromWorker, Job, JobState, Reaction, MAX_WORKERS};
use crate::explore::{fork, replay_finding, Choice, PathExample, Property, PropertyReport};
use crate::protocol::Trace;
use crate::ui::browser::lang::lang;
use crate::ui::explore::workers::{OnMessage, Workers};
use crate::ui::state::session::Session;
use crate::view::export::share;
use crate::view::fork_align::{align, Alignment};
use crate::view::i18n::tr;
use crate::view::words::explorer::{self, Card};

/// How long after a search ends (or is stopped) the spare workers for the
/// next one start: once the verdicts are drawn and the user has had a
/// moment with them.
const WARM_AFTER_MS: u32 = 1_000;

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

impl Opened {
    /// The explorer link that reopens this run with its card: `None` unless
    /// it is an example of a property (a gallery entry's keeps its entry).
    pub fn link(&self) -> Option<ExploreLink> {
        let entry = match &self.card {
            Card::Finding { entry, .. } => entry.map(str::to_string),
            _ => None,
        };
        self.property.map(|p| ExploreLink {
            settings: self.settings.clone(),
            path: Some(self.path.clone()),
            property: Some(p.name().into()),
            entry,
        })
    }
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

    /// Makes the settings follow the team on screen: a run of an explorable
    /// scenario sets the scenario (and seed) unless a search is running.
    /// Called once by the page, so the settings follow runs made before the
    /// Tools tab (and the panel, a split point) first loads.
    pub fn follow_runs(self, s: Session) {
        Effect::new(move |_| {
            let Some(snapshot) = s.run.snapshot.get() else { return };
            let Some(id) = snapshot.scenario.clone().filter(|id| crate::runtime::scenarios::explorable(id).is_some()) else {
                return;
            };
            if !self.job.with_untracked(|j| j.as_ref().is_some_and(Job::is_running)) {
                self.settings.update(|x| {
                    if x.team.is_some() {
                        x.team = None;
                        x.rules = Default::default();
                    }
                    x.scenario = id;
                    x.seed = snapshot.seed;
                });
            }
        });
    }

    /// Starts the workers the next search will need (as many as the
    /// settings say), unless they are started already or a search runs:
    /// called when the user moves into the panel, and a moment after each
    /// search ends or is stopped. Loading a worker compiles its code, which
    /// on a device with few cores competes with the page; done now, it is
    /// not done while the search runs, and Start sends the slices at once.
    pub fn warm(self) {
        let n = self.settings.with_untracked(|x| x.workers.clamp(1, MAX_WORKERS));
        self.keep_spare(n, |len| len == n);
    }

    /// `warm` for a search with `n` workers (the gallery's take
    /// `GALLERY_WORKERS`), keeping more if there are: the panel's own
    /// searches may want them.
    pub fn warm_for(self, n: usize) {
        let n = n.clamp(1, MAX_WORKERS);
        self.keep_spare(n, |len| len >= n);
    }

    /// Makes the spare workers `n` unless a search runs or `enough` of them
    /// are loading or loaded. Spare workers one of which failed to load are
    /// let go and started again; Start never takes them (it starts its own,
    /// and says why if those fail too).
    fn keep_spare(self, n: usize, enough: impl Fn(usize) -> bool) {
        if self.job.with_untracked(|j| j.as_ref().is_some_and(Job::is_running)) {
            return;
        }
        if self.spare.with_value(|w| w.as_ref().is_some_and(|w| enough(w.len()) && !w.any_failed())) {
            return;
        }
        // Spare workers' messages wait for Start (`Workers` remembers who
        // said `ready` and who failed).
        let on_message: OnMessage = Rc::new(|_, _| {});
        let mut spare = self.spare.try_update_value(Option::take).flatten().filter(|w| !w.any_failed());
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
        self.halt();
        let job = match Job::new(self.settings.get_untracked(), now()) {
            Ok(job) => job,
            Err(e) => {
                let cat = lang().cat_untracked();
                return s.error(tr!(cat, "explore-not-started", error = explorer::job_error(cat, &e)));
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
                // Taken and silenced now, so a search started before the
                // timer runs keeps its own workers, and reads none of these
                // (another may still be searching after one failed).
                Reaction::Finished => {
                    let done = self.workers.try_update_value(Option::take).flatten();
                    if let Some(w) = &done {
                        w.silence();
                    }
                    gloo_timers::callback::Timeout::new(0, move || drop(done)).forget();
                    self.warm_soon();
                }
                Reaction::None => {}
            }
        });
        let started = match self.spare.try_update_value(Option::take).flatten().filter(|w| !w.any_failed()) {
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
                        j.fail(e.to_string(), now())
                    }
                });
            }
        }
    }

    /// Stops the search: its workers are terminated; what they found so far
    /// is dropped (a report needs every worker's end). Spare workers for the
    /// next search start a moment later.
    pub fn stop(self) {
        self.halt();
        self.warm_soon();
    }

    /// Ends the search under way, if any (`stop` without the spare workers).
    fn halt(self) {
        self.workers.set_value(None);
        self.job.update(|j| {
            if let Some(j) = j {
                j.stop(now())
            }
        });
    }

    /// Starts the spare workers `WARM_AFTER_MS` from now.
    fn warm_soon(self) {
        self.warm_later.set_value(Some(gloo_timers::callback::Timeout::new(WARM_AFTER_MS, move || self.warm())));
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
        let rebuilt =
            crate::explore::file_team::scenario_of(&config).and_then(|scenario| replay_finding(scenario, &config, path, report.property));
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

    /// Opens the example of a protocol file's own property (the
    /// `index`th of the file's `[[property]]` list) on the diagram: the run
    /// rebuilt from its path under the search's settings (a worker's trace
    /// arrives without the file's protocols resolved), the card in the
    /// file's words, its event marked.
    pub fn open_file(self, s: Session, settings: ExploreSettings, index: usize, report: &crate::explore::FilePropertyReport) {
        let Some(e) = report.example.as_ref() else { return };
        let settings = ExploreSettings { max_faults: e.bound, ..settings };
        let config = settings.config();
        let rebuilt = crate::explore::file_team::scenario_of(&config)
            .and_then(|scenario| crate::explore::replay_file_finding(scenario, &config, &e.path, index));
        let (trace, found) = match rebuilt {
            Ok(run) => run,
            Err(err) => return s.error(err),
        };
        let finding = found.unwrap_or_else(|| e.finding.clone());
        let card = Card::FileFinding {
            name: report.name.clone(),
            quantifier: report.quantifier,
            detail: finding.detail.clone(),
            faults: e.faults,
            choices: e.path.len(),
        };
        let words = card.words(lang().cat_untracked()).0;
        self.show(s, trace, Opened { property: None, card, seq: Some(finding.seq), path: e.path.clone(), settings });
        s.playback.marked.set(Some((finding.seq, words)));
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
        let mark = opened.property.and(opened.seq).map(|seq| (seq, opened.card.words(crate::ui::browser::lang::lang().cat_untracked()).0));
        s.playback.marked.set(mark);
        self.opened.set(Some(opened));
    }

    /// Opens an explorer link: the settings go to the panel; a path is
    /// replayed and opened on the diagram. False when the run cannot be
    /// rebuilt (the banner says why).
    pub fn open_link(self, s: Session, link: ExploreLink) -> bool {
        self.settings.set(link.settings.clone());
        let Some(rebuilt) = share::finding_of_link(&link) else { return true };
        match rebuilt {
            Ok(share::FindingRun { trace, card, seq }) => {
                let property = link.property();
                let path = link.path.unwrap_or_default();
                self.show(s, trace, Opened { property, card, seq, path, settings: link.settings });
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
    /// Recovers the run on screen (a scripted scenario run, or a protocol
    /// file's own team run, untouched) as the explorer's path and opens it,
    /// so any of its choices can be forked; a file's run is explored under
    /// its file (its protocols, its team, its fault rules), so the forks
    /// run under the same protocols. The banner says why when it cannot.
    pub fn fork_on_screen(self, s: Session) {
        let Some(snapshot) = s.run.snapshot.get_untracked() else {
            return s.error(lang().cat_untracked().t("explore-fork-no-snapshot"));
        };
        let file = s.run.trace.with_untracked(|t| t.protocols().file().cloned());
        let settings = match (snapshot.reproducible_scenario(), file) {
            (Some(scenario), _) => {
                if !snapshot.faults.rules.is_empty() {
                    return s.error(lang().cat_untracked().t("explore-fork-fault-rules"));
                }
                ExploreSettings {
                    scenario: scenario.id.to_string(),
                    seed: snapshot.seed,
                    max_faults: 1,
                    team: None,
                    ..self.settings.get_untracked()
                }
            }
            (None, Some(file)) if snapshot.reproducible_file_team(&file) => {
                match self.settings.get_untracked().for_file(std::sync::Arc::new(file)) {
                    Ok(settings) => ExploreSettings { seed: snapshot.seed, max_faults: 1, ..settings },
                    Err(e) => return s.error(crate::view::words::explorer::job_error(lang().cat_untracked(), &e)),
                }
            }
            (None, Some(_)) => return s.error(lang().cat_untracked().t("explore-fork-file-run")),
            (None, None) => return s.error(lang().cat_untracked().t("explore-fork-not-reproducible")),
        };
        let config = settings.config();
        let trace = s.run.trace.get_untracked();
        let recovered = crate::explore::file_team::scenario_of(&config).and_then(|scenario| fork::recover_path(scenario, &config, &trace));
        match recovered {
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
        let Ok(scenario) = crate::explore::file_team::scenario_of(&config) else { return };
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
pub(super) fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}
