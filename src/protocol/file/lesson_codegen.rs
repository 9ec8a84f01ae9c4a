//! Writes `lesson_compiled.rs`: the lesson's protocols and gate, as
//! `file::load` resolves them, rendered as a Rust expression, so the page
//! gets them without parsing TOML at start-up (issue 28 §2) and the
//! loader stays out of its first-screen module.
//!
//! Owns the rendering and the drift test only (test builds). The shapes are
//! `model`'s; what the lesson says is `lesson.toml`'s. The rendering covers
//! what a lesson file holds (gates, protocols, no team, no properties of
//! its own) and panics on anything else: a change to the lesson that needs
//! more fails the test here rather than compiling something different.

use std::fmt::Write;

use super::model::{Asker, Effect, Field, FieldType, Gate, Party, Protocol, ProtocolFile, Role, ScriptedAnswer, ToolDef};

/// What to run to write `lesson_compiled.rs` again after `lesson.toml`
/// (or the model's shapes) changed.
const REGENERATE: &str = "REGENERATE_LESSON=1 cargo test --lib protocol::file::lesson_codegen";

fn string(s: &str) -> String {
    format!("String::from({s:?})")
}

fn option(o: &Option<String>) -> String {
    o.as_deref().map_or_else(|| "None".to_string(), |s| format!("Some({})", string(s)))
}

fn strings(v: &[String]) -> String {
    format!("vec![{}]", v.iter().map(|s| string(s)).collect::<Vec<_>>().join(", "))
}

fn gate(g: &Gate) -> String {
    format!("Gate {{ name: {}, tools: {}, builtin: {} }}", string(&g.name), strings(&g.tools), g.builtin)
}

fn field_type(t: &FieldType) -> String {
    match t {
        FieldType::String => "FieldType::String".into(),
        FieldType::Bool => "FieldType::Bool".into(),
        FieldType::Int => "FieldType::Int".into(),
        FieldType::Enum(values) => format!("FieldType::Enum({})", strings(values)),
    }
}

fn fields(v: &[Field]) -> String {
    let one = |f: &Field| {
        format!(
            "Field {{ name: {}, field_type: {}, required: {}, content: {}, description: {} }}",
            string(&f.name),
            field_type(&f.field_type),
            f.required,
            f.content,
            option(&f.description)
        )
    };
    format!("vec![{}]", v.iter().map(one).collect::<Vec<_>>().join(", "))
}

fn party(p: Party) -> &'static str {
    match p {
        Party::Requester => "Party::Requester",
        Party::Addressee => "Party::Addressee",
    }
}

fn effects(v: &[Effect]) -> String {
    let one = |e: &Effect| match *e {
        Effect::Exit(p) => format!("Effect::Exit({})", party(p)),
        Effect::OpenGate(g, p) => format!("Effect::OpenGate(GateIx({}), {})", g.0, party(p)),
        Effect::CloseGate(g, p) => format!("Effect::CloseGate(GateIx({}), {})", g.0, party(p)),
    };
    format!("vec![{}]", v.iter().map(one).collect::<Vec<_>>().join(", "))
}

fn tool(t: &ToolDef) -> String {
    format!("ToolDef {{ name: {}, description: {}, result: {} }}", string(&t.name), string(&t.description), option(&t.result))
}

fn optional_tool(t: &Option<ToolDef>) -> String {
    t.as_ref().map_or_else(|| "None".to_string(), |t| format!("Some({})", tool(t)))
}

fn asker(a: Asker) -> &'static str {
    match a {
        Asker::Lead => "Asker::Lead",
        Asker::Teammate => "Asker::Teammate",
        Asker::Any => "Asker::Any",
    }
}

fn role(r: Role) -> &'static str {
    match r {
        Role::Lead => "Role::Lead",
        Role::Teammate => "Role::Teammate",
    }
}

fn answer(a: ScriptedAnswer) -> &'static str {
    match a {
        ScriptedAnswer::Approve => "ScriptedAnswer::Approve",
        ScriptedAnswer::Reject => "ScriptedAnswer::Reject",
        ScriptedAnswer::RejectFirst => "ScriptedAnswer::RejectFirst",
        ScriptedAnswer::ByTask => "ScriptedAnswer::ByTask",
        ScriptedAnswer::Never => "ScriptedAnswer::Never",
    }
}

fn protocol(p: &Protocol, out: &mut String) {
    let deadline = p.deadline_ms.map_or_else(|| "None".to_string(), |ms| format!("Some({ms})"));
    let _ = writeln!(out, "            Protocol {{");
    let lines = [
        format!("name: {}", string(&p.name)),
        format!("request_type: {}", string(&p.request_type)),
        format!("response_type: {}", string(&p.response_type)),
        format!("from: {}", asker(p.from)),
        format!("to: {}", role(p.to)),
        format!("request_fields: {}", fields(&p.request_fields)),
        format!("request_text: {}", option(&p.request_text)),
        format!("response_fields: {}", fields(&p.response_fields)),
        format!("on_approve: {}", effects(&p.on_approve)),
        format!("on_reject: {}", effects(&p.on_reject)),
        format!("one_pending_per_addressee: {}", p.one_pending_per_addressee),
        format!("deadline_ms: {deadline}"),
        format!("retries: {}", p.retries),
        format!(
            "tools: ProtocolTools {{ request: {}, respond: {}, status: {} }}",
            tool(&p.tools.request),
            optional_tool(&p.tools.respond),
            optional_tool(&p.tools.status)
        ),
        format!("scripted: Scripted {{ answer: {}, rejections: {} }}", answer(p.scripted.answer), p.scripted.rejections),
        format!("builtin: {}", p.builtin),
    ];
    for line in lines {
        let _ = writeln!(out, "                {line},");
    }
    let _ = writeln!(out, "            }},");
}

/// `lesson_compiled.rs` for `file` (the loaded lesson): a module whose
/// `lesson()` builds a value equal to `file`.
fn render(file: &ProtocolFile) -> String {
    assert!(file.team.is_none(), "the lesson has no team; rendering one is not written");
    assert!(file.properties.is_empty(), "the lesson has no properties of its own; rendering them is not written");
    let mut out = String::new();
    out.push_str("//! The lesson's protocols and gate as `file::load` resolves\n");
    out.push_str("//! `format = 1, use = [\"lesson\"]`, written as Rust: the page builds them\n");
    out.push_str("//! without parsing `lesson.toml` (issue 28 §2). GENERATED by\n");
    out.push_str("//! `lesson_codegen` (do not edit); its test fails when this differs from\n");
    out.push_str("//! what loading gives. Regenerate with\n");
    let _ = writeln!(out, "//! `{REGENERATE}`.");
    out.push_str("\nuse std::sync::Arc;\n\n");
    out.push_str("use super::model::*;\n\n");
    out.push_str("/// The loaded lesson (`builtin::lesson_shared` keeps one).\n");
    out.push_str("#[rustfmt::skip]\n");
    out.push_str("pub(super) fn lesson() -> ProtocolFile {\n");
    out.push_str("    ProtocolFile {\n");
    out.push_str("        gates: vec![\n");
    for g in &file.gates {
        let _ = writeln!(out, "            {},", gate(g));
    }
    out.push_str("        ],\n");
    out.push_str("        protocols: vec![\n");
    for p in &file.protocols {
        protocol(p, &mut out);
    }
    out.push_str("        ],\n");
    out.push_str("        team: None,\n");
    out.push_str("        properties: Vec::new(),\n");
    let _ = writeln!(out, "        uses_lesson: {},", file.uses_lesson);
    let _ = writeln!(out, "        text: Arc::from({:?}),", &*file.text);
    out.push_str("    }\n");
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::file::{builtin, load};

    fn loaded() -> ProtocolFile {
        load(builtin::LESSON_USE).unwrap_or_else(|e| panic!("the lesson is refused:\n{}", e.render("lesson")))
    }

    #[test]
    fn the_compiled_lesson_is_what_loading_the_lesson_gives() {
        let file = loaded();
        let rendered = render(&file);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/protocol/file/lesson_compiled.rs");
        if std::env::var_os("REGENERATE_LESSON").is_some() {
            std::fs::write(path, &rendered).unwrap();
        }
        let checked_in = std::fs::read_to_string(path).unwrap();
        assert!(checked_in == rendered, "src/protocol/file/lesson_compiled.rs is not what lesson.toml loads to; run `{REGENERATE}`");
        assert_eq!(super::super::lesson_compiled::lesson(), file, "the compiled lesson builds another value; run `{REGENERATE}`");
    }

    #[test]
    fn the_rendering_refuses_what_it_cannot_write() {
        let mut file = loaded();
        file.properties = load(builtin::EXAMPLES[6].1).unwrap().properties;
        assert!(!file.properties.is_empty());
        assert!(std::panic::catch_unwind(|| render(&file)).is_err(), "properties rendered as none");
    }
}
