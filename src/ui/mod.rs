//! The browser UI. Pure views of the trace (`diagram`, `views`) compile
//! everywhere and are tested natively; the Leptos components compile for
//! wasm32 only.
//!
//! Every component draws from the trace (and the state it replays to); none
//! changes the team except through `runtime::Runtime`, via the `Session`.
//!
//! The page's state, one concern per module: `settings` (being edited, for
//! the next team), `run` (the run on screen and the `snapshot` that built
//! it), `playback` (cursor, mode, speed), `library` (saved runs), with
//! `session` holding them and the link to the runtime. `storage` and
//! `share` are the formats that outlive the page.

pub mod captions;
pub mod derived;
pub mod diagram;
pub mod error_words;
pub mod explore_job;
pub mod explore_words;
pub mod export;
pub mod finding_words;
pub mod fork_align;
pub mod geometry;
pub mod i18n;
pub mod legend;
pub mod lists;
pub mod machinery;
pub mod message_table;
pub mod motion;
pub mod motion_draw;
pub mod share;
pub mod snapshot;
/// Generated traces for the browser benchmark and unit tests: a test
/// double, so only in test builds and with the `bench-fixtures` feature.
#[cfg(any(test, feature = "bench-fixtures"))]
pub mod synthetic;
pub mod tours;
pub mod views;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod caption_box;
#[cfg(target_arch = "wasm32")]
pub mod controls;
#[cfg(target_arch = "wasm32")]
pub mod diagram_view;
#[cfg(target_arch = "wasm32")]
pub mod download;
#[cfg(target_arch = "wasm32")]
pub mod drawers;
#[cfg(target_arch = "wasm32")]
pub mod explore_gallery;
#[cfg(target_arch = "wasm32")]
pub mod explore_panel;
#[cfg(target_arch = "wasm32")]
pub mod explore_ui;
#[cfg(target_arch = "wasm32")]
pub mod explore_workers;
#[cfg(target_arch = "wasm32")]
pub mod faults_form;
#[cfg(target_arch = "wasm32")]
pub mod fork_view;
#[cfg(target_arch = "wasm32")]
pub mod i18n_view;
#[cfg(target_arch = "wasm32")]
pub mod library;
#[cfg(target_arch = "wasm32")]
pub mod machinery_view;
#[cfg(target_arch = "wasm32")]
pub mod panels;
#[cfg(target_arch = "wasm32")]
pub mod playback;
#[cfg(target_arch = "wasm32")]
pub mod prompt_box;
#[cfg(target_arch = "wasm32")]
pub mod run;
#[cfg(target_arch = "wasm32")]
pub mod session;
#[cfg(target_arch = "wasm32")]
pub mod settings;
#[cfg(target_arch = "wasm32")]
pub mod settings_form;
#[cfg(target_arch = "wasm32")]
pub mod shortcuts;
#[cfg(target_arch = "wasm32")]
pub mod storage;
#[cfg(target_arch = "wasm32")]
pub mod tour_view;
#[cfg(target_arch = "wasm32")]
pub mod trace_box;
#[cfg(target_arch = "wasm32")]
pub mod web;

#[cfg(target_arch = "wasm32")]
pub use app::App;
#[cfg(target_arch = "wasm32")]
pub use diagram_view::DiagramView;
#[cfg(target_arch = "wasm32")]
pub use panels::Panels;
