//! Frontmatter beyond the fast path: what the fast path does not read (YAML outside its subset)
//! or calls invalid on its face. serde_yaml, the YAML parser of record, reads it; in lenient mode
//! sloppy YAML it refuses is repaired; the parser's error refuses the rest.
//!
//! Nearly no real frontmatter comes here (one file of the corpus's 776), so a host may keep this
//! path elsewhere: the wasm package's core module leaves serde_yaml and the repairs out and asks
//! the package's second module, which runs `read` there, through [`set_reader`] and
//! [`super::beyond_wire`]. With the `yaml` feature (on by default) `read` is built in; without it
//! neither serde_yaml nor the repairs are compiled.

use std::sync::OnceLock;

use super::field::Field;
use super::types::Mode;
use crate::diagnostic::{codes, Diagnostic};

#[cfg(feature = "yaml")]
mod read;
#[cfg(feature = "yaml")]
pub use read::read;

/// The top-level fields and the repairs made, or the diagnostic that refuses the file.
pub type Answer = Result<(Vec<Field>, Vec<Diagnostic>), Diagnostic>;

/// A reader of frontmatter beyond the fast path that a host installs with [`set_reader`]: the
/// text, the file line of its first line, the mode, and whether the fast path called it invalid.
pub type Reader = fn(&str, u32, Mode, bool) -> Answer;

/// The reader a host installed with [`set_reader`].
static READER: OnceLock<Reader> = OnceLock::new();

/// Installs the reader used instead of the built-in one (`read`, with the `yaml` feature). The
/// first installation wins; returns whether this one was taken.
pub fn set_reader(reader: Reader) -> bool {
    READER.set(reader).is_ok()
}

/// Reads frontmatter the fast path refused: the installed reader ([`set_reader`]), else `read`
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
