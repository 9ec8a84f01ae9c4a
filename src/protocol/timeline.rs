//! The timeline: the protocol state of a run at any cursor, without
//! replaying from event 0. It keeps the state after the last event (the
//! tip) and keyframes: the team state every `every` events. The state after
//! the first `c` events is the keyframe at or before `c` plus at most
//! `every - 1` events.
//!
//! Keyframes are built when first needed. Taking in a batch of events
//! (`extend`) snapshots the tip only at every [`EAGER_FRAMES`]th keyframe
//! and at the keyframes among the batch's last `2 * every` events (where a
//! step back from the end starts); the others are built the first time a
//! cursor reaches them, by replaying from the nearest keyframe before
//! (fewer than `EAGER_FRAMES * every` events), and kept. A snapshot is a
//! clone that shares structure with the tip, but the tip's next change to a
//! shared part (an inbox of many messages) copies that part: snapshotting
//! every keyframe of a long run cost more than the replay itself.
//!
//! Cost contract: taking in an event costs one `apply`, plus one clone per
//! snapshot; `state_at` and a jump of `walk` cost one clone and fewer than
//! `every` applies once the keyframe at the cursor exists, and building a
//! missing one costs fewer than `EAGER_FRAMES * every` applies, once.
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
use std::sync::OnceLock;

use super::rules::Rules;
use super::team::{ReplayError, StepBack, TeamState};
use super::trace::{Trace, TraceEntry, TraceError};

/// Keyframes every this many events unless told otherwise: small enough
/// that a cursor costs a few hundred `apply`s, large enough that a run of
/// 100k events keeps about a hundred states.
pub const DEFAULT_KEYFRAME_EVERY: usize = 1024;

/// Every this many keyframes one is snapshotted as the events arrive, so a
/// missing keyframe is built from one at most this many keyframes before.
pub const EAGER_FRAMES: usize = 16;

/// Team states at regular points of one trace, and at its end.
#[derive(Debug, Clone)]
pub struct Timeline {
    every: usize,
    /// The state before the first event.
    start: TeamState,
    /// `frames[i]` is the state after the first `i * every` events, once
    /// built (`frames[0]`, the start, always is).
    frames: Vec<OnceLock<TeamState>>,
    tip: TeamState,
    len: usize,
}

/// Two timelines are equal when they give the same state at every cursor:
/// same spacing, start, length and tip (which keyframes happen to be built
/// yet is a cache).
impl PartialEq for Timeline {
    fn eq(&self, other: &Self) -> bool {
        self.every == other.every && self.len == other.len && self.tip == other.tip && self.start == other.start
    }
}

impl Eq for Timeline {}

impl Timeline {
    fn starting_at(start: TeamState, every: usize) -> Self {
        Timeline { every: every.max(1), frames: vec![OnceLock::from(start.clone())], tip: start.clone(), start, len: 0 }
    }

    /// An empty run of team `team_name`, keyframed every `every` events
    /// (at least 1).
    pub fn new(team_name: &str, every: usize) -> Self {
        Timeline::starting_at(TeamState::new(team_name), every)
    }

    /// An empty run of team `team_name` recorded under `rules` (a trace's
    /// header says which), keyframed every `every` events.
    pub fn with_rules(team_name: &str, every: usize, rules: Rules) -> Self {
        Timeline::starting_at(TeamState::with_rules(team_name, rules), every)
    }

    /// An empty run of `trace`'s team under the rules and the protocols
    /// its header records (a run of a protocol file's team reads the
    /// file's message types and requests), keyframed every `every` events.
    pub fn of_header(trace: &Trace, every: usize) -> Self {
        let mut start = TeamState::with_rules(&trace.team_name, trace.rules);
        start.protocols = trace.protocols().clone();
        Timeline::starting_at(start, every)
    }

    /// How many events it has taken in.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True before the first event.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many keyframes its events span (the empty start counts), built
    /// or not.
    pub fn keyframes(&self) -> usize {
        self.frames.len()
    }

    /// How many keyframes are built so far (the empty start counts).
    pub fn keyframes_built(&self) -> usize {
        self.frames.iter().filter(|f| f.get().is_some()).count()
    }

    /// The state after every event taken in.
    pub fn tip(&self) -> &TeamState {
        &self.tip
    }

    /// Takes in the events of `entries` it has not seen yet (`entries` is
    /// the whole trace or any suffix that starts at or before `len()`). On a
    /// refusal the events before the bad one stay taken in. Snapshots the
    /// keyframes among the batch's last `2 * every` events and every
    /// `EAGER_FRAMES`th one; the others wait until a cursor needs them.
    pub fn extend(&mut self, entries: &[TraceEntry]) -> Result<(), ReplayError> {
        let new = entries.partition_point(|e| (e.seq as usize) < self.len);
        let end = self.len + (entries.len() - new);
        for entry in &entries[new..] {
            // The keyframe this event completes, if any, is near the end.
            let near_end = self.len + 1 + 2 * self.every > end;
            self.take(entry, near_end)?;
        }
        Ok(())
    }

    /// Takes in the next event, which must be number `len()`, and
    /// snapshots the keyframe it completes, if any.
    pub fn push(&mut self, entry: &TraceEntry) -> Result<(), ReplayError> {
        self.take(entry, true)
    }

    fn take(&mut self, entry: &TraceEntry, snapshot: bool) -> Result<(), ReplayError> {
        if entry.seq != self.len as u64 {
            let source = TraceError::BadSequence { index: self.len as u64, seq: entry.seq }.into();
            return Err(ReplayError { seq: entry.seq, source });
        }
        self.tip.apply(entry).map_err(|source| ReplayError { seq: entry.seq, source })?;
        self.len += 1;
        if self.len.is_multiple_of(self.every) {
            let frame = OnceLock::new();
            if snapshot || (self.len / self.every).is_multiple_of(EAGER_FRAMES) {
                let _ = frame.set(self.tip.clone());
            }
            self.frames.push(frame);
        }
        Ok(())
    }

    /// Keyframe `index` (at most the last), built from the nearest one
    /// before it if it is not yet, with every keyframe passed on the way.
    /// `entries` is the trace this timeline was built from.
    fn frame(&self, entries: &[TraceEntry], index: usize) -> &TeamState {
        let index = index.min(self.frames.len() - 1);
        if let Some(state) = self.frames[index].get() {
            return state;
        }
        let (from, mut state) =
            (0..index).rev().find_map(|i| self.frames[i].get().map(|s| (i, s.clone()))).unwrap_or_else(|| (0, self.start.clone()));
        let every = self.every;
        let replay = |state: &mut TeamState, frame: usize| {
            for entry in entries.get((frame - 1) * every..frame * every).unwrap_or(&[]) {
                // Every event up to `len` was applied once already, in this order.
                if state.apply(entry).is_err() {
                    break;
                }
            }
        };
        for i in from + 1..index {
            replay(&mut state, i);
            let _ = self.frames[i].set(state.clone());
        }
        replay(&mut state, index);
        self.frames[index].get_or_init(|| state)
    }

    /// The state after the first `cursor` events (all of them for `None`
    /// or a cursor past the end). `entries` is the trace this timeline was
    /// built from. Costs one clone and fewer than `every` applies (plus
    /// building the keyframe, the first time).
    pub fn state_at(&self, entries: &[TraceEntry], cursor: Option<usize>) -> TeamState {
        let cursor = cursor.unwrap_or(usize::MAX).min(self.len);
        if cursor == self.len {
            return self.tip.clone();
        }
        let frame = (cursor / self.every).min(self.frames.len() - 1);
        let mut state = self.frame(entries, frame).clone();
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
            *walker = Walker { at: base, base, state: Some(self.frame(entries, frame).clone()), saved: VecDeque::new() };
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
    fn a_batch_snapshots_only_its_last_keyframes_and_every_eager_one() {
        let trace = busy(40).trace().clone();
        let every = 2;
        let mut tl = Timeline::new("t", every);
        tl.extend(trace.entries()).unwrap();
        let frames = trace.len() / every;
        let near_end = (1..=frames).filter(|f| f * every + 2 * every > trace.len()).count();
        let eager = (1..=frames).filter(|f| f.is_multiple_of(EAGER_FRAMES) && f * every + 2 * every <= trace.len()).count();
        assert_eq!(tl.keyframes(), 1 + frames);
        assert_eq!(tl.keyframes_built(), 1 + near_end + eager);
    }

    #[test]
    fn keyframes_built_on_need_equal_the_ones_snapshotted_as_events_arrive() {
        let trace = busy(40).trace().clone();
        for every in [1, 2, 3, 7] {
            let mut lazy = Timeline::new("t", every);
            lazy.extend(trace.entries()).unwrap();
            let mut eager = Timeline::new("t", every);
            for entry in trace.entries() {
                eager.push(entry).unwrap();
            }
            assert_eq!(eager.keyframes_built(), eager.keyframes(), "one event at a time snapshots every keyframe");
            assert_eq!(lazy, eager);
            // From the end back to the start, then forward: each cursor
            // builds what it needs from the nearest keyframe before.
            for c in (0..=trace.len()).rev().chain(0..=trace.len()) {
                assert_eq!(lazy.state_at(trace.entries(), Some(c)), eager.state_at(trace.entries(), Some(c)), "every {every}, cursor {c}");
            }
            assert_eq!(lazy.keyframes_built(), lazy.keyframes());
            for (built, snapshotted) in lazy.frames.iter().zip(&eager.frames) {
                assert_eq!(built.get(), snapshotted.get(), "every {every}");
            }
        }
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
