//! The naming rules of discovery, in one place: which directories are never a skill's (and are not
//! walked), and which file names make a directory a skill. The CLI and the playground reach them
//! through the package's exports instead of repeating them.

use crate::store::SkipHint;

/// Directory names discovery skips besides dot-directories (`.git` is one of those, named here too
/// so that a store honouring only names still skips it).
pub const SKIPPED_DIRECTORY_NAMES: [&str; 2] = [".git", "node_modules"];

/// The file that makes a directory a skill.
pub const SKILL_FILE_NAME: &str = "SKILL.md";

/// The lowercase spelling, accepted (with a warning) only when the host asks.
pub const LOWERCASE_SKILL_FILE_NAME: &str = "skill.md";

/// Directories discovery does not enter, and whose files are not a skill's: `.git/`,
/// `node_modules/` and every other dot-directory.
pub fn is_skipped_dir(segment: &str) -> bool {
    is_skipped_dir_bytes(segment.as_bytes())
}

/// [`is_skipped_dir`] of a segment's bytes (for a listing's keys, split byte by byte).
pub fn is_skipped_dir_bytes(segment: &[u8]) -> bool {
    segment.first() == Some(&b'.') || SKIPPED_DIRECTORY_NAMES.iter().any(|n| n.as_bytes() == segment)
}

/// The skip rule as data, for stores that can leave those directories out of a listing.
pub fn skip_hint() -> SkipHint {
    SkipHint { names: SKIPPED_DIRECTORY_NAMES.iter().map(|s| s.to_string()).collect(), dot_directories: true }
}

/// The file names that make a directory a skill, preferred first.
pub fn skill_file_names(accept_lowercase: bool) -> Vec<&'static str> {
    if accept_lowercase {
        vec![SKILL_FILE_NAME, LOWERCASE_SKILL_FILE_NAME]
    } else {
        vec![SKILL_FILE_NAME]
    }
}

/// Whether `name` makes its directory a skill: `Some(false)` for `SKILL.md`, `Some(true)` for the
/// lowercase spelling when accepted, `None` otherwise.
pub fn skill_file_kind(name: &str, accept_lowercase: bool) -> Option<bool> {
    match name {
        SKILL_FILE_NAME => Some(false),
        LOWERCASE_SKILL_FILE_NAME if accept_lowercase => Some(true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_is_the_rule() {
        let hint = skip_hint();
        for name in [".git", "node_modules", ".venv", ".agents", "src", "scripts", "node_modules2", "a.b", "_x"] {
            assert_eq!(hint.skips(name), is_skipped_dir(name), "{name}");
        }
    }

    #[test]
    fn skill_file_names_in_order() {
        assert_eq!(skill_file_names(false), ["SKILL.md"]);
        assert_eq!(skill_file_names(true), ["SKILL.md", "skill.md"]);
        assert_eq!(skill_file_kind("SKILL.md", false), Some(false));
        assert_eq!(skill_file_kind("skill.md", false), None);
        assert_eq!(skill_file_kind("skill.md", true), Some(true));
        assert_eq!(skill_file_kind("Skill.md", true), None);
    }
}
