//! The protocol tools a model sees, generated from a protocol file: for each
//! protocol the request tool of its `from` role, the answer tool of its `to`
//! role and the optional status tool, each with a flat JSON schema built
//! from the protocol's fields (string, boolean, integer, enum), its
//! descriptions and its required fields.
//!
//! Owns the mapping from a `file::Protocol` to `ToolSchema`s and which of a
//! protocol's tools a name stands for. It is pure: no state, no runtime.
//! The fixed tools (workspace, team, messages) and the prompts are
//! `schema`'s; reading a call against these schemas is `call`'s.

use serde_json::{json, Map, Value};

use crate::model::ToolSchema;
use crate::protocol::file::{Field, FieldType, Protocol, ProtocolFile, ProtocolIx, Role, ToolDef};

/// The input naming the addressee of a request a teammate answers (the
/// lesson's `shutdown_request { teammate }`).
pub const ADDRESSEE_FIELD: &str = "teammate";

/// Which of a protocol's three tools a tool name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolKind {
    /// Asks (`tools.request`, held by the `from` role).
    Request,
    /// Answers (`tools.respond`, held by the `to` role).
    Respond,
    /// Tells a request's status (`tools.status`, held by the `from` role).
    Status,
}

/// A protocol tool an agent holds: the protocol and which of its tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProtocolTool {
    /// The protocol.
    pub protocol: ProtocolIx,
    /// Which of its tools.
    pub kind: ToolKind,
}

/// The protocol tools an agent of `role` holds, in the file's order
/// (protocol by protocol; request, respond, status), each name once: the
/// first tool of a name wins, as `ProtocolFile::protocol_tools` keeps it.
pub fn protocol_tools(file: &ProtocolFile, role: Role) -> Vec<(&ToolDef, ProtocolTool)> {
    let mut tools: Vec<(&ToolDef, ProtocolTool)> = Vec::new();
    for (i, p) in file.protocols.iter().enumerate() {
        let protocol = ProtocolIx(u8::try_from(i).unwrap_or(u8::MAX));
        for (def, kind) in tools_of(p, role) {
            if !tools.iter().any(|(t, _)| t.name == def.name) {
                tools.push((def, ProtocolTool { protocol, kind }));
            }
        }
    }
    tools
}

/// A protocol's tools for `role` with their kinds, in `Protocol::tools_of`'s
/// order.
fn tools_of(p: &Protocol, role: Role) -> Vec<(&ToolDef, ToolKind)> {
    let mut tools = Vec::new();
    if p.from.allows(role) {
        tools.push((&p.tools.request, ToolKind::Request));
    }
    if p.to == role {
        tools.extend(p.tools.respond.iter().map(|t| (t, ToolKind::Respond)));
    }
    if p.from.allows(role) {
        tools.extend(p.tools.status.iter().map(|t| (t, ToolKind::Status)));
    }
    tools
}

/// The schemas of the protocol tools an agent of `role` holds, in
/// `protocol_tools`' order.
pub fn protocol_schemas(file: &ProtocolFile, role: Role) -> Vec<ToolSchema> {
    protocol_tools(file, role).into_iter().map(|(def, tool)| tool_schema(file.protocol(tool.protocol), def, tool.kind)).collect()
}

/// One protocol tool's schema: its name and description from the file, its
/// input from the protocol's fields.
pub fn tool_schema(p: &Protocol, def: &ToolDef, kind: ToolKind) -> ToolSchema {
    ToolSchema { name: def.name.clone(), description: def.description.clone(), input_schema: input_schema(p, kind) }
}

/// The input schema of one of `p`'s tools: a flat object.
///
/// - request: `teammate` (required) when a teammate answers, then the
///   request fields;
/// - respond: `request_id` and `approve` (both required), then the
///   response fields;
/// - status: `request_id` (required).
pub fn input_schema(p: &Protocol, kind: ToolKind) -> Value {
    let mut properties = Map::new();
    let mut required: Vec<&str> = Vec::new();
    let fields: &[Field] = match kind {
        ToolKind::Request => {
            if p.to == Role::Teammate {
                properties.insert(ADDRESSEE_FIELD.into(), json!({ "type": "string" }));
                required.push(ADDRESSEE_FIELD);
            }
            &p.request_fields
        }
        ToolKind::Respond => {
            properties.insert("request_id".into(), json!({ "type": "string" }));
            properties.insert("approve".into(), json!({ "type": "boolean" }));
            required.extend(["request_id", "approve"]);
            &p.response_fields
        }
        ToolKind::Status => {
            properties.insert("request_id".into(), json!({ "type": "string" }));
            required.push("request_id");
            &[]
        }
    };
    for f in fields {
        properties.insert(f.name.clone(), field_schema(f));
        if f.required {
            required.push(&f.name);
        }
    }
    json!({ "type": "object", "properties": properties, "required": required })
}

/// One field's JSON schema: its type (an enum is a string with its
/// values listed) and its description when the file gives one.
pub fn field_schema(f: &Field) -> Value {
    let mut schema = Map::new();
    let kind = match &f.field_type {
        FieldType::String | FieldType::Enum(_) => "string",
        FieldType::Bool => "boolean",
        FieldType::Int => "integer",
    };
    schema.insert("type".into(), json!(kind));
    if let FieldType::Enum(values) = &f.field_type {
        schema.insert("enum".into(), json!(values));
    }
    if let Some(d) = &f.description {
        schema.insert("description".into(), json!(d));
    }
    Value::Object(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::file::{builtin, load};

    fn claim() -> ProtocolFile {
        let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == "task-claim").unwrap();
        load(text).unwrap()
    }

    #[test]
    fn an_enum_field_is_a_string_with_its_values_listed() {
        let f = claim();
        let p = f.protocol(f.protocol_named("claim").unwrap());
        let s = input_schema(p, ToolKind::Request);
        assert_eq!(s["properties"]["task"], json!({ "type": "string", "enum": ["parser", "lexer", "docs"] }));
        assert_eq!(s["required"], json!(["task"]), "a teammate asks the lead: no addressee to name");
    }

    #[test]
    fn each_field_type_maps_to_its_json_schema_type_with_its_description() {
        let field = |field_type, description: Option<&str>| Field {
            name: "x".into(),
            field_type,
            required: false,
            content: false,
            description: description.map(str::to_string),
        };
        assert_eq!(field_schema(&field(FieldType::String, None)), json!({ "type": "string" }));
        assert_eq!(field_schema(&field(FieldType::Bool, None)), json!({ "type": "boolean" }));
        assert_eq!(field_schema(&field(FieldType::Int, Some("how many"))), json!({ "type": "integer", "description": "how many" }));
    }

    #[test]
    fn an_answer_tool_takes_request_id_and_approve_before_the_response_fields() {
        let f = claim();
        let p = f.protocol(f.protocol_named("claim").unwrap());
        let s = input_schema(p, ToolKind::Respond);
        assert_eq!(s["required"], json!(["request_id", "approve"]));
        let mut keys: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["approve", "note", "request_id"]);
        assert_eq!(
            input_schema(p, ToolKind::Status),
            json!({ "type": "object", "properties": { "request_id": { "type": "string" } }, "required": ["request_id"] })
        );
    }

    #[test]
    fn a_request_a_teammate_answers_names_the_teammate() {
        let f = builtin::lesson().unwrap();
        let p = f.protocol(f.protocol_named("shutdown").unwrap());
        assert_eq!(
            input_schema(p, ToolKind::Request),
            json!({ "type": "object", "properties": { "teammate": { "type": "string" } }, "required": ["teammate"] })
        );
    }

    #[test]
    fn the_lessons_shared_names_are_two_tools_of_two_roles() {
        let f = builtin::lesson().unwrap();
        let kinds = |role| protocol_tools(&f, role).into_iter().map(|(d, t)| (d.name.clone(), t.kind)).collect::<Vec<_>>();
        assert_eq!(
            kinds(Role::Lead),
            [
                ("shutdown_request".into(), ToolKind::Request),
                ("shutdown_response".into(), ToolKind::Status),
                ("plan_approval".into(), ToolKind::Respond)
            ]
        );
        assert_eq!(kinds(Role::Teammate), [("shutdown_response".into(), ToolKind::Respond), ("plan_approval".into(), ToolKind::Request)]);
    }

    /// `^[a-zA-Z0-9_-]{1,64}$`: the tool names Anthropic and OpenAI accept.
    fn provider_name(name: &str) -> bool {
        (1..=64).contains(&name.len()) && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
    }

    #[test]
    fn every_example_files_protocol_tools_have_schemas_providers_accept() {
        let mut files = vec![("lesson", builtin::lesson().unwrap())];
        files.extend(builtin::EXAMPLES.iter().filter_map(|(name, text)| load(text).ok().map(|f| (*name, f))));
        assert_eq!(files.len(), builtin::EXAMPLES.len(), "every example but the refused one, and the lesson");
        let mut checked = 0;
        for (file_name, f) in &files {
            for role in [Role::Lead, Role::Teammate] {
                let schemas = protocol_schemas(f, role);
                let mut names: Vec<&str> = schemas.iter().map(|s| s.name.as_str()).collect();
                names.sort_unstable();
                names.dedup();
                assert_eq!(names.len(), schemas.len(), "{file_name} {role:?}: one schema per name");
                for s in &schemas {
                    let at = format!("{file_name} {role:?} {}", s.name);
                    assert!(provider_name(&s.name), "{at}: name");
                    assert!(!s.description.is_empty(), "{at}: description");
                    let o = s.input_schema.as_object().unwrap();
                    assert_eq!(o.len(), 3, "{at}: type, properties, required only");
                    assert_eq!(o["type"], "object", "{at}");
                    let props = o["properties"].as_object().unwrap();
                    for (key, prop) in props {
                        assert!(provider_name(key), "{at}: property {key}");
                        let p = prop.as_object().unwrap();
                        assert!(["string", "boolean", "integer"].contains(&p["type"].as_str().unwrap()), "{at}.{key}: a flat type");
                        for (k, v) in p {
                            match k.as_str() {
                                "type" => {}
                                "description" => assert!(v.is_string(), "{at}.{key}"),
                                "enum" => {
                                    assert!(v.as_array().unwrap().iter().all(Value::is_string) && p["type"] == "string", "{at}.{key}")
                                }
                                other => panic!("{at}.{key}: unexpected keyword {other}"),
                            }
                        }
                    }
                    let required: Vec<&str> = o["required"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
                    assert!(required.iter().all(|r| props.contains_key(*r)), "{at}: required within properties");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 20, "{checked} schemas checked");
    }
}
