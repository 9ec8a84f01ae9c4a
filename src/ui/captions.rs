//! Captions: every event of a run told in the lesson's words — a short title
//! and one or two plain sentences from the protocol's point of view ("The
//! lead asks alice to shut down. Request 4607cc28 is created and is pending
//! until alice answers.") — and what was said in a protocol message (the
//! plan, the lead's feedback, a teammate's reason).
//!
//! Owns caption text only. Pure and native: it reads trace entries (and,
//! when the caller has it, the team's state just before the event) and must
//! not touch the DOM, signals, the layout or the trace. Each caption costs
//! O(1)-ish: it reads its own entry, the entries it names by sequence number
//! (an `InboxDrained` names the `MessageSent`/`MessageReleased` events of its
//! messages) and the few entries of the same command beside it; it never
//! replays the trace.

use crate::protocol::{
    AgentName, Event, FaultAction, MemberStatus, Message, MessageType, RequestKind, RequestStatus, TeamState, Trace, TraceEntry,
};

/// How many characters of a plan, feedback or reason a caption quotes.
pub const CAPTION_QUOTE_CHARS: usize = 140;

/// How far a caption looks beside its entry for the rest of the same command
/// (a transition and its response message, a request and its message).
const NEIGHBOURS: usize = 3;

/// One step told in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caption {
    /// A short title ("Shutdown requested").
    pub title: String,
    /// One or two sentences.
    pub text: String,
}

impl Caption {
    fn new(title: impl Into<String>, text: impl Into<String>) -> Self {
        // A quote that ends its own sentence takes no second full stop.
        let mut text: String = text.into();
        for end in [".”.", "!”.", "?”.", "…”."] {
            text = text.replace(end, &end[..end.len() - 1]);
        }
        Caption { title: title.into(), text }
    }
}

/// What was said in a protocol message: the plan a teammate submitted, the
/// lead's feedback on it, or a teammate's reason for its shutdown answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// `plan`, `feedback` or `reason` (the lesson's field names).
    pub field: &'static str,
    /// The text, whole.
    pub text: String,
}

/// What `message` says in its protocol field, if it is a request or response
/// that says anything: the `plan` of a `plan_approval_request`, the
/// `feedback` of a `plan_approval_response`, the `reason` of a
/// `shutdown_response` (each falling back to the message's `content`, where
/// the lesson's `BUS.send` puts it). `None` for plain messages, the
/// shutdown request (its text is always the same) and empty answers.
pub fn said(message: &Message) -> Option<Said> {
    let (field, own) = match message.msg_type {
        MessageType::PlanApprovalRequest => ("plan", &message.plan),
        MessageType::PlanApprovalResponse => ("feedback", &message.feedback),
        MessageType::ShutdownResponse => ("reason", &message.reason),
        MessageType::ShutdownRequest | MessageType::Message | MessageType::Broadcast => return None,
    };
    let text = own.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or(&message.content).trim();
    (!text.is_empty()).then(|| Said { field, text: text.to_string() })
}

/// What was said in the messages of one request (its request and its
/// answers, in order), one line per message: `plan: …`, `feedback: …`,
/// `reason: …` — for the request detail in the Requests panel.
pub fn said_in<'a>(request_messages: impl IntoIterator<Item = &'a Message>) -> Vec<Said> {
    request_messages.into_iter().filter_map(said).collect()
}

/// `text` cut to `max` characters, an ellipsis marking the cut; whitespace
/// runs (line breaks too) become one space.
pub fn clip(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        flat.chars().take(max.saturating_sub(1)).collect::<String>() + "…"
    }
}

fn quote(text: &str) -> String {
    format!("“{}”", clip(text, CAPTION_QUOTE_CHARS))
}

/// `field: “text”.` — without a second full stop when the quote ends a
/// sentence of its own.
fn quoted_field(field: &str, text: &str) -> String {
    let q = clip(text, CAPTION_QUOTE_CHARS);
    let stop = if q.ends_with(['.', '!', '?', '…']) { "" } else { "." };
    format!(" {field}: “{q}”{stop}")
}

/// The caption of the step the cursor shows: the last of the first `cursor`
/// events (all of them for `None`), or a start caption before the first.
/// Reads only that entry and the entries it names.
pub fn caption(trace: &Trace, cursor: Option<usize>) -> Caption {
    caption_with(trace.entries(), cursor, None)
}

/// As [`caption`], with the team's state just before the shown event when
/// the caller has it cheaply (the page's keyframed timeline): it tells a
/// restart from a first spawn and an answer across a restart from an
/// ordinary one.
pub fn caption_with(entries: &[TraceEntry], cursor: Option<usize>, before: Option<&TeamState>) -> Caption {
    let shown = cursor.unwrap_or(usize::MAX).min(entries.len());
    match shown.checked_sub(1).and_then(|i| entries.get(i)) {
        Some(entry) => caption_of(entries, before, entry),
        None if entries.is_empty() => {
            Caption::new("Nothing yet", "Pick a scenario or type a prompt for the lead. Each step of the run is told here.")
        }
        None => Caption::new(
            "Before the first event",
            format!("The run has {} events. Press Next to watch the lead and its teammates step by step.", entries.len()),
        ),
    }
}

/// The message an entry put in an inbox (or meant to): a `MessageSent`'s, a
/// `FaultApplied`'s, or for a `MessageReleased` the held message of the
/// `FaultApplied` it names.
fn message_of(entries: &[TraceEntry], seq: u64) -> Option<&Message> {
    match &entries.get(usize::try_from(seq).ok()?)?.event {
        Event::MessageSent { message } | Event::FaultApplied { message, .. } => Some(message),
        Event::MessageReleased { held } => match &entries.get(usize::try_from(*held).ok()?)?.event {
            Event::FaultApplied { message, .. } => Some(message),
            _ => None,
        },
        _ => None,
    }
}

/// The response or request message of `id` among the entries of the same
/// command beside `entry` (the tracker event and its message are appended
/// together, with at most a fault event between).
fn message_beside<'a>(entries: &'a [TraceEntry], entry: &TraceEntry, id: &crate::protocol::RequestId) -> Option<&'a Message> {
    let at = usize::try_from(entry.seq).ok()?;
    let end = (at + 1 + NEIGHBOURS).min(entries.len());
    entries.get(at + 1..end)?.iter().find_map(|e| match &e.event {
        Event::MessageSent { message } | Event::FaultApplied { message, .. } if message.request_id.as_ref() == Some(id) => Some(message),
        _ => None,
    })
}

fn number(n: usize) -> String {
    const WORDS: [&str; 11] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    WORDS.get(n).map_or_else(|| n.to_string(), |w| w.to_string())
}

fn messages(n: usize) -> String {
    format!("{} message{}", number(n), if n == 1 { "" } else { "s" })
}

/// `the lead` or the agent's name.
fn who(name: &AgentName) -> String {
    if name.is_lead() {
        "the lead".to_string()
    } else {
        name.to_string()
    }
}

/// `The lead` or the agent's name, to start a sentence.
fn who_cap(name: &AgentName) -> String {
    if name.is_lead() {
        "The lead".to_string()
    } else {
        name.to_string()
    }
}

/// `the lead's` or `alice's`.
fn whose(name: &AgentName) -> String {
    format!("{}'s", who(name))
}

/// `The lead's` or `alice's`, to start a sentence.
fn whose_cap(name: &AgentName) -> String {
    format!("{}'s", who_cap(name))
}

/// A message as a noun phrase: "the shutdown_request 4607cc28 from the lead",
/// "a message from bob".
fn message_phrase(m: &Message) -> String {
    match &m.request_id {
        Some(id) => format!("the {} {id} from {}", m.msg_type, who(&m.from)),
        None => format!("a {} from {}", m.msg_type, who(&m.from)),
    }
}

/// The caption of `entry`, looking up what it names in `entries` (the trace,
/// or at least every entry up to and beside `entry`), with the team's state
/// just before it if the caller has it. Every `Event` variant has its own
/// arm: a new variant does not compile until it is told.
#[deny(clippy::wildcard_enum_match_arm)]
pub fn caption_of(entries: &[TraceEntry], before: Option<&TeamState>, entry: &TraceEntry) -> Caption {
    match &entry.event {
        Event::RunStarted { prompt } => {
            Caption::new("Run started", format!("The user gives the lead a prompt: {}. The lead starts its agent loop.", quote(prompt)))
        }
        Event::RunFinished => Caption::new(
            "Run finished",
            "The team is quiet: nobody is working and no inbox holds an unread message. Every request has its final state in the tracker — or is still pending.",
        ),
        Event::MemberSpawned { name, role, plan_mode } => {
            let restart = before.and_then(|st| st.roster.get(name)).is_some();
            let gate = if *plan_mode {
                format!(" It works in plan mode: the runtime gates execution — {name} must get a plan approved by the lead before changing the workspace.")
            } else {
                String::new()
            };
            if restart {
                Caption::new(
                    format!("{name} restarts"),
                    format!("The lead starts {name} again as {role}: a new run of its loop (a new incarnation). Requests addressed to its previous run can no longer be answered by it.{gate}"),
                )
            } else {
                Caption::new(format!("{name} spawned"), format!("The lead spawns {name} as {role}; {name} is working and gets its own inbox.{gate}"))
            }
        }
        Event::MemberStatusChanged { name, from, to } => match to {
            MemberStatus::Shutdown => Caption::new(
                format!("{name} shuts down"),
                format!("{name} leaves its loop: status {from} → shutdown. Its lifeline ends (×); a message sent to {name} from now on is never read."),
            ),
            MemberStatus::Idle => Caption::new(
                format!("{name} idle"),
                format!("{name} has nothing left to do this turn: {from} → idle. It waits for a message in its inbox to wake it."),
            ),
            MemberStatus::Working => Caption::new(format!("{name} working"), format!("{name} has work again: {from} → working.")),
        },
        Event::MessageSent { message } => sent_caption(entries, before, entry, message),
        Event::InboxDrained { agent, message_ids } => {
            let found: Vec<&Message> = message_ids.iter().filter_map(|id| message_of(entries, id.0)).collect();
            let mut list: Vec<String> = found.iter().take(3).map(|m| message_phrase(m)).collect();
            if message_ids.len() > list.len() {
                list.push(format!("{} more", messages(message_ids.len() - list.len())));
            }
            let what = match list.len() {
                0 => String::new(),
                1 => format!(", {}", list[0]),
                _ => format!(": {}", join_and(&list)),
            };
            let protocol = found.iter().filter(|m| m.msg_type.is_request() || m.msg_type.is_response()).count();
            let next = if protocol > 0 {
                format!(" {} handles each by its request_id.", who_cap(agent))
            } else {
                String::new()
            };
            Caption::new(
                "Inbox read",
                format!("{} reads {} inbox: {}{what}. The inbox is empty again.{next}", who_cap(agent), if agent.is_lead() { "its" } else { "the" }, messages(message_ids.len())),
            )
        }
        Event::RequestCreated { request_id, request_kind, requester, addressee, plan } => match request_kind {
            RequestKind::Shutdown => Caption::new(
                "Shutdown requested",
                format!(
                    "{} asks {addressee} to shut down. Request {request_id} is created and is pending until {addressee} answers: shutdown_requests[{request_id}] = {{target: {addressee}, status: pending}}.",
                    who_cap(requester)
                ),
            ),
            RequestKind::Plan => Caption::new(
                "Plan submitted",
                format!(
                    "{requester} submits a plan for approval: {}. Request {request_id} is pending until {} reviews it; until then {requester} must not carry the plan out.",
                    plan.as_deref().map_or_else(|| "(no text)".to_string(), quote),
                    who(addressee)
                ),
            ),
        },
        Event::RequestTransitioned { request_id, request_kind, by, from, to } => {
            let reply = message_beside(entries, entry, request_id);
            let known = before.and_then(|st| st.tracker.get(request_id));
            let requester = known.map(|r| r.requester.clone()).or_else(|| reply.map(|m| m.to.clone()));
            let stale = known.zip(before).is_some_and(|(r, st)| r.incarnations.addressee < st.roster.incarnation(by));
            let words = reply.and_then(said).map(|s| quoted_field(s.field, &s.text)).unwrap_or_default();
            let moved = format!("the tracker moves it {from} → {to}");
            let mut c = match (request_kind, to) {
                (RequestKind::Shutdown, RequestStatus::Approved) => Caption::new(
                    "Shutdown approved",
                    format!("{} approves {request_id}: {moved}. {} finishes this turn, then leaves its loop.{words}", who_cap(by), who_cap(by)),
                ),
                (RequestKind::Shutdown, _) => Caption::new(
                    "Shutdown rejected",
                    format!("{} rejects {request_id}: {moved}. {} keeps working; the lead can ask again with a new request.{words}", who_cap(by), who_cap(by)),
                ),
                (RequestKind::Plan, RequestStatus::Approved) => {
                    let of = requester.as_ref().map_or_else(|| "the".to_string(), whose);
                    let then = requester.as_ref().map_or_else(|| "The teammate may now go ahead".to_string(), |r| format!("The gate opens: {r} may now carry out the plan"));
                    Caption::new("Plan approved", format!("{} approves {of} plan {request_id}: {moved}. {then}.{words}", who_cap(by)))
                }
                (RequestKind::Plan, _) => {
                    let of = requester.as_ref().map_or_else(|| "the".to_string(), whose);
                    let then = requester.as_ref().map_or_else(|| "The teammate must not carry it out".to_string(), |r| format!("{r} must not carry it out; it can revise and submit a new plan"));
                    Caption::new("Plan rejected", format!("{} rejects {of} plan {request_id}: {moved}. {then}.{words}", who_cap(by)))
                }
            };
            if stale {
                c.text.push_str(&format!(" Careful: {request_id} was addressed to {by}'s previous run, before its restart — a stale answer."));
            }
            c
        }
        Event::ModelCalled { agent } => Caption::new(
            "Model called",
            format!("{} calls its model with the conversation so far and waits for the reply (the activation bar on its lifeline).", who_cap(agent)),
        ),
        Event::ModelReplied { agent, text, stop_reason, output_tokens, .. } => {
            let said = if text.trim().is_empty() { String::new() } else { format!(" It says: {}.", quote(text)) };
            let next = if stop_reason == "tool_use" { "it asks for tool calls, which the loop runs next" } else { "its turn ends" };
            Caption::new("Model replied", format!("{} model answers ({output_tokens} tokens, {stop_reason}): {next}.{said}", whose_cap(agent)))
        }
        Event::ModelFailed { agent, error } => Caption::new(
            "Model call failed",
            format!("{} model call failed: {}. {} stops this turn.", whose_cap(agent), clip(error, CAPTION_QUOTE_CHARS), who_cap(agent)),
        ),
        Event::ToolCalled { agent, tool, input, .. } => tool_caption(agent, tool, input),
        Event::ToolReturned { agent, tool, output, is_error, .. } => {
            if *is_error {
                Caption::new(
                    "Tool refused",
                    format!("The runtime refuses {} {tool}: {}. The model reads the error and can try again.", whose(agent), quote(output)),
                )
            } else {
                Caption::new("Tool returned", format!("{} {tool} returns: {}.", whose_cap(agent), quote(output)))
            }
        }
        Event::FaultApplied { action, message, rule } => {
            let by = rule.map_or_else(|| "A fault rule".to_string(), |r| format!("Fault rule {r}"));
            let what = message_phrase(message);
            let to = who(&message.to);
            match action {
                FaultAction::Drop => Caption::new(
                    "Fault: dropped",
                    format!("{by} drops {what} on its way to {to}: it never reaches {to}'s inbox (×).{}", if message.msg_type.is_response() { " The tracker has moved, but the requester never learns the answer." } else { "" }),
                ),
                FaultAction::Delay { ms } => Caption::new("Fault: delayed", format!("{by} holds {what} on the bus for {ms} ms; it reaches {to}'s inbox later.")),
                FaultAction::Duplicate => Caption::new("Fault: duplicated", format!("{by} duplicates {what}: {to}'s inbox gets it twice. The request_id shows the copy answers nothing new.")),
                FaultAction::Reorder => Caption::new(
                    "Fault: reordered",
                    format!("{by} holds {what} back until the next message to {to} is delivered, so it arrives out of order. The request_id still matches it to its request."),
                ),
            }
        }
        Event::MessageReleased { held } => match message_of(entries, *held) {
            Some(m) => Caption::new(
                "Held message released",
                format!("{} reaches {} inbox at last (held since event #{held}). It is matched by its request_id, whatever the order.", capitalise(&message_phrase(m)), whose(&m.to)),
            ),
            None => Caption::new("Held message released", format!("The message held by event #{held} reaches its recipient's inbox.")),
        },
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn sent_caption(entries: &[TraceEntry], before: Option<&TeamState>, entry: &TraceEntry, m: &Message) -> Caption {
    let (from, to) = (who_cap(&m.from), who(&m.to));
    // A copy made by a duplicate fault follows its `FaultApplied`.
    let copy = entry
        .seq
        .checked_sub(1)
        .and_then(|s| entries.get(usize::try_from(s).ok()?))
        .is_some_and(|e| matches!(e.event, Event::FaultApplied { action: FaultAction::Duplicate, .. }));
    let copy = if copy { " This is the copy a duplicate fault made." } else { "" };
    let waits = format!("It waits in {} inbox until {to} reads it.", whose(&m.to));
    let id = m.request_id.as_ref().map(ToString::to_string).unwrap_or_default();
    let words = said(m).map(|s| quoted_field(s.field, &s.text)).unwrap_or_default();
    let stale = m.msg_type.is_response()
        && before
            .zip(m.request_id.as_ref())
            .and_then(|(st, id)| st.tracker.get(id).map(|r| r.incarnations.addressee < st.roster.incarnation(&m.from)))
            .unwrap_or(false);
    let stale = if stale {
        format!(" It answers {id}, addressed to {}'s previous run: a stale answer across a restart.", m.from)
    } else {
        String::new()
    };
    let (title, text) = match m.msg_type {
        MessageType::Message => ("Message sent", format!("{from} sends {to} a message: {}. {waits}", quote(&m.content))),
        MessageType::Broadcast => ("Broadcast", format!("{from} broadcasts to {to}: {}. {waits}", quote(&m.content))),
        MessageType::ShutdownRequest => (
            "shutdown_request sent",
            format!("{from} sends the shutdown_request with request_id {id} to {to}: {}. {waits}", quote(&m.content)),
        ),
        MessageType::ShutdownResponse => {
            let yes = if m.approve == Some(true) { "approve: true" } else { "approve: false" };
            (
                "shutdown_response sent",
                format!("{from} answers {id} with a shutdown_response ({yes}), correlated by request_id.{words} {waits}"),
            )
        }
        MessageType::PlanApprovalRequest => (
            "plan_approval_request sent",
            format!("{from} sends the plan to {to} as a plan_approval_request with request_id {id}.{words} {waits}"),
        ),
        MessageType::PlanApprovalResponse => {
            let yes = if m.approve == Some(true) { "approve: true" } else { "approve: false" };
            (
                "plan_approval_response sent",
                format!("{from} answers plan {id} with a plan_approval_response ({yes}), correlated by request_id.{words} {waits}"),
            )
        }
    };
    Caption::new(title, format!("{text}{copy}{stale}"))
}

fn tool_caption(agent: &AgentName, tool: &str, input: &serde_json::Value) -> Caption {
    let s = |k: &str| input.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
    let a = who_cap(agent);
    let text = match tool {
        "spawn_teammate" => format!("{a} calls spawn_teammate to start {} as {}.", s("name"), s("role")),
        "shutdown_request" => {
            format!("{a} calls shutdown_request for {}: the handler will create a request_id and send the request.", s("teammate"))
        }
        "shutdown_response" => {
            let yes = input.get("approve").and_then(|v| v.as_bool());
            match yes {
                Some(true) => format!("{a} calls shutdown_response to approve {}.", s("request_id")),
                Some(false) => format!("{a} calls shutdown_response to reject {}.", s("request_id")),
                None => format!("{a} calls shutdown_response about {}.", s("request_id")),
            }
        }
        "plan_approval" if input.get("request_id").is_some() => {
            let yes = if input.get("approve").and_then(|v| v.as_bool()) == Some(true) { "approve" } else { "reject" };
            format!("{a} calls plan_approval to {yes} plan {} (review mode, with the request_id).", s("request_id"))
        }
        "plan_approval" => format!("{a} calls plan_approval to submit a plan (submit mode, no request_id yet): {}.", quote(&s("plan"))),
        "read_inbox" => format!("{a} calls read_inbox to read the messages waiting for it."),
        "send_message" => format!("{a} calls send_message to write to {}.", s("to")),
        "broadcast" => format!("{a} calls broadcast to write to every teammate."),
        "list_teammates" => format!("{a} calls list_teammates to see each member's status in config.json."),
        "write_file" | "edit_file" | "read_file" => format!("{a} calls {tool} on {}.", s("path")),
        other => format!("{a} calls the tool {other}."),
    };
    Caption::new(format!("Tool: {tool}"), text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{FaultPlan, FaultRule, Millis, RequestId, Team};
    use crate::ui::views::describe;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    fn find(trace: &Trace, f: impl Fn(&Event) -> bool) -> usize {
        trace.entries().iter().position(|e| f(&e.event)).expect("the event is in the trace")
    }

    fn at(trace: &Trace, i: usize) -> Caption {
        caption(trace, Some(i + 1))
    }

    /// alice is spawned, asked to shut down, reads the request and approves.
    fn shutdown() -> (Trace, RequestId) {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
        t.drain(&name("alice"), Millis(2)).unwrap();
        t.answer(RequestKind::Shutdown, &id, &name("alice"), true, "all done", Millis(3)).unwrap();
        t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
        (t.trace().clone(), id)
    }

    #[test]
    fn a_shutdown_request_names_the_target_and_the_pending_request() {
        let (trace, id) = shutdown();
        let c = at(&trace, find(&trace, |e| matches!(e, Event::RequestCreated { .. })));
        assert_eq!(c.title, "Shutdown requested");
        assert!(
            c.text.starts_with(&format!("The lead asks alice to shut down. Request {id} is created and is pending until alice answers")),
            "{}",
            c.text
        );
    }

    #[test]
    fn reading_the_inbox_lists_the_messages_drained_by_their_seq() {
        let (trace, id) = shutdown();
        let c = at(&trace, find(&trace, |e| matches!(e, Event::InboxDrained { .. })));
        assert_eq!(c.text, format!("alice reads the inbox: one message, the shutdown_request {id} from the lead. The inbox is empty again. alice handles each by its request_id."));
    }

    #[test]
    fn an_approved_shutdown_says_the_teammate_finishes_its_turn_then_exits() {
        let (trace, id) = shutdown();
        let c = at(&trace, find(&trace, |e| matches!(e, Event::RequestTransitioned { .. })));
        assert_eq!(c.title, "Shutdown approved");
        assert!(
            c.text.starts_with(&format!(
                "alice approves {id}: the tracker moves it pending → approved. alice finishes this turn, then leaves its loop."
            )),
            "{}",
            c.text
        );
        assert!(c.text.contains("reason: “all done”"), "the reason comes from the response beside it: {}", c.text);
    }

    #[test]
    fn a_rejected_plan_names_whose_plan_and_quotes_the_feedback() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("bob"), "refactorer", true, Millis(0)).unwrap();
        let id = t.submit_plan(&name("bob"), "Rewrite auth in one go", Millis(1)).unwrap();
        t.answer(RequestKind::Plan, &id, &AgentName::lead(), false, "Too risky: split it", Millis(2)).unwrap();
        let trace = t.trace().clone();
        let created = at(&trace, find(&trace, |e| matches!(e, Event::RequestCreated { .. })));
        assert!(created.text.contains("bob submits a plan for approval: “Rewrite auth in one go”"), "{}", created.text);
        let c = at(&trace, find(&trace, |e| matches!(e, Event::RequestTransitioned { .. })));
        assert_eq!(c.title, "Plan rejected");
        assert!(c.text.starts_with(&format!("The lead rejects bob's plan {id}: the tracker moves it pending → rejected.")), "{}", c.text);
        assert!(c.text.contains("feedback: “Too risky: split it”"), "{}", c.text);
        let spawned = at(&trace, 0);
        assert!(spawned.text.contains("plan mode") && spawned.text.contains("gates execution"), "{}", spawned.text);
    }

    #[test]
    fn a_fault_caption_names_its_rule_and_a_release_names_the_held_message() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop), FaultRule::new(FaultAction::Reorder)]));
        t.send(&AgentName::lead(), &name("alice"), "message", "one", Millis(1)).unwrap();
        let trace = t.trace().clone();
        let i = find(&trace, |e| matches!(e, Event::FaultApplied { .. }));
        let Event::FaultApplied { rule, .. } = &trace.entries()[i].event else { unreachable!() };
        let c = at(&trace, i);
        assert!(c.text.starts_with(&format!("Fault rule {} ", rule.unwrap())), "{}", c.text);

        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Delay { ms: 50 })]));
        t.send(&AgentName::lead(), &name("alice"), "message", "later", Millis(1)).unwrap();
        t.set_faults(FaultPlan::default());
        t.release_all(Millis(60)).unwrap();
        t.drain(&name("alice"), Millis(61)).unwrap();
        let trace = t.trace().clone();
        let held = find(&trace, |e| matches!(e, Event::FaultApplied { .. }));
        let c = at(&trace, find(&trace, |e| matches!(e, Event::MessageReleased { .. })));
        assert_eq!(c.text, format!("A message from the lead reaches alice's inbox at last (held since event #{held}). It is matched by its request_id, whatever the order."));
        let read = at(&trace, find(&trace, |e| matches!(e, Event::InboxDrained { .. })));
        assert!(read.text.contains("one message, a message from the lead"), "a released message is found through its fault: {}", read.text);
    }

    #[test]
    fn a_restart_and_an_answer_across_it_are_told_from_the_state_before() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        t.set_status(&name("alice"), MemberStatus::Idle, Millis(1)).unwrap();
        let before = t.state().clone();
        t.spawn(&name("alice"), "coder", false, Millis(2)).unwrap();
        let trace = t.trace().clone();
        let last = trace.len() - 1;
        assert_eq!(caption_with(trace.entries(), None, Some(&before)).title, "alice restarts");
        assert_eq!(
            caption_of(trace.entries(), None, &trace.entries()[last]).title,
            "alice spawned",
            "without the state, a spawn is a spawn"
        );
    }

    #[test]
    fn the_caption_follows_the_cursor_and_has_a_start() {
        let (trace, _) = shutdown();
        assert_eq!(caption(&trace, Some(0)).title, "Before the first event");
        assert_eq!(caption(&Trace::new("d", 0), None).title, "Nothing yet");
        assert_eq!(caption(&trace, Some(1)).title, "alice spawned");
        assert_eq!(caption(&trace, None), caption(&trace, Some(trace.len())));
        assert_eq!(caption(&trace, Some(usize::MAX)), caption(&trace, None));
    }

    #[test]
    fn what_was_said_is_the_plan_the_feedback_or_the_reason() {
        let mut m = Message::new(MessageType::PlanApprovalRequest, name("bob"), AgentName::lead(), "the plan", Millis(0));
        m.plan = Some("Step 1\nStep 2".into());
        assert_eq!(said(&m), Some(Said { field: "plan", text: "Step 1\nStep 2".into() }));
        let mut r = Message::new(MessageType::ShutdownResponse, name("bob"), AgentName::lead(), "busy", Millis(0));
        assert_eq!(said(&r).map(|s| (s.field, s.text)), Some(("reason", "busy".to_string())), "content stands in for a missing field");
        r.reason = Some("  ".into());
        r.content = String::new();
        assert_eq!(said(&r), None, "an empty answer says nothing");
        let plain = Message::new(MessageType::Message, name("bob"), AgentName::lead(), "hi", Millis(0));
        assert_eq!(said(&plain), None);
        let f = Message {
            feedback: Some("split it".into()),
            ..Message::new(MessageType::PlanApprovalResponse, AgentName::lead(), name("bob"), "", Millis(0))
        };
        assert_eq!(said_in([&m, &plain, &f]).iter().map(|s| s.field).collect::<Vec<_>>(), ["plan", "feedback"]);
        assert_eq!(clip("a\nb  c", 10), "a b c");
        assert_eq!(clip("abcdef", 4), "abc…");
    }

    /// One entry of every `Event` variant. The match below has no wildcard:
    /// a new variant fails to compile here until it is added (and so gets a
    /// caption checked by the test that uses this).
    fn one_of_each() -> Vec<Event> {
        let m = Message::new(MessageType::Message, AgentName::lead(), name("alice"), "hi", Millis(0));
        let id = RequestId::parse("4607cc28").unwrap();
        let all = vec![
            Event::RunStarted { prompt: "go".into() },
            Event::RunFinished,
            Event::MemberSpawned { name: name("alice"), role: "coder".into(), plan_mode: false },
            Event::MemberStatusChanged { name: name("alice"), from: MemberStatus::Working, to: MemberStatus::Idle },
            Event::MessageSent { message: m.clone() },
            Event::InboxDrained { agent: name("alice"), message_ids: vec![crate::protocol::MessageId(4)] },
            Event::RequestCreated {
                request_id: id.clone(),
                request_kind: RequestKind::Shutdown,
                requester: AgentName::lead(),
                addressee: name("alice"),
                plan: None,
            },
            Event::RequestTransitioned {
                request_id: id,
                request_kind: RequestKind::Shutdown,
                by: name("alice"),
                from: RequestStatus::Pending,
                to: RequestStatus::Approved,
            },
            Event::ModelCalled { agent: name("alice") },
            Event::ModelReplied {
                agent: name("alice"),
                text: "ok".into(),
                stop_reason: "end_turn".into(),
                input_tokens: 1,
                output_tokens: 2,
            },
            Event::ModelFailed { agent: name("alice"), error: "boom".into() },
            Event::ToolCalled { agent: name("alice"), tool_use_id: "t1".into(), tool: "read_inbox".into(), input: serde_json::json!({}) },
            Event::ToolReturned {
                agent: name("alice"),
                tool_use_id: "t1".into(),
                tool: "read_inbox".into(),
                output: "[]".into(),
                is_error: false,
            },
            Event::FaultApplied { action: FaultAction::Delay { ms: 5 }, message: m, rule: Some(1) },
            Event::MessageReleased { held: 13 },
        ];
        for e in &all {
            match e {
                Event::RunStarted { .. }
                | Event::RunFinished
                | Event::MemberSpawned { .. }
                | Event::MemberStatusChanged { .. }
                | Event::MessageSent { .. }
                | Event::InboxDrained { .. }
                | Event::RequestCreated { .. }
                | Event::RequestTransitioned { .. }
                | Event::ModelCalled { .. }
                | Event::ModelReplied { .. }
                | Event::ModelFailed { .. }
                | Event::ToolCalled { .. }
                | Event::ToolReturned { .. }
                | Event::FaultApplied { .. }
                | Event::MessageReleased { .. } => {}
            }
        }
        all
    }

    #[test]
    fn every_event_variant_has_a_caption_of_its_own() {
        let mut trace = Trace::new("d", 0);
        for e in one_of_each() {
            trace.append(Millis(0), e).unwrap();
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, entry) in trace.entries().iter().enumerate() {
            let c = at(&trace, i);
            assert!(!c.title.is_empty() && !c.text.is_empty(), "{entry:?}");
            assert_ne!(c.text, describe(entry), "a caption is not the raw log line: {entry:?}");
            assert!(!c.text.contains(&describe(entry)), "{entry:?}");
            assert!(seen.insert(c.text.clone()), "each variant is told in its own words: {}", c.text);
        }
        // Variants are variants: 15 distinct kinds, one caption each.
        assert_eq!(seen.len(), 15);
    }

    #[test]
    fn every_event_of_every_scenario_has_a_caption_and_none_reads_like_a_debug_dump() {
        use crate::model::scripted::ScriptedModel;
        use crate::model::sleep::NoSleep;
        use crate::runtime::executor::LocalExecutor;
        use crate::runtime::{scenarios, Host, Runtime, RuntimeConfig};
        use std::rc::Rc;
        for sc in scenarios::ALL {
            let ex = LocalExecutor::new();
            let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
            let rt = Runtime::new(RuntimeConfig { seed: 2026, ..RuntimeConfig::default() }, Rc::new(ScriptedModel), host);
            for prompt in sc.prompts {
                rt.submit_prompt(prompt).unwrap();
                ex.run_until_stalled();
            }
            let trace = rt.trace();
            for i in 0..trace.len() {
                let c = at(&trace, i);
                assert!(
                    !c.text.is_empty() && !c.text.contains("Some(") && !c.text.contains("None") && !c.text.contains("{\""),
                    "{}: {c:?}",
                    sc.id
                );
            }
        }
    }

    #[test]
    fn a_quote_that_ends_a_sentence_takes_no_second_full_stop() {
        let mut t = Trace::new("d", 0);
        t.append(Millis(0), Event::RunStarted { prompt: "Spawn alice. Then stop her.".into() }).unwrap();
        let c = caption(&t, None);
        assert!(c.text.contains("“Spawn alice. Then stop her.” The lead"), "{}", c.text);
    }
}
