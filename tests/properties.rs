//! Property tests of the protocol rules over random interleavings of many agents and requests, each named after the rule it checks.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use team_protocols::protocol::*;

/// A name that is never on the team: commands naming it must be refused.
const GHOST: &str = "ghost";

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

fn lead() -> AgentName {
    AgentName::lead()
}

fn other_kind(kind: RequestKind) -> RequestKind {
    if kind == RequestKind::SHUTDOWN {
        RequestKind::PLAN
    } else {
        RequestKind::SHUTDOWN
    }
}

fn response_type(kind: RequestKind) -> MessageType {
    if kind == RequestKind::SHUTDOWN {
        MessageType::SHUTDOWN_RESPONSE
    } else {
        MessageType::PLAN_APPROVAL_RESPONSE
    }
}

fn fail(reason: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(reason.to_string())
}

// ---------------------------------------------------------------------------
// Random operations on a team, and a driver that checks every command's
// outcome against a small model of the rules.
// ---------------------------------------------------------------------------

/// One command. Agent fields are indexes into the pool `[lead, teammates.., ghost]`
/// (taken modulo its length), so the same op is meaningful for any team.
#[derive(Debug, Clone)]
enum Op {
    Send {
        from: usize,
        to: usize,
        ty: u8,
        text: String,
    },
    Broadcast {
        from: usize,
        text: String,
    },
    Drain {
        agent: usize,
    },
    RequestShutdown {
        from: usize,
        target: usize,
    },
    SubmitPlan {
        from: usize,
        plan: String,
    },
    /// Answer the `pick`th request created so far (or an id nobody created),
    /// by its addressee (`by: None`) or by anyone in the pool.
    Answer {
        pick: usize,
        by: Option<usize>,
        approve: bool,
        wrong_kind: bool,
        unknown: bool,
        text: String,
    },
    SetStatus {
        agent: usize,
        to: MemberStatus,
    },
    Spawn {
        agent: usize,
        plan_mode: bool,
    },
    FinishRun,
}

/// Why an answer is expected to be refused, in the tracker's order of checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    Unknown,
    WrongKind,
    NotAddressee,
    Settled,
    /// The addressee restarted since the request was made to it.
    Stale,
}

/// A team under test plus what the test has seen of it.
#[derive(Debug, Clone)]
struct World {
    team: Team,
    /// `[lead, teammates.., ghost]`.
    pool: Vec<AgentName>,
    /// Every request id a command returned, in creation order.
    ids: Vec<RequestId>,
    now: u64,
    /// Clean mode skips the commands that would make the checker complain, so
    /// the run is a valid one.
    clean: bool,
    /// Every envelope `drain` returned, with whose inbox it came from, in order.
    delivered: Vec<(AgentName, Envelope)>,
    /// How often each teammate was spawned (its incarnation).
    spawns: BTreeMap<AgentName, u32>,
    /// The addressee's incarnation when each request was made.
    addressed: BTreeMap<RequestId, u32>,
}

impl World {
    fn new(team_name: &str, seed: u64, teammates: &[String], clean: bool) -> Self {
        let mut team = Team::new(team_name, seed);
        team.start_run("go", Millis(0)).unwrap();
        let mut pool = vec![lead()];
        let mut spawns = BTreeMap::new();
        for t in teammates {
            let n = name(t);
            team.spawn(&n, "coder", false, Millis(0)).unwrap();
            spawns.insert(n.clone(), 1);
            pool.push(n);
        }
        pool.push(name(GHOST));
        World { team, pool, ids: Vec::new(), now: 0, clean, delivered: Vec::new(), spawns, addressed: BTreeMap::new() }
    }

    fn agent(&self, i: usize) -> AgentName {
        self.pool[i % self.pool.len()].clone()
    }

    fn known(&self, n: &AgentName) -> bool {
        self.team.state().bus.knows(n)
    }

    fn status(&self, n: &AgentName) -> Option<MemberStatus> {
        self.team.roster().status(n)
    }

    fn exited(&self, n: &AgentName) -> bool {
        self.status(n) == Some(MemberStatus::Shutdown)
    }

    /// Whether `n` approved its shutdown and has not left yet: in a clean
    /// run it only finishes its turn, it sends nothing more.
    fn exiting(&self, n: &AgentName) -> bool {
        self.team.is_exiting(n)
    }

    /// The model's incarnation of `n` (the lead's is 1).
    fn incarnation(&self, n: &AgentName) -> u32 {
        if n.is_lead() {
            return 1;
        }
        self.spawns.get(n).copied().unwrap_or(0)
    }

    fn has_pending_plan(&self, n: &AgentName) -> bool {
        self.team.tracker().pending().any(|r| r.kind == RequestKind::PLAN && &r.requester == n)
    }

    /// Runs one command at `now + dt` and checks it against the model; a
    /// refused command must leave state and trace exactly as they were.
    fn step(&mut self, op: &Op, dt: u64) -> Result<(), TestCaseError> {
        self.now += dt;
        let at = Millis(self.now);
        let state_before = self.team.state().clone();
        let len_before = self.team.trace().len();
        let outcome: Result<(), TeamError> = match op {
            Op::Send { from, to, ty, text } => {
                let (from, to) = (self.agent(*from), self.agent(*to));
                if self.clean && (self.exited(&to) || self.exited(&from) || self.exiting(&from)) {
                    return Ok(());
                }
                let ty = match ty {
                    0..=3 => "message",
                    4 | 5 => "broadcast",
                    6 => "shutdown_response",
                    _ => "poke",
                };
                // A plain message to or from a teammate that has shut down is refused.
                let should = self.known(&from)
                    && self.known(&to)
                    && (ty == "message" || ty == "broadcast")
                    && !self.exited(&to)
                    && !self.exited(&from);
                let r = self.team.send(&from, &to, ty, text, at);
                prop_assert_eq!(r.is_ok(), should, "send {} -> {} ({}): {:?}", from, to, ty, r);
                if let Ok(id) = &r {
                    prop_assert_eq!(self.team.trace().len(), len_before + 1);
                    let last = self.team.trace().entries().last().unwrap();
                    prop_assert_eq!(last.seq, id.0, "a message's id is the seq of the event that sent it");
                    match &last.event {
                        Event::MessageSent { message } => {
                            prop_assert_eq!((&message.from, &message.to), (&from, &to));
                            prop_assert_eq!((message.msg_type.as_str(), message.content.as_str()), (ty, text.as_str()));
                        }
                        other => return Err(fail(format!("send recorded {other:?}"))),
                    }
                }
                r.map(drop)
            }
            Op::Broadcast { from, text } => {
                let from = self.agent(*from);
                if self.clean && (self.exited(&from) || self.exiting(&from)) {
                    return Ok(());
                }
                let expected: BTreeSet<AgentName> = if self.known(&from) {
                    self.team.state().bus.names().filter(|n| **n != from && !self.exited(n)).cloned().collect()
                } else {
                    BTreeSet::new()
                };
                let r = self.team.broadcast(&from, text, at);
                prop_assert_eq!(r.is_ok(), self.known(&from) && !self.exited(&from), "broadcast from {}: {:?}", from, r);
                if let Ok(got) = &r {
                    prop_assert_eq!(got.len(), expected.len(), "each recipient once");
                    prop_assert_eq!(got.iter().cloned().collect::<BTreeSet<_>>(), expected);
                    let new = &self.team.trace().entries()[len_before..];
                    prop_assert_eq!(new.len(), got.len());
                    for (e, to) in new.iter().zip(got) {
                        let ok = matches!(&e.event, Event::MessageSent { message }
                            if message.msg_type == MessageType::Broadcast && &message.to == to && message.from == from && &message.content == text);
                        prop_assert!(ok, "broadcast to {} recorded {:?}", to, e.event);
                    }
                }
                r.map(drop)
            }
            Op::Drain { agent } => {
                let agent = self.agent(*agent);
                let known = self.known(&agent);
                let waiting: Vec<Envelope> = if known { self.team.peek(&agent).unwrap().to_vec() } else { Vec::new() };
                let r = self.team.drain(&agent, at);
                prop_assert_eq!(r.is_ok(), known, "drain {}: {:?}", agent, r);
                if let Ok(got) = &r {
                    prop_assert_eq!(got, &waiting, "drain returns exactly what waited, oldest first");
                    prop_assert!(self.team.peek(&agent).unwrap().is_empty());
                    if got.is_empty() {
                        prop_assert_eq!(self.team.trace().len(), len_before, "an empty drain records nothing");
                    } else {
                        prop_assert_eq!(self.team.trace().len(), len_before + 1);
                        let recorded = Event::InboxDrained { agent: agent.clone(), message_ids: got.iter().map(|e| e.id).collect() };
                        prop_assert_eq!(&self.team.trace().entries().last().unwrap().event, &recorded);
                    }
                    self.delivered.extend(got.iter().map(|e| (agent.clone(), e.clone())));
                }
                r.map(drop)
            }
            Op::RequestShutdown { from, target } => {
                let (from, target) = (self.agent(*from), self.agent(*target));
                // A teammate that approved its shutdown leaves without reading
                // another request: it would stay pending.
                if self.clean && self.exiting(&target) {
                    return Ok(());
                }
                // One shutdown request at a time per run of a teammate.
                let open = self.ids.iter().any(|id| {
                    let r = self.team.request(id).unwrap();
                    r.kind == RequestKind::SHUTDOWN
                        && r.addressee == target
                        && r.status == RequestStatus::Pending
                        && self.addressed[id] == self.incarnation(&target)
                });
                let should = from.is_lead() && matches!(self.status(&target), Some(MemberStatus::Working | MemberStatus::Idle)) && !open;
                let r = self.team.request_shutdown(&from, &target, at);
                prop_assert_eq!(r.is_ok(), should, "shutdown request {} -> {}: {:?}", from, target, r);
                if let Ok(id) = &r {
                    prop_assert!(!self.ids.contains(id), "request id {} reused", id);
                    let req = self.team.request(id).unwrap();
                    prop_assert_eq!(
                        (req.kind, &req.requester, &req.addressee, req.status),
                        (RequestKind::SHUTDOWN, &lead(), &target, RequestStatus::Pending)
                    );
                    prop_assert_eq!(self.team.trace().len(), len_before + 2);
                    let bound = Incarnations { requester: 1, addressee: self.incarnation(&target) };
                    prop_assert_eq!(req.incarnations, bound, "a request binds the current runs of both sides");
                    self.addressed.insert(id.clone(), bound.addressee);
                    self.ids.push(id.clone());
                }
                r.map(drop)
            }
            Op::SubmitPlan { from, plan } => {
                let from = self.agent(*from);
                if self.clean && (self.exited(&from) || self.exiting(&from)) {
                    return Ok(());
                }
                let should = !from.is_lead() && self.status(&from).is_some();
                let r = self.team.submit_plan(&from, plan, at);
                prop_assert_eq!(r.is_ok(), should, "plan from {}: {:?}", from, r);
                if let Ok(id) = &r {
                    prop_assert!(!self.ids.contains(id), "request id {} reused", id);
                    let req = self.team.request(id).unwrap();
                    prop_assert_eq!(
                        (req.kind, &req.requester, &req.addressee, req.status),
                        (RequestKind::PLAN, &from, &lead(), RequestStatus::Pending)
                    );
                    prop_assert_eq!(req.plan.as_deref(), Some(plan.as_str()));
                    prop_assert_eq!(self.team.trace().len(), len_before + 2);
                    let bound = Incarnations { requester: self.incarnation(&from), addressee: 1 };
                    prop_assert_eq!(req.incarnations, bound, "a request binds the current runs of both sides");
                    self.addressed.insert(id.clone(), 1);
                    self.ids.push(id.clone());
                }
                r.map(drop)
            }
            Op::Answer { pick, by, approve, wrong_kind, unknown, text } => {
                let id = if *unknown || self.ids.is_empty() {
                    RequestId::parse(&format!("{:08x}", *pick as u32)).unwrap()
                } else {
                    self.ids[pick % self.ids.len()].clone()
                };
                let req = self.team.request(&id).cloned();
                let kind = match &req {
                    Some(r) if *wrong_kind => other_kind(r.kind),
                    Some(r) => r.kind,
                    None if pick % 2 == 0 => RequestKind::SHUTDOWN,
                    None => RequestKind::PLAN,
                };
                let by = match by {
                    Some(i) => self.agent(*i),
                    None => req.as_ref().map_or_else(lead, |r| r.addressee.clone()),
                };
                let expect = match &req {
                    None => Err(Refusal::Unknown),
                    Some(r) if r.kind != kind => Err(Refusal::WrongKind),
                    Some(r) if r.addressee != by => Err(Refusal::NotAddressee),
                    Some(r) if r.status != RequestStatus::Pending => Err(Refusal::Settled),
                    Some(r) if self.addressed[&r.id] < self.incarnation(&by) => Err(Refusal::Stale),
                    Some(_) if *approve => Ok(RequestStatus::Approved),
                    Some(_) => Ok(RequestStatus::Rejected),
                };
                if self.clean && expect.is_ok() && kind == RequestKind::PLAN && self.exited(&req.as_ref().unwrap().requester) {
                    return Ok(());
                }
                if self.clean && expect.is_ok() && self.exiting(&by) {
                    return Ok(());
                }
                let r = self.team.answer(kind, &id, &by, *approve, text, at);
                match (&expect, &r) {
                    (Ok(want), Ok(got)) => {
                        let requester = req.as_ref().unwrap().requester.clone();
                        prop_assert_eq!(want, got);
                        let after = self.team.request(&id).unwrap();
                        prop_assert_eq!(after.status, *want);
                        let moved = Transition { from: RequestStatus::Pending, to: *want, at, by: by.clone(), expired: false };
                        prop_assert_eq!(&after.transitions, &vec![moved]);
                        let new = &self.team.trace().entries()[len_before..];
                        prop_assert_eq!(new.len(), 2, "an answer records a transition and a response");
                        let transitioned = Event::RequestTransitioned {
                            request_id: id.clone(),
                            request_kind: kind,
                            by: by.clone(),
                            from: RequestStatus::Pending,
                            to: *want,
                        };
                        prop_assert_eq!(&new[0].event, &transitioned);
                        let ok = matches!(&new[1].event, Event::MessageSent { message }
                            if message.msg_type == response_type(kind) && message.from == by && message.to == requester
                                && message.request_id.as_ref() == Some(&id) && message.approve == Some(*approve));
                        prop_assert!(ok, "answer sent {:?}", new[1].event);
                        if kind == RequestKind::PLAN && *approve {
                            let same_run = req.as_ref().unwrap().incarnations.requester == self.incarnation(&requester);
                            let member = self.team.roster().get(&requester).is_some();
                            let closed = self.team.plan_gate_closed(&requester);
                            prop_assert!(!member || !same_run || !closed, "an approval opens the gate of the run that asked");
                            if !same_run {
                                let before = state_before.gates.is_closed(&requester, state_before.protocols.plan_gate());
                                prop_assert_eq!(closed, before, "a stale approval leaves the gate");
                            }
                        }
                    }
                    (Err(why), Err(TeamError::Tracker(e))) => {
                        let same = matches!(
                            (why, e),
                            (Refusal::Unknown, TrackerError::UnknownRequest(_))
                                | (Refusal::WrongKind, TrackerError::WrongKind { .. })
                                | (Refusal::NotAddressee, TrackerError::NotAddressee { .. })
                                | (Refusal::Settled, TrackerError::AlreadySettled { .. })
                        );
                        prop_assert!(same, "answer refused with {:?}, expected {:?}", e, why);
                    }
                    (Err(Refusal::Stale), Err(TeamError::StaleRequest { addressed, current, .. })) => {
                        prop_assert_eq!((*addressed, *current), (self.addressed[&id], self.incarnation(&by)));
                    }
                    _ => return Err(fail(format!("answer {id} ({kind}) by {by}: got {r:?}, expected {expect:?}"))),
                }
                r.map(drop)
            }
            Op::SetStatus { agent, to } => {
                let agent = self.agent(*agent);
                if self.clean && *to == MemberStatus::Shutdown && self.has_pending_plan(&agent) {
                    return Ok(());
                }
                let from = self.status(&agent);
                let should = match from {
                    None => false,
                    Some(MemberStatus::Shutdown) => *to == MemberStatus::Shutdown,
                    Some(_) => true,
                };
                let r = self.team.set_status(&agent, *to, at);
                prop_assert_eq!(r.is_ok(), should, "status of {} {:?} -> {}: {:?}", agent, from, to, r);
                if r.is_ok() {
                    prop_assert_eq!(self.status(&agent), Some(*to));
                    let grew = usize::from(from != Some(*to));
                    prop_assert_eq!(self.team.trace().len(), len_before + grew);
                }
                r.map(drop)
            }
            Op::Spawn { agent, plan_mode } => {
                let agent = self.agent(*agent);
                if agent.as_str() == GHOST {
                    return Ok(());
                }
                let should = !agent.is_lead() && self.status(&agent) != Some(MemberStatus::Working);
                // A clean run never restarts a teammate that still owes an answer.
                if self.clean && self.team.tracker().pending().any(|r| r.addressee == agent) {
                    return Ok(());
                }
                let r = self.team.spawn(&agent, "coder", *plan_mode, at);
                prop_assert_eq!(r.is_ok(), should, "spawn {}: {:?}", agent, r);
                if r.is_ok() {
                    *self.spawns.entry(agent.clone()).or_insert(0) += 1;
                    prop_assert_eq!(self.team.roster().incarnation(&agent), self.incarnation(&agent), "a spawn is a new incarnation");
                    prop_assert_eq!(self.status(&agent), Some(MemberStatus::Working));
                    prop_assert_eq!(self.team.plan_gate_closed(&agent), *plan_mode);
                    prop_assert_eq!(&self.team.state().bus, &state_before.bus, "a restart keeps every inbox as it was");
                }
                r.map(drop)
            }
            Op::FinishRun => {
                if self.clean && self.team.tracker().pending().next().is_some() {
                    return Ok(());
                }
                let r = self.team.finish_run(at);
                prop_assert!(r.is_ok(), "finish_run: {:?}", r);
                r
            }
        };
        if outcome.is_err() {
            prop_assert_eq!(self.team.state(), &state_before, "a refused command changed the state: {:?}", op);
            prop_assert_eq!(self.team.trace().len(), len_before, "a refused command changed the trace: {:?}", op);
        }
        Ok(())
    }

    /// Answers every pending request by its addressee, then finishes the run.
    fn settle_and_finish(&mut self, approve: bool) -> Result<(), TestCaseError> {
        let pending: Vec<Request> = self.team.tracker().pending().cloned().collect();
        for (i, r) in pending.iter().enumerate() {
            let pick = self.ids.iter().position(|id| *id == r.id).unwrap();
            self.step(
                &Op::Answer { pick, by: None, approve: approve ^ (i % 2 == 1), wrong_kind: false, unknown: false, text: String::new() },
                1,
            )?;
            prop_assert!(self.team.request(&r.id).unwrap().status.is_terminal(), "{} still pending", r.id);
        }
        self.step(&Op::FinishRun, 1)
    }
}

// ---------------------------------------------------------------------------
// Strategies.
// ---------------------------------------------------------------------------

/// A team name, a seed and 2..=8 distinct teammate names (with characters
/// JSON must escape).
fn setup() -> impl Strategy<Value = (String, u64, Vec<String>)> {
    let mates = prop::collection::btree_set("[a-zé\"\\\\]{1,5}", 2..=8)
        .prop_map(|s| s.into_iter().filter(|n| n != "lead" && n != GHOST).collect::<Vec<_>>())
        .prop_filter("at least two teammates", |v| v.len() >= 2);
    (".{0,8}", any::<u64>(), mates)
}

fn idx() -> std::ops::Range<usize> {
    0..32
}

fn status() -> impl Strategy<Value = MemberStatus> {
    prop_oneof![Just(MemberStatus::Idle), Just(MemberStatus::Working), Just(MemberStatus::Shutdown)]
}

/// An answer: by the addressee 70% of the time, the right protocol 90%, a
/// created id 95%.
fn answer() -> impl Strategy<Value = Op> {
    (any::<usize>(), prop::option::weighted(0.3, idx()), any::<bool>(), prop::bool::weighted(0.1), prop::bool::weighted(0.05), ".{0,4}")
        .prop_map(|(pick, by, approve, wrong_kind, unknown, text)| Op::Answer { pick, by, approve, wrong_kind, unknown, text })
}

fn shutdown_request() -> impl Strategy<Value = Op> {
    (prop_oneof![4 => Just(0usize), 1 => idx()], idx()).prop_map(|(from, target)| Op::RequestShutdown { from, target })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => (idx(), idx(), 0u8..8, ".{0,6}").prop_map(|(from, to, ty, text)| Op::Send { from, to, ty, text }),
        1 => (idx(), ".{0,6}").prop_map(|(from, text)| Op::Broadcast { from, text }),
        4 => idx().prop_map(|agent| Op::Drain { agent }),
        2 => shutdown_request(),
        2 => (idx(), ".{0,6}").prop_map(|(from, plan)| Op::SubmitPlan { from, plan }),
        4 => answer(),
        3 => (idx(), status()).prop_map(|(agent, to)| Op::SetStatus { agent, to }),
        2 => (idx(), any::<bool>()).prop_map(|(agent, plan_mode)| Op::Spawn { agent, plan_mode }),
        1 => Just(Op::FinishRun),
    ]
}

/// Ops with extra shutdowns, so teammates are often exited somewhere in a run.
fn shutdown_heavy_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => op(),
        1 => idx().prop_map(|agent| Op::SetStatus { agent, to: MemberStatus::Shutdown }),
    ]
}

/// Ops weighted towards creating and answering requests.
fn request_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => shutdown_request(),
        3 => (idx(), ".{0,6}").prop_map(|(from, plan)| Op::SubmitPlan { from, plan }),
        10 => answer(),
        1 => (idx(), status()).prop_map(|(agent, to)| Op::SetStatus { agent, to }),
        1 => (idx(), any::<bool>()).prop_map(|(agent, plan_mode)| Op::Spawn { agent, plan_mode }),
        1 => idx().prop_map(|agent| Op::Drain { agent }),
    ]
}

fn ops(op: impl Strategy<Value = Op>, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<(Op, u64)>> {
    prop::collection::vec((op, 0u64..3), len)
}

fn run(world: &mut World, ops: &[(Op, u64)]) -> Result<(), TestCaseError> {
    ops.iter().try_for_each(|(op, dt)| world.step(op, *dt))
}

// ---------------------------------------------------------------------------
// Fault injection for the checker.
// ---------------------------------------------------------------------------

/// Raw choices for one injected violation, interpreted against a clean trace
/// by `plan_injection`.
#[derive(Debug, Clone)]
struct Inject {
    what: u8,
    gap: usize,
    pick: usize,
    from: usize,
    to: usize,
    flag: bool,
    salt: u32,
}

fn inject() -> impl Strategy<Value = Inject> {
    (0u8..5, any::<usize>(), any::<usize>(), idx(), idx(), any::<bool>(), any::<u32>())
        .prop_map(|(what, gap, pick, from, to, flag, salt)| Inject { what, gap, pick, from, to, flag, salt })
}

/// A violation the checker must report for one event: its kind and request.
type Verdict = (ViolationKind, Option<RequestId>);

/// A violation as reported: sequence number, kind, request.
type Flagged = (u64, ViolationKind, Option<RequestId>);

/// A request of the clean trace: where it was created and first answered.
struct OrigRequest {
    id: RequestId,
    kind: RequestKind,
    addressee: AgentName,
    created: usize,
    answered: usize,
}

/// What a clean trace offers for injection.
struct Ctx<'a> {
    entries: &'a [TraceEntry],
    pool: &'a [AgentName],
    /// `statuses[g]`: every member's status before entry `g` (after the whole
    /// trace for `g == len`).
    statuses: Vec<BTreeMap<AgentName, MemberStatus>>,
    requests: Vec<OrigRequest>,
    /// Every (gap, teammate) where that teammate is shut down.
    exited_slots: Vec<(usize, AgentName)>,
    /// Every request id the trace mentions, plus those injected so far.
    used: BTreeSet<RequestId>,
}

/// Events to insert before original entry `gap`, each with the violations
/// the checker must report for it; `pending` is a request created and never
/// answered.
struct Planned {
    gap: usize,
    events: Vec<(Event, Vec<Verdict>)>,
    pending: Option<RequestId>,
}

impl<'a> Ctx<'a> {
    fn new(trace: &'a Trace, pool: &'a [AgentName]) -> Result<Self, TestCaseError> {
        let entries = trace.entries();
        let n = entries.len();
        // The roster as of each position, by replaying the trace event by event
        // (the same `apply` that `Team::replay` uses on every prefix).
        let snapshot = |state: &TeamState| state.roster.members.iter().map(|m| (m.name.clone(), m.status)).collect::<BTreeMap<_, _>>();
        let mut state = TeamState::new(&trace.team_name);
        let mut statuses = Vec::with_capacity(n + 1);
        for entry in entries {
            statuses.push(snapshot(&state));
            state.apply(entry).map_err(fail)?;
        }
        statuses.push(snapshot(&state));
        let exited_slots = statuses
            .iter()
            .enumerate()
            .flat_map(|(g, s)| s.iter().filter(|(_, st)| **st == MemberStatus::Shutdown).map(move |(who, _)| (g, who.clone())))
            .collect();
        let mut used = BTreeSet::new();
        let mut requests = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            match &e.event {
                Event::RequestCreated { request_id, request_kind, addressee, .. } => {
                    used.insert(request_id.clone());
                    let answered = entries
                        .iter()
                        .position(|a| {
                            matches!(&a.event, Event::MessageSent { message }
                            if message.msg_type.is_response() && message.request_id.as_ref() == Some(request_id))
                        })
                        .ok_or_else(|| fail(format!("clean run left {request_id} unanswered")))?;
                    requests.push(OrigRequest {
                        id: request_id.clone(),
                        kind: *request_kind,
                        addressee: addressee.clone(),
                        created: i,
                        answered,
                    });
                }
                Event::MessageSent { message } => used.extend(message.request_id.clone()),
                _ => {}
            }
        }
        Ok(Ctx { entries, pool, statuses, requests, exited_slots, used })
    }

    fn agent(&self, i: usize) -> AgentName {
        self.pool[i % self.pool.len()].clone()
    }

    fn teammate(&self, i: usize) -> AgentName {
        self.pool[1 + i % (self.pool.len() - 2)].clone()
    }

    /// A request id no event mentions and no earlier injection used.
    fn fresh(&mut self, salt: u32) -> RequestId {
        let mut s = salt;
        loop {
            let id = RequestId::parse(&format!("{s:08x}")).unwrap();
            if self.used.insert(id.clone()) {
                return id;
            }
            s = s.wrapping_add(1);
        }
    }

    fn response(kind: RequestKind, from: AgentName, to: AgentName, id: &RequestId, approve: bool) -> Message {
        let mut m = Message::new(response_type(kind), from, to, "injected", Millis(0));
        m.request_id = Some(id.clone());
        m.approve = Some(approve);
        m
    }

    /// Turns raw choices into events whose verdict is known exactly. A kind
    /// with nothing to aim at falls back to an answer to an unknown id.
    fn plan_injection(&mut self, inj: &Inject) -> Planned {
        let n = self.entries.len();
        let any_gap = inj.gap % (n + 1);
        let mut planned = match inj.what {
            // A second answer by the addressee, after the real one.
            1 if !self.requests.is_empty() => {
                let r = &self.requests[inj.pick % self.requests.len()];
                let gap = r.answered + 1 + inj.gap % (n - r.answered);
                let m = Self::response(r.kind, r.addressee.clone(), self.agent(inj.to), &r.id, inj.flag);
                // The addressee restarted in between: its new run answers a request of its old one.
                let restarted = self.entries[r.created..gap]
                    .iter()
                    .any(|e| matches!(&e.event, Event::MemberSpawned { name, .. } if *name == r.addressee));
                let kind = if restarted { ViolationKind::AnswerAcrossRestart } else { ViolationKind::SecondAnswer };
                Planned { gap, events: vec![(Event::MessageSent { message: m }, vec![(kind, Some(r.id.clone()))])], pending: None }
            }
            // An answer by someone other than the addressee, any time after creation.
            2 if !self.requests.is_empty() => {
                let r = &self.requests[inj.pick % self.requests.len()];
                let gap = r.created + 1 + inj.gap % (n - r.created);
                let mut from = self.agent(inj.from);
                if from == r.addressee {
                    from = self.agent(inj.from + 1);
                }
                let m = Self::response(r.kind, from, self.agent(inj.to), &r.id, inj.flag);
                Planned {
                    gap,
                    events: vec![(Event::MessageSent { message: m }, vec![(ViolationKind::AnswerFromWrongAgent, Some(r.id.clone()))])],
                    pending: None,
                }
            }
            // A plain message to a teammate that is shut down at that point
            // (the verdict is added below, like for every injected message).
            3 if !self.exited_slots.is_empty() => {
                let (gap, target) = self.exited_slots[inj.pick % self.exited_slots.len()].clone();
                let ty = if inj.flag { MessageType::Message } else { MessageType::Broadcast };
                let m = Message::new(ty, self.agent(inj.from), target, "still there?", Millis(0));
                Planned { gap, events: vec![(Event::MessageSent { message: m }, vec![])], pending: None }
            }
            // A request created and sent, never answered.
            4 => {
                let id = self.fresh(inj.salt);
                let mate = self.teammate(inj.from);
                let (kind, requester, addressee, ty) = if inj.flag {
                    (RequestKind::PLAN, mate, lead(), MessageType::PLAN_APPROVAL_REQUEST)
                } else {
                    (RequestKind::SHUTDOWN, lead(), mate, MessageType::SHUTDOWN_REQUEST)
                };
                let plan = (kind == RequestKind::PLAN).then(|| "injected plan".to_string());
                let created = Event::RequestCreated {
                    request_id: id.clone(),
                    request_kind: kind,
                    requester: requester.clone(),
                    addressee: addressee.clone(),
                    plan: plan.clone(),
                    fields: Default::default(),
                };
                let mut m = Message::new(ty, requester, addressee, "injected", Millis(0));
                m.request_id = Some(id.clone());
                m.plan = plan;
                // Now and then after the last RunFinished: still pending, but not a violation.
                let gap = if inj.salt.is_multiple_of(4) { n } else { any_gap };
                Planned { gap, events: vec![(created, vec![]), (Event::MessageSent { message: m }, vec![])], pending: Some(id) }
            }
            // An answer to an id nobody created, to a request of the other protocol, or with no id.
            _ => {
                let (kind, id) = match self.requests.get(inj.pick % self.requests.len().max(1)) {
                    Some(r) if inj.flag => (other_kind(r.kind), r.id.clone()),
                    _ => (if inj.pick.is_multiple_of(2) { RequestKind::SHUTDOWN } else { RequestKind::PLAN }, self.fresh(inj.salt)),
                };
                let mut m = Self::response(kind, self.agent(inj.from), self.agent(inj.to), &id, inj.flag);
                // Now and then with no id at all, as only an import could have it.
                if inj.salt % 8 == 7 {
                    m.request_id = None;
                }
                let flagged = m.request_id.clone();
                Planned {
                    gap: any_gap,
                    events: vec![(Event::MessageSent { message: m }, vec![(ViolationKind::AnswerToUnknownRequest, flagged)])],
                    pending: None,
                }
            }
        };
        // Any injected message to a teammate shut down at that point is flagged too.
        let statuses = &self.statuses[planned.gap];
        for (event, expect) in &mut planned.events {
            if let Event::MessageSent { message } = event {
                if statuses.get(&message.to) == Some(&MemberStatus::Shutdown) {
                    expect.push((ViolationKind::MessageToExitedTeammate, message.request_id.clone()));
                }
            }
        }
        planned
    }
}

/// Inserts the planned events, renumbers, and returns the new trace with the
/// exact `(seq, kind, request)` list the checker must report (sorted).
fn build(trace: &Trace, mut planned: Vec<Planned>) -> Result<(Trace, Vec<Flagged>), TestCaseError> {
    let entries = trace.entries();
    let n = entries.len();
    planned.sort_by_key(|p| p.gap);
    let mut out: Vec<TraceEntry> = Vec::new();
    let mut expected = Vec::new();
    let mut new_seq = vec![0u64; n];
    let mut next = planned.iter().peekable();
    // Teammates whose shutdown the clean run approved (and whether an act
    // after it was flagged yet: once per approval), until spawned again.
    let mut exiting: BTreeMap<AgentName, (RequestId, bool)> = BTreeMap::new();
    for g in 0..=n {
        while let Some(p) = next.next_if(|p| p.gap == g) {
            for (event, expect) in &p.events {
                let seq = out.len() as u64;
                let time = out.last().map_or(Millis(0), |e| e.time);
                out.push(TraceEntry { seq, time, event: event.clone() });
                expected.extend(expect.iter().map(|(kind, id)| (seq, *kind, id.clone())));
                // A word from a teammate that approved its shutdown is one act
                // too many, unless it is that answer again.
                if let Event::MessageSent { message } = event {
                    if let Some((id, flagged)) = exiting.get_mut(&message.from) {
                        let the_answer = message.msg_type == MessageType::SHUTDOWN_RESPONSE && message.request_id.as_ref() == Some(id);
                        if !*flagged && !the_answer {
                            *flagged = true;
                            expected.push((seq, ViolationKind::ActAfterShutdownApproved, Some(id.clone())));
                        }
                    }
                }
            }
        }
        if g < n {
            match &entries[g].event {
                Event::RequestTransitioned { request_id, request_kind: RequestKind::SHUTDOWN, to: RequestStatus::Approved, by, .. }
                    if !by.is_lead() =>
                {
                    exiting.insert(by.clone(), (request_id.clone(), false));
                }
                Event::MemberSpawned { name, .. } => {
                    exiting.remove(name);
                }
                _ => {}
            }
            new_seq[g] = out.len() as u64;
            // A message's id is the seq that sent it: renumber the ids that
            // later events refer to, or they would name injected messages.
            let mut event = entries[g].event.clone();
            match &mut event {
                Event::InboxDrained { message_ids, .. } => {
                    for id in message_ids.iter_mut() {
                        id.0 = new_seq[id.0 as usize];
                    }
                }
                Event::MessageReleased { held } => *held = new_seq[*held as usize],
                _ => {}
            }
            out.push(TraceEntry { seq: out.len() as u64, time: entries[g].time, event });
        }
    }
    // A request left unanswered is flagged at the first RunFinished after it.
    for p in &planned {
        if let Some(id) = &p.pending {
            if let Some(f) = (p.gap..n).find(|&i| entries[i].event == Event::RunFinished) {
                expected.push((new_seq[f], ViolationKind::LeftPending, Some(id.clone())));
            }
        }
    }
    expected.sort();
    let bad = Trace::from_parts(trace.team_name.clone(), trace.seed, trace.version, out).map_err(fail)?;
    Ok((bad, expected))
}

// ---------------------------------------------------------------------------
// The properties.
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    /// Every message sent is delivered exactly once, to its recipient, and
    /// messages from one sender to one recipient arrive in the order sent.
    #[test]
    fn bus_never_loses_or_duplicates_a_message_and_keeps_per_sender_fifo_order(
        (team_name, seed, mates) in setup(),
        ops in ops(op(), 1..120),
    ) {
        let mut w = World::new(&team_name, seed, &mates, false);
        run(&mut w, &ops)?;
        for i in 0..w.pool.len() {
            w.step(&Op::Drain { agent: i }, 1)?;
        }
        prop_assert_eq!(w.team.state().bus.pending_total(), 0);

        let sent: Vec<(MessageId, &Message)> = w
            .team
            .trace()
            .entries()
            .iter()
            .filter_map(|e| match &e.event {
                Event::MessageSent { message } => Some((MessageId(e.seq), message)),
                _ => None,
            })
            .collect();
        let by_id: BTreeMap<MessageId, &Message> = sent.iter().copied().collect();
        let mut times: BTreeMap<MessageId, usize> = BTreeMap::new();
        for (inbox, env) in &w.delivered {
            let Some(m) = by_id.get(&env.id) else { return Err(fail(format!("{:?} delivered but never sent", env.id))) };
            prop_assert_eq!(&env.message, *m, "delivered message differs from the one sent");
            prop_assert_eq!(&env.message.to, inbox, "delivered to the wrong inbox");
            *times.entry(env.id).or_default() += 1;
        }
        for (id, m) in &sent {
            prop_assert_eq!(times.get(id).copied().unwrap_or(0), 1, "{:?} ({} -> {}) delivered the wrong number of times", id, m.from, m.to);
        }

        let mut sent_order: BTreeMap<(&AgentName, &AgentName), Vec<MessageId>> = BTreeMap::new();
        for (id, m) in &sent {
            sent_order.entry((&m.from, &m.to)).or_default().push(*id);
        }
        let mut delivered_order: BTreeMap<(&AgentName, &AgentName), Vec<MessageId>> = BTreeMap::new();
        for (_, env) in &w.delivered {
            delivered_order.entry((&env.message.from, &env.message.to)).or_default().push(env.id);
        }
        prop_assert_eq!(&delivered_order, &sent_order, "per (sender, recipient) delivery order differs from send order");

        let recorded: Vec<(&AgentName, MessageId)> = w
            .team
            .trace()
            .entries()
            .iter()
            .flat_map(|e| match &e.event {
                Event::InboxDrained { agent, message_ids } => message_ids.iter().map(|id| (agent, *id)).collect(),
                _ => Vec::new(),
            })
            .collect();
        let returned: Vec<(&AgentName, MessageId)> = w.delivered.iter().map(|(a, e)| (a, e.id)).collect();
        prop_assert_eq!(recorded, returned, "the trace's deliveries are what drain returned");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A request moves at most once, from pending to approved or rejected, and
    /// stays there; every refused answer changes neither state nor trace.
    #[test]
    fn at_most_one_terminal_state_per_request(
        (team_name, seed, mates) in setup(),
        ops in ops(request_op(), 1..100),
    ) {
        let mut w = World::new(&team_name, seed, &mates, false);
        let mut settled: BTreeMap<RequestId, RequestStatus> = BTreeMap::new();
        for (op, dt) in &ops {
            // `step` checks each answer against the FSM and that refusals leave
            // state and trace length untouched.
            w.step(op, *dt)?;
            for r in w.team.tracker().iter() {
                prop_assert!(r.transitions.len() <= 1, "{} moved {} times", r.id, r.transitions.len());
                match settled.get(&r.id) {
                    Some(s) => prop_assert_eq!(r.status, *s, "terminal state of {} changed", r.id),
                    None if r.status.is_terminal() => { settled.insert(r.id.clone(), r.status); }
                    None => {}
                }
            }
        }
        prop_assert_eq!(w.team.tracker().len(), w.ids.len());
        for r in w.team.tracker().iter() {
            prop_assert_eq!(r.status.is_terminal(), r.transitions.len() == 1, "{}: {} with {:?}", r.id, r.status, r.transitions);
            if let Some(t) = r.transitions.first() {
                prop_assert_eq!((t.from, t.to, &t.by), (RequestStatus::Pending, r.status, &r.addressee));
            }
            let moves = w.team.trace().entries().iter().filter(|e| matches!(&e.event,
                Event::RequestTransitioned { request_id, .. } if *request_id == r.id)).count();
            let responses = w.team.trace().entries().iter().filter(|e| matches!(&e.event,
                Event::MessageSent { message } if message.msg_type.is_response() && message.request_id.as_ref() == Some(&r.id))).count();
            prop_assert_eq!((moves, responses), (r.transitions.len(), r.transitions.len()), "trace records of {}", r.id);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Replaying the trace (directly, or after a JSON round trip) rebuilds the
    /// live state; every prefix replays, and matches the live state as of
    /// that point; a replayed team continues exactly like the live one.
    #[test]
    fn replay_of_the_trace_equals_live_state(
        (team_name, seed, mates) in setup(),
        ops in ops(op(), 0..80),
        split in any::<prop::sample::Index>(),
    ) {
        let mut w = World::new(&team_name, seed, &mates, false);
        let mut snapshots: BTreeMap<usize, TeamState> = BTreeMap::new();
        snapshots.insert(w.team.trace().len(), w.team.state().clone());
        let cut = split.index(ops.len() + 1);
        for (op, dt) in &ops[..cut] {
            w.step(op, *dt)?;
            snapshots.insert(w.team.trace().len(), w.team.state().clone());
        }
        let mut twin = w.clone();
        twin.team = Team::replay(w.team.trace()).map_err(fail)?;
        for (op, dt) in &ops[cut..] {
            w.step(op, *dt)?;
            twin.step(op, *dt)?;
            snapshots.insert(w.team.trace().len(), w.team.state().clone());
        }
        prop_assert_eq!(twin.team.trace(), w.team.trace(), "a replayed team continues like the live one");
        prop_assert_eq!(twin.team.state(), w.team.state());

        let trace = w.team.trace();
        let replayed = Team::replay(trace).map_err(fail)?;
        prop_assert_eq!(replayed.state(), w.team.state());
        prop_assert_eq!(replayed.trace(), trace);

        let back = Trace::from_json(&trace.to_json()).map_err(fail)?;
        prop_assert_eq!(&back, trace, "JSON round trip");
        let from_json = Team::replay(&back).map_err(fail)?;
        prop_assert_eq!(from_json.state(), w.team.state());

        for p in 0..=trace.len() {
            let r = Team::replay(&trace.prefix(p)).map_err(|e| fail(format!("prefix of {p} events does not replay: {e}")))?;
            if let Some(s) = snapshots.get(&p) {
                prop_assert_eq!(r.state(), s, "replay of {} events differs from the live state then", p);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A clean run raises nothing; after injecting raw violations, the
    /// checker reports exactly those, at their sequence numbers.
    #[test]
    fn checker_flags_exactly_the_injected_violations(
        (team_name, seed, mates) in setup(),
        ops in ops(shutdown_heavy_op(), 0..60),
        approve in any::<bool>(),
        injections in prop::collection::vec(inject(), 0..6),
    ) {
        let mut w = World::new(&team_name, seed, &mates, true);
        run(&mut w, &ops)?;
        w.settle_and_finish(approve)?;
        let clean = w.team.trace();
        prop_assert_eq!(check(clean), vec![], "a clean run has no violations");

        let mut ctx = Ctx::new(clean, &w.pool)?;
        let planned: Vec<Planned> = injections.iter().map(|i| ctx.plan_injection(i)).collect();
        let (bad, expected) = build(clean, planned)?;
        let found = check(&bad);
        prop_assert!(found.windows(2).all(|v| v[0].seq <= v[1].seq), "violations come in trace order");
        let mut got: Vec<Flagged> = found.into_iter().map(|v| (v.seq, v.kind, v.request_id)).collect();
        got.sort();
        prop_assert_eq!(got, expected);
    }
}
