//! What the page asks of the browser, for every component: the page's
//! language (`lang`: the `Lang` context, the catalogs fetched, the
//! switcher), `download`s from Blob URLs, a key-value store in IndexedDB
//! (`idb`), and small `web` calls (the
//! clipboard, whether the screen is narrow).
//!
//! The bottom of the page's layer: every other folder of `ui` may use it;
//! it draws no part of the page but the language switcher and holds no run
//! state.

pub mod download;
pub mod idb;
pub mod lang;
pub mod web;
