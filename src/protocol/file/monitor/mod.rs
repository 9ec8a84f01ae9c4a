//! A file's `[[property]]` entries as monitors the explorer folds over the
//! trace events of a run under the file's protocols (the lesson's, when it
//! uses them, and its own), the way it folds its built-in properties
//! (`explore::properties::Monitor`).
//!
//! Each property is compiled once ([`PropertySet::compile`]) into matchers
//! over a small view of an event; a [`Monitor`] holds, per property and per
//! scope instance, one counter. It is cheap to clone (empty maps when the
//! set is empty) and its counters are part of a search state's hash
//! ([`Monitor::hash_into`]); the rest of what it remembers (who has which
//! role, which request concerns whom, the messages not yet read) follows
//! from the world's own state, which the search hashes already. A property
//! naming one teammate tells teammates configured alike apart: the
//! explorer then hashes without its symmetry reduction
//! ([`PropertySet::names_a_teammate`]).
//!
//! # Events
//! - `created`: a `RequestCreated`; `approved`, `rejected`: a
//!   `RequestTransitioned` to that status; `expired`: a `RequestExpired`
//!   (its deadline passed: rejected with cause `expired`); `settled`: any
//!   of the three.
//! - `delivered`: a message read from an inbox (each message of an
//!   `InboxDrained`, once per copy, in order), of a protocol when its type
//!   is the protocol's request or response type.
//! - `tool`: a `ToolCalled` (the call, whatever it returns), with the
//!   tool's name; `model_call`: a `ModelCalled`.
//! - A request's protocol is its kind's: the lesson's `RequestKind`s are
//!   the file's built-in protocols of the same name, a file protocol's kind
//!   and message types carry its index (`ProtocolIx`), resolved when the
//!   file loaded, so matching a protocol compares integers.
//!
//! # An event's agent and fields
//! A request's events (created, approved, rejected, settled) are the
//! agent's the request concerns: its addressee when that is a teammate,
//! else its requester (a plan request is its author's, a shutdown request
//! its teammate's). A delivery is its reader's; a tool call or a model
//! call, its caller's. `agent` filters and the `per_agent` scope read that
//! agent; `role:NAME` reads the role it was spawned with.
//! Field filters and `per_key` read a protocol's fields: its request
//! fields on all of that request's events and on the delivery of the
//! request, its response fields on the delivery of the response only (the
//! tracker does not keep them). The lesson's are `plan` (the plan
//! request's text), and the responses' `reason` and `feedback`. Each field
//! a property reads is a small slot number; its value is read once from a
//! request when it is made and from a message when it is sent, and enum
//! filters compare the value's text, resolved when compiled.
//!
//! # Patterns (Dwyer et al.'s property patterns), within each scope instance
//! - `absence`: no event matches; `at_most n`: at most `n` do (absence is
//!   `at_most 0`); broken at the match that goes over.
//! - `existence`: some event matches. Instances: the run; per agent, the
//!   lead and every teammate spawned; per request, each request of the
//!   protocols the pattern names (of any protocol if it names none); per
//!   key, each value a request of those protocols was created with.
//! - `precedence`: a `then` event only strictly after a `first` event of
//!   the same instance; broken at a `then` with no `first` before it.
//! - `response`: every `trigger` is followed (strictly after) by a `reply`
//!   of the same instance; one reply answers every trigger before it.
//! - Scopes: `run` (one instance), `per_agent`, `per_request`,
//!   `per_key:FIELD` (by the field's value); an event outside every
//!   instance of a scope (a tool call, for `per_request`) counts for none.
//!
//! # Quantifiers
//! - `always`: every run has it; a broken `absence`, `at_most` or
//!   `precedence` is reported at the event that breaks it, a missing
//!   `existence` or an unanswered `response` at the run's end.
//! - `eventually`: every run has it by its end: judged at the end of each
//!   run (the explorer's terminal states: nothing left to do, or nothing
//!   able to move), so its example is a whole run.
//! - `sometimes`: some run has it, judged at a run's end: the example is a
//!   witness, not a counterexample.
//!
//! Owns compiling and folding: `compile` turns a file's properties into
//! matchers, `fold` folds them over a path's events. It reads trace events
//! only: it must not run agents, search, or depend on the runtime.

mod compile;
mod fold;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::property::Property;
use compile::Inner;
pub use fold::Monitor;

/// Why a file's properties cannot be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MonitorError {
    /// The file defines protocols or gates of its own, and its properties
    /// were to be judged on a built-in scenario, whose team runs the
    /// lesson's protocols only (`PropertySet::compile_for_lesson`).
    #[error(
        "the file defines its own {0}, which a built-in scenario's team does not run; give the file a [team] and explore it with `explore --file FILE`"
    )]
    OwnProtocols(&'static str),
    /// The properties read more distinct fields than a slot number holds.
    #[error("the properties read more than 256 distinct fields; split them across files")]
    TooManyFields,
    /// A property names a protocol, field or enum value its file lacks
    /// (the loader refuses such a file, so this is a bug).
    #[error("a property names a protocol, field or value its file does not have; this is a bug in this program")]
    Unresolved,
}

/// A file's properties, compiled once; cheap to clone (shared). Empty by
/// default.
#[derive(Debug, Clone, Default)]
pub struct PropertySet(Option<Arc<Inner>>);

impl PartialEq for PropertySet {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

/// A property broken (or, for `sometimes`, shown) on a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFinding {
    /// The property's place in the file's `[[property]]` list.
    pub property: usize,
    /// The entry it happened at (at a run's end: its last).
    pub seq: u64,
    /// What happened, in words.
    pub detail: String,
}

impl PropertySet {
    /// True when there is nothing to check.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// True when a property names one teammate: teammates configured alike
    /// are then no longer interchangeable, and the explorer's symmetry
    /// reduction (which would merge a run of alice's with the same run of
    /// bob's) must be off for a sound verdict.
    pub fn names_a_teammate(&self) -> bool {
        self.0.as_ref().is_some_and(|i| i.names_a_teammate)
    }

    /// The properties, in the file's order.
    pub fn properties(&self) -> &[Property] {
        self.0.as_ref().map_or(&[], |i| &i.properties)
    }
}
