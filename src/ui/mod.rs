//! The page: Leptos components and the page's state, compiled for wasm32
//! only (declared once, in `lib.rs`, under that `cfg`). Everything the page
//! shows is computed in `view` (native, tested with `cargo test`); this
//! layer holds signals, draws what `view` computes and talks to the browser.
//!
//! One folder per concern: `state` (the page's state: settings being
//! edited, the run on screen, playback, saved runs, browser storage, and
//! the `Session` that links them to the runtime), `browser` (what every
//! component asks of the browser: the page's language, downloads, the
//! clipboard), `shell` (the page frame: header, drawers, shortcuts),
//! `diagram` (the canvas, its controls, the caption box and tour card),
//! `panels` (the side panels: requests, inboxes, machinery, trace box),
//! `protocols` (the Protocols view: protocol files, their editor and previews),
//! `setup` (what to run: prompt, scenarios, settings, faults) and
//! `explore` (the Explore panel, its gallery, forks and Web Workers);
//! `split` holds the page's split points (the parts the release build
//! loads as separate wasm modules when first shown).
//!
//! Every component draws from the trace (and the views `view` derives
//! from it); none changes the team except through `runtime::Runtime`, via
//! the `Session`. Nothing in `view` may import from here.

pub mod browser;
pub mod diagram;
pub mod explore;
pub mod panels;
pub mod protocols;
pub mod setup;
pub mod shell;
pub mod split;
pub mod state;

pub use diagram::canvas::DiagramView;
pub use panels::side::Panels;
pub use shell::app::App;
