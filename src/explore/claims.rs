//! Which states a search has seen, and — when several workers share one
//! search — which of them expands each state.
//!
//! A worker *claims* a state when it visits it first: the claim is the
//! state's hash and the depth (choices from the start) at which the worker
//! reached it. Workers that share a search publish the claims they make
//! ([`Claims::take_fresh`]) and learn each other's ([`Claims::learn`]); the
//! driver carries them (the page relays them between Web Workers; a test
//! hands them over directly). Claims are ranked: the shallower first, and
//! among claims at one depth an order that depends on the state's hash (so
//! no worker wins every tie and states where subtrees meet are spread over
//! the workers). A worker
//! - does not visit a state for which it knows a claim that ranks before its
//!   own would (another worker reached it no deeper), and
//! - does not expand a state it claimed once it knows a claim that ranks
//!   before its own (it *cedes* the state).
//!
//! Soundness: claims are totally ordered per state, and a worker only cedes
//! to a claim that ranks strictly before its own, so the best claim on a
//! state is never ceded: its worker expands the state (unless that worker's
//! search is cut by a bound, and then its report says incomplete and the
//! merged report too). So every state some worker visits is expanded by one
//! of them, and each at the smallest depth any of them reached it: depth
//! bounds cut no more than in one search, and a breadth-first search still
//! finds each example at its shortest depth (a state skipped for another's
//! claim was reached by that worker no deeper, along a path that broke the
//! same properties, since those are part of the state's hash). Claims that
//! arrive late only cost work (a state expanded twice), never a run.
//!
//! Owns the visited set and the claim rules; it must not walk the space (the
//! search does) or carry messages (the drivers do).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

/// One claim: a worker visited the state with this hash first, at this
/// depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// The state's hash.
    pub hash: u64,
    /// Choices from the start to it.
    pub depth: u32,
}

/// The visited set's hasher: its keys are already well-mixed 64-bit state
/// hashes, so hashing them again (SipHash, by default) is wasted work.
#[derive(Default)]
pub(crate) struct AsIs(u64);

impl Hasher for AsIs {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed; this covers any other use, byte by byte.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by state hashes, hashed as they are (`AsIs`).
pub(crate) type ByHash<V> = HashMap<u64, V, BuildHasherDefault<AsIs>>;

/// The best claim known on a state.
#[derive(Debug, Clone, Copy)]
struct Owner {
    depth: u32,
    worker: u32,
}

/// The states one worker has seen, and the best claim it knows on each.
pub(crate) struct Claims {
    me: u32,
    of: u32,
    owners: ByHash<Owner>,
    held: u64,
    sharing: bool,
    fresh: Vec<Claim>,
}

impl Claims {
    /// The claims of worker `me` of `of` (one worker: `0` of `1`).
    pub(crate) fn new(me: usize, of: usize) -> Claims {
        let of = of.max(1) as u32;
        Claims { me: me as u32 % of, of, owners: HashMap::default(), held: 0, sharing: false, fresh: Vec::new() }
    }

    /// A claim's rank on the state `hash`: smaller goes first.
    fn rank(&self, hash: u64, depth: u32, worker: u32) -> (u32, u32) {
        let turn = (hash % u64::from(self.of)) as u32;
        (depth, (worker + self.of - turn) % self.of)
    }

    /// Visits `hash` at `depth`: true when the state is new to this worker
    /// and no known claim ranks before its own (then it claims the state).
    pub(crate) fn visit(&mut self, hash: u64, depth: u32) -> bool {
        if !self.would_claim(hash, depth) {
            return false;
        }
        self.owners.insert(hash, Owner { depth, worker: self.me });
        self.held += 1;
        if self.sharing {
            self.fresh.push(Claim { hash, depth });
        }
        true
    }

    /// True when `visit(hash, depth)` would claim the state now: it changes
    /// nothing, so threads expanding one level can drop what is known
    /// already while the claims stand still.
    pub(crate) fn would_claim(&self, hash: u64, depth: u32) -> bool {
        self.owners.get(&hash).is_none_or(|o| o.worker != self.me && self.rank(hash, o.depth, o.worker) >= self.rank(hash, depth, self.me))
    }

    /// True while the state `hash` is this worker's to expand (it has not
    /// learnt of a claim that ranks before its own).
    pub(crate) fn ours(&self, hash: u64) -> bool {
        self.owners.get(&hash).is_none_or(|o| o.worker == self.me)
    }

    /// Every state this worker holds a claim on (tests compare searches).
    #[cfg(test)]
    pub(crate) fn hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.owners.keys().copied()
    }

    /// Takes in worker `from`'s claims.
    pub(crate) fn learn(&mut self, from: usize, claims: &[Claim]) {
        let from = from as u32;
        if from == self.me || from >= self.of {
            return;
        }
        for c in claims {
            let theirs = self.rank(c.hash, c.depth, from);
            match self.owners.get(&c.hash).copied() {
                Some(o) if self.rank(c.hash, o.depth, o.worker) <= theirs => {}
                Some(o) => {
                    if o.worker == self.me {
                        self.held = self.held.saturating_sub(1);
                    }
                    self.owners.insert(c.hash, Owner { depth: c.depth, worker: from });
                }
                None => {
                    self.owners.insert(c.hash, Owner { depth: c.depth, worker: from });
                }
            }
        }
    }

    /// From now on, claims are published (the states before are the same
    /// for every worker, so each already knows them).
    pub(crate) fn share(&mut self) {
        self.sharing = self.of > 1;
    }

    /// True once the search was dealt out and claims are shared.
    pub(crate) fn shared(&self) -> bool {
        self.sharing
    }

    /// The claims made since the last call.
    pub(crate) fn take_fresh(&mut self) -> Vec<Claim> {
        std::mem::take(&mut self.fresh)
    }

    /// The bytes the visited set holds: its table's buckets (a hash table
    /// keeps at most 7 of 8 buckets full), each a key, its claim and a
    /// control byte, and the claims not yet published. Deterministic: the
    /// same visits grow the table the same way.
    pub(crate) fn bytes(&self) -> u64 {
        let bucket = (std::mem::size_of::<(u64, Owner)>() + 1) as u64;
        let buckets = (self.owners.capacity() as u64 * 8).div_ceil(7);
        buckets * bucket + (self.fresh.capacity() * std::mem::size_of::<Claim>()) as u64
    }

    /// States this worker claimed and still holds: summed over the workers,
    /// nearly the distinct states of the whole search.
    pub(crate) fn held(&self) -> u64 {
        self.held
    }

    /// After the states reached so far were dealt out: `total` states of
    /// the last level, `share` of them this worker's. Worker 0 keeps the
    /// states before that level; every worker holds its own share only.
    pub(crate) fn dealt(&mut self, total: usize, share: usize) {
        if self.me == 0 {
            self.held = self.held.saturating_sub((total - share.min(total)) as u64);
        } else {
            self.held = share as u64;
        }
    }

    /// True for worker 0 (it keeps what every worker found before the
    /// search was dealt out).
    pub(crate) fn first(&self) -> bool {
        self.me == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_visits_a_state_once() {
        let mut c = Claims::new(0, 1);
        assert!(c.visit(7, 3));
        assert!(!c.visit(7, 1));
        assert_eq!(c.held(), 1);
    }

    #[test]
    fn a_state_another_worker_reached_no_deeper_is_skipped_and_a_shallower_claim_makes_a_worker_cede() {
        let mut a = Claims::new(0, 2);
        a.share();
        a.learn(1, &[Claim { hash: 10, depth: 4 }]);
        assert!(!a.visit(10, 5), "reached no deeper by worker 1: skipped");
        assert!(a.visit(11, 5));
        assert!(a.ours(11));
        a.learn(1, &[Claim { hash: 11, depth: 4 }]);
        assert!(!a.ours(11), "worker 1 reached it shallower: ceded");
        assert_eq!(a.held(), 0);
        a.learn(1, &[Claim { hash: 12, depth: 9 }]);
        assert!(a.visit(12, 3), "worker 1 reached it deeper: visited again");
        assert_eq!(a.take_fresh(), vec![Claim { hash: 11, depth: 5 }, Claim { hash: 12, depth: 3 }]);
    }

    #[test]
    fn at_one_depth_exactly_one_of_the_workers_expands_a_state() {
        for hash in 0..8u64 {
            let mut a = Claims::new(0, 2);
            let mut b = Claims::new(1, 2);
            a.share();
            b.share();
            assert!(a.visit(hash, 2) && b.visit(hash, 2));
            a.learn(1, &b.take_fresh());
            b.learn(0, &a.take_fresh());
            assert!(a.ours(hash) != b.ours(hash), "hash {hash}: one owner");
            assert_eq!(a.held() + b.held(), 1);
        }
    }
}
