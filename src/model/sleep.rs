//! Waiting for time to pass: the one `Sleeper` trait, used both for the
//! backoff between HTTP attempts (`http`) and for pacing a Live run
//! (`runtime`), with a sleeper that never waits (native tests, benchmarks)
//! and one on `setTimeout` (wasm32).
//!
//! Owns "wait this long" only; what to wait for is the caller's business.
//! It lives in `model` because the dependencies point `runtime -> model`:
//! the runtime may use it from here, the model could not reach the runtime.

use super::LocalBoxFuture;

/// Waits for real time to pass.
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

/// Waits with `setTimeout` (through `gloo-timers`).
#[cfg(target_arch = "wasm32")]
#[derive(Debug, Default, Clone, Copy)]
pub struct TimerSleeper;

#[cfg(target_arch = "wasm32")]
impl Sleeper for TimerSleeper {
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(gloo_timers::future::TimeoutFuture::new(ms.min(u32::MAX as u64) as u32))
    }
}
