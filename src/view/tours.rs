//! Guided tours: for each scenario, the moments that matter and why they
//! matter — why a request_id, why a second answer is refused, why the
//! teammate finishes its turn before exiting, why answers that arrive out of
//! order are still matched, why the plan gate is enforced by the runtime —
//! plus the lesson's opening contrast, "Without protocols" (the lead just
//! says "please stop", then the same with the shutdown handshake).
//!
//! A tour is a list of stops; each stop finds its event in the run's trace
//! with a function of the entries (no fixed sequence numbers), so a stop
//! whose event is missing (another seed, a fault, a real model) is skipped
//! and the rest still resolve. A resolved stop is a cursor position.
//!
//! Owns the tours' stops and the search for their events; the words are
//! messages of the language's catalog (`locales/*/tours.ftl`). Pure and native:
//! it reads trace entries only and must not touch the DOM, signals, the
//! playback cursor or the runtime (the view, `ui::diagram::tour`, moves the cursor).

use crate::protocol::{AgentName, Event, MemberStatus, Message, MessageId, MessageType, RequestId, RequestKind, RequestStatus, TraceEntry};
use crate::runtime::scenarios::{self, Scenario};
use crate::view::i18n::{tr, Catalog};

/// What a stop found: the event's position in the trace, and the request
/// and the teammate it is about (they fill `{id}` and `{name}` in the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The index of the event in the trace (its sequence number).
    pub at: usize,
    /// The request the stop is about, if any.
    pub id: Option<RequestId>,
    /// The teammate the stop is about, if any.
    pub name: Option<AgentName>,
}

/// One stop of a tour: its words (the catalog's `tour-<key>-title` and
/// `tour-<key>-why`) and how to find its event in a trace.
#[derive(Debug, Clone, Copy)]
pub struct Stop {
    /// The stop's message key, `<tour id>-<n>`.
    pub key: &'static str,
    /// Finds the stop's event in the trace's entries; `None` when it is not
    /// there.
    pub find: fn(&[TraceEntry]) -> Option<Hit>,
}

impl Stop {
    /// The message key of the stop's title.
    pub fn title_key(&self) -> String {
        format!("tour-{}-title", self.key)
    }

    /// The message key of why the stop matters (`{ $id }` and `{ $name }`
    /// are filled from the event found).
    pub fn why_key(&self) -> String {
        format!("tour-{}-why", self.key)
    }
}

/// A guided tour of one scenario's run.
#[derive(Debug, Clone, Copy)]
pub struct Tour {
    /// A stable id (the scenario's).
    pub id: &'static str,
    /// The scenario whose run it walks through.
    pub scenario: Scenario,
    /// The stops, in the order they happen in the scenario's run.
    pub stops: &'static [Stop],
}

impl Tour {
    /// The title shown on its button and card.
    pub fn title(&self, cat: &Catalog) -> String {
        cat.t(&format!("tour-{}-title", self.id))
    }

    /// One sentence saying what the tour shows, before the first stop.
    pub fn intro(&self, cat: &Catalog) -> String {
        cat.t(&format!("tour-{}-intro", self.id))
    }
}

/// A stop found in a trace, ready to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedStop {
    /// Its index in `Tour::stops`.
    pub stop: usize,
    /// The sequence number of its event.
    pub seq: u64,
    /// The playback cursor that shows its event (events shown: `seq + 1`).
    pub cursor: usize,
    /// Its title, filled in.
    pub title: String,
    /// Why, filled in.
    pub text: String,
    /// The request the stop is about, if any (the view highlights it).
    pub id: Option<RequestId>,
    /// The teammate the stop is about, if any.
    pub name: Option<AgentName>,
}

/// Every tour: "Without protocols" first, then one per scenario of
/// `scenarios::ALL`, in the page's order.
pub const TOURS: [Tour; 7] = [
    Tour { id: scenarios::WITHOUT_PROTOCOLS.id, scenario: scenarios::WITHOUT_PROTOCOLS, stops: WITHOUT_PROTOCOLS },
    Tour { id: scenarios::SHUTDOWN.id, scenario: scenarios::SHUTDOWN, stops: SHUTDOWN },
    Tour { id: scenarios::LIST_AFTER_SHUTDOWN.id, scenario: scenarios::LIST_AFTER_SHUTDOWN, stops: LIST_AFTER_SHUTDOWN },
    Tour { id: scenarios::REJECT_PLAN.id, scenario: scenarios::REJECT_PLAN, stops: REJECT_PLAN },
    Tour { id: scenarios::APPROVE_PLAN.id, scenario: scenarios::APPROVE_PLAN, stops: APPROVE_PLAN },
    Tour { id: scenarios::REJECT_THEN_ACCEPT.id, scenario: scenarios::REJECT_THEN_ACCEPT, stops: REJECT_THEN_ACCEPT },
    Tour { id: scenarios::OUT_OF_ORDER.id, scenario: scenarios::OUT_OF_ORDER, stops: OUT_OF_ORDER },
];

/// The tour with this id.
pub fn by_id(id: &str) -> Option<&'static Tour> {
    TOURS.iter().find(|t| t.id == id)
}

/// The tour's stops found in `entries`, in trace order, told in `cat`'s
/// language; a stop whose event is missing is left out. Works on a partial
/// trace too (a run still going): stops not reached yet are simply not
/// there.
pub fn resolve(cat: &Catalog, tour: &Tour, entries: &[TraceEntry]) -> Vec<ResolvedStop> {
    let mut found: Vec<ResolvedStop> = tour
        .stops
        .iter()
        .enumerate()
        .filter_map(|(i, stop)| {
            let hit = (stop.find)(entries)?;
            let entry = entries.get(hit.at)?;
            Some(ResolvedStop {
                stop: i,
                seq: entry.seq,
                cursor: hit.at + 1,
                title: fill(cat, &stop.title_key(), &hit),
                text: fill(cat, &stop.why_key(), &hit),
                id: hit.id,
                name: hit.name,
            })
        })
        .collect();
    found.sort_by_key(|s| (s.seq, s.stop));
    found
}

/// The resolved stop whose event the cursor shows, if any (`cursor` as the
/// playback has it: the number of events shown, `None` for all of them).
pub fn stop_at(stops: &[ResolvedStop], cursor: Option<usize>, len: usize) -> Option<usize> {
    let shown = cursor.unwrap_or(len).min(len);
    stops.iter().position(|s| s.cursor == shown)
}

/// What the tour card shows at a cursor: it follows the cursor, so it never
/// tells a stop the diagram has not reached yet (while Next stop walks
/// there, the card keeps the stop it walks from).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Card {
    /// Before the first stop (or a run where none happened): the tour's
    /// introduction.
    Intro,
    /// Stop `i` of the resolved stops: the last one at or before the cursor.
    Stop(usize),
    /// The run's last event, past the last stop: the tour is over.
    End,
}

/// The card at `shown` events of a run of `len` (the number of events the
/// playback shows; `stops` as `resolve` returns them).
pub fn card_at(stops: &[ResolvedStop], shown: usize, len: usize) -> Card {
    let shown = shown.min(len);
    match stops.iter().rposition(|s| s.cursor <= shown) {
        Some(i) if i + 1 == stops.len() && stops[i].cursor < len && shown == len => Card::End,
        Some(i) => Card::Stop(i),
        None => Card::Intro,
    }
}

/// Where Next stop goes from `card`: the cursor of the next stop, or the
/// run's end (`len`) after the last stop when the run goes on past it.
/// `None` at the end.
pub fn next_target(stops: &[ResolvedStop], card: Card, len: usize) -> Option<usize> {
    let next = match card {
        Card::Intro => 0,
        Card::Stop(i) => i + 1,
        Card::End => return None,
    };
    match stops.get(next) {
        Some(stop) => Some(stop.cursor),
        None => stops.last().filter(|last| last.cursor < len).map(|_| len),
    }
}

/// Where Previous stop goes from `card` at `shown`: the stop the card shows
/// when the cursor has moved past it (back to its event), else the one
/// before; from the end, the last stop. `None` before the first stop.
pub fn previous_target(stops: &[ResolvedStop], card: Card, shown: usize) -> Option<usize> {
    match card {
        Card::Intro => None,
        Card::Stop(i) if stops[i].cursor < shown => Some(stops[i].cursor),
        Card::Stop(i) => i.checked_sub(1).map(|j| stops[j].cursor),
        Card::End => stops.last().map(|s| s.cursor),
    }
}

/// Message `key` with `{ $id }` and `{ $name }` filled from `hit` (plain
/// words when the hit has none).
fn fill(cat: &Catalog, key: &str, hit: &Hit) -> String {
    let id = hit.id.as_ref().map_or_else(|| cat.t("tour-the-request"), |id| id.to_string());
    let name = hit.name.as_ref().map_or_else(|| cat.t("tour-the-teammate"), |n| n.to_string());
    tr!(cat, key, id = id, name = name)
}

// ------------------------------------------------------------ the searches

fn hit(at: usize) -> Hit {
    Hit { at, id: None, name: None }
}

impl Hit {
    fn about(mut self, id: Option<&RequestId>, name: Option<&AgentName>) -> Hit {
        self.id = id.cloned();
        self.name = name.cloned();
        self
    }
}

/// The first entry at or after `from` whose event passes `pred`.
fn first_from(entries: &[TraceEntry], from: usize, pred: impl Fn(&Event) -> bool) -> Option<usize> {
    entries.iter().enumerate().skip(from).find(|(_, e)| pred(&e.event)).map(|(i, _)| i)
}

/// A request as created: where, its id, its kind, and the teammate it is
/// about (the addressee of a shutdown, the requester of a plan).
struct Created<'a> {
    at: usize,
    id: &'a RequestId,
    teammate: &'a AgentName,
}

fn created(entries: &[TraceEntry], kind: RequestKind) -> Vec<Created<'_>> {
    entries
        .iter()
        .enumerate()
        .filter_map(|(at, e)| match &e.event {
            Event::RequestCreated { request_id, request_kind, requester, addressee, .. } if *request_kind == kind => {
                Some(Created { at, id: request_id, teammate: if kind == RequestKind::SHUTDOWN { addressee } else { requester } })
            }
            _ => None,
        })
        .collect()
}

/// The teammate a request is about, from its creation.
fn teammate_of<'a>(entries: &'a [TraceEntry], id: &RequestId) -> Option<&'a AgentName> {
    [RequestKind::SHUTDOWN, RequestKind::PLAN].into_iter().find_map(|k| {
        entries.iter().find_map(|e| match &e.event {
            Event::RequestCreated { request_id, request_kind, requester, addressee, .. } if request_id == id && *request_kind == k => {
                Some(if k == RequestKind::SHUTDOWN { addressee } else { requester })
            }
            _ => None,
        })
    })
}

/// The `n`th request of `kind` created (from zero).
fn nth_created(entries: &[TraceEntry], kind: RequestKind, n: usize) -> Option<Hit> {
    created(entries, kind).get(n).map(|c| hit(c.at).about(Some(c.id), Some(c.teammate)))
}

/// The `n`th transition of a `kind` request to `to` (from zero).
fn nth_transition(entries: &[TraceEntry], kind: RequestKind, to: RequestStatus, n: usize) -> Option<Hit> {
    entries
        .iter()
        .enumerate()
        .filter_map(|(at, e)| match &e.event {
            Event::RequestTransitioned { request_id, request_kind, to: t, .. } if *request_kind == kind && *t == to => {
                Some((at, request_id))
            }
            _ => None,
        })
        .nth(n)
        .map(|(at, id)| hit(at).about(Some(id), teammate_of(entries, id)))
}

/// The message of `msg_type` that carries `id`, and where it was sent.
fn message_for<'a>(entries: &'a [TraceEntry], msg_type: MessageType, id: &RequestId) -> Option<(usize, &'a Message)> {
    entries.iter().enumerate().find_map(|(at, e)| match &e.event {
        Event::MessageSent { message } if message.msg_type == msg_type && message.request_id.as_ref() == Some(id) => Some((at, message)),
        _ => None,
    })
}

/// Where `reader` drained its inbox and received the message sent at `sent`.
fn drained(entries: &[TraceEntry], reader: &AgentName, sent: usize) -> Option<usize> {
    let id = MessageId(sent as u64);
    first_from(entries, sent, |e| matches!(e, Event::InboxDrained { agent, message_ids } if agent == reader && message_ids.contains(&id)))
}

/// Where `name`'s status changed to `to`, first at or after `from`.
fn status_change(entries: &[TraceEntry], name: &AgentName, to: MemberStatus, from: usize) -> Option<usize> {
    first_from(entries, from, |e| matches!(e, Event::MemberStatusChanged { name: n, to: t, .. } if n == name && *t == to))
}

/// The first teammate that shut down, and where.
fn first_exit(entries: &[TraceEntry]) -> Option<(usize, &AgentName)> {
    entries.iter().enumerate().find_map(|(at, e)| match &e.event {
        Event::MemberStatusChanged { name, to: MemberStatus::Shutdown, .. } => Some((at, name)),
        _ => None,
    })
}

/// The approved shutdown request of `name` (the one it exits on).
fn approved_shutdown_of<'a>(entries: &'a [TraceEntry], name: &AgentName) -> Option<&'a RequestId> {
    entries.iter().find_map(|e| match &e.event {
        Event::RequestTransitioned { request_id, request_kind: RequestKind::SHUTDOWN, by, to: RequestStatus::Approved, .. }
            if by == name =>
        {
            Some(request_id)
        }
        _ => None,
    })
}

// The lesson's opening: a plain message, then the handshake.

/// The lead's first plain `message` to a teammate.
fn plain_message(entries: &[TraceEntry]) -> Option<(usize, &Message)> {
    entries.iter().enumerate().find_map(|(at, e)| match &e.event {
        Event::MessageSent { message } if message.msg_type == MessageType::Message && message.from.is_lead() && !message.to.is_lead() => {
            Some((at, message))
        }
        _ => None,
    })
}

fn the_plain_message(entries: &[TraceEntry]) -> Option<Hit> {
    plain_message(entries).map(|(at, m)| hit(at).about(None, Some(&m.to)))
}

fn the_plain_message_read(entries: &[TraceEntry]) -> Option<Hit> {
    let (sent, m) = plain_message(entries)?;
    drained(entries, &m.to, sent).map(|at| hit(at).about(None, Some(&m.to)))
}

fn the_lead_ends_its_turn_after_the_plain_message(entries: &[TraceEntry]) -> Option<Hit> {
    let (sent, m) = plain_message(entries)?;
    first_from(
        entries,
        sent,
        |e| matches!(e, Event::ModelReplied { agent, stop_reason, .. } if agent.is_lead() && stop_reason == "end_turn"),
    )
    .map(|at| hit(at).about(None, Some(&m.to)))
}

fn the_teammate_idles_after_the_plain_message(entries: &[TraceEntry]) -> Option<Hit> {
    let (sent, m) = plain_message(entries)?;
    status_change(entries, &m.to, MemberStatus::Idle, sent).map(|at| hit(at).about(None, Some(&m.to)))
}

fn the_first_shutdown_request(entries: &[TraceEntry]) -> Option<Hit> {
    nth_created(entries, RequestKind::SHUTDOWN, 0)
}

fn the_second_shutdown_request(entries: &[TraceEntry]) -> Option<Hit> {
    nth_created(entries, RequestKind::SHUTDOWN, 1)
}

fn the_first_shutdown_answer_sent(entries: &[TraceEntry]) -> Option<Hit> {
    let first = created(entries, RequestKind::SHUTDOWN).into_iter().next()?;
    message_for(entries, MessageType::SHUTDOWN_RESPONSE, first.id).map(|(at, m)| hit(at).about(Some(first.id), Some(&m.from)))
}

fn the_first_exit(entries: &[TraceEntry]) -> Option<Hit> {
    let (at, name) = first_exit(entries)?;
    Some(hit(at).about(approved_shutdown_of(entries, name), Some(name)))
}

// The shutdown handshake.

fn the_request_read_by_its_teammate(entries: &[TraceEntry]) -> Option<Hit> {
    let first = created(entries, RequestKind::SHUTDOWN).into_iter().next()?;
    let (sent, _) = message_for(entries, MessageType::SHUTDOWN_REQUEST, first.id)?;
    drained(entries, first.teammate, sent).map(|at| hit(at).about(Some(first.id), Some(first.teammate)))
}

/// The teammate's last `ModelCalled` before it exits: the turn it finishes.
fn the_last_model_call_before_the_exit(entries: &[TraceEntry]) -> Option<Hit> {
    let (exit, name) = first_exit(entries)?;
    let at = entries[..exit].iter().rposition(|e| matches!(&e.event, Event::ModelCalled { agent } if agent == name))?;
    Some(hit(at).about(approved_shutdown_of(entries, name), Some(name)))
}

fn the_first_approved_shutdown(entries: &[TraceEntry]) -> Option<Hit> {
    nth_transition(entries, RequestKind::SHUTDOWN, RequestStatus::Approved, 0)
}

fn the_first_rejected_shutdown(entries: &[TraceEntry]) -> Option<Hit> {
    nth_transition(entries, RequestKind::SHUTDOWN, RequestStatus::Rejected, 0)
}

/// Where the lead reads the answer to the approved request its first exit
/// was on.
fn the_lead_reads_the_approval(entries: &[TraceEntry]) -> Option<Hit> {
    let approved = nth_transition(entries, RequestKind::SHUTDOWN, RequestStatus::Approved, 0)?;
    let id = approved.id.as_ref()?;
    let (sent, m) = message_for(entries, MessageType::SHUTDOWN_RESPONSE, id)?;
    drained(entries, &m.to, sent).map(|at| hit(at).about(Some(id), Some(&m.from)))
}

// Status after shutdown.

fn the_second_prompt(entries: &[TraceEntry]) -> Option<Hit> {
    let name = first_exit(entries).map(|(_, n)| n);
    entries.iter().enumerate().filter(|(_, e)| matches!(e.event, Event::RunStarted { .. })).nth(1).map(|(at, _)| hit(at).about(None, name))
}

fn the_team_listed(entries: &[TraceEntry]) -> Option<Hit> {
    let name = first_exit(entries).map(|(_, n)| n);
    first_from(entries, 0, |e| matches!(e, Event::ToolReturned { tool, is_error: false, .. } if tool == "list_teammates"))
        .map(|at| hit(at).about(None, name))
}

// Plan approval.

fn the_plan_mode_spawn(entries: &[TraceEntry]) -> Option<Hit> {
    entries.iter().enumerate().find_map(|(at, e)| match &e.event {
        Event::MemberSpawned { name, plan_mode: true, .. } => Some(hit(at).about(None, Some(name))),
        _ => None,
    })
}

fn the_first_plan(entries: &[TraceEntry]) -> Option<Hit> {
    nth_created(entries, RequestKind::PLAN, 0)
}

fn the_second_plan(entries: &[TraceEntry]) -> Option<Hit> {
    nth_created(entries, RequestKind::PLAN, 1)
}

fn the_first_rejected_plan(entries: &[TraceEntry]) -> Option<Hit> {
    nth_transition(entries, RequestKind::PLAN, RequestStatus::Rejected, 0)
}

fn the_first_approved_plan(entries: &[TraceEntry]) -> Option<Hit> {
    nth_transition(entries, RequestKind::PLAN, RequestStatus::Approved, 0)
}

fn the_planner_waits(entries: &[TraceEntry]) -> Option<Hit> {
    let first = created(entries, RequestKind::PLAN).into_iter().next()?;
    status_change(entries, first.teammate, MemberStatus::Idle, first.at).map(|at| hit(at).about(Some(first.id), Some(first.teammate)))
}

fn the_lead_reads_the_plan(entries: &[TraceEntry]) -> Option<Hit> {
    let first = created(entries, RequestKind::PLAN).into_iter().next()?;
    let (sent, m) = message_for(entries, MessageType::PLAN_APPROVAL_REQUEST, first.id)?;
    drained(entries, &m.to, sent).map(|at| hit(at).about(Some(first.id), Some(first.teammate)))
}

/// The first workspace change the runtime lets through after a plan was
/// approved, by the teammate whose plan it was.
fn the_first_write_after_approval(entries: &[TraceEntry]) -> Option<Hit> {
    let approved = the_first_approved_plan(entries)?;
    let name = approved.name.clone()?;
    first_from(
        entries,
        approved.at,
        |e| matches!(e, Event::ToolReturned { agent, tool, is_error: false, .. } if *agent == name && (tool == "write_file" || tool == "edit_file")),
    )
    .map(|at| hit(at).about(approved.id.as_ref(), Some(&name)))
}

// Out of order.

/// A shutdown answer sent while a request created before its own is still
/// unanswered: the answer that arrives out of order. Also returns the
/// request it overtook.
fn overtaking_answer(entries: &[TraceEntry]) -> Option<(usize, &Message, &RequestId)> {
    let asked = created(entries, RequestKind::SHUTDOWN);
    let mut answered: Vec<&RequestId> = Vec::new();
    for (at, e) in entries.iter().enumerate() {
        match &e.event {
            Event::RequestTransitioned { request_id, request_kind: RequestKind::SHUTDOWN, .. } => answered.push(request_id),
            Event::MessageSent { message } if message.msg_type == MessageType::SHUTDOWN_RESPONSE => {
                let Some(id) = message.request_id.as_ref() else { continue };
                let Some(mine) = asked.iter().position(|c| c.id == id) else { continue };
                if let Some(earlier) = asked[..mine].iter().find(|c| c.at < at && !answered.contains(&c.id)) {
                    return Some((at, message, earlier.id));
                }
            }
            _ => {}
        }
    }
    None
}

fn the_answer_out_of_order(entries: &[TraceEntry]) -> Option<Hit> {
    let (at, m, _) = overtaking_answer(entries)?;
    Some(hit(at).about(m.request_id.as_ref(), Some(&m.from)))
}

fn the_lead_matches_the_early_answer(entries: &[TraceEntry]) -> Option<Hit> {
    let (sent, m, _) = overtaking_answer(entries)?;
    drained(entries, &m.to, sent).map(|at| hit(at).about(m.request_id.as_ref(), Some(&m.from)))
}

fn the_overtaken_answer(entries: &[TraceEntry]) -> Option<Hit> {
    let (_, _, earlier) = overtaking_answer(entries)?;
    message_for(entries, MessageType::SHUTDOWN_RESPONSE, earlier).map(|(at, m)| hit(at).about(Some(earlier), Some(&m.from)))
}

fn the_last_exit(entries: &[TraceEntry]) -> Option<Hit> {
    let at = entries.iter().rposition(|e| matches!(e.event, Event::MemberStatusChanged { to: MemberStatus::Shutdown, .. }))?;
    let Event::MemberStatusChanged { name, .. } = &entries[at].event else { return None };
    Some(hit(at).about(approved_shutdown_of(entries, name), Some(name)))
}

// ---------------------------------------------------------------- the stops
//
// Each stop's words are the messages `tour-<key>-title` and `tour-<key>-why`
// of locales/*/tours.ftl.

const WITHOUT_PROTOCOLS: &[Stop] = &[
    Stop { key: "without-protocols-1", find: the_plain_message },
    Stop { key: "without-protocols-2", find: the_lead_ends_its_turn_after_the_plain_message },
    Stop { key: "without-protocols-3", find: the_plain_message_read },
    Stop { key: "without-protocols-4", find: the_teammate_idles_after_the_plain_message },
    Stop { key: "without-protocols-5", find: the_first_shutdown_request },
    Stop { key: "without-protocols-6", find: the_first_shutdown_answer_sent },
    Stop { key: "without-protocols-7", find: the_first_exit },
];

const SHUTDOWN: &[Stop] = &[
    Stop { key: "shutdown-1", find: the_first_shutdown_request },
    Stop { key: "shutdown-2", find: the_request_read_by_its_teammate },
    Stop { key: "shutdown-3", find: the_last_model_call_before_the_exit },
    Stop { key: "shutdown-4", find: the_first_approved_shutdown },
    Stop { key: "shutdown-5", find: the_first_exit },
    Stop { key: "shutdown-6", find: the_lead_reads_the_approval },
];

const LIST_AFTER_SHUTDOWN: &[Stop] = &[
    Stop { key: "list-after-shutdown-1", find: the_first_approved_shutdown },
    Stop { key: "list-after-shutdown-2", find: the_first_exit },
    Stop { key: "list-after-shutdown-3", find: the_second_prompt },
    Stop { key: "list-after-shutdown-4", find: the_team_listed },
];

const REJECT_PLAN: &[Stop] = &[
    Stop { key: "reject-plan-1", find: the_plan_mode_spawn },
    Stop { key: "reject-plan-2", find: the_first_plan },
    Stop { key: "reject-plan-3", find: the_first_rejected_plan },
    Stop { key: "reject-plan-4", find: the_second_plan },
    Stop { key: "reject-plan-5", find: the_first_approved_plan },
    Stop { key: "reject-plan-6", find: the_first_write_after_approval },
];

const APPROVE_PLAN: &[Stop] = &[
    Stop { key: "approve-plan-1", find: the_plan_mode_spawn },
    Stop { key: "approve-plan-2", find: the_first_plan },
    Stop { key: "approve-plan-3", find: the_planner_waits },
    Stop { key: "approve-plan-4", find: the_lead_reads_the_plan },
    Stop { key: "approve-plan-5", find: the_first_approved_plan },
    Stop { key: "approve-plan-6", find: the_first_write_after_approval },
];

const REJECT_THEN_ACCEPT: &[Stop] = &[
    Stop { key: "reject-then-accept-1", find: the_first_shutdown_request },
    Stop { key: "reject-then-accept-2", find: the_first_rejected_shutdown },
    Stop { key: "reject-then-accept-3", find: the_second_shutdown_request },
    Stop { key: "reject-then-accept-4", find: the_last_model_call_before_the_exit },
    Stop { key: "reject-then-accept-5", find: the_first_approved_shutdown },
    Stop { key: "reject-then-accept-6", find: the_first_exit },
];

const OUT_OF_ORDER: &[Stop] = &[
    Stop { key: "out-of-order-1", find: the_first_shutdown_request },
    Stop { key: "out-of-order-2", find: the_second_shutdown_request },
    Stop { key: "out-of-order-3", find: the_answer_out_of_order },
    Stop { key: "out-of-order-4", find: the_lead_matches_the_early_answer },
    Stop { key: "out-of-order-5", find: the_overtaken_answer },
    Stop { key: "out-of-order-6", find: the_last_exit },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Millis, Team};

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    /// erin and frank are asked in that order and frank answers first.
    fn out_of_order() -> (crate::protocol::Trace, RequestId, RequestId) {
        let mut t = Team::new("d", 1);
        t.spawn(&name("erin"), "writer", false, Millis(0)).unwrap();
        t.spawn(&name("frank"), "helper", false, Millis(0)).unwrap();
        let e = t.request_shutdown(&AgentName::lead(), &name("erin"), Millis(1)).unwrap();
        let f = t.request_shutdown(&AgentName::lead(), &name("frank"), Millis(2)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &f, &name("frank"), true, "ok", Millis(3)).unwrap();
        t.drain(&AgentName::lead(), Millis(4)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &e, &name("erin"), true, "done", Millis(5)).unwrap();
        (t.trace().clone(), e, f)
    }

    #[test]
    fn the_answer_out_of_order_is_the_one_that_overtakes_an_earlier_request() {
        let (trace, erin, frank) = out_of_order();
        let early = the_answer_out_of_order(trace.entries()).expect("frank's answer overtakes erin's request");
        assert_eq!((early.id.as_ref(), early.name.as_ref().map(AgentName::as_str)), (Some(&frank), Some("frank")));
        let late = the_overtaken_answer(trace.entries()).expect("erin's answer comes later");
        assert_eq!(late.id.as_ref(), Some(&erin));
        assert!(late.at > early.at);
        let read = the_lead_matches_the_early_answer(trace.entries()).expect("the lead reads frank's answer");
        assert!(matches!(&trace.entries()[read.at].event, Event::InboxDrained { agent, .. } if agent.is_lead()));
    }

    #[test]
    fn answers_in_the_order_asked_are_not_out_of_order() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("erin"), "writer", false, Millis(0)).unwrap();
        t.spawn(&name("frank"), "helper", false, Millis(0)).unwrap();
        let e = t.request_shutdown(&AgentName::lead(), &name("erin"), Millis(1)).unwrap();
        let f = t.request_shutdown(&AgentName::lead(), &name("frank"), Millis(2)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &e, &name("erin"), true, "ok", Millis(3)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &f, &name("frank"), true, "ok", Millis(4)).unwrap();
        assert_eq!(the_answer_out_of_order(t.trace().entries()), None);
    }

    #[test]
    fn a_stop_whose_event_is_missing_is_skipped_and_the_rest_resolve_in_trace_order() {
        let (trace, _, _) = out_of_order();
        let tour = by_id("out-of-order").unwrap();
        let stops = resolve(Catalog::en(), tour, trace.entries());
        // Nobody exits in this trace (no status change to shutdown): the last
        // stop is missing, the five before it are found.
        assert_eq!(stops.iter().map(|s| s.stop).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
        assert!(stops.windows(2).all(|w| w[0].seq < w[1].seq));
        // A prefix of the trace (a run still going) resolves what it reaches.
        let early = resolve(Catalog::en(), tour, &trace.entries()[..5]);
        assert_eq!(early.iter().map(|s| s.stop).collect::<Vec<_>>(), [0, 1]);
        assert!(resolve(Catalog::en(), tour, &[]).is_empty());
    }

    #[test]
    fn a_resolved_stop_names_its_request_and_teammate_and_its_cursor_shows_its_event() {
        let (trace, erin, _) = out_of_order();
        let stops = resolve(Catalog::en(), by_id("out-of-order").unwrap(), trace.entries());
        let first = &stops[0];
        assert_eq!(
            first.text,
            format!("The lead asks erin first, with request {erin}, and does not wait for the answer before asking the next teammate.")
        );
        assert_eq!(first.cursor, first.seq as usize + 1, "the cursor counts the events shown, the stop's own included");
        assert_eq!(stop_at(&stops, Some(first.cursor), trace.len()), Some(0));
        assert_eq!(stop_at(&stops, Some(first.cursor + 1), trace.len()), None);
    }

    #[test]
    fn a_placeholder_with_nothing_to_fill_it_reads_as_plain_words() {
        assert_eq!(fill(Catalog::en(), "tour-out-of-order-2-why", &hit(0)).split(',').next(), Some("Then the teammate"));
    }

    #[test]
    fn there_is_a_tour_for_every_scenario_and_one_without_protocols_first() {
        let ids: Vec<&str> = TOURS.iter().map(|t| t.id).collect();
        let mut want = vec![scenarios::WITHOUT_PROTOCOLS.id];
        want.extend(scenarios::ALL.iter().map(|s| s.id));
        assert_eq!(ids, want);
        for t in &TOURS {
            assert_eq!(t.scenario.id, t.id);
            assert!(t.stops.len() >= 4, "{}: a tour has stops", t.id);
        }
    }
}
