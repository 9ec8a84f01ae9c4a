//! The OpenAI-compatible reply, in both forms: a chat completion's JSON
//! body (`parse_response`) and its server-sent-events stream as a pure
//! state machine ([`ChatStream`]: bytes in, in any chunk splits, events
//! out).
//!
//! Owns reading what the server sent back; the request and the model are
//! the parent module's. It must not know how bytes travel.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::OpenAiError;
use crate::model::sse::{SseDecoder, SseEvent};
use crate::model::{ContentBlock, ModelResponse, StopReason, Usage};

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

/// `prompt_tokens` counts the cached tokens too (`prompt_tokens_details.
/// cached_tokens`); `Usage` keeps them apart. The API reports no cache
/// writes.
fn usage_of(v: &Value, into: &mut Usage) {
    if v.is_object() {
        into.measured = true;
    }
    if let Some(n) = v.get("prompt_tokens").and_then(Value::as_u64) {
        let cached = v.pointer("/prompt_tokens_details/cached_tokens").and_then(Value::as_u64).unwrap_or(0).min(n);
        into.input_tokens = n - cached;
        into.cache_read_tokens = cached;
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

#[cfg(test)]
pub(super) mod fixtures {
    use serde_json::{json, Value};

    use super::*;

    pub(crate) const TOOL_CALLS: &[u8] = include_bytes!("../../../tests/fixtures/openai_stream_tool_calls.sse");
    pub(crate) const TEXT_CRLF: &[u8] = include_bytes!("../../../tests/fixtures/openai_stream_text_crlf.sse");
    pub(crate) const ERROR: &[u8] = include_bytes!("../../../tests/fixtures/openai_stream_error.sse");
    pub(crate) const RESPONSE: &str = include_str!("../../../tests/fixtures/openai_response_tool_calls.json");

    pub(crate) fn expected_tool_calls() -> ModelResponse {
        ModelResponse {
            content: vec![
                ContentBlock::text("Asking both to stop \u{2014} na\u{ef}ve \u{2713}."),
                ContentBlock::ToolUse { id: "call_Q1aZ".into(), name: "shutdown_request".into(), input: json!({ "teammate": "alice" }) },
                ContentBlock::ToolUse { id: "call_R2bY".into(), name: "shutdown_request".into(), input: json!({ "teammate": "b\u{f3}b" }) },
            ],
            stop_reason: StopReason::ToolUse,
            usage: Usage::reported(612, 58),
        }
    }

    pub(crate) fn stream_in_pieces(bytes: &[u8], size: usize) -> (Vec<ChatEvent>, Result<ModelResponse, OpenAiError>) {
        let mut parser = ChatStream::new();
        let mut events = Vec::new();
        for piece in bytes.chunks(size) {
            if let Err(e) = parser.feed_into(piece, &mut events) {
                return (events, Err(e));
            }
        }
        (events, parser.finish())
    }

    pub(crate) fn reply_with(message: Value, finish: Value) -> String {
        json!({ "choices": [{ "index": 0, "message": message, "finish_reason": finish }], "usage": { "prompt_tokens": 5, "completion_tokens": 6 } }).to_string()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::fixtures::*;
    use super::*;
    use crate::model::ModelError;

    // ------------------------------------------------------------ replies

    #[test]
    fn a_recorded_reply_is_read_with_its_tool_call_and_usage() {
        let r = parse_response(RESPONSE).unwrap();
        assert_eq!(r.stop_reason, StopReason::ToolUse);
        assert_eq!(r.usage, Usage::reported(812, 41));
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
    fn cached_prompt_tokens_are_taken_out_of_the_input_and_recorded_as_cache_reads() {
        let body = json!({ "choices": [{ "index": 0, "message": { "role": "assistant", "content": "hi" }, "finish_reason": "stop" }],
            "usage": { "prompt_tokens": 2000, "completion_tokens": 6, "prompt_tokens_details": { "cached_tokens": 1536 } } });
        let usage = parse_response(&body.to_string()).unwrap().usage;
        assert_eq!(usage, Usage { input_tokens: 464, output_tokens: 6, cache_read_tokens: 1536, cache_write_tokens: 0, measured: true });
        for details in [json!(null), json!({}), json!({ "cached_tokens": null })] {
            let body = json!({ "choices": [{ "index": 0, "message": { "role": "assistant", "content": "hi" }, "finish_reason": "stop" }],
                "usage": { "prompt_tokens": 2000, "completion_tokens": 6, "prompt_tokens_details": details } });
            assert_eq!(parse_response(&body.to_string()).unwrap().usage, Usage::reported(2000, 6), "{details}");
        }
        let nonsense = json!({ "choices": [{ "index": 0, "message": { "role": "assistant", "content": "hi" }, "finish_reason": "stop" }],
            "usage": { "prompt_tokens": 10, "completion_tokens": 6, "prompt_tokens_details": { "cached_tokens": 99 } } });
        let usage = parse_response(&nonsense.to_string()).unwrap().usage;
        assert_eq!((usage.input_tokens, usage.cache_read_tokens), (0, 10), "never more cached than sent");
    }

    #[test]
    fn a_streamed_usage_chunk_records_its_cached_tokens() {
        let text = std::str::from_utf8(TOOL_CALLS).unwrap();
        let cached = text.replace("\"prompt_tokens\":612,", "\"prompt_tokens\":612,\"prompt_tokens_details\":{\"cached_tokens\":512},");
        assert_ne!(cached, text, "the fixture ends with a usage chunk");
        let (events, result) = stream_in_pieces(cached.as_bytes(), 5);
        let want = Usage { input_tokens: 100, output_tokens: 58, cache_read_tokens: 512, cache_write_tokens: 0, measured: true };
        assert_eq!(result.unwrap().usage, want);
        assert!(events.contains(&ChatEvent::Usage(want)));
    }

    #[test]
    fn argument_pieces_are_joined_per_call_index() {
        let (events, _) = stream_in_pieces(TOOL_CALLS, TOOL_CALLS.len());
        let pieces: Vec<(usize, &str)> = events
            .iter()
            .filter_map(|e| if let ChatEvent::ArgumentsDelta { index, piece } = e { Some((*index, piece.as_str())) } else { None })
            .collect();
        assert_eq!(pieces, [(0, "{\"team"), (0, "mate\": \"alice\"}"), (1, "{\"teammate\": \"b\u{f3}b\"}")]);
        assert!(events.contains(&ChatEvent::Usage(Usage::reported(612, 58))));
    }

    #[test]
    fn crlf_text_streams_with_keep_alives_read_the_same_in_any_split() {
        for size in 1..=TEXT_CRLF.len() {
            let (events, result) = stream_in_pieces(TEXT_CRLF, size);
            let r = result.unwrap();
            assert_eq!(r.content, vec![ContentBlock::text("All done: wrote caf\u{e9}.md \u{2713}")], "pieces of {size}");
            assert_eq!((r.stop_reason.clone(), r.usage), (StopReason::EndTurn, Usage::reported(40, 9)));
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
}
