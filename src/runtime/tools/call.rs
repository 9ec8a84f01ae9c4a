//! Reading a model's tool call: the tool name checked against the agent's
//! tool set, the JSON input checked against the tool's schema, the result a
//! typed `ToolCall`. The fixed tools are read by hand; every protocol's
//! tools — the lesson's, from the built-in lesson file, as a user's file's —
//! are read against the schema generated from the file (`generated`), each
//! field typed as a `protocol::Fields` value.
//!
//! Owns what a tool call *means*. Running it against the team and the
//! workspace is `dispatch`'s job; the schemas a model sees are `schema`'s.

use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::generated::{ProtocolTool, ToolKind, ADDRESSEE_FIELD};
use super::schema::ToolSet;
use super::{AgentRole, ToolError};
use crate::protocol::file::{Field, FieldType, ProtocolFile, ProtocolIx, Role};
use crate::protocol::{AgentName, FieldValue, Fields, RequestId};

/// A tool call, parsed and typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolCall {
    /// List the workspace.
    ListFiles,
    /// Read a file, optionally only its first `limit` lines.
    ReadFile {
        /// The file, relative to the workspace.
        path: String,
        /// Read only this many lines.
        limit: Option<usize>,
    },
    /// Create or overwrite a file.
    WriteFile {
        /// The file, relative to the workspace.
        path: String,
        /// Its whole new content.
        content: String,
    },
    /// Replace one exact occurrence of text.
    EditFile {
        /// The file, relative to the workspace.
        path: String,
        /// The text to find (exactly once).
        old_text: String,
        /// What replaces it.
        new_text: String,
    },
    /// Lead: start a teammate.
    SpawnTeammate {
        /// Its name.
        name: String,
        /// Its role.
        role: String,
        /// Its first prompt.
        prompt: String,
        /// Whether it must get a plan approved before changing the workspace.
        plan_mode: bool,
    },
    /// Lead: show the roster.
    ListTeammates,
    /// Send a plain message.
    SendMessage {
        /// The recipient.
        to: String,
        /// The text.
        content: String,
        /// The message type, if the model named one.
        msg_type: Option<String>,
    },
    /// Drain one's own inbox.
    ReadInbox,
    /// Lead: message every teammate.
    Broadcast {
        /// The text.
        content: String,
    },
    /// Ask with a protocol (its request tool): the lesson's
    /// `shutdown_request` and teammate `plan_approval` as a file's.
    Ask {
        /// The protocol.
        protocol: ProtocolIx,
        /// The addressee, for a protocol a teammate answers (the tool's
        /// `teammate` input); `None` when the lead answers.
        to: Option<AgentName>,
        /// The request's fields, typed as the file declares them.
        fields: Fields,
    },
    /// Answer a protocol's request (its respond tool; also a status tool
    /// that shares its respond tool's name, called with `approve`).
    Answer {
        /// The protocol.
        protocol: ProtocolIx,
        /// The request answered.
        request_id: RequestId,
        /// Approve or reject.
        approve: bool,
        /// The answer's fields, typed as the file declares them.
        fields: Fields,
    },
    /// Ask a protocol's request's status (its status tool).
    Status {
        /// The protocol.
        protocol: ProtocolIx,
        /// The request asked about.
        request_id: RequestId,
    },
}

impl ToolCall {
    /// True for tools that change the workspace (closed by the plan gate).
    pub fn changes_workspace(&self) -> bool {
        matches!(self, ToolCall::WriteFile { .. } | ToolCall::EditFile { .. })
    }
}

#[derive(Deserialize)]
struct PathIn {
    path: String,
    #[serde(default)]
    limit: Option<usize>,
}
#[derive(Deserialize)]
struct WriteIn {
    path: String,
    content: String,
}
#[derive(Deserialize)]
struct EditIn {
    path: String,
    old_text: String,
    new_text: String,
}
#[derive(Deserialize)]
struct SpawnIn {
    name: String,
    role: String,
    prompt: String,
    #[serde(default)]
    plan_mode: bool,
}
#[derive(Deserialize)]
struct SendIn {
    to: String,
    content: String,
    #[serde(default)]
    msg_type: Option<String>,
}
#[derive(Deserialize)]
struct ContentIn {
    content: String,
}
fn typed<T: for<'de> Deserialize<'de>>(tool: &str, input: &Value) -> Result<T, ToolError> {
    let input = if input.is_null() { json!({}) } else { input.clone() };
    serde_json::from_value(input).map_err(|source| ToolError::BadInput { tool: tool.to_string(), source })
}

/// Parses a tool call for an agent of `role` under the lesson's tools,
/// refusing tools it lacks and inputs that do not fit the schema.
pub fn parse(role: AgentRole, name: &str, input: &Value) -> Result<ToolCall, ToolError> {
    parse_with(ToolSet::lesson(), role, name, input)
}

/// Parses a tool call for an agent of `role` holding `tools`: a protocol's
/// tool (the lesson's as any file's) against its generated schema, a fixed
/// tool as its own.
pub fn parse_with(tools: &ToolSet, role: AgentRole, name: &str, input: &Value) -> Result<ToolCall, ToolError> {
    if !tools.has_tool(role, name) {
        return Err(ToolError::UnknownTool { name: name.to_string(), available: tools.tool_names(role).collect::<Vec<_>>().join(", ") });
    }
    if !input.is_object() && !input.is_null() {
        return Err(ToolError::NotAnObject { tool: name.to_string() });
    }
    match tools.protocol_tool(role, name) {
        Some(tool) => parse_protocol_call(tools.file(), answering(tools.file(), tool, input), name, input),
        None => parse_fixed(tools, role, name, input),
    }
}

/// The tool a call of `tool` stands for: a status tool that shares its
/// name with its protocol's respond tool (the lesson's lead-side
/// `shutdown_response`), called with an `approve`, is an attempt to answer
/// the request — which the team refuses unless the caller is its addressee
/// (anthropics/claude-code#81464); every other call is of `tool`.
fn answering(file: &ProtocolFile, tool: ProtocolTool, input: &Value) -> ProtocolTool {
    let p = file.protocol(tool.protocol);
    let shares_name = p.tools.status.as_ref().zip(p.tools.respond.as_ref()).is_some_and(|(s, r)| s.name == r.name);
    if tool.kind == ToolKind::Status && shares_name && input.get("approve").is_some() {
        ProtocolTool { kind: ToolKind::Respond, ..tool }
    } else {
        tool
    }
}

/// Reads a call of a fixed tool (workspace, team, messages).
fn parse_fixed(tools: &ToolSet, role: AgentRole, name: &str, input: &Value) -> Result<ToolCall, ToolError> {
    Ok(match name {
        "list_files" => ToolCall::ListFiles,
        "read_file" => {
            let i: PathIn = typed(name, input)?;
            ToolCall::ReadFile { path: i.path, limit: i.limit }
        }
        "write_file" => {
            let i: WriteIn = typed(name, input)?;
            ToolCall::WriteFile { path: i.path, content: i.content }
        }
        "edit_file" => {
            let i: EditIn = typed(name, input)?;
            ToolCall::EditFile { path: i.path, old_text: i.old_text, new_text: i.new_text }
        }
        "spawn_teammate" => {
            let i: SpawnIn = typed(name, input)?;
            ToolCall::SpawnTeammate { name: i.name, role: i.role, prompt: i.prompt, plan_mode: i.plan_mode }
        }
        "list_teammates" => ToolCall::ListTeammates,
        "send_message" => {
            let i: SendIn = typed(name, input)?;
            ToolCall::SendMessage { to: i.to, content: i.content, msg_type: i.msg_type }
        }
        "read_inbox" => ToolCall::ReadInbox,
        "broadcast" => ToolCall::Broadcast { content: typed::<ContentIn>(name, input)?.content },
        // Every fixed tool name is matched above; a list and this match
        // drifting apart is refused like any unknown tool.
        _ => {
            return Err(ToolError::UnknownTool { name: name.to_string(), available: tools.tool_names(role).collect::<Vec<_>>().join(", ") })
        }
    })
}

/// Reads a call of a file protocol's tool against the schema `generated`
/// gives it: no key the schema lacks, every required one present, each
/// value of its field's type (an enum's among its values). An optional
/// field given as `null` counts as left out (and an optional content field
/// given as empty text).
pub fn parse_protocol_call(file: &ProtocolFile, tool: ProtocolTool, name: &str, input: &Value) -> Result<ToolCall, ToolError> {
    let p = file.protocol(tool.protocol);
    let empty = Map::new();
    let object = input.as_object().unwrap_or(&empty);
    let (envelope, fields): (&[&str], &[Field]) = match tool.kind {
        ToolKind::Request if p.to == Role::Teammate => (&[ADDRESSEE_FIELD], &p.request_fields),
        ToolKind::Request => (&[], &p.request_fields),
        ToolKind::Respond => (&["request_id", "approve"], &p.response_fields),
        ToolKind::Status => (&["request_id"], &[]),
    };
    let input = Input { tool: name, object };
    if let Some(unknown) = object.keys().find(|k| !envelope.contains(&k.as_str()) && !fields.iter().any(|f| &f.name == *k)) {
        let known: Vec<&str> = envelope.iter().copied().chain(fields.iter().map(|f| f.name.as_str())).collect();
        return Err(ToolError::UnknownField { tool: name.to_string(), field: unknown.clone(), known: known.join(", ") });
    }
    let protocol = tool.protocol;
    Ok(match tool.kind {
        ToolKind::Request => {
            let to = if p.to == Role::Teammate { Some(AgentName::parse(input.text(ADDRESSEE_FIELD)?)?) } else { None };
            ToolCall::Ask { protocol, to, fields: input.fields(fields)? }
        }
        ToolKind::Respond => {
            let request_id = RequestId::parse(input.text("request_id")?)?;
            let approve = input.flag("approve")?;
            ToolCall::Answer { protocol, request_id, approve, fields: input.fields(fields)? }
        }
        ToolKind::Status => ToolCall::Status { protocol, request_id: RequestId::parse(input.text("request_id")?)? },
    })
}

/// A protocol tool's input object, read key by key.
struct Input<'a> {
    tool: &'a str,
    object: &'a Map<String, Value>,
}

impl Input<'_> {
    fn present(&self, key: &str) -> Option<&Value> {
        self.object.get(key).filter(|v| !v.is_null())
    }

    fn missing(&self, key: &str) -> ToolError {
        ToolError::MissingField { tool: self.tool.to_string(), field: key.to_string() }
    }

    fn wrong(&self, key: &str, expected: &'static str) -> ToolError {
        ToolError::WrongType { tool: self.tool.to_string(), field: key.to_string(), expected }
    }

    /// A required text input of the envelope.
    fn text(&self, key: &str) -> Result<&str, ToolError> {
        let v = self.present(key).ok_or_else(|| self.missing(key))?;
        v.as_str().ok_or_else(|| self.wrong(key, "a string"))
    }

    /// A required true/false input of the envelope.
    fn flag(&self, key: &str) -> Result<bool, ToolError> {
        let v = self.present(key).ok_or_else(|| self.missing(key))?;
        v.as_bool().ok_or_else(|| self.wrong(key, "true or false"))
    }

    /// The protocol's fields, each typed, in name order. An optional
    /// content field given as empty text counts as left out, as a hand
    /// answer's empty text does (`Team::answer`): a message carries no
    /// empty content field.
    fn fields(&self, fields: &[Field]) -> Result<Fields, ToolError> {
        let mut values = Fields::new();
        for f in fields {
            let empty_content = |v: &&Value| !f.required && f.content && v.as_str() == Some("");
            match self.present(&f.name).filter(|v| !empty_content(v)) {
                None if f.required => return Err(self.missing(&f.name)),
                None => {}
                Some(v) => values.set(f.name.clone(), self.value(f, v)?),
            }
        }
        Ok(values)
    }

    fn value(&self, f: &Field, v: &Value) -> Result<FieldValue, ToolError> {
        match &f.field_type {
            FieldType::String => v.as_str().map(|s| FieldValue::Text(s.to_string())).ok_or_else(|| self.wrong(&f.name, "a string")),
            FieldType::Bool => v.as_bool().map(FieldValue::Bool).ok_or_else(|| self.wrong(&f.name, "true or false")),
            FieldType::Int => v.as_i64().map(FieldValue::Int).ok_or_else(|| self.wrong(&f.name, "a whole number")),
            FieldType::Enum(values) => match v.as_str() {
                Some(s) if values.iter().any(|e| e == s) => Ok(FieldValue::Text(s.to_string())),
                _ => Err(ToolError::NotInEnum { tool: self.tool.to_string(), field: f.name.clone(), values: values.join(", ") }),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> RequestId {
        RequestId::parse(s).unwrap()
    }

    fn text_fields(key: &str, value: &str) -> Fields {
        [(key.to_string(), FieldValue::Text(value.into()))].into_iter().collect()
    }

    const SHUTDOWN: ProtocolIx = ProtocolIx(0);
    const PLAN: ProtocolIx = ProtocolIx(1);

    #[test]
    fn the_same_tool_name_means_different_things_per_role() {
        let lead = parse(AgentRole::Lead, "plan_approval", &json!({"request_id": "abcd1234", "approve": true})).unwrap();
        assert_eq!(lead, ToolCall::Answer { protocol: PLAN, request_id: id("abcd1234"), approve: true, fields: Fields::new() });
        let mate = parse(AgentRole::Teammate, "plan_approval", &json!({"plan": "p"})).unwrap();
        assert_eq!(mate, ToolCall::Ask { protocol: PLAN, to: None, fields: text_fields("plan", "p") });
        let status = parse(AgentRole::Lead, "shutdown_response", &json!({"request_id": "abcd1234"})).unwrap();
        assert_eq!(status, ToolCall::Status { protocol: SHUTDOWN, request_id: id("abcd1234") });
        let ask = parse(AgentRole::Lead, "shutdown_request", &json!({"teammate": "alice"})).unwrap();
        assert_eq!(ask, ToolCall::Ask { protocol: SHUTDOWN, to: Some(AgentName::parse("alice").unwrap()), fields: Fields::new() });
    }

    #[test]
    fn a_lead_shutdown_response_with_an_answer_is_an_attempt_to_answer_not_a_status_check() {
        let attempt = parse(AgentRole::Lead, "shutdown_response", &json!({"request_id": "abcd1234", "approve": true})).unwrap();
        assert_eq!(attempt, ToolCall::Answer { protocol: SHUTDOWN, request_id: id("abcd1234"), approve: true, fields: Fields::new() });
    }

    #[test]
    fn an_empty_answer_text_is_left_out_as_a_hand_answers_is() {
        let answer = parse(AgentRole::Teammate, "shutdown_response", &json!({"request_id": "abcd1234", "approve": false, "reason": ""}));
        assert_eq!(
            answer.unwrap(),
            ToolCall::Answer { protocol: SHUTDOWN, request_id: id("abcd1234"), approve: false, fields: Fields::new() }
        );
        let answer =
            parse(AgentRole::Teammate, "shutdown_response", &json!({"request_id": "abcd1234", "approve": false, "reason": "busy"}));
        let fields = text_fields("reason", "busy");
        assert_eq!(answer.unwrap(), ToolCall::Answer { protocol: SHUTDOWN, request_id: id("abcd1234"), approve: false, fields });
    }

    #[test]
    fn an_unknown_tool_is_refused_with_the_tools_the_agent_has() {
        let err = parse(AgentRole::Teammate, "spawn_teammate", &json!({})).unwrap_err();
        assert!(matches!(err, ToolError::UnknownTool { .. }));
        assert!(err.to_string().contains("plan_approval"), "{err}");
        assert!(parse(AgentRole::Lead, "bash", &json!({"command": "ls"})).is_err());
    }

    #[test]
    fn a_missing_field_or_wrong_type_is_refused_with_the_reason() {
        let err = parse(AgentRole::Teammate, "shutdown_response", &json!({"approve": true})).unwrap_err();
        assert_eq!(err.to_string(), "invalid input for shutdown_response: missing field 'request_id'");
        let err = parse(AgentRole::Teammate, "shutdown_response", &json!({"request_id": "abcd1234", "approve": "yes"})).unwrap_err();
        assert_eq!(err.to_string(), "invalid input for shutdown_response: field 'approve' must be true or false");
        let err = parse(AgentRole::Lead, "read_file", &json!({})).unwrap_err();
        assert!(err.to_string().contains("missing field `path`"), "{err}");
        let err = parse(AgentRole::Lead, "read_file", &json!("a.txt")).unwrap_err();
        assert!(err.to_string().contains("JSON object"), "{err}");
    }

    #[test]
    fn tools_without_arguments_accept_an_empty_or_missing_input() {
        assert_eq!(parse(AgentRole::Lead, "list_teammates", &Value::Null).unwrap(), ToolCall::ListTeammates);
        assert_eq!(parse(AgentRole::Teammate, "read_inbox", &json!({})).unwrap(), ToolCall::ReadInbox);
    }

    // ---- A file protocol's calls, read against the generated schema ----

    use crate::protocol::file::{builtin, load};

    fn example(name: &str) -> ToolSet {
        let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == name).unwrap();
        ToolSet::new(std::sync::Arc::new(load(text).unwrap()))
    }

    fn refusal(set: &ToolSet, role: AgentRole, tool: &str, input: Value) -> String {
        let err = parse_with(set, role, tool, &input).unwrap_err();
        super::super::ToolOutcome::from(Err(err)).output
    }

    #[test]
    fn a_file_protocols_call_is_typed_against_its_schema() {
        let set = example("task-claim");
        let claim = set.file().protocol_named("claim").unwrap();
        let call = parse_with(&set, AgentRole::Teammate, "claim_task", &json!({"task": "lexer"})).unwrap();
        let fields: Fields = [("task".to_string(), FieldValue::Text("lexer".into()))].into_iter().collect();
        assert_eq!(call, ToolCall::Ask { protocol: claim, to: None, fields });
        let call = parse_with(&set, AgentRole::Lead, "answer_claim", &json!({"request_id": "abcd1234", "approve": false})).unwrap();
        let request_id = RequestId::parse("abcd1234").unwrap();
        assert_eq!(call, ToolCall::Answer { protocol: claim, request_id: request_id.clone(), approve: false, fields: Fields::new() });
        let call = parse_with(&set, AgentRole::Teammate, "claim_status", &json!({"request_id": "abcd1234"})).unwrap();
        assert_eq!(call, ToolCall::Status { protocol: claim, request_id });
    }

    #[test]
    fn an_enum_value_not_in_the_list_is_refused_with_the_values() {
        let set = example("task-claim");
        assert_eq!(
            refusal(&set, AgentRole::Teammate, "claim_task", json!({"task": "tests"})),
            "Error: invalid input for claim_task: field 'task' must be one of parser, lexer, docs"
        );
        let out = refusal(&set, AgentRole::Teammate, "claim_task", json!({"task": 1}));
        assert!(out.ends_with("must be one of parser, lexer, docs"), "{out}");
    }

    #[test]
    fn an_unknown_field_is_refused_with_the_fields_the_tool_takes() {
        let set = example("task-claim");
        assert_eq!(
            refusal(&set, AgentRole::Lead, "answer_claim", json!({"request_id": "abcd1234", "approve": true, "reason": "x"})),
            "Error: invalid input for answer_claim: unknown field 'reason'; its fields are: request_id, approve, note"
        );
    }

    #[test]
    fn a_missing_required_field_is_refused_by_name() {
        let set = example("task-claim");
        assert_eq!(
            refusal(&set, AgentRole::Teammate, "claim_task", json!({})),
            "Error: invalid input for claim_task: missing field 'task'"
        );
        assert_eq!(
            refusal(&set, AgentRole::Teammate, "claim_task", Value::Null),
            "Error: invalid input for claim_task: missing field 'task'"
        );
        assert_eq!(
            refusal(&set, AgentRole::Lead, "answer_claim", json!({"request_id": "abcd1234"})),
            "Error: invalid input for answer_claim: missing field 'approve'"
        );
        let shutdown = example("deadline-retry");
        assert_eq!(
            refusal(&shutdown, AgentRole::Lead, "shutdown_request", json!({})),
            "Error: invalid input for shutdown_request: missing field 'teammate'"
        );
    }

    #[test]
    fn a_value_of_the_wrong_type_is_refused_with_the_type_it_must_be() {
        let set = example("task-claim");
        assert_eq!(
            refusal(&set, AgentRole::Lead, "answer_claim", json!({"request_id": "abcd1234", "approve": "yes"})),
            "Error: invalid input for answer_claim: field 'approve' must be true or false"
        );
        assert_eq!(
            refusal(&set, AgentRole::Lead, "answer_claim", json!({"request_id": "abcd1234", "approve": true, "note": 3})),
            "Error: invalid input for answer_claim: field 'note' must be a string"
        );
        let out = refusal(&set, AgentRole::Teammate, "claim_status", json!({"request_id": "nope"}));
        assert!(out.contains("is not a request_id"), "{out}");
        let out = refusal(&set, AgentRole::Teammate, "claim_task", json!(["parser"]));
        assert!(out.contains("must be a JSON object"), "{out}");
    }

    #[test]
    fn a_file_without_the_lesson_gives_no_lesson_tool() {
        let set = example("task-claim");
        let out = refusal(&set, AgentRole::Lead, "shutdown_request", json!({"teammate": "ann"}));
        assert!(out.starts_with("Error: unknown tool 'shutdown_request'; your tools are: list_files,"), "{out}");
        assert!(out.ends_with("answer_claim"), "{out}");
    }

    #[test]
    fn a_file_using_the_lesson_reads_the_lessons_tools_at_their_index_in_the_file() {
        let set = example("review-gate");
        assert!(set.file().uses_lesson);
        let (shutdown, plan) = (set.file().protocol_named("shutdown").unwrap(), set.file().protocol_named("plan").unwrap());
        let call = parse_with(&set, AgentRole::Lead, "shutdown_response", &json!({"request_id": "abcd1234"})).unwrap();
        assert_eq!(call, ToolCall::Status { protocol: shutdown, request_id: id("abcd1234") });
        let call = parse_with(&set, AgentRole::Teammate, "plan_approval", &json!({"plan": "p"})).unwrap();
        assert_eq!(call, ToolCall::Ask { protocol: plan, to: None, fields: text_fields("plan", "p") });
    }

    /// proptest is a native dev-dependency (the wasm32 build does not
    /// link it).
    #[cfg(not(target_arch = "wasm32"))]
    mod round_trip {
        use super::*;
        use proptest::prelude::*;

        /// Every protocol tool of the lesson file and of every example that
        /// loads, both roles.
        fn example_protocol_tools() -> Vec<(ToolSet, AgentRole, String, ProtocolTool)> {
            let mut tools = Vec::new();
            for text in std::iter::once(builtin::LESSON).chain(builtin::EXAMPLES.iter().map(|(_, t)| *t)) {
                let Ok(file) = load(text) else { continue };
                let file = std::sync::Arc::new(file);
                for role in [AgentRole::Lead, AgentRole::Teammate] {
                    let set = ToolSet::new(std::sync::Arc::clone(&file));
                    let names: Vec<String> = set.tool_names(role).map(str::to_string).collect();
                    for name in names {
                        if let Some(t) = set.protocol_tool(role, &name) {
                            tools.push((ToolSet::new(std::sync::Arc::clone(&file)), role, name, t));
                        }
                    }
                }
            }
            tools
        }

        proptest! {
            #[test]
            fn a_call_built_from_a_schemas_own_values_parses_back_to_the_same_fields(
                text in "\\PC{0,12}", number in any::<i64>(), flag in any::<bool>(), pick in any::<u64>(),
            ) {
                let tools = example_protocol_tools();
                prop_assert!(tools.len() >= 8, "the examples' own protocols give tools to check");
                for (set, role, name, tool) in &tools {
                    let schema = set.schemas(*role).iter().find(|s| &s.name == name).unwrap().input_schema.clone();
                    let required: Vec<&str> = schema["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
                    let mut input = Map::new();
                    let mut want = Fields::new();
                    for (i, (key, prop)) in schema["properties"].as_object().unwrap().iter().enumerate() {
                        // Optional properties are left out now and then.
                        if !required.contains(&key.as_str()) && (pick >> (i % 64)) & 1 == 1 {
                            continue;
                        }
                        let (json_value, value) = match (key.as_str(), prop["type"].as_str().unwrap()) {
                            ("teammate", _) => (json!("alice"), None),
                            ("request_id", _) => (json!("a1b2c3d4"), None),
                            ("approve", _) => (json!(flag), None),
                            (_, "string") => match prop["enum"].as_array() {
                                Some(values) => {
                                    let v = values[(pick % values.len() as u64) as usize].as_str().unwrap().to_string();
                                    (json!(v), Some(FieldValue::Text(v)))
                                }
                                None => (json!(text), Some(FieldValue::Text(text.clone()))),
                            },
                            (_, "boolean") => (json!(flag), Some(FieldValue::Bool(flag))),
                            (_, "integer") => (json!(number), Some(FieldValue::Int(number))),
                            (_, other) => panic!("{name}: unexpected type {other}"),
                        };
                        input.insert(key.clone(), json_value);
                        let p = set.file().protocol(tool.protocol);
                        let side: &[Field] = match tool.kind {
                            ToolKind::Request => &p.request_fields,
                            ToolKind::Respond => &p.response_fields,
                            ToolKind::Status => &[],
                        };
                        let declared = side.iter().find(|f| f.name == *key);
                        // An optional content field given as empty text is left out.
                        let left_out = |v: &FieldValue| {
                            declared.is_some_and(|f| f.content && !f.required) && *v == FieldValue::Text(String::new())
                        };
                        if let Some(v) = value.filter(|v| !left_out(v)) {
                            want.set(key.clone(), v);
                        }
                    }
                    let call = parse_with(set, *role, name, &Value::Object(input)).unwrap();
                    let got = match call {
                        ToolCall::Ask { protocol, fields, to } => {
                            prop_assert_eq!(to.is_some(), set.file().protocol(protocol).to == Role::Teammate);
                            prop_assert_eq!(tool.kind, ToolKind::Request);
                            fields
                        }
                        ToolCall::Answer { approve, fields, .. } => {
                            prop_assert_eq!(approve, flag);
                            prop_assert_eq!(tool.kind, ToolKind::Respond);
                            fields
                        }
                        ToolCall::Status { .. } => {
                            prop_assert_eq!(tool.kind, ToolKind::Status);
                            Fields::new()
                        }
                        other => panic!("{name}: a file protocol's tool read as {other:?}"),
                    };
                    prop_assert_eq!(got, want, "{}", name);
                }
            }
        }
    }
}
