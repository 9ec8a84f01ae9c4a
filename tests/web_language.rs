//! Browser tests of fetching a language's messages
//! (`wasm-pack test --headless --chrome -- --test web_language`): the page
//! comes up in a fetched language without English first, and a language
//! that cannot be fetched leaves the page usable in the one it speaks, the
//! banner saying why. Their own test binary (so their own page): a
//! language is fetched once per page, and each test here needs one that no
//! other test has fetched yet (zh, it and ja each belong to one test).
//!
//! No test depends on a server: while a test runs, the page's `fetch`
//! answers the requests for `locales/<tag>/*.ftl` itself
//! ([`LocaleServer`]): a 404, or nothing until the test releases the
//! message files built into it. Every other request goes to the real
//! `fetch`, which is put back when the test ends (or, if it failed, by the
//! next test's `Page::start`). Each test mounts its own App through a
//! `web_page::Page`, unmounted when it ends (see `tests/web_page/mod.rs`).
#![cfg(target_arch = "wasm32")]

mod web_page;

use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::{select, Either};
use leptos::prelude::*;
use team_protocols::ui::browser::lang::Start;
use team_protocols::ui::App;
use team_protocols::view::i18n::{Catalog, Locale};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_page::{texts, until, Page, Patch};

wasm_bindgen_test_configure!(run_in_browser);

const LOCALE_KEY: &str = "team-protocols.locale";

/// What the stand-in server does with a request for a language's files.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Answer {
    /// A 404, at once.
    Refuse,
    /// The file, once the test calls [`LocaleServer::release`].
    Hold,
}

/// A request held until the test releases it.
struct Held {
    locale: Locale,
    resolve: js_sys::Function,
    response: JsValue,
}

#[derive(Default)]
struct ServerState {
    answers: Vec<(Locale, Answer)>,
    held: Vec<Held>,
}

/// The page's `fetch` while a test runs: requests for `locales/<tag>/...`
/// are answered as the test says ([`Answer`]), from the message files
/// built into the test; any other request goes to the real `fetch`. The
/// real one is back when this drops.
struct LocaleServer {
    state: Rc<RefCell<ServerState>>,
    // Dropped in this order: the real `fetch` is back before the stand-in
    // is freed.
    _patch: Patch,
    _fetch: Closure<dyn FnMut(JsValue, JsValue) -> js_sys::Promise>,
}

impl LocaleServer {
    /// Takes over the page's `fetch`; every language is refused until the
    /// test says otherwise.
    fn install() -> LocaleServer {
        let state = Rc::new(RefCell::new(ServerState::default()));
        let real: js_sys::Function = js_sys::Reflect::get(&window(), &"fetch".into()).unwrap().unchecked_into();
        let shared = state.clone();
        let fetch = Closure::<dyn FnMut(JsValue, JsValue) -> js_sys::Promise>::new(move |request: JsValue, options: JsValue| {
            let url = js_sys::Reflect::get(&request, &"url".into())
                .ok()
                .and_then(|u| u.as_string())
                .or_else(|| request.as_string())
                .unwrap_or_default();
            let Some((locale, file)) = locale_file(&url) else {
                return real
                    .call2(&window(), &request, &options)
                    .map(JsCast::unchecked_into)
                    .unwrap_or_else(|e| js_sys::Promise::reject(&e));
            };
            let answer = shared.borrow().answers.iter().rev().find(|(l, _)| *l == locale).map_or(Answer::Refuse, |(_, a)| *a);
            let text = web_page::translation(locale, file).expect("a message file the page fetches");
            match answer {
                Answer::Refuse => js_sys::Promise::resolve(&response(404, "not here")),
                Answer::Hold => {
                    let mut resolve = None;
                    let promise = js_sys::Promise::new(&mut |r, _| resolve = Some(r));
                    let held = Held { locale, resolve: resolve.expect("the promise's resolve"), response: response(200, text) };
                    shared.borrow_mut().held.push(held);
                    promise
                }
            }
        });
        let patch = Patch::install(&window().into(), "fetch", fetch.as_ref());
        LocaleServer { state, _patch: patch, _fetch: fetch }
    }

    /// From now on, answers requests for `locale`'s files with `answer`.
    fn answer(&self, locale: Locale, answer: Answer) {
        self.state.borrow_mut().answers.push((locale, answer));
    }

    /// How many requests for `locale`'s files are held.
    fn held(&self, locale: Locale) -> usize {
        self.state.borrow().held.iter().filter(|h| h.locale == locale).count()
    }

    /// Answers every held request (with its file).
    fn release(&self) {
        let held = std::mem::take(&mut self.state.borrow_mut().held);
        for h in held {
            h.resolve.call1(&JsValue::NULL, &h.response).unwrap();
        }
    }
}

/// The language and file a URL asks for, when it is one of the page's
/// message files.
fn locale_file(url: &str) -> Option<(Locale, &'static str)> {
    Locale::ALL.into_iter().find_map(|locale| {
        let (_, rest) = url.split_once(&format!("locales/{}/", locale.tag()))?;
        locale.files().iter().find(|f| **f == rest).map(|f| (locale, *f))
    })
}

/// An HTTP response with `status` and `body`.
fn response(status: u16, body: &str) -> JsValue {
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"status".into(), &status.into()).unwrap();
    let class: js_sys::Function = js_sys::Reflect::get(&window(), &"Response".into()).unwrap().unchecked_into();
    js_sys::Reflect::construct(&class, &js_sys::Array::of2(&body.into(), &init)).unwrap()
}

/// Mounts the page the way `main` does: inside `start`.
fn mount_started(page: &Page, start: Start) -> web_sys::HtmlElement {
    page.mount_view(move || {
        provide_context(start);
        view! { <App pace_ms=0/> }
    })
}

fn document_lang() -> String {
    document().document_element().unwrap().get_attribute("lang").unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_page_started_in_a_fetched_language_shows_it_from_its_first_render() {
    let page = Page::start();
    let server = LocaleServer::install();
    server.answer(Locale::Zh, Answer::Hold);
    let storage = window().local_storage().unwrap().unwrap();
    storage.set_item(LOCALE_KEY, "zh").unwrap();
    assert!(Catalog::ready(Locale::Zh).is_none(), "Chinese is not built into the page");
    // The page asks for every Chinese file and does not start while they
    // are on their way.
    let prepare = Box::pin(Start::prepare());
    let files = Locale::Zh.files().len();
    let asked = Box::pin(until("the page to ask for every Chinese file", || server.held(Locale::Zh) == files));
    let prepare = match select(prepare, asked).await {
        Either::Left((start, _)) => panic!("the page started in {:?} before its messages arrived", start.locale()),
        Either::Right(((), prepare)) => prepare,
    };
    assert!(Catalog::ready(Locale::Zh).is_none(), "nothing is installed before the files arrive");
    server.release();
    let start = prepare.await;
    assert_eq!(start.locale(), Locale::Zh);
    let zh = Catalog::get(Locale::Zh);
    assert_eq!(zh.locale(), Locale::Zh);
    assert_ne!(zh.t("ui-title"), Catalog::en().t("ui-title"));
    // No tick between mounting and looking: the first render is Chinese.
    let host = mount_started(&page, start);
    assert_eq!(texts(&host, "h1"), [zh.t("ui-title")]);
    assert_eq!(document_lang(), "zh");
    assert!(texts(&host, ".banner-error").is_empty(), "no banner");
}

#[wasm_bindgen_test]
async fn a_language_that_cannot_be_fetched_at_the_start_leaves_the_page_in_english_and_the_banner_says_why() {
    let page = Page::start();
    let server = LocaleServer::install();
    server.answer(Locale::It, Answer::Refuse);
    let storage = window().local_storage().unwrap().unwrap();
    storage.set_item(LOCALE_KEY, "it").unwrap();
    let start = Start::prepare().await;
    assert_eq!(start.locale(), Locale::En);
    assert!(Catalog::ready(Locale::It).is_none(), "nothing was installed");
    let host = mount_started(&page, start);
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
}

#[wasm_bindgen_test]
async fn a_language_picked_in_the_switcher_that_cannot_be_fetched_leaves_the_page_as_it_is_and_a_retry_works() {
    let page = Page::start();
    let server = LocaleServer::install();
    let storage = window().local_storage().unwrap().unwrap();
    // English chosen on this device (whatever the browser's languages).
    storage.set_item(LOCALE_KEY, "en").unwrap();
    let host = mount_started(&page, Start::prepare().await);
    leptos::task::tick().await;
    assert_eq!(document_lang(), "en");
    let select: web_sys::HtmlSelectElement = host.query_selector("#lang-select").unwrap().unwrap().unchecked_into();
    let pick = |tag: &str| {
        select.set_value(tag);
        select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    };
    server.answer(Locale::Ja, Answer::Refuse);
    pick("ja");
    until("the banner", || !texts(&host, ".banner-error").is_empty()).await;
    let banner = texts(&host, ".banner-error").join(" ");
    assert!(banner.contains("日本語 could not be loaded (the server answered 404). The page stays in English."), "{banner}");
    assert_eq!(select.value(), "en", "the switcher goes back to the language on screen");
    assert_eq!(document_lang(), "en");
    assert_eq!(texts(&host, "h1"), [Catalog::en().t("ui-title")]);
    assert_eq!(storage.get_item(LOCALE_KEY).unwrap().as_deref(), Some("en"), "a language that did not load is not remembered");
    // Picking it again fetches again; while the files are on their way the
    // switcher is busy and the page stays in English.
    server.answer(Locale::Ja, Answer::Hold);
    pick("ja");
    let files = Locale::Ja.files().len();
    until("the page to ask for every Japanese file", || server.held(Locale::Ja) == files).await;
    leptos::task::tick().await;
    assert_eq!(select.get_attribute("aria-busy").as_deref(), Some("true"), "the switcher is busy");
    assert_eq!(document_lang(), "en");
    assert_eq!(texts(&host, "h1"), [Catalog::en().t("ui-title")]);
    server.release();
    until("the switch to Japanese", || document_lang() == "ja").await;
    leptos::task::tick().await;
    let ja = Catalog::get(Locale::Ja);
    assert_eq!(ja.locale(), Locale::Ja);
    assert_eq!(texts(&host, "h1"), [ja.t("ui-title")]);
    assert_eq!(select.get_attribute("aria-busy"), None, "no longer busy");
    assert_eq!(storage.get_item(LOCALE_KEY).unwrap().as_deref(), Some("ja"));
}
