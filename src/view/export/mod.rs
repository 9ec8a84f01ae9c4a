//! The formats that outlive the page, one per module: `json` (the trace
//! file, read back with validation), `mermaid` (a `sequenceDiagram`),
//! `svg` (the laid-out diagram as a standalone document), `share` (the
//! link that reopens a run), `snapshot` (what built the run on screen,
//! kept with saved runs and links) and `slices` (a stored trace read back
//! a slice of events at a time).
//!
//! Owns only the choice of formats and the public paths other code uses
//! (`export::trace_json`, `export::svg`, ...), re-exported here. The
//! exports never see settings, so none can carry an API key.

pub mod json;
pub mod mermaid;
pub mod share;
pub mod slices;
pub mod snapshot;
pub mod svg;

pub use json::{
    check_import_size, import_json, import_json_with, read_json, trace_json, ImportError, MAX_IMPORT_BYTES, SUPPORTED_VERSIONS,
};
pub use mermaid::{mermaid, mermaid_text, mermaid_with, MermaidOptions, MERMAID_PROMPT_CHARS, MERMAID_TEXT_CHARS};
pub use svg::{svg, svg_of_run, svg_of_run_priced, xml, SVG_LEGEND_GAP, SVG_PALETTE, SVG_TITLE_HEIGHT};
