//! Captions on real traces: every event variant and every scenario's
//! events in each of the page's languages, what a caption quotes, prices,
//! a file protocol's generic templates and the closing caption.

use super::*;
use crate::protocol::{FaultPlan, FaultRule, Millis, RequestId, RequestKind, Team};
use crate::view::panel_data::describe;

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

fn find(trace: &Trace, f: impl Fn(&Event) -> bool) -> usize {
    trace.entries().iter().position(|e| f(&e.event)).expect("the event is in the trace")
}

fn at(trace: &Trace, i: usize) -> Caption {
    caption(Catalog::en(), trace, Some(i + 1))
}

fn at_in(cat: &Catalog, trace: &Trace, i: usize) -> Caption {
    caption(cat, trace, Some(i + 1))
}

/// alice is spawned, asked to shut down, reads the request and approves.
fn shutdown() -> (Trace, RequestId) {
    let mut t = Team::new("d", 1);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let id = t.request_shutdown(&AgentName::lead(), &name("alice"), Millis(1)).unwrap();
    t.drain(&name("alice"), Millis(2)).unwrap();
    t.answer(RequestKind::SHUTDOWN, &id, &name("alice"), true, "all done", Millis(3)).unwrap();
    t.set_status(&name("alice"), MemberStatus::Shutdown, Millis(4)).unwrap();
    (t.trace().clone(), id)
}

#[test]
fn a_released_message_starts_with_a_capital_only_where_the_language_writes_one() {
    let mut t = Team::new("d", 1);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    t.set_faults(FaultPlan::new(vec![FaultRule::new(crate::protocol::FaultAction::Delay { ms: 5 })]));
    t.send(&name("alice"), &AgentName::lead(), "message", "done", Millis(1)).unwrap();
    t.release_all(Millis(2)).unwrap();
    let trace = t.trace().clone();
    let released = find(&trace, |e| matches!(e, Event::MessageReleased { .. }));
    let ja = caption(Catalog::get(Locale::Ja), &trace, Some(released + 1)).text;
    assert!(ja.contains("alice") && !ja.contains("Alice"), "{ja}");
    let en = caption(Catalog::en(), &trace, Some(released + 1)).text;
    assert!(en.starts_with("A message from alice") || en.contains(". A message from alice"), "{en}");
}

#[test]
fn a_shutdown_request_names_the_target_and_the_pending_request() {
    let (trace, id) = shutdown();
    let c = at(&trace, find(&trace, |e| matches!(e, Event::RequestCreated { .. })));
    assert_eq!(c.title, "Shutdown requested");
    assert!(
        c.text.starts_with(&format!("The lead asks alice to shut down. Request {id} is created and is pending until alice answers")),
        "{}",
        c.text
    );
}

#[test]
fn reading_the_inbox_lists_the_messages_drained_by_their_seq() {
    let (trace, id) = shutdown();
    let c = at(&trace, find(&trace, |e| matches!(e, Event::InboxDrained { .. })));
    assert_eq!(c.text, format!("alice reads the inbox: one message, the shutdown_request {id} from the lead. The inbox is empty again. alice handles each by its request_id."));
}

#[test]
fn an_approved_shutdown_says_the_teammate_finishes_its_turn_then_exits() {
    let (trace, id) = shutdown();
    let c = at(&trace, find(&trace, |e| matches!(e, Event::RequestTransitioned { .. })));
    assert_eq!(c.title, "Shutdown approved");
    assert!(
        c.text.starts_with(&format!(
            "alice approves {id}: the tracker moves it pending → approved. alice finishes this turn, then leaves its loop."
        )),
        "{}",
        c.text
    );
    assert!(c.text.contains("reason: “all done”"), "the reason comes from the response beside it: {}", c.text);
}

#[test]
fn a_rejected_plan_names_whose_plan_and_quotes_the_feedback() {
    let mut t = Team::new("d", 1);
    t.spawn(&name("bob"), "refactorer", true, Millis(0)).unwrap();
    let id = t.submit_plan(&name("bob"), "Rewrite auth in one go", Millis(1)).unwrap();
    t.answer(RequestKind::PLAN, &id, &AgentName::lead(), false, "Too risky: split it", Millis(2)).unwrap();
    let trace = t.trace().clone();
    let created = at(&trace, find(&trace, |e| matches!(e, Event::RequestCreated { .. })));
    assert!(created.text.contains("bob submits a plan for approval: “Rewrite auth in one go”"), "{}", created.text);
    let c = at(&trace, find(&trace, |e| matches!(e, Event::RequestTransitioned { .. })));
    assert_eq!(c.title, "Plan rejected");
    assert!(c.text.starts_with(&format!("The lead rejects bob's plan {id}: the tracker moves it pending → rejected.")), "{}", c.text);
    assert!(c.text.contains("feedback: “Too risky: split it”"), "{}", c.text);
    let spawned = at(&trace, 0);
    assert!(spawned.text.contains("plan mode") && spawned.text.contains("gates execution"), "{}", spawned.text);
}

#[test]
fn a_fault_caption_names_its_rule_and_a_release_names_the_held_message() {
    let mut t = Team::new("d", 1);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop), FaultRule::new(FaultAction::Reorder)]));
    t.send(&AgentName::lead(), &name("alice"), "message", "one", Millis(1)).unwrap();
    let trace = t.trace().clone();
    let i = find(&trace, |e| matches!(e, Event::FaultApplied { .. }));
    let Event::FaultApplied { rule, .. } = &trace.entries()[i].event else { unreachable!() };
    let c = at(&trace, i);
    assert!(c.text.starts_with(&format!("Fault rule {} ", rule.unwrap())), "{}", c.text);

    let mut t = Team::new("d", 1);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Delay { ms: 50 })]));
    t.send(&AgentName::lead(), &name("alice"), "message", "later", Millis(1)).unwrap();
    t.set_faults(FaultPlan::default());
    t.release_all(Millis(60)).unwrap();
    t.drain(&name("alice"), Millis(61)).unwrap();
    let trace = t.trace().clone();
    let held = find(&trace, |e| matches!(e, Event::FaultApplied { .. }));
    let c = at(&trace, find(&trace, |e| matches!(e, Event::MessageReleased { .. })));
    assert_eq!(c.text, format!("A message from the lead reaches alice's inbox at last (held since event #{held}). It is matched by its request_id, whatever the order."));
    let read = at(&trace, find(&trace, |e| matches!(e, Event::InboxDrained { .. })));
    assert!(read.text.contains("one message, a message from the lead"), "a released message is found through its fault: {}", read.text);
}

#[test]
fn a_restart_and_an_answer_across_it_are_told_from_the_state_before() {
    let mut t = Team::new("d", 1);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    t.set_status(&name("alice"), MemberStatus::Idle, Millis(1)).unwrap();
    let before = t.state().clone();
    t.spawn(&name("alice"), "coder", false, Millis(2)).unwrap();
    let trace = t.trace().clone();
    let last = trace.len() - 1;
    assert_eq!(caption_with(Catalog::en(), trace.entries(), None, Some(&before)).title, "alice restarts");
    assert_eq!(
        caption_of(Catalog::en(), trace.entries(), None, &trace.entries()[last]).title,
        "alice spawned",
        "without the state, a spawn is a spawn"
    );
}

#[test]
fn the_caption_follows_the_cursor_and_has_a_start() {
    let (trace, _) = shutdown();
    assert_eq!(caption(Catalog::en(), &trace, Some(0)).title, "Before the first event");
    assert_eq!(caption(Catalog::en(), &Trace::new("d", 0), None).title, "Nothing yet");
    assert_eq!(caption(Catalog::en(), &trace, Some(1)).title, "alice spawned");
    assert_eq!(caption(Catalog::en(), &trace, None), caption(Catalog::en(), &trace, Some(trace.len())));
    assert_eq!(caption(Catalog::en(), &trace, Some(usize::MAX)), caption(Catalog::en(), &trace, None));
}

#[test]
fn what_was_said_is_the_plan_the_feedback_or_the_reason() {
    let mut m = Message::new(MessageType::PLAN_APPROVAL_REQUEST, name("bob"), AgentName::lead(), "the plan", Millis(0));
    m.plan = Some("Step 1\nStep 2".into());
    assert_eq!(said(&m), Some(Said { field: "plan", text: "Step 1\nStep 2".into() }));
    let mut r = Message::new(MessageType::SHUTDOWN_RESPONSE, name("bob"), AgentName::lead(), "busy", Millis(0));
    assert_eq!(said(&r).map(|s| (s.field, s.text)), Some(("reason", "busy".to_string())), "content stands in for a missing field");
    r.reason = Some("  ".into());
    r.content = String::new();
    assert_eq!(said(&r), None, "an empty answer says nothing");
    let plain = Message::new(MessageType::Message, name("bob"), AgentName::lead(), "hi", Millis(0));
    assert_eq!(said(&plain), None);
    let f = Message {
        feedback: Some("split it".into()),
        ..Message::new(MessageType::PLAN_APPROVAL_RESPONSE, AgentName::lead(), name("bob"), "", Millis(0))
    };
    assert_eq!(said_in([&m, &plain, &f]).iter().map(|s| s.field).collect::<Vec<_>>(), ["plan", "feedback"]);
    assert_eq!(clip("a\nb  c", 10), "a b c");
    assert_eq!(clip("abcdef", 4), "abc…");
}

/// One entry of every `Event` variant. The match below has no wildcard:
/// a new variant fails to compile here until it is added (and so gets a
/// caption checked by the test that uses this).
fn one_of_each() -> Vec<Event> {
    let m = Message::new(MessageType::Message, AgentName::lead(), name("alice"), "hi", Millis(0));
    let id = RequestId::parse("4607cc28").unwrap();
    let all = vec![
        Event::RunStarted { prompt: "go".into() },
        Event::RunFinished,
        Event::MemberSpawned { name: name("alice"), role: "coder".into(), plan_mode: false },
        Event::MemberStatusChanged { name: name("alice"), from: MemberStatus::Working, to: MemberStatus::Idle },
        Event::MessageSent { message: m.clone() },
        Event::InboxDrained { agent: name("alice"), message_ids: vec![crate::protocol::MessageId(4)] },
        Event::RequestCreated {
            request_id: id.clone(),
            request_kind: RequestKind::SHUTDOWN,
            requester: AgentName::lead(),
            addressee: name("alice"),
            plan: None,
            fields: Default::default(),
        },
        Event::RequestTransitioned {
            request_id: id,
            request_kind: RequestKind::SHUTDOWN,
            by: name("alice"),
            from: RequestStatus::Pending,
            to: RequestStatus::Approved,
        },
        Event::ModelCalled { agent: name("alice") },
        Event::ModelReplied {
            agent: name("alice"),
            text: "ok".into(),
            stop_reason: "end_turn".into(),
            input_tokens: 1,
            output_tokens: 2,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
            measured: false,
        },
        Event::ModelFailed { agent: name("alice"), error: "boom".into() },
        Event::ToolCalled { agent: name("alice"), tool_use_id: "t1".into(), tool: "read_inbox".into(), input: serde_json::json!({}) },
        Event::ToolReturned {
            agent: name("alice"),
            tool_use_id: "t1".into(),
            tool: "read_inbox".into(),
            output: "[]".into(),
            is_error: false,
        },
        Event::FaultApplied { action: FaultAction::Delay { ms: 5 }, message: m, rule: Some(1) },
        Event::MessageReleased { held: 13 },
        Event::BudgetReached {
            agent: name("alice"),
            limit: crate::protocol::BudgetLimit::Tokens(5000),
            spent: 4800,
            expected: 400,
            unpriced: false,
        },
    ];
    for e in &all {
        match e {
            Event::RunStarted { .. }
            | Event::RunFinished
            | Event::MemberSpawned { .. }
            | Event::MemberStatusChanged { .. }
            | Event::MessageSent { .. }
            | Event::InboxDrained { .. }
            | Event::RequestCreated { .. }
            | Event::RequestTransitioned { .. }
            | Event::RequestExpired { .. }
            | Event::ModelCalled { .. }
            | Event::ModelReplied { .. }
            | Event::ModelFailed { .. }
            | Event::ToolCalled { .. }
            | Event::ToolReturned { .. }
            | Event::FaultApplied { .. }
            | Event::MessageReleased { .. }
            | Event::BudgetReached { .. } => {}
        }
    }
    all
}

#[test]
fn a_measured_reply_shows_its_price_when_the_model_has_one_and_an_estimate_never_does() {
    let reply = |measured: bool| Event::ModelReplied {
        agent: name("alice"),
        text: String::new(),
        stop_reason: "end_turn".into(),
        input_tokens: 1000,
        output_tokens: 500,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        measured,
    };
    let price = crate::view::prices::PriceTable::default().price_of("claude-sonnet-4-5").cloned();
    for (measured, priced, shows) in [(true, true, true), (true, false, false), (false, true, false)] {
        let mut trace = Trace::new("d", 0);
        trace.append(Millis(0), reply(measured)).unwrap();
        let p = if priced { price.as_ref() } else { None };
        let text = caption_priced(Catalog::en(), trace.entries(), None, None, p).text;
        assert_eq!(text.contains("$0.0105"), shows, "measured {measured}, priced {priced}: {text}");
    }
}

#[test]
fn every_event_variant_has_a_caption_of_its_own() {
    let mut trace = Trace::new("d", 0);
    for e in one_of_each() {
        trace.append(Millis(0), e).unwrap();
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, entry) in trace.entries().iter().enumerate() {
        let c = at(&trace, i);
        assert!(!c.title.is_empty() && !c.text.is_empty(), "{entry:?}");
        assert_ne!(c.text, describe(entry), "a caption is not the raw log line: {entry:?}");
        assert!(!c.text.contains(&describe(entry)), "{entry:?}");
        assert!(seen.insert(c.text.clone()), "each variant is told in its own words: {}", c.text);
    }
    // Variants are variants: 16 distinct kinds, one caption each.
    assert_eq!(seen.len(), 16);
}

#[test]
fn every_event_of_every_scenario_has_a_caption_and_none_reads_like_a_debug_dump() {
    use crate::model::scripted::ScriptedModel;
    use crate::model::sleep::NoSleep;
    use crate::runtime::executor::LocalExecutor;
    use crate::runtime::{scenarios, Host, Runtime, RuntimeConfig};
    use std::rc::Rc;
    for sc in scenarios::ALL {
        let ex = LocalExecutor::new();
        let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
        let rt = Runtime::new(RuntimeConfig { seed: 2026, ..RuntimeConfig::default() }, Rc::new(ScriptedModel), host);
        for prompt in sc.prompts {
            rt.submit_prompt(prompt).unwrap();
            ex.run_until_stalled();
        }
        let trace = rt.trace();
        for i in 0..trace.len() {
            let c = at(&trace, i);
            assert!(
                !c.text.is_empty() && !c.text.contains("Some(") && !c.text.contains("None") && !c.text.contains("{\""),
                "{}: {c:?}",
                sc.id
            );
        }
    }
}

#[test]
fn a_quote_that_ends_a_sentence_takes_no_second_full_stop() {
    let mut t = Trace::new("d", 0);
    t.append(Millis(0), Event::RunStarted { prompt: "Spawn alice. Then stop her.".into() }).unwrap();
    let c = caption(Catalog::en(), &t, None);
    assert!(c.text.contains("“Spawn alice. Then stop her.” The lead"), "{}", c.text);
}

/// What a caption in any language must not show: a missing key's
/// marker, an unfilled variable, a brace other than the tracker's dict.
fn leftovers(c: &Caption) -> bool {
    let all = format!("{} {}", c.title, c.text).replace("{target:", "").replace("pending}", "");
    all.contains('⟦') || all.contains('{') || all.contains('}') || c.title.trim().is_empty() || c.text.trim().is_empty()
}

#[test]
fn every_event_variant_and_every_scenario_event_is_captioned_in_every_language_with_nothing_left_over() {
    use crate::model::scripted::ScriptedModel;
    use crate::model::sleep::NoSleep;
    use crate::runtime::executor::LocalExecutor;
    use crate::runtime::{scenarios, Host, Runtime, RuntimeConfig};
    use crate::view::i18n::Locale;
    use std::rc::Rc;
    let mut variants = Trace::new("d", 0);
    for e in one_of_each() {
        variants.append(Millis(0), e).unwrap();
    }
    let mut traces = vec![variants];
    for sc in scenarios::ALL.iter().chain([&scenarios::WITHOUT_PROTOCOLS]) {
        let ex = LocalExecutor::new();
        let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
        let rt = Runtime::new(RuntimeConfig { seed: 2026, ..RuntimeConfig::default() }, Rc::new(ScriptedModel), host);
        for prompt in sc.prompts {
            rt.submit_prompt(prompt).unwrap();
            ex.run_until_stalled();
        }
        traces.push(rt.trace());
    }
    for trace in &traces {
        for cursor in 0..=trace.len() {
            let en = caption(Catalog::en(), trace, Some(cursor));
            for l in Locale::ALL {
                let c = caption(Catalog::get(l), trace, Some(cursor));
                assert!(!leftovers(&c), "{}: {c:?}", l.tag());
                if l != Locale::En {
                    assert_ne!(c.text, en.text, "{}: told in its own words, not English's", l.tag());
                }
            }
        }
    }
}

#[test]
fn a_file_protocols_events_are_told_by_generic_templates_in_every_language_with_the_authors_words_quoted() {
    use crate::explore::file_team::file_team_run;
    use crate::model::sleep::NoSleep;
    use crate::protocol::file::{self, builtin};
    use crate::runtime::executor::LocalExecutor;
    use crate::runtime::{Host, Runtime, RuntimeConfig};
    use crate::view::i18n::Locale;
    use std::rc::Rc;
    use std::sync::Arc;
    let (mut created, mut expired) = (0, 0);
    for (name, text) in builtin::EXAMPLES {
        // An example the loader refuses (a protocol nobody can answer) has no run.
        let Ok(f) = file::load(text).map(Arc::new) else { continue };
        let Ok(run) = file_team_run(Arc::clone(&f), 2026) else { continue };
        let ex = LocalExecutor::new();
        let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
        let config = RuntimeConfig {
            seed: 2026,
            faults: run.faults.clone(),
            rules: run.rules,
            protocols: Some(Arc::clone(&f)),
            ..RuntimeConfig::default()
        };
        let rt = Runtime::new(config, Rc::new(run.model.clone()), host);
        for prompt in &run.prompts {
            rt.submit_prompt(prompt).unwrap();
            ex.run_until_stalled();
        }
        let trace = rt.trace();
        for (i, e) in trace.entries().iter().enumerate() {
            let en = at(&trace, i);
            if let Event::RequestCreated { request_id, request_kind, fields, .. } = &e.event {
                if !request_kind.is_file() {
                    continue;
                }
                created += 1;
                // Its expiry, as a deadline would record it.
                let mut late = Trace::new("d", 0);
                late.append(Millis(0), Event::RequestExpired { request_id: request_id.clone(), request_kind: *request_kind }).unwrap();
                for l in Locale::ALL {
                    let c = at_in(Catalog::get(l), &late, 0);
                    assert!(!leftovers(&c) && c.text.contains(request_id.as_str()), "{name} {}: {c:?}", l.tag());
                    assert!(!c.text.contains("(expired)") || l == Locale::En, "{name} {}: {c:?}", l.tag());
                }
                expired += 1;
                assert!(at(&late, 0).text.starts_with("Nobody answered"), "{name}: {:?}", at(&late, 0));
                assert!(en.text.contains("protocol: request"), "{name}: {en:?}");
                for (_, v) in fields.iter() {
                    assert!(en.text.contains(&format!("“{v}")), "{name}: the author's words quoted: {en:?}");
                }
            }
            for l in Locale::ALL {
                let c = at_in(Catalog::get(l), &trace, i);
                assert!(!leftovers(&c), "{name} {}: {c:?}", l.tag());
            }
        }
    }
    assert!(created > 0 && expired == created, "the examples create file requests ({created})");
}

#[test]
fn the_closing_caption_says_only_what_the_state_at_the_end_shows() {
    let alice = name("alice");
    let mut t = Team::new("default", 3);
    t.spawn(&alice, "coder", false, Millis(0)).unwrap();
    t.request_shutdown(&AgentName::lead(), &alice, Millis(1)).unwrap();
    t.set_status(&alice, MemberStatus::Idle, Millis(2)).unwrap();
    t.finish_run(Millis(3)).unwrap();
    let last = t.trace().entries().last().unwrap().clone();
    // alice never read the request, which is still pending.
    let st = Team::replay(&t.trace().prefix(t.trace().len() - 1)).unwrap();
    let c = caption_of(Catalog::en(), t.trace().entries(), Some(st.state()), &last);
    assert_eq!(
        c.text,
        "The team is quiet: nobody is working. Still unread: one message in alice's inbox. One request is still pending in the tracker."
    );
    // Without the state the caption claims nothing about inboxes or requests.
    let bare = caption_of(Catalog::en(), t.trace().entries(), None, &last);
    assert_eq!(bare.text, "The team is quiet: no agent has a turn left to take.");
    // Working members are named.
    let mut busy = st.state().clone();
    busy.roster.set_status(&alice, MemberStatus::Working).unwrap();
    let c = caption_of(Catalog::en(), t.trace().entries(), Some(&busy), &last);
    assert!(c.text.starts_with("The team is quiet, yet the roster still shows alice as working."), "{}", c.text);
    for l in Locale::ALL {
        let c = caption_of(Catalog::get(l), t.trace().entries(), Some(&busy), &last);
        assert!(!leftovers(&c) && c.text.contains("alice"), "{}: {}", l.tag(), c.text);
    }
}

#[test]
fn the_event_at_the_cursor_is_numbered_as_the_log_and_the_findings_number_it() {
    // alice's answer is dropped by fault rule 1: the finding names the
    // fault's event by its number; the cursor on that event names it alike.
    let alice = name("alice");
    let mut t = Team::new("default", 3);
    t.spawn(&alice, "coder", false, Millis(0)).unwrap();
    let id = t.request_shutdown(&AgentName::lead(), &alice, Millis(1)).unwrap();
    t.drain(&alice, Millis(2)).unwrap();
    t.set_faults(FaultPlan::new(vec![FaultRule::new(FaultAction::Drop)]));
    t.answer(RequestKind::SHUTDOWN, &id, &alice, true, "ok", Millis(3)).unwrap();
    let found = crate::protocol::check(t.trace());
    let fault = found[0].fault.expect("the drop caused it");
    let fault_entry = &t.trace().entries()[fault as usize];
    assert!(matches!(fault_entry.event, Event::FaultApplied { .. }));
    let number = event_number(fault_entry.seq);
    assert_eq!(number, format!("#{fault}"));
    for l in Locale::ALL {
        let said = crate::view::words::findings::breach(Catalog::get(l), &found[0].detail);
        assert!(said.contains(&number), "{}: {said}", l.tag());
    }
    // The cursor that shows events 0..=fault is on the fault's event.
    assert_eq!(event_at_cursor(fault as usize + 1), Some(number));
    assert_eq!(event_at_cursor(0), None, "before the first event there is none");
    assert_eq!(event_at_cursor(1), Some("#0".to_string()), "the first event is the trace's #0");
}
