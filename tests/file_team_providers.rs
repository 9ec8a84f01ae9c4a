//! A protocol file's team runs on a real provider (issue 27, item 4): the
//! OpenAI-compatible and the Anthropic provider, each over an in-process
//! fake of its API (an `HttpTransport` this test owns: no server, no
//! network), drive the `status-report` example's team through the world.
//! The fake answers each call as the scripted model playing the file would,
//! written in the provider's own wire format; once, a malformed answer
//! (an enum value the protocol does not have) comes ahead of the good one.
//!
//! What must hold: the tools each request carries are the file's generated
//! ones (`ToolSet::new(file)`, byte for byte, in the provider's shape); the
//! file protocol's request and answer go through the team (the trace shows
//! the status request settled, and the lead's step after it ran); the
//! malformed call is refused with the clear refusal text, which reaches the
//! model in its next request.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use common::file_team::{run_prompts, world_of};
use serde_json::{json, Value};
use team_protocols::explore::file_team::file_team_run;
use team_protocols::model::anthropic::{AnthropicConfig, AnthropicModel};
use team_protocols::model::http::{ApiKey, Headers, HttpReply, HttpTransport, MemoryBody};
use team_protocols::model::openai::{OpenAiConfig, OpenAiModel};
use team_protocols::model::scripted::FileScriptedModel;
use team_protocols::model::sleep::Sleeper;
use team_protocols::model::{CancelToken, ContentBlock, LocalBoxFuture, Model, ModelError, ModelRequest, ModelResponse, StopReason};
use team_protocols::protocol::file::{builtin, load, ProtocolFile};
use team_protocols::protocol::{AgentName, Event, RequestKind, RequestStatus};
use team_protocols::runtime::tools::{AgentRole, ToolSet};
use team_protocols::runtime::world::World;

/// The refusal the world gives the malformed answer.
const REFUSAL: &str = "Error: invalid input for report_status: field 'progress' must be one of on_track, blocked, done";

/// The two wire formats.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Wire {
    Anthropic,
    OpenAi,
}

/// The fake API: answers each POST as `brain` answers the request the
/// world is making (`asked`), in `wire`'s format, and keeps every body.
struct FakeApi {
    wire: Wire,
    brain: FileScriptedModel,
    asked: RefCell<Option<ModelRequest>>,
    bodies: RefCell<Vec<(String, Value)>>,
    malformed_sent: Cell<bool>,
}

impl FakeApi {
    /// The scripted reply; the first time it answers a status request, a
    /// malformed answer (its progress is not one of the protocol's values)
    /// goes first, in the same reply, as a model's slip would.
    fn reply_to(&self, request: &ModelRequest) -> ModelResponse {
        let mut reply = self.brain.respond(request);
        let answer = reply.content.iter().position(|b| matches!(b, ContentBlock::ToolUse { name, .. } if name == "report_status"));
        if let (Some(at), false) = (answer, self.malformed_sent.get()) {
            let ContentBlock::ToolUse { id, name, input } = reply.content[at].clone() else { unreachable!("found as a tool use") };
            let mut slip = input;
            slip["progress"] = json!("sideways");
            reply.content.insert(at, ContentBlock::ToolUse { id: format!("{id}_slip"), name, input: slip });
            self.malformed_sent.set(true);
        }
        reply
    }

    fn encode(&self, reply: &ModelResponse) -> Value {
        let text: String = reply
            .content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        let calls = reply.tool_uses().map(|(id, name, input)| (id.to_string(), name.to_string(), input.clone()));
        let usage = (reply.usage.input_tokens.max(1), reply.usage.output_tokens.max(1));
        match self.wire {
            Wire::Anthropic => {
                let mut content = vec![json!({ "type": "text", "text": text })];
                content.extend(calls.map(|(id, name, input)| json!({ "type": "tool_use", "id": id, "name": name, "input": input })));
                let stop = if reply.stop_reason == StopReason::ToolUse { "tool_use" } else { "end_turn" };
                json!({
                    "id": "msg_fake", "type": "message", "role": "assistant", "model": "claude-fake",
                    "content": content, "stop_reason": stop,
                    "usage": { "input_tokens": usage.0, "output_tokens": usage.1 }
                })
            }
            Wire::OpenAi => {
                let tool_calls: Vec<Value> = calls
                    .map(|(id, name, input)| json!({ "id": id, "type": "function", "function": { "name": name, "arguments": input.to_string() } }))
                    .collect();
                let finish = if tool_calls.is_empty() { "stop" } else { "tool_calls" };
                let mut message = json!({ "role": "assistant", "content": text });
                if !tool_calls.is_empty() {
                    message["tool_calls"] = json!(tool_calls);
                }
                json!({
                    "id": "chatcmpl-fake", "object": "chat.completion", "model": "gpt-fake",
                    "choices": [{ "index": 0, "message": message, "finish_reason": finish }],
                    "usage": { "prompt_tokens": usage.0, "completion_tokens": usage.1 }
                })
            }
        }
    }
}

impl HttpTransport for FakeApi {
    fn post<'a>(
        &'a self,
        url: &'a str,
        _headers: &'a Headers,
        body: String,
        _cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<HttpReply, ModelError>> {
        let sent: Value = serde_json::from_str(&body).expect("the provider sends JSON");
        self.bodies.borrow_mut().push((url.to_string(), sent));
        let request = self.asked.borrow().clone().expect("the test says what the world asks before each call");
        let reply = self.encode(&self.reply_to(&request));
        let headers = Headers::new().with("content-type", "application/json");
        Box::pin(std::future::ready(Ok(HttpReply { status: 200, headers, body: Box::new(MemoryBody::whole(reply.to_string())) })))
    }
}

/// Never waits: no call here is retried, and a test must not sleep.
struct NoWait;

impl Sleeper for NoWait {
    fn sleep(&self, _ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(std::future::ready(()))
    }
}

/// Polls a future that needs nothing but polling (the fake answers at
/// once) to its end.
fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..10_000 {
        if let Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
            return out;
        }
    }
    panic!("the provider's call is still pending: it waits for something the fake never does");
}

fn example(id: &str) -> Arc<ProtocolFile> {
    let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == id).unwrap_or_else(|| panic!("no example '{id}'"));
    Arc::new(load(text).unwrap_or_else(|e| panic!("{}", e.render(id))))
}

/// Runs `status-report`'s team on the provider `wire` names, each call
/// through the fake: the world at the end, and the fake (its bodies).
fn run_on(wire: Wire) -> (World, Rc<FakeApi>) {
    let file = example("status-report");
    let run = file_team_run(Arc::clone(&file), 7).expect("the example has a team");
    let api = Rc::new(FakeApi {
        wire,
        brain: run.model.clone(),
        asked: RefCell::new(None),
        bodies: RefCell::new(Vec::new()),
        malformed_sent: Cell::new(false),
    });
    let model: Box<dyn Model> = match wire {
        Wire::Anthropic => Box::new(AnthropicModel::new(
            AnthropicConfig {
                base_url: "https://anthropic.fake".into(),
                model: "claude-fake".into(),
                max_tokens: 1024,
                stream: false,
                api_key: ApiKey::new("sk-ant-fake"),
            },
            Rc::clone(&api),
            Rc::new(NoWait),
        )),
        Wire::OpenAi => Box::new(OpenAiModel::new(
            OpenAiConfig {
                base_url: "https://openai.fake/v1".into(),
                model: "gpt-fake".into(),
                max_tokens: 1024,
                stream: false,
                api_key: ApiKey::new("sk-fake"),
            },
            Rc::clone(&api),
            Rc::new(NoWait),
        )),
    };
    let mut world = world_of(&run, run.faults.clone());
    for prompt in &run.prompts {
        let quiet = run_prompts(&mut world, std::slice::from_ref(prompt), 10_000, |_, request| {
            *api.asked.borrow_mut() = Some(request.clone());
            block_on(model.complete(request, Rc::new(|_: &str| {}), CancelToken::new()))
        });
        assert!(quiet, "{wire:?}: the prompt was not taken or its run did not go quiet");
    }
    assert_eq!(world.failure(), None, "{wire:?}");
    (world, api)
}

/// The tools of a request body as the file's generated schemas would be
/// written by the provider.
fn tools_as_sent(wire: Wire, tools: &ToolSet, role: AgentRole) -> Value {
    let written: Vec<Value> = tools
        .schemas(role)
        .iter()
        .map(|t| match wire {
            Wire::Anthropic => json!({ "name": t.name, "description": t.description, "input_schema": t.input_schema }),
            Wire::OpenAi => {
                json!({ "type": "function", "function": { "name": t.name, "description": t.description, "parameters": t.input_schema } })
            }
        })
        .collect();
    Value::Array(written)
}

/// The name of each tool in a body's `tools`.
fn tool_names(wire: Wire, body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .expect("the body carries tools")
        .iter()
        .map(|t| match wire {
            Wire::Anthropic => t["name"].as_str().unwrap_or_default().to_string(),
            Wire::OpenAi => t["function"]["name"].as_str().unwrap_or_default().to_string(),
        })
        .collect()
}

/// The texts of the tool results a body hands back to the model.
fn tool_results(wire: Wire, body: &Value) -> Vec<String> {
    let messages = body["messages"].as_array().expect("the body carries messages");
    match wire {
        Wire::Anthropic => messages
            .iter()
            .filter_map(|m| m["content"].as_array())
            .flatten()
            .filter(|b| b["type"] == "tool_result")
            .map(|b| b["content"].as_str().map(str::to_string).unwrap_or_else(|| b["content"].to_string()))
            .collect(),
        Wire::OpenAi => {
            messages.iter().filter(|m| m["role"] == "tool").map(|m| m["content"].as_str().unwrap_or_default().to_string()).collect()
        }
    }
}

fn a_file_team_runs_on(wire: Wire) {
    let (world, api) = run_on(wire);
    let file = example("status-report");
    let tools = ToolSet::new(Arc::clone(&file));
    let bodies = api.bodies.borrow();
    assert!(bodies.len() >= 4, "{wire:?}: the lead and gina each called the model: {} calls", bodies.len());

    // The tools sent are the file's generated ones, for each role.
    for (url, body) in bodies.iter() {
        let names = tool_names(wire, body);
        let role = if names.iter().any(|n| n == "ask_status") { AgentRole::Lead } else { AgentRole::Teammate };
        assert_eq!(body["tools"], tools_as_sent(wire, &tools, role), "{wire:?}: the tools sent to {url}");
    }
    let sent_names: Vec<Vec<String>> = bodies.iter().map(|(_, b)| tool_names(wire, b)).collect();
    assert!(sent_names.iter().any(|n| n.contains(&"ask_status".to_string())), "{wire:?}: the lead got the file's request tool");
    assert!(sent_names.iter().any(|n| n.contains(&"report_status".to_string())), "{wire:?}: gina got the file's answer tool");
    let report_schema = bodies
        .iter()
        .flat_map(|(_, b)| b["tools"].as_array().cloned().unwrap_or_default())
        .find_map(|t| match wire {
            Wire::Anthropic => (t["name"] == "report_status").then(|| t["input_schema"].clone()),
            Wire::OpenAi => (t["function"]["name"] == "report_status").then(|| t["function"]["parameters"].clone()),
        })
        .expect("report_status was sent");
    assert_eq!(report_schema["properties"]["progress"]["enum"], json!(["on_track", "blocked", "done"]), "{wire:?}: the file's enum");

    // The malformed answer is refused with the clear text, in the trace and
    // in the next request the model reads.
    assert!(api.malformed_sent.get(), "{wire:?}: the fake sent its malformed answer");
    let trace = world.team().trace();
    let refused: Vec<(String, bool)> = trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ToolReturned { tool, output, is_error, .. } if tool == "report_status" => Some((output.clone(), *is_error)),
            _ => None,
        })
        .collect();
    assert_eq!(refused.first(), Some(&(REFUSAL.to_string(), true)), "{wire:?}: {refused:?}");
    assert!(
        bodies.iter().any(|(_, b)| tool_results(wire, b).iter().any(|r| r.contains(REFUSAL))),
        "{wire:?}: the refusal reaches the model"
    );

    // The file protocol's request and answer go through the team: the
    // status request settles, and the lead's step after it (the shutdown
    // request) runs.
    let gina = AgentName::parse("gina").unwrap();
    let settled: Vec<RequestStatus> = trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::RequestTransitioned { request_kind, to, .. } if request_kind.is_file() => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(settled, [RequestStatus::Approved], "{wire:?}: gina's status answer approves the request");
    let answered = trace
        .entries()
        .iter()
        .any(|e| matches!(&e.event, Event::ToolReturned { agent, tool, is_error: false, .. } if *agent == gina && tool == "report_status"));
    assert!(answered, "{wire:?}: gina's good answer went through after the malformed one was refused");
    let shutdown_asked = trace
        .entries()
        .iter()
        .any(|e| matches!(&e.event, Event::RequestCreated { request_kind, .. } if *request_kind == RequestKind::SHUTDOWN));
    assert!(shutdown_asked, "{wire:?}: the lead asked gina's shutdown after the status settled");
}

#[test]
fn a_file_team_runs_on_the_openai_compatible_provider_with_its_generated_tools_and_a_malformed_call_is_refused_clearly() {
    a_file_team_runs_on(Wire::OpenAi);
}

#[test]
fn a_file_team_runs_on_the_anthropic_provider_with_its_generated_tools_and_a_malformed_call_is_refused_clearly() {
    a_file_team_runs_on(Wire::Anthropic);
}
