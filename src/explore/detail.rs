//! What an explorer finding says happened, as facts: the checker's own
//! `Breach`, or one of the properties the explorer adds (a teammate acting
//! after approving its shutdown, a request nobody may answer, a team gone
//! quiet while a request is pending, …).
//!
//! Owns `Detail` and its English sentence (`Display`, printed by the command
//! line and its JSON). The page words each variant in the reader's language
//! from the same facts (`view::words::findings`). It must not judge runs: the
//! `Monitor` in `properties` decides what to report.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::protocol::{AgentName, Breach, MemberStatus, RequestId, RequestKind};

/// The facts of one finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "detail")]
pub enum Detail {
    /// One of the invariant checker's violations.
    Checker {
        /// Its facts.
        breach: Breach,
    },
    /// A request went to an agent with no tool to answer it.
    NoResponder {
        /// The request.
        request: RequestId,
        /// Its protocol.
        kind: RequestKind,
        /// Who it went to.
        addressee: AgentName,
    },
    /// `by` approved a request (a `sometimes` witness).
    Approved {
        /// Who approved.
        by: AgentName,
        /// The request.
        request: RequestId,
    },
    /// `by` rejected a request (a `sometimes` witness).
    Rejected {
        /// Who rejected.
        by: AgentName,
        /// The request.
        request: RequestId,
    },
    /// A plan-mode teammate changed the workspace before its plan was
    /// approved.
    WorkBeforePlanApproval {
        /// The teammate.
        agent: AgentName,
        /// The tool it used.
        tool: String,
    },
    /// Every agent went idle while a request was pending.
    QuietWhilePending {
        /// Its protocol.
        kind: RequestKind,
        /// The request.
        request: RequestId,
        /// Who asked.
        requester: AgentName,
        /// Who should answer.
        addressee: AgentName,
    },
    /// The run ended with a request pending.
    EndedPending {
        /// Its protocol.
        kind: RequestKind,
        /// The request.
        request: RequestId,
        /// Who should answer.
        addressee: AgentName,
    },
    /// A teammate approved its shutdown but the run ended before it shut
    /// down.
    ApprovedNotExited {
        /// The teammate.
        agent: AgentName,
        /// The status it ended in.
        status: MemberStatus,
    },
    /// Nothing can move, yet the run has not ended.
    Stuck,
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Detail::Checker { breach } => breach.fmt(f),
            Detail::NoResponder { request, kind, addressee } => {
                write!(f, "request {request} ({kind}) goes to {addressee}, who has no tool to answer it")
            }
            Detail::Approved { by, request } => write!(f, "{by} approved request {request}"),
            Detail::Rejected { by, request } => write!(f, "{by} rejected request {request}"),
            Detail::WorkBeforePlanApproval { agent, tool } => {
                write!(f, "{agent} is in plan mode and changed the workspace with {tool} before its plan was approved")
            }
            Detail::QuietWhilePending { kind, request, requester, addressee } => write!(
                f,
                "every agent went idle while {kind} request {request} from {requester} to {addressee} was still pending: nobody will answer it"
            ),
            Detail::EndedPending { kind, request, addressee } => {
                write!(f, "the run ended with {kind} request {request} to {addressee} still pending")
            }
            Detail::ApprovedNotExited { agent, status } => {
                write!(f, "{agent} approved its shutdown but the run ended with it {status}, not shutdown")
            }
            Detail::Stuck => f.write_str("nothing can move, yet the run has not ended: the team is stuck"),
        }
    }
}
