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
//! for tens of entries, not thousands.

/// An ordered map as a vector sorted by key (see the module's doc).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SmallMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap(Vec::new())
    }
}

impl<K: Ord, V> SmallMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        SmallMap(Vec::new())
    }

    fn find(&self, key: &K) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.cmp(key))
    }

    /// The value under `key`.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    /// The value under `key`, to change.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.find(key).ok().map(|i| &mut self.0[i].1)
    }

    /// True when `key` has a value.
    pub fn contains_key(&self, key: &K) -> bool {
        self.find(key).is_ok()
    }

    /// Puts `value` under `key`; returns the value it replaced.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    /// Takes the value under `key` out.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    /// The value under `key`, made with `make` if there is none.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key, make()));
                i
            }
        };
        &mut self.0[i].1
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The entries in key order, values to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut V)> {
        self.0.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True with no entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
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

    use super::{SmallMap, SmallSet};

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
