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

/// What a protocol file's gallery entry watches: one of the file's own
/// `[[property]]` entries, or a built-in property.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Watch {
    /// A `[[property]]` of the file, by name.
    Own(&'static str),
    /// A built-in property.
    Builtin(Property),
}

/// A gallery entry of a protocol file (the engine issue's examples,
/// `protocol::file::builtin::EXAMPLES`): what failed in production, and
/// the search of the file's own team that shows it — broken, or, for a
/// file that fixes it, holding even under the fault that caused it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FileEntry {
    /// A stable id (links, tests).
    pub id: &'static str,
    /// The example's name in `builtin::EXAMPLES`.
    pub example: &'static str,
    /// A short title for the entry.
    pub title: &'static str,
    /// The reports it answers, as `owner/repo#number`.
    pub issues: &'static [&'static str],
    /// What failed in production and what the search shows.
    pub caption: &'static str,
    /// The property the search is about.
    pub watch: Watch,
    /// True when the search breaks it (a counterexample opens); false
    /// when the file's protocol makes it hold.
    pub breaks: bool,
    /// At most this many faults per run.
    pub max_faults: usize,
    /// The faults tried on a message.
    pub fault_kinds: &'static [FaultAction],
    /// The policy decisions tried.
    pub decisions: Decisions,
    /// At most this many decisions per run that differ from the script.
    pub max_decisions: usize,
}

/// The protocol files of the gallery, in the page's order.
pub const FILE_GALLERY: &[FileEntry] = &[
    FileEntry {
        id: "deadline-retry",
        example: "deadline-retry",
        title: "A lost shutdown answer leaves the request pending for ever",
        issues: &["anthropics/claude-code#51556"],
        caption: "Reported: a shutdown request was never answered and the team sat idle with the request pending. In the \
                  lesson's protocol a dropped answer does exactly that. This file gives the request a deadline and one retry: \
                  its team drops every answer, and the search (one more dropped message per run) shows \
                  \"every_shutdown_settles\" holding in every run: unanswered, the request expires and is asked again.",
        watch: Watch::Own("every_shutdown_settles"),
        breaks: false,
        max_faults: 1,
        fault_kinds: &[FaultAction::Drop],
        decisions: SCRIPTED,
        max_decisions: 0,
    },
    FileEntry {
        id: "permission-no-responder",
        example: "permission-rule-off",
        title: "A permission request nobody can answer",
        issues: &["anthropics/claude-code#50310"],
        caption: "Reported: a teammate had to ask permission before editing, but nothing could grant it, and the request \
                  stayed pending for ever. The loader refuses such a protocol (responder_required); this file switches that \
                  rule off, and the search finds the run where carol asks and everyone goes quiet while her request is \
                  pending: it breaks \"no run goes quiet while a request is pending\".",
        watch: Watch::Builtin(Property::NoQuietWhilePending),
        breaks: true,
        max_faults: 0,
        fault_kinds: &[],
        decisions: SCRIPTED,
        max_decisions: 0,
    },
    FileEntry {
        id: "task-claim",
        example: "task-claim",
        title: "Two teammates own the same task",
        issues: &[],
        caption: "Reported in many teams: two agents both believed a task was theirs and did the same work. Here ann and \
                  ben claim tasks from the lead; nothing in the claim protocol refuses a second approval, so the property \
                  \"one_owner_per_task\" rests on the lead. The search lets the lead leave its script once and finds the \
                  run where it approves ben's claim of the parser too.",
        watch: Watch::Own("one_owner_per_task"),
        breaks: true,
        max_faults: 0,
        fault_kinds: &[],
        decisions: Decisions { flip_answers: true, ..SCRIPTED },
        max_decisions: 1,
    },
];

/// The file entry with this id.
pub fn file_entry(id: &str) -> Option<&'static FileEntry> {
    FILE_GALLERY.iter().find(|e| e.id == id)
}

impl FileEntry {
    /// The example file's text.
    pub fn text(&self) -> &'static str {
        crate::protocol::file::builtin::EXAMPLES.iter().find(|(n, _)| *n == self.example).map_or("", |(_, t)| t)
    }

    /// The search of the file's team (its own rules, its properties),
    /// breadth first on one thread.
    pub fn config(&self) -> Result<ExploreConfig, ExploreError> {
        let file = crate::protocol::file::load(self.text()).map_err(|e| ExploreError::Refused(format!("{e:?}")))?;
        let file = std::sync::Arc::new(file);
        let mut c = super::file_team::team_config(file).map_err(|e| ExploreError::Refused(e.to_string()))?;
        c.max_faults = self.max_faults;
        c.fault_kinds = self.fault_kinds.to_vec();
        c.decisions = self.decisions;
        c.max_decisions = self.max_decisions;
        c.strategy = Strategy::Bfs;
        c.threads = 1;
        c.compile_team_properties().map_err(|e| ExploreError::Refused(e.to_string()))?;
        Ok(c)
    }
}

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

#[cfg(test)]
mod file_tests {
    use super::*;
    use crate::explore::Verdict;

    #[test]
    fn each_file_entrys_search_shows_what_its_caption_says() {
        for e in FILE_GALLERY {
            assert!(!e.text().is_empty(), "{}: the example exists", e.id);
            let report = explore(&e.config().unwrap()).unwrap();
            let verdict = match e.watch {
                Watch::Own(name) => report.file_properties.iter().find(|p| p.name == name).map(|p| (p.verdict, p.example.is_some())),
                Watch::Builtin(p) => report.property(p).map(|r| (r.verdict, r.example.is_some())),
            };
            let want = if e.breaks { (Verdict::Fails, true) } else { (Verdict::Holds, false) };
            assert_eq!(verdict, Some(want), "{}", e.id);
            assert!(report.complete, "{}: the search is complete", e.id);
        }
    }
}
