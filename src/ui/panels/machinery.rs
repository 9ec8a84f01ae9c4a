//! The machinery panel and the messages table: the one FSM with the shown
//! request's state lit and its last transition marked (animated when the
//! step just made it; a fade only under reduced motion), the trackers (the
//! lesson's two, or one per protocol of a file) and `config.json` written
//! as the lesson writes them; and the diagram's
//! text alternative, a table of the messages so far. Both follow the
//! playback cursor (Back, Next, scrub, replay and imported traces alike).
//!
//! Owns this markup only. What is shown comes from `machinery` and
//! `message_table` (pure, tested natively); the state at the cursor from
//! the panels' memo; selection and cursor from the session. It must not
//! change the team or place anything in the diagram.

use leptos::prelude::*;

use crate::protocol::{RequestStatus, TeamState};
use crate::ui::browser::lang::lang;
use crate::ui::state::session::Session;
use crate::view::diagram::message_table::{MessageRow, MESSAGE_ROWS};
use crate::view::i18n::{tr, Catalog};
use crate::view::machinery::{machinery_in, Fsm, Machinery, MemberLine, TrackerLine, TrackerView};

/// The machinery as the lesson draws it, as of the cursor. `state` is the
/// team at the cursor (the panels' memo).
#[component]
pub fn MachineryPanel(
    /// The team at the cursor (`None`: the trace cannot be replayed that far).
    state: Memo<Option<TeamState>>,
) -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let data = Memo::new(move |_| {
        let shown = s.shown();
        let selected = s.playback.selected.get();
        s.run.views.with(|v| {
            state.with(|st| {
                st.as_ref().map(|st| {
                    s.run.trace.with(|t| machinery_in(st, v.creation_order(), &t.entries()[..shown.min(t.len())], selected.as_ref()))
                })
            })
        })
    });
    // The FSM alone, compared: a step that leaves the request it shows as
    // it was (a model call, a tool, another agent's message) redraws none
    // of its figure.
    let fsm = Memo::new(move |_| data.with(|d| d.as_ref().map(|m| m.fsm.clone())));
    // One block per tracker the run keeps (the lesson's two, or a file's
    // `<name>_requests`), keyed by its name: a step redraws the lines only.
    let names = Memo::new(move |_| {
        data.with(|d| d.as_ref().map(|m| m.trackers.iter().map(|t| t.name.clone()).collect::<Vec<_>>()).unwrap_or_default())
    });
    let tracker = move |name: String| {
        let tracker = Signal::derive(move || data.with(|d| d.as_ref().and_then(|m| m.trackers.iter().find(|t| t.name == name).cloned())));
        view! { <TrackerCode tracker=tracker/> }
    };
    view! {
        <section class="panel machinery" aria-labelledby="machinery-title">
            <h2 id="machinery-title">{move || l.t("ui-machinery")}</h2>
            <p class="muted small machinery-intro">
                {move || l.t(if s.run.trace.with(|t| t.protocols().file().is_some()) { "ui-machinery-intro-file" } else { "ui-machinery-intro" })}
            </p>
            {move || fsm.with(|f| match f {
                None => view! { <p class="muted">{l.t("ui-no-replay")}</p> }.into_any(),
                Some(f) => fsm_view(l.cat(), f.as_ref()).into_any(),
            })}
            <h3 class="machinery-sub">{move || l.t("ui-trackers")}</h3>
            <For each=move || names.get() key=|name| name.clone() children=tracker/>
            <h3 class="machinery-sub">"config.json"</h3>
            <ConfigCode data=data/>
        </section>
    }
}

/// The FSM `pending -> approved | rejected` as a small state diagram, the
/// request's state lit and the edge it took marked.
/// The FSM in words in the page's language (as `Fsm::describe` says it in
/// English): "Request 4607cc28 (shutdown, lead → alice): pending → approved
/// by alice at 3.333s."
fn fsm_words(cat: &Catalog, f: &Fsm) -> String {
    let (id, kind, requester, addressee) = (f.request_id.to_string(), f.kind.to_string(), f.requester.to_string(), f.addressee.to_string());
    match &f.last {
        Some(m) => tr!(
            cat,
            "ui-fsm-moved",
            id = id,
            kind = kind,
            requester = requester,
            addressee = addressee,
            from = m.from.as_str(),
            to = m.to.as_str(),
            by = m.by.to_string(),
            at = m.at.to_string()
        ),
        None => tr!(cat, "ui-fsm-waiting", id = id, kind = kind, requester = requester, addressee = addressee, state = f.state.as_str()),
    }
}

fn fsm_view(cat: &Catalog, fsm: Option<&Fsm>) -> impl IntoView {
    let state = fsm.map(|f| f.state);
    let taken = fsm.and_then(|f| f.last.as_ref().map(|m| m.to));
    let fresh = fsm.is_some_and(|f| f.fresh);
    let node = move |status: RequestStatus, x: f64, y: f64| {
        let lit = state == Some(status);
        let class = format!("fsm-node state-{status}{}{}", if lit { " lit" } else { "" }, if lit && fresh { " fresh" } else { "" });
        view! {
            <g class=class>
                <rect x=x y=y width="96" height="30" rx="15"></rect>
                <text x=x + 48.0 y=y + 20.0>{status.as_str()}</text>
            </g>
        }
    };
    let edge = move |to: RequestStatus, d: &'static str, label: &'static str, lx: f64, ly: f64| {
        let on = taken == Some(to);
        let class = format!("fsm-edge to-{to}{}{}", if on { " taken" } else { "" }, if on && fresh { " fresh" } else { "" });
        view! {
            <g class=class>
                <path d=d marker-end="url(#fsm-head)"></path>
                <text x=lx y=ly>{label}</text>
            </g>
        }
    };
    let label = match fsm {
        Some(f) => tr!(cat, "ui-fsm-label", id = f.request_id.to_string(), state = f.state.as_str()),
        None => cat.t("ui-fsm-label-empty"),
    };
    let words = fsm.map_or_else(
        || cat.t("ui-fsm-empty"),
        |f| if f.chosen { fsm_words(cat, f) } else { tr!(cat, "ui-fsm-last", fsm = fsm_words(cat, f)) },
    );
    view! {
        <figure class="fsm">
            <svg class="fsm-drawing" role="img" aria-label=label viewBox="0 0 316 124" width="316" height="124">
                <defs>
                    <marker id="fsm-head" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z"></path>
                    </marker>
                </defs>
                <g class="fsm-edge start">
                    <circle cx="5" cy="62" r="4"></circle>
                    <path d="M 9 62 L 19 62" marker-end="url(#fsm-head)"></path>
                </g>
                {edge(RequestStatus::Approved, "M 116 54 L 209 25", "approve", 146.0, 30.0)}
                {edge(RequestStatus::Rejected, "M 116 70 L 209 99", "reject", 146.0, 104.0)}
                {node(RequestStatus::Pending, 20.0, 47.0)}
                {node(RequestStatus::Approved, 212.0, 10.0)}
                {node(RequestStatus::Rejected, 212.0, 84.0)}
            </svg>
            <figcaption class="small">{words}</figcaption>
        </figure>
    }
}

/// One tracker as the lesson's Python dict; each entry a button that puts
/// its request on the FSM (and selects it in the diagram and the Requests
/// panel).
#[component]
fn TrackerCode(tracker: Signal<Option<TrackerView>>) -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let name = move || tracker.with(|t| t.as_ref().map_or(String::new(), |t| t.name.clone()));
    let lines = move || tracker.with(|t| t.as_ref().map(|t| t.lines.rows.clone()).unwrap_or_default());
    let empty = move || tracker.with(|t| t.as_ref().is_none_or(|t| t.lines.rows.is_empty()));
    let line_view = move |l: TrackerLine| {
        let id = l.id.clone();
        let class = format!(
            "code-line entry status-{}{}{}",
            l.status,
            if l.selected { " selected" } else { "" },
            if l.fresh { " fresh" } else { "" }
        );
        view! {
            <button class=class data-request=l.id.to_string() aria-pressed=l.selected.to_string()
                on:click=move |_| s.playback.selected.set(Some(id.clone()))>
                {l.text}
            </button>
        }
    };
    view! {
        <div class="code-block tracker" role="group" aria-label=move || tr!(l.cat(), "ui-tracker-label", name = name())>
            <code class="code-line">{move || if empty() { format!("{} = {{}}", name()) } else { format!("{} = {{", name()) }}</code>
            <For each=lines key=|l| (l.text.clone(), l.selected, l.fresh) children=line_view/>
            <Show when=move || !empty()>
                <code class="code-line">"}"</code>
            </Show>
        </div>
        {move || tracker.with(|t| t.as_ref().and_then(|t| t.lines.cut_note(l.cat(), "ui-cut-requests"))).map(|note| view! { <p class="muted small list-cut">{note}</p> })}
    }
}

/// The roster as the lesson's `config.json`.
#[component]
fn ConfigCode(data: Memo<Option<Machinery>>) -> impl IntoView {
    let l = lang();
    let team = move || data.with(|d| d.as_ref().map(|m| m.config.team_name.clone()).unwrap_or_default());
    let members = move || data.with(|d| d.as_ref().map(|m| m.config.members.rows.clone()).unwrap_or_default());
    let count = move || data.with(|d| d.as_ref().map_or(0, |m| m.config.members.rows.len()));
    let numbered = move || members().into_iter().enumerate().collect::<Vec<(usize, MemberLine)>>();
    let member_view = move |(i, m): (usize, MemberLine)| {
        let class = format!("code-line code-member status-{}{}", m.status, if m.fresh { " fresh" } else { "" });
        let comma = move || if i + 1 < count() { "," } else { "" };
        view! { <code class=class>{m.text}{comma}</code> }
    };
    view! {
        <div class="code-block config" role="group" aria-label="config.json">
            <code class="code-line">"{"</code>
            <code class="code-line key">{move || format!("\"team_name\": {},", team())}</code>
            <code class="code-line key">{move || if count() == 0 { "\"members\": []" } else { "\"members\": [" }}</code>
            <For each=numbered key=|(i, m)| (*i, m.text.clone(), m.fresh) children=member_view/>
            <Show when=move || count() != 0>
                <code class="code-line key">"]"</code>
            </Show>
            <code class="code-line">"}"</code>
        </div>
        {move || data.with(|d| d.as_ref().and_then(|m| m.config.members.cut_note(l.cat(), "ui-cut-members"))).map(|note| view! { <p class="muted small list-cut">{note}</p> })}
    }
}

/// The diagram's text alternative: the messages so far as a table (newest
/// first, bounded), following the cursor.
#[component]
pub fn MessageTable() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let rows = Memo::new(move |_| {
        let cursor = s.playback.cursor.get();
        s.run.trace.with(|t| s.run.views.with(|v| v.messages_at(t.entries(), cursor, MESSAGE_ROWS)))
    });
    let caption = move || {
        let (shown, len) = (s.shown(), s.run.trace.with(|t| t.len()));
        let total = rows.with(|r| r.total);
        let cat = l.cat();
        let cut = rows.with(|r| r.cut_note(cat, "ui-cut-messages")).map(|n| tr!(cat, "ui-sentence", text = n)).unwrap_or_default();
        let head = tr!(cat, "ui-messages-caption", total = total, shown = shown, len = len);
        crate::view::words::captions::sentences(cat.locale(), &[&head, &cut])
    };
    let row_view = move |r: MessageRow| {
        let fate = r.fate.describe(l.cat_untracked());
        view! {
            <tr class=format!("fate-{}", r.fate.class())>
                <th scope="row">{format!("#{}", r.seq)}</th>
                <td class="num">{r.time.to_string()}</td>
                <td>{r.from.to_string()}</td>
                <td>{r.to.to_string()}</td>
                <td><code>{r.msg_type.as_str()}</code></td>
                <td>{r.request_id.map(|id| view! { <code>{id.to_string()}</code> })}</td>
                <td class="said">{r.said}</td>
                <td class="fate">{fate}</td>
            </tr>
        }
    };
    view! {
        <div class="message-table-scroll" id="message-table" tabindex="0" role="region" aria-labelledby="message-table-caption">
            <table class="message-table">
                <caption id="message-table-caption">{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{move || l.t("ui-col-seq")}</th>
                        <th scope="col">{move || l.t("ui-col-time")}</th>
                        <th scope="col">{move || l.t("ui-col-from")}</th>
                        <th scope="col">{move || l.t("ui-col-to")}</th>
                        <th scope="col">{move || l.t("ui-col-type")}</th>
                        <th scope="col">"request_id"</th>
                        <th scope="col">{move || l.t("ui-col-said")}</th>
                        <th scope="col">{move || l.t("ui-col-fate")}</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || rows.with(|r| r.rows.clone()) key=move |r| (r.seq, r.fate.clone(), l.0.get()) children=row_view/>
                </tbody>
            </table>
            <Show when=move || rows.with(|r| r.total == 0)>
                <p class="muted">{move || l.t("ui-no-messages")}</p>
            </Show>
        </div>
    }
}
