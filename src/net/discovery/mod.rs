//! The Agent Skills Discovery index (the well-known URI RFC, v0.2.0 with the v0.1.0 fallback), as
//! a client and as a publisher.
//!
//! Everything that can be checked is checked here, so every runtime applies the same rules:
//! [`index`] reads an index (schemas, entries, URLs resolved per RFC 3986 by [`super::url`]),
//! [`super::origin`] applies the host's origin policy to every URL a store requests (entries,
//! redirects), [`unpack`] verifies an artifact's digest ([`super::digest`]) and unpacks it
//! ([`super::archive`]) under the traversal, link, entry-count and size limits of [`Limits`], and
//! [`publish`] writes an index and deterministic artifacts for a set of skills. The network itself
//! is the host's: these functions take and return bytes.

pub mod index;
pub mod publish;
pub mod publish_registry;
pub mod unpack;

pub use super::archive::Limits;
pub use index::{parse_index, IndexSkill, ParsedIndex, SkillKind};
pub use publish::{publish_well_known, PublishOptions, Published, PublishedArtifact};
pub use publish_registry::publish_registry;
pub use unpack::{unpack_artifact, ArtifactKind, Unpacked, UnpackedFile};

/// The `$schema` of a v0.2.0 index.
pub const SCHEMA_V0_2_0: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/// Where a v0.2.0 index is, below a site's base URL.
pub const INDEX_PATH: &str = ".well-known/agent-skills/index.json";
/// Where a v0.1.0 index is, below a site's base URL.
pub const INDEX_PATH_V0_1_0: &str = ".well-known/skills/index.json";
