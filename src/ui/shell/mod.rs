//! The page's frame: the `app` (header, banner, layout, keys, share links
//! opened), the `drawers` of narrow screens, the `shortcuts` dialog and
//! `presenter` mode.
//!
//! The top of the page: it puts the other folders together. Owns no run
//! state (that is `state`) and no browser service (that is `browser`).

pub mod app;
pub mod drawers;
pub mod presenter;
pub mod shortcuts;
