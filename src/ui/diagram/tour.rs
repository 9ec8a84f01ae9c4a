//! The guided tours on the page: a "Guided tours" panel beside the
//! scenarios (one button per tour) and, while a tour is on, the tour card
//! under the caption box — the stop's title and why it matters, with
//! Previous stop, Next stop and End tour. Each stop moves the playback
//! cursor to its event — Next stop walks there one event at a time at the
//! Speed setting, as Play does — so the diagram, the caption and every
//! panel follow as they do for Back and Next; the caption box's live region announces
//! the stop (`announcement`); the diagram keeps the cursor's row and both
//! ends of its arrow in view (`canvas`). The card follows the cursor
//! (`tours::card_at`): while Next stop walks, it keeps the stop it walks
//! from, and after the last stop Next stop walks on to the run's last
//! event, where the card says the run is over.
//!
//! Owns the tour's page state (`TourState`) and this markup. The stops and
//! their words come from `tours` (pure, tested natively); runs start and the
//! cursor moves only through the `Session`. It must not touch the runtime
//! except to run the tour's scenario at full speed.

use leptos::prelude::*;

use crate::protocol::{Event, Trace};
use crate::runtime::scheduler::Mode;
use crate::ui::browser::lang::lang;
use crate::ui::diagram::more::{Clamp, ClampedText, MoreButton};
use crate::ui::state::session::Session;
use crate::view::i18n::{tr, Catalog};
use crate::view::tours::{self, ResolvedStop, Tour};

/// Which tour is on and where it is. `Copy`: provided once by the page.
#[derive(Clone, Copy)]
pub struct TourState {
    /// The tour on, if any. Which stop the card shows follows the cursor
    /// (`tours::card_at`).
    pub active: RwSignal<Option<&'static Tour>>,
    /// The tour's scenario is still running; the tour starts when it ends.
    pub waiting: RwSignal<bool>,
    /// Next stop walks the cursor forward one event at a time, at the
    /// playback Speed (as Play does), to the cursor of the stop shown; this
    /// is that cursor while the walk is on.
    pub walking: RwSignal<Option<usize>>,
}

impl TourState {
    /// No tour on.
    pub fn new() -> Self {
        TourState { active: RwSignal::new(None), waiting: RwSignal::new(false), walking: RwSignal::new(None) }
    }
}

impl Default for TourState {
    fn default() -> Self {
        TourState::new()
    }
}

/// The active tour's stops found in the run on screen, told in `cat`'s
/// language (tracked).
fn stops(s: Session, t: TourState, cat: &Catalog) -> Vec<ResolvedStop> {
    match t.active.get() {
        Some(tour) => s.run.trace.with(|trace| tours::resolve(cat, tour, trace.entries())),
        None => Vec::new(),
    }
}

/// True when the run on screen is a whole, untouched run of `tour`'s
/// scenario (finished or still going), so the tour can use it as it is.
fn shows_scenario_of(s: Session, tour: &Tour) -> bool {
    let same = s.run.snapshot.with_untracked(|snap| {
        snap.as_ref().is_some_and(|snap| {
            snap.scenario.as_deref() == Some(tour.id) && snap.prompts.iter().map(String::as_str).eq(tour.scenario.prompts.iter().copied())
        })
    });
    same && !s.run.stopped_by_user.get_untracked() && !s.run.trace.with_untracked(Trace::is_empty)
}

/// The run has played every prompt of the tour's scenario, or stopped.
fn run_done(s: Session, tour: &Tour) -> bool {
    let finished = s.run.trace.with(|t| t.entries().iter().filter(|e| matches!(e.event, Event::RunFinished)).count());
    s.run.stopped.get() || (!s.run.running.get() && finished >= tour.scenario.prompts.len())
}

/// Moves the cursor to `cursor` (a stop's, or the run's end) at once: its
/// request picked, replay paused; the card follows the cursor.
fn go(s: Session, t: TourState, stops: &[ResolvedStop], cursor: usize) {
    t.walking.set(None);
    s.playback.playing.set(false);
    s.seek(cursor);
    let stop = stops.iter().find(|stop| stop.cursor == cursor);
    if let Some(stop) = stop {
        s.playback.selected.set(stop.id.clone());
    }
}

/// Moves the cursor to `cursor` by walking there: it steps forward through
/// the events between, one per `playback::step_interval` at the Speed
/// setting (the effect in `TourCard` steps it), so the diagram plays what
/// happens on the way while the card keeps the stop it walks from. A
/// cursor behind, or the next event, is shown at once.
fn walk(s: Session, t: TourState, stops: &[ResolvedStop], cursor: usize) {
    if cursor <= s.shown() + 1 {
        go(s, t, stops, cursor);
        return;
    }
    s.playback.playing.set(false);
    if let Some(stop) = stops.iter().find(|stop| stop.cursor == cursor) {
        s.playback.selected.set(stop.id.clone());
    }
    t.walking.set(Some(cursor));
}

/// Starts `tour`: on the run on screen when it is the tour's scenario,
/// otherwise on a new run of it (Live, at full speed: the tour is about the
/// stops, not the pacing). False when the run could not start (the banner
/// says why).
pub fn start(s: Session, t: TourState, tour: &'static Tour) -> bool {
    t.active.set(Some(tour));
    if shows_scenario_of(s, tour) {
        t.waiting.set(s.run.running.get_untracked());
    } else {
        if s.playback.mode.get_untracked() == Mode::Step {
            s.set_mode(Mode::Live);
        }
        s.run_scenario(tour.scenario);
        // A new team clears the banner; one up now says why nothing started
        // (and the run on screen, if any, is still the old one).
        if s.banner.with_untracked(Option::is_some) {
            t.active.set(None);
            return false;
        }
        t.waiting.set(true);
    }
    s.with_rt(|rt| rt.set_pace(0));
    if !t.waiting.get_untracked() {
        // Only the stops' cursors matter here, the same in every language.
        let found = untrack(|| stops(s, t, Catalog::en()));
        if let Some(first) = found.first() {
            go(s, t, &found, first.cursor);
        }
    }
    true
}

/// Ends the tour; the cursor stays where it is and the request is let go.
/// The team goes back to Live mode's pace at the Speed setting (the tour ran
/// it unpaced), so a prompt typed next is told event by event.
pub fn end(s: Session, t: TourState) {
    t.walking.set(None);
    t.active.set(None);
    t.waiting.set(false);
    s.playback.selected.set(None);
    let pace = s.pace_ms();
    s.with_rt(|rt| rt.set_pace(pace));
}

/// What the caption box's live region adds while the cursor is on a stop:
/// "Tour stop 2 of 6: title. text" (empty otherwise). Tracked.
pub fn announcement(s: Session, t: TourState) -> String {
    if t.waiting.get() {
        return String::new();
    }
    let l = lang();
    let found = stops(s, t, l.cat());
    let len = s.run.trace.with(Trace::len);
    match tours::stop_at(&found, s.playback.cursor.get(), len) {
        Some(i) if t.walking.get().is_none() => {
            let stop = &found[i];
            tr!(
                lang().cat(),
                "ui-tour-announce",
                n = i + 1,
                count = found.len(),
                title = stop.title.trim_end_matches('.'),
                text = stop.text.clone()
            )
        }
        _ => String::new(),
    }
}

/// The "Guided tours" panel: one button per tour. `on_start` runs after a
/// tour starts (the page closes the setup drawer on a narrow screen).
#[component]
pub fn TourList(
    /// Called once a tour has started.
    on_start: Callback<()>,
) -> impl IntoView {
    let s = expect_context::<Session>();
    let t = expect_context::<TourState>();
    let l = lang();
    view! {
        <section class="panel tours" aria-labelledby="tours-title">
            <h2 id="tours-title">{move || l.t("ui-tours")}</h2>
            <p class="muted small">{move || l.t("ui-tours-note")}</p>
            <ul class="tour-list">
                {tours::TOURS.iter().map(|tour| view! {
                    <li>
                        <button id=format!("tour-{}", tour.id) class="tour-start" data-tour=tour.id
                            aria-current=move || t.active.get().is_some_and(|a| a.id == tour.id).then_some("true")
                            on:click=move |_| if start(s, t, tour) {
                                on_start.run(());
                                request_animation_frame(|| focus("tour-card"));
                            }>
                            {move || tr!(l.cat(), "ui-tour-title", title = tour.title(l.cat()))}
                        </button>
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}

/// The tour card: where the tour is, the stop's title and why, and the
/// buttons to move on. Drawn only while a tour is on.
#[component]
pub fn TourCard() -> impl IntoView {
    let s = expect_context::<Session>();
    let t = expect_context::<TourState>();
    let l = lang();
    let found = Memo::new(move |_| stops(s, t, l.cat()));
    let clamp = Clamp::new("tour-text");
    // What the card shows follows the cursor: never a stop the diagram has
    // not reached yet.
    let len = move || s.run.trace.with(Trace::len);
    let card = Memo::new(move |_| found.with(|f| tours::card_at(f, s.shown(), len())));
    // Each card starts cut on a short screen (More opens that card only).
    Effect::watch(move || card.get(), move |_, _, _| clamp.open.set(false), false);
    // The tour's run ended: go to the first stop.
    Effect::new(move |_| {
        let Some(tour) = t.active.get() else { return };
        if t.waiting.get() && run_done(s, tour) {
            t.waiting.set(false);
            found.with_untracked(|f| {
                if let Some(first) = f.first() {
                    go(s, t, f, first.cursor);
                }
            });
        }
    });
    // A walk to the next stop: one event per step interval at the Speed
    // setting (a new Speed applies from the next step), as Play does.
    Effect::new(move |_| {
        let Some(target) = t.walking.get() else { return };
        let delay = crate::ui::state::playback::step_interval(s.playback.speed.get());
        let handle = set_interval_with_handle(
            move || {
                let at = s.shown();
                if t.walking.get_untracked() != Some(target) {
                    return;
                }
                if at + 1 >= target {
                    t.walking.set(None);
                    s.seek(target);
                } else {
                    s.seek(at + 1);
                }
            },
            delay,
        );
        if let Ok(h) = handle {
            on_cleanup(move || h.clear());
        }
    });
    // Another run replaced the tour's (a scenario, a prompt, an import):
    // the tour ends.
    Effect::new(move |_| {
        let scenario = s.run.snapshot.with(|snap| snap.as_ref().and_then(|snap| snap.scenario.clone()));
        if let Some(tour) = t.active.get_untracked() {
            if scenario.as_deref() != Some(tour.id) {
                end(s, t);
            }
        }
    });
    // Focus goes back to the tour's button, or on a narrow screen (where
    // it hides in the closed drawer) to the playback controls.
    let finish = move || {
        let target = match t.active.get_untracked() {
            Some(tour) if !crate::ui::browser::web::narrow() => format!("tour-{}", tour.id),
            _ => "controls".to_string(),
        };
        end(s, t);
        request_animation_frame(move || focus(&target));
    };
    let step = move |by: isize| {
        if t.waiting.get_untracked() {
            return;
        }
        // A walk still on: Next stop ends it at its stop first; Previous
        // stop goes back from where the walk has got to.
        if let Some(target) = t.walking.get_untracked() {
            t.walking.set(None);
            if by > 0 {
                s.seek(target);
            }
        }
        let (shown, len) = (s.shown(), len());
        found.with_untracked(|f| {
            let card = tours::card_at(f, shown, len);
            if by > 0 {
                if let Some(target) = tours::next_target(f, card, len) {
                    walk(s, t, f, target);
                }
            } else if let Some(target) = tours::previous_target(f, card, shown) {
                go(s, t, f, target);
            }
        });
    };
    let at_first = move || found.with(|f| tours::previous_target(f, card.get(), s.shown()).is_none());
    let at_last = move || t.walking.get().is_none() && found.with(|f| tours::next_target(f, card.get(), len()).is_none());
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            ev.stop_propagation();
            finish();
        }
    };

    view! {
        <Show when=move || t.active.get().is_some()>
            <section id="tour-card" class="tour-card" tabindex="-1" aria-labelledby="tour-heading" on:keydown=on_key
                data-cursor=move || t.walking.get().or_else(|| found.with(|f| match card.get() {
                    tours::Card::Stop(i) => f.get(i).map(|stop| stop.cursor),
                    tours::Card::End => Some(len()),
                    tours::Card::Intro => None,
                })).map(|c| c.to_string())>
                <h2 id="tour-heading" class="tour-heading">
                    <span>{move || t.active.get().map(|tour| tr!(l.cat(), "ui-tour-title", title = tour.title(l.cat()))).unwrap_or_default()}</span>
                    <span class="tour-progress muted small">{move || {
                        let n = found.with(Vec::len);
                        match card.get() {
                            tours::Card::Stop(i) if !t.waiting.get() => tr!(l.cat(), "ui-tour-progress", n = i + 1, count = n),
                            _ => String::new(),
                        }
                    }}</span>
                </h2>
                {move || {
                    let tour = t.active.get()?;
                    let n = found.with(Vec::len);
                    let view = if t.waiting.get() {
                        view! { <p class="tour-text">{l.t("ui-tour-waiting")}</p> }.into_any()
                    } else if n == 0 {
                        view! { <p class="tour-text">{l.t("ui-tour-none")}</p> }.into_any()
                    } else {
                        let missing = tour.stops.len() - n;
                        let skipped = move || (missing > 0).then(|| view! {
                            <p class="muted small">{tr!(l.cat(), "ui-tour-skipped", missing = missing, count = tour.stops.len())}</p>
                        });
                        match card.get() {
                            tours::Card::Intro => view! { <p class="tour-intro muted">{tour.intro(l.cat())}</p> }.into_any(),
                            tours::Card::Stop(i) => {
                                let (title, text) = found.with(|f| (f[i].title.clone(), f[i].text.clone()));
                                view! {
                                    {(i == 0).then(|| view! { <p class="tour-intro muted">{tour.intro(l.cat())}</p> })}
                                    <h3 class="tour-stop-title">{title}</h3>
                                    <ClampedText clamp=clamp class="tour-text" text=Signal::stored(text)/>
                                    <MoreButton clamp=clamp/>
                                    {(i + 1 == n).then(skipped)}
                                }
                                .into_any()
                            }
                            tours::Card::End => view! {
                                <h3 class="tour-stop-title">{l.t("ui-tour-over-title")}</h3>
                                <ClampedText clamp=clamp class="tour-text" text=Signal::stored(tr!(l.cat(), "ui-tour-over", len = len()))/>
                                <MoreButton clamp=clamp/>
                                {skipped()}
                            }
                            .into_any(),
                        }
                    };
                    Some(view)
                }}
                <div class="row tour-buttons">
                    <button class="tour-back" aria-disabled=move || (at_first() || t.waiting.get()).to_string()
                        on:click=move |_| step(-1)>{move || l.t("ui-tour-previous")}</button>
                    <button class="tour-next primary" aria-disabled=move || (at_last() || t.waiting.get()).to_string()
                        on:click=move |_| step(1)>{move || l.t("ui-tour-next")}</button>
                    <button class="tour-end" on:click=move |_| finish()>{move || l.t("ui-tour-end")}</button>
                </div>
            </section>
        </Show>
    }
}

/// Focuses the element with `id`, if there is one.
fn focus(id: &str) {
    if let Some(el) = document().get_element_by_id(id) {
        let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
    }
}
