//! The browser UI (Leptos, client-side rendering). Every component draws from
//! protocol state or a trace; none of them changes the team except through
//! `protocol::Team`.
//!
//! This is the app shell: the page frame and a live check that the protocol
//! core runs in this tab. The diagram, controls and panels build on it.

use leptos::prelude::*;

use crate::protocol::{AgentName, Event, Millis, MessageType, RequestKind, RequestStatus, Team, TeamError, TraceEntry};

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <div class="app">
            <header class="app-header">
                <h1>"Team Protocols Playground"</h1>
                <p class="tagline">
                    "A lead and its teammates negotiate graceful shutdown and plan approval, "
                    "each request a state machine correlated by "<code>"request_id"</code>"."
                </p>
            </header>
            <main class="app-main">
                <ProtocolCard/>
                <CoreCheck/>
            </main>
            <footer class="app-footer">
                "Runs entirely in this tab. "
                <span class="build">{concat!("team-protocols ", env!("CARGO_PKG_VERSION"))}</span>
            </footer>
        </div>
    }
}

/// The shared FSM and the six message types, read from the protocol core.
#[component]
fn ProtocolCard() -> impl IntoView {
    let states = [RequestStatus::Pending, RequestStatus::Approved, RequestStatus::Rejected];
    view! {
        <section class="card" aria-labelledby="protocol-title">
            <h2 id="protocol-title">"One state machine, two protocols"</h2>
            <ol class="fsm" aria-label="Request states">
                {states.into_iter().map(|s| view! { <li class=format!("badge badge-{s}")>{s.as_str()}</li> }).collect_view()}
            </ol>
            <ul class="msg-types" aria-label="Message types">
                {MessageType::ALL.into_iter().map(|t| view! { <li><code>{t.as_str()}</code></li> }).collect_view()}
            </ul>
        </section>
    }
}

/// Runs the lesson's first prompt's handshake through the real core, in this
/// tab, and lists the trace it produced.
#[component]
fn CoreCheck() -> impl IntoView {
    let outcome = shutdown_handshake();
    view! {
        <section class="card" aria-labelledby="core-title">
            <h2 id="core-title">"Protocol core check"</h2>
            <p>"The shutdown handshake, run through the protocol core in this tab:"</p>
            {match outcome {
                Ok(entries) => view! {
                    <ol class="event-log" aria-label="Event log">
                        {entries.into_iter().map(|e| view! { <li>{describe(&e)}</li> }).collect_view()}
                    </ol>
                }.into_any(),
                Err(e) => view! { <p class="error" role="alert">"Error: "{e.to_string()}</p> }.into_any(),
            }}
        </section>
    }
}

fn shutdown_handshake() -> Result<Vec<TraceEntry>, TeamError> {
    let alice = AgentName::parse("alice").expect("valid name");
    let lead = AgentName::lead();
    let mut team = Team::new("default", 2026);
    team.spawn(&alice, "coder", false, Millis(0))?;
    let id = team.request_shutdown(&lead, &alice, Millis(120))?;
    team.drain(&alice, Millis(180))?;
    team.answer(RequestKind::Shutdown, &id, &alice, true, "work is saved", Millis(410))?;
    Ok(team.trace().entries().to_vec())
}

/// One line of the event log.
pub fn describe(entry: &TraceEntry) -> String {
    let what = match &entry.event {
        Event::RunStarted { prompt } => format!("run started: {prompt}"),
        Event::RunFinished => "run finished".to_string(),
        Event::MemberSpawned { name, role, .. } => format!("{name} spawned as {role}"),
        Event::MemberStatusChanged { name, from, to } => format!("{name}: {from} -> {to}"),
        Event::MessageSent { message } => match &message.request_id {
            Some(id) => format!("{} -> {}: {} [{id}]", message.from, message.to, message.msg_type),
            None => format!("{} -> {}: {}", message.from, message.to, message.msg_type),
        },
        Event::InboxDrained { agent, message_ids } => format!("{agent} read {} message(s)", message_ids.len()),
        Event::RequestCreated { request_id, request_kind, .. } => format!("{request_kind} request {request_id}: pending"),
        Event::RequestTransitioned { request_id, from, to, by, .. } => format!("request {request_id}: {from} -> {to} (by {by})"),
        Event::ModelCalled { agent } => format!("{agent} calls its model"),
        Event::ModelReplied { agent, stop_reason, .. } => format!("{agent}'s model replied ({stop_reason})"),
        Event::ModelFailed { agent, error } => format!("{agent}'s model failed: {error}"),
        Event::ToolCalled { agent, tool, .. } => format!("{agent} runs {tool}"),
        Event::ToolReturned { agent, tool, is_error, .. } => format!("{agent}: {tool} {}", if *is_error { "failed" } else { "done" }),
    };
    format!("#{} {} {what}", entry.seq, entry.time)
}
