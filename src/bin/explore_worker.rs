//! `explore_worker`: the explorer in a Web Worker. The page (the Explore
//! panel, `ui::explore_workers`) starts one per share of a search; each
//! says `ready`, is sent its slice (`ToWorker::Explore`), posts its live
//! counters as it searches and its report at the end (`FromWorker`, as JSON
//! text; each example as its path, without its trace, which the page
//! rebuilds when it opens one). A search cannot be interrupted from inside:
//! Stop terminates the worker.
//!
//! Owns the worker's message loop only; the search is
//! `team_protocols::explore`, the messages are `ui::explore_job`. Built for
//! wasm32 by Trunk (`data-type="worker"` in index.html); natively it only
//! says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    use team_protocols::explore::explore_with;
    use team_protocols::ui::explore_job::{FromWorker, ToWorker};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

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
    let on_message = {
        let post = post.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            let config = match ToWorker::from_json(&text) {
                Ok(ToWorker::Explore { config }) => config,
                Err(e) => return post(&FromWorker::Failed { error: e.to_string() }),
            };
            let start = now();
            // Counters at most every 100 ms: enough for a live display, few
            // enough messages that the page's frames stay short.
            let mut last = f64::NEG_INFINITY;
            let result = explore_with(&config, &mut |progress| {
                let t = now();
                if t - last >= 100.0 {
                    last = t;
                    post(&FromWorker::Progress { progress });
                }
            });
            match result {
                Ok(mut report) => {
                    // Paths, not traces: the page rebuilds the one it opens,
                    // so the report it reads stays small.
                    for example in report.properties.iter_mut().filter_map(|p| p.example.as_mut()) {
                        example.trace = example.trace.prefix(0);
                    }
                    post(&FromWorker::Done { report: Box::new(report.timed((now() - start) / 1000.0)) })
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
