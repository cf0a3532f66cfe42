//! What the core module hands the package's second module about a skill a registry serves, and
//! the pages of its store listings (see `served.rs` in both façades): declared once, read and
//! written on both sides.

use serde::{Deserialize, Serialize};
use skillwasm::store::ListEntry;
use skillwasm::Mode;

/// A served skill's [`skillwasm::host::SkillSource`], without its store (the second module reads
/// it through the core module).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServedSkill {
    /// The skill's name.
    pub name: String,
    /// Its skill path in a server's namespace.
    pub path: String,
    /// The scope it was found in.
    pub scope: String,
    /// The key of its directory.
    pub directory: String,
    /// Keys per list call.
    pub page_size: u32,
    /// Largest file read.
    pub max_object_bytes: u32,
    /// How its SKILL.md is parsed.
    pub mode: Mode,
}

/// One page of a served skill's store listing.
#[derive(Serialize, Deserialize)]
pub struct ServedPage {
    /// The page's entries, as the store gave them.
    pub entries: Vec<ListEntry>,
    /// Where the next page starts.
    pub cursor: Option<String>,
    /// The store's warnings, `(key, message)`.
    pub warnings: Vec<(String, String)>,
}
