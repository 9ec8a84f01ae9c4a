//! The JSON export: the trace file format, versioned, written and read back
//! with validation.
//!
//! The format itself belongs to the protocol (`protocol::trace_file`), next
//! to the trace it stores, so that everything that reads a trace (file
//! import, share links, saved runs) goes through one validated reader. This
//! module is the UI's door to it and must not add a second reader.

/// Writing, size-checking and validated reading of the trace file.
pub use crate::protocol::trace_file::{
    check_import_size, import_json, import_json_with, read_json, trace_json, ImportError, MAX_IMPORT_BYTES, SUPPORTED_VERSIONS,
};
