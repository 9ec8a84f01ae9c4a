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
            tr!(cat, "cap-run-started-text", prompt = quote(cat, &crate::view::i18n::prompt_words(cat, prompt))),
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
mod tests {
    use super::*;
    use crate::protocol::{FaultPlan, FaultRule, Millis, RequestId, RequestKind, Team};
    use crate::view::panel_data::describe;

    fn name(s: &str) -> AgentName {
        AgentName::parse(s).unwrap()
    }

    fn find(trace: &Trace, f: impl Fn(&Event) -> bool) -> usize {
        trace.entries().iter().position(|e| f(&e.event)).expect("the event is in the trace")
    }

    fn at(trace: &Trace, i: usize) -> Caption {
        caption(Catalog::en(), trace, Some(i + 1))
    }

    fn at_in(cat: &Catalog, trace: &Trace, i: usize) -> Caption {
        caption(cat, trace, Some(i + 1))
    }

    /// alice is spawned, asked to shut down, reads the request and approves.
    fn shutdown() -> (Trace, RequestId) {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
        t.drain(&name("alice"), Millis(2)).unwrap();
        t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "all done", Millis(3)).unwrap();
        t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
        (t.trace().clone(), id)
    }

    #[test]
    fn a_released_message_starts_with_a_capital_only_where_the_language_writes_one() {
        let mut t = Team::new("d", 1);
        t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(crate::protocol::FaultAction::Delay { ms: 5 })]));
        t.send(&name("alice"), &AgentName::lead(), "message", "done", Millis(1)).unwrap();
        t.release_all(Millis(2)).unwrap();
        let trace = t.trace().clone();
        let released = find(&trace, |e| matches!(e, Event::MessageReleased { .. }));
        let ja = caption(Catalog::get(Locale::Ja), &trace, Some(released + 1)).text;
        assert!(ja.contains("alice") && !ja.contains("Alice"), "{ja}");
        let en = caption(Catalog::en(), &trace, Some(released + 1)).text;
        assert!(en.starts_with("A message from alice") || en.contains(". A message from alice"), "{en}");
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
        t.answer(RequestKind::PLAN, &id, &AgentName::lead(), false, "Too risky: split it", Millis(2)).unwrap();
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
        assert_eq!(caption_with(Catalog::en(), trace.entries(), None, Some(&before)).title, "alice restarts");
        assert_eq!(
            caption_of(Catalog::en(), trace.entries(), None, &trace.entries()[last]).title,
            "alice spawned",
            "without the state, a spawn is a spawn"
        );
    }

    #[test]
    fn the_caption_follows_the_cursor_and_has_a_start() {
        let (trace, _) = shutdown();
        assert_eq!(caption(Catalog::en(), &trace, Some(0)).title, "Before the first event");
        assert_eq!(caption(Catalog::en(), &Trace::new("d", 0), None).title, "Nothing yet");
        assert_eq!(caption(Catalog::en(), &trace, Some(1)).title, "alice spawned");
        assert_eq!(caption(Catalog::en(), &trace, None), caption(Catalog::en(), &trace, Some(trace.len())));
        assert_eq!(caption(Catalog::en(), &trace, Some(usize::MAX)), caption(Catalog::en(), &trace, None));
    }

    #[test]
    fn what_was_said_is_the_plan_the_feedback_or_the_reason() {
        let mut m = Message::new(MessageType::PLAN_APPROVAL_REQUEST, name("bob"), AgentName::lead(), "the plan", Millis(0));
        m.plan = Some("Step 1\nStep 2".into());
        assert_eq!(said(&m), Some(Said { field: "plan", text: "Step 1\nStep 2".into() }));
        let mut r = Message::new(MessageType::SHUTDOWN_RESPONSE, name("bob"), AgentName::lead(), "busy", Millis(0));
        assert_eq!(said(&r).map(|s| (s.field, s.text)), Some(("reason", "busy".to_string())), "content stands in for a missing field");
        r.reason = Some("  ".into());
        r.content = String::new();
        assert_eq!(said(&r), None, "an empty answer says nothing");
        let plain = Message::new(MessageType::Message, name("bob"), AgentName::lead(), "hi", Millis(0));
        assert_eq!(said(&plain), None);
        let f = Message {
            feedback: Some("split it".into()),
            ..Message::new(MessageType::PLAN_APPROVAL_RESPONSE, AgentName::lead(), name("bob"), "", Millis(0))
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
                request_kind: RequestKind::SHUTDOWN,
                requester: AgentName::lead(),
                addressee: name("alice"),
                plan: None,
                fields: Default::default(),
            },
            Event::RequestTransitioned {
                request_id: id,
                request_kind: RequestKind::SHUTDOWN,
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
                cache_read_tokens: 0,
                cache_write_tokens: 0,
                measured: false,
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
            Event::BudgetReached {
                agent: name("alice"),
                limit: crate::protocol::BudgetLimit::Tokens(5000),
                spent: 4800,
                expected: 400,
                unpriced: false,
            },
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
                | Event::RequestExpired { .. }
                | Event::ModelCalled { .. }
                | Event::ModelReplied { .. }
                | Event::ModelFailed { .. }
                | Event::ToolCalled { .. }
                | Event::ToolReturned { .. }
                | Event::FaultApplied { .. }
                | Event::MessageReleased { .. }
                | Event::BudgetReached { .. } => {}
            }
        }
        all
    }

    #[test]
    fn a_measured_reply_shows_its_price_when_the_model_has_one_and_an_estimate_never_does() {
        let reply = |measured: bool| Event::ModelReplied {
            agent: name("alice"),
            text: String::new(),
            stop_reason: "end_turn".into(),
            input_tokens: 1000,
            output_tokens: 500,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
            measured,
        };
        let price = crate::view::prices::PriceTable::default().price_of("claude-sonnet-4-5").cloned();
        for (measured, priced, shows) in [(true, true, true), (true, false, false), (false, true, false)] {
            let mut trace = Trace::new("d", 0);
            trace.append(Millis(0), reply(measured)).unwrap();
            let p = if priced { price.as_ref() } else { None };
            let text = caption_priced(Catalog::en(), trace.entries(), None, None, p).text;
            assert_eq!(text.contains("$0.0105"), shows, "measured {measured}, priced {priced}: {text}");
        }
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
        // Variants are variants: 16 distinct kinds, one caption each.
        assert_eq!(seen.len(), 16);
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
        let c = caption(Catalog::en(), &t, None);
        assert!(c.text.contains("“Spawn alice. Then stop her.” The lead"), "{}", c.text);
    }

    /// What a caption in any language must not show: a missing key's
    /// marker, an unfilled variable, a brace other than the tracker's dict.
    fn leftovers(c: &Caption) -> bool {
        let all = format!("{} {}", c.title, c.text).replace("{target:", "").replace("pending}", "");
        all.contains('⟦') || all.contains('{') || all.contains('}') || c.title.trim().is_empty() || c.text.trim().is_empty()
    }

    #[test]
    fn every_event_variant_and_every_scenario_event_is_captioned_in_every_language_with_nothing_left_over() {
        use crate::model::scripted::ScriptedModel;
        use crate::model::sleep::NoSleep;
        use crate::runtime::executor::LocalExecutor;
        use crate::runtime::{scenarios, Host, Runtime, RuntimeConfig};
        use crate::view::i18n::Locale;
        use std::rc::Rc;
        let mut variants = Trace::new("d", 0);
        for e in one_of_each() {
            variants.append(Millis(0), e).unwrap();
        }
        let mut traces = vec![variants];
        for sc in scenarios::ALL.iter().chain([&scenarios::WITHOUT_PROTOCOLS]) {
            let ex = LocalExecutor::new();
            let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
            let rt = Runtime::new(RuntimeConfig { seed: 2026, ..RuntimeConfig::default() }, Rc::new(ScriptedModel), host);
            for prompt in sc.prompts {
                rt.submit_prompt(prompt).unwrap();
                ex.run_until_stalled();
            }
            traces.push(rt.trace());
        }
        for trace in &traces {
            for cursor in 0..=trace.len() {
                let en = caption(Catalog::en(), trace, Some(cursor));
                for l in Locale::ALL {
                    let c = caption(Catalog::get(l), trace, Some(cursor));
                    assert!(!leftovers(&c), "{}: {c:?}", l.tag());
                    if l != Locale::En {
                        assert_ne!(c.text, en.text, "{}: told in its own words, not English's", l.tag());
                    }
                }
            }
        }
    }

    #[test]
    fn a_file_protocols_events_are_told_by_generic_templates_in_every_language_with_the_authors_words_quoted() {
        use crate::explore::file_team::file_team_run;
        use crate::model::sleep::NoSleep;
        use crate::protocol::file::{self, builtin};
        use crate::runtime::executor::LocalExecutor;
        use crate::runtime::{Host, Runtime, RuntimeConfig};
        use crate::view::i18n::Locale;
        use std::rc::Rc;
        use std::sync::Arc;
        let (mut created, mut expired) = (0, 0);
        for (name, text) in builtin::EXAMPLES {
            // An example the loader refuses (a protocol nobody can answer) has no run.
            let Ok(f) = file::load(text).map(Arc::new) else { continue };
            let Ok(run) = file_team_run(Arc::clone(&f), 2026) else { continue };
            let ex = LocalExecutor::new();
            let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
            let config = RuntimeConfig {
                seed: 2026,
                faults: run.faults.clone(),
                rules: run.rules,
                protocols: Some(Arc::clone(&f)),
                ..RuntimeConfig::default()
            };
            let rt = Runtime::new(config, Rc::new(run.model.clone()), host);
            for prompt in &run.prompts {
                rt.submit_prompt(prompt).unwrap();
                ex.run_until_stalled();
            }
            let trace = rt.trace();
            for (i, e) in trace.entries().iter().enumerate() {
                let en = at(&trace, i);
                if let Event::RequestCreated { request_id, request_kind, fields, .. } = &e.event {
                    if !request_kind.is_file() {
                        continue;
                    }
                    created += 1;
                    // Its expiry, as a deadline would record it.
                    let mut late = Trace::new("d", 0);
                    late.append(Millis(0), Event::RequestExpired { request_id: request_id.clone(), request_kind: *request_kind }).unwrap();
                    for l in Locale::ALL {
                        let c = at_in(Catalog::get(l), &late, 0);
                        assert!(!leftovers(&c) && c.text.contains(request_id.as_str()), "{name} {}: {c:?}", l.tag());
                        assert!(!c.text.contains("(expired)") || l == Locale::En, "{name} {}: {c:?}", l.tag());
                    }
                    expired += 1;
                    assert!(at(&late, 0).text.starts_with("Nobody answered"), "{name}: {:?}", at(&late, 0));
                    assert!(en.text.contains("protocol: request"), "{name}: {en:?}");
                    for (_, v) in fields.iter() {
                        assert!(en.text.contains(&format!("“{v}")), "{name}: the author's words quoted: {en:?}");
                    }
                }
                for l in Locale::ALL {
                    let c = at_in(Catalog::get(l), &trace, i);
                    assert!(!leftovers(&c), "{name} {}: {c:?}", l.tag());
                }
            }
        }
        assert!(created > 0 && expired == created, "the examples create file requests ({created})");
    }

    #[test]
    fn the_closing_caption_says_only_what_the_state_at_the_end_shows() {
        let alice = name("alice");
        let mut t = Team::new("default", 3);
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        t.request_shutdown(&AgentName::lead(), &alice, Millis(1)).unwrap();
        t.set_status(&alice, MemberStatus::Idle, Millis(2)).unwrap();
        t.finish_run(Millis(3)).unwrap();
        let last = t.trace().entries().last().unwrap().clone();
        // alice never read the request, which is still pending.
        let st = Team::replay(&t.trace().prefix(t.trace().len() - 1)).unwrap();
        let c = caption_of(Catalog::en(), t.trace().entries(), Some(st.state()), &last);
        assert_eq!(
            c.text,
            "The team is quiet: nobody is working. Still unread: one message in alice's inbox. One request is still pending in the tracker."
        );
        // Without the state the caption claims nothing about inboxes or requests.
        let bare = caption_of(Catalog::en(), t.trace().entries(), None, &last);
        assert_eq!(bare.text, "The team is quiet: no agent has a turn left to take.");
        // Working members are named.
        let mut busy = st.state().clone();
        busy.roster.set_status(&alice, MemberStatus::Working).unwrap();
        let c = caption_of(Catalog::en(), t.trace().entries(), Some(&busy), &last);
        assert!(c.text.starts_with("The team is quiet, yet the roster still shows alice as working."), "{}", c.text);
        for l in Locale::ALL {
            let c = caption_of(Catalog::get(l), t.trace().entries(), Some(&busy), &last);
            assert!(!leftovers(&c) && c.text.contains("alice"), "{}: {}", l.tag(), c.text);
        }
    }

    #[test]
    fn the_event_at_the_cursor_is_numbered_as_the_log_and_the_findings_number_it() {
        // alice's answer is dropped by fault rule 1: the finding names the
        // fault's event by its number; the cursor on that event names it alike.
        let alice = name("alice");
        let mut t = Team::new("default", 3);
        t.spawn(&alice, "coder", false, Millis(0)).unwrap();
        let id = t.request_shutdown(&AgentName::lead(), &alice, Millis(1)).unwrap();
        t.drain(&alice, Millis(2)).unwrap();
        t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]));
        t.answer(RequestKind::SHUTDOWN, &id, &alice, true, "ok", Millis(3)).unwrap();
        let found = crate::protocol::check(t.trace());
        let fault = found[0].fault.expect("the drop caused it");
        let fault_entry = &t.trace().entries()[fault as usize];
        assert!(matches!(fault_entry.event, Event::FaultApplied { .. }));
        let number = event_number(fault_entry.seq);
        assert_eq!(number, format!("#{fault}"));
        for l in Locale::ALL {
            let said = crate::view::words::findings::breach(Catalog::get(l), &found[0].detail);
            assert!(said.contains(&number), "{}: {said}", l.tag());
        }
        // The cursor that shows events 0..=fault is on the fault's event.
        assert_eq!(event_at_cursor(fault as usize + 1), Some(number));
        assert_eq!(event_at_cursor(0), None, "before the first event there is none");
        assert_eq!(event_at_cursor(1), Some("#0".to_string()), "the first event is the trace's #0");
    }
}
