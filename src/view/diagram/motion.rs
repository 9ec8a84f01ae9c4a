//! Moving messages: where each message is as of a cursor — waiting in its
//! recipient's inbox, held in flight by a fault — and what moved at the
//! step that reached the cursor (a message travelling along its arrow, one
//! parked or released by a fault, one falling off at its ×, an inbox taken
//! in, a badge turning, a lifeline crossed out), forward or back.
//!
//! Owns the flights of messages (an index built once as events arrive, like
//! the diagram's `Layout`, on the run's one reading of what became of each
//! message, `view::fate::Fates`) and where each is as of a cursor. Pure and
//! native: a function of (trace, cursor, previous cursor); it must not
//! touch the DOM, signals or the clock, nor know the drawing's units
//! (`motion_draw` places them on the diagram).

use crate::protocol::{AgentName, Event, MemberStatus, MessageType, RequestId, TraceEntry};
use crate::view::fate::{Change, Fates, Hold, Route};

/// Arrivals per block of the inbox index: a step reads only the blocks
/// that still hold a message unread at the cursor.
const BLOCK: usize = 64;

/// What one event moves, for animating the step that reaches or leaves it.
#[derive(Debug, Clone, PartialEq)]
enum StepKind {
    Travel(usize),
    Park(usize),
    Release(usize),
    Fall(usize),
    TakeIn(AgentName, Vec<usize>),
    Badge(RequestId),
    ShutDown(AgentName),
}

/// Every message's journey through a run, built once as events arrive
/// ([`Flights::push`], O(log n) per event); [`Flights::at`] reads the
/// places as of any cursor.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Flights {
    /// What became of each message; a flight is its message's index there.
    fates: Fates,
    /// Each message's place in `arrivals`, once it arrived.
    arrival: Vec<usize>,
    /// What each event moves (`None` for most).
    steps: Vec<Option<StepKind>>,
    /// Arrivals in an inbox, in order: (arrival seq, message).
    arrivals: Vec<(u64, usize)>,
    /// For each block of `BLOCK` arrivals, the latest drain among them
    /// (`u64::MAX` while one is unread).
    block_drained: Vec<u64>,
    /// For each block of `BLOCK` arrivals, how many are unread: the read
    /// that brings it to 0 is the block's latest drain, without reading
    /// the block's fates again.
    block_unread: Vec<u32>,
}

/// Forward (Next, Live, Play) or back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The cursor moved one event forward: the event happens.
    Forward,
    /// The cursor moved one event back: the event is undone.
    Back,
}

/// What moved at the step that reached the cursor.
#[derive(Debug, Clone, PartialEq)]
pub enum Movement {
    /// A message travels along its arrow (drawn at row `row`) from sender
    /// to recipient and into the recipient's inbox (back: out of the inbox
    /// to its sender).
    Travel {
        /// The seq of its arrow's row (its `MessageSent`).
        row: u64,
        /// Sender.
        from: AgentName,
        /// Recipient.
        to: AgentName,
    },
    /// A fault holds a message: it travels from its sender to where it is
    /// parked along its way (back: returns to its sender).
    Park {
        /// The `FaultApplied` that holds it.
        since: u64,
        /// Sender.
        from: AgentName,
        /// Recipient.
        to: AgentName,
    },
    /// A held message is released: it goes on from where it was parked,
    /// along its arrow (row `row`), into the inbox (back: parked again).
    Release {
        /// The seq of its arrow's row (its `MessageReleased`).
        row: u64,
        /// The `FaultApplied` that held it.
        since: u64,
        /// Sender.
        from: AgentName,
        /// Recipient.
        to: AgentName,
    },
    /// A dropped message travels to its × and falls off (back: rises and
    /// returns to its sender).
    Fall {
        /// The seq of its arrow's row (the `FaultApplied`).
        row: u64,
        /// Sender.
        from: AgentName,
        /// Recipient.
        to: AgentName,
    },
    /// An agent drains its inbox and takes these messages in (back: they
    /// come out again).
    TakeIn {
        /// Whose inbox.
        agent: AgentName,
        /// How many messages.
        count: usize,
    },
    /// A request's badge changes state (pending → approved or rejected;
    /// back: returns to pending).
    Badge {
        /// Which request.
        request_id: RequestId,
    },
    /// A teammate shuts down: its lifeline is crossed out (back: it lives
    /// again).
    ShutDown {
        /// Who.
        agent: AgentName,
    },
}

/// The step that reached the cursor, when it moved something.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Forward or back.
    pub direction: Direction,
    /// The event that happened (forward) or was undone (back).
    pub seq: u64,
    /// What moved.
    pub movement: Movement,
}

/// One agent's inbox as of the cursor: messages delivered, not yet read.
#[derive(Debug, Clone, PartialEq)]
pub struct Inbox {
    /// Whose.
    pub agent: AgentName,
    /// The waiting messages in arrival order (their ids): the first is the
    /// bottom of the stack.
    pub waiting: Vec<u64>,
    /// Their types, in the same order.
    pub types: Vec<MessageType>,
}

/// A message held in flight by a fault as of the cursor.
#[derive(Debug, Clone, PartialEq)]
pub struct Held {
    /// The `FaultApplied` that holds it.
    pub since: u64,
    /// Sender.
    pub from: AgentName,
    /// Recipient.
    pub to: AgentName,
    /// How.
    pub hold: Hold,
    /// Its type.
    pub msg_type: MessageType,
}

/// Where messages are as of a cursor, and what moved to get there.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Motion {
    /// Inboxes with at least one waiting message, in order of their
    /// agents' first appearance in the run.
    pub inboxes: Vec<Inbox>,
    /// Held messages, oldest first.
    pub held: Vec<Held>,
    /// The step that reached the cursor, if it was one event from the
    /// previous cursor and moved something.
    pub step: Option<Step>,
}

/// Where one message is as of a cursor.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    /// Not sent yet (or not a message id of this run).
    Unsent,
    /// On its way along its arrow at this step.
    Travelling {
        /// Sender.
        from: AgentName,
        /// Recipient.
        to: AgentName,
        /// Towards the recipient, or back to the sender.
        direction: Direction,
    },
    /// Waiting in an inbox.
    Waiting {
        /// Whose.
        agent: AgentName,
        /// Its place in the stack, from the bottom (0 = oldest).
        position: usize,
    },
    /// Held in flight by a fault.
    Held {
        /// How.
        hold: Hold,
    },
    /// Dropped by a fault: it never arrives.
    Dropped,
    /// Read by its recipient.
    TakenIn,
}

impl Flights {
    /// No flights.
    pub fn new() -> Self {
        Flights::default()
    }

    /// Takes in the next event (its seq must be the number of events seen)
    /// and says what it did to a message (as [`Fates::push`]).
    pub fn push(&mut self, entry: &TraceEntry) -> Option<Change> {
        let seq = entry.seq;
        let change = self.fates.push(entry);
        self.arrival.resize(self.fates.all().len(), 0);
        let step = match &change {
            Some(Change::Sent(i)) => {
                self.arrive(seq, *i);
                Some(StepKind::Travel(*i))
            }
            Some(Change::Dropped(i)) => Some(StepKind::Fall(*i)),
            Some(Change::Held(i)) => Some(StepKind::Park(*i)),
            Some(Change::Released(i)) => {
                self.arrive(seq, *i);
                Some(StepKind::Release(*i))
            }
            Some(Change::Read(taken)) => {
                // Each message is read once (`Fates::push`), at this event,
                // the latest so far: a block left with none unread was
                // drained last here.
                for &i in taken {
                    let block = self.arrival[i] / BLOCK;
                    self.block_unread[block] -= 1;
                    self.block_drained[block] = if self.block_unread[block] == 0 { seq } else { u64::MAX };
                }
                match &entry.event {
                    Event::InboxDrained { agent, .. } => Some(StepKind::TakeIn(agent.clone(), taken.clone())),
                    _ => None,
                }
            }
            None => match &entry.event {
                Event::RequestTransitioned { request_id, .. } => Some(StepKind::Badge(request_id.clone())),
                Event::MemberStatusChanged { name, to: MemberStatus::Shutdown, .. } => Some(StepKind::ShutDown(name.clone())),
                _ => None,
            },
        };
        let at = seq as usize;
        if self.steps.len() <= at {
            self.steps.resize(at + 1, None);
        }
        self.steps[at] = step;
        change
    }

    /// Makes room for `events` more events at once (each has a step).
    pub fn reserve(&mut self, events: usize) {
        self.steps.reserve(events);
    }

    /// Message `i` reached its inbox at `seq`.
    fn arrive(&mut self, seq: u64, i: usize) {
        self.arrival[i] = self.arrivals.len();
        if self.arrivals.len().is_multiple_of(BLOCK) {
            self.block_drained.push(u64::MAX);
            self.block_unread.push(1);
        } else if let (Some(last), Some(unread)) = (self.block_drained.last_mut(), self.block_unread.last_mut()) {
            *last = u64::MAX;
            *unread += 1;
        }
        self.arrivals.push((seq, i));
    }

    /// What became of each message (the index these flights are built on).
    pub fn fates(&self) -> &Fates {
        &self.fates
    }

    /// Takes in every event of `entries` in order.
    pub fn of(entries: &[TraceEntry]) -> Self {
        let mut f = Flights::new();
        for e in entries {
            f.push(e);
        }
        f
    }

    /// Where messages are after the first `shown` events, and what moved
    /// when the cursor came from `previous` (only a step of one event, in
    /// either direction, moves anything; a jump shows the places only).
    pub fn at(&self, shown: usize, previous: Option<usize>) -> Motion {
        let shown = shown.min(self.steps.len());
        let before = |seq: u64| (seq as usize) < shown;
        let fates = self.fates.all();
        let mut inboxes: Vec<Inbox> = Vec::new();
        // Arrivals before the cursor not yet drained at it, reading only
        // the blocks that hold one.
        let end = self.arrivals.partition_point(|&(a, _)| before(a));
        let order = self
            .block_drained
            .iter()
            .enumerate()
            .take(end.div_ceil(BLOCK))
            .filter(|(_, &latest)| !before(latest))
            .flat_map(|(b, _)| &self.arrivals[b * BLOCK..((b + 1) * BLOCK).min(end)])
            .filter(|&&(_, i)| !fates[i].read.is_some_and(before));
        for &(id, i) in order {
            let f = &fates[i];
            match inboxes.iter_mut().find(|b| b.agent == f.to) {
                Some(b) => {
                    b.waiting.push(id);
                    b.types.push(f.msg_type);
                }
                None => inboxes.push(Inbox { agent: f.to.clone(), waiting: vec![id], types: vec![f.msg_type] }),
            }
        }
        let held = self
            .fates
            .held()
            .filter_map(|(_, f)| {
                let hold = f.held_at(shown)?;
                Some(Held { since: f.sent, from: f.from.clone(), to: f.to.clone(), hold, msg_type: f.msg_type })
            })
            .collect();
        let step = match previous {
            Some(p) if p + 1 == shown => self.step(p as u64, Direction::Forward),
            Some(p) if shown + 1 == p && p <= self.steps.len() => self.step(shown as u64, Direction::Back),
            _ => None,
        };
        Motion { inboxes, held, step }
    }

    /// How many messages are held in flight after the first `shown` events.
    pub fn held_count(&self, shown: usize) -> usize {
        self.fates.held().filter(|(_, f)| f.held_at(shown).is_some()).count()
    }

    /// Where the message with id `message` (the seq of the `MessageSent`,
    /// `MessageReleased` or `FaultApplied` that carries it) is after the
    /// first `shown` events, coming from `previous`.
    pub fn place(&self, message: u64, shown: usize, previous: Option<usize>) -> Place {
        let Some(i) = self.fates.find(message) else { return Place::Unsent };
        let f = &self.fates.all()[i];
        let before = |seq: u64| (seq as usize) < shown;
        if !before(f.sent) {
            return Place::Unsent;
        }
        let motion = self.at(shown, previous);
        if let Some(step) = &motion.step {
            let moving = match (&step.movement, self.steps.get(step.seq as usize)) {
                (
                    Movement::Travel { .. } | Movement::Release { .. } | Movement::Fall { .. },
                    Some(Some(StepKind::Travel(j) | StepKind::Release(j) | StepKind::Fall(j))),
                ) => *j == i && step.direction == Direction::Forward,
                _ => false,
            };
            if moving {
                return Place::Travelling { from: f.from.clone(), to: f.to.clone(), direction: step.direction };
            }
        }
        if matches!(f.route, Route::Dropped { .. }) {
            return Place::Dropped;
        }
        if let Some(hold) = f.held_at(shown) {
            return Place::Held { hold };
        }
        if f.read.is_some_and(before) {
            return Place::TakenIn;
        }
        motion
            .inboxes
            .iter()
            .find_map(|b| {
                b.waiting.iter().position(|&id| Some(id) == f.arrived).map(|position| Place::Waiting { agent: b.agent.clone(), position })
            })
            .unwrap_or(Place::Unsent)
    }

    fn step(&self, seq: u64, direction: Direction) -> Option<Step> {
        let kind = self.steps.get(seq as usize)?.as_ref()?;
        let fates = self.fates.all();
        let ends = |i: &usize| (fates[*i].from.clone(), fates[*i].to.clone());
        let movement = match kind {
            StepKind::Travel(i) => {
                let (from, to) = ends(i);
                Movement::Travel { row: seq, from, to }
            }
            StepKind::Park(i) => {
                let (from, to) = ends(i);
                Movement::Park { since: seq, from, to }
            }
            StepKind::Release(i) => {
                let (from, to) = ends(i);
                Movement::Release { row: seq, since: fates[*i].sent, from, to }
            }
            StepKind::Fall(i) => {
                let (from, to) = ends(i);
                Movement::Fall { row: seq, from, to }
            }
            StepKind::TakeIn(agent, taken) => Movement::TakeIn { agent: agent.clone(), count: taken.len() },
            StepKind::Badge(request_id) => Movement::Badge { request_id: request_id.clone() },
            StepKind::ShutDown(agent) => Movement::ShutDown { agent: agent.clone() },
        };
        Some(Step { direction, seq, movement })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::protocol::{FaultAction, FaultPlan, FaultRule, Millis, RequestKind, Team, Trace};

    pub(crate) fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    pub(crate) fn seq_of(trace: &Trace, pick: impl Fn(&Event) -> bool) -> usize {
        trace.entries().iter().position(|e| pick(&e.event)).expect("the event")
    }

    /// The lead asks alice to shut down; she reads it and answers.
    pub(crate) fn handshake() -> Trace {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
        t.drain(&name("alice"), Millis(2)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "ok", Millis(3)).unwrap();
        t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
        t.trace().clone()
    }

    /// Two messages to alice, the first held by a fault of `action`, then
    /// released, then read; plus one dropped.
    pub(crate) fn faulty(action: FaultAction) -> Trace {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(action)]));
        t.send(&AgentName::lead(), &name("alice"), "message", "first", Millis(1)).unwrap();
        t.set_faults(FaultPlan::default());
        t.send(&AgentName::lead(), &name("alice"), "message", "second", Millis(2)).unwrap();
        t.release_all(Millis(3)).unwrap();
        t.drain(&name("alice"), Millis(4)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]));
        t.send(&AgentName::lead(), &name("alice"), "message", "lost", Millis(5)).unwrap();
        t.trace().clone()
    }

    pub(crate) fn is_sent(e: &Event) -> bool {
        matches!(e, Event::MessageSent { .. })
    }

    #[test]
    fn a_sent_message_travels_from_sender_to_recipient_at_its_send_event() {
        let trace = handshake();
        let f = Flights::of(trace.entries());
        let sent = seq_of(&trace, is_sent);
        let m = f.at(sent + 1, Some(sent));
        let step = m.step.expect("a step");
        assert_eq!(step.direction, Direction::Forward);
        assert_eq!(step.movement, Movement::Travel { row: sent as u64, from: AgentName::lead(), to: name("alice") });
        assert_eq!(
            f.place(sent as u64, sent + 1, Some(sent)),
            Place::Travelling { from: AgentName::lead(), to: name("alice"), direction: Direction::Forward }
        );
    }

    #[test]
    fn a_message_waits_in_the_inbox_until_drained() {
        let trace = handshake();
        let f = Flights::of(trace.entries());
        let sent = seq_of(&trace, is_sent);
        let drained = seq_of(&trace, |e| matches!(e, Event::InboxDrained { .. }));
        for shown in sent + 1..=drained {
            let m = f.at(shown, None);
            assert_eq!(m.inboxes.len(), 1, "at {shown}");
            assert_eq!((m.inboxes[0].agent.as_str(), m.inboxes[0].waiting.as_slice()), ("alice", &[sent as u64][..]));
            assert_eq!(f.place(sent as u64, shown, None), Place::Waiting { agent: name("alice"), position: 0 });
        }
        let after = f.at(drained + 1, Some(drained));
        assert!(after.inboxes.iter().all(|b| b.agent != name("alice")), "taken in: {after:?}");
        assert_eq!(after.step.map(|s| s.movement), Some(Movement::TakeIn { agent: name("alice"), count: 1 }));
        assert_eq!(f.place(sent as u64, drained + 1, None), Place::TakenIn);
        assert_eq!(f.place(sent as u64, sent, None), Place::Unsent);
    }

    #[test]
    fn a_held_message_stays_in_flight_until_released() {
        for action in [FaultAction::Delay { ms: 5 }, FaultAction::Reorder] {
            let trace = faulty(action.clone());
            let f = Flights::of(trace.entries());
            let fault = seq_of(&trace, |e| matches!(e, Event::FaultApplied { action, .. } if action.holds()));
            let released = seq_of(&trace, |e| matches!(e, Event::MessageReleased { .. }));
            let hold = if action == FaultAction::Reorder { Hold::Reordered } else { Hold::Delayed };
            assert_eq!(
                f.at(fault + 1, Some(fault)).step.map(|s| s.movement),
                Some(Movement::Park { since: fault as u64, from: AgentName::lead(), to: name("alice") })
            );
            for shown in fault + 1..=released {
                let m = f.at(shown, None);
                assert_eq!(m.held.len(), 1, "{action:?} at {shown}");
                assert_eq!((m.held[0].since, m.held[0].hold), (fault as u64, hold));
                assert_eq!(f.held_count(shown), 1);
                assert_eq!(f.place(fault as u64, shown, None), Place::Held { hold });
                assert!(m.inboxes.iter().all(|b| !b.waiting.contains(&(released as u64))), "not in the inbox while held");
            }
            let m = f.at(released + 1, Some(released));
            assert!(m.held.is_empty());
            assert_eq!(f.held_count(released + 1), 0);
            assert!(matches!(m.step.as_ref().map(|s| &s.movement), Some(Movement::Release { since, .. }) if *since == fault as u64));
            assert!(m.inboxes[0].waiting.contains(&(released as u64)), "released into the inbox");
        }
    }

    #[test]
    fn a_dropped_message_falls_off_and_never_waits() {
        let trace = faulty(FaultAction::Reorder);
        let f = Flights::of(trace.entries());
        let dropped = seq_of(&trace, |e| matches!(e, Event::FaultApplied { action: FaultAction::Drop, .. }));
        let m = f.at(dropped + 1, Some(dropped));
        assert!(matches!(m.step.as_ref().map(|s| &s.movement), Some(Movement::Fall { row, .. }) if *row == dropped as u64));
        assert!(m.inboxes.is_empty(), "{m:?}");
        assert_eq!(f.place(dropped as u64, dropped + 1, None), Place::Dropped);
    }

    #[test]
    fn back_reverses_the_last_movement() {
        let trace = handshake();
        let f = Flights::of(trace.entries());
        let sent = seq_of(&trace, is_sent);
        let back = f.at(sent, Some(sent + 1)).step.expect("a step back");
        assert_eq!(back.direction, Direction::Back);
        assert_eq!(back.seq, sent as u64);
        assert!(matches!(back.movement, Movement::Travel { .. }));
        let drained = seq_of(&trace, |e| matches!(e, Event::InboxDrained { .. }));
        let undrained = f.at(drained, Some(drained + 1));
        assert_eq!(
            undrained.step.map(|s| (s.direction, s.movement)),
            Some((Direction::Back, Movement::TakeIn { agent: name("alice"), count: 1 }))
        );
        assert_eq!(undrained.inboxes.len(), 1, "the inbox un-drains");
    }

    #[test]
    fn only_a_step_of_one_event_moves_anything() {
        let trace = handshake();
        let f = Flights::of(trace.entries());
        let sent = seq_of(&trace, is_sent);
        assert!(f.at(sent + 1, None).step.is_none());
        assert!(f.at(sent + 1, Some(0)).step.is_none(), "a jump");
        assert!(f.at(sent + 1, Some(sent + 1)).step.is_none(), "no move");
    }

    #[test]
    fn state_changes_are_steps_a_badge_turns_and_a_lifeline_is_crossed_out() {
        let trace = handshake();
        let f = Flights::of(trace.entries());
        let turned = seq_of(&trace, |e| matches!(e, Event::RequestTransitioned { .. }));
        assert!(matches!(f.at(turned + 1, Some(turned)).step.map(|s| s.movement), Some(Movement::Badge { .. })));
        assert!(matches!(f.at(turned, Some(turned + 1)).step.map(|s| s.movement), Some(Movement::Badge { .. })));
        let end = seq_of(&trace, |e| matches!(e, Event::MemberStatusChanged { to: MemberStatus::Shutdown, .. }));
        assert_eq!(f.at(end + 1, Some(end)).step.map(|s| s.movement), Some(Movement::ShutDown { agent: name("alice") }));
    }

    /// The block index kept as reads arrive equals the one read off the
    /// fates, after every event of a long busy run (many blocks, messages
    /// read in batches, a block drained over several events).
    #[test]
    fn each_blocks_latest_drain_is_the_latest_read_of_its_arrivals() {
        let (alice, bob, lead) = (name("alice"), name("bob"), AgentName::lead());
        let mut t = Team::new("d", 1);
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        t.spawn(&bob, "coder", false, Millis(0)).unwrap();
        for k in 0..600u64 {
            let at = Millis(k + 1);
            // Every 5th batch held by a delay, released a batch later.
            let delay = FaultPlan::new(vec![FaultRule::new(FaultAction::Delay { ms: 1 })]);
            t.set_faults(if k % 5 == 0 { delay } else { FaultPlan::default() });
            for _ in 0..k % 4 + 1 {
                t.send(&lead, if k % 3 == 0 { &bob } else { &alice }, "message", "hi", at).unwrap();
            }
            t.set_faults(FaultPlan::default());
            t.release_all(at).unwrap();
            // Bob reads seldom: his messages keep blocks open for a while.
            if k % 2 == 0 {
                t.drain(&alice, at).unwrap();
            }
            if k % 17 == 0 {
                t.drain(&bob, at).unwrap();
            }
        }
        let trace = t.trace().clone();
        let mut f = Flights::new();
        for entry in trace.entries() {
            f.push(entry);
            let fates = f.fates.all();
            let scanned: Vec<u64> = f
                .arrivals
                .chunks(BLOCK)
                .map(|block| block.iter().map(|&(_, j)| fates[j].read.unwrap_or(u64::MAX)).max().unwrap_or(0))
                .collect();
            assert_eq!(f.block_drained, scanned, "after event {}", entry.seq);
        }
        assert!(f.block_drained.iter().any(|&d| d != u64::MAX), "some blocks are drained");
    }
}
