//! The run on screen: its trace (the single source of truth), whether it
//! is running, stopped or imported, what streams from in-flight model
//! calls, what Step mode releases next, and the snapshot of what built it.
//!
//! Owns these signals. Links, saved runs and the header read the snapshot,
//! never the settings boxes. It must not touch the runtime: the `Session`
//! copies the runtime's changes in.

use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::protocol::{AgentName, Event, Trace, TraceEntry};
use crate::view::derived::RunViews;
use crate::view::export::snapshot::RunSnapshot;

/// The run on screen. `Copy`: pass it around freely.
#[derive(Clone, Copy)]
pub struct Run {
    /// The trace so far. Write it only through `start`, `append` and
    /// `show_recorded` (or `show_built`), which keep `views` in step.
    pub trace: RwSignal<Trace>,
    /// What the page derives from the trace (state at any cursor, check,
    /// diagram layout, workspace), extended as events arrive.
    pub views: RwSignal<RunViews>,
    /// A run is in progress.
    pub running: RwSignal<bool>,
    /// The runtime was stopped (or there is none behind the trace).
    pub stopped: RwSignal<bool>,
    /// Stop was pressed on this run (not merely finished or imported).
    pub stopped_by_user: RwSignal<bool>,
    /// The trace was imported or restored (no team runs behind it).
    pub imported: RwSignal<bool>,
    /// Step mode: what Next will release.
    pub next_up: RwSignal<Vec<String>>,
    /// Step mode: the team recorded events the page does not show yet
    /// (Next releases them one by one).
    pub behind: RwSignal<bool>,
    /// Text streaming from in-flight model calls.
    pub streaming: RwSignal<BTreeMap<AgentName, String>>,
    /// What built this run: settings when its team started, and prompts.
    /// `None` for a trace that came without one (an imported file).
    pub snapshot: RwSignal<Option<RunSnapshot>>,
}

impl Run {
    /// An empty run.
    pub fn new() -> Self {
        Run {
            trace: RwSignal::new(Trace::new("default", 2026)),
            views: RwSignal::new(RunViews::new("default")),
            running: RwSignal::new(false),
            stopped: RwSignal::new(false),
            stopped_by_user: RwSignal::new(false),
            imported: RwSignal::new(false),
            next_up: RwSignal::new(Vec::new()),
            behind: RwSignal::new(false),
            streaming: RwSignal::new(BTreeMap::new()),
            snapshot: RwSignal::new(None),
        }
    }

    /// Starts showing a fresh team's run, built as `snapshot` says.
    pub fn start(&self, seed: u64, snapshot: RunSnapshot) {
        self.views.set(RunViews::new("default"));
        self.trace.set(Trace::new("default", seed));
        self.running.set(false);
        self.stopped.set(false);
        self.stopped_by_user.set(false);
        self.imported.set(false);
        self.next_up.set(Vec::new());
        self.behind.set(false);
        self.streaming.set(BTreeMap::new());
        self.snapshot.set(Some(snapshot));
    }

    /// Shows a recorded trace with no team behind it.
    pub fn show_recorded(&self, trace: Trace, snapshot: Option<RunSnapshot>) {
        self.show_built(RunViews::of(&trace), trace, snapshot);
    }

    /// [`Run::show_recorded`] with the trace's views already built (a
    /// stored run's, built a slice at a time).
    pub fn show_built(&self, views: RunViews, trace: Trace, snapshot: Option<RunSnapshot>) {
        self.views.set(views);
        self.trace.set(trace);
        self.running.set(false);
        self.stopped.set(true);
        self.stopped_by_user.set(false);
        self.imported.set(true);
        self.next_up.set(Vec::new());
        self.behind.set(false);
        self.streaming.set(BTreeMap::new());
        self.snapshot.set(snapshot);
    }

    /// Appends the runtime's new events (they carry their sequence numbers
    /// and only grow, in time order) and extends the derived views by them.
    pub fn append(&self, entries: Vec<TraceEntry>) {
        if entries.is_empty() {
            return;
        }
        self.views.update(|v| v.extend(&entries));
        self.trace.update(|t| {
            for e in entries {
                // The runtime's trace only grows, in time order.
                let _ = t.append(e.time, e.event);
            }
        });
    }

    /// Notes that a human acted in the run, so only its trace reproduces it.
    pub fn mark_by_hand(&self) {
        self.snapshot.update(|s| {
            if let Some(s) = s {
                s.by_hand = true;
            }
        });
    }

    /// A title for lists: the first prompt and the length.
    pub fn title(&self) -> String {
        self.trace.with_untracked(|t| {
            let prompt = t.entries().iter().find_map(|e| match &e.event {
                Event::RunStarted { prompt } => Some(prompt.clone()),
                _ => None,
            });
            let prompt = prompt.unwrap_or_else(|| "empty run".into());
            format!("{} ({} events)", prompt.chars().take(60).collect::<String>(), t.len())
        })
    }
}

impl Default for Run {
    fn default() -> Self {
        Run::new()
    }
}
