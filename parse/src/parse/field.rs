//! A top-level frontmatter field as both readers give it (the fast path and the YAML parser of
//! record): its key, its value and the file line of its key.

use super::fast;
use super::node::Node;

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

/// The fast path's entries as fields, with file lines.
pub(super) fn fields(entries: Vec<fast::Entry>, first_line: u32) -> Vec<Field> {
    entries.into_iter().map(|e| Field { key: e.key, value: e.value, line: Some(first_line + e.line as u32) }).collect()
}
