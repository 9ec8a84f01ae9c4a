//! The runtime runs any protocol of a protocol file (issue 26, item 3): on
//! the sans-IO world, driven by a test model that issues given tool calls,
//! each example file's protocols are asked and answered through their
//! generated tools, a refusal reads as the team's `Error: ...`, a gated tool
//! is refused until the protocol that opens its gate is approved, an
//! approved `exit` ends the agent's loop, an unanswered request expires in
//! virtual time and may be asked again; every trace replays to the same
//! state, and one seed gives the same trace bytes.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use serde_json::{json, Value};

use team_protocols::explore::file_team::file_team_run;
use team_protocols::model::scripted;
use team_protocols::model::{ContentBlock, ModelRequest, ModelResponse, StopReason, Usage};
use team_protocols::protocol::file::{builtin, load, ProtocolFile, ProtocolIx};
use team_protocols::protocol::trace_file::trace_json;
use team_protocols::protocol::{AgentName, Event, FieldValue, Fields, MemberStatus, RequestStatus, Team, TeamError, TrackerError};
use team_protocols::runtime::scheduler::Mode;
use team_protocols::runtime::world::{Next, TimeSource, World, WorldConfig};

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

fn example(id: &str) -> Arc<ProtocolFile> {
    let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == id).unwrap_or_else(|| panic!("no example '{id}'"));
    Arc::new(load(text).unwrap_or_else(|e| panic!("{}", e.render(id))))
}

/// A message an agent has read (its inbox, as the loop hands it over).
#[derive(Debug, Clone)]
struct Seen {
    msg_type: String,
    from: String,
    request_id: String,
    approve: Option<bool>,
}

/// Every message in `request`'s conversation, oldest first: a teammate's
/// come one JSON object per block, the lead's as `<inbox>[...]</inbox>`.
fn seen(request: &ModelRequest) -> Vec<Seen> {
    let mut out = Vec::new();
    for turn in &request.messages {
        for block in &turn.content {
            let ContentBlock::Text { text, .. } = block else { continue };
            let body = text.trim().trim_start_matches("<inbox>").trim_end_matches("</inbox>");
            let Ok(value) = serde_json::from_str::<Value>(body) else { continue };
            let items = match value {
                Value::Array(items) => items,
                other => vec![other],
            };
            for m in items {
                let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
                out.push(Seen {
                    msg_type: s("type"),
                    from: s("from"),
                    request_id: s("request_id"),
                    approve: m.get("approve").and_then(Value::as_bool),
                });
            }
        }
    }
    out
}

/// Every text block of `request` (prompts, notes), joined.
fn texts(request: &ModelRequest) -> String {
    request.messages.iter().map(|t| t.text()).collect::<Vec<_>>().join("\n")
}

type Calls = Vec<(&'static str, Value)>;

/// One canned reply: tool calls built from the request, given once `when`
/// accepts it (until then the agent ends its turn and it stays first).
struct Canned {
    when: Box<dyn Fn(&ModelRequest) -> bool>,
    calls: Box<dyn Fn(&ModelRequest) -> Calls>,
}

fn now(calls: Calls) -> Canned {
    Canned { when: Box::new(|_| true), calls: Box::new(move |_| calls.clone()) }
}

fn when(when: impl Fn(&ModelRequest) -> bool + 'static, calls: impl Fn(&ModelRequest) -> Calls + 'static) -> Canned {
    Canned { when: Box::new(when), calls: Box::new(calls) }
}

/// The test model: each agent's canned replies, in order.
#[derive(Default)]
struct Script(BTreeMap<String, VecDeque<Canned>>);

impl Script {
    fn agent(mut self, agent: &str, replies: Vec<Canned>) -> Self {
        self.0.insert(agent.to_string(), replies.into());
        self
    }

    fn reply(&mut self, agent: &AgentName, request: &ModelRequest, n: &mut usize) -> ModelResponse {
        let queue = self.0.entry(agent.to_string()).or_default();
        match queue.front() {
            Some(c) if (c.when)(request) => {
                let calls = (c.calls)(request);
                queue.pop_front();
                let content = calls
                    .into_iter()
                    .map(|(tool, input)| {
                        *n += 1;
                        ContentBlock::ToolUse { id: format!("toolu_{n}"), name: tool.to_string(), input }
                    })
                    .collect();
                ModelResponse { content, stop_reason: StopReason::ToolUse, usage: Usage::plain(10, 5) }
            }
            _ => ModelResponse { content: vec![ContentBlock::text("done")], stop_reason: StopReason::EndTurn, usage: Usage::plain(10, 2) },
        }
    }
}

/// Runs `prompt` under `file` to its end with `script` as every agent's
/// model; returns the world.
fn run(file: Arc<ProtocolFile>, seed: u64, prompt: &str, mut script: Script) -> World {
    let config =
        WorldConfig { team_name: "default".into(), seed, max_rounds: 50, lead_max_rounds: 50, max_tokens: 8000, protocols: Some(file) };
    let mut world = World::new(config, Mode::Live, TimeSource::Virtual);
    world.submit_prompt(prompt).expect("the prompt is taken");
    let mut n = 0;
    for _ in 0..10_000 {
        if world.begin().is_none() {
            assert!(!world.is_running(), "nothing to begin, yet the run goes on");
            assert_eq!(world.failure(), None);
            assert_replays(&world);
            return world;
        }
        while let Next::CallModel { agent } = world.proceed() {
            let request = world.model_request(&agent).expect("the agent exists");
            let reply = script.reply(&agent, &request, &mut n);
            world.model_returned(&agent, Ok(reply));
        }
    }
    panic!("the run did not end");
}

/// The trace replays to the state the run left.
fn assert_replays(world: &World) {
    let replayed = Team::replay(world.team().trace()).expect("the trace replays");
    assert_eq!(replayed.state(), world.team().state(), "the replayed state is the run's");
}

/// Each tool's result, in order: (agent, tool, output, is_error).
fn results(world: &World) -> Vec<(String, String, String, bool)> {
    world
        .team()
        .trace()
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ToolReturned { agent, tool, output, is_error, .. } => Some((agent.to_string(), tool.clone(), output.clone(), *is_error)),
            _ => None,
        })
        .collect()
}

fn outputs_of(world: &World, tool: &str) -> Vec<String> {
    results(world).into_iter().filter(|r| r.1 == tool).map(|r| r.2).collect()
}

/// The id of the `n`th (0-based) request message of `msg_type` from `from`
/// that `request` has read.
fn nth_request(request: &ModelRequest, msg_type: &str, from: &str, n: usize) -> Option<String> {
    seen(request).into_iter().filter(|m| m.msg_type == msg_type && m.from == from).nth(n).map(|m| m.request_id)
}

fn has_nth(msg_type: &'static str, from: &'static str, n: usize) -> impl Fn(&ModelRequest) -> bool {
    move |r| nth_request(r, msg_type, from, n).is_some()
}

fn spawn(who: &str, role: &str) -> (&'static str, Value) {
    ("spawn_teammate", json!({"name": who, "role": role, "prompt": format!("You are {who}. Do your task.")}))
}

/// The index of the protocol named `protocol` in the world's file.
fn protocol_ix(world: &World, protocol: &str) -> ProtocolIx {
    let file = world.team().protocols().file().expect("a file");
    let i = file.protocols.iter().position(|p| p.name == protocol).expect("the protocol");
    ProtocolIx(u8::try_from(i).unwrap())
}

/// Same seed, same trace bytes.
fn assert_repeats(make: impl Fn() -> World) {
    assert_eq!(trace_json(make().team().trace()), trace_json(make().team().trace()), "one seed, one trace");
}

// ---------------------------------------------------------------------------

fn task_claim_run(seed: u64) -> World {
    let claim = |task: &str| ("claim_task", json!({"task": task}));
    let script = Script::default()
        .agent(
            "lead",
            vec![
                now(vec![spawn("ann", "coder"), spawn("ben", "coder")]),
                when(
                    |r| has_nth("claim_request", "ann", 0)(r) && has_nth("claim_request", "ben", 0)(r),
                    |r| {
                        let ann = nth_request(r, "claim_request", "ann", 0).unwrap();
                        let ben = nth_request(r, "claim_request", "ben", 0).unwrap();
                        vec![
                            ("answer_claim", json!({"request_id": ann, "approve": true})),
                            ("answer_claim", json!({"request_id": ben, "approve": false, "note": "ann has the parser; take the lexer."})),
                            // Answered already: the team refuses a second answer.
                            ("answer_claim", json!({"request_id": ann, "approve": false})),
                        ]
                    },
                ),
            ],
        )
        .agent("ann", vec![now(vec![claim("parser")])])
        .agent(
            "ben",
            vec![
                now(vec![claim("parser"), ("claim_task", json!({"task": "tests"}))]),
                when(
                    |r| seen(r).iter().any(|m| m.msg_type == "claim_response" && m.approve == Some(false)),
                    move |r| {
                        let rejected = seen(r).into_iter().find(|m| m.msg_type == "claim_response").unwrap().request_id;
                        vec![("claim_status", json!({"request_id": rejected})), claim("lexer")]
                    },
                ),
            ],
        );
    run(example("task-claim"), seed, "Spawn ann and ben; each claims a task.", script)
}

#[test]
fn a_file_protocol_is_asked_and_answered_through_its_generated_tools() {
    let world = task_claim_run(7);
    let team = world.team();
    let claims: Vec<_> = team.tracker().iter().collect();
    assert_eq!(claims.len(), 3, "ann's claim, ben's and ben's second: {claims:?}");
    let status = |who: &str| claims.iter().filter(|r| r.requester == name(who)).map(|r| r.status).collect::<Vec<_>>();
    assert_eq!(status("ann"), vec![RequestStatus::Approved]);
    assert_eq!(status("ben"), vec![RequestStatus::Rejected, RequestStatus::Pending], "the lead never answered ben's second claim");
    let asked = outputs_of(&world, "claim_task");
    let first = &claims.iter().find(|r| r.requester == name("ann")).unwrap().id;
    assert!(asked.contains(&format!("Claim request {first} sent to 'lead' (status: pending)")), "{asked:?}");
    let answers = outputs_of(&world, "answer_claim");
    assert_eq!(&answers[..2], ["Claim approved for 'ann'", "Claim rejected for 'ben'"]);
    let ben_first = &claims.iter().find(|r| r.requester == name("ben")).unwrap().id;
    assert_eq!(outputs_of(&world, "claim_status"), ["{\"status\":\"rejected\",\"to\":\"lead\"}"], "asked of {ben_first}");
    // The rejection's note went back to ben as its response field.
    let note = team.trace().entries().iter().find_map(|e| match &e.event {
        Event::MessageSent { message } if message.request_id.as_ref() == Some(ben_first) && message.approve == Some(false) => {
            Some(message.content.clone())
        }
        _ => None,
    });
    assert_eq!(note.as_deref(), Some("ann has the parser; take the lexer."));
}

#[test]
fn a_refused_file_protocol_call_reads_as_the_teams_error() {
    let world = task_claim_run(7);
    let team = world.team();
    let ann = team.tracker().iter().find(|r| r.requester == name("ann")).unwrap().id.clone();
    let err = team.check_respond(protocol_ix(&world, "claim"), &ann, &AgentName::lead(), false, &Fields::new()).unwrap_err();
    assert!(matches!(err, TeamError::Tracker(TrackerError::AlreadySettled { .. })), "{err:?}");
    let answers = results(&world).into_iter().filter(|r| r.1 == "answer_claim").collect::<Vec<_>>();
    assert_eq!((answers[2].2.clone(), answers[2].3), (format!("Error: {err}"), true));
    let bad = results(&world).into_iter().find(|r| r.1 == "claim_task" && r.3).expect("the claim of an unknown task is refused");
    assert_eq!(bad.2, "Error: invalid input for claim_task: field 'task' must be one of parser, lexer, docs");
    assert_repeats(|| task_claim_run(7));
}

// ---------------------------------------------------------------------------

fn review_run(seed: u64, lead_answers: bool) -> World {
    let write = ("write_file", json!({"path": "src/hello.py", "content": "def greet():\n    return 'hi'\n"}));
    let review = ("request_review", json!({"diff": "+def greet(): ..."}));
    let lead = if lead_answers {
        vec![
            now(vec![spawn("alice", "coder")]),
            when(has_nth("review_request", "alice", 0), |r| {
                let id = nth_request(r, "review_request", "alice", 0).unwrap();
                vec![("review", json!({"request_id": id, "approve": false, "comment": "name it greet", "severity": "minor"}))]
            }),
            when(has_nth("review_request", "alice", 1), |r| {
                let id = nth_request(r, "review_request", "alice", 1).unwrap();
                vec![("review", json!({"request_id": id, "approve": true}))]
            }),
        ]
    } else {
        vec![now(vec![spawn("alice", "coder")])]
    };
    let expired = |n: usize| move |r: &ModelRequest| texts(r).matches("expired unanswered").count() >= n;
    let alice = if lead_answers {
        vec![
            now(vec![write.clone(), review.clone()]),
            when(|r| seen(r).iter().any(|m| m.msg_type == "review_response" && m.approve == Some(false)), move |_| vec![review.clone()]),
            when(|r| seen(r).iter().any(|m| m.msg_type == "review_response" && m.approve == Some(true)), move |_| vec![write.clone()]),
        ]
    } else {
        vec![
            now(vec![review.clone()]),
            when(expired(1), move |_| vec![review.clone()]),
            when(expired(2), |_| vec![("request_review", json!({"diff": "again"}))]),
        ]
    };
    run(example("review-gate"), seed, "Spawn alice to write src/hello.py.", Script::default().agent("lead", lead).agent("alice", alice))
}

#[test]
fn a_gated_tool_is_refused_naming_the_protocol_that_opens_it_until_approved() {
    let world = review_run(3, true);
    let writes = outputs_of(&world, "write_file");
    assert_eq!(writes.len(), 2);
    assert_eq!(
        writes[0],
        "Error: 'alice' may not use write_file yet: the 'write' gate is closed; ask with request_review (the 'review' protocol) and wait until it is approved"
    );
    assert!(!writes[1].starts_with("Error"), "approved, the gate is open: {}", writes[1]);
    assert!(world.workspace().list_files().contains("src/hello.py"));
    let statuses: Vec<_> = world.team().tracker().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [RequestStatus::Rejected, RequestStatus::Approved]);
    assert_eq!(outputs_of(&world, "review"), ["Review rejected for 'alice'", "Review approved for 'alice'"]);
    assert_repeats(|| review_run(3, true));
}

#[test]
fn an_unanswered_request_expires_in_virtual_time_and_may_be_asked_again_within_its_retries() {
    let world = review_run(5, false);
    let reqs: Vec<_> = world.team().tracker().iter().collect();
    assert_eq!(reqs.len(), 2, "one ask and one retry: {reqs:?}");
    assert!(reqs.iter().all(|r| r.status == RequestStatus::Rejected && r.expired()), "both expired: {reqs:?}");
    let asks = outputs_of(&world, "request_review");
    assert_eq!(asks.len(), 3);
    assert!(asks[1].starts_with("Review request"), "the retry is taken: {}", asks[1]);
    let expired = world.team().trace().entries().iter().filter(|e| matches!(e.event, Event::RequestExpired { .. })).count();
    assert_eq!(expired, 2);
    let review = protocol_ix(&world, "review");
    let diff: Fields = [("diff".to_string(), FieldValue::Text("again".into()))].into_iter().collect();
    let third = world.team().check_ask(review, &name("alice"), &AgentName::lead(), &diff).map(drop);
    let text = |e: TeamError| format!("Error: {e}");
    assert!(matches!(third, Err(TeamError::RetriesExhausted { .. })), "{third:?}");
    assert_eq!(asks[2], text(third.unwrap_err()));
    assert_repeats(|| review_run(5, false));
}

// ---------------------------------------------------------------------------

fn deadline_run(seed: u64) -> World {
    let ask = ("shutdown_request", json!({"teammate": "alice"}));
    let lead = vec![
        now(vec![spawn("alice", "coder")]),
        now(vec![ask.clone()]),
        when(
            |r| texts(r).contains("expired unanswered"),
            move |r| {
                let text = texts(r);
                let at = text.find("shutdown request ").unwrap() + "shutdown request ".len();
                let id = text[at..at + 8].to_string();
                vec![("shutdown_response", json!({"request_id": id})), ask.clone()]
            },
        ),
    ];
    // alice works, lets the first request expire, approves the second.
    let alice = vec![
        now(vec![("write_file", json!({"path": "src/hello.py", "content": "print('hi')\n"}))]),
        when(has_nth("shutdown_request", "lead", 1), |r| {
            let id = nth_request(r, "shutdown_request", "lead", 1).unwrap();
            vec![("shutdown_response", json!({"request_id": id, "approve": true})), ("list_files", json!({}))]
        }),
        now(vec![("list_files", json!({}))]),
    ];
    run(
        example("deadline-retry"),
        seed,
        "Spawn alice, then request her shutdown.",
        Script::default().agent("lead", lead).agent("alice", alice),
    )
}

#[test]
fn an_approved_exit_ends_the_agents_loop_after_its_turn_and_an_expired_ask_is_retried() {
    let world = deadline_run(11);
    let team = world.team();
    let reqs: Vec<_> = team.tracker().iter().collect();
    assert_eq!(reqs.len(), 2);
    assert!(reqs[0].status == RequestStatus::Rejected && reqs[0].expired(), "{:?}", reqs[0]);
    assert_eq!(reqs[1].status, RequestStatus::Approved);
    assert_eq!(team.roster().members.iter().find(|m| m.name == name("alice")).unwrap().status, MemberStatus::Shutdown);
    assert!(world.loops().any(|(n, live)| n == &name("alice") && !live), "alice left her loop");
    let alice = results(&world).into_iter().filter(|r| r.0 == "alice").map(|r| r.1).collect::<Vec<_>>();
    assert_eq!(alice, ["write_file", "shutdown_response", "list_files"], "she finishes her turn, then no model call");
    let status = outputs_of(&world, "shutdown_response");
    assert!(status.contains(&"{\"status\":\"rejected (expired)\",\"to\":\"alice\"}".to_string()), "{status:?}");
    assert!(status.contains(&"Shutdown approved for 'lead'".to_string()), "{status:?}");
    assert_repeats(|| deadline_run(11));
}

// ---------------------------------------------------------------------------

fn status_run(seed: u64) -> World {
    let lead =
        vec![now(vec![spawn("gina", "writer"), ("ask_status", json!({"teammate": "gina"})), ("ask_status", json!({"teammate": "zed"}))])];
    let gina = vec![when(has_nth("status_request", "lead", 0), |r| {
        let id = nth_request(r, "status_request", "lead", 0).unwrap();
        vec![
            ("report_status", json!({"request_id": id, "approve": true, "progress": "late"})),
            ("report_status", json!({"request_id": id, "approve": true, "progress": "on_track", "percent": 40, "note": "intro done"})),
            ("report_status", json!({"request_id": id, "approve": true, "progress": "done"})),
        ]
    })];
    run(example("status-report"), seed, "Spawn gina and ask her status.", Script::default().agent("lead", lead).agent("gina", gina))
}

#[test]
fn a_reports_typed_fields_reach_the_requester_and_bad_ones_are_refused() {
    let world = status_run(2);
    let reports = outputs_of(&world, "report_status");
    assert_eq!(reports[0], "Error: invalid input for report_status: field 'progress' must be one of on_track, blocked, done");
    assert_eq!(reports[1], "Status approved for 'lead'");
    assert!(reports[2].starts_with("Error: "), "a second answer is refused: {}", reports[2]);
    let asks = outputs_of(&world, "ask_status");
    assert!(asks[0].starts_with("Status request ") && asks[0].ends_with(" sent to 'gina' (status: pending)"), "{asks:?}");
    assert!(asks[1].starts_with("Error: "), "no teammate zed: {}", asks[1]);
    let report = world.team().trace().entries().iter().find_map(|e| match &e.event {
        Event::MessageSent { message } if message.approve == Some(true) => Some(message.clone()),
        _ => None,
    });
    let report = report.expect("gina's report was sent");
    assert_eq!((report.to.as_str(), report.content.as_str()), ("lead", "intro done"));
    assert_eq!(report.fields.len(), 3, "{:?}", report.fields);
    assert_repeats(|| status_run(2));
}

// ---------------------------------------------------------------------------

fn permission_run(seed: u64) -> World {
    let edit = ("edit_file", json!({"path": "README.md", "old_text": "teh", "new_text": "the"}));
    let carol = vec![now(vec![edit, ("request_permission", json!({"action": "fix the typo in README.md"}))])];
    let lead = vec![now(vec![spawn("carol", "editor")])];
    run(example("permission-rule-off"), seed, "Spawn carol to fix a typo.", Script::default().agent("lead", lead).agent("carol", carol))
}

#[test]
fn a_request_nobody_can_answer_stays_pending_and_its_gate_closed() {
    let world = permission_run(4);
    assert_eq!(
        outputs_of(&world, "edit_file"),
        ["Error: 'carol' may not use edit_file yet: the 'edit' gate is closed; ask with request_permission (the 'permission' protocol) and wait until it is approved"]
    );
    let reqs: Vec<_> = world.team().tracker().iter().collect();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].status, RequestStatus::Pending, "no deadline, no responder: it stays pending");
    let lead_tools: Vec<String> = world.model_request(&AgentName::lead()).unwrap().tools.iter().map(|t| t.name.clone()).collect();
    assert!(!lead_tools.iter().any(|t| t.contains("permission")), "the lead has no tool to answer: {lead_tools:?}");
    assert_repeats(|| permission_run(4));
}

// ---------------------------------------------------------------------------
// The scripted model plays the file's protocols.

/// Runs an example's own prompt with the scripted model under its file.
fn scripted_run(id: &str, seed: u64) -> World {
    scripted_run_under(example(id), seed)
}

/// `example(id)` with its text changed by `edit`.
fn edited(id: &str, edit: impl Fn(&str) -> String) -> Arc<ProtocolFile> {
    let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == id).unwrap();
    let text = edit(text);
    Arc::new(load(&text).unwrap_or_else(|e| panic!("{}", e.render(id))))
}

/// Runs a file's own first prompt under it, in the world the page and the
/// explorer build for its team (`file_team_run`: its config and rules),
/// with every message delivered (not the team's fault rules: these tests
/// are about the scripted answers) and the scripted model answering the
/// file's protocols while the lead reads the prompt (not the team's steps).
fn scripted_run_under(file: Arc<ProtocolFile>, seed: u64) -> World {
    let run = file_team_run(Arc::clone(&file), seed).expect("the example has a team");
    let prompt = run.prompts.first().expect("the example has a prompt");
    let mut world = World::new(run.config, Mode::Live, TimeSource::Virtual);
    world.set_rules(run.rules);
    world.submit_prompt(prompt).expect("the prompt is taken");
    for _ in 0..10_000 {
        if world.begin().is_none() {
            assert_eq!(world.failure(), None);
            assert_replays(&world);
            return world;
        }
        while let Next::CallModel { agent } = world.proceed() {
            let request = world.model_request(&agent).expect("the agent exists");
            world.model_returned(&agent, Ok(scripted::respond_under(&request, &file)));
        }
    }
    panic!("the run did not end");
}

fn calls_of(world: &World) -> Vec<(String, String, bool)> {
    results(world).into_iter().map(|(a, t, _, e)| (a, t, e)).collect()
}

#[test]
fn the_scripted_teammate_asks_to_open_its_gate_before_writing_and_the_lead_rejects_first_as_scripted() {
    let world = scripted_run("review-gate", 1);
    let calls = calls_of(&world);
    let reviews: Vec<_> = world.team().tracker().iter().filter(|r| r.kind.is_file()).map(|r| r.status).collect();
    assert_eq!(reviews, [RequestStatus::Rejected, RequestStatus::Approved], "reject_first, then approve");
    let alice: Vec<_> = calls.iter().filter(|c| c.0 == "alice").map(|c| (c.1.as_str(), c.2)).collect();
    assert!(!alice.iter().any(|c| c.0 == "write_file" && c.1), "no gated write is tried and refused: {alice:?}");
    let first_write = alice.iter().position(|c| c.0 == "write_file").expect("she writes once approved");
    assert!(alice[..first_write].iter().filter(|c| c.0 == "request_review").count() == 2, "{alice:?}");
    assert!(world.workspace().list_files().contains("src/hello.py"));
    assert_repeats(|| scripted_run("review-gate", 1));
}

#[test]
fn the_scripted_teammate_answers_a_file_shutdown_as_scripted_and_leaves_its_loop() {
    let world = scripted_run("deadline-retry", 1);
    let calls = calls_of(&world);
    let alice: Vec<_> = calls.iter().filter(|c| c.0 == "alice").map(|c| c.1.as_str()).collect();
    assert_eq!(alice.last(), Some(&"shutdown_response"), "her answer is her last call: {alice:?}");
    let reqs: Vec<_> = world.team().tracker().iter().map(|r| (r.status, r.expired())).collect();
    assert_eq!(reqs, [(RequestStatus::Approved, false)]);
    assert_eq!(world.team().roster().members.iter().find(|m| m.name == name("alice")).unwrap().status, MemberStatus::Shutdown);
    assert_repeats(|| scripted_run("deadline-retry", 1));
}

#[test]
fn the_scripted_answer_follows_the_protocols_scripted_policy_not_the_lessons() {
    let with = |answer: &'static str| {
        // The lead here reads the prompt, not the team's steps; the step
        // that asks until approved goes, as a teammate that always says no
        // can never satisfy it (the loader refuses that).
        edited("deadline-retry", move |t| {
            t.replace(r#"scripted = { answer = "approve" }"#, &format!(r#"scripted = {{ answer = "{answer}" }}"#))
                .replace("until = \"approved\"\n", "")
        })
    };
    let rejected = scripted_run_under(with("reject"), 1);
    let first = rejected.team().tracker().iter().next().map(|r| (r.status, r.expired()));
    assert_eq!(first, Some((RequestStatus::Rejected, false)), "alice says no as scripted");
    assert_ne!(rejected.team().roster().members.iter().find(|m| m.name == name("alice")).unwrap().status, MemberStatus::Shutdown);

    let never = scripted_run_under(with("never"), 1);
    let calls = calls_of(&never);
    assert!(!calls.iter().any(|c| c.0 == "alice" && c.1 == "shutdown_response"), "alice never answers: {calls:?}");
    let reqs: Vec<_> = never.team().tracker().iter().map(|r| (r.status, r.expired())).collect();
    assert!(!reqs.is_empty() && reqs.iter().all(|r| *r == (RequestStatus::Rejected, true)), "each ask expired: {reqs:?}");
    assert_repeats(|| scripted_run_under(with("never"), 1));
}
