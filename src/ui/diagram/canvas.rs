//! The sequence diagram component: draws the primitives of `geometry` for
//! the run's layout at the cursor and the checker's findings as SVG
//! elements, only the rows on screen, and lets the user pick a request.
//!
//! Owns drawing, scrolling, zoom (steps and fit-to-width) and selection
//! highlights. In presenter mode (`state::presenter`) it fits the diagram
//! to the pane at a scale `view::diagram::presenter` keeps readable from
//! across a room (on a phone: the everyday one), and zooming out stops
//! there. Where things go comes from
//! `diagram` and `geometry`, the same primitives the SVG export
//! serialises; this module must not place anything itself. Two
//! exceptions, neither part of the run: the streaming preview of a model's
//! reply, and the sticky row of lifeline heads, which redraws the
//! geometry's heads moved to the top of the viewport. Selection and cursor
//! live in the session. "Messages as a table" swaps the drawing for its
//! text alternative (`ui::panels::machinery::MessageTable`).
//!
//! What was said under an arrow (a plan, feedback, a reason) is cut to the
//! arrow's length; the cut words are a button (tap, click, Enter or Space)
//! that opens the whole text in a card over the diagram (`SaidCard`), so
//! it is readable in full without hovering.
//!
//! Moving messages: `motion` says where each message is as of the cursor
//! (inboxes, held messages) and what moved at the step that reached it,
//! from the previous cursor; this view draws those places in a layer of
//! their own and hands each movement's path to the stylesheet as custom
//! properties, which animates it for `--motion-ms` (from the Speed
//! setting) — and only fades it under `prefers-reduced-motion`. Only what
//! changed at the step is redrawn.

use leptos::ev;
use leptos::html::Div;
use leptos::prelude::*;

use crate::protocol::RequestId;
use crate::ui::panels::machinery::MessageTable;
use crate::ui::state::presenter::Presenter;
use crate::ui::state::session::Session;
use crate::view::diagram::geometry::{self, Item, ItemKind, Shape};
use crate::view::diagram::layout::{Diagram, PALETTE_SIZE, ROW_HEIGHT};
use crate::view::diagram::motion::{Direction, Movement};
use crate::view::diagram::motion_draw::{self, Mover};
use crate::view::diagram::presenter;
use crate::view::diagram::viewport;

/// How far beyond the viewport rows are still drawn.
const OVERSCAN: f64 = 240.0;
/// The zoom steps of Zoom in and Zoom out (1 = one SVG unit per CSS pixel).
pub const ZOOM_STEPS: [f64; 8] = [0.5, 0.67, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0];
/// Fit-to-width never goes beyond these scales.
const FIT_RANGE: (f64, f64) = (0.3, 3.0);
/// Height of the sticky row of lifeline heads, in SVG units: the lead's
/// head (at y 8, 28 tall) with the same margin below.
const HEAD_ROW: f64 = 44.0;
/// How long a step's movement takes at 1x, in milliseconds (a little less
/// than Play's 400 ms per event, so one ends before the next begins).
const MOTION_MS: f64 = 360.0;

/// How long a step's movement takes at `speed` (the Speed setting).
pub fn motion_ms(speed: f64) -> f64 {
    (MOTION_MS / speed.max(0.25)).clamp(80.0, 1440.0)
}

/// The next zoom step after `scale`, up (`dir` > 0) or down; `None` past the last.
pub fn zoom_step(scale: f64, dir: i32) -> Option<f64> {
    if dir > 0 {
        ZOOM_STEPS.into_iter().find(|z| *z > scale + 1e-6)
    } else {
        ZOOM_STEPS.into_iter().rev().find(|z| *z < scale - 1e-6)
    }
}

/// The starting zoom: one step up on a large screen and two on a projector,
/// as the stylesheet enlarges the page's text there (at 2200 and 3000 px).
fn default_zoom() -> f64 {
    let width = window().inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(0.0);
    if width >= 3000.0 {
        1.5
    } else if width >= 2200.0 {
        1.25
    } else {
        1.0
    }
}

/// What was said under one arrow, opened whole (`SaidCard`).
#[derive(Debug, Clone, PartialEq)]
struct SaidOpen {
    /// The arrow's event.
    seq: Option<u64>,
    /// Its request.
    request: Option<RequestId>,
    /// `plan`, `feedback` or `reason`.
    field: String,
    /// The whole text.
    text: String,
}

/// The diagram, in a scrolling viewport.
#[component]
pub fn DiagramView() -> impl IntoView {
    let s = expect_context::<Session>();
    let said = RwSignal::new(None::<SaidOpen>);
    let scroll_top = RwSignal::new(0.0_f64);
    let viewport = RwSignal::new(720.0_f64);
    let scroller = NodeRef::<Div>::new();
    // Zoom: a step, or fit the diagram to the pane's width (kept fitted as
    // the pane and the diagram change).
    let zoom = RwSignal::new(default_zoom());
    let fit = RwSignal::new(false);
    let pane_width = RwSignal::new(800.0_f64);
    let resize = window_event_listener(ev::resize, move |_| {
        if let Some(el) = scroller.get_untracked() {
            pane_width.set(el.client_width() as f64);
            viewport.set((el.client_height() as f64).max(200.0));
        }
    });
    on_cleanup(move || resize.remove());
    // The diagram as of the cursor, materialised only for the rows on
    // screen (plus overscan): the run's layout is built once, as events
    // arrive, so a step costs the window, not the run's length.
    // The scale needs the diagram's width, which does not depend on the
    // window: read it from the full layout's columns.
    let full_width = Memo::new(move |_| {
        let cursor = s.playback.cursor.get();
        s.run.views.with(|v| v.layout().width_at(cursor).max(600.0))
    });
    // Presenter mode (none when the canvas is mounted without the page):
    // fitted to the pane as it enters, at a readable scale, and the
    // everyday zoom back as it leaves.
    let presenting = use_context::<Presenter>();
    let presenting = move || presenting.is_some_and(|p| p.on());
    let everyday = StoredValue::new(None::<(f64, bool)>);
    Effect::new(move |was: Option<bool>| {
        let on = presenting();
        if was.is_some_and(|w| w != on) {
            if on {
                everyday.set_value(Some((zoom.get_untracked(), fit.get_untracked())));
                fit.set(true);
            } else if let Some((z, f)) = everyday.get_value() {
                zoom.set(z);
                fit.set(f);
            }
            // The pane changes size with the page's layout (no resize event).
            request_animation_frame(move || {
                if let Some(el) = scroller.try_get_untracked().flatten() {
                    pane_width.set(el.client_width() as f64);
                    viewport.set((el.client_height() as f64).max(200.0));
                }
            });
        }
        on
    });
    let scale = Memo::new(move |_| {
        if presenting() {
            presenter::scale(pane_width.get(), viewport.get(), full_width.get(), fit.get(), zoom.get())
        } else if fit.get() {
            (pane_width.get() / full_width.get()).clamp(FIT_RANGE.0, FIT_RANGE.1)
        } else {
            zoom.get()
        }
    });
    // The next zoom step, never below a readable one in presenter mode.
    let step = move |dir: i32| zoom_step(scale.get(), dir).filter(|z| !presenting() || presenter::allows(*z, pane_width.get()));
    // The rows on screen, in SVG units.
    let window = move || {
        let k = scale.get();
        (scroll_top.get() / k - OVERSCAN, (scroll_top.get() + viewport.get()) / k + OVERSCAN)
    };
    // Where messages are as of the cursor and what moved at the step that
    // reached it (`motion`): the previous cursor gives the direction.
    let previous = StoredValue::new(None::<usize>);
    let motion = Memo::new(move |_| {
        let shown = s.shown();
        let from = previous.get_value();
        previous.set_value(Some(shown));
        s.run.views.with(|v| v.layout().flights().at(shown, from))
    });
    let diagram = Memo::new(move |_| {
        let window = window();
        let cursor = s.playback.cursor.get();
        let mut d = s.run.trace.with(|t| s.run.views.with(|v| v.diagram(t.entries(), cursor, Some(window))));
        motion.with(|m| motion_draw::make_room(&mut d, m));
        d
    });
    // Where the cursor's row is (and what it spans sideways) and how tall
    // the diagram is: scrolling follows these, not the windowed diagram
    // (which follows scrolling).
    let extent = Memo::new(move |_| {
        let cursor = s.playback.cursor.get();
        s.run.views.with(|v| {
            let layout = v.layout();
            let at = cursor.and_then(|c| c.checked_sub(1)).map(|c| c as u64);
            (layout.height_at(cursor), cursor.map(|c| layout.y_of(c.saturating_sub(1) as u64)), at.and_then(|seq| layout.span_of(seq)))
        })
    });
    // The invariant checker's findings (kept up to date as events arrive),
    // marked on their events' rows.
    // Plus the event marked by what opened the run (where an explored run
    // breaks its property), once the cursor has reached it.
    let l = crate::ui::browser::lang::lang();
    let marks = Memo::new(move |_| {
        let cat = l.cat();
        let shown = s.shown();
        let marked = s.playback.marked.get();
        s.run.views.with(|v| {
            // A request left pending when a run finished may be answered
            // by a later one: its mark then says what the tracker holds.
            let pending = v.violations().iter().any(|f| f.kind == crate::protocol::ViolationKind::LeftPending && f.seq < shown as u64);
            let state = pending.then(|| s.run.trace.with(|t| v.state_at(t.entries(), Some(shown)).ok())).flatten();
            let tracker = state.as_ref().map(|st| &st.tracker);
            let mut marks = geometry::marks(cat, v.violations(), shown, tracker, |seq| v.layout().y_of(seq));
            if let Some((seq, label)) = marked.filter(|(seq, _)| *seq < shown as u64) {
                let width = v.layout().width_at(None);
                marks.push(geometry::finding_mark(seq, &label, v.layout().y_of(seq), width));
                marks.sort_by(|a, b| a.top.total_cmp(&b.top));
            }
            marks
        })
    });

    let drawing = Memo::new(move |_| {
        motion.with(|m| diagram.with(|d| s.run.views.with(|v| motion_draw::draw(l.cat(), m, d, |seq| v.layout().y_of(seq)))))
    });

    // Follow the latest event, or keep the cursor's row in view, and
    // sideways both ends of its arrow (`viewport`: a phone shows two
    // lifelines at a time). The scroll waits for the next frame, when the
    // SVG has its new size: scrolling earlier would be clamped to the old one.
    Effect::new(move |_| {
        let (diagram_height, cursor_y, span) = extent.get();
        let k = scale.get();
        let follow = s.playback.cursor.get().is_none();
        let Some(el) = scroller.get() else { return };
        request_animation_frame(move || {
            let height = el.client_height() as f64;
            viewport.set(height.max(200.0));
            pane_width.set(el.client_width() as f64);
            let target = match cursor_y {
                None => diagram_height * k - height,
                Some(y) => y * k - height / 2.0,
            };
            let top = el.scroll_top() as f64;
            let row = target + height / 2.0;
            if follow || row < top || row > top + height {
                el.set_scroll_top(target.max(0.0) as i32);
                scroll_top.set(el.scroll_top() as f64);
            }
            if let Some(span) = span.filter(|_| !follow) {
                let left = el.scroll_left() as f64;
                let to = viewport::reveal_left(left, el.client_width() as f64, k, span);
                if (to - left).abs() >= 1.0 {
                    el.set_scroll_left(to.round() as i32);
                }
            }
        });
    });

    let label = move || {
        diagram.with(|d| {
            crate::view::i18n::tr!(
                l.cat(),
                "ui-diagram-label",
                agents = d.columns.len(),
                messages = d.messages,
                requests = d.requests,
                shown = s.shown(),
                len = s.run.trace.with(|t| t.len())
            )
        })
    };
    let zoom_by = move |dir: i32| {
        if let Some(z) = untrack(move || step(dir)) {
            fit.set(false);
            zoom.set(z);
        }
    };
    let width = move || full_width.get() * scale.get();
    // The diagram's text alternative (`MessageTable`) in its place while
    // pressed; back to the diagram, the viewport is measured again (it
    // had no size while hidden).
    let table = RwSignal::new(false);
    let toggle_table = move |_| {
        table.update(|t| *t = !*t);
        if !table.get_untracked() {
            request_animation_frame(move || {
                // Not after the page is gone (a frame can come after).
                if let Some(el) = scroller.try_get_untracked().flatten() {
                    viewport.set((el.client_height() as f64).max(200.0));
                    pane_width.set(el.client_width() as f64);
                    scroll_top.set(el.scroll_top() as f64);
                }
            });
        }
    };
    // Heads whose own head has scrolled above the viewport (the lead's
    // always: at the top it covers its own head exactly); of a teammate
    // spawned again, the head of the incarnation whose lifeline runs there.
    // What each agent spent as of the cursor, beside its head (`geometry::
    // head_cost`): drawn with the heads, so the sticky ones carry it too.
    let head_costs = Memo::new(move |_| {
        let cat = l.cat();
        let price = s
            .run
            .snapshot
            .with(|snap| crate::view::cost::run_model(snap.as_ref()))
            .and_then(|m| s.settings.prices.with(|t| t.price_of(&m).cloned()));
        let cursor = s.playback.cursor.get();
        let spend = s.run.views.with(|v| s.run.trace.with(|t| v.spend_at(t.entries(), cursor)));
        diagram.with(|d| {
            d.columns
                .iter()
                .filter_map(|c| {
                    spend.agents.get(&c.name).and_then(|sp| geometry::head_cost(cat, c, sp, price.as_ref())).map(|it| (c.name.clone(), it))
                })
                .collect::<Vec<_>>()
        })
    });
    // Each sticky head with its cost, keyed by what they draw: a step (or a
    // scroll) redraws only the heads it changed (a status, a cost), not
    // every head of a 50-teammate run.
    let sticky_heads = move || {
        let top = scroll_top.get() / scale.get();
        head_costs.with(|costs| {
            diagram.with(|d| {
                d.columns
                    .iter()
                    .filter_map(|c| geometry::sticky_head(l.cat(), c, top).map(|it| (c, it)))
                    .map(|(c, it)| {
                        let cost = costs.iter().find(|(name, _)| *name == c.name).map(|(_, cost)| cost.clone());
                        (format!("{:016x}{:?}", it.fingerprint(), cost.as_ref().map(Item::fingerprint)), it, cost)
                    })
                    .collect::<Vec<_>>()
            })
        })
    };
    let sticky_head_view = |(_, it, cost): (String, Item, Option<Item>)| {
        let shapes: Vec<AnyView> =
            it.shapes.iter().filter(|sh| matches!(sh, Shape::Rect { .. } | Shape::Text { .. })).map(shape_view).collect();
        let cost = cost.map(|cost| {
            let texts: Vec<AnyView> = cost.shapes.iter().map(shape_view).collect();
            view! { <g class=cost.class.clone() transform=format!("translate(0 {})", 8.0 - cost.top)>{texts}</g> }
        });
        view! { <g class=it.class.clone() transform=format!("translate(0 {})", 8.0 - it.top)>{shapes}</g>{cost} }
    };

    // The boxes of words drawn cut on screen (what was said under an arrow,
    // a plain message's text, a tool note's call), keyed by what
    // they are, so a step or a scroll keeps the buttons that stay (and the
    // focus on one).
    let said_targets = move || {
        let cat = l.cat();
        let k = scale.get();
        let (top, bottom) = window();
        diagram.with(|d| {
            d.rows_between(top, bottom)
                .iter()
                .map(|r| geometry::row(cat, r))
                .filter_map(|it| geometry::said_target(&it).map(|t| (it, t)))
                .map(|(it, t)| {
                    let style = format!(
                        "left: {:.1}px; top: {:.1}px; width: {:.1}px; height: {:.1}px",
                        t.x * k,
                        t.y * k,
                        t.width * k,
                        t.height * k
                    );
                    let name = crate::view::i18n::tr!(cat, "ui-said-open", said = t.whole.clone());
                    (format!("{:?}{style}{name}", it.seq), it.seq, it.request, t.whole, style, name)
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="diagram-tools" role="group" aria-label=move || l.t("ui-zoom-group")>
            <button aria-label=move || l.t("ui-zoom-out") title=move || l.t("ui-zoom-out") disabled=move || step(-1).is_none() on:click=move |_| zoom_by(-1)>"−"</button>
            <span class="zoom-level" aria-live="polite">{move || format!("{:.0} %", scale.get() * 100.0)}</span>
            <button aria-label=move || l.t("ui-zoom-in") title=move || l.t("ui-zoom-in") disabled=move || step(1).is_none() on:click=move |_| zoom_by(1)>"+"</button>
            <button aria-pressed=move || fit.get().to_string() on:click=move |_| fit.update(|f| *f = !*f)>{move || l.t("ui-fit")}</button>
            <button class="table-toggle" aria-pressed=move || table.get().to_string() on:click=toggle_table>{move || l.t("ui-table-toggle")}</button>
        </div>
        <Show when=move || table.get()>
            <MessageTable/>
        </Show>
        <SaidCard said=said/>
        <div
            class="diagram-scroll"
            id="diagram"
            hidden=move || table.get()
            tabindex="0"
            role="region"
            aria-label=move || l.t("ui-diagram-region")
            node_ref=scroller
            on:scroll=move |_| {
                if let Some(el) = scroller.get() {
                    scroll_top.set(el.scroll_top() as f64);
                    viewport.set((el.client_height() as f64).max(200.0));
                }
            }
        >
            <div class="diagram-heads" aria-hidden="true" style=move || format!("width: {:.1}px; height: {:.1}px", width(), HEAD_ROW * scale.get())>
                <svg class="diagram-heads-svg" width=width height=move || HEAD_ROW * scale.get() viewBox=move || format!("0 0 {} {HEAD_ROW}", full_width.get())>
                    <For each=sticky_heads key=|(key, _, _)| key.clone() children=sticky_head_view/>
                </svg>
            </div>
            <svg
                class="diagram"
                role="img"
                aria-label=label
                style=move || format!("margin-top: -{:.1}px; --motion-ms: {:.0}ms", HEAD_ROW * scale.get(), motion_ms(s.playback.speed.get()))
                width=width
                height=move || diagram.with(|d| d.height) * scale.get()
                viewBox=move || format!("0 0 {} {}", full_width.get(), diagram.with(|d| d.height))
            >
                <defs>
                    // Heads in user units: a picked (thicker) arrow keeps the
                    // same head, clear of the label beside it.
                    {(0..PALETTE_SIZE)
                        .map(|i| {
                            view! {
                                <marker id=format!("arrow-{i}") class=format!("c{i}") viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="13" markerHeight="13" orient="auto-start-reverse">
                                    <path d="M 0 0 L 10 5 L 0 10 z"></path>
                                </marker>
                            }
                        })
                        .collect_view()}
                    <marker id="arrow-plain" class="plain" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="13" markerHeight="13" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z"></path>
                    </marker>
                </defs>
                // Lifelines and activation bars span many rows: drawn whole
                // (a lifeline by incarnation, those on screen). Keyed by
                // what they draw: a step redraws only what changed.
                <For
                    each=move || diagram.with(|d| {
                        let cat = l.cat();
                        let ended = motion.with(|m| match m.step.as_ref().map(|st| (&st.movement, st.direction)) {
                            Some((Movement::ShutDown { agent }, Direction::Forward)) => Some((agent.clone(), " ending")),
                            Some((Movement::ShutDown { agent }, Direction::Back)) => Some((agent.clone(), " reviving")),
                            _ => None,
                        });
                        // Of a teammate spawned again, only the incarnations on
                        // screen; a shutdown's motion marks the last one's ×.
                        let window = window();
                        let lifelines = d.columns.iter().flat_map(|c| {
                            let extra = ended.as_ref().filter(|(agent, _)| *agent == c.name).map_or("", |(_, class)| class);
                            let latest = c.restarts.len();
                            geometry::lifeline_parts(cat, c, d.height, Some(window))
                                .into_iter()
                                .map(move |(i, it)| (it, if i == latest { extra.to_string() } else { String::new() }))
                        });
                        // What each call and each agent cost, as of the cursor.
                        let price = s.run.snapshot.with(|snap| crate::view::cost::run_model(snap.as_ref()))
                            .and_then(|m| s.settings.prices.with(|t| t.price_of(&m).cloned()));
                        let costs = head_costs.get().into_iter().map(|(_, it)| (it, String::new())).collect::<Vec<_>>();
                        let bars = d.activations.iter().map(|a| (geometry::activation_with_cost(cat, a, price.as_ref()), String::new()));
                        keyed(lifelines.chain(costs).chain(bars))
                    })
                    key=|(key, _, _)| key.clone()
                    children=move |(_, it, extra)| item_view(&it, extra, s)
                />
                // Rows, violation marks and badges: only those on screen are
                // turned into primitives and drawn, keyed by what they draw.
                <For
                    each=move || {
                        let cat = l.cat();
                        let (top, bottom) = window();
                        let selected = s.playback.selected.get();
                        let turned = motion.with(|m| match m.step.as_ref().map(|st| (&st.movement, st.direction)) {
                            Some((Movement::Badge { request_id }, direction)) => Some((request_id.clone(), direction)),
                            _ => None,
                        });
                        diagram.with(|d| {
                            let rows = d.rows_between(top, bottom).iter().map(|r| geometry::row(cat, r));
                            let badges = d.badges.iter().filter(|b| b.y + ROW_HEIGHT >= top && b.y <= bottom).map(geometry::badge);
                            let items: Vec<Item> = rows.chain(marks.with(|m| geometry::visible(m, top, bottom).to_vec())).chain(badges).collect();
                            keyed(items.into_iter().map(|it| {
                                let extra = highlight(&it, selected.as_ref(), turned.as_ref());
                                (it, extra)
                            }))
                        })
                    }
                    key=|(key, _, _)| key.clone()
                    children=move |(_, it, extra)| item_view(&it, extra, s)
                />
                // Inboxes, held messages and the envelope moving at this
                // step (`motion`): a few elements, redrawn only as they change.
                <g class="motion">
                    <For
                        each=move || drawing.with(|dr| keyed(dr.items.iter().map(|it| (it.clone(), String::new()))))
                        key=|(key, _, _)| key.clone()
                        children=move |(_, it, extra)| item_view(&it, extra, s)
                    />
                    <For
                        each=move || drawing.with(|dr| dr.movers.clone())
                        key=|m| format!("{}{:?}", m.key, m.path)
                        children=mover_view
                    />
                </g>
                {move || streaming_notes(s, &diagram.get())}
            </svg>
            // Over the cut words of what was said under each arrow on
            // screen, a button that opens them whole (`SaidCard`): outside
            // the drawing, which is one image to assistive technology.
            <div class="said-layer">
                <For
                    each=said_targets
                    key=|t| t.0.clone()
                    children=move |(_, seq, request, whole, style, name)| {
                        view! {
                            <button class="said-open" style=style aria-label=name aria-haspopup="dialog" data-seq=seq.map(|q| q.to_string())
                                on:click=move |_| {
                                    // A tool note or a plain message belongs to no request: the one picked stays.
                                    if request.is_some() {
                                        s.playback.selected.set(request.clone());
                                    }
                                    open_said(said, seq, request.clone(), &whole);
                                }></button>
                        }
                    }
                />
            </div>
        </div>
    }
}

/// Items with a key that changes whenever anything they draw changes (the
/// item's fingerprint and the classes the view adds), so a keyed list
/// keeps every element that is still drawn the same and rebuilds the rest.
fn keyed(items: impl Iterator<Item = (Item, String)>) -> Vec<(String, Item, String)> {
    items.map(|(it, extra)| (format!("{:016x}{extra}", it.fingerprint()), it, extra)).collect()
}

/// Classes the live view adds to an item: the selected request's arrows and
/// badge stand out (other arrows dim), and the badge whose request changed
/// state at this step turns (`turn`, and `back` when the step undid it).
fn highlight(it: &Item, selected: Option<&RequestId>, turned: Option<&(RequestId, Direction)>) -> String {
    let mine = selected.is_some() && it.request.as_ref() == selected;
    match it.kind {
        ItemKind::Message if mine => " hl".into(),
        ItemKind::Message if selected.is_some() => " dim".into(),
        ItemKind::Badge => {
            let turn = match turned {
                Some((id, Direction::Forward)) if it.request.as_ref() == Some(id) => " turn",
                Some((id, Direction::Back)) if it.request.as_ref() == Some(id) => " turn back",
                _ => "",
            };
            format!("{turn}{}", if mine { " hl" } else { "" })
        }
        _ => String::new(),
    }
}

/// An envelope moving at this step: its path's three points as CSS custom
/// properties, which the stylesheet's keyframes move it through (or, with
/// reduced motion, fade it in and out at the last one).
fn mover_view(m: Mover) -> impl IntoView {
    let [(x0, y0), (x1, y1), (x2, y2)] = m.path;
    let style = format!("--x0: {x0:.1}px; --y0: {y0:.1}px; --x1: {x1:.1}px; --y1: {y1:.1}px; --x2: {x2:.1}px; --y2: {y2:.1}px");
    view! {
        <g class=m.class aria-hidden="true" style=style>
            {m.shapes.iter().map(shape_view).collect_view()}
        </g>
    }
}

/// The whole of what was said under an arrow, opened from its cut words:
/// a non-modal dialog between the zoom tools and the diagram, focused when
/// it opens; Close or Escape closes it and focus goes back to the diagram.
#[component]
fn SaidCard(said: RwSignal<Option<SaidOpen>>) -> impl IntoView {
    let l = crate::ui::browser::lang::lang();
    let close = move || {
        said.set(None);
        if let Some(el) = document().get_element_by_id("diagram") {
            let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
        }
    };
    let on_key = move |ev: ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            ev.stop_propagation();
            close();
        }
    };
    view! {
        {move || said.get().map(|open| {
            let title = match (&open.request, open.seq) {
                (Some(id), Some(seq)) => crate::view::i18n::tr!(l.cat(), "ui-said-title", field = open.field.clone(), id = id.to_string(), step = seq + 1),
                _ => open.field.clone(),
            };
            view! {
                <section id="said-card" class="said-card" role="dialog" aria-labelledby="said-card-title" tabindex="-1" on:keydown=on_key>
                    <h2 id="said-card-title" class="said-card-title">{title}</h2>
                    <p class="said-card-text">{open.text.clone()}</p>
                    <button class="said-card-close" on:click=move |_| close()>{move || l.t("ui-close")}</button>
                </section>
            }
        })}
    }
}

/// Opens what was said, `full` (`field: text`, the arrow's tooltip), whole.
fn open_said(said: RwSignal<Option<SaidOpen>>, seq: Option<u64>, request: Option<RequestId>, full: &str) {
    let (field, text) = full.split_once(": ").unwrap_or(("", full));
    said.set(Some(SaidOpen { seq, request, field: field.to_string(), text: text.to_string() }));
    request_animation_frame(|| {
        if let Some(el) = document().get_element_by_id("said-card") {
            let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
        }
    });
}

/// One item as a `<g>` with its classes (plus `extra`), event number,
/// request and accessible name; clicking an item of a request selects it.
fn item_view(it: &Item, extra: String, s: Session) -> AnyView {
    let request = it.request.clone();
    let shapes = it.shapes.iter().map(shape_view).collect_view();
    view! {
        <g
            class=format!("{}{extra}", it.class)
            data-seq=it.seq.map(|q| q.to_string())
            data-request=it.request.as_ref().map(|r| r.to_string())
            role=it.role
            aria-label=it.label.clone()
            on:click=move |_| {
                if let Some(id) = request.clone() {
                    s.playback.selected.set(Some(id));
                }
            }
        >
            {shapes}
        </g>
    }
    .into_any()
}

/// One primitive as an SVG element. The match has no wildcard arm: every
/// `Shape` kind is drawn (the export's `svg::shape` matches the same way).
#[deny(clippy::wildcard_enum_match_arm)]
pub(crate) fn shape_view(shape: &Shape) -> AnyView {
    match shape {
        Shape::Line { x1, y1, x2, y2, class, head } => {
            let marker = head.map(|h| format!("url(#{})", h.marker_id()));
            view! { <line class=*class x1=*x1 y1=*y1 x2=*x2 y2=*y2 marker-end=marker></line> }.into_any()
        }
        Shape::Cross { x, y, half, class, label } => view! {
            <g class=*class role="img" aria-label=label.clone()>
                <line x1=x - half y1=y - half x2=x + half y2=y + half></line>
                <line x1=x + half y1=y - half x2=x - half y2=y + half></line>
            </g>
        }
        .into_any(),
        Shape::Text { x, y, text, class } => view! { <text class=*class x=*x y=*y>{text.clone()}</text> }.into_any(),
        Shape::Rect { x, y, width, height, rx, class } => {
            view! { <rect class=*class x=*x y=*y width=*width height=*height rx=*rx></rect> }.into_any()
        }
        Shape::Tooltip(text) => view! { <title>{text.clone()}</title> }.into_any(),
    }
}

/// The live preview of each model's reply while it streams (not part of
/// the run, so not in the geometry or the export).
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
            // Right of the inbox and its count, which sit in the same row.
            view! { <text class="streaming" x=x + 44.0 y=d.now_y + ROW_HEIGHT - 6.0>{format!("… {shown}")}</text> }
        })
        .collect::<Vec<_>>()
}
