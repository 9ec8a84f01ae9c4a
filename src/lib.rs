//! Team Protocols Playground: a lead and teammate agents coordinating through
//! request/response protocols, drawn as an animated sequence diagram.
//!
//! Layers, with dependencies pointing one way: `ui -> protocol`.

pub mod protocol;

#[cfg(target_arch = "wasm32")]
pub mod ui;
