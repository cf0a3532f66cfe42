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

/// A storage key: `/`-separated, relative, non-empty segments, none of them `.` or `..`, no
/// backslash, no control character, no percent-encoded dot, slash or backslash.
pub fn check_key(key: &str) -> Result<(), PathError> {
    check(key, "key")
}

/// A list prefix: empty, or a valid key followed by `/`.
pub fn check_prefix(prefix: &str) -> Result<(), PathError> {
    if prefix.is_empty() {
        return Ok(());
    }
    match prefix.strip_suffix('/') {
        Some(k) => check(k, "prefix"),
        None => err("prefix", prefix, "must be empty or end with '/'"),
    }
}

fn check(key: &str, what: &str) -> Result<(), PathError> {
    if key.is_empty() {
        return err(what, key, "is empty");
    }
    if key.starts_with('/') {
        return err(what, key, "is absolute");
    }
    if key.contains('\\') {
        return err(what, key, "contains a backslash");
    }
    if key.chars().any(char::is_control) {
        return err(what, key, "contains a control character");
    }
    let lower = key.to_ascii_lowercase();
    if lower.contains("%2e") || lower.contains("%2f") || lower.contains("%5c") {
        return err(what, key, "contains a percent-encoded '.', '/' or '\\'");
    }
    for seg in key.split('/') {
        match seg {
            "" => return err(what, key, "has an empty segment"),
            "." | ".." => return err(what, key, "has a '.' or '..' segment"),
            _ => {}
        }
    }
    Ok(())
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
