//! Snapshots: the registry as bytes a cold start can begin from without one store call.

use super::{DiscoverOptions, ScopeHandle, SkillRecord, SkillRegistry};
use crate::diagnostic::{codes, Diagnostic};
use crate::search::encode;
use crate::store::CallStats;
use std::rc::Rc;

/// The snapshot format's name and version.
pub const SNAPSHOT_FORMAT: &str = "skillwasm-registry/1";

#[derive(serde::Deserialize)]
struct Snapshot {
    format: String,
    scopes: Vec<SnapshotScope>,
    records: Vec<SkillRecord>,
    diagnostics: Vec<Diagnostic>,
    /// The search index ([`encode::to_bytes`], base64). Absent in snapshots taken before search
    /// existed; the index is then built from the records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    search: Option<String>,
}

/// What [`SkillRegistry::snapshot`] writes: [`Snapshot`]'s fields, borrowed from the registry.
#[derive(serde::Serialize)]
struct SnapshotOut<'a> {
    format: &'a str,
    scopes: Vec<SnapshotScope>,
    records: &'a [SkillRecord],
    diagnostics: &'a [Diagnostic],
    /// The search index, as [`Snapshot::search`] holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    search: Option<String>,
}

/// A writer that only counts the bytes written to it.
struct ByteCount(usize);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[derive(serde::Serialize, serde::Deserialize, PartialEq)]
struct SnapshotScope {
    name: String,
    roots: Vec<String>,
    trusted: bool,
}

impl SkillRegistry {
    /// The registry as bytes: metadata, locations, diagnostics and the sizes and etags it was
    /// built from. Storage handles are not in it; `from_snapshot` takes them again.
    pub fn snapshot(&self) -> Vec<u8> {
        let snap = SnapshotOut {
            format: SNAPSHOT_FORMAT,
            scopes: self
                .scopes
                .iter()
                .map(|s| SnapshotScope { name: s.name.clone(), roots: s.roots.clone(), trusted: s.trusted })
                .collect(),
            records: self.records.as_slice(),
            diagnostics: &self.diagnostics,
            search: Some(encode::base64(&encode::to_bytes(&self.search_index()))),
        };
        // Written twice: once to count its bytes, once into a buffer of exactly that size (a
        // buffer grown by doubling holds up to twice the snapshot, and three times while it moves).
        let mut counted = ByteCount(0);
        if serde_json::to_writer(&mut counted, &snap).is_err() {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(counted.0);
        serde_json::to_writer(&mut out, &snap).map(|()| out).unwrap_or_default()
    }

    /// Starts from a snapshot with no store call. The scopes must be configured as they were when
    /// it was taken (same names, roots and trust); `refresh` then finds what changed since.
    pub fn from_snapshot(
        bytes: &[u8],
        scopes: Vec<ScopeHandle>,
        options: DiscoverOptions,
    ) -> Result<SkillRegistry, Diagnostic> {
        let snap: Snapshot = serde_json::from_slice(bytes)
            .map_err(|e| Diagnostic::error(codes::SNAPSHOT_INVALID, format!("the snapshot cannot be read: {e}")))?;
        if snap.format != SNAPSHOT_FORMAT {
            return Err(Diagnostic::error(
                codes::SNAPSHOT_INVALID,
                format!("snapshot format {:?} is not {SNAPSHOT_FORMAT:?}", snap.format),
            ));
        }
        let configured: Vec<SnapshotScope> = scopes
            .iter()
            .map(|s| SnapshotScope { name: s.name.clone(), roots: s.roots.clone(), trusted: s.trusted })
            .collect();
        if configured != snap.scopes {
            return Err(Diagnostic::error(
                codes::SNAPSHOT_MISMATCH,
                "the snapshot was taken with other scopes, roots or trust than these; discover afresh",
            ));
        }
        let mut r = SkillRegistry::empty(scopes, options, Rc::new(CallStats::default()));
        r.records = Rc::new(snap.records);
        r.diagnostics = snap.diagnostics;
        r.diagnostics.retain(|d| d.code != codes::SKILL_SHADOWED);
        r.resolve();
        // The stored index is decoded on first use (see `search_index`).
        *r.stored_search.borrow_mut() = snap.search;
        Ok(r)
    }
}
