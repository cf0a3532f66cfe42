//! Frontmatter beyond the fast path: what the fast path does not read (YAML outside its subset)
//! or calls invalid on its face. serde_yaml, the YAML parser of record, reads it; in lenient mode
//! sloppy YAML it refuses is repaired; the parser's error refuses the rest.
//!
//! Nearly no real frontmatter comes here (one file of the corpus's 776), so a host may keep this
//! path elsewhere: the wasm package's core module leaves serde_yaml and the repairs out and asks
//! the package's second module, which installs [`read`] there, through [`set_reader`] and
//! [`super::beyond_wire`]. With the `yaml` feature (on by default) it is built in.

use std::sync::OnceLock;

use super::fast;
use super::frontmatter::{fields, Field};
use super::node::{self, Node};
use super::repair;
use super::types::Mode;
use super::yaml::{self, Yaml};
use crate::diagnostic::{codes, Diagnostic};

/// The top-level fields and the repairs made, or the diagnostic that refuses the file.
pub type Answer = Result<(Vec<Field>, Vec<Diagnostic>), Diagnostic>;

/// A reader of frontmatter beyond the fast path that a host installs with [`set_reader`]: the
/// text, the file line of its first line, the mode, and whether the fast path called it invalid.
pub type Reader = fn(&str, u32, Mode, bool) -> Answer;

/// The reader a host installed with [`set_reader`].
static READER: OnceLock<Reader> = OnceLock::new();

/// Installs the reader used instead of the built-in one ([`read`], with the `yaml` feature). The
/// first installation wins; returns whether this one was taken.
pub fn set_reader(reader: Reader) -> bool {
    READER.set(reader).is_ok()
}

/// Reads frontmatter the fast path refused: the installed reader ([`set_reader`]), else [`read`]
/// (the `yaml` feature), else the refusal that says no parser is there.
pub(super) fn dispatch(src: &str, first_line: u32, mode: Mode, invalid: bool) -> Answer {
    match READER.get() {
        Some(reader) => reader(src, first_line, mode, invalid),
        None => builtin(src, first_line, mode, invalid),
    }
}

#[cfg(feature = "yaml")]
fn builtin(src: &str, first_line: u32, mode: Mode, invalid: bool) -> Answer {
    read(src, first_line, mode, invalid)
}

#[cfg(not(feature = "yaml"))]
fn builtin(_src: &str, first_line: u32, _mode: Mode, _invalid: bool) -> Answer {
    Err(unavailable("no YAML parser is installed", first_line))
}

/// The refusal of frontmatter beyond the fast path's subset when no parser could read it:
/// `why` says what went wrong (no parser, one that failed, a damaged answer).
pub fn unavailable(why: &str, first_line: u32) -> Diagnostic {
    Diagnostic::error(
        codes::YAML_PARSER_UNAVAILABLE,
        format!("the frontmatter is not in the YAML subset read without a parser, and {why}"),
    )
    .at_line(Some(first_line))
}

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
        Err(err) if err.unavailable => Err(unavailable(&err.message, first_line)),
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
        Err(err) if err.unavailable => Err(unavailable(&err.message, first_line)),
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
