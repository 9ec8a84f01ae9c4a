//! Small questions and requests to the browser page that several views
//! share: copying to the clipboard, and whether the screen is narrow (the
//! side panels are drawers).
//!
//! Owns these two calls only; it must not hold state or draw anything.

use leptos::prelude::*;

use crate::ui::browser::lang::Lang;

/// Copies `text` with the async clipboard API; `status` says whether it
/// worked, in words (a refusal is the browser's, not a bug).
pub fn copy_to_clipboard(l: Lang, text: String, status: RwSignal<String>) {
    use wasm_bindgen::JsCast;
    let cat = l.cat_untracked();
    let refused = cat.t("ui-copy-refused");
    let navigator = js_sys::Reflect::get(&window(), &"navigator".into()).unwrap_or_default();
    let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into()).ok().filter(|c| !c.is_undefined());
    let write = clipboard
        .as_ref()
        .and_then(|c| js_sys::Reflect::get(c, &"writeText".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let (Some(clipboard), Some(write)) = (clipboard, write) else {
        status.set(cat.t("ui-copy-none"));
        return;
    };
    let Ok(promise) = write.call1(&clipboard, &text.into()) else {
        status.set(refused);
        return;
    };
    status.set(cat.t("ui-copying"));
    leptos::task::spawn_local(async move {
        let done = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise)).await;
        status.set(if done.is_ok() { cat.t("ui-copied") } else { refused });
    });
}

/// Whether the side panels are drawers (the same width as the stylesheet's).
pub fn narrow() -> bool {
    let Ok(media) = js_sys::Reflect::get(&window(), &"matchMedia".into()) else { return false };
    let Ok(media) = wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(media) else { return false };
    media
        .call1(&window(), &"(max-width: 1199.98px)".into())
        .ok()
        .and_then(|m| js_sys::Reflect::get(&m, &"matches".into()).ok())
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}
