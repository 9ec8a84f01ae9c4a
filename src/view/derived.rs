//! Everything the page derives from the run on screen, kept up to date as
//! events arrive and cheap to read at any cursor: the protocol state
//! (keyframed `Timeline`), the checker's findings, the diagram `Layout`,
//! and the workspace's file history. One `extend` per batch of new events;
//! no view replays the trace from event 0 on Back, Next or a new event.
//!
//! Owns the derived data only. It holds no signal and touches no DOM, so it
//! is tested natively; the run state in the page keeps one per run.

use std::collections::BTreeMap;

use crate::protocol::checker::Checker;
use crate::protocol::timeline::{Timeline, Walker, DEFAULT_KEYFRAME_EVERY};
use crate::protocol::{AgentName, Event, ReplayError, TeamState, Trace, TraceEntry, Violation};
use crate::view::cost::{ProtocolSplit, RunSpend, SpendFold};

use crate::view::diagram::layout::{Diagram, Layout};
use crate::view::diagram::message_table::{self, MessageRow};
use crate::view::lists::{CreationOrder, Shown};

/// Every version of every workspace file, stamped with the event that
/// wrote it: successful `write_file` and `edit_file` runs, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkspaceHistory {
    /// The file calls not returned yet, by tool use id: the normalised path
    /// and what the call writes, taken from its input when it is called
    /// (other tools, and paths outside the workspace, are not kept).
    calls: BTreeMap<String, (String, FileWrite)>,
    /// path -> (seq, content) versions, oldest first.
    versions: BTreeMap<String, Vec<(u64, String)>>,
}

/// What a file call writes once it returns without error.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileWrite {
    /// `write_file`: the whole content.
    Whole(String),
    /// `edit_file`: the first `old_text` in the file as it then stands
    /// becomes `new_text`.
    Edit { old_text: String, new_text: String },
}

impl WorkspaceHistory {
    /// Takes in one event.
    pub fn push(&mut self, entry: &TraceEntry) {
        match &entry.event {
            Event::ToolCalled { tool_use_id, tool, input, .. } => {
                let text = |key: &str| input[key].as_str().unwrap_or_default().to_string();
                let write = match tool.as_str() {
                    "write_file" => Some(FileWrite::Whole(text("content"))),
                    "edit_file" => Some(FileWrite::Edit { old_text: text("old_text"), new_text: text("new_text") }),
                    _ => None,
                };
                let path = crate::runtime::workspace::normalise(input["path"].as_str().unwrap_or_default()).ok();
                match path.zip(write) {
                    Some(call) => {
                        self.calls.insert(tool_use_id.clone(), call);
                    }
                    // A later call with the same id replaces the earlier one.
                    None => {
                        self.calls.remove(tool_use_id);
                    }
                }
            }
            Event::ToolReturned { tool_use_id, is_error, .. } => {
                let Some((path, write)) = self.calls.remove(tool_use_id) else { return };
                if *is_error {
                    return;
                }
                let next = match write {
                    FileWrite::Whole(content) => content,
                    FileWrite::Edit { old_text, new_text } => match self.versions.get(&path).and_then(|v| v.last()) {
                        Some((_, current)) => current.replacen(&old_text, &new_text, 1),
                        None => return,
                    },
                };
                self.versions.entry(path).or_default().push((entry.seq, next));
            }
            _ => {}
        }
    }

    /// The files as of the first `cursor` events (all for `None`).
    pub fn at(&self, cursor: Option<usize>) -> BTreeMap<String, String> {
        let shown = cursor.map_or(u64::MAX, |c| c as u64);
        self.versions
            .iter()
            .filter_map(|(path, versions)| {
                let upto = versions.partition_point(|(seq, _)| *seq < shown);
                upto.checked_sub(1).map(|i| (path.clone(), versions[i].1.clone()))
            })
            .collect()
    }
}

/// The derived views of one run, extended as its trace grows.
#[derive(Debug, Clone)]
pub struct RunViews {
    timeline: Timeline,
    checker: Checker,
    layout: Layout,
    workspace: WorkspaceHistory,
    /// What the run cost, folded: `spends[i]` after the first
    /// `i * DEFAULT_KEYFRAME_EVERY` events, `spend_tip` after all.
    spends: Vec<SpendFold>,
    spend_tip: SpendFold,
    model_errors: usize,
    /// Where each request stands in the order the run created them.
    requests: CreationOrder,
    broken: Option<ReplayError>,
    /// The state at the cursor last asked for, moved one event at a time.
    walker: WalkerCell,
}

/// The timeline's walker, kept behind a lock so that `RunViews::state_at`
/// reads like the pure function it is (the walker is a cache: any state
/// it gives equals the keyframes' and the replay's). A clone starts with
/// its own, empty.
#[derive(Debug, Default)]
struct WalkerCell(std::sync::Mutex<Walker>);

impl Clone for WalkerCell {
    fn clone(&self) -> Self {
        WalkerCell::default()
    }
}

impl RunViews {
    /// Views of an empty run of team `team_name`.
    pub fn new(team_name: &str) -> Self {
        RunViews {
            timeline: Timeline::new(team_name, DEFAULT_KEYFRAME_EVERY),
            checker: Checker::new(),
            layout: Layout::new(),
            workspace: WorkspaceHistory::default(),
            spends: vec![SpendFold::default()],
            spend_tip: SpendFold::default(),
            model_errors: 0,
            requests: CreationOrder::default(),
            broken: None,
            walker: WalkerCell::default(),
        }
    }

    /// Views of every event of `trace`.
    pub fn of(trace: &Trace) -> Self {
        // A run recorded with a protective rule off replays under that rule,
        // and a run under a protocol file under the file's protocols.
        let timeline = Timeline::of_header(trace, DEFAULT_KEYFRAME_EVERY);
        let checker = Checker::with_protocols(trace.protocols().clone());
        let mut v = RunViews { timeline, checker, ..RunViews::new(&trace.team_name) };
        v.extend(trace.entries());
        v
    }

    /// How many events have been taken in.
    pub fn len(&self) -> usize {
        self.layout.len()
    }

    /// True before the first event.
    pub fn is_empty(&self) -> bool {
        self.layout.is_empty()
    }

    /// Takes in the events of `entries` not seen yet (the whole trace or a
    /// suffix starting at or before `len()`).
    pub fn extend(&mut self, entries: &[TraceEntry]) {
        let new = entries.partition_point(|e| (e.seq as usize) < self.len());
        // The timeline takes the batch whole: it snapshots only the
        // keyframes a first screen reaches (near the end, and every
        // `EAGER_FRAMES`th), not each one as a push would (`Timeline::extend`).
        if self.broken.is_none() {
            if let Err(e) = self.timeline.extend(&entries[new..]) {
                self.broken = Some(e);
            }
        }
        self.layout.reserve(entries.len() - new);
        for entry in &entries[new..] {
            self.checker.observe(entry);
            self.layout.push(entry);
            self.workspace.push(entry);
            self.spend_tip.push(&entry.event);
            self.requests.push(entry);
            if (entry.seq as usize + 1).is_multiple_of(DEFAULT_KEYFRAME_EVERY) {
                self.spends.push(self.spend_tip.clone());
            }
            if matches!(entry.event, Event::ModelFailed { .. }) {
                self.model_errors += 1;
            }
        }
    }

    /// The protocol state after the first `cursor` events (`None`: all), or
    /// why the trace cannot be replayed that far. A cursor one event (or a
    /// few) from the one asked for last costs those events, not a replay
    /// from a keyframe.
    pub fn state_at(&self, entries: &[TraceEntry], cursor: Option<usize>) -> Result<TeamState, ReplayError> {
        let shown = cursor.unwrap_or(usize::MAX).min(self.len());
        match &self.broken {
            Some(e) if (e.seq as usize) < shown => Err(e.clone()),
            // A step from the cursor asked for last applies or takes back
            // the events in between (`Timeline::walk`).
            _ => Ok(match self.walker.0.lock() {
                Ok(mut walker) => self.timeline.walk(&mut walker, entries, Some(shown)),
                Err(_) => self.timeline.state_at(entries, Some(shown)),
            }),
        }
    }

    /// Each request's place in the order the run created them.
    pub fn creation_order(&self) -> &CreationOrder {
        &self.requests
    }

    /// The checker's findings among the first `cursor` events.
    pub fn violations_at(&self, cursor: Option<usize>) -> &[Violation] {
        let shown = cursor.map_or(u64::MAX, |c| c as u64);
        let found = self.checker.violations();
        &found[..found.partition_point(|v| v.seq < shown)]
    }

    /// The diagram as of `cursor`, materialised for `window` only, its
    /// rows' text read from `entries` (the run's trace).
    pub fn diagram(&self, entries: &[TraceEntry], cursor: Option<usize>, window: Option<(f64, f64)>) -> Diagram {
        self.layout.diagram(entries, cursor, window)
    }

    /// The whole run's diagram layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Every finding of the checker so far.
    pub fn violations(&self) -> &[Violation] {
        self.checker.violations()
    }

    /// The workspace as of `cursor`.
    pub fn workspace_at(&self, cursor: Option<usize>) -> BTreeMap<String, String> {
        self.workspace.at(cursor)
    }

    /// The messages table (the diagram's text alternative) as of `cursor`
    /// (`None`: all): the newest `limit` messages of `entries` (the run's
    /// trace), newest first, with their fates (read once, with the
    /// diagram's, by the layout).
    pub fn messages_at(&self, entries: &[TraceEntry], cursor: Option<usize>, limit: usize) -> Shown<MessageRow> {
        message_table::rows_at(self.layout.fates(), entries, cursor.unwrap_or(usize::MAX), limit)
    }

    /// The spend fold after the first `cursor` events (`None`: all) of
    /// `entries` (the run's trace): the nearest fold kept before it plus
    /// fewer than `DEFAULT_KEYFRAME_EVERY` events.
    fn spend_fold_at(&self, entries: &[TraceEntry], cursor: Option<usize>) -> std::borrow::Cow<'_, SpendFold> {
        let shown = cursor.unwrap_or(usize::MAX).min(self.len()).min(entries.len());
        if shown == self.len() {
            return std::borrow::Cow::Borrowed(&self.spend_tip);
        }
        let frame = (shown / DEFAULT_KEYFRAME_EVERY).min(self.spends.len() - 1);
        let mut fold = self.spends[frame].clone();
        for entry in &entries[frame * DEFAULT_KEYFRAME_EVERY..shown] {
            fold.push(&entry.event);
        }
        std::borrow::Cow::Owned(fold)
    }

    /// Each agent's spend and the run's as of `cursor` (as `cost::spend_at`
    /// on the prefix, without folding from event 0).
    pub fn spend_at(&self, entries: &[TraceEntry], cursor: Option<usize>) -> RunSpend {
        self.spend_fold_at(entries, cursor).spend().clone()
    }

    /// Each agent's calls split between protocol and work as of `cursor`
    /// (as `cost::protocol_split` on the prefix).
    pub fn split_at(&self, entries: &[TraceEntry], cursor: Option<usize>) -> BTreeMap<AgentName, ProtocolSplit> {
        self.spend_fold_at(entries, cursor).split()
    }

    /// How many model calls have failed in the whole run.
    pub fn model_errors(&self) -> usize {
        self.model_errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{AgentName, Millis};
    use serde_json::json;

    fn tool(trace: &mut Trace, id: &str, tool: &str, input: serde_json::Value, ok: bool) {
        let agent = AgentName::parse("a").unwrap();
        trace.append(Millis(0), Event::ToolCalled { agent: agent.clone(), tool_use_id: id.into(), tool: tool.into(), input }).unwrap();
        let done = Event::ToolReturned { agent, tool_use_id: id.into(), tool: tool.into(), output: String::new(), is_error: !ok };
        trace.append(Millis(0), done).unwrap();
    }

    fn edits() -> Trace {
        let mut t = Trace::new("t", 1);
        tool(&mut t, "1", "write_file", json!({"path": "a.md", "content": "one two"}), true);
        tool(&mut t, "2", "edit_file", json!({"path": "./a.md", "old_text": "two", "new_text": "2"}), true);
        tool(&mut t, "3", "write_file", json!({"path": "b.md", "content": "refused"}), false);
        tool(&mut t, "4", "edit_file", json!({"path": "missing.md", "old_text": "x", "new_text": "y"}), true);
        tool(&mut t, "5", "write_file", json!({"path": "a.md", "content": "again"}), true);
        tool(&mut t, "6", "write_file", json!({"path": "../escape.md", "content": "no"}), true);
        // An id called again before it returned: the later call is the one
        // its return finishes (here a tool that writes nothing).
        let agent = AgentName::parse("a").unwrap();
        for (tool, input) in [("write_file", json!({"path": "a.md", "content": "lost"})), ("read_file", json!({"path": "a.md"}))] {
            let called = Event::ToolCalled { agent: agent.clone(), tool_use_id: "7".into(), tool: tool.into(), input };
            t.append(Millis(0), called).unwrap();
        }
        let done = Event::ToolReturned { agent, tool_use_id: "7".into(), tool: "read_file".into(), output: String::new(), is_error: false };
        t.append(Millis(0), done).unwrap();
        t
    }

    #[test]
    fn the_workspace_history_equals_the_fold_from_zero_at_every_cursor() {
        let trace = edits();
        let views = RunViews::of(&trace);
        for c in 0..=trace.len() {
            assert_eq!(views.workspace_at(Some(c)), crate::view::panel_data::workspace_at(&trace, Some(c)), "cursor {c}");
        }
        assert_eq!(views.workspace_at(None)["a.md"], "again");
    }

    /// A recorded run taken in whole leaves most keyframes to be built
    /// when first reached: the state at any cursor, reached in any order,
    /// is still the replay of the prefix (around keyframes built eagerly,
    /// lazily and not at all, and at the end).
    #[test]
    fn the_state_at_any_cursor_of_a_run_taken_in_whole_is_the_replay_of_its_prefix() {
        use crate::protocol::timeline::EAGER_FRAMES;
        let every = DEFAULT_KEYFRAME_EVERY;
        let trace = crate::view::synthetic::busy_trace((EAGER_FRAMES + 2) * every + 300, 4, 3);
        let views = RunViews::of(&trace);
        let len = trace.len();
        for cursor in
            [5 * every + 7, len, 1, EAGER_FRAMES * every, 3 * every - 1, EAGER_FRAMES * every + 1, len - every - 3, 0, 5 * every + 6]
        {
            let replayed = crate::protocol::Team::replay(&trace.prefix(cursor)).expect("the busy trace replays");
            assert_eq!(&views.state_at(trace.entries(), Some(cursor)).expect("no refusal"), replayed.state(), "cursor {cursor} of {len}");
        }
    }

    #[test]
    fn violations_at_a_cursor_are_those_of_the_prefix() {
        let trace = crate::view::synthetic::busy_trace(400, 3, 5);
        let mut dropped = Trace::new(&trace.team_name, trace.seed);
        for e in trace.entries() {
            dropped.append(e.time, e.event.clone()).unwrap();
        }
        dropped.append(trace.entries().last().unwrap().time, Event::RunFinished).unwrap();
        let views = RunViews::of(&dropped);
        for c in (0..=dropped.len()).step_by(13).chain([dropped.len()]) {
            assert_eq!(views.violations_at(Some(c)), crate::protocol::check(&dropped.prefix(c)).as_slice(), "cursor {c}");
        }
        assert!(!views.violations_at(None).is_empty(), "requests left pending at the end are found");
    }

    #[test]
    fn a_trace_that_breaks_the_rules_is_reported_from_its_bad_event_on() {
        let mut trace = Trace::new("t", 1);
        trace.append(Millis(0), Event::RunStarted { prompt: "p".into() }).unwrap();
        let ghost = crate::protocol::Message::new(
            crate::protocol::MessageType::Message,
            AgentName::lead(),
            AgentName::parse("ghost").unwrap(),
            "x",
            Millis(0),
        );
        trace.append(Millis(0), Event::MessageSent { message: ghost }).unwrap();
        let views = RunViews::of(&trace);
        assert!(views.state_at(trace.entries(), Some(1)).is_ok());
        assert_eq!(views.state_at(trace.entries(), None).unwrap_err().seq, 1);
        assert_eq!(views.len(), 2, "the diagram still shows every event");
    }

    #[test]
    fn a_run_recorded_with_a_protective_rule_off_shows_under_that_rule() {
        use crate::protocol::{RequestKind, Rule, Rules, Team};
        let (lead, alice) = (AgentName::lead(), AgentName::parse("alice").unwrap());
        let mut team = Team::new("default", 7);
        team.set_rules(Rules::default().with(Rule::AddresseeOnly, false));
        team.spawn(&alice, "coder", false, Millis(0)).unwrap();
        let id = team.request_shutdown(&lead, &alice, Millis(1)).unwrap();
        team.answer(RequestKind::SHUTDOWN, &id, &lead, true, "", Millis(2)).unwrap();
        let trace = team.trace().clone();
        assert!(RunViews::of(&trace).state_at(trace.entries(), None).is_ok(), "replayed under its own rules");
        let mut strict = trace.clone();
        strict.rules = Rules::default();
        assert!(RunViews::of(&strict).state_at(strict.entries(), None).is_err(), "under every rule the lead's answer is refused");
    }

    /// Past the folds the page keeps (one every 1,024 events): a long busy run
    /// read at cursors on both sides of each kept fold.
    #[test]
    fn the_spend_of_a_long_run_from_kept_folds_equals_the_fold_from_zero() {
        use crate::view::cost::{protocol_split, spend_at};
        let trace = crate::view::synthetic::busy_trace(3_500, 4, 11);
        let views = RunViews::of(&trace);
        for cursor in [0, 1, 1023, 1024, 1025, 2047, 2048, 2049, 3000, trace.len() - 1, trace.len()] {
            assert_eq!(views.spend_at(trace.entries(), Some(cursor)), spend_at(&trace, Some(cursor)), "cursor {cursor}");
            assert_eq!(views.split_at(trace.entries(), Some(cursor)), protocol_split(&trace, Some(cursor)), "cursor {cursor}");
        }
        assert!(views.spend_at(trace.entries(), None).run.calls > 0, "the busy run calls its model");
    }
}
