//! Time as the core sees it: a count of milliseconds handed in by the caller.
//!
//! The core never reads a clock; the runtime (or a test) passes `Millis` into
//! every operation, which keeps the core deterministic and replayable.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Milliseconds since the start of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Millis(pub u64);

impl Millis {
    /// The time elapsed from `earlier` to `self`, zero if `earlier` is later.
    pub fn since(self, earlier: Millis) -> Millis {
        Millis(self.0.saturating_sub(earlier.0))
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:03}s", self.0 / 1000, self.0 % 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_time_never_goes_negative() {
        assert_eq!(Millis(1500).since(Millis(500)), Millis(1000));
        assert_eq!(Millis(500).since(Millis(1500)), Millis(0));
    }

    #[test]
    fn display_shows_seconds_with_milliseconds() {
        assert_eq!(Millis(61_005).to_string(), "61.005s");
    }
}
