//! Compiling a file's `[[property]]` entries once into matchers and
//! patterns over a small view of an event (`PropertySet::compile`). Every
//! name a property uses is resolved here: a protocol to its index, a field
//! to a small slot number with how an event carries it, an enum value to
//! its text; the fold compares integers and values, never names.
//!
//! Owns the compiled shapes; folding them over events is `fold`'s. It must
//! not read events.

use std::sync::Arc;

use super::super::model::{FieldIx, FieldSetting, FieldType, FieldValue, ProtocolFile, ProtocolIx, Side};
use super::super::property::{AgentFilter, EventKind, Expect, Matcher, Pattern, Property, Scope};
use super::{MonitorError, PropertySet};
use crate::protocol::{FieldValue as Value, MessageType, Origin, RequestKind};

/// Where an event carries a field a property reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Source {
    /// The lesson's plan request's text (`plan` on the request and its
    /// message).
    LessonPlan,
    /// The lesson's shutdown response's `reason`.
    LessonReason,
    /// The lesson's plan response's `feedback`.
    LessonFeedback,
    /// A file protocol's typed field, by its name in the message's (or the
    /// request's) `fields`: looked up once per request made and once per
    /// message sent, only for the fields some property reads.
    Named(String),
}

/// A field some property reads: its protocol, side and where an event of
/// that protocol carries it. Its place in `Inner::slots` is its number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Slot {
    pub(super) protocol: ProtocolIx,
    pub(super) side: Side,
    pub(super) source: Source,
}

/// A slot's number.
pub(super) type SlotIx = u8;

/// A compiled matcher.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Match {
    pub(super) event: EventKind,
    pub(super) protocol: Option<ProtocolIx>,
    pub(super) agent: Option<AgentFilter>,
    pub(super) tool: Option<String>,
    /// Each filter: a slot and the value it must hold.
    pub(super) fields: Vec<(SlotIx, Value)>,
}

/// A compiled pattern: absence is `AtMost(0, ..)`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum PatternCheck {
    AtMost(u32, Match),
    Existence(Match),
    Precedence(Match, Match),
    Response(Match, Match),
}

/// A compiled scope.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Scoped {
    Run,
    PerAgent,
    PerRequest,
    /// By the value of the first of these slots an event carries.
    PerKey(Vec<SlotIx>),
}

/// A compiled property.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PropertyCheck {
    pub(super) pattern: PatternCheck,
    pub(super) scope: Scoped,
    pub(super) expect: Expect,
    /// The protocols the pattern names (its instances per request or key).
    pub(super) protocols: Vec<ProtocolIx>,
}

/// What a [`PropertySet`] shares.
#[derive(Debug, PartialEq)]
pub(super) struct Inner {
    pub(super) properties: Vec<Property>,
    pub(super) compiled: Vec<PropertyCheck>,
    /// The file's index of each protocol of the built-in lesson file (by
    /// the lesson file's index), where the file takes it from the lesson: a
    /// lesson kind or type carries the lesson file's index, a file
    /// protocol's its own file's.
    pub(super) lesson: Vec<Option<ProtocolIx>>,
    /// The fields the properties read.
    pub(super) slots: Vec<Slot>,
    /// Some matcher names one teammate (`agent = "alice"`).
    pub(super) names_a_teammate: bool,
}

impl Inner {
    /// The file's protocol a request of `kind` belongs to.
    pub(super) fn protocol_of_kind(&self, kind: RequestKind) -> Option<ProtocolIx> {
        self.in_file(kind.origin(), kind.protocol())
    }

    /// The file's index of protocol `ix` counted in `origin`.
    fn in_file(&self, origin: Origin, ix: Option<ProtocolIx>) -> Option<ProtocolIx> {
        match origin {
            Origin::File => ix,
            Origin::Lesson => self.lesson.get(usize::from(ix?.0)).copied().flatten(),
        }
    }

    /// The file's protocol a message of type `t` belongs to (`None` for a
    /// plain message or broadcast).
    pub(super) fn protocol_of_type(&self, t: MessageType) -> Option<ProtocolIx> {
        match t {
            MessageType::Protocol(f) => self.in_file(f.origin, f.protocol),
            MessageType::Message | MessageType::Broadcast => None,
        }
    }
}

/// Resolves fields to slots, each (protocol, side, field) once.
struct Slots<'a> {
    file: &'a ProtocolFile,
    slots: Vec<Slot>,
    of: Vec<(ProtocolIx, Side, FieldIx)>,
}

impl Slots<'_> {
    fn slot(&mut self, protocol: ProtocolIx, side: Side, field: FieldIx) -> Result<SlotIx, MonitorError> {
        if let Some(i) = self.of.iter().position(|s| *s == (protocol, side, field)) {
            return SlotIx::try_from(i).map_err(|_| MonitorError::TooManyFields);
        }
        let p = self.file.protocols.get(usize::from(protocol.0)).ok_or(MonitorError::Unresolved)?;
        let name = p.fields(side).get(usize::from(field.0)).ok_or(MonitorError::Unresolved)?.name.as_str();
        // The lesson's messages carry their three fields as named members.
        let source = match (p.builtin, p.name.as_str(), side, name) {
            (true, "plan", Side::Request, "plan") => Source::LessonPlan,
            (true, "plan", Side::Response, "feedback") => Source::LessonFeedback,
            (true, "shutdown", Side::Response, "reason") => Source::LessonReason,
            _ => Source::Named(name.to_string()),
        };
        let ix = SlotIx::try_from(self.slots.len()).map_err(|_| MonitorError::TooManyFields)?;
        self.slots.push(Slot { protocol, side, source });
        self.of.push((protocol, side, field));
        Ok(ix)
    }

    /// A filter's value as the field carries it: an enum value by its text.
    fn value(&self, s: &FieldSetting) -> Result<Value, MonitorError> {
        Ok(match &s.value {
            FieldValue::Text(t) => Value::Text(t.clone()),
            FieldValue::Bool(b) => Value::Bool(*b),
            FieldValue::Int(i) => Value::Int(*i),
            FieldValue::Enum(e) => {
                let p = self.file.protocols.get(usize::from(s.protocol.0)).ok_or(MonitorError::Unresolved)?;
                let field = p.fields(s.side).get(usize::from(s.field.0)).ok_or(MonitorError::Unresolved)?;
                let FieldType::Enum(values) = &field.field_type else { return Err(MonitorError::Unresolved) };
                Value::Text(values.get(usize::from(*e)).ok_or(MonitorError::Unresolved)?.clone())
            }
        })
    }

    fn matcher(&mut self, m: &Matcher) -> Result<Match, MonitorError> {
        let mut fields = Vec::with_capacity(m.fields.len());
        for s in &m.fields {
            fields.push((self.slot(s.protocol, s.side, s.field)?, self.value(s)?));
        }
        Ok(Match { event: m.event, protocol: m.protocol, agent: m.agent.clone(), tool: m.tool.clone(), fields })
    }
}

impl PropertySet {
    /// Compiles the properties of `file` over the file's protocols (the
    /// lesson's, when it uses them, and its own): each protocol, field and
    /// enum value resolved once.
    pub fn compile(file: &ProtocolFile) -> Result<PropertySet, MonitorError> {
        if file.properties.is_empty() {
            return Ok(PropertySet::default());
        }
        let builtin = |name: &str| file.protocols.iter().position(|p| p.builtin && p.name == name).map(|i| ProtocolIx(i as u8));
        let lesson = crate::protocol::protocols::lesson_protocols().iter().map(|p| builtin(&p.name)).collect();
        let mut slots = Slots { file, slots: Vec::new(), of: Vec::new() };
        let mut compiled = Vec::new();
        let mut names_a_teammate = false;
        for p in &file.properties {
            let (pattern, named): (PatternCheck, Vec<&Matcher>) = match &p.pattern {
                Pattern::Absence(m) => (PatternCheck::AtMost(0, slots.matcher(m)?), vec![m]),
                Pattern::AtMost { n, count } => (PatternCheck::AtMost(*n, slots.matcher(count)?), vec![count]),
                Pattern::Existence(m) => (PatternCheck::Existence(slots.matcher(m)?), vec![m]),
                Pattern::Precedence { first, then } => {
                    (PatternCheck::Precedence(slots.matcher(first)?, slots.matcher(then)?), vec![first, then])
                }
                Pattern::Response { trigger, reply } => {
                    (PatternCheck::Response(slots.matcher(trigger)?, slots.matcher(reply)?), vec![trigger, reply])
                }
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
                    let mut keys: Vec<SlotIx> =
                        fields.iter().map(|(pr, side, ix)| slots.slot(*pr, *side, *ix)).collect::<Result<_, _>>()?;
                    keys.dedup();
                    Scoped::PerKey(keys)
                }
            };
            compiled.push(PropertyCheck { pattern, scope, expect: p.expect, protocols });
        }
        let inner = Inner { properties: file.properties.clone(), compiled, lesson, slots: slots.slots, names_a_teammate };
        Ok(PropertySet(Some(Arc::new(inner))))
    }

    /// Compiles the properties of `file` to be judged on a built-in
    /// scenario, whose team runs the lesson's protocols only: a file with
    /// protocols or gates of its own is refused (its team is explored with
    /// its own protocols instead).
    pub fn compile_for_lesson(file: &ProtocolFile) -> Result<PropertySet, MonitorError> {
        if file.protocols.iter().any(|p| !p.builtin) {
            return Err(MonitorError::OwnProtocols("protocols"));
        }
        if file.gates.iter().any(|g| !g.builtin) {
            return Err(MonitorError::OwnProtocols("gates"));
        }
        PropertySet::compile(file)
    }
}
