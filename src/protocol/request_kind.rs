//! The `Copy` name of a request's protocol (`RequestKind`): the lesson's two
//! and every protocol file's, by origin and index, written as the protocol's
//! name. Hashes, orders and debug-prints as the enum it replaced, so state
//! hashes and reports do not change.
//!
//! Owns the kind only; request state is the tracker's (`tracker`).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::file::model::ProtocolIx;
use super::protocols::{InlineName, LessonProtocol, Origin, MAX_PROTOCOL_NAME};

/// Which protocol a request belongs to, the lesson's two as any file's:
/// the file its index counts in (`Origin`), the index (compared first: the
/// explorer's hot path compares integers) and the protocol's name inline
/// (what a trace records). The lesson's are the constants `SHUTDOWN` and
/// `PLAN`; a file's are made when its `ProtocolSet` is built. `protocol` is
/// `None` for a kind read from a trace and not yet tied to its file.
/// Written as the protocol's name.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RequestKind {
    origin: Origin,
    protocol: Option<ProtocolIx>,
    name: InlineName<MAX_PROTOCOL_NAME>,
}

impl RequestKind {
    /// The lesson's graceful shutdown: the lead asks, the teammate answers.
    pub const SHUTDOWN: RequestKind = RequestKind::lesson_kind(LessonProtocol::Shutdown, "shutdown");
    /// The lesson's plan approval: the teammate asks, the lead answers.
    pub const PLAN: RequestKind = RequestKind::lesson_kind(LessonProtocol::Plan, "plan");

    const fn lesson_kind(p: LessonProtocol, name: &'static str) -> RequestKind {
        RequestKind { origin: Origin::Lesson, protocol: Some(p.index()), name: InlineName::of_static(name) }
    }

    /// The kind of protocol `protocol` of a file counted in `origin`, named
    /// `name` (a name longer than a protocol name may be is cut to empty:
    /// the loader refuses one).
    pub(crate) fn compiled(origin: Origin, protocol: Option<ProtocolIx>, name: &str) -> RequestKind {
        let name = InlineName::new(name).unwrap_or(InlineName::EMPTY);
        RequestKind { origin, protocol, name }
    }

    /// The kind as a trace names it, not yet tied to a protocol of the
    /// team's file (`None` for a name that cannot be a protocol's).
    pub fn unresolved(name: &str) -> Option<Self> {
        Some(RequestKind { origin: Origin::File, protocol: None, name: InlineName::new(name)? })
    }

    /// The protocol's name.
    pub fn as_str(&self) -> &str {
        self.name.as_str()
    }

    /// The protocol's name.
    pub fn name(&self) -> &str {
        self.name.as_str()
    }

    /// Which file the protocol's index counts in.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The protocol's index in its file (`origin`), `None` while unresolved.
    pub fn protocol(&self) -> Option<ProtocolIx> {
        self.protocol
    }

    /// The protocol's index in the team's own file, `None` for the lesson's
    /// (and while unresolved).
    pub fn file_protocol(&self) -> Option<ProtocolIx> {
        match self.origin {
            Origin::File => self.protocol,
            Origin::Lesson => None,
        }
    }

    /// True for a protocol of the team's own file (not the lesson's).
    pub fn is_file(&self) -> bool {
        self.origin == Origin::File
    }

    /// Which of the lesson's protocols this is, for the places that are the
    /// lesson's own (`None` for a protocol of the team's file).
    pub fn lesson(&self) -> Option<LessonProtocol> {
        LessonProtocol::of(self.origin, self.protocol)
    }
}

/// Formats as the enum it replaced did (`Shutdown`, `Plan`,
/// `File(FileKind("claim", Some(0)))`).
impl fmt::Debug for RequestKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.lesson() {
            Some(p) => write!(f, "{p:?}"),
            None => write!(f, "File(FileKind({:?}, {:?}))", self.name(), self.protocol.map(|p| p.0)),
        }
    }
}

/// Hashes as the enum it replaced did (a variant's index, then a file
/// kind's index and name), so the explorer's state hashes do not change.
impl std::hash::Hash for RequestKind {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        #[derive(Hash)]
        enum Legacy<'a> {
            Shutdown,
            Plan,
            File(&'a Option<ProtocolIx>, &'a InlineName<MAX_PROTOCOL_NAME>),
        }
        match self.lesson() {
            Some(LessonProtocol::Shutdown) => Legacy::Shutdown,
            Some(LessonProtocol::Plan) => Legacy::Plan,
            None => Legacy::File(&self.protocol, &self.name),
        }
        .hash(h)
    }
}

impl fmt::Display for RequestKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RequestKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Reads the lesson's two by name; any other valid protocol name is a file
/// protocol's, unresolved until its trace meets its protocol file.
impl<'de> Deserialize<'de> for RequestKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        if let Some(lesson) = [RequestKind::SHUTDOWN, RequestKind::PLAN].into_iter().find(|k| k.as_str() == s) {
            return Ok(lesson);
        }
        crate::protocol::file::is_name(&s, MAX_PROTOCOL_NAME)
            .then(|| RequestKind::unresolved(&s))
            .flatten()
            .ok_or_else(|| serde::de::Error::custom(format!("'{s}' is not a protocol name")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_kind_writes_as_its_protocols_name_and_reads_back_unresolved() {
        let kind = RequestKind::unresolved("claim").unwrap();
        assert_eq!(serde_json::to_string(&kind).unwrap(), r#""claim""#);
        assert_eq!(serde_json::from_str::<RequestKind>(r#""claim""#).unwrap(), kind);
        assert_eq!(serde_json::from_str::<RequestKind>(r#""shutdown""#).unwrap(), RequestKind::SHUTDOWN);
        assert!(serde_json::from_str::<RequestKind>(r#""Claim!""#).is_err(), "not a protocol name");
        assert_eq!(kind.to_string(), "claim");
    }

    /// The explorer's state hashes fold request kinds in: a kind hashes as
    /// the enum it replaced (`Shutdown`, `Plan`, `File(FileKind)`) did.
    #[test]
    fn a_request_kind_hashes_as_the_enum_it_replaced() {
        use crate::protocol::canon::StableHasher;
        use std::hash::Hash;
        assert_eq!(StableHasher::digest(|h| RequestKind::SHUTDOWN.hash(h)), StableHasher::digest(|h| 0isize.hash(h)));
        assert_eq!(StableHasher::digest(|h| RequestKind::PLAN.hash(h)), StableHasher::digest(|h| 1isize.hash(h)));
        let claim = RequestKind::unresolved("claim").unwrap();
        let legacy = StableHasher::digest(|h| {
            2isize.hash(h);
            None::<ProtocolIx>.hash(h);
            InlineName::<MAX_PROTOCOL_NAME>::new("claim").unwrap().hash(h);
        });
        assert_eq!(StableHasher::digest(|h| claim.hash(h)), legacy);
        assert_eq!(format!("{:?}", RequestKind::PLAN), "Plan");
    }
}
