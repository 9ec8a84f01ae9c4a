//! The trace as a Mermaid `sequenceDiagram`: participants in lifeline
//! order, one arrow per message (a cross for a dropped one), notes for run
//! banners, spawns, shutdowns, request transitions, failures and faults.
//!
//! Owns the Mermaid text and its escaping. Pure: it turns a `Trace` into
//! text and must not change the trace, the layout (`diagram`, whose column
//! order it borrows) or the other formats.

use crate::protocol::text::clip;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::protocol::{AgentName, Event, FaultAction, MemberStatus, Message, RequestId, Trace};
use crate::view::diagram::layout::layout;
use crate::view::fate::{fault_words, Change, Fates};
use crate::view::words::captions::said;

/// How many characters of a prompt a Mermaid note keeps.
pub const MERMAID_PROMPT_CHARS: usize = 80;

/// How many characters of a plain message's text a Mermaid arrow keeps.
pub const MERMAID_TEXT_CHARS: usize = 60;

/// Options for `mermaid_with`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MermaidOptions {
    /// Sequence numbers of `MessageSent` events whose message was dropped on
    /// the bus: drawn as `-x` arrows (ending in a cross).
    pub dropped: BTreeSet<u64>,
}

/// The trace as a Mermaid `sequenceDiagram`; messages dropped by fault
/// injection (`FaultApplied { Drop }`) end in a cross.
pub fn mermaid(trace: &Trace) -> String {
    mermaid_with(trace, &MermaidOptions::default())
}

/// The trace as a Mermaid `sequenceDiagram` that renders unchanged: numbered
/// arrows (`autonumber`) that carry what was said (the plan, the feedback,
/// the reason), one participant per lifeline in the diagram's order
/// (lead first) under a safe id (`p0`, `p1`, ...) with the agent's name as
/// its alias, one arrow per sent message (`-x` for those in
/// `options.dropped` and for messages dropped by fault injection; a released
/// delayed or reordered message arrives as a `(released)` arrow), and notes
/// for run starts and ends, spawns, shutdowns, request transitions, failed
/// model calls and the other faults (duplicate, delay, reorder). Text is escaped with
/// Mermaid's entity codes, so no name or message can break the syntax.
pub fn mermaid_with(trace: &Trace, options: &MermaidOptions) -> String {
    let names = participants(trace);
    let id: BTreeMap<&AgentName, usize> = names.iter().enumerate().map(|(i, n)| (n, i)).collect();
    let p = |name: &AgentName| format!("p{}", id[name]);
    let mut out = String::from("sequenceDiagram\n");
    let _ = writeln!(
        out,
        "    %% Team Protocols Playground trace: team {}, seed {}, {} events, format version {}",
        mermaid_text(&trace.team_name),
        trace.seed,
        trace.len(),
        trace.version
    );
    out.push_str("    autonumber\n");
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(out, "    participant p{i} as {}", mermaid_text(name.as_str()));
    }
    let lead = AgentName::lead();
    let mut parties: BTreeMap<&RequestId, (&AgentName, &AgentName)> = BTreeMap::new();
    // What became of each message: which release lets which held one go.
    let mut fates = Fates::new();
    for entry in trace.entries() {
        let change = fates.push(entry);
        match &entry.event {
            Event::RunStarted { prompt } => {
                let _ = writeln!(out, "    Note over {}: {}", p(&lead), mermaid_text(&format!("▶ {}", clip(prompt, MERMAID_PROMPT_CHARS))));
            }
            Event::RunFinished => {
                let _ = writeln!(out, "    Note over {}: ■ run finished", p(&lead));
            }
            Event::MemberSpawned { name, role, plan_mode } => {
                let mode = if *plan_mode { ", plan mode" } else { "" };
                let _ = writeln!(out, "    Note over {}: {}", p(name), mermaid_text(&format!("spawned ({}{mode})", clip(role, 40))));
            }
            Event::MemberStatusChanged { name, to: MemberStatus::Shutdown, .. } => {
                let _ = writeln!(out, "    Note over {}: shut down", p(name));
            }
            Event::MessageSent { message } => {
                let arrow = if options.dropped.contains(&entry.seq) { "-x" } else { "->>" };
                let _ = writeln!(out, "    {}{arrow}{}: {}", p(&message.from), p(&message.to), mermaid_text(&message_label(message)));
            }
            Event::FaultApplied { action: FaultAction::Drop, message, .. } => {
                let label = format!("{} (dropped)", message_label(message));
                let _ = writeln!(out, "    {}-x{}: {}", p(&message.from), p(&message.to), mermaid_text(&label));
            }
            Event::FaultApplied { action, message, .. } => {
                let label = format!("⚡ {}: {}", fault_words(action), message_label(message));
                let _ = writeln!(out, "    Note over {}: {}", p(&message.to), mermaid_text(&label));
            }
            Event::MessageReleased { .. } => {
                let released = match change {
                    Some(Change::Released(i)) => fates.all()[i].message(trace.entries()),
                    _ => None,
                };
                if let Some(message) = released {
                    let label = format!("{} (released)", message_label(message));
                    let _ = writeln!(out, "    {}->>{}: {}", p(&message.from), p(&message.to), mermaid_text(&label));
                }
            }
            Event::RequestCreated { request_id, requester, addressee, .. } => {
                parties.insert(request_id, (requester, addressee));
            }
            Event::RequestTransitioned { request_id, by, from, to, .. } => {
                let over = match parties.get(request_id) {
                    Some((a, b)) => {
                        let (a, b) = if id[a] <= id[b] { (a, b) } else { (b, a) };
                        if a == b {
                            p(a)
                        } else {
                            format!("{},{}", p(a), p(b))
                        }
                    }
                    None => p(by),
                };
                let _ = writeln!(out, "    Note over {over}: {request_id} {from} → {to}");
            }
            Event::RequestExpired { request_id, .. } => {
                if let Some((a, b)) = parties.get(request_id) {
                    let (a, b) = if id[a] <= id[b] { (a, b) } else { (b, a) };
                    let over = if a == b { p(a) } else { format!("{},{}", p(a), p(b)) };
                    let _ = writeln!(out, "    Note over {over}: {request_id} pending → rejected (expired)");
                }
            }
            Event::ModelFailed { agent, error } => {
                let _ = writeln!(out, "    Note over {}: {}", p(agent), mermaid_text(&format!("⚠ model call failed: {}", clip(error, 80))));
            }
            Event::BudgetReached { agent, limit, .. } => {
                let _ = writeln!(
                    out,
                    "    Note over {}: {}",
                    p(&lead),
                    mermaid_text(&format!("■ budget of {} reached before {agent}'s model call", limit.cap()))
                );
            }
            Event::MemberStatusChanged { .. }
            | Event::InboxDrained { .. }
            | Event::ModelCalled { .. }
            | Event::ModelReplied { .. }
            | Event::ToolCalled { .. }
            | Event::ToolReturned { .. } => {}
        }
    }
    out
}

/// Every agent the trace names, in lifeline order: the diagram's columns
/// (lead first, then teammates as they appear), then any name only events
/// the diagram does not place mention (possible in hand-made traces).
fn participants(trace: &Trace) -> Vec<AgentName> {
    let mut names: Vec<AgentName> = layout(trace, None).columns.into_iter().map(|c| c.name).collect();
    let mut seen: BTreeSet<AgentName> = names.iter().cloned().collect();
    let mut add = |n: &AgentName| {
        if seen.insert(n.clone()) {
            names.push(n.clone());
        }
    };
    for entry in trace.entries() {
        match &entry.event {
            Event::MemberSpawned { name, .. } | Event::MemberStatusChanged { name, .. } => add(name),
            Event::MessageSent { message } | Event::FaultApplied { message, .. } => {
                add(&message.from);
                add(&message.to);
            }
            Event::InboxDrained { agent, .. }
            | Event::ModelCalled { agent }
            | Event::ModelReplied { agent, .. }
            | Event::ModelFailed { agent, .. }
            | Event::ToolCalled { agent, .. }
            | Event::ToolReturned { agent, .. }
            | Event::BudgetReached { agent, .. } => add(agent),
            Event::RequestCreated { requester, addressee, .. } => {
                add(requester);
                add(addressee);
            }
            Event::RequestTransitioned { by, .. } => add(by),
            Event::RunStarted { .. } | Event::RunFinished | Event::MessageReleased { .. } | Event::RequestExpired { .. } => {}
        }
    }
    names
}

/// `type [request_id]` for protocol messages, followed by what was said
/// (`plan: “…”`, `feedback: “…”`, `reason: “…”`) when anything was;
/// `type: content` otherwise.
fn message_label(message: &Message) -> String {
    match (&message.request_id, said(message)) {
        (Some(rid), Some(said)) => format!("{} [{rid}] {}: “{}”", message.msg_type, said.field, clip(&said.text, MERMAID_TEXT_CHARS)),
        (Some(rid), None) => format!("{} [{rid}]", message.msg_type),
        (None, _) => format!("{}: {}", message.msg_type, clip(&message.content, MERMAID_TEXT_CHARS)),
    }
}

/// Text made safe for a Mermaid label, alias or note: whitespace runs
/// (newlines included) become one space, control characters go, and the
/// characters Mermaid's grammar reacts to become entity codes (`#` `;` `%`
/// `<` `>` `&`; `:` too when the text holds `style` or `classDef`, which
/// Mermaid's pre-pass would otherwise rewrite).
pub fn mermaid_text(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let guard_colon = collapsed.contains("style") || collapsed.contains("classDef");
    let mut out = String::with_capacity(collapsed.len());
    for c in collapsed.chars() {
        match c {
            '#' => out.push_str("#35;"),
            ';' => out.push_str("#59;"),
            '%' => out.push_str("#37;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            ':' if guard_colon => out.push_str("#58;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Millis, RequestKind, Team};

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    use crate::protocol::testing::handshake;

    #[test]
    fn mermaid_text_escapes_what_the_grammar_reacts_to() {
        assert_eq!(mermaid_text("a;b#c%d<e>f&g"), "a#59;b#35;c#37;d#lt;e#gt;f#amp;g");
        assert_eq!(mermaid_text(" two\nlines\t here "), "two lines here");
        assert_eq!(mermaid_text("message: hi: there"), "message: hi: there");
        assert_eq!(mermaid_text("restyle: x#"), "restyle#58; x#35;");
    }

    #[test]
    fn mermaid_has_one_arrow_per_message_and_a_note_per_transition() {
        let trace = handshake();
        let m = mermaid(&trace);
        let lines: Vec<&str> = m.lines().collect();
        assert_eq!(lines[0], "sequenceDiagram");
        assert!(lines.contains(&"    autonumber"));
        assert_eq!(lines.iter().filter(|l| l.trim_start().starts_with("participant")).count(), 2);
        assert!(lines.contains(&"    participant p0 as lead") && lines.contains(&"    participant p1 as alice"));
        assert_eq!(lines.iter().filter(|l| l.contains("->>")).count(), 3);
        assert!(m.contains("    p0->>p1: message: hi#59; #35;1 #lt;b#gt;#amp;#lt;/b#gt; 100#37;\n"), "{m}");
        assert!(m.contains("Note over p0,p1: ") && m.contains(" pending → approved\n"), "{m}");
        assert!(m.contains("    Note over p1: spawned (coder)\n") && m.contains("    Note over p1: shut down\n"), "{m}");
        assert!(m.contains("    Note over p0: ▶ Spawn alice#59; then shut her down.\n"), "{m}");
    }

    #[test]
    fn a_dropped_message_ends_in_a_cross() {
        let trace = handshake();
        let sent = trace.entries().iter().find(|e| matches!(e.event, Event::MessageSent { .. })).unwrap().seq;
        let m = mermaid_with(&trace, &MermaidOptions { dropped: BTreeSet::from([sent]) });
        assert!(m.contains("    p0-xp1: message: "), "{m}");
        assert_eq!(m.lines().filter(|l| l.contains("->>")).count(), 2);
    }

    #[test]
    fn injected_faults_show_in_mermaid_as_crosses_and_notes() {
        use crate::protocol::{FaultAction, FaultPlan, FaultRule};
        let mut t = Team::new("default", 7);
        t.spawn(&name("alice"), "coder", false, Millis(1)).unwrap();
        for (i, action) in [FaultAction::Drop, FaultAction::Duplicate, FaultAction::Delay { ms: 5 }].into_iter().enumerate() {
            t.set_faults(FaultPlan::new(vec![FaultRule::new(action)]));
            t.send(&AgentName::lead(), &name("alice"), "message", &format!("m{i}"), Millis(2)).unwrap();
        }
        t.release_all(Millis(9)).unwrap();
        let m = mermaid(t.trace());
        assert!(m.contains("    p0-xp1: message: m0 (dropped)\n"), "{m}");
        assert_eq!(m.lines().filter(|l| l.contains("->>p1: message: m1")).count(), 2, "{m}");
        assert!(m.contains("    Note over p1: ⚡ duplicated: message: m1\n"), "{m}");
        assert!(m.contains("    Note over p1: ⚡ delayed 5 ms: message: m2\n"), "{m}");
        assert!(m.contains("    p0->>p1: message: m2 (released)\n"), "{m}");
    }

    #[test]
    fn long_prompts_are_truncated_in_mermaid() {
        let mut t = Trace::new("t", 0);
        t.append(Millis(0), Event::RunStarted { prompt: "x".repeat(500) }).unwrap();
        let m = mermaid(&t);
        let note = m.lines().find(|l| l.contains("Note over p0: ▶")).unwrap();
        assert!(note.ends_with('…') && note.chars().filter(|c| *c == 'x').count() == MERMAID_PROMPT_CHARS - 1, "{note}");
    }

    #[test]
    fn protocol_arrows_carry_what_was_said() {
        let mut t = Team::new("default", 7);
        t.spawn(&name("bob"), "refactorer", true, Millis(1)).unwrap();
        let id = t.submit_plan(&name("bob"), "Rewrite auth; all at once", Millis(2)).unwrap();
        t.answer(RequestKind::PLAN, &id, &AgentName::lead(), false, "Too risky", Millis(3)).unwrap();
        let m = mermaid(t.trace());
        assert!(m.contains(&format!("    p1->>p0: plan_approval_request [{id}] plan: “Rewrite auth#59; all at once”\n")), "{m}");
        assert!(m.contains(&format!("    p0->>p1: plan_approval_response [{id}] feedback: “Too risky”\n")), "{m}");
    }
}
