//! The diagram's rows: what each row shows ([`RowKind`]), how far right it
//! reaches ([`row_reach`]), and the compact form the layout keeps for every
//! row of a run ([`RowSpot`]): its event's seq, its y, and what laying the
//! run out decided for it (columns' x, a request's colour, a fault's mark,
//! a tool's outcome) as plain numbers. A row's text (labels, a message's
//! words, a tool's call) is read from its event only when the row is drawn
//! ([`RowSpot::row`]), so laying out a 100,000-event run copies no string.
//!
//! Owns rows only: columns, activations and badges, and which rows a
//! window shows, are `layout`'s. Must not touch the DOM or any signal.

use crate::protocol::text::clip;
use crate::protocol::{AgentName, Event, Message, MessageType, RequestId, RequestStatus, TraceEntry};
use crate::view::diagram::layout::{BADGE_REACH, COLUMN_WIDTH, LEFT};
use crate::view::diagram::metrics::{chars_columns, text_columns, BANNER_CHAR_WIDTH, BANNER_X};
use crate::view::fate::Mark;
use crate::view::words::captions::{said, Said};

/// How many characters of a tool call a note keeps (the rest is in the
/// event log): a note fits between its agent's lifeline and the next one.
pub const TOOL_LABEL_CHARS: usize = 28;
/// How many characters of a plain message's text its arrow keeps.
pub const MESSAGE_TEXT_CHARS: usize = 28;
/// The most characters of a prompt a run banner holds (cut with "…").
pub const PROMPT_CHARS: usize = 90;
/// The width of one character of 13 px text, regular and bold (transition
/// notes), as measured in Chromium's default sans-serif: what a row's text
/// reaches to the right is estimated with these.
const CHAR_WIDTH: f64 = 7.3;
const BOLD_CHAR_WIDTH: f64 = 8.1;
/// How many characters of a failed model call's error a note keeps.
const ERROR_CHARS: usize = 80;
/// How many characters of a tool's result a finished note keeps.
const OUTPUT_CHARS: usize = 200;

/// Why a row could not be built from the entries given: they are not the
/// trace the layout was built from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RowsError {
    /// The row's event is not among the entries.
    #[error("event {0} is not among the entries given")]
    Missing(u64),
    /// The event at the row's seq is not the kind of event the row shows.
    #[error("event {0} is not the event its row was laid out from")]
    Mismatch(u64),
}

/// How far right what `kind` draws reaches (its text, note box or plate),
/// in SVG units; the diagram's width includes the widest row shown, so
/// nothing near the right edge is cut off. Estimated from the stylesheet's
/// 13 px text, as `geometry` draws it.
pub fn row_reach(kind: &RowKind) -> f64 {
    match kind {
        RowKind::RunStarted { prompt, .. } => BANNER_X + 4.0 + text_columns(&format!("▶ {prompt}")) * BANNER_CHAR_WIDTH,
        // "Run finished" is a few words in every language.
        RowKind::RunFinished => 0.0,
        // "Budget reached: 50k tokens" is a few words in every language.
        RowKind::BudgetReached { .. } => BANNER_X + 4.0 + 32.0 * BANNER_CHAR_WIDTH,
        RowKind::Spawn { to_x, .. } => to_x + 60.0,
        RowKind::Message { from_x, to_x, label, .. } => message_reach(*from_x, *to_x, text_columns(label)),
        RowKind::Transition { request_id, to, x, .. } => transition_reach(*x, request_id, *to),
        RowKind::Tool { x, label, .. } => tool_reach(*x, label.chars().count()),
        RowKind::Failure { x, error, .. } => x + 10.0 + text_columns(&format!("⚠ {error}")) * CHAR_WIDTH,
    }
}

/// How far right an arrow from `from_x` to `to_x` whose label is
/// `label_columns` wide reaches: the label sits in the middle of the gap
/// next to the sender (a message to oneself: a 40-unit arrow to the right).
fn message_reach(from_x: f64, to_x: f64, label_columns: f64) -> f64 {
    let (x1, x2) = if (to_x - from_x).abs() < 1.0 { (from_x, from_x + 40.0) } else { (from_x, to_x) };
    let gap = (x2 - x1).abs().min(COLUMN_WIDTH);
    let mid = if x2 >= x1 { x1 + gap / 2.0 } else { x1 - gap / 2.0 };
    (mid + label_columns * CHAR_WIDTH / 2.0).max(x1.max(x2) + 6.0)
}

/// How far right a transition note (`{request_id}: pending → {to}`, bold)
/// at `x` reaches.
fn transition_reach(x: f64, request_id: &RequestId, to: RequestStatus) -> f64 {
    const PENDING: &str = ": pending → ";
    let (id, to) = (request_id.as_str(), to.as_str());
    // No wide character (an id is hex): one column each, an exact sum.
    let columns = if to.is_ascii() {
        (id.len() + PENDING.chars().count() + to.len()) as f64
    } else {
        chars_columns(id.chars().chain(PENDING.chars()).chain(to.chars()))
    };
    x + 10.0 + columns * BOLD_CHAR_WIDTH
}

/// `chars_columns(label_chars(message))`, without walking the label when
/// it is ASCII (most are): one column per character, an exact sum.
fn label_columns(message: &Message) -> f64 {
    let kind = message.msg_type.as_str();
    match &message.request_id {
        Some(id) if kind.is_ascii() => (kind.len() + " [".len() + id.as_str().len() + "]".len()) as f64,
        // Cut text ends in `…` (one column) in place of its last character.
        None if kind.is_ascii() && message.content.is_ascii() => {
            (kind.len() + ": ".len() + message.content.len().min(MESSAGE_TEXT_CHARS)) as f64
        }
        _ => chars_columns(label_chars(message)),
    }
}

/// The characters of `clip(s, max)`, without building it.
fn clipped_chars(s: &str, max: usize) -> impl Iterator<Item = char> + '_ {
    let cut = s.chars().count() > max;
    s.chars().take(if cut { max.saturating_sub(1) } else { usize::MAX }).chain(cut.then_some('…'))
}

/// The characters of a message arrow's label (`type [id]`, or `type:
/// text` cut to [`MESSAGE_TEXT_CHARS`]), without building it.
fn label_chars(message: &Message) -> impl Iterator<Item = char> + '_ {
    let (id, text) = match &message.request_id {
        Some(id) => (Some(id), None),
        None => (None, Some(&message.content)),
    };
    message
        .msg_type
        .as_str()
        .chars()
        .chain(id.into_iter().flat_map(|id| " [".chars().chain(id.as_str().chars()).chain("]".chars())))
        .chain(text.into_iter().flat_map(|t| ": ".chars().chain(clipped_chars(t, MESSAGE_TEXT_CHARS))))
}

/// A message arrow's label: `type [id]`, or `type: text` cut to
/// [`MESSAGE_TEXT_CHARS`].
fn message_label(message: &Message) -> String {
    match &message.request_id {
        Some(id) => format!("{} [{id}]", message.msg_type),
        None => format!("{}: {}", message.msg_type, clip(&message.content, MESSAGE_TEXT_CHARS)),
    }
}

/// The keys of a tool call's input whose values a note shows, in order.
const SHORT_ARG_KEYS: [&str; 9] = ["path", "name", "teammate", "to", "request_id", "approve", "plan", "feedback", "reason"];

/// A tool call's arguments, short: the values of the keys a note shows.
fn short_args(input: &serde_json::Value) -> String {
    let Some(obj) = input.as_object() else { return String::new() };
    let mut parts = Vec::new();
    for key in SHORT_ARG_KEYS {
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

/// How many characters a tool note's label (`tool(args)` cut to
/// [`TOOL_LABEL_CHARS`]) has, counted without building it (a value that is
/// not a string is written out to be counted, as [`short_args`] does).
fn tool_label_len(tool: &str, input: &serde_json::Value) -> usize {
    let args = input.as_object().map_or(0, |obj| {
        // A sum over the keys a note shows, in any order: one pass over the
        // input's (few) keys rather than a map lookup per key shown.
        let shown = obj.iter().filter(|(key, _)| SHORT_ARG_KEYS.contains(&key.as_str())).map(|(_, v)| v);
        let (chars, values) = shown.fold((0usize, 0usize), |(chars, values), v| {
            let n = match v {
                serde_json::Value::String(s) => s.chars().count(),
                other => other.to_string().chars().count(),
            };
            (chars + n, values + 1)
        });
        chars + 2 * values.saturating_sub(1)
    });
    (tool.chars().count() + 2 + args).min(TOOL_LABEL_CHARS)
}

/// How far right a tool note at `x` whose label has `label_len`
/// characters reaches.
fn tool_reach(x: f64, label_len: usize) -> f64 {
    x + 8.0 + label_len as f64 * CHAR_WIDTH + 14.0
}

/// `text` whole, when cutting it to `max` characters loses something.
fn cut_from(text: &str, max: usize) -> Option<String> {
    (clip(text, max) != text).then(|| text.to_string())
}

/// What the run decided for a row when its event was laid out; the rest of
/// the row is its event's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// A run banner (started, finished, budget reached).
    Banner,
    /// A spawn arrow to the teammate's x.
    Spawn {
        /// The teammate's x.
        to_x: f64,
    },
    /// A message arrow; the message is in event `source` (the send, or the
    /// fault that held a message this row's release draws).
    Message {
        /// Sender x.
        from_x: f64,
        /// Recipient x.
        to_x: f64,
        /// The event that carries the message.
        source: u64,
        /// Colour slot of its request.
        color: Option<usize>,
        /// The fault that hit it.
        fault: Option<Mark>,
        /// Its index in the run's `Fates` (when its recipient read it).
        fate: usize,
        /// A request's message (a request type with an id): its request's
        /// badge may stand beside it, so the viewport keeps room for one.
        badge: bool,
    },
    /// A request's transition (or expiry, as rejected).
    Transition {
        /// The new state.
        to: RequestStatus,
        /// Where the badge is drawn.
        x: f64,
        /// Colour slot.
        color: usize,
    },
    /// A tool note.
    Tool {
        /// The agent's x.
        x: f64,
        /// The event that finished the call and whether it succeeded.
        done: Option<(u64, bool)>,
    },
    /// A failed model call's note.
    Failure {
        /// The agent's x.
        x: f64,
    },
}

/// One row as the layout keeps it for the whole run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RowSpot {
    /// The event's sequence number.
    pub seq: u64,
    /// Top of the row.
    pub y: f64,
    /// How far right it reaches (`row_reach` of the row it builds).
    pub reach: f64,
    /// What the layout decided for it.
    pub shape: Shape,
}

/// The entry for event `seq` among `entries` (the run's trace, or a part
/// of it that holds `seq`).
fn entry_at(entries: &[TraceEntry], seq: u64) -> Result<&TraceEntry, RowsError> {
    match entries.get(seq as usize) {
        Some(e) if e.seq == seq => Ok(e),
        _ => entries.binary_search_by_key(&seq, |e| e.seq).map(|i| &entries[i]).map_err(|_| RowsError::Missing(seq)),
    }
}

/// The message event `entry` carries (a send or a fault's).
fn message_of(entry: &TraceEntry) -> Result<&Message, RowsError> {
    match &entry.event {
        Event::MessageSent { message } | Event::FaultApplied { message, .. } => Ok(message),
        _ => Err(RowsError::Mismatch(entry.seq)),
    }
}

impl RowSpot {
    /// A message arrow's row, its reach counted without building its label.
    pub fn message(seq: u64, y: f64, message: &Message, shape: Shape) -> RowSpot {
        let reach = match shape {
            Shape::Message { from_x, to_x, .. } => message_reach(from_x, to_x, label_columns(message)),
            _ => 0.0,
        };
        RowSpot { seq, y, reach, shape }
    }

    /// A transition's row, its reach counted without building its text.
    pub fn transition(seq: u64, y: f64, request_id: &RequestId, to: RequestStatus, x: f64, color: usize) -> RowSpot {
        RowSpot { seq, y, reach: transition_reach(x, request_id, to), shape: Shape::Transition { to, x, color } }
    }

    /// A spawn's row (its reach is its arrow's head and the name).
    pub fn spawn(seq: u64, y: f64, to_x: f64) -> RowSpot {
        RowSpot { seq, y, reach: to_x + 60.0, shape: Shape::Spawn { to_x } }
    }

    /// A tool note's row, its reach counted without building its label.
    pub fn tool(seq: u64, y: f64, x: f64, tool: &str, input: &serde_json::Value) -> RowSpot {
        RowSpot { seq, y, reach: tool_reach(x, tool_label_len(tool, input)), shape: Shape::Tool { x, done: None } }
    }

    /// Any other row (rare in a run: banners, failures): its reach from the
    /// row it builds from `entry`.
    pub fn built(entry: &TraceEntry, y: f64, shape: Shape) -> Result<RowSpot, RowsError> {
        let mut spot = RowSpot { seq: entry.seq, y, reach: 0.0, shape };
        spot.reach = row_reach(&spot.kind_from(std::slice::from_ref(entry))?);
        Ok(spot)
    }

    /// The row it shows, as when nothing after its event has happened
    /// (a message not yet read, a tool still running), its text read from
    /// `entries` (the run's trace).
    pub fn row(&self, entries: &[TraceEntry]) -> Result<Row, RowsError> {
        Ok(Row { seq: self.seq, y: self.y, kind: self.kind_from(entries)? })
    }

    fn kind_from(&self, entries: &[TraceEntry]) -> Result<RowKind, RowsError> {
        let entry = entry_at(entries, self.seq)?;
        let mismatch = || RowsError::Mismatch(self.seq);
        Ok(match (self.shape, &entry.event) {
            (Shape::Banner, Event::RunStarted { prompt }) => {
                RowKind::RunStarted { prompt: clip(prompt, PROMPT_CHARS), whole: cut_from(prompt, PROMPT_CHARS) }
            }
            (Shape::Banner, Event::RunFinished) => RowKind::RunFinished,
            (Shape::Banner, Event::BudgetReached { limit, .. }) => RowKind::BudgetReached { limit: *limit },
            (Shape::Spawn { to_x }, Event::MemberSpawned { name, .. }) => RowKind::Spawn { name: name.clone(), from_x: LEFT, to_x },
            (Shape::Message { from_x, to_x, source, color, fault, .. }, _) => {
                let message = message_of(entry_at(entries, source)?)?;
                RowKind::Message {
                    from_x,
                    to_x,
                    label: message_label(message),
                    msg_type: message.msg_type,
                    request_id: message.request_id.clone(),
                    color,
                    delivered: false,
                    fault,
                    said: said(message),
                    text: matches!(message.msg_type, MessageType::Message | MessageType::Broadcast).then(|| message.content.clone()),
                }
            }
            (
                Shape::Transition { to, x, color },
                Event::RequestTransitioned { request_id, .. } | Event::RequestExpired { request_id, .. },
            ) => RowKind::Transition { request_id: request_id.clone(), to, x, color },
            (Shape::Tool { x, .. }, Event::ToolCalled { tool, input, .. }) => {
                let args = short_args(input);
                let label = clip(&format!("{tool}({args})"), TOOL_LABEL_CHARS);
                RowKind::Tool { x, label, call: (tool.clone(), args), ok: None, output: None }
            }
            (Shape::Failure { x }, Event::ModelFailed { error, .. }) => {
                RowKind::Failure { x, error: clip(error, ERROR_CHARS), whole: cut_from(error, ERROR_CHARS) }
            }
            _ => return Err(mismatch()),
        })
    }

    /// The finished tool call's result text, cut (for a tool row whose call
    /// has returned).
    pub fn tool_output(entries: &[TraceEntry], done: u64) -> Result<String, RowsError> {
        match &entry_at(entries, done)?.event {
            Event::ToolReturned { output, .. } => Ok(clip(output, OUTPUT_CHARS)),
            _ => Err(RowsError::Mismatch(done)),
        }
    }

    /// What the row spans sideways and how far right it reaches (a
    /// request's first message: its badge too).
    pub fn span(&self) -> Span {
        let (from, to, badge) = match self.shape {
            Shape::Message { from_x, to_x, badge, .. } => {
                let (from, to) = if (to_x - from_x).abs() < 1.0 { (from_x, from_x + 40.0) } else { (from_x, to_x) };
                (from, to, if badge { from.max(to) + BADGE_REACH } else { 0.0 })
            }
            Shape::Spawn { to_x } => (LEFT, to_x, 0.0),
            Shape::Transition { x, .. } | Shape::Tool { x, .. } | Shape::Failure { x } => (x, x, 0.0),
            // A banner starts at the left edge: the lead's lifeline.
            Shape::Banner => return Span { from: LEFT, to: LEFT, right: LEFT },
        };
        Span { from, to, right: self.reach.max(badge) }
    }
}

/// What a row spans sideways: from the sender's x to the recipient's (the
/// same x for a row about one agent), and how far right what it draws
/// reaches (a request's badge, a note).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// Where it starts (an arrow's sender).
    pub from: f64,
    /// Where it ends (an arrow's head).
    pub to: f64,
    /// The right edge of its label, note or badge.
    pub right: f64,
}

/// What one row shows.
#[derive(Debug, Clone, PartialEq)]
pub enum RowKind {
    /// A user prompt started a run.
    RunStarted {
        /// The prompt, cut to 90 characters.
        prompt: String,
        /// The whole prompt, when `prompt` cuts it: the diagram opens it
        /// when the banner is tapped.
        whole: Option<String>,
    },
    /// The team went quiet.
    RunFinished,
    /// The run's budget stopped it (a banner like the run's end).
    BudgetReached {
        /// The budget.
        limit: crate::protocol::BudgetLimit,
    },
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
        /// The fault that hit it: dropped, the duplicate's copy, or the late
        /// arrival of a delayed or reordered message; `None` for a normal
        /// message.
        fault: Option<Mark>,
        /// What was said, whole: the plan on a plan request, the lead's
        /// feedback or the teammate's reason on a response.
        said: Option<Said>,
        /// A plain message's (or broadcast's) whole text, which its label
        /// may cut: the diagram opens it whole when its label is tapped.
        text: Option<String>,
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
        /// `tool(args)`, cut to [`TOOL_LABEL_CHARS`].
        label: String,
        /// The tool's name and its arguments whole (`label` may cut them):
        /// the diagram opens them when the note is tapped.
        call: (String, String),
        /// Its outcome as of the cursor: `None` while running.
        ok: Option<bool>,
        /// The result text, if any.
        output: Option<String>,
    },
    /// A model call failed.
    Failure {
        /// The agent's x.
        x: f64,
        /// The error, cut to 80 characters.
        error: String,
        /// The whole error, when `error` cuts it: the diagram opens it
        /// when the note is tapped.
        whole: Option<String>,
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A value a tool call's input may hold under a key a note shows.
    fn value() -> impl Strategy<Value = serde_json::Value> {
        prop_oneof![
            "[a-zé漢/ .]{0,20}".prop_map(serde_json::Value::from),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i32>().prop_map(serde_json::Value::from),
        ]
    }

    #[test]
    fn a_transitions_reach_counted_equals_its_texts_columns() {
        let id = RequestId::parse("0badc0de").unwrap();
        for to in [RequestStatus::Pending, RequestStatus::Approved, RequestStatus::Rejected] {
            let text = format!("{}: pending → {}", id.as_str(), to.as_str());
            assert_eq!(transition_reach(100.0, &id, to), 100.0 + 10.0 + text_columns(&text) * BOLD_CHAR_WIDTH, "{to:?}");
        }
    }

    proptest! {
        /// A message arrow's label width, counted on the ASCII shortcut or
        /// not, equals the characters' columns of the label built.
        #[test]
        fn a_message_labels_columns_counted_equal_the_label_built(
            content in "([a-z ?.]{0,40}|[a-zé漢 ]{0,40})",
            id in proptest::option::of("[0-9a-f]{8}"),
        ) {
            use crate::protocol::{Millis, MessageType};
            let (from, to) = (AgentName::lead(), AgentName::parse("alice").unwrap());
            let kind = if id.is_some() { MessageType::SHUTDOWN_REQUEST } else { MessageType::Message };
            let mut m = Message::new(kind, from, to, &content, Millis(0));
            m.request_id = id.map(|id| RequestId::parse(&id).unwrap());
            prop_assert_eq!(label_columns(&m), chars_columns(label_chars(&m)));
            prop_assert_eq!(label_columns(&m), text_columns(&message_label(&m)));
        }

        /// A tool note's reach is counted without building its label: the
        /// count equals the characters of the label built when it is drawn.
        #[test]
        fn a_tool_labels_length_counted_equals_the_label_built(
            tool in "[a-z_漢]{0,16}",
            args in proptest::collection::btree_map(proptest::sample::select(SHORT_ARG_KEYS.to_vec()), value(), 0..5),
            other in value(),
        ) {
            let mut input: serde_json::Map<String, serde_json::Value> = args.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            input.insert("content".into(), other);
            let input = serde_json::Value::Object(input);
            let label = clip(&format!("{tool}({})", short_args(&input)), TOOL_LABEL_CHARS);
            prop_assert_eq!(tool_label_len(&tool, &input), label.chars().count());
        }
    }
}
