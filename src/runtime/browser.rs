//! The browser host: agent tasks on `spawn_local`, pacing with `setTimeout`,
//! and the virtual clock, so a scripted run in a tab produces the very trace
//! a native test does.
//!
//! Owns the wasm32 glue only.

use std::rc::Rc;

use super::clock::{Sleeper, VirtualClock};
use super::executor::Spawner;
use super::Host;
use crate::model::LocalBoxFuture;

/// Runs tasks with `wasm_bindgen_futures::spawn_local`.
#[derive(Debug, Default, Clone, Copy)]
pub struct SpawnLocal;

impl Spawner for SpawnLocal {
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        wasm_bindgen_futures::spawn_local(task);
    }
}

/// Waits with `setTimeout`.
#[derive(Debug, Default, Clone, Copy)]
pub struct TimeoutSleeper;

impl Sleeper for TimeoutSleeper {
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(gloo_timers::future::TimeoutFuture::new(ms.min(u32::MAX as u64) as u32))
    }
}

/// The host a browser run uses.
pub fn host() -> Host {
    Host { spawner: Rc::new(SpawnLocal), clock: Rc::new(VirtualClock::new()), sleeper: Rc::new(TimeoutSleeper) }
}
