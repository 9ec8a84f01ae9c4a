//! The answers a file protocol's responder may give, as points of a small
//! product: `approve` (two values) times each enum field of the response
//! (its declared values). The explorer (`choices::alternatives_under`)
//! offers every point other than the scripted one, so a `reject` with a
//! non-default enum value is explored as well as each decision alone.
//!
//! Bounded: a response with many enum fields would make the product
//! explode, so at most `MAX_ANSWER_POINTS` points off the script are offered
//! per answer, the ones that differ from the script in the fewest places
//! first (every single decision before any pair, and so on). A protocol
//! whose product is bigger is named by `capped_protocols`, which the
//! command line reports, so a cap is never hit silently.
//!
//! Owns the enumeration and its bound. It reads only the protocol's
//! declared fields and the scripted answer's JSON input; it must not build
//! replies (`choices`) or read the conversation.

use serde_json::{json, Value};

use crate::protocol::file::{FieldType, Protocol, ProtocolFile};

/// At most this many answers off the script are offered for one answer
/// (every single decision is offered first, then pairs, ...).
pub const MAX_ANSWER_POINTS: usize = 64;

/// One answer off the script: the scripted input with some components
/// changed, and the changes in words ("approve = false", "progress =
/// blocked"), in the order of the components.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerPoint {
    /// The answer's tool input.
    pub input: Value,
    /// Whether `approve` differs from the script.
    pub flips_approve: bool,
    /// The enum fields that differ from the script, as `name = value`.
    pub enum_changes: Vec<String>,
}

/// One changed axis of a point: the axis, and which of its other values.
type Change = (usize, usize);

/// One axis of the product: a JSON key and the values it may take other
/// than the scripted one.
struct Axis<'a> {
    key: &'a str,
    others: Vec<Value>,
}

fn axes<'a>(protocol: &'a Protocol, scripted: &Value) -> Vec<Axis<'a>> {
    let approve = scripted.get("approve").and_then(Value::as_bool).unwrap_or(false);
    let mut axes = vec![Axis { key: "approve", others: vec![json!(!approve)] }];
    for field in &protocol.response_fields {
        let FieldType::Enum(values) = &field.field_type else { continue };
        let current = scripted.get(&field.name).and_then(Value::as_str);
        let others: Vec<Value> = values.iter().filter(|v| Some(v.as_str()) != current).map(|v| json!(v)).collect();
        if !others.is_empty() {
            axes.push(Axis { key: &field.name, others });
        }
    }
    axes
}

/// The answers off the script for `protocol`'s answer `scripted` (its tool
/// input, carrying `approve`): every point of approve x each enum field's
/// values but the scripted one, the fewest changes first, at most
/// `MAX_ANSWER_POINTS`.
pub fn answer_points(protocol: &Protocol, scripted: &Value) -> Vec<AnswerPoint> {
    let axes = axes(protocol, scripted);
    let mut out = Vec::new();
    let mut chosen: Vec<Change> = Vec::new();
    for changes in 1..=axes.len() {
        pick(&axes, 0, changes, &mut chosen, &mut |chosen| {
            let mut input = scripted.clone();
            let mut point = AnswerPoint { input: Value::Null, flips_approve: false, enum_changes: Vec::new() };
            for &(axis, value) in chosen {
                let Axis { key, others } = &axes[axis];
                input[*key] = others[value].clone();
                if axis == 0 {
                    point.flips_approve = true;
                } else {
                    point.enum_changes.push(format!("{key} = {}", others[value].as_str().unwrap_or_default()));
                }
            }
            point.input = input;
            out.push(point);
            out.len() < MAX_ANSWER_POINTS
        });
        if out.len() >= MAX_ANSWER_POINTS {
            break;
        }
    }
    out
}

/// Calls `emit` with each way to change exactly `left` of the axes from
/// `from` on (with `chosen` already changed), in order; stops when `emit`
/// says so (returns false). Returns whether to go on.
fn pick(axes: &[Axis<'_>], from: usize, left: usize, chosen: &mut Vec<Change>, emit: &mut dyn FnMut(&[Change]) -> bool) -> bool {
    if left == 0 {
        return emit(chosen);
    }
    for axis in from..axes.len() {
        if axes.len() - axis < left {
            break;
        }
        for value in 0..axes[axis].others.len() {
            chosen.push((axis, value));
            let go_on = pick(axes, axis + 1, left - 1, chosen, emit);
            chosen.pop();
            if !go_on {
                return false;
            }
        }
    }
    true
}

/// How many answers `protocol`'s responder may give in all, scripted one
/// included: approve x each enum field's values, where an optional enum
/// field (which the scripted answers leave out) counts "left out" as one
/// more value; saturating.
pub fn answer_count(protocol: &Protocol) -> u128 {
    protocol.response_fields.iter().fold(2u128, |n, field| match &field.field_type {
        FieldType::Enum(values) => n.saturating_mul(values.len() as u128 + u128::from(!field.required)),
        _ => n,
    })
}

/// The protocols of `file` whose answers off the script outnumber
/// `MAX_ANSWER_POINTS` (the explorer offers only the first of them), with
/// how many answers each has in all.
pub fn capped_protocols(file: &ProtocolFile) -> Vec<(String, u128)> {
    file.protocols
        .iter()
        .filter(|p| p.tools.respond.is_some())
        .map(|p| (p.name.clone(), answer_count(p)))
        .filter(|(_, n)| n.saturating_sub(1) > MAX_ANSWER_POINTS as u128)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::file::load;

    /// A file whose protocol `check` answers with `fields` (TOML inline
    /// tables).
    fn protocol_answering_with(fields: &str) -> Protocol {
        let text = format!(
            r#"format = 1
[[protocol]]
name = "check"
request = "check_request"
response = "check_response"
from = "lead"
to = "teammate"
response_fields = [{fields}]
tools.request = {{ name = "ask_check", description = "Ask a teammate to check." }}
tools.respond = {{ name = "answer_check", description = "Answer a check request." }}
"#
        );
        let file = load(&text).unwrap_or_else(|e| panic!("{}", e.render("check")));
        file.protocols.into_iter().find(|p| p.name == "check").expect("the protocol")
    }

    const LEVEL: &str = r#"{ name = "level", type = "enum", values = ["low", "mid", "high"], required = true }"#;
    const RISK: &str = r#"{ name = "risk", type = "enum", values = ["none", "some"], required = true }"#;

    #[test]
    fn approve_and_one_enum_of_three_values_give_two_times_three_minus_one_answers_off_the_script() {
        let p = protocol_answering_with(LEVEL);
        let scripted = json!({ "request_id": "r1", "approve": true, "level": "low" });
        let points = answer_points(&p, &scripted);
        assert_eq!(points.len(), 2 * 3 - 1);
        let inputs: Vec<(Value, Value)> = points.iter().map(|pt| (pt.input["approve"].clone(), pt.input["level"].clone())).collect();
        assert!(!inputs.contains(&(json!(true), json!("low"))), "the scripted answer is not offered again");
        assert!(inputs.contains(&(json!(false), json!("high"))), "a reject with a non-default value is offered: {inputs:?}");
        let unique: std::collections::BTreeSet<String> = inputs.iter().map(|i| format!("{i:?}")).collect();
        assert_eq!(unique.len(), points.len(), "no answer twice");
        assert_eq!(answer_count(&p), 6);
    }

    #[test]
    fn two_enum_fields_give_the_whole_product_the_fewest_changes_first() {
        let p = protocol_answering_with(&format!("{LEVEL}, {RISK}"));
        let scripted = json!({ "request_id": "r1", "approve": false, "level": "low", "risk": "none" });
        let points = answer_points(&p, &scripted);
        assert_eq!(points.len(), 2 * 3 * 2 - 1);
        let changes = |pt: &AnswerPoint| usize::from(pt.flips_approve) + pt.enum_changes.len();
        assert!(points.windows(2).all(|w| changes(&w[0]) <= changes(&w[1])), "single decisions come first");
        assert_eq!(points.iter().filter(|pt| changes(pt) == 1).count(), 1 + 2 + 1);
        assert_eq!(points.last().map(changes), Some(3));
    }

    #[test]
    fn a_response_with_many_enum_fields_is_capped_and_named() {
        let fields: Vec<String> =
            (0..8).map(|i| format!(r#"{{ name = "f{i}", type = "enum", values = ["a", "b", "c"], required = true }}"#)).collect();
        let p = protocol_answering_with(&fields.join(", "));
        let mut scripted = json!({ "request_id": "r1", "approve": true });
        for i in 0..8 {
            scripted[format!("f{i}")] = json!("a");
        }
        let points = answer_points(&p, &scripted);
        assert_eq!(points.len(), MAX_ANSWER_POINTS);
        assert_eq!(points.iter().filter(|pt| usize::from(pt.flips_approve) + pt.enum_changes.len() == 1).count(), 1 + 8 * 2);
        assert_eq!(answer_count(&p), 2 * 3u128.pow(8));
        let file = ProtocolFile { protocols: vec![p.clone(), protocol_answering_with(LEVEL)], ..load("format = 1\n").unwrap() };
        assert_eq!(capped_protocols(&file), vec![("check".to_string(), 2 * 3u128.pow(8))]);
    }

    #[test]
    fn an_optional_enum_the_script_leaves_out_offers_each_of_its_values() {
        let p = protocol_answering_with(r#"{ name = "level", type = "enum", values = ["low", "mid", "high"] }"#);
        let points = answer_points(&p, &json!({ "request_id": "r1", "approve": true }));
        assert_eq!(points.len(), 2 * (3 + 1) - 1);
        assert_eq!(answer_count(&p), 8);
    }
}
