//! A small single-threaded executor for native tests and benchmarks: tasks
//! are polled in the order they were woken, so a run is repeatable. The
//! browser uses `wasm_bindgen_futures::spawn_local` instead, through the same
//! `Spawner` trait.
//!
//! Owns task polling only; what runs when is the scheduler's decision.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Wake, Waker};

use crate::model::LocalBoxFuture;

/// Starts a task that runs on the current thread.
pub trait Spawner {
    /// Runs `task` to completion in the background.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
}

type Slot = Option<Pin<Box<dyn Future<Output = ()>>>>;

/// Task ids woken since the last poll. `Waker` must be `Send + Sync`, so the
/// queue is behind a mutex even though only one thread ever touches it.
#[derive(Default)]
struct WakeQueue(Mutex<VecDeque<usize>>);

impl WakeQueue {
    /// The queue; a panic elsewhere while it was held (a poisoned lock)
    /// leaves a plain list of ids, still good to use.
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<usize>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

struct TaskWaker {
    id: usize,
    queue: Arc<WakeQueue>,
}

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        let mut q = self.queue.lock();
        if !q.contains(&self.id) {
            q.push_back(self.id);
        }
    }
}

/// A deterministic, single-threaded executor.
#[derive(Clone, Default)]
pub struct LocalExecutor {
    tasks: Rc<RefCell<Vec<Slot>>>,
    queue: Arc<WakeQueue>,
}

impl LocalExecutor {
    /// An executor with no tasks.
    pub fn new() -> Self {
        LocalExecutor::default()
    }

    /// Polls woken tasks until none is left to poll; returns how many polls ran.
    pub fn run_until_stalled(&self) -> usize {
        let mut polls = 0;
        loop {
            let next = self.queue.lock().pop_front();
            let Some(id) = next else { return polls };
            let task = self.tasks.borrow_mut()[id].take();
            let Some(mut task) = task else { continue };
            let waker = Waker::from(Arc::new(TaskWaker { id, queue: self.queue.clone() }));
            polls += 1;
            if task.as_mut().poll(&mut Context::from_waker(&waker)).is_pending() {
                self.tasks.borrow_mut()[id] = Some(task);
            }
        }
    }

    /// How many tasks have not finished.
    pub fn live_tasks(&self) -> usize {
        self.tasks.borrow().iter().filter(|t| t.is_some()).count()
    }

    /// Runs one future to completion on this executor, with the other tasks.
    /// Returns `None` if everything stalled before it finished.
    pub fn block_on<T: 'static>(&self, fut: impl Future<Output = T> + 'static) -> Option<T> {
        let out = Rc::new(RefCell::new(None));
        let sink = out.clone();
        self.spawn(Box::pin(async move {
            *sink.borrow_mut() = Some(fut.await);
        }));
        self.run_until_stalled();
        let result = out.borrow_mut().take();
        result
    }
}

impl Spawner for LocalExecutor {
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        let id = {
            let mut tasks = self.tasks.borrow_mut();
            tasks.push(Some(task));
            tasks.len() - 1
        };
        self.queue.lock().push_back(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::task::Poll;

    #[test]
    fn spawned_tasks_run_to_completion_in_spawn_order() {
        let ex = LocalExecutor::new();
        let log = Rc::new(RefCell::new(Vec::new()));
        for i in 0..3 {
            let log = log.clone();
            ex.spawn(Box::pin(async move { log.borrow_mut().push(i) }));
        }
        ex.run_until_stalled();
        assert_eq!(*log.borrow(), [0, 1, 2]);
        assert_eq!(ex.live_tasks(), 0);
    }

    #[test]
    fn a_pending_task_stays_alive_until_woken() {
        struct Once(Rc<Cell<Option<Waker>>>, bool);
        impl Future for Once {
            type Output = ();
            fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
                if self.1 {
                    return Poll::Ready(());
                }
                self.1 = true;
                self.0.set(Some(cx.waker().clone()));
                Poll::Pending
            }
        }
        let ex = LocalExecutor::new();
        let slot = Rc::new(Cell::new(None));
        ex.spawn(Box::pin(Once(slot.clone(), false)));
        ex.run_until_stalled();
        assert_eq!(ex.live_tasks(), 1);
        slot.take().unwrap().wake();
        ex.run_until_stalled();
        assert_eq!(ex.live_tasks(), 0);
    }
}
