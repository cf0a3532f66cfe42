//! The rules every archive entry passes, whatever the archive's format: a safe relative path,
//! links that stay inside the skill (and are then left out), at most `max_entries` entries and
//! `max_skill_bytes` unpacked, each path once.

use super::limits::Limits;
use crate::diagnostic::codes;
use crate::store::keys::key_problem;
use crate::Diagnostic;
use serde::Serialize;
use std::collections::HashSet;

/// One file of an unpacked skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnpackedFile {
    /// Relative to the skill directory (`SKILL.md`, `references/forms.md`).
    pub path: String,
    /// Its bytes.
    #[serde(with = "serde_bytes")]
    pub bytes: Vec<u8>,
}

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory (nothing is kept for it).
    Directory,
    /// A symbolic or hard link.
    Link,
    /// A device, a FIFO or another kind of entry.
    Other,
}

/// Collects the entries of one archive under its [`Limits`].
pub struct Collector {
    limits: Limits,
    /// The files kept, in archive order.
    pub files: Vec<UnpackedFile>,
    /// Warnings about entries left out.
    pub warnings: Vec<Diagnostic>,
    seen: HashSet<String>,
    total: u64,
    entries: u32,
}

/// An error diagnostic that refuses the archive.
pub fn refuse(code: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, message)
}

/// `raw` as a path relative to the skill directory (`./` and a trailing `/` stripped), or why it is
/// unsafe. `None` for the root itself (`./`).
pub fn safe_path(raw: &str) -> Result<Option<String>, Diagnostic> {
    let unsafe_path = |why: &str| refuse(codes::ARCHIVE_UNSAFE, format!("the archive entry '{raw}' {why}"));
    if raw.starts_with('/') || raw.starts_with('\\') {
        return Err(unsafe_path("is an absolute path"));
    }
    let b = raw.as_bytes();
    if b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic() {
        return Err(unsafe_path("names a drive"));
    }
    if raw.contains('\\') {
        return Err(unsafe_path("has a backslash"));
    }
    let mut parts = Vec::new();
    for seg in raw.split('/') {
        match seg {
            "" | "." => {}
            ".." => return Err(unsafe_path("leaves the skill directory (`..`)")),
            s => parts.push(s),
        }
    }
    if parts.is_empty() {
        return Ok(None);
    }
    let path = parts.join("/");
    if let Some(problem) = key_problem(&path) {
        return Err(unsafe_path(&format!("is not a safe path: {}", problem.phrase())));
    }
    Ok(Some(path))
}

impl Collector {
    /// An empty collection.
    pub fn new(limits: Limits) -> Self {
        Collector { limits, files: Vec::new(), warnings: Vec::new(), seen: HashSet::new(), total: 0, entries: 0 }
    }

    /// The unpacked bytes a file may still have (the skill's remaining budget).
    pub fn remaining(&self) -> u64 {
        self.limits.max_skill_bytes.saturating_sub(self.total)
    }

    /// The skill's bound on unpacked bytes.
    pub fn limit(&self) -> u64 {
        self.limits.max_skill_bytes
    }

    /// Counts one more entry; an error past `max_entries`.
    pub fn count(&mut self) -> Result<(), Diagnostic> {
        self.entries = self.entries.saturating_add(1);
        if self.entries > self.limits.max_entries {
            return Err(too_many(self.limits.max_entries));
        }
        Ok(())
    }

    /// One entry: its raw path, kind, and (for a file) bytes or (for a link) target.
    pub fn add(&mut self, raw: &str, kind: EntryKind, data: Vec<u8>) -> Result<(), Diagnostic> {
        self.count()?;
        let Some(path) = safe_path(raw)? else { return Ok(()) };
        match kind {
            EntryKind::Directory => Ok(()),
            EntryKind::Other => {
                self.skip(&path, "is neither a file nor a directory");
                Ok(())
            }
            EntryKind::Link => {
                let target = String::from_utf8_lossy(&data);
                if !link_stays_inside(&path, &target) {
                    return Err(refuse(
                        codes::ARCHIVE_UNSAFE,
                        format!("the link '{path}' points to '{target}', outside the skill"),
                    ));
                }
                self.skip(&path, "is a link");
                Ok(())
            }
            EntryKind::File => {
                let size = data.len() as u64;
                if size > self.remaining() {
                    return Err(too_big(self.limits.max_skill_bytes));
                }
                if !self.seen.insert(path.clone()) {
                    self.skip(&path, "is given twice; the first is kept");
                    return Ok(());
                }
                self.total += size;
                self.files.push(UnpackedFile { path, bytes: data });
                Ok(())
            }
        }
    }

    fn skip(&mut self, path: &str, why: &str) {
        let mut d = Diagnostic::warning(
            codes::ARCHIVE_ENTRY_SKIPPED,
            format!("the archive entry '{path}' {why}; it is left out"),
        );
        d.path = Some(path.to_string());
        self.warnings.push(d);
    }
}

/// The error for more entries than `max`.
pub fn too_many(max: u32) -> Diagnostic {
    refuse(codes::ARCHIVE_TOO_LARGE, format!("the archive holds more than {max} entries"))
}

/// The error for more unpacked bytes than `max`.
pub fn too_big(max: u64) -> Diagnostic {
    refuse(codes::ARCHIVE_TOO_LARGE, format!("the archive unpacks to more than {max} bytes"))
}

/// Whether a link at `path` to `target` resolves inside the skill directory.
fn link_stays_inside(path: &str, target: &str) -> bool {
    if target.is_empty() || target.starts_with('/') || target.contains('\\') || target.as_bytes().get(1) == Some(&b':')
    {
        return false;
    }
    let mut depth: Vec<&str> = path.split('/').collect();
    depth.pop();
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if depth.pop().is_none() {
                    return false;
                }
            }
            s => depth.push(s),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(safe_path("./SKILL.md").ok().flatten().as_deref(), Some("SKILL.md"));
        assert_eq!(safe_path("a//b/").ok().flatten().as_deref(), Some("a/b"));
        assert_eq!(safe_path("./").ok().flatten(), None);
        for bad in ["../x", "a/../../x", "/etc/passwd", "C:/x", "a\\b", "a/%2e%2e/b"] {
            assert_eq!(safe_path(bad).err().map(|d| d.code), Some(codes::ARCHIVE_UNSAFE.to_string()), "{bad}");
        }
        assert!(link_stays_inside("a/b", "../c"));
        assert!(!link_stays_inside("a/b", "../../c"));
        assert!(!link_stays_inside("a", "/etc/passwd"));
    }
}
