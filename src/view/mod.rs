//! What the page shows, computed: pure functions and values of the trace
//! (and the cursor), compiled everywhere and tested with plain `cargo test`.
//!
//! One folder or file per concern: `fate` (what became of each message:
//! dropped, held, released, a duplicate's copy, read at #n — read once
//! from the trace for the table, the diagram and the exports), `diagram`
//! (layout, the drawn geometry, moving messages, the legend, the table
//! that is the diagram's text alternative), `words` (captions and every finding, explorer result and
//! page error in the reader's language), `i18n` (the catalogs), `tours`
//! (the guided tours' stops), `machinery` (the FSM, trackers and
//! `config.json` at a cursor), `lists` (bounded slices of long lists),
//! `panel_data` (event lines, the workspace, model errors), `fork_align`
//! (two runs side by side), `derived` (the run's views kept up to date as
//! events arrive) and `export` (trace JSON, Mermaid, SVG, share links and
//! run snapshots).
//!
//! Must not touch the DOM, signals, timers or browser storage, and must not
//! import `ui`: the page's components (`ui`, wasm32 only) read from here,
//! never the other way round.

pub mod answer_form;
pub mod cost;
pub mod derived;
pub mod diagram;
pub mod export;
pub mod fate;
pub mod fork_align;
pub mod i18n;
pub mod lists;
pub mod machinery;
pub mod panel_data;
pub mod prices;
pub mod protocol_file;
/// Generated traces for the browser benchmark and unit tests: a test
/// double, so only in test builds and with the `bench-fixtures` feature.
#[cfg(any(test, feature = "bench-fixtures"))]
pub mod synthetic;
pub mod tours;
pub mod words;
