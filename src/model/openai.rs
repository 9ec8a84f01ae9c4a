//! The OpenAI-compatible Chat Completions provider:
//! `POST {base_url}/chat/completions`, for OpenAI itself, local model
//! servers (Ollama, llama.cpp, vLLM, LM Studio) and proxies.
//!
//! Owns the Chat Completions dialect: our conversation as chat messages
//! (a system message; assistant `tool_calls`; one `role: "tool"` message
//! per result, with its `tool_call_id`), tools as `function`s, the reply
//! (streamed `data:` chunks up to `data: [DONE]`, or one JSON body) back
//! into content blocks, and [`OpenAiModel`]. It must not know how bytes
//! travel (`http`) or when to retry (`retry`).
//!
//! Mapping rules:
//! - `finish_reason`: `stop` → end_turn, `tool_calls` (and the legacy
//!   `function_call`) → tool_use, `length` → max_tokens, `content_filter` →
//!   refusal. A server that says `stop` while returning tool calls (some
//!   local servers do) gets tool_use; one that sends no reason gets tool_use
//!   or end_turn by whether it called tools. Any other reason is an error.
//! - The key is optional; when given it goes in `authorization: Bearer`.
//! - A tool result marked `is_error` is sent with an `Error: ` prefix (the
//!   format has no error flag) unless it already starts with `Error`.
//! - Tool arguments that do not parse are an error, except in a reply cut
//!   off by `length`, where the call is kept with an empty input.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::http::{self, ApiKey, Headers, HttpError, HttpRequest};
use super::provider::{Dialect, HttpModel};
use super::sse::{SseDecoder, SseError, SseEvent};
use super::turns::normalize;
use super::{ContentBlock, ModelError, ModelRequest, ModelResponse, Role, StopReason, Usage};

/// OpenAI's own address (local servers use e.g. `http://localhost:11434/v1`).
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

/// The model asked for unless the user picks another.
pub const DEFAULT_MODEL: &str = "gpt-4o-mini";

/// The `max_tokens` cap unless the user sets another.
pub const DEFAULT_MAX_TOKENS: u32 = 8000;

/// Errors in what a Chat Completions server sent back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenAiError {
    /// The event stream itself was broken.
    #[error("{0}")]
    Sse(#[from] SseError),
    /// A body or chunk was not JSON.
    #[error("the reply is not valid JSON ({0})")]
    NotJson(String),
    /// A required field was missing.
    #[error("the reply has no {0}")]
    Missing(&'static str),
    /// A `finish_reason` we do not know.
    #[error("the model stopped for an unknown reason {0:?}")]
    UnknownFinishReason(String),
    /// A tool call's arguments did not parse.
    #[error("the arguments of the tool call {name:?} are not a valid JSON object ({reason})")]
    BadToolInput {
        /// The tool.
        name: String,
        /// What was wrong.
        reason: String,
    },
    /// The server reported an error in the body or mid-stream.
    #[error("{message}")]
    Api {
        /// The HTTP-like status it gave, if any.
        status: Option<u16>,
        /// Its message.
        message: String,
    },
    /// The stream ended before `[DONE]` or a finish reason.
    #[error("the stream ended before the reply was complete (no finish_reason and no [DONE])")]
    EndedEarly,
}

impl From<OpenAiError> for ModelError {
    fn from(e: OpenAiError) -> Self {
        match e {
            OpenAiError::Api { status: Some(s @ (401 | 403)), message } => ModelError::Unauthorized(format!("{s}: {message}")),
            OpenAiError::Api { status, message } => ModelError::Http { status: status.unwrap_or(500), message },
            other => ModelError::Malformed(other.to_string()),
        }
    }
}

/// How to reach the server. `Debug` never shows the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAiConfig {
    /// Where to send requests, without `/chat/completions` (usually ending
    /// in `/v1`).
    pub base_url: String,
    /// The model id.
    pub model: String,
    /// The most tokens a reply may use (a request may ask for fewer).
    pub max_tokens: u32,
    /// Ask for a streamed reply.
    pub stream: bool,
    /// The key, if the server needs one (in memory only).
    pub api_key: ApiKey,
}

impl Default for OpenAiConfig {
    fn default() -> Self {
        OpenAiConfig {
            base_url: DEFAULT_BASE_URL.into(),
            model: DEFAULT_MODEL.into(),
            max_tokens: DEFAULT_MAX_TOKENS,
            stream: true,
            api_key: ApiKey::default(),
        }
    }
}

impl OpenAiConfig {
    /// A server at `base_url` serving `model`, without a key.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        OpenAiConfig { base_url: base_url.into(), model: model.into(), ..OpenAiConfig::default() }
    }
}

// ------------------------------------------------------------- the request

/// Our conversation as chat messages, the system prompt first.
pub fn chat_messages(system: &str, turns: &[super::Turn]) -> Vec<Value> {
    let mut out = Vec::new();
    if !system.is_empty() {
        out.push(json!({ "role": "system", "content": system }));
    }
    for turn in normalize(turns) {
        let texts: Vec<&str> = turn
            .content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        match turn.role {
            Role::Assistant => {
                let calls: Vec<Value> = turn
                    .content
                    .iter()
                    .filter_map(|b| match b {
                        ContentBlock::ToolUse { id, name, input } => {
                            Some(json!({ "id": id, "type": "function", "function": { "name": name, "arguments": input.to_string() } }))
                        }
                        _ => None,
                    })
                    .collect();
                let content = if texts.is_empty() { Value::Null } else { json!(texts.join("\n")) };
                let mut m = json!({ "role": "assistant", "content": content });
                if !calls.is_empty() {
                    m["tool_calls"] = Value::Array(calls);
                }
                out.push(m);
            }
            Role::User => {
                for b in &turn.content {
                    if let ContentBlock::ToolResult { tool_use_id, content, is_error } = b {
                        let content =
                            if *is_error && !content.starts_with("Error") { format!("Error: {content}") } else { content.clone() };
                        out.push(json!({ "role": "tool", "tool_call_id": tool_use_id, "content": content }));
                    }
                }
                if !texts.is_empty() {
                    out.push(json!({ "role": "user", "content": texts.join("\n") }));
                }
            }
        }
    }
    out
}

/// The JSON body for `request`.
pub fn request_body(config: &OpenAiConfig, request: &ModelRequest) -> Value {
    let max_tokens = if request.max_tokens == 0 { config.max_tokens } else { request.max_tokens.min(config.max_tokens) };
    let mut body = Map::new();
    body.insert("model".into(), json!(config.model));
    body.insert("messages".into(), Value::Array(chat_messages(&request.system, &request.messages)));
    body.insert("max_tokens".into(), json!(max_tokens));
    if !request.tools.is_empty() {
        let tools = request
            .tools
            .iter()
            .map(|t| json!({ "type": "function", "function": { "name": t.name, "description": t.description, "parameters": t.input_schema } }))
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    body.insert("stream".into(), json!(config.stream));
    if config.stream {
        body.insert("stream_options".into(), json!({ "include_usage": true }));
    }
    Value::Object(body)
}

/// The headers of every call; `authorization` only when there is a key.
pub fn request_headers(config: &OpenAiConfig) -> Headers {
    let headers = Headers::new().with("content-type", "application/json");
    if config.api_key.is_empty() {
        headers
    } else {
        headers.with("authorization", format!("Bearer {}", config.api_key.expose()))
    }
}

/// The whole HTTP request for `request`.
pub fn build_request(config: &OpenAiConfig, request: &ModelRequest) -> Result<HttpRequest, HttpError> {
    let url = http::endpoint(&config.base_url, "/chat/completions", &config.api_key)?;
    Ok(HttpRequest { url, headers: request_headers(config), body: request_body(config, request).to_string() })
}

// ------------------------------------------------------------- the reply

/// Reads a `finish_reason` (`None` when the server sent none), given
/// whether the reply called tools.
pub fn parse_finish_reason(reason: Option<&str>, has_tool_calls: bool) -> Result<StopReason, OpenAiError> {
    Ok(match reason {
        Some("tool_calls" | "function_call") => StopReason::ToolUse,
        Some("stop") | None if has_tool_calls => StopReason::ToolUse,
        Some("stop") | None => StopReason::EndTurn,
        Some("length") => StopReason::MaxTokens,
        Some("content_filter") => StopReason::Refusal,
        Some(other) => return Err(OpenAiError::UnknownFinishReason(other.to_string())),
    })
}

fn api_error(err: &Value) -> OpenAiError {
    let message = err
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| err.as_str().map(str::to_string))
        .unwrap_or_else(|| err.to_string());
    let status = err.get("code").and_then(Value::as_u64).filter(|c| (400..600).contains(c)).map(|c| c as u16);
    OpenAiError::Api { status, message }
}

fn usage_of(v: &Value, into: &mut Usage) {
    if let Some(n) = v.get("prompt_tokens").and_then(Value::as_u64) {
        into.input_tokens = n;
    }
    if let Some(n) = v.get("completion_tokens").and_then(Value::as_u64) {
        into.output_tokens = n;
    }
}

/// Parses a tool call's `arguments` string (empty means no arguments).
fn parse_arguments(name: &str, arguments: &str) -> Result<Value, OpenAiError> {
    if arguments.trim().is_empty() {
        return Ok(json!({}));
    }
    let bad = |reason: String| OpenAiError::BadToolInput { name: name.to_string(), reason };
    match serde_json::from_str::<Value>(arguments) {
        Ok(v) if v.is_object() => Ok(v),
        Ok(v) => Err(bad(format!("got {v}"))),
        Err(e) => Err(bad(e.to_string())),
    }
}

/// A tool call being assembled.
#[derive(Debug, Default, Clone)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

/// Turns text and calls into the response, parsing the arguments.
fn assemble(text: String, calls: Vec<(usize, PartialCall)>, reason: Option<&str>, usage: Usage) -> Result<ModelResponse, OpenAiError> {
    let stop_reason = parse_finish_reason(reason, !calls.is_empty())?;
    let mut content = Vec::new();
    if !text.is_empty() {
        content.push(ContentBlock::Text { text });
    }
    for (index, call) in calls {
        if call.name.is_empty() {
            return Err(OpenAiError::Missing("tool call name"));
        }
        let input = match parse_arguments(&call.name, &call.arguments) {
            Ok(v) => v,
            Err(_) if stop_reason == StopReason::MaxTokens => json!({}),
            Err(e) => return Err(e),
        };
        let id = if call.id.is_empty() { format!("call_{index}") } else { call.id };
        content.push(ContentBlock::ToolUse { id, name: call.name, input });
    }
    Ok(ModelResponse { content, stop_reason, usage })
}

/// Reads a non-streamed reply body (the first choice).
pub fn parse_response(body: &str) -> Result<ModelResponse, OpenAiError> {
    let v: Value = serde_json::from_str(body).map_err(|e| OpenAiError::NotJson(e.to_string()))?;
    if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
        return Err(api_error(err));
    }
    let choice = v.get("choices").and_then(|c| c.get(0)).ok_or(OpenAiError::Missing("choices"))?;
    let message = choice.get("message").ok_or(OpenAiError::Missing("message"))?;
    let text = message.get("content").and_then(Value::as_str).unwrap_or_default().to_string();
    let calls: Vec<(usize, PartialCall)> = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|calls| {
            calls
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let f = &c["function"];
                    let arguments = match &f["arguments"] {
                        Value::String(s) => s.clone(),
                        Value::Null => String::new(),
                        other => other.to_string(), // some servers send an object
                    };
                    (
                        i,
                        PartialCall {
                            id: c["id"].as_str().unwrap_or_default().into(),
                            name: f["name"].as_str().unwrap_or_default().into(),
                            arguments,
                        },
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let mut usage = Usage::default();
    usage_of(&v["usage"], &mut usage);
    assemble(text, calls, choice.get("finish_reason").and_then(Value::as_str), usage)
}

/// What the stream said, chunk by chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChatEvent {
    /// Text to show now.
    TextDelta(String),
    /// A tool call began (its id and name arrived).
    ToolCallStart {
        /// Its position among the calls.
        index: usize,
        /// The function's name.
        name: String,
    },
    /// A piece of a tool call's arguments.
    ArgumentsDelta {
        /// Its position among the calls.
        index: usize,
        /// The piece.
        piece: String,
    },
    /// The finish reason arrived.
    Finished(String),
    /// Token counts arrived.
    Usage(Usage),
    /// `data: [DONE]`.
    Done,
}

/// The streaming parser: feed it bytes as they arrive, in any splits;
/// `finish` gives the whole response.
#[derive(Debug)]
pub struct ChatStream {
    sse: SseDecoder,
    text: String,
    calls: BTreeMap<usize, PartialCall>,
    finish_reason: Option<String>,
    usage: Usage,
    done: bool,
}

impl Default for ChatStream {
    fn default() -> Self {
        ChatStream::new()
    }
}

impl ChatStream {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        ChatStream {
            sse: SseDecoder::new(),
            text: String::new(),
            calls: BTreeMap::new(),
            finish_reason: None,
            usage: Usage::default(),
            done: false,
        }
    }

    /// Feeds the next chunk; returns the events it completed. An error
    /// object in the stream comes back as `Err(OpenAiError::Api)`.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<ChatEvent>, OpenAiError> {
        let mut out = Vec::new();
        self.feed_into(bytes, &mut out)?;
        Ok(out)
    }

    /// Like [`Self::feed`], but appends the events to `out`, so the events
    /// before an error are kept (text shown before a mid-stream error).
    pub fn feed_into(&mut self, bytes: &[u8], out: &mut Vec<ChatEvent>) -> Result<(), OpenAiError> {
        for ev in self.sse.feed(bytes)? {
            self.handle(ev, out)?;
        }
        Ok(())
    }

    /// Ends the stream and assembles the response.
    pub fn finish(mut self) -> Result<ModelResponse, OpenAiError> {
        let mut out = Vec::new();
        for ev in self.sse.finish()? {
            self.handle(ev, &mut out)?;
        }
        if !self.done && self.finish_reason.is_none() {
            return Err(OpenAiError::EndedEarly);
        }
        assemble(self.text, self.calls.into_iter().collect(), self.finish_reason.as_deref(), self.usage)
    }

    fn handle(&mut self, ev: SseEvent, out: &mut Vec<ChatEvent>) -> Result<(), OpenAiError> {
        if self.done {
            return Ok(());
        }
        if ev.data.trim() == "[DONE]" {
            self.done = true;
            out.push(ChatEvent::Done);
            return Ok(());
        }
        let v: Value = serde_json::from_str(&ev.data).map_err(|e| OpenAiError::NotJson(format!("stream chunk: {e}")))?;
        if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
            return Err(api_error(err));
        }
        if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
            usage_of(u, &mut self.usage);
            out.push(ChatEvent::Usage(self.usage));
        }
        let Some(choice) =
            v.get("choices").and_then(Value::as_array).and_then(|c| c.iter().find(|c| c["index"].as_u64().unwrap_or(0) == 0))
        else {
            return Ok(()); // the usage-only chunk, or a keep-alive
        };
        let delta = &choice["delta"];
        if let Some(text) = delta.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
            self.text.push_str(text);
            out.push(ChatEvent::TextDelta(text.to_string()));
        }
        for (position, call) in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let index = call.get("index").and_then(Value::as_u64).map_or(position, |i| i as usize);
            let partial = self.calls.entry(index).or_default();
            if let Some(id) = call.get("id").and_then(Value::as_str).filter(|s| !s.is_empty()) {
                partial.id = id.to_string();
            }
            let f = &call["function"];
            if let Some(name) = f.get("name").and_then(Value::as_str).filter(|s| !s.is_empty()) {
                // Some servers repeat the name in every chunk: keep the first.
                if partial.name.is_empty() {
                    partial.name = name.to_string();
                    out.push(ChatEvent::ToolCallStart { index, name: name.to_string() });
                }
            }
            let piece = match f.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            if !piece.is_empty() {
                partial.arguments.push_str(&piece);
                out.push(ChatEvent::ArgumentsDelta { index, piece });
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.to_string());
            out.push(ChatEvent::Finished(reason.to_string()));
        }
        Ok(())
    }
}

// ------------------------------------------------------------- the model

/// The OpenAI-compatible Chat Completions dialect, for `provider::HttpModel`.
#[derive(Debug, Clone, Copy)]
pub enum OpenAi {}

impl Dialect for OpenAi {
    type Config = OpenAiConfig;
    type Stream = ChatStream;
    type Event = ChatEvent;
    const FAMILY: &'static str = "OpenAI-compatible";

    fn model_id(config: &OpenAiConfig) -> &str {
        &config.model
    }

    fn streamed(config: &OpenAiConfig) -> bool {
        config.stream
    }

    fn prepare(config: &OpenAiConfig, request: &ModelRequest) -> Result<HttpRequest, ModelError> {
        Ok(build_request(config, request)?)
    }

    fn parse_body(body: &str) -> Result<ModelResponse, ModelError> {
        Ok(parse_response(body)?)
    }

    fn feed(stream: &mut ChatStream, bytes: &[u8], out: &mut Vec<ChatEvent>) -> Result<(), ModelError> {
        Ok(stream.feed_into(bytes, out)?)
    }

    fn text_of(event: &ChatEvent) -> Option<&str> {
        match event {
            ChatEvent::TextDelta(text) => Some(text),
            _ => None,
        }
    }

    fn finish(stream: ChatStream) -> Result<ModelResponse, ModelError> {
        Ok(stream.finish()?)
    }
}

/// The Chat Completions provider over a transport `T`.
pub type OpenAiModel<T> = HttpModel<OpenAi, T>;

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use crate::model::fake::{block_on, poll_once, sample_request, FakeReply, FakeTransport, RecordingSleeper};
    use crate::model::sleep::NoSleep;
    use crate::model::Turn;
    use crate::model::{CancelToken, Model, TextSink};

    const KEY: &str = "sk-proj-SECRET-abcdef0123456789";
    const TOOL_CALLS: &[u8] = include_bytes!("../../tests/fixtures/openai_stream_tool_calls.sse");
    const TEXT_CRLF: &[u8] = include_bytes!("../../tests/fixtures/openai_stream_text_crlf.sse");
    const ERROR: &[u8] = include_bytes!("../../tests/fixtures/openai_stream_error.sse");
    const RESPONSE: &str = include_str!("../../tests/fixtures/openai_response_tool_calls.json");
    const GOLDEN: &str = include_str!("../../tests/fixtures/openai_request.golden.json");

    fn config() -> OpenAiConfig {
        OpenAiConfig { api_key: ApiKey::new(KEY), ..OpenAiConfig::default() }
    }

    fn expected_tool_calls() -> ModelResponse {
        ModelResponse {
            content: vec![
                ContentBlock::text("Asking both to stop \u{2014} na\u{ef}ve \u{2713}."),
                ContentBlock::ToolUse { id: "call_Q1aZ".into(), name: "shutdown_request".into(), input: json!({ "teammate": "alice" }) },
                ContentBlock::ToolUse { id: "call_R2bY".into(), name: "shutdown_request".into(), input: json!({ "teammate": "b\u{f3}b" }) },
            ],
            stop_reason: StopReason::ToolUse,
            usage: Usage { input_tokens: 612, output_tokens: 58 },
        }
    }

    fn stream_in_pieces(bytes: &[u8], size: usize) -> (Vec<ChatEvent>, Result<ModelResponse, OpenAiError>) {
        let mut parser = ChatStream::new();
        let mut events = Vec::new();
        for piece in bytes.chunks(size) {
            if let Err(e) = parser.feed_into(piece, &mut events) {
                return (events, Err(e));
            }
        }
        (events, parser.finish())
    }

    fn sink() -> (TextSink, Rc<RefCell<Vec<String>>>) {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let s = seen.clone();
        (Rc::new(move |t: &str| s.borrow_mut().push(t.to_string())), seen)
    }

    fn model_with(replies: Vec<FakeReply>) -> (OpenAiModel<Rc<FakeTransport>>, Rc<FakeTransport>, Rc<RecordingSleeper>) {
        let transport = FakeTransport::new(replies);
        let sleeper = RecordingSleeper::new();
        (OpenAiModel::new(config(), transport.clone(), sleeper.clone()), transport, sleeper)
    }

    fn reply_with(message: Value, finish: Value) -> String {
        json!({ "choices": [{ "index": 0, "message": message, "finish_reason": finish }], "usage": { "prompt_tokens": 5, "completion_tokens": 6 } }).to_string()
    }

    // ------------------------------------------------------------ request

    #[test]
    fn the_request_body_matches_the_golden_file() {
        let golden: Value = serde_json::from_str(GOLDEN).unwrap();
        assert_eq!(request_body(&config(), &sample_request()), golden);
    }

    #[test]
    fn the_request_goes_to_chat_completions_with_a_bearer_key_only_when_given() {
        let r = build_request(&config(), &sample_request()).unwrap();
        assert_eq!(r.url, "https://api.openai.com/v1/chat/completions");
        let headers: Vec<(&str, &str)> = r.headers.iter().collect();
        assert_eq!(headers, [("content-type", "application/json"), ("authorization", "Bearer sk-proj-SECRET-abcdef0123456789")]);
        let local = OpenAiConfig::new("http://localhost:11434/v1/", "llama3.2");
        let r = build_request(&local, &sample_request()).unwrap();
        assert_eq!(r.url, "http://localhost:11434/v1/chat/completions");
        assert_eq!(r.headers.get("authorization"), None);
    }

    #[test]
    fn a_non_streaming_request_asks_for_no_stream_options() {
        let body = request_body(&OpenAiConfig { stream: false, ..config() }, &sample_request());
        assert_eq!(body["stream"], json!(false));
        assert!(body.get("stream_options").is_none());
        let bare = ModelRequest { system: String::new(), messages: vec![Turn::user_text("hi")], tools: Vec::new().into(), max_tokens: 0 };
        let body = request_body(&config(), &bare);
        assert_eq!(body["messages"], json!([{ "role": "user", "content": "hi" }]));
        assert!(body.get("tools").is_none());
        assert_eq!(body["max_tokens"], json!(8000));
    }

    #[test]
    fn a_failed_tool_result_is_marked_with_an_error_prefix() {
        let turns = vec![
            Turn::user_text("go"),
            Turn { role: Role::Assistant, content: vec![ContentBlock::ToolUse { id: "c1".into(), name: "t".into(), input: json!({}) }] },
            Turn {
                role: Role::User,
                content: vec![ContentBlock::ToolResult { tool_use_id: "c1".into(), content: "unknown teammate".into(), is_error: true }],
            },
        ];
        let m = chat_messages("", &turns);
        assert_eq!(m[2], json!({ "role": "tool", "tool_call_id": "c1", "content": "Error: unknown teammate" }));
    }

    #[test]
    fn tool_calls_and_tool_messages_map_both_ways() {
        let call = ContentBlock::ToolUse { id: "call_7".into(), name: "send_message".into(), input: json!({ "to": "lead" }) };
        let turns = vec![Turn::user_text("go"), Turn { role: Role::Assistant, content: vec![call.clone()] }];
        let sent = chat_messages("", &turns)[1].clone();
        assert_eq!(
            sent,
            json!({ "role": "assistant", "content": null, "tool_calls": [{ "id": "call_7", "type": "function", "function": { "name": "send_message", "arguments": "{\"to\":\"lead\"}" } }] })
        );
        let r = parse_response(&reply_with(
            json!({ "role": "assistant", "content": null, "tool_calls": sent["tool_calls"] }),
            json!("tool_calls"),
        ))
        .unwrap();
        assert_eq!(r.content, vec![call]);
    }

    // ------------------------------------------------------------ replies

    #[test]
    fn a_recorded_reply_is_read_with_its_tool_call_and_usage() {
        let r = parse_response(RESPONSE).unwrap();
        assert_eq!(r.stop_reason, StopReason::ToolUse);
        assert_eq!(r.usage, Usage { input_tokens: 812, output_tokens: 41 });
        assert_eq!(
            r.content,
            vec![ContentBlock::ToolUse {
                id: "call_Z9".into(),
                name: "plan_approval".into(),
                input: json!({ "request_id": "a1b2c3d4", "approve": true, "feedback": "Go ahead." })
            }]
        );
    }

    #[test]
    fn every_finish_reason_maps_to_our_stop_reason() {
        let text = json!({ "role": "assistant", "content": "hi" });
        for (reason, expected) in [
            ("stop", StopReason::EndTurn),
            ("length", StopReason::MaxTokens),
            ("content_filter", StopReason::Refusal),
            ("tool_calls", StopReason::ToolUse),
            ("function_call", StopReason::ToolUse),
        ] {
            assert_eq!(parse_response(&reply_with(text.clone(), json!(reason))).unwrap().stop_reason, expected, "{reason}");
        }
        assert_eq!(parse_response(&reply_with(text.clone(), Value::Null)).unwrap().stop_reason, StopReason::EndTurn);
        let called = json!({ "role": "assistant", "content": null, "tool_calls": [{ "id": "c", "type": "function", "function": { "name": "t", "arguments": "{}" } }] });
        assert_eq!(
            parse_response(&reply_with(called, json!("stop"))).unwrap().stop_reason,
            StopReason::ToolUse,
            "a local server saying stop while calling tools"
        );
    }

    #[test]
    fn an_unknown_finish_reason_is_a_clear_malformed_error() {
        let e: ModelError = parse_response(&reply_with(json!({ "content": "x" }), json!("eos_token"))).unwrap_err().into();
        assert_eq!(e, ModelError::Malformed("the model stopped for an unknown reason \"eos_token\"".into()));
    }

    #[test]
    fn bad_or_missing_pieces_are_clear_errors() {
        assert_eq!(parse_response("{\"choices\": []}"), Err(OpenAiError::Missing("choices")));
        assert!(matches!(parse_response("not json"), Err(OpenAiError::NotJson(_))));
        let bad_args = json!({ "content": null, "tool_calls": [{ "id": "c", "function": { "name": "t", "arguments": "{\"a\": " } }] });
        assert!(
            matches!(parse_response(&reply_with(bad_args.clone(), json!("tool_calls"))), Err(OpenAiError::BadToolInput { name, .. }) if name == "t")
        );
        let cut = parse_response(&reply_with(bad_args, json!("length"))).unwrap();
        assert_eq!(
            cut.content,
            vec![ContentBlock::ToolUse { id: "c".into(), name: "t".into(), input: json!({}) }],
            "cut off by length: kept, empty"
        );
        let err = parse_response(r#"{"error":{"message":"model 'x' not found","type":"not_found_error","code":404}}"#).unwrap_err();
        assert_eq!(ModelError::from(err), ModelError::Http { status: 404, message: "model 'x' not found".into() });
    }

    #[test]
    fn a_call_without_an_id_or_with_empty_arguments_still_reads() {
        let m = json!({ "content": "", "tool_calls": [{ "function": { "name": "list_teammates", "arguments": "" } }] });
        let r = parse_response(&reply_with(m, json!("tool_calls"))).unwrap();
        assert_eq!(r.content, vec![ContentBlock::ToolUse { id: "call_0".into(), name: "list_teammates".into(), input: json!({}) }]);
    }

    // ------------------------------------------------------------ streaming

    #[test]
    fn the_streamed_tool_calls_read_the_same_in_any_chunk_split() {
        for size in 1..=TOOL_CALLS.len() {
            let (events, result) = stream_in_pieces(TOOL_CALLS, size);
            assert_eq!(result, Ok(expected_tool_calls()), "pieces of {size} bytes");
            assert_eq!(events.last(), Some(&ChatEvent::Done));
        }
        for cut in 0..TOOL_CALLS.len() {
            let mut parser = ChatStream::new();
            parser.feed(&TOOL_CALLS[..cut]).unwrap();
            parser.feed(&TOOL_CALLS[cut..]).unwrap();
            assert_eq!(parser.finish(), Ok(expected_tool_calls()), "cut at {cut}");
        }
    }

    #[test]
    fn argument_pieces_are_joined_per_call_index() {
        let (events, _) = stream_in_pieces(TOOL_CALLS, TOOL_CALLS.len());
        let pieces: Vec<(usize, &str)> = events
            .iter()
            .filter_map(|e| if let ChatEvent::ArgumentsDelta { index, piece } = e { Some((*index, piece.as_str())) } else { None })
            .collect();
        assert_eq!(pieces, [(0, "{\"team"), (0, "mate\": \"alice\"}"), (1, "{\"teammate\": \"b\u{f3}b\"}")]);
        assert!(events.contains(&ChatEvent::Usage(Usage { input_tokens: 612, output_tokens: 58 })));
    }

    #[test]
    fn crlf_text_streams_with_keep_alives_read_the_same_in_any_split() {
        for size in 1..=TEXT_CRLF.len() {
            let (events, result) = stream_in_pieces(TEXT_CRLF, size);
            let r = result.unwrap();
            assert_eq!(r.content, vec![ContentBlock::text("All done: wrote caf\u{e9}.md \u{2713}")], "pieces of {size}");
            assert_eq!((r.stop_reason.clone(), r.usage), (StopReason::EndTurn, Usage { input_tokens: 40, output_tokens: 9 }));
            let text: String =
                events.iter().filter_map(|e| if let ChatEvent::TextDelta(t) = e { Some(t.as_str()) } else { None }).collect();
            assert_eq!(text, "All done: wrote caf\u{e9}.md \u{2713}");
        }
    }

    #[test]
    fn an_error_chunk_mid_stream_is_an_error_after_the_text_before_it() {
        let (events, result) = stream_in_pieces(ERROR, ERROR.len());
        assert_eq!(events, [ChatEvent::TextDelta("Working".into())]);
        let e: ModelError = result.unwrap_err().into();
        assert_eq!(e, ModelError::Http { status: 503, message: "The server is overloaded, try again later".into() });
    }

    #[test]
    fn a_stream_cut_before_its_finish_is_an_error() {
        let cut = &TOOL_CALLS[..TOOL_CALLS.len() / 2];
        assert_eq!(stream_in_pieces(cut, 10).1, Err(OpenAiError::EndedEarly));
        let no_done = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\n";
        assert_eq!(stream_in_pieces(no_done, 10).1.unwrap().stop_reason, StopReason::EndTurn, "a finish reason without [DONE] is enough");
    }

    // ------------------------------------------------------------ the key

    #[test]
    fn no_debug_output_url_or_body_ever_holds_the_key() {
        let cfg = config();
        let request = build_request(&cfg, &sample_request()).unwrap();
        let (model, transport, _) = model_with(vec![FakeReply::sse([TOOL_CALLS])]);
        block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap();
        let shown = [
            format!("{cfg:?}"),
            format!("{request:?}"),
            format!("{model:?}"),
            format!("{:?}", transport.sent()),
            request.url.clone(),
            request.body.clone(),
        ];
        for s in shown {
            assert!(!s.contains(KEY) && !s.contains("SECRET"), "the key leaked into: {s}");
        }
    }

    // ------------------------------------------------------------ complete()

    #[test]
    fn complete_streams_text_to_the_sink_and_returns_the_response() {
        let chunks: Vec<&[u8]> = TOOL_CALLS.chunks(23).collect();
        let (model, transport, _) = model_with(vec![FakeReply::sse(chunks)]);
        let (on_text, seen) = sink();
        assert_eq!(block_on(model.complete(&sample_request(), on_text, CancelToken::new())), Ok(expected_tool_calls()));
        assert_eq!(*seen.borrow(), ["Asking both ", "to stop \u{2014} na\u{ef}ve \u{2713}."]);
        assert_eq!(transport.sent()[0].url, "https://api.openai.com/v1/chat/completions");
        assert_eq!(model.label(), "gpt-4o-mini (OpenAI-compatible)");
    }

    #[test]
    fn a_json_reply_is_read_whole_when_not_streaming() {
        let transport = FakeTransport::new([FakeReply::json(200, RESPONSE)]);
        let model = OpenAiModel::new(OpenAiConfig { stream: false, ..config() }, transport, Rc::new(NoSleep));
        assert_eq!(
            block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())),
            Ok(parse_response(RESPONSE).unwrap())
        );
    }

    #[test]
    fn a_429_with_retry_after_ms_is_waited_out_then_succeeds() {
        let limited = FakeReply::json(429, r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#)
            .with_header("retry-after-ms", "1200")
            .with_header("retry-after", "2");
        let (model, transport, sleeper) = model_with(vec![limited, FakeReply::sse([TOOL_CALLS])]);
        assert_eq!(block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())), Ok(expected_tool_calls()));
        assert_eq!(sleeper.waits(), [1_200]);
        assert_eq!(transport.sent().len(), 2);
    }

    #[test]
    fn a_401_says_the_key_was_refused() {
        let (model, transport, _) = model_with(vec![FakeReply::json(
            401,
            r#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}"#,
        )]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert!(matches!(&e, ModelError::Unauthorized(m) if m.contains("Incorrect API key")));
        assert!(e.to_string().contains("the key was refused"));
        assert_eq!(transport.sent().len(), 1);
    }

    #[test]
    fn a_server_error_is_retried_a_couple_of_times_then_shown() {
        let (model, transport, _) = model_with(vec![FakeReply::json(502, "<html>Bad Gateway</html>"); 4]);
        let e = block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())).unwrap_err();
        assert_eq!(e, ModelError::Http { status: 502, message: "<html>Bad Gateway</html> (gave up after 3 attempts)".into() });
        assert_eq!(transport.sent().len(), 3);
    }

    #[test]
    fn a_network_error_and_a_malformed_body_are_errors_not_panics() {
        let (model, _, _) = model_with(vec![FakeReply::Fail(ModelError::Network(
            "could not reach http://localhost:11434/v1/chat/completions: TypeError: Failed to fetch".into(),
        ))]);
        assert!(matches!(
            block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())),
            Err(ModelError::Network(_))
        ));
        let (model, _, _) = model_with(vec![FakeReply::sse([&b"data: {\"choices\": [{\"delta\": \n\n"[..]])]);
        assert!(matches!(
            block_on(model.complete(&sample_request(), Rc::new(|_: &str| {}), CancelToken::new())),
            Err(ModelError::Malformed(_))
        ));
    }

    #[test]
    fn stop_while_the_call_hangs_cancels_it() {
        let (model, _, _) = model_with(vec![FakeReply::Hang]);
        let cancel = CancelToken::new();
        let request = sample_request();
        let mut call = model.complete(&request, Rc::new(|_: &str| {}), cancel.clone());
        assert_eq!(poll_once(&mut call), None);
        cancel.cancel();
        assert_eq!(poll_once(&mut call), Some(Err(ModelError::Cancelled)));
    }
}
