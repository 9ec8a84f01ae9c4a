//! The typed fields a protocol message carries besides the envelope
//! (`type from to content timestamp request_id approve`): a file protocol's
//! `request_fields` and `response_fields` with their values.
//!
//! Owns the values and their order only. Which fields a message of a type
//! must carry, and of which type, is the protocol file's (`file::model`);
//! checking a value against its field is done where the file is known.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One field's value: the four flat types a protocol file may declare
/// (an `enum` field's value is its text).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FieldValue {
    /// true or false.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// Free text, or one of an enum's values.
    Text(String),
}

impl FieldValue {
    /// The text, for a text or enum value.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            FieldValue::Text(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for FieldValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldValue::Bool(b) => write!(f, "{b}"),
            FieldValue::Int(n) => write!(f, "{n}"),
            FieldValue::Text(s) => f.write_str(s),
        }
    }
}

/// A message's fields, kept sorted by name so two messages with the same
/// fields compare, hash and serialise alike whatever order they were set in.
/// One pointer wide, and nothing allocated when empty (every lesson message
/// carries an empty one): `None` exactly when there is no field.
// The extra box is the point: one pointer (a `Vec` is three) in every
// message and request, and an empty one allocates nothing.
#[allow(clippy::box_collection)]
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fields(Option<Box<Vec<(String, FieldValue)>>>);

impl Fields {
    /// No fields.
    pub fn new() -> Self {
        Fields::default()
    }

    fn list(&self) -> &[(String, FieldValue)] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }

    /// Sets a field, replacing an earlier value of the same name.
    pub fn set(&mut self, name: impl Into<String>, value: FieldValue) {
        let name = name.into();
        let list = self.0.get_or_insert_with(Box::default);
        match list.binary_search_by(|(n, _)| n.as_str().cmp(&name)) {
            Ok(i) => list[i].1 = value,
            Err(i) => list.insert(i, (name, value)),
        }
    }

    /// Takes a field out, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<FieldValue> {
        let list = self.0.as_mut()?;
        let i = list.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok()?;
        let (_, value) = list.remove(i);
        if list.is_empty() {
            self.0 = None;
        }
        Some(value)
    }

    /// A field's value.
    pub fn get(&self, name: &str) -> Option<&FieldValue> {
        let list = self.list();
        list.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok().map(|i| &list[i].1)
    }

    /// Every field, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &FieldValue)> {
        self.list().iter().map(|(n, v)| (n.as_str(), v))
    }

    /// True when there is no field.
    pub fn is_empty(&self) -> bool {
        self.list().is_empty()
    }

    /// How many fields.
    pub fn len(&self) -> usize {
        self.list().len()
    }
}

impl FromIterator<(String, FieldValue)> for Fields {
    fn from_iter<I: IntoIterator<Item = (String, FieldValue)>>(iter: I) -> Self {
        let mut fields = Fields::new();
        for (name, value) in iter {
            fields.set(name, value);
        }
        fields
    }
}

/// Written as a JSON object (flattened into a message, its keys sit beside
/// the envelope's), keys in name order.
impl Serialize for Fields {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (name, value) in self.list() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<String, FieldValue>::deserialize(deserializer)?;
        Ok(map.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_keep_name_order_whatever_order_they_were_set_in() {
        let mut a = Fields::new();
        a.set("task", FieldValue::Text("parser".into()));
        a.set("attempt", FieldValue::Int(2));
        a.set("urgent", FieldValue::Bool(true));
        let b: Fields = [
            ("urgent".to_string(), FieldValue::Bool(true)),
            ("task".into(), FieldValue::Text("parser".into())),
            ("attempt".into(), FieldValue::Int(2)),
        ]
        .into_iter()
        .collect();
        assert_eq!(a, b);
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"attempt":2,"task":"parser","urgent":true}"#);
        assert_eq!(a.iter().map(|(n, _)| n).collect::<Vec<_>>(), ["attempt", "task", "urgent"]);
    }

    #[test]
    fn setting_a_field_again_replaces_its_value() {
        let mut f = Fields::new();
        f.set("note", FieldValue::Text("a".into()));
        f.set("note", FieldValue::Text("b".into()));
        assert_eq!(f.len(), 1);
        assert_eq!(f.get("note").and_then(FieldValue::as_text), Some("b"));
        assert_eq!(f.get("missing"), None);
    }

    #[test]
    fn fields_read_back_what_they_wrote_with_each_value_type() {
        let json = r#"{"n":-3,"ok":false,"s":"x"}"#;
        let f: Fields = serde_json::from_str(json).unwrap();
        assert_eq!(f.get("n"), Some(&FieldValue::Int(-3)));
        assert_eq!(f.get("ok"), Some(&FieldValue::Bool(false)));
        assert_eq!(f.get("s"), Some(&FieldValue::Text("x".into())));
        assert_eq!(serde_json::to_string(&f).unwrap(), json);
        assert!(serde_json::from_str::<Fields>(r#"{"a":[1]}"#).is_err(), "only flat values");
    }
}
