//! What a protocol violation says happened, as facts rather than a sentence:
//! who answered which request, which fault rule held or dropped what, why a
//! request stayed pending.
//!
//! Owns `Breach` (one variant per violation kind, with the facts its
//! explanation needs) and its English sentence (`Display`), which the raw
//! log, the command line and the exports print. The page words each variant
//! in the reader's language from the same facts (`view::words::findings`).
//! Produced by the checker only; it must not judge traces itself.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::message::{MessageType, RequestId};
use super::protocols::LessonProtocol;
use super::tracker::{RequestKind, RequestStatus};
use super::AgentName;

/// A fault that hit a message: the trace event that applied it and the rule
/// that fired (`None` in traces without rule numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRef {
    /// The sequence number of the `FaultApplied` event.
    pub seq: u64,
    /// The fault rule's number, counted from 1.
    pub rule: Option<usize>,
}

impl FaultRef {
    /// "fault rule 2", or "a fault".
    fn by(&self) -> String {
        self.rule.map_or_else(|| "a fault".to_string(), |n| format!("fault rule {n}"))
    }
}

/// How a message to a teammate that had shut down got there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "via")]
pub enum Arrival {
    /// Sent to it directly.
    Sent,
    /// Released by the fault that had held it back.
    Released {
        /// The fault.
        fault: FaultRef,
    },
    /// The copy a duplicate fault made.
    Copy {
        /// The fault.
        fault: FaultRef,
    },
}

/// Why a request was still pending when the run finished, as far as the
/// trace shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum PendingCause {
    /// The trace does not say.
    Unknown,
    /// A fault dropped the request message.
    RequestDropped {
        /// The fault.
        fault: FaultRef,
    },
    /// A fault held the request back and the addressee never answered it.
    RequestHeld {
        /// The fault.
        fault: FaultRef,
    },
    /// The addressee restarted before answering.
    Restarted {
        /// Its incarnation now.
        incarnation: u32,
    },
    /// A reply arrived, but the tracker never recorded an answer.
    ReplyUnrecorded,
    /// The addressee shut down without answering.
    ExitedUnanswered,
}

/// What a teammate did after approving its shutdown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "act")]
pub enum Act {
    /// It called its model: new work.
    ModelCall,
    /// It ran a tool after it had left its loop.
    ToolCall {
        /// The tool.
        tool: String,
    },
    /// It sent a message, not from a tool of the turn it was finishing.
    Message {
        /// The message's type.
        msg_type: MessageType,
        /// Its recipient.
        to: AgentName,
    },
}

/// The facts of one violation, one variant per `ViolationKind`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "breach")]
pub enum Breach {
    /// `from` answered a request id no request of `kind` has.
    AnswerToUnknownRequest {
        /// Who answered.
        from: AgentName,
        /// The id the answer named (`None`: none).
        request: Option<RequestId>,
        /// The protocol the answer belongs to.
        kind: RequestKind,
    },
    /// `from` answered a request addressed to `addressee`.
    AnswerFromWrongAgent {
        /// Who answered.
        from: AgentName,
        /// The request.
        request: Option<RequestId>,
        /// Who the request was for.
        addressee: AgentName,
    },
    /// A restarted teammate answered a request addressed to its previous run.
    AnswerAcrossRestart {
        /// Who answered.
        from: AgentName,
        /// The incarnation that answered.
        incarnation: u32,
        /// The request.
        request: Option<RequestId>,
        /// Its protocol.
        kind: RequestKind,
        /// The incarnation it was addressed to.
        addressed: u32,
    },
    /// A restarted teammate read a request addressed to its previous run.
    RequestAcrossRestart {
        /// The teammate.
        agent: AgentName,
        /// The incarnation that read it.
        incarnation: u32,
        /// The request.
        request: RequestId,
        /// Its protocol.
        kind: RequestKind,
        /// The incarnation it was addressed to.
        addressed: u32,
    },
    /// `from` answered a request a second time.
    SecondAnswer {
        /// Who answered.
        from: AgentName,
        /// The request.
        request: Option<RequestId>,
    },
    /// A duplicate fault delivered a copy of `from`'s reply to `to`.
    DuplicateDelivered {
        /// The fault.
        fault: FaultRef,
        /// Who replied.
        from: AgentName,
        /// The request.
        request: Option<RequestId>,
        /// Who read the answer twice.
        to: AgentName,
        /// The one answer the tracker recorded, if any.
        recorded: Option<RequestStatus>,
    },
    /// A message reached a teammate that had shut down.
    MessageToExited {
        /// The sender.
        from: AgentName,
        /// The message's type.
        msg_type: MessageType,
        /// The teammate that had shut down.
        to: AgentName,
        /// How the message got there.
        arrival: Arrival,
    },
    /// A request was still pending when the run finished.
    LeftPending {
        /// Its protocol.
        kind: RequestKind,
        /// The request.
        request: RequestId,
        /// Who it was for.
        addressee: AgentName,
        /// Why, as far as the trace shows.
        cause: PendingCause,
    },
    /// A teammate acted after its shutdown was approved (by itself or by
    /// whoever answered for it), instead of finishing its turn and exiting.
    ActAfterApproval {
        /// The teammate.
        agent: AgentName,
        /// The shutdown request that was approved.
        request: RequestId,
        /// The sequence number of the approval (`RequestTransitioned`).
        approved: u64,
        /// What it did.
        act: Act,
    },
    /// The addressee answered, but a drop fault lost the reply.
    AnswerLost {
        /// Who answered.
        from: AgentName,
        /// Whether the answer was an approval.
        approved: bool,
        /// The protocol.
        kind: RequestKind,
        /// The request.
        request: RequestId,
        /// The fault that dropped the reply.
        fault: FaultRef,
        /// Who never learned the answer.
        to: AgentName,
    },
    /// A tool a protocol file's gate holds ran for an agent whose gate was
    /// closed.
    GatedToolWhileClosed {
        /// Who ran it.
        agent: AgentName,
        /// The tool.
        tool: String,
        /// The gate's name in the file.
        gate: String,
    },
    /// `from` answered a request whose deadline had passed.
    AnswerAfterExpiry {
        /// Who answered.
        from: AgentName,
        /// The request.
        request: Option<RequestId>,
        /// Its protocol.
        kind: RequestKind,
    },
}

impl Breach {
    /// The fault that caused it, when one did.
    pub fn fault(&self) -> Option<u64> {
        match self {
            Breach::DuplicateDelivered { fault, .. } | Breach::AnswerLost { fault, .. } => Some(fault.seq),
            Breach::MessageToExited { arrival: Arrival::Released { fault } | Arrival::Copy { fault }, .. } => Some(fault.seq),
            Breach::LeftPending { cause: PendingCause::RequestDropped { fault } | PendingCause::RequestHeld { fault }, .. } => {
                Some(fault.seq)
            }
            _ => None,
        }
    }
}

/// A name as the subject of a sentence: "the lead", or the teammate's name.
fn who(name: &AgentName) -> String {
    if name.is_lead() {
        "the lead".to_string()
    } else {
        name.to_string()
    }
}

/// "request 4607cc28", or "a request with no id".
fn show(id: &Option<RequestId>) -> String {
    id.as_ref().map_or_else(|| "a request with no id".to_string(), |id| format!("request {id}"))
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Breach::AnswerToUnknownRequest { from, request, kind } => {
                write!(f, "{from} answered {}, which no {kind} request has", show(request))
            }
            Breach::AnswerFromWrongAgent { from, request, addressee } => {
                write!(f, "{from} answered {}, which is addressed to {addressee}", show(request))
            }
            Breach::AnswerAcrossRestart { from, incarnation, request, kind, addressed } => write!(
                f,
                "{from} (incarnation {incarnation}) answered {kind} {}, which was addressed to its previous run (incarnation {addressed})",
                show(request)
            ),
            Breach::RequestAcrossRestart { agent, incarnation, request, kind, addressed } => write!(
                f,
                "{agent} (incarnation {incarnation}) read {kind} request {request}, which was addressed to its previous run (incarnation {addressed})"
            ),
            Breach::SecondAnswer { from, request } => write!(f, "{from} answered {} a second time", show(request)),
            Breach::DuplicateDelivered { fault, from, request, to, recorded } => {
                let tracker = match recorded {
                    Some(status) => format!("the tracker recorded one answer ({status}) and ignored the copy"),
                    None => "the tracker recorded no answer".to_string(),
                };
                write!(
                    f,
                    "{} duplicated {from}'s reply to {} (#{}): {} received the same answer twice; {tracker}",
                    fault.by(),
                    show(request),
                    fault.seq,
                    who(to)
                )
            }
            Breach::MessageToExited { from, msg_type, to, arrival } => {
                write!(f, "{from} sent a {msg_type} to '{to}', which had already shut down")?;
                match arrival {
                    Arrival::Sent => Ok(()),
                    Arrival::Released { fault } => write!(f, "; {} had held it back (#{}) until then", fault.by(), fault.seq),
                    Arrival::Copy { fault } => write!(f, "; it is the copy {} made (#{})", fault.by(), fault.seq),
                }
            }
            Breach::LeftPending { kind, request, addressee, cause } => {
                write!(f, "{kind} request {request} to {addressee} was still pending when the run finished")?;
                match cause {
                    PendingCause::Unknown => Ok(()),
                    PendingCause::RequestDropped { fault } => {
                        write!(f, ": {} dropped the request (#{}), so {addressee} never saw it", fault.by(), fault.seq)
                    }
                    PendingCause::RequestHeld { fault } => {
                        write!(f, ": {} held the request back (#{}) and {addressee} never answered it", fault.by(), fault.seq)
                    }
                    PendingCause::Restarted { incarnation } => write!(
                        f,
                        ": {addressee} restarted (incarnation {incarnation}) before answering, and its new run cannot answer for the old one"
                    ),
                    PendingCause::ReplyUnrecorded => f.write_str("; a reply arrived but the tracker never recorded an answer"),
                    PendingCause::ExitedUnanswered => write!(f, "; {addressee} shut down without answering it"),
                }
            }
            Breach::ActAfterApproval { agent, request, approved, act } => {
                write!(f, "{agent} approved shutdown request {request} (#{approved}), then ")?;
                match act {
                    Act::ModelCall => f.write_str("called its model again")?,
                    Act::ToolCall { tool } => write!(f, "ran {tool}")?,
                    Act::Message { msg_type, to } => write!(f, "sent a {msg_type} to {}", who(to))?,
                }
                f.write_str(" instead of finishing its turn and exiting")
            }
            Breach::AnswerLost { from, approved, kind, request, fault, to } => {
                let verb = if *approved { "approved" } else { "rejected" };
                let exits = if *approved && kind.lesson() == Some(LessonProtocol::Shutdown) { " and exits" } else { "" };
                write!(
                    f,
                    "{} {verb} {kind} request {request}{exits}; {} dropped the reply (#{}), so {} never learned it",
                    who(from),
                    fault.by(),
                    fault.seq,
                    who(to)
                )
            }
            Breach::GatedToolWhileClosed { agent, tool, gate } => {
                write!(f, "{} ran {tool} while its gate '{gate}' was closed", who(agent))
            }
            Breach::AnswerAfterExpiry { from, request, kind } => {
                write!(f, "{} answered {kind} {} after it had expired", who(from), show(request))
            }
        }
    }
}
