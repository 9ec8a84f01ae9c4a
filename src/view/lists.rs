//! Which rows the page's long lists show. A run can hold thousands of
//! requests, queued messages and findings; a panel shows a bounded, useful
//! slice of them (what needs an answer and what just happened first) and
//! says how many there are, so drawing a panel costs the same at 100 events
//! and at 100,000.
//!
//! Each list is one tab stop (a roving tab index): `tab_stop` says which
//! row holds it and `roving_step` where a key moves it.
//!
//! Owns the choice of rows only: pure functions of the state at the cursor.
//! No DOM, no signals.

use std::collections::HashMap;

use crate::protocol::{Event, RequestId, RequestKind, RequestStatus, TraceEntry, Tracker};

/// Rows a request list shows at most.
pub const REQUEST_ROWS: usize = 40;
/// Messages an inbox lists at most.
pub const INBOX_ROWS: usize = 12;
/// Findings the protocol check lists at most.
pub const FINDING_ROWS: usize = 60;

/// A bounded slice of a longer list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shown<T> {
    /// The rows to draw, in order.
    pub rows: Vec<T>,
    /// How many items match (the rows are the first of these).
    pub matching: usize,
    /// How many items there are in all.
    pub total: usize,
}

impl<T> Shown<T> {
    /// "Showing 40 of 10,385" when the list is cut, or nothing.
    pub fn cut_note(&self, cat: &crate::view::i18n::Catalog, key: &str) -> Option<String> {
        (self.rows.len() < self.matching).then(|| crate::view::i18n::tr!(cat, key, shown = self.rows.len(), total = self.matching))
    }
}

/// What a waiting message says in its inbox's list: a request by its id
/// (the body is the protocol's), any other message by its text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Said {
    /// A request or an answer, named by its request id.
    Request(String),
    /// A plain message, by its text.
    Message(String),
}

/// One message waiting in an inbox, as its row shows it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Waiting {
    /// The message's type (`message`, `shutdown_request`, …).
    pub msg_type: &'static str,
    /// Who sent it.
    pub from: String,
    /// Its id or its text.
    pub said: Said,
}

impl Waiting {
    /// The row's words: "plan_approval_request from alice [req-3]".
    pub fn words(&self, cat: &crate::view::i18n::Catalog) -> String {
        use crate::view::i18n::tr;
        let (msg_type, from) = (self.msg_type, self.from.as_str());
        match &self.said {
            Said::Request(id) => tr!(cat, "ui-inbox-request", msg_type = msg_type, from = from, id = id.as_str()),
            Said::Message(text) => tr!(cat, "ui-inbox-message", msg_type = msg_type, from = from, content = text.as_str()),
        }
    }
}

/// One agent's inbox as its panel row shows it: whose, how many messages
/// wait, and the oldest few (`INBOX_ROWS`), the ones the agent reads first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InboxRow {
    /// The inbox's owner.
    pub owner: String,
    /// How many messages wait in all.
    pub count: usize,
    /// The oldest few of them.
    pub waiting: Vec<Waiting>,
}

/// Every inbox of the bus, in the bus's order, as its row shows it.
pub fn inbox_rows(bus: &crate::protocol::Bus) -> Vec<InboxRow> {
    bus.names()
        .map(|n| {
            let queue = bus.peek(n).unwrap_or_default();
            let waiting = queue
                .iter()
                .take(INBOX_ROWS)
                .map(|e| Waiting {
                    msg_type: e.message.msg_type.as_str(),
                    from: e.message.from.to_string(),
                    said: match &e.message.request_id {
                        Some(id) => Said::Request(id.to_string()),
                        None => Said::Message(e.message.content.clone()),
                    },
                })
                .collect();
            InboxRow { owner: n.to_string(), count: queue.len(), waiting }
        })
        .collect()
}

/// Each request's place in the order the run created them, kept as the
/// run grows (`push`): the request list orders the pending requests by it
/// without walking every request of a long run.
#[derive(Debug, Clone, Default)]
pub struct CreationOrder {
    places: HashMap<RequestId, usize>,
    /// The places of each protocol's requests, in order.
    by_kind: HashMap<RequestKind, Vec<usize>>,
}

impl CreationOrder {
    /// The order of the requests `tracker` holds.
    pub fn of(tracker: &Tracker) -> Self {
        let mut order = CreationOrder::default();
        for r in tracker.iter() {
            order.created(&r.id, r.kind);
        }
        order
    }

    /// Takes note of the request `entry` creates, if it creates one (a
    /// request created again keeps its first place).
    pub fn push(&mut self, entry: &TraceEntry) {
        if let Event::RequestCreated { request_id, request_kind, .. } = &entry.event {
            self.created(request_id, *request_kind);
        }
    }

    fn created(&mut self, id: &RequestId, kind: RequestKind) {
        let next = self.places.len();
        if let std::collections::hash_map::Entry::Vacant(e) = self.places.entry(id.clone()) {
            e.insert(next);
            self.by_kind.entry(kind).or_default().push(next);
        }
    }

    /// Request `id`'s place, if it was created.
    pub fn place(&self, id: &RequestId) -> Option<usize> {
        self.places.get(id).copied()
    }

    /// How many of the first `created` requests are of protocol `kind`
    /// (a state's tracker holds the first `tracker.len()` the run created).
    pub fn count(&self, kind: RequestKind, created: usize) -> usize {
        self.by_kind.get(&kind).map_or(0, |places| places.partition_point(|p| *p < created))
    }
}

/// The requests a request list shows: the selected one first, then pending
/// ones newest first (they are what can still be answered), then settled
/// ones newest first; only those whose id, protocol or agents contain
/// `query` (case-insensitive); at most `limit`. Without a query it reads
/// the pending requests and the newest settled ones only: `order` places
/// the pending ones.
pub fn request_rows(tracker: &Tracker, order: &CreationOrder, selected: Option<&RequestId>, query: &str, limit: usize) -> Shown<RequestId> {
    let query = query.trim().to_lowercase();
    let matches = |r: &&crate::protocol::Request| {
        query.is_empty()
            || r.id.as_str().contains(&query)
            || r.kind.to_string().contains(&query)
            || r.requester.as_str().contains(&query)
            || r.addressee.as_str().contains(&query)
    };
    let mut rows: Vec<RequestId> = Vec::new();
    if let Some(sel) = selected.and_then(|id| tracker.get(id)).filter(matches) {
        rows.push(sel.id.clone());
    }
    // Without a query every request matches: the count is the tracker's,
    // and each pass stops once the rows are full (a long run's step reads
    // the newest few requests, not all of them).
    let everything = query.is_empty();
    if everything {
        let mut pending: Vec<&crate::protocol::Request> = tracker.pending_by_addressee().collect();
        pending.sort_by_key(|r| std::cmp::Reverse(order.place(&r.id)));
        let settled = tracker.newest_first().filter(|r| r.status != RequestStatus::Pending);
        for r in pending.into_iter().chain(settled) {
            if rows.len() >= limit {
                break;
            }
            if Some(&r.id) != selected {
                rows.push(r.id.clone());
            }
        }
        return Shown { rows, matching: tracker.len(), total: tracker.len() };
    }
    let mut matching = 0;
    for pending in [true, false] {
        for r in tracker.newest_first().filter(|r| (r.status == RequestStatus::Pending) == pending).filter(matches) {
            matching += 1;
            if rows.len() < limit && Some(&r.id) != selected {
                rows.push(r.id.clone());
            }
        }
    }
    Shown { rows, matching, total: tracker.len() }
}

/// The first `limit` of `items`, with the counts.
pub fn first<T: Clone>(items: &[T], limit: usize) -> Shown<T> {
    Shown { rows: items.iter().take(limit).cloned().collect(), matching: items.len(), total: items.len() }
}

/// The key of the row that holds a list's one tab stop, given the rows'
/// keys in order: the row last moved to, while the list still shows it,
/// else the first row (`None` for an empty list).
pub fn tab_stop<'a>(last: Option<&str>, rows: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut first = None;
    for row in rows {
        if Some(row) == last {
            return Some(row);
        }
        first = first.or(Some(row));
    }
    first
}

/// Where `key` moves the tab stop of a list of `len` rows from row `at`:
/// `ArrowDown` / `ArrowUp` one row (staying put at the ends), `Home` and
/// `End` to the first and last row; `None` for any other key, which the
/// list leaves to the page.
pub fn roving_step(key: &str, at: usize, len: usize) -> Option<usize> {
    let last = len.checked_sub(1)?;
    match key {
        "ArrowDown" => Some((at + 1).min(last)),
        "ArrowUp" => Some(at.saturating_sub(1).min(last)),
        "Home" => Some(0),
        "End" => Some(last),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{AgentName, Millis, RequestKind, Team};

    fn team(n: u64) -> (Team, Vec<RequestId>) {
        let mut t = Team::new("t", 3);
        let mut ids = Vec::new();
        for i in 0..n {
            // One agent per request: a shutdown may be pending once per agent.
            let a = AgentName::parse(&format!("alice-{i:03}")).unwrap();
            t.spawn(&a, "coder", false, Millis(i)).unwrap();
            let id = t.request_shutdown(&AgentName::lead(), &a, Millis(i)).unwrap();
            if i % 2 == 0 {
                t.answer(RequestKind::SHUTDOWN, &id, &a, false, "busy", Millis(i)).unwrap();
            }
            ids.push(id);
        }
        (t, ids)
    }

    #[test]
    fn an_inbox_row_names_a_request_by_its_id_and_a_message_by_its_text_oldest_first() {
        let (mut t, ids) = team(1);
        let alice = AgentName::parse("alice-000").unwrap();
        for i in 0..INBOX_ROWS + 3 {
            t.send(&AgentName::lead(), &alice, "message", &format!("note {i}"), Millis(10)).unwrap();
        }
        let rows = inbox_rows(&t.state().bus);
        let row = rows.iter().find(|r| r.owner == "alice-000").expect("alice's inbox");
        // The shutdown request came first; then the notes, cut to the limit.
        assert_eq!(row.count, INBOX_ROWS + 4);
        assert_eq!(row.waiting.len(), INBOX_ROWS);
        assert_eq!(row.waiting[0].said, Said::Request(ids[0].to_string()));
        assert_eq!((row.waiting[0].msg_type, row.waiting[0].from.as_str()), ("shutdown_request", "lead"));
        assert_eq!(row.waiting[1].said, Said::Message("note 0".into()));
        let cat = crate::view::i18n::Catalog::en();
        assert_eq!(
            row.waiting[1].words(cat),
            crate::view::i18n::tr!(cat, "ui-inbox-message", msg_type = "message", from = "lead", content = "note 0")
        );
        assert!(row.waiting[0].words(cat).contains(&ids[0].to_string()), "{}", row.waiting[0].words(cat));
    }

    #[test]
    fn pending_requests_come_first_newest_first_then_settled_ones() {
        let (t, ids) = team(6);
        let shown = request_rows(t.tracker(), &CreationOrder::of(t.tracker()), None, "", 10);
        assert_eq!(shown.rows, [&ids[5], &ids[3], &ids[1], &ids[4], &ids[2], &ids[0]].map(Clone::clone));
        assert_eq!((shown.matching, shown.total), (6, 6));
        assert_eq!(shown.cut_note(crate::view::i18n::Catalog::en(), "ui-cut-requests"), None);
    }

    #[test]
    fn without_a_query_the_rows_are_those_a_walk_over_every_request_gives_at_every_cursor() {
        // The reference: every request walked newest first, pending ones
        // first; the list reads only the pending ones and the newest few.
        let trace = crate::view::synthetic::busy_trace(3_000, 4, 9);
        let views = crate::view::derived::RunViews::of(&trace);
        for cursor in (0..=trace.len()).step_by(97).chain([trace.len()]) {
            let state = views.state_at(trace.entries(), Some(cursor)).unwrap();
            let tracker = &state.tracker;
            let walked: Vec<RequestId> = [true, false]
                .into_iter()
                .flat_map(|pending| tracker.newest_first().filter(move |r| (r.status == RequestStatus::Pending) == pending))
                .map(|r| r.id.clone())
                .collect();
            for limit in [1, 5, REQUEST_ROWS] {
                let shown = request_rows(tracker, views.creation_order(), None, "", limit);
                assert_eq!(shown.rows, walked.iter().take(limit).cloned().collect::<Vec<_>>(), "cursor {cursor}, limit {limit}");
                assert_eq!((shown.matching, shown.total), (tracker.len(), tracker.len()));
            }
        }
    }

    #[test]
    fn a_long_list_is_cut_to_the_limit_and_says_so() {
        let (t, ids) = team(100);
        let shown = request_rows(t.tracker(), &CreationOrder::of(t.tracker()), None, "", REQUEST_ROWS);
        assert_eq!(shown.rows.len(), REQUEST_ROWS);
        assert_eq!(shown.rows[0], ids[99]);
        assert_eq!(shown.cut_note(crate::view::i18n::Catalog::en(), "ui-cut-requests").as_deref(), Some("Showing 40 of 100 requests"));
    }

    #[test]
    fn no_query_lists_the_rows_and_counts_of_a_query_every_request_matches() {
        let (t, ids) = team(100);
        for (selected, limit) in [(None, REQUEST_ROWS), (Some(&ids[0]), 5), (Some(&ids[99]), 60), (None, 200)] {
            // Every request is a shutdown: "shutdown" matches them all.
            assert_eq!(
                request_rows(t.tracker(), &CreationOrder::of(t.tracker()), selected, "", limit),
                request_rows(t.tracker(), &CreationOrder::of(t.tracker()), selected, "shutdown", limit),
                "{limit}"
            );
        }
    }

    #[test]
    fn the_selected_request_is_shown_first_even_when_it_would_be_cut() {
        let (t, ids) = team(100);
        let shown = request_rows(t.tracker(), &CreationOrder::of(t.tracker()), Some(&ids[0]), "", 5);
        assert_eq!(shown.rows[0], ids[0]);
        assert_eq!(shown.rows.len(), 5);
        assert_eq!(shown.rows.iter().filter(|id| **id == ids[0]).count(), 1, "not twice");
    }

    #[test]
    fn a_query_keeps_only_requests_whose_id_or_agents_contain_it() {
        let (t, ids) = team(30);
        let id = ids[7].as_str().to_uppercase();
        let shown = request_rows(t.tracker(), &CreationOrder::of(t.tracker()), None, &id, 10);
        assert_eq!(shown.rows, [ids[7].clone()]);
        assert_eq!(shown.matching, 1);
        assert_eq!(request_rows(t.tracker(), &CreationOrder::of(t.tracker()), None, "nobody", 10).matching, 0);
        assert_eq!(request_rows(t.tracker(), &CreationOrder::of(t.tracker()), None, "alice", 10).matching, 30);
        assert_eq!(request_rows(t.tracker(), &CreationOrder::of(t.tracker()), None, "alice-007", 10).rows, [ids[7].clone()]);
    }

    #[test]
    fn the_tab_stop_stays_on_the_row_last_focused_while_it_is_shown_else_the_first_row() {
        let rows = ["a", "b", "c"];
        assert_eq!(tab_stop(Some("b"), rows), Some("b"));
        assert_eq!(tab_stop(Some("c"), rows), Some("c"));
        assert_eq!(tab_stop(Some("gone"), rows), Some("a"), "a row no longer shown hands the stop to the first");
        assert_eq!(tab_stop(None, rows), Some("a"));
        assert_eq!(tab_stop(Some("a"), []), None, "an empty list has no tab stop");
    }

    #[test]
    fn arrows_move_one_row_within_the_list_and_home_and_end_go_to_its_ends() {
        assert_eq!(roving_step("ArrowDown", 0, 3), Some(1));
        assert_eq!(roving_step("ArrowDown", 2, 3), Some(2), "the last row stays the last");
        assert_eq!(roving_step("ArrowUp", 2, 3), Some(1));
        assert_eq!(roving_step("ArrowUp", 0, 3), Some(0), "the first row stays the first");
        assert_eq!(roving_step("Home", 2, 3), Some(0));
        assert_eq!(roving_step("End", 0, 3), Some(2));
        assert_eq!(roving_step("ArrowDown", 7, 3), Some(2), "a row past the end (the list shrank) comes back into it");
    }

    #[test]
    fn other_keys_and_empty_lists_are_left_to_the_page() {
        for key in ["Enter", " ", "Tab", "ArrowLeft", "ArrowRight", "a"] {
            assert_eq!(roving_step(key, 1, 3), None, "{key}");
        }
        assert_eq!(roving_step("ArrowDown", 0, 0), None);
        assert_eq!(roving_step("Home", 0, 0), None);
    }

    #[test]
    fn first_takes_a_prefix_and_counts_the_rest() {
        let shown = first(&[1, 2, 3, 4], 2);
        assert_eq!((shown.rows, shown.matching, shown.total), (vec![1, 2], 4, 4));
        assert_eq!(first::<u8>(&[], 2).cut_note(crate::view::i18n::Catalog::en(), "ui-cut-requests"), None);
    }
}
