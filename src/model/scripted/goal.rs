//! The lead's goal, read from the user's prompt: whom to spawn and with
//! what task, what to ask, which plans to review and how (`LeadGoal`), and
//! the goals read so far from one prompt (`GoalMemo`, kept with the prompt
//! as heard).
//!
//! Owns reading a prompt into words and goals. It must not decide anything
//! (`lead`, `teammate`) or read a conversation (`conversation`).

use std::sync::{Arc, Mutex};

/// A text's words, lower case, without a trailing `'s`.
pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches("'s").trim_matches('\'').to_lowercase())
        .collect()
}

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
    pub(super) fn goal(&self, prompt: &str, known: Vec<String>) -> Arc<LeadGoal> {
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
