//! Parse results as the JSON text `boundary.js` reads: the values of each result one after the
//! other in one flat array for a whole batch, which `takeResults` turns into the very objects
//! serde would write for [`ParseResult`] (the same keys in the same order, the same values).
//! `JSON.parse` of the objects' own text, every key and every empty map spelled out, took twice as
//! long as reading arrays and building the objects with the keys in order; one flat array rather
//! than two arrays per result spares the collector two objects per result as well. The writer
//! lives in the core, built for speed, because it is on the hot path of every parse (the wasm
//! façade is built for size). The result's fixed shape needs no generic serialiser: serde_json,
//! built for size as every dependency is, was the largest part of a metadata-only parse in wasm.
//! The free-form values (structured metadata, unknown keys) are written by [`value`], as
//! serde_json writes them.
//!
//! The values of a result (the order `takeResults` reads; `0` is an empty map, list or
//! diagnostics list, `null` an absent optional field):
//!
//! - `flags`: [`RESULT_HAS_SKILL`] when there is a skill, plus [`RESULT_INCOMPLETE`] when the
//!   result is incomplete;
//! - with a skill, its [`SKILL_VALUES`] values, declared in [`SKILL_FIELDS`];
//! - the diagnostics, each the object serde writes.
//!
//! Every character beyond ASCII is written as a `\u` escape (see [`string`]): the text then
//! crosses into JS as a one-byte string, which `TextDecoder` makes several times faster than one
//! with a few non-ASCII characters (measured on the corpus: 0.5 ms against 1.5 ms for its 500 KB),
//! and `JSON.parse` reads no slower.

use crate::diagnostic::Severity;
use crate::parse::wire::{write_fields, Shape, WireField};
use crate::parse::{scan, FieldMap};
use crate::{Diagnostic, ParseResult, Skill};
use serde_json::Value;

/// The values of a skill, in order: each declared once, its writer and what the reader makes of
/// it ([`super::wire`]; the JS reader is generated from this list).
pub const SKILL_FIELDS: &[WireField<Skill>] = &[
    WireField { key: "name", shape: Shape::Plain, write: |out, s| string(out, &s.name) },
    WireField { key: "description", shape: Shape::Plain, write: |out, s| string(out, &s.description) },
    WireField {
        key: "localizedDescriptions",
        shape: Shape::MapOrZero,
        write: |out, s| string_map(out, &s.localized_descriptions),
    },
    WireField { key: "license", shape: Shape::Optional, write: |out, s| nullable(out, s.license.as_deref()) },
    WireField {
        key: "compatibility",
        shape: Shape::Optional,
        write: |out, s| nullable(out, s.compatibility.as_deref()),
    },
    WireField { key: "metadata", shape: Shape::MapOrZero, write: |out, s| string_map(out, &s.metadata) },
    WireField {
        key: "metadataStructured",
        shape: Shape::MapOrZero,
        write: |out, s| value_map(out, &s.metadata_structured),
    },
    WireField {
        key: "allowedTools",
        shape: Shape::ListOrZero,
        write: |out, s| {
            if s.allowed_tools.is_empty() {
                out.push(b'0');
            } else {
                array(out, &s.allowed_tools, |out, t| string(out, t));
            }
        },
    },
    WireField {
        key: "argumentHint",
        shape: Shape::Optional,
        write: |out, s| nullable(out, s.argument_hint.as_deref()),
    },
    WireField { key: "minTier", shape: Shape::Optional, write: |out, s| nullable(out, s.min_tier.as_deref()) },
    WireField {
        key: "invocation",
        shape: Shape::Flags(&["disableModelInvocation", "userInvocable"]),
        write: |out, s| out.push(b'0' + u8::from(s.disable_model_invocation) + 2 * u8::from(s.user_invocable)),
    },
    WireField { key: "context", shape: Shape::Optional, write: |out, s| nullable(out, s.context.as_deref()) },
    WireField { key: "agent", shape: Shape::Optional, write: |out, s| nullable(out, s.agent.as_deref()) },
    WireField { key: "extra", shape: Shape::MapOrZero, write: |out, s| value_map(out, &s.extra) },
    WireField { key: "body", shape: Shape::Optional, write: |out, s| nullable(out, s.body.as_deref()) },
    WireField {
        key: "bodyLine",
        shape: Shape::Optional,
        write: |out, s| match s.body_line {
            Some(line) => number(out, line),
            None => out.extend_from_slice(b"null"),
        },
    },
];

/// How many values a skill takes in a result.
pub const SKILL_VALUES: usize = SKILL_FIELDS.len();

/// The flag of a result with a skill (its values follow the flags).
pub const RESULT_HAS_SKILL: u8 = 1;
/// The flag of an incomplete result.
pub const RESULT_INCOMPLETE: u8 = 2;

/// Appends the values of `result` to `out`, comma-separated (the caller writes the array's
/// brackets, and a comma between results).
pub fn write_result(out: &mut Vec<u8>, result: &ParseResult) {
    let flags = if result.skill.is_some() { RESULT_HAS_SKILL } else { 0 }
        | if result.incomplete { RESULT_INCOMPLETE } else { 0 };
    out.push(b'0' + flags);
    out.push(b',');
    if let Some(skill) = &result.skill {
        write_skill(out, skill);
        out.push(b',');
    }
    write_diagnostics(out, &result.diagnostics);
}

/// Appends `diagnostics` as a JSON array of the objects serde writes, or `0` when there are none.
pub fn write_diagnostics(out: &mut Vec<u8>, diagnostics: &[Diagnostic]) {
    if diagnostics.is_empty() {
        out.push(b'0');
    } else {
        array(out, diagnostics, write_diagnostic);
    }
}

/// Appends the [`SKILL_VALUES`] values of a skill ([`SKILL_FIELDS`]), comma-separated
/// (`takeResults` and `takeMetas` in `boundary/results.js` read them with the generated
/// `skillOf`).
pub fn write_skill(out: &mut Vec<u8>, s: &Skill) {
    write_fields(out, SKILL_FIELDS, s);
}

fn write_diagnostic(out: &mut Vec<u8>, d: &Diagnostic) {
    out.extend_from_slice(match d.severity {
        Severity::Error => b"{\"severity\":\"error\",\"code\":".as_slice(),
        Severity::Warning => b"{\"severity\":\"warning\",\"code\":".as_slice(),
        Severity::Info => b"{\"severity\":\"info\",\"code\":".as_slice(),
    });
    string(out, &d.code);
    out.extend_from_slice(b",\"message\":");
    string(out, &d.message);
    if let Some(line) = d.line {
        out.extend_from_slice(b",\"line\":");
        number(out, line);
    }
    if let Some(path) = &d.path {
        out.extend_from_slice(b",\"path\":");
        string(out, path);
    }
    out.push(b'}');
}

/// `value`, or `null`.
pub fn nullable(out: &mut Vec<u8>, value: Option<&str>) {
    match value {
        Some(v) => string(out, v),
        None => out.extend_from_slice(b"null"),
    }
}

fn number(out: &mut Vec<u8>, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// `items` as a JSON array, each written by `write`.
fn array<T>(out: &mut Vec<u8>, items: &[T], write: impl Fn(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write(out, item);
    }
    out.push(b']');
}

/// The entries of a map as a JSON object, each value written by `write`.
fn object<'a, V: 'a>(
    out: &mut Vec<u8>,
    entries: impl Iterator<Item = (&'a String, &'a V)>,
    write: impl Fn(&mut Vec<u8>, &V),
) {
    out.push(b'{');
    for (i, (k, v)) in entries.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        string(out, k);
        out.push(b':');
        write(out, v);
    }
    out.push(b'}');
}

/// `map` as a JSON object, or `0` when it is empty.
fn string_map(out: &mut Vec<u8>, map: &FieldMap<String>) {
    if map.is_empty() {
        out.push(b'0');
    } else {
        object(out, map.iter(), |out, v| string(out, v));
    }
}

/// `map` as a JSON object, or `0` when it is empty.
fn value_map(out: &mut Vec<u8>, map: &FieldMap<Value>) {
    if map.is_empty() {
        out.push(b'0');
    } else {
        object(out, map.iter(), |out, v| value(out, v, 0));
    }
}

/// How deep [`value`] writes nested lists and maps; deeper ones are `null`. The parsers stop at
/// 16 levels, so no value they make reaches it: it keeps the recursion bounded for any caller.
const MAX_VALUE_DEPTH: usize = 64;

/// Appends `v` as serde_json writes it (compact, object keys in their order), every character
/// beyond ASCII escaped as [`string`] does.
pub fn value(out: &mut Vec<u8>, v: &Value, depth: usize) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        // Its `Display` is the serializer's text (integers as they are, floats shortest).
        Value::Number(n) => out.extend_from_slice(n.to_string().as_bytes()),
        Value::String(s) => string(out, s),
        Value::Array(items) if depth < MAX_VALUE_DEPTH => array(out, items, |out, item| value(out, item, depth + 1)),
        Value::Object(map) if depth < MAX_VALUE_DEPTH => {
            object(out, map.iter(), |out, item| value(out, item, depth + 1))
        }
        Value::Array(_) | Value::Object(_) => out.extend_from_slice(b"null"),
    }
}

/// Appends `s` as a JSON string, ASCII only: control characters, `"` and `\` escaped as
/// serde_json escapes them, every other character beyond ASCII (and DEL) as `\u` escapes of its
/// UTF-16 units.
pub fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        // The run of bytes written as they are, found a word at a time.
        i += bytes.get(i..).map_or(0, scan::json_plain);
        let Some(&b) = bytes.get(i) else { break };
        out.extend_from_slice(&bytes[run..i]);
        if b < 0x80 {
            match b {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                0x08 => out.extend_from_slice(b"\\b"),
                0x0c => out.extend_from_slice(b"\\f"),
                _ => unit(out, u16::from(b)),
            }
            i += 1;
        } else {
            let Some(c) = s.get(i..).and_then(|t| t.chars().next()) else { break };
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                unit(out, *u);
            }
            i += c.len_utf8();
        }
        run = i;
    }
    out.extend_from_slice(&bytes[run.min(bytes.len())..]);
    out.push(b'"');
}

fn unit(out: &mut Vec<u8>, u: u16) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.extend_from_slice(b"\\u");
    for shift in [12, 8, 4, 0] {
        out.push(HEX[usize::from((u >> shift) & 0xf)]);
    }
}

#[cfg(test)]
mod tests;
