//! The explorer enumerates a protocol file's own alternatives (issue 26,
//! item 3): at a file team's model call the answerer may give the other
//! answer, withhold it, or pick each value of an enum field of its answer;
//! a teammate about to use a tool its closed gate holds may skip asking
//! (the core then refuses the tool, naming the protocol that opens it); a
//! pending request with a deadline may expire at any turn (a choice, not
//! only when virtual time reaches it); after an expiry the asker asks
//! again within its protocol's `retries`. Each is one decision off the
//! script, bounded as the lesson's are (`max_decisions`), and each is seen:
//! removing it changes what the search finds.
//!
//! The example of issue 26 item 8a: a dropped shutdown request leaves the
//! lesson's shutdown pending for ever; with a deadline and a retry
//! (`deadline-retry`) every request settles.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

use team_protocols::explore::{explore, Choice, ExploreConfig, Node, Property, Report, Verdict};
use team_protocols::model::scripted::choices::Decisions;
use team_protocols::protocol::file::{builtin, load, ProtocolFile};
use team_protocols::protocol::{Event, FaultAction, RequestStatus, Trace};
use team_protocols::runtime::scenarios;

fn loaded(name: &str, text: &str) -> Arc<ProtocolFile> {
    Arc::new(load(text).unwrap_or_else(|e| panic!("{}", e.render(name))))
}

fn example(id: &str) -> Arc<ProtocolFile> {
    let (_, text) = builtin::EXAMPLES.iter().find(|(n, _)| *n == id).unwrap_or_else(|| panic!("no example '{id}'"));
    loaded(id, text)
}

fn lesson_team(id: &str) -> Arc<ProtocolFile> {
    loaded(id, builtin::team(id).unwrap_or_else(|| panic!("no built-in team '{id}'")))
}

/// Explores `file`'s own team with up to `faults` drops.
fn team_config(file: &Arc<ProtocolFile>, faults: usize) -> ExploreConfig {
    let id = file.team.as_ref().expect("a team").id.clone();
    let mut c = ExploreConfig { max_faults: faults, fault_kinds: vec![FaultAction::Drop], threads: 1, ..ExploreConfig::new(&id) };
    c.rules = file.team.as_ref().unwrap().rules.rules;
    c.team = Some(Arc::clone(file));
    c
}

fn verdict(report: &Report, p: Property) -> Verdict {
    report.property(p).expect("every property is reported").verdict
}

fn no_decisions() -> Decisions {
    Decisions { flip_answers: false, withhold_answers: false, skip_plans: false, answer_for_addressee: false }
}

/// Walks the file team's states breadth first (at most `limit` distinct
/// ones, each keeping its trace), and returns every choice open on the way
/// with the node it was open at.
fn walk(config: &ExploreConfig, limit: usize) -> Vec<(Node, Choice)> {
    let scenario = scenarios::explorable("shutdown").expect("unread under a file team");
    let (start, _) = Node::start(scenario, config, true).expect("the team starts");
    let mut seen = BTreeSet::from([start.state_hash(config)]);
    let mut queue = VecDeque::from([start]);
    let mut out = Vec::new();
    while let Some(node) = queue.pop_front() {
        for choice in node.choices(config) {
            out.push((node.clone(), choice.clone()));
            let (next, _) = node.after(&choice, config).expect("an open choice is taken");
            if seen.len() < limit && seen.insert(next.state_hash(config)) {
                queue.push_back(next);
            }
        }
    }
    out
}

fn labels(walked: &[(Node, Choice)]) -> Vec<String> {
    walked
        .iter()
        .filter_map(|(_, c)| match c {
            Choice::Reply { label, .. } => Some(label.clone()),
            _ => None,
        })
        .collect()
}

/// The shutdown requests of a run (the lesson's, or a file's protocol
/// named so), in order: (status, expired).
fn shutdowns(trace: &Trace) -> Vec<(RequestStatus, bool)> {
    let team = team_protocols::protocol::Team::replay(trace).expect("the trace replays");
    team.tracker().iter().filter(|r| r.kind.to_string() == "shutdown").map(|r| (r.status, r.expired())).collect()
}

#[test]
fn a_dropped_request_leaves_the_lessons_shutdown_pending_but_with_a_deadline_and_a_retry_every_request_settles() {
    let lesson = explore(&team_config(&lesson_team("shutdown"), 1)).unwrap();
    assert!(lesson.complete);
    assert_eq!(verdict(&lesson, Property::RequestsSettle), Verdict::Fails);
    let stuck = lesson.property(Property::RequestsSettle).and_then(|p| p.example.as_ref()).expect("a counterexample");
    assert!(stuck.path.iter().any(|c| matches!(c, Choice::Turn { fault: Some(FaultAction::Drop), .. })), "{:?}", stuck.path);
    assert_eq!(shutdowns(&stuck.trace), [(RequestStatus::Pending, false)], "the dropped request stays pending");

    let deadline = explore(&team_config(&example("deadline-retry"), 1)).unwrap();
    assert!(deadline.complete);
    for p in [Property::RequestsSettle, Property::NoQuietWhilePending, Property::NoAnswerToUnknownRequest, Property::NoSecondAnswer] {
        assert_eq!(verdict(&deadline, p), Verdict::Holds, "{}", p.name());
    }
    // The deadline is what settles it: without one the same team fails.
    let text = builtin::EXAMPLES.iter().find(|(n, _)| *n == "deadline-retry").unwrap().1;
    let no_deadline = loaded("no-deadline", &text.replace("deadline_ms = 30000\nretries = 1\n", ""));
    assert!(no_deadline.protocols.iter().all(|p| p.deadline_ms.is_none()), "the deadline is gone");
    let without = explore(&team_config(&no_deadline, 1)).unwrap();
    assert_eq!(verdict(&without, Property::RequestsSettle), Verdict::Fails);
}

#[test]
fn after_an_expiry_the_scripted_lead_asks_again_and_the_retry_can_be_approved() {
    // One drop, no other decision: the run where the first request is
    // dropped expires it (in virtual time, at quiet) and the lead asks again.
    let file = example("deadline-retry");
    let config = ExploreConfig { decisions: no_decisions(), max_decisions: 0, ..team_config(&file, 1) };
    let walked = walk(&config, 2_000);
    let retried = walked.iter().find_map(|(node, choice)| {
        let (next, step) = node.after(choice, &config).ok()?;
        let s = shutdowns(next.trace());
        (step.terminal && s.len() == 2).then_some(s)
    });
    assert_eq!(
        retried,
        Some(vec![(RequestStatus::Rejected, true), (RequestStatus::Approved, false)]),
        "the first expired, the retry was approved"
    );
    // The lead never asks a third time: its retries are 1.
    assert!(walked.iter().all(|(node, _)| shutdowns(node.trace()).len() <= 2));
}

#[test]
fn the_deadline_passing_is_a_choice_at_any_turn_and_the_requester_is_told() {
    let file = example("deadline-retry");
    let config = ExploreConfig { decisions: no_decisions(), max_decisions: 1, ..team_config(&file, 0) };
    let walked = walk(&config, 2_000);
    let (node, choice) = walked.iter().find(|(_, c)| matches!(c, Choice::Expire { .. })).expect("an expiry is offered");
    let Choice::Expire { request } = choice else { unreachable!() };
    let (next, _) = node.after(choice, &config).unwrap();
    let expired: Vec<_> = next.trace().entries().iter().filter(|e| matches!(e.event, Event::RequestExpired { .. })).collect();
    assert_eq!(expired.len(), 1);
    assert!(matches!(&expired[0].event, Event::RequestExpired { request_id, .. } if request_id == request));
    // Off script: past the bound on decisions no expiry is offered.
    let bounded = ExploreConfig { max_decisions: 0, ..config.clone() };
    assert!(walk(&bounded, 2_000).iter().all(|(_, c)| !matches!(c, Choice::Expire { .. })));
    // Some run lets the first request expire early and the lead asks again.
    let asked_again = walked.iter().any(|(node, choice)| {
        matches!(choice, Choice::Expire { .. })
            && node.after(choice, &config).is_ok_and(|(n, _)| {
                let mut n = n;
                // Follow the script to the end of the run.
                loop {
                    let open = n.choices(&config);
                    let Some(first) = open.into_iter().find(|c| !matches!(c, Choice::Expire { .. })) else { break };
                    n = n.after(&first, &config).unwrap().0;
                }
                shutdowns(n.trace()).len() == 2
            })
    });
    assert!(asked_again, "after an early expiry the lead asks again");
    // Removing the alternative changes the search.
    let with = explore(&config).unwrap();
    let without = explore(&bounded).unwrap();
    assert!(with.distinct_states > without.distinct_states, "{} vs {}", with.distinct_states, without.distinct_states);
}

#[test]
fn an_answer_of_a_file_protocol_is_offered_the_other_way_withheld_and_with_each_enum_value() {
    let file = example("status-report");
    let all = Decisions { flip_answers: true, withhold_answers: true, skip_plans: true, answer_for_addressee: false };
    let config = ExploreConfig { decisions: all, max_decisions: 1, ..team_config(&file, 0) };
    let labels = labels(&walk(&config, 2_000));
    for wanted in ["reject ", "withhold the answer to ", "with progress = blocked", "with progress = done"] {
        assert!(labels.iter().any(|l| l.contains(wanted)), "no '{wanted}' among {labels:?}");
    }
    // The scripted value is not offered again as an alternative.
    assert!(!labels.iter().any(|l| l.contains("with progress = on_track")), "{labels:?}");
    // Each kind of alternative, taken away, changes the search.
    let states = |d: Decisions| explore(&ExploreConfig { decisions: d, ..config.clone() }).unwrap().distinct_states;
    let full = states(all);
    assert!(states(Decisions { flip_answers: false, ..all }) < full, "flips and enum values");
    assert!(states(Decisions { withhold_answers: false, ..all }) < full, "withholding");
}

#[test]
fn a_withheld_answer_of_a_file_protocol_without_a_deadline_is_left_pending() {
    let file = example("task-claim");
    assert!(file.protocols.iter().filter(|p| !p.builtin).all(|p| p.deadline_ms.is_none()));
    let withhold = Decisions { withhold_answers: true, ..no_decisions() };
    let report = explore(&ExploreConfig { decisions: withhold, max_decisions: 1, ..team_config(&file, 0) }).unwrap();
    assert_eq!(verdict(&report, Property::RequestsSettle), Verdict::Fails);
    let stuck = report.property(Property::RequestsSettle).and_then(|p| p.example.as_ref()).unwrap();
    assert!(
        stuck.path.iter().any(|c| matches!(c, Choice::Reply { label, .. } if label.starts_with("withhold the answer to "))),
        "{:?}",
        stuck.path
    );
    let scripted = explore(&ExploreConfig { decisions: no_decisions(), ..team_config(&file, 0) }).unwrap();
    assert_eq!(verdict(&scripted, Property::RequestsSettle), Verdict::Holds);
}

#[test]
fn a_teammate_may_skip_asking_before_a_gated_tool_and_the_core_refuses_the_tool_naming_the_opener() {
    let file = example("review-gate");
    let skip = Decisions { skip_plans: true, ..no_decisions() };
    let config = ExploreConfig { decisions: skip, max_decisions: 1, ..team_config(&file, 0) };
    let walked = walk(&config, 2_000);
    let (node, choice) = walked
        .iter()
        .find(|(_, c)| matches!(c, Choice::Reply { label, .. } if label == "call write_file without asking first (its gate is closed)"))
        .unwrap_or_else(|| panic!("no skip among {:?}", labels(&walked)));
    let mut n = node.after(choice, &config).unwrap().0;
    // The teammate's turn runs the tool.
    while !n.trace().entries().iter().any(|e| matches!(&e.event, Event::ToolReturned { tool, .. } if tool == "write_file")) {
        let next = n.choices(&config).into_iter().next().expect("the run goes on");
        n = n.after(&next, &config).unwrap().0;
    }
    let refused = n.trace().entries().iter().find_map(|e| match &e.event {
        Event::ToolReturned { tool, output, is_error, .. } if tool == "write_file" => Some((output.clone(), *is_error)),
        _ => None,
    });
    let (output, is_error) = refused.unwrap();
    assert!(is_error && output.contains("the 'write' gate is closed") && output.contains("request_review"), "{output}");
    // Removing the alternative changes the search.
    let with = explore(&config).unwrap().distinct_states;
    let without = explore(&ExploreConfig { decisions: no_decisions(), ..config.clone() }).unwrap().distinct_states;
    assert!(with > without, "{with} vs {without}");
}

#[test]
fn a_fault_can_hit_a_file_protocols_own_messages() {
    // task-claim's claims have no deadline: a dropped claim is never
    // answered. Its tools are the file's own (`claim_task`, `answer_claim`).
    let report = explore(&team_config(&example("task-claim"), 1)).unwrap();
    assert_eq!(verdict(&report, Property::RequestsSettle), Verdict::Fails);
    let stuck = report.property(Property::RequestsSettle).and_then(|p| p.example.as_ref()).unwrap();
    let dropped: Vec<String> = stuck
        .trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::FaultApplied { action: FaultAction::Drop, message, rule: None } => Some(message.type_name().to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(dropped, ["claim_request"], "{:?}", stuck.path);
}

/// A team whose lead asks bob one `check`, answered with `fields`.
fn check_team(fields: &str) -> Arc<ProtocolFile> {
    let text = format!(
        r#"format = 1
use = ["lesson"]

[[protocol]]
name = "check"
request = "check_request"
response = "check_response"
from = "lead"
to = "teammate"
response_fields = [{fields}]
tools.request = {{ name = "ask_check", description = "Ask a teammate to check its work." }}
tools.respond = {{ name = "answer_check", description = "Answer a check request." }}
scripted = {{ answer = "approve" }}

[team]
id = "check"
title = "bob answers one check"
prompt = "Spawn bob to write notes.md, then ask him to check it."

[[team.teammate]]
name = "bob"
role = "writer"
task = "Write notes.md."

[[team.step]]
spawn = "bob"
[[team.step]]
ask = "check"
to = "bob"
"#
    );
    loaded("check", &text)
}

/// The labels of the replies open where bob answers the check (the node
/// whose replies flip an answer), but the scripted one.
fn answers_off_the_script(file: &Arc<ProtocolFile>) -> Vec<String> {
    let all = Decisions { flip_answers: true, withhold_answers: true, skip_plans: true, answer_for_addressee: false };
    let config = ExploreConfig { decisions: all, max_decisions: 1, ..team_config(file, 0) };
    let walked = walk(&config, 2_000);
    let (at, _) = walked
        .iter()
        .find(|(_, c)| matches!(c, Choice::Reply { label, .. } if label.ends_with(" instead")))
        .unwrap_or_else(|| panic!("no answer offered the other way among {:?}", labels(&walked)));
    at.choices(&config)
        .into_iter()
        .filter_map(|c| match c {
            Choice::Reply { label, .. } if label != "as scripted" => Some(label),
            _ => None,
        })
        .collect()
}

const LEVEL: &str = r#"{ name = "level", type = "enum", values = ["low", "mid", "high"], required = true }"#;

#[test]
fn an_answer_with_approve_and_an_enum_of_three_values_is_offered_at_every_other_point_and_withheld_once() {
    let labels = answers_off_the_script(&check_team(LEVEL));
    let withheld = labels.iter().filter(|l| l.starts_with("withhold the answer to ")).count();
    assert_eq!(withheld, 1, "{labels:?}");
    let answers: Vec<&String> = labels.iter().filter(|l| !l.starts_with("withhold")).collect();
    assert_eq!(answers.len(), 2 * 3 - 1, "{answers:?}");
    // A reject with a non-default value, labelled with what differs.
    assert!(answers.iter().any(|l| l.starts_with("reject ") && l.ends_with(" instead, with level = high")), "{answers:?}");
    assert!(answers.iter().any(|l| l.starts_with("answer ") && l.ends_with(" with level = mid")), "{answers:?}");
}

#[test]
fn an_answer_with_two_enum_fields_is_offered_at_every_point_of_the_product() {
    let risk = r#"{ name = "risk", type = "enum", values = ["none", "some"], required = true }"#;
    let labels = answers_off_the_script(&check_team(&format!("{LEVEL}, {risk}")));
    assert_eq!(labels.iter().filter(|l| l.starts_with("withhold")).count(), 1, "{labels:?}");
    assert_eq!(labels.iter().filter(|l| !l.starts_with("withhold")).count(), 2 * 3 * 2 - 1, "{labels:?}");
    assert!(labels.iter().any(|l| l.ends_with(" instead, with level = mid, risk = some")), "{labels:?}");
}
