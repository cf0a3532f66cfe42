//! A skill's entry for `skills/list` and `skills/get`: `{ uri, frontmatter, resources }`, the
//! complete manifest of its files with the SHA-256 digest and size of exactly the bytes
//! `resources/read` serves, within the extension's limits. Files are listed and read through the
//! registry's store, asynchronously, as the tool's reads are; a file whose store listing gives an
//! etag and a size is hashed once and found again in a [`DigestCache`] while both stay the same.

use super::uri::{check_name, format_file_uri, format_skill_uri};
use super::{RpcError, INTERNAL_ERROR, INVALID_PARAMS, MAX_RESOURCES_PER_SKILL, MAX_SKILL_BYTES, SKILL_FILE};
use crate::diagnostic::{codes, Diagnostic};
use crate::discover::is_skipped_dir;
use crate::host::SkillSource;
use crate::net::digest::sha256_digest;
use crate::net::frontmatter::frontmatter_json;
use crate::store;
use serde::Serialize;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::HashMap;

/// Most keys listed under one skill's directory (skipped directories included) before the
/// listing stops and the skill counts as too large.
pub const MAX_LISTED_KEYS: usize = 20_000;

/// Most files a [`DigestCache`] remembers; it starts afresh past that.
pub const MAX_CACHED_DIGESTS: usize = 200_000;

/// One file of a skill entry's `resources`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkillResource {
    /// The file's `skill://` URI.
    pub uri: String,
    /// `sha256:<64 lowercase hex>` of its bytes.
    pub digest: String,
    /// Its length in bytes.
    pub size: u64,
}

/// A skill entry: the URI of its SKILL.md, its frontmatter verbatim, every file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillEntry {
    /// `skill://<skill path>/SKILL.md`.
    pub uri: String,
    /// The SKILL.md's frontmatter as JSON ([`crate::net::frontmatter`]).
    pub frontmatter: Map<String, Value>,
    /// `SKILL.md` first, then every other file in key order.
    pub resources: Vec<SkillResource>,
}

/// One file of a skill's directory, as its store lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedFile {
    /// Relative to the skill's directory (`SKILL.md`, `references/FORMS.md`).
    pub path: String,
    /// Its key in the store.
    pub key: String,
    /// The size the listing gave, if any.
    pub size: Option<u64>,
    /// The etag the listing gave, if any.
    pub etag: Option<String>,
}

#[derive(Debug, Clone)]
struct Cached {
    etag: String,
    size: u64,
    digest: String,
    frontmatter: Option<Map<String, Value>>,
}

/// Digests (and SKILL.md frontmatter) of files already read, by store key, valid while the
/// store lists the same etag and size.
#[derive(Debug, Default)]
pub struct DigestCache {
    files: RefCell<HashMap<String, Cached>>,
}

impl DigestCache {
    fn get(&self, scope: &str, f: &ListedFile) -> Option<Cached> {
        let (etag, size) = (f.etag.as_deref()?, f.size?);
        let files = self.files.borrow();
        let hit = files.get(&cache_key(scope, &f.key))?;
        (hit.etag == etag && hit.size == size).then(|| hit.clone())
    }

    fn put(&self, scope: &str, f: &ListedFile, size: u64, digest: &str, frontmatter: Option<&Map<String, Value>>) {
        let (Some(etag), Some(listed)) = (f.etag.as_deref(), f.size) else { return };
        if listed != size {
            return;
        }
        let mut files = self.files.borrow_mut();
        let key = cache_key(scope, &f.key);
        if frontmatter.is_none() && files.get(&key).is_some_and(|c| c.etag == etag && c.size == size) {
            return;
        }
        if files.len() >= MAX_CACHED_DIGESTS {
            files.clear();
        }
        files.insert(
            key,
            Cached { etag: etag.to_string(), size, digest: digest.to_string(), frontmatter: frontmatter.cloned() },
        );
    }
}

fn cache_key(scope: &str, key: &str) -> String {
    format!("{scope}\0{key}")
}

fn refused(code: &str, message: String) -> RpcError {
    RpcError::from_diagnostic(INVALID_PARAMS, &Diagnostic::error(code, message))
}

fn failed(what: &str, e: impl std::fmt::Display) -> RpcError {
    RpcError { code: INTERNAL_ERROR, message: format!("{what} failed: {e}") }
}

impl SkillSource {
    /// The skill's files, `SKILL.md` first, then in key order; skipped directories and hidden
    /// files left out (they are not a skill's files here, as in the tool's listing). More than
    /// [`MAX_RESOURCES_PER_SKILL`] files is an error.
    pub async fn files(&self) -> Result<Vec<ListedFile>, RpcError> {
        let prefix = if self.directory.is_empty() { String::new() } else { format!("{}/", self.directory) };
        let mut stopped = false;
        let listed = store::list_all(&*self.storage, &prefix, self.page_size.max(1), &self.stats, |e| {
            stopped = e.len() > MAX_LISTED_KEYS;
            stopped
        })
        .await
        .map_err(|e| failed(&format!("listing the files of '{}'", self.name), e))?;
        if stopped {
            return Err(self.too_large(format!("more than {MAX_LISTED_KEYS} keys under its directory")));
        }
        let mut files: Vec<ListedFile> = listed
            .entries
            .into_iter()
            .filter_map(|e| {
                let path = e.key.strip_prefix(&prefix)?.to_string();
                (!path.split('/').any(is_skipped_dir)).then_some(ListedFile {
                    path,
                    key: e.key,
                    size: e.size,
                    etag: e.etag,
                })
            })
            .collect();
        if files.len() > MAX_RESOURCES_PER_SKILL as usize {
            return Err(self.too_large(format!("{} files, more than {MAX_RESOURCES_PER_SKILL}", files.len())));
        }
        let Some(i) = files.iter().position(|f| f.path == SKILL_FILE) else {
            return Err(failed(&format!("reading '{}'", self.name), "its SKILL.md is not in its directory's listing"));
        };
        let skill_md = files.remove(i);
        files.insert(0, skill_md);
        Ok(files)
    }

    fn too_large(&self, why: String) -> RpcError {
        refused(
            codes::MCP_SKILL_TOO_LARGE,
            format!(
                "the skill '{}' is not served over MCP: {why} (the limits are {MAX_RESOURCES_PER_SKILL} files and {MAX_SKILL_BYTES} bytes)",
                self.name
            ),
        )
    }

    /// The bytes of `file`, at most `most` of them (a longer file is an error, not cut).
    pub async fn read(&self, file: &ListedFile, most: u64) -> Result<Vec<u8>, RpcError> {
        let most = most.min(u64::from(self.max_object_bytes.max(1)));
        if let Some(size) = file.size.filter(|s| *s > most) {
            return Err(self.too_large(format!("'{}' is {size} bytes", file.path)));
        }
        let ask = u32::try_from(most.saturating_add(1)).unwrap_or(u32::MAX);
        match store::read_checked(&*self.storage, &file.key, Some(ask), &self.stats).await {
            Ok(Some(bytes)) if bytes.len() as u64 > most => {
                Err(self.too_large(format!("'{}' is more than {most} bytes", file.path)))
            }
            Ok(Some(bytes)) => Ok(bytes),
            Ok(None) => Err(refused(
                codes::FILE_NOT_FOUND,
                format!("'{}' of the skill '{}' is gone from its store", file.path, self.name),
            )),
            Err(e) => Err(failed(&format!("reading '{}' of '{}'", file.path, self.name), e)),
        }
    }

    /// The skill's entry: every file read (or found in `cache`) and hashed, within the limits,
    /// its frontmatter's `name` checked against its skill path.
    pub async fn entry(&self, cache: &DigestCache) -> Result<SkillEntry, RpcError> {
        let files = self.files().await?;
        let mut resources = Vec::with_capacity(files.len());
        let mut frontmatter = None;
        let mut total = 0u64;
        for f in &files {
            // A SKILL.md read as another skill's file was cached without its frontmatter.
            let hit = cache.get(&self.scope, f).filter(|h| f.path != SKILL_FILE || h.frontmatter.is_some());
            let (digest, size, fm) = match hit {
                Some(hit) => (hit.digest, hit.size, hit.frontmatter),
                None => {
                    let bytes = self.read(f, MAX_SKILL_BYTES - total).await?;
                    let digest = sha256_digest(&bytes);
                    let fm = if f.path == SKILL_FILE {
                        Some(
                            frontmatter_json(&bytes, self.mode)
                                .map_err(|d| RpcError::from_diagnostic(INVALID_PARAMS, &d))?,
                        )
                    } else {
                        None
                    };
                    cache.put(&self.scope, f, bytes.len() as u64, &digest, fm.as_ref());
                    (digest, bytes.len() as u64, fm)
                }
            };
            total = total.saturating_add(size);
            if total > MAX_SKILL_BYTES {
                return Err(self.too_large(format!("its files hold more than {MAX_SKILL_BYTES} bytes")));
            }
            // A nested skill's SKILL.md is an ordinary file here, whatever the cache holds for it.
            if f.path == SKILL_FILE {
                frontmatter = fm;
            }
            resources.push(SkillResource { uri: format_file_uri(&self.path, &f.path), digest, size });
        }
        let frontmatter = frontmatter.unwrap_or_default();
        let name = frontmatter.get("name").and_then(Value::as_str).unwrap_or_default();
        check_name(&self.path, name).map_err(|d| RpcError::from_diagnostic(INVALID_PARAMS, &d))?;
        if !frontmatter.get("description").is_some_and(Value::is_string) {
            return Err(refused(
                codes::DESCRIPTION_MISSING,
                format!("the SKILL.md of '{}' has no description in its frontmatter", self.name),
            ));
        }
        Ok(SkillEntry { uri: format_skill_uri(&self.path), frontmatter, resources })
    }
}
