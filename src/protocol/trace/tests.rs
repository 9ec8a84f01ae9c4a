//! The trace's rules: numbering, time, forgetting a prefix, the JSON file's
//! round trip and what older files still load.

use super::*;

#[test]
fn sequence_numbers_count_up_from_zero() {
    let mut t = Trace::new("team", 1);
    assert_eq!(t.append(Millis(0), Event::RunFinished), Ok(0));
    assert_eq!(t.append(Millis(0), Event::RunFinished), Ok(1));
    assert_eq!(t.entries().iter().map(|e| e.seq).collect::<Vec<_>>(), [0, 1]);
}

#[test]
fn time_cannot_go_backwards() {
    let mut t = Trace::new("team", 1);
    t.append(Millis(10), Event::RunFinished).unwrap();
    assert_eq!(t.append(Millis(9), Event::RunFinished), Err(TraceError::TimeWentBackwards { seq: 1, at: Millis(9), previous: Millis(10) }));
    assert_eq!(t.len(), 1);
}

#[test]
fn a_trace_that_forgets_everything_keeps_its_numbering_and_its_clock() {
    let mut t = Trace::new("team", 1);
    t.append(Millis(10), Event::RunFinished).unwrap();
    t.append(Millis(12), Event::RunFinished).unwrap();
    t.forget_all();
    assert!(t.is_empty());
    assert_eq!((t.next_seq(), t.last_time()), (2, Millis(12)));
    assert_eq!(
        t.append(Millis(11), Event::RunFinished),
        Err(TraceError::TimeWentBackwards { seq: 2, at: Millis(11), previous: Millis(12) })
    );
    assert_eq!(t.append(Millis(12), Event::RunFinished), Ok(2));
    assert_eq!(t.since(2).len(), 1);
}

#[test]
fn json_round_trip_keeps_every_entry() {
    let mut t = Trace::new("team", 5);
    t.append(Millis(1), Event::RunStarted { prompt: "go".into() }).unwrap();
    t.append(Millis(2), Event::RunFinished).unwrap();
    let back = Trace::from_json(&t.to_json()).unwrap();
    assert_eq!(back, t);
    assert!(t.to_json().contains(r#""kind":"run_started""#));
}

#[test]
fn loading_refuses_gaps_in_numbering_and_other_versions() {
    let e = |seq| TraceEntry { seq, time: Millis(0), event: Event::RunFinished };
    assert_eq!(Trace::from_parts("t".into(), 0, TRACE_FORMAT_VERSION, vec![e(0), e(2)]), Err(TraceError::BadSequence { index: 1, seq: 2 }));
    assert_eq!(Trace::from_parts("t".into(), 0, 99, vec![]), Err(TraceError::UnsupportedVersion(99)));
    assert!(Trace::from_json("{").unwrap_err().starts_with("not a valid trace file"));
}

#[test]
fn a_fault_event_recorded_before_rules_were_numbered_still_loads() {
    let old = r#"{"version":1,"team_name":"t","seed":1,"entries":[{"seq":0,"time":0,"event":{"kind":"fault_applied","action":{"kind":"drop"},"message":{"type":"message","from":"lead","to":"alice","content":"hi","timestamp":0}}}]}"#;
    let trace = Trace::from_json(old).unwrap();
    assert!(matches!(&trace.entries()[0].event, Event::FaultApplied { rule: None, .. }));
    assert!(!trace.to_json().contains("rule"), "no rule, no field: old traces round-trip unchanged");
}

#[test]
fn a_reply_recorded_before_cache_tokens_were_counted_still_loads_and_round_trips_unchanged() {
    let old = r#"{"version":1,"team_name":"t","seed":1,"entries":[{"seq":0,"time":0,"event":{"kind":"model_replied","agent":"lead","stop_reason":"end_turn","input_tokens":9,"output_tokens":4}}]}"#;
    let trace = Trace::from_json(old).unwrap();
    assert!(matches!(
        &trace.entries()[0].event,
        Event::ModelReplied { input_tokens: 9, output_tokens: 4, cache_read_tokens: 0, cache_write_tokens: 0, measured: false, .. }
    ));
    assert_eq!(trace.to_json(), Trace::from_json(&trace.to_json()).unwrap().to_json());
    for field in ["cache_read_tokens", "cache_write_tokens", "measured"] {
        assert!(!trace.to_json().contains(field), "{field}: zero or false is not written");
    }
}

#[test]
fn a_measured_reply_with_cache_tokens_survives_export_and_import() {
    let mut trace = Trace::new("t", 1);
    let reply = Event::ModelReplied {
        agent: AgentName::lead(),
        text: "ok".into(),
        stop_reason: "end_turn".into(),
        input_tokens: 12,
        output_tokens: 7,
        cache_read_tokens: 45_000,
        cache_write_tokens: 3_000,
        measured: true,
    };
    trace.append(Millis(0), reply.clone()).unwrap();
    let back = Trace::from_json(&trace.to_json()).unwrap();
    assert_eq!(back.entries()[0].event, reply);
}

#[test]
fn an_events_kind_is_the_kind_the_trace_file_writes() {
    use crate::protocol::testing::handshake;
    let mut trace = handshake();
    let alice = AgentName::parse("alice").unwrap();
    let note = Message::new(crate::protocol::MessageType::Message, AgentName::lead(), alice.clone(), "x", Millis(0));
    let more = [
        Event::RunFinished,
        Event::MemberStatusChanged { name: alice.clone(), from: MemberStatus::Working, to: MemberStatus::Idle },
        Event::ModelCalled { agent: alice.clone() },
        Event::ModelReplied {
            agent: alice.clone(),
            text: String::new(),
            stop_reason: "end_turn".into(),
            input_tokens: 1,
            output_tokens: 1,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
            measured: false,
        },
        Event::ModelFailed { agent: alice.clone(), error: "e".into() },
        Event::ToolCalled { agent: alice.clone(), tool_use_id: "t".into(), tool: "x".into(), input: serde_json::Value::Null },
        Event::ToolReturned { agent: alice.clone(), tool_use_id: "t".into(), tool: "x".into(), output: String::new(), is_error: false },
        Event::FaultApplied { action: FaultAction::Reorder, message: note, rule: None },
        Event::MessageReleased { held: 0 },
    ];
    let end = trace.last_time();
    for event in more {
        trace.append(end, event).unwrap();
    }
    let mut kinds = std::collections::BTreeSet::new();
    for entry in trace.entries() {
        let written = serde_json::to_value(&entry.event).unwrap();
        assert_eq!(written["kind"], entry.event.kind(), "{:?}", entry.event);
        kinds.insert(entry.event.kind());
    }
    assert_eq!(kinds.len(), 15, "every kind is checked: {kinds:?}");
}

#[test]
fn prefix_is_the_trace_as_of_an_event() {
    let mut t = Trace::new("team", 5);
    for i in 0..4 {
        t.append(Millis(i), Event::RunFinished).unwrap();
    }
    assert_eq!(t.prefix(2).len(), 2);
    assert_eq!(t.prefix(99).len(), 4);
    assert_eq!(t.prefix(2).seed, 5);
}
