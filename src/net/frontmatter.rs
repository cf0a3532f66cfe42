//! A SKILL.md's frontmatter as the JSON object a skill entry carries: every field the author
//! wrote, in order, with YAML's core-schema types (plain `true` is a boolean, plain `3` and `1.5`
//! are numbers, plain `null`, `~` or nothing is null, everything quoted or in a block is a
//! string). A number JSON cannot hold (`.inf`, `.nan`, an integer past 64 bits) keeps its text.
//! The fences and the YAML are read by [`crate::parse`], lenient repairs included, so the object
//! is the frontmatter the registry read.

use crate::diagnostic::Diagnostic;
use crate::parse::fence::{self, FenceError};
use crate::parse::node::{resolve_plain, Node, Resolved, Style};
use crate::parse::{parse_frontmatter, Mode};
use serde_json::{Map, Number, Value};

/// The frontmatter of the SKILL.md `bytes` as a JSON object, or the diagnostic that refuses it.
pub fn frontmatter_json(bytes: &[u8], mode: Mode) -> Result<Map<String, Value>, Diagnostic> {
    let split = match fence::split(bytes, false) {
        Ok(s) => s,
        Err(FenceError::Refused(d)) => return Err(d),
        Err(FenceError::Incomplete) => {
            return Err(Diagnostic::error(crate::diagnostic::codes::FRONTMATTER_UNCLOSED, "no closing ---"))
        }
    };
    let (fields, _) = parse_frontmatter(split.frontmatter(), split.first_line, mode)?;
    Ok(fields.into_iter().map(|f| (f.key, typed(&f.value))).collect())
}

/// `node` as JSON with the core schema's types.
pub fn typed(node: &Node) -> Value {
    match node {
        Node::Scalar { text, style: Style::Plain } => match resolve_plain(text) {
            Resolved::Null => Value::Null,
            Resolved::Bool(b) => Value::Bool(b),
            Resolved::Number => number(text).map_or_else(|| Value::String(text.clone()), Value::Number),
            Resolved::String => Value::String(text.clone()),
        },
        Node::Scalar { text, .. } => Value::String(text.clone()),
        Node::Seq(items) => Value::Array(items.iter().map(typed).collect()),
        Node::Map(entries) => Value::Object(entries.iter().map(|(k, v)| (k.clone(), typed(v))).collect()),
    }
}

fn number(text: &str) -> Option<Number> {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => (-1i64, rest),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    let radix = |p: &str, r: u32| digits.strip_prefix(p).and_then(|d| i64::from_str_radix(d, r).ok());
    if let Some(n) = radix("0x", 16).or_else(|| radix("0o", 8)) {
        return Some(Number::from(sign.checked_mul(n)?));
    }
    if let Ok(n) = text.parse::<i64>() {
        return Some(Number::from(n));
    }
    if let Ok(n) = text.parse::<u64>() {
        return Some(Number::from(n));
    }
    let is_float = text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
    text.parse::<f64>().ok().filter(|_| is_float).and_then(Number::from_f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_keep_their_order_and_core_schema_types() {
        let md = b"---\nname: pdf\ndescription: 'Fill: forms'\nversion: 1.10\ncount: 3\nhex: 0x1F\non: true\nnone: ~\nquoted: \"true\"\nlicense: Apache-2.0\nmetadata:\n  author: me\n  tags: [a, b]\nbig: 99999999999999999999999\ninf: .inf\n---\nbody\n";
        let fm = frontmatter_json(md, Mode::Lenient).unwrap_or_default();
        assert_eq!(
            Value::Object(fm.clone()),
            json!({
                "name": "pdf", "description": "Fill: forms", "version": 1.1, "count": 3, "hex": 31,
                "on": true, "none": null, "quoted": "true", "license": "Apache-2.0",
                "metadata": { "author": "me", "tags": ["a", "b"] },
                "big": "99999999999999999999999", "inf": ".inf"
            })
        );
        assert_eq!(fm.keys().next().map(String::as_str), Some("name"));
    }

    #[test]
    fn refuses_what_the_parser_refuses() {
        assert!(frontmatter_json(b"no fence", Mode::Lenient).is_err());
        assert!(frontmatter_json(b"---\nname: x\n", Mode::Lenient).is_err());
        assert!(frontmatter_json(b"---\nname: [\n---\n", Mode::Strict).is_err());
    }
}
