//! The model interface, in Anthropic Messages terms: a system prompt, a
//! conversation of text / `tool_use` / `tool_result` blocks and tool schemas
//! go in; content blocks, a stop reason and token usage come out.
//!
//! Owns the vocabulary every provider speaks and the `Model` trait. It must
//! not know about the team, the bus or the scheduler: the runtime turns those
//! into conversation turns. Futures are not `Send` (they run on one thread,
//! in the browser with `spawn_local`).

pub mod anthropic;
/// Test doubles for the network (a scripted transport, recording sleepers):
/// compiled for unit tests, and for integration tests through the
/// `test-doubles` feature. Not part of the app's API.
#[cfg(any(test, feature = "test-doubles"))]
pub mod fake;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
pub mod http;
pub mod openai;
pub mod provider;
pub mod provider_settings;
pub mod retry;
pub mod scripted;
pub mod sleep;
pub mod sse;
pub mod turns;

use std::cell::{Cell, RefCell};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A boxed, non-`Send` future.
pub type LocalBoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// Who said a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The user (and tool results, and inbox deliveries).
    User,
    /// The model.
    Assistant,
}

/// One block of a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// The model asks for a tool run.
    ToolUse {
        /// Correlates the result.
        id: String,
        /// The tool's name.
        name: String,
        /// The arguments, as JSON.
        input: Value,
    },
    /// The result of a tool run, in the user turn after the call.
    ToolResult {
        /// The `id` of the `tool_use` this answers.
        tool_use_id: String,
        /// The output (or `Error: ...`).
        content: String,
        /// True when the tool refused or failed.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text { text: text.into() }
    }
}

/// One turn of the conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Who said it.
    pub role: Role,
    /// What was said.
    pub content: Vec<ContentBlock>,
}

impl Turn {
    /// A user turn of plain text.
    pub fn user_text(text: impl Into<String>) -> Self {
        Turn { role: Role::User, content: vec![ContentBlock::text(text)] }
    }

    /// The text of every text block, joined.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolSchema {
    /// Its name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// JSON Schema of its input.
    pub input_schema: Value,
}

/// Everything a model call needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelRequest {
    /// The system prompt.
    pub system: String,
    /// The conversation so far; the last turn is the user's.
    pub messages: Vec<Turn>,
    /// The tools on offer (shared: every call of an agent offers the same
    /// ones, and the explorer clones conversations at every choice point).
    pub tools: std::sync::Arc<[ToolSchema]>,
    /// The most tokens the reply may use.
    pub max_tokens: u32,
}

/// The length of `value` written as JSON, counted without writing it
/// anywhere: a request's length on the wire, whatever the model (the
/// scripted model's usage estimate is about four characters a token; the
/// runtime keeps each turn's length, `runtime::agent::Said`).
pub fn json_len(value: &impl serde::Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    match serde_json::to_writer(&mut count, value) {
        Ok(()) => count.0,
        Err(_) => 0,
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// It finished its turn.
    EndTurn,
    /// It wants tool results.
    ToolUse,
    /// It ran out of `max_tokens`.
    MaxTokens,
    /// A stop sequence matched.
    StopSequence,
    /// The server paused a long turn; send the conversation back to resume.
    PauseTurn,
    /// The model declined to answer.
    Refusal,
    /// The conversation no longer fits the model's context window.
    ModelContextWindowExceeded,
}

impl StopReason {
    /// Its name on the wire (serde's, `snake_case`): what a trace records
    /// and the explorer hashes, once per model reply, so spelled out here
    /// rather than written through serde each time.
    pub fn as_str(&self) -> &'static str {
        match self {
            StopReason::EndTurn => "end_turn",
            StopReason::ToolUse => "tool_use",
            StopReason::MaxTokens => "max_tokens",
            StopReason::StopSequence => "stop_sequence",
            StopReason::PauseTurn => "pause_turn",
            StopReason::Refusal => "refusal",
            StopReason::ModelContextWindowExceeded => "model_context_window_exceeded",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tokens used by one call, in Anthropic's buckets: each bucket is billed at
/// its own price, so they never overlap. `input_tokens` is the prompt read
/// fresh (neither read from nor written to the prompt cache); an
/// OpenAI-compatible reply's `prompt_tokens` include its cached tokens, so
/// the parser takes those out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens read fresh.
    pub input_tokens: u64,
    /// Reply tokens.
    pub output_tokens: u64,
    /// Prompt tokens read from the provider's prompt cache.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_read_tokens: u64,
    /// Prompt tokens written to the provider's prompt cache.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_write_tokens: u64,
    /// True when a provider reported these counts; false when they are an
    /// estimate (the scripted model counts about four characters a token).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub measured: bool,
}

impl Usage {
    /// An estimate of input and output only (no cache traffic): what the
    /// scripted model gives.
    pub fn plain(input_tokens: u64, output_tokens: u64) -> Usage {
        Usage { input_tokens, output_tokens, ..Usage::default() }
    }

    /// Input and output as a provider reported them, with no cache traffic.
    pub fn reported(input_tokens: u64, output_tokens: u64) -> Usage {
        Usage { measured: true, ..Usage::plain(input_tokens, output_tokens) }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The model's reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelResponse {
    /// Text and tool calls, in order.
    pub content: Vec<ContentBlock>,
    /// Why it stopped.
    pub stop_reason: StopReason,
    /// Tokens used.
    pub usage: Usage,
}

impl ModelResponse {
    /// The tool calls in the reply, in order: `(id, name, input)`.
    pub fn tool_uses(&self) -> impl Iterator<Item = (&str, &str, &Value)> {
        self.content.iter().filter_map(|b| match b {
            ContentBlock::ToolUse { id, name, input } => Some((id.as_str(), name.as_str(), input)),
            _ => None,
        })
    }
}

/// Errors from a model call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// The call was cancelled by Stop.
    #[error("the model call was cancelled")]
    Cancelled,
    /// The provider refused the credentials.
    #[error("the key was refused ({0}); check the API key in Settings")]
    Unauthorized(String),
    /// The network failed.
    #[error("network error: {0}")]
    Network(String),
    /// The provider answered with an error.
    #[error("the model server answered {status}: {message}")]
    Http {
        /// HTTP status.
        status: u16,
        /// The server's message.
        message: String,
    },
    /// The reply could not be understood.
    #[error("the model's reply could not be read: {0}")]
    Malformed(String),
    /// The provider settings cannot be used as they are (a bad base URL, a
    /// key that would leak); nothing was sent.
    #[error("the model settings cannot be used: {0}")]
    Settings(String),
}

/// A flag that Stop raises to cancel in-flight calls.
///
/// Clones share one flag. Besides polling [`CancelToken::is_cancelled`], a
/// call can register a callback ([`CancelToken::on_cancel`], e.g. to abort a
/// `fetch`) or await [`CancelToken::cancelled`].
#[derive(Clone, Default)]
pub struct CancelToken(Rc<CancelState>);

#[derive(Default)]
struct CancelState {
    cancelled: Cell<bool>,
    next_id: Cell<u64>,
    callbacks: RefCell<Vec<(u64, CancelCallback)>>,
}

/// A callback run once, when the token is cancelled.
type CancelCallback = Box<dyn FnOnce()>;

impl fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancelToken").field("cancelled", &self.is_cancelled()).finish()
    }
}

impl CancelToken {
    /// A token not yet cancelled.
    pub fn new() -> Self {
        CancelToken::default()
    }

    /// Cancels every call holding a clone of this token, running each
    /// registered callback once.
    pub fn cancel(&self) {
        if self.0.cancelled.replace(true) {
            return;
        }
        let callbacks = std::mem::take(&mut *self.0.callbacks.borrow_mut());
        for (_, callback) in callbacks {
            callback();
        }
    }

    /// True once cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.get()
    }

    /// Runs `callback` when the token is cancelled (at once if it already
    /// is). Dropping the returned registration unregisters it.
    pub fn on_cancel(&self, callback: impl FnOnce() + 'static) -> CancelRegistration {
        let id = self.0.next_id.get();
        self.0.next_id.set(id + 1);
        if self.is_cancelled() {
            callback();
        } else {
            self.0.callbacks.borrow_mut().push((id, Box::new(callback)));
        }
        CancelRegistration { state: Rc::downgrade(&self.0), id }
    }

    /// A future that completes once the token is cancelled.
    pub fn cancelled(&self) -> Cancelled {
        Cancelled { token: self.clone(), registration: None }
    }
}

/// A callback registered with [`CancelToken::on_cancel`]; dropping it
/// unregisters the callback.
#[must_use = "dropping the registration unregisters the callback"]
pub struct CancelRegistration {
    state: std::rc::Weak<CancelState>,
    id: u64,
}

impl fmt::Debug for CancelRegistration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancelRegistration").field("id", &self.id).finish()
    }
}

impl Drop for CancelRegistration {
    fn drop(&mut self) {
        if let Some(state) = self.state.upgrade() {
            if let Ok(mut callbacks) = state.callbacks.try_borrow_mut() {
                callbacks.retain(|(id, _)| *id != self.id);
            }
        }
    }
}

/// The future returned by [`CancelToken::cancelled`].
#[derive(Debug)]
#[must_use = "futures do nothing unless polled"]
pub struct Cancelled {
    token: CancelToken,
    registration: Option<CancelRegistration>,
}

impl Future for Cancelled {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.token.is_cancelled() {
            self.registration = None;
            return std::task::Poll::Ready(());
        }
        let waker = cx.waker().clone();
        // Replacing the registration drops (unregisters) the previous waker.
        self.registration = Some(self.token.on_cancel(move || waker.wake()));
        std::task::Poll::Pending
    }
}

/// Where streamed text goes as it arrives.
pub type TextSink = Rc<dyn Fn(&str)>;

/// A language model, local or remote.
pub trait Model {
    /// A short name for the UI ("scripted (offline)", a model id, ...).
    fn label(&self) -> String;

    /// Answers one request. Streaming providers pass text deltas to `on_text`
    /// as they arrive; every provider checks `cancel`.
    fn complete<'a>(
        &'a self,
        request: &'a ModelRequest,
        on_text: TextSink,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_reasons_name_is_its_serde_name() {
        use StopReason::*;
        for r in [EndTurn, ToolUse, MaxTokens, StopSequence, PauseTurn, Refusal, ModelContextWindowExceeded] {
            let wire = serde_json::to_value(&r).unwrap();
            assert_eq!(Some(r.as_str()), wire.as_str(), "{r:?}");
            assert_eq!(r.to_string(), r.as_str());
            assert_eq!(serde_json::from_value::<StopReason>(wire).unwrap(), r);
        }
    }
}
