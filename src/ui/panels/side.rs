//! The side panels: roster, request tracker (with answering by hand),
//! inboxes, workspace and event log — all drawn as of the cursor by
//! replaying the trace's prefix.
//!
//! Owns panel markup. State comes from the session; actions go through it.

use leptos::prelude::*;

use crate::protocol::{AgentName, Event, MemberStatus, RequestId, RequestKind, RequestStatus, TeamState, Trace};
use crate::ui::browser::download;
use crate::ui::browser::lang::lang;
use crate::ui::panels::machinery::MachineryPanel;
use crate::ui::state::session::Session;
use crate::view::answer_form;
use crate::view::cost;
use crate::view::i18n::tr;
use crate::view::lists;
use crate::view::panel_data::describe;
use crate::view::words::findings;

/// The team's state as of the cursor: the nearest keyframe of the run's
/// timeline plus the few events after it, never a replay from event 0.
///
/// Recomputed only when the cursor or the run changes, and then taken as
/// changed without comparing: two states of a long run differ in a few
/// entries, but comparing them walks every request.
fn state_at(s: Session) -> Memo<Option<TeamState>> {
    Memo::new_with_compare(
        move |_| {
            let cursor = s.playback.cursor.get();
            s.run.views.with(|v| s.run.trace.with(|t| v.state_at(t.entries(), cursor).ok()))
        },
        |_, _| true,
    )
}

/// Every panel, stacked.
#[component]
pub fn Panels() -> impl IntoView {
    let s = expect_context::<Session>();
    let state = state_at(s);
    view! {
        <ViolationsPanel state=state/>
        <MachineryPanel state=state/>
        <RequestsPanel state=state/>
        <RosterPanel state=state/>
        <InboxPanel state=state/>
        <WorkspacePanel/>
        <SendPanel state=state/>
        <EventLog/>
    }
}

/// The invariant checker's findings as of the cursor, worded to agree with
/// the tracker there (`findings::breach_as_of`); each jumps to its event.
#[component]
fn ViolationsPanel(state: Memo<Option<TeamState>>) -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let found = Memo::new(move |_| {
        let cursor = s.playback.cursor.get();
        s.run.views.with(|v| lists::first(v.violations_at(cursor), lists::FINDING_ROWS))
    });
    // The rows as words, compared: a step that changes no finding's words
    // redraws nothing here.
    let rows = Memo::new(move |_| {
        let cat = l.cat();
        found.with(|f| {
            state.with(|st| {
                f.rows
                    .iter()
                    .map(|v| {
                        let answered = st.as_ref().zip(v.request_id.as_ref()).and_then(|(st, id)| st.tracker.get(id));
                        (v.seq as usize, findings::kind(cat, v.kind), findings::breach_as_of(cat, &v.detail, answered))
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    view! {
        <section class="panel violations" aria-labelledby="violations-title">
            <h2 id="violations-title">{move || tr!(l.cat(), "ui-check-title", count = found.with(|f| f.total))}</h2>
            {move || found.with(|f| f.cut_note(l.cat(), "ui-cut-findings")).map(|note| view! { <p class="muted small list-cut">{note}</p> })}
            {move || rows.with(|rows| if rows.is_empty() {
                view! { <p class="muted ok">{l.t("ui-check-ok")}</p> }.into_any()
            } else {
                view! {
                    <ul class="violation-list">
                        {rows.iter().map(|(seq, kind, words)| {
                            let seq = *seq;
                            view! {
                                <li>
                                    <button class="violation-item" on:click=move |_| s.seek(seq + 1)>
                                        <strong>{kind.clone()}</strong>
                                        {tr!(l.cat(), "ui-check-at", seq = seq, detail = words.clone())}
                                    </button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            })}
        </section>
    }
}

#[component]
fn RosterPanel(state: Memo<Option<TeamState>>) -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    // Nothing runs behind a stopped or recorded run: at its end, a member
    // the trace last saw at work is shown as stopped.
    let stopped = move || s.run.stopped.get() && s.playback.cursor.get().is_none();
    // Tokens (and dollars, when the run's model has a price) per agent and
    // for the run, as of the cursor.
    let spend = Memo::new(move |_| {
        let cursor = s.playback.cursor.get();
        s.run.views.with(|v| s.run.trace.with(|t| v.spend_at(t.entries(), cursor)))
    });
    let price = Memo::new(move |_| {
        let model = s.run.snapshot.with(|snap| cost::run_model(snap.as_ref()));
        model.and_then(|m| s.settings.prices.with(|t| t.price_of(&m).cloned()))
    });
    let split = Memo::new(move |_| {
        let cursor = s.playback.cursor.get();
        s.run.views.with(|v| s.run.trace.with(|t| v.split_at(t.entries(), cursor)))
    });
    let spend_of = move |who: &AgentName| {
        let one = spend.with(|sp| sp.agents.get(who).copied());
        let share = split.with(|sp| sp.get(who).and_then(|sp| cost::protocol_words(l.cat(), sp)));
        one.map(|one| {
            let words = price.with(|p| cost::spend_words(l.cat(), &one, p.as_ref()));
            let words = match share {
                Some(share) => format!("{words}, {share}"),
                None => words,
            };
            view! { <span class="cost">{words}</span> }
        })
    };
    // The members' rows, compared: a step that changes no member's status
    // redraws no row; one that does redraws that row only (keyed by it).
    let members = Memo::new(move |_| {
        let stopped = stopped();
        state.with(|st| {
            st.as_ref()
                .map(|st| {
                    st.roster
                        .members
                        .iter()
                        .map(|m| {
                            let status = if stopped && m.status == MemberStatus::Working { "stopped" } else { m.status.as_str() };
                            (m.name.clone(), m.role.clone(), m.plan_mode, status)
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    view! {
        <section class="panel" aria-labelledby="roster-title">
            <h2 id="roster-title">{move || l.t("ui-team")}</h2>
            <ul class="roster">
                <li class="member status-lead"><span class="name">"lead"</span>{move || spend_of(&AgentName::lead())}<span class="status">{move || if s.run.stopped_by_user.get() && s.playback.cursor.get().is_none() { l.t("ui-lead-stopped") } else { l.t("ui-lead-role") }}</span></li>
                <For each=move || members.get() key=|row| row.clone() let:row>
                    {
                        let (name, role, plan_mode, status) = row;
                        let who = name.clone();
                        view! {
                            <li class=format!("member status-{status}")>
                                <span class="name">{name.to_string()}</span>
                                <span class="role">{role}{move || if plan_mode { l.t("ui-plan-mode") } else { String::new() }}</span>
                                {move || spend_of(&who)}
                                <span class="status">{status}</span>
                            </li>
                        }
                    }
                </For>
            </ul>
            {move || {
                let run = spend.with(|sp| sp.run);
                (run.calls > 0).then(|| view! {
                    <p class="run-cost small">{price.with(|p| tr!(l.cat(), "ui-run-cost", calls = run.calls, spend = cost::spend_words(l.cat(), &run, p.as_ref())))}</p>
                })
            }}
        </section>
    }
}

#[component]
fn RequestsPanel(state: Memo<Option<TeamState>>) -> impl IntoView {
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

/// Approve or reject a pending request by hand, as its addressee: one
/// control per field of the protocol's answer (`view::answer_form`), each
/// labelled with its name and description. Nothing is sent while a field
/// is wrong; the problems are listed (and follow the typing from then on),
/// and what was typed stays, also when the runtime refuses the answer.
#[component]
fn AnswerForm(id: RequestId, addressee: AgentName, kind: RequestKind, typed: RwSignal<answer_form::Typed>) -> impl IntoView {
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

#[component]
fn InboxPanel(state: Memo<Option<TeamState>>) -> impl IntoView {
    let l = lang();
    // One tab stop for the inboxes (a roving tab index), as in the requests.
    let last = RwSignal::new(None::<String>);
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if let Some(summary) = roving_keydown(&ev, "details.inbox > summary") {
            last.set(summary.get_attribute("data-agent"));
        }
    };
    // Each inbox as what it shows (its owner, how many wait, the oldest
    // few in words), compared and keyed by it: a step redraws only the
    // inboxes it changed.
    let inboxes = Memo::new(move |_| {
        let cat = l.cat();
        state.with(|st| {
            st.as_ref()
                .map(|st| {
                    st.bus
                        .names()
                        .map(|n| {
                            let queue = st.bus.peek(n).unwrap_or_default();
                            // The oldest few: the ones the agent reads first.
                            let waiting: Vec<String> = queue
                                .iter()
                                .take(lists::INBOX_ROWS)
                                .map(|e| match &e.message.request_id {
                                    Some(id) => tr!(
                                        cat,
                                        "ui-inbox-request",
                                        msg_type = e.message.msg_type.as_str(),
                                        from = e.message.from.to_string(),
                                        id = id.to_string()
                                    ),
                                    None => tr!(
                                        cat,
                                        "ui-inbox-message",
                                        msg_type = e.message.msg_type.as_str(),
                                        from = e.message.from.to_string(),
                                        content = e.message.content.clone()
                                    ),
                                })
                                .collect();
                            let label = tr!(cat, "ui-inbox-unread", name = n.to_string(), count = queue.len());
                            (n.to_string(), queue.len(), label, waiting)
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let holder = Memo::new(move |_| {
        inboxes.with(|rows| last.with(|l| lists::tab_stop(l.as_deref(), rows.iter().map(|r| r.0.as_str())).map(str::to_string)))
    });
    view! {
        <section class="panel" aria-labelledby="inbox-title" on:keydown=on_key>
            <h2 id="inbox-title">{move || l.t("ui-inboxes")}</h2>
            <For each=move || inboxes.get() key=|row| row.clone() let:row>
                {
                    let (name, count, label, waiting) = row;
                    let more = count.saturating_sub(waiting.len());
                    let me = name.clone();
                    let clicked = name.clone();
                    let tab = move || if holder.with(|h| h.as_deref() == Some(me.as_str())) { "0" } else { "-1" };
                    view! {
                        <details class="inbox" open={count > 0}>
                            // A click moves the tab stop here, as the arrow keys do.
                            <summary tabindex=tab data-agent=name on:click=move |_| last.set(Some(clicked.clone()))>{label}</summary>
                            <ul>
                                {waiting.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
                                {(more > 0).then(|| view! { <li class="muted">{move || tr!(l.cat(), "ui-and-more", count = more)}</li> })}
                            </ul>
                        </details>
                    }
                }
            </For>
        </section>
    }
}

#[component]
fn WorkspacePanel() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let files = Memo::new(move |_| s.run.views.with(|v| v.workspace_at(s.playback.cursor.get())));
    let open = RwSignal::new(None::<String>);
    // Each Download button offers its file through this link, from a Blob
    // object URL (`download::offer`), as the trace exports do.
    let links = NodeRef::<leptos::html::Div>::new();
    let save = move |path: &str, content: &str| {
        let Some(a) = links.get().and_then(|d| d.first_element_child()) else { return };
        let a: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(a);
        let name = path.rsplit('/').next().unwrap_or(path);
        if let Err(e) = download::offer(&a, content, name, "text/plain;charset=utf-8") {
            s.error(tr!(l.cat_untracked(), "ui-download-failed", path = path, error = e.to_string()));
        }
    };
    view! {
        <section class="panel" aria-labelledby="ws-title">
            <h2 id="ws-title">{move || l.t("ui-workspace")}</h2>
            {move || files.with(|f| if f.is_empty() {
                view! { <p class="muted">{l.t("ui-no-files")}</p> }.into_any()
            } else {
                view! {
                    <ul class="files">
                        {f.iter().map(|(path, content)| {
                            let p = path.clone();
                            let (q, text) = (path.clone(), content.clone());
                            let shown = open.get() == Some(path.clone());
                            view! {
                                <li>
                                    <button class="file" on:click=move |_| open.update(|o| *o = if o.as_ref() == Some(&p) { None } else { Some(p.clone()) })>
                                        {format!("{path} ({} bytes)", content.len())}
                                    </button>
                                    <button class="download" aria-label=tr!(l.cat(), "ui-download-label", path = path.clone()) on:click=move |_| save(&q, &text)>{move || l.t("ui-download")}</button>
                                    {shown.then(|| view! { <pre class="file-content">{content.clone()}</pre> })}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            })}
            <div class="download-links" node_ref=links hidden=true><a aria-hidden="true">"file"</a></div>
        </section>
    }
}

/// Send a message as any agent.
#[component]
fn SendPanel(state: Memo<Option<TeamState>>) -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let from = RwSignal::new("lead".to_string());
    let to = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    // Compared, so a step that changes no name redraws no option.
    let names = Memo::new(move |_| {
        state.with(|st| st.as_ref().map(|st| st.bus.names().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap_or_default())
    });
    // A teammate that has shut down sends nothing more: it is not offered.
    let senders = Memo::new(move |_| {
        state.with(|st| {
            st.as_ref()
                .map(|st| {
                    st.bus
                        .names()
                        .filter(|n| st.roster.status(n) != Some(MemberStatus::Shutdown))
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let send = move |_| {
        let (Ok(f), Ok(t)) = (AgentName::parse(&from.get_untracked()), AgentName::parse(&to.get_untracked())) else {
            s.banner.set(Some(l.cat_untracked().t("ui-send-pick")));
            return;
        };
        s.send(&f, &t, &text.get_untracked());
        text.set(String::new());
    };
    let on_text = move |ev: leptos::ev::Event| text.set(event_target_value(&ev));
    view! {
        <section class="panel" aria-labelledby="send-title">
            <h2 id="send-title">{move || l.t("ui-send-title")}</h2>
            <div class="send-form">
                <label>{move || l.t("ui-from")}" "<select aria-label=move || l.t("ui-from") on:change=move |ev| from.set(event_target_value(&ev)) prop:value=move || from.get()>
                    {move || senders.get().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect_view()}
                </select></label>
                <label>{move || l.t("ui-to")}" "<select aria-label=move || l.t("ui-to") on:change=move |ev| to.set(event_target_value(&ev)) prop:value=move || to.get()>
                    <option value="">"—"</option>
                    {move || names.get().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect_view()}
                </select></label>
                <input type="text" aria-label=move || l.t("ui-message-text") placeholder=move || l.t("ui-message-placeholder") prop:value=move || text.get() on:input=on_text/>
                <button on:click=send disabled=move || s.run.stopped.get() || s.playback.cursor.get().is_some()>{move || l.t("ui-send")}</button>
            </div>
        </section>
    }
}

/// A keydown in a list with a roving tab index, whose rows are the `rows`
/// (a selector) inside the element listening: on a row, a key that
/// `lists::roving_step` knows focuses the row it names, goes no further (not
/// to the page's shortcuts) and returns that row. Other keys, and keys typed
/// elsewhere in the list (an answer form), are left alone.
fn roving_keydown(ev: &leptos::ev::KeyboardEvent, rows: &str) -> Option<web_sys::HtmlElement> {
    use wasm_bindgen::JsCast;
    let row = ev.target()?.dyn_into::<web_sys::Element>().ok()?.closest(rows).ok()??;
    let all = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?.query_selector_all(rows).ok()?;
    let at = (0..all.length()).position(|i| all.item(i).is_some_and(|n| n.is_same_node(Some(&row))))?;
    let to = lists::roving_step(&ev.key(), at, all.length() as usize)?;
    ev.prevent_default();
    ev.stop_propagation();
    let to = all.item(to as u32)?.dyn_into::<web_sys::HtmlElement>().ok()?;
    let _ = to.focus();
    Some(to)
}

/// The event log: the last `SHOWN` events up to the cursor, newest first,
/// each told as its caption (title and text), the raw line on demand. Rows
/// are keyed by (run, seq), so a step adds or removes a row instead of
/// redrawing the list. One tab stop for the whole list (a roving tab
/// index): ↑/↓ move, Home/End go to the ends, Enter jumps the cursor there.
#[component]
fn EventLog() -> impl IntoView {
    use wasm_bindgen::JsCast;
    let s = expect_context::<Session>();
    let l = lang();
    const SHOWN: usize = 200;
    let raw = RwSignal::new(false);
    // Which row holds the list's one tab stop (`None`: the newest shown).
    let active = RwSignal::new(None::<usize>);
    // A new run (or a recorded one) reuses sequence numbers from 0: its rows
    // are new rows.
    let generation = RwSignal::new(0_u64);
    Effect::new(move |_| {
        s.run.snapshot.track();
        s.run.imported.track();
        generation.update(|g| *g += 1);
        active.set(None);
    });
    // Which row is current and which holds the tab stop, as selectors:
    // a step notifies the two rows whose answer changed, not every row
    // shown (each of which would also unsubscribe and resubscribe). A
    // selector's effect lives as long as its clones, not the page's owner:
    // run after the page is gone, it reads nothing disposed (`None`).
    let shown_now = move || {
        let len = s.run.trace.try_with(Trace::len)?;
        Some(s.playback.cursor.try_get()?.map_or(len, |c| c.min(len)))
    };
    let current_row = Selector::new(shown_now);
    let focused_row = Selector::new(move || {
        let shown = shown_now()?;
        match active.try_get()? {
            Some(a) if a < shown && a + SHOWN >= shown => Some(a),
            _ => shown.checked_sub(1),
        }
    });
    let rows = move || {
        let shown = s.shown();
        // A new language redraws the rows too (their captions are in it).
        let g = (generation.get(), l.0.get());
        (shown.saturating_sub(SHOWN)..shown).rev().map(|seq| (g, seq)).collect::<Vec<_>>()
    };
    let seq_of = |el: &web_sys::Element| el.get_attribute("data-seq").and_then(|v| v.parse::<usize>().ok());
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" {
            let li =
                ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|el| el.closest("li[data-seq]").ok().flatten());
            if let Some(seq) = li.as_ref().and_then(seq_of) {
                s.seek(seq + 1);
                ev.prevent_default();
                ev.stop_propagation();
            }
        } else if let Some(seq) = roving_keydown(&ev, "li[data-seq]").as_deref().and_then(seq_of) {
            active.set(Some(seq));
        }
    };
    view! {
        <section class="panel" aria-labelledby="log-title">
            <h2 id="log-title">{move || l.t("ui-log")}</h2>
            <label class="inline small log-raw-toggle">
                <input type="checkbox" prop:checked=move || raw.get() on:change=move |ev| raw.set(event_target_checked(&ev))/>
                {move || l.t("ui-log-raw")}
            </label>
            <ol class="event-log" role="listbox" aria-label=move || l.t("ui-log-label") on:keydown=on_key>
                <For each=rows key=|k| *k let:key>
                    {
                        let seq = key.1;
                        let entry = s.run.trace.with_untracked(|t| t.entries().get(seq).cloned());
                        let caption = s.run.trace.with_untracked(|t| entry.as_ref().map(|e| {
                            // The closing caption tells the state the run ended in.
                            let before = matches!(e.event, Event::RunFinished)
                                .then(|| s.run.views.with_untracked(|v| v.state_at(t.entries(), Some(seq)).ok()))
                                .flatten();
                            crate::view::words::captions::caption_of(l.cat_untracked(), t.entries(), before.as_ref(), e)
                        }));
                        let line = entry.as_ref().map(describe).unwrap_or_default();
                        let (title, text) = caption.map(|c| (c.title, c.text)).unwrap_or_default();
                        let current = {
                            let current_row = current_row.clone();
                            move || current_row.selected(&Some(seq + 1))
                        };
                        let tab = {
                            let focused_row = focused_row.clone();
                            move || if focused_row.selected(&Some(seq)) { "0" } else { "-1" }
                        };
                        view! {
                            <li class={ let current = current.clone(); move || if current() { "log-row current" } else { "log-row" } } data-seq=seq.to_string() role="option"
                                aria-selected=move || current().to_string() tabindex=tab
                                on:click=move |_| { active.set(Some(seq)); s.seek(seq + 1); }>
                                <span class="log-seq">{crate::view::words::captions::event_number(seq as u64)}</span>
                                <span class="log-title">{title}</span>
                                <span class="log-text">{text}</span>
                                <Show when=move || raw.get()>
                                    <code class="log-raw">{line.clone()}</code>
                                </Show>
                            </li>
                        }
                    }
                </For>
            </ol>
        </section>
    }
}
