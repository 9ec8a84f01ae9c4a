//! The side panels: the `side` column (roster, inboxes, workspace, the
//! protocol check) with the `requests` list (answering by hand in
//! `answer_form`) and the `event_log`, the
//! `machinery` panel with the messages table, and the `trace_box`
//! (exports, import, saved runs, share link).
//!
//! Draws what `view` derives at the cursor; every action goes through the
//! `Session`.

pub mod answer_form;
pub mod event_log;
pub mod machinery;
pub mod requests;
mod roving;
pub mod side;
pub mod trace_box;
