//! An exploration in the page, as its workers report: the job (`Job`: the
//! combined live counters, then the merged report, and the shrinking
//! searches it shares out), built from what the Explore panel asks for
//! (`settings`: `ExploreSettings`, its bounds, the link that carries it)
//! and the messages a worker and the page exchange (`messages`).
//!
//! Owns the job's rules only. Pure and native: no DOM, no workers, no clock
//! (the driver passes times in, in milliseconds); the search itself is
//! `explore`, the workers are `ui::explore::workers`, the view is
//! `ui::explore::panel`.

mod messages;
mod settings;

pub use messages::{ClaimBatch, FromWorker, ToWorker};
pub use settings::{
    ExploreLink, ExploreSettings, GALLERY_WORKERS, MAX_DECISIONS, MAX_DEPTH, MAX_FAULTS, MAX_RUNS, MAX_STATES, MAX_WORKERS,
};

use crate::explore::{ExploreConfig, PathExample, Progress, Report, Shrinking};

/// Why an exploration cannot start, or a worker's message cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExploreJobError {
    /// No explorable scenario has this id.
    #[error("no scenario '{0}' can be explored")]
    UnknownScenario(String),
    /// Too many or too few workers.
    #[error("{0} workers: choose from 1 to {MAX_WORKERS}")]
    Workers(usize),
    /// Too many faults.
    #[error("{0} faults per run: choose from 0 to {MAX_FAULTS}")]
    Faults(usize),
    /// Faults allowed but no kind of fault chosen.
    #[error("faults are allowed but no kind is ticked: tick drop, duplicate, delay or reorder, or set faults to 0")]
    NoFaultKind,
    /// A bound of zero.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// A bound above the most the panel offers (`MAX_DEPTH`, `MAX_STATES`,
    /// `MAX_DECISIONS`, `MAX_RUNS`).
    #[error("{bound} is {value}: choose at most {max}")]
    TooLarge {
        /// The bound, in words ("the depth bound").
        bound: &'static str,
        /// What was asked for.
        value: u64,
        /// The most allowed.
        max: u64,
    },
    /// A message from a worker that is not one.
    #[error("a worker sent a message that cannot be read: {0}")]
    BadMessage(String),
    /// The protocol file whose team is explored cannot be: it has no team,
    /// or its properties do not compile.
    #[error("the protocol file's team cannot be explored: {0}")]
    File(String),
}

/// Where a job is.
#[derive(Debug, Clone, PartialEq)]
pub enum JobState {
    /// Workers are searching.
    Running,
    /// Every worker reported; the reports merged.
    Done(Box<Report<PathExample>>),
    /// Stopped by the user before the end.
    Stopped,
    /// A worker could not search.
    Failed(String),
}

/// What the driver must do after a worker's message.
#[derive(Debug, Clone, PartialEq)]
pub enum Reaction {
    /// Nothing.
    None,
    /// Send this worker its configuration.
    Send(ToWorker),
    /// A new search of the job begins (one that shrinks the examples to
    /// fewer faults): send worker `i` the `i`-th message.
    SendEach(Vec<ToWorker>),
    /// The job is over (done or failed): terminate the workers.
    Finished,
}

/// The combined live counters of a job's workers.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Counters {
    /// Transitions taken by every worker, in every search of the job.
    pub states: u64,
    /// Distinct states of the first search (the whole space within the
    /// bounds), summed over workers (each counts those it holds: about the
    /// whole search's, since they share their claims).
    pub distinct_states: u64,
    /// The deepest path any worker has reached.
    pub depth: usize,
    /// States waiting to be expanded, summed.
    pub frontier: usize,
    /// Workers that have finished the search under way.
    pub finished: usize,
    /// The fault bound of the shrinking search under way, if one is: the
    /// first search is over and its examples are searched for again with
    /// at most this many faults.
    pub shrinking: Option<usize>,
    /// Workers in the job.
    pub workers: usize,
    /// Seconds since the start (to the end, once over).
    pub seconds: f64,
    /// `states / seconds`.
    pub states_per_second: f64,
}

/// One exploration in the page, as its workers report: the search of the
/// space within the settings' bounds, shared among the workers, then, if
/// their state bound cut it short, each shrinking search its examples need
/// (fewer faults allowed), shared among them too. Each worker runs one search at a time
/// ([`Exploration::one_search`]); the job merges the workers' reports of
/// each and decides what to search next ([`Shrinking`]). Workers do not
/// shrink on their own: each would search every fewer-fault space whole.
///
/// [`Exploration::one_search`]: crate::explore::Exploration::one_search
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// What was asked for.
    pub settings: ExploreSettings,
    /// The search under way's slices, one per worker.
    configs: Vec<ExploreConfig>,
    progress: Vec<Progress>,
    reports: Vec<Option<Report<PathExample>>>,
    /// The first search's merged report and the shrinking searches', once
    /// the first is over.
    shrinking: Option<Shrinking<PathExample>>,
    /// Transitions taken in the searches already over.
    earlier_states: u64,
    started_ms: f64,
    ended_ms: Option<f64>,
    /// Where it is.
    pub state: JobState,
}

impl Job {
    /// A job for `settings`, started at `now_ms`; its workers are to be
    /// started by the driver, one per entry of `settings.slices()`.
    pub fn new(settings: ExploreSettings, now_ms: f64) -> Result<Job, ExploreJobError> {
        settings.validate()?;
        let configs = settings.slices();
        let n = configs.len();
        Ok(Job {
            settings,
            configs,
            progress: vec![Progress::default(); n],
            reports: vec![None; n],
            shrinking: None,
            earlier_states: 0,
            started_ms: now_ms,
            ended_ms: None,
            state: JobState::Running,
        })
    }

    /// How many workers the job needs.
    pub fn workers(&self) -> usize {
        self.configs.len()
    }

    /// Takes worker `worker`'s message at `now_ms` and says what to do.
    pub fn on_message(&mut self, worker: usize, message: FromWorker, now_ms: f64) -> Reaction {
        if self.state != JobState::Running || worker >= self.configs.len() {
            return Reaction::None;
        }
        match message {
            FromWorker::Ready => Reaction::Send(ToWorker::Explore { config: self.configs[worker].clone() }),
            FromWorker::Progress { progress } => {
                self.progress[worker] = progress;
                Reaction::None
            }
            FromWorker::Done { report } => {
                self.progress[worker] =
                    Progress { states: report.states, distinct_states: report.distinct_states, depth: report.depth, frontier: 0, pass: 0 };
                self.reports[worker] = Some(*report);
                if self.reports.iter().all(Option::is_some) {
                    return self.search_over(now_ms);
                }
                Reaction::None
            }
            FromWorker::Failed { error } => {
                self.ended_ms = Some(now_ms);
                self.state = JobState::Failed(error);
                Reaction::Finished
            }
        }
    }

    /// Every worker reported on the search under way: merges their reports
    /// and starts the next shrinking search, or ends the job.
    fn search_over(&mut self, now_ms: f64) -> Reaction {
        let Some(merged) = Report::merge(self.reports.iter().flatten().cloned().collect()) else {
            self.ended_ms = Some(now_ms);
            self.state = JobState::Failed("no worker reported".into());
            return Reaction::Finished;
        };
        self.earlier_states += merged.states;
        let shrinking = match self.shrinking.take() {
            None => Shrinking::new(merged),
            Some(mut shrinking) => {
                shrinking.add(merged);
                shrinking
            }
        };
        if let Some(bound) = shrinking.next_bound() {
            self.shrinking = Some(shrinking);
            self.configs = ExploreSettings { max_faults: bound, ..self.settings.clone() }.slices();
            let n = self.configs.len();
            self.progress = vec![Progress::default(); n];
            self.reports = vec![None; n];
            return Reaction::SendEach(self.configs.iter().map(|config| ToWorker::Explore { config: config.clone() }).collect());
        }
        // Counted in `earlier_states` now, with the searches before it.
        self.progress.fill(Progress::default());
        let seconds = (now_ms - self.started_ms).max(0.0) / 1000.0;
        let mut report = shrinking.finish().timed(seconds);
        report.config = self.settings.config();
        self.ended_ms = Some(now_ms);
        self.state = JobState::Done(Box::new(report));
        Reaction::Finished
    }

    /// Fails the job at `now_ms` with `error` (its workers could not
    /// start, say).
    pub fn fail(&mut self, error: String, now_ms: f64) {
        if self.state == JobState::Running {
            self.ended_ms = Some(now_ms);
            self.state = JobState::Failed(error);
        }
    }

    /// Stops the job at `now_ms` (the driver terminates its workers).
    pub fn stop(&mut self, now_ms: f64) {
        if self.state == JobState::Running {
            self.ended_ms = Some(now_ms);
            self.state = JobState::Stopped;
        }
    }

    /// True while workers search.
    pub fn is_running(&self) -> bool {
        self.state == JobState::Running
    }

    /// The combined counters at `now_ms`.
    pub fn counters(&self, now_ms: f64) -> Counters {
        let end = self.ended_ms.unwrap_or(now_ms);
        let seconds = (end - self.started_ms).max(0.0) / 1000.0;
        let states = self.earlier_states + self.progress.iter().map(|p| p.states).sum::<u64>();
        let first = self.shrinking.as_ref().map(Shrinking::first);
        let (distinct_states, depth) = match (first, &self.state) {
            (_, JobState::Done(report)) => (report.distinct_states, report.depth),
            (Some(first), _) => (first.distinct_states, first.depth),
            (None, _) => (self.progress.iter().map(|p| p.distinct_states).sum(), self.progress.iter().map(|p| p.depth).max().unwrap_or(0)),
        };
        let running = self.state == JobState::Running;
        Counters {
            states,
            distinct_states,
            depth,
            frontier: if running { self.progress.iter().map(|p| p.frontier).sum() } else { 0 },
            finished: self.reports.iter().filter(|r| r.is_some()).count(),
            shrinking: self.shrinking.as_ref().filter(|_| running).map(|_| self.configs.first().map_or(0, |c| c.max_faults)),
            workers: self.configs.len(),
            seconds,
            states_per_second: if seconds > 0.0 { states as f64 / seconds } else { 0.0 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::{explore, Exploration, Property, Slice, Verdict};
    use crate::protocol::FaultAction;

    fn settings(scenario: &str, workers: usize) -> ExploreSettings {
        ExploreSettings { scenario: scenario.into(), workers, fault_kinds: vec![FaultAction::Drop], ..ExploreSettings::default() }
    }

    /// What a worker reports on `config`, as the page reads it.
    fn done(config: &ExploreConfig) -> FromWorker {
        let mut search = Exploration::one_search(config).unwrap();
        let report = loop {
            if let Some(report) = search.run(1 << 20).unwrap() {
                break report;
            }
        };
        FromWorker::from_json(&FromWorker::Done { report: Box::new(report.paths()) }.to_json()).unwrap()
    }

    /// Plays the workers' part with the real explorer, in order, through
    /// every search the job asks for; the configurations of each search.
    fn run(job: &mut Job, now: &mut f64) -> Vec<Vec<ExploreConfig>> {
        let mut configs = Vec::new();
        for w in 0..job.workers() {
            let Reaction::Send(ToWorker::Explore { config }) = job.on_message(w, FromWorker::Ready, *now) else {
                panic!("a ready worker gets its slice")
            };
            configs.push(config);
        }
        let mut searches = Vec::new();
        loop {
            let mut next = None;
            for (w, config) in configs.iter().enumerate() {
                *now += 500.0;
                match job.on_message(w, done(config), *now) {
                    Reaction::None => {}
                    Reaction::SendEach(messages) => next = Some(messages),
                    Reaction::Finished => assert_eq!(w + 1, configs.len(), "the job ends when its last worker reports"),
                    Reaction::Send(m) => panic!("a report is not answered alone: {m:?}"),
                }
            }
            searches.push(std::mem::take(&mut configs));
            let Some(messages) = next else { return searches };
            assert_eq!(messages.len(), job.workers(), "each worker gets a part of the next search");
            configs = messages.into_iter().map(|ToWorker::Explore { config }| config).collect();
        }
    }

    #[test]
    fn a_finished_jobs_counters_count_each_transition_once() {
        // One search, nothing to shrink: the counters are its report's.
        let mut now = 0.0;
        let mut job = Job::new(ExploreSettings { max_faults: 0, ..settings("shutdown", 1) }, now).unwrap();
        assert_eq!(run(&mut job, &mut now).len(), 1);
        let JobState::Done(report) = &job.state else { panic!("{:?}", job.state) };
        let c = job.counters(now);
        assert_eq!((c.states, c.states_per_second), (report.states, report.states_per_second));
    }
    #[test]
    fn each_worker_gets_its_own_slice_and_the_merged_report_has_the_single_searchs_verdicts() {
        let single = explore(&settings("shutdown", 1).config()).unwrap();
        let start = 1_000.0;
        let mut now = start;
        let mut job = Job::new(settings("shutdown", 2), now).unwrap();
        let slices: Vec<_> = job.configs.iter().map(|c| c.slice).collect();
        assert_eq!(slices, vec![Some(Slice { index: 0, of: 2 }), Some(Slice { index: 1, of: 2 })]);
        run(&mut job, &mut now);
        let JobState::Done(report) = &job.state else { panic!("done after every worker reported: {:?}", job.state) };
        for p in &single.properties {
            assert_eq!(report.property(p.property).map(|r| r.verdict), Some(p.verdict), "{}", p.property.name());
        }
        assert!(report.property(Property::NoAnswerLost).is_some_and(|p| p.verdict == Verdict::Fails));
        assert_eq!(report.config.slice, None, "the merged report is the whole search's");
        assert_eq!(job.counters(now).finished, 2);
        assert!((report.seconds - (now - start) / 1000.0).abs() < 1e-9, "timed from the start to the last report");
    }

    #[test]
    fn a_complete_shared_search_is_not_searched_again_and_gives_the_single_searchs_examples() {
        for (scenario, faults) in [("shutdown", 2), ("reject-plan", 1)] {
            let settings = ExploreSettings {
                max_faults: faults,
                fault_kinds: vec![FaultAction::Drop, FaultAction::Duplicate],
                ..settings(scenario, 2)
            };
            let single = explore(&settings.config()).unwrap().paths();
            let mut now = 0.0;
            let mut job = Job::new(settings.clone(), now).unwrap();
            assert_eq!(run(&mut job, &mut now).len(), 1, "{scenario}: one search");
            let JobState::Done(report) = &job.state else { panic!("{scenario}: done: {:?}", job.state) };
            assert!(report.complete, "{scenario}");
            let mut shrunk = false;
            for p in &single.properties {
                let q = report.property(p.property).unwrap();
                let example = |r: &crate::explore::PropertyReport<PathExample>| r.example.as_ref().map(|e| (e.faults, e.path.len()));
                assert_eq!((q.verdict, example(q)), (p.verdict, example(p)), "{scenario}: {}", p.property.name());
                shrunk |= example(q).is_some_and(|(f, _)| f < faults);
            }
            assert!(shrunk, "{scenario}: some example uses fewer faults than the search allowed");
            assert_eq!(report.config, settings.config(), "{scenario}: the report is of the settings' search");
        }
    }

    /// Settings whose first search each worker cuts short (at 60 distinct
    /// states), with examples that use faults.
    fn cut_short() -> ExploreSettings {
        ExploreSettings {
            max_faults: 2,
            max_states: 60,
            fault_kinds: vec![FaultAction::Drop, FaultAction::Duplicate],
            ..settings("shutdown", 2)
        }
    }

    #[test]
    fn the_shrinking_searches_of_a_search_cut_short_are_shared_among_the_workers() {
        let settings = cut_short();
        let mut now = 0.0;
        let mut job = Job::new(settings.clone(), now).unwrap();
        let searches = run(&mut job, &mut now);
        assert!(searches.len() > 1, "an example with faults is shrunk by another search");
        for (i, search) in searches.iter().enumerate() {
            let slices: Vec<_> = search.iter().map(|c| c.slice).collect();
            assert_eq!(slices, vec![Some(Slice { index: 0, of: 2 }), Some(Slice { index: 1, of: 2 })], "search {i} is shared");
            let bound = search[0].max_faults;
            assert!(search.iter().all(|c| c.max_faults == bound), "search {i}'s parts have one bound");
            assert!(i == 0 && bound == 2 || i > 0 && bound < 2, "search {i} allows {bound} faults");
        }
        let parts = searches[0].iter().map(|c| match done(c) {
            FromWorker::Done { report } => *report,
            other => panic!("{other:?}"),
        });
        let first = Report::merge(parts.collect()).unwrap();
        assert!(!first.complete);
        let JobState::Done(report) = &job.state else { panic!("done: {:?}", job.state) };
        for p in &report.properties {
            let faults = |r: Option<&crate::explore::PropertyReport<PathExample>>| r.and_then(|r| r.example.as_ref()).map(|e| e.faults);
            assert!(faults(Some(p)) <= faults(first.property(p.property)), "{}", p.property.name());
        }
        assert_eq!(report.config, settings.config(), "the report is of the settings' search");
        let c = job.counters(now);
        assert_eq!((c.distinct_states, c.shrinking, c.frontier), (report.distinct_states, None, 0));
        assert!(c.states > report.states, "the counters count every search's transitions");
    }

    #[test]
    fn while_shrinking_the_counters_say_so_and_keep_the_first_searchs_distinct_states() {
        let mut job = Job::new(cut_short(), 0.0).unwrap();
        let configs: Vec<_> = (0..2)
            .map(|w| match job.on_message(w, FromWorker::Ready, 0.0) {
                Reaction::Send(ToWorker::Explore { config }) => config,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(job.counters(1.0).shrinking, None);
        job.on_message(0, done(&configs[0]), 10.0);
        let Reaction::SendEach(next) = job.on_message(1, done(&configs[1]), 20.0) else { panic!("a shrinking search follows") };
        let ToWorker::Explore { config } = &next[0];
        let c = job.counters(30.0);
        assert_eq!(c.shrinking, Some(config.max_faults));
        assert_eq!((c.finished, c.workers), (0, 2), "no worker has finished the new search");
        let JobState::Running = job.state else { panic!("still running") };
        let first = job.shrinking.as_ref().unwrap().first().clone();
        assert_eq!((c.distinct_states, c.depth), (first.distinct_states, first.depth));
        assert_eq!(c.states, first.states, "the first search's transitions, then the new one's");
        job.on_message(
            1,
            FromWorker::Progress { progress: Progress { states: 7, distinct_states: 5, depth: 1, frontier: 3, pass: 0 } },
            40.0,
        );
        let c = job.counters(40.0);
        assert_eq!((c.states, c.distinct_states, c.frontier), (first.states + 7, first.distinct_states, 3));
    }

    #[test]
    fn counters_add_up_the_workers_progress_and_rate_it_over_the_elapsed_time() {
        let mut job = Job::new(settings("shutdown", 2), 0.0).unwrap();
        let p = |states, depth| FromWorker::Progress {
            progress: Progress { states, distinct_states: states / 2, depth, frontier: 10, pass: 0 },
        };
        job.on_message(0, p(3_000, 7), 500.0);
        job.on_message(1, p(1_000, 9), 700.0);
        let c = job.counters(2_000.0);
        assert_eq!((c.states, c.distinct_states, c.depth, c.frontier, c.finished, c.workers), (4_000, 2_000, 9, 20, 0, 2));
        assert!((c.states_per_second - 2_000.0).abs() < 1e-9);
    }

    #[test]
    fn a_stopped_job_ignores_late_messages_and_its_clock_stops() {
        let mut job = Job::new(settings("shutdown", 1), 0.0).unwrap();
        job.stop(1_000.0);
        assert_eq!(job.on_message(0, FromWorker::Ready, 1_500.0), Reaction::None);
        assert_eq!(job.state, JobState::Stopped);
        assert!((job.counters(9_000.0).seconds - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_failing_worker_fails_the_job_with_its_reason() {
        let mut job = Job::new(settings("shutdown", 2), 0.0).unwrap();
        assert_eq!(job.on_message(1, FromWorker::Failed { error: "out of memory".into() }, 10.0), Reaction::Finished);
        assert_eq!(job.state, JobState::Failed("out of memory".into()));
    }

    #[test]
    fn a_files_team_travels_to_the_workers_as_its_text_with_its_properties_and_its_counterexample_replays() {
        use crate::explore::file_team::scenario_of;
        use crate::explore::replay_file_finding;
        use crate::protocol::file::{self, builtin};
        let text = builtin::EXAMPLES.iter().find(|(n, _)| *n == "task-claim").unwrap().1;
        let f = std::sync::Arc::new(file::load(text).unwrap());
        let settings = ExploreSettings { max_decisions: 1, max_faults: 0, ..ExploreSettings::default() }.for_file(f).unwrap();
        settings.validate().unwrap();
        assert_eq!(settings.scenario, "task-claim");
        // What the page sends a worker, and what the worker makes of it.
        let sent = ToWorker::Explore { config: settings.slices().remove(0) };
        let ToWorker::Explore { config: mut got } = ToWorker::from_json(&sent.to_json()).unwrap();
        assert!(got.file_properties.is_empty(), "the properties travel as the file's text");
        got.compile_team_properties().unwrap();
        assert_eq!(got, settings.config(), "the worker searches the page's search");
        let report = explore(&got).unwrap();
        let own = &report.file_properties[0];
        assert_eq!((own.name.as_str(), own.verdict), ("one_owner_per_task", Verdict::Fails));
        let e = own.example.as_ref().unwrap();
        let (_, found) = replay_file_finding(scenario_of(&got).unwrap(), &got, &e.path, 0).unwrap();
        assert_eq!(found.as_ref(), Some(&e.finding), "the counterexample replays on the page");
        // A link carries the file too, and a file with no team is refused.
        let link = ExploreLink { settings: settings.clone(), path: None, property: None, entry: None };
        let back: ExploreLink = serde_json::from_str(&serde_json::to_string(&link).unwrap()).unwrap();
        assert_eq!(back, link);
        let lesson = std::sync::Arc::new(builtin::lesson().unwrap());
        assert!(matches!(ExploreSettings::default().for_file(lesson), Err(ExploreJobError::File(_))));
    }
}
