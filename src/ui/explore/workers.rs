//! The explorer's Web Workers, seen from the page: start one per share of a
//! search (`explore_worker_loader.js`, built by Trunk from
//! `src/bin/explore_worker.rs`), send each its slice, relay each worker's
//! claims (a typed array, `explore::job::ClaimBatch`) to the others without
//! reading them, hand every other message to whoever holds the workers now,
//! terminate them all on Stop or at the end.
//!
//! Workers can be started before a search needs them (spare workers, see
//! `ExploreUi::warm`): loading a worker compiles its wasm, which on a small
//! device competes with the page for the cores; done while the user is still
//! choosing the settings, it is not done while the search runs. A spare
//! worker's `ready` is remembered, so the search it is handed to
//! (`Workers::hand_to`) can send it its slice at once.
//!
//! Owns the workers' lifetimes and the JS glue; what a message means is
//! `explore::job`. It must not touch the session or draw anything.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker};

use crate::explore::job::{ExploreJobError, FromWorker, ToWorker};

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
type Listeners = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(Event)>);

/// One worker, its listeners, whether it said `ready`, and whether it
/// failed (it said `failed`, or did not load).
struct Started {
    worker: Worker,
    ready: Rc<Cell<bool>>,
    failed: Rc<Cell<bool>>,
    _listeners: Listeners,
}

/// Workers of the page: spare, or running one search. Dropping them
/// terminates them.
pub struct Workers {
    started: Vec<Started>,
    /// The same workers, for the claim relays (each passes a batch to all
    /// the others).
    all: Rc<RefCell<Vec<Worker>>>,
    /// Who reads their messages now.
    handler: Rc<RefCell<OnMessage>>,
}

impl Workers {
    /// Starts `n` workers; each message (and each worker's load or run
    /// error, as `Failed`) goes to `on_message` with the worker's index.
    pub fn start(n: usize, on_message: OnMessage) -> Result<Workers, ExploreWorkersError> {
        let mut workers = Workers { started: Vec::with_capacity(n), all: Rc::default(), handler: Rc::new(RefCell::new(on_message)) };
        workers.resize(n)?;
        Ok(workers)
    }

    /// Starts or terminates workers until `n` are left (the first `n` stay).
    pub fn resize(&mut self, n: usize) -> Result<(), ExploreWorkersError> {
        while self.started.len() > n {
            self.all.borrow_mut().pop();
            if let Some(gone) = self.started.pop() {
                end(&gone.worker);
            }
        }
        while self.started.len() < n {
            let worker =
                Worker::new(WORKER_SCRIPT).map_err(|e| ExploreWorkersError::Start(e.as_string().unwrap_or_else(|| format!("{e:?}"))))?;
            let index = self.started.len();
            let (ready, failed) = (Rc::new(Cell::new(false)), Rc::new(Cell::new(false)));
            let messages = {
                let (handler, all, ready, failed) = (self.handler.clone(), self.all.clone(), ready.clone(), failed.clone());
                Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                    let data = e.data();
                    if let Some(text) = data.as_string() {
                        let message = FromWorker::from_json(&text);
                        match message {
                            Ok(FromWorker::Ready) => ready.set(true),
                            Ok(FromWorker::Failed { .. }) | Err(_) => failed.set(true),
                            Ok(_) => {}
                        }
                        // Cloned out first: the handler may hand the workers on.
                        let handler = handler.borrow().clone();
                        return handler(index, message);
                    }
                    // A batch of claims: passed on as it is, unread.
                    for (other, w) in all.borrow().iter().enumerate() {
                        if other != index {
                            let _ = w.post_message(&data);
                        }
                    }
                })
            };
            let errors = {
                let (handler, failed) = (self.handler.clone(), failed.clone());
                // An error in the worker's code comes as an `ErrorEvent`
                // with its message; a script that did not load, as a plain
                // `Event`.
                Closure::<dyn FnMut(Event)>::new(move |e: Event| {
                    e.prevent_default();
                    failed.set(true);
                    let message = e.dyn_ref::<ErrorEvent>().map(ErrorEvent::message).filter(|m| !m.is_empty());
                    let what = message.unwrap_or_else(|| format!("its script {WORKER_SCRIPT} did not load"));
                    let handler = handler.borrow().clone();
                    handler(index, Ok(FromWorker::Failed { error: format!("worker {} stopped: {what}", index + 1) }));
                })
            };
            worker.set_onmessage(Some(messages.as_ref().unchecked_ref()));
            worker.set_onerror(Some(errors.as_ref().unchecked_ref()));
            self.all.borrow_mut().push(worker.clone());
            self.started.push(Started { worker, ready, failed, _listeners: (messages, errors) });
        }
        Ok(())
    }

    /// From now on the workers' messages go to `on_message`. Returns the
    /// indexes of the workers that already said `ready` (they will not say
    /// it again).
    pub fn hand_to(&self, on_message: OnMessage) -> Vec<usize> {
        *self.handler.borrow_mut() = on_message;
        self.started.iter().enumerate().filter(|(_, s)| s.ready.get()).map(|(i, _)| i).collect()
    }

    /// True when a worker failed (said so, or did not load).
    pub fn any_failed(&self) -> bool {
        self.started.iter().any(|s| s.failed.get())
    }

    /// How many workers said `ready`.
    pub fn ready(&self) -> usize {
        self.started.iter().filter(|s| s.ready.get()).count()
    }

    /// Sends worker `index` a message.
    pub fn send(&self, index: usize, message: &ToWorker) {
        if let Some(s) = self.started.get(index) {
            let _ = s.worker.post_message(&JsValue::from_str(&message.to_json()));
        }
    }

    /// Unhooks every worker's listeners: nothing they send from now on is
    /// read (the workers of a search that is over, until they are dropped).
    pub fn silence(&self) {
        self.started.iter().for_each(|s| unhook(&s.worker));
    }

    /// How many workers there are.
    pub fn len(&self) -> usize {
        self.started.len()
    }

    /// True with no workers.
    pub fn is_empty(&self) -> bool {
        self.started.is_empty()
    }
}

/// Unhooks a worker's listeners.
fn unhook(w: &Worker) {
    w.set_onmessage(None);
    w.set_onerror(None);
}

/// Terminates a worker after unhooking its listeners.
fn end(w: &Worker) {
    unhook(w);
    w.terminate();
}

impl Drop for Workers {
    fn drop(&mut self) {
        for s in &self.started {
            end(&s.worker);
        }
    }
}

/// How many workers this device can run side by side (logical cores, at
/// most `limit`, at least 1).
pub fn cores(limit: usize) -> usize {
    let n = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (n as usize).clamp(1, limit.max(1))
}
