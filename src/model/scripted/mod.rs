//! The scripted model: an offline, deterministic implementation of `Model`.
//! It is a rule-based policy per role that reads the conversation it is
//! given — the prompt, the tool results, the messages delivered — and decides
//! the next tool calls, so it reacts to what actually happened (a refused
//! tool, a rejected plan, a shutdown that arrives mid-task). It never replays
//! a recording.
//!
//! Owns the policies. It sees only a `ModelRequest`, like any provider: it
//! must not reach into the runtime or the team.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{json, Value};

use super::{CancelToken, ContentBlock, LocalBoxFuture, Model, ModelError, ModelRequest, ModelResponse, Role, StopReason, TextSink, Usage};

pub mod choices;
pub mod scale;

/// The label the UI shows for this provider.
pub const LABEL: &str = "Scripted (offline)";

/// The offline scripted model.
#[derive(Debug, Default, Clone, Copy)]
pub struct ScriptedModel;

impl Model for ScriptedModel {
    fn label(&self) -> String {
        LABEL.to_string()
    }

    fn complete<'a>(
        &'a self,
        request: &'a ModelRequest,
        on_text: TextSink,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(async move {
            if cancel.is_cancelled() {
                return Err(ModelError::Cancelled);
            }
            let reply = respond(request);
            for block in &reply.content {
                if let ContentBlock::Text { text } = block {
                    for piece in text.split_inclusive(' ') {
                        on_text(piece);
                    }
                }
            }
            Ok(reply)
        })
    }
}

/// The policy's answer to one request (public for tests).
pub fn respond(request: &ModelRequest) -> ModelResponse {
    respond_sized(request, json_len(request))
}

/// `respond`, for a caller that knows the request's length as JSON
/// (`input_chars`, the usage estimate) without writing it: the explorer
/// keeps each turn's length.
pub fn respond_sized(request: &ModelRequest, input_chars: usize) -> ModelResponse {
    let convo = Conversation::read(request);
    let decision = if request.system.starts_with("You are a team lead") {
        scale::lead(&convo).unwrap_or_else(|| lead_policy(&convo))
    } else {
        let (name, _role) = teammate_identity(&request.system);
        scale::teammate(&convo).unwrap_or_else(|| teammate_policy(&name, &convo))
    };
    let turn_index = request.messages.iter().filter(|t| t.role == Role::Assistant).count();
    let who = if request.system.starts_with("You are a team lead") { "lead".to_string() } else { teammate_identity(&request.system).0 };
    let mut content = Vec::new();
    if !decision.text.is_empty() {
        content.push(ContentBlock::text(decision.text.clone()));
    }
    for (i, (name, input)) in decision.calls.iter().enumerate() {
        content.push(ContentBlock::ToolUse { id: format!("toolu_{who}_{turn_index}_{i}"), name: name.clone(), input: input.clone() });
    }
    let stop_reason = if decision.calls.is_empty() { StopReason::EndTurn } else { StopReason::ToolUse };
    let output_chars = json_len(&content);
    ModelResponse {
        content,
        stop_reason,
        usage: Usage { input_tokens: input_chars.div_ceil(4) as u64, output_tokens: output_chars.div_ceil(4) as u64 },
    }
}

/// The length of `value` written as JSON, counted without writing it
/// anywhere (the usage estimate: about four characters a token).
pub fn json_len(value: &impl serde::Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    match serde_json::to_writer(&mut count, value) {
        Ok(()) => count.0,
        Err(_) => 0,
    }
}

/// What the policy decided: some text and some tool calls.
#[derive(Debug, Default)]
struct Decision {
    text: String,
    calls: Vec<(String, Value)>,
}

impl Decision {
    fn say(text: impl Into<String>) -> Self {
        Decision { text: text.into(), calls: Vec::new() }
    }
    fn call(mut self, name: &str, input: Value) -> Self {
        self.calls.push((name.to_string(), input));
        self
    }
}

/// A tool call the model made earlier, with its result once known.
#[derive(Debug, Clone)]
struct PastCall {
    name: String,
    input: Rc<Value>,
    result: Option<(String, bool)>,
}

impl PastCall {
    fn ok(&self) -> bool {
        matches!(self.result, Some((_, false)))
    }
    fn output(&self) -> &str {
        self.result.as_ref().map_or("", |(o, _)| o.as_str())
    }
    fn arg(&self, key: &str) -> &str {
        self.input.get(key).and_then(Value::as_str).unwrap_or("")
    }
}

/// Something the agent was told: a prompt, or a message from the bus.
#[derive(Debug, Clone)]
enum Heard {
    Prompt(String),
    Message(Rc<Value>),
}

/// The conversation, read back into what was heard and what was done, in
/// order. Everything is relative to the latest prompt.
#[derive(Debug, Default)]
struct Conversation {
    /// The latest prompt.
    prompt: String,
    /// Every prompt, oldest first.
    prompts: Vec<String>,
    /// Tool calls since the latest prompt, with results.
    calls: Vec<PastCall>,
    /// Every tool call in the whole conversation.
    all_calls: Vec<PastCall>,
    /// Bus messages heard since the latest prompt.
    messages: Vec<Rc<Value>>,
    /// Every bus message heard.
    all_messages: Vec<Rc<Value>>,
    /// What the agent learned since the latest prompt, in the order it
    /// learned it: tool results and bus messages.
    learned: Vec<Learned>,
}

/// One thing learned, by its index in `Conversation::calls` or
/// `Conversation::messages`.
#[derive(Debug, Clone, Copy)]
enum Learned {
    /// The result of `calls[i]`.
    Result(usize),
    /// The message `messages[i]`.
    Message(usize),
}

impl Conversation {
    fn read(request: &ModelRequest) -> Self {
        let mut c = Conversation::default();
        for turn in &request.messages {
            for block in &turn.content {
                match (turn.role, block) {
                    (Role::User, ContentBlock::Text { text }) => {
                        for heard in hear(text).iter() {
                            match heard {
                                Heard::Prompt(p) => {
                                    c.prompts.push(p.clone());
                                    c.prompt = p.clone();
                                    c.calls.clear();
                                    c.messages.clear();
                                    c.learned.clear();
                                }
                                Heard::Message(m) => {
                                    c.learned.push(Learned::Message(c.messages.len()));
                                    c.messages.push(Rc::clone(m));
                                    c.all_messages.push(Rc::clone(m));
                                }
                            }
                        }
                    }
                    (Role::Assistant, ContentBlock::ToolUse { name, input, .. }) => {
                        let call = PastCall { name: name.clone(), input: Rc::new(input.clone()), result: None };
                        c.calls.push(call.clone());
                        c.all_calls.push(call);
                    }
                    (Role::User, ContentBlock::ToolResult { content, is_error, .. }) => {
                        // Results follow their calls in order; fill the oldest open one.
                        if let Some(i) = c.calls.iter().position(|p| p.result.is_none()) {
                            c.calls[i].result = Some((content.clone(), *is_error));
                            c.learned.push(Learned::Result(i));
                        }
                        if let Some(open) = c.all_calls.iter_mut().find(|p| p.result.is_none()) {
                            open.result = Some((content.clone(), *is_error));
                        }
                    }
                    _ => {}
                }
            }
        }
        c
    }

    fn messages_of<'a>(&'a self, msg_type: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.messages.iter().map(|m| &**m).filter(move |m| m["type"] == msg_type)
    }

    fn calls_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a PastCall> {
        self.calls.iter().filter(move |c| c.name == name)
    }
}

/// How many texts `hear` remembers before it starts over.
const HEARD_KEPT: usize = 4096;

thread_local! {
    /// Texts already heard: every call of the policy reads the whole
    /// conversation again, and the explorer calls it for many states that
    /// share their turns, so each text is parsed about once.
    static HEARD: RefCell<HashMap<String, Rc<[Heard]>>> = RefCell::new(HashMap::new());
}

/// `hear_anew`, remembered per text.
fn hear(text: &str) -> Rc<[Heard]> {
    if let Some(known) = HEARD.with(|m| m.borrow().get(text).cloned()) {
        return known;
    }
    let heard: Rc<[Heard]> = hear_anew(text).into();
    HEARD.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= HEARD_KEPT {
            m.clear();
        }
        m.insert(text.to_string(), Rc::clone(&heard));
    });
    heard
}

/// Splits a user text into prompts and bus messages: a lead's inbox arrives
/// as `<inbox>[...]</inbox>`, a teammate's messages as one JSON object each.
fn hear_anew(text: &str) -> Vec<Heard> {
    let trimmed = text.trim();
    if let Some(inner) = trimmed.strip_prefix("<inbox>").and_then(|t| t.strip_suffix("</inbox>")) {
        if let Ok(Value::Array(items)) = serde_json::from_str::<Value>(inner) {
            return items.into_iter().map(|m| Heard::Message(Rc::new(m))).collect();
        }
    }
    if trimmed.starts_with('{') {
        if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
            if v.get("type").is_some() && v.get("from").is_some() {
                return vec![Heard::Message(Rc::new(v))];
            }
        }
    }
    vec![Heard::Prompt(trimmed.to_string())]
}

fn teammate_identity(system: &str) -> (String, String) {
    let name = system.split('\'').nth(1).unwrap_or("teammate").to_string();
    let role = system.split("role: ").nth(1).and_then(|r| r.split(',').next()).unwrap_or("teammate").to_string();
    (name, role)
}

// ---------------------------------------------------------------- the lead

/// What the user asked the lead for, read from the prompt.
#[derive(Debug, Default)]
struct LeadGoal {
    /// Teammates to spawn: name, role, task clause.
    spawns: Vec<(String, String, String)>,
    /// Teammates whose shutdown to request.
    shutdowns: Vec<String>,
    /// Ask again after a rejection, once the teammate reports done.
    retry_after_done: bool,
    /// Reject the first plan of each teammate.
    reject_first_plan: bool,
    /// Plans are part of the task (spawn in plan mode).
    plan_mode: bool,
    /// List the team.
    list: bool,
    /// The user wants to see answers arrive out of order.
    out_of_order: bool,
    /// Plain messages to send, recipient and text: the lesson's "without
    /// protocols" case, where the lead just says "please stop".
    plain: Vec<(String, String)>,
}

const NOT_NAMES: &[&str] = &[
    "a",
    "an",
    "the",
    "as",
    "with",
    "and",
    "to",
    "then",
    "request",
    "requests",
    "her",
    "his",
    "their",
    "him",
    "them",
    "both",
    "shutdown",
    "shutdowns",
    "shut",
    "down",
    "teammate",
    "teammates",
    "have",
    "submit",
    "plan",
    "approve",
    "reject",
    "review",
    "it",
    "of",
    "for",
    "new",
    "two",
    "three",
    "watch",
    "while",
    "when",
    "once",
    "again",
    "lead",
];

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches("'s").trim_matches('\'').to_lowercase())
        .collect()
}

fn is_name(w: &str) -> bool {
    !w.is_empty() && w.chars().next().is_some_and(char::is_alphabetic) && !NOT_NAMES.contains(&w)
}

/// A goal read: the prompt, the teammates known then, and the goal.
type GoalRead = (String, Vec<String>, Rc<LeadGoal>);

thread_local! {
    /// The last goals read: the lead reads the same prompt at each of its
    /// calls.
    static GOALS: RefCell<Vec<GoalRead>> = const { RefCell::new(Vec::new()) };
}

/// `parse_lead_goal`, remembered for the last few prompts.
fn lead_goal(prompt: &str, known: Vec<String>) -> Rc<LeadGoal> {
    let hit = GOALS.with(|g| g.borrow().iter().find(|(p, k, _)| p == prompt && *k == known).map(|(_, _, goal)| Rc::clone(goal)));
    if let Some(goal) = hit {
        return goal;
    }
    let goal = Rc::new(parse_lead_goal(prompt, &known));
    GOALS.with(|g| {
        let mut g = g.borrow_mut();
        if g.len() >= 8 {
            g.remove(0);
        }
        g.push((prompt.to_string(), known, Rc::clone(&goal)));
    });
    goal
}

fn parse_lead_goal(prompt: &str, known: &[String]) -> LeadGoal {
    let lower = prompt.to_lowercase();
    let mut goal = LeadGoal {
        retry_after_done: lower.contains("again"),
        reject_first_plan: lower.contains("reject"),
        plan_mode: lower.contains("plan") || lower.contains("risky"),
        list: lower.contains("list") || lower.contains("status"),
        out_of_order: lower.contains("out of order"),
        ..LeadGoal::default()
    };
    for sentence in lower.split(['.', '!', '?', ';']) {
        let w = words(sentence);
        let Some(start) = w.iter().position(|x| x == "spawn") else {
            continue;
        };
        let mut i = start + 1;
        let mut current: Option<(String, Vec<String>)> = None;
        while i < w.len() {
            let word = &w[i];
            let starts_clause = i == start + 1 || (w[i - 1] == "and" && is_name(word) && !matches!(word.as_str(), "then" | "request"));
            if word == "then" || word == "request" {
                break;
            }
            if starts_clause && is_name(word) {
                if let Some((n, clause)) = current.take() {
                    goal.spawns.push(spawn_entry(n, &clause));
                }
                current = Some((word.clone(), Vec::new()));
            } else if let Some((_, clause)) = current.as_mut() {
                if word != "and" || i + 1 >= w.len() || !is_name(&w[i + 1]) {
                    clause.push(word.clone());
                }
            }
            i += 1;
        }
        if let Some((n, clause)) = current.take() {
            goal.spawns.push(spawn_entry(n, &clause));
        }
    }
    goal.plain = plain_messages(prompt, &lower, &goal, known);
    let wants_shutdown = lower.contains("request") && (lower.contains("shutdown") || lower.contains("shut down"));
    if wants_shutdown {
        let spawned: Vec<String> = goal.spawns.iter().map(|s| s.0.clone()).collect();
        let named: Vec<String> = words(&lower).into_iter().filter(|w| known.contains(w) || spawned.contains(w)).collect();
        for n in if named.is_empty() { spawned } else { named } {
            if !goal.shutdowns.contains(&n) {
                goal.shutdowns.push(n);
            }
        }
    }
    goal
}

/// The plain messages a prompt asks for: "send her a message: please stop"
/// (to a teammate named, or to the ones this prompt spawns for "her", "him"
/// or "them"). The text is what follows the colon, or "Please stop." when
/// none is given.
fn plain_messages(prompt: &str, lower: &str, goal: &LeadGoal, known: &[String]) -> Vec<(String, String)> {
    let Some(at) = lower.find("send") else { return Vec::new() };
    let clause = &lower[at..];
    if !clause.contains("message") {
        return Vec::new();
    }
    // The text keeps the prompt's case when lowercasing kept its length.
    let original = if prompt.len() == lower.len() && prompt.is_char_boundary(at) { &prompt[at..] } else { clause };
    let text = original.split_once(':').map(|(_, t)| t.trim().trim_matches(['"', '“', '”']).trim()).filter(|t| !t.is_empty());
    let text = text.map_or_else(|| "Please stop.".to_string(), |t| t.to_string());
    let spawned: Vec<String> = goal.spawns.iter().map(|s| s.0.clone()).collect();
    let head = clause.split(':').next().unwrap_or(clause);
    let mut to: Vec<String> = words(head).into_iter().filter(|w| known.contains(w) || spawned.contains(w)).collect();
    if to.is_empty() && words(head).iter().any(|w| matches!(w.as_str(), "her" | "him" | "them")) {
        to = spawned;
    }
    to.dedup();
    to.into_iter().map(|n| (n, text.clone())).collect()
}

fn spawn_entry(name: String, clause: &[String]) -> (String, String, String) {
    let role = match clause.iter().position(|w| w == "as") {
        Some(i) => clause[i + 1..].iter().find(|w| !matches!(w.as_str(), "a" | "an" | "the")).cloned(),
        None => None,
    };
    let text = clause.join(" ");
    let role = role.unwrap_or_else(|| {
        if text.contains("refactor") {
            "refactorer".into()
        } else if text.contains("migrat") {
            "migrator".into()
        } else if text.contains("notes") || text.contains("write") {
            "writer".into()
        } else if text.contains("stand") {
            "helper".into()
        } else {
            "coder".into()
        }
    });
    (name, role, text)
}

/// The prompt the scripted lead writes for a teammate it spawns.
fn teammate_prompt(name: &str, role: &str, clause: &str, goal: &LeadGoal) -> String {
    let task = if clause.is_empty() || clause.starts_with("as ") {
        "Write a short hello module in src/hello.py.".to_string()
    } else {
        let t = clause.trim_start_matches("to ").trim_start_matches("with ");
        format!("Your task: {t}.")
    };
    let mut p = format!("You are {name}, a {role}. {task}");
    if goal.plan_mode {
        p.push_str(" Submit a plan with plan_approval and wait for the lead's approval before changing any file.");
    }
    if goal.retry_after_done {
        p.push_str(" If asked to shut down before your work is finished, reject and say why. Tell the lead when you are done.");
    }
    if goal.out_of_order && !clause.contains("stand") {
        p.push_str(" Finish your current work before answering any request.");
    }
    p
}

fn looks_risky(plan: &str) -> bool {
    let p = plan.to_lowercase();
    p.contains("big-bang") || p.contains("in one pass") || p.contains("rewrite everything")
}

fn lead_policy(c: &Conversation) -> Decision {
    let known: Vec<String> = c.all_calls.iter().filter(|k| k.name == "spawn_teammate").map(|k| k.arg("name").to_string()).collect();
    let goal = lead_goal(&c.prompt, known);
    if goal.spawns.is_empty()
        && goal.shutdowns.is_empty()
        && goal.plain.is_empty()
        && !goal.list
        && c.messages_of("plan_approval_request").next().is_none()
    {
        return Decision::say(format!(
            "I am the offline scripted model, so I only follow simple instructions. I did not find one in \"{}\". Try: \
             \"Spawn alice as a coder. Then request her shutdown.\", \"List teammates\", \
             \"Spawn bob with a risky refactoring task. Review and reject his plan.\", or \
             \"Spawn charlie, have him submit a plan, then approve it.\" For free-form prompts, choose a real model in Settings.",
            c.prompt
        ));
    }

    // 1. Spawn whoever is not spawned yet (all at once, as parallel calls).
    let attempted = |n: &str| c.calls_named("spawn_teammate").any(|k| k.arg("name") == n);
    let mut d = Decision::default();
    for (name, role, clause) in goal.spawns.iter().filter(|s| !attempted(&s.0)) {
        let input =
            json!({ "name": name, "role": role, "prompt": teammate_prompt(name, role, clause, &goal), "plan_mode": goal.plan_mode });
        d = d.call("spawn_teammate", input);
    }
    if !d.calls.is_empty() {
        d.text = format!("Spawning {}.", goal.spawns.iter().map(|s| s.0.as_str()).collect::<Vec<_>>().join(" and "));
        return d;
    }

    // 2. Review every plan that arrived and was not reviewed yet.
    let reviewed = |id: &str| c.calls_named("plan_approval").any(|k| k.arg("request_id") == id);
    for plan in c.messages_of("plan_approval_request") {
        let id = plan["request_id"].as_str().unwrap_or_default();
        if id.is_empty() || reviewed(id) {
            continue;
        }
        let from = plan["from"].as_str().unwrap_or_default();
        let text = plan["plan"].as_str().unwrap_or_default();
        let earlier = c.all_messages.iter().filter(|m| m["type"] == "plan_approval_request" && m["from"] == from).count();
        let first = earlier <= 1;
        let reject = (goal.reject_first_plan && first) || looks_risky(text);
        let input = if reject {
            json!({ "request_id": id, "approve": false, "feedback": "Too risky: a big-bang rewrite has no safe way back. Split it into small steps, with tests before each change." })
        } else {
            json!({ "request_id": id, "approve": true, "feedback": "Approved: go ahead, one step at a time." })
        };
        d = d.call("plan_approval", input);
    }
    if !d.calls.is_empty() {
        d.text = "Reviewing the plan.".into();
        return d;
    }

    // 2b. Plain messages, each sent once. Nothing in them asks for an
    //     answer, so there is nothing to wait for afterwards.
    for (to, text) in &goal.plain {
        if !c.calls_named("send_message").any(|k| k.arg("to") == to) {
            d = d.call("send_message", json!({ "to": to, "content": text }));
        }
    }
    if !d.calls.is_empty() {
        d.text = "Sending a plain message.".into();
        return d;
    }

    // 3. Shutdown requests: first ask, and ask again once a rejecting
    //    teammate reports that it is done.
    let spawn_failed = |n: &str| c.calls_named("spawn_teammate").any(|k| k.arg("name") == n && !k.ok());
    let mut waiting: Vec<String> = Vec::new();
    for target in goal.shutdowns.iter().filter(|t| !spawn_failed(t)) {
        let asked: Vec<&PastCall> = c.calls_named("shutdown_request").filter(|k| k.arg("teammate") == target).collect();
        // One answer per request, even if a fault delivered it twice.
        let mut answers: Vec<&Value> = Vec::new();
        for m in c.messages_of("shutdown_response").filter(|m| m["from"] == target.as_str()) {
            if !answers.iter().any(|a| a["request_id"] == m["request_id"]) {
                answers.push(m);
            }
        }
        let last_asked_ok = asked.last().is_some_and(|k| k.ok());
        if asked.is_empty() {
            d = d.call("shutdown_request", json!({ "teammate": target }));
        } else if !last_asked_ok {
            continue; // refused (e.g. already shut down): reported in the summary
        } else if answers.len() < asked.len() {
            waiting.push(format!("{target}'s answer"));
        } else if answers.last().is_some_and(|a| a["approve"] == false) && goal.retry_after_done {
            let reported_done = reported_done_after_rejection(c, target);
            if reported_done {
                d = d.call("shutdown_request", json!({ "teammate": target }));
            } else {
                waiting.push(format!("{target} to report done"));
            }
        }
    }
    if !d.calls.is_empty() {
        d.text = "Requesting shutdown.".into();
        return d;
    }

    // 4. List the team if asked.
    if goal.list && c.calls_named("list_teammates").next().is_none() {
        return Decision::say("Listing the team.").call("list_teammates", json!({}));
    }

    // 5. Plans still expected from plan-mode teammates.
    if goal.plan_mode {
        for (name, _, _) in &goal.spawns {
            let approved =
                c.calls_named("plan_approval").any(|k| k.input["approve"] == true && k.ok() && k.output().contains(&format!("'{name}'")));
            if attempted(name) && !spawn_failed(name) && !approved {
                waiting.push(format!("{name}'s plan"));
            }
        }
    }
    if !waiting.is_empty() {
        let mut s = summary(c, &goal);
        s.push_str(&format!("Waiting for {}.", waiting.join(", ")));
        return Decision::say(s);
    }
    Decision::say(summary(c, &goal).trim_end())
}

fn reported_done_after_rejection(c: &Conversation, target: &str) -> bool {
    let last_reject = c.messages.iter().rposition(|m| m["type"] == "shutdown_response" && m["from"] == target && m["approve"] == false);
    let Some(at) = last_reject else { return false };
    c.messages[at + 1..].iter().any(|m| m["from"] == target && m["type"] == "message")
}

/// A plain-language account of what happened since the prompt. Outcomes
/// come newest first, so the first line is the latest news (it is what an
/// event log shows first); each request is reported once, even if its
/// answer arrived twice.
fn summary(c: &Conversation, goal: &LeadGoal) -> String {
    let mut outcomes: Vec<String> = Vec::new();
    let mut reported: Vec<&str> = Vec::new();
    for item in c.learned.iter().rev() {
        match *item {
            Learned::Result(i) => {
                let k = &c.calls[i];
                if k.result.as_ref().is_some_and(|r| r.1) {
                    outcomes.push(format!("{} failed: {}", k.name, k.output().trim_start_matches("Error: ")));
                } else if k.name == "plan_approval" {
                    outcomes.push(format!("{} (request {}).", k.output(), k.arg("request_id")));
                }
            }
            Learned::Message(i) => {
                let r = &c.messages[i];
                let id = str_of(&r["request_id"]);
                if r["type"] != "shutdown_response" || reported.contains(&id) {
                    continue;
                }
                reported.push(id);
                let verdict = if r["approve"] == true { "approved" } else { "rejected" };
                let reason = r["content"].as_str().filter(|s| !s.is_empty()).map(|s| format!(" ({s})")).unwrap_or_default();
                outcomes.push(format!("{} {verdict} shutdown request {id}{reason}.", str_of(&r["from"])));
            }
        }
    }
    let mut lines: Vec<String> =
        outcomes.into_iter().enumerate().map(|(i, line)| if i == 0 { line } else { format!("Earlier: {line}") }).collect();
    if goal.out_of_order {
        let asked: Vec<&str> = c.calls_named("shutdown_request").filter(|k| k.ok()).map(|k| k.arg("teammate")).collect();
        let mut answered: Vec<&str> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for m in c.messages_of("shutdown_response") {
            let id = str_of(&m["request_id"]);
            if !seen.contains(&id) {
                seen.push(id);
                answered.push(m["from"].as_str().unwrap_or_default());
            }
        }
        if answered.len() >= 2 && asked.len() >= 2 {
            let order =
                if asked[..answered.len().min(asked.len())] == answered[..] { "in the order they were asked" } else { "out of order" };
            lines.push(format!(
                "Asked {}; answers came from {}: {order}, matched by request_id.",
                asked.join(" then "),
                answered.join(" then ")
            ));
        }
    }
    for sent in c.calls_named("send_message").filter(|k| k.ok()) {
        lines.push(format!(
            "I sent {} a plain message (\"{}\"). It has no request_id and asks for no answer, so nothing can come back that I could \
             match to it: I cannot know whether {} stopped.",
            sent.arg("to"),
            sent.arg("content"),
            sent.arg("to")
        ));
    }
    if let Some(list) = c.calls_named("list_teammates").filter(|k| k.ok()).last() {
        lines.push(format!("The team now:\n{}", list.output()));
    }
    if lines.is_empty() {
        String::new()
    } else {
        lines.join("\n") + "\n"
    }
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("?")
}

// ------------------------------------------------------------ the teammate

/// What a teammate makes of its prompt.
#[derive(Debug)]
struct Task {
    files: Vec<String>,
    needs_plan: bool,
    risky: bool,
    reject_shutdown_mid_task: bool,
    finish_before_answering: bool,
    report_when_done: bool,
}

fn number_in(text: &str) -> Option<usize> {
    words(text).iter().find_map(|w| match w.as_str() {
        "one" => Some(1),
        "two" => Some(2),
        "three" => Some(3),
        "four" => Some(4),
        "five" => Some(5),
        w => w.parse().ok().filter(|n| (1..=20).contains(n)),
    })
}

fn read_task(name: &str, prompts: &[String]) -> Task {
    let all = prompts.join(" ").to_lowercase();
    let count = number_in(&all).unwrap_or(1);
    let files: Vec<String> = if all.contains("stand by") || all.contains("wait for instructions") {
        Vec::new()
    } else if all.contains("config") {
        ["app", "db", "cache", "log", "cli"].iter().cycle().take(count).map(|f| format!("config/{f}.toml")).collect()
    } else if all.contains("release notes") {
        (1..=count).map(|i| format!("docs/release-notes-part-{i}.md")).collect()
    } else if all.contains("refactor") {
        vec!["src/auth.py".into()]
    } else if all.contains("hello") {
        vec!["src/hello.py".into()]
    } else if all.contains("validation") || all.contains("plan") {
        vec![format!("src/{name}.py")]
    } else {
        (1..=count).map(|i| if count == 1 { format!("notes/{name}.md") } else { format!("notes/{name}-{i}.md") }).collect()
    };
    Task {
        files,
        needs_plan: all.contains("plan_approval") || all.contains("submit a plan"),
        risky: all.contains("risky"),
        reject_shutdown_mid_task: all.contains("reject and say why") || all.contains("mid-task"),
        finish_before_answering: all.contains("finish your current work"),
        report_when_done: all.contains("tell the lead when you are done") || all.contains("report"),
    }
}

fn file_content(name: &str, path: &str, step: usize, total: usize) -> String {
    if path.ends_with(".py") {
        format!("# written by {name}\n\ndef hello(who: str) -> str:\n    return f\"hello, {{who}}\"\n")
    } else if path.ends_with(".toml") {
        format!("# migrated by {name} ({step} of {total})\nformat = 2\n")
    } else {
        format!("# {path}\n\nPart {step} of {total}, by {name}.\n")
    }
}

fn teammate_policy(me: &str, c: &Conversation) -> Decision {
    let task = read_task(me, &c.prompts);
    let written: Vec<&str> = c.all_calls.iter().filter(|k| k.name == "write_file" && k.ok()).map(|k| k.arg("path")).collect();
    let remaining: Vec<&String> = task.files.iter().filter(|f| !written.contains(&f.as_str())).collect();
    let gate_refused = c.all_calls.iter().any(|k| k.name == "write_file" && !k.ok() && k.output().contains("plan mode"));

    // Shutdown requests not answered yet.
    let answered = |id: &str| c.all_calls.iter().any(|k| k.name == "shutdown_response" && k.arg("request_id") == id && k.result.is_some());
    let open: Vec<&str> = c
        .all_messages
        .iter()
        .filter(|m| m["type"] == "shutdown_request")
        .filter_map(|m| m["request_id"].as_str())
        .filter(|id| !answered(id))
        .collect();
    if let Some(id) = open.first() {
        let mid_task = !remaining.is_empty();
        if !mid_task || !(task.reject_shutdown_mid_task || task.finish_before_answering) {
            let reason = if mid_task {
                format!("Stopping now as asked; {} file(s) left undone.", remaining.len())
            } else {
                "My work is saved; shutting down.".to_string()
            };
            return Decision::say("Shutting down.")
                .call("shutdown_response", json!({ "request_id": id, "approve": true, "reason": reason }));
        }
        if task.reject_shutdown_mid_task {
            let reason = format!("Mid-task: {} of {} file(s) still to migrate; I will finish first.", remaining.len(), task.files.len());
            return Decision::say("Not yet.").call("shutdown_response", json!({ "request_id": id, "approve": false, "reason": reason }));
        }
        // finish_before_answering: keep working; answer when done.
    }

    // The plan gate: submit, wait, revise after a rejection.
    let plan_calls: Vec<&PastCall> = c.all_calls.iter().filter(|k| k.name == "plan_approval").collect();
    let verdicts: Vec<&Value> = c.all_messages.iter().map(|m| &**m).filter(|m| m["type"] == "plan_approval_response").collect();
    let approved = verdicts.iter().any(|v| v["approve"] == true);
    if (task.needs_plan || gate_refused) && !approved && !remaining.is_empty() {
        let submitted = plan_calls.iter().filter(|k| k.ok()).count();
        if submitted > verdicts.len() {
            return Decision::say("Waiting for the lead to review my plan.");
        }
        if submitted >= 3 {
            return Decision::say("My plan was rejected three times; waiting for new instructions.");
        }
        let files = task.files.join(", ");
        let plan = match verdicts.last() {
            None if task.risky => format!("Rewrite everything in {files} in one pass (big-bang), then fix whatever breaks."),
            None => format!("1) Read {files}. 2) Make the change in small steps. 3) Check each step before the next."),
            Some(_) => format!(
                "Revised plan, following your feedback: 1) Add tests that pin the current behaviour of {files}. \
                 2) Change one function at a time behind the same interface. 3) Run the tests after every step."
            ),
        };
        return Decision::say("Submitting my plan.").call("plan_approval", json!({ "plan": plan }));
    }

    // The work itself: one file per turn, so a request can arrive mid-task.
    if let Some(next) = remaining.first() {
        let step = task.files.len() - remaining.len() + 1;
        let content = file_content(me, next, step, task.files.len());
        return Decision::say(format!("Working on {next} ({step} of {}).", task.files.len()))
            .call("write_file", json!({ "path": next, "content": content }));
    }

    let reported = c.all_calls.iter().any(|k| k.name == "send_message" && k.arg("to") == "lead" && k.ok());
    if task.report_when_done && !task.files.is_empty() && !reported {
        let text = format!("Done: wrote {}.", task.files.join(", "));
        return Decision::say("Reporting to the lead.").call("send_message", json!({ "to": "lead", "content": text }));
    }
    if task.files.is_empty() {
        Decision::say("Standing by.")
    } else {
        Decision::say(format!("Done: {}.", task.files.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Turn;

    fn lead_request(turns: Vec<Turn>) -> ModelRequest {
        ModelRequest { system: "You are a team lead at /workspace.".into(), messages: turns, tools: Vec::new().into(), max_tokens: 100 }
    }

    fn calls(r: &ModelResponse) -> Vec<(String, Value)> {
        r.tool_uses().map(|(_, n, i)| (n.to_string(), i.clone())).collect()
    }

    #[test]
    fn the_lead_spawns_first_then_requests_the_shutdown() {
        let r = respond(&lead_request(vec![Turn::user_text("Spawn alice as a coder. Then request her shutdown.")]));
        let c = calls(&r);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].0, "spawn_teammate");
        assert_eq!((c[0].1["name"].as_str(), c[0].1["role"].as_str()), (Some("alice"), Some("coder")));
        assert_eq!(r.stop_reason, StopReason::ToolUse);
    }

    #[test]
    fn several_names_in_one_spawn_clause_are_all_spawned() {
        let g = parse_lead_goal("Spawn erin to write release notes in two parts and frank to stand by, then request both shutdowns.", &[]);
        let names: Vec<_> = g.spawns.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(names, ["erin", "frank"]);
        assert_eq!(g.shutdowns, ["erin", "frank"]);
        assert!(g.spawns[1].2.contains("stand by"));
    }

    #[test]
    fn the_list_prompt_does_not_request_a_shutdown() {
        let g = parse_lead_goal("List teammates to see alice's status after shutdown approval", &["alice".into()]);
        assert!(g.list);
        assert!(g.shutdowns.is_empty() && g.spawns.is_empty());
    }

    /// The lead's turns after `prompt`, one tool call and its result each.
    fn after(prompt: &str, done: &[(&str, Value, &str)]) -> ModelRequest {
        let mut turns = vec![Turn::user_text(prompt)];
        for (i, (name, input, result)) in done.iter().enumerate() {
            let id = format!("t{i}");
            turns.push(Turn {
                role: Role::Assistant,
                content: vec![ContentBlock::ToolUse { id: id.clone(), name: name.to_string(), input: input.clone() }],
            });
            turns.push(Turn {
                role: Role::User,
                content: vec![ContentBlock::ToolResult { tool_use_id: id, content: result.to_string(), is_error: false }],
            });
        }
        lead_request(turns)
    }

    const PLEASE_STOP: &str = "Spawn alice as a coder. Then send her a message: \"Hey alice, please stop.\"";

    #[test]
    fn send_her_a_message_is_a_plain_message_to_the_spawned_teammate_and_no_shutdown_request() {
        let g = parse_lead_goal(PLEASE_STOP, &[]);
        assert_eq!(g.plain, [("alice".to_string(), "Hey alice, please stop.".to_string())], "the text keeps its case, without quotes");
        assert!(g.shutdowns.is_empty(), "a plain message is not a shutdown request");
        let spawned = json!({ "name": "alice", "role": "coder", "prompt": "p", "plan_mode": false });
        let r = respond(&after(PLEASE_STOP, &[("spawn_teammate", spawned, "Spawned 'alice' (role: coder)")]));
        assert_eq!(calls(&r), [("send_message".to_string(), json!({ "to": "alice", "content": "Hey alice, please stop." }))]);
        let named = parse_lead_goal("Send bob a message", &["bob".into()]);
        assert_eq!(named.plain, [("bob".to_string(), "Please stop.".to_string())], "a known name; the lesson's words by default");
    }

    #[test]
    fn after_a_plain_message_the_lead_ends_its_turn_saying_it_cannot_know_whether_the_teammate_stopped() {
        let spawned = json!({ "name": "alice", "role": "coder", "prompt": "p", "plan_mode": false });
        let sent = json!({ "to": "alice", "content": "Hey alice, please stop." });
        let r = respond(&after(
            PLEASE_STOP,
            &[("spawn_teammate", spawned, "Spawned 'alice' (role: coder)"), ("send_message", sent, "Sent message to alice")],
        ));
        assert!(calls(&r).is_empty(), "nothing to wait for: no request was made");
        assert_eq!(r.stop_reason, StopReason::EndTurn);
        let text = r.content.iter().map(|b| if let ContentBlock::Text { text } = b { text.as_str() } else { "" }).collect::<String>();
        assert!(text.contains("no request_id") && text.contains("cannot know whether alice stopped"), "{text}");
    }

    #[test]
    fn an_unknown_prompt_gets_an_honest_explanation_and_no_tool_call() {
        let r = respond(&lead_request(vec![Turn::user_text("Write me a poem")]));
        assert!(calls(&r).is_empty());
        assert_eq!(r.stop_reason, StopReason::EndTurn);
        assert!(matches!(&r.content[0], ContentBlock::Text { text } if text.contains("offline scripted model")));
    }

    #[test]
    fn a_teammate_in_plan_mode_submits_a_plan_before_writing() {
        let req = ModelRequest {
            system: "You are 'charlie', role: coder, at /workspace. Submit plans via plan_approval before major work.".into(),
            messages: vec![Turn::user_text("You are charlie. Your task: add validation. Submit a plan with plan_approval and wait.")],
            tools: Vec::new().into(),
            max_tokens: 100,
        };
        let c = calls(&respond(&req));
        assert_eq!(c[0].0, "plan_approval");
    }

    #[test]
    fn usage_is_counted_and_ids_are_stable() {
        let req = lead_request(vec![Turn::user_text("Spawn alice as a coder.")]);
        let (a, b) = (respond(&req), respond(&req));
        assert_eq!(a, b);
        assert!(a.usage.input_tokens > 0 && a.usage.output_tokens > 0);
    }
}
