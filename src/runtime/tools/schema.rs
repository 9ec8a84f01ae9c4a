//! The agents' tool sets and their system prompts: what a model is told it
//! can do. The fixed tools (workspace, team, messages, with `bash` replaced
//! by `list_files` over the in-memory workspace) are written here; the
//! protocol tools are generated from a protocol file (`generated`), the
//! lesson's (`lesson.toml`: lead 12 tools, teammate 8) unless a run names
//! another.
//!
//! Owns the fixed schemas, a file's `ToolSet` (schemas, names, prompts) and
//! the lesson's shared one. Reading a call is `call`'s job, running it
//! `dispatch`'s.

use std::sync::{Arc, OnceLock};

use serde_json::{json, Value};

use super::generated::{self, ProtocolTool, ToolKind};
use super::AgentRole;
use crate::model::ToolSchema;
use crate::protocol::file::{builtin, ProtocolFile, ProtocolIx, BUILTIN_TOOLS};

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

/// The tools of one protocol file for both roles, named once when the
/// file is chosen and shared by every agent of a run (the explorer's runs
/// clone a pointer, not the schemas): the fixed tools, then each protocol's
/// tools (`generated`), and which protocol tool each name stands for. The
/// schemas themselves (JSON input schemas) are written on first need, once:
/// a model that reads them (a provider's request, the length of a request)
/// asks for them; the scripted model and the explorer need only the names.
#[derive(Debug)]
pub struct ToolSet {
    file: Arc<ProtocolFile>,
    lead: RoleTools,
    teammate: RoleTools,
}

impl PartialEq for ToolSet {
    /// The same file gives the same tools (names and schemas are derived
    /// from it), whether or not the schemas were written yet.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.file, &other.file) || self.file == other.file
    }
}

/// Equal tool sets are the same tools (`Arc<ToolSet>` compares by pointer first).
impl Eq for ToolSet {}

/// One role's share of a `ToolSet`.
#[derive(Debug)]
struct RoleTools {
    /// The tool names, in the schemas' order: the fixed tools, then the protocols'.
    names: Vec<String>,
    /// The protocol tools among `names`, by name.
    protocol: Vec<(String, ProtocolTool)>,
    /// The schemas, in `names`' order, written on first need.
    schemas: OnceLock<Arc<[ToolSchema]>>,
}

impl RoleTools {
    fn new(file: &ProtocolFile, role: AgentRole) -> Self {
        let tools = generated::protocol_tools(file, role.file_role());
        let names = fixed_tool_names(role).iter().map(|n| n.to_string()).chain(tools.iter().map(|(def, _)| def.name.clone())).collect();
        RoleTools { names, protocol: tools.into_iter().map(|(def, t)| (def.name.clone(), t)).collect(), schemas: OnceLock::new() }
    }

    /// The schemas of `role`'s tools under `file`: the fixed ones, then the protocols'.
    fn write_schemas(file: &ProtocolFile, role: AgentRole) -> Arc<[ToolSchema]> {
        let mut schemas = fixed_tools(role);
        let tools = generated::protocol_tools(file, role.file_role());
        schemas.extend(tools.iter().map(|(def, t)| generated::tool_schema(file.protocol(t.protocol), def, t.kind)));
        schemas.into()
    }
}

impl ToolSet {
    /// The tools `file`'s protocols give, with the fixed ones.
    pub fn new(file: Arc<ProtocolFile>) -> Self {
        let lead = RoleTools::new(&file, AgentRole::Lead);
        let teammate = RoleTools::new(&file, AgentRole::Teammate);
        ToolSet { file, lead, teammate }
    }

    /// The lesson's tools (`file::builtin::lesson`): built once and shared.
    pub fn lesson() -> &'static Arc<ToolSet> {
        static LESSON: OnceLock<Arc<ToolSet>> = OnceLock::new();
        LESSON.get_or_init(|| {
            // Built in, as loading `lesson.toml` gives it.
            let file = builtin::lesson_shared();
            Arc::new(ToolSet::new(Arc::clone(file)))
        })
    }

    /// The protocol file the tools come from.
    pub fn file(&self) -> &ProtocolFile {
        &self.file
    }

    fn of(&self, role: AgentRole) -> &RoleTools {
        match role {
            AgentRole::Lead => &self.lead,
            AgentRole::Teammate => &self.teammate,
        }
    }

    /// The tool schemas of `role`, in order: the fixed tools, then the
    /// protocols' (written on the first call, then shared: cloning is a
    /// pointer copy).
    pub fn schemas(&self, role: AgentRole) -> &Arc<[ToolSchema]> {
        self.of(role).schemas.get_or_init(|| RoleTools::write_schemas(&self.file, role))
    }

    /// The tool names of `role`, in the schemas' order (without writing the schemas).
    pub fn tool_names(&self, role: AgentRole) -> impl Iterator<Item = &str> {
        self.of(role).names.iter().map(String::as_str)
    }

    /// True when an agent of `role` holds a tool named `name`.
    pub fn has_tool(&self, role: AgentRole, name: &str) -> bool {
        self.tool_names(role).any(|n| n == name)
    }

    /// The protocol tool `name` stands for in `role`'s hands (`None` for a
    /// fixed tool or a name the role lacks).
    pub fn protocol_tool(&self, role: AgentRole, name: &str) -> Option<ProtocolTool> {
        self.of(role).protocol.iter().find(|(n, _)| n == name).map(|(_, t)| *t)
    }

    /// The lead's system prompt: the lesson's, then a sentence for each of
    /// the file's own protocols the lead takes part in.
    pub fn lead_system_prompt(&self) -> String {
        let mut prompt = format!("You are a team lead at {WORKDIR}.");
        if self.file.uses_lesson {
            prompt.push_str(" Manage teammates with shutdown and plan approval protocols.");
        }
        self.push_protocol_sentences(&mut prompt, AgentRole::Lead);
        prompt
    }

    /// A teammate's system prompt: the lesson's (its tool names read from
    /// the lesson's protocols), then a sentence for each of the file's own
    /// protocols a teammate takes part in.
    pub fn teammate_system_prompt(&self, name: &str, role: &str) -> String {
        let mut prompt = format!("You are '{name}', role: {role}, at {WORKDIR}.");
        let lesson = |name: &str| self.file.protocols.iter().find(|p| p.builtin && p.name == name).map(|p| &p.tools);
        if let (Some(plan), Some(shutdown)) = (lesson("plan"), lesson("shutdown")) {
            let answer = shutdown.respond.as_ref().map_or("", |t| t.name.as_str());
            let (submit, ask) = (&plan.request.name, &shutdown.request.name);
            prompt.push_str(&format!(" Submit plans via {submit} before major work. Respond to {ask} with {answer}."));
        }
        self.push_protocol_sentences(&mut prompt, AgentRole::Teammate);
        prompt
    }

    /// "The claim protocol: ask with claim_task, check a request with
    /// claim_status." for each non-built-in protocol `role` has tools of.
    fn push_protocol_sentences(&self, prompt: &mut String, role: AgentRole) {
        for (i, p) in self.file.protocols.iter().enumerate().filter(|(_, p)| !p.builtin) {
            let ix = ProtocolIx(u8::try_from(i).unwrap_or(u8::MAX));
            let parts: Vec<String> = self
                .of(role)
                .protocol
                .iter()
                .filter(|(_, t)| t.protocol == ix)
                .map(|(name, t)| match t.kind {
                    ToolKind::Request => format!("ask with {name}"),
                    ToolKind::Respond => format!("answer with {name}"),
                    ToolKind::Status => format!("check a request with {name}"),
                })
                .collect();
            if !parts.is_empty() {
                prompt.push_str(&format!(" The {} protocol: {}.", p.name, parts.join(", ")));
            }
        }
    }
}

/// The tool schemas of `role` as every agent of that role holds them under
/// the lesson: built once and shared, not rebuilt for each agent the
/// explorer's runs spawn.
pub fn shared_schemas(role: AgentRole) -> Arc<[ToolSchema]> {
    Arc::clone(ToolSet::lesson().schemas(role))
}

/// The tool schemas of `role` under the lesson, in the lesson's order.
pub fn schemas(role: AgentRole) -> Vec<ToolSchema> {
    ToolSet::lesson().schemas(role).to_vec()
}

/// The names of `fixed_tools(role)`, in order, without writing their
/// schemas: the lead has every built-in tool (`BUILTIN_TOOLS`, the
/// contract's list), a teammate the workspace's four, `send_message` and
/// `read_inbox`.
fn fixed_tool_names(role: AgentRole) -> &'static [&'static str] {
    const TEAMMATE: [&str; 6] = ["list_files", "read_file", "write_file", "edit_file", "send_message", "read_inbox"];
    match role {
        AgentRole::Lead => &BUILTIN_TOOLS,
        AgentRole::Teammate => &TEAMMATE,
    }
}

/// The tools no protocol file changes: the workspace's, then the team's
/// and the messages' of `role`, in the lesson's order.
fn fixed_tools(role: AgentRole) -> Vec<ToolSchema> {
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
        ]),
        AgentRole::Teammate => tools.extend([
            send_message_schema("Send message to a teammate."),
            schema("read_inbox", "Read and drain your inbox.", object(json!({}), &[])),
        ]),
    }
    tools
}

/// The tool names of `role` under the lesson (cheap: the names of the
/// shared schemas, listed once).
pub fn tool_names(role: AgentRole) -> &'static [&'static str] {
    static LEAD: OnceLock<Vec<&'static str>> = OnceLock::new();
    static TEAMMATE: OnceLock<Vec<&'static str>> = OnceLock::new();
    let names = match role {
        AgentRole::Lead => &LEAD,
        AgentRole::Teammate => &TEAMMATE,
    };
    names.get_or_init(|| ToolSet::lesson().tool_names(role).collect())
}

/// The lead's system prompt under the lesson (with the virtual workspace).
pub fn lead_system_prompt() -> String {
    ToolSet::lesson().lead_system_prompt()
}

/// A teammate's system prompt under the lesson (with the virtual workspace).
pub fn teammate_system_prompt(name: &str, role: &str) -> String {
    ToolSet::lesson().teammate_system_prompt(name, role)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::file::{load, Role};

    /// Today's tools and prompts, captured from the hand-written schemas
    /// before they were generated from `lesson.toml`.
    const GOLDEN: &str = include_str!("../../../tests/fixtures/lesson_tools.golden.json");

    fn golden_tools(key: &str) -> Vec<(String, String, String)> {
        let golden: Value = serde_json::from_str(GOLDEN).unwrap();
        let text = |t: &Value, k: &str| t[k].as_str().unwrap().to_string();
        golden[key].as_array().unwrap().iter().map(|t| (text(t, "name"), text(t, "description"), text(t, "input_schema"))).collect()
    }

    #[test]
    fn the_lessons_tools_and_prompts_are_byte_for_byte_what_the_runtime_offered_before_the_file() {
        let golden: Value = serde_json::from_str(GOLDEN).unwrap();
        for (role, key) in [(AgentRole::Lead, "lead_tools"), (AgentRole::Teammate, "teammate_tools")] {
            let now: Vec<(String, String, String)> =
                schemas(role).into_iter().map(|s| (s.name, s.description, serde_json::to_string(&s.input_schema).unwrap())).collect();
            assert_eq!(now, golden_tools(key), "{role:?}: names, order, descriptions and input schemas");
        }
        assert_eq!(golden_tools("lead_tools").len(), 12);
        assert_eq!(golden_tools("teammate_tools").len(), 8);
        assert_eq!(lead_system_prompt(), golden["lead_system_prompt"].as_str().unwrap());
        assert_eq!(teammate_system_prompt("alice", "coder"), golden["teammate_system_prompt"].as_str().unwrap());
    }

    #[test]
    fn the_name_lists_are_the_schemas_names() {
        for role in [AgentRole::Lead, AgentRole::Teammate] {
            let names: Vec<String> = schemas(role).into_iter().map(|s| s.name).collect();
            assert_eq!(names, tool_names(role), "the schemas and the name lists agree");
        }
        assert_eq!(tool_names(AgentRole::Lead).len(), 12);
        assert_eq!(tool_names(AgentRole::Teammate).len(), 8);
    }

    #[test]
    fn every_agent_of_a_role_shares_one_list_of_that_roles_schemas() {
        for role in [AgentRole::Lead, AgentRole::Teammate] {
            let (a, b) = (shared_schemas(role), shared_schemas(role));
            assert_eq!(&*a, schemas(role).as_slice());
            assert!(Arc::ptr_eq(&a, &b), "{role:?}'s schemas were built twice");
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

    fn claim_file() -> Arc<ProtocolFile> {
        let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == "task-claim").unwrap();
        Arc::new(load(text).unwrap())
    }

    #[test]
    fn a_files_tools_follow_the_fixed_ones_and_its_roles() {
        let set = ToolSet::new(claim_file());
        let lead: Vec<&str> = set.tool_names(AgentRole::Lead).collect();
        assert_eq!(lead[..BUILTIN_TOOLS.len()], BUILTIN_TOOLS);
        assert_eq!(lead[BUILTIN_TOOLS.len()..], ["answer_claim"], "the task-claim file does not use the lesson");
        let mate: Vec<&str> = set.tool_names(AgentRole::Teammate).collect();
        assert_eq!(mate[6..], ["claim_task", "claim_status"]);
        let from_file: Vec<&str> = set.file().protocol_tools(Role::Teammate).iter().map(|t| t.name.as_str()).collect();
        assert_eq!(from_file, mate[6..]);
        assert!(set.has_tool(AgentRole::Teammate, "claim_task") && !set.has_tool(AgentRole::Lead, "claim_task"));
        assert_eq!(set.protocol_tool(AgentRole::Lead, "answer_claim").map(|t| t.kind), Some(ToolKind::Respond));
        assert_eq!(set.protocol_tool(AgentRole::Lead, "read_inbox"), None);
    }

    #[test]
    fn a_files_prompts_name_its_own_protocols_tools() {
        let set = ToolSet::new(claim_file());
        assert_eq!(set.lead_system_prompt(), "You are a team lead at /workspace. The claim protocol: answer with answer_claim.");
        assert_eq!(
            set.teammate_system_prompt("ann", "coder"),
            "You are 'ann', role: coder, at /workspace. The claim protocol: ask with claim_task, check a request with claim_status."
        );
    }

    #[test]
    fn the_fixed_tool_names_are_the_fixed_schemas_names() {
        for role in [AgentRole::Lead, AgentRole::Teammate] {
            let written: Vec<String> = fixed_tools(role).into_iter().map(|s| s.name).collect();
            assert_eq!(written, fixed_tool_names(role), "{role:?}");
        }
    }

    #[test]
    fn a_files_names_are_known_before_its_schemas_are_written_and_agree_with_them() {
        let set = ToolSet::new(claim_file());
        for role in [AgentRole::Lead, AgentRole::Teammate] {
            assert!(set.of(role).schemas.get().is_none(), "{role:?}: naming the tools wrote no schema");
            let names: Vec<String> = set.tool_names(role).map(str::to_string).collect();
            let written: Vec<String> = set.schemas(role).iter().map(|s| s.name.clone()).collect();
            assert_eq!(names, written, "{role:?}");
            assert!(Arc::ptr_eq(set.schemas(role), set.schemas(role)), "{role:?}: written once");
        }
        assert_eq!(set, ToolSet::new(claim_file()), "the same file gives equal tool sets, written or not");
        assert_ne!(&set, &**ToolSet::lesson());
    }

    #[test]
    fn the_lessons_tool_set_is_built_once() {
        assert!(Arc::ptr_eq(ToolSet::lesson(), ToolSet::lesson()));
        assert!(ToolSet::lesson().file().uses_lesson);
        assert!(Arc::ptr_eq(&ToolSet::lesson().file, builtin::lesson_shared()), "the lesson's one loaded file, not a copy");
    }
}
