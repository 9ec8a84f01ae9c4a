//! A hand answer keeps the lesson's rules: for every scenario, at every
//! point of its scripted run where a human can act and a request is
//! pending, each pending request is answered by hand as its addressee —
//! approved, then rejected — and the run played out. Then the checker, the
//! tracker, the inboxes and the closing caption must agree: a teammate whose
//! shutdown was approved (whoever answered for it) makes no model call
//! afterwards and leaves its loop, the checker says so of the trace, a
//! request still pending is one the checker flags, and each "Run finished"
//! caption says only what the team's state shows (who works, which inbox
//! holds unread messages, what is pending).
//!
//! Driven on the sans-IO world (`runtime::world`), natively: the points a
//! human can act at are the ones between two of the world's inputs (a turn
//! begun, a model call out, a turn over, a run over), as in the page.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::VecDeque;

use team_protocols::model::scripted;
use team_protocols::protocol::{
    check, AgentName, Event, MemberStatus, RequestKind, RequestStatus, Team, TeamState, Trace, Violation, ViolationKind,
};
use team_protocols::runtime::scenarios::{self, Scenario};
use team_protocols::runtime::scheduler::Mode;
use team_protocols::runtime::world::{Next, TimeSource, World, WorldConfig};
use team_protocols::view::i18n::Catalog;
use team_protocols::view::words::captions;

/// Where the driver stands between two inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Between turns: the next input begins one (or submits a prompt).
    Between,
    /// A turn has begun: the next input runs it.
    Begun,
    /// An agent's model call is out: the next input hands its reply in.
    ModelOut,
}

/// A scenario's run on a bare world, one input at a time.
#[derive(Clone)]
struct Driver {
    world: World,
    prompts: VecDeque<&'static str>,
    phase: Phase,
}

impl Driver {
    fn new(scenario: Scenario, seed: u64) -> Self {
        let config =
            WorldConfig { team_name: "default".into(), seed, max_rounds: 50, lead_max_rounds: 50, max_tokens: 8000, protocols: None };
        Driver {
            world: World::new(config, Mode::Live, TimeSource::Virtual),
            prompts: scenario.prompts.iter().copied().collect(),
            phase: Phase::Between,
        }
    }

    /// Gives the world its next input; false once the scenario is over.
    fn advance(&mut self) -> bool {
        match self.phase {
            Phase::Between => {
                if self.world.begin().is_some() {
                    self.phase = Phase::Begun;
                    return true;
                }
                assert!(!self.world.is_running(), "nothing to begin, yet the run goes on");
                match self.prompts.pop_front() {
                    Some(p) => {
                        self.world.submit_prompt(p).expect("the prompt is taken");
                        true
                    }
                    None => false,
                }
            }
            Phase::Begun => {
                self.phase = match self.world.proceed() {
                    Next::CallModel { .. } => Phase::ModelOut,
                    Next::Yielded => Phase::Between,
                };
                true
            }
            Phase::ModelOut => {
                let agent = self.world.awaiting_model().expect("a model call is out").clone();
                let request = self.world.model_request(&agent).expect("the agent exists");
                self.world.model_returned(&agent, Ok(scripted::respond(&request)));
                self.phase = Phase::Begun;
                true
            }
        }
    }

    /// Plays the scenario to its end, at most `max` inputs.
    fn finish(&mut self, max: usize) {
        for _ in 0..max {
            if !self.advance() {
                return;
            }
        }
        panic!("the run did not end within {max} inputs");
    }
}

/// Every shutdown approval in `trace`: who approved it (the team marks them
/// exiting) and where.
fn approvals(trace: &Trace) -> Vec<(AgentName, u64)> {
    trace
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::RequestTransitioned { request_kind: RequestKind::SHUTDOWN, to: RequestStatus::Approved, by, .. } if !by.is_lead() => {
                Some((by.clone(), e.seq))
            }
            _ => None,
        })
        .collect()
}

/// What a run must agree on once it is over; `ctx` names the run.
fn assert_agrees(driver: &Driver, ctx: &str) {
    let world = &driver.world;
    assert_eq!(world.failure(), None, "{ctx}: the world stopped itself");
    assert!(!world.is_running(), "{ctx}: the run ended");
    let team = world.team();
    let trace = team.trace();
    let found: Vec<Violation> = check(trace);

    // An approved shutdown ends the loop after its turn: no model call
    // until it has shut down, and it does shut down (unless spawned again).
    for (agent, at) in approvals(trace) {
        let after = &trace.entries()[at as usize + 1..];
        let end = after.iter().position(|e| {
            matches!(&e.event, Event::MemberStatusChanged { name, to: MemberStatus::Shutdown, .. } if *name == agent)
                || matches!(&e.event, Event::MemberSpawned { name, .. } if *name == agent)
        });
        let end = end.unwrap_or_else(|| panic!("{ctx}: {agent} approved its shutdown at #{at} and never left: {:?}", team.roster()));
        assert!(
            matches!(&after[end].event, Event::MemberStatusChanged { .. }),
            "{ctx}: {agent} approved its shutdown at #{at} and was spawned again before it left"
        );
        let acted = after[..end].iter().find(|e| matches!(&e.event, Event::ModelCalled { agent: a } if *a == agent));
        assert_eq!(acted.map(|e| e.seq), None, "{ctx}: {agent} called its model after approving its shutdown at #{at}");
    }
    // ... and the checker agrees: the runtime kept the rule, so it flags nothing of the kind.
    let acts: Vec<&Violation> = found.iter().filter(|v| v.kind == ViolationKind::ActAfterShutdownApproved).collect();
    assert!(acts.is_empty(), "{ctx}: {acts:?}");

    // A request the tracker still holds pending is one the checker flagged.
    for r in team.tracker().pending() {
        let flagged = found.iter().any(|v| v.kind == ViolationKind::LeftPending && v.request_id.as_ref() == Some(&r.id));
        assert!(flagged, "{ctx}: {} is pending in the tracker and the checker does not say so: {found:?}", r.id);
    }
    // Every LeftPending names a request the tracker had pending when its run finished.
    for v in found.iter().filter(|v| v.kind == ViolationKind::LeftPending) {
        let before = Team::replay(&trace.prefix(v.seq as usize)).expect("the run replays");
        let id = v.request_id.as_ref().expect("a pending request has an id");
        assert_eq!(before.tracker().get(id).map(|r| r.status), Some(RequestStatus::Pending), "{ctx}: {v:?}");
    }

    // Each "Run finished" caption says what the state at that point shows.
    for e in trace.entries().iter().filter(|e| matches!(e.event, Event::RunFinished)) {
        let at = Team::replay(&trace.prefix(e.seq as usize)).expect("the run replays");
        let caption = captions::caption_with(Catalog::en(), trace.entries(), Some(e.seq as usize + 1), Some(at.state()));
        assert_caption_true(&caption.text, at.state(), &format!("{ctx}, #{}", e.seq));
    }
    // The last one is the live team's own state.
    let last = trace.entries().iter().rev().find(|e| matches!(e.event, Event::RunFinished)).expect("a run finished");
    let at_last = Team::replay(&trace.prefix(last.seq as usize)).expect("the run replays");
    assert_eq!(at_last.state().bus, team.state().bus, "{ctx}: the inboxes at the last RunFinished are the team's");
}

/// The closing caption's claims, each checked against `st`.
fn assert_caption_true(text: &str, st: &TeamState, ctx: &str) {
    let working: Vec<String> = st.roster.members.iter().filter(|m| m.status == MemberStatus::Working).map(|m| m.name.to_string()).collect();
    assert_eq!(text.contains("nobody is working"), working.is_empty(), "{ctx}: {text}");
    for w in &working {
        assert!(text.contains(w.as_str()), "{ctx}: {w} is working: {text}");
    }
    let unread: Vec<(AgentName, usize)> =
        st.bus.names().map(|n| (n.clone(), st.bus.peek(n).map_or(0, <[_]>::len))).filter(|(_, n)| *n > 0).collect();
    assert_eq!(text.contains("No inbox holds an unread message"), unread.is_empty(), "{ctx}: {unread:?}: {text}");
    for (name, _) in &unread {
        let whose = if name.is_lead() { "the lead's inbox".to_string() } else { format!("{name}'s inbox") };
        assert!(text.contains(&whose), "{ctx}: {whose} holds unread messages: {text}");
    }
    let pending = st.tracker.pending().count();
    assert_eq!(text.contains("Every request has its final state"), pending == 0, "{ctx}: {pending} pending: {text}");
}

/// The scenarios a hand answer is tried in: every scenario but the scale
/// demo (fifty copies of the shutdown handshake, 15,000 events: each of its
/// thousands of points would replay the whole run).
fn scenarios_tried() -> Vec<Scenario> {
    let mut all: Vec<Scenario> = scenarios::ALL.to_vec();
    all.extend([scenarios::WITHOUT_PROTOCOLS, scenarios::TWINS, scenarios::RESPAWN]);
    all
}

#[test]
fn a_hand_answer_at_any_point_of_any_scenario_leaves_checker_tracker_inboxes_and_closing_caption_agreeing() {
    let mut tried = 0;
    for scenario in scenarios_tried() {
        for seed in [2026, 1, 7] {
            // The run without a hand answer agrees too.
            let mut plain = Driver::new(scenario, seed);
            plain.finish(100_000);
            assert_agrees(&plain, &format!("{} seed {seed}, no hand answer", scenario.id));
            let mut at = Driver::new(scenario, seed);
            let mut point = 0;
            loop {
                let pending: Vec<_> = at.world.team().tracker().pending().map(|r| (r.id.clone(), r.addressee.clone())).collect();
                for (id, addressee) in &pending {
                    for approve in [true, false] {
                        let mut run = at.clone();
                        let ctx = format!(
                            "{} seed {seed}: {addressee} {} {id} by hand at point {point} (#{})",
                            scenario.id,
                            if approve { "approves" } else { "rejects" },
                            run.world.team().trace().len()
                        );
                        let answered = run.world.answer_as(addressee, id.as_str(), approve, "by hand");
                        assert!(answered.is_ok(), "{ctx}: {answered:?}");
                        run.finish(100_000);
                        assert_agrees(&run, &ctx);
                        tried += 1;
                    }
                }
                if !at.advance() {
                    break;
                }
                point += 1;
            }
        }
    }
    assert!(tried > 500, "only {tried} hand answers were tried");
}

#[test]
fn alice_approved_by_hand_before_reading_her_inbox_reads_it_and_leaves_without_calling_her_model() {
    // The case: Graceful shutdown, the lead's shutdown_request sent,
    // alice's first model call waiting; the user approves as alice.
    let mut d = Driver::new(scenarios::SHUTDOWN, 2026);
    let alice = AgentName::parse("alice").unwrap();
    while d.world.team().tracker().pending().next().is_none() {
        assert!(d.advance(), "the request is made");
    }
    while d.phase != Phase::Between {
        d.advance();
    }
    let unread = d.world.team().peek(&alice).unwrap().len();
    assert_eq!(unread, 1, "the request waits in alice's inbox");
    let id = d.world.team().tracker().pending().next().unwrap().id.clone();
    assert_eq!(d.world.answer_as(&alice, id.as_str(), true, "by hand"), Ok(RequestStatus::Approved));
    let approved = d.world.team().trace().len() as u64 - 2;
    d.finish(10_000);
    let trace = d.world.team().trace();
    let hers = |e: &&Event| match e {
        Event::ModelCalled { agent } | Event::ToolCalled { agent, .. } | Event::InboxDrained { agent, .. } => *agent == alice,
        _ => false,
    };
    let after: Vec<&Event> = trace.entries()[approved as usize..].iter().map(|e| &e.event).filter(hers).collect();
    assert!(!after.iter().any(|e| matches!(e, Event::ModelCalled { .. } | Event::ToolCalled { .. })), "{after:?}");
    assert!(after.iter().any(|e| matches!(e, Event::InboxDrained { .. })), "she read the request on her way out: {after:?}");
    assert_eq!(d.world.team().roster().status(&alice), Some(MemberStatus::Shutdown));
    assert!(d.world.team().peek(&alice).unwrap().is_empty(), "nothing is left unread");
    assert_eq!(check(trace), vec![]);
    let caption = captions::caption_with(Catalog::en(), trace.entries(), None, Some(d.world.team().state()));
    assert_eq!(
        caption.text,
        "The team is quiet: nobody is working. No inbox holds an unread message. Every request has its final state in the tracker."
    );
}

#[test]
fn with_exit_after_approval_off_a_teammate_approved_by_hand_works_on_and_the_checker_says_so() {
    // The rule the loop keeps is what prevents it: switched off, alice calls
    // her model after her approval, and the checker flags it in the trace.
    let mut d = Driver::new(scenarios::SHUTDOWN, 2026);
    d.world.set_rules(team_protocols::protocol::Rules::default().with(team_protocols::protocol::Rule::ExitAfterApproval, false));
    let alice = AgentName::parse("alice").unwrap();
    while d.world.team().tracker().pending().next().is_none() {
        assert!(d.advance(), "the request is made");
    }
    let id = d.world.team().tracker().pending().next().unwrap().id.clone();
    d.world.answer_as(&alice, id.as_str(), true, "by hand").unwrap();
    d.finish(10_000);
    let found = check(d.world.team().trace());
    let acts: Vec<&Violation> = found.iter().filter(|v| v.kind == ViolationKind::ActAfterShutdownApproved).collect();
    assert_eq!(acts.len(), 1, "{found:?}");
    assert_eq!(acts[0].request_id.as_ref(), Some(&id));
}

#[test]
fn an_idle_teammate_approved_by_hand_leaves_even_when_messages_do_not_wake_it() {
    // With wake_on_message off alice sleeps through the lead's request; an
    // approval given for her is no message: it still ends her loop.
    let alice = AgentName::parse("alice").unwrap();
    let asleep = |seed: u64| {
        let mut d = Driver::new(scenarios::SHUTDOWN, seed);
        d.world.set_rules(team_protocols::protocol::Rules::default().with(team_protocols::protocol::Rule::WakeOnMessage, false));
        d.finish(10_000);
        let idle = d.world.team().roster().status(&alice) == Some(MemberStatus::Idle);
        (idle && d.world.team().tracker().pending().next().is_some()).then_some(d)
    };
    // The seeds where she idled before the request came.
    let mut d = (0..64).find_map(asleep).expect("a seed where alice idles before the request arrives");
    let id = d.world.team().tracker().pending().next().expect("the request is pending").id.clone();
    d.world.answer_as(&alice, id.as_str(), true, "by hand").unwrap();
    d.finish(10_000);
    assert_eq!(d.world.team().roster().status(&alice), Some(MemberStatus::Shutdown));
    assert!(d.world.team().peek(&alice).unwrap().is_empty(), "she read it on her way out");
    let found = check(d.world.team().trace());
    assert!(found.iter().all(|v| v.kind != ViolationKind::ActAfterShutdownApproved), "{found:?}");
}
