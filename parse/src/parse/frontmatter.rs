//! Frontmatter text to top-level fields: the fast path for the common YAML subset, and
//! [`super::beyond`] (serde_yaml, repairs) for the rest.

use super::field::{fields, Field};
use super::types::Mode;
use super::{beyond, fast, flow};
use crate::diagnostic::{codes, Diagnostic};

/// Frontmatter larger than this is refused before any YAML parsing (real ones are under 4 KiB).
pub const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;

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
