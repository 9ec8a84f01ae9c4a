//! The browser benchmark page (`bench.html`): loads generated traces of 1k,
//! 10k and 100k events into the diagram and the side panels and reports the
//! time to first draw and the median time of a step (Back, Next), measured
//! in the page itself, plus the wasm memory the run's derived views take.
//! Then the scale scenario (50 teammates × 20 requests): the run itself in
//! the browser, and the UI work per animation frame while its events arrive
//! in batches of 1, 16 and 128 per frame (appending to the run, updating
//! the derived views, the diagram and the panels), as 50th and 95th
//! percentiles. Last, the explorer (`team_protocols::explore`) in wasm:
//! states per second on one thread, for a few scenarios; then the Explore
//! panel searching in 1 and 2 Web Workers: wall seconds, states per second,
//! distinct states, and the main thread's frame intervals
//! (requestAnimationFrame) while they run. Each of those searches is marked
//! on the page's timeline (`performance.mark`, `explore-workers <scenario>
//! <n> start` and `end`), so the driver (`scripts/bench-browser.sh`, which
//! records a Chromium trace) can add up the main thread's work per frame in
//! that window. Between the two, the workers' messages: one round trip of
//! each kind (written, cloned by `structuredClone` as `postMessage` clones
//! it, read back), as JSON text (what the page and its workers send) and as
//! JS values written by serde-wasm-bindgen three ways (measured slower, so
//! kept out of the app).
//!
//! Build and open it with `trunk serve bench.html`, or headless with
//! `scripts/bench-browser.sh`.
#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
mod page {
    use leptos::prelude::*;
    use team_protocols::ui::state::session::Session;
    use team_protocols::ui::{DiagramView, Panels};
    use team_protocols::view::diagram::layout::layout;
    use team_protocols::view::synthetic::busy_trace;
    use wasm_bindgen::{JsCast, JsValue};

    fn now() -> f64 {
        window().performance().expect("performance").now()
    }

    async fn next_frame() {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            let _ = window().request_animation_frame(&resolve);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }

    fn median(mut v: Vec<f64>) -> f64 {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    }

    /// What a measurement mounts.
    #[derive(Clone, Copy, PartialEq)]
    enum Parts {
        /// The diagram and the side panels, as the page shows them.
        Both,
        /// The diagram alone.
        Diagram,
        /// The side panels alone.
        Panels,
    }

    /// One size: (first draw ms, median Back ms, median Next ms, layout ms).
    async fn measure(events: usize, parts: Parts) -> (f64, f64, f64, f64, usize) {
        let trace = busy_trace(events, 8, 7);
        let len = trace.len();
        let t = now();
        let _ = layout(&trace, None);
        let layout_ms = now() - t;

        let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
        host.set_attribute("style", "height: 700px; width: 1400px; display: grid;").unwrap();
        document().body().unwrap().append_child(&host).unwrap();
        let s = Session::new(0.0);
        let start = now();
        s.run.show_recorded(trace, None);
        let handle = leptos::mount::mount_to(host.clone(), move || {
            provide_context(s);
            view! {
                {(parts != Parts::Panels).then(|| view! { <DiagramView/> })}
                {(parts != Parts::Diagram).then(|| view! { <aside class="right"><Panels/></aside> })}
            }
        });
        next_frame().await;
        let _ = host.offset_height();
        let first_draw = now() - start;

        let mut back = Vec::new();
        for _ in 0..41 {
            let t = now();
            s.back();
            leptos::task::tick().await;
            let _ = host.offset_height();
            back.push(now() - t);
        }
        let mut next = Vec::new();
        for _ in 0..41 {
            let t = now();
            s.next();
            leptos::task::tick().await;
            let _ = host.offset_height();
            next.push(now() - t);
        }
        drop(handle);
        host.remove();
        (first_draw, median(back), median(next), layout_ms, len)
    }

    fn percentile(mut v: Vec<f64>, p: f64) -> f64 {
        v.sort_by(|a, b| a.total_cmp(b));
        v[((v.len() as f64 - 1.0) * p).round() as usize]
    }

    /// Runs the scale scenario on the scripted model in this tab, as fast
    /// as the agents go: (its trace, milliseconds).
    async fn scale_run() -> (team_protocols::protocol::Trace, f64) {
        use std::rc::Rc;
        use team_protocols::model::scripted::ScriptedModel;
        use team_protocols::runtime::{browser, scenarios, Runtime, RuntimeConfig};
        let rt = Runtime::new(RuntimeConfig { pace_ms: 0, ..RuntimeConfig::default() }, Rc::new(ScriptedModel), browser::host());
        let start = now();
        rt.submit_prompt(scenarios::SCALE.prompts[0]).expect("the scale prompt is accepted");
        while rt.is_running() {
            gloo_timers::future::TimeoutFuture::new(20).await;
        }
        (rt.trace(), now() - start)
    }

    /// UI work per frame while the last `tail` events of `trace` arrive
    /// `batch` at a time (the ones before arrive at once, unmeasured: the
    /// end of a long run is the costly part): (p50 ms, p95 ms, frames).
    async fn live_frames(trace: &team_protocols::protocol::Trace, batch: usize, tail: usize) -> (f64, f64, usize) {
        let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
        host.set_attribute("style", "height: 700px; width: 1400px; display: grid;").unwrap();
        document().body().unwrap().append_child(&host).unwrap();
        let s = Session::new(0.0);
        s.run.show_recorded(team_protocols::protocol::Trace::new(&trace.team_name, trace.seed), None);
        let handle = leptos::mount::mount_to(host.clone(), move || {
            provide_context(s);
            view! { <DiagramView/> <aside class="right"><Panels/></aside> }
        });
        next_frame().await;
        let split = trace.len().saturating_sub(tail);
        s.run.append(trace.entries()[..split].to_vec());
        next_frame().await;
        let mut work = Vec::new();
        for chunk in trace.entries()[split..].chunks(batch) {
            next_frame().await;
            let t = now();
            s.run.append(chunk.to_vec());
            leptos::task::tick().await;
            let _ = host.offset_height();
            work.push(now() - t);
        }
        drop(handle);
        host.remove();
        let frames = work.len();
        (percentile(work.clone(), 0.5), percentile(work, 0.95), frames)
    }

    /// The Explore panel mounted, searching `settings` in its Web Workers;
    /// meanwhile the page's frames are timed: (counters at the end, frame
    /// interval p50, p95 and max in ms, frames). The search is marked on the
    /// page's timeline as `explore-workers <scenario> <workers> start`/`end`,
    /// from Start until its verdicts are drawn.
    async fn explore_in_workers(
        settings: team_protocols::explore::job::ExploreSettings,
        note: &str,
    ) -> (team_protocols::explore::job::Counters, f64, f64, f64, usize) {
        use team_protocols::explore::job::JobState;
        use team_protocols::ui::explore::panel::ExplorePanel;
        use team_protocols::ui::explore::state::ExploreUi;
        let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
        document().body().unwrap().append_child(&host).unwrap();
        let s = Session::new(0.0);
        let ui = ExploreUi::new();
        let handle = leptos::mount::mount_to(host.clone(), move || {
            provide_context(s);
            provide_context(ui);
            view! { <ExplorePanel/> }
        });
        let label = format!("explore-workers {} {}{}{note}", settings.scenario, settings.workers, if note.is_empty() { "" } else { " " });
        let n = settings.workers;
        ui.settings.set(settings);
        next_frame().await;
        // As in the page when the user comes to the panel before Start: the
        // workers load first (not timed); "at once" starts them with the
        // search.
        if !note.contains("at once") {
            ui.warm();
            let t = now();
            while ui.spare_ready() < n && now() - t < 20_000.0 {
                next_frame().await;
            }
        }
        let performance = window().performance().expect("performance");
        let _ = performance.mark(&format!("{label} start"));
        ui.start(s);
        let mut frames = Vec::new();
        let mut last = now();
        // Until the search is over and all its verdicts are on the page (the
        // panel draws them over the two frames after the last report is
        // read).
        let drawn = {
            let host = host.clone();
            move || host.query_selector(".verdicts[aria-busy=false]").ok().flatten().is_some()
        };
        while ui.job.with_untracked(|j| j.as_ref().is_some_and(|j| j.is_running() || matches!(j.state, JobState::Done(_)) && !drawn())) {
            next_frame().await;
            let t = now();
            frames.push(t - last);
            last = t;
        }
        let _ = performance.mark(&format!("{label} end"));
        let c = ui.job.with_untracked(|j| j.as_ref().map(|j| j.counters(now()))).unwrap_or_default();
        let distinct = ui.job.with_untracked(|j| match j.as_ref().map(|j| &j.state) {
            Some(JobState::Done(r)) => r.distinct_states,
            _ => 0,
        });
        drop(handle);
        host.remove();
        let n = frames.len();
        let max = frames.iter().copied().fold(0.0, f64::max);
        (
            team_protocols::explore::job::Counters { distinct_states: distinct, ..c },
            percentile(frames.clone(), 0.5),
            percentile(frames, 0.95),
            max,
            n,
        )
    }

    /// Microseconds per call of `f`: the median of 15 batches, each of at
    /// least 10 calls and 20 ms (the page's clock is coarse).
    fn micros_per_call(mut f: impl FnMut()) -> f64 {
        f();
        let per_batch = (0..15)
            .map(|_| {
                let t = now();
                let mut calls = 0u32;
                while calls < 10 || now() - t < 20.0 {
                    f();
                    calls += 1;
                }
                (now() - t) * 1000.0 / f64::from(calls)
            })
            .collect();
        median(per_batch)
    }

    /// Microseconds of one round trip of `message` as the page and a worker
    /// exchange it: written, cloned by `structuredClone` (what `postMessage`
    /// does to cross to the other thread) and read back. As JSON text (what
    /// `explore::job`'s `to_json` writes and the workers send), then as a JS
    /// value written by serde-wasm-bindgen three ways: 64-bit numbers as
    /// `BigInt` (exact: a seed may pass 2^53), as plain numbers (exact only
    /// to 2^53), and JSON-compatible (maps as objects too).
    fn round_trips<T: serde::Serialize + serde::de::DeserializeOwned>(message: &T, cross: &dyn Fn(&JsValue) -> JsValue) -> [f64; 4] {
        use serde_wasm_bindgen::Serializer;
        use std::hint::black_box;
        let json = micros_per_call(|| {
            let text = cross(&JsValue::from_str(&serde_json::to_string(message).expect("written"))).as_string().unwrap_or_default();
            black_box(serde_json::from_str::<T>(&text).expect("read"));
        });
        let js = |serializer: Serializer| {
            micros_per_call(|| {
                let value = message.serialize(&serializer).expect("written");
                black_box(serde_wasm_bindgen::from_value::<T>(cross(&value)).expect("read"));
            })
        };
        [
            json,
            js(Serializer::new().serialize_large_number_types_as_bigints(true)),
            js(Serializer::new()),
            js(Serializer::json_compatible()),
        ]
    }

    /// One round trip of each kind of worker message (`round_trips`);
    /// `reports`: the in-thread searches' reports, as a worker sends them.
    async fn worker_messages(
        out: &web_sys::Element,
        lines: &mut Vec<String>,
        reports: Vec<(&str, team_protocols::explore::Report<team_protocols::explore::PathExample>)>,
    ) {
        use team_protocols::explore::job::{ExploreSettings, FromWorker, ToWorker};
        use team_protocols::explore::Progress;
        let clone: js_sys::Function =
            js_sys::Reflect::get(&js_sys::global(), &"structuredClone".into()).expect("structuredClone").unchecked_into();
        let cross = move |v: &JsValue| clone.call1(&JsValue::NULL, v).expect("a clone");
        lines.push(String::new());
        lines.push(
            "worker messages, one round trip (write, structuredClone, read), median us: message  json-bytes  json (sent)  js-bigint  js-number  js-json-compatible"
                .to_string(),
        );
        let settings = ExploreSettings { scenario: "shutdown".into(), max_faults: 1, workers: 2, ..Default::default() };
        let to_worker = ToWorker::Explore { config: settings.slices().remove(0) };
        let progress =
            FromWorker::Progress { progress: Progress { states: 123_456, distinct_states: 65_432, depth: 42, frontier: 1_234, pass: 1 } };
        let mut from_worker: Vec<(String, FromWorker)> = vec![("progress".into(), progress)];
        from_worker.extend(reports.into_iter().map(|(scenario, r)| (format!("done {scenario}"), FromWorker::Done { report: Box::new(r) })));
        let mut row = |name: &str, bytes: usize, [json, bigint, number, compatible]: [f64; 4]| {
            lines.push(format!("{name:>26}  {bytes:>10}  {json:>11.1}  {bigint:>9.1}  {number:>9.1}  {compatible:>18.1}"));
            out.set_text_content(Some(&lines.join("\n")));
        };
        row("explore (to a worker)", to_worker.to_json().len(), round_trips(&to_worker, &cross));
        for (name, m) in &from_worker {
            next_frame().await;
            row(name, m.to_json().len(), round_trips(m, &cross));
        }
    }

    /// Runs every measurement and writes the results into the page.
    pub(crate) async fn run() {
        let out = document().get_element_by_id("results").expect("#results");
        // `bench.html#explore`: only the explorer's measurements;
        // `bench.html#steps`: only the diagram, panels and scale ones;
        // `bench.html#steps-100k`: only the steps at 100k events (the page
        // to take a CPU profile of); `#steps-100k-diagram` and
        // `#steps-100k-panels`: one part of them; `#steps-scale`: only the
        // scale scenario's frames.
        let hash = window().location().hash().unwrap_or_default();
        let mut lines = Vec::new();
        if hash == "#steps-scale" {
            scale(&out, &mut lines).await;
        } else if let Some(part) = hash.strip_prefix("#steps-100k") {
            steps_100k(&out, &mut lines, part).await;
        } else {
            if hash != "#explore" {
                diagram_and_scale(&out, &mut lines).await;
            }
            if hash != "#steps" {
                explorer(&out, &mut lines).await;
            }
        }
        document().set_title("bench done");
    }

    /// Back and Next at 100k events: the diagram and the panels, then
    /// each alone.
    async fn steps_100k(out: &web_sys::Element, lines: &mut Vec<String>, part: &str) {
        let all = [("both", Parts::Both), ("diagram only", Parts::Diagram), ("panels only", Parts::Panels)];
        for (name, parts) in all.into_iter().filter(|(name, _)| part.is_empty() || name.contains(part.trim_start_matches('-'))) {
            let (first, back, next, _, _) = measure(100_000, parts).await;
            lines.push(format!("{name:>13}  first draw {first:.1} ms  median back {back:.2} ms  median next {next:.2} ms"));
            out.set_text_content(Some(&lines.join("\n")));
        }
    }

    /// The diagram, panels and scale measurements.
    async fn diagram_and_scale(out: &web_sys::Element, lines: &mut Vec<String>) {
        lines.push("events  first-draw-ms  median-back-ms  median-next-ms  layout-ms  wasm-memory-MB".to_string());
        for n in [1_000, 10_000, 100_000] {
            let (first, back, next, lay, len) = measure(n, Parts::Both).await;
            let memory = wasm_bindgen::memory()
                .unchecked_into::<js_sys::WebAssembly::Memory>()
                .buffer()
                .unchecked_into::<js_sys::ArrayBuffer>()
                .byte_length();
            let mb = f64::from(memory) / 1_048_576.0;
            lines.push(format!("{len:>6}  {first:>13.1}  {back:>14.2}  {next:>14.2}  {lay:>9.2}  {mb:>14.1}"));
            out.set_text_content(Some(&lines.join("\n")));
        }
        lines.push(String::new());
        for n in [10_000, 100_000] {
            lines.push(format!("{}k events, one part mounted at a time:", n / 1000));
            for (name, parts) in [("diagram only", Parts::Diagram), ("panels only", Parts::Panels)] {
                let (first, back, next, _, _) = measure(n, parts).await;
                lines.push(format!("{name:>13}  first draw {first:.1} ms  median back {back:.2} ms  median next {next:.2} ms"));
                out.set_text_content(Some(&lines.join("\n")));
            }
        }
        scale(out, lines).await;
    }

    /// The scale scenario run live: UI work per frame.
    async fn scale(out: &web_sys::Element, lines: &mut Vec<String>) {
        let (trace, run_ms) = scale_run().await;
        lines.push(String::new());
        lines.push(format!("scale scenario (50 teammates x 20 requests): {} events, run in the browser in {run_ms:.0} ms", trace.len()));
        lines.push("events/frame  frames (at the run's end)  p50-ui-work-ms  p95-ui-work-ms".to_string());
        out.set_text_content(Some(&lines.join("\n")));
        for (batch, tail) in [(1, 600), (16, 4_000), (128, usize::MAX)] {
            let (p50, p95, frames) = live_frames(&trace, batch, tail).await;
            lines.push(format!("{batch:>12}  {frames:>23}  {p50:>14.2}  {p95:>14.2}"));
            out.set_text_content(Some(&lines.join("\n")));
        }
    }

    /// The explorer in the page's thread, then in the panel's workers.
    async fn explorer(out: &web_sys::Element, lines: &mut Vec<String>) {
        lines.push(String::new());
        lines.push("explorer in the page's thread (wasm, 1 thread): scenario  faults  states  distinct  seconds  states/s".to_string());
        let mut reports = Vec::new();
        for (scenario, faults) in [("shutdown", 1), ("reject-then-accept", 1), ("out-of-order", 0)] {
            let config = team_protocols::explore::ExploreConfig {
                max_faults: faults,
                threads: 1,
                ..team_protocols::explore::ExploreConfig::new(scenario)
            };
            let t = now();
            let report = team_protocols::explore::explore(&config).expect("the scenario explores");
            let secs = (now() - t) / 1000.0;
            lines.push(format!(
                "{scenario:>20}  {faults:>6}  {:>6}  {:>8}  {secs:>7.2}  {:>8.0}",
                report.states,
                report.distinct_states,
                report.states as f64 / secs
            ));
            out.set_text_content(Some(&lines.join("\n")));
            reports.push((scenario, report.paths()));
            next_frame().await;
        }
        worker_messages(out, lines, reports).await;
        lines.push(String::new());
        lines.push(
            "explore panel in Web Workers: scenario  faults  workers  states  distinct  seconds  states/s  interval-p50-ms  interval-p95-ms  interval-max-ms  frames"
                .to_string(),
        );
        // The page's first search draws the panel's verdicts for the first
        // time: measured apart ("cold"), before the series. Its workers are
        // loaded before Start, as the panel does when the user comes to it
        // (`ExploreUi::warm`); "at once" is a Start with no worker loaded
        // yet, which loads them while the search runs.
        let runs = [
            ("shutdown", 1, "cold"),
            ("shutdown", 1, "at once"),
            ("shutdown", 1, ""),
            ("shutdown", 2, ""),
            ("out-of-order", 1, ""),
            ("out-of-order", 2, ""),
        ];
        for (scenario, workers, note) in runs {
            let settings =
                team_protocols::explore::job::ExploreSettings { scenario: scenario.into(), max_faults: 1, workers, ..Default::default() };
            let (c, p50, p95, max, n) = explore_in_workers(settings, note).await;
            let name = if note.is_empty() { scenario.to_string() } else { format!("{scenario} ({note})") };
            lines.push(format!(
                "{name:>31}  {:>6}  {workers:>7}  {:>6}  {:>8}  {:>7.2}  {:>8.0}  {p50:>15.1}  {p95:>15.1}  {max:>15.1}  {n:>6}",
                1, c.states, c.distinct_states, c.seconds, c.states_per_second
            ));
            out.set_text_content(Some(&lines.join("\n")));
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    wasm_bindgen_futures::spawn_local(page::run());
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the benchmark page runs in a browser: `trunk serve bench.html` or scripts/bench-browser.sh");
    std::process::exit(2);
}
