//! Messages: free text (`message`, `broadcast`) and the request and
//! response types of every protocol, the lesson's four (the types of the
//! built-in lesson file, named by constants such as
//! `MessageType::SHUTDOWN_REQUEST`) as a protocol file's, their typed
//! protocol fields, and the checks that a message of each type carries what
//! it must.
//!
//! Owns the wire shape (serde, with the lesson's JSON field names; a file
//! protocol's fields sit beside them, absent on a lesson message, so lesson
//! messages read and write exactly as before). It must not know about
//! inboxes, trackers or the roster: those live in `bus`, `tracker` and
//! `roster`; which fields a file protocol's message must carry is checked
//! where the file is known (`protocols`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::fields::{FieldValue, Fields};
use super::file::model::ProtocolIx;
use super::protocols::{LessonProtocol, Origin, ProtocolType, MAX_TYPE_NAME};

/// The key under which a message read from a trace keeps the name of a type
/// the lesson lacks until its protocol file resolves it (`type` is never a
/// field's name: the envelope has it).
pub(crate) const UNRESOLVED_TYPE_KEY: &str = "type";
use super::time::Millis;
use super::AgentName;

/// Errors about the shape of a message, phrased so they can be handed to a
/// model as `Error: ...`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// The type string is not one of the six message types.
    #[error("unknown message type '{0}'; valid types: message, broadcast, shutdown_request, shutdown_response, plan_approval_request, plan_approval_response")]
    UnknownType(String),
    /// A protocol message lacks a field its type requires.
    #[error("a {msg_type} message needs the field '{field}'")]
    MissingField {
        /// The message type.
        msg_type: MessageType,
        /// The name of the missing JSON field.
        field: &'static str,
    },
    /// A request id is not 8 lowercase hex characters.
    #[error("'{0}' is not a request_id: a request_id is 8 lowercase hex characters, e.g. 'a1b2c3d4'")]
    BadRequestId(String),
}

/// A message's type: free text (`message`, `broadcast`) or a protocol's
/// request or response type, the lesson's four (`SHUTDOWN_REQUEST`, ...,
/// the types of the built-in lesson file) as a protocol file's. Written as
/// its name (`"shutdown_request"`, or the file's `"claim_request"`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MessageType {
    /// Free text between two agents.
    Message,
    /// Free text fanned out to every member but the sender.
    Broadcast,
    /// A protocol's request or response (`request_id`, `approve` on the
    /// response; the lesson's own text keys, or a file protocol's `fields`).
    Protocol(ProtocolType),
}

impl MessageType {
    /// Lead asks a teammate to shut down (carries `request_id`).
    pub const SHUTDOWN_REQUEST: MessageType =
        MessageType::Protocol(ProtocolType::lesson(LessonProtocol::Shutdown, false, "shutdown_request"));
    /// Teammate answers a shutdown request (`request_id`, `approve`).
    pub const SHUTDOWN_RESPONSE: MessageType =
        MessageType::Protocol(ProtocolType::lesson(LessonProtocol::Shutdown, true, "shutdown_response"));
    /// Teammate submits a plan for review (`request_id`, `plan`).
    pub const PLAN_APPROVAL_REQUEST: MessageType =
        MessageType::Protocol(ProtocolType::lesson(LessonProtocol::Plan, false, "plan_approval_request"));
    /// Lead answers a plan (`request_id`, `approve`, `feedback`).
    pub const PLAN_APPROVAL_RESPONSE: MessageType =
        MessageType::Protocol(ProtocolType::lesson(LessonProtocol::Plan, true, "plan_approval_response"));

    /// The lesson's six message types, in protocol order.
    pub const ALL: [MessageType; 6] = [
        MessageType::Message,
        MessageType::Broadcast,
        MessageType::SHUTDOWN_REQUEST,
        MessageType::SHUTDOWN_RESPONSE,
        MessageType::PLAN_APPROVAL_REQUEST,
        MessageType::PLAN_APPROVAL_RESPONSE,
    ];

    /// The type's name as it appears in JSON: the lesson's, or the one its
    /// protocol file wrote.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageType::Protocol(f) => f.name(),
            MessageType::Message => "message",
            MessageType::Broadcast => "broadcast",
        }
    }

    /// True for the types that open a request (every protocol's request
    /// type).
    pub fn is_request(self) -> bool {
        matches!(self, MessageType::Protocol(f) if !f.response)
    }

    /// True for the types that answer a request.
    pub fn is_response(self) -> bool {
        matches!(self, MessageType::Protocol(f) if f.response)
    }

    /// The protocol of the team's own file this type belongs to (`None` for
    /// the free-text types, the lesson's, and a type read from a trace and
    /// not yet resolved).
    pub fn protocol(self) -> Option<ProtocolIx> {
        match self {
            MessageType::Protocol(f) if f.origin == Origin::File => f.protocol,
            _ => None,
        }
    }

    /// True for a type of a protocol of the team's own file (resolved or
    /// not), false for the lesson's six.
    pub fn is_file(self) -> bool {
        matches!(self, MessageType::Protocol(f) if f.origin == Origin::File)
    }

    /// True for a type read from a trace and not yet tied to its file.
    pub fn is_unresolved(self) -> bool {
        matches!(self, MessageType::Protocol(f) if f.protocol.is_none())
    }

    /// Which of the lesson's protocols this type belongs to, for the places
    /// that are the lesson's own (its wire keys, captions and tours).
    pub fn lesson(self) -> Option<LessonProtocol> {
        match self {
            MessageType::Protocol(f) => f.lesson_protocol(),
            _ => None,
        }
    }
}

/// Formats as the enum it replaced did (`ShutdownRequest`, ...).
impl fmt::Debug for MessageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lesson = match (self.lesson(), self) {
            (Some(LessonProtocol::Shutdown), MessageType::Protocol(t)) if !t.response => "ShutdownRequest",
            (Some(LessonProtocol::Shutdown), _) => "ShutdownResponse",
            (Some(LessonProtocol::Plan), MessageType::Protocol(t)) if !t.response => "PlanApprovalRequest",
            (Some(LessonProtocol::Plan), _) => "PlanApprovalResponse",
            (None, MessageType::Message) => "Message",
            (None, MessageType::Broadcast) => "Broadcast",
            (None, MessageType::Protocol(t)) => return write!(f, "File({t:?})"),
        };
        f.write_str(lesson)
    }
}

/// Hashes as the enum it replaced did (a variant's index, then a file
/// type's index, side and name), so the explorer's state hashes do not
/// change.
impl std::hash::Hash for MessageType {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        #[derive(Hash)]
        enum Legacy<'a> {
            Message,
            Broadcast,
            ShutdownRequest,
            ShutdownResponse,
            PlanApprovalRequest,
            PlanApprovalResponse,
            File(&'a Option<ProtocolIx>, &'a bool, &'a str),
        }
        let legacy = match (self.lesson(), self) {
            (_, MessageType::Message) => Legacy::Message,
            (_, MessageType::Broadcast) => Legacy::Broadcast,
            (Some(LessonProtocol::Shutdown), MessageType::Protocol(t)) if !t.response => Legacy::ShutdownRequest,
            (Some(LessonProtocol::Shutdown), _) => Legacy::ShutdownResponse,
            (Some(LessonProtocol::Plan), MessageType::Protocol(t)) if !t.response => Legacy::PlanApprovalRequest,
            (Some(LessonProtocol::Plan), _) => Legacy::PlanApprovalResponse,
            (None, MessageType::Protocol(t)) => Legacy::File(&t.protocol, &t.response, t.name()),
        };
        legacy.hash(h)
    }
}

impl Serialize for MessageType {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Reads the lesson's six by name (a file protocol's type is read with its
/// message: `Message`'s own reading).
impl<'de> Deserialize<'de> for MessageType {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for MessageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses one of the lesson's six (a file protocol's types are its file's:
/// `ProtocolSet::message_type_named`).
impl FromStr for MessageType {
    type Err = MessageError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MessageType::ALL.into_iter().find(|t| t.as_str() == s).ok_or_else(|| MessageError::UnknownType(s.to_string()))
    }
}

/// The correlation key of a request: the first 8 hex characters of a UUID v4.
/// Held inline (eight ASCII bytes, ordered as the text is): the explorer
/// copies every id a state holds at every state it visits, and a copy
/// allocates nothing.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RequestId([u8; 8]);

/// The text's order (bytewise), as one big-endian number: no `memcmp`
/// call per comparison in the maps keyed by request.
impl Ord for RequestId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        u64::from_be_bytes(self.0).cmp(&u64::from_be_bytes(other.0))
    }
}

impl PartialOrd for RequestId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl RequestId {
    /// Parses a request id, refusing anything but 8 lowercase hex characters.
    pub fn parse(s: &str) -> Result<Self, MessageError> {
        let ok = s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        match <[u8; 8]>::try_from(s.as_bytes()) {
            Ok(bytes) if ok => Ok(RequestId(bytes)),
            _ => Err(MessageError::BadRequestId(s.to_string())),
        }
    }

    /// The id's eight characters, as bytes.
    pub fn as_bytes(&self) -> &[u8; 8] {
        &self.0
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        // Only `parse` makes an id, and it takes eight ASCII hex digits.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RequestId").field(&self.as_str()).finish()
    }
}

/// Hashes as its text does, as it did when it was held as a `String`.
impl std::hash::Hash for RequestId {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h);
    }
}

impl TryFrom<String> for RequestId {
    type Error = MessageError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        RequestId::parse(&s)
    }
}

impl From<RequestId> for String {
    fn from(id: RequestId) -> String {
        id.as_str().to_string()
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A message on the bus, with the lesson's JSON field names.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "RawMessage")]
pub struct Message {
    /// The message type (`type` in JSON).
    #[serde(rename = "type")]
    pub msg_type: MessageType,
    /// Sender.
    pub from: AgentName,
    /// Recipient.
    pub to: AgentName,
    /// Free text: the body, the plan text, the feedback or the reason.
    pub content: String,
    /// When it was sent, in milliseconds since the run began.
    pub timestamp: Millis,
    /// Correlation key, on the four protocol types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// The decision, on the two response types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approve: Option<bool>,
    /// Reviewer feedback, on `plan_approval_response`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    /// The plan, on `plan_approval_request`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<String>,
    /// The teammate's reason, on `shutdown_response`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A file protocol's typed fields, written beside the keys above
    /// (absent when empty, as on every lesson message).
    pub fields: Fields,
}

/// Writes the keys above in their order, each absent field left out, then a
/// file protocol's fields beside them: as a struct when there are none (a
/// lesson message, written as it always was), else as a map.
impl Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeStruct};
        let optional = [("feedback", &self.feedback), ("plan", &self.plan), ("reason", &self.reason)];
        if self.fields.is_empty() {
            let n = 5 + usize::from(self.request_id.is_some()) + usize::from(self.approve.is_some());
            let mut s = serializer.serialize_struct("Message", n + optional.iter().filter(|(_, v)| v.is_some()).count())?;
            s.serialize_field("type", &self.msg_type)?;
            s.serialize_field("from", &self.from)?;
            s.serialize_field("to", &self.to)?;
            s.serialize_field("content", &self.content)?;
            s.serialize_field("timestamp", &self.timestamp)?;
            if let Some(id) = &self.request_id {
                s.serialize_field("request_id", id)?;
            }
            if let Some(approve) = &self.approve {
                s.serialize_field("approve", approve)?;
            }
            for (key, value) in optional {
                if let Some(value) = value {
                    s.serialize_field(key, value)?;
                }
            }
            return s.end();
        }
        let mut m = serializer.serialize_map(None)?;
        m.serialize_entry("type", self.type_name())?;
        m.serialize_entry("from", &self.from)?;
        m.serialize_entry("to", &self.to)?;
        m.serialize_entry("content", &self.content)?;
        m.serialize_entry("timestamp", &self.timestamp)?;
        if let Some(id) = &self.request_id {
            m.serialize_entry("request_id", id)?;
        }
        if let Some(approve) = &self.approve {
            m.serialize_entry("approve", approve)?;
        }
        for (key, value) in optional {
            if let Some(value) = value {
                m.serialize_entry(key, value)?;
            }
        }
        let unresolved = self.msg_type.is_unresolved();
        for (key, value) in self.fields.iter().filter(|(k, _)| !(unresolved && *k == UNRESOLVED_TYPE_KEY)) {
            m.serialize_entry(key, value)?;
        }
        m.end()
    }
}

/// A message as read: the envelope, and every other key as it came (a
/// file protocol's fields may use the names the lesson gives `plan`,
/// `feedback` and `reason`, with any of the four field types).
#[derive(Deserialize)]
struct RawMessage {
    #[serde(rename = "type")]
    msg_type: String,
    from: AgentName,
    to: AgentName,
    content: String,
    timestamp: Millis,
    #[serde(default)]
    request_id: Option<RequestId>,
    #[serde(default)]
    approve: Option<bool>,
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, serde_json::Value>,
}

impl TryFrom<RawMessage> for Message {
    type Error = String;

    /// A lesson type's `plan`, `feedback` and `reason` are its own (text);
    /// every other key with a flat value is a field (a file protocol's; a
    /// lesson message has none). A key set to `null` is absent.
    fn try_from(raw: RawMessage) -> Result<Self, Self::Error> {
        let (msg_type, unresolved) = match raw.msg_type.parse::<MessageType>() {
            Ok(t) => (t, None),
            Err(_) if crate::protocol::file::is_name(&raw.msg_type, MAX_TYPE_NAME) => {
                (MessageType::Protocol(ProtocolType::UNRESOLVED), Some(raw.msg_type))
            }
            Err(e) => return Err(e.to_string()),
        };
        let mut m = Message::new(msg_type, raw.from, raw.to, raw.content, raw.timestamp);
        m.request_id = raw.request_id;
        m.approve = raw.approve;
        let lesson = unresolved.is_none();
        if let Some(name) = unresolved {
            m.fields.set(UNRESOLVED_TYPE_KEY, FieldValue::Text(name));
        }
        for (key, value) in raw.rest {
            let own = match key.as_str() {
                "plan" if lesson => Some(&mut m.plan),
                "feedback" if lesson => Some(&mut m.feedback),
                "reason" if lesson => Some(&mut m.reason),
                _ => None,
            };
            let value = match value {
                serde_json::Value::Null => continue,
                serde_json::Value::String(text) => match own {
                    Some(slot) => {
                        *slot = Some(text);
                        continue;
                    }
                    None => FieldValue::Text(text),
                },
                _ if own.is_some() => return Err(format!("invalid type: '{key}' must be a string")),
                serde_json::Value::Bool(b) => FieldValue::Bool(b),
                serde_json::Value::Number(n) if n.as_i64().is_some() => FieldValue::Int(n.as_i64().unwrap_or_default()),
                // The lesson's messages ignore keys they do not have.
                _ if lesson => continue,
                other => return Err(format!("the field '{key}' must be text, true or false, or a whole number, not {other}")),
            };
            m.fields.set(key, value);
        }
        Ok(m)
    }
}

impl Message {
    /// The name of the message's type: its type's, or, for a type read from
    /// a trace and not yet tied to its protocol file, the name it was read
    /// with.
    pub fn type_name(&self) -> &str {
        match self.msg_type {
            t if t.is_unresolved() => self.fields.get(UNRESOLVED_TYPE_KEY).and_then(FieldValue::as_text).unwrap_or_default(),
            t => t.as_str(),
        }
    }

    /// Moves the lesson's `plan`, `feedback` and `reason` into `fields`:
    /// for a message read as a lesson type that its protocol file turns out
    /// to own (a file's own `shutdown_response` with a `reason` field).
    pub(crate) fn own_fields(&mut self) {
        for (key, slot) in [("plan", &mut self.plan), ("feedback", &mut self.feedback), ("reason", &mut self.reason)] {
            if let Some(text) = slot.take() {
                self.fields.set(key, FieldValue::Text(text));
            }
        }
    }
}

impl Message {
    /// Puts a protocol's `fields` on the message. A lesson type keeps its
    /// wire format: its `plan`, `feedback` and `reason` go to their own keys
    /// (a lesson answer always carries its text key, empty or not), and it
    /// has no other field; a file type's fields sit in `fields`.
    pub(crate) fn set_fields(&mut self, mut fields: Fields) {
        let mut take = |key: &str| match fields.remove(key) {
            Some(FieldValue::Text(text)) => Some(text),
            Some(other) => Some(other.to_string()),
            None => None,
        };
        // The lesson's wire keys are its own: which text key a lesson
        // message carries depends on which of its protocols it belongs to.
        let response = self.msg_type.is_response();
        match (self.msg_type.lesson(), response) {
            (Some(LessonProtocol::Plan), false) => self.plan = take("plan"),
            (Some(LessonProtocol::Plan), true) => self.feedback = Some(take("feedback").unwrap_or_default()),
            (Some(LessonProtocol::Shutdown), true) => self.reason = Some(take("reason").unwrap_or_default()),
            (Some(LessonProtocol::Shutdown), false) | (None, _) => {}
        }
        if self.msg_type.is_file() {
            self.fields = fields;
        }
    }

    /// A plain message of the given type with no protocol fields.
    pub fn new(msg_type: MessageType, from: AgentName, to: AgentName, content: impl Into<String>, timestamp: Millis) -> Self {
        Message {
            msg_type,
            from,
            to,
            content: content.into(),
            timestamp,
            request_id: None,
            approve: None,
            feedback: None,
            plan: None,
            reason: None,
            fields: Fields::new(),
        }
    }

    /// Checks that the message carries every field its type requires.
    pub fn validate(&self) -> Result<(), MessageError> {
        let need = |present: bool, field: &'static str| {
            if present {
                Ok(())
            } else {
                Err(MessageError::MissingField { msg_type: self.msg_type, field })
            }
        };
        if self.msg_type.is_request() || self.msg_type.is_response() {
            need(self.request_id.is_some(), "request_id")?;
        }
        if self.msg_type.is_response() {
            need(self.approve.is_some(), "approve")?;
        }
        // The lesson's plan request carries its plan under its own key.
        if self.msg_type.lesson() == Some(LessonProtocol::Plan) && self.msg_type.is_request() {
            need(self.plan.is_some(), "plan")?;
        }
        Ok(())
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
            #[test]
            fn request_ids_are_ordered_as_their_text_is(a in "[0-9a-f]{8}", b in "[0-9a-f]{8}") {
                let (x, y) = (RequestId::parse(&a).unwrap(), RequestId::parse(&b).unwrap());
                prop_assert_eq!(x.cmp(&y), a.cmp(&b));
                prop_assert_eq!(x.partial_cmp(&y), a.partial_cmp(&b));
            }
        }
    }

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    #[test]
    fn every_type_round_trips_through_its_lesson_name() {
        for t in MessageType::ALL {
            assert_eq!(t.as_str().parse::<MessageType>(), Ok(t));
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{}\"", t.as_str()));
        }
    }

    #[test]
    fn unknown_type_is_refused_with_the_list_of_valid_types() {
        let err = "shutdown".parse::<MessageType>().unwrap_err();
        assert_eq!(err, MessageError::UnknownType("shutdown".into()));
        assert!(err.to_string().contains("plan_approval_request"));
    }

    #[test]
    fn request_id_must_be_eight_lowercase_hex_chars() {
        assert!(RequestId::parse("a1b2c3d4").is_ok());
        for bad in ["", "a1b2c3d", "a1b2c3d45", "A1B2C3D4", "a1b2c3dg", "a1b2 3d4"] {
            assert_eq!(RequestId::parse(bad), Err(MessageError::BadRequestId(bad.into())), "{bad:?}");
        }
    }

    #[test]
    fn message_serialises_with_the_lesson_field_names() {
        let mut m = Message::new(MessageType::SHUTDOWN_RESPONSE, name("alice"), AgentName::lead(), "done", Millis(1500));
        m.request_id = Some(RequestId::parse("0badf00d").unwrap());
        m.approve = Some(true);
        m.reason = Some("finished".into());
        let v: serde_json::Value = serde_json::to_value(&m).unwrap();
        assert_eq!(v["type"], "shutdown_response");
        assert_eq!(v["from"], "alice");
        assert_eq!(v["to"], "lead");
        assert_eq!(v["request_id"], "0badf00d");
        assert_eq!(v["approve"], true);
        assert_eq!(v["reason"], "finished");
        assert_eq!(v["timestamp"], 1500);
        assert!(v.get("plan").is_none(), "absent fields are omitted");
        let back: Message = serde_json::from_value(v).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn a_request_id_reads_orders_hashes_and_writes_as_its_text() {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let hash = |v: &dyn Fn(&mut std::collections::hash_map::DefaultHasher)| {
            let mut h = BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().build_hasher();
            v(&mut h);
            std::hash::Hasher::finish(&h)
        };
        let texts = ["0badf00d", "4607cc28", "4607cc29", "a1b2c3d4", "ffffffff"];
        let ids: Vec<RequestId> = texts.iter().map(|t| RequestId::parse(t).unwrap()).collect();
        for (id, text) in ids.iter().zip(texts) {
            assert_eq!(id.as_str(), text);
            assert_eq!(id.to_string(), text);
            assert_eq!(format!("{id:?}"), format!("RequestId({text:?})"));
            assert_eq!(serde_json::to_string(id).unwrap(), format!("\"{text}\""));
            assert_eq!(&serde_json::from_str::<RequestId>(&format!("\"{text}\"")).unwrap(), id);
            assert_eq!(hash(&|h| std::hash::Hash::hash(id, h)), hash(&|h| std::hash::Hash::hash(text, h)), "{text}");
        }
        let mut shuffled = vec![ids[3].clone(), ids[0].clone(), ids[4].clone(), ids[2].clone(), ids[1].clone()];
        shuffled.sort();
        assert_eq!(shuffled, ids, "ids sort as their texts do");
    }

    #[test]
    fn deserialising_refuses_a_type_that_is_no_name_and_a_bad_request_id() {
        for bad in ["Nudge", "no way", "", "9lives"] {
            let json = format!(r#"{{"type":"{bad}","from":"a","to":"b","content":"","timestamp":0}}"#);
            assert!(serde_json::from_str::<Message>(&json).is_err(), "{bad:?}");
        }
        let bad_id = r#"{"type":"shutdown_request","from":"lead","to":"b","content":"","timestamp":0,"request_id":"xyz"}"#;
        assert!(serde_json::from_str::<Message>(bad_id).is_err());
    }

    #[test]
    fn a_type_the_lesson_lacks_reads_as_a_file_protocols_type_until_resolved() {
        let json = r#"{"type":"nudge","from":"a","to":"b","content":"","timestamp":0}"#;
        let m: Message = serde_json::from_str(json).unwrap();
        assert!(m.msg_type.is_unresolved());
        assert_eq!(m.type_name(), "nudge");
        assert_eq!(serde_json::to_string(&m).unwrap(), json, "written back as it was read");
        assert_eq!("nudge".parse::<MessageType>(), Err(MessageError::UnknownType("nudge".into())), "a typed name is the lesson's");
    }

    #[test]
    fn a_file_protocols_fields_sit_beside_the_envelope_and_read_back() {
        let json = r#"{"type":"claim_request","from":"ann","to":"lead","content":"","timestamp":3,"request_id":"0badf00d","task":"parser","urgent":true}"#;
        let m: Message = serde_json::from_str(json).unwrap();
        assert_eq!(m.fields.get("task"), Some(&crate::protocol::FieldValue::Text("parser".into())));
        assert_eq!(m.fields.get("urgent"), Some(&crate::protocol::FieldValue::Bool(true)));
        assert_eq!(m.plan, None, "lesson keys stay in their own places");
        assert_eq!(serde_json::to_string(&m).unwrap(), json);
        let lesson = Message::new(MessageType::Message, name("a"), name("b"), "hi", Millis(0));
        assert!(!serde_json::to_string(&lesson).unwrap().contains("fields"), "no fields, no key");
    }

    /// The explorer's state hashes fold message types in: a type hashes as
    /// the enum it replaced did (the lesson's four were its variants 2..=5).
    #[test]
    fn a_message_type_hashes_as_the_enum_it_replaced() {
        use crate::protocol::canon::StableHasher;
        use std::hash::Hash;
        for (i, t) in MessageType::ALL.into_iter().enumerate() {
            assert_eq!(StableHasher::digest(|h| t.hash(h)), StableHasher::digest(|h| (i as isize).hash(h)), "{t}");
        }
        assert_eq!(format!("{:?}", MessageType::PLAN_APPROVAL_RESPONSE), "PlanApprovalResponse");
    }

    #[test]
    fn protocol_messages_must_carry_their_fields() {
        let base = |t| Message::new(t, AgentName::lead(), name("bob"), "", Millis(0));
        assert_eq!(
            base(MessageType::SHUTDOWN_REQUEST).validate(),
            Err(MessageError::MissingField { msg_type: MessageType::SHUTDOWN_REQUEST, field: "request_id" })
        );
        let mut resp = base(MessageType::PLAN_APPROVAL_RESPONSE);
        resp.request_id = Some(RequestId::parse("12345678").unwrap());
        assert_eq!(resp.validate(), Err(MessageError::MissingField { msg_type: MessageType::PLAN_APPROVAL_RESPONSE, field: "approve" }));
        let mut plan = base(MessageType::PLAN_APPROVAL_REQUEST);
        plan.request_id = Some(RequestId::parse("12345678").unwrap());
        assert_eq!(plan.validate(), Err(MessageError::MissingField { msg_type: MessageType::PLAN_APPROVAL_REQUEST, field: "plan" }));
        assert_eq!(base(MessageType::Message).validate(), Ok(()));
        assert_eq!(base(MessageType::Broadcast).validate(), Ok(()));
    }
}
