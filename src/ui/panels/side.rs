//! The side column: the checker's findings, the machinery, the requests
//! (`requests`), roster, inboxes, workspace, send form and the event log
//! (`event_log`) — all drawn as of the cursor from the team's state there.
//!
//! Owns the column's order, the state memo the panels share and the
//! markup of the small panels. State comes from the session; actions go
//! through it.

use leptos::prelude::*;

use super::event_log::EventLog;
use super::requests::RequestsPanel;
use super::roving::roving_keydown;
use crate::protocol::{AgentName, MemberStatus, TeamState};
use crate::ui::browser::download;
use crate::ui::browser::lang::lang;
use crate::ui::panels::machinery::MachineryPanel;
use crate::ui::state::session::Session;
use crate::view::cost;
use crate::view::i18n::tr;
use crate::view::lists;
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
    // Each agent's spend, compared, then worded: a step that changes one
    // agent's spend words that agent's spend only (the others' memos look
    // their agent up and find it unchanged), and redraws only its row.
    let spend_of = move |who: AgentName| {
        let mine = Memo::new(move |_| (spend.with(|sp| sp.agents.get(&who).copied()), split.with(|sp| sp.get(&who).copied())));
        let words = Memo::new(move |_| {
            let cat = l.cat();
            let (one, share) = mine.get();
            let one = one?;
            let words = price.with(|p| cost::spend_words(cat, &one, p.as_ref()));
            Some(match share.and_then(|sp| cost::protocol_words(cat, &sp)) {
                Some(share) => format!("{words}, {share}"),
                None => words,
            })
        });
        move || words.get().map(|words| view! { <span class="cost">{words}</span> })
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
                <li class="member status-lead"><span class="name">"lead"</span>{spend_of(AgentName::lead())}<span class="status">{move || if s.run.stopped_by_user.get() && s.playback.cursor.get().is_none() { l.t("ui-lead-stopped") } else { l.t("ui-lead-role") }}</span></li>
                <For each=move || members.get() key=|row| row.clone() let:row>
                    {
                        let (name, role, plan_mode, status) = row;
                        let who = name.clone();
                        view! {
                            <li class=format!("member status-{status}")>
                                <span class="name">{name.to_string()}</span>
                                <span class="role">{role}{move || if plan_mode { l.t("ui-plan-mode") } else { String::new() }}</span>
                                {spend_of(who)}
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
    // few), compared and keyed by it (and the language): a step redraws
    // only the inboxes it changed, and words them only then.
    let inboxes = Memo::new(move |_| {
        let locale = l.0.get();
        state.with(|st| {
            st.as_ref().map(|st| lists::inbox_rows(&st.bus).into_iter().map(|row| (row, locale)).collect::<Vec<_>>()).unwrap_or_default()
        })
    });
    let holder = Memo::new(move |_| {
        inboxes.with(|rows| last.with(|l| lists::tab_stop(l.as_deref(), rows.iter().map(|r| r.0.owner.as_str())).map(str::to_string)))
    });
    view! {
        <section class="panel" aria-labelledby="inbox-title" on:keydown=on_key>
            <h2 id="inbox-title">{move || l.t("ui-inboxes")}</h2>
            <For each=move || inboxes.get() key=|row| row.clone() let:row>
                {
                    let (lists::InboxRow { owner: name, count, waiting }, _) = row;
                    let cat = l.cat_untracked();
                    let label = tr!(cat, "ui-inbox-unread", name = name.clone(), count = count);
                    let waiting: Vec<String> = waiting.iter().map(|w| w.words(cat)).collect();
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
