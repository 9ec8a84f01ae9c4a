//! The patterns, scopes and quantifiers of `monitor`, each on a few events.

use super::{MonitorError, PropertySet};
use crate::protocol::file::ProtocolIx;
use crate::protocol::{
    AgentName, Event, FaultAction, FieldValue, Message, MessageType, Millis, ProtocolSet, RequestId, RequestKind, RequestStatus, TraceEntry,
};

fn name(s: &str) -> AgentName {
    if s == "lead" {
        AgentName::lead()
    } else {
        AgentName::parse(s).unwrap()
    }
}

fn id(n: u32) -> RequestId {
    RequestId::parse(&format!("{n:08x}")).unwrap()
}

fn spawn(who: &str, role: &str) -> Event {
    Event::MemberSpawned { name: name(who), role: role.into(), plan_mode: false }
}

/// A shutdown request from the lead to `to`.
fn ask(n: u32, to: &str) -> Event {
    Event::RequestCreated {
        request_id: id(n),
        request_kind: RequestKind::SHUTDOWN,
        requester: AgentName::lead(),
        addressee: name(to),
        plan: None,
        fields: Default::default(),
    }
}

/// A plan request of `from` with this plan.
fn plan(n: u32, from: &str, text: &str) -> Event {
    Event::RequestCreated {
        request_id: id(n),
        request_kind: RequestKind::PLAN,
        requester: name(from),
        addressee: AgentName::lead(),
        plan: Some(text.into()),
        fields: Default::default(),
    }
}

fn answer(n: u32, kind: RequestKind, by: &str, approve: bool) -> Event {
    let to = if approve { RequestStatus::Approved } else { RequestStatus::Rejected };
    Event::RequestTransitioned { request_id: id(n), request_kind: kind, by: name(by), from: RequestStatus::Pending, to }
}

fn tool(who: &str, t: &str) -> Event {
    Event::ToolCalled { agent: name(who), tool_use_id: "t".into(), tool: t.into(), input: serde_json::Value::Null }
}

fn model(who: &str) -> Event {
    Event::ModelCalled { agent: name(who) }
}

/// The findings of the one property `property` (TOML lines) over
/// `events`: those found on the way (by seq), then those at the end.
fn judge(property: &str, events: Vec<Event>) -> (Vec<u64>, Vec<String>) {
    let text = format!("format = 1\nuse = [\"lesson\"]\n[[property]]\nname = \"p\"\n{property}\n");
    let file = crate::protocol::file::load(&text).unwrap_or_else(|e| panic!("{}", e.render("test.toml")));
    let set = PropertySet::compile(&file).unwrap();
    let mut m = set.monitor();
    let mut on_the_way = Vec::new();
    for (seq, event) in (0..).zip(events) {
        on_the_way.extend(m.observe(&set, &TraceEntry { seq, time: Millis(seq), event }).into_iter().map(|f| f.seq));
    }
    let at_end = m.at_end(&set, 99).into_iter().map(|f| f.detail).collect();
    (on_the_way, at_end)
}

const SCOPES: [&str; 4] = ["run", "per_agent", "per_request", "per_key:plan"];

#[test]
fn absence_is_broken_at_the_first_match_in_each_scope() {
    for scope in SCOPES {
        let p = format!(
            "expect = \"always\"\npattern = \"absence\"\nmatch = {{ event = \"rejected\", protocol = \"plan\" }}\nscope = \"{scope}\""
        );
        let ok = vec![spawn("alice", "coder"), plan(1, "alice", "a"), answer(1, RequestKind::PLAN, "lead", true)];
        assert_eq!(judge(&p, ok), (vec![], vec![]), "{scope}");
        let bad = vec![spawn("alice", "coder"), plan(1, "alice", "a"), answer(1, RequestKind::PLAN, "lead", false), model("alice")];
        assert_eq!(judge(&p, bad).0, vec![2], "{scope}");
    }
}

#[test]
fn at_most_counts_each_scope_instance_apart() {
    let p = |scope: &str| {
        format!("expect = \"always\"\npattern = \"at_most\"\nn = 1\ncount = {{ event = \"approved\", protocol = \"plan\" }}\nscope = \"{scope}\"")
    };
    // alice's plan "a" and bob's plan "b", both approved once.
    let two = vec![
        plan(1, "alice", "a"),
        answer(1, RequestKind::PLAN, "lead", true),
        plan(2, "bob", "b"),
        answer(2, RequestKind::PLAN, "lead", true),
    ];
    // Over the whole run, two approvals are one too many; per agent,
    // request or plan text they are one each.
    assert_eq!(judge(&p("run"), two.clone()).0, vec![3]);
    for scope in ["per_agent", "per_request", "per_key:plan"] {
        assert_eq!(judge(&p(scope), two.clone()).0, Vec::<u64>::new(), "{scope}");
    }
    // alice twice, with the same plan: per agent and per key it is
    // broken; each request is still approved once.
    let again = vec![
        plan(1, "alice", "a"),
        answer(1, RequestKind::PLAN, "lead", true),
        plan(2, "alice", "a"),
        answer(2, RequestKind::PLAN, "lead", true),
    ];
    assert_eq!(judge(&p("per_agent"), again.clone()).0, vec![3]);
    assert_eq!(judge(&p("per_key:plan"), again.clone()).0, vec![3]);
    assert_eq!(judge(&p("per_request"), again).0, Vec::<u64>::new());
}

#[test]
fn existence_needs_a_match_in_every_instance_by_the_run_end() {
    let p = |scope: &str| {
        format!("expect = \"always\"\npattern = \"existence\"\nmatch = {{ event = \"settled\", protocol = \"plan\" }}\nscope = \"{scope}\"")
    };
    let settled = |n, who: &str, text: &str| vec![plan(n, who, text), answer(n, RequestKind::PLAN, "lead", false)];
    // Nothing at all: the run has no match; no teammate, request or key
    // exists that would need one, but the lead is an agent.
    assert_eq!(judge(&p("run"), vec![]).1.len(), 1);
    assert_eq!(judge(&p("per_agent"), vec![]).1.len(), 1, "the lead needs one too");
    assert_eq!(judge(&p("per_request"), vec![]).1, Vec::<String>::new());
    assert_eq!(judge(&p("per_key:plan"), vec![]).1, Vec::<String>::new());
    // alice's plan settles, bob's ("b") stays pending.
    let mut events = vec![spawn("alice", "coder"), spawn("bob", "coder")];
    events.extend(settled(1, "alice", "a"));
    events.push(plan(2, "bob", "b"));
    assert_eq!(judge(&p("run"), events.clone()).1, Vec::<String>::new());
    for scope in ["per_request", "per_key:plan"] {
        let (way, end) = judge(&p(scope), events.clone());
        assert!(way.is_empty() && end.len() == 1, "{scope}: {end:?}");
    }
    // Per agent, bob (and the lead) had no plan of theirs settle; alice did.
    let end = judge(&p("per_agent"), events).1;
    assert!(end.len() == 1 && end[0].contains("agent bob"), "{end:?}");
}

#[test]
fn precedence_allows_then_only_strictly_after_a_first_of_the_same_instance() {
    let p = |scope: &str| {
        format!(
            "expect = \"always\"\npattern = \"precedence\"\nfirst = {{ event = \"created\", protocol = \"plan\" }}\n\
             then = {{ event = \"approved\", protocol = \"plan\" }}\nscope = \"{scope}\""
        )
    };
    let ordered = vec![plan(1, "alice", "a"), answer(1, RequestKind::PLAN, "lead", true)];
    for scope in SCOPES {
        assert_eq!(judge(&p(scope), ordered.clone()), (vec![], vec![]), "{scope}");
    }
    // With `first` a tool call, the approval needs that call before it.
    let first_then = p("run").replace("event = \"created\", protocol = \"plan\"", "event = \"tool\", tool = \"plan_approval\"");
    assert_eq!(judge(&first_then, ordered.clone()).0, vec![1], "no plan_approval tool ran before the approval");
    let mut with_tool = vec![tool("lead", "plan_approval")];
    with_tool.extend(ordered.clone());
    assert_eq!(judge(&first_then, with_tool).0, Vec::<u64>::new());
    // Per agent: the lead's tool call does not count for alice.
    let per_agent = first_then.replace("scope = \"run\"", "scope = \"per_agent\"");
    let mut lead_only = vec![tool("lead", "plan_approval")];
    lead_only.extend(ordered.clone());
    assert_eq!(judge(&per_agent, lead_only).0, vec![2]);
    let mut alices = vec![tool("alice", "plan_approval")];
    alices.extend(ordered);
    assert_eq!(judge(&per_agent, alices).0, Vec::<u64>::new());
}

#[test]
fn precedence_per_request_and_per_key_read_the_request_of_each_event() {
    let p = |scope: &str| {
        format!(
            "expect = \"always\"\npattern = \"precedence\"\nfirst = {{ event = \"rejected\", protocol = \"plan\" }}\n\
             then = {{ event = \"approved\", protocol = \"plan\" }}\nscope = \"{scope}\""
        )
    };
    // Plan "a" rejected as request 1, then approved as request 2.
    let events = vec![
        plan(1, "alice", "a"),
        answer(1, RequestKind::PLAN, "lead", false),
        plan(2, "alice", "a"),
        answer(2, RequestKind::PLAN, "lead", true),
    ];
    assert_eq!(judge(&p("per_key:plan"), events.clone()).0, Vec::<u64>::new(), "the same plan text was rejected first");
    assert_eq!(judge(&p("per_request"), events).0, vec![3], "request 2 itself was never rejected");
}

#[test]
fn response_needs_a_reply_after_every_trigger_of_each_instance_by_the_run_end() {
    let p = |scope: &str| {
        format!(
            "expect = \"eventually\"\npattern = \"response\"\ntrigger = {{ event = \"created\", protocol = \"plan\" }}\n\
             reply = {{ event = \"settled\", protocol = \"plan\" }}\nscope = \"{scope}\""
        )
    };
    let answered = vec![plan(1, "alice", "a"), answer(1, RequestKind::PLAN, "lead", true)];
    for scope in SCOPES {
        assert_eq!(judge(&p(scope), answered.clone()), (vec![], vec![]), "{scope}");
    }
    // bob's plan "b" waits: broken in every scope but... every scope.
    let mut waiting = answered.clone();
    waiting.push(plan(2, "bob", "b"));
    for scope in SCOPES {
        let (way, end) = judge(&p(scope), waiting.clone());
        assert!(way.is_empty() && end.len() == 1, "{scope}: {end:?}");
    }
    // Over the run, alice's later answer answers bob's trigger too; per
    // request it does not.
    let crossed = vec![plan(1, "alice", "a"), plan(2, "bob", "b"), answer(1, RequestKind::PLAN, "lead", true)];
    assert_eq!(judge(&p("run"), crossed.clone()).1, Vec::<String>::new());
    assert_eq!(judge(&p("per_request"), crossed.clone()).1.len(), 1);
    assert_eq!(judge(&p("per_agent"), crossed).1.len(), 1, "bob's request is bob's");
}

#[test]
fn eventually_reports_a_broken_safety_pattern_at_the_run_end_and_always_at_the_event() {
    let p = |expect: &str| {
        format!("expect = \"{expect}\"\npattern = \"absence\"\nmatch = {{ event = \"model_call\", agent = \"alice\" }}\nscope = \"run\"")
    };
    let events = vec![spawn("alice", "coder"), model("alice"), model("alice")];
    assert_eq!(judge(&p("always"), events.clone()), (vec![1], vec![]));
    let (way, end) = judge(&p("eventually"), events);
    assert!(way.is_empty() && end.len() == 1, "{end:?}");
}

#[test]
fn sometimes_is_shown_at_a_run_end_that_keeps_the_property_and_never_on_the_way() {
    let p = "expect = \"sometimes\"\npattern = \"existence\"\nmatch = { event = \"rejected\", protocol = \"shutdown\" }\nscope = \"run\"";
    let shown = vec![spawn("alice", "coder"), ask(1, "alice"), answer(1, RequestKind::SHUTDOWN, "alice", false)];
    let (way, end) = judge(p, shown);
    assert!(way.is_empty() && end.len() == 1, "a witness at the end: {end:?}");
    assert_eq!(judge(p, vec![ask(1, "alice"), answer(1, RequestKind::SHUTDOWN, "alice", true)]), (vec![], vec![]));
}

#[test]
fn role_and_tool_filters_read_the_role_spawned_with_and_the_tool_called() {
    let p = "expect = \"always\"\npattern = \"absence\"\nmatch = { event = \"tool\", tool = \"write_file\", agent = \"role:tester\" }\nscope = \"run\"";
    let events = vec![
        spawn("alice", "coder"),
        spawn("bob", "tester"),
        tool("alice", "write_file"),
        tool("bob", "read_file"),
        tool("bob", "write_file"),
    ];
    assert_eq!(judge(p, events).0, vec![4]);
}

#[test]
fn a_field_filter_reads_the_plan_of_the_request_on_each_of_its_events() {
    let p = "expect = \"always\"\npattern = \"absence\"\nmatch = { event = \"approved\", protocol = \"plan\", plan = \"rm -rf\" }\nscope = \"run\"";
    let events = vec![
        plan(1, "alice", "small steps"),
        answer(1, RequestKind::PLAN, "lead", true),
        plan(2, "alice", "rm -rf"),
        answer(2, RequestKind::PLAN, "lead", true),
    ];
    assert_eq!(judge(p, events).0, vec![3]);
}

#[test]
fn a_delivery_is_each_message_read_from_an_inbox_held_ones_once_released() {
    let p = "expect = \"always\"\npattern = \"at_most\"\nn = 1\ncount = { event = \"delivered\", protocol = \"shutdown\" }\nscope = \"per_request\"";
    let mut request = Message::new(MessageType::SHUTDOWN_REQUEST, AgentName::lead(), name("alice"), "stop", Millis(0));
    request.request_id = Some(id(1));
    let drained = |ids: &[u64]| Event::InboxDrained {
        agent: name("alice"),
        message_ids: ids.iter().map(|i| crate::protocol::MessageId(*i)).collect(),
    };
    // Sent at 1, held by a delay at 2, released at 3 (its id): two copies read.
    let events = vec![
        ask(1, "alice"),
        Event::MessageSent { message: request.clone() },
        Event::FaultApplied { action: FaultAction::Delay { ms: 5 }, message: request, rule: None },
        Event::MessageReleased { held: 2 },
        drained(&[1]),
        drained(&[3]),
    ];
    assert_eq!(judge(p, events.clone()).0, vec![5], "the released copy is the second delivery");
    assert_eq!(judge(p, events[..5].to_vec()).0, Vec::<u64>::new());
}

#[test]
fn a_file_with_protocols_of_its_own_compiles_over_them_and_is_refused_only_on_a_builtin_scenario() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/protocol/file/examples/review-gate.toml")).unwrap();
    let file = crate::protocol::file::load(&text).unwrap();
    assert!(matches!(PropertySet::compile_for_lesson(&file), Err(MonitorError::OwnProtocols(_))));
    assert!(!PropertySet::compile(&file).unwrap().is_empty());
}

/// A claim protocol of the file's own (teammates ask the lead; a task
/// enum, an int; a response note and a bool; a deadline).
const CLAIMS: &str = r#"format = 1
[[protocol]]
name = "claim"
request = "claim_request"
response = "claim_response"
from = "teammate"
to = "lead"
request_fields = [{ name = "task", type = "enum", values = ["parser", "lexer"], required = true }, { name = "hours", type = "int" }]
response_fields = [{ name = "note", type = "string", content = true }, { name = "urgent", type = "bool" }]
deadline_ms = 10
tools.request = { name = "claim_task", description = "Claim a task." }
tools.respond = { name = "answer_claim", description = "Answer a claim." }
"#;

/// The findings of the one property `property` of a file with `CLAIMS`'s
/// protocol over `events` built with its protocol set.
fn judge_claims(property: &str, events: impl FnOnce(&ProtocolSet) -> Vec<Event>) -> (Vec<u64>, Vec<String>) {
    let text = format!("{CLAIMS}[[property]]\nname = \"p\"\n{property}\n");
    let file = crate::protocol::file::load(&text).unwrap_or_else(|e| panic!("{}", e.render("test.toml")));
    let protocols = ProtocolSet::new(std::sync::Arc::new(file.clone()));
    let set = PropertySet::compile(&file).unwrap();
    let mut m = set.monitor();
    let mut on_the_way = Vec::new();
    for (seq, event) in (0..).zip(events(&protocols)) {
        on_the_way.extend(m.observe(&set, &TraceEntry { seq, time: Millis(seq), event }).into_iter().map(|f| f.seq));
    }
    let at_end = m.at_end(&set, 99).into_iter().map(|f| f.detail).collect();
    (on_the_way, at_end)
}

fn claim(p: &ProtocolSet, n: u32, from: &str, task: &str) -> Event {
    Event::RequestCreated {
        request_id: id(n),
        request_kind: p.kind(ProtocolIx(0)).unwrap(),
        requester: name(from),
        addressee: AgentName::lead(),
        plan: None,
        fields: [("task".to_string(), FieldValue::Text(task.into()))].into_iter().collect(),
    }
}

fn answer_claim(p: &ProtocolSet, n: u32, approve: bool) -> Event {
    let to = if approve { RequestStatus::Approved } else { RequestStatus::Rejected };
    let request_kind = p.kind(ProtocolIx(0)).unwrap();
    Event::RequestTransitioned { request_id: id(n), request_kind, by: AgentName::lead(), from: RequestStatus::Pending, to }
}

#[test]
fn at_most_per_key_reads_a_file_protocols_enum_field_on_each_of_its_requests_events() {
    let p = "expect = \"always\"\npattern = \"at_most\"\nn = 1\ncount = { event = \"approved\", protocol = \"claim\" }\nscope = \"per_key:task\"";
    // ann's and ben's claims of the parser are both approved: over the bound;
    // one each of two tasks is not.
    let twice = |p: &ProtocolSet| {
        vec![claim(p, 1, "ann", "parser"), answer_claim(p, 1, true), claim(p, 2, "ben", "parser"), answer_claim(p, 2, true)]
    };
    assert_eq!(judge_claims(p, twice).0, vec![3]);
    let apart = |p: &ProtocolSet| {
        vec![claim(p, 1, "ann", "parser"), answer_claim(p, 1, true), claim(p, 2, "ben", "lexer"), answer_claim(p, 2, true)]
    };
    assert_eq!(judge_claims(p, apart), (vec![], vec![]));
    // An enum filter compares the value's text.
    let lexer = "expect = \"always\"\npattern = \"absence\"\nmatch = { event = \"approved\", protocol = \"claim\", task = \"lexer\" }\nscope = \"run\"";
    assert_eq!(judge_claims(lexer, twice).0, Vec::<u64>::new());
    assert_eq!(judge_claims(lexer, apart).0, vec![3]);
}

#[test]
fn an_expiry_is_an_expired_event_and_settles_the_request() {
    let expired = |p: &ProtocolSet| {
        let request_kind = p.kind(ProtocolIx(0)).unwrap();
        vec![claim(p, 1, "ann", "parser"), Event::RequestExpired { request_id: id(1), request_kind }]
    };
    let settles = "expect = \"eventually\"\npattern = \"response\"\ntrigger = { event = \"created\", protocol = \"claim\" }\n\
                   reply = { event = \"settled\", protocol = \"claim\" }\nscope = \"per_request\"";
    assert_eq!(judge_claims(settles, expired), (vec![], vec![]));
    assert_eq!(judge_claims(settles, |p| vec![claim(p, 1, "ann", "parser")]).1.len(), 1, "pending at the end");
    let never = "expect = \"always\"\npattern = \"absence\"\nmatch = { event = \"expired\", protocol = \"claim\" }\nscope = \"per_agent\"";
    assert_eq!(judge_claims(never, expired).0, vec![1]);
    assert_eq!(judge_claims(never, |p| vec![claim(p, 1, "ann", "parser"), answer_claim(p, 1, false)]).0, Vec::<u64>::new());
}

#[test]
fn a_response_field_is_read_on_the_delivery_of_the_response_by_its_type() {
    let p = "expect = \"always\"\npattern = \"absence\"\nmatch = { event = \"delivered\", protocol = \"claim\", urgent = true }\nscope = \"run\"";
    let reply = |p: &ProtocolSet, urgent: bool| {
        let mut m = Message::new(p.response_type(ProtocolIx(0)).unwrap(), AgentName::lead(), name("ann"), "ok", Millis(0));
        m.request_id = Some(id(1));
        m.approve = Some(true);
        m.fields = [("urgent".to_string(), FieldValue::Bool(urgent))].into_iter().collect();
        let drained = Event::InboxDrained { agent: name("ann"), message_ids: vec![crate::protocol::MessageId(2)] };
        vec![claim(p, 1, "ann", "parser"), answer_claim(p, 1, true), Event::MessageSent { message: m }, drained]
    };
    assert_eq!(judge_claims(p, |s| reply(s, true)).0, vec![3]);
    assert_eq!(judge_claims(p, |s| reply(s, false)).0, Vec::<u64>::new());
}

#[test]
fn a_property_naming_one_teammate_tells_alike_teammates_apart_and_a_role_or_the_lead_does_not() {
    let naming = |who: &str| {
        let text = format!(
            "format = 1\n[[property]]\nname = \"p\"\nexpect = \"always\"\npattern = \"absence\"\n\
             match = {{ event = \"model_call\", agent = \"{who}\" }}\nscope = \"run\"\n"
        );
        PropertySet::compile(&crate::protocol::file::load(&text).unwrap()).unwrap().names_a_teammate()
    };
    assert!(naming("bob"));
    assert!(!naming("role:coder"));
    assert!(!naming("lead"));
}

#[test]
fn no_properties_make_an_empty_set_whose_monitor_hashes_nothing() {
    let file = crate::protocol::file::load("format = 1\nuse = [\"lesson\"]\n").unwrap();
    let set = PropertySet::compile(&file).unwrap();
    assert!(set.is_empty());
    let m = set.monitor();
    use crate::protocol::canon::StableHasher;
    assert_eq!(StableHasher::digest(|h| m.hash_into(h)), StableHasher::digest(|_| {}));
}
