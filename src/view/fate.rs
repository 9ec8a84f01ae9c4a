//! What became of each message of a run: how it went over the bus (sent, a
//! duplicate fault's copy, dropped by fault rule N, held by a delay or
//! reorder fault and then released), when it reached its recipient's inbox
//! and when the recipient read it. The one reading of the trace's fault
//! and inbox events that the message table, the diagram's arrows, the
//! moving messages and the exports (SVG, Mermaid) share: built once as
//! events arrive ([`Fates::push`], O(log n) per event, each event's effect
//! returned as a [`Change`] for the views built beside it) and read at any
//! cursor ([`MessageFate::at`]).
//!
//! Owns the index and the fate as of a cursor. It must not word a fate for
//! the reader (the message table does, in the reader's language), place it
//! (the diagram does) or touch the DOM. It lives in `view`, not `protocol`,
//! because every reader is a view: the protocol writes these events
//! (`protocol::team`, `protocol::bus`) and its checker folds them for its
//! own invariants, which need the requests, not read positions.

use std::collections::BTreeMap;

use crate::protocol::{AgentName, Event, FaultAction, Message, MessageType, TraceEntry};

/// How a held message was held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hold {
    /// `Delay`: held for a while.
    Delayed,
    /// `Reorder`: held until the next message to its recipient arrived.
    Reordered,
}

impl Hold {
    /// `delayed` or `reordered`.
    pub fn as_str(self) -> &'static str {
        match self {
            Hold::Delayed => "delayed",
            Hold::Reordered => "reordered",
        }
    }

    /// The hold of a fault that holds (`Delay`, `Reorder`).
    fn of(action: &FaultAction) -> Hold {
        if matches!(action, FaultAction::Reorder) {
            Hold::Reordered
        } else {
            Hold::Delayed
        }
    }
}

/// How a message went over the bus: the fault that hit it, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Route {
    /// Put in its recipient's inbox by its own `MessageSent`.
    Sent,
    /// The second copy a duplicate fault delivered: the `MessageSent` right
    /// after the fault.
    Copy {
        /// The fault rule that fired, counted from 1 (`None` in old traces).
        rule: Option<usize>,
    },
    /// Dropped on the bus: it never arrives.
    Dropped {
        /// The fault rule.
        rule: Option<usize>,
    },
    /// Held on the bus by a delay or reorder fault.
    Held {
        /// The fault rule.
        rule: Option<usize>,
        /// How.
        hold: Hold,
        /// The `MessageReleased` that let it go into the inbox, if any yet.
        released: Option<u64>,
    },
}

/// One message's story: the events that move it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageFate {
    /// The event that put it on the bus: its `MessageSent`, or the
    /// `FaultApplied` that dropped or held it.
    pub sent: u64,
    /// Sender.
    pub from: AgentName,
    /// Recipient.
    pub to: AgentName,
    /// Its type.
    pub msg_type: MessageType,
    /// How it went over the bus.
    pub route: Route,
    /// When it reached its recipient's inbox (its `MessageId`): its
    /// `MessageSent` or its release; never for a dropped one.
    pub arrived: Option<u64>,
    /// The `InboxDrained` that read it, if any yet.
    pub read: Option<u64>,
}

/// What became of a message, as of a cursor.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Fate {
    /// In its recipient's inbox; read by the drain at `read_at`, if by now.
    Delivered {
        /// The drain that delivered it to the agent, if before the cursor.
        read_at: Option<u64>,
    },
    /// Dropped on the bus by a fault: it never arrives.
    Dropped {
        /// The fault rule that fired, counted from 1 (`None` in old traces).
        rule: Option<usize>,
    },
    /// Held on the bus by a delay or reorder fault, not released yet.
    Held {
        /// The fault rule.
        rule: Option<usize>,
        /// How.
        hold: Hold,
    },
    /// Held by a delay or reorder fault, then released into the inbox.
    Released {
        /// The fault rule.
        rule: Option<usize>,
        /// How.
        hold: Hold,
        /// The release event.
        at: u64,
        /// The drain that read it, if before the cursor.
        read_at: Option<u64>,
    },
    /// The second copy of a message a duplicate fault delivered twice.
    Duplicate {
        /// The fault rule.
        rule: Option<usize>,
        /// The drain that read the copy, if before the cursor.
        read_at: Option<u64>,
    },
}

/// The fault a message's arrow is marked with in the diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Dropped: the arrow ends in a ×.
    Dropped,
    /// The copy a duplicate fault delivered.
    Duplicate,
    /// A held message's late arrival, drawn at its release.
    Late(Hold),
}

impl Mark {
    /// `dropped`, `duplicate`, `delayed` or `reordered`: the arrow's class
    /// (`fault-…`) and its words' key (`diagram-fault-…`).
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Dropped => "dropped",
            Mark::Duplicate => "duplicate",
            Mark::Late(hold) => hold.as_str(),
        }
    }
}

impl MessageFate {
    /// What became of it as of the first `cursor` events (it was sent
    /// among them).
    pub fn at(&self, cursor: usize) -> Fate {
        let before = |s: Option<u64>| s.filter(|s| (*s as usize) < cursor);
        let read_at = before(self.read);
        match self.route {
            Route::Sent => Fate::Delivered { read_at },
            Route::Copy { rule } => Fate::Duplicate { rule, read_at },
            Route::Dropped { rule } => Fate::Dropped { rule },
            Route::Held { rule, hold, released } => match before(released) {
                Some(at) => Fate::Released { rule, hold, at, read_at },
                None => Fate::Held { rule, hold },
            },
        }
    }

    /// The mark on its arrow: `None` for a message no fault touched.
    pub fn mark(&self) -> Option<Mark> {
        match self.route {
            Route::Sent => None,
            Route::Copy { .. } => Some(Mark::Duplicate),
            Route::Dropped { .. } => Some(Mark::Dropped),
            Route::Held { hold, .. } => Some(Mark::Late(hold)),
        }
    }

    /// Held by a fault after the first `cursor` events: put on the bus
    /// among them and not released by then.
    pub fn held_at(&self, cursor: usize) -> Option<Hold> {
        let before = |seq: u64| (seq as usize) < cursor;
        match self.route {
            Route::Held { hold, released, .. } if before(self.sent) && !released.is_some_and(before) => Some(hold),
            _ => None,
        }
    }

    /// The message itself, from `entries` (the trace this fate was read
    /// from): its `MessageSent`'s or `FaultApplied`'s.
    pub fn message<'a>(&self, entries: &'a [TraceEntry]) -> Option<&'a Message> {
        match &entries.get(usize::try_from(self.sent).ok()?)?.event {
            Event::MessageSent { message } | Event::FaultApplied { message, .. } => Some(message),
            _ => None,
        }
    }
}

/// What one event did to the run's messages (each by its index in
/// [`Fates::all`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A message was sent into its recipient's inbox (a duplicate's copy
    /// too).
    Sent(usize),
    /// A fault dropped a message.
    Dropped(usize),
    /// A fault held a message on the bus.
    Held(usize),
    /// A held message was released into its recipient's inbox.
    Released(usize),
    /// An agent read these messages (each the first time it was read).
    Read(Vec<usize>),
}

/// The fault in the trace's own words (the event log, the Mermaid
/// notes): `dropped`, `delayed 700 ms`, `duplicated`, `held back
/// (reorder)`.
pub fn fault_words(action: &FaultAction) -> String {
    match action {
        FaultAction::Drop => "dropped".to_string(),
        FaultAction::Delay { ms } => format!("delayed {ms} ms"),
        FaultAction::Duplicate => "duplicated".to_string(),
        FaultAction::Reorder => "held back (reorder)".to_string(),
    }
}

/// Every message of a run, in the order put on the bus, with what became
/// of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fates {
    fates: Vec<MessageFate>,
    /// (message id, message): the id is the seq of the event that put it
    /// in an inbox. Sorted by id: events arrive in order, so adding one is
    /// a push, not a map insert.
    by_id: Vec<(u64, usize)>,
    /// Every message a fault held, in order.
    held: Vec<usize>,
    /// The `FaultApplied` seq of a message held and not released yet ->
    /// message. A second release of one message changes nothing.
    unreleased: BTreeMap<u64, usize>,
    /// A duplicate fault fired (by this rule): the next `MessageSent` is its
    /// copy.
    copy_next: Option<Option<usize>>,
    len: usize,
}

impl Fates {
    /// No messages.
    pub fn new() -> Self {
        Fates::default()
    }

    /// The fates of every event of `entries`.
    pub fn of(entries: &[TraceEntry]) -> Self {
        let mut f = Fates::new();
        f.extend(entries);
        f
    }

    /// How many events it has taken in.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True before the first event.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes in the next event (its seq must be [`Fates::len`]) and says
    /// what it did to a message.
    pub fn push(&mut self, entry: &TraceEntry) -> Option<Change> {
        let seq = entry.seq;
        self.len = self.len.max(seq as usize + 1);
        match &entry.event {
            Event::MessageSent { message } => {
                let route = match self.copy_next.take() {
                    Some(rule) => Route::Copy { rule },
                    None => Route::Sent,
                };
                let i = self.add(seq, message, route, Some(seq));
                self.arrived(seq, i);
                Some(Change::Sent(i))
            }
            Event::FaultApplied { action: FaultAction::Duplicate, rule, .. } => {
                self.copy_next = Some(*rule);
                None
            }
            Event::FaultApplied { action: FaultAction::Drop, rule, message } => {
                Some(Change::Dropped(self.add(seq, message, Route::Dropped { rule: *rule }, None)))
            }
            Event::FaultApplied { action, rule, message } => {
                let route = Route::Held { rule: *rule, hold: Hold::of(action), released: None };
                let i = self.add(seq, message, route, None);
                self.held.push(i);
                self.unreleased.insert(seq, i);
                Some(Change::Held(i))
            }
            Event::MessageReleased { held } => {
                let i = self.unreleased.remove(held)?;
                let f = &mut self.fates[i];
                if let Route::Held { released, .. } = &mut f.route {
                    *released = Some(seq);
                }
                f.arrived = Some(seq);
                self.arrived(seq, i);
                Some(Change::Released(i))
            }
            Event::InboxDrained { message_ids, .. } => {
                let read: Vec<usize> =
                    message_ids.iter().filter_map(|id| self.by_id(id.0)).filter(|&i| self.fates[i].read.is_none()).collect();
                for &i in &read {
                    self.fates[i].read = Some(seq);
                }
                (!read.is_empty()).then_some(Change::Read(read))
            }
            _ => None,
        }
    }

    /// Message `i` arrived in an inbox at `seq`, its id.
    fn arrived(&mut self, seq: u64, i: usize) {
        match self.by_id.last() {
            Some(&(last, _)) if last >= seq => {
                // Only an event taken in out of order lands here.
                let at = self.by_id.partition_point(|&(id, _)| id < seq);
                if self.by_id.get(at).is_some_and(|&(id, _)| id == seq) {
                    self.by_id[at].1 = i;
                } else {
                    self.by_id.insert(at, (seq, i));
                }
            }
            _ => self.by_id.push((seq, i)),
        }
    }

    /// The message whose id is `id`.
    fn by_id(&self, id: u64) -> Option<usize> {
        self.by_id.binary_search_by_key(&id, |&(id, _)| id).ok().map(|at| self.by_id[at].1)
    }

    fn add(&mut self, seq: u64, m: &Message, route: Route, arrived: Option<u64>) -> usize {
        let fate = MessageFate { sent: seq, from: m.from.clone(), to: m.to.clone(), msg_type: m.msg_type, route, arrived, read: None };
        self.fates.push(fate);
        self.fates.len() - 1
    }

    /// Takes in the events of `entries` not seen yet (the whole trace or a
    /// suffix starting at or before [`Fates::len`]).
    pub fn extend(&mut self, entries: &[TraceEntry]) {
        let new = entries.partition_point(|e| (e.seq as usize) < self.len);
        for entry in &entries[new..] {
            self.push(entry);
        }
    }

    /// Every message so far, in the order put on the bus.
    pub fn all(&self) -> &[MessageFate] {
        &self.fates
    }

    /// How many messages were put on the bus among the first `cursor`
    /// events.
    pub fn count_at(&self, cursor: usize) -> usize {
        self.fates.partition_point(|f| (f.sent as usize) < cursor)
    }

    /// Every message a fault held, in order (released or not).
    pub fn held(&self) -> impl Iterator<Item = (usize, &MessageFate)> {
        self.held.iter().map(|&i| (i, &self.fates[i]))
    }

    /// The message that `seq` names: the one whose id it is (the event
    /// that put it in an inbox), else the one it put on the bus (a
    /// `FaultApplied` that dropped or held it).
    pub fn find(&self, seq: u64) -> Option<usize> {
        self.by_id(seq).or_else(|| {
            let i = self.fates.partition_point(|f| f.sent < seq);
            self.fates.get(i).is_some_and(|f| f.sent == seq).then_some(i)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{FaultPlan, FaultRule, Millis, Team, Trace};

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// Four messages to alice: the first dropped, the second duplicated, the
    /// third delayed, each by the plan's second rule; then released and read.
    fn every_fault() -> Trace {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        for (i, action) in [FaultAction::Drop, FaultAction::Duplicate, FaultAction::Delay { ms: 50 }].into_iter().enumerate() {
            let never = FaultRule { to: Some(name("nobody")), ..FaultRule::new(FaultAction::Drop) };
            t.set_faults(FaultPlan::new(vec![never, FaultRule::new(action)]));
            t.send(&AgentName::lead(), &name("alice"), "message", &format!("m{i}"), Millis(1)).unwrap();
        }
        t.set_faults(FaultPlan::default());
        t.release_all(Millis(60)).unwrap();
        t.drain(&name("alice"), Millis(70)).unwrap();
        t.trace().clone()
    }

    #[test]
    fn each_fault_gives_its_route_and_each_event_says_what_it_changed() {
        let trace = every_fault();
        let mut fates = Fates::new();
        let changes: Vec<Change> = trace.entries().iter().filter_map(|e| fates.push(e)).collect();
        let routes: Vec<Route> = fates.all().iter().map(|f| f.route).collect();
        let released = trace.entries().iter().find(|e| matches!(e.event, Event::MessageReleased { .. })).unwrap().seq;
        assert_eq!(
            routes,
            [
                Route::Dropped { rule: Some(2) },
                Route::Sent,
                Route::Copy { rule: Some(2) },
                Route::Held { rule: Some(2), hold: Hold::Delayed, released: Some(released) },
            ]
        );
        assert_eq!(
            changes,
            [Change::Dropped(0), Change::Sent(1), Change::Sent(2), Change::Held(3), Change::Released(3), Change::Read(vec![1, 2, 3])]
        );
        let read = trace.len() as u64 - 1;
        assert!(fates.all()[1..].iter().all(|f| f.read == Some(read)) && fates.all()[0].read.is_none());
        assert_eq!(fates.all()[3].arrived, Some(released), "a held message arrives at its release");
        let marks: Vec<_> = fates.all().iter().map(MessageFate::mark).collect();
        assert_eq!(marks, [Some(Mark::Dropped), None, Some(Mark::Duplicate), Some(Mark::Late(Hold::Delayed))]);
    }

    #[test]
    fn a_fate_as_of_a_cursor_sees_only_the_events_before_it() {
        let trace = every_fault();
        let fates = Fates::of(trace.entries());
        let held = &fates.all()[3];
        let Route::Held { released: Some(released), .. } = held.route else { panic!("held and released") };
        let at = |c: u64| held.at(c as usize);
        assert_eq!(at(released), Fate::Held { rule: Some(2), hold: Hold::Delayed });
        assert_eq!(held.held_at(released as usize), Some(Hold::Delayed));
        assert_eq!(at(released + 1), Fate::Released { rule: Some(2), hold: Hold::Delayed, at: released, read_at: None });
        assert_eq!(held.held_at(released as usize + 1), None);
        let end = trace.len() as u64;
        assert_eq!(at(end), Fate::Released { rule: Some(2), hold: Hold::Delayed, at: released, read_at: Some(end - 1) });
        assert_eq!(fates.all()[1].at(end as usize - 1), Fate::Delivered { read_at: None }, "unread before the drain");
        assert_eq!(fates.count_at(0), 0);
        assert_eq!(fates.count_at(trace.len()), 4);
    }

    #[test]
    fn a_message_is_found_by_its_id_or_by_the_fault_that_put_it_on_the_bus() {
        let trace = every_fault();
        let fates = Fates::of(trace.entries());
        for (i, f) in fates.all().iter().enumerate() {
            assert_eq!(fates.find(f.sent), Some(i));
            if let Some(id) = f.arrived {
                assert_eq!(fates.find(id), Some(i));
            }
            assert_eq!(f.message(trace.entries()).map(|m| m.to.clone()), Some(name("alice")));
        }
        assert_eq!(fates.find(0), None, "the spawn is no message");
        assert_eq!(fates.held().map(|(i, _)| i).collect::<Vec<_>>(), [3]);
    }

    /// The id index is a sorted list pushed to as events arrive: every
    /// message of a long busy run is found by its id and by the event that
    /// put it on the bus, and an event that carries no message finds none.
    #[test]
    fn every_message_of_a_long_run_is_found_by_its_id() {
        let trace = crate::view::synthetic::busy_trace(3_000, 5, 9);
        let fates = Fates::of(trace.entries());
        assert!(fates.all().len() > 100, "the busy run sends messages");
        for (i, f) in fates.all().iter().enumerate() {
            assert_eq!(fates.find(f.sent), Some(i));
            if let Some(id) = f.arrived {
                assert_eq!(fates.find(id), Some(i));
            }
        }
        let carries = |seq: u64| fates.all().iter().any(|f| f.sent == seq || f.arrived == Some(seq));
        for seq in (0..trace.len() as u64).filter(|&s| !carries(s)) {
            assert_eq!(fates.find(seq), None, "event {seq}");
        }
    }

    #[test]
    fn a_second_release_of_one_message_changes_nothing() {
        let mut trace = every_fault();
        let released = trace.entries().iter().find(|e| matches!(e.event, Event::MessageReleased { .. })).unwrap().clone();
        let once = Fates::of(trace.entries());
        trace.append(Millis(80), released.event).unwrap();
        let mut twice = Fates::of(&trace.entries()[..trace.len() - 1]);
        assert_eq!(twice.push(trace.entries().last().unwrap()), None);
        assert_eq!(twice.all(), once.all());
    }

    #[test]
    fn the_fates_built_in_chunks_equal_the_fates_built_at_once() {
        let trace = crate::view::synthetic::busy_trace(400, 3, 5);
        let whole = Fates::of(trace.entries());
        let mut chunks = Fates::new();
        for end in (0..=trace.len()).step_by(37).chain([trace.len()]) {
            chunks.extend(&trace.entries()[..end]);
        }
        assert_eq!(whole, chunks);
        assert!(!whole.is_empty() && whole.len() == trace.len());
    }

    #[test]
    fn the_fault_words_are_the_event_logs() {
        let words: Vec<String> = [FaultAction::Drop, FaultAction::Delay { ms: 700 }, FaultAction::Duplicate, FaultAction::Reorder]
            .iter()
            .map(fault_words)
            .collect();
        assert_eq!(words, ["dropped", "delayed 700 ms", "duplicated", "held back (reorder)"]);
    }
}
