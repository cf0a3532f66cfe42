//! The archives a skill travels in: gzip'd tar and zip, read ([`tar`], [`zip`], [`inflate`],
//! [`crc32`]) under the entry rules of [`entries`] and the bounds of [`Limits`], and tar written
//! for publishing.

pub mod crc32;
pub mod entries;
pub mod inflate;
pub mod limits;
pub mod tar;
pub mod zip;

pub use entries::UnpackedFile;
pub use limits::{Limits, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_SKILL_BYTES};
