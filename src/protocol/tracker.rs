//! Request trackers: the requests of every protocol, the lesson's shutdown
//! and plan as a protocol file's, on one shared state machine,
//! `pending -> approved | rejected` (an expiry is `pending -> rejected` with
//! cause `expired`), with every transition and its time.
//!
//! Owns request state only (a request's protocol is named by
//! `RequestKind`, its own module). Sending the request and response messages is the
//! caller's job (`team`), as is checking that the agents exist.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::fields::Fields;
use super::ids::IdSource;
use super::message::RequestId;
pub use super::request_kind::RequestKind;
use super::rules::Rules;
use super::time::Millis;
use super::AgentName;

/// How many fresh ids are tried before giving up on a collision streak.
pub const MAX_ID_ATTEMPTS: usize = 64;

/// Errors from the trackers, phrased so they can be handed to a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrackerError {
    /// No request has this id.
    #[error("unknown request_id '{0}'; check the id in the request you received")]
    UnknownRequest(RequestId),
    /// The request was answered already; terminal states are final.
    #[error("request '{id}' was already {status}; a request can be answered only once")]
    AlreadySettled {
        /// The request.
        id: RequestId,
        /// Its terminal state.
        status: RequestStatus,
    },
    /// Someone other than the addressee tried to answer.
    #[error("request '{id}' is addressed to '{addressee}'; '{by}' cannot answer it")]
    NotAddressee {
        /// The request.
        id: RequestId,
        /// The one who may answer.
        addressee: AgentName,
        /// The one who tried.
        by: AgentName,
    },
    /// The request is of the other protocol.
    #[error("request '{id}' is a {actual} request, not a {expected} request")]
    WrongKind {
        /// The request.
        id: RequestId,
        /// The protocol the answer was for.
        expected: RequestKind,
        /// The request's protocol.
        actual: RequestKind,
    },
    /// The id is in use already.
    #[error("request_id '{0}' is already in use")]
    DuplicateId(RequestId),
    /// The request's deadline passed before anyone answered it.
    #[error("request '{0}' expired unanswered (its deadline passed) and was rejected; it can no longer be answered")]
    Expired(RequestId),
    /// Only a request of a protocol with a deadline can expire.
    #[error("request '{0}' has no deadline, so it cannot expire")]
    NoDeadline(RequestId),
    /// The id source kept producing ids in use.
    #[error("could not find an unused request_id after {MAX_ID_ATTEMPTS} attempts")]
    IdsExhausted,
}

/// The shared FSM: `pending -> approved | rejected`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestStatus {
    /// Waiting for the addressee's answer.
    Pending,
    /// Answered yes (terminal).
    Approved,
    /// Answered no (terminal).
    Rejected,
}

impl RequestStatus {
    /// True for `approved` and `rejected`.
    pub fn is_terminal(self) -> bool {
        self != RequestStatus::Pending
    }

    /// The state an answer leads to, or `None` from a terminal state.
    pub fn answered(self, approve: bool) -> Option<RequestStatus> {
        match self {
            RequestStatus::Pending if approve => Some(RequestStatus::Approved),
            RequestStatus::Pending => Some(RequestStatus::Rejected),
            RequestStatus::Approved | RequestStatus::Rejected => None,
        }
    }

    /// The state's name.
    pub fn as_str(self) -> &'static str {
        match self {
            RequestStatus::Pending => "pending",
            RequestStatus::Approved => "approved",
            RequestStatus::Rejected => "rejected",
        }
    }
}

impl fmt::Display for RequestStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One recorded move of a request's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transition {
    /// The state before.
    pub from: RequestStatus,
    /// The state after.
    pub to: RequestStatus,
    /// When it happened.
    pub at: Millis,
    /// Who caused it (for an expiry: the addressee, who did not answer).
    pub by: AgentName,
    /// True when the deadline passed (`pending -> rejected` with cause
    /// `expired`); absent for an answer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub expired: bool,
}

/// The incarnations of a request's two parties when it was made: an answer
/// must come from the run it was addressed to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Incarnations {
    /// The requester's incarnation.
    pub requester: u32,
    /// The addressee's incarnation.
    pub addressee: u32,
}

/// A request and its history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// The correlation key.
    pub id: RequestId,
    /// Which protocol.
    pub kind: RequestKind,
    /// Who asked (the lead for shutdown, the teammate for a plan).
    pub requester: AgentName,
    /// Who must answer (the teammate for shutdown, the lead for a plan).
    pub addressee: AgentName,
    /// The plan text, for plan requests.
    pub plan: Option<String>,
    /// A file protocol's request fields.
    #[serde(default, skip_serializing_if = "Fields::is_empty")]
    pub fields: Fields,
    /// Which runs of requester and addressee it binds (derived on replay).
    #[serde(default)]
    pub incarnations: Incarnations,
    /// The current state.
    pub status: RequestStatus,
    /// When it was created.
    pub created_at: Millis,
    /// Every transition, oldest first.
    pub transitions: Vec<Transition>,
}

impl Request {
    /// True when the request was rejected because its deadline passed.
    pub fn expired(&self) -> bool {
        self.transitions.last().is_some_and(|t| t.expired)
    }

    /// Time from creation to the answer, once answered.
    pub fn latency(&self) -> Option<Millis> {
        self.transitions.last().map(|t| t.at.since(self.created_at))
    }
}

/// Every request of both protocols, keyed by id, on one FSM.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tracker {
    // Persistent: cloning a tracker (a keyframe of the timeline) is O(1)
    // and clones share every request they have in common. Each request is
    // shared on its own too: changing a map node two clones share copies
    // the node's pointers, not its requests (and their transitions).
    requests: imbl::OrdMap<RequestId, Arc<Request>>,
    order: imbl::Vector<RequestId>,
    /// The pending requests by addressee, so `pending_to` does not scan.
    open: imbl::OrdMap<AgentName, imbl::OrdSet<RequestId>>,
}

impl Tracker {
    /// An empty tracker.
    pub fn new() -> Self {
        Tracker::default()
    }

    /// An id from `source` not used by any request here, retrying collisions.
    pub fn fresh_id(&self, source: &mut impl IdSource) -> Result<RequestId, TrackerError> {
        (0..MAX_ID_ATTEMPTS).map(|_| source.next_request_id()).find(|id| !self.requests.contains_key(id)).ok_or(TrackerError::IdsExhausted)
    }

    /// Records a new pending request, bound to these incarnations of its
    /// requester and addressee.
    #[allow(clippy::too_many_arguments)]
    pub fn create(
        &mut self,
        id: RequestId,
        kind: RequestKind,
        requester: AgentName,
        addressee: AgentName,
        incarnations: Incarnations,
        plan: Option<String>,
        fields: Fields,
        at: Millis,
    ) -> Result<(), TrackerError> {
        if self.requests.contains_key(&id) {
            return Err(TrackerError::DuplicateId(id));
        }
        self.order.push_back(id.clone());
        open(&mut self.open, &addressee, &id);
        let request = Request {
            id: id.clone(),
            kind,
            requester,
            addressee,
            plan,
            fields,
            incarnations,
            status: RequestStatus::Pending,
            created_at: at,
            // A request settles once: its one transition, allocated once.
            transitions: Vec::with_capacity(1),
        };
        self.requests.insert(id, Arc::new(request));
        Ok(())
    }

    /// Checks that `by` may answer request `id` of protocol `kind` now, and
    /// returns the state the answer would lead to.
    pub fn check_answer(&self, id: &RequestId, kind: RequestKind, by: &AgentName, approve: bool) -> Result<RequestStatus, TrackerError> {
        self.check_answer_under(id, kind, by, approve, &Rules::default())
    }

    /// `check_answer` under `rules`: with `addressee_only` off, anyone's
    /// answer is taken (the failure that rule prevents).
    pub fn check_answer_under(
        &self,
        id: &RequestId,
        kind: RequestKind,
        by: &AgentName,
        approve: bool,
        rules: &Rules,
    ) -> Result<RequestStatus, TrackerError> {
        let req = self.requests.get(id).ok_or_else(|| TrackerError::UnknownRequest(id.clone()))?;
        if req.kind != kind {
            return Err(TrackerError::WrongKind { id: id.clone(), expected: kind, actual: req.kind });
        }
        if rules.addressee_only && &req.addressee != by {
            return Err(TrackerError::NotAddressee { id: id.clone(), addressee: req.addressee.clone(), by: by.clone() });
        }
        if req.expired() {
            return Err(TrackerError::Expired(id.clone()));
        }
        req.status.answered(approve).ok_or_else(|| TrackerError::AlreadySettled { id: id.clone(), status: req.status })
    }

    /// Checks that request `id` of protocol `kind` may expire now (it is
    /// pending): the `pending -> rejected` its expiry leads to.
    pub fn check_expire(&self, id: &RequestId, kind: RequestKind) -> Result<(), TrackerError> {
        let req = self.requests.get(id).ok_or_else(|| TrackerError::UnknownRequest(id.clone()))?;
        if req.kind != kind {
            return Err(TrackerError::WrongKind { id: id.clone(), expected: kind, actual: req.kind });
        }
        if req.expired() {
            return Err(TrackerError::Expired(id.clone()));
        }
        if req.status.is_terminal() {
            return Err(TrackerError::AlreadySettled { id: id.clone(), status: req.status });
        }
        Ok(())
    }

    /// Request `id`'s deadline passed: `pending -> rejected` with cause
    /// `expired`, by its addressee (who did not answer); or refuses and
    /// changes nothing. `unanswer` takes it back.
    pub fn expire(&mut self, id: &RequestId, kind: RequestKind, at: Millis) -> Result<&Transition, TrackerError> {
        self.check_expire(id, kind)?;
        let req = Arc::make_mut(self.requests.get_mut(id).expect("checked above"));
        let by = req.addressee.clone();
        req.transitions.push(Transition { from: req.status, to: RequestStatus::Rejected, at, by, expired: true });
        req.status = RequestStatus::Rejected;
        close(&mut self.open, &req.addressee, id);
        Ok(req.transitions.last().expect("just pushed"))
    }

    /// Moves request `id` along the FSM, or refuses and changes nothing.
    pub fn answer(
        &mut self,
        id: &RequestId,
        kind: RequestKind,
        by: &AgentName,
        approve: bool,
        at: Millis,
    ) -> Result<&Transition, TrackerError> {
        self.answer_under(id, kind, by, approve, at, &Rules::default())
    }

    /// `answer` under `rules` (see `check_answer_under`).
    pub fn answer_under(
        &mut self,
        id: &RequestId,
        kind: RequestKind,
        by: &AgentName,
        approve: bool,
        at: Millis,
        rules: &Rules,
    ) -> Result<&Transition, TrackerError> {
        let to = self.check_answer_under(id, kind, by, approve, rules)?;
        let req = Arc::make_mut(self.requests.get_mut(id).expect("checked above"));
        req.transitions.push(Transition { from: req.status, to, at, by: by.clone(), expired: false });
        req.status = to;
        close(&mut self.open, &req.addressee, id);
        Ok(req.transitions.last().expect("just pushed"))
    }

    /// Undoes `create` of the newest request `id`.
    pub(crate) fn uncreate(&mut self, id: &RequestId) {
        if self.order.last() == Some(id) {
            self.order.pop_back();
            if let Some(req) = self.requests.remove(id) {
                close(&mut self.open, &req.addressee, id);
            }
        }
    }

    /// Undoes `answer` of request `id`: drops its newest transition and
    /// puts back the state it left.
    pub(crate) fn unanswer(&mut self, id: &RequestId) {
        if let Some(req) = self.requests.get_mut(id).map(Arc::make_mut) {
            if let Some(t) = req.transitions.pop() {
                req.status = t.from;
                if t.from == RequestStatus::Pending {
                    open(&mut self.open, &req.addressee, id);
                }
            }
        }
    }

    /// The request with this id.
    pub fn get(&self, id: &RequestId) -> Option<&Request> {
        self.requests.get(id).map(Arc::as_ref)
    }

    /// Every request, in creation order.
    pub fn iter(&self) -> impl Iterator<Item = &Request> {
        self.order.iter().filter_map(|id| self.get(id))
    }

    /// Every request, newest first (for lists that show the latest).
    pub fn newest_first(&self) -> impl Iterator<Item = &Request> {
        self.order.iter().rev().filter_map(|id| self.get(id))
    }

    /// The lesson's `shutdown_requests` view.
    pub fn shutdown_requests(&self) -> impl Iterator<Item = &Request> {
        self.iter().filter(|r| r.kind == RequestKind::SHUTDOWN)
    }

    /// The lesson's `plan_requests` view.
    pub fn plan_requests(&self) -> impl Iterator<Item = &Request> {
        self.iter().filter(|r| r.kind == RequestKind::PLAN)
    }

    /// Requests still waiting for an answer.
    pub fn pending(&self) -> impl Iterator<Item = &Request> {
        self.iter().filter(|r| r.status == RequestStatus::Pending)
    }

    /// The requests still waiting for `addressee`'s answer, by id.
    pub fn pending_to<'a>(&'a self, addressee: &AgentName) -> impl Iterator<Item = &'a Request> + 'a {
        self.open.get(addressee).into_iter().flatten().filter_map(|id| self.get(id))
    }

    /// Every pending request, by addressee then id (from the index
    /// `pending_to` reads: costs the pending requests, not every request,
    /// where `pending` walks them all in creation order).
    pub fn pending_by_addressee(&self) -> impl Iterator<Item = &Request> {
        self.open.values().flatten().filter_map(|id| self.get(id))
    }

    /// How many requests exist.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// True when no request exists.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// Takes `id` out of `addressee`'s pending set, dropping an emptied set so
/// equal trackers have equal indexes however they got there.
fn close(open: &mut imbl::OrdMap<AgentName, imbl::OrdSet<RequestId>>, addressee: &AgentName, id: &RequestId) {
    if let Some(ids) = open.get_mut(addressee) {
        ids.remove(id);
        if ids.is_empty() {
            open.remove(addressee);
        }
    }
}

/// Puts `id` into `addressee`'s pending set.
/// Changed in place: a copy of the set, changed and put back, would copy
/// the nodes it shared with the one in the map.
fn open(open: &mut imbl::OrdMap<AgentName, imbl::OrdSet<RequestId>>, addressee: &AgentName, id: &RequestId) {
    match open.get_mut(addressee) {
        Some(ids) => {
            ids.insert(id.clone());
        }
        None => {
            open.insert(addressee.clone(), imbl::OrdSet::unit(id.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ids::SeededIds;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }
    fn rid(s: &str) -> RequestId {
        RequestId::parse(s).unwrap()
    }

    const ONE: Incarnations = Incarnations { requester: 1, addressee: 1 };

    fn with_shutdown(id: &str) -> Tracker {
        let mut t = Tracker::new();
        t.create(rid(id), RequestKind::SHUTDOWN, AgentName::lead(), name("alice"), ONE, None, Fields::new(), Millis(10)).unwrap();
        t
    }

    #[test]
    fn new_requests_start_pending() {
        assert!(Tracker::new().is_empty());
        let t = with_shutdown("aaaaaaaa");
        assert!(!t.is_empty(), "a tracker with a request is not empty");
        assert_eq!(t.len(), 1);
        assert_eq!(t.get(&rid("aaaaaaaa")).unwrap().status, RequestStatus::Pending);
        assert_eq!(t.pending().count(), 1);
    }

    #[test]
    fn approve_moves_pending_to_approved_and_records_time_and_actor() {
        let mut t = with_shutdown("aaaaaaaa");
        let tr = t.answer(&rid("aaaaaaaa"), RequestKind::SHUTDOWN, &name("alice"), true, Millis(250)).unwrap().clone();
        assert_eq!(
            tr,
            Transition { from: RequestStatus::Pending, to: RequestStatus::Approved, at: Millis(250), by: name("alice"), expired: false }
        );
        let req = t.get(&rid("aaaaaaaa")).unwrap();
        assert_eq!(req.status, RequestStatus::Approved);
        assert_eq!(req.latency(), Some(Millis(240)));
    }

    #[test]
    fn reject_moves_pending_to_rejected() {
        let mut t = with_shutdown("aaaaaaaa");
        t.answer(&rid("aaaaaaaa"), RequestKind::SHUTDOWN, &name("alice"), false, Millis(20)).unwrap();
        assert_eq!(t.get(&rid("aaaaaaaa")).unwrap().status, RequestStatus::Rejected);
    }

    #[test]
    fn unknown_id_is_refused_and_nothing_changes() {
        let mut t = with_shutdown("aaaaaaaa");
        let before = t.clone();
        assert_eq!(
            t.answer(&rid("bbbbbbbb"), RequestKind::SHUTDOWN, &name("alice"), true, Millis(20)).unwrap_err(),
            TrackerError::UnknownRequest(rid("bbbbbbbb"))
        );
        assert_eq!(t, before);
    }

    #[test]
    fn second_answer_is_refused_and_the_first_stands() {
        for first in [true, false] {
            let mut t = with_shutdown("aaaaaaaa");
            t.answer(&rid("aaaaaaaa"), RequestKind::SHUTDOWN, &name("alice"), first, Millis(20)).unwrap();
            let before = t.clone();
            let err = t.answer(&rid("aaaaaaaa"), RequestKind::SHUTDOWN, &name("alice"), !first, Millis(30)).unwrap_err();
            assert!(matches!(err, TrackerError::AlreadySettled { .. }));
            assert!(err.to_string().contains("already"), "{err}");
            assert_eq!(t, before);
        }
    }

    #[test]
    fn only_the_addressee_may_answer() {
        let mut t = with_shutdown("aaaaaaaa");
        let before = t.clone();
        let err = t.answer(&rid("aaaaaaaa"), RequestKind::SHUTDOWN, &name("bob"), true, Millis(20)).unwrap_err();
        assert_eq!(err, TrackerError::NotAddressee { id: rid("aaaaaaaa"), addressee: name("alice"), by: name("bob") });
        assert_eq!(t, before);
    }

    #[test]
    fn an_answer_must_be_for_the_right_protocol() {
        let mut t = with_shutdown("aaaaaaaa");
        let err = t.answer(&rid("aaaaaaaa"), RequestKind::PLAN, &name("alice"), true, Millis(20)).unwrap_err();
        assert!(matches!(err, TrackerError::WrongKind { expected: RequestKind::PLAN, actual: RequestKind::SHUTDOWN, .. }));
        assert_eq!(err.to_string(), "request 'aaaaaaaa' is a shutdown request, not a plan request", "the text a model reads");
        assert_eq!(t.get(&rid("aaaaaaaa")).unwrap().status, RequestStatus::Pending);
        let plan = TrackerError::WrongKind { id: rid("aaaaaaaa"), expected: RequestKind::SHUTDOWN, actual: RequestKind::PLAN };
        assert_eq!(plan.to_string(), "request 'aaaaaaaa' is a plan request, not a shutdown request");
    }

    #[test]
    fn shutdown_and_plan_requests_share_one_fsm_but_two_views() {
        let mut t = with_shutdown("aaaaaaaa");
        t.create(rid("bbbbbbbb"), RequestKind::PLAN, name("bob"), AgentName::lead(), ONE, Some("p".into()), Fields::new(), Millis(11))
            .unwrap();
        let ids = |it: &mut dyn Iterator<Item = &Request>| it.map(|r| r.id.as_str().to_string()).collect::<Vec<_>>();
        assert_eq!(ids(&mut t.shutdown_requests()), ["aaaaaaaa"]);
        assert_eq!(ids(&mut t.plan_requests()), ["bbbbbbbb"]);
        t.answer(&rid("bbbbbbbb"), RequestKind::PLAN, &AgentName::lead(), false, Millis(12)).unwrap();
        assert_eq!(t.get(&rid("bbbbbbbb")).unwrap().status, RequestStatus::Rejected);
        let ids: Vec<_> = t.iter().map(|r| r.id.as_str().to_string()).collect();
        assert_eq!(ids, ["aaaaaaaa", "bbbbbbbb"], "creation order");
    }

    #[test]
    fn a_duplicate_id_is_refused() {
        let mut t = with_shutdown("aaaaaaaa");
        let err =
            t.create(rid("aaaaaaaa"), RequestKind::PLAN, name("x"), AgentName::lead(), ONE, None, Fields::new(), Millis(0)).unwrap_err();
        assert_eq!(err, TrackerError::DuplicateId(rid("aaaaaaaa")));
        assert_eq!(t.len(), 1);
    }

    /// Yields the same bytes `repeat` times, then fresh ones.
    struct Stuttering {
        repeat: usize,
        inner: SeededIds,
        first: [u8; 16],
    }
    impl IdSource for Stuttering {
        fn next_bytes(&mut self) -> [u8; 16] {
            if self.repeat > 0 {
                self.repeat -= 1;
                self.first
            } else {
                self.inner.next_bytes()
            }
        }
    }

    #[test]
    fn colliding_ids_are_retried() {
        let first = SeededIds::new(1).next_bytes();
        let taken = Stuttering { repeat: 1, inner: SeededIds::new(99), first }.next_request_id();
        let mut t = Tracker::new();
        t.create(taken.clone(), RequestKind::SHUTDOWN, AgentName::lead(), name("a"), ONE, None, Fields::new(), Millis(0)).unwrap();
        let mut source = Stuttering { repeat: 5, inner: SeededIds::new(2), first };
        let fresh = t.fresh_id(&mut source).unwrap();
        assert_ne!(fresh, taken);
        assert_eq!(source.repeat, 0, "the five colliding ids were each tried");
    }

    #[test]
    fn an_endless_collision_streak_is_an_error_not_a_hang() {
        let first = SeededIds::new(1).next_bytes();
        let mut t = Tracker::new();
        let taken = Stuttering { repeat: 1, inner: SeededIds::new(0), first }.next_request_id();
        t.create(taken, RequestKind::SHUTDOWN, AgentName::lead(), name("a"), ONE, None, Fields::new(), Millis(0)).unwrap();
        let mut source = Stuttering { repeat: usize::MAX, inner: SeededIds::new(0), first };
        assert_eq!(t.fresh_id(&mut source), Err(TrackerError::IdsExhausted));
    }

    #[test]
    fn an_expired_request_is_rejected_by_its_deadline_and_takes_no_answer() {
        let mut t = with_shutdown("aaaaaaaa");
        let tr = t.expire(&rid("aaaaaaaa"), RequestKind::SHUTDOWN, Millis(40)).unwrap().clone();
        assert_eq!(
            tr,
            Transition { from: RequestStatus::Pending, to: RequestStatus::Rejected, at: Millis(40), by: name("alice"), expired: true }
        );
        assert!(t.get(&rid("aaaaaaaa")).unwrap().expired());
        assert_eq!(t.pending_to(&name("alice")).count(), 0);
        let before = t.clone();
        assert_eq!(
            t.answer(&rid("aaaaaaaa"), RequestKind::SHUTDOWN, &name("alice"), true, Millis(50)),
            Err(TrackerError::Expired(rid("aaaaaaaa")))
        );
        assert_eq!(t.expire(&rid("aaaaaaaa"), RequestKind::SHUTDOWN, Millis(50)).unwrap_err(), TrackerError::Expired(rid("aaaaaaaa")));
        assert_eq!(t, before);
        t.unanswer(&rid("aaaaaaaa"));
        assert_eq!(t.get(&rid("aaaaaaaa")).unwrap().status, RequestStatus::Pending, "undone, it is pending again");
        assert_eq!(t.pending_to(&name("alice")).count(), 1);
    }

    #[test]
    fn an_answers_transition_writes_no_expiry() {
        let mut t = with_shutdown("aaaaaaaa");
        let tr = t.answer(&rid("aaaaaaaa"), RequestKind::SHUTDOWN, &name("alice"), false, Millis(20)).unwrap();
        assert!(!serde_json::to_string(tr).unwrap().contains("expired"));
    }

    #[test]
    fn terminal_states_have_no_way_out() {
        for s in [RequestStatus::Approved, RequestStatus::Rejected] {
            assert!(s.is_terminal());
            assert_eq!(s.answered(true), None);
            assert_eq!(s.answered(false), None);
        }
        assert!(!RequestStatus::Pending.is_terminal());
    }
}
