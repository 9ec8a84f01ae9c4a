//! Compact JSON with every object's keys in sorted order, written straight
//! from a `Serialize` value: the bytes `serde_json::to_value` followed by
//! `serde_json::to_string` gives (its `Map` sorts keys), without building
//! the `Value` tree.
//!
//! `explore --json` embeds the whole `Report` (what `explore merge`
//! joins), traces of its examples included; going through a `Value` tree
//! (an allocation per node, then a walk, then a drop) cost about as many
//! instructions as the search of a small scenario. Here each object's
//! entries are written into a buffer of its own and copied out in key
//! order; everything else is written as it comes, by `serde_json` (strings,
//! numbers), so escaping and number formats are the same. The choices a
//! `Value` makes are kept: an `f32` is written as the `f64` it converts
//! to, a map key as the string its number, bool or char gives, a repeated
//! key keeps its last value, a variant with data is `{"variant": data}`.
//!
//! Owns this writer only; what goes into the command line's report is the
//! `explore` binary's.

use std::borrow::Cow;

use serde::ser::{self, Serialize};

/// Why a value could not be written as JSON.
#[derive(Debug, thiserror::Error)]
pub enum SortedJsonError {
    /// The value's own `Serialize` refused.
    #[error("{0}")]
    Custom(String),
    /// A map key that JSON cannot hold as a string.
    #[error("a map key must be a string, a number, a bool or a char")]
    KeyMustBeAString,
    /// An integer beyond 64 bits (as `serde_json::Value` refuses it).
    #[error("number out of range")]
    NumberOutOfRange,
}

impl ser::Error for SortedJsonError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        SortedJsonError::Custom(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, SortedJsonError>;

/// `value` as compact JSON, each object's keys sorted.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    let mut ctx = Ctx { out: Vec::with_capacity(16 * 1024), scratch: Vec::new(), entries: Vec::new() };
    value.serialize(Writer { ctx: &mut ctx })?;
    // Only `serde_json` writes strings here, and it writes UTF-8.
    String::from_utf8(ctx.out).map_err(|e| SortedJsonError::Custom(e.to_string()))
}

/// Writes `value` with `serde_json` (strings, numbers): its escaping and
/// number formats.
fn plain<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<()> {
    serde_json::to_writer(out, value).map_err(|e| SortedJsonError::Custom(e.to_string()))
}

/// Writes `key` as a JSON string: as it is when it needs no escape (a
/// field's name), else by `serde_json`.
fn key_out(out: &mut Vec<u8>, key: &str) -> Result<()> {
    if key.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push(b'"');
        out.extend_from_slice(key.as_bytes());
        out.push(b'"');
        Ok(())
    } else {
        plain(out, key)
    }
}

/// One object entry waiting to be written in key order: its key and
/// where its value was written in `Ctx::out`.
type Entry = (Cow<'static, str>, std::ops::Range<usize>);

/// What every level of one writing shares, so an object allocates
/// nothing of its own: the output, a scratch copy of the object being
/// closed, and a stack of the open objects' entries.
struct Ctx {
    out: Vec<u8>,
    scratch: Vec<u8>,
    entries: Vec<Entry>,
}

/// The writer of one value at the end of `ctx.out`.
struct Writer<'a> {
    ctx: &'a mut Ctx,
}

impl<'a> Writer<'a> {
    /// `{"variant":` before a variant's data; `Object` or `Seq` closes it.
    fn open_variant(&mut self, variant: &str) -> Result<()> {
        self.ctx.out.push(b'{');
        key_out(&mut self.ctx.out, variant)?;
        self.ctx.out.push(b':');
        Ok(())
    }

    fn object(self, close_variant: bool) -> Object<'a> {
        let (start, base) = (self.ctx.out.len(), self.ctx.entries.len());
        Object { ctx: self.ctx, start, base, key: None, close_variant }
    }

    fn seq(self, close_variant: bool) -> Seq<'a> {
        self.ctx.out.push(b'[');
        Seq { ctx: self.ctx, first: true, close_variant }
    }
}

impl<'a> ser::Serializer for Writer<'a> {
    type Ok = ();
    type Error = SortedJsonError;
    type SerializeSeq = Seq<'a>;
    type SerializeTuple = Seq<'a>;
    type SerializeTupleStruct = Seq<'a>;
    type SerializeTupleVariant = Seq<'a>;
    type SerializeMap = Object<'a>;
    type SerializeStruct = Object<'a>;
    type SerializeStructVariant = Object<'a>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.ctx.out.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        match (u64::try_from(v), i64::try_from(v)) {
            (Ok(u), _) => plain(&mut self.ctx.out, &u),
            (_, Ok(i)) => plain(&mut self.ctx.out, &i),
            _ => Err(SortedJsonError::NumberOutOfRange),
        }
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        let v = u64::try_from(v).map_err(|_| SortedJsonError::NumberOutOfRange)?;
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        // A `Value` holds an f32 as the f64 it converts to.
        plain(&mut self.ctx.out, &f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        // Not finite: `null`, as a `Value` writes it.
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        plain(&mut self.ctx.out, &v)
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        plain(&mut self.ctx.out, v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        // A `Value` holds bytes as an array of numbers.
        let mut seq = self.seq(false);
        for b in v {
            ser::SerializeSeq::serialize_element(&mut seq, b)?;
        }
        ser::SerializeSeq::end(seq)
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.ctx.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.open_variant(variant)?;
        value.serialize(Writer { ctx: &mut *self.ctx })?;
        self.ctx.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Seq<'a>> {
        Ok(self.seq(false))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Seq<'a>> {
        Ok(self.seq(false))
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Seq<'a>> {
        Ok(self.seq(false))
    }
    fn serialize_tuple_variant(mut self, _name: &'static str, _index: u32, variant: &'static str, _len: usize) -> Result<Seq<'a>> {
        self.open_variant(variant)?;
        Ok(self.seq(true))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Object<'a>> {
        Ok(self.object(false))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Object<'a>> {
        Ok(self.object(false))
    }
    fn serialize_struct_variant(mut self, _name: &'static str, _index: u32, variant: &'static str, _len: usize) -> Result<Object<'a>> {
        self.open_variant(variant)?;
        Ok(self.object(true))
    }
}

/// An array being written: its elements go straight out.
struct Seq<'a> {
    ctx: &'a mut Ctx,
    first: bool,
    /// A tuple variant's: `]` then the `}` of `{"variant":`.
    close_variant: bool,
}

impl Seq<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if !self.first {
            self.ctx.out.push(b',');
        }
        self.first = false;
        value.serialize(Writer { ctx: &mut *self.ctx })
    }

    fn close(self) -> Result<()> {
        self.ctx.out.push(b']');
        if self.close_variant {
            self.ctx.out.push(b'}');
        }
        Ok(())
    }
}

impl ser::SerializeSeq for Seq<'_> {
    type Ok = ();
    type Error = SortedJsonError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl ser::SerializeTuple for Seq<'_> {
    type Ok = ();
    type Error = SortedJsonError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl ser::SerializeTupleStruct for Seq<'_> {
    type Ok = ();
    type Error = SortedJsonError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl ser::SerializeTupleVariant for Seq<'_> {
    type Ok = ();
    type Error = SortedJsonError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

/// An object being written: each value goes out as it comes, its key and
/// place onto the entries' stack; at the end the object's bytes are
/// written again, in key order.
struct Object<'a> {
    ctx: &'a mut Ctx,
    /// Where the object's values begin in `ctx.out`.
    start: usize,
    /// Where its entries begin on `ctx.entries`.
    base: usize,
    /// A map's key, until its value comes.
    key: Option<String>,
    /// A struct variant's: `}` then the `}` of `{"variant":`.
    close_variant: bool,
}

impl Object<'_> {
    fn entry<T: Serialize + ?Sized>(&mut self, key: Cow<'static, str>, value: &T) -> Result<()> {
        let from = self.ctx.out.len();
        value.serialize(Writer { ctx: &mut *self.ctx })?;
        let to = self.ctx.out.len();
        self.ctx.entries.push((key, from..to));
        Ok(())
    }

    fn close(self) -> Result<()> {
        let Ctx { out, scratch, entries } = self.ctx;
        let mine = &mut entries[self.base..];
        // Stable: of a repeated key the last value stays last, and is kept.
        mine.sort_by(|a, b| a.0.cmp(&b.0));
        scratch.clear();
        scratch.extend_from_slice(&out[self.start..]);
        out.truncate(self.start);
        out.push(b'{');
        let mut first = true;
        for (i, (key, range)) in mine.iter().enumerate() {
            if mine.get(i + 1).is_some_and(|next| next.0 == *key) {
                continue;
            }
            if !first {
                out.push(b',');
            }
            first = false;
            key_out(out, key)?;
            out.push(b':');
            out.extend_from_slice(&scratch[range.start - self.start..range.end - self.start]);
        }
        out.push(b'}');
        if self.close_variant {
            out.push(b'}');
        }
        entries.truncate(self.base);
        Ok(())
    }
}

/// A map key as the string a `serde_json::Value` map holds for it.
fn key_string<T: Serialize + ?Sized>(key: &T) -> Result<String> {
    match serde_json::to_value(key).map_err(|e| SortedJsonError::Custom(e.to_string()))? {
        serde_json::Value::String(s) => Ok(s),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Bool(b) => Ok(b.to_string()),
        _ => Err(SortedJsonError::KeyMustBeAString),
    }
}

impl ser::SerializeMap for Object<'_> {
    type Ok = ();
    type Error = SortedJsonError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = Some(key_string(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self.key.take().ok_or_else(|| SortedJsonError::Custom("a map value without its key".into()))?;
        self.entry(Cow::Owned(key), value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl ser::SerializeStruct for Object<'_> {
    type Ok = ();
    type Error = SortedJsonError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.entry(Cow::Borrowed(key), value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl ser::SerializeStructVariant for Object<'_> {
    type Ok = ();
    type Error = SortedJsonError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.entry(Cow::Borrowed(key), value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::{BTreeMap, HashMap};

    /// The bytes `serde_json` writes through a `Value`.
    fn through_value<T: Serialize>(v: &T) -> String {
        serde_json::to_string(&serde_json::to_value(v).unwrap()).unwrap()
    }

    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Tagged {
        Delay { ms: u64 },
        Drop,
    }

    #[derive(Serialize)]
    enum Plain {
        Unit,
        New(u8),
        Tuple(i32, String),
        Fields { zeta: bool, alpha: Option<f32> },
    }

    #[derive(Serialize)]
    struct Outer {
        zebra: Vec<Tagged>,
        apple: f64,
        nothing: Option<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
        middle: BTreeMap<u32, &'static str>,
        hashed: HashMap<String, i64>,
        plain: Vec<Plain>,
        bytes: serde_bytes_like::Bytes,
        text: &'static str,
        unit: (),
        tuple: (u8, char),
        huge: u128,
        negative: i128,
        nan: f64,
    }

    /// A value whose `Serialize` writes bytes (as `serde_bytes` does).
    mod serde_bytes_like {
        pub(super) struct Bytes(pub(super) Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    #[test]
    fn sorted_json_writes_the_bytes_a_value_writes() {
        let outer = Outer {
            zebra: vec![Tagged::Delay { ms: 1_000 }, Tagged::Drop],
            apple: 0.1 + 0.2,
            nothing: None,
            skipped: None,
            middle: [(10, "ten"), (9, "nine"), (100, "hundred")].into_iter().collect(),
            hashed: [("b".to_string(), -2), ("a".to_string(), 1), ("é\"\n".to_string(), 3)].into_iter().collect(),
            plain: vec![Plain::Unit, Plain::New(7), Plain::Tuple(-1, "x".into()), Plain::Fields { zeta: true, alpha: Some(0.1) }],
            bytes: serde_bytes_like::Bytes(vec![0, 255]),
            text: "tab\there \u{1F600} \\ \u{7}",
            unit: (),
            tuple: (3, 'q'),
            huge: u128::from(u64::MAX),
            negative: -5,
            nan: f64::NAN,
        };
        assert_eq!(to_string(&outer).unwrap(), through_value(&outer));
    }

    #[test]
    fn sorted_json_keeps_the_last_of_a_repeated_key() {
        struct Twice;
        impl Serialize for Twice {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("k", &1)?;
                m.serialize_entry("a", &2)?;
                m.serialize_entry("k", &3)?;
                m.end()
            }
        }
        assert_eq!(to_string(&Twice).unwrap(), through_value(&Twice));
        assert_eq!(to_string(&Twice).unwrap(), r#"{"a":2,"k":3}"#);
    }

    #[test]
    fn sorted_json_refuses_what_a_value_refuses() {
        assert!(to_string(&u128::MAX).is_err());
        let by_list: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into_iter().collect();
        assert!(to_string(&by_list).is_err());
    }
}
