//! Turning a validated spec into the resolved model: the lesson's items
//! first (when used), every name that refers to another item replaced by
//! its index, field values typed, defaults filled in.
//!
//! Owns the mapping only. It runs after `validate` found nothing, so a name
//! that does not resolve is a bug in the validator: it is refused as such
//! (`Unresolved`), never papered over.

use super::model::{
    After, Effect, Field, FieldIx, FieldSetting, FieldType, Gate, GateIx, MessageTypeRef, Protocol, ProtocolFile, ProtocolIx,
    ProtocolTools, RulesOff, Scripted, ScriptedAnswer, Side, Step, StepAction, Team, TeamFault, Teammate, TeammateIx, ToolDef,
};
use super::parse::{
    ActionKind, EffectKind, FieldKind, FieldSpec, FileSpec, MatcherSpec, PatternKind, ProtocolSpec, ScriptedSpec, TeamSpec,
};
use super::property::{AgentFilter, Matcher, Pattern, Property, Scope};
use super::read::{At, Scalar};
use super::validate::Known;
use super::validate_team::{field_value, find_field};
use crate::protocol::{AgentName, FaultAction, Rule, Rules};

/// A name the validator let through that names nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unresolved(pub(crate) String);

type R<T> = Result<T, Unresolved>;

fn need<T>(x: Option<T>, what: &str) -> R<T> {
    x.ok_or_else(|| Unresolved(what.to_string()))
}

fn text(x: &Option<At<String>>, what: &str) -> R<String> {
    need(x.as_ref().map(|a| a.value.clone()), what)
}

fn ix8(i: usize, what: &str) -> R<u8> {
    u8::try_from(i).map_err(|_| Unresolved(format!("more than 255 {what}")))
}

struct Names<'s> {
    known: &'s Known<'s>,
    team: Option<&'s TeamSpec>,
}

impl<'s> Names<'s> {
    fn protocol(&self, name: &str) -> R<(ProtocolIx, &'s ProtocolSpec)> {
        let i = self.known.protocols.iter().position(|(p, _)| p.name.as_ref().is_some_and(|n| n.value == name));
        let i = need(i, &format!("protocol {name}"))?;
        Ok((ProtocolIx(ix8(i, "protocols")?), self.known.protocols[i].0))
    }

    fn gate(&self, name: &str) -> R<GateIx> {
        let i = self.known.gates.iter().position(|(g, _)| g.name.as_ref().is_some_and(|n| n.value == name));
        Ok(GateIx(ix8(need(i, &format!("gate {name}"))?, "gates")?))
    }

    fn teammate(&self, name: &str) -> R<TeammateIx> {
        let team = need(self.team, "team")?;
        let i = team.teammates.iter().position(|t| t.name.as_ref().is_some_and(|n| n.value == name));
        Ok(TeammateIx(ix8(need(i, &format!("teammate {name}"))?, "teammates")?))
    }

    fn setting(&self, protocol: ProtocolIx, pr: &ProtocolSpec, sides: &[Side], k: &At<String>, v: &At<Scalar>) -> R<FieldSetting> {
        let (side, i, f) = need(find_field(pr, sides, &k.value), &format!("field {}", k.value))?;
        let value = need(field_value(f, &v.value), &format!("value of {}", k.value))?;
        Ok(FieldSetting { protocol, side, field: FieldIx(ix8(i, "fields")?), value })
    }
}

/// The resolved file.
pub(crate) fn resolve(file: &FileSpec, known: &Known<'_>, uses_lesson: bool, source: &str) -> R<ProtocolFile> {
    let names = Names { known, team: file.team.as_ref() };
    let gates = known
        .gates
        .iter()
        .map(|(g, builtin)| {
            Ok(Gate { name: text(&g.name, "gate name")?, tools: g.tools.iter().map(|t| t.value.clone()).collect(), builtin: *builtin })
        })
        .collect::<R<Vec<_>>>()?;
    let protocols = known.protocols.iter().map(|(p, builtin)| protocol(p, *builtin, &names)).collect::<R<Vec<_>>>()?;
    let team = file.team.as_ref().map(|t| team(t, &names)).transpose()?;
    let properties = file.properties.iter().map(|p| property(p, &names)).collect::<R<Vec<_>>>()?;
    Ok(ProtocolFile { gates, protocols, team, properties, uses_lesson, text: source.into() })
}

fn field(f: &FieldSpec) -> R<Field> {
    let field_type = match need(f.kind.as_ref(), "field type")?.value {
        FieldKind::String => FieldType::String,
        FieldKind::Bool => FieldType::Bool,
        FieldKind::Int => FieldType::Int,
        FieldKind::Enum => FieldType::Enum(need(f.values.as_ref(), "enum values")?.value.iter().map(|v| v.value.clone()).collect()),
    };
    Ok(Field {
        name: text(&f.name, "field name")?,
        field_type,
        required: f.required,
        content: f.content.as_ref().is_some_and(|c| c.value),
        description: f.description.clone(),
    })
}

fn scripted(s: Option<&ScriptedSpec>) -> Scripted {
    let answer = s.and_then(|s| s.answer.as_ref()).map_or(ScriptedAnswer::Approve, |a| a.value);
    let rejections = s.and_then(|s| s.rejections.as_ref()).map_or(1, |r| u32::try_from(r.value).unwrap_or(1));
    Scripted { answer, rejections }
}

fn protocol(p: &ProtocolSpec, builtin: bool, names: &Names<'_>) -> R<Protocol> {
    let effects = |list: &[super::parse::EffectSpec]| {
        list.iter()
            .map(|e| {
                let who = need(e.who.as_ref(), "who")?.value;
                Ok(match need(e.effect.as_ref(), "effect")?.value {
                    EffectKind::Exit => Effect::Exit(who),
                    EffectKind::OpenGate => Effect::OpenGate(names.gate(&text(&e.gate, "gate")?)?, who),
                    EffectKind::CloseGate => Effect::CloseGate(names.gate(&text(&e.gate, "gate")?)?, who),
                })
            })
            .collect::<R<Vec<_>>>()
    };
    let tool = |t: &super::parse::ToolSpec| {
        Ok(ToolDef {
            name: text(&t.name, "tool name")?,
            description: text(&t.description, "tool description")?,
            result: t.result.as_ref().map(|r| r.value.clone()),
        })
    };
    Ok(Protocol {
        name: text(&p.name, "protocol name")?,
        request_type: text(&p.request, "request type")?,
        response_type: text(&p.response, "response type")?,
        from: need(p.from.as_ref(), "from")?.value,
        to: need(p.to.as_ref(), "to")?.value,
        request_fields: p.request_fields.iter().map(field).collect::<R<_>>()?,
        request_text: p.request_text.as_ref().map(|t| t.value.clone()),
        response_fields: p.response_fields.iter().map(field).collect::<R<_>>()?,
        on_approve: effects(&p.on_approve)?,
        on_reject: effects(&p.on_reject)?,
        one_pending_per_addressee: p.one_pending,
        deadline_ms: p.deadline_ms.as_ref().and_then(|d| u64::try_from(d.value).ok()),
        retries: p.retries.as_ref().map_or(Ok(0), |r| u8::try_from(r.value).map_err(|_| Unresolved("retries".into())))?,
        tools: ProtocolTools {
            request: tool(need(p.request_tool.as_ref(), "request tool")?)?,
            respond: p.respond_tool.as_ref().map(tool).transpose()?,
            status: p.status_tool.as_ref().map(tool).transpose()?,
        },
        scripted: scripted(p.scripted.as_ref()),
        builtin,
    })
}

fn team(t: &TeamSpec, names: &Names<'_>) -> R<Team> {
    let mut rules = RulesOff { rules: Rules::default(), responder_required: true };
    for r in &t.rules_off {
        match Rule::by_name(&r.value) {
            Ok(rule) => rules.rules = rules.rules.with(rule, false),
            Err(_) => rules.responder_required = false,
        }
    }
    let teammates = t
        .teammates
        .iter()
        .map(|m| {
            let name = text(&m.name, "teammate name")?;
            Ok(Teammate {
                name: AgentName::parse(&name).map_err(|_| Unresolved(name.clone()))?,
                role: text(&m.role, "role")?,
                task: text(&m.task, "task")?,
                gates: m.gates.iter().map(|g| names.gate(&g.value)).collect::<R<_>>()?,
                scripted: m.scripted.iter().map(|(k, s)| Ok((names.protocol(&k.value)?.0, scripted(Some(s))))).collect::<R<_>>()?,
            })
        })
        .collect::<R<Vec<_>>>()?;
    let steps = t.steps.iter().map(|s| step(s, names)).collect::<R<Vec<_>>>()?;
    let faults = t
        .faults
        .iter()
        .map(|f| {
            let action = match need(f.action.as_ref(), "action")?.value {
                ActionKind::Drop => FaultAction::Drop,
                ActionKind::Duplicate => FaultAction::Duplicate,
                ActionKind::Reorder => FaultAction::Reorder,
                ActionKind::Delay => FaultAction::Delay { ms: need(f.ms.as_ref().and_then(|m| u64::try_from(m.value).ok()), "ms")? },
            };
            let message_type = f.msg_type.as_ref().map(|t| message_type(&t.value, names)).transpose()?;
            Ok(TeamFault { action, message_type, probability: f.probability.as_ref().map_or(1.0, |p| p.value) })
        })
        .collect::<R<Vec<_>>>()?;
    Ok(Team {
        id: text(&t.id, "team id")?,
        title: t.title.as_ref().or(t.id.as_ref()).map(|x| x.value.clone()).unwrap_or_default(),
        prompts: t.prompts.iter().map(|p| p.value.clone()).collect(),
        rules,
        teammates,
        steps,
        faults,
    })
}

fn message_type(t: &str, names: &Names<'_>) -> R<MessageTypeRef> {
    match t {
        "message" => return Ok(MessageTypeRef::Message),
        "broadcast" => return Ok(MessageTypeRef::Broadcast),
        _ => {}
    }
    for (i, (p, _)) in names.known.protocols.iter().enumerate() {
        for (side, x) in [(Side::Request, &p.request), (Side::Response, &p.response)] {
            if x.as_ref().is_some_and(|x| x.value == t) {
                return Ok(MessageTypeRef::Protocol(ProtocolIx(ix8(i, "protocols")?), side));
            }
        }
    }
    Err(Unresolved(format!("message type {t}")))
}

fn step(s: &super::parse::StepSpec, names: &Names<'_>) -> R<Step> {
    let prompt = s.prompt.as_ref().map_or(Ok(0), |n| u8::try_from(n.value - 1).map_err(|_| Unresolved("prompt".into())))?;
    let action = if let Some(n) = &s.spawn {
        StepAction::Spawn(names.teammate(&n.value)?)
    } else if s.list.is_some() {
        StepAction::ListTeammates
    } else if let Some(content) = &s.send {
        StepAction::Send { to: names.teammate(&text(&s.to, "to")?)?, content: content.value.clone() }
    } else if let Some(n) = &s.ask {
        let (protocol, pr) = names.protocol(&n.value)?;
        let after = match s.after.as_ref().map(|a| a.value.split_once(':')) {
            None => None,
            Some(Some(("settled", p))) => Some(After::Settled(names.protocol(p)?.0)),
            Some(Some(("message", t))) => Some(After::MessageFrom(names.teammate(t)?)),
            Some(_) => return Err(Unresolved("after".into())),
        };
        StepAction::Ask {
            protocol,
            to: s.to.as_ref().map(|t| names.teammate(&t.value)).transpose()?,
            after,
            until_approved: s.until.is_some(),
            fields: s.fields.iter().map(|(k, v)| names.setting(protocol, pr, &[Side::Request], k, v)).collect::<R<_>>()?,
        }
    } else if let Some(n) = &s.answer {
        let (protocol, pr) = names.protocol(&n.value)?;
        StepAction::Answer {
            protocol,
            from: names.teammate(&text(&s.from, "from")?)?,
            approve: need(s.approve.as_ref(), "approve")?.value,
            fields: s.fields.iter().map(|(k, v)| names.setting(protocol, pr, &[Side::Response], k, v)).collect::<R<_>>()?,
        }
    } else {
        return Err(Unresolved("step action".into()));
    };
    Ok(Step { prompt, action })
}

fn matcher(m: &MatcherSpec, names: &Names<'_>) -> R<Matcher> {
    let protocol = m.protocol.as_ref().map(|p| names.protocol(&p.value)).transpose()?;
    let agent = m.agent.as_ref().map(|a| match a.value.strip_prefix("role:") {
        Some(role) => Ok(AgentFilter::Role(role.to_string())),
        None if a.value == "lead" => Ok(AgentFilter::Lead),
        None => AgentName::parse(&a.value).map(AgentFilter::Teammate).map_err(|_| Unresolved(a.value.clone())),
    });
    let fields = match protocol {
        Some((ix, pr)) => m.fields.iter().map(|(k, v)| names.setting(ix, pr, &[Side::Request, Side::Response], k, v)).collect::<R<_>>()?,
        None => Vec::new(),
    };
    Ok(Matcher {
        event: need(m.event.as_ref(), "event")?.value,
        protocol: protocol.map(|p| p.0),
        agent: agent.transpose()?,
        tool: m.tool.as_ref().map(|t| t.value.clone()),
        fields,
    })
}

fn property(p: &super::parse::PropertySpec, names: &Names<'_>) -> R<Property> {
    let get = |key: &str| -> R<Matcher> {
        let m = p.matchers.iter().find(|(k, _)| *k == key).map(|(_, m)| m);
        matcher(need(m, key)?, names)
    };
    let pattern = match need(p.pattern.as_ref(), "pattern")?.value {
        PatternKind::Absence => Pattern::Absence(get("match")?),
        PatternKind::Existence => Pattern::Existence(get("match")?),
        PatternKind::AtMost => {
            Pattern::AtMost { n: u32::try_from(need(p.n.as_ref(), "n")?.value).map_err(|_| Unresolved("n".into()))?, count: get("count")? }
        }
        PatternKind::Precedence => Pattern::Precedence { first: get("first")?, then: get("then")? },
        PatternKind::Response => Pattern::Response { trigger: get("trigger")?, reply: get("reply")? },
    };
    let scope = match p.scope.as_ref().map(|s| s.value.as_str()) {
        None | Some("run") => Scope::Run,
        Some("per_agent") => Scope::PerAgent,
        Some("per_request") => Scope::PerRequest,
        Some(s) => {
            let field = need(s.strip_prefix("per_key:"), "scope")?;
            let mut at = Vec::new();
            for (_, m) in &p.matchers {
                let Some(pn) = &m.protocol else { continue };
                let (ix, pr) = names.protocol(&pn.value)?;
                let (side, i, _) = need(find_field(pr, &[Side::Request, Side::Response], field), field)?;
                let entry = (ix, side, FieldIx(ix8(i, "fields")?));
                if !at.contains(&entry) {
                    at.push(entry);
                }
            }
            Scope::PerKey(at)
        }
    };
    Ok(Property { name: text(&p.name, "property name")?, expect: need(p.expect.as_ref(), "expect")?.value, pattern, scope })
}
