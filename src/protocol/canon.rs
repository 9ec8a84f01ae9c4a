//! Canonical hashing for the explorer: two states that differ only in what
//! cannot change what happens next — the time stamped on messages, and the
//! values of request ids (derived from where in the trace a request was
//! made), which of two agents asked first, the order two agents' turns
//! wait in — hash alike, so runs that reach the same situation by different
//! interleavings meet.
//!
//! With symmetry reduction, teammates configured alike (same role, same
//! task) are interchangeable too: each gets a canonical name by the rank of
//! its own state among its class, so two states that differ only by which
//! of two twins did what hash alike.
//!
//! Why that merges no state of the `twins` scenario, and why no sound
//! renaming can: a reduction is sound only if it merges a state `X` with
//! `σ(X)`, `σ` a permutation of the twins' names applied *everywhere* —
//! including every text the policy reads, since the scripted lead acts on
//! the order in which its prompt names teammates (it spawns them, asks
//! their shutdowns and reads their answers in that order). Every reachable
//! state of `twins` holds the scenario's prompt verbatim ("Spawn alice and
//! bob ..."), in the lead's conversation or in the prompts still to give,
//! and `σ` turns it into "Spawn bob and alice ...", which no reachable state
//! holds. So no reachable state is the renaming of another, and a sound
//! reduction has nothing to merge: the rank-based names hash the lead's
//! conversation with the renamed prompt, which tells the twins apart again
//! (measured: 4,770 distinct states with or without symmetry at 0 faults,
//! 37,586 at 1). Merging "twin A did x, twin B did y" with the swap would
//! need the lead's future not to depend on that order, which the policy does
//! not promise. Symmetry can pay off only where no text an agent reads
//! orders the twins (no scenario today); the renaming is kept for that case
//! and stays sound here (the explorer's tests check it gives the same
//! verdicts as no reduction).
//!
//! Hashes of texts that do not change (a turn of a conversation, a whole
//! conversation, the workspace's files) are remembered ([`CanonMemo`])
//! under a key of what the canon can rewrite in them: the renamed
//! teammates the text names (so a text that names none of them keeps its
//! key as their ranks swap), and the place of each request id that occurs in the text (an
//! id is eight lowercase hex characters, so the runs of eight such
//! characters in a text are the only places one can match). Two canons with
//! the same key hash the text alike, so the remembered hash is the one
//! `hash_text` would compute, while a state that only adds requests the text
//! does not mention finds it without reading the text again.
//!
//! Owns the rules of that abstraction: times are left out, each request id
//! is replaced by its place (by kind, requester, addressee and the
//! requester's own count, `Canon::of_requests`: not the global creation
//! order, which two orders of independent moves change) and each symmetric teammate's
//! name by its canonical name, wherever they appear (a tracker key, a
//! message field, a tool result's text, a delivered JSON message), and
//! collections keyed by name hash as unordered sets. It must not change
//! anything it hashes.

use std::hash::{Hash, Hasher};

mod memo;
mod scan;

pub use memo::{CanonMemo, SharedMemo, MEMO_KEYS};

pub use scan::id_windows;
use scan::{find_quote, hex8, hex_run, stamp_len, HEX_DIGIT, TIMESTAMP};

use super::bus::Held;
use super::fields::{FieldValue, Fields};
use super::message::Message;
use super::tracker::{Request, RequestKind, RequestStatus};
use super::{AgentName, Member, Millis, RequestId, Team};

/// A fast, stable, dependency-free hasher: eight bytes at a time with a
/// multiply and rotate (in the manner of rustc's FxHasher), the rest byte
/// by byte. The same on every platform and run (bytes are read little
/// endian), so the explorer's reports are deterministic.
#[derive(Debug, Clone, Copy)]
pub struct StableHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl StableHasher {
    /// The hash of whatever `feed` writes into a fresh hasher: one line for
    /// "hash this the way the explorer does".
    pub fn digest(feed: impl FnOnce(&mut StableHasher)) -> u64 {
        let mut h = StableHasher::default();
        feed(&mut h);
        h.finish()
    }

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        for b in chunks.remainder() {
            self.add(u64::from(*b));
        }
    }
}

impl Default for Canon {
    fn default() -> Self {
        Canon::new([])
    }
}

/// The request ids of a state in creation order, and the canonical names
/// of its symmetric teammates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canon {
    /// Each id's eight hex digits as a number (a request id is exactly
    /// eight lowercase hex characters, `RequestId::parse`), in creation
    /// order; an id that is not (none today) is kept as text in `odd`.
    ids: Vec<Id>,
    /// (name, canonical name), for teammates under symmetry reduction.
    names: Vec<(String, String)>,
    /// A hash of `ids` and `names`: two canons with the same fingerprint
    /// hash every text alike.
    print: u64,
    /// Each renamed teammate's name hashed, in `names`' order: how a
    /// [`CanonMemo`] remembers whether its value mentions the name.
    name_keys: Vec<u64>,
    /// Each renamed teammate's name and canonical name hashed, in `names`'
    /// order: what `key_for` adds for a name the text holds.
    pair_keys: Vec<u64>,
    /// The bytes a rewritten pattern can begin with: 1 for each such byte
    /// value, 0 for the rest (a table, so `hash_text` tests eight bytes
    /// with eight loads and an or).
    first: [u8; 256],
}

/// A request id as the canon matches it in text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Id {
    /// Eight lowercase hex digits, as their value.
    Hex(u32),
    /// Anything else, as written.
    Odd(String),
}

/// Hashes request `id` as its `place` among a canon's ids (`None`: not
/// one of them, hashed by value): the one encoding of `Canon::hash_id` and
/// of the requests in `Canon::hash_team`.
fn hash_place<H: Hasher>(place: Option<usize>, id: &RequestId, h: &mut H) {
    match place {
        Some(i) => (0xA5u8, i).hash(h),
        None => id.as_str().hash(h),
    }
}

impl Canon {
    /// Canonical names for these ids, in creation order.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a RequestId>) -> Self {
        let ids = ids
            .into_iter()
            .map(|id| {
                // Eight characters (`RequestId::parse`), read as bytes.
                match hex8(id.as_bytes()) {
                    Some(v) => Id::Hex(v),
                    None => Id::Odd(id.as_str().to_string()),
                }
            })
            .collect();
        let mut canon = Canon { ids, names: Vec::new(), print: 0, name_keys: Vec::new(), pair_keys: Vec::new(), first: [0; 256] };
        canon.index();
        canon
    }

    /// Canonical places for a team's requests (given in creation order)
    /// that do not depend on how different agents' moves interleaved: each
    /// request is placed by its kind, requester and addressee, then by how
    /// many requests of that kind the same requester made of the same
    /// addressee before it. Two orders of independent moves (alice asks the
    /// lead, bob asks the lead) create the same requests in a different
    /// global order — and with ids drawn from different trace positions —
    /// and this places them alike, so the states meet. Sound because
    /// nothing in a run reads the global creation order across different
    /// (kind, requester, addressee) triples or compares ids' values: a
    /// retry count reads one triple's requests in their order (kept), an
    /// addressee has at most one pending request of a kind under
    /// `one_pending_per_addressee`, and every text that names ids is hashed
    /// with each id written as its place, so a difference in what a text
    /// lists, or in what order, still tells states apart.
    pub fn of_requests<'a>(requests: impl IntoIterator<Item = &'a Request>) -> Self {
        let requests = requests.into_iter();
        // A tracker's requests come filtered (no lower bound), as many as its order.
        let (least, most) = requests.size_hint();
        let mut keyed: Vec<(RequestKind, &AgentName, &AgentName, usize, &RequestId)> = Vec::with_capacity(most.unwrap_or(least));
        for r in requests {
            let nth = keyed.iter().filter(|(k, from, to, _, _)| *k == r.kind && **from == r.requester && **to == r.addressee).count();
            keyed.push((r.kind, &r.requester, &r.addressee, nth, &r.id));
        }
        keyed.sort_by(|a, b| (a.0, a.1, a.2, a.3).cmp(&(b.0, b.1, b.2, b.3)));
        Canon::new(keyed.into_iter().map(|(_, _, _, _, id)| id))
    }

    /// The place of request `id` (`None`: not one of the canon's).
    fn place(&self, id: &RequestId) -> Option<usize> {
        // An id is eight characters (`RequestId::parse`), read as bytes:
        // no UTF-8 check on the explorer's every state.
        let bytes = id.as_bytes();
        let hex = hex8(bytes);
        self.ids.iter().position(|k| match k {
            Id::Hex(v) => hex == Some(*v),
            Id::Odd(o) => o.as_bytes() == bytes,
        })
    }

    /// Computes the fingerprints and the set of first bytes.
    fn index(&mut self) {
        let mut h = StableHasher::default();
        (&self.ids, &self.names).hash(&mut h);
        self.print = h.finish();
        self.name_keys = self.names.iter().map(|(n, _)| StableHasher::digest(|h| n.hash(h))).collect();
        self.pair_keys = self.names.iter().map(|pair| StableHasher::digest(|h| pair.hash(h))).collect();
        self.first = [0; 256];
        let mut mark = |b: u8| self.first[usize::from(b)] = 1;
        mark(TIMESTAMP.as_bytes()[0]);
        for id in &self.ids {
            match id {
                Id::Hex(v) => mark(b"0123456789abcdef"[(v >> 28) as usize]),
                Id::Odd(s) => s.as_bytes().first().copied().into_iter().for_each(&mut mark),
            }
        }
        for (n, _) in &self.names {
            n.as_bytes().first().copied().into_iter().for_each(&mut mark);
        }
    }

    /// The place of the id written at the start of `rest`, if one is.
    fn id_at(&self, rest: &[u8]) -> Option<(usize, usize)> {
        let hex = hex8(rest);
        self.ids.iter().enumerate().find_map(|(k, id)| match id {
            Id::Hex(v) if hex == Some(*v) => Some((k, 8)),
            Id::Odd(s) if rest.starts_with(s.as_bytes()) => Some((k, s.len())),
            _ => None,
        })
    }

    /// A key for how this canon hashes a text whose hex windows
    /// ([`id_windows`]) are `windows` and which holds the renamed
    /// teammates' names for which `mentions` (given the name's index in
    /// the canon's names) says true: two canons give a text the same hash
    /// when they give it the same key. The key holds those teammates with
    /// their canonical names and, for each window that is a request id,
    /// that id's place — all `hash_text` can read of the canon in that
    /// text (an id not among the windows never matches there, nor a name
    /// the text does not hold; a canon that renames no teammate the text
    /// holds hashes it as one that renames none: `hash_text`'s two ways
    /// rewrite the same places). `None` when the canon has an id that is
    /// not eight hex digits (then only the fingerprint will do).
    pub fn key_for(&self, windows: &[u32], mut mentions: impl FnMut(usize) -> bool) -> Option<u64> {
        if self.ids.iter().any(|id| matches!(id, Id::Odd(_))) {
            return None;
        }
        let mut h = StableHasher::default();
        0x4Bu8.hash(&mut h);
        for (k, pair) in self.pair_keys.iter().enumerate() {
            if mentions(k) {
                pair.hash(&mut h);
            }
        }
        0x4Cu8.hash(&mut h);
        for w in windows {
            if let Some(k) = self.ids.iter().position(|id| *id == Id::Hex(*w)) {
                (*w, k).hash(&mut h);
            }
        }
        Some(h.finish())
    }

    /// A hash of what this canon rewrites (request ids, renamed teammates):
    /// canons with the same fingerprint hash every text alike.
    pub fn fingerprint(&self) -> u64 {
        self.print
    }

    /// The same, with these teammates renamed (symmetry reduction).
    pub fn with_names(mut self, names: Vec<(String, String)>) -> Self {
        self.rename(names);
        self
    }

    /// Renames these teammates (symmetry reduction), in place: a canon
    /// is made at every state, and moving it costs a copy of its table.
    pub fn rename(&mut self, names: Vec<(String, String)>) {
        if names.is_empty() && self.names.is_empty() {
            return;
        }
        // Longest first, so a name inside another is never matched first.
        let mut names = names;
        names.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        self.names = names;
        self.index();
    }

    /// Hashes a name as its canonical name, if it has one.
    pub fn hash_name<H: Hasher>(&self, name: &AgentName, h: &mut H) {
        // Names are short: compared byte by byte inline, not by a call
        // to `memcmp` (a team-3 state hashes some forty names).
        let text = name.as_str().as_bytes();
        let same = |n: &str| n.len() == text.len() && n.bytes().zip(text).all(|(a, b)| a == *b);
        match self.names.iter().find(|(n, _)| same(n)) {
            Some((_, canonical)) => canonical.hash(h),
            None => name.as_str().hash(h),
        }
    }

    /// Hashes `items` as an unordered set: each into its own hasher, the
    /// results summed (so renaming cannot reorder what is hashed).
    pub fn hash_unordered<H: Hasher, T>(&self, items: impl IntoIterator<Item = T>, mut each: impl FnMut(&T, &mut StableHasher), h: &mut H) {
        let mut sum = 0u64;
        let mut count = 0usize;
        for item in items {
            let mut sub = StableHasher::default();
            each(&item, &mut sub);
            sum = sum.wrapping_add(sub.finish());
            count += 1;
        }
        (count, sum).hash(h);
    }

    /// Hashes a request id as its place (an unknown one by value).
    pub fn hash_id<H: Hasher>(&self, id: &RequestId, h: &mut H) {
        hash_place(self.place(id), id, h);
    }

    /// Hashes text with every `"timestamp": <digits>` left out, every known
    /// request id replaced by its place and every renamed teammate by its
    /// canonical name.
    pub fn hash_text<H: Hasher>(&self, text: &str, h: &mut H) {
        if self.names.is_empty() && !self.ids.iter().any(|id| matches!(id, Id::Odd(_))) {
            self.hash_text_ids(text, h);
        } else {
            self.hash_text_bytes(text, h);
        }
    }

    /// `hash_text` for any canon, byte by byte.
    fn hash_text_bytes<H: Hasher>(&self, text: &str, h: &mut H) {
        // One pass, left to right: at each byte that can begin a pattern,
        // the first pattern that matches there (a timestamp, then the ids in
        // creation order, then the names longest first) is rewritten.
        let bytes = text.as_bytes();
        let (mut i, mut literal) = (0, 0);
        while i < bytes.len() {
            let b = bytes[i];
            if self.first[usize::from(b)] == 0 {
                // On to the next byte that can begin a pattern.
                i = self.next_first(bytes, i + 1);
                continue;
            }
            let rest = &bytes[i..];
            // The second byte first: most quotes in a JSON text begin no
            // timestamp, and a call to compare the whole pattern costs more.
            let hit = if rest.get(1) == Some(&TIMESTAMP.as_bytes()[1]) && rest.starts_with(TIMESTAMP.as_bytes()) {
                Some((stamp_len(rest), None))
            } else if let Some((k, len)) = self.id_at(rest) {
                Some((len, Some((0xFEu8, k))))
            } else {
                self.names
                    .iter()
                    .position(|(n, _)| n.as_bytes().first() == Some(&b) && rest.starts_with(n.as_bytes()))
                    .map(|k| (self.names[k].0.len(), Some((0xFDu8, k))))
            };
            let Some((len, what)) = hit else {
                i += 1;
                continue;
            };
            h.write(&bytes[literal..i]);
            match what {
                None => 0xFCu8.hash(h),
                Some((0xFE, k)) => (0xFEu8, k).hash(h),
                Some((_, k)) => (0xFDu8, &self.names[k].1).hash(h),
            }
            i += len;
            literal = i;
        }
        h.write(&bytes[literal..]);
        h.write_u8(0xFF);
    }

    /// `hash_text` for a canon that renames no teammate and whose ids are
    /// all eight hex digits: the same patterns rewritten at the same places
    /// (so the same hash), found without reading every byte: the next
    /// timestamp from the next quote, the next id from the next run of
    /// eight hex digits (`hex_run`), the leftmost of the two rewritten.
    fn hash_text_ids<H: Hasher>(&self, text: &str, h: &mut H) {
        let bytes = text.as_bytes();
        let (mut i, mut literal) = (0, 0);
        // The next timestamp and id at `i` or later, once found (`None`:
        // none left); looked for again once `i` passes them.
        let mut stamp: Option<Option<usize>> = None;
        let mut id: Option<Option<(usize, usize)>> = None;
        loop {
            if stamp.is_some_and(|s| s.is_some_and(|at| at < i)) {
                stamp = None;
            }
            let next_stamp = *stamp.get_or_insert_with(|| self.find_timestamp(bytes, i));
            if id.is_some_and(|d| d.is_some_and(|(at, _)| at < i)) {
                id = None;
            }
            let next_id = *id.get_or_insert_with(|| self.find_id(bytes, i));
            let (at, len, what) = match (next_stamp, next_id) {
                (None, None) => break,
                (Some(s), Some((d, k))) if d < s => (d, 8, Some(k)),
                (None, Some((d, k))) => (d, 8, Some(k)),
                (Some(s), _) => (s, stamp_len(&bytes[s..]), None),
            };
            h.write(&bytes[literal..at]);
            match what {
                None => 0xFCu8.hash(h),
                Some(k) => (0xFEu8, k).hash(h),
            }
            i = at + len;
            literal = i;
        }
        h.write(&bytes[literal..]);
        h.write_u8(0xFF);
    }

    /// Where the next `"timestamp":` begins, at `from` or later.
    fn find_timestamp(&self, bytes: &[u8], mut from: usize) -> Option<usize> {
        while let Some(at) = find_quote(bytes, from) {
            if bytes[at..].starts_with(TIMESTAMP.as_bytes()) {
                return Some(at);
            }
            from = at + 1;
        }
        None
    }

    /// Where the next request id of this canon begins, at `from` or later,
    /// and its place (the first in creation order, as `id_at`).
    fn find_id(&self, bytes: &[u8], mut from: usize) -> Option<(usize, usize)> {
        if self.ids.is_empty() {
            return None;
        }
        while let Some((start, end)) = hex_run(bytes, from) {
            let mut value = 0u32;
            for (k, &b) in bytes[start..end].iter().enumerate() {
                value = (value << 4) | u32::from(HEX_DIGIT[usize::from(b)]);
                if k >= 7 {
                    if let Some(place) = self.ids.iter().position(|id| *id == Id::Hex(value)) {
                        return Some((start + k - 7, place));
                    }
                }
            }
            from = end;
        }
        None
    }

    /// The first position from `i` on whose byte can begin a pattern
    /// (`bytes.len()` if none): eight bytes tested at a time.
    fn next_first(&self, bytes: &[u8], mut i: usize) -> usize {
        let first = &self.first;
        let at = |b: u8| first[usize::from(b)];
        for w in bytes.get(i..).unwrap_or_default().chunks_exact(8) {
            if at(w[0]) | at(w[1]) | at(w[2]) | at(w[3]) | at(w[4]) | at(w[5]) | at(w[6]) | at(w[7]) != 0 {
                break;
            }
            i += 8;
        }
        while i < bytes.len() && at(bytes[i]) == 0 {
            i += 1;
        }
        i
    }

    /// A file protocol's typed fields: what an answer says beyond approve
    /// or reject (a verdict, a count), so two states whose messages differ
    /// only there stay apart; texts as `hash_text` (they may name ids).
    pub fn hash_fields<H: Hasher>(&self, fields: &Fields, h: &mut H) {
        for (key, value) in fields.iter() {
            key.hash(h);
            match value {
                FieldValue::Text(text) => self.hash_text(text, h),
                other => other.hash(h),
            }
        }
        fields.iter().count().hash(h);
    }

    /// Feeds what decides the team's future into `h`: members, requests and
    /// the messages waiting or held, without sequence numbers or the trace,
    /// request ids and renamed teammates as this canon has them: the
    /// explorer's canonical state of a team at virtual time `now`. Times
    /// enter only as what is left of them at `now` (a held message's delay,
    /// a pending request's deadline), the two clocks that decide when
    /// something happens without a move choosing it; two histories that
    /// spent different time to reach the same situation meet.
    pub fn hash_team<H: Hasher>(&self, team: &Team, now: Millis, h: &mut H) {
        self.hash_unordered(team.roster().members.iter(), |m, h| self.hash_member(team, m, h), h);
        // In the canon's order of places (`Canon::of_requests`), not the
        // order they were created in.
        let mut requests = Vec::with_capacity(team.tracker().len());
        requests.extend(team.tracker().iter().map(|r| (self.place(&r.id), r)));
        requests.sort_by_key(|(place, _)| *place);
        for (place, r) in requests {
            // `hash_id`, with the place already found.
            hash_place(place, &r.id, h);
            self.hash_request_rest(team, r, now, h);
        }
        self.hash_unordered(
            team.state().bus.names(),
            |name, h| {
                self.hash_name(name, h);
                for e in team.peek(name).into_iter().flatten() {
                    self.hash_message(&e.message, h);
                }
            },
            h,
        );
        for held in team.held() {
            let mut sub = StableHasher::default();
            self.hash_held(held, now, &mut sub);
            std::hash::Hasher::finish(&sub).hash(h);
        }
    }

    /// A member as `hash_team` takes it: name, role, status, plan mode,
    /// approvals and incarnation.
    pub fn hash_member<H: Hasher>(&self, team: &Team, m: &Member, h: &mut H) {
        self.hash_name(&m.name, h);
        (&m.role, m.status, m.plan_mode, team.plan_approved(&m.name), m.shutdown_approved, m.incarnation).hash(h);
    }

    /// A request as `hash_team` takes it: its id by place, then the rest
    /// (`hash_request_rest`).
    pub fn hash_request<H: Hasher>(&self, team: &Team, r: &Request, now: Millis, h: &mut H) {
        self.hash_id(&r.id, h);
        self.hash_request_rest(team, r, now, h);
    }

    /// A request but its id: kind, parties, plan, status, fields, and for a
    /// pending one whose protocol has a deadline, the time left until it
    /// expires at `now` (it expires by the clock, before a turn, with no
    /// move choosing it).
    fn hash_request_rest<H: Hasher>(&self, team: &Team, r: &Request, now: Millis, h: &mut H) {
        r.kind.hash(h);
        self.hash_name(&r.requester, h);
        self.hash_name(&r.addressee, h);
        (&r.plan, r.status).hash(h);
        self.hash_fields(&r.fields, h);
        // The kind tells whether there is a deadline: nothing more is
        // hashed without one (the lesson's protocols have none).
        if r.status == RequestStatus::Pending {
            if let Some(d) = team.state().protocols.protocol_of(r.kind).and_then(|(_, p)| p.deadline_ms) {
                Millis(r.created_at.0.saturating_add(d)).since(now).hash(h);
            }
        }
    }

    /// A message as `hash_team` takes it (waiting or held): type, answer,
    /// parties, content, request id by place, feedback and fields.
    pub fn hash_message<H: Hasher>(&self, m: &Message, h: &mut H) {
        (m.msg_type, m.approve).hash(h);
        self.hash_name(&m.from, h);
        self.hash_name(&m.to, h);
        self.hash_text(&m.content, h);
        m.request_id.as_ref().map(|id| self.hash_id(id, h)).hash(h);
        m.feedback.as_deref().map(|f| self.hash_text(f, h)).hash(h);
        self.hash_fields(&m.fields, h);
    }

    /// A message held on the bus as `hash_team` takes it: for a delayed one
    /// the delay left at `now` (it is released when the clock reaches it),
    /// `None` for a reordered one, then the message.
    pub fn hash_held<H: Hasher>(&self, held: &Held, now: Millis, h: &mut H) {
        held.due.map(|due| due.since(now)).hash(h);
        self.hash_message(&held.message, h);
    }
}

#[cfg(test)]
mod tests;
