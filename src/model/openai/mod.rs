//! The OpenAI-compatible Chat Completions provider:
//! `POST {base_url}/chat/completions`, for OpenAI itself, local model
//! servers (Ollama, llama.cpp, vLLM, LM Studio) and proxies.
//!
//! Owns the Chat Completions dialect: our conversation as chat messages
//! (a system message; assistant `tool_calls`; one `role: "tool"` message
//! per result, with its `tool_call_id`), tools as `function`s, the reply
//! (streamed `data:` chunks up to `data: [DONE]`, or one JSON body) back
//! into content blocks (read in `reply`), and [`OpenAiModel`]. It must not
//! know how bytes travel (`http`) or when to retry (`retry`).
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

use serde_json::{json, Map, Value};

use super::http::{self, ApiKey, Headers, HttpError, HttpRequest};
use super::provider::{Dialect, HttpModel};
use super::sse::SseError;
use super::turns::normalize;
use super::{ContentBlock, ModelError, ModelRequest, ModelResponse, Role};

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

mod reply;

pub use reply::*;

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

    use super::reply::fixtures::*;
    use super::*;
    use crate::model::fake::{block_on, poll_once, sample_request, FakeReply, FakeTransport, RecordingSleeper};
    use crate::model::sleep::NoSleep;
    use crate::model::Turn;
    use crate::model::{CancelToken, Model, TextSink};

    const KEY: &str = "sk-proj-SECRET-abcdef0123456789";
    const GOLDEN: &str = include_str!("../../../tests/fixtures/openai_request.golden.json");

    fn config() -> OpenAiConfig {
        OpenAiConfig { api_key: ApiKey::new(KEY), ..OpenAiConfig::default() }
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
