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
    for key in ["states", "distinct_states", "seconds", "states_per_second"] {
        assert!(v[key].is_number(), "{key} in {v}");
    }
    let properties = v["properties"].as_object().expect("properties");
    assert_eq!(properties.len(), team_protocols::explore::Property::ALL.len());
    assert!(properties.values().all(|p| p == "holds"), "{properties:?}");
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
