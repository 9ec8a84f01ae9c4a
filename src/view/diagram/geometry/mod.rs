//! The drawing of a laid-out diagram as plain primitives: the one geometry
//! that both the live view (`ui::diagram::canvas`, Leptos) and the SVG export
//! (`export::svg`) draw, so the two cannot drift apart.
//!
//! Owns what is drawn where: lines with their arrow heads, crosses (a
//! dropped message's end, a lifeline's end), texts with their classes,
//! rects, tooltips, grouped into items (a row, a lifeline, an activation, a
//! badge, a violation mark) that carry their CSS classes, event number and
//! request. Pure and native: it reads a `Diagram` (from `diagram::layout`)
//! and the checker's `Violation`s, and must not touch the DOM, signals or
//! the selection (the live view adds highlight classes and click handlers
//! on top; the export adds none). A row's own drawing is `row`'s.

use std::collections::BTreeMap;

use crate::protocol::{MemberStatus, RequestId, Tracker, Violation};
use crate::view::diagram::layout::{Activation, Badge, Column, Diagram, RowKind, PALETTE_SIZE, ROW_HEIGHT};
use crate::view::i18n::{tr, Catalog};
use crate::view::words::findings;

mod fingerprint;
#[cfg(test)]
pub(crate) mod fixtures;
mod row;
#[cfg(test)]
mod tests;

pub use row::{row, said_on_arrow, said_target, SaidTarget};

/// Where run banners and violation marks start: marks at the left edge,
/// banners after them.
pub const MARK_X: f64 = 4.0;
/// Half the width and height of an envelope (a message in flight or waiting).
const ENVELOPE: (f64, f64) = (10.0, 7.0);
/// The width of one character of what was said under an arrow (13 px
/// italic, as measured in Chromium's default sans-serif), for cutting it to
/// the arrow's length.
pub const SAID_CHAR_WIDTH: f64 = 7.3;
/// Half the size of a cross (a dropped message's end, a lifeline's end).
pub const CROSS_HALF: f64 = 7.0;

/// One drawable primitive. Both renderers match on it exhaustively (no
/// wildcard arm), so a new kind cannot be added without drawing it in the
/// live view and serialising it in the SVG export.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A straight line, optionally ending in an arrow head.
    Line {
        /// Start x.
        x1: f64,
        /// Start y.
        y1: f64,
        /// End x.
        x2: f64,
        /// End y.
        y2: f64,
        /// CSS class of the line itself (e.g. `life`).
        class: Option<&'static str>,
        /// The arrow head at the end, if any.
        head: Option<Head>,
    },
    /// An × of two lines centred on (`x`, `y`), as its own labelled group.
    Cross {
        /// Centre x.
        x: f64,
        /// Centre y.
        y: f64,
        /// Half the width (and height) of the ×.
        half: f64,
        /// CSS class: `drop-x` (a dropped message) or `cross` (a lifeline's
        /// end).
        class: &'static str,
        /// Its accessible name (`dropped`, `alice shut down`).
        label: String,
    },
    /// A line of text.
    Text {
        /// Anchor x.
        x: f64,
        /// Baseline y.
        y: f64,
        /// The text (unescaped).
        text: String,
        /// CSS class, if any.
        class: Option<&'static str>,
    },
    /// A rectangle.
    Rect {
        /// Left.
        x: f64,
        /// Top.
        y: f64,
        /// Width.
        width: f64,
        /// Height.
        height: f64,
        /// Corner radius.
        rx: f64,
        /// CSS class, if any.
        class: Option<&'static str>,
    },
    /// A tooltip for the enclosing item (`<title>`).
    Tooltip(String),
}

/// The kinds of `Shape`, for tests that every kind is produced and drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ShapeKind {
    /// `Shape::Line`.
    Line,
    /// `Shape::Cross`.
    Cross,
    /// `Shape::Text`.
    Text,
    /// `Shape::Rect`.
    Rect,
    /// `Shape::Tooltip`.
    Tooltip,
}

impl ShapeKind {
    /// Every kind, in declaration order.
    pub const ALL: [ShapeKind; 5] = [ShapeKind::Line, ShapeKind::Cross, ShapeKind::Text, ShapeKind::Rect, ShapeKind::Tooltip];
}

impl Shape {
    /// Which kind of primitive this is.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Line { .. } => ShapeKind::Line,
            Shape::Cross { .. } => ShapeKind::Cross,
            Shape::Text { .. } => ShapeKind::Text,
            Shape::Rect { .. } => ShapeKind::Rect,
            Shape::Tooltip(_) => ShapeKind::Tooltip,
        }
    }
}

/// An arrow head: a marker in a request's colour slot, or the plain one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Head {
    /// The request colour slot (`arrow-0` ... `arrow-7`), or `None` for
    /// `arrow-plain`.
    pub color: Option<usize>,
}

impl Head {
    /// The marker's element id.
    pub fn marker_id(self) -> String {
        match self.color {
            Some(c) => format!("arrow-{}", c % PALETTE_SIZE),
            None => "arrow-plain".to_string(),
        }
    }
}

/// What an item shows; the live view uses it for selection and animation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ItemKind {
    /// An agent's head, lifeline and end cross.
    Lifeline,
    /// A model call's activation bar.
    Activation,
    /// A run started or finished.
    Banner,
    /// A spawn arrow.
    Spawn,
    /// A message arrow with its label (and its × if dropped).
    Message,
    /// A request's transition note.
    Transition,
    /// A tool-call note.
    Tool,
    /// A failed model call.
    Failure,
    /// A request's state badge.
    Badge,
    /// A protocol violation mark at its event's row.
    Violation,
    /// An inbox's waiting messages, on its lifeline under the last row
    /// (`motion`).
    Inbox,
    /// A message held in flight by a fault (`motion`).
    Held,
}

/// A group of shapes drawn together (`<g>`), with what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// What it shows.
    pub kind: ItemKind,
    /// CSS classes of the group.
    pub class: String,
    /// The event it shows (for a badge: the event that last changed it).
    pub seq: Option<u64>,
    /// The request it belongs to (clicking selects it in the live view).
    pub request: Option<RequestId>,
    /// ARIA role of the group, if any.
    pub role: Option<&'static str>,
    /// Accessible name of the group, if any.
    pub label: Option<String>,
    /// Top of its vertical extent (for drawing only what is on screen).
    pub top: f64,
    /// Bottom of its vertical extent.
    pub bottom: f64,
    /// What to draw, in order.
    pub shapes: Vec<Shape>,
}

/// The whole drawing, in layers drawn back to front. Every layer is sorted
/// by `top`, so `visible` can binary-search it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Geometry {
    /// Width of the drawing.
    pub width: f64,
    /// Height of the drawing.
    pub height: f64,
    /// How many agents, message arrows and requests it shows (for its
    /// accessible name).
    pub agents: usize,
    /// Message arrows drawn.
    pub messages: usize,
    /// Requests (badges) drawn.
    pub requests: usize,
    /// Lifelines with heads and end crosses.
    pub lifelines: Vec<Item>,
    /// Activation bars.
    pub activations: Vec<Item>,
    /// One item per diagram row, top to bottom.
    pub rows: Vec<Item>,
    /// Violation marks, top to bottom.
    pub marks: Vec<Item>,
    /// Request badges, top to bottom.
    pub badges: Vec<Item>,
    /// Where messages are as of the cursor (inboxes, held messages), drawn
    /// by `motion_draw`; empty unless the caller adds them.
    pub motion: Vec<Item>,
}

impl Geometry {
    /// The layers in drawing order.
    pub fn layers(&self) -> [&[Item]; 6] {
        [&self.lifelines, &self.activations, &self.rows, &self.marks, &self.badges, &self.motion]
    }

    /// Every item, back to front.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.layers().into_iter().flatten()
    }
}

/// The items of `layer` (sorted by `top`) that reach into `[top, bottom]`.
/// Items of one layer are at most a few rows tall, so the search treats
/// anything starting more than `ROW_HEIGHT` above `top` as off screen,
/// except items taller than that (lifelines, activations), which callers
/// draw whole.
pub fn visible(layer: &[Item], top: f64, bottom: f64) -> &[Item] {
    let start = layer.partition_point(|i| i.top + ROW_HEIGHT < top);
    let end = layer.partition_point(|i| i.top <= bottom);
    &layer[start..end.max(start)]
}

/// An item of `kind` spanning `top` to `bottom`, with its shapes.
pub(crate) fn item(kind: ItemKind, class: impl Into<String>, seq: Option<u64>, top: f64, bottom: f64, shapes: Vec<Shape>) -> Item {
    Item { kind, class: class.into(), seq, request: None, role: None, label: None, top, bottom, shapes }
}

/// A text at `(x, y)` with its class.
pub(crate) fn text(x: f64, y: f64, text: impl Into<String>, class: Option<&'static str>) -> Shape {
    Shape::Text { x, y, text: text.into(), class }
}

/// A line from `(x1, y1)` to `(x2, y2)`, with an arrow head or none.
pub(crate) fn line(x1: f64, y1: f64, x2: f64, y2: f64, head: Option<Head>) -> Shape {
    Shape::Line { x1, y1, x2, y2, class: None, head }
}

/// Draws `diagram`, laid out from the first `shown` events of a trace, with
/// a mark on the row of each violation among those events (violations of
/// later events are left out, as their rows are).
/// The export draws all of it; the live view draws the same pieces
/// (`lifeline`, `activation`, `row`, `badge`, `marks`) for what is on
/// screen only, so its cost does not grow with the run.
pub fn draw(cat: &Catalog, diagram: &Diagram, violations: &[Violation], shown: usize) -> Geometry {
    draw_as_of(cat, diagram, violations, None, shown)
}

/// [`draw`], the marks' words read against `tracker`, the tracker as of
/// the same cursor (`marks`).
pub fn draw_as_of(cat: &Catalog, diagram: &Diagram, violations: &[Violation], tracker: Option<&Tracker>, shown: usize) -> Geometry {
    Geometry {
        width: diagram.width.max(600.0),
        height: diagram.height,
        agents: diagram.columns.len(),
        messages: diagram.rows.iter().filter(|r| matches!(r.kind, RowKind::Message { .. })).count(),
        requests: diagram.badges.len(),
        lifelines: diagram.columns.iter().map(|c| lifeline(cat, c, diagram.height)).collect(),
        activations: diagram.activations.iter().map(activation).collect(),
        rows: diagram.rows.iter().map(|r| row(cat, r)).collect(),
        marks: marks(cat, violations, shown, tracker, |seq| diagram.y_of(seq)),
        badges: diagram.badges.iter().map(badge).collect(),
        motion: Vec::new(),
    }
}

/// An agent's head, lifeline (down to `bottom` while it lives) and end ×;
/// for a teammate spawned again, a new head at each respawn's row starting
/// its new incarnation's lifeline (the one before ends there, or at its ×).
/// The whole column as one item (what the SVG export draws): the
/// `lifeline_parts` of every incarnation, in order.
pub fn lifeline(cat: &Catalog, c: &Column, bottom: f64) -> Item {
    let end = c.ended_y.unwrap_or(bottom);
    let status = c.status.map_or("lead", MemberStatus::as_str);
    let top = first_head(c);
    let shapes = lifeline_parts(cat, c, bottom, None).into_iter().flat_map(|(_, part)| part.shapes).collect();
    item(ItemKind::Lifeline, format!("lifeline status-{status}"), None, top, end, shapes)
}

/// One item per incarnation of an agent's lifeline, top to bottom, with
/// its number (0 for the first, `restarts.len()` for the latest): its
/// head, its line down to where the next head starts (or its ×, or
/// `bottom` while it lives) and its ×. With a `window` (top, bottom), only
/// the incarnations that reach into it: a teammate spawned again a
/// thousand times costs the live view the few incarnations on screen, and
/// a step redraws only the one whose line grows.
pub fn lifeline_parts(cat: &Catalog, c: &Column, bottom: f64, window: Option<(f64, f64)>) -> Vec<(usize, Item)> {
    let end = c.ended_y.unwrap_or(bottom);
    let status = c.status.map_or("lead", MemberStatus::as_str);
    let (top, low) = window.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    let last = c.restarts.len();
    (0..=last)
        .filter_map(|i| {
            let head_y = if i == 0 { first_head(c) } else { c.restarts[i - 1].y + 1.0 };
            let restart = c.restarts.get(i);
            let until = restart.map_or(end, |r| r.ended_y.unwrap_or(r.y + 1.0));
            let cross_y = match restart {
                Some(r) => r.ended_y,
                None => c.ended_y,
            };
            let reach = cross_y.map_or(until, |y| until.max(y + CROSS_HALF));
            if reach + ROW_HEIGHT < top || head_y > low {
                return None;
            }
            let word = match restart {
                Some(r) if r.ended_y.is_some() => MemberStatus::Shutdown.as_str().to_string(),
                Some(_) => cat.t("diagram-replaced"),
                None => status.to_string(),
            };
            let mut shapes = vec![Shape::Line { x1: c.x, y1: head_y + 34.0, x2: c.x, y2: until, class: Some("life"), head: None }];
            shapes.extend(head_shapes(c, head_y, &word));
            shapes.extend(cross_y.map(|y| cross(cat, c, y)));
            Some((i, item(ItemKind::Lifeline, format!("lifeline status-{status}"), None, head_y, reach, shapes)))
        })
        .collect()
}

/// The top of an agent's first head: the diagram's top for the lead, its
/// spawn row for a teammate.
fn first_head(c: &Column) -> f64 {
    if c.name.is_lead() {
        8.0
    } else {
        c.born_y + 1.0
    }
}

/// The head in effect at the scroll position `top` (SVG units), drawn on
/// the sticky row above the diagram once the head itself has scrolled up:
/// the head of the incarnation whose lifeline runs there (the lead's
/// always). `None` while the agent's own head is still below `top`.
pub fn sticky_head(cat: &Catalog, c: &Column, top: f64) -> Option<Item> {
    let status = c.status.map_or("lead", MemberStatus::as_str);
    let (head_y, word) = heads(cat, c).into_iter().rev().find(|(y, _)| *y <= 8.0 || *y < top + 8.0)?;
    Some(item(ItemKind::Lifeline, format!("lifeline status-{status}"), None, head_y, head_y + 34.0, head_shapes(c, head_y, &word).into()))
}

/// Each head's top and the word under its name: the first incarnation's
/// head, then one per respawn; the last says the status at the cursor, an
/// earlier one `shutdown` when it ended so, else that it was replaced.
fn heads(cat: &Catalog, c: &Column) -> Vec<(f64, String)> {
    let status = c.status.map_or("lead", MemberStatus::as_str).to_string();
    let starts = std::iter::once(first_head(c)).chain(c.restarts.iter().map(|r| r.y + 1.0));
    let words = c
        .restarts
        .iter()
        .map(|r| if r.ended_y.is_some() { MemberStatus::Shutdown.as_str().to_string() } else { cat.t("diagram-replaced") })
        .chain(std::iter::once(status));
    starts.zip(words).collect()
}

/// A head's box, name and word at `head_y`.
fn head_shapes(c: &Column, head_y: f64, word: &str) -> [Shape; 3] {
    [
        Shape::Rect { x: c.x - 60.0, y: head_y, width: 120.0, height: 34.0, rx: 6.0, class: Some("head") },
        text(c.x, head_y + 15.0, c.name.as_str(), Some("head-name")),
        text(c.x, head_y + 30.0, word, Some("head-status")),
    ]
}

/// The × where an incarnation shut down.
fn cross(cat: &Catalog, c: &Column, y: f64) -> Shape {
    Shape::Cross { x: c.x, y, half: 9.0, class: "cross", label: tr!(cat, "diagram-shut-down", name = c.name.as_str()) }
}

/// A model call's activation bar.
pub fn activation(a: &Activation) -> Item {
    let class = if a.open { "activation open" } else { "activation" };
    let (y, height) = (a.y0 + 4.0, (a.y1 - a.y0).max(8.0));
    let rect = Shape::Rect { x: a.x - 5.0, y, width: 10.0, height, rx: 0.0, class: Some(class) };
    item(ItemKind::Activation, "model-call", None, y, y + height, vec![rect])
}

/// A model call's activation bar with what the call cost as its title (on
/// hover, and read by screen readers): its tokens per bucket and, when the
/// run's model has a price, its dollars; an estimate says so. The page
/// draws this one; the SVG export draws `activation`.
pub fn activation_with_cost(cat: &Catalog, a: &Activation, price: Option<&crate::view::prices::Price>) -> Item {
    let mut it = activation(a);
    if let Some(spend) = &a.spend {
        it.shapes.push(Shape::Tooltip(crate::view::cost::call_words(cat, spend, price)));
    }
    it
}

/// What an agent's calls cost as of the cursor, in small text beside its
/// latest head (right of the box, where nothing else is drawn on the head's
/// row): its tokens ("≈1.2k" for an estimate), and under them its dollars
/// when the run's model has a price. `None` before its first reply.
pub fn head_cost(cat: &Catalog, c: &Column, spend: &crate::view::cost::Spend, price: Option<&crate::view::prices::Price>) -> Option<Item> {
    if spend.calls == 0 {
        return None;
    }
    let head_y = c.restarts.last().map_or(if c.name.is_lead() { 8.0 } else { c.born_y + 1.0 }, |r| r.y + 1.0);
    let mark = if spend.estimated { "≈" } else { "" };
    let mut shapes = vec![text(
        c.x + 64.0,
        head_y + 14.0,
        tr!(cat, "diagram-head-tokens", tokens = format!("{mark}{}", crate::view::cost::short_count(spend.total()))),
        Some("head-cost"),
    )];
    if let (Some(p), false) = (price, spend.estimated) {
        shapes.push(text(c.x + 64.0, head_y + 29.0, crate::view::cost::money(spend.dollars(p)), Some("head-cost")));
    }
    Some(item(ItemKind::Lifeline, "head-costs", None, head_y, head_y + 34.0, shapes))
}

/// A request's state badge beside its request arrow.
pub fn badge(b: &Badge) -> Item {
    let y = b.y + ROW_HEIGHT / 2.0;
    let mut badge = item(
        ItemKind::Badge,
        format!("badge fsm c{} badge-{}", b.color % PALETTE_SIZE, b.status),
        Some(b.changed_at),
        b.y,
        b.y + ROW_HEIGHT,
        vec![
            Shape::Rect { x: b.x + 12.0, y: y - 9.0, width: 74.0, height: 18.0, rx: 9.0, class: None },
            text(b.x + 49.0, y + 4.0, b.status.as_str(), None),
        ],
    );
    badge.request = Some(b.request_id.clone());
    badge
}

/// One mark per event with violations among the first `shown` events, at
/// `y_of(seq)` (the top of that event's row, or of the nearest row before
/// it for an event the diagram draws no row for), top to bottom. Their
/// words agree with `tracker` (the tracker as of the same cursor) when
/// given: a request left pending and answered since says so
/// (`findings::breach_as_of`).
pub fn marks(cat: &Catalog, violations: &[Violation], shown: usize, tracker: Option<&Tracker>, y_of: impl Fn(u64) -> f64) -> Vec<Item> {
    let mut by_seq: BTreeMap<u64, Vec<&Violation>> = BTreeMap::new();
    for v in violations.iter().filter(|v| v.seq < shown as u64) {
        by_seq.entry(v.seq).or_default().push(v);
    }
    let mut marks: Vec<Item> = by_seq
        .into_iter()
        .map(|(seq, vs)| {
            let y = y_of(seq);
            let kinds = vs.iter().map(|v| findings::kind(cat, v.kind)).collect::<Vec<_>>().join(", ");
            let answered = |v: &Violation| tracker.zip(v.request_id.as_ref()).and_then(|(t, id)| t.get(id));
            let details = vs.iter().map(|v| findings::mark(cat, v.kind, &v.detail, answered(v))).collect::<Vec<_>>().join("\n");
            let mut mark = item(
                ItemKind::Violation,
                "violation-mark",
                Some(seq),
                y,
                y + ROW_HEIGHT,
                vec![Shape::Tooltip(details), text(MARK_X, y + ROW_HEIGHT / 2.0 + 4.0, "⚠", None)],
            );
            mark.role = Some("note");
            mark.label = Some(tr!(cat, "diagram-violations", kinds = kinds));
            mark.request = vs.iter().find_map(|v| v.request_id.clone());
            mark
        })
        .collect();
    marks.sort_by(|a, b| a.top.total_cmp(&b.top));
    marks
}

/// The mark of the event an explored run breaks its property at (set by
/// whoever opened the run): a band across the row, `width` wide, named by
/// `label`, behind nothing it would hide (it is translucent).
pub fn finding_mark(seq: u64, label: &str, y: f64, width: f64) -> Item {
    let band =
        Shape::Rect { x: 1.0, y: y + 1.0, width: (width - 2.0).max(0.0), height: ROW_HEIGHT - 2.0, rx: 4.0, class: Some("finding-band") };
    let mut mark = item(ItemKind::Violation, "finding-mark", Some(seq), y, y + ROW_HEIGHT, vec![Shape::Tooltip(label.to_string()), band]);
    mark.role = Some("note");
    mark.label = Some(label.to_string());
    mark
}

/// An envelope centred on (`x`, `y`): a body and its flap.
pub fn envelope(x: f64, y: f64) -> Vec<Shape> {
    let (w, h) = ENVELOPE;
    vec![
        Shape::Rect { x: x - w, y: y - h, width: 2.0 * w, height: 2.0 * h, rx: 1.5, class: Some("envelope") },
        Shape::Line { x1: x - w, y1: y - h, x2: x, y2: y + 1.0, class: Some("flap"), head: None },
        Shape::Line { x1: x, y1: y + 1.0, x2: x + w, y2: y - h, class: Some("flap"), head: None },
    ]
}
