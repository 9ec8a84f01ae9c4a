//! The sequence diagram component: draws `diagram::layout(trace, cursor)` as
//! SVG, only the rows on screen, and lets the user pick a request.
//!
//! Owns drawing and scrolling. The geometry comes from `diagram`; selection
//! and cursor live in the session.

use std::collections::BTreeMap;

use leptos::html::Div;
use leptos::prelude::*;

use super::diagram::{Badge, Diagram, Row, RowKind, ROW_HEIGHT};
use super::session::Session;
use crate::protocol::{MessageType, RequestId};

/// How far beyond the viewport rows are still drawn.
const OVERSCAN: f64 = 240.0;

/// The diagram, in a scrolling viewport.
#[component]
pub fn DiagramView() -> impl IntoView {
    let s = expect_context::<Session>();
    let scroll_top = RwSignal::new(0.0_f64);
    let viewport = RwSignal::new(720.0_f64);
    let scroller = NodeRef::<Div>::new();
    // The diagram as of the cursor, materialised only for the rows on
    // screen (plus overscan): the run's layout is built once, as events
    // arrive, so a step costs the window, not the run's length.
    let diagram = Memo::new(move |_| {
        let window = (scroll_top.get() - OVERSCAN, scroll_top.get() + viewport.get() + OVERSCAN);
        s.run.views.with(|v| v.diagram(s.playback.cursor.get(), Some(window)))
    });
    // Where the cursor's row is and how tall the diagram is: scrolling
    // follows these, not the windowed diagram (which follows scrolling).
    let extent = Memo::new(move |_| {
        let cursor = s.playback.cursor.get();
        s.run.views.with(|v| {
            let layout = v.layout();
            (layout.height_at(cursor), cursor.map(|c| layout.y_of(c.saturating_sub(1) as u64)))
        })
    });
    // Events the invariant checker flags, marked on their rows.
    let flagged = Memo::new(move |_| {
        s.run.views.with(|v| v.violations().iter().map(|v| (v.seq, v.kind.to_string())).collect::<BTreeMap<u64, String>>())
    });

    // Follow the latest event, or keep the cursor's row in view. The
    // scroll waits for the next frame, when the SVG has its new height:
    // scrolling earlier would be clamped to the old one.
    Effect::new(move |_| {
        let (diagram_height, cursor_y) = extent.get();
        let follow = s.playback.cursor.get().is_none();
        let Some(el) = scroller.get() else { return };
        request_animation_frame(move || {
            let height = el.client_height() as f64;
            viewport.set(height.max(200.0));
            let target = match cursor_y {
                None => diagram_height - height,
                Some(y) => y - height / 2.0,
            };
            let top = el.scroll_top() as f64;
            let row = target + height / 2.0;
            if follow || row < top || row > top + height {
                el.set_scroll_top(target.max(0.0) as i32);
                scroll_top.set(el.scroll_top() as f64);
            }
        });
    });

    let label = move || {
        diagram.with(|d| {
            format!(
                "Sequence diagram: {} agents, {} messages, {} requests; showing {} of {} events",
                d.columns.len(),
                d.messages,
                d.requests,
                s.shown(),
                s.run.trace.with(|t| t.len())
            )
        })
    };

    view! {
        <div
            class="diagram-scroll"
            node_ref=scroller
            on:scroll=move |_| {
                if let Some(el) = scroller.get() {
                    scroll_top.set(el.scroll_top() as f64);
                    viewport.set((el.client_height() as f64).max(200.0));
                }
            }
        >
            <svg
                class="diagram"
                role="img"
                aria-label=label
                width=move || diagram.with(|d| d.width.max(600.0))
                height=move || diagram.with(|d| d.height)
            >
                <defs>
                    {(0..super::diagram::PALETTE_SIZE)
                        .map(|i| {
                            view! {
                                <marker id=format!("arrow-{i}") class=format!("c{i}") viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                                    <path d="M 0 0 L 10 5 L 0 10 z"></path>
                                </marker>
                            }
                        })
                        .collect_view()}
                    <marker id="arrow-plain" class="plain" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z"></path>
                    </marker>
                </defs>
                {move || diagram.with(|d| lifelines(d))}
                {move || diagram.with(|d| {
                    d.activations
                        .iter()
                        .map(|a| {
                            let class = if a.open { "activation open" } else { "activation" };
                            view! { <rect class=class x=a.x - 5.0 y=a.y0 + 4.0 width="10" height=(a.y1 - a.y0).max(8.0)></rect> }
                        })
                        .collect_view()
                })}
                {move || {
                    let (top, bottom) = (scroll_top.get() - OVERSCAN, scroll_top.get() + viewport.get() + OVERSCAN);
                    let selected = s.playback.selected.get();
                    let flagged = flagged.get();
                    diagram.with(|d| {
                        d.rows_between(top, bottom)
                            .iter()
                            .map(|r| {
                                let mark = flagged.get(&r.seq).map(|kind| view! {
                                    <g class="violation-mark" role="note" aria-label=format!("violation: {kind}")>
                                        <title>{format!("Protocol violation: {kind}")}</title>
                                        <text x="4" y=r.y + ROW_HEIGHT / 2.0 + 4.0>"⚠"</text>
                                    </g>
                                });
                                view! { {mark} {row_view(r, selected.as_ref(), s)} }
                            })
                            .collect_view()
                    })
                }}
                {move || {
                    let (top, bottom) = (scroll_top.get() - OVERSCAN, scroll_top.get() + viewport.get() + OVERSCAN);
                    let selected = s.playback.selected.get();
                    let last = s.shown() as u64;
                    diagram.with(|d| {
                        d.badges
                            .iter()
                            .filter(|b| b.y >= top && b.y <= bottom)
                            .map(|b| badge_view(b, selected.as_ref(), last, s))
                            .collect_view()
                    })
                }}
                {move || streaming_notes(s, &diagram.get())}
            </svg>
        </div>
    }
}

fn lifelines(d: &Diagram) -> impl IntoView {
    let bottom = d.height;
    d.columns
        .iter()
        .map(|c| {
            let end = c.ended_y.unwrap_or(bottom);
            let status = c.status.map(|s| s.as_str()).unwrap_or("lead");
            let head_y = if c.name.is_lead() {
                8.0
            } else {
                c.born_y + 1.0
            };
            let crossed = c.ended_y.map(|y| {
                view! {
                    <g class="cross" aria-label=format!("{} shut down", c.name)>
                        <line x1=c.x - 9.0 y1=y - 9.0 x2=c.x + 9.0 y2=y + 9.0></line>
                        <line x1=c.x + 9.0 y1=y - 9.0 x2=c.x - 9.0 y2=y + 9.0></line>
                    </g>
                }
            });
            view! {
                <g class=format!("lifeline status-{status}")>
                    <line class="life" x1=c.x y1=head_y + 28.0 x2=c.x y2=end></line>
                    <rect class="head" x=c.x - 60.0 y=head_y width="120" height="28" rx="6"></rect>
                    <text class="head-name" x=c.x y=head_y + 14.0>{c.name.to_string()}</text>
                    <text class="head-status" x=c.x y=head_y + 25.0>{status}</text>
                    {crossed}
                </g>
            }
        })
        .collect_view()
}

fn marker(color: Option<usize>) -> String {
    match color {
        Some(c) => format!("url(#arrow-{c})"),
        None => "url(#arrow-plain)".to_string(),
    }
}

fn row_view(r: &Row, selected: Option<&RequestId>, s: Session) -> AnyView {
    let y = r.y + ROW_HEIGHT / 2.0;
    let seq = r.seq;
    match &r.kind {
        RowKind::RunStarted { prompt } => view! {
            <g class="banner run-start"><text x="22" y=y>{format!("▶ {prompt}")}</text></g>
        }
        .into_any(),
        RowKind::RunFinished => {
            view! { <g class="banner run-end"><text x="22" y=y>"■ run finished"</text></g> }
                .into_any()
        }
        RowKind::Spawn { name, from_x, to_x } => view! {
            <g class="spawn">
                <line x1=*from_x y1=y x2=*to_x - 62.0 y2=y marker-end="url(#arrow-plain)"></line>
                <text x=(from_x + to_x) / 2.0 y=y - 4.0>{format!("spawn {name}")}</text>
            </g>
        }
        .into_any(),
        RowKind::Message {
            from_x,
            to_x,
            label,
            msg_type,
            request_id,
            color,
            delivered,
            fault,
        } => {
            let class = format!(
                "msg {} {} {} {} {}",
                color
                    .map(|c| format!("c{c}"))
                    .unwrap_or_else(|| "plain".into()),
                if *delivered { "delivered" } else { "in-flight" },
                if matches!(msg_type, MessageType::Message | MessageType::Broadcast) {
                    "text"
                } else {
                    "protocol"
                },
                match (selected, request_id) {
                    (Some(sel), Some(id)) if sel == id => "hl",
                    (Some(_), _) => "dim",
                    _ => "",
                },
                fault.map(|f| format!("fault-{f}")).unwrap_or_default()
            );
            let label = match fault {
                Some(f) => format!("{label} ({f})"),
                None => label.clone(),
            };
            let dropped = *fault == Some("dropped");
            let rid = request_id.clone();
            let (x1, x2) = if (to_x - from_x).abs() < 1.0 {
                (*from_x, from_x + 40.0)
            } else {
                (*from_x, *to_x)
            };
            let dir = if x2 >= x1 { -1.0 } else { 1.0 };
            view! {
                <g class=class data-seq=seq data-request=request_id.as_ref().map(|r| r.to_string())
                    on:click=move |_| { if let Some(id) = rid.clone() { s.playback.selected.set(Some(id)); } }>
                    <line x1=x1 y1=y x2=x2 + dir * 6.0 y2=y marker-end=if dropped { String::new() } else { marker(*color) }></line>
                    <text class="msg-label" x=(x1 + x2) / 2.0 y=y - 5.0>{label}</text>
                    {dropped.then(|| view! {
                        <g class="drop-x" aria-label="dropped">
                            <line x1=x2 + dir * 16.0 y1=y - 7.0 x2=x2 + dir * 2.0 y2=y + 7.0></line>
                            <line x1=x2 + dir * 16.0 y1=y + 7.0 x2=x2 + dir * 2.0 y2=y - 7.0></line>
                        </g>
                    })}
                </g>
            }
            .into_any()
        }
        RowKind::Transition {
            request_id,
            to,
            x,
            color,
        } => {
            let rid = request_id.clone();
            view! {
                <g class=format!("transition c{color} to-{to}") on:click=move |_| s.playback.selected.set(Some(rid.clone()))>
                    <text x=x + 10.0 y=y>{format!("{request_id}: pending → {to}")}</text>
                </g>
            }
            .into_any()
        }
        RowKind::Tool {
            x,
            label,
            ok,
            output,
        } => {
            let state = match ok {
                None => "running",
                Some(true) => "ok",
                Some(false) => "error",
            };
            let title = output.clone().unwrap_or_else(|| "running…".into());
            view! {
                <g class=format!("note tool-{state}")>
                    <title>{title}</title>
                    <rect x=x + 8.0 y=r.y + 4.0 width=label.chars().count() as f64 * 6.6 + 14.0 height=ROW_HEIGHT - 8.0 rx="3"></rect>
                    <text x=x + 15.0 y=y + 4.0>{label.clone()}</text>
                </g>
            }
            .into_any()
        }
        RowKind::Failure { x, error } => view! {
            <g class="note failure" role="alert">
                <text x=x + 10.0 y=y + 4.0>{format!("⚠ {error}")}</text>
            </g>
        }
        .into_any(),
    }
}

fn badge_view(
    b: &Badge,
    selected: Option<&RequestId>,
    last_shown: u64,
    s: Session,
) -> impl IntoView {
    let fresh = b.changed_at + 1 >= last_shown;
    let class = format!(
        "badge fsm c{} badge-{}{}{}",
        b.color,
        b.status,
        if fresh { " flash" } else { "" },
        if selected == Some(&b.request_id) {
            " hl"
        } else {
            ""
        }
    );
    let id = b.request_id.clone();
    let text = b.status.as_str();
    let y = b.y + ROW_HEIGHT / 2.0;
    view! {
        <g class=class data-request=b.request_id.to_string() on:click=move |_| s.playback.selected.set(Some(id.clone()))>
            <rect x=b.x + 12.0 y=y - 9.0 width="74" height="18" rx="9"></rect>
            <text x=b.x + 49.0 y=y + 4.0>{text}</text>
        </g>
    }
}

fn streaming_notes(s: Session, d: &Diagram) -> impl IntoView {
    if s.playback.cursor.get().is_some() {
        return Vec::new();
    }
    let streams = s.run.streaming.get();
    d.columns
        .iter()
        .filter_map(|c| streams.get(&c.name).filter(|t| !t.is_empty()).map(|t| (c.x, t.clone())))
        .map(|(x, text)| {
            let shown: String = text.chars().rev().take(60).collect::<Vec<_>>().into_iter().rev().collect();
            view! { <text class="streaming" x=x + 10.0 y=d.height - 6.0>{format!("… {shown}")}</text> }
        })
        .collect::<Vec<_>>()
}
