//! Properties over protocol files. A file's `[[property]]` entries
//! searched by the explorer on the built-in scenarios
//! (`protocol::file::monitor`, `ExploreConfig::file_properties`): the
//! verdicts of the example file `lesson-properties.toml`, and each example
//! replayed from its path to the same finding. And the built-in properties
//! (`explore::Monitor`, over the checker) judging a file's own protocols,
//! each shown holding and broken on a small file.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;

use proptest::prelude::*;

use team_protocols::explore::{explore, replay_file_finding, ExploreConfig, Monitor, Property, Quantifier, Report, Verdict};
use team_protocols::protocol::file::{self, monitor::PropertySet, GateIx, ProtocolIx};
use team_protocols::protocol::{
    check, AgentName, Event, FieldValue, Fields, MemberStatus, Message, Millis, RequestId, Team, Trace, ViolationKind,
};
use team_protocols::runtime::scenarios;

const EXAMPLE: &str = include_str!("../src/protocol/file/examples/lesson-properties.toml");

fn searched(scenario: &str, faults: usize) -> Report {
    let set = PropertySet::compile(&file::load(EXAMPLE).expect("the example loads")).expect("it compiles for today's engine");
    let config = ExploreConfig { max_faults: faults, threads: 1, file_properties: set, ..ExploreConfig::new(scenario) };
    explore(&config).unwrap()
}

fn verdicts(r: &Report) -> Vec<(&str, Verdict)> {
    r.file_properties.iter().map(|p| (p.name.as_str(), p.verdict)).collect()
}

/// Each example replays from its path to a finding of the same property,
/// at the same event, and its trace is the replayed run.
fn examples_replay(r: &Report) {
    let scenario = scenarios::explorable(&r.config.scenario).unwrap();
    for (i, p) in r.file_properties.iter().enumerate() {
        let Some(e) = &p.example else {
            assert!(p.verdict != Verdict::Fails || p.quantifier == Quantifier::Sometimes, "{}: a failure has its run", p.name);
            continue;
        };
        let config = ExploreConfig { max_faults: e.bound, ..r.config.clone() };
        let (trace, found) = replay_file_finding(scenario, &config, &e.path, i).unwrap();
        assert_eq!(found.as_ref(), Some(&e.finding), "{} on {}", p.name, r.config.scenario);
        assert_eq!(trace, e.trace, "{}", p.name);
    }
}

#[test]
fn every_shutdown_request_settles_unless_a_message_is_dropped_as_the_builtin_settle_property_shows() {
    let clean = searched("shutdown", 0);
    assert!(clean.complete);
    use Verdict::*;
    assert_eq!(
        verdicts(&clean),
        vec![
            ("every_shutdown_request_settles", Holds),
            ("shutdown_only_after_work", Fails),
            ("plan_approved_at_most_once", Holds),
            ("lead_never_writes", Holds),
            ("sometimes_a_plan_is_rejected", Fails),
            ("shutdown_messages_are_read", Holds),
        ]
    );
    examples_replay(&clean);
    let one = searched("shutdown", 1);
    let settles = &one.file_properties[0];
    assert_eq!(settles.verdict, Fails);
    let e = settles.example.as_ref().unwrap();
    assert_eq!(e.faults, 1);
    let builtin = one.property(team_protocols::explore::Property::RequestsSettle).unwrap();
    assert_eq!(builtin.verdict, Fails, "the built-in property fails on the same runs");
    assert_eq!(builtin.example.as_ref().map(|b| &b.path), Some(&e.path), "the same shortest run");
    examples_replay(&one);
}

#[test]
fn a_rejected_plan_is_witnessed_and_a_fault_lets_a_teammate_have_a_plan_approved_twice() {
    use Verdict::*;
    let clean = searched("reject-plan", 0);
    assert_eq!(verdicts(&clean).iter().filter(|(_, v)| *v != Holds).count(), 0, "{:?}", verdicts(&clean));
    let witness = clean.file_properties[4].example.as_ref().expect("a witness run");
    assert_eq!(witness.faults, 0);
    examples_replay(&clean);
    let one = searched("reject-plan", 1);
    assert_eq!(one.file_properties[2].verdict, Fails, "plan_approved_at_most_once: {:?}", verdicts(&one));
    assert_eq!(one.file_properties[2].example.as_ref().map(|e| e.faults), Some(1));
    examples_replay(&one);
}

#[test]
fn on_approve_plan_the_example_holds_without_faults() {
    let clean = searched("approve-plan", 0);
    assert!(clean.file_properties.iter().all(|p| p.verdict == Verdict::Holds), "{:?}", verdicts(&clean));
    examples_replay(&clean);
}

#[test]
fn without_file_properties_the_search_is_the_same() {
    let set = PropertySet::compile(&file::load(EXAMPLE).unwrap()).unwrap();
    let base = ExploreConfig { max_faults: 1, threads: 1, ..ExploreConfig::new("shutdown") };
    let plain = explore(&base).unwrap();
    assert!(plain.file_properties.is_empty());
    let with = explore(&ExploreConfig { file_properties: set, ..base }).unwrap();
    // The built-in verdicts do not change; the file's counters may split
    // states the built-in ones merge, so only more states, never fewer.
    let v = |r: &Report| r.properties.iter().map(|p| (p.property, p.verdict)).collect::<Vec<_>>();
    assert_eq!(v(&plain), v(&with));
    assert!(with.distinct_states >= plain.distinct_states);
}

// ---- The built-in properties judge a file's own protocols ----------------

/// A claim protocol (teammates ask the lead; approval opens the asker's
/// build gate, rejection closes it; a deadline), a handoff the lead asks a
/// teammate (approval: the teammate exits) and a permission nobody answers
/// (its rule switched off), with ann (build gate closed at spawn) and ben.
const OWN: &str = r#"
format = 1

[[gate]]
name = "build"
tools = ["write_file"]

[[protocol]]
name = "claim"
request = "claim_request"
response = "claim_response"
from = "teammate"
to = "lead"
request_fields = [{ name = "task", type = "enum", values = ["parser", "lexer"], required = true }]
on_approve = [{ effect = "open_gate", gate = "build", who = "requester" }]
on_reject = [{ effect = "close_gate", gate = "build", who = "requester" }]
deadline_ms = 1000
retries = 1
tools.request = { name = "claim_task", description = "Claim a task." }
tools.respond = { name = "answer_claim", description = "Answer a claim." }

[[protocol]]
name = "handoff"
request = "handoff_request"
response = "handoff_response"
from = "lead"
to = "teammate"
on_approve = [{ effect = "exit", who = "addressee" }]
tools.request = { name = "hand_off", description = "Ask a teammate to hand off and leave." }
tools.respond = { name = "answer_handoff", description = "Answer a handoff." }

[[protocol]]
name = "permission"
request = "permission_request"
response = "permission_response"
from = "teammate"
to = "lead"
tools.request = { name = "ask_permission", description = "Ask the lead for permission." }

[team]
id = "own"
title = "ann and ben"
prompt = "Spawn ann and ben."
rules_off = ["responder_required"]

[[team.teammate]]
name = "ann"
role = "coder"
task = "Build the parser."
gates = ["build"]

[[team.teammate]]
name = "ben"
role = "coder"
task = "Build the lexer."

[[team.step]]
spawn = "ann"
"#;

const CLAIM: ProtocolIx = ProtocolIx(0);
const HANDOFF: ProtocolIx = ProtocolIx(1);
const PERMISSION: ProtocolIx = ProtocolIx(2);

fn who(s: &str) -> AgentName {
    if s == "lead" {
        AgentName::lead()
    } else {
        AgentName::parse(s).unwrap()
    }
}

/// A team under `OWN` with ann and ben spawned.
fn own_team() -> Team {
    let f = file::load(OWN).unwrap_or_else(|e| panic!("{}", e.render("own.toml")));
    let mut t = Team::with_protocols("t", 7, Arc::new(f));
    t.spawn(&who("ann"), "coder", false, Millis(0)).unwrap();
    t.spawn(&who("ben"), "coder", false, Millis(0)).unwrap();
    t
}

fn task(name: &str) -> Fields {
    [("task".to_string(), FieldValue::Text(name.into()))].into_iter().collect()
}

/// `events` appended to `t`'s trace as they are, unchecked (what an
/// imported trace or a misbehaving model might hold).
fn forced(t: &Team, events: Vec<Event>) -> Trace {
    let mut trace = t.trace().clone();
    let at = trace.entries().last().map_or(Millis(0), |e| e.time);
    for e in events {
        trace.append(at, e).unwrap();
    }
    trace
}

/// A claim response from `from` to `to` for `id`, sent.
fn claim_response(t: &Team, from: &str, to: &str, id: &RequestId) -> Event {
    let mut m = Message::new(t.protocols().response_type(CLAIM).unwrap(), who(from), who(to), "", Millis(0));
    m.request_id = Some(id.clone());
    m.approve = Some(true);
    Event::MessageSent { message: m }
}

/// `tool` run by `agent`, returning `ok` or an error.
fn tool_run(agent: &str, tool: &str, ok: bool) -> Vec<Event> {
    vec![
        Event::ToolCalled { agent: who(agent), tool_use_id: "t9".into(), tool: tool.into(), input: serde_json::Value::Null },
        Event::ToolReturned { agent: who(agent), tool_use_id: "t9".into(), tool: tool.into(), output: String::new(), is_error: !ok },
    ]
}

/// The built-in properties `trace` breaks, folded by the explorer's
/// monitor under the trace's protocols (`sometimes` witnesses left out);
/// with `team`, also those its run's end (and going quiet) breaks.
fn broken(trace: &Trace, team: Option<&Team>) -> Vec<Property> {
    let mut m = Monitor::with_protocols(trace.protocols().clone());
    let mut found: Vec<Property> = trace.entries().iter().flat_map(|e| m.observe(e)).map(|f| f.property).collect();
    if let Some(t) = team {
        let seq = trace.next_seq();
        found.extend(m.at_quiet(t, seq).into_iter().chain(m.at_end(t, seq)).map(|f| f.property));
    }
    found.retain(|p| p.quantifier() != Quantifier::Sometimes);
    found
}

#[test]
fn an_answer_to_an_unknown_id_of_a_file_protocol_breaks_no_answer_to_unknown_request() {
    let mut t = own_team();
    let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(1)).unwrap();
    t.respond(CLAIM, &id, &who("lead"), true, Fields::new(), Millis(2)).unwrap();
    assert_eq!(broken(t.trace(), None), []);
    let ghost = RequestId::parse("0badf00d").unwrap();
    assert_eq!(broken(&forced(&t, vec![claim_response(&t, "lead", "ann", &ghost)]), None), [Property::NoAnswerToUnknownRequest]);
}

#[test]
fn a_second_answer_to_a_file_protocols_request_breaks_no_second_answer() {
    let mut t = own_team();
    let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(1)).unwrap();
    t.respond(CLAIM, &id, &who("lead"), true, Fields::new(), Millis(2)).unwrap();
    assert_eq!(broken(&forced(&t, vec![claim_response(&t, "lead", "ann", &id)]), None), [Property::NoSecondAnswer]);
}

#[test]
fn an_answer_from_someone_not_asked_breaks_only_the_addressee_answers() {
    let mut t = own_team();
    let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(1)).unwrap();
    assert_eq!(broken(&forced(&t, vec![claim_response(&t, "ben", "ann", &id)]), None), [Property::OnlyTheAddresseeAnswers]);
}

#[test]
fn a_request_of_a_protocol_with_no_answer_tool_breaks_every_request_has_a_responder() {
    let mut t = own_team();
    t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(1)).unwrap();
    assert!(!broken(t.trace(), None).contains(&Property::EveryRequestHasAResponder), "the lead has answer_claim");
    t.ask(PERMISSION, &who("ben"), &who("lead"), Fields::new(), Millis(2)).unwrap();
    assert_eq!(broken(t.trace(), None), [Property::EveryRequestHasAResponder]);
}

#[test]
fn a_file_protocols_request_pending_at_the_end_breaks_settle_and_quiet_while_pending_and_an_expiry_settles_it() {
    let mut t = own_team();
    let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(1)).unwrap();
    assert_eq!(broken(t.trace(), Some(&t)), [Property::NoQuietWhilePending, Property::RequestsSettle]);
    t.expire(&id, Millis(1001)).unwrap();
    assert_eq!(broken(t.trace(), Some(&t)), [], "rejected with cause expired: settled");
    let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(1002)).unwrap();
    t.respond(CLAIM, &id, &who("lead"), false, Fields::new(), Millis(1003)).unwrap();
    assert_eq!(broken(t.trace(), Some(&t)), []);
}

#[test]
fn acting_after_an_approved_exit_effect_breaks_no_action_after_shutdown_approved() {
    let mut t = own_team();
    let id = t.ask(HANDOFF, &who("lead"), &who("ben"), Fields::new(), Millis(1)).unwrap();
    t.respond(HANDOFF, &id, &who("ben"), true, Fields::new(), Millis(2)).unwrap();
    assert_eq!(broken(t.trace(), None), [], "the answer is part of the turn it finishes");
    let acts = forced(&t, vec![Event::ModelCalled { agent: who("ben") }]);
    assert_eq!(broken(&acts, None), [Property::NoActionAfterShutdownApproved]);
    let rejected = {
        let mut t = own_team();
        let id = t.ask(HANDOFF, &who("lead"), &who("ben"), Fields::new(), Millis(1)).unwrap();
        t.respond(HANDOFF, &id, &who("ben"), false, Fields::new(), Millis(2)).unwrap();
        forced(&t, vec![Event::ModelCalled { agent: who("ben") }])
    };
    assert_eq!(broken(&rejected, None), []);
}

#[test]
fn a_gated_tool_that_runs_while_its_gate_is_closed_breaks_no_gated_tool_while_closed() {
    let mut t = own_team();
    // ann's build gate is closed at spawn: a refused write is no breach, a
    // write that went through is; ben has no gate; a tool the gate does not
    // hold is free.
    assert_eq!(broken(&forced(&t, tool_run("ann", "write_file", false)), None), []);
    assert_eq!(broken(&forced(&t, tool_run("ann", "write_file", true)), None), [Property::NoGatedToolWhileClosed]);
    assert_eq!(broken(&forced(&t, tool_run("ann", "read_file", true)), None), []);
    assert_eq!(broken(&forced(&t, tool_run("ben", "write_file", true)), None), []);
    // An approved claim opens it; a rejected one closes it again.
    let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(1)).unwrap();
    t.respond(CLAIM, &id, &who("lead"), true, Fields::new(), Millis(2)).unwrap();
    assert_eq!(broken(&forced(&t, tool_run("ann", "write_file", true)), None), []);
    let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("lexer"), Millis(3)).unwrap();
    t.respond(CLAIM, &id, &who("lead"), false, Fields::new(), Millis(4)).unwrap();
    assert!(t.gate_closed(&who("ann"), GateIx(0)));
    assert_eq!(broken(&forced(&t, tool_run("ann", "write_file", true)), None), [Property::NoGatedToolWhileClosed]);
    let found = check(&forced(&t, tool_run("ann", "write_file", true)));
    assert_eq!(found.iter().map(|v| v.kind).collect::<Vec<_>>(), [ViolationKind::GatedToolWhileClosed]);
    assert_eq!(found[0].detail.to_string(), "ann ran write_file while its gate 'build' was closed");
}

#[test]
fn the_checkers_gates_follow_the_teams_through_claims_expiries_and_restarts() {
    let mut t = own_team();
    let ann = who("ann");
    let judged = |t: &Team| broken(&forced(t, tool_run("ann", "write_file", true)), None).contains(&Property::NoGatedToolWhileClosed);
    let mut at = 1;
    let steps: [fn(&mut Team, u64); 4] = [
        |t, at| {
            let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(at)).unwrap();
            t.respond(CLAIM, &id, &who("lead"), true, Fields::new(), Millis(at + 1)).unwrap();
        },
        |t, at| {
            let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(at)).unwrap();
            t.expire(&id, Millis(at + 1)).unwrap();
        },
        |t, at| {
            let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("lexer"), Millis(at)).unwrap();
            t.respond(CLAIM, &id, &who("lead"), true, Fields::new(), Millis(at + 1)).unwrap();
        },
        |t, at| {
            t.set_status(&who("ann"), MemberStatus::Shutdown, Millis(at)).unwrap();
            t.spawn(&who("ann"), "coder", false, Millis(at + 1)).unwrap();
        },
    ];
    assert!(judged(&t), "closed at spawn");
    let mut closed = Vec::new();
    for step in steps {
        step(&mut t, at);
        at += 2000;
        assert_eq!(judged(&t), t.gate_closed(&ann, GateIx(0)), "after {} events", t.trace().len());
        closed.push(judged(&t));
    }
    assert_eq!(closed, [false, true, false, true], "approved opens, expired closes, approved opens, a restart closes");
}

#[test]
fn an_answer_after_its_request_expired_breaks_no_answer_after_expiry() {
    let mut t = own_team();
    let id = t.ask(CLAIM, &who("ann"), &who("lead"), task("parser"), Millis(1)).unwrap();
    t.expire(&id, Millis(1001)).unwrap();
    assert_eq!(broken(t.trace(), None), []);
    assert_eq!(broken(&forced(&t, vec![claim_response(&t, "lead", "ann", &id)]), None), [Property::NoAnswerAfterExpiry]);
}

// ---- A file's own properties over its own protocols ----------------------

/// ann and ben claim tasks with the file's own `claim` protocol; one
/// property of each pattern holding and one failing (named so), and a
/// response field read on its delivery.
const OWN_CLAIMS: &str = include_str!("fixtures/own-claims-properties.toml");

/// The file's own team searched with its own properties, the lead keeping
/// to its steps (no decisions off script): the patterns are judged on the
/// runs the file scripts. A lead off its script may approve any claim:
/// `a_lead_off_its_script_breaks_the_task_claims_one_owner_per_task`.
fn own_searched(text: &str) -> Report {
    own_searched_deciding(text, 0)
}

/// The file's own team searched with its own properties and at most
/// `decisions` decisions off script per run.
fn own_searched_deciding(text: &str, decisions: usize) -> Report {
    let f = file::load(text).unwrap_or_else(|e| panic!("{}", e.render("own-claims-properties.toml")));
    let set = PropertySet::compile(&f).expect("a file's own protocols' properties compile");
    let rules = f.team.as_ref().unwrap().rules.rules;
    let id = f.team.as_ref().unwrap().id.clone();
    let config = ExploreConfig {
        threads: 1,
        max_decisions: decisions,
        file_properties: set,
        rules,
        team: Some(Arc::new(f)),
        ..ExploreConfig::new(&id)
    };
    explore(&config).unwrap()
}

#[test]
fn each_pattern_over_a_files_own_protocol_holds_or_fails_as_its_run_says_and_each_example_replays_to_it() {
    let r = own_searched(OWN_CLAIMS);
    assert!(r.complete);
    use Verdict::*;
    assert_eq!(
        verdicts(&r),
        vec![
            ("absence_holds", Holds),
            ("absence_fails", Fails),
            ("existence_holds", Holds),
            ("existence_fails", Fails),
            ("at_most_holds", Holds),
            ("at_most_fails", Fails),
            ("precedence_holds", Holds),
            ("precedence_fails", Fails),
            ("response_holds", Holds),
            ("response_fails", Fails),
            ("field_filter_fails", Fails),
        ]
    );
    let detail =
        |name: &str| r.file_properties.iter().find(|p| p.name == name).and_then(|p| p.example.as_ref()).map(|e| e.finding.detail.clone());
    assert_eq!(detail("at_most_fails").as_deref().map(|d| d.contains("in key 'parser', over the bound of 1")), Some(true));
    assert_eq!(detail("existence_holds").as_deref(), Some("the run ends with the property kept"), "a witness");
    // The team's own start is what is replayed, whatever scenario is passed.
    let scenario = scenarios::explorable("shutdown").unwrap();
    let mut replayed = 0;
    for (i, p) in r.file_properties.iter().enumerate() {
        let Some(e) = &p.example else {
            assert_eq!(p.verdict, Holds, "{}: a failure has its run", p.name);
            continue;
        };
        let config = ExploreConfig { max_faults: e.bound, ..r.config.clone() };
        let (trace, found) = replay_file_finding(scenario, &config, &e.path, i).unwrap();
        assert_eq!(found.as_ref(), Some(&e.finding), "{}: the same finding", p.name);
        assert_eq!(trace, e.trace, "{}: the same run", p.name);
        replayed += 1;
    }
    assert_eq!(replayed, 7, "six failures and a witness");
}

#[test]
fn the_task_claim_example_gets_a_verdict_for_its_own_property_and_the_builtin_ones_do_not_change() {
    let text = include_str!("../src/protocol/file/examples/task-claim.toml");
    let with = own_searched(text);
    assert_eq!(verdicts(&with), vec![("one_owner_per_task", Verdict::Holds)]);
    // Without its property: the same built-in verdicts over the same runs.
    let f = file::load(text).unwrap();
    let rules = f.team.as_ref().unwrap().rules.rules;
    let without =
        explore(&ExploreConfig { threads: 1, max_decisions: 0, rules, team: Some(Arc::new(f)), ..ExploreConfig::new("task-claim") })
            .unwrap();
    let v = |r: &Report| r.properties.iter().map(|p| (p.property, p.verdict)).collect::<Vec<_>>();
    assert_eq!(v(&with), v(&without));
    assert!(with.distinct_states >= without.distinct_states);
}

#[test]
fn a_lead_off_its_script_breaks_the_task_claims_one_owner_per_task() {
    // Nothing in the claim protocol refuses a second approved claim of a
    // task: the property rests on the lead. One decision off script (the
    // lead approves ben's claim of the parser too) breaks it, and the
    // example replays to the same finding.
    let r = own_searched_deciding(include_str!("../src/protocol/file/examples/task-claim.toml"), 1);
    assert_eq!(verdicts(&r), vec![("one_owner_per_task", Verdict::Fails)]);
    let e = r.file_properties[0].example.as_ref().expect("a failure has its run");
    assert!(e.path.iter().any(|step| format!("{step:?}").contains("instead")), "the lead's answer was flipped: {:?}", e.path);
    let scenario = scenarios::explorable("shutdown").unwrap();
    let (_, found) = replay_file_finding(scenario, &ExploreConfig { max_faults: e.bound, ..r.config.clone() }, &e.path, 0).unwrap();
    assert_eq!(found.as_ref(), Some(&e.finding));
}

/// ann claims a task with the file's own protocol; the properties are
/// appended (`RANDOM_TEAM` + `[[property]]` tables).
const RANDOM_TEAM: &str = r#"format = 1
[[protocol]]
name = "claim"
request = "claim_request"
response = "claim_response"
from = "teammate"
to = "lead"
request_fields = [{ name = "task", type = "enum", values = ["parser", "lexer"], required = true }]
response_fields = [{ name = "note", type = "string", content = true }]
tools.request = { name = "claim_task", description = "Claim a task from the lead." }
tools.respond = { name = "answer_claim", description = "Answer a claim by request_id." }
scripted = { answer = "approve" }

[team]
id = "random-claims"
title = "ann claims a task"
prompt = "Spawn ann; she claims the parser."

[[team.teammate]]
name = "ann"
role = "coder"
task = "Claim the parser and build it."

[[team.step]]
spawn = "ann"
[[team.step]]
answer = "claim"
from = "ann"
approve = true
"#;

const EVENTS: [&str; 8] = ["created", "approved", "rejected", "expired", "settled", "delivered", "tool", "model_call"];

/// A matcher's TOML: `event` (by its place in `EVENTS`), of the claim
/// protocol when `claim` (always, for a request's events, under a key
/// scope), with a task filter when `task` names one.
fn matcher(event: usize, claim: bool, task: Option<&str>, keyed: bool) -> String {
    let e = EVENTS[event % EVENTS.len()];
    let requests = !matches!(e, "tool" | "model_call");
    let mut m = format!("{{ event = \"{e}\"");
    if e == "tool" {
        m.push_str(", tool = \"claim_task\"");
    }
    if requests && (claim || keyed) {
        m.push_str(", protocol = \"claim\"");
        if let Some(t) = task {
            m.push_str(&format!(", task = \"{t}\""));
        }
    }
    m + " }"
}

prop_compose! {
    /// One `[[property]]` of any pattern, quantifier and scope over the
    /// claim protocol.
    fn a_property(n: usize)(pattern in 0usize..5, expect in 0usize..3, scope in 0usize..4, events in (0usize..8, 0usize..8),
                            claim in any::<bool>(), task in proptest::option::of(prop_oneof![Just("parser"), Just("lexer")]), bound in 0u32..3) -> String {
        let keyed = scope == 3;
        // A key scope reads a request's field: both matchers name the protocol's request events.
        let (a, b) = if keyed { (events.0 % 6, events.1 % 6) } else { events };
        let expect = ["always", "sometimes", "eventually"][expect];
        let scope = ["run", "per_agent", "per_request", "per_key:task"][scope];
        let body = match pattern {
            0 => format!("pattern = \"absence\"\nmatch = {}", matcher(a, claim, task, keyed)),
            1 => format!("pattern = \"existence\"\nmatch = {}", matcher(a, claim, task, keyed)),
            2 => format!("pattern = \"at_most\"\nn = {bound}\ncount = {}", matcher(a, claim, task, keyed)),
            3 => format!("pattern = \"precedence\"\nfirst = {}\nthen = {}", matcher(a, claim, task, keyed), matcher(b, claim, None, keyed)),
            _ => format!("pattern = \"response\"\ntrigger = {}\nreply = {}", matcher(a, claim, task, keyed), matcher(b, claim, None, keyed)),
        };
        format!("\n[[property]]\nname = \"p{n}\"\nexpect = \"{expect}\"\n{body}\nscope = \"{scope}\"\n")
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Random properties of every pattern over a file's own protocol load,
    /// compile and are searched without a panic, each gets a verdict, and
    /// every example (counterexample or witness) replays to the same finding.
    #[test]
    fn random_properties_over_a_files_own_protocol_get_verdicts_and_their_examples_replay(
        ps in (a_property(0), a_property(1), a_property(2), a_property(3))
    ) {
        let text = format!("{RANDOM_TEAM}{}{}{}{}", ps.0, ps.1, ps.2, ps.3);
        let f = file::load(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.render("random.toml")));
        let set = PropertySet::compile(&f).unwrap();
        let config = ExploreConfig { threads: 1, file_properties: set, team: Some(Arc::new(f)), ..ExploreConfig::new("random-claims") };
        let r = explore(&config).unwrap();
        prop_assert!(r.complete);
        prop_assert_eq!(r.file_properties.len(), 4);
        let scenario = scenarios::explorable("shutdown").unwrap();
        for (i, p) in r.file_properties.iter().enumerate() {
            prop_assert!(p.verdict != Verdict::Unknown, "{}: {:?}\n{}", p.name, p.verdict, text);
            let Some(e) = &p.example else {
                prop_assert!(p.verdict == Verdict::Holds || p.quantifier == Quantifier::Sometimes, "{}: a failure has its run\n{}", p.name, text);
                continue;
            };
            let (trace, found) = replay_file_finding(scenario, &ExploreConfig { max_faults: e.bound, ..r.config.clone() }, &e.path, i).unwrap();
            prop_assert_eq!(found.as_ref(), Some(&e.finding), "{}\n{}", p.name, text);
            prop_assert_eq!(&trace, &e.trace);
        }
    }
}
