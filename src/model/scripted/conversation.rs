//! What the scripted policies read a request as: the conversation so far
//! (prompt, messages heard, past tool calls and what each returned) and
//! what a policy decides (some text and some tool calls).
//!
//! Owns the reading of a `ModelRequest` into a `Conversation`, and the
//! reading of one turn's texts that a caller may keep with the turn
//! (`TurnReading`). It must not decide anything: the lead's and the
//! teammate's policies do (`lead`, `teammate`).

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::goal::GoalMemo;
use crate::model::{ContentBlock, Role, Turn};

/// What the policy decided: some text and some tool calls.
#[derive(Debug, Default)]
pub(super) struct Decision {
    pub(super) text: String,
    pub(super) calls: Vec<(String, Value)>,
}

impl Decision {
    pub(super) fn say(text: impl Into<String>) -> Self {
        Decision { text: text.into(), calls: Vec::new() }
    }
    pub(super) fn call(mut self, name: &str, input: Value) -> Self {
        self.calls.push((name.to_string(), input));
        self
    }
}

/// A tool call the model made earlier, with its result once known, both
/// borrowed from the turns they were read in.
#[derive(Debug, Clone, Copy)]
pub(super) struct PastCall<'a> {
    pub(super) name: &'a str,
    pub(super) input: &'a Value,
    pub(super) result: Option<(&'a str, bool)>,
}

impl<'a> PastCall<'a> {
    pub(super) fn ok(&self) -> bool {
        matches!(self.result, Some((_, false)))
    }
    pub(super) fn output(&self) -> &'a str {
        self.result.map_or("", |(o, _)| o)
    }
    pub(super) fn arg(&self, key: &str) -> &'a str {
        self.input.get(key).and_then(Value::as_str).unwrap_or("")
    }
}

/// Something the agent was told: a prompt, or a message from the bus.
#[derive(Debug, Clone)]
pub(super) enum Heard {
    Prompt(Arc<HeardPrompt>),
    Message(Arc<Value>),
    /// The runtime's note that a request of ours expired unanswered
    /// (`"event": "request_expired"`, with `request_id`, `protocol`, `to`).
    Expired(Arc<Value>),
    /// The runtime's note that a request addressed to us expired
    /// unanswered (the same note, with `"party": "addressee"`): it is not
    /// to be answered any more.
    ExpiredAddressed(Arc<Value>),
}

/// A prompt heard, with the lead's goals read from it (kept as long as the
/// reading of its turn: `TurnReading`).
#[derive(Debug)]
pub(super) struct HeardPrompt {
    pub(super) text: String,
    pub(super) goals: GoalMemo,
}

/// What the policy reads in one turn's texts: the prompts and the bus
/// messages in each, in order. A caller that asks about the same turns
/// again keeps one with each turn (the explorer's turns are shared among
/// its states, and every call reads its whole conversation again), so each
/// turn's texts are parsed once; nothing else remembers them.
#[derive(Debug, Default)]
pub struct TurnReading(OnceLock<Vec<Vec<Heard>>>);

impl TurnReading {
    /// What `turn`'s texts say, read at the first call.
    fn of(&self, turn: &Turn) -> &[Vec<Heard>] {
        self.0.get_or_init(|| read_texts(turn))
    }
}

/// A turn of a request as the policy is asked about it: the turn, and the
/// reading kept with it, if the caller keeps one.
#[derive(Debug, Clone, Copy)]
pub struct AskedTurn<'a> {
    /// The turn.
    pub turn: &'a Turn,
    /// Its reading, kept by the caller.
    pub reading: Option<&'a TurnReading>,
}

/// Each text of a user turn, heard (`hear`).
fn read_texts(turn: &Turn) -> Vec<Vec<Heard>> {
    if turn.role != Role::User {
        return Vec::new();
    }
    turn.content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(hear(text)),
            _ => None,
        })
        .collect()
}

/// The conversation, read back into what was heard and what was done, in
/// order. Everything is relative to the latest prompt. Tool calls and
/// their results are borrowed from the turns (a policy is asked about a
/// whole conversation at every call: nothing in it is copied).
#[derive(Debug, Default)]
pub(super) struct Conversation<'a> {
    /// The latest prompt as heard, with what was read from it.
    pub(super) prompt_heard: Option<Arc<HeardPrompt>>,
    /// Every prompt, oldest first.
    pub(super) prompts: Vec<Arc<HeardPrompt>>,
    /// Tool calls since the latest prompt, with results.
    pub(super) calls: Vec<PastCall<'a>>,
    /// Every tool call in the whole conversation.
    pub(super) all_calls: Vec<PastCall<'a>>,
    /// Bus messages heard since the latest prompt.
    pub(super) messages: Vec<Arc<Value>>,
    /// Every bus message heard.
    pub(super) all_messages: Vec<Arc<Value>>,
    /// Expiry notes read since the latest prompt (`Heard::Expired`).
    pub(super) expiries: Vec<Arc<Value>>,
    /// Every expiry note read.
    pub(super) all_expiries: Vec<Arc<Value>>,
    /// Every note read of a request addressed to us that expired
    /// (`Heard::ExpiredAddressed`).
    pub(super) expired_addressed: Vec<Arc<Value>>,
    /// What the agent learned since the latest prompt, in the order it
    /// learned it: tool results, bus messages and expiries.
    pub(super) learned: Vec<Learned>,
}

/// One thing learned, by its index in `Conversation::calls` or
/// `Conversation::messages`.
#[derive(Debug, Clone, Copy)]
pub(super) enum Learned {
    /// The result of `calls[i]`.
    Result(usize),
    /// The message `messages[i]`.
    Message(usize),
    /// The expiry note `expiries[i]`.
    Expired(usize),
}

impl<'a> Conversation<'a> {
    pub(super) fn read(turns: &[AskedTurn<'a>]) -> Self {
        let mut c = Conversation::default();
        for asked in turns {
            let turn = asked.turn;
            let read_now;
            let texts: &[Vec<Heard>] = match asked.reading {
                Some(reading) => reading.of(turn),
                None => {
                    read_now = read_texts(turn);
                    &read_now
                }
            };
            let mut texts = texts.iter();
            for block in &turn.content {
                match (turn.role, block) {
                    (Role::User, ContentBlock::Text { .. }) => {
                        for heard in texts.next().into_iter().flatten() {
                            match heard {
                                Heard::Prompt(p) => {
                                    c.prompts.push(Arc::clone(p));
                                    c.prompt_heard = Some(Arc::clone(p));
                                    c.calls.clear();
                                    c.messages.clear();
                                    c.expiries.clear();
                                    c.learned.clear();
                                }
                                Heard::Expired(e) => {
                                    c.learned.push(Learned::Expired(c.expiries.len()));
                                    c.expiries.push(Arc::clone(e));
                                    c.all_expiries.push(Arc::clone(e));
                                }
                                Heard::ExpiredAddressed(e) => c.expired_addressed.push(Arc::clone(e)),
                                Heard::Message(m) => {
                                    c.learned.push(Learned::Message(c.messages.len()));
                                    c.messages.push(Arc::clone(m));
                                    c.all_messages.push(Arc::clone(m));
                                }
                            }
                        }
                    }
                    (Role::Assistant, ContentBlock::ToolUse { name, input, .. }) => {
                        let call = PastCall { name, input, result: None };
                        c.calls.push(call);
                        c.all_calls.push(call);
                    }
                    (Role::User, ContentBlock::ToolResult { content, is_error, .. }) => {
                        // Results follow their calls in order; fill the oldest open one.
                        if let Some(i) = c.calls.iter().position(|p| p.result.is_none()) {
                            c.calls[i].result = Some((content, *is_error));
                            c.learned.push(Learned::Result(i));
                        }
                        if let Some(open) = c.all_calls.iter_mut().find(|p| p.result.is_none()) {
                            open.result = Some((content, *is_error));
                        }
                    }
                    _ => {}
                }
            }
        }
        c
    }

    /// The latest prompt ("" before any).
    pub(super) fn prompt(&self) -> &str {
        self.prompt_heard.as_deref().map_or("", |p| p.text.as_str())
    }

    /// The first prompt, if any.
    pub(super) fn first_prompt(&self) -> Option<&str> {
        self.prompts.first().map(|p| p.text.as_str())
    }

    pub(super) fn messages_of<'s>(&'s self, msg_type: &'s str) -> impl Iterator<Item = &'s Value> + 's {
        self.messages.iter().map(|m| &**m).filter(move |m| m["type"] == msg_type)
    }

    /// True when request `id`, addressed to us, expired: it is not to be
    /// answered.
    pub(super) fn expired_to_me(&self, id: &str) -> bool {
        self.expired_addressed.iter().any(|e| e["request_id"] == id)
    }

    pub(super) fn calls_named<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s PastCall<'a>> {
        self.calls.iter().filter(move |c| c.name == name)
    }
}

/// Splits a user text into prompts and bus messages: a lead's inbox arrives
/// as `<inbox>[...]</inbox>`, a teammate's messages as one JSON object each.
pub(super) fn hear(text: &str) -> Vec<Heard> {
    let trimmed = text.trim();
    if let Some(inner) = trimmed.strip_prefix("<inbox>").and_then(|t| t.strip_suffix("</inbox>")) {
        if let Ok(Value::Array(items)) = serde_json::from_str::<Value>(inner) {
            return items.into_iter().map(|m| Heard::Message(Arc::new(m))).collect();
        }
    }
    if trimmed.starts_with('{') {
        if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
            if v.get("type").is_some() && v.get("from").is_some() {
                return vec![Heard::Message(Arc::new(v))];
            }
            if v["event"] == "request_expired" && v["request_id"].is_string() {
                if v["party"] == "addressee" {
                    return vec![Heard::ExpiredAddressed(Arc::new(v))];
                }
                return vec![Heard::Expired(Arc::new(v))];
            }
        }
    }
    vec![Heard::Prompt(Arc::new(HeardPrompt { text: trimmed.to_string(), goals: GoalMemo::default() }))]
}

pub(super) fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns() -> Vec<Turn> {
        vec![
            Turn::user_text("Spawn alice as a coder. Then request her shutdown."),
            Turn {
                role: Role::Assistant,
                content: vec![ContentBlock::ToolUse { id: "t1".into(), name: "list_teammates".into(), input: serde_json::json!({}) }],
            },
            Turn {
                role: Role::User,
                content: vec![
                    ContentBlock::ToolResult { tool_use_id: "t1".into(), content: "alice: working".into(), is_error: false },
                    ContentBlock::text(
                        r#"<inbox>[{"type":"shutdown_response","from":"alice","request_id":"ab12cd34","approve":true}]</inbox>"#,
                    ),
                ],
            },
        ]
    }

    #[test]
    fn an_expiry_note_is_heard_as_an_expiry_and_does_not_start_a_new_prompt() {
        let note = r#"{"event":"request_expired","request_id":"ab12cd34","protocol":"shutdown","to":"alice","note":"Your shutdown request expired."}"#;
        let mut turns = turns();
        turns.push(Turn { role: Role::User, content: vec![ContentBlock::text(note)] });
        let asked: Vec<AskedTurn<'_>> = turns.iter().map(|turn| AskedTurn { turn, reading: None }).collect();
        let c = Conversation::read(&asked);
        assert_eq!(c.prompts.len(), 1, "the note is no prompt");
        assert_eq!(c.calls.len(), 1, "the calls since the prompt are kept");
        assert_eq!(c.expiries.len(), 1);
        assert_eq!(c.expiries[0]["request_id"], "ab12cd34");
        assert!(matches!(c.learned.last(), Some(Learned::Expired(0))));
        // Without its id it is an ordinary prompt.
        assert!(matches!(hear(r#"{"event":"request_expired"}"#).as_slice(), [Heard::Prompt(_)]));
    }

    #[test]
    fn an_expiry_note_to_the_addressee_marks_its_request_dead_and_is_no_expiry_of_ours() {
        let note = r#"{"event":"request_expired","request_id":"ab12cd34","protocol":"shutdown","from":"lead","to":"alice","party":"addressee","note":"The shutdown request expired."}"#;
        let mut turns = turns();
        turns.push(Turn { role: Role::User, content: vec![ContentBlock::text(note)] });
        let asked: Vec<AskedTurn<'_>> = turns.iter().map(|turn| AskedTurn { turn, reading: None }).collect();
        let c = Conversation::read(&asked);
        assert_eq!(c.prompts.len(), 1, "the note is no prompt");
        assert!(c.expiries.is_empty() && c.all_expiries.is_empty(), "not an expiry of a request of ours");
        assert!(c.expired_to_me("ab12cd34") && !c.expired_to_me("00000000"));
    }

    #[test]
    fn a_turn_read_through_its_kept_reading_reads_as_a_turn_read_anew_and_its_texts_are_parsed_once() {
        let turns = turns();
        let readings: Vec<TurnReading> = turns.iter().map(|_| TurnReading::default()).collect();
        let kept: Vec<AskedTurn<'_>> = turns.iter().zip(&readings).map(|(turn, r)| AskedTurn { turn, reading: Some(r) }).collect();
        let anew: Vec<AskedTurn<'_>> = turns.iter().map(|turn| AskedTurn { turn, reading: None }).collect();
        let first = Conversation::read(&kept);
        assert_eq!(format!("{first:?}"), format!("{:?}", Conversation::read(&anew)));
        assert_eq!(first.prompt(), "Spawn alice as a coder. Then request her shutdown.");
        assert_eq!(first.messages_of("shutdown_response").count(), 1);
        assert_eq!(first.calls[0].output(), "alice: working");
        // The second read takes the messages the first one parsed.
        let again = Conversation::read(&kept);
        assert!(Arc::ptr_eq(&first.messages[0], &again.messages[0]), "a kept reading was parsed again");
        assert!(!Arc::ptr_eq(&first.messages[0], &Conversation::read(&anew).messages[0]));
    }
}
