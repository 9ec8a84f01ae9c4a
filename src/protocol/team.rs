//! The team: roster, bus and tracker kept together, changed only by applying
//! trace events. Every command checks its rules, turns into events, applies
//! them and appends them to the trace; `replay` applies a recorded trace the
//! same way, so live state and replayed state cannot drift apart.
//!
//! Owns the protocol rules that span modules (who may request a shutdown of
//! whom, what an answer sends back). It must not do I/O, await, or read a
//! clock: callers pass time in.

mod asks;
mod undo;

pub use asks::ClosedGates;
pub use undo::StepBack;

use super::bus::{Bus, BusError, Envelope, Held, MessageId};
use super::faults::{self, FaultAction, FaultPlan};
use super::fields::Fields;
use super::ids::SeededIds;
use super::message::{Message, MessageError, MessageType, RequestId};
use super::protocols::{ProtocolSet, ProtocolsError};
use super::roster::{Member, MemberStatus, Roster, RosterError, SpawnKind};
use super::rules::Rules;
use super::time::Millis;
use super::trace::{Event, Trace, TraceEntry, TraceError};
use super::tracker::{Incarnations, Request, RequestKind, RequestStatus, Tracker, TrackerError};
use super::AgentName;

/// The text of every shutdown request, as in the lesson.
pub const SHUTDOWN_REQUEST_TEXT: &str = "Please shut down gracefully.";

/// Errors from team commands, phrased so they can be handed to a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamError {
    /// A roster rule was broken.
    #[error(transparent)]
    Roster(#[from] RosterError),
    /// A bus rule was broken.
    #[error(transparent)]
    Bus(#[from] BusError),
    /// A tracker rule was broken.
    #[error(transparent)]
    Tracker(#[from] TrackerError),
    /// A trace rule was broken.
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// A file protocol's rule was broken (an unknown protocol, a field
    /// missing or of the wrong type).
    #[error(transparent)]
    Protocol(Box<ProtocolsError>),
    /// The asker's role may not ask with this protocol.
    #[error("{asker} cannot ask with the {protocol} protocol: only {allowed} may")]
    MayNotAsk {
        /// Who tried.
        asker: AgentName,
        /// The protocol.
        protocol: String,
        /// Who may (`the lead`, `teammates`, `the lead and teammates`).
        allowed: &'static str,
    },
    /// The addressee's role does not answer this protocol.
    #[error("a {protocol} request goes to {role}; '{to}' is not one")]
    WrongAddressee {
        /// The protocol.
        protocol: String,
        /// Who answers it (`the lead`, `a teammate`).
        role: &'static str,
        /// The addressee given.
        to: AgentName,
    },
    /// A second request of a protocol with `one_pending_per_addressee`
    /// while one to the same addressee is pending.
    #[error("a {protocol} request to '{target}' is already pending ({pending}); wait for its answer")]
    AlreadyPending {
        /// The protocol.
        protocol: String,
        /// The addressee.
        target: AgentName,
        /// The request still waiting for its answer.
        pending: RequestId,
    },
    /// The requester asked again after more expiries than the protocol's
    /// `retries` allow.
    #[error(
        "your last {expired} {protocol} requests to '{target}' expired unanswered and the protocol allows {retries} \
         retr{plural} after an expiry; do not ask again",
        plural = if *retries == 1 { "y" } else { "ies" }
    )]
    RetriesExhausted {
        /// The protocol.
        protocol: String,
        /// The addressee.
        target: AgentName,
        /// How many requests in a row expired.
        expired: u32,
        /// How many retries the protocol allows.
        retries: u8,
    },
    /// A trace names a file protocol the team was not given (import it with
    /// its protocol file).
    #[error("the trace uses the protocol or message type '{0}', which this team does not know; load its protocol file first")]
    UnknownProtocolName(String),
    /// Protocol messages go through their own tools so the tracker sees them.
    #[error("a {0} cannot be sent as a plain message; use the {tool} tool", tool = protocol_tool(*.0))]
    ProtocolTypeViaSend(MessageType),
    /// Only the lead asks teammates to shut down.
    #[error("only the lead can request a shutdown; '{0}' cannot")]
    NotLead(AgentName),
    /// The lead submits no plans to itself.
    #[error("the lead does not submit plans; only teammates do")]
    LeadSubmitsPlan,
    /// A message to a teammate that has shut down would never be read.
    #[error("'{0}' has shut down and reads no messages; spawn it again to restart it")]
    RecipientExited(AgentName),
    /// A teammate that has shut down has left its loop: it says nothing more.
    #[error("'{0}' has shut down and can send nothing; spawn it again to restart it")]
    SenderExited(AgentName),
    /// A second shutdown request while one to the same teammate is pending:
    /// the teammate would answer one and exit, leaving the other pending.
    #[error("a shutdown request to '{target}' is already pending ({pending}); wait for its answer")]
    ShutdownPending {
        /// The teammate.
        target: AgentName,
        /// The request still waiting for its answer.
        pending: RequestId,
    },
    /// A shutdown request to a teammate that is gone.
    #[error("'{0}' has already shut down; there is nothing to request")]
    TargetExited(AgentName),
    /// A drain record does not match what the inbox held.
    #[error("inbox of '{agent}' held {expected:?} but the trace delivered {recorded:?}")]
    DeliveryMismatch {
        /// Whose inbox.
        agent: AgentName,
        /// What the inbox held.
        expected: Vec<MessageId>,
        /// What the trace said was delivered.
        recorded: Vec<MessageId>,
    },
    /// A restarted teammate answered a request made to its previous run.
    #[error(
        "request '{id}' was addressed to {addressee}'s previous run (incarnation {addressed}); \
         {addressee} has restarted (incarnation {current}) and cannot answer it"
    )]
    StaleRequest {
        /// The request.
        id: RequestId,
        /// Its addressee.
        addressee: AgentName,
        /// The incarnation the request was addressed to.
        addressed: u32,
        /// The addressee's incarnation now.
        current: u32,
    },
    /// A transition record does not match the tracker.
    #[error("request '{0}' moved to a state the answer does not lead to")]
    TransitionMismatch(RequestId),
    /// A status record does not match the roster.
    #[error("'{name}' was {actual}, not {recorded} as the trace says")]
    StatusMismatch {
        /// Whose status.
        name: AgentName,
        /// The roster's status.
        actual: MemberStatus,
        /// The trace's claim.
        recorded: MemberStatus,
    },
    /// An event passed its checks but the state refused it when applied:
    /// the checks missed a case (a trace crafted or damaged to reach it).
    /// Applying stops here, with nothing past the refusing step changed,
    /// instead of taking the page down.
    #[error("the {event} event passed its checks but could not be applied: {problem}")]
    Inconsistent {
        /// The event's kind, as the trace file writes it.
        event: &'static str,
        /// What the state refused, as the part of the team that refused it
        /// says.
        problem: String,
    },
}

/// Boxed: its texts would make every team error as large as the largest.
impl From<ProtocolsError> for TeamError {
    fn from(e: ProtocolsError) -> Self {
        TeamError::Protocol(Box::new(e))
    }
}

/// The refusal of `entry`'s event while applying it after its checks passed.
fn inconsistent(entry: &TraceEntry, problem: impl std::fmt::Display) -> TeamError {
    TeamError::Inconsistent { event: entry.event.kind(), problem: problem.to_string() }
}

fn protocol_tool(t: MessageType) -> &'static str {
    match t {
        MessageType::File(f) if f.response => "protocol's answer",
        MessageType::File(_) => "protocol's request",
        MessageType::ShutdownRequest => "shutdown_request",
        MessageType::ShutdownResponse => "shutdown_response",
        MessageType::PlanApprovalRequest | MessageType::PlanApprovalResponse => "plan_approval",
        MessageType::Message | MessageType::Broadcast => "send_message",
    }
}

/// A trace that could not be replayed, with the event where it broke.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {seq} cannot be replayed: {source}")]
pub struct ReplayError {
    /// The sequence number of the offending event.
    pub seq: u64,
    /// Why.
    pub source: TeamError,
}

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
    /// The file gates closed, per agent (the lesson's plan gate is the
    /// roster's `plan_approved`).
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
        self.apply_checked(entry)?;
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
        let undo = match &entry.event {
            Event::MemberSpawned { name, role, plan_mode } => {
                let before = self.roster.get(name).cloned().map(Box::new);
                let new_inbox = !self.bus.knows(name);
                self.roster.spawn(name, role, *plan_mode).map_err(|e| inconsistent(entry, e))?;
                self.bus.register(name);
                let gates = self.close_gates_at_spawn(name);
                Undo::Spawn { before, new_inbox, gates }
            }
            Event::MemberStatusChanged { name, to, .. } => {
                self.roster.set_status(name, *to).map_err(|e| inconsistent(entry, e))?;
                Undo::Nothing
            }
            Event::MessageSent { message } => {
                self.bus.send(MessageId(entry.seq), message.clone()).map_err(|e| inconsistent(entry, e))?;
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
                let Some(req) = self.tracker.get(request_id) else {
                    return Err(inconsistent(entry, TrackerError::UnknownRequest(request_id.clone())));
                };
                if let RequestKind::File(_) = request_kind {
                    return Ok(Undo::Effects(self.settle_effects(request_id, approve)));
                }
                if *request_kind == RequestKind::Shutdown && approve {
                    // The addressee finishes its turn, then exits.
                    let was = self.roster.get(by).map(|m| m.shutdown_approved);
                    self.roster.mark_shutdown_approved(by);
                    return Ok(Undo::Exiting(was));
                }
                // An approval opens the gate of the run that submitted the
                // plan only: a restarted teammate submits its own.
                let same_run = self.roster.incarnation(&req.requester) == req.incarnations.requester;
                if *request_kind == RequestKind::Plan && approve && same_run {
                    let requester = &req.requester;
                    let was = self.roster.get(requester).map(|m| m.plan_approved);
                    self.roster.mark_plan_approved(requester);
                    return Ok(Undo::Gate(was));
                }
                Undo::Nothing
            }
            Event::RequestExpired { request_id, request_kind } => {
                self.tracker.expire(request_id, *request_kind, entry.time).map_err(|e| inconsistent(entry, e))?;
                Undo::Effects(self.settle_effects(request_id, false))
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
            (Event::RequestExpired { request_id, .. }, _) => self.tracker.unanswer(request_id),
            (Event::RequestTransitioned { request_id, by, .. }, saved) => {
                match (saved, self.tracker.get(request_id)) {
                    (Undo::Gate(Some(was)), Some(req)) => {
                        let requester = req.requester.clone();
                        self.roster.restore_plan_approved(&requester, was);
                    }
                    (Undo::Exiting(Some(was)), _) => self.roster.restore_shutdown_approved(by, was),
                    _ => {}
                }
                self.tracker.unanswer(request_id);
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
    /// With a protocol file, the spawned agent's file gates before (its
    /// `gates` closed at spawn).
    Spawn { before: Option<Box<Member>>, new_inbox: bool, gates: Option<Option<asks::GateBits>> },
    /// The messages a drain took out of the inbox.
    Drained(std::sync::Arc<Vec<Envelope>>),
    /// A plan approval: whether the requester's gate was open before (none
    /// when the requester is not a member).
    Gate(Option<bool>),
    /// A shutdown approval: whether the addressee had approved one before
    /// (none when it is not a member).
    Exiting(Option<bool>),
    /// A release: the held message and its place in the held list.
    Released(usize, Box<Held>),
    /// A file protocol's request settled: what its effects changed.
    Effects(Vec<asks::EffectUndo>),
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
    fn commit(&mut self, at: Millis, events: Vec<Event>) -> Result<std::ops::Range<u64>, TeamError> {
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

    /// Sets the fault plan applied to every message a command sends from now
    /// on. The plan is not recorded: its decisions are, as events.
    pub fn set_faults(&mut self, plan: FaultPlan) {
        self.faults = plan;
    }

    /// The fault plan in force.
    pub fn faults(&self) -> &FaultPlan {
        &self.faults
    }

    /// The next message a command sends gets `action` (a fault with no
    /// rule, ahead of the plan) until `disarm_fault`: how the explorer
    /// chooses faults instead of drawing them.
    pub fn arm_fault(&mut self, action: FaultAction) {
        self.armed = Some(action);
    }

    /// Clears a fault armed by `arm_fault`.
    pub fn disarm_fault(&mut self) {
        self.armed = None;
    }

    /// The messages held on the bus by delay and reorder faults.
    pub fn held(&self) -> &[Held] {
        self.state.bus.held()
    }

    /// Releases, in hold order, every delayed message due at or before
    /// `now` into its recipient's inbox. Returns how many were released.
    pub fn release_due(&mut self, now: Millis) -> Result<usize, TeamError> {
        let due: Vec<Event> = self
            .state
            .bus
            .held()
            .iter()
            .filter(|h| h.due.is_some_and(|d| d <= now))
            .map(|h| Event::MessageReleased { held: h.seq })
            .collect();
        self.commit_releases(now, due)
    }

    /// Releases every held message (delayed or reordered, due or not), in
    /// hold order. Used when the team would otherwise go quiet.
    pub fn release_all(&mut self, now: Millis) -> Result<usize, TeamError> {
        let all: Vec<Event> = self.state.bus.held().iter().map(|h| Event::MessageReleased { held: h.seq }).collect();
        self.commit_releases(now, all)
    }

    fn commit_releases(&mut self, now: Millis, events: Vec<Event>) -> Result<usize, TeamError> {
        let n = events.len();
        if n > 0 {
            self.commit(now, events)?;
        }
        Ok(n)
    }

    /// Passes the `MessageSent` events of a command through the fault plan:
    /// each may be dropped, duplicated, delayed or reordered, and a delivery
    /// releases the messages reordered by earlier commands for the same
    /// recipient, right after it. Other
    /// events pass unchanged. With an empty plan and nothing held for
    /// reordering this is the identity.
    fn inject_faults(&self, events: Vec<Event>) -> Vec<Event> {
        let mut reordered: Vec<(u64, AgentName)> =
            self.state.bus.held().iter().filter(|h| h.due.is_none()).map(|h| (h.seq, h.message.to.clone())).collect();
        if self.faults.is_empty() && reordered.is_empty() && self.armed.is_none() {
            return events;
        }
        let mut armed = self.armed.clone();
        let first = self.trace.next_seq();
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            let Event::MessageSent { message } = event else {
                out.push(event);
                continue;
            };
            let seq = first + out.len() as u64;
            let decision = match armed.take() {
                Some(action) => Some((None, action)),
                None => self.faults.decide(&message, faults::draw(self.trace.seed, seq)).map(|(rule, action)| (Some(rule), action)),
            };
            match decision {
                Some((rule, FaultAction::Drop)) => {
                    out.push(Event::FaultApplied { action: FaultAction::Drop, message, rule });
                    continue;
                }
                Some((rule, action @ (FaultAction::Delay { .. } | FaultAction::Reorder))) => {
                    // A message held here waits for a later command's
                    // delivery to its recipient.
                    out.push(Event::FaultApplied { action, message, rule });
                    continue;
                }
                Some((rule, FaultAction::Duplicate)) => {
                    out.push(Event::MessageSent { message: message.clone() });
                    out.push(Event::FaultApplied { action: FaultAction::Duplicate, message: message.clone(), rule });
                    out.push(Event::MessageSent { message: message.clone() });
                }
                None => out.push(Event::MessageSent { message: message.clone() }),
            }
            let (release, keep): (Vec<_>, Vec<_>) = reordered.into_iter().partition(|(_, to)| *to == message.to);
            reordered = keep;
            out.extend(release.into_iter().map(|(held, _)| Event::MessageReleased { held }));
        }
        out
    }

    /// Records the start of a run from a user prompt.
    pub fn start_run(&mut self, prompt: &str, at: Millis) -> Result<(), TeamError> {
        self.commit(at, vec![Event::RunStarted { prompt: prompt.to_string() }]).map(drop)
    }

    /// Records an observation (model call, tool run) that changes no
    /// protocol state.
    pub fn observe(&mut self, event: Event, at: Millis) -> Result<(), TeamError> {
        debug_assert!(event.observed_agent().is_some(), "only observation events");
        self.commit(at, vec![event]).map(drop)
    }

    /// Records that the team went quiet.
    pub fn finish_run(&mut self, at: Millis) -> Result<(), TeamError> {
        self.commit(at, vec![Event::RunFinished]).map(drop)
    }

    /// Spawns (or restarts) a teammate.
    pub fn spawn(&mut self, name: &AgentName, role: &str, plan_mode: bool, at: Millis) -> Result<SpawnKind, TeamError> {
        let kind = self.state.roster.check_spawn(name, role)?;
        self.commit(at, vec![Event::MemberSpawned { name: name.clone(), role: role.to_string(), plan_mode }])?;
        Ok(kind)
    }

    /// Sets a member's status; setting the status it has records nothing.
    pub fn set_status(&mut self, name: &AgentName, to: MemberStatus, at: Millis) -> Result<(), TeamError> {
        let from = self.state.roster.check_status(name, to)?;
        if from == to {
            return Ok(());
        }
        self.commit(at, vec![Event::MemberStatusChanged { name: name.clone(), from, to }]).map(drop)
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
            self.commit(at, vec![Event::InboxDrained { agent: agent.clone(), message_ids }])?;
        }
        Ok(std::sync::Arc::try_unwrap(waiting).unwrap_or_else(|shared| shared.as_ref().clone()))
    }

    /// The messages waiting for `agent`, without removing them.
    pub fn peek(&self, agent: &AgentName) -> Result<&[Envelope], TeamError> {
        Ok(self.state.bus.peek(agent)?)
    }

    /// The lead asks `target` to shut down: a pending shutdown request and a
    /// `shutdown_request` message.
    pub fn request_shutdown(&mut self, from: &AgentName, target: &AgentName, at: Millis) -> Result<RequestId, TeamError> {
        if !from.is_lead() {
            return Err(TeamError::NotLead(from.clone()));
        }
        match self.state.roster.status(target) {
            None => return Err(RosterError::UnknownMember(target.clone()).into()),
            Some(MemberStatus::Shutdown) => return Err(TeamError::TargetExited(target.clone())),
            Some(_) => {}
        }
        let current = self.state.roster.incarnation(target);
        let open = self.state.tracker.pending_to(target).find(|r| r.kind == RequestKind::Shutdown && r.incarnations.addressee == current);
        if let Some(r) = open {
            return Err(TeamError::ShutdownPending { target: target.clone(), pending: r.id.clone() });
        }
        let id = self.fresh_id()?;
        let mut message = Message::new(MessageType::ShutdownRequest, from.clone(), target.clone(), SHUTDOWN_REQUEST_TEXT, at);
        message.request_id = Some(id.clone());
        let created = Event::RequestCreated {
            request_id: id.clone(),
            request_kind: RequestKind::Shutdown,
            requester: from.clone(),
            addressee: target.clone(),
            plan: None,
            fields: Fields::new(),
        };
        let events = self.inject_faults(vec![created, Event::MessageSent { message }]);
        self.commit(at, events)?;
        Ok(id)
    }

    /// A teammate submits a plan to the lead: a pending plan request and a
    /// `plan_approval_request` message.
    pub fn submit_plan(&mut self, from: &AgentName, plan: &str, at: Millis) -> Result<RequestId, TeamError> {
        if from.is_lead() {
            return Err(TeamError::LeadSubmitsPlan);
        }
        if self.state.roster.get(from).is_none() {
            return Err(RosterError::UnknownMember(from.clone()).into());
        }
        let id = self.fresh_id()?;
        let mut message = Message::new(MessageType::PlanApprovalRequest, from.clone(), AgentName::lead(), plan, at);
        message.request_id = Some(id.clone());
        message.plan = Some(plan.to_string());
        let created = Event::RequestCreated {
            request_id: id.clone(),
            request_kind: RequestKind::Plan,
            requester: from.clone(),
            addressee: AgentName::lead(),
            plan: Some(plan.to_string()),
            fields: Fields::new(),
        };
        let events = self.inject_faults(vec![created, Event::MessageSent { message }]);
        self.commit(at, events)?;
        Ok(id)
    }

    /// The addressee answers a request of protocol `kind`: the request moves
    /// and the response message goes back to the requester. `text` is the
    /// reason (shutdown) or the feedback (plan). Returns the new status.
    pub fn answer(
        &mut self,
        kind: RequestKind,
        id: &RequestId,
        by: &AgentName,
        approve: bool,
        text: &str,
        at: Millis,
    ) -> Result<RequestStatus, TeamError> {
        let msg_type = match kind {
            RequestKind::Shutdown => MessageType::ShutdownResponse,
            RequestKind::Plan => MessageType::PlanApprovalResponse,
            // A file protocol's answer: `text` is its content field.
            RequestKind::File(k) => {
                let ix = k.protocol.ok_or_else(|| TeamError::UnknownProtocolName(k.name().to_string()))?;
                let mut fields = Fields::new();
                let content = self.state.protocols.protocol(ix).and_then(|p| p.response_fields.iter().find(|f| f.content));
                if let Some(field) = content.filter(|_| !text.is_empty()) {
                    fields.set(field.name.clone(), crate::protocol::FieldValue::Text(text.to_string()));
                }
                return self.respond(ix, id, by, approve, fields, at);
            }
        };
        let to = self.state.check_answer(id, kind, by, approve)?;
        let req = self.state.tracker.get(id).ok_or_else(|| TrackerError::UnknownRequest(id.clone()))?;
        let mut message = Message::new(msg_type, by.clone(), req.requester.clone(), text, at);
        message.request_id = Some(id.clone());
        message.approve = Some(approve);
        match kind {
            RequestKind::Shutdown => message.reason = Some(text.to_string()),
            RequestKind::Plan | RequestKind::File(_) => message.feedback = Some(text.to_string()),
        }
        let moved = Event::RequestTransitioned { request_id: id.clone(), request_kind: kind, by: by.clone(), from: req.status, to };
        let events = self.inject_faults(vec![moved, Event::MessageSent { message }]);
        self.commit(at, events)?;
        Ok(to)
    }

    /// Checks everything `answer` would check, without answering; returns
    /// the state the answer would lead to.
    pub fn check_answer(&self, kind: RequestKind, id: &RequestId, by: &AgentName, approve: bool) -> Result<RequestStatus, TeamError> {
        self.state.check_answer(id, kind, by, approve)
    }

    /// True when `name` approved a request to shut down and has not reached
    /// `shutdown` yet: it finishes its turn, then exits. A respawn clears it.
    pub fn is_exiting(&self, name: &AgentName) -> bool {
        self.state.roster.get(name).is_some_and(|m| m.is_exiting())
    }

    /// True when `name` was spawned in plan mode and none of its plans has
    /// been approved since: workspace-changing tools stay refused.
    pub fn plan_gate_closed(&self, name: &AgentName) -> bool {
        self.state.roster.get(name).is_some_and(|m| m.plan_mode && !m.plan_approved)
    }

    /// A request id unused so far, derived from the seed and the position in
    /// the trace, so replays and reruns with the same seed agree.
    fn fresh_id(&self) -> Result<RequestId, TeamError> {
        let mut source = SeededIds::new(self.trace.seed ^ self.trace.next_seq().wrapping_mul(0xA24B_AED4_963E_E407));
        Ok(self.state.tracker.fresh_id(&mut source)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::faults::FaultRule;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// A team with alice, where every message matching `rule` is hit.
    fn team_with(rule: FaultRule) -> Team {
        let mut t = Team::new("t", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        t.set_faults(FaultPlan::new(vec![rule]));
        t
    }

    fn kinds(t: &Team) -> Vec<&'static str> {
        t.trace()
            .entries()
            .iter()
            .skip(1)
            .map(|e| match &e.event {
                Event::MessageSent { .. } => "sent",
                Event::FaultApplied { action, .. } => action.name(),
                Event::MessageReleased { .. } => "released",
                Event::RequestCreated { .. } => "created",
                Event::RequestTransitioned { .. } => "moved",
                Event::InboxDrained { .. } => "drained",
                _ => "other",
            })
            .collect()
    }

    fn assert_replays(t: &Team) {
        assert_eq!(Team::replay(t.trace()).unwrap().state(), t.state(), "replay equals live state");
    }

    #[test]
    fn a_dropped_message_replaces_its_send_and_reaches_no_inbox() {
        let mut t = team_with(FaultRule::new(FaultAction::Drop));
        let id = t.send(&AgentName::lead(), &name("alice"), "message", "hi", Millis(1)).unwrap();
        assert_eq!(id, MessageId(1), "the sender still gets an id");
        assert_eq!(kinds(&t), ["drop"]);
        assert!(t.peek(&name("alice")).unwrap().is_empty());
        assert_replays(&t);
    }

    #[test]
    fn a_duplicated_message_is_sent_twice_around_its_fault_event() {
        let mut t = team_with(FaultRule::new(FaultAction::Duplicate));
        t.send(&AgentName::lead(), &name("alice"), "message", "hi", Millis(1)).unwrap();
        assert_eq!(kinds(&t), ["sent", "duplicate", "sent"]);
        let inbox: Vec<_> = t.peek(&name("alice")).unwrap().iter().map(|e| (e.id, e.message.content.clone())).collect();
        assert_eq!(inbox, [(MessageId(1), "hi".to_string()), (MessageId(3), "hi".to_string())]);
        assert_replays(&t);
    }

    #[test]
    fn a_delayed_message_is_held_until_it_is_due() {
        let mut t = team_with(FaultRule::new(FaultAction::Delay { ms: 100 }));
        t.send(&AgentName::lead(), &name("alice"), "message", "later", Millis(10)).unwrap();
        assert_eq!(t.held().len(), 1);
        assert_eq!(t.held()[0].due, Some(Millis(110)));
        assert_eq!(t.release_due(Millis(109)), Ok(0));
        assert!(t.peek(&name("alice")).unwrap().is_empty());
        assert_replays(&t);
        assert_eq!(t.release_due(Millis(110)), Ok(1));
        assert_eq!(t.trace().entries().last().unwrap().event, Event::MessageReleased { held: 1 });
        assert_eq!(t.peek(&name("alice")).unwrap()[0].id, MessageId(2), "its id is the release's seq");
        assert!(t.held().is_empty());
        assert_replays(&t);
    }

    #[test]
    fn a_reordered_message_follows_the_next_one_to_its_recipient() {
        let only_first = FaultRule { msg_type: Some(MessageType::Broadcast), ..FaultRule::new(FaultAction::Reorder) };
        let mut t = team_with(only_first);
        t.broadcast(&AgentName::lead(), "first", Millis(1)).unwrap();
        t.send(&AgentName::lead(), &name("alice"), "message", "second", Millis(2)).unwrap();
        assert_eq!(kinds(&t), ["reorder", "sent", "released"]);
        let inbox: Vec<_> = t.peek(&name("alice")).unwrap().iter().map(|e| e.message.content.clone()).collect();
        assert_eq!(inbox, ["second", "first"]);
        assert_replays(&t);
    }

    #[test]
    fn release_all_releases_every_held_message_in_hold_order() {
        let mut t = team_with(FaultRule::new(FaultAction::Delay { ms: 500 }));
        t.send(&AgentName::lead(), &name("alice"), "message", "a", Millis(1)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Reorder)]));
        t.send(&AgentName::lead(), &name("alice"), "message", "b", Millis(2)).unwrap();
        assert_eq!(t.release_all(Millis(3)), Ok(2));
        let inbox: Vec<_> = t.peek(&name("alice")).unwrap().iter().map(|e| e.message.content.clone()).collect();
        assert_eq!(inbox, ["a", "b"]);
        assert_eq!(t.release_all(Millis(3)), Ok(0), "nothing left, nothing recorded");
        assert_replays(&t);
    }

    #[test]
    fn a_dropped_response_still_moves_the_request() {
        let mut t = Team::new("t", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
        t.drain(&name("alice"), Millis(2)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]));
        t.answer(RequestKind::Shutdown, &id, &name("alice"), true, "ok", Millis(3)).unwrap();
        assert_eq!(t.request(&id).unwrap().status, RequestStatus::Approved);
        assert!(t.peek(&AgentName::lead()).unwrap().is_empty(), "the lead never hears");
        assert_replays(&t);
    }

    #[test]
    fn releasing_a_message_that_is_not_held_is_refused() {
        let t = Team::new("t", 1);
        let entry = TraceEntry { seq: 0, time: Millis(0), event: Event::MessageReleased { held: 7 } };
        assert_eq!(t.state().check(&entry), Err(TeamError::Bus(BusError::NotHeld(7))));
        let bad = Message::new(MessageType::Message, AgentName::lead(), name("ghost"), "x", Millis(0));
        let entry =
            TraceEntry { seq: 0, time: Millis(0), event: Event::FaultApplied { action: FaultAction::Drop, message: bad, rule: None } };
        assert!(matches!(t.state().check(&entry), Err(TeamError::Bus(BusError::UnknownRecipient { .. }))));
    }

    #[test]
    fn the_same_seed_and_plan_make_the_same_decisions() {
        let half = FaultPlan::new(vec![FaultRule { probability: 0.5, ..FaultRule::new(FaultAction::Drop) }]);
        let run = || {
            let mut t = Team::new("t", 42);
            t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
            t.set_faults(half.clone());
            for i in 0..20 {
                t.send(&AgentName::lead(), &name("alice"), "message", &format!("m{i}"), Millis(i)).unwrap();
            }
            t.trace().to_json()
        };
        let trace = run();
        assert_eq!(trace, run());
        assert!(trace.contains(r#""kind":"fault_applied""#) && trace.contains(r#""kind":"message_sent""#), "some hit, some not");
    }

    #[test]
    fn an_armed_fault_hits_the_next_message_without_a_rule_until_disarmed() {
        // The plan never hits: only the armed fault does.
        let mut t = team_with(FaultRule { probability: 0.0, ..FaultRule::new(FaultAction::Drop) });
        t.arm_fault(FaultAction::Drop);
        t.send(&AgentName::lead(), &name("alice"), "message", "lost", Millis(1)).unwrap();
        t.disarm_fault();
        t.send(&AgentName::lead(), &name("alice"), "message", "kept", Millis(2)).unwrap();
        assert_eq!(kinds(&t), ["drop", "sent"]);
        assert!(matches!(t.trace().entries()[1].event, Event::FaultApplied { rule: None, .. }), "an armed fault has no rule");
        let inbox: Vec<_> = t.peek(&name("alice")).unwrap().iter().map(|e| e.message.content.clone()).collect();
        assert_eq!(inbox, ["kept"]);
    }
}

#[cfg(test)]
mod commit_rules {
    use super::*;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    #[test]
    fn an_event_the_state_refuses_after_its_checks_is_an_error_naming_the_event_not_a_crash() {
        let mut t = Team::new("t", 1);
        let alice = name("alice");
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        let state = t.state().clone();
        let at = |event| TraceEntry { seq: 9, time: Millis(1), event };
        let ghost = Message::new(MessageType::Message, AgentName::lead(), name("ghost"), "x", Millis(1));
        let unchecked = [
            (at(Event::MessageReleased { held: 7 }), "message_released", "event 7 holds no message"),
            (at(Event::MessageSent { message: ghost.clone() }), "message_sent", "no agent named 'ghost'"),
            (at(Event::InboxDrained { agent: name("ghost"), message_ids: vec![] }), "inbox_drained", "'ghost' has an inbox"),
            (
                at(Event::FaultApplied { action: FaultAction::Delay { ms: 5 }, message: ghost, rule: None }),
                "fault_applied",
                "no agent named 'ghost'",
            ),
            (
                at(Event::MemberStatusChanged { name: name("ghost"), from: MemberStatus::Idle, to: MemberStatus::Working }),
                "member_status_changed",
                "ghost",
            ),
            (at(Event::MemberSpawned { name: alice.clone(), role: "coder".into(), plan_mode: false }), "member_spawned", "alice"),
            (
                at(Event::RequestTransitioned {
                    request_id: RequestId::parse("0badc0de").unwrap(),
                    request_kind: RequestKind::Shutdown,
                    by: alice.clone(),
                    from: RequestStatus::Pending,
                    to: RequestStatus::Approved,
                }),
                "request_transitioned",
                "0badc0de",
            ),
        ];
        for (entry, kind, says) in unchecked {
            let mut s = state.clone();
            let err = s.apply_checked(&entry).unwrap_err();
            assert!(matches!(&err, TeamError::Inconsistent { event, .. } if *event == kind), "{err:?}");
            let text = err.to_string();
            assert!(text.starts_with(&format!("the {kind} event passed its checks but could not be applied: ")), "{text}");
            assert!(text.contains(says), "{text}");
            assert_eq!(s, state, "{kind}: nothing was applied");
        }
    }

    #[test]
    fn an_event_that_needs_the_one_before_it_in_the_same_command_is_accepted() {
        let mut t = Team::new("t", 1);
        let bob = name("bob");
        let hello = Message::new(MessageType::Message, AgentName::lead(), bob.clone(), "hi", Millis(1));
        let events =
            vec![Event::MemberSpawned { name: bob.clone(), role: "coder".into(), plan_mode: false }, Event::MessageSent { message: hello }];
        assert_eq!(t.commit(Millis(1), events), Ok(0..2), "bob's inbox exists once the first event is applied");
        assert_eq!(t.peek(&bob).unwrap().len(), 1);
        assert_eq!(Team::replay(t.trace()).unwrap().state(), t.state());
    }

    #[test]
    fn an_event_that_contradicts_the_one_before_it_in_the_same_command_is_refused_whole() {
        let mut t = Team::new("t", 1);
        let alice = name("alice");
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        let id = t.send(&AgentName::lead(), &alice, "message", "hi", Millis(1)).unwrap();
        let (state, len) = (t.state().clone(), t.trace().len());
        let drained = Event::InboxDrained { agent: alice.clone(), message_ids: vec![id] };
        let err = t.commit(Millis(2), vec![drained.clone(), drained]).unwrap_err();
        assert!(matches!(err, TeamError::DeliveryMismatch { .. }), "{err}");
        assert_eq!((t.state(), t.trace().len()), (&state, len), "nothing of the command stays");
    }

    #[test]
    fn a_refused_command_undoes_every_kind_of_event_it_applied() {
        let mut t = Team::new("t", 1);
        let alice = name("alice");
        t.spawn(&alice, "coder", true, Millis(0)).unwrap();
        t.send(&AgentName::lead(), &alice, "message", "one", Millis(1)).unwrap();
        t.set_faults(FaultPlan::new(vec![crate::protocol::faults::FaultRule::new(FaultAction::Delay { ms: 5 })]));
        t.send(&AgentName::lead(), &alice, "message", "held", Millis(1)).unwrap();
        t.set_faults(FaultPlan::default());
        let plan = t.submit_plan(&alice, "p", Millis(1)).unwrap();
        let held = t.held()[0].clone();
        let (state, len) = (t.state().clone(), t.trace().len());
        let ids: Vec<MessageId> = t.peek(&alice).unwrap().iter().map(|e| e.id).collect();
        let note = Message::new(MessageType::Message, alice.clone(), AgentName::lead(), "x", Millis(2));
        let events = vec![
            Event::MemberSpawned { name: name("carol"), role: "r".into(), plan_mode: false },
            Event::MemberStatusChanged { name: alice.clone(), from: MemberStatus::Working, to: MemberStatus::Idle },
            Event::MessageSent { message: note.clone() },
            Event::InboxDrained { agent: alice.clone(), message_ids: ids },
            Event::RequestTransitioned {
                request_id: plan.clone(),
                request_kind: RequestKind::Plan,
                by: AgentName::lead(),
                from: RequestStatus::Pending,
                to: RequestStatus::Approved,
            },
            Event::RequestCreated {
                request_id: RequestId::parse("0badc0de").unwrap(),
                request_kind: RequestKind::Shutdown,
                requester: AgentName::lead(),
                addressee: alice.clone(),
                plan: None,
                fields: Fields::new(),
            },
            Event::FaultApplied { action: FaultAction::Reorder, message: note, rule: None },
            Event::MessageReleased { held: held.seq },
            Event::MessageReleased { held: held.seq },
        ];
        assert_eq!(t.commit(Millis(3), events), Err(TeamError::Bus(BusError::NotHeld(held.seq))));
        assert_eq!((t.state(), t.trace().len()), (&state, len), "every applied event was undone");
        assert!(t.plan_gate_closed(&alice));
    }

    /// alice has a message held by a delay fault and a pending shutdown
    /// request; `events` (given the request and alice) are committed, then
    /// refused by a release of a message nobody holds. Returns the team
    /// after the refusal, and its state and trace length before the command.
    fn refused_after(events: impl FnOnce(&RequestId, &AgentName) -> Vec<Event>) -> (Team, TeamState, usize) {
        let mut t = Team::new("t", 1);
        let alice = name("alice");
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        t.set_faults(FaultPlan::new(vec![crate::protocol::faults::FaultRule::new(FaultAction::Delay { ms: 5 })]));
        t.send(&AgentName::lead(), &alice, "message", "held", Millis(1)).unwrap();
        t.set_faults(FaultPlan::default());
        let id = t.request_shutdown(&AgentName::lead(), &alice, Millis(1)).unwrap();
        let (state, len) = (t.state().clone(), t.trace().len());
        let mut events = events(&id, &alice);
        events.push(Event::MessageReleased { held: 99 });
        assert_eq!(t.commit(Millis(2), events), Err(TeamError::Bus(BusError::NotHeld(99))));
        (t, state, len)
    }

    #[test]
    fn a_refused_command_takes_back_a_shutdown_approval() {
        let (t, state, len) = refused_after(|id, alice| {
            vec![Event::RequestTransitioned {
                request_id: id.clone(),
                request_kind: RequestKind::Shutdown,
                by: alice.clone(),
                from: RequestStatus::Pending,
                to: RequestStatus::Approved,
            }]
        });
        assert!(!t.is_exiting(&name("alice")), "alice is not exiting: her approval was taken back");
        assert_eq!((t.state(), t.trace().len()), (&state, len));
    }

    #[test]
    fn taking_back_a_drop_fault_leaves_the_held_messages_held() {
        let (t, state, len) = refused_after(|_, alice| {
            let lost = Message::new(MessageType::Message, alice.clone(), AgentName::lead(), "lost", Millis(2));
            vec![Event::FaultApplied { action: FaultAction::Drop, message: lost, rule: None }]
        });
        assert_eq!(t.held().len(), 1, "a drop held nothing, so its undo releases nothing");
        assert_eq!((t.state(), t.trace().len()), (&state, len));
    }
}
