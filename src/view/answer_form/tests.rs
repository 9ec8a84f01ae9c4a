use std::sync::Arc;

use super::*;
use crate::protocol::file::{self, ProtocolIx};
use crate::view::protocol_file::TEMPLATE;

/// The template's review, its answer given a text, an enum, a bool and an
/// int field.
fn review() -> (ProtocolSet, RequestKind) {
    let text = TEMPLATE.replace(
        r#"response_fields = [{ name = "comment", type = "string", content = true }]"#,
        r#"response_fields = [{ name = "comment", type = "string", content = true },
                   { name = "severity", type = "enum", values = ["minor", "major"], required = true, description = "How bad it is." },
                   { name = "urgent", type = "bool" },
                   { name = "rounds", type = "int", required = true }]"#,
    );
    let set = ProtocolSet::new(Arc::new(file::load(&text).unwrap()));
    let kind = set.kind(ProtocolIx(0)).expect("the template's protocol");
    (set, kind)
}

fn typed(pairs: &[(&str, &str)]) -> Typed {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn each_field_type_gets_its_own_control_in_the_files_order() {
    let (set, kind) = review();
    let form = form_of(&set, kind);
    let shape: Vec<(&str, &Control, bool)> = form.iter().map(|f| (f.name.as_str(), &f.control, f.required)).collect();
    assert_eq!(
        shape,
        [
            ("comment", &Control::Text, false),
            ("severity", &Control::Select(vec!["minor".into(), "major".into()]), true),
            ("urgent", &Control::Checkbox, false),
            ("rounds", &Control::Number, true),
        ]
    );
    assert_eq!(form[1].description.as_deref(), Some("How bad it is."));
    assert!(form[0].content && !form[1].content);
    let en = Catalog::en();
    let labels: Vec<String> = form.iter().map(|f| f.label(en)).collect();
    assert_eq!(labels, ["comment (optional)", "severity", "urgent", "rounds"]);
    assert_eq!(form.iter().map(FormField::initial).collect::<Vec<_>>(), ["", "", "false", ""]);
}

#[test]
fn the_lessons_answers_are_one_text_field_each() {
    let lesson = ProtocolSet::lesson();
    for (kind, name) in [(RequestKind::SHUTDOWN, "reason"), (RequestKind::PLAN, "feedback")] {
        let form = form_of(&lesson, kind);
        assert_eq!(form.len(), 1, "{kind}");
        assert_eq!((form[0].name.as_str(), &form[0].control, form[0].required, form[0].content), (name, &Control::Text, false, true));
    }
}

#[test]
fn what_is_sent_is_each_filled_field_typed_and_every_checkbox() {
    let (set, kind) = review();
    let form = form_of(&set, kind);
    let sent = to_send(Catalog::en(), &form, &typed(&[("severity", "major"), ("urgent", "true"), ("rounds", " 2 ")])).unwrap();
    let mut want = Fields::new();
    want.set("severity", FieldValue::Text("major".into()));
    want.set("urgent", FieldValue::Bool(true));
    want.set("rounds", FieldValue::Int(2));
    assert_eq!(sent, want, "an empty optional text is left out; the number is read whole");
    // An untouched checkbox answers false; a comment is sent as typed.
    let sent = to_send(Catalog::en(), &form, &typed(&[("comment", " ok "), ("severity", "minor"), ("rounds", "-3")])).unwrap();
    assert_eq!(sent.get("urgent"), Some(&FieldValue::Bool(false)));
    assert_eq!(sent.get("comment"), Some(&FieldValue::Text(" ok ".into())));
    assert_eq!(sent.get("rounds"), Some(&FieldValue::Int(-3)));
    // What is sent passes the protocol's own check, as a tool's answer must.
    let (_, def) = set.protocol_of(kind).unwrap();
    crate::protocol::protocols::check_fields(def, file::Side::Response, &sent).unwrap();
}

#[test]
fn a_required_field_left_empty_a_number_not_whole_or_a_value_off_the_list_is_refused_in_the_four_languages() {
    let (set, kind) = review();
    let form = form_of(&set, kind);
    let bad = typed(&[("severity", ""), ("rounds", "2.5")]);
    let problems = to_send(Catalog::en(), &form, &bad).unwrap_err();
    let words: Vec<(&str, &str)> = problems.iter().map(|p| (p.field.as_str(), p.message.as_str())).collect();
    assert_eq!(words, [("severity", "Fill in severity: this answer needs it."), ("rounds", "rounds must be a whole number, such as 3.")]);
    let off = to_send(Catalog::en(), &form, &typed(&[("severity", "huge"), ("rounds", "1")])).unwrap_err();
    assert_eq!(off[0].message, "severity must be one of minor, major.");
    let empty_rounds = to_send(Catalog::en(), &form, &typed(&[("severity", "minor"), ("rounds", "   ")])).unwrap_err();
    assert_eq!((empty_rounds[0].field.as_str(), empty_rounds[0].message.as_str()), ("rounds", "Fill in rounds: this answer needs it."));
    for locale in crate::view::i18n::Locale::ALL {
        let cat = Catalog::get(locale);
        let problems = to_send(cat, &form, &bad).unwrap_err();
        assert_eq!(problems.len(), 2, "{}", cat.locale().tag());
        for p in &problems {
            assert!(p.message.contains(&p.field) && !p.message.contains("ui-answer"), "{}: {}", cat.locale().tag(), p.message);
        }
        let off = to_send(cat, &form, &typed(&[("severity", "huge"), ("rounds", "1")])).unwrap_err();
        assert!(off[0].message.contains("minor, major"), "{}: {}", cat.locale().tag(), off[0].message);
    }
    // An English word in another language's sentence would mean a missing message.
    let zh = to_send(Catalog::get(crate::view::i18n::Locale::Zh), &form, &bad).unwrap_err();
    assert!(!zh[0].message.contains("Fill in"), "{}", zh[0].message);
}
