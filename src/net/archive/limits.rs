//! Bounds on what one artifact may unpack to, which every archive format's reader keeps.

/// Bounds on what one artifact may unpack to. The defaults follow the MCP Skills extension's
/// per-skill limits (512 files, 16 MiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes an artifact (the raw download) may have.
    pub max_artifact_bytes: u64,
    /// Most bytes all of a skill's files may have together, unpacked.
    pub max_skill_bytes: u64,
    /// Most entries an archive may hold (files, directories and links alike).
    pub max_entries: u32,
}

/// Default [`Limits::max_skill_bytes`] and [`Limits::max_artifact_bytes`]: 16 MiB.
pub const DEFAULT_MAX_SKILL_BYTES: u64 = 16 * 1024 * 1024;
/// Default [`Limits::max_entries`].
pub const DEFAULT_MAX_ENTRIES: u32 = 512;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_artifact_bytes: DEFAULT_MAX_SKILL_BYTES,
            max_skill_bytes: DEFAULT_MAX_SKILL_BYTES,
            max_entries: DEFAULT_MAX_ENTRIES,
        }
    }
}
