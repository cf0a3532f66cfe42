//! What a root's listing adds to a discovery besides its skills: a listing that failed, entries
//! the store skipped, the scan's bounds met, an untrusted scope's count, and the skills a
//! `.gitignore` drops. Each is a function of its own, out of line: [`discover`](super::scan)
//! calls one only when there is something to say, and none of them is part of the code every
//! discovery runs (the wasm package keeps that code in the module every host loads, and moves
//! the rest to one loaded on first use).

use super::gitignore;
use super::record::{Discovery, ScopeHandle};
use super::root_scan::{Found, RootScan};
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

/// Most SKILL.md keys a [`outside_roots`] message names.
const MAX_NAMED_OUTSIDE: usize = 3;

/// A scope whose roots hold no skill: one listing of its store's root (one page, the scan's
/// directories skipped as ever) says whether it holds SKILL.md files elsewhere, and where. A
/// boxed future, so that its state is not part of every discovery's.
pub(super) fn outside_roots<'a>(
    out: &'a mut Discovery,
    scope: &'a ScopeHandle,
    lister: &'a dyn crate::store::Storage,
    opts: &'a DiscoverOptions,
    stats: &'a CallStats,
) -> LocalFuture<'a, ()> {
    Box::pin(async move {
        CallStats::bump(&stats.list_calls, 1);
        let Ok(page) = lister.list("", None, opts.page_size.max(1)).await else { return };
        let names = super::rules::skill_file_names(opts.accept_lowercase_skill_md);
        let found: Vec<&str> = page
            .entries
            .iter()
            .map(|e| e.key.as_str())
            .filter(|k| crate::store::keys::check_key(k).is_ok())
            .filter(|k| k.rsplit('/').next().is_some_and(|f| names.contains(&f)))
            .filter(|k| !k.split('/').rev().skip(1).any(super::rules::is_skipped_dir))
            .filter(|k| !scope.roots.iter().any(|r| k.starts_with(r.as_str())))
            .collect();
        if let Some(d) = outside_note(&scope.name, &scope.roots, &found, page.cursor.is_some()) {
            out.diagnostics.push(d);
        }
    })
}

/// The `skills-outside-roots` warning for the SKILL.md keys `found` outside `roots`, or None when
/// there are none. `more`: the listing had more keys than the page looked at.
pub(super) fn outside_note(scope: &str, roots: &[String], found: &[&str], more: bool) -> Option<Diagnostic> {
    let first = found.first()?;
    let shown: Vec<String> = found.iter().take(MAX_NAMED_OUTSIDE).map(|k| format!("{k:?}")).collect();
    let and_more = if found.len() > MAX_NAMED_OUTSIDE || more { " and more" } else { "" };
    // The roots that would find them: the directory above each skill's directory.
    let mut wanted: Vec<String> = Vec::new();
    for k in found {
        let parent = super::record::directory_of(super::record::directory_of(k));
        let root = if parent.is_empty() { String::new() } else { format!("{parent}/") };
        if !wanted.contains(&root) {
            wanted.push(root);
        }
    }
    // A root finds what is below it at any depth: one that holds another makes it redundant.
    let kept: Vec<&String> =
        wanted.iter().filter(|r| !wanted.iter().any(|o| o != *r && r.starts_with(o.as_str()))).collect();
    let wanted: Vec<String> = kept.iter().take(MAX_NAMED_OUTSIDE).map(|r| format!("{r:?}")).collect();
    let searched: Vec<String> = roots.iter().map(|r| format!("{r:?}")).collect();
    let message = format!(
        "scope '{scope}' found no skill under its roots {}, but its store holds SKILL.md files elsewhere: {}{and_more}; \
         give the scope roots: [{}] (or a store that knows its layout declares its roots) to load them",
        searched.join(", "),
        shown.join(", "),
        wanted.join(", ")
    );
    Some(scope_diag(Diagnostic::warning(codes::SKILLS_OUTSIDE_ROOTS, message), scope, first))
}
