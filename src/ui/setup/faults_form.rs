//! The fault form: rules that drop, delay, duplicate or reorder the next
//! team's messages, and the list of rules set.
//!
//! Owns the form; the rules live in `settings` (through the `Session`) and
//! mean what `protocol::faults` says.

use leptos::ev;
use leptos::prelude::*;

use crate::protocol::{AgentName, FaultAction, FaultRule, MessageType};
use crate::ui::browser::lang::lang;
use crate::ui::state::session::Session;
use crate::view::i18n::tr;

/// Fault rules for the bus, applied to the next team: drop, delay,
/// duplicate or reorder messages, filtered by type, sender and recipient,
/// drawn from the run's seed so a faulty run replays exactly.
#[component]
pub fn FaultsPanel() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let action = RwSignal::new("drop".to_string());
    // Number fields keep what was typed: a rejected value stays on screen,
    // marked, and "Add fault rule" refuses it rather than using an older one.
    let delay = RwSignal::new("500".to_string());
    let msg_type = RwSignal::new(String::new());
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let probability = RwSignal::new("1".to_string());
    let parse_delay = move || -> Result<u64, String> {
        let text = delay.get_untracked();
        let ms = text.trim().parse::<u64>().map_err(|_| tr!(l.cat_untracked(), "ui-fault-delay-bad", value = text.trim()))?;
        FaultRule::new(FaultAction::Delay { ms }).validate().map_err(|e| e.to_string())?;
        Ok(ms)
    };
    let parse_probability = move || -> Result<f64, String> {
        let text = probability.get_untracked();
        let bad = || tr!(l.cat_untracked(), "ui-fault-probability-bad", value = text.trim());
        let p = crate::protocol::text::parse_decimal(text.trim()).ok_or_else(bad)?;
        FaultRule { probability: p, ..FaultRule::new(FaultAction::Drop) }.validate().map_err(|_| bad())?;
        Ok(p)
    };
    let add = move |_| {
        let name = |v: String| -> Result<Option<AgentName>, String> {
            let v = v.trim().to_string();
            if v.is_empty() {
                Ok(None)
            } else {
                AgentName::parse(&v).map(Some).map_err(|e| e.to_string())
            }
        };
        let rule = (|| -> Result<FaultRule, String> {
            let action = match action.get_untracked().as_str() {
                "delay" => FaultAction::Delay { ms: parse_delay()? },
                "duplicate" => FaultAction::Duplicate,
                "reorder" => FaultAction::Reorder,
                _ => FaultAction::Drop,
            };
            let mut rule = FaultRule::new(action);
            let t = msg_type.get_untracked();
            rule.msg_type = if t.is_empty() { None } else { Some(t.parse().map_err(|e: crate::protocol::MessageError| e.to_string())?) };
            rule.from = name(from.get_untracked())?;
            rule.to = name(to.get_untracked())?;
            rule.probability = parse_probability()?;
            rule.validate().map_err(|e| e.to_string())?;
            Ok(rule)
        })();
        match rule {
            Ok(rule) => s.settings.faults.update(|p| p.rules.push(rule)),
            Err(e) => s.error(tr!(l.cat_untracked(), "ui-fault-not-added", error = e)),
        }
    };
    let on = |sig: RwSignal<String>| move |ev: ev::Event| sig.set(event_target_value(&ev));
    let set_delay = move |ev: ev::Event| {
        delay.set(event_target_value(&ev));
        if let Err(e) = parse_delay() {
            s.error(e);
        }
    };
    let set_probability = move |ev: ev::Event| {
        probability.set(event_target_value(&ev));
        if let Err(e) = parse_probability() {
            s.error(e);
        }
    };
    let delay_bad = move || {
        delay.track();
        parse_delay().is_err().to_string()
    };
    let probability_bad = move || {
        probability.track();
        parse_probability().is_err().to_string()
    };
    view! {
        <section class="panel" aria-labelledby="faults-title">
            <h2 id="faults-title">{move || l.t("ui-faults")}</h2>
            <p class="muted small">{move || l.t("ui-faults-note")}</p>
            <div class="fault-form">
                <label class="field">{move || l.t("ui-fault-action")}
                    <select aria-label=move || l.t("ui-fault-action-label") on:change=on(action)>
                        <option value="drop">"drop"</option>
                        <option value="delay">"delay"</option>
                        <option value="duplicate">"duplicate"</option>
                        <option value="reorder">"reorder"</option>
                    </select>
                </label>
                <label class="field">{move || l.t("ui-fault-delay")}
                    <input type="number" min="0" aria-label=move || l.t("ui-fault-delay-label") aria-invalid=delay_bad prop:value=move || delay.get() on:change=set_delay/>
                </label>
                <label class="field">{move || l.t("ui-fault-type")}
                    <select aria-label=move || l.t("ui-fault-type-label") on:change=on(msg_type)>
                        <option value="">{move || l.t("ui-any")}</option>
                        {MessageType::ALL.into_iter().map(|t| view! { <option value=t.as_str()>{t.as_str()}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">{move || l.t("ui-fault-from")}
                    <input type="text" aria-label=move || l.t("ui-fault-from-label") placeholder=move || l.t("ui-any") prop:value=move || from.get() on:change=on(from)/>
                </label>
                <label class="field">{move || l.t("ui-fault-to")}
                    <input type="text" aria-label=move || l.t("ui-fault-to-label") placeholder=move || l.t("ui-any") prop:value=move || to.get() on:change=on(to)/>
                </label>
                <label class="field">{move || l.t("ui-fault-probability")}
                    <input type="number" min="0" max="1" step="0.05" aria-label=move || l.t("ui-fault-probability-label") aria-invalid=probability_bad prop:value=move || probability.get() on:change=set_probability/>
                </label>
                <button on:click=add>{move || l.t("ui-fault-add")}</button>
            </div>
            <ul class="fault-rules" aria-label=move || l.t("ui-fault-rules")>
                {move || s.settings.faults.get().rules.into_iter().enumerate().map(|(i, r)| {
                    let what = match &r.action {
                        FaultAction::Drop => "drop".to_string(),
                        FaultAction::Delay { ms } => tr!(l.cat(), "ui-fault-delay-ms", ms = *ms),
                        FaultAction::Duplicate => "duplicate".to_string(),
                        FaultAction::Reorder => "reorder".to_string(),
                    };
                    let cat = l.cat();
                    let filter = tr!(
                        cat,
                        "ui-fault-rule",
                        action = what,
                        msg_type = r.msg_type.map_or_else(|| cat.t("ui-fault-any-message"), |t| t.to_string()),
                        from = r.from.as_ref().map_or_else(|| cat.t("ui-fault-anyone"), |n| n.to_string()),
                        to = r.to.as_ref().map_or_else(|| cat.t("ui-fault-anyone"), |n| n.to_string()),
                        p = r.probability.to_string()
                    );
                    view! {
                        <li>
                            <span>{filter.clone()}</span>
                            <button aria-label=tr!(l.cat(), "ui-fault-remove-label", rule = filter.clone()) on:click=move |_| s.settings.faults.update(|p| { p.rules.remove(i); })>{move || l.t("ui-remove")}</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}
