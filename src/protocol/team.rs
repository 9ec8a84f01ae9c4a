//! The team: roster, bus and tracker kept together, changed only by applying
//! trace events. Every command checks its rules, turns into events, applies
//! them and appends them to the trace; `replay` applies a recorded trace the
//! same way, so live state and replayed state cannot drift apart.
//!
//! Owns the protocol rules that span modules (who may request a shutdown of
//! whom, what an answer sends back). It must not do I/O, await, or read a
//! clock: callers pass time in.

use std::collections::VecDeque;

use super::bus::{Bus, BusError, Envelope, MessageId};
use super::ids::SeededIds;
use super::message::{Message, MessageError, MessageType, RequestId};
use super::roster::{MemberStatus, Roster, RosterError, SpawnKind};
use super::time::Millis;
use super::trace::{Event, Trace, TraceEntry, TraceError};
use super::tracker::{Request, RequestKind, RequestStatus, Tracker, TrackerError};
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
}

fn protocol_tool(t: MessageType) -> &'static str {
    match t {
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
}

impl TeamState {
    /// A team with only the lead.
    pub fn new(team_name: &str) -> Self {
        let mut bus = Bus::new();
        bus.register(&AgentName::lead());
        TeamState { roster: Roster::new(team_name), bus, tracker: Tracker::new() }
    }

    /// Applies one event, or refuses it and changes nothing.
    pub fn apply(&mut self, entry: &TraceEntry) -> Result<(), TeamError> {
        self.check(entry)?;
        self.apply_checked(entry);
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
            Event::MessageSent { message } => self.bus.check_send(message)?,
            Event::InboxDrained { agent, message_ids } => {
                let held = self.bus.peek(agent)?;
                if !held.iter().map(|e| e.id).eq(message_ids.iter().copied()) {
                    let expected = held.iter().map(|e| e.id).collect();
                    return Err(TeamError::DeliveryMismatch { agent: agent.clone(), expected, recorded: message_ids.clone() });
                }
            }
            Event::RequestCreated { request_id, .. } => {
                if self.tracker.get(request_id).is_some() {
                    return Err(TrackerError::DuplicateId(request_id.clone()).into());
                }
            }
            Event::RequestTransitioned { request_id, request_kind, by, from, to } => {
                let next = self.tracker.check_answer(request_id, *request_kind, by, *to == RequestStatus::Approved)?;
                let current = self.tracker.get(request_id).map(|r| r.status);
                if next != *to || current != Some(*from) {
                    return Err(TeamError::TransitionMismatch(request_id.clone()));
                }
            }
            Event::RunStarted { .. }
            | Event::RunFinished
            | Event::ModelCalled { .. }
            | Event::ModelReplied { .. }
            | Event::ModelFailed { .. }
            | Event::ToolCalled { .. }
            | Event::ToolReturned { .. } => {}
        }
        Ok(())
    }

    /// Applies an event that `check` accepted against this very state.
    fn apply_checked(&mut self, entry: &TraceEntry) {
        const CHECKED: &str = "the event was checked against this state";
        match &entry.event {
            Event::MemberSpawned { name, role, plan_mode } => {
                self.roster.spawn(name, role, *plan_mode).expect(CHECKED);
                self.bus.register(name);
            }
            Event::MemberStatusChanged { name, to, .. } => {
                self.roster.set_status(name, *to).expect(CHECKED);
            }
            Event::MessageSent { message } => self.bus.send(MessageId(entry.seq), message.clone()).expect(CHECKED),
            Event::InboxDrained { agent, .. } => {
                self.bus.drain(agent).expect(CHECKED);
            }
            Event::RequestCreated { request_id, request_kind, requester, addressee, plan } => {
                self.tracker
                    .create(request_id.clone(), *request_kind, requester.clone(), addressee.clone(), plan.clone(), entry.time)
                    .expect(CHECKED);
            }
            Event::RequestTransitioned { request_id, request_kind, by, to, .. } => {
                let approve = *to == RequestStatus::Approved;
                self.tracker.answer(request_id, *request_kind, by, approve, entry.time).expect(CHECKED);
                if *request_kind == RequestKind::Plan && approve {
                    let requester = self.tracker.get(request_id).expect(CHECKED).requester.clone();
                    self.roster.mark_plan_approved(&requester);
                }
            }
            Event::RunStarted { .. }
            | Event::RunFinished
            | Event::ModelCalled { .. }
            | Event::ModelReplied { .. }
            | Event::ModelFailed { .. }
            | Event::ToolCalled { .. }
            | Event::ToolReturned { .. } => {}
        }
    }
}

/// The live team: state plus the trace that produced it. Every command is
/// atomic: it either appends all its events or none.
#[derive(Debug, Clone)]
pub struct Team {
    state: TeamState,
    trace: Trace,
}

impl Team {
    /// A new team with only the lead; `seed` fixes the request ids.
    pub fn new(team_name: &str, seed: u64) -> Self {
        Team { state: TeamState::new(team_name), trace: Trace::new(team_name, seed) }
    }

    /// Rebuilds a team by applying every event of `trace`.
    pub fn replay(trace: &Trace) -> Result<Team, ReplayError> {
        let mut state = TeamState::new(&trace.team_name);
        for entry in trace.entries() {
            state.apply(entry).map_err(|source| ReplayError { seq: entry.seq, source })?;
        }
        Ok(Team { state, trace: trace.clone() })
    }

    /// The current protocol state.
    pub fn state(&self) -> &TeamState {
        &self.state
    }

    /// The trace so far.
    pub fn trace(&self) -> &Trace {
        &self.trace
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

    /// Applies `events` at `at` as one atomic step: every event is checked
    /// first, so on any refusal state and trace are left as they were. The
    /// events of one command never depend on each other (a request's creation
    /// and its message touch different parts of the state), which is what
    /// lets them all be checked against the state before the first applies.
    fn commit(&mut self, at: Millis, events: Vec<Event>) -> Result<Vec<u64>, TeamError> {
        self.trace.check_append(at)?;
        let first = self.trace.next_seq();
        let entries: Vec<TraceEntry> = events
            .into_iter()
            .enumerate()
            .map(|(i, event)| TraceEntry { seq: first + i as u64, time: at, event })
            .collect();
        for entry in &entries {
            self.state.check(entry)?;
        }
        let mut seqs = Vec::with_capacity(entries.len());
        for entry in entries {
            self.state.apply_checked(&entry);
            seqs.push(self.trace.append(entry.time, entry.event).expect("time checked above"));
        }
        Ok(seqs)
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
        let seqs = self.commit(at, vec![Event::MessageSent { message: Message::new(msg_type, from.clone(), to.clone(), content, at) }])?;
        Ok(MessageId(seqs[0]))
    }

    /// Checks everything `send` would check, without sending; returns the
    /// parsed type.
    pub fn check_send(&self, from: &AgentName, to: &AgentName, msg_type: &str) -> Result<MessageType, TeamError> {
        let msg_type: MessageType = msg_type.parse().map_err(|e: MessageError| TeamError::Bus(e.into()))?;
        if msg_type.is_request() || msg_type.is_response() {
            return Err(TeamError::ProtocolTypeViaSend(msg_type));
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
        self.commit(at, events)?;
        Ok(recipients)
    }

    /// Removes and returns every message waiting for `agent`; an empty inbox
    /// records nothing.
    pub fn drain(&mut self, agent: &AgentName, at: Millis) -> Result<Vec<Envelope>, TeamError> {
        let waiting: Vec<Envelope> = self.state.bus.peek(agent)?.iter().cloned().collect();
        if !waiting.is_empty() {
            let message_ids = waiting.iter().map(|e| e.id).collect();
            self.commit(at, vec![Event::InboxDrained { agent: agent.clone(), message_ids }])?;
        }
        Ok(waiting)
    }

    /// The messages waiting for `agent`, without removing them.
    pub fn peek(&self, agent: &AgentName) -> Result<&VecDeque<Envelope>, TeamError> {
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
        let id = self.fresh_id()?;
        let mut message = Message::new(MessageType::ShutdownRequest, from.clone(), target.clone(), SHUTDOWN_REQUEST_TEXT, at);
        message.request_id = Some(id.clone());
        let created = Event::RequestCreated {
            request_id: id.clone(),
            request_kind: RequestKind::Shutdown,
            requester: from.clone(),
            addressee: target.clone(),
            plan: None,
        };
        self.commit(at, vec![created, Event::MessageSent { message }])?;
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
        };
        self.commit(at, vec![created, Event::MessageSent { message }])?;
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
        let to = self.state.tracker.check_answer(id, kind, by, approve)?;
        let req = self.state.tracker.get(id).expect("checked");
        let msg_type = match kind {
            RequestKind::Shutdown => MessageType::ShutdownResponse,
            RequestKind::Plan => MessageType::PlanApprovalResponse,
        };
        let mut message = Message::new(msg_type, by.clone(), req.requester.clone(), text, at);
        message.request_id = Some(id.clone());
        message.approve = Some(approve);
        match kind {
            RequestKind::Shutdown => message.reason = Some(text.to_string()),
            RequestKind::Plan => message.feedback = Some(text.to_string()),
        }
        let moved = Event::RequestTransitioned { request_id: id.clone(), request_kind: kind, by: by.clone(), from: req.status, to };
        self.commit(at, vec![moved, Event::MessageSent { message }])?;
        Ok(to)
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
