//! A teammate's policy: its task (read from its prompt) and the next tool
//! calls toward it — submit a plan when in plan mode, write its files,
//! answer a shutdown request (finishing its turn first when its task says
//! so), report when done.
//!
//! Owns the teammate's task and decisions. It reads a `Conversation` only;
//! it must not reach into the runtime or the team.

use serde_json::{json, Value};

use super::conversation::{Conversation, Decision, PastCall};
use super::goal::words;
use crate::protocol::protocols::{lesson_protocols, LessonProtocol};

pub(super) fn teammate_identity(system: &str) -> (String, String) {
    let name = system.split('\'').nth(1).unwrap_or("teammate").to_string();
    let role = system.split("role: ").nth(1).and_then(|r| r.split(',').next()).unwrap_or("teammate").to_string();
    (name, role)
}

/// What a teammate makes of its prompt.
#[derive(Debug)]
pub(super) struct Task {
    pub(super) files: Vec<String>,
    pub(super) needs_plan: bool,
    pub(super) risky: bool,
    pub(super) reject_shutdown_mid_task: bool,
    pub(super) finish_before_answering: bool,
    pub(super) report_when_done: bool,
}

pub(super) fn number_in(text: &str) -> Option<usize> {
    words(text).iter().find_map(|w| match w.as_str() {
        "one" => Some(1),
        "two" => Some(2),
        "three" => Some(3),
        "four" => Some(4),
        "five" => Some(5),
        w => w.parse().ok().filter(|n| (1..=20).contains(n)),
    })
}

pub(super) fn read_task(name: &str, prompts: &[&str]) -> Task {
    let all = prompts.join(" ").to_lowercase();
    let count = number_in(&all).unwrap_or(1);
    let files: Vec<String> = if all.contains("stand by") || all.contains("wait for instructions") {
        Vec::new()
    } else if all.contains("config") {
        ["app", "db", "cache", "log", "cli"].iter().cycle().take(count).map(|f| format!("config/{f}.toml")).collect()
    } else if all.contains("release notes") {
        (1..=count).map(|i| format!("docs/release-notes-part-{i}.md")).collect()
    } else if all.contains("refactor") {
        vec!["src/auth.py".into()]
    } else if all.contains("hello") {
        vec!["src/hello.py".into()]
    } else if all.contains("validation") || all.contains("plan") {
        vec![format!("src/{name}.py")]
    } else {
        (1..=count).map(|i| if count == 1 { format!("notes/{name}.md") } else { format!("notes/{name}-{i}.md") }).collect()
    };
    Task {
        files,
        needs_plan: all.contains("plan_approval") || all.contains("submit a plan"),
        risky: all.contains("risky"),
        reject_shutdown_mid_task: all.contains("reject and say why") || all.contains("mid-task"),
        finish_before_answering: all.contains("finish your current work"),
        report_when_done: all.contains("tell the lead when you are done") || all.contains("report"),
    }
}

pub(super) fn file_content(name: &str, path: &str, step: usize, total: usize) -> String {
    if path.ends_with(".py") {
        format!("# written by {name}\n\ndef hello(who: str) -> str:\n    return f\"hello, {{who}}\"\n")
    } else if path.ends_with(".toml") {
        format!("# migrated by {name} ({step} of {total})\nformat = 2\n")
    } else {
        format!("# {path}\n\nPart {step} of {total}, by {name}.\n")
    }
}

pub(super) fn teammate_policy(me: &str, c: &Conversation) -> Decision {
    let prompts: Vec<&str> = c.prompts.iter().map(|p| p.text.as_str()).collect();
    let task = read_task(me, &prompts);
    let written: Vec<&str> = c.all_calls.iter().filter(|k| k.name == "write_file" && k.ok()).map(|k| k.arg("path")).collect();
    let remaining: Vec<&String> = task.files.iter().filter(|f| !written.contains(&f.as_str())).collect();
    let gate_refused = c.all_calls.iter().any(|k| k.name == "write_file" && !k.ok() && k.output().contains("plan mode"));

    // Shutdown requests not answered yet (nor expired). An answer the tool
    // refused for its input is not given, as under a file (`file`).
    let shutdown = &lesson_protocols()[usize::from(LessonProtocol::Shutdown.index().0)];
    let answered = |id: &str| {
        c.all_calls.iter().any(|k| {
            k.name == "shutdown_response"
                && k.arg("request_id") == id
                && k.result.is_some()
                && (k.ok() || super::file::fits_answer(shutdown, k.input))
        })
    };
    let open: Vec<&str> = c
        .all_messages
        .iter()
        .filter(|m| m["type"] == "shutdown_request")
        .filter_map(|m| m["request_id"].as_str())
        .filter(|id| !answered(id) && !c.expired_to_me(id))
        .collect();
    if let Some(id) = open.first() {
        let mid_task = !remaining.is_empty();
        if !mid_task || !(task.reject_shutdown_mid_task || task.finish_before_answering) {
            let reason = if mid_task {
                format!("Stopping now as asked; {} file(s) left undone.", remaining.len())
            } else {
                "My work is saved; shutting down.".to_string()
            };
            return Decision::say("Shutting down.")
                .call("shutdown_response", json!({ "request_id": id, "approve": true, "reason": reason }));
        }
        if task.reject_shutdown_mid_task {
            let reason = format!("Mid-task: {} of {} file(s) still to migrate; I will finish first.", remaining.len(), task.files.len());
            return Decision::say("Not yet.").call("shutdown_response", json!({ "request_id": id, "approve": false, "reason": reason }));
        }
        // finish_before_answering: keep working; answer when done.
    }

    // The plan gate: submit, wait, revise after a rejection.
    let plan_calls: Vec<&PastCall> = c.all_calls.iter().filter(|k| k.name == "plan_approval").collect();
    let verdicts: Vec<&Value> = c.all_messages.iter().map(|m| &**m).filter(|m| m["type"] == "plan_approval_response").collect();
    let approved = verdicts.iter().any(|v| v["approve"] == true);
    if (task.needs_plan || gate_refused) && !approved && !remaining.is_empty() {
        let submitted = plan_calls.iter().filter(|k| k.ok()).count();
        if submitted > verdicts.len() {
            return Decision::say("Waiting for the lead to review my plan.");
        }
        if submitted >= 3 {
            return Decision::say("My plan was rejected three times; waiting for new instructions.");
        }
        let files = task.files.join(", ");
        let plan = match verdicts.last() {
            None if task.risky => format!("Rewrite everything in {files} in one pass (big-bang), then fix whatever breaks."),
            None => format!("1) Read {files}. 2) Make the change in small steps. 3) Check each step before the next."),
            Some(_) => format!(
                "Revised plan, following your feedback: 1) Add tests that pin the current behaviour of {files}. \
                 2) Change one function at a time behind the same interface. 3) Run the tests after every step."
            ),
        };
        return Decision::say("Submitting my plan.").call("plan_approval", json!({ "plan": plan }));
    }

    // The work itself: one file per turn, so a request can arrive mid-task.
    if let Some(next) = remaining.first() {
        let step = task.files.len() - remaining.len() + 1;
        let content = file_content(me, next, step, task.files.len());
        return Decision::say(format!("Working on {next} ({step} of {}).", task.files.len()))
            .call("write_file", json!({ "path": next, "content": content }));
    }

    let reported = c.all_calls.iter().any(|k| k.name == "send_message" && k.arg("to") == "lead" && k.ok());
    if task.report_when_done && !task.files.is_empty() && !reported {
        let text = format!("Done: wrote {}.", task.files.join(", "));
        return Decision::say("Reporting to the lead.").call("send_message", json!({ "to": "lead", "content": text }));
    }
    if task.files.is_empty() {
        Decision::say("Standing by.")
    } else {
        Decision::say(format!("Done: {}.", task.files.join(", ")))
    }
}
