//! The skip hint of a listing: directories the caller will drop from what a store lists, sent to
//! the store as data so that a store which walks directories (a filesystem) need not enter them.
//!
//! A hint only ever saves work: the caller still filters every key that comes back, so a store
//! that ignores the hint (an object store that lists flat keys) stays correct.

/// Directories below the listed prefix that the caller does not need: any key with such a
/// directory segment after the prefix may be left out of the listing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SkipHint {
    /// Directory names to leave out, compared with a whole segment (`node_modules`).
    pub names: Vec<String>,
    /// Leave out every directory whose name starts with `.` (`.git`, `.venv` ...). Files whose
    /// name starts with `.` are still listed.
    pub dot_directories: bool,
}

impl SkipHint {
    /// Whether a directory named `segment` (one path segment, below the listed prefix) may be left
    /// out.
    pub fn skips(&self, segment: &str) -> bool {
        (self.dot_directories && segment.starts_with('.')) || self.names.iter().any(|n| n == segment)
    }

    /// Whether the hint leaves nothing out.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && !self.dot_directories
    }

    /// Whether `key`, listed under `prefix`, lies in a directory the hint leaves out.
    pub fn skips_key(&self, prefix: &str, key: &str) -> bool {
        let Some(rel) = key.strip_prefix(prefix) else { return false };
        let mut parts = rel.split('/');
        parts.next_back();
        parts.any(|p| self.skips(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_only_and_only_below_the_prefix() {
        let hint = SkipHint { names: vec!["node_modules".into()], dot_directories: true };
        assert!(hint.skips(".git") && hint.skips("node_modules") && !hint.skips("src"));
        assert!(hint.skips_key("", ".git/config"));
        assert!(hint.skips_key("s/", "s/a/node_modules/x/SKILL.md"));
        // The prefix itself may hold dot segments; a dot file is not a directory.
        assert!(!hint.skips_key(".agents/skills/", ".agents/skills/a/SKILL.md"));
        assert!(!hint.skips_key("", "a/.gitignore"));
        assert!(SkipHint::default().is_empty() && !hint.is_empty());
    }
}
