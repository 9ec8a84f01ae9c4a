//! The run told in words, in the reader's language (`i18n`'s catalogs):
//! `captions` (each event in the lesson's words), `findings` (the checker's
//! violations and the explorer's findings), `explorer` (properties,
//! verdicts, choices and the gallery), `errors` (the page's own errors) and
//! `scenarios` (a scenario's title, prompts and description).
//!
//! Words only: each function is of (catalog, facts). It must not judge what
//! is a violation or an error (the checker, the explorer and each module's
//! error enum do) or read the page's state.

pub mod captions;
pub mod errors;
pub mod explorer;
pub mod findings;
pub mod scenarios;
