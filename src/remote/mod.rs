//! Skills over the network: the Agent Skills Discovery index (the well-known URI RFC, v0.2.0 with
//! the v0.1.0 fallback), as a client and as a publisher.
//!
//! Everything that can be checked is checked here, so every runtime applies the same rules:
//! [`index`] reads an index (schemas, entries, URLs resolved per RFC 3986 by [`url`]), [`origin`]
//! applies the host's origin policy to every URL a store requests (entries, redirects), [`unpack`]
//! verifies an artifact's digest ([`digest`]) and unpacks it ([`tar`], [`zip`], [`inflate`]) under
//! the traversal, link, entry-count and size limits of [`Limits`], and [`publish`] writes an index
//! and deterministic artifacts for a set of skills. The network itself is the host's: these
//! functions take and return bytes.

pub mod crc32;
pub mod digest;
pub mod entries;
pub mod index;
pub mod inflate;
pub mod origin;
pub mod publish;
pub mod publish_registry;
pub mod tar;
pub mod unpack;
pub mod url;
pub mod zip;

pub use index::{parse_index, IndexSkill, ParsedIndex, SkillKind};
pub use origin::{OriginPolicy, Target, MAX_REDIRECTS};
pub use publish::{publish_well_known, PublishOptions, Published, PublishedArtifact};
pub use publish_registry::publish_registry;
pub use unpack::{unpack_artifact, ArtifactKind, Unpacked, UnpackedFile};

/// The `$schema` of a v0.2.0 index.
pub const SCHEMA_V0_2_0: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/// Where a v0.2.0 index is, below a site's base URL.
pub const INDEX_PATH: &str = ".well-known/agent-skills/index.json";
/// Where a v0.1.0 index is, below a site's base URL.
pub const INDEX_PATH_V0_1_0: &str = ".well-known/skills/index.json";

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
