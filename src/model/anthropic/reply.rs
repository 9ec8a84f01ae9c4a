//! The Anthropic reply, in both forms: a JSON body (`parse_response`) and
//! the server-sent-events stream as a pure state machine
//! ([`AnthropicStream`]: bytes in, in any chunk splits, events out).
//!
//! Owns reading what the server sent back; the request and the model are
//! the parent module's. It must not know how bytes travel.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::AnthropicError;
use crate::model::sse::{SseDecoder, SseEvent};
use crate::model::{ContentBlock, ModelResponse, StopReason, Usage};

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
    if v.is_object() {
        into.measured = true;
    }
    if let Some(n) = v.get("input_tokens").and_then(Value::as_u64) {
        into.input_tokens = n;
    }
    if let Some(n) = v.get("output_tokens").and_then(Value::as_u64) {
        into.output_tokens = n;
    }
    if let Some(n) = v.get("cache_read_input_tokens").and_then(Value::as_u64) {
        into.cache_read_tokens = n;
    }
    if let Some(n) = v.get("cache_creation_input_tokens").and_then(Value::as_u64) {
        into.cache_write_tokens = n;
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

#[cfg(test)]
pub(super) mod fixtures {
    use serde_json::json;

    use super::*;

    pub(crate) const TOOL_USE: &[u8] = include_bytes!("../../../tests/fixtures/anthropic_stream_tool_use.sse");
    pub(crate) const OVERLOADED: &[u8] = include_bytes!("../../../tests/fixtures/anthropic_stream_overloaded.sse");
    pub(crate) const ERROR_AFTER_TEXT: &[u8] = include_bytes!("../../../tests/fixtures/anthropic_stream_error_after_text.sse");
    pub(crate) const MAX_TOKENS: &[u8] = include_bytes!("../../../tests/fixtures/anthropic_stream_max_tokens.sse");
    pub(crate) const RESPONSE: &str = include_str!("../../../tests/fixtures/anthropic_response_tool_use.json");

    pub(crate) fn expected_tool_use_response() -> ModelResponse {
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
            usage: Usage::reported(472, 89),
        }
    }

    /// Feeds `bytes` in pieces of `size`; returns the events and the result.
    pub(crate) fn stream_in_pieces(bytes: &[u8], size: usize) -> (Vec<StreamEvent>, Result<ModelResponse, AnthropicError>) {
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

    pub(crate) fn text_of(events: &[StreamEvent]) -> String {
        events.iter().filter_map(|e| if let StreamEvent::TextDelta { text, .. } = e { Some(text.as_str()) } else { None }).collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::fixtures::*;
    use super::*;
    use crate::model::ModelError;

    // ------------------------------------------------------------ replies

    #[test]
    fn a_recorded_reply_is_read_with_its_text_tool_call_and_usage() {
        let r = parse_response(RESPONSE).unwrap();
        assert_eq!(r.stop_reason, StopReason::ToolUse);
        assert_eq!(r.usage, Usage::reported(2095, 503));
        assert_eq!(r.content[0], ContentBlock::text("I'll ask alice to shut down."));
        assert_eq!(
            r.tool_uses().map(|(id, n, i)| (id.to_string(), n.to_string(), i.clone())).collect::<Vec<_>>(),
            [("toolu_01D7FLrfh4GYq7yT1ULFeyMV".to_string(), "shutdown_request".to_string(), json!({ "teammate": "alice" }))]
        );
    }

    #[test]
    fn cache_reads_and_writes_are_recorded_and_missing_ones_are_zero() {
        let body = json!({ "content": [], "stop_reason": "end_turn",
            "usage": { "input_tokens": 12, "cache_creation_input_tokens": 3000, "cache_read_input_tokens": 45000, "output_tokens": 7 } });
        let usage = parse_response(&body.to_string()).unwrap().usage;
        assert_eq!(usage, Usage { input_tokens: 12, output_tokens: 7, cache_read_tokens: 45000, cache_write_tokens: 3000, measured: true });
        let none = json!({ "content": [], "stop_reason": "end_turn", "usage": { "input_tokens": 12, "output_tokens": 7 } });
        assert_eq!(parse_response(&none.to_string()).unwrap().usage, Usage::reported(12, 7));
        let empty = json!({ "content": [], "stop_reason": "end_turn" });
        assert_eq!(parse_response(&empty.to_string()).unwrap().usage, Usage::default(), "no usage: nothing measured");
    }

    #[test]
    fn a_streamed_reply_records_the_cache_tokens_of_its_start_and_delta() {
        let text = std::str::from_utf8(TOOL_USE).unwrap();
        let cached = text.replace(
            "\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0",
            "\"cache_creation_input_tokens\":310,\"cache_read_input_tokens\":2048",
        );
        assert_ne!(cached, text, "the fixture's message_start carries the cache fields");
        let (_, result) = stream_in_pieces(cached.as_bytes(), 7);
        assert_eq!(
            result.unwrap().usage,
            Usage { input_tokens: 472, output_tokens: 89, cache_read_tokens: 2048, cache_write_tokens: 310, measured: true }
        );
        // The newer API repeats cumulative counts in message_delta: the last word wins.
        let later = cached.replace("\"usage\":{\"output_tokens\":89}", "\"usage\":{\"output_tokens\":89,\"cache_read_input_tokens\":4096}");
        assert_ne!(later, cached, "the fixture's message_delta carries the usage");
        let (_, result) = stream_in_pieces(later.as_bytes(), 64);
        assert_eq!(result.unwrap().usage.cache_read_tokens, 4096);
        let (_, plain) = stream_in_pieces(TOOL_USE, TOOL_USE.len());
        assert_eq!(plain.unwrap().usage, Usage::reported(472, 89), "zero cache fields stay zero");
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
}
