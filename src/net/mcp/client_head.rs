//! A listed frontmatter written back as the opening of a SKILL.md (`---`, YAML, `---`): what
//! discovery parses instead of fetching the file, so the registry is built from the entries alone.
//!
//! Servers render a frontmatter as JSON in one of two ways: every scalar as its text (a server
//! that keeps what the author wrote: `version: 1.10` is `"1.10"`, `disable-model-invocation: true`
//! is `"true"`), or typed (numbers, booleans, null as JSON ones). A frontmatter whose scalars are
//! all strings is taken as the first kind: a string that can be written as a plain scalar is
//! written plain, so it means what the author's plain scalar meant (`"true"` is a boolean again).
//! Otherwise strings are quoted unless they read back as strings. Either way the head reads back
//! to the listed values (the SKILL.md itself is later compared with them field by field).
//!
//! Under `metadata`, whose values the specification says are strings, a string is always written
//! so that it reads back as one: a typed server's `"1.10"` was quoted by its author, and a plain
//! `1.10` of a server that keeps the text means the same string, so neither earns the warning a
//! plain number under `metadata` would.

use serde_json::{Map, Value};

/// Deeper values than this are written as null (the bounded readers never give one).
const MAX_DEPTH: u32 = 64;

/// The head for `frontmatter`.
pub fn render(frontmatter: &Map<String, Value>) -> String {
    let as_written = frontmatter.values().all(all_strings);
    let mut out = String::with_capacity(256);
    out.push_str("---\n");
    map(&mut out, frontmatter, 0, 0, as_written);
    out.push_str("---\n");
    out
}

fn all_strings(v: &Value) -> bool {
    match v {
        Value::String(_) | Value::Null => true,
        Value::Array(a) => a.iter().all(all_strings),
        Value::Object(m) => m.values().all(all_strings),
        Value::Bool(_) | Value::Number(_) => false,
    }
}

fn indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// The key whose values are strings by the specification.
const METADATA: &str = "metadata";

fn map(out: &mut String, m: &Map<String, Value>, at: usize, depth: u32, as_written: bool) {
    for (k, v) in m {
        indent(out, at);
        string(out, k, true);
        out.push(':');
        let as_written = as_written && !(depth == 0 && k == METADATA);
        nested(out, v, at, depth, as_written);
    }
}

fn seq(out: &mut String, items: &[Value], at: usize, depth: u32, as_written: bool) {
    for v in items {
        indent(out, at);
        out.push('-');
        nested(out, v, at, depth, as_written);
    }
}

/// A value after `key:` or `-`: on the same line when it is a scalar or empty, else below.
fn nested(out: &mut String, v: &Value, at: usize, depth: u32, as_written: bool) {
    if depth >= MAX_DEPTH {
        out.push_str(" null\n");
        return;
    }
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            map(out, m, at + 2, depth + 1, as_written);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            seq(out, a, at + 2, depth + 1, as_written);
        }
        Value::Object(_) => out.push_str(" {}\n"),
        Value::Array(_) => out.push_str(" []\n"),
        // An empty value, as authors write one (`related-skills:`); it reads back as null.
        Value::Null => out.push('\n'),
        Value::Bool(b) => out.push_str(if *b { " true\n" } else { " false\n" }),
        Value::Number(n) => {
            out.push(' ');
            out.push_str(&n.to_string());
            out.push('\n');
        }
        Value::String(s) => {
            out.push(' ');
            string(out, s, as_written);
            out.push('\n');
        }
    }
}

/// A string, plain when `plain_ok` and it can be written so, else double-quoted (JSON's escapes
/// are YAML's).
fn string(out: &mut String, s: &str, plain_ok: bool) {
    let resolves_as_string = crate::parse::node::resolve_plain(s) == crate::parse::node::Resolved::String;
    if can_be_plain(s) && (plain_ok || resolves_as_string) {
        out.push_str(s);
    } else {
        out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string()));
    }
}

/// Whether `s` reads back as a plain scalar of exactly this text, in block context.
fn can_be_plain(s: &str) -> bool {
    let Some(first) = s.chars().next() else { return false };
    if s.trim() != s || s.chars().any(|c| c.is_control() || c == '\u{feff}') {
        return false;
    }
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        return false;
    }
    !(s.contains(": ") || s.contains(" #") || s.ends_with(':') || s == "---" || s == "...")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn heads_read_back_to_what_was_listed() {
        let as_text = json!({ "name": "a", "description": "Use when: x # y", "disable-model-invocation": "true",
            "metadata": { "version": "1.10", "tags": ["a", "- b", ""] }, "empty": {}, "list": [] });
        let head = render(as_text.as_object().unwrap());
        assert!(head.contains("disable-model-invocation: true\n"), "{head}");
        assert!(head.contains("version: \"1.10\"\n"), "{head}");
        assert!(head.contains("description: \"Use when: x # y\"\n"), "{head}");
        let typed = json!({ "name": "a", "description": "true", "n": 1.5, "b": false, "z": null });
        let head2 = render(typed.as_object().unwrap());
        assert!(head2.contains("description: \"true\"\n") && head2.contains("n: 1.5\n"), "{head2}");
        for (listed, head) in [(&as_text, &head), (&typed, &head2)] {
            let r = crate::net::mcp::verify::compare_frontmatter(listed.as_object().unwrap(), head.as_bytes());
            assert_eq!(r, Ok(()), "{head}");
        }
    }

    #[test]
    fn quoted_metadata_strings_read_back_as_strings_without_a_warning() {
        // As a typed server lists `version: "1.10"` and `build: "7"`, and a text-keeping one too.
        let listed = json!({ "name": "a", "description": "d", "disable-model-invocation": "true",
            "metadata": { "version": "1.10", "build": "7", "flag": "true", "tags": ["1.0"] } });
        let head = render(listed.as_object().unwrap());
        assert!(head.contains("version: \"1.10\"\n") && head.contains("build: \"7\"\n"), "{head}");
        assert!(head.contains("disable-model-invocation: true\n"), "{head}");
        let parsed = crate::parse::parse_skill(head.as_bytes(), &crate::parse::ParseOptions::default());
        let codes: Vec<&str> = parsed.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert!(!codes.contains(&crate::diagnostic::codes::METADATA_NOT_STRING), "{codes:?}\n{head}");
        let r = crate::net::mcp::verify::compare_frontmatter(listed.as_object().unwrap(), head.as_bytes());
        assert_eq!(r, Ok(()), "{head}");
    }
}
