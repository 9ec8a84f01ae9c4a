//! The explorer's Web Workers, seen from the page: start one per share of a
//! search (`explore_worker_loader.js`, built by Trunk from
//! `src/bin/explore_worker.rs`), send each its slice, relay each worker's
//! claims (a typed array, `explore_job::ClaimBatch`) to the others without
//! reading them, hand every other message back to the caller, terminate
//! them all on Stop or at the end.
//!
//! Owns the workers' lifetimes and the JS glue; what a message means is
//! `ui::explore_job`. It must not touch the session or draw anything.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};

use super::explore_job::{ExploreJobError, FromWorker, ToWorker};

/// The worker script Trunk writes next to the page.
pub const WORKER_SCRIPT: &str = "explore_worker_loader.js";

/// Why workers could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExploreWorkersError {
    /// The browser refused to start a worker.
    #[error("the browser could not start a worker for the search ({0}); this page needs Web Workers")]
    Start(String),
}

/// A message from worker `index` (or why it could not be read).
pub type OnMessage = Rc<dyn Fn(usize, Result<FromWorker, ExploreJobError>)>;

/// A worker's message and error listeners, kept alive while it runs.
type Listeners = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(ErrorEvent)>);

/// The running workers of one search. Dropping it terminates them.
pub struct Workers {
    workers: Rc<Vec<Worker>>,
    _listeners: Vec<Listeners>,
}

impl Workers {
    /// Starts `n` workers; each message (and each worker's load or run
    /// error, as `Failed`) goes to `on_message` with the worker's index.
    pub fn start(n: usize, on_message: OnMessage) -> Result<Workers, ExploreWorkersError> {
        let mut workers = Vec::with_capacity(n);
        for _ in 0..n {
            match Worker::new(WORKER_SCRIPT) {
                Ok(w) => workers.push(w),
                Err(e) => {
                    workers.iter().for_each(Worker::terminate);
                    return Err(ExploreWorkersError::Start(e.as_string().unwrap_or_else(|| format!("{e:?}"))));
                }
            }
        }
        let workers = Rc::new(workers);
        let mut listeners = Vec::with_capacity(n);
        for (index, worker) in workers.iter().enumerate() {
            let messages = {
                let (on_message, all) = (on_message.clone(), workers.clone());
                Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                    let data = e.data();
                    if let Some(text) = data.as_string() {
                        return on_message(index, FromWorker::from_json(&text));
                    }
                    // A batch of claims: passed on as it is, unread.
                    for (other, w) in all.iter().enumerate() {
                        if other != index {
                            let _ = w.post_message(&data);
                        }
                    }
                })
            };
            let errors = {
                let on_message = on_message.clone();
                Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
                    e.prevent_default();
                    let what = if e.message().is_empty() { format!("its script {WORKER_SCRIPT} did not load") } else { e.message() };
                    on_message(index, Ok(FromWorker::Failed { error: format!("worker {} stopped: {what}", index + 1) }));
                })
            };
            worker.set_onmessage(Some(messages.as_ref().unchecked_ref()));
            worker.set_onerror(Some(errors.as_ref().unchecked_ref()));
            listeners.push((messages, errors));
        }
        Ok(Workers { workers, _listeners: listeners })
    }

    /// Sends worker `index` a message.
    pub fn send(&self, index: usize, message: &ToWorker) {
        if let Some(w) = self.workers.get(index) {
            let _ = w.post_message(&JsValue::from_str(&message.to_json()));
        }
    }

    /// How many workers run.
    pub fn len(&self) -> usize {
        self.workers.len()
    }

    /// True with no workers.
    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        for w in self.workers.iter() {
            w.set_onmessage(None);
            w.set_onerror(None);
            w.terminate();
        }
    }
}

/// How many workers this device can run side by side (logical cores, at
/// most `limit`, at least 1).
pub fn cores(limit: usize) -> usize {
    let n = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (n as usize).clamp(1, limit.max(1))
}
