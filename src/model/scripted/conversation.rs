//! What the scripted policies read a request as: the conversation so far
//! (prompt, messages heard, past tool calls and what each returned) and
//! what a policy decides (some text and some tool calls).
//!
//! Owns the reading of a `ModelRequest` into a `Conversation`, with the
//! parses it remembers. It must not decide anything: the lead's and the
//! teammate's policies do (`lead`, `teammate`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

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

/// A tool call the model made earlier, with its result once known.
#[derive(Debug, Clone)]
pub(super) struct PastCall {
    pub(super) name: String,
    pub(super) input: Rc<Value>,
    pub(super) result: Option<(String, bool)>,
}

impl PastCall {
    pub(super) fn ok(&self) -> bool {
        matches!(self.result, Some((_, false)))
    }
    pub(super) fn output(&self) -> &str {
        self.result.as_ref().map_or("", |(o, _)| o.as_str())
    }
    pub(super) fn arg(&self, key: &str) -> &str {
        self.input.get(key).and_then(Value::as_str).unwrap_or("")
    }
}

/// Something the agent was told: a prompt, or a message from the bus.
#[derive(Debug, Clone)]
pub(super) enum Heard {
    Prompt(String),
    Message(Rc<Value>),
}

/// The conversation, read back into what was heard and what was done, in
/// order. Everything is relative to the latest prompt.
#[derive(Debug, Default)]
pub(super) struct Conversation {
    /// The latest prompt.
    pub(super) prompt: String,
    /// Every prompt, oldest first.
    pub(super) prompts: Vec<String>,
    /// Tool calls since the latest prompt, with results.
    pub(super) calls: Vec<PastCall>,
    /// Every tool call in the whole conversation.
    pub(super) all_calls: Vec<PastCall>,
    /// Bus messages heard since the latest prompt.
    pub(super) messages: Vec<Rc<Value>>,
    /// Every bus message heard.
    pub(super) all_messages: Vec<Rc<Value>>,
    /// What the agent learned since the latest prompt, in the order it
    /// learned it: tool results and bus messages.
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
}

impl Conversation {
    pub(super) fn read(turns: &[&Turn]) -> Self {
        let mut c = Conversation::default();
        for turn in turns {
            for block in &turn.content {
                match (turn.role, block) {
                    (Role::User, ContentBlock::Text { text }) => {
                        for heard in hear(text).iter() {
                            match heard {
                                Heard::Prompt(p) => {
                                    c.prompts.push(p.clone());
                                    c.prompt = p.clone();
                                    c.calls.clear();
                                    c.messages.clear();
                                    c.learned.clear();
                                }
                                Heard::Message(m) => {
                                    c.learned.push(Learned::Message(c.messages.len()));
                                    c.messages.push(Rc::clone(m));
                                    c.all_messages.push(Rc::clone(m));
                                }
                            }
                        }
                    }
                    (Role::Assistant, ContentBlock::ToolUse { name, input, .. }) => {
                        let call = PastCall { name: name.clone(), input: Rc::new(input.clone()), result: None };
                        c.calls.push(call.clone());
                        c.all_calls.push(call);
                    }
                    (Role::User, ContentBlock::ToolResult { content, is_error, .. }) => {
                        // Results follow their calls in order; fill the oldest open one.
                        if let Some(i) = c.calls.iter().position(|p| p.result.is_none()) {
                            c.calls[i].result = Some((content.clone(), *is_error));
                            c.learned.push(Learned::Result(i));
                        }
                        if let Some(open) = c.all_calls.iter_mut().find(|p| p.result.is_none()) {
                            open.result = Some((content.clone(), *is_error));
                        }
                    }
                    _ => {}
                }
            }
        }
        c
    }

    pub(super) fn messages_of<'a>(&'a self, msg_type: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.messages.iter().map(|m| &**m).filter(move |m| m["type"] == msg_type)
    }

    pub(super) fn calls_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a PastCall> {
        self.calls.iter().filter(move |c| c.name == name)
    }
}

/// How many texts `hear` remembers before it starts over.
pub(super) const HEARD_KEPT: usize = 4096;

/// The texts `hear` remembers, looked up for every text of every call with
/// the explorer's fast word-at-a-time hasher (the texts are long).
type Texts = HashMap<String, Rc<[Heard]>, std::hash::BuildHasherDefault<crate::protocol::canon::StableHasher>>;

thread_local! {
    /// Texts already heard: every call of the policy reads the whole
    /// conversation again, and the explorer calls it for many states that
    /// share their turns, so each text is parsed about once.
    static HEARD: RefCell<Texts> = RefCell::new(Texts::default());
}

/// `hear_anew`, remembered per text.
pub(super) fn hear(text: &str) -> Rc<[Heard]> {
    if let Some(known) = HEARD.with(|m| m.borrow().get(text).cloned()) {
        return known;
    }
    let heard: Rc<[Heard]> = hear_anew(text).into();
    HEARD.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= HEARD_KEPT {
            m.clear();
        }
        m.insert(text.to_string(), Rc::clone(&heard));
    });
    heard
}

/// Splits a user text into prompts and bus messages: a lead's inbox arrives
/// as `<inbox>[...]</inbox>`, a teammate's messages as one JSON object each.
pub(super) fn hear_anew(text: &str) -> Vec<Heard> {
    let trimmed = text.trim();
    if let Some(inner) = trimmed.strip_prefix("<inbox>").and_then(|t| t.strip_suffix("</inbox>")) {
        if let Ok(Value::Array(items)) = serde_json::from_str::<Value>(inner) {
            return items.into_iter().map(|m| Heard::Message(Rc::new(m))).collect();
        }
    }
    if trimmed.starts_with('{') {
        if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
            if v.get("type").is_some() && v.get("from").is_some() {
                return vec![Heard::Message(Rc::new(v))];
            }
        }
    }
    vec![Heard::Prompt(trimmed.to_string())]
}

pub(super) fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("?")
}

pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches("'s").trim_matches('\'').to_lowercase())
        .collect()
}
