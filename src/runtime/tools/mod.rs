//! The agents' tools: what each role may call (`schema`, the protocol tools
//! generated from a protocol file by `generated`), how a call is read
//! (`call`), and how it runs against the team and the workspace
//! (`dispatch`), with one error type whose text is what the model reads
//! after `Error: `.
//!
//! Owns tool meaning and tool results. Protocol rules stay in
//! `protocol::Team` and file rules in `runtime::workspace`: dispatch only
//! calls them and passes their errors on, wrapped, never flattened to text.

mod call;
mod dispatch;
pub mod generated;
mod schema;

pub use call::{parse, parse_protocol_call, parse_with, ToolCall};
pub use generated::{ProtocolTool, ToolKind};
pub use schema::{lead_system_prompt, schemas, shared_schemas, teammate_system_prompt, tool_names, ToolSet, WORKDIR};

use crate::protocol::file::Role;
use crate::protocol::{AgentName, MessageError, NameError, RequestId, TeamError};
use crate::runtime::workspace::WorkspaceError;

/// Which tool set an agent has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentRole {
    /// The lead: 12 tools.
    Lead,
    /// A teammate: 8 tools.
    Teammate,
}

impl AgentRole {
    /// The role as a protocol file names it (`from`, `to`).
    pub fn file_role(self) -> Role {
        match self {
            AgentRole::Lead => Role::Lead,
            AgentRole::Teammate => Role::Teammate,
        }
    }
}

/// Why a tool call was refused. The `Display` text is exactly what the model
/// reads after `Error: `; every refusal leaves the team and the workspace as
/// they were.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The model named a tool it does not have.
    #[error("unknown tool '{name}'; your tools are: {available}")]
    UnknownTool {
        /// The name it used.
        name: String,
        /// The tools it has.
        available: String,
    },
    /// The input is not a JSON object.
    #[error("invalid input for {tool}: the input must be a JSON object")]
    NotAnObject {
        /// The tool.
        tool: String,
    },
    /// The input did not match the tool's schema.
    #[error("invalid input for {tool}: {source}")]
    BadInput {
        /// The tool.
        tool: String,
        /// What serde found wrong (a missing field, a wrong type).
        source: serde_json::Error,
    },
    /// A file protocol's tool got a key its schema does not have.
    #[error("invalid input for {tool}: unknown field '{field}'; its fields are: {known}")]
    UnknownField {
        /// The tool.
        tool: String,
        /// The key it got.
        field: String,
        /// The keys it takes.
        known: String,
    },
    /// A file protocol's tool lacks a required key.
    #[error("invalid input for {tool}: missing field '{field}'")]
    MissingField {
        /// The tool.
        tool: String,
        /// The key it needs.
        field: String,
    },
    /// A file protocol's tool got a value of the wrong type.
    #[error("invalid input for {tool}: field '{field}' must be {expected}")]
    WrongType {
        /// The tool.
        tool: String,
        /// The key.
        field: String,
        /// What it must be ("a string", "true or false", "a whole number").
        expected: &'static str,
    },
    /// A file protocol's enum field got a value not in its list.
    #[error("invalid input for {tool}: field '{field}' must be one of {values}")]
    NotInEnum {
        /// The tool.
        tool: String,
        /// The key.
        field: String,
        /// Its values, comma separated.
        values: String,
    },
    /// A tool a closed gate of the protocol file holds for this agent.
    #[error("'{agent}' may not use {tool} yet: the '{gate}' gate is closed; {opener}")]
    GateClosed {
        /// Who called it.
        agent: AgentName,
        /// The tool.
        tool: String,
        /// The gate's name.
        gate: String,
        /// How to open it: the protocol (and its request tool) whose
        /// approval opens it.
        opener: String,
    },
    /// A protocol's status tool named a request of no such id (or of
    /// another protocol): "unknown shutdown request_id '...'" for the
    /// lesson's.
    #[error("unknown {protocol} request_id '{id}'")]
    UnknownRequest {
        /// The protocol's name.
        protocol: String,
        /// The id asked about.
        id: RequestId,
    },
    /// An agent name in the input is not a valid name.
    #[error(transparent)]
    Name(#[from] NameError),
    /// A `request_id` in the input is not a request id.
    #[error(transparent)]
    RequestId(#[from] MessageError),
    /// A plan-mode teammate tried to change the workspace before approval.
    #[error("'{0}' works in plan mode: submit a plan with plan_approval and wait until the lead approves it before changing files")]
    PlanGateClosed(AgentName),
    /// `spawn_teammate` with a blank prompt.
    #[error("give '{0}' a prompt: what should it work on?")]
    EmptyPrompt(AgentName),
    /// The team refused (a protocol rule).
    #[error(transparent)]
    Team(#[from] TeamError),
    /// The workspace refused (a path or size rule).
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
    /// The inbox could not be written out as JSON.
    #[error("the inbox could not be written as JSON: {0}")]
    Encode(#[from] serde_json::Error),
}

/// What a tool run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutcome {
    /// What the model reads.
    pub output: String,
    /// True for `Error: ...`.
    pub is_error: bool,
}

impl From<Result<String, ToolError>> for ToolOutcome {
    fn from(result: Result<String, ToolError>) -> Self {
        match result {
            Ok(output) => ToolOutcome { output, is_error: false },
            Err(e) => ToolOutcome { output: format!("Error: {e}"), is_error: true },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_reads_as_error_and_its_reason() {
        let out = ToolOutcome::from(Err(ToolError::EmptyPrompt(AgentName::parse("carol").unwrap())));
        assert_eq!(out, ToolOutcome { output: "Error: give 'carol' a prompt: what should it work on?".into(), is_error: true });
        let out = ToolOutcome::from(Ok("Edited a.txt".to_string()));
        assert_eq!(out, ToolOutcome { output: "Edited a.txt".into(), is_error: false });
    }

    #[test]
    fn wrapped_errors_keep_the_words_of_their_source() {
        let e = ToolError::from(WorkspaceError::BadLimit);
        assert_eq!(e.to_string(), WorkspaceError::BadLimit.to_string());
        let e = ToolError::from(RequestId::parse("x").unwrap_err());
        assert_eq!(e.to_string(), "'x' is not a request_id: a request_id is 8 lowercase hex characters, e.g. 'a1b2c3d4'");
    }
}
