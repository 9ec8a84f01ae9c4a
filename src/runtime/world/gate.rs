//! The trace's gate: what of the recorded trace the page is shown. In Step
//! mode one event per `step`, and the team takes its next turn only once
//! every event of the last one is out; a paced Live run (`set_paced`) is
//! gated alike, its driver releasing the events one at a time
//! (`release_one`) at the pace `runtime::pace` gives each; an unpaced Live
//! run releases everything.
//!
//! Owns the gate's counters and the rules of releasing; it reads the turn
//! order and the trace's length, and changes neither.

use super::World;
use crate::runtime::scheduler::Mode;

/// Step mode releases the trace one event at a time. A turn is the team's
/// unit of work (a tool's effects are never half applied), so the team
/// takes a turn, and the events it recorded are released one per `step`;
/// the next turn is granted only once every event of the last one is out.
/// Work a human does (a prompt, an answer, a message) shows at once up to
/// its first event. A paced Live run holds its events alike, and its driver
/// lets them out one at a time (`release_one`) instead of a `step`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Gate {
    /// Events released so far (Step mode and a paced Live run; an unpaced
    /// Live run releases every event).
    released: usize,
    /// A `step` found nothing recorded to release: the next event recorded
    /// is released as it comes.
    owed: bool,
    /// Live mode holds events for the driver to release one at a time.
    paced: bool,
}

impl World {
    /// Switches between Live and Step; what is shown stays shown. Going
    /// Step holds back what is not released yet and whatever comes next, one
    /// event per `step`; going Live releases every event (and waiting turn),
    /// or in a paced run leaves the held ones to `release_one`.
    pub fn set_mode(&mut self, mode: Mode) {
        let shown = self.released();
        self.turns.set_mode(mode);
        self.gate = Gate { released: shown, owed: false, paced: self.gate.paced };
    }

    /// Paces Live mode (or not): a paced Live run holds the events it
    /// records, and its driver releases them one at a time (`release_one`)
    /// so each gets its own caption; unpaced, Live releases every event at
    /// once. What is shown stays shown. Step mode is gated either way.
    pub fn set_paced(&mut self, paced: bool) {
        let shown = self.released();
        self.gate.paced = paced;
        self.gate.released = shown;
    }

    /// True when Live mode is paced (`set_paced`).
    pub fn is_paced(&self) -> bool {
        self.gate.paced
    }

    /// True while the trace is gated: in Step mode, and in a paced Live run,
    /// until a stop (which releases everything).
    fn holds(&self) -> bool {
        !self.turns.is_stopped() && (self.turns.mode() == Mode::Step || self.gate.paced)
    }

    /// How many events of the trace are released: all of them in an
    /// unpaced Live run (and after a stop); in Step mode those `step` has
    /// let out, in a paced Live run those `release_one` has.
    pub fn released(&self) -> usize {
        let len = self.recorded();
        if self.holds() {
            self.gate.released.min(len)
        } else {
            len
        }
    }

    /// The last event released (the one the page shows last), if it is
    /// still in the trace.
    pub fn last_released(&self) -> Option<&crate::protocol::TraceEntry> {
        let seq = u64::try_from(self.released().checked_sub(1)?).ok()?;
        self.team.events_since(seq).first().filter(|e| e.seq == seq)
    }

    /// A paced Live run: releases the next recorded event, if one is held.
    /// False otherwise, and in Step mode (where `step` releases) and in an
    /// unpaced run (where nothing is held).
    pub fn release_one(&mut self) -> bool {
        if self.turns.mode() != Mode::Live || !self.holds() || self.unreleased() == 0 {
            return false;
        }
        self.gate.released = self.released() + 1;
        true
    }

    /// True when a paced Live run holds events for `release_one`: the
    /// driver's to release, one at a time, before the team's next turn.
    pub fn pacing_due(&self) -> bool {
        self.turns.mode() == Mode::Live && self.holds() && self.unreleased() > 0
    }

    /// True when the granted turn may begin: the team takes its next turn
    /// only once every event recorded is released (gated runs), so the page
    /// tells each turn's events before the next turn's.
    pub fn can_begin(&self) -> bool {
        self.turns.has_granted() && !self.turns.is_stopped() && (!self.holds() || self.unreleased() == 0)
    }

    /// How many recorded events wait to be released (by a `step`, or by
    /// `release_one` in a paced Live run).
    pub fn unreleased(&self) -> usize {
        self.recorded() - self.released()
    }

    /// How many events the trace has recorded (numbering included, should
    /// its history be forgotten).
    pub(super) fn recorded(&self) -> usize {
        usize::try_from(self.team.trace().next_seq()).unwrap_or(usize::MAX)
    }

    /// Step mode: releases exactly one event. An event already recorded
    /// goes out at once; otherwise the next one to be recorded does — the
    /// turn in progress's, or the next turn's, granted now (a turn that
    /// records nothing grants the one after it). False when nothing is
    /// recorded and nothing can run, or a step already waits for an event.
    pub fn step(&mut self) -> bool {
        if self.turns.mode() != Mode::Step || self.turns.is_stopped() {
            return false;
        }
        if self.unreleased() > 0 {
            self.gate.released += 1;
            return true;
        }
        if self.gate.owed {
            return false;
        }
        if self.turns.holder().is_some() || self.turns.has_granted() || self.turns.step() {
            self.gate.owed = true;
            return true;
        }
        false
    }

    /// After each input: a step waiting for an event releases the first one
    /// recorded; if the turn it let run ended with nothing recorded, the next
    /// turn is granted.
    pub(super) fn settle_gate(&mut self) {
        if self.turns.mode() != Mode::Step || !self.gate.owed {
            return;
        }
        if self.unreleased() > 0 {
            self.gate.released += 1;
            self.gate.owed = false;
        } else if self.turns.holder().is_none() && !self.turns.has_granted() && !self.turns.step() {
            // Nothing left to run: the step found nothing.
            self.gate.owed = false;
        }
    }

    /// Work by hand shows at once up to its first event (`before`: the
    /// trace's length before it), with every event recorded before it.
    pub(super) fn release_hand_work(&mut self, before: usize) {
        let len = self.recorded();
        if len > before {
            self.gate.released = self.gate.released.max(before + 1).min(len);
        }
    }
}
