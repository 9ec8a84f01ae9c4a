//! The trace file: a `Trace` written as versioned JSON, and read back with
//! validation that names what is wrong (the size, the syntax, the version,
//! the field with its path and event number, the numbering, the time order,
//! or the protocol rule replay breaks).
//!
//! Owns the file format and the import checks. Field paths come from
//! `serde_path_to_error` over the serde derives of `Trace`, `TraceEntry`,
//! `Event` and `Message`; there is no second copy of the schema here. It
//! must not change the event vocabulary (`trace`) or the protocol rules
//! (`team`, which import replays through). Pure: serde and serde_json only;
//! no browser crates, no clock, no storage.

use std::sync::Arc;

use super::text::clip;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::file::diff::{compare, FileMismatch};
use super::file::{FileError, Refusal};
pub use super::recorded_file::LoadFile;
use super::trace::TRACE_FORMAT_VERSIONS;
use super::{Event, Message, Millis, ProtocolSet, ReplayError, Team, Trace, TraceError};

/// The largest file `import_json` reads, in bytes (20 MiB); checked before
/// parsing.
pub const MAX_IMPORT_BYTES: u64 = 20 * 1024 * 1024;

/// The trace format versions `import_json` reads: 1, and 2 (a header that
/// records the run's protocol file).
pub const SUPPORTED_VERSIONS: &[u32] = &TRACE_FORMAT_VERSIONS;

/// Why a file could not be imported as a trace. Every variant names the
/// problem: the field, the event, the version or the size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The file is over `MAX_IMPORT_BYTES`.
    #[error("the file is {} ({size} bytes), over the import limit of {} ({cap} bytes)", mib(*size), mib(*cap))]
    TooLarge {
        /// The file's size in bytes.
        size: u64,
        /// The limit in bytes.
        cap: u64,
    },
    /// The file holds nothing but whitespace.
    #[error("the file is empty; expected a trace exported as JSON")]
    Empty,
    /// The file is not JSON at all.
    #[error("the file is not valid JSON: {detail} at line {line}, column {column}")]
    NotJson {
        /// Line of the first error, from 1.
        line: usize,
        /// Column of the first error, from 1.
        column: usize,
        /// What the parser expected.
        detail: String,
    },
    /// The file is JSON, but its top level is not an object.
    #[error("the file is JSON but not a trace: expected an object with version, team_name, seed and entries, found {found}")]
    NotATrace {
        /// What the top level is (`an array`, `a string`, ...).
        found: String,
    },
    /// The file has no `version` field.
    #[error("the file has no \"version\" field, so it is not a trace export; this build reads trace format version {}", supported())]
    MissingVersion,
    /// The file was written in a format version this build does not read.
    #[error("trace format version {found} is not supported; this build reads version {}", supported())]
    UnsupportedVersion {
        /// The version as written in the file (JSON text).
        found: String,
    },
    /// A required field is absent.
    #[error("{} is missing the required field '{field}'", location(*entry))]
    MissingField {
        /// The position of the event in `entries` (its `seq` in a
        /// well-numbered file), or `None` for the trace's own fields.
        entry: Option<u64>,
        /// The field's path within the event (or the trace), e.g. `time`,
        /// `event.message.from`, `entries`.
        field: String,
    },
    /// A field holds a value of the wrong type or shape.
    #[error("{} has an invalid field '{field}': {problem}", location(*entry))]
    BadField {
        /// The position of the event in `entries`, or `None` for the
        /// trace's own fields (and for an element of `entries` that is not
        /// an event object at all, named `entries[i]`).
        entry: Option<u64>,
        /// The field's path.
        field: String,
        /// What is wrong with it, as serde says it.
        problem: String,
    },
    /// An event's `kind` is not one this build knows.
    #[error("event {entry} has the unknown kind '{kind}'; {expected}")]
    UnknownEventKind {
        /// The position of the event in `entries`.
        entry: u64,
        /// The kind as written.
        kind: String,
        /// The kinds this build knows.
        expected: String,
    },
    /// Sequence numbers must count 0, 1, 2, ... in file order.
    #[error("event at position {index} is numbered {seq}; events must be numbered 0, 1, 2, ... in order")]
    BadSequence {
        /// The position in `entries`.
        index: u64,
        /// The `seq` it carried.
        seq: u64,
    },
    /// An event is earlier than the one before it.
    #[error("event {seq} happens at {at}, before the previous event at {previous}; time cannot go backwards")]
    TimeWentBackwards {
        /// The offending event.
        seq: u64,
        /// Its time.
        at: Millis,
        /// The previous event's time.
        previous: Millis,
    },
    /// The trace is well formed, but replaying it breaks a protocol rule.
    #[error("event {} breaks the protocol rules: {}", .0.seq, .0.source)]
    BreaksProtocol(ReplayError),
    /// The protocol file the trace records does not load: the loader's
    /// first refusal, placed in the recorded file's text.
    #[error("the protocol file '{name}' this trace records does not load: line {}, column {}: {}{}", refusal.line, refusal.column, if refusal.path.is_empty() { String::new() } else { format!("{}: ", refusal.path) }, refusal.error)]
    RecordedFileRefused {
        /// The name the header gives the file.
        name: String,
        /// The loader's first refusal: line and column in the recorded
        /// text, field path (empty for the file as a whole), sentence.
        refusal: Box<Refusal>,
    },
    /// The trace ran under another protocol file than the one it is read
    /// under; the sentence names the first difference.
    #[error(transparent)]
    DifferentFile(Box<FileMismatch>),
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn supported() -> String {
    SUPPORTED_VERSIONS.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

fn location(entry: Option<u64>) -> String {
    match entry {
        Some(i) => format!("event {i}"),
        None => "the trace".to_string(),
    }
}

/// The trace as versioned JSON: pretty-printed with two-space indents, fields
/// in a fixed order, ending in a newline. `trace_json(&import_json(&x)?)`
/// equals `x` byte for byte for every `x` this function wrote.
pub fn trace_json(trace: &Trace) -> String {
    // Serialising a `Trace` cannot fail: every map key is a string and no
    // value is a float; an empty string would still be refused on import.
    let mut json = serde_json::to_string_pretty(trace).unwrap_or_default();
    json.push('\n');
    json
}

/// Refuses a file of `size` bytes over `MAX_IMPORT_BYTES`; a caller holding
/// a file handle can ask this before reading the file at all.
pub fn check_import_size(size: u64) -> Result<(), ImportError> {
    if size > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge { size, cap: MAX_IMPORT_BYTES });
    }
    Ok(())
}

/// Reads a trace from JSON text, checking in order: the size (before
/// parsing), the JSON syntax, the version, each field's presence and type,
/// the numbering and time order, and finally that the trace replays under
/// the protocol rules. Pure: on failure nothing anywhere has changed.
///
/// Violations that the invariant checker reports (a second answer, a message
/// to an exited teammate, ...) do not stop an import: such traces are what
/// the checker is for.
pub fn import_json(text: &str) -> Result<Trace, ImportError> {
    import_json_under(text, &ProtocolSet::lesson())
}

/// [`import_json`] with the protocol file the trace's header records read
/// by `load` (the page's first screen hands over a file it loaded
/// beforehand through a split point: `recorded_file::Preloaded`).
pub fn import_json_with(text: &str, load: &impl LoadFile) -> Result<Trace, ImportError> {
    check_import_size(text.len() as u64)?;
    read_json_under(text, &ProtocolSet::lesson(), load)
}

/// `import_json` for a run under `protocols` (a team given a protocol
/// file): the file protocols' types and kinds the trace names are tied to
/// `protocols` before it replays. A trace whose header records its file is
/// read under the file it records, and refused
/// ([`ImportError::DifferentFile`]) when that differs from `protocols`
/// where the trace's meaning depends on it (`file::diff`); with the
/// lesson's `protocols` (what `import_json` passes) it is read under its
/// own file, so it imports anywhere.
pub fn import_json_under(text: &str, protocols: &ProtocolSet) -> Result<Trace, ImportError> {
    check_import_size(text.len() as u64)?;
    read_json_under(text, protocols, &super::file::load)
}

/// Reads a trace the page wrote itself (a run kept in browser storage) as
/// [`import_json`] reads a file, without the file-size cap: a run the page
/// recorded (100,000 events are about 27 MB of JSON) may be longer than a
/// file one picks.
pub fn read_json(text: &str) -> Result<Trace, ImportError> {
    read_json_with(text, &super::file::load)
}

/// [`read_json`] with the recorded protocol file read by `load` (as
/// [`import_json_with`]).
pub fn read_json_with(text: &str, load: &impl LoadFile) -> Result<Trace, ImportError> {
    read_json_under(text, &ProtocolSet::lesson(), load)
}

/// [`read_json`] for a run under `protocols`, the recorded file read by
/// `load`.
fn read_json_under(text: &str, protocols: &ProtocolSet, load: &impl LoadFile) -> Result<Trace, ImportError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let detail = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
        ImportError::NotJson { line: e.line(), column: e.column(), detail }
    })?;
    let Value::Object(top) = &value else {
        return Err(ImportError::NotATrace { found: describe_value(&value) });
    };
    match top.get("version") {
        None => return Err(ImportError::MissingVersion),
        Some(v) if v.as_u64().and_then(|n| u32::try_from(n).ok()).is_some_and(|n| SUPPORTED_VERSIONS.contains(&n)) => {}
        Some(v) => return Err(ImportError::UnsupportedVersion { found: clip(&v.to_string(), 40) }),
    }
    let raw: Trace = serde_path_to_error::deserialize(&value).map_err(|e| field_error(&value, e))?;
    let mut trace = Trace::from_parts(raw.team_name.clone(), raw.seed, raw.version, raw.entries().to_vec()).map_err(|e| match e {
        TraceError::BadSequence { index, seq } => ImportError::BadSequence { index, seq },
        TraceError::TimeWentBackwards { seq, at, previous } => ImportError::TimeWentBackwards { seq, at, previous },
        TraceError::UnsupportedVersion(v) => ImportError::UnsupportedVersion { found: v.to_string() },
    })?;
    // A run recorded with a protective rule off replays under that rule.
    trace.rules = raw.rules;
    let protocols = match raw.recorded_file() {
        Some(recorded) => {
            let own = recorded_protocols(recorded, load)?;
            if !protocols.is_lesson_only() {
                compare(own.under(), protocols.under()).map_err(ImportError::DifferentFile)?;
            }
            own
        }
        None => protocols.clone(),
    };
    if !protocols.is_lesson_only() {
        trace.resolve_protocols(protocols).map_err(|e| ImportError::BreaksProtocol(ReplayError { seq: e.seq, source: e.source.into() }))?;
    }
    Team::replay(&trace).map_err(ImportError::BreaksProtocol)?;
    Ok(trace)
}

/// The protocols of the file a trace's header records, loaded from its
/// text by `load`.
fn recorded_protocols(recorded: &super::trace::RecordedFile, load: &impl LoadFile) -> Result<ProtocolSet, ImportError> {
    match load(&recorded.text) {
        Ok(file) => Ok(ProtocolSet::new(Arc::new(file))),
        Err(refusals) => {
            let first = refusals.0.into_iter().next();
            let refusal = first.unwrap_or_else(|| Refusal {
                line: 1,
                column: 1,
                path: String::new(),
                error: FileError::Invalid("the loader refused it without saying why; this is a bug in this program".into()),
            });
            Err(ImportError::RecordedFileRefused { name: recorded.name.clone(), refusal: Box::new(refusal) })
        }
    }
}

/// One step of a field path.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// A serde error's path as steps (`entries[3].event` is `entries`, `3`,
/// `event`).
fn steps(path: &serde_path_to_error::Path) -> Vec<Step> {
    use serde_path_to_error::Segment;
    path.iter()
        .filter_map(|s| match s {
            Segment::Map { key } => Some(Step::Key(key.clone())),
            Segment::Seq { index } => Some(Step::Index(*index)),
            Segment::Enum { variant } => Some(Step::Key(variant.clone())),
            Segment::Unknown => None,
        })
        .collect()
}

/// `event.message.from`, `entries[0]`: steps written as a path.
fn dotted(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The field serde names in a "missing field `x`" error. This reads the
/// error's category (serde's fixed wording for a missing field), not the
/// schema.
fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `").and_then(|rest| rest.split('`').next())
}

/// Turns a path-tracked serde error about the whole file into the error
/// that names the event and the field.
fn field_error(file: &Value, error: serde_path_to_error::Error<serde_json::Error>) -> ImportError {
    let path = steps(error.path());
    let message = error.inner().to_string();
    match path.as_slice() {
        // Inside one element of `entries`.
        [Step::Key(entries), Step::Index(i), rest @ ..] if entries == "entries" => {
            let index = *i as u64;
            let entry = &file["entries"][*i];
            if rest.is_empty() && !entry.is_object() {
                return ImportError::BadField {
                    entry: None,
                    field: format!("entries[{i}]"),
                    problem: format!("expected an event object, found {}", describe_value(entry)),
                };
            }
            match rest {
                [Step::Key(event), ..] if event == "event" && entry["event"].is_object() => event_error(index, &entry["event"], &message),
                _ => located(Some(index), rest, &message),
            }
        }
        _ => located(None, &path, &message),
    }
}

/// The error for `message` at `path` (relative to the event at `entry`, or
/// to the file for `None`).
fn located(entry: Option<u64>, path: &[Step], message: &str) -> ImportError {
    match missing_field(message) {
        Some(field) => {
            let mut full = path.to_vec();
            full.push(Step::Key(field.to_string()));
            ImportError::MissingField { entry, field: dotted(&full) }
        }
        None => ImportError::BadField { entry, field: dotted(path), problem: plain(message) },
    }
}

/// The error for an event object that does not deserialise as an `Event`.
///
/// `Event` is an internally tagged enum (`"kind": ...`): serde buffers its
/// fields before choosing the variant, so `serde_path_to_error` sees no
/// further than `event`. The field is found without a copy of the schema:
/// the `message` of an event whose kind takes one (serde asks for it when
/// it is removed) is deserialised as a `Message` on its own, with its path;
/// otherwise the culprit is the one field whose removal turns the error
/// into "missing field" for that field, or makes it go away (an optional
/// field).
fn event_error(index: u64, event: &Value, message: &str) -> ImportError {
    let at = Some(index);
    let key = |k: &str| Step::Key(k.to_string());
    let Value::Object(fields) = event else {
        return located(at, &[key("event")], message);
    };
    // The event's kind takes a `message` when, without it, serde asks for it.
    let takes_message = || {
        let mut without = fields.clone();
        without.remove("message");
        Event::deserialize(&Value::Object(without)).is_err_and(|e| missing_field(&e.to_string()) == Some("message"))
    };
    if let Some(inner @ Value::Object(_)) = fields.get("message").filter(|_| takes_message()) {
        if let Err(e) = serde_path_to_error::deserialize::<_, Message>(inner) {
            let mut path = vec![key("event"), key("message")];
            path.extend(steps(e.path()));
            return located(at, &path, &e.inner().to_string());
        }
    }
    match fields.get("kind") {
        None => return ImportError::MissingField { entry: at, field: "event.kind".into() },
        Some(Value::String(kind)) => {
            if let Some(rest) = message.strip_prefix(&format!("unknown variant `{kind}`, ")) {
                return ImportError::UnknownEventKind { entry: index, kind: kind.clone(), expected: rest.replace('`', "") };
            }
        }
        Some(other) => {
            return ImportError::BadField {
                entry: at,
                field: "event.kind".into(),
                problem: format!("expected a string, found {}", describe_value(other)),
            };
        }
    }
    if let Some(field) = missing_field(message) {
        return ImportError::MissingField { entry: at, field: format!("event.{field}") };
    }
    match culprit(fields) {
        Some(field) => ImportError::BadField { entry: at, field: format!("event.{field}"), problem: plain(message) },
        None => ImportError::BadField { entry: at, field: "event".into(), problem: plain(message) },
    }
}

/// The field of an event object that makes it fail to deserialise: the one
/// whose removal leaves only "missing field" for that very field, or no
/// error at all. Only run on the error path.
fn culprit(fields: &Map<String, Value>) -> Option<&str> {
    // `kind` is a known kind by now; removing it would only blame it.
    fields.keys().filter(|name| *name != "kind").find_map(|name| {
        let mut without = fields.clone();
        without.remove(name);
        match Event::deserialize(&Value::Object(without)) {
            Ok(_) => Some(name.as_str()),
            Err(e) if missing_field(&e.to_string()) == Some(name.as_str()) => Some(name.as_str()),
            Err(_) => None,
        }
    })
}

/// serde's message with Rust's integer type names said as ranges.
fn plain(message: &str) -> String {
    message.replace("expected u64", "expected a whole number from 0 to 2^64-1")
}

/// A short description of a JSON value for error messages.
fn describe_value(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", clip(&Value::String(s.clone()).to_string(), 40)),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::testing::handshake;

    fn json_value(trace: &Trace) -> Value {
        serde_json::from_str(&trace_json(trace)).unwrap()
    }

    fn import_value(v: &Value) -> Result<Trace, ImportError> {
        import_json(&v.to_string())
    }

    #[test]
    fn export_then_import_then_export_is_byte_identical() {
        let trace = handshake();
        let first = trace_json(&trace);
        let back = import_json(&first).unwrap();
        assert_eq!(back, trace);
        assert_eq!(trace_json(&back), first);
        assert!(first.starts_with("{\n  \"version\": 1,"), "{}", &first[..40]);
        assert!(first.ends_with("}\n"));
    }

    #[test]
    fn a_byte_order_mark_is_ignored() {
        let trace = handshake();
        assert_eq!(import_json(&format!("\u{feff}{}", trace_json(&trace))).unwrap(), trace);
    }

    #[test]
    fn a_file_over_the_cap_is_refused_before_parsing() {
        let huge = " ".repeat(MAX_IMPORT_BYTES as usize + 1);
        let err = import_json(&huge).unwrap_err();
        assert_eq!(err, ImportError::TooLarge { size: MAX_IMPORT_BYTES + 1, cap: MAX_IMPORT_BYTES });
        assert!(err.to_string().contains("20.0 MiB"), "{err}");
        assert!(err.to_string().contains(&(MAX_IMPORT_BYTES + 1).to_string()), "{err}");
        assert_eq!(check_import_size(MAX_IMPORT_BYTES), Ok(()));
        assert_eq!(check_import_size(u64::MAX), Err(ImportError::TooLarge { size: u64::MAX, cap: MAX_IMPORT_BYTES }));
    }

    #[test]
    fn an_empty_file_is_refused_as_empty() {
        assert_eq!(import_json(" \n"), Err(ImportError::Empty));
    }

    #[test]
    fn text_that_is_not_json_is_refused_with_its_line_and_column() {
        let err = import_json("{\n  \"version\": 1,\n  oops\n}").unwrap_err();
        let ImportError::NotJson { line, column, .. } = &err else { panic!("{err:?}") };
        assert_eq!((*line, *column), (3, 3));
        assert!(err.to_string().contains("line 3, column 3"), "{err}");
        assert!(!err.to_string().contains("line 3 column 3"), "the position is not repeated: {err}");
    }

    #[test]
    fn json_that_is_not_an_object_is_not_a_trace() {
        let err = import_json("[1, 2]").unwrap_err();
        assert_eq!(err, ImportError::NotATrace { found: "an array".into() });
    }

    #[test]
    fn a_missing_or_unknown_version_names_the_supported_one() {
        let mut v = json_value(&handshake());
        v["version"] = Value::from(3);
        let err = import_value(&v).unwrap_err();
        assert_eq!(err, ImportError::UnsupportedVersion { found: "3".into() });
        assert_eq!(err.to_string(), "trace format version 3 is not supported; this build reads version 1, 2");
        v["version"] = Value::from("1");
        assert_eq!(import_value(&v), Err(ImportError::UnsupportedVersion { found: "\"1\"".into() }));
        v.as_object_mut().unwrap().remove("version");
        let err = import_value(&v).unwrap_err();
        assert_eq!(err, ImportError::MissingVersion);
        assert!(err.to_string().contains("version 1, 2"), "{err}");
    }

    #[test]
    fn a_missing_field_is_named_with_its_event() {
        let mut v = json_value(&handshake());
        v.as_object_mut().unwrap().remove("entries");
        assert_eq!(import_value(&v), Err(ImportError::MissingField { entry: None, field: "entries".into() }));

        let mut v = json_value(&handshake());
        v["entries"][2].as_object_mut().unwrap().remove("time");
        let err = import_value(&v).unwrap_err();
        assert_eq!(err, ImportError::MissingField { entry: Some(2), field: "time".into() });
        assert_eq!(err.to_string(), "event 2 is missing the required field 'time'");

        let mut v = json_value(&handshake());
        v["entries"][2]["event"]["message"].as_object_mut().unwrap().remove("from");
        assert_eq!(import_value(&v), Err(ImportError::MissingField { entry: Some(2), field: "event.message.from".into() }));

        let mut v = json_value(&handshake());
        v["entries"][1]["event"].as_object_mut().unwrap().remove("role");
        assert_eq!(import_value(&v), Err(ImportError::MissingField { entry: Some(1), field: "event.role".into() }));

        let mut v = json_value(&handshake());
        v["entries"][1]["event"].as_object_mut().unwrap().remove("kind");
        assert_eq!(import_value(&v), Err(ImportError::MissingField { entry: Some(1), field: "event.kind".into() }));
    }

    #[test]
    fn an_ill_typed_field_is_named_with_its_event() {
        let mut v = json_value(&handshake());
        v["seed"] = Value::from(-1);
        let err = import_value(&v).unwrap_err();
        assert!(matches!(&err, ImportError::BadField { entry: None, field, .. } if field == "seed"), "{err:?}");

        let mut v = json_value(&handshake());
        v["entries"][3]["time"] = Value::from("soon");
        let err = import_value(&v).unwrap_err();
        assert!(matches!(&err, ImportError::BadField { entry: Some(3), field, .. } if field == "time"), "{err:?}");
        assert!(err.to_string().starts_with("event 3 has an invalid field 'time'"), "{err}");
        assert!(err.to_string().contains("\"soon\""), "{err}");

        let mut v = json_value(&handshake());
        v["entries"][4]["event"]["message"]["request_id"] = Value::from("XYZ");
        let err = import_value(&v).unwrap_err();
        assert!(matches!(&err, ImportError::BadField { entry: Some(4), field, .. } if field == "event.message.request_id"), "{err:?}");
        assert!(err.to_string().contains("8 lowercase hex"), "{err}");

        let mut v = json_value(&handshake());
        v["entries"][1]["event"]["name"] = Value::from("two words");
        let err = import_value(&v).unwrap_err();
        assert!(matches!(&err, ImportError::BadField { entry: Some(1), field, .. } if field == "event.name"), "{err:?}");

        let mut v = json_value(&handshake());
        v["entries"][0] = Value::from(5);
        let err = import_value(&v).unwrap_err();
        assert!(matches!(&err, ImportError::BadField { entry: None, field, .. } if field == "entries[0]"), "{err:?}");
    }

    #[test]
    fn an_unknown_event_kind_is_named_with_the_known_ones() {
        let mut v = json_value(&handshake());
        v["entries"][0]["event"]["kind"] = Value::from("teleported");
        let err = import_value(&v).unwrap_err();
        assert!(matches!(&err, ImportError::UnknownEventKind { entry: 0, kind, .. } if kind == "teleported"), "{err:?}");
        assert!(err.to_string().contains("run_started"), "{err}");
    }

    #[test]
    fn bad_numbering_and_time_going_backwards_are_refused() {
        let mut v = json_value(&handshake());
        v["entries"][2]["seq"] = Value::from(7);
        assert_eq!(import_value(&v), Err(ImportError::BadSequence { index: 2, seq: 7 }));
        let mut v = json_value(&handshake());
        v["entries"][3]["time"] = Value::from(0);
        assert_eq!(import_value(&v), Err(ImportError::TimeWentBackwards { seq: 3, at: Millis(0), previous: Millis(2) }));
    }

    #[test]
    fn a_trace_whose_replay_breaks_the_rules_names_the_event_and_the_rule() {
        let mut v = json_value(&handshake());
        // The shutdown response now comes from someone nobody spawned.
        let seq = v["entries"].as_array().unwrap().iter().position(|e| e["event"]["message"]["type"] == "shutdown_response").unwrap();
        v["entries"][seq - 1]["event"]["by"] = Value::from("mallory");
        let err = import_value(&v).unwrap_err();
        let ImportError::BreaksProtocol(replay) = &err else { panic!("{err:?}") };
        assert_eq!(replay.seq, seq as u64 - 1);
        assert!(err.to_string().starts_with(&format!("event {} breaks the protocol rules: ", seq - 1)), "{err}");
        assert!(err.to_string().contains("mallory"), "{err}");
    }

    fn one_event(event: &str) -> String {
        format!(r#"{{"version":1,"team_name":"x","seed":1,"entries":[{{"seq":0,"time":0,"event":{event}}}]}}"#)
    }

    #[test]
    fn an_ill_typed_event_field_is_named_wherever_it_stands_in_the_event() {
        let err = import_json(&one_event(r#"{"kind":"member_spawned","name":"alice","role":"r","plan_mode":"yes"}"#)).unwrap_err();
        assert_eq!(err.to_string(), "event 0 has an invalid field 'event.plan_mode': invalid type: string \"yes\", expected a boolean");
        let err = import_json(&one_event(r#"{"agent":"lead","input":{},"kind":"tool_called","tool":"x","tool_use_id":3}"#)).unwrap_err();
        assert!(matches!(&err, ImportError::BadField { entry: Some(0), field, .. } if field == "event.tool_use_id"), "{err:?}");
        let err = import_json(&one_event(r#"{"kind":"tool_called","agent":"lead","input":{},"tool":"x","tool_use_id":"t","extra":1}"#));
        assert!(err.is_ok(), "unknown fields are ignored, as before: {err:?}");
    }

    #[test]
    fn a_kind_that_is_not_a_string_is_named_as_such() {
        let err = import_json(&one_event(r#"{"kind":5}"#)).unwrap_err();
        assert_eq!(err.to_string(), "event 0 has an invalid field 'event.kind': expected a string, found the number 5");
    }

    #[test]
    fn a_whole_number_field_says_its_range() {
        let err = import_json(r#"{"version":1,"team_name":"x","seed":-1,"entries":[]}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the trace has an invalid field 'seed': invalid value: integer `-1`, expected a whole number from 0 to 2^64-1"
        );
        let err = import_json(r#"{"version":1,"team_name":"x","seed":1,"entries":{}}"#).unwrap_err();
        assert_eq!(err.to_string(), "the trace has an invalid field 'entries': invalid type: map, expected a sequence");
    }

    #[test]
    fn a_stray_message_object_on_an_event_without_one_is_not_blamed() {
        let err = import_json(&one_event(r#"{"kind":"run_started","message":{"junk":1}}"#)).unwrap_err();
        assert_eq!(err, ImportError::MissingField { entry: Some(0), field: "event.prompt".into() });
    }
}
