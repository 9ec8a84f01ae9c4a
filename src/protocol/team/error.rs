//! The team's refusals (`TeamError`, phrased so they can be handed to a
//! model) and a replay's (`ReplayError`). Owns their words only: which rule
//! refuses what is `team`'s and `asks`'s.

use crate::protocol::bus::{BusError, MessageId};
use crate::protocol::message::{MessageType, RequestId};
use crate::protocol::protocols::ProtocolsError;
use crate::protocol::roster::{MemberStatus, RosterError};
use crate::protocol::trace::{TraceEntry, TraceError};
use crate::protocol::tracker::TrackerError;
use crate::protocol::AgentName;

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
pub(super) fn inconsistent(entry: &TraceEntry, problem: impl std::fmt::Display) -> TeamError {
    TeamError::Inconsistent { event: entry.event.kind(), problem: problem.to_string() }
}

/// The tool that sends a message of type `t`: a lesson type's, the one
/// the built-in lesson file names for it; a file type's, in words (the
/// file's own tool names are its).
fn protocol_tool(t: MessageType) -> &'static str {
    let MessageType::Protocol(f) = t else { return "send_message" };
    let lesson = f.lesson_protocol().and_then(|p| crate::protocol::protocols::lesson_protocols().get(usize::from(p.index().0)));
    match (lesson, f.response) {
        (Some(p), true) => p.tools.respond.as_ref().map_or("protocol's answer", |t| t.name.as_str()),
        (Some(p), false) => p.tools.request.name.as_str(),
        (None, true) => "protocol's answer",
        (None, false) => "protocol's request",
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
