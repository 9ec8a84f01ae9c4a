use super::*;
use crate::protocol::file::builtin;
use crate::view::i18n::{Catalog, Locale};

fn en() -> &'static Catalog {
    Catalog::en()
}

fn loaded(text: &str) -> Preview {
    match check(en(), text) {
        Checked::Loaded(p) => *p,
        other => panic!("expected the file to load: {other:?}"),
    }
}

fn errors(text: &str) -> Vec<ErrorLine> {
    match check(en(), text) {
        Checked::Errors(e) => e,
        other => panic!("expected errors: {other:?}"),
    }
}

#[test]
fn the_template_loads_with_a_protocol_a_team_and_a_property() {
    let f = file::load(TEMPLATE).expect("the template loads");
    assert_eq!(f.protocols.iter().filter(|p| !p.builtin).count(), 1);
    assert!(f.team.is_some());
    assert_eq!(f.properties.len(), 1);
    // Every key is commented: scanning up from a key over keys and table
    // headers, a comment comes before a blank line.
    let lines: Vec<&str> = TEMPLATE.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let above = lines[..i].iter().rev().find(|a| a.trim().is_empty() || a.starts_with('#'));
        assert!(above.is_some_and(|a| a.starts_with('#')), "line {} has no comment above it: {l}", i + 1);
    }
}

#[test]
fn previews_of_the_lesson_file_are_the_lessons_tools_trackers_and_fsm() {
    let p = loaded(builtin::LESSON);
    let lead: Vec<&str> = p.tools[0].schemas.iter().map(|s| s.name.as_str()).collect();
    let mate: Vec<&str> = p.tools[1].schemas.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(lead, ["shutdown_request", "shutdown_response", "plan_approval"]);
    assert_eq!(mate, ["shutdown_response", "plan_approval"]);
    let f = file::load(builtin::LESSON).unwrap();
    assert_eq!(p.tools[0].schemas, protocol_schemas(&f, Role::Lead), "the runtime's own schemas");
    let back: Vec<ToolSchema> = serde_json::from_str(&p.tools[0].json).unwrap();
    assert_eq!(back, p.tools[0].schemas, "the JSON shown is the schemas");
    assert_eq!(p.protocols[0].tracker, "shutdown_requests = {req_id: {\"target\": …, \"status\": \"pending\"}}");
    assert_eq!(p.protocols[1].tracker, "plan_requests = {req_id: {\"from\": …, \"plan\": …, \"status\": \"pending\"}}");
    assert_eq!(p.protocols[0].fsm[0], "pending -> approved | rejected");
    assert!(p.protocols[0].fsm.contains(&"approved: exit addressee".to_string()), "{:?}", p.protocols[0].fsm);
    assert!(p.protocols[1].fsm.contains(&"approved: open_gate plan requester".to_string()));
    assert!(p.config.is_none(), "the lesson file has no team");
}

#[test]
fn a_file_protocol_previews_its_deadline_retries_and_team_roster() {
    let p = loaded(builtin::EXAMPLES[0].1);
    let shutdown = &p.protocols[0];
    assert!(shutdown.fsm.contains(&"deadline_ms = 30000 -> rejected (expired)".to_string()), "{:?}", shutdown.fsm);
    assert!(shutdown.fsm.contains(&"retries = 1".to_string()));
    let config: serde_json::Value = serde_json::from_str(p.config.as_deref().unwrap()).unwrap();
    assert_eq!(config["team_name"], "deadline-retry");
    assert_eq!(config["members"][0], serde_json::json!({"name": "alice", "role": "coder", "status": "working"}));
    let text = p.config.as_deref().unwrap();
    assert!(text.find("team_name") < text.find("members"), "the lesson's order: {text}");
}

#[test]
fn the_error_list_is_sorted_by_line_with_column_path_and_sentence() {
    let text = TEMPLATE.replace("name = \"review\"", "name = \"Review\"").replace("from = \"lead\"", "from = \"boss\"");
    let list = errors(&text);
    assert!(list.len() >= 2, "{list:?}");
    assert!(list.windows(2).all(|w| (w[0].line, w[0].column) <= (w[1].line, w[1].column)), "sorted");
    for e in &list {
        assert!(e.line >= 1 && e.column >= 1 && !e.sentence.is_empty(), "{e:?}");
    }
    let bad = list.iter().find(|e| e.path == "protocol[0].name").expect("the bad name is listed by its path");
    let line = text.lines().position(|l| l.contains("\"Review\"")).unwrap() + 1;
    assert_eq!(bad.line, line);
    let (a, b) = bad.caret;
    let selected: String = text.encode_utf16().collect::<Vec<u16>>()[a as usize..b as usize].iter().map(|&u| u as u8 as char).collect();
    assert!(selected.contains("Review"), "the caret selects the mistake: {selected:?}");
}

#[test]
fn the_common_errors_are_worded_in_the_readers_language() {
    let zh = Catalog::get(Locale::Zh);
    let Checked::Errors(list) = check(zh, "protocol = 3\n") else { panic!("refused") };
    assert!(list.iter().any(|e| e.sentence.contains("format = 1") && e.sentence.contains("第一行")), "{list:?}");
    assert!(list.iter().all(|e| !e.english), "these kinds have their own words: {list:?}");
    let Checked::Errors(list) = check(zh, &TEMPLATE.replace("from = \"lead\"", "from = \"boss\"")) else { panic!("refused") };
    assert!(
        list.iter().any(|e| e.english && e.sentence.contains("is not one of")),
        "a kind without its own words is marked English: {list:?}"
    );
}

#[test]
fn a_caret_range_counts_utf16_units_to_the_end_of_the_line() {
    let text = "a = 1\n名 = \"😀x\"\nz";
    assert_eq!(caret_range(text, 1, 1), (0, 5));
    assert_eq!(caret_range(text, 2, 5), (10, 15), "😀 is two units");
    assert_eq!(caret_range(text, 9, 1), (17, 17), "past the end: the end");
}

#[test]
fn a_file_over_the_cap_is_refused_with_a_sentence_not_loaded() {
    let big = format!("format = 1\n# {}\n", "x".repeat(1024 * 1024));
    match check(en(), &big) {
        Checked::Refused(s) => assert!(s.contains("262144"), "{s}"),
        other => panic!("a 1 MB file is refused: {other:?}"),
    }
}

/// 200 protocols, each with its own tools: the loader refuses or loads it
/// quickly (protocol indices are u8), and the list says why.
#[test]
fn two_hundred_protocols_are_checked_and_answered() {
    let mut text = String::from("format = 1\n");
    for i in 0..200 {
        text.push_str(&format!(
            "[[protocol]]\nname = \"p{i}\"\nrequest = \"p{i}_request\"\nresponse = \"p{i}_response\"\nfrom = \"lead\"\nto = \"teammate\"\n\
             tools.request = {{ name = \"p{i}_ask\", description = \"Ask.\" }}\ntools.respond = {{ name = \"p{i}_answer\", description = \"Answer.\" }}\n"
        ));
    }
    let started = std::time::Instant::now();
    let result = check(en(), &text);
    assert!(started.elapsed().as_secs() < 5, "checked in {:?}", started.elapsed());
    match result {
        Checked::Loaded(p) => assert_eq!(p.protocols.len(), 200),
        Checked::Errors(e) => assert!(!e.is_empty() && e.iter().all(|e| !e.sentence.is_empty())),
        Checked::Refused(s) => panic!("{s}"),
    }
}

#[test]
fn markup_in_every_string_stays_text_in_the_previews() {
    let text = TEMPLATE
        .replace("Ask a teammate to review a change.", "<script>alert(1)</script><img src=x onerror=alert(2)>")
        .replace("A lead asks a teammate to review a change", "<b>bold</b>")
        .replace("role = \"reviewer\"", "role = \"<i>r</i>\"");
    let p = loaded(&text);
    assert!(p.tools[0].json.contains("<script>alert(1)</script>"), "the description is carried as text");
    assert!(p.config.unwrap().contains("<i>r</i>"));
}

#[test]
fn names_and_words_in_another_language_are_refused_by_name_or_carried_as_text() {
    let text = TEMPLATE.replace("name = \"review\"", "name = \"审查\"");
    let list = errors(&text);
    assert!(list.iter().any(|e| e.path == "protocol[0].name" && e.sentence.contains("审查")), "{list:?}");
    let words_only = TEMPLATE.replace("Review the change to src/auth.py.", "src/auth.py の変更をレビューしてください。");
    let p = loaded(&words_only);
    assert!(p.config.is_some());
}

/// Typing must not wait on the checker: a 500-line file checks well
/// inside one frame budget on this machine's debug build (the browser
/// runs the optimised build, and the editor debounces anyway).
#[test]
fn a_five_hundred_line_file_checks_in_a_bounded_time() {
    let mut text = TEMPLATE.to_string();
    while text.lines().count() < 500 {
        text.push_str("# a comment line to make the file long\n");
    }
    let started = std::time::Instant::now();
    for _ in 0..10 {
        assert!(check(en(), &text).loads());
    }
    let each = started.elapsed() / 10;
    assert!(each.as_millis() < 200, "one check took {each:?}");
}

#[test]
fn run_is_blocked_with_a_reason_until_the_file_loads_with_a_team_and_a_prompt() {
    let cat = en();
    assert!(run_blocked(cat, None).is_some(), "not checked yet");
    let broken = TEMPLATE.replacen("format = 1", "format = 1\nnot valid = [", 1);
    let why = run_blocked(cat, Some(&check(cat, &broken))).expect("errors block the run");
    assert!(why.contains("error"), "{why}");
    assert_eq!(run_blocked(cat, Some(&check(cat, TEMPLATE))), None, "the template runs");
    let lesson = run_blocked(cat, Some(&check(cat, builtin::LESSON))).expect("the lesson file has no team");
    assert!(lesson.contains("[team]"), "{lesson}");
    for (name, text) in builtin::EXAMPLES.iter().chain(builtin::TEAMS.iter()) {
        let checked = check(cat, text);
        let has_team = file::load(text).is_ok_and(|f| f.team.is_some_and(|t| !t.prompts.is_empty()));
        assert_eq!(run_blocked(cat, Some(&checked)).is_none(), has_team, "{name}");
    }
}

/// The template with a response of five optional enum fields of two values
/// each: 2 × 3^5 = 486 answers, over the explorer's cap.
fn capped_template() -> String {
    let fields: Vec<String> = (0..5).map(|i| format!(r#"{{ name = "f{i}", type = "enum", values = ["a", "b"] }}"#)).collect();
    let line = TEMPLATE.lines().find(|l| l.starts_with("response_fields")).expect("the template has response fields");
    TEMPLATE.replace(line, &format!("response_fields = [{}]", fields.join(", ")))
}

#[test]
fn a_file_whose_answers_exceed_the_explorers_cap_says_so_in_every_language() {
    let preview = loaded(&capped_template());
    assert_eq!(preview.capped, vec![("review".to_string(), 486)]);
    for locale in [Locale::En, Locale::Zh, Locale::Ja, Locale::It] {
        let notes = crate::view::words::explorer::capped_answers(Catalog::get(locale), &preview.capped);
        assert_eq!(notes.len(), 1, "{locale:?}");
        let note = &notes[0];
        assert!(note.contains("'review'") && note.contains("486") && note.contains("64"), "{locale:?}: {note}");
        if locale != Locale::En {
            assert_ne!(note, &crate::view::words::explorer::capped_answers(en(), &preview.capped)[0], "{locale:?} is translated");
        }
    }
}

#[test]
fn a_file_under_the_explorers_cap_says_nothing_of_it() {
    let preview = loaded(TEMPLATE);
    assert!(preview.capped.is_empty());
    assert!(crate::view::words::explorer::capped_answers(en(), &preview.capped).is_empty());
    let f = file::load(TEMPLATE).expect("the template loads");
    assert!(crate::view::words::explorer::capped_answers_in(en(), &f).is_empty());
}
