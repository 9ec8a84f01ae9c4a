//! A file's `[[property]]` entries as monitors the explorer folds over the
//! trace events of today's engine (the lesson's two protocols), the way it
//! folds its built-in properties (`explore::properties::Monitor`).
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
//! # Events on today's engine
//! - `created`: a `RequestCreated`; `approved`, `rejected`: a
//!   `RequestTransitioned` to that status; `settled`: either of them.
//! - `expired`: never occurs: today's engine has no deadlines.
//! - `delivered`: a message read from an inbox (each message of an
//!   `InboxDrained`, once per copy, in order), of a protocol when its type
//!   is the protocol's request or response type.
//! - `tool`: a `ToolCalled` (the call, whatever it returns), with the
//!   tool's name; `model_call`: a `ModelCalled`.
//! - The lesson's `RequestKind`s are the file's protocols of the same name.
//!
//! # An event's agent and fields
//! A request's events (created, approved, rejected, settled) are the
//! agent's the request concerns: its addressee when that is a teammate,
//! else its requester (a plan request is its author's, a shutdown request
//! its teammate's). A delivery is its reader's; a tool call or a model
//! call, its caller's. `agent` filters and the `per_agent` scope read that
//! agent; `role:NAME` reads the role it was spawned with.
//! Field filters and `per_key` read the fields that exist today: `plan`
//! (the plan request's text, on all of that request's events and on the
//! delivery of the request), and the responses' `reason` and `feedback`,
//! on the delivery of the response only (the tracker does not keep them).
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
//! Owns compiling and folding. It reads trace events only: it must not run
//! agents, search, or depend on the runtime.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::model::{FieldSetting, FieldValue, ProtocolFile, ProtocolIx, Side};
use super::property::{AgentFilter, EventKind, Expect, Matcher, Pattern, Property, Scope};
use crate::protocol::{AgentName, Event, FaultAction, Message, MessageType, RequestId, RequestKind, RequestStatus, TraceEntry};

/// Why a file's properties cannot be checked on today's engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MonitorError {
    /// The file defines protocols or gates of its own: today's engine runs
    /// the lesson's only.
    #[error(
        "the file defines its own {0}; today's engine runs the lesson's protocols only, so its properties are checked once the engine reads files"
    )]
    OwnProtocols(&'static str),
    /// A field filter or key names a field today's messages do not carry.
    #[error("field '{0}' is not carried by today's engine (its fields are plan, reason and feedback)")]
    UnknownField(String),
}

/// The fields today's engine carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum TodayField {
    /// The plan request's text.
    Plan,
    /// The shutdown response's reason.
    Reason,
    /// The plan response's feedback.
    Feedback,
}

/// A compiled matcher.
#[derive(Debug, Clone, PartialEq)]
struct Match {
    event: EventKind,
    protocol: Option<ProtocolIx>,
    agent: Option<AgentFilter>,
    tool: Option<String>,
    fields: Vec<(TodayField, String)>,
}

/// A compiled pattern: absence is `AtMost(0, ..)`.
#[derive(Debug, Clone, PartialEq)]
enum PatternCheck {
    AtMost(u32, Match),
    Existence(Match),
    Precedence(Match, Match),
    Response(Match, Match),
}

/// A compiled scope.
#[derive(Debug, Clone, PartialEq)]
enum Scoped {
    Run,
    PerAgent,
    PerRequest,
    PerKey(Vec<TodayField>),
}

/// A compiled property.
#[derive(Debug, Clone, PartialEq)]
struct PropertyCheck {
    pattern: PatternCheck,
    scope: Scoped,
    expect: Expect,
    /// The protocols the pattern names (its instances per request or key).
    protocols: Vec<ProtocolIx>,
}

/// What a [`PropertySet`] shares.
#[derive(Debug, PartialEq)]
struct Inner {
    properties: Vec<Property>,
    compiled: Vec<PropertyCheck>,
    /// The file's protocol of each `RequestKind` (shutdown, plan).
    kinds: [Option<ProtocolIx>; 2],
    /// Some matcher names one teammate (`agent = "alice"`).
    names_a_teammate: bool,
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

/// The lesson kind's place in `Inner::kinds` (a file protocol's kind has
/// none: `compile` refuses files with protocols of their own).
fn kind_ix(kind: RequestKind) -> Option<usize> {
    match kind {
        RequestKind::Shutdown => Some(0),
        RequestKind::Plan => Some(1),
        RequestKind::File(_) => None,
    }
}

impl PropertySet {
    /// Compiles the properties of `file` for today's engine, which runs the
    /// lesson's protocols: a file with protocols or gates of its own is
    /// refused.
    pub fn compile(file: &ProtocolFile) -> Result<PropertySet, MonitorError> {
        if file.protocols.iter().any(|p| !p.builtin) {
            return Err(MonitorError::OwnProtocols("protocols"));
        }
        if file.gates.iter().any(|g| !g.builtin) {
            return Err(MonitorError::OwnProtocols("gates"));
        }
        if file.properties.is_empty() {
            return Ok(PropertySet::default());
        }
        let by_name = |name: &str| file.protocols.iter().position(|p| p.name == name).map(|i| ProtocolIx(i as u8));
        let kinds = [by_name("shutdown"), by_name("plan")];
        let field = |protocol: ProtocolIx, side: Side, ix: super::model::FieldIx| -> Result<TodayField, MonitorError> {
            let p = &file.protocols[protocol.0 as usize];
            let name = p.fields(side).get(ix.0 as usize).map_or("?", |f| f.name.as_str());
            match (p.name.as_str(), side, name) {
                ("plan", Side::Request, "plan") => Ok(TodayField::Plan),
                ("plan", Side::Response, "feedback") => Ok(TodayField::Feedback),
                ("shutdown", Side::Response, "reason") => Ok(TodayField::Reason),
                _ => Err(MonitorError::UnknownField(name.to_string())),
            }
        };
        let matcher = |m: &Matcher| -> Result<Match, MonitorError> {
            let fields = m
                .fields
                .iter()
                .map(|FieldSetting { protocol, side, field: ix, value }| {
                    let text = match value {
                        FieldValue::Text(s) => s.clone(),
                        FieldValue::Bool(b) => b.to_string(),
                        FieldValue::Int(i) => i.to_string(),
                        FieldValue::Enum(e) => e.to_string(),
                    };
                    Ok((field(*protocol, *side, *ix)?, text))
                })
                .collect::<Result<_, MonitorError>>()?;
            Ok(Match { event: m.event, protocol: m.protocol, agent: m.agent.clone(), tool: m.tool.clone(), fields })
        };
        let mut compiled = Vec::new();
        let mut names_a_teammate = false;
        for p in &file.properties {
            let (pattern, named): (PatternCheck, Vec<&Matcher>) = match &p.pattern {
                Pattern::Absence(m) => (PatternCheck::AtMost(0, matcher(m)?), vec![m]),
                Pattern::AtMost { n, count } => (PatternCheck::AtMost(*n, matcher(count)?), vec![count]),
                Pattern::Existence(m) => (PatternCheck::Existence(matcher(m)?), vec![m]),
                Pattern::Precedence { first, then } => (PatternCheck::Precedence(matcher(first)?, matcher(then)?), vec![first, then]),
                Pattern::Response { trigger, reply } => (PatternCheck::Response(matcher(trigger)?, matcher(reply)?), vec![trigger, reply]),
            };
            names_a_teammate |= named.iter().any(|m| matches!(m.agent, Some(AgentFilter::Teammate(_))));
            let mut protocols: Vec<ProtocolIx> = named.iter().filter_map(|m| m.protocol).collect();
            protocols.sort();
            protocols.dedup();
            let scope = match &p.scope {
                Scope::Run => Scoped::Run,
                Scope::PerAgent => Scoped::PerAgent,
                Scope::PerRequest => Scoped::PerRequest,
                Scope::PerKey(fields) => {
                    let mut keys: Vec<TodayField> = fields.iter().map(|(pr, side, ix)| field(*pr, *side, *ix)).collect::<Result<_, _>>()?;
                    keys.dedup();
                    Scoped::PerKey(keys)
                }
            };
            compiled.push(PropertyCheck { pattern, scope, expect: p.expect, protocols });
        }
        Ok(PropertySet(Some(Arc::new(Inner { properties: file.properties.clone(), compiled, kinds, names_a_teammate }))))
    }

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

    /// A monitor that has seen nothing.
    pub fn monitor(&self) -> Monitor {
        let mut m = Monitor::default();
        let Some(inner) = &self.0 else { return m };
        m.states = inner
            .compiled
            .iter()
            .map(|c| {
                let mut s = PropState::default();
                if let PatternCheck::Existence(_) = c.pattern {
                    match c.scope {
                        Scoped::Run => {
                            s.slots.insert(Key::Run, 0);
                        }
                        Scoped::PerAgent => {
                            s.slots.insert(Key::Agent(AgentName::lead()), 0);
                        }
                        _ => {}
                    }
                }
                s
            })
            .collect();
        m
    }
}

/// A scope instance.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key {
    Run,
    Agent(AgentName),
    /// A request, by its place in creation order: request ids depend on
    /// the interleaving, and the search hashes a request by its place, so
    /// runs that reach the same state by different orders still meet.
    Request(u32),
    Value(String),
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Run => f.write_str("the run"),
            Key::Agent(a) => write!(f, "agent {a}"),
            Key::Request(n) => write!(f, "request number {} of the run", n + 1),
            Key::Value(v) => write!(f, "key '{v}'"),
        }
    }
}

/// One property's state on a path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct PropState {
    /// Judged on this path: nothing more to watch.
    done: bool,
    /// For `eventually` and `sometimes`: broken already, reported (or not
    /// witnessed) at the end.
    broken: Option<String>,
    /// Per instance: the count (`at_most`), a match seen (`existence`,
    /// `precedence`'s `first`), a trigger waiting (`response`).
    slots: BTreeMap<Key, u32>,
}

/// What the monitor remembers of a request.
#[derive(Debug, Clone)]
struct RequestInfo {
    /// Its place in creation order.
    place: u32,
    protocol: Option<ProtocolIx>,
    agent: AgentName,
    plan: Option<String>,
}

/// A message on its way, as a delivery reads it.
#[derive(Debug, Clone)]
struct Sent {
    msg_type: MessageType,
    to: AgentName,
    request: Option<RequestId>,
    plan: Option<String>,
    reason: Option<String>,
    feedback: Option<String>,
}

impl Sent {
    fn of(m: &Message) -> Sent {
        Sent {
            msg_type: m.msg_type,
            to: m.to.clone(),
            request: m.request_id.clone(),
            plan: m.plan.clone(),
            reason: m.reason.clone(),
            feedback: m.feedback.clone(),
        }
    }
}

/// An event as the matchers read it.
struct Seen<'a> {
    kind: EventKind,
    protocol: Option<ProtocolIx>,
    agent: &'a AgentName,
    request: Option<&'a RequestId>,
    /// The request's place in creation order.
    place: Option<u32>,
    tool: Option<&'a str>,
    plan: Option<&'a str>,
    reason: Option<&'a str>,
    feedback: Option<&'a str>,
}

impl Seen<'_> {
    fn field(&self, f: TodayField) -> Option<&str> {
        match f {
            TodayField::Plan => self.plan,
            TodayField::Reason => self.reason,
            TodayField::Feedback => self.feedback,
        }
    }

    fn describe(&self) -> String {
        let what = match self.kind {
            EventKind::Created => "created",
            EventKind::Approved => "approved",
            EventKind::Rejected => "rejected",
            EventKind::Expired => "expired",
            EventKind::Settled => "settled",
            EventKind::Delivered => "delivered",
            EventKind::Tool => "tool",
            EventKind::ModelCall => "model_call",
        };
        let mut s = format!("{what} ({}", self.agent);
        if let Some(t) = self.tool {
            s.push_str(&format!(", {t}"));
        }
        if let Some(r) = self.request {
            s.push_str(&format!(", request {r}"));
        }
        s.push(')');
        s
    }
}

/// The fold of a file's properties over one path's events. Cloned with
/// each search state; empty (and free to clone) with no properties.
#[derive(Debug, Clone, Default)]
pub struct Monitor {
    states: Vec<PropState>,
    roles: BTreeMap<AgentName, String>,
    requests: BTreeMap<RequestId, RequestInfo>,
    /// Messages in inboxes or held by a fault, by message id.
    in_flight: BTreeMap<u64, Sent>,
    /// Messages held by a delay or reorder fault, by the fault's entry.
    held: BTreeMap<u64, Sent>,
}

impl Match {
    fn matches(&self, e: &Seen<'_>, roles: &BTreeMap<AgentName, String>) -> bool {
        let kind = match (self.event, e.kind) {
            (EventKind::Settled, EventKind::Approved | EventKind::Rejected | EventKind::Expired) => true,
            (want, got) => want == got,
        };
        kind && (self.protocol.is_none() || self.protocol == e.protocol)
            && match &self.agent {
                None => true,
                Some(AgentFilter::Lead) => e.agent.is_lead(),
                Some(AgentFilter::Teammate(n)) => e.agent == n,
                Some(AgentFilter::Role(r)) => roles.get(e.agent) == Some(r),
            }
            && self.tool.as_deref().is_none_or(|t| e.tool == Some(t))
            && self.fields.iter().all(|(f, v)| e.field(*f) == Some(v.as_str()))
    }
}

impl Monitor {
    /// Hashes what decides the properties' future on this path: nothing
    /// when the set is empty (a search without file properties hashes its
    /// states as before).
    pub fn hash_into<H: Hasher>(&self, h: &mut H) {
        for s in &self.states {
            (s.done, s.broken.is_some()).hash(h);
            s.slots.hash(h);
        }
    }

    fn message_protocol(&self, set: &Inner, t: MessageType) -> Option<ProtocolIx> {
        match t {
            MessageType::ShutdownRequest | MessageType::ShutdownResponse => set.kinds[0],
            MessageType::PlanApprovalRequest | MessageType::PlanApprovalResponse => set.kinds[1],
            MessageType::Message | MessageType::Broadcast | MessageType::File(_) => None,
        }
    }

    /// Takes in the next entry; returns the properties it breaks (`always`
    /// only: the others are judged at a run's end).
    pub fn observe(&mut self, set: &PropertySet, entry: &TraceEntry) -> Vec<FileFinding> {
        let mut out = Vec::new();
        let Some(inner) = set.0.as_deref() else { return out };
        let seq = entry.seq;
        match &entry.event {
            Event::MemberSpawned { name, role, .. } => {
                self.roles.insert(name.clone(), role.clone());
                let name = name.clone();
                self.begin(inner, |c| matches!(c.scope, Scoped::PerAgent).then(|| Key::Agent(name.clone())));
            }
            Event::RequestCreated { request_id, request_kind, requester, addressee, plan, .. } => {
                let agent = if addressee.is_lead() { requester.clone() } else { addressee.clone() };
                let protocol = kind_ix(*request_kind).and_then(|i| inner.kinds[i]);
                let place = self.requests.len() as u32;
                self.requests.insert(request_id.clone(), RequestInfo { place, protocol, agent, plan: plan.clone() });
                self.begin(inner, |c| {
                    if !(c.protocols.is_empty() || protocol.is_some_and(|p| c.protocols.contains(&p))) {
                        return None;
                    }
                    match &c.scope {
                        Scoped::PerRequest => Some(Key::Request(place)),
                        Scoped::PerKey(keys) if keys.contains(&TodayField::Plan) => plan.clone().map(Key::Value),
                        _ => None,
                    }
                });
                self.request_event(inner, EventKind::Created, request_id, seq, &mut out);
            }
            Event::RequestTransitioned { request_id, to, .. } => {
                let kind = match to {
                    RequestStatus::Approved => Some(EventKind::Approved),
                    RequestStatus::Rejected => Some(EventKind::Rejected),
                    RequestStatus::Pending => None,
                };
                if let Some(kind) = kind {
                    self.request_event(inner, kind, request_id, seq, &mut out);
                }
            }
            Event::ToolCalled { agent, tool, .. } => {
                let seen = Seen {
                    kind: EventKind::Tool,
                    protocol: None,
                    agent,
                    request: None,
                    place: None,
                    tool: Some(tool),
                    plan: None,
                    reason: None,
                    feedback: None,
                };
                step(&mut self.states, inner, &self.roles, &seen, seq, &mut out);
            }
            Event::ModelCalled { agent } => {
                let seen = Seen {
                    kind: EventKind::ModelCall,
                    protocol: None,
                    agent,
                    request: None,
                    place: None,
                    tool: None,
                    plan: None,
                    reason: None,
                    feedback: None,
                };
                step(&mut self.states, inner, &self.roles, &seen, seq, &mut out);
            }
            Event::MessageSent { message } => {
                self.in_flight.insert(seq, Sent::of(message));
            }
            Event::FaultApplied { action: FaultAction::Delay { .. } | FaultAction::Reorder, message, .. } => {
                self.held.insert(seq, Sent::of(message));
            }
            Event::MessageReleased { held } => {
                if let Some(sent) = self.held.remove(held) {
                    self.in_flight.insert(seq, sent);
                }
            }
            Event::InboxDrained { message_ids, .. } => {
                for id in message_ids {
                    let Some(sent) = self.in_flight.remove(&id.0) else { continue };
                    let protocol = self.message_protocol(inner, sent.msg_type);
                    let seen = Seen {
                        kind: EventKind::Delivered,
                        protocol,
                        agent: &sent.to,
                        request: sent.request.as_ref(),
                        place: sent.request.as_ref().and_then(|r| self.requests.get(r)).map(|i| i.place),
                        tool: None,
                        plan: sent.plan.as_deref(),
                        reason: sent.reason.as_deref(),
                        feedback: sent.feedback.as_deref(),
                    };
                    step(&mut self.states, inner, &self.roles, &seen, seq, &mut out);
                }
            }
            _ => {}
        }
        out
    }

    /// Opens the scope instance `key_of` gives for each `existence`
    /// property (an instance that must see a match).
    fn begin(&mut self, inner: &Inner, key_of: impl Fn(&PropertyCheck) -> Option<Key>) {
        for (c, s) in inner.compiled.iter().zip(&mut self.states) {
            if s.done || !matches!(c.pattern, PatternCheck::Existence(_)) {
                continue;
            }
            if let Some(k) = key_of(c) {
                s.slots.entry(k).or_insert(0);
            }
        }
    }

    fn request_event(&mut self, inner: &Inner, kind: EventKind, id: &RequestId, seq: u64, out: &mut Vec<FileFinding>) {
        let Some(info) = self.requests.get(id) else { return };
        let seen = Seen {
            kind,
            protocol: info.protocol,
            agent: &info.agent,
            request: Some(id),
            place: Some(info.place),
            tool: None,
            plan: info.plan.as_deref(),
            reason: None,
            feedback: None,
        };
        step(&mut self.states, inner, &self.roles, &seen, seq, out);
    }

    /// At the end of a run (a terminal state): the properties it breaks,
    /// and the `sometimes` ones it shows.
    pub fn at_end(&mut self, set: &PropertySet, seq: u64) -> Vec<FileFinding> {
        let mut out = Vec::new();
        let Some(inner) = set.0.as_deref() else { return out };
        let requests = &self.requests;
        // A request named by its id (its instance is its place).
        let name = |k: &Key| match k {
            Key::Request(n) => {
                requests.iter().find(|(_, r)| r.place == *n).map_or_else(|| k.to_string(), |(id, _)| format!("request {id}"))
            }
            _ => k.to_string(),
        };
        for (i, (c, s)) in inner.compiled.iter().zip(&mut self.states).enumerate() {
            if s.done {
                continue;
            }
            let missing = match c.pattern {
                PatternCheck::Existence(_) => {
                    s.slots.iter().find(|(_, v)| **v == 0).map(|(k, _)| format!("no match in {} by the run's end", name(k)))
                }
                PatternCheck::Response(..) => {
                    s.slots.iter().find(|(_, v)| **v > 0).map(|(k, _)| format!("a trigger in {} has no reply by the run's end", name(k)))
                }
                _ => None,
            };
            let broken = s.broken.take().or(missing);
            s.done = true;
            s.slots.clear();
            match (c.expect, broken) {
                (Expect::Sometimes, None) => {
                    out.push(FileFinding { property: i, seq, detail: "the run ends with the property kept".into() });
                }
                (Expect::Sometimes, Some(_)) => {}
                (_, Some(detail)) => out.push(FileFinding { property: i, seq, detail }),
                (_, None) => {}
            }
        }
        out
    }
}

/// The scope instance an event falls in, if any.
fn key(scope: &Scoped, e: &Seen<'_>) -> Option<Key> {
    match scope {
        Scoped::Run => Some(Key::Run),
        Scoped::PerAgent => Some(Key::Agent(e.agent.clone())),
        Scoped::PerRequest => e.place.map(Key::Request),
        Scoped::PerKey(fields) => fields.iter().find_map(|f| e.field(*f)).map(|v| Key::Value(v.to_string())),
    }
}

/// Feeds one event to every property.
fn step(states: &mut [PropState], inner: &Inner, roles: &BTreeMap<AgentName, String>, e: &Seen<'_>, seq: u64, out: &mut Vec<FileFinding>) {
    for (i, (c, s)) in inner.compiled.iter().zip(states.iter_mut()).enumerate() {
        if s.done || s.broken.is_some() {
            continue;
        }
        let m = |m: &Match| m.matches(e, roles);
        let relevant = match &c.pattern {
            PatternCheck::AtMost(_, a) | PatternCheck::Existence(a) => m(a),
            PatternCheck::Precedence(a, b) | PatternCheck::Response(a, b) => m(a) || m(b),
        };
        if !relevant {
            continue;
        }
        let Some(k) = key(&c.scope, e) else { continue };
        let broken = match &c.pattern {
            PatternCheck::AtMost(n, _) => {
                let count = s.slots.entry(k.clone()).or_insert(0);
                *count += 1;
                (*count > *n).then(|| {
                    if *n == 0 {
                        format!("{} in {k}, where none may happen", e.describe())
                    } else {
                        format!("{} is match number {} in {k}, over the bound of {n}", e.describe(), *count)
                    }
                })
            }
            PatternCheck::Existence(_) => {
                s.slots.insert(k, 1);
                None
            }
            PatternCheck::Precedence(first, then) => {
                let seen_first = s.slots.get(&k).is_some_and(|v| *v > 0);
                let broken = (m(then) && !seen_first).then(|| format!("{} in {k} with no `first` event before it", e.describe()));
                if m(first) {
                    s.slots.insert(k, 1);
                }
                broken
            }
            PatternCheck::Response(trigger, reply) => {
                if m(reply) {
                    s.slots.remove(&k);
                }
                if m(trigger) {
                    s.slots.insert(k, 1);
                }
                None
            }
        };
        let Some(detail) = broken else { continue };
        s.slots.clear();
        match c.expect {
            Expect::Always => {
                s.done = true;
                out.push(FileFinding { property: i, seq, detail });
            }
            Expect::Eventually | Expect::Sometimes => s.broken = Some(detail),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Millis;

    fn name(s: &str) -> AgentName {
        if s == "lead" {
            AgentName::lead()
        } else {
            AgentName::parse(s).unwrap()
        }
    }

    fn id(n: u32) -> RequestId {
        RequestId::parse(&format!("{n:08x}")).unwrap()
    }

    fn spawn(who: &str, role: &str) -> Event {
        Event::MemberSpawned { name: name(who), role: role.into(), plan_mode: false }
    }

    /// A shutdown request from the lead to `to`.
    fn ask(n: u32, to: &str) -> Event {
        Event::RequestCreated {
            request_id: id(n),
            request_kind: RequestKind::Shutdown,
            requester: AgentName::lead(),
            addressee: name(to),
            plan: None,
            fields: Default::default(),
        }
    }

    /// A plan request of `from` with this plan.
    fn plan(n: u32, from: &str, text: &str) -> Event {
        Event::RequestCreated {
            request_id: id(n),
            request_kind: RequestKind::Plan,
            requester: name(from),
            addressee: AgentName::lead(),
            plan: Some(text.into()),
            fields: Default::default(),
        }
    }

    fn answer(n: u32, kind: RequestKind, by: &str, approve: bool) -> Event {
        let to = if approve { RequestStatus::Approved } else { RequestStatus::Rejected };
        Event::RequestTransitioned { request_id: id(n), request_kind: kind, by: name(by), from: RequestStatus::Pending, to }
    }

    fn tool(who: &str, t: &str) -> Event {
        Event::ToolCalled { agent: name(who), tool_use_id: "t".into(), tool: t.into(), input: serde_json::Value::Null }
    }

    fn model(who: &str) -> Event {
        Event::ModelCalled { agent: name(who) }
    }

    /// The findings of the one property `property` (TOML lines) over
    /// `events`: those found on the way (by seq), then those at the end.
    fn judge(property: &str, events: Vec<Event>) -> (Vec<u64>, Vec<String>) {
        let text = format!("format = 1\nuse = [\"lesson\"]\n[[property]]\nname = \"p\"\n{property}\n");
        let file = crate::protocol::file::load(&text).unwrap_or_else(|e| panic!("{}", e.render("test.toml")));
        let set = PropertySet::compile(&file).unwrap();
        let mut m = set.monitor();
        let mut on_the_way = Vec::new();
        for (seq, event) in (0..).zip(events) {
            on_the_way.extend(m.observe(&set, &TraceEntry { seq, time: Millis(seq), event }).into_iter().map(|f| f.seq));
        }
        let at_end = m.at_end(&set, 99).into_iter().map(|f| f.detail).collect();
        (on_the_way, at_end)
    }

    const SCOPES: [&str; 4] = ["run", "per_agent", "per_request", "per_key:plan"];

    #[test]
    fn absence_is_broken_at_the_first_match_in_each_scope() {
        for scope in SCOPES {
            let p = format!(
                "expect = \"always\"\npattern = \"absence\"\nmatch = {{ event = \"rejected\", protocol = \"plan\" }}\nscope = \"{scope}\""
            );
            let ok = vec![spawn("alice", "coder"), plan(1, "alice", "a"), answer(1, RequestKind::Plan, "lead", true)];
            assert_eq!(judge(&p, ok), (vec![], vec![]), "{scope}");
            let bad = vec![spawn("alice", "coder"), plan(1, "alice", "a"), answer(1, RequestKind::Plan, "lead", false), model("alice")];
            assert_eq!(judge(&p, bad).0, vec![2], "{scope}");
        }
    }

    #[test]
    fn at_most_counts_each_scope_instance_apart() {
        let p = |scope: &str| {
            format!("expect = \"always\"\npattern = \"at_most\"\nn = 1\ncount = {{ event = \"approved\", protocol = \"plan\" }}\nscope = \"{scope}\"")
        };
        // alice's plan "a" and bob's plan "b", both approved once.
        let two = vec![
            plan(1, "alice", "a"),
            answer(1, RequestKind::Plan, "lead", true),
            plan(2, "bob", "b"),
            answer(2, RequestKind::Plan, "lead", true),
        ];
        // Over the whole run, two approvals are one too many; per agent,
        // request or plan text they are one each.
        assert_eq!(judge(&p("run"), two.clone()).0, vec![3]);
        for scope in ["per_agent", "per_request", "per_key:plan"] {
            assert_eq!(judge(&p(scope), two.clone()).0, Vec::<u64>::new(), "{scope}");
        }
        // alice twice, with the same plan: per agent and per key it is
        // broken; each request is still approved once.
        let again = vec![
            plan(1, "alice", "a"),
            answer(1, RequestKind::Plan, "lead", true),
            plan(2, "alice", "a"),
            answer(2, RequestKind::Plan, "lead", true),
        ];
        assert_eq!(judge(&p("per_agent"), again.clone()).0, vec![3]);
        assert_eq!(judge(&p("per_key:plan"), again.clone()).0, vec![3]);
        assert_eq!(judge(&p("per_request"), again).0, Vec::<u64>::new());
    }

    #[test]
    fn existence_needs_a_match_in_every_instance_by_the_run_end() {
        let p = |scope: &str| {
            format!(
                "expect = \"always\"\npattern = \"existence\"\nmatch = {{ event = \"settled\", protocol = \"plan\" }}\nscope = \"{scope}\""
            )
        };
        let settled = |n, who: &str, text: &str| vec![plan(n, who, text), answer(n, RequestKind::Plan, "lead", false)];
        // Nothing at all: the run has no match; no teammate, request or key
        // exists that would need one, but the lead is an agent.
        assert_eq!(judge(&p("run"), vec![]).1.len(), 1);
        assert_eq!(judge(&p("per_agent"), vec![]).1.len(), 1, "the lead needs one too");
        assert_eq!(judge(&p("per_request"), vec![]).1, Vec::<String>::new());
        assert_eq!(judge(&p("per_key:plan"), vec![]).1, Vec::<String>::new());
        // alice's plan settles, bob's ("b") stays pending.
        let mut events = vec![spawn("alice", "coder"), spawn("bob", "coder")];
        events.extend(settled(1, "alice", "a"));
        events.push(plan(2, "bob", "b"));
        assert_eq!(judge(&p("run"), events.clone()).1, Vec::<String>::new());
        for scope in ["per_request", "per_key:plan"] {
            let (way, end) = judge(&p(scope), events.clone());
            assert!(way.is_empty() && end.len() == 1, "{scope}: {end:?}");
        }
        // Per agent, bob (and the lead) had no plan of theirs settle; alice did.
        let end = judge(&p("per_agent"), events).1;
        assert!(end.len() == 1 && end[0].contains("agent bob"), "{end:?}");
    }

    #[test]
    fn precedence_allows_then_only_strictly_after_a_first_of_the_same_instance() {
        let p = |scope: &str| {
            format!(
                "expect = \"always\"\npattern = \"precedence\"\nfirst = {{ event = \"created\", protocol = \"plan\" }}\n\
                 then = {{ event = \"approved\", protocol = \"plan\" }}\nscope = \"{scope}\""
            )
        };
        let ordered = vec![plan(1, "alice", "a"), answer(1, RequestKind::Plan, "lead", true)];
        for scope in SCOPES {
            assert_eq!(judge(&p(scope), ordered.clone()), (vec![], vec![]), "{scope}");
        }
        // With `first` a tool call, the approval needs that call before it.
        let first_then = p("run").replace("event = \"created\", protocol = \"plan\"", "event = \"tool\", tool = \"plan_approval\"");
        assert_eq!(judge(&first_then, ordered.clone()).0, vec![1], "no plan_approval tool ran before the approval");
        let mut with_tool = vec![tool("lead", "plan_approval")];
        with_tool.extend(ordered.clone());
        assert_eq!(judge(&first_then, with_tool).0, Vec::<u64>::new());
        // Per agent: the lead's tool call does not count for alice.
        let per_agent = first_then.replace("scope = \"run\"", "scope = \"per_agent\"");
        let mut lead_only = vec![tool("lead", "plan_approval")];
        lead_only.extend(ordered.clone());
        assert_eq!(judge(&per_agent, lead_only).0, vec![2]);
        let mut alices = vec![tool("alice", "plan_approval")];
        alices.extend(ordered);
        assert_eq!(judge(&per_agent, alices).0, Vec::<u64>::new());
    }

    #[test]
    fn precedence_per_request_and_per_key_read_the_request_of_each_event() {
        let p = |scope: &str| {
            format!(
                "expect = \"always\"\npattern = \"precedence\"\nfirst = {{ event = \"rejected\", protocol = \"plan\" }}\n\
                 then = {{ event = \"approved\", protocol = \"plan\" }}\nscope = \"{scope}\""
            )
        };
        // Plan "a" rejected as request 1, then approved as request 2.
        let events = vec![
            plan(1, "alice", "a"),
            answer(1, RequestKind::Plan, "lead", false),
            plan(2, "alice", "a"),
            answer(2, RequestKind::Plan, "lead", true),
        ];
        assert_eq!(judge(&p("per_key:plan"), events.clone()).0, Vec::<u64>::new(), "the same plan text was rejected first");
        assert_eq!(judge(&p("per_request"), events).0, vec![3], "request 2 itself was never rejected");
    }

    #[test]
    fn response_needs_a_reply_after_every_trigger_of_each_instance_by_the_run_end() {
        let p = |scope: &str| {
            format!(
                "expect = \"eventually\"\npattern = \"response\"\ntrigger = {{ event = \"created\", protocol = \"plan\" }}\n\
                 reply = {{ event = \"settled\", protocol = \"plan\" }}\nscope = \"{scope}\""
            )
        };
        let answered = vec![plan(1, "alice", "a"), answer(1, RequestKind::Plan, "lead", true)];
        for scope in SCOPES {
            assert_eq!(judge(&p(scope), answered.clone()), (vec![], vec![]), "{scope}");
        }
        // bob's plan "b" waits: broken in every scope but... every scope.
        let mut waiting = answered.clone();
        waiting.push(plan(2, "bob", "b"));
        for scope in SCOPES {
            let (way, end) = judge(&p(scope), waiting.clone());
            assert!(way.is_empty() && end.len() == 1, "{scope}: {end:?}");
        }
        // Over the run, alice's later answer answers bob's trigger too; per
        // request it does not.
        let crossed = vec![plan(1, "alice", "a"), plan(2, "bob", "b"), answer(1, RequestKind::Plan, "lead", true)];
        assert_eq!(judge(&p("run"), crossed.clone()).1, Vec::<String>::new());
        assert_eq!(judge(&p("per_request"), crossed.clone()).1.len(), 1);
        assert_eq!(judge(&p("per_agent"), crossed).1.len(), 1, "bob's request is bob's");
    }

    #[test]
    fn eventually_reports_a_broken_safety_pattern_at_the_run_end_and_always_at_the_event() {
        let p = |expect: &str| {
            format!(
                "expect = \"{expect}\"\npattern = \"absence\"\nmatch = {{ event = \"model_call\", agent = \"alice\" }}\nscope = \"run\""
            )
        };
        let events = vec![spawn("alice", "coder"), model("alice"), model("alice")];
        assert_eq!(judge(&p("always"), events.clone()), (vec![1], vec![]));
        let (way, end) = judge(&p("eventually"), events);
        assert!(way.is_empty() && end.len() == 1, "{end:?}");
    }

    #[test]
    fn sometimes_is_shown_at_a_run_end_that_keeps_the_property_and_never_on_the_way() {
        let p =
            "expect = \"sometimes\"\npattern = \"existence\"\nmatch = { event = \"rejected\", protocol = \"shutdown\" }\nscope = \"run\"";
        let shown = vec![spawn("alice", "coder"), ask(1, "alice"), answer(1, RequestKind::Shutdown, "alice", false)];
        let (way, end) = judge(p, shown);
        assert!(way.is_empty() && end.len() == 1, "a witness at the end: {end:?}");
        assert_eq!(judge(p, vec![ask(1, "alice"), answer(1, RequestKind::Shutdown, "alice", true)]), (vec![], vec![]));
    }

    #[test]
    fn role_and_tool_filters_read_the_role_spawned_with_and_the_tool_called() {
        let p = "expect = \"always\"\npattern = \"absence\"\nmatch = { event = \"tool\", tool = \"write_file\", agent = \"role:tester\" }\nscope = \"run\"";
        let events = vec![
            spawn("alice", "coder"),
            spawn("bob", "tester"),
            tool("alice", "write_file"),
            tool("bob", "read_file"),
            tool("bob", "write_file"),
        ];
        assert_eq!(judge(p, events).0, vec![4]);
    }

    #[test]
    fn a_field_filter_reads_the_plan_of_the_request_on_each_of_its_events() {
        let p = "expect = \"always\"\npattern = \"absence\"\nmatch = { event = \"approved\", protocol = \"plan\", plan = \"rm -rf\" }\nscope = \"run\"";
        let events = vec![
            plan(1, "alice", "small steps"),
            answer(1, RequestKind::Plan, "lead", true),
            plan(2, "alice", "rm -rf"),
            answer(2, RequestKind::Plan, "lead", true),
        ];
        assert_eq!(judge(p, events).0, vec![3]);
    }

    #[test]
    fn a_delivery_is_each_message_read_from_an_inbox_held_ones_once_released() {
        let p = "expect = \"always\"\npattern = \"at_most\"\nn = 1\ncount = { event = \"delivered\", protocol = \"shutdown\" }\nscope = \"per_request\"";
        let mut request = Message::new(MessageType::ShutdownRequest, AgentName::lead(), name("alice"), "stop", Millis(0));
        request.request_id = Some(id(1));
        let drained = |ids: &[u64]| Event::InboxDrained {
            agent: name("alice"),
            message_ids: ids.iter().map(|i| crate::protocol::MessageId(*i)).collect(),
        };
        // Sent at 1, held by a delay at 2, released at 3 (its id): two copies read.
        let events = vec![
            ask(1, "alice"),
            Event::MessageSent { message: request.clone() },
            Event::FaultApplied { action: FaultAction::Delay { ms: 5 }, message: request, rule: None },
            Event::MessageReleased { held: 2 },
            drained(&[1]),
            drained(&[3]),
        ];
        assert_eq!(judge(p, events.clone()).0, vec![5], "the released copy is the second delivery");
        assert_eq!(judge(p, events[..5].to_vec()).0, Vec::<u64>::new());
    }

    #[test]
    fn a_file_with_protocols_of_its_own_is_refused_for_todays_engine() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/protocol/file/examples/review-gate.toml")).unwrap();
        let file = crate::protocol::file::load(&text).unwrap();
        assert!(matches!(PropertySet::compile(&file), Err(MonitorError::OwnProtocols(_))));
    }

    #[test]
    fn a_property_naming_one_teammate_tells_alike_teammates_apart_and_a_role_or_the_lead_does_not() {
        let naming = |who: &str| {
            let text = format!(
                "format = 1\n[[property]]\nname = \"p\"\nexpect = \"always\"\npattern = \"absence\"\n\
                 match = {{ event = \"model_call\", agent = \"{who}\" }}\nscope = \"run\"\n"
            );
            PropertySet::compile(&crate::protocol::file::load(&text).unwrap()).unwrap().names_a_teammate()
        };
        assert!(naming("bob"));
        assert!(!naming("role:coder"));
        assert!(!naming("lead"));
    }

    #[test]
    fn no_properties_make_an_empty_set_whose_monitor_hashes_nothing() {
        let file = crate::protocol::file::load("format = 1\nuse = [\"lesson\"]\n").unwrap();
        let set = PropertySet::compile(&file).unwrap();
        assert!(set.is_empty());
        let m = set.monitor();
        let mut h = crate::protocol::canon::StableHasher::default();
        m.hash_into(&mut h);
        assert_eq!(h.finish(), crate::protocol::canon::StableHasher::default().finish());
    }
}
