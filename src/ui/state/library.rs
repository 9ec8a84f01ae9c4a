//! The library: saved runs as the page lists them, and whether the stored
//! list could be read (a damaged list is offered for clearing).
//!
//! Owns these signals. Reading and writing storage is `storage`'s job;
//! opening a run is the `Session`'s.

use leptos::prelude::*;

/// The saved runs. `Copy`: pass it around freely.
#[derive(Clone, Copy)]
pub struct Library {
    /// Saved runs (id, title), as last read from storage.
    pub saved: RwSignal<Vec<(u64, String)>>,
    /// The stored list could not be read: why (offer "Clear saved runs").
    pub damaged: RwSignal<Option<String>>,
}

impl Library {
    /// An empty library.
    pub fn new() -> Self {
        Library { saved: RwSignal::new(Vec::new()), damaged: RwSignal::new(None) }
    }
}

impl Default for Library {
    fn default() -> Self {
        Library::new()
    }
}
