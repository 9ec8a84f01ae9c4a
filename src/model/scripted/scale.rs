//! The scale demo as a policy of the scripted model: the lead spawns many
//! teammates and asks each to shut down until it agrees; each teammate
//! rejects a set number of requests ("busy") and approves the next. It makes
//! runs of thousands of events with the real protocol and runtime — for the
//! page's scale scenario and for the benchmarks.
//!
//! Owns the scale prompts and policies only. Like every scripted policy it
//! reads nothing but the conversation it is given.

use serde_json::json;

use super::{Conversation, Decision};

/// A lead prompt that starts with this runs the scale policy.
pub const LEAD_MARK: &str = "Scale:";
/// A teammate spawn prompt that starts with this runs the scale policy.
pub const TEAMMATE_MARK: &str = "Scale run:";

/// The lead prompt for `teammates` teammates, each approving request
/// number `rounds` (1 ≤ rounds).
pub fn prompt(teammates: usize, rounds: usize) -> String {
    format!(
        "{LEAD_MARK} spawn {teammates} teammates, then request each one's shutdown until it agrees; each rejects {} times and approves request {rounds}.",
        rounds.saturating_sub(1)
    )
}

/// The whole numbers in `text`, in order.
fn numbers(text: &str) -> Vec<usize> {
    text.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect()
}

fn teammate_name(i: usize) -> String {
    format!("w{:02}", i + 1)
}

/// The lead's next step in a scale run, or `None` when this is no scale run.
pub(super) fn lead(c: &Conversation) -> Option<Decision> {
    let first = c.first_prompt()?;
    let goal = first.strip_prefix(LEAD_MARK)?;
    let found = numbers(goal);
    let (teammates, rounds) = (*found.first()?, (*found.last()?).max(1));
    let names: Vec<String> = (0..teammates).map(teammate_name).collect();
    if !c.all_calls.iter().any(|p| p.name == "spawn_teammate") {
        let prompt = format!("{TEAMMATE_MARK} keep working; reject the first {} shutdown requests, approve request {rounds}.", rounds - 1);
        let d = names.iter().fold(Decision::say(format!("Spawning {teammates} teammates.")), |d, n| {
            d.call("spawn_teammate", json!({ "name": n, "role": "worker", "prompt": prompt }))
        });
        return Some(d);
    }
    let mut decision = Decision::default();
    let mut agreed = 0;
    for name in &names {
        let sent = c.all_calls.iter().filter(|p| p.name == "shutdown_request" && p.ok() && p.arg("teammate") == name).count();
        let answers: Vec<bool> = c
            .all_messages
            .iter()
            .filter(|m| m["type"] == "shutdown_response" && m["from"] == name.as_str())
            .map(|m| m["approve"].as_bool().unwrap_or(false))
            .collect();
        if answers.last() == Some(&true) {
            agreed += 1;
        } else if sent == answers.len() {
            // Nothing pending for this teammate: ask (again).
            decision = decision.call("shutdown_request", json!({ "teammate": name }));
        }
    }
    if decision.calls.is_empty() {
        let text = if agreed == teammates {
            format!("All {teammates} teammates agreed to shut down, each after {rounds} requests.")
        } else {
            format!("{agreed} of {teammates} teammates have agreed; waiting for the others' answers.")
        };
        return Some(Decision::say(text));
    }
    Some(decision)
}

/// A teammate's next step in a scale run, or `None` when this is no scale
/// run: answer every shutdown request heard and not answered yet, rejecting
/// all but request number `rounds`.
pub(super) fn teammate(c: &Conversation) -> Option<Decision> {
    let goal = c.first_prompt()?.strip_prefix(TEAMMATE_MARK)?;
    let rounds = numbers(goal).last().copied().unwrap_or(1).max(1);
    let received: Vec<&str> =
        c.all_messages.iter().filter(|m| m["type"] == "shutdown_request").filter_map(|m| m["request_id"].as_str()).collect();
    let answered: Vec<&str> = c.all_calls.iter().filter(|p| p.name == "shutdown_response").map(|p| p.arg("request_id")).collect();
    let mut decision = Decision::default();
    for (k, id) in received.iter().enumerate().filter(|(_, id)| !answered.contains(id)) {
        let approve = k + 1 >= rounds;
        let reason = if approve { "done, shutting down" } else { "busy" };
        decision = decision.call("shutdown_response", json!({ "request_id": id, "approve": approve, "reason": reason }));
    }
    if decision.calls.is_empty() {
        return Some(Decision::say("Working; nothing to answer."));
    }
    Some(decision)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_names_its_numbers_and_starts_with_the_mark() {
        let p = prompt(50, 20);
        assert!(p.starts_with(LEAD_MARK));
        assert_eq!(numbers(&p), [50, 19, 20]);
    }
}
