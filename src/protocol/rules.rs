//! The protective rules: each rule of this project that prevents a failure
//! reported against a production agent-team tool (Claude Code's agent
//! teams), as a switch. All are on by default, and with all on every run is
//! what it always was. Switching one off lets the explorer (and the page's
//! gallery of real failures) reproduce the failure the rule prevents.
//!
//! A run's rules are fixed for the whole run and recorded in its trace
//! header (only when some rule is off, so ordinary traces are unchanged),
//! so a run recorded with a rule off replays under the same rules.
//!
//! Owns the list of rules, their names and what enforces each. The checks
//! themselves live where the rule belongs: `team` and `tracker` (protocol
//! rules), `runtime::loops` and `runtime::world` (loop rules). It must not
//! decide anything itself.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a rule name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// No rule has this name.
    #[error("no rule named '{name}'; the rules are: {known}")]
    UnknownRule {
        /// The name given.
        name: String,
        /// The names there are.
        known: String,
    },
}

/// One switch per protective rule; every one on by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Rules {
    /// A request is bound to the incarnation of its addressee it was sent
    /// to; a restarted teammate's answer to it is refused.
    pub incarnation_binding: bool,
    /// Only a request's addressee may answer it.
    pub addressee_only: bool,
    /// A teammate that approves its shutdown finishes its turn and leaves
    /// its loop.
    pub exit_after_approval: bool,
    /// An idle teammate wakes when a message arrives for it.
    pub wake_on_message: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { incarnation_binding: true, addressee_only: true, exit_after_approval: true, wake_on_message: true }
    }
}

impl Rules {
    /// True when every rule is on (what a trace header leaves out).
    pub fn is_default(&self) -> bool {
        *self == Rules::default()
    }

    /// Whether `rule` is on.
    pub fn is_on(&self, rule: Rule) -> bool {
        match rule {
            Rule::IncarnationBinding => self.incarnation_binding,
            Rule::AddresseeOnly => self.addressee_only,
            Rule::ExitAfterApproval => self.exit_after_approval,
            Rule::WakeOnMessage => self.wake_on_message,
        }
    }

    /// These rules with `rule` switched on or off.
    pub fn with(mut self, rule: Rule, on: bool) -> Self {
        let switch = match rule {
            Rule::IncarnationBinding => &mut self.incarnation_binding,
            Rule::AddresseeOnly => &mut self.addressee_only,
            Rule::ExitAfterApproval => &mut self.exit_after_approval,
            Rule::WakeOnMessage => &mut self.wake_on_message,
        };
        *switch = on;
        self
    }

    /// The rules that are off, in `Rule::ALL` order.
    pub fn off(&self) -> impl Iterator<Item = Rule> + '_ {
        Rule::ALL.into_iter().filter(|r| !self.is_on(*r))
    }
}

/// A protective rule, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Requests are bound to the incarnation they were addressed to.
    IncarnationBinding,
    /// Only the addressee answers a request.
    AddresseeOnly,
    /// After approving its shutdown a teammate finishes its turn and exits.
    ExitAfterApproval,
    /// An idle teammate wakes when a message arrives.
    WakeOnMessage,
}

impl Rule {
    /// Every rule, in the page's order.
    pub const ALL: [Rule; 4] = [Rule::IncarnationBinding, Rule::AddresseeOnly, Rule::ExitAfterApproval, Rule::WakeOnMessage];

    /// Its stable snake_case name (links, JSON, the page's toggle).
    pub fn name(self) -> &'static str {
        match self {
            Rule::IncarnationBinding => "incarnation_binding",
            Rule::AddresseeOnly => "addressee_only",
            Rule::ExitAfterApproval => "exit_after_approval",
            Rule::WakeOnMessage => "wake_on_message",
        }
    }

    /// The rule with this name.
    pub fn by_name(name: &str) -> Result<Rule, RulesError> {
        Rule::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| RulesError::UnknownRule { name: name.to_string(), known: Rule::ALL.map(Rule::name).join(", ") })
    }

    /// The reported failures it prevents, as `owner/repo#number`.
    pub fn issues(self) -> &'static [&'static str] {
        match self {
            Rule::IncarnationBinding => &["anthropics/claude-code#45874"],
            Rule::AddresseeOnly => &["anthropics/claude-code#81464"],
            Rule::ExitAfterApproval => &["anthropics/claude-code#37895", "anthropics/claude-code#60199"],
            Rule::WakeOnMessage => &["anthropics/claude-code#51556"],
        }
    }

    /// What enforces it and where, in one sentence (the toggle's caption).
    pub fn description(self) -> &'static str {
        match self {
            Rule::IncarnationBinding => {
                "Each request records the incarnation of its addressee when it was made, and the team refuses an answer \
                 from a later incarnation as a stale request (TeamState::check_answer in src/protocol/team.rs)."
            }
            Rule::AddresseeOnly => {
                "The tracker accepts an answer only from the agent the request is addressed to and refuses anyone else's \
                 (Tracker::check_answer in src/protocol/tracker.rs)."
            }
            Rule::ExitAfterApproval => {
                "A teammate that approved its shutdown (or whose shutdown was approved for it by hand) finishes the turn \
                 it is in and then leaves its loop instead of calling its model again (teammate_after and \
                 teammate_leaves in src/runtime/loops.rs)."
            }
            Rule::WakeOnMessage => {
                "A message that arrives for an idle teammate wakes it, and it drains its inbox before its next model call, \
                 so a request sent to an idle teammate is read and answered (World::wake in src/runtime/world.rs)."
            }
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_on_by_default_and_each_switches_alone() {
        let all = Rules::default();
        assert!(Rule::ALL.iter().all(|r| all.is_on(*r)));
        for rule in Rule::ALL {
            let one_off = all.with(rule, false);
            assert_eq!(one_off.off().collect::<Vec<_>>(), vec![rule]);
            assert_eq!(one_off.with(rule, true), all);
        }
    }

    #[test]
    fn rules_written_before_a_rule_existed_load_with_it_on() {
        let old: Rules = serde_json::from_str(r#"{"addressee_only":false}"#).unwrap();
        assert_eq!(old, Rules::default().with(Rule::AddresseeOnly, false));
        assert_eq!(serde_json::from_str::<Rules>("{}").unwrap(), Rules::default());
    }

    #[test]
    fn names_are_stable_snake_case_and_round_trip() {
        for rule in Rule::ALL {
            assert_eq!(Rule::by_name(rule.name()), Ok(rule));
            assert_eq!(serde_json::to_string(&rule).unwrap(), format!("\"{}\"", rule.name()));
        }
        assert!(matches!(Rule::by_name("nope"), Err(RulesError::UnknownRule { .. })));
    }
}
