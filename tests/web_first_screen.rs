//! Browser tests of the first screen (issue 31 §5)
//! (`wasm-pack test --headless --chrome -- --test web_first_screen`): with
//! nothing loaded the page offers one obvious start (the "Without
//! protocols" tour) and the lesson's three core scenarios in a "Start
//! here" card that goes once a run is on screen; the playback controls
//! that cannot act are disabled; the engineer's tools are one click away
//! in their own tab of the setup column; and what a scenario asks the lead
//! is shown in the page's language (the model is still given the English).
//!
//! Each test mounts its own App through a `web_page::Page`, unmounted when
//! it ends (see `tests/web_page/mod.rs`); a language is put in place from
//! the message files built into the tests (`web_page::translation`), as
//! the page would install them once fetched, so no test here depends on a
//! server. Every check of something asynchronous waits with a bounded poll.
#![cfg(target_arch = "wasm32")]

mod web_page;

use leptos::prelude::*;
use team_protocols::runtime::scenarios;
use team_protocols::view::i18n::{Catalog, Locale};
use team_protocols::view::words::scenarios::scenario_description;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_page::{all, texts, until, Page};

wasm_bindgen_test_configure!(run_in_browser);

fn el(host: &web_sys::HtmlElement, selector: &str) -> web_sys::HtmlElement {
    host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("{selector}")).unchecked_into()
}

fn exists(host: &web_sys::HtmlElement, selector: &str) -> bool {
    host.query_selector(selector).unwrap().is_some()
}

/// The playback control named `text` (a button by its words).
fn button(host: &web_sys::HtmlElement, text: &str) -> web_sys::HtmlButtonElement {
    all(host, ".controls button")
        .into_iter()
        .find(|b| b.text_content().unwrap_or_default().trim() == text)
        .unwrap_or_else(|| panic!("a control named {text:?}"))
        .unchecked_into()
}

fn input(host: &web_sys::HtmlElement, selector: &str) -> web_sys::HtmlInputElement {
    el(host, selector).unchecked_into()
}

fn run_finished(host: &web_sys::HtmlElement) -> bool {
    exists(host, ".banner.run-end")
}

fn hidden(host: &web_sys::HtmlElement, selector: &str) -> bool {
    el(host, selector).has_attribute("hidden")
}

#[wasm_bindgen_test]
async fn the_start_card_shows_with_nothing_loaded_offers_the_lesson_and_goes_when_a_run_starts() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    assert!(exists(&host, ".start-card"), "the card is the first screen");
    assert_eq!(texts(&host, ".start-card h2"), ["Start here"]);
    assert_eq!(texts(&host, ".start-tour"), ["▶ Start the lesson: without protocols, then with"], "the arrow is hidden from its name");
    assert_eq!(el(&host, ".start-tour-icon").get_attribute("aria-hidden").as_deref(), Some("true"));
    assert_eq!(all(&host, ".start-card button.primary").len(), 1, "one obvious start");
    let ids: Vec<String> =
        all(&host, ".start-scenario").iter().map(|b| b.get_attribute("data-start-scenario").unwrap_or_default()).collect();
    assert_eq!(ids, ["shutdown", "approve-plan", "reject-plan"], "the lesson's three core scenarios");
    assert_eq!(
        texts(&host, ".start-scenario-line"),
        [scenarios::SHUTDOWN.prompts[0], scenarios::APPROVE_PLAN.prompts[0], scenarios::REJECT_PLAN.prompts[0]],
        "one line each: what the scenario asks the lead"
    );
    assert!(!exists(&host, ".empty-hint"), "the card replaces the empty hint");
    el(&host, "[data-start-scenario=shutdown]").click();
    until("the card to go", || !exists(&host, ".start-card")).await;
    until("the run to finish", || run_finished(&host)).await;
    assert!(!exists(&host, ".start-card"), "a run on screen: no card");
    // New team empties the page again: the card is back.
    all(&host, "button")
        .into_iter()
        .find(|b| b.text_content().unwrap_or_default().trim() == "New team")
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    until("the card to come back with an empty page", || exists(&host, ".start-card")).await;
}

#[wasm_bindgen_test]
async fn the_start_cards_tour_button_starts_the_without_protocols_tour() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    el(&host, ".start-tour").click();
    until("the tour card", || exists(&host, "#tour-card")).await;
    assert!(!exists(&host, ".start-card"), "the start card gives way to the tour");
    assert_eq!(
        el(&host, "#tour-without-protocols").get_attribute("aria-current").as_deref(),
        Some("true"),
        "the tour on is the lesson's start"
    );
    assert!(texts(&host, "#tour-heading").join(" ").starts_with("Tour: Without protocols"), "{:?}", texts(&host, "#tour-heading"));
    until("the tour's run to end and its first stop to show", || exists(&host, ".tour-stop-title")).await;
}

#[wasm_bindgen_test]
async fn with_nothing_loaded_the_controls_that_cannot_act_are_disabled_and_a_run_enables_them() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    for name in ["Back", "Play", "Next", "Stop"] {
        assert!(button(&host, name).disabled(), "{name} is disabled with nothing loaded");
    }
    assert!(input(&host, ".scrubber").disabled(), "the scrubber is disabled with nothing loaded");
    assert!(input(&host, "input[aria-label='Follow latest']").disabled(), "Follow is disabled with nothing loaded");
    for name in ["Live", "Step"] {
        assert!(!button(&host, name).disabled(), "{name} picks how the next run goes: on");
    }
    assert!(!el(&host, "select[aria-label=Speed]").unchecked_into::<web_sys::HtmlSelectElement>().disabled(), "Speed is on");
    el(&host, "[data-scenario=approve-plan]").click();
    until("the run to finish", || run_finished(&host)).await;
    for name in ["Back", "Play", "Next"] {
        assert!(!button(&host, name).disabled(), "{name} acts on a recorded run");
    }
    assert!(!input(&host, ".scrubber").disabled(), "the scrubber acts on a recorded run");
    assert!(!input(&host, "input[aria-label='Follow latest']").disabled(), "Follow acts on a recorded run");
    button(&host, "Back").click();
    leptos::task::tick().await;
    let position = texts(&host, ".position")[0].clone();
    let (at, len) = position.split_once(" / ").unwrap();
    assert_eq!(at.parse::<usize>().unwrap() + 1, len.parse::<usize>().unwrap(), "Back stepped: {position}");
}

#[wasm_bindgen_test]
async fn in_step_mode_next_stays_on_to_release_a_running_teams_events() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    button(&host, "Step").click();
    leptos::task::tick().await;
    assert!(button(&host, "Next").disabled(), "no team running and nothing recorded: Next cannot act");
    let prompt: web_sys::HtmlTextAreaElement = el(&host, "#prompt").unchecked_into();
    prompt.set_value("Spawn alice as a coder. Then request her shutdown.");
    prompt.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    all(&host, "button")
        .into_iter()
        .find(|b| b.text_content().unwrap_or_default().trim() == "Run")
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    leptos::task::tick().await;
    assert!(!button(&host, "Next").disabled(), "a team waits for Next");
    assert!(!button(&host, "Play").disabled(), "Play steps a waiting team");
    assert!(!button(&host, "Stop").disabled(), "a running team can be stopped");
    let before = texts(&host, ".position")[0].clone();
    until("Next to release an event", || {
        if texts(&host, ".position")[0] != before {
            return true;
        }
        button(&host, "Next").click();
        false
    })
    .await;
}

#[wasm_bindgen_test]
async fn the_tools_button_opens_the_engineer_tab_of_the_setup_column() {
    let page = Page::start();
    let host = page.mount();
    leptos::task::tick().await;
    let learn = el(&host, "#setup-tab-learn");
    let tools = el(&host, "#setup-tab-tools");
    assert_eq!(learn.get_attribute("aria-selected").as_deref(), Some("true"), "the lesson's tab comes first");
    assert!(!hidden(&host, "#setup-tab-learn-panel") && hidden(&host, "#setup-tab-tools-panel"));
    for selector in ["#prompt", ".scenarios", ".tour-list"] {
        assert!(exists(&host, &format!("#setup-tab-learn-panel {selector}")), "{selector} is in the Learn tab");
    }
    // The Tools tab's content is built (in the release page, its module
    // loaded) when the tab first opens.
    assert!(!exists(&host, "#setup-tab-tools-panel section"), "nothing of the Tools tab before it opens");
    assert!(!el(&host, ".layout").class_list().contains("tools"));
    el(&host, "#tools-toggle").click();
    leptos::task::tick().await;
    until("the Tools tab's content", || exists(&host, "#setup-tab-tools-panel #settings-title")).await;
    for selector in ["section.explore", "section.gallery", "[aria-label=Provider]", ".fault-form", "#trace-title"] {
        assert!(exists(&host, &format!("#setup-tab-tools-panel {selector}")), "{selector} is in the Tools tab");
    }
    // What is typed there survives switching tabs.
    let delay = input(&host, "[aria-label='Fault delay in milliseconds']");
    delay.set_value("750");
    delay.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    assert_eq!(tools.get_attribute("aria-selected").as_deref(), Some("true"), "Tools goes straight to the engineer's tab");
    assert!(hidden(&host, "#setup-tab-learn-panel") && !hidden(&host, "#setup-tab-tools-panel"));
    assert!(el(&host, ".layout").class_list().contains("tools"), "the column widens for the tools");
    until("focus on the Tools tab", || document().active_element().is_some_and(|a| a.id() == "setup-tab-tools")).await;
    // The tab list's keys: ← to the lesson's tab.
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("ArrowLeft");
    init.set_bubbles(true);
    tools.dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()).unwrap();
    leptos::task::tick().await;
    assert_eq!(learn.get_attribute("aria-selected").as_deref(), Some("true"), "← picks the Learn tab");
    assert_eq!(tools.get_attribute("tabindex").as_deref(), Some("-1"), "one tab stop: the selected tab");
    assert!(!hidden(&host, "#setup-tab-learn-panel"));
    // The card's own button opens them too.
    el(&host, ".start-tools-button").click();
    leptos::task::tick().await;
    assert_eq!(tools.get_attribute("aria-selected").as_deref(), Some("true"), "the card's button opens the tools");
    let again = input(&host, "[aria-label='Fault delay in milliseconds']");
    assert!(again.is_same_node(Some(delay.unchecked_ref())), "the tab's content is kept, not built again");
    assert_eq!(again.value(), "750", "what was typed is still there");
}

/// Puts `locale`'s messages in place (as the page does once it has fetched
/// them) and makes it the language this device remembers.
fn speak(locale: Locale) -> &'static Catalog {
    let files = locale.files().iter().map(|f| (*f, web_page::translation(locale, f).expect("a translated file").to_string()));
    let cat = Catalog::install(locale, files).expect("the messages parse");
    window().local_storage().unwrap().unwrap().set_item("team-protocols.locale", locale.tag()).unwrap();
    cat
}

#[wasm_bindgen_test]
async fn what_a_scenario_asks_the_lead_is_shown_in_the_pages_language() {
    for locale in [Locale::Zh, Locale::Ja, Locale::It] {
        let page = Page::start();
        let cat = speak(locale);
        let host = page.mount();
        leptos::task::tick().await;
        assert_eq!(document().document_element().unwrap().get_attribute("lang").as_deref(), Some(locale.tag()));
        let core = [scenarios::SHUTDOWN, scenarios::APPROVE_PLAN, scenarios::REJECT_PLAN];
        let want: Vec<String> = core.iter().map(|sc| scenario_description(cat, sc)).collect();
        assert_eq!(texts(&host, ".start-scenario-line"), want, "{locale:?}: the card's lines");
        for (line, sc) in want.iter().zip(core) {
            assert_ne!(line, sc.prompts[0], "{locale:?}: {} is translated", sc.id);
        }
        let listed: Vec<String> = scenarios::PAGE.iter().map(|sc| scenario_description(cat, sc)).collect();
        assert_eq!(texts(&host, ".scenario-prompt"), listed, "{locale:?}: the scenario list's lines");
        assert_eq!(texts(&host, ".start-card h2"), [cat.t("ui-start-title")]);
        // The run's banner on the diagram says the prompt in the page's
        // language, as far as the English prompt's room allows.
        el(&host, "[data-start-scenario=shutdown]").click();
        until("the run to finish", || run_finished(&host)).await;
        let banner = texts(&host, ".banner.run-start text").join(" ");
        let shown = cat.t("scenario-shutdown-prompt-1");
        let head: String = shown.chars().take(8).collect();
        assert!(banner.starts_with(&format!("▶ {head}")), "{locale:?}: the banner says {banner:?}, not the translated prompt {shown:?}");
        drop(page);
    }
}
