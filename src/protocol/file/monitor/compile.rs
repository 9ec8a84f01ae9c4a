//! Compiling a file's `[[property]]` entries once into matchers and
//! patterns over a small view of an event (`PropertySet::compile`).
//!
//! Owns the compiled shapes; folding them over events is `fold`'s. It must
//! not read events.

use std::sync::Arc;

use super::super::model::{FieldSetting, FieldValue, ProtocolFile, ProtocolIx, Side};
use super::super::property::{AgentFilter, EventKind, Expect, Matcher, Pattern, Property, Scope};
use super::{MonitorError, PropertySet};
use crate::protocol::RequestKind;

/// The fields today's engine carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum TodayField {
    /// The plan request's text.
    Plan,
    /// The shutdown response's reason.
    Reason,
    /// The plan response's feedback.
    Feedback,
}

/// A compiled matcher.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Match {
    pub(super) event: EventKind,
    pub(super) protocol: Option<ProtocolIx>,
    pub(super) agent: Option<AgentFilter>,
    pub(super) tool: Option<String>,
    pub(super) fields: Vec<(TodayField, String)>,
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
    PerKey(Vec<TodayField>),
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
    /// The file's protocol of each `RequestKind` (shutdown, plan).
    pub(super) kinds: [Option<ProtocolIx>; 2],
    /// Some matcher names one teammate (`agent = "alice"`).
    pub(super) names_a_teammate: bool,
}

/// The lesson kind's place in `Inner::kinds` (a file protocol's kind has
/// none: `compile` refuses files with protocols of their own).
pub(super) fn kind_ix(kind: RequestKind) -> Option<usize> {
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
        let field = |protocol: ProtocolIx, side: Side, ix: super::super::model::FieldIx| -> Result<TodayField, MonitorError> {
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
}
