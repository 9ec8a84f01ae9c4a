//! The `explore` binary as CI runs it: `--list`, `--json` with the keys a
//! pipeline reads, the exit status (non-zero when a property fails), and a
//! clear refusal of bad arguments.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

fn explore(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_explore")).args(args).output().expect("the explore binary runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn list_names_every_scenario() {
    let (code, out, _) = explore(&["--list"]);
    assert_eq!(code, 0);
    for s in team_protocols::runtime::scenarios::ALL {
        assert!(out.contains(s.id), "{} is listed:\n{out}", s.id);
    }
}

#[test]
fn json_reports_the_counts_and_each_propertys_verdict_and_exits_zero_when_all_hold() {
    let (code, out, err) = explore(&["--scenario", "shutdown", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    for key in ["states", "distinct_states", "seconds", "states_per_second", "hash_collision_bound"] {
        assert!(v[key].is_number(), "{key} in {v}");
    }
    let n = v["distinct_states"].as_f64().unwrap();
    assert_eq!(v["hash_collision_bound"].as_f64().unwrap(), n * (n - 1.0) / 2.0 / 2f64.powi(64), "the birthday bound of {n} states");
    let properties = v["properties"].as_object().expect("properties");
    assert_eq!(properties.len(), team_protocols::explore::Property::ALL.len());
    assert!(properties.values().all(|p| p == "holds"), "{properties:?}");
}

#[test]
fn compare_reduction_reports_the_reduction_factor_of_both_modes_in_json_and_text() {
    // out-of-order with 1 drop: sleep sets run fewer transitions than the
    // full search on the same situations (README, "Partial-order
    // reduction"); the drop breaks a property, so the status is 1.
    let args = ["--scenario", "out-of-order", "--faults", "1", "--kinds", "drop", "--threads", "1", "--compare-reduction"];
    let (code, out, err) = explore(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 1, "a dropped message breaks a property: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let c = &v["reduction_factor"];
    assert_eq!(c["with"]["states"], v["states"], "the reduced side is the search reported: {c}");
    assert_eq!(c["reduction_ran"], true, "{c}");
    let (with, without) = (c["with"]["states"].as_u64().expect("a count"), c["without"]["states"].as_u64().expect("a count"));
    assert!(with < without, "sleep sets run fewer transitions: {with} vs {without}");
    let factor = c["factor"].as_f64().expect("a factor");
    assert!((factor - with as f64 / without as f64).abs() < 1e-9, "factor is with / without: {c}");
    // Asked from the full search, the same two searches are compared.
    let (code, out, err) = explore(&[&args[..], &["--no-reduction", "--json"]].concat());
    assert_eq!(code, 1, "a dropped message breaks a property: {err}");
    let v2: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v2["reduction_factor"]["without"]["states"], v2["states"]);
    assert_eq!(v2["reduction_factor"]["factor"], c["factor"]);
    let (code, out, err) = explore(&args);
    assert_eq!(code, 1, "a dropped message breaks a property: {err}");
    assert!(out.contains("reduction factor (states with / without)"), "{out}");
    // Without the flag the JSON has no comparison.
    let (_, out, _) = explore(&args[..args.len() - 1].iter().chain(&["--json"]).copied().collect::<Vec<_>>());
    let v3: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert!(v3.get("reduction_factor").is_none(), "{v3}");
}

#[test]
fn a_failing_property_exits_non_zero_and_names_its_counterexample() {
    let (code, out, _) = explore(&["--scenario", "shutdown", "--faults", "1", "--kinds", "drop", "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["properties"]["no_answer_lost"], "fails");
    let examples = v["counterexamples"].as_array().unwrap();
    assert!(examples.iter().any(|e| e["property"] == "no_answer_lost" && e["path"].as_array().is_some_and(|p| !p.is_empty())), "{v}");
}

#[test]
fn bad_arguments_are_refused_in_words_with_status_two() {
    for (args, says) in [
        (&["--scenario", "nope"][..], "no scenario 'nope'"),
        (&["--scenario", "shutdown", "--faults", "x"][..], "--faults: 'x' is not a number"),
        (&["--scenario", "shutdown", "--kinds", "melt"][..], "unknown fault kind 'melt'"),
        (&["--frobnicate"][..], "unknown option '--frobnicate'"),
        (&["--scenario", "shutdown", "--rule-off", "melt"][..], "no rule named 'melt'"),
        (&[][..], "--scenario is required"),
    ] {
        let (code, _, err) = explore(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_protective_rule_switched_off_lets_its_failure_through() {
    let (code, out, err) = explore(&["--scenario", "shutdown", "--rule-off", "exit_after_approval", "--json"]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["properties"]["no_action_after_shutdown_approved"], "fails", "{v}");
}

#[test]
fn a_reader_that_goes_away_is_not_an_error() {
    use std::process::Stdio;
    // `explore … | head` where head has already exited: the pipe is closed
    // before the report is written (the search takes a while first).
    let mut child = Command::new(env!("CARGO_BIN_EXE_explore"))
        .args(["--scenario", "shutdown", "--faults", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the explore binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "no panic on a closed pipe: {stderr}");
    assert_eq!(out.status.code(), Some(1), "the status still says a property fails: {stderr}");
}

#[test]
fn help_names_every_flag_and_exits_zero() {
    let (code, out, _) = explore(&["--help"]);
    assert_eq!(code, 0);
    for flag in [
        "--scenario",
        "--faults",
        "--kinds",
        "--depth",
        "--max-states",
        "--strategy",
        "--runs",
        "--seed",
        "--threads",
        "--decisions",
        "--withhold",
        "--lead-answers",
        "--rule-off",
        "--no-symmetry",
        "--no-reduction",
        "--compare-reduction",
        "--json",
        "--list",
        "--trace-out",
        "--check",
        "--file",
    ] {
        assert!(out.contains(flag), "{flag} in --help:\n{out}");
    }
}

#[test]
fn a_misspelt_option_is_refused_with_the_one_meant() {
    let (code, _, err) = explore(&["--faultz", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown option '--faultz' (did you mean '--faults'?)"), "{err}");
    let (code, _, err) = explore(&["--scenario"]);
    assert_eq!(code, 2);
    assert!(err.contains("--scenario needs a value"), "{err}");
}

fn example_path(name: &str) -> String {
    format!("{}/src/protocol/file/examples/{name}.toml", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn check_prints_what_a_protocol_file_holds_and_exits_zero() {
    let path = example_path("status-report");
    let (code, out, err) = explore(&["--check", &path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&format!("{path}: ok (with the lesson's protocols)")), "{out}");
    for words in
        ["gates: plan", "status       status_request -> status_response", "deadline 10000 ms", "team: status-report", "report_or_expiry"]
    {
        assert!(out.contains(words), "'{words}' in:\n{out}");
    }
}

#[test]
fn check_prints_every_refusal_as_file_line_column_path_and_sentence_and_exits_two() {
    let path = std::env::temp_dir().join(format!("explore-check-{}.toml", std::process::id()));
    std::fs::write(&path, "format = 2\n[[protocol]]\nname = \"X\"\nfrom = \"boss\"\n").unwrap();
    let shown = path.display().to_string();
    let (code, out, err) = explore(&["--check", &shown]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    for line in [
        format!("{shown}:1:10: format: format 2 is not one this version reads"),
        format!("{shown}:3:8: protocol[0].name: 'X' is not a valid name"),
        format!("{shown}:4:8: protocol[0].from: 'boss' is not one of: lead, teammate, any"),
        format!("{shown}:2:1: protocol[0].request: 'request' is missing"),
    ] {
        assert!(err.lines().any(|l| l.starts_with(&line)), "{line}\nin:\n{err}");
    }
    assert!(err.contains("was refused (7 errors)"), "{err}");
}

#[test]
fn check_refuses_the_permission_request_nobody_answers_with_the_rule_named() {
    let path = example_path("permission-no-responder");
    let (code, _, err) = explore(&["--check", &path]);
    assert_eq!(code, 2);
    assert!(err.starts_with(&format!("{path}:21:1: protocol[0].tools.respond: nobody can answer a 'permission' request")), "{err}");
    assert!(err.contains("responder_required"), "{err}");
    let (code, out, err) = explore(&["--check", &example_path("permission-rule-off")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("protective rules off: responder_required"), "{out}");
    // With the rule off the team runs, and the explorer shows carol's
    // request stuck: nobody can answer it, it never settles.
    let (code, out, err) = explore(&["--file", &example_path("permission-rule-off"), "--faults", "0", "--json"]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for p in ["every_request_has_a_responder", "requests_settle", "no_quiet_while_pending"] {
        assert_eq!(v["properties"][p], "fails", "{p}: {v}");
    }
    assert!(v["counterexamples"].as_array().unwrap().iter().any(|c| c["detail"].as_str().unwrap().contains("permission request")), "{v}");
}

#[test]
fn a_files_own_team_is_explored_and_exits_as_its_verdicts_say() {
    for name in ["task-claim", "review-gate", "deadline-retry"] {
        for team in [None, Some(name)] {
            let file = example_path(name);
            let mut args = vec!["--file", file.as_str(), "--faults", "1", "--kinds", "drop", "--json"];
            args.extend(team.iter().flat_map(|t| ["--team", *t]));
            let (code, out, err) = explore(&args);
            let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{name}: {e}: {out} {err}"));
            let fails = ["properties", "file_properties"].iter().any(|k| v[k].as_object().unwrap().values().any(|p| p == "fails"));
            assert_eq!(code, if fails { 1 } else { 0 }, "{name}: {v}");
            assert!(v["states"].as_u64().unwrap() > 1, "{name}: {v}");
            assert_eq!(
                (&v["team"], &v["scenario"], &v["complete"]),
                (&serde_json::json!(name), &serde_json::json!(name), &serde_json::json!(true))
            );
            // Each of the file's properties has its verdict, over the file's own protocols.
            let verdicts = v["file_properties"].as_object().unwrap();
            assert_eq!(verdicts.len(), 1, "{name}: {v}");
            assert!(verdicts.values().all(|p| p == "holds" || p == "fails"), "{name}: {v}");
            if name == "task-claim" {
                // Nothing in the claim protocol keeps a second claim of a task
                // from being approved: a lead off its script (one decision,
                // approving ben's claim too) breaks the property.
                assert_eq!(v["file_properties"]["one_owner_per_task"], "fails", "{v}");
                let path = v["file_examples"][0]["path"].as_array().unwrap();
                assert!(
                    path.iter().any(|s| s["label"].as_str().is_some_and(|l| l.starts_with("approve ") && l.ends_with(" instead"))),
                    "{v}"
                );
            }
            assert!(!err.contains("not checked"), "{name}: {err}");
        }
    }
    // A lead that keeps to its steps approves one claim per task.
    let (code, out, err) = explore(&["--file", &example_path("task-claim"), "--decisions", "0", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    assert_eq!((code, &v["file_properties"]["one_owner_per_task"]), (0, &serde_json::json!("holds")), "{v}");
    let (code, out, err) = explore(&["--file", &example_path("task-claim"), "--team", "nope"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("has no team 'nope' (its team is 'task-claim')"), "{err}");
    let (code, _, err) = explore(&["--check", "/nonexistent/team.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent/team.toml"), "{err}");
}

#[test]
fn a_property_file_is_searched_on_a_scenario_and_its_verdicts_exit_one_when_one_fails() {
    let file = example_path("lesson-properties");
    let (code, out, err) = explore(&["--scenario", "shutdown", "--faults", "1", "--kinds", "drop", "--json", "--file", &file]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["file_properties"]["every_shutdown_request_settles"], "fails", "{v}");
    assert_eq!(v["file_properties"]["lead_never_writes"], "holds", "{v}");
    let examples = v["file_examples"].as_array().unwrap();
    assert!(
        examples.iter().any(|e| e["property"] == "every_shutdown_request_settles"
            && e["faults"] == 1
            && e["path"].as_array().is_some_and(|p| !p.is_empty())),
        "{v}"
    );
    let (code, out, err) = explore(&["--scenario", "approve-plan", "--file", &file]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("file properties:\n  holds   eventually every_shutdown_request_settles"), "{out}");
    assert!(out.contains("holds   sometimes sometimes_a_plan_is_rejected\n          witness:"), "{out}");
    let (_, out, _) = explore(&["--scenario", "approve-plan", "--json"]);
    assert!(!out.contains("file_properties"), "no file, no file keys: {out}");
}

#[test]
fn a_property_file_with_a_team_or_protocols_of_its_own_or_refused_exits_two() {
    let (code, out, err) = explore(&["--scenario", "shutdown", "--file", &example_path("task-claim")]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("has its own [team]: explore it with `explore --file FILE` (without --scenario)"), "{err}");
    let (code, out, err) = explore(&["--file", &example_path("lesson-properties")]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("has no [team] to explore"), "{err}");
    assert!(err.contains("--scenario is required"), "{err}");
    let path = std::env::temp_dir().join(format!("explore-props-{}.toml", std::process::id()));
    let own = std::fs::read_to_string(example_path("review-gate")).unwrap();
    let own: String = own.split("[team]").next().unwrap().to_string();
    for (text, says) in [
        (own, "which a built-in scenario's team does not run".to_string()),
        (
            "format = 1\n[[property]]\nname = \"p\"\nexpect = \"always\"\npattern = \"absence\"\nmatch = { event = \"created\", protocol = \"nope\" }\nscope = \"run\"\n".into(),
            format!("{}:6:", path.display()),
        ),
    ] {
        std::fs::write(&path, text).unwrap();
        let (code, _, err) = explore(&["--scenario", "shutdown", "--file", &path.display().to_string()]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(&says), "'{says}' in {err}");
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_counterexample_of_a_files_team_is_written_with_its_file_and_imports_without_it() {
    let dir = std::env::temp_dir().join(format!("explore-cli-trace-out-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out_dir = dir.display().to_string();
    // review-gate's own drop rule loses the review's answer: no_answer_lost fails.
    let (code, _, err) = explore(&["--file", &example_path("review-gate"), "--faults", "0", "--threads", "1", "--trace-out", &out_dir]);
    assert_eq!(code, 1, "{err}");
    let written: Vec<_> = std::fs::read_dir(&dir).expect("the traces are written").map(|e| e.unwrap().path()).collect();
    assert!(!written.is_empty(), "some counterexample is written");
    for path in &written {
        let text = std::fs::read_to_string(path).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["version"], 2, "{}", path.display());
        assert_eq!(v["protocol_file"]["name"], "review-gate", "{}", path.display());
        let trace = team_protocols::protocol::trace_file::import_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!trace.is_empty());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- The team-N benchmark, slices across machines, bounds that say so ----

#[test]
fn list_names_the_team_n_benchmark_and_scenario_runs_a_built_in_team_file() {
    let (code, out, _) = explore(&["--list"]);
    assert_eq!(code, 0);
    for n in 1..=5 {
        assert!(out.contains(&format!("team-{n} ")), "team-{n} is listed:\n{out}");
    }
    let (code, out, err) = explore(&["--scenario", "team-1", "--decisions", "0", "--json"]);
    assert!(code == 0 || code == 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!((&v["team"], &v["scenario"]), (&serde_json::json!("team-1"), &serde_json::json!("team-1")));
    for key in ["states", "distinct_states", "depth", "seconds", "peak_memory_bytes"] {
        assert!(v[key].as_f64().is_some_and(|x| x > 0.0), "{key} in {v}");
    }
    assert!(v["file_digest"].as_str().is_some_and(|d| d.starts_with("fnv1a64:")), "{v}");
    let (code, _, err) = explore(&["--scenario", "team-1", "--file", "examples/anything.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("is a built-in team file"), "{err}");
}

#[test]
fn a_slice_that_does_not_exist_is_refused_with_a_sentence() {
    for (slice, says) in [
        ("3/2", "slice 3 of 2 does not exist: slices are counted from 1 to N"),
        ("0/2", "slice 0 of 2 does not exist"),
        ("1/0", "slice 1 of 0 does not exist"),
        ("2", "'2' is not I/N"),
        ("a/2", "'a' is not a number"),
    ] {
        let (code, _, err) = explore(&["--scenario", "shutdown", "--slice", slice]);
        assert_eq!(code, 2, "{slice}");
        assert!(err.contains(&format!("--slice: {says}")), "{slice}: {err}");
    }
    let (code, _, err) = explore(&["--scenario", "shutdown", "--max-memory", "2XB"]);
    assert_eq!(code, 2);
    assert!(err.contains("--max-memory: unknown unit 'xb'"), "{err}");
}

/// A temporary directory of this test's own.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("explore-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `args` with `--json`, writes the report into `dir/name`: its path.
fn report_file(dir: &std::path::Path, name: &str, args: &[&str]) -> String {
    let (code, out, err) = explore(&[args, &["--json"]].concat());
    assert!(code == 0 || code == 1, "{args:?}: {err}");
    let path = dir.join(name).display().to_string();
    std::fs::write(&path, out).unwrap();
    path
}

/// What a merged report must share with the single search's: completeness,
/// the bound that stopped it, each verdict, and each counterexample's
/// property, faults and length.
fn exact(v: &serde_json::Value) -> serde_json::Value {
    let examples: Vec<serde_json::Value> = v["counterexamples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| serde_json::json!([c["property"], c["faults"], c["path"].as_array().unwrap().len()]))
        .collect();
    serde_json::json!({ "complete": v["complete"], "stopped_by": v["stopped_by"], "properties": v["properties"], "examples": examples,
        "scenario": v["scenario"], "faults": v["faults"] })
}

#[test]
fn merged_slices_reports_give_the_single_searchs_verdicts_and_shortest_counterexamples() {
    let dir = scratch("merge");
    for (scenario, of) in [("shutdown", 2), ("reject-plan", 3), ("out-of-order", 2)] {
        let search = ["--scenario", scenario, "--faults", "1", "--kinds", "drop,duplicate"];
        let whole = report_file(&dir, &format!("{scenario}.json"), &search);
        let parts: Vec<String> = (1..=of)
            .map(|i| {
                let slice = format!("{i}/{of}");
                report_file(&dir, &format!("{scenario}.{i}.json"), &[&search[..], &["--slice", &slice]].concat())
            })
            .collect();
        let mut args = vec!["merge", "--json"];
        args.extend(parts.iter().map(String::as_str));
        let (code, out, err) = explore(&args);
        let merged: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{scenario}: {e}: {out} {err}"));
        let whole: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&whole).unwrap()).unwrap();
        assert_eq!(exact(&merged), exact(&whole), "{scenario}, {of} slices");
        assert_eq!(
            code,
            if whole["counterexamples"].as_array().unwrap().is_empty() { 0 } else { 1 },
            "{scenario}: exits as its verdicts say"
        );
        assert_eq!(merged["merged_from"], serde_json::json!(of));
        assert!(merged["distinct_states"].as_u64() >= whole["distinct_states"].as_u64(), "{scenario}: the slices cover the space");
        assert!(merged["slice"].is_null(), "{scenario}: the merged report is the whole search's");
    }
}

#[test]
fn merge_refuses_reports_of_different_searches_and_a_missing_or_duplicate_slice_naming_which() {
    let dir = scratch("refuse");
    let search = ["--scenario", "shutdown", "--faults", "1", "--kinds", "drop"];
    let a = report_file(&dir, "a.json", &[&search[..], &["--slice", "1/3"]].concat());
    let b = report_file(&dir, "b.json", &[&search[..], &["--slice", "2/3"]].concat());
    let other = report_file(&dir, "other.json", &["--scenario", "shutdown", "--faults", "0", "--kinds", "drop", "--slice", "3/3"]);
    let whole = report_file(&dir, "whole.json", &search);
    let refused = |args: &[&str], says: &str| {
        let (code, _, err) = explore(&[&["merge"][..], args].concat());
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    };
    refused(&[&a, &b], "slice is 3 of 3 missing");
    refused(&[&a, &b, &a], &format!("{a} and {a} are both slice 1 of 3"));
    refused(&[&a, &b, &other], &format!("{a} and {other} are reports of different searches: they differ in max_faults (1 and 0)"));
    refused(&[&a, &whole], &format!("{whole} is the report of a whole search, not of a slice"));
    refused(&[], "merge needs the --json reports");
    let text = dir.join("text.txt").display().to_string();
    std::fs::write(&text, "not json").unwrap();
    refused(&[&text], "is not an `explore --json` report");
}

#[test]
fn a_search_cut_by_its_memory_or_state_bound_says_which_what_it_covered_and_the_fallback() {
    for (flag, value, bound) in [("--max-memory", "64KiB", "memory"), ("--max-states", "40", "states")] {
        let (_, out, err) = explore(&["--scenario", "out-of-order", "--faults", "1", flag, value, "--json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{flag}: {e}: {err}"));
        assert_eq!((&v["complete"], &v["stopped_by"]), (&serde_json::json!(false), &serde_json::json!(bound)), "{flag}");
        let said = v["stopped"].as_str().unwrap_or_default();
        assert!(said.contains(&format!("stopped by the {bound} bound ({flag}")), "{said}");
        assert!(said.contains(&format!("covered {} states", v["states"])), "{said}");
        assert!(said.contains(&format!("up to depth {}", v["depth"])), "{said}");
        assert_eq!(v["fallback"], serde_json::json!("--strategy simulate"));
        let (_, text, _) = explore(&["--scenario", "out-of-order", "--faults", "1", flag, value]);
        assert!(text.contains(&format!("stopped by the {bound} bound")) && text.contains("--strategy simulate"), "{text}");
    }
    let (_, out, _) = explore(&["--scenario", "shutdown", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["stopped_by"].is_null() && v["stopped"].is_null(), "a complete search says nothing of bounds: {v}");
}
