//! Browser tests (`wasm-pack test --headless --chrome`): mount the app and
//! assert on the DOM it draws.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use team_protocols::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn mount_app() -> web_sys::HtmlElement {
    let document = document();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    leptos::mount::mount_to(host.clone(), App).forget();
    host
}

fn texts(host: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length()).map(|i| list.item(i).unwrap().text_content().unwrap_or_default()).collect()
}

#[wasm_bindgen_test]
async fn shell_shows_the_title_and_the_protocol_vocabulary() {
    let host = mount_app();
    leptos::task::tick().await;
    assert_eq!(texts(&host, "h1"), ["Team Protocols Playground"]);
    assert_eq!(texts(&host, ".fsm li"), ["pending", "approved", "rejected"]);
    assert_eq!(texts(&host, ".msg-types li").len(), 6);
    assert!(texts(&host, ".msg-types li").contains(&"plan_approval_request".to_string()));
}

#[wasm_bindgen_test]
async fn shell_runs_the_shutdown_handshake_through_the_core_in_the_browser() {
    let host = mount_app();
    leptos::task::tick().await;
    let log = texts(&host, ".event-log li");
    let request = log.iter().find(|l| l.contains("shutdown_request")).expect("a shutdown_request line");
    let response = log.iter().find(|l| l.contains("shutdown_response")).expect("a shutdown_response line");
    let id_of = |line: &str| line.rsplit('[').next().unwrap().trim_end_matches(']').to_string();
    assert_eq!(id_of(request).len(), 8);
    assert_eq!(id_of(request), id_of(response), "both messages carry the same request_id");
    assert!(log.iter().any(|l| l.contains("pending -> approved (by alice)")));
    assert!(texts(&host, "[role=alert]").is_empty(), "no error shown");
}
