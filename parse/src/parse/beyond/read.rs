//! The built-in reader of frontmatter beyond the fast path (the `yaml` feature): serde_yaml, the
//! repairs of sloppy YAML in lenient mode, and the parser's error, with file lines, for the rest.

use super::Answer;
use crate::diagnostic::{codes, Diagnostic};
use crate::parse::fast;
use crate::parse::field::{fields, Field};
use crate::parse::node::{self, Node};
use crate::parse::repair;
use crate::parse::types::Mode;
use crate::parse::yaml::{self, Yaml};

/// Reads `src` (first line `first_line` of the file), which the fast path refused (`invalid`:
/// as surely invalid), with the YAML parser of record, repairing it in lenient mode.
pub fn read(src: &str, first_line: u32, mode: Mode, invalid: bool) -> Answer {
    // Surely invalid (an unquoted `: ` in a value): straight to the repair, without asking
    // serde_yaml to confirm what it would refuse.
    if invalid && mode == Mode::Lenient {
        return repair_or_refuse(src, first_line);
    }
    match yaml::load(src) {
        Ok(value) => Ok((fields_from_yaml(&value, src, first_line)?, Vec::new())),
        Err(err) => {
            if mode == Mode::Strict || err.resource_limit {
                return Err(yaml_error(src, first_line));
            }
            repair_or_refuse(src, first_line)
        }
    }
}

/// Lenient mode's answer to frontmatter serde_yaml refuses: the repaired text's fields and the
/// repairs made, or the parser's error when no repair makes it parse.
fn repair_or_refuse(src: &str, first_line: u32) -> Answer {
    let Some(repaired) = repair::repair(src, first_line) else { return Err(yaml_error(src, first_line)) };
    // A repaired text is most often plain YAML again (a quoted description): the fast path reads
    // it as serde_yaml would, without a full parse.
    if let Some(entries) = fast::parse(&repaired.text) {
        return Ok((fields(entries, first_line), repaired.notes));
    }
    match yaml::load(&repaired.text) {
        Ok(value) => Ok((fields_from_yaml(&value, &repaired.text, first_line)?, repaired.notes)),
        Err(_) => Err(yaml_error(src, first_line)),
    }
}

/// The parser's error for `src`, with line numbers of the file: the text is parsed again behind
/// as many empty lines as precede it, so the message and the diagnostic count lines alike.
fn yaml_error(src: &str, first_line: u32) -> Diagnostic {
    let padded = "\n".repeat(first_line.saturating_sub(1) as usize) + src;
    match yaml::load(&padded) {
        Err(err) => Diagnostic::error(codes::YAML_INVALID, format!("Invalid YAML in frontmatter: {}", err.message))
            .at_line(err.line),
        Ok(_) => Diagnostic::error(codes::YAML_INVALID, "Invalid YAML in frontmatter").at_line(Some(first_line)),
    }
}

fn fields_from_yaml(value: &Yaml, src: &str, first_line: u32) -> Result<Vec<Field>, Diagnostic> {
    let raw = |path: &[&str]| node::raw_plain_value(src, path);
    match value {
        Yaml::Null => Ok(Vec::new()),
        Yaml::Map(_) => match Node::from_yaml(value, &raw, &mut Vec::new()) {
            Node::Map(entries) => Ok(entries
                .into_iter()
                .map(|(key, value)| {
                    let line = key_line(src, &key).map(|i| first_line + i);
                    Field { key, value, line }
                })
                .collect()),
            _ => Err(not_mapping(first_line)),
        },
        _ => Err(not_mapping(first_line)),
    }
}

fn not_mapping(first_line: u32) -> Diagnostic {
    Diagnostic::error(codes::FRONTMATTER_NOT_MAPPING, "SKILL.md frontmatter must be a YAML mapping")
        .at_line(Some(first_line))
}

/// 0-based line of a top-level `key:` in `src`.
fn key_line(src: &str, key: &str) -> Option<u32> {
    src.split('\n')
        .position(|l| {
            let l = l.trim_start_matches(['"', '\'']);
            l.strip_prefix(key).is_some_and(|r| r.trim_start_matches(['"', '\'']).starts_with(':'))
        })
        .map(|i| i as u32)
}
