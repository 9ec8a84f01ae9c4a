//! Text that short screens cut to a few lines (the caption, the tour
//! card's stop) with a "More" button that shows the rest: the button is
//! there only while the text is cut (or shown whole after a press), and
//! says whether it is open (`aria-expanded`).
//!
//! Owns this markup and the measurement (does the paragraph's text overflow
//! its box?). How many lines a screen keeps is the stylesheet's (`.clampable`
//! in `style/main.css`); the words come from whoever uses it.

use leptos::html::P;
use leptos::prelude::*;

use crate::ui::browser::lang::lang;
use crate::ui::state::presenter::Presenter;

/// Whether a clamped paragraph is cut and whether it was opened. `Copy`:
/// made once per paragraph, shared by `ClampedText` and `MoreButton`.
#[derive(Clone, Copy)]
pub struct Clamp {
    /// The paragraph's id (the button's `aria-controls`).
    pub id: &'static str,
    /// Shown whole after a press of More.
    pub open: RwSignal<bool>,
    /// Its text overflows its box (measured while not open).
    pub cut: RwSignal<bool>,
}

impl Clamp {
    /// A closed paragraph named `id`.
    pub fn new(id: &'static str) -> Self {
        Clamp { id, open: RwSignal::new(false), cut: RwSignal::new(false) }
    }
}

/// A paragraph of `text` with class `class` (plus `clampable`) that a short
/// screen cuts. Each new text starts cut (More opens that text only).
#[component]
pub fn ClampedText(
    /// Its state, shared with its `MoreButton`.
    clamp: Clamp,
    /// Its class (the stylesheet clamps `.clampable` on short screens).
    class: &'static str,
    /// The text.
    #[prop(into)]
    text: Signal<String>,
) -> impl IntoView {
    let Clamp { id, open, cut } = clamp;
    let para = NodeRef::<P>::new();
    let resized = RwSignal::new(0_u32);
    let resize = window_event_listener(leptos::ev::resize, move |_| resized.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || resize.remove());
    // A new text (the next step's caption, another stop) starts cut again:
    // on a small screen an opened text would leave the diagram no room.
    Effect::watch(move || text.get(), move |_, _, _| open.set(false), false);
    // Measured a frame after the text (or the window, or open, or
    // presenter mode's larger type) changes, once the new text is laid out.
    let presenter = use_context::<Presenter>();
    Effect::new(move |_| {
        text.track();
        resized.track();
        let _ = presenter.map(|p| p.on());
        let is_open = open.get();
        let Some(el) = para.get() else { return };
        request_animation_frame(move || {
            if !is_open {
                let _ = cut.try_set(el.scroll_height() > el.client_height() + 1);
            }
        });
    });
    view! {
        <p id=id class=move || format!("{class} clampable{}", if open.get() { " open" } else { "" }) node_ref=para>{move || text.get()}</p>
    }
}

/// The More/Less button of a `ClampedText`: there only while its text is
/// cut or was opened.
#[component]
pub fn MoreButton(
    /// The paragraph's state.
    clamp: Clamp,
) -> impl IntoView {
    let l = lang();
    let Clamp { id, open, cut } = clamp;
    view! {
        <button class="more-toggle link-button" aria-controls=id aria-expanded=move || open.get().to_string()
            hidden=move || !(cut.get() || open.get())
            on:click=move |_| open.update(|o| *o = !*o)>
            {move || if open.get() { l.t("ui-less") } else { l.t("ui-more") }}
        </button>
    }
}
