//! The sequence diagram as data: a pure function of (trace, cursor) that
//! places lifelines, arrows, request badges, activation bars and tool notes.
//! The SVG component only draws what this returns, for the rows on screen.
//!
//! Owns geometry and labels. It must not touch the DOM or any signal, so it
//! is tested natively and stays cheap enough to recompute on every step.

use std::collections::BTreeMap;

use crate::protocol::{AgentName, Event, FaultAction, MemberStatus, MessageType, RequestId, RequestStatus, Trace};

/// Width of one agent column, in SVG units.
pub const COLUMN_WIDTH: f64 = 170.0;
/// Height of one row.
pub const ROW_HEIGHT: f64 = 30.0;
/// Space above the first row, for the agent heads.
pub const HEADER_HEIGHT: f64 = 56.0;
/// Left margin.
pub const LEFT: f64 = 90.0;
/// How many colours requests cycle through.
pub const PALETTE_SIZE: usize = 8;

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
}

/// What one row shows.
#[derive(Debug, Clone, PartialEq)]
pub enum RowKind {
    /// A user prompt started a run.
    RunStarted {
        /// The prompt.
        prompt: String,
    },
    /// The team went quiet.
    RunFinished,
    /// The lead spawned a teammate.
    Spawn {
        /// Who.
        name: AgentName,
        /// The lead's x.
        from_x: f64,
        /// The teammate's x.
        to_x: f64,
    },
    /// A message arrow.
    Message {
        /// Sender x.
        from_x: f64,
        /// Recipient x.
        to_x: f64,
        /// `type [request_id]`.
        label: String,
        /// The message type.
        msg_type: MessageType,
        /// The request it belongs to.
        request_id: Option<RequestId>,
        /// Colour slot of its request.
        color: Option<usize>,
        /// Whether the recipient has read it as of the cursor (never, for a
        /// dropped message).
        delivered: bool,
        /// The fault that hit it: `dropped`, `duplicate` (the copy),
        /// `delayed` or `reordered` (the late arrival); `None` for a
        /// normal message.
        fault: Option<&'static str>,
    },
    /// A request moved along its FSM.
    Transition {
        /// Which request.
        request_id: RequestId,
        /// The new state.
        to: RequestStatus,
        /// Where to draw the badge.
        x: f64,
        /// Colour slot.
        color: usize,
    },
    /// A tool run, as a note beside the agent.
    Tool {
        /// The agent's x.
        x: f64,
        /// `tool(args)`.
        label: String,
        /// Its outcome as of the cursor: `None` while running.
        ok: Option<bool>,
        /// The result text, if any.
        output: Option<String>,
    },
    /// A model call failed.
    Failure {
        /// The agent's x.
        x: f64,
        /// The error.
        error: String,
    },
}

/// One drawn row, tied to the event it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The event's sequence number.
    pub seq: u64,
    /// Top of the row.
    pub y: f64,
    /// What it shows.
    pub kind: RowKind,
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
    /// Total height.
    pub height: f64,
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

fn short_args(input: &serde_json::Value) -> String {
    let Some(obj) = input.as_object() else { return String::new() };
    let mut parts = Vec::new();
    for key in ["path", "name", "teammate", "to", "request_id", "approve"] {
        if let Some(v) = obj.get(key) {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            parts.push(text);
        }
    }
    parts.join(", ")
}

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        s.chars().take(max.saturating_sub(1)).collect::<String>() + "…"
    }
}

/// Lays out the first `cursor` events of `trace` (all of them for `None`).
pub fn layout(trace: &Trace, cursor: Option<usize>) -> Diagram {
    let entries = &trace.entries()[..cursor.unwrap_or(usize::MAX).min(trace.len())];
    let mut d = Diagram::default();
    let mut col_of: BTreeMap<AgentName, usize> = BTreeMap::new();
    let lead = AgentName::lead();
    col_of.insert(lead.clone(), 0);
    d.columns.push(Column { name: lead, x: LEFT, born_y: HEADER_HEIGHT - 20.0, ended_y: None, status: None });
    let mut color_of: BTreeMap<RequestId, usize> = BTreeMap::new();
    let mut badge_of: BTreeMap<RequestId, usize> = BTreeMap::new();
    let mut open_calls: BTreeMap<AgentName, usize> = BTreeMap::new();
    let mut open_tools: BTreeMap<String, usize> = BTreeMap::new();
    let mut row_of_message: BTreeMap<u64, usize> = BTreeMap::new();
    let mut held: BTreeMap<u64, (crate::protocol::Message, &'static str)> = BTreeMap::new();
    let mut duplicate_next = false;
    let mut y = HEADER_HEIGHT;

    let x_of = |d: &mut Diagram, col_of: &mut BTreeMap<AgentName, usize>, name: &AgentName, y: f64| -> f64 {
        if let Some(&i) = col_of.get(name) {
            return d.columns[i].x;
        }
        let i = d.columns.len();
        let x = LEFT + COLUMN_WIDTH * i as f64;
        col_of.insert(name.clone(), i);
        d.columns.push(Column { name: name.clone(), x, born_y: y, ended_y: None, status: Some(MemberStatus::Working) });
        x
    };

    for entry in entries {
        let seq = entry.seq;
        let released: Option<(crate::protocol::Message, &'static str)>;
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
                    None => format!("{}: {}", message.msg_type, clip(&message.content, 40)),
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
                    fault,
                })
            }
            (Event::RunStarted { prompt }, None) => Some(RowKind::RunStarted { prompt: clip(prompt, 90) }),
            (Event::RunFinished, None) => Some(RowKind::RunFinished),
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
                d.activations.push(Activation { x, y0: y, y1: y, open: true });
                None
            }
            (Event::ModelReplied { agent, .. }, None) => {
                if let Some(i) = open_calls.remove(agent) {
                    // At least most of a row, so a quick reply still shows.
                    d.activations[i].y1 = y.max(d.activations[i].y0 + ROW_HEIGHT - 6.0);
                    d.activations[i].open = false;
                }
                None
            }
            (Event::ModelFailed { agent, error }, None) => {
                if let Some(i) = open_calls.remove(agent) {
                    d.activations[i].y1 = y;
                    d.activations[i].open = false;
                }
                let x = x_of(&mut d, &mut col_of, agent, y);
                Some(RowKind::Failure { x, error: clip(error, 80) })
            }
            (Event::ToolCalled { agent, tool_use_id, tool, input }, None) => {
                let x = x_of(&mut d, &mut col_of, agent, y);
                open_tools.insert(tool_use_id.clone(), d.rows.len());
                Some(RowKind::Tool { x, label: clip(&format!("{tool}({})", short_args(input)), 44), ok: None, output: None })
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
    d.width = LEFT + COLUMN_WIDTH * (d.columns.len() as f64 - 0.5) + 140.0;
    d.height = y + ROW_HEIGHT;
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Millis, RequestKind, Team};

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    fn handshake() -> (Trace, RequestId) {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
        t.drain(&name("alice"), Millis(2)).unwrap();
        t.answer(RequestKind::Shutdown, &id, &name("alice"), true, "ok", Millis(3)).unwrap();
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
        use crate::protocol::{FaultPlan, FaultRule, Millis, Team};
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
        assert_eq!(marks, [(Some("dropped"), false), (None, true), (Some("duplicate"), true), (Some("reordered"), true)]);
    }
}
