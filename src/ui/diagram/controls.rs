//! The playback controls bar over the diagram.
//!
//! Owns the controls; the cursor, mode and speed are `playback`, moved
//! through the `Session`.

use leptos::ev;
use leptos::prelude::*;

use crate::runtime::scheduler::Mode;
use crate::ui::browser::lang::lang;
use crate::ui::state::session::Session;
use crate::view::i18n::tr;
use crate::view::words::captions;

/// Speeds offered for playback and Live pacing.
pub const SPEEDS: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// The controls bar: Live or Step, Back, Play or Pause, Next, the
/// scrubber and position, speed, Follow, Stop, and in Step mode what waits
/// to happen next.
#[component]
pub fn Controls() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let len = move || s.run.trace.with(|t| t.len());
    // Nothing recorded and nothing a team could release: Play, Next, the
    // scrubber and Follow cannot act (in Step mode a running team's events
    // wait for Next, and Play steps them, so those stay on).
    let nothing_to_play = move || len() == 0 && !(s.playback.mode.get() == Mode::Step && (s.run.running.get() || s.run.behind.get()));
    let scrub = move |ev: ev::Event| {
        if let Ok(v) = event_target_value(&ev).parse::<usize>() {
            s.seek(v)
        }
    };
    let speed = move |ev: ev::Event| {
        if let Some(v) = crate::protocol::text::parse_decimal(&event_target_value(&ev)) {
            s.set_speed(v)
        }
    };
    let follow = move |ev: ev::Event| {
        if event_target_checked(&ev) {
            s.seek(usize::MAX)
        } else {
            s.playback.cursor.set(Some(s.shown()))
        }
    };
    view! {
        <div class="controls" id="controls" tabindex="-1" role="toolbar" aria-label=move || l.t("ui-controls")>
            <div class="mode" role="group" aria-label=move || l.t("ui-mode")>
                <button aria-pressed=move || (s.playback.mode.get() == Mode::Live).to_string() on:click=move |_| s.set_mode(Mode::Live)>{move || l.t("ui-live")}</button>
                <button aria-pressed=move || (s.playback.mode.get() == Mode::Step).to_string() on:click=move |_| s.set_mode(Mode::Step)>{move || l.t("ui-step")}</button>
            </div>
            <button on:click=move |_| s.back() disabled=move || s.shown() == 0 aria-keyshortcuts="ArrowLeft" title=move || l.t("ui-back-title")>{move || l.t("ui-back")}</button>
            <button class="play" on:click=move |_| s.playback.playing.update(|p| *p = !*p) disabled=move || nothing_to_play() && !s.playback.playing.get() aria-keyshortcuts="Space" title=move || l.t("ui-play-title")>{move || if s.playback.playing.get() { l.t("ui-pause") } else { l.t("ui-play") }}</button>
            <button on:click=move |_| s.next() disabled=nothing_to_play aria-keyshortcuts="ArrowRight" title=move || l.t("ui-next-title")>{move || l.t("ui-next")}</button>
            <input class="scrubber" type="range" min="0" disabled=move || len() == 0 aria-label=move || l.t("ui-scrub")
                aria-valuetext=move || captions::event_at_cursor(s.shown()).map_or_else(|| l.t("ui-caption-start"), |number| tr!(l.cat(), "ui-caption-step", number = number))
                prop:max=move || len().to_string() prop:value=move || s.shown().to_string() on:input=scrub/>
            // The event at the cursor by its number (as the log, the findings
            // and the caption name it), then how many of the events are shown.
            <span class="event-number">{move || captions::event_at_cursor(s.shown()).unwrap_or_default()}</span>
            <span class="position" aria-live="polite" title=move || l.t("ui-position-title")>{move || format!("{} / {}", s.shown(), len())}</span>
            <label class="field inline" title=move || l.t("ui-speed-title")>{move || l.t("ui-speed")}
                <select aria-label=move || l.t("ui-speed") on:change=speed>
                    {SPEEDS.into_iter().map(|v| view! { <option value=v.to_string() selected=v == 1.0>{format!("{v}×")}</option> }).collect_view()}
                </select>
            </label>
            <label class="inline"><input type="checkbox" disabled=move || len() == 0 aria-label=move || l.t("ui-follow") prop:checked=move || s.playback.cursor.get().is_none() on:change=follow/>{move || l.t("ui-follow")}</label>
            <button class="stop" on:click=move |_| s.stop() disabled=move || s.run.stopped.get() || (len() == 0 && !s.run.running.get())>{move || l.t("ui-stop")}</button>
            <span class="next-up" aria-live="polite">{move || {
                let waiting = s.run.next_up.get();
                if s.playback.mode.get() == Mode::Step && !waiting.is_empty() { tr!(l.cat(), "ui-next-up", events = waiting.join(" · ")) } else { String::new() }
            }}</span>
        </div>
    }
}
