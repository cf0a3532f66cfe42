//! Readers of option values from their JSON form, one small function per type, that give the
//! errors serde's `Deserialize` gives for the same value (`invalid type: string "many", expected
//! u32`). Options are read from a `serde_json::Value` field by field with these instead of each
//! type's derived `Deserialize`: the derives are compiled once per options type (and again per
//! deserialiser), while these are compiled once.

use serde::de::{Error as _, Unexpected};
use serde_json::{Error, Value};
use std::collections::BTreeMap;

/// What a value is, for serde's "invalid type" message.
pub fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// serde's error for a value of the wrong type, `expected` naming what was wanted.
pub fn invalid_type(v: &Value, expected: &str) -> Error {
    Error::invalid_type(unexpected(v), &expected)
}

/// A boolean.
pub fn bool(v: &Value) -> Result<bool, Error> {
    v.as_bool().ok_or_else(|| invalid_type(v, "a boolean"))
}

/// An unsigned integer of type `T` (named `what` in errors, as serde names it): an integer in its
/// range (serde's "invalid value" otherwise), not a float.
fn unsigned<T: TryFrom<u64>>(v: &Value, what: &'static str) -> Result<T, Error> {
    let Value::Number(n) = v else { return Err(invalid_type(v, what)) };
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => T::try_from(u).map_err(|_| Error::invalid_value(Unexpected::Unsigned(u), &what)),
        (None, Some(i)) => Err(Error::invalid_value(Unexpected::Signed(i), &what)),
        _ => Err(invalid_type(v, what)),
    }
}

/// A `u32`: an integer in its range (serde's "invalid value" otherwise), not a float.
pub fn u32(v: &Value) -> Result<u32, Error> {
    unsigned(v, "u32")
}

/// A `usize`, as [`u32()`] reads a `u32`.
pub fn usize(v: &Value) -> Result<usize, Error> {
    unsigned(v, "usize")
}

/// A string.
pub fn string(v: &Value) -> Result<String, Error> {
    v.as_str().map(str::to_string).ok_or_else(|| invalid_type(v, "a string"))
}

/// A string or null (none).
pub fn opt_string(v: &Value) -> Result<Option<String>, Error> {
    if v.is_null() {
        return Ok(None);
    }
    string(v).map(Some)
}

/// A `u32` or null (none).
pub fn opt_u32(v: &Value) -> Result<Option<u32>, Error> {
    if v.is_null() {
        return Ok(None);
    }
    u32(v).map(Some)
}

/// A boolean or null (none).
pub fn opt_bool(v: &Value) -> Result<Option<bool>, Error> {
    if v.is_null() {
        return Ok(None);
    }
    bool(v).map(Some)
}

/// An array of strings.
pub fn strings(v: &Value) -> Result<Vec<String>, Error> {
    let Value::Array(items) = v else { return Err(invalid_type(v, "a sequence")) };
    items.iter().map(string).collect()
}

/// An array of strings or null (none).
pub fn opt_strings(v: &Value) -> Result<Option<Vec<String>>, Error> {
    if v.is_null() {
        return Ok(None);
    }
    strings(v).map(Some)
}

/// An object of strings.
pub fn string_map(v: &Value) -> Result<BTreeMap<String, String>, Error> {
    let Value::Object(map) = v else { return Err(invalid_type(v, "a map")) };
    let mut out = BTreeMap::new();
    for (k, v) in map {
        out.insert(k.clone(), string(v)?);
    }
    Ok(out)
}

/// Which of `names` (a unit enum's variants, as serialised) `v` names: a string, or an object of
/// one key (the variant) whose value is null, as serde reads an enum from JSON.
pub fn variant(v: &Value, names: &'static [&'static str]) -> Result<usize, Error> {
    let (name, value) = match v {
        Value::String(s) => (s, None),
        Value::Object(map) => {
            let mut entries = map.iter();
            match (entries.next(), entries.next()) {
                (Some((k, value)), None) => (k, Some(value)),
                _ => return Err(Error::invalid_value(Unexpected::Map, &"map with a single key")),
            }
        }
        _ => return Err(invalid_type(v, "string or map")),
    };
    let Some(i) = names.iter().position(|n| n == name) else { return Err(Error::unknown_variant(name, names)) };
    match value {
        Some(value) if !value.is_null() => Err(invalid_type(value, "unit")),
        _ => Ok(i),
    }
}

/// The parse mode a value names (`lenient` or `strict`).
pub fn mode(v: &Value) -> Result<crate::parse::Mode, Error> {
    use crate::parse::Mode;
    Ok(if variant(v, &["lenient", "strict"])? == 0 { Mode::Lenient } else { Mode::Strict })
}

/// Reads each key of `value` (an object, else serde's error naming `what`, with no key) by
/// `field`; the error names the key whose value is wrong.
pub fn fields(
    value: &Value,
    what: &str,
    mut field: impl FnMut(&str, &Value) -> Result<(), Error>,
) -> Result<(), (String, Error)> {
    let Value::Object(map) = value else { return Err((String::new(), invalid_type(value, what))) };
    for (key, v) in map {
        field(key, v).map_err(|e| (key.clone(), e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disclose::CatalogFormat;
    use serde::de::DeserializeOwned;
    use serde::Deserialize;
    use serde_json::json;

    /// Values of every shape, numbers at the edges of `u32` among them.
    fn values() -> Vec<Value> {
        let mut out = vec![
            json!(null),
            json!(true),
            json!(0),
            json!(7),
            json!(4294967295u64),
            json!(4294967296u64),
            json!(-1),
            json!(1.5),
            json!(1e300),
            json!(""),
            json!("xml"),
            json!("json"),
            json!("loose \"q\"\n"),
            json!([]),
            json!(["a", "b"]),
            json!(["a", 1]),
            json!({}),
            json!({ "a": "b" }),
            json!({ "a": 1 }),
            json!({ "xml": null }),
            json!({ "xml": 1 }),
            json!({ "nope": null }),
            json!({ "xml": null, "json": null }),
        ];
        out.push(Value::Array(vec![Value::Null]));
        out
    }

    /// `mine` agrees with serde's `T::deserialize` on every value: the same result or the same
    /// message.
    fn agrees<T: DeserializeOwned + PartialEq + std::fmt::Debug>(mine: fn(&Value) -> Result<T, Error>) {
        for v in values() {
            let theirs = T::deserialize(&v).map_err(|e| e.to_string());
            assert_eq!(mine(&v).map_err(|e| e.to_string()), theirs, "{v}");
        }
    }

    #[test]
    fn every_reader_gives_serdes_answer() {
        agrees::<bool>(bool);
        agrees::<u32>(u32);
        agrees::<usize>(usize);
        agrees::<String>(string);
        agrees::<Option<String>>(opt_string);
        agrees::<Option<u32>>(opt_u32);
        agrees::<Option<bool>>(opt_bool);
        agrees::<Vec<String>>(strings);
        agrees::<Option<Vec<String>>>(opt_strings);
        agrees::<BTreeMap<String, String>>(string_map);
        const FORMATS: &[&str] = &["xml", "reference", "json", "markdown"];
        let formats = [CatalogFormat::Xml, CatalogFormat::Reference, CatalogFormat::Json, CatalogFormat::Markdown];
        for v in values() {
            let theirs = CatalogFormat::deserialize(&v).map_err(|e| e.to_string());
            let mine = variant(&v, FORMATS).map(|i| formats[i]).map_err(|e| e.to_string());
            assert_eq!(mine, theirs, "{v}");
        }
    }
}
