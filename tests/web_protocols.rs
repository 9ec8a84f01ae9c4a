//! Browser tests of the Protocols view (issue 27 items 1, 2, 3 and 8)
//! (`wasm-pack test --headless --chrome -- --test web_protocols`): the view
//! opens from the header and with F; New file starts from the template;
//! an error typed is listed with its line, a click puts the caret on it,
//! fixing it clears the list; the file survives a reload; deleting it can
//! be undone; markup in a file never becomes DOM; a damaged store says so
//! and is set aside. And items 4 and 6: Run is disabled with its reason
//! while the file has errors; a file's team runs onto the diagram (its
//! arrows, its FSM badges); its share link carries the file, and opening
//! it shows the same run and adds the file to the list without writing
//! over one of the same name.
//!
//! Each test mounts its own App through a `web_page::Page` (which clears
//! `localStorage` first), unmounted when it ends. Every check of something
//! asynchronous waits with a bounded poll (the check runs a moment after
//! typing stops).
#![cfg(target_arch = "wasm32")]

mod web_page;

use leptos::prelude::*;
use team_protocols::view::i18n::Catalog;
use team_protocols::view::protocol_file::{self as pf, store::DAMAGED_KEY, store::KEY};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_page::{button, open_tools, set_hash, until, Page};

wasm_bindgen_test_configure!(run_in_browser);

fn el(host: &web_sys::HtmlElement, selector: &str) -> web_sys::HtmlElement {
    host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("{selector}")).unchecked_into()
}

fn exists(host: &web_sys::HtmlElement, selector: &str) -> bool {
    host.query_selector(selector).unwrap().is_some()
}

fn texts(host: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length()).map(|i| list.item(i).unwrap().text_content().unwrap_or_default().trim().to_string()).collect()
}

fn area(host: &web_sys::HtmlElement) -> web_sys::HtmlTextAreaElement {
    el(host, "#pf-text").unchecked_into()
}

/// Types `text` into the editor as a browser does: the value, then `input`.
fn type_text(host: &web_sys::HtmlElement, text: &str) {
    let a = area(host);
    a.set_value(text);
    a.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
}

/// The view is open and its list drawn (the content is built once open).
fn dialog_open(host: &web_sys::HtmlElement) -> bool {
    el(host, "dialog#protocols").unchecked_into::<web_sys::HtmlDialogElement>().open() && exists(host, "#pf-new")
}

fn storage() -> web_sys::Storage {
    window().local_storage().unwrap().unwrap()
}

/// Opens the view from the header's button and waits for its list.
async fn open_view(host: &web_sys::HtmlElement) {
    el(host, "#protocols-toggle").click();
    until("the view to open", || dialog_open(host)).await;
}

/// Opens the view and starts a new file from the template, waiting for it
/// in the editor (editable).
async fn new_file(host: &web_sys::HtmlElement) {
    open_view(host).await;
    el(host, "#pf-new").click();
    until("the template in the editor", || exists(host, "#pf-text") && !area(host).read_only() && area(host).value() == pf::TEMPLATE).await;
}

fn run_button(host: &web_sys::HtmlElement) -> web_sys::HtmlButtonElement {
    el(host, "#pf-run").unchecked_into()
}

/// The message types of the diagram's arrows, in order.
fn arrow_types(host: &web_sys::HtmlElement) -> Vec<String> {
    texts(host, "g.msg").into_iter().map(|t| t.split(" [").next().unwrap_or_default().to_string()).collect()
}

fn run_finished(host: &web_sys::HtmlElement) -> bool {
    exists(host, ".banner.run-end")
}

fn share_fragment(host: &web_sys::HtmlElement) -> Option<String> {
    let link = host.query_selector("[aria-label='Share link']").unwrap()?;
    link.unchecked_into::<web_sys::HtmlInputElement>().value().split_once('#').map(|(_, f)| f.to_string())
}

#[wasm_bindgen_test]
async fn a_new_file_is_checked_as_typed_its_error_found_fixed_kept_and_deleted() {
    let page = Page::start();
    let host = page.mount();
    new_file(&host).await;
    until("the template to load", || texts(&host, "#pf-status") == ["The file loads."]).await;
    assert!(texts(&host, ".pf-previews h4").contains(&"review".to_string()), "{:?}", texts(&host, ".pf-previews h4"));

    // An error typed: listed with its line once typing stops.
    let broken = pf::TEMPLATE.replace("name = \"review\"", "name = \"Review\"");
    let line = broken.lines().position(|l| l.contains("\"Review\"")).unwrap() + 1;
    type_text(&host, &broken);
    until("the error to be listed", || texts(&host, ".pf-error").iter().any(|t| t.contains(&format!("line {line},")))).await;
    let listed = texts(&host, ".pf-error");
    assert!(listed.iter().any(|t| t.contains("protocol[0].name") && t.contains("'Review' is not a valid name")), "{listed:?}");

    // A click puts the caret on it.
    let errors = host.query_selector_all(".pf-error").unwrap();
    let at =
        (0..errors.length()).find(|i| errors.item(*i).unwrap().text_content().unwrap_or_default().contains("protocol[0].name")).unwrap();
    errors.item(at).unwrap().unchecked_into::<web_sys::HtmlElement>().click();
    let Some(line_of) = pf::error_lines(Catalog::en(), &broken, &team_protocols::protocol::file::load(&broken).unwrap_err().0)
        .into_iter()
        .find(|e| e.path == "protocol[0].name")
    else {
        panic!("the loader refuses the name")
    };
    let a = area(&host);
    assert_eq!(document().active_element().map(|e| e.id()), Some("pf-text".to_string()), "the editor has the focus");
    assert_eq!((a.selection_start().unwrap(), a.selection_end().unwrap()), (Some(line_of.caret.0), Some(line_of.caret.1)));

    // Fixed: the list empties.
    type_text(&host, pf::TEMPLATE);
    until("the error to go", || texts(&host, ".pf-error").is_empty() && texts(&host, "#pf-status") == ["The file loads."]).await;

    // Renamed and kept: a reload shows it, with its text.
    let name = el(&host, "#pf-name").unchecked_into::<web_sys::HtmlInputElement>();
    name.set_value("my review");
    name.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    until("the file to be kept", || storage().get_item(KEY).unwrap().is_some_and(|s| s.contains("my review"))).await;
    page.unmount(&host);
    let host = page.mount_keeping_storage();
    open_view(&host).await;
    until("the file listed", || texts(&host, ".pf-mine .pf-item") == ["my review"]).await;
    el(&host, ".pf-mine .pf-item").click();
    until("its text in the editor", || exists(&host, "#pf-text") && area(&host).value() == pf::TEMPLATE).await;

    // Deleted, undone, deleted again.
    el(&host, "#pf-delete").click();
    until("the file gone", || texts(&host, ".pf-mine .pf-item").is_empty()).await;
    assert!(!storage().get_item(KEY).unwrap().unwrap().contains("my review"));
    el(&host, ".pf-deleted button").click();
    until("the file back", || texts(&host, ".pf-mine .pf-item") == ["my review"]).await;
    assert!(storage().get_item(KEY).unwrap().unwrap().contains("my review"));
    drop(page);
}

#[wasm_bindgen_test]
async fn the_view_opens_with_f_and_a_built_in_file_is_read_only_with_edit_a_copy() {
    let page = Page::start();
    let host = page.mount();
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("f");
    init.set_bubbles(true);
    window().dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()).unwrap();
    until("the view to open", || dialog_open(&host)).await;
    let lesson = host.query_selector_all(".pf-list .pf-item").unwrap();
    let lesson = (0..lesson.length()).map(|i| lesson.item(i).unwrap()).find(|n| n.text_content().as_deref() == Some("lesson")).unwrap();
    lesson.unchecked_into::<web_sys::HtmlElement>().click();
    until("the lesson in the editor", || exists(&host, "#pf-text") && area(&host).read_only()).await;
    until("its previews", || texts(&host, ".pf-previews h4") == ["shutdown", "plan"]).await;
    el(&host, "#pf-edit-copy").click();
    until("a copy of the user's, editable", || texts(&host, ".pf-mine .pf-item") == ["lesson (copy)"] && !area(&host).read_only()).await;
    drop(page);
}

#[wasm_bindgen_test]
async fn markup_and_scripts_in_a_file_stay_text() {
    let page = Page::start();
    let host = page.mount();
    new_file(&host).await;
    let marked = pf::TEMPLATE
        .replace("Ask a teammate to review a change.", "<img id=x src=x onerror='window.__pwned=1'><script>window.__pwned=2</script>")
        .replace("role = \"reviewer\"", "role = \"<b id=y>r</b>\"");
    type_text(&host, &marked);
    until("the previews of the marked file", || texts(&host, ".pf-code").iter().any(|t| t.contains("<b id=y>r</b>"))).await;
    // A refused file's sentences carry its text too.
    type_text(&host, &marked.replace("name = \"review\"", "name = \"<i id=z>\""));
    until("the error listed", || texts(&host, ".pf-error").iter().any(|t| t.contains("<i id=z>"))).await;
    let dialog = el(&host, "dialog#protocols");
    for id in ["#x", "#y", "#z", "script"] {
        assert!(dialog.query_selector(id).unwrap().is_none(), "{id} became DOM");
    }
    assert!(js_sys::Reflect::get(&window(), &"__pwned".into()).unwrap().is_undefined());
    drop(page);
}

#[wasm_bindgen_test]
async fn a_damaged_store_says_so_and_is_set_aside() {
    let page = Page::start();
    storage().set_item(KEY, "{not a list").unwrap();
    let host = page.mount_keeping_storage();
    open_view(&host).await;
    until("the notice", || texts(&host, ".pf-notice").iter().any(|t| t.contains("could not be read") && t.contains(DAMAGED_KEY))).await;
    assert_eq!(storage().get_item(DAMAGED_KEY).unwrap().as_deref(), Some("{not a list"));
    el(&host, "#pf-new").click();
    until("a new list kept", || storage().get_item(KEY).unwrap().is_some_and(|s| s.starts_with("{\"version\""))).await;
    assert_eq!(storage().get_item(DAMAGED_KEY).unwrap().as_deref(), Some("{not a list"), "the damaged list is still there");
    drop(page);
}

#[wasm_bindgen_test]
async fn what_was_typed_is_kept_when_another_file_is_shown_at_once() {
    let page = Page::start();
    let host = page.mount();
    new_file(&host).await;
    let edited = format!("{}# one more line\n", pf::TEMPLATE);
    type_text(&host, &edited);
    // Before the pause that checks it: another file, then back.
    el(&host, ".pf-list ul:not(.pf-mine) .pf-item").click();
    until("the built-in file", || area(&host).read_only()).await;
    assert!(storage().get_item(KEY).unwrap().unwrap().contains("# one more line"), "kept at once");
    el(&host, ".pf-mine .pf-item").click();
    until("the edited text back", || !area(&host).read_only() && area(&host).value() == edited).await;
    drop(page);
}

#[wasm_bindgen_test]
async fn what_was_typed_just_before_the_page_goes_away_is_kept() {
    let page = Page::start();
    let host = page.mount();
    new_file(&host).await;
    until("the template kept", || storage().get_item(KEY).unwrap().is_some_and(|s| s.contains("every_review_settles"))).await;
    // Typed, and the page hidden at once (a reload, a closed tab) inside
    // the pause before the check: nothing waits, the text is kept.
    let typed = pf::TEMPLATE.replace("every_review_settles", "typed_right_before_leaving");
    type_text(&host, &typed);
    assert!(!storage().get_item(KEY).unwrap().unwrap().contains("typed_right_before_leaving"), "not yet kept");
    window().dispatch_event(&web_sys::Event::new("pagehide").unwrap()).unwrap();
    assert!(storage().get_item(KEY).unwrap().unwrap().contains("typed_right_before_leaving"), "kept as the page went");
    drop(page);
}

#[wasm_bindgen_test]
async fn a_file_with_errors_cannot_run_and_says_why() {
    let page = Page::start();
    let host = page.mount();
    new_file(&host).await;
    until("Run enabled for the template", || !run_button(&host).disabled()).await;
    type_text(&host, &pf::TEMPLATE.replace("name = \"review\"", "name = \"Review\""));
    until("Run disabled with the reason", || {
        run_button(&host).disabled()
            && texts(&host, "#pf-run-why").iter().any(|t| t.starts_with("Fix the") && t.ends_with("below to run the team."))
    })
    .await;
    assert_eq!(run_button(&host).get_attribute("aria-describedby").as_deref(), Some("pf-run-why"));
    // The lesson's file has protocols but no team.
    let items = host.query_selector_all(".pf-list .pf-item").unwrap();
    let lesson = (0..items.length()).map(|i| items.item(i).unwrap()).find(|n| n.text_content().as_deref() == Some("lesson")).unwrap();
    lesson.unchecked_into::<web_sys::HtmlElement>().click();
    until("no team to run", || run_button(&host).disabled() && texts(&host, "#pf-run-why").iter().any(|t| t.contains("[team]"))).await;
    drop(page);
}

#[wasm_bindgen_test]
async fn a_files_team_runs_onto_the_diagram_and_its_link_brings_the_file_and_the_run() {
    let page = Page::start();
    let host = page.mount();
    open_tools(&host).await;
    new_file(&host).await;
    until("Run enabled", || !run_button(&host).disabled()).await;
    run_button(&host).click();
    until("the view closed", || !el(&host, "dialog#protocols").unchecked_into::<web_sys::HtmlDialogElement>().open()).await;
    until("the file's run to finish", || run_finished(&host)).await;
    let arrows = arrow_types(&host);
    assert!(arrows.contains(&"review_request".to_string()) && arrows.contains(&"review_response".to_string()), "{arrows:?}");
    assert_eq!(texts(&host, "g.badge.fsm text"), ["approved"]);
    // The machinery writes the file's own tracker as the lesson writes its.
    let trackers = texts(&host, ".machinery .tracker");
    assert!(trackers.iter().any(|t| t.starts_with("review_requests = {") && t.contains(r#""status": "approved""#)), "{trackers:?}");
    let intro = texts(&host, ".machinery-intro");
    assert!(intro.iter().any(|t| t.starts_with("One state machine for every protocol of the file")), "{intro:?}");
    // The page's views replay it under the file: no false finding.
    let page_text = host.text_content().unwrap_or_default();
    assert!(!page_text.contains("cannot be replayed") && !page_text.contains("answer to unknown request"), "the views know the file");
    let fragment = share_fragment(&host).expect("a share link");
    assert!(fragment.starts_with("trace="), "a file's run is shared by its trace, which carries the file: {fragment}");

    // Opened in a fresh page whose user has a different file of the same name.
    page.unmount(&host);
    let mine = r#"{"version":1,"files":[{"id":1,"name":"review-team","text":"format = 1\n"}]}"#;
    storage().set_item(KEY, mine).unwrap();
    set_hash(&fragment).await;
    let opened = page.mount_keeping_storage();
    leptos::task::tick().await;
    set_hash("").await;
    until("the shared run or a banner", || !arrow_types(&opened).is_empty() || exists(&opened, ".banner-error")).await;
    until("the whole shared run", || arrow_types(&opened).len() >= arrows.len() || exists(&opened, ".banner-error")).await;
    assert_eq!(arrow_types(&opened), arrows, "{:?}", texts(&opened, ".banner-error"));
    assert_eq!(texts(&opened, "g.badge.fsm text"), ["approved"]);
    open_view(&opened).await;
    until("both files listed", || texts(&opened, ".pf-mine .pf-item") == ["review-team", "review-team (2)"]).await;
    assert!(texts(&opened, ".pf-notice").iter().any(|t| t.contains("added to your files")), "{:?}", texts(&opened, ".pf-notice"));
    until("the shared file on show", || exists(&opened, "#pf-text") && area(&opened).value() == pf::TEMPLATE).await;
    let kept = storage().get_item(KEY).unwrap().unwrap();
    assert!(kept.contains(r#""text":"format = 1\n""#), "the user's own file is untouched: {kept}");
    drop(page);
}

/// The template, its review answered by nobody but the hand, the answer
/// given an enum (required, described) and a bool field beside the comment.
fn hand_answered_template() -> String {
    pf::TEMPLATE
        .replace(
            r#"response_fields = [{ name = "comment", type = "string", content = true }]"#,
            r#"response_fields = [{ name = "comment", type = "string", content = true },
                   { name = "severity", type = "enum", values = ["minor", "major"], required = true, description = "How bad the change is." },
                   { name = "urgent", type = "bool" }]"#,
        )
        .replace("deadline_ms = 30000\n", "")
        .replace("retries = 1\n", "")
        .replace(r#"scripted = { answer = "approve" }"#, r#"scripted = { answer = "never" }"#)
}

fn input(host: &web_sys::HtmlElement, selector: &str) -> web_sys::HtmlInputElement {
    el(host, selector).unchecked_into()
}

#[wasm_bindgen_test]
async fn a_files_request_is_answered_by_hand_with_its_own_typed_fields() {
    let page = Page::start();
    let host = page.mount();
    new_file(&host).await;
    type_text(&host, &hand_answered_template());
    until("Run enabled for the file", || !run_button(&host).disabled() && texts(&host, "#pf-status") == ["The file loads."]).await;
    run_button(&host).click();
    until("the file's run to finish, alice's review pending", || run_finished(&host) && exists(&host, ".answer select")).await;
    assert_eq!(texts(&host, "g.badge.fsm text"), ["pending"]);

    // One control per field, labelled with its name; the enum's values in a
    // select, the bool a checkbox, its description beside the enum.
    let labels = texts(&host, ".answer-field label");
    assert_eq!(labels, ["comment (optional)", "severity", "urgent"]);
    let options = texts(&host, "[data-field=severity] option");
    assert_eq!(options, ["Choose…", "minor", "major"]);
    assert_eq!(input(&host, "[data-field=urgent] input").type_(), "checkbox");
    assert_eq!(texts(&host, "[data-field=severity] .answer-help"), ["How bad the change is."]);

    // Sent without the required enum: refused before anything is sent,
    // and what was typed stays.
    let comment = input(&host, "[data-field=comment] input");
    comment.set_value("rename the helper");
    comment.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    input(&host, "[data-field=urgent] input").click();
    let events = texts(&host, ".event-log li").len();
    button(&host, "Approve as alice").click();
    until("the problem named", || texts(&host, ".answer-problems li") == ["Fill in severity: this answer needs it."]).await;
    assert_eq!(el(&host, "[data-field=severity] select").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(texts(&host, "g.badge.fsm text"), ["pending"], "nothing was sent");
    assert_eq!(texts(&host, ".event-log li").len(), events, "nothing was recorded");
    assert_eq!(input(&host, "[data-field=comment] input").value(), "rename the helper");
    assert!(input(&host, "[data-field=urgent] input").checked());

    // Chosen: the problem goes as it is fixed, and the answer goes.
    let severity: web_sys::HtmlSelectElement = el(&host, "[data-field=severity] select").unchecked_into();
    severity.set_value("major");
    severity.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    until("the problem gone", || !exists(&host, ".answer-problems")).await;
    button(&host, "Approve as alice").click();
    until("the review approved", || texts(&host, "g.badge.fsm text") == ["approved"]).await;

    // The request's detail lists the answer's fields; its caption quotes them.
    until("the request's head", || exists(&host, ".request-head")).await;
    el(&host, ".request-head").click();
    until("the answer's fields in the detail", || {
        texts(&host, ".said-fields[data-type=review_response] li") == ["comment: rename the helper", "severity: major", "urgent: true"]
    })
    .await;
    let captions = texts(&host, ".event-log .log-text");
    assert!(
        captions.iter().any(|c| c.contains("answers review request") && c.contains("severity: “major”") && c.contains("urgent: “true”")),
        "{captions:?}"
    );
    drop(page);
}

/// The buttons under `host` whose accessible name (`aria-label`, else
/// text) starts with `start`.
fn buttons_named(host: &web_sys::HtmlElement, start: &str) -> Vec<web_sys::HtmlElement> {
    let list = host.query_selector_all("button").unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().unchecked_into::<web_sys::HtmlElement>())
        .filter(|b| b.get_attribute("aria-label").or_else(|| b.text_content()).unwrap_or_default().trim().starts_with(start))
        .collect()
}

#[wasm_bindgen_test]
async fn a_files_run_forks_on_screen_and_its_branch_runs_under_the_file() {
    let page = Page::start();
    let host = page.mount();
    open_tools(&host).await;
    new_file(&host).await;
    until("Run enabled", || !run_button(&host).disabled()).await;
    run_button(&host).click();
    until("the file's run to finish", || run_finished(&host)).await;
    assert_eq!(texts(&host, "g.badge.fsm text"), ["approved"]);
    button(&host, "Fork the run on screen").click();
    until("the run as the explorer's path", || !buttons_named(&host, "Fork at choice").is_empty()).await;
    assert!(texts(&host, ".banner-error").is_empty(), "{:?}", texts(&host, ".banner-error"));
    // alice's reply to the review: reject it instead.
    let mut instead = None;
    for step in buttons_named(&host, "Fork at choice") {
        step.click();
        leptos::task::tick().await;
        if let Some(b) = buttons_named(&host, "Instead: ").into_iter().find(|b| b.text_content().unwrap_or_default().contains("reject")) {
            instead = Some(b);
            break;
        }
        step.click();
        leptos::task::tick().await;
    }
    instead.expect("a choice of alice's to reject the review").click();
    until("the fork shown", || exists(&host, ".fork-view")).await;
    button(&host, "Open the branch on the diagram").click();
    until("the branch's card", || texts(&host, "section h3, section h2").iter().any(|t| t.starts_with("The branch of the fork"))).await;
    // Its end (the cursor opens at the first difference): the review rejected.
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("End");
    init.set_bubbles(true);
    window().dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()).unwrap();
    until("the branch's end on the diagram", || texts(&host, "g.badge.fsm text") == ["rejected"]).await;
    let arrows = arrow_types(&host);
    assert!(arrows.contains(&"review_request".to_string()) && arrows.contains(&"review_response".to_string()), "{arrows:?}");
    let page_text = host.text_content().unwrap_or_default();
    assert!(!page_text.contains("cannot be replayed") && !page_text.contains("answer to unknown request"), "the views know the file");
    drop(page);
}

/// The template with a response of five optional enum fields of two values
/// each: 2 × 3^5 = 486 answers, more than the explorer offers per answer.
fn capped_template() -> String {
    let fields: Vec<String> = (0..5).map(|i| format!(r#"{{ name = "f{i}", type = "enum", values = ["a", "b"] }}"#)).collect();
    let line = pf::TEMPLATE.lines().find(|l| l.starts_with("response_fields")).unwrap();
    pf::TEMPLATE.replace(line, &format!("response_fields = [{}]", fields.join(", ")))
}

#[wasm_bindgen_test]
async fn a_file_whose_answers_exceed_the_explorers_cap_says_so_in_its_check_and_in_the_explore_panel() {
    let page = Page::start();
    let host = page.mount();
    new_file(&host).await;
    until("the template to load", || texts(&host, "#pf-status") == ["The file loads."]).await;
    assert!(texts(&host, ".pf-capped").is_empty(), "a file under the cap says nothing of it");
    type_text(&host, &capped_template());
    let expected = team_protocols::view::words::explorer::capped_answers(Catalog::en(), &[("review".to_string(), 486)]);
    assert_eq!(expected.len(), 1);
    until("the capped note beside the check", || texts(&host, ".pf-capped") == expected).await;
    assert_eq!(texts(&host, "#pf-status"), ["The file loads."], "the file still loads");
    // Explore the team: the Tools tab opens on the Explore panel, which
    // says the search covers only part of the answers.
    until("Explore enabled", || !el(&host, "#pf-explore").unchecked_into::<web_sys::HtmlButtonElement>().disabled()).await;
    el(&host, "#pf-explore").click();
    until("the Explore panel's note", || texts(&host, "section.explore .explore-capped") == expected).await;
    // A built-in scenario leaves the file's team, and the note goes.
    let select: web_sys::HtmlSelectElement = el(&host, "section.explore select").unchecked_into();
    select.set_value("shutdown");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    until("no note for the lesson's team", || texts(&host, "section.explore .explore-capped").is_empty()).await;
    // Under the cap, the Explore panel says nothing either.
    open_view(&host).await;
    type_text(&host, pf::TEMPLATE);
    until("the template loads again", || texts(&host, "#pf-status") == ["The file loads."] && texts(&host, ".pf-capped").is_empty()).await;
    until("Explore enabled", || !el(&host, "#pf-explore").unchecked_into::<web_sys::HtmlButtonElement>().disabled()).await;
    el(&host, "#pf-explore").click();
    until("the file's team in the panel", || texts(&host, "section.explore select option").iter().any(|o| o.contains("(your file)"))).await;
    assert!(texts(&host, "section.explore .explore-capped").is_empty());
    drop(page);
}
