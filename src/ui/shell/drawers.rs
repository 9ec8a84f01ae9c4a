//! The side panels as drawers: on a narrow screen the setup column and the
//! panels column each hide behind a button in the header, at most one open
//! at a time, with a title bar and a Close button; focus moves into an
//! opened drawer and back to its button when it closes. On a wide screen
//! both columns show and the drawers' state is ignored.
//!
//! Owns which drawer is open and its buttons; what a drawer holds is the
//! page's (`app`).

use leptos::prelude::*;

use crate::ui::browser::lang::lang;
use crate::ui::browser::web;

/// A side panel that is a drawer on a narrow screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Drawer {
    /// Prompt, scenarios, trace, settings and faults (the left column).
    Setup,
    /// The protocol check, requests, team, inboxes and the rest (the right column).
    Panels,
}

impl Drawer {
    /// The toggle button's id, where focus returns when the drawer closes.
    pub fn toggle_id(self) -> &'static str {
        match self {
            Drawer::Setup => "setup-toggle",
            Drawer::Panels => "panels-toggle",
        }
    }
    /// The drawer's element id.
    pub fn id(self) -> &'static str {
        match self {
            Drawer::Setup => "setup",
            Drawer::Panels => "panels",
        }
    }
    /// The toggle's label's message key.
    fn label(self) -> &'static str {
        match self {
            Drawer::Setup => "ui-drawer-setup",
            Drawer::Panels => "ui-drawer-panels",
        }
    }
    /// The drawer's title's message key.
    fn title(self) -> &'static str {
        match self {
            Drawer::Setup => "ui-drawer-setup-title",
            Drawer::Panels => "ui-drawer-panels-title",
        }
    }
}

/// Which drawer is open on a narrow screen (ignored on a wide one, where
/// both columns show).
#[derive(Clone, Copy, Default)]
pub struct Drawers(RwSignal<Option<Drawer>>);

impl Drawers {
    /// The open drawer, if any (tracked).
    pub fn which(self) -> Option<Drawer> {
        self.0.get()
    }
    /// The open drawer, if any, without tracking it.
    pub fn which_untracked(self) -> Option<Drawer> {
        self.0.get_untracked()
    }
    /// Opens `which` (closing the other) and moves focus into it.
    pub fn open(self, which: Drawer) {
        self.0.set(Some(which));
        request_animation_frame(move || focus_id(&format!("{}-close", which.id())));
    }
    /// Closes the open drawer; `restore` returns focus to its toggle.
    pub fn close(self, restore: bool) {
        let Some(was) = self.0.get_untracked() else { return };
        self.0.set(None);
        if restore && web::narrow() {
            focus_id(was.toggle_id());
        }
    }
    /// The aside's classes: `side` plus `drawer` and `open`.
    pub fn class(self, which: Drawer, side: &str) -> String {
        if self.0.get() == Some(which) {
            format!("{side} drawer open")
        } else {
            format!("{side} drawer")
        }
    }
}

/// Focuses the element with `id`, if there is one.
fn focus_id(id: &str) {
    if let Some(el) = document().get_element_by_id(id) {
        let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
    }
}

/// The button that opens or closes a drawer (shown on narrow screens only).
#[component]
pub fn DrawerToggle(
    /// The drawer it opens and closes.
    which: Drawer,
) -> impl IntoView {
    let drawer = expect_context::<Drawers>();
    let open = move || drawer.0.get() == Some(which);
    let l = lang();
    view! {
        <button id=which.toggle_id() class="drawer-toggle" aria-controls=which.id() aria-expanded=move || open().to_string()
            on:click=move |_| if open() { drawer.close(false) } else { drawer.open(which) }>
            {move || l.t(which.label())}
        </button>
    }
}

/// A drawer's title bar with its Close button (narrow screens only).
#[component]
pub fn DrawerHead(
    /// The drawer it heads.
    which: Drawer,
) -> impl IntoView {
    let drawer = expect_context::<Drawers>();
    let l = lang();
    let close_label = match which {
        Drawer::Setup => "ui-close-setup",
        Drawer::Panels => "ui-close-panels",
    };
    view! {
        <div class="drawer-head">
            <h2 class="drawer-title">{move || l.t(which.title())}</h2>
            <button id=format!("{}-close", which.id()) class="drawer-close" aria-label=move || l.t(close_label) on:click=move |_| drawer.close(true)>{move || l.t("ui-close")}</button>
        </div>
    }
}
