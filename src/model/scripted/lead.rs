//! The lead's policy: what the user asked for (read from the prompt) and
//! the next tool calls toward it, given what happened so far — spawn,
//! message, ask for shutdowns, review plans, summarise.
//!
//! Owns the lead's goals and decisions. It reads a `Conversation` only; it
//! must not reach into the runtime or the team.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::conversation::{str_of, words, Conversation, Decision, Learned, PastCall};

/// What the user asked the lead for, read from the prompt.
#[derive(Debug, Default)]
pub(super) struct LeadGoal {
    /// Teammates to spawn: name, role, task clause.
    pub(super) spawns: Vec<(String, String, String)>,
    /// Teammates whose shutdown to request.
    pub(super) shutdowns: Vec<String>,
    /// Ask again after a rejection, once the teammate reports done.
    pub(super) retry_after_done: bool,
    /// Reject the first plan of each teammate.
    pub(super) reject_first_plan: bool,
    /// Plans are part of the task (spawn in plan mode).
    pub(super) plan_mode: bool,
    /// List the team.
    pub(super) list: bool,
    /// The user wants to see answers arrive out of order.
    pub(super) out_of_order: bool,
    /// Plain messages to send, recipient and text: the lesson's "without
    /// protocols" case, where the lead just says "please stop".
    pub(super) plain: Vec<(String, String)>,
}

pub(super) const NOT_NAMES: &[&str] = &[
    "a",
    "an",
    "the",
    "as",
    "with",
    "and",
    "to",
    "then",
    "request",
    "requests",
    "her",
    "his",
    "their",
    "him",
    "them",
    "both",
    "shutdown",
    "shutdowns",
    "shut",
    "down",
    "teammate",
    "teammates",
    "have",
    "submit",
    "plan",
    "approve",
    "reject",
    "review",
    "it",
    "of",
    "for",
    "new",
    "two",
    "three",
    "watch",
    "while",
    "when",
    "once",
    "again",
    "lead",
];

pub(super) fn is_name(w: &str) -> bool {
    !w.is_empty() && w.chars().next().is_some_and(char::is_alphabetic) && !NOT_NAMES.contains(&w)
}

/// The goals read from one prompt, for each set of teammates known when it
/// was read (the lead reads the same prompt at each of its calls, knowing
/// the same few teammates). Kept with the prompt as heard
/// (`conversation::HeardPrompt`), so it lives as long as the prompt's turn.
#[derive(Debug, Default)]
pub(super) struct GoalMemo(Mutex<Vec<(Vec<String>, Arc<LeadGoal>)>>);

impl GoalMemo {
    /// How many sets of teammates it keeps goals for.
    const KEPT: usize = 8;

    /// `parse_lead_goal`, remembered.
    fn goal(&self, prompt: &str, known: Vec<String>) -> Arc<LeadGoal> {
        // A poisoned memo is only a lost shortcut: read the prompt again.
        let Ok(mut kept) = self.0.lock() else { return Arc::new(parse_lead_goal(prompt, &known)) };
        if let Some((_, goal)) = kept.iter().find(|(k, _)| *k == known) {
            return Arc::clone(goal);
        }
        let goal = Arc::new(parse_lead_goal(prompt, &known));
        if kept.len() >= Self::KEPT {
            kept.remove(0);
        }
        kept.push((known, Arc::clone(&goal)));
        goal
    }
}

pub(super) fn parse_lead_goal(prompt: &str, known: &[String]) -> LeadGoal {
    let lower = prompt.to_lowercase();
    let mut goal = LeadGoal {
        retry_after_done: lower.contains("again"),
        reject_first_plan: lower.contains("reject"),
        plan_mode: lower.contains("plan") || lower.contains("risky"),
        list: lower.contains("list") || lower.contains("status"),
        out_of_order: lower.contains("out of order"),
        ..LeadGoal::default()
    };
    for sentence in lower.split(['.', '!', '?', ';']) {
        let w = words(sentence);
        let Some(start) = w.iter().position(|x| x == "spawn") else {
            continue;
        };
        let mut i = start + 1;
        let mut current: Option<(String, Vec<String>)> = None;
        while i < w.len() {
            let word = &w[i];
            let starts_clause = i == start + 1 || (w[i - 1] == "and" && is_name(word) && !matches!(word.as_str(), "then" | "request"));
            if word == "then" || word == "request" {
                break;
            }
            if starts_clause && is_name(word) {
                if let Some((n, clause)) = current.take() {
                    goal.spawns.push(spawn_entry(n, &clause));
                }
                current = Some((word.clone(), Vec::new()));
            } else if let Some((_, clause)) = current.as_mut() {
                if word != "and" || i + 1 >= w.len() || !is_name(&w[i + 1]) {
                    clause.push(word.clone());
                }
            }
            i += 1;
        }
        if let Some((n, clause)) = current.take() {
            goal.spawns.push(spawn_entry(n, &clause));
        }
    }
    goal.plain = plain_messages(prompt, &lower, &goal, known);
    let wants_shutdown = lower.contains("request") && (lower.contains("shutdown") || lower.contains("shut down"));
    if wants_shutdown {
        let spawned: Vec<String> = goal.spawns.iter().map(|s| s.0.clone()).collect();
        let named: Vec<String> = words(&lower).into_iter().filter(|w| known.contains(w) || spawned.contains(w)).collect();
        for n in if named.is_empty() { spawned } else { named } {
            if !goal.shutdowns.contains(&n) {
                goal.shutdowns.push(n);
            }
        }
    }
    goal
}

/// The plain messages a prompt asks for: "send her a message: please stop"
/// (to a teammate named, or to the ones this prompt spawns for "her", "him"
/// or "them"). The text is what follows the colon, or "Please stop." when
/// none is given.
pub(super) fn plain_messages(prompt: &str, lower: &str, goal: &LeadGoal, known: &[String]) -> Vec<(String, String)> {
    let Some(at) = lower.find("send") else { return Vec::new() };
    let clause = &lower[at..];
    if !clause.contains("message") {
        return Vec::new();
    }
    // The text keeps the prompt's case when lowercasing kept its length.
    let original = if prompt.len() == lower.len() && prompt.is_char_boundary(at) { &prompt[at..] } else { clause };
    let text = original.split_once(':').map(|(_, t)| t.trim().trim_matches(['"', '“', '”']).trim()).filter(|t| !t.is_empty());
    let text = text.map_or_else(|| "Please stop.".to_string(), |t| t.to_string());
    let spawned: Vec<String> = goal.spawns.iter().map(|s| s.0.clone()).collect();
    let head = clause.split(':').next().unwrap_or(clause);
    let mut to: Vec<String> = words(head).into_iter().filter(|w| known.contains(w) || spawned.contains(w)).collect();
    if to.is_empty() && words(head).iter().any(|w| matches!(w.as_str(), "her" | "him" | "them")) {
        to = spawned;
    }
    to.dedup();
    to.into_iter().map(|n| (n, text.clone())).collect()
}

pub(super) fn spawn_entry(name: String, clause: &[String]) -> (String, String, String) {
    let role = match clause.iter().position(|w| w == "as") {
        Some(i) => clause[i + 1..].iter().find(|w| !matches!(w.as_str(), "a" | "an" | "the")).cloned(),
        None => None,
    };
    let text = clause.join(" ");
    let role = role.unwrap_or_else(|| {
        if text.contains("refactor") {
            "refactorer".into()
        } else if text.contains("migrat") {
            "migrator".into()
        } else if text.contains("notes") || text.contains("write") {
            "writer".into()
        } else if text.contains("stand") {
            "helper".into()
        } else {
            "coder".into()
        }
    });
    (name, role, text)
}

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
        Some(heard) => heard.goals.goal(&c.prompt, known),
        None => Arc::new(parse_lead_goal(&c.prompt, &known)),
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
            c.prompt
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

    // 2. Review every plan that arrived and was not reviewed yet.
    let reviewed = |id: &str| c.calls_named("plan_approval").any(|k| k.arg("request_id") == id);
    for plan in c.messages_of("plan_approval_request") {
        let id = plan["request_id"].as_str().unwrap_or_default();
        if id.is_empty() || reviewed(id) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompts_goal_is_read_once_per_set_of_known_teammates_and_as_parse_lead_goal_reads_it() {
        let prompt = "Spawn alice as a coder. Then request her shutdown.";
        let memo = GoalMemo::default();
        let first = memo.goal(prompt, Vec::new());
        assert!(Arc::ptr_eq(&first, &memo.goal(prompt, Vec::new())), "the same prompt and teammates were read again");
        assert_eq!(format!("{first:?}"), format!("{:?}", parse_lead_goal(prompt, &[])));
        let knowing = memo.goal(prompt, vec!["alice".into()]);
        assert!(!Arc::ptr_eq(&first, &knowing));
        assert_eq!(format!("{knowing:?}"), format!("{:?}", parse_lead_goal(prompt, &["alice".into()])));
        // It keeps a few sets of teammates, dropping the oldest.
        for n in 0..GoalMemo::KEPT {
            memo.goal(prompt, vec![format!("t{n}")]);
        }
        assert!(!Arc::ptr_eq(&first, &memo.goal(prompt, Vec::new())), "more sets than it keeps were kept");
    }
}
