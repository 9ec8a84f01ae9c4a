//! Canonical hashing for the explorer: two states that differ only in what
//! cannot change what happens next — the time stamped on messages, and the
//! values of request ids (derived from where in the trace a request was
//! made) — hash alike, so runs that reach the same situation by different
//! interleavings meet.
//!
//! Owns the rules of that abstraction: times are left out, and each request
//! id is replaced by its place in creation order, wherever it appears (a
//! tracker key, a message field, a tool result's text, a delivered JSON
//! message). It must not change anything it hashes.

use std::hash::{Hash, Hasher};

use super::RequestId;

/// The request ids of a state, in creation order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Canon {
    ids: Vec<String>,
}

const TIMESTAMP: &str = "\"timestamp\":";

impl Canon {
    /// Canonical names for these ids, in creation order.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a RequestId>) -> Self {
        Canon { ids: ids.into_iter().map(|id| id.as_str().to_string()).collect() }
    }

    /// Hashes a request id as its place in creation order (an unknown one
    /// by value).
    pub fn hash_id<H: Hasher>(&self, id: &RequestId, h: &mut H) {
        match self.ids.iter().position(|k| k == id.as_str()) {
            Some(i) => (0xA5u8, i).hash(h),
            None => id.as_str().hash(h),
        }
    }

    /// Hashes text with every `"timestamp": <digits>` left out and every
    /// known request id replaced by its place.
    pub fn hash_text<H: Hasher>(&self, text: &str, h: &mut H) {
        let mut rest = text;
        loop {
            // The earliest place where something must be rewritten.
            let mut best: Option<(usize, usize, Option<usize>)> = None;
            if let Some(i) = rest.find(TIMESTAMP) {
                let after = &rest[i + TIMESTAMP.len()..];
                let spaces = after.len() - after.trim_start_matches(' ').len();
                let digits = after[spaces..].bytes().take_while(u8::is_ascii_digit).count();
                best = Some((i, TIMESTAMP.len() + spaces + digits, None));
            }
            for (k, id) in self.ids.iter().enumerate() {
                if let Some(i) = rest.find(id.as_str()) {
                    if best.is_none_or(|(b, _, _)| i < b) {
                        best = Some((i, id.len(), Some(k)));
                    }
                }
            }
            match best {
                None => {
                    h.write(rest.as_bytes());
                    h.write_u8(0xFF);
                    return;
                }
                Some((at, len, what)) => {
                    h.write(&rest.as_bytes()[..at]);
                    (0xFEu8, what).hash(h);
                    rest = &rest[at + len..];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn hash_of(canon: &Canon, text: &str) -> u64 {
        let mut h = DefaultHasher::new();
        canon.hash_text(text, &mut h);
        h.finish()
    }

    fn id(s: &str) -> RequestId {
        RequestId::parse(s).unwrap()
    }

    #[test]
    fn texts_that_differ_only_in_timestamps_hash_alike() {
        let c = Canon::default();
        let a = r#"{"type":"message","timestamp":1200,"content":"hi"}"#;
        let b = r#"{"type":"message","timestamp": 98,"content":"hi"}"#;
        assert_eq!(hash_of(&c, a), hash_of(&c, b));
        assert_ne!(hash_of(&c, a), hash_of(&c, r#"{"type":"message","timestamp":1200,"content":"ho"}"#));
    }

    #[test]
    fn request_ids_hash_as_their_place_in_creation_order() {
        let first = Canon::new([&id("4607cc28"), &id("0badf00d")]);
        let second = Canon::new([&id("deadbeef"), &id("0badf00d")]);
        assert_eq!(hash_of(&first, "answer 4607cc28 then 0badf00d"), hash_of(&second, "answer deadbeef then 0badf00d"));
        assert_ne!(hash_of(&first, "answer 4607cc28"), hash_of(&first, "answer 0badf00d"), "places differ");
        let (mut a, mut b) = (DefaultHasher::new(), DefaultHasher::new());
        first.hash_id(&id("4607cc28"), &mut a);
        second.hash_id(&id("deadbeef"), &mut b);
        assert_eq!(a.finish(), b.finish());
    }
}
