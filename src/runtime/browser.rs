//! The browser host: the runtime's driver on `spawn_local`, pacing with
//! `setTimeout`, and virtual time for the scripted model, so a run in a tab
//! produces the very trace a native test does.
//!
//! Owns the wasm32 glue only.

use std::rc::Rc;

use super::clock::Clock;
use super::executor::Spawner;
use super::Host;
use crate::model::sleep::TimerSleeper;
use crate::model::LocalBoxFuture;
use crate::protocol::Millis;

/// Runs tasks with `wasm_bindgen_futures::spawn_local`.
#[derive(Debug, Default, Clone, Copy)]
pub struct SpawnLocal;

impl Spawner for SpawnLocal {
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        wasm_bindgen_futures::spawn_local(task);
    }
}

/// Real time since the run began, from `performance.now()`: for runs on a
/// real model, whose latency is worth seeing.
#[derive(Debug, Clone, Copy)]
pub struct WallClock {
    start: f64,
}

impl WallClock {
    /// A clock that reads zero now.
    pub fn start() -> Self {
        WallClock { start: performance_now() }
    }
}

fn performance_now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

impl Clock for WallClock {
    fn now(&self) -> Millis {
        Millis((performance_now() - self.start).max(0.0) as u64)
    }
}

/// The host a browser run uses: virtual time for the scripted model (so a
/// run repeats exactly), wall-clock time for a real one.
pub fn host() -> Host {
    Host { spawner: Rc::new(SpawnLocal), clock: None, sleeper: Rc::new(TimerSleeper) }
}

/// The host for a run on a real model: wall-clock time.
pub fn real_time_host() -> Host {
    Host { spawner: Rc::new(SpawnLocal), clock: Some(Rc::new(WallClock::start())), sleeper: Rc::new(TimerSleeper) }
}
