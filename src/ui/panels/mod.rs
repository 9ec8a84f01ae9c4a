//! The side panels: the `side` column (roster, requests with answering by
//! hand, inboxes, workspace, event log, the protocol check), the
//! `machinery` panel with the messages table, and the `trace_box`
//! (exports, import, saved runs, share link).
//!
//! Draws what `view` derives at the cursor; every action goes through the
//! `Session`.

pub mod machinery;
pub mod side;
pub mod trace_box;
