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

mod runtime_in_the_browser {
    use std::rc::Rc;

    use team_protocols::model::scripted::ScriptedModel;
    use team_protocols::protocol::{check, AgentName, Event, MemberStatus, MessageType};
    use team_protocols::runtime::{browser, scenarios, Runtime, RuntimeConfig};
    use wasm_bindgen_test::*;

    async fn settle(rt: &Runtime) {
        for _ in 0..2000 {
            if !rt.is_running() {
                return;
            }
            gloo_timers::future::TimeoutFuture::new(0).await;
        }
        panic!("the run did not finish");
    }

    #[wasm_bindgen_test]
    async fn the_shutdown_scenario_runs_on_spawn_local_as_it_does_natively() {
        let rt = Runtime::new(RuntimeConfig::default(), Rc::new(ScriptedModel), browser::host());
        rt.submit_prompt(scenarios::SHUTDOWN.prompts[0]).unwrap();
        settle(&rt).await;
        let trace = rt.trace();
        assert_eq!(check(&trace), vec![]);
        let alice = AgentName::parse("alice").unwrap();
        assert_eq!(rt.with_team(|t| t.roster().status(&alice)), Some(MemberStatus::Shutdown));
        let types: Vec<MessageType> = trace
            .entries()
            .iter()
            .filter_map(|e| match &e.event {
                Event::MessageSent { message } => Some(message.msg_type),
                _ => None,
            })
            .collect();
        assert_eq!(types, [MessageType::ShutdownRequest, MessageType::ShutdownResponse]);
        assert!(matches!(trace.entries().last().unwrap().event, Event::RunFinished));
    }

    #[wasm_bindgen_test]
    async fn a_browser_run_with_pacing_gives_the_same_trace_as_without() {
        let run = |pace_ms| async move {
            let config = RuntimeConfig { pace_ms, ..RuntimeConfig::default() };
            let rt = Runtime::new(config, Rc::new(ScriptedModel), browser::host());
            rt.submit_prompt(scenarios::APPROVE_PLAN.prompts[0]).unwrap();
            settle(&rt).await;
            rt.trace().to_json()
        };
        assert_eq!(run(0).await, run(1).await);
    }
}
