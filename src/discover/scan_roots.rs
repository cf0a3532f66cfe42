//! Discovery's first steps: every root of every scope listed in pages, each skill file found a
//! candidate to read (a trusted scope's only), a root listed as it was keeping its previous
//! records, and what the listings met reported (see [`super::scan`] for the steps as a whole).

use super::gitignore::GITIGNORE;
use super::record::{Discovery, ScopeHandle};
use super::records::{Record, Records};
use super::root_listing::{list_root, Pages, RootListing};
use super::root_scan::{Found, RootScan};
use super::rules::{skill_file_names, skip_hint};
use super::scan_notes as notes;
use super::types::DiscoverOptions;
use crate::store::{
    CallStats, Head, HeadCollector, HeadRequest, ListPage, LocalFuture, SkipHint, Storage, StorageError,
};
use std::ops::Range;

/// What listing the roots gathers besides the [`Discovery`]: the skill files found (a trusted
/// scope's only), and the previous records of the roots listed as they were.
pub(super) struct Listing {
    /// The SKILL.md files found, in root order, each to be read or reused.
    pub(super) candidates: Vec<Candidate>,
    /// The roots listed as they were, whose previous records stand.
    pub(super) reused: Vec<Reused>,
}

impl Listing {
    /// Whether every root was listed as it was, and each of the `previous` records (`count` of
    /// them) is what its file holds: nothing to read.
    pub(super) fn all_as_before(&self, count: usize, roots: &[RootListing]) -> bool {
        !self.reused.is_empty()
            && self.candidates.is_empty()
            && self.reused.iter().map(|r| r.records.len()).sum::<usize>() == count
            && roots.iter().all(|l| l.settled)
    }
}

/// What the listing of every root shares: the options, the call counters, the skip hint, the
/// heads asked of a store and the previous discovery.
struct Lister<'a> {
    opts: &'a DiscoverOptions,
    stats: &'a CallStats,
    previous: &'a Records,
    hint: SkipHint,
    /// The skill files' first bytes, asked with the listing.
    heads_asked: HeadRequest,
    /// Sizes and etags only: what a refresh asks of a store whose heads cost reads.
    sizes_asked: HeadRequest,
}

/// Lists every root of every scope, in order (steps 1 and 2 of discovery): each root's skill
/// files become candidates, a root listed as it was keeps its previous records, and what each
/// scope's listing met is reported in `out`.
pub(super) async fn list_scopes(
    scopes: &[ScopeHandle],
    opts: &DiscoverOptions,
    previous: &Records,
    previous_roots: &[RootListing],
    stats: &CallStats,
    out: &mut Discovery,
) -> Listing {
    // A refresh finds about as many as before: room for them at once, not a list doubled its
    // way there (up to half of it spare, and both halves held while it moves).
    let listing = Listing { candidates: Vec::with_capacity(previous.len()), reused: Vec::new() };
    let heads_asked = HeadRequest {
        names: skill_file_names(opts.accept_lowercase_skill_md).into_iter().map(str::to_string).collect(),
        prefix_bytes: opts.prefix_bytes.clamp(64, opts.max_object_bytes.max(1)),
        // The files the scan uses; every other file only tells it of a directory.
        listed: skill_file_names(opts.accept_lowercase_skill_md)
            .into_iter()
            .chain(opts.respect_gitignore.then_some(GITIGNORE))
            .map(str::to_string)
            .collect(),
    };
    // A refresh asks a store whose heads cost reads for none: its listing's sizes and etags tell
    // the unchanged files, and only the others are read.
    let sizes_asked = HeadRequest { names: Vec::new(), ..heads_asked.clone() };
    let lister = Lister { opts, stats, previous, hint: skip_hint(), heads_asked, sizes_asked };
    let mut progress = Progress { earlier: Earlier::new(previous, previous_roots), listing };
    for (si, scope) in scopes.iter().enumerate() {
        lister.scope(si, scope, &mut progress, out).await;
    }
    progress.listing
}

/// What the listing has gathered so far, and where it is among the previous discovery's roots.
struct Progress<'p> {
    earlier: Earlier<'p>,
    listing: Listing,
}

impl Lister<'_> {
    /// Lists the roots of scope `si`, then reports what its roots as a whole tell: skills outside
    /// the roots when they hold none, and an untrusted scope's count.
    async fn scope(&self, si: usize, scope: &ScopeHandle, progress: &mut Progress<'_>, out: &mut Discovery) {
        let storage = Skipping { inner: &*scope.storage, hint: &self.hint };
        let mut scope_found = 0usize;
        let mut scope_failed = false;
        for (ri, root) in scope.roots.iter().enumerate() {
            match self.root(si, scope, ri, root, progress, out).await {
                Some(found) => scope_found += found,
                None => scope_failed = true,
            }
        }
        // Roots that hold nothing, in a store that is not searched from its own root: one listing
        // of that root says whether the skills are elsewhere.
        if scope_found == 0 && !scope_failed && !scope.roots.is_empty() && !scope.roots.iter().any(String::is_empty) {
            notes::outside_roots(out, scope, &storage, self.opts, self.stats).await;
        }
        if !scope.trusted {
            out.diagnostics.push(notes::untrusted(&scope.name, scope_found));
        }
    }

    /// Lists root `ri` of scope `si` in pages: its skill files become candidates (a trusted
    /// scope's), or, listed as it was, it keeps its previous records; a listing that fails keeps
    /// the skills the root had. The skills it holds, or None when its listing failed.
    async fn root(
        &self,
        si: usize,
        scope: &ScopeHandle,
        ri: usize,
        root: &str,
        progress: &mut Progress<'_>,
        out: &mut Discovery,
    ) -> Option<usize> {
        let (opts, stats, previous) = (self.opts, self.stats, self.previous);
        let Progress { earlier, listing } = progress;
        let candidates = &mut listing.candidates;
        let storage = Skipping { inner: &*scope.storage, hint: &self.hint };
        let mut scan = RootScan::new(root, opts);
        // A trusted scope's store that lists with heads brings the skill files' first bytes
        // with the listing (an untrusted scope's files are not read at all).
        let asked = if !previous.is_empty() && scope.storage.heads_cost_reads() {
            &self.sizes_asked
        } else {
            &self.heads_asked
        };
        let collector = HeadCollector::new(&*scope.storage, &self.hint, asked, stats);
        let lister: &dyn Storage = if scope.trusted { &collector } else { &storage };
        let mut warnings = Vec::new();
        // A root whose skills a `.gitignore` may drop depends on more than its listing.
        let gitignored = opts.respect_gitignore && scope.trusted;
        let before = earlier.next(&scope.name, root, ri).filter(|_| !gitignored);
        let before_listing = before.as_ref().map(|(listing, _)| *listing);
        let (first_candidate, first_diagnostic) = (candidates.len(), out.diagnostics.len());
        let mut each = |page: ListPage| {
            warnings.extend(page.warnings);
            scan.feed(page.entries, page.directories)
        };
        let listed = list_root(
            &*scope.storage,
            lister,
            root,
            &self.hint,
            opts.page_size.max(1),
            stats,
            before_listing,
            &mut each,
        )
        .await;
        let mut heads = collector.into_heads();
        scan.finish();
        let (digest, version) = match listed {
            Ok(Pages::Same { version }) => {
                let Some((before, range)) = before else { return Some(0) };
                out.diagnostics.extend(before.diagnostics.iter().cloned());
                if scope.trusted {
                    listing.reused.push(Reused { at: candidates.len(), scope: si, root: ri, records: range });
                }
                out.roots.push(RootListing { version, ..before.clone() });
                return Some(before.found);
            }
            Ok(Pages::Fed { .. }) if gitignored => (None, None),
            Ok(Pages::Fed { digest, version }) => (digest, version),
            Err(e) => {
                // A refresh whose listing fails (a store call that timed out on a loaded
                // machine, a store briefly down) keeps the skills the root had: they are
                // candidates again, reused below when their record is unchanged.
                let before: Vec<Record> = previous.iter().filter(|r| r.is_under(&scope.name, ri)).collect();
                out.diagnostics.push(notes::listing_failed(&scope.name, root, &e, before.len()));
                if scope.trusted {
                    candidates.extend(before.into_iter().map(|r| Candidate::again(si, ri, r)));
                }
                out.roots.push(RootListing::undigested(&scope.name, root, candidates.len() - first_candidate));
                return None;
            }
        };
        if !warnings.is_empty() {
            notes::skipped(&mut out.diagnostics, warnings, &scope.name, root);
        }
        if scan.cap_hit || !scan.too_deep.is_empty() {
            notes::bounds_met(&mut out.diagnostics, &scan, &scope.name, root, opts);
        }
        let scope_found = scan.found.len();
        if opts.respect_gitignore && scope.trusted && !scan.found.is_empty() {
            notes::drop_gitignored(out, scope, root, &mut scan, opts, stats).await;
        }
        let found = scan.found.len();
        if scope.trusted {
            candidates.reserve(scan.found.len());
            for Found { location, size, etag, lowercase } in scan.found {
                let head = heads.remove(&location);
                candidates.push(Candidate { scope: si, root: ri, location, size, etag, lowercase, head });
            }
        }
        out.roots.push(RootListing {
            scope: scope.name.clone(),
            root: root.to_string(),
            digest,
            version,
            found,
            records: candidates.len() - first_candidate,
            diagnostics: match digest {
                Some(_) => out.diagnostics.get(first_diagnostic..).unwrap_or_default().to_vec(),
                None => Vec::new(),
            },
            // Known once the records are read (see `settle`).
            settled: false,
        });
        Some(scope_found)
    }
}

/// A store seen through the skip hint: its listings are asked to leave out the directories
/// discovery skips (what comes back is still filtered).
struct Skipping<'s> {
    inner: &'s dyn Storage,
    hint: &'s SkipHint,
}

impl Storage for Skipping<'_> {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        self.inner.list_skipping(prefix, cursor, limit, self.hint)
    }

    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.inner.read(key, max_bytes)
    }
}

pub(super) struct Candidate {
    pub(super) scope: usize,
    pub(super) root: usize,
    pub(super) location: String,
    pub(super) size: Option<u64>,
    pub(super) etag: Option<String>,
    pub(super) lowercase: bool,
    /// The first bytes the listing brought, when the store lists with heads.
    pub(super) head: Option<Head>,
}

impl Candidate {
    /// A candidate for the file `record` was built from, as it was listed then.
    fn again(scope: usize, root: usize, record: Record) -> Candidate {
        let location = record.location();
        Candidate {
            scope,
            root,
            location: location.to_string(),
            size: record.size(),
            etag: record.etag().map(str::to_string),
            lowercase: location.rsplit('/').next() == Some("skill.md"),
            head: None,
        }
    }
}

/// A root found as it was (its pages had the digest they had): its records, taken as they are.
pub(super) struct Reused {
    /// Where they go: before the candidate at this position.
    at: usize,
    /// The scope's index.
    scope: usize,
    /// The root's index in the scope.
    root: usize,
    /// Where they are among the previous records.
    records: Range<usize>,
}

/// `candidates` with the records of the roots found as they were put back at their places.
pub(super) fn with_reused(candidates: Vec<Candidate>, reused: Vec<Reused>, previous: &Records) -> Vec<Candidate> {
    if reused.is_empty() {
        return candidates;
    }
    let total = candidates.len() + reused.iter().map(|r| r.records.len()).sum::<usize>();
    let mut all = Vec::with_capacity(total);
    let mut rest = candidates.into_iter();
    let mut taken = 0usize;
    for Reused { at, scope, root, records } in reused {
        all.extend(rest.by_ref().take(at.saturating_sub(taken)));
        taken = taken.max(at);
        all.extend(records.filter_map(|i| previous.get(i)).map(|r| Candidate::again(scope, root, r)));
    }
    all.extend(rest);
    all
}

/// The previous discovery's roots, walked in listing order beside their records.
struct Earlier<'p> {
    records: &'p Records,
    roots: &'p [RootListing],
    next: usize,
    at: usize,
    /// False once a root was not the one listed at its position (or the counts do not add up to
    /// the records): where the records of the later ones are is then not known.
    valid: bool,
}

impl<'p> Earlier<'p> {
    fn new(records: &'p Records, roots: &'p [RootListing]) -> Self {
        let valid = roots.iter().map(|l| l.records).sum::<usize>() == records.len();
        Earlier { records, roots, next: 0, at: 0, valid }
    }

    /// The previous listing of the next root (`root`, the `ri`-th of scope `scope`) and where its
    /// records are, when it was listed at this position and its records are where the counts
    /// say.
    fn next(&mut self, scope: &str, root: &str, ri: usize) -> Option<(&'p RootListing, Range<usize>)> {
        let listing = self.roots.get(self.next)?;
        self.next += 1;
        let range = self.at..self.at + listing.records;
        self.at = range.end;
        if !self.valid || listing.scope != scope || listing.root != root {
            self.valid = false;
            return None;
        }
        if range.end > self.records.len() {
            return None;
        }
        range.clone().filter_map(|i| self.records.get(i)).all(|r| r.is_under(scope, ri)).then_some((listing, range))
    }
}
