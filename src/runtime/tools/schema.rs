//! The agents' tool schemas (the lesson's: lead 12, teammate 8, with `bash`
//! replaced by `list_files` over the in-memory workspace) and their system
//! prompts: what a model is told it can do.
//!
//! Owns the JSON schemas, the tool name lists and the prompts. Reading a
//! call is `call`'s job, running it `dispatch`'s.

use serde_json::{json, Value};

use super::AgentRole;
use crate::model::ToolSchema;

/// The virtual directory agents are told they work in.
pub const WORKDIR: &str = "/workspace";

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

/// The tool schemas of `role` as every agent of that role holds them: built
/// once (they are constants) and shared, not rebuilt for each agent the
/// explorer's runs spawn.
pub fn shared_schemas(role: AgentRole) -> std::sync::Arc<[ToolSchema]> {
    use std::sync::{Arc, OnceLock};
    static LEAD: OnceLock<Arc<[ToolSchema]>> = OnceLock::new();
    static TEAMMATE: OnceLock<Arc<[ToolSchema]>> = OnceLock::new();
    let built = match role {
        AgentRole::Lead => &LEAD,
        AgentRole::Teammate => &TEAMMATE,
    };
    Arc::clone(built.get_or_init(|| schemas(role).into()))
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
    fn every_agent_of_a_role_shares_one_list_of_that_roles_schemas() {
        for role in [AgentRole::Lead, AgentRole::Teammate] {
            let (a, b) = (shared_schemas(role), shared_schemas(role));
            assert_eq!(&*a, schemas(role).as_slice());
            assert!(std::sync::Arc::ptr_eq(&a, &b), "{role:?}'s schemas were built twice");
        }
        assert_ne!(&*shared_schemas(AgentRole::Lead), &*shared_schemas(AgentRole::Teammate));
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
}
