//! Discovery: which skills each scope's store holds, read with as few store calls as it allows.
//!
//! Per scope, in the order the host gives (earlier scopes take precedence):
//! 1. List each root (`.agents/skills/`, `.<client>/skills/` by default) in pages. A skill is a
//!    directory holding a file named exactly `SKILL.md` (optionally `skill.md`, with a warning).
//!    `.git/`, `node_modules/` and other dot-directories are skipped; directories deeper than
//!    `maxDepth` below the root are not searched, and a root stops being listed after
//!    `maxDirectories` directories; both bounds are reported when hit.
//! 2. An untrusted scope stops here: it is reported with the number of skills it holds, and none
//!    of them is read.
//! 3. Each SKILL.md is read with a prefix read (`prefixBytes`), `concurrency` reads in flight at
//!    once; only a file whose frontmatter does not fit is read again in full. A file whose size and
//!    etag match the previous discovery is not read at all (this is what `refresh` uses).
//!
//! A scope whose roots hold no skill costs one more list call, of its store's root (one page): when
//! SKILL.md files are there, outside the roots, discovery says where (`skills-outside-roots`).
//!
//! Within a scope the order is fixed: roots in the order given, then shallower directories first,
//! then keys in lexicographic order. The first skill of a name wins across all scopes; every other
//! one is reported as shadowed, with both locations.

use super::gitignore::GITIGNORE;
use super::root_listing::{list_root, Pages, RootListing};
use super::root_scan::RootScan;
use super::rules::{skill_file_names, skip_hint};
use super::scan_notes as notes;
use super::types::DiscoverOptions;
use crate::diagnostic::{codes, Diagnostic};
use crate::parse::{parse_skill, ParseOptions, Skill};
use crate::store::{
    self, limits, CallStats, Head, HeadCollector, HeadRequest, ListPage, LocalFuture, SkipHint, Storage, StorageError,
};
use futures_util::stream::{self, StreamExt};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

/// A scope as discovery sees it: a name, a store, the roots to search in it, and trust.
#[derive(Clone)]
pub struct ScopeHandle {
    /// The scope's name (`project`, `user`, `org`, `builtin` or one the host names).
    pub name: String,
    /// The list prefixes searched for skills, in order.
    pub roots: Vec<String>,
    /// Whether the scope's files may be read.
    pub trusted: bool,
    /// The scope's store.
    pub storage: Rc<dyn Storage>,
}

/// The default roots of a scope: `.agents/skills/` and, when the host names its client,
/// `.<client>/skills/`.
pub fn default_roots(client: Option<&str>) -> Vec<String> {
    let mut roots = vec![".agents/skills/".to_string()];
    if let Some(c) = client.map(str::trim).filter(|c| !c.is_empty() && *c != "agents") {
        roots.push(format!(".{}/skills/", c.trim_start_matches('.')));
    }
    roots
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

/// A root as a list prefix: `""` or ending in `/`.
pub fn normalize_root(root: &str) -> String {
    let r = root.trim().trim_start_matches("./").trim_matches('/');
    if r.is_empty() || r == "." {
        String::new()
    } else {
        format!("{r}/")
    }
}

/// One SKILL.md found, read or not, and what came of it. Kept in snapshots.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillRecord {
    /// The scope it was found in.
    pub scope: String,
    /// Index of the root it was found under, in the scope's root list (for ordering).
    pub root: usize,
    /// The key of the SKILL.md (its directory is derived from it: [`SkillRecord::directory`]).
    pub location: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The listed size, when the store gave one.
    pub size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The listed etag, when the store gave one.
    pub etag: Option<String>,
    /// None when the skill was refused (the diagnostics say why). Shared with the metas and the
    /// visibility built from it, so that each skill is held once.
    pub skill: Option<Rc<Skill>>,
    /// What was found wrong with it; shared with the metas made from the record.
    pub diagnostics: Rc<Vec<Diagnostic>>,
}

impl SkillRecord {
    /// The key of its directory: the location without its file name and the `/` before it
    /// (`""` for a skill at the store's root). Derived, not stored: one string less per skill.
    pub fn directory(&self) -> &str {
        directory_of(&self.location)
    }

    /// Whether the record says what its file holds and tells a change by its listing (an etag or
    /// a size): a refresh that lists it as it was need not read it.
    fn settled(&self) -> bool {
        self.unchanged(self.size, self.etag.as_deref())
    }

    /// Whether a fresh listing entry still describes what this record was built from, and the
    /// record says what the file holds (not a read or a parse that could not be done then: a
    /// transient diagnostic, after which the file is read again).
    fn unchanged(&self, size: Option<u64>, etag: Option<&str>) -> bool {
        if self.diagnostics.iter().any(Diagnostic::is_transient) {
            return false;
        }
        match (self.etag.as_deref(), etag) {
            (Some(a), Some(b)) => a == b && (self.size.is_none() || size.is_none() || self.size == size),
            (None, None) => self.size.is_some() && self.size == size,
            _ => false,
        }
    }
}

/// The directory key of a file key: the key without its last segment and the `/`s before it.
/// Byte by byte (`/` is ASCII): it runs in every comparison of a discovery's directory sort.
pub fn directory_of(key: &str) -> &str {
    let bytes = key.as_bytes();
    let mut end = bytes.iter().rposition(|&b| b == b'/').unwrap_or(0);
    while end > 0 && bytes.get(end - 1) == Some(&b'/') {
        end -= 1;
    }
    key.get(..end).unwrap_or_default()
}

/// What one discovery produced.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Every SKILL.md found, in precedence order within each scope.
    pub records: Vec<SkillRecord>,
    /// Findings about scopes and roots rather than single skills.
    pub diagnostics: Vec<Diagnostic>,
    /// Set when every listed SKILL.md is, in order, the one a previous record was built from,
    /// with the same size and etag, and no other was listed: `records` is then left empty and the
    /// previous records stand as they are (nothing is read, cloned or ordered again).
    pub unchanged: bool,
    /// Set when the listing had the previous layout (the same keys of the same scopes and roots,
    /// in the same order) but some files were read again: their positions, ascending. Every
    /// other record is the previous one at its position, so whatever depends on keys alone
    /// (precedence, nesting) stands.
    pub reread: Option<Vec<usize>>,
    /// Which previous records this discovery was compared with: their address and count, for
    /// identity only (never read through). A registry applies `unchanged` and `reread` only to
    /// the records they were found against; another refresh may have replaced them meanwhile.
    pub compared_with: (usize, usize),
    /// What the next refresh needs of each root's listing, in the order the roots were listed.
    pub roots: Vec<RootListing>,
}

struct Candidate {
    scope: usize,
    root: usize,
    location: String,
    size: Option<u64>,
    etag: Option<String>,
    lowercase: bool,
    /// The first bytes the listing brought, when the store lists with heads.
    head: Option<Head>,
}

/// What [`load`] reads of a candidate once its keys have moved into the record.
struct Listed<'a> {
    directory: &'a str,
    location: &'a str,
    size: Option<u64>,
    lowercase: bool,
    head: Option<Head>,
}

/// Discovers the skills of every scope. `previous` records whose file is unchanged are reused
/// without a read; a root whose listing has the digest `previous_roots` holds for it (what the
/// discovery of `previous` kept, [`Discovery::roots`]) is not read at all, its records taken as
/// they are.
pub async fn discover(
    scopes: &[ScopeHandle],
    opts: &DiscoverOptions,
    previous: &[SkillRecord],
    previous_roots: &[RootListing],
    stats: &CallStats,
) -> Discovery {
    let mut out = Discovery { compared_with: identity(previous), ..Discovery::default() };
    // A refresh finds about as many as before: room for them at once, not a list doubled its
    // way there (up to half of it spare, and both halves held while it moves).
    let mut candidates: Vec<Candidate> = Vec::with_capacity(previous.len());
    let hint = skip_hint();
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
    let mut earlier = Earlier::new(previous, previous_roots);
    let mut reused: Vec<Reused> = Vec::new();
    for (si, scope) in scopes.iter().enumerate() {
        let storage = Skipping { inner: &*scope.storage, hint: &hint };
        let mut scope_found = 0usize;
        let mut scope_failed = false;
        for (ri, root) in scope.roots.iter().enumerate() {
            let mut scan = RootScan::new(root, opts);
            // A trusted scope's store that lists with heads brings the skill files' first bytes
            // with the listing (an untrusted scope's files are not read at all).
            let asked =
                if !previous.is_empty() && scope.storage.heads_cost_reads() { &sizes_asked } else { &heads_asked };
            let collector = HeadCollector::new(&*scope.storage, &hint, asked, stats);
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
                &hint,
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
                    let Some((listing, range)) = before else { continue };
                    out.diagnostics.extend(listing.diagnostics.iter().cloned());
                    scope_found += listing.found;
                    if scope.trusted {
                        reused.push(Reused { at: candidates.len(), scope: si, root: ri, records: range });
                    }
                    out.roots.push(RootListing { version, ..listing.clone() });
                    continue;
                }
                Ok(Pages::Fed { .. }) if gitignored => (None, None),
                Ok(Pages::Fed { digest, version }) => (digest, version),
                Err(e) => {
                    // A refresh whose listing fails (a store call that timed out on a loaded
                    // machine, a store briefly down) keeps the skills the root had: they are
                    // candidates again, reused below when their record is unchanged.
                    let before: Vec<&SkillRecord> =
                        previous.iter().filter(|r| r.scope == scope.name && r.root == ri).collect();
                    scope_failed = true;
                    out.diagnostics.push(notes::listing_failed(&scope.name, root, &e, before.len()));
                    if scope.trusted {
                        candidates.extend(before.into_iter().map(|r| Candidate::again(si, ri, r)));
                    }
                    out.roots.push(RootListing::undigested(&scope.name, root, candidates.len() - first_candidate));
                    continue;
                }
            };
            if !warnings.is_empty() {
                notes::skipped(&mut out.diagnostics, warnings, &scope.name, root);
            }
            if scan.cap_hit || !scan.too_deep.is_empty() {
                notes::bounds_met(&mut out.diagnostics, &scan, &scope.name, root, opts);
            }
            scope_found += scan.found.len();
            if opts.respect_gitignore && scope.trusted && !scan.found.is_empty() {
                notes::drop_gitignored(&mut out, scope, root, &mut scan, opts, stats).await;
            }
            let found = scan.found.len();
            if scope.trusted {
                candidates.reserve(scan.found.len());
                for super::root_scan::Found { location, size, etag, lowercase } in scan.found {
                    let head = heads.remove(&location);
                    candidates.push(Candidate { scope: si, root: ri, location, size, etag, lowercase, head });
                }
            }
            out.roots.push(RootListing {
                scope: scope.name.clone(),
                root: root.clone(),
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
        }
        // Roots that hold nothing, in a store that is not searched from its own root: one listing
        // of that root says whether the skills are elsewhere.
        if scope_found == 0 && !scope_failed && !scope.roots.is_empty() && !scope.roots.iter().any(String::is_empty) {
            notes::outside_roots(&mut out, scope, &storage, opts, stats).await;
        }
        if !scope.trusted {
            out.diagnostics.push(notes::untrusted(&scope.name, scope_found));
        }
    }

    // Every root found as it was, and each of their records what its file holds: nothing to do.
    if !reused.is_empty()
        && candidates.is_empty()
        && reused.iter().map(|r| r.records.len()).sum::<usize>() == previous.len()
        && out.roots.iter().all(|l| l.settled)
    {
        out.unchanged = true;
        return out;
    }
    let candidates = with_reused(candidates, reused, previous);
    // The listing has the previous layout (the same keys of the same scopes and roots, in the
    // same order: a refresh that found no skill added or removed) when the records line up one
    // for one; then each candidate's previous record is the one at its position, and the
    // nesting marks stand.
    let (same_layout, all_unchanged) = compare(&candidates, scopes, previous);
    // Nothing changed (the usual refresh): the previous records stand, in the same order, with
    // the nesting marks they have; one pass over the candidates and no copy.
    if all_unchanged {
        settle(&mut out.roots, &[]);
        out.unchanged = true;
        return out;
    }
    // Otherwise the previous records are looked up by scope and key (a key may repeat when
    // roots overlap: the first unchanged one is taken).
    let by_key: HashMap<(&str, &str), Vec<&SkillRecord>> = if same_layout {
        HashMap::new()
    } else {
        let mut map: HashMap<_, Vec<&SkillRecord>> = HashMap::with_capacity(previous.len());
        for r in previous {
            map.entry((r.scope.as_str(), r.location.as_str())).or_default().push(r);
        }
        map
    };
    // Each candidate moves into its record (its keys are not copied): reused, or to be read. A
    // record to be read waits in its slot with its keys; a job holds only its slot and what the
    // listing brought besides, so no second list of candidates is held while the reads run.
    let mut jobs: Vec<(usize, &ScopeHandle, bool, Option<Head>)> = Vec::new();
    let mut records: Vec<SkillRecord> = Vec::with_capacity(candidates.len());
    for (k, c) in candidates.into_iter().enumerate() {
        let Some(scope) = scopes.get(c.scope) else { continue };
        let reused = if same_layout {
            previous.get(k).filter(|r| r.unchanged(c.size, c.etag.as_deref()))
        } else {
            let same = by_key.get(&(scope.name.as_str(), c.location.as_str()));
            same.and_then(|same| same.iter().copied().find(|r| r.unchanged(c.size, c.etag.as_deref())))
        };
        let (skill, diagnostics) = match reused {
            Some(r) => (r.skill.clone(), r.diagnostics.clone()),
            None => {
                jobs.push((records.len(), scope, c.lowercase, c.head));
                (None, no_diagnostics())
            }
        };
        records.push(SkillRecord {
            scope: scope.name.clone(),
            root: c.root,
            location: c.location,
            size: c.size,
            etag: c.etag,
            skill,
            diagnostics,
        });
    }
    drop(by_key);
    let read: Vec<usize> = jobs.iter().map(|j| j.0).collect();
    // Each record is taken out of its slot when its read starts and put back when it completes.
    let slots = RefCell::new(records);
    let take = |i: usize| {
        let mut slots = slots.try_borrow_mut().ok()?;
        slots.get_mut(i).map(|r| std::mem::replace(r, placeholder()))
    };
    let mut loaded = stream::iter(jobs)
        .filter_map(|(i, scope, lowercase, head)| std::future::ready(take(i).map(|r| (i, scope, r, lowercase, head))))
        .map(|(i, scope, r, lowercase, head)| async move { (i, load(scope, r, lowercase, head, opts, stats).await) })
        .buffer_unordered(opts.concurrency.max(1) as usize);
    while let Some((i, r)) = loaded.next().await {
        if let Some(slot) = slots.try_borrow_mut().ok().as_mut().and_then(|s| s.get_mut(i)) {
            *slot = r;
        }
    }
    drop(loaded);
    out.records = slots.into_inner();
    // A record read now may hold a failure to read it again next time; every other one is what
    // its file holds.
    let unsettled: Vec<usize> =
        read.iter().copied().filter(|&i| out.records.get(i).is_some_and(|r| !r.settled())).collect();
    settle(&mut out.roots, &unsettled);
    if same_layout {
        // The directories are those of before, so each record read again is nested as its
        // previous record was (the reused records keep their marks).
        super::order::copy_nested_marks(&mut out.records, previous, &read);
        out.reread = Some(read);
    } else {
        super::order::mark_nested(&mut out.records);
    }
    out
}

/// Marks each root settled whose records (which follow one another in root order) hold none of
/// the positions `unsettled` (ascending).
fn settle(roots: &mut [RootListing], unsettled: &[usize]) {
    let mut at = 0usize;
    let mut next = unsettled.iter().peekable();
    for listing in roots {
        let end = at + listing.records;
        let mut settled = true;
        while let Some(&&i) = next.peek() {
            if i >= end {
                break;
            }
            settled = false;
            next.next();
        }
        listing.settled = settled;
        at = end;
    }
}

impl Candidate {
    /// A candidate for the file `record` was built from, as it was listed then.
    fn again(scope: usize, root: usize, record: &SkillRecord) -> Candidate {
        Candidate {
            scope,
            root,
            location: record.location.clone(),
            size: record.size,
            etag: record.etag.clone(),
            lowercase: record.location.rsplit('/').next() == Some("skill.md"),
            head: None,
        }
    }
}

/// A root found as it was (its pages had the digest they had): its records, taken as they are.
struct Reused {
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
fn with_reused(candidates: Vec<Candidate>, reused: Vec<Reused>, previous: &[SkillRecord]) -> Vec<Candidate> {
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
        let records = previous.get(records).unwrap_or_default();
        all.extend(records.iter().map(|r| Candidate::again(scope, root, r)));
    }
    all.extend(rest);
    all
}

/// The previous discovery's roots, walked in listing order beside their records.
struct Earlier<'p> {
    records: &'p [SkillRecord],
    roots: &'p [RootListing],
    next: usize,
    at: usize,
    /// False once a root was not the one listed at its position (or the counts do not add up to
    /// the records): where the records of the later ones are is then not known.
    valid: bool,
}

impl<'p> Earlier<'p> {
    fn new(records: &'p [SkillRecord], roots: &'p [RootListing]) -> Self {
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
        let records = self.records.get(range.clone())?;
        records.iter().all(|r| r.root == ri && r.scope == scope).then_some((listing, range))
    }
}

/// The identity of a list of records (its address and length), as [`Discovery::compared_with`]
/// holds it.
pub fn identity(records: &[SkillRecord]) -> (usize, usize) {
    (records.as_ptr() as usize, records.len())
}

/// How `candidates` stand to `previous` (the records of a discovery are in candidate order), in
/// one pass: whether they are, one for one and in order, the keys `previous` was built from (the
/// same scope, root and key at every position), and whether besides every one is unchanged.
fn compare(candidates: &[Candidate], scopes: &[ScopeHandle], previous: &[SkillRecord]) -> (bool, bool) {
    if previous.is_empty() || candidates.len() != previous.len() {
        return (false, false);
    }
    let mut unchanged = true;
    for (c, r) in candidates.iter().zip(previous) {
        if c.root != r.root || c.location != r.location || scopes.get(c.scope).is_none_or(|s| s.name != r.scope) {
            return (false, false);
        }
        unchanged = unchanged && r.unchanged(c.size, c.etag.as_deref());
    }
    (true, unchanged)
}

/// A record slot's content while its record is being read (no allocation).
fn placeholder() -> SkillRecord {
    SkillRecord {
        scope: String::new(),
        root: 0,
        location: String::new(),
        size: None,
        etag: None,
        skill: None,
        diagnostics: no_diagnostics(),
    }
}

/// Reads and parses the SKILL.md of `record` (its keys and listed size and etag filled in).
async fn load(
    scope: &ScopeHandle,
    mut record: SkillRecord,
    lowercase: bool,
    head: Option<Head>,
    opts: &DiscoverOptions,
    stats: &CallStats,
) -> SkillRecord {
    let size = record.size;
    let c = Listed { directory: directory_of(&record.location), location: &record.location, size, lowercase, head };
    if c.lowercase {
        Rc::make_mut(&mut record.diagnostics).push(Diagnostic::warning(
            codes::SKILL_MD_LOWERCASE,
            "the file is named skill.md; the specification names it SKILL.md",
        ));
    }
    let dir_name = c.directory.rsplit('/').next().filter(|d| !d.is_empty()).map(str::to_string);
    let parse_opts = ParseOptions { dir_name, mode: opts.mode, include_body: Some(false), partial: false };
    let cap = opts.max_object_bytes.max(1);
    // Refused from the listed size, before any read.
    if let Some(d) = c.size.and_then(|s| limits::check_size(codes::SKILL_TOO_LARGE, "the SKILL.md", s, cap)) {
        Rc::make_mut(&mut record.diagnostics).push(d);
        return record;
    }
    let prefix = opts.prefix_bytes.clamp(64, cap);
    let first: Result<Cow<[u8]>, Diagnostic> = match &c.head {
        Some(Head::Bytes(bytes)) => Ok(Cow::Borrowed(bytes)),
        Some(Head::Failed(e)) => {
            Err(Diagnostic::error(codes::STORAGE_READ_FAILED, format!("reading the file failed: {e}")))
        }
        None => read_listed(scope, c.location, prefix, stats, "the file").await.map(Cow::Owned),
    };
    let first = match first {
        Ok(bytes) => bytes,
        Err(d) => {
            Rc::make_mut(&mut record.diagnostics).push(d);
            return record;
        }
    };
    let result = match limits::parse_prefix(&first, prefix, c.size, &parse_opts) {
        Some(mut result) => {
            vet_read(&first, opts, &mut result);
            result
        }
        // One byte more than the cap tells a file above it from one at it.
        None => {
            let all =
                read_listed(scope, c.location, cap.saturating_add(1), stats, "the whole file").await.and_then(|all| {
                    match limits::check_size(codes::SKILL_TOO_LARGE, "the SKILL.md", all.len() as u64, cap) {
                        Some(d) => Err(d),
                        None => Ok(all),
                    }
                });
            match all {
                Ok(all) => {
                    let mut result = parse_skill(&all, &parse_opts);
                    vet_read(&all, opts, &mut result);
                    result
                }
                Err(d) => {
                    Rc::make_mut(&mut record.diagnostics).push(d);
                    return record;
                }
            }
        }
    };
    record.skill = result.skill.map(Rc::new);
    if !result.diagnostics.is_empty() {
        Rc::make_mut(&mut record.diagnostics).extend(result.diagnostics);
    }
    // Held for the registry's life: without the room for four a first push reserves (the shared
    // empty list is left as it is).
    if let Some(diagnostics) = Rc::get_mut(&mut record.diagnostics) {
        diagnostics.shrink_to_fit();
    }
    record
}

/// Vets the SKILL.md bytes discovery read (no other read: a prefix is vetted as far as it goes),
/// by the host's policy: the findings join the skill's diagnostics, and with `vet: "refuse"` a
/// finding at or above `vetSeverity` refuses the skill.
fn vet_read(bytes: &[u8], opts: &DiscoverOptions, result: &mut crate::parse::ParseResult) {
    if opts.vet == crate::vet::VetPolicy::Off || result.skill.is_none() {
        return;
    }
    let description = result.skill.as_ref().map_or("", |s| s.description.as_str());
    let (found, refused) = crate::vet::at_discovery(bytes, description, opts.vet, opts.vet_severity);
    if refused {
        result.skill = None;
    }
    result.diagnostics.extend(found);
}

thread_local! {
    /// The diagnostics of every record that has none: one allocation shared by all of them
    /// (a push to a record's list copies it first, `Rc::make_mut`).
    static NO_DIAGNOSTICS: Rc<Vec<Diagnostic>> = Rc::default();
}

/// An empty list of diagnostics, shared (see [`NO_DIAGNOSTICS`]).
fn no_diagnostics() -> Rc<Vec<Diagnostic>> {
    NO_DIAGNOSTICS.with(Rc::clone)
}

/// Reads at most `most` bytes of a listed file; a file that is gone or a store that fails is the
/// diagnostic that says so (`what` names the read in its message).
async fn read_listed(
    scope: &ScopeHandle,
    key: &str,
    most: u32,
    stats: &CallStats,
    what: &str,
) -> Result<Vec<u8>, Diagnostic> {
    match store::read_checked(&*scope.storage, key, Some(most), stats).await {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(Diagnostic::error(codes::STORAGE_MISSING, "the file was listed but is gone")),
        Err(e) => Err(Diagnostic::error(codes::STORAGE_READ_FAILED, format!("reading {what} failed: {e}"))),
    }
}
