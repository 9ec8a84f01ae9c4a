//! Answering a pending request by hand: one control per field of its
//! protocol's answer (`view::answer_form` decides the controls, checks what
//! was typed and words the problems).
//!
//! Owns the form's markup only; what was typed lives in the request row
//! (so it outlives the form), and the answer goes through the `Session`.

use leptos::prelude::*;

use crate::protocol::{AgentName, RequestId, RequestKind};
use crate::ui::browser::lang::lang;
use crate::ui::state::session::Session;
use crate::view::answer_form;
use crate::view::i18n::tr;

/// Approve or reject a pending request by hand, as its addressee: one
/// control per field of the protocol's answer (`view::answer_form`), each
/// labelled with its name and description. Nothing is sent while a field
/// is wrong; the problems are listed (and follow the typing from then on),
/// and what was typed stays, also when the runtime refuses the answer.
#[component]
pub fn AnswerForm(
    /// The request to answer.
    id: RequestId,
    /// Its addressee, as whom the answer is sent.
    addressee: AgentName,
    /// Its protocol, whose answer's fields the form asks for.
    kind: RequestKind,
    /// What was typed, field by field (kept by the row).
    typed: RwSignal<answer_form::Typed>,
) -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let form = s.run.trace.with_untracked(|t| answer_form::form_of(t.protocols(), kind));
    typed.update(|t| {
        for f in &form {
            t.entry(f.name.clone()).or_insert_with(|| f.initial());
        }
    });
    let form = StoredValue::new(form);
    // Problems are shown once a send was refused, then recomputed as the
    // user types (and in the page's language).
    let tried = RwSignal::new(false);
    let problems = Memo::new(move |_| {
        if !tried.get() {
            return Vec::new();
        }
        typed.with(|t| form.with_value(|f| answer_form::to_send(l.cat(), f, t).err().unwrap_or_default()))
    });
    let send = {
        let (id, addressee) = (id.clone(), addressee.clone());
        move |approve: bool| {
            let read = typed.with_untracked(|t| form.with_value(|f| answer_form::to_send(l.cat_untracked(), f, t)));
            match read {
                Ok(fields) => {
                    tried.set(false);
                    s.answer(&addressee, &id, approve, fields);
                }
                Err(_) => tried.set(true),
            }
        }
    };
    let reject = send.clone();
    let group = tr!(l.cat_untracked(), "ui-answer-form-label", id = id.to_string(), addressee = addressee.to_string());
    let approve_as = addressee.to_string();
    let controls = form.with_value(|f| f.iter().map(|f| answer_control(f, &id, typed, problems)).collect_view());
    view! {
        <div class="answer" role="group" aria-label=group>
            {controls}
            {move || problems.with(|p| (!p.is_empty()).then(|| view! {
                <div class="answer-problems" role="alert">
                    <p>{l.t("ui-answer-not-sent")}</p>
                    <ul>{p.iter().map(|p| view! { <li>{p.message.clone()}</li> }).collect_view()}</ul>
                </div>
            }))}
            <div class="answer-buttons">
                <button class="approve" on:click={ let send = send.clone(); move |_| send(true) }>
                    {move || tr!(l.cat(), "ui-approve-as", name = approve_as.clone())}
                </button>
                <button class="reject" on:click=move |_| reject(false)>
                    {move || l.t("ui-reject")}
                </button>
            </div>
        </div>
    }
}

/// One field's control in the answer form, bound to its typed value; its
/// description (the file's words) describes it, and a problem with it
/// marks it invalid.
fn answer_control(
    f: &answer_form::FormField,
    id: &RequestId,
    typed: RwSignal<answer_form::Typed>,
    problems: Memo<Vec<answer_form::Problem>>,
) -> impl IntoView {
    use answer_form::Control;
    let l = lang();
    let name = f.name.clone();
    let dom_id = format!("answer-{id}-{name}");
    let help_id = f.description.as_ref().map(|_| format!("{dom_id}-help"));
    let value = {
        let name = name.clone();
        move || typed.with(|t| t.get(&name).cloned().unwrap_or_default())
    };
    let set = {
        let name = name.clone();
        move |v: String| {
            typed.update(|t| {
                t.insert(name.clone(), v);
            })
        }
    };
    let invalid = {
        let name = name.clone();
        move || problems.with(|p| p.iter().any(|p| p.field == name)).then_some("true")
    };
    let label = f.label(l.cat_untracked());
    let required = f.required.then_some("true");
    let control = match &f.control {
        Control::Text => view! {
            <input type="text" id=dom_id.clone() aria-describedby=help_id.clone() aria-required=required aria-invalid=invalid
                prop:value=value on:input=move |ev| set(event_target_value(&ev))/>
        }
        .into_any(),
        Control::Number => view! {
            // Text with a number keypad: what was typed stays visible, so
            // a value that is not whole is named, not silently emptied.
            <input type="text" inputmode="numeric" class="answer-number" id=dom_id.clone() aria-describedby=help_id.clone()
                aria-required=required aria-invalid=invalid prop:value=value on:input=move |ev| set(event_target_value(&ev))/>
        }
        .into_any(),
        Control::Checkbox => view! {
            <input type="checkbox" id=dom_id.clone() aria-describedby=help_id.clone()
                prop:checked=move || value() == "true" on:change=move |ev| set(event_target_checked(&ev).to_string())/>
        }
        .into_any(),
        Control::Select(values) => {
            let blank = if f.required { "ui-answer-choose" } else { "ui-answer-none" };
            let options = values.iter().map(|v| view! { <option value=v.clone()>{v.clone()}</option> }).collect_view();
            view! {
                <select id=dom_id.clone() aria-describedby=help_id.clone() aria-required=required aria-invalid=invalid
                    prop:value=value on:change=move |ev| set(event_target_value(&ev))>
                    <option value="">{move || l.t(blank)}</option>
                    {options}
                </select>
            }
            .into_any()
        }
    };
    let checkbox = f.control == Control::Checkbox;
    view! {
        <div class=if checkbox { "answer-field answer-check" } else { "answer-field" } data-field=name.clone()>
            <label for=dom_id>{label}</label>
            {control}
            {f.description.clone().map(|d| view! { <span class="answer-help small muted" id=help_id.clone()>{d}</span> })}
        </div>
    }
}
