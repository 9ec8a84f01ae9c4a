//! Small ordered maps and sets kept as one sorted vector (`SmallMap`,
//! `SmallSet`): for the per-agent and per-request tables of a fold the
//! explorer copies at every state (the invariant checker, the property
//! monitor), which hold a handful of entries. A `BTreeMap` with one entry
//! allocates a whole node of eleven; a copy of a `SmallMap` allocates
//! exactly its entries (measured: `examples/node_bytes.rs`, README "The
//! explorer's speed"). Iteration is in key order, as a `BTreeMap`'s.
//!
//! Owns only the container; it must not know what it holds. Lookups are
//! binary searches, inserts and removes move the entries after them: meant
//! for tens of entries. A map that grows past [`SPILL_AT`] entries (a
//! table that grows with the run, read by the first draw of a long one)
//! moves them into a `BTreeMap` and keeps them there.

use std::collections::BTreeMap;
use std::fmt;
use std::hash::{Hash, Hasher};

/// Above this many entries a `SmallMap` keeps them in a `BTreeMap`: a
/// sorted vector's insert moves every entry after it, which for a table
/// that grows with the run (the checker's requests of a 100,000-event
/// run, thousands of them) cost more than the rest of the checker.
pub const SPILL_AT: usize = 64;

/// An ordered map as a vector sorted by key (see the module's doc), or as
/// a `BTreeMap` once it holds more than [`SPILL_AT`] entries. Which one it
/// is does not show: equality, hashing, `Debug` and iteration read the
/// entries in key order either way.
#[derive(Clone)]
pub struct SmallMap<K, V>(Entries<K, V>);

/// Where a `SmallMap` keeps its entries.
#[derive(Clone)]
enum Entries<K, V> {
    /// At most `SPILL_AT` entries (more only until the insert that spills).
    Few(Vec<(K, V)>),
    /// Spilled: it stays a tree even if removes shrink it again.
    Many(BTreeMap<K, V>),
}

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap(Entries::Few(Vec::new()))
    }
}

impl<K: Ord, V> SmallMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        SmallMap::default()
    }

    /// The value under `key`.
    pub fn get(&self, key: &K) -> Option<&V> {
        match &self.0 {
            Entries::Few(v) => find(v, key).ok().map(|i| &v[i].1),
            Entries::Many(t) => t.get(key),
        }
    }

    /// The value under `key`, to change.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        match &mut self.0 {
            Entries::Few(v) => find(v, key).ok().map(|i| &mut v[i].1),
            Entries::Many(t) => t.get_mut(key),
        }
    }

    /// True when `key` has a value.
    pub fn contains_key(&self, key: &K) -> bool {
        self.get(key).is_some()
    }

    /// Puts `value` under `key`; returns the value it replaced.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match &mut self.0 {
            Entries::Few(v) => match find(v, &key) {
                Ok(i) => Some(std::mem::replace(&mut v[i].1, value)),
                Err(i) => {
                    v.insert(i, (key, value));
                    self.spill_if_full();
                    None
                }
            },
            Entries::Many(t) => t.insert(key, value),
        }
    }

    /// Takes the value under `key` out.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        match &mut self.0 {
            Entries::Few(v) => find(v, key).ok().map(|i| v.remove(i).1),
            Entries::Many(t) => t.remove(key),
        }
    }

    /// The value under `key`, made with `make` if there is none.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        if matches!(&self.0, Entries::Few(v) if v.len() >= SPILL_AT && find(v, &key).is_err()) {
            self.spill();
        }
        match &mut self.0 {
            Entries::Few(v) => {
                let i = match find(v, &key) {
                    Ok(i) => i,
                    Err(i) => {
                        v.insert(i, (key, make()));
                        i
                    }
                };
                &mut v[i].1
            }
            Entries::Many(t) => t.entry(key).or_insert_with(make),
        }
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        let (few, many) = match &self.0 {
            Entries::Few(v) => (Some(v.iter().map(|(k, v)| (k, v))), None),
            Entries::Many(t) => (None, Some(t.iter())),
        };
        few.into_iter().flatten().chain(many.into_iter().flatten())
    }

    /// The entries in key order, values to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut V)> {
        let (few, many) = match &mut self.0 {
            Entries::Few(v) => (Some(v.iter_mut().map(|(k, v)| (&*k, v))), None),
            Entries::Many(t) => (None, Some(t.iter_mut())),
        };
        few.into_iter().flatten().chain(many.into_iter().flatten())
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        match &self.0 {
            Entries::Few(v) => v.len(),
            Entries::Many(t) => t.len(),
        }
    }

    /// True with no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves the entries into a tree once there are more than `SPILL_AT`.
    fn spill_if_full(&mut self) {
        if matches!(&self.0, Entries::Few(v) if v.len() > SPILL_AT) {
            self.spill();
        }
    }

    /// Moves the entries into a tree (sorted and without repeats: the tree
    /// is built in order).
    fn spill(&mut self) {
        if let Entries::Few(v) = &mut self.0 {
            let tree = std::mem::take(v).into_iter().collect();
            self.0 = Entries::Many(tree);
        }
    }
}

fn find<K: Ord, V>(entries: &[(K, V)], key: &K) -> Result<usize, usize> {
    entries.binary_search_by(|(k, _)| k.cmp(key))
}

impl<K: Ord + PartialEq, V: PartialEq> PartialEq for SmallMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<K: Ord + Eq, V: Eq> Eq for SmallMap<K, V> {}

/// Hashes as the sorted vector it was before it could spill (its length,
/// then each entry), whichever way it keeps them.
impl<K: Ord + Hash, V: Hash> Hash for SmallMap<K, V> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        for entry in self.iter() {
            entry.hash(state);
        }
    }
}

/// Prints as the sorted vector it was before it could spill.
impl<K: Ord + fmt::Debug, V: fmt::Debug> fmt::Debug for SmallMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct List<'a, K, V>(&'a SmallMap<K, V>);
        impl<K: Ord + fmt::Debug, V: fmt::Debug> fmt::Debug for List<'_, K, V> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.0.iter()).finish()
            }
        }
        f.debug_tuple("SmallMap").field(&List(self)).finish()
    }
}

/// An ordered set as a sorted vector (see the module's doc).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SmallSet<K>(Vec<K>);

impl<K> Default for SmallSet<K> {
    fn default() -> Self {
        SmallSet(Vec::new())
    }
}

impl<K: Ord> SmallSet<K> {
    /// An empty set.
    pub fn new() -> Self {
        SmallSet(Vec::new())
    }

    /// True when `key` is in.
    pub fn contains(&self, key: &K) -> bool {
        self.0.binary_search(key).is_ok()
    }

    /// Adds `key`; true if it was not in.
    pub fn insert(&mut self, key: K) -> bool {
        match self.0.binary_search(&key) {
            Ok(_) => false,
            Err(i) => {
                self.0.insert(i, key);
                true
            }
        }
    }

    /// Takes `key` out; true if it was in.
    pub fn remove(&mut self, key: &K) -> bool {
        match self.0.binary_search(key) {
            Ok(i) => {
                self.0.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    /// The keys in order.
    pub fn iter(&self) -> std::slice::Iter<'_, K> {
        self.0.iter()
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True with no key.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K: Ord> FromIterator<K> for SmallSet<K> {
    fn from_iter<I: IntoIterator<Item = K>>(items: I) -> Self {
        let mut keys: Vec<K> = items.into_iter().collect();
        keys.sort();
        keys.dedup();
        SmallSet(keys)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use std::hash::{DefaultHasher, Hash, Hasher};

    use super::{SmallMap, SmallSet, SPILL_AT};

    /// A seeded sequence of small numbers (no clock, no global state).
    fn steps(seed: u64, n: usize) -> Vec<u8> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 59) as u8
            })
            .collect()
    }

    #[test]
    fn a_small_map_answers_as_a_btree_map_does_under_any_inserts_and_removes() {
        for seed in 0..20 {
            let mut small = SmallMap::new();
            let mut tree = BTreeMap::new();
            for (i, k) in steps(seed, 200).into_iter().enumerate() {
                if i % 3 == 0 {
                    assert_eq!(small.remove(&k), tree.remove(&k));
                } else if i % 3 == 1 {
                    assert_eq!(small.insert(k, i), tree.insert(k, i));
                } else {
                    *small.get_or_insert_with(k, || 0) += 1;
                    *tree.entry(k).or_insert(0) += 1;
                }
                assert_eq!(small.get(&k), tree.get(&k));
                assert_eq!(small.contains_key(&k), tree.contains_key(&k));
                assert_eq!(small.len(), tree.len());
                assert!(small.iter().eq(tree.iter()), "the same entries in the same order");
            }
        }
    }

    #[test]
    fn a_map_past_its_spill_size_answers_as_a_btree_map_does() {
        // Keys up to 255: the map crosses `SPILL_AT` and keeps changing.
        for seed in 0..10 {
            let mut small = SmallMap::new();
            let mut tree = BTreeMap::new();
            let keys: Vec<u16> = steps(seed, 600).chunks(2).map(|p| u16::from(p[0]) * 8 + u16::from(p[1] % 8)).collect();
            for (i, k) in keys.into_iter().enumerate() {
                match i % 5 {
                    0 => assert_eq!(small.remove(&k), tree.remove(&k)),
                    1 | 2 => assert_eq!(small.insert(k, i), tree.insert(k, i)),
                    _ => {
                        *small.get_or_insert_with(k, || 0) += 1;
                        *tree.entry(k).or_insert(0) += 1;
                    }
                }
                if let Some(v) = small.get_mut(&k) {
                    *v += 1;
                }
                if let Some(v) = tree.get_mut(&k) {
                    *v += 1;
                }
                assert_eq!(small.get(&k), tree.get(&k));
                assert_eq!(small.len(), tree.len());
                assert!(small.iter().eq(tree.iter()), "the same entries in the same order");
            }
            assert!(tree.len() > SPILL_AT, "seed {seed} spilled");
            for (_, v) in small.iter_mut() {
                *v *= 2;
            }
            assert!(small.iter().map(|(k, v)| (*k, *v)).eq(tree.iter().map(|(k, v)| (*k, v * 2))));
        }
    }

    fn hash_of(map: &SmallMap<u16, u16>) -> u64 {
        let mut h = DefaultHasher::new();
        map.hash(&mut h);
        h.finish()
    }

    #[test]
    fn a_spilled_map_equals_hashes_and_prints_as_the_vector_it_would_be() {
        let mut spilled = SmallMap::new();
        for k in 0..(SPILL_AT as u16 + 10) {
            spilled.insert(k, k * 3);
        }
        for k in 5..(SPILL_AT as u16 + 10) {
            spilled.remove(&k);
        }
        let mut few = SmallMap::new();
        for k in (0..5).rev() {
            *few.get_or_insert_with(k, || 0) += k * 3;
        }
        assert_eq!(spilled, few);
        assert_eq!(hash_of(&spilled), hash_of(&few));
        let as_vec: Vec<(u16, u16)> = (0..5).map(|k| (k, k * 3)).collect();
        let mut h = DefaultHasher::new();
        as_vec.hash(&mut h);
        assert_eq!(hash_of(&few), h.finish(), "hashed as the sorted vector it was before");
        assert_eq!(format!("{spilled:?}"), format!("SmallMap({as_vec:?})"));
        few.insert(9, 0);
        assert_ne!(spilled, few);
    }

    #[test]
    fn a_small_set_answers_as_a_btree_set_does_under_any_inserts_and_removes() {
        for seed in 0..20 {
            let mut small = SmallSet::new();
            let mut tree = BTreeSet::new();
            for (i, k) in steps(seed, 200).into_iter().enumerate() {
                if i % 2 == 0 {
                    assert_eq!(small.remove(&k), tree.remove(&k));
                } else {
                    assert_eq!(small.insert(k), tree.insert(k));
                }
                assert_eq!(small.contains(&k), tree.contains(&k));
                assert!(small.iter().eq(tree.iter()), "the same keys in the same order");
            }
        }
        let collected: SmallSet<u8> = [3, 1, 3, 2].into_iter().collect();
        assert!(collected.iter().copied().eq([1, 2, 3]));
    }
}
