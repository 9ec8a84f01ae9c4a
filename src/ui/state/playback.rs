//! Playback: which event the view shows (the cursor), Live or Step mode,
//! speed, whether replay is playing, the highlighted request, and the
//! event marked by whoever opened the run (where an explored run breaks
//! its property).
//!
//! Owns these signals and cursor arithmetic. It must not touch the runtime
//! (the `Session` releases Step-mode events) or the settings.

use leptos::prelude::*;

use crate::protocol::RequestId;
use crate::runtime::scheduler::Mode;

/// Playback state. `Copy`: pass it around freely.
#[derive(Clone, Copy)]
pub struct Playback {
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
    /// An event of the run on screen marked by what opened it (its
    /// sequence number and what happened there, for the diagram's mark).
    pub marked: RwSignal<Option<(u64, String)>>,
}

impl Playback {
    /// Following the latest event, Live, 1x, nothing selected.
    pub fn new() -> Self {
        Playback {
            cursor: RwSignal::new(None),
            mode: RwSignal::new(Mode::Live),
            playing: RwSignal::new(false),
            speed: RwSignal::new(1.0),
            selected: RwSignal::new(None),
            marked: RwSignal::new(None),
        }
    }

    /// Back to following the latest event, nothing selected or marked.
    pub fn rewind_to_latest(&self) {
        self.cursor.set(None);
        self.selected.set(None);
        self.marked.set(None);
    }

    /// The number of events shown of a trace of `len` (tracked).
    pub fn shown(&self, len: usize) -> usize {
        self.cursor.get().map_or(len, |c| c.min(len))
    }

    /// One event back in a trace of `len`.
    pub fn back(&self, len: usize) {
        let at = self.cursor.get_untracked().unwrap_or(len);
        self.cursor.set(Some(at.saturating_sub(1)));
    }

    /// One event forward through a trace of `len`; false at its end (the
    /// cursor already follows the latest).
    pub fn forward(&self, len: usize) -> bool {
        match self.cursor.get_untracked() {
            Some(c) if c + 1 < len => self.cursor.set(Some(c + 1)),
            Some(_) => self.cursor.set(None),
            None => return false,
        }
        true
    }

    /// Jumps to an event count; the end follows the latest.
    pub fn seek(&self, to: usize, len: usize) {
        self.cursor.set(if to >= len { None } else { Some(to) });
    }
}

/// How long one event stays on screen while playing at `speed` (0.25x to
/// 4x): 400 ms at 1x. Play and a guided tour's walk to its next stop both
/// step at this pace.
pub fn step_interval(speed: f64) -> std::time::Duration {
    let speed = if speed.is_finite() && speed > 0.0 { speed } else { 1.0 };
    std::time::Duration::from_millis((BASE_STEP_MS / speed).round() as u64)
}

/// One event's time on screen at 1x, in milliseconds.
pub const BASE_STEP_MS: f64 = 400.0;

impl Default for Playback {
    fn default() -> Self {
        Playback::new()
    }
}
