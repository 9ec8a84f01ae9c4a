//! The protocols a team runs under: the lesson's two (always; their request
//! kinds and message types keep their Rust names, their definitions come
//! from the built-in lesson file) plus, when the team was given a protocol
//! file, every protocol of that file, all on the one FSM
//! `pending -> approved | rejected`.
//!
//! Owns the compiled set (`ProtocolSet`, cheap to clone: one shared pointer),
//! the self-describing, `Copy` names of a file protocol's message types and
//! request kinds (`FileMessageType`, `FileKind`: the protocol's index for
//! the hot path, the name inline for the trace), and the check of a message's
//! typed fields against the file. It must not change team state: the
//! commands that ask, answer and expire are `asks`'s, the state changes
//! `team`'s.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::fields::{FieldValue, Fields};
use super::file::diff::Under;
use super::file::model::{Field, FieldType, Gate, GateIx, Protocol, ProtocolFile, ProtocolIx, Side};
use super::message::MessageType;
use super::tracker::RequestKind;

/// Refusals about a file protocol, phrased so they can be handed to a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolsError {
    /// The team runs under no protocol of that index (or no file at all).
    #[error("this team has no protocol number {0}; it knows only the protocols of its file")]
    UnknownProtocol(u8),
    /// A trace names a message type or a request kind its protocol file does
    /// not have.
    #[error("'{0}' is not a message type or protocol of this team's protocol file")]
    UnknownName(String),
    /// A required field is missing.
    #[error("a {msg_type} needs the field '{field}'")]
    MissingField {
        /// The message type.
        msg_type: String,
        /// The field.
        field: String,
    },
    /// A field the protocol does not declare.
    #[error("a {msg_type} has no field '{field}'; its fields are: {known}")]
    UnknownField {
        /// The message type.
        msg_type: String,
        /// The field given.
        field: String,
        /// The declared fields, comma-separated (`none` when there is none).
        known: String,
    },
    /// A field of the wrong type, or an enum value not in its list.
    #[error("the field '{field}' of a {msg_type} must be {expected}, not '{got}'")]
    BadValue {
        /// The message type.
        msg_type: String,
        /// The field.
        field: String,
        /// What it must be, in words.
        expected: String,
        /// The value given.
        got: String,
    },
}

/// A name held inline (at most `N` bytes of ASCII), so the value stays
/// `Copy` and a copy allocates nothing, the way `RequestId` holds its bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InlineName<const N: usize> {
    len: u8,
    bytes: [u8; N],
}

impl<const N: usize> InlineName<N> {
    /// Holds `s`, or `None` when it is empty, longer than `N` bytes or not
    /// ASCII (file names are validated lowercase ASCII).
    pub fn new(s: &str) -> Option<Self> {
        if s.is_empty() || s.len() > N || !s.is_ascii() {
            return None;
        }
        let mut bytes = [0; N];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Some(InlineName { len: u8::try_from(s.len()).ok()?, bytes })
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        // Only `new` makes one, from ASCII text.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl<const N: usize> fmt::Debug for InlineName<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// The longest message type a file may name.
pub const MAX_TYPE_NAME: usize = 64;
/// The longest protocol name a file may use.
pub const MAX_PROTOCOL_NAME: usize = 32;

/// The message type of a file protocol's request or response: the
/// protocol's index (compared first), which side, and the type's name as
/// the file wrote it (what a trace records), held as a `&'static str` so
/// the type stays `Copy` and small (a message carries one). A file's names
/// are made `'static` once, when its `ProtocolSet` is built (a few bytes per
/// protocol, kept for the program's life). `protocol` is `None` only for a
/// type read from a trace and not yet tied to its file: its name is then
/// the message's (`Message::type_name`), and `name` is empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileMessageType {
    /// The protocol, by index in the file.
    pub protocol: Option<ProtocolIx>,
    /// True for the response type, false for the request type.
    pub response: bool,
    name: &'static str,
}

impl FileMessageType {
    /// A type read from a trace, its name kept by its message until the
    /// trace meets its protocol file.
    pub const UNRESOLVED: FileMessageType = FileMessageType { protocol: None, response: false, name: "" };

    /// The type's name (empty while unresolved).
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl fmt::Debug for FileMessageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FileMessageType({:?}, {:?}, response: {})", self.name(), self.protocol.map(|p| p.0), self.response)
    }
}

/// The request kind of a file protocol: its index (compared first) and its
/// name (what a trace records). `protocol` is `None` until resolved, as for
/// `FileMessageType`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileKind {
    /// The protocol, by index in the file.
    pub protocol: Option<ProtocolIx>,
    name: InlineName<MAX_PROTOCOL_NAME>,
}

impl FileKind {
    /// The kind as a trace names it, not yet tied to a protocol.
    pub fn unresolved(name: &str) -> Option<Self> {
        Some(FileKind { protocol: None, name: InlineName::new(name)? })
    }

    /// The protocol's name.
    pub fn name(&self) -> &str {
        self.name.as_str()
    }
}

impl fmt::Debug for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FileKind({:?}, {:?})", self.name(), self.protocol.map(|p| p.0))
    }
}

/// One protocol of the file with its names compiled to the core's types.
#[derive(Debug)]
struct Compiled {
    kind: RequestKind,
    request: MessageType,
    response: MessageType,
}

#[derive(Debug)]
struct Inner {
    file: Arc<ProtocolFile>,
    compiled: Vec<Compiled>,
}

impl Inner {
    fn running(&self, i: usize) -> Option<Running<'_>> {
        let c = self.compiled.get(i)?;
        let def = self.file.protocols.get(i)?;
        Some(Running { def, gates: &self.file.gates, kind: c.kind, request: c.request, response: c.response })
    }
}

/// The index of the lesson's shutdown protocol in the built-in lesson file.
const LESSON_SHUTDOWN: usize = 0;
/// The index of the lesson's plan protocol in the built-in lesson file.
const LESSON_PLAN: usize = 1;

/// The built-in lesson file compiled: built once and shared, as
/// `runtime::tools::ToolSet::lesson` builds its tools.
fn lesson_inner() -> &'static Inner {
    static LESSON: OnceLock<Arc<Inner>> = OnceLock::new();
    LESSON.get_or_init(|| {
        // The built-in file is compiled in, and `tests/protocol_files.rs`
        // loads it: a refusal here is a bug in this program.
        let file =
            super::file::builtin::lesson().unwrap_or_else(|e| panic!("the built-in lesson file is refused:\n{}", e.render("lesson")));
        let ProtocolSet(Some(inner)) = ProtocolSet::new(Arc::new(file)) else { unreachable!("a set made from a file holds it") };
        inner
    })
}

/// The lesson's plan gate as the built-in file writes it (the tools it
/// closes).
pub fn lesson_plan_gate() -> Option<&'static Gate> {
    lesson_inner().file.gates.iter().find(|g| g.builtin)
}

/// One protocol as the engine runs it: its definition (and the gates of
/// the file it comes from, which its effects name by index), its request
/// kind and its two message types. The lesson's two are `Running` like any
/// file protocol: one path asks, answers and settles them all.
#[derive(Debug, Clone, Copy)]
pub struct Running<'a> {
    /// The protocol as its file defines it.
    pub def: &'a Protocol,
    /// The gates of its file.
    pub gates: &'a [Gate],
    /// Its request kind.
    pub kind: RequestKind,
    /// Its request's message type.
    pub request: MessageType,
    /// Its answer's message type.
    pub response: MessageType,
}

impl Running<'_> {
    /// True when gate `g` of a lesson protocol's effect is the lesson's
    /// plan gate (`gate = "plan"` of the built-in file), which a lesson
    /// protocol names by its index in the built-in file: the team keeps it
    /// at `ProtocolSet::plan_gate`.
    pub fn is_lesson_gate(&self, g: GateIx) -> bool {
        self.is_lesson() && self.gates.get(usize::from(g.0)).is_some_and(|g| g.builtin)
    }

    /// True for one of the lesson's two protocols.
    pub fn is_lesson(&self) -> bool {
        matches!(self.kind, RequestKind::Shutdown | RequestKind::Plan)
    }
}

/// The protocols a team runs under. Empty (the default) means the lesson's
/// two only, as before protocol files; with a file, its protocols by index
/// (the lesson's, when the file uses them, keep their Rust kinds and types).
/// Cloning copies one pointer.
#[derive(Debug, Clone, Default)]
pub struct ProtocolSet(Option<Arc<Inner>>);

impl PartialEq for ProtocolSet {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a.file == b.file,
            _ => false,
        }
    }
}

// A file's only non-`Eq` values are fault probabilities, validated to lie in
// 0..=1 (never NaN), so equality is reflexive.
impl Eq for ProtocolSet {}

impl ProtocolSet {
    /// The lesson's two protocols only.
    pub fn lesson() -> Self {
        ProtocolSet(None)
    }

    /// The protocols of `file`.
    pub fn new(file: Arc<ProtocolFile>) -> Self {
        let compiled = file
            .protocols
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let ix = ProtocolIx(u8::try_from(i).unwrap_or(u8::MAX));
                match (p.builtin, p.name.as_str()) {
                    (true, "shutdown") => Compiled {
                        kind: RequestKind::Shutdown,
                        request: MessageType::ShutdownRequest,
                        response: MessageType::ShutdownResponse,
                    },
                    (true, "plan") => Compiled {
                        kind: RequestKind::Plan,
                        request: MessageType::PlanApprovalRequest,
                        response: MessageType::PlanApprovalResponse,
                    },
                    _ => {
                        let message = |name: &str, response| {
                            let name: &'static str = Box::leak(name.to_string().into_boxed_str());
                            MessageType::File(FileMessageType { protocol: Some(ix), response, name })
                        };
                        let name = InlineName::new(&p.name).unwrap_or(InlineName { len: 0, bytes: [0; MAX_PROTOCOL_NAME] });
                        Compiled {
                            kind: RequestKind::File(FileKind { protocol: Some(ix), name }),
                            request: message(&p.request_type, false),
                            response: message(&p.response_type, true),
                        }
                    }
                }
            })
            .collect();
        ProtocolSet(Some(Arc::new(Inner { file, compiled })))
    }

    /// The file, when there is one.
    pub fn file(&self) -> Option<&ProtocolFile> {
        self.0.as_deref().map(|i| i.file.as_ref())
    }

    /// The protocols as `file::diff` compares them.
    pub fn under(&self) -> Under<'_> {
        self.file().map_or(Under::Lesson, Under::File)
    }

    /// True when the team runs the lesson's protocols only.
    pub fn is_lesson_only(&self) -> bool {
        self.0.is_none()
    }

    fn compiled(&self, ix: ProtocolIx) -> Option<&Compiled> {
        self.0.as_deref()?.compiled.get(usize::from(ix.0))
    }

    /// The protocol at `ix`.
    pub fn protocol(&self, ix: ProtocolIx) -> Option<&Protocol> {
        self.file()?.protocols.get(usize::from(ix.0))
    }

    /// The protocol at `ix`, or the refusal a model reads.
    pub fn get(&self, ix: ProtocolIx) -> Result<&Protocol, ProtocolsError> {
        self.protocol(ix).ok_or(ProtocolsError::UnknownProtocol(ix.0))
    }

    /// The request kind of protocol `ix`.
    pub fn kind(&self, ix: ProtocolIx) -> Option<RequestKind> {
        self.compiled(ix).map(|c| c.kind)
    }

    /// The request message type of protocol `ix`.
    pub fn request_type(&self, ix: ProtocolIx) -> Option<MessageType> {
        self.compiled(ix).map(|c| c.request)
    }

    /// The response message type of protocol `ix`.
    pub fn response_type(&self, ix: ProtocolIx) -> Option<MessageType> {
        self.compiled(ix).map(|c| c.response)
    }

    /// The file protocol a request of `kind` belongs to (`None` for the
    /// lesson's two kinds: `running` finds those too).
    pub fn protocol_of(&self, kind: RequestKind) -> Option<(ProtocolIx, &Protocol)> {
        let RequestKind::File(k) = kind else { return None };
        let ix = k.protocol?;
        Some((ix, self.protocol(ix)?))
    }

    /// Protocol `ix` of the file as the engine runs it, or the refusal a
    /// model reads.
    pub fn running_ix(&self, ix: ProtocolIx) -> Result<Running<'_>, ProtocolsError> {
        let inner = self.0.as_deref().ok_or(ProtocolsError::UnknownProtocol(ix.0))?;
        inner.running(usize::from(ix.0)).ok_or(ProtocolsError::UnknownProtocol(ix.0))
    }

    /// The protocol a request of `kind` belongs to, as the engine runs it:
    /// a file protocol's, or one of the lesson's two, which every team runs
    /// (from the built-in lesson file: `shutdown` is its protocol 0, `plan`
    /// its protocol 1). `None` for a file kind this set does not know.
    pub fn running(&self, kind: RequestKind) -> Option<Running<'_>> {
        match kind {
            RequestKind::Shutdown => lesson_inner().running(LESSON_SHUTDOWN),
            RequestKind::Plan => lesson_inner().running(LESSON_PLAN),
            RequestKind::File(k) => self.0.as_deref()?.running(usize::from(k.protocol?.0)),
        }
    }

    /// Where the team keeps the lesson's plan gate in its gate state (one
    /// bit per agent, as every file gate): the lesson file's own index of
    /// it when the team runs the lesson's protocols only, the index of the
    /// file's `plan` gate when its file uses the lesson's, and one past the
    /// file's gates when it does not (every team runs the lesson's two
    /// protocols, its plan gate with them).
    pub fn plan_gate(&self) -> GateIx {
        let gates = match self.file() {
            Some(file) => &file.gates,
            None => &lesson_inner().file.gates,
        };
        let i = gates.iter().position(|g| g.builtin).unwrap_or(gates.len());
        GateIx(u8::try_from(i).unwrap_or(u8::MAX))
    }

    /// The index of the gate named `name`.
    pub fn gate_named(&self, name: &str) -> Option<GateIx> {
        let i = self.file()?.gates.iter().position(|g| g.name == name)?;
        u8::try_from(i).ok().map(GateIx)
    }

    /// The name of gate `g`.
    pub fn gate_name(&self, g: GateIx) -> Option<&str> {
        self.file()?.gates.get(usize::from(g.0)).map(|g| g.name.as_str())
    }

    /// The message type named `name`: a file protocol's (also one that
    /// reuses a lesson name, such as a file's own `shutdown_request`), else
    /// `None` (a lesson type, or a name the file lacks). How a trace read
    /// from a file is tied to its protocols.
    pub fn message_type_named(&self, name: &str) -> Option<MessageType> {
        self.0.as_deref()?.compiled.iter().flat_map(|c| [c.request, c.response]).find(|c| c.as_str() == name)
    }

    /// Ties a request kind read from a trace to its protocol, by name, as
    /// `resolve_message_type` does a type.
    pub fn resolve_kind(&self, k: RequestKind) -> Result<RequestKind, ProtocolsError> {
        let found = self.0.as_deref().and_then(|i| i.compiled.iter().map(|c| c.kind).find(|c| c.as_str() == k.as_str()));
        match (found, k) {
            (Some(f), _) => Ok(f),
            (None, RequestKind::File(f)) => Err(ProtocolsError::UnknownName(f.name().to_string())),
            (None, lesson) => Ok(lesson),
        }
    }

    /// Checks `fields` against the declared fields of protocol `ix`'s
    /// `side`: every required one present, none undeclared, each of its
    /// declared type (an enum's value one of its values).
    pub fn check_fields(&self, ix: ProtocolIx, side: Side, fields: &Fields) -> Result<(), ProtocolsError> {
        check_fields(self.get(ix)?, side, fields)
    }
}

/// Checks `fields` against the declared fields of `p`'s `side`, as
/// `ProtocolSet::check_fields` does protocol N's.
pub fn check_fields(p: &Protocol, side: Side, fields: &Fields) -> Result<(), ProtocolsError> {
    let msg_type = match side {
        Side::Request => &p.request_type,
        Side::Response => &p.response_type,
    };
    let declared = p.fields(side);
    for (name, value) in fields.iter() {
        let Some(field) = declared.iter().find(|f| f.name == name) else {
            let known = if declared.is_empty() {
                "none".to_string()
            } else {
                declared.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
            };
            return Err(ProtocolsError::UnknownField { msg_type: msg_type.clone(), field: name.to_string(), known });
        };
        if let Some(expected) = mismatch(field, value) {
            return Err(ProtocolsError::BadValue { msg_type: msg_type.clone(), field: name.to_string(), expected, got: value.to_string() });
        }
    }
    if let Some(missing) = declared.iter().find(|f| f.required && fields.get(&f.name).is_none()) {
        return Err(ProtocolsError::MissingField { msg_type: msg_type.clone(), field: missing.name.clone() });
    }
    Ok(())
}

/// What `value` should have been for `field`, in words, or `None` when it
/// fits.
fn mismatch(field: &Field, value: &FieldValue) -> Option<String> {
    match (&field.field_type, value) {
        (FieldType::String, FieldValue::Text(_)) | (FieldType::Bool, FieldValue::Bool(_)) | (FieldType::Int, FieldValue::Int(_)) => None,
        (FieldType::Enum(values), FieldValue::Text(s)) if values.iter().any(|v| v == s) => None,
        (FieldType::String, _) => Some("text".into()),
        (FieldType::Bool, _) => Some("true or false".into()),
        (FieldType::Int, _) => Some("a whole number".into()),
        (FieldType::Enum(values), _) => Some(format!("one of {}", values.join(", "))),
    }
}

/// The text of the field marked `content` (the message's `content`), or
/// the empty text.
pub fn content_of(p: &Protocol, side: Side, fields: &Fields) -> String {
    p.fields(side).iter().find(|f| f.content).and_then(|f| fields.get(&f.name)).map(|v| v.to_string()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inline_name_holds_up_to_its_length_and_reads_back() {
        let n = InlineName::<4>::new("abcd").unwrap();
        assert_eq!(n.as_str(), "abcd");
        assert!(InlineName::<4>::new("abcde").is_none());
        assert!(InlineName::<4>::new("").is_none());
        assert!(InlineName::<4>::new("é").is_none());
    }

    #[test]
    fn the_lesson_only_set_knows_no_file_protocol() {
        let set = ProtocolSet::lesson();
        assert!(set.is_lesson_only());
        assert_eq!(set.get(ProtocolIx(0)), Err(ProtocolsError::UnknownProtocol(0)));
        assert_eq!(set.message_type_named("claim_request"), None);
        let k = RequestKind::File(FileKind::unresolved("claim").unwrap());
        assert_eq!(set.resolve_kind(k), Err(ProtocolsError::UnknownName("claim".into())));
        assert_eq!(set.resolve_kind(RequestKind::Plan), Ok(RequestKind::Plan));
    }
}
