//! Reading a trace the page wrote itself (a run kept in browser storage) a
//! slice of events at a time, so that a page bringing back a 100,000-event
//! run can hand the event loop back between slices instead of parsing
//! 27 MB of JSON in one task.
//!
//! Not a second reader of the format: the header (version, team, seed,
//! rules) is read by `read_json` itself, with no entries; each event is
//! read as the trace's own `TraceEntry` and appended by `Trace::append`
//! (the numbering and time-order checks `read_json` makes); the protocol
//! replay is the caller's (the page's `RunViews` replays as it takes the
//! events in). Anything this reader refuses is read again whole by
//! `read_json`, so an error is always worded by the one reader. A run
//! under a protocol file (its events are tied to the file's protocols by
//! `resolve_protocols` over the whole trace) is not read in slices; its
//! file is read by the loader the caller hands over (`LoadFile`: on the
//! page, a file loaded beforehand through a split point).
//!
//! Owns the slicing only; must not touch the format or its checks.

use crate::protocol::trace_file::{read_json_with, ImportError, LoadFile};
use crate::protocol::{Trace, TraceEntry};

/// The key the entries follow, last in the header (`Trace`'s field order).
const ENTRIES: &str = "\"entries\":";

/// Reads an exported trace's entries a slice at a time.
pub struct SliceReader<'a, L: LoadFile> {
    text: &'a str,
    /// Reads the protocol file a header records.
    load: &'a L,
    /// Where the next entry (or the closing `]`) starts.
    at: usize,
    trace: Trace,
    done: bool,
}

/// What [`SliceReader::start`] found.
pub enum Start<'a, L: LoadFile> {
    /// Read the entries with the reader.
    Slices(SliceReader<'a, L>),
    /// Not a trace read in slices (a run under a protocol file, or a text
    /// not laid out as `trace_json` writes it): `read_json` read it whole.
    Whole(Trace),
}

fn skip_space(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

impl<'a, L: LoadFile> SliceReader<'a, L> {
    /// Reads the header of `text` (a trace as `trace_json` writes it) and
    /// gets ready to read its entries; a protocol file its header records
    /// is read by `load` (`file::load`, or a file loaded beforehand).
    pub fn start(text: &'a str, load: &'a L) -> Result<Start<'a, L>, ImportError> {
        let read_json = |text: &str| read_json_with(text, load);
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // Inside a JSON string a quote is escaped, so `"entries":` is a key;
        // the header's fields come before the entries (`Trace`'s order).
        let Some(key) = text.find(ENTRIES) else { return Ok(Start::Whole(read_json(text)?)) };
        let open = skip_space(text, key + ENTRIES.len());
        if text.as_bytes().get(open) != Some(&b'[') {
            return Ok(Start::Whole(read_json(text)?));
        }
        let header = format!("{}{ENTRIES} []}}", &text[..key]);
        let Ok(trace) = read_json(&header) else { return Ok(Start::Whole(read_json(text)?)) };
        if trace.recorded_file().is_some() {
            return Ok(Start::Whole(read_json(text)?));
        }
        Ok(Start::Slices(SliceReader { text, load, at: open + 1, trace, done: false }))
    }

    /// Reads up to `n` more entries; true once every entry is read (and
    /// the text ends where the trace does).
    pub fn read(&mut self, n: usize) -> Result<bool, ImportError> {
        for _ in 0..n {
            if self.done {
                break;
            }
            if self.step().is_none() {
                // Refused here: the one reader says why (or, should it take
                // the text after all, its trace is the answer).
                let whole = read_json_with(self.text, self.load)?;
                self.trace = whole;
                self.done = true;
            }
        }
        Ok(self.done)
    }

    /// One entry, or the end; `None` when the text is not as expected.
    fn step(&mut self) -> Option<()> {
        let text = self.text;
        let at = skip_space(text, self.at);
        let bytes = text.as_bytes();
        if bytes.get(at) == Some(&b']') {
            let close = skip_space(text, at + 1);
            if bytes.get(close) != Some(&b'}') || skip_space(text, close + 1) != text.len() {
                return None;
            }
            self.done = true;
            return Some(());
        }
        if !self.trace.is_empty() {
            // Entries after the first follow a comma.
            if bytes.get(at) != Some(&b',') {
                return None;
            }
        }
        let from = if self.trace.is_empty() { at } else { skip_space(text, at + 1) };
        let mut stream = serde_json::Deserializer::from_str(&text[from..]).into_iter::<TraceEntry>();
        let entry = stream.next()?.ok()?;
        let end = from + stream.byte_offset();
        if entry.seq != self.trace.len() as u64 {
            return None;
        }
        self.trace.append(entry.time, entry.event).ok()?;
        self.at = end;
        Some(())
    }

    /// The trace read so far.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// The trace read.
    pub fn into_trace(self) -> Trace {
        self.trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::trace_file::{read_json, trace_json};
    use crate::protocol::{AgentName, Millis, Team};

    /// A valid trace of about `events` events: the lead messages a teammate.
    fn trace_of(events: usize) -> Trace {
        let mut team = Team::new("sliced", 7);
        let (lead, bob) = (AgentName::lead(), AgentName::parse("bob").unwrap());
        team.spawn(&bob, "coder", false, Millis(0)).unwrap();
        let mut at = 0;
        while team.trace().len() < events {
            at += 1;
            team.send(&lead, &bob, "message", "status? \"quoted\" ] , }", Millis(at)).unwrap();
        }
        team.trace().clone()
    }

    fn read_all(text: &str, n: usize) -> Result<Trace, ImportError> {
        match SliceReader::start(text, &crate::protocol::file::load)? {
            Start::Whole(trace) => Ok(trace),
            Start::Slices(mut reader) => {
                while !reader.read(n)? {}
                Ok(reader.into_trace())
            }
        }
    }

    #[test]
    fn reading_in_slices_gives_the_trace_read_json_gives() {
        for events in [0, 1, 2, 57] {
            let text = trace_json(&trace_of(events));
            let whole = read_json(&text).unwrap();
            for n in [1, 3, 1000] {
                let Start::Slices(_) = SliceReader::start(&text, &crate::protocol::file::load).unwrap() else {
                    panic!("a lesson trace is read in slices")
                };
                assert_eq!(read_all(&text, n).unwrap(), whole, "{events} events, slices of {n}");
            }
        }
        // The compact form (`Trace::to_json`) too.
        let compact = trace_of(20).to_json();
        assert_eq!(read_all(&compact, 4).unwrap(), read_json(&compact).unwrap());
    }

    #[test]
    fn a_slice_reads_at_most_n_entries() {
        let text = trace_json(&trace_of(10));
        let Start::Slices(mut reader) = SliceReader::start(&text, &crate::protocol::file::load).unwrap() else { panic!("read in slices") };
        assert!(!reader.read(4).unwrap());
        assert_eq!(reader.trace().len(), 4);
        assert!(!reader.read(4).unwrap());
        assert_eq!(reader.trace().len(), 8);
        assert!(reader.read(4).unwrap());
        assert_eq!(reader.trace().len(), 10);
    }

    #[test]
    fn what_the_slices_refuse_is_worded_by_read_json() {
        let text = trace_json(&trace_of(12));
        let damaged = [
            // A number out of order.
            text.replacen("\"seq\": 5,", "\"seq\": 9,", 1),
            // A field of the wrong type.
            text.replacen("\"time\": 3,", "\"time\": \"soon\",", 1),
            // Time going backwards.
            text.replacen("\"time\": 7,", "\"time\": 1,", 1),
            // Text after the trace.
            format!("{text} []"),
            // Cut short.
            text[..text.len() / 2].to_string(),
        ];
        for bad in damaged {
            assert_ne!(bad, text);
            let expected = read_json(&bad).unwrap_err();
            assert_eq!(read_all(&bad, 2).unwrap_err(), expected, "{expected}");
        }
    }
}
