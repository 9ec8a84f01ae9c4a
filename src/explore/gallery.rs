//! A gallery of real failures: runs reproducing failures reported against
//! Claude Code's agent teams, each paired with the rule of this project that
//! prevents it. With the rule on the explorer proves the property the
//! failure breaks (it holds in every explored run); with the rule off the
//! same search finds a shortest run that breaks it — the reported failure,
//! as an ordinary trace.
//!
//! Owns the entries (what failed, which invariant, which rule, which search
//! reproduces it) and running one. The rules themselves are
//! `protocol::rules`; the search is `explore`. It must not draw anything:
//! the page's Explore panel shows the entries and runs them in a worker.

use serde::Serialize;

use super::{explore, Choice, ExploreConfig, ExploreError, Node, Property, Report, Strategy};
use crate::model::scripted::choices::Decisions;
use crate::protocol::{FaultAction, Rule, Rules, Trace};
use crate::runtime::scenarios;

/// One reported failure and the search that reproduces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// A stable id (links, tests).
    pub id: &'static str,
    /// A short title for the entry's button.
    pub title: &'static str,
    /// The reports it reproduces, as `owner/repo#number`.
    pub issues: &'static [&'static str],
    /// What failed in production and which invariant it breaks, in plain
    /// words from the protocol's point of view.
    pub caption: &'static str,
    /// The rule of this project that prevents it (the entry's toggle).
    pub rule: Rule,
    /// The property the failure breaks.
    pub property: Property,
    /// The scenario explored (`runtime::scenarios::explorable`).
    pub scenario: &'static str,
    /// At most this many faults per run.
    pub max_faults: usize,
    /// The faults tried on a message.
    pub fault_kinds: &'static [FaultAction],
    /// The policy decisions tried.
    pub decisions: Decisions,
    /// At most this many decisions per run that differ from the script.
    pub max_decisions: usize,
}

/// No alternative decisions at all: the script as written.
const SCRIPTED: Decisions = Decisions { flip_answers: false, withhold_answers: false, skip_plans: false, answer_for_addressee: false };

/// The gallery, in the page's order.
pub const GALLERY: &[Entry] = &[
    Entry {
        id: "stale-shutdown-after-respawn",
        title: "A stale shutdown request shuts down a respawned teammate",
        issues: &["anthropics/claude-code#45874"],
        caption: "Reported: a shutdown request sent to a teammate was still unanswered when the teammate was respawned, and \
                  the new teammate read the old request and shut down. The request was addressed to a run that no longer \
                  existed, and a different run answered it: this breaks \"no answer crosses a restart\". Here alice holds \
                  back her answer, the lead spawns her again, and the restarted alice finds the old request and approves it.",
        rule: Rule::IncarnationBinding,
        property: Property::NoAnswerAcrossRestart,
        scenario: "respawn",
        max_faults: 0,
        fault_kinds: &[],
        decisions: Decisions { withhold_answers: true, ..SCRIPTED },
        max_decisions: 1,
    },
    Entry {
        id: "acting-after-approving-shutdown",
        title: "A teammate keeps acting after approving its shutdown",
        issues: &["anthropics/claude-code#37895", "anthropics/claude-code#60199"],
        caption: "Reported: teammates approved a shutdown request and then did not terminate; they stayed alive and kept \
                  taking turns. Approving a shutdown is a promise to stop: this breaks \"a teammate that approved its \
                  shutdown makes no new model call\" (and, at the end, \"every approved shutdown reaches shutdown\"). \
                  Here alice approves the lead's request and, with nothing making her leave her loop, calls her model again.",
        rule: Rule::ExitAfterApproval,
        property: Property::NoActionAfterShutdownApproved,
        scenario: "shutdown",
        max_faults: 0,
        fault_kinds: &[],
        decisions: SCRIPTED,
        max_decisions: 0,
    },
    Entry {
        id: "lead-answers-its-own-request",
        title: "The lead approves a shutdown request it sent",
        issues: &["anthropics/claude-code#81464"],
        caption: "Reported: a shutdown request ended up answered by the lead instead of the teammate it was meant for, and \
                  the lead approved its own termination. Only the agent a request is addressed to may answer it: this breaks \
                  \"only the addressee answers\". Here the lead asks alice to shut down, then answers that request itself \
                  instead of waiting for alice.",
        rule: Rule::AddresseeOnly,
        property: Property::OnlyTheAddresseeAnswers,
        scenario: "shutdown",
        max_faults: 0,
        fault_kinds: &[],
        decisions: Decisions { answer_for_addressee: true, ..SCRIPTED },
        max_decisions: 1,
    },
    Entry {
        id: "shutdown-never-answered",
        title: "A shutdown request is never answered",
        issues: &["anthropics/claude-code#51556"],
        caption: "Reported: a teammate finished its work and went idle; the lead's shutdown request reached it, but it never \
                  answered, and the team sat idle with the request pending (sometimes, not always). This breaks \"no run goes \
                  quiet while a request is pending\". Here alice finishes and idles before the lead's request arrives; \
                  nothing wakes her to read it, so everyone goes quiet waiting.",
        rule: Rule::WakeOnMessage,
        property: Property::NoQuietWhilePending,
        scenario: "shutdown",
        max_faults: 0,
        fault_kinds: &[],
        decisions: SCRIPTED,
        max_decisions: 0,
    },
];

/// The entry with this id.
pub fn by_id(id: &str) -> Option<&'static Entry> {
    GALLERY.iter().find(|e| e.id == id)
}

impl Entry {
    /// The search that reproduces the failure, with the entry's rule on or
    /// off (every other rule on): breadth first, so a counterexample is a
    /// shortest run, on one thread (the page runs it in a worker).
    pub fn config(&self, rule_on: bool) -> ExploreConfig {
        ExploreConfig {
            max_faults: self.max_faults,
            fault_kinds: self.fault_kinds.to_vec(),
            decisions: self.decisions,
            max_decisions: self.max_decisions,
            strategy: Strategy::Bfs,
            threads: 1,
            rules: Rules::default().with(self.rule, rule_on),
            ..ExploreConfig::new(self.scenario)
        }
    }
}

/// The run a counterexample's `path` (found with the entry's rule off)
/// takes with the rule on: the same choices as long as they are open, then
/// the first open choice at each point to the end of the run — what the
/// rule does instead (the stale answer refused, the teammate leaving its
/// loop, ...). The page shows it beside the counterexample.
pub fn with_rule_on(entry: &Entry, path: &[Choice]) -> Result<Trace, ExploreError> {
    let scenario = scenarios::explorable(entry.scenario).ok_or_else(|| ExploreError::UnknownScenario(entry.scenario.to_string()))?;
    let config = entry.config(true);
    let (mut node, _) = Node::start(scenario, &config, true)?;
    let mut rest = path.iter();
    for _ in 0..config.max_depth {
        let open = node.choices(&config);
        let next = match rest.next().filter(|c| open.contains(c)) {
            Some(same) => same.clone(),
            None => {
                rest = [].iter();
                let Some(first) = open.into_iter().next() else { break };
                first
            }
        };
        node = node.after(&next, &config)?.0;
    }
    Ok(node.trace().clone())
}

/// Runs `entry`'s search with its rule on or off. With the rule on, its
/// property holds in every explored run; with it off, the report carries a
/// shortest counterexample for it.
pub fn reproduce(entry: &Entry, rule_on: bool) -> Result<Report, ExploreError> {
    explore(&entry.config(rule_on))
}
