//! Whether presenter mode is on: the page's layout for a room (the
//! controls, the caption and the diagram, large; `ui::shell::presenter`
//! has its button and says what it shows).
//!
//! Owns the signal only. The mode is the page's, not the run's: it stays
//! while runs and scenarios change, and it is not kept in storage, so a
//! reload always brings back the everyday page (with its setup column).

use leptos::prelude::*;

/// Whether presenter mode is on (in the page's context).
#[derive(Clone, Copy, Debug)]
pub struct Presenter(RwSignal<bool>);

impl Default for Presenter {
    fn default() -> Self {
        Self::new()
    }
}

impl Presenter {
    /// Off, as every page starts.
    pub fn new() -> Self {
        Self(RwSignal::new(false))
    }
    /// Whether it is on (tracked).
    pub fn on(self) -> bool {
        self.0.get()
    }
    /// Whether it is on, outside a reactive context.
    pub fn on_untracked(self) -> bool {
        self.0.get_untracked()
    }
    /// On if off, off if on.
    pub fn toggle(self) {
        self.0.update(|on| *on = !*on);
    }
    /// Off.
    pub fn leave(self) {
        self.0.set(false);
    }
}
