//! Rules of the agent runtime, each test named after the rule it checks: a misbehaving model is refused with an `Error: ` tool result and changes no protocol state, Step mode releases one turn per step and replays the Live run exactly, Stop ends every task, a seed fixes the whole trace, and a human answer goes through the same protocol path as a model's.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use proptest::prelude::*;
use serde_json::{json, Value};

use team_protocols::model::scripted::ScriptedModel;
use team_protocols::model::sleep::NoSleep;
use team_protocols::model::{
    CancelToken, ContentBlock, LocalBoxFuture, Model, ModelError, ModelRequest, ModelResponse, Role, StopReason, TextSink, Usage,
};
use team_protocols::protocol::*;
use team_protocols::runtime::executor::LocalExecutor;
use team_protocols::runtime::scenarios::{self, Scenario};
use team_protocols::runtime::scheduler::{Mode, TurnKind};
use team_protocols::runtime::{Host, Runtime, RuntimeConfig, RuntimeError};

mod common;

use common::SEED;

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

// ---------------------------------------------------------------------------
// A misbehaving model: canned replies per agent, in order.
// ---------------------------------------------------------------------------

type Reply = Result<ModelResponse, ModelError>;

/// One canned reply, given when its guard accepts the request (until then the
/// agent gets an `end_turn` and the reply stays first in line).
struct Canned {
    when: Box<dyn Fn(&ModelRequest) -> bool>,
    reply: Box<dyn Fn(&ModelRequest) -> Reply>,
}

impl Canned {
    /// Tool calls `(tool_use_id, tool, input)`, given at the next call.
    fn tools(calls: &[(&str, &str, Value)]) -> Canned {
        let reply = tool_use(calls);
        Canned { when: Box::new(|_| true), reply: Box::new(move |_| Ok(reply.clone())) }
    }

    /// A failed call, at the next call.
    fn fail(error: ModelError) -> Canned {
        Canned { when: Box::new(|_| true), reply: Box::new(move |_| Err(error.clone())) }
    }

    /// A reply built from the request, once `when` accepts it.
    fn when(when: impl Fn(&ModelRequest) -> bool + 'static, reply: impl Fn(&ModelRequest) -> Reply + 'static) -> Canned {
        Canned { when: Box::new(when), reply: Box::new(reply) }
    }
}

fn tool_use(calls: &[(&str, &str, Value)]) -> ModelResponse {
    ModelResponse {
        content: calls
            .iter()
            .map(|(id, tool, input)| ContentBlock::ToolUse { id: id.to_string(), name: tool.to_string(), input: input.clone() })
            .collect(),
        stop_reason: StopReason::ToolUse,
        usage: Usage::plain(10, 5),
    }
}

fn end_turn(text: &str) -> ModelResponse {
    ModelResponse { content: vec![ContentBlock::text(text)], stop_reason: StopReason::EndTurn, usage: Usage::plain(10, 2) }
}

/// The agent a request is for, read from its system prompt.
fn agent_of(system: &str) -> String {
    if system.starts_with("You are a team lead") {
        "lead".to_string()
    } else {
        assert!(system.starts_with("You are '"), "unexpected system prompt: {system}");
        system.split('\'').nth(1).expect("a quoted name").to_string()
    }
}

/// A model that gives each agent its canned replies in order, then `end_turn`
/// text, and remembers every request it was sent.
#[derive(Default)]
struct Misbehaving {
    scripts: RefCell<BTreeMap<String, VecDeque<Canned>>>,
    requests: RefCell<Vec<(String, ModelRequest)>>,
}

impl Misbehaving {
    fn new() -> Rc<Self> {
        Rc::new(Misbehaving::default())
    }

    fn script(self: &Rc<Self>, agent: &str, replies: Vec<Canned>) -> Rc<Self> {
        self.scripts.borrow_mut().entry(agent.to_string()).or_default().extend(replies);
        self.clone()
    }

    /// Every request `agent` was sent, in order.
    fn requests_of(&self, agent: &str) -> Vec<ModelRequest> {
        self.requests.borrow().iter().filter(|(a, _)| a == agent).map(|(_, r)| r.clone()).collect()
    }

    /// Canned replies not given yet.
    fn left(&self, agent: &str) -> usize {
        self.scripts.borrow().get(agent).map_or(0, VecDeque::len)
    }
}

impl Model for Misbehaving {
    fn label(&self) -> String {
        "misbehaving (test)".into()
    }

    fn complete<'a>(&'a self, request: &'a ModelRequest, _on_text: TextSink, cancel: CancelToken) -> LocalBoxFuture<'a, Reply> {
        Box::pin(async move {
            if cancel.is_cancelled() {
                return Err(ModelError::Cancelled);
            }
            let who = agent_of(&request.system);
            self.requests.borrow_mut().push((who.clone(), request.clone()));
            let next = {
                let mut scripts = self.scripts.borrow_mut();
                let queue = scripts.entry(who).or_default();
                if queue.front().is_some_and(|c| (c.when)(request)) {
                    queue.pop_front()
                } else {
                    None
                }
            };
            match next {
                Some(canned) => (canned.reply)(request),
                None => Ok(end_turn("Nothing more to do.")),
            }
        })
    }
}

/// The bus messages delivered in a request's conversation: a teammate gets
/// one JSON object per message, the lead an `<inbox>[...]</inbox>` block.
fn delivered(request: &ModelRequest) -> Vec<Value> {
    let mut out = Vec::new();
    for turn in request.messages.iter().filter(|t| t.role == Role::User) {
        for block in &turn.content {
            let ContentBlock::Text { text } = block else {
                continue;
            };
            let text = text.trim();
            if let Some(inner) = text.strip_prefix("<inbox>").and_then(|t| t.strip_suffix("</inbox>")) {
                if let Ok(Value::Array(items)) = serde_json::from_str::<Value>(inner) {
                    out.extend(items);
                }
            } else if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(text) {
                out.push(v);
            }
        }
    }
    out
}

/// The `request_id` of the latest delivered message of `msg_type`.
fn received_id(request: &ModelRequest, msg_type: &str) -> Option<String> {
    delivered(request).iter().rev().find(|m| m["type"] == msg_type).and_then(|m| m["request_id"].as_str().map(str::to_string))
}

/// Once a message of `msg_type` has been delivered: tool calls built from its request id.
fn on_received(msg_type: &'static str, calls: impl Fn(&str) -> Vec<(&'static str, &'static str, Value)> + 'static) -> Canned {
    Canned::when(move |r| received_id(r, msg_type).is_some(), move |r| Ok(tool_use(&calls(&received_id(r, msg_type).unwrap()))))
}

// ---------------------------------------------------------------------------
// Driving a runtime.
// ---------------------------------------------------------------------------

struct Run {
    ex: LocalExecutor,
    rt: Runtime,
    /// Each time the protocol state was seen to change without a trace
    /// event (by trace length).
    silent_changes: Rc<RefCell<Vec<usize>>>,
}

/// A runtime on the shared native host, watched: every state it passes
/// through is kept by trace length, so a change without an event shows.
fn start(model: Rc<dyn Model>, config: RuntimeConfig) -> Run {
    let (ex, rt) = common::start(config, model);
    let states: Rc<RefCell<BTreeMap<usize, TeamState>>> = Rc::default();
    let silent_changes: Rc<RefCell<Vec<usize>>> = Rc::default();
    let (watched, seen, silent) = (rt.clone(), states.clone(), silent_changes.clone());
    rt.subscribe(Rc::new(move || {
        let (len, state, replayed) = watched.with_team(|t| (t.trace().len(), t.state().clone(), Team::replay(t.trace())));
        // Whenever the runtime says something changed, the live state is
        // exactly what its trace rebuilds: no change without an event.
        if replayed.map(|r| *r.state() != state).unwrap_or(true) {
            silent.borrow_mut().push(len);
        }
        let mut seen = seen.borrow_mut();
        match seen.get(&len) {
            Some(before) if *before != state => silent.borrow_mut().push(len),
            Some(_) => {}
            None => {
                seen.insert(len, state);
            }
        }
    }));
    Run { ex, rt, silent_changes }
}

fn live(model: Rc<dyn Model>) -> Run {
    start(model, RuntimeConfig { seed: SEED, ..RuntimeConfig::default() })
}

impl Run {
    fn prompt(&self, prompt: &str) {
        self.rt.submit_prompt(prompt).unwrap();
        self.ex.run_until_stalled();
    }

    fn state(&self) -> TeamState {
        self.rt.with_team(|t| t.state().clone())
    }

    /// The run went quiet and recorded its end; state changed only with events.
    fn assert_finished(&self) {
        assert!(!self.rt.is_running(), "the run ends by itself");
        let trace = self.rt.trace();
        assert!(matches!(trace.entries().last().map(|e| &e.event), Some(Event::RunFinished)), "RunFinished is the last event");
        assert_eq!(*self.silent_changes.borrow(), Vec::<usize>::new(), "protocol state changed without a trace event");
        assert_eq!(Team::replay(&trace).unwrap().state().clone(), self.state(), "replay equals the live state");
    }

    fn status(&self, who: &str) -> Option<MemberStatus> {
        self.rt.with_team(|t| t.roster().status(&name(who)))
    }
}

/// Checks the refusal rule for the tool call `tool_use_id` and returns its
/// output: an `Error: ` result in the trace and in the next request, nothing
/// recorded and no protocol state changed in between, and the agent's model
/// called again afterwards.
fn assert_refused(run: &Run, model: &Misbehaving, tool_use_id: &str) -> String {
    let trace = run.rt.trace();
    let entries = trace.entries();
    let called: Vec<(u64, AgentName)> = entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::ToolCalled { agent, tool_use_id: id, .. } if id == tool_use_id => Some((e.seq, agent.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(called.len(), 1, "{tool_use_id} is called once");
    let (called_at, agent) = called[0].clone();
    let returned: Vec<(u64, AgentName, String, bool)> = entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::ToolReturned { agent, tool_use_id: id, output, is_error, .. } if id == tool_use_id => {
                Some((e.seq, agent.clone(), output.clone(), *is_error))
            }
            _ => None,
        })
        .collect();
    assert_eq!(returned.len(), 1, "{tool_use_id} returns once");
    let (returned_at, by, output, is_error) = returned[0].clone();
    assert_eq!(by, agent);
    assert!(is_error, "{tool_use_id} is an error: {output}");
    assert!(output.starts_with("Error: "), "{tool_use_id}: {output}");
    assert_eq!(
        returned_at,
        called_at + 1,
        "nothing is recorded between a refused call and its result: {:?}",
        &entries[called_at as usize..=returned_at as usize]
    );
    // The state the trace rebuilds at the call and at its result (the live
    // state equals it at every change: `silent_changes`).
    let state_after = |len: usize| {
        let mut state = TeamState::new(&trace.team_name);
        entries[..len].iter().for_each(|e| state.apply(e).expect("the trace replays"));
        state
    };
    assert_eq!(state_after(called_at as usize + 1), state_after(returned_at as usize + 1), "{tool_use_id} changed no protocol state");
    assert!(run.silent_changes.borrow().is_empty(), "the live state always equals what its trace rebuilds");
    // The loop goes on: the model is called again, with the error in its conversation.
    let later_call = entries[returned_at as usize..].iter().any(|e| matches!(&e.event, Event::ModelCalled { agent: a } if *a == agent));
    assert!(later_call, "{agent}'s model is called again after {tool_use_id}");
    let expected = ContentBlock::ToolResult { tool_use_id: tool_use_id.to_string(), content: output.clone(), is_error: true };
    let seen =
        model.requests_of(agent.as_str()).iter().any(|r| r.messages.iter().any(|t| t.role == Role::User && t.content.contains(&expected)));
    assert!(seen, "{agent}'s next request carries the error result of {tool_use_id}");
    output
}

fn spawn(id: &'static str, who: &str, plan_mode: bool) -> Canned {
    Canned::tools(&[(
        id,
        "spawn_teammate",
        json!({ "name": who, "role": "coder", "prompt": "Write a hello module.", "plan_mode": plan_mode }),
    )])
}

// ---------------------------------------------------------------------------
// 1. A misbehaving model is refused, and the loop goes on.
// ---------------------------------------------------------------------------

#[test]
fn a_shutdown_answer_to_an_unknown_request_id_is_refused() {
    let model = Misbehaving::new()
        .script("lead", vec![spawn("t_spawn", "alice", false)])
        .script("alice", vec![Canned::tools(&[("t_ghost", "shutdown_response", json!({ "request_id": "deadbeef", "approve": true }))])]);
    let run = live(model.clone());
    run.prompt("Spawn alice.");
    let out = assert_refused(&run, &model, "t_ghost");
    assert!(out.contains("unknown request_id 'deadbeef'"), "{out}");
    assert_eq!(run.status("alice"), Some(MemberStatus::Idle), "a refused approval does not shut alice down");
    assert_eq!(check(&run.rt.trace()), vec![], "a refused answer sends no response message");
    run.assert_finished();
}

#[test]
fn a_plan_review_of_an_unknown_request_id_is_refused() {
    let model = Misbehaving::new().script(
        "lead",
        vec![Canned::tools(&[("t_review", "plan_approval", json!({ "request_id": "0badf00d", "approve": true, "feedback": "ok" }))])],
    );
    let run = live(model.clone());
    run.prompt("Approve the plan.");
    let out = assert_refused(&run, &model, "t_review");
    assert!(out.contains("unknown request_id '0badf00d'"), "{out}");
    assert!(run.rt.with_team(|t| t.tracker().is_empty()));
    run.assert_finished();
}

#[test]
fn a_second_answer_to_a_request_is_refused() {
    let model = Misbehaving::new()
        .script(
            "lead",
            vec![spawn("t_spawn", "alice", false), Canned::tools(&[("t_ask", "shutdown_request", json!({ "teammate": "alice" }))])],
        )
        .script(
            "alice",
            vec![
                on_received("shutdown_request", |id| {
                    vec![("t_first", "shutdown_response", json!({ "request_id": id, "approve": false, "reason": "busy" }))]
                }),
                on_received("shutdown_request", |id| {
                    vec![("t_second", "shutdown_response", json!({ "request_id": id, "approve": true, "reason": "changed my mind" }))]
                }),
            ],
        );
    let run = live(model.clone());
    run.prompt("Spawn alice, then request her shutdown.");
    assert_eq!(model.left("alice"), 0, "alice gave both answers");
    let out = assert_refused(&run, &model, "t_second");
    assert!(out.contains("already rejected"), "{out}");
    let statuses: Vec<RequestStatus> = run.rt.with_team(|t| t.tracker().iter().map(|r| r.status).collect());
    assert_eq!(statuses, [RequestStatus::Rejected], "the first answer stands");
    assert_eq!(run.status("alice"), Some(MemberStatus::Idle), "a refused approval does not shut alice down");
    assert_eq!(check(&run.rt.trace()), vec![], "no second response message is sent");
    run.assert_finished();
}

#[test]
fn a_second_answer_in_the_same_reply_is_refused_and_the_first_stands() {
    let model = Misbehaving::new()
        .script(
            "lead",
            vec![spawn("t_spawn", "alice", false), Canned::tools(&[("t_ask", "shutdown_request", json!({ "teammate": "alice" }))])],
        )
        .script(
            "alice",
            vec![on_received("shutdown_request", |id| {
                vec![
                    ("t_yes", "shutdown_response", json!({ "request_id": id, "approve": true })),
                    ("t_again", "shutdown_response", json!({ "request_id": id, "approve": false })),
                ]
            })],
        );
    let run = live(model.clone());
    run.prompt("Spawn alice, then request her shutdown.");
    let trace = run.rt.trace();
    let out = trace
        .entries()
        .iter()
        .find_map(|e| match &e.event {
            Event::ToolReturned { tool_use_id, output, is_error: true, .. } if tool_use_id == "t_again" => Some(output.clone()),
            _ => None,
        })
        .expect("the second answer is refused");
    assert!(out.starts_with("Error: ") && out.contains("already approved"), "{out}");
    let statuses: Vec<RequestStatus> = run.rt.with_team(|t| t.tracker().iter().map(|r| r.status).collect());
    assert_eq!(statuses, [RequestStatus::Approved]);
    assert_eq!(run.status("alice"), Some(MemberStatus::Shutdown), "the approval still shuts alice down");
    assert_eq!(check(&trace), vec![]);
    run.assert_finished();
}

#[test]
fn a_message_to_an_unknown_agent_is_refused() {
    let model = Misbehaving::new()
        .script(
            "lead",
            vec![
                spawn("t_spawn", "alice", false),
                Canned::tools(&[("t_lead_send", "send_message", json!({ "to": "zed", "content": "hi" }))]),
            ],
        )
        .script("alice", vec![Canned::tools(&[("t_alice_send", "send_message", json!({ "to": "zed", "content": "hi" }))])]);
    let run = live(model.clone());
    run.prompt("Spawn alice and say hi to zed.");
    for id in ["t_lead_send", "t_alice_send"] {
        let out = assert_refused(&run, &model, id);
        assert!(out.contains("'zed'"), "{out}");
    }
    run.assert_finished();
}

#[test]
fn malformed_tool_input_is_refused() {
    let model = Misbehaving::new()
        .script(
            "lead",
            vec![
                Canned::tools(&[("t_no_prompt", "spawn_teammate", json!({ "name": "alice", "role": "coder" }))]),
                Canned::tools(&[("t_not_object", "shutdown_request", json!("alice"))]),
                spawn("t_spawn", "alice", false),
                Canned::tools(&[("t_ask", "shutdown_request", json!({ "teammate": "alice" }))]),
            ],
        )
        .script(
            "alice",
            vec![
                on_received("shutdown_request", |id| {
                    vec![("t_yes_string", "shutdown_response", json!({ "request_id": id, "approve": "yes" }))]
                }),
                Canned::tools(&[("t_no_id", "shutdown_response", json!({ "approve": true }))]),
                on_received("shutdown_request", |id| vec![("t_valid", "shutdown_response", json!({ "request_id": id, "approve": true }))]),
            ],
        );
    let run = live(model.clone());
    run.prompt("Spawn alice, then request her shutdown.");
    let out = assert_refused(&run, &model, "t_no_prompt");
    assert!(out.contains("missing field `prompt`"), "{out}");
    let out = assert_refused(&run, &model, "t_not_object");
    assert!(out.contains("JSON object"), "{out}");
    let out = assert_refused(&run, &model, "t_yes_string");
    assert_eq!(out, "Error: invalid input for shutdown_response: field 'approve' must be true or false");
    let out = assert_refused(&run, &model, "t_no_id");
    assert_eq!(out, "Error: invalid input for shutdown_response: missing field 'request_id'");
    // The well-formed answer after both refusals still works.
    let statuses: Vec<RequestStatus> = run.rt.with_team(|t| t.tracker().iter().map(|r| r.status).collect());
    assert_eq!(statuses, [RequestStatus::Approved]);
    assert_eq!(run.status("alice"), Some(MemberStatus::Shutdown));
    assert_eq!(check(&run.rt.trace()), vec![]);
    run.assert_finished();
}

#[test]
fn an_unknown_tool_is_refused() {
    let model = Misbehaving::new()
        .script("lead", vec![Canned::tools(&[("t_bash", "bash", json!({ "command": "rm -rf /" }))]), spawn("t_spawn", "alice", false)])
        .script(
            "alice",
            vec![Canned::tools(&[("t_lead_tool", "spawn_teammate", json!({ "name": "mallory", "role": "x", "prompt": "p" }))])],
        );
    let run = live(model.clone());
    run.prompt("Run bash, then spawn alice.");
    let out = assert_refused(&run, &model, "t_bash");
    assert!(out.contains("unknown tool 'bash'"), "{out}");
    let out = assert_refused(&run, &model, "t_lead_tool");
    assert!(out.contains("unknown tool 'spawn_teammate'"), "a teammate has no lead tools: {out}");
    assert_eq!(run.status("mallory"), None);
    run.assert_finished();
}

#[test]
fn a_plan_mode_teammate_cannot_change_the_workspace_before_approval() {
    let model = Misbehaving::new()
        .script(
            "lead",
            vec![
                spawn("t_spawn", "bob", true),
                on_received("plan_approval_request", |id| {
                    vec![("t_approve", "plan_approval", json!({ "request_id": id, "approve": true, "feedback": "go" }))]
                }),
            ],
        )
        .script(
            "bob",
            vec![
                Canned::tools(&[("t_write", "write_file", json!({ "path": "src/a.rs", "content": "fn a() {}" }))]),
                Canned::tools(&[("t_edit", "edit_file", json!({ "path": "src/a.rs", "old_text": "a", "new_text": "b" }))]),
                Canned::tools(&[("t_plan", "plan_approval", json!({ "plan": "Write src/a.rs." }))]),
                on_received("plan_approval_response", |_| {
                    vec![("t_write_approved", "write_file", json!({ "path": "src/a.rs", "content": "fn a() {}" }))]
                }),
            ],
        );
    let run = live(model.clone());
    run.prompt("Spawn bob in plan mode.");
    for id in ["t_write", "t_edit"] {
        let out = assert_refused(&run, &model, id);
        assert!(out.contains("plan mode"), "{out}");
    }
    // After the approval the gate opens: the same write succeeds.
    let trace = run.rt.trace();
    let approved_write = trace.entries().iter().find_map(|e| match &e.event {
        Event::ToolReturned { tool_use_id, is_error, .. } if tool_use_id == "t_write_approved" => Some(*is_error),
        _ => None,
    });
    assert_eq!(approved_write, Some(false), "bob writes once his plan is approved");
    assert!(run.rt.with_workspace(|w| w.list_files()).contains("src/a.rs"));
    assert_eq!(check(&trace), vec![]);
    run.assert_finished();
}

#[test]
fn a_reply_records_the_usage_its_provider_reported_cache_tokens_included() {
    let usage = Usage { input_tokens: 12, output_tokens: 7, cache_read_tokens: 45_000, cache_write_tokens: 3_000, measured: true };
    let reply = ModelResponse { content: vec![ContentBlock::text("done")], stop_reason: StopReason::EndTurn, usage };
    let model = Misbehaving::new().script("lead", vec![Canned::when(|_| true, move |_| Ok(reply.clone()))]);
    let run = live(model);
    run.prompt("Say done.");
    let trace = run.rt.trace();
    let recorded: Vec<_> = trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ModelReplied { input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, measured, .. } => {
                Some((*input_tokens, *output_tokens, *cache_read_tokens, *cache_write_tokens, *measured))
            }
            _ => None,
        })
        .collect();
    assert_eq!(recorded, [(12, 7, 45_000, 3_000, true)]);
    run.assert_finished();
}

#[test]
fn a_teammate_model_network_error_is_recorded_and_the_run_still_ends() {
    let model = Misbehaving::new()
        .script("lead", vec![spawn("t_spawn", "alice", false)])
        .script("alice", vec![Canned::fail(ModelError::Network("connection reset".into()))]);
    let run = live(model.clone());
    run.prompt("Spawn alice.");
    let trace = run.rt.trace();
    let failed: Vec<_> = trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ModelFailed { agent, error } => Some((agent.to_string(), error.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(failed, [("alice".to_string(), "network error: connection reset".to_string())]);
    assert_eq!(run.status("alice"), Some(MemberStatus::Idle), "alice waits for the next message");
    run.assert_finished();
    // She is still alive: a message wakes her and her model is called again.
    run.rt.send_as(&AgentName::lead(), &name("alice"), "try again").unwrap();
    run.ex.run_until_stalled();
    assert_eq!(model.requests_of("alice").len(), 2);
}

#[test]
fn a_lead_model_network_error_is_recorded_and_the_run_still_ends() {
    let model = Misbehaving::new().script("lead", vec![Canned::fail(ModelError::Network("timed out".into()))]);
    let run = live(model.clone());
    run.prompt("Do something.");
    let trace = run.rt.trace();
    let failed = trace.entries().iter().filter(|e| matches!(&e.event, Event::ModelFailed { agent, .. } if agent.is_lead())).count();
    assert_eq!(failed, 1);
    run.assert_finished();
    // The lead's loop survives: the next prompt reaches its model.
    run.prompt("Try again.");
    let requests = model.requests_of("lead");
    assert_eq!(requests.len(), 2);
    let text: Vec<String> = requests[1].messages.iter().map(|t| t.text()).collect();
    assert!(text.join("\n").contains("Do something.") && text.join("\n").contains("Try again."), "{text:?}");
    run.assert_finished();
    assert_eq!(run.rt.trace().entries().iter().filter(|e| e.event == Event::RunFinished).count(), 2);
}

// ---------------------------------------------------------------------------
// 2. Step mode and Stop.
// ---------------------------------------------------------------------------

fn scripted(seed: u64, mode: Mode) -> Run {
    start(Rc::new(ScriptedModel), RuntimeConfig { seed, mode, ..RuntimeConfig::default() })
}

fn run_live(scenario: Scenario, seed: u64) -> Run {
    let run = scripted(seed, Mode::Live);
    for p in scenario.prompts {
        run.prompt(p);
    }
    run
}

/// Which turn a group of events is: the agent and the kind of turn.
fn classify(events: &[Event]) -> Result<(AgentName, TurnKind), String> {
    let events = match events.split_last() {
        Some((Event::RunFinished, rest)) => rest,
        _ => events,
    };
    let status_of = |e: &Event, who: &AgentName| matches!(e, Event::MemberStatusChanged { name, .. } if name == who);
    // What may follow a model reply or a tool result in the same turn: the
    // agent going idle or shutting down.
    let tail_ok = |rest: &[Event], who: &AgentName| rest.len() <= 1 && rest.iter().all(|e| status_of(e, who));
    match events.first() {
        // The lead's prompt delivery: the prompt was recorded by RunStarted.
        None => Ok((AgentName::lead(), TurnKind::Deliver)),
        Some(Event::ModelCalled { agent }) => match events.get(1) {
            Some(Event::ModelReplied { agent: a, .. } | Event::ModelFailed { agent: a, .. })
                if a == agent && tail_ok(&events[2..], agent) =>
            {
                Ok((agent.clone(), TurnKind::ModelCall))
            }
            _ => Err("a model turn is ModelCalled, its reply, then at most a status change".into()),
        },
        Some(Event::ToolCalled { agent, tool_use_id, tool, .. }) => {
            let end = events
                .iter()
                .position(|e| matches!(e, Event::ToolReturned { tool_use_id: id, agent: a, .. } if id == tool_use_id && a == agent))
                .ok_or("a tool turn ends with its ToolReturned")?;
            let inside_ok = events[1..end].iter().all(|e| {
                matches!(
                    e,
                    Event::MemberSpawned { .. }
                        | Event::MessageSent { .. }
                        | Event::RequestCreated { .. }
                        | Event::RequestTransitioned { .. }
                        | Event::InboxDrained { .. }
                )
            });
            if inside_ok && tail_ok(&events[end + 1..], agent) {
                Ok((agent.clone(), TurnKind::Tool { name: tool.clone() }))
            } else {
                Err("a tool turn holds only its protocol events".into())
            }
        }
        Some(Event::MemberStatusChanged { name: who, .. } | Event::InboxDrained { agent: who, .. }) => {
            let only_mine = events.iter().all(|e| status_of(e, who) || matches!(e, Event::InboxDrained { agent, .. } if agent == who));
            let drains = events.iter().filter(|e| matches!(e, Event::InboxDrained { .. })).count();
            let statuses = events.len() - drains;
            if only_mine && drains <= 1 && statuses <= 1 {
                Ok((who.clone(), TurnKind::Deliver))
            } else {
                Err("a delivery is one drain of one inbox, with at most a status change".into())
            }
        }
        Some(_) => Err("no turn starts with this event".into()),
    }
}

/// Runs `scenario` in Step mode, checking that each step releases exactly one
/// event (`Runtime::released` grows by one), that the team takes no turn
/// while an event it recorded waits to be released, and that what a step
/// lets the team record is one turn; returns the run and how many steps it
/// took.
fn step_through(scenario: Scenario, seed: u64) -> (Run, usize) {
    let run = scripted(seed, Mode::Step);
    let mut steps = 0;
    for p in scenario.prompts {
        let before = run.rt.trace().len();
        run.prompt(p);
        let trace = run.rt.trace();
        let new: Vec<&Event> = trace.entries()[before..].iter().map(|e| &e.event).collect();
        assert_eq!(new, [&Event::RunStarted { prompt: p.to_string() }], "{}: nothing runs before the first step", scenario.id);
        assert_eq!(run.rt.released(), trace.len(), "{}: the prompt shows at once", scenario.id);
        assert!(run.rt.is_running());
        loop {
            let (len, released) = (run.rt.trace().len(), run.rt.released());
            let waiting = run.rt.waiting();
            if !run.rt.step() {
                assert_eq!(released, len, "{}: step refused with events to release", scenario.id);
                assert!(waiting.is_empty(), "{}: step refused with turns waiting: {waiting:?}", scenario.id);
                break;
            }
            steps += 1;
            run.ex.run_until_stalled();
            let trace = run.rt.trace();
            assert_eq!(run.rt.released(), released + 1, "{}: step {steps} releases exactly one event", scenario.id);
            if released < len {
                assert_eq!(trace.len(), len, "{}: step {steps}: no turn runs while an event waits to be released", scenario.id);
                continue;
            }
            let group: Vec<Event> = trace.entries()[len..].iter().map(|e| e.event.clone()).collect();
            assert!(!group.is_empty(), "{}: step {steps} released an event, so one was recorded", scenario.id);
            classify(&group).unwrap_or_else(|e| panic!("{}: step {steps}: {e}: {group:?}", scenario.id));
        }
        assert!(!run.rt.is_running(), "{}: the run ends when nothing is left to step", scenario.id);
    }
    (run, steps)
}

#[test]
fn step_mode_runs_nothing_until_stepped() {
    let run = scripted(SEED, Mode::Step);
    run.prompt(scenarios::SHUTDOWN.prompts[0]);
    // More polling changes nothing either.
    run.ex.run_until_stalled();
    let events: Vec<Event> = run.rt.trace().entries().iter().map(|e| e.event.clone()).collect();
    assert_eq!(events, [Event::RunStarted { prompt: scenarios::SHUTDOWN.prompts[0].to_string() }]);
    assert_eq!(run.rt.waiting(), [(AgentName::lead(), TurnKind::Deliver)]);
}

#[test]
fn each_step_releases_exactly_one_event_and_every_event_gets_its_step() {
    for scenario in scenarios::ALL {
        let (run, steps) = step_through(scenario, SEED);
        // Every event but each prompt's RunStarted (shown when it is given).
        let trace = run.rt.trace();
        let started = trace.entries().iter().filter(|e| matches!(e.event, Event::RunStarted { .. })).count();
        assert_eq!(steps, trace.len() - started, "{}: one step per event", scenario.id);
        run.assert_finished();
    }
}

#[test]
fn in_step_mode_an_answer_by_hand_shows_at_once_up_to_its_first_event_and_next_releases_the_rest() {
    let run = scripted(SEED, Mode::Step);
    run.prompt(scenarios::SHUTDOWN.prompts[0]);
    // Step until the shutdown request is released.
    while run.rt.with_team(|t| t.tracker().pending().next().is_none()) || run.rt.unreleased() > 0 {
        assert!(run.rt.step(), "the request is made");
        run.ex.run_until_stalled();
    }
    let id = run.rt.with_team(|t| t.tracker().pending().next().unwrap().id.clone());
    let before = run.rt.trace().len();
    run.rt.answer_as(&name("alice"), id.as_str(), true, "by hand").unwrap();
    run.ex.run_until_stalled();
    assert_eq!(run.rt.released(), before + 1, "the answer's first event shows at once");
    let first = run.rt.trace().entries()[before].event.clone();
    assert!(matches!(first, Event::RequestTransitioned { to: RequestStatus::Approved, .. }), "{first:?}");
    assert!(run.rt.unreleased() > 0, "its response message waits for Next");
    assert!(run.rt.step());
    run.ex.run_until_stalled();
    assert!(matches!(&run.rt.trace().entries()[before + 1].event, Event::MessageSent { .. }));
    assert_eq!(run.rt.released(), before + 2);
    while run.rt.step() {
        run.ex.run_until_stalled();
    }
    run.assert_finished();
    assert_eq!(check(&run.rt.trace()), vec![]);
}

#[test]
fn going_live_releases_every_event_and_going_step_holds_back_only_what_comes_next() {
    let run = scripted(SEED, Mode::Step);
    run.prompt(scenarios::SHUTDOWN.prompts[0]);
    for _ in 0..6 {
        assert!(run.rt.step());
        run.ex.run_until_stalled();
    }
    assert_eq!(run.rt.released(), 7);
    run.rt.set_mode(Mode::Live);
    run.ex.run_until_stalled();
    assert_eq!(run.rt.released(), run.rt.trace().len(), "Live shows everything");
    assert!(!run.rt.is_running());
    run.rt.set_mode(Mode::Step);
    assert_eq!(run.rt.released(), run.rt.trace().len(), "what was shown stays shown");
}

#[test]
fn stepping_to_the_end_gives_the_live_trace() {
    for scenario in scenarios::ALL {
        for seed in [SEED, 1, 0xFEED_BEEF] {
            let live = run_live(scenario, seed);
            let (stepped, _) = step_through(scenario, seed);
            assert_eq!(stepped.rt.with_team(|t| t.roster().clone()), live.rt.with_team(|t| t.roster().clone()), "{}: roster", scenario.id);
            assert_eq!(
                stepped.rt.with_team(|t| t.tracker().clone()),
                live.rt.with_team(|t| t.tracker().clone()),
                "{}: tracker",
                scenario.id
            );
            assert_eq!(stepped.rt.trace().to_json(), live.rt.trace().to_json(), "{} seed {seed}: identical trace", scenario.id);
        }
    }
}

#[test]
fn stop_ends_every_task_and_leaves_no_tool_half_run() {
    for scenario in [scenarios::SHUTDOWN, scenarios::REJECT_THEN_ACCEPT, scenarios::OUT_OF_ORDER] {
        let (full, steps) = step_through(scenario, SEED);
        let full = full.rt.trace();
        for stop_after in 0..=steps {
            let run = scripted(SEED, Mode::Step);
            run.prompt(scenario.prompts[0]);
            for _ in 0..stop_after {
                if !run.rt.step() {
                    break;
                }
                run.ex.run_until_stalled();
            }
            let before = run.rt.trace();
            run.rt.stop();
            run.ex.run_until_stalled();
            let ctx = format!("{} stopped after {stop_after} steps", scenario.id);
            assert!(run.rt.is_stopped(), "{ctx}");
            assert_eq!(run.rt.live_tasks(), 0, "{ctx}: runtime tasks");
            assert_eq!(run.ex.live_tasks(), 0, "{ctx}: executor tasks");
            let trace = run.rt.trace();
            assert_eq!(trace, before, "{ctx}: stopping records nothing");
            assert_eq!(full.entries()[..trace.len()], *trace.entries(), "{ctx}: the stopped run is a prefix of the full run");
            let calls = trace.entries().iter().filter(|e| matches!(e.event, Event::ToolCalled { .. })).count();
            let returns = trace.entries().iter().filter(|e| matches!(e.event, Event::ToolReturned { .. })).count();
            assert_eq!(calls, returns, "{ctx}: every ToolCalled has its ToolReturned");
            assert!(!run.rt.step(), "{ctx}: nothing is released after stop");
            assert_eq!(run.rt.submit_prompt("again"), Err(RuntimeError::Stopped), "{ctx}");
        }
    }
}

#[test]
fn stop_after_a_live_run_ends_the_parked_tasks() {
    let run = run_live(scenarios::REJECT_PLAN, SEED);
    assert!(run.rt.live_tasks() >= 1, "the lead is parked, waiting for a prompt");
    run.rt.stop();
    run.ex.run_until_stalled();
    assert_eq!(run.rt.live_tasks(), 0);
    assert_eq!(run.ex.live_tasks(), 0);
}

// ---------------------------------------------------------------------------
// 3. Determinism.
// ---------------------------------------------------------------------------

#[test]
fn the_same_seed_gives_a_byte_identical_trace() {
    for scenario in scenarios::ALL {
        let a = run_live(scenario, SEED).rt.trace().to_json();
        let b = run_live(scenario, SEED).rt.trace().to_json();
        assert!(a == b, "{}: two runs with seed {SEED} differ", scenario.id);
    }
    // ...and the seed matters, so the comparison above is not vacuous.
    let first = run_live(scenarios::OUT_OF_ORDER, SEED).rt.trace().to_json();
    assert!((0..8).any(|seed| run_live(scenarios::OUT_OF_ORDER, seed).rt.trace().to_json() != first));
}

/// Teammates whose latest shutdown request was approved and who were not
/// spawned again afterwards: they must have shut down.
fn approved_shutdowns(trace: &Trace) -> Vec<AgentName> {
    let mut out: BTreeMap<AgentName, bool> = BTreeMap::new();
    for e in trace.entries() {
        match &e.event {
            Event::RequestTransitioned { request_kind: RequestKind::SHUTDOWN, by, to: RequestStatus::Approved, .. } => {
                out.insert(by.clone(), true);
            }
            Event::MemberSpawned { name, .. } => {
                out.insert(name.clone(), false);
            }
            _ => {}
        }
    }
    out.into_iter().filter(|(_, approved)| *approved).map(|(who, _)| who).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_seed_and_scenario_keeps_the_protocol_rules(seed in any::<u64>()) {
        for scenario in scenarios::ALL {
            let run = run_live(scenario, seed);
            let trace = run.rt.trace();
            prop_assert_eq!(check(&trace), vec![], "{} seed {}", scenario.id, seed);
            prop_assert!(!run.rt.is_running(), "{} seed {}: the run ends", scenario.id, seed);
            let replayed = Team::replay(&trace).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(replayed.state(), &run.state(), "{} seed {}: replay equals live state", scenario.id, seed);
            prop_assert!(run.silent_changes.borrow().is_empty(), "{} seed {}: state changed without an event", scenario.id, seed);
            let roster = run.rt.with_team(|t| t.roster().clone());
            let working: Vec<&Member> = roster.members.iter().filter(|m| m.status == MemberStatus::Working).collect();
            prop_assert!(working.is_empty(), "{} seed {}: nobody works once the run is over: {:?}", scenario.id, seed, working);
            for who in approved_shutdowns(&trace) {
                prop_assert_eq!(roster.status(&who), Some(MemberStatus::Shutdown), "{} seed {}: {} approved its shutdown", scenario.id, seed, who);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 4. A human answers through the protocol path.
// ---------------------------------------------------------------------------

/// The lead spawns alice and asks her to shut down; alice never answers.
fn unanswered_shutdown() -> (Run, Rc<Misbehaving>, String) {
    let model = Misbehaving::new().script(
        "lead",
        vec![spawn("t_spawn", "alice", false), Canned::tools(&[("t_ask", "shutdown_request", json!({ "teammate": "alice" }))])],
    );
    let run = live(model.clone());
    run.prompt("Spawn alice, then request her shutdown.");
    run.assert_finished();
    let pending: Vec<(String, RequestStatus)> = run.rt.with_team(|t| t.tracker().iter().map(|r| (r.id.to_string(), r.status)).collect());
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].1, RequestStatus::Pending, "alice ignored the request");
    assert_eq!(run.status("alice"), Some(MemberStatus::Idle));
    let id = pending[0].0.clone();
    (run, model, id)
}

#[test]
fn a_request_answered_by_hand_moves_and_the_teammate_exits() {
    let (run, model, id) = unanswered_shutdown();
    let lead_calls = model.requests_of("lead").len();
    assert_eq!(run.rt.answer_as(&name("alice"), &id, true, "done by hand"), Ok(RequestStatus::Approved));
    let request = run.rt.with_team(|t| t.request(&RequestId::parse(&id).unwrap()).cloned()).unwrap();
    assert_eq!(request.status, RequestStatus::Approved, "the answer moves the request at once");
    assert_eq!(request.transitions.last().map(|t| t.by.clone()), Some(name("alice")));
    run.ex.run_until_stalled();
    assert_eq!(run.status("alice"), Some(MemberStatus::Shutdown), "alice acts on the approval and exits");
    assert_eq!(run.rt.live_tasks(), 1, "only the lead's task is left");
    // Same path as a model's answer: a shutdown_response message reaches the lead, who reads it.
    let trace = run.rt.trace();
    let response = trace.entries().iter().find_map(|e| match &e.event {
        Event::MessageSent { message } if message.msg_type == MessageType::SHUTDOWN_RESPONSE => Some(message.clone()),
        _ => None,
    });
    let response = response.expect("a shutdown_response is sent");
    assert_eq!((response.from.as_str(), response.to.as_str(), response.approve), ("alice", "lead", Some(true)));
    assert_eq!(response.request_id.map(|r| r.to_string()), Some(id.clone()));
    assert!(model.requests_of("lead").len() > lead_calls, "the lead is woken by the answer");
    assert_eq!(Team::replay(&trace).unwrap().state().clone(), run.state());
    // The only violation is the honest one: the request was pending when the first run finished.
    let kinds: Vec<ViolationKind> = check(&trace).into_iter().map(|v| v.kind).collect();
    assert_eq!(kinds, [ViolationKind::LeftPending]);
}

#[test]
fn answering_a_request_by_hand_twice_is_refused() {
    let (run, _model, id) = unanswered_shutdown();
    run.rt.answer_as(&name("alice"), &id, true, "yes").unwrap();
    run.ex.run_until_stalled();
    let (state, len) = (run.state(), run.rt.trace().len());
    let err = run.rt.answer_as(&name("alice"), &id, false, "no, wait").unwrap_err();
    assert!(matches!(err, RuntimeError::Team(TeamError::Tracker(_))), "the tracker refuses it: {err:?}");
    let msg = err.to_string();
    assert!(msg.contains(&id) && msg.contains("already approved"), "a clear reason: {msg}");
    run.ex.run_until_stalled();
    assert_eq!(run.state(), state, "a refused answer changes nothing");
    assert_eq!(run.rt.trace().len(), len, "a refused answer records nothing");
    assert_eq!(run.status("alice"), Some(MemberStatus::Shutdown));
}

#[test]
fn a_hand_answer_from_the_wrong_agent_or_to_an_unknown_id_is_refused() {
    let (run, _model, id) = unanswered_shutdown();
    let (state, len) = (run.state(), run.rt.trace().len());
    let err = run.rt.answer_as(&AgentName::lead(), &id, true, "").unwrap_err();
    assert!(err.to_string().contains("addressed to 'alice'"), "{err}");
    let err = run.rt.answer_as(&name("alice"), "0badf00d", true, "").unwrap_err();
    assert!(err.to_string().contains("unknown request_id '0badf00d'"), "{err}");
    let err = run.rt.answer_as(&name("alice"), "not-an-id", true, "").unwrap_err();
    assert!(matches!(err, RuntimeError::BadRequestId(_)), "{err:?}");
    run.ex.run_until_stalled();
    assert_eq!(run.state(), state);
    assert_eq!(run.rt.trace().len(), len);
}

#[test]
fn a_lesson_hand_answer_with_its_one_field_is_the_answer_with_its_text() {
    // The request panel's form sends the answer's fields; the lesson's one
    // field, `reason`, goes the way `answer_as` takes its text.
    let answered = |with_fields: bool| {
        let (run, _model, id) = unanswered_shutdown();
        let status = if with_fields {
            let mut fields = Fields::new();
            fields.set("reason", FieldValue::Text("done by hand".into()));
            run.rt.answer_as_with_fields(&name("alice"), &id, true, fields)
        } else {
            run.rt.answer_as(&name("alice"), &id, true, "done by hand")
        };
        assert_eq!(status, Ok(RequestStatus::Approved));
        run.ex.run_until_stalled();
        assert_eq!(run.status("alice"), Some(MemberStatus::Shutdown), "alice exits");
        run.rt.trace().entries().to_vec()
    };
    assert_eq!(answered(true), answered(false));
    // A field the lesson's answer does not have is refused, nothing recorded.
    let (run, _model, id) = unanswered_shutdown();
    let len = run.rt.trace().len();
    let mut fields = Fields::new();
    fields.set("severity", FieldValue::Text("minor".into()));
    let err = run.rt.answer_as_with_fields(&name("alice"), &id, true, fields).unwrap_err();
    assert!(err.to_string().contains("no field 'severity'"), "{err}");
    assert_eq!(run.rt.trace().len(), len);
}

#[test]
fn a_hand_answer_to_a_request_made_to_a_teammates_earlier_run_is_refused_as_stale() {
    // The lead asks alice to shut down, she never answers, and the lead
    // spawns her again: the request was made to her first run.
    let model = Misbehaving::new().script(
        "lead",
        vec![
            spawn("t_spawn", "alice", false),
            Canned::tools(&[("t_ask", "shutdown_request", json!({ "teammate": "alice" }))]),
            Canned::when(
                |r| r.messages.iter().any(|t| t.text().contains("Spawn her again")),
                |_| Ok(tool_use(&[("t_respawn", "spawn_teammate", json!({ "name": "alice", "role": "coder", "prompt": "Start over." }))])),
            ),
        ],
    );
    let run = live(model.clone());
    run.prompt("Spawn alice, then request her shutdown.");
    run.assert_finished();
    run.prompt("Spawn her again.");
    run.assert_finished();
    assert_eq!(model.left("lead"), 0, "the lead did all three");
    let (id, incarnation) = run
        .rt
        .with_team(|t| (t.tracker().iter().next().map(|r| r.id.to_string()).unwrap(), t.roster().get(&name("alice")).unwrap().incarnation));
    assert_eq!(incarnation, 2, "alice was restarted");
    let (state, len) = (run.state(), run.rt.trace().len());
    let err = run.rt.answer_as(&name("alice"), &id, true, "yes").unwrap_err();
    assert!(matches!(err, RuntimeError::Team(TeamError::StaleRequest { addressed: 1, current: 2, .. })), "{err:?}");
    assert!(err.to_string().contains(&id), "the error names the request: {err}");
    run.ex.run_until_stalled();
    assert_eq!(run.state(), state, "a stale answer changes nothing");
    assert_eq!(run.rt.trace().len(), len, "a stale answer records nothing");
    assert_ne!(run.status("alice"), Some(MemberStatus::Shutdown), "the new run of alice does not exit");
}

#[test]
fn a_message_sent_by_hand_wakes_an_idle_teammate() {
    let (run, model, _id) = unanswered_shutdown();
    let calls = model.requests_of("alice").len();
    run.rt.send_as(&AgentName::lead(), &name("alice"), "please report").unwrap();
    run.ex.run_until_stalled();
    assert_eq!(model.requests_of("alice").len(), calls + 1, "alice's model is called again");
    let last = model.requests_of("alice").pop().unwrap();
    assert!(delivered(&last).iter().any(|m| m["content"] == "please report"), "the message is in her conversation");
    assert_eq!(run.status("alice"), Some(MemberStatus::Idle), "she goes idle again");
    let err = run.rt.send_as(&AgentName::lead(), &name("zed"), "hello").unwrap_err();
    assert!(err.to_string().contains("'zed'"), "{err}");
}

/// A model whose call never finishes and never looks at its cancel token,
/// like a request to a server that hangs.
struct Hung;

impl Model for Hung {
    fn label(&self) -> String {
        "hung".into()
    }
    fn complete<'a>(&'a self, _: &'a ModelRequest, _: TextSink, _: CancelToken) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(std::future::pending())
    }
}

#[test]
fn stop_ends_a_task_whose_model_call_hangs() {
    let run = live(Rc::new(Hung));
    run.prompt("anything");
    assert_eq!(run.rt.live_tasks(), 1, "the lead waits on its model");
    let before = run.rt.trace().len();
    run.rt.stop();
    run.ex.run_until_stalled();
    assert_eq!(run.rt.live_tasks(), 0);
    assert_eq!(run.ex.live_tasks(), 0);
    let trace = run.rt.trace();
    assert_eq!(trace.len(), before, "a cancelled call records no reply");
    assert!(trace.entries().iter().all(|e| !matches!(e.event, Event::ModelReplied { .. } | Event::ModelFailed { .. })));
}

// ---------------------------------------------------------------------------
// 5. The words a model reads.
// ---------------------------------------------------------------------------

/// Every tool result of `trace`, by tool_use_id: (output, is_error).
fn tool_results(trace: &Trace) -> BTreeMap<String, (String, bool)> {
    trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ToolReturned { tool_use_id, output, is_error, .. } => Some((tool_use_id.clone(), (output.clone(), *is_error))),
            _ => None,
        })
        .collect()
}

#[test]
fn every_tool_answers_in_the_words_models_read() {
    let model = Misbehaving::new()
        .script(
            "lead",
            vec![
                Canned::tools(&[
                    ("t_spawn_alice", "spawn_teammate", json!({ "name": "alice", "role": "coder", "prompt": "Say hi." })),
                    ("t_spawn_bob", "spawn_teammate", json!({ "name": "bob", "role": "planner", "prompt": "Plan.", "plan_mode": true })),
                    ("t_spawn_empty", "spawn_teammate", json!({ "name": "carol", "role": "coder", "prompt": "  " })),
                    ("t_spawn_bad_name", "spawn_teammate", json!({ "name": "", "role": "coder", "prompt": "p" })),
                    ("t_send", "send_message", json!({ "to": "alice", "content": "hi" })),
                    ("t_send_bad_name", "send_message", json!({ "to": "a b", "content": "hi" })),
                    ("t_send_protocol", "send_message", json!({ "to": "alice", "content": "x", "msg_type": "shutdown_request" })),
                    ("t_broadcast", "broadcast", json!({ "content": "all hands" })),
                    ("t_ask", "shutdown_request", json!({ "teammate": "alice" })),
                    ("t_ask_lead", "shutdown_request", json!({ "teammate": "lead" })),
                    ("t_status_bad_id", "shutdown_response", json!({ "request_id": "nothex" })),
                    ("t_status_unknown", "shutdown_response", json!({ "request_id": "0badf00d" })),
                    ("t_review_bad_id", "plan_approval", json!({ "request_id": "x", "approve": true })),
                    ("t_write", "write_file", json!({ "path": "a.txt", "content": "one\ntwo\n" })),
                    ("t_read", "read_file", json!({ "path": "a.txt", "limit": 1 })),
                    ("t_edit", "edit_file", json!({ "path": "a.txt", "old_text": "two", "new_text": "three" })),
                    ("t_read_missing", "read_file", json!({ "path": "nope.txt" })),
                    ("t_list_files", "list_files", json!({})),
                ]),
                on_received("plan_approval_request", |id| {
                    vec![("t_review", "plan_approval", json!({ "request_id": id, "approve": true, "feedback": "go" }))]
                }),
                on_received("shutdown_response", |id| vec![("t_status", "shutdown_response", json!({ "request_id": id }))]),
            ],
        )
        .script("bob", vec![Canned::tools(&[("t_plan", "plan_approval", json!({ "plan": "Do it." }))])])
        .script(
            "alice",
            vec![on_received("shutdown_request", |id| {
                vec![
                    ("t_inbox", "read_inbox", json!({})),
                    ("t_answer", "shutdown_response", json!({ "request_id": id, "approve": true, "reason": "done" })),
                ]
            })],
        );
    let run = live(model.clone());
    run.prompt("Exercise every tool.");
    run.assert_finished();
    let trace = run.rt.trace();
    let results = tool_results(&trace);
    let out = |id: &str| results.get(id).cloned().unwrap_or_else(|| panic!("{id} never returned: {results:#?}"));
    let ok = |id: &str, text: &str| assert_eq!(out(id), (text.to_string(), false), "{id}");
    let err = |id: &str, text: &str| assert_eq!(out(id), (format!("Error: {text}"), true), "{id}");
    let ids: Vec<(RequestKind, String)> = run.rt.with_team(|t| t.tracker().iter().map(|r| (r.kind, r.id.to_string())).collect());
    let shutdown_id = &ids.iter().find(|r| r.0 == RequestKind::SHUTDOWN).unwrap().1;
    let plan_id = &ids.iter().find(|r| r.0 == RequestKind::PLAN).unwrap().1;

    ok("t_spawn_alice", "Spawned 'alice' (role: coder)");
    ok("t_spawn_bob", "Spawned 'bob' (role: planner, plan mode)");
    err("t_spawn_empty", "give 'carol' a prompt: what should it work on?");
    err("t_spawn_bad_name", "an agent name cannot be empty");
    ok("t_send", "Sent message to alice");
    err("t_send_bad_name", "agent name \"a b\" contains whitespace or a control character; use letters, digits, '-' or '_'");
    err("t_send_protocol", "a shutdown_request cannot be sent as a plain message; use the shutdown_request tool");
    ok("t_broadcast", "Broadcast to 2 teammates");
    ok("t_ask", &format!("Shutdown request {shutdown_id} sent to 'alice' (status: pending)"));
    err("t_ask_lead", "no teammate named 'lead'");
    err("t_status_bad_id", "'nothex' is not a request_id: a request_id is 8 lowercase hex characters, e.g. 'a1b2c3d4'");
    err("t_status_unknown", "unknown shutdown request_id '0badf00d'");
    err("t_review_bad_id", "'x' is not a request_id: a request_id is 8 lowercase hex characters, e.g. 'a1b2c3d4'");
    ok("t_write", "Wrote 8 bytes to a.txt");
    ok("t_read", "one\n... (1 more lines)");
    ok("t_edit", "Edited a.txt");
    err("t_read_missing", "no file at 'nope.txt'; call list_files to see which files exist");
    ok("t_list_files", "a.txt (10 bytes)");
    ok("t_plan", &format!("Plan submitted (request_id={plan_id}). Waiting for lead approval."));
    ok("t_review", "Plan approved for 'bob'");
    ok("t_answer", "Shutdown approved");
    ok("t_status", "{\"status\":\"approved\",\"target\":\"alice\"}");
    ok("t_inbox", "[]");
}

// ---------------------------------------------------------------------------
// 6. Time and bad settings never break the runtime.
// ---------------------------------------------------------------------------

/// Steps a Step-mode run until nothing is waiting, at most `max` steps, so a
/// run that would never end fails the test instead of hanging it.
fn step_until_quiet(run: &Run, max: usize) -> usize {
    let mut steps = 0;
    run.ex.run_until_stalled();
    while run.rt.step() {
        steps += 1;
        assert!(steps <= max, "the run is still going after {max} steps");
        run.ex.run_until_stalled();
    }
    steps
}

#[test]
fn a_delay_rule_too_long_to_run_is_refused_with_its_rule_number_not_a_panic_or_a_hang() {
    for ms in [u64::MAX, 1 << 63] {
        let ok_rule = FaultRule { msg_type: Some(MessageType::Message), ..FaultRule::new(FaultAction::Drop) };
        let faults = FaultPlan::new(vec![ok_rule, FaultRule::new(FaultAction::Delay { ms })]);
        let run = start(Rc::new(ScriptedModel), RuntimeConfig { seed: SEED, mode: Mode::Step, faults, ..RuntimeConfig::default() });
        let err = run.rt.submit_prompt(scenarios::SHUTDOWN.prompts[0]).unwrap_err();
        assert!(matches!(err, RuntimeError::BadFaultRule { index: 2, .. }), "{err:?}");
        assert_eq!(err.to_string(), format!("fault rule 2 cannot run: a delay of {ms} ms is too long; the most is 600000 ms"));
        assert_eq!(step_until_quiet(&run, 1000), 0, "nothing runs");
        assert!(!run.rt.is_running());
        assert!(run.rt.trace().is_empty(), "a refused run records nothing");
        // Work by hand is refused the same way.
        let err = run.rt.send_as(&AgentName::lead(), &AgentName::lead(), "hi").unwrap_err();
        assert!(matches!(err, RuntimeError::BadFaultRule { index: 2, .. }), "{err:?}");
        assert!(run.rt.trace().is_empty());
    }
}

/// A wall clock that starts near the end of time, moves 997 ms at each
/// reading and wraps around on overflow, as the virtual clock once did: its
/// time jumps backwards.
struct WrappingClock(std::cell::Cell<u64>);

impl team_protocols::runtime::clock::Clock for WrappingClock {
    fn now(&self) -> Millis {
        let now = self.0.get();
        self.0.set(now.wrapping_add(997));
        Millis(now)
    }
}

#[test]
fn a_clock_that_jumps_backwards_cannot_move_the_trace_backwards_or_break_the_run() {
    for scenario in [scenarios::SHUTDOWN, scenarios::OUT_OF_ORDER] {
        let ex = LocalExecutor::new();
        let clock = Rc::new(WrappingClock(std::cell::Cell::new(u64::MAX - 2_000)));
        let host = Host { spawner: Rc::new(ex.clone()), clock: Some(clock), sleeper: Rc::new(NoSleep) };
        let delay = FaultRule { msg_type: Some(MessageType::SHUTDOWN_RESPONSE), ..FaultRule::new(FaultAction::Delay { ms: 600_000 }) };
        let config = RuntimeConfig { seed: SEED, mode: Mode::Step, faults: FaultPlan::new(vec![delay]), ..RuntimeConfig::default() };
        let rt = Runtime::new(config, Rc::new(ScriptedModel), host);
        let run = Run { ex, rt, silent_changes: Rc::default() };
        for prompt in scenario.prompts {
            run.rt.submit_prompt(prompt).unwrap();
            step_until_quiet(&run, 5_000);
        }
        let trace = run.rt.trace();
        assert!(!run.rt.is_running(), "{}: the run ends", scenario.id);
        assert_eq!(run.rt.failure(), None, "{}", scenario.id);
        assert!(matches!(trace.entries().last().map(|e| &e.event), Some(Event::RunFinished)), "{}", scenario.id);
        assert!(trace.entries().windows(2).all(|w| w[0].time <= w[1].time), "{}: time never goes backwards", scenario.id);
        assert_eq!(check(&trace), vec![], "{}", scenario.id);
        assert_eq!(Team::replay(&trace).unwrap().state().clone(), run.state(), "{}", scenario.id);
    }
}

#[test]
fn list_teammates_names_the_team_and_each_member_with_role_and_status() {
    let model = Misbehaving::new().script(
        "lead",
        vec![Canned::tools(&[
            ("t_list_empty", "list_teammates", json!({})),
            ("t_spawn_alice", "spawn_teammate", json!({ "name": "alice", "role": "coder", "prompt": "Say hi." })),
            ("t_spawn_bob", "spawn_teammate", json!({ "name": "bob", "role": "planner", "prompt": "Plan.", "plan_mode": true })),
            ("t_list", "list_teammates", json!({})),
        ])],
    );
    let run = live(model.clone());
    run.prompt("Who is on the team?");
    run.assert_finished();
    let trace = run.rt.trace();
    let results = tool_results(&trace);
    assert_eq!(results["t_list_empty"], ("No teammates.".to_string(), false));
    // Each status as the roster had it when the tool ran (alice may have
    // gone idle already: that is the scheduler's business, not the tool's).
    let listed = trace
        .entries()
        .iter()
        .position(|e| matches!(&e.event, Event::ToolReturned { tool_use_id, .. } if tool_use_id == "t_list"))
        .unwrap();
    let then = Team::replay(&trace.prefix(listed)).unwrap();
    let status = |who: &str| then.roster().status(&name(who)).unwrap();
    let want = format!("Team: default\n  alice (coder): {}\n  bob (planner): {}", status("alice"), status("bob"));
    assert_eq!(results["t_list"], (want, false));
}

// ---------------------------------------------------------------------------
// 4. The run's budget.
// ---------------------------------------------------------------------------

use team_protocols::runtime::budget::{Budget, Rates};

fn tokens_of(event: &Event) -> u64 {
    match event {
        Event::ModelReplied { input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, .. } => {
            input_tokens + output_tokens + cache_read_tokens + cache_write_tokens
        }
        _ => 0,
    }
}

/// The scripted shutdown scenario under `budget`, run to a stall.
fn budgeted(budget: Budget, rates: Option<Rates>) -> Run {
    let run = start(Rc::new(ScriptedModel), RuntimeConfig { seed: SEED, budget: Some(budget), rates, ..RuntimeConfig::default() });
    run.prompt(scenarios::SHUTDOWN.prompts[0]);
    run
}

/// Checks a run `budgeted` stopped against the same run without a budget:
/// the stop is the last event, the run stopped as Stop stops, it is the
/// full run's prefix, the held-back call was never made, and the run never
/// spent more than its cap. Returns whether alice was still working.
fn check_stopped_under_cap(run: &Run, full: &Trace, cap: u64, ctx: &str) -> bool {
    let trace = run.rt.trace();
    let entries = trace.entries();
    let (last, before) = entries.split_last().expect("the run recorded something");
    let Event::BudgetReached { agent, limit, spent, expected, unpriced } = &last.event else {
        panic!("{ctx}: the budget's stop is the last event, got {:?}", last.event)
    };
    // Stopped as Stop stops: every loop ended, every task gone, nothing
    // more released or accepted.
    assert!(run.rt.is_stopped(), "{ctx}");
    assert_eq!(run.rt.live_tasks(), 0, "{ctx}: runtime tasks");
    assert_eq!(run.ex.live_tasks(), 0, "{ctx}: executor tasks");
    assert_eq!(run.rt.submit_prompt("again"), Err(RuntimeError::Stopped), "{ctx}");
    // The stop is before the call: the run is the full run's prefix, and
    // the call held back was never made.
    assert_eq!(full.entries()[..before.len()], *before, "{ctx}: the stopped run is a prefix of the full run");
    assert!(
        matches!(&full.entries()[before.len()].event, Event::ModelCalled { agent: a } if a == agent),
        "{ctx}: {agent}'s call is what was held back"
    );
    // The rule: what the run spent never passes its cap, and the call held
    // back could have passed it.
    let so_far: u64 = before.iter().map(|e| tokens_of(&e.event)).sum();
    assert!(so_far <= cap, "{ctx}: the run spent {so_far}, past its cap");
    assert_eq!((*limit, *spent, *unpriced), (BudgetLimit::Tokens(cap), so_far, false), "{ctx}");
    assert!(spent + expected > cap, "{ctx}: the held-back call could have passed the cap ({spent} + {expected})");
    // No tool half run; the trace replays (import carries the stop).
    let calls = before.iter().filter(|e| matches!(e.event, Event::ToolCalled { .. })).count();
    let returns = before.iter().filter(|e| matches!(e.event, Event::ToolReturned { .. })).count();
    assert_eq!(calls, returns, "{ctx}: every ToolCalled has its ToolReturned");
    assert!(run.silent_changes.borrow().is_empty(), "{ctx}");
    assert_eq!(Team::replay(&trace).unwrap().state().clone(), run.state(), "{ctx}: replay equals the live state");
    let json = trace.to_json();
    assert!(json.contains("\"budget_reached\""), "{ctx}");
    assert_eq!(Trace::from_json(&json).unwrap(), trace, "{ctx}: the stop survives export and import");
    let exported = team_protocols::view::export::trace_json(&trace);
    assert_eq!(team_protocols::view::export::import_json(&exported).unwrap(), trace, "{ctx}: the page's import reads it back");
    run.status("alice") == Some(MemberStatus::Working)
}

#[test]
fn a_run_a_token_budget_stops_never_spent_more_than_the_budget_and_the_held_back_call_is_never_made() {
    let full = run_live(scenarios::SHUTDOWN, SEED).rt.trace();
    let total: u64 = full.entries().iter().map(|e| tokens_of(&e.event)).sum();
    // From a cap below the first call's bound (the prompt plus max_tokens)
    // to one that lets the whole run finish, every 97 tokens.
    let max_out = u64::from(RuntimeConfig::default().max_tokens);
    let (mut stopped, mut finished, mut with_alice_working) = (0, 0, 0);
    let mut cap = 1;
    while cap <= total + 3 * max_out {
        let run = budgeted(Budget::Tokens(cap), None);
        let stopped_here = run.rt.trace().entries().last().is_some_and(|e| matches!(e.event, Event::BudgetReached { .. }));
        if stopped_here {
            stopped += 1;
            with_alice_working += usize::from(check_stopped_under_cap(&run, &full, cap, &format!("cap {cap} of {total}")));
        } else {
            run.assert_finished();
            assert_eq!(run.rt.trace().to_json(), full.to_json(), "cap {cap}: a budget never reached leaves no trace");
            finished += 1;
        }
        cap += 97;
    }
    assert!(stopped > 50 && finished > 10, "the caps cover stops and finished runs: {stopped} stopped, {finished} finished");
    assert!(with_alice_working > 0, "some cap stops the run while alice is still working");
}

#[test]
fn a_dollar_budget_is_priced_at_the_rates_and_without_a_price_no_call_is_made() {
    let rates = Rates { input: 3.0, output: 15.0, cache_read: 0.3, cache_write: 3.75 };
    let full = run_live(scenarios::SHUTDOWN, SEED).rt.trace();
    let dollars = |events: &[TraceEntry]| -> f64 {
        events
            .iter()
            .filter_map(|e| match &e.event {
                Event::ModelReplied { input_tokens, output_tokens, .. } => {
                    Some((*input_tokens as f64 * rates.input + *output_tokens as f64 * rates.output) / 1e6)
                }
                _ => None,
            })
            .sum()
    };
    let cap = dollars(full.entries()) / 2.0;
    let run = budgeted(Budget::Dollars(cap), Some(rates));
    let trace = run.rt.trace();
    let (last, before) = trace.entries().split_last().unwrap();
    let Event::BudgetReached { limit, spent, unpriced: false, .. } = &last.event else { panic!("{:?}", last.event) };
    assert_eq!(*limit, BudgetLimit::Microdollars((cap * 1e6).round() as u64));
    assert_eq!(*spent, (dollars(before) * 1e6).round() as u64, "spent is the run's dollars, in millionths");

    let unpriced = budgeted(Budget::Dollars(5.0), None);
    let trace = unpriced.rt.trace();
    assert!(!trace.entries().iter().any(|e| matches!(e.event, Event::ModelCalled { .. })), "no model call without a price");
    assert!(matches!(trace.entries().last().map(|e| &e.event), Some(Event::BudgetReached { unpriced: true, .. })));
    assert_eq!(unpriced.rt.live_tasks(), 0);
}

#[test]
fn a_run_under_its_budget_is_the_run_without_one() {
    let full = run_live(scenarios::SHUTDOWN, SEED).rt.trace();
    let total: u64 = full.entries().iter().map(|e| tokens_of(&e.event)).sum();
    let run = budgeted(Budget::Tokens(total * 3 + 10 * u64::from(RuntimeConfig::default().max_tokens)), None);
    run.assert_finished();
    assert_eq!(run.rt.trace().to_json(), full.to_json(), "a budget that is never reached leaves no trace");
}
