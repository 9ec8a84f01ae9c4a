//! Every protocol on the team's one FSM, the lesson's two and a protocol
//! file's alike: the commands that ask, answer and expire a request
//! (`Team::ask`, `Team::respond`, and the lesson's names for them,
//! `request_shutdown`, `submit_plan`, `answer`; `Team::expire`,
//! `Team::expire_due`), the checks they share with replay (who may ask, who
//! answers, the typed fields, one pending per addressee, bounded retries
//! after an expiry, a deadline), and the effects a settled request has
//! (`exit`, `open_gate`, `close_gate`) with their undo. The lesson's two
//! come from the built-in lesson file (`ProtocolSet::running`); what is the
//! lesson's own is its refusals' words (`lesson_words`) and its messages'
//! keys (`Message::set_fields`); its plan gate is a gate bit like a file's
//! (`gates`).
//!
//! Every command here turns into events that `TeamState` checks and
//! applies, so live and replayed state agree. It must not read a clock:
//! callers pass time in.

use std::sync::Arc;

use super::gates::GateBits;
use super::lesson_words::in_lesson_words;
use super::{Team, TeamError, TeamState};
use crate::protocol::fields::FieldValue;
use crate::protocol::fields::Fields;
use crate::protocol::file::model::{Asker, Effect, Party, Protocol, ProtocolFile, ProtocolIx, Role, Side};
use crate::protocol::message::{Message, MessageType, RequestId};
use crate::protocol::protocols::{check_fields, content_of, ProtocolSet, ProtocolsError, Running};
use crate::protocol::roster::{MemberStatus, RosterError};
use crate::protocol::time::Millis;
use crate::protocol::trace::Event;
use crate::protocol::tracker::{RequestKind, RequestStatus, TrackerError};
use crate::protocol::AgentName;

/// What taking back one effect needs.
#[derive(Debug)]
pub(super) enum EffectUndo {
    /// An `exit`: whether the agent had an approved exit before.
    Exiting { agent: AgentName, was: bool },
    /// A gate change: the agent's gates before.
    Gates { agent: AgentName, was: Option<GateBits> },
}

/// What taking back a settled request's effects needs, newest last: the
/// lesson's protocols have one effect each, kept without allocating.
#[derive(Debug, Default)]
pub(super) struct EffectUndos {
    first: Option<EffectUndo>,
    rest: Vec<EffectUndo>,
}

impl EffectUndos {
    fn push(&mut self, u: EffectUndo) {
        match self.first {
            None => self.first = Some(u),
            Some(_) => self.rest.push(u),
        }
    }
}

/// Who may ask, in words.
fn allowed(a: Asker) -> &'static str {
    match a {
        Asker::Lead => "the lead",
        Asker::Teammate => "teammates",
        Asker::Any => "the lead and teammates",
    }
}

impl TeamState {
    /// Refuses a file protocol's request kind this team does not run (read
    /// from a trace without its file, or of another file).
    pub(super) fn check_known(&self, kind: RequestKind) -> Result<(), TeamError> {
        match self.protocols.running(kind) {
            Some(p) if p.kind == kind => Ok(()),
            _ => Err(TeamError::UnknownProtocolName(kind.name().to_string())),
        }
    }

    /// Refuses a message of a file protocol's type this team does not run.
    pub(super) fn check_known_type(&self, m: &Message) -> Result<(), TeamError> {
        let t = m.msg_type;
        let MessageType::Protocol(f) = t else { return Ok(()) };
        if self.protocols.runs_type(f) {
            Ok(())
        } else {
            Err(TeamError::UnknownProtocolName(m.type_name().to_string()))
        }
    }

    /// Checks that request `id` of protocol `kind` may expire now: its
    /// protocol has a deadline and it is pending.
    pub fn check_expire(&self, id: &RequestId, kind: RequestKind) -> Result<(), TeamError> {
        self.check_known(kind)?;
        self.tracker.check_expire(id, kind)?;
        match self.protocols.running(kind) {
            Some(p) if p.def.deadline_ms.is_some() => Ok(()),
            _ => Err(TrackerError::NoDeadline(id.clone()).into()),
        }
    }

    /// Applies the effects of request `id`'s protocol for an approval or a
    /// rejection (an expiry is one, answered by nobody), and returns what
    /// undoes them. The requester's effects fall on the run that asked: a
    /// requester that restarted since is not affected. The addressee's fall
    /// on the run that answered (`by`): under the protective rules that is
    /// the run the request was addressed to; with `addressee_only` or
    /// `incarnation_binding` off, whoever they let answer (the failure they
    /// prevent). An expiry's fall on the addressee's run it was sent to.
    pub(super) fn settle_effects(&mut self, id: &RequestId, by: Option<&AgentName>, approve: bool) -> EffectUndos {
        let mut undo = EffectUndos::default();
        let Some(req) = self.tracker.get(id) else { return undo };
        let Some(p) = self.protocols.running(req.kind) else { return undo };
        let effects = if approve { &p.def.on_approve } else { &p.def.on_reject };
        if effects.is_empty() {
            return undo;
        }
        let requester = (self.roster.incarnation(&req.requester) == req.incarnations.requester).then_some(&req.requester);
        let addressee = match by {
            Some(by) => Some(by),
            None => (self.roster.incarnation(&req.addressee) == req.incarnations.addressee).then_some(&req.addressee),
        };
        for effect in effects {
            let party = match effect {
                Effect::Exit(p) | Effect::OpenGate(_, p) | Effect::CloseGate(_, p) => p,
            };
            let Some(agent) = (match party {
                Party::Requester => requester,
                Party::Addressee => addressee,
            }) else {
                continue;
            };
            match *effect {
                Effect::Exit(_) => {
                    if agent.is_lead() {
                        continue;
                    }
                    if let Some(was) = self.roster.get(agent).map(|m| m.shutdown_approved) {
                        self.roster.mark_shutdown_approved(agent);
                        undo.push(EffectUndo::Exiting { agent: agent.clone(), was });
                    }
                }
                Effect::OpenGate(g, _) | Effect::CloseGate(g, _) => {
                    // A lesson protocol names the plan gate by its index in
                    // the built-in file; the team keeps it at its own.
                    let g = if p.is_lesson_gate(g) { self.protocols.plan_gate() } else { g };
                    let was = self.gates.set(agent, g, matches!(effect, Effect::CloseGate(..)));
                    undo.push(EffectUndo::Gates { agent: agent.clone(), was });
                }
            }
        }
        undo
    }

    /// Takes back what `settle_effects` did, newest first.
    pub(super) fn undo_effects(&mut self, undo: EffectUndos) {
        for u in undo.rest.into_iter().rev().chain(undo.first) {
            match u {
                EffectUndo::Exiting { agent, was } => self.roster.restore_shutdown_approved(&agent, was),
                EffectUndo::Gates { agent, was } => self.gates.restore(&agent, was),
            }
        }
    }
}

impl Team {
    /// A new team with only the lead, running the protocols of `file` (and
    /// the lesson's own two, as every team does).
    pub fn with_protocols(team_name: &str, seed: u64, file: Arc<ProtocolFile>) -> Self {
        let mut team = Team::new(team_name, seed);
        let set = ProtocolSet::new(file);
        team.state.protocols = set.clone();
        // An empty trace names nothing, so tying it to the set cannot fail.
        let _ = team.trace.resolve_protocols(set);
        team
    }

    /// The protocols the team runs under.
    pub fn protocols(&self) -> &ProtocolSet {
        &self.state.protocols
    }

    /// The protocol a request of `kind` belongs to, or the refusal of a
    /// kind this team does not run.
    fn running(&self, kind: RequestKind) -> Result<Running<'_>, TeamError> {
        match kind.file_protocol() {
            // A file's kind under no file (read from a trace without it).
            Some(ix) if self.state.protocols.is_lesson_only() => Err(ProtocolsError::UnknownProtocol(ix.0).into()),
            Some(ix) => Ok(self.state.protocols.running_ix(ix)?),
            None => self.state.protocols.running(kind).ok_or_else(|| TeamError::UnknownProtocolName(kind.as_str().to_string())),
        }
    }

    /// Checks everything `ask` would check, without asking; returns the
    /// protocol's request kind.
    pub fn check_ask(&self, protocol: ProtocolIx, from: &AgentName, to: &AgentName, fields: &Fields) -> Result<RequestKind, TeamError> {
        let p = self.state.protocols.running_ix(protocol)?;
        self.check_ask_of(p, from, to, fields)?;
        Ok(p.kind)
    }

    /// Checks that `from` may ask `to` with `p` now, with `fields`; a lesson
    /// protocol's refusal in the lesson's words.
    fn check_ask_of(&self, p: Running<'_>, from: &AgentName, to: &AgentName, fields: &Fields) -> Result<(), TeamError> {
        self.check_ask_rules(p, from, to, fields).map_err(|e| in_lesson_words(p.kind, e))
    }

    fn check_ask_rules(&self, p: Running<'_>, from: &AgentName, to: &AgentName, fields: &Fields) -> Result<(), TeamError> {
        let (kind, def) = (p.kind, p.def);
        let role = if from.is_lead() { Role::Lead } else { Role::Teammate };
        if !def.from.allows(role) {
            return Err(TeamError::MayNotAsk { asker: from.clone(), protocol: def.name.clone(), allowed: allowed(def.from) });
        }
        if !from.is_lead() && self.state.roster.get(from).is_none() {
            return Err(RosterError::UnknownMember(from.clone()).into());
        }
        // The lesson's plan protocol never refused a teammate that has shut
        // down (it has no loop to ask from; `tests/properties.rs` pins the
        // command's behaviour): a file protocol does.
        if !p.is_lesson() && self.state.roster.status(from) == Some(MemberStatus::Shutdown) {
            return Err(TeamError::SenderExited(from.clone()));
        }
        match def.to {
            Role::Lead if !to.is_lead() => {
                return Err(TeamError::WrongAddressee { protocol: def.name.clone(), role: "the lead", to: to.clone() })
            }
            Role::Teammate if to.is_lead() || to == from => {
                return Err(TeamError::WrongAddressee { protocol: def.name.clone(), role: "a teammate", to: to.clone() })
            }
            Role::Teammate => match self.state.roster.status(to) {
                None => return Err(RosterError::UnknownMember(to.clone()).into()),
                Some(MemberStatus::Shutdown) => return Err(TeamError::TargetExited(to.clone())),
                Some(_) => {}
            },
            Role::Lead => {}
        }
        check_fields(def, Side::Request, fields)?;
        if def.one_pending_per_addressee {
            let current = self.state.roster.incarnation(to);
            if let Some(r) = self.state.tracker.pending_to(to).find(|r| r.kind == kind && r.incarnations.addressee == current) {
                return Err(TeamError::AlreadyPending { protocol: def.name.clone(), target: to.clone(), pending: r.id.clone() });
            }
        }
        if def.deadline_ms.is_some() {
            self.check_retries(def, kind, from, to)?;
        }
        Ok(())
    }

    /// Refuses a request after more expiries in a row (of `from`'s requests
    /// of `kind` to `to`, since the last one answered) than `p` allows
    /// retries.
    fn check_retries(&self, p: &Protocol, kind: RequestKind, from: &AgentName, to: &AgentName) -> Result<(), TeamError> {
        let mut expired = 0u32;
        for r in self.state.tracker.iter().filter(|r| r.kind == kind && r.requester == *from && r.addressee == *to) {
            if r.expired() {
                expired += 1;
            } else if r.status.is_terminal() {
                expired = 0;
            }
        }
        if expired > u32::from(p.retries) {
            return Err(TeamError::RetriesExhausted { protocol: p.name.clone(), target: to.clone(), expired, retries: p.retries });
        }
        Ok(())
    }

    /// `from` asks `to` with protocol `protocol` of the file: a pending
    /// request of its kind (with `fields`) and its request message.
    pub fn ask(
        &mut self,
        protocol: ProtocolIx,
        from: &AgentName,
        to: &AgentName,
        fields: Fields,
        at: Millis,
    ) -> Result<RequestId, TeamError> {
        let kind = self.state.protocols.running_ix(protocol)?.kind;
        self.ask_kind(kind, from, to, fields, at)
    }

    /// The lead asks `target` to shut down: a pending request of the
    /// lesson's `shutdown` protocol and its `shutdown_request` message.
    /// `ask` under the lesson's name, kept for the lesson's tours, the
    /// synthetic demo traces, benches and tests that build a team by hand;
    /// the agents' tools ask through `ask` (`runtime::tools`).
    pub fn request_shutdown(&mut self, from: &AgentName, target: &AgentName, at: Millis) -> Result<RequestId, TeamError> {
        self.ask_kind(RequestKind::SHUTDOWN, from, target, Fields::new(), at)
    }

    /// A teammate submits a plan to the lead: a pending request of the
    /// lesson's `plan` protocol and its `plan_approval_request` message.
    /// `ask` under the lesson's name, kept as `request_shutdown` is.
    pub fn submit_plan(&mut self, from: &AgentName, plan: &str, at: Millis) -> Result<RequestId, TeamError> {
        let mut fields = Fields::new();
        fields.set("plan", FieldValue::Text(plan.to_string()));
        self.ask_kind(RequestKind::PLAN, from, &AgentName::lead(), fields, at)
    }

    /// `from` asks `to` with the protocol of `kind`: the one way every
    /// request is made.
    fn ask_kind(
        &mut self,
        kind: RequestKind,
        from: &AgentName,
        to: &AgentName,
        fields: Fields,
        at: Millis,
    ) -> Result<RequestId, TeamError> {
        let p = self.running(kind)?;
        self.check_ask_of(p, from, to, &fields)?;
        let content = match (p.def.request_fields.iter().any(|f| f.content), &p.def.request_text) {
            (false, Some(text)) => text.clone(),
            _ => content_of(p.def, Side::Request, &fields),
        };
        let msg_type = p.request;
        let id = self.fresh_id()?;
        let mut message = Message::new(msg_type, from.clone(), to.clone(), content, at);
        message.request_id = Some(id.clone());
        message.set_fields(fields);
        let created = Event::RequestCreated {
            request_id: id.clone(),
            request_kind: kind,
            requester: from.clone(),
            addressee: to.clone(),
            plan: message.plan.clone(),
            fields: message.fields.clone(),
        };
        let events = self.inject_faults(vec![created, Event::MessageSent { message }]);
        self.commit(at, events)?;
        Ok(id)
    }

    /// Checks everything `respond` would check, without answering; returns
    /// the state the answer would lead to.
    pub fn check_respond(
        &self,
        protocol: ProtocolIx,
        id: &RequestId,
        by: &AgentName,
        approve: bool,
        fields: &Fields,
    ) -> Result<RequestStatus, TeamError> {
        let p = self.state.protocols.running_ix(protocol)?;
        self.check_respond_of(p, id, by, approve, fields)
    }

    fn check_respond_of(
        &self,
        p: Running<'_>,
        id: &RequestId,
        by: &AgentName,
        approve: bool,
        fields: &Fields,
    ) -> Result<RequestStatus, TeamError> {
        let next = self.state.check_answer(id, p.kind, by, approve)?;
        check_fields(p.def, Side::Response, fields)?;
        Ok(next)
    }

    /// `by` answers request `id` of protocol `protocol` of the file: the
    /// request moves (and its protocol's effects apply) and the response
    /// message, with `fields`, goes back to the requester. Returns the new
    /// status.
    pub fn respond(
        &mut self,
        protocol: ProtocolIx,
        id: &RequestId,
        by: &AgentName,
        approve: bool,
        fields: Fields,
        at: Millis,
    ) -> Result<RequestStatus, TeamError> {
        let kind = self.state.protocols.running_ix(protocol)?.kind;
        self.respond_kind(kind, id, by, approve, fields, at)
    }

    /// The addressee answers a request of protocol `kind` (the lesson's or
    /// a file's), `text` its answer's content field (the reason of a
    /// shutdown, the feedback on a plan; left out when empty). Returns the
    /// new status.
    pub fn answer(
        &mut self,
        kind: RequestKind,
        id: &RequestId,
        by: &AgentName,
        approve: bool,
        text: &str,
        at: Millis,
    ) -> Result<RequestStatus, TeamError> {
        let p = self.running(kind)?;
        let mut fields = Fields::new();
        if let Some(field) = p.def.response_fields.iter().find(|f| f.content).filter(|_| !text.is_empty()) {
            fields.set(field.name.clone(), FieldValue::Text(text.to_string()));
        }
        self.respond_kind(kind, id, by, approve, fields, at)
    }

    /// Checks everything `answer` would check, without answering; returns
    /// the state the answer would lead to.
    pub fn check_answer(&self, kind: RequestKind, id: &RequestId, by: &AgentName, approve: bool) -> Result<RequestStatus, TeamError> {
        self.state.check_answer(id, kind, by, approve)
    }

    /// `by` answers request `id` of the protocol of `kind`: the one way
    /// every request is answered.
    fn respond_kind(
        &mut self,
        kind: RequestKind,
        id: &RequestId,
        by: &AgentName,
        approve: bool,
        fields: Fields,
        at: Millis,
    ) -> Result<RequestStatus, TeamError> {
        let p = self.running(kind)?;
        let to = self.check_respond_of(p, id, by, approve, &fields)?;
        let content = content_of(p.def, Side::Response, &fields);
        let msg_type = p.response;
        let req = self.state.tracker.get(id).ok_or_else(|| TrackerError::UnknownRequest(id.clone()))?;
        let mut message = Message::new(msg_type, by.clone(), req.requester.clone(), content, at);
        message.request_id = Some(id.clone());
        message.approve = Some(approve);
        message.set_fields(fields);
        let moved = Event::RequestTransitioned { request_id: id.clone(), request_kind: kind, by: by.clone(), from: req.status, to };
        let events = self.inject_faults(vec![moved, Event::MessageSent { message }]);
        self.commit(at, events)?;
        Ok(to)
    }

    /// Request `id` expires now: `pending -> rejected` with cause
    /// `expired` (and its protocol's `on_reject` effects). Refused unless
    /// its protocol has a deadline and it is pending. It does not look at
    /// the clock: the explorer takes the deadline passing as a choice;
    /// `expire_due` is the clock's way.
    pub fn expire(&mut self, id: &RequestId, at: Millis) -> Result<(), TeamError> {
        let kind = self.state.tracker.get(id).ok_or_else(|| TrackerError::UnknownRequest(id.clone()))?.kind;
        self.commit_one(at, Event::RequestExpired { request_id: id.clone(), request_kind: kind }).map(drop)
    }

    /// The pending requests whose deadline has passed at `now`
    /// (`created_at + deadline_ms <= now`), in creation order.
    pub fn due_expiries(&self, now: Millis) -> Vec<RequestId> {
        if self.state.protocols.is_lesson_only() {
            return Vec::new();
        }
        self.state
            .tracker
            .pending()
            .filter(|r| {
                let deadline = self.state.protocols.protocol_of(r.kind).and_then(|(_, p)| p.deadline_ms);
                deadline.is_some_and(|d| r.created_at.0.saturating_add(d) <= now.0)
            })
            .map(|r| r.id.clone())
            .collect()
    }

    /// Expires, as one step at `now`, every request whose deadline has
    /// passed; returns their ids (none: nothing recorded).
    pub fn expire_due(&mut self, now: Millis) -> Result<Vec<RequestId>, TeamError> {
        let due = self.due_expiries(now);
        if due.is_empty() {
            return Ok(due);
        }
        let events = due
            .iter()
            .filter_map(|id| {
                let kind = self.state.tracker.get(id)?.kind;
                Some(Event::RequestExpired { request_id: id.clone(), request_kind: kind })
            })
            .collect();
        self.commit(now, events)?;
        Ok(due)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ClosedGates;
    use super::*;
    use crate::protocol::bus::BusError;
    use crate::protocol::file::model::GateIx;
    use crate::protocol::FieldValue;

    const FILE: &str = r#"
format = 1

[[gate]]
name = "build"
tools = ["write_file"]

[[protocol]]
name = "handoff"
request = "handoff_request"
response = "handoff_response"
from = "lead"
to = "teammate"
on_approve = [{ effect = "exit", who = "addressee" }, { effect = "open_gate", gate = "build", who = "addressee" }]
on_reject = [{ effect = "close_gate", gate = "build", who = "addressee" }]
deadline_ms = 10
tools.request = { name = "hand_off", description = "Ask a teammate to hand off." }
tools.respond = { name = "answer_handoff", description = "Answer a handoff." }
"#;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// A team under `FILE` with ann, her build gate closed, and a pending
    /// handoff to her.
    fn team() -> (Team, RequestId) {
        let mut t = crate::protocol::testing::team_under(FILE, 1, &["ann"]);
        let ann = name("ann");
        let id = t.ask(ProtocolIx(0), &AgentName::lead(), &ann, Fields::new(), Millis(1)).unwrap();
        t.respond(ProtocolIx(0), &id, &ann, false, Fields::new(), Millis(2)).unwrap();
        assert!(t.gate_closed(&ann, GateIx(0)));
        let id = t.ask(ProtocolIx(0), &AgentName::lead(), &ann, Fields::new(), Millis(3)).unwrap();
        (t, id)
    }

    #[test]
    fn a_refused_command_takes_back_a_file_protocols_effects() {
        let (mut t, id) = team();
        let ann = name("ann");
        let (state, len) = (t.state().clone(), t.trace().len());
        let kind = t.request(&id).unwrap().kind;
        let moved = Event::RequestTransitioned {
            request_id: id,
            request_kind: kind,
            by: ann.clone(),
            from: RequestStatus::Pending,
            to: RequestStatus::Approved,
        };
        assert_eq!(t.commit(Millis(4), vec![moved, Event::MessageReleased { held: 99 }]), Err(TeamError::Bus(BusError::NotHeld(99))));
        assert_eq!((t.state(), t.trace().len()), (&state, len), "exit and gate taken back");
        assert!(!t.is_exiting(&ann) && t.gate_closed(&ann, GateIx(0)));
    }

    #[test]
    fn a_refused_command_takes_back_an_expiry() {
        let (mut t, id) = team();
        let (state, len) = (t.state().clone(), t.trace().len());
        let kind = t.request(&id).unwrap().kind;
        let expired = Event::RequestExpired { request_id: id, request_kind: kind };
        assert_eq!(t.commit(Millis(20), vec![expired, Event::MessageReleased { held: 99 }]), Err(TeamError::Bus(BusError::NotHeld(99))));
        assert_eq!((t.state(), t.trace().len()), (&state, len));
    }

    #[test]
    fn the_lessons_refusals_on_the_one_path_keep_the_lessons_words() {
        let mut t = Team::new("t", 1);
        let (lead, alice) = (AgentName::lead(), name("alice"));
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        let refused = |r: Result<RequestId, TeamError>| r.unwrap_err().to_string();
        assert_eq!(refused(t.request_shutdown(&alice, &alice, Millis(1))), "only the lead can request a shutdown; 'alice' cannot");
        assert_eq!(refused(t.submit_plan(&lead, "p", Millis(1))), "the lead does not submit plans; only teammates do");
        assert_eq!(
            t.request_shutdown(&lead, &lead, Millis(1)),
            Err(TeamError::Roster(RosterError::UnknownMember(lead.clone()))),
            "the lead is no teammate to shut down"
        );
        let id = t.request_shutdown(&lead, &alice, Millis(1)).unwrap();
        let again = t.request_shutdown(&lead, &alice, Millis(2));
        assert_eq!(again, Err(TeamError::ShutdownPending { target: alice.clone(), pending: id }));
    }

    #[test]
    fn the_lessons_messages_keep_their_own_keys_on_the_one_path() {
        let mut t = Team::new("t", 1);
        let (lead, alice) = (AgentName::lead(), name("alice"));
        t.spawn(&alice, "coder", true, Millis(0)).unwrap();
        let stop = t.request_shutdown(&lead, &alice, Millis(1)).unwrap();
        let plan = t.submit_plan(&alice, "step 1", Millis(2)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &stop, &alice, false, "", Millis(3)).unwrap();
        t.answer(RequestKind::PLAN, &plan, &lead, true, "fine", Millis(4)).unwrap();
        let sent: Vec<String> = t
            .trace()
            .entries()
            .iter()
            .filter_map(|e| match &e.event {
                Event::MessageSent { message } => Some(serde_json::to_string(message).unwrap()),
                _ => None,
            })
            .collect();
        assert!(sent[0].contains("\"content\":\"Please shut down gracefully.\"") && !sent[0].contains("fields"), "{}", sent[0]);
        assert!(sent[1].contains("\"content\":\"step 1\"") && sent[1].contains("\"plan\":\"step 1\""), "{}", sent[1]);
        assert!(sent[2].contains("\"reason\":\"\""), "an empty reason is still the lesson's key: {}", sent[2]);
        assert!(sent[3].contains("\"feedback\":\"fine\""), "{}", sent[3]);
        assert_eq!(t.request(&plan).unwrap().plan.as_deref(), Some("step 1"), "the tracker keeps the plan text");
        assert!(!t.plan_gate_closed(&alice), "the plan protocol's open_gate effect opened the lesson's gate");
    }

    #[test]
    fn an_ask_with_a_field_its_protocol_does_not_declare_is_refused() {
        let (mut t, _) = team();
        let mut extra = Fields::new();
        extra.set("why", FieldValue::Text("x".into()));
        let err = t.ask(ProtocolIx(0), &AgentName::lead(), &name("ann"), extra, Millis(5)).unwrap_err();
        assert_eq!(err.to_string(), "a handoff_request has no field 'why'; its fields are: none");
    }

    #[test]
    fn the_lessons_plan_gate_is_one_gate_bit_closed_at_a_plan_mode_spawn_and_opened_by_an_approved_plan() {
        let (lead, alice) = (AgentName::lead(), name("alice"));
        let lesson = Team::new("t", 1);
        // FILE does not use the lesson: the plan gate sits past its one gate.
        let other = crate::protocol::testing::team_under(FILE, 1, &[]);
        let with_lesson = FILE.replace("format = 1", "format = 1\nuse = [\"lesson\"]");
        let uses_lesson = crate::protocol::testing::team_under(&with_lesson, 1, &[]);
        assert_eq!(lesson.protocols().plan_gate(), GateIx(0));
        assert_eq!(other.protocols().plan_gate(), GateIx(1));
        assert_eq!(Some(uses_lesson.protocols().plan_gate()), uses_lesson.protocols().gate_named("plan"));
        for mut t in [lesson, other, uses_lesson] {
            let plan = t.protocols().plan_gate();
            t.spawn(&alice, "coder", true, Millis(0)).unwrap();
            assert!(t.gate_closed(&alice, plan) && t.plan_gate_closed(&alice) && !t.plan_approved(&alice));
            let id = t.submit_plan(&alice, "p", Millis(1)).unwrap();
            t.answer(RequestKind::PLAN, &id, &lead, false, "no", Millis(2)).unwrap();
            assert!(t.gate_closed(&alice, plan), "a rejected plan keeps it closed");
            let id = t.submit_plan(&alice, "p", Millis(3)).unwrap();
            t.answer(RequestKind::PLAN, &id, &lead, true, "ok", Millis(4)).unwrap();
            assert!(!t.gate_closed(&alice, plan) && !t.plan_gate_closed(&alice) && t.plan_approved(&alice));
            assert_eq!(Team::replay(t.trace()).unwrap().state(), t.state(), "replay rebuilds the one gate state");
            t.set_status(&alice, MemberStatus::Idle, Millis(5)).unwrap();
            t.spawn(&alice, "coder", true, Millis(6)).unwrap();
            assert!(t.gate_closed(&alice, plan) && !t.plan_approved(&alice), "a restart in plan mode closes it again");
            t.set_status(&alice, MemberStatus::Idle, Millis(7)).unwrap();
            t.spawn(&alice, "coder", false, Millis(8)).unwrap();
            assert_eq!(t.state().gates, ClosedGates::default(), "a restart out of plan mode opens it: no gate left");
        }
    }

    #[test]
    fn config_json_writes_an_approved_plan_as_the_roster_did() {
        let (lead, alice, bob, carol) = (AgentName::lead(), name("alice"), name("bob"), name("carol"));
        let mut t = Team::new("t", 1);
        t.spawn(&alice, "coder", true, Millis(0)).unwrap();
        t.spawn(&bob, "tester", true, Millis(0)).unwrap();
        t.spawn(&carol, "writer", false, Millis(0)).unwrap();
        let id = t.submit_plan(&alice, "p", Millis(1)).unwrap();
        t.answer(RequestKind::PLAN, &id, &lead, true, "ok", Millis(2)).unwrap();
        let expected = r#"{
  "team_name": "t",
  "members": [
    {
      "name": "alice",
      "role": "coder",
      "status": "working",
      "plan_mode": true,
      "plan_approved": true,
      "incarnation": 1
    },
    {
      "name": "bob",
      "role": "tester",
      "status": "working",
      "plan_mode": true,
      "incarnation": 1
    },
    {
      "name": "carol",
      "role": "writer",
      "status": "working",
      "incarnation": 1
    }
  ]
}"#;
        assert_eq!(t.config_json(), expected);
    }
}
