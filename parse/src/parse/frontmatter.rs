//! Frontmatter text to top-level fields: the fast path for the common YAML subset, serde_yaml for
//! the rest, and repair of sloppy YAML when serde_yaml refuses it.

use super::node::{self, Node};
use super::types::Mode;
use super::yaml::{self, Yaml};
use super::{fast, flow, repair};
use crate::diagnostic::{codes, Diagnostic};

/// Frontmatter larger than this is refused before any YAML parsing (real ones are under 4 KiB).
pub const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;

/// One top-level frontmatter key, its value and the file line of the key.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The key.
    pub key: String,
    /// Its value.
    pub value: Node,
    /// The 1-based file line of the key, when it is known.
    pub line: Option<u32>,
}

/// Parses frontmatter text whose first line is file line `first_line`. Returns the top-level
/// fields in order and the repairs made, or the diagnostic that refuses the file.
pub fn parse_frontmatter(src: &str, first_line: u32, mode: Mode) -> Result<(Vec<Field>, Vec<Diagnostic>), Diagnostic> {
    if src.len() > MAX_FRONTMATTER_BYTES {
        return Err(Diagnostic::error(
            codes::FRONTMATTER_TOO_LARGE,
            format!("the frontmatter is {} bytes; at most {} are read", src.len(), MAX_FRONTMATTER_BYTES),
        )
        .at_line(Some(first_line)));
    }
    if mode == Mode::Strict {
        if let Some(refused) = flow::refusal(src, first_line) {
            return Err(refused);
        }
    }
    match fast::read(src) {
        Ok(entries) => return Ok((fields(entries, first_line), Vec::new())),
        // Surely invalid (an unquoted `: ` in a value): straight to the repair, without asking
        // serde_yaml to confirm what it would refuse.
        Err(fast::Refusal::Invalid) if mode == Mode::Lenient => return repair_or_refuse(src, first_line),
        Err(_) => {}
    }
    match yaml::load(src) {
        Ok(value) => Ok((fields_from_yaml(&value, src, first_line)?, Vec::new())),
        Err(err) if err.unavailable => Err(unavailable(&err, first_line)),
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
fn repair_or_refuse(src: &str, first_line: u32) -> Result<(Vec<Field>, Vec<Diagnostic>), Diagnostic> {
    let Some(repaired) = repair::repair(src, first_line) else { return Err(yaml_error(src, first_line)) };
    // A repaired text is most often plain YAML again (a quoted description): the fast path reads
    // it as serde_yaml would, without a full parse.
    if let Some(entries) = fast::parse(&repaired.text) {
        return Ok((fields(entries, first_line), repaired.notes));
    }
    match yaml::load(&repaired.text) {
        Ok(value) => Ok((fields_from_yaml(&value, &repaired.text, first_line)?, repaired.notes)),
        Err(err) if err.unavailable => Err(unavailable(&err, first_line)),
        Err(_) => Err(yaml_error(src, first_line)),
    }
}

/// The refusal of frontmatter beyond the fast path's subset when no YAML parser is loaded.
fn unavailable(err: &yaml::YamlError, first_line: u32) -> Diagnostic {
    Diagnostic::error(
        codes::YAML_PARSER_UNAVAILABLE,
        format!("the frontmatter is not in the YAML subset read without a parser, and {}", err.message),
    )
    .at_line(Some(first_line))
}

/// The fast path's entries as fields, with file lines.
fn fields(entries: Vec<fast::Entry>, first_line: u32) -> Vec<Field> {
    entries.into_iter().map(|e| Field { key: e.key, value: e.value, line: Some(first_line + e.line as u32) }).collect()
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
