//! Browser tests of what a run costs (`wasm-pack test --headless --chrome`):
//! the budget in Settings (a bad one refused and blocking Run, a good one
//! stopping the run with a banner that names the limit and the event) and
//! the price table (an edit kept across a reload, a bad price refused, a
//! reset to the dated defaults), the budget and the run it stopped after a
//! reload and through share links.
//!
//! Each test mounts its own App through a `web_page::Page` (clean storage,
//! no fragment); every wait is a bounded poll on its condition.
#![cfg(target_arch = "wasm32")]

mod web_page;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_page::{all, button, click, open_tools, set_hash, texts, until, Page};

wasm_bindgen_test_configure!(run_in_browser);

fn input(host: &web_sys::HtmlElement, label: &str) -> web_sys::HtmlInputElement {
    host.query_selector(&format!("[aria-label='{label}']")).unwrap().unwrap_or_else(|| panic!("{label}")).unchecked_into()
}

fn type_into(host: &web_sys::HtmlElement, label: &str, value: &str) {
    let el = input(host, label);
    el.set_value(value);
    el.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
}

fn choose(host: &web_sys::HtmlElement, label: &str, value: &str) {
    let el: web_sys::HtmlSelectElement = host.query_selector(&format!("[aria-label='{label}']")).unwrap().unwrap().unchecked_into();
    el.set_value(value);
    el.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
}

/// The date line of `model`'s row in the price table.
fn taken_of(host: &web_sys::HtmlElement, model: &str) -> String {
    all(host, "fieldset.price")
        .into_iter()
        .find(|f| f.query_selector("legend").unwrap().and_then(|l| l.text_content()).as_deref() == Some(model))
        .and_then(|f| f.query_selector(".taken").unwrap())
        .and_then(|t| t.text_content())
        .unwrap_or_else(|| panic!("a row for {model}"))
}

fn banner(host: &web_sys::HtmlElement) -> String {
    texts(host, ".banner-error").join(" ")
}

fn dismiss(host: &web_sys::HtmlElement) {
    if !banner(host).is_empty() {
        button(host, "×").click();
    }
}

#[wasm_bindgen_test]
async fn a_zero_negative_or_nonsense_budget_is_refused_and_blocks_run_and_a_token_budget_stops_the_run_with_a_banner() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    for (typed, why) in
        [("0", "more than zero"), ("-5", "more than zero"), ("NaN", "not a number"), ("lots", "not a number"), ("12.5", "whole number")]
    {
        dismiss(&host);
        type_into(&host, "Budget amount", typed);
        leptos::task::tick().await;
        assert!(banner(&host).contains(why), "{typed}: {}", banner(&host));
        assert_eq!(input(&host, "Budget amount").get_attribute("aria-invalid").as_deref(), Some("true"), "{typed} is marked");
        assert_eq!(input(&host, "Budget amount").value(), typed, "the refused text stays on screen");
    }
    // A refused budget blocks Run: nothing runs with an older value.
    dismiss(&host);
    click(&host, "[data-scenario=shutdown]");
    leptos::task::tick().await;
    assert!(banner(&host).contains("budget"), "{}", banner(&host));
    assert!(all(&host, "g.msg").is_empty(), "nothing ran");
    // 10,000 tokens: each call is counted at its prompt plus max_tokens
    // (8,000), so the scripted shutdown's budget stops it part way.
    dismiss(&host);
    type_into(&host, "Budget amount", "10000");
    leptos::task::tick().await;
    assert_eq!(input(&host, "Budget amount").get_attribute("aria-invalid").as_deref(), Some("false"));
    assert_eq!(banner(&host), "");
    click(&host, "[data-scenario=shutdown]");
    until("the budget's banner", || !all(&host, ".banner-budget").is_empty()).await;
    let words = texts(&host, ".banner-budget").join(" ");
    assert!(words.starts_with("The budget of 10k tokens stopped the run at event #"), "{words}");
    assert!(words.contains("model call, which could take up to "), "{words}");
    assert!(!all(&host, "g.msg").is_empty(), "the run got under way before its budget stopped it");
    assert!(!all(&host, ".banner.budget-end").is_empty(), "the diagram marks the stop like the run's end");
    let log = texts(&host, ".event-log .log-title");
    assert!(log.iter().any(|t| t == "Budget reached"), "the event log has the stop: {log:?}");
    // Back one event: the banner is about the run as of the cursor.
    button(&host, "Back").click();
    until("the banner to go with the cursor", || all(&host, ".banner-budget").is_empty()).await;
    page.unmount(&host);
}

#[wasm_bindgen_test]
async fn a_dollar_budget_on_a_model_without_a_price_stops_before_the_first_call() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    open_tools(&host).await;
    choose(&host, "Budget unit", "dollars");
    type_into(&host, "Budget amount", "$2");
    leptos::task::tick().await;
    assert_eq!(banner(&host), "", "$2 is a budget");
    click(&host, "[data-scenario=shutdown]");
    until("the budget's banner", || !all(&host, ".banner-budget").is_empty()).await;
    let words = texts(&host, ".banner-budget").join(" ");
    assert!(words.contains("$2.00") && words.contains("no price"), "the scripted model is never priced: {words}");
    assert!(all(&host, "g.msg").is_empty(), "no model call, no message");
    page.unmount(&host);
}

fn unit(host: &web_sys::HtmlElement) -> String {
    let el: web_sys::HtmlSelectElement = host.query_selector("[aria-label='Budget unit']").unwrap().unwrap().unchecked_into();
    el.value()
}

fn share_link(host: &web_sys::HtmlElement) -> String {
    input(host, "Share link").value()
}

#[wasm_bindgen_test]
async fn the_budget_and_the_run_it_stopped_come_back_after_a_reload_with_the_same_banner() {
    let page = Page::start();
    let first = page.mount();
    leptos::task::tick().await;
    open_tools(&first).await;
    type_into(&first, "Budget amount", "10000");
    click(&first, "[data-scenario=shutdown]");
    until("the budget's banner", || !all(&first, ".banner-budget").is_empty()).await;
    let words = texts(&first, ".banner-budget");
    let arrows = all(&first, "g.msg").len();
    page.unmount(&first);
    let second = page.mount_keeping_storage();
    leptos::task::tick().await;
    open_tools(&second).await;
    until("the restored run", || all(&second, "g.msg").len() == arrows).await;
    until("the banner back", || texts(&second, ".banner-budget") == words).await;
    assert_eq!((input(&second, "Budget amount").value(), unit(&second)), ("10000".to_string(), "tokens".to_string()), "the budget is kept");
    // A dollar budget, too (the scripted model has no price: it stops at once).
    choose(&second, "Budget unit", "dollars");
    type_into(&second, "Budget amount", "0.5");
    click(&second, "[data-scenario=shutdown]");
    until("the dollar budget's banner", || texts(&second, ".banner-budget").join(" ").contains("$0.50")).await;
    page.unmount(&second);
    let third = page.mount_keeping_storage();
    leptos::task::tick().await;
    open_tools(&third).await;
    until("the dollar budget back", || input(&third, "Budget amount").value() == "0.5").await;
    assert_eq!(unit(&third), "dollars");
    page.unmount(&third);
}

#[wasm_bindgen_test]
async fn a_share_link_carries_the_budget_and_a_run_it_stopped_opens_with_the_same_banner() {
    let page = Page::start();
    let first = page.mount();
    leptos::task::tick().await;
    open_tools(&first).await;
    // A run its budget stopped travels as its trace, which holds the stop.
    type_into(&first, "Budget amount", "10000");
    click(&first, "[data-scenario=shutdown]");
    until("the budget's banner", || !all(&first, ".banner-budget").is_empty()).await;
    let words = texts(&first, ".banner-budget");
    until("the share link", || share_link(&first).contains('#')).await;
    let fragment = share_link(&first).split_once('#').unwrap().1.to_string();
    assert!(fragment.starts_with("trace="), "{fragment}");
    page.unmount(&first);
    set_hash(&fragment).await;
    let opened = page.mount();
    leptos::task::tick().await;
    open_tools(&opened).await;
    set_hash("").await;
    until("the shared run's banner", || texts(&opened, ".banner-budget") == words).await;
    // A scenario run its budget let finish names the budget in its link.
    type_into(&opened, "Budget amount", "50000");
    click(&opened, "[data-scenario=shutdown]");
    until("the scenario link", || share_link(&opened).contains("#scenario=")).await;
    let link = share_link(&opened);
    assert!(link.ends_with("#scenario=shutdown&seed=2026&budget=tokens:50000"), "{link}");
    let arrows = all(&opened, "g.msg").len();
    page.unmount(&opened);
    let fragment = link.split_once('#').unwrap().1.to_string();
    set_hash(&fragment).await;
    let again = page.mount();
    leptos::task::tick().await;
    open_tools(&again).await;
    set_hash("").await;
    until("the rerun", || share_link(&again).contains("#scenario=") && all(&again, "g.msg").len() == arrows).await;
    assert_eq!(
        (input(&again, "Budget amount").value(), unit(&again)),
        ("50000".to_string(), "tokens".to_string()),
        "the link's budget is on the form"
    );
    assert!(all(&again, ".banner-budget").is_empty(), "under its budget, no stop");
    // A link with a nonsense budget is refused with a sentence.
    page.unmount(&again);
    set_hash("scenario=shutdown&seed=2026&budget=tokens:0").await;
    let bad = page.mount();
    leptos::task::tick().await;
    open_tools(&bad).await;
    set_hash("").await;
    until("the refusal", || banner(&bad).contains("budget")).await;
    assert!(banner(&bad).contains("more than zero"), "{}", banner(&bad));
    page.unmount(&bad);
}

#[wasm_bindgen_test]
async fn an_edited_price_survives_a_reload_a_bad_one_is_refused_and_reset_brings_back_the_dated_defaults() {
    let page = Page::start();
    let first = page.mount();
    leptos::task::tick().await;
    open_tools(&first).await;
    let sonnet_input = "claude-sonnet-4-5 · Input";
    assert_eq!(input(&first, sonnet_input).value(), "3");
    let taken = texts(&first, ".price .taken");
    assert!(taken.iter().all(|t| t == "price taken 2026-11-27"), "each default shows its date: {taken:?}");
    type_into(&first, sonnet_input, "2.5");
    leptos::task::tick().await;
    assert_eq!(banner(&first), "");
    // A bad price is refused with a sentence and changes nothing.
    type_into(&first, "claude-haiku-4-5 · Output", "-1");
    leptos::task::tick().await;
    assert!(banner(&first).contains("between 0 and 1000"), "{}", banner(&first));
    assert_eq!(
        input(&first, "claude-haiku-4-5 · Output").get_attribute("aria-invalid").as_deref(),
        Some("true"),
        "the refused price is marked"
    );
    dismiss(&first);
    // A model of one's own.
    type_into(&first, "Model id", "my-local");
    button(&first, "Add a price").click();
    leptos::task::tick().await;
    assert_eq!(input(&first, "my-local · Input").value(), "0");
    // A reload reads them back.
    page.unmount(&first);
    let second = page.mount_keeping_storage();
    leptos::task::tick().await;
    open_tools(&second).await;
    assert_eq!(input(&second, sonnet_input).value(), "2.5", "the edit is kept in this browser");
    assert_eq!(input(&second, "claude-haiku-4-5 · Output").value(), "5", "the refused price was not kept");
    assert!(second.query_selector("[aria-label='my-local · Input']").unwrap().is_some());
    let today: String = js_sys::Date::new_0().to_iso_string().as_string().unwrap().chars().take(10).collect();
    assert_eq!(taken_of(&second, "claude-sonnet-4-5"), format!("price taken {today}"), "an edited price is dated the day it was typed");
    assert_eq!(taken_of(&second, "claude-haiku-4-5"), "price taken 2026-11-27");
    button(&second, "Reset prices to defaults").click();
    leptos::task::tick().await;
    assert_eq!(input(&second, sonnet_input).value(), "3");
    assert!(second.query_selector("[aria-label='my-local · Input']").unwrap().is_none());
    page.unmount(&second);
    let third = page.mount_keeping_storage();
    leptos::task::tick().await;
    open_tools(&third).await;
    assert_eq!(input(&third, sonnet_input).value(), "3", "the reset is kept too");
    page.unmount(&third);
}
