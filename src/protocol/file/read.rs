//! A reader over TOML's spanned tree (`toml::de::DeTable`): each getter
//! takes one key of one table, checks its TOML type and records a refusal
//! at the value's span when it is wrong, so one pass over a file finds
//! every shape mistake, not only the first.
//!
//! Owns the mechanics of reading (types, spans, paths, unknown keys). What
//! the keys of each table are is `parse`'s business.

use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::errors::{FileError, Problems};

/// A value read from the file with where it was: its byte span and its
/// field path.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct At<T> {
    pub(crate) value: T,
    pub(crate) span: Range<usize>,
    pub(crate) path: String,
}

impl<T> At<T> {
    pub(crate) fn map<U>(&self, f: impl FnOnce(&T) -> U) -> At<U> {
        At { value: f(&self.value), span: self.span.clone(), path: self.path.clone() }
    }
}

/// A scalar as written, for fields whose type another table decides.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    Text(String),
    Bool(bool),
    Int(i64),
    Other(&'static str),
}

/// One table of the file, with its span and path.
pub(crate) struct Node<'a, 'i> {
    pub(crate) table: &'a DeTable<'i>,
    pub(crate) span: Range<usize>,
    pub(crate) path: String,
}

/// What a TOML value is, in words.
pub(crate) fn kind_of(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a number with a fraction",
        DeValue::Boolean(_) => "true or false",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    }
}

fn integer(v: &DeValue<'_>) -> Option<i64> {
    let i = v.as_integer()?;
    i64::from_str_radix(i.as_str(), i.radix()).ok()
}

impl<'a, 'i> Node<'a, 'i> {
    pub(crate) fn root(table: &'a Spanned<DeTable<'i>>) -> Self {
        Node { table: table.get_ref(), span: table.span(), path: String::new() }
    }

    pub(crate) fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn get(&self, key: &str) -> Option<&'a Spanned<DeValue<'i>>> {
        self.table.get(key)
    }

    /// Refuses every key not in `known`, at the key.
    pub(crate) fn only_keys(&self, known: &[&str], p: &mut Problems<'_>) {
        for (k, _) in self.table.iter() {
            if !known.contains(&k.get_ref().as_ref()) {
                let key = k.get_ref().to_string();
                p.add(k.span(), self.key_path(&key), FileError::UnknownKey { key, known: known.join(", ") });
            }
        }
    }

    /// The keys of this table other than `except`, in order, for tables
    /// whose keys are names (a matcher's field filters, a teammate's
    /// scripted answers).
    pub(crate) fn other_keys(&self, except: &[&str]) -> Vec<(At<String>, &'a Spanned<DeValue<'i>>)> {
        self.table
            .iter()
            .filter(|(k, _)| !except.contains(&k.get_ref().as_ref()))
            .map(|(k, v)| {
                let key = k.get_ref().to_string();
                (At { path: self.key_path(&key), value: key, span: k.span() }, v)
            })
            .collect()
    }

    fn typed<T>(&self, key: &str, expected: &'static str, read: impl Fn(&DeValue<'i>) -> Option<T>, p: &mut Problems<'_>) -> Option<At<T>> {
        let v = self.get(key)?;
        match read(v.get_ref()) {
            Some(value) => Some(At { value, span: v.span(), path: self.key_path(key) }),
            None => {
                p.add(v.span(), self.key_path(key), FileError::WrongType { expected, found: kind_of(v.get_ref()) });
                None
            }
        }
    }

    /// Refuses a missing key, at the table, saying what it is for.
    pub(crate) fn require<T>(&self, got: Option<At<T>>, key: &str, why: &'static str, p: &mut Problems<'_>) -> Option<At<T>> {
        if got.is_none() && self.get(key).is_none() {
            p.add(self.span.clone(), self.key_path(key), FileError::MissingKey { key: key.to_string(), why });
        }
        got
    }

    pub(crate) fn string(&self, key: &str, p: &mut Problems<'_>) -> Option<At<String>> {
        self.typed(key, "a string", |v| v.as_str().map(str::to_string), p)
    }

    pub(crate) fn boolean(&self, key: &str, p: &mut Problems<'_>) -> Option<At<bool>> {
        self.typed(key, "true or false", DeValue::as_bool, p)
    }

    pub(crate) fn int(&self, key: &str, p: &mut Problems<'_>) -> Option<At<i64>> {
        self.typed(key, "a whole number", integer, p)
    }

    /// A number, whole or not.
    pub(crate) fn number(&self, key: &str, p: &mut Problems<'_>) -> Option<At<f64>> {
        self.typed(
            key,
            "a number",
            |v| match v {
                DeValue::Float(f) => f.as_str().parse().ok(),
                other => integer(other).map(|i| i as f64),
            },
            p,
        )
    }

    /// One of `options` (`allowed` lists them for the refusal).
    pub(crate) fn choice<T: Copy>(&self, key: &str, options: &[(&str, T)], allowed: &'static str, p: &mut Problems<'_>) -> Option<At<T>> {
        let s = self.string(key, p)?;
        match options.iter().find(|(name, _)| *name == s.value) {
            Some((_, t)) => Some(s.map(|_| *t)),
            None => {
                p.add(s.span, s.path, FileError::BadChoice { value: s.value, allowed });
                None
            }
        }
    }

    /// A scalar of any type (its meaning is decided elsewhere).
    pub(crate) fn scalar(v: &Spanned<DeValue<'_>>, path: String) -> At<Scalar> {
        let value = match v.get_ref() {
            DeValue::String(s) => Scalar::Text(s.to_string()),
            DeValue::Boolean(b) => Scalar::Bool(*b),
            other => integer(other).map_or(Scalar::Other(kind_of(other)), Scalar::Int),
        };
        At { value, span: v.span(), path }
    }

    /// A list of strings (absent: empty).
    pub(crate) fn strings(&self, key: &str, p: &mut Problems<'_>) -> Vec<At<String>> {
        let Some(arr) = self.typed(key, "a list of strings", |v| v.as_array().map(|_| ()), p) else { return Vec::new() };
        let Some(DeValue::Array(items)) = self.get(key).map(Spanned::get_ref) else { return Vec::new() };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let path = format!("{}[{i}]", arr.path);
            match item.get_ref().as_str() {
                Some(s) => out.push(At { value: s.to_string(), span: item.span(), path }),
                None => p.add(item.span(), path, FileError::WrongType { expected: "a string", found: kind_of(item.get_ref()) }),
            }
        }
        out
    }

    /// A string or a list of strings, as a list (absent: empty).
    pub(crate) fn string_or_strings(&self, key: &str, p: &mut Problems<'_>) -> Vec<At<String>> {
        match self.get(key).map(Spanned::get_ref) {
            Some(DeValue::String(_)) => self.string(key, p).into_iter().collect(),
            _ => self.strings(key, p),
        }
    }

    /// A table under `key`.
    pub(crate) fn table(&self, key: &str, p: &mut Problems<'_>) -> Option<Node<'a, 'i>> {
        let v = self.get(key)?;
        match v.get_ref() {
            DeValue::Table(t) => Some(Node { table: t, span: v.span(), path: self.key_path(key) }),
            other => {
                p.add(v.span(), self.key_path(key), FileError::WrongType { expected: "a table", found: kind_of(other) });
                None
            }
        }
    }

    /// The tables of a list under `key` (`[[key]]` or `key = [{..}, ..]`;
    /// absent: empty).
    pub(crate) fn tables(&self, key: &str, p: &mut Problems<'_>) -> Vec<Node<'a, 'i>> {
        let Some(v) = self.get(key) else { return Vec::new() };
        let DeValue::Array(items) = v.get_ref() else {
            p.add(v.span(), self.key_path(key), FileError::WrongType { expected: "a list of tables", found: kind_of(v.get_ref()) });
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let path = format!("{}[{i}]", self.key_path(key));
            match item.get_ref() {
                DeValue::Table(t) => out.push(Node { table: t, span: item.span(), path }),
                other => p.add(item.span(), path, FileError::WrongType { expected: "a table", found: kind_of(other) }),
            }
        }
        out
    }

    /// This table as a value's place (for refusals about the whole table).
    pub(crate) fn here(&self) -> At<()> {
        At { value: (), span: self.span.clone(), path: self.path.clone() }
    }
}
