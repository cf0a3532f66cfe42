//! The extension's methods over a registry, as a server answers them: `skills/list` (paged with
//! an opaque cursor), `skills/get`, `resources/read` of `skill://` URIs, `resources/directory/read`
//! and `resources/list`. Each returns the result the SEP describes, or the [`RpcError`] to send.
//!
//! A skill's path in the server's namespace is where it lies below its root, ending in its name
//! ([`crate::discover::skill_path`]): `skill://pdf/SKILL.md` for a skill at `.agents/skills/pdf/`,
//! `skill://beta/nested/SKILL.md` for one nested in `beta`, so that a nested skill's files have the
//! same URIs in its own entry and in the enclosing skill's. A URI is resolved by its path: the
//! skill of that name must be served at exactly that path.
//! `skills/list` and `resources/list` give the skills the model is offered; `skills/get` and the
//! reads answer for every skill anyone may use (a user-only skill too), and for no skill the
//! host's filters hide. The registry is never borrowed across an await.

use super::manifest::{DigestCache, SkillEntry};
use super::mime::{is_text, mime_type};
use super::uri::{
    format_directory_uri, format_file_uri, format_skill_uri, parse_resource_uri, parse_skill_uri, skill_name,
};
use super::{
    RpcError, DIRECTORY_MIME_TYPE, INTERNAL_ERROR, INVALID_PARAMS, MAX_SKILL_BYTES, SKILL_FILE, SKILL_MIME_TYPE,
};
use crate::diagnostic::Diagnostic;
use crate::discover::QUALIFIER;
use crate::host::{ServedSkills, SkillHost, SkillSource};
use crate::search::encode::{base64, unbase64};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Default entries per page of `skills/list`, `resources/list` and `resources/directory/read`.
pub const DEFAULT_PAGE_SIZE: u32 = 50;
/// Most entries per page.
pub const MAX_PAGE_SIZE: u32 = 1000;
/// Most diagnostics kept about skills left out of listings (the oldest go first).
pub const MAX_DIAGNOSTICS: usize = 1000;

/// May a cached result be shared across authorization contexts?
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Yes: the skills carry nothing user-specific.
    Public,
    /// No (the default).
    #[default]
    Private,
}

/// How the server pages and what caching it announces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct McpOptions {
    /// Entries per page (default 50, at most 1000).
    pub page_size: u32,
    /// The `ttlMs` of results: how long a host may treat them as current (default 60000).
    pub ttl_ms: u64,
    /// The `cacheScope` of results (default private).
    pub cache_scope: CacheScope,
}

impl Default for McpOptions {
    fn default() -> Self {
        McpOptions { page_size: DEFAULT_PAGE_SIZE, ttl_ms: 60_000, cache_scope: CacheScope::Private }
    }
}

const COMPLETE: &str = "complete";

/// The result of `skills/list`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSkillsResult {
    /// Always `complete`.
    pub result_type: &'static str,
    /// This page's entries.
    pub skills: Vec<SkillEntry>,
    /// Where the next page starts, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Freshness hint.
    pub ttl_ms: u64,
    /// Cache scope.
    pub cache_scope: CacheScope,
}

/// The result of `skills/get`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetSkillResult {
    /// Always `complete`.
    pub result_type: &'static str,
    /// The skill's entry.
    pub skill: SkillEntry,
    /// Freshness hint.
    pub ttl_ms: u64,
    /// Cache scope.
    pub cache_scope: CacheScope,
}

/// One file's contents in a `resources/read` result: `text` when it is UTF-8, else `blob`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceContents {
    /// The URI read.
    pub uri: String,
    /// Its type.
    pub mime_type: &'static str,
    /// The file as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The file's bytes, base64.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

/// The result of `resources/read`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadResourceResult {
    /// Always `complete`.
    pub result_type: &'static str,
    /// The one file read.
    pub contents: Vec<ResourceContents>,
    /// Freshness hint.
    pub ttl_ms: u64,
    /// Cache scope.
    pub cache_scope: CacheScope,
}

/// A resource's metadata, as listings give it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// Its URI.
    pub uri: String,
    /// Its name: a skill's name, or a file's or directory's last segment.
    pub name: String,
    /// A skill's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its type (`inode/directory` for a directory).
    pub mime_type: &'static str,
    /// A file's size, when the store's listing gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// The result of `resources/directory/read` and of `resources/list`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesResult {
    /// Always `complete`.
    pub result_type: &'static str,
    /// This page's resources.
    pub resources: Vec<Resource>,
    /// Where the next page starts, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Freshness hint.
    pub ttl_ms: u64,
    /// Cache scope.
    pub cache_scope: CacheScope,
}

struct Inner {
    served: Rc<dyn ServedSkills>,
    options: McpOptions,
    cache: DigestCache,
    /// The listed names for one registry generation.
    listed: RefCell<Option<(u64, Rc<Vec<String>>)>>,
    diagnostics: RefCell<Vec<Diagnostic>>,
}

/// The extension's methods over one registry (cheap to clone: clones share the digest cache).
#[derive(Clone)]
pub struct SkillsMcp {
    inner: Rc<Inner>,
}

/// The error of a registry that cannot be read any more (freed, or its module lost).
fn gone(why: String) -> RpcError {
    RpcError { code: INTERNAL_ERROR, message: format!("the registry cannot be read: {why}") }
}

fn unknown(uri: &str) -> RpcError {
    RpcError::invalid(format!("No skill is served at {uri}"))
}

fn cursor(kind: &str, after: &str) -> String {
    base64(format!("{kind}:{after}").as_bytes())
}

fn read_cursor(kind: &str, cursor: Option<&str>) -> Result<Option<String>, RpcError> {
    let Some(c) = cursor else { return Ok(None) };
    let text = unbase64(c).and_then(|b| String::from_utf8(b).ok());
    match text.as_deref().and_then(|t| t.strip_prefix(kind)).and_then(|t| t.strip_prefix(':')) {
        Some(after) => Ok(Some(after.to_string())),
        None => Err(RpcError::invalid(format!("the cursor {:?} is not one this server gave", cut(c)))),
    }
}

fn cut(s: &str) -> String {
    s.chars().take(100).collect()
}

/// The page of `items` (sorted by `key`) after the cursor's key, and the next page's cursor.
fn page<'a, T>(
    items: &'a [T],
    key: impl Fn(&T) -> &str,
    kind: &str,
    at: Option<&str>,
    size: u32,
) -> Result<(&'a [T], Option<String>), RpcError> {
    let start = match read_cursor(kind, at)? {
        Some(after) => items.partition_point(|t| key(t) <= after.as_str()),
        None => 0,
    };
    let size = size.clamp(1, MAX_PAGE_SIZE) as usize;
    let end = start.saturating_add(size).min(items.len());
    let shown = items.get(start..end).unwrap_or_default();
    let next = if end < items.len() { shown.last().map(|t| cursor(kind, key(t))) } else { None };
    Ok((shown, next))
}

impl SkillsMcp {
    /// The methods over `host`'s registry.
    pub fn new(host: Rc<RefCell<SkillHost>>, options: McpOptions) -> SkillsMcp {
        SkillsMcp::over(host, options)
    }

    /// The methods over what `served` serves (a host's registry, or one read through another
    /// module).
    pub fn over(served: Rc<dyn ServedSkills>, options: McpOptions) -> SkillsMcp {
        SkillsMcp {
            inner: Rc::new(Inner {
                served,
                options,
                cache: DigestCache::default(),
                listed: RefCell::new(None),
                diagnostics: RefCell::new(Vec::new()),
            }),
        }
    }

    /// Why skills were left out of listings (over the limits, unreadable ...), oldest first.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.inner.diagnostics.borrow().clone()
    }

    fn note(&self, name: &str, e: &RpcError) {
        let mut all = self.inner.diagnostics.borrow_mut();
        if all.len() >= MAX_DIAGNOSTICS {
            all.remove(0);
        }
        all.push(e.to_diagnostic(name));
    }

    /// The names of the skills the model is offered, sorted, computed once per generation.
    fn listed(&self) -> Result<Rc<Vec<String>>, RpcError> {
        let generation = self.inner.served.generation().map_err(gone)?;
        if let Some((g, names)) = self.inner.listed.borrow().as_ref() {
            if *g == generation {
                return Ok(names.clone());
            }
        }
        let names = Rc::new(self.inner.served.offered_names().map_err(gone)?);
        *self.inner.listed.borrow_mut() = Some((generation, names.clone()));
        Ok(names)
    }

    /// Where the files of the skill served as `name` are; None when no such skill is served.
    fn source(&self, name: &str) -> Result<Option<SkillSource>, RpcError> {
        self.inner.served.source(name).map_err(gone)
    }

    /// `skills/list`: a page of the entries of the skills the model is offered. A skill whose
    /// entry cannot be made (over the limits, a store that fails) is left out and noted in
    /// [`SkillsMcp::diagnostics`]; an entry is never split across pages.
    pub async fn list_skills(&self, at: Option<&str>) -> Result<ListSkillsResult, RpcError> {
        let names = self.listed()?;
        let (shown, next_cursor) = page(&names, |n| n.as_str(), "skills", at, self.inner.options.page_size)?;
        let mut skills = Vec::with_capacity(shown.len());
        for name in shown {
            let Some(source) = self.source(name)? else { continue };
            match source.entry(&self.inner.cache).await {
                Ok(entry) => skills.push(entry),
                Err(e) => self.note(name, &e),
            }
        }
        let o = &self.inner.options;
        Ok(ListSkillsResult {
            result_type: COMPLETE,
            skills,
            next_cursor,
            ttl_ms: o.ttl_ms,
            cache_scope: o.cache_scope,
        })
    }

    /// `skills/get`: the entry of the skill whose SKILL.md is at `uri`, listed or not.
    pub async fn get_skill(&self, uri: &str) -> Result<GetSkillResult, RpcError> {
        let path = parse_skill_uri(uri).map_err(|d| RpcError::from_diagnostic(INVALID_PARAMS, &d))?;
        let source = self.source_at(&path)?;
        let skill = source.ok_or_else(|| unknown(uri))?.entry(&self.inner.cache).await?;
        let o = &self.inner.options;
        Ok(GetSkillResult { result_type: COMPLETE, skill, ttl_ms: o.ttl_ms, cache_scope: o.cache_scope })
    }

    /// The skill served at skill path `path`, if any: the one its last segment names, or the one
    /// offered under the qualified name the path spells (`user/pdf` is `user:pdf`).
    fn source_at(&self, path: &str) -> Result<Option<SkillSource>, RpcError> {
        if let Some(s) = self.source(skill_name(path))?.filter(|s| s.path == path) {
            return Ok(Some(s));
        }
        let Some((scope, rest)) = path.split_once('/') else { return Ok(None) };
        Ok(self.source(&format!("{scope}{QUALIFIER}{rest}"))?.filter(|s| s.path == path))
    }

    /// The skill and the path inside it that a resource URI names: the innermost skill whose path
    /// the URI's path begins with (a nested skill's SKILL.md is also a file of the skill around
    /// it; either way the same bytes).
    fn resolve(&self, uri: &str) -> Result<(SkillSource, String), RpcError> {
        let path = parse_resource_uri(uri).map_err(|d| RpcError::from_diagnostic(INVALID_PARAMS, &d))?;
        // The path itself (a skill's root directory), then each shorter `/`-prefix of it.
        let ends = path.char_indices().rev().filter(|&(_, c)| c == '/').map(|(i, _)| i);
        for end in std::iter::once(path.len()).chain(ends) {
            let Some(at) = path.get(..end) else { continue };
            if let Some(source) = self.source_at(at)? {
                let rel = path.get(end..).unwrap_or_default().trim_start_matches('/');
                return Ok((source, rel.to_string()));
            }
        }
        Err(RpcError::invalid(format!("No resource is served at {uri}")))
    }

    /// `resources/read` of a `skill://` file: its bytes as `text` (UTF-8) or `blob` (base64),
    /// exactly the bytes its entry's digest covers. Only the files of the skill's manifest are
    /// served.
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, RpcError> {
        let (source, rel) = self.resolve(uri)?;
        if rel.is_empty() {
            return Err(RpcError::invalid(format!(
                "{uri} is a directory resource; list it with resources/directory/read"
            )));
        }
        let files = source.files().await?;
        let file = files
            .iter()
            .find(|f| f.path == rel)
            .ok_or_else(|| RpcError::invalid(format!("No resource is served at {uri}")))?;
        let bytes = source.read(file, MAX_SKILL_BYTES).await?;
        let text = is_text(&bytes);
        let mime = if rel == SKILL_FILE { SKILL_MIME_TYPE } else { mime_type(&rel, text) };
        let contents = match String::from_utf8(bytes) {
            Ok(t) if text => ResourceContents { uri: uri.to_string(), mime_type: mime, text: Some(t), blob: None },
            Ok(t) => {
                ResourceContents { uri: uri.to_string(), mime_type: mime, text: None, blob: Some(base64(t.as_bytes())) }
            }
            Err(e) => {
                ResourceContents { uri: uri.to_string(), mime_type: mime, text: None, blob: Some(base64(e.as_bytes())) }
            }
        };
        let o = &self.inner.options;
        Ok(ReadResourceResult {
            result_type: COMPLETE,
            contents: vec![contents],
            ttl_ms: o.ttl_ms,
            cache_scope: o.cache_scope,
        })
    }

    /// `resources/directory/read`: a page of the direct children of a skill's directory (its
    /// root is `skill://<skill path>`), files with their metadata, subdirectories as `inode/directory`.
    pub async fn read_directory(&self, uri: &str, at: Option<&str>) -> Result<ResourcesResult, RpcError> {
        let (source, rel) = self.resolve(uri)?;
        let files = source.files().await?;
        if files.iter().any(|f| f.path == rel) {
            return Err(RpcError::invalid(format!("{uri} is not a directory resource")));
        }
        let prefix = if rel.is_empty() { String::new() } else { format!("{rel}/") };
        let mut children: BTreeMap<&str, Option<u64>> = BTreeMap::new();
        let mut dirs: BTreeMap<&str, bool> = BTreeMap::new();
        for f in &files {
            let Some(rest) = f.path.strip_prefix(prefix.as_str()) else { continue };
            match rest.split_once('/') {
                Some((dir, _)) => {
                    dirs.insert(dir, true);
                }
                None => {
                    children.insert(rest, f.size);
                }
            }
        }
        if children.is_empty() && dirs.is_empty() && !rel.is_empty() {
            return Err(RpcError::invalid(format!("No directory is served at {uri}")));
        }
        let mut all: Vec<Resource> = Vec::with_capacity(children.len() + dirs.len());
        for (child, size) in children {
            let path = format!("{prefix}{child}");
            all.push(Resource {
                uri: format_file_uri(&source.path, &path),
                name: child.to_string(),
                description: None,
                mime_type: if path == SKILL_FILE { SKILL_MIME_TYPE } else { mime_type(&path, false) },
                size,
            });
        }
        for dir in dirs.into_keys() {
            all.push(Resource {
                uri: format_directory_uri(&source.path, &format!("{prefix}{dir}")),
                name: dir.to_string(),
                description: None,
                mime_type: DIRECTORY_MIME_TYPE,
                size: None,
            });
        }
        crate::sort::sort_by(&mut all, |a, b| a.name.cmp(&b.name));
        let (shown, next_cursor) = page(&all, |r| r.name.as_str(), "dir", at, self.inner.options.page_size)?;
        let o = &self.inner.options;
        Ok(ResourcesResult {
            result_type: COMPLETE,
            resources: shown.to_vec(),
            next_cursor,
            ttl_ms: o.ttl_ms,
            cache_scope: o.cache_scope,
        })
    }

    /// `resources/list`: a page of the SKILL.md resources of the skills the model is offered,
    /// with their names and descriptions, read from the registry (no store call).
    pub fn list_resources(&self, at: Option<&str>) -> Result<ResourcesResult, RpcError> {
        let names = self.listed()?;
        let (shown, next_cursor) = page(&names, |n| n.as_str(), "resources", at, self.inner.options.page_size)?;
        let descriptions = self.inner.served.descriptions(shown).map_err(gone)?;
        let mut paths = Vec::with_capacity(shown.len());
        for name in shown {
            paths.push(self.source(name)?.map(|s| s.path));
        }
        let resources = shown
            .iter()
            .zip(descriptions)
            .zip(paths)
            .filter_map(|((name, description), path)| {
                Some(Resource {
                    uri: format_skill_uri(&path?),
                    name: name.clone(),
                    description: Some(description?),
                    mime_type: SKILL_MIME_TYPE,
                    size: None,
                })
            })
            .collect();
        let o = &self.inner.options;
        Ok(ResourcesResult {
            result_type: COMPLETE,
            resources,
            next_cursor,
            ttl_ms: o.ttl_ms,
            cache_scope: o.cache_scope,
        })
    }
}
