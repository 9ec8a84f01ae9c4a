//! The form that answers a pending request by hand in the requests panel,
//! computed: one control per field of the protocol's answer
//! (`response_fields`: an enum gets a select of its values, a bool a
//! checkbox, an int a number input, a string a text input), each labelled
//! with the field's name and its description; what the user typed read
//! into the fields a tool's answer carries, or the problems that stop it
//! from being sent, in the reader's language. The lesson's two protocols
//! are forms of one text field (`reason`, `feedback`).
//!
//! Owns the form's shape, the reading of typed values and the refusals'
//! words. Pure: no DOM, no signals; sending is the session's (the runtime's
//! `answer_as_with_fields`).

use std::collections::BTreeMap;

use crate::protocol::file::{Field, FieldType};
use crate::protocol::{FieldValue, Fields, ProtocolSet, RequestKind};
use crate::view::i18n::{tr, Catalog};

/// The control a field is answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Control {
    /// A text input (a `string` field).
    Text,
    /// A checkbox (a `bool` field): checked is `true`, unchecked `false`.
    Checkbox,
    /// A number input taking whole numbers (an `int` field).
    Number,
    /// A select of an `enum` field's values, after an empty first choice
    /// (required: "Choose…", so a value is picked on purpose; optional:
    /// none).
    Select(Vec<String>),
}

/// One control of the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormField {
    /// The field's name (its key in the answer).
    pub name: String,
    /// What the file says about it, if anything.
    pub description: Option<String>,
    /// The answer is not sent without it.
    pub required: bool,
    /// Its text is the answer message's content.
    pub content: bool,
    /// How it is answered.
    pub control: Control,
}

impl FormField {
    /// The field as a control: its type decides which.
    pub fn of(field: &Field) -> FormField {
        let control = match &field.field_type {
            FieldType::String => Control::Text,
            FieldType::Bool => Control::Checkbox,
            FieldType::Int => Control::Number,
            FieldType::Enum(values) => Control::Select(values.clone()),
        };
        FormField {
            name: field.name.clone(),
            description: field.description.clone(),
            required: field.required,
            content: field.content,
            control,
        }
    }

    /// Its visible label: the field's name, marked optional unless it is
    /// required (a checkbox always answers, so it is not marked).
    pub fn label(&self, cat: &Catalog) -> String {
        if self.required || self.control == Control::Checkbox {
            self.name.clone()
        } else {
            tr!(cat, "ui-answer-optional", field = self.name.as_str())
        }
    }

    /// The value an untouched control holds: empty, or `false` for a
    /// checkbox.
    pub fn initial(&self) -> String {
        match self.control {
            Control::Checkbox => "false".into(),
            _ => String::new(),
        }
    }
}

/// The form answering a request of `kind` under `protocols`: one control
/// per field of its answer, in the file's order. Empty for a kind the set
/// does not know.
pub fn form_of(protocols: &ProtocolSet, kind: RequestKind) -> Vec<FormField> {
    protocols.running(kind).map(|p| p.def.response_fields.iter().map(FormField::of).collect()).unwrap_or_default()
}

/// Why a typed value cannot be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The field it is about.
    pub field: String,
    /// What to do, in the reader's language.
    pub message: String,
}

/// What the user typed, field by field, as the page's controls hold it
/// (text as typed; a checkbox `true` or `false`; a select its value, empty
/// for none).
pub type Typed = BTreeMap<String, String>;

/// Reads `typed` into the fields the answer carries — a text or a number
/// left empty, and a select left on its empty choice, are not sent; a
/// checkbox always is — or says what stops it, one problem per field in
/// the form's order: a required field left empty, a number that is not
/// whole, a value off an enum's list.
pub fn to_send(cat: &Catalog, form: &[FormField], typed: &Typed) -> Result<Fields, Vec<Problem>> {
    let mut fields = Fields::new();
    let mut problems = Vec::new();
    for f in form {
        let raw = typed.get(&f.name).map_or("", String::as_str);
        let problem = |key: &str| Problem { field: f.name.clone(), message: tr!(cat, key, field = f.name.as_str()) };
        let value = match &f.control {
            Control::Checkbox => Some(FieldValue::Bool(raw == "true")),
            _ if raw.trim().is_empty() => {
                if f.required {
                    problems.push(problem("ui-answer-required"));
                }
                None
            }
            Control::Text => Some(FieldValue::Text(raw.to_string())),
            Control::Number => match raw.trim().parse::<i64>() {
                Ok(n) => Some(FieldValue::Int(n)),
                Err(_) => {
                    problems.push(problem("ui-answer-whole-number"));
                    None
                }
            },
            Control::Select(values) if values.iter().any(|v| v == raw) => Some(FieldValue::Text(raw.to_string())),
            Control::Select(values) => {
                let message = tr!(cat, "ui-answer-not-listed", field = f.name.as_str(), values = values.join(", "));
                problems.push(Problem { field: f.name.clone(), message });
                None
            }
        };
        if let Some(value) = value {
            fields.set(f.name.clone(), value);
        }
    }
    if problems.is_empty() {
        Ok(fields)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests;
