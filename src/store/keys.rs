//! Storage keys and skill-relative paths. Every key is checked here before any storage call, so
//! traversal is refused before I/O; adapters check again on their own.

/// Why a key or path was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError(pub String);

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(what: &str, key: &str, why: &str) -> Result<T, PathError> {
    Err(PathError(format!("{what} {key:?} {why}")))
}

/// The rule a key or prefix breaks. The JS adapters check the same rules in the same order with
/// the same wording (`pkg-template/storage/keys.js`); `tests/cases/keys.json` holds both to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyProblem {
    /// The key is empty.
    Empty,
    /// It starts with `/`.
    Absolute,
    /// It holds a backslash.
    Backslash,
    /// It holds a control character (Unicode general category Cc).
    Control,
    /// It holds `%2e`, `%2f` or `%5c` in any case.
    Encoded,
    /// It has an empty segment (`//` or a trailing `/`).
    EmptySegment,
    /// It has a `.` or `..` segment.
    DotSegment,
    /// A prefix that is neither empty nor ends with `/`.
    NotAPrefix,
}

impl KeyProblem {
    /// The stable name of the rule.
    pub fn code(self) -> &'static str {
        match self {
            KeyProblem::Empty => "empty",
            KeyProblem::Absolute => "absolute",
            KeyProblem::Backslash => "backslash",
            KeyProblem::Control => "control",
            KeyProblem::Encoded => "encoded",
            KeyProblem::EmptySegment => "empty-segment",
            KeyProblem::DotSegment => "dot-segment",
            KeyProblem::NotAPrefix => "not-a-prefix",
        }
    }

    /// What the rule asks, as messages word it.
    pub fn phrase(self) -> &'static str {
        match self {
            KeyProblem::Empty => "must not be empty",
            KeyProblem::Absolute => "must be relative (it starts with '/')",
            KeyProblem::Backslash => "must not contain a backslash",
            KeyProblem::Control => "must not contain control characters",
            KeyProblem::Encoded => "must not contain a percent-encoded '.', '/' or '\\'",
            KeyProblem::EmptySegment => "must not contain an empty segment ('//' or a trailing '/')",
            KeyProblem::DotSegment => "must not contain a '.' or '..' segment",
            KeyProblem::NotAPrefix => "must be \"\" or end with '/'",
        }
    }
}

/// The first rule `key` breaks, or `None` for a valid key.
pub fn key_problem(key: &str) -> Option<KeyProblem> {
    if key.is_empty() {
        return Some(KeyProblem::Empty);
    }
    if key.starts_with('/') {
        return Some(KeyProblem::Absolute);
    }
    // Byte scans, no allocation: every listed key of every discovery comes through here.
    let bytes = key.as_bytes();
    if bytes.contains(&b'\\') {
        return Some(KeyProblem::Backslash);
    }
    let control =
        if bytes.is_ascii() { bytes.iter().any(u8::is_ascii_control) } else { key.chars().any(char::is_control) };
    if control {
        return Some(KeyProblem::Control);
    }
    let encoded = |w: &[u8]| {
        w.first() == Some(&b'%')
            && [b"2e", b"2f", b"5c"].iter().any(|code| w.get(1..).is_some_and(|rest| rest.eq_ignore_ascii_case(*code)))
    };
    if bytes.contains(&b'%') && bytes.windows(3).any(encoded) {
        return Some(KeyProblem::Encoded);
    }
    for seg in bytes.split(|&b| b == b'/') {
        match seg {
            b"" => return Some(KeyProblem::EmptySegment),
            b"." | b".." => return Some(KeyProblem::DotSegment),
            _ => {}
        }
    }
    None
}

/// The first rule `prefix` breaks, or `None` for a valid prefix (`""` or a key followed by `/`).
pub fn prefix_problem(prefix: &str) -> Option<KeyProblem> {
    if prefix.is_empty() {
        return None;
    }
    match prefix.strip_suffix('/') {
        Some(k) => key_problem(k),
        None => Some(KeyProblem::NotAPrefix),
    }
}

/// A storage key: `/`-separated, relative, non-empty segments, none of them `.` or `..`, no
/// backslash, no control character, no percent-encoded dot, slash or backslash.
pub fn check_key(key: &str) -> Result<(), PathError> {
    match key_problem(key) {
        Some(p) => err("key", key, p.phrase()),
        None => Ok(()),
    }
}

/// A list prefix: empty, or a valid key followed by `/`.
pub fn check_prefix(prefix: &str) -> Result<(), PathError> {
    match prefix_problem(prefix) {
        Some(p) => err("prefix", prefix, p.phrase()),
        None => Ok(()),
    }
}

/// Joins a skill-relative path onto the skill's directory key (`""` for a store root), after
/// normalising it (`./a//b` is `a/b`) and refusing anything that could leave the directory:
/// `..`, absolute paths, drive letters, `~`, backslashes, encoded separators.
pub fn resolve_in_skill(skill_dir: &str, rel: &str) -> Result<String, PathError> {
    let trimmed = rel.trim();
    if trimmed.starts_with('/') || trimmed.starts_with('~') || trimmed.as_bytes().get(1) == Some(&b':') {
        return err("path", rel, "is absolute; give a path relative to the skill directory");
    }
    let mut parts = Vec::new();
    for seg in trimmed.split('/') {
        match seg {
            "" | "." => {}
            ".." => return err("path", rel, "leaves the skill directory"),
            s => parts.push(s),
        }
    }
    if parts.is_empty() {
        return err("path", rel, "names no file");
    }
    let joined = parts.join("/");
    let key = if skill_dir.is_empty() { joined } else { format!("{skill_dir}/{joined}") };
    check_key(&key).map_err(|e| PathError(format!("path {rel:?} refused: {e}")))?;
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        for ok in ["a", "a/b.md", ".agents/skills/x/SKILL.md", "a b/c", "技能/SKILL.md", "a/.hidden"] {
            assert_eq!(check_key(ok), Ok(()), "{ok}");
        }
        for bad in
            ["", "/abs", "a/../b", "a/./b", "..", "a\\b", "a//b", "a/", "a\u{0}b", "a/%2e%2e/b", "a%2Fb", "x/%5C"]
        {
            assert!(check_key(bad).is_err(), "{bad:?} accepted");
        }
        assert!(check_prefix("").is_ok());
        assert!(check_prefix(".agents/skills/").is_ok());
        assert!(check_prefix(".agents/skills").is_err());
        assert!(check_prefix("../").is_err());
    }

    #[test]
    fn skill_paths() {
        assert_eq!(resolve_in_skill("s/pdf", "references/a.md").unwrap(), "s/pdf/references/a.md");
        assert_eq!(resolve_in_skill("s/pdf", "./scripts//run.sh").unwrap(), "s/pdf/scripts/run.sh");
        assert_eq!(resolve_in_skill("", "a.md").unwrap(), "a.md");
        for bad in ["../x", "a/../../x", "/etc/passwd", "~/x", "C:\\x", "a\\..\\b", "", ".", "a/%2e%2e/b", "a/\u{0}"] {
            assert!(resolve_in_skill("s/pdf", bad).is_err(), "{bad:?} accepted");
        }
    }
}
