//! The side panels as drawers: on a narrow screen the setup column and the
//! panels column each hide behind a button in the header, at most one open
//! at a time, with a title bar and a Close button; focus moves into an
//! opened drawer and back to its button when it closes. On a wide screen
//! both columns show and the drawers' state is ignored.
//!
//! The setup column has two tabs, the lesson's way in ("Learn") and the
//! engineer's tools ("Tools"), and the header a Tools button that goes
//! straight to the second (opening the drawer on a narrow screen).
//!
//! Owns which drawer is open, which setup tab shows, and their buttons;
//! what a drawer or a tab holds is the page's (`app`).

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

/// Which half of the setup column shows: the lesson's way in (prompt,
/// scenarios, tours) or the engineer's tools (trace import and export,
/// provider settings, faults, explore, the gallery).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SetupTab {
    /// Prompt, scenarios and guided tours (the default).
    Learn,
    /// Trace, settings, faults, explore and the gallery; the column widens
    /// for them on a wide screen.
    Tools,
}

impl SetupTab {
    /// The tab's element id (its panel's is `<id>-panel`).
    pub fn id(self) -> &'static str {
        match self {
            SetupTab::Learn => "setup-tab-learn",
            SetupTab::Tools => "setup-tab-tools",
        }
    }
    /// The tab's label's message key.
    fn label(self) -> &'static str {
        match self {
            SetupTab::Learn => "ui-tab-learn",
            SetupTab::Tools => "ui-tab-tools",
        }
    }
}

/// The setup column's tab on show. `Copy`: provided once by the page.
#[derive(Clone, Copy)]
pub struct SetupTabs(pub RwSignal<SetupTab>);

impl SetupTabs {
    /// The lesson's tab on show.
    pub fn new() -> Self {
        SetupTabs(RwSignal::new(SetupTab::Learn))
    }
    /// Shows the engineer's tools: the tab picked (on a narrow screen in
    /// the setup drawer, opened) and focus on the tab.
    pub fn open_tools(self, drawer: Drawers) {
        self.0.set(SetupTab::Tools);
        if web::narrow() {
            drawer.0.set(Some(Drawer::Setup));
        }
        request_animation_frame(|| focus_id(SetupTab::Tools.id()));
    }
}

impl Default for SetupTabs {
    fn default() -> Self {
        SetupTabs::new()
    }
}

/// The two tabs over the setup column (a tab list: ←/→ move between them,
/// as tabs do).
#[component]
pub fn SetupTabList() -> impl IntoView {
    let tabs = expect_context::<SetupTabs>();
    let l = lang();
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let to = match ev.key().as_str() {
            "ArrowLeft" | "Home" => SetupTab::Learn,
            "ArrowRight" | "End" => SetupTab::Tools,
            _ => return,
        };
        ev.prevent_default();
        ev.stop_propagation();
        tabs.0.set(to);
        focus_id(to.id());
    };
    let tab = move |which: SetupTab| {
        let selected = move || tabs.0.get() == which;
        view! {
            <button id=which.id() role="tab" class="setup-tab" aria-selected=move || selected().to_string()
                aria-controls=format!("{}-panel", which.id()) tabindex=move || if selected() { "0" } else { "-1" }
                on:click=move |_| tabs.0.set(which)>{move || l.t(which.label())}</button>
        }
    };
    view! {
        <div class="setup-tabs" role="tablist" aria-label=move || l.t("ui-setup-tabs") on:keydown=on_key>
            {tab(SetupTab::Learn)}
            {tab(SetupTab::Tools)}
        </div>
    }
}

/// The header's button that goes straight to the engineer's tools.
#[component]
pub fn ToolsButton() -> impl IntoView {
    let tabs = expect_context::<SetupTabs>();
    let drawer = expect_context::<Drawers>();
    let l = lang();
    view! {
        <button id="tools-toggle" class="tools-button" aria-controls="setup" title=move || l.t("ui-tools-title")
            on:click=move |_| tabs.open_tools(drawer)>
            {move || l.t("ui-tools")}
        </button>
    }
}
