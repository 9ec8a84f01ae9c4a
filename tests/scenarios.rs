//! The six scenarios, run headless with the scripted model: final roster,
//! request states, the messages of each request in order, and a clean
//! invariant check.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use team_protocols::protocol::*;
use team_protocols::runtime::scenarios::{self, Scenario};
use team_protocols::runtime::Runtime;

use common::{run_scenario, SEED};

fn run(scenario: Scenario) -> (Runtime, Trace) {
    run_seeded(scenario, SEED)
}

/// The shared runner, plus the rule every clean run keeps: no invariant
/// violation.
fn run_seeded(scenario: Scenario, seed: u64) -> (Runtime, Trace) {
    let (rt, trace) = run_scenario(scenario, seed, FaultPlan::default());
    assert_eq!(check(&trace), vec![], "{} seed {seed}: no invariant violation", scenario.id);
    (rt, trace)
}

fn status(rt: &Runtime, name: &str) -> Option<MemberStatus> {
    rt.with_team(|t| t.roster().status(&AgentName::parse(name).unwrap()))
}

/// Requests in creation order: (kind, requester, addressee, status).
fn requests(rt: &Runtime) -> Vec<(RequestKind, String, String, RequestStatus)> {
    rt.with_team(|t| t.tracker().iter().map(|r| (r.kind, r.requester.to_string(), r.addressee.to_string(), r.status)).collect())
}

/// The protocol messages of each request, in trace order: (type, from, to).
fn messages_of(trace: &Trace, id: &RequestId) -> Vec<(MessageType, String, String)> {
    trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::MessageSent { message } if message.request_id.as_ref() == Some(id) => {
                Some((message.msg_type, message.from.to_string(), message.to.to_string()))
            }
            _ => None,
        })
        .collect()
}

fn ids(rt: &Runtime) -> Vec<RequestId> {
    rt.with_team(|t| t.tracker().iter().map(|r| r.id.clone()).collect())
}

fn last_lead_text(trace: &Trace) -> String {
    trace
        .entries()
        .iter()
        .rev()
        .find_map(|e| match &e.event {
            Event::ModelReplied { agent, text, .. } if agent.is_lead() => Some(text.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

fn m(t: MessageType, from: &str, to: &str) -> (MessageType, String, String) {
    (t, from.to_string(), to.to_string())
}

#[test]
fn alice_approves_the_shutdown_and_exits() {
    let (rt, trace) = run(scenarios::SHUTDOWN);
    assert_eq!(status(&rt, "alice"), Some(MemberStatus::Shutdown));
    assert_eq!(requests(&rt), [(RequestKind::SHUTDOWN, "lead".into(), "alice".into(), RequestStatus::Approved)]);
    let id = &ids(&rt)[0];
    assert_eq!(
        messages_of(&trace, id),
        [m(MessageType::SHUTDOWN_REQUEST, "lead", "alice"), m(MessageType::SHUTDOWN_RESPONSE, "alice", "lead")]
    );
    assert!(last_lead_text(&trace).contains(&format!("alice approved shutdown request {id}")));
    assert!(matches!(trace.entries().last().unwrap().event, Event::RunFinished));
}

#[test]
fn listing_after_the_shutdown_shows_alice_shut_down() {
    let (rt, trace) = run(scenarios::LIST_AFTER_SHUTDOWN);
    assert_eq!(status(&rt, "alice"), Some(MemberStatus::Shutdown));
    let listed = trace.entries().iter().rev().find_map(|e| match &e.event {
        Event::ToolReturned { tool, output, .. } if tool == "list_teammates" => Some(output.clone()),
        _ => None,
    });
    assert_eq!(listed.as_deref(), Some("Team: default\n  alice (coder): shutdown"));
    assert_eq!(requests(&rt).len(), 1, "listing asks nothing of anyone");
    let runs = trace.entries().iter().filter(|e| matches!(e.event, Event::RunFinished)).count();
    assert_eq!(runs, 2, "two prompts, two runs");
}

#[test]
fn bobs_risky_plan_is_rejected_and_his_revision_approved() {
    let (rt, trace) = run(scenarios::REJECT_PLAN);
    assert_eq!(
        requests(&rt),
        [
            (RequestKind::PLAN, "bob".into(), "lead".into(), RequestStatus::Rejected),
            (RequestKind::PLAN, "bob".into(), "lead".into(), RequestStatus::Approved),
        ]
    );
    for id in ids(&rt) {
        assert_eq!(
            messages_of(&trace, &id),
            [m(MessageType::PLAN_APPROVAL_REQUEST, "bob", "lead"), m(MessageType::PLAN_APPROVAL_RESPONSE, "lead", "bob")]
        );
    }
    let plans = rt.with_team(|t| t.tracker().iter().map(|r| r.plan.clone().unwrap()).collect::<Vec<_>>());
    assert!(plans[0].contains("big-bang"));
    assert!(plans[1].starts_with("Revised plan"));
    assert_eq!(status(&rt, "bob"), Some(MemberStatus::Idle));
    assert!(rt.with_workspace(|w| w.get("src/auth.py").is_some()), "bob worked only after approval");
    let first_write = trace.entries().iter().position(|e| matches!(&e.event, Event::ToolCalled { tool, .. } if tool == "write_file"));
    let approval = trace.entries().iter().position(|e| matches!(&e.event, Event::RequestTransitioned { to: RequestStatus::Approved, .. }));
    assert!(approval < first_write);
}

#[test]
fn charlies_plan_is_approved_and_he_does_the_work() {
    let (rt, trace) = run(scenarios::APPROVE_PLAN);
    assert_eq!(requests(&rt), [(RequestKind::PLAN, "charlie".into(), "lead".into(), RequestStatus::Approved)]);
    assert_eq!(
        messages_of(&trace, &ids(&rt)[0]),
        [m(MessageType::PLAN_APPROVAL_REQUEST, "charlie", "lead"), m(MessageType::PLAN_APPROVAL_RESPONSE, "lead", "charlie")]
    );
    assert_eq!(status(&rt, "charlie"), Some(MemberStatus::Idle));
    assert_eq!(rt.with_workspace(|w| w.len()), 1);
}

#[test]
fn a_busy_teammate_rejects_mid_task_then_accepts_when_done() {
    let (rt, trace) = run(scenarios::REJECT_THEN_ACCEPT);
    assert_eq!(
        requests(&rt),
        [
            (RequestKind::SHUTDOWN, "lead".into(), "dave".into(), RequestStatus::Rejected),
            (RequestKind::SHUTDOWN, "lead".into(), "dave".into(), RequestStatus::Approved),
        ]
    );
    assert_eq!(status(&rt, "dave"), Some(MemberStatus::Shutdown));
    assert_eq!(rt.with_workspace(|w| w.len()), 3, "all three files migrated before exiting");
    let reject_reason = trace.entries().iter().find_map(|e| match &e.event {
        Event::MessageSent { message } if message.approve == Some(false) => message.reason.clone(),
        _ => None,
    });
    assert!(reject_reason.unwrap().starts_with("Mid-task"));
    let done = trace.entries().iter().position(|e| matches!(&e.event, Event::MessageSent { message } if message.msg_type == MessageType::Message && message.content.starts_with("Done")));
    let second = trace.entries().iter().rposition(|e| matches!(&e.event, Event::RequestCreated { .. }));
    assert!(done < second, "the second request follows dave's report");
}

#[test]
fn two_requests_in_flight_are_answered_out_of_order() {
    let (rt, trace) = run(scenarios::OUT_OF_ORDER);
    let reqs = requests(&rt);
    assert_eq!(reqs.iter().map(|r| r.2.as_str()).collect::<Vec<_>>(), ["erin", "frank"], "erin asked first");
    assert!(reqs.iter().all(|r| r.3 == RequestStatus::Approved));
    let answered: Vec<String> = trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::MessageSent { message } if message.msg_type == MessageType::SHUTDOWN_RESPONSE => Some(message.from.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(answered, ["frank", "erin"], "frank answers first");
    assert_eq!((status(&rt, "erin"), status(&rt, "frank")), (Some(MemberStatus::Shutdown), Some(MemberStatus::Shutdown)));
    assert!(last_lead_text(&trace).contains("out of order"));
}

/// What a lead summary line claims about a request: (who, verdict, request id,
/// is a plan).
#[derive(Debug)]
struct Claim {
    name: String,
    verdict: RequestStatus,
    id: String,
    plan: bool,
}

fn verdict(word: &str) -> Option<RequestStatus> {
    match word {
        "approved" => Some(RequestStatus::Approved),
        "rejected" => Some(RequestStatus::Rejected),
        _ => None,
    }
}

/// The claims of one lead reply, in the order they are written:
/// `<name> approved|rejected shutdown request <id>` and
/// `Plan approved|rejected for '<name>' (request <id>)`.
fn claims(text: &str) -> Vec<Claim> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let clean = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string();
    let mut out = Vec::new();
    for i in 0..words.len() {
        if let Some(v) = verdict(words[i]) {
            if i >= 1 && words.get(i + 1) == Some(&"shutdown") && words.get(i + 2) == Some(&"request") {
                out.push(Claim { name: clean(words[i - 1]), verdict: v, id: clean(words.get(i + 3).unwrap_or(&"")), plan: false });
            } else if i >= 1 && words[i - 1] == "Plan" && words.get(i + 1) == Some(&"for") && words.get(i + 3) == Some(&"(request") {
                out.push(Claim { name: clean(words[i + 2]), verdict: v, id: clean(words.get(i + 4).unwrap_or(&"")), plan: true });
            }
        }
    }
    out
}

/// Checks every lead reply of `trace` against the request events before it:
/// each claimed verdict happened, by the named teammate (shutdown) or for
/// the named requester (plan), and the newest outcome comes first, so the
/// headline is what just happened. Returns the number of claims checked.
fn lead_summaries_agree_with_the_trace(trace: &Trace, what: &str) -> usize {
    // request id -> (kind, requester, addressee)
    let mut created: std::collections::BTreeMap<String, (RequestKind, String, String)> = Default::default();
    // request id -> (seq, by, to)
    let mut answered: std::collections::BTreeMap<String, (u64, String, RequestStatus)> = Default::default();
    let mut checked = 0;
    for e in trace.entries() {
        match &e.event {
            Event::RequestCreated { request_id, request_kind, requester, addressee, .. } => {
                created.insert(request_id.to_string(), (*request_kind, requester.to_string(), addressee.to_string()));
            }
            Event::RequestTransitioned { request_id, by, to, .. } => {
                answered.insert(request_id.to_string(), (e.seq, by.to_string(), *to));
            }
            Event::ModelReplied { agent, text, .. } if agent.is_lead() => {
                let mut last_seq = u64::MAX;
                for c in claims(text) {
                    let at = format!("{what}, lead reply #{}: {text:?} claims {c:?}", e.seq);
                    let (kind, requester, addressee) = created.get(&c.id).unwrap_or_else(|| panic!("{at}: no such request"));
                    let (seq, by, to) = answered.get(&c.id).unwrap_or_else(|| panic!("{at}: the request was never answered"));
                    assert_eq!(*to, c.verdict, "{at}: the request ended {to}");
                    if c.plan {
                        assert_eq!(*kind, RequestKind::PLAN, "{at}");
                        assert_eq!(*requester, c.name, "{at}: the plan was {requester}'s");
                    } else {
                        assert_eq!(*kind, RequestKind::SHUTDOWN, "{at}");
                        assert_eq!((by, addressee), (&c.name, &c.name), "{at}: {by} answered");
                    }
                    assert!(*seq < last_seq, "{at}: an older outcome is reported before a newer one");
                    last_seq = *seq;
                    checked += 1;
                }
            }
            _ => {}
        }
    }
    checked
}

#[test]
fn every_lead_summary_agrees_with_the_request_events_newest_first() {
    let mut checked = 0;
    for scenario in scenarios::ALL {
        for seed in 0..12 {
            let (_, trace) = run_seeded(scenario, seed);
            checked += lead_summaries_agree_with_the_trace(&trace, &format!("{} seed {seed}", scenario.id));
        }
    }
    assert!(checked > 100, "the summaries make claims to check ({checked})");
}

#[test]
fn the_claim_reader_finds_both_kinds_of_claim() {
    let c = claims("Plan approved for 'bob' (request 307a8725).\nEarlier: dave rejected shutdown request 4607cc28 (Mid-task).");
    assert_eq!(c.len(), 2);
    assert_eq!((c[0].name.as_str(), c[0].verdict, c[0].id.as_str(), c[0].plan), ("bob", RequestStatus::Approved, "307a8725", true));
    assert_eq!((c[1].name.as_str(), c[1].verdict, c[1].id.as_str(), c[1].plan), ("dave", RequestStatus::Rejected, "4607cc28", false));
}

#[test]
fn the_scale_scenario_asks_each_of_fifty_teammates_twenty_times_and_each_agrees_on_the_last() {
    assert_eq!(scenarios::SCALE.prompts[0], team_protocols::model::scripted::scale::prompt(50, 20));
    let (rt, trace) = common::run_scenario(scenarios::SCALE, common::SEED, FaultPlan::default());
    let requests = rt.with_team(|t| t.tracker().iter().map(|r| r.status).collect::<Vec<_>>());
    assert_eq!(requests.len(), 1000);
    assert_eq!(requests.iter().filter(|s| **s == RequestStatus::Approved).count(), 50);
    assert_eq!(requests.iter().filter(|s| **s == RequestStatus::Rejected).count(), 950);
    let shut_down = rt.with_team(|t| t.roster().members.iter().filter(|m| m.status == MemberStatus::Shutdown).count());
    assert_eq!(shut_down, 50, "every teammate left after approving");
    assert_eq!(check(&trace), vec![], "no finding");
    assert!(trace.len() > 10_000, "a run of thousands of events: {}", trace.len());
}

#[test]
fn the_request_detail_tells_the_plan_and_the_feedback_whole_in_the_order_sent() {
    use team_protocols::view::panel_data::said_about;
    let (_, trace) = run(scenarios::REJECT_PLAN);
    let mut told = 0;
    for e in trace.entries() {
        let Event::RequestCreated { request_id, request_kind: RequestKind::PLAN, .. } = &e.event else { continue };
        let said = said_about(trace.entries(), request_id);
        let fields: Vec<&str> = said.iter().map(|s| s.field).collect();
        assert_eq!(fields, ["plan", "feedback"], "{request_id}: {said:?}");
        // Whole: what the messages carry, not the diagram's cut.
        for (s, m) in said.iter().zip(trace.entries().iter().filter_map(|e| match &e.event {
            Event::MessageSent { message } if message.request_id.as_ref() == Some(request_id) => Some(message),
            _ => None,
        })) {
            let carried = m.plan.as_deref().or(m.feedback.as_deref()).unwrap_or(&m.content).trim();
            assert_eq!(s.text, carried, "{request_id}");
            assert!(!s.text.ends_with('…'), "{request_id}: {}", s.text);
        }
        // Only what was sent by the cursor: before the answer, the plan alone.
        let answered = trace
            .entries()
            .iter()
            .position(|e| matches!(&e.event, Event::MessageSent { message } if message.request_id.as_ref() == Some(request_id) && message.msg_type == MessageType::PLAN_APPROVAL_RESPONSE))
            .expect("an answer");
        assert_eq!(said_about(&trace.entries()[..answered], request_id).len(), 1);
        told += 1;
    }
    assert_eq!(told, 2, "the rejected plan and the revised one");
}
