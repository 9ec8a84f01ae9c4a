//! A roving tab index for the panels' lists: one tab stop per list, moved
//! by ↑/↓, Home and End (`view::lists::roving_step` decides where).
//!
//! Owns the key handling only; which row holds the stop is each list's.

use crate::view::lists;

/// A keydown in a list with a roving tab index, whose rows are the `rows`
/// (a selector) inside the element listening: on a row, a key that
/// `lists::roving_step` knows focuses the row it names, goes no further (not
/// to the page's shortcuts) and returns that row. Other keys, and keys typed
/// elsewhere in the list (an answer form), are left alone.
pub(super) fn roving_keydown(ev: &leptos::ev::KeyboardEvent, rows: &str) -> Option<web_sys::HtmlElement> {
    use wasm_bindgen::JsCast;
    let row = ev.target()?.dyn_into::<web_sys::Element>().ok()?.closest(rows).ok()??;
    let all = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?.query_selector_all(rows).ok()?;
    let at = (0..all.length()).position(|i| all.item(i).is_some_and(|n| n.is_same_node(Some(&row))))?;
    let to = lists::roving_step(&ev.key(), at, all.length() as usize)?;
    ev.prevent_default();
    ev.stop_propagation();
    let to = all.item(to as u32)?.dyn_into::<web_sys::HtmlElement>().ok()?;
    let _ = to.focus();
    Some(to)
}
