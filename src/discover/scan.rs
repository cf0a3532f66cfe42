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

use super::record::{directory_of, Discovery, ScopeHandle, SearchWords, SkillRecord, SkillSlot};
use super::records::{Record, Records};
use super::root_listing::RootListing;
use super::scan_roots::{list_scopes, with_reused, Candidate};
use super::types::DiscoverOptions;
use crate::diagnostic::{codes, Diagnostic};
use crate::parse::{parse_skill, ParseOptions};
use crate::store::{self, limits, CallStats, Head};
use futures_util::stream::{self, StreamExt};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The default roots of a scope: `.agents/skills/` and, when the host names its client,
/// `.<client>/skills/`.
pub fn default_roots(client: Option<&str>) -> Vec<String> {
    let mut roots = vec![".agents/skills/".to_string()];
    if let Some(c) = client.map(str::trim).filter(|c| !c.is_empty() && *c != "agents") {
        roots.push(format!(".{}/skills/", c.trim_start_matches('.')));
    }
    roots
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
///
/// The steps: list every root (`list_scopes`); stop there when everything is as it was; else
/// turn the candidates into records, reusing each unchanged one (`into_records`); read the
/// others (`read_records`); then mark what the next refresh may skip and which skills are
/// nested (`settle_and_nest`).
pub async fn discover(
    scopes: &[ScopeHandle],
    opts: &DiscoverOptions,
    previous: &Records,
    previous_roots: &[RootListing],
    stats: &CallStats,
) -> Discovery {
    // Records a snapshot holds are read in place, as parsed ones are (`Record`): a refresh of a
    // registry started from a snapshot copies out only what it reuses.
    let mut out = Discovery { compared_with: previous.identity(), ..Discovery::default() };
    let listing = list_scopes(scopes, opts, previous, previous_roots, stats, &mut out).await;
    // Every root found as it was, and each of their records what its file holds: nothing to do.
    if listing.all_as_before(previous.len(), &out.roots) {
        out.unchanged = true;
        return out;
    }
    let candidates = with_reused(listing.candidates, listing.reused, previous);
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
    let (records, jobs) = into_records(candidates, scopes, previous, same_layout);
    let read: Vec<usize> = jobs.iter().map(|j| j.0).collect();
    out.records = read_records(records, jobs, opts, stats).await;
    settle_and_nest(&mut out, previous, read, same_layout);
    out
}

/// A record to read: its position among the records, its scope, whether its file is named
/// `skill.md`, and the first bytes the listing brought.
type Job<'s> = (usize, &'s ScopeHandle, bool, Option<Head>);

/// Each candidate moved into its record (its keys are not copied): the previous record's skill
/// when its file is unchanged, else a record to read (a [`Job`]). With `same_layout` the previous
/// record of a candidate is the one at its position; otherwise the previous records are looked up
/// by scope and key (a key may repeat when roots overlap: the first unchanged one is taken).
fn into_records<'s>(
    candidates: Vec<Candidate>,
    scopes: &'s [ScopeHandle],
    previous: &Records,
    same_layout: bool,
) -> (Vec<SkillRecord>, Vec<Job<'s>>) {
    let by_key: HashMap<(&str, &str), Vec<Record>> = if same_layout {
        HashMap::new()
    } else {
        let mut map: HashMap<_, Vec<Record>> = HashMap::with_capacity(previous.len());
        for r in previous.iter() {
            let (scope, _, location) = r.place();
            map.entry((scope, location)).or_default().push(r);
        }
        map
    };
    // A record to be read waits in its slot with its keys; a job holds only its slot and what the
    // listing brought besides, so no second list of candidates is held while the reads run.
    let mut jobs: Vec<Job<'s>> = Vec::new();
    let mut records: Vec<SkillRecord> = Vec::with_capacity(candidates.len());
    for (k, c) in candidates.into_iter().enumerate() {
        let Some(scope) = scopes.get(c.scope) else { continue };
        let reused = if same_layout {
            previous.get(k).filter(|r| r.unchanged(c.size, c.etag.as_deref()))
        } else {
            let same = by_key.get(&(scope.name.as_str(), c.location.as_str()));
            same.and_then(|same| same.iter().copied().find(|r| r.unchanged(c.size, c.etag.as_deref())))
        };
        let (skill, diagnostics, search_words) = match reused {
            Some(r) => (r.skill().clone(), r.diagnostics(), r.search_words().cloned().unwrap_or_default()),
            None => {
                jobs.push((records.len(), scope, c.lowercase, c.head));
                (SkillSlot::default(), no_diagnostics(), SearchWords::default())
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
            search_words,
        });
    }
    (records, jobs)
}

/// Reads the records `jobs` name, `concurrency` at a time (step 3 of discovery). Each record is
/// taken out of its slot when its read starts and put back when it completes.
async fn read_records(
    records: Vec<SkillRecord>,
    jobs: Vec<Job<'_>>,
    opts: &DiscoverOptions,
    stats: &CallStats,
) -> Vec<SkillRecord> {
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
    slots.into_inner()
}

/// After the reads (`read`, the positions read): which roots the next refresh may take as they
/// are, and which skills are nested in another's directory.
fn settle_and_nest(out: &mut Discovery, previous: &Records, read: Vec<usize>, same_layout: bool) {
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

/// How `candidates` stand to `previous` (the records of a discovery are in candidate order), in
/// one pass: whether they are, one for one and in order, the keys `previous` was built from (the
/// same scope, root and key at every position), and whether besides every one is unchanged.
fn compare(candidates: &[Candidate], scopes: &[ScopeHandle], previous: &Records) -> (bool, bool) {
    if previous.is_empty() || candidates.len() != previous.len() {
        return (false, false);
    }
    let mut unchanged = true;
    for (c, r) in candidates.iter().zip(previous.iter()) {
        let (scope, root, location) = r.place();
        if c.root != root || c.location != location || scopes.get(c.scope).is_none_or(|s| s.name != scope) {
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
        skill: SkillSlot::default(),
        diagnostics: no_diagnostics(),
        search_words: SearchWords::default(),
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
    let (result, words) = match limits::parse_prefix(&first, prefix, c.size, &parse_opts) {
        Some(mut result) => {
            vet_read(&first, opts, &mut result);
            let words = result.skill.is_some().then(|| super::body_words::body_words(&first));
            (result, words)
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
                    let words = result.skill.is_some().then(|| super::body_words::body_words(&all));
                    (result, words)
                }
                Err(d) => {
                    Rc::make_mut(&mut record.diagnostics).push(d);
                    return record;
                }
            }
        }
    };
    record.skill = result.skill.map(Rc::new).into();
    record.search_words = SearchWords::new(words.map(Rc::from));
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
