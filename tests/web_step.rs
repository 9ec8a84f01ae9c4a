//! Browser test of Step mode (`wasm-pack test --headless --chrome -- --test
//! web_step`): one Next, one event, one caption — every event of a run is
//! released by a Next of its own and told by the caption, named by the same
//! number in the caption, beside the counter and in the event log.
//! Its App is mounted and unmounted through `web_page::Page`, as in
//! `tests/web.rs`.
#![cfg(target_arch = "wasm32")]

mod web_page;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_page::{all, button, until, Page};

wasm_bindgen_test_configure!(run_in_browser);

fn text(host: &web_sys::HtmlElement, selector: &str) -> String {
    all(host, selector).first().map(|e| e.text_content().unwrap_or_default().trim().to_string()).unwrap_or_default()
}

/// The counter's "shown / recorded".
fn position(host: &web_sys::HtmlElement) -> (usize, usize) {
    let counter = text(host, ".position");
    let (a, b) = counter.split_once(" / ").unwrap_or_else(|| panic!("a counter: {counter:?}"));
    (a.parse().unwrap(), b.parse().unwrap())
}

#[wasm_bindgen_test]
async fn in_step_mode_each_next_releases_one_event_and_the_caption_tells_it() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    button(&host, "Step").click();
    let scenario: web_sys::HtmlElement =
        host.query_selector("[data-scenario=reject-plan]").unwrap().expect("the scenario").unchecked_into();
    scenario.click();
    until("the prompt to show", || position(&host) == (1, 1)).await;
    assert_eq!(text(&host, ".caption-box .caption-title"), "Run started");
    let mut titles = Vec::new();
    let mut shown = 1;
    while all(&host, ".banner.run-end").is_empty() {
        assert!(shown < 400, "the run ends");
        button(&host, "Next").click();
        until("the next event", || position(&host).1 > shown).await;
        shown += 1;
        assert_eq!(position(&host), (shown, shown), "one Next, one event");
        let number = format!("#{}", shown - 1);
        assert_eq!(text(&host, ".caption-step"), format!("Event {number}"));
        assert_eq!(text(&host, ".event-number"), number);
        assert_eq!(text(&host, ".event-log .log-row.current .log-seq"), number, "the log names it alike");
        titles.push(text(&host, ".caption-box .caption-title"));
    }
    // Every protocol transition had its own Next and its own caption.
    for told in ["Plan submitted", "plan_approval_request sent", "Plan rejected", "plan_approval_response sent", "Run finished"] {
        assert!(titles.iter().any(|t| t == told), "{told:?} was told: {titles:?}");
    }
    assert_eq!(titles.last().map(String::as_str), Some("Run finished"));
    drop(page);
}
