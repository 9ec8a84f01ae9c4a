//! Browser tests (`wasm-pack test --headless --chrome`): mount the app and
//! assert on the DOM it draws.
//!
//! Each test mounts its own App through a `web_page::Page` and the App is
//! unmounted when the test ends, whether it passed or failed (the design,
//! and why a failed test's leftovers are cleared by the next test, is in
//! `tests/web_page/mod.rs`): no App hears another test's keys or links,
//! and no test depends on what another left in storage or on the order the
//! tests run in. Every check of something asynchronous waits with a bounded
//! poll on its condition, or on the event that causes it; none sleeps.
#![cfg(target_arch = "wasm32")]

mod web_page;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_page::{all, button, click, open_tools, run_finished, set_hash, texts, until, ConsoleLog, Page, Patch, WindowErrors, WindowHooks};

wasm_bindgen_test_configure!(run_in_browser);

/// The request ids of the diagram's arrows of one message type.
fn arrow_ids(host: &web_sys::HtmlElement, msg_type: &str) -> Vec<String> {
    all(host, "g.msg")
        .iter()
        .filter(|g| g.text_content().unwrap_or_default().starts_with(&format!("{msg_type} [")))
        .map(|g| g.get_attribute("data-request").unwrap_or_default())
        .collect()
}

fn badges(host: &web_sys::HtmlElement) -> Vec<String> {
    texts(host, "g.badge.fsm text")
}

fn position(host: &web_sys::HtmlElement) -> (usize, usize) {
    let text = texts(host, ".position")[0].clone();
    let (a, b) = text.split_once(" / ").unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

#[wasm_bindgen_test]
async fn every_control_has_an_accessible_name_and_the_diagram_is_an_image() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    assert_eq!(texts(&host, "h1"), ["Team Protocols Playground"]);
    for name in ["Run", "Play", "Next", "Back", "Stop", "Live", "Step"] {
        button(&host, name);
    }
    for label in ["Provider", "API key", "Base URL", "Model", "Speed", "Seed", "Prompt for the lead", "Scrub through events"] {
        assert!(host.query_selector(&format!("[aria-label='{label}']")).unwrap().is_some(), "{label}");
    }
    let svg = host.query_selector("svg.diagram").unwrap().unwrap();
    assert_eq!(svg.get_attribute("role").as_deref(), Some("img"));
    assert!(svg.get_attribute("aria-label").unwrap().starts_with("Sequence diagram"));
    assert!(texts(&host, "select[aria-label=Provider] option")[0].contains("Scripted (offline)"));
    assert_eq!(all(&host, "button.scenario").len(), 7, "the six lesson scenarios and the scale demo");
    assert!(host.query_selector("[data-scenario=scale]").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn a_real_provider_without_a_key_explains_what_is_missing_and_runs_nothing() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    let select: web_sys::HtmlSelectElement = host.query_selector("[aria-label=Provider]").unwrap().unwrap().unchecked_into();
    select.set_value("anthropic");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    leptos::task::tick().await;
    let key: web_sys::HtmlInputElement = host.query_selector("[aria-label='API key']").unwrap().unwrap().unchecked_into();
    assert!(!key.disabled(), "the key field opens for a real provider");
    assert_eq!(key.type_(), "password");
    click(&host, "[data-scenario=shutdown]");
    leptos::task::tick().await;
    let alert = texts(&host, ".banner-error");
    assert_eq!(alert.len(), 1);
    assert!(alert[0].contains("API key"), "{alert:?}");
    assert!(all(&host, "g.msg").is_empty(), "nothing ran");
}

#[wasm_bindgen_test]
async fn the_shutdown_scenario_draws_both_arrows_with_one_id_an_approved_badge_and_alice_shut_down() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let requests = arrow_ids(&host, "shutdown_request");
    let responses = arrow_ids(&host, "shutdown_response");
    assert_eq!(requests.len(), 1);
    assert_eq!(requests, responses, "both arrows carry the same request_id");
    assert_eq!(requests[0].len(), 8);
    assert!(requests[0].chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(badges(&host), ["approved"]);
    let alice: Vec<String> = texts(&host, ".roster li").into_iter().filter(|t| t.starts_with("alice")).collect();
    assert_eq!(alice.len(), 1);
    assert!(alice[0].ends_with("shutdown"), "{alice:?}");
}

#[wasm_bindgen_test]
async fn the_bob_scenario_ends_with_a_rejected_badge_and_a_later_approved_one() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=reject-plan]");
    until("the run to finish", || run_finished(&host)).await;
    assert_eq!(badges(&host), ["rejected", "approved"]);
}

#[wasm_bindgen_test]
async fn back_and_next_change_what_the_diagram_shows() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let (_, total) = position(&host);
    let arrows_at_end = all(&host, "g.msg").len();
    // Back to before the answer: the badge is pending, one arrow fewer.
    while badges(&host) != ["pending"] {
        button(&host, "Back").click();
        leptos::task::tick().await;
        assert!(position(&host).0 > 0, "the badge was pending at some point");
    }
    assert!(all(&host, "g.msg").len() < arrows_at_end);
    assert!(position(&host).0 < total);
    button(&host, "Next").click();
    button(&host, "Next").click();
    leptos::task::tick().await;
    until("Next to reach the answer", || {
        if badges(&host) == ["approved"] {
            return true;
        }
        button(&host, "Next").click();
        false
    })
    .await;
}

#[wasm_bindgen_test]
async fn answering_a_pending_request_by_hand_moves_its_badge() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    button(&host, "Step").click();
    let prompt: web_sys::HtmlTextAreaElement = host.query_selector("#prompt").unwrap().unwrap().unchecked_into();
    prompt.set_value("Spawn alice as a coder. Then request her shutdown.");
    prompt.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    button(&host, "Run").click();
    until("a pending request with an Approve button", || {
        if !all(&host, ".answer .approve").is_empty() {
            return true;
        }
        button(&host, "Next").click();
        false
    })
    .await;
    assert_eq!(badges(&host), ["pending"]);
    let approve = button(&host, "Approve as alice");
    approve.click();
    until("the badge to move", || badges(&host) == ["approved"]).await;
    assert!(texts(&host, ".requests .badge").contains(&"approved".to_string()));
}

#[wasm_bindgen_test]
async fn keyboard_shortcuts_move_the_cursor() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=approve-plan]");
    until("the run to finish", || run_finished(&host)).await;
    let (_, total) = position(&host);
    let press = |key: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        window().dispatch_event(&ev).unwrap();
    };
    press("ArrowLeft");
    leptos::task::tick().await;
    assert_eq!(position(&host), (total - 1, total));
    press("Home");
    leptos::task::tick().await;
    assert_eq!(position(&host), (0, total));
    press("ArrowRight");
    leptos::task::tick().await;
    assert_eq!(position(&host), (1, total));
    press("End");
    leptos::task::tick().await;
    assert_eq!(position(&host), (total, total));
}

/// Dispatches a cancelable `keydown` of `key` on the window, as a keyboard
/// sends it; true when no one used it (no listener prevented its default).
/// The trace of a stored run's JSON (its id is the time it was kept).
fn kept_trace(run: Option<String>) -> Option<serde_json::Value> {
    run.map(|text| serde_json::from_str::<serde_json::Value>(&text).unwrap()["trace"].clone())
}

fn press_on_window(key: &str) -> bool {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    window().dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()).unwrap()
}

#[wasm_bindgen_test]
async fn an_unmounted_page_leaves_no_window_listener_or_interval_and_hears_no_key_or_link() {
    let page = Page::start();
    let hooks = WindowHooks::count();
    let host = page.mount();
    leptos::task::tick().await;
    for kind in ["keydown", "hashchange", "resize"] {
        assert!(hooks.listeners(kind) >= 1, "the page listens to the window's {kind}");
    }
    click(&host, "[data-scenario=approve-plan]");
    until("the run to finish", || run_finished(&host)).await;
    let (_, total) = position(&host);
    // Mounted, it hears the keys: ← goes back one, and the key is used.
    assert!(!press_on_window("ArrowLeft"), "the page takes ←");
    leptos::task::tick().await;
    assert_eq!(position(&host), (total - 1, total));
    // Playing at 0.25x: Play's interval runs (its first step is 1.6 s away).
    set_select(&host, "Speed", "0.25");
    assert!(!press_on_window(" "), "the page takes Space");
    until("Play's interval", || hooks.intervals() >= 1).await;
    let kept = page.until_stored("the finished run kept for a reload", "team-protocols.current", Option::is_some).await;

    page.unmount(&host);
    assert_eq!(host.child_nodes().length(), 0, "the host is empty");
    assert!(!host.is_connected(), "the host is gone");
    for kind in ["keydown", "hashchange", "resize"] {
        assert_eq!(hooks.listeners(kind), 0, "no {kind} listener outlives the page");
    }
    assert_eq!(hooks.intervals(), 0, "no interval outlives the page");
    // No one hears a key or a link any more: a listener left behind would
    // use the key, or throw on its page's disposed state (the window
    // reports that), or draw or keep the link's run.
    let errors = WindowErrors::record();
    assert!(press_on_window("ArrowLeft"), "no one takes ← after the page is gone");
    set_hash("scenario=shutdown").await;
    leptos::task::tick().await;
    assert_eq!(errors.messages(), Vec::<String>::new(), "nothing ran");
    assert!(document().query_selector(".app, .banner-error").unwrap().is_none(), "nothing was drawn");
    assert_eq!(kept_trace(page.stored("team-protocols.current").await), kept_trace(kept), "no page kept another run");
    set_hash("").await;
}

mod runtime_in_the_browser {
    use std::rc::Rc;

    use team_protocols::model::scripted::ScriptedModel;
    use team_protocols::protocol::{check, AgentName, Event, MemberStatus, MessageType};
    use team_protocols::runtime::{browser, scenarios, Runtime, RuntimeConfig};
    use wasm_bindgen_test::*;

    /// Waits for the run to finish (bounded: 20 s of real time).
    async fn settle(rt: &Runtime) {
        let deadline = js_sys::Date::now() + 20_000.0;
        while rt.is_running() {
            assert!(js_sys::Date::now() < deadline, "the run did not finish");
            gloo_timers::future::TimeoutFuture::new(0).await;
        }
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
        assert_eq!(types, [MessageType::SHUTDOWN_REQUEST, MessageType::SHUTDOWN_RESPONSE]);
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

/// Puts `text` into the page's file input as a file and fires `change`.
fn choose_file(host: &web_sys::HtmlElement, name: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let file = web_sys::File::new_with_str_sequence(&parts, name).unwrap();
    let transfer = web_sys::DataTransfer::new().unwrap();
    transfer.items().add_with_file(&file).unwrap();
    let input: web_sys::HtmlInputElement = host.query_selector("input[type=file]").unwrap().unwrap().unchecked_into();
    input.set_files(Some(&transfer.files().unwrap()));
    input.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
}

fn exported(host: &web_sys::HtmlElement, format: &str) -> String {
    let name = match format {
        "json" => "Export JSON",
        "svg" => "Export SVG (this frame)",
        "svg-run" => "Export SVG (whole run)",
        _ => "Export Mermaid",
    };
    button(host, name).click();
    let href = host.query_selector(&format!("a[data-format={format}]")).unwrap().unwrap().get_attribute("href").unwrap();
    assert!(href.starts_with("blob:"), "{href}");
    blob_text(&href)
}

/// What a `blob:` URL holds, read back synchronously (before the page
/// revokes it).
fn blob_text(href: &str) -> String {
    let request = web_sys::XmlHttpRequest::new().unwrap();
    request.open_with_async("GET", href, false).unwrap();
    request.send().unwrap();
    request.response_text().unwrap().unwrap()
}

#[wasm_bindgen_test]
async fn a_workspace_file_downloads_from_a_blob_url_holding_its_text() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=approve-plan]");
    until("the run to finish", || run_finished(&host)).await;
    let download = all(&host, ".files button.download").into_iter().next().expect("a written file with a Download button");
    let path = download.get_attribute("aria-label").unwrap().strip_prefix("Download ").unwrap().to_string();
    // The file's own text, as the panel shows it when opened.
    all(&host, ".files button.file")[0].unchecked_ref::<web_sys::HtmlElement>().click();
    leptos::task::tick().await;
    let shown = host.query_selector(".files .file-content").unwrap().expect("the opened file").text_content().unwrap();
    assert!(!shown.is_empty());
    download.unchecked_ref::<web_sys::HtmlElement>().click();
    let link = host.query_selector(".download-links a").unwrap().expect("the download link");
    let href = link.get_attribute("href").unwrap_or_default();
    assert!(href.starts_with("blob:"), "a Blob object URL, never a data: URL: {href}");
    assert_eq!(link.get_attribute("download").as_deref(), path.rsplit('/').next());
    assert_eq!(blob_text(&href), shown);
    // A second download replaces (and revokes) the first URL.
    download.unchecked_ref::<web_sys::HtmlElement>().click();
    let again = link.get_attribute("href").unwrap_or_default();
    assert!(again.starts_with("blob:") && again != href, "{again}");
}

fn arrow_labels(host: &web_sys::HtmlElement) -> Vec<String> {
    texts(host, "g.msg .msg-label")
}

#[wasm_bindgen_test]
async fn export_then_import_restores_the_same_diagram() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=reject-then-accept]");
    until("the run to finish", || run_finished(&host)).await;
    let (labels, badges_before, json) = (arrow_labels(&host), badges(&host), exported(&host, "json"));
    assert!(json.contains("\"version\": 1"), "a versioned export");
    assert!(exported(&host, "mermaid").starts_with("sequenceDiagram"));
    assert!(exported(&host, "svg").contains("<svg"));

    click(&host, "[data-scenario=shutdown]");
    until("another run", || run_finished(&host) && arrow_labels(&host) != labels).await;
    choose_file(&host, "trace.json", &json);
    until("the import to show", || arrow_labels(&host) == labels).await;
    assert_eq!(badges(&host), badges_before);
    assert_eq!(exported(&host, "json"), json, "export → import → export is identical");
}

#[wasm_bindgen_test]
async fn a_bad_file_is_refused_with_its_reason_and_nothing_is_lost() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let labels = arrow_labels(&host);
    choose_file(&host, "notes.json", "this is not json");
    until("an error", || !texts(&host, ".banner-error").is_empty()).await;
    let alert = texts(&host, ".banner-error")[0].clone();
    assert!(alert.contains("not JSON") || alert.contains("not valid JSON"), "{alert}");
    assert!(alert.contains("Nothing was changed"), "{alert}");
    assert_eq!(arrow_labels(&host), labels, "the run on screen stays");
    button(&host, "×").click();
    choose_file(&host, "old.json", r#"{"version": 99, "team_name": "x", "seed": 1, "entries": []}"#);
    until("a version error", || texts(&host, ".banner-error").iter().any(|t| t.contains("99"))).await;
    assert_eq!(arrow_labels(&host), labels);
}

#[wasm_bindgen_test]
async fn a_reload_restores_the_run_and_a_share_link_names_scenario_and_seed() {
    let page = Page::start();
    let first = page.mount();
    leptos::task::tick().await;
    open_tools(&first).await;
    click(&first, "[data-scenario=approve-plan]");
    until("the run to finish", || run_finished(&first)).await;
    let (labels, badges_before) = (arrow_labels(&first), badges(&first));
    let link: web_sys::HtmlInputElement = first.query_selector("[aria-label='Share link']").unwrap().unwrap().unchecked_into();
    assert!(link.value().ends_with("#scenario=approve-plan&seed=2026"), "{}", link.value());
    // The first app goes, a second one reads what it left: a reload.
    page.unmount(&first);
    let second = page.mount_keeping_storage();
    leptos::task::tick().await;
    open_tools(&second).await;
    until("the restored run", || arrow_labels(&second) == labels).await;
    assert_eq!(badges(&second), badges_before);
}

#[wasm_bindgen_test]
async fn a_saved_run_can_be_reopened_and_deleted() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=reject-plan]");
    until("the run to finish", || run_finished(&host)).await;
    let labels = arrow_labels(&host);
    let before = all(&host, ".saved-open").len();
    button(&host, "Save run").click();
    until("the run listed as saved", || all(&host, ".saved-open").len() == before + 1).await;
    click(&host, "[data-scenario=shutdown]");
    until("another run", || run_finished(&host) && arrow_labels(&host) != labels).await;
    click(&host, ".saved-open");
    until("the saved run", || arrow_labels(&host) == labels).await;
    click(&host, ".saved-delete");
    until("the run gone from the list", || all(&host, ".saved-open").len() == before).await;
}

#[wasm_bindgen_test]
async fn a_stored_key_is_absent_from_every_export_and_from_storage_of_runs() {
    const KEY: &str = "sk-ant-test-0123456789-secret";
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let select: web_sys::HtmlSelectElement = host.query_selector("[aria-label=Provider]").unwrap().unwrap().unchecked_into();
    select.set_value("anthropic");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    leptos::task::tick().await;
    let key: web_sys::HtmlInputElement = host.query_selector("[aria-label='API key']").unwrap().unwrap().unchecked_into();
    key.set_value(KEY);
    key.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    let remember: web_sys::HtmlInputElement =
        host.query_selector("section[aria-labelledby=settings-title] input[type=checkbox]").unwrap().unwrap().unchecked_into();
    remember.set_checked(true);
    remember.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    leptos::task::tick().await;
    let storage = window().local_storage().unwrap().unwrap();
    assert_eq!(storage.get_item("team-protocols.api-key.anthropic").unwrap().as_deref(), Some(KEY), "remembered only when asked");
    button(&host, "Save run").click();
    for format in ["json", "mermaid", "svg", "svg-run"] {
        assert!(!exported(&host, format).contains(KEY), "{format} export holds no key");
    }
    page.until_stored("the saved run", "team-protocols.saved", Option::is_some).await;
    for item in ["team-protocols.current", "team-protocols.saved"] {
        let kept = page.stored(item).await;
        assert!(kept.is_some(), "{item} is kept");
        assert!(!kept.unwrap_or_default().contains(KEY), "{item} holds no key");
    }
    assert!(!window().location().href().unwrap().contains(KEY), "the URL holds no key");
    remember.set_checked(false);
    remember.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    assert_eq!(storage.get_item("team-protocols.api-key.anthropic").unwrap(), None, "unticking forgets it");
    select.set_value("scripted");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
}

#[wasm_bindgen_test]
async fn a_key_never_reaches_the_console_even_when_the_call_fails() {
    const KEY: &str = "sk-ant-console-check-0123456789";
    let page = Page::start();
    // The console is put back when `console` drops (or by the next test's
    // `Page::start`, if this one fails).
    let console = ConsoleLog::record();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    let set = |selector: &str, value: &str| {
        let el: web_sys::HtmlInputElement = host.query_selector(selector).unwrap().unwrap().unchecked_into();
        el.set_value(value);
        el.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    };
    let select: web_sys::HtmlSelectElement = host.query_selector("[aria-label=Provider]").unwrap().unwrap().unchecked_into();
    select.set_value("anthropic");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    leptos::task::tick().await;
    set("[aria-label='API key']", KEY);
    // A closed port on loopback: the call fails at once, and the failure is shown.
    set("[aria-label='Base URL']", "http://127.0.0.1:9");
    click(&host, "[data-scenario=shutdown]");
    until("the failure to show", || texts(&host, ".banner-error").iter().any(|t| t.contains("model call failed"))).await;
    let logged = console.lines().join("\n");
    assert!(!logged.contains(KEY), "the console saw the key: {logged}");
    let banner = texts(&host, ".banner-error").join(" ");
    assert!(!banner.contains(KEY), "the banner shows no key");
    assert!(!exported(&host, "json").contains(KEY));
    select.set_value("scripted");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
}

#[wasm_bindgen_test]
async fn a_dropped_answer_shows_as_a_crossed_arrow_and_a_violation_that_jumps_to_its_event() {
    use team_protocols::protocol::{Event, FaultAction, MessageType};
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    let set_select = |label: &str, value: &str| {
        let el: web_sys::HtmlSelectElement = host.query_selector(&format!("[aria-label='{label}']")).unwrap().unwrap().unchecked_into();
        el.set_value(value);
        el.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    };
    set_select("Fault action", "drop");
    set_select("Fault message type", "shutdown_response");
    button(&host, "Add fault rule").click();
    leptos::task::tick().await;
    assert_eq!(texts(&host, ".fault-rules li span").len(), 1);
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    assert_eq!(all(&host, "g.msg.fault-dropped").len(), 1, "the answer is drawn as dropped");
    assert_eq!(all(&host, "g.msg.fault-dropped .drop-x").len(), 1);
    let violations = texts(&host, ".violation-item");
    assert_eq!(violations.len(), 1, "{violations:?}");
    // The tracker says approved: the finding says the answer was lost, and which fault dropped it.
    assert!(violations[0].starts_with("answer lost"), "{violations:?}");
    assert!(violations[0].contains("fault rule 1"), "{violations:?}");
    // The finding is at the event where the fault dropped the answer: the
    // jump shows the run up to and including that event.
    let trace = team_protocols::view::export::import_json(&exported(&host, "json")).expect("the run exports");
    let dropped: Vec<u64> = trace
        .entries()
        .iter()
        .filter(|e| matches!(&e.event, Event::FaultApplied { action: FaultAction::Drop, message, .. } if message.msg_type == MessageType::SHUTDOWN_RESPONSE))
        .map(|e| e.seq)
        .collect();
    assert_eq!(dropped.len(), 1, "one answer was dropped");
    let (_, total) = position(&host);
    assert!(dropped[0] as usize + 1 < total, "the drop is before the run's end");
    assert!(violations[0].contains(&format!("at #{}", dropped[0])), "the finding names the drop's event: {violations:?}");
    click(&host, ".violation-item");
    leptos::task::tick().await;
    assert_eq!(position(&host), (dropped[0] as usize + 1, total), "the jump stops at the drop");
    assert!(!all(&host, ".violation-mark").is_empty(), "the diagram marks the event");
    let mermaid = exported(&host, "mermaid");
    assert!(mermaid.contains("-x"), "{mermaid}");
    click(&host, "[aria-label='Remove rule: drop shutdown_response from anyone to anyone, p=1']");
    leptos::task::tick().await;
    assert!(texts(&host, ".fault-rules li span").is_empty());
}

#[wasm_bindgen_test]
async fn a_share_link_of_a_typed_prompt_carries_the_trace_and_opens_the_same_run() {
    let page = Page::start();
    let first = page.mount();
    leptos::task::tick().await;
    open_tools(&first).await;
    let prompt: web_sys::HtmlTextAreaElement = first.query_selector("#prompt").unwrap().unwrap().unchecked_into();
    prompt.set_value("Spawn bob with a risky refactoring task. Review and reject his plan.");
    prompt.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    button(&first, "Run").click();
    until("the run to finish", || run_finished(&first)).await;
    let labels = arrow_labels(&first);
    let link: web_sys::HtmlInputElement = first.query_selector("[aria-label='Share link']").unwrap().unwrap().unchecked_into();
    let fragment = link.value().split_once('#').unwrap().1.to_string();
    assert!(fragment.starts_with("trace="), "{fragment}");
    // The link opened in a new tab: the first app is gone before it.
    page.unmount(&first);
    set_hash(&fragment).await;
    let opened = page.mount();
    leptos::task::tick().await;
    open_tools(&opened).await;
    set_hash("").await;
    until("the shared run", || arrow_labels(&opened) == labels).await;
    assert_eq!(badges(&opened), ["rejected", "approved"]);
}

#[wasm_bindgen_test]
async fn full_browser_storage_gives_a_clear_error_and_the_run_stays() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let labels = arrow_labels(&host);
    // Browser storage at its quota: IndexedDB refuses every write the way
    // a full store does (put back when `full` drops, or by the next test's
    // `Page::start`).
    let store = js_sys::Reflect::get(&window(), &"IDBObjectStore".into()).unwrap();
    let prototype = js_sys::Reflect::get(&store, &"prototype".into()).unwrap();
    let refuse = js_sys::Function::new_no_args("throw new DOMException('the quota is reached', 'QuotaExceededError');");
    let full = Patch::install(&prototype, "put", &refuse);
    button(&host, "Save run").click();
    until("the refusal", || texts(&host, ".banner-error").join(" ").contains("browser storage refused the run (it is full)")).await;
    drop(full);
    assert_eq!(arrow_labels(&host), labels, "the run on screen stays");
}

// ---- issue 9: the page as an honest view of the run ----

fn set_input(host: &web_sys::HtmlElement, selector: &str, value: &str, event: &str) {
    let el: web_sys::HtmlInputElement = host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("{selector}")).unchecked_into();
    el.set_value(value);
    el.dispatch_event(&web_sys::Event::new(event).unwrap()).unwrap();
}

fn set_select(host: &web_sys::HtmlElement, label: &str, value: &str) {
    let el: web_sys::HtmlSelectElement = host.query_selector(&format!("[aria-label='{label}']")).unwrap().unwrap().unchecked_into();
    el.set_value(value);
    el.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
}

fn type_prompt(host: &web_sys::HtmlElement, text: &str) {
    let prompt: web_sys::HtmlTextAreaElement = host.query_selector("#prompt").unwrap().unwrap().unchecked_into();
    prompt.set_value(text);
    prompt.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
}

fn runs_finished(host: &web_sys::HtmlElement) -> usize {
    all(host, ".banner.run-end").len()
}

fn share_link(host: &web_sys::HtmlElement) -> Option<String> {
    host.query_selector("[aria-label='Share link']").unwrap().map(|e| e.unchecked_into::<web_sys::HtmlInputElement>().value())
}

fn banner(host: &web_sys::HtmlElement) -> String {
    texts(host, ".banner-error").join(" ")
}

fn back_to_scripted(host: &web_sys::HtmlElement) {
    set_select(host, "Provider", "scripted");
}

#[wasm_bindgen_test]
async fn run_uses_the_settings_shown_and_the_page_says_which_model_will_run() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    assert!(texts(&host, ".will-run").join(" ").contains("Will run: Scripted (offline)"), "{:?}", texts(&host, ".will-run"));
    set_select(&host, "Provider", "anthropic");
    leptos::task::tick().await;
    type_prompt(&host, "Spawn alice as a coder. Then request her shutdown.");
    button(&host, "Run").click();
    leptos::task::tick().await;
    assert!(banner(&host).contains("API key"), "Run builds the team from the settings shown: {}", banner(&host));
    assert!(all(&host, "g.msg").is_empty(), "the scripted model did not run instead");
    // A model name edited after the team was built is the one sent.
    set_input(&host, "[aria-label='API key']", "sk-ant-test-not-real", "change");
    set_input(&host, "[aria-label='Base URL']", "http://127.0.0.1:9", "change");
    set_input(&host, "[aria-label='Model']", "claude-edited-1", "change");
    leptos::task::tick().await;
    assert!(texts(&host, ".will-run").join(" ").contains("Anthropic · claude-edited-1"), "{:?}", texts(&host, ".will-run"));
    button(&host, "Run").click();
    until("the failed call", || banner(&host).contains("model call failed")).await;
    assert!(texts(&host, ".model-label").join(" ").contains("claude-edited-1"), "{:?}", texts(&host, ".model-label"));
    back_to_scripted(&host);
}

#[wasm_bindgen_test]
async fn after_a_scenario_and_a_typed_prompt_the_link_carries_the_trace_and_can_be_copied() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the scenario to finish", || run_finished(&host)).await;
    assert!(share_link(&host).unwrap().contains("#scenario=shutdown"));
    type_prompt(&host, "Spawn bob with a risky refactoring task. Review and reject his plan.");
    button(&host, "Run").click();
    until("the prompt's run to finish", || runs_finished(&host) == 2 && share_link(&host).is_some()).await;
    let link = share_link(&host).unwrap();
    let fragment = link.split_once('#').unwrap().1.to_string();
    assert!(fragment.starts_with("trace="), "the link describes the run on screen: {fragment}");
    let labels = arrow_labels(&host);
    button(&host, "Copy").click();
    until("the copy to say what happened", || !texts(&host, ".copy-status").join("").is_empty()).await;
    // The link opened in a new tab: this app is gone before it.
    page.unmount(&host);
    set_hash(&fragment).await;
    let opened = page.mount();
    leptos::task::tick().await;
    open_tools(&opened).await;
    set_hash("").await;
    until("the shared run", || arrow_labels(&opened) == labels).await;
}

#[wasm_bindgen_test]
async fn text_typed_into_an_answer_survives_protocol_events() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    button(&host, "Step").click();
    type_prompt(&host, "Spawn alice as a coder. Then request her shutdown.");
    button(&host, "Run").click();
    until("a pending request with an answer form", || {
        if !all(&host, ".answer input").is_empty() {
            return true;
        }
        button(&host, "Next").click();
        false
    })
    .await;
    set_input(&host, ".answer input", "still running the tests", "input");
    let before = all(&host, ".event-log li").len();
    // A protocol event: the lead's message lands on the bus.
    set_select(&host, "To", "alice");
    set_input(&host, "[aria-label='Message text']", "hold on", "input");
    button(&host, "Send").click();
    until("the message event", || all(&host, ".event-log li").len() > before).await;
    click(&host, ".request-head");
    leptos::task::tick().await;
    let answer: web_sys::HtmlInputElement = host.query_selector(".answer input").unwrap().expect("the form stays").unchecked_into();
    assert_eq!(answer.value(), "still running the tests");
    button(&host, "Live").click();
}

#[wasm_bindgen_test]
fn the_page_declares_a_favicon_so_loading_it_logs_no_404() {
    let html = include_str!("../index.html");
    assert!(html.contains("rel=\"icon\"") && html.contains("data:image/svg+xml"), "an inline icon");
}

#[wasm_bindgen_test]
async fn a_damaged_link_keeps_its_error_over_the_restored_run() {
    let page = Page::start();
    let first = page.mount();
    leptos::task::tick().await;
    click(&first, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&first)).await;
    let labels = arrow_labels(&first);
    // Each link is opened by a new page that restores this run.
    page.unmount(&first);
    let faults = |action: &str, probability: &str| {
        let json = format!(r#"{{"rules":[{{"action":{action},"msg_type":null,"from":null,"to":null,"probability":{probability}}}]}}"#);
        format!("scenario=shutdown&faults={}", team_protocols::view::export::share::base64url(json.as_bytes()))
    };
    for (link, says) in [
        ("trace=@@not-base64@@".to_string(), "damaged"),
        ("trace=AAAA".to_string(), "unpacked"),
        ("scenario=shutdown&seed=-1".to_string(), "seed"),
        ("scenario=shutdown&seed=99999999999999999999999".to_string(), "seed"),
        ("scenario=shutdown&faults=garbage!".to_string(), "fault"),
        (faults(r#"{"kind":"drop"}"#, "5"), "probability"),
        (faults(r#"{"kind":"delay","ms":-1}"#, "1"), "fault"),
        (faults(r#"{"kind":"delay","ms":18446744073709551615}"#, "1"), "too long"),
    ] {
        set_hash(&link).await;
        let opened = page.mount_keeping_storage();
        leptos::task::tick().await;
        set_hash("").await;
        until("the restored run", || arrow_labels(&opened) == labels).await;
        let text = banner(&opened);
        assert!(text.contains("link") && text.contains(says), "{link}: {text}");
        page.unmount(&opened);
    }
}

#[wasm_bindgen_test]
async fn a_link_pasted_into_an_open_tab_is_read() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let labels = arrow_labels(&host);
    set_hash("scenario=shutdown&seed=-1").await;
    until("the hashchange to be read", || banner(&host).contains("seed")).await;
    assert_eq!(arrow_labels(&host), labels, "the run on screen stays");
    // An emptied fragment asks for nothing: the page stays as it is.
    set_hash("").await;
    leptos::task::tick().await;
    assert_eq!(arrow_labels(&host), labels);
    assert!(banner(&host).contains("seed"), "{}", banner(&host));
}

#[wasm_bindgen_test]
async fn a_stored_fault_rule_out_of_range_is_dropped_with_a_banner_and_never_runs() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let stored = page.until_stored("the run kept", "team-protocols.current", Option::is_some).await.unwrap();
    let poisoned = stored.replacen("\"faults\":{\"rules\":[]}", "\"faults\":{\"rules\":[{\"action\":{\"kind\":\"delay\",\"ms\":18446744073709551615},\"msg_type\":null,\"from\":null,\"to\":null,\"probability\":1.0}]}", 1);
    assert_ne!(poisoned, stored, "the stored run names its faults");
    page.unmount(&host);
    page.store("team-protocols.current", &poisoned).await;
    let reloaded = page.mount_keeping_storage();
    leptos::task::tick().await;
    open_tools(&reloaded).await;
    until("a banner", || banner(&reloaded).contains("fault")).await;
    assert!(texts(&reloaded, ".fault-rules li span").is_empty(), "the bad rule is not on the form");
    click(&reloaded, "[data-scenario=shutdown]");
    until("a clean run", || run_finished(&reloaded)).await;
}

#[wasm_bindgen_test]
async fn stop_mid_run_leaves_nothing_looking_busy() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    button(&host, "Step").click();
    type_prompt(&host, "Spawn alice as a coder. Then request her shutdown.");
    button(&host, "Run").click();
    until("alice at work", || {
        if texts(&host, ".roster li").iter().any(|t| t.starts_with("alice") && t.contains("working")) {
            return true;
        }
        button(&host, "Next").click();
        false
    })
    .await;
    button(&host, "Stop").click();
    leptos::task::tick().await;
    until("the page to show the stop", || share_link(&host).is_some()).await;
    let roster = texts(&host, ".roster li");
    assert!(!roster.iter().any(|t| t.contains("working")), "{roster:?}");
    assert!(roster.iter().any(|t| t.starts_with("alice") && t.contains("stopped")), "{roster:?}");
    assert!(texts(&host, ".muted").iter().all(|t| !t.contains("appears when the run ends")));
    assert!(host.query_selector(".centre.stopped").unwrap().is_some(), "the diagram is drawn as stopped");
    button(&host, "Live").click();
}

#[wasm_bindgen_test]
async fn ten_quick_clicks_on_run_start_one_run() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    type_prompt(&host, "Spawn alice as a coder. Then request her shutdown.");
    let run = button(&host, "Run");
    for _ in 0..10 {
        run.click();
    }
    // Each click is handled as it is made, before anything runs: the first
    // starts the run, and every later one finds it going and is refused.
    // Nothing is left to start a second run later.
    leptos::task::tick().await;
    assert!(banner(&host).contains("a run is in progress"), "a click was refused: {}", banner(&host));
    until("the run to finish and the team to go quiet", || run_finished(&host) && !run.has_attribute("disabled")).await;
    assert_eq!(all(&host, ".banner.run-end").len(), 1);
    assert_eq!(all(&host, ".banner.run-start").len(), 1);
    assert_eq!(texts(&host, ".roster li").iter().filter(|t| t.starts_with("alice")).count(), 1);
    assert_eq!(arrow_ids(&host, "shutdown_request").len(), 1, "the shutdown was requested");
}

#[wasm_bindgen_test]
async fn an_imported_run_survives_a_reload() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=reject-plan]");
    until("the run to finish", || run_finished(&host)).await;
    let (labels, json) = (arrow_labels(&host), exported(&host, "json"));
    click(&host, "[data-scenario=shutdown]");
    until("another run", || run_finished(&host) && arrow_labels(&host) != labels).await;
    choose_file(&host, "trace.json", &json);
    until("the import", || arrow_labels(&host) == labels).await;
    page.unmount(&host);
    let reloaded = page.mount_keeping_storage();
    leptos::task::tick().await;
    open_tools(&reloaded).await;
    until("the imported run after the reload", || arrow_labels(&reloaded) == labels).await;
}

#[wasm_bindgen_test]
async fn a_rejected_fault_value_is_not_replaced_by_the_previous_one() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    set_input(&host, "[aria-label='Fault probability']", "5", "change");
    leptos::task::tick().await;
    assert!(banner(&host).contains("probability"), "{}", banner(&host));
    let field: web_sys::HtmlInputElement = host.query_selector("[aria-label='Fault probability']").unwrap().unwrap().unchecked_into();
    assert_eq!(field.value(), "5", "what was typed stays, marked wrong");
    button(&host, "Add fault rule").click();
    leptos::task::tick().await;
    assert!(texts(&host, ".fault-rules li span").is_empty(), "no rule was added with another value");
    assert!(banner(&host).contains("probability"));
}

#[wasm_bindgen_test]
async fn a_damaged_saved_list_does_not_block_save_and_can_be_cleared() {
    let page = Page::start();
    let storage = window().local_storage().unwrap().unwrap();
    storage.set_item("team-protocols.saved", "{ not a list").unwrap();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    until("the damaged list reported", || texts(&host, ".saved-damaged").join(" ").contains("damaged")).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    button(&host, "Save run").click();
    until("the run listed as saved", || all(&host, ".saved-open").len() == 1).await;
    assert_eq!(banner(&host), "", "saving works");
    let first = page.stored("team-protocols.saved").await;
    page.store("team-protocols.saved", "{ not a list").await;
    button(&host, "Save run").click();
    page.until_stored("a new list", "team-protocols.saved", |l| l.as_deref().is_some_and(|l| l.starts_with('[')) && *l != first).await;
    until("the new list shown", || all(&host, ".saved-open").len() == 1).await;
    button(&host, "Clear saved runs").click();
    leptos::task::tick().await;
    button(&host, "Yes, delete every saved run").click();
    until("the list emptied", || all(&host, ".saved-open").is_empty()).await;
    page.until_stored("the list deleted", "team-protocols.saved", Option::is_none).await;
    assert!(storage.get_item("team-protocols.saved").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn a_shut_down_teammate_is_not_offered_as_a_sender() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let from = texts(&host, "select[aria-label=From] option");
    assert!(from.contains(&"lead".to_string()), "{from:?}");
    assert!(!from.contains(&"alice".to_string()), "alice has shut down: {from:?}");
}

#[wasm_bindgen_test]
async fn a_rejected_seed_stops_run_instead_of_running_the_previous_seed() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    set_input(&host, "[aria-label='Seed']", "-1", "change");
    leptos::task::tick().await;
    assert!(banner(&host).contains("seed '-1'"), "{}", banner(&host));
    button(&host, "×").click();
    click(&host, "[data-scenario=shutdown]");
    leptos::task::tick().await;
    assert!(banner(&host).contains("seed"), "{}", banner(&host));
    assert!(all(&host, "g.msg").is_empty(), "nothing ran with the old seed");
    assert!(texts(&host, ".will-run").join(" ").contains("fix Settings"));
    set_input(&host, "[aria-label='Seed']", "7", "change");
    click(&host, "[data-scenario=shutdown]");
    until("the run with seed 7", || run_finished(&host)).await;
    assert!(share_link(&host).unwrap().ends_with("seed=7"));
}

#[wasm_bindgen_test]
async fn a_shut_down_teammate_cannot_send_through_the_session() {
    use team_protocols::protocol::{AgentName, Event};
    use team_protocols::runtime::scenarios;
    use team_protocols::ui::state::session::Session;
    let s = Session::new(0.0);
    s.run_scenario(scenarios::SHUTDOWN);
    let finished = move || s.run.trace.with_untracked(|t| t.entries().iter().any(|e| matches!(e.event, Event::RunFinished)));
    until("the run to finish", finished).await;
    let before = s.run.trace.with_untracked(|t| t.len());
    s.send(&AgentName::parse("alice").unwrap(), &AgentName::lead(), "one more thing");
    let banner = s.banner.get_untracked().unwrap_or_default();
    assert!(banner.contains("alice has shut down"), "{banner}");
    assert_eq!(s.run.trace.with_untracked(|t| t.len()), before, "nothing was sent");
}

#[wasm_bindgen_test]
async fn settings_that_cannot_build_a_team_leave_the_run_on_screen_as_it_was() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let (labels, link) = (arrow_labels(&host), share_link(&host));
    set_select(&host, "Provider", "anthropic");
    leptos::task::tick().await;
    assert!(texts(&host, ".will-run .unapplied").join(" ").contains("settings changed"));
    type_prompt(&host, "Spawn bob.");
    button(&host, "Run").click();
    leptos::task::tick().await;
    assert!(banner(&host).contains("Anthropic API key"), "{}", banner(&host));
    assert_eq!(arrow_labels(&host), labels);
    assert_eq!(share_link(&host), link, "the run on screen and its link are unchanged");
    back_to_scripted(&host);
}

// ---- explain (issue 11): captions, the event log, what was said ----

fn caption_text(host: &web_sys::HtmlElement) -> (String, String) {
    (texts(host, ".caption-box .caption-title").concat(), texts(host, ".caption-box .caption-text").concat())
}

#[wasm_bindgen_test]
async fn the_caption_follows_back_and_next_and_is_announced_politely() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    let live = host.query_selector(".caption-box [aria-live]").unwrap().expect("a live region in the caption box");
    assert_eq!(live.get_attribute("aria-live").as_deref(), Some("polite"));
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    assert_eq!(caption_text(&host).0, "Run finished");
    // Back until the caption tells the request: its words name alice and the pending request.
    until("Back to reach the shutdown request", || {
        if caption_text(&host).0 == "Shutdown requested" {
            return true;
        }
        button(&host, "Back").click();
        false
    })
    .await;
    let (_, text) = caption_text(&host);
    let id = arrow_ids(&host, "shutdown_request").into_iter().next().unwrap_or_default();
    assert!(text.starts_with("The lead asks alice to shut down. Request ") && text.contains("pending until alice answers"), "{text}");
    assert!(id.is_empty() || text.contains(&id), "the caption names the request {id}: {text}");
    let at = position(&host).0;
    button(&host, "Next").click();
    leptos::task::tick().await;
    until("the caption of the next event", || position(&host).0 == at + 1 && caption_text(&host).0 == "shutdown_request sent").await;
    button(&host, "Back").click();
    until("the caption to come back", || caption_text(&host).0 == "Shutdown requested").await;
}

#[wasm_bindgen_test]
async fn the_event_log_shows_captions_and_the_raw_form_on_demand_with_one_tab_stop() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let (_, total) = position(&host);
    let rows = all(&host, ".event-log li.log-row");
    assert_eq!(rows.len(), total.min(200), "one row per event up to the cursor");
    let titles = texts(&host, ".event-log .log-title");
    assert!(titles.iter().any(|t| t == "Shutdown approved"), "{titles:?}");
    assert!(all(&host, ".event-log .log-raw").is_empty(), "raw lines are hidden by default");
    let toggle: web_sys::HtmlInputElement = host.query_selector(".log-raw-toggle input").unwrap().unwrap().unchecked_into();
    toggle.click();
    leptos::task::tick().await;
    let raw = texts(&host, ".event-log .log-raw");
    assert_eq!(raw.len(), rows.len());
    assert!(raw.iter().any(|r| r.contains("pending -> approved")), "the raw line of the transition: {raw:?}");
    // One tab stop: the current row.
    let stops: Vec<_> = all(&host, ".event-log li").into_iter().filter(|li| li.get_attribute("tabindex").as_deref() == Some("0")).collect();
    assert_eq!(stops.len(), 1);
    assert!(stops[0].class_list().contains("current"));
    // ArrowDown moves the stop to the older row; Enter jumps the cursor there.
    let first: web_sys::HtmlElement = stops[0].clone().unchecked_into();
    first.focus().unwrap();
    let key = keydown;
    first.dispatch_event(&key("ArrowDown")).unwrap();
    leptos::task::tick().await;
    let focused = document().active_element().unwrap();
    let seq: usize = focused.get_attribute("data-seq").unwrap().parse().unwrap();
    assert_eq!(seq, total - 2, "the next row down is the event before");
    assert_eq!(focused.get_attribute("tabindex").as_deref(), Some("0"));
    focused.dispatch_event(&key("Enter")).unwrap();
    until("Enter to move the cursor", || position(&host).0 == seq + 1).await;
    assert_eq!(all(&host, ".event-log li.log-row").len(), seq + 1, "the log ends at the cursor");
}

/// A `keydown` of `key` that bubbles, as a keyboard sends it.
fn keydown(key: &str) -> web_sys::KeyboardEvent {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()
}

#[wasm_bindgen_test]
async fn the_requests_and_the_inboxes_are_one_tab_stop_each_and_arrow_keys_home_and_end_move_within_them() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=out-of-order]");
    until("the run to finish", || run_finished(&host)).await;
    let cursor = position(&host);
    let tab_stops = |rows: &[web_sys::Element]| -> Vec<usize> {
        (0..rows.len()).filter(|&i| rows[i].get_attribute("tabindex").as_deref() == Some("0")).collect()
    };
    let focused_row = |rows: &[web_sys::Element]| {
        let active = document().active_element();
        rows.iter().position(|r| active.as_ref().is_some_and(|a| a.is_same_node(Some(r))))
    };
    for (selector, list) in [(".requests button.request-head", "requests"), (".inbox > summary", "inboxes")] {
        let rows = all(&host, selector);
        assert!(rows.len() >= 2, "{list}: {} rows", rows.len());
        assert_eq!(tab_stops(&rows), [0], "{list}: one tab stop, on the first row");
        let last = rows.len() - 1;
        rows[0].unchecked_ref::<web_sys::HtmlElement>().focus().unwrap();
        for (key, expected) in
            [("ArrowDown", 1), ("ArrowUp", 0), ("ArrowUp", 0), ("End", last), ("ArrowDown", last), ("Home", 0), ("ArrowDown", 1)]
        {
            document().active_element().unwrap().dispatch_event(&keydown(key)).unwrap();
            leptos::task::tick().await;
            assert_eq!(focused_row(&rows), Some(expected), "{list}: {key} focuses row {expected}");
            assert_eq!(tab_stops(&rows), [expected], "{list}: the one tab stop follows the focus");
        }
        assert_eq!(position(&host), cursor, "{list}: Home and End inside the list do not move the cursor");
        // A click moves the one tab stop to the row clicked (a request
        // clicked is also selected, and a selected request is listed first:
        // the row is found by what it names, not by its place).
        let name_of = |row: &web_sys::Element| {
            row.get_attribute("data-agent")
                .or_else(|| row.closest("li[data-request]").ok().flatten().and_then(|li| li.get_attribute("data-request")))
        };
        let clicked = name_of(&rows[last]);
        assert!(clicked.is_some(), "{list}: each row names its agent or request");
        rows[last].unchecked_ref::<web_sys::HtmlElement>().click();
        leptos::task::tick().await;
        let rows = all(&host, selector);
        let stops: Vec<Option<String>> = tab_stops(&rows).into_iter().map(|i| name_of(&rows[i])).collect();
        assert_eq!(stops, [clicked], "{list}: the one tab stop follows a click");
    }
}

#[wasm_bindgen_test]
async fn the_reject_plan_arrows_carry_the_plan_and_the_feedback_whole_on_hover_with_captions() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=reject-plan]");
    until("the run to finish", || run_finished(&host)).await;
    let request = all(&host, "g.msg")
        .into_iter()
        .find(|g| g.text_content().unwrap_or_default().starts_with("plan_approval_request ["))
        .expect("the plan request arrow");
    let said = request.query_selector(".msg-said").unwrap().expect("the plan under its arrow").text_content().unwrap_or_default();
    assert!(said.starts_with("plan: “"), "{said}");
    let title = request.query_selector("title").unwrap().expect("the whole plan on hover").text_content().unwrap_or_default();
    assert!(title.starts_with("plan: ") && title.len() > said.len(), "{title} / {said}");
    let feedback =
        all(&host, "g.msg .msg-said").into_iter().map(|e| e.text_content().unwrap_or_default()).find(|t| t.starts_with("feedback: "));
    assert!(feedback.is_some(), "the lead's feedback is on its answer's arrow");
    assert!(!texts(&host, "g.note text").iter().any(|t| t.contains("plan_approval()")), "the plan note names the plan");
    let titles = texts(&host, ".event-log .log-title");
    assert!(titles.iter().any(|t| t == "Plan rejected") && titles.iter().any(|t| t == "Plan approved"), "{titles:?}");
}

#[wasm_bindgen_test]
async fn the_legend_in_the_caption_box_explains_the_diagram_marks_when_opened() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    assert!(all(&host, ".legend .legend-entry").is_empty(), "a closed legend draws nothing");
    let details = host.query_selector(".caption-box details.legend").unwrap().expect("a legend");
    details.set_attribute("open", "").unwrap();
    details.dispatch_event(&web_sys::Event::new("toggle").unwrap()).unwrap();
    until("the legend to draw", || !all(&host, ".legend .legend-entry").is_empty()).await;
    let words = texts(&host, ".legend .legend-text");
    for needed in ["dotted", "dashed", "×", "pending", "tool call", "violation"] {
        assert!(words.iter().any(|w| w.contains(needed)), "{needed} in {words:?}");
    }
}

#[wasm_bindgen_test]
async fn each_inbox_shows_its_count_and_nothing_stray() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let inboxes = texts(&host, ".inbox");
    assert!(!inboxes.is_empty());
    for text in &inboxes {
        assert!(text.trim().ends_with("(0 unread)"), "an emptied inbox says so and nothing else: {text:?}");
    }
}

/// The state lit on the machinery panel's FSM.
fn fsm_lit(host: &web_sys::HtmlElement) -> Vec<String> {
    texts(host, ".machinery .fsm-node.lit text")
}

#[wasm_bindgen_test]
async fn the_machinery_panel_follows_back_and_next_and_a_tracker_entry_puts_its_request_on_the_fsm() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    assert_eq!(texts(&host, ".machinery .tracker").concat(), "shutdown_requests = {}plan_requests = {}", "empty trackers before a run");
    assert!(fsm_lit(&host).is_empty(), "no request, nothing lit");
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let id = arrow_ids(&host, "shutdown_request").into_iter().next().expect("a shutdown request");
    assert_eq!(fsm_lit(&host), ["approved"]);
    assert_eq!(all(&host, ".machinery .fsm-edge.taken.to-approved").len(), 1, "the edge it took is marked");
    let entry = texts(&host, ".machinery .tracker button.entry");
    assert_eq!(entry, [format!("\"{id}\": {{\"target\": \"alice\", \"status\": \"approved\"}},")]);
    let config = texts(&host, ".machinery .config .code-line").concat();
    assert!(config.contains("{\"name\": \"alice\", \"role\": \"coder\", \"status\": \"shutdown\"}"), "{config}");
    // Back to before the answer: pending, no edge taken, alice still working.
    until("Back to reach the pending request", || {
        if fsm_lit(&host) == ["pending"] {
            return true;
        }
        button(&host, "Back").click();
        false
    })
    .await;
    assert!(all(&host, ".machinery .fsm-edge.taken").is_empty());
    assert!(texts(&host, ".machinery .tracker button.entry")[0].ends_with("\"status\": \"pending\"},"));
    assert!(!texts(&host, ".machinery .config .code-line").concat().contains("\"status\": \"shutdown\""));
    // Next until it is approved again; the step that moves it animates it.
    until("Next to reach the answer", || {
        if fsm_lit(&host) == ["approved"] {
            return true;
        }
        button(&host, "Next").click();
        false
    })
    .await;
    assert_eq!(all(&host, ".machinery .fsm-edge.taken.fresh").len(), 1, "the move just made is animated");
    // Picking the entry selects the request everywhere.
    click(&host, ".machinery .tracker button.entry");
    until("the request to be selected", || all(&host, ".machinery button.entry[aria-pressed=true]").len() == 1).await;
    until("the Requests panel to open the same request", || {
        all(&host, ".requests li.request.open").iter().map(|li| li.get_attribute("data-request").unwrap_or_default()).collect::<Vec<_>>()
            == [id.clone()]
    })
    .await;
    assert!(texts(&host, ".machinery figcaption").concat().starts_with(&format!("Request {id} (shutdown, lead → alice)")));
}

#[wasm_bindgen_test]
async fn the_messages_table_lists_the_messages_at_the_cursor_with_headers_and_a_caption() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let arrows = all(&host, "g.msg").len();
    let id = arrow_ids(&host, "shutdown_request").into_iter().next().expect("a shutdown request");
    let toggle = button(&host, "Messages as a table");
    assert_eq!(toggle.get_attribute("aria-pressed").as_deref(), Some("false"));
    toggle.click();
    until("the table", || !all(&host, "table.message-table tbody tr").is_empty()).await;
    assert_eq!(toggle.get_attribute("aria-pressed").as_deref(), Some("true"));
    assert!(host.query_selector("#diagram").unwrap().unwrap().has_attribute("hidden"), "the table takes the diagram's place");
    assert_eq!(texts(&host, ".message-table thead th[scope=col]").len(), 8);
    assert!(texts(&host, ".message-table caption")[0].starts_with(&format!("Messages so far, newest first: {arrows} as of step")));
    let rows = all(&host, ".message-table tbody tr");
    assert_eq!(rows.len(), arrows, "one row per arrow of the diagram");
    let cells = |row: &web_sys::Element| -> Vec<String> {
        let list = row.query_selector_all("th, td").unwrap();
        (0..list.length()).map(|i| list.item(i).unwrap().text_content().unwrap_or_default().trim().to_string()).collect()
    };
    let answer = rows.iter().map(cells).find(|c| c[4] == "shutdown_response").expect("the answer's row");
    assert_eq!((answer[2].as_str(), answer[3].as_str(), answer[5].as_str()), ("alice", "lead", id.as_str()));
    assert!(answer[7].starts_with("delivered"), "{answer:?}");
    let request = rows.iter().map(cells).find(|c| c[4] == "shutdown_request").expect("the request's row");
    assert!(request[7].starts_with("delivered, read at #"), "{request:?}");
    // Back: the table follows the cursor, one message fewer at some point.
    until("Back to drop the answer's row", || {
        if all(&host, ".message-table tbody tr").len() < arrows {
            return true;
        }
        button(&host, "Back").click();
        false
    })
    .await;
    let (at, _) = position(&host);
    assert!(texts(&host, ".message-table caption")[0].contains(&format!("as of step {at} of")));
    button(&host, "Messages as a table").click();
    until("the diagram back", || !host.query_selector("#diagram").unwrap().unwrap().has_attribute("hidden")).await;
    assert!(all(&host, "table.message-table").is_empty());
}

fn tour_progress(host: &web_sys::HtmlElement) -> String {
    texts(host, ".tour-progress").into_iter().next().unwrap_or_default()
}

fn tour_cursor(host: &web_sys::HtmlElement) -> usize {
    host.query_selector(".tour-card").unwrap().expect("the tour card").get_attribute("data-cursor").expect("a stop").parse().unwrap()
}

#[wasm_bindgen_test]
async fn a_guided_tour_runs_its_scenario_and_moves_the_cursor_to_each_stops_event_until_it_ends() {
    use team_protocols::view::tours;
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    assert!(all(&host, ".tour-card").is_empty(), "no tour card until a tour starts");
    let tour = tours::by_id("shutdown").unwrap();
    let en = team_protocols::view::i18n::Catalog::en();
    let title = |i: usize| en.t(&tour.stops[i].title_key());
    let n = tour.stops.len();
    // Next stop walks to its stop at the Speed setting: fast here.
    set_select(&host, "Speed", "4");
    click(&host, "[data-tour=shutdown]");
    until("the tour's first stop", || tour_progress(&host) == format!("Stop 1 of {n}")).await;
    // All six stops found: the scenario ran to its end (the last stop is the
    // lead reading the answer); the cursor is held at the first stop.
    let (at, total) = position(&host);
    assert!(at < total, "the cursor stays on the stop, not on the latest event");
    assert_eq!(texts(&host, ".tour-intro"), [tour.intro(en)]);
    let current = || host.query_selector("[data-tour=shutdown]").unwrap().unwrap().get_attribute("aria-current");
    assert_eq!(current().as_deref(), Some("true"), "the tour's button says it is the one on");
    // What the caption box says at a stop is the stop's own event.
    let captions = ["Shutdown requested", "Inbox read", "Model called", "Shutdown approved", "alice shuts down", "Inbox read"];
    assert_eq!(captions.len(), n);
    let mut cursors = Vec::new();
    for (i, caption) in captions.iter().enumerate() {
        if i > 0 {
            button(&host, "Next stop").click();
            until("the next stop", || tour_progress(&host) == format!("Stop {} of {n}", i + 1)).await;
            until("the walk to reach the stop", || position(&host).0 == tour_cursor(&host)).await;
        }
        assert_eq!(texts(&host, ".tour-stop-title"), [title(i)]);
        let at = tour_cursor(&host);
        assert_eq!(position(&host).0, at, "stop {}: the playback cursor is on the stop's event", i + 1);
        assert_eq!(texts(&host, ".caption-title"), [*caption], "stop {}", i + 1);
        until("the stop to be announced", || {
            texts(&host, ".caption-live")[0].starts_with(&format!("Tour stop {} of {n}: {}", i + 1, title(i)))
        })
        .await;
        cursors.push(at);
    }
    assert!(cursors.windows(2).all(|w| w[0] < w[1]), "the stops follow the run: {cursors:?}");
    // The request of a stop about one is picked (its arrows stand out).
    assert_eq!(all(&host, "g.msg.hl").len(), 2, "the request and its answer");
    // Next at the last stop walks on towards the run's end, and the card
    // stays on the last stop while the cursor walks (it follows the cursor);
    // Previous stop ends the walk and goes back one.
    button(&host, "Next stop").click();
    leptos::task::tick().await;
    assert_eq!(tour_progress(&host), format!("Stop {n} of {n}"));
    button(&host, "Previous stop").click();
    until("the stop before", || tour_progress(&host) == format!("Stop {} of {n}", n - 1)).await;
    assert_eq!(position(&host).0, cursors[n - 2]);
    button(&host, "End tour").click();
    until("the card to close", || all(&host, ".tour-card").is_empty()).await;
    assert_eq!(position(&host).0, cursors[n - 2], "the cursor stays where the tour left it");
    assert_eq!(current(), None);
    assert!(all(&host, "g.msg.hl").is_empty(), "the request is let go");
    assert!(!texts(&host, ".caption-live")[0].contains("Tour stop"), "nothing about a tour is announced after it ends");
}

#[wasm_bindgen_test]
async fn the_without_protocols_tour_starts_at_a_plain_message_that_carries_no_request_id() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-tour=without-protocols]");
    until("the tour's first stop", || tour_progress(&host).starts_with("Stop 1 of")).await;
    assert_eq!(tour_progress(&host), format!("Stop 1 of {}", team_protocols::view::tours::TOURS[0].stops.len()));
    let texts_now = texts(&host, ".tour-text");
    assert!(texts_now[0].contains("plain message") && texts_now[0].contains("no request_id"), "{texts_now:?}");
    assert_eq!(texts(&host, ".caption-title"), ["Message sent"]);
    assert!(all(&host, "g.msg.hl").is_empty(), "a plain message has no request to pick");
    // Running another scenario replaces the tour's run: the tour ends.
    click(&host, "[data-scenario=shutdown]");
    until("the card to close", || all(&host, ".tour-card").is_empty()).await;
}

#[wasm_bindgen_test]
async fn a_tour_uses_the_run_on_screen_when_it_is_its_scenarios_and_escape_ends_it() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let id = arrow_ids(&host, "shutdown_request").into_iter().next().expect("a shutdown request");
    // A new seed on the form would give another request_id to a new run.
    set_input(&host, "[aria-label='Seed']", "8", "change");
    click(&host, "[data-tour=shutdown]");
    until("the tour's first stop", || tour_progress(&host).starts_with("Stop 1 of")).await;
    let text = texts(&host, ".tour-text").join(" ");
    assert!(text.contains(&id), "the tour walks the run that was on screen ({id}): {text}");
    let card: web_sys::HtmlElement = host.query_selector(".tour-card").unwrap().unwrap().unchecked_into();
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Escape");
    init.set_bubbles(true);
    card.dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()).unwrap();
    until("Escape to end the tour", || all(&host, ".tour-card").is_empty()).await;
}

#[wasm_bindgen_test]
async fn a_tour_that_cannot_run_its_scenario_does_not_start_over_the_run_on_screen() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=reject-plan]");
    until("the run to finish", || run_finished(&host)).await;
    set_select(&host, "Provider", "anthropic");
    leptos::task::tick().await;
    click(&host, "[data-tour=shutdown]");
    leptos::task::tick().await;
    assert!(banner(&host).contains("API key"), "the banner says why: {}", banner(&host));
    leptos::task::tick().await;
    assert!(all(&host, ".tour-card").is_empty(), "no tour over bob's run");
    assert_eq!(badges(&host), ["rejected", "approved"], "bob's run is still on screen");
    back_to_scripted(&host);
}

// ------------------------------------------------------- languages (i18n)

/// Installs the 中文, 日本語 and Italiano messages as the page would fetch
/// them, from the files the build copies next to the page. These tests are
/// about the page rendering in a language; fetching the files (and what
/// the page does when it cannot) is `tests/web_language.rs`'s, so no test
/// here depends on a file server.
fn install_translations() {
    use team_protocols::view::i18n::{Catalog, Locale};
    for locale in [Locale::Zh, Locale::Ja, Locale::It] {
        let texts = locale.files().iter().map(|file| (*file, web_page::translation(locale, file).expect("a message file").to_string()));
        Catalog::install(locale, texts).expect("the translations parse");
    }
}

/// Switches the page's language with the header's switcher and waits for
/// it, as long as the switcher itself waits before it gives up and says
/// why. The translations are installed first (see `install_translations`).
async fn switch_language(host: &web_sys::HtmlElement, tag: &str) {
    install_translations();
    let el: web_sys::HtmlSelectElement = host.query_selector("#lang-select").unwrap().expect("the language switcher").unchecked_into();
    el.set_value(tag);
    el.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    let started = js_sys::Date::now();
    while js_sys::Date::now() - started < f64::from(team_protocols::ui::browser::lang::SWITCH_WAIT_MS) + 2_000.0 {
        if document_lang() == tag {
            leptos::task::tick().await;
            return;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    panic!(
        "timed out waiting for the switch to {tag}; the banner says: {}; busy {:?}; ready {}",
        banner(host),
        el.get_attribute("aria-busy"),
        team_protocols::view::i18n::Locale::from_tag(tag).and_then(team_protocols::view::i18n::Catalog::ready).is_some()
    );
}

fn document_lang() -> String {
    document().document_element().unwrap().get_attribute("lang").unwrap_or_default()
}

#[wasm_bindgen_test]
async fn each_language_renders_the_page_in_it_with_no_missing_key_and_keeps_the_run_and_the_cursor() {
    use team_protocols::view::i18n::{Catalog, Locale};
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    button(&host, "Back").click();
    button(&host, "Back").click();
    leptos::task::tick().await;
    let cursor = position(&host);
    let label = host.query_selector("label.lang-switch").unwrap().expect("a labelled switcher");
    assert!(label.query_selector("select").unwrap().is_some());
    for locale in [Locale::Zh, Locale::Ja, Locale::It, Locale::En] {
        switch_language(&host, locale.tag()).await;
        let cat = Catalog::get(locale);
        assert_eq!(document_lang(), locale.tag(), "<html lang> follows the switcher");
        let run = cat.t("ui-run");
        assert!(
            all(&host, "button.primary").iter().any(|b| b.text_content().unwrap_or_default().trim() == run),
            "{}: the Run button says {run}",
            locale.tag()
        );
        assert_eq!(texts(&host, "h1"), [cat.t("ui-title")]);
        let body = host.text_content().unwrap_or_default();
        assert!(!body.contains('⟦'), "{}: a missing key shows: {body}", locale.tag());
        assert_eq!(position(&host), cursor, "{}: the run and the cursor stay", locale.tag());
        assert_ne!(texts(&host, ".caption-title")[0], "", "the caption at the cursor is told");
        if locale != Locale::En {
            assert_ne!(cat.t("ui-run"), Catalog::en().t("ui-run"), "{}: a translation, not English", locale.tag());
            assert_ne!(texts(&host, ".caption-text")[0], Catalog::en().t("cap-nothing-text"));
        }
    }
    let stored = window().local_storage().unwrap().unwrap().get_item("team-protocols.locale").unwrap();
    assert_eq!(stored.as_deref(), Some("en"), "the choice is remembered");
}

#[wasm_bindgen_test]
async fn the_diagram_its_legend_and_the_provider_menu_speak_the_page_language() {
    use team_protocols::view::i18n::{Catalog, Locale};
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    switch_language(&host, "ja").await;
    leptos::task::tick().await;
    let ja = Catalog::get(Locale::Ja);
    let drawn = texts(&host, "svg.diagram text").join(" | ");
    assert!(drawn.contains(&ja.t("diagram-run-finished")), "the run's end in Japanese: {drawn}");
    assert!(drawn.contains("alice を起動") || drawn.contains("を起動"), "the spawn arrow in Japanese: {drawn}");
    assert!(!drawn.contains("run finished") && !drawn.contains("spawn alice"), "no English words drawn: {drawn}");
    assert!(drawn.contains("shutdown_request"), "message types stay as they are: {drawn}");
    let options = texts(&host, "select[aria-label] option");
    assert!(options.iter().any(|o| o == &ja.t("provider-scripted")), "{options:?}");
    switch_language(&host, "en").await;
    leptos::task::tick().await;
}

#[wasm_bindgen_test]
async fn the_caption_and_an_open_tour_stop_follow_a_language_switch() {
    use team_protocols::view::i18n::{Catalog, Locale};
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    set_select(&host, "Speed", "4");
    click(&host, "[data-tour=shutdown]");
    until("the tour's first stop", || tour_progress(&host).starts_with("Stop 1 of")).await;
    let at = position(&host);
    switch_language(&host, "ja").await;
    let ja = Catalog::get(Locale::Ja);
    assert_eq!(texts(&host, ".caption-title"), [ja.t("cap-shutdown-requested-title")]);
    assert_eq!(texts(&host, ".tour-stop-title"), [ja.t("tour-shutdown-1-title")]);
    assert!(tour_progress(&host).contains('1'), "{}", tour_progress(&host));
    assert_eq!(position(&host), at, "the cursor stays on the stop");
    assert!(texts(&host, ".tour-text")[0].contains("shutdown_requests"), "identifiers stay as they are");
    switch_language(&host, "en").await;
    assert_eq!(texts(&host, ".caption-title"), ["Shutdown requested"]);
    button(&host, "End tour").click();
}

#[wasm_bindgen_test]
async fn a_tours_walk_to_its_next_stop_follows_the_speed_setting() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    set_select(&host, "Speed", "0.25");
    click(&host, "[data-tour=shutdown]");
    until("the tour's first stop", || tour_progress(&host).starts_with("Stop 1 of")).await;
    let first = position(&host).0;
    let clicked = js_sys::Date::now();
    button(&host, "Next stop").click();
    leptos::task::tick().await;
    let target = tour_cursor(&host);
    assert!(target > first + 2, "the second stop is a few events on ({first} → {target})");
    // At 0.25x an event stays 1.6 s: the walk's first step is one event,
    // and it comes no sooner (a timer never fires early; a slow machine
    // only makes it later).
    until("the walk's first step", || position(&host).0 != first).await;
    let waited = js_sys::Date::now() - clicked;
    let (at, _) = position(&host);
    assert!(at == first + 1 && at < target, "at 0.25x the walk goes one event at a time ({first} → {at}, stop at {target})");
    assert!(waited >= 1_500.0, "at 0.25x an event stays 1.6 s, but the walk stepped after {waited} ms");
    // At 4x it gets there in a fraction of a second per event.
    set_select(&host, "Speed", "4");
    until("the walk to reach the stop at 4x", || position(&host).0 == target).await;
    assert!(texts(&host, ".caption-live")[0].starts_with("Tour stop 2 of"), "announced on arrival");
    button(&host, "End tour").click();
    set_select(&host, "Speed", "1");
}

#[wasm_bindgen_test]
async fn the_shortcuts_dialog_says_that_escape_ends_a_tour_and_escape_does() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    let help = texts(&host, "dialog.shortcuts dd").join(" | ");
    assert!(help.contains("End the guided tour"), "{help}");
    click(&host, "[data-tour=shutdown]");
    until("the tour's first stop", || tour_progress(&host).starts_with("Stop 1 of")).await;
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Escape");
    init.set_bubbles(true);
    document()
        .body()
        .unwrap()
        .dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap())
        .unwrap();
    until("Escape to end the tour", || all(&host, ".tour-card").is_empty()).await;
}

#[wasm_bindgen_test]
async fn stepping_moves_an_envelope_along_its_arrow_into_the_inbox_and_back_reverses_it() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    // Back over a sent message: its envelope travels back to its sender.
    until("Back over a sent message", || {
        if !all(&host, "svg.diagram .mover.travel.back").is_empty() {
            return true;
        }
        button(&host, "Back").click();
        false
    })
    .await;
    let back = all(&host, "svg.diagram .mover.travel.back");
    assert_eq!(back.len(), 1, "one envelope moves");
    let style = back[0].get_attribute("style").unwrap_or_default();
    assert!(style.contains("--x0:") && style.contains("--x2:"), "its path is on the element: {style}");
    assert_eq!(back[0].query_selector_all(".envelope").unwrap().length(), 1, "it is drawn as an envelope");
    // Next: the message travels again, forward, and its recipient's inbox
    // shows it arriving.
    button(&host, "Next").click();
    until("the envelope to travel forward", || all(&host, "svg.diagram .mover.travel").iter().any(|m| !m.class_list().contains("back")))
        .await;
    assert!(all(&host, "svg.diagram .mover.back").is_empty(), "the backward movement is gone");
    let arriving = all(&host, "svg.diagram .inbox-stack.arriving");
    assert_eq!(arriving.len(), 1, "the recipient's inbox takes it in");
    let label = arriving[0].get_attribute("aria-label").unwrap_or_default();
    assert!(label.contains("'s inbox: ") && label.ends_with(" waiting"), "{label}");
    // A jump (End) moves nothing.
    document().dispatch_event(&keydown("End")).unwrap();
    until("End to reach the last event", || position(&host).0 == position(&host).1).await;
    assert!(all(&host, "svg.diagram .mover").is_empty(), "nothing moves after a jump");
}

/// Whether the page is in presenter mode, by its button and its layout.
fn presenting(host: &web_sys::HtmlElement) -> bool {
    let pressed = button(host, "Presenter").get_attribute("aria-pressed").as_deref() == Some("true");
    let layout = !all(host, ".app.presenter").is_empty();
    assert_eq!(pressed, layout, "the button says what the page shows");
    pressed
}

/// The diagram's zoom, in percent, as its zoom bar shows it.
fn zoom_percent(host: &web_sys::HtmlElement) -> f64 {
    texts(host, ".zoom-level")[0].trim_end_matches('%').trim().parse().unwrap()
}

#[wasm_bindgen_test]
async fn presenter_mode_is_toggled_by_its_button_and_the_p_key_and_escape_leaves_it_after_a_tour() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    let toggle = button(&host, "Presenter");
    assert_eq!(toggle.get_attribute("aria-keyshortcuts").as_deref(), Some("p"));
    let help = texts(&host, "dialog.shortcuts dd").join(" | ");
    assert!(help.contains("Presenter mode on or off") && help.contains("Leave presenter mode"), "{help}");
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    assert!(!presenting(&host));
    let everyday = zoom_percent(&host);
    // The button: the side columns step aside, the diagram grows to a
    // readable scale.
    toggle.click();
    until("the button to enter presenter mode", || presenting(&host)).await;
    for aside in all(&host, "aside#setup, aside#panels") {
        assert!(aside.has_attribute("hidden"), "{} is hidden", aside.id());
    }
    until("the diagram to be drawn at 150 % or more", || zoom_percent(&host) >= 150.0).await;
    // Escape leaves it, and the everyday zoom comes back.
    document().body().unwrap().dispatch_event(&keydown("Escape")).unwrap();
    until("Escape to leave presenter mode", || !presenting(&host)).await;
    until("the everyday zoom to come back", || zoom_percent(&host) == everyday).await;
    assert!(all(&host, "aside#setup, aside#panels").iter().all(|a| !a.has_attribute("hidden")));
    // The key; the mode stays while another scenario runs.
    document().body().unwrap().dispatch_event(&keydown("p")).unwrap();
    until("p to enter presenter mode", || presenting(&host)).await;
    let labels = arrow_labels(&host);
    click(&host, "[data-scenario=approve-plan]");
    until("the other run to finish", || run_finished(&host) && arrow_labels(&host) != labels).await;
    assert!(presenting(&host), "presenter mode survives a new run");
    // During a tour, Escape ends the tour first, then leaves presenter mode.
    click(&host, "[data-tour=shutdown]");
    until("the tour's first stop", || tour_progress(&host).starts_with("Stop 1 of")).await;
    assert!(presenting(&host), "the tour runs in presenter mode");
    document().body().unwrap().dispatch_event(&keydown("Escape")).unwrap();
    until("Escape to end the tour", || all(&host, ".tour-card").is_empty()).await;
    assert!(presenting(&host), "the first Escape only ends the tour");
    document().body().unwrap().dispatch_event(&keydown("Escape")).unwrap();
    until("the second Escape to leave presenter mode", || !presenting(&host)).await;
    // p toggles it off as well as on.
    document().body().unwrap().dispatch_event(&keydown("p")).unwrap();
    until("p to enter", || presenting(&host)).await;
    document().body().unwrap().dispatch_event(&keydown("p")).unwrap();
    until("p to leave", || !presenting(&host)).await;
}

/// The `.cost` line of the Team panel's row of `who`.
fn cost_of(host: &web_sys::HtmlElement, who: &str) -> Option<String> {
    all(host, ".roster li")
        .into_iter()
        .find(|li| li.query_selector(".name").ok().flatten().and_then(|n| n.text_content()).as_deref() == Some(who))
        .and_then(|li| li.query_selector(".cost").ok().flatten())
        .map(|c| c.text_content().unwrap_or_default())
}

#[wasm_bindgen_test]
async fn the_team_panel_shows_each_agents_tokens_as_the_trace_sums_them_estimates_marked() {
    use team_protocols::protocol::{AgentName, Trace};
    use team_protocols::view::cost::{protocol_split, protocol_words, spend_at, spend_words};
    use team_protocols::view::i18n::{Catalog, Locale};
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    click(&host, "[data-scenario=shutdown]");
    until("the run to finish", || run_finished(&host)).await;
    let json = exported(&host, "json");
    let trace = Trace::from_json(&json).unwrap();
    let spend = spend_at(&trace, None);
    let split = protocol_split(&trace, None);
    let en = Catalog::get(Locale::En);
    for who in ["lead", "alice"] {
        let name = AgentName::parse(who).unwrap();
        let one = spend.agents[&name];
        let shown = cost_of(&host, who).unwrap_or_else(|| panic!("{who} has a cost line"));
        let share = protocol_words(en, &split[&name]).expect("the shutdown handshake costs each side a call");
        assert_eq!(shown, format!("{}, {share}", spend_words(en, &one, None)), "{who}");
        assert!(shown.contains("on protocol handshakes"), "{shown}");
        assert!(shown.starts_with('≈') && shown.contains("estimate") && !shown.contains('$'), "scripted: an estimate, unpriced: {shown}");
    }
    let run = texts(&host, ".run-cost");
    assert_eq!(run.len(), 1);
    assert!(run[0].contains(&spend_words(en, &spend.run, None)), "{run:?}");
    assert!(run[0].contains(&format!("{} model calls", spend.run.calls)), "{run:?}");

    // The same run, as if a provider had measured it (cache reads too):
    // imported, it shows measured counts, unmarked and unpriced (an imported
    // trace does not say which model it ran on).
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    for entry in value["entries"].as_array_mut().unwrap() {
        if entry["event"]["kind"] == "model_replied" {
            entry["event"]["measured"] = true.into();
            entry["event"]["cache_read_tokens"] = 1000.into();
        }
    }
    let measured = serde_json::to_string(&value).unwrap();
    choose_file(&host, "measured.json", &measured);
    until("the import to show", || cost_of(&host, "lead").is_some_and(|c| !c.starts_with('≈'))).await;
    let spend = spend_at(&Trace::from_json(&measured).unwrap(), None);
    assert!(!spend.run.estimated && spend.run.cache_read > 0);
    let lead = cost_of(&host, "lead").unwrap();
    assert!(lead.starts_with(&spend_words(en, &spend.agents[&AgentName::lead()], None)), "{lead}");
    assert!(!lead.contains('$') && !lead.contains("estimate"), "{lead}");
}
