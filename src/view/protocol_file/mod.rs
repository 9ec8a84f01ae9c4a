//! What the Protocols view shows of a protocol file, computed: the file
//! checked (`check`: every refusal as a line of the error list, with its
//! line, column, field path and sentence in the reader's language, and
//! where to put the caret), and, when it loads, the previews — per
//! protocol its FSM in its own words and its tracker as the lesson writes
//! it, the tools each role gets as the JSON schemas a model receives
//! (`runtime::tools::generated`, the function the runtime uses) and the
//! team's roster as `config.json`. Also the commented template a new file
//! starts from (`TEMPLATE`) and the stored list of the user's files
//! (`store`).
//!
//! Pure: no DOM, no signals, no storage. Must not build a `ProtocolSet`
//! (it leaks names per set): the loader's `ProtocolFile` is enough.

pub mod store;

use crate::model::scripted::answer_points::capped_protocols;
use crate::model::ToolSchema;
use crate::protocol::file::{self, Asker, Effect, FileError, Party, ProtocolFile, Refusal, Role};
use crate::runtime::tools::generated::protocol_schemas;
use crate::view::i18n::{tr, Catalog};

/// The commented template a new file starts from: a small protocol, a team
/// and one property, every key explained.
pub const TEMPLATE: &str = include_str!("template.toml");

/// The largest file the editor checks, in bytes (256 KiB). A larger one is
/// refused with a sentence instead of being loaded, so typing into it never
/// waits on the loader.
pub const MAX_CHECKED_BYTES: usize = 256 * 1024;

/// Why a text could not be previewed at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// Over `MAX_CHECKED_BYTES`.
    #[error("the file is {bytes} bytes; the editor checks files up to {max} bytes")]
    TooLarge {
        /// Its size.
        bytes: usize,
        /// The cap.
        max: usize,
    },
}

/// One line of the error list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorLine {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The field path (`protocol[0].name`), empty for the whole file.
    pub path: String,
    /// What is wrong, in the reader's language.
    pub sentence: String,
    /// True when the sentence is the loader's English (a kind without a
    /// message of its own in the catalogs).
    pub english: bool,
    /// Where the caret goes when the line is clicked: a range of UTF-16
    /// code units of the text (what a textarea's selection counts), from
    /// the place to the end of its line.
    pub caret: (u32, u32),
}

/// What the editor shows of a text: its errors, or the file's previews.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// Too large to check.
    Refused(String),
    /// Every refusal, sorted by line and column.
    Errors(Vec<ErrorLine>),
    /// The file loads.
    Loaded(Box<Preview>),
}

impl Checked {
    /// True when the file loads.
    pub fn loads(&self) -> bool {
        matches!(self, Checked::Loaded(_))
    }
}

/// Checks `text` as the loader does and says what the editor shows, in the
/// language of `cat`.
pub fn check(cat: &Catalog, text: &str) -> Checked {
    if let Err(CheckError::TooLarge { bytes, max }) = within_cap(text) {
        return Checked::Refused(tr!(cat, "pf-too-large", bytes = bytes.to_string(), max = max.to_string()));
    }
    match file::load(text) {
        Ok(f) => Checked::Loaded(Box::new(preview(&f))),
        Err(refusals) => Checked::Errors(error_lines(cat, text, &refusals.0)),
    }
}

/// Refuses a text over `MAX_CHECKED_BYTES`.
pub fn within_cap(text: &str) -> Result<(), CheckError> {
    if text.len() > MAX_CHECKED_BYTES {
        return Err(CheckError::TooLarge { bytes: text.len(), max: MAX_CHECKED_BYTES });
    }
    Ok(())
}

/// The refusals as the error list's lines, sorted by line and column.
pub fn error_lines(cat: &Catalog, text: &str, refusals: &[Refusal]) -> Vec<ErrorLine> {
    let mut lines: Vec<ErrorLine> = refusals
        .iter()
        .map(|r| ErrorLine {
            line: r.line,
            column: r.column,
            path: r.path.clone(),
            sentence: words(cat, &r.error),
            english: !has_own_words(&r.error),
            caret: caret_range(text, r.line, r.column),
        })
        .collect();
    lines.sort_by_key(|l| (l.line, l.column));
    lines
}

/// True for the kinds of refusal with messages of their own in the
/// catalogs (`words` words the others in the loader's English).
pub fn has_own_words(e: &FileError) -> bool {
    matches!(
        e,
        FileError::Syntax(_)
            | FileError::UnknownKey { .. }
            | FileError::MissingKey { .. }
            | FileError::WrongType { .. }
            | FileError::NoFormat
            | FileError::UnsupportedFormat(_)
            | FileError::BadName(_)
            | FileError::DuplicateName { .. }
            | FileError::Unknown { .. }
    )
}

/// A refusal's sentence in the reader's language. The kinds a learner
/// meets most have their own messages; the others keep the loader's
/// English sentence (protocol identifiers in it stay as written).
pub fn words(cat: &Catalog, e: &FileError) -> String {
    match e {
        FileError::Syntax(detail) => tr!(cat, "pf-error-syntax", detail = detail.as_str()),
        FileError::UnknownKey { key, known } => tr!(cat, "pf-error-unknown-key", key = key.as_str(), known = known.as_str()),
        FileError::MissingKey { key, .. } => tr!(cat, "pf-error-missing-key", key = key.as_str()),
        FileError::WrongType { expected, found } => tr!(cat, "pf-error-wrong-type", expected = *expected, found = *found),
        FileError::NoFormat => cat.t("pf-error-no-format"),
        FileError::UnsupportedFormat(n) => tr!(cat, "pf-error-format", format = n.to_string()),
        FileError::BadName(name) => tr!(cat, "pf-error-bad-name", name = name.as_str()),
        FileError::DuplicateName { name, first_line, .. } => {
            tr!(cat, "pf-error-duplicate", name = name.as_str(), line = first_line.to_string())
        }
        FileError::Unknown { name, known, .. } => tr!(cat, "pf-error-unknown", name = name.as_str(), known = known.as_str()),
        other => other.to_string(),
    }
}

/// The UTF-16 range from 1-based `line` and `column` (in characters) to
/// the end of that line, clamped into the text; an empty line selects
/// nothing (the caret sits there).
pub fn caret_range(text: &str, line: usize, column: usize) -> (u32, u32) {
    let mut units = 0usize;
    let mut start_of_line = None;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line {
            start_of_line = Some((units, l));
            break;
        }
        units += l.encode_utf16().count() + 1;
    }
    let total = text.encode_utf16().count();
    let Some((line_start, l)) = start_of_line else {
        let end = u32::try_from(total).unwrap_or(u32::MAX);
        return (end, end);
    };
    let before: usize = l.chars().take(column.saturating_sub(1)).map(char::len_utf16).sum();
    let line_units = l.trim_end_matches('\r').encode_utf16().count();
    let start = (line_start + before).min(total);
    let end = (line_start + line_units).max(start).min(total);
    (u32::try_from(start).unwrap_or(u32::MAX), u32::try_from(end).unwrap_or(u32::MAX))
}

/// One protocol's preview.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolPreview {
    /// Its name.
    pub name: String,
    /// True for the lesson's two.
    pub builtin: bool,
    /// The FSM in its own words, one line each: the states, the messages
    /// and who sends them, the effects, the deadline and retries.
    pub fsm: Vec<String>,
    /// The tracker as the lesson writes it.
    pub tracker: String,
}

/// The tools one role gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleTools {
    /// `lead` or `teammate`.
    pub role: &'static str,
    /// The schemas, as `runtime::tools::generated` makes them.
    pub schemas: Vec<ToolSchema>,
    /// The same, as pretty JSON.
    pub json: String,
}

/// Everything previewed of a file that loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// Per protocol, in the file's order (the lesson's first when used).
    pub protocols: Vec<ProtocolPreview>,
    /// The protocol tools of the lead, then of a teammate.
    pub tools: Vec<RoleTools>,
    /// The team's roster as `config.json`, when the file has a team.
    pub config: Option<String>,
    /// How many prompts the team's lead is given (0 without a team).
    pub prompts: usize,
    /// The protocols whose answers the explorer caps, with how many answers
    /// each has (`answer_points::capped_protocols`); the check says so in
    /// words (`words::explorer::capped_answers`).
    pub capped: Vec<(String, u128)>,
}

/// The previews of a loaded file.
pub fn preview(f: &ProtocolFile) -> Preview {
    let protocols = f
        .protocols
        .iter()
        .map(|p| ProtocolPreview { name: p.name.clone(), builtin: p.builtin, fsm: fsm_lines(f, p), tracker: tracker_text(p) })
        .collect();
    let tools = [Role::Lead, Role::Teammate]
        .into_iter()
        .map(|role| {
            let schemas = protocol_schemas(f, role);
            let json = serde_json::to_string_pretty(&schemas).unwrap_or_default();
            RoleTools { role: role.name(), schemas, json }
        })
        .collect();
    Preview {
        protocols,
        tools,
        config: f.team.as_ref().map(config_json),
        prompts: f.team.as_ref().map_or(0, |t| t.prompts.len()),
        capped: capped_protocols(f),
    }
}

/// Why a checked file cannot be run or explored yet, in the reader's
/// language (`None`: it can). A file with errors says how many and that
/// the list below names them; a file that loads needs a team with a
/// prompt.
pub fn run_blocked(cat: &Catalog, checked: Option<&Checked>) -> Option<String> {
    match checked {
        None => Some(cat.t("pf-run-unchecked")),
        Some(Checked::Refused(why)) => Some(why.clone()),
        Some(Checked::Errors(list)) => Some(tr!(cat, "pf-run-errors", count = list.len())),
        Some(Checked::Loaded(p)) if p.config.is_none() => Some(cat.t("pf-run-no-team")),
        Some(Checked::Loaded(p)) if p.prompts == 0 => Some(cat.t("pf-run-no-prompt")),
        Some(Checked::Loaded(_)) => None,
    }
}

/// An effect as the file writes it: `exit addressee`, `open_gate plan requester`.
fn effect_words(f: &ProtocolFile, e: &Effect) -> String {
    let party = |p: &Party| match p {
        Party::Requester => "requester",
        Party::Addressee => "addressee",
    };
    let gate = |g: &file::GateIx| f.gates.get(usize::from(g.0)).map_or("?", |g| g.name.as_str()).to_string();
    match e {
        Effect::Exit(p) => format!("exit {}", party(p)),
        Effect::OpenGate(g, p) => format!("open_gate {} {}", gate(g), party(p)),
        Effect::CloseGate(g, p) => format!("close_gate {} {}", gate(g), party(p)),
    }
}

/// The FSM of `p` in its own words.
fn fsm_lines(f: &ProtocolFile, p: &file::Protocol) -> Vec<String> {
    let effects = |list: &[Effect]| {
        if list.is_empty() {
            "-".to_string()
        } else {
            list.iter().map(|e| effect_words(f, e)).collect::<Vec<_>>().join(", ")
        }
    };
    let from = match p.from {
        Asker::Lead => "lead",
        Asker::Teammate => "teammate",
        Asker::Any => "lead | teammate",
    };
    let mut lines = vec![
        "pending -> approved | rejected".to_string(),
        format!("{from} --{}--> {}", p.request_type, p.to.name()),
        format!("{} --{}--> {from}", p.to.name(), p.response_type),
        format!("approved: {}", effects(&p.on_approve)),
        format!("rejected: {}", effects(&p.on_reject)),
    ];
    if let Some(ms) = p.deadline_ms {
        lines.push(format!("deadline_ms = {ms} -> rejected (expired)"));
        lines.push(format!("retries = {}", p.retries));
    }
    if p.one_pending_per_addressee {
        lines.push("one_pending_per_addressee = true".to_string());
    }
    lines
}

/// The tracker as the lesson writes it: the lesson's two (or a file's
/// protocol with their request types) keep their own keys (`shutdown_requests = {req_id: {target, status}}`, `plan_requests
/// = {req_id: {from, plan, status}}`); a file's protocol lists `from`,
/// `to`, its request fields and `status` (docs/protocol-files.md).
fn tracker_text(p: &file::Protocol) -> String {
    let mut keys: Vec<String> = Vec::new();
    let lessons = p.builtin || matches!(p.request_type.as_str(), "shutdown_request" | "plan_approval_request");
    if lessons {
        if p.to == Role::Teammate {
            keys.push("\"target\": …".into());
        } else {
            keys.push("\"from\": …".into());
        }
    } else {
        keys.push("\"from\": …".into());
        keys.push("\"to\": …".into());
    }
    keys.extend(p.request_fields.iter().map(|fd| format!("{}: …", json_string(&fd.name))));
    keys.push("\"status\": \"pending\"".into());
    format!("{}_requests = {{req_id: {{{}}}}}", p.name, keys.join(", "))
}

/// The team's roster as the lesson's `config.json`: every teammate as it
/// is once spawned (`working`), the keys in the lesson's order
/// (`team_name`, then `members`; `name`, `role`, `status`), as
/// `view::machinery` writes the run's.
fn config_json(team: &file::Team) -> String {
    let members: Vec<String> = team
        .teammates
        .iter()
        .map(|t| format!("    {{\"name\": {}, \"role\": {}, \"status\": \"working\"}}", json_string(t.name.as_str()), json_string(&t.role)))
        .collect();
    let list = if members.is_empty() { "[]".to_string() } else { format!("[\n{}\n  ]", members.join(",\n")) };
    format!("{{\n  \"team_name\": {},\n  \"members\": {list}\n}}", json_string(&team.id))
}

/// `s` as a JSON string.
fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests;
