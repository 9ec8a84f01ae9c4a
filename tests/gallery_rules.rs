//! The gallery of real failures: each entry's protective rule prevents the
//! failure it reproduces. With the rule off the explorer finds a shortest
//! run that breaks the entry's property, and that run, rebuilt from its
//! path, shows the violation at the reported event; with the rule on the
//! property holds in every run of a complete search. A run recorded with a
//! rule off replays, exports and imports under that rule.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use team_protocols::explore::gallery::{self, reproduce, Entry, GALLERY};
use team_protocols::explore::{replay_path, Finding, Monitor, Property, Verdict};
use team_protocols::protocol::trace_file::import_json;
use team_protocols::protocol::{
    AgentName, Millis, RequestId, RequestKind, Rule, Rules, Team, TeamError, Trace, TrackerError, LEAD_INCARNATION,
};
use team_protocols::runtime::scenarios;

fn entry_for(rule: Rule) -> &'static Entry {
    GALLERY.iter().find(|e| e.rule == rule).expect("every rule has an entry")
}

/// The findings of a monitor folded over `trace`, judging each quiet point
/// on the team the trace has rebuilt by then (as the explorer does).
fn findings(trace: &Trace) -> Vec<Finding> {
    let mut monitor = Monitor::new();
    let mut out = Vec::new();
    for entry in trace.entries() {
        out.extend(monitor.observe(entry));
        if matches!(entry.event, team_protocols::protocol::Event::RunFinished) {
            let team = Team::replay(&trace.prefix(entry.seq as usize + 1)).expect("the run replays under its own rules");
            out.extend(monitor.at_quiet(&team, entry.seq));
        }
    }
    out
}

/// The entry's rule off: a counterexample that shows the failure; on: the
/// property holds in a complete search. Both searches stay small.
fn reproduces_with_the_rule_off_and_is_prevented_with_it_on(rule: Rule) {
    let entry = entry_for(rule);
    let scenario = scenarios::explorable(entry.scenario).expect("the entry's scenario is explorable");

    let off = reproduce(entry, false).expect("the search runs");
    let report = off.property(entry.property).expect("the entry's property is judged");
    assert_eq!(report.verdict, Verdict::Fails, "{}: with {rule} off the failure is reproduced", entry.id);
    let example = report.example.as_ref().expect("a counterexample");
    assert_eq!(example.finding.property, entry.property);
    assert_eq!(off.config.rules.off().collect::<Vec<_>>(), vec![rule], "only the entry's rule is off");

    // Rebuilt from its path, the run shows the violation at the reported event.
    let node = replay_path(scenario, &entry.config(false), &example.path).expect("the path replays");
    let trace = node.trace().clone();
    assert_eq!(trace, example.trace, "the report's trace is the path's run");
    assert_eq!(trace.rules, entry.config(false).rules, "the trace records the rules it ran under");
    let at: Vec<u64> = findings(&trace).into_iter().filter(|f| f.property == entry.property).map(|f| f.seq).collect();
    assert_eq!(at, vec![example.finding.seq], "{}: the replayed run breaks {} at #{}", entry.id, entry.property, example.finding.seq);

    // It exports and imports like any run, under the rules it was recorded with.
    let back = import_json(&trace.to_json()).expect("a run recorded with a rule off imports");
    assert_eq!(back, trace);
    let mut strict = trace.clone();
    strict.rules = Rules::default();
    let refused = Team::replay(&strict).is_err();
    let broken_by_checker = team_protocols::protocol::check(&trace).iter().any(|v| Property::of_finding(v.kind) == entry.property);
    // A protocol rule is the team's: a run that breaks it replays only under
    // its own rules. A loop rule is the runtime's: the team replays the run
    // under any rules, yet the checker still sees an act after an approved
    // shutdown in the trace (a quiet team with a request pending is an
    // `eventually` property, not a checker finding).
    let protocol_rule = matches!(rule, Rule::IncarnationBinding | Rule::AddresseeOnly);
    if protocol_rule {
        assert_eq!(refused, broken_by_checker, "{}: a protocol rule's violation replays only under its own rules", entry.id);
    } else {
        assert!(!refused, "{}: a loop rule's run replays under every rule", entry.id);
        assert_eq!(broken_by_checker, rule == Rule::ExitAfterApproval, "{}: what the checker sees of it", entry.id);
    }

    // The same choices with the rule on: the run does not break the property.
    let prevented = gallery::with_rule_on(entry, &example.path).expect("the counterexample's choices are open with the rule on");
    assert!(prevented.rules.is_default());
    let last = prevented.entries().last().map(|e| &e.event);
    assert!(matches!(last, Some(team_protocols::protocol::Event::RunFinished)), "{}: it runs to the end", entry.id);
    assert!(!findings(&prevented).iter().any(|f| f.property == entry.property), "{}: the rule prevents it on the same path", entry.id);

    let on = reproduce(entry, true).expect("the search runs");
    assert!(on.complete, "{}: with {rule} on the search is exhaustive", entry.id);
    let held = on.property(entry.property).expect("the entry's property is judged");
    assert_eq!(held.verdict, Verdict::Holds, "{}: with {rule} on: {:?}", entry.id, held.example.as_ref().map(|e| &e.finding));

    for report in [&off, &on] {
        assert!(report.distinct_states < 1_000, "{}: a small search ({} states)", entry.id, report.distinct_states);
    }
}

#[test]
fn incarnation_binding_prevents_a_stale_shutdown_request_from_shutting_down_a_respawned_teammate() {
    reproduces_with_the_rule_off_and_is_prevented_with_it_on(Rule::IncarnationBinding);
}

#[test]
fn addressee_only_prevents_the_lead_from_answering_a_request_addressed_to_a_teammate() {
    reproduces_with_the_rule_off_and_is_prevented_with_it_on(Rule::AddresseeOnly);
}

#[test]
fn exit_after_approval_prevents_a_teammate_acting_after_approving_its_shutdown() {
    reproduces_with_the_rule_off_and_is_prevented_with_it_on(Rule::ExitAfterApproval);
}

#[test]
fn wake_on_message_prevents_a_shutdown_request_that_is_never_answered() {
    reproduces_with_the_rule_off_and_is_prevented_with_it_on(Rule::WakeOnMessage);
}

/// `owner/repo#number`, with a plain owner and repo and a positive number.
fn well_formed(reference: &str) -> bool {
    let Some((repo, number)) = reference.split_once('#') else { return false };
    let Some((owner, name)) = repo.split_once('/') else { return false };
    let part = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    part(owner) && part(name) && !number.starts_with('0') && !number.is_empty() && number.chars().all(|c| c.is_ascii_digit())
}

#[test]
fn every_rule_has_a_gallery_entry_and_every_entry_names_well_formed_issues_its_rule_prevents() {
    let used: BTreeSet<Rule> = GALLERY.iter().map(|e| e.rule).collect();
    assert_eq!(used, Rule::ALL.into_iter().collect(), "each rule is shown by an entry");
    let ids: BTreeSet<&str> = GALLERY.iter().map(|e| e.id).collect();
    assert_eq!(ids.len(), GALLERY.len(), "entry ids are unique");
    for entry in GALLERY {
        assert_eq!(gallery::by_id(entry.id), Some(entry));
        assert!(!entry.issues.is_empty(), "{}", entry.id);
        for issue in entry.issues {
            assert!(well_formed(issue), "{}: '{issue}' is owner/repo#number", entry.id);
            assert!(entry.rule.issues().contains(issue), "{}: {issue} is one {} prevents", entry.id, entry.rule);
        }
        assert!(scenarios::explorable(entry.scenario).is_some(), "{}: its scenario is explorable", entry.id);
        assert!(!scenarios::PAGE.iter().any(|s| s.id == "respawn"), "the respawn scenario is the explorer's, not a page button");
        assert!(!entry.caption.is_empty() && !entry.rule.description().is_empty());
    }
    for (good, bad) in [("anthropics/claude-code#45874", "claude-code#45874"), ("a/b#1", "a/b#"), ("a/b#12", "a/b#x1")] {
        assert!(well_formed(good) && !well_formed(bad), "{good} / {bad}");
    }
}

#[test]
fn a_trace_with_every_rule_on_says_nothing_about_rules_and_one_with_a_rule_off_says_which() {
    let mut team = Team::new("default", 1);
    team.start_run("go", Millis(0)).unwrap();
    assert!(!team.trace().to_json().contains("rules"), "ordinary traces are byte for byte as before");
    let mut off = Team::new("default", 1);
    off.set_rules(Rules::default().with(Rule::WakeOnMessage, false));
    off.start_run("go", Millis(0)).unwrap();
    let json = off.trace().to_json();
    assert!(json.contains(r#""rules":{"#) && json.contains(r#""wake_on_message":false"#), "{json}");
    assert_eq!(Trace::from_json(&json).unwrap().rules, off.trace().rules);
}

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

/// A team with alice asked to shut down, under `rules`.
fn asked(rules: Rules) -> (Team, RequestId) {
    let mut team = Team::new("default", 7);
    team.set_rules(rules);
    team.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let id = team.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    (team, id)
}

#[test]
fn addressee_only_refuses_anyone_else_s_answer_and_off_takes_it() {
    let lead = AgentName::lead();
    let (mut on, id) = asked(Rules::default());
    let refused = on.answer(RequestKind::SHUTDOWN, &id, &lead, true, "", Millis(2));
    assert!(matches!(refused, Err(TeamError::Tracker(TrackerError::NotAddressee { .. }))), "{refused:?}");
    assert_eq!(on.trace().len(), 3, "nothing recorded");

    let (mut off, id) = asked(Rules::default().with(Rule::AddresseeOnly, false));
    assert!(off.answer(RequestKind::SHUTDOWN, &id, &lead, true, "", Millis(2)).is_ok());
    assert!(Team::replay(off.trace()).is_ok(), "the run replays under its own rules");
    assert_eq!(LEAD_INCARNATION, off.roster().incarnation(&lead));
}

#[test]
fn incarnation_binding_refuses_a_restarted_teammate_s_answer_and_off_takes_it() {
    let alice = name("alice");
    for (rules, taken) in [(Rules::default(), false), (Rules::default().with(Rule::IncarnationBinding, false), true)] {
        let (mut team, id) = asked(rules);
        team.set_status(&alice, team_protocols::protocol::MemberStatus::Idle, Millis(2)).unwrap();
        team.spawn(&alice, "coder", false, Millis(3)).unwrap();
        let answer = team.answer(RequestKind::SHUTDOWN, &id, &alice, true, "", Millis(4));
        assert_eq!(answer.is_ok(), taken, "{answer:?}");
        if !taken {
            assert!(matches!(answer, Err(TeamError::StaleRequest { addressed: 1, current: 2, .. })), "{answer:?}");
        }
    }
}

#[test]
fn any_rule_off_gives_runs_that_misbehave_in_their_traces_never_a_failed_search() {
    for scenario in ["shutdown", "approve-plan", "respawn"] {
        for rule in Rule::ALL {
            let mut config = team_protocols::explore::ExploreConfig {
                threads: 1,
                rules: Rules::default().with(rule, false),
                ..team_protocols::explore::ExploreConfig::new(scenario)
            };
            config.decisions.withhold_answers = true;
            config.decisions.answer_for_addressee = true;
            let report = team_protocols::explore::explore(&config).expect("the search runs");
            assert!(report.complete, "{scenario} with {rule} off");
            for example in report.properties.iter().filter_map(|p| p.example.as_ref()) {
                assert_eq!(example.trace.rules, config.rules);
                assert!(Team::replay(&example.trace).is_ok(), "{scenario} with {rule} off: the run replays under its rules");
            }
        }
    }
}

#[test]
fn no_request_crosses_a_restart_in_the_respawn_scenario_yet_a_trace_where_one_does_breaks_the_property() {
    use team_protocols::explore::{explore, ExploreConfig};
    use team_protocols::protocol::{AgentName, FaultAction, MemberStatus, Millis};
    // Explored with a withheld answer and any one fault: the runtime reads
    // every message before a run ends, so no request waits in an inbox
    // while its addressee is started again.
    for kind in [FaultAction::Delay { ms: 1_000 }, FaultAction::Reorder, FaultAction::Duplicate, FaultAction::Drop] {
        let mut config =
            ExploreConfig { threads: 1, max_decisions: 1, max_faults: 1, fault_kinds: vec![kind.clone()], ..ExploreConfig::new("respawn") };
        config.decisions.withhold_answers = true;
        let report = explore(&config).expect("the search runs");
        assert!(report.complete);
        let crossed = report.property(Property::NoRequestAcrossRestart).expect("judged");
        assert_eq!(crossed.verdict, Verdict::Holds, "{kind:?}: {:?}", crossed.example.as_ref().map(|e| &e.finding));
    }
    // The property itself sees a request read by the run after the one it
    // was addressed to.
    let alice = AgentName::parse("alice").unwrap();
    let mut t = Team::new("default", 1);
    t.spawn(&alice, "coder", false, Millis(0)).unwrap();
    t.request_shutdown(&AgentName::lead(), &alice, Millis(1)).unwrap();
    t.set_status(&alice, MemberStatus::Idle, Millis(2)).unwrap();
    t.spawn(&alice, "coder", false, Millis(3)).unwrap();
    t.drain(&alice, Millis(4)).unwrap();
    let found = findings(t.trace());
    let crossed = found.iter().find(|f| f.property == Property::NoRequestAcrossRestart).expect("broken");
    assert!(crossed.detail.to_string().starts_with("alice (incarnation 2) read shutdown request"), "{}", crossed.detail);
}

/// A gallery finding shared by link (the trace box's share link or the
/// card's own) comes back as the finding: the same run, and its card with
/// the entry's story, the property and what broke it, at the same event.
#[test]
fn a_shared_gallery_finding_reopens_with_its_card_not_just_its_trace() {
    use team_protocols::explore::job::{ExploreLink, ExploreSettings};
    use team_protocols::view::export::share::{explore_fragment, finding_of_link, parse_fragment, FindingRun, SharedRun};
    use team_protocols::view::i18n::Catalog;
    use team_protocols::view::words::explorer::Card;
    let entry = gallery::by_id("stale-shutdown-after-respawn").expect("the respawn entry");
    let report = reproduce(entry, false).expect("the search runs");
    let example = report.property(entry.property).and_then(|p| p.example.clone()).expect("a counterexample");
    // As the page opens it: the search's settings under the example's fault bound.
    let settings = ExploreSettings { max_faults: report.config.max_faults, ..ExploreSettings::of_entry(entry, false) };
    let link = ExploreLink {
        settings,
        path: Some(example.path.clone()),
        property: Some(entry.property.name().into()),
        entry: Some(entry.id.into()),
    };
    let fragment = explore_fragment(&link).expect("a finding fits a link");
    let Ok(Some(SharedRun::Explore(back))) = parse_fragment(&format!("#{fragment}")) else { panic!("{fragment} is an explorer link") };
    assert_eq!(*back, link, "the link's settings, path, property and entry come back");
    let FindingRun { trace, card, seq } = finding_of_link(&back).expect("it names a run").expect("the run is rebuilt");
    assert_eq!(trace, example.trace, "the same run");
    assert_eq!(seq, Some(example.finding.seq), "marked at the same event");
    let Card::Finding { property, detail, entry: shown, .. } = &card else { panic!("a finding's card: {card:?}") };
    assert_eq!((*property, detail.as_ref(), *shown), (entry.property, Some(&example.finding.detail), Some(entry.id)));
    let (title, text) = card.words(Catalog::en());
    assert!(title.contains(entry.title), "the entry's title: {title}");
    assert!(text.contains("incarnation 2") && text.contains("4607cc28"), "what broke it: {text}");

    // A link naming no gallery entry the page knows is refused, naming it.
    let mut unknown = link.clone();
    unknown.entry = Some("no-such-entry".into());
    let error = parse_fragment(&explore_fragment(&unknown).unwrap()).expect_err("an unknown entry");
    assert!(error.to_string().contains("no gallery entry is called 'no-such-entry'"), "{error}");
}

/// The respawn case: alice holds back her answer, so the first prompt's run
/// finishes with the request pending (a finding at that event); the
/// restarted alice approves it later. Once the cursor is past that answer,
/// the finding (in the panel and the diagram's mark) says so and agrees
/// with the tracker's `approved`; before it, it says pending only.
#[test]
fn a_request_left_pending_then_answered_by_a_restarted_teammate_is_worded_as_the_tracker_holds_it() {
    use team_protocols::protocol::{check, Event, RequestStatus, ViolationKind};
    use team_protocols::view::export::svg_of_run;
    use team_protocols::view::i18n::Catalog;
    use team_protocols::view::words::findings::breach_as_of;
    let entry = gallery::by_id("stale-shutdown-after-respawn").unwrap();
    let report = reproduce(entry, false).unwrap();
    let trace = report.property(entry.property).and_then(|p| p.example.as_ref()).map(|e| e.trace.clone()).unwrap();
    let pending = check(&trace).into_iter().find(|v| v.kind == ViolationKind::LeftPending).expect("the first run finished with it pending");
    let id = pending.request_id.clone().unwrap();
    let answered = trace
        .entries()
        .iter()
        .find(|e| matches!(&e.event, Event::RequestTransitioned { request_id, .. } if *request_id == id))
        .expect("answered later")
        .seq;
    assert!(answered > pending.seq);
    let en = Catalog::en();
    let at = |cursor: usize| {
        let team = Team::replay(&trace.prefix(cursor)).unwrap();
        (team.tracker().get(&id).map(|r| r.status), breach_as_of(en, &pending.detail, team.tracker().get(&id)))
    };
    let (status, words) = at(trace.len());
    assert_eq!(status, Some(RequestStatus::Approved));
    assert!(
        words.contains("was still pending when the run finished")
            && words.ends_with("later alice answered it, and the tracker now holds it approved"),
        "{words}"
    );
    let (status, words) = at(answered as usize);
    assert_eq!(status, Some(RequestStatus::Pending), "just before the answer");
    assert!(!words.contains("later") && !words.contains("approved"), "{words}");
    // The SVG's mark says the same as of its cursor.
    assert!(svg_of_run(en, &trace, None, "respawn").contains("the tracker now holds it approved"));
    assert!(!svg_of_run(en, &trace, Some(answered as usize), "respawn").contains("the tracker now holds it"));
}
