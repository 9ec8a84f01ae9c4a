//! The page's frame: the `app` (header, banner, layout, keys, share links
//! opened), the `drawers` of narrow screens, the `shortcuts` dialog, the
//! page's language (`lang`), `download`s, and small `web` calls.
//!
//! Owns no run state: that is `state`.

pub mod app;
pub mod download;
pub mod drawers;
pub mod lang;
pub mod shortcuts;
pub mod web;
