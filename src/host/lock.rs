//! The host's lockfile: every offered skill's content digest computed (once per refresh, kept as
//! the consent gate keeps it), compared with its pin ([`crate::lock::check`]), and the refused
//! skills hidden from everyone; and a lockfile written from what the registry holds.

use super::skills::SkillHost;
use crate::diagnostic::Diagnostic;
use crate::lock::{check, LockEntry, LockReport, LockSource, Lockfile, PresentSkill};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;

#[cfg(feature = "tsify")]
use tsify::Tsify;

impl SkillHost {
    /// Sets the lockfile the host gave (none: no check). [`verify_lock_shared`] applies it.
    pub fn set_lock(&mut self, lock: Option<Lockfile>) {
        self.lock = lock.map(Rc::new);
        self.lock_report = LockReport::default();
    }

    /// What the lockfile decided at the last verification (empty without one).
    pub fn lock_report(&self) -> &LockReport {
        &self.lock_report
    }
}

/// Every offered skill with its content digest: the one kept since the last refresh, else
/// computed now (and kept). The host is borrowed only between the reads.
async fn present_skills(cell: &RefCell<SkillHost>) -> Vec<PresentSkill> {
    let offered = cell.borrow().registry().offered_skills();
    let mut out = Vec::with_capacity(offered.len());
    for (offered, scope, name, directory) in offered {
        let (src, known) = {
            let host = cell.borrow();
            (host.registry().skill_source(&offered), host.known_digest(&scope, &name).map(str::to_string))
        };
        let digest = match (known, src) {
            (Some(d), _) => Ok(d),
            (None, Some(src)) => match crate::consent::gather::compute(&src).await {
                Ok((d, _, _)) => {
                    cell.borrow_mut().remember_digest(&scope, &name, &d);
                    Ok(d)
                }
                Err(e) => Err(e.message),
            },
            (None, None) => Err("the skill is no longer in the registry".to_string()),
        };
        let path = format!(
            "{scope}:{}",
            if directory.is_empty() { "SKILL.md".into() } else { format!("{directory}/SKILL.md") }
        );
        out.push(PresentSkill { offered, name, scope, path, digest });
    }
    out
}

/// Checks the registry against the host's lockfile, when it has one: each offered skill's
/// digest computed, drifted ones hidden from the model and the user (`skill-pin-mismatch`),
/// unpinned and missing ones reported. Called after discovery and after every refresh.
pub async fn verify_lock_shared(cell: &RefCell<SkillHost>) {
    let Some(lock) = cell.borrow().lock.clone() else { return };
    let present = present_skills(cell).await;
    let mut host = cell.borrow_mut();
    host.lock_report = check(&lock, &present);
    let config = host.config().clone();
    let view = Rc::new(host.compute_view(&config));
    host.install(view);
}

/// [`SkillHost::refresh_shared`], then the lockfile checked again ([`verify_lock_shared`]): what a
/// host with a lockfile calls to refresh.
pub async fn refresh_verified(cell: &RefCell<SkillHost>) -> crate::discover::RefreshReport {
    let report = SkillHost::refresh_shared(cell).await;
    verify_lock_shared(cell).await;
    report
}

/// [`SkillHost::list_pending_shared`], then the lockfile checked again when a scope was listed.
pub async fn list_pending_verified(cell: &RefCell<SkillHost>) -> Option<crate::discover::RefreshReport> {
    let report = SkillHost::list_pending_shared(cell).await;
    if report.is_some() {
        verify_lock_shared(cell).await;
    }
    report
}

/// A lockfile written from a registry, and what kept skills out of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct LockfileResult {
    /// The lockfile: one entry per offered skill whose digest was computed.
    pub lockfile: Lockfile,
    /// Why a skill has no entry (its digest could not be computed), one each.
    pub diagnostics: Vec<Diagnostic>,
}

/// Where a skill of `scope` came from when no earlier lockfile says: the scope's store's origin
/// (`mcp:<label>` for an MCP server, an index's URL for a discovery index), else its directory.
fn source_of(host: &SkillHost, scope: &str, name: &str, directory: &str) -> LockSource {
    match host.scope_origin(scope).1 {
        Some(o) if o.starts_with("mcp:") => LockSource::Mcp {
            server: o.trim_start_matches("mcp:").to_string(),
            uri: format!("skill://{}/SKILL.md", if directory.is_empty() { name } else { directory }),
            // The host connected by its own configuration, which the registry does not know.
            connection: None,
        },
        Some(url) => LockSource::Discovery { url, name: name.to_string() },
        None => LockSource::Directory { path: directory.to_string() },
    }
}

/// A lockfile of every skill the registry offers, each pinned to its content as computed now;
/// an entry of `previous` for the same scope and name keeps its source (the place a skill was
/// added from, which the registry does not know).
pub async fn lockfile_shared(cell: &RefCell<SkillHost>, previous: Option<&Lockfile>) -> LockfileResult {
    let present = present_skills(cell).await;
    let host = cell.borrow();
    let mut entries = Vec::with_capacity(present.len());
    let mut diagnostics = Vec::new();
    for p in present {
        let directory =
            p.path.split_once(':').map_or("", |(_, l)| l).trim_end_matches("SKILL.md").trim_end_matches('/');
        match p.digest {
            Ok(digest) => {
                let source = previous
                    .and_then(|l| l.entry(&p.scope, &p.name))
                    .map(|e| e.source.clone())
                    .unwrap_or_else(|| source_of(&host, &p.scope, &p.name, directory));
                let location = if directory.is_empty() { ".".to_string() } else { directory.to_string() };
                entries.push(LockEntry { name: p.name, scope: p.scope, source, location, digest });
            }
            Err(e) => {
                let mut d = Diagnostic::error(
                    crate::diagnostic::codes::CONTENT_DIGEST_FAILED,
                    format!("skill '{}' is not pinned: {e}", crate::text::one_line(&p.name)),
                );
                d.path = Some(p.path);
                diagnostics.push(d);
            }
        }
    }
    LockfileResult { lockfile: Lockfile::new(entries), diagnostics }
}
