//! The machinery as the lesson draws it: the one FSM (`pending -> approved |
//! rejected`) with one request's state lit and its last transition marked,
//! the trackers written the way the lesson's Python writes them
//! (`shutdown_requests = {id: {target, status}}`, `plan_requests = {id:
//! {from, plan, status}}`; a file's protocols' as `<name>_requests`, beside
//! or instead of these two) and the roster as the lesson's `config.json`
//! (`{"team_name": ..., "members": [{name, role, status}]}`), all as of the
//! cursor.
//!
//! Owns the data the machinery panel draws: a pure function of (the team's
//! state at the cursor, the events before the cursor, the selected request).
//! No DOM, no signals, no layout; it reads only the last event and at most
//! `SCAN_BACK` events before the cursor, so a step costs the same at 100
//! events and at 100,000. The panel (`ui::panels::machinery`) draws it.

use crate::protocol::file::model::ProtocolIx;
use crate::protocol::text::clip;
use crate::protocol::{
    AgentName, Event, LessonProtocol, Member, MemberStatus, Millis, ProtocolSet, Request, RequestId, RequestKind, RequestStatus, TeamState,
    TraceEntry,
};

use crate::view::lists::{CreationOrder, Shown};

/// Entries a tracker shows at most (the newest, plus the selected one).
pub const TRACKER_ROWS: usize = 12;
/// Members `config.json` lists at most (the newest, plus those of the
/// selected request).
pub const MEMBER_ROWS: usize = 12;
/// How many characters of a plan a tracker entry quotes.
pub const PLAN_CHARS: usize = 48;
/// How far back from the cursor the default request is looked for in the
/// events; past that, the newest request in the tracker is taken.
pub const SCAN_BACK: usize = 4096;

/// A request's last move along the FSM, as of the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastMove {
    /// The state it left (always `pending`: terminal states are final).
    pub from: RequestStatus,
    /// The state it reached.
    pub to: RequestStatus,
    /// Who answered.
    pub by: AgentName,
    /// When.
    pub at: Millis,
}

/// The FSM with one request on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fsm {
    /// The request shown.
    pub request_id: RequestId,
    /// Its protocol.
    pub kind: RequestKind,
    /// Who asked.
    pub requester: AgentName,
    /// Who must answer.
    pub addressee: AgentName,
    /// Its state at the cursor: the lit node.
    pub state: RequestStatus,
    /// Its last transition (the marked edge), if it has left `pending`.
    pub last: Option<LastMove>,
    /// The event just before the cursor created or moved this request: the
    /// panel animates the node it entered (and the edge it took).
    pub fresh: bool,
    /// True when the user picked it; false when it is the default (the
    /// request touched most recently at the cursor).
    pub chosen: bool,
}

impl Fsm {
    /// The FSM in words, for its accessible name: "Request 4607cc28
    /// (shutdown, lead → alice): pending → approved by alice at 3.333s."
    pub fn describe(&self) -> String {
        let head = format!("Request {} ({}, {} → {})", self.request_id, self.kind, self.requester, self.addressee);
        match &self.last {
            Some(m) => format!("{head}: {} → {} by {} at {}.", m.from, m.to, m.by, m.at),
            None => format!("{head}: {}, waiting for {}'s answer.", self.state, self.addressee),
        }
    }
}

/// One line of a tracker: an entry as the lesson's dict writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackerLine {
    /// The request.
    pub id: RequestId,
    /// Its state at the cursor.
    pub status: RequestStatus,
    /// `"4607cc28": {"target": "alice", "status": "approved"},`
    pub text: String,
    /// The request the FSM shows.
    pub selected: bool,
    /// Created or moved by the event just before the cursor.
    pub fresh: bool,
}

/// One tracker, written as the lesson writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackerView {
    /// `shutdown_requests`, `plan_requests`, or a file protocol's
    /// `<name>_requests` (`review_requests`).
    pub name: String,
    /// The entries shown, oldest first (a dict keeps insertion order).
    pub lines: Shown<TrackerLine>,
}

impl TrackerView {
    /// The whole tracker as text (`name = {` ... `}`), the lines shown.
    pub fn text(&self) -> String {
        if self.lines.rows.is_empty() {
            return format!("{} = {{}}", self.name);
        }
        let mut out = format!("{} = {{\n", self.name);
        for l in &self.lines.rows {
            out.push_str("    ");
            out.push_str(&l.text);
            out.push('\n');
        }
        out.push('}');
        out
    }
}

/// One member line of `config.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberLine {
    /// The member.
    pub name: AgentName,
    /// Its status at the cursor.
    pub status: MemberStatus,
    /// `{"name": "alice", "role": "coder", "status": "shutdown"}`
    pub text: String,
    /// Spawned or changed status at the event just before the cursor.
    pub fresh: bool,
}

/// The roster as the lesson's `config.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigView {
    /// `"team_name": "default"` (the value, JSON-quoted).
    pub team_name: String,
    /// The members shown, in spawn order.
    pub members: Shown<MemberLine>,
}

impl ConfigView {
    /// The file as text, the members shown.
    pub fn text(&self) -> String {
        let mut out = format!("{{\n  \"team_name\": {},\n  \"members\": [", self.team_name);
        let n = self.members.rows.len();
        if n == 0 {
            out.push_str("]\n}");
            return out;
        }
        out.push('\n');
        for (i, m) in self.members.rows.iter().enumerate() {
            out.push_str("    ");
            out.push_str(&m.text);
            if i + 1 < n {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str("  ]\n}");
        out
    }
}

/// Everything the machinery panel draws, as of the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machinery {
    /// The FSM with the selected (or most recently touched) request; `None`
    /// before the first request.
    pub fsm: Option<Fsm>,
    /// One tracker per protocol the run keeps, in the file's order:
    /// `shutdown_requests = {...}` and `plan_requests = {...}` for the
    /// lesson, `review_requests = {...}` for a file's `review`.
    pub trackers: Vec<TrackerView>,
    /// `config.json`.
    pub config: ConfigView,
}

/// A JSON string literal (the lesson's dicts print the same for these).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// The request an event is about, if any.
fn request_of(event: &Event) -> Option<&RequestId> {
    match event {
        Event::RequestCreated { request_id, .. } | Event::RequestTransitioned { request_id, .. } => Some(request_id),
        Event::MessageSent { message } | Event::FaultApplied { message, .. } => message.request_id.as_ref(),
        _ => None,
    }
}

/// The request touched most recently among `entries` (the events before
/// the cursor) that `state`'s tracker knows, looking back at most
/// `SCAN_BACK` events; past that, the tracker's newest request.
pub fn most_recent_request(state: &TeamState, entries: &[TraceEntry]) -> Option<RequestId> {
    entries
        .iter()
        .rev()
        .take(SCAN_BACK)
        .filter_map(|e| request_of(&e.event))
        .find(|id| state.tracker.get(id).is_some())
        .cloned()
        .or_else(|| state.tracker.newest_first().next().map(|r| r.id.clone()))
}

/// The tracker entry of `r` as the lesson's dict writes it, its plan cut to
/// [`PLAN_CHARS`] unless `whole` (the entry the FSM shows, picked by a tap
/// or a key, reads in full).
fn tracker_text(r: &Request, whole: bool) -> String {
    match r.kind.lesson() {
        Some(LessonProtocol::Shutdown) => {
            format!("\"{}\": {{\"target\": {}, \"status\": \"{}\"}},", r.id, quoted(r.addressee.as_str()), r.status)
        }
        Some(LessonProtocol::Plan) => format!(
            "\"{}\": {{\"from\": {}, \"plan\": {}, \"status\": \"{}\"}},",
            r.id,
            quoted(r.requester.as_str()),
            quoted(&if whole { r.plan.clone().unwrap_or_default() } else { clip(r.plan.as_deref().unwrap_or_default(), PLAN_CHARS) }),
            r.status
        ),
        // A file protocol's request: its parties and fields, as its
        // `<name>_requests` dict would hold them.
        None => {
            let fields: String = r.fields.iter().map(|(k, v)| format!(", {}: {}", quoted(k), quoted(&v.to_string()))).collect();
            format!(
                "\"{}\": {{\"from\": {}, \"to\": {}{fields}, \"status\": \"{}\"}},",
                r.id,
                quoted(r.requester.as_str()),
                quoted(r.addressee.as_str()),
                r.status
            )
        }
    }
}

/// The trackers a run under `protocols` keeps, as (kind, dict name): the
/// lesson's two without a file; with one, each of its protocols in the
/// file's order, named `<name>_requests` as the lesson names its own (which
/// keep their names when a file uses them).
fn tracker_kinds(protocols: &ProtocolSet) -> Vec<(RequestKind, String)> {
    let dict = |kind: RequestKind| (kind, format!("{}_requests", kind.name()));
    let Some(file) = protocols.file() else {
        return [RequestKind::SHUTDOWN, RequestKind::PLAN].into_iter().map(dict).collect();
    };
    (0..file.protocols.len()).filter_map(|i| protocols.kind(ProtocolIx(u8::try_from(i).ok()?)).map(dict)).collect()
}

/// The entries of each tracker of `kinds` to show: the newest
/// `TRACKER_ROWS` (and the selected one wherever it is), oldest first;
/// the tracker is read once for all of them (a long run's step reads its
/// requests once, not once per tracker).
fn tracker_views(
    state: &TeamState,
    order: &CreationOrder,
    kinds: Vec<(RequestKind, String)>,
    selected: Option<&RequestId>,
    fresh: Option<&RequestId>,
) -> Vec<TrackerView> {
    let n = kinds.len();
    // How many each tracker holds, from the creation order: the walk below
    // stops once every tracker has its newest rows, not at the oldest
    // request of a long run.
    let total: Vec<usize> = kinds.iter().map(|(kind, _)| order.count(*kind, state.tracker.len())).collect();
    let mut wanted: usize = total.iter().map(|t| (*t).min(TRACKER_ROWS)).sum();
    let mut picked: Vec<Vec<&Request>> = vec![Vec::new(); n];
    for r in state.tracker.newest_first() {
        if wanted == 0 {
            break;
        }
        if let Some(k) = kinds.iter().position(|(kind, _)| *kind == r.kind) {
            if picked[k].len() < TRACKER_ROWS {
                picked[k].push(r);
                wanted -= 1;
            }
        }
    }
    kinds
        .into_iter()
        .zip(picked)
        .zip(total)
        .map(|(((kind, name), mut picked), total)| {
            if let Some(sel) = selected.and_then(|id| state.tracker.get(id)).filter(|r| r.kind == kind) {
                if !picked.iter().any(|r| r.id == sel.id) {
                    // Keep it in place among the shown ones: after the ones
                    // newer than it. The oldest shown makes room.
                    picked.pop();
                    picked.push(sel);
                }
            }
            // Creation order: `newest_first` reversed. The selected one, when
            // it was older than the rest, is last in `picked` and becomes
            // first.
            picked.reverse();
            let rows = picked
                .into_iter()
                .map(|r| TrackerLine {
                    id: r.id.clone(),
                    status: r.status,
                    text: tracker_text(r, Some(&r.id) == selected),
                    selected: Some(&r.id) == selected,
                    fresh: Some(&r.id) == fresh,
                })
                .collect::<Vec<_>>();
            TrackerView { name, lines: Shown { matching: total, total, rows } }
        })
        .collect()
}

fn member_text(m: &Member) -> String {
    format!("{{\"name\": {}, \"role\": {}, \"status\": \"{}\"}}", quoted(m.name.as_str()), quoted(&m.role), m.status)
}

/// The members `config.json` shows: the newest `MEMBER_ROWS` and those in
/// `keep`, in spawn order.
fn config_view(state: &TeamState, keep: &[&AgentName], fresh: Option<&AgentName>) -> ConfigView {
    let members = &state.roster.members;
    let total = members.len();
    let newest = total.saturating_sub(MEMBER_ROWS);
    let kept_old = members[..newest].iter().filter(|m| keep.contains(&&m.name)).count();
    // Room for the kept older members comes from the oldest of the newest.
    let from = (newest + kept_old).min(total);
    let rows = members
        .iter()
        .enumerate()
        .filter(|(i, m)| *i >= from || (*i < newest && keep.contains(&&m.name)))
        .map(|(_, m)| MemberLine { name: m.name.clone(), status: m.status, text: member_text(m), fresh: Some(&m.name) == fresh })
        .collect::<Vec<_>>();
    ConfigView { team_name: quoted(&state.roster.team_name), members: Shown { matching: total, total, rows } }
}

/// The machinery as of the cursor: `state` is the team after `entries`
/// (the events before the cursor); `selected` the request the user picked,
/// if any. A picked request the tracker does not know yet (the cursor is
/// before it) gives way to the default, the request touched most recently.
pub fn machinery(state: &TeamState, entries: &[TraceEntry], selected: Option<&RequestId>) -> Machinery {
    machinery_in(state, &CreationOrder::of(&state.tracker), entries, selected)
}

/// `machinery`, with the run's creation order of requests (`RunViews`
/// keeps it as the run grows): what a step costs then does not grow with
/// the requests the run holds.
pub fn machinery_in(state: &TeamState, order: &CreationOrder, entries: &[TraceEntry], selected: Option<&RequestId>) -> Machinery {
    let chosen = selected.filter(|id| state.tracker.get(id).is_some()).cloned();
    let shown = chosen.clone().or_else(|| most_recent_request(state, entries));
    let last_event = entries.last().map(|e| &e.event);
    let fresh_request = match last_event {
        Some(Event::RequestCreated { request_id, .. } | Event::RequestTransitioned { request_id, .. }) => Some(request_id),
        _ => None,
    };
    let fresh_member = match last_event {
        Some(Event::MemberSpawned { name, .. } | Event::MemberStatusChanged { name, .. }) => Some(name),
        _ => None,
    };
    let request = shown.as_ref().and_then(|id| state.tracker.get(id));
    let fsm = request.map(|r| Fsm {
        request_id: r.id.clone(),
        kind: r.kind,
        requester: r.requester.clone(),
        addressee: r.addressee.clone(),
        state: r.status,
        last: r.transitions.last().map(|t| LastMove { from: t.from, to: t.to, by: t.by.clone(), at: t.at }),
        fresh: fresh_request == Some(&r.id),
        chosen: chosen.is_some(),
    });
    let keep: Vec<&AgentName> = request.map(|r| vec![&r.requester, &r.addressee]).unwrap_or_default();
    let trackers = tracker_views(state, order, tracker_kinds(&state.protocols), shown.as_ref(), fresh_request);
    Machinery { trackers, config: config_view(state, &keep, fresh_member), fsm }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Team, Trace};

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// The state and the events before the cursor, replayed from zero (the
    /// reference; the page reads the state from its keyframed timeline).
    fn at(trace: &Trace, cursor: usize, selected: Option<&RequestId>) -> Machinery {
        let prefix = trace.prefix(cursor);
        let state = Team::replay(&prefix).unwrap().state().clone();
        machinery(&state, &trace.entries()[..cursor], selected)
    }

    fn position(trace: &Trace, pred: impl Fn(&Event) -> bool) -> usize {
        trace.entries().iter().position(|e| pred(&e.event)).unwrap()
    }

    /// alice is asked to shut down and approves; bob submits a plan the
    /// lead rejects with feedback.
    fn both_protocols() -> (Trace, RequestId, RequestId) {
        let mut t = Team::new("default", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        t.spawn(&name("bob"), "refactorer", true, Millis(0)).unwrap();
        let shut = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(10)).unwrap();
        t.drain(&name("alice"), Millis(20)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &shut, &name("alice"), true, "done", Millis(3333)).unwrap();
        t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(3400)).unwrap();
        let plan = t.submit_plan(&name("bob"), "Rewrite the \"auth\" module in one go", Millis(4000)).unwrap();
        t.answer(RequestKind::PLAN, &plan, &AgentName::lead(), false, "Too risky", Millis(4500)).unwrap();
        (t.trace().clone(), shut, plan)
    }

    #[test]
    fn the_trackers_are_written_as_the_lesson_writes_them() {
        let (trace, shut, plan) = both_protocols();
        let m = at(&trace, trace.len(), None);
        assert_eq!(
            m.trackers[0].text(),
            format!("shutdown_requests = {{\n    \"{shut}\": {{\"target\": \"alice\", \"status\": \"approved\"}},\n}}")
        );
        assert_eq!(
            m.trackers[1].text(),
            format!(
                "plan_requests = {{\n    \"{plan}\": {{\"from\": \"bob\", \"plan\": \"Rewrite the \\\"auth\\\" module in one go\", \"status\": \"rejected\"}},\n}}"
            )
        );
    }

    #[test]
    fn the_roster_is_the_lessons_config_json_and_parses_as_json() {
        let (trace, _, _) = both_protocols();
        let m = at(&trace, trace.len(), None);
        let json: serde_json::Value = serde_json::from_str(&m.config.text()).expect("valid JSON");
        assert_eq!(
            json,
            serde_json::json!({
                "team_name": "default",
                "members": [
                    {"name": "alice", "role": "coder", "status": "shutdown"},
                    {"name": "bob", "role": "refactorer", "status": "working"},
                ]
            })
        );
        let empty = at(&trace, 0, None);
        assert_eq!(serde_json::from_str::<serde_json::Value>(&empty.config.text()).unwrap()["members"], serde_json::json!([]));
        assert_eq!(empty.trackers[0].text(), "shutdown_requests = {}");
        assert_eq!(empty.fsm, None, "no request, no request on the FSM");
    }

    #[test]
    fn everything_follows_the_cursor_back_and_forth() {
        let (trace, shut, _) = both_protocols();
        let created = position(&trace, |e| matches!(e, Event::RequestCreated { .. }));
        let moved = position(&trace, |e| matches!(e, Event::RequestTransitioned { .. }));
        let exited = position(&trace, |e| matches!(e, Event::MemberStatusChanged { to: MemberStatus::Shutdown, .. }));
        assert!(at(&trace, created, None).trackers[0].lines.rows.is_empty(), "before the request: no entry");
        let pending = at(&trace, created + 1, None);
        assert_eq!(pending.trackers[0].lines.rows[0].status, RequestStatus::Pending);
        assert!(pending.trackers[0].lines.rows[0].fresh, "just created");
        let fsm = pending.fsm.unwrap();
        assert_eq!((fsm.request_id.clone(), fsm.state, fsm.last.clone(), fsm.fresh), (shut.clone(), RequestStatus::Pending, None, true));
        assert_eq!(fsm.describe(), format!("Request {shut} (shutdown, lead → alice): pending, waiting for alice's answer."));
        let approved = at(&trace, moved + 1, None).fsm.unwrap();
        assert_eq!(approved.state, RequestStatus::Approved);
        assert!(approved.fresh, "the transition is the event just before the cursor");
        assert_eq!(approved.describe(), format!("Request {shut} (shutdown, lead → alice): pending → approved by alice at 3.333s."));
        let later = at(&trace, moved + 2, None).fsm.unwrap();
        assert!(!later.fresh && later.last.is_some(), "one step on, the edge stays marked but is not animated");
        // Back from the transition: pending again.
        assert_eq!(at(&trace, moved, None).fsm.unwrap().state, RequestStatus::Pending);
        let alice = |c: usize| at(&trace, c, None).config.members.rows[0].clone();
        assert_eq!(alice(exited).status, MemberStatus::Working);
        assert_eq!((alice(exited + 1).status, alice(exited + 1).fresh), (MemberStatus::Shutdown, true));
    }

    #[test]
    fn the_fsm_shows_the_picked_request_or_else_the_one_touched_last() {
        let (trace, shut, plan) = both_protocols();
        let end = at(&trace, trace.len(), None);
        assert_eq!(end.fsm.as_ref().map(|f| (&f.request_id, f.chosen)), Some((&plan, false)), "the plan was touched last");
        assert_eq!(end.fsm.unwrap().last.unwrap().by, AgentName::lead());
        let picked = at(&trace, trace.len(), Some(&shut));
        let fsm = picked.fsm.unwrap();
        assert_eq!((fsm.request_id, fsm.chosen, fsm.state), (shut.clone(), true, RequestStatus::Approved));
        assert!(picked.trackers[0].lines.rows[0].selected);
        assert!(!picked.trackers[1].lines.rows[0].selected);
        // Before the plan exists, picking it falls back to the default.
        let created_plan = position(&trace, |e| matches!(e, Event::RequestCreated { request_kind: RequestKind::PLAN, .. }));
        let early = at(&trace, created_plan, Some(&plan)).fsm.unwrap();
        assert_eq!((early.request_id, early.chosen), (shut, false));
    }

    #[test]
    fn with_the_runs_creation_order_the_machinery_is_the_one_read_from_the_state_alone() {
        // The page passes the run's creation order so a step stops walking
        // the tracker early; what it shows must not change, at any cursor,
        // with or without a selected request.
        let trace = crate::view::synthetic::busy_trace(2_500, 4, 5);
        let views = crate::view::derived::RunViews::of(&trace);
        let ids: Vec<RequestId> = views.state_at(trace.entries(), None).unwrap().tracker.iter().map(|r| r.id.clone()).collect();
        for cursor in (0..=trace.len()).step_by(83).chain([trace.len()]) {
            let state = views.state_at(trace.entries(), Some(cursor)).unwrap();
            for selected in [None, ids.first(), ids.get(ids.len() / 2)] {
                let entries = &trace.entries()[..cursor];
                assert_eq!(
                    machinery_in(&state, views.creation_order(), entries, selected),
                    machinery(&state, entries, selected),
                    "cursor {cursor}, selected {selected:?}"
                );
            }
        }
    }

    #[test]
    fn a_thousand_requests_show_the_newest_and_the_selected_one_and_say_how_many() {
        let mut t = Team::new("default", 3);
        let mut ids = Vec::new();
        for i in 0..50 {
            let a = name(&format!("mate-{i:02}"));
            t.spawn(&a, "coder", false, Millis(i)).unwrap();
            for _ in 0..20 {
                let id = t.request_shutdown(&AgentName::lead(), &a, Millis(i)).unwrap();
                t.answer(RequestKind::SHUTDOWN, &id, &a, false, "busy", Millis(i)).unwrap();
                ids.push(id);
            }
        }
        let state = t.state().clone();
        let entries = t.trace().entries();
        let m = machinery(&state, entries, None);
        let rows = &m.trackers[0].lines;
        assert_eq!((rows.rows.len(), rows.total), (TRACKER_ROWS, 1000));
        assert_eq!(rows.cut_note(crate::view::i18n::Catalog::en(), "ui-cut-requests").as_deref(), Some("Showing 12 of 1000 requests"));
        let newest: Vec<_> = ids[1000 - TRACKER_ROWS..].to_vec();
        assert_eq!(rows.rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>(), newest, "the newest, oldest first");
        assert_eq!(m.fsm.unwrap().request_id, ids[999]);
        assert_eq!(m.config.members.rows.len(), MEMBER_ROWS);
        assert_eq!(
            m.config.members.cut_note(crate::view::i18n::Catalog::en(), "ui-cut-members").as_deref(),
            Some("Showing 12 of 50 members")
        );
        // The selected request is shown in creation order, first, and its
        // target is kept in config.json.
        let old = machinery(&state, entries, Some(&ids[3]));
        let rows = &old.trackers[0].lines.rows;
        assert_eq!(rows.len(), TRACKER_ROWS);
        assert_eq!(rows[0].id, ids[3]);
        assert!(rows[0].selected);
        assert_eq!(rows[1..].iter().map(|r| r.id.clone()).collect::<Vec<_>>(), ids[1000 - TRACKER_ROWS + 1..].to_vec());
        let members = &old.config.members.rows;
        assert_eq!(members.len(), MEMBER_ROWS);
        assert_eq!(members[0].name, name("mate-00"));
        assert_eq!(members[1].name, name("mate-39"));
    }

    #[test]
    fn a_long_plan_is_clipped_in_its_tracker_entry_and_whole_in_the_entry_picked() {
        let mut t = Team::new("default", 1);
        t.spawn(&name("bob"), "refactorer", true, Millis(0)).unwrap();
        t.spawn(&name("carol"), "refactorer", true, Millis(0)).unwrap();
        let (long, other) = ("x".repeat(200), "y".repeat(200));
        let first = t.submit_plan(&name("bob"), &long, Millis(1)).unwrap();
        let second = t.submit_plan(&name("carol"), &other, Millis(2)).unwrap();
        let cut = |c: &str| format!("\"{}…\"", c.repeat(PLAN_CHARS - 1));
        // The FSM shows the one touched last: its plan reads whole.
        let m = machinery(t.state(), t.trace().entries(), None);
        let lines: Vec<&str> = m.trackers[1].lines.rows.iter().map(|l| l.text.as_str()).collect();
        assert!(lines[0].contains(&cut("x")) && lines[1].contains(&format!("\"{other}\"")), "{lines:?}");
        // Picking the first (a tap or Enter on its entry) opens its plan instead.
        let m = machinery(t.state(), t.trace().entries(), Some(&first));
        let lines: Vec<&str> = m.trackers[1].lines.rows.iter().map(|l| l.text.as_str()).collect();
        assert!(lines[0].contains(&format!("\"{long}\"")) && lines[1].contains(&cut("y")), "{lines:?}");
        assert_ne!(first, second);
    }

    /// A run under a protocol file keeps one tracker per protocol of the
    /// file, in its order: the lesson's two when it uses them, then its
    /// own as `<name>_requests` with the request's parties and fields.
    #[test]
    fn a_file_runs_trackers_are_its_protocols_named_as_the_lesson_names_its_own() {
        use crate::protocol::fields::{FieldValue, Fields};
        use crate::protocol::file::model::ProtocolIx;
        let text = crate::protocol::file::builtin::EXAMPLES.iter().find(|(n, _)| *n == "review-gate").expect("the example").1;
        let mut t = crate::protocol::testing::team_under(text, 1, &["alice"]);
        let review = (0..8u8).map(ProtocolIx).find(|ix| t.state().protocols.protocol(*ix).is_some_and(|p| p.name == "review"));
        let review = review.expect("the file has a review protocol");
        let fields: Fields = [("diff".to_string(), FieldValue::Text("+ greet()".into()))].into_iter().collect();
        let id = t.ask(review, &name("alice"), &AgentName::lead(), fields, Millis(1)).expect("alice may ask the lead");
        let m = machinery(t.state(), t.trace().entries(), None);
        let names: Vec<&str> = m.trackers.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["shutdown_requests", "plan_requests", "review_requests"]);
        assert_eq!(
            m.trackers[2].text(),
            format!("review_requests = {{\n    \"{id}\": {{\"from\": \"alice\", \"to\": \"lead\", \"diff\": \"+ greet()\", \"status\": \"pending\"}},\n}}")
        );
        assert_eq!(m.fsm.map(|f| f.request_id), Some(id));
        let lesson_only = machinery(&TeamState::new("t"), &[], None);
        assert_eq!(lesson_only.trackers.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["shutdown_requests", "plan_requests"]);
    }
}
