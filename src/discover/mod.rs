//! Discovery: which skills each scope's store holds (scopes, roots, scan bounds, trust,
//! precedence), and the [`SkillRegistry`] that keeps what was found: a cache per scope, cheap
//! refreshes, snapshots a cold start can begin from, metadata and file reads.

mod aliases;
mod body_words;
mod gitignore;
mod metas;
pub mod metas_json;
mod order;
mod record;
mod records;
mod registry;
mod report;
mod root_listing;
mod root_scan;
mod rules;
mod scan;
mod scan_notes;
mod scan_roots;
mod stored_skill;
mod types;
// The byte level of the snapshot format, built for speed with the parse path.
use skillwasm_parse::snapshot_wire;

pub use aliases::{skill_path, Alias, QUALIFIER};
pub use gitignore::Gitignore;
pub use metas::WinnerMetas;
pub use order::precedence;
pub use record::*;
pub use records::{Record, Records, StoredRecords};
pub use registry::*;
pub use report::MAX_NAMES_LISTED;
pub use root_listing::RootListing;
pub use rules::*;
pub use scan::*;
pub use types::*;
