//! Browser tests of fetching a language's messages
//! (`wasm-pack test --headless --chrome -- --test web_language`): the page
//! comes up in a fetched language without English first, and a language
//! that cannot be fetched leaves the page usable in the one it speaks, the
//! banner saying why. Their own test binary (so their own page): a
//! language is fetched once per page, and each test here needs one that no
//! other test has fetched yet (zh, it and ja each belong to one test).
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use team_protocols::ui::shell::lang::Start;
use team_protocols::ui::App;
use team_protocols::view::i18n::{Catalog, Locale};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const LOCALE_KEY: &str = "team-protocols.locale";

/// Mounts the page the way `main` does: inside `start`.
fn mount_started(start: Start) -> web_sys::HtmlElement {
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    leptos::mount::mount_to(host.clone(), move || {
        provide_context(start);
        view! { <App pace_ms=0/> }
    })
    .forget();
    host
}

fn texts(host: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length()).filter_map(|i| list.item(i)).map(|n| n.text_content().unwrap_or_default().trim().to_string()).collect()
}

fn document_lang() -> String {
    document().document_element().unwrap().get_attribute("lang").unwrap_or_default()
}

/// Waits (in real time, up to ~10 s) until `done` holds.
async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..500 {
        if done() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    panic!("timed out waiting for {what}");
}

/// Makes the page's `fetch` answer 404 for the files under `locales/<tag>/`
/// (every other request goes through).
fn refuse_locale(tag: &str) {
    js_sys::eval(&format!(
        "if (!window.__realFetch) window.__realFetch = window.fetch; \
         window.fetch = (r, o) => String(r && r.url !== undefined ? r.url : r).includes('locales/{tag}/') \
           ? Promise.resolve(new Response('not here', {{ status: 404 }})) : window.__realFetch(r, o);"
    ))
    .unwrap();
}

/// Gives the page its own `fetch` back.
fn restore_fetch() {
    js_sys::eval("if (window.__realFetch) { window.fetch = window.__realFetch; delete window.__realFetch; }").unwrap();
}

#[wasm_bindgen_test]
async fn a_page_started_in_a_fetched_language_shows_it_from_its_first_render() {
    let storage = window().local_storage().unwrap().unwrap();
    storage.set_item(LOCALE_KEY, "zh").unwrap();
    assert!(Catalog::ready(Locale::Zh).is_none(), "Chinese is not built into the page");
    let start = Start::prepare().await;
    assert_eq!(start.locale(), Locale::Zh);
    let zh = Catalog::get(Locale::Zh);
    assert_ne!(zh.t("ui-title"), Catalog::en().t("ui-title"));
    // No tick between mounting and looking: the first render is Chinese.
    let host = mount_started(start);
    assert_eq!(texts(&host, "h1"), [zh.t("ui-title")]);
    assert_eq!(document_lang(), "zh");
    assert!(texts(&host, ".banner-error").is_empty(), "no banner");
    storage.remove_item(LOCALE_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn a_language_that_cannot_be_fetched_at_the_start_leaves_the_page_in_english_and_the_banner_says_why() {
    let storage = window().local_storage().unwrap().unwrap();
    storage.set_item(LOCALE_KEY, "it").unwrap();
    refuse_locale("it");
    let start = Start::prepare().await;
    restore_fetch();
    assert_eq!(start.locale(), Locale::En);
    let host = mount_started(start);
    leptos::task::tick().await;
    until("the banner", || !texts(&host, ".banner-error").is_empty()).await;
    let banner = texts(&host, ".banner-error").join(" ");
    assert!(banner.contains("Italiano could not be loaded (the server answered 404). The page stays in English."), "{banner}");
    assert_eq!(texts(&host, "h1"), [Catalog::en().t("ui-title")]);
    assert_eq!(document_lang(), "en");
    let picked: web_sys::HtmlSelectElement = host.query_selector("#lang-select").unwrap().unwrap().unchecked_into();
    assert_eq!(picked.value(), "en", "the switcher shows the language on screen");
    // The visitor's choice stays remembered: the next visit tries again.
    assert_eq!(storage.get_item(LOCALE_KEY).unwrap().as_deref(), Some("it"));
    storage.remove_item(LOCALE_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn a_language_picked_in_the_switcher_that_cannot_be_fetched_leaves_the_page_as_it_is_and_a_retry_works() {
    let storage = window().local_storage().unwrap().unwrap();
    storage.remove_item(LOCALE_KEY).unwrap();
    let host = mount_started(Start::prepare().await);
    leptos::task::tick().await;
    let select: web_sys::HtmlSelectElement = host.query_selector("#lang-select").unwrap().unwrap().unchecked_into();
    let pick = |tag: &str| {
        select.set_value(tag);
        select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    };
    refuse_locale("ja");
    pick("ja");
    until("the banner", || !texts(&host, ".banner-error").is_empty()).await;
    restore_fetch();
    let banner = texts(&host, ".banner-error").join(" ");
    assert!(banner.contains("日本語 could not be loaded (the server answered 404). The page stays in English."), "{banner}");
    assert_eq!(select.value(), "en", "the switcher goes back to the language on screen");
    assert_eq!(document_lang(), "en");
    assert_eq!(texts(&host, "h1"), [Catalog::en().t("ui-title")]);
    assert_eq!(storage.get_item(LOCALE_KEY).unwrap(), None, "a language that did not load is not remembered");
    // Picking it again fetches again.
    pick("ja");
    until("the switch to Japanese", || document_lang() == "ja").await;
    leptos::task::tick().await;
    let ja = Catalog::get(Locale::Ja);
    assert_eq!(ja.locale(), Locale::Ja);
    assert_eq!(texts(&host, "h1"), [ja.t("ui-title")]);
    assert_eq!(storage.get_item(LOCALE_KEY).unwrap().as_deref(), Some("ja"));
    storage.remove_item(LOCALE_KEY).unwrap();
}
