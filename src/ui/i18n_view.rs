//! The page's language: the `Lang` context every component reads its words
//! through, chosen from the browser's languages (`navigator.languages`) or
//! the choice remembered on this device, the switcher in the header, and
//! `<html lang>` kept equal to it.
//!
//! Owns the language signal and the switcher's markup. The messages are
//! `i18n`'s; remembering the choice is `storage`'s. It must not touch the
//! run, the cursor or the runtime: switching only re-renders.

use leptos::prelude::*;

use super::i18n::{Catalog, Locale};
use super::storage;

/// The language the page speaks. `Copy`: provided once by the page.
#[derive(Clone, Copy, Debug)]
pub struct Lang(pub RwSignal<Locale>);

impl Lang {
    /// The remembered choice, else the first of the browser's languages that
    /// is offered, else English; `<html lang>` is set to it.
    pub fn from_browser() -> Lang {
        let locale = storage::remembered_locale().unwrap_or_else(|| Locale::negotiate(browser_languages().iter().map(String::as_str)));
        set_document_lang(locale);
        Lang(RwSignal::new(locale))
    }

    /// The catalog of the language on screen (tracked: a view that calls it
    /// re-renders when the language changes).
    pub fn cat(self) -> &'static Catalog {
        Catalog::get(self.0.get())
    }

    /// The catalog, untracked (for event handlers).
    pub fn cat_untracked(self) -> &'static Catalog {
        Catalog::get(self.0.get_untracked())
    }

    /// The message `key` in the language on screen (tracked).
    pub fn t(self, key: &str) -> String {
        self.cat().t(key)
    }

    /// Switches the page to `locale`, remembers it and sets `<html lang>`.
    /// A refusal to remember is not an error the user can act on: the page
    /// still switches.
    pub fn set(self, locale: Locale) {
        self.0.set(locale);
        set_document_lang(locale);
        let _ = storage::remember_locale(locale);
    }
}

/// The page's language: the one the page provided, or English where no
/// page provided one (a component mounted on its own in a test).
pub fn lang() -> Lang {
    use_context::<Lang>().unwrap_or_else(|| Lang(RwSignal::new(Locale::En)))
}

/// `navigator.languages`, most preferred first (empty when unavailable).
fn browser_languages() -> Vec<String> {
    let navigator = js_sys::Reflect::get(&window(), &"navigator".into()).unwrap_or_default();
    let langs = js_sys::Reflect::get(&navigator, &"languages".into()).unwrap_or_default();
    if js_sys::Array::is_array(&langs) {
        js_sys::Array::from(&langs).iter().filter_map(|v| v.as_string()).collect()
    } else {
        js_sys::Reflect::get(&navigator, &"language".into()).ok().and_then(|v| v.as_string()).into_iter().collect()
    }
}

/// Sets `<html lang>` to `locale`'s tag.
fn set_document_lang(locale: Locale) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("lang", locale.tag());
    }
}

/// The language switcher: a labelled `<select>` listing each language by
/// its own name (each option marked with its `lang`).
#[component]
pub fn LanguageSwitcher() -> impl IntoView {
    let l = lang();
    let on_change = move |ev: leptos::ev::Event| {
        if let Some(locale) = Locale::from_tag(&event_target_value(&ev)) {
            l.set(locale);
        }
    };
    view! {
        <label class="lang-switch">
            <span class="lang-switch-label">{move || l.t("ui-language")}</span>
            <select id="lang-select" on:change=on_change>
                {Locale::ALL.into_iter().map(|locale| view! {
                    <option value=locale.tag() lang=locale.tag() selected=move || l.0.get() == locale>{locale.native_name()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
