//! Time for the runtime: a virtual clock that each turn advances by a seeded
//! cost (so a scripted run is byte-for-byte repeatable, in tests and in the
//! browser alike), or a wall clock for real model providers.
//!
//! Owns "what time is it". Waiting (pacing) is `model::sleep::Sleeper`,
//! shared with the providers' retry backoff. It must not decide what
//! happens at a time: the scheduler and the agents do.

use std::cell::Cell;
use std::rc::Rc;

use crate::protocol::Millis;

/// The runtime's notion of now.
pub trait Clock {
    /// The current time since the run began.
    fn now(&self) -> Millis;
    /// Moves virtual time forward by `ms` (a wall clock ignores this). Time
    /// stops at the end of `u64` milliseconds rather than wrapping around.
    fn advance(&self, ms: u64);
}

/// Time that moves only when told to.
#[derive(Debug, Default, Clone)]
pub struct VirtualClock(Rc<Cell<u64>>);

impl VirtualClock {
    /// A clock at zero.
    pub fn new() -> Self {
        VirtualClock::default()
    }
}

impl Clock for VirtualClock {
    fn now(&self) -> Millis {
        Millis(self.0.get())
    }
    fn advance(&self, ms: u64) {
        self.0.set(self.0.get().saturating_add(ms));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_time_moves_only_when_advanced() {
        let c = VirtualClock::new();
        assert_eq!(c.now(), Millis(0));
        c.advance(250);
        c.advance(5);
        assert_eq!(c.now(), Millis(255));
        let shared = c.clone();
        shared.advance(1);
        assert_eq!(c.now(), Millis(256), "clones share one clock");
    }

    #[test]
    fn advancing_past_the_end_of_time_stops_there_instead_of_wrapping() {
        let c = VirtualClock::new();
        c.advance(1 << 63);
        c.advance(1 << 63);
        assert_eq!(c.now(), Millis(u64::MAX));
        c.advance(u64::MAX);
        assert_eq!(c.now(), Millis(u64::MAX), "still the end, not a time before it");
    }
}
