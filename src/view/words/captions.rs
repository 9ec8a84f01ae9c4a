//! Captions: every event of a run told in the lesson's words — a short title
//! and one or two plain sentences from the protocol's point of view ("The
//! lead asks alice to shut down. Request 4607cc28 is created and is pending
//! until alice answers.") — and what was said in a protocol message (the
//! plan, the lead's feedback, a teammate's reason).
//!
//! Owns caption text only; the words themselves are messages of the
//! language's catalog (`i18n`, `locales/*/captions.ftl`), given as a
//! parameter. Pure and native: it reads trace entries (and, when the caller
//! has it, the team's state just before the event) and must not touch the
//! DOM, signals, the layout or the trace. Each caption costs O(1)-ish: it
//! reads its own entry, the entries it names by sequence number (an
//! `InboxDrained` names the `MessageSent`/`MessageReleased` events of its
//! messages) and the few entries of the same command beside it; it never
//! replays the trace. Protocol identifiers (message types, tool names,
//! request ids, states, agent names) go into every language unchanged.

use crate::protocol::{
    AgentName, Event, FaultAction, LessonProtocol, MemberStatus, Message, MessageType, RequestStatus, TeamState, Trace, TraceEntry,
};
use crate::view::i18n::{tr, Catalog, Locale};

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
        for end in [".”.", "!”.", "?”.", "…”.", "。」。", "。”。"] {
            let keep = end.char_indices().last().map_or(0, |(i, _)| i);
            text = text.replace(end, &end[..keep]);
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
        MessageType::PLAN_APPROVAL_REQUEST => ("plan", &message.plan),
        MessageType::PLAN_APPROVAL_RESPONSE => ("feedback", &message.feedback),
        MessageType::SHUTDOWN_RESPONSE => ("reason", &message.reason),
        MessageType::Message | MessageType::Broadcast | MessageType::Protocol(_) => return None,
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

fn quote(cat: &Catalog, text: &str) -> String {
    tr!(cat, "quote", text = clip(text, CAPTION_QUOTE_CHARS))
}

/// `field: “text”.` — without a second full stop when the quote ends a
/// sentence of its own.
fn quoted_field(cat: &Catalog, field: &str, text: &str) -> String {
    let q = clip(text, CAPTION_QUOTE_CHARS);
    let key = if q.ends_with(['.', '!', '?', '…', '。', '！', '？']) { "cap-said-ended" } else { "cap-said" };
    tr!(cat, key, field = field, text = q)
}

/// Sentences joined the language's way: a space between them in English
/// and Italian, nothing in Chinese and Japanese. Empty pieces are left out.
pub fn sentences(locale: Locale, parts: &[&str]) -> String {
    let gap = match locale {
        Locale::En | Locale::It => " ",
        Locale::Zh | Locale::Ja => "",
    };
    parts.iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>().join(gap)
}

/// An event's number as the page writes it wherever it names an event — the
/// event log, the checker's findings, the caption, the counter: its
/// sequence number in the trace (what exports and imports carry), "#28".
pub fn event_number(seq: u64) -> String {
    format!("#{seq}")
}

/// The number of the event at the cursor when `shown` events are shown
/// (the last shown one's); `None` before the first.
pub fn event_at_cursor(shown: usize) -> Option<String> {
    shown.checked_sub(1).map(|seq| event_number(seq as u64))
}

/// The caption of the step the cursor shows: the last of the first `cursor`
/// events (all of them for `None`), or a start caption before the first.
/// Reads only that entry and the entries it names.
pub fn caption(cat: &Catalog, trace: &Trace, cursor: Option<usize>) -> Caption {
    caption_with(cat, trace.entries(), cursor, None)
}

/// As [`caption`], with the team's state just before the shown event when
/// the caller has it cheaply (the page's keyframed timeline): it tells a
/// restart from a first spawn and an answer across a restart from an
/// ordinary one.
pub fn caption_with(cat: &Catalog, entries: &[TraceEntry], cursor: Option<usize>, before: Option<&TeamState>) -> Caption {
    caption_priced(cat, entries, cursor, before, None)
}

/// As [`caption_with`], a model reply's usage priced at `price` (the run's
/// model's, when the price table has one).
pub fn caption_priced(
    cat: &Catalog,
    entries: &[TraceEntry],
    cursor: Option<usize>,
    before: Option<&TeamState>,
    price: Option<&crate::view::prices::Price>,
) -> Caption {
    let shown = cursor.unwrap_or(usize::MAX).min(entries.len());
    match shown.checked_sub(1).and_then(|i| entries.get(i)) {
        Some(entry) => caption_of_priced(cat, entries, before, entry, price),
        None if entries.is_empty() => Caption::new(cat.t("cap-nothing-title"), cat.t("cap-nothing-text")),
        None => Caption::new(cat.t("cap-before-title"), tr!(cat, "cap-before-text", count = entries.len())),
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

fn messages(cat: &Catalog, n: usize) -> String {
    tr!(cat, "cap-messages", count = n)
}

/// `the lead` or the agent's name.
pub(crate) fn who(cat: &Catalog, name: &AgentName) -> String {
    if name.is_lead() {
        cat.t("who-lead")
    } else {
        name.to_string()
    }
}

/// `The lead` or the agent's name, to start a sentence.
fn who_cap(cat: &Catalog, name: &AgentName) -> String {
    if name.is_lead() {
        cat.t("who-lead-start")
    } else {
        name.to_string()
    }
}

/// `the lead's` or `alice's` (`del lead`, `di alice`: each language puts it
/// where it goes).
pub(crate) fn whose(cat: &Catalog, name: &AgentName) -> String {
    if name.is_lead() {
        cat.t("whose-lead")
    } else {
        tr!(cat, "whose-name", name = name.as_str())
    }
}

/// `The lead's` or `alice's`, to start a sentence.
fn whose_cap(cat: &Catalog, name: &AgentName) -> String {
    if name.is_lead() {
        cat.t("whose-lead-start")
    } else {
        tr!(cat, "whose-name", name = name.as_str())
    }
}

/// A message as a noun phrase: "the shutdown_request 4607cc28 from the lead",
/// "a message from bob".
fn message_phrase(cat: &Catalog, m: &Message) -> String {
    match &m.request_id {
        Some(id) => tr!(cat, "cap-msg-with-id", msg_type = m.msg_type.as_str(), id = id.to_string(), from = who(cat, &m.from)),
        None => tr!(cat, "cap-msg", msg_type = m.msg_type.as_str(), from = who(cat, &m.from)),
    }
}

/// What the team looks like as its run finishes, told from `st` (the state
/// at the end): who still counts as working, which inboxes hold unread
/// messages, how many requests are still pending. Nothing is claimed that
/// the state does not show.
pub fn run_finished_text(cat: &Catalog, st: &TeamState) -> String {
    let working: Vec<String> = st.roster.members.iter().filter(|m| m.status == MemberStatus::Working).map(|m| m.name.to_string()).collect();
    let quiet = if working.is_empty() {
        cat.t("cap-run-finished-quiet")
    } else {
        tr!(cat, "cap-run-finished-working", names = join_and(cat, &working))
    };
    let unread: Vec<String> = st
        .bus
        .names()
        .filter_map(|n| {
            let waiting = st.bus.peek(n).map_or(0, <[_]>::len);
            (waiting > 0).then(|| tr!(cat, "cap-run-finished-inbox", messages = messages(cat, waiting), whose = whose(cat, n)))
        })
        .collect();
    let inboxes = if unread.is_empty() {
        cat.t("cap-run-finished-read")
    } else {
        tr!(cat, "cap-run-finished-unread", inboxes = join_and(cat, &unread))
    };
    let pending = st.tracker.pending().count();
    let requests = if pending == 0 { cat.t("cap-run-finished-settled") } else { tr!(cat, "cap-run-finished-pending", count = pending) };
    sentences(cat.locale(), &[&quiet, &inboxes, &requests])
}

/// The caption of `entry`, looking up what it names in `entries` (the trace,
/// or at least every entry up to and beside `entry`), with the team's state
/// just before it if the caller has it. Every `Event` variant has its own
/// arm: a new variant does not compile until it is told.
pub fn caption_of(cat: &Catalog, entries: &[TraceEntry], before: Option<&TeamState>, entry: &TraceEntry) -> Caption {
    caption_of_priced(cat, entries, before, entry, None)
}

/// As [`caption_of`], a model reply's usage priced at `price`.
#[deny(clippy::wildcard_enum_match_arm)]
fn caption_of_priced(
    cat: &Catalog,
    entries: &[TraceEntry],
    before: Option<&TeamState>,
    entry: &TraceEntry,
    price: Option<&crate::view::prices::Price>,
) -> Caption {
    let gap = |parts: &[&str]| sentences(cat.locale(), parts);
    match &entry.event {
        Event::RunStarted { prompt } => Caption::new(
            cat.t("cap-run-started-title"),
            tr!(cat, "cap-run-started-text", prompt = quote(cat, &crate::view::words::scenarios::prompt_words(cat, prompt))),
        ),
        Event::RunFinished => {
            let text = match before {
                Some(st) => run_finished_text(cat, st),
                None => cat.t("cap-run-finished-text"),
            };
            Caption::new(cat.t("cap-run-finished-title"), text)
        }
        Event::MemberSpawned { name, role, plan_mode } => {
            let restart = before.and_then(|st| st.roster.get(name)).is_some();
            let gate = if *plan_mode { tr!(cat, "cap-plan-mode", name = name.as_str()) } else { String::new() };
            if restart {
                Caption::new(
                    tr!(cat, "cap-restarts-title", name = name.as_str()),
                    gap(&[&tr!(cat, "cap-restarts-text", name = name.as_str(), role = role), &gate]),
                )
            } else {
                Caption::new(
                    tr!(cat, "cap-spawned-title", name = name.as_str()),
                    gap(&[&tr!(cat, "cap-spawned-text", name = name.as_str(), role = role), &gate]),
                )
            }
        }
        Event::MemberStatusChanged { name, from, to } => {
            let key = match to {
                MemberStatus::Shutdown => "cap-status-shutdown",
                MemberStatus::Idle => "cap-status-idle",
                MemberStatus::Working => "cap-status-working",
            };
            Caption::new(
                tr!(cat, &format!("{key}-title"), name = name.as_str()),
                tr!(cat, &format!("{key}-text"), name = name.as_str(), from = from.to_string()),
            )
        }
        Event::MessageSent { message } => sent_caption(cat, entries, before, entry, message),
        Event::InboxDrained { agent, message_ids } => {
            let found: Vec<&Message> = message_ids.iter().filter_map(|id| message_of(entries, id.0)).collect();
            let mut list: Vec<String> = found.iter().take(3).map(|m| message_phrase(cat, m)).collect();
            if message_ids.len() > list.len() {
                list.push(tr!(cat, "cap-more", messages = messages(cat, message_ids.len() - list.len())));
            }
            let what = match list.len() {
                0 => String::new(),
                1 => tr!(cat, "cap-inbox-one", item = list[0].clone()),
                _ => tr!(cat, "cap-inbox-many", items = join_and(cat, &list)),
            };
            let protocol = found.iter().filter(|m| m.msg_type.is_request() || m.msg_type.is_response()).count();
            let next = if protocol > 0 { tr!(cat, "cap-inbox-next", who_start = who_cap(cat, agent)) } else { String::new() };
            let key = if agent.is_lead() { "cap-inbox-text-lead" } else { "cap-inbox-text" };
            let read = tr!(cat, key, who_start = who_cap(cat, agent), messages = messages(cat, message_ids.len()), what = what);
            Caption::new(cat.t("cap-inbox-title"), gap(&[&read, &next]))
        }
        Event::RequestCreated { request_id, request_kind, requester, addressee, plan, fields } => match request_kind.lesson() {
            Some(LessonProtocol::Shutdown) => Caption::new(
                cat.t("cap-shutdown-requested-title"),
                tr!(
                    cat,
                    "cap-shutdown-requested-text",
                    who_start = who_cap(cat, requester),
                    addressee = addressee.as_str(),
                    id = request_id.to_string()
                ),
            ),
            Some(LessonProtocol::Plan) => Caption::new(
                cat.t("cap-plan-submitted-title"),
                tr!(
                    cat,
                    "cap-plan-submitted-text",
                    requester = requester.as_str(),
                    plan = plan.as_deref().map_or_else(|| cat.t("cap-no-text"), |p| quote(cat, p)),
                    id = request_id.to_string(),
                    reviewer = who(cat, addressee)
                ),
            ),
            // A file protocol's words are its author's: its own name, and
            // the tracker's move.
            // A file protocol's words are its author's: its own name, and
            // the request's fields as written, quoted; the sentence around
            // them is a generic template.
            None => {
                let fields = fields.iter().map(|(k, v)| quoted_field(cat, k, &v.to_string())).collect::<Vec<_>>();
                let text = tr!(
                    cat,
                    "cap-file-request-text",
                    requester_start = who_cap(cat, requester),
                    addressee = who(cat, addressee),
                    protocol = request_kind.to_string(),
                    id = request_id.to_string(),
                    status = RequestStatus::Pending.to_string()
                );
                let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                Caption::new(format!("{request_kind} {request_id}"), gap_all(cat, &[&[text.as_str()], fields.as_slice()].concat()))
            }
        },
        Event::RequestExpired { request_id, request_kind } => Caption::new(
            format!("{request_kind} {request_id}"),
            tr!(
                cat,
                "cap-file-expired-text",
                protocol = request_kind.to_string(),
                id = request_id.to_string(),
                moved = tr!(cat, "cap-moved", from = RequestStatus::Pending.to_string(), to = RequestStatus::Rejected.to_string())
            ),
        ),
        Event::RequestTransitioned { request_id, request_kind, by, from, to } => {
            let reply = message_beside(entries, entry, request_id);
            let known = before.and_then(|st| st.tracker.get(request_id));
            let requester = known.map(|r| r.requester.clone()).or_else(|| reply.map(|m| m.to.clone()));
            let stale = known.zip(before).is_some_and(|(r, st)| r.incarnations.addressee < st.roster.incarnation(by));
            let words = reply.and_then(said).map(|s| quoted_field(cat, s.field, &s.text)).unwrap_or_default();
            let moved = tr!(cat, "cap-moved", from = from.to_string(), to = to.to_string());
            let id = request_id.to_string();
            let by_start = who_cap(cat, by);
            if request_kind.lesson().is_none() {
                let stale = if stale { tr!(cat, "cap-stale-transition", id = id.clone(), whose = whose(cat, by)) } else { String::new() };
                let text = tr!(
                    cat,
                    "cap-file-answered-text",
                    by_start = by_start,
                    protocol = request_kind.to_string(),
                    id = id.clone(),
                    moved = moved
                );
                // The answer's fields as written, quoted, as the request's are.
                let fields: Vec<String> =
                    reply.map(|m| m.fields.iter().map(|(k, v)| quoted_field(cat, k, &v.to_string())).collect()).unwrap_or_default();
                let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                let parts = [&[text.as_str(), words.as_str()], fields.as_slice(), &[stale.as_str()]].concat();
                return Caption::new(format!("{request_kind} {id}"), gap_all(cat, &parts));
            }
            let (title, text) = match (request_kind.lesson(), to, &requester) {
                (Some(LessonProtocol::Shutdown), RequestStatus::Approved, _) => (
                    "cap-shutdown-approved-title",
                    tr!(cat, "cap-shutdown-approved-text", by_start = by_start, id = id.clone(), moved = moved),
                ),
                (Some(LessonProtocol::Shutdown), _, _) => (
                    "cap-shutdown-rejected-title",
                    tr!(cat, "cap-shutdown-rejected-text", by_start = by_start, id = id.clone(), moved = moved),
                ),
                (Some(LessonProtocol::Plan), RequestStatus::Approved, Some(r)) => (
                    "cap-plan-approved-title",
                    tr!(
                        cat,
                        "cap-plan-approved-text",
                        by_start = by_start,
                        whose = whose(cat, r),
                        requester = who(cat, r),
                        id = id.clone(),
                        moved = moved
                    ),
                ),
                (Some(LessonProtocol::Plan), RequestStatus::Approved, None) => (
                    "cap-plan-approved-title",
                    tr!(cat, "cap-plan-approved-text-anon", by_start = by_start, id = id.clone(), moved = moved),
                ),
                (Some(LessonProtocol::Plan), _, Some(r)) => (
                    "cap-plan-rejected-title",
                    tr!(
                        cat,
                        "cap-plan-rejected-text",
                        by_start = by_start,
                        whose = whose(cat, r),
                        requester = who(cat, r),
                        id = id.clone(),
                        moved = moved
                    ),
                ),
                (Some(LessonProtocol::Plan), _, None) | (None, _, _) => (
                    "cap-plan-rejected-title",
                    tr!(cat, "cap-plan-rejected-text-anon", by_start = by_start, id = id.clone(), moved = moved),
                ),
            };
            let stale = if stale { tr!(cat, "cap-stale-transition", id = id, whose = whose(cat, by)) } else { String::new() };
            Caption::new(cat.t(title), gap(&[&text, &words, &stale]))
        }
        Event::ModelCalled { agent } => {
            Caption::new(cat.t("cap-model-called-title"), tr!(cat, "cap-model-called-text", who_start = who_cap(cat, agent)))
        }
        Event::ModelReplied { agent, text, stop_reason, output_tokens, .. } => {
            let says = if text.trim().is_empty() { String::new() } else { tr!(cat, "cap-model-says", quote = quote(cat, text)) };
            let next = if stop_reason == "tool_use" { cat.t("cap-model-next-tools") } else { cat.t("cap-model-next-end") };
            let replied = tr!(
                cat,
                "cap-model-replied-text",
                whose_start = whose_cap(cat, agent),
                tokens = *output_tokens,
                stop_reason = stop_reason,
                next = next
            );
            let usage =
                crate::view::cost::Spend::of_event(&entry.event).map(|s| crate::view::cost::call_words(cat, &s, price)).unwrap_or_default();
            Caption::new(cat.t("cap-model-replied-title"), gap(&[&replied, &says, &usage]))
        }
        Event::BudgetReached { agent, limit, spent, expected, unpriced } => {
            let cap = crate::view::cost::budget_amount(cat, limit, None);
            let text = if *unpriced {
                tr!(cat, "cap-budget-unpriced-text", whose_start = whose_cap(cat, agent), limit = cap)
            } else {
                tr!(
                    cat,
                    "cap-budget-reached-text",
                    whose_start = whose_cap(cat, agent),
                    limit = cap,
                    spent = crate::view::cost::budget_amount(cat, limit, Some(*spent)),
                    expected = crate::view::cost::budget_amount(cat, limit, Some(*expected))
                )
            };
            Caption::new(cat.t("cap-budget-reached-title"), text)
        }
        Event::ModelFailed { agent, error } => Caption::new(
            cat.t("cap-model-failed-title"),
            tr!(
                cat,
                "cap-model-failed-text",
                whose_start = whose_cap(cat, agent),
                error = clip(error, CAPTION_QUOTE_CHARS),
                who_start = who_cap(cat, agent)
            ),
        ),
        Event::ToolCalled { agent, tool, input, .. } => tool_caption(cat, agent, tool, input),
        Event::ToolReturned { agent, tool, output, is_error, .. } => {
            if *is_error {
                Caption::new(
                    cat.t("cap-tool-refused-title"),
                    tr!(cat, "cap-tool-refused-text", whose = whose(cat, agent), tool = tool, output = quote(cat, output)),
                )
            } else {
                Caption::new(
                    cat.t("cap-tool-returned-title"),
                    tr!(cat, "cap-tool-returned-text", whose_start = whose_cap(cat, agent), tool = tool, output = quote(cat, output)),
                )
            }
        }
        Event::FaultApplied { action, message, rule } => {
            let by = rule.map_or_else(|| cat.t("cap-fault-rule-any"), |r| tr!(cat, "cap-fault-rule", rule = r));
            let what = message_phrase(cat, message);
            let to = who(cat, &message.to);
            let whose_to = whose(cat, &message.to);
            match action {
                FaultAction::Drop => {
                    let lost = if message.msg_type.is_response() { cat.t("cap-fault-dropped-response") } else { String::new() };
                    Caption::new(
                        cat.t("cap-fault-dropped-title"),
                        gap(&[&tr!(cat, "cap-fault-dropped-text", by = by, what = what, to = to, whose_to = whose_to), &lost]),
                    )
                }
                FaultAction::Delay { ms } => Caption::new(
                    cat.t("cap-fault-delayed-title"),
                    tr!(cat, "cap-fault-delayed-text", by = by, what = what, ms = *ms, whose_to = whose_to),
                ),
                FaultAction::Duplicate => Caption::new(
                    cat.t("cap-fault-duplicated-title"),
                    tr!(cat, "cap-fault-duplicated-text", by = by, what = what, whose_to = whose_to),
                ),
                FaultAction::Reorder => {
                    Caption::new(cat.t("cap-fault-reordered-title"), tr!(cat, "cap-fault-reordered-text", by = by, what = what, to = to))
                }
            }
        }
        Event::MessageReleased { held } => match message_of(entries, *held) {
            Some(m) => Caption::new(
                cat.t("cap-released-title"),
                tr!(
                    cat,
                    "cap-released-text",
                    what_start = capitalise(cat, &message_phrase(cat, m)),
                    whose_to = whose(cat, &m.to),
                    held = *held
                ),
            ),
            None => Caption::new(cat.t("cap-released-title"), tr!(cat, "cap-released-unknown", held = *held)),
        },
    }
}

/// `s` with a capital first letter, in the languages that write one (a
/// Chinese or Japanese phrase may start with an agent's name, which stays
/// as it is).
fn capitalise(cat: &Catalog, s: &str) -> String {
    if matches!(cat.locale(), Locale::Zh | Locale::Ja) {
        return s.to_string();
    }
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

fn join_and(cat: &Catalog, items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => tr!(cat, "list-and", init = init.join(&cat.t("list-sep")), last = last.clone()),
    }
}

fn sent_caption(cat: &Catalog, entries: &[TraceEntry], before: Option<&TeamState>, entry: &TraceEntry, m: &Message) -> Caption {
    let (from, to) = (who_cap(cat, &m.from), who(cat, &m.to));
    // A copy made by a duplicate fault follows its `FaultApplied`.
    let copy = entry
        .seq
        .checked_sub(1)
        .and_then(|s| entries.get(usize::try_from(s).ok()?))
        .is_some_and(|e| matches!(e.event, Event::FaultApplied { action: FaultAction::Duplicate, .. }));
    let copy = if copy { cat.t("cap-sent-copy") } else { String::new() };
    let waits = tr!(cat, "cap-sent-waits", whose_to = whose(cat, &m.to), to = to.clone());
    let id = m.request_id.as_ref().map(ToString::to_string).unwrap_or_default();
    let words = said(m).map(|s| quoted_field(cat, s.field, &s.text)).unwrap_or_default();
    let stale = m.msg_type.is_response()
        && before
            .zip(m.request_id.as_ref())
            .and_then(|(st, id)| st.tracker.get(id).map(|r| r.incarnations.addressee < st.roster.incarnation(&m.from)))
            .unwrap_or(false);
    let stale = if stale { tr!(cat, "cap-stale-answer", id = id.clone(), whose = whose(cat, &m.from)) } else { String::new() };
    let approve = if m.approve == Some(true) { "approve: true" } else { "approve: false" };
    let (title, text) = match m.msg_type {
        MessageType::Message => {
            ("cap-sent-message-title", tr!(cat, "cap-sent-message-text", from_start = from, to = to, content = quote(cat, &m.content)))
        }
        MessageType::Broadcast => {
            ("cap-sent-broadcast-title", tr!(cat, "cap-sent-broadcast-text", from_start = from, to = to, content = quote(cat, &m.content)))
        }
        MessageType::SHUTDOWN_REQUEST => (
            "cap-sent-shutdown-request-title",
            tr!(cat, "cap-sent-shutdown-request-text", from_start = from, id = id, to = to, content = quote(cat, &m.content)),
        ),
        MessageType::SHUTDOWN_RESPONSE => {
            ("cap-sent-shutdown-response-title", tr!(cat, "cap-sent-shutdown-response-text", from_start = from, id = id, approve = approve))
        }
        MessageType::PLAN_APPROVAL_REQUEST => {
            ("cap-sent-plan-request-title", tr!(cat, "cap-sent-plan-request-text", from_start = from, to = to, id = id))
        }
        MessageType::PLAN_APPROVAL_RESPONSE => {
            ("cap-sent-plan-response-title", tr!(cat, "cap-sent-plan-response-text", from_start = from, id = id, approve = approve))
        }
        // A file protocol's message: its own type name as the title, told
        // as a message with its request id, decision and fields.
        MessageType::Protocol(t) => {
            let mut said = format!("{} [{id}]", t.name());
            if t.response {
                said.push_str(&format!(" {approve}"));
            }
            for (k, v) in m.fields.iter() {
                said.push_str(&format!(" {k}: {v}"));
            }
            let text = tr!(cat, "cap-sent-message-text", from_start = from, to = to, content = quote(cat, &said));
            return Caption::new(t.name().to_string(), gap_all(cat, &[&text, &waits, &copy, &stale]));
        }
    };
    Caption::new(cat.t(title), gap_all(cat, &[&text, &words, &waits, &copy, &stale]))
}

fn gap_all(cat: &Catalog, parts: &[&str]) -> String {
    sentences(cat.locale(), parts)
}

fn tool_caption(cat: &Catalog, agent: &AgentName, tool: &str, input: &serde_json::Value) -> Caption {
    let s = |k: &str| input.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
    let a = who_cap(cat, agent);
    let text = match tool {
        "spawn_teammate" => tr!(cat, "cap-tool-spawn", who_start = a, name = s("name"), role = s("role")),
        "shutdown_request" => tr!(cat, "cap-tool-shutdown-request", who_start = a, teammate = s("teammate")),
        "shutdown_response" => {
            let key = match input.get("approve").and_then(|v| v.as_bool()) {
                Some(true) => "cap-tool-shutdown-approve",
                Some(false) => "cap-tool-shutdown-reject",
                None => "cap-tool-shutdown-about",
            };
            tr!(cat, key, who_start = a, id = s("request_id"))
        }
        "plan_approval" if input.get("request_id").is_some() => {
            let key =
                if input.get("approve").and_then(|v| v.as_bool()) == Some(true) { "cap-tool-plan-approve" } else { "cap-tool-plan-reject" };
            tr!(cat, key, who_start = a, id = s("request_id"))
        }
        "plan_approval" => tr!(cat, "cap-tool-plan-submit", who_start = a, plan = quote(cat, &s("plan"))),
        "read_inbox" => tr!(cat, "cap-tool-read-inbox", who_start = a),
        "send_message" => tr!(cat, "cap-tool-send", who_start = a, to = s("to")),
        "broadcast" => tr!(cat, "cap-tool-broadcast", who_start = a),
        "list_teammates" => tr!(cat, "cap-tool-list", who_start = a),
        "write_file" | "edit_file" | "read_file" => tr!(cat, "cap-tool-file", who_start = a, tool = tool, path = s("path")),
        other => tr!(cat, "cap-tool-other", who_start = a, tool = other),
    };
    Caption::new(tr!(cat, "cap-tool-title", tool = tool), text)
}

#[cfg(test)]
mod tests;
