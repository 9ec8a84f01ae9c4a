//! Why a protocol file was refused: one `FileError` per kind of mistake,
//! worded to be read after `Error: ` by a user or a model and saying how to
//! fix it; a `Refusal` places one at a line, a column and a field path
//! (`protocol[1].tools.request.name`); `Refusals` are every one a load
//! found, in the order of the file.
//!
//! Owns the words and the placing (byte offset -> 1-based line and column).
//! Finding the mistakes is `parse`'s, `resolve`'s and `validate`'s job.

use std::fmt;
use std::ops::Range;

/// The longest deadline a protocol may set: one day, in milliseconds.
pub const MAX_DEADLINE_MS: u64 = 86_400_000;

/// The most retries after an expiry a protocol may allow. More would make
/// the explorer's state space grow with every retry for little to learn.
pub const MAX_RETRIES: u8 = 5;

/// One mistake in a protocol file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// Not TOML.
    #[error("this is not valid TOML: {0}")]
    Syntax(String),
    /// A key the format does not have.
    #[error("unknown key '{key}'; the keys here are: {known}")]
    UnknownKey {
        /// The key.
        key: String,
        /// The keys there are.
        known: String,
    },
    /// A required key is absent.
    #[error("'{key}' is missing: {why}")]
    MissingKey {
        /// The key.
        key: String,
        /// What it is for.
        why: &'static str,
    },
    /// A value of the wrong TOML type.
    #[error("expected {expected} here, found {found}")]
    WrongType {
        /// What the key takes.
        expected: &'static str,
        /// What it got.
        found: &'static str,
    },
    /// `format` is absent.
    #[error("the file does not say its format: add `format = 1` as its first line")]
    NoFormat,
    /// `format` is another number.
    #[error("format {0} is not one this version reads: write `format = 1`")]
    UnsupportedFormat(i64),
    /// `use` names something that is not built in.
    #[error("there is no built-in file named '{0}'; the built-in one is \"lesson\"")]
    UnknownBuiltin(String),
    /// A value outside its closed vocabulary.
    #[error("'{value}' is not one of: {allowed}")]
    BadChoice {
        /// What was written.
        value: String,
        /// What may be written.
        allowed: &'static str,
    },
    /// A number out of its range.
    #[error("{value} is out of range: write a number from {min} to {max}")]
    OutOfRange {
        /// What was written.
        value: String,
        /// The least.
        min: i64,
        /// The most.
        max: i64,
    },
    /// Not a valid name for a protocol, gate, field or property.
    #[error("'{0}' is not a valid name: a name is a lowercase letter followed by at most 31 lowercase letters, digits or '_'")]
    BadName(String),
    /// Not a valid team id.
    #[error("'{0}' is not a valid team id: a lowercase letter followed by at most 31 lowercase letters, digits, '_' or '-'")]
    BadTeamId(String),
    /// Not a valid agent name.
    #[error("'{name}' is not a valid agent name: {why}")]
    BadAgentName {
        /// The name.
        name: String,
        /// Why not.
        why: String,
    },
    /// A name used twice among items of one kind.
    #[error("the {kind} name '{name}' is used twice (first on line {first_line}); give each {kind} its own name")]
    DuplicateName {
        /// protocol, gate, field, teammate, property, enum value.
        kind: &'static str,
        /// The name.
        name: String,
        /// Where it was first used.
        first_line: usize,
    },
    /// A tool name providers refuse.
    #[error("'{0}' is not a valid tool name: 1 to 64 letters, digits, '_' or '-'")]
    BadToolName(String),
    /// A tool's `result` template that does not read.
    #[error("this result text does not read: {0}")]
    BadResult(super::result_text::TemplateError),
    /// A tool name every agent already has.
    #[error("'{0}' is a built-in tool's name; name the protocol's tool something else")]
    ToolClashesWithBuiltin(String),
    /// Two tools of one role share a name.
    #[error("the {role} already has a tool named '{name}' (from protocol '{other}'); give this tool another name")]
    ToolClash {
        /// The tool name.
        name: String,
        /// The role that would hold both.
        role: &'static str,
        /// The protocol the other one comes from.
        other: String,
    },
    /// A message type the bus keeps for itself.
    #[error("'{0}' is a built-in message type; name the protocol's messages something else, e.g. '<name>_request'")]
    MessageTypeReserved(String),
    /// A message type another protocol (or this one) uses.
    #[error("the message type '{name}' is already used by protocol '{other}'; each protocol needs its own request and response types")]
    MessageTypeClash {
        /// The type.
        name: String,
        /// Who uses it.
        other: String,
    },
    /// A field named like a key every message has.
    #[error(
        "'{0}' is a name every protocol message already uses (type, from, to, content, timestamp, request_id, approve); rename the field"
    )]
    ReservedField(String),
    /// A request field named `teammate` on a protocol whose request tool uses it.
    #[error("'teammate' names the addressee in the request tool of a protocol answered by a teammate; rename the field")]
    TeammateField,
    /// `values` on a field that is not an enum, or missing on an enum.
    #[error("{0}")]
    EnumValues(&'static str),
    /// An enum value used twice.
    #[error("the value '{0}' is listed twice; list each value once")]
    DuplicateValue(String),
    /// `content = true` on a field that is not text, or on two fields.
    #[error("{0}")]
    Content(&'static str),
    /// An effect's `gate` is missing or is where it has no meaning.
    #[error("{0}")]
    EffectGate(&'static str),
    /// A protocol nobody can answer (the protective rule `responder_required`).
    #[error("nobody can answer a '{protocol}' request: {why}. (To reproduce the failure this protective rule prevents instead, add \"responder_required\" to [team] rules_off.)")]
    NoResponder {
        /// The protocol.
        protocol: String,
        /// What is missing.
        why: String,
    },
    /// A gate that stays closed for ever (also `responder_required`).
    #[error("no protocol opens the gate '{0}': add an open_gate effect for it to a protocol's on_approve. (To reproduce the failure this protective rule prevents instead, add \"responder_required\" to [team] rules_off.)")]
    GateNeverOpens(String),
    /// `exit` applied to the lead.
    #[error(
        "this exit would apply to the lead, and the lead never exits; make it apply to a teammate (who = \"requester\" or \"addressee\")"
    )]
    ExitOnLead,
    /// Retries without a bound.
    #[error("{0}")]
    UnboundedRetry(String),
    /// A step asks with a protocol the lead may not use.
    #[error(
        "the lead may not ask with protocol '{0}' (its `from` is \"teammate\"); ask with a protocol whose `from` is \"lead\" or \"any\""
    )]
    LeadMayNotAsk(String),
    /// A step answers with a protocol the lead does not answer.
    #[error(
        "the lead does not answer protocol '{0}' (its `to` is \"teammate\"); only a protocol with `to = \"lead\"` has the lead answer"
    )]
    LeadMayNotAnswer(String),
    /// A step with no action or several.
    #[error("a step does exactly one thing: give it one of spawn, ask, answer, list, send")]
    StepAction,
    /// A name that refers to nothing.
    #[error("there is no {kind} named '{name}'; the {kind}s are: {known}")]
    Unknown {
        /// protocol, gate, teammate, tool, rule, event, agent, role, field.
        kind: &'static str,
        /// The name.
        name: String,
        /// What there is.
        known: String,
    },
    /// A value of the wrong type for its field.
    #[error("the field '{field}' is {expected}; write a value of that type")]
    FieldValue {
        /// The field.
        field: String,
        /// Its type, in words.
        expected: String,
    },
    /// Something the format cannot say, in its own words.
    #[error("{0}")]
    Invalid(String),
}

/// A mistake placed in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The field path, `protocol[1].tools.request.name` (array places count from 0).
    pub path: String,
    /// What is wrong and how to fix it.
    pub error: FileError,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}: {}", self.line, self.column, if self.path.is_empty() { "(file)" } else { &self.path }, self.error)
    }
}

/// Every mistake a load found, in file order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.0.iter().map(|r| r.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct Refusals(pub Vec<Refusal>);

impl Refusals {
    /// Each refusal as `FILE:LINE:COL: path: sentence`, one a line.
    pub fn render(&self, file: &str) -> String {
        self.0.iter().map(|r| format!("{file}:{r}\n")).collect()
    }
}

/// The mistakes found so far, by byte span, turned into `Refusals` once
/// the whole file has been read.
#[derive(Debug)]
pub(crate) struct Problems<'t> {
    text: &'t str,
    found: Vec<(Range<usize>, String, FileError)>,
}

impl<'t> Problems<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Problems { text, found: Vec::new() }
    }

    /// Records `error` at `span` (a byte range of the file) under `path`.
    pub(crate) fn add(&mut self, span: Range<usize>, path: impl Into<String>, error: FileError) {
        self.found.push((span, path.into(), error));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// The 1-based line of a byte offset.
    pub(crate) fn line_of(&self, at: usize) -> usize {
        place(self.text, at).0
    }

    /// Every mistake, placed and in file order.
    pub(crate) fn finish(self) -> Refusals {
        let text = self.text;
        let mut list: Vec<Refusal> = self
            .found
            .into_iter()
            .map(|(span, path, error)| {
                let (line, column) = place(text, span.start);
                Refusal { line, column, path, error }
            })
            .collect();
        list.sort_by_key(|a| (a.line, a.column));
        list.dedup();
        Refusals(list)
    }
}

/// The 1-based line and column (in characters) of byte offset `at`,
/// clamped into the text.
pub(crate) fn place(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_a_one_based_line_and_a_column_in_characters() {
        let text = "a = 1\nné = 2\n";
        assert_eq!(place(text, 0), (1, 1));
        assert_eq!(place(text, 6), (2, 1));
        assert_eq!(place(text, 9), (2, 3), "é is one column");
        assert_eq!(place(text, 999), (3, 1), "clamped to the end");
    }

    #[test]
    fn refusals_render_as_file_line_column_path_and_sentence() {
        let r = Refusals(vec![Refusal { line: 3, column: 7, path: "protocol[0].name".into(), error: FileError::BadName("X".into()) }]);
        assert!(r.render("a.toml").starts_with("a.toml:3:7: protocol[0].name: 'X' is not a valid name"));
    }
}
