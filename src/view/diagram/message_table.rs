//! The diagram's text alternative: a table of the messages sent so far —
//! sequence number, time, sender, recipient, type, `request_id`, what was
//! said (the plan, the lead's feedback, a teammate's reason, or a plain
//! message's text) and its fate as of the cursor (delivered and read or
//! not, dropped by fault rule N, held, delayed or reordered and then
//! released, duplicated).
//!
//! Owns the table's rows at a cursor ([`rows_at`], the newest first,
//! bounded, so a step costs the rows shown, not the run's length) and a
//! fate's words. What became of each message is read once, as events
//! arrive, by [`Fates`] (the diagram reads the same index). No DOM, no
//! signals; the table component (`ui::panels::machinery`) draws it.

use crate::protocol::text::clip;
use crate::protocol::{AgentName, Message, MessageType, Millis, RequestId, TraceEntry};

use crate::view::fate::{Fate, Fates};
use crate::view::i18n::{tr, Catalog};
use crate::view::lists::Shown;
use crate::view::words::captions::said;

/// Rows the table shows at most.
pub const MESSAGE_ROWS: usize = 60;
/// How many characters of what was said a row quotes.
pub const SAID_CHARS: usize = 80;

fn by_rule(cat: &Catalog, rule: Option<usize>) -> String {
    rule.map_or_else(|| cat.t("ui-fate-by-fault"), |n| tr!(cat, "ui-fate-by-rule", rule = n))
}

fn read(cat: &Catalog, read_at: Option<u64>) -> String {
    read_at.map_or_else(|| cat.t("ui-fate-unread"), |s| tr!(cat, "ui-fate-read-at", seq = s))
}

impl Fate {
    /// The fate in words: "delivered, read at #12", "dropped by fault rule
    /// 1", "held by fault rule 2 (delayed)", ...
    pub fn describe(&self, cat: &Catalog) -> String {
        match self {
            Fate::Delivered { read_at } => tr!(cat, "ui-fate-delivered", read = read(cat, *read_at)),
            Fate::Dropped { rule } => tr!(cat, "ui-fate-dropped", by = by_rule(cat, *rule)),
            Fate::Held { rule, hold } => {
                tr!(cat, "ui-fate-held", by = by_rule(cat, *rule), how = cat.t(&format!("ui-fate-{}", hold.as_str())))
            }
            Fate::Released { rule, hold, at, read_at } => {
                tr!(
                    cat,
                    "ui-fate-released",
                    how = cat.t(&format!("ui-fate-{}", hold.as_str())),
                    by = by_rule(cat, *rule),
                    at = *at,
                    read = read(cat, *read_at)
                )
            }
            Fate::Duplicate { rule, read_at } => tr!(cat, "ui-fate-duplicate", by = by_rule(cat, *rule), read = read(cat, *read_at)),
        }
    }

    /// A short class name for styling: `delivered`, `dropped`, `held`,
    /// `released`, `duplicate`.
    pub fn class(&self) -> &'static str {
        match self {
            Fate::Delivered { .. } => "delivered",
            Fate::Dropped { .. } => "dropped",
            Fate::Held { .. } => "held",
            Fate::Released { .. } => "released",
            Fate::Duplicate { .. } => "duplicate",
        }
    }
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageRow {
    /// The event that sent it (its `MessageSent`, or the `FaultApplied` that
    /// dropped or held it).
    pub seq: u64,
    /// When it was sent.
    pub time: Millis,
    /// Sender.
    pub from: AgentName,
    /// Recipient.
    pub to: AgentName,
    /// Its type.
    pub msg_type: MessageType,
    /// Its request, on the protocol types.
    pub request_id: Option<RequestId>,
    /// What was said, clipped: `plan: …`, `feedback: …`, `reason: …`, or a
    /// plain message's text.
    pub said: String,
    /// What became of it as of the cursor.
    pub fate: Fate,
}

/// The table as of the first `cursor` events of `entries` (the trace
/// `fates` was read from): the newest `limit` messages, newest first, each
/// with its fate as of the cursor.
pub fn rows_at(fates: &Fates, entries: &[TraceEntry], cursor: usize, limit: usize) -> Shown<MessageRow> {
    let cursor = cursor.min(fates.len()).min(entries.len());
    let count = fates.count_at(cursor);
    let rows = fates.all()[..count]
        .iter()
        .rev()
        .take(limit)
        .filter_map(|f| {
            let entry = entries.get(usize::try_from(f.sent).ok()?)?;
            Some(row(entry.seq, entry.time, f.message(entries)?, f.at(cursor)))
        })
        .collect();
    Shown { rows, matching: count, total: count }
}

fn row(seq: u64, time: Millis, m: &Message, fate: Fate) -> MessageRow {
    let said = match said(m) {
        Some(s) => format!("{}: {}", s.field, clip(&s.text, SAID_CHARS)),
        None => clip(m.content.trim(), SAID_CHARS),
    };
    MessageRow { seq, time, from: m.from.clone(), to: m.to.clone(), msg_type: m.msg_type, request_id: m.request_id.clone(), said, fate }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Event, FaultAction, FaultPlan, FaultRule, RequestKind, Team, Trace};
    use crate::view::fate::Hold;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    fn table(trace: &Trace, cursor: usize) -> Shown<MessageRow> {
        rows_at(&Fates::of(trace.entries()), trace.entries(), cursor, MESSAGE_ROWS)
    }

    fn fates(rows: &Shown<MessageRow>) -> Vec<String> {
        rows.rows.iter().map(|r| r.fate.describe(Catalog::en())).collect()
    }

    #[test]
    fn a_handshake_lists_both_messages_newest_first_with_what_was_said() {
        let mut t = Team::new("default", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(10)).unwrap();
        t.drain(&name("alice"), Millis(20)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "All files saved.", Millis(3333)).unwrap();
        let trace = t.trace().clone();
        let rows = table(&trace, trace.len());
        assert_eq!(rows.total, 2);
        let [answer, request] = &rows.rows[..] else { panic!("two rows: {rows:?}") };
        assert_eq!((answer.from.as_str(), answer.to.as_str(), answer.msg_type), ("alice", "lead", MessageType::SHUTDOWN_RESPONSE));
        assert_eq!(answer.request_id.as_ref(), Some(&id));
        assert_eq!(answer.said, "reason: All files saved.");
        assert_eq!(answer.time, Millis(3333));
        assert_eq!(answer.fate.describe(Catalog::en()), "delivered, unread");
        assert_eq!(request.said, "Please shut down gracefully.");
        let drained = trace.entries().iter().find(|e| matches!(e.event, Event::InboxDrained { .. })).unwrap().seq;
        assert_eq!(request.fate, Fate::Delivered { read_at: Some(drained) });
        // Back before the drain: unread; before the request: nothing.
        assert_eq!(table(&trace, drained as usize).rows[0].fate, Fate::Delivered { read_at: None });
        assert_eq!(table(&trace, request.seq as usize).total, 0);
        assert_eq!(table(&trace, request.seq as usize + 1).total, 1);
    }

    #[test]
    fn every_fault_gives_its_fate_with_its_rule_as_of_the_cursor() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let lead = AgentName::lead();
        for (i, action) in [FaultAction::Drop, FaultAction::Duplicate, FaultAction::Delay { ms: 50 }].into_iter().enumerate() {
            // The rule that fires is the plan's second: "fault rule 2".
            let never = FaultRule { to: Some(name("nobody")), ..FaultRule::new(FaultAction::Drop) };
            t.set_faults(FaultPlan::new(vec![never, FaultRule::new(action)]));
            t.send(&lead, &name("alice"), "message", &format!("m{i}"), Millis(1)).unwrap();
        }
        t.set_faults(FaultPlan::default());
        let held_at = t.trace().len();
        t.release_all(Millis(60)).unwrap();
        t.drain(&name("alice"), Millis(70)).unwrap();
        let trace = t.trace().clone();
        let end = table(&trace, trace.len());
        let said: Vec<&str> = end.rows.iter().map(|r| r.said.as_str()).collect();
        assert_eq!(said, ["m2", "m1", "m1", "m0"], "newest first; the duplicate twice");
        let released = held_at as u64;
        let read = trace.len() as u64 - 1;
        assert_eq!(
            fates(&end),
            [
                format!("delayed by fault rule 2, arrived at #{released}, read at #{read}"),
                format!("duplicated by fault rule 2 (this is the copy), read at #{read}"),
                format!("delivered, read at #{read}"),
                "dropped by fault rule 2".to_string(),
            ]
        );
        assert_eq!(end.rows.iter().map(|r| r.fate.class()).collect::<Vec<_>>(), ["released", "duplicate", "delivered", "dropped"]);
        assert_eq!(table(&trace, held_at).rows[0].fate, Fate::Held { rule: Some(2), hold: Hold::Delayed });
        assert_eq!(table(&trace, held_at).rows[0].fate.describe(Catalog::en()), "held by fault rule 2 (delayed), not arrived yet");
    }

    #[test]
    fn a_long_run_shows_the_newest_rows_and_the_count_and_agrees_with_the_diagram() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("a"), "r", false, Millis(0)).unwrap();
        for i in 0..500 {
            t.send(&AgentName::lead(), &name("a"), "message", &format!("hi {i}"), Millis(i)).unwrap();
        }
        let trace = t.trace().clone();
        let rows = table(&trace, trace.len());
        assert_eq!((rows.rows.len(), rows.total), (MESSAGE_ROWS, 500));
        assert_eq!(rows.rows[0].said, "hi 499");
        assert_eq!(rows.cut_note(Catalog::en(), "ui-cut-messages").as_deref(), Some("Showing 60 of 500 messages"));
        let diagram = crate::view::diagram::layout::layout(&trace, Some(300));
        assert_eq!(table(&trace, 300).total, diagram.messages, "one row per arrow");
    }
}
