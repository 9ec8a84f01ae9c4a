//! Fault injection end to end: each action on the shutdown scenario, seeded
//! reproducibility, and a property test over seeds, fault plans and the six
//! scenarios: runs end, drops are visible, replay equals live, and every
//! checker finding names the injected fault that caused it.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use team_protocols::protocol::*;
use team_protocols::runtime::scenarios;
use team_protocols::runtime::Runtime;

const SEED: u64 = 2026;

mod common;
/// Runs every prompt of `scenario` to quiescence under `faults` (the shared
/// harness: each run ends, replay equals live, nothing stays held).
use common::try_run_scenario as run;

fn shutdown_with(action: FaultAction) -> (Runtime, Trace) {
    let rule = FaultRule { msg_type: Some(MessageType::SHUTDOWN_RESPONSE), ..FaultRule::new(action) };
    run(scenarios::SHUTDOWN, SEED, FaultPlan::new(vec![rule])).unwrap()
}

fn request_id(rt: &Runtime) -> RequestId {
    rt.with_team(|t| t.tracker().iter().next().unwrap().id.clone())
}

/// Every message that reached an inbox (sent or released) and was read:
/// (message id, message).
fn read_ids(trace: &Trace) -> BTreeSet<u64> {
    trace
        .entries()
        .iter()
        .flat_map(|e| match &e.event {
            Event::InboxDrained { message_ids, .. } => message_ids.iter().map(|m| m.0).collect(),
            _ => vec![],
        })
        .collect()
}

/// The messages delivered to an inbox, by message id (the seq of their
/// `MessageSent` or `MessageReleased`).
fn delivered(trace: &Trace) -> BTreeMap<u64, Message> {
    let mut held = BTreeMap::new();
    let mut out = BTreeMap::new();
    for e in trace.entries() {
        match &e.event {
            Event::MessageSent { message } => {
                out.insert(e.seq, message.clone());
            }
            Event::FaultApplied { action, message, .. } if action.holds() => {
                held.insert(e.seq, message.clone());
            }
            Event::MessageReleased { held: from } => {
                out.insert(e.seq, held.remove(from).expect("released messages were held"));
            }
            _ => {}
        }
    }
    out
}

fn faults_of(trace: &Trace) -> Vec<(u64, FaultAction, Message)> {
    trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::FaultApplied { action, message, .. } => Some((e.seq, action.clone(), message.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_dropped_shutdown_response_is_an_answer_lost_that_agrees_with_the_tracker() {
    let (rt, trace) = shutdown_with(FaultAction::Drop);
    let id = request_id(&rt);
    assert_eq!(rt.with_team(|t| t.request(&id).unwrap().status), RequestStatus::Approved, "the tracker moves as without faults");
    let faults = faults_of(&trace);
    assert_eq!(faults.len(), 1);
    assert_eq!((faults[0].1.clone(), faults[0].2.msg_type), (FaultAction::Drop, MessageType::SHUTDOWN_RESPONSE));
    assert!(delivered(&trace).values().all(|m| m.msg_type != MessageType::SHUTDOWN_RESPONSE), "the lead never hears");
    let drop = faults[0].0;
    let found = check(&trace);
    assert_eq!(found.len(), 1, "{found:?}");
    let v = &found[0];
    assert_eq!((v.kind, v.request_id.clone(), v.seq, v.fault), (ViolationKind::AnswerLost, Some(id.clone()), drop, Some(drop)));
    assert_eq!(
        v.detail.to_string(),
        format!("alice approved shutdown request {id} and exits; fault rule 1 dropped the reply (#{drop}), so the lead never learned it")
    );
    assert!(matches!(trace.entries()[drop as usize].event, Event::FaultApplied { rule: Some(1), .. }), "the rule is recorded");
    assert!(matches!(trace.entries().last().unwrap().event, Event::RunFinished));
}

#[test]
fn a_duplicated_shutdown_response_is_a_duplicate_delivered_that_the_tracker_ignored() {
    let (rt, trace) = shutdown_with(FaultAction::Duplicate);
    let id = request_id(&rt);
    let responses = delivered(&trace).into_values().filter(|m| m.msg_type == MessageType::SHUTDOWN_RESPONSE).count();
    assert_eq!(responses, 2);
    let dup = faults_of(&trace)[0].0;
    let found = check(&trace);
    assert_eq!(found.len(), 1, "{found:?}");
    let v = &found[0];
    assert_eq!((v.kind, v.request_id.clone(), v.seq, v.fault), (ViolationKind::DuplicateDelivered, Some(id.clone()), dup + 1, Some(dup)));
    assert_eq!(
        v.detail.to_string(),
        format!(
            "fault rule 1 duplicated alice's reply to request {id} (#{dup}): the lead received the same answer twice; \
             the tracker recorded one answer (approved) and ignored the copy"
        )
    );
    let transitions = rt.with_team(|t| t.request(&id).unwrap().transitions.len());
    assert_eq!(transitions, 1, "the copy did not move the tracker");
}

#[test]
fn a_delayed_shutdown_response_arrives_later_and_breaks_nothing() {
    let (_, trace) = shutdown_with(FaultAction::Delay { ms: 5_000 });
    let (held_at, ..) = faults_of(&trace)[0].clone();
    let held_time = trace.entries()[held_at as usize].time;
    let released = trace.entries().iter().find(|e| e.event == Event::MessageReleased { held: held_at }).expect("released");
    assert!(released.time.0 >= held_time.0 + 5_000, "released no earlier than due");
    assert!(read_ids(&trace).contains(&released.seq), "the lead reads it");
    assert_eq!(check(&trace), vec![]);
}

#[test]
fn a_reordered_shutdown_response_is_released_and_breaks_nothing() {
    let (_, trace) = shutdown_with(FaultAction::Reorder);
    let (held_at, ..) = faults_of(&trace)[0].clone();
    let released = trace.entries().iter().find(|e| e.event == Event::MessageReleased { held: held_at }).expect("released");
    assert!(read_ids(&trace).contains(&released.seq));
    assert_eq!(check(&trace), vec![]);
}

#[test]
fn a_reordered_message_is_released_right_after_the_next_one_to_its_recipient() {
    let mut team = Team::new("t", 1);
    let (lead, alice) = (AgentName::lead(), AgentName::parse("alice").unwrap());
    team.spawn(&alice, "coder", false, Millis(0)).unwrap();
    let first = FaultRule { probability: 1.0, ..FaultRule::new(FaultAction::Reorder) };
    team.set_faults(FaultPlan::new(vec![first]));
    team.send(&lead, &alice, "message", "one", Millis(1)).unwrap();
    team.set_faults(FaultPlan::default());
    team.send(&lead, &alice, "message", "two", Millis(2)).unwrap();
    let got: Vec<String> = team.peek(&alice).unwrap().iter().map(|e| e.message.content.clone()).collect();
    assert_eq!(got, ["two", "one"]);
    assert_eq!(Team::replay(team.trace()).unwrap().state(), team.state());
}

#[test]
fn the_same_seed_and_plan_give_a_byte_identical_trace() {
    let plan = FaultPlan::new(vec![
        FaultRule { msg_type: Some(MessageType::Message), ..FaultRule::new(FaultAction::Delay { ms: 700 }) },
        FaultRule { probability: 0.5, ..FaultRule::new(FaultAction::Duplicate) },
        FaultRule { probability: 0.5, ..FaultRule::new(FaultAction::Reorder) },
    ]);
    let (_, a) = run(scenarios::REJECT_THEN_ACCEPT, 7, plan.clone()).unwrap();
    let (_, b) = run(scenarios::REJECT_THEN_ACCEPT, 7, plan).unwrap();
    assert!(!faults_of(&a).is_empty(), "the plan hit something");
    assert_eq!(a.to_json(), b.to_json());
}

/// Each finding the checker reports must name the fault event that caused
/// it (`Violation::fault`, and `#seq` in its detail), and that event must be
/// the right kind of fault on the right message.
fn explained(trace: &Trace, v: &Violation) -> bool {
    let Some(f) = v.fault else { return false };
    let Some(TraceEntry { event: Event::FaultApplied { action, message, rule }, .. }) = trace.entries().get(f as usize) else {
        return false;
    };
    let detail = v.detail.to_string();
    let names_it = detail.contains(&format!("(#{f})")) && rule.is_some_and(|n| detail.contains(&format!("fault rule {n} ")));
    let of_request = message.request_id.is_some() && message.request_id == v.request_id;
    names_it
        && match v.kind {
            // Its reply was dropped.
            ViolationKind::AnswerLost => *action == FaultAction::Drop && message.msg_type.is_response() && of_request,
            // Its reply was duplicated, and the copy is what was flagged.
            ViolationKind::DuplicateDelivered => {
                *action == FaultAction::Duplicate && message.msg_type.is_response() && of_request && v.seq == f + 1
            }
            // Its request message was dropped or held back.
            ViolationKind::LeftPending => message.msg_type.is_request() && of_request,
            // A held message (or a copy) arrived after its recipient had exited.
            ViolationKind::MessageToExitedTeammate => match &trace.entries()[v.seq as usize].event {
                Event::MessageReleased { held } => *held == f && action.holds(),
                Event::MessageSent { .. } => *action == FaultAction::Duplicate && v.seq == f + 1,
                _ => false,
            },
            ViolationKind::SecondAnswer
            | ViolationKind::AnswerToUnknownRequest
            | ViolationKind::AnswerFromWrongAgent
            | ViolationKind::AnswerAcrossRestart
            | ViolationKind::RequestAcrossRestart
            | ViolationKind::ActAfterShutdownApproved
            | ViolationKind::GatedToolWhileClosed
            | ViolationKind::AnswerAfterExpiry => false,
        }
}

fn action() -> impl Strategy<Value = FaultAction> {
    prop_oneof![
        Just(FaultAction::Drop),
        Just(FaultAction::Duplicate),
        Just(FaultAction::Reorder),
        (0u64..3_000).prop_map(|ms| FaultAction::Delay { ms }),
    ]
}

fn rule() -> impl Strategy<Value = FaultRule> {
    let msg_type = prop_oneof![Just(None), proptest::sample::select(MessageType::ALL.to_vec()).prop_map(Some)];
    let name = proptest::sample::select(vec![None, Some("lead"), Some("alice"), Some("bob"), Some("dave"), Some("erin")])
        .prop_map(|n| n.map(|n| AgentName::parse(n).unwrap()));
    (action(), msg_type, name.clone(), name, 0.0f64..=1.0).prop_map(|(action, msg_type, from, to, probability)| FaultRule {
        action,
        msg_type,
        from,
        to,
        probability,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn faulty_runs_end_replay_exactly_and_every_violation_is_explained(
        seed in any::<u64>(),
        which in 0usize..6,
        rules in proptest::collection::vec(rule(), 0..4),
    ) {
        let scenario = scenarios::ALL[which];
        let plan = FaultPlan::new(rules);
        prop_assert_eq!(plan.validate(), Ok(()));
        let (_, trace) = run(scenario, seed, plan)?;
        // Every drop is visible, and the dropped message reached no inbox:
        // the FaultApplied entry's seq is never a delivered message id.
        let delivered = delivered(&trace);
        for (seq, action, _) in faults_of(&trace) {
            if action == FaultAction::Drop {
                prop_assert!(!delivered.contains_key(&seq));
                prop_assert!(!read_ids(&trace).contains(&seq));
            }
        }
        let found = check(&trace);
        for v in &found {
            prop_assert!(explained(&trace, v), "unexplained {:?} in {} (seed {seed})", v, scenario.id);
        }
        // The checker is a fold: a snapshot at any entry, resumed, agrees
        // with checking from zero, and what it holds then is the prefix's verdict.
        let n = (seed % (trace.len() as u64 + 1)) as usize;
        let mut checker = Checker::new();
        for e in &trace.entries()[..n] {
            checker.observe(e);
        }
        prop_assert_eq!(checker.violations(), &check(&trace.prefix(n))[..]);
        let mut resumed = checker.clone();
        for e in &trace.entries()[n..] {
            resumed.observe(e);
        }
        prop_assert_eq!(resumed.finish(), found);
    }

    #[test]
    fn without_faults_the_checker_stays_clean(seed in any::<u64>(), which in 0usize..6) {
        let (_, trace) = run(scenarios::ALL[which], seed, FaultPlan::default())?;
        prop_assert!(faults_of(&trace).is_empty());
        prop_assert_eq!(check(&trace), vec![]);
    }
}
