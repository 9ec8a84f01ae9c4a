//! Taking back the last event applied to a team state, for a view that
//! steps one event at a time (`timeline::Walker`): applying keeps what the
//! event touched (`Undo`, as `Team::commit` keeps it for an atomic
//! command), and taking it back restores the state before it exactly.
//!
//! Owns this entry point only: the apply and undo arms are `TeamState`'s
//! own. It must not apply an event without its checks, nor hold a trace.

use super::{TeamError, TeamState, Undo};
use crate::protocol::trace::TraceEntry;

/// What taking back one applied event needs beyond the event itself
/// (usually nothing); kept by whoever applied it, newest last.
#[derive(Debug)]
pub struct StepBack(Undo);

impl TeamState {
    /// Applies `entry` as `apply` does (or refuses it and changes nothing),
    /// and returns what `step_back` needs to take it back.
    pub fn apply_undoable(&mut self, entry: &TraceEntry) -> Result<StepBack, TeamError> {
        self.check(entry)?;
        self.apply_checked(entry).map(StepBack)
    }

    /// Takes back `entry`, the last event applied with `apply_undoable`
    /// (which returned `saved`): the state is then the one before it.
    pub fn step_back(&mut self, entry: &TraceEntry, saved: StepBack) {
        self.undo(entry, saved.0);
    }
}
