//! The explorer: a model checker for agent teams. It searches the runs a
//! scenario can take — every order in which waiting agents get the baton,
//! every decision the scripted policy may legally make (`model::scripted::
//! choices`), every fault (drop, duplicate, delay, reorder) on any message up
//! to a bound — and judges each run by the properties in `properties`,
//! reporting the run that breaks each one with the fewest faults, and of
//! those the shortest, as an ordinary trace.
//!
//! It runs the real rules: each state is a `runtime::world::World` (the
//! protocol core and the sans-IO agent loops the live runtime drives),
//! cloned at every choice point. States are deduplicated by a hash of what
//! decides their future (team state, agent loops, turns; not the trace or
//! the clock), plus the properties the path has already broken.
//!
//! A façade: the bounds in `config`, the error in `error`, a state and its
//! moves in `node`, the verdicts and examples in `report`, the search in
//! `search`, shrinking in `shrink`, the properties in `properties`, and a
//! search shared among the page's Web Workers in `job` (its wire format
//! and state machine, sans-IO). It must not draw anything or call a real
//! model; the page's panel and the `explore` binary are its drivers.

mod claims;
mod config;
pub mod detail;
mod error;
pub mod file_team;
pub mod fork;
pub mod gallery;
pub mod job;
mod node;
pub mod properties;
mod rebuild;
mod replies;
mod report;
mod search;
pub mod shrink;

pub use claims::Claim;
pub use config::{Bound, ExploreConfig, Progress, Slice, Strategy};
pub use detail::Detail;
pub use error::ExploreError;
pub use node::{outcome, replay_file_finding, replay_finding, replay_path, Choice, Footprint, Node, Path, Step};
pub use properties::{Finding, Monitor, Property, Quantifier};
pub use report::{Counterexample, Example, FileCounterexample, FilePropertyReport, PathExample, PropertyReport, Report, Verdict};
pub use search::{explore, explore_with, Exploration};
pub use shrink::Shrinking;
