//! `explore_worker`: the explorer in a Web Worker. The page (the Explore
//! panel, `ui::explore::workers`) starts one per share of a search; each
//! says `ready`, is sent its slice (`ToWorker::Explore`), and searches it in
//! steps (`explore::Exploration::run`, a few hundred states each),
//! yielding to its event loop between two steps (a `MessageChannel` to
//! itself: no timer clamping). Between steps it reads its messages — the
//! other workers' claims, relayed by the page (`ClaimBatch`), which it
//! takes in so it does not expand what they expand — and after each it
//! posts the states it claimed, its live counters (at most every 100 ms)
//! and, at the end, its report (`FromWorker`, as JSON text; each example as
//! its path alone, which the page rebuilds a run from when it opens one).
//! It then waits for the next search of the job (the page sends one per
//! shrinking search, each shared out among the workers). Stop terminates
//! the worker.
//!
//! Owns the worker's message loop only; the search is
//! `team_protocols::explore`, the messages are `explore::job`. Built for
//! wasm32 by Trunk (`data-type="worker"` in index.html); natively it only
//! says where to look.
#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
fn main() {
    use std::cell::RefCell;
    use std::rc::Rc;

    use team_protocols::explore::job::{ClaimBatch, FromWorker, ToWorker};
    use team_protocols::explore::Exploration;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent};

    /// States visited per step: under 10 ms of search at 30k states/s, so
    /// claims travel and messages are read often (a step costs the worker
    /// a few microseconds of yielding).
    const STEP: u64 = 256;

    /// The search under way.
    struct Running {
        exploration: Exploration,
        me: usize,
        start: f64,
        shown: f64,
    }

    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post = {
        let scope = scope.clone();
        move |m: &FromWorker| {
            let _ = scope.post_message(&JsValue::from_str(&m.to_json()));
        }
    };
    let now = {
        let scope = scope.clone();
        move || scope.performance().map_or(0.0, |p| p.now())
    };
    let channel = match MessageChannel::new() {
        Ok(c) => c,
        Err(e) => return post(&FromWorker::Failed { error: format!("this browser cannot run the search in steps: {e:?}") }),
    };
    let go_on = {
        let port = channel.port2();
        move || {
            let _ = port.post_message(&JsValue::NULL);
        }
    };
    let running: Rc<RefCell<Option<Running>>> = Rc::new(RefCell::new(None));

    let step = {
        let (running, post, now, go_on, scope) = (running.clone(), post.clone(), now.clone(), go_on.clone(), scope.clone());
        Closure::<dyn FnMut(MessageEvent)>::new(move |_: MessageEvent| {
            let mut slot = running.borrow_mut();
            let Some(r) = slot.as_mut() else { return };
            let result = r.exploration.run(STEP);
            let claims = r.exploration.take_claims();
            if !claims.is_empty() {
                let words = ClaimBatch { from: r.me, claims }.to_words();
                let _ = scope.post_message(&js_sys::Uint32Array::from(&words[..]));
            }
            match result {
                Ok(None) => {
                    // Counters at most every 100 ms: enough for a live
                    // display, few enough messages that the page's frames
                    // stay short.
                    let t = now();
                    if t - r.shown >= 100.0 {
                        r.shown = t;
                        post(&FromWorker::Progress { progress: r.exploration.progress() });
                    }
                    go_on();
                }
                Ok(Some(report)) => {
                    // Paths, not runs: the page rebuilds the one it opens,
                    // so the report it reads stays small.
                    let seconds = (now() - r.start) / 1000.0;
                    *slot = None;
                    post(&FromWorker::Done { report: Box::new(report.paths().timed(seconds)) });
                }
                Err(e) => {
                    *slot = None;
                    post(&FromWorker::Failed { error: e.to_string() });
                }
            }
        })
    };
    channel.port1().set_onmessage(Some(step.as_ref().unchecked_ref()));
    step.forget();

    let on_message = {
        let post = post.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let data = e.data();
            if let Some(words) = data.dyn_ref::<js_sys::Uint32Array>() {
                match ClaimBatch::from_words(&words.to_vec()) {
                    Ok(batch) => {
                        if let Some(r) = running.borrow_mut().as_mut() {
                            r.exploration.learn(batch.from, &batch.claims);
                        }
                    }
                    Err(e) => post(&FromWorker::Failed { error: e.to_string() }),
                }
                return;
            }
            let text = data.as_string().unwrap_or_default();
            let mut config = match ToWorker::from_json(&text) {
                Ok(ToWorker::Explore { config }) => config,
                Err(e) => return post(&FromWorker::Failed { error: e.to_string() }),
            };
            // A file's team: its properties came as its text.
            if let Err(e) = config.compile_team_properties() {
                return post(&FromWorker::Failed { error: e.to_string() });
            }
            // One search: the page merges the workers' reports and shares
            // out the shrinking searches itself (`explore::job::Job`).
            match Exploration::one_search(&config) {
                Ok(exploration) => {
                    let me = config.slice.map_or(0, |s| s.index);
                    *running.borrow_mut() = Some(Running { exploration, me, start: now(), shown: f64::NEG_INFINITY });
                    go_on();
                }
                Err(e) => post(&FromWorker::Failed { error: e.to_string() }),
            }
        })
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&FromWorker::Ready);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("explore_worker runs inside the page as a Web Worker; on the command line use `cargo run --release --bin explore -- --help`");
    std::process::ExitCode::from(2)
}
