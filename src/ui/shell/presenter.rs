//! Presenter mode: the controls, the caption (and a tour's card) and the
//! diagram fill the window, large enough for a room to read; the side
//! columns, the drawers and the header's other actions step aside. Entered
//! and left with its button in the header or the `p` key; Escape leaves it
//! (after closing a drawer and ending a tour, as the shortcuts say).
//!
//! Owns the mode's button; its signal is `state::presenter`'s. It is a
//! layout of the page, not the browser's full screen (which the browser's
//! own key gives, and which a framed or headless page may refuse). The mode is the page's, not the
//! run's: it stays while runs and scenarios change, and is not remembered
//! across a reload (a reload is the way back to the everyday page, and a
//! presenter layout found again on a laptop days later hides the setup).
//! How large the diagram is drawn is `view::diagram::presenter`'s; the
//! stylesheet's presenter block sizes the rest.

use leptos::prelude::*;

use crate::ui::browser::lang::lang;
use crate::ui::state::presenter::Presenter;

/// The header's Presenter button: a toggle (aria-pressed), also the way
/// out while the mode is on (the one header action left on screen).
#[component]
pub fn PresenterToggle(
    /// The mode it toggles.
    presenter: Presenter,
    /// Called as the mode turns on (the page closes an open drawer).
    on_enter: Callback<()>,
) -> impl IntoView {
    let l = lang();
    view! {
        <button
            class="presenter-button"
            aria-pressed=move || presenter.on().to_string()
            aria-keyshortcuts="p"
            title=move || l.t(if presenter.on() { "ui-presenter-leave-title" } else { "ui-presenter-title" })
            on:click=move |_| {
                presenter.toggle();
                if presenter.on_untracked() {
                    on_enter.run(());
                }
            }
        >
            // A screen on a stand.
            <svg class="presenter-icon" aria-hidden="true" viewBox="0 0 20 20" width="16" height="16">
                <rect x="2" y="3" width="16" height="10" rx="1"></rect>
                <path d="M 10 13 V 17 M 6 17 H 14"></path>
            </svg>
            <span class="presenter-text">{move || l.t("ui-presenter")}</span>
        </button>
    }
}
