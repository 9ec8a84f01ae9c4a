//! The sequence diagram as data: a pure function of (trace, cursor) that
//! places lifelines, arrows, request badges, activation bars and tool notes.
//! The SVG component only draws what this returns, for the rows on screen.
//!
//! Owns geometry: columns, activations, badges, each row's place and
//! which rows a window shows. A row's text is `rows`' and is built only
//! for the rows drawn, from the trace's entries. It must not touch the DOM
//! or any signal, so it is tested natively and stays cheap enough to
//! recompute on every step.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::protocol::{AgentName, Event, MemberStatus, Message, RequestId, RequestStatus, Trace, TraceEntry};
use crate::view::diagram::motion::Flights;
pub use crate::view::diagram::rows::{row_reach, Row, RowKind, Span, MESSAGE_TEXT_CHARS, PROMPT_CHARS, TOOL_LABEL_CHARS};
use crate::view::diagram::rows::{RowSpot, Shape};
use crate::view::fate::{Change, Fates};

/// The width of a diagram of `columns` agents whose rows and badges reach
/// `reach` to the right: room for the last column's notes, and never less
/// than what is drawn.
pub fn diagram_width(columns: usize, reach: f64) -> f64 {
    (LEFT + COLUMN_WIDTH * (columns as f64 - 0.5) + 140.0).max(reach + RIGHT_MARGIN)
}

/// Width of one agent column, in SVG units: the longest arrow label
/// (`plan_approval_response [id]`, about 241 units of 13 px text) fits
/// between two lifelines' activation bars.
pub const COLUMN_WIDTH: f64 = 256.0;
/// Height of one row.
pub const ROW_HEIGHT: f64 = 36.0;
/// Space above the first row, for the agent heads.
pub const HEADER_HEIGHT: f64 = 56.0;
/// Left margin.
pub const LEFT: f64 = 90.0;
/// How many colours requests cycle through.
pub const PALETTE_SIZE: usize = 8;
/// Room kept right of the rightmost thing drawn.
pub const RIGHT_MARGIN: f64 = 12.0;
/// A badge's right edge, from the x it is drawn beside (`geometry::badge`).
pub const BADGE_REACH: f64 = 86.0;

/// An agent's column.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The agent.
    pub name: AgentName,
    /// Centre x.
    pub x: f64,
    /// Where its lifeline starts (its spawn row, or the top for the lead).
    pub born_y: f64,
    /// Where its lifeline ends (its shutdown row), if it has ended.
    pub ended_y: Option<f64>,
    /// Its status as of the cursor (`None` for the lead).
    pub status: Option<MemberStatus>,
    /// Each time it was spawned again up to the cursor (a new incarnation,
    /// a new run of its loop), top to bottom: a new head there starts its
    /// new lifeline. `ended_y` is then the last incarnation's end.
    pub restarts: Vec<Restart>,
}

/// A teammate spawned again: where its new incarnation's head is drawn,
/// and where the incarnation before it ended, if it shut down first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Restart {
    /// The top of the respawn's row (the new head's row).
    pub y: f64,
    /// The previous incarnation's shutdown row, if it shut down before.
    pub ended_y: Option<f64>,
}

/// A span during which an agent waited on its model.
#[derive(Debug, Clone, PartialEq)]
pub struct Activation {
    /// The agent's x.
    pub x: f64,
    /// Top.
    pub y0: f64,
    /// Bottom (the reply's row, or the diagram's end while still thinking).
    pub y1: f64,
    /// True while the call is still open at the cursor.
    pub open: bool,
    /// The tokens its reply used, once the reply is in (as of the cursor).
    pub spend: Option<crate::view::cost::Spend>,
}

/// A request's badge: drawn beside its request arrow, showing its state as
/// of the cursor.
#[derive(Debug, Clone, PartialEq)]
pub struct Badge {
    /// The request.
    pub request_id: RequestId,
    /// Its state at the cursor.
    pub status: RequestStatus,
    /// Where (the request arrow's row).
    pub y: f64,
    /// Beside which x.
    pub x: f64,
    /// Colour slot.
    pub color: usize,
    /// The sequence number of the event that last changed it (for animation).
    pub changed_at: u64,
}

/// The whole diagram as of a cursor.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Diagram {
    /// One per agent, lead first, then teammates in spawn order.
    pub columns: Vec<Column>,
    /// Drawn rows, top to bottom.
    pub rows: Vec<Row>,
    /// Model-call spans.
    pub activations: Vec<Activation>,
    /// One per request.
    pub badges: Vec<Badge>,
    /// Total width.
    pub width: f64,
    /// Total height: the rows, the row under them ("now", where inboxes
    /// sit) and one row per message held in flight (`motion`).
    pub height: f64,
    /// Top of the row under the last drawn row.
    pub now_y: f64,
    /// Message arrows up to the cursor (also those outside the window).
    pub messages: usize,
    /// Requests up to the cursor (also those outside the window).
    pub requests: usize,
}

impl Diagram {
    /// The rows that intersect `[top, bottom]` (binary search: rows are
    /// sorted by y), for drawing only what is on screen.
    pub fn rows_between(&self, top: f64, bottom: f64) -> &[Row] {
        let start = self.rows.partition_point(|r| r.y + ROW_HEIGHT < top);
        let end = self.rows.partition_point(|r| r.y <= bottom);
        &self.rows[start..end.max(start)]
    }

    /// The y of the row showing event `seq`, or of the nearest row before it.
    pub fn y_of(&self, seq: u64) -> f64 {
        let i = self.rows.partition_point(|r| r.seq <= seq);
        if i == 0 {
            HEADER_HEIGHT
        } else {
            self.rows[i - 1].y
        }
    }
}

/// Lays out the first `cursor` events of `trace` (all of them for `None`).
/// For repeated cursors over one trace, keep a [`Layout`] instead: this
/// builds one and throws it away.
pub fn layout(trace: &Trace, cursor: Option<usize>) -> Diagram {
    Layout::of(trace).diagram(trace.entries(), cursor, None)
}

/// A column's history: born at a seq, then status changes with their rows.
#[derive(Debug, Clone, PartialEq)]
struct ColumnTrack {
    name: AgentName,
    x: f64,
    born_seq: u64,
    born_y: f64,
    /// (seq, status, y): spawns (as `Working`) and status changes, in order.
    changes: Vec<(u64, MemberStatus, f64)>,
    /// (seq, y) of each spawn after the first (a new incarnation).
    restarts: Vec<(u64, f64)>,
}

#[derive(Debug, Clone, PartialEq)]
struct ActivationTrack {
    x: f64,
    y0: f64,
    start_seq: u64,
    /// (seq, y1) of the reply or failure that closed it.
    end: Option<(u64, f64)>,
    /// The tokens of the reply that closed it.
    spend: Option<crate::view::cost::Spend>,
}

#[derive(Debug, Clone, PartialEq)]
struct BadgeTrack {
    request_id: RequestId,
    y: f64,
    x: f64,
    color: usize,
    first_seq: u64,
    /// (seq, status) of each transition.
    moves: Vec<(u64, RequestStatus)>,
}

/// The whole run laid out once, every element stamped with the events that
/// create and change it, so the diagram as of any cursor is a cheap view
/// ([`Layout::diagram`]) rather than a fold from event 0. Extended in place
/// as events arrive ([`Layout::push`]); cost per event is O(log n), and a
/// row is kept as a [`RowSpot`] (numbers, no text) until it is drawn.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    columns: Vec<ColumnTrack>,
    rows: Vec<RowSpot>,
    /// Messages among `rows[..i]`, for each i (prefix counts, one longer than rows).
    messages_before: Vec<usize>,
    activations: Vec<ActivationTrack>,
    badges: Vec<BadgeTrack>,
    len: usize,
    y: f64,
    col_of: BTreeMap<AgentName, usize>,
    color_of: BTreeMap<RequestId, usize>,
    badge_of: BTreeMap<RequestId, usize>,
    open_calls: BTreeMap<AgentName, usize>,
    open_tools: BTreeMap<String, usize>,
    /// Messages held by a fault (by their index in the `Fates`), with the
    /// seq of the fault's event (which carries it), kept until their
    /// release draws their arrow.
    held: BTreeMap<usize, (u64, Message)>,
    flights: Flights,
    /// Where the drawing reaches farthest right, as it grows: (the event
    /// that pushed it further, how far), in event order.
    reach: Vec<(u64, f64)>,
}

impl Layout {
    /// An empty layout: only the lead's column.
    pub fn new() -> Self {
        let lead = AgentName::lead();
        let mut l = Layout { y: HEADER_HEIGHT, messages_before: vec![0], ..Layout::default() };
        l.col_of.insert(lead.clone(), 0);
        l.columns.push(ColumnTrack {
            name: lead,
            x: LEFT,
            born_seq: 0,
            born_y: HEADER_HEIGHT - 20.0,
            changes: Vec::new(),
            restarts: Vec::new(),
        });
        l
    }

    /// Lays out every event of `trace`.
    pub fn of(trace: &Trace) -> Self {
        let mut l = Layout::new();
        l.extend(trace.entries());
        l
    }

    /// How many events are laid out.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True before the first event.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Lays out the events of `entries` this layout has not seen yet
    /// (`entries` is the whole trace or any suffix that starts at or before
    /// [`Layout::len`]).
    pub fn extend(&mut self, entries: &[TraceEntry]) {
        let new = entries.partition_point(|e| (e.seq as usize) < self.len);
        for entry in &entries[new..] {
            self.push(entry);
        }
    }

    fn x_of(&mut self, name: &AgentName, seq: u64) -> f64 {
        if let Some(&i) = self.col_of.get(name) {
            return self.columns[i].x;
        }
        let i = self.columns.len();
        let x = LEFT + COLUMN_WIDTH * i as f64;
        self.col_of.insert(name.clone(), i);
        let y = self.y;
        self.columns.push(ColumnTrack {
            name: name.clone(),
            x,
            born_seq: seq,
            born_y: y,
            changes: vec![(seq, MemberStatus::Working, y)],
            restarts: Vec::new(),
        });
        x
    }

    /// Event `seq` draws something that reaches `x`.
    fn reach_to(&mut self, seq: u64, x: f64) {
        if self.reach.last().is_none_or(|(_, far)| x > *far) {
            self.reach.push((seq, x));
        }
    }

    fn color(&mut self, id: &RequestId) -> usize {
        let next = self.color_of.len() % PALETTE_SIZE;
        *self.color_of.entry(id.clone()).or_insert(next)
    }

    /// Makes room for `events` more events at once, so taking in a long
    /// recorded run does not copy its rows each time they outgrow their
    /// room (an upper bound: not every event draws a row).
    pub fn reserve(&mut self, events: usize) {
        self.rows.reserve(events);
        self.messages_before.reserve(events);
        self.flights.reserve(events);
    }

    /// Lays out the next event (its seq must be [`Layout::len`]).
    pub fn push(&mut self, entry: &TraceEntry) {
        let seq = entry.seq;
        self.len = self.len.max(seq as usize + 1);
        let change = self.flights.push(entry);
        let y = self.y;
        // An arrow for a message sent, dropped or released (a held one is
        // kept until then): the event carrying the message, the message
        // and its index in the fates.
        let arrow = match (change, &entry.event) {
            (Some(Change::Sent(i) | Change::Dropped(i)), Event::MessageSent { message } | Event::FaultApplied { message, .. }) => {
                Some((seq, Cow::Borrowed(message), i))
            }
            (Some(Change::Held(i)), Event::FaultApplied { message, .. }) => {
                self.held.insert(i, (seq, message.clone()));
                None
            }
            (Some(Change::Released(i)), _) => self.held.remove(&i).map(|(source, m)| (source, Cow::Owned(m), i)),
            _ => None,
        };
        let spot = match (&entry.event, arrow) {
            (_, Some((source, message, fate))) => {
                let fault = self.flights.fates().all()[fate].mark();
                let from_x = self.x_of(&message.from, seq);
                let to_x = self.x_of(&message.to, seq);
                let color = message.request_id.as_ref().map(|id| self.color(id));
                let request = message.msg_type.is_request();
                if request {
                    if let (Some(id), Some(color)) = (&message.request_id, color) {
                        if !self.badge_of.contains_key(id) {
                            self.badge_of.insert(id.clone(), self.badges.len());
                            self.reach_to(seq, from_x.max(to_x) + BADGE_REACH);
                            self.badges.push(BadgeTrack {
                                request_id: id.clone(),
                                y,
                                x: from_x.max(to_x),
                                color,
                                first_seq: seq,
                                moves: Vec::new(),
                            });
                        }
                    }
                }
                let badge = request && message.request_id.is_some();
                Some(RowSpot::message(seq, y, &message, Shape::Message { from_x, to_x, source, color, fault, fate, badge }))
            }
            (Event::RunStarted { .. } | Event::RunFinished | Event::BudgetReached { .. }, None) => {
                RowSpot::built(entry, y, Shape::Banner).ok()
            }
            (Event::MemberSpawned { name, .. }, None) => {
                let to_x = self.x_of(name, seq);
                let i = self.col_of[name];
                let col = &mut self.columns[i];
                if col.changes.last() != Some(&(seq, MemberStatus::Working, y)) {
                    col.changes.push((seq, MemberStatus::Working, y));
                }
                // Spawned before: a new incarnation, with a head of its own.
                if col.born_seq < seq {
                    col.restarts.push((seq, y));
                }
                Some(RowSpot::spawn(seq, y, to_x))
            }
            (Event::MemberStatusChanged { name, to, .. }, None) => {
                if let Some(&i) = self.col_of.get(name) {
                    self.columns[i].changes.push((seq, *to, y));
                }
                None
            }
            (Event::MessageSent { .. } | Event::FaultApplied { .. } | Event::MessageReleased { .. }, None) => None,
            // Who read what is in the fates.
            (Event::InboxDrained { .. }, None) => None,
            (Event::RequestCreated { request_id, .. }, None) => {
                self.color(request_id);
                None
            }
            (Event::RequestTransitioned { request_id, to, by, .. }, None) => {
                let color = self.color_of.get(request_id).copied().unwrap_or(0);
                if let Some(&b) = self.badge_of.get(request_id) {
                    self.badges[b].moves.push((seq, *to));
                }
                let x = self.x_of(by, seq);
                Some(RowSpot::transition(seq, y, request_id, *to, x, color))
            }
            // No one answered: the request's badge turns rejected where it
            // stands.
            (Event::RequestExpired { request_id, .. }, None) => {
                let color = self.color_of.get(request_id).copied().unwrap_or(0);
                let badge = self.badge_of.get(request_id).copied();
                let x = badge.map_or(LEFT, |b| self.badges[b].x);
                if let Some(b) = badge {
                    self.badges[b].moves.push((seq, RequestStatus::Rejected));
                }
                Some(RowSpot::transition(seq, y, request_id, RequestStatus::Rejected, x, color))
            }
            (Event::ModelCalled { agent }, None) => {
                let x = self.x_of(agent, seq);
                self.open_calls.insert(agent.clone(), self.activations.len());
                self.activations.push(ActivationTrack { x, y0: y, start_seq: seq, end: None, spend: None });
                None
            }
            (Event::ModelReplied { agent, .. }, None) => {
                if let Some(i) = self.open_calls.remove(agent) {
                    // At least most of a row, so a quick reply still shows.
                    let a = &mut self.activations[i];
                    a.end = Some((seq, y.max(a.y0 + ROW_HEIGHT - 6.0)));
                    a.spend = crate::view::cost::Spend::of_event(&entry.event);
                }
                None
            }
            (Event::ModelFailed { agent, .. }, None) => {
                if let Some(i) = self.open_calls.remove(agent) {
                    self.activations[i].end = Some((seq, y));
                }
                let x = self.x_of(agent, seq);
                RowSpot::built(entry, y, Shape::Failure { x }).ok()
            }
            (Event::ToolCalled { agent, tool_use_id, tool, input }, None) => {
                let x = self.x_of(agent, seq);
                self.open_tools.insert(tool_use_id.clone(), self.rows.len());
                Some(RowSpot::tool(seq, y, x, tool, input))
            }
            (Event::ToolReturned { tool_use_id, is_error, .. }, None) => {
                if let Some(r) = self.open_tools.remove(tool_use_id) {
                    if let Shape::Tool { done, .. } = &mut self.rows[r].shape {
                        *done = Some((seq, !is_error));
                    }
                }
                None
            }
        };
        if let Some(spot) = spot {
            let is_message = matches!(spot.shape, Shape::Message { .. });
            self.reach_to(seq, spot.reach);
            self.rows.push(spot);
            let before = *self.messages_before.last().unwrap_or(&0);
            self.messages_before.push(before + usize::from(is_message));
            self.y += ROW_HEIGHT;
        }
    }

    /// The y of the row showing event `seq`, or of the nearest row before
    /// it (as [`Diagram::y_of`] on the whole diagram).
    pub fn y_of(&self, seq: u64) -> f64 {
        let i = self.rows.partition_point(|r| r.seq <= seq);
        if i == 0 {
            HEADER_HEIGHT
        } else {
            self.rows[i - 1].y
        }
    }

    /// What the row showing event `seq` (or the nearest row before it)
    /// spans sideways, as the `viewport` keeps it on screen: an arrow's
    /// sender and recipient x, a note's or transition's agent; `None`
    /// before the first row.
    pub fn span_of(&self, seq: u64) -> Option<Span> {
        let i = self.rows.partition_point(|r| r.seq <= seq).checked_sub(1)?;
        Some(self.rows[i].span())
    }

    /// The diagram's height as of the first `cursor` events.
    pub fn height_at(&self, cursor: Option<usize>) -> f64 {
        let shown = cursor.unwrap_or(usize::MAX).min(self.len);
        let rows = self.rows.partition_point(|r| r.seq < shown as u64) + 1 + self.flights.held_count(shown);
        HEADER_HEIGHT + ROW_HEIGHT * rows as f64
    }

    /// The diagram's width as of the first `cursor` events (as
    /// [`Layout::diagram`] gives it, without building any row).
    pub fn width_at(&self, cursor: Option<usize>) -> f64 {
        let shown = cursor.unwrap_or(usize::MAX).min(self.len) as u64;
        let columns = self.columns.iter().filter(|c| c.name.is_lead() || c.born_seq < shown).count();
        diagram_width(columns, self.reach_at(shown))
    }

    /// How far right the drawing reaches among the events before `shown`.
    fn reach_at(&self, shown: u64) -> f64 {
        self.reach.partition_point(|(seq, _)| *seq < shown).checked_sub(1).map_or(0.0, |i| self.reach[i].1)
    }

    /// Every message's journey (for `motion`).
    pub fn flights(&self) -> &Flights {
        &self.flights
    }

    /// What became of every message (for the message table).
    pub fn fates(&self) -> &Fates {
        self.flights.fates()
    }

    /// The diagram as of the first `cursor` events (all laid out for
    /// `None`), its rows' text read from `entries` (the trace this layout
    /// was built from; a row whose event is not among them is left out).
    /// With a `window` `(top, bottom)`, only the rows, badges and
    /// activations that intersect it are materialised — what the page draws
    /// on each step — so the cost follows the window, not the run's length.
    pub fn diagram(&self, entries: &[TraceEntry], cursor: Option<usize>, window: Option<(f64, f64)>) -> Diagram {
        let shown = cursor.unwrap_or(usize::MAX).min(self.len) as u64;
        let before = |seq: u64| seq < shown;
        let row_count = self.rows.partition_point(|r| before(r.seq));
        let bottom_y = HEADER_HEIGHT + ROW_HEIGHT * row_count as f64;
        let (top, bottom) = window.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        let fates = self.fates().all();
        let first = self.rows[..row_count].partition_point(|r| r.y + ROW_HEIGHT < top);
        let last = self.rows[..row_count].partition_point(|r| r.y <= bottom).max(first);
        let rows = self.rows[first..last]
            .iter()
            .filter_map(|spot| {
                let mut row = spot.row(entries).ok()?;
                match (&mut row.kind, spot.shape) {
                    (RowKind::Message { delivered, .. }, Shape::Message { fate, .. }) => {
                        *delivered = fates[fate].read.is_some_and(before);
                    }
                    (RowKind::Tool { ok, output, .. }, Shape::Tool { done: Some((at, done_ok)), .. }) if before(at) => {
                        *ok = Some(done_ok);
                        *output = RowSpot::tool_output(entries, at).ok();
                    }
                    _ => {}
                }
                Some(row)
            })
            .collect();
        let columns: Vec<Column> = self
            .columns
            .iter()
            .filter(|c| c.name.is_lead() || before(c.born_seq))
            .map(|c| {
                let upto = c.changes.partition_point(|(seq, _, _)| before(*seq));
                let last = upto.checked_sub(1).map(|i| c.changes[i]);
                // The last change before a seq, if it was a shutdown: where
                // the incarnation running then ended.
                let ended_before = |at: u64| {
                    let i = c.changes.partition_point(|(seq, _, _)| *seq < at).checked_sub(1)?;
                    let (_, status, y) = c.changes[i];
                    (status == MemberStatus::Shutdown).then_some(y)
                };
                let restarts = c
                    .restarts
                    .iter()
                    .take_while(|(seq, _)| before(*seq))
                    .map(|&(seq, y)| Restart { y, ended_y: ended_before(seq) })
                    .collect();
                Column {
                    name: c.name.clone(),
                    x: c.x,
                    born_y: c.born_y,
                    ended_y: last.and_then(|(_, status, y)| (status == MemberStatus::Shutdown).then_some(y)),
                    status: if c.name.is_lead() { None } else { Some(last.map_or(MemberStatus::Working, |(_, status, _)| status)) },
                    restarts,
                }
            })
            .collect();
        let activations = self
            .activations
            .iter()
            .take_while(|a| before(a.start_seq))
            .map(|a| match a.end {
                Some((at, y1)) if before(at) => Activation { x: a.x, y0: a.y0, y1, open: false, spend: a.spend },
                _ => Activation { x: a.x, y0: a.y0, y1: bottom_y, open: true, spend: None },
            })
            .filter(|a| a.y1 + ROW_HEIGHT >= top && a.y0 <= bottom)
            .collect();
        let badges = self
            .badges
            .iter()
            .take_while(|b| before(b.first_seq))
            .filter(|b| b.y >= top && b.y <= bottom)
            .map(|b| {
                let upto = b.moves.partition_point(|(seq, _)| before(*seq));
                let (changed_at, status) = upto.checked_sub(1).map_or((b.first_seq, RequestStatus::Pending), |i| b.moves[i]);
                Badge { request_id: b.request_id.clone(), status, y: b.y, x: b.x, color: b.color, changed_at }
            })
            .collect();
        let requests = self.badges.partition_point(|b| before(b.first_seq));
        let reach = self.reach_at(shown);
        Diagram {
            width: diagram_width(columns.len(), reach),
            height: bottom_y + ROW_HEIGHT * (1 + self.flights.held_count(shown as usize)) as f64,
            now_y: bottom_y,
            columns,
            rows,
            activations,
            badges,
            messages: self.messages_before[row_count],
            requests,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Millis, RequestKind, Team};
    use crate::view::fate::Mark;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    fn handshake() -> (Trace, RequestId) {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
        t.drain(&name("alice"), Millis(2)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "ok", Millis(3)).unwrap();
        t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
        (t.trace().clone(), id)
    }

    fn messages(d: &Diagram) -> Vec<(String, Option<usize>, bool)> {
        d.rows
            .iter()
            .filter_map(|r| match &r.kind {
                RowKind::Message { label, color, delivered, .. } => Some((label.clone(), *color, *delivered)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn both_arrows_of_a_request_carry_its_id_and_share_a_colour() {
        let (trace, id) = handshake();
        let m = messages(&layout(&trace, None));
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].0, format!("shutdown_request [{id}]"));
        assert_eq!(m[1].0, format!("shutdown_response [{id}]"));
        assert_eq!(m[0].1, m[1].1);
        assert!(m[0].2, "alice read the request");
        assert!(!m[1].2, "the lead has not read the answer yet");
    }

    #[test]
    fn the_badge_shows_the_state_as_of_the_cursor() {
        let (trace, _) = handshake();
        let transition = trace.entries().iter().position(|e| matches!(e.event, Event::RequestTransitioned { .. })).unwrap();
        assert_eq!(layout(&trace, Some(transition)).badges[0].status, RequestStatus::Pending);
        assert_eq!(layout(&trace, Some(transition + 1)).badges[0].status, RequestStatus::Approved);
    }

    #[test]
    fn a_lifeline_is_born_at_spawn_and_ends_at_shutdown() {
        let (trace, _) = handshake();
        let d = layout(&trace, None);
        assert_eq!(d.columns.len(), 2);
        let alice = &d.columns[1];
        assert_eq!(alice.born_y, HEADER_HEIGHT);
        assert!(alice.ended_y.is_some());
        assert_eq!(alice.status, Some(MemberStatus::Shutdown));
        let before_end = layout(&trace, Some(trace.len() - 1));
        assert_eq!(before_end.columns[1].ended_y, None);
    }

    #[test]
    fn an_open_model_call_is_an_open_activation_to_the_bottom() {
        let mut trace = Trace::new("d", 0);
        trace.append(Millis(0), Event::ModelCalled { agent: AgentName::lead() }).unwrap();
        trace.append(Millis(0), Event::RunStarted { prompt: "x".into() }).unwrap();
        let d = layout(&trace, None);
        assert!(d.activations[0].open);
        assert_eq!(d.activations[0].y1, d.rows.last().unwrap().y + ROW_HEIGHT);
    }

    #[test]
    fn only_rows_on_screen_are_returned() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("a"), "r", false, Millis(0)).unwrap();
        for i in 0..1000 {
            t.send(&AgentName::lead(), &name("a"), "message", "hi", Millis(i)).unwrap();
        }
        let d = layout(t.trace(), None);
        let visible = d.rows_between(HEADER_HEIGHT + 300.0 * ROW_HEIGHT, HEADER_HEIGHT + 320.0 * ROW_HEIGHT);
        assert!(visible.len() >= 20 && visible.len() <= 23, "{}", visible.len());
        assert!(d.rows_between(-100.0, -50.0).is_empty());
        assert_eq!(d.y_of(0), HEADER_HEIGHT);
    }

    #[test]
    fn faulty_messages_are_marked_and_a_dropped_one_is_never_delivered() {
        use crate::protocol::{FaultAction, FaultPlan, FaultRule, Millis, Team};
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        for (i, action) in [FaultAction::Drop, FaultAction::Duplicate, FaultAction::Reorder].into_iter().enumerate() {
            t.set_faults(FaultPlan::new(vec![FaultRule::new(action)]));
            t.send(&AgentName::lead(), &name("alice"), "message", &format!("m{i}"), Millis(1)).unwrap();
        }
        t.release_all(Millis(2)).unwrap();
        t.drain(&name("alice"), Millis(3)).unwrap();
        let d = layout(t.trace(), None);
        let marks: Vec<_> = d
            .rows
            .iter()
            .filter_map(|r| match &r.kind {
                RowKind::Message { fault, delivered, .. } => Some((*fault, *delivered)),
                _ => None,
            })
            .collect();
        let late = Some(Mark::Late(crate::view::fate::Hold::Reordered));
        assert_eq!(marks, [(Some(Mark::Dropped), false), (None, true), (Some(Mark::Duplicate), true), (late, true)]);
    }

    #[test]
    fn the_plan_request_arrow_carries_the_plan_and_the_answer_carries_the_feedback() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("bob"), "refactorer", true, Millis(0)).unwrap();
        let id = t.submit_plan(&name("bob"), "Rewrite the auth module in one go", Millis(1)).unwrap();
        t.answer(RequestKind::PLAN, &id, &AgentName::lead(), false, "Too risky: split it", Millis(2)).unwrap();
        let d = layout(t.trace(), None);
        let said: Vec<_> = d
            .rows
            .iter()
            .filter_map(|r| match &r.kind {
                RowKind::Message { said, .. } => said.as_ref().map(|s| (s.field, s.text.as_str())),
                _ => None,
            })
            .collect();
        assert_eq!(said, [("plan", "Rewrite the auth module in one go"), ("feedback", "Too risky: split it")]);
    }

    #[test]
    fn the_plan_approval_tool_note_shows_the_plan_not_empty_parentheses() {
        let mut trace = Trace::new("d", 0);
        let input = serde_json::json!({"plan": "Split auth into three steps"});
        trace
            .append(Millis(0), Event::ToolCalled { agent: name("bob"), tool_use_id: "t".into(), tool: "plan_approval".into(), input })
            .unwrap();
        let d = layout(&trace, None);
        let RowKind::Tool { label, .. } = &d.rows[0].kind else { panic!("a tool note") };
        assert!(label.starts_with("plan_approval(Split auth"), "{label}");
        assert!(label.chars().count() <= TOOL_LABEL_CHARS);
    }
}
