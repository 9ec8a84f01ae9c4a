//! The keyboard shortcuts' help: a modal dialog listing each key and what
//! it does, opened with `?` or its button in the header.
//!
//! Owns the list and the dialog; the keys themselves are handled by the
//! page (`app`), which this list must match.

use leptos::prelude::*;

use crate::ui::browser::lang::lang;

/// The keyboard shortcuts, in a modal dialog (opened with `?` or its button).
#[component]
pub fn ShortcutsHelp(
    /// The dialog element, which the page opens on `?`.
    dialog: NodeRef<leptos::html::Dialog>,
) -> impl IntoView {
    let l = lang();
    let keys: [(&str, &str); 12] = [
        ("Space", "ui-key-space"),
        ("←", "ui-key-left"),
        ("→", "ui-key-right"),
        ("Home", "ui-key-home"),
        ("End", "ui-key-end"),
        ("↑ ↓", "ui-key-updown"),
        ("?", "ui-key-help"),
        ("P", "ui-key-presenter"),
        ("F", "ui-key-protocols"),
        ("Esc", "ui-key-esc"),
        ("Esc", "ui-key-esc-tour"),
        ("Esc", "ui-key-esc-presenter"),
    ];
    view! {
        <dialog class="shortcuts" node_ref=dialog aria-labelledby="shortcuts-title">
            <h2 id="shortcuts-title">{move || l.t("ui-shortcuts")}</h2>
            <dl class="shortcut-list">
                {keys.into_iter().map(|(key, what)| view! { <div><dt><kbd>{key}</kbd></dt><dd>{move || l.t(what)}</dd></div> }).collect_view()}
            </dl>
            <p class="muted small">{move || l.t("ui-shortcuts-note")}</p>
            <button class="primary" on:click=move |_| { if let Some(d) = dialog.get_untracked() { d.close(); } }>{move || l.t("ui-close")}</button>
        </dialog>
    }
}
