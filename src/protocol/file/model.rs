//! The resolved model of a protocol file: gates, protocols, a team and
//! properties, every name that refers to another item replaced by a small
//! integer index (`ProtocolIx`, `GateIx`, `FieldIx`, `TeammateIx`) and
//! every closed vocabulary (who asks, effects, events, patterns, scopes) a
//! typed enum, so a hot path compares integers, never strings.
//!
//! Owns the shapes only (a property's shapes are `property`'s). Reading TOML is `parse`'s job, turning names into
//! indices `resolve`'s, the refusals `validate`'s; nothing here can fail.

use std::sync::Arc;

use super::property::Property;
use crate::protocol::{AgentName, FaultAction, Rules};

/// A protocol's place in `ProtocolFile::protocols`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProtocolIx(pub u8);

/// A gate's place in `ProtocolFile::gates`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GateIx(pub u8);

/// A field's place in its protocol's request or response field list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldIx(pub u8);

/// A teammate's place in `Team::teammates`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TeammateIx(pub u8);

/// A whole protocol file, resolved: what `file::load` returns.
#[derive(Debug, Clone, PartialEq)]
pub struct ProtocolFile {
    /// The gates, the built-in ones (from `use = ["lesson"]`) first.
    pub gates: Vec<Gate>,
    /// The protocols, the built-in ones first.
    pub protocols: Vec<Protocol>,
    /// The team, when the file has a `[team]`.
    pub team: Option<Team>,
    /// The file's own properties (the built-in ones hold for every protocol
    /// and are not listed here).
    pub properties: Vec<Property>,
    /// True when the lesson's protocols were merged in.
    pub uses_lesson: bool,
    /// The text the file was loaded from: what a trace of a run under it
    /// records (`protocol::trace`), so the trace imports without the file.
    pub text: Arc<str>,
}

/// The two kinds of agent a protocol names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The lead.
    Lead,
    /// Any teammate.
    Teammate,
}

impl Role {
    /// True when `agent` plays this role.
    pub fn admits(self, agent: &crate::protocol::AgentName) -> bool {
        agent.is_lead() == (self == Role::Lead)
    }

    /// The role's name in a file.
    pub fn name(self) -> &'static str {
        match self {
            Role::Lead => "lead",
            Role::Teammate => "teammate",
        }
    }
}

/// Who may ask (`from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Asker {
    /// Only the lead.
    Lead,
    /// Only teammates.
    Teammate,
    /// The lead and teammates.
    Any,
}

impl Asker {
    /// Its name in a file.
    pub fn name(self) -> &'static str {
        match self {
            Asker::Lead => "lead",
            Asker::Teammate => "teammate",
            Asker::Any => "any",
        }
    }

    /// True when an agent of `role` may ask.
    pub fn allows(self, role: Role) -> bool {
        matches!((self, role), (Asker::Any, _) | (Asker::Lead, Role::Lead) | (Asker::Teammate, Role::Teammate))
    }
}

/// A gate: tools closed until a protocol opens the gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    /// Its name.
    pub name: String,
    /// The tools it closes.
    pub tools: Vec<String>,
    /// True for the lesson's gate.
    pub builtin: bool,
}

/// A flat field's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldType {
    /// Free text.
    String,
    /// true or false.
    Bool,
    /// A whole number.
    Int,
    /// One of these values.
    Enum(Vec<String>),
}

/// A field of a request or a response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Its name (also its JSON key in the message and the tool input).
    pub name: String,
    /// Its type.
    pub field_type: FieldType,
    /// The tool refuses a call without it.
    pub required: bool,
    /// Its text is also the message's `content`.
    pub content: bool,
    /// What the tool schema says about it.
    pub description: Option<String>,
}

/// Which side of a request an effect or a field belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The request's fields.
    Request,
    /// The response's fields.
    Response,
}

/// Whom an effect applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Party {
    /// The agent that asked.
    Requester,
    /// The agent asked.
    Addressee,
}

/// What settling a request does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The party finishes its turn and leaves its loop.
    Exit(Party),
    /// The party's gate opens.
    OpenGate(GateIx, Party),
    /// The party's gate closes.
    CloseGate(GateIx, Party),
}

/// A tool the protocol gives an agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolDef {
    /// Its name, as the model calls it.
    pub name: String,
    /// What the model is told it does.
    pub description: String,
    /// The text the model reads when a call succeeds, a `result_text`
    /// template (`None`: its kind's default).
    pub result: Option<String>,
}

/// The tools a protocol gives: request (to `from`), respond (to `to`),
/// status (to `from`, optional).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolTools {
    /// Asks.
    pub request: ToolDef,
    /// Answers; `None` only with `responder_required` switched off.
    pub respond: Option<ToolDef>,
    /// Tells a request's status.
    pub status: Option<ToolDef>,
}

/// How the scripted model answers a request of this protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScriptedAnswer {
    /// Always yes.
    Approve,
    /// Always no.
    Reject,
    /// No the first `rejections` times an agent is asked, then yes.
    RejectFirst,
    /// As the task says: the lesson's behaviour (a teammate busy with its
    /// task rejects a shutdown; a lead rejects a risky plan).
    ByTask,
    /// Never answers (the request stays pending).
    Never,
}

/// The most times a `reject_first` answer says no before its yes
/// (`rejections`, 1 to this).
pub const MAX_REJECTIONS: u32 = 1000;

/// `scripted = { answer, rejections }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scripted {
    /// The policy.
    pub answer: ScriptedAnswer,
    /// For `reject_first`: how many times it says no first (1 unless set).
    pub rejections: u32,
}

/// One protocol on the shared FSM `pending -> approved | rejected`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Protocol {
    /// Its name (`<name>_requests` is its tracker).
    pub name: String,
    /// The request's message type.
    pub request_type: String,
    /// The answer's message type.
    pub response_type: String,
    /// Who may ask.
    pub from: Asker,
    /// Who answers.
    pub to: Role,
    /// The request's fields.
    pub request_fields: Vec<Field>,
    /// The request's text when no request field is its `content` (the
    /// lesson's shutdown: "Please shut down gracefully.").
    pub request_text: Option<String>,
    /// The answer's fields.
    pub response_fields: Vec<Field>,
    /// Effects of an approval.
    pub on_approve: Vec<Effect>,
    /// Effects of a rejection.
    pub on_reject: Vec<Effect>,
    /// A second request to an addressee with one pending is refused.
    pub one_pending_per_addressee: bool,
    /// Unanswered by then, the request is rejected with cause `expired`.
    pub deadline_ms: Option<u64>,
    /// How often the requester may ask again after an expiry.
    pub retries: u8,
    /// The tools it gives.
    pub tools: ProtocolTools,
    /// How the scripted model answers it.
    pub scripted: Scripted,
    /// True for the lesson's two.
    pub builtin: bool,
}

impl Protocol {
    /// The fields of one side.
    pub fn fields(&self, side: Side) -> &[Field] {
        match side {
            Side::Request => &self.request_fields,
            Side::Response => &self.response_fields,
        }
    }

    /// This protocol's tools an agent of `role` holds, in the order request,
    /// respond, status.
    pub fn tools_of(&self, role: Role) -> Vec<&ToolDef> {
        let mut tools = Vec::new();
        if self.from.allows(role) {
            tools.push(&self.tools.request);
        }
        if self.to == role {
            tools.extend(&self.tools.respond);
        }
        if self.from.allows(role) {
            tools.extend(&self.tools.status);
        }
        tools
    }
}

/// A teammate of the team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Teammate {
    /// Its name.
    pub name: AgentName,
    /// Its role (free text, also what `role:NAME` filters match).
    pub role: String,
    /// Its task, as the scripted lead hands it over.
    pub task: String,
    /// The gates closed at its spawn.
    pub gates: Vec<GateIx>,
    /// Its own scripted answers, where they differ from the protocol's.
    pub scripted: Vec<(ProtocolIx, Scripted)>,
}

/// A typed value of a field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FieldValue {
    /// A string field's value.
    Text(String),
    /// A bool field's value.
    Bool(bool),
    /// An int field's value.
    Int(i64),
    /// An enum field's value, by its place in `values`.
    Enum(u8),
}

/// A field set to a value (a step's request fields, a property's filter).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldSetting {
    /// The protocol the field belongs to.
    pub protocol: ProtocolIx,
    /// Request or response.
    pub side: Side,
    /// Which field.
    pub field: FieldIx,
    /// Its value.
    pub value: FieldValue,
}

/// When an `ask` step may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// Once a request of this protocol involving the step's teammate settles.
    Settled(ProtocolIx),
    /// Once this teammate sends the lead a plain message (reports done).
    MessageFrom(TeammateIx),
}

/// What the scripted lead does at one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepAction {
    /// Spawn a teammate of the team.
    Spawn(TeammateIx),
    /// Ask with a protocol the lead may use.
    Ask {
        /// The protocol.
        protocol: ProtocolIx,
        /// The addressee, for protocols answered by a teammate.
        to: Option<TeammateIx>,
        /// Wait for this first.
        after: Option<After>,
        /// Ask again after every rejection until one is approved.
        until_approved: bool,
        /// The request's fields.
        fields: Vec<FieldSetting>,
    },
    /// Answer a teammate's request addressed to the lead.
    Answer {
        /// The protocol.
        protocol: ProtocolIx,
        /// Whose request.
        from: TeammateIx,
        /// Yes or no.
        approve: bool,
        /// The answer's fields.
        fields: Vec<FieldSetting>,
    },
    /// List the team.
    ListTeammates,
    /// Send a plain message.
    Send {
        /// To whom.
        to: TeammateIx,
        /// What it says.
        content: String,
    },
}

/// One step of the scripted lead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Which of the team's prompts it belongs to (0 = the first).
    pub prompt: u8,
    /// What it does.
    pub action: StepAction,
}

/// The message type a fault rule hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageTypeRef {
    /// Plain messages.
    Message,
    /// Broadcasts.
    Broadcast,
    /// A protocol's request or response.
    Protocol(ProtocolIx, Side),
}

/// A fault rule of the team.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamFault {
    /// What happens to a matching message.
    pub action: FaultAction,
    /// Which messages (any type when `None`).
    pub message_type: Option<MessageTypeRef>,
    /// How often, from 0 to 1.
    pub probability: f64,
}

/// The protective rules a team switches off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesOff {
    /// The rules of `protocol::rules` (all on unless switched off).
    pub rules: Rules,
    /// The file-only rule `responder_required`: on unless switched off.
    pub responder_required: bool,
}

/// The team a file describes.
#[derive(Debug, Clone, PartialEq)]
pub struct Team {
    /// A stable id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// What a real lead reads, one prompt after another.
    pub prompts: Vec<String>,
    /// The protective rules in force.
    pub rules: RulesOff,
    /// Its teammates.
    pub teammates: Vec<Teammate>,
    /// What the scripted lead does, in order.
    pub steps: Vec<Step>,
    /// Fault rules.
    pub faults: Vec<TeamFault>,
}

impl ProtocolFile {
    /// The name a trace and its refusals call the file by: its team's id,
    /// else its first own protocol's name, else `lesson`.
    pub fn name(&self) -> &str {
        match (&self.team, self.protocols.iter().find(|p| !p.builtin)) {
            (Some(team), _) => &team.id,
            (None, Some(p)) => &p.name,
            (None, None) => "lesson",
        }
    }

    /// True when the file declares protocols or gates of its own, beyond
    /// the lesson's: only then does a run under it need the file to be
    /// read (a trace records it); a file of the lesson's protocols runs as
    /// the lesson does.
    pub fn has_own_protocols(&self) -> bool {
        self.protocols.iter().any(|p| !p.builtin) || self.gates.iter().any(|g| !g.builtin)
    }

    /// The protocol at `ix`.
    pub fn protocol(&self, ix: ProtocolIx) -> &Protocol {
        &self.protocols[usize::from(ix.0)]
    }

    /// The protocol named `name`.
    pub fn protocol_named(&self, name: &str) -> Option<ProtocolIx> {
        self.protocols.iter().position(|p| p.name == name).and_then(|i| u8::try_from(i).ok()).map(ProtocolIx)
    }

    /// The protocols' tools an agent of `role` holds, protocol by protocol,
    /// each name once (the lesson's lead holds `shutdown_response` once).
    pub fn protocol_tools(&self, role: Role) -> Vec<&ToolDef> {
        let mut tools: Vec<&ToolDef> = Vec::new();
        for t in self.protocols.iter().flat_map(|p| p.tools_of(role)) {
            if !tools.iter().any(|k| k.name == t.name) {
                tools.push(t);
            }
        }
        tools
    }

    /// Every protocol's request and response message types, in order.
    pub fn message_types(&self) -> Vec<&str> {
        self.protocols.iter().flat_map(|p| [p.request_type.as_str(), p.response_type.as_str()]).collect()
    }
}
