//! The SkillRegistry: the skills of every scope, discovered once, cached per scope, refreshed
//! cheaply, and serialisable to a snapshot a cold start can begin from without one store call.

use super::aliases::{self, Alias};
use super::record::{Discovery, ScopeHandle, SearchWords};
use super::records::Records;
use super::root_listing::RootListing;
use super::scan;
use super::types::{join_location, DiscoverOptions, FileContent, FileResult, RefreshReport, ScopedFile, SkillMeta};
use super::{order, report};
use crate::diagnostic::{codes, Diagnostic};
use crate::parse::{parse_skill, ParseOptions, Skill};
use crate::search::{encode, BodyEvidence, SearchDoc, SearchIndex};
use crate::store::keys;
use crate::store::{self, CallStats, Storage, StorageStats};
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

#[path = "snapshot.rs"]
mod snapshot;
pub use snapshot::{Carried, StoredApproval, SNAPSHOT_FORMAT};
#[path = "registry_reads.rs"]
mod reads;
pub use reads::{resource_paths, CappedRead, FileRequest, FilesRequest, SkillFiles, SkillSource};

/// The skills of every scope: discovered once, cached, refreshed cheaply, serialisable to a
/// snapshot.
pub struct SkillRegistry {
    scopes: Vec<ScopeHandle>,
    options: DiscoverOptions,
    /// Shared with a refresh under way, which compares the listings with them without a copy.
    records: Rc<Records>,
    /// What the discovery of `records` kept of each root's listing (a digest of its pages), so
    /// that a refresh does not read a listing that is as it was; empty after a snapshot load.
    listings: Rc<Vec<RootListing>>,
    /// The skills offered, sorted by name (looked up by binary search: no copy of the names): the
    /// record that wins each name, and each same-named skill under its qualified name (an alias;
    /// see [`aliases`] for how a value says which).
    winners: Vec<usize>,
    /// The same-named skills offered under qualified names, sorted by name.
    aliases: Rc<Vec<Alias>>,
    /// Per record: the index of the record that hides it.
    shadowed_by: Vec<Option<usize>>,
    /// The shadowed records, in precedence order (their warnings are written when asked for).
    shadowed: Vec<usize>,
    /// Findings about scopes and roots (the shadowing warnings are derived: [`Self::diagnostics`]).
    diagnostics: Vec<Diagnostic>,
    stats: Rc<CallStats>,
    /// Bumped by every change of content (discovery, refresh, snapshot), so that what is computed
    /// from the skills (visibility, catalogs) is computed once per generation.
    generation: u64,
    /// Per scope, where its store's keys are (an absolute directory or a URI).
    locations: BTreeMap<String, String>,
    /// The search index over the winning skills, document `i` the `i`-th name: built on first
    /// use (a search, a snapshot), not by discovery, which a host that never searches pays for.
    search: OnceCell<Rc<SearchIndex>>,
    /// The index a snapshot brought ([`encode::to_bytes`]), loaded on first use when it is one
    /// over exactly these skills.
    stored_search: RefCell<Option<Vec<u8>>>,
    /// Set when `stored_search` is this registry's own encoding of the index over its current
    /// skills (written by a snapshot), so that the next snapshot takes it as it is.
    own_search: std::cell::Cell<bool>,
    /// The index a refresh replaced, while skills that came from a snapshot (which keeps no body
    /// words) are still to be indexed: the next build carries their counts over from it, but for
    /// the names the refresh touched (the second field). Dropped by that build.
    earlier_search: RefCell<Option<(Rc<SearchIndex>, HashSet<String>)>>,
    /// Scopes marked lazy that are not listed yet: discovery and refreshes leave them out until
    /// [`Self::pending_inputs`] lists them.
    pending: Vec<String>,
}

/// What a refresh needs of a registry ([`SkillRegistry::refresh_inputs`]), for callers that cannot
/// hold the registry across an await: they discover with these, then [`SkillRegistry::apply`].
pub struct RefreshInputs {
    /// The scopes, in precedence order.
    pub scopes: Vec<ScopeHandle>,
    /// The discovery options.
    pub options: DiscoverOptions,
    /// The records the discovery compares with (shared, not copied).
    pub records: Rc<Records>,
    /// What the discovery of those records kept of each root's listing.
    pub listings: Rc<Vec<RootListing>>,
    /// The registry's store call counts.
    pub stats: Rc<CallStats>,
}

impl RefreshInputs {
    /// Discovers anew, comparing with the records these inputs hold.
    pub async fn discover(&self) -> Discovery {
        scan::discover(&self.scopes, &self.options, &self.records, &self.listings, &self.stats).await
    }
}

/// From this many skills on, discovery builds the search index before it returns, so that the
/// first search answers in the time of any other: a build takes about 33 µs a real-sized skill in
/// wasm (3.3 s at 100,000), against a discovery about three times that. Below it the first search
/// builds the index, within about 16 ms, and a host that never searches (its catalog shows every
/// skill) never pays for it.
pub const INDEXED_BY_DISCOVERY_FROM: usize = 500;

/// Whether the code that builds a search index can run now, as the host installed it
/// ([`set_index_buildable`]); yes when none was.
static INDEX_BUILDABLE: std::sync::OnceLock<fn() -> bool> = std::sync::OnceLock::new();

/// Installs the check discovery makes before it builds the search index
/// ([`INDEXED_BY_DISCOVERY_FROM`]): the wasm package's says no in a page whose rest (where that
/// code is) is still loading, so that such a discovery leaves the build to the first search,
/// which waits for it. The first installation wins; returns whether this one was taken.
pub fn set_index_buildable(check: fn() -> bool) -> bool {
    INDEX_BUILDABLE.set(check).is_ok()
}

fn index_buildable() -> bool {
    INDEX_BUILDABLE.get().is_none_or(|check| check())
}

/// The name of the skill record `i` holds: `Some(None)` for a record without a skill, `None`
/// for no record.
fn skill_name(records: &Records, i: usize) -> Option<Option<&str>> {
    records.get(i).map(|r| r.skill().name())
}

impl SkillRegistry {
    /// Discovers the skills of `scopes` (in precedence order).
    pub async fn discover(scopes: Vec<ScopeHandle>, options: DiscoverOptions) -> SkillRegistry {
        SkillRegistry::discover_lazy(scopes, options, &[]).await
    }

    /// Discovers the skills of `scopes`, except those named in `lazy`: they are noted, not listed
    /// (no call reaches their stores), until [`Self::pending_inputs`] lists them.
    pub async fn discover_lazy(scopes: Vec<ScopeHandle>, options: DiscoverOptions, lazy: &[String]) -> SkillRegistry {
        let stats = Rc::new(CallStats::default());
        let pending: Vec<String> = scopes.iter().filter(|s| lazy.contains(&s.name)).map(|s| s.name.clone()).collect();
        let listed: Vec<ScopeHandle> = scopes.iter().filter(|s| !pending.contains(&s.name)).cloned().collect();
        let found = scan::discover(&listed, &options, &Records::default(), &[], &stats).await;
        let mut r = SkillRegistry::empty(scopes, options, stats);
        r.pending = pending;
        // A first discovery reports nothing: no diff against the empty registry (it would name
        // every skill found, a copy of every name and key held until it is dropped).
        r.install(found);
        if r.winners.len() >= INDEXED_BY_DISCOVERY_FROM && index_buildable() {
            r.build_index_now();
        }
        r
    }

    /// Builds the search index now (see [`INDEXED_BY_DISCOVERY_FROM`]). Never inlined: its code
    /// runs only for a registry of many skills, so the wasm package's split keeps it out of the
    /// code a page loads first, which discovery is.
    #[inline(never)]
    fn build_index_now(&self) {
        self.search_index();
    }

    fn empty(scopes: Vec<ScopeHandle>, options: DiscoverOptions, stats: Rc<CallStats>) -> SkillRegistry {
        SkillRegistry {
            scopes,
            options,
            records: Rc::default(),
            listings: Rc::default(),
            winners: Vec::new(),
            aliases: Rc::default(),
            shadowed_by: Vec::new(),
            shadowed: Vec::new(),
            diagnostics: Vec::new(),
            stats,
            generation: 0,
            locations: BTreeMap::new(),
            search: OnceCell::new(),
            stored_search: RefCell::new(None),
            own_search: std::cell::Cell::new(false),
            earlier_search: RefCell::new(None),
            pending: Vec::new(),
        }
    }

    /// The lazy scopes not listed yet.
    pub fn pending_scopes(&self) -> &[String] {
        &self.pending
    }

    /// What listing the lazy scopes not listed yet needs: a refresh's inputs with them among the
    /// scopes (the others are listed again as a refresh lists them, their unchanged files not
    /// read). None when every scope is listed. [`Self::apply_listed`] installs the result.
    pub fn pending_inputs(&self) -> Option<RefreshInputs> {
        if self.pending.is_empty() {
            return None;
        }
        Some(RefreshInputs { scopes: self.scopes.clone(), ..self.refresh_inputs() })
    }

    /// Marks the scopes named in `lazy` that hold no record as not listed yet (a registry started
    /// from a snapshot taken before they were listed; one listed and found empty is listed once
    /// more on first access).
    pub fn mark_pending(&mut self, lazy: &[String]) {
        let held: std::collections::HashSet<&str> = self.records.iter().map(|r| r.scope()).collect();
        self.pending = self
            .scopes
            .iter()
            .filter(|s| lazy.contains(&s.name) && !held.contains(s.name.as_str()))
            .map(|s| s.name.clone())
            .collect();
    }

    /// Installs a discovery made with [`Self::pending_inputs`]: the lazy scopes count as listed
    /// from now on (a store that failed is a diagnostic, as in any discovery).
    pub fn apply_listed(&mut self, found: Discovery) -> RefreshReport {
        self.pending.clear();
        let report = self.apply(found);
        // The catalog's note on the scope changes even when the scope held nothing.
        self.generation += 1;
        report
    }

    /// Says where each scope's keys are (scope name -> absolute directory or URI), for the
    /// locations the model is shown ([`SkillMeta::path`]).
    pub fn set_locations(&mut self, locations: BTreeMap<String, String>) {
        self.locations = locations;
        self.generation += 1;
    }

    /// Takes the locations the scopes' stores give now ([`Storage::location`]) for the scopes
    /// `pinned` does not name (the host's `scopePaths`): a store may learn where its keys are by
    /// listing them (a discovery index found at its fallback URL). A new generation when one moved.
    pub fn relocate(&mut self, pinned: &BTreeMap<String, String>) {
        let mut moved = false;
        for s in &self.scopes {
            if pinned.contains_key(&s.name) {
                continue;
            }
            let Some(now) = s.storage.location().filter(|l| !l.is_empty()) else { continue };
            if self.locations.get(&s.name) != Some(&now) {
                self.locations.insert(s.name.clone(), now);
                moved = true;
            }
        }
        if moved {
            self.generation += 1;
        }
    }

    /// Where `key` of `scope`'s store is, as the model is shown it.
    pub fn location_of(&self, scope: &str, key: &str) -> String {
        join_location(self.locations.get(scope).map(String::as_str), scope, key)
    }

    /// Which content this is: a new number after every discovery, refresh or snapshot load.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Re-lists every scope and re-reads only the SKILL.md files whose size or etag changed.
    pub async fn refresh(&mut self) -> RefreshReport {
        let found = self.refresh_inputs().discover().await;
        self.apply(found)
    }

    /// What `refresh` needs, for callers that cannot hold the registry across an await.
    pub fn refresh_inputs(&self) -> RefreshInputs {
        RefreshInputs {
            // A lazy scope not listed yet stays so: a refresh does not wait for its store.
            scopes: self.scopes.iter().filter(|s| !self.pending.contains(&s.name)).cloned().collect(),
            options: self.options.clone(),
            records: self.records.clone(),
            listings: self.listings.clone(),
            stats: self.stats.clone(),
        }
    }

    /// Replaces the registry's content with a discovery and says what changed. The records the
    /// discovery was compared with are to be alive still (held, as [`Self::refresh_inputs`] hands
    /// them out), so that records installed since by another refresh are told from them.
    pub fn apply(&mut self, mut found: Discovery) -> RefreshReport {
        // What the discovery says in terms of the records it was compared with holds only for
        // those: a refresh that ran alongside may have installed others meanwhile.
        // (A discovery that found its records unchanged leaves the registry's records as they
        // are, whichever refresh installed them.)
        let current = found.compared_with == self.records.identity();
        if found.unchanged {
            // The listings as found (a store's version may have moved since), when they were
            // found against the records the registry still holds: their ranges count those.
            if current {
                self.listings = Rc::new(std::mem::take(&mut found.roots));
            }
            return self.apply_unchanged(found.diagnostics);
        }
        let old = std::mem::take(&mut self.records);
        let report = match found.reread.take().filter(|_| current) {
            Some(read) => self.install_reread(old, found, &read),
            None => {
                let report = report::diff(&old, &found.records);
                drop(old);
                self.install(found);
                report
            }
        };
        let unchanged = report.added.is_empty() && report.changed.is_empty() && report.removed.is_empty();
        if !unchanged || self.search.get().is_some_and(|s| s.len() != self.winners.len()) {
            // Built again on first use.
            self.keep_earlier_search(&report);
            self.search = OnceCell::new();
            *self.stored_search.borrow_mut() = None;
            self.own_search.set(false);
        }
        report
    }

    /// Before the index is dropped for a rebuild: keeps it when records whose body words it holds
    /// (a snapshot's, or ones indexed before) are among the records, with the names `report`
    /// touched, whose counts must not be carried. An index kept by an earlier refresh and not yet
    /// used stays, with these names added.
    fn keep_earlier_search(&mut self, report: &RefreshReport) {
        let touched = report.added.iter().chain(&report.changed).chain(&report.removed).map(|r| r.name.clone());
        let mut earlier = self.earlier_search.borrow_mut();
        if let Some((_, names)) = earlier.as_mut() {
            names.extend(touched);
            return;
        }
        if !self.records.iter().any(|r| r.skill().is_some() && !r.search_words().is_some_and(SearchWords::is_held)) {
            return;
        }
        let index = match self.search.get() {
            Some(index) => Some(index.clone()),
            None => self.stored_search.borrow_mut().take().and_then(SearchIndex::load).map(Rc::new),
        };
        *earlier = index.map(|index| (index, touched.collect()));
    }

    /// Takes a discovery that found the keys of `old` and read again the records at `read`, and
    /// says which of those changed. When every one of them still holds a skill of the same name,
    /// or none as before, the winners and the shadowing stand (they depend on the keys and the
    /// names alone); otherwise they are decided again.
    fn install_reread(&mut self, old: Rc<Records>, found: Discovery, read: &[usize]) -> RefreshReport {
        let report = report::diff_at(&old, &found.records, read);
        let names_stand = read.iter().all(|&i| skill_name(&old, i) == found.records.get(i).map(|r| r.skill.name()));
        drop(old);
        if names_stand {
            self.records = Rc::new(Records::Parsed(found.records));
            self.listings = Rc::new(found.roots);
            self.diagnostics = found.diagnostics;
            self.generation += 1;
        } else {
            self.install(found);
        }
        report
    }

    /// Takes a discovery's records and findings and decides the winners again.
    fn install(&mut self, found: Discovery) {
        self.records = Rc::new(Records::Parsed(found.records));
        self.listings = Rc::new(found.roots);
        self.diagnostics = found.diagnostics;
        self.resolve();
    }

    /// A discovery that found every record as it was: the records, winners, search index and
    /// generation stand; only the findings about scopes and roots are taken anew, and the
    /// generation moves only when those differ.
    fn apply_unchanged(&mut self, scope_findings: Vec<Diagnostic>) -> RefreshReport {
        if self.diagnostics != scope_findings {
            self.diagnostics = scope_findings;
            self.generation += 1;
        }
        RefreshReport::default()
    }

    /// The search index of the winning skills: names, descriptions in every locale, the words
    /// of each body's opening; a skill whose record no longer holds its words (from a snapshot,
    /// or indexed before) takes its counts from the index a refresh replaced, when there is one.
    /// The records let go of the words the index now holds. Linear.
    fn build_search(&self) -> SearchIndex {
        let earlier = self.earlier_search.borrow_mut().take();
        let carried: HashMap<&str, u32> = match &earlier {
            Some((index, touched)) => index.names().zip(0u32..).filter(|(name, _)| !touched.contains(*name)).collect(),
            None => HashMap::new(),
        };
        // Per winner: its record's place, the skill, the words its record holds.
        let entries: Vec<(usize, &Skill, Option<Rc<str>>)> = self
            .winners
            .iter()
            .filter_map(|&v| {
                let (at, skill) = aliases::entry(&self.records, &self.aliases, v)?;
                Some((at, &**skill, self.records.get(at)?.search_words().and_then(SearchWords::get)))
            })
            .collect();
        let index = SearchIndex::rebuild(
            entries.iter().map(|(_, skill, words)| {
                let name = skill.name.as_str();
                let mut texts = vec![skill.description.as_str()];
                texts.extend(skill.localized_descriptions.values().map(String::as_str));
                let body = match words {
                    Some(words) => BodyEvidence::Words(words),
                    None => carried.get(name).map_or(BodyEvidence::None, |&d| BodyEvidence::Carried(d)),
                };
                SearchDoc { name, texts, body }
            }),
            earlier.as_ref().map(|(index, _)| &**index),
        );
        for (at, _, _) in &entries {
            if let Some(words) = self.records.get(*at).and_then(|r| r.search_words()) {
                words.release();
            }
        }
        index
    }

    /// The search index over the visible skills (document `i` is the `i`-th of [`Self::names`]),
    /// made on first use (discovery uses it before it returns; a refresh that changed skills drops
    /// it): the snapshot's, when the registry started from one over exactly these skills, else
    /// built from the records (linear).
    pub fn search_index(&self) -> Rc<SearchIndex> {
        self.search
            .get_or_init(|| {
                let stored = self.stored_search.borrow_mut().take();
                self.own_search.set(false);
                // The bytes are the index: loading notes where things are, it decodes no list.
                let decoded = stored.and_then(SearchIndex::load);
                match decoded {
                    Some(ix) if ix.has_names(self.winner_names()) => Rc::new(ix),
                    _ => Rc::new(self.build_search()),
                }
            })
            .clone()
    }

    /// The search index's encoding, for a snapshot. When no index is in use, the one built for
    /// it is kept as this encoding (decoded on the first search), not as the index itself, which
    /// is several times larger and may never be searched.
    pub(super) fn search_bytes(&self) -> Vec<u8> {
        if self.search.get().is_none() {
            let mut stored = self.stored_search.borrow_mut();
            if let (Some(bytes), true) = (stored.as_ref(), self.own_search.get()) {
                return bytes.clone();
            }
            if stored.is_none() {
                let bytes = encode::to_bytes(&self.build_search());
                *stored = Some(bytes.clone());
                self.own_search.set(true);
                return bytes;
            }
        }
        encode::to_bytes(&self.search_index())
    }

    /// Decides which record wins each name, and which records are shadowed (in precedence order).
    fn resolve(&mut self) {
        self.generation += 1;
        let decided = order::winners(&self.scopes, &self.records);
        // Same-named skills are offered under qualified names; a lookalike is not offered at all.
        let same_named: Vec<usize> =
            decided.shadowed.iter().copied().filter(|&i| !self.is_lookalike(&decided.shadowed_by, i)).collect();
        let (offered, aliases) = aliases::decide(&self.scopes, &self.records, decided.by_name, &same_named);
        self.shadowed = decided.shadowed;
        self.winners = offered;
        self.aliases = Rc::new(aliases);
        self.shadowed_by = decided.shadowed_by;
    }

    /// Whether record `i` is hidden by a skill whose name looks like its own (not the same name).
    fn is_lookalike(&self, shadowed_by: &[Option<usize>], i: usize) -> bool {
        shadowed_by
            .get(i)
            .copied()
            .flatten()
            .is_some_and(|w| order::name_of(&self.records, w) != order::name_of(&self.records, i))
    }

    /// The `skill-shadowed` warnings and `skill-confusable` errors, one per hidden record in
    /// precedence order: written when asked for, not held (at 100,000 skills, thousands of
    /// messages and paths nobody may read).
    fn shadowing(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        let offered_as: std::collections::HashMap<usize, &str> =
            self.aliases.iter().map(|a| (a.record, a.skill.name.as_str())).collect();
        self.shadowed.iter().filter_map(move |&i| {
            let b = self.records.get(i)?;
            let w = self.shadowed_by.get(i).copied().flatten()?;
            let a = self.records.get(w)?;
            let (name, other) = (order::name_of(&self.records, i), order::name_of(&self.records, w));
            if name != other {
                let mut d = Diagnostic::error(
                    codes::SKILL_CONFUSABLE,
                    format!(
                        "skill '{}' at {}:{} is hidden: its name looks like '{}' at {}:{}, which is offered instead",
                        crate::text::one_line(name),
                        b.scope(),
                        b.location(),
                        crate::text::one_line(other),
                        a.scope(),
                        a.location()
                    ),
                );
                d.path = Some(format!("{}:{}", b.scope(), b.location()));
                return Some(d);
            }
            let mut d = Diagnostic::warning(
                codes::SKILL_SHADOWED,
                format!(
                    "skill '{}' at {}:{} is shadowed by the one at {}:{}{}",
                    order::name_of(&self.records, i),
                    b.scope(),
                    b.location(),
                    a.scope(),
                    a.location(),
                    offered_as.get(&i).map_or(String::new(), |q| format!("; it is offered as '{q}'"))
                ),
            );
            d.path = Some(format!("{}:{}", b.scope(), b.location()));
            Some(d)
        })
    }

    /// The offered entry named `name` (a record or an alias, see [`aliases`]).
    fn offered(&self, name: &str) -> Option<usize> {
        let at =
            self.winners.binary_search_by(|&v| aliases::name_at(&self.records, &self.aliases, v).cmp(name)).ok()?;
        self.winners.get(at).copied()
    }

    /// The record offered as `name`: the winner of a name, or a same-named skill under its
    /// qualified name.
    fn winner(&self, name: &str) -> Option<usize> {
        self.offered(name).and_then(|v| aliases::record_of(&self.records, &self.aliases, v))
    }

    /// The own name of the skill offered as `name` (a same-named skill's, offered under its
    /// qualified name, is the name its SKILL.md gives).
    pub fn own_name(&self, name: &str) -> Option<&str> {
        self.records.get(self.winner(name)?)?.skill().name()
    }

    /// The names of the visible skills, sorted.
    fn winner_names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.winners.iter().map(|&v| aliases::name_at(&self.records, &self.aliases, v))
    }

    /// The meta of offered entry `v`: an alias's carries its qualified name, and nothing hides it.
    fn offered_meta(&self, v: usize) -> Option<SkillMeta> {
        let (i, skill) = aliases::entry(&self.records, &self.aliases, v)?;
        let mut meta = self.meta(i)?;
        if i != v {
            meta.skill = skill.clone();
            meta.shadowed_by = None;
        }
        Some(meta)
    }

    fn meta(&self, i: usize) -> Option<SkillMeta> {
        super::metas::meta_of(&self.records, &self.locations, i, self.shadowed_by.get(i).copied().flatten())
    }

    /// The visible skills (one per name, the winner), by name, as records shared with the
    /// registry: each meta is built when it is asked for.
    pub fn winner_metas(&self) -> super::WinnerMetas {
        super::WinnerMetas::new(self.records.clone(), self.aliases.clone(), &self.winners, &self.locations)
    }

    /// The visible skills (one per name, the winner), by name. With `scope`: every loaded skill
    /// of that scope, shadowed ones included (they carry `shadowed_by`), by name.
    pub fn list_metas(&self, scope: Option<&str>) -> Vec<SkillMeta> {
        match scope {
            None => {
                // Sized up front: a collected filter would double its way there, with up to
                // half of it spare.
                let mut out = Vec::with_capacity(self.winners.len());
                out.extend(self.winners.iter().filter_map(|&v| self.offered_meta(v)));
                out
            }
            Some(s) => {
                let mut out: Vec<SkillMeta> = order::precedence(&self.scopes, &self.records)
                    .into_iter()
                    .filter(|&i| self.records.get(i).is_some_and(|r| r.scope() == s))
                    .filter_map(|i| self.meta(i))
                    .collect();
                crate::sort::sort_by(&mut out, |a, b| a.skill.name.cmp(&b.skill.name));
                out
            }
        }
    }

    /// Every loaded skill of every scope, shadowed ones included (they carry `shadowedBy`), in
    /// precedence order.
    pub fn list_metas_across(&self) -> Vec<SkillMeta> {
        order::precedence(&self.scopes, &self.records).into_iter().filter_map(|i| self.meta(i)).collect()
    }

    /// The skill that wins `name`.
    pub fn get(&self, name: &str) -> Option<SkillMeta> {
        self.offered(name).and_then(|v| self.offered_meta(v))
    }

    /// The names of the visible skills.
    pub fn names(&self) -> Vec<String> {
        self.winner_names().map(str::to_string).collect()
    }

    /// Each skill offered, in name order: `(offered name, scope, own name, directory key)`; the
    /// offered name is the qualified one (`user:pdf`) for a same-named skill of another scope.
    pub fn offered_skills(&self) -> Vec<(String, String, String, String)> {
        self.winners
            .iter()
            .filter_map(|&v| {
                let i = aliases::record_of(&self.records, &self.aliases, v)?;
                let r = self.records.get(i)?;
                let own = r.skill().name()?.to_string();
                let offered = aliases::name_at(&self.records, &self.aliases, v).to_string();
                Some((offered, r.scope().to_string(), own, r.directory().to_string()))
            })
            .collect()
    }

    /// The visible skill a skill named `name` would be hidden by as a look-alike, were it added
    /// (see [`crate::lookalike`]): one whose name differs from `name` but shares its key, when
    /// `name` is not plain (a plain name is never hidden). A host that adds skills (an upload)
    /// refuses an impostor with it before it is stored. One pass over the visible names.
    pub fn lookalike(&self, name: &str) -> Option<String> {
        if crate::lookalike::is_plain(name) {
            return None;
        }
        let key = crate::lookalike::name_key(name);
        let own = |v: usize| aliases::record_of(&self.records, &self.aliases, v) == Some(v);
        let mut alike = self
            .winners
            .iter()
            .filter(|&&v| own(v))
            .map(|&v| aliases::name_at(&self.records, &self.aliases, v))
            .filter(|&other| other != name && crate::lookalike::name_key(other) == key);
        let first = alike.next()?;
        // A plain one before any other: it is the one that would stay.
        Some(alike.chain(std::iter::once(first)).find(|n| crate::lookalike::is_plain(n)).unwrap_or(first).to_string())
    }

    /// Everything found: scope-level findings, then each skill's diagnostics (with its location
    /// as `path`), refused skills included.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = self.diagnostics.clone();
        out.extend(self.pending.iter().map(|scope| {
            Diagnostic::info(
                codes::SCOPE_NOT_LISTED,
                format!("scope '{scope}' is lazy and not listed yet: it is listed on first access"),
            )
        }));
        out.extend(self.shadowing());
        for r in self.records.iter() {
            for d in r.diagnostics().iter() {
                let mut d = d.clone();
                d.path = Some(format!("{}:{}", r.scope(), r.location()));
                out.push(d);
            }
        }
        out
    }

    /// The store calls made so far.
    pub fn stats(&self) -> StorageStats {
        StorageStats {
            list_calls: self.stats.list_calls.get(),
            read_calls: self.stats.read_calls.get(),
            bytes_read: self.stats.bytes_read.get(),
        }
    }
}
