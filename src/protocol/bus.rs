//! The message bus: one FIFO inbox per agent, with draining reads, a
//! non-draining peek, and the list of broadcast recipients.
//!
//! Owns inboxes, delivery order and the messages held back by fault
//! injection (delayed or reordered) until they are released. It checks that a message is well
//! formed and that sender and recipient are known; it must not decide
//! protocol questions (request state, roster status): `team` does that.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::message::{Message, MessageError};
use super::AgentName;

/// A message's identity on the bus: the trace sequence number of the event
/// that sent it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MessageId(pub u64);

/// A message in an inbox, with its identity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// The message's identity.
    pub id: MessageId,
    /// The message itself.
    pub message: Message,
}

/// Errors from the bus, phrased so they can be handed to a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BusError {
    /// The message is malformed (unknown type, missing field).
    #[error(transparent)]
    Invalid(#[from] MessageError),
    /// Nobody by that name has an inbox.
    #[error("no agent named '{to}' is on the team (known: {known}); nothing was sent")]
    UnknownRecipient {
        /// The name that was addressed.
        to: AgentName,
        /// The known names, comma separated.
        known: String,
    },
    /// The sender is not on the team.
    #[error("'{0}' is not on the team and cannot send messages")]
    UnknownSender(AgentName),
    /// An inbox was read for an agent that has none.
    #[error("no agent named '{0}' has an inbox")]
    UnknownInbox(AgentName),
    /// A release named a message the bus does not hold.
    #[error("event {0} holds no message on the bus; nothing to release")]
    NotHeld(u64),
}

/// A message held back on the bus by a `Delay` or `Reorder` fault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    /// The sequence number of the `FaultApplied` event that held it.
    pub seq: u64,
    /// When a delayed message is due; `None` for a reordered one (released
    /// after the next delivery to its recipient).
    pub due: Option<super::time::Millis>,
    /// The message.
    pub message: Message,
}

/// The inboxes, by name: shared between clones of a bus until one changes
/// (`Arc::make_mut`), and each inbox shared on its own. Inboxes mostly hold
/// a few messages, so a change copies a short list of pointers and at most
/// one inbox — cheaper than a persistent map's wide nodes. An inbox nobody
/// drains (the lead's in a long synthetic run) is copied whole once per
/// clone that shares it, with room for the next messages.
type Inboxes = Arc<BTreeMap<AgentName, Arc<Vec<Envelope>>>>;

/// One FIFO inbox per registered agent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bus {
    // Cloning a bus (a keyframe of the timeline, a state of the explorer)
    // is O(1).
    inboxes: Inboxes,
    held: Vec<Held>,
}

impl Bus {
    /// An empty bus with no inboxes.
    pub fn new() -> Self {
        Bus::default()
    }

    /// Gives `name` an inbox; an agent that already has one keeps it and its
    /// unread messages (a restarted teammate reads what waited for it).
    pub fn register(&mut self, name: &AgentName) {
        if !self.inboxes.contains_key(name) {
            Arc::make_mut(&mut self.inboxes).insert(name.clone(), Arc::default());
        }
    }

    /// True when `name` has an inbox.
    pub fn knows(&self, name: &AgentName) -> bool {
        self.inboxes.contains_key(name)
    }

    /// Checks everything `send` would check, without sending.
    pub fn check_send(&self, message: &Message) -> Result<(), BusError> {
        message.validate()?;
        if !self.knows(&message.from) {
            return Err(BusError::UnknownSender(message.from.clone()));
        }
        if !self.knows(&message.to) {
            return Err(BusError::UnknownRecipient { to: message.to.clone(), known: self.known_names() });
        }
        Ok(())
    }

    /// Appends a message to its recipient's inbox, or refuses it whole.
    pub fn send(&mut self, id: MessageId, message: Message) -> Result<(), BusError> {
        self.check_send(&message)?;
        self.send_checked(id, message)
    }

    /// `send` of a message `check_send` accepted against this very bus
    /// (as `TeamState::apply` does): it is not checked again. Refuses only
    /// a recipient without an inbox, leaving the bus equal to what it was.
    pub(crate) fn send_checked(&mut self, id: MessageId, message: Message) -> Result<(), BusError> {
        // One look-up: a bus shared with a keyframe is copied (pointers
        // only) even when the recipient turns out unknown, which leaves it
        // equal to what it was.
        match Arc::make_mut(&mut self.inboxes).get_mut(&message.to) {
            Some(inbox) => {
                let envelope = Envelope { id, message };
                match Arc::get_mut(inbox) {
                    Some(messages) => messages.push(envelope),
                    // Shared with a clone (a keyframe): copied once, with the
                    // room the push would have grown it to, not copied to its
                    // length and then moved again by the push's growth.
                    None => {
                        let mut own = Vec::with_capacity((inbox.len() * 2).max(4));
                        own.extend_from_slice(inbox);
                        own.push(envelope);
                        *inbox = Arc::new(own);
                    }
                }
                Ok(())
            }
            None => Err(BusError::UnknownRecipient { to: message.to.clone(), known: self.known_names() }),
        }
    }

    /// Removes and returns every message waiting for `name`, oldest first.
    pub fn drain(&mut self, name: &AgentName) -> Result<Vec<Envelope>, BusError> {
        if !self.inboxes.contains_key(name) {
            return Err(BusError::UnknownInbox(name.clone()));
        }
        if self.inboxes.get(name).is_some_and(|inbox| inbox.is_empty()) {
            return Ok(Vec::new());
        }
        let inbox = Arc::make_mut(&mut self.inboxes).get_mut(name).ok_or_else(|| BusError::UnknownInbox(name.clone()))?;
        let taken = std::mem::take(inbox);
        Ok(Arc::try_unwrap(taken).unwrap_or_else(|shared| shared.as_ref().clone()))
    }

    /// `drain`, sharing the inbox taken out instead of copying it (a bus
    /// cloned from another shares its inboxes until one changes).
    pub(crate) fn drain_shared(&mut self, name: &AgentName) -> Result<Arc<Vec<Envelope>>, BusError> {
        if !self.inboxes.contains_key(name) {
            return Err(BusError::UnknownInbox(name.clone()));
        }
        if self.inboxes.get(name).is_some_and(|inbox| inbox.is_empty()) {
            return Ok(Arc::default());
        }
        let inbox = Arc::make_mut(&mut self.inboxes).get_mut(name).ok_or_else(|| BusError::UnknownInbox(name.clone()))?;
        Ok(std::mem::take(inbox))
    }

    /// `drain` for a caller that will not put the messages back (a replay
    /// that keeps no undo): the inbox is emptied in place and keeps its
    /// room for the next messages, unless a clone of the bus still shares
    /// it (then the clone keeps it whole and this bus starts a new one).
    pub(crate) fn discard_inbox(&mut self, name: &AgentName) -> Result<(), BusError> {
        match self.inboxes.get(name) {
            None => return Err(BusError::UnknownInbox(name.clone())),
            Some(inbox) if inbox.is_empty() => return Ok(()),
            Some(_) => {}
        }
        if let Some(inbox) = Arc::make_mut(&mut self.inboxes).get_mut(name) {
            match Arc::get_mut(inbox) {
                Some(messages) => messages.clear(),
                // The clone keeps the messages; this bus starts an empty
                // inbox with room for as many.
                None => *inbox = Arc::new(Vec::with_capacity(inbox.len())),
            }
        }
        Ok(())
    }

    /// The inbox of `name`, shared (see `drain_shared`).
    pub(crate) fn inbox_shared(&self, name: &AgentName) -> Result<Arc<Vec<Envelope>>, BusError> {
        self.inboxes.get(name).cloned().ok_or_else(|| BusError::UnknownInbox(name.clone()))
    }

    /// The messages waiting for `name`, oldest first, without removing them.
    pub fn peek(&self, name: &AgentName) -> Result<&[Envelope], BusError> {
        self.inboxes.get(name).map(|inbox| inbox.as_slice()).ok_or_else(|| BusError::UnknownInbox(name.clone()))
    }

    /// Everyone a broadcast from `from` reaches: every inbox but the sender's.
    pub fn broadcast_recipients<'a>(&'a self, from: &'a AgentName) -> impl Iterator<Item = &'a AgentName> + 'a {
        self.inboxes.keys().filter(move |n| *n != from)
    }

    /// Every agent with an inbox, in name order.
    pub fn names(&self) -> impl Iterator<Item = &AgentName> {
        self.inboxes.keys()
    }

    /// The number of messages waiting across all inboxes.
    pub fn pending_total(&self) -> usize {
        self.inboxes.values().map(|inbox| inbox.len()).sum()
    }

    /// Holds a well-formed message back (a delay or reorder fault); it
    /// reaches no inbox until `release`.
    pub fn hold(&mut self, held: Held) -> Result<(), BusError> {
        self.check_send(&held.message)?;
        self.held.push(held);
        Ok(())
    }

    /// Checks that the message held by event `seq` may be released now.
    pub fn check_release(&self, seq: u64) -> Result<&Held, BusError> {
        let held = self.held.iter().find(|h| h.seq == seq).ok_or(BusError::NotHeld(seq))?;
        self.check_send(&held.message)?;
        Ok(held)
    }

    /// Moves the message held by event `seq` into its recipient's inbox as
    /// message `id`.
    pub fn release(&mut self, seq: u64, id: MessageId) -> Result<(), BusError> {
        self.check_release(seq)?;
        let index = self.held.iter().position(|h| h.seq == seq).expect("checked above");
        let held = self.held.remove(index);
        self.send(id, held.message)
    }

    /// The held messages, in hold order.
    pub fn held(&self) -> &[Held] {
        &self.held
    }

    /// Undoes `register`: removes an inbox that `register` just created.
    pub(crate) fn unregister(&mut self, name: &AgentName) {
        Arc::make_mut(&mut self.inboxes).remove(name);
    }

    /// Undoes `send` (or the inbox half of `release`): removes the newest
    /// message of `to`'s inbox.
    pub(crate) fn unsend(&mut self, to: &AgentName) {
        if let Some(inbox) = Arc::make_mut(&mut self.inboxes).get_mut(to) {
            Arc::make_mut(inbox).pop();
        }
    }

    /// Undoes `drain`: puts the drained messages back, in front of anything
    /// that arrived since.
    pub(crate) fn undrain(&mut self, name: &AgentName, drained: Arc<Vec<Envelope>>) {
        if let Some(inbox) = Arc::make_mut(&mut self.inboxes).get_mut(name) {
            if inbox.is_empty() {
                *inbox = drained;
                return;
            }
            let inbox = Arc::make_mut(inbox);
            let mut back = Arc::try_unwrap(drained).unwrap_or_else(|shared| shared.as_ref().clone());
            back.append(inbox);
            *inbox = back;
        }
    }

    /// Undoes `hold`: forgets the newest held message.
    pub(crate) fn unhold(&mut self) {
        self.held.pop();
    }

    /// Where the message held by event `seq` sits in hold order.
    pub(crate) fn held_index(&self, seq: u64) -> Option<usize> {
        self.held.iter().position(|h| h.seq == seq)
    }

    /// Undoes `release`: holds the message again at `index`, and takes it
    /// back out of its recipient's inbox.
    pub(crate) fn unrelease(&mut self, index: usize, held: Held) {
        self.unsend(&held.message.to);
        self.held.insert(index.min(self.held.len()), held);
    }

    fn known_names(&self) -> String {
        self.inboxes.keys().map(AgentName::as_str).collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::message::MessageType;
    use crate::protocol::time::Millis;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    fn msg(from: &str, to: &str, text: &str) -> Message {
        Message::new(MessageType::Message, name(from), name(to), text, Millis(0))
    }

    fn bus_with(names: &[&str]) -> Bus {
        let mut bus = Bus::new();
        for n in names {
            bus.register(&name(n));
        }
        bus
    }

    #[test]
    fn inbox_is_first_in_first_out() {
        let mut bus = bus_with(&["lead", "alice"]);
        for i in 0..3 {
            bus.send(MessageId(i), msg("lead", "alice", &format!("m{i}"))).unwrap();
        }
        bus.send(MessageId(3), msg("alice", "lead", "back")).unwrap();
        assert_eq!(bus.pending_total(), 4, "every waiting message in every inbox counts");
        let got: Vec<_> = bus.drain(&name("alice")).unwrap().into_iter().map(|e| e.message.content).collect();
        assert_eq!(got, ["m0", "m1", "m2"]);
        assert_eq!(bus.pending_total(), 1, "the lead's message still waits");
    }

    #[test]
    fn a_clone_s_inbox_is_unchanged_by_later_sends_and_drains() {
        let mut bus = bus_with(&["lead", "alice"]);
        for i in 0..5 {
            bus.send(MessageId(i), msg("alice", "lead", &format!("m{i}"))).unwrap();
            bus.send(MessageId(10 + i), msg("lead", "alice", &format!("a{i}"))).unwrap();
        }
        let keyframe = bus.clone();
        let kept = (keyframe.peek(&name("lead")).unwrap().to_vec(), keyframe.peek(&name("alice")).unwrap().to_vec());
        bus.send(MessageId(20), msg("alice", "lead", "later")).unwrap();
        bus.discard_inbox(&name("alice")).unwrap();
        bus.send(MessageId(21), msg("lead", "alice", "after")).unwrap();
        assert_eq!((keyframe.peek(&name("lead")).unwrap(), keyframe.peek(&name("alice")).unwrap()), (&kept.0[..], &kept.1[..]));
        let lead: Vec<u64> = bus.peek(&name("lead")).unwrap().iter().map(|e| e.id.0).collect();
        assert_eq!(lead, [0, 1, 2, 3, 4, 20], "the live bus has the old messages and the new one");
        let alice: Vec<u64> = bus.peek(&name("alice")).unwrap().iter().map(|e| e.id.0).collect();
        assert_eq!(alice, [21]);
    }

    #[test]
    fn an_inbox_emptied_and_refilled_equals_a_fresh_one_whether_shared_or_not() {
        for shared in [false, true] {
            let mut bus = bus_with(&["lead", "alice"]);
            for i in 0..9 {
                bus.send(MessageId(i), msg("lead", "alice", "old")).unwrap();
            }
            let keyframe = shared.then(|| bus.clone());
            bus.discard_inbox(&name("alice")).unwrap();
            let mut fresh = bus_with(&["lead", "alice"]);
            for i in 9..12 {
                bus.send(MessageId(i), msg("lead", "alice", "new")).unwrap();
                fresh.send(MessageId(i), msg("lead", "alice", "new")).unwrap();
            }
            assert_eq!(bus, fresh, "shared: {shared}");
            assert_eq!(keyframe.map(|k| k.peek(&name("alice")).unwrap().len()), shared.then_some(9));
        }
    }

    #[test]
    fn drain_empties_the_inbox() {
        let mut bus = bus_with(&["lead", "alice"]);
        bus.send(MessageId(0), msg("lead", "alice", "hi")).unwrap();
        assert_eq!(bus.drain(&name("alice")).unwrap().len(), 1);
        assert!(bus.drain(&name("alice")).unwrap().is_empty());
    }

    #[test]
    fn peek_does_not_drain() {
        let mut bus = bus_with(&["lead", "alice"]);
        bus.send(MessageId(7), msg("lead", "alice", "hi")).unwrap();
        assert_eq!(bus.peek(&name("alice")).unwrap().len(), 1);
        assert_eq!(bus.peek(&name("alice")).unwrap()[0].id, MessageId(7));
        assert_eq!(bus.drain(&name("alice")).unwrap().len(), 1);
    }

    #[test]
    fn unknown_recipient_is_refused_and_nothing_is_delivered() {
        let mut bus = bus_with(&["lead", "alice"]);
        let err = bus.send(MessageId(0), msg("lead", "bob", "hi")).unwrap_err();
        assert!(matches!(err, BusError::UnknownRecipient { ref to, .. } if to.as_str() == "bob"));
        assert!(err.to_string().contains("alice, lead"), "{err}");
        assert_eq!(bus.pending_total(), 0);
    }

    #[test]
    fn unknown_sender_is_refused() {
        let mut bus = bus_with(&["lead"]);
        assert_eq!(bus.send(MessageId(0), msg("mallory", "lead", "hi")), Err(BusError::UnknownSender(name("mallory"))));
    }

    #[test]
    fn malformed_protocol_message_is_refused() {
        let mut bus = bus_with(&["lead", "alice"]);
        let m = Message::new(MessageType::SHUTDOWN_REQUEST, name("lead"), name("alice"), "", Millis(0));
        assert!(matches!(bus.send(MessageId(0), m), Err(BusError::Invalid(MessageError::MissingField { .. }))));
        assert_eq!(bus.pending_total(), 0);
    }

    #[test]
    fn unknown_type_is_refused_as_an_invalid_message() {
        let err: BusError = "poke".parse::<MessageType>().unwrap_err().into();
        assert!(err.to_string().starts_with("unknown message type 'poke'"));
    }

    #[test]
    fn broadcast_reaches_everyone_but_the_sender() {
        let bus = bus_with(&["lead", "alice", "bob"]);
        let lead = name("lead");
        let got: Vec<_> = bus.broadcast_recipients(&lead).map(|n| n.as_str().to_string()).collect();
        assert_eq!(got, ["alice", "bob"]);
    }

    #[test]
    fn reregistering_keeps_unread_messages() {
        let mut bus = bus_with(&["lead", "alice"]);
        bus.send(MessageId(0), msg("lead", "alice", "wait for me")).unwrap();
        bus.register(&name("alice"));
        assert_eq!(bus.peek(&name("alice")).unwrap().len(), 1);
    }

    #[test]
    fn a_held_message_reaches_no_inbox_until_released() {
        let mut bus = bus_with(&["lead", "alice"]);
        bus.hold(Held { seq: 3, due: Some(Millis(50)), message: msg("lead", "alice", "later") }).unwrap();
        assert_eq!(bus.pending_total(), 0);
        assert_eq!(bus.held().len(), 1);
        assert_eq!(bus.release(4, MessageId(9)), Err(BusError::NotHeld(4)));
        bus.release(3, MessageId(9)).unwrap();
        assert!(bus.held().is_empty());
        assert_eq!(bus.peek(&name("alice")).unwrap()[0].id, MessageId(9));
        assert_eq!(bus.release(3, MessageId(10)), Err(BusError::NotHeld(3)));
    }

    #[test]
    fn reading_an_unknown_inbox_is_an_error() {
        let mut bus = bus_with(&["lead"]);
        assert_eq!(bus.drain(&name("zed")), Err(BusError::UnknownInbox(name("zed"))));
        assert_eq!(bus.peek(&name("zed")).unwrap_err(), BusError::UnknownInbox(name("zed")));
    }
}
