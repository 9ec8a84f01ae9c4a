//! The protocols a team runs under: the lesson's two (always: the protocols
//! of the built-in lesson file, their kinds and types named by constants
//! such as `RequestKind::SHUTDOWN`) plus, when the team was given a protocol
//! file, every protocol of that file, all on the one FSM
//! `pending -> approved | rejected`.
//!
//! Owns the compiled set (`ProtocolSet`, cheap to clone: one shared pointer),
//! the self-describing, `Copy` names of a protocol's message types and
//! request kinds, the lesson's as any file's (`ProtocolType`, `RequestKind`:
//! the file and the protocol's index there for the hot path, the name inline
//! for the trace), `LessonProtocol` for the few places that are the lesson's
//! own, and the check of a message's typed fields against the file. It must not change team state: the
//! commands that ask, answer and expire are `asks`'s, the state changes
//! `team`'s.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::fields::{FieldValue, Fields};
use super::file::diff::Under;
use super::file::model::{Effect, Field, FieldType, Gate, GateIx, Party, Protocol, ProtocolFile, ProtocolIx, Side};
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

    /// The empty name (what a name too long to hold is cut to; the loader
    /// refuses one).
    pub(crate) const EMPTY: Self = InlineName { len: 0, bytes: [0; N] };

    /// Holds `s` in a constant (a name written in this program: ASCII of
    /// at most `N` bytes, checked when the constant is evaluated).
    pub const fn of_static(s: &'static str) -> Self {
        let src = s.as_bytes();
        assert!(!src.is_empty() && src.len() <= N && src.len() <= u8::MAX as usize, "a constant name fits its inline length");
        let mut bytes = [0; N];
        let mut i = 0;
        while i < src.len() {
            assert!(src[i].is_ascii(), "a constant name is ASCII");
            bytes[i] = src[i];
            i += 1;
        }
        InlineName { len: src.len() as u8, bytes }
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

/// Which file a protocol's index counts in: the built-in lesson file (the
/// lesson's `shutdown` and `plan`, which every team runs, whatever its own
/// file) or the team's own protocol file. Ordered so the lesson's come
/// first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// A protocol of the built-in lesson file (`builtin = true` in it, and
    /// in a file that uses it).
    Lesson,
    /// A protocol of the team's own protocol file.
    File,
}

/// The lesson's two protocols, for the few places that are the lesson's
/// own (its tours, captions and refusal words, its messages' wire keys):
/// asked of a kind or a type by `lesson()`, never matched by the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LessonProtocol {
    /// Graceful shutdown: the lead asks, the teammate answers.
    Shutdown,
    /// Plan approval: the teammate asks, the lead answers.
    Plan,
}

impl LessonProtocol {
    /// The protocol's index in the built-in lesson file.
    pub const fn index(self) -> ProtocolIx {
        match self {
            LessonProtocol::Shutdown => ProtocolIx(LESSON_SHUTDOWN),
            LessonProtocol::Plan => ProtocolIx(LESSON_PLAN),
        }
    }

    /// The lesson protocol at `ix` of the built-in lesson file.
    pub const fn at(ix: ProtocolIx) -> Option<LessonProtocol> {
        match ix.0 {
            LESSON_SHUTDOWN => Some(LessonProtocol::Shutdown),
            LESSON_PLAN => Some(LessonProtocol::Plan),
            _ => None,
        }
    }

    /// The lesson protocol a kind or message type of `origin` at `protocol`
    /// stands for: only the built-in lesson file's protocols are the
    /// lesson's (`None` for the team's own file or an unresolved type).
    pub const fn of(origin: Origin, protocol: Option<ProtocolIx>) -> Option<LessonProtocol> {
        match (origin, protocol) {
            (Origin::Lesson, Some(ix)) => LessonProtocol::at(ix),
            _ => None,
        }
    }
}

/// The message type of a protocol's request or response, the lesson's as
/// any file's: the file it counts in and the protocol's index there
/// (compared first), which side, and the type's name as the file wrote it
/// (what a trace records), held as a `&'static str` so the type stays
/// `Copy` and small (a message carries one). A file's names are made
/// `'static` once, when its `ProtocolSet` is built (a few bytes per
/// protocol, kept for the program's life); the lesson's are constants
/// (`MessageType::SHUTDOWN_REQUEST`, ...). `protocol` is `None` only for a
/// type read from a trace and not yet tied to its file: its name is then
/// the message's (`Message::type_name`), and `name` is empty.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ProtocolType {
    /// Which file `protocol` counts in.
    pub origin: Origin,
    /// The protocol, by index in its file.
    pub protocol: Option<ProtocolIx>,
    /// True for the response type, false for the request type.
    pub response: bool,
    name: &'static str,
}

impl ProtocolType {
    /// A type read from a trace, its name kept by its message until the
    /// trace meets its protocol file.
    pub const UNRESOLVED: ProtocolType = ProtocolType { origin: Origin::File, protocol: None, response: false, name: "" };

    /// A type of the built-in lesson file (the lesson's constants).
    pub(crate) const fn lesson(lesson: LessonProtocol, response: bool, name: &'static str) -> ProtocolType {
        ProtocolType { origin: Origin::Lesson, protocol: Some(lesson.index()), response, name }
    }

    /// The type's name (empty while unresolved).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Which of the lesson's protocols this type belongs to (`None` for a
    /// type of the team's own file).
    pub fn lesson_protocol(&self) -> Option<LessonProtocol> {
        LessonProtocol::of(self.origin, self.protocol)
    }
}

impl fmt::Debug for ProtocolType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProtocolType({:?}, {:?}, {:?}, response: {})", self.name(), self.origin, self.protocol.map(|p| p.0), self.response)
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
    /// Compiles `file`'s protocols counted in `origin`: the built-in lesson
    /// file's own, or a team's file, whose built-in protocols (the ones it
    /// takes from the lesson by `use = ["lesson"]`) are the lesson file's,
    /// found by name, so a kind or a type names one protocol however the
    /// team came to run it.
    fn compile(file: Arc<ProtocolFile>, origin: Origin) -> Inner {
        let compiled = file
            .protocols
            .iter()
            .enumerate()
            .map(|(i, p)| {
                if p.builtin && origin == Origin::File {
                    if let Some(c) = lesson_inner().compiled.iter().find(|c| c.kind.name() == p.name) {
                        return Compiled { kind: c.kind, request: c.request, response: c.response };
                    }
                }
                let ix = Some(ProtocolIx(u8::try_from(i).unwrap_or(u8::MAX)));
                let message = |name: &str, response| {
                    let name: &'static str = Box::leak(name.to_string().into_boxed_str());
                    MessageType::Protocol(ProtocolType { origin, protocol: ix, response, name })
                };
                Compiled {
                    kind: RequestKind::compiled(origin, ix, &p.name),
                    request: message(&p.request_type, false),
                    response: message(&p.response_type, true),
                }
            })
            .collect();
        Inner { file, compiled }
    }

    fn running(&self, i: usize) -> Option<Running<'_>> {
        let c = self.compiled.get(i)?;
        let def = self.file.protocols.get(i)?;
        Some(Running { def, gates: &self.file.gates, kind: c.kind, request: c.request, response: c.response })
    }
}

/// The index of the lesson's shutdown protocol in the built-in lesson file.
const LESSON_SHUTDOWN: u8 = 0;
/// The index of the lesson's plan protocol in the built-in lesson file.
const LESSON_PLAN: u8 = 1;

/// The built-in lesson file compiled: built once and shared, as
/// `runtime::tools::ToolSet::lesson` builds its tools.
fn lesson_inner() -> &'static Inner {
    static LESSON: OnceLock<Arc<Inner>> = OnceLock::new();
    LESSON.get_or_init(|| {
        // Built in, as loading `lesson.toml` gives it (`file::lesson_codegen`
        // checks the two are equal).
        let file = super::file::builtin::lesson_shared();
        Arc::new(Inner::compile(Arc::clone(file), Origin::Lesson))
    })
}

/// The protocols of the built-in lesson file, in its order (the index a
/// lesson kind or type carries).
pub fn lesson_protocols() -> &'static [Protocol] {
    &lesson_inner().file.protocols
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

    /// True when an approval opens the lesson's plan gate for the
    /// requester (the lesson's plan approval, wherever it comes from).
    pub fn opens_lesson_gate(&self) -> bool {
        self.def.on_approve.iter().any(|e| matches!(*e, Effect::OpenGate(g, Party::Requester) if self.is_lesson_gate(g)))
    }

    /// True for one of the lesson's two protocols.
    pub fn is_lesson(&self) -> bool {
        self.kind.origin() == Origin::Lesson
    }
}

/// The protocols a team runs under. Empty (the default) means the lesson's
/// two only, as before protocol files, and a `ProtocolIx` counts in the
/// built-in lesson file (`shutdown` 0, `plan` 1), the file its agents'
/// tools come from; with a file, its protocols by index (the lesson's, when
/// the file uses them, are the built-in lesson file's kinds and types).
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
        ProtocolSet(Some(Arc::new(Inner::compile(file, Origin::File))))
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

    /// The compiled file a `ProtocolIx` counts in: the team's file, or the
    /// built-in lesson file when the team runs the lesson's protocols only
    /// (the file its agents' tools come from, `ToolSet::lesson`).
    fn indexed(&self) -> &Inner {
        match self.0.as_deref() {
            Some(inner) => inner,
            None => lesson_inner(),
        }
    }

    fn compiled(&self, ix: ProtocolIx) -> Option<&Compiled> {
        self.indexed().compiled.get(usize::from(ix.0))
    }

    /// The protocol at `ix` of the file the team's tools come from (the
    /// built-in lesson file without a file of its own).
    pub fn protocol(&self, ix: ProtocolIx) -> Option<&Protocol> {
        self.indexed().file.protocols.get(usize::from(ix.0))
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
        let ix = kind.file_protocol()?;
        Some((ix, self.file()?.protocols.get(usize::from(ix.0))?))
    }

    /// Protocol `ix` as the engine runs it, counted in the file the team's
    /// tools come from (its own, or the built-in lesson file: `shutdown` 0,
    /// `plan` 1), or the refusal a model reads.
    pub fn running_ix(&self, ix: ProtocolIx) -> Result<Running<'_>, ProtocolsError> {
        self.indexed().running(usize::from(ix.0)).ok_or(ProtocolsError::UnknownProtocol(ix.0))
    }

    /// The protocol a request of `kind` belongs to, as the engine runs it:
    /// a file protocol's, or one of the lesson's two, which every team runs
    /// (from the built-in lesson file: `shutdown` is its protocol 0, `plan`
    /// its protocol 1). `None` for a file kind this set does not know.
    pub fn running(&self, kind: RequestKind) -> Option<Running<'_>> {
        self.inner(kind.origin())?.running(usize::from(kind.protocol()?.0))
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

    /// True when the team runs the protocol `t` is a type of (the lesson's
    /// always; a file's when `t` is its protocol's, resolved).
    pub fn runs_type(&self, t: ProtocolType) -> bool {
        self.compiled_of(t).is_some_and(|c| MessageType::Protocol(t) == if t.response { c.response } else { c.request })
    }

    /// The compiled set `origin` counts in: the built-in lesson file's, or
    /// the team's file's.
    fn inner(&self, origin: Origin) -> Option<&Inner> {
        match origin {
            Origin::Lesson => Some(lesson_inner()),
            Origin::File => self.0.as_deref(),
        }
    }

    fn compiled_of(&self, t: ProtocolType) -> Option<&Compiled> {
        self.inner(t.origin)?.compiled.get(usize::from(t.protocol?.0))
    }

    /// The request kind of the protocol `t` is a type of (`None` for a type
    /// not yet tied to its file, or of a protocol this team does not run).
    pub fn kind_of_type(&self, t: ProtocolType) -> Option<RequestKind> {
        self.compiled_of(t).map(|c| c.kind)
    }

    /// The team's file's declaration of the protocol of `kind`: a file
    /// protocol's by its index; a lesson protocol's when the file takes it
    /// from the lesson (`use = ["lesson"]`), whose effects name the file's
    /// gates. `None` without a file.
    pub fn declared(&self, kind: RequestKind) -> Option<&Protocol> {
        match kind.origin() {
            Origin::File => self.file()?.protocols.get(usize::from(kind.protocol()?.0)),
            Origin::Lesson => self.file()?.protocols.iter().find(|p| p.builtin && p.name == kind.name()),
        }
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
        match (found, k.origin()) {
            (Some(f), _) => Ok(f),
            (None, Origin::File) => Err(ProtocolsError::UnknownName(k.name().to_string())),
            (None, Origin::Lesson) => Ok(k),
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
    fn the_lesson_only_set_knows_no_file_protocol_and_counts_indices_in_the_lesson_file() {
        let set = ProtocolSet::lesson();
        assert!(set.is_lesson_only());
        assert_eq!(set.get(ProtocolIx(0)).map(|p| p.name.as_str()), Ok("shutdown"));
        assert_eq!(set.running_ix(LessonProtocol::Plan.index()).map(|r| r.kind), Ok(RequestKind::PLAN));
        assert_eq!(set.kind(ProtocolIx(0)), Some(RequestKind::SHUTDOWN));
        assert_eq!(set.get(ProtocolIx(2)), Err(ProtocolsError::UnknownProtocol(2)));
        assert_eq!(set.file(), None);
        assert_eq!(set.message_type_named("claim_request"), None);
        let k = RequestKind::unresolved("claim").unwrap();
        assert_eq!(set.resolve_kind(k), Err(ProtocolsError::UnknownName("claim".into())));
        assert_eq!(set.resolve_kind(RequestKind::PLAN), Ok(RequestKind::PLAN));
    }

    #[test]
    fn the_lesson_constants_are_the_builtin_files_compiled_protocols() {
        let lesson = lesson_inner();
        for (p, kind, request, response) in [
            (LessonProtocol::Shutdown, RequestKind::SHUTDOWN, MessageType::SHUTDOWN_REQUEST, MessageType::SHUTDOWN_RESPONSE),
            (LessonProtocol::Plan, RequestKind::PLAN, MessageType::PLAN_APPROVAL_REQUEST, MessageType::PLAN_APPROVAL_RESPONSE),
        ] {
            let c = &lesson.compiled[usize::from(p.index().0)];
            assert_eq!((c.kind, c.request, c.response), (kind, request, response));
            assert_eq!(kind.lesson(), Some(p));
            assert_eq!((request.lesson(), response.lesson()), (Some(p), Some(p)));
        }
    }

    #[test]
    fn a_files_builtin_protocols_are_the_lessons_and_its_own_are_its_own() {
        let file = crate::protocol::file::builtin::lesson().unwrap();
        let set = ProtocolSet::new(Arc::new(file));
        assert_eq!(set.kind(ProtocolIx(0)).map(|k| k.lesson()), Some(Some(LessonProtocol::Shutdown)));
        assert_eq!(set.running(RequestKind::PLAN).map(|r| r.request), Some(MessageType::PLAN_APPROVAL_REQUEST));
        assert_eq!(RequestKind::unresolved("shutdown").map(|k| k.lesson()), Some(None));
    }
}
