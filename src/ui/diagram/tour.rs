//! The guided tours on the page: a "Guided tours" panel beside the
//! scenarios (one button per tour) and, while a tour is on, the tour card
//! under the caption box — the stop's title and why it matters, with
//! Previous stop, Next stop and End tour. Each stop moves the playback
//! cursor to its event — Next stop walks there one event at a time at the
//! Speed setting, as Play does — so the diagram, the caption and every
//! panel follow as they do for Back and Next; the caption box's live region announces
//! the stop (`announcement`).
//!
//! Owns the tour's page state (`TourState`) and this markup. The stops and
//! their words come from `tours` (pure, tested natively); runs start and the
//! cursor moves only through the `Session`. It must not touch the runtime
//! except to run the tour's scenario at full speed.

use leptos::prelude::*;

use crate::protocol::{Event, Trace};
use crate::runtime::scheduler::Mode;
use crate::ui::shell::lang::lang;
use crate::ui::state::session::Session;
use crate::view::i18n::{tr, Catalog};
use crate::view::tours::{self, ResolvedStop, Tour};

/// Which tour is on and where it is. `Copy`: provided once by the page.
#[derive(Clone, Copy)]
pub struct TourState {
    /// The tour on, if any.
    pub active: RwSignal<Option<&'static Tour>>,
    /// The stop shown, an index into the resolved stops.
    pub index: RwSignal<usize>,
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
        TourState { active: RwSignal::new(None), index: RwSignal::new(0), waiting: RwSignal::new(false), walking: RwSignal::new(None) }
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

/// Shows stop `i` of `stops`: the cursor on its event, its request picked,
/// replay paused.
fn go(s: Session, t: TourState, stops: &[ResolvedStop], i: usize) {
    let Some(stop) = stops.get(i) else { return };
    t.walking.set(None);
    t.index.set(i);
    s.playback.playing.set(false);
    s.seek(stop.cursor);
    s.playback.selected.set(stop.id.clone());
    arrived(stop.seq);
}

/// Shows stop `i` of `stops` by walking to it: the cursor steps forward
/// through the events between, one per `playback::step_interval` at the
/// Speed setting (the effect in `TourCard` steps it), so the diagram plays
/// what happens on the way. A stop behind the cursor, or the next event,
/// is shown at once.
fn walk(s: Session, t: TourState, stops: &[ResolvedStop], i: usize) {
    let Some(stop) = stops.get(i) else { return };
    if stop.cursor <= s.shown() + 1 {
        go(s, t, stops, i);
        return;
    }
    t.index.set(i);
    s.playback.playing.set(false);
    s.playback.selected.set(stop.id.clone());
    t.walking.set(Some(stop.cursor));
}

/// Brings the stop's event into view once it is drawn.
fn arrived(seq: u64) {
    // The diagram keeps the cursor's row in view (vertically) on the next
    // frame; a frame later the stop's row is drawn and can be brought into
    // view sideways too (a phone shows two or three lifelines at a time).
    request_animation_frame(move || request_animation_frame(move || reveal(seq)));
}

/// Scrolls the diagram, only as far as needed, to the drawn row of event
/// `seq`, or the last drawn row before it (not every event has a row of its
/// own). A row wider than the pane (an arrow across it) stays put.
fn reveal(seq: u64) {
    use wasm_bindgen::JsCast;
    let Ok(rows) = document().query_selector_all("#diagram g[data-seq]") else { return };
    let row_seq = |el: &web_sys::Element| el.get_attribute("data-seq").and_then(|v| v.parse::<u64>().ok());
    let best = (0..rows.length())
        .filter_map(|i| rows.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()))
        .filter_map(|el| row_seq(&el).filter(|q| *q <= seq).map(|q| (q, el)))
        .max_by_key(|(q, _)| *q);
    let Some((_, el)) = best else { return };
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"block".into(), &"nearest".into());
    let _ = js_sys::Reflect::set(&options, &"inline".into(), &"nearest".into());
    let scroll = js_sys::Reflect::get(&el, &"scrollIntoView".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(scroll) = scroll {
        let _ = scroll.call1(&el, &options);
    }
}

/// Starts `tour`: on the run on screen when it is the tour's scenario,
/// otherwise on a new run of it (Live, at full speed: the tour is about the
/// stops, not the pacing). False when the run could not start (the banner
/// says why).
pub fn start(s: Session, t: TourState, tour: &'static Tour) -> bool {
    t.active.set(Some(tour));
    t.index.set(0);
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
        go(s, t, &found, 0);
    }
    true
}

/// Ends the tour; the cursor stays where it is and the request is let go.
pub fn end(s: Session, t: TourState) {
    t.walking.set(None);
    t.active.set(None);
    t.waiting.set(false);
    s.playback.selected.set(None);
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
        Some(i) if i == t.index.get() => {
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
    // The tour's run ended: go to the first stop.
    Effect::new(move |_| {
        let Some(tour) = t.active.get() else { return };
        if t.waiting.get() && run_done(s, tour) {
            t.waiting.set(false);
            found.with_untracked(|f| go(s, t, f, 0));
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
                    found.with_untracked(|f| {
                        if let Some(stop) = f.iter().find(|stop| stop.cursor == target) {
                            arrived(stop.seq);
                        }
                    });
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
            Some(tour) if !crate::ui::shell::web::narrow() => format!("tour-{}", tour.id),
            _ => "controls".to_string(),
        };
        end(s, t);
        request_animation_frame(move || focus(&target));
    };
    let step = move |by: isize| {
        if t.waiting.get_untracked() {
            return;
        }
        // A walk still on ends at its stop first.
        if let Some(target) = t.walking.get_untracked() {
            t.walking.set(None);
            s.seek(target);
        }
        let i = t.index.get_untracked() as isize + by;
        found.with_untracked(|f| {
            if i >= 0 && (i as usize) < f.len() {
                if by > 0 {
                    walk(s, t, f, i as usize);
                } else {
                    go(s, t, f, i as usize);
                }
            }
        });
    };
    let at_first = move || t.index.get() == 0;
    let at_last = move || t.index.get() + 1 >= found.with(Vec::len);
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
                data-cursor=move || found.with(|f| f.get(t.index.get()).map(|stop| stop.cursor.to_string()))>
                <h2 id="tour-heading" class="tour-heading">
                    <span>{move || t.active.get().map(|tour| tr!(l.cat(), "ui-tour-title", title = tour.title(l.cat()))).unwrap_or_default()}</span>
                    <span class="tour-progress muted small">{move || {
                        let n = found.with(Vec::len);
                        if t.waiting.get() || n == 0 { String::new() } else { tr!(l.cat(), "ui-tour-progress", n = t.index.get() + 1, count = n) }
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
                        let i = t.index.get().min(n - 1);
                        let (title, text) = found.with(|f| (f[i].title.clone(), f[i].text.clone()));
                        let missing = tour.stops.len() - n;
                        view! {
                            {(i == 0).then(|| view! { <p class="tour-intro muted">{tour.intro(l.cat())}</p> })}
                            <h3 class="tour-stop-title">{title}</h3>
                            <p class="tour-text">{text}</p>
                            {(missing > 0 && i + 1 == n).then(|| view! {
                                <p class="muted small">{tr!(l.cat(), "ui-tour-skipped", missing = missing, count = tour.stops.len())}</p>
                            })}
                        }
                        .into_any()
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
