//! A protocol file's team run through the page on a real provider's wire
//! (issue 27, item 4): the Protocols view runs the built-in `status-report`
//! example's team with the OpenAI-compatible provider over the real
//! `fetch` transport, against the fake model server
//! (`tests/fake_model_server.py`, which plays a file's protocols from the
//! sentences of the system prompt) on loopback.
//!
//! `scripts/test.sh` starts the server and passes its address at compile
//! time as `FAKE_MODEL_URL` (default `http://127.0.0.1:8787`). By hand:
//!
//! ```sh
//! python3 tests/fake_model_server.py &   # 127.0.0.1:8787
//! wasm-pack test --headless --chrome -- --locked --test web_file_providers
//! ```
//!
//! What must hold: every request the page sent carries the file's generated
//! tool schemas (`ToolSet::new(file).schemas(role)`, in the provider's
//! shape) for the agent that made it; the diagram shows the file
//! protocol's request and response arrows and the FSM badges of its
//! requests.
#![cfg(target_arch = "wasm32")]

mod web_page;

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::{json, Value};
use team_protocols::protocol::file::{builtin, load};
use team_protocols::runtime::tools::{AgentRole, ToolSet};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_page::{all, open_tools, texts, until, Page};

wasm_bindgen_test_configure!(run_in_browser);

/// Where the fake model server listens.
const FAKE: &str = match option_env!("FAKE_MODEL_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:8787",
};

/// GETs JSON from the fake server.
async fn get_json(url: &str) -> Result<Value, String> {
    let response = JsFuture::from(window().fetch_with_str(url)).await.map_err(|e| format!("could not reach {url}: {e:?}"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a Response".to_string())?;
    let text = JsFuture::from(response.text().map_err(|e| format!("{e:?}"))?).await.map_err(|e| format!("{e:?}"))?;
    serde_json::from_str(&text.as_string().unwrap_or_default()).map_err(|e| e.to_string())
}

fn el(host: &web_sys::HtmlElement, selector: &str) -> web_sys::HtmlElement {
    host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("{selector}")).unchecked_into()
}

fn set_value(host: &web_sys::HtmlElement, selector: &str, value: &str) {
    let input: web_sys::HtmlInputElement = el(host, selector).unchecked_into();
    input.set_value(value);
    input.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
}

/// The tools of `role` as the OpenAI-compatible provider writes them.
fn tools_as_sent(tools: &ToolSet, role: AgentRole) -> Value {
    Value::Array(
        tools
            .schemas(role)
            .iter()
            .map(|t| json!({ "type": "function", "function": { "name": t.name, "description": t.description, "parameters": t.input_schema } }))
            .collect(),
    )
}

#[wasm_bindgen_test]
async fn a_files_team_runs_on_the_openai_compatible_provider_with_its_generated_tools_and_draws_its_protocol() {
    let health = get_json(&format!("{FAKE}/__health")).await;
    assert!(
        matches!(&health, Ok(v) if v["ok"] == true),
        "the fake model server does not answer at {FAKE} ({health:?}); start it with `python3 tests/fake_model_server.py` or run ./scripts/test.sh"
    );
    let scope = format!("page-file-{:010}", (js_sys::Math::random() * 1e10) as u64);
    let text = builtin::EXAMPLES.iter().find(|(name, _)| *name == "status-report").expect("the status-report example").1;
    let tools = ToolSet::new(Arc::new(load(text).expect("the example loads")));

    let page = Page::start();
    let host = page.mount();
    // The provider, as a user sets it in the Tools tab.
    open_tools(&host).await;
    let provider: web_sys::HtmlSelectElement = el(&host, "select[aria-label=Provider]").unchecked_into();
    provider.set_value("openai");
    provider.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    leptos::task::tick().await;
    set_value(&host, "[aria-label='API key']", "sk-page-file-e2e");
    set_value(&host, "[aria-label='Base URL']", &format!("{FAKE}/scope/{scope}/v1"));
    set_value(&host, "[aria-label='Model']", "gpt-fake-file");
    leptos::task::tick().await;

    // The example's team, run from the Protocols view.
    el(&host, "#protocols-toggle").click();
    until("the view's list", || host.query_selector("#pf-new").unwrap().is_some()).await;
    let item = all(&host, ".pf-list .pf-item")
        .into_iter()
        .find(|b| b.text_content().as_deref() == Some("status-report"))
        .expect("status-report listed among the examples");
    item.unchecked_into::<web_sys::HtmlElement>().click();
    let run: web_sys::HtmlButtonElement = el(&host, "#pf-run").unchecked_into();
    until("Run enabled for the example", || !run.disabled()).await;
    run.click();
    until("the run to finish", || !all(&host, ".banner.run-end").is_empty() || !texts(&host, ".banner-error").is_empty()).await;
    assert_eq!(texts(&host, ".banner-error"), Vec::<String>::new(), "the run ends without an error");

    // The wire: every call carried its agent's generated tools.
    let received = get_json(&format!("{FAKE}/__requests?scope={scope}")).await.expect("the fake server lists its requests");
    let posts: Vec<&Value> = received.as_array().expect("a JSON array").iter().filter(|r| r["method"] == "POST").collect();
    let (lead, teammate) = (tools_as_sent(&tools, AgentRole::Lead), tools_as_sent(&tools, AgentRole::Teammate));
    let (mut by_lead, mut by_gina) = (0, 0);
    for post in &posts {
        assert!(post.get("rejected").is_none(), "the server refused a request: {post}");
        let body = &post["body"];
        assert_eq!(body["model"], "gpt-fake-file");
        let system = body["messages"][0]["content"].as_str().unwrap_or_default();
        if system.starts_with("You are a team lead") {
            by_lead += 1;
            assert_eq!(body["tools"], lead, "the lead's request carries the lead's generated tools");
        } else {
            assert!(system.starts_with("You are 'gina'"), "{system}");
            by_gina += 1;
            assert_eq!(body["tools"], teammate, "gina's request carries a teammate's generated tools");
        }
    }
    assert!(by_lead >= 3 && by_gina >= 2, "the lead and gina both called the model: {by_lead} and {by_gina}");
    let names = |v: &Value| v.as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert!(names(&lead).contains(&"ask_status".to_string()) && names(&teammate).contains(&"report_status".to_string()));

    // The diagram: the file protocol's arrows and its FSM badges.
    let arrows = texts(&host, "g.msg").into_iter().map(|t| t.split(" [").next().unwrap_or_default().to_string()).collect::<Vec<_>>();
    for kind in ["status_request", "status_response", "shutdown_request", "shutdown_response"] {
        assert!(arrows.iter().any(|a| a == kind), "a {kind} arrow: {arrows:?}");
    }
    let badges = texts(&host, "g.badge.fsm text");
    assert_eq!(badges, ["approved", "approved"], "the status request's and the shutdown's badges");
    drop(page);
}
