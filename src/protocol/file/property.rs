//! The resolved shape of a file's `[[property]]`: the events a pattern
//! matches, the matchers (protocol, agent, tool and field filters, all
//! resolved to indices), the quantifier, the five patterns of the contract
//! and their scopes, as typed enums a monitor can fold over events.
//!
//! Owns the shapes only, like `model`; nothing here can fail.

use super::model::{FieldIx, FieldSetting, ProtocolIx, Side};
use crate::protocol::AgentName;

/// An event a property pattern matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// A request was made.
    Created,
    /// A request was approved.
    Approved,
    /// A request was rejected by its addressee.
    Rejected,
    /// A request's deadline passed.
    Expired,
    /// A request left `pending` (any of the three above).
    Settled,
    /// A message reached an inbox.
    Delivered,
    /// A tool ran.
    Tool,
    /// An agent called its model.
    ModelCall,
}

/// Whom a matcher's `agent` names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AgentFilter {
    /// The lead.
    Lead,
    /// One teammate.
    Teammate(AgentName),
    /// Every teammate of this role.
    Role(String),
}

/// `{ event = ..., protocol = ..., agent = ..., tool = ..., field = value }`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Matcher {
    /// The event.
    pub event: EventKind,
    /// Only this protocol's requests.
    pub protocol: Option<ProtocolIx>,
    /// Only this agent's.
    pub agent: Option<AgentFilter>,
    /// For `tool`: only this tool.
    pub tool: Option<String>,
    /// Only with these field values.
    pub fields: Vec<FieldSetting>,
}

/// always | sometimes | eventually.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expect {
    /// In every state of every run.
    Always,
    /// In some run.
    Sometimes,
    /// By the end of every run.
    Eventually,
}

/// The patterns of the contract.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// No matching event.
    Absence(Matcher),
    /// A matching event.
    Existence(Matcher),
    /// At most `n` matching events.
    AtMost {
        /// The bound.
        n: u32,
        /// What is counted.
        count: Matcher,
    },
    /// `then` only after `first`.
    Precedence {
        /// What must come first.
        first: Matcher,
        /// What may only follow.
        then: Matcher,
    },
    /// Every `trigger` is followed by a `reply`.
    Response {
        /// What asks for a reply.
        trigger: Matcher,
        /// The reply.
        reply: Matcher,
    },
}

/// Over what a pattern is counted.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The whole run.
    Run,
    /// Each agent apart.
    PerAgent,
    /// Each request apart.
    PerRequest,
    /// Each value of a field apart; the field in each protocol it is read from.
    PerKey(Vec<(ProtocolIx, Side, FieldIx)>),
}

/// A property of the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Property {
    /// Its name.
    pub name: String,
    /// The quantifier.
    pub expect: Expect,
    /// The pattern.
    pub pattern: Pattern,
    /// The scope.
    pub scope: Scope,
}
