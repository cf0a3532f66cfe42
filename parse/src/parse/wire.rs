//! The layout of the flat JSON arrays a batch of results crosses into JS as (see [`super::result_json`]):
//! each field of a type declared once, as a [`WireField`] that says what the reader makes of its
//! value and writes it. The writers walk the declarations ([`write_fields`]); the JS readers
//! (`pkg-template/boundary/layout.js`) are generated from them ([`js_reader`]) and checked against
//! them by a test, and tests tie the declarations to the objects serde writes (keys, order,
//! values), which the TypeScript types are derived from. A field added to a type and not here, or
//! here and not in the generated reader, fails the build's tests.

/// What the reader makes of a field's value: the property serde writes for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The value as it is, always present.
    Plain,
    /// The value, or no property for `null` (serde skips the absent field).
    Optional,
    /// The map, or `{}` for the `0` written for an empty one.
    MapOrZero,
    /// The list, or `[]` for the `0` written for an empty one.
    ListOrZero,
    /// A number whose bits, lowest first, are the booleans named (each always present).
    Flags(&'static [&'static str]),
}

/// One value of a `T` in the flat array: its property's key (for [`Shape::Flags`], a name for
/// the number; the properties are the flags'), what the reader makes of it, and its writer.
pub struct WireField<T: ?Sized> {
    /// The property's key, as serde names it.
    pub key: &'static str,
    /// What the reader makes of the value.
    pub shape: Shape,
    /// Appends the value as JSON.
    pub write: fn(&mut Vec<u8>, &T),
}

impl<T: ?Sized> WireField<T> {
    /// The keys of the properties the reader makes of this value, in order.
    pub fn keys(&self) -> Vec<&'static str> {
        match self.shape {
            Shape::Flags(names) => names.to_vec(),
            _ => vec![self.key],
        }
    }
}

/// Appends the values of `fields` for `value`, comma-separated.
pub fn write_fields<T: ?Sized>(out: &mut Vec<u8>, fields: &[WireField<T>], value: &T) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        (field.write)(out, value);
    }
}

/// The JS of a reader of `fields`: `function name(w, a)` returns the object serde writes, from
/// the values at `w[a]` on. With `base`, the object is first the one the reader `base.0` makes of
/// the values at `a`, and `fields` follow its `base.1` values. Properties are added in the
/// declarations' order (so objects share one shape and keys come out as serde's); the leading
/// ones that are always present are written as one object literal.
pub fn js_reader(name: &str, fields: &[(&str, Shape)], base: Option<(&str, usize)>) -> String {
    let at = |i: usize| {
        let i = i + base.map_or(0, |b| b.1);
        if i == 0 {
            "w[a]".to_string()
        } else {
            format!("w[a + {i}]")
        }
    };
    let value = |i: usize, shape: Shape| match shape {
        Shape::Plain | Shape::Optional | Shape::Flags(_) => at(i),
        Shape::MapOrZero => format!("{v} === 0 ? {{}} : {v}", v = at(i)),
        Shape::ListOrZero => format!("{v} === 0 ? [] : {v}", v = at(i)),
    };
    let flag = |i: usize, bit: usize| format!("({} & {}) !== 0", at(i), 1u32 << bit);
    let mut js = format!("export function {name}(w, a) {{\n");
    let mut rest = 0;
    match base {
        Some((reader, _)) => js.push_str(&format!("  const o = {reader}(w, a);\n")),
        None => {
            let mut props = Vec::new();
            for (i, (key, shape)) in fields.iter().enumerate() {
                match shape {
                    Shape::Optional => break,
                    Shape::Flags(names) => {
                        props.extend(names.iter().enumerate().map(|(bit, n)| format!("{n}: {}", flag(i, bit))))
                    }
                    _ => props.push(format!("{key}: {}", value(i, *shape))),
                }
                rest = i + 1;
            }
            js.push_str(&format!("  const o = {{ {} }};\n", props.join(", ")));
        }
    }
    for (i, (key, shape)) in fields.iter().enumerate().skip(rest) {
        match shape {
            Shape::Optional => js.push_str(&format!("  if ({v} !== null) o.{key} = {v};\n", v = at(i))),
            Shape::Flags(names) => {
                for (bit, n) in names.iter().enumerate() {
                    js.push_str(&format!("  o.{n} = {};\n", flag(i, bit)));
                }
            }
            _ => js.push_str(&format!("  o.{key} = {};\n", value(i, *shape))),
        }
    }
    js.push_str("  return o;\n}\n");
    js
}

/// What a generated reader makes of `values` (one per field of `fields`), added to `object`:
/// the same rules as [`js_reader`]'s JS, for tests that check the declarations against the
/// objects serde writes. None when a value is not what its shape reads.
pub fn read_values(
    fields: &[(&str, Shape)],
    values: &[serde_json::Value],
    object: &mut serde_json::Map<String, serde_json::Value>,
) -> Option<()> {
    use serde_json::Value;
    if fields.len() != values.len() {
        return None;
    }
    for ((key, shape), v) in fields.iter().zip(values) {
        let empty = match shape {
            Shape::MapOrZero => Some(Value::Object(Default::default())),
            Shape::ListOrZero => Some(Value::Array(Vec::new())),
            _ => None,
        };
        match shape {
            Shape::Plain => drop(object.insert(key.to_string(), v.clone())),
            Shape::Optional if v.is_null() => {}
            Shape::Optional => drop(object.insert(key.to_string(), v.clone())),
            Shape::MapOrZero | Shape::ListOrZero if v.as_u64() == Some(0) => {
                drop(object.insert(key.to_string(), empty?))
            }
            Shape::MapOrZero if v.is_object() => drop(object.insert(key.to_string(), v.clone())),
            Shape::ListOrZero if v.is_array() => drop(object.insert(key.to_string(), v.clone())),
            Shape::MapOrZero | Shape::ListOrZero => return None,
            Shape::Flags(names) => {
                let bits = v.as_u64()?;
                for (bit, n) in names.iter().enumerate() {
                    object.insert(n.to_string(), Value::Bool(bits & (1 << bit) != 0));
                }
            }
        }
    }
    Some(())
}

/// The (key, shape) pairs of `fields`, as [`js_reader`] and [`read_values`] take them.
pub fn shapes<T: ?Sized>(fields: &[WireField<T>]) -> Vec<(&'static str, Shape)> {
    fields.iter().map(|f| (f.key, f.shape)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_adds_properties_in_order() {
        let fields = [
            ("name", Shape::Plain),
            ("tags", Shape::ListOrZero),
            ("note", Shape::Optional),
            ("f", Shape::Flags(&["on", "off"])),
            ("map", Shape::MapOrZero),
        ];
        assert_eq!(
            js_reader("thingOf", &fields, None),
            "export function thingOf(w, a) {\n  const o = { name: w[a], tags: w[a + 1] === 0 ? [] : w[a + 1] };\n  \
             if (w[a + 2] !== null) o.note = w[a + 2];\n  o.on = (w[a + 3] & 1) !== 0;\n  o.off = (w[a + 3] & 2) !== 0;\n  \
             o.map = w[a + 4] === 0 ? {} : w[a + 4];\n  return o;\n}\n"
        );
        assert_eq!(
            js_reader("moreOf", &[("x", Shape::Plain)], Some(("thingOf", 5))),
            "export function moreOf(w, a) {\n  const o = thingOf(w, a);\n  o.x = w[a + 5];\n  return o;\n}\n"
        );
    }
}
