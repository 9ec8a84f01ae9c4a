//! The geometry's rules: what each row, column and mark draws, the same
//! for the page and the SVG export.

use super::fixtures::faulty_run;
use super::row::prompt_shown;
use super::*;
use crate::protocol::{check, AgentName, Millis, Team};
use crate::view::diagram::layout::layout;
use crate::view::diagram::metrics::text_columns;

fn name(s: &str) -> AgentName {
    AgentName::parse(s).unwrap()
}

#[test]
fn a_call_mark_says_what_the_call_cost_and_a_head_what_its_agent_spent() {
    use crate::view::cost::Spend;
    let cat = Catalog::en();
    let price = crate::view::prices::PriceTable::default().price_of("claude-sonnet-4-5").cloned();
    let spend = Spend { calls: 1, input: 1000, output: 500, cache_read: 0, cache_write: 0, estimated: false };
    let bar = |spend: Option<Spend>| Activation { x: 100.0, y0: 50.0, y1: 80.0, open: spend.is_none(), spend };
    let titles =
        |it: &Item| it.shapes.iter().filter_map(|s| if let Shape::Tooltip(t) = s { Some(t.clone()) } else { None }).collect::<Vec<_>>();
    assert_eq!(titles(&activation_with_cost(cat, &bar(Some(spend)), price.as_ref())), ["Usage: 1000 in, 500 out ($0.0105)."]);
    assert_eq!(titles(&activation_with_cost(cat, &bar(Some(spend)), None)), ["Usage: 1000 in, 500 out."], "no price: tokens only");
    assert!(titles(&activation_with_cost(cat, &bar(None), price.as_ref())).is_empty(), "a call still thinking has no cost yet");
    let column =
        Column { name: AgentName::parse("alice").unwrap(), x: 300.0, born_y: 100.0, ended_y: None, status: None, restarts: vec![] };
    let words = |it: Option<Item>| {
        it.map(|it| {
            it.shapes.iter().filter_map(|s| if let Shape::Text { text, .. } = s { Some(text.clone()) } else { None }).collect::<Vec<_>>()
        })
    };
    assert_eq!(words(head_cost(cat, &column, &spend, price.as_ref())), Some(vec!["1.5k tok".to_string(), "$0.0105".to_string()]));
    assert_eq!(words(head_cost(cat, &column, &Spend { estimated: true, ..spend }, price.as_ref())), Some(vec!["≈1.5k tok".to_string()]));
    assert_eq!(words(head_cost(cat, &column, &Spend::default(), price.as_ref())), None, "nothing before its first reply");
}

#[test]
fn a_dropped_message_ends_in_a_cross_instead_of_a_head() {
    let trace = faulty_run();
    let g = draw(Catalog::en(), &layout(&trace, None), &check(&trace), trace.len());
    let dropped: Vec<&Item> = g.rows.iter().filter(|i| i.class.contains("fault-dropped")).collect();
    assert_eq!(dropped.len(), 1);
    let shapes = &dropped[0].shapes;
    assert!(shapes.iter().any(|s| matches!(s, Shape::Cross { class: "drop-x", .. })), "{shapes:?}");
    assert!(shapes.iter().all(|s| !matches!(s, Shape::Line { head: Some(_), .. })), "no arrow head on a dropped message");
}

#[test]
fn each_violation_is_marked_at_its_event_and_only_once_shown() {
    let trace = faulty_run();
    let violations = check(&trace);
    assert!(!violations.is_empty(), "the dropped approval leaves a violation");
    let d = layout(&trace, None);
    let g = draw(Catalog::en(), &d, &violations, trace.len());
    assert_eq!(g.marks.len(), violations.iter().map(|v| v.seq).collect::<std::collections::BTreeSet<_>>().len());
    for v in &violations {
        assert!(g.marks.iter().any(|m| m.seq == Some(v.seq) && m.top == d.y_of(v.seq)), "{v:?}");
    }
    let before = violations[0].seq as usize;
    assert!(draw(Catalog::en(), &layout(&trace, Some(before)), &violations, before).marks.is_empty(), "a mark appears with its event");
}

#[test]
fn every_shape_kind_is_produced_by_some_run() {
    let trace = faulty_run();
    let g = draw(Catalog::en(), &layout(&trace, None), &check(&trace), trace.len());
    let kinds: std::collections::BTreeSet<ShapeKind> = g.items().flat_map(|i| i.shapes.iter().map(Shape::kind)).collect();
    // Tooltips come from tool notes and violation marks; the faulty run
    // has a violation.
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ShapeKind::ALL);
}

#[test]
fn shape_kind_all_lists_every_kind_once() {
    // An exhaustive match: a new kind fails to compile here until it is
    // given its place in `ALL`.
    fn index(k: ShapeKind) -> usize {
        match k {
            ShapeKind::Line => 0,
            ShapeKind::Cross => 1,
            ShapeKind::Text => 2,
            ShapeKind::Rect => 3,
            ShapeKind::Tooltip => 4,
        }
    }
    for (i, k) in ShapeKind::ALL.iter().enumerate() {
        assert_eq!(index(*k), i);
    }
}

#[test]
fn only_items_on_screen_are_returned() {
    let mut t = Team::new("d", 1);
    t.spawn(&name("a"), "r", false, Millis(0)).unwrap();
    for i in 0..1000 {
        t.send(&AgentName::lead(), &name("a"), "message", "hi", Millis(i)).unwrap();
    }
    let g = draw(Catalog::en(), &layout(t.trace(), None), &[], t.trace().len());
    let top = crate::view::diagram::layout::HEADER_HEIGHT + 300.0 * ROW_HEIGHT;
    let shown = visible(&g.rows, top, top + 20.0 * ROW_HEIGHT);
    assert!(shown.len() >= 20 && shown.len() <= 23, "{}", shown.len());
    assert!(visible(&g.rows, -100.0, -50.0).is_empty());
}

#[test]
fn the_cut_words_of_what_was_said_have_a_box_over_them_that_opens_them_whole() {
    let trace = crate::view::diagram::geometry::fixtures::faulty_run();
    let cat = Catalog::en();
    let d = crate::view::diagram::layout::layout(&trace, None);
    let mut found = 0;
    for r in &d.rows {
        let it = row(cat, r);
        let words = it.shapes.iter().find_map(|s| match s {
            Shape::Text { x, y, text, class: Some("msg-said") } => Some((*x, *y, text.clone())),
            _ => None,
        });
        let tooltip = it.shapes.iter().find_map(|s| match s {
            Shape::Tooltip(t) => Some(t.clone()),
            _ => None,
        });
        match (said_target(&it), words, tooltip) {
            (Some(t), Some((x, y, text)), Some(whole)) => {
                found += 1;
                assert_eq!(t.whole, whole);
                assert!(t.x < x && x < t.x + t.width && t.y < y && y < t.y + t.height, "{t:?} over {text} at {x},{y}");
                let half = text_columns(&text) * SAID_CHAR_WIDTH / 2.0;
                assert!(t.x <= x - half && x + half <= t.x + t.width, "{t:?} covers {text}");
            }
            (None, _, None) | (None, None, _) => {}
            (target, words, tooltip) => panic!("{target:?} {words:?} {tooltip:?}"),
        }
    }
    assert!(found > 0, "the run says something under an arrow");
    assert_eq!(said_target(&lifeline(cat, &d.columns[0], d.height)), None);
}

#[test]
fn words_drawn_cut_open_whole_on_a_tap_and_words_drawn_whole_have_nothing_to_open() {
    use crate::protocol::Event;
    let mut t = Team::new("d", 1);
    t.spawn(&name("alice"), "coder", false, Millis(0)).unwrap();
    let long = "Please write the parser first, then the tests, then tell me how long it took";
    t.send(&AgentName::lead(), &name("alice"), "message", long, Millis(1)).unwrap();
    t.send(&AgentName::lead(), &name("alice"), "message", "hi", Millis(2)).unwrap();
    let mut trace = t.trace().clone();
    let plan = "Split the auth module into three reviewed steps";
    for (id, input) in [("t1", serde_json::json!({ "plan": plan })), ("t2", serde_json::json!({ "path": "a.py" }))] {
        let tool = if id == "t1" { "plan_approval" } else { "read_file" };
        trace.append(Millis(3), Event::ToolCalled { agent: name("alice"), tool_use_id: id.into(), tool: tool.into(), input }).unwrap();
    }
    let prompt = "Spawn alice as a coder and bob as a tester, then ask both to shut down once the parser and its tests pass";
    let error = "the provider answered 529 overloaded_error: the servers are busy; the request was retried three times and gave up";
    for (prompt, error) in [(prompt, error), ("Short prompt", "timeout")] {
        trace.append(Millis(4), Event::RunStarted { prompt: prompt.into() }).unwrap();
        trace.append(Millis(4), Event::ModelFailed { agent: name("alice"), error: error.into() }).unwrap();
    }
    let cat = Catalog::en();
    let d = layout(&trace, None);
    let targets: Vec<(ItemKind, String)> =
        d.rows.iter().map(|r| row(cat, r)).filter_map(|it| said_target(&it).map(|t| (it.kind, t.whole))).collect();
    assert_eq!(
        targets,
        [
            (ItemKind::Message, format!("message: {long}")),
            (ItemKind::Tool, format!("plan_approval: {plan}")),
            (ItemKind::Banner, format!("prompt: {prompt}")),
            (ItemKind::Failure, format!("error: {error}")),
        ],
        "what is drawn cut; not \"hi\", read_file(a.py), the short prompt nor the short error, drawn whole"
    );
    // The box lies over the words drawn cut.
    let note = d.rows.iter().map(|r| row(cat, r)).find(|it| it.kind == ItemKind::Tool).unwrap();
    let t = said_target(&note).unwrap();
    let Some(Shape::Text { x, y, text: drawn, .. }) = note.shapes.iter().find(|s| matches!(s, Shape::Text { .. })) else { panic!() };
    assert!(drawn.ends_with('…') && t.x < *x && *x < t.x + t.width && t.y < *y && *y < t.y + t.height, "{t:?} over {drawn}");
}

#[test]
fn what_was_said_is_cut_to_the_arrow_and_whole_on_hover() {
    let mut t = Team::new("d", 1);
    t.spawn(&name("bob"), "refactorer", true, Millis(0)).unwrap();
    let plan = "Rewrite the whole auth module in one go, then migrate every session and delete the old tables";
    t.submit_plan(&name("bob"), plan, Millis(1)).unwrap();
    let g = draw(Catalog::en(), &layout(t.trace(), None), &[], t.trace().len());
    let arrow = g.rows.iter().find(|i| i.kind == ItemKind::Message).expect("the plan arrow");
    let said = arrow.shapes.iter().find_map(|s| match s {
        Shape::Text { text, class: Some("msg-said"), .. } => Some(text.clone()),
        _ => None,
    });
    let said = said.expect("the plan under its arrow");
    assert!(said.starts_with("plan: “Rewrite the whole") && said.ends_with("…”"), "{said}");
    assert!(
        said.chars().count() as f64 * SAID_CHAR_WIDTH <= crate::view::diagram::layout::COLUMN_WIDTH,
        "fits between the lifelines: {said}"
    );
    assert!(arrow.shapes.contains(&Shape::Tooltip(format!("plan: {plan}"))), "whole on hover");
    assert!(matches!(&arrow.shapes[1], Shape::Text { class: Some("msg-label"), .. }), "the arrow's text begins with its label");
    assert!(!arrow.shapes.iter().any(|s| matches!(s, Shape::Text { text, .. } if text.contains("plan_approval()"))));
}

#[test]
fn a_run_banner_says_a_scenario_prompt_in_the_pages_language_within_the_room_of_the_english() {
    use crate::runtime::scenarios;
    use crate::view::diagram::layout::PROMPT_CHARS;
    use crate::view::i18n::Locale;
    let long = scenarios::OUT_OF_ORDER.prompts[0];
    assert!(long.chars().count() > PROMPT_CHARS, "the test needs a prompt the banner cuts");
    for sc in scenarios::PAGE.into_iter().chain([scenarios::WITHOUT_PROTOCOLS, scenarios::TWINS, scenarios::RESPAWN]) {
        for p in sc.prompts {
            let held = crate::protocol::text::clip(p, PROMPT_CHARS);
            assert_eq!(prompt_shown(Catalog::en(), &held), held, "English is drawn as laid out");
            for l in [Locale::Zh, Locale::Ja, Locale::It] {
                let cat = Catalog::get(l);
                let shown = prompt_shown(cat, &held);
                assert!(text_columns(&shown) <= text_columns(&held), "{l:?}: {shown:?} is wider than the room of {held:?}");
                let whole = crate::view::words::scenarios::prompt_words(cat, p);
                let kept = shown.trim_end_matches('…');
                assert!(whole.starts_with(kept) && !kept.is_empty(), "{l:?}: {shown:?} is not the start of {whole:?}");
            }
        }
    }
    assert_eq!(prompt_shown(Catalog::get(Locale::Ja), "Spawn bob."), "Spawn bob.", "a prompt typed is drawn as it is");
}
