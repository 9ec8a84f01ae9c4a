//! Team Protocols Playground: a lead and teammate agents coordinating through
//! request/response protocols, drawn as an animated sequence diagram.
//!
//! Layers, with dependencies pointing one way: `ui -> runtime -> protocol`,
//! `runtime -> model`, and `ui -> model` only to build the team's model from
//! the settings (`model::provider_settings`). The explorer sits beside the
//! UI as a second driver of the runtime's world: `explore -> runtime`,
//! `explore -> model` (the scripted policy's choices).
#![forbid(unsafe_code)]

pub mod explore;
pub mod model;
pub mod protocol;
pub mod runtime;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;
