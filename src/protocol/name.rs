//! Agent names: the validated identity of the lead and of each teammate.
//!
//! Owns the syntax of a name only. Whether a name is free, reserved for a
//! spawn, or known to the bus is decided by `roster` and `bus`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The longest name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// The lead's name; reserved, never a teammate's.
pub const LEAD: &str = "lead";

/// Errors about the syntax of an agent name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// The name is empty.
    #[error("an agent name cannot be empty")]
    Empty,
    /// The name contains whitespace or a control character.
    #[error("agent name {0:?} contains whitespace or a control character; use letters, digits, '-' or '_'")]
    BadChar(String),
    /// The name is too long.
    #[error("agent name is {0} characters long; the limit is {MAX_NAME_CHARS}")]
    TooLong(usize),
}

/// A validated agent name: non-empty, at most 64 characters, without
/// whitespace or control characters. Shared (`Arc<str>`): the explorer
/// clones every name at every state it visits. Ordered as its text is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct AgentName(std::sync::Arc<str>);

/// The text's order (bytewise, as `str`'s), found without a `memcmp` call
/// when the names are one shared text, differ in their first 8 bytes, or
/// one of them ends within them: every map of the state and of the views
/// is keyed by names, and names are short (`agent-07`, `lead`).
impl Ord for AgentName {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if std::sync::Arc::ptr_eq(&self.0, &other.0) {
            return std::cmp::Ordering::Equal;
        }
        let (a, b) = (self.0.as_bytes(), other.0.as_bytes());
        // Big-endian: the first differing byte decides, as bytewise.
        let (x, y) = (first_word(a), first_word(b));
        if x != y {
            return x.cmp(&y);
        }
        if a.len() <= 8 || b.len() <= 8 {
            // The same first bytes, and one name ends within them.
            return a.len().cmp(&b.len());
        }
        a[8..].cmp(&b[8..])
    }
}

/// The first 8 bytes of a name as one big-endian number. A name shorter
/// than 8 bytes is padded with zero bytes, which no name holds (a NUL is a
/// control character), so a padded name sorts before any longer name it
/// is a prefix of, as its text does.
#[inline]
fn first_word(bytes: &[u8]) -> u64 {
    match bytes.first_chunk::<8>() {
        Some(word) => u64::from_be_bytes(*word),
        // Byte by byte: a copy of a length not known here would be a
        // `memcpy` call, which costs more than the compare it saves.
        None => bytes.iter().enumerate().fold(0, |word, (i, &b)| word | u64::from(b) << (56 - 8 * i)),
    }
}

impl PartialOrd for AgentName {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl AgentName {
    /// Parses and validates a name.
    pub fn parse(s: &str) -> Result<Self, NameError> {
        if s.is_empty() {
            return Err(NameError::Empty);
        }
        let len = s.chars().count();
        if len > MAX_NAME_CHARS {
            return Err(NameError::TooLong(len));
        }
        if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(NameError::BadChar(s.to_string()));
        }
        Ok(AgentName(s.into()))
    }

    /// The lead's name.
    pub fn lead() -> Self {
        AgentName(LEAD.into())
    }

    /// True when this is the lead.
    pub fn is_lead(&self) -> bool {
        &*self.0 == LEAD
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for AgentName {
    type Error = NameError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        AgentName::parse(&s)
    }
}

impl From<AgentName> for String {
    fn from(n: AgentName) -> String {
        n.0.to_string()
    }
}

impl fmt::Display for AgentName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    // proptest is a native dev-dependency only.
    #[cfg(not(target_arch = "wasm32"))]
    mod order {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            /// Names sharing long prefixes, short ones and multi-byte ones.
            #[test]
            fn names_are_ordered_and_equal_as_their_text_is(a in "(agent-0|lead|ag|é|a)[a-z0-9é-]{0,12}", b in "(agent-0|lead|ag|é|a)[a-z0-9é-]{0,12}") {
                let (x, y) = (AgentName::parse(&a).unwrap(), AgentName::parse(&b).unwrap());
                prop_assert_eq!(x.cmp(&y), a.cmp(&b));
                prop_assert_eq!(x.partial_cmp(&y), a.partial_cmp(&b));
                prop_assert_eq!(x == y, a == b);
                prop_assert_eq!(x.cmp(&x.clone()), std::cmp::Ordering::Equal);
            }
        }
    }

    #[test]
    fn names_must_be_non_empty() {
        assert_eq!(AgentName::parse(""), Err(NameError::Empty));
    }

    #[test]
    fn names_refuse_whitespace_and_control_chars() {
        for bad in ["al ice", " alice", "alice\n", "a\tb", "a\u{7}b", "a\u{a0}b"] {
            assert!(matches!(AgentName::parse(bad), Err(NameError::BadChar(_))), "{bad:?}");
        }
    }

    #[test]
    fn names_have_a_length_cap() {
        assert!(AgentName::parse(&"a".repeat(MAX_NAME_CHARS)).is_ok());
        assert_eq!(AgentName::parse(&"a".repeat(MAX_NAME_CHARS + 1)), Err(NameError::TooLong(MAX_NAME_CHARS + 1)));
    }

    #[test]
    fn ordinary_names_parse_and_lead_is_recognised() {
        assert_eq!(AgentName::parse("alice-2_x").unwrap().as_str(), "alice-2_x");
        assert!(AgentName::parse("lead").unwrap().is_lead());
        assert!(!AgentName::parse("leader").unwrap().is_lead());
    }

    #[test]
    fn deserialising_validates_the_name() {
        assert!(serde_json::from_str::<AgentName>("\"bob\"").is_ok());
        assert!(serde_json::from_str::<AgentName>("\"b ob\"").is_err());
    }
}
