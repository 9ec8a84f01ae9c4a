//! The browser UI. Pure views of the trace (`diagram`, `views`) compile
//! everywhere and are tested natively; the Leptos components compile for
//! wasm32 only.
//!
//! Every component draws from the trace (and the state it replays to); none
//! changes the team except through `runtime::Runtime`, via the `Session`.

pub mod derived;
pub mod diagram;
pub mod export;
pub mod share;
pub mod synthetic;
pub mod views;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod diagram_view;
#[cfg(target_arch = "wasm32")]
mod panels;
#[cfg(target_arch = "wasm32")]
pub mod session;
#[cfg(target_arch = "wasm32")]
pub mod storage;

#[cfg(target_arch = "wasm32")]
pub use app::App;
#[cfg(target_arch = "wasm32")]
pub use diagram_view::DiagramView;
