//! The lead's policy: what the user asked for (read from the prompt) and
//! the next tool calls toward it, given what happened so far — spawn,
//! message, ask for shutdowns, review plans, summarise.
//!
//! Owns the lead's decisions (its goal is read by `goal`). It reads a
//! `Conversation` only; it must not reach into the runtime or the team.

use std::sync::Arc;

use serde_json::{json, Value};

use super::conversation::{str_of, Conversation, Decision, Learned, PastCall};
use super::goal::{parse_lead_goal, LeadGoal};

/// The prompt the scripted lead writes for a teammate it spawns.
pub(super) fn teammate_prompt(name: &str, role: &str, clause: &str, goal: &LeadGoal) -> String {
    let task = if clause.is_empty() || clause.starts_with("as ") {
        "Write a short hello module in src/hello.py.".to_string()
    } else {
        let t = clause.trim_start_matches("to ").trim_start_matches("with ");
        format!("Your task: {t}.")
    };
    let mut p = format!("You are {name}, a {role}. {task}");
    if goal.plan_mode {
        p.push_str(" Submit a plan with plan_approval and wait for the lead's approval before changing any file.");
    }
    if goal.retry_after_done {
        p.push_str(" If asked to shut down before your work is finished, reject and say why. Tell the lead when you are done.");
    }
    if goal.out_of_order && !clause.contains("stand") {
        p.push_str(" Finish your current work before answering any request.");
    }
    p
}

pub(super) fn looks_risky(plan: &str) -> bool {
    let p = plan.to_lowercase();
    p.contains("big-bang") || p.contains("in one pass") || p.contains("rewrite everything")
}

pub(super) fn lead_policy(c: &Conversation) -> Decision {
    let known: Vec<String> = c.all_calls.iter().filter(|k| k.name == "spawn_teammate").map(|k| k.arg("name").to_string()).collect();
    let goal = match &c.prompt_heard {
        Some(heard) => heard.goals.goal(&heard.text, known),
        None => Arc::new(parse_lead_goal("", &known)),
    };
    if goal.spawns.is_empty()
        && goal.shutdowns.is_empty()
        && goal.plain.is_empty()
        && !goal.list
        && c.messages_of("plan_approval_request").next().is_none()
    {
        return Decision::say(format!(
            "I am the offline scripted model, so I only follow simple instructions. I did not find one in \"{}\". Try: \
             \"Spawn alice as a coder. Then request her shutdown.\", \"List teammates\", \
             \"Spawn bob with a risky refactoring task. Review and reject his plan.\", or \
             \"Spawn charlie, have him submit a plan, then approve it.\" For free-form prompts, choose a real model in Settings.",
            c.prompt()
        ));
    }

    // 1. Spawn whoever is not spawned yet (all at once, as parallel calls).
    let attempted = |n: &str| c.calls_named("spawn_teammate").any(|k| k.arg("name") == n);
    let mut d = Decision::default();
    for (name, role, clause) in goal.spawns.iter().filter(|s| !attempted(&s.0)) {
        let input =
            json!({ "name": name, "role": role, "prompt": teammate_prompt(name, role, clause, &goal), "plan_mode": goal.plan_mode });
        d = d.call("spawn_teammate", input);
    }
    if !d.calls.is_empty() {
        d.text = format!("Spawning {}.", goal.spawns.iter().map(|s| s.0.as_str()).collect::<Vec<_>>().join(" and "));
        return d;
    }

    // 2. Review every plan that arrived and was not reviewed yet (nor expired).
    let reviewed = |id: &str| c.calls_named("plan_approval").any(|k| k.arg("request_id") == id);
    for plan in c.messages_of("plan_approval_request") {
        let id = plan["request_id"].as_str().unwrap_or_default();
        if id.is_empty() || reviewed(id) || c.expired_to_me(id) {
            continue;
        }
        let from = plan["from"].as_str().unwrap_or_default();
        let text = plan["plan"].as_str().unwrap_or_default();
        let earlier = c.all_messages.iter().filter(|m| m["type"] == "plan_approval_request" && m["from"] == from).count();
        let first = earlier <= 1;
        let reject = (goal.reject_first_plan && first) || looks_risky(text);
        let input = if reject {
            json!({ "request_id": id, "approve": false, "feedback": "Too risky: a big-bang rewrite has no safe way back. Split it into small steps, with tests before each change." })
        } else {
            json!({ "request_id": id, "approve": true, "feedback": "Approved: go ahead, one step at a time." })
        };
        d = d.call("plan_approval", input);
    }
    if !d.calls.is_empty() {
        d.text = "Reviewing the plan.".into();
        return d;
    }

    // 2b. Plain messages, each sent once. Nothing in them asks for an
    //     answer, so there is nothing to wait for afterwards.
    for (to, text) in &goal.plain {
        if !c.calls_named("send_message").any(|k| k.arg("to") == to) {
            d = d.call("send_message", json!({ "to": to, "content": text }));
        }
    }
    if !d.calls.is_empty() {
        d.text = "Sending a plain message.".into();
        return d;
    }

    // 3. Shutdown requests: first ask, and ask again once a rejecting
    //    teammate reports that it is done.
    let spawn_failed = |n: &str| c.calls_named("spawn_teammate").any(|k| k.arg("name") == n && !k.ok());
    let mut waiting: Vec<String> = Vec::new();
    for target in goal.shutdowns.iter().filter(|t| !spawn_failed(t)) {
        let asked: Vec<&PastCall> = c.calls_named("shutdown_request").filter(|k| k.arg("teammate") == target).collect();
        // One answer per request, even if a fault delivered it twice.
        let mut answers: Vec<&Value> = Vec::new();
        for m in c.messages_of("shutdown_response").filter(|m| m["from"] == target.as_str()) {
            if !answers.iter().any(|a| a["request_id"] == m["request_id"]) {
                answers.push(m);
            }
        }
        let last_asked_ok = asked.last().is_some_and(|k| k.ok());
        if asked.is_empty() {
            d = d.call("shutdown_request", json!({ "teammate": target }));
        } else if !last_asked_ok {
            continue; // refused (e.g. already shut down): reported in the summary
        } else if answers.len() < asked.len() {
            waiting.push(format!("{target}'s answer"));
        } else if answers.last().is_some_and(|a| a["approve"] == false) && goal.retry_after_done {
            let reported_done = reported_done_after_rejection(c, target);
            if reported_done {
                d = d.call("shutdown_request", json!({ "teammate": target }));
            } else {
                waiting.push(format!("{target} to report done"));
            }
        }
    }
    if !d.calls.is_empty() {
        d.text = "Requesting shutdown.".into();
        return d;
    }

    // 4. List the team if asked.
    if goal.list && c.calls_named("list_teammates").next().is_none() {
        return Decision::say("Listing the team.").call("list_teammates", json!({}));
    }

    // 5. Plans still expected from plan-mode teammates.
    if goal.plan_mode {
        for (name, _, _) in &goal.spawns {
            let approved =
                c.calls_named("plan_approval").any(|k| k.input["approve"] == true && k.ok() && k.output().contains(&format!("'{name}'")));
            if attempted(name) && !spawn_failed(name) && !approved {
                waiting.push(format!("{name}'s plan"));
            }
        }
    }
    if !waiting.is_empty() {
        let mut s = summary(c, &goal);
        s.push_str(&format!("Waiting for {}.", waiting.join(", ")));
        return Decision::say(s);
    }
    Decision::say(summary(c, &goal).trim_end())
}

pub(super) fn reported_done_after_rejection(c: &Conversation, target: &str) -> bool {
    let last_reject = c.messages.iter().rposition(|m| m["type"] == "shutdown_response" && m["from"] == target && m["approve"] == false);
    let Some(at) = last_reject else { return false };
    c.messages[at + 1..].iter().any(|m| m["from"] == target && m["type"] == "message")
}

/// A plain-language account of what happened since the prompt. Outcomes
/// come newest first, so the first line is the latest news (it is what an
/// event log shows first); each request is reported once, even if its
/// answer arrived twice.
pub(super) fn summary(c: &Conversation, goal: &LeadGoal) -> String {
    let mut outcomes: Vec<String> = Vec::new();
    let mut reported: Vec<&str> = Vec::new();
    for item in c.learned.iter().rev() {
        match *item {
            Learned::Result(i) => {
                let k = &c.calls[i];
                if k.result.as_ref().is_some_and(|r| r.1) {
                    outcomes.push(format!("{} failed: {}", k.name, k.output().trim_start_matches("Error: ")));
                } else if k.name == "plan_approval" {
                    outcomes.push(format!("{} (request {}).", k.output(), k.arg("request_id")));
                }
            }
            Learned::Message(i) => {
                let r = &c.messages[i];
                let id = str_of(&r["request_id"]);
                if r["type"] != "shutdown_response" || reported.contains(&id) {
                    continue;
                }
                reported.push(id);
                let verdict = if r["approve"] == true { "approved" } else { "rejected" };
                let reason = r["content"].as_str().filter(|s| !s.is_empty()).map(|s| format!(" ({s})")).unwrap_or_default();
                outcomes.push(format!("{} {verdict} shutdown request {id}{reason}.", str_of(&r["from"])));
            }
            Learned::Expired(i) => {
                let e = &c.expiries[i];
                outcomes.push(format!(
                    "My {} request {} to {} expired unanswered.",
                    str_of(&e["protocol"]),
                    str_of(&e["request_id"]),
                    str_of(&e["to"])
                ));
            }
        }
    }
    let mut lines: Vec<String> =
        outcomes.into_iter().enumerate().map(|(i, line)| if i == 0 { line } else { format!("Earlier: {line}") }).collect();
    if goal.out_of_order {
        let asked: Vec<&str> = c.calls_named("shutdown_request").filter(|k| k.ok()).map(|k| k.arg("teammate")).collect();
        let mut answered: Vec<&str> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for m in c.messages_of("shutdown_response") {
            let id = str_of(&m["request_id"]);
            if !seen.contains(&id) {
                seen.push(id);
                answered.push(m["from"].as_str().unwrap_or_default());
            }
        }
        if answered.len() >= 2 && asked.len() >= 2 {
            let order =
                if asked[..answered.len().min(asked.len())] == answered[..] { "in the order they were asked" } else { "out of order" };
            lines.push(format!(
                "Asked {}; answers came from {}: {order}, matched by request_id.",
                asked.join(" then "),
                answered.join(" then ")
            ));
        }
    }
    for sent in c.calls_named("send_message").filter(|k| k.ok()) {
        lines.push(format!(
            "I sent {} a plain message (\"{}\"). It has no request_id and asks for no answer, so nothing can come back that I could \
             match to it: I cannot know whether {} stopped.",
            sent.arg("to"),
            sent.arg("content"),
            sent.arg("to")
        ));
    }
    if let Some(list) = c.calls_named("list_teammates").filter(|k| k.ok()).last() {
        lines.push(format!("The team now:\n{}", list.output()));
    }
    if lines.is_empty() {
        String::new()
    } else {
        lines.join("\n") + "\n"
    }
}
