//! The team: roster, bus and tracker kept together, changed only by applying
//! trace events. Every command checks its rules, turns into events, applies
//! them and appends them to the trace; `replay` applies a recorded trace the
//! same way, so live state and replayed state cannot drift apart.
//!
//! Owns the state's events (check, apply, undo), the atomic commit, faults
//! on the way out, and the plain commands (spawn, status, send, broadcast,
//! drain). Asking and answering, the lesson's two protocols and a file's
//! alike, are `asks`'s; the gates (a file's and the lesson's plan gate, one
//! state) are `gates`'s. It must not do I/O, await, or read a clock: callers
//! pass time in.

mod asks;
mod error;
mod fault_injection;
mod gates;
mod lesson_words;
mod undo;

pub use error::{ReplayError, TeamError};
pub use gates::ClosedGates;
pub use undo::StepBack;

use error::inconsistent;

use super::bus::{Bus, BusError, Envelope, Held, MessageId};
use super::faults::{FaultAction, FaultPlan};
use super::ids::SeededIds;
use super::message::{Message, MessageError, MessageType, RequestId};
use super::protocols::ProtocolSet;
use super::roster::{Member, MemberStatus, Roster, SpawnKind};
use super::rules::Rules;
use super::time::Millis;
use super::trace::{Event, Trace, TraceEntry};
use super::tracker::{Incarnations, Request, RequestKind, RequestStatus, Tracker, TrackerError};
use super::AgentName;

/// Roster, bus and tracker: the protocol state a trace rebuilds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamState {
    /// The members.
    pub roster: Roster,
    /// The inboxes.
    pub bus: Bus,
    /// The requests.
    pub tracker: Tracker,
    /// The protective rules in force (all on unless a run switched some off).
    pub rules: Rules,
    /// The protocols the team runs under (the lesson's only by default).
    pub protocols: ProtocolSet,
    /// The gates closed, per agent: a file's and the lesson's plan gate
    /// (at `ProtocolSet::plan_gate`) alike.
    pub gates: ClosedGates,
}

impl TeamState {
    /// A team with only the lead.
    pub fn new(team_name: &str) -> Self {
        let mut bus = Bus::new();
        bus.register(&AgentName::lead());
        TeamState {
            roster: Roster::new(team_name),
            bus,
            tracker: Tracker::new(),
            rules: Rules::default(),
            protocols: ProtocolSet::default(),
            gates: ClosedGates::default(),
        }
    }

    /// A team with only the lead, under `rules`.
    pub fn with_rules(team_name: &str, rules: Rules) -> Self {
        TeamState { rules, ..TeamState::new(team_name) }
    }

    /// Applies one event, or refuses it and changes nothing; should the
    /// state refuse an event its checks passed, that is an error too
    /// (`TeamError::Inconsistent`), never a panic.
    pub fn apply(&mut self, entry: &TraceEntry) -> Result<(), TeamError> {
        self.check(entry)?;
        // Nothing will take it back: what an undo needs is not kept.
        self.apply_checked_as(entry, false)?;
        Ok(())
    }

    /// Checks that `entry` may be applied now, without changing anything.
    pub fn check(&self, entry: &TraceEntry) -> Result<(), TeamError> {
        match &entry.event {
            Event::MemberSpawned { name, role, .. } => {
                self.roster.check_spawn(name, role)?;
            }
            Event::MemberStatusChanged { name, from, to } => {
                let actual = self.roster.check_status(name, *to)?;
                if actual != *from {
                    return Err(TeamError::StatusMismatch { name: name.clone(), actual, recorded: *from });
                }
            }
            Event::MessageSent { message } => {
                self.check_known_type(message)?;
                self.bus.check_send(message)?
            }
            Event::InboxDrained { agent, message_ids } => {
                let held = self.bus.peek(agent)?;
                if !held.iter().map(|e| e.id).eq(message_ids.iter().copied()) {
                    let expected = held.iter().map(|e| e.id).collect();
                    return Err(TeamError::DeliveryMismatch { agent: agent.clone(), expected, recorded: message_ids.clone() });
                }
            }
            Event::RequestCreated { request_id, request_kind, .. } => {
                self.check_known(*request_kind)?;
                if self.tracker.get(request_id).is_some() {
                    return Err(TrackerError::DuplicateId(request_id.clone()).into());
                }
            }
            Event::RequestExpired { request_id, request_kind } => self.check_expire(request_id, *request_kind)?,
            Event::RequestTransitioned { request_id, request_kind, by, from, to } => {
                let next = self.check_answer(request_id, *request_kind, by, *to == RequestStatus::Approved)?;
                let current = self.tracker.get(request_id).map(|r| r.status);
                if next != *to || current != Some(*from) {
                    return Err(TeamError::TransitionMismatch(request_id.clone()));
                }
            }
            Event::FaultApplied { message, .. } => {
                self.check_known_type(message)?;
                self.bus.check_send(message)?
            }
            Event::MessageReleased { held } => {
                self.bus.check_release(*held)?;
            }
            Event::RunStarted { .. }
            | Event::RunFinished
            | Event::ModelCalled { .. }
            | Event::ModelReplied { .. }
            | Event::ModelFailed { .. }
            | Event::ToolCalled { .. }
            | Event::ToolReturned { .. }
            | Event::BudgetReached { .. } => {}
        }
        Ok(())
    }

    /// Checks that `by` may answer request `id` of protocol `kind` now: the
    /// tracker's rules, and that `by` is still the run the request was
    /// addressed to (unless `rules` switch those checks off). Returns the
    /// state the answer leads to.
    pub fn check_answer(&self, id: &RequestId, kind: RequestKind, by: &AgentName, approve: bool) -> Result<RequestStatus, TeamError> {
        let next = self.tracker.check_answer_under(id, kind, by, approve, &self.rules)?;
        let addressed = self.tracker.get(id).map_or(0, |r| r.incarnations.addressee);
        let current = self.roster.incarnation(by);
        if self.rules.incarnation_binding && addressed < current {
            return Err(TeamError::StaleRequest { id: id.clone(), addressee: by.clone(), addressed, current });
        }
        Ok(next)
    }

    /// Applies an event that `check` accepted against this very state, and
    /// returns what `undo` needs beyond the event itself to take it back:
    /// usually nothing, so a command costs the same with or without undo.
    ///
    /// Should the state still refuse the event (a case `check` missed), the
    /// refusal is `TeamError::Inconsistent`, never a panic; each arm's first
    /// fallible step changes nothing when it fails, and the steps after it
    /// cannot fail once it succeeded, so the event is then not applied.
    fn apply_checked(&mut self, entry: &TraceEntry) -> Result<Undo, TeamError> {
        self.apply_checked_as(entry, true)
    }

    /// `apply_checked`; unless `undoable`, the member a spawn replaces is
    /// not copied into the `Undo` and the messages a drain read are not
    /// kept (a replay discards them: the inbox is emptied in place), so the
    /// returned `Undo` must then not be passed to `undo`.
    fn apply_checked_as(&mut self, entry: &TraceEntry, undoable: bool) -> Result<Undo, TeamError> {
        let undo = match &entry.event {
            Event::MemberSpawned { name, role, plan_mode } => {
                let before = if undoable { self.roster.get(name).cloned().map(Box::new) } else { None };
                let new_inbox = !self.bus.knows(name);
                self.roster.spawn(name, role, *plan_mode).map_err(|e| inconsistent(entry, e))?;
                self.bus.register(name);
                let gates = self.close_gates_at_spawn(name, *plan_mode);
                Undo::Spawn { before, new_inbox, gates }
            }
            Event::MemberStatusChanged { name, to, .. } => {
                self.roster.set_status(name, *to).map_err(|e| inconsistent(entry, e))?;
                Undo::Nothing
            }
            Event::MessageSent { message } => {
                // `check` ran `check_send` against this state.
                self.bus.send_checked(MessageId(entry.seq), message.clone()).map_err(|e| inconsistent(entry, e))?;
                Undo::Nothing
            }
            Event::InboxDrained { agent, .. } if !undoable => {
                // A replay: the messages read are not kept for an undo.
                self.bus.discard_inbox(agent).map_err(|e| inconsistent(entry, e))?;
                Undo::Nothing
            }
            Event::InboxDrained { agent, .. } => Undo::Drained(self.bus.drain_shared(agent).map_err(|e| inconsistent(entry, e))?),
            Event::RequestCreated { request_id, request_kind, requester, addressee, plan, fields } => {
                let bound = Incarnations {
                    requester: self.roster.bound_incarnation(requester),
                    addressee: self.roster.bound_incarnation(addressee),
                };
                self.tracker
                    .create(
                        request_id.clone(),
                        *request_kind,
                        requester.clone(),
                        addressee.clone(),
                        bound,
                        plan.clone(),
                        fields.clone(),
                        entry.time,
                    )
                    .map_err(|e| inconsistent(entry, e))?;
                Undo::Nothing
            }
            Event::RequestTransitioned { request_id, request_kind, by, to, .. } => {
                let approve = *to == RequestStatus::Approved;
                self.tracker
                    .answer_under(request_id, *request_kind, by, approve, entry.time, &self.rules)
                    .map_err(|e| inconsistent(entry, e))?;
                Undo::Effects(self.settle_effects(request_id, Some(by), approve))
            }
            Event::RequestExpired { request_id, request_kind } => {
                self.tracker.expire(request_id, *request_kind, entry.time).map_err(|e| inconsistent(entry, e))?;
                Undo::Effects(self.settle_effects(request_id, None, false))
            }
            Event::FaultApplied { action, message, .. } => {
                let due = match action {
                    FaultAction::Delay { ms } => Some(Some(Millis(entry.time.0.saturating_add(*ms)))),
                    FaultAction::Reorder => Some(None),
                    FaultAction::Drop | FaultAction::Duplicate => None,
                };
                if let Some(due) = due {
                    self.bus.hold(Held { seq: entry.seq, due, message: message.clone() }).map_err(|e| inconsistent(entry, e))?;
                }
                Undo::Nothing
            }
            Event::MessageReleased { held } => {
                let Some((index, saved)) = self.bus.held_index(*held).and_then(|i| Some((i, self.bus.held().get(i)?.clone()))) else {
                    return Err(inconsistent(entry, BusError::NotHeld(*held)));
                };
                self.bus.release(*held, MessageId(entry.seq)).map_err(|e| inconsistent(entry, e))?;
                Undo::Released(index, Box::new(saved))
            }
            Event::RunStarted { .. }
            | Event::RunFinished
            | Event::ModelCalled { .. }
            | Event::ModelReplied { .. }
            | Event::ModelFailed { .. }
            | Event::ToolCalled { .. }
            | Event::ToolReturned { .. }
            | Event::BudgetReached { .. } => Undo::Nothing,
        };
        Ok(undo)
    }

    /// Takes back `entry`, which was applied last, with what `apply_checked`
    /// saved for it; undoing a command's events newest first restores the
    /// state before the command exactly.
    fn undo(&mut self, entry: &TraceEntry, saved: Undo) {
        match (&entry.event, saved) {
            (Event::MemberSpawned { name, .. }, Undo::Spawn { before, new_inbox, gates }) => {
                if let Some(gates) = gates {
                    self.gates.restore(name, gates);
                }
                self.roster.restore(name, before.map(|m| *m));
                if new_inbox {
                    self.bus.unregister(name);
                }
            }
            (Event::MemberStatusChanged { name, from, .. }, _) => self.roster.restore_status(name, *from),
            (Event::MessageSent { message }, _) => self.bus.unsend(&message.to),
            (Event::InboxDrained { agent, .. }, Undo::Drained(drained)) => self.bus.undrain(agent, drained),
            (Event::RequestCreated { request_id, .. }, _) => self.tracker.uncreate(request_id),
            (Event::RequestTransitioned { request_id, .. } | Event::RequestExpired { request_id, .. }, Undo::Effects(effects)) => {
                self.undo_effects(effects);
                self.tracker.unanswer(request_id);
            }
            (Event::RequestTransitioned { request_id, .. } | Event::RequestExpired { request_id, .. }, _) => {
                self.tracker.unanswer(request_id)
            }
            (Event::FaultApplied { action, .. }, _) if action.holds() => self.bus.unhold(),
            (Event::MessageReleased { .. }, Undo::Released(index, held)) => self.bus.unrelease(index, *held),
            _ => {}
        }
    }
}

/// What taking back one applied event needs beyond the event itself.
#[derive(Debug)]
enum Undo {
    /// The event says it all (or changed nothing).
    Nothing,
    /// A spawn: the member before (none if new), and whether its inbox is new.
    /// The spawned agent's gates before, when its spawn changed them (the
    /// plan gate in plan mode, a file teammate's `gates`).
    Spawn { before: Option<Box<Member>>, new_inbox: bool, gates: Option<Option<gates::GateBits>> },
    /// The messages a drain took out of the inbox.
    Drained(std::sync::Arc<Vec<Envelope>>),
    /// A release: the held message and its place in the held list.
    Released(usize, Box<Held>),
    /// A request settled: what its protocol's effects changed.
    Effects(asks::EffectUndos),
}

/// The live team: state plus the trace that produced it. Every command is
/// atomic: it either appends all its events or none.
#[derive(Debug, Clone)]
pub struct Team {
    state: TeamState,
    trace: Trace,
    faults: FaultPlan,
    /// A fault chosen by the caller (the explorer) for the next message
    /// sent, ahead of the plan; recorded with no rule.
    armed: Option<FaultAction>,
}

impl Team {
    /// A new team with only the lead; `seed` fixes the request ids.
    pub fn new(team_name: &str, seed: u64) -> Self {
        Team { state: TeamState::new(team_name), trace: Trace::new(team_name, seed), faults: FaultPlan::default(), armed: None }
    }

    /// Rebuilds a team by applying every event of `trace`.
    pub fn replay(trace: &Trace) -> Result<Team, ReplayError> {
        let mut state = TeamState::with_rules(&trace.team_name, trace.rules);
        state.protocols = trace.protocols().clone();
        for entry in trace.entries() {
            state.apply(entry).map_err(|source| ReplayError { seq: entry.seq, source })?;
        }
        Ok(Team { state, trace: trace.clone(), faults: FaultPlan::default(), armed: None })
    }

    /// Sets the protective rules for the whole run (and records them in the
    /// trace's header, so the run replays under them). Set them before the
    /// first event: a trace has one set of rules.
    pub fn set_rules(&mut self, rules: Rules) {
        self.state.rules = rules;
        self.trace.rules = rules;
    }

    /// The protective rules in force.
    pub fn rules(&self) -> &Rules {
        &self.state.rules
    }

    /// The current protocol state.
    pub fn state(&self) -> &TeamState {
        &self.state
    }

    /// The trace so far.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// The output contract: every entry with sequence number `seq` or
    /// later, oldest first (empty when `seq` is past the end). A caller that
    /// has seen `n` entries polls `events_since(n)` for what is new, instead
    /// of slicing `trace().entries()` itself.
    pub fn events_since(&self, seq: u64) -> &[TraceEntry] {
        self.trace.since(seq)
    }

    /// Drops the trace's history but its last entry
    /// (`Trace::forget_all_but_last`).
    pub fn forget_history(&mut self) {
        self.trace.forget_all_but_last();
    }

    /// The explorer: drops the trace's whole history, keeping its numbering
    /// and its clock (`Trace::forget_all`), so a clone copies no event.
    pub fn forget_all_history(&mut self) {
        self.trace.forget_all();
    }

    /// The roster.
    pub fn roster(&self) -> &Roster {
        &self.state.roster
    }

    /// The tracker.
    pub fn tracker(&self) -> &Tracker {
        &self.state.tracker
    }

    /// The request with this id.
    pub fn request(&self, id: &RequestId) -> Option<&Request> {
        self.state.tracker.get(id)
    }

    /// Applies `events` at `at` as one atomic step: each event is checked
    /// against the state the events before it left, then applied; on any
    /// refusal the applied ones are undone (newest first), so state and trace
    /// are left as they were. Only what each event touched is saved for the
    /// undo, so a command costs the same at any trace length.
    fn commit(&mut self, at: Millis, mut events: Vec<Event>) -> Result<std::ops::Range<u64>, TeamError> {
        if events.len() == 1 {
            let event = events.pop().expect("one event");
            return self.commit_one(at, event).map(|seq| seq..seq + 1);
        }
        self.trace.check_append(at)?;
        let first = self.trace.next_seq();
        let entries: Vec<TraceEntry> =
            events.into_iter().enumerate().map(|(i, event)| TraceEntry { seq: first + i as u64, time: at, event }).collect();
        let mut saved = Vec::with_capacity(entries.len());
        for entry in &entries {
            match self.state.check(entry).and_then(|()| self.state.apply_checked(entry)) {
                Ok(undo) => saved.push(undo),
                Err(refused) => {
                    for (done, undo) in entries.iter().zip(saved).rev() {
                        self.state.undo(done, undo);
                    }
                    return Err(refused);
                }
            }
        }
        // Appended in order from `first`: the sequence numbers are a range.
        let end = first + entries.len() as u64;
        for entry in entries {
            self.trace.append(entry.time, entry.event).expect("time checked above");
        }
        Ok(first..end)
    }

    /// `commit` of one event, the most common step (an observation, a
    /// status, a message): a refused event is not applied, so there is
    /// nothing to undo and nothing is saved or copied for it.
    fn commit_one(&mut self, at: Millis, event: Event) -> Result<u64, TeamError> {
        self.trace.check_append(at)?;
        let entry = TraceEntry { seq: self.trace.next_seq(), time: at, event };
        self.state.check(&entry).and_then(|()| self.state.apply_checked(&entry))?;
        Ok(self.trace.append(entry.time, entry.event).expect("time checked above"))
    }

    /// Records the start of a run from a user prompt.
    pub fn start_run(&mut self, prompt: &str, at: Millis) -> Result<(), TeamError> {
        self.commit_one(at, Event::RunStarted { prompt: prompt.to_string() }).map(drop)
    }

    /// Records an observation (model call, tool run) that changes no
    /// protocol state.
    pub fn observe(&mut self, event: Event, at: Millis) -> Result<(), TeamError> {
        debug_assert!(event.observed_agent().is_some(), "only observation events");
        self.commit_one(at, event).map(drop)
    }

    /// Records that the team went quiet.
    pub fn finish_run(&mut self, at: Millis) -> Result<(), TeamError> {
        self.commit_one(at, Event::RunFinished).map(drop)
    }

    /// Spawns (or restarts) a teammate.
    pub fn spawn(&mut self, name: &AgentName, role: &str, plan_mode: bool, at: Millis) -> Result<SpawnKind, TeamError> {
        let kind = self.state.roster.check_spawn(name, role)?;
        self.commit_one(at, Event::MemberSpawned { name: name.clone(), role: role.to_string(), plan_mode })?;
        Ok(kind)
    }

    /// Sets a member's status; setting the status it has records nothing.
    pub fn set_status(&mut self, name: &AgentName, to: MemberStatus, at: Millis) -> Result<(), TeamError> {
        let from = self.state.roster.check_status(name, to)?;
        if from == to {
            return Ok(());
        }
        self.commit_one(at, Event::MemberStatusChanged { name: name.clone(), from, to }).map(drop)
    }

    /// Sends a plain message. `msg_type` is the lesson's type string; the
    /// protocol types are refused here because they go through their tools.
    pub fn send(&mut self, from: &AgentName, to: &AgentName, msg_type: &str, content: &str, at: Millis) -> Result<MessageId, TeamError> {
        let msg_type = self.check_send(from, to, msg_type)?;
        let events =
            self.inject_faults(vec![Event::MessageSent { message: Message::new(msg_type, from.clone(), to.clone(), content, at) }]);
        let seqs = self.commit(at, events)?;
        Ok(MessageId(seqs.start))
    }

    /// Checks everything `send` would check, without sending; returns the
    /// parsed type.
    pub fn check_send(&self, from: &AgentName, to: &AgentName, msg_type: &str) -> Result<MessageType, TeamError> {
        let msg_type: MessageType = msg_type.parse().map_err(|e: MessageError| TeamError::Bus(e.into()))?;
        if msg_type.is_request() || msg_type.is_response() {
            return Err(TeamError::ProtocolTypeViaSend(msg_type));
        }
        if self.state.roster.status(from) == Some(MemberStatus::Shutdown) {
            return Err(TeamError::SenderExited(from.clone()));
        }
        if self.state.roster.status(to) == Some(MemberStatus::Shutdown) {
            return Err(TeamError::RecipientExited(to.clone()));
        }
        self.state.bus.check_send(&Message::new(msg_type, from.clone(), to.clone(), "", Millis(0)))?;
        Ok(msg_type)
    }

    /// Sends `content` to every teammate but the sender that has not shut
    /// down, and to the lead when a teammate broadcasts. Returns who got it.
    pub fn broadcast(&mut self, from: &AgentName, content: &str, at: Millis) -> Result<Vec<AgentName>, TeamError> {
        if self.state.roster.status(from) == Some(MemberStatus::Shutdown) {
            return Err(TeamError::SenderExited(from.clone()));
        }
        if !self.state.bus.knows(from) {
            return Err(BusError::UnknownSender(from.clone()).into());
        }
        let recipients: Vec<AgentName> = self
            .state
            .bus
            .broadcast_recipients(from)
            .filter(|n| self.state.roster.status(n) != Some(MemberStatus::Shutdown))
            .cloned()
            .collect();
        let events = recipients
            .iter()
            .map(|to| Event::MessageSent { message: Message::new(MessageType::Broadcast, from.clone(), to.clone(), content, at) })
            .collect();
        let events = self.inject_faults(events);
        self.commit(at, events)?;
        Ok(recipients)
    }

    /// Removes and returns every message waiting for `agent`; an empty inbox
    /// records nothing.
    pub fn drain(&mut self, agent: &AgentName, at: Millis) -> Result<Vec<Envelope>, TeamError> {
        // Shared, not copied: once drained, the inbox is copied only if a
        // clone of this team still holds it.
        let waiting = self.state.bus.inbox_shared(agent)?;
        if !waiting.is_empty() {
            let message_ids = waiting.iter().map(|e| e.id).collect();
            self.commit_one(at, Event::InboxDrained { agent: agent.clone(), message_ids })?;
        }
        Ok(std::sync::Arc::try_unwrap(waiting).unwrap_or_else(|shared| shared.as_ref().clone()))
    }

    /// The messages waiting for `agent`, without removing them.
    pub fn peek(&self, agent: &AgentName) -> Result<&[Envelope], TeamError> {
        Ok(self.state.bus.peek(agent)?)
    }

    /// True when `name` approved a request to shut down and has not reached
    /// `shutdown` yet: it finishes its turn, then exits. A respawn clears it.
    pub fn is_exiting(&self, name: &AgentName) -> bool {
        self.state.roster.get(name).is_some_and(|m| m.is_exiting())
    }

    /// A request id unused so far, derived from the seed and the position in
    /// the trace, so replays and reruns with the same seed agree.
    fn fresh_id(&self) -> Result<RequestId, TeamError> {
        let mut source = SeededIds::new(self.trace.seed ^ self.trace.next_seq().wrapping_mul(0xA24B_AED4_963E_E407));
        Ok(self.state.tracker.fresh_id(&mut source)?)
    }
}

#[cfg(test)]
mod tests;
