//! Server-sent events framing: bytes in, in whatever chunks the network
//! delivers them, `(event, data)` pairs out. A pure state machine: it never
//! reads a socket or a clock, so recorded transcripts can be replayed split
//! at every byte.
//!
//! Owns line splitting (`\n`, `\r\n`, `\r`, also split across chunks), the
//! `event:` / `data:` fields, comments, and UTF-8 decoding of whole lines (so
//! a chunk boundary in the middle of a multi-byte character is harmless). It
//! must not interpret the data: the Anthropic and OpenAI parsers do that.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, or `"message"` when the server sent none.
    pub event: String,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
}

/// Errors from framing an event stream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    /// A line was not valid UTF-8.
    #[error("the event stream sent a line that is not valid UTF-8")]
    NotUtf8,
    /// A single line grew past the limit without ending.
    #[error("the event stream sent a line longer than {0} bytes")]
    LineTooLong(usize),
}

/// The longest line accepted (a guard against a server that never sends a
/// newline).
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// The framing state machine.
#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of the line not yet ended.
    line: Vec<u8>,
    /// The previous chunk ended in `\r`: a `\n` starting this one is part of
    /// the same line end.
    after_cr: bool,
    /// Nothing decoded yet (a leading byte-order mark is dropped).
    at_start: bool,
    /// The `event:` field of the event being read.
    event: Option<String>,
    /// The `data:` lines of the event being read.
    data: Vec<String>,
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        SseDecoder { at_start: true, ..SseDecoder::default() }
    }

    /// Feeds the next chunk; returns every event it completed, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut out = Vec::new();
        for &b in bytes {
            if std::mem::take(&mut self.after_cr) && b == b'\n' {
                continue;
            }
            match b {
                b'\n' => self.end_line(&mut out)?,
                b'\r' => {
                    self.after_cr = true;
                    self.end_line(&mut out)?;
                }
                _ => {
                    if self.line.len() >= MAX_LINE_BYTES {
                        return Err(SseError::LineTooLong(MAX_LINE_BYTES));
                    }
                    self.line.push(b);
                }
            }
        }
        Ok(out)
    }

    /// Ends the stream. Leniently, a last line without a newline and an
    /// event without its closing blank line are still dispatched (some
    /// servers end with `data: [DONE]\n`).
    pub fn finish(&mut self) -> Result<Vec<SseEvent>, SseError> {
        let mut out = Vec::new();
        if !self.line.is_empty() {
            self.end_line(&mut out)?;
        }
        self.dispatch(&mut out);
        Ok(out)
    }

    fn end_line(&mut self, out: &mut Vec<SseEvent>) -> Result<(), SseError> {
        let bytes = std::mem::take(&mut self.line);
        let mut line = String::from_utf8(bytes).map_err(|_| SseError::NotUtf8)?;
        if std::mem::take(&mut self.at_start) && line.starts_with('\u{feff}') {
            line.remove(0);
        }
        if line.is_empty() {
            self.dispatch(out);
            return Ok(());
        }
        if line.starts_with(':') {
            return Ok(()); // a comment (keep-alive)
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_str(), ""),
        };
        match field {
            "event" => self.event = Some(value.to_string()),
            "data" => self.data.push(value.to_string()),
            _ => {} // id, retry and unknown fields mean nothing here
        }
        Ok(())
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        let event = self.event.take();
        if self.data.is_empty() {
            return;
        }
        let data = std::mem::take(&mut self.data).join("\n");
        out.push(SseEvent { event: event.filter(|e| !e.is_empty()).unwrap_or_else(|| "message".to_string()), data });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in_pieces(input: &[u8], size: usize) -> Vec<SseEvent> {
        let mut d = SseDecoder::new();
        let mut out = Vec::new();
        for piece in input.chunks(size) {
            out.extend(d.feed(piece).unwrap());
        }
        out.extend(d.finish().unwrap());
        out
    }

    #[test]
    fn events_are_split_on_blank_lines_and_data_lines_are_joined() {
        let input = b"event: a\ndata: one\ndata: two\n\n: keep-alive\n\ndata:three\n\n";
        let events = decode_in_pieces(input, input.len());
        assert_eq!(
            events,
            vec![SseEvent { event: "a".into(), data: "one\ntwo".into() }, SseEvent { event: "message".into(), data: "three".into() },]
        );
    }

    #[test]
    fn every_line_ending_is_accepted_even_split_across_chunks() {
        let input = b"event: x\r\ndata: 1\r\n\r\nevent: y\rdata: 2\r\rdata: 3\n\n";
        let whole = decode_in_pieces(input, input.len());
        assert_eq!(whole.len(), 3);
        assert_eq!(whole[1], SseEvent { event: "y".into(), data: "2".into() });
        for size in 1..input.len() {
            assert_eq!(decode_in_pieces(input, size), whole, "pieces of {size} bytes");
        }
    }

    #[test]
    fn a_split_inside_a_utf8_character_is_harmless() {
        let input = "data: caf\u{e9} \u{2713} \u{65e5}\u{672c}\n\n".as_bytes();
        for cut in 0..input.len() {
            let mut d = SseDecoder::new();
            let mut out = d.feed(&input[..cut]).unwrap();
            out.extend(d.feed(&input[cut..]).unwrap());
            assert_eq!(out[0].data, "caf\u{e9} \u{2713} \u{65e5}\u{672c}", "cut at {cut}");
        }
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let mut d = SseDecoder::new();
        assert_eq!(d.feed(b"data: \xff\xfe\n"), Err(SseError::NotUtf8));
    }

    #[test]
    fn a_last_event_without_its_blank_line_is_still_dispatched() {
        let events = decode_in_pieces(b"data: [DONE]", 3);
        assert_eq!(events, vec![SseEvent { event: "message".into(), data: "[DONE]".into() }]);
    }

    #[test]
    fn a_leading_byte_order_mark_is_dropped() {
        let events = decode_in_pieces("\u{feff}event: ping\ndata: {}\n\n".as_bytes(), 1);
        assert_eq!(events[0].event, "ping");
    }
}
