//! A protocol file's own team runs offline from its prompt (issue 26): the
//! run `explore::file_team::file_team_run` builds — the world under the
//! file, the team's prompts, the scripted model playing the file — runs to
//! quiet; the scripted lead follows the team's steps (spawn, answer a
//! request once it is in its inbox, ask after what the step waits for),
//! teammates work their tasks; the trace replays to the run's state, one
//! seed gives the same trace bytes, and each example's `[[property]]`
//! holds on the run as the example's comment says.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::Arc;

use common::file_team::{run_prompts, world_of};
use team_protocols::explore::file_team::{file_team_run, FileTeamError};
use team_protocols::protocol::file::{builtin, load, ProtocolFile};
use team_protocols::protocol::trace_file::trace_json;
use team_protocols::protocol::{
    AgentName, Event, FaultAction, FaultPlan, FaultRule, MessageType, ProtocolSet, RequestKind, RequestStatus, Team,
};
use team_protocols::runtime::world::World;

fn example(id: &str) -> Arc<ProtocolFile> {
    let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == id).unwrap_or_else(|| panic!("no example '{id}'"));
    Arc::new(load(text).unwrap_or_else(|e| panic!("{}", e.render(id))))
}

/// Runs the team of example `id` from its prompts, each to quiet.
fn team_run(id: &str, seed: u64) -> World {
    team_run_with(id, seed, Vec::new())
}

/// `team_run`, with fault rules `first` ahead of the team's own.
fn team_run_with(id: &str, seed: u64, first: Vec<FaultRule>) -> World {
    let run = file_team_run(example(id), seed).expect("the example has a team");
    let mut world = world_of(&run, FaultPlan::new(first.into_iter().chain(run.faults.rules.clone()).collect()));
    for prompt in &run.prompts {
        let quiet = run_prompts(&mut world, std::slice::from_ref(prompt), 10_000, |_, request| Ok(run.model.respond(request)));
        assert!(quiet, "{id}: the prompt was not taken or its run did not go quiet");
        assert!(!world.is_running(), "{id}: nothing to begin, yet the run goes on");
        assert_eq!(world.failure(), None, "{id}");
    }
    world
}

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

/// The tool calls each agent made, in order: (agent, tool, is_error).
fn calls(world: &World) -> Vec<(String, String, bool)> {
    world
        .team()
        .trace()
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::ToolReturned { agent, tool, is_error, .. } => Some((agent.to_string(), tool.clone(), *is_error)),
            _ => None,
        })
        .collect()
}

fn assert_replays_and_repeats(id: &str) {
    let world = team_run(id, 7);
    let replayed = Team::replay(world.team().trace()).expect("the trace replays");
    assert_eq!(replayed.state(), world.team().state(), "{id}: the replayed state is the run's");
    assert_eq!(trace_json(world.team().trace()), trace_json(team_run(id, 7).team().trace()), "{id}: one seed, one trace");
}

#[test]
fn each_examples_team_replays_to_its_state_and_one_seed_gives_one_trace() {
    for id in ["task-claim", "review-gate", "deadline-retry"] {
        assert_replays_and_repeats(id);
    }
}

#[test]
fn a_file_without_a_team_has_no_run() {
    let file = example("status-report");
    let bare = ProtocolFile { team: None, ..(*file).clone() };
    assert_eq!(file_team_run(Arc::new(bare), 1).err(), Some(FileTeamError::NoTeam));
}

#[test]
fn task_claim_the_lead_answers_each_claim_as_its_step_says_so_one_owner_per_task_holds() {
    let world = team_run("task-claim", 3);
    let team = world.team();
    for who in ["ann", "ben"] {
        assert!(team.roster().members.iter().any(|m| m.name == name(who)), "{who} was spawned");
    }
    let claims: Vec<_> = team.tracker().iter().filter(|r| r.kind.is_file()).collect();
    assert_eq!(claims.len(), 2, "{claims:?}");
    let status_of = |who: &str| claims.iter().find(|r| r.requester == name(who)).map(|r| r.status);
    assert_eq!(status_of("ann"), Some(RequestStatus::Approved), "step 3 approves ann's claim");
    assert_eq!(status_of("ben"), Some(RequestStatus::Rejected), "step 4 rejects ben's claim");
    // one_owner_per_task: at most one approved claim per task.
    let mut approved_tasks: Vec<String> =
        claims.iter().filter(|r| r.status == RequestStatus::Approved).map(|r| format!("{:?}", r.fields.get("task"))).collect();
    let n = approved_tasks.len();
    approved_tasks.dedup();
    assert_eq!(approved_tasks.len(), n, "one owner per task");
    let answers: Vec<_> = calls(&world).into_iter().filter(|c| c.1 == "answer_claim").collect();
    assert_eq!(answers, [("lead".into(), "answer_claim".into(), false), ("lead".into(), "answer_claim".into(), false)]);
}

#[test]
fn review_gate_alice_asks_a_review_before_writing_and_the_lead_asks_her_shutdown_only_once_a_review_settled() {
    let world = team_run("review-gate", 5);
    let team = world.team();
    let calls = calls(&world);
    let alice: Vec<_> = calls.iter().filter(|c| c.0 == "alice").map(|c| (c.1.as_str(), c.2)).collect();
    assert_eq!(alice.first(), Some(&("request_review", false)), "her gate is closed: she asks for a review first");
    assert!(alice.iter().all(|c| c.0 != "write_file" || !c.1), "no write of hers is refused: {alice:?}");
    // no_shutdown_before_review: the shutdown request comes after a review settled.
    let entries = team.trace().entries();
    let settled = entries
        .iter()
        .position(|e| matches!(&e.event, Event::RequestTransitioned { request_kind, .. } if request_kind.is_file()))
        .expect("a review settled");
    let shutdown = entries
        .iter()
        .position(|e| matches!(&e.event, Event::RequestCreated { request_kind: RequestKind::SHUTDOWN, .. }))
        .expect("the lead asks alice to shut down");
    assert!(settled < shutdown, "no shutdown before the review");
    assert!(dropped(&world, "review_response"), "the team's fault drops the lead's answer");
    let reviews: Vec<_> = team.tracker().iter().filter(|r| r.kind.is_file()).map(|r| r.status).collect();
    assert_eq!(reviews.first(), Some(&RequestStatus::Rejected), "reject_first, as the protocol's scripted says");
    assert!(reviews[1..].iter().all(|s| *s == RequestStatus::Approved), "then yes: {reviews:?}");
}

#[test]
fn deadline_retry_the_lead_asks_alice_to_shut_down_until_approved_and_every_shutdown_settles() {
    let world = team_run("deadline-retry", 9);
    let team = world.team();
    let shutdowns: Vec<_> = team.tracker().iter().filter(|r| r.addressee == name("alice")).collect();
    assert!(!shutdowns.is_empty(), "the lead asks");
    // every_shutdown_settles: no shutdown request is left pending.
    assert!(shutdowns.iter().all(|r| r.status != RequestStatus::Pending), "{shutdowns:?}");
    assert_eq!(shutdowns.last().map(|r| r.status), Some(RequestStatus::Approved));
    assert!(calls(&world).iter().any(|c| c.0 == "alice" && c.1 == "write_file" && !c.2), "alice worked her task");
    assert!(dropped(&world, "shutdown_response"), "the team's fault drops her answer");
}

#[test]
fn deadline_retry_after_each_expiry_the_lead_asks_again_at_most_retries_times_and_says_so() {
    // Every request is dropped: alice never hears one.
    let file = example("deadline-retry");
    let shutdown = file.protocol_named("shutdown").expect("the file's shutdown");
    let request = ProtocolSet::new(Arc::clone(&file)).request_type(shutdown);
    assert!(request.is_some());
    let drop_requests = FaultRule { action: FaultAction::Drop, msg_type: request, from: None, to: None, probability: 1.0 };
    let world = team_run_with("deadline-retry", 9, vec![drop_requests]);
    let team = world.team();
    let shutdowns: Vec<_> = team.tracker().iter().map(|r| (r.status, r.expired())).collect();
    assert_eq!(shutdowns, [(RequestStatus::Rejected, true), (RequestStatus::Rejected, true)], "one ask and one retry, both expired");
    let asks: Vec<_> = calls(&world).into_iter().filter(|c| c.1 == "shutdown_request").collect();
    assert_eq!(
        asks,
        [("lead".into(), "shutdown_request".into(), false), ("lead".into(), "shutdown_request".into(), false)],
        "no third ask"
    );
    let last_words = team.trace().entries().iter().rev().find_map(|e| match &e.event {
        Event::ModelReplied { agent, text, .. } if agent.is_lead() => Some(text.clone()),
        _ => None,
    });
    assert!(last_words.as_deref().is_some_and(|t| t.contains("expired unanswered")), "{last_words:?}");
}

#[test]
fn an_addressee_told_its_request_expired_does_not_answer_it() {
    // Every request is delayed past its deadline: alice reads each only
    // after it expired, and is told so.
    let file = example("deadline-retry");
    let shutdown = file.protocol_named("shutdown").expect("the file's shutdown");
    let request = ProtocolSet::new(Arc::clone(&file)).request_type(shutdown);
    let late = FaultRule { action: FaultAction::Delay { ms: 45_000 }, msg_type: request, from: None, to: None, probability: 1.0 };
    let world = team_run_with("deadline-retry", 9, vec![late]);
    let shutdowns: Vec<_> = world.team().tracker().iter().map(|r| (r.status, r.expired())).collect();
    assert_eq!(shutdowns, [(RequestStatus::Rejected, true), (RequestStatus::Rejected, true)], "one ask and one retry, both expired");
    let delivered =
        world.team().trace().entries().iter().any(|e| matches!(&e.event, Event::InboxDrained { agent, .. } if agent.as_str() == "alice"));
    assert!(delivered, "alice read the late requests");
    let answers: Vec<_> = calls(&world).into_iter().filter(|c| c.0 == "alice" && c.1 == "shutdown_response").collect();
    assert_eq!(answers, [], "no answer to a request she was told had expired");
}

#[test]
fn a_teammate_asks_again_after_an_expiry_within_its_retries_and_the_leads_own_expired_request_counts_as_settled() {
    // Every review request is dropped: the lead never hears one.
    let file = example("review-gate");
    let review = file.protocol_named("review").expect("the file's review");
    let request = ProtocolSet::new(Arc::clone(&file)).request_type(review);
    let drop_requests = FaultRule { action: FaultAction::Drop, msg_type: request, from: None, to: None, probability: 1.0 };
    let world = team_run_with("review-gate", 5, vec![drop_requests]);
    let team = world.team();
    let reviews: Vec<_> = team.tracker().iter().filter(|r| r.kind.is_file()).map(|r| (r.status, r.expired())).collect();
    assert_eq!(reviews, [(RequestStatus::Rejected, true), (RequestStatus::Rejected, true)], "one ask and one retry (retries = 1)");
    let alice: Vec<_> = calls(&world).into_iter().filter(|c| c.0 == "alice" && c.1 == "request_review").collect();
    assert_eq!(alice.len(), 2, "no third ask: {alice:?}");
    assert!(alice.iter().all(|c| !c.2), "no ask refused: {alice:?}");
    // The lead is told each review request to it expired, but it never
    // heard a review: it still waits for one before it asks alice to shut
    // down.
    assert!(team.tracker().iter().all(|r| r.kind != RequestKind::SHUTDOWN));

    // The lead's own request expiring settles it for the lead: status-report
    // asks for gina's shutdown after her status request settled.
    let file = example("status-report");
    let status = file.protocol_named("status").expect("the file's status");
    let request = ProtocolSet::new(Arc::clone(&file)).request_type(status);
    let drop_requests = FaultRule { action: FaultAction::Drop, msg_type: request, from: None, to: None, probability: 1.0 };
    let world = team_run_with("status-report", 5, vec![drop_requests]);
    let statuses: Vec<_> = world.team().tracker().iter().map(|r| (r.kind.to_string(), r.status, r.expired())).collect();
    assert_eq!(
        statuses,
        [("status".to_string(), RequestStatus::Rejected, true), ("shutdown".to_string(), RequestStatus::Approved, false)],
        "the status request expired, then the lead asked for the shutdown"
    );
}

/// True when a fault dropped a message of `msg_type` on the run.
fn dropped(world: &World, msg_type: &str) -> bool {
    world.team().trace().entries().iter().any(|e| match &e.event {
        Event::FaultApplied { action: FaultAction::Drop, message, .. } => match message.msg_type {
            MessageType::SHUTDOWN_RESPONSE => msg_type == "shutdown_response",
            MessageType::Protocol(f) => f.name() == msg_type,
            _ => false,
        },
        _ => false,
    })
}

/// Next and Back walk a file's team one event at a time (`Timeline::walk`,
/// over the undo each event keeps): forward through each example's run and
/// back to its start, every state equals the replay of the prefix under
/// the file — its own protocols' effects, gates and expiries included.
#[test]
fn stepping_a_files_team_forward_and_back_gives_the_replayed_states() {
    use team_protocols::protocol::timeline::{Timeline, Walker};
    for id in ["task-claim", "review-gate", "deadline-retry", "status-report"] {
        let world = team_run(id, 7);
        let trace = world.team().trace();
        let mut timeline = Timeline::of_header(trace, 8);
        timeline.extend(trace.entries()).expect("the run's trace replays");
        let mut walker = Walker::default();
        for cursor in (0..=trace.len()).chain((0..trace.len()).rev()) {
            let replayed = Team::replay(&trace.prefix(cursor)).expect("a prefix replays");
            assert_eq!(&timeline.walk(&mut walker, trace.entries(), Some(cursor)), replayed.state(), "{id}: cursor {cursor}");
        }
    }
}

/// Runs the team of `file` as `team_run` does, except that the first
/// reply calling `tool` calls it with `slip` merged into its input, alone in
/// its reply (a model's slip the tool refuses); every later reply is the
/// scripted model's own.
fn team_run_with_a_slip(file: Arc<ProtocolFile>, tool: &str, slip: serde_json::Value) -> World {
    let id = file.team.as_ref().map(|t| t.id.clone()).unwrap_or_default();
    let run = file_team_run(file, 7).expect("the file has a team");
    let mut world = world_of(&run, run.faults.clone());
    let mut slipped = false;
    for prompt in &run.prompts {
        run_prompts(&mut world, std::slice::from_ref(prompt), 10_000, |_, request| {
            let mut reply = run.model.respond(request);
            for block in &mut reply.content {
                if let team_protocols::model::ContentBlock::ToolUse { name, input, .. } = block {
                    if name == tool && !slipped {
                        slipped = true;
                        for (k, v) in slip.as_object().expect("the slip is an object") {
                            input[k] = v.clone();
                        }
                    }
                }
            }
            Ok(reply)
        });
        assert_eq!(world.failure(), None, "{id}");
    }
    assert!(slipped, "{id}: {tool} was called");
    world
}

#[test]
fn a_teammate_whose_answer_was_refused_for_its_input_answers_again_on_its_next_turn() {
    let world = team_run_with_a_slip(example("status-report"), "report_status", serde_json::json!({ "progress": "sideways" }));
    let reports: Vec<bool> = calls(&world).into_iter().filter(|(a, t, _)| a == "gina" && t == "report_status").map(|(_, _, e)| e).collect();
    assert_eq!(reports, [true, false], "the slip is refused, then gina answers again, correctly");
    let settled: Vec<(RequestStatus, bool)> = world
        .team()
        .trace()
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::RequestTransitioned { request_kind, to, by, .. } if request_kind.is_file() => Some((*to, by.as_str() == "gina")),
            _ => None,
        })
        .collect();
    assert_eq!(settled, [(RequestStatus::Approved, true)], "gina's answer settles the status request (it does not expire)");
}

#[test]
fn a_lesson_teammate_whose_shutdown_answer_was_refused_for_its_input_answers_again_on_its_next_turn() {
    let (_, text) = builtin::TEAMS.iter().find(|(n, _)| *n == "shutdown").unwrap();
    let file = Arc::new(load(text).unwrap());
    let world = team_run_with_a_slip(file, "shutdown_response", serde_json::json!({ "approve": "yes" }));
    let answers: Vec<bool> =
        calls(&world).into_iter().filter(|(a, t, _)| a == "alice" && t == "shutdown_response").map(|(_, _, e)| e).collect();
    assert_eq!(answers, [true, false], "the slip is refused, then alice answers again, correctly");
    let settled = world.team().trace().entries().iter().any(|e| {
        matches!(&e.event, Event::RequestTransitioned { request_kind, by, .. } if *request_kind == RequestKind::SHUTDOWN && by.as_str() == "alice")
    });
    assert!(settled, "alice's second answer settles the shutdown request");
}
