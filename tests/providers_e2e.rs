//! End-to-end browser tests of the real providers (`AnthropicModel`,
//! `OpenAiModel`) over the real `fetch` transport, against the fake model
//! server in `tests/fake_model_server.py` on loopback.
//!
//! `scripts/test.sh` starts the server and passes its address at compile
//! time as `FAKE_MODEL_URL` (default `http://127.0.0.1:8787`). By hand:
//!
//! ```sh
//! python3 tests/fake_model_server.py &   # 127.0.0.1:8787
//! wasm-pack test --headless --chrome -- --locked --test providers_e2e
//! ```
//!
//! Every test talks to the server under a scope of its own
//! (`{FAKE}/scope/<unique>/...`), so it reads back only its own requests and
//! fault counters, also when the server outlives one run of the suite.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;
use team_protocols::model::anthropic::{AnthropicConfig, AnthropicModel};
use team_protocols::model::fetch::FetchTransport;
use team_protocols::model::http::ApiKey;
use team_protocols::model::openai::{OpenAiConfig, OpenAiModel};
use team_protocols::model::retry::RetryPolicy;
use team_protocols::model::sleep::TimerSleeper;
use team_protocols::model::{CancelToken, Model, ModelError, ModelRequest, ModelResponse, StopReason, TextSink, Turn};
use team_protocols::protocol::{check, AgentName, Event, MemberStatus, MessageType, RequestKind, RequestStatus, Trace};
use team_protocols::runtime::tools::{self, AgentRole};
use team_protocols::runtime::{browser, Runtime, RuntimeConfig};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Where the fake model server listens.
const FAKE: &str = match option_env!("FAKE_MODEL_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:8787",
};

/// A made-up key: it must reach the server in its header and nowhere else.
const KEY: &str = "sk-ant-e2e-0123456789-SECRET-key";

const PROMPT: &str = "Spawn alice as a coder to write the notes. Then request her shutdown.";

// ------------------------------------------------------------------ helpers

fn now_ms() -> f64 {
    js_sys::Date::now()
}

async fn sleep_ms(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

/// A scope no other test (and no earlier run against the same server) uses.
fn new_scope(name: &str) -> String {
    format!("{name}-{:010}", (js_sys::Math::random() * 1e10) as u64)
}

/// The base of a scope, with an optional fault mode.
fn base(scope: &str, fault: Option<&str>) -> String {
    match fault {
        Some(f) => format!("{FAKE}/scope/{scope}/fault/{f}"),
        None => format!("{FAKE}/scope/{scope}"),
    }
}

/// How long the server's `slow` fault holds a reply (its `--slow-seconds`,
/// 20 by default, as `scripts/test.sh` starts it): a Stop that waited for
/// the reply would take about this long.
const SLOW_REPLY_MS: f64 = 20_000.0;

/// Retries fast: the waits under test are the server's `retry-after`.
fn fast_retries() -> RetryPolicy {
    RetryPolicy { max_attempts: 3, base_delay_ms: 20, max_delay_ms: 100, max_retry_after_ms: 5_000, server_error_retries: 1 }
}

fn anthropic_config(scope: &str, fault: Option<&str>, stream: bool) -> AnthropicConfig {
    AnthropicConfig { base_url: base(scope, fault), model: "claude-fake-e2e".into(), max_tokens: 1024, stream, api_key: ApiKey::new(KEY) }
}

fn anthropic(config: &AnthropicConfig) -> Rc<AnthropicModel<FetchTransport>> {
    Rc::new(AnthropicModel::new(config.clone(), FetchTransport, Rc::new(TimerSleeper)).with_retry_policy(fast_retries()))
}

fn openai_config(scope: &str, fault: Option<&str>, stream: bool, key: Option<&str>) -> OpenAiConfig {
    OpenAiConfig {
        base_url: format!("{}/v1", base(scope, fault)),
        model: "gpt-fake-e2e".into(),
        max_tokens: 1024,
        stream,
        api_key: key.map(ApiKey::new).unwrap_or_default(),
    }
}

fn openai(config: &OpenAiConfig) -> Rc<OpenAiModel<FetchTransport>> {
    Rc::new(OpenAiModel::new(config.clone(), FetchTransport, Rc::new(TimerSleeper)).with_retry_policy(fast_retries()))
}

/// GETs JSON from the fake server.
async fn get_json(url: &str) -> Result<Value, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(|e| format!("could not reach {url}: {e:?}"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a Response".to_string())?;
    let text = JsFuture::from(response.text().map_err(|e| format!("{e:?}"))?).await.map_err(|e| format!("{e:?}"))?;
    serde_json::from_str(&text.as_string().unwrap_or_default()).map_err(|e| e.to_string())
}

/// Fails the test at once, with what to do, when the server is not there.
async fn require_server() {
    let health = get_json(&format!("{FAKE}/__health")).await;
    assert!(
        matches!(&health, Ok(v) if v["ok"] == true),
        "the fake model server does not answer at {FAKE} ({health:?}); start it with `python3 tests/fake_model_server.py` or run ./scripts/test.sh"
    );
}

/// Everything the server received under `scope`, in order.
async fn received(scope: &str) -> Vec<Value> {
    let v = get_json(&format!("{FAKE}/__requests?scope={scope}")).await.expect("the fake server lists its requests");
    v.as_array().cloned().expect("a JSON array")
}

/// The model calls (POSTs) the server received under `scope`.
async fn posts(scope: &str) -> Vec<Value> {
    received(scope).await.into_iter().filter(|r| r["method"] == "POST").collect()
}

/// Waits (up to `ms` of real time) until `done` holds.
async fn until<F, Fut>(what: &str, ms: u32, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = now_ms() + f64::from(ms);
    while now_ms() < deadline {
        if done().await {
            return;
        }
        sleep_ms(10).await;
    }
    panic!("timed out after {ms} ms waiting for {what}");
}

/// Lets a run finish (bounded: 30 s of real time, for a loaded machine).
async fn settle(rt: &Runtime) {
    let deadline = now_ms() + 30_000.0;
    while rt.is_running() {
        assert!(now_ms() < deadline, "the run did not finish; trace so far:\n{}", rt.trace().to_json());
        sleep_ms(5).await;
    }
}

/// Stops a runtime and lets its tasks end (bounded: well under the slow
/// reply, so a Stop that waited for it fails here).
async fn stop_and_drain(rt: &Runtime) {
    rt.stop();
    let deadline = now_ms() + SLOW_REPLY_MS / 2.0;
    while rt.live_tasks() > 0 {
        assert!(now_ms() < deadline, "{} tasks still alive after Stop", rt.live_tasks());
        sleep_ms(5).await;
    }
}

/// Runs the team on `model` with `prompt` until it is quiet.
async fn run_team(model: Rc<dyn Model>, prompt: &str) -> Runtime {
    let rt = Runtime::new(RuntimeConfig::default(), model, browser::real_time_host());
    rt.submit_prompt(prompt).unwrap();
    settle(&rt).await;
    rt
}

fn failures(trace: &Trace) -> Vec<(String, String)> {
    trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ModelFailed { agent, error } => Some((agent.as_str().to_string(), error.clone())),
            _ => None,
        })
        .collect()
}

fn simple_request() -> ModelRequest {
    ModelRequest {
        system: tools::lead_system_prompt(),
        messages: vec![Turn::user_text("Say hello.")],
        tools: tools::schemas(AgentRole::Lead).into(),
        max_tokens: 256,
    }
}

/// A text sink that keeps every delta.
fn sink() -> (TextSink, Rc<RefCell<Vec<String>>>) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    (Rc::new(move |t: &str| s.borrow_mut().push(t.to_string())), seen)
}

fn text_of(r: &ModelResponse) -> String {
    Turn { role: team_protocols::model::Role::Assistant, content: r.content.clone() }.text()
}

// ------------------------------------------------------------ assertions

/// The shutdown handshake completed cleanly, as the trace tells it.
fn assert_clean_handshake(rt: &Runtime) {
    let trace = rt.trace();
    assert_eq!(failures(&trace), vec![], "no model call failed");
    assert_eq!(check(&trace), vec![], "the checker finds nothing wrong");
    let alice = AgentName::parse("alice").unwrap();
    assert_eq!(rt.with_team(|t| t.roster().status(&alice)), Some(MemberStatus::Shutdown), "alice shut down");
    let approved: Vec<_> = trace
        .entries()
        .iter()
        .filter(|e| matches!(&e.event, Event::RequestTransitioned { request_kind: RequestKind::SHUTDOWN, by, to: RequestStatus::Approved, .. } if *by == alice))
        .collect();
    assert_eq!(approved.len(), 1, "alice approved one shutdown request");
    let types: Vec<MessageType> = trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::MessageSent { message } => Some(message.msg_type),
            _ => None,
        })
        .collect();
    assert_eq!(types, [MessageType::SHUTDOWN_REQUEST, MessageType::SHUTDOWN_RESPONSE]);
    let spawned =
        trace.entries().iter().any(|e| matches!(&e.event, Event::MemberSpawned { name, role, .. } if *name == alice && role == "coder"));
    assert!(spawned, "the lead spawned alice as a coder");
    let replies: Vec<(u64, u64)> = trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ModelReplied { input_tokens, output_tokens, .. } => Some((*input_tokens, *output_tokens)),
            _ => None,
        })
        .collect();
    assert!(replies.len() >= 4, "lead and alice each called the model: {replies:?}");
    assert!(replies.iter().all(|&(i, o)| i > 0 && o > 0), "token usage from the server is in the trace: {replies:?}");
    assert!(matches!(trace.entries().last().unwrap().event, Event::RunFinished));
}

/// The key is in no trace, no URL the server saw, no body, no `Debug`.
fn assert_key_not_leaked(trace: &Trace, records: &[Value], debug_outputs: &[String]) {
    assert!(!trace.to_json().contains(KEY), "the key is in the trace");
    for r in records {
        let path = r["path"].as_str().unwrap_or_default();
        assert!(!path.contains(KEY) && !path.contains("SECRET"), "the key is in a URL: {path}");
        assert!(!r["body"].to_string().contains(KEY), "the key is in a request body");
    }
    for d in debug_outputs {
        assert!(!d.contains(KEY) && !d.contains("SECRET"), "the key is in a Debug output: {d}");
    }
}

fn system_of(body: &Value, api: &str) -> String {
    match api {
        "anthropic" => body["system"].as_str().unwrap_or_default().to_string(),
        _ => body["messages"][0]["content"].as_str().filter(|_| body["messages"][0]["role"] == "system").unwrap_or_default().to_string(),
    }
}

fn tool_names(body: &Value, api: &str) -> Vec<String> {
    body["tools"]
        .as_array()
        .expect("tools are sent")
        .iter()
        .map(|t| {
            if api == "openai" {
                assert_eq!(t["type"], "function");
                assert_eq!(t["function"]["parameters"]["type"], "object");
                t["function"]["name"].as_str().unwrap().to_string()
            } else {
                assert_eq!(t["input_schema"]["type"], "object");
                assert!(t["description"].as_str().is_some_and(|d| !d.is_empty()));
                t["name"].as_str().unwrap().to_string()
            }
        })
        .collect()
}

/// Anthropic: every `tool_result` opens the user message right after the
/// assistant message holding its `tool_use`, and every `tool_use` is
/// answered there.
fn assert_anthropic_results_follow_calls(body: &Value) {
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "user");
    for (i, m) in messages.iter().enumerate() {
        let blocks = m["content"].as_array().cloned().unwrap_or_default();
        let of = |kind: &str, field: &str| -> Vec<String> {
            blocks.iter().filter(|b| b["type"] == kind).map(|b| b[field].as_str().unwrap_or_default().to_string()).collect()
        };
        if i > 0 {
            assert_ne!(messages[i - 1]["role"], m["role"], "roles alternate at message {i}");
        }
        if m["role"] == "user" {
            let results = of("tool_result", "tool_use_id");
            let calls: Vec<String> = if i == 0 {
                vec![]
            } else {
                messages[i - 1]["content"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|b| b["type"] == "tool_use")
                    .map(|b| b["id"].as_str().unwrap().to_string())
                    .collect()
            };
            assert_eq!(results, calls, "message {i}: the results answer exactly the previous message's calls, in order");
            let kinds: Vec<&str> = blocks.iter().map(|b| b["type"].as_str().unwrap()).collect();
            assert!(kinds.iter().take(results.len()).all(|k| *k == "tool_result"), "message {i}: results come first: {kinds:?}");
        } else {
            assert!(of("tool_result", "tool_use_id").is_empty(), "no results in an assistant message");
        }
    }
    assert_eq!(messages.last().unwrap()["role"], "user", "the conversation ends with the user");
}

/// OpenAI: an assistant message with `tool_calls` is followed at once by
/// one `tool` message per call, in order.
fn assert_openai_results_follow_calls(body: &Value) {
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    let mut i = 0;
    while i < messages.len() {
        let m = &messages[i];
        assert_ne!(m["role"], "tool", "message {i}: a tool message without its call right before");
        let calls: Vec<String> =
            m["tool_calls"].as_array().map(|c| c.iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()).unwrap_or_default();
        for (k, id) in calls.iter().enumerate() {
            let r = &messages[i + 1 + k];
            assert_eq!(r["role"], "tool", "message {}: the result of {id} follows its call", i + 1 + k);
            assert_eq!(r["tool_call_id"].as_str(), Some(id.as_str()));
        }
        i += 1 + calls.len();
    }
}

/// What the server saw of a whole team run: headers, tools, ordering.
fn assert_faithful_requests(records: &[Value], api: &str, stream: bool, key: Option<&str>) {
    let posts: Vec<&Value> = records.iter().filter(|r| r["method"] == "POST").collect();
    assert!(posts.len() >= 4, "lead and teammate calls reached the server: {}", posts.len());
    let (mut lead, mut mate) = (Vec::new(), Vec::new());
    for r in &posts {
        assert!(r.get("rejected").is_none(), "the server refused a request: {}", r["rejected"]);
        let h = &r["headers"];
        assert!(h["content-type"].as_str().unwrap_or_default().starts_with("application/json"), "content-type: {}", h["content-type"]);
        let body = &r["body"];
        assert_eq!(body["stream"], stream);
        assert_eq!(body["max_tokens"], 1024);
        if api == "anthropic" {
            assert!(r["path"].as_str().unwrap().ends_with("/v1/messages"));
            assert_eq!(h["x-api-key"].as_str(), key, "the key travels in x-api-key");
            assert_eq!(h["anthropic-version"], "2023-06-01");
            assert_eq!(h["anthropic-dangerous-direct-browser-access"], "true");
            assert!(h.get("authorization").is_none());
            assert_anthropic_results_follow_calls(body);
        } else {
            assert!(r["path"].as_str().unwrap().ends_with("/v1/chat/completions"));
            let bearer = key.map(|k| format!("Bearer {k}"));
            assert_eq!(h["authorization"].as_str(), bearer.as_deref(), "the key travels as a bearer token, only when given");
            assert!(h.get("x-api-key").is_none());
            if stream {
                assert_eq!(body["stream_options"]["include_usage"], true);
            } else {
                assert!(body.get("stream_options").is_none());
            }
            assert_openai_results_follow_calls(body);
        }
        let system = system_of(body, api);
        if system.starts_with("You are a team lead") {
            lead.push(*r);
            assert_eq!(tool_names(body, api), tools::tool_names(AgentRole::Lead), "the lead offers its 12 tools");
        } else if system.starts_with("You are 'alice'") {
            mate.push(*r);
            assert_eq!(tool_names(body, api), tools::tool_names(AgentRole::Teammate), "a teammate offers its 8 tools");
        } else {
            panic!("a request from nobody: {system:?}");
        }
    }
    assert!(lead.len() >= 3 && mate.len() >= 2, "lead {} calls, alice {}", lead.len(), mate.len());
    // The lead's last call holds both of its tool calls and their results.
    let last = lead.last().unwrap()["body"].to_string();
    for needle in ["spawn_teammate", "shutdown_request", "Spawned 'alice'", "Shutdown request"] {
        assert!(last.contains(needle), "the lead's last request holds {needle:?}");
    }
    // Alice's last call holds the shutdown request she answered.
    assert!(mate.last().unwrap()["body"].to_string().contains("shutdown_request"));
}

// ------------------------------------------------------------ (a) Anthropic

#[wasm_bindgen_test]
async fn anthropic_streaming_team_completes_a_shutdown_handshake_over_the_fake() {
    require_server().await;
    let scope = new_scope("anthropic-stream");
    let config = anthropic_config(&scope, None, true);
    let model = anthropic(&config);
    let rt = run_team(model.clone(), PROMPT).await;
    assert_clean_handshake(&rt);
    let records = received(&scope).await;
    assert_faithful_requests(&records, "anthropic", true, Some(KEY));
    // The browser asked first (CORS preflight) for the headers it sends.
    let preflight = records.iter().find(|r| r["method"] == "OPTIONS").expect("a CORS preflight");
    let asked = preflight["headers"]["access-control-request-headers"].as_str().unwrap_or_default().to_string();
    for h in ["x-api-key", "anthropic-version", "anthropic-dangerous-direct-browser-access", "content-type"] {
        assert!(asked.contains(h), "the preflight asks for {h}: {asked}");
    }
    assert_key_not_leaked(
        &rt.trace(),
        &records,
        &[format!("{config:?}"), format!("{config:#?}"), format!("{model:?}"), format!("{:?}", config.api_key)],
    );
    stop_and_drain(&rt).await;
}

#[wasm_bindgen_test]
async fn anthropic_non_streaming_team_completes_a_shutdown_handshake() {
    require_server().await;
    let scope = new_scope("anthropic-json");
    let config = anthropic_config(&scope, None, false);
    let model = anthropic(&config);
    let rt = run_team(model.clone(), PROMPT).await;
    assert_clean_handshake(&rt);
    let records = received(&scope).await;
    assert_faithful_requests(&records, "anthropic", false, Some(KEY));
    assert_key_not_leaked(&rt.trace(), &records, &[format!("{config:?}"), format!("{model:?}")]);
    stop_and_drain(&rt).await;
}

#[wasm_bindgen_test]
async fn anthropic_streamed_text_arrives_in_pieces_and_tool_input_is_joined() {
    require_server().await;
    let scope = new_scope("anthropic-pieces");
    let model = anthropic(&anthropic_config(&scope, None, true));
    let request = ModelRequest { messages: vec![Turn::user_text(PROMPT)], ..simple_request() };
    let (on_text, seen) = sink();
    let reply = model.complete(&request, on_text, CancelToken::new()).await.unwrap();
    assert_eq!(reply.stop_reason, StopReason::ToolUse);
    assert!(seen.borrow().len() > 1, "text came as several deltas: {:?}", seen.borrow());
    assert_eq!(seen.borrow().concat(), text_of(&reply));
    assert!(text_of(&reply).contains("caf\u{e9} notes \u{2713}"), "multi-byte text split across chunks survives: {}", text_of(&reply));
    let (_, name, input) = reply.tool_uses().next().unwrap();
    assert_eq!(name, "spawn_teammate");
    assert_eq!(input["name"], "alice");
    assert!(input["prompt"].as_str().unwrap().contains("caf\u{e9}"));
    assert!(reply.usage.input_tokens > 0 && reply.usage.output_tokens > 0);
}

// ------------------------------------------------------------ (b) OpenAI

#[wasm_bindgen_test]
async fn openai_non_streaming_team_without_a_key_completes_a_shutdown_handshake() {
    require_server().await;
    let scope = new_scope("openai-json");
    let config = openai_config(&scope, None, false, None);
    let rt = run_team(openai(&config), PROMPT).await;
    assert_clean_handshake(&rt);
    let records = received(&scope).await;
    assert_faithful_requests(&records, "openai", false, None);
    stop_and_drain(&rt).await;
}

#[wasm_bindgen_test]
async fn openai_streaming_team_with_a_key_completes_a_shutdown_handshake() {
    require_server().await;
    let scope = new_scope("openai-stream");
    let config = openai_config(&scope, None, true, Some(KEY));
    let model = openai(&config);
    let rt = run_team(model.clone(), PROMPT).await;
    assert_clean_handshake(&rt);
    let records = received(&scope).await;
    assert_faithful_requests(&records, "openai", true, Some(KEY));
    assert_key_not_leaked(&rt.trace(), &records, &[format!("{config:?}"), format!("{model:?}")]);
    stop_and_drain(&rt).await;
}

// ------------------------------------------------------------ (c) faults

#[wasm_bindgen_test]
async fn a_429_with_retry_after_is_waited_out_then_succeeds() {
    require_server().await;
    for (api, scope) in [("anthropic", new_scope("f429-anthropic")), ("openai", new_scope("f429-openai"))] {
        let model: Rc<dyn Model> = if api == "anthropic" {
            anthropic(&anthropic_config(&scope, Some("429"), true))
        } else {
            openai(&openai_config(&scope, Some("429"), true, Some(KEY)))
        };
        let started = now_ms();
        let reply = model.complete(&simple_request(), Rc::new(|_: &str| {}), CancelToken::new()).await;
        let waited = now_ms() - started;
        let reply = reply.unwrap_or_else(|e| panic!("{api}: the retry succeeds, got {e}"));
        assert_eq!(reply.stop_reason, StopReason::EndTurn);
        let posts = posts(&scope).await;
        assert_eq!(posts.len(), 2, "{api}: one 429, one success");
        assert_eq!(posts[0]["body"], posts[1]["body"], "{api}: the retry sends the same request");
        // The policy's own backoff is 10-20 ms: a wait of a second means the
        // exposed `retry-after: 1` header was read and honoured.
        assert!(waited >= 950.0, "{api}: waited only {waited} ms");
    }
}

#[wasm_bindgen_test]
async fn a_529_is_retried_then_succeeds() {
    require_server().await;
    for (api, scope, stream) in [("anthropic", new_scope("f529-anthropic"), false), ("openai", new_scope("f529-openai"), true)] {
        let model: Rc<dyn Model> = if api == "anthropic" {
            anthropic(&anthropic_config(&scope, Some("529"), stream))
        } else {
            openai(&openai_config(&scope, Some("529"), stream, None))
        };
        let reply = model.complete(&simple_request(), Rc::new(|_: &str| {}), CancelToken::new()).await;
        assert!(reply.is_ok(), "{api}: {reply:?}");
        assert_eq!(posts(&scope).await.len(), 2, "{api}: one 529, one success");
    }
}

#[wasm_bindgen_test]
async fn a_401_is_a_model_failure_that_says_the_key_was_refused() {
    require_server().await;
    let scope = new_scope("f401");
    let config = anthropic_config(&scope, Some("401"), true);
    let rt = run_team(anthropic(&config), "Say hello.").await;
    let trace = rt.trace();
    let failed = failures(&trace);
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].0, "lead");
    assert!(failed[0].1.contains("the key was refused"), "{}", failed[0].1);
    assert_eq!(check(&trace), vec![]);
    let records = received(&scope).await;
    assert_eq!(records.iter().filter(|r| r["method"] == "POST").count(), 1, "a refused key is not retried");
    assert_key_not_leaked(&trace, &records, &[format!("{config:?}")]);
    stop_and_drain(&rt).await;
    // The OpenAI dialect of the same refusal.
    let scope = new_scope("f401-openai");
    let e = openai(&openai_config(&scope, Some("401"), false, Some(KEY)))
        .complete(&simple_request(), Rc::new(|_: &str| {}), CancelToken::new())
        .await
        .unwrap_err();
    assert!(matches!(&e, ModelError::Unauthorized(_)) && e.to_string().contains("the key was refused"), "{e:?}");
}

#[wasm_bindgen_test]
async fn a_server_that_echoes_the_key_in_its_refusal_does_not_put_it_in_the_trace() {
    require_server().await;
    for (api, scope) in [("anthropic", new_scope("f401-echo-a")), ("openai", new_scope("f401-echo-o"))] {
        let model: Rc<dyn Model> = if api == "anthropic" {
            anthropic(&anthropic_config(&scope, Some("401-echo"), true))
        } else {
            openai(&openai_config(&scope, Some("401-echo"), false, Some(KEY)))
        };
        let rt = run_team(model, "Say hello.").await;
        let trace = rt.trace();
        let failed = failures(&trace);
        assert_eq!(failed.len(), 1, "{api}: {failed:?}");
        assert!(failed[0].1.contains("the key was refused") && failed[0].1.contains("<redacted>"), "{api}: {}", failed[0].1);
        let records = received(&scope).await;
        assert_key_not_leaked(&trace, &records, &failed.iter().map(|f| f.1.clone()).collect::<Vec<_>>());
        stop_and_drain(&rt).await;
    }
}

#[wasm_bindgen_test]
async fn a_malformed_body_is_a_model_failure_with_a_clear_error() {
    require_server().await;
    let scope = new_scope("fmalformed");
    let rt = run_team(anthropic(&anthropic_config(&scope, Some("malformed"), true)), "Say hello.").await;
    let failed = failures(&rt.trace());
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(failed[0].1.starts_with("the model's reply could not be read"), "{}", failed[0].1);
    assert_eq!(check(&rt.trace()), vec![]);
    assert_eq!(posts(&scope).await.len(), 1, "an unreadable reply is not retried");
    stop_and_drain(&rt).await;
    // Non-streaming Anthropic and both OpenAI forms.
    let cases: Vec<(String, Rc<dyn Model>)> = vec![
        ("anthropic json".into(), anthropic(&anthropic_config(&new_scope("fm-a"), Some("malformed"), false))),
        ("openai stream".into(), openai(&openai_config(&new_scope("fm-o"), Some("malformed"), true, None))),
        ("openai json".into(), openai(&openai_config(&new_scope("fm-oj"), Some("malformed"), false, None))),
    ];
    for (what, model) in cases {
        let e = model.complete(&simple_request(), Rc::new(|_: &str| {}), CancelToken::new()).await.unwrap_err();
        assert!(matches!(&e, ModelError::Malformed(m) if m.contains("not valid JSON")), "{what}: {e:?}");
    }
}

#[wasm_bindgen_test]
async fn an_error_event_mid_stream_is_a_model_failure() {
    require_server().await;
    let scope = new_scope("fmidstream");
    let rt = run_team(anthropic(&anthropic_config(&scope, Some("midstream-error"), true)), "Say hello.").await;
    let failed = failures(&rt.trace());
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(failed[0].1.contains("overloaded_error"), "{}", failed[0].1);
    assert_eq!(posts(&scope).await.len(), 1, "text was already shown: the error is reported, not retried");
    assert_eq!(check(&rt.trace()), vec![]);
    stop_and_drain(&rt).await;
    // OpenAI: an error object in the stream after some text.
    let scope_o = new_scope("fmidstream-openai");
    let (on_text, seen) = sink();
    let e = openai(&openai_config(&scope_o, Some("midstream-error"), true, None))
        .complete(&simple_request(), on_text, CancelToken::new())
        .await
        .unwrap_err();
    assert!(matches!(&e, ModelError::Http { status: 503, message } if message.contains("overloaded")), "{e:?}");
    assert_eq!(seen.borrow().concat(), "Here is the first part");
    // A non-streamed body cut off by a dropped connection.
    let e = anthropic(&anthropic_config(&new_scope("fmidstream-json"), Some("midstream-error"), false))
        .complete(&simple_request(), Rc::new(|_: &str| {}), CancelToken::new())
        .await
        .unwrap_err();
    assert!(matches!(&e, ModelError::Network(m) if m.contains("cut off")), "{e:?}");
}

#[wasm_bindgen_test]
async fn stop_during_a_slow_reply_aborts_the_request_and_ends_every_task() {
    require_server().await;
    let scope = new_scope("fslow");
    let rt = Runtime::new(RuntimeConfig::default(), anthropic(&anthropic_config(&scope, Some("slow"), true)), browser::real_time_host());
    rt.submit_prompt(PROMPT).unwrap();
    until("the slow request to reach the server", 15_000, || {
        let scope = scope.clone();
        async move { posts(&scope).await.len() == 1 }
    })
    .await;
    assert!(rt.is_running());
    let stopped_at = now_ms();
    stop_and_drain(&rt).await;
    assert_eq!(rt.live_tasks(), 0);
    assert!(now_ms() - stopped_at < SLOW_REPLY_MS / 2.0, "Stop did not wait for the slow reply");
    let trace = rt.trace();
    assert!(failures(&trace).is_empty(), "a cancelled call is not a failure: {:?}", failures(&trace));
    assert!(!trace.entries().iter().any(|e| matches!(e.event, Event::ModelReplied { .. })));
    // The AbortController closed the connection: the server noticed.
    until("the server to see the client hang up", 10_000, || {
        let scope = scope.clone();
        async move { posts(&scope).await.first().is_some_and(|r| r["client_gone"] == true) }
    })
    .await;
    assert_eq!(posts(&scope).await.len(), 1, "nothing was sent after Stop");
    assert!(!trace.to_json().contains(KEY));
}

#[wasm_bindgen_test]
async fn cancelling_a_slow_openai_call_returns_cancelled_at_once() {
    require_server().await;
    let scope = new_scope("fslow-openai");
    let model = openai(&openai_config(&scope, Some("slow"), false, None));
    let cancel = CancelToken::new();
    let stopper = cancel.clone();
    let watched = scope.clone();
    // Cancelled once the server holds the request (not after a fixed
    // time, which a loaded machine could reach before sending it).
    wasm_bindgen_futures::spawn_local(async move {
        let deadline = now_ms() + 15_000.0;
        while posts(&watched).await.is_empty() && now_ms() < deadline {
            sleep_ms(10).await;
        }
        stopper.cancel();
    });
    let started = now_ms();
    let e = model.complete(&simple_request(), Rc::new(|_: &str| {}), cancel).await.unwrap_err();
    assert_eq!(e, ModelError::Cancelled);
    assert!(now_ms() - started < SLOW_REPLY_MS / 2.0, "the call did not wait for the slow reply");
    assert_eq!(posts(&scope).await.len(), 1, "the request was sent before the cancel");
    until("the server to see the client hang up", 10_000, || {
        let scope = scope.clone();
        async move { posts(&scope).await.first().is_some_and(|r| r["client_gone"] == true) }
    })
    .await;
}

// ------------------------------------------------------------ (d) the key

#[wasm_bindgen_test]
async fn the_key_is_sent_in_its_header_only() {
    require_server().await;
    let scope = new_scope("key");
    let a = anthropic_config(&scope, None, true);
    let o = openai_config(&scope, None, false, Some(KEY));
    let (am, om) = (anthropic(&a), openai(&o));
    am.complete(&simple_request(), Rc::new(|_: &str| {}), CancelToken::new()).await.unwrap();
    om.complete(&simple_request(), Rc::new(|_: &str| {}), CancelToken::new()).await.unwrap();
    let records = received(&scope).await;
    let posts: Vec<&Value> = records.iter().filter(|r| r["method"] == "POST").collect();
    assert_eq!(posts.len(), 2);
    for r in &records {
        // Every header but the one meant for it is free of the key.
        for (name, value) in r["headers"].as_object().unwrap() {
            if name != "x-api-key" && name != "authorization" {
                assert!(!value.to_string().contains(KEY), "the key is in header {name}");
            }
        }
    }
    assert_eq!(posts[0]["headers"]["x-api-key"], KEY);
    assert_eq!(posts[1]["headers"]["authorization"], format!("Bearer {KEY}"));
    let debug = [format!("{a:?}"), format!("{a:#?}"), format!("{o:?}"), format!("{o:#?}"), format!("{am:?}"), format!("{om:?}")];
    assert_key_not_leaked(&Trace::new("empty", 0), &records, &debug);
    // A key put into the base URL is refused before anything is sent.
    let leaky = AnthropicConfig { base_url: format!("{FAKE}/scope/{scope}/{KEY}"), ..a.clone() };
    let e = anthropic(&leaky).complete(&simple_request(), Rc::new(|_: &str| {}), CancelToken::new()).await.unwrap_err();
    assert!(e.to_string().contains("contains the API key") && !e.to_string().contains(KEY), "{e}");
    assert_eq!(received(&scope).await.len(), records.len(), "nothing more was sent");
    // A key over plain http to a host other than this computer is refused too.
    let cleartext = OpenAiConfig { base_url: "http://example.com/v1".into(), ..o.clone() };
    let e = openai(&cleartext).complete(&simple_request(), Rc::new(|_: &str| {}), CancelToken::new()).await.unwrap_err();
    assert!(matches!(&e, ModelError::Settings(m) if m.contains("unencrypted")) && !e.to_string().contains(KEY), "{e}");
}

// ------------------------------------------------- (e) usage, cache included

/// One reply's usage from `model`, under the fake server's usage `mode`.
async fn usage_of(model: Rc<dyn Model>) -> team_protocols::model::Usage {
    let (on_text, _) = sink();
    model.complete(&simple_request(), on_text, CancelToken::new()).await.expect("the reply").usage
}

#[wasm_bindgen_test]
async fn anthropic_cache_reads_and_writes_are_recorded_streamed_and_not_and_missing_usage_is_no_measurement() {
    require_server().await;
    for stream in [false, true] {
        let plain = usage_of(anthropic(&anthropic_config(&new_scope("ant-usage"), None, stream))).await;
        assert!(plain.measured && plain.input_tokens > 0 && plain.output_tokens > 0, "stream {stream}: {plain:?}");
        assert_eq!((plain.cache_read_tokens, plain.cache_write_tokens), (0, 0), "stream {stream}: zero cache fields stay zero");
        let cached = usage_of(anthropic(&anthropic_config(&new_scope("ant-cached"), Some("cached"), stream))).await;
        assert_eq!((cached.cache_read_tokens, cached.cache_write_tokens), (2048, 310), "stream {stream}: {cached:?}");
        assert_eq!(cached.input_tokens, plain.input_tokens, "stream {stream}: input is the fresh prompt only");
        assert!(cached.measured);
        let none = usage_of(anthropic(&anthropic_config(&new_scope("ant-none"), Some("no-usage"), stream))).await;
        assert_eq!(none, team_protocols::model::Usage::default(), "stream {stream}: no usage reported, nothing measured");
    }
}

#[wasm_bindgen_test]
async fn openai_cached_prompt_tokens_are_taken_out_of_the_input_streamed_and_not_and_missing_usage_is_no_measurement() {
    require_server().await;
    for stream in [false, true] {
        let plain = usage_of(openai(&openai_config(&new_scope("oai-usage"), None, stream, None))).await;
        assert!(plain.measured && plain.input_tokens > 0 && plain.output_tokens > 0, "stream {stream}: {plain:?}");
        assert_eq!((plain.cache_read_tokens, plain.cache_write_tokens), (0, 0), "stream {stream}");
        let cached = usage_of(openai(&openai_config(&new_scope("oai-cached"), Some("cached"), stream, None))).await;
        assert_eq!(cached.cache_read_tokens, 2048, "stream {stream}: {cached:?}");
        assert_eq!(cached.cache_write_tokens, 0, "stream {stream}: the API reports no cache writes");
        assert_eq!(cached.input_tokens, plain.input_tokens, "stream {stream}: prompt_tokens less the cached ones");
        let none = usage_of(openai(&openai_config(&new_scope("oai-none"), Some("no-usage"), stream, None))).await;
        assert_eq!(none, team_protocols::model::Usage::default(), "stream {stream}: no usage reported, nothing measured");
    }
}

#[wasm_bindgen_test]
async fn a_team_on_a_cached_provider_records_the_cache_tokens_in_its_trace() {
    require_server().await;
    let scope = new_scope("ant-cached-team");
    let rt = run_team(anthropic(&anthropic_config(&scope, Some("cached"), true)), PROMPT).await;
    assert_clean_handshake(&rt);
    let trace = rt.trace();
    let cache: Vec<(u64, u64, bool)> = trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ModelReplied { cache_read_tokens, cache_write_tokens, measured, .. } => {
                Some((*cache_read_tokens, *cache_write_tokens, *measured))
            }
            _ => None,
        })
        .collect();
    assert!(!cache.is_empty() && cache.iter().all(|c| *c == (2048, 310, true)), "{cache:?}");
    let json = trace.to_json();
    assert!(json.contains("\"cache_read_tokens\":2048") && json.contains("\"cache_write_tokens\":310"), "the export carries them");
    assert_eq!(Trace::from_json(&json).unwrap(), trace, "and the import reads them back");
    stop_and_drain(&rt).await;
}
