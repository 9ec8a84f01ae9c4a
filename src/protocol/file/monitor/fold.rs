//! Folding compiled properties over one path's trace events: the
//! `Monitor` a search state carries, its counters per scope instance, and
//! the findings at an event or at a run's end.
//!
//! Owns the fold; the matchers are `compile`'s. It must not run agents or
//! search.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use super::super::model::{ProtocolIx, Side};
use super::super::property::{AgentFilter, EventKind, Expect};
use super::compile::{Inner, Match, PatternCheck, PropertyCheck, Scoped, SlotIx, Source};
use super::{FileFinding, PropertySet};
use crate::protocol::{AgentName, Event, FaultAction, FieldValue as Value, Fields, Message, RequestId, RequestStatus, TraceEntry};

impl PropertySet {
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
    /// A field's value (`per_key`).
    Value(Value),
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
    /// Its request fields that properties read.
    values: Values,
}

/// The values of the fields some property reads, by slot (empty, and
/// allocating nothing, when no property reads a field).
type Values = Vec<(SlotIx, Value)>;

/// The lesson's three fields, as a lesson message or request carries them.
#[derive(Clone, Copy, Default)]
struct LessonFields<'a> {
    plan: Option<&'a str>,
    reason: Option<&'a str>,
    feedback: Option<&'a str>,
}

/// The values of the slots of `protocol`'s `side` in an event that carries
/// `lesson` and `fields`.
fn values_of(inner: &Inner, protocol: Option<ProtocolIx>, side: Side, lesson: LessonFields<'_>, fields: &Fields) -> Values {
    let Some(protocol) = protocol else { return Values::new() };
    let mut out = Values::new();
    for (i, slot) in inner.slots.iter().enumerate() {
        if slot.protocol != protocol || slot.side != side {
            continue;
        }
        let value = match &slot.source {
            Source::LessonPlan => lesson.plan.map(|t| Value::Text(t.to_string())),
            Source::LessonReason => lesson.reason.map(|t| Value::Text(t.to_string())),
            Source::LessonFeedback => lesson.feedback.map(|t| Value::Text(t.to_string())),
            Source::Named(name) => fields.get(name).cloned(),
        };
        if let (Some(v), Ok(i)) = (value, SlotIx::try_from(i)) {
            out.push((i, v));
        }
    }
    out
}

/// A message on its way, as a delivery reads it.
#[derive(Debug, Clone)]
struct Sent {
    protocol: Option<ProtocolIx>,
    to: AgentName,
    request: Option<RequestId>,
    values: Values,
}

impl Sent {
    fn of(inner: &Inner, m: &Message) -> Sent {
        let protocol = inner.protocol_of_type(m.msg_type);
        let side = if m.msg_type.is_response() { Side::Response } else { Side::Request };
        let lesson = LessonFields { plan: m.plan.as_deref(), reason: m.reason.as_deref(), feedback: m.feedback.as_deref() };
        Sent { protocol, to: m.to.clone(), request: m.request_id.clone(), values: values_of(inner, protocol, side, lesson, &m.fields) }
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
    /// The fields it carries that properties read.
    values: &'a [(SlotIx, Value)],
}

impl Seen<'_> {
    fn field(&self, slot: SlotIx) -> Option<&Value> {
        self.values.iter().find(|(s, _)| *s == slot).map(|(_, v)| v)
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
            && self.fields.iter().all(|(slot, v)| e.field(*slot) == Some(v))
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
            Event::RequestCreated { request_id, request_kind, requester, addressee, plan, fields } => {
                let agent = if addressee.is_lead() { requester.clone() } else { addressee.clone() };
                let protocol = inner.protocol_of_kind(*request_kind);
                let place = self.requests.len() as u32;
                let lesson = LessonFields { plan: plan.as_deref(), ..LessonFields::default() };
                let values = values_of(inner, protocol, Side::Request, lesson, fields);
                self.begin(inner, |c| {
                    if !(c.protocols.is_empty() || protocol.is_some_and(|p| c.protocols.contains(&p))) {
                        return None;
                    }
                    match &c.scope {
                        Scoped::PerRequest => Some(Key::Request(place)),
                        Scoped::PerKey(keys) => {
                            keys.iter().find_map(|k| values.iter().find(|(s, _)| s == k)).map(|(_, v)| Key::Value(v.clone()))
                        }
                        _ => None,
                    }
                });
                self.requests.insert(request_id.clone(), RequestInfo { place, protocol, agent, values });
                self.request_event(inner, EventKind::Created, request_id, seq, &mut out);
            }
            Event::RequestExpired { request_id, .. } => self.request_event(inner, EventKind::Expired, request_id, seq, &mut out),
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
                let seen = Seen { kind: EventKind::Tool, protocol: None, agent, request: None, place: None, tool: Some(tool), values: &[] };
                step(&mut self.states, inner, &self.roles, &seen, seq, &mut out);
            }
            Event::ModelCalled { agent } => {
                let seen = Seen { kind: EventKind::ModelCall, protocol: None, agent, request: None, place: None, tool: None, values: &[] };
                step(&mut self.states, inner, &self.roles, &seen, seq, &mut out);
            }
            Event::MessageSent { message } => {
                self.in_flight.insert(seq, Sent::of(inner, message));
            }
            Event::FaultApplied { action: FaultAction::Delay { .. } | FaultAction::Reorder, message, .. } => {
                self.held.insert(seq, Sent::of(inner, message));
            }
            Event::MessageReleased { held } => {
                if let Some(sent) = self.held.remove(held) {
                    self.in_flight.insert(seq, sent);
                }
            }
            Event::InboxDrained { message_ids, .. } => {
                for id in message_ids {
                    let Some(sent) = self.in_flight.remove(&id.0) else { continue };
                    let seen = Seen {
                        kind: EventKind::Delivered,
                        protocol: sent.protocol,
                        agent: &sent.to,
                        request: sent.request.as_ref(),
                        place: sent.request.as_ref().and_then(|r| self.requests.get(r)).map(|i| i.place),
                        tool: None,
                        values: &sent.values,
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
            values: &info.values,
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
        Scoped::PerKey(slots) => slots.iter().find_map(|s| e.field(*s)).map(|v| Key::Value(v.clone())),
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
