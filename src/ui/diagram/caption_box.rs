//! The caption box under the controls: the step the cursor shows, told in
//! the lesson's words (`captions`), announced to screen readers through a
//! polite live region (with a guided tour's stop, when the cursor is on
//! one: `tour::announcement`); and the diagram's legend.
//!
//! Owns this markup only. The words come from `captions` (pure, tested
//! natively); the legend's drawing from `legend::legend` (the SVG export
//! draws the same); cursor and run come from the session.

use leptos::prelude::*;

use crate::ui::browser::lang::lang;
use crate::ui::diagram::canvas::shape_view;
use crate::ui::diagram::more::{Clamp, ClampedText, MoreButton};
use crate::ui::diagram::tour::{self, TourState};
use crate::ui::state::session::Session;
use crate::view::diagram::geometry::Item;
use crate::view::diagram::legend;
use crate::view::i18n::tr;
use crate::view::words::captions;

/// The caption of the step on screen. It follows the cursor in Live, Step,
/// replay and imported traces alike; the state just before the event (from
/// the run's keyframed timeline, never a replay from event 0) lets it tell a
/// restart and a stale answer.
#[component]
pub fn CaptionBox() -> impl IntoView {
    let s = expect_context::<Session>();
    let tour = use_context::<TourState>();
    let l = lang();
    let clamp = Clamp::new("caption-text");
    // The run's model's price, for a model reply's usage.
    let price = Memo::new(move |_| {
        let model = s.run.snapshot.with(|snap| crate::view::cost::run_model(snap.as_ref()));
        model.and_then(|m| s.settings.prices.with(|t| t.price_of(&m).cloned()))
    });
    let caption = Memo::new(move |_| {
        let cat = l.cat();
        let shown = s.shown();
        s.run.trace.with(|t| {
            s.run.views.with(|v| {
                let before = shown.checked_sub(1).and_then(|c| v.state_at(t.entries(), Some(c)).ok());
                price.with(|p| captions::caption_priced(cat, t.entries(), Some(shown), before.as_ref(), p.as_ref()))
            })
        })
    });
    view! {
        <section class="caption-box" aria-labelledby="caption-heading">
            <h2 id="caption-heading" class="visually-hidden">{move || l.t("ui-caption-heading")}</h2>
            // The event at the cursor by its number, as the log and the
            // findings name it.
            <p class="caption-step small muted">{move || match captions::event_at_cursor(s.shown()) {
                None => l.t("ui-caption-start"),
                Some(number) => tr!(l.cat(), "ui-caption-step", number = number),
            }}</p>
            <div class="caption-main">
                <div class="caption-live" aria-live="polite" aria-atomic="true">
                    // A guided tour's stop, read out with the step it stops at.
                    {move || {
                        let said = tour.map(|t| tour::announcement(s, t)).unwrap_or_default();
                        (!said.is_empty()).then(|| view! { <p class="visually-hidden">{said}</p> })
                    }}
                    <p class="caption-title">{move || caption.with(|c| c.title.clone())}</p>
                    <ClampedText clamp=clamp class="caption-text" text=Signal::derive(move || caption.with(|c| c.text.clone()))/>
                </div>
                // Outside the live region: not read out with every caption.
                <MoreButton clamp=clamp/>
            </div>
            <Legend/>
        </section>
    }
}

/// What the diagram's lines, boxes and marks mean: the same entries, drawn
/// with the same primitives and classes, as the SVG export's legend. Drawn
/// only while open, so a closed legend adds nothing to the page.
#[component]
pub fn Legend() -> impl IntoView {
    let open = RwSignal::new(false);
    let l = lang();
    let on_toggle = move |ev: leptos::ev::Event| {
        let el: web_sys::Element = event_target(&ev);
        open.set(el.has_attribute("open"));
    };
    view! {
        <details class="legend" on:toggle=on_toggle>
            <summary>{move || l.t("ui-legend")}</summary>
            <Show when=move || open.get()>
                {
                    // Drawn at its own size and scaled down to the box
                    // (`max-width: 100%`): two columns whenever they fit in 880.
                    let legend = legend::legend(l.cat(), 0.0, 880.0);
                    let (width, height) = (legend.width, legend.height);
                    view! {
                        <svg class="diagram legend-drawing" role="list" aria-label=legend::legend_summary(l.cat()) width=width height=height viewBox=format!("0 0 {width} {height}")>
                            {legend.items.iter().map(entry_view).collect_view()}
                        </svg>
                    }
                }
            </Show>
        </details>
    }
}

fn entry_view(it: &Item) -> AnyView {
    view! {
        <g class=it.class.clone() role=it.role aria-label=it.label.clone()>
            {it.shapes.iter().map(shape_view).collect_view()}
        </g>
    }
    .into_any()
}
