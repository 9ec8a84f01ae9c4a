//! The event log panel: the last events up to the cursor, newest first,
//! each told as its caption, the raw line on demand; Enter or a click seeks
//! there.
//!
//! Owns the log's markup, its keyed rows and its tab stop. Captions come
//! from `view::words::captions`; seeking goes through the `Session`.

use leptos::prelude::*;

use super::roving::roving_keydown;
use crate::protocol::{Event, Trace};
use crate::ui::browser::lang::lang;
use crate::ui::state::session::Session;
use crate::view::panel_data::describe;

/// The most rows the log holds: the last `SHOWN` events up to the cursor.
pub const SHOWN: usize = 200;
/// The rows it builds when drawn: a lesson scenario's whole run (30 to 66
/// events) and several screens of a long one (the list shows about ten).
pub const FIRST_ROWS: usize = 80;
/// The rows a scroll near the list's end adds.
const MORE_ROWS: usize = 60;
/// How near its end (in pixels) a scroll must come to add rows.
const NEAR_END_PX: i32 = 400;

/// The event log: the last `SHOWN` events up to the cursor, newest first,
/// each told as its caption (title and text), the raw line on demand. Rows
/// are keyed by (run, seq), so a step adds or removes a row instead of
/// redrawing the list. One tab stop for the whole list (a roving tab
/// index): ↑/↓ move, Home/End go to the ends, Enter jumps the cursor there.
///
/// Only the newest `FIRST_ROWS` are built when a run is drawn (on a long
/// run the other 120 rows of its first draw were most of the side
/// column's elements, below the fold); scrolling near the list's end
/// builds more, and the keyboard entering the list builds them all, so
/// Home/End and ↑/↓ reach every row shown.
#[component]
pub fn EventLog() -> impl IntoView {
    use wasm_bindgen::JsCast;
    let s = expect_context::<Session>();
    let l = lang();
    let raw = RwSignal::new(false);
    // How many of the newest rows are built (at most `SHOWN`).
    let built = RwSignal::new(FIRST_ROWS);
    // Which row holds the list's one tab stop (`None`: the newest shown).
    let active = RwSignal::new(None::<usize>);
    // A new run (or a recorded one) reuses sequence numbers from 0: its rows
    // are new rows.
    let generation = RwSignal::new(0_u64);
    // Its first run only subscribes: the rows drawn at mount are already
    // the run on screen's, and bumping the generation then rebuilt them all.
    Effect::new(move |seen: Option<()>| {
        s.run.snapshot.track();
        s.run.imported.track();
        if seen.is_some() {
            generation.update(|g| *g += 1);
            active.set(None);
            built.set(FIRST_ROWS);
        }
    });
    // Which row is current and which holds the tab stop, as selectors:
    // a step notifies the two rows whose answer changed, not every row
    // shown (each of which would also unsubscribe and resubscribe). A
    // selector's effect lives as long as its clones, not the page's owner:
    // run after the page is gone, it reads nothing disposed (`None`).
    let shown_now = move || {
        let len = s.run.trace.try_with(Trace::len)?;
        Some(s.playback.cursor.try_get()?.map_or(len, |c| c.min(len)))
    };
    let current_row = Selector::new(shown_now);
    let focused_row = Selector::new(move || {
        let shown = shown_now()?;
        match active.try_get()? {
            Some(a) if a < shown && a + SHOWN >= shown => Some(a),
            _ => shown.checked_sub(1),
        }
    });
    let rows = move || {
        let shown = s.shown();
        // A new language redraws the rows too (their captions are in it).
        let g = (generation.get(), l.0.get());
        (shown.saturating_sub(built.get().min(SHOWN))..shown).rev().map(|seq| (g, seq)).collect::<Vec<_>>()
    };
    let on_scroll = move |ev: leptos::ev::Event| {
        let Some(list) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        if list.scroll_top() + list.client_height() + NEAR_END_PX >= list.scroll_height() && built.get_untracked() < SHOWN {
            built.update(|b| *b = (*b + MORE_ROWS).min(SHOWN));
        }
    };
    let seq_of = |el: &web_sys::Element| el.get_attribute("data-seq").and_then(|v| v.parse::<usize>().ok());
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" {
            let li =
                ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|el| el.closest("li[data-seq]").ok().flatten());
            if let Some(seq) = li.as_ref().and_then(seq_of) {
                s.seek(seq + 1);
                ev.prevent_default();
                ev.stop_propagation();
            }
        } else if let Some(seq) = roving_keydown(&ev, "li[data-seq]").as_deref().and_then(seq_of) {
            active.set(Some(seq));
        }
    };
    view! {
        <section class="panel" aria-labelledby="log-title">
            <h2 id="log-title">{move || l.t("ui-log")}</h2>
            <label class="inline small log-raw-toggle">
                <input type="checkbox" prop:checked=move || raw.get() on:change=move |ev| raw.set(event_target_checked(&ev))/>
                {move || l.t("ui-log-raw")}
            </label>
            <ol class="event-log" role="listbox" aria-label=move || l.t("ui-log-label") on:keydown=on_key on:scroll=on_scroll
                on:focusin=move |_| if built.get_untracked() < SHOWN { built.set(SHOWN) }>
                <For each=rows key=|k| *k let:key>
                    {
                        let seq = key.1;
                        let caption = s.run.trace.with_untracked(|t| t.entries().get(seq).map(|e| {
                            // The closing caption tells the state the run ended in.
                            let before = matches!(e.event, Event::RunFinished)
                                .then(|| s.run.views.with_untracked(|v| v.state_at(t.entries(), Some(seq)).ok()))
                                .flatten();
                            crate::view::words::captions::caption_of(l.cat_untracked(), t.entries(), before.as_ref(), e)
                        }));
                        // The raw line is written when it is asked for.
                        let line = move || s.run.trace.with_untracked(|t| t.entries().get(seq).map(describe).unwrap_or_default());
                        let (title, text) = caption.map(|c| (c.title, c.text)).unwrap_or_default();
                        let current = {
                            let current_row = current_row.clone();
                            move || current_row.selected(&Some(seq + 1))
                        };
                        let tab = {
                            let focused_row = focused_row.clone();
                            move || if focused_row.selected(&Some(seq)) { "0" } else { "-1" }
                        };
                        view! {
                            <li class={ let current = current.clone(); move || if current() { "log-row current" } else { "log-row" } } data-seq=seq.to_string() role="option"
                                aria-selected=move || current().to_string() tabindex=tab
                                on:click=move |_| { active.set(Some(seq)); s.seek(seq + 1); }>
                                <span class="log-seq">{crate::view::words::captions::event_number(seq as u64)}</span>
                                <span class="log-title">{title}</span>
                                <span class="log-text">{text}</span>
                                <Show when=move || raw.get()>
                                    <code class="log-raw">{line()}</code>
                                </Show>
                            </li>
                        }
                    }
                </For>
            </ol>
        </section>
    }
}
