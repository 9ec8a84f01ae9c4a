//! A trace travels with its protocol file (issue 26, item 6): a run under a
//! file with protocols of its own records the file in its header (format
//! version 2: the file's name and whole text), so the exported trace — as
//! a file or a share link — imports on a machine without the file, under
//! the file it ran under; a trace written before (version 1) still imports
//! under its file; a trace read under another file is refused naming the
//! first difference, and one whose recorded file does not load is refused
//! with the loader's line, column and sentence. Runs of the lesson's
//! protocols keep writing version 1 with no such field (their bytes are
//! pinned by `trace_digests`). The page's views of an imported file run
//! (timeline, checker, diagram exports) read it under its file.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::Arc;

use serde_json::Value;
use team_protocols::explore::fork::recover_path;
use team_protocols::explore::{ExploreConfig, ExploreError};
use team_protocols::protocol::file::diff::Difference;
use team_protocols::protocol::file::{builtin, load, ProtocolFile};
use team_protocols::protocol::trace_file::{import_json, import_json_under, trace_json, ImportError};
use team_protocols::protocol::{ProtocolSet, Team, Trace, ViolationKind};
use team_protocols::runtime::scenarios;
use team_protocols::view::derived::RunViews;
use team_protocols::view::export::share::{parse_fragment, trace_fragment, SharedRun};
use team_protocols::view::export::{mermaid, svg_of_run};
use team_protocols::view::i18n::Catalog;

fn example_text(id: &str) -> &'static str {
    builtin::EXAMPLES.iter().find(|(n, _)| *n == id).map(|(_, t)| *t).unwrap_or_else(|| panic!("no example '{id}'"))
}

fn loaded(text: &str) -> Arc<ProtocolFile> {
    Arc::new(load(text).unwrap_or_else(|e| panic!("{}", e.render("file"))))
}

/// The trace of the task-claim team's run, seed 7 (the fixture's seed).
fn claim_trace() -> Trace {
    let (world, quiet) = common::file_team::run_file_team(loaded(example_text("task-claim")), 7, 10_000).unwrap();
    assert!(quiet, "the task-claim team goes quiet");
    world.team().trace().clone()
}

/// The task-claim example without the answer's `note` field (and the step
/// that sets it).
fn claim_without_note() -> String {
    example_text("task-claim")
        .replace(r#"response_fields = [{ name = "note", type = "string", content = true }]"#, "response_fields = []")
        .replace(r#"fields = { note = "ann has the parser; take the lexer." }"#, "")
}

#[test]
fn a_file_runs_trace_records_its_file_and_imports_without_it_to_the_same_events_and_protocols() {
    let trace = claim_trace();
    let json = trace_json(&trace);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["version"], 2, "a header that records a file is version 2");
    assert_eq!(v["protocol_file"]["name"], "task-claim");
    assert_eq!(v["protocol_file"]["text"], example_text("task-claim"), "the whole text, comments and all");
    let at = |key: &str| json.find(&format!("\n  \"{key}\": ")).unwrap_or_else(|| panic!("{key} at the top level"));
    let order = ["version", "team_name", "seed", "protocol_file", "entries"].map(at);
    assert!(order.windows(2).all(|w| w[0] < w[1]), "the header's order: {order:?}");

    // Imported as the page imports a file: no protocol file given.
    let back = import_json(&json).expect("the trace imports without its file");
    assert_eq!(back.entries(), trace.entries(), "the same events");
    assert_eq!(back.protocols(), trace.protocols(), "the same protocols");
    assert_eq!(back.protocols().file().unwrap().text.as_ref(), example_text("task-claim"));
    assert_eq!(trace_json(&back), json, "export, import, export: the same bytes");
    assert_eq!(Team::replay(&back).unwrap().state(), Team::replay(&trace).unwrap().state(), "it replays to the run's state");

    // Under the very file it ran under, it imports too.
    let same = ProtocolSet::new(loaded(example_text("task-claim")));
    assert_eq!(import_json_under(&json, &same).unwrap().entries(), trace.entries());

    // And through a share link, as the page opens one.
    let fragment = trace_fragment(&trace).unwrap();
    let Some(SharedRun::Trace(linked)) = parse_fragment(&fragment).unwrap() else { panic!("a trace link opens a trace") };
    assert_eq!(linked.entries(), trace.entries());
    assert_eq!(linked.protocols(), trace.protocols());
}

#[test]
fn a_run_of_the_lessons_protocols_writes_the_header_it_always_wrote() {
    let file = loaded(builtin::team("shutdown").unwrap());
    assert!(!file.has_own_protocols());
    let (world, quiet) = common::file_team::run_file_team(file, 7, 10_000).unwrap();
    assert!(quiet);
    let v: Value = serde_json::from_str(&trace_json(world.team().trace())).unwrap();
    assert_eq!(v["version"], 1);
    assert!(v.get("protocol_file").is_none(), "no file recorded for the lesson's protocols");
    let lesson: Value = serde_json::from_str(&trace_json(&common::scenario_trace(scenarios::SHUTDOWN))).unwrap();
    assert_eq!(lesson["version"], 1);
    assert!(lesson.get("protocol_file").is_none());
}

#[test]
fn a_trace_written_before_traces_recorded_their_file_still_imports_under_its_file() {
    let old = include_str!("fixtures/task-claim.v1.trace.json");
    assert!(old.starts_with("{\n  \"version\": 1,") && !old.contains("protocol_file"), "the fixture is a version 1 trace");
    let set = ProtocolSet::new(loaded(example_text("task-claim")));
    let trace = import_json_under(old, &set).expect("a version 1 trace imports under its file");
    assert_eq!(trace.entries(), claim_trace().entries(), "the events this build records for the same run");
    // Exported again, it now carries its file.
    let upgraded = trace_json(&trace);
    assert_eq!(upgraded, trace_json(&claim_trace()));
    assert_eq!(import_json(&upgraded).unwrap().entries(), trace.entries());
    // Without the file it cannot be read, as before: it names a type the
    // lesson does not have.
    let err = import_json(old).unwrap_err();
    assert!(matches!(err, ImportError::BreaksProtocol(_)), "{err}");
    assert!(err.to_string().contains("claim"), "{err}");
}

#[test]
fn a_trace_read_under_another_file_is_refused_naming_the_difference() {
    let json = trace_json(&claim_trace());
    let other = ProtocolSet::new(loaded(&claim_without_note()));
    let err = import_json_under(&json, &other).unwrap_err();
    let ImportError::DifferentFile(mismatch) = &err else { panic!("{err:?}") };
    assert_eq!(mismatch.difference, Difference::MissingField { protocol: "claim".into(), side: "response", field: "note".into() });
    assert_eq!(
        err.to_string(),
        "this trace ran under protocol file 'task-claim' (protocol claim with fields task, note); \
         the file loaded now differs: protocol claim has no response field 'note'"
    );
    // Another file altogether.
    let review = ProtocolSet::new(loaded(example_text("review-gate")));
    let err = import_json_under(&json, &review).unwrap_err();
    assert!(matches!(&err, ImportError::DifferentFile(m) if m.difference == Difference::Lesson { now: true }), "{err}");

    // The explorer refuses to recover the path of the run under another file.
    let trace = claim_trace();
    let mut config = ExploreConfig::new("task-claim");
    config.seed = 7;
    config.team = Some(loaded(&claim_without_note()));
    let scenario = scenarios::explorable("shutdown").unwrap();
    let err = recover_path(scenario, &config, &trace).unwrap_err();
    assert!(matches!(&err, ExploreError::DifferentFile(m) if m.difference == mismatch.difference), "{err}");
    assert!(err.to_string().contains("protocol claim has no response field 'note'"), "{err}");
    // Under its own file the explorer finds the run's path.
    config.team = Some(loaded(example_text("task-claim")));
    let branch = recover_path(scenario, &config, &trace).expect("the run is the scripted team's own");
    assert_eq!(branch.trace.entries(), trace.entries());
}

#[test]
fn a_trace_whose_recorded_file_does_not_load_is_refused_with_the_loaders_line() {
    let json = trace_json(&claim_trace());
    let mut v: Value = serde_json::from_str(&json).unwrap();
    let text = v["protocol_file"]["text"].as_str().unwrap().to_string();
    let broken = text.replace("to = \"lead\"", "to = \"boss\"");
    let line = broken.lines().position(|l| l.contains("\"boss\"")).unwrap() + 1;
    v["protocol_file"]["text"] = Value::from(broken);
    let err = import_json(&v.to_string()).unwrap_err();
    let ImportError::RecordedFileRefused { name, refusal } = &err else { panic!("{err:?}") };
    assert_eq!((name.as_str(), refusal.line, refusal.column), ("task-claim", line, 6), "{err}");
    assert_eq!(refusal.path, "protocol[0].to");
    assert!(refusal.error.to_string().contains("boss"), "the sentence names the value: {}", refusal.error);
    assert!(
        err.to_string().starts_with(&format!(
            "the protocol file 'task-claim' this trace records does not load: line {line}, column 6: protocol[0].to: "
        )),
        "{err}"
    );

    // Text that is not TOML at all: refused at its line, with the syntax.
    let mut v: Value = serde_json::from_str(&json).unwrap();
    v["protocol_file"]["text"] = Value::from("format = 1\n[[protocol]\n");
    let err = import_json(&v.to_string()).unwrap_err();
    assert!(matches!(&err, ImportError::RecordedFileRefused { refusal, .. } if refusal.line == 2), "{err}");

    // The trace itself was fine: restoring the text restores the import.
    let mut v: Value = serde_json::from_str(&json).unwrap();
    v["protocol_file"]["text"] = Value::from(text);
    assert_eq!(import_json(&v.to_string()).unwrap().entries(), claim_trace().entries());
}

#[test]
fn an_imported_file_runs_trace_is_drawn_and_checked_under_its_file() {
    let trace = import_json(&trace_json(&claim_trace())).unwrap();
    let views = RunViews::of(&trace);
    // The page's timeline replays it under the file it records: every
    // cursor has a state, the last one the run's.
    for cursor in [Some(0), Some(trace.len() / 2), None] {
        let state = views.state_at(trace.entries(), cursor).unwrap_or_else(|e| panic!("cursor {cursor:?}: {e}"));
        if cursor.is_none() {
            assert_eq!(&state, Team::replay(&trace).unwrap().state());
        }
    }
    // The checker reads a claim's answer as the answer to its request.
    assert!(views.violations_at(None).iter().all(|v| v.kind != ViolationKind::AnswerToUnknownRequest), "{:?}", views.violations_at(None));
    assert!(mermaid(&trace).contains("claim_request"));
    assert!(svg_of_run(Catalog::en(), &trace, None, "task-claim").contains("<svg "));
}
