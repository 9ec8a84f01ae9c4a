//! Canonical hashes remembered for values that do not change (a turn of a
//! conversation, a whole conversation, what an agent holds between turns,
//! the workspace's files): [`CanonMemo`], keyed by what a canon can
//! rewrite in the value (`Canon::key_for`), and whether the value names
//! each renamed teammate.
//!
//! Owns the remembering only: how a text is hashed, and what a key holds,
//! are the canon's. It must not hash anything itself.

use std::hash::{Hash, Hasher};

use super::Canon;

/// A canonical hash remembered for a value that never changes (a turn of a
/// conversation, a whole conversation, a workspace's files, an agent):
/// under the last [`MEMO_KEYS`] canon keys it was asked for
/// ([`Canon::key_for`] of its hex windows), so a state whose canon differs
/// only by requests the value does not mention finds it. Shared between
/// clones of the value; a value that changes takes a fresh one. Never part
/// of what makes two values equal.
#[derive(Debug, Default)]
pub struct CanonMemo {
    windows: std::sync::OnceLock<Box<[u32]>>,
    known: std::sync::Mutex<Known>,
}

/// What a [`CanonMemo`] has learnt, behind one lock.
#[derive(Debug, Default)]
struct Known {
    /// The hashes under the last keys asked, newest first.
    hashes: [Option<(u64, u64)>; MEMO_KEYS],
    /// Whether the value holds a teammate's name (by the name's hash,
    /// `Canon::name_keys`), for each name a canon renamed when it asked:
    /// a text that names no renamed teammate keeps its key when the
    /// teammates' ranks swap.
    mentions: Vec<(u64, bool)>,
}

impl Known {
    fn mention(&self, key: u64) -> Option<bool> {
        self.mentions.iter().find(|(k, _)| *k == key).map(|(_, yes)| *yes)
    }
}

/// How many canon keys a [`CanonMemo`] remembers a hash under. A teammate
/// with a twin is asked under three in turn: its class's shared name while
/// the twins are ranked (`World::symmetric_names`), then its rank's name,
/// which swaps as the twins move; with two, each ask forgot the next one.
pub const MEMO_KEYS: usize = 4;

/// A [`CanonMemo`] shared between clones of a value that holds it: equal
/// to every other and hashing as nothing, so it never tells two values
/// apart. The value takes a fresh one whenever it changes.
#[derive(Debug, Clone, Default)]
pub struct SharedMemo(pub std::sync::Arc<CanonMemo>);

impl PartialEq for SharedMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for SharedMemo {}

impl Hash for SharedMemo {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

impl CanonMemo {
    /// The value's hex windows (`collect` pushes those of every text the
    /// value hashes with `Canon::hash_text`), computed once.
    pub fn windows(&self, collect: impl FnOnce(&mut Vec<u32>)) -> &[u32] {
        self.windows.get_or_init(|| {
            let mut out = Vec::new();
            collect(&mut out);
            out.sort_unstable();
            out.dedup();
            out.into_boxed_slice()
        })
    }

    /// Whether the value holds `name` (`test` reads its texts),
    /// remembered under `key`, the name's hash.
    pub fn mentions(&self, key: u64, name: &str, test: impl FnOnce(&str) -> bool) -> bool {
        if let Some(yes) = self.known.lock().ok().and_then(|known| known.mention(key)) {
            return yes;
        }
        // Asked without the lock: `test` may ask other memos.
        let yes = test(name);
        if let Ok(mut known) = self.known.lock() {
            known.mentions.push((key, yes));
        }
        yes
    }

    /// The value's hash under `canon`: remembered, or `compute`d (and then
    /// remembered). `collect` gives the value's hex windows (see
    /// [`CanonMemo::windows`]); `mentions` says whether the value holds a
    /// name anywhere a text `compute` hands to `Canon::hash_text` could
    /// (a substring of one; true when unsure), asked once per name.
    pub fn hash(
        &self,
        canon: &Canon,
        collect: impl FnOnce(&mut Vec<u32>),
        mentions: impl Fn(&str) -> bool,
        compute: impl FnOnce() -> u64,
    ) -> u64 {
        let windows = self.windows(collect);
        let fallback = || canon.fingerprint().rotate_left(1) ^ 0x0DD;
        // The key and the lookup under one lock when every name has been
        // asked about before (the usual case).
        let mut key = None;
        if let Ok(known) = self.known.lock() {
            let mut unknown = false;
            let k = canon.key_for(windows, |k| {
                known.mention(canon.name_keys[k]).unwrap_or_else(|| {
                    unknown = true;
                    true
                })
            });
            if !unknown {
                let k = k.unwrap_or_else(fallback);
                if let Some((_, h)) = known.hashes.iter().flatten().find(|(key, _)| *key == k) {
                    return *h;
                }
                key = Some(k);
            }
        }
        let key = key.unwrap_or_else(|| {
            canon.key_for(windows, |k| self.mentions(canon.name_keys[k], &canon.names[k].0, &mentions)).unwrap_or_else(fallback)
        });
        if let Some(h) = self.known.lock().ok().and_then(|known| known.hashes.iter().flatten().find(|(k, _)| *k == key).map(|(_, h)| *h)) {
            return h;
        }
        let value = compute();
        if let Ok(mut known) = self.known.lock() {
            known.hashes.rotate_right(1);
            known.hashes[0] = Some((key, value));
        }
        value
    }
}
