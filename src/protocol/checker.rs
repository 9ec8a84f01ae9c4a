//! The invariant checker: reads a trace, on its own terms, and reports every
//! place where the protocol was broken.
//!
//! Owns the list of invariants and their detection. It deliberately does not
//! reuse `Team`: it must judge traces that `Team` would never produce
//! (imports, fault injection, a misbehaving model or human), so it keeps its
//! own minimal model of requests (what the tracker recorded, what was
//! delivered), statuses and incarnations. It never changes a trace.
//! Fault injection counts as the trace says: a released message is a
//! delivery like a sent one, a dropped one never arrived. Findings agree
//! with the tracker: a dropped reply to an answered request is an answer
//! lost (not a request left pending), a duplicate's copy is a duplicate
//! delivered (not a second answer), and every finding a fault caused names
//! that fault's event and rule.
//!
//! `Checker` is a fold over entries (cloneable, for keyframes); `check` runs
//! it over a whole trace.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::breach::{Act, Arrival, Breach, FaultRef, PendingCause};
use super::bus::MessageId;
use super::faults::FaultAction;
use super::file::model::{Effect, GateIx, Party};
use super::message::{Message, MessageType, RequestId};
use super::protocols::ProtocolSet;
use super::roster::{MemberStatus, FIRST_INCARNATION, LEAD_INCARNATION};
use super::small_map::{SmallMap, SmallSet};
use super::trace::{Event, Trace, TraceEntry};
use super::tracker::{RequestKind, RequestStatus};
use super::AgentName;

/// The kinds of protocol violation the checker knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationKind {
    /// A response names a request id nobody created (or of the other protocol).
    AnswerToUnknownRequest,
    /// A response to a request that was already answered (not a copy made
    /// by a duplicate fault: that is `DuplicateDelivered`).
    SecondAnswer,
    /// A response from someone other than the request's addressee.
    AnswerFromWrongAgent,
    /// A response from a restarted teammate to a request addressed to its
    /// previous run (incarnation).
    AnswerAcrossRestart,
    /// A restarted teammate read a still pending request addressed to its
    /// previous run: the request crossed the restart
    /// (anthropics/claude-code#45874).
    RequestAcrossRestart,
    /// A message addressed to a teammate that had shut down.
    MessageToExitedTeammate,
    /// A request the tracker still held pending when the run finished.
    LeftPending,
    /// The addressee answered (the tracker moved) but a drop fault lost the
    /// reply, so the requester never learned the answer.
    AnswerLost,
    /// A duplicate fault delivered a copy of a reply: the requester read the
    /// same answer twice.
    DuplicateDelivered,
    /// A teammate acted after its shutdown was approved — whoever answered
    /// for it — instead of finishing its turn and exiting: it called its
    /// model, sent a message that was not part of the turn it was
    /// finishing, or ran anything once it had left
    /// (anthropics/claude-code#37895, #60199).
    ActAfterShutdownApproved,
    /// A tool a protocol file's gate holds ran (and returned without an
    /// error) for an agent whose gate was closed when it called it.
    GatedToolWhileClosed,
    /// A response to a request whose deadline had already passed (it was
    /// rejected with cause `expired`): an expired request is answered by
    /// no one.
    AnswerAfterExpiry,
}

impl ViolationKind {
    /// Every kind, in the order they are documented.
    pub const ALL: [ViolationKind; 12] = [
        ViolationKind::AnswerToUnknownRequest,
        ViolationKind::SecondAnswer,
        ViolationKind::AnswerFromWrongAgent,
        ViolationKind::AnswerAcrossRestart,
        ViolationKind::RequestAcrossRestart,
        ViolationKind::MessageToExitedTeammate,
        ViolationKind::LeftPending,
        ViolationKind::AnswerLost,
        ViolationKind::DuplicateDelivered,
        ViolationKind::ActAfterShutdownApproved,
        ViolationKind::GatedToolWhileClosed,
        ViolationKind::AnswerAfterExpiry,
    ];
}

impl fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ViolationKind::AnswerToUnknownRequest => "answer to unknown request",
            ViolationKind::SecondAnswer => "second answer",
            ViolationKind::AnswerFromWrongAgent => "answer from wrong agent",
            ViolationKind::AnswerAcrossRestart => "answer across a restart",
            ViolationKind::RequestAcrossRestart => "request across a restart",
            ViolationKind::MessageToExitedTeammate => "message to exited teammate",
            ViolationKind::LeftPending => "request left pending",
            ViolationKind::AnswerLost => "answer lost",
            ViolationKind::DuplicateDelivered => "duplicate delivered",
            ViolationKind::ActAfterShutdownApproved => "act after approved shutdown",
            ViolationKind::GatedToolWhileClosed => "gated tool while closed",
            ViolationKind::AnswerAfterExpiry => "answer after expiry",
        })
    }
}

/// One broken invariant, at the event that broke it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The sequence number of the offending event.
    pub seq: u64,
    /// What was broken.
    pub kind: ViolationKind,
    /// The request involved, if any.
    pub request_id: Option<RequestId>,
    /// What happened, as facts (its `Display` is the English sentence).
    pub detail: Breach,
    /// The sequence number of the `FaultApplied` event that caused it, when
    /// a fault did (the detail names it too, as `#seq`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<u64>,
}

/// A fault that hit a message: where, by which rule, doing what.
#[derive(Debug, Clone)]
struct FaultNote {
    seq: u64,
    rule: Option<usize>,
    action: FaultAction,
}

impl FaultNote {
    /// The fault, as a violation names it.
    fn at(&self) -> FaultRef {
        FaultRef { seq: self.seq, rule: self.rule }
    }
}

#[derive(Debug, Clone)]
struct OpenRequest {
    kind: RequestKind,
    /// Who asked (a protocol's effects on its requester fall on them).
    requester: Option<AgentName>,
    /// The requester's incarnation when it asked (a file protocol's
    /// effects apply to that run only).
    asked_by: u32,
    addressee: AgentName,
    /// Its deadline passed unanswered (`RequestExpired`).
    expired: bool,
    /// The addressee's incarnation when the request was made.
    addressed: u32,
    /// The tracker's answer (from `RequestTransitioned`), if any.
    settled: Option<RequestStatus>,
    /// A reply reached the requester's inbox.
    answered: bool,
    flagged_pending: bool,
    /// The last fault that hit the request message itself.
    request_fault: Option<FaultNote>,
}

/// A teammate whose shutdown was approved, in the run it was approved for:
/// it may finish the turn it is in (the tools of a model call made before
/// the approval, the answer itself), nothing more.
#[derive(Debug, Clone)]
struct Exiting {
    /// The shutdown request approved.
    request: RequestId,
    /// The approval's sequence number.
    approved: u64,
    /// It has left its loop (`shutdown`): from now on any act is one too many.
    gone: bool,
    /// One finding per approval: the first act tells it.
    flagged: bool,
}

/// A message held on the bus by a delay or reorder fault, with its
/// sender's incarnation when it was sent and the fault that held it.
#[derive(Debug, Clone)]
struct HeldMessage {
    message: Message,
    sender_incarnation: u32,
    fault: FaultNote,
}

/// How a message reached an inbox.
enum Via {
    /// Sent straight away.
    Sent,
    /// The copy a duplicate fault made.
    Copy(FaultNote),
    /// Released after a delay or reorder fault held it.
    Released(FaultNote),
}

/// The checker as a fold over trace entries: feed it entries in order with
/// `observe`, read `violations` at any point.
///
/// Each violation is reported while observing the entry it is at, from that
/// entry and the ones before it only: after observing entries `0..n`,
/// `violations()` is exactly `check(&trace.prefix(n))`, and the violations
/// with `seq < n` never change as more entries arrive. So a clone taken at
/// entry `n` (a keyframe) plus the entries after it gives the same result as
/// checking from zero.
#[derive(Debug, Clone, Default)]
pub struct Checker {
    requests: SmallMap<RequestId, OpenRequest>,
    incarnations: SmallMap<AgentName, u32>,
    exited: SmallSet<AgentName>,
    held: SmallMap<u64, HeldMessage>,
    /// The message a duplicate fault just copied: the next `MessageSent` of
    /// the same message is the copy.
    copy: Option<(FaultNote, Message)>,
    /// Request messages waiting in an inbox, by message id (the seq of the
    /// event that put them there), until their addressee reads them.
    waiting: SmallMap<u64, RequestId>,
    /// Teammates whose shutdown was approved, until they run again.
    exiting: SmallMap<AgentName, Exiting>,
    /// The tool call each agent is in (from `ToolCalled` to its
    /// `ToolReturned`): the messages it sends meanwhile are that tool's.
    in_tool: SmallMap<AgentName, String>,
    /// The protocols the run ran under: a file protocol's effects (`exit`,
    /// its gates) and its response types' kinds.
    protocols: ProtocolSet,
    /// The file gates closed, per agent (only under a file with gates).
    closed: SmallMap<AgentName, SmallSet<GateIx>>,
    /// A tool call made while a gate that holds it was closed, per agent:
    /// the call's id and the gate, until its `ToolReturned`.
    gated_call: SmallMap<AgentName, (String, GateIx)>,
    found: Vec<Violation>,
}

impl Checker {
    /// A checker that has seen nothing.
    pub fn new() -> Self {
        Checker::default()
    }

    /// A checker that has seen nothing, for a run under `protocols`.
    pub fn with_protocols(protocols: ProtocolSet) -> Self {
        Checker { protocols, ..Checker::default() }
    }

    /// The protocol a request or response message belongs to, the
    /// lesson's as a file's (`None` for free text); a type not yet tied to
    /// its file, by the name the message was read with.
    fn kind_of(&self, m: &Message) -> Option<RequestKind> {
        let MessageType::Protocol(t) = m.msg_type else { return None };
        self.protocols.kind_of_type(t).or_else(|| RequestKind::unresolved(m.type_name()))
    }

    /// The protocols the run ran under.
    pub fn protocols(&self) -> &ProtocolSet {
        &self.protocols
    }

    /// The violations found so far, in trace order.
    pub fn violations(&self) -> &[Violation] {
        &self.found
    }

    /// The violations found, once every entry was observed.
    pub fn finish(self) -> Vec<Violation> {
        self.found
    }

    /// The incarnation of `name` as the trace has it so far (the lead's is
    /// `LEAD_INCARNATION`).
    fn incarnation(&self, name: &AgentName) -> u32 {
        if name.is_lead() {
            return LEAD_INCARNATION;
        }
        self.incarnations.get(name).copied().unwrap_or(0)
    }

    fn flag(&mut self, seq: u64, kind: ViolationKind, request_id: Option<RequestId>, detail: Breach) {
        let fault = detail.fault();
        self.found.push(Violation { seq, kind, request_id, detail, fault });
    }

    /// Takes in the next entry of the trace.
    pub fn observe(&mut self, entry: &TraceEntry) {
        let seq = entry.seq;
        match &entry.event {
            Event::MemberSpawned { name, .. } => {
                self.exited.remove(name);
                self.exiting.remove(name);
                let n = self.incarnations.get_or_insert_with(name.clone(), || 0);
                *n = n.saturating_add(1);
                self.close_gates_at_spawn(name);
            }
            Event::MemberStatusChanged { name, to, .. } => {
                if *to == MemberStatus::Shutdown {
                    self.exited.insert(name.clone());
                    if let Some(e) = self.exiting.get_mut(name) {
                        e.gone = true;
                    }
                }
            }
            Event::RequestCreated { request_id, request_kind, requester, addressee, .. } => {
                // A request to a name not spawned yet waits for its first run.
                let addressed = self.incarnation(addressee).max(FIRST_INCARNATION);
                let open = OpenRequest {
                    kind: *request_kind,
                    requester: Some(requester.clone()),
                    asked_by: self.incarnation(requester).max(FIRST_INCARNATION),
                    addressee: addressee.clone(),
                    expired: false,
                    addressed,
                    settled: None,
                    answered: false,
                    flagged_pending: false,
                    request_fault: None,
                };
                self.requests.insert(request_id.clone(), open);
            }
            Event::RequestTransitioned { request_id, request_kind, by, to, .. } => {
                if let Some(r) = self.requests.get_mut(request_id) {
                    r.settled = Some(*to);
                }
                self.exits(seq, request_id, *request_kind, Some(by), *to == RequestStatus::Approved);
                self.file_gates(request_id, *request_kind, *to == RequestStatus::Approved);
            }
            Event::RequestExpired { request_id, request_kind } => {
                if let Some(r) = self.requests.get_mut(request_id) {
                    r.settled = Some(RequestStatus::Rejected);
                    r.expired = true;
                }
                self.exits(seq, request_id, *request_kind, None, false);
                self.file_gates(request_id, *request_kind, false);
            }
            Event::ModelCalled { agent } => self.act(seq, agent, Act::ModelCall),
            Event::ToolCalled { agent, tool_use_id, tool, .. } => {
                if self.exiting.get(agent).is_some_and(|e| e.gone) {
                    self.act(seq, agent, Act::ToolCall { tool: tool.clone() });
                }
                self.in_tool.insert(agent.clone(), tool_use_id.clone());
                match self.closed_gate_for_tool(agent, tool) {
                    Some(g) => self.gated_call.insert(agent.clone(), (tool_use_id.clone(), g)),
                    None => self.gated_call.remove(agent),
                };
            }
            Event::ToolReturned { agent, tool_use_id, tool, is_error, .. } => {
                if self.in_tool.get(agent) == Some(tool_use_id) {
                    self.in_tool.remove(agent);
                }
                if let Some((_, g)) = self.gated_call.remove(agent).filter(|(id, _)| id == tool_use_id) {
                    if !*is_error {
                        let gate = self.protocols.gate_name(g).unwrap_or_default().to_string();
                        let detail = Breach::GatedToolWhileClosed { agent: agent.clone(), tool: tool.clone(), gate };
                        self.flag(seq, ViolationKind::GatedToolWhileClosed, None, detail);
                    }
                }
            }
            Event::MessageSent { message } => {
                self.message_from_exiting(seq, message);
                let via = match self.copy.take() {
                    Some((note, copied)) if copied == *message => Via::Copy(note),
                    _ => Via::Sent,
                };
                let sender_incarnation = self.incarnation(&message.from);
                self.deliver(seq, message, sender_incarnation, via);
            }
            Event::FaultApplied { action, message, rule } => {
                let note = FaultNote { seq, rule: *rule, action: action.clone() };
                self.fault_hit(seq, &note, message);
                match action {
                    FaultAction::Drop => {}
                    FaultAction::Duplicate => self.copy = Some((note, message.clone())),
                    FaultAction::Delay { .. } | FaultAction::Reorder => {
                        let sender_incarnation = self.incarnation(&message.from);
                        self.held.insert(seq, HeldMessage { message: message.clone(), sender_incarnation, fault: note });
                    }
                }
            }
            Event::MessageReleased { held: from } => {
                if let Some(held) = self.held.remove(from) {
                    self.deliver(seq, &held.message, held.sender_incarnation, Via::Released(held.fault));
                }
            }
            Event::RunFinished => self.finish_run(seq),
            Event::InboxDrained { agent, message_ids } => self.read(seq, agent, message_ids),
            Event::RunStarted { .. } | Event::ModelReplied { .. } | Event::ModelFailed { .. } | Event::BudgetReached { .. } => {}
        }
    }

    /// A request settled (answered by `by`, or expired): each party its
    /// protocol's `exit` effects name (never the lead) finishes its turn and
    /// leaves, the lesson's approved shutdown as any file protocol's. The
    /// addressee's exit falls on whoever answered, as the team applies it
    /// (the addressee, unless `addressee_only` was off).
    fn exits(&mut self, seq: u64, id: &RequestId, kind: RequestKind, by: Option<&AgentName>, approve: bool) {
        let Some(p) = self.protocols.running(kind) else { return };
        let effects = if approve { &p.def.on_approve } else { &p.def.on_reject };
        if !effects.iter().any(|e| matches!(e, Effect::Exit(_))) {
            return;
        }
        let r = self.requests.get(id);
        let leaving: Vec<AgentName> = effects
            .iter()
            .filter_map(|e| match e {
                Effect::Exit(Party::Requester) => r.and_then(|r| r.requester.clone()),
                Effect::Exit(Party::Addressee) => by.or(r.map(|r| &r.addressee)).cloned(),
                Effect::OpenGate(..) | Effect::CloseGate(..) => None,
            })
            .filter(|a| !a.is_lead())
            .collect();
        for agent in leaving {
            self.exiting.insert(agent, Exiting { request: id.clone(), approved: seq, gone: false, flagged: false });
        }
    }

    /// A teammate of the file's team was spawned (or restarted): exactly
    /// the gates its `gates` list names are closed, as the team does
    /// (`Team`'s `close_gates_at_spawn`).
    fn close_gates_at_spawn(&mut self, name: &AgentName) {
        let Some(team) = self.protocols.file().and_then(|f| f.team.as_ref()) else { return };
        let gates: SmallSet<GateIx> = team.teammates.iter().filter(|t| &t.name == name).flat_map(|t| t.gates.iter().copied()).collect();
        if gates.is_empty() {
            self.closed.remove(name);
        } else {
            self.closed.insert(name.clone(), gates);
        }
    }

    /// The gate, closed for `agent`, that holds `tool` (the first in file
    /// order), as the team's `closed_gate_for_tool` answers it. Nothing to
    /// look up for an agent with every gate open.
    fn closed_gate_for_tool(&self, agent: &AgentName, tool: &str) -> Option<GateIx> {
        let closed = self.closed.get(agent)?;
        let file = self.protocols.file()?;
        closed.iter().copied().find(|g| file.gates.get(usize::from(g.0)).is_some_and(|gate| gate.tools.iter().any(|t| t == tool)))
    }

    /// A file protocol's request settled: its `open_gate` and `close_gate`
    /// effects change the gates of the party they name, if that party is
    /// still the run that asked or was asked (as the team applies them).
    fn file_gates(&mut self, id: &RequestId, kind: RequestKind, approve: bool) {
        // A lesson protocol's, as the file declares it (`use = ["lesson"]`):
        // under a file the lesson's plan approval opens the gates its `plan`
        // protocol names, as the team does.
        let Some(p) = self.protocols.declared(kind) else { return };
        let Some(r) = self.requests.get(id) else { return };
        let effects = if approve { &p.on_approve } else { &p.on_reject };
        let mut changes = Vec::new();
        for e in effects {
            let (g, party, closed) = match *e {
                Effect::OpenGate(g, party) => (g, party, false),
                Effect::CloseGate(g, party) => (g, party, true),
                Effect::Exit(_) => continue,
            };
            let (agent, bound) = match party {
                Party::Requester => (r.requester.clone(), r.asked_by),
                Party::Addressee => (Some(r.addressee.clone()), r.addressed),
            };
            if let Some(agent) = agent.filter(|a| self.incarnation(a) == bound) {
                changes.push((agent, g, closed));
            }
        }
        for (agent, g, closed) in changes {
            let gates = self.closed.get_or_insert_with(agent.clone(), SmallSet::new);
            if closed {
                gates.insert(g);
            } else {
                gates.remove(&g);
            }
            if gates.is_empty() {
                self.closed.remove(&agent);
            }
        }
    }

    /// `agent` did `act`: flags it if its shutdown was approved (once per
    /// approval).
    fn act(&mut self, seq: u64, agent: &AgentName, act: Act) {
        let Some(e) = self.exiting.get_mut(agent).filter(|e| !e.flagged) else { return };
        e.flagged = true;
        let (request, approved) = (e.request.clone(), e.approved);
        let detail = Breach::ActAfterApproval { agent: agent.clone(), request: request.clone(), approved, act };
        self.flag(seq, ViolationKind::ActAfterShutdownApproved, Some(request), detail);
    }

    /// A message from a teammate whose shutdown was approved is one act too
    /// many unless it is the answer itself (or a fault's copy of it) or a
    /// tool of the turn it is finishing sent it.
    fn message_from_exiting(&mut self, seq: u64, message: &Message) {
        let Some(e) = self.exiting.get(&message.from) else { return };
        let answers = message.msg_type.is_response() && message.request_id.as_ref() == Some(&e.request);
        let the_answer = answers && self.requests.get(&e.request).is_some_and(|r| self.kind_of(message) == Some(r.kind));
        let from_a_tool = !e.gone && self.in_tool.contains_key(&message.from);
        if !the_answer && !from_a_tool {
            let act = Act::Message { msg_type: message.msg_type, to: message.to.clone() };
            self.act(seq, &message.from.clone(), act);
        }
    }

    /// A fault hit `message`: remembers it against a request it carries, and
    /// flags a dropped reply to a request as an answer lost.
    fn fault_hit(&mut self, seq: u64, note: &FaultNote, message: &Message) {
        let Some(id) = &message.request_id else { return };
        let kind = self.kind_of(message);
        let Some(r) = self.requests.get_mut(id) else { return };
        if message.msg_type.is_request() {
            r.request_fault = Some(note.clone());
            return;
        }
        let legit = message.msg_type.is_response() && kind == Some(r.kind) && message.from == r.addressee;
        if note.action != FaultAction::Drop || !legit || r.answered {
            return;
        }
        let approved = r.settled.map_or(message.approve == Some(true), |s| s == RequestStatus::Approved);
        let detail = Breach::AnswerLost {
            from: message.from.clone(),
            approved,
            kind: r.kind,
            request: id.clone(),
            fault: note.at(),
            to: message.to.clone(),
        };
        self.flag(seq, ViolationKind::AnswerLost, Some(id.clone()), detail);
    }

    /// `agent` read the messages `ids` from its inbox: flags a request among
    /// them that is still pending and was addressed to an earlier run of
    /// `agent` (one already answered is only an old message).
    fn read(&mut self, seq: u64, agent: &AgentName, ids: &[MessageId]) {
        let now = self.incarnation(agent);
        for id in ids {
            let Some(request) = self.waiting.remove(&id.0) else { continue };
            let Some(r) = self.requests.get(&request).filter(|r| r.addressee == *agent && r.addressed < now && r.settled.is_none()) else {
                continue;
            };
            let detail = Breach::RequestAcrossRestart {
                agent: agent.clone(),
                incarnation: now,
                request: request.clone(),
                kind: r.kind,
                addressed: r.addressed,
            };
            self.flag(seq, ViolationKind::RequestAcrossRestart, Some(request), detail);
        }
    }

    /// The run finished: flags every request the tracker still holds
    /// pending, once, saying why it stayed pending when the trace shows it.
    fn finish_run(&mut self, seq: u64) {
        let mut flagged = Vec::new();
        for (id, r) in self.requests.iter_mut().filter(|(_, r)| r.settled.is_none() && !r.flagged_pending) {
            r.flagged_pending = true;
            let now = if r.addressee.is_lead() { LEAD_INCARNATION } else { self.incarnations.get(&r.addressee).copied().unwrap_or(0) };
            let cause = match &r.request_fault {
                Some(f) if f.action == FaultAction::Drop => PendingCause::RequestDropped { fault: f.at() },
                Some(f) if f.action.holds() => PendingCause::RequestHeld { fault: f.at() },
                _ if now > r.addressed => PendingCause::Restarted { incarnation: now },
                _ if r.answered => PendingCause::ReplyUnrecorded,
                _ if self.exited.contains(&r.addressee) => PendingCause::ExitedUnanswered,
                _ => PendingCause::Unknown,
            };
            let detail = Breach::LeftPending { kind: r.kind, request: id.clone(), addressee: r.addressee.clone(), cause };
            flagged.push((id.clone(), detail));
        }
        for (id, detail) in flagged {
            self.flag(seq, ViolationKind::LeftPending, Some(id), detail);
        }
    }

    /// A message reached an inbox (`via` says how), sent by incarnation
    /// `sender_incarnation` of its sender: flags a message to an exited
    /// teammate, and accounts a response as an answer to its request.
    fn deliver(&mut self, seq: u64, message: &Message, sender_incarnation: u32, via: Via) {
        if self.exited.contains(&message.to) {
            let arrival = match &via {
                Via::Released(f) => Arrival::Released { fault: f.at() },
                Via::Copy(f) => Arrival::Copy { fault: f.at() },
                Via::Sent => Arrival::Sent,
            };
            let detail =
                Breach::MessageToExited { from: message.from.clone(), msg_type: message.msg_type, to: message.to.clone(), arrival };
            self.flag(seq, ViolationKind::MessageToExitedTeammate, message.request_id.clone(), detail);
        }
        if message.msg_type.is_request() {
            if let Some(id) = &message.request_id {
                self.waiting.insert(seq, id.clone());
            }
        }
        if !message.msg_type.is_response() {
            return;
        }
        let Some(kind) = self.kind_of(message) else { return };
        let id = message.request_id.clone();
        let open = id.as_ref().and_then(|id| self.requests.get_mut(id)).filter(|r| r.kind == kind);
        let from = message.from.clone();
        let (kind, detail) = match (open, &via) {
            (None, _) => (ViolationKind::AnswerToUnknownRequest, Breach::AnswerToUnknownRequest { from, request: id.clone(), kind }),
            (Some(r), _) if r.addressee != message.from => (
                ViolationKind::AnswerFromWrongAgent,
                Breach::AnswerFromWrongAgent { from, request: id.clone(), addressee: r.addressee.clone() },
            ),
            (Some(r), _) if r.addressed < sender_incarnation => (
                ViolationKind::AnswerAcrossRestart,
                Breach::AnswerAcrossRestart { from, incarnation: sender_incarnation, request: id.clone(), kind, addressed: r.addressed },
            ),
            (Some(r), Via::Copy(f)) if r.answered => (
                ViolationKind::DuplicateDelivered,
                Breach::DuplicateDelivered { fault: f.at(), from, request: id.clone(), to: message.to.clone(), recorded: r.settled },
            ),
            (Some(r), _) if r.answered => (ViolationKind::SecondAnswer, Breach::SecondAnswer { from, request: id.clone() }),
            // Its deadline settled it: nobody answers an expired request.
            (Some(r), _) if r.expired => {
                r.answered = true;
                (ViolationKind::AnswerAfterExpiry, Breach::AnswerAfterExpiry { from, request: id.clone(), kind })
            }
            (Some(r), _) => {
                r.answered = true;
                return;
            }
        };
        self.flag(seq, kind, id, detail);
    }
}

/// Reads `trace` and returns every violation, in trace order: a fold of
/// `Checker::observe` over its entries.
pub fn check(trace: &Trace) -> Vec<Violation> {
    let mut checker = Checker::with_protocols(trace.protocols().clone());
    for entry in trace.entries() {
        checker.observe(entry);
    }
    checker.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::faults::{FaultAction, FaultPlan, FaultRule};
    use crate::protocol::{Millis, Team};

    fn alice() -> AgentName {
        AgentName::parse("alice").unwrap()
    }

    /// A shutdown answered under `action`, then (held messages released and)
    /// the run finished.
    fn answered_under(action: FaultAction) -> (Vec<(ViolationKind, Option<RequestId>)>, RequestId) {
        let mut t = Team::new("t", 1);
        t.spawn(&alice(), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &alice(), Millis(1)).unwrap();
        t.drain(&alice(), Millis(2)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(action)]));
        t.answer(RequestKind::SHUTDOWN, &id, &alice(), true, "ok", Millis(3)).unwrap();
        t.release_all(Millis(4)).unwrap();
        t.finish_run(Millis(5)).unwrap();
        (check(t.trace()).into_iter().map(|v| (v.kind, v.request_id)).collect(), id)
    }

    #[test]
    fn a_dropped_response_is_an_answer_lost_not_a_pending_request() {
        let (found, id) = answered_under(FaultAction::Drop);
        assert_eq!(found, [(ViolationKind::AnswerLost, Some(id))]);
    }

    #[test]
    fn a_duplicated_response_is_a_duplicate_delivered_not_a_second_answer() {
        let (found, id) = answered_under(FaultAction::Duplicate);
        assert_eq!(found, [(ViolationKind::DuplicateDelivered, Some(id))]);
    }

    #[test]
    fn a_request_left_pending_by_a_dropped_request_names_the_drop() {
        let mut t = Team::new("t", 1);
        t.spawn(&alice(), "coder", false, Millis(0)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule {
            msg_type: Some(MessageType::SHUTDOWN_REQUEST),
            ..FaultRule::new(FaultAction::Drop)
        }]));
        let id = t.request_shutdown(&AgentName::lead(), &alice(), Millis(1)).unwrap();
        t.finish_run(Millis(2)).unwrap();
        let found = check(t.trace());
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].kind, found[0].fault), (ViolationKind::LeftPending, Some(2)));
        assert_eq!(
            found[0].detail.to_string(),
            format!("shutdown request {id} to alice was still pending when the run finished: fault rule 1 dropped the request (#2), so alice never saw it")
        );
    }

    #[test]
    fn a_released_response_is_an_answer() {
        assert_eq!(answered_under(FaultAction::Delay { ms: 1_000 }).0, []);
        assert_eq!(answered_under(FaultAction::Reorder).0, []);
    }
}
