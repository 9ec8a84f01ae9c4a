//! Nothing a user hands the page can crash it: real traces of every
//! scenario (scripted model, a few seeds, with and without fault rules),
//! written as trace files and as share links, then damaged — truncated at a
//! byte or at an entry, entries deleted, duplicated, swapped and
//! renumbered, field values swapped between entries (request ids, agent
//! names, message types, statuses, ...), numbers changed, fields removed,
//! bytes of the file and characters of the link's base64 flipped — and fed
//! to every reader: the file import, the other trace reader, replay (also of
//! a trace import would refuse, and through the page's keyframed timeline),
//! the share-link parser, and for what imports, the views the page builds
//! from it. Explorer links (a shortest run of each property of each
//! explorable scenario) are damaged the same way — their path's choices,
//! their settings, their text — and opened as the page opens one: settings
//! checked, the run rebuilt from its path, its views built. No reader may
//! panic, and every refusal says why in words (for files and links, in
//! English and in the page's words in every language).
//!
//! The test suite runs a short pass (`FUZZ_CASES` cases per test, 2,500
//! and 500 unless set; `FUZZ_SEED` picks another fixed seed):
//! `FUZZ_CASES=100000 cargo test --release --test import_fuzz` is the long
//! run.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::cell::RefCell;
use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::Value;
use team_protocols::explore::job::{ExploreLink, ExploreSettings};
use team_protocols::explore::{explore, replay_finding, Property};
use team_protocols::protocol::file::{builtin, load};
use team_protocols::protocol::timeline::Timeline;
use team_protocols::protocol::{FaultAction, FaultPlan, FaultRule, MessageType, Team, Trace};
use team_protocols::runtime::scenarios;
use team_protocols::view::derived::RunViews;
use team_protocols::view::export::share::{base64url, parse_fragment, scenario_fragment, trace_fragment, SharedRun};
use team_protocols::view::export::{import_json, mermaid, svg_of_run, ImportError};
use team_protocols::view::i18n::{Catalog, Locale};
use team_protocols::view::words::errors;

/// One real trace and the forms a user hands the page.
struct Sample {
    /// Its name (`scenario plan seed`), for failure messages.
    name: String,
    /// The trace file as exported, parsed.
    value: Value,
    /// The share link the page makes for it (`trace=...`), when it fits.
    link: Option<String>,
    /// The link that reruns it instead (scenario, seed and fault rules);
    /// none for a run of a protocol file's own team.
    rerun: Option<String>,
}

fn rule(action: FaultAction, msg_type: Option<MessageType>, probability: f64) -> FaultRule {
    FaultRule { action, msg_type, from: None, to: None, probability }
}

/// Every scenario, each under no faults and under each kind of fault, with
/// a seed of its own per plan.
fn corpus() -> Vec<Sample> {
    let plans = [
        ("none", FaultPlan::default()),
        ("drop-answers", FaultPlan::new(vec![rule(FaultAction::Drop, Some(MessageType::SHUTDOWN_RESPONSE), 0.5)])),
        ("drop", FaultPlan::new(vec![rule(FaultAction::Drop, None, 0.2)])),
        ("duplicate", FaultPlan::new(vec![rule(FaultAction::Duplicate, None, 0.3)])),
        ("delay", FaultPlan::new(vec![rule(FaultAction::Delay { ms: 700 }, None, 0.4)])),
        ("reorder", FaultPlan::new(vec![rule(FaultAction::Reorder, None, 0.4)])),
    ];
    let mut out = Vec::new();
    for sc in scenarios::ALL {
        for (i, (plan_name, plan)) in plans.iter().enumerate() {
            let seed = common::SEED + i as u64;
            let (_rt, trace) = common::run_scenario(sc, seed, plan.clone());
            let value: Value = serde_json::from_str(&trace.to_json()).expect("a trace is JSON");
            out.push(Sample {
                name: format!("{} {plan_name} {seed}", sc.id),
                value,
                link: trace_fragment(&trace).ok(),
                rerun: Some(scenario_fragment(sc.id, seed, plan)),
            });
        }
    }
    // Runs of example files' own teams: their traces record their file
    // (format version 2), whose text the edits damage too.
    for id in ["task-claim", "review-gate", "deadline-retry", "status-report"] {
        let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == id).expect("a built-in example");
        let file = std::sync::Arc::new(load(text).expect("a built-in example loads"));
        let (world, quiet) = common::file_team::run_file_team(file, 7, 10_000).expect("the example has a team");
        assert!(quiet, "{id}: the team goes quiet");
        let trace = world.team().trace();
        let value: Value = serde_json::from_str(&trace.to_json()).expect("a trace is JSON");
        out.push(Sample { name: format!("{id} file 7"), value, link: trace_fragment(trace).ok(), rerun: None });
    }
    out
}

/// A structural change to a trace file.
#[derive(Debug, Clone)]
enum Edit {
    /// Keep the first `n` entries (an export cut at an entry boundary).
    KeepEntries(usize),
    /// Remove one entry.
    DeleteEntry(usize),
    /// Copy entry `from` to position `to`.
    DuplicateEntry { from: usize, to: usize },
    /// Insert an entry of another sample (of any scenario) at `to`, as
    /// when two exports are pasted together.
    Splice { donor: usize, item: usize, to: usize },
    /// Swap two entries.
    SwapEntries(usize, usize),
    /// Give one entry another sequence number.
    SetSeq { entry: usize, seq: u64 },
    /// Swap the values of two fields of the same name (two request ids, two
    /// agent names, two message types, two statuses, ...).
    SwapSameKey { a: usize, b: usize },
    /// Swap any two values.
    SwapAny { a: usize, b: usize },
    /// Replace a number with another.
    SetNumber { leaf: usize, to: Num },
    /// Replace a string with another the traces use, or a strange one.
    SetString { leaf: usize, to: usize },
    /// Remove a field, or an element of an array.
    Remove { node: usize },
    /// Replace a field of the trace's header.
    Header { field: usize, to: usize },
}

/// A replacement number.
#[derive(Debug, Clone)]
enum Num {
    /// The number plus this (wrapping within `i64`).
    Near(i8),
    /// One of the boundary values.
    Edge(usize),
    /// Any whole number.
    Any(u64),
}

/// Numbers at the edges of the types a trace file holds.
fn edge_numbers() -> Vec<Value> {
    vec![
        0.into(),
        1.into(),
        (-1).into(),
        u64::MAX.into(),
        (u64::MAX - 1).into(),
        i64::MIN.into(),
        u32::MAX.into(),
        (u64::from(u32::MAX) + 1).into(),
        ((1u64 << 53) + 1).into(),
        usize::MAX.into(),
        serde_json::json!(0.5),
        serde_json::json!(1e300),
        serde_json::json!(-0.0),
    ]
}

/// Strange strings, beside those the corpus holds.
const STRANGE: &[&str] = &[
    "",
    " ",
    "lead",
    "ghost",
    "LEAD",
    "a b",
    "é",
    "\u{0}",
    "\u{202e}",
    "🦀🦀",
    "00000000",
    "ffffffff",
    "0badc0de",
    "shutdown_request",
    "shutdown_response",
    "plan_approval_request",
    "plan_approval_response",
    "broadcast",
    "message",
    "pending",
    "approved",
    "rejected",
    "working",
    "idle",
    "shutdown",
    "plan",
    "drop",
    "delay",
    "reorder",
    "duplicate",
    "member_spawned",
    "message_released",
    "request_transitioned",
];

/// A replacement for a header field (`version`, `team_name`, `seed`,
/// `rules`, `entries`).
fn header_values() -> Vec<Value> {
    use serde_json::json;
    vec![
        json!(0),
        json!(1),
        json!(2),
        json!("1"),
        json!(null),
        json!(u64::MAX),
        json!(-1),
        json!(""),
        json!([]),
        json!({}),
        json!({ "addressee_only": false }),
        json!({ "incarnation_binding": false, "exit_after_approval": false }),
        json!({ "addressee_only": false, "incarnation_binding": false, "exit_after_approval": false, "wake_on_message": false }),
        json!({ "addressee_only": "no" }),
    ]
}

/// What a damaged document is: its list of steps (a trace's `entries`,
/// an explorer link's `path`) and the fields around it, as JSON pointers.
struct Shape {
    /// The list the entry edits work on.
    list: &'static str,
    /// The fields a header edit replaces.
    header: &'static [&'static str],
}

/// A trace file.
const TRACE: Shape = Shape { list: "entries", header: &["/version", "/team_name", "/seed", "/rules", "/protocol_file", "/entries"] };

/// An explorer link's JSON.
const EXPLORE: Shape = Shape {
    list: "path",
    header: &[
        "/settings/scenario",
        "/settings/seed",
        "/settings/max_faults",
        "/settings/fault_kinds",
        "/settings/max_depth",
        "/settings/max_states",
        "/settings/max_decisions",
        "/settings/decisions",
        "/settings/rules",
        "/settings/strategy",
        "/settings/workers",
        "/property",
        "/path",
    ],
};

/// A change to the bytes of the file.
#[derive(Debug, Clone)]
enum TextEdit {
    /// Cut at this byte.
    Truncate(usize),
    /// Cut just before the `n`-th entry's opening brace.
    TruncateAtEntry(usize),
    /// XOR one byte with `mask`.
    Flip { at: usize, mask: u8 },
    /// Insert a byte.
    Insert { at: usize, byte: u8 },
    /// Delete up to `len` bytes.
    Delete { at: usize, len: usize },
}

/// A change to the text of a link.
#[derive(Debug, Clone)]
enum LinkEdit {
    /// Cut at this character.
    Truncate(usize),
    /// Replace one character of the base64 with another character.
    Flip { at: usize, to: usize },
    /// Delete a character.
    Delete(usize),
    /// Insert a character.
    Insert { at: usize, ch: usize },
    /// Append another part (`&seed=...`, a second `trace=`, ...).
    Append(usize),
}

/// Characters a link edit writes: the base64url alphabet and a few that
/// are not in it.
const LINK_CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/&#%. ";

const LINK_PARTS: &[&str] =
    &["&seed=9", "&seed=-1", "&trace=", "&trace=AAAA", "&scenario=shutdown", "&faults=W10", "&explore=", "#", "&", "=", "&&="];

/// How the damaged trace reaches the page.
#[derive(Debug, Clone)]
enum Via {
    /// As a file.
    File,
    /// Packed into a link as the page packs one, then the link damaged.
    PackedLink(Vec<LinkEdit>),
    /// The page's own link for the undamaged trace, then damaged.
    RealLink(Vec<LinkEdit>),
    /// The page's link that reruns the sample's scenario, then damaged.
    RerunLink(Vec<LinkEdit>),
}

/// One fuzz case.
#[derive(Debug, Clone)]
struct Case {
    /// Which sample.
    pick: usize,
    /// Structural changes, in order.
    edits: Vec<Edit>,
    /// Number the entries 0, 1, 2, ... again and make time go forward
    /// after the edits, so the damage reaches replay.
    renumber: bool,
    /// Write the file compact instead of pretty.
    compact: bool,
    /// Byte changes to the file.
    text: Vec<TextEdit>,
    /// How it reaches the page.
    via: Via,
}

fn edit() -> impl Strategy<Value = Edit> {
    let ix = || any::<usize>();
    let num = prop_oneof![any::<i8>().prop_map(Num::Near), ix().prop_map(Num::Edge), any::<u64>().prop_map(Num::Any)];
    prop_oneof![
        1 => ix().prop_map(Edit::KeepEntries),
        2 => ix().prop_map(Edit::DeleteEntry),
        2 => (ix(), ix()).prop_map(|(from, to)| Edit::DuplicateEntry { from, to }),
        2 => (ix(), ix(), ix()).prop_map(|(donor, item, to)| Edit::Splice { donor, item, to }),
        2 => (ix(), ix()).prop_map(|(a, b)| Edit::SwapEntries(a, b)),
        1 => (ix(), prop_oneof![0..300u64, any::<u64>()]).prop_map(|(entry, seq)| Edit::SetSeq { entry, seq }),
        6 => (ix(), ix()).prop_map(|(a, b)| Edit::SwapSameKey { a, b }),
        2 => (ix(), ix()).prop_map(|(a, b)| Edit::SwapAny { a, b }),
        3 => (ix(), num).prop_map(|(leaf, to)| Edit::SetNumber { leaf, to }),
        3 => (ix(), ix()).prop_map(|(leaf, to)| Edit::SetString { leaf, to }),
        2 => ix().prop_map(|node| Edit::Remove { node }),
        1 => (ix(), ix()).prop_map(|(field, to)| Edit::Header { field, to }),
    ]
}

fn text_edit() -> impl Strategy<Value = TextEdit> {
    prop_oneof![
        1 => any::<usize>().prop_map(TextEdit::Truncate),
        1 => any::<usize>().prop_map(TextEdit::TruncateAtEntry),
        2 => (any::<usize>(), 1..=255u8).prop_map(|(at, mask)| TextEdit::Flip { at, mask }),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| TextEdit::Insert { at, byte }),
        1 => (any::<usize>(), 1..64usize).prop_map(|(at, len)| TextEdit::Delete { at, len }),
    ]
}

fn link_edit() -> impl Strategy<Value = LinkEdit> {
    prop_oneof![
        1 => any::<usize>().prop_map(LinkEdit::Truncate),
        4 => (any::<usize>(), any::<usize>()).prop_map(|(at, to)| LinkEdit::Flip { at, to }),
        1 => any::<usize>().prop_map(LinkEdit::Delete),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(at, ch)| LinkEdit::Insert { at, ch }),
        1 => any::<usize>().prop_map(LinkEdit::Append),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    let via = prop_oneof![
        6 => Just(Via::File),
        2 => prop::collection::vec(link_edit(), 0..3).prop_map(Via::PackedLink),
        2 => prop::collection::vec(link_edit(), 1..4).prop_map(Via::RealLink),
        1 => prop::collection::vec(link_edit(), 0..3).prop_map(Via::RerunLink),
    ];
    (
        any::<usize>(),
        prop::collection::vec(edit(), 0..5),
        prop::bool::weighted(0.7),
        any::<bool>(),
        prop_oneof![4 => Just(vec![]), 1 => prop::collection::vec(text_edit(), 1..3)],
        via,
    )
        .prop_map(|(pick, edits, renumber, compact, text, via)| Case { pick, edits, renumber, compact, text, via })
}

/// A JSON pointer token.
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Every value under the root, as (pointer, value), parents first.
fn nodes(root: &Value) -> Vec<(String, &Value)> {
    fn walk<'a>(v: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
        match v {
            Value::Object(map) => {
                for (k, child) in map {
                    let p = format!("{at}/{}", token(k));
                    out.push((p.clone(), child));
                    walk(child, p, out);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    let p = format!("{at}/{i}");
                    out.push((p.clone(), child));
                    walk(child, p, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(root, String::new(), &mut out);
    out
}

/// The last token of a pointer (the field's name, or the index).
fn last_key(pointer: &str) -> &str {
    pointer.rsplit('/').next().unwrap_or("")
}

/// The leaves (not objects or arrays), as (pointer, value).
fn leaves(root: &Value) -> Vec<(String, Value)> {
    nodes(root).into_iter().filter(|(_, v)| !v.is_object() && !v.is_array()).map(|(p, v)| (p, v.clone())).collect()
}

fn set(root: &mut Value, pointer: &str, to: Value) {
    if let Some(slot) = root.pointer_mut(pointer) {
        *slot = to;
    }
}

fn swap(root: &mut Value, a: &(String, Value), b: &(String, Value)) {
    set(root, &a.0, b.1.clone());
    set(root, &b.0, a.1.clone());
}

/// Puts `to` at `pointer`, adding the field when its object lacks it.
fn put(root: &mut Value, pointer: &str, to: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
    if let Some(Value::Object(map)) = root.pointer_mut(parent) {
        map.insert(key.to_string(), to);
    }
}

/// What edits take from the rest of the corpus.
struct Donors {
    /// Every string the corpus holds (names, ids, types, statuses, ...),
    /// sorted.
    strings: Vec<String>,
    /// Each document's list (a trace's entries, a link's path).
    lists: Vec<Vec<Value>>,
}

impl Donors {
    fn of<'a>(documents: impl Iterator<Item = &'a Value>, shape: &Shape) -> Donors {
        let mut strings = Vec::new();
        let mut lists = Vec::new();
        for doc in documents {
            strings.extend(leaves(doc).into_iter().filter_map(|(_, v)| v.as_str().map(str::to_string)).filter(|s| s.len() < 80));
            lists.push(doc[shape.list].as_array().cloned().unwrap_or_default());
        }
        strings.sort();
        strings.dedup();
        lists.retain(|l| !l.is_empty());
        Donors { strings, lists }
    }
}

/// Applies one structural edit to a document of `shape`, taking what it
/// adds from `donors`.
fn apply(root: &mut Value, edit: &Edit, donors: &Donors, shape: &Shape) {
    let pool = &donors.strings;
    let list = shape.list;
    let entries_len = root[list].as_array().map_or(0, Vec::len);
    match edit {
        Edit::KeepEntries(n) => {
            if let Some(entries) = root[list].as_array_mut() {
                entries.truncate(n % (entries_len + 1));
            }
        }
        Edit::DeleteEntry(i) => {
            if let Some(entries) = root[list].as_array_mut().filter(|e| !e.is_empty()) {
                entries.remove(i % entries_len);
            }
        }
        Edit::DuplicateEntry { from, to } => {
            if let Some(entries) = root[list].as_array_mut().filter(|e| !e.is_empty()) {
                let copy = entries[from % entries_len].clone();
                entries.insert(to % (entries_len + 1), copy);
            }
        }
        Edit::Splice { donor, item, to } => {
            if let (Some(entries), false) = (root[list].as_array_mut(), donors.lists.is_empty()) {
                let from = &donors.lists[donor % donors.lists.len()];
                entries.insert(to % (entries_len + 1), from[item % from.len()].clone());
            }
        }
        Edit::SwapEntries(a, b) => {
            if let Some(entries) = root[list].as_array_mut().filter(|e| !e.is_empty()) {
                entries.swap(a % entries_len, b % entries_len);
            }
        }
        Edit::SetSeq { entry, seq } => {
            if entries_len > 0 && list == "entries" {
                set(root, &format!("/entries/{}/seq", entry % entries_len), (*seq).into());
            }
        }
        Edit::SwapSameKey { a, b } => {
            let all = leaves(root);
            if all.is_empty() {
                return;
            }
            let first = &all[a % all.len()];
            let same: Vec<&(String, Value)> = all.iter().filter(|(p, _)| last_key(p) == last_key(&first.0)).collect();
            let second = same[b % same.len()];
            swap(root, first, second);
        }
        Edit::SwapAny { a, b } => {
            let all = nodes(root).into_iter().map(|(p, v)| (p, v.clone())).collect::<Vec<_>>();
            // Swapping a value with one inside it would nest it in itself:
            // swap only values where neither holds the other.
            if all.len() < 2 {
                return;
            }
            let (x, y) = (&all[a % all.len()], &all[b % all.len()]);
            if !x.0.starts_with(&y.0) && !y.0.starts_with(&x.0) {
                swap(root, x, y);
            }
        }
        Edit::SetNumber { leaf, to } => {
            let numbers: Vec<(String, Value)> = leaves(root).into_iter().filter(|(_, v)| v.is_number()).collect();
            if numbers.is_empty() {
                return;
            }
            let (pointer, old) = &numbers[leaf % numbers.len()];
            let edges = edge_numbers();
            let new = match to {
                Num::Near(d) => old.as_i64().map_or_else(|| old.clone(), |n| n.wrapping_add(i64::from(*d)).into()),
                Num::Edge(i) => edges[i % edges.len()].clone(),
                Num::Any(n) => (*n).into(),
            };
            set(root, pointer, new);
        }
        Edit::SetString { leaf, to } => {
            let strings: Vec<(String, Value)> = leaves(root).into_iter().filter(|(_, v)| v.is_string()).collect();
            if strings.is_empty() {
                return;
            }
            let pointer = &strings[leaf % strings.len()].0;
            let choices = pool.len() + STRANGE.len();
            let new = match to % choices {
                i if i < pool.len() => pool[i].clone(),
                i => STRANGE[i - pool.len()].to_string(),
            };
            set(root, pointer, new.into());
        }
        Edit::Remove { node } => {
            let all = nodes(root).into_iter().map(|(p, _)| p).collect::<Vec<_>>();
            if all.is_empty() {
                return;
            }
            let pointer = &all[node % all.len()];
            let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
            match root.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.remove(&key.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(items)) => {
                    if let Ok(i) = key.parse::<usize>() {
                        if i < items.len() {
                            items.remove(i);
                        }
                    }
                }
                _ => {}
            }
        }
        Edit::Header { field, to } => {
            let values = header_values();
            put(root, shape.header[field % shape.header.len()], values[to % values.len()].clone());
        }
    }
}

/// Numbers the entries 0, 1, 2, ... and makes time go forward, where the
/// entries are objects with numeric times.
fn renumber(root: &mut Value) {
    let Some(entries) = root["entries"].as_array_mut() else { return };
    let mut clock = 0u64;
    for (i, entry) in entries.iter_mut().enumerate() {
        if let Value::Object(map) = entry {
            map.insert("seq".into(), (i as u64).into());
            if let Some(t) = map.get("time").and_then(Value::as_u64) {
                clock = clock.max(t);
                map.insert("time".into(), clock.into());
            }
        }
    }
}

fn edit_text(text: String, edit: &TextEdit) -> String {
    let mut bytes = text.into_bytes();
    let n = bytes.len();
    match edit {
        TextEdit::Truncate(at) => bytes.truncate(at % (n + 1)),
        TextEdit::TruncateAtEntry(k) => {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let starts: Vec<usize> = text.match_indices("\"seq\"").filter_map(|(i, _)| text[..i].rfind('{')).collect();
            if !starts.is_empty() {
                bytes.truncate(starts[k % starts.len()]);
            }
        }
        TextEdit::Flip { at, mask } => {
            if n > 0 {
                bytes[at % n] ^= mask;
            }
        }
        TextEdit::Insert { at, byte } => bytes.insert(at % (n + 1), *byte),
        TextEdit::Delete { at, len } => {
            if n > 0 {
                let from = at % n;
                bytes.drain(from..(from + len).min(n));
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn edit_link(link: String, edit: &LinkEdit) -> String {
    let mut chars: Vec<char> = link.chars().collect();
    let n = chars.len();
    let pick = |i: &usize| char::from(LINK_CHARS[i % LINK_CHARS.len()]);
    match edit {
        LinkEdit::Truncate(at) => chars.truncate(at % (n + 1)),
        LinkEdit::Flip { at, to } => {
            if n > 0 {
                chars[at % n] = pick(to);
            }
        }
        LinkEdit::Delete(at) => {
            if n > 0 {
                chars.remove(at % n);
            }
        }
        LinkEdit::Insert { at, ch } => chars.insert(at % (n + 1), pick(ch)),
        LinkEdit::Append(i) => chars.extend(LINK_PARTS[i % LINK_PARTS.len()].chars()),
    }
    chars.into_iter().collect()
}

/// The damaged file a case builds, and the link when it goes by link.
fn build(case: &Case, corpus: &[Sample], donors: &Donors) -> (String, Option<String>) {
    let sample = &corpus[case.pick % corpus.len()];
    match &case.via {
        Via::RealLink(edits) if sample.link.is_some() => {
            let link = sample.link.clone().unwrap_or_default();
            return (String::new(), Some(edits.iter().fold(link, edit_link)));
        }
        Via::RerunLink(edits) if sample.rerun.is_some() => {
            return (String::new(), Some(edits.iter().fold(sample.rerun.clone().unwrap_or_default(), edit_link)));
        }
        _ => {}
    }
    let mut value = sample.value.clone();
    for e in &case.edits {
        apply(&mut value, e, donors, &TRACE);
    }
    if case.renumber {
        renumber(&mut value);
    }
    let text = if case.compact { value.to_string() } else { serde_json::to_string_pretty(&value).unwrap_or_default() };
    let text = case.text.iter().fold(text, edit_text);
    let link = match &case.via {
        Via::File | Via::RealLink(_) | Via::RerunLink(_) => None,
        Via::PackedLink(edits) => {
            let packed = pack(text.as_bytes());
            Some(edits.iter().fold(format!("trace={packed}"), edit_link))
        }
    };
    (text, link)
}

/// base64url(deflate(bytes)), as the page packs a link, but at the
/// fastest level (the reader does not care which) and whatever the length
/// (the page's packer refuses a link too long to share; a reader must still
/// cope with one).
fn pack(bytes: &[u8]) -> String {
    base64url(&miniz_oxide::deflate::compress_to_vec(bytes, 1))
}

/// What the readers made of the cases, to show the damage reaches each
/// stage.
#[derive(Debug, Default)]
struct Tally {
    by_outcome: BTreeMap<&'static str, usize>,
}

impl Tally {
    fn count(&mut self, outcome: &'static str) {
        *self.by_outcome.entry(outcome).or_default() += 1;
    }
}

fn words_ok(what: &str, english: String, worded: impl Fn(&Catalog) -> String) -> Result<(), TestCaseError> {
    prop_assert!(!english.trim().is_empty(), "{what}: an error with no message");
    for l in Locale::ALL {
        let words = worded(Catalog::get(l));
        prop_assert!(!words.trim().is_empty() && !words.contains('⟦'), "{what} in {}: {words:?} for {english}", l.tag());
    }
    Ok(())
}

fn import_outcome(e: &ImportError) -> &'static str {
    match e {
        ImportError::TooLarge { .. } => "import: too large",
        ImportError::Empty => "import: empty",
        ImportError::NotJson { .. } => "import: not JSON",
        ImportError::NotATrace { .. } => "import: not a trace",
        ImportError::MissingVersion | ImportError::UnsupportedVersion { .. } => "import: version",
        ImportError::MissingField { .. } => "import: missing field",
        ImportError::BadField { .. } => "import: bad field",
        ImportError::UnknownEventKind { .. } => "import: unknown kind",
        ImportError::BadSequence { .. } => "import: numbering",
        ImportError::TimeWentBackwards { .. } => "import: time",
        ImportError::BreaksProtocol(_) => "import: breaks the protocol",
        ImportError::RecordedFileRefused { .. } => "import: recorded protocol file refused",
        ImportError::DifferentFile(_) => "import: another protocol file",
    }
}

/// What the page builds from a trace it imported: its views at a few
/// cursors and its Mermaid export.
fn views_of(trace: &Trace) -> Result<(), TestCaseError> {
    let views = RunViews::of(trace);
    let len = trace.len();
    for cursor in [None, Some(0), Some(len / 2), Some(len.saturating_sub(1))] {
        views.state_at(trace.entries(), cursor).map_err(|e| TestCaseError::fail(format!("an imported trace did not replay: {e}")))?;
        let _ = views.diagram(trace.entries(), cursor, None);
        let _ = views.violations_at(cursor);
        let _ = views.messages_at(trace.entries(), cursor, 20);
    }
    prop_assert!(!mermaid(trace).is_empty());
    prop_assert!(svg_of_run(Catalog::en(), trace, Some(len / 2), "fuzz").contains("<svg "));
    Ok(())
}

/// Replays a trace nobody validated, as a whole and through the timeline.
fn replay_raw(trace: &Trace) -> Result<(), TestCaseError> {
    if let Err(e) = Team::replay(trace) {
        prop_assert!(!e.to_string().trim().is_empty(), "a replay error with no message");
    }
    let mut timeline = Timeline::with_rules(&trace.team_name, 4, trace.rules);
    if let Err(e) = timeline.extend(trace.entries()) {
        prop_assert!(!e.to_string().trim().is_empty(), "a timeline error with no message");
    }
    for cursor in [Some(0), Some(timeline.len() / 2), None] {
        let _ = timeline.state_at(trace.entries(), cursor);
    }
    Ok(())
}

/// Feeds a file's text to every reader.
fn feed_file(text: &str, tally: &mut Tally) -> Result<(), TestCaseError> {
    match import_json(text) {
        Ok(trace) => {
            tally.count("import: accepted");
            views_of(&trace)?;
        }
        Err(e) => {
            tally.count(import_outcome(&e));
            words_ok("import", e.to_string(), |cat| errors::import(cat, &e))?;
        }
    }
    if let Err(e) = Trace::from_json(text) {
        prop_assert!(!e.trim().is_empty(), "Trace::from_json: an error with no message");
    }
    // Replay does not trust its caller: a trace that skipped import's checks
    // (numbering, time order) is refused, never a crash.
    if let Ok(raw) = serde_json::from_str::<Trace>(text) {
        replay_raw(&raw)?;
    }
    Ok(())
}

/// Feeds a link to the share-link parser, and what it opens to the views.
fn feed_link(link: &str, tally: &mut Tally) -> Result<(), TestCaseError> {
    match parse_fragment(link) {
        Ok(Some(SharedRun::Trace(trace))) => {
            tally.count("link: trace");
            views_of(&trace)?;
        }
        // The page reruns the scenario under the link's seed and fault
        // rules (the scale demo aside: that is only its own long run).
        Ok(Some(SharedRun::Scenario { id, seed, faults })) => match scenarios::by_id(&id).filter(|s| s.id != scenarios::SCALE.id) {
            Some(scenario) => {
                tally.count("link: scenario rerun");
                common::try_run_scenario(scenario, seed.unwrap_or(common::SEED), faults)
                    .map_err(|e| TestCaseError::fail(format!("a scenario link's run went wrong: {e}")))?;
            }
            None => tally.count("link: other"),
        },
        Ok(_) => tally.count("link: other"),
        Err(e) => {
            tally.count("link: refused");
            words_ok("link", e.to_string(), |cat| errors::share(cat, &e))?;
        }
    }
    Ok(())
}

fn run_case(case: &Case, corpus: &[Sample], donors: &Donors, tally: &mut Tally) -> Result<(), TestCaseError> {
    let (text, link) = build(case, corpus, donors);
    match link {
        Some(link) => feed_link(&link, tally),
        None => feed_file(&text, tally),
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn no_damaged_trace_file_or_link_crashes_a_reader_and_every_refusal_says_why() {
    let started = std::time::Instant::now();
    let corpus = corpus();
    let donors = Donors::of(corpus.iter().map(|s| &s.value), &TRACE);
    let cases = env_number("FUZZ_CASES", 2_500) as u32;
    let seed = env_number("FUZZ_SEED", 0x5eed_2026);
    let config = Config { cases, rng_seed: RngSeed::Fixed(seed), failure_persistence: None, max_shrink_iters: 2_000, ..Config::default() };
    let tally = RefCell::new(Tally::default());
    let mut runner = TestRunner::new(config);
    let result = runner.run(&case(), |case| run_case(&case, &corpus, &donors, &mut tally.borrow_mut()));
    let tally = tally.into_inner();
    eprintln!(
        "import fuzz: {cases} cases (seed {seed:#x}) over {} traces in {:.1?}: {:#?}",
        corpus.len(),
        started.elapsed(),
        tally.by_outcome
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    // The damage reaches every stage: parsing, fields, numbering, replay,
    // acceptance, and the link's own checks.
    for stage in [
        "import: accepted",
        "import: breaks the protocol",
        "import: not JSON",
        "import: bad field",
        "link: refused",
        "link: trace",
        "link: scenario rerun",
    ] {
        assert!(tally.by_outcome.get(stage).is_some_and(|n| *n > 0), "no case reached '{stage}': {:?}", tally.by_outcome);
    }
}

/// Explorer links to a run of every property each explorable scenario
/// breaks or shows (its shortest path, as the panel shares it), plus a link
/// with settings only; as (name, link's JSON).
fn explore_corpus() -> Vec<(String, Value)> {
    let ids = scenarios::ALL.iter().map(|s| s.id).chain([scenarios::TWINS.id, scenarios::RESPAWN.id]);
    let mut out = vec![(
        "settings only".to_string(),
        serde_json::to_value(ExploreLink { settings: ExploreSettings::default(), path: None, property: None, entry: None })
            .expect("a link is JSON"),
    )];
    for id in ids {
        let settings = ExploreSettings {
            scenario: id.to_string(),
            fault_kinds: vec![FaultAction::Drop, FaultAction::Duplicate, FaultAction::Delay { ms: 300 }, FaultAction::Reorder],
            max_states: 1_000,
            workers: 1,
            ..ExploreSettings::default()
        };
        let report = explore(&settings.config()).unwrap_or_else(|e| panic!("{id}: {e}"));
        for p in Property::ALL {
            if let Some(example) = report.property(p).and_then(|r| r.example.as_ref()) {
                let link = ExploreLink {
                    settings: settings.clone(),
                    path: Some(example.path.clone()),
                    property: Some(p.name().into()),
                    entry: None,
                };
                out.push((format!("{id} {}", p.name()), serde_json::to_value(link).expect("a link is JSON")));
            }
        }
    }
    out
}

/// One fuzz case of an explorer link.
#[derive(Debug, Clone)]
struct ExploreCase {
    /// Which link.
    pick: usize,
    /// Changes to its JSON (its path's choices, its settings).
    edits: Vec<Edit>,
    /// Changes to the link's text once packed.
    link: Vec<LinkEdit>,
}

fn explore_case() -> impl Strategy<Value = ExploreCase> {
    (any::<usize>(), prop::collection::vec(edit(), 0..4), prop_oneof![3 => Just(vec![]), 1 => prop::collection::vec(link_edit(), 1..3)])
        .prop_map(|(pick, edits, link)| ExploreCase { pick, edits, link })
}

/// Opens an explorer link as the page does: the settings, then the run its
/// path leads to (and that run's views).
fn feed_explore_link(link: &str, tally: &mut Tally) -> Result<(), TestCaseError> {
    let opened = match parse_fragment(link) {
        Ok(Some(SharedRun::Explore(opened))) => opened,
        Ok(_) => {
            tally.count("explore link: other");
            return Ok(());
        }
        Err(e) => {
            tally.count("explore link: refused");
            return words_ok("explore link", e.to_string(), |cat| errors::share(cat, &e));
        }
    };
    let (Some(path), Some(property)) = (opened.path.clone(), opened.property()) else {
        tally.count("explore link: settings only");
        return Ok(());
    };
    let config = opened.settings.config();
    let Some(scenario) = scenarios::explorable(&config.scenario) else {
        tally.count("explore link: no scenario");
        return Ok(());
    };
    match replay_finding(scenario, &config, &path, property) {
        Ok((trace, _)) => {
            tally.count("explore link: run rebuilt");
            views_of(&trace)
        }
        Err(e) => {
            tally.count("explore link: run refused");
            prop_assert!(!e.to_string().trim().is_empty(), "an explorer error with no message");
            Ok(())
        }
    }
}

#[test]
fn no_damaged_explorer_link_crashes_the_page_and_every_refusal_says_why() {
    let started = std::time::Instant::now();
    let links = explore_corpus();
    let donors = Donors::of(links.iter().map(|(_, v)| v), &EXPLORE);
    let cases = env_number("FUZZ_CASES", 500) as u32;
    let seed = env_number("FUZZ_SEED", 0x5eed_2026);
    let config = Config { cases, rng_seed: RngSeed::Fixed(seed), failure_persistence: None, max_shrink_iters: 2_000, ..Config::default() };
    let tally = RefCell::new(Tally::default());
    let mut runner = TestRunner::new(config);
    let result = runner.run(&explore_case(), |case| {
        let (_, link) = &links[case.pick % links.len()];
        let mut value = link.clone();
        for e in &case.edits {
            apply(&mut value, e, &donors, &EXPLORE);
        }
        let fragment = case.link.iter().fold(format!("explore={}", pack(value.to_string().as_bytes())), edit_link);
        feed_explore_link(&fragment, &mut tally.borrow_mut())
    });
    let tally = tally.into_inner();
    eprintln!(
        "explore link fuzz: {cases} cases (seed {seed:#x}) over {} links in {:.1?}: {:#?}",
        links.len(),
        started.elapsed(),
        tally.by_outcome
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    for stage in ["explore link: refused", "explore link: run rebuilt", "explore link: run refused"] {
        assert!(tally.by_outcome.get(stage).is_some_and(|n| *n > 0), "no case reached '{stage}': {:?}", tally.by_outcome);
    }
}

/// The corpus's samples all import and replay undamaged, and each has a
/// link: the fuzz starts from traces the page accepts.
#[test]
fn every_undamaged_sample_imports_and_its_link_reopens_it() {
    for sample in corpus() {
        let text = sample.value.to_string();
        let trace = import_json(&text).unwrap_or_else(|e| panic!("{}: {e}", sample.name));
        let link = sample.link.unwrap_or_else(|| panic!("{}: no link", sample.name));
        assert_eq!(
            parse_fragment(&link).unwrap_or_else(|e| panic!("{}: {e}", sample.name)),
            Some(SharedRun::Trace(trace)),
            "{}",
            sample.name
        );
    }
}
