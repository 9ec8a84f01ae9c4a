//! The invariant checker: reads a trace, on its own terms, and reports every
//! place where the protocol was broken.
//!
//! Owns the list of invariants and their detection. It deliberately does not
//! reuse `Team`: it must judge traces that `Team` would never produce
//! (imports, fault injection, a misbehaving model or human), so it keeps its
//! own minimal model of requests and statuses. It never changes a trace.
//! Fault injection counts as the trace says: a released message is a
//! delivery like a sent one, a dropped one never arrived (so a dropped
//! response is no answer).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::message::{Message, MessageType, RequestId};
use super::roster::{MemberStatus, LEAD_INCARNATION};
use super::trace::{Event, Trace, TraceEntry};
use super::tracker::RequestKind;
use super::AgentName;

/// The kinds of protocol violation the checker knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationKind {
    /// A response names a request id nobody created (or of the other protocol).
    AnswerToUnknownRequest,
    /// A response to a request that was already answered.
    SecondAnswer,
    /// A response from someone other than the request's addressee.
    AnswerFromWrongAgent,
    /// A response from a restarted teammate to a request addressed to its
    /// previous run (incarnation).
    AnswerAcrossRestart,
    /// A message addressed to a teammate that had shut down.
    MessageToExitedTeammate,
    /// A request still pending when the run finished.
    LeftPending,
}

impl fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ViolationKind::AnswerToUnknownRequest => "answer to unknown request",
            ViolationKind::SecondAnswer => "second answer",
            ViolationKind::AnswerFromWrongAgent => "answer from wrong agent",
            ViolationKind::AnswerAcrossRestart => "answer across a restart",
            ViolationKind::MessageToExitedTeammate => "message to exited teammate",
            ViolationKind::LeftPending => "request left pending",
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
    /// A sentence for the user.
    pub detail: String,
}

#[derive(Debug, Clone)]
struct OpenRequest {
    kind: RequestKind,
    addressee: AgentName,
    /// The addressee's incarnation when the request was made.
    addressed: u32,
    answered: bool,
    flagged_pending: bool,
}

/// A message held on the bus by a delay or reorder fault, with its
/// sender's incarnation when it was sent.
#[derive(Debug, Clone)]
struct HeldMessage {
    message: Message,
    sender_incarnation: u32,
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
    requests: BTreeMap<RequestId, OpenRequest>,
    incarnations: BTreeMap<AgentName, u32>,
    exited: BTreeSet<AgentName>,
    held: BTreeMap<u64, HeldMessage>,
    found: Vec<Violation>,
}

impl Checker {
    /// A checker that has seen nothing.
    pub fn new() -> Self {
        Checker::default()
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

    /// Takes in the next entry of the trace.
    pub fn observe(&mut self, entry: &TraceEntry) {
        let seq = entry.seq;
        match &entry.event {
            Event::MemberSpawned { name, .. } => {
                self.exited.remove(name);
                let n = self.incarnations.entry(name.clone()).or_insert(0);
                *n = n.saturating_add(1);
            }
            Event::MemberStatusChanged { name, to, .. } => {
                if *to == MemberStatus::Shutdown {
                    self.exited.insert(name.clone());
                }
            }
            Event::RequestCreated { request_id, request_kind, addressee, .. } => {
                let addressed = self.incarnation(addressee);
                self.requests.insert(
                    request_id.clone(),
                    OpenRequest { kind: *request_kind, addressee: addressee.clone(), addressed, answered: false, flagged_pending: false },
                );
            }
            Event::MessageSent { message } => {
                let sender_incarnation = self.incarnation(&message.from);
                self.deliver(seq, message, sender_incarnation);
            }
            Event::FaultApplied { action, message } => {
                if action.holds() {
                    let sender_incarnation = self.incarnation(&message.from);
                    self.held.insert(seq, HeldMessage { message: message.clone(), sender_incarnation });
                }
            }
            Event::MessageReleased { held: from } => {
                if let Some(held) = self.held.remove(from) {
                    self.deliver(seq, &held.message, held.sender_incarnation);
                }
            }
            Event::RunFinished => {
                for (id, r) in self.requests.iter_mut().filter(|(_, r)| !r.answered && !r.flagged_pending) {
                    r.flagged_pending = true;
                    self.found.push(Violation {
                        seq,
                        kind: ViolationKind::LeftPending,
                        request_id: Some(id.clone()),
                        detail: format!("{} request {id} to {} was still pending when the run finished", r.kind, r.addressee),
                    });
                }
            }
            Event::RunStarted { .. }
            | Event::InboxDrained { .. }
            | Event::RequestTransitioned { .. }
            | Event::ModelCalled { .. }
            | Event::ModelReplied { .. }
            | Event::ModelFailed { .. }
            | Event::ToolCalled { .. }
            | Event::ToolReturned { .. } => {}
        }
    }

    /// A message reached an inbox (sent, or released after a delay or
    /// reorder), sent by incarnation `sender_incarnation` of its sender:
    /// flags a message to an exited teammate, and accounts a response as an
    /// answer to its request.
    fn deliver(&mut self, seq: u64, message: &Message, sender_incarnation: u32) {
        if self.exited.contains(&message.to) {
            self.found.push(Violation {
                seq,
                kind: ViolationKind::MessageToExitedTeammate,
                request_id: message.request_id.clone(),
                detail: format!("{} sent a {} to '{}', which had already shut down", message.from, message.msg_type, message.to),
            });
        }
        if !message.msg_type.is_response() {
            return;
        }
        let kind = match message.msg_type {
            MessageType::ShutdownResponse => RequestKind::Shutdown,
            _ => RequestKind::Plan,
        };
        let id = message.request_id.clone();
        let open = id.as_ref().and_then(|id| self.requests.get_mut(id)).filter(|r| r.kind == kind);
        let violation = match open {
            None => Some((
                ViolationKind::AnswerToUnknownRequest,
                format!("{} answered {}, which no {kind} request has", message.from, show(&id)),
            )),
            Some(r) if r.addressee != message.from => Some((
                ViolationKind::AnswerFromWrongAgent,
                format!("{} answered {}, which is addressed to {}", message.from, show(&id), r.addressee),
            )),
            Some(r) if r.addressed < sender_incarnation => Some((
                ViolationKind::AnswerAcrossRestart,
                format!(
                    "{} (incarnation {sender_incarnation}) answered {kind} {}, which was addressed to its previous run (incarnation {})",
                    message.from,
                    show(&id),
                    r.addressed
                ),
            )),
            Some(r) if r.answered => Some((ViolationKind::SecondAnswer, format!("{} answered {} a second time", message.from, show(&id)))),
            Some(r) => {
                r.answered = true;
                None
            }
        };
        if let Some((kind, detail)) = violation {
            self.found.push(Violation { seq, kind, request_id: id, detail });
        }
    }
}

/// Reads `trace` and returns every violation, in trace order: a fold of
/// `Checker::observe` over its entries.
pub fn check(trace: &Trace) -> Vec<Violation> {
    let mut checker = Checker::new();
    for entry in trace.entries() {
        checker.observe(entry);
    }
    checker.finish()
}

fn show(id: &Option<RequestId>) -> String {
    id.as_ref().map_or_else(|| "a request with no id".to_string(), |id| format!("request {id}"))
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
        t.answer(RequestKind::Shutdown, &id, &alice(), true, "ok", Millis(3)).unwrap();
        t.release_all(Millis(4)).unwrap();
        t.finish_run(Millis(5)).unwrap();
        (check(t.trace()).into_iter().map(|v| (v.kind, v.request_id)).collect(), id)
    }

    #[test]
    fn a_dropped_response_is_no_answer() {
        let (found, id) = answered_under(FaultAction::Drop);
        assert_eq!(found, [(ViolationKind::LeftPending, Some(id))]);
    }

    #[test]
    fn a_duplicated_response_is_a_second_answer() {
        let (found, id) = answered_under(FaultAction::Duplicate);
        assert_eq!(found, [(ViolationKind::SecondAnswer, Some(id))]);
    }

    #[test]
    fn a_released_response_is_an_answer() {
        assert_eq!(answered_under(FaultAction::Delay { ms: 1_000 }).0, []);
        assert_eq!(answered_under(FaultAction::Reorder).0, []);
    }
}
