//! How two protocol files differ where a trace's meaning depends on them:
//! the refusal a trace gets when it is read (imported, replayed, forked)
//! under another file than the one it ran under, naming the first
//! difference ("protocol claim has no response field 'note'").
//!
//! Owns the comparison and its one error type. What is compared is what
//! the events of a trace are read and replayed by: whether the lesson's
//! protocols are in, each of the file's own gates (its tools) and
//! protocols (message types, who asks and answers, fields, effects, one
//! pending per addressee, deadline, retries, tool names), matched by name.
//! Not compared: comments and layout, descriptions, the scripted answers,
//! the team and the properties — a trace replays the same under a file
//! that differs only there (and checking new properties against an old
//! trace is a use). It must not load files (`load`) or touch traces.

use std::fmt;

use super::model::{Effect, Field, FieldType, Gate, Party, Protocol, ProtocolFile, Side};

/// A trace read under another protocol file than the one it ran under.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("this trace ran under {recorded} ({summary}); the file loaded now differs: {difference}")]
pub struct FileMismatch {
    /// The file the trace ran under, in words (`protocol file 'task-claim'`,
    /// `the lesson's protocols`).
    pub recorded: String,
    /// What the trace's file holds where the two differ, in words
    /// (`protocol claim with fields task, note`).
    pub summary: String,
    /// The first difference, said of the file loaded now.
    pub difference: Difference,
}

/// The first way the file loaded now differs from the trace's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Difference {
    /// One uses the lesson's protocols, the other does not.
    #[error("{}", if *.now { "it uses the lesson's protocols (use = [\"lesson\"]), the trace's file does not" } else { "it does not use the lesson's protocols (use = [\"lesson\"])" })]
    Lesson {
        /// Whether the file loaded now uses them.
        now: bool,
    },
    /// A protocol of the trace's file is not in the file loaded now.
    #[error("it has no protocol {0}")]
    MissingProtocol(String),
    /// The file loaded now has a protocol the trace's file lacks.
    #[error("it has a protocol {0} the trace's file does not have")]
    ExtraProtocol(String),
    /// A field of the trace's protocol is not in the file loaded now.
    #[error("protocol {protocol} has no {side} field '{field}'")]
    MissingField {
        /// The protocol.
        protocol: String,
        /// `request` or `response`.
        side: &'static str,
        /// The field.
        field: String,
    },
    /// The file loaded now declares a field the trace's does not.
    #[error("protocol {protocol} has a {side} field '{field}' the trace's file does not have")]
    ExtraField {
        /// The protocol.
        protocol: String,
        /// `request` or `response`.
        side: &'static str,
        /// The field.
        field: String,
    },
    /// A field of both differs in type, in being required or in being the
    /// message's content.
    #[error("the {side} field '{field}' of protocol {protocol} is {now}, not {was}")]
    FieldChanged {
        /// The protocol.
        protocol: String,
        /// `request` or `response`.
        side: &'static str,
        /// The field.
        field: String,
        /// The trace's field, in words.
        was: String,
        /// The field now, in words.
        now: String,
    },
    /// Another property of a protocol of both differs.
    #[error("protocol {protocol} has {what} {now}, not {was}")]
    ProtocolChanged {
        /// The protocol.
        protocol: String,
        /// What differs (`deadline_ms`, `request type`, ...).
        what: &'static str,
        /// Its value in the trace's file.
        was: String,
        /// Its value now.
        now: String,
    },
    /// A gate of the trace's file is not in the file loaded now.
    #[error("it has no gate {0}")]
    MissingGate(String),
    /// The file loaded now has a gate the trace's file lacks.
    #[error("it has a gate {0} the trace's file does not have")]
    ExtraGate(String),
    /// A gate of both closes other tools.
    #[error("gate {gate} closes {now}, not {was}")]
    GateChanged {
        /// The gate.
        gate: String,
        /// The tools it closed in the trace's file.
        was: String,
        /// The tools it closes now.
        now: String,
    },
}

/// The protocols a run reads its events by: a file, or the lesson's own
/// two (a team given no file).
#[derive(Debug, Clone, Copy)]
pub enum Under<'f> {
    /// The lesson's protocols only.
    Lesson,
    /// A loaded file.
    File(&'f ProtocolFile),
}

impl<'f> Under<'f> {
    fn uses_lesson(self) -> bool {
        match self {
            Under::Lesson => true,
            Under::File(f) => f.uses_lesson,
        }
    }

    fn own_protocols(self) -> Vec<&'f Protocol> {
        match self {
            Under::Lesson => Vec::new(),
            Under::File(f) => f.protocols.iter().filter(|p| !p.builtin).collect(),
        }
    }

    fn own_gates(self) -> Vec<&'f Gate> {
        match self {
            Under::Lesson => Vec::new(),
            Under::File(f) => f.gates.iter().filter(|g| !g.builtin).collect(),
        }
    }

    fn gate_name(self, g: super::model::GateIx) -> String {
        match self {
            Under::Lesson => String::new(),
            Under::File(f) => f.gates.get(usize::from(g.0)).map(|g| g.name.clone()).unwrap_or_default(),
        }
    }

    /// The file in words, for a refusal.
    fn words(self) -> String {
        match self {
            Under::File(f) if f.has_own_protocols() => format!("protocol file '{}'", f.name()),
            _ => "the lesson's protocols".to_string(),
        }
    }

    /// What it holds, in a few words.
    fn summary(self) -> String {
        let protocols = self.own_protocols().iter().map(|p| p.name.as_str()).collect::<Vec<_>>();
        let mut parts = Vec::new();
        if self.uses_lesson() {
            parts.push("the lesson's shutdown and plan".to_string());
        }
        match protocols.as_slice() {
            [] => {}
            [one] => parts.push(format!("protocol {one}")),
            many => parts.push(format!("protocols {}", many.join(", "))),
        }
        if parts.is_empty() {
            "no protocols".to_string()
        } else {
            parts.join(" and ")
        }
    }
}

/// `Ok` when a trace recorded under `recorded` reads the same under `now`;
/// otherwise the first difference, in file order of `recorded` (then what
/// `now` adds).
pub fn compare(recorded: Under<'_>, now: Under<'_>) -> Result<(), Box<FileMismatch>> {
    let mismatch = |summary: String, difference| Box::new(FileMismatch { recorded: recorded.words(), summary, difference });
    if recorded.uses_lesson() != now.uses_lesson() {
        return Err(mismatch(recorded.summary(), Difference::Lesson { now: now.uses_lesson() }));
    }
    let (was_gates, now_gates) = (recorded.own_gates(), now.own_gates());
    for g in &was_gates {
        match now_gates.iter().find(|n| n.name == g.name) {
            None => return Err(mismatch(gate_summary(g), Difference::MissingGate(g.name.clone()))),
            Some(n) if n.tools != g.tools => {
                let difference = Difference::GateChanged { gate: g.name.clone(), was: g.tools.join(", "), now: n.tools.join(", ") };
                return Err(mismatch(gate_summary(g), difference));
            }
            Some(_) => {}
        }
    }
    if let Some(extra) = now_gates.iter().find(|n| !was_gates.iter().any(|g| g.name == n.name)) {
        return Err(mismatch(recorded.summary(), Difference::ExtraGate(extra.name.clone())));
    }
    let (was_protocols, now_protocols) = (recorded.own_protocols(), now.own_protocols());
    for p in &was_protocols {
        let Some(n) = now_protocols.iter().find(|n| n.name == p.name) else {
            return Err(mismatch(protocol_summary(p), Difference::MissingProtocol(p.name.clone())));
        };
        if let Some(difference) = protocol_difference(p, recorded, n, now) {
            return Err(mismatch(protocol_summary(p), difference));
        }
    }
    if let Some(extra) = now_protocols.iter().find(|n| !was_protocols.iter().any(|p| p.name == n.name)) {
        return Err(mismatch(recorded.summary(), Difference::ExtraProtocol(extra.name.clone())));
    }
    Ok(())
}

fn gate_summary(g: &Gate) -> String {
    format!("gate {} closing {}", g.name, g.tools.join(", "))
}

/// `protocol claim with fields task, note`.
fn protocol_summary(p: &Protocol) -> String {
    let fields = p.request_fields.iter().chain(&p.response_fields).map(|f| f.name.as_str()).collect::<Vec<_>>();
    match fields.as_slice() {
        [] => format!("protocol {} with no fields", p.name),
        [one] => format!("protocol {} with field {one}", p.name),
        many => format!("protocol {} with fields {}", p.name, many.join(", ")),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Request => "request",
        Side::Response => "response",
    }
}

/// A field in words: `a required enum (parser, lexer, docs)`.
fn field_words(f: &Field) -> String {
    let kind = match &f.field_type {
        FieldType::String => "string".to_string(),
        FieldType::Bool => "bool".to_string(),
        FieldType::Int => "int".to_string(),
        FieldType::Enum(values) => format!("enum ({})", values.join(", ")),
    };
    let required = if f.required { "a required " } else { "an optional " };
    let content = if f.content { ", the message's content" } else { "" };
    format!("{required}{kind}{content}")
}

fn effects_words(effects: &[Effect], under: Under<'_>) -> String {
    let party = |p: Party| match p {
        Party::Requester => "requester",
        Party::Addressee => "addressee",
    };
    let words = effects
        .iter()
        .map(|e| match *e {
            Effect::Exit(p) => format!("exit ({})", party(p)),
            Effect::OpenGate(g, p) => format!("open_gate {} ({})", under.gate_name(g), party(p)),
            Effect::CloseGate(g, p) => format!("close_gate {} ({})", under.gate_name(g), party(p)),
        })
        .collect::<Vec<_>>();
    if words.is_empty() {
        "none".to_string()
    } else {
        words.join(", ")
    }
}

struct Shown<T>(T);

impl fmt::Display for Shown<Option<u64>> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(ms) => write!(f, "{ms}"),
            None => write!(f, "none"),
        }
    }
}

fn protocol_difference(was: &Protocol, was_under: Under<'_>, now: &Protocol, now_under: Under<'_>) -> Option<Difference> {
    let tool = |t: Option<&super::model::ToolDef>| t.map_or_else(|| "none".to_string(), |t| t.name.clone());
    let plain: [(&'static str, String, String); 11] = [
        ("request type", was.request_type.clone(), now.request_type.clone()),
        ("response type", was.response_type.clone(), now.response_type.clone()),
        ("from", was.from.name().to_string(), now.from.name().to_string()),
        ("to", was.to.name().to_string(), now.to.name().to_string()),
        ("one_pending_per_addressee", was.one_pending_per_addressee.to_string(), now.one_pending_per_addressee.to_string()),
        ("deadline_ms", Shown(was.deadline_ms).to_string(), Shown(now.deadline_ms).to_string()),
        ("retries", was.retries.to_string(), now.retries.to_string()),
        ("request tool", was.tools.request.name.clone(), now.tools.request.name.clone()),
        ("respond tool", tool(was.tools.respond.as_ref()), tool(now.tools.respond.as_ref())),
        ("status tool", tool(was.tools.status.as_ref()), tool(now.tools.status.as_ref())),
        ("on_approve", effects_words(&was.on_approve, was_under), effects_words(&now.on_approve, now_under)),
    ];
    let on_reject = ("on_reject", effects_words(&was.on_reject, was_under), effects_words(&now.on_reject, now_under));
    for (what, a, b) in plain.into_iter().chain([on_reject]) {
        if a != b {
            return Some(Difference::ProtocolChanged { protocol: was.name.clone(), what, was: a, now: b });
        }
    }
    for side in [Side::Request, Side::Response] {
        let (a, b) = (was.fields(side), now.fields(side));
        for f in a {
            let difference = match b.iter().find(|g| g.name == f.name) {
                None => Difference::MissingField { protocol: was.name.clone(), side: side_name(side), field: f.name.clone() },
                Some(g) if field_words(g) != field_words(f) => Difference::FieldChanged {
                    protocol: was.name.clone(),
                    side: side_name(side),
                    field: f.name.clone(),
                    was: field_words(f),
                    now: field_words(g),
                },
                Some(_) => continue,
            };
            return Some(difference);
        }
        if let Some(g) = b.iter().find(|g| !a.iter().any(|f| f.name == g.name)) {
            return Some(Difference::ExtraField { protocol: was.name.clone(), side: side_name(side), field: g.name.clone() });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::file::{builtin, load};

    fn claim(edit: impl Fn(String) -> String) -> ProtocolFile {
        let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == "task-claim").unwrap();
        load(&edit(text.to_string())).unwrap()
    }

    #[test]
    fn a_file_compares_equal_to_itself_and_to_a_copy_that_differs_only_in_comments_team_and_descriptions() {
        let a = claim(|t| t);
        let b = claim(|t| t.replace("# (c) Task claim", "# another comment").replace("Claim a task from the lead", "Claim it"));
        assert_eq!(compare(Under::File(&a), Under::File(&a)), Ok(()));
        assert_eq!(compare(Under::File(&a), Under::File(&b)), Ok(()));
        assert_eq!(compare(Under::Lesson, Under::Lesson), Ok(()));
    }

    #[test]
    fn a_missing_field_is_named_with_the_protocol_it_belongs_to() {
        let a = claim(|t| t);
        let b = claim(|t| {
            t.replace(r#"response_fields = [{ name = "note", type = "string", content = true }]"#, "response_fields = []")
                .replace(r#"fields = { note = "ann has the parser; take the lexer." }"#, "")
        });
        let err = compare(Under::File(&a), Under::File(&b)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "this trace ran under protocol file 'task-claim' (protocol claim with fields task, note); \
             the file loaded now differs: protocol claim has no response field 'note'"
        );
        let err = compare(Under::File(&b), Under::File(&a)).unwrap_err();
        assert_eq!(err.difference, Difference::ExtraField { protocol: "claim".into(), side: "response", field: "note".into() });
    }

    #[test]
    fn a_changed_value_names_what_it_was_and_what_it_is() {
        let a = claim(|t| t);
        let b = claim(|t| t.replace(r#""lexer", "docs""#, r#""lexer""#));
        let err = compare(Under::File(&a), Under::File(&b)).unwrap_err();
        assert!(err.to_string().ends_with(
            "the request field 'task' of protocol claim is a required enum (parser, lexer), not a required enum (parser, lexer, docs)"
        ));
        let c = claim(|t| t.replace("scripted = { answer = \"approve\" }", "deadline_ms = 500\nscripted = { answer = \"approve\" }"));
        let err = compare(Under::File(&a), Under::File(&c)).unwrap_err();
        assert_eq!(
            err.difference,
            Difference::ProtocolChanged { protocol: "claim".into(), what: "deadline_ms", was: "none".into(), now: "500".into() }
        );
    }

    #[test]
    fn a_protocol_the_other_file_lacks_is_named_either_way() {
        let a = claim(|t| t);
        let err = compare(Under::File(&a), Under::Lesson).unwrap_err();
        assert_eq!(err.difference, Difference::Lesson { now: true });
        let renamed = claim(|t| t.replace("name = \"claim\"", "name = \"grab\"").replace("= \"claim\"", "= \"grab\""));
        let err = compare(Under::File(&a), Under::File(&renamed)).unwrap_err();
        assert_eq!(err.difference, Difference::MissingProtocol("claim".into()));
        assert!(err.to_string().contains("it has no protocol claim"), "{err}");
        let both = claim(|t| t.replace("format = 1\n", "format = 1\nuse = [\"lesson\"]\n"));
        let err = compare(Under::Lesson, Under::File(&both)).unwrap_err();
        assert_eq!(err.difference, Difference::ExtraProtocol("claim".into()));
        assert!(err.to_string().starts_with("this trace ran under the lesson's protocols (the lesson's shutdown and plan)"), "{err}");
    }
}
