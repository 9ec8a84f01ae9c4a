//! The timeline: the protocol state of a run at any cursor, without
//! replaying from event 0. It keeps a keyframe of the team state every
//! `every` events and the state after the last event (the tip); the state
//! after the first `c` events is the nearest keyframe at or before `c` plus
//! at most `every - 1` events. Extended in place as a live run's events
//! arrive, so its cost per event is one `apply` (and one clone per keyframe).
//!
//! A `Walker` keeps the state at one cursor for a view that moves it
//! mostly one event at a time (Back, Next, a live run's new events): a
//! step forward applies one event, a step back takes one back
//! (`TeamState::step_back`), so a step costs what its event touched; a
//! jump starts again from the nearest keyframe.
//!
//! Owns keyframing only: the rules are `TeamState::apply`'s, the events are
//! the trace's. It must not change a trace, and holds no clock.

use std::collections::VecDeque;

use super::rules::Rules;
use super::team::{ReplayError, StepBack, TeamState};
use super::trace::{Trace, TraceEntry, TraceError};

/// Keyframes every this many events unless told otherwise: small enough
/// that a cursor costs a few hundred `apply`s, large enough that a run of
/// 100k events keeps about a hundred states.
pub const DEFAULT_KEYFRAME_EVERY: usize = 1024;

/// Team states at regular points of one trace, and at its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timeline {
    every: usize,
    /// `frames[i]` is the state after the first `i * every` events.
    frames: Vec<TeamState>,
    tip: TeamState,
    len: usize,
}

impl Timeline {
    /// An empty run of team `team_name`, keyframed every `every` events
    /// (at least 1).
    pub fn new(team_name: &str, every: usize) -> Self {
        let start = TeamState::new(team_name);
        Timeline { every: every.max(1), frames: vec![start.clone()], tip: start, len: 0 }
    }

    /// An empty run of team `team_name` recorded under `rules` (a trace's
    /// header says which), keyframed every `every` events.
    pub fn with_rules(team_name: &str, every: usize, rules: Rules) -> Self {
        let start = TeamState::with_rules(team_name, rules);
        Timeline { every: every.max(1), frames: vec![start.clone()], tip: start, len: 0 }
    }

    /// An empty run of `trace`'s team under the rules and the protocols
    /// its header records (a run of a protocol file's team reads the
    /// file's message types and requests), keyframed every `every` events.
    pub fn of_header(trace: &Trace, every: usize) -> Self {
        let mut start = TeamState::with_rules(&trace.team_name, trace.rules);
        start.protocols = trace.protocols().clone();
        Timeline { every: every.max(1), frames: vec![start.clone()], tip: start, len: 0 }
    }

    /// How many events it has taken in.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True before the first event.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many keyframes it keeps (the empty start counts).
    pub fn keyframes(&self) -> usize {
        self.frames.len()
    }

    /// The state after every event taken in.
    pub fn tip(&self) -> &TeamState {
        &self.tip
    }

    /// Takes in the events of `entries` it has not seen yet (`entries` is
    /// the whole trace or any suffix that starts at or before `len()`). On a
    /// refusal the events before the bad one stay taken in.
    pub fn extend(&mut self, entries: &[TraceEntry]) -> Result<(), ReplayError> {
        let new = entries.partition_point(|e| (e.seq as usize) < self.len);
        for entry in &entries[new..] {
            self.push(entry)?;
        }
        Ok(())
    }

    /// Takes in the next event, which must be number `len()`.
    pub fn push(&mut self, entry: &TraceEntry) -> Result<(), ReplayError> {
        if entry.seq != self.len as u64 {
            let source = TraceError::BadSequence { index: self.len as u64, seq: entry.seq }.into();
            return Err(ReplayError { seq: entry.seq, source });
        }
        self.tip.apply(entry).map_err(|source| ReplayError { seq: entry.seq, source })?;
        self.len += 1;
        if self.len.is_multiple_of(self.every) {
            self.frames.push(self.tip.clone());
        }
        Ok(())
    }

    /// The state after the first `cursor` events (all of them for `None`
    /// or a cursor past the end). `entries` is the trace this timeline was
    /// built from. Costs one clone and fewer than `every` applies.
    pub fn state_at(&self, entries: &[TraceEntry], cursor: Option<usize>) -> TeamState {
        let cursor = cursor.unwrap_or(usize::MAX).min(self.len);
        if cursor == self.len {
            return self.tip.clone();
        }
        let frame = (cursor / self.every).min(self.frames.len() - 1);
        let mut state = self.frames[frame].clone();
        for entry in &entries[frame * self.every..cursor] {
            // Every event up to `len` was applied once already, in this order.
            if state.apply(entry).is_err() {
                break;
            }
        }
        state
    }
}

/// The state at one cursor of a timeline, moved by `Timeline::walk`: the
/// state, and what taking back each event since `base` needs (at most
/// `2 * every` of them: older ones are forgotten, and a step back past them
/// starts again from a keyframe).
#[derive(Debug, Default)]
pub struct Walker {
    at: usize,
    base: usize,
    state: Option<TeamState>,
    saved: VecDeque<StepBack>,
}

impl Walker {
    /// Forgets where it was: the next walk starts from a keyframe.
    pub fn reset(&mut self) {
        *self = Walker::default();
    }
}

impl Timeline {
    /// The state after the first `cursor` events (all of them for `None`),
    /// as `state_at` gives it, moving `walker` there: forward by applying
    /// the events in between, back by taking them back, each when fewer
    /// than `every` away; otherwise from the nearest keyframe. `entries` is
    /// the trace this timeline was built from. Returns a clone of the
    /// walker's state (persistent maps: about the size of the roster).
    pub fn walk(&self, walker: &mut Walker, entries: &[TraceEntry], cursor: Option<usize>) -> TeamState {
        let target = cursor.unwrap_or(usize::MAX).min(self.len).min(entries.len());
        let at = walker.at;
        let near = walker.state.is_some() && target.abs_diff(at) < self.every;
        if near && target < at && target >= walker.base {
            if let Some(state) = walker.state.as_mut() {
                let mut whole = true;
                for entry in entries[target..at].iter().rev() {
                    // One saved step per event since `base`.
                    let Some(saved) = walker.saved.pop_back() else {
                        whole = false;
                        break;
                    };
                    state.step_back(entry, saved);
                }
                if whole {
                    walker.at = target;
                    return state.clone();
                }
            }
            walker.reset();
        }
        if walker.state.is_none() || !(near && target >= at) {
            let frame = (target / self.every).min(self.frames.len() - 1);
            let base = frame * self.every;
            *walker = Walker { at: base, base, state: Some(self.frames[frame].clone()), saved: VecDeque::new() };
        }
        let Some(state) = walker.state.as_mut() else { return self.state_at(entries, Some(target)) };
        for entry in &entries[walker.at..target] {
            // Every event up to `len` was applied once already, in this order.
            match state.apply_undoable(entry) {
                Ok(saved) => walker.saved.push_back(saved),
                Err(_) => {
                    walker.reset();
                    return self.state_at(entries, Some(target));
                }
            }
            walker.at += 1;
            if walker.saved.len() > 2 * self.every {
                walker.saved.pop_front();
                walker.base += 1;
            }
        }
        state.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{AgentName, Millis, RequestKind, Team};

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// A team that spawns, requests, answers and shuts down, `rounds` times.
    fn busy(rounds: u64) -> Team {
        let mut t = Team::new("t", 9);
        for i in 0..rounds {
            let who = name(&format!("a{}", i % 3));
            if t.roster().status(&who).is_none_or(|s| s == crate::protocol::MemberStatus::Shutdown) {
                t.spawn(&who, "coder", false, Millis(i)).unwrap();
            }
            t.send(&AgentName::lead(), &who, "message", "hi", Millis(i)).unwrap();
            let id = t.request_shutdown(&AgentName::lead(), &who, Millis(i)).unwrap();
            t.drain(&who, Millis(i)).unwrap();
            t.answer(RequestKind::SHUTDOWN, &id, &who, i % 2 == 0, "", Millis(i)).unwrap();
        }
        t
    }

    #[test]
    fn the_state_at_every_cursor_equals_replay_from_zero() {
        let team = busy(40);
        let trace = team.trace();
        for every in [1, 2, 7, 64, 10_000] {
            let mut tl = Timeline::new("t", every);
            tl.extend(trace.entries()).unwrap();
            for c in 0..=trace.len() {
                let replayed = Team::replay(&trace.prefix(c)).unwrap().state().clone();
                assert_eq!(tl.state_at(trace.entries(), Some(c)), replayed, "every {every}, cursor {c}");
            }
            assert_eq!(tl.state_at(trace.entries(), None), *team.state());
            assert_eq!(tl.tip(), team.state());
        }
    }

    #[test]
    fn keyframes_are_kept_every_so_many_events() {
        let trace = busy(40).trace().clone();
        let mut tl = Timeline::new("t", 10);
        tl.extend(trace.entries()).unwrap();
        assert_eq!(tl.keyframes(), 1 + trace.len() / 10);
        assert_eq!(tl.len(), trace.len());
    }

    #[test]
    fn extending_twice_with_overlap_takes_each_event_once() {
        let trace = busy(10).trace().clone();
        let mut tl = Timeline::new("t", 4);
        let half = trace.len() / 2;
        tl.extend(&trace.entries()[..half]).unwrap();
        tl.extend(trace.entries()).unwrap();
        let mut whole = Timeline::new("t", 4);
        whole.extend(trace.entries()).unwrap();
        assert_eq!(tl, whole);
    }

    #[test]
    fn an_event_out_of_order_is_refused_and_not_taken_in() {
        let trace = busy(3).trace().clone();
        let mut tl = Timeline::new("t", 4);
        let err = tl.extend(&trace.entries()[1..]).unwrap_err();
        assert_eq!((err.seq, err.source), (1, TraceError::BadSequence { index: 0, seq: 1 }.into()));
        assert_eq!(tl.len(), 0);
    }

    #[test]
    fn an_event_the_rules_refuse_is_reported_with_its_number_and_not_taken_in() {
        let mut trace = crate::protocol::Trace::new("t", 1);
        let ghost = crate::protocol::Message::new(crate::protocol::MessageType::Message, AgentName::lead(), name("ghost"), "x", Millis(0));
        trace.append(Millis(0), crate::protocol::Event::MessageSent { message: ghost }).unwrap();
        let mut tl = Timeline::new("t", 4);
        let err = tl.extend(trace.entries()).unwrap_err();
        assert_eq!(err.seq, 0);
        assert_eq!((tl.len(), tl.tip()), (0, &TeamState::new("t")));
    }
}
