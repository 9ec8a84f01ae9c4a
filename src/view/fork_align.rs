//! Two runs side by side: the rows that pair each event of one run with its
//! counterpart in the other — matched by what happened and to which request
//! (kind, agents, message types and text, and each request_id by its
//! creation order: two runs that part draw different ids for their next
//! requests; not times or sequence numbers, which shift once the runs
//! part) — and the first row where they differ.
//!
//! Owns the alignment only. Pure and native: no DOM; the runs come from
//! `explore::fork`, the view is `ui::explore::fork`.

use std::collections::HashMap;

use crate::protocol::{Event, Trace};

/// Above this many cell pairs the alignment pairs events by position (a
/// longest-common-subsequence table that size is too slow for a click).
const MAX_CELLS: usize = 4_000_000;

/// How a row's two sides relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// The same event in both runs.
    Same,
    /// Counterparts: the same happening, with different details (the
    /// sequence numbers it names, a time).
    Matched,
    /// Only in the left run.
    LeftOnly,
    /// Only in the right run.
    RightOnly,
}

/// One row: an entry index of each run (or none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// Index into the left run's entries.
    pub left: Option<usize>,
    /// Index into the right run's entries.
    pub right: Option<usize>,
    /// How they relate.
    pub kind: RowKind,
}

/// Two runs, aligned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alignment {
    /// The rows, in order.
    pub rows: Vec<Row>,
    /// The first row that is not `Same`, if the runs differ.
    pub first_difference: Option<usize>,
}

/// Each request id of a run, by creation order.
fn request_order(t: &Trace) -> HashMap<String, usize> {
    let mut order = HashMap::new();
    for e in t.entries() {
        if let Event::RequestCreated { request_id, .. } = &e.event {
            let n = order.len();
            order.entry(request_id.as_str().to_string()).or_insert(n);
        }
    }
    order
}

/// What an event is about, without the details that shift between runs:
/// its kind and every text in it (agents, types, contents), each request id
/// replaced by its creation order.
fn signature(e: &Event, requests: &HashMap<String, usize>) -> String {
    fn texts(v: &serde_json::Value, requests: &HashMap<String, usize>, out: &mut String) {
        match v {
            serde_json::Value::String(s) => {
                match requests.get(s.as_str()) {
                    Some(n) => out.push_str(&format!("request#{n}")),
                    None => out.push_str(s),
                }
                out.push('\u{1f}');
            }
            serde_json::Value::Array(items) => items.iter().for_each(|x| texts(x, requests, out)),
            serde_json::Value::Object(map) => map.values().for_each(|x| texts(x, requests, out)),
            _ => {}
        }
    }
    let mut out = String::new();
    if let Ok(v) = serde_json::to_value(e) {
        texts(&v, requests, &mut out);
    }
    out
}

/// The request an event is about, if any (its `request_id`, wherever the
/// event carries it).
pub fn request_of(e: &Event) -> Option<String> {
    fn find(v: &serde_json::Value) -> Option<String> {
        match v {
            serde_json::Value::Object(map) => {
                map.get("request_id").and_then(|r| r.as_str().map(str::to_string)).or_else(|| map.values().find_map(find))
            }
            serde_json::Value::Array(items) => items.iter().find_map(find),
            _ => None,
        }
    }
    serde_json::to_value(e).ok().as_ref().and_then(find)
}

/// Aligns two runs: a shared prefix row by row, then a longest common
/// subsequence of signatures, so events about the same request line up.
pub fn align(left: &Trace, right: &Trace) -> Alignment {
    let (a, b) = (left.entries(), right.entries());
    let prefix = a.iter().zip(b).take_while(|(x, y)| x.event == y.event).count();
    let mut rows: Vec<Row> = (0..prefix).map(|i| Row { left: Some(i), right: Some(i), kind: RowKind::Same }).collect();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    let (oa, ob) = (request_order(left), request_order(right));
    let sa: Vec<String> = ra.iter().map(|e| signature(&e.event, &oa)).collect();
    let sb: Vec<String> = rb.iter().map(|e| signature(&e.event, &ob)).collect();
    let (n, m) = (sa.len(), sb.len());
    let pair = |i: usize, j: usize| Row {
        left: Some(prefix + i),
        right: Some(prefix + j),
        kind: if ra[i].event == rb[j].event { RowKind::Same } else { RowKind::Matched },
    };
    if n.saturating_mul(m) > MAX_CELLS {
        for k in 0..n.max(m) {
            match (k < n, k < m) {
                (true, true) if sa[k] == sb[k] => rows.push(pair(k, k)),
                (true, true) => {
                    rows.push(Row { left: Some(prefix + k), right: None, kind: RowKind::LeftOnly });
                    rows.push(Row { left: None, right: Some(prefix + k), kind: RowKind::RightOnly });
                }
                (true, false) => rows.push(Row { left: Some(prefix + k), right: None, kind: RowKind::LeftOnly }),
                _ => rows.push(Row { left: None, right: Some(prefix + k), kind: RowKind::RightOnly }),
            }
        }
    } else {
        // lcs[i][j]: the longest common subsequence of sa[i..] and sb[j..].
        let mut lcs = vec![0u32; (n + 1) * (m + 1)];
        let at = |i: usize, j: usize| i * (m + 1) + j;
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[at(i, j)] = if sa[i] == sb[j] { lcs[at(i + 1, j + 1)] + 1 } else { lcs[at(i + 1, j)].max(lcs[at(i, j + 1)]) };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && sa[i] == sb[j] {
                rows.push(pair(i, j));
                i += 1;
                j += 1;
            } else if j == m || (i < n && lcs[at(i + 1, j)] >= lcs[at(i, j + 1)]) {
                rows.push(Row { left: Some(prefix + i), right: None, kind: RowKind::LeftOnly });
                i += 1;
            } else {
                rows.push(Row { left: None, right: Some(prefix + j), kind: RowKind::RightOnly });
                j += 1;
            }
        }
    }
    let first_difference = rows.iter().position(|r| r.kind != RowKind::Same);
    Alignment { rows, first_difference }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{AgentName, Millis, RequestKind, Team};

    fn name(n: &str) -> AgentName {
        AgentName::parse(n).unwrap()
    }

    /// A team that spawns alice, asks her to shut down, and lets her answer.
    fn run(approve: bool) -> Trace {
        let mut t = Team::new("d", 7);
        t.spawn(&name("alice"), "coder", false, Millis(1)).unwrap();
        let id = t.request_shutdown(&name("lead"), &name("alice"), Millis(2)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), approve, "ok", Millis(3)).unwrap();
        t.trace().clone()
    }

    #[test]
    fn identical_runs_align_row_for_row_with_no_difference() {
        let a = run(true);
        let al = align(&a, &a);
        assert_eq!(al.first_difference, None);
        assert_eq!(al.rows.len(), a.len());
        assert!(al.rows.iter().enumerate().all(|(i, r)| *r == Row { left: Some(i), right: Some(i), kind: RowKind::Same }));
    }

    #[test]
    fn runs_that_part_share_their_prefix_and_the_first_difference_is_where_they_part() {
        let (a, b) = (run(true), run(false));
        let prefix = a.entries().iter().zip(b.entries()).take_while(|(x, y)| x.event == y.event).count();
        let al = align(&a, &b);
        assert_eq!(al.first_difference, Some(prefix));
        assert!(al.rows[..prefix].iter().all(|r| r.kind == RowKind::Same));
        // Every entry of both runs appears exactly once, in order.
        let lefts: Vec<usize> = al.rows.iter().filter_map(|r| r.left).collect();
        let rights: Vec<usize> = al.rows.iter().filter_map(|r| r.right).collect();
        assert_eq!(lefts, (0..a.len()).collect::<Vec<_>>());
        assert_eq!(rights, (0..b.len()).collect::<Vec<_>>());
    }

    #[test]
    fn events_about_the_same_request_line_up_after_the_runs_part_even_under_another_id() {
        let mut short = Team::new("d", 7);
        short.spawn(&name("alice"), "coder", false, Millis(1)).unwrap();
        let mut long = short.clone();
        // The long run sends a plain message first: everything after shifts.
        long.send(&name("lead"), &name("alice"), "message", "hello", Millis(2)).unwrap();
        let a = short.request_shutdown(&name("lead"), &name("alice"), Millis(5)).unwrap();
        let b = long.request_shutdown(&name("lead"), &name("alice"), Millis(9)).unwrap();
        assert_ne!(a, b, "runs that part draw different ids");
        let (ta, tb) = (short.trace().clone(), long.trace().clone());
        let al = align(&ta, &tb);
        let created = |t: &Trace| t.entries().iter().position(|e| matches!(e.event, Event::RequestCreated { .. })).unwrap();
        let row = al.rows.iter().find(|r| r.left == Some(created(&ta))).unwrap();
        assert_eq!(row.right, Some(created(&tb)), "the request's creation is paired across runs");
        assert!(matches!(row.kind, RowKind::Same | RowKind::Matched));
        assert!(al.rows.iter().any(|r| r.kind == RowKind::RightOnly), "the extra message has no counterpart");
    }
}
