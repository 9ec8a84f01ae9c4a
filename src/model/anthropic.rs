//! The Anthropic Messages API provider: `POST {base_url}/v1/messages`.
//!
//! Owns the Anthropic dialect: the request (headers and JSON body), the
//! non-streamed reply, the server-sent-events stream as a pure state machine
//! ([`AnthropicStream`]: bytes in, in any chunk splits, events out), and
//! [`AnthropicModel`], which puts them on a transport. It must not know how
//! bytes travel (`http`), when to retry (`retry`) or what the team does with
//! the reply (the runtime).
//!
//! Rules worth knowing:
//! - `max_tokens` is the request's, capped by the config's (default 8000).
//! - Unknown `stop_reason`s are an error, never guessed.
//! - A tool call's `input_json_delta` pieces are joined and parsed at
//!   `content_block_stop`; unreadable JSON is an error, except in a reply
//!   that stopped at `max_tokens`, where the cut-off call is kept with an
//!   empty input (the runtime never runs calls from such a reply).
//! - An `error` event mid-stream becomes a `ModelError`; `overloaded_error`
//!   becomes a 529, so it is retried like one (when no text was shown yet).
//! - `ping`, unknown events, and content blocks and deltas we do not use
//!   (thinking, citations) are skipped.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::http::{self, ApiKey, Headers, HttpError, HttpRequest};
use super::provider::{Dialect, HttpModel};
use super::sse::{SseDecoder, SseError, SseEvent};
use super::turns::normalize;
use super::{ContentBlock, ModelError, ModelRequest, ModelResponse, Role, StopReason, Turn, Usage};

/// The public API's address.
pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";

/// The model asked for unless the user picks another.
pub const DEFAULT_MODEL: &str = "claude-sonnet-4-5";

/// The `max_tokens` cap unless the user sets another.
pub const DEFAULT_MAX_TOKENS: u32 = 8000;

/// The API version sent in `anthropic-version`.
pub const API_VERSION: &str = "2023-06-01";

/// Errors in what the Anthropic API sent back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnthropicError {
    /// The event stream itself was broken.
    #[error("{0}")]
    Sse(#[from] SseError),
    /// A body or event was not JSON.
    #[error("the reply is not valid JSON ({0})")]
    NotJson(String),
    /// A required field was missing.
    #[error("the reply has no {0}")]
    Missing(&'static str),
    /// A `stop_reason` we do not know.
    #[error("the model stopped for an unknown reason {0:?}")]
    UnknownStopReason(String),
    /// A tool call's arguments did not parse.
    #[error("the arguments of the tool call {name:?} are not a valid JSON object ({reason})")]
    BadToolInput {
        /// The tool.
        name: String,
        /// What was wrong.
        reason: String,
    },
    /// The API reported an error (an `error` event or body).
    #[error("{kind}: {message}")]
    Api {
        /// Its `error.type`, e.g. `overloaded_error`.
        kind: String,
        /// Its `error.message`.
        message: String,
    },
    /// An event referred to a content block that was never started.
    #[error("the stream sent {0} for a content block it never started")]
    UnknownBlock(String),
    /// The stream ended before `message_stop`.
    #[error("the stream ended before the message was complete (no message_stop)")]
    EndedEarly,
}

impl From<AnthropicError> for ModelError {
    fn from(e: AnthropicError) -> Self {
        match &e {
            AnthropicError::Api { kind, .. } => {
                let status = match kind.as_str() {
                    "authentication_error" | "permission_error" => return ModelError::Unauthorized(e.to_string()),
                    "invalid_request_error" => 400,
                    "not_found_error" => 404,
                    "request_too_large" => 413,
                    "rate_limit_error" => 429,
                    "timeout_error" => 504,
                    "overloaded_error" => 529,
                    _ => 500,
                };
                ModelError::Http { status, message: e.to_string() }
            }
            _ => ModelError::Malformed(e.to_string()),
        }
    }
}

/// How to reach the API. `Debug` never shows the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnthropicConfig {
    /// Where to send requests, without `/v1/messages` (a proxy's address
    /// works too).
    pub base_url: String,
    /// The model id.
    pub model: String,
    /// The most tokens a reply may use (a request may ask for fewer).
    pub max_tokens: u32,
    /// Ask for a streamed reply (text shows as it arrives).
    pub stream: bool,
    /// The user's key, in memory only.
    pub api_key: ApiKey,
}

impl Default for AnthropicConfig {
    fn default() -> Self {
        AnthropicConfig {
            base_url: DEFAULT_BASE_URL.into(),
            model: DEFAULT_MODEL.into(),
            max_tokens: DEFAULT_MAX_TOKENS,
            stream: true,
            api_key: ApiKey::default(),
        }
    }
}

impl AnthropicConfig {
    /// The defaults, with this key.
    pub fn with_key(key: impl Into<String>) -> Self {
        AnthropicConfig { api_key: ApiKey::new(key), ..AnthropicConfig::default() }
    }
}

// ------------------------------------------------------------- the request

/// The JSON body for `request`.
pub fn request_body(config: &AnthropicConfig, request: &ModelRequest) -> Value {
    let max_tokens = if request.max_tokens == 0 { config.max_tokens } else { request.max_tokens.min(config.max_tokens) };
    let mut body = Map::new();
    body.insert("model".into(), json!(config.model));
    body.insert("max_tokens".into(), json!(max_tokens));
    if !request.system.is_empty() {
        body.insert("system".into(), json!(request.system));
    }
    let messages: Vec<Value> = normalize(&request.messages).iter().map(turn_json).collect();
    body.insert("messages".into(), Value::Array(messages));
    if !request.tools.is_empty() {
        let tools =
            request.tools.iter().map(|t| json!({ "name": t.name, "description": t.description, "input_schema": t.input_schema })).collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    body.insert("stream".into(), json!(config.stream));
    Value::Object(body)
}

fn turn_json(turn: &Turn) -> Value {
    let role = match turn.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    json!({ "role": role, "content": turn.content.iter().map(block_json).collect::<Vec<_>>() })
}

/// One content block as the API spells it.
pub fn block_json(block: &ContentBlock) -> Value {
    match block {
        ContentBlock::Text { text } => json!({ "type": "text", "text": text }),
        ContentBlock::ToolUse { id, name, input } => json!({ "type": "tool_use", "id": id, "name": name, "input": input }),
        ContentBlock::ToolResult { tool_use_id, content, is_error } => {
            let mut v = json!({ "type": "tool_result", "tool_use_id": tool_use_id, "content": content });
            if *is_error {
                v["is_error"] = json!(true);
            }
            v
        }
    }
}

/// The headers of every call. The key goes here and nowhere else.
pub fn request_headers(config: &AnthropicConfig) -> Headers {
    Headers::new()
        .with("x-api-key", config.api_key.expose())
        .with("anthropic-version", API_VERSION)
        .with("anthropic-dangerous-direct-browser-access", "true")
        .with("content-type", "application/json")
}

/// The whole HTTP request for `request`.
pub fn build_request(config: &AnthropicConfig, request: &ModelRequest) -> Result<HttpRequest, HttpError> {
    let url = http::endpoint(&config.base_url, "/v1/messages", &config.api_key)?;
    Ok(HttpRequest { url, headers: request_headers(config), body: request_body(config, request).to_string() })
}

// ------------------------------------------------------------- the reply

/// Reads a `stop_reason`.
pub fn parse_stop_reason(s: &str) -> Result<StopReason, AnthropicError> {
    Ok(match s {
        "end_turn" => StopReason::EndTurn,
        "tool_use" => StopReason::ToolUse,
        "max_tokens" => StopReason::MaxTokens,
        "stop_sequence" => StopReason::StopSequence,
        "pause_turn" => StopReason::PauseTurn,
        "refusal" => StopReason::Refusal,
        "model_context_window_exceeded" => StopReason::ModelContextWindowExceeded,
        other => return Err(AnthropicError::UnknownStopReason(other.to_string())),
    })
}

fn api_error(v: &Value) -> AnthropicError {
    let err = &v["error"];
    AnthropicError::Api {
        kind: err["type"].as_str().unwrap_or("error").to_string(),
        message: err["message"].as_str().unwrap_or("(no message)").to_string(),
    }
}

fn usage_of(v: &Value, into: &mut Usage) {
    if let Some(n) = v.get("input_tokens").and_then(Value::as_u64) {
        into.input_tokens = n;
    }
    if let Some(n) = v.get("output_tokens").and_then(Value::as_u64) {
        into.output_tokens = n;
    }
}

fn tool_input(name: &str, input: Value) -> Result<Value, AnthropicError> {
    if input.is_object() {
        Ok(input)
    } else {
        Err(AnthropicError::BadToolInput { name: name.to_string(), reason: format!("got {input}") })
    }
}

/// Reads a non-streamed reply body.
pub fn parse_response(body: &str) -> Result<ModelResponse, AnthropicError> {
    let v: Value = serde_json::from_str(body).map_err(|e| AnthropicError::NotJson(e.to_string()))?;
    if v["type"] == "error" {
        return Err(api_error(&v));
    }
    let blocks = v.get("content").and_then(Value::as_array).ok_or(AnthropicError::Missing("content"))?;
    let mut content = Vec::new();
    for b in blocks {
        match b["type"].as_str() {
            Some("text") => {
                let text = b["text"].as_str().unwrap_or_default();
                if !text.is_empty() {
                    content.push(ContentBlock::text(text));
                }
            }
            Some("tool_use") => {
                let name = b["name"].as_str().ok_or(AnthropicError::Missing("tool_use name"))?.to_string();
                let id = b["id"].as_str().ok_or(AnthropicError::Missing("tool_use id"))?.to_string();
                let input = tool_input(&name, b.get("input").cloned().unwrap_or_else(|| json!({})))?;
                content.push(ContentBlock::ToolUse { id, name, input });
            }
            _ => {} // thinking and server-side blocks: not ours to show
        }
    }
    let stop_reason = parse_stop_reason(v["stop_reason"].as_str().ok_or(AnthropicError::Missing("stop_reason"))?)?;
    let mut usage = Usage::default();
    usage_of(&v["usage"], &mut usage);
    Ok(ModelResponse { content, stop_reason, usage })
}

/// What the stream said, event by event (pings and unknown events are not
/// reported).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamEvent {
    /// `message_start`.
    MessageStart,
    /// `content_block_start` of a block we keep.
    BlockStart {
        /// The block's index.
        index: usize,
    },
    /// Text to show now.
    TextDelta {
        /// The block's index.
        index: usize,
        /// The new text.
        text: String,
    },
    /// A piece of a tool call's arguments.
    InputJsonDelta {
        /// The block's index.
        index: usize,
        /// The piece.
        partial_json: String,
    },
    /// `content_block_stop`.
    BlockStop {
        /// The block's index.
        index: usize,
    },
    /// `message_delta`: why it stopped.
    MessageDelta {
        /// The stop reason, once known.
        stop_reason: Option<StopReason>,
    },
    /// `message_stop`.
    MessageStop,
}

/// A content block being streamed.
#[derive(Debug)]
enum Partial {
    Text(String),
    Tool {
        id: String,
        name: String,
        input: Value,
        json: String,
    },
    /// A block type we skip (thinking, server tools).
    Skipped,
}

/// The streaming parser: feed it bytes as they arrive, in any splits, and
/// read the events; `finish` gives the whole response.
#[derive(Debug)]
pub struct AnthropicStream {
    sse: SseDecoder,
    blocks: BTreeMap<usize, Partial>,
    stop_reason: Option<StopReason>,
    usage: Usage,
    started: bool,
    stopped: bool,
    /// A tool input that did not parse: an error unless the reply turns
    /// out to have stopped at `max_tokens`.
    bad_input: Option<AnthropicError>,
}

impl Default for AnthropicStream {
    fn default() -> Self {
        AnthropicStream::new()
    }
}

impl AnthropicStream {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        AnthropicStream {
            sse: SseDecoder::new(),
            blocks: BTreeMap::new(),
            stop_reason: None,
            usage: Usage::default(),
            started: false,
            stopped: false,
            bad_input: None,
        }
    }

    /// Feeds the next chunk; returns the events it completed. An `error`
    /// event comes back as `Err(AnthropicError::Api)`.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<StreamEvent>, AnthropicError> {
        let mut out = Vec::new();
        self.feed_into(bytes, &mut out)?;
        Ok(out)
    }

    /// Like [`Self::feed`], but appends the events to `out`, so the events
    /// before an error are kept (text shown before a mid-stream error).
    pub fn feed_into(&mut self, bytes: &[u8], out: &mut Vec<StreamEvent>) -> Result<(), AnthropicError> {
        for ev in self.sse.feed(bytes)? {
            self.handle(ev, out)?;
        }
        Ok(())
    }

    /// Ends the stream and assembles the response.
    pub fn finish(mut self) -> Result<ModelResponse, AnthropicError> {
        let mut out = Vec::new();
        for ev in self.sse.finish()? {
            self.handle(ev, &mut out)?;
        }
        if !self.stopped {
            return Err(AnthropicError::EndedEarly);
        }
        let stop_reason = self.stop_reason.ok_or(AnthropicError::Missing("stop_reason"))?;
        let content = self
            .blocks
            .into_values()
            .filter_map(|b| match b {
                Partial::Text(text) if !text.is_empty() => Some(ContentBlock::Text { text }),
                Partial::Tool { id, name, input, .. } => Some(ContentBlock::ToolUse { id, name, input }),
                _ => None,
            })
            .collect();
        Ok(ModelResponse { content, stop_reason, usage: self.usage })
    }

    fn handle(&mut self, ev: SseEvent, out: &mut Vec<StreamEvent>) -> Result<(), AnthropicError> {
        if self.stopped {
            return Ok(());
        }
        const KNOWN: [&str; 7] =
            ["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "error"];
        let v: Value = match serde_json::from_str(&ev.data) {
            Ok(v) => v,
            // A ping or an event type added later may carry anything.
            Err(_) if !KNOWN.contains(&ev.event.as_str()) => return Ok(()),
            Err(e) => return Err(AnthropicError::NotJson(format!("{} event: {e}", ev.event))),
        };
        let kind = v["type"].as_str().unwrap_or(&ev.event).to_string();
        let index = || v["index"].as_u64().map(|i| i as usize).ok_or(AnthropicError::Missing("content block index"));
        match kind.as_str() {
            "message_start" => {
                self.started = true;
                usage_of(&v["message"]["usage"], &mut self.usage);
                out.push(StreamEvent::MessageStart);
            }
            "content_block_start" => {
                let index = index()?;
                let block = &v["content_block"];
                let partial = match block["type"].as_str() {
                    Some("text") => Partial::Text(String::new()),
                    Some("tool_use") => Partial::Tool {
                        id: block["id"].as_str().ok_or(AnthropicError::Missing("tool_use id"))?.to_string(),
                        name: block["name"].as_str().ok_or(AnthropicError::Missing("tool_use name"))?.to_string(),
                        input: block.get("input").cloned().filter(Value::is_object).unwrap_or_else(|| json!({})),
                        json: String::new(),
                    },
                    _ => Partial::Skipped,
                };
                let kept = !matches!(partial, Partial::Skipped);
                self.blocks.insert(index, partial);
                if kept {
                    out.push(StreamEvent::BlockStart { index });
                }
                if let Some(text) = block["text"].as_str().filter(|t| !t.is_empty()) {
                    self.text_delta(index, text, out)?;
                }
            }
            "content_block_delta" => {
                let index = index()?;
                let delta = &v["delta"];
                match delta["type"].as_str() {
                    Some("text_delta") => self.text_delta(index, delta["text"].as_str().unwrap_or_default(), out)?,
                    Some("input_json_delta") => {
                        let piece = delta["partial_json"].as_str().unwrap_or_default();
                        match self.blocks.get_mut(&index) {
                            Some(Partial::Tool { json, .. }) => json.push_str(piece),
                            Some(Partial::Skipped) => return Ok(()),
                            _ => return Err(AnthropicError::UnknownBlock("input_json_delta".into())),
                        }
                        out.push(StreamEvent::InputJsonDelta { index, partial_json: piece.to_string() });
                    }
                    _ => {} // thinking, signature and citations deltas
                }
            }
            "content_block_stop" => {
                let index = index()?;
                match self.blocks.get_mut(&index) {
                    None => return Err(AnthropicError::UnknownBlock("content_block_stop".into())),
                    Some(Partial::Skipped) => return Ok(()),
                    Some(Partial::Text(_)) => {}
                    Some(Partial::Tool { name, input, json, .. }) => {
                        if !json.trim().is_empty() {
                            let parsed = serde_json::from_str::<Value>(json)
                                .map_err(|e| AnthropicError::BadToolInput { name: name.clone(), reason: e.to_string() })
                                .and_then(|v| tool_input(name, v));
                            match parsed {
                                Ok(v) => *input = v,
                                Err(e) => {
                                    *input = json!({});
                                    self.bad_input.get_or_insert(e);
                                }
                            }
                        }
                    }
                }
                out.push(StreamEvent::BlockStop { index });
            }
            "message_delta" => {
                let stop_reason = v["delta"]["stop_reason"].as_str().map(parse_stop_reason).transpose()?;
                usage_of(&v["usage"], &mut self.usage);
                if stop_reason.is_some() {
                    self.stop_reason = stop_reason.clone();
                }
                if stop_reason == Some(StopReason::MaxTokens) {
                    self.bad_input = None;
                } else if stop_reason.is_some() {
                    if let Some(e) = self.bad_input.take() {
                        return Err(e);
                    }
                }
                out.push(StreamEvent::MessageDelta { stop_reason });
            }
            "message_stop" => {
                if !self.started {
                    return Err(AnthropicError::Missing("message_start"));
                }
                if let Some(e) = self.bad_input.take() {
                    return Err(e);
                }
                self.stopped = true;
                out.push(StreamEvent::MessageStop);
            }
            "error" => return Err(api_error(&v)),
            _ => {} // ping, and event types added after this was written
        }
        Ok(())
    }

    fn text_delta(&mut self, index: usize, text: &str, out: &mut Vec<StreamEvent>) -> Result<(), AnthropicError> {
        match self.blocks.get_mut(&index) {
            Some(Partial::Text(all)) => all.push_str(text),
            Some(Partial::Skipped) => return Ok(()),
            _ => return Err(AnthropicError::UnknownBlock("text_delta".into())),
        }
        if !text.is_empty() {
            out.push(StreamEvent::TextDelta { index, text: text.to_string() });
        }
        Ok(())
    }
}

// ------------------------------------------------------------- the model

/// The Anthropic Messages dialect, for `provider::HttpModel`.
#[derive(Debug, Clone, Copy)]
pub enum Anthropic {}

impl Dialect for Anthropic {
    type Config = AnthropicConfig;
    type Stream = AnthropicStream;
    type Event = StreamEvent;
    const FAMILY: &'static str = "Anthropic";

    fn model_id(config: &AnthropicConfig) -> &str {
        &config.model
    }

    fn streamed(config: &AnthropicConfig) -> bool {
        config.stream
    }

    fn prepare(config: &AnthropicConfig, request: &ModelRequest) -> Result<HttpRequest, ModelError> {
        if config.api_key.is_empty() {
            return Err(ModelError::Unauthorized("no API key was entered".into()));
        }
        Ok(build_request(config, request)?)
    }

    fn parse_body(body: &str) -> Result<ModelResponse, ModelError> {
        Ok(parse_response(body)?)
    }

    fn feed(stream: &mut AnthropicStream, bytes: &[u8], out: &mut Vec<StreamEvent>) -> Result<(), ModelError> {
        Ok(stream.feed_into(bytes, out)?)
    }

    fn text_of(event: &StreamEvent) -> Option<&str> {
        match event {
            StreamEvent::TextDelta { text, .. } => Some(text),
            _ => None,
        }
    }

    fn finish(stream: AnthropicStream) -> Result<ModelResponse, ModelError> {
        Ok(stream.finish()?)
    }
}

/// The Anthropic provider over a transport `T` (`FetchTransport` in the
/// browser, a fake in tests).
pub type AnthropicModel<T> = HttpModel<Anthropic, T>;

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use crate::model::fake::{block_on, poll_once, sample_request, FakeReply, FakeTransport, ForeverSleeper, RecordingSleeper};
    use crate::model::sleep::NoSleep;
    use crate::model::{CancelToken, Model, TextSink};

    const KEY: &str = "sk-ant-api03-SECRET-0123456789abcdef";
    const TOOL_USE: &[u8] = include_bytes!("../../tests/fixtures/anthropic_stream_tool_use.sse");
    const OVERLOADED: &[u8] = include_bytes!("../../tests/fixtures/anthropic_stream_overloaded.sse");
    const ERROR_AFTER_TEXT: &[u8] = include_bytes!("../../tests/fixtures/anthropic_stream_error_after_text.sse");
    const MAX_TOKENS: &[u8] = include_bytes!("../../tests/fixtures/anthropic_stream_max_tokens.sse");
    const RESPONSE: &str = include_str!("../../tests/fixtures/anthropic_response_tool_use.json");
    const GOLDEN: &str = include_str!("../../tests/fixtures/anthropic_request.golden.json");

    fn config() -> AnthropicConfig {
        AnthropicConfig::with_key(KEY)
    }

    fn expected_tool_use_response() -> ModelResponse {
        ModelResponse {
            content: vec![
                ContentBlock::text("Spawning alice \u{2014} she\u{2019}ll write the caf\u{e9} notes \u{2713} \u{65e5}\u{672c}."),
                ContentBlock::ToolUse {
                    id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6".into(),
                    name: "spawn_teammate".into(),
                    input: json!({ "name": "alice", "role": "coder", "prompt": "Write the caf\u{e9} notes \u{2713}" }),
                },
            ],
            stop_reason: StopReason::ToolUse,
            usage: Usage { input_tokens: 472, output_tokens: 89 },
        }
    }

    /// Feeds `bytes` in pieces of `size`; returns the events and the result.
    fn stream_in_pieces(bytes: &[u8], size: usize) -> (Vec<StreamEvent>, Result<ModelResponse, AnthropicError>) {
        let mut parser = AnthropicStream::new();
        let mut events = Vec::new();
        for piece in bytes.chunks(size) {
            match parser.feed(piece) {
                Ok(evs) => events.extend(evs),
                Err(e) => return (events, Err(e)),
            }
        }
        (events, parser.finish())
    }

    fn text_of(events: &[StreamEvent]) -> String {
        events.iter().filter_map(|e| if let StreamEvent::TextDelta { text, .. } = e { Some(text.as_str()) } else { None }).collect()
    }

    fn sink() -> (TextSink, Rc<RefCell<Vec<String>>>) {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let s = seen.clone();
        (Rc::new(move |t: &str| s.borrow_mut().push(t.to_string())), seen)
    }

    fn model_with(replies: Vec<FakeReply>) -> (AnthropicModel<Rc<FakeTransport>>, Rc<FakeTransport>, Rc<RecordingSleeper>) {
        let transport = FakeTransport::new(replies);
        let sleeper = RecordingSleeper::new();
        (AnthropicModel::new(config(), transport.clone(), sleeper.clone()), transport, sleeper)
    }

    fn overloaded_body() -> &'static str {
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
    }

    // ------------------------------------------------------------ request

    #[test]
    fn the_request_body_matches_the_golden_file() {
        let golden: Value = serde_json::from_str(GOLDEN).unwrap();
        assert_eq!(request_body(&config(), &sample_request()), golden);
    }

    #[test]
    fn the_request_goes_to_v1_messages_with_exactly_the_four_headers() {
        let cfg = AnthropicConfig { base_url: "https://proxy.example/anthropic/".into(), ..config() };
        let r = build_request(&cfg, &sample_request()).unwrap();
        assert_eq!(r.url, "https://proxy.example/anthropic/v1/messages");
        let headers: Vec<(&str, &str)> = r.headers.iter().collect();
        assert_eq!(
            headers,
            [
                ("x-api-key", KEY),
                ("anthropic-version", "2023-06-01"),
                ("anthropic-dangerous-direct-browser-access", "true"),
                ("content-type", "application/json")
            ]
        );
        assert_eq!(serde_json::from_str::<Value>(&r.body).unwrap(), request_body(&cfg, &sample_request()));
        assert_eq!(AnthropicConfig::default().base_url, "https://api.anthropic.com");
    }

    #[test]
    fn max_tokens_is_the_requests_capped_by_the_config_and_stream_follows_the_config() {
        let mut req = sample_request();
        req.max_tokens = 1000;
        let cfg = AnthropicConfig { max_tokens: 4000, stream: false, ..config() };
        let body = request_body(&cfg, &req);
        assert_eq!((body["max_tokens"].clone(), body["stream"].clone()), (json!(1000), json!(false)));
        req.max_tokens = 64_000;
        assert_eq!(request_body(&cfg, &req)["max_tokens"], json!(4000));
        req.max_tokens = 0;
        assert_eq!(request_body(&cfg, &req)["max_tokens"], json!(4000));
        assert_eq!(AnthropicConfig::default().max_tokens, 8000);
    }

    #[test]
    fn an_empty_system_prompt_and_no_tools_are_left_out() {
        let req = ModelRequest { system: String::new(), messages: vec![Turn::user_text("hi")], tools: Vec::new().into(), max_tokens: 10 };
        let body = request_body(&config(), &req);
        assert!(body.get("system").is_none() && body.get("tools").is_none());
        assert_eq!(body["messages"], json!([{ "role": "user", "content": [{ "type": "text", "text": "hi" }] }]));
    }

    #[test]
    fn tool_use_and_tool_result_blocks_map_both_ways() {
        let call =
            ContentBlock::ToolUse { id: "toolu_9".into(), name: "send_message".into(), input: json!({ "to": "lead", "content": "done" }) };
        let sent = block_json(&call);
        assert_eq!(
            sent,
            json!({ "type": "tool_use", "id": "toolu_9", "name": "send_message", "input": { "to": "lead", "content": "done" } })
        );
        // The same block, as the API sends it back, reads as the same block.
        let reply = json!({ "content": [sent], "stop_reason": "tool_use", "usage": { "input_tokens": 1, "output_tokens": 2 } });
        assert_eq!(parse_response(&reply.to_string()).unwrap().content, vec![call]);
        let ok = ContentBlock::ToolResult { tool_use_id: "toolu_9".into(), content: "sent".into(), is_error: false };
        assert_eq!(block_json(&ok), json!({ "type": "tool_result", "tool_use_id": "toolu_9", "content": "sent" }));
        let failed = ContentBlock::ToolResult { tool_use_id: "toolu_9".into(), content: "Error: no such teammate".into(), is_error: true };
        assert_eq!(block_json(&failed)["is_error"], json!(true));
    }

    // ------------------------------------------------------------ replies

    #[test]
    fn a_recorded_reply_is_read_with_its_text_tool_call_and_usage() {
        let r = parse_response(RESPONSE).unwrap();
        assert_eq!(r.stop_reason, StopReason::ToolUse);
        assert_eq!(r.usage, Usage { input_tokens: 2095, output_tokens: 503 });
        assert_eq!(r.content[0], ContentBlock::text("I'll ask alice to shut down."));
        assert_eq!(
            r.tool_uses().map(|(id, n, i)| (id.to_string(), n.to_string(), i.clone())).collect::<Vec<_>>(),
            [("toolu_01D7FLrfh4GYq7yT1ULFeyMV".to_string(), "shutdown_request".to_string(), json!({ "teammate": "alice" }))]
        );
    }

    #[test]
    fn every_stop_reason_is_read() {
        let all = [
            ("end_turn", StopReason::EndTurn),
            ("tool_use", StopReason::ToolUse),
            ("max_tokens", StopReason::MaxTokens),
            ("stop_sequence", StopReason::StopSequence),
            ("pause_turn", StopReason::PauseTurn),
            ("refusal", StopReason::Refusal),
            ("model_context_window_exceeded", StopReason::ModelContextWindowExceeded),
        ];
        for (name, reason) in all {
            let body = json!({ "content": [{ "type": "text", "text": "x" }], "stop_reason": name, "usage": { "input_tokens": 3, "output_tokens": 4 } });
            assert_eq!(parse_response(&body.to_string()).unwrap().stop_reason, reason, "{name}");
            assert_eq!(reason.to_string(), name, "our name matches the API's");
        }
    }

    #[test]
    fn an_unknown_stop_reason_is_a_clear_malformed_error() {
        let body = json!({ "content": [], "stop_reason": "compaction", "usage": {} });
        let e: ModelError = parse_response(&body.to_string()).unwrap_err().into();
        assert_eq!(e, ModelError::Malformed("the model stopped for an unknown reason \"compaction\"".into()));
        let missing = json!({ "content": [], "stop_reason": null });
        assert_eq!(parse_response(&missing.to_string()), Err(AnthropicError::Missing("stop_reason")));
    }

    #[test]
    fn a_body_that_is_not_json_is_malformed_not_a_panic() {
        for body in ["", "<html>502</html>", "{\"content\": 3}", "[1,2]"] {
            let e: ModelError = parse_response(body).unwrap_err().into();
            assert!(matches!(e, ModelError::Malformed(_)), "{body:?}: {e:?}");
        }
    }

    #[test]
    fn blocks_we_do_not_use_are_skipped() {
        let body = json!({ "content": [{ "type": "thinking", "thinking": "hm", "signature": "s" }, { "type": "text", "text": "ok" }], "stop_reason": "end_turn", "usage": {} });
        assert_eq!(parse_response(&body.to_string()).unwrap().content, vec![ContentBlock::text("ok")]);
    }

    // ------------------------------------------------------------ streaming

    #[test]
    fn the_streamed_transcript_gives_the_same_response_in_any_chunk_split() {
        for size in 1..=TOOL_USE.len() {
            let (events, result) = stream_in_pieces(TOOL_USE, size);
            assert_eq!(result, Ok(expected_tool_use_response()), "pieces of {size} bytes");
            assert_eq!(text_of(&events), "Spawning alice \u{2014} she\u{2019}ll write the caf\u{e9} notes \u{2713} \u{65e5}\u{672c}.");
        }
    }

    #[test]
    fn a_split_in_the_middle_of_a_utf8_character_is_harmless() {
        let at = TOOL_USE.windows(3).position(|w| w == "\u{2713}".as_bytes()).unwrap() + 1;
        assert!(std::str::from_utf8(&TOOL_USE[..at]).is_err(), "the cut is inside the character");
        let mut parser = AnthropicStream::new();
        parser.feed(&TOOL_USE[..at]).unwrap();
        parser.feed(&TOOL_USE[at..]).unwrap();
        assert_eq!(parser.finish(), Ok(expected_tool_use_response()));
        for cut in 0..TOOL_USE.len() {
            let mut parser = AnthropicStream::new();
            parser.feed(&TOOL_USE[..cut]).unwrap();
            parser.feed(&TOOL_USE[cut..]).unwrap();
            assert_eq!(parser.finish(), Ok(expected_tool_use_response()), "cut at {cut}");
        }
    }

    #[test]
    fn text_deltas_come_out_as_they_arrive_and_pings_do_not() {
        let (events, _) = stream_in_pieces(TOOL_USE, TOOL_USE.len());
        assert_eq!(events.first(), Some(&StreamEvent::MessageStart));
        assert_eq!(events[1], StreamEvent::BlockStart { index: 0 });
        assert_eq!(events[2], StreamEvent::TextDelta { index: 0, text: "Spawning alice \u{2014} she\u{2019}ll write ".into() });
        assert_eq!(events.last(), Some(&StreamEvent::MessageStop));
        assert_eq!(events.len(), 13, "{events:#?}");
    }

    #[test]
    fn input_json_pieces_are_joined_and_parsed_at_block_stop() {
        let (events, _) = stream_in_pieces(TOOL_USE, 7);
        let pieces: Vec<&str> = events
            .iter()
            .filter_map(|e| if let StreamEvent::InputJsonDelta { partial_json, .. } = e { Some(partial_json.as_str()) } else { None })
            .collect();
        assert_eq!(pieces.len(), 4);
        assert_eq!(pieces.concat(), "{\"name\": \"alice\", \"role\": \"coder\", \"prompt\": \"Write the caf\u{e9} notes \u{2713}\"}");
    }

    #[test]
    fn crlf_line_endings_read_the_same() {
        let crlf = String::from_utf8(TOOL_USE.to_vec()).unwrap().replace('\n', "\r\n");
        for size in [1, 2, 5, 64, crlf.len()] {
            assert_eq!(stream_in_pieces(crlf.as_bytes(), size).1, Ok(expected_tool_use_response()));
        }
    }

    #[test]
    fn an_error_event_mid_stream_is_an_error_and_overloaded_counts_as_529() {
        for size in [1, 3, OVERLOADED.len()] {
            let (_, result) = stream_in_pieces(OVERLOADED, size);
            let e = result.unwrap_err();
            assert_eq!(e, AnthropicError::Api { kind: "overloaded_error".into(), message: "Overloaded".into() });
            let m: ModelError = e.into();
            assert_eq!(m, ModelError::Http { status: 529, message: "overloaded_error: Overloaded".into() });
            assert_eq!(crate::model::retry::classify(&m), crate::model::retry::Failure::Throttled);
        }
        let auth: ModelError = AnthropicError::Api { kind: "authentication_error".into(), message: "invalid x-api-key".into() }.into();
        assert!(matches!(auth, ModelError::Unauthorized(_)));
    }

    #[test]
    fn unreadable_tool_json_is_a_clear_error() {
        let bad = String::from_utf8(TOOL_USE.to_vec()).unwrap().replace(r#"mpt\": \"Write"#, r#"mpt\": Write"#);
        let (_, result) = stream_in_pieces(bad.as_bytes(), 11);
        let e = result.unwrap_err();
        assert!(matches!(&e, AnthropicError::BadToolInput { name, .. } if name == "spawn_teammate"), "{e:?}");
        let m: ModelError = e.into();
        assert!(
            m.to_string().starts_with(
                "the model's reply could not be read: the arguments of the tool call \"spawn_teammate\" are not a valid JSON object"
            ),
            "{m}"
        );
    }

    #[test]
    fn a_cut_off_tool_call_at_max_tokens_is_kept_with_an_empty_input() {
        let (_, result) = stream_in_pieces(MAX_TOKENS, 13);
        let r = result.unwrap();
        assert_eq!(r.stop_reason, StopReason::MaxTokens);
        assert_eq!(
            r.content[1],
            ContentBlock::ToolUse { id: "toolu_01A09q90qw90lq917835lq9".into(), name: "write_file".into(), input: json!({}) }
        );
    }

    #[test]
    fn a_stream_cut_before_message_stop_is_an_error() {
        let cut = &TOOL_USE[..TOOL_USE.len() - 40];
        assert_eq!(stream_in_pieces(cut, 50).1, Err(AnthropicError::EndedEarly));
        assert_eq!(stream_in_pieces(b"", 1).1, Err(AnthropicError::EndedEarly));
    }

    #[test]
    fn a_delta_for_a_block_never_started_is_an_error() {
        let s = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":4,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n";
        assert!(matches!(stream_in_pieces(s.as_bytes(), 9).1, Err(AnthropicError::UnknownBlock(_))));
        assert!(matches!(stream_in_pieces(b"event: message_start\ndata: {not json\n\n", 4).1, Err(AnthropicError::NotJson(_))));
        let odd_ping = String::from_utf8(TOOL_USE.to_vec()).unwrap().replace("data: {\"type\": \"ping\"}", "data: keep-alive");
        assert_eq!(stream_in_pieces(odd_ping.as_bytes(), 5).1, Ok(expected_tool_use_response()), "an event we skip may carry anything");
    }

    // ------------------------------------------------------------ the key

    #[test]
    fn no_debug_output_url_or_body_ever_holds_the_key() {
        let cfg = config();
        let request = build_request(&cfg, &sample_request()).unwrap();
        let (model, transport, _) = model_with(vec![FakeReply::sse([TOOL_USE])]);
        block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap();
        let shown = [
            format!("{cfg:?}"),
            format!("{cfg:#?}"),
            format!("{:?}", cfg.api_key),
            format!("{request:?}"),
            format!("{:?}", request.headers),
            format!("{model:?}"),
            format!("{:?}", transport.sent()),
            format!("{:?}", sample_request()),
            request.url.clone(),
            request.body.clone(),
            transport.sent()[0].url.clone(),
        ];
        for s in shown {
            assert!(!s.contains(KEY) && !s.contains("SECRET"), "the key leaked into: {s}");
        }
        assert_eq!(transport.sent()[0].headers.get("x-api-key"), Some(KEY), "it is sent, in its header only");
    }

    // ------------------------------------------------------------ complete()

    #[test]
    fn complete_streams_text_to_the_sink_and_returns_the_response() {
        let chunks: Vec<&[u8]> = TOOL_USE.chunks(17).collect();
        let (model, transport, sleeper) = model_with(vec![FakeReply::sse(chunks)]);
        let (on_text, seen) = sink();
        let r = block_on(model.complete(&sample_request(), on_text, CancelToken::new()));
        assert_eq!(r, Ok(expected_tool_use_response()));
        assert_eq!(seen.borrow().len(), 2, "one call per delta, as they arrive");
        assert_eq!(seen.borrow().concat(), "Spawning alice \u{2014} she\u{2019}ll write the caf\u{e9} notes \u{2713} \u{65e5}\u{672c}.");
        assert_eq!(transport.sent().len(), 1);
        assert_eq!(transport.sent()[0].url, "https://api.anthropic.com/v1/messages");
        assert!(sleeper.waits().is_empty());
        assert_eq!(model.label(), "claude-sonnet-4-5 (Anthropic)");
    }

    #[test]
    fn a_json_reply_is_read_whole_when_not_streaming() {
        let transport = FakeTransport::new([FakeReply::json(200, RESPONSE)]);
        let model = AnthropicModel::new(AnthropicConfig { stream: false, ..config() }, transport.clone(), Rc::new(NoSleep));
        let (on_text, seen) = sink();
        let r = block_on(model.complete(&sample_request(), on_text, CancelToken::new())).unwrap();
        assert_eq!(r, parse_response(RESPONSE).unwrap());
        assert_eq!(*seen.borrow(), ["I'll ask alice to shut down."]);
        assert!(transport.sent()[0].body.contains("\"stream\":false"));
    }

    #[test]
    fn a_proxy_that_answers_json_to_a_streaming_request_is_still_read() {
        let (model, _, _) = model_with(vec![FakeReply::json(200, RESPONSE)]);
        assert_eq!(
            block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())),
            Ok(parse_response(RESPONSE).unwrap())
        );
    }

    #[test]
    fn a_429_with_retry_after_is_waited_out_then_succeeds() {
        let limited = FakeReply::json(429, r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#).with_header("retry-after", "7");
        let (model, transport, sleeper) = model_with(vec![limited, FakeReply::sse([TOOL_USE])]);
        let r = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new()));
        assert_eq!(r, Ok(expected_tool_use_response()));
        assert_eq!(sleeper.waits(), [7_000]);
        assert_eq!(transport.sent().len(), 2);
        assert_eq!(transport.sent()[0], transport.sent()[1], "the retry sends the same request");
    }

    #[test]
    fn a_529_is_retried_with_jittered_backoff() {
        let (model, transport, sleeper) =
            model_with(vec![FakeReply::json(529, overloaded_body()), FakeReply::json(529, overloaded_body()), FakeReply::sse([TOOL_USE])]);
        let r = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new()));
        assert!(r.is_ok());
        assert_eq!(transport.sent().len(), 3);
        let waits = sleeper.waits();
        assert!((500..=1_000).contains(&waits[0]) && (1_000..=2_000).contains(&waits[1]), "{waits:?}");
    }

    #[test]
    fn overload_that_never_ends_gives_up_after_the_last_attempt() {
        let (model, transport, sleeper) = model_with(vec![FakeReply::json(529, overloaded_body()); 6]);
        let r = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new()));
        assert_eq!(r, Err(ModelError::Http { status: 529, message: "overloaded_error: Overloaded (gave up after 5 attempts)".into() }));
        assert_eq!((transport.sent().len(), sleeper.waits().len()), (5, 4));
    }

    #[test]
    fn overload_mid_stream_before_any_text_is_retried() {
        let (model, transport, _) = model_with(vec![FakeReply::sse([OVERLOADED]), FakeReply::sse([TOOL_USE])]);
        let r = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new()));
        assert_eq!(r, Ok(expected_tool_use_response()));
        assert_eq!(transport.sent().len(), 2);
    }

    #[test]
    fn overload_mid_stream_after_text_was_shown_is_reported_not_retried() {
        let (model, transport, _) = model_with(vec![FakeReply::sse([ERROR_AFTER_TEXT]), FakeReply::sse([TOOL_USE])]);
        let (on_text, seen) = sink();
        let r = block_on(model.complete(&sample_request(), on_text, CancelToken::new()));
        assert_eq!(r, Err(ModelError::Http { status: 529, message: "overloaded_error: Overloaded".into() }));
        assert_eq!(*seen.borrow(), ["Here is the first part"]);
        assert_eq!(transport.sent().len(), 1);
    }

    #[test]
    fn a_401_says_the_key_was_refused_and_is_not_retried() {
        let (model, transport, _) = model_with(vec![FakeReply::json(
            401,
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
        )]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert_eq!(e, ModelError::Unauthorized("401: authentication_error: invalid x-api-key".into()));
        assert!(e.to_string().contains("the key was refused"));
        assert_eq!(transport.sent().len(), 1);
    }

    #[test]
    fn a_server_that_repeats_the_key_in_its_error_does_not_get_it_shown() {
        let body = format!(r#"{{"type":"error","error":{{"type":"authentication_error","message":"invalid x-api-key: {KEY}"}}}}"#);
        let (model, _, _) = model_with(vec![FakeReply::json(401, &body)]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert_eq!(e, ModelError::Unauthorized("401: authentication_error: invalid x-api-key: <redacted>".into()));
        let echo = format!(
            "event: error\ndata: {{\"type\":\"error\",\"error\":{{\"type\":\"invalid_request_error\",\"message\":\"for {KEY}\"}}}}\n\n"
        );
        let (model, _, _) = model_with(vec![FakeReply::sse([echo.as_bytes()])]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert!(!e.to_string().contains(KEY) && e.to_string().contains("<redacted>"), "{e}");
    }

    #[test]
    fn a_400_is_shown_at_once_with_the_servers_message() {
        let (model, transport, _) = model_with(vec![FakeReply::json(
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"}}"#,
        )]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert_eq!(e.to_string(), "the model server answered 400: invalid_request_error: messages: roles must alternate");
        assert_eq!(transport.sent().len(), 1);
    }

    #[test]
    fn no_key_is_refused_before_anything_is_sent() {
        let transport = FakeTransport::new([]);
        let model = AnthropicModel::new(AnthropicConfig::default(), transport.clone(), Rc::new(NoSleep));
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert!(matches!(e, ModelError::Unauthorized(_)));
        assert!(transport.sent().is_empty());
    }

    #[test]
    fn a_malformed_body_is_a_malformed_error() {
        let (model, _, _) = model_with(vec![FakeReply::json(200, "{\"content\": [")]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert!(matches!(&e, ModelError::Malformed(m) if m.starts_with("the reply is not valid JSON")), "{e:?}");
        let (model, _, _) =
            model_with(vec![FakeReply::sse([&b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n"[..]])]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert_eq!(e, ModelError::Malformed("the stream ended before the message was complete (no message_stop)".into()));
    }

    #[test]
    fn a_network_error_is_reported_not_retried_and_never_panics() {
        let (model, transport, _) = model_with(vec![FakeReply::Fail(ModelError::Network(
            "could not reach https://api.anthropic.com/v1/messages: TypeError: Failed to fetch".into(),
        ))]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert!(matches!(&e, ModelError::Network(m) if m.contains("Failed to fetch")));
        assert_eq!(transport.sent().len(), 1);
        let dropped = FakeReply::sse([&TOOL_USE[..100]]).then_fail(ModelError::Network("the reply was cut off".into()));
        let (model, _, _) = model_with(vec![dropped]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert_eq!(e, ModelError::Network("the reply was cut off".into()));
    }

    #[test]
    fn a_bad_base_url_is_an_error_before_sending() {
        let transport = FakeTransport::new([]);
        let model =
            AnthropicModel::new(AnthropicConfig { base_url: "api.anthropic.com".into(), ..config() }, transport.clone(), Rc::new(NoSleep));
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert!(e.to_string().contains("must start with http:// or https://"), "{e}");
        assert!(transport.sent().is_empty());
    }

    #[test]
    fn stop_before_the_call_sends_nothing() {
        let (model, transport, _) = model_with(vec![FakeReply::sse([TOOL_USE])]);
        let cancel = CancelToken::new();
        cancel.cancel();
        assert_eq!(block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), cancel)), Err(ModelError::Cancelled));
        assert!(transport.sent().is_empty());
    }

    #[test]
    fn stop_while_the_call_hangs_cancels_it() {
        let (model, _, _) = model_with(vec![FakeReply::Hang]);
        let cancel = CancelToken::new();
        let request = sample_request();
        let mut call = model.complete(&request, Rc::new(|_: &str| {}), cancel.clone());
        assert_eq!(poll_once(&mut call), None, "waiting for the server");
        cancel.cancel();
        assert_eq!(poll_once(&mut call), Some(Err(ModelError::Cancelled)));
    }

    #[test]
    fn stop_during_the_backoff_wait_cancels_it() {
        let transport = FakeTransport::new([FakeReply::json(529, overloaded_body()), FakeReply::sse([TOOL_USE])]);
        let model = AnthropicModel::new(config(), transport.clone(), Rc::new(ForeverSleeper));
        let cancel = CancelToken::new();
        let request = sample_request();
        let mut call = model.complete(&request, Rc::new(|_: &str| {}), cancel.clone());
        assert_eq!(poll_once(&mut call), None, "waiting to retry");
        cancel.cancel();
        assert_eq!(poll_once(&mut call), Some(Err(ModelError::Cancelled)));
        assert_eq!(transport.sent().len(), 1);
    }

    #[test]
    fn stop_mid_stream_ends_the_call_at_the_next_chunk() {
        let chunks: Vec<&[u8]> = TOOL_USE.chunks(40).collect();
        let (model, _, _) = model_with(vec![FakeReply::sse(chunks)]);
        let cancel = CancelToken::new();
        let stopper = cancel.clone();
        let (on_text, seen) = sink();
        let on_text: TextSink = Rc::new(move |t: &str| {
            on_text(t);
            stopper.cancel(); // the user presses Stop as the first words appear
        });
        assert_eq!(block_on(model.complete(&sample_request(), on_text, cancel)), Err(ModelError::Cancelled));
        assert_eq!(seen.borrow().len(), 1);
    }
}
