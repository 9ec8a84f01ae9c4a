//! The agents' tools: the lesson's JSON schemas (lead 12, teammate 8, with
//! `bash` replaced by `list_files` over the in-memory workspace), the system
//! prompts, and the typed parsing of a model's tool input.
//!
//! Owns what a tool call *means*. Running it against the team and the
//! workspace is the runtime's job (`runtime::Runtime`).

use serde::Deserialize;
use serde_json::{json, Value};

use crate::model::ToolSchema;

/// The virtual directory agents are told they work in.
pub const WORKDIR: &str = "/workspace";

/// Which tool set an agent has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentRole {
    /// The lead: 12 tools.
    Lead,
    /// A teammate: 8 tools.
    Teammate,
}

/// Errors from reading a tool call, phrased for the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// The model named a tool it does not have.
    #[error("unknown tool '{name}'; your tools are: {available}")]
    UnknownTool {
        /// The name it used.
        name: String,
        /// The tools it has.
        available: String,
    },
    /// The input did not match the tool's schema.
    #[error("invalid input for {tool}: {detail}")]
    BadInput {
        /// The tool.
        tool: String,
        /// What was wrong.
        detail: String,
    },
}

/// A tool call, parsed and typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolCall {
    /// List the workspace.
    ListFiles,
    /// Read a file, optionally only its first `limit` lines.
    ReadFile { path: String, limit: Option<usize> },
    /// Create or overwrite a file.
    WriteFile { path: String, content: String },
    /// Replace one exact occurrence of text.
    EditFile { path: String, old_text: String, new_text: String },
    /// Lead: start a teammate.
    SpawnTeammate { name: String, role: String, prompt: String, plan_mode: bool },
    /// Lead: show the roster.
    ListTeammates,
    /// Send a plain message.
    SendMessage { to: String, content: String, msg_type: Option<String> },
    /// Drain one's own inbox.
    ReadInbox,
    /// Lead: message every teammate.
    Broadcast { content: String },
    /// Lead: ask a teammate to shut down.
    ShutdownRequest { teammate: String },
    /// Lead: check a shutdown request's status (the lesson's lead-side
    /// `shutdown_response`).
    ShutdownStatus { request_id: String },
    /// Teammate: answer a shutdown request.
    ShutdownResponse { request_id: String, approve: bool, reason: String },
    /// Lead: approve or reject a plan.
    PlanReview { request_id: String, approve: bool, feedback: String },
    /// Teammate: submit a plan.
    PlanSubmit { plan: String },
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
#[derive(Deserialize)]
struct TeammateIn {
    teammate: String,
}
#[derive(Deserialize)]
struct RequestIdIn {
    request_id: String,
}
#[derive(Deserialize)]
struct ShutdownAnswerIn {
    request_id: String,
    approve: bool,
    #[serde(default)]
    reason: String,
}
#[derive(Deserialize)]
struct PlanReviewIn {
    request_id: String,
    approve: bool,
    #[serde(default)]
    feedback: String,
}
#[derive(Deserialize)]
struct PlanIn {
    plan: String,
}

fn typed<T: for<'de> Deserialize<'de>>(tool: &str, input: &Value) -> Result<T, ToolError> {
    let input = if input.is_null() { json!({}) } else { input.clone() };
    serde_json::from_value(input).map_err(|e| ToolError::BadInput { tool: tool.to_string(), detail: e.to_string() })
}

/// Parses a tool call for an agent of `role`, refusing tools it lacks and
/// inputs that do not fit the schema.
pub fn parse(role: AgentRole, name: &str, input: &Value) -> Result<ToolCall, ToolError> {
    if !tool_names(role).contains(&name) {
        return Err(ToolError::UnknownTool { name: name.to_string(), available: tool_names(role).join(", ") });
    }
    if !input.is_object() && !input.is_null() {
        return Err(ToolError::BadInput { tool: name.to_string(), detail: "the input must be a JSON object".into() });
    }
    Ok(match (role, name) {
        (_, "list_files") => ToolCall::ListFiles,
        (_, "read_file") => {
            let i: PathIn = typed(name, input)?;
            ToolCall::ReadFile { path: i.path, limit: i.limit }
        }
        (_, "write_file") => {
            let i: WriteIn = typed(name, input)?;
            ToolCall::WriteFile { path: i.path, content: i.content }
        }
        (_, "edit_file") => {
            let i: EditIn = typed(name, input)?;
            ToolCall::EditFile { path: i.path, old_text: i.old_text, new_text: i.new_text }
        }
        (_, "spawn_teammate") => {
            let i: SpawnIn = typed(name, input)?;
            ToolCall::SpawnTeammate { name: i.name, role: i.role, prompt: i.prompt, plan_mode: i.plan_mode }
        }
        (_, "list_teammates") => ToolCall::ListTeammates,
        (_, "send_message") => {
            let i: SendIn = typed(name, input)?;
            ToolCall::SendMessage { to: i.to, content: i.content, msg_type: i.msg_type }
        }
        (_, "read_inbox") => ToolCall::ReadInbox,
        (_, "broadcast") => ToolCall::Broadcast { content: typed::<ContentIn>(name, input)?.content },
        (_, "shutdown_request") => ToolCall::ShutdownRequest { teammate: typed::<TeammateIn>(name, input)?.teammate },
        (AgentRole::Lead, "shutdown_response") => ToolCall::ShutdownStatus { request_id: typed::<RequestIdIn>(name, input)?.request_id },
        (AgentRole::Teammate, "shutdown_response") => {
            let i: ShutdownAnswerIn = typed(name, input)?;
            ToolCall::ShutdownResponse { request_id: i.request_id, approve: i.approve, reason: i.reason }
        }
        (AgentRole::Lead, "plan_approval") => {
            let i: PlanReviewIn = typed(name, input)?;
            ToolCall::PlanReview { request_id: i.request_id, approve: i.approve, feedback: i.feedback }
        }
        (AgentRole::Teammate, "plan_approval") => ToolCall::PlanSubmit { plan: typed::<PlanIn>(name, input)?.plan },
        _ => unreachable!("every schema name is matched above"),
    })
}

fn schema(name: &str, description: &str, input_schema: Value) -> ToolSchema {
    ToolSchema { name: name.to_string(), description: description.to_string(), input_schema }
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required })
}

fn workspace_tools() -> Vec<ToolSchema> {
    vec![
        schema("list_files", "List the files in the workspace.", object(json!({}), &[])),
        schema(
            "read_file",
            "Read file contents.",
            object(json!({ "path": { "type": "string" }, "limit": { "type": "integer" } }), &["path"]),
        ),
        schema(
            "write_file",
            "Write content to file.",
            object(json!({ "path": { "type": "string" }, "content": { "type": "string" } }), &["path", "content"]),
        ),
        schema(
            "edit_file",
            "Replace exact text in file.",
            object(
                json!({ "path": { "type": "string" }, "old_text": { "type": "string" }, "new_text": { "type": "string" } }),
                &["path", "old_text", "new_text"],
            ),
        ),
    ]
}

fn send_message_schema(description: &str) -> ToolSchema {
    schema(
        "send_message",
        description,
        object(
            json!({
                "to": { "type": "string" },
                "content": { "type": "string" },
                "msg_type": { "type": "string", "enum": ["message", "broadcast"] }
            }),
            &["to", "content"],
        ),
    )
}

/// The tool schemas of `role`, in the lesson's order.
pub fn schemas(role: AgentRole) -> Vec<ToolSchema> {
    let mut tools = workspace_tools();
    match role {
        AgentRole::Lead => tools.extend([
            schema(
                "spawn_teammate",
                "Spawn a persistent teammate. Set plan_mode to make it get a plan approved before it may change files.",
                object(
                    json!({
                        "name": { "type": "string" },
                        "role": { "type": "string" },
                        "prompt": { "type": "string" },
                        "plan_mode": { "type": "boolean" }
                    }),
                    &["name", "role", "prompt"],
                ),
            ),
            schema("list_teammates", "List all teammates.", object(json!({}), &[])),
            send_message_schema("Send a message to a teammate."),
            schema("read_inbox", "Read and drain the lead's inbox.", object(json!({}), &[])),
            schema("broadcast", "Send a message to all teammates.", object(json!({ "content": { "type": "string" } }), &["content"])),
            schema(
                "shutdown_request",
                "Request a teammate to shut down gracefully. Returns a request_id for tracking.",
                object(json!({ "teammate": { "type": "string" } }), &["teammate"]),
            ),
            schema(
                "shutdown_response",
                "Check the status of a shutdown request by request_id.",
                object(json!({ "request_id": { "type": "string" } }), &["request_id"]),
            ),
            schema(
                "plan_approval",
                "Approve or reject a teammate's plan. Provide request_id + approve + optional feedback.",
                object(
                    json!({ "request_id": { "type": "string" }, "approve": { "type": "boolean" }, "feedback": { "type": "string" } }),
                    &["request_id", "approve"],
                ),
            ),
        ]),
        AgentRole::Teammate => tools.extend([
            send_message_schema("Send message to a teammate."),
            schema("read_inbox", "Read and drain your inbox.", object(json!({}), &[])),
            schema(
                "shutdown_response",
                "Respond to a shutdown request. Approve to shut down, reject to keep working.",
                object(
                    json!({ "request_id": { "type": "string" }, "approve": { "type": "boolean" }, "reason": { "type": "string" } }),
                    &["request_id", "approve"],
                ),
            ),
            schema(
                "plan_approval",
                "Submit a plan for lead approval. Provide plan text.",
                object(json!({ "plan": { "type": "string" } }), &["plan"]),
            ),
        ]),
    }
    tools
}

/// The lead's tools, in the lesson's order.
pub const LEAD_TOOLS: [&str; 12] = [
    "list_files",
    "read_file",
    "write_file",
    "edit_file",
    "spawn_teammate",
    "list_teammates",
    "send_message",
    "read_inbox",
    "broadcast",
    "shutdown_request",
    "shutdown_response",
    "plan_approval",
];

/// A teammate's tools, in the lesson's order.
pub const TEAMMATE_TOOLS: [&str; 8] =
    ["list_files", "read_file", "write_file", "edit_file", "send_message", "read_inbox", "shutdown_response", "plan_approval"];

/// The tool names of `role` (cheap: no schema is built).
pub fn tool_names(role: AgentRole) -> &'static [&'static str] {
    match role {
        AgentRole::Lead => &LEAD_TOOLS,
        AgentRole::Teammate => &TEAMMATE_TOOLS,
    }
}

/// The lead's system prompt (the lesson's, with the virtual workspace).
pub fn lead_system_prompt() -> String {
    format!("You are a team lead at {WORKDIR}. Manage teammates with shutdown and plan approval protocols.")
}

/// A teammate's system prompt (the lesson's, with the virtual workspace).
pub fn teammate_system_prompt(name: &str, role: &str) -> String {
    format!(
        "You are '{name}', role: {role}, at {WORKDIR}. Submit plans via plan_approval before major work. \
         Respond to shutdown_request with shutdown_response."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_has_twelve_tools_and_teammates_eight() {
        for role in [AgentRole::Lead, AgentRole::Teammate] {
            let names: Vec<String> = schemas(role).into_iter().map(|s| s.name).collect();
            assert_eq!(names, tool_names(role), "the schemas and the name lists agree");
        }
        assert_eq!(LEAD_TOOLS.len(), 12);
        assert_eq!(TEAMMATE_TOOLS.len(), 8);
    }

    #[test]
    fn every_schema_is_an_object_schema_with_known_required_fields() {
        for role in [AgentRole::Lead, AgentRole::Teammate] {
            for s in schemas(role) {
                assert_eq!(s.input_schema["type"], "object", "{}", s.name);
                let props = s.input_schema["properties"].as_object().unwrap();
                for r in s.input_schema["required"].as_array().unwrap() {
                    assert!(props.contains_key(r.as_str().unwrap()), "{}: {r}", s.name);
                }
            }
        }
    }

    #[test]
    fn the_same_tool_name_means_different_things_per_role() {
        let lead = parse(AgentRole::Lead, "plan_approval", &json!({"request_id": "abcd1234", "approve": true})).unwrap();
        assert_eq!(lead, ToolCall::PlanReview { request_id: "abcd1234".into(), approve: true, feedback: String::new() });
        let mate = parse(AgentRole::Teammate, "plan_approval", &json!({"plan": "p"})).unwrap();
        assert_eq!(mate, ToolCall::PlanSubmit { plan: "p".into() });
        let status = parse(AgentRole::Lead, "shutdown_response", &json!({"request_id": "abcd1234"})).unwrap();
        assert_eq!(status, ToolCall::ShutdownStatus { request_id: "abcd1234".into() });
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
        assert!(err.to_string().contains("missing field `request_id`"), "{err}");
        let err = parse(AgentRole::Teammate, "shutdown_response", &json!({"request_id": "x", "approve": "yes"})).unwrap_err();
        assert!(err.to_string().contains("expected a boolean"), "{err}");
        let err = parse(AgentRole::Lead, "read_file", &json!("a.txt")).unwrap_err();
        assert!(err.to_string().contains("JSON object"), "{err}");
    }

    #[test]
    fn tools_without_arguments_accept_an_empty_or_missing_input() {
        assert_eq!(parse(AgentRole::Lead, "list_teammates", &Value::Null).unwrap(), ToolCall::ListTeammates);
        assert_eq!(parse(AgentRole::Teammate, "read_inbox", &json!({})).unwrap(), ToolCall::ReadInbox);
    }
}
