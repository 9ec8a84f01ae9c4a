//! The browser tests' page (`mod web_page;` in `tests/web.rs` and
//! `tests/web_language.rs`): every test mounts the Apps it needs through
//! one [`Page`], and they are unmounted when the `Page` drops.
//!
//! Design. A test's first line is `let page = Page::start();`. Each App it
//! mounts goes into a host element of its own (marked `data-test-host`)
//! and is kept, with its `UnmountHandle`, in a list this thread owns;
//! dropping the `Page` at the end of the test unmounts each App (its nodes
//! are taken out and its root reactive owner is cleaned up, and with it
//! the App's window listeners, its timers and its team) and removes its
//! host. A test can also unmount one App before it ends
//! ([`Page::unmount`]: a reload, or an App that must not hear what comes
//! next). A panic in wasm32 does not unwind, so
//! the `Page` of a test that failed never drops: the next [`Page::start`]
//! therefore first does what that drop did not (it unmounts every App
//! still in the list and removes every host still in the document), then
//! undoes whatever else a failed test may have left: it puts back every
//! function a test replaced through a [`Patch`] (`fetch`, the console, the
//! window's listener and timer calls), empties the URL's fragment, and
//! clears `localStorage`, so that each test starts as a first visit on a
//! fresh device and sets what it needs after `Page::start`. No test depends
//! on what another left, nor on the order they run in.
//!
//! Runs kept in IndexedDB: each `Page` has a database of its own, new to
//! the browser, and every App it mounts reads and writes it through one
//! queue the `Page` holds (the `storage::SharedQueue` context). A write
//! an App asked for before its test ended may land later: it lands in
//! that test's database, which no later test reads. Within a test, an App
//! mounted again (a reload) reads after every write the one before it
//! asked for. The `Page`'s drop deletes its database.
//!
//! Also here: the small DOM queries the tests share ([`all`], [`texts`],
//! [`button`], [`click`], [`run_finished`]), [`until`], the bounded poll
//! every check of something asynchronous waits with (never a fixed sleep),
//! [`set_hash`], which
//! waits for the `hashchange` it causes, and the translations' message
//! files as the page would fetch them ([`translation`]).
//!
//! Owns test plumbing only; what a test asserts stays in the test. Each
//! test binary uses part of it, hence `dead_code` is allowed.
#![allow(dead_code)]

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::reactive::owner::WeakOwner;
use team_protocols::ui::browser::idb;
use team_protocols::ui::state::storage::{Runs, SharedQueue, StorageQueue};
use team_protocols::ui::App;
use team_protocols::view::i18n::Locale;
use wasm_bindgen::{JsCast, JsValue};

/// The attribute that marks a test's host element.
const HOST_MARK: &str = "data-test-host";

/// The window property holding the list of [`Patch`]es in force
/// (`[target, name, original]` each), so a failed test's are found.
const PATCHES: &str = "__testPatches";

/// An App on the page: its host and what unmounts it.
struct Mounted {
    host: web_sys::HtmlElement,
    /// The `UnmountHandle`: dropping it takes the App's nodes out of the
    /// host.
    handle: Box<dyn Any>,
    /// The App's root reactive owner.
    owner: Rc<RefCell<Option<WeakOwner>>>,
}

impl Mounted {
    fn unmount(self) {
        drop(self.handle);
        // The handle cleans its owner up only when the last reference to
        // the owner goes, and the App's views hold one past the handle (a
        // `For` does: seen in a view with one, whose `on_cleanup` did not
        // run when its handle dropped): cleaned up here, so the App's
        // `on_cleanup`s run now (its window listeners, its timers, its
        // team) and its signals are disposed.
        if let Some(owner) = self.owner.borrow_mut().take().and_then(|o| o.upgrade()) {
            owner.cleanup();
        }
        self.host.remove();
    }
}

thread_local! {
    /// The Apps mounted and not yet unmounted (by their test's `Page`, or,
    /// after a failed test, by the next `Page::start`).
    static MOUNTED: RefCell<Vec<Mounted>> = const { RefCell::new(Vec::new()) };
}

thread_local! {
    /// How many `Page`s this test binary started: part of each one's
    /// database name.
    static PAGES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The page of one test. See the module's doc.
pub(crate) struct Page {
    /// The IndexedDB database its Apps keep their runs in.
    database: Rc<str>,
    /// Owns the queue (the Apps come and go; it stays).
    owner: Owner,
    /// The queue its Apps read and write the database through.
    queue: SharedQueue,
}

impl Page {
    /// A clean page: nothing mounted, nothing patched, no fragment, empty
    /// `localStorage`, no stored runs (a database of its own, new to the
    /// browser; whatever a failed test left is undone first).
    pub(crate) fn start() -> Page {
        unmount_all();
        let leftovers = document().query_selector_all(&format!("[{HOST_MARK}]")).unwrap();
        for i in 0..leftovers.length() {
            if let Some(node) = leftovers.item(i) {
                node.unchecked_into::<web_sys::Element>().remove();
            }
        }
        restore_patches();
        if !window().location().hash().unwrap_or_default().trim_start_matches('#').is_empty() {
            // The `hashchange` this fires comes later, and may reach the App
            // this test mounts: it reads an empty fragment, which asks for
            // nothing.
            window().location().set_hash("").unwrap();
        }
        window().local_storage().unwrap().unwrap().clear().unwrap();
        let n = PAGES.with(|p| {
            p.set(p.get() + 1);
            p.get()
        });
        // The time makes it new to the browser too (its profile may hold
        // databases of an earlier run of this binary).
        let database: Rc<str> = format!("team-protocols-test-{}-{n}", js_sys::Date::now() as u64).into();
        let owner = Owner::new();
        let queue = owner.with(|| SharedQueue(StoredValue::new_local(StorageQueue::new(Runs::in_database(&database)))));
        Page { database, owner, queue }
    }

    /// The runs this page's Apps keep, as the page reads and writes them.
    pub(crate) fn runs(&self) -> Runs {
        Runs::in_database(&self.database)
    }

    /// The text this page's Apps keep under `key` in IndexedDB.
    pub(crate) async fn stored(&self, key: &str) -> Option<String> {
        idb::get(&self.database, key).await.unwrap()
    }

    /// Puts `text` under `key` in this page's IndexedDB database (what a
    /// page wrote before, damaged or not), after every read and write its
    /// Apps asked for before (through their queue).
    pub(crate) async fn store(&self, key: &str, text: &str) {
        let (key, text) = (key.to_string(), text.to_string());
        let done = Rc::new(std::cell::Cell::new(false));
        let written = done.clone();
        self.queue.0.with_value(|queue| {
            queue.push(Box::new(move |runs| {
                Box::pin(async move {
                    idb::write(runs.database(), &[(&key, Some(&text))]).await.unwrap();
                    written.set(true);
                })
            }))
        });
        until("the page's write", || done.get()).await;
    }

    /// Waits (bounded like [`until`]) until what this page's Apps keep
    /// under `key` satisfies `done`; returns it.
    pub(crate) async fn until_stored(&self, what: &str, key: &str, done: impl Fn(&Option<String>) -> bool) -> Option<String> {
        let deadline = js_sys::Date::now() + 20_000.0;
        loop {
            let now = self.stored(key).await;
            if done(&now) {
                return now;
            }
            assert!(js_sys::Date::now() < deadline, "timed out waiting for {what}");
            gloo_timers::future::TimeoutFuture::new(20).await;
        }
    }

    /// Mounts the App as on a first visit: no run kept from before (a test
    /// mounts this way only before it keeps any run, so there is none).
    pub(crate) fn mount(&self) -> web_sys::HtmlElement {
        self.mount_keeping_storage()
    }

    /// Mounts the App over whatever browser storage holds (a reload).
    pub(crate) fn mount_keeping_storage(&self) -> web_sys::HtmlElement {
        self.mount_view(|| view! { <App pace_ms=0/> })
    }

    /// Mounts the view `f` builds (the App inside a context, say) in a
    /// host of its own.
    pub(crate) fn mount_view<F, N>(&self, f: F) -> web_sys::HtmlElement
    where
        F: FnOnce() -> N + 'static,
        N: IntoView,
        N::State: 'static,
    {
        let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
        host.set_attribute(HOST_MARK, "").unwrap();
        document().body().unwrap().append_child(&host).unwrap();
        let owner = Rc::new(RefCell::new(None));
        let root = owner.clone();
        let queue = self.queue;
        let handle = leptos::mount::mount_to(host.clone(), move || {
            *root.borrow_mut() = Owner::current().map(|o| o.downgrade());
            provide_context(queue);
            f()
        });
        MOUNTED.with(|m| m.borrow_mut().push(Mounted { host: host.clone(), handle: Box::new(handle), owner }));
        host
    }

    /// Unmounts the App in `host` now and removes the host.
    pub(crate) fn unmount(&self, host: &web_sys::HtmlElement) {
        let found = MOUNTED.with(|m| {
            let mut m = m.borrow_mut();
            let at = m.iter().position(|x| x.host.is_same_node(Some(host)));
            at.map(|i| m.remove(i))
        });
        found.expect("an App this page mounted").unmount();
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        unmount_all();
        self.owner.cleanup();
        // Queued: it waits for any connection still open, then deletes.
        if let Some(factory) = window().indexed_db().ok().flatten() {
            let _ = factory.delete_database(&self.database);
        }
    }
}

/// Unmounts every App still mounted, the latest first.
fn unmount_all() {
    // Taken out first: unmounting runs cleanups, which must find the list
    // free.
    let all = MOUNTED.with(|m| std::mem::take(&mut *m.borrow_mut()));
    for mounted in all.into_iter().rev() {
        mounted.unmount();
    }
}

/// A function property of a JS object replaced for a test (`window.fetch`,
/// `console.error`, ...), put back when the value drops, or by the next
/// [`Page::start`] when its test failed before that.
pub(crate) struct Patch {
    entry: js_sys::Array,
}

impl Patch {
    /// Replaces `target[name]` with `replacement`.
    pub(crate) fn install(target: &JsValue, name: &str, replacement: &JsValue) -> Patch {
        let original = js_sys::Reflect::get(target, &name.into()).unwrap();
        js_sys::Reflect::set(target, &name.into(), replacement).unwrap();
        let entry = js_sys::Array::of3(target, &name.into(), &original);
        patches().push(&entry);
        Patch { entry }
    }
}

impl Drop for Patch {
    fn drop(&mut self) {
        let list = patches();
        let kept: js_sys::Array = list.iter().filter(|e| !js_sys::Object::is(e, &self.entry)).collect();
        list.set_length(0);
        for e in kept.iter() {
            list.push(&e);
        }
        put_back(&self.entry);
    }
}

/// The list of patches in force (created on first use).
fn patches() -> js_sys::Array {
    let list = js_sys::Reflect::get(&window(), &PATCHES.into()).unwrap();
    if js_sys::Array::is_array(&list) {
        return list.unchecked_into();
    }
    let list = js_sys::Array::new();
    js_sys::Reflect::set(&window(), &PATCHES.into(), &list).unwrap();
    list
}

fn put_back(entry: &js_sys::Array) {
    js_sys::Reflect::set(&entry.get(0), &entry.get(1), &entry.get(2)).unwrap();
}

/// Puts back every patch still in force, the latest first.
fn restore_patches() {
    let list = patches();
    for i in (0..list.length()).rev() {
        put_back(&list.get(i).unchecked_into());
    }
    list.set_length(0);
}

/// The elements under `host` that match `selector`, in document order.
pub(crate) fn all(host: &web_sys::HtmlElement, selector: &str) -> Vec<web_sys::Element> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length()).map(|i| list.item(i).unwrap().unchecked_into()).collect()
}

/// The trimmed text of each element under `host` that matches `selector`.
pub(crate) fn texts(host: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    all(host, selector).iter().map(|e| e.text_content().unwrap_or_default().trim().to_string()).collect()
}

/// The button under `host` whose trimmed text is `text`; panics without one.
pub(crate) fn button(host: &web_sys::HtmlElement, text: &str) -> web_sys::HtmlElement {
    all(host, "button")
        .into_iter()
        .find(|b| b.text_content().unwrap_or_default().trim() == text)
        .unwrap_or_else(|| panic!("a button named {text:?}"))
        .unchecked_into()
}

/// Clicks the first element under `host` that matches `selector`; panics
/// without one.
pub(crate) fn click(host: &web_sys::HtmlElement, selector: &str) {
    let el: web_sys::HtmlElement = host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("{selector}")).unchecked_into();
    el.click();
}

/// Opens the setup column's Tools tab, as a user does before using what it
/// holds (the trace box, the settings, the faults, Explore, the gallery):
/// the page builds that content when the tab first opens, so a test that
/// reads or sets it opens the tab first, then waits for it to be there.
pub(crate) async fn open_tools(host: &web_sys::HtmlElement) {
    click(host, "#setup-tab-tools");
    until("the Tools tab's content", || host.query_selector("#setup-tab-tools-panel #settings-title").unwrap().is_some()).await;
}

/// The run on screen has ended (its closing banner shows).
pub(crate) fn run_finished(host: &web_sys::HtmlElement) -> bool {
    !all(host, ".banner.run-end").is_empty()
}

/// Waits (bounded: 20 s of real time, polling every 20 ms) until `done`
/// holds; panics saying what it waited for.
pub(crate) async fn until(what: &str, done: impl Fn() -> bool) {
    let deadline = js_sys::Date::now() + 20_000.0;
    loop {
        if done() {
            return;
        }
        assert!(js_sys::Date::now() < deadline, "timed out waiting for {what}");
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
}

/// Sets the URL's fragment and waits for the `hashchange` it fires, so the
/// event reaches exactly the Apps mounted now, and none mounted later.
pub(crate) async fn set_hash(fragment: &str) {
    let now = window().location().hash().unwrap_or_default();
    if now.trim_start_matches('#') == fragment.trim_start_matches('#') {
        return; // no change, no event
    }
    // Through the prototype's method: a `WindowHooks` counting the page's
    // listeners does not count this one.
    let listen = js_sys::Function::new_with_args(
        "resolve",
        "EventTarget.prototype.addEventListener.call(window, 'hashchange', () => resolve(), { once: true });",
    );
    let changed = js_sys::Promise::new(&mut |resolve, _| {
        listen.call1(&JsValue::NULL, &resolve).unwrap();
    });
    window().location().set_hash(fragment).unwrap();
    wasm_bindgen_futures::JsFuture::from(changed).await.unwrap();
}

/// Records what is written to the console (`log`, `info`, `warn`, `error`,
/// `debug`), still writing it; the console is put back when it drops.
pub(crate) struct ConsoleLog {
    lines: js_sys::Array,
    _patches: Vec<Patch>,
}

impl ConsoleLog {
    /// Starts recording.
    pub(crate) fn record() -> ConsoleLog {
        let console = js_sys::Reflect::get(&window(), &"console".into()).unwrap();
        let lines = js_sys::Array::new();
        let wrap = js_sys::Function::new_with_args(
            "original, lines, target",
            "return function (...a) { lines.push(a.map(String).join(' ')); return original.apply(target, a); };",
        );
        let patches = ["log", "info", "warn", "error", "debug"]
            .into_iter()
            .map(|m| {
                let original = js_sys::Reflect::get(&console, &m.into()).unwrap();
                let replacement = js_sys::Reflect::apply(&wrap, &JsValue::NULL, &js_sys::Array::of3(&original, &lines, &console)).unwrap();
                Patch::install(&console, m, &replacement)
            })
            .collect();
        ConsoleLog { lines, _patches: patches }
    }

    /// Everything written since `record`, one line per call.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.lines.iter().filter_map(|v| v.as_string()).collect()
    }
}

/// Counts what the window holds on behalf of the page: the event listeners
/// added and not removed, per event type, and the intervals set and not
/// cleared. Put back when it drops.
pub(crate) struct WindowHooks {
    listeners: JsValue,
    intervals: JsValue,
    _patches: Vec<Patch>,
}

impl WindowHooks {
    /// Starts counting (what was there before is not counted).
    pub(crate) fn count() -> WindowHooks {
        let w: JsValue = window().into();
        let listeners = js_sys::Map::new();
        let intervals = js_sys::Set::new(&JsValue::UNDEFINED);
        let make = |args: &str, body: &str, state: &JsValue, name: &str| {
            let original = js_sys::Reflect::get(&w, &name.into()).unwrap();
            let factory = js_sys::Function::new_with_args(args, body);
            let f = js_sys::Reflect::apply(&factory, &JsValue::NULL, &js_sys::Array::of3(&original, state, &w)).unwrap();
            Patch::install(&w, name, &f)
        };
        let patches = vec![
            make(
                "original, live, target",
                "return function (type, listener, ...rest) { \
                   if (!live.has(type)) live.set(type, new Set()); live.get(type).add(listener); \
                   return original.call(target, type, listener, ...rest); };",
                &listeners,
                "addEventListener",
            ),
            make(
                "original, live, target",
                "return function (type, listener, ...rest) { \
                   if (live.has(type)) live.get(type).delete(listener); \
                   return original.call(target, type, listener, ...rest); };",
                &listeners,
                "removeEventListener",
            ),
            make(
                "original, live, target",
                "return function (...a) { const id = original.apply(target, a); live.add(id); return id; };",
                &intervals,
                "setInterval",
            ),
            make(
                "original, live, target",
                "return function (id) { live.delete(id); return original.call(target, id); };",
                &intervals,
                "clearInterval",
            ),
        ];
        WindowHooks { listeners: listeners.into(), intervals: intervals.into(), _patches: patches }
    }

    /// The listeners of event `kind` added since `count` and still there.
    pub(crate) fn listeners(&self, kind: &str) -> u32 {
        let map: &js_sys::Map = self.listeners.unchecked_ref();
        let set = map.get(&kind.into());
        if set.is_undefined() {
            0
        } else {
            set.unchecked_into::<js_sys::Set>().size()
        }
    }

    /// The intervals set since `count` and not cleared.
    pub(crate) fn intervals(&self) -> u32 {
        self.intervals.unchecked_ref::<js_sys::Set>().size()
    }
}

/// Records the errors the window reports (an exception thrown by an event
/// listener, say): `window.onerror`, put back when it drops.
pub(crate) struct WindowErrors {
    messages: js_sys::Array,
    _patch: Patch,
}

impl WindowErrors {
    /// Starts recording.
    pub(crate) fn record() -> WindowErrors {
        let messages = js_sys::Array::new();
        let factory = js_sys::Function::new_with_args("messages", "return function (message) { messages.push(String(message)); };");
        let handler = factory.call1(&JsValue::NULL, &messages).unwrap();
        WindowErrors { messages, _patch: Patch::install(&window().into(), "onerror", &handler) }
    }

    /// The errors reported since `record`.
    pub(crate) fn messages(&self) -> Vec<String> {
        self.messages.iter().filter_map(|v| v.as_string()).collect()
    }
}

macro_rules! translations {
    ($($stem:literal),+) => {
        /// The message files of 中文, 日本語 and Italiano, as the build copies
        /// them next to the page: (language, file, text).
        const TRANSLATIONS: &[(Locale, &str, &str)] = &[$(
            (Locale::Zh, concat!($stem, ".ftl"), include_str!(concat!("../../locales/zh/", $stem, ".ftl"))),
            (Locale::Ja, concat!($stem, ".ftl"), include_str!(concat!("../../locales/ja/", $stem, ".ftl"))),
            (Locale::It, concat!($stem, ".ftl"), include_str!(concat!("../../locales/it/", $stem, ".ftl"))),
        )+];
        /// The files in the order of the list above.
        const TRANSLATED_FILES: &[&str] = &[$(concat!($stem, ".ftl")),+];
    };
}
translations!("ui", "captions", "tours", "explore", "findings", "diagram", "shell", "errors", "language", "protocols");

/// The text of `locale`'s message file `file`, as the page would fetch it
/// (`None` for English, built in, and for a file the page does not fetch).
pub(crate) fn translation(locale: Locale, file: &str) -> Option<&'static str> {
    assert_eq!(Locale::Ja.files(), TRANSLATED_FILES, "tests/web_page embeds every message file the page fetches: update its list");
    TRANSLATIONS.iter().find(|(l, f, _)| *l == locale && *f == file).map(|(_, _, text)| *text)
}
