//! The request tracker panel: every request as of the cursor, keyed by
//! id (selected, then pending, then settled, newest first, a bounded slice
//! of a long run with a filter), each row with its badge, what was said
//! about it and its transitions, and — while it is pending and the view is
//! live — the form to answer it by hand (`answer_form`).
//!
//! Owns the list's markup and its roving tab stop. Rows come from
//! `view::lists`; an answer goes through the `Session`.

use leptos::prelude::*;

use super::answer_form::AnswerForm;
use super::roving::roving_keydown;
use crate::protocol::{RequestId, RequestStatus, TeamState};
use crate::ui::browser::lang::lang;
use crate::ui::state::session::Session;
use crate::view::answer_form;
use crate::view::i18n::tr;
use crate::view::lists;

/// The request tracker as of `state`'s cursor.
#[component]
pub fn RequestsPanel(
    /// The team at the cursor (`None`: the trace cannot be replayed that far).
    state: Memo<Option<TeamState>>,
) -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    // Rows are keyed by request id: a protocol event updates a row in place,
    // and what is typed into its answer form stays. A long run shows a
    // bounded slice (selected, then pending, then settled, newest first).
    let query = RwSignal::new(String::new());
    let shown = Memo::new(move |_| {
        let selected = s.playback.selected.get();
        let query = query.get();
        s.run.views.with(|v| {
            state.with(|st| {
                st.as_ref().map(|st| lists::request_rows(&st.tracker, v.creation_order(), selected.as_ref(), &query, lists::REQUEST_ROWS))
            })
        })
    });
    // One tab stop for the list (a roving tab index): the head last moved
    // to (by key or click) while it is shown, else the first; ↑/↓, Home and
    // End move it.
    let last = RwSignal::new(None::<String>);
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if let Some(head) = roving_keydown(&ev, "button.request-head") {
            last.set(head.closest("li[data-request]").ok().flatten().and_then(|li| li.get_attribute("data-request")));
        }
    };
    view! {
        <section class="panel" aria-labelledby="requests-title">
            <h2 id="requests-title">{move || l.t("ui-requests")}</h2>
            {move || shown.with(|shown| match shown {
                None => Some(view! { <p class="muted">{l.t("ui-no-replay")}</p> }.into_any()),
                Some(shown) if shown.total == 0 => Some(view! { <p class="muted">{l.t("ui-no-requests")}</p> }.into_any()),
                Some(_) => None,
            })}
            <Show when=move || shown.with(|s| s.as_ref().is_some_and(|s| s.total > lists::REQUEST_ROWS))>
                <input type="search" class="request-filter" placeholder=move || l.t("ui-request-filter") aria-label=move || l.t("ui-request-filter-label")
                    prop:value=move || query.get() on:input=move |ev| query.set(event_target_value(&ev))/>
            </Show>
            {move || shown.with(|shown| shown.as_ref().and_then(|s| s.cut_note(l.cat(), "ui-cut-requests")).map(|note| view! { <p class="muted small list-cut">{note}</p> }))}
            <ul class="requests" on:keydown=on_key>
                <For each=move || shown.with(|s| s.as_ref().map(|s| s.rows.clone()).unwrap_or_default()) key=|id| id.clone() let:id>
                    <RequestRow id=id state=state shown=shown last=last/>
                </For>
            </ul>
        </section>
    }
}

/// One request: its badge and detail, and (while it is pending and the
/// view is live) a form to answer it by hand. Its head holds the list's tab
/// stop when `lists::tab_stop` picks it from the rows `shown` and the row
/// `last` moved to; a click on it moves the stop there.
#[component]
fn RequestRow(
    id: RequestId,
    state: Memo<Option<TeamState>>,
    shown: Memo<Option<lists::Shown<RequestId>>>,
    last: RwSignal<Option<String>>,
) -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let key = id.clone();
    let request = Memo::new(move |_| state.with(|st| st.as_ref().and_then(|st| st.tracker.get(&key).cloned())));
    // Kept here, not in the form, so what was typed outlives the form
    // being hidden and an answer refused.
    let typed = RwSignal::new(answer_form::Typed::new());
    let open = {
        let id = id.clone();
        Memo::new(move |_| s.playback.selected.with(|sel| sel.as_ref() == Some(&id)))
    };
    // An answer by hand applies to the team as the page shows it: while Step
    // mode holds back events the team recorded (a request created and not
    // yet sent, say), the form waits for Next to show them.
    let pending_live = move || {
        let live = s.playback.cursor.get().is_none() && !s.run.stopped.get() && !s.run.behind.get();
        live && request.with(|r| r.as_ref().is_some_and(|r| r.status == RequestStatus::Pending))
    };
    let pick = id.clone();
    let me = id.clone();
    let tab = move || {
        let holds = |s: &lists::Shown<RequestId>| {
            last.with(|l| lists::tab_stop(l.as_deref(), s.rows.iter().map(RequestId::as_str)) == Some(me.as_str()))
        };
        if shown.with(|s| s.as_ref().is_some_and(holds)) {
            "0"
        } else {
            "-1"
        }
    };
    view! {
        <li class=move || format!("request{}", if open.get() { " open" } else { "" }) data-request=id.to_string()>
            {move || request.get().map(|r| view! {
                <button class="request-head" aria-expanded=move || open.get().to_string() tabindex=tab.clone() on:click={
                    let pick = pick.clone();
                    move |_| {
                        last.set(Some(pick.to_string()));
                        s.playback.selected.set(Some(pick.clone()));
                    }
                }>
                    <span class=format!("badge badge-{}", r.status)>{r.status.as_str()}</span>
                    <code>{r.id.to_string()}</code>
                    {format!(" {} · {} → {}", r.kind, r.requester, r.addressee)}
                </button>
            })}
            {move || (open.get()).then(|| request.get()).flatten().map(|r| {
                let cat = l.cat();
                let latency = r.latency().map(|d| tr!(cat, "ui-latency", latency = d.to_string())).unwrap_or_else(|| cat.t("ui-waiting"));
                view! {
                    <div class="request-detail">
                        <p>{tr!(cat, "ui-created-at", at = r.created_at.to_string(), latency = latency)}</p>
                        // What was said, whole: the plan, the feedback, the reason
                        // (the diagram shows only their start under each arrow).
                        {
                            let (said, typed) = s.run.trace.with(|t| {
                                let shown = &t.entries()[..s.shown().min(t.len())];
                                (crate::view::panel_data::said_about(shown, &r.id), crate::view::panel_data::fields_about(shown, &r.id))
                            });
                            let plan_told = said.iter().any(|w| w.field == "plan");
                            view! {
                                {r.plan.clone().filter(|_| !plan_told).map(|p| view! { <blockquote class="plan">{p}</blockquote> })}
                                {said.into_iter().map(|w| view! {
                                    <blockquote class=format!("said said-{}", w.field)><span class="said-field">{format!("{}: ", w.field)}</span>{w.text}</blockquote>
                                }).collect_view()}
                                // A file protocol's typed fields, message by message.
                                {typed.into_iter().map(|m| {
                                    let head = match m.approve {
                                        // The message's own key and value, as the protocol writes them.
                                        Some(a) => format!("{} (approve: {a}): ", m.msg_type),
                                        None => format!("{}: ", m.msg_type),
                                    };
                                    view! {
                                        <blockquote class="said said-fields" data-type=m.msg_type.clone()>
                                            <span class="said-field">{head}</span>
                                            <ul class="said-field-list">{m.fields.into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}</ul>
                                        </blockquote>
                                    }
                                }).collect_view()}
                            }
                        }
                        <ul class="transitions">{r.transitions.iter().map(|t| view! {
                            <li>{tr!(cat, "ui-transition", from = t.from.to_string(), to = t.to.to_string(), at = t.at.to_string(), by = t.by.to_string())}</li>
                        }).collect_view()}</ul>
                    </div>
                }
            })}
            <Show when=pending_live>
                {move || request.with_untracked(|r| r.as_ref().map(|r| view! {
                    <AnswerForm id=r.id.clone() addressee=r.addressee.clone() kind=r.kind typed=typed/>
                }))}
            </Show>
        </li>
    }
}
