//! The settings form: which model the next team runs on and the seed that
//! fixes its request ids and faults.
//!
//! Owns the form; the values live in `settings` (through the `Session`).

use leptos::ev;
use leptos::prelude::*;

use crate::model::provider_settings::Provider;
use crate::ui::browser::lang::lang;
use crate::ui::state::session::Session;
use crate::view::i18n::tr;

/// The model settings for the next team: provider, API key (remembered
/// only when asked), base URL, model name, max tokens and the seed. A value
/// that cannot be used stays on screen, marked, and the banner says why.
#[component]
pub fn Settings() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let set_seed = move |ev: ev::Event| {
        let text = event_target_value(&ev);
        match text.trim().parse::<u64>() {
            Ok(v) => {
                s.settings.seed.set(v);
                s.settings.mark("seed", None);
            }
            Err(_) => {
                let why = tr!(l.cat_untracked(), "ui-seed-bad", seed = text.trim().chars().take(40).collect::<String>());
                s.settings.mark("seed", Some(why.clone()));
                s.error(why);
            }
        }
    };
    let set_provider = move |ev: ev::Event| {
        if let Ok(p) = Provider::parse(&event_target_value(&ev)) {
            s.settings.provider.set(p);
            s.settings.load_remembered_key();
        }
    };
    let set_key = move |ev: ev::Event| {
        s.settings.api_key.set(event_target_value(&ev));
        if let Err(e) = s.settings.store_key() {
            s.storage_error(&e);
        }
    };
    let set_remember = move |ev: ev::Event| {
        s.settings.remember_key.set(event_target_checked(&ev));
        if let Err(e) = s.settings.store_key() {
            s.storage_error(&e);
        }
    };
    let set_base = move |ev: ev::Event| s.settings.base_url.set(event_target_value(&ev));
    let set_model = move |ev: ev::Event| s.settings.model_name.set(event_target_value(&ev));
    let set_max_tokens = move |ev: ev::Event| {
        let text = event_target_value(&ev);
        match text.trim().parse::<u32>() {
            Ok(v) if (1..=crate::model::provider_settings::MAX_TOKENS_LIMIT).contains(&v) => {
                s.settings.max_tokens.set(v);
                s.settings.mark("max tokens", None);
            }
            _ => {
                let why = tr!(
                    l.cat_untracked(),
                    "ui-max-tokens-bad",
                    limit = crate::model::provider_settings::MAX_TOKENS_LIMIT,
                    value = text.trim().chars().take(40).collect::<String>()
                );
                s.settings.mark("max tokens", Some(why.clone()));
                s.error(why);
            }
        }
    };
    let scripted = move || s.settings.provider.get() == Provider::Scripted;
    view! {
        <section class="panel" aria-labelledby="settings-title">
            <h2 id="settings-title">{move || l.t("ui-settings")}</h2>
            <label class="field">{move || l.t("ui-provider")}
                <select aria-label=move || l.t("ui-provider") on:change=set_provider>
                    {Provider::ALL.into_iter().map(|p| view! {
                        <option value=p.id() selected=move || s.settings.provider.get() == p>{move || l.t(&format!("provider-{}", p.id()))}</option>
                    }).collect_view()}
                </select>
            </label>
            <p class="muted small">{move || if scripted() { l.t("ui-scripted-note") } else { l.t("ui-provider-note") }}</p>
            <label class="field">{move || l.t("ui-api-key")}
                <input type="password" aria-label=move || l.t("ui-api-key") autocomplete="off" spellcheck="false" disabled=scripted prop:value=move || s.settings.api_key.get() on:change=set_key/>
            </label>
            <label class="inline small">
                <input type="checkbox" disabled=scripted prop:checked=move || s.settings.remember_key.get() on:change=set_remember/>
                {move || l.t("ui-remember-key")}
            </label>
            <label class="field">{move || l.t("ui-base-url")}
                <input type="url" aria-label=move || l.t("ui-base-url") disabled=scripted placeholder=move || s.settings.provider.get().default_base_url() prop:value=move || s.settings.base_url.get() on:change=set_base/>
            </label>
            <label class="field">{move || l.t("ui-model-name")}
                <input type="text" aria-label=move || l.t("ui-model-name") disabled=scripted placeholder=move || s.settings.provider.get().default_model() prop:value=move || s.settings.model_name.get() on:change=set_model/>
            </label>
            <label class="field">{move || l.t("ui-max-tokens")}
                <input type="number" aria-label=move || l.t("ui-max-tokens") min="1" max="200000" disabled=scripted aria-invalid=move || s.settings.invalid.with(|m| m.contains_key("max tokens")).to_string() prop:value=move || s.settings.max_tokens.get().to_string() on:change=set_max_tokens/>
            </label>
            <label class="field">{move || l.t("ui-seed")}
                <input type="number" aria-label=move || l.t("ui-seed") min="0" aria-invalid=move || s.settings.invalid.with(|m| m.contains_key("seed")).to_string() prop:value=move || s.settings.seed.get().to_string() on:change=set_seed/>
            </label>
            <crate::ui::setup::cost_form::BudgetField/>
            <crate::ui::setup::cost_form::Prices/>
            <p class="muted small">{move || l.t("ui-settings-note")}</p>
        </section>
    }
}
