//! What a run may cost: the budget field (tokens or dollars per run; empty
//! for none) and the price table (per model, dollars per million tokens of
//! input, output, cache read and cache write, each with the date it was
//! taken), edited here and kept in this browser.
//!
//! Owns these two forms. The values live in `state::settings` (the table
//! is kept through `state::storage`); the reading and the refusals are
//! `runtime::budget` and `view::prices`. It must not touch the runtime.

use leptos::ev;
use leptos::prelude::*;

use crate::runtime::budget::Budget;
use crate::ui::browser::lang::lang;
use crate::ui::state::session::Session;
use crate::ui::state::storage;
use crate::view::i18n::{tr, Catalog};
use crate::view::prices::{PriceError, PriceTable};

/// A refused price, in the reader's words.
fn price_words(cat: &Catalog, e: &PriceError) -> String {
    let field = |f: &str| cat.t(&format!("ui-price-{}", f.replace(' ', "-")));
    match e {
        PriceError::NoModel => cat.t("ui-price-no-model"),
        PriceError::NotANumber { field: f, value } => tr!(cat, "ui-price-not-a-number", field = field(f), value = value.as_str()),
        PriceError::OutOfRange { field: f } => tr!(cat, "ui-price-out-of-range", field = field(f)),
        PriceError::BadDate => cat.t("ui-price-bad-date"),
    }
}

/// Today as YYYY-MM-DD (the browser's clock, UTC): the date an edited
/// price is taken.
fn today() -> String {
    let iso = js_sys::Date::new_0().to_iso_string().as_string().unwrap_or_default();
    iso.chars().take(10).collect()
}

/// The budget for the next run: tokens or dollars, typed; empty is none. A
/// refused value stays on screen, marked, and blocks Run until fixed.
#[component]
pub fn BudgetField() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let dollars = RwSignal::new(matches!(s.settings.budget.get_untracked(), Some(Budget::Dollars(_))));
    // What was typed last: read again when the unit changes. The field
    // keeps what was typed (a refused value stays on screen).
    let typed = s.settings.budget.get_untracked().map(|b| b.typed()).unwrap_or_default();
    let text = RwSignal::new(typed.clone());
    let field = NodeRef::<leptos::html::Input>::new();
    let parsed = move || {
        let typed = text.get_untracked();
        if dollars.get_untracked() {
            Budget::dollars(&typed)
        } else {
            Budget::tokens(&typed)
        }
    };
    // A budget put on the form from elsewhere (the run restored after a
    // reload, a saved run, a link) replaces what the field shows; one the
    // field itself set reads back the same and leaves the typing alone.
    Effect::new(move |_| {
        let budget = s.settings.budget.get();
        if parsed() != Ok(budget) {
            let typed = budget.map(|b| b.typed()).unwrap_or_default();
            dollars.set(matches!(budget, Some(Budget::Dollars(_))));
            if let Some(input) = field.get_untracked() {
                input.set_value(&typed);
            }
            text.set(typed);
        }
    });
    let read = move || match parsed() {
        Ok(budget) => {
            s.settings.budget.set(budget);
            s.settings.mark("budget", None);
        }
        Err(e) => {
            let why = crate::view::words::errors::budget(l.cat_untracked(), &e);
            s.settings.mark("budget", Some(why.clone()));
            s.error(why);
        }
    };
    let set_text = move |ev: ev::Event| {
        text.set(event_target_value(&ev));
        read();
    };
    let set_unit = move |ev: ev::Event| {
        dollars.set(event_target_value(&ev) == "dollars");
        read();
    };
    view! {
        <fieldset class="budget">
            <legend>{move || l.t("ui-budget")}</legend>
            <div class="budget-row">
                <input type="text" inputmode="decimal" aria-label=move || l.t("ui-budget-amount") placeholder=move || l.t("ui-budget-none")
                    aria-invalid=move || s.settings.invalid.with(|m| m.contains_key("budget")).to_string()
                    node_ref=field value=typed on:change=set_text/>
                <select aria-label=move || l.t("ui-budget-unit") on:change=set_unit>
                    <option value="tokens" selected=move || !dollars.get()>{move || l.t("ui-budget-tokens")}</option>
                    <option value="dollars" selected=move || dollars.get()>{move || l.t("ui-budget-dollars")}</option>
                </select>
            </div>
            <p class="muted small">{move || l.t("ui-budget-note")}</p>
        </fieldset>
    }
}

/// The price table: one row per model (input, output, cache read, cache
/// write, dollars per million tokens; the date each was taken), a row to
/// price another model, and a reset to the defaults. Kept in this browser.
#[component]
pub fn Prices() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let keep = move |table: PriceTable| {
        let defaults = table == PriceTable::default();
        s.settings.prices.set(table.clone());
        if let Err(e) = storage::remember_prices((!defaults).then_some(&table)) {
            s.storage_error(&e);
        }
    };
    // Sets one model's price from its row's fields; refused: nothing
    // changes, the banner says why, and false is returned.
    let set_row = move |model: String, fields: [String; 4]| {
        let mut table = s.settings.prices.get_untracked();
        match table.set(&model, [&fields[0], &fields[1], &fields[2], &fields[3]], &today()) {
            Ok(()) => {
                keep(table);
                true
            }
            Err(e) => {
                s.error(price_words(l.cat_untracked(), &e));
                false
            }
        }
    };
    let new_model = RwSignal::new(String::new());
    let add = move |_| {
        let model = new_model.get_untracked();
        // A new model starts at zero; one already listed keeps its price.
        let exists = s.settings.prices.with_untracked(|t| t.models.contains_key(model.trim()));
        if exists || set_row(model.clone(), ["0".into(), "0".into(), "0".into(), "0".into()]) {
            new_model.set(String::new());
        }
    };
    let reset = move |_| keep(PriceTable::default());
    let labels = ["ui-price-input", "ui-price-output", "ui-price-cache-read", "ui-price-cache-write"];
    view! {
        <details class="prices">
            <summary>{move || l.t("ui-prices")}</summary>
            <p class="muted small">{move || l.t("ui-prices-note")}</p>
            {move || s.settings.prices.get().models.into_iter().map(|(model, price)| {
                let values = [price.input, price.output, price.cache_read, price.cache_write].map(|v| v.to_string());
                let fields = RwSignal::new(values.clone());
                // A refused price stays on screen, marked (the table keeps the old one).
                let refused = RwSignal::new(false);
                let (m1, m2) = (model.clone(), model.clone());
                let taken = price.taken.clone();
                view! {
                    <fieldset class="price">
                        <legend><code>{model.clone()}</code></legend>
                        <div class="price-grid">
                            {labels.into_iter().enumerate().map(|(i, key)| {
                                let (m, named) = (m1.clone(), m1.clone());
                                let value = values[i].clone();
                                view! {
                                    <label class="field">{move || l.t(key)}
                                        <input type="text" inputmode="decimal" aria-label=move || format!("{named} · {}", l.t(key)) value=value
                                            aria-invalid=move || refused.get().to_string()
                                            on:change=move |ev| {
                                                fields.update(|f| f[i] = event_target_value(&ev));
                                                refused.set(!set_row(m.clone(), fields.get_untracked()));
                                            }/>
                                    </label>
                                }
                            }).collect_view()}
                        </div>
                        <p class="muted small taken">{move || tr!(l.cat(), "ui-price-taken", date = taken.as_str())}</p>
                        <button type="button" class="small" on:click=move |_| {
                            let mut table = s.settings.prices.get_untracked();
                            table.remove(&m2);
                            keep(table);
                        }>{move || l.t("ui-price-remove")}</button>
                    </fieldset>
                }
            }).collect_view()}
            <div class="price-add">
                <input type="text" aria-label=move || l.t("ui-price-model") placeholder=move || l.t("ui-price-model") prop:value=move || new_model.get() on:change=move |ev| new_model.set(event_target_value(&ev))/>
                <button type="button" on:click=add>{move || l.t("ui-price-add")}</button>
            </div>
            <button type="button" on:click=reset>{move || l.t("ui-price-reset")}</button>
        </details>
    }
}
