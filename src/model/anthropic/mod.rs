//! The Anthropic Messages API provider: `POST {base_url}/v1/messages`.
//!
//! Owns the Anthropic dialect: the request (headers and JSON body), the
//! reply (read in `reply`: the non-streamed body, and the server-sent-events
//! stream as a pure state machine, [`AnthropicStream`]: bytes in, in any
//! chunk splits, events out), and [`AnthropicModel`], which puts them on a
//! transport. It must not know how
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

use serde_json::{json, Map, Value};

use super::http::{self, ApiKey, Headers, HttpError, HttpRequest};
use super::provider::{Dialect, HttpModel};
use super::sse::SseError;
use super::turns::normalize;
use super::{ContentBlock, ModelError, ModelRequest, ModelResponse, Role, Turn};

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

mod reply;

pub use reply::*;

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

    use super::reply::fixtures::*;
    use super::*;
    use crate::model::fake::{block_on, poll_once, sample_request, FakeReply, FakeTransport, ForeverSleeper, RecordingSleeper};
    use crate::model::sleep::NoSleep;
    use crate::model::{CancelToken, Model, TextSink};

    const KEY: &str = "sk-ant-api03-SECRET-0123456789abcdef";
    const GOLDEN: &str = include_str!("../../../tests/fixtures/anthropic_request.golden.json");

    fn config() -> AnthropicConfig {
        AnthropicConfig::with_key(KEY)
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
