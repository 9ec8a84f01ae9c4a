//! The trace: an append-only, numbered log of everything that happened in a
//! run. It is the single source of truth: replaying it (`Team::replay`)
//! rebuilds the bus, trackers and roster exactly, and the diagram, the panels
//! and every export are views of it.
//!
//! Owns the event vocabulary and the append rules (sequence numbers count up
//! from zero, time never goes backwards). It must not interpret events: that
//! is `team` (state) and `checker` (invariants).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::bus::MessageId;
use super::faults::FaultAction;
use super::fields::Fields;
use super::message::{Message, RequestId, UNRESOLVED_TYPE_KEY};
use super::protocols::{ProtocolSet, ProtocolsError};
use super::roster::MemberStatus;
use super::rules::Rules;
use super::time::Millis;
use super::tracker::{RequestKind, RequestStatus};
use super::AgentName;

/// The version of the trace format this build writes for a run of the
/// lesson's protocols (a team given no protocol file, or one with no
/// protocols or gates of its own): unchanged since the first, so such a
/// run's trace is byte for byte what earlier builds wrote.
pub const TRACE_FORMAT_VERSION: u32 = 1;

/// The version this build writes for a run under a protocol file of its
/// own: the header records the file (`protocol_file`). A build that reads
/// version 1 only refuses it by its version, instead of failing on the
/// first message type it does not know.
pub const TRACE_FORMAT_VERSION_WITH_FILE: u32 = 2;

/// Every trace format version this build reads.
pub const TRACE_FORMAT_VERSIONS: [u32; 2] = [TRACE_FORMAT_VERSION, TRACE_FORMAT_VERSION_WITH_FILE];

/// Errors from appending to or loading a trace.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// An entry's time is earlier than the one before it.
    #[error("event {seq} happens at {at}, before the previous event at {previous}; time cannot go backwards")]
    TimeWentBackwards {
        /// The offending entry.
        seq: u64,
        /// Its time.
        at: Millis,
        /// The previous entry's time.
        previous: Millis,
    },
    /// Sequence numbers must count 0, 1, 2, ...
    #[error("event at position {index} has sequence number {seq}; expected {index}")]
    BadSequence {
        /// Position in the log.
        index: u64,
        /// The number it carried.
        seq: u64,
    },
    /// The trace was written by an unknown format version.
    #[error(
        "trace format version {0} is not supported (this build reads version {TRACE_FORMAT_VERSION} or {TRACE_FORMAT_VERSION_WITH_FILE})"
    )]
    UnsupportedVersion(u32),
}

/// A trace names a file protocol's type or kind its protocol file lacks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {seq} cannot be read under this protocol file: {source}")]
pub struct ResolveError {
    /// The sequence number of the event that names it.
    pub seq: u64,
    /// What it names.
    pub source: ProtocolsError,
}

/// The protocol file a run ran under, as its trace's header records it:
/// the whole text, so the trace imports on a machine without the file
/// (`trace_file::import_json` loads it), and the name the file goes by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedFile {
    /// The file's name (`ProtocolFile::name`: its team's id, or its first
    /// protocol's name), for the words of a refusal.
    pub name: String,
    /// The file's text, as loaded.
    pub text: Arc<str>,
}

/// Something that happened, as recorded in the trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A user prompt started a run of the lead.
    RunStarted {
        /// The prompt.
        prompt: String,
    },
    /// The team went quiet: nothing is working and nothing waits to be read.
    RunFinished,
    /// A teammate was spawned, or an idle or shut-down one restarted; it is
    /// `working` from here on.
    MemberSpawned {
        /// Its name.
        name: AgentName,
        /// Its role.
        role: String,
        /// Whether it must get a plan approved before changing the workspace.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        plan_mode: bool,
    },
    /// A member's status changed.
    MemberStatusChanged {
        /// Whose.
        name: AgentName,
        /// The status before.
        from: MemberStatus,
        /// The status after.
        to: MemberStatus,
    },
    /// A message was put in its recipient's inbox. Its `MessageId` is this
    /// entry's sequence number.
    MessageSent {
        /// The message.
        message: Message,
    },
    /// An agent drained its inbox and received these messages, in order.
    InboxDrained {
        /// Whose inbox.
        agent: AgentName,
        /// The messages delivered.
        message_ids: Vec<MessageId>,
    },
    /// A request entered the tracker, pending.
    RequestCreated {
        /// Its id.
        request_id: RequestId,
        /// Its protocol.
        request_kind: RequestKind,
        /// Who asked.
        requester: AgentName,
        /// Who must answer.
        addressee: AgentName,
        /// The plan, for plan requests.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plan: Option<String>,
        /// A file protocol's request fields (absent when empty, as on every
        /// lesson request).
        #[serde(default, skip_serializing_if = "Fields::is_empty")]
        fields: Fields,
    },
    /// A request moved along the FSM.
    RequestTransitioned {
        /// Which request.
        request_id: RequestId,
        /// Its protocol.
        request_kind: RequestKind,
        /// Who answered.
        by: AgentName,
        /// The state before.
        from: RequestStatus,
        /// The state after.
        to: RequestStatus,
    },
    /// A request of a protocol with a deadline was not answered in time:
    /// `pending -> rejected` with cause `expired`, by no one's answer (its
    /// transition names the addressee, who did not answer). Nothing is sent.
    RequestExpired {
        /// Which request.
        request_id: RequestId,
        /// Its protocol.
        request_kind: RequestKind,
    },
    /// An agent called its model (its activation starts).
    ModelCalled {
        /// Who.
        agent: AgentName,
    },
    /// The model answered.
    ModelReplied {
        /// Who asked.
        agent: AgentName,
        /// The text of the reply, if any.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        text: String,
        /// Why it stopped (`end_turn`, `tool_use`, ...).
        stop_reason: String,
        /// Prompt tokens read fresh (not from or into the prompt cache).
        input_tokens: u64,
        /// Reply tokens.
        output_tokens: u64,
        /// Prompt tokens read from the provider's prompt cache (absent in
        /// traces written before it was recorded, and when zero).
        #[serde(default, skip_serializing_if = "is_zero")]
        cache_read_tokens: u64,
        /// Prompt tokens written to the provider's prompt cache.
        #[serde(default, skip_serializing_if = "is_zero")]
        cache_write_tokens: u64,
        /// True when the provider reported the counts; false (and absent)
        /// when they are the scripted model's estimate, or the trace was
        /// written before this was recorded.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        measured: bool,
    },
    /// The model call failed; the agent stops its turn.
    ModelFailed {
        /// Who.
        agent: AgentName,
        /// What went wrong.
        error: String,
    },
    /// A tool run started.
    ToolCalled {
        /// Who runs it.
        agent: AgentName,
        /// The model's id for the call.
        tool_use_id: String,
        /// The tool.
        tool: String,
        /// Its arguments.
        input: serde_json::Value,
    },
    /// A tool run ended.
    ToolReturned {
        /// Who ran it.
        agent: AgentName,
        /// The model's id for the call.
        tool_use_id: String,
        /// The tool.
        tool: String,
        /// What the model will read.
        output: String,
        /// True for an `Error: ...` result.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
    /// Fault injection hit a message on its way to an inbox. `Drop`: it
    /// never arrives (this event replaces its `MessageSent`). `Duplicate`:
    /// it follows the first `MessageSent` and precedes the copy's.
    /// `Delay` and `Reorder`: the bus holds the message until a
    /// `MessageReleased` naming this entry's sequence number.
    FaultApplied {
        /// What was done.
        action: FaultAction,
        /// The message it was done to.
        message: Message,
        /// Which rule of the fault plan fired, counted from 1 as the page
        /// lists them (`FaultPlan::rules[rule - 1]`); `None` in traces
        /// recorded before rules were numbered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<usize>,
    },
    /// A message held by a `Delay` or `Reorder` fault was put in its
    /// recipient's inbox. Its `MessageId` is this entry's sequence number.
    MessageReleased {
        /// The sequence number of the `FaultApplied` event that held it.
        held: u64,
    },
    /// The run's budget stopped it: `agent`'s next model call would have
    /// passed `limit`, so the call was not made and the run stopped as Stop
    /// does. Written only in runs a budget stopped (older traces never
    /// carry it, and their digests are unchanged).
    BudgetReached {
        /// Whose model call was held back.
        agent: AgentName,
        /// The budget it would have passed.
        limit: BudgetLimit,
        /// What the run had spent, in the limit's unit (tokens, or
        /// millionths of a dollar).
        spent: u64,
        /// What the held-back call could spend at most, in the same unit
        /// (`runtime::budget::NextCall`: its prompt's size and
        /// `max_tokens`). Older traces carry the agent's previous call.
        expected: u64,
        /// A dollar budget on a model the price table has no price for: no
        /// call's cost can be told, so none was made.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unpriced: bool,
    },
}

/// A run's budget, as the trace records it (whole numbers, so a trace
/// compares and hashes exactly): tokens, or millionths of a US dollar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BudgetLimit {
    /// Tokens of every bucket (input, output, cache read and write).
    Tokens(u64),
    /// Millionths of a US dollar, at the price table's price.
    Microdollars(u64),
}

impl BudgetLimit {
    /// An amount in the limit's unit as people read it, in English (the
    /// event log and Mermaid export): "1200 tokens", "$0.25".
    pub fn amount(&self, n: u64) -> String {
        match self {
            BudgetLimit::Tokens(_) => format!("{n} tokens"),
            BudgetLimit::Microdollars(_) => dollars_of_micros(n),
        }
    }

    /// The cap itself, as `amount` writes it.
    pub fn cap(&self) -> String {
        match *self {
            BudgetLimit::Tokens(n) | BudgetLimit::Microdollars(n) => self.amount(n),
        }
    }
}

/// Millionths of a dollar as dollars: cents when whole cents, else up to
/// six decimals without trailing zeros ("$0.50", "$0.0042").
pub fn dollars_of_micros(micros: u64) -> String {
    if micros.is_multiple_of(10_000) {
        format!("${}.{:02}", micros / 1_000_000, micros % 1_000_000 / 10_000)
    } else {
        let frac = format!("{:06}", micros % 1_000_000);
        format!("${}.{}", micros / 1_000_000, frac.trim_end_matches('0'))
    }
}

/// Ties the file protocol names of `event` to `protocols`.
fn resolve_event(event: &mut Event, protocols: &ProtocolSet) -> Result<(), ProtocolsError> {
    let message = |m: &mut Message| -> Result<(), ProtocolsError> {
        let unresolved = m.msg_type.is_unresolved();
        match protocols.message_type_named(m.type_name()) {
            Some(t) => {
                if unresolved {
                    m.fields.remove(UNRESOLVED_TYPE_KEY);
                }
                m.msg_type = t;
                if t.is_file() {
                    m.own_fields();
                }
            }
            None if unresolved => return Err(ProtocolsError::UnknownName(m.type_name().to_string())),
            None => {}
        }
        Ok(())
    };
    match event {
        Event::MessageSent { message: m } | Event::FaultApplied { message: m, .. } => message(m)?,
        Event::RequestCreated { request_kind, .. }
        | Event::RequestTransitioned { request_kind, .. }
        | Event::RequestExpired { request_kind, .. } => *request_kind = protocols.resolve_kind(*request_kind)?,
        _ => {}
    }
    Ok(())
}

/// Serde's test for a count not worth writing.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Event {
    /// The event's kind as the trace file writes it (`member_spawned`,
    /// `message_released`, ...), for messages that name an event.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::RunStarted { .. } => "run_started",
            Event::RunFinished => "run_finished",
            Event::MemberSpawned { .. } => "member_spawned",
            Event::MemberStatusChanged { .. } => "member_status_changed",
            Event::MessageSent { .. } => "message_sent",
            Event::InboxDrained { .. } => "inbox_drained",
            Event::RequestCreated { .. } => "request_created",
            Event::RequestTransitioned { .. } => "request_transitioned",
            Event::RequestExpired { .. } => "request_expired",
            Event::ModelCalled { .. } => "model_called",
            Event::ModelReplied { .. } => "model_replied",
            Event::ModelFailed { .. } => "model_failed",
            Event::ToolCalled { .. } => "tool_called",
            Event::ToolReturned { .. } => "tool_returned",
            Event::FaultApplied { .. } => "fault_applied",
            Event::MessageReleased { .. } => "message_released",
            Event::BudgetReached { .. } => "budget_reached",
        }
    }

    /// The agent an observation event is about, if it is one.
    pub fn observed_agent(&self) -> Option<&AgentName> {
        match self {
            Event::ModelCalled { agent }
            | Event::ModelReplied { agent, .. }
            | Event::ModelFailed { agent, .. }
            | Event::ToolCalled { agent, .. }
            | Event::ToolReturned { agent, .. }
            | Event::BudgetReached { agent, .. } => Some(agent),
            _ => None,
        }
    }
}

/// One numbered, timed event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEntry {
    /// Position in the trace, from zero.
    pub seq: u64,
    /// When it happened.
    pub time: Millis,
    /// What happened.
    pub event: Event,
}

/// The append-only event log of a run, with the settings that make it
/// reproducible.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    /// Format version, for imports.
    pub version: u32,
    /// The team's name.
    pub team_name: String,
    /// The seed that request ids (and, in the runtime, scheduling) derive from.
    pub seed: u64,
    /// The protective rules the run was recorded under; written only when
    /// some rule is off, so ordinary traces are unchanged.
    #[serde(default, skip_serializing_if = "Rules::is_default")]
    pub rules: Rules,
    /// The protocol file the run ran under, when it has protocols or gates
    /// of its own (format version 2); absent for the lesson's protocols,
    /// so their traces are unchanged. Kept in step with `protocols` by
    /// `resolve_protocols`; shared, so cloning a world copies a pointer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    protocol_file: Option<Arc<RecordedFile>>,
    entries: Vec<TraceEntry>,
    /// Entries dropped from the front by `forget_all_but_last` or
    /// `forget_all` (the explorer's worlds): sequence numbers go on from
    /// there.
    #[serde(skip)]
    forgotten: u64,
    /// The time of the last entry dropped (`forget_all`): the clock goes on
    /// from there.
    #[serde(skip)]
    forgotten_time: Millis,
    /// The protocols the run ran under (the lesson's only, unless the team
    /// was given a protocol file); not written: a trace names its types and
    /// kinds by name, and `resolve_protocols` ties them to a file on import.
    #[serde(skip)]
    protocols: ProtocolSet,
}

impl Trace {
    /// An empty trace.
    pub fn new(team_name: impl Into<String>, seed: u64) -> Self {
        Trace {
            version: TRACE_FORMAT_VERSION,
            team_name: team_name.into(),
            seed,
            rules: Rules::default(),
            protocol_file: None,
            entries: Vec::new(),
            forgotten: 0,
            forgotten_time: Millis(0),
            protocols: ProtocolSet::default(),
        }
    }

    /// The protocols the run ran under.
    pub fn protocols(&self) -> &ProtocolSet {
        &self.protocols
    }

    /// The protocol file the header records (absent for the lesson's
    /// protocols).
    pub fn recorded_file(&self) -> Option<&RecordedFile> {
        self.protocol_file.as_deref()
    }

    /// Ties the trace to `protocols`: every file protocol's message type and
    /// request kind it names (read by name, from a file) gets its index in
    /// `protocols`, and the header records the file (format version 2)
    /// when it has protocols or gates of its own. Refuses, changing
    /// nothing, a name `protocols` lacks.
    pub fn resolve_protocols(&mut self, protocols: ProtocolSet) -> Result<(), ResolveError> {
        let mut entries = self.entries.clone();
        for entry in &mut entries {
            resolve_event(&mut entry.event, &protocols).map_err(|source| ResolveError { seq: entry.seq, source })?;
        }
        self.entries = entries;
        let recorded = protocols.file().filter(|f| f.has_own_protocols());
        self.protocol_file = recorded.map(|f| Arc::new(RecordedFile { name: f.name().to_string(), text: Arc::clone(&f.text) }));
        self.version = if self.protocol_file.is_some() { TRACE_FORMAT_VERSION_WITH_FILE } else { TRACE_FORMAT_VERSION };
        self.protocols = protocols;
        Ok(())
    }

    /// The sequence number the next entry will get.
    pub fn next_seq(&self) -> u64 {
        self.forgotten + self.entries.len() as u64
    }

    /// Drops every entry but the last, keeping the numbering: a world the
    /// explorer clones at every choice point carries no history (a path of
    /// choices rebuilds it). Such a trace is only a counter and a clock; it
    /// is never replayed, shown or exported.
    pub fn forget_all_but_last(&mut self) {
        let drop = self.entries.len().saturating_sub(1);
        self.forgotten += drop as u64;
        self.entries.drain(..drop);
    }

    /// Drops every entry, keeping the numbering and the clock: a trace
    /// that is only a counter and a clock (see `forget_all_but_last`), with
    /// no entry to copy when its world is cloned.
    pub fn forget_all(&mut self) {
        if let Some(last) = self.entries.last() {
            self.forgotten_time = last.time;
        }
        self.forgotten += self.entries.len() as u64;
        self.entries.clear();
    }

    /// The entries with sequence number `seq` or later.
    pub fn since(&self, seq: u64) -> &[TraceEntry] {
        let from = usize::try_from(seq.saturating_sub(self.forgotten)).unwrap_or(usize::MAX).min(self.entries.len());
        &self.entries[from..]
    }

    /// The time of the last entry (zero for an empty trace; for a trace
    /// whose entries were all forgotten, the last one's).
    pub fn last_time(&self) -> Millis {
        self.entries.last().map_or(self.forgotten_time, |e| e.time)
    }

    /// Checks that an event at `time` may be appended.
    pub fn check_append(&self, time: Millis) -> Result<(), TraceError> {
        let previous = self.last_time();
        if time < previous {
            return Err(TraceError::TimeWentBackwards { seq: self.next_seq(), at: time, previous });
        }
        Ok(())
    }

    /// Appends an event and returns its sequence number.
    pub fn append(&mut self, time: Millis, event: Event) -> Result<u64, TraceError> {
        self.check_append(time)?;
        let seq = self.next_seq();
        self.entries.push(TraceEntry { seq, time, event });
        Ok(seq)
    }

    /// Every entry, oldest first.
    pub fn entries(&self) -> &[TraceEntry] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for a trace with no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A trace from entries of unknown origin, checked for version, numbering
    /// and time order (not for protocol meaning: `Team::replay` does that).
    pub fn from_parts(team_name: String, seed: u64, version: u32, entries: Vec<TraceEntry>) -> Result<Self, TraceError> {
        if !TRACE_FORMAT_VERSIONS.contains(&version) {
            return Err(TraceError::UnsupportedVersion(version));
        }
        let mut trace = Trace::new(team_name, seed);
        for (index, entry) in entries.into_iter().enumerate() {
            let index = index as u64;
            if entry.seq != index {
                return Err(TraceError::BadSequence { index, seq: entry.seq });
            }
            trace.append(entry.time, entry.event)?;
        }
        Ok(trace)
    }

    /// Parses a trace from JSON and checks its structure, for the lesson's
    /// protocols (a recorded protocol file is not loaded: that, and the
    /// import's other checks, are `trace_file::import_json`'s).
    pub fn from_json(json: &str) -> Result<Self, String> {
        let raw: Trace = serde_json::from_str(json).map_err(|e| format!("not a valid trace file: {e}"))?;
        let rules = raw.rules;
        let mut trace = Trace::from_parts(raw.team_name, raw.seed, raw.version, raw.entries).map_err(|e| e.to_string())?;
        trace.rules = rules;
        Ok(trace)
    }

    /// The trace as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("trace serialises")
    }

    /// The first `len` entries as a trace of their own (for "as of event N").
    pub fn prefix(&self, len: usize) -> Trace {
        Trace { entries: self.entries[..len.min(self.entries.len())].to_vec(), ..self.clone_header() }
    }

    fn clone_header(&self) -> Trace {
        Trace {
            version: self.version,
            team_name: self.team_name.clone(),
            seed: self.seed,
            rules: self.rules,
            protocol_file: self.protocol_file.clone(),
            entries: Vec::new(),
            forgotten: 0,
            forgotten_time: Millis(0),
            protocols: self.protocols.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
