//! Browser test of the live panels (issue 28 §1, `wasm-pack test --headless
//! --chrome -- --test web_live_rows`): events appended to the run on screen
//! redraw the rows they changed and leave every other row's elements as
//! they were (the same DOM nodes), so a frame costs what its events touched,
//! not what the run holds. Mounts the panels, asserts, unmounts.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use team_protocols::protocol::{AgentName, Millis, RequestKind, Team, Trace};
use team_protocols::ui::state::session::Session;
use team_protocols::ui::Panels;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The element `selector` finds under `host`.
fn one(host: &web_sys::HtmlElement, selector: &str) -> web_sys::Element {
    host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("{selector} is drawn"))
}

/// The agents whose inbox (`details.inbox`, named by its summary's
/// `data-agent`) holds one of `touched`.
fn inbox_agents(touched: &[web_sys::Element]) -> std::collections::BTreeSet<String> {
    touched
        .iter()
        .filter_map(|e| e.closest("details.inbox").ok().flatten())
        .filter_map(|d| d.query_selector("summary").ok().flatten())
        .filter_map(|summary| summary.get_attribute("data-agent"))
        .collect()
}

#[wasm_bindgen_test]
async fn an_appended_event_redraws_the_rows_it_changed_and_keeps_the_others() {
    // Three teammates each asked to shut down; then bob alone approves.
    let lead = AgentName::lead();
    let names: Vec<AgentName> = ["alice", "bob", "carol"].iter().map(|n| AgentName::parse(n).unwrap()).collect();
    let mut team = Team::new("default", 7);
    let mut ids = Vec::new();
    for (i, who) in names.iter().enumerate() {
        team.spawn(who, "coder", false, Millis(20 * i as u64)).unwrap();
        ids.push(team.request_shutdown(&lead, who, Millis(20 * i as u64 + 10)).unwrap());
    }
    let before = team.trace().len();
    team.answer(RequestKind::SHUTDOWN, &ids[1], &names[1], true, "done", Millis(100)).unwrap();
    let full = team.trace().clone();

    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let s = Session::new(0.0);
    s.run.show_recorded(Trace::new(&full.team_name, full.seed), None);
    let handle = leptos::mount::mount_to(host.clone(), move || {
        provide_context(s);
        view! { <aside class="right"><Panels/></aside> }
    });
    s.run.append(full.entries()[..before].to_vec());
    leptos::task::tick().await;

    let row = |id: usize| format!("ul.requests li[data-request='{}']", ids[id]);
    let badge = |host: &web_sys::HtmlElement, id: usize| one(host, &format!("{} .badge", row(id))).text_content().unwrap_or_default();
    assert_eq!((badge(&host, 0), badge(&host, 1), badge(&host, 2)), ("pending".into(), "pending".into(), "pending".into()));
    let rows: Vec<web_sys::Element> = (0..3).map(|i| one(&host, &row(i))).collect();
    // What the append changes, as a MutationObserver on the panels records
    // it: each element changed in place (its attributes, children or text),
    // then each element added (a keyed row drawn anew). A row moved within
    // its list changes its list, not the row.
    let watch = js_sys::Function::new_with_args(
        "root",
        "const changed = [], added = []; \
         const take = (l) => { for (const m of l) { changed.push(m.target.nodeType === 1 ? m.target : m.target.parentElement); \
           for (const n of m.addedNodes) if (n.nodeType === 1) added.push(n); } }; \
         const o = new MutationObserver(take); \
         o.observe(root, { subtree: true, childList: true, attributes: true, characterData: true }); \
         return () => { take(o.takeRecords()); o.disconnect(); return [changed, added]; };",
    );
    let stop: js_sys::Function = watch.call1(&wasm_bindgen::JsValue::NULL, &host).unwrap().unchecked_into();

    s.run.append(full.entries()[before..].to_vec());
    leptos::task::tick().await;

    let found = js_sys::Array::from(&stop.call0(&wasm_bindgen::JsValue::NULL).unwrap());
    let elements = |i: u32| -> Vec<web_sys::Element> { js_sys::Array::from(&found.get(i)).iter().map(|e| e.unchecked_into()).collect() };
    let (changed, added) = (elements(0), elements(1));
    let touched: Vec<web_sys::Element> = changed.iter().chain(&added).cloned().collect();
    let under = |selector: &str, attribute: &str| -> std::collections::BTreeSet<String> {
        changed.iter().filter_map(|e| e.closest(selector).ok().flatten()).filter_map(|e| e.get_attribute(attribute)).collect()
    };
    assert_eq!(badge(&host, 1), "approved", "the answered request's row shows its new state");
    assert_eq!((badge(&host, 0), badge(&host, 2)), ("pending".into(), "pending".into()));
    assert_eq!(
        under("ul.requests li[data-request]", "data-request"),
        [ids[1].to_string()].into(),
        "only the answered request's row changed"
    );
    for i in [0, 2] {
        assert!(one(&host, &row(i)).is_same_node(Some(&rows[i])), "request {i}'s row is the one drawn before (moved at most)");
    }
    let inboxes = inbox_agents(&touched);
    assert!(inboxes.contains("lead"), "the lead's inbox, which the answer reached, changed: {inboxes:?}");
    assert!(!inboxes.contains("alice") && !inboxes.contains("carol"), "inboxes the answer did not reach stay: {inboxes:?}");
    let roster = touched.iter().filter(|e| e.closest("ul.roster").ok().flatten().is_some()).count();
    assert_eq!(roster, 0, "no member changed status or spend: the roster stays");
    drop(handle);
    host.remove();
}

/// The rows of the event log, newest first, as their `data-seq`.
fn log_seqs(host: &web_sys::HtmlElement) -> Vec<usize> {
    let rows = host.query_selector_all(".event-log li.log-row").unwrap();
    (0..rows.length()).filter_map(|i| rows.item(i)?.dyn_into::<web_sys::Element>().ok()?.get_attribute("data-seq")?.parse().ok()).collect()
}

/// Waits (a task at a time) until `ok` holds, or panics naming `what`.
async fn until(what: &str, mut ok: impl FnMut() -> bool) {
    for _ in 0..200 {
        if ok() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(5).await;
    }
    panic!("{what} did not happen");
}

#[wasm_bindgen_test]
async fn the_event_log_builds_its_newest_rows_first_and_the_older_ones_as_it_is_scrolled_or_entered() {
    use team_protocols::ui::panels::event_log::{FIRST_ROWS, SHOWN};
    // A run of 300 events: far more than the log holds.
    let lead = AgentName::lead();
    let alice = AgentName::parse("alice").unwrap();
    let mut team = Team::new("default", 7);
    team.spawn(&alice, "coder", false, Millis(0)).unwrap();
    let mut at = 1;
    while team.trace().len() < 300 {
        team.send(&lead, &alice, "message", &format!("note {at}"), Millis(at)).unwrap();
        at += 1;
    }
    let trace = team.trace().clone();
    let len = trace.len();

    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let s = Session::new(0.0);
    s.run.show_recorded(trace.clone(), None);
    let handle = leptos::mount::mount_to(host.clone(), move || {
        provide_context(s);
        view! { <aside class="right"><Panels/></aside> }
    });
    leptos::task::tick().await;
    let newest: Vec<usize> = (len - FIRST_ROWS..len).rev().collect();
    assert_eq!(log_seqs(&host), newest, "only the newest rows are built, newest first");

    // The list as the page styles it: a box that scrolls.
    let list: web_sys::HtmlElement = one(&host, "ol.event-log").unchecked_into();
    list.style().set_property("max-height", "200px").unwrap();
    list.style().set_property("overflow-y", "auto").unwrap();
    assert!(list.scroll_height() > list.client_height() + 400, "the built rows overflow the box");
    let scroll_to = |top: i32| {
        list.set_scroll_top(top);
        list.dispatch_event(&web_sys::Event::new("scroll").unwrap()).unwrap();
    };
    scroll_to(0);
    leptos::task::tick().await;
    assert_eq!(log_seqs(&host).len(), FIRST_ROWS, "a scroll far from the end builds nothing");
    scroll_to(list.scroll_height());
    until("older rows built by scrolling to the end", || log_seqs(&host).len() > FIRST_ROWS).await;
    let more = log_seqs(&host);
    assert!(more.len() < SHOWN, "a scroll builds some more, not all: {}", more.len());
    assert_eq!(more, (len - more.len()..len).rev().collect::<Vec<_>>(), "the rows stay the newest, in order");

    // The keyboard entering the list builds every row it holds.
    let first: web_sys::HtmlElement = one(&host, ".event-log li.log-row").unchecked_into();
    first.focus().unwrap();
    until("every row built once the list has focus", || log_seqs(&host).len() == SHOWN).await;
    assert_eq!(log_seqs(&host), (len - SHOWN..len).rev().collect::<Vec<_>>());

    // Another run drawn starts small again.
    s.run.show_recorded(trace, None);
    until("a run drawn anew to build its newest rows only", || log_seqs(&host).len() == FIRST_ROWS).await;
    drop(handle);
    host.remove();
}
