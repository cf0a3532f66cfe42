//! Frontmatter text to top-level fields: the fast path for the common YAML subset, and
//! [`super::beyond`] (serde_yaml, repairs) for the rest.

use super::node::Node;
use super::types::Mode;
use super::{beyond, fast, flow};
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
        Ok(entries) => Ok((fields(entries, first_line), Vec::new())),
        Err(refusal) => beyond::dispatch(src, first_line, mode, refusal == fast::Refusal::Invalid),
    }
}

/// The fast path's entries as fields, with file lines.
pub(super) fn fields(entries: Vec<fast::Entry>, first_line: u32) -> Vec<Field> {
    entries.into_iter().map(|e| Field { key: e.key, value: e.value, line: Some(first_line + e.line as u32) }).collect()
}
