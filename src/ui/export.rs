//! Exports and imports of a run: the trace as versioned JSON and back (with
//! validation), the trace as a Mermaid `sequenceDiagram`, and a laid-out
//! diagram as a standalone SVG document.
//!
//! Owns the file formats and the import checks. Pure: no DOM, no signals, no
//! storage, no clock; it turns a `Trace` or a `Diagram` into text, or text
//! into a `Trace`. It must not change the event vocabulary
//! (`protocol::trace`), the protocol rules (`protocol::team`, which import
//! replays through) or the layout (`diagram`, which the SVG only draws). It
//! never sees settings, so no export can carry an API key.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::diagram::{layout, Diagram, Row, RowKind, PALETTE_SIZE, ROW_HEIGHT};
use crate::protocol::trace::TRACE_FORMAT_VERSION;
use crate::protocol::{
    AgentName, Event, FaultAction, MemberStatus, Message, MessageId, MessageType, Millis, ReplayError, RequestId, RequestKind, RequestStatus, Team,
    Trace, TraceEntry, TraceError,
};

/// The largest file `import_json` reads, in bytes (20 MiB); checked before
/// parsing.
pub const MAX_IMPORT_BYTES: u64 = 20 * 1024 * 1024;

/// The trace format versions `import_json` reads.
pub const SUPPORTED_VERSIONS: &[u32] = &[TRACE_FORMAT_VERSION];

/// How many characters of a prompt a Mermaid note keeps.
pub const MERMAID_PROMPT_CHARS: usize = 80;

/// How many characters of a plain message's text a Mermaid arrow keeps.
pub const MERMAID_TEXT_CHARS: usize = 60;

/// Height of the title band above the diagram in an SVG export.
pub const SVG_TITLE_HEIGHT: f64 = 28.0;

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
        /// The field's path, e.g. `entries`, `time`, `event.message.from`.
        field: String,
    },
    /// A field holds a value of the wrong type or shape.
    #[error("{} has an invalid field '{field}': {problem}", location(*entry))]
    BadField {
        /// The position of the event in `entries`, or `None` for the
        /// trace's own fields.
        entry: Option<u64>,
        /// The field's path.
        field: String,
        /// What is wrong with it.
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
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn supported() -> String {
    SUPPORTED_VERSIONS.iter().map(u32::to_string).collect::<Vec<_>>().join(" or ")
}

fn location(entry: Option<u64>) -> String {
    match entry {
        Some(i) => format!("event {i}"),
        None => "the trace".to_string(),
    }
}

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

/// The trace as versioned JSON: pretty-printed with two-space indents, fields
/// in a fixed order, ending in a newline. `trace_json(&import_json(&x)?)`
/// equals `x` byte for byte for every `x` this function wrote.
pub fn trace_json(trace: &Trace) -> String {
    let mut json = serde_json::to_string_pretty(trace).expect("a trace serialises: every map key is a string");
    json.push('\n');
    json
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
    check_import_size(text.len() as u64)?;
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
    let Value::Object(mut top) = value else {
        return Err(ImportError::NotATrace { found: describe_value(&value) });
    };
    let version = match top.get("version") {
        None => return Err(ImportError::MissingVersion),
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| SUPPORTED_VERSIONS.contains(n))
            .ok_or_else(|| ImportError::UnsupportedVersion { found: clip(&v.to_string(), 40) })?,
    };
    let team_name = take(&mut top, "team_name", None, "")?;
    let team_name = typed::<String>(&team_name, None, "team_name", "a string")?;
    let seed = take(&mut top, "seed", None, "")?;
    let seed = typed::<u64>(&seed, None, "seed", "a whole number from 0 to 2^64-1")?;
    let entries = match take(&mut top, "entries", None, "")? {
        Value::Array(items) => items,
        other => return Err(bad(None, "entries", format!("expected an array of events, found {}", describe_value(&other)))),
    };
    let entries = entries.into_iter().enumerate().map(|(i, v)| entry(i as u64, v)).collect::<Result<Vec<_>, _>>()?;
    let trace = Trace::from_parts(team_name, seed, version, entries).map_err(|e| match e {
        TraceError::BadSequence { index, seq } => ImportError::BadSequence { index, seq },
        TraceError::TimeWentBackwards { seq, at, previous } => ImportError::TimeWentBackwards { seq, at, previous },
        TraceError::UnsupportedVersion(v) => ImportError::UnsupportedVersion { found: v.to_string() },
    })?;
    Team::replay(&trace).map_err(ImportError::BreaksProtocol)?;
    Ok(trace)
}

/// Refuses a file of `size` bytes over `MAX_IMPORT_BYTES`; a caller holding
/// a file handle can ask this before reading the file at all.
pub fn check_import_size(size: u64) -> Result<(), ImportError> {
    if size > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge { size, cap: MAX_IMPORT_BYTES });
    }
    Ok(())
}

fn bad(entry: Option<u64>, field: &str, problem: String) -> ImportError {
    ImportError::BadField { entry, field: field.to_string(), problem }
}

/// Removes `field` from `obj`, or reports it missing (`prefix` is the path
/// of `obj` within the entry, e.g. `event.`).
fn take(obj: &mut Map<String, Value>, field: &str, entry: Option<u64>, prefix: &str) -> Result<Value, ImportError> {
    obj.remove(field).ok_or_else(|| ImportError::MissingField { entry, field: format!("{prefix}{field}") })
}

fn typed<T: for<'de> Deserialize<'de>>(v: &Value, entry: Option<u64>, field: &str, expected: &str) -> Result<T, ImportError> {
    T::deserialize(v).map_err(|_| bad(entry, field, format!("expected {expected}, found {}", describe_value(v))))
}

/// One element of `entries`, checked field by field so an error names the
/// field and the event.
fn entry(index: u64, value: Value) -> Result<TraceEntry, ImportError> {
    let at = Some(index);
    let Value::Object(mut obj) = value else {
        return Err(bad(None, &format!("entries[{index}]"), format!("expected an event object, found {}", describe_value(&value))));
    };
    let seq = typed::<u64>(&take(&mut obj, "seq", at, "")?, at, "seq", "a whole number")?;
    let time = typed::<Millis>(&take(&mut obj, "time", at, "")?, at, "time", "a whole number of milliseconds")?;
    let event = take(&mut obj, "event", at, "")?;
    let Value::Object(fields) = &event else {
        return Err(bad(at, "event", format!("expected an object, found {}", describe_value(&event))));
    };
    let kind = match fields.get("kind") {
        None => return Err(ImportError::MissingField { entry: at, field: "event.kind".into() }),
        Some(Value::String(k)) => k.clone(),
        Some(other) => return Err(bad(at, "event.kind", format!("expected a string, found {}", describe_value(other)))),
    };
    let event = Event::deserialize(&event).map_err(|e| {
        // A message's own fields are checked apart, so that a field the
        // message lacks is not reported as one the event lacks.
        if let (true, Some(whole @ Value::Object(message))) = (kind == "message_sent", fields.get("message")) {
            if let Err(e) = Message::deserialize(whole) {
                return classify(index, "event.message.", message, &e.to_string(), probe_message_field);
            }
        }
        let detail = e.to_string();
        if let (Some(rest), true) = (detail.strip_prefix("unknown variant `"), probe_fields(fields, &kind, probe_event_field).is_none()) {
            let expected = rest.split_once(", ").map_or("", |(_, tail)| tail).replace('`', "");
            return ImportError::UnknownEventKind { entry: index, kind: kind.clone(), expected };
        }
        classify(index, "event.", fields, &detail, probe_event_field)
    })?;
    Ok(TraceEntry { seq, time, event })
}

type Probe = fn(&str, &str, &Value) -> Option<String>;

/// Turns a serde error about `obj` into the error that names its field.
fn classify(index: u64, prefix: &str, obj: &Map<String, Value>, detail: &str, probe: Probe) -> ImportError {
    let at = Some(index);
    if let Some(field) = detail.strip_prefix("missing field `").and_then(|r| r.split('`').next()) {
        return ImportError::MissingField { entry: at, field: format!("{prefix}{field}") };
    }
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    match probe_fields(obj, kind, probe) {
        Some((field, problem)) => bad(at, &format!("{prefix}{field}"), problem),
        None => bad(at, prefix.trim_end_matches('.'), detail.to_string()),
    }
}

/// The first field of `obj` whose value does not have its type.
fn probe_fields(obj: &Map<String, Value>, kind: &str, probe: Probe) -> Option<(String, String)> {
    obj.iter().find_map(|(field, v)| probe(kind, field, v).map(|problem| (field.clone(), problem)))
}

fn type_problem<T: for<'de> Deserialize<'de>>(v: &Value) -> Option<String> {
    T::deserialize(v).err().map(|e| e.to_string())
}

fn probe_event_field(kind: &str, field: &str, v: &Value) -> Option<String> {
    match field {
        "name" | "agent" | "by" | "requester" | "addressee" => type_problem::<AgentName>(v),
        "prompt" | "role" | "text" | "stop_reason" | "error" | "tool_use_id" | "tool" | "output" => type_problem::<String>(v),
        "plan" => type_problem::<Option<String>>(v),
        "plan_mode" | "is_error" => type_problem::<bool>(v),
        "from" | "to" if kind == "member_status_changed" => type_problem::<MemberStatus>(v),
        "from" | "to" => type_problem::<RequestStatus>(v),
        "request_id" => type_problem::<RequestId>(v),
        "request_kind" => type_problem::<RequestKind>(v),
        "message_ids" => type_problem::<Vec<MessageId>>(v),
        "input_tokens" | "output_tokens" => type_problem::<u64>(v),
        "message" => type_problem::<Message>(v),
        _ => None,
    }
}

fn probe_message_field(_kind: &str, field: &str, v: &Value) -> Option<String> {
    match field {
        "type" => type_problem::<MessageType>(v),
        "from" | "to" => type_problem::<AgentName>(v),
        "content" => type_problem::<String>(v),
        "timestamp" => type_problem::<Millis>(v),
        "request_id" => type_problem::<Option<RequestId>>(v),
        "approve" => type_problem::<Option<bool>>(v),
        "feedback" | "plan" | "reason" => type_problem::<Option<String>>(v),
        _ => None,
    }
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

// ---------------------------------------------------------------------------
// Mermaid
// ---------------------------------------------------------------------------

/// Options for `mermaid_with`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MermaidOptions {
    /// Sequence numbers of `MessageSent` events whose message was dropped on
    /// the bus: drawn as `-x` arrows (ending in a cross).
    pub dropped: BTreeSet<u64>,
}

/// The trace as a Mermaid `sequenceDiagram`; messages dropped by fault
/// injection (`FaultApplied { Drop }`) end in a cross.
pub fn mermaid(trace: &Trace) -> String {
    mermaid_with(trace, &MermaidOptions::default())
}

/// The trace as a Mermaid `sequenceDiagram` that renders unchanged: numbered
/// arrows (`autonumber`), one participant per lifeline in the diagram's order
/// (lead first) under a safe id (`p0`, `p1`, ...) with the agent's name as
/// its alias, one arrow per sent message (`-x` for those in
/// `options.dropped` and for messages dropped by fault injection; a released
/// delayed or reordered message arrives as a `(released)` arrow), and notes
/// for run starts and ends, spawns, shutdowns, request transitions, failed
/// model calls and the other faults (duplicate, delay, reorder). Text is escaped with
/// Mermaid's entity codes, so no name or message can break the syntax.
pub fn mermaid_with(trace: &Trace, options: &MermaidOptions) -> String {
    let names = participants(trace);
    let id: BTreeMap<&AgentName, usize> = names.iter().enumerate().map(|(i, n)| (n, i)).collect();
    let p = |name: &AgentName| format!("p{}", id[name]);
    let mut out = String::from("sequenceDiagram\n");
    let _ = writeln!(
        out,
        "    %% Team Protocols Playground trace: team {}, seed {}, {} events, format version {}",
        mermaid_text(&trace.team_name),
        trace.seed,
        trace.len(),
        trace.version
    );
    out.push_str("    autonumber\n");
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(out, "    participant p{i} as {}", mermaid_text(name.as_str()));
    }
    let lead = AgentName::lead();
    let mut parties: BTreeMap<&RequestId, (&AgentName, &AgentName)> = BTreeMap::new();
    let mut held: BTreeMap<u64, &Message> = BTreeMap::new();
    for entry in trace.entries() {
        match &entry.event {
            Event::RunStarted { prompt } => {
                let _ = writeln!(out, "    Note over {}: {}", p(&lead), mermaid_text(&format!("▶ {}", clip(prompt, MERMAID_PROMPT_CHARS))));
            }
            Event::RunFinished => {
                let _ = writeln!(out, "    Note over {}: ■ run finished", p(&lead));
            }
            Event::MemberSpawned { name, role, plan_mode } => {
                let mode = if *plan_mode { ", plan mode" } else { "" };
                let _ = writeln!(out, "    Note over {}: {}", p(name), mermaid_text(&format!("spawned ({}{mode})", clip(role, 40))));
            }
            Event::MemberStatusChanged { name, to: MemberStatus::Shutdown, .. } => {
                let _ = writeln!(out, "    Note over {}: shut down", p(name));
            }
            Event::MessageSent { message } => {
                let arrow = if options.dropped.contains(&entry.seq) { "-x" } else { "->>" };
                let _ = writeln!(out, "    {}{arrow}{}: {}", p(&message.from), p(&message.to), mermaid_text(&message_label(message)));
            }
            Event::FaultApplied { action: FaultAction::Drop, message, .. } => {
                let label = format!("{} (dropped)", message_label(message));
                let _ = writeln!(out, "    {}-x{}: {}", p(&message.from), p(&message.to), mermaid_text(&label));
            }
            Event::FaultApplied { action, message, .. } => {
                let what = match action {
                    FaultAction::Delay { ms } => format!("⚡ delayed {ms} ms"),
                    FaultAction::Reorder => "⚡ held back (reorder)".to_string(),
                    _ => "⚡ duplicated".to_string(),
                };
                if action.holds() {
                    held.insert(entry.seq, message);
                }
                let label = format!("{what}: {}", message_label(message));
                let _ = writeln!(out, "    Note over {}: {}", p(&message.to), mermaid_text(&label));
            }
            Event::MessageReleased { held: from } => {
                if let Some(message) = held.remove(from) {
                    let label = format!("{} (released)", message_label(message));
                    let _ = writeln!(out, "    {}->>{}: {}", p(&message.from), p(&message.to), mermaid_text(&label));
                }
            }
            Event::RequestCreated { request_id, requester, addressee, .. } => {
                parties.insert(request_id, (requester, addressee));
            }
            Event::RequestTransitioned { request_id, by, from, to, .. } => {
                let over = match parties.get(request_id) {
                    Some((a, b)) => {
                        let (a, b) = if id[a] <= id[b] { (a, b) } else { (b, a) };
                        if a == b {
                            p(a)
                        } else {
                            format!("{},{}", p(a), p(b))
                        }
                    }
                    None => p(by),
                };
                let _ = writeln!(out, "    Note over {over}: {request_id} {from} → {to}");
            }
            Event::ModelFailed { agent, error } => {
                let _ = writeln!(out, "    Note over {}: {}", p(agent), mermaid_text(&format!("⚠ model call failed: {}", clip(error, 80))));
            }
            Event::MemberStatusChanged { .. }
            | Event::InboxDrained { .. }
            | Event::ModelCalled { .. }
            | Event::ModelReplied { .. }
            | Event::ToolCalled { .. }
            | Event::ToolReturned { .. } => {}
        }
    }
    out
}

/// Every agent the trace names, in lifeline order: the diagram's columns
/// (lead first, then teammates as they appear), then any name only events
/// the diagram does not place mention (possible in hand-made traces).
fn participants(trace: &Trace) -> Vec<AgentName> {
    let mut names: Vec<AgentName> = layout(trace, None).columns.into_iter().map(|c| c.name).collect();
    let mut seen: BTreeSet<AgentName> = names.iter().cloned().collect();
    let mut add = |n: &AgentName| {
        if seen.insert(n.clone()) {
            names.push(n.clone());
        }
    };
    for entry in trace.entries() {
        match &entry.event {
            Event::MemberSpawned { name, .. } | Event::MemberStatusChanged { name, .. } => add(name),
            Event::MessageSent { message } | Event::FaultApplied { message, .. } => {
                add(&message.from);
                add(&message.to);
            }
            Event::InboxDrained { agent, .. }
            | Event::ModelCalled { agent }
            | Event::ModelReplied { agent, .. }
            | Event::ModelFailed { agent, .. }
            | Event::ToolCalled { agent, .. }
            | Event::ToolReturned { agent, .. } => add(agent),
            Event::RequestCreated { requester, addressee, .. } => {
                add(requester);
                add(addressee);
            }
            Event::RequestTransitioned { by, .. } => add(by),
            Event::RunStarted { .. } | Event::RunFinished | Event::MessageReleased { .. } => {}
        }
    }
    names
}

/// `type [request_id]` for protocol messages, `type: content` otherwise.
fn message_label(message: &Message) -> String {
    match &message.request_id {
        Some(rid) => format!("{} [{rid}]", message.msg_type),
        None => format!("{}: {}", message.msg_type, clip(&message.content, MERMAID_TEXT_CHARS)),
    }
}

/// Text made safe for a Mermaid label, alias or note: whitespace runs
/// (newlines included) become one space, control characters go, and the
/// characters Mermaid's grammar reacts to become entity codes (`#` `;` `%`
/// `<` `>` `&`; `:` too when the text holds `style` or `classDef`, which
/// Mermaid's pre-pass would otherwise rewrite).
pub fn mermaid_text(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let guard_colon = collapsed.contains("style") || collapsed.contains("classDef");
    let mut out = String::with_capacity(collapsed.len());
    for c in collapsed.chars() {
        match c {
            '#' => out.push_str("#35;"),
            ';' => out.push_str("#59;"),
            '%' => out.push_str("#37;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            ':' if guard_colon => out.push_str("#58;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        s.chars().take(max.saturating_sub(1)).collect::<String>() + "…"
    }
}

// ---------------------------------------------------------------------------
// SVG
// ---------------------------------------------------------------------------

/// The light palette of request colours, slot for slot with the app's
/// `--c0` ... `--c7`.
pub const SVG_PALETTE: [&str; PALETTE_SIZE] = ["#3355cc", "#b8338a", "#148a8a", "#c25e00", "#6b4fc8", "#2f7a4f", "#a23b3b", "#5a6b00"];

const SVG_STYLE: &str = r#"
text { fill: #1d1f24; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 12px; }
.bg { fill: #f5f6f8; }
.title { font-size: 14px; font-weight: 700; }
.life { stroke: #9aa1b1; stroke-dasharray: 4 4; }
.head { fill: #ffffff; stroke: #d9dce3; }
.status-shutdown .head { opacity: 0.6; }
.head-name { text-anchor: middle; font-weight: 600; }
.head-status { text-anchor: middle; font-size: 9px; fill: #5b6170; }
.cross line { stroke: #c0392b; stroke-width: 3; }
.activation { fill: #c3cdef; stroke: #3355cc; }
.banner text { fill: #5b6170; font-style: italic; }
.spawn line { stroke: #5b6170; stroke-dasharray: 2 3; }
.spawn text { text-anchor: middle; fill: #5b6170; font-size: 11px; }
.msg line { stroke-width: 2; }
.msg.text line { stroke-dasharray: 6 3; }
.msg.in-flight line { stroke-dasharray: 2 4; }
.msg-label { text-anchor: middle; font-size: 11px; }
.plain line { stroke: #5b6170; }
.c0 line { stroke: #3355cc; } .c0 rect { stroke: #3355cc; }
.c1 line { stroke: #b8338a; } .c1 rect { stroke: #b8338a; }
.c2 line { stroke: #148a8a; } .c2 rect { stroke: #148a8a; }
.c3 line { stroke: #c25e00; } .c3 rect { stroke: #c25e00; }
.c4 line { stroke: #6b4fc8; } .c4 rect { stroke: #6b4fc8; }
.c5 line { stroke: #2f7a4f; } .c5 rect { stroke: #2f7a4f; }
.c6 line { stroke: #a23b3b; } .c6 rect { stroke: #a23b3b; }
.c7 line { stroke: #5a6b00; } .c7 rect { stroke: #5a6b00; }
.transition text { font-weight: 600; }
.transition.to-approved text { fill: #2f7a4f; }
.transition.to-rejected text { fill: #c0392b; }
.note rect { fill: #fbf3d4; stroke: #c9a227; }
.note.tool-error rect { fill: #f5dcd9; stroke: #c0392b; }
.note.tool-running rect { stroke-dasharray: 3 2; }
.note text { font-size: 11px; }
.note.failure text { fill: #c0392b; font-weight: 600; }
.badge rect { fill: #ffffff; stroke-width: 2; }
.badge text { text-anchor: middle; font-size: 11px; font-weight: 700; }
.badge.badge-pending text { fill: #a86a12; } .badge.badge-pending rect { stroke: #a86a12; }
.badge.badge-approved text { fill: #2f7a4f; } .badge.badge-approved rect { stroke: #2f7a4f; }
.badge.badge-rejected text { fill: #c0392b; } .badge.badge-rejected rect { stroke: #c0392b; }
"#;

/// `diagram` as a standalone SVG document (light colours, styles embedded,
/// `role="img"` with an `aria-label` and a `<title>`), drawing what the app
/// draws: lifelines with their heads and end crosses, activation bars, every
/// row (run banners, spawns, message arrows in their request's colour with
/// labels, transitions, tool notes, failures) and the request badges with
/// their state. `title` is shown above the diagram. All text is XML-escaped.
pub fn svg(diagram: &Diagram, title: &str) -> String {
    let width = diagram.width.max(600.0);
    let height = diagram.height + SVG_TITLE_HEIGHT;
    let arrows = diagram.rows.iter().filter(|r| matches!(r.kind, RowKind::Message { .. })).count();
    let label = format!(
        "{title}: sequence diagram of {}, {}, {}",
        count(diagram.columns.len(), "agent"),
        count(arrows, "message"),
        count(diagram.badges.len(), "request")
    );
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{}">"#,
        xml(&label)
    );
    let _ = writeln!(out, "<title>{}</title>", xml(title));
    let _ = writeln!(out, "<style>{SVG_STYLE}</style>");
    out.push_str("<defs>\n");
    for (i, colour) in SVG_PALETTE.iter().enumerate() {
        let _ = writeln!(out, "{}", marker(&format!("arrow-{i}"), colour));
    }
    let _ = writeln!(out, "{}", marker("arrow-plain", "#5b6170"));
    out.push_str("</defs>\n");
    let _ = writeln!(out, r#"<rect class="bg" x="0" y="0" width="{width}" height="{height}"/>"#);
    let _ = writeln!(out, r#"<text class="title" x="8" y="19">{}</text>"#, xml(title));
    let _ = writeln!(out, r#"<g transform="translate(0 {SVG_TITLE_HEIGHT})">"#);
    for c in &diagram.columns {
        let end = c.ended_y.unwrap_or(diagram.height);
        let status = c.status.map_or("lead", MemberStatus::as_str);
        let head_y = if c.name.is_lead() { 8.0 } else { c.born_y + 1.0 };
        let _ = writeln!(out, r#"<g class="lifeline status-{status}">"#);
        let _ = writeln!(out, r#"<line class="life" x1="{x}" y1="{}" x2="{x}" y2="{end}"/>"#, head_y + 28.0, x = c.x);
        let _ = writeln!(out, r#"<rect class="head" x="{}" y="{head_y}" width="120" height="28" rx="6"/>"#, c.x - 60.0);
        let _ = writeln!(out, r#"<text class="head-name" x="{}" y="{}">{}</text>"#, c.x, head_y + 14.0, xml(c.name.as_str()));
        let _ = writeln!(out, r#"<text class="head-status" x="{}" y="{}">{status}</text>"#, c.x, head_y + 25.0);
        if let Some(y) = c.ended_y {
            let _ = writeln!(
                out,
                r#"<g class="cross"><line x1="{}" y1="{}" x2="{}" y2="{}"/><line x1="{}" y1="{}" x2="{}" y2="{}"/></g>"#,
                c.x - 9.0,
                y - 9.0,
                c.x + 9.0,
                y + 9.0,
                c.x + 9.0,
                y - 9.0,
                c.x - 9.0,
                y + 9.0
            );
        }
        out.push_str("</g>\n");
    }
    for a in &diagram.activations {
        let class = if a.open { "activation open" } else { "activation" };
        let _ =
            writeln!(out, r#"<rect class="{class}" x="{}" y="{}" width="10" height="{}"/>"#, a.x - 5.0, a.y0 + 4.0, (a.y1 - a.y0).max(8.0));
    }
    for r in &diagram.rows {
        svg_row(&mut out, r);
    }
    for b in &diagram.badges {
        let y = b.y + ROW_HEIGHT / 2.0;
        let _ = writeln!(
            out,
            r#"<g class="badge c{} badge-{}" data-request="{}"><rect x="{}" y="{}" width="74" height="18" rx="9"/><text x="{}" y="{}">{}</text></g>"#,
            b.color % PALETTE_SIZE,
            b.status,
            xml(b.request_id.as_str()),
            b.x + 12.0,
            y - 9.0,
            b.x + 49.0,
            y + 4.0,
            b.status
        );
    }
    out.push_str("</g>\n</svg>\n");
    out
}

fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn marker(id: &str, colour: &str) -> String {
    format!(
        r#"<marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker>"#
    )
}

fn svg_row(out: &mut String, r: &Row) {
    let y = r.y + ROW_HEIGHT / 2.0;
    let seq = r.seq;
    let _ = match &r.kind {
        RowKind::RunStarted { prompt } => {
            writeln!(out, r#"<g class="banner run-start" data-seq="{seq}"><text x="8" y="{y}">{}</text></g>"#, xml(&format!("▶ {prompt}")))
        }
        RowKind::RunFinished => {
            writeln!(out, r#"<g class="banner run-end" data-seq="{seq}"><text x="8" y="{y}">■ run finished</text></g>"#)
        }
        RowKind::Spawn { name, from_x, to_x } => writeln!(
            out,
            r#"<g class="spawn" data-seq="{seq}"><line x1="{from_x}" y1="{y}" x2="{}" y2="{y}" marker-end="url(#arrow-plain)"/><text x="{}" y="{}">{}</text></g>"#,
            to_x - 62.0,
            (from_x + to_x) / 2.0,
            y - 4.0,
            xml(&format!("spawn {name}"))
        ),
        RowKind::Message { from_x, to_x, label, msg_type, request_id, color, delivered, .. } => {
            let class = format!(
                "msg {} {} {}",
                color.map_or_else(|| "plain".to_string(), |c| format!("c{}", c % PALETTE_SIZE)),
                if *delivered { "delivered" } else { "in-flight" },
                if matches!(msg_type, MessageType::Message | MessageType::Broadcast) { "text" } else { "protocol" },
            );
            let marker = color.map_or_else(|| "arrow-plain".to_string(), |c| format!("arrow-{}", c % PALETTE_SIZE));
            let (x1, x2) = if (to_x - from_x).abs() < 1.0 { (*from_x, from_x + 40.0) } else { (*from_x, *to_x) };
            let dir = if x2 >= x1 { -1.0 } else { 1.0 };
            let request = request_id.as_ref().map(|id| format!(r#" data-request="{}""#, xml(id.as_str()))).unwrap_or_default();
            writeln!(
                out,
                r#"<g class="{class}" data-seq="{seq}"{request}><line x1="{x1}" y1="{y}" x2="{}" y2="{y}" marker-end="url(#{marker})"/><text class="msg-label" x="{}" y="{}">{}</text></g>"#,
                x2 + dir * 6.0,
                (x1 + x2) / 2.0,
                y - 5.0,
                xml(label)
            )
        }
        RowKind::Transition { request_id, to, x, color } => writeln!(
            out,
            r#"<g class="transition c{} to-{to}" data-seq="{seq}" data-request="{}"><text x="{}" y="{y}">{}</text></g>"#,
            color % PALETTE_SIZE,
            xml(request_id.as_str()),
            x + 10.0,
            xml(&format!("{request_id}: pending → {to}"))
        ),
        RowKind::Tool { x, label, ok, output } => {
            let state = match ok {
                None => "running",
                Some(true) => "ok",
                Some(false) => "error",
            };
            let tip = output.as_deref().unwrap_or("running…");
            writeln!(
                out,
                r#"<g class="note tool-{state}" data-seq="{seq}"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" rx="3"/><text x="{}" y="{}">{}</text></g>"#,
                xml(tip),
                x + 8.0,
                r.y + 4.0,
                label.chars().count() as f64 * 6.6 + 14.0,
                ROW_HEIGHT - 8.0,
                x + 15.0,
                y + 4.0,
                xml(label)
            )
        }
        RowKind::Failure { x, error } => writeln!(
            out,
            r#"<g class="note failure" data-seq="{seq}"><text x="{}" y="{}">{}</text></g>"#,
            x + 10.0,
            y + 4.0,
            xml(&format!("⚠ {error}"))
        ),
    };
}

/// Text made safe for XML content and attribute values: the five special
/// characters become entities and characters XML 1.0 forbids are dropped.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || matches!(c, '\u{fffe}' | '\u{ffff}') => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// alice: spawned, asked to shut down, approves, exits.
    fn handshake() -> Trace {
        let mut t = Team::new("default", 7);
        t.start_run("Spawn alice; then shut her down.", Millis(0)).unwrap();
        t.spawn(&name("alice"), "coder", false, Millis(1)).unwrap();
        t.send(&AgentName::lead(), &name("alice"), "message", "hi; #1 <b>&</b>\n100%", Millis(2)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(3)).unwrap();
        t.drain(&name("alice"), Millis(4)).unwrap();
        t.answer(RequestKind::Shutdown, &id, &name("alice"), true, "done", Millis(5)).unwrap();
        t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(6)).unwrap();
        t.finish_run(Millis(7)).unwrap();
        t.trace().clone()
    }

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
        v["version"] = Value::from(2);
        let err = import_value(&v).unwrap_err();
        assert_eq!(err, ImportError::UnsupportedVersion { found: "2".into() });
        assert_eq!(err.to_string(), "trace format version 2 is not supported; this build reads version 1");
        v["version"] = Value::from("1");
        assert_eq!(import_value(&v), Err(ImportError::UnsupportedVersion { found: "\"1\"".into() }));
        v.as_object_mut().unwrap().remove("version");
        let err = import_value(&v).unwrap_err();
        assert_eq!(err, ImportError::MissingVersion);
        assert!(err.to_string().contains("version 1"), "{err}");
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

    #[test]
    fn mermaid_text_escapes_what_the_grammar_reacts_to() {
        assert_eq!(mermaid_text("a;b#c%d<e>f&g"), "a#59;b#35;c#37;d#lt;e#gt;f#amp;g");
        assert_eq!(mermaid_text(" two\nlines\t here "), "two lines here");
        assert_eq!(mermaid_text("message: hi: there"), "message: hi: there");
        assert_eq!(mermaid_text("restyle: x#"), "restyle#58; x#35;");
    }

    #[test]
    fn mermaid_has_one_arrow_per_message_and_a_note_per_transition() {
        let trace = handshake();
        let m = mermaid(&trace);
        let lines: Vec<&str> = m.lines().collect();
        assert_eq!(lines[0], "sequenceDiagram");
        assert!(lines.contains(&"    autonumber"));
        assert_eq!(lines.iter().filter(|l| l.trim_start().starts_with("participant")).count(), 2);
        assert!(lines.contains(&"    participant p0 as lead") && lines.contains(&"    participant p1 as alice"));
        assert_eq!(lines.iter().filter(|l| l.contains("->>")).count(), 3);
        assert!(m.contains("    p0->>p1: message: hi#59; #35;1 #lt;b#gt;#amp;#lt;/b#gt; 100#37;\n"), "{m}");
        assert!(m.contains("Note over p0,p1: ") && m.contains(" pending → approved\n"), "{m}");
        assert!(m.contains("    Note over p1: spawned (coder)\n") && m.contains("    Note over p1: shut down\n"), "{m}");
        assert!(m.contains("    Note over p0: ▶ Spawn alice#59; then shut her down.\n"), "{m}");
    }

    #[test]
    fn a_dropped_message_ends_in_a_cross() {
        let trace = handshake();
        let sent = trace.entries().iter().find(|e| matches!(e.event, Event::MessageSent { .. })).unwrap().seq;
        let m = mermaid_with(&trace, &MermaidOptions { dropped: BTreeSet::from([sent]) });
        assert!(m.contains("    p0-xp1: message: "), "{m}");
        assert_eq!(m.lines().filter(|l| l.contains("->>")).count(), 2);
    }

    #[test]
    fn injected_faults_show_in_mermaid_as_crosses_and_notes() {
        use crate::protocol::{FaultAction, FaultPlan, FaultRule};
        let mut t = Team::new("default", 7);
        t.spawn(&name("alice"), "coder", false, Millis(1)).unwrap();
        for (i, action) in [FaultAction::Drop, FaultAction::Duplicate, FaultAction::Delay { ms: 5 }].into_iter().enumerate() {
            t.set_faults(FaultPlan::new(vec![FaultRule::new(action)]));
            t.send(&AgentName::lead(), &name("alice"), "message", &format!("m{i}"), Millis(2)).unwrap();
        }
        t.release_all(Millis(9)).unwrap();
        let m = mermaid(t.trace());
        assert!(m.contains("    p0-xp1: message: m0 (dropped)\n"), "{m}");
        assert_eq!(m.lines().filter(|l| l.contains("->>p1: message: m1")).count(), 2, "{m}");
        assert!(m.contains("    Note over p1: ⚡ duplicated: message: m1\n"), "{m}");
        assert!(m.contains("    Note over p1: ⚡ delayed 5 ms: message: m2\n"), "{m}");
        assert!(m.contains("    p0->>p1: message: m2 (released)\n"), "{m}");
    }

    #[test]
    fn long_prompts_are_truncated_in_mermaid() {
        let mut t = Trace::new("t", 0);
        t.append(Millis(0), Event::RunStarted { prompt: "x".repeat(500) }).unwrap();
        let m = mermaid(&t);
        let note = m.lines().find(|l| l.contains("Note over p0: ▶")).unwrap();
        assert!(note.ends_with('…') && note.chars().filter(|c| *c == 'x').count() == MERMAID_PROMPT_CHARS - 1, "{note}");
    }

    #[test]
    fn xml_escapes_the_five_and_drops_forbidden_characters() {
        assert_eq!(xml("<a href=\"x\">'&'</a>\u{1}\n"), "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt; ");
    }

    #[test]
    fn the_svg_is_a_standalone_accessible_document() {
        let d = layout(&handshake(), None);
        let s = svg(&d, "Run <1> & co");
        assert!(s.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "));
        assert!(
            s.contains(" role=\"img\" aria-label=\"Run &lt;1&gt; &amp; co: sequence diagram of 2 agents, 3 messages, 1 request\""),
            "{s}"
        );
        assert!(s.contains("<title>Run &lt;1&gt; &amp; co</title>"));
        assert!(s.contains(&format!("viewBox=\"0 0 {} {}\"", d.width.max(600.0), d.height + SVG_TITLE_HEIGHT)));
        assert!(s.contains("<style>") && s.contains("class=\"badge c0 badge-approved\""));
        assert!(s.contains("hi; #1 &lt;b&gt;&amp;&lt;/b&gt; 100%"), "{s}");
        assert!(s.trim_end().ends_with("</svg>"));
    }
}
