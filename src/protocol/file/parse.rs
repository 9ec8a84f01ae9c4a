//! Reading a protocol file's text into its spec: every table and key of the
//! format (PROTOCOLS.md), with closed vocabularies already typed, names
//! still as written and every value still carrying its span and path.
//! Syntax errors, unknown keys, missing keys, wrong types and words outside
//! a vocabulary are refused here, all of them in one pass.
//!
//! Owns which keys each table has. Cross-references and rules between
//! items are `validate`'s; indices are `resolve`'s.

use toml::de::DeTable;

use super::errors::{FileError, Problems};
use super::model::{Asker, Party, Role, ScriptedAnswer};
use super::property::{EventKind, Expect};
use super::read::{At, Node, Scalar};

/// A field's type, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FieldKind {
    String,
    Bool,
    Int,
    Enum,
}

/// An effect's kind, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EffectKind {
    Exit,
    OpenGate,
    CloseGate,
}

/// A fault's action, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ActionKind {
    Drop,
    Duplicate,
    Delay,
    Reorder,
}

/// A property's pattern, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PatternKind {
    Absence,
    Existence,
    AtMost,
    Precedence,
    Response,
}

impl PatternKind {
    /// The matcher keys the pattern takes.
    pub(crate) fn matcher_keys(self) -> &'static [&'static str] {
        match self {
            PatternKind::Absence | PatternKind::Existence => &["match"],
            PatternKind::AtMost => &["count"],
            PatternKind::Precedence => &["first", "then"],
            PatternKind::Response => &["trigger", "reply"],
        }
    }
}

pub(crate) struct FileSpec {
    pub(crate) format: Option<At<i64>>,
    pub(crate) uses: Vec<At<String>>,
    pub(crate) gates: Vec<GateSpec>,
    pub(crate) protocols: Vec<ProtocolSpec>,
    pub(crate) team: Option<TeamSpec>,
    pub(crate) properties: Vec<PropertySpec>,
}

pub(crate) struct GateSpec {
    pub(crate) name: Option<At<String>>,
    pub(crate) tools: Vec<At<String>>,
}

pub(crate) struct FieldSpec {
    pub(crate) at: At<()>,
    pub(crate) name: Option<At<String>>,
    pub(crate) kind: Option<At<FieldKind>>,
    pub(crate) required: bool,
    pub(crate) content: Option<At<bool>>,
    pub(crate) values: Option<At<Vec<At<String>>>>,
    pub(crate) description: Option<String>,
}

pub(crate) struct EffectSpec {
    pub(crate) at: At<()>,
    pub(crate) effect: Option<At<EffectKind>>,
    pub(crate) gate: Option<At<String>>,
    pub(crate) who: Option<At<Party>>,
}

pub(crate) struct ToolSpec {
    pub(crate) name: Option<At<String>>,
    pub(crate) description: Option<At<String>>,
    pub(crate) result: Option<At<String>>,
}

#[derive(Clone)]
pub(crate) struct ScriptedSpec {
    pub(crate) answer: Option<At<ScriptedAnswer>>,
    pub(crate) rejections: Option<At<i64>>,
}

pub(crate) struct ProtocolSpec {
    pub(crate) name: Option<At<String>>,
    pub(crate) request: Option<At<String>>,
    pub(crate) response: Option<At<String>>,
    pub(crate) from: Option<At<Asker>>,
    pub(crate) to: Option<At<Role>>,
    pub(crate) request_fields: Vec<FieldSpec>,
    pub(crate) request_text: Option<At<String>>,
    pub(crate) response_fields: Vec<FieldSpec>,
    pub(crate) on_approve: Vec<EffectSpec>,
    pub(crate) on_reject: Vec<EffectSpec>,
    pub(crate) one_pending: bool,
    pub(crate) deadline_ms: Option<At<i64>>,
    pub(crate) retries: Option<At<i64>>,
    pub(crate) tools_at: At<()>,
    pub(crate) request_tool: Option<ToolSpec>,
    pub(crate) respond_tool: Option<ToolSpec>,
    pub(crate) status_tool: Option<ToolSpec>,
    pub(crate) scripted: Option<ScriptedSpec>,
}

pub(crate) struct TeammateSpec {
    pub(crate) name: Option<At<String>>,
    pub(crate) role: Option<At<String>>,
    pub(crate) task: Option<At<String>>,
    pub(crate) gates: Vec<At<String>>,
    pub(crate) scripted: Vec<(At<String>, ScriptedSpec)>,
}

pub(crate) struct StepSpec {
    pub(crate) at: At<()>,
    pub(crate) prompt: Option<At<i64>>,
    pub(crate) spawn: Option<At<String>>,
    pub(crate) ask: Option<At<String>>,
    pub(crate) answer: Option<At<String>>,
    pub(crate) list: Option<At<bool>>,
    pub(crate) send: Option<At<String>>,
    pub(crate) to: Option<At<String>>,
    pub(crate) from: Option<At<String>>,
    pub(crate) after: Option<At<String>>,
    pub(crate) until: Option<At<String>>,
    pub(crate) approve: Option<At<bool>>,
    pub(crate) fields: Vec<(At<String>, At<Scalar>)>,
}

pub(crate) struct FaultSpec {
    pub(crate) at: At<()>,
    pub(crate) action: Option<At<ActionKind>>,
    pub(crate) msg_type: Option<At<String>>,
    pub(crate) probability: Option<At<f64>>,
    pub(crate) ms: Option<At<i64>>,
}

pub(crate) struct TeamSpec {
    pub(crate) id: Option<At<String>>,
    pub(crate) title: Option<At<String>>,
    pub(crate) prompts: Vec<At<String>>,
    pub(crate) rules_off: Vec<At<String>>,
    pub(crate) teammates: Vec<TeammateSpec>,
    pub(crate) steps: Vec<StepSpec>,
    pub(crate) faults: Vec<FaultSpec>,
}

pub(crate) struct MatcherSpec {
    pub(crate) event: Option<At<EventKind>>,
    pub(crate) protocol: Option<At<String>>,
    pub(crate) agent: Option<At<String>>,
    pub(crate) tool: Option<At<String>>,
    pub(crate) fields: Vec<(At<String>, At<Scalar>)>,
}

pub(crate) struct PropertySpec {
    pub(crate) name: Option<At<String>>,
    pub(crate) expect: Option<At<Expect>>,
    pub(crate) pattern: Option<At<PatternKind>>,
    pub(crate) scope: Option<At<String>>,
    pub(crate) n: Option<At<i64>>,
    /// The pattern's matchers, by key (`match`, `first`, ...).
    pub(crate) matchers: Vec<(&'static str, MatcherSpec)>,
}

const ROOT_KEYS: &[&str] = &["format", "use", "gate", "protocol", "team", "property"];
const PROTOCOL_KEYS: &[&str] = &[
    "name",
    "request",
    "response",
    "from",
    "to",
    "request_fields",
    "request_text",
    "response_fields",
    "on_approve",
    "on_reject",
    "one_pending_per_addressee",
    "deadline_ms",
    "retries",
    "tools",
    "scripted",
];
const STEP_KEYS: &[&str] = &["prompt", "spawn", "ask", "answer", "list", "send", "to", "from", "after", "until", "approve", "fields"];
const ALL_MATCHER_ROLES: &[&str] = &["match", "count", "first", "then", "trigger", "reply"];

const SCRIPTED: &[(&str, ScriptedAnswer)] = &[
    ("approve", ScriptedAnswer::Approve),
    ("reject", ScriptedAnswer::Reject),
    ("reject_first", ScriptedAnswer::RejectFirst),
    ("by_task", ScriptedAnswer::ByTask),
    ("never", ScriptedAnswer::Never),
];

/// Reads `text`; every mistake goes to `p`. `None` when the text is not
/// TOML at all (its syntax errors are in `p`).
pub(crate) fn parse_file(text: &str, p: &mut Problems<'_>) -> Option<FileSpec> {
    let (root, syntax) = DeTable::parse_recoverable(text);
    let broken = !syntax.is_empty();
    for e in syntax {
        let span = e.span().unwrap_or(0..0);
        p.add(span, "", FileError::Syntax(e.message().trim().to_string()));
    }
    if broken {
        return None;
    }
    let root = Node::root(&root);
    root.only_keys(ROOT_KEYS, p);
    Some(FileSpec {
        format: root.int("format", p),
        uses: root.strings("use", p),
        gates: root.tables("gate", p).iter().map(|g| gate(g, p)).collect(),
        protocols: root.tables("protocol", p).iter().map(|n| protocol(n, p)).collect(),
        team: root.table("team", p).map(|t| team(&t, p)),
        properties: root.tables("property", p).iter().map(|n| property(n, p)).collect(),
    })
}

fn gate(n: &Node<'_, '_>, p: &mut Problems<'_>) -> GateSpec {
    n.only_keys(&["name", "tools"], p);
    let name = n.string("name", p);
    let name = n.require(name, "name", "every gate needs a name", p);
    let tools = n.strings("tools", p);
    if tools.is_empty() {
        p.add(n.span.clone(), n.key_path("tools"), FileError::Invalid("a gate closes at least one tool: list them in `tools`".into()));
    }
    GateSpec { name, tools }
}

fn field(n: &Node<'_, '_>, p: &mut Problems<'_>) -> FieldSpec {
    n.only_keys(&["name", "type", "required", "content", "values", "description"], p);
    let name = n.string("name", p);
    let name = n.require(name, "name", "every field needs a name", p);
    let kinds = [("string", FieldKind::String), ("bool", FieldKind::Bool), ("int", FieldKind::Int), ("enum", FieldKind::Enum)];
    let kind = n.choice("type", &kinds, "string, bool, enum, int", p);
    let kind = n.require(kind, "type", "write one of string, bool, enum, int", p);
    let values = n.enum_values(p);
    FieldSpec {
        at: n.here(),
        name,
        kind,
        required: n.boolean("required", p).is_some_and(|b| b.value),
        content: n.boolean("content", p),
        values,
        description: n.string("description", p).map(|d| d.value),
    }
}

impl Node<'_, '_> {
    /// `values = [...]` with the list's own place.
    fn enum_values(&self, p: &mut Problems<'_>) -> Option<At<Vec<At<String>>>> {
        let list = self.strings("values", p);
        let at = self.value_place("values")?;
        Some(At { value: list, span: at.0, path: at.1 })
    }

    fn value_place(&self, key: &str) -> Option<(std::ops::Range<usize>, String)> {
        self.table.get(key).map(|v| (v.span(), self.key_path(key)))
    }
}

fn effect(n: &Node<'_, '_>, p: &mut Problems<'_>) -> EffectSpec {
    n.only_keys(&["effect", "gate", "who"], p);
    let kinds = [("exit", EffectKind::Exit), ("open_gate", EffectKind::OpenGate), ("close_gate", EffectKind::CloseGate)];
    let effect = n.choice("effect", &kinds, "exit, open_gate, close_gate", p);
    let effect = n.require(effect, "effect", "write one of exit, open_gate, close_gate", p);
    let who = n.choice("who", &[("requester", Party::Requester), ("addressee", Party::Addressee)], "requester, addressee", p);
    let who = n.require(who, "who", "say whom the effect applies to: requester or addressee", p);
    EffectSpec { at: n.here(), effect, gate: n.string("gate", p), who }
}

fn tool(n: &Node<'_, '_>, p: &mut Problems<'_>) -> ToolSpec {
    n.only_keys(&["name", "description", "result"], p);
    let name = n.string("name", p);
    let name = n.require(name, "name", "the model calls a tool by its name", p);
    let description = n.string("description", p);
    let description = n.require(description, "description", "the model reads it to know when to call the tool", p);
    ToolSpec { name, description, result: n.string("result", p) }
}

fn scripted(n: &Node<'_, '_>, p: &mut Problems<'_>) -> ScriptedSpec {
    n.only_keys(&["answer", "rejections"], p);
    let answer = n.choice("answer", SCRIPTED, "approve, reject, reject_first, by_task, never", p);
    let answer = n.require(answer, "answer", "write one of approve, reject, reject_first, by_task, never", p);
    ScriptedSpec { answer, rejections: n.int("rejections", p) }
}

fn protocol(n: &Node<'_, '_>, p: &mut Problems<'_>) -> ProtocolSpec {
    n.only_keys(PROTOCOL_KEYS, p);
    let name = n.string("name", p);
    let request = n.string("request", p);
    let response = n.string("response", p);
    let from = n.choice("from", &[("lead", Asker::Lead), ("teammate", Asker::Teammate), ("any", Asker::Any)], "lead, teammate, any", p);
    let to = n.choice("to", &[("lead", Role::Lead), ("teammate", Role::Teammate)], "lead, teammate", p);
    let tools = n.table("tools", p);
    let (mut request_tool, mut respond_tool, mut status_tool) = (None, None, None);
    if let Some(t) = &tools {
        t.only_keys(&["request", "respond", "status"], p);
        request_tool = t.table("request", p).map(|x| tool(&x, p));
        respond_tool = t.table("respond", p).map(|x| tool(&x, p));
        status_tool = t.table("status", p).map(|x| tool(&x, p));
    }
    let tools_at = tools.as_ref().map_or_else(|| At { value: (), span: n.span.clone(), path: n.key_path("tools") }, Node::here);
    if request_tool.is_none() && tools.as_ref().is_none_or(|t| t.table.get("request").is_none()) {
        p.add(
            tools_at.span.clone(),
            n.key_path("tools.request"),
            FileError::MissingKey {
                key: "tools.request".into(),
                why: "the asking role needs a tool: tools.request = { name, description }",
            },
        );
    }
    ProtocolSpec {
        name: n.require(name, "name", "every protocol needs a name", p),
        request: n.require(request, "request", "name the request's message type, e.g. \"review_request\"", p),
        response: n.require(response, "response", "name the answer's message type, e.g. \"review_response\"", p),
        from: n.require(from, "from", "say who may ask: lead, teammate or any", p),
        to: n.require(to, "to", "say who answers: lead or teammate", p),
        request_fields: n.tables("request_fields", p).iter().map(|f| field(f, p)).collect(),
        request_text: n.string("request_text", p),
        response_fields: n.tables("response_fields", p).iter().map(|f| field(f, p)).collect(),
        on_approve: n.tables("on_approve", p).iter().map(|e| effect(e, p)).collect(),
        on_reject: n.tables("on_reject", p).iter().map(|e| effect(e, p)).collect(),
        one_pending: n.boolean("one_pending_per_addressee", p).is_some_and(|b| b.value),
        deadline_ms: n.int("deadline_ms", p),
        retries: n.int("retries", p),
        tools_at,
        request_tool,
        respond_tool,
        status_tool,
        scripted: n.table("scripted", p).map(|s| scripted(&s, p)),
    }
}

fn team(n: &Node<'_, '_>, p: &mut Problems<'_>) -> TeamSpec {
    n.only_keys(&["id", "title", "prompt", "rules_off", "teammate", "step", "fault"], p);
    let id = n.string("id", p);
    TeamSpec {
        id: n.require(id, "id", "a team needs an id, e.g. id = \"review-gate\"", p),
        title: n.string("title", p),
        prompts: n.string_or_strings("prompt", p),
        rules_off: n.strings("rules_off", p),
        teammates: n.tables("teammate", p).iter().map(|t| teammate(t, p)).collect(),
        steps: n.tables("step", p).iter().map(|s| step(s, p)).collect(),
        faults: n.tables("fault", p).iter().map(|f| fault(f, p)).collect(),
    }
}

fn teammate(n: &Node<'_, '_>, p: &mut Problems<'_>) -> TeammateSpec {
    n.only_keys(&["name", "role", "task", "gates", "scripted"], p);
    let (name, role, task) = (n.string("name", p), n.string("role", p), n.string("task", p));
    let scripted_answers = match n.table("scripted", p) {
        Some(t) => t
            .other_keys(&[])
            .into_iter()
            .filter_map(|(key, v)| match v.get_ref() {
                toml::de::DeValue::Table(table) => Some((key.clone(), scripted(&Node { table, span: v.span(), path: key.path }, p))),
                other => {
                    p.add(
                        v.span(),
                        key.path,
                        FileError::WrongType { expected: "a table { answer = ... }", found: super::read::kind_of(other) },
                    );
                    None
                }
            })
            .collect(),
        None => Vec::new(),
    };
    TeammateSpec {
        name: n.require(name, "name", "every teammate needs a name", p),
        role: n.require(role, "role", "every teammate needs a role, e.g. \"coder\"", p),
        task: n.require(task, "task", "say what the teammate works on", p),
        gates: n.strings("gates", p),
        scripted: scripted_answers,
    }
}

fn step(n: &Node<'_, '_>, p: &mut Problems<'_>) -> StepSpec {
    n.only_keys(STEP_KEYS, p);
    let fields = match n.table("fields", p) {
        Some(t) => t.other_keys(&[]).into_iter().map(|(k, v)| (k.clone(), Node::scalar(v, k.path))).collect(),
        None => Vec::new(),
    };
    StepSpec {
        at: n.here(),
        prompt: n.int("prompt", p),
        spawn: n.string("spawn", p),
        ask: n.string("ask", p),
        answer: n.string("answer", p),
        list: n.boolean("list", p),
        send: n.string("send", p),
        to: n.string("to", p),
        from: n.string("from", p),
        after: n.string("after", p),
        until: n.string("until", p),
        approve: n.boolean("approve", p),
        fields,
    }
}

fn fault(n: &Node<'_, '_>, p: &mut Problems<'_>) -> FaultSpec {
    n.only_keys(&["action", "type", "probability", "ms"], p);
    let actions =
        [("drop", ActionKind::Drop), ("duplicate", ActionKind::Duplicate), ("delay", ActionKind::Delay), ("reorder", ActionKind::Reorder)];
    let action = n.choice("action", &actions, "drop, duplicate, delay, reorder", p);
    FaultSpec {
        at: n.here(),
        action: n.require(action, "action", "write one of drop, duplicate, delay, reorder", p),
        msg_type: n.string("type", p),
        probability: n.number("probability", p),
        ms: n.int("ms", p),
    }
}

const EVENTS: &[(&str, EventKind)] = &[
    ("created", EventKind::Created),
    ("approved", EventKind::Approved),
    ("rejected", EventKind::Rejected),
    ("expired", EventKind::Expired),
    ("settled", EventKind::Settled),
    ("delivered", EventKind::Delivered),
    ("tool", EventKind::Tool),
    ("model_call", EventKind::ModelCall),
];

fn matcher(n: &Node<'_, '_>, p: &mut Problems<'_>) -> MatcherSpec {
    let event = n.choice("event", EVENTS, "created, approved, rejected, expired, settled, delivered, tool, model_call", p);
    let fields =
        n.other_keys(&["event", "protocol", "agent", "tool"]).into_iter().map(|(k, v)| (k.clone(), Node::scalar(v, k.path))).collect();
    MatcherSpec {
        event: n.require(event, "event", "name the event to match, e.g. event = \"created\"", p),
        protocol: n.string("protocol", p),
        agent: n.string("agent", p),
        tool: n.string("tool", p),
        fields,
    }
}

fn property(n: &Node<'_, '_>, p: &mut Problems<'_>) -> PropertySpec {
    let expects = [("always", Expect::Always), ("sometimes", Expect::Sometimes), ("eventually", Expect::Eventually)];
    let patterns = [
        ("absence", PatternKind::Absence),
        ("existence", PatternKind::Existence),
        ("at_most", PatternKind::AtMost),
        ("precedence", PatternKind::Precedence),
        ("response", PatternKind::Response),
    ];
    let name = n.string("name", p);
    let expect = n.choice("expect", &expects, "always, sometimes, eventually", p);
    let pattern = n.choice("pattern", &patterns, "absence, existence, at_most, precedence, response", p);
    let mut known = vec!["name", "expect", "pattern", "scope"];
    let roles: &[&str] = pattern.as_ref().map_or(ALL_MATCHER_ROLES, |k| k.value.matcher_keys());
    known.extend_from_slice(roles);
    if pattern.as_ref().is_none_or(|k| k.value == PatternKind::AtMost) {
        known.push("n");
    }
    n.only_keys(&known, p);
    let mut matchers = Vec::new();
    for role in roles {
        match n.table(role, p) {
            Some(m) => matchers.push((*role, matcher(&m, p))),
            None if pattern.is_some() && n.table.get(*role).is_none() => {
                p.add(n.span.clone(), n.key_path(role), FileError::MissingKey { key: (*role).to_string(), why: "the pattern needs it" });
            }
            None => {}
        }
    }
    let count = n.int("n", p);
    if pattern.as_ref().is_some_and(|k| k.value == PatternKind::AtMost) && count.is_none() {
        n.require(None::<At<i64>>, "n", "at_most needs the bound n", p);
    }
    PropertySpec {
        name: n.require(name, "name", "every property needs a name", p),
        expect: n.require(expect, "expect", "write one of always, sometimes, eventually", p),
        pattern: n.require(pattern, "pattern", "write one of absence, existence, at_most, precedence, response", p),
        scope: n.string("scope", p),
        n: count,
        matchers,
    }
}
