//! The incremental diagram layout (`view::diagram::layout::Layout`) against the
//! straightforward fold from event 0 it replaced: for every scenario, with
//! and without faults, at every cursor, the diagram is the same; a window
//! returns exactly the rows, badges and activations that intersect it; and
//! extending a layout in any chunks gives the layout of the whole trace;
//! rows built on demand (any row, any order) equal the fold's.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::BTreeMap;
use std::rc::Rc;

use team_protocols::model::scripted::ScriptedModel;
use team_protocols::model::sleep::NoSleep;
use team_protocols::protocol::*;
use team_protocols::runtime::executor::LocalExecutor;
use team_protocols::runtime::scenarios;
use team_protocols::runtime::{Host, Runtime, RuntimeConfig};
use team_protocols::view::diagram::layout::*;
use team_protocols::view::fate::{Hold, Mark};

use proptest::prelude::*;

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        s.chars().take(max.saturating_sub(1)).collect::<String>() + "…"
    }
}

fn short_args(input: &serde_json::Value) -> String {
    let Some(obj) = input.as_object() else { return String::new() };
    let mut parts = Vec::new();
    for key in ["path", "name", "teammate", "to", "request_id", "approve", "plan", "feedback", "reason"] {
        if let Some(v) = obj.get(key) {
            parts.push(match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            });
        }
    }
    parts.join(", ")
}

/// The diagram's mark for the fault the reference fold names.
fn mark(name: &str) -> Mark {
    match name {
        "dropped" => Mark::Dropped,
        "duplicate" => Mark::Duplicate,
        "delayed" => Mark::Late(Hold::Delayed),
        "reordered" => Mark::Late(Hold::Reordered),
        other => unreachable!("no fault is named {other}"),
    }
}

/// The straightforward fold from event 0 that `Layout` replaced: the
/// reference the incremental layout must agree with at every cursor.
fn reference_layout(trace: &Trace, cursor: Option<usize>) -> Diagram {
    let entries = &trace.entries()[..cursor.unwrap_or(usize::MAX).min(trace.len())];
    let mut d = Diagram::default();
    let mut col_of: BTreeMap<AgentName, usize> = BTreeMap::new();
    let lead = AgentName::lead();
    col_of.insert(lead.clone(), 0);
    d.columns.push(Column { name: lead, x: LEFT, born_y: HEADER_HEIGHT - 20.0, ended_y: None, status: None, restarts: Vec::new() });
    let mut color_of: BTreeMap<RequestId, usize> = BTreeMap::new();
    let mut badge_of: BTreeMap<RequestId, usize> = BTreeMap::new();
    let mut open_calls: BTreeMap<AgentName, usize> = BTreeMap::new();
    let mut open_tools: BTreeMap<String, usize> = BTreeMap::new();
    let mut row_of_message: BTreeMap<u64, usize> = BTreeMap::new();
    let mut held: BTreeMap<u64, (Message, &'static str)> = BTreeMap::new();
    let mut duplicate_next = false;
    let mut y = HEADER_HEIGHT;

    let x_of = |d: &mut Diagram, col_of: &mut BTreeMap<AgentName, usize>, name: &AgentName, y: f64| -> f64 {
        if let Some(&i) = col_of.get(name) {
            return d.columns[i].x;
        }
        let i = d.columns.len();
        let x = LEFT + COLUMN_WIDTH * i as f64;
        col_of.insert(name.clone(), i);
        d.columns.push(Column {
            name: name.clone(),
            x,
            born_y: y,
            ended_y: None,
            status: Some(MemberStatus::Working),
            restarts: Vec::new(),
        });
        x
    };

    for entry in entries {
        let seq = entry.seq;
        let released: Option<(Message, &'static str)>;
        let arrow = match &entry.event {
            Event::MessageSent { message } => Some((message, std::mem::take(&mut duplicate_next).then_some("duplicate"))),
            Event::FaultApplied { action: FaultAction::Drop, message, .. } => Some((message, Some("dropped"))),
            Event::FaultApplied { action: FaultAction::Duplicate, .. } => {
                duplicate_next = true;
                None
            }
            Event::FaultApplied { action, message, .. } => {
                let mark = if matches!(action, FaultAction::Reorder) { "reordered" } else { "delayed" };
                held.insert(seq, (message.clone(), mark));
                None
            }
            Event::MessageReleased { held: from } => {
                released = held.remove(from);
                released.as_ref().map(|(m, mark)| (m, Some(*mark)))
            }
            _ => None,
        };
        let kind = match (&entry.event, arrow) {
            (_, Some((message, fault))) => {
                let from_x = x_of(&mut d, &mut col_of, &message.from, y);
                let to_x = x_of(&mut d, &mut col_of, &message.to, y);
                let color = message.request_id.as_ref().map(|id| {
                    let next = color_of.len() % PALETTE_SIZE;
                    *color_of.entry(id.clone()).or_insert(next)
                });
                let label = match &message.request_id {
                    Some(id) => format!("{} [{id}]", message.msg_type),
                    None => format!("{}: {}", message.msg_type, clip(&message.content, MESSAGE_TEXT_CHARS)),
                };
                if message.msg_type.is_request() {
                    if let (Some(id), Some(color)) = (&message.request_id, color) {
                        if !badge_of.contains_key(id) {
                            badge_of.insert(id.clone(), d.badges.len());
                            d.badges.push(Badge {
                                request_id: id.clone(),
                                status: RequestStatus::Pending,
                                y,
                                x: from_x.max(to_x),
                                color,
                                changed_at: seq,
                            });
                        }
                    }
                }
                if fault != Some("dropped") {
                    row_of_message.insert(seq, d.rows.len());
                }
                Some(RowKind::Message {
                    from_x,
                    to_x,
                    label,
                    msg_type: message.msg_type,
                    request_id: message.request_id.clone(),
                    color,
                    delivered: false,
                    fault: fault.map(mark),
                    said: team_protocols::view::words::captions::said(message),
                    text: matches!(message.msg_type, MessageType::Message | MessageType::Broadcast).then(|| message.content.clone()),
                })
            }
            (Event::RunStarted { prompt }, None) => {
                Some(RowKind::RunStarted { prompt: clip(prompt, 90), whole: (clip(prompt, 90) != *prompt).then(|| prompt.clone()) })
            }
            (Event::RunFinished, None) => Some(RowKind::RunFinished),
            (Event::BudgetReached { limit, .. }, None) => Some(RowKind::BudgetReached { limit: *limit }),
            (Event::MemberSpawned { name, .. }, None) => {
                let to_x = x_of(&mut d, &mut col_of, name, y);
                let col = &mut d.columns[col_of[name]];
                if col.ended_y.is_some() {
                    // A restart: the lifeline resumes.
                    col.ended_y = None;
                }
                col.status = Some(MemberStatus::Working);
                Some(RowKind::Spawn { name: name.clone(), from_x: LEFT, to_x })
            }
            (Event::MemberStatusChanged { name, to, .. }, None) => {
                let i = col_of.get(name).copied();
                if let Some(i) = i {
                    d.columns[i].status = Some(*to);
                    if *to == MemberStatus::Shutdown {
                        d.columns[i].ended_y = Some(y);
                    }
                }
                None
            }
            (Event::MessageSent { .. } | Event::FaultApplied { .. } | Event::MessageReleased { .. }, None) => None,
            (Event::InboxDrained { message_ids, .. }, None) => {
                for id in message_ids {
                    if let Some(&r) = row_of_message.get(&id.0) {
                        if let RowKind::Message { delivered, .. } = &mut d.rows[r].kind {
                            *delivered = true;
                        }
                    }
                }
                None
            }
            (Event::RequestCreated { request_id, .. }, None) => {
                let next = color_of.len() % PALETTE_SIZE;
                color_of.entry(request_id.clone()).or_insert(next);
                None
            }
            (Event::RequestExpired { request_id, .. }, None) => {
                let color = color_of.get(request_id).copied().unwrap_or(0);
                let badge = badge_of.get(request_id).copied();
                if let Some(b) = badge {
                    d.badges[b].status = RequestStatus::Rejected;
                    d.badges[b].changed_at = seq;
                }
                let x = badge.map_or(LEFT, |b| d.badges[b].x);
                Some(RowKind::Transition { request_id: request_id.clone(), to: RequestStatus::Rejected, x, color })
            }
            (Event::RequestTransitioned { request_id, to, by, .. }, None) => {
                let color = color_of.get(request_id).copied().unwrap_or(0);
                if let Some(&b) = badge_of.get(request_id) {
                    d.badges[b].status = *to;
                    d.badges[b].changed_at = seq;
                }
                let x = x_of(&mut d, &mut col_of, by, y);
                Some(RowKind::Transition { request_id: request_id.clone(), to: *to, x, color })
            }
            (Event::ModelCalled { agent }, None) => {
                let x = x_of(&mut d, &mut col_of, agent, y);
                open_calls.insert(agent.clone(), d.activations.len());
                d.activations.push(Activation { x, y0: y, y1: y, open: true, spend: None });
                None
            }
            (Event::ModelReplied { agent, .. }, None) => {
                if let Some(i) = open_calls.remove(agent) {
                    // At least most of a row, so a quick reply still shows.
                    d.activations[i].y1 = y.max(d.activations[i].y0 + ROW_HEIGHT - 6.0);
                    d.activations[i].open = false;
                    d.activations[i].spend = team_protocols::view::cost::Spend::of_event(&entry.event);
                }
                None
            }
            (Event::ModelFailed { agent, error }, None) => {
                if let Some(i) = open_calls.remove(agent) {
                    d.activations[i].y1 = y;
                    d.activations[i].open = false;
                }
                let x = x_of(&mut d, &mut col_of, agent, y);
                Some(RowKind::Failure { x, error: clip(error, 80), whole: (clip(error, 80) != *error).then(|| error.clone()) })
            }
            (Event::ToolCalled { agent, tool_use_id, tool, input }, None) => {
                let x = x_of(&mut d, &mut col_of, agent, y);
                open_tools.insert(tool_use_id.clone(), d.rows.len());
                Some(RowKind::Tool {
                    x,
                    label: clip(&format!("{tool}({})", short_args(input)), TOOL_LABEL_CHARS),
                    call: (tool.clone(), short_args(input)),
                    ok: None,
                    output: None,
                })
            }
            (Event::ToolReturned { tool_use_id, output, is_error, .. }, None) => {
                if let Some(r) = open_tools.remove(tool_use_id) {
                    if let RowKind::Tool { ok, output: out, .. } = &mut d.rows[r].kind {
                        *ok = Some(!is_error);
                        *out = Some(clip(output, 200));
                    }
                }
                None
            }
        };
        if let Some(kind) = kind {
            d.rows.push(Row { seq, y, kind });
            y += ROW_HEIGHT;
        }
    }
    for a in d.activations.iter_mut().filter(|a| a.open) {
        a.y1 = y;
    }
    let badges = d.badges.iter().map(|b| b.x + BADGE_REACH);
    let reach = d.rows.iter().map(|r| row_reach(&r.kind)).chain(badges).fold(0.0, f64::max);
    d.width = diagram_width(d.columns.len(), reach);
    // The row under the last one ("now", where inboxes sit), then one row
    // per message still held by a fault.
    d.now_y = y;
    d.height = y + ROW_HEIGHT * (1 + held.len()) as f64;
    d.messages = d.rows.iter().filter(|r| matches!(r.kind, RowKind::Message { .. })).count();
    d.requests = d.badges.len();
    d
}

/// Every scenario under no faults and under each fault action, plus the
/// scale demo's policy at a small size (many requests, many teammates).
fn traces() -> Vec<(String, Trace)> {
    let plans =
        [None, Some(FaultAction::Drop), Some(FaultAction::Duplicate), Some(FaultAction::Delay { ms: 700 }), Some(FaultAction::Reorder)];
    let small_scale = team_protocols::model::scripted::scale::prompt(4, 3);
    let mut runs: Vec<(String, Vec<&str>)> = scenarios::ALL.iter().map(|sc| (sc.id.to_string(), sc.prompts.to_vec())).collect();
    runs.push(("scale 4x3".into(), vec![small_scale.as_str()]));
    let mut out = Vec::new();
    for (id, prompts) in &runs {
        for action in &plans {
            let faults =
                action.clone().map(|a| FaultPlan::new(vec![FaultRule { probability: 0.4, ..FaultRule::new(a) }])).unwrap_or_default();
            let ex = LocalExecutor::new();
            let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
            let rt = Runtime::new(RuntimeConfig { seed: 7, faults, ..RuntimeConfig::default() }, Rc::new(ScriptedModel), host);
            for prompt in prompts {
                rt.submit_prompt(prompt).unwrap();
                ex.run_until_stalled();
            }
            out.push((format!("{id} {action:?}"), rt.trace()));
        }
    }
    out
}

#[test]
fn the_incremental_layout_equals_the_fold_from_zero_at_every_cursor() {
    for (name, trace) in traces() {
        let layout = Layout::of(&trace);
        for c in 0..=trace.len() {
            assert_eq!(layout.diagram(trace.entries(), Some(c), None), reference_layout(&trace, Some(c)), "{name} at cursor {c}");
        }
        assert_eq!(layout.diagram(trace.entries(), None, None), reference_layout(&trace, None), "{name} following the latest");
    }
}

#[test]
fn a_window_materialises_exactly_what_intersects_it() {
    for (name, trace) in traces() {
        let layout = Layout::of(&trace);
        for c in (0..=trace.len()).step_by(7) {
            let full = layout.diagram(trace.entries(), Some(c), None);
            for (top, bottom) in [(0.0, 300.0), (400.0, 900.0), (HEADER_HEIGHT + 10.0 * ROW_HEIGHT, HEADER_HEIGHT + 11.0 * ROW_HEIGHT)] {
                let win = layout.diagram(trace.entries(), Some(c), Some((top, bottom)));
                assert_eq!(win.rows, full.rows_between(top, bottom), "{name} rows at {c} in {top}..{bottom}");
                let badges: Vec<_> = full.badges.iter().filter(|b| b.y >= top && b.y <= bottom).cloned().collect();
                assert_eq!(win.badges, badges, "{name} badges at {c}");
                let acts: Vec<_> = full.activations.iter().filter(|a| a.y1 + ROW_HEIGHT >= top && a.y0 <= bottom).cloned().collect();
                assert_eq!(win.activations, acts, "{name} activations at {c}");
                assert_eq!(
                    (win.columns, win.width, win.height, win.now_y, win.messages, win.requests),
                    (full.columns.clone(), full.width, full.height, full.now_y, full.messages, full.requests)
                );
            }
        }
    }
}

#[test]
fn extending_a_layout_in_chunks_equals_laying_out_the_whole_trace() {
    for (name, trace) in traces() {
        let whole = Layout::of(&trace);
        for chunk in [1, 3, 17] {
            let mut grown = Layout::new();
            let entries = trace.entries();
            let mut at = 0;
            while at < entries.len() {
                let end = (at + chunk).min(entries.len());
                // Overlapping input is fine: events already laid out are skipped.
                grown.extend(&entries[at.saturating_sub(1)..end]);
                at = end;
            }
            assert_eq!(grown, whole, "{name} in chunks of {chunk}");
        }
    }
}

/// alice spawned, then spawned again (a new incarnation) while idle, then
/// shut down and spawned a third time: the rows of the second and third
/// spawns, and the row where the shutdown's × is drawn (bob's spawn).
fn respawned() -> (Trace, [u64; 3]) {
    let alice = AgentName::parse("alice").unwrap();
    let mut t = Team::new("d", 1);
    t.spawn(&alice, "coder", false, Millis(0)).unwrap();
    t.send(&AgentName::lead(), &alice, "message", "first run", Millis(1)).unwrap();
    t.set_status(&alice, MemberStatus::Idle, Millis(1)).unwrap();
    t.spawn(&alice, "coder", false, Millis(2)).unwrap();
    let second = t.trace().len() as u64 - 1;
    t.set_status(&alice, MemberStatus::Shutdown, Millis(3)).unwrap();
    // The shutdown draws no row: its × is where the next row (bob's) starts.
    t.spawn(&AgentName::parse("bob").unwrap(), "tester", false, Millis(3)).unwrap();
    let shutdown = t.trace().len() as u64 - 1;
    t.spawn(&alice, "coder", false, Millis(4)).unwrap();
    let third = t.trace().len() as u64 - 1;
    t.send(&AgentName::lead(), &alice, "message", "third run", Millis(5)).unwrap();
    (t.trace().clone(), [second, shutdown, third])
}

#[test]
fn a_respawned_teammate_gets_a_new_lifeline_head_at_each_respawn_row() {
    use team_protocols::view::diagram::geometry::{lifeline, sticky_head, Shape};
    use team_protocols::view::i18n::Catalog;
    let (trace, [second, shutdown, third]) = respawned();
    let l = Layout::of(&trace);
    let d = l.diagram(trace.entries(), None, None);
    let alice = &d.columns[1];
    assert_eq!(d.columns.len(), 3, "one column for alice: the name is the same");
    let y = |seq: u64| l.y_of(seq);
    assert_eq!(
        alice.restarts,
        vec![Restart { y: y(second), ended_y: None }, Restart { y: y(third), ended_y: Some(y(shutdown)) }],
        "a head at each respawn; the second run ended at its shutdown"
    );
    assert_eq!((alice.ended_y, alice.status), (None, Some(MemberStatus::Working)), "the third run is running");
    let cat = Catalog::en();
    let it = lifeline(cat, alice, d.height);
    let heads: Vec<f64> =
        it.shapes.iter().filter_map(|s| if let Shape::Rect { y, class: Some("head"), .. } = s { Some(*y) } else { None }).collect();
    assert_eq!(heads, vec![alice.born_y + 1.0, y(second) + 1.0, y(third) + 1.0]);
    let words: Vec<&str> = it
        .shapes
        .iter()
        .filter_map(|s| if let Shape::Text { text, class: Some("head-status"), .. } = s { Some(text.as_str()) } else { None })
        .collect();
    assert_eq!(words, ["replaced", "shutdown", "working"]);
    assert_eq!(it.shapes.iter().filter(|s| matches!(s, Shape::Cross { .. })).count(), 1, "the second run's ×");
    // Each run's lifeline stops where the next head starts, or at its ×.
    let lines: Vec<(f64, f64)> =
        it.shapes.iter().filter_map(|s| if let Shape::Line { y1, y2, .. } = s { Some((*y1, *y2)) } else { None }).collect();
    assert_eq!(lines, vec![(alice.born_y + 35.0, y(second) + 1.0), (y(second) + 35.0, y(shutdown)), (y(third) + 35.0, d.height)]);

    // Scrolled past a head, the sticky row shows the run whose lifeline runs there.
    let word = |top: f64| {
        sticky_head(cat, alice, top).and_then(|h| {
            h.shapes
                .iter()
                .find_map(|s| if let Shape::Text { text, class: Some("head-status"), .. } = s { Some(text.clone()) } else { None })
        })
    };
    assert_eq!(word(alice.born_y - 100.0), None, "its head is still on screen");
    assert_eq!(word(y(second) - 20.0).as_deref(), Some("replaced"));
    assert_eq!(word(y(shutdown)).as_deref(), Some("shutdown"));
    assert_eq!(word(y(third) + 50.0).as_deref(), Some("working"));

    // Before the cursor reaches a respawn, there is no head for it.
    let before = l.diagram(trace.entries(), Some(second as usize), None);
    assert!(before.columns[1].restarts.is_empty());
    assert_eq!(l.diagram(trace.entries(), Some(third as usize + 1), None).columns[1].restarts.len(), 2);
}

#[test]
fn a_lifeline_is_drawn_by_incarnation_and_a_window_keeps_only_those_on_screen() {
    use team_protocols::view::diagram::geometry::{lifeline, lifeline_parts};
    use team_protocols::view::i18n::Catalog;
    let (trace, [second, shutdown, third]) = respawned();
    let l = Layout::of(&trace);
    let d = l.diagram(trace.entries(), None, None);
    let alice = &d.columns[1];
    let cat = Catalog::en();
    // Whole, the parts are the column's lifeline, in order.
    let parts = lifeline_parts(cat, alice, d.height, None);
    assert_eq!(parts.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [0, 1, 2], "one part per incarnation");
    let joined: Vec<_> = parts.iter().flat_map(|(_, it)| it.shapes.clone()).collect();
    assert_eq!(joined, lifeline(cat, alice, d.height).shapes);
    // A window at the bottom, below the third head: the third run only.
    let y = |seq: u64| l.y_of(seq);
    let at = d.height - 1.0;
    assert!(at > y(third) + 34.0 + ROW_HEIGHT);
    let shown: Vec<usize> = lifeline_parts(cat, alice, d.height, Some((at, at + 10.0))).into_iter().map(|(i, _)| i).collect();
    assert_eq!(shown, [2]);
    // A window over the second run's ×: the second run, not the third
    // (its head is below), drawn as when whole.
    let over = lifeline_parts(cat, alice, d.height, Some((y(shutdown) - 2.0, y(shutdown) + 2.0)));
    assert!(over.iter().any(|(i, _)| *i == 1) && !over.iter().any(|(i, _)| *i == 2), "second at {}: {over:?}", y(second));
    for (i, it) in &over {
        assert_eq!(it, &parts[*i].1, "a part on screen is drawn as in the whole lifeline");
    }
}

/// The gallery's respawn case: the restarted alice's head is drawn at the
/// row where the lead spawns her again, in the page and in the SVG export.
#[test]
fn the_gallery_respawn_counterexample_draws_the_restarted_alice_a_new_head() {
    use team_protocols::explore::gallery::{self, reproduce};
    use team_protocols::view::export::svg_of_run;
    use team_protocols::view::i18n::Catalog;
    let entry = gallery::by_id("stale-shutdown-after-respawn").unwrap();
    let report = reproduce(entry, false).unwrap();
    let trace = report.property(entry.property).and_then(|p| p.example.as_ref()).map(|e| e.trace.clone()).unwrap();
    let respawn = trace
        .entries()
        .iter()
        .filter(|e| matches!(&e.event, Event::MemberSpawned { name, .. } if name.as_str() == "alice"))
        .nth(1)
        .expect("alice is spawned twice")
        .seq;
    let l = Layout::of(&trace);
    let d = l.diagram(trace.entries(), None, None);
    assert_eq!(d.columns[1].restarts, vec![Restart { y: l.y_of(respawn), ended_y: None }]);
    let svg = svg_of_run(Catalog::en(), &trace, None, "respawn");
    assert_eq!(svg.matches(r#"<rect class="head""#).count(), 3, "the lead's head and alice's two");
    assert!(svg.contains(">replaced</text>"), "the first alice was replaced");
}

/// What a built row spans sideways and how far right it reaches, from its
/// text (`Layout::span_of` counts it without building the row).
fn span_of_row(row: &Row) -> Span {
    let (from, to) = match &row.kind {
        RowKind::Message { from_x, to_x, .. } if (to_x - from_x).abs() < 1.0 => (*from_x, from_x + 40.0),
        RowKind::Message { from_x, to_x, .. } | RowKind::Spawn { from_x, to_x, .. } => (*from_x, *to_x),
        RowKind::Transition { x, .. } | RowKind::Tool { x, .. } | RowKind::Failure { x, .. } => (*x, *x),
        RowKind::RunStarted { .. } | RowKind::RunFinished | RowKind::BudgetReached { .. } => {
            return Span { from: LEFT, to: LEFT, right: LEFT }
        }
    };
    let badge = match &row.kind {
        RowKind::Message { msg_type, request_id: Some(_), .. } if msg_type.is_request() => from.max(to) + BADGE_REACH,
        _ => 0.0,
    };
    Span { from, to, right: row_reach(&row.kind).max(badge) }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The layout builds a row's text only when the row is drawn: for any
    /// scenario, seed and fault, at cursors visited in any order, every row
    /// asked for alone (a window one row high), in any order, equals the
    /// eager fold's row (its span and reach, counted without building it,
    /// too), and so do the rows of any window and the diagram's width.
    #[test]
    fn rows_built_on_demand_equal_the_eager_rows_in_any_access_order(
        scenario in 0..scenarios::ALL.len(),
        seed in any::<u64>(),
        kind in 0u8..5,
        probability in 0.1f64..1.0,
        cursors in proptest::collection::vec(any::<proptest::sample::Index>(), 1..4),
        shuffle in any::<u64>(),
        windows in proptest::collection::vec((0.0f64..4000.0, 0.0f64..900.0), 0..6),
    ) {
        let (_, trace) = common::run_scenario(scenarios::ALL[scenario], seed, common::fault_plan(kind, probability));
        let layout = Layout::of(&trace);
        for at in cursors {
            let cursor = at.index(trace.len() + 1);
            let eager = reference_layout(&trace, Some(cursor));
            // The width the page sizes its canvas by, read without building a row.
            prop_assert_eq!(layout.width_at(Some(cursor)), eager.width, "width at cursor {}", cursor);
            // Every row, in an order picked by `shuffle` (a seeded
            // Fisher–Yates: the access order varies from case to case).
            let mut order: Vec<usize> = (0..eager.rows.len()).collect();
            let mut state = shuffle | 1;
            for i in (1..order.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                order.swap(i, (state % (i as u64 + 1)) as usize);
            }
            for i in order {
                let row = &eager.rows[i];
                let alone = layout.diagram(trace.entries(), Some(cursor), Some((row.y + 1.0, row.y + 2.0)));
                prop_assert_eq!(&alone.rows, std::slice::from_ref(row), "row {} at cursor {}", i, cursor);
                prop_assert_eq!(layout.span_of(row.seq), Some(span_of_row(row)), "the span of row {}, counted without building it", i);
            }
            for &(top, height) in &windows {
                let win = layout.diagram(trace.entries(), Some(cursor), Some((top, top + height)));
                prop_assert_eq!(&win.rows[..], eager.rows_between(top, top + height), "window {}..{} at cursor {}", top, top + height, cursor);
            }
        }
    }
}
