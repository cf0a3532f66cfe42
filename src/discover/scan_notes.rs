//! What a root's listing adds to a discovery besides its skills: a listing that failed, entries
//! the store skipped, the scan's bounds met, an untrusted scope's count, and the skills a
//! `.gitignore` drops. Each is a function of its own, out of line: [`discover`](super::scan)
//! calls one only when there is something to say, and none of them is part of the code every
//! discovery runs (the wasm package keeps that code in the module every host loads, and moves
//! the rest to one loaded on first use).

use super::gitignore;
use super::root_scan::{Found, RootScan};
use super::scan::{Discovery, ScopeHandle};
use super::types::DiscoverOptions;
use crate::diagnostic::{codes, Diagnostic};
use crate::store::{CallStats, LocalFuture, StorageError};

/// `d`, placed at `path` of `scope`.
pub(super) fn scope_diag(mut d: Diagnostic, scope: &str, path: &str) -> Diagnostic {
    d.path = Some(format!("{scope}:{path}"));
    d
}

/// A root whose listing failed; `kept` skills it held before stand until a listing succeeds.
#[cold]
#[inline(never)]
pub(super) fn listing_failed(scope: &str, root: &str, e: &StorageError, kept: usize) -> Diagnostic {
    let kept = if kept == 0 {
        String::new()
    } else {
        format!("; the {kept} skill(s) it held before are kept until a listing succeeds")
    };
    scope_diag(
        Diagnostic::error(codes::STORAGE_LIST_FAILED, format!("listing {root:?} in scope '{scope}' failed: {e}{kept}")),
        scope,
        root,
    )
}

/// What the store skipped while listing `root`, `(key, why)`: a warning each.
#[inline(never)]
pub(super) fn skipped(out: &mut Vec<Diagnostic>, warnings: Vec<(String, String)>, scope: &str, root: &str) {
    for (key, message) in warnings {
        // A warning about the whole root (it does not exist, it is not a directory) names the
        // scope and the root; an empty key adds nothing to the message.
        let text = if key.is_empty() || key == *root {
            let what = if root.is_empty() { "the store's root".to_string() } else { format!("root {root:?}") };
            format!("listing {what} in scope '{scope}': {message}")
        } else {
            format!("{key}: {message}")
        };
        out.push(scope_diag(Diagnostic::warning(codes::STORAGE_SKIPPED, text), scope, &key));
    }
}

/// The scan's bounds, when it met them: directories past `maxDirectories`, SKILL.md files deeper
/// than `maxDepth`.
#[inline(never)]
pub(super) fn bounds_met(
    out: &mut Vec<Diagnostic>,
    scan: &RootScan<'_>,
    scope: &str,
    root: &str,
    opts: &DiscoverOptions,
) {
    if scan.cap_hit {
        out.push(scope_diag(
            Diagnostic::warning(
                codes::SCAN_DIRECTORY_CAP,
                format!(
                    "stopped scanning {root:?} in scope '{scope}' after {} directories; skills beyond them were not found",
                    opts.max_directories
                ),
            ),
            scope,
            root,
        ));
    }
    if let Some(first) = scan.too_deep.first() {
        out.push(scope_diag(
            Diagnostic::warning(
                codes::SCAN_DEPTH_LIMIT,
                format!(
                    "{} SKILL.md file(s) deeper than {} directories below {root:?} were not loaded (first: {first})",
                    scan.too_deep.len(),
                    opts.max_depth
                ),
            ),
            scope,
            first,
        ));
    }
}

/// An untrusted scope, which was not read: a warning when it holds skills the host may have meant
/// to use, else only a note.
#[inline(never)]
pub(super) fn untrusted(scope: &str, found: usize) -> Diagnostic {
    let message = format!("scope '{scope}' is not trusted, so it was not read: it holds {found} skill(s)");
    if found > 0 {
        Diagnostic::warning(codes::SCOPE_UNTRUSTED, message)
    } else {
        Diagnostic::info(codes::SCOPE_UNTRUSTED, message)
    }
}

/// Drops the skills of a root that its `.gitignore` files ignore, and says how many. A boxed
/// future, so that its state is not part of every discovery's (`respectGitignore` is off by
/// default).
pub(super) fn drop_gitignored<'a>(
    out: &'a mut Discovery,
    scope: &'a ScopeHandle,
    root: &'a str,
    scan: &'a mut RootScan<'_>,
    opts: &'a DiscoverOptions,
    stats: &'a CallStats,
) -> LocalFuture<'a, ()> {
    Box::pin(async move {
        let skill_dirs: Vec<&str> = scan.found.iter().map(|f| f.directory()).collect();
        let dirs = gitignore::directories_to_read(root, &skill_dirs, &scan.gitignores);
        let (mut rules, problems) = gitignore::load(&*scope.storage, dirs, opts.concurrency as usize, stats).await;
        for (key, d) in problems {
            out.diagnostics.push(scope_diag(d, &scope.name, &key));
        }
        let mut ignored = Vec::new();
        scan.found.retain(|Found { location, .. }| {
            let drop = rules.is_ignored(location);
            if drop {
                ignored.push(location.clone());
            }
            !drop
        });
        if let Some(first) = ignored.first() {
            out.diagnostics.push(scope_diag(
                Diagnostic::info(
                    codes::SCAN_GITIGNORED,
                    format!(
                        "{} SKILL.md file(s) below {root:?} are ignored by .gitignore and were not loaded (first: {first})",
                        ignored.len()
                    ),
                ),
                &scope.name,
                first,
            ));
        }
    })
}
