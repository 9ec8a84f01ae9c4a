//! Time for the runtime's driver: a wall clock for real model providers (a
//! scripted run's time is virtual and lives in `runtime::world`, so it is
//! byte-for-byte repeatable in tests and in the browser alike), and "wait a
//! little" (pacing).
//!
//! Owns reading the host's time and waiting. It must not decide what
//! happens at a time: the scheduler and the agents do.

use crate::model::LocalBoxFuture;
use crate::protocol::Millis;

/// A wall clock, for runs on a real model (a scripted run's time is
/// virtual: `runtime::world` moves it by each turn's seeded cost).
pub trait Clock {
    /// The current time since the run began.
    fn now(&self) -> Millis;
}

/// Waits for real time to pass (pacing in Live mode).
pub trait Sleeper {
    /// A future that completes after `ms` milliseconds.
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()>;
}

/// A sleeper that never waits: native tests and benchmarks.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoSleep;

impl Sleeper for NoSleep {
    fn sleep(&self, _ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(std::future::ready(()))
    }
}
