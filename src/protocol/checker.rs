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
use super::roster::MemberStatus;
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
    answered: bool,
    flagged_pending: bool,
}

/// Reads `trace` and returns every violation, in trace order.
pub fn check(trace: &Trace) -> Vec<Violation> {
    let mut checker = Checker::new();
    trace.entries().iter().flat_map(|e| checker.observe(e)).collect()
}

/// The checker as a fold over events: feed it a trace's events in order and
/// it returns each event's violations. A violation at event `n` depends only
/// on events up to `n`, so the findings of a prefix are the first findings
/// of the whole. Cloneable, so views can snapshot it.
#[derive(Debug, Clone, Default)]
pub struct Checker {
    requests: BTreeMap<RequestId, OpenRequest>,
    exited: BTreeSet<AgentName>,
    held: BTreeMap<u64, Message>,
}

impl Checker {
    /// A checker that has seen nothing.
    pub fn new() -> Self {
        Checker::default()
    }

    /// Takes in the next event; returns the violations it causes.
    pub fn observe(&mut self, entry: &TraceEntry) -> Vec<Violation> {
        let mut found = Vec::new();
        let seq = entry.seq;
        let Checker { requests, exited, held } = self;
        match &entry.event {
            Event::MemberSpawned { name, .. } => {
                exited.remove(name);
            }
            Event::MemberStatusChanged { name, to, .. } => {
                if *to == MemberStatus::Shutdown {
                    exited.insert(name.clone());
                }
            }
            Event::RequestCreated { request_id, request_kind, addressee, .. } => {
                requests.insert(
                    request_id.clone(),
                    OpenRequest { kind: *request_kind, addressee: addressee.clone(), answered: false, flagged_pending: false },
                );
            }
            Event::MessageSent { message } => deliver(seq, message, requests, exited, &mut found),
            Event::FaultApplied { action, message } => {
                if action.holds() {
                    held.insert(seq, message.clone());
                }
            }
            Event::MessageReleased { held: from } => {
                if let Some(message) = held.remove(from) {
                    deliver(seq, &message, requests, exited, &mut found);
                }
            }
            Event::RunFinished => {
                for (id, r) in requests.iter_mut().filter(|(_, r)| !r.answered && !r.flagged_pending) {
                    r.flagged_pending = true;
                    found.push(Violation {
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
        found
    }
}

/// A message reached an inbox (sent, or released after a delay or reorder):
/// flags a message to an exited teammate, and accounts a response as an
/// answer to its request.
fn deliver(
    seq: u64,
    message: &Message,
    requests: &mut BTreeMap<RequestId, OpenRequest>,
    exited: &BTreeSet<AgentName>,
    found: &mut Vec<Violation>,
) {
    if exited.contains(&message.to) {
        found.push(Violation {
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
    let open = id.as_ref().and_then(|id| requests.get_mut(id)).filter(|r| r.kind == kind);
    let violation = match open {
        None => Some((ViolationKind::AnswerToUnknownRequest, format!("{} answered {}, which no {kind} request has", message.from, show(&id)))),
        Some(r) if r.addressee != message.from => Some((
            ViolationKind::AnswerFromWrongAgent,
            format!("{} answered {}, which is addressed to {}", message.from, show(&id), r.addressee),
        )),
        Some(r) if r.answered => {
            Some((ViolationKind::SecondAnswer, format!("{} answered {} a second time", message.from, show(&id))))
        }
        Some(r) => {
            r.answered = true;
            None
        }
    };
    if let Some((kind, detail)) = violation {
        found.push(Violation { seq, kind, request_id: id, detail });
    }
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
