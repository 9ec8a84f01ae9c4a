//! What one live frame of the scale scenario computes in the view layer,
//! natively, to count with callgrind: the scale run (50 teammates × 20
//! requests) recorded, its views built up to `tail` events before the end,
//! then the last `tail` events appended one at a time; after each append,
//! what the page's panels and diagram derive from the run at the tip (each
//! in its own function, so callgrind's inclusive counts name the parts).
//! It mirrors the page's memos (`ui::panels`, `ui::diagram::canvas`) as of
//! issue 28 §1: a profiling aid, not a second renderer; the page's DOM work
//! is measured in the browser (`bench.html#steps-scale`).
//!
//! `valgrind --tool=callgrind target/release/examples/scale_frame [tail]`

use std::collections::BTreeMap;
use std::hint::black_box;
use std::rc::Rc;

use team_protocols::model::scripted::ScriptedModel;
use team_protocols::model::sleep::NoSleep;
use team_protocols::protocol::{AgentName, TeamState, Trace, TraceEntry};
use team_protocols::runtime::executor::LocalExecutor;
use team_protocols::runtime::{scenarios, Host, Runtime, RuntimeConfig};
use team_protocols::view::cost::{ProtocolSplit, Spend};
use team_protocols::view::derived::RunViews;
use team_protocols::view::diagram::geometry;
use team_protocols::view::i18n::Catalog;
use team_protocols::view::lists;

fn scale_trace() -> Trace {
    let ex = LocalExecutor::new();
    let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
    let rt = Runtime::new(RuntimeConfig { pace_ms: 0, ..RuntimeConfig::default() }, Rc::new(ScriptedModel), host);
    rt.submit_prompt(scenarios::SCALE.prompts[0]).expect("the scale prompt is accepted");
    ex.run_until_stalled();
    rt.trace()
}

#[inline(never)]
fn part_extend(views: &mut RunViews, trace: &mut Trace, e: &TraceEntry) {
    views.extend(std::slice::from_ref(e));
    let _ = trace.append(e.time, e.event.clone());
}

#[inline(never)]
fn part_state(views: &RunViews, trace: &Trace) -> Option<TeamState> {
    views.state_at(trace.entries(), None).ok()
}

#[inline(never)]
fn part_requests(views: &RunViews, st: &TeamState) {
    let shown = lists::request_rows(&st.tracker, views.creation_order(), None, "", lists::REQUEST_ROWS);
    for id in &shown.rows {
        black_box(st.tracker.get(id).cloned());
    }
    black_box(shown);
}

#[inline(never)]
fn part_machinery(views: &RunViews, st: &TeamState, trace: &Trace) {
    black_box(team_protocols::view::machinery::machinery_in(st, views.creation_order(), trace.entries(), None));
}

/// The inbox rows as the page compares them (raw; the words are written
/// only for the rows that changed, in the page's list).
#[inline(never)]
fn part_inboxes(st: &TeamState) {
    black_box(lists::inbox_rows(&st.bus));
}

#[inline(never)]
fn part_roster(st: &TeamState) {
    let rows: Vec<_> = st.roster.members.iter().map(|m| (m.name.clone(), m.role.clone(), m.plan_mode, m.status.as_str())).collect();
    let names: Vec<String> = st.bus.names().map(|n| n.to_string()).collect();
    black_box((rows, names));
}

/// Each agent's spend as the page's per-agent memos see it: looked up and
/// compared with the last frame's; worded only when it changed.
#[inline(never)]
fn part_spend(cat: &Catalog, views: &RunViews, trace: &Trace, last: &mut Spends) {
    let spend = views.spend_at(trace.entries(), None);
    let split = views.split_at(trace.entries(), None);
    for who in spend.agents.keys() {
        let now = (spend.agents.get(who).copied(), split.get(who).copied());
        if last.get(who) == Some(&now) {
            continue;
        }
        let words = now.0.map(|one| team_protocols::view::cost::spend_words(cat, &one, None));
        let share = now.1.and_then(|sp| team_protocols::view::cost::protocol_words(cat, &sp));
        black_box((words, share));
        last.insert(who.clone(), now);
    }
}

/// What each agent's spend memo held at the last frame.
type Spends = BTreeMap<AgentName, (Option<Spend>, Option<ProtocolSplit>)>;

#[inline(never)]
fn part_small(views: &RunViews, trace: &Trace) {
    black_box(views.workspace_at(None));
    black_box(lists::first(views.violations_at(None), lists::FINDING_ROWS));
    black_box(views.messages_at(trace.entries(), None, team_protocols::view::diagram::message_table::MESSAGE_ROWS));
    black_box(team_protocols::view::cost::budget_banner(Catalog::en(), trace, None));
}

#[inline(never)]
fn part_diagram(cat: &Catalog, views: &RunViews, trace: &Trace) {
    let layout = views.layout();
    let height = layout.height_at(None);
    let window = (height - 700.0 - 240.0, height + 240.0);
    let shown = trace.len();
    let motion = layout.flights().at(shown, Some(shown - 1));
    let d = views.diagram(trace.entries(), None, Some(window));
    let lifelines: Vec<u64> =
        d.columns.iter().flat_map(|c| geometry::lifeline_parts(cat, c, d.height, Some(window))).map(|(_, it)| it.fingerprint()).collect();
    let bars: Vec<u64> = d.activations.iter().map(|a| geometry::activation_with_cost(cat, a, None).fingerprint()).collect();
    let rows: Vec<u64> = d.rows_between(window.0, window.1).iter().map(|r| geometry::row(cat, r).fingerprint()).collect();
    let badges: Vec<u64> =
        d.badges.iter().filter(|b| b.y + 30.0 >= window.0 && b.y <= window.1).map(|b| geometry::badge(b).fingerprint()).collect();
    let drawing = team_protocols::view::diagram::motion_draw::draw(cat, &motion, &d, |seq| layout.y_of(seq));
    black_box((lifelines, bars, rows, badges, drawing, d.columns.len(), d.activations.len(), d.badges.len()));
}

fn main() {
    let tail: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let full = scale_trace();
    let split = full.len() - tail.min(full.len());
    let mut trace = Trace::new(&full.team_name, full.seed);
    for e in &full.entries()[..split] {
        trace.append(e.time, e.event.clone()).expect("in order");
    }
    let mut views = RunViews::of(&trace);
    let cat = Catalog::en();
    let mut spends = Spends::new();
    eprintln!("scale trace: {} events, the last {tail} appended one at a time", full.len());
    for e in &full.entries()[split..] {
        part_extend(&mut views, &mut trace, e);
        let st = part_state(&views, &trace).expect("the scale run replays");
        part_requests(&views, &st);
        part_machinery(&views, &st, &trace);
        part_inboxes(&st);
        part_roster(&st);
        part_spend(cat, &views, &trace, &mut spends);
        part_small(&views, &trace);
        part_diagram(cat, &views, &trace);
    }
}
