//! Where request ids come from: a source of UUID v4 bytes, and the seeded,
//! deterministic source the runtime uses.
//!
//! Owns randomness only. Uniqueness against live requests is the tracker's
//! job (`Tracker::fresh_id`).

use super::message::RequestId;

/// A source of 16 random bytes for one UUID v4.
pub trait IdSource {
    /// The next 16 bytes.
    fn next_bytes(&mut self) -> [u8; 16];

    /// The next request id: the first 8 hex characters of a UUID v4 built
    /// from `next_bytes`.
    fn next_request_id(&mut self) -> RequestId {
        let uuid = uuid::Builder::from_random_bytes(self.next_bytes()).into_uuid();
        let mut buf = uuid::Uuid::encode_buffer();
        let hex = uuid.simple().encode_lower(&mut buf);
        RequestId::parse(&hex[..8]).expect("8 lowercase hex characters of a uuid")
    }
}

/// A seeded SplitMix64 generator: the same seed gives the same ids, so a run
/// can be replayed byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeededIds {
    state: u64,
}

impl SeededIds {
    /// A generator that starts from `seed`.
    pub fn new(seed: u64) -> Self {
        SeededIds { state: seed }
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl IdSource for SeededIds {
    fn next_bytes(&mut self) -> [u8; 16] {
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&self.next_u64().to_le_bytes());
        out[8..].copy_from_slice(&self.next_u64().to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_gives_the_same_ids() {
        let a: Vec<_> = (0..5)
            .map({
                let mut g = SeededIds::new(42);
                move |_| g.next_request_id()
            })
            .collect();
        let mut g = SeededIds::new(42);
        let b: Vec<_> = (0..5).map(|_| g.next_request_id()).collect();
        assert_eq!(a, b);
        let mut other = SeededIds::new(43);
        assert_ne!(other.next_request_id(), a[0]);
    }

    #[test]
    fn a_zero_seed_gives_numbers_as_varied_as_any_other() {
        // The retry jitter is seeded from the run's seed, which may be 0.
        let mut g = SeededIds::new(0);
        let xs: Vec<u64> = (0..4).map(|_| g.next_u64()).collect();
        assert!(xs.iter().all(|&x| x != 0), "{xs:?}");
        assert!(xs.windows(2).all(|w| w[0] != w[1]), "{xs:?}");
    }

    #[test]
    fn request_ids_are_the_head_of_a_version_4_uuid() {
        let mut g = SeededIds::new(7);
        let bytes = g.clone().next_bytes();
        let uuid = uuid::Builder::from_random_bytes(bytes).into_uuid();
        assert_eq!(uuid.get_version_num(), 4);
        assert_eq!(g.next_request_id().as_str(), &uuid.simple().to_string()[..8]);
    }
}
