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
//! on top; the export adds none).

use std::collections::BTreeMap;

use crate::protocol::{MemberStatus, MessageType, RequestId, Tracker, Violation};
use crate::view::diagram::layout::{Activation, Badge, Column, Diagram, Row, RowKind, COLUMN_WIDTH, PALETTE_SIZE, ROW_HEIGHT};
use crate::view::diagram::metrics::{text_columns, BANNER_CHAR_WIDTH, BANNER_X};
use crate::view::fate::Mark;
use crate::view::i18n::{tr, Catalog};
use crate::view::words::captions::{clip, Said};
use crate::view::words::findings;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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

/// What was said, as drawn under its arrow: `plan: “…”`, cut to `max`
/// characters in all (the tooltip has it whole).
pub fn said_on_arrow(said: &Said, max: usize) -> String {
    let room = max.saturating_sub(said.field.len() + 4);
    format!("{}: “{}”", said.field, clip(&said.text, room))
}

/// Where the cut words of what was said under an arrow are drawn, and what
/// they cut: the page lays a button over this box that opens them whole
/// (no hover on a phone). SVG units.
#[derive(Debug, Clone, PartialEq)]
pub struct SaidTarget {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// The whole of what was said, `field: text` (the arrow's tooltip).
    pub whole: String,
}

/// The box of words drawn cut short that a tap opens whole, if `it` has
/// some: what was said under a message arrow (a plan, feedback, a reason:
/// the text drawn centred on its x, 13 px high, as the stylesheet draws
/// `msg-said`), a plain message's label, a tool note's call, a run
/// banner's prompt or a failed model call's error. `whole` is `field: text`
/// (a message's tooltip; a note's `tool: args`; `prompt: …`, `error: …`).
pub fn said_target(it: &Item) -> Option<SaidTarget> {
    let tooltip = || {
        it.shapes.iter().find_map(|s| match s {
            Shape::Tooltip(t) => Some(t.clone()),
            _ => None,
        })
    };
    let centred = |x: f64, y: f64, text: &str, whole: String| {
        let width = text_columns(text) * SAID_CHAR_WIDTH + 8.0;
        SaidTarget { x: x - width / 2.0, y: y - 13.0, width, height: 18.0, whole }
    };
    match it.kind {
        // A plain message: its label, cut.
        ItemKind::Message if it.class.split(' ').any(|c| c == "text") => {
            let whole = tooltip()?;
            it.shapes.iter().find_map(|s| match s {
                Shape::Text { x, y, text, class: Some("msg-label") } => Some(centred(*x, *y, text, whole.clone())),
                _ => None,
            })
        }
        ItemKind::Message => {
            let whole = tooltip()?;
            it.shapes.iter().find_map(|s| match s {
                Shape::Text { x, y, text, class: Some("msg-said") } => Some(centred(*x, *y, text, whole.clone())),
                _ => None,
            })
        }
        // A run banner's prompt: its plate.
        ItemKind::Banner => {
            let whole = it.label.clone()?;
            it.shapes.iter().find_map(|s| match s {
                Shape::Rect { x, y, width, height, .. } => {
                    Some(SaidTarget { x: *x, y: *y, width: *width, height: *height, whole: whole.clone() })
                }
                _ => None,
            })
        }
        // A failed model call's error: its words.
        ItemKind::Failure => {
            let whole = it.label.clone()?;
            it.shapes.iter().find_map(|s| match s {
                Shape::Text { x, y, text, .. } => Some(SaidTarget {
                    x: x - 4.0,
                    y: y - 13.0,
                    width: text_columns(text) * SAID_CHAR_WIDTH + 8.0,
                    height: 18.0,
                    whole: whole.clone(),
                }),
                _ => None,
            })
        }
        ItemKind::Tool => {
            let whole = it.label.clone()?;
            it.shapes.iter().find_map(|s| match s {
                Shape::Rect { x, y, width, height, .. } => {
                    Some(SaidTarget { x: *x, y: *y, width: *width, height: *height, whole: whole.clone() })
                }
                _ => None,
            })
        }
        _ => None,
    }
}

/// One diagram row: a banner, spawn, message arrow (with its × if dropped),
/// transition, tool note or failure.
pub fn row(cat: &Catalog, r: &Row) -> Item {
    let y = r.y + ROW_HEIGHT / 2.0;
    let seq = Some(r.seq);
    let (top, bottom) = (r.y, r.y + ROW_HEIGHT);
    match &r.kind {
        RowKind::RunStarted { prompt, whole } => {
            let shown = prompt_shown(cat, prompt);
            let mut it = item(ItemKind::Banner, "banner run-start", seq, top, bottom, banner(y, format!("▶ {shown}")));
            // Cut short (in English, or only in the page's language): whole
            // on hover and on a tap (`said_target`), in the page's language.
            let words = crate::view::words::scenarios::prompt_words(cat, whole.as_deref().unwrap_or(prompt));
            if shown != words {
                it.shapes.push(Shape::Tooltip(words.clone()));
                it.label = Some(format!("prompt: {words}"));
            }
            it
        }
        RowKind::RunFinished => item(ItemKind::Banner, "banner run-end", seq, top, bottom, banner(y, cat.t("diagram-run-finished"))),
        RowKind::BudgetReached { limit } => {
            let words = tr!(cat, "diagram-budget-reached", limit = crate::view::cost::budget_amount(cat, limit, None));
            item(ItemKind::Banner, "banner run-end budget-end", seq, top, bottom, banner(y, words))
        }
        RowKind::Spawn { name, from_x, to_x } => item(
            ItemKind::Spawn,
            "spawn",
            seq,
            top,
            bottom,
            vec![
                line(*from_x, y, to_x - 62.0, y, Some(Head { color: None })),
                // In the gap before the new head, clear of the lifelines
                // the arrow passes on its way.
                text(to_x - (COLUMN_WIDTH + 62.0) / 2.0, y - 4.0, tr!(cat, "diagram-spawn", name = name.as_str()), None),
            ],
        ),
        RowKind::Message { from_x, to_x, label, msg_type, request_id, color, delivered, fault, said, text: whole } => {
            let class = format!(
                "msg {} {} {}{}",
                color.map_or_else(|| "plain".to_string(), |c| format!("c{}", c % PALETTE_SIZE)),
                if *delivered { "delivered" } else { "in-flight" },
                if matches!(msg_type, MessageType::Message | MessageType::Broadcast) { "text" } else { "protocol" },
                fault.map(|f| format!(" fault-{}", f.as_str())).unwrap_or_default()
            );
            let dropped = *fault == Some(Mark::Dropped);
            // A message to oneself is drawn as a short arrow to the right.
            let (x1, x2) = if (to_x - from_x).abs() < 1.0 { (*from_x, from_x + 40.0) } else { (*from_x, *to_x) };
            let dir = if x2 >= x1 { -1.0 } else { 1.0 };
            let head = (!dropped).then_some(Head { color: *color });
            // Label and what was said sit in the gap next to the sender (the
            // middle, between neighbours), never across a lifeline the
            // arrow passes; a plain message's text is cut to that gap.
            let gap = (x2 - x1).abs().min(COLUMN_WIDTH);
            let mid = x1 - dir * gap / 2.0;
            let shown = if matches!(msg_type, MessageType::Message | MessageType::Broadcast) {
                clip(label, ((gap - 16.0) / SAID_CHAR_WIDTH) as usize)
            } else {
                label.clone()
            };
            // A plain message's text cut short is whole on hover, and on a
            // tap (`said_target`).
            let cut = whole.as_ref().filter(|w| shown != format!("{msg_type}: {w}")).map(|w| format!("{msg_type}: {w}"));
            let mut shapes = vec![line(x1, y, x2 + dir * 6.0, y, head), text(mid, y - 5.0, shown, Some("msg-label"))];
            if let Some(cut) = cut {
                shapes.push(Shape::Tooltip(cut));
            }
            // Under the arrow, cut to the gap: the fault that hit it, then
            // what was said (whole on hover).
            let fits = ((gap - 36.0) / SAID_CHAR_WIDTH).max(12.0) as usize;
            let mark = fault.map(|f| cat.t(&format!("diagram-fault-{}", f.as_str())));
            let under = match (mark, said) {
                (Some(mark), Some(said)) => Some(format!("{mark} {}", said_on_arrow(said, fits.saturating_sub(mark.len() + 1)))),
                (Some(mark), None) => Some(mark),
                (None, Some(said)) => Some(said_on_arrow(said, fits)),
                (None, None) => None,
            };
            if let Some(said) = said {
                // After the label: the arrow's text still begins with its type.
                shapes.push(Shape::Tooltip(format!("{}: {}", said.field, said.text)));
            }
            if let Some(under) = under {
                shapes.push(text(mid, y + 15.0, under, Some("msg-said")));
            }
            if dropped {
                // The × stands where the head would have been.
                let cx = x2 + dir * (2.0 + CROSS_HALF);
                shapes.push(Shape::Cross { x: cx, y, half: CROSS_HALF, class: "drop-x", label: cat.t("diagram-dropped") });
            }
            let mut it = item(ItemKind::Message, class, seq, top, bottom, shapes);
            it.request = request_id.clone();
            it
        }
        RowKind::Transition { request_id, to, x, color } => {
            let mut it = item(
                ItemKind::Transition,
                format!("transition c{} to-{to}", color % PALETTE_SIZE),
                seq,
                top,
                bottom,
                vec![text(x + 10.0, y, format!("{request_id}: pending → {to}"), None)],
            );
            it.request = Some(request_id.clone());
            it
        }
        RowKind::Tool { x, label, call: (tool, args), ok, output } => {
            let state = match ok {
                None => "running",
                Some(true) => "ok",
                Some(false) => "error",
            };
            let width = label.chars().count() as f64 * 7.3 + 14.0;
            let result = output.clone().unwrap_or_else(|| cat.t("diagram-tool-running"));
            // A call cut short is whole on hover (above its result), and
            // on a tap (`said_target`: the item's `label`).
            let cut = *label != format!("{tool}({args})");
            let tooltip = if cut { format!("{tool}({args})\n{result}") } else { result };
            let mut it = item(
                ItemKind::Tool,
                format!("note tool-{state}"),
                seq,
                top,
                bottom,
                vec![
                    Shape::Tooltip(tooltip),
                    Shape::Rect { x: x + 8.0, y: r.y + 4.0, width, height: ROW_HEIGHT - 8.0, rx: 3.0, class: None },
                    text(x + 15.0, y + 4.0, label.clone(), None),
                ],
            );
            if cut {
                it.label = Some(format!("{tool}: {args}"));
            }
            it
        }
        RowKind::Failure { x, error, whole } => {
            let mut shapes = vec![text(x + 10.0, y + 4.0, format!("⚠ {error}"), None)];
            // Cut short: whole on hover and on a tap (`said_target`).
            if let Some(whole) = whole {
                shapes.push(Shape::Tooltip(whole.clone()));
            }
            let mut it = item(ItemKind::Failure, "note failure", seq, top, bottom, shapes);
            it.role = Some("alert");
            it.label = whole.as_ref().map(|w| format!("error: {w}"));
            it
        }
    }
}

/// A run banner's prompt (`layout` holds it cut to its room) in `cat`'s
/// language when it is a scenario's, cut to the room the prompt itself
/// takes (the diagram's width is laid out from the prompt, the same in
/// every language), so a longer translation never reaches past the edge.
fn prompt_shown(cat: &Catalog, prompt: &str) -> String {
    let words = crate::view::words::scenarios::prompt_words_where(cat, prompt, |p| {
        crate::protocol::text::clip(p, crate::view::diagram::layout::PROMPT_CHARS) == prompt
    });
    cut_to_columns(&words, text_columns(prompt))
}

/// `s` cut (with "…") to at most `columns` Latin characters' widths.
fn cut_to_columns(s: &str, columns: f64) -> String {
    if text_columns(s) <= columns {
        return s.to_string();
    }
    let mut out = String::new();
    let mut used = text_columns("…");
    for c in s.chars() {
        used += text_columns(c.encode_utf8(&mut [0; 4]));
        if used > columns {
            break;
        }
        out.push(c);
    }
    out.trim_end().to_string() + "…"
}

/// A run banner's text on an opaque plate (`plate`, the page's background),
/// so the lifelines and activation bars it spans pass behind it instead of
/// through its words.
fn banner(y: f64, words: String) -> Vec<Shape> {
    let width = text_columns(&words) * BANNER_CHAR_WIDTH + 8.0;
    vec![Shape::Rect { x: BANNER_X - 4.0, y: y - 12.0, width, height: 17.0, rx: 3.0, class: Some("plate") }, text(BANNER_X, y, words, None)]
}

/// Runs to draw, for the tests of both renderers.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::protocol::{AgentName, FaultAction, FaultPlan, FaultRule, MemberStatus, Millis, RequestKind, Team, Trace};

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// alice is asked to shut down; her approval is dropped on the bus, so
    /// the request is left pending when the run finishes (a violation); a
    /// tool runs and a model call fails on the way.
    pub(crate) fn faulty_run() -> Trace {
        let mut t = Team::new("d", 1);
        t.start_run("Shut alice down", Millis(0)).unwrap();
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
        t.drain(&name("alice"), Millis(2)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]));
        t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "ok", Millis(3)).unwrap();
        t.set_faults(FaultPlan::default());
        t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
        t.finish_run(Millis(5)).unwrap();
        t.trace().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::faulty_run;
    use super::*;
    use crate::protocol::{check, AgentName, Millis, Team};
    use crate::view::diagram::layout::layout;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    #[test]
    fn a_call_mark_says_what_the_call_cost_and_a_head_what_its_agent_spent() {
        use crate::view::cost::Spend;
        let cat = Catalog::en();
        let price = crate::view::prices::PriceTable::default().price_of("claude-sonnet-4-5").cloned();
        let spend = Spend { calls: 1, input: 1000, output: 500, cache_read: 0, cache_write: 0, estimated: false };
        let bar = |spend: Option<Spend>| Activation { x: 100.0, y0: 50.0, y1: 80.0, open: spend.is_none(), spend };
        let titles =
            |it: &Item| it.shapes.iter().filter_map(|s| if let Shape::Tooltip(t) = s { Some(t.clone()) } else { None }).collect::<Vec<_>>();
        assert_eq!(titles(&activation_with_cost(cat, &bar(Some(spend)), price.as_ref())), ["Usage: 1000 in, 500 out ($0.0105)."]);
        assert_eq!(titles(&activation_with_cost(cat, &bar(Some(spend)), None)), ["Usage: 1000 in, 500 out."], "no price: tokens only");
        assert!(titles(&activation_with_cost(cat, &bar(None), price.as_ref())).is_empty(), "a call still thinking has no cost yet");
        let column =
            Column { name: AgentName::parse("alice").unwrap(), x: 300.0, born_y: 100.0, ended_y: None, status: None, restarts: vec![] };
        let words = |it: Option<Item>| {
            it.map(|it| {
                it.shapes
                    .iter()
                    .filter_map(|s| if let Shape::Text { text, .. } = s { Some(text.clone()) } else { None })
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(words(head_cost(cat, &column, &spend, price.as_ref())), Some(vec!["1.5k tok".to_string(), "$0.0105".to_string()]));
        assert_eq!(
            words(head_cost(cat, &column, &Spend { estimated: true, ..spend }, price.as_ref())),
            Some(vec!["≈1.5k tok".to_string()])
        );
        assert_eq!(words(head_cost(cat, &column, &Spend::default(), price.as_ref())), None, "nothing before its first reply");
    }

    #[test]
    fn a_dropped_message_ends_in_a_cross_instead_of_a_head() {
        let trace = faulty_run();
        let g = draw(Catalog::en(), &layout(&trace, None), &check(&trace), trace.len());
        let dropped: Vec<&Item> = g.rows.iter().filter(|i| i.class.contains("fault-dropped")).collect();
        assert_eq!(dropped.len(), 1);
        let shapes = &dropped[0].shapes;
        assert!(shapes.iter().any(|s| matches!(s, Shape::Cross { class: "drop-x", .. })), "{shapes:?}");
        assert!(shapes.iter().all(|s| !matches!(s, Shape::Line { head: Some(_), .. })), "no arrow head on a dropped message");
    }

    #[test]
    fn each_violation_is_marked_at_its_event_and_only_once_shown() {
        let trace = faulty_run();
        let violations = check(&trace);
        assert!(!violations.is_empty(), "the dropped approval leaves a violation");
        let d = layout(&trace, None);
        let g = draw(Catalog::en(), &d, &violations, trace.len());
        assert_eq!(g.marks.len(), violations.iter().map(|v| v.seq).collect::<std::collections::BTreeSet<_>>().len());
        for v in &violations {
            assert!(g.marks.iter().any(|m| m.seq == Some(v.seq) && m.top == d.y_of(v.seq)), "{v:?}");
        }
        let before = violations[0].seq as usize;
        assert!(draw(Catalog::en(), &layout(&trace, Some(before)), &violations, before).marks.is_empty(), "a mark appears with its event");
    }

    #[test]
    fn every_shape_kind_is_produced_by_some_run() {
        let trace = faulty_run();
        let g = draw(Catalog::en(), &layout(&trace, None), &check(&trace), trace.len());
        let kinds: std::collections::BTreeSet<ShapeKind> = g.items().flat_map(|i| i.shapes.iter().map(Shape::kind)).collect();
        // Tooltips come from tool notes and violation marks; the faulty run
        // has a violation.
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ShapeKind::ALL);
    }

    #[test]
    fn shape_kind_all_lists_every_kind_once() {
        // An exhaustive match: a new kind fails to compile here until it is
        // given its place in `ALL`.
        fn index(k: ShapeKind) -> usize {
            match k {
                ShapeKind::Line => 0,
                ShapeKind::Cross => 1,
                ShapeKind::Text => 2,
                ShapeKind::Rect => 3,
                ShapeKind::Tooltip => 4,
            }
        }
        for (i, k) in ShapeKind::ALL.iter().enumerate() {
            assert_eq!(index(*k), i);
        }
    }

    #[test]
    fn only_items_on_screen_are_returned() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("a"), "r", false, Millis(0)).unwrap();
        for i in 0..1000 {
            t.send(&AgentName::lead(), &name("a"), "message", "hi", Millis(i)).unwrap();
        }
        let g = draw(Catalog::en(), &layout(t.trace(), None), &[], t.trace().len());
        let top = crate::view::diagram::layout::HEADER_HEIGHT + 300.0 * ROW_HEIGHT;
        let shown = visible(&g.rows, top, top + 20.0 * ROW_HEIGHT);
        assert!(shown.len() >= 20 && shown.len() <= 23, "{}", shown.len());
        assert!(visible(&g.rows, -100.0, -50.0).is_empty());
    }

    #[test]
    fn the_cut_words_of_what_was_said_have_a_box_over_them_that_opens_them_whole() {
        let trace = crate::view::diagram::geometry::fixtures::faulty_run();
        let cat = Catalog::en();
        let d = crate::view::diagram::layout::layout(&trace, None);
        let mut found = 0;
        for r in &d.rows {
            let it = row(cat, r);
            let words = it.shapes.iter().find_map(|s| match s {
                Shape::Text { x, y, text, class: Some("msg-said") } => Some((*x, *y, text.clone())),
                _ => None,
            });
            let tooltip = it.shapes.iter().find_map(|s| match s {
                Shape::Tooltip(t) => Some(t.clone()),
                _ => None,
            });
            match (said_target(&it), words, tooltip) {
                (Some(t), Some((x, y, text)), Some(whole)) => {
                    found += 1;
                    assert_eq!(t.whole, whole);
                    assert!(t.x < x && x < t.x + t.width && t.y < y && y < t.y + t.height, "{t:?} over {text} at {x},{y}");
                    let half = text_columns(&text) * SAID_CHAR_WIDTH / 2.0;
                    assert!(t.x <= x - half && x + half <= t.x + t.width, "{t:?} covers {text}");
                }
                (None, _, None) | (None, None, _) => {}
                (target, words, tooltip) => panic!("{target:?} {words:?} {tooltip:?}"),
            }
        }
        assert!(found > 0, "the run says something under an arrow");
        assert_eq!(said_target(&lifeline(cat, &d.columns[0], d.height)), None);
    }

    #[test]
    fn words_drawn_cut_open_whole_on_a_tap_and_words_drawn_whole_have_nothing_to_open() {
        use crate::protocol::Event;
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let long = "Please write the parser first, then the tests, then tell me how long it took";
        t.send(&AgentName::lead(), &name("alice"), "message", long, Millis(1)).unwrap();
        t.send(&AgentName::lead(), &name("alice"), "message", "hi", Millis(2)).unwrap();
        let mut trace = t.trace().clone();
        let plan = "Split the auth module into three reviewed steps";
        for (id, input) in [("t1", serde_json::json!({ "plan": plan })), ("t2", serde_json::json!({ "path": "a.py" }))] {
            let tool = if id == "t1" { "plan_approval" } else { "read_file" };
            trace.append(Millis(3), Event::ToolCalled { agent: name("alice"), tool_use_id: id.into(), tool: tool.into(), input }).unwrap();
        }
        let prompt = "Spawn alice as a coder and bob as a tester, then ask both to shut down once the parser and its tests pass";
        let error = "the provider answered 529 overloaded_error: the servers are busy; the request was retried three times and gave up";
        for (prompt, error) in [(prompt, error), ("Short prompt", "timeout")] {
            trace.append(Millis(4), Event::RunStarted { prompt: prompt.into() }).unwrap();
            trace.append(Millis(4), Event::ModelFailed { agent: name("alice"), error: error.into() }).unwrap();
        }
        let cat = Catalog::en();
        let d = layout(&trace, None);
        let targets: Vec<(ItemKind, String)> =
            d.rows.iter().map(|r| row(cat, r)).filter_map(|it| said_target(&it).map(|t| (it.kind, t.whole))).collect();
        assert_eq!(
            targets,
            [
                (ItemKind::Message, format!("message: {long}")),
                (ItemKind::Tool, format!("plan_approval: {plan}")),
                (ItemKind::Banner, format!("prompt: {prompt}")),
                (ItemKind::Failure, format!("error: {error}")),
            ],
            "what is drawn cut; not \"hi\", read_file(a.py), the short prompt nor the short error, drawn whole"
        );
        // The box lies over the words drawn cut.
        let note = d.rows.iter().map(|r| row(cat, r)).find(|it| it.kind == ItemKind::Tool).unwrap();
        let t = said_target(&note).unwrap();
        let Some(Shape::Text { x, y, text: drawn, .. }) = note.shapes.iter().find(|s| matches!(s, Shape::Text { .. })) else { panic!() };
        assert!(drawn.ends_with('…') && t.x < *x && *x < t.x + t.width && t.y < *y && *y < t.y + t.height, "{t:?} over {drawn}");
    }

    #[test]
    fn what_was_said_is_cut_to_the_arrow_and_whole_on_hover() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("bob"), "refactorer", true, Millis(0)).unwrap();
        let plan = "Rewrite the whole auth module in one go, then migrate every session and delete the old tables";
        t.submit_plan(&name("bob"), plan, Millis(1)).unwrap();
        let g = draw(Catalog::en(), &layout(t.trace(), None), &[], t.trace().len());
        let arrow = g.rows.iter().find(|i| i.kind == ItemKind::Message).expect("the plan arrow");
        let said = arrow.shapes.iter().find_map(|s| match s {
            Shape::Text { text, class: Some("msg-said"), .. } => Some(text.clone()),
            _ => None,
        });
        let said = said.expect("the plan under its arrow");
        assert!(said.starts_with("plan: “Rewrite the whole") && said.ends_with("…”"), "{said}");
        assert!(
            said.chars().count() as f64 * SAID_CHAR_WIDTH <= crate::view::diagram::layout::COLUMN_WIDTH,
            "fits between the lifelines: {said}"
        );
        assert!(arrow.shapes.contains(&Shape::Tooltip(format!("plan: {plan}"))), "whole on hover");
        assert!(matches!(&arrow.shapes[1], Shape::Text { class: Some("msg-label"), .. }), "the arrow's text begins with its label");
        assert!(!arrow.shapes.iter().any(|s| matches!(s, Shape::Text { text, .. } if text.contains("plan_approval()"))));
    }

    #[test]
    fn a_run_banner_says_a_scenario_prompt_in_the_pages_language_within_the_room_of_the_english() {
        use crate::runtime::scenarios;
        use crate::view::diagram::layout::PROMPT_CHARS;
        use crate::view::i18n::Locale;
        let long = scenarios::OUT_OF_ORDER.prompts[0];
        assert!(long.chars().count() > PROMPT_CHARS, "the test needs a prompt the banner cuts");
        for sc in scenarios::PAGE.into_iter().chain([scenarios::WITHOUT_PROTOCOLS, scenarios::TWINS, scenarios::RESPAWN]) {
            for p in sc.prompts {
                let held = crate::protocol::text::clip(p, PROMPT_CHARS);
                assert_eq!(prompt_shown(Catalog::en(), &held), held, "English is drawn as laid out");
                for l in [Locale::Zh, Locale::Ja, Locale::It] {
                    let cat = Catalog::get(l);
                    let shown = prompt_shown(cat, &held);
                    assert!(text_columns(&shown) <= text_columns(&held), "{l:?}: {shown:?} is wider than the room of {held:?}");
                    let whole = crate::view::words::scenarios::prompt_words(cat, p);
                    let kept = shown.trim_end_matches('…');
                    assert!(whole.starts_with(kept) && !kept.is_empty(), "{l:?}: {shown:?} is not the start of {whole:?}");
                }
            }
        }
        assert_eq!(prompt_shown(Catalog::get(Locale::Ja), "Spawn bob."), "Spawn bob.", "a prompt typed is drawn as it is");
    }
}
