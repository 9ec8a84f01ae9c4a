//! The properties the explorer judges every run by, in Stateright's three
//! kinds: `always` (no reachable state breaks it), `sometimes` (some
//! reachable state shows it: the paths the tests rely on exist) and
//! `eventually` (every run that ends has it by its end).
//!
//! The `always` properties are the invariant checker's (`protocol::checker`,
//! one per finding kind) plus invariants from failures reported against a
//! production agent-team tool (Claude Code's agent teams): a teammate acting
//! after approving its shutdown, a plan-mode teammate changing the workspace
//! before approval, a request no one may legally answer.
//!
//! Owns the property list and `Monitor`, a fold over trace entries that says
//! which property an entry breaks. It reads traces only; it must not run
//! agents or search.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::detail::Detail;
use crate::protocol::small_map::SmallMap;
use crate::protocol::{AgentName, Checker, Event, ProtocolSet, RequestId, RequestStatus, Team, TraceEntry, ViolationKind};

/// How a property quantifies over runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantifier {
    /// In every reachable state.
    Always,
    /// In at least one reachable state.
    Sometimes,
    /// By the end of every run.
    Eventually,
}

/// A property of agent-team runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Property {
    /// Always: no response names a request nobody created.
    NoAnswerToUnknownRequest,
    /// Always: no request is answered twice.
    NoSecondAnswer,
    /// Always: only a request's addressee answers it (the lead approving its
    /// own shutdown: anthropics/claude-code#81464).
    OnlyTheAddresseeAnswers,
    /// Always: no answer crosses a restart (a stale request shutting down a
    /// respawned teammate: anthropics/claude-code#45874).
    NoAnswerAcrossRestart,
    /// Always: no request crosses a restart: a restarted teammate never
    /// reads a request addressed to its previous run (anthropics/claude-code#45874).
    NoRequestAcrossRestart,
    /// Always: nobody messages a teammate that has shut down.
    NoMessageToExitedTeammate,
    /// Always: no answer recorded by the tracker is lost on its way.
    NoAnswerLost,
    /// Always: no reply is read twice.
    NoDuplicateDelivered,
    /// Always: a teammate that approved its shutdown makes no new model call
    /// and acts no more once its turn is over (it finishes its turn, then
    /// exits: anthropics/claude-code#37895, #60199). The checker's
    /// `ActAfterShutdownApproved`.
    NoActionAfterShutdownApproved,
    /// Always: a plan-mode teammate changes no file before its plan is
    /// approved (anthropics/claude-code#65458).
    NoWorkBeforePlanApproval,
    /// Always: every request is addressed to someone with the tool to
    /// answer it (anthropics/claude-code#50310).
    EveryRequestHasAResponder,
    /// Sometimes: a request is approved.
    SomeRequestApproved,
    /// Sometimes: a request is rejected.
    SomeRequestRejected,
    /// Eventually: every request settles (approved or rejected).
    RequestsSettle,
    /// Eventually: every teammate that approved its shutdown reaches
    /// `shutdown`.
    ApprovedShutdownsExit,
    /// Eventually: no run goes quiet, every agent idle, while a request is
    /// pending (a shutdown never answered: anthropics/claude-code#51556).
    NoQuietWhilePending,
    /// Eventually: every run ends (no state where nothing can move while
    /// the run is still on).
    RunsEnd,
    /// Always: no tool a protocol file's gate holds runs while that gate is
    /// closed for the agent (the checker's `GatedToolWhileClosed`; the
    /// runtime refuses such a call, so a run breaks it only if a gate is
    /// not enforced).
    NoGatedToolWhileClosed,
    /// Always: no request is answered after its deadline passed (the
    /// checker's `AnswerAfterExpiry`): an expired request is answered by no
    /// one.
    NoAnswerAfterExpiry,
}

impl Property {
    /// Every property, in report order.
    pub const ALL: [Property; 19] = [
        Property::NoAnswerToUnknownRequest,
        Property::NoSecondAnswer,
        Property::OnlyTheAddresseeAnswers,
        Property::NoAnswerAcrossRestart,
        Property::NoRequestAcrossRestart,
        Property::NoMessageToExitedTeammate,
        Property::NoAnswerLost,
        Property::NoDuplicateDelivered,
        Property::NoActionAfterShutdownApproved,
        Property::NoWorkBeforePlanApproval,
        Property::EveryRequestHasAResponder,
        Property::NoGatedToolWhileClosed,
        Property::NoAnswerAfterExpiry,
        Property::SomeRequestApproved,
        Property::SomeRequestRejected,
        Property::RequestsSettle,
        Property::ApprovedShutdownsExit,
        Property::NoQuietWhilePending,
        Property::RunsEnd,
    ];

    /// Its quantifier.
    pub fn quantifier(self) -> Quantifier {
        match self {
            Property::SomeRequestApproved | Property::SomeRequestRejected => Quantifier::Sometimes,
            Property::RequestsSettle | Property::ApprovedShutdownsExit | Property::NoQuietWhilePending | Property::RunsEnd => {
                Quantifier::Eventually
            }
            _ => Quantifier::Always,
        }
    }

    /// Its snake_case name (the JSON report's key).
    pub fn name(self) -> &'static str {
        match self {
            Property::NoAnswerToUnknownRequest => "no_answer_to_unknown_request",
            Property::NoSecondAnswer => "no_second_answer",
            Property::OnlyTheAddresseeAnswers => "only_the_addressee_answers",
            Property::NoAnswerAcrossRestart => "no_answer_across_restart",
            Property::NoRequestAcrossRestart => "no_request_across_restart",
            Property::NoMessageToExitedTeammate => "no_message_to_exited_teammate",
            Property::NoAnswerLost => "no_answer_lost",
            Property::NoDuplicateDelivered => "no_duplicate_delivered",
            Property::NoActionAfterShutdownApproved => "no_action_after_shutdown_approved",
            Property::NoWorkBeforePlanApproval => "no_work_before_plan_approval",
            Property::EveryRequestHasAResponder => "every_request_has_a_responder",
            Property::SomeRequestApproved => "some_request_approved",
            Property::SomeRequestRejected => "some_request_rejected",
            Property::RequestsSettle => "requests_settle",
            Property::ApprovedShutdownsExit => "approved_shutdowns_exit",
            Property::NoQuietWhilePending => "no_quiet_while_pending",
            Property::RunsEnd => "runs_end",
            Property::NoGatedToolWhileClosed => "no_gated_tool_while_closed",
            Property::NoAnswerAfterExpiry => "no_answer_after_expiry",
        }
    }

    /// The property with this name.
    pub fn by_name(name: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The `always` property a checker finding breaks (`LeftPending` is the
    /// eventually property `RequestsSettle`).
    pub fn of_finding(kind: ViolationKind) -> Property {
        match kind {
            ViolationKind::AnswerToUnknownRequest => Property::NoAnswerToUnknownRequest,
            ViolationKind::SecondAnswer => Property::NoSecondAnswer,
            ViolationKind::AnswerFromWrongAgent => Property::OnlyTheAddresseeAnswers,
            ViolationKind::AnswerAcrossRestart => Property::NoAnswerAcrossRestart,
            ViolationKind::RequestAcrossRestart => Property::NoRequestAcrossRestart,
            ViolationKind::MessageToExitedTeammate => Property::NoMessageToExitedTeammate,
            ViolationKind::LeftPending => Property::RequestsSettle,
            ViolationKind::AnswerLost => Property::NoAnswerLost,
            ViolationKind::DuplicateDelivered => Property::NoDuplicateDelivered,
            ViolationKind::ActAfterShutdownApproved => Property::NoActionAfterShutdownApproved,
            ViolationKind::GatedToolWhileClosed => Property::NoGatedToolWhileClosed,
            ViolationKind::AnswerAfterExpiry => Property::NoAnswerAfterExpiry,
        }
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let q = match self.quantifier() {
            Quantifier::Always => "always",
            Quantifier::Sometimes => "sometimes",
            Quantifier::Eventually => "eventually",
        };
        write!(f, "{q} {}", self.name())
    }
}

/// A property broken (or, for `sometimes`, shown) at one entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Which property.
    pub property: Property,
    /// The entry it happened at (for a run that ends or sticks: its last).
    pub seq: u64,
    /// What happened, as facts (its `Display` is the English sentence).
    pub detail: Detail,
}

/// A fold over trace entries that reports each property an entry breaks
/// (or shows). Cloneable: the explorer keeps one per state.
#[derive(Debug, Clone, Default)]
pub struct Monitor {
    checker: Checker,
    seen_findings: usize,
    /// Plan-mode teammates and whether a plan of theirs was approved.
    plan_mode: SmallMap<AgentName, bool>,
    /// Who asked for each plan request.
    plan_authors: SmallMap<RequestId, AgentName>,
    /// Properties already broken (or shown) on this path.
    broken: BTreeSet<Property>,
}

impl Monitor {
    /// A monitor that has seen nothing.
    pub fn new() -> Self {
        Monitor::default()
    }

    /// A monitor that has seen nothing, for a run under `protocols` (a
    /// protocol file's: its checker tells the file's requests and answers
    /// apart as `protocol::check` does from a trace's protocols).
    pub fn with_protocols(protocols: ProtocolSet) -> Self {
        Monitor { checker: Checker::with_protocols(protocols), ..Monitor::default() }
    }

    /// The properties broken (or shown) so far on this path.
    pub fn broken(&self) -> &BTreeSet<Property> {
        &self.broken
    }

    fn note(&mut self, out: &mut Vec<Finding>, property: Property, seq: u64, detail: Detail) {
        if self.broken.insert(property) {
            out.push(Finding { property, seq, detail });
        }
    }

    /// Takes in the next entry; returns the properties it breaks (each
    /// property once per path).
    pub fn observe(&mut self, entry: &TraceEntry) -> Vec<Finding> {
        let mut out = Vec::new();
        self.checker.observe(entry);
        let found: Vec<_> = self.checker.violations()[self.seen_findings..].to_vec();
        self.seen_findings = self.checker.violations().len();
        for v in found {
            if v.kind != ViolationKind::LeftPending {
                self.note(&mut out, Property::of_finding(v.kind), v.seq, Detail::Checker { breach: v.detail });
            }
        }
        let seq = entry.seq;
        match &entry.event {
            Event::MemberSpawned { name, plan_mode, .. } => {
                if *plan_mode {
                    self.plan_mode.insert(name.clone(), false);
                } else {
                    self.plan_mode.remove(name);
                }
            }
            Event::RequestCreated { request_id, request_kind, requester, addressee, .. } => {
                let running = self.checker.protocols().running(*request_kind);
                // The requests whose approval opens the lesson's plan gate
                // (the lesson's plan approval), by author.
                if running.is_some_and(|p| p.opens_lesson_gate()) {
                    self.plan_authors.insert(request_id.clone(), requester.clone());
                }
                // `Team::ask` sends a request only to the role that answers
                // it; that role has the answer tool unless the file has none
                // (`responder_required` switched off).
                let legal = running.is_none_or(|p| p.def.tools.respond.is_some() && p.def.to.admits(addressee));
                if !legal {
                    let detail = Detail::NoResponder { request: request_id.clone(), kind: *request_kind, addressee: addressee.clone() };
                    self.note(&mut out, Property::EveryRequestHasAResponder, seq, detail);
                }
            }
            Event::RequestTransitioned { request_id, by, to, .. } => {
                if *to == RequestStatus::Approved {
                    let author = self.plan_authors.get(request_id).cloned();
                    if let Some(gate) = author.and_then(|a| self.plan_mode.get_mut(&a)) {
                        *gate = true;
                    }
                }
                if *to == RequestStatus::Approved {
                    let detail = Detail::Approved { by: by.clone(), request: request_id.clone() };
                    self.note(&mut out, Property::SomeRequestApproved, seq, detail);
                }
                if *to == RequestStatus::Rejected {
                    let detail = Detail::Rejected { by: by.clone(), request: request_id.clone() };
                    self.note(&mut out, Property::SomeRequestRejected, seq, detail);
                }
            }
            Event::ToolReturned { agent, tool, is_error: false, .. }
                if matches!(tool.as_str(), "write_file" | "edit_file") && self.plan_mode.get(agent) == Some(&false) =>
            {
                let detail = Detail::WorkBeforePlanApproval { agent: agent.clone(), tool: tool.clone() };
                self.note(&mut out, Property::NoWorkBeforePlanApproval, seq, detail);
            }
            _ => {}
        }
        out
    }

    /// At a point where the team went quiet (a `RunFinished`): a request
    /// still pending breaks `NoQuietWhilePending`.
    pub fn at_quiet(&mut self, team: &Team, seq: u64) -> Vec<Finding> {
        let mut out = Vec::new();
        if let Some(r) = team.tracker().pending().next() {
            let detail = Detail::QuietWhilePending {
                kind: r.kind,
                request: r.id.clone(),
                requester: r.requester.clone(),
                addressee: r.addressee.clone(),
            };
            self.note(&mut out, Property::NoQuietWhilePending, seq, detail);
        }
        out
    }

    /// At the end of a run: the `eventually` properties it does not have.
    pub fn at_end(&mut self, team: &Team, seq: u64) -> Vec<Finding> {
        let mut out = Vec::new();
        if let Some(r) = team.tracker().pending().next() {
            let detail = Detail::EndedPending { kind: r.kind, request: r.id.clone(), addressee: r.addressee.clone() };
            self.note(&mut out, Property::RequestsSettle, seq, detail);
        }
        if let Some(m) = team.roster().members.iter().find(|m| m.is_exiting()) {
            let detail = Detail::ApprovedNotExited { agent: m.name.clone(), status: m.status };
            self.note(&mut out, Property::ApprovedShutdownsExit, seq, detail);
        }
        out
    }

    /// A state where nothing can move while the run is still on.
    pub fn at_stuck(&mut self, seq: u64) -> Vec<Finding> {
        let mut out = Vec::new();
        self.note(&mut out, Property::RunsEnd, seq, Detail::Stuck);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::testing::handshake;
    use crate::protocol::{MemberStatus, Millis, RequestId, RequestKind, Trace};

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// The properties `events` break, after `trace`'s entries.
    fn broken_by(trace: &Trace, events: Vec<Event>) -> Vec<Property> {
        let mut m = Monitor::new();
        let mut found: Vec<Property> = trace.entries().iter().flat_map(|e| m.observe(e)).map(|f| f.property).collect();
        for (seq, event) in (trace.next_seq()..).zip(events) {
            found.extend(m.observe(&TraceEntry { seq, time: Millis(seq), event }).into_iter().map(|f| f.property));
        }
        found.retain(|p| p.quantifier() != Quantifier::Sometimes);
        found
    }

    #[test]
    fn a_clean_handshake_breaks_nothing() {
        assert_eq!(broken_by(&handshake(), vec![]), vec![]);
    }

    #[test]
    fn a_teammate_calling_its_model_after_approving_its_shutdown_is_caught() {
        // The handshake without its last two entries: alice approved, and
        // has not reached `shutdown` yet.
        let full = handshake();
        let approved = full.prefix(full.len() - 2);
        assert_eq!(broken_by(&approved, vec![]), vec![]);
        let acts = vec![Event::ModelCalled { agent: name("alice") }];
        assert_eq!(broken_by(&approved, acts.clone()), vec![Property::NoActionAfterShutdownApproved]);
        // Once she has shut down and is spawned again, the new run may work.
        let respawned = vec![
            Event::MemberStatusChanged { name: name("alice"), from: MemberStatus::Working, to: MemberStatus::Shutdown },
            Event::MemberSpawned { name: name("alice"), role: "coder".into(), plan_mode: false },
            Event::ModelCalled { agent: name("alice") },
        ];
        assert_eq!(broken_by(&approved, respawned), vec![]);
    }

    #[test]
    fn a_plan_mode_teammate_writing_before_approval_is_caught_and_after_approval_is_not() {
        let bob = name("bob");
        let id = RequestId::parse("0badf00d").unwrap();
        let write = |ok: bool| Event::ToolReturned {
            agent: bob.clone(),
            tool_use_id: "t1".into(),
            tool: "write_file".into(),
            output: "Wrote src/a.py".into(),
            is_error: !ok,
        };
        let spawn = Event::MemberSpawned { name: bob.clone(), role: "coder".into(), plan_mode: true };
        let empty = Trace::new("default", 1);
        assert_eq!(broken_by(&empty, vec![spawn.clone(), write(true)]), vec![Property::NoWorkBeforePlanApproval]);
        assert_eq!(broken_by(&empty, vec![spawn.clone(), write(false)]), vec![], "a refused write changed nothing");
        let approve = vec![
            spawn,
            Event::RequestCreated {
                request_id: id.clone(),
                request_kind: RequestKind::PLAN,
                requester: bob.clone(),
                addressee: AgentName::lead(),
                plan: Some("small steps".into()),
                fields: Default::default(),
            },
            Event::RequestTransitioned {
                request_id: id,
                request_kind: RequestKind::PLAN,
                by: AgentName::lead(),
                from: RequestStatus::Pending,
                to: RequestStatus::Approved,
            },
            write(true),
        ];
        assert_eq!(broken_by(&empty, approve), vec![]);
    }

    #[test]
    fn a_request_nobody_may_answer_is_caught() {
        let to_lead = Event::RequestCreated {
            request_id: RequestId::parse("0badf00d").unwrap(),
            request_kind: RequestKind::SHUTDOWN,
            requester: name("alice"),
            addressee: AgentName::lead(),
            plan: None,
            fields: Default::default(),
        };
        assert!(broken_by(&Trace::new("default", 1), vec![to_lead]).contains(&Property::EveryRequestHasAResponder));
    }

    #[test]
    fn every_checker_finding_maps_to_a_property_of_its_own() {
        let kinds = ViolationKind::ALL;
        let mapped: BTreeSet<Property> = kinds.iter().map(|k| Property::of_finding(*k)).collect();
        assert_eq!(mapped.len(), kinds.len());
        for p in Property::ALL {
            assert_eq!(Property::by_name(p.name()), Some(p));
        }
    }
}
