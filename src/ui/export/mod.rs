//! Exports and imports of a run, one format per module: `json` (the trace
//! file, read back with validation), `mermaid` (a `sequenceDiagram`) and
//! `svg` (the laid-out diagram as a standalone document).
//!
//! Owns only the choice of formats and the public paths other code uses
//! (`export::trace_json`, `export::svg`, ...), re-exported here. It never
//! sees settings, so no export can carry an API key.

pub mod json;
pub mod mermaid;
pub mod svg;

pub use json::{check_import_size, import_json, trace_json, ImportError, MAX_IMPORT_BYTES, SUPPORTED_VERSIONS};
pub use mermaid::{mermaid, mermaid_text, mermaid_with, MermaidOptions, MERMAID_PROMPT_CHARS, MERMAID_TEXT_CHARS};
pub use svg::{svg, svg_of_run, xml, SVG_LEGEND_GAP, SVG_PALETTE, SVG_TITLE_HEIGHT};
