//! The first screen's "Start here" card, shown over the controls while
//! nothing is loaded: the lesson's start (the "Without protocols" guided
//! tour) as the one primary button, the lesson's three core scenarios
//! (graceful shutdown, approve a plan, reject a risky plan) a click each
//! with what they ask the lead, and a line that opens the engineer's tools.
//!
//! Owns this card's markup; tours start through `ui::diagram::tour`, runs
//! through the `Session`, the tools open through `SetupTabs`.

use leptos::prelude::*;

use crate::protocol::Trace;
use crate::runtime::scenarios::{self, Scenario};
use crate::ui::browser::lang::lang;
use crate::ui::diagram::tour::{self, TourState};
use crate::ui::shell::drawers::{Drawers, SetupTabs};
use crate::ui::state::session::Session;
use crate::view::tours;
use crate::view::words::scenarios::{scenario_description, scenario_title};

/// The lesson's core scenarios, in the order the lesson tells them.
pub const CORE: [Scenario; 3] = [scenarios::SHUTDOWN, scenarios::APPROVE_PLAN, scenarios::REJECT_PLAN];

/// The card. Drawn while the trace is empty and no tour is on.
#[component]
pub fn StartCard() -> impl IntoView {
    let s = expect_context::<Session>();
    let t = expect_context::<TourState>();
    let tabs = expect_context::<SetupTabs>();
    let drawer = expect_context::<Drawers>();
    let l = lang();
    let shown = move || s.run.trace.with(Trace::is_empty) && t.active.get().is_none();
    let start_tour = move |_| {
        let Some(lesson) = tours::by_id(scenarios::WITHOUT_PROTOCOLS.id) else { return };
        if tour::start(s, t, lesson) {
            request_animation_frame(|| focus("tour-card"));
        }
    };
    view! {
        <Show when=shown>
            <section class="start-card" aria-labelledby="start-title">
                <h2 id="start-title">{move || l.t("ui-start-title")}</h2>
                <p class="start-lead">{move || l.t("ui-start-lead")}</p>
                <button class="primary start-tour" on:click=start_tour><span class="start-tour-icon" aria-hidden="true">"▶ "</span>{move || l.t("ui-start-tour")}</button>
                <h3 id="start-scenarios-title" class="start-scenarios-title">{move || l.t("ui-start-scenarios")}</h3>
                <ul class="start-scenarios" aria-labelledby="start-scenarios-title">
                    {CORE.into_iter().map(|sc| view! {
                        <li>
                            <button class="start-scenario" data-start-scenario=sc.id
                                on:click=move |_| { s.run_scenario(sc); request_animation_frame(|| focus("controls")); }>
                                <strong>{move || scenario_title(l.cat(), sc.id, sc.title)}</strong>
                                <span class="start-scenario-line">{move || scenario_description(l.cat(), &sc)}</span>
                            </button>
                        </li>
                    }).collect_view()}
                </ul>
                <p class="start-tools small">
                    <span>{move || l.t("ui-start-tools")}</span>" "
                    <button class="start-tools-button" aria-controls="setup" on:click=move |_| tabs.open_tools(drawer)>{move || l.t("ui-start-tools-button")}</button>
                </p>
            </section>
        </Show>
    }
}

/// Focuses the element with `id`, if there is one.
fn focus(id: &str) {
    if let Some(el) = document().get_element_by_id(id) {
        let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
    }
}
