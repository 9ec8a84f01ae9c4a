//! What to run: the prompt box (with the model the run will use, and why
//! the settings are not applied yet) and the list of built-in scenarios.
//!
//! Owns those two forms; running goes through the `Session`.

use leptos::ev;
use leptos::prelude::*;

use crate::runtime::scenarios;
use crate::ui::browser::lang::lang;
use crate::ui::shell::drawers::Drawers;
use crate::ui::state::session::Session;
use crate::view::i18n::{tr, Catalog};

/// The prompt to give the lead, Run (Ctrl+Enter), New team, and what the
/// next run will use.
#[component]
pub fn PromptBox() -> impl IntoView {
    let s = expect_context::<Session>();
    let drawer = expect_context::<Drawers>();
    let prompt = RwSignal::new(String::new());
    let l = lang();
    let run = move || {
        let p = prompt.get_untracked();
        if p.trim().is_empty() {
            s.banner.set(Some(l.cat_untracked().t("ui-prompt-empty")));
            return;
        }
        s.submit(&p);
        drawer.close(true);
    };
    let on_key = move |ev: ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            run();
        }
    };
    view! {
        <section class="panel" aria-labelledby="prompt-title">
            <h2 id="prompt-title">{move || l.t("ui-prompt")}</h2>
            <textarea id="prompt" rows="3" aria-label=move || l.t("ui-prompt-label") placeholder=move || l.t("ui-prompt-placeholder")
                prop:value=move || prompt.get() on:input=move |ev| prompt.set(event_target_value(&ev))
                on:keydown=on_key></textarea>
            <div class="row">
                <button class="primary" on:click=move |_| run() disabled=move || s.run.running.get()
                    title=move || if s.run.running.get() { l.t("ui-run-busy") } else { String::new() }>{move || l.t("ui-run")}</button>
                <button on:click=move |_| { s.reset(); }>{move || l.t("ui-new-team")}</button>
            </div>
            <p class="will-run small" aria-live="polite">
                {move || tr!(l.cat(), "ui-will-run", provider = model_words(l.cat(), s.settings.team().provider.describe()))}
                {move || {
                    let changed = !s.settings_match_team() && !s.run.trace.with(|t| t.is_empty()) && !s.run.imported.get();
                    changed.then(|| view! { <span class="unapplied">{move || l.t("ui-settings-changed")}</span> })
                }}
                {move || s.settings.invalid.with(|m| m.values().next().cloned()).map(|why| view! { <span class="unapplied">{tr!(l.cat(), "ui-fix-settings", why = why)}</span> })}
            </p>
        </section>
    }
}

/// The built-in scenarios, each one click to run on the scripted model.
#[component]
pub fn ScenarioList() -> impl IntoView {
    let s = expect_context::<Session>();
    // On a narrow screen the drawer closes so the run shows.
    let drawer = expect_context::<Drawers>();
    let l = lang();
    view! {
        <section class="panel" aria-labelledby="scenarios-title">
            <h2 id="scenarios-title">{move || l.t("ui-scenarios")}</h2>
            <ul class="scenarios">
                {scenarios::PAGE.into_iter().map(|sc| view! {
                    <li>
                        <button class="scenario" data-scenario=sc.id on:click=move |_| { s.run_scenario(sc); drawer.close(true); }>
                            <strong>{move || crate::view::words::scenarios::scenario_title(l.cat(), sc.id, sc.title)}</strong>
                            <span class="scenario-prompt">{move || crate::view::words::scenarios::scenario_description(l.cat(), &sc)}</span>
                        </button>
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}

/// A model's name as the line under the title shows it: the built-in
/// scripted model's in the page's language, a real model's as it is.
pub fn model_words(cat: &Catalog, label: String) -> String {
    if label == crate::model::scripted::LABEL {
        cat.t("provider-scripted")
    } else if label == crate::view::export::snapshot::UNKNOWN_PROVIDER {
        cat.t("provider-unknown")
    } else {
        label
    }
}
