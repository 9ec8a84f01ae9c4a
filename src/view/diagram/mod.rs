//! The sequence diagram as data: `layout` places lifelines, arrows, badges,
//! activation bars and notes for a trace, `rows` keeps each row compact and
//! builds it when drawn; `geometry` turns a layout at a
//! cursor into the primitives both the page and the SVG export draw;
//! `motion` and `motion_draw` say where each message is and what moves at
//! a step; `legend` explains the marks; `metrics` says how wide text is drawn; `message_table` is the diagram's
//! text alternative; `viewport` says where to scroll to show the cursor's
//! event; `presenter` how large presenter mode draws it.
//!
//! Must not touch the DOM or any signal: the page's canvas
//! (`ui::diagram::canvas`) and `export::svg` only draw what this computes.

pub mod geometry;
pub mod layout;
pub mod legend;
pub mod message_table;
pub mod metrics;
pub mod motion;
pub mod motion_draw;
pub mod presenter;
pub mod rows;
pub mod viewport;
