//! [`SkillHost`]: a registry together with the configuration it was discovered with and the
//! visibility that configuration implies. It is what the JS `SkillRegistry` is; the catalog, user
//! invocation and autocomplete read it, and [`super::SkillTool`] serves from it.

use super::config::{Scopes, SkillsConfig};
use super::view::View;
#[cfg(feature = "invocation")]
use crate::activate::invoke::{self, ParsedMessage, Suggestion};
use crate::consent::Approvals;
use crate::diagnostic::Diagnostic;
use crate::disclose::localized_description;
use crate::disclose::CatalogResult;
use crate::discover::SkillMeta;
use crate::discover::{self, RefreshReport, SkillRegistry};
use crate::search::{SearchHit, SearchOptions};
use crate::shared_bytes::SharedBytes;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A registry, its configuration, and who sees which of its skills.
pub struct SkillHost {
    registry: SkillRegistry,
    config: Rc<SkillsConfig>,
    view: Rc<View>,
    catalog: RefCell<Option<Rc<CatalogResult>>>,
    /// The host's approvals of skills, each for one content digest (host-wide: every tool and
    /// session over this registry shares them).
    approvals: Approvals,
    /// The content digests computed since the last refresh, by (scope, name): a skill's content
    /// is taken as it was when its digest was computed until the next refresh (or the next
    /// `content_digest`).
    digests: HashMap<(String, String), String>,
    /// The content digests a snapshot carried, by (scope, name): shown on the skills' metadata
    /// until the next refresh, never taken as a check (a snapshot is a cache any process may
    /// write; consent and lockfiles compute their own).
    carried_digests: HashMap<(String, String), String>,
    /// The lockfile the host gave, if any, and what it decided (see [`super::lock`]).
    #[cfg(feature = "digest")]
    pub(super) lock: Option<Rc<crate::lock::Lockfile>>,
    #[cfg(feature = "digest")]
    pub(super) lock_report: crate::lock::LockReport,
}

impl SkillHost {
    /// Wraps a registry; the visibility is computed now (the predicate is called once per skill).
    pub fn new(registry: SkillRegistry, config: SkillsConfig) -> SkillHost {
        let view = Rc::new(View::compute(&registry, &config));
        SkillHost {
            registry,
            config: Rc::new(config),
            view,
            catalog: RefCell::new(None),
            approvals: Approvals::default(),
            digests: HashMap::new(),
            carried_digests: HashMap::new(),
            #[cfg(feature = "digest")]
            lock: None,
            #[cfg(feature = "digest")]
            lock_report: crate::lock::LockReport::default(),
        }
    }

    /// Who sees which skill under `config`: the filters' view, less the skills a lockfile refused.
    pub(super) fn compute_view(&self, config: &SkillsConfig) -> View {
        let view = View::compute(&self.registry, config);
        #[cfg(feature = "digest")]
        let view = view.refusing(&self.lock_report.refused);
        view
    }

    /// The approvals the host holds.
    pub fn approvals(&self) -> &Approvals {
        &self.approvals
    }

    /// The approvals, to record one or restore them.
    pub fn approvals_mut(&mut self) -> &mut Approvals {
        &mut self.approvals
    }

    /// The content digest of `name` of `scope` computed since the last refresh, if any.
    pub fn known_digest(&self, scope: &str, name: &str) -> Option<&str> {
        self.digests.get(&self.digest_key(scope, name)).map(String::as_str)
    }

    /// Keeps the content digest just computed for `name` of `scope` (until the next refresh).
    pub fn remember_digest(&mut self, scope: &str, name: &str, digest: &str) {
        // Bounded by the skills: one per (scope, name) the registry has.
        let key = self.digest_key(scope, name);
        self.digests.insert(key, digest.to_string());
    }

    /// Where a skill's digest is kept: its scope and its own name, whether it was asked for by
    /// that name or by the qualified name a same-named skill is offered under.
    fn digest_key(&self, scope: &str, name: &str) -> (String, String) {
        (scope.to_string(), self.registry.own_name(name).unwrap_or(name).to_string())
    }

    /// Whether the skills of `scope` come from the network (its store has an origin or says it is
    /// remote), and that origin.
    pub fn scope_origin(&self, scope: &str) -> (bool, Option<String>) {
        match self.registry.scope_storage(scope) {
            Some(s) => {
                let origin = s.origin();
                (origin.is_some() || s.remote(), origin)
            }
            None => (false, None),
        }
    }

    /// Whether the `allowed-tools` of the skill `meta` take effect: always for a local skill; for
    /// a remote one, only when the host approved its current content (its digest, as computed
    /// since the last refresh, is the one approved).
    pub fn allowed_tools_apply(&self, meta: &SkillMeta) -> bool {
        let name = &meta.skill.name;
        !self.scope_origin(&meta.scope).0
            || self.known_digest(&meta.scope, name).is_some_and(|d| self.approvals.approved(&meta.scope, name, d))
    }

    /// Discovers the skills of `scopes` (see [`super::resolve_scopes`]) as `config` says.
    pub async fn discover(scopes: Scopes, config: SkillsConfig) -> SkillHost {
        let mut registry = SkillRegistry::discover_lazy(scopes.handles, config.discover.clone(), &scopes.lazy).await;
        registry.set_locations(scopes.locations);
        registry.relocate(&config.scope_paths);
        SkillHost::new(registry, config)
    }

    /// Starts from a snapshot with no store call (the scopes must be those it was taken with).
    pub fn from_snapshot(
        bytes: impl Into<SharedBytes>,
        scopes: Scopes,
        config: SkillsConfig,
    ) -> Result<SkillHost, Diagnostic> {
        Self::from_snapshot_checked(bytes, scopes, config, |_| {})
    }

    /// [`SkillHost::from_snapshot`], calling `checked` as [`SkillRegistry::from_snapshot_checked`]
    /// does: with the snapshot's length, once it is found good and before it is decoded.
    pub fn from_snapshot_checked(
        bytes: impl Into<SharedBytes>,
        scopes: Scopes,
        config: SkillsConfig,
        checked: impl FnOnce(usize),
    ) -> Result<SkillHost, Diagnostic> {
        Self::from_snapshot_approved(bytes, scopes, config, checked, false)
    }

    /// [`SkillHost::from_snapshot_checked`], taking the approvals the snapshot holds when
    /// `take_approvals` (else they are left unread: a snapshot is a cache any process may write).
    pub fn from_snapshot_approved(
        bytes: impl Into<SharedBytes>,
        scopes: Scopes,
        config: SkillsConfig,
        checked: impl FnOnce(usize),
        take_approvals: bool,
    ) -> Result<SkillHost, Diagnostic> {
        let (mut registry, carried) =
            SkillRegistry::from_snapshot_with(bytes, scopes.handles, config.discover.clone(), checked)?;
        registry.mark_pending(&scopes.lazy);
        registry.set_locations(scopes.locations);
        let mut host = SkillHost::new(registry, config);
        let refused = |e: String| {
            Diagnostic::error(crate::diagnostic::codes::SNAPSHOT_INVALID, format!("the snapshot cannot be read: {e}"))
        };
        if take_approvals {
            host.approvals = crate::consent::approvals_from_stored(carried.approvals).map_err(refused)?;
        }
        for (scope, name, digest) in carried.digests {
            if !crate::consent::is_content_digest(&digest) {
                return Err(refused(format!(
                    "the digest of '{}' is not sha256:<64 lowercase hex>",
                    crate::text::one_line(&name)
                )));
            }
            host.carried_digests.insert((scope, name), digest);
        }
        Ok(host)
    }

    /// The registry as snapshot bytes ([`SkillRegistry::snapshot`]), with the content digests
    /// known now (see [`SkillHost::digest_of`]), and the host's approvals when `with_approvals`.
    pub fn snapshot(&self, with_approvals: bool) -> Vec<u8> {
        let approvals = if with_approvals {
            self.approvals.list().into_iter().map(|a| (a.scope, a.name, a.digest)).collect()
        } else {
            Vec::new()
        };
        let mut known: Vec<(&(String, String), &String)> = self.carried_digests.iter().collect();
        known.retain(|(k, _)| !self.digests.contains_key(*k));
        known.extend(self.digests.iter());
        // Sorted: the same registry gives the same bytes.
        known.sort_unstable();
        let digests = known.into_iter().map(|((scope, name), d)| (scope.clone(), name.clone(), d.clone())).collect();
        self.registry.snapshot_with(&crate::discover::Carried { approvals, digests })
    }

    /// The content digest of `name` of `scope` as last known: computed since the last refresh
    /// (by `contentDigest`, a lockfile check or an approval), else carried by the snapshot the
    /// registry started from. For display: checks compute their own.
    pub fn digest_of(&self, scope: &str, name: &str) -> Option<&str> {
        let key = self.digest_key(scope, name);
        self.digests.get(&key).or_else(|| self.carried_digests.get(&key)).map(String::as_str)
    }

    /// The skill that wins `name`, with its content digest when known ([`SkillHost::digest_of`]).
    pub fn get(&self, name: &str) -> Option<discover::SkillMeta> {
        self.with_digests(vec![self.registry.get(name)?]).pop()
    }

    /// The visible skills (of `scope`, or all), with their content digests when known.
    pub fn list_metas(&self, scope: Option<&str>) -> Vec<discover::SkillMeta> {
        self.with_digests(self.registry.list_metas(scope))
    }

    /// Every loaded skill of every scope, shadowed ones too, with their content digests when known.
    pub fn list_metas_across(&self) -> Vec<discover::SkillMeta> {
        self.with_digests(self.registry.list_metas_across())
    }

    /// `metas` with the content digests known now (see [`SkillHost::digest_of`]).
    fn with_digests(&self, mut metas: Vec<discover::SkillMeta>) -> Vec<discover::SkillMeta> {
        if self.digests.is_empty() && self.carried_digests.is_empty() {
            return metas;
        }
        for m in &mut metas {
            m.digest = self.digest_of(&m.scope, &m.skill.name).map(str::to_string);
        }
        metas
    }

    /// Reads a file of `scope`'s skill `name` (shadowed or not), see
    /// [`SkillRegistry::read_scoped_file`]; the host is borrowed only while the read is planned.
    pub async fn read_scoped_file_shared(
        cell: &RefCell<SkillHost>,
        scope: &str,
        name: &str,
        rel_path: Option<&str>,
    ) -> Option<discover::ScopedFile> {
        let planned = cell.borrow().registry.scoped_file_request(scope, name, rel_path)?.ok()?;
        planned.fetch_scoped().await
    }

    /// The registry.
    pub fn registry(&self) -> &SkillRegistry {
        &self.registry
    }

    /// The configuration.
    pub fn config(&self) -> &Rc<SkillsConfig> {
        &self.config
    }

    /// Who sees which skill under the configuration.
    pub fn view(&self) -> Rc<View> {
        if self.view.generation() == self.registry.generation() {
            self.view.clone()
        } else {
            Rc::new(self.compute_view(&self.config))
        }
    }

    /// Who sees which skill under `config` (another configuration of the same host, e.g. a
    /// per-call override): the host's own view when the filters are the same.
    pub fn view_for(&self, config: &SkillsConfig) -> Rc<View> {
        if config.same_filters(&self.config) {
            self.view()
        } else {
            Rc::new(self.compute_view(config))
        }
    }

    /// The catalog under the configuration, rendered once per generation.
    pub fn catalog(&self) -> Rc<CatalogResult> {
        if let Some(c) = self.catalog.borrow().as_ref() {
            return c.clone();
        }
        let c = Rc::new(self.noting_pending(self.view().render(&self.config), &self.config));
        *self.catalog.borrow_mut() = Some(c.clone());
        c
    }

    /// The catalog under `config` (the configuration with per-call overrides).
    pub fn render_catalog(&self, config: &SkillsConfig) -> CatalogResult {
        self.noting_pending(self.view_for(config).render(config), config)
    }

    /// `catalog` with the note that the lazy scopes not listed yet exist (when there are any and
    /// the catalog has a text).
    pub fn noting_pending(&self, mut catalog: CatalogResult, config: &SkillsConfig) -> CatalogResult {
        let pending = self.registry.pending_scopes();
        if let (false, Some(text)) = (pending.is_empty(), catalog.text.as_deref()) {
            catalog.text = Some(crate::disclose::with_pending_note(text, config.format, pending));
        }
        catalog
    }

    /// The skills the model is offered that best match `query` (names, descriptions in every
    /// locale; names with typos), best first, at most `opts.limit`, only `opts.scope`'s when given.
    pub fn search(&self, query: &str, opts: &SearchOptions) -> Vec<SearchHit> {
        search_view(&self.registry, &self.view(), &self.config, query, opts)
    }

    /// The skills the model is offered whose names are nearest to `name` (near spellings, then
    /// the best matches of the name read as a query), at most `limit`.
    pub fn closest(&self, name: &str, limit: usize) -> Vec<SearchHit> {
        closest_view(&self.registry, &self.view(), &self.config, name, limit)
    }

    /// The `/name` and `$name` of a user's message, among the skills the user may invoke.
    #[cfg(feature = "invocation")]
    pub fn parse_message(&self, text: &str) -> ParsedMessage {
        invoke::parse_message(text, self.view().user_skills())
    }

    /// Suggestions for a partial `/name`, among the skills the user may invoke.
    #[cfg(feature = "invocation")]
    pub fn autocomplete(&self, partial: &str, limit: usize) -> Vec<Suggestion> {
        invoke::autocomplete_described(partial, self.view().user_skills(), limit, None)
    }

    pub(super) fn install(&mut self, view: Rc<View>) {
        self.view = view;
        *self.catalog.borrow_mut() = None;
    }

    /// Lists every scope again, re-reads the SKILL.md files whose size or etag changed, and
    /// decides visibility again.
    pub async fn refresh(&mut self) -> RefreshReport {
        let report = self.registry.refresh().await;
        self.registry.relocate(&self.config.scope_paths);
        self.digests.clear();
        self.carried_digests.clear();
        if self.decides_again() {
            let view = Rc::new(self.compute_view(&self.config));
            self.install(view);
        }
        report
    }

    /// Whether a refresh decides visibility again: when its skills changed (a new generation), or
    /// when the host's predicate may answer otherwise now (it runs once per skill per refresh). A
    /// refresh that found nothing changed and has no predicate keeps the view and the catalog.
    fn decides_again(&self) -> bool {
        self.view.generation() != self.registry.generation() || self.config.permitted.is_some()
    }

    /// [`SkillHost::refresh`] for a shared host: it is borrowed only between the awaits, so other
    /// calls (reads, tool calls) may run while the stores are listed, and the predicate runs with
    /// the host borrowed for reading only.
    pub async fn refresh_shared(cell: &RefCell<SkillHost>) -> RefreshReport {
        let inputs = cell.borrow().registry.refresh_inputs();
        let found = inputs.discover().await;
        let report = {
            let mut host = cell.borrow_mut();
            host.digests.clear();
            host.carried_digests.clear();
            let report = host.registry.apply(found);
            let pinned = host.config.scope_paths.clone();
            host.registry.relocate(&pinned);
            report
        };
        let view = {
            let host = cell.borrow();
            host.decides_again().then(|| Rc::new(host.compute_view(&host.config)))
        };
        if let Some(view) = view {
            cell.borrow_mut().install(view);
        }
        report
    }
}

impl SkillHost {
    /// Lists the lazy scopes not listed yet (see [`SkillRegistry::pending_inputs`]) and decides
    /// visibility again; the host is borrowed only between the awaits. None when every scope is
    /// listed already. A store that fails or does not answer within `timeoutMs` costs the skills
    /// it holds a diagnostic, as in any discovery; the scope counts as listed either way.
    pub async fn list_pending_shared(cell: &RefCell<SkillHost>) -> Option<RefreshReport> {
        let inputs = cell.borrow().registry.pending_inputs()?;
        let found = inputs.discover().await;
        let report = cell.borrow_mut().registry.apply_listed(found);
        let view = {
            let host = cell.borrow();
            host.decides_again().then(|| Rc::new(host.compute_view(&host.config)))
        };
        if let Some(view) = view {
            cell.borrow_mut().install(view);
        }
        Some(report)
    }
}

/// The hits of `found`, each with where `query`'s words were found in it (none for `None`: the
/// nearest names, not a search).
fn hits(
    registry: &SkillRegistry,
    view: &View,
    config: &SkillsConfig,
    found: &[(u32, f32)],
    query: Option<&str>,
) -> Vec<SearchHit> {
    let index = registry.search_index();
    let words = query.map(|q| index.query_words(q));
    found
        .iter()
        .filter_map(|(d, score)| {
            let meta = view.model_meta(index.name(*d)?)?;
            let skill = &meta.skill;
            let matched = match &words {
                Some(words) => crate::search::matched_fields(
                    words,
                    &skill.name,
                    std::iter::once(skill.description.as_str())
                        .chain(skill.localized_descriptions.values().map(String::as_str)),
                ),
                None => Vec::new(),
            };
            Some(SearchHit {
                name: skill.name.clone(),
                description: localized_description(skill, config.locale.as_deref()).to_string(),
                scope: meta.scope.clone(),
                location: meta.shown_path(&config.scope_paths),
                score: *score,
                matched,
            })
        })
        .collect()
}

/// [`SkillHost::search`] over a given visibility (the tool's, which may have its own filters).
pub fn search_view(
    registry: &SkillRegistry,
    view: &View,
    config: &SkillsConfig,
    query: &str,
    opts: &SearchOptions,
) -> Vec<SearchHit> {
    let index = registry.search_index();
    let allow = |d: u32| {
        index
            .name(d)
            .and_then(|n| view.model_scope(n))
            .is_some_and(|scope| opts.scope.as_deref().is_none_or(|s| scope == s))
    };
    let found = index.search(query, opts.limit(), &allow);
    hits(registry, view, config, &found, Some(query))
}

/// [`SkillHost::closest`] over a given visibility.
pub fn closest_view(
    registry: &SkillRegistry,
    view: &View,
    config: &SkillsConfig,
    name: &str,
    limit: usize,
) -> Vec<SearchHit> {
    let index = registry.search_index();
    let allow = |d: u32| index.name(d).is_some_and(|n| view.offers(n));
    let found: Vec<(u32, f32)> = index.closest(name, limit, &allow).into_iter().map(|d| (d, 0.0)).collect();
    hits(registry, view, config, &found, None)
}
