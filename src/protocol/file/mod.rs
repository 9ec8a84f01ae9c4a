//! Protocol files: protocols, a team and properties written as data
//! (TOML, the contract in PROTOCOLS.md, copied to docs/protocol-files.md),
//! loaded into a resolved model whose names are small integer indices.
//!
//! A load reads the text (`parse`, over `read`'s spanned reader), merges
//! the lesson's protocols when the file uses them (`builtin`), refuses
//! every mistake it finds with its line, column, field path and a sentence
//! saying how to fix it (`validate`, `validate_team`, worded in `errors`),
//! and only then resolves names to indices (`resolve`, into `model`).
//!
//! Sans-IO like the rest of `protocol`: no async, no browser crates, no
//! clock, no files (the caller hands over the text). It must not depend on
//! the runtime: the runtime, the explorer and the page read the model (the
//! runtime's tools are generated from it; the switch of the team onto it is
//! the next step of issue 26). Today
//! the command line's `--check` reads a loaded file, and the explorer
//! checks a file's `[[property]]` entries on the built-in scenarios and on
//! the file's own team, over its own protocols (`monitor`).

pub mod builtin;
pub mod diff;
pub mod errors;
#[cfg(test)]
mod lesson_codegen;
mod lesson_compiled;
pub mod model;
pub mod monitor;
mod parse;
pub mod property;
mod read;
mod resolve;
pub mod result_text;
mod validate;
mod validate_team;

pub use errors::{FileError, Refusal, Refusals, MAX_DEADLINE_MS, MAX_RETRIES};
pub use model::*;
pub use property::*;
pub(crate) use validate::is_name;
pub use validate::{BUILTIN_TOOLS, FILE_ONLY_RULES, RESERVED_FIELDS};

use errors::Problems;

/// Loads a protocol file from its text: the resolved model, or every
/// refusal found (syntax first; the rules between items only once the
/// file reads as the format).
pub fn load(text: &str) -> Result<ProtocolFile, Refusals> {
    let mut p = Problems::new(text);
    let Some(spec) = parse::parse_file(text, &mut p) else { return Err(p.finish()) };
    let bare = spec.protocols.is_empty() && spec.gates.is_empty() && spec.uses.is_empty();
    let uses_lesson = bare || spec.uses.iter().any(|u| u.value == "lesson");
    let mut lesson_problems = Problems::new(builtin::LESSON);
    let lesson = if uses_lesson { parse::parse_file(builtin::LESSON, &mut lesson_problems) } else { None };
    if !lesson_problems.is_empty() {
        let error = FileError::Invalid("the built-in lesson file does not load; this is a bug in this program".into());
        p.add(0..0, "use", error);
        return Err(p.finish());
    }
    let known = validate::Known::new(&spec, lesson.as_ref());
    validate::validate_protocols(&spec, &known, &mut p);
    validate_team::validate_team_and_properties(&spec, &known, &mut p);
    if !p.is_empty() {
        return Err(p.finish());
    }
    resolve::resolve(&spec, &known, uses_lesson, text).map_err(|resolve::Unresolved(what)| {
        let error = FileError::Invalid(format!("'{what}' was accepted but names nothing; this is a bug in this program"));
        p.add(0..0, "", error);
        p.finish()
    })
}
