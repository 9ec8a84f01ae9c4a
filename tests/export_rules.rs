//! Exports of the six scenarios, run headless with the scripted model (seed
//! 2026): the JSON round trip is byte-identical, the Mermaid text matches its
//! snapshot under `tests/snapshots/` (insta: a change fails and shows as a
//! diff for `cargo insta review`), the SVG is well-formed XML, no export holds
//! anything like an API key, and a scenario's export broken in each way is
//! refused with its own error.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use team_protocols::protocol::*;
use team_protocols::runtime::scenarios::{self, Scenario};
use team_protocols::view::diagram::layout::layout;
use team_protocols::view::export::{import_json, mermaid, read_json, svg_of_run, trace_json, ImportError, MAX_IMPORT_BYTES};
use team_protocols::view::i18n::Catalog;

mod common;
/// The scenario's trace, run to the end by the shared harness.
use common::scenario_trace as run;

/// The scenario's trace with `faults` injected on the bus.
fn run_with(scenario: Scenario, faults: FaultPlan) -> Trace {
    common::run_scenario(scenario, common::SEED, faults).1
}

fn all() -> impl Iterator<Item = (Scenario, Trace)> {
    scenarios::ALL.into_iter().map(|s| (s, run(s)))
}

#[test]
fn export_import_export_is_byte_identical_for_every_scenario() {
    for (s, trace) in all() {
        let first = trace_json(&trace);
        let back = import_json(&first).unwrap_or_else(|e| panic!("{}: {e}", s.id));
        assert_eq!(back, trace, "{}: import restores the trace", s.id);
        assert_eq!(trace_json(&back), first, "{}: byte-identical", s.id);
        let v: Value = serde_json::from_str(&first).unwrap();
        assert_eq!(v["version"], TRACE_VERSION, "{}", s.id);
    }
}

const TRACE_VERSION: u32 = team_protocols::protocol::trace::TRACE_FORMAT_VERSION;

#[test]
fn an_imported_scenario_replays_to_the_same_state() {
    for (s, trace) in all() {
        let back = import_json(&trace_json(&trace)).unwrap();
        assert_eq!(Team::replay(&back).unwrap().state(), Team::replay(&trace).unwrap().state(), "{}", s.id);
        assert_eq!(layout(&back, None), layout(&trace, None), "{}: the same diagram", s.id);
    }
}

/// Each scenario's Mermaid text is pinned as a snapshot,
/// `tests/snapshots/export_rules__mermaid_<id>.snap`: a change fails the test
/// and leaves a `.snap.new` beside it for `cargo insta review` (or
/// `INSTA_UPDATE=always`, then review the diff in git); under `CI=true`
/// nothing is written.
#[test]
fn mermaid_of_every_scenario_matches_its_snapshot() {
    for (s, trace) in all() {
        let text = mermaid(&trace);
        // insta ignores trailing newlines; the file ends with exactly one.
        assert!(text.ends_with("finished\n") && !text.ends_with("\n\n"), "{}: one final newline", s.id);
        insta::assert_snapshot!(format!("mermaid_{}", s.id), text);
    }
}

#[test]
fn mermaid_declares_lifelines_in_order_and_draws_one_arrow_per_message() {
    for (s, trace) in all() {
        let text = mermaid(&trace);
        let columns: Vec<String> = layout(&trace, None).columns.iter().map(|c| c.name.to_string()).collect();
        let declared: Vec<String> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("participant "))
            .map(|l| l.split_once(" as ").unwrap().1.to_string())
            .collect();
        assert_eq!(declared, columns, "{}: lead first, then lifeline order", s.id);
        let sent = trace.entries().iter().filter(|e| matches!(e.event, Event::MessageSent { .. })).count();
        assert_eq!(text.lines().filter(|l| l.contains("->>")).count(), sent, "{}", s.id);
        let transitions = trace.entries().iter().filter(|e| matches!(e.event, Event::RequestTransitioned { .. })).count();
        assert_eq!(text.lines().filter(|l| l.contains(" pending → ")).count(), transitions, "{}", s.id);
        assert!(text.starts_with("sequenceDiagram\n") && text.contains("\n    autonumber\n"), "{}", s.id);
    }
}

/// A minimal well-formedness check: one root, every tag closed in order,
/// attributes quoted, no raw `<` or stray `&` in text or attribute values.
fn assert_well_formed(xml: &str) {
    let body = xml.strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n").expect("an XML declaration");
    let mut stack: Vec<&str> = Vec::new();
    let mut roots = 0;
    let mut rest = body;
    while let Some(open) = rest.find('<') {
        check_text(&rest[..open]);
        let close = rest[open..].find('>').expect("every tag ends") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "closing tag matches the open one");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, attrs) = tag.split_once(' ').unwrap_or((tag, ""));
        assert!(!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'), "tag name {name:?}");
        check_attributes(attrs);
        if stack.is_empty() {
            roots += 1;
        }
        if !self_closing {
            stack.push(name);
        }
    }
    check_text(rest);
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert_eq!(roots, 1, "one root element");
}

fn check_text(text: &str) {
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        let entity = &rest[i..rest[i..].find(';').map_or(rest.len(), |j| i + j + 1)];
        assert!(["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&entity), "stray & in {text:?}");
        rest = &rest[i + 1..];
    }
    assert!(!text.contains('<'), "raw < in {text:?}");
}

fn check_attributes(attrs: &str) {
    let mut rest = attrs.trim();
    while !rest.is_empty() {
        let (name, after) = rest.split_once("=\"").unwrap_or_else(|| panic!("attribute without a quoted value: {rest:?}"));
        assert!(!name.trim().is_empty() && !name.contains(' '), "attribute name {name:?}");
        let end = after.find('"').expect("attribute value ends");
        check_text(&after[..end]);
        rest = after[end + 1..].trim_start();
    }
}

/// True when `text` holds something shaped like a provider API key or a
/// credential header.
fn looks_like_a_key(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if ["x-api-key", "authorization:", "bearer ", "api_key", "apikey"].iter().any(|m| lower.contains(m)) {
        return true;
    }
    text.match_indices("sk-")
        .any(|(i, _)| text[i + 3..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').count() >= 16)
}

#[test]
fn the_svg_of_every_scenario_is_well_formed_and_holds_its_elements() {
    for (s, trace) in all() {
        let d = layout(&trace, None);
        let doc = svg_of_run(Catalog::en(), &trace, None, &format!("Team Protocols Playground — {}", s.title));
        assert_well_formed(&doc);
        for c in &d.columns {
            assert!(doc.contains(&format!(">{}</text>", c.name)), "{}: a head for {}", s.id, c.name);
        }
        assert_eq!(
            doc.matches("<g class=\"msg ").count(),
            trace.entries().iter().filter(|e| matches!(e.event, Event::MessageSent { .. })).count()
        );
        assert_eq!(doc.matches("<g class=\"badge ").count(), d.badges.len(), "{}", s.id);
        assert_eq!(doc.matches("class=\"activation").count(), d.activations.len(), "{}", s.id);
    }
}

/// The two SVG exports: "this frame" draws the diagram as of the cursor (the
/// arrows of the events up to it), "whole run" every event of the trace
/// (the diagram at the run's end), whatever the cursor.
#[test]
fn the_frame_svg_holds_the_arrows_up_to_the_cursor_and_the_whole_run_svg_every_arrow() {
    let arrows = |doc: &str| doc.matches("<g class=\"msg ").count();
    let sent = |entries: &[TraceEntry]| entries.iter().filter(|e| matches!(e.event, Event::MessageSent { .. })).count();
    for (s, trace) in all() {
        let whole = svg_of_run(Catalog::en(), &trace, None, s.title);
        assert_eq!(arrows(&whole), sent(trace.entries()), "{}: the whole run has every arrow", s.id);
        // A cursor just after the first message: one arrow, fewer than the run's.
        let first = trace.entries().iter().find(|e| matches!(e.event, Event::MessageSent { .. })).expect("every scenario sends a message");
        let cursor = first.seq as usize + 1;
        let frame = svg_of_run(Catalog::en(), &trace, Some(cursor), s.title);
        assert_well_formed(&frame);
        assert_eq!(arrows(&frame), sent(&trace.entries()[..cursor]), "{}: the frame has the arrows up to its cursor", s.id);
        assert!(arrows(&frame) == 1 && arrows(&whole) > 1, "{}: the frame leaves out what comes after the cursor", s.id);
        assert_eq!(whole, svg_of_run(Catalog::en(), &trace, Some(trace.len()), s.title), "{}: the whole run is the frame at its end", s.id);
    }
}

/// The shutdown scenario with alice's answer dropped on the bus: the lead
/// never learns it, and the checker flags the request.
fn shutdown_with_dropped_answer() -> Trace {
    let mut rule = FaultRule::new(FaultAction::Drop);
    rule.msg_type = Some(MessageType::SHUTDOWN_RESPONSE);
    run_with(scenarios::SHUTDOWN, FaultPlan::new(vec![rule]))
}

#[test]
fn the_svg_of_a_run_with_a_dropped_answer_shows_the_cross_and_the_violation_mark() {
    let trace = shutdown_with_dropped_answer();
    let doc = svg_of_run(Catalog::en(), &trace, None, "dropped answer");
    assert_well_formed(&doc);
    let dropped: Vec<&str> = doc.lines().filter(|l| l.starts_with("<g class=\"msg ") && l.contains(" fault-dropped\"")).collect();
    assert_eq!(dropped.len(), 1, "{doc}");
    assert!(dropped[0].contains("<g class=\"drop-x\" aria-label=\"dropped\">") && !dropped[0].contains("marker-end"), "{}", dropped[0]);
    let violations = check(&trace);
    assert!(!violations.is_empty(), "the dropped answer is a finding");
    for v in &violations {
        let mark = format!("<g class=\"violation-mark\" data-seq=\"{}\"", v.seq);
        assert!(doc.lines().any(|l| l.starts_with(&mark) && l.contains(">⚠</text>")), "{v:?} is marked in the SVG");
    }
}

#[test]
fn the_well_formedness_check_catches_broken_documents() {
    let ok = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg a=\"1\"><g><text>a &amp; b</text></g><rect/></svg>\n";
    assert_well_formed(ok);
    for broken in [
        ok.replace("</g>", ""),
        ok.replace("&amp;", "&"),
        ok.replace("a &amp; b", "a < b"),
        ok.replace("a=\"1\"", "a=1"),
        format!("{ok}<svg></svg>"),
    ] {
        assert!(std::panic::catch_unwind(|| assert_well_formed(&broken)).is_err(), "{broken}");
    }
}

#[test]
fn no_export_holds_anything_like_an_api_key() {
    assert!(looks_like_a_key("key sk-ant-api03-SECRET-0123456789abcdef"), "the detector sees a key");
    for (s, trace) in all() {
        for (what, text) in
            [("json", trace_json(&trace)), ("mermaid", mermaid(&trace)), ("svg", svg_of_run(Catalog::en(), &trace, None, s.title))]
        {
            assert!(!looks_like_a_key(&text), "{}: the {what} export looks like it holds a key", s.id);
        }
    }
}

/// The shutdown scenario's export as a JSON value, to break.
fn shutdown_json() -> Value {
    serde_json::from_str(&trace_json(&run(scenarios::SHUTDOWN))).unwrap()
}

fn import(v: &Value) -> Result<Trace, ImportError> {
    import_json(&serde_json::to_string_pretty(v).unwrap())
}

fn position(v: &Value, pred: impl Fn(&Value) -> bool) -> usize {
    v["entries"].as_array().unwrap().iter().position(pred).unwrap()
}

#[test]
fn each_kind_of_bad_file_gets_its_own_error_naming_the_problem() {
    let good = shutdown_json();
    let sent = position(&good, |e| e["event"]["kind"] == "message_sent");

    let not_json = import_json(&trace_json(&run(scenarios::SHUTDOWN)).replacen("\"seed\"", "seed", 1)).unwrap_err();
    assert!(matches!(not_json, ImportError::NotJson { line: 4, .. }), "{not_json:?}");

    let mut wrong_version = good.clone();
    wrong_version["version"] = Value::from(99);
    let wrong_version = import(&wrong_version).unwrap_err();
    assert!(matches!(&wrong_version, ImportError::UnsupportedVersion { found } if found == "99"));

    let mut missing = good.clone();
    missing["entries"][sent]["event"]["message"].as_object_mut().unwrap().remove("to");
    let missing = import(&missing).unwrap_err();
    assert_eq!(missing, ImportError::MissingField { entry: Some(sent as u64), field: "event.message.to".into() });

    let mut ill_typed = good.clone();
    ill_typed["entries"][sent]["event"]["message"]["timestamp"] = Value::from("noon");
    let ill_typed = import(&ill_typed).unwrap_err();
    assert!(matches!(&ill_typed, ImportError::BadField { field, .. } if field == "event.message.timestamp"), "{ill_typed:?}");

    let mut renumbered = good.clone();
    renumbered["entries"].as_array_mut().unwrap().remove(1);
    assert_eq!(import(&renumbered).unwrap_err(), ImportError::BadSequence { index: 1, seq: 2 });

    let mut backwards = good.clone();
    let last = good["entries"].as_array().unwrap().len() - 1;
    backwards["entries"][0]["time"] = Value::from(u64::MAX);
    let backwards = import(&backwards).unwrap_err();
    assert!(matches!(backwards, ImportError::TimeWentBackwards { seq: 1, .. }), "{backwards:?}");

    // A second, conflicting answer: the tracker refuses it on replay.
    let mut second_answer = good.clone();
    let transition = position(&good, |e| e["event"]["kind"] == "request_transitioned");
    let entries = second_answer["entries"].as_array_mut().unwrap();
    let mut again = entries[transition].clone();
    again["seq"] = Value::from(last + 1);
    again["time"] = good["entries"][last]["time"].clone();
    entries.push(again);
    let second_answer = import(&second_answer).unwrap_err();
    let ImportError::BreaksProtocol(replay) = &second_answer else { panic!("{second_answer:?}") };
    assert_eq!(replay.seq, last as u64 + 1);
    assert!(second_answer.to_string().contains("can be answered only once"), "{second_answer}");

    let huge = import_json(&" ".repeat(MAX_IMPORT_BYTES as usize + 1)).unwrap_err();
    assert!(matches!(huge, ImportError::TooLarge { .. }));

    let errors = [not_json, wrong_version, missing, ill_typed, backwards, second_answer, huge];
    let kinds: std::collections::HashSet<_> = errors.iter().map(std::mem::discriminant).collect();
    assert_eq!(kinds.len(), errors.len(), "each kind of bad file has its own error");
    for e in &errors {
        let text = format!("Error: {e}");
        assert!(!text.contains("  ") && !text.ends_with('.'), "reads as one sentence after 'Error: ': {text}");
    }
}

/// A run the page kept in browser storage reads back past the file-import
/// cap (a long run is longer than a file one picks), with the same checks
/// as an import; a file of that size is still refused.
#[test]
fn a_stored_run_over_the_import_cap_reads_back_and_a_file_that_size_is_refused() {
    let mut team = Team::new("long", 7);
    let (lead, bob) = (AgentName::lead(), AgentName::parse("bob").unwrap());
    team.spawn(&bob, "coder", false, Millis(0)).unwrap();
    let mut at = 0;
    let mut json = trace_json(team.trace());
    while json.len() as u64 <= MAX_IMPORT_BYTES {
        for _ in 0..10_000 {
            at += 1;
            team.send(&lead, &bob, "message", "status?", Millis(at)).unwrap();
        }
        json = trace_json(team.trace());
    }
    assert!(matches!(import_json(&json), Err(ImportError::TooLarge { .. })));
    let back = read_json(&json).unwrap();
    assert_eq!(back.len(), team.trace().len());
    assert_eq!(trace_json(&back), json);
    let broken = json.replacen("\"seq\": 1,", "\"seq\": 9,", 1);
    assert!(broken != json, "the trace numbers its events");
    assert!(matches!(read_json(&broken), Err(ImportError::BadSequence { .. })), "the same checks as an import");
}
