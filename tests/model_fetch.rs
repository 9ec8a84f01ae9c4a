//! Browser tests of the `fetch` transport (`wasm-pack test --headless
//! --chrome -- --test model_fetch`). No network is used: replies come from
//! `data:` URLs, and an unreachable server is port 9 on loopback, a port
//! the Fetch standard bars (a "bad port"): the browser refuses it before
//! connecting, whatever listens there.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use team_protocols::model::anthropic;
use team_protocols::model::fetch::FetchTransport;
use team_protocols::model::http::{Headers, HttpTransport};
use team_protocols::model::{CancelToken, ModelError, StopReason};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const TOOL_USE: &str = include_str!("fixtures/anthropic_stream_tool_use.sse");

fn data_url(mime: &str, body: &str) -> String {
    let encoded: String = js_sys::encode_uri_component(body).into();
    format!("data:{mime},{encoded}")
}

#[wasm_bindgen_test]
async fn a_streamed_reply_is_read_chunk_by_chunk_from_fetch() {
    let url = data_url("text/event-stream", TOOL_USE);
    let headers = Headers::new().with("content-type", "application/json");
    let reply = FetchTransport.post(&url, &headers, "{}".into(), CancelToken::new()).await.expect("the data: URL answers");
    assert_eq!(reply.status, 200);
    assert!(reply.is_event_stream(), "{:?}", reply.headers);
    let text = Rc::new(std::cell::RefCell::new(String::new()));
    let seen = text.clone();
    let response = team_protocols::model::provider::read_reply::<anthropic::Anthropic>(
        reply,
        Rc::new(move |t: &str| seen.borrow_mut().push_str(t)),
        CancelToken::new(),
        true,
    )
    .await
    .unwrap();
    assert_eq!(response.stop_reason, StopReason::ToolUse);
    assert!(text.borrow().contains("caf\u{e9} notes \u{2713}"));
}

#[wasm_bindgen_test]
async fn an_unreachable_server_is_a_network_error() {
    let e = FetchTransport.post("http://127.0.0.1:9/v1/messages", &Headers::new(), "{}".into(), CancelToken::new()).await.unwrap_err();
    assert!(matches!(&e, ModelError::Network(m) if m.contains("could not reach http://127.0.0.1:9/v1/messages")), "{e:?}");
}

#[wasm_bindgen_test]
async fn stop_before_sending_sends_nothing() {
    let cancel = CancelToken::new();
    cancel.cancel();
    let e = FetchTransport.post("http://127.0.0.1:9/", &Headers::new(), "{}".into(), cancel).await.unwrap_err();
    assert_eq!(e, ModelError::Cancelled);
}

#[wasm_bindgen_test]
async fn stop_after_the_reply_started_aborts_the_body() {
    let cancel = CancelToken::new();
    let url = data_url("text/event-stream", TOOL_USE);
    let mut reply = FetchTransport.post(&url, &Headers::new(), "{}".into(), cancel.clone()).await.unwrap();
    cancel.cancel(); // the AbortController errors the body stream
    assert_eq!(reply.body.next_chunk().await.unwrap_err(), ModelError::Cancelled);
}
