//! The sans-IO protocol core: messages, bus, trackers, roster, the trace and
//! the invariant checker.
//!
//! Pure and deterministic: no async, no browser crates, no clock reads (time
//! is passed in as `Millis`), no global state. Everything above it (runtime,
//! UI) changes the team only through `Team`, and reads it from the trace.

pub mod breach;
pub mod bus;
pub mod canon;
pub mod checker;
pub mod faults;
pub mod fields;
pub mod file;
pub mod ids;
pub mod message;
pub mod name;
pub mod protocols;
pub mod recorded_file;
pub mod request_kind;
pub mod roster;
pub mod rules;
pub mod small_map;
pub mod team;
#[doc(hidden)]
pub mod testing;
pub mod text;
pub mod time;
pub mod timeline;
pub mod trace;
pub mod trace_file;
pub mod tracker;

pub use breach::{Act, Arrival, Breach, FaultRef, PendingCause};
pub use bus::{Bus, BusError, Envelope, Held, MessageId};
pub use checker::{check, Checker, Violation, ViolationKind};
pub use faults::{FaultAction, FaultError, FaultPlan, FaultRule};
pub use fields::{FieldValue, Fields};
pub use message::{Message, MessageError, MessageType, RequestId};
pub use name::{AgentName, NameError};
pub use protocols::{LessonProtocol, Origin, ProtocolSet, ProtocolType, ProtocolsError};
pub use roster::{Member, MemberStatus, Roster, RosterError, SpawnKind, LEAD_INCARNATION};
pub use rules::{Rule, Rules, RulesError};
pub use team::{ReplayError, Team, TeamError, TeamState};
pub use time::Millis;
pub use timeline::Timeline;
pub use trace::{BudgetLimit, Event, ResolveError, Trace, TraceEntry, TraceError};
pub use tracker::{Incarnations, Request, RequestKind, RequestStatus, Tracker, TrackerError, Transition};
