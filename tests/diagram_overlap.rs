//! A readable diagram (issue 11, item 4), checked on the geometry both the
//! live view and the SVG export draw: for each of the six scenarios, at the
//! end of the run and at every cursor on the way, no text overlaps another
//! text, a badge, a tool note, a lifeline head or an activation bar; no text
//! crosses a lifeline unless it sits on an opaque plate (a run banner); a
//! tool note and a badge stay between the lifelines around them. The same
//! holds with each fault (drop, delay, duplicate, reorder) on each protocol
//! message type, every such run included, at every cursor, with inboxes and
//! held messages drawn.
//!
//! Text boxes are estimated from the stylesheet (13 px text, 14 px agent
//! names; `text-anchor: middle` for labels, badges and heads) with the
//! character widths measured in Chromium's default font.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use team_protocols::protocol::{check, Event, FaultAction, FaultPlan, FaultRule, MessageType, Trace};
use team_protocols::runtime::scenarios;
use team_protocols::view::diagram::geometry::{draw, Geometry, ItemKind, Shape};
use team_protocols::view::diagram::layout::{layout, Layout, ROW_HEIGHT};
use team_protocols::view::diagram::metrics::text_columns;
use team_protocols::view::diagram::motion_draw;
use team_protocols::view::i18n::{Catalog, Locale};

/// Width of one character of 13 px text (regular), as measured on the
/// page's screenshots in Chromium's default sans-serif (27 characters of
/// `shutdown_request [4607cc28]` take 197 px); bold text is wider (28
/// characters of a transition note take 227 px).
const CHAR: f64 = 7.3;
const BOLD_CHAR: f64 = 8.1;
/// Lines closer than this to a text's box count as touching it.
const MARGIN: f64 = 1.0;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Box2 {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Box2 {
    fn overlaps(&self, o: &Box2) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
    fn contains(&self, o: &Box2) -> bool {
        self.x0 <= o.x0 && o.x1 <= self.x1 && self.y0 <= o.y0 && o.y1 <= self.y1
    }
    /// Whether the vertical segment x, y0..y1 passes through this box.
    fn crossed_by_vertical(&self, x: f64, y0: f64, y1: f64) -> bool {
        self.x0 - MARGIN < x && x < self.x1 + MARGIN && y0 < self.y1 && self.y0 < y1
    }
}

/// One text as drawn: its box and who drew it.
#[derive(Debug, Clone)]
struct Placed {
    item: usize,
    kind: ItemKind,
    text: String,
    bounds: Box2,
    /// Drawn on an opaque plate of its own (nothing behind it shows).
    plated: bool,
}

fn text_box(kind: ItemKind, class: Option<&str>, x: f64, y: f64, text: &str) -> Box2 {
    let bold = matches!(kind, ItemKind::Transition | ItemKind::Badge) || class == Some("head-name");
    let size = if class == Some("head-name") || kind == ItemKind::Violation { 14.0 } else { 13.0 };
    let width = text_columns(text) * if bold { BOLD_CHAR } else { CHAR } * size / 13.0;
    let middle = matches!(kind, ItemKind::Spawn | ItemKind::Message | ItemKind::Badge | ItemKind::Lifeline);
    let x0 = if middle { x - width / 2.0 } else { x };
    Box2 { x0, y0: y - 0.8 * size, x1: x0 + width, y1: y + 0.25 * size }
}

struct Drawn {
    texts: Vec<Placed>,
    /// (item, kind, rect) of every filled rectangle.
    rects: Vec<(usize, ItemKind, Box2)>,
    /// Lifelines: x, y0, y1.
    lifelines: Vec<(f64, f64, f64)>,
}

fn collect(g: &Geometry) -> Drawn {
    let mut d = Drawn { texts: Vec::new(), rects: Vec::new(), lifelines: Vec::new() };
    for (i, it) in g.items().enumerate() {
        let plated = it.shapes.iter().any(|s| matches!(s, Shape::Rect { class: Some("plate"), .. }));
        for s in &it.shapes {
            match s {
                Shape::Text { x, y, text, class } => d.texts.push(Placed {
                    item: i,
                    kind: it.kind,
                    text: text.clone(),
                    bounds: text_box(it.kind, *class, *x, *y, text),
                    plated,
                }),
                Shape::Rect { x, y, width, height, class, .. } if *class != Some("plate") => {
                    d.rects.push((i, it.kind, Box2 { x0: *x, y0: *y, x1: x + width, y1: y + height }))
                }
                Shape::Line { x1, y1, x2, y2, class: Some("life"), .. } if (x1 - x2).abs() < 0.5 => d.lifelines.push((*x1, *y1, *y2)),
                _ => {}
            }
        }
    }
    d
}

/// Every collision in `g`, in words.
fn collisions(g: &Geometry) -> Vec<String> {
    let d = collect(g);
    let mut found = Vec::new();
    for (a, t) in d.texts.iter().enumerate() {
        for u in &d.texts[a + 1..] {
            if t.bounds.overlaps(&u.bounds) {
                found.push(format!("text {:?} ({:?}) overlaps text {:?} ({:?})", t.text, t.kind, u.text, u.kind));
            }
        }
        for (item, kind, r) in &d.rects {
            if *item == t.item {
                if !r.contains(&t.bounds) {
                    found.push(format!("text {:?} ({:?}) spills out of its own box", t.text, t.kind));
                }
            } else if r.overlaps(&t.bounds) && !(t.plated && *kind == ItemKind::Activation) {
                found.push(format!("text {:?} ({:?}) overlaps a {kind:?} box at x {:.0}..{:.0}", t.text, t.kind, r.x0, r.x1));
            }
        }
        if !t.plated && t.kind != ItemKind::Lifeline {
            for (x, y0, y1) in &d.lifelines {
                if t.bounds.crossed_by_vertical(*x, *y0, *y1) {
                    found.push(format!("text {:?} ({:?}) crosses the lifeline at x {x:.0}", t.text, t.kind));
                }
            }
        }
    }
    for (item, kind, r) in &d.rects {
        if !matches!(kind, ItemKind::Tool | ItemKind::Badge) {
            continue;
        }
        for (x, y0, y1) in &d.lifelines {
            if r.crossed_by_vertical(*x, *y0, *y1) {
                found.push(format!("a {kind:?} box at x {:.0}..{:.0} crosses the lifeline at x {x:.0}", r.x0, r.x1));
            }
        }
        for (other, other_kind, o) in &d.rects {
            if other != item && matches!(other_kind, ItemKind::Activation | ItemKind::Badge | ItemKind::Tool) && r.overlaps(o) {
                found.push(format!("a {kind:?} box at x {:.0}..{:.0} overlaps a {other_kind:?} box", r.x0, r.x1));
            }
        }
    }
    found
}

#[test]
fn no_label_note_or_badge_collides_in_any_scenario_at_any_cursor() {
    let mut report = Vec::new();
    for (scenario, locale) in scenarios::ALL.into_iter().flat_map(|s| Locale::ALL.map(|l| (s, l))) {
        let trace = common::scenario_trace(scenario);
        let violations = check(&trace);
        // Every cursor: an open activation or a running tool note is drawn
        // differently from its finished self. The diagram's own words are
        // in each language.
        for cursor in 1..=trace.len() {
            let g = draw(Catalog::get(locale), &layout(&trace, Some(cursor)), &violations, cursor);
            for c in collisions(&g) {
                let line = format!("{} ({}): {c}", scenario.id, locale.tag());
                if !report.contains(&line) {
                    report.push(line);
                }
            }
        }
    }
    assert!(report.is_empty(), "{} collision(s):\n{}", report.len(), report.join("\n"));
}

#[test]
fn the_check_finds_a_label_that_crosses_a_lifeline_and_texts_that_overlap() {
    // The check itself must be able to fail: a spawn label drawn across the
    // lifeline of the column between, and two texts on one spot.
    let trace = common::scenario_trace(scenarios::OUT_OF_ORDER);
    let mut g = draw(Catalog::en(), &layout(&trace, None), &check(&trace), trace.len());
    let x = g.lifelines[1].shapes.iter().find_map(|s| match s {
        Shape::Line { x1, class: Some("life"), .. } => Some(*x1),
        _ => None,
    });
    let row = g.rows.iter_mut().find(|it| it.kind == ItemKind::Message).expect("a message row");
    let y = row.top + ROW_HEIGHT;
    row.shapes.push(Shape::Text { x: x.unwrap(), y, text: "across".into(), class: None });
    row.shapes.push(Shape::Text { x: x.unwrap(), y, text: "across".into(), class: None });
    let found = collisions(&g);
    assert!(found.iter().any(|c| c.contains("\"across\" (Message) crosses the lifeline")), "{found:?}");
    assert!(found.iter().any(|c| c.contains("\"across\" (Message) overlaps text \"across\"")), "{found:?}");
}

/// Every scenario run with one fault rule on one protocol message type,
/// for each fault action: named, with its trace. Every one of these runs
/// ends and replays (`common::run_scenario` panics with the reason if one
/// does not), so none is left out of the checks below; each action fires in
/// at least one of them.
fn faulted_runs() -> Vec<(String, Trace)> {
    let mut runs = Vec::new();
    for action in [FaultAction::Drop, FaultAction::Delay { ms: 400 }, FaultAction::Duplicate, FaultAction::Reorder] {
        let mut fired = 0;
        for scenario in scenarios::ALL {
            for msg_type in [MessageType::SHUTDOWN_RESPONSE, MessageType::PLAN_APPROVAL_RESPONSE, MessageType::SHUTDOWN_REQUEST] {
                let rule = FaultRule { msg_type: Some(msg_type), ..FaultRule::new(action.clone()) };
                let (_, trace) = common::run_scenario(scenario, common::SEED, FaultPlan::new(vec![rule]));
                fired += usize::from(trace.entries().iter().any(|e| matches!(e.event, Event::FaultApplied { .. })));
                runs.push((format!("{} with {action:?} on {msg_type}", scenario.id), trace));
            }
        }
        assert!(fired >= 6, "{action:?} fired in only {fired} runs");
    }
    runs
}

#[test]
fn no_collisions_either_when_faults_mark_the_protocol_messages() {
    let mut report = Vec::new();
    for (name, trace) in faulted_runs() {
        let violations = check(&trace);
        for (cursor, locale) in (1..=trace.len()).flat_map(|c| Locale::ALL.map(|l| (c, l))) {
            let g = draw(Catalog::get(locale), &layout(&trace, Some(cursor)), &violations, cursor);
            for c in collisions(&g) {
                let line = format!("{name} ({}): {c}", locale.tag());
                if !report.contains(&line) {
                    report.push(line);
                }
            }
        }
    }
    assert!(report.is_empty(), "{} collision(s):\n{}", report.len(), report.join("\n"));
}

/// The diagram at `cursor` with what stays of the moving messages (inboxes
/// under the last row, held messages parked in rows of their own) drawn in.
fn with_motion(cat: &Catalog, trace: &Trace, whole: &Layout, cursor: usize) -> Geometry {
    let d = whole.diagram(trace.entries(), Some(cursor), None);
    let mut g = draw(cat, &d, &check(trace), cursor);
    let m = whole.flights().at(cursor, cursor.checked_sub(1));
    let drawn = motion_draw::draw(cat, &m, &d, |seq| whole.y_of(seq));
    assert!(drawn.items.iter().all(|it| it.bottom <= d.height), "inside the diagram at {cursor}");
    // Every step's envelope, forward and back, moves inside the drawing
    // (grown by the row a message leaves when a step back un-holds it).
    let back_motion = whole.flights().at(cursor, Some(cursor + 1));
    let mut back_d = d.clone();
    motion_draw::make_room(&mut back_d, &back_motion);
    let back = motion_draw::draw(cat, &back_motion, &back_d, |seq| whole.y_of(seq));
    for (m, h) in drawn.movers.iter().map(|m| (m, d.height)).chain(back.movers.iter().map(|m| (m, back_d.height))) {
        assert!(m.path.iter().all(|(x, y)| (0.0..=d.width).contains(x) && (0.0..=h).contains(y)), "{m:?} at {cursor}");
    }
    g.rows.extend(drawn.items);
    g
}

#[test]
fn inboxes_and_held_messages_collide_with_nothing_at_any_cursor() {
    let mut report = Vec::new();
    let (mut inboxes, mut held) = (0, 0);
    let mut traces: Vec<(String, Trace)> = scenarios::ALL.iter().map(|s| (s.id.to_string(), common::scenario_trace(*s))).collect();
    traces.extend(faulted_runs());
    for (name, trace) in &traces {
        let whole = Layout::of(trace);
        for (cursor, locale) in (1..=trace.len()).flat_map(|c| Locale::ALL.map(|l| (c, l))) {
            let g = with_motion(Catalog::get(locale), trace, &whole, cursor);
            inboxes += g.rows.iter().filter(|it| it.kind == ItemKind::Inbox).count();
            held += g.rows.iter().filter(|it| it.kind == ItemKind::Held).count();
            for c in collisions(&g) {
                let line = format!("{name} ({}): {c}", locale.tag());
                if !report.contains(&line) {
                    report.push(line);
                }
            }
        }
    }
    assert!(inboxes > 0 && held > 0, "the runs show inboxes ({inboxes}) and held messages ({held})");
    assert!(report.is_empty(), "{} collision(s):\n{}", report.len(), report.join("\n"));
}

/// Every text, box and line of `g` that reaches past the drawing's left
/// (0) or right (`g.width`) edge, in words.
fn outside(g: &Geometry) -> Vec<String> {
    let d = collect(g);
    let mut found = Vec::new();
    for t in &d.texts {
        if t.bounds.x0 < 0.0 || t.bounds.x1 > g.width {
            found.push(format!(
                "text {:?} ({:?}) spans x {:.0}..{:.0}, the drawing 0..{:.0}",
                t.text, t.kind, t.bounds.x0, t.bounds.x1, g.width
            ));
        }
    }
    for (_, kind, r) in &d.rects {
        if r.x0 < 0.0 || r.x1 > g.width {
            found.push(format!("a {kind:?} box spans x {:.0}..{:.0}, the drawing 0..{:.0}", r.x0, r.x1, g.width));
        }
    }
    for it in g.items() {
        for s in &it.shapes {
            if let Shape::Line { x1, x2, .. } = s {
                if x1.min(*x2) < 0.0 || x1.max(*x2) > g.width {
                    found.push(format!("a {:?} line spans x {x1:.0}..{x2:.0}, the drawing 0..{:.0}", it.kind, g.width));
                }
            }
        }
    }
    found
}

#[test]
fn every_label_and_badge_lies_within_the_diagram_width_in_every_scenario_at_every_cursor() {
    let mut report = Vec::new();
    for scenario in scenarios::ALL {
        let trace = common::scenario_trace(scenario);
        let whole = Layout::of(&trace);
        for (cursor, locale) in (1..=trace.len()).flat_map(|c| Locale::ALL.map(|l| (c, l))) {
            // With the inboxes and held messages the live view draws.
            let g = with_motion(Catalog::get(locale), &trace, &whole, cursor);
            for c in outside(&g) {
                let line = format!("{} ({}): {c}", scenario.id, locale.tag());
                if !report.contains(&line) {
                    report.push(line);
                }
            }
        }
    }
    assert!(report.is_empty(), "{} thing(s) past the edge:\n{}", report.len(), report.join("\n"));
}

#[test]
fn the_width_check_finds_a_badge_past_the_right_edge() {
    // The check itself must be able to fail: the same drawing, narrowed.
    let trace = common::scenario_trace(scenarios::SHUTDOWN);
    let mut g = draw(Catalog::en(), &layout(&trace, None), &check(&trace), trace.len());
    assert!(outside(&g).is_empty(), "{:?}", outside(&g));
    let badge_right = g.badges.iter().flat_map(|b| &b.shapes).filter_map(|s| match s {
        Shape::Rect { x, width, .. } => Some(x + width),
        _ => None,
    });
    g.width = badge_right.fold(0.0, f64::max) - 1.0;
    assert!(outside(&g).iter().any(|c| c.contains("a Badge box spans")), "{:?}", outside(&g));
}
