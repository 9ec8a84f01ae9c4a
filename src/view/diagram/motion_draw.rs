//! Moving messages on the diagram: the places `motion` computes (messages
//! waiting in an inbox, held in flight, dropped) in SVG units, as
//! `geometry` items for what stays, and `Mover`s for what moves at the step
//! that reached the cursor (an envelope's path, forward or back).
//!
//! Owns the drawing of moving messages only. Pure and native; the live view
//! (`ui::diagram::canvas`) turns movers into CSS animations and decides their
//! duration.

use std::collections::BTreeMap;

use crate::protocol::AgentName;
use crate::view::diagram::geometry::{envelope, Item, ItemKind, Shape, CROSS_HALF};
use crate::view::diagram::layout::{Column, Diagram, COLUMN_WIDTH, ROW_HEIGHT};
use crate::view::diagram::metrics::text_columns;
use crate::view::diagram::motion::{Direction, Motion, Movement, Step};
use crate::view::i18n::{tr, Catalog};

/// How far along its arrow a held message is parked, as a share of the gap
/// next to its sender (clear of the lifelines on both sides for its word).
const PARK_SHARE: f64 = 0.35;
/// How far a dropped message falls below its ×.
const FALL: f64 = 14.0;
/// How many envelopes an inbox stacks at most (its count says the rest).
const STACK: usize = 3;

/// Something that moves at this step, for the live view to animate: an
/// envelope (drawn around (0, 0)) that goes through `path` and ends as
/// `end` says. With reduced motion the view fades it in and out at the
/// path's last point instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Mover {
    /// CSS classes: `mover` plus the movement (`travel`, `park`, `release`,
    /// `fall`, `take-in`) and `back` when going back.
    pub class: String,
    /// Three points it passes through, in SVG units (the last two may be
    /// equal).
    pub path: [(f64, f64); 3],
    /// What it draws, around (0, 0).
    pub shapes: Vec<Shape>,
    /// A stable key for the step (the event and direction).
    pub key: String,
}

/// The motion as drawn: what stays (inboxes, held messages) as geometry
/// items, and what moves.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drawing {
    /// Inboxes and held messages, with the classes the step adds
    /// (`arriving` on an inbox a message just reached, `returning` on one
    /// whose messages just came back out).
    pub items: Vec<Item>,
    /// Envelopes moving at this step.
    pub movers: Vec<Mover>,
}

/// The y where the inboxes sit: the middle of the row under the last
/// drawn row ("now").
pub fn inbox_y(d: &Diagram) -> f64 {
    d.now_y + ROW_HEIGHT / 2.0
}

/// The y of the `i`th held message's row, under the inboxes' row.
pub fn held_y(d: &Diagram, i: usize) -> f64 {
    d.now_y + ROW_HEIGHT * (i as f64 + 1.0) + ROW_HEIGHT / 2.0
}

/// Grows `d` by the held row a message is leaving at a step back over the
/// fault that held it: at the earlier cursor it is no longer held, but its
/// envelope still travels back along that row to its sender.
pub fn make_room(d: &mut Diagram, motion: &Motion) {
    if motion.step.as_ref().is_some_and(|s| s.direction == Direction::Back && matches!(s.movement, Movement::Park { .. })) {
        d.height += ROW_HEIGHT;
    }
}

/// Where a held message from `from_x` to `to_x` is parked: in the gap next
/// to its sender, part of the way along.
pub fn park_x(from_x: f64, to_x: f64) -> f64 {
    if (to_x - from_x).abs() < 1.0 {
        return from_x + 20.0;
    }
    let gap = (to_x - from_x).abs().min(COLUMN_WIDTH);
    from_x + (to_x - from_x).signum() * gap * PARK_SHARE
}

fn x_of(columns: &[Column], name: &AgentName) -> Option<f64> {
    columns.iter().find(|c| &c.name == name).map(|c| c.x)
}

/// The x where a message's arrow ends (a message to oneself is a short
/// arrow to the right).
fn arrow_end(from_x: f64, to_x: f64) -> f64 {
    if (to_x - from_x).abs() < 1.0 {
        from_x + 40.0
    } else {
        to_x
    }
}

fn bare(kind: ItemKind, class: String, top: f64, shapes: Vec<Shape>) -> Item {
    Item { kind, class, seq: None, request: None, role: None, label: None, top, bottom: top + ROW_HEIGHT, shapes }
}

/// Draws `motion` on diagram `d` (as of the same cursor): the inboxes on
/// their lifelines in the row under the last drawn row, each held message
/// parked along its way in a row of its own under that, and the movers of
/// the step. `row_y` is the top of the row showing an event (the whole
/// layout's, as a row being undone is not in `d`).
pub fn draw(cat: &Catalog, motion: &Motion, d: &Diagram, row_y: impl Fn(u64) -> f64) -> Drawing {
    let step = motion.step.as_ref();
    let forward = step.is_some_and(|s| s.direction == Direction::Forward);
    let mut items = Vec::new();
    for inbox in &motion.inboxes {
        let Some(x) = x_of(&d.columns, &inbox.agent) else { continue };
        let y = inbox_y(d);
        let n = inbox.waiting.len();
        let extra = match step.map(|s| (&s.movement, s.direction)) {
            Some((Movement::Travel { to, .. } | Movement::Release { to, .. }, Direction::Forward)) if *to == inbox.agent => " arriving",
            Some((Movement::TakeIn { agent, .. }, Direction::Back)) if *agent == inbox.agent => " returning",
            _ => "",
        };
        let mut shapes = Vec::new();
        for k in (0..n.min(STACK)).rev() {
            let o = 3.0 * k as f64;
            shapes.extend(envelope(x + o, y - o));
        }
        // How many of each type (an inbox can hold thousands in a long run).
        let mut by_type: BTreeMap<&str, usize> = BTreeMap::new();
        for t in &inbox.types {
            *by_type.entry(t.as_str()).or_default() += 1;
        }
        let types: Vec<String> = by_type.iter().map(|(t, k)| format!("{k} {t}")).collect();
        shapes.push(Shape::Tooltip(format!("{}: {}", inbox.agent, types.join(", "))));
        let mut stack = bare(ItemKind::Inbox, format!("inbox-stack{extra}"), y - ROW_HEIGHT / 2.0, shapes);
        stack.role = Some("img");
        stack.label = Some(tr!(cat, "diagram-inbox", name = inbox.agent.as_str(), count = n));
        items.push(stack);
        let digits = n.to_string();
        let width = digits.len() as f64 * 7.3 + 10.0;
        let pill = vec![
            Shape::Rect { x: x + 19.0, y: y - 9.0, width, height: 18.0, rx: 9.0, class: Some("inbox-pill") },
            Shape::Text { x: x + 24.0, y: y + 4.5, text: digits, class: Some("inbox-digits") },
        ];
        items.push(bare(ItemKind::Inbox, format!("inbox-count{extra}"), y - ROW_HEIGHT / 2.0, pill));
    }
    for (i, h) in motion.held.iter().enumerate() {
        let (Some(fx), Some(tx)) = (x_of(&d.columns, &h.from), x_of(&d.columns, &h.to)) else { continue };
        let y = held_y(d, i);
        let end = arrow_end(fx, tx);
        let px = park_x(fx, tx);
        let arriving = step
            .is_some_and(|s| matches!(&s.movement, Movement::Park { since, .. } | Movement::Release { since, .. } if *since == h.since));
        let mut shapes = vec![Shape::Line { x1: fx, y1: y, x2: end, y2: y, class: Some("held-path"), head: None }];
        shapes.extend(envelope(px, y));
        let hold = cat.t(&format!("diagram-hold-{}", h.hold.as_str()));
        let said =
            tr!(cat, "diagram-held-label", from = h.from.as_str(), to = h.to.as_str(), msg_type = h.msg_type.as_str(), hold = hold.clone());
        shapes.push(Shape::Tooltip(said.clone()));
        let class = format!("held-msg{}", if arriving { " arriving" } else { "" });
        let mut it = bare(ItemKind::Held, class, y - ROW_HEIGHT / 2.0, shapes);
        it.seq = Some(h.since);
        it.role = Some("img");
        it.label = Some(said);
        items.push(it);
        let word = tr!(cat, "diagram-held", hold = hold);
        let width = text_columns(&word) * 7.3;
        let wx = if end >= fx { px + 14.0 } else { px - 14.0 - width };
        let label = vec![Shape::Text { x: wx, y: y - 5.0, text: word, class: Some("held-word") }];
        items.push(bare(ItemKind::Held, "held-label".into(), y - ROW_HEIGHT / 2.0, label));
    }
    let movers = step.and_then(|s| mover(s, motion, d, &row_y)).into_iter().collect();
    let _ = forward;
    Drawing { items, movers }
}

/// The mover of one step, if it moves an envelope.
fn mover(s: &Step, motion: &Motion, d: &Diagram, row_y: &impl Fn(u64) -> f64) -> Option<Mover> {
    let back = s.direction == Direction::Back;
    let x = |name: &AgentName| x_of(&d.columns, name);
    let mid = |row: u64| row_y(row) + ROW_HEIGHT / 2.0;
    let (kind, path): (&str, [(f64, f64); 3]) = match &s.movement {
        Movement::Travel { row, from, to } => {
            let (fx, tx) = (x(from)?, x(to)?);
            let (y, end) = (mid(*row), arrow_end(fx, tx));
            let inbox = (tx, inbox_y(d));
            if back {
                ("travel", [(end, y), (fx, y), (fx, y)])
            } else {
                ("travel", [(fx, y), (end, y), inbox])
            }
        }
        Movement::Park { since, from, to } => {
            let (fx, tx) = (x(from)?, x(to)?);
            let px = park_x(fx, tx);
            if back {
                // Back along the held row it had (`make_room` keeps that
                // row in the drawing while it returns).
                let y = held_y(d, motion.held.iter().filter(|h| h.since < *since).count());
                ("park", [(px, y), (fx, y), (fx, y)])
            } else {
                let i = motion.held.iter().position(|h| h.since == *since)?;
                let y = held_y(d, i);
                ("park", [(fx, y), (px, y), (px, y)])
            }
        }
        Movement::Release { row, since, from, to } => {
            let (fx, tx) = (x(from)?, x(to)?);
            let (y, px, end) = (mid(*row), park_x(fx, tx), arrow_end(fx, tx));
            if back {
                let i = motion.held.iter().position(|h| h.since == *since)?;
                ("release", [(tx, inbox_y(d)), (px, held_y(d, i)), (px, held_y(d, i))])
            } else {
                ("release", [(px, y), (end, y), (tx, inbox_y(d))])
            }
        }
        Movement::Fall { row, from, to } => {
            let (fx, tx) = (x(from)?, x(to)?);
            let (y, end) = (mid(*row), arrow_end(fx, tx));
            let cx = end - (end - fx).signum() * (2.0 + CROSS_HALF);
            if back {
                ("fall", [(cx, y + FALL), (cx, y), (fx, y)])
            } else {
                ("fall", [(fx, y), (cx, y), (cx, y + FALL)])
            }
        }
        Movement::TakeIn { agent, .. } => {
            let ax = x(agent)?;
            let y = inbox_y(d);
            if back {
                ("take-in", [(ax, y - 14.0), (ax, y - 7.0), (ax, y)])
            } else {
                ("take-in", [(ax, y), (ax, y - 7.0), (ax, y - 14.0)])
            }
        }
        Movement::Badge { .. } | Movement::ShutDown { .. } => return None,
    };
    let direction = if back { " back" } else { "" };
    Some(Mover { class: format!("mover {kind}{direction}"), path, shapes: envelope(0.0, 0.0), key: format!("{}{direction}", s.seq) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::FaultAction;
    use crate::view::diagram::layout::Layout;
    use crate::view::diagram::motion::tests::{faulty, handshake, is_sent, seq_of};
    use crate::view::diagram::motion::Flights;

    #[test]
    fn back_over_the_fault_that_held_a_message_returns_it_along_its_held_row() {
        let trace = faulty(FaultAction::Delay { ms: 5 });
        let layout = Layout::of(&trace);
        let f = Flights::of(trace.entries());
        let held = seq_of(&trace, |e| matches!(e, crate::protocol::Event::FaultApplied { .. }));
        // Forward onto the fault: parked on the first held row.
        let d = layout.diagram(trace.entries(), Some(held + 1), None);
        let on = draw(Catalog::en(), &f.at(held + 1, Some(held)), &d, |seq| layout.y_of(seq));
        let row = on.movers[0].path[2].1;
        assert_eq!(row, held_y(&d, 0));
        // Back off it: the same row, back to the sender, inside the drawing.
        let motion = f.at(held, Some(held + 1));
        let mut d = layout.diagram(trace.entries(), Some(held), None);
        make_room(&mut d, &motion);
        let back = draw(Catalog::en(), &motion, &d, |seq| layout.y_of(seq));
        assert!(back.movers[0].class.contains("park back"), "{:?}", back.movers[0]);
        assert!(back.movers[0].path.iter().all(|p| p.1 == row), "along the held row, not the inbox row: {:?}", back.movers[0].path);
        assert_ne!(row, inbox_y(&d));
        assert!(row <= d.height, "inside the drawing");
    }

    #[test]
    fn every_step_of_every_fault_is_drawn_on_the_diagram_without_panics() {
        for action in [FaultAction::Drop, FaultAction::Delay { ms: 5 }, FaultAction::Duplicate, FaultAction::Reorder] {
            let trace = faulty(action);
            let layout = Layout::of(&trace);
            let f = Flights::of(trace.entries());
            for shown in 0..=trace.len() {
                for previous in [shown.checked_sub(1), Some(shown + 1), None] {
                    let motion = f.at(shown, previous);
                    let mut d = layout.diagram(trace.entries(), Some(shown), None);
                    make_room(&mut d, &motion);
                    let drawing = draw(Catalog::en(), &motion, &d, |seq| layout.y_of(seq));
                    for m in &drawing.movers {
                        for (x, y) in m.path {
                            assert!(x.is_finite() && (0.0..=d.height).contains(&y), "{m:?} inside the diagram of height {}", d.height);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_travelling_message_goes_along_its_arrow_then_down_into_the_inbox() {
        let trace = handshake();
        let layout = Layout::of(&trace);
        let f = Flights::of(trace.entries());
        let sent = seq_of(&trace, is_sent);
        let d = layout.diagram(trace.entries(), Some(sent + 1), None);
        let drawing = draw(Catalog::en(), &f.at(sent + 1, Some(sent)), &d, |seq| layout.y_of(seq));
        let (lead, alice) = (d.columns[0].x, d.columns[1].x);
        let y = layout.y_of(sent as u64) + ROW_HEIGHT / 2.0;
        assert_eq!(drawing.movers.len(), 1);
        assert_eq!(drawing.movers[0].path, [(lead, y), (alice, y), (alice, inbox_y(&d))]);
        let inbox: Vec<&Item> = drawing.items.iter().filter(|i| i.kind == ItemKind::Inbox).collect();
        assert!(inbox.iter().all(|i| i.class.ends_with(" arriving")), "{inbox:?}");
        let back =
            draw(Catalog::en(), &f.at(sent, Some(sent + 1)), &layout.diagram(trace.entries(), Some(sent), None), |seq| layout.y_of(seq));
        assert_eq!(back.movers[0].path[0], (alice, y), "back starts at the recipient");
        assert_eq!(back.movers[0].path[2], (lead, y), "and ends at the sender");
        assert!(back.movers[0].class.contains("back"));
    }
}
