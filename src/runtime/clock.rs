//! Time for the runtime's driver: a wall clock for real model providers (a
//! scripted run's time is virtual and lives in `runtime::world`, so it is
//! byte-for-byte repeatable in tests and in the browser alike).
//!
//! Owns reading the host's time. Waiting (pacing) is `model::sleep::Sleeper`,
//! shared with the providers' retry backoff. It must not decide what
//! happens at a time: the scheduler and the agents do.

use crate::protocol::Millis;

/// A wall clock, for runs on a real model (a scripted run's time is
/// virtual: `runtime::world` moves it by each turn's seeded cost).
pub trait Clock {
    /// The current time since the run began.
    fn now(&self) -> Millis;
}
