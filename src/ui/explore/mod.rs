//! The explorer on the page: the Explore `panel`, its `state` (a job on Web
//! Workers, examples opened on the diagram), the `gallery` of real
//! failures, a `fork` beside its original, and the `workers` themselves.
//!
//! The search and its wire format are `explore` (`explore::job`); the words
//! are `view::words::explorer`. This folder holds signals and browser calls.

pub mod fork;
pub mod gallery;
pub mod panel;
pub mod state;
pub mod workers;
