//! The protocol file a trace's header records, as a trace reader gets it:
//! the reader is handed a loader (`LoadFile`) instead of calling
//! `file::load` itself, so a caller can load the file first, elsewhere:
//! the page's first screen finds the recorded text (`recorded_text`),
//! loads it through a split point (the TOML loader lives in a module the
//! page fetches when first needed, issue 28 §2) and hands the result over
//! (`Preloaded`).
//!
//! Owns the peek at a trace's header and the hand-over. Reading traces is
//! `trace_file`'s job, loading files `file`'s. Pure: serde_json only.

use std::sync::Arc;

use serde::Deserialize;

use super::file::{FileError, ProtocolFile, Refusal, Refusals};
use super::trace::RecordedFile;

/// Reads the protocol file a trace's header records: `file::load`, or a
/// file loaded beforehand (`Preloaded::load`). Readers take it as a
/// generic, never as `dyn`, so no vtable in the page's main module names
/// `file::load` (a vtable's functions sit in the table the splitter keeps
/// in that module).
pub trait LoadFile: Fn(&str) -> Result<ProtocolFile, Refusals> {}

impl<F: Fn(&str) -> Result<ProtocolFile, Refusals>> LoadFile for F {}

/// A trace's `"entries"` key, which `trace_json` writes after the header.
const ENTRIES: &str = "\"entries\":";

/// The header's key for the recorded file (only as a key is it quoted so
/// outside a string; a string holding it sends the search to a whole read).
const KEY: &str = "\"protocol_file\"";

/// The header's field this module reads; every other one is skipped.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    protocol_file: Option<RecordedFile>,
}

/// The text of the protocol file `trace` (a trace's JSON) records in its
/// header; `None` when it records none, or is not a trace that reads (the
/// trace reader then says why). A trace without the key is passed over
/// at a text search's cost; one laid out as `trace_json` writes it is read
/// up to its entries; any other is read whole (skipping its entries).
pub fn recorded_text(trace: &str) -> Option<Arc<str>> {
    let trace = trace.strip_prefix('\u{feff}').unwrap_or(trace);
    if !trace.contains(KEY) {
        return None;
    }
    let read = |text: &str| serde_json::from_str::<Header>(text).ok().and_then(|h| h.protocol_file).map(|f| f.text);
    let header = trace.find(ENTRIES).and_then(|key| read(&format!("{}{ENTRIES} []}}", &trace[..key])));
    header.or_else(|| read(trace))
}

/// The refusal a reader meets when the file it asks for was not loaded
/// beforehand: a bug in the caller, said as one.
pub fn not_loaded() -> Refusals {
    let error = FileError::Invalid("the file was not loaded before its trace was read; this is a bug in this program".into());
    Refusals(vec![Refusal { line: 1, column: 1, path: String::new(), error }])
}

/// A recorded file loaded before its trace is read: its text and what the
/// loader made of it (the file, or the loader's refusals: a trace that
/// records a file that does not load is refused with them, as always).
#[derive(Debug, Clone, PartialEq)]
pub struct Preloaded {
    text: Arc<str>,
    loaded: Result<ProtocolFile, Refusals>,
}

impl Preloaded {
    /// `loaded` is what the loader made of `text`.
    pub fn new(text: Arc<str>, loaded: Result<ProtocolFile, Refusals>) -> Self {
        Preloaded { text, loaded }
    }

    /// The text it was loaded from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The loaded file for `text`, as `file::load` would give it; `None`
    /// (a preload of no file) or another text is refused (`not_loaded`).
    pub fn load(preloaded: Option<&Preloaded>, text: &str) -> Result<ProtocolFile, Refusals> {
        match preloaded {
            Some(p) if *p.text == *text => p.loaded.clone(),
            _ => Err(not_loaded()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::file::load;
    use crate::protocol::trace_file::{import_json, import_json_with, read_json_with, trace_json, ImportError};

    /// An example file with a protocol of its own (a deadline and a retry).
    const TEMPLATE: &str = crate::protocol::file::builtin::EXAMPLES[0].1;

    /// A run under that file (which has protocols of its own),
    /// as `trace_json` writes it: its header records the file.
    fn recorded_run() -> String {
        let file = Arc::new(load(TEMPLATE).unwrap());
        let mut trace = crate::protocol::Trace::new("t", 7);
        trace.resolve_protocols(crate::protocol::ProtocolSet::new(Arc::clone(&file))).unwrap();
        let json = trace_json(&trace);
        assert!(json.contains("\"protocol_file\""), "the header records the file:\n{json}");
        json
    }

    #[test]
    fn the_recorded_text_is_read_from_the_header_or_the_whole_trace() {
        let json = recorded_run();
        assert_eq!(recorded_text(&json).as_deref(), Some(TEMPLATE));
        let recorded = RecordedFile { name: "x".into(), text: Arc::from(TEMPLATE) };
        let file = serde_json::to_string(&recorded).unwrap();
        let entries_first = format!(r#"{{"entries": [], "version": 2, "team_name": "t", "seed": 7, "protocol_file": {file}}}"#);
        assert_eq!(recorded_text(&entries_first).as_deref(), Some(TEMPLATE), "read whole when the header holds no file");
        let lesson_run = trace_json(&crate::protocol::Trace::new("t", 7));
        assert_eq!(recorded_text(&lesson_run), None);
        assert_eq!(recorded_text("not json"), None);
    }

    #[test]
    fn a_trace_read_with_its_file_preloaded_is_the_trace_read_with_the_loader() {
        let json = recorded_run();
        let text = recorded_text(&json).unwrap();
        let preloaded = Preloaded::new(Arc::clone(&text), load(&text));
        let with = import_json_with(&json, &|t| Preloaded::load(Some(&preloaded), t)).unwrap();
        assert_eq!(with, import_json(&json).unwrap());
        assert_eq!(read_json_with(&json, &|t| Preloaded::load(Some(&preloaded), t)).unwrap(), with);
    }

    #[test]
    fn a_recorded_file_that_does_not_load_is_refused_with_the_loaders_words_when_preloaded() {
        let json = recorded_run().replacen("format = 1", "format = 99", 1);
        let text = recorded_text(&json).unwrap();
        let preloaded = Preloaded::new(Arc::clone(&text), load(&text));
        let with = import_json_with(&json, &|t| Preloaded::load(Some(&preloaded), t)).unwrap_err();
        assert!(matches!(with, ImportError::RecordedFileRefused { .. }), "{with:?}");
        assert_eq!(with, import_json(&json).unwrap_err());
    }

    #[test]
    fn a_file_not_preloaded_is_refused_as_a_bug_not_loaded_behind_the_callers_back() {
        let json = recorded_run();
        let err = import_json_with(&json, &|t| Preloaded::load(None, t)).unwrap_err();
        assert!(err.to_string().contains("was not loaded before its trace was read"), "{err}");
        let other = Preloaded::new(Arc::from("format = 1\n"), load("format = 1\n"));
        assert!(Preloaded::load(Some(&other), TEMPLATE).is_err());
    }
}
