//! The storage port: what the core needs from a store, and nothing else. Shaped like an object
//! store (R2, IndexedDB and HTTP are; a directory is easy to present so): list keys under a prefix
//! in pages, read an object's bytes (optionally only the first bytes).
//!
//! What an implementation promises:
//! - `list` returns every key under `prefix`, at any depth, in lexicographic order, in pages; a
//!   page may hold fewer keys than `limit`; `cursor` is set exactly when more keys follow.
//! - `read` returns the object's bytes, at most `max_bytes` of them from the start when asked, or
//!   `None` when there is no such object.
//! - Keys are relative and `/`-separated; the core checks every key and prefix
//!   ([`crate::paths`]) before it calls, and implementations check again.
//! - Failures are `Err(StorageError)`; the core turns them into diagnostics on the skills they
//!   touch and carries on.

use crate::paths;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

/// A boxed future that need not be `Send` (wasm is single-threaded; JS promises are not `Send`).
pub type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ListEntry {
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListPage {
    pub entries: Vec<ListEntry>,
    pub cursor: Option<String>,
    /// What the store skipped and why (a symlink loop, an unreadable directory ...).
    pub warnings: Vec<(String, String)>,
}

/// A store call that failed: threw, rejected, answered with the wrong type, or timed out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageError(pub String);

impl std::fmt::Display for StorageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub trait Storage {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>>;
    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>>;
}

/// Calls made to the stores, for hosts that watch their costs (and for tests that bound them).
#[derive(Debug, Default)]
pub struct CallStats {
    pub list_calls: Cell<u64>,
    pub read_calls: Cell<u64>,
    pub bytes_read: Cell<u64>,
}

impl CallStats {
    fn bump(c: &Cell<u64>, n: u64) {
        c.set(c.get() + n);
    }
}

/// Most pages a single listing may take, so a store that always answers with a cursor cannot
/// keep the core busy forever.
pub const MAX_PAGES: usize = 100_000;

/// Lists every key under `prefix`, page by page. `stop` is asked after each page and ends the
/// listing early when it says so (a scan bound was hit).
pub async fn list_all(
    storage: &dyn Storage,
    prefix: &str,
    page_size: u32,
    stats: &CallStats,
    mut stop: impl FnMut(&[ListEntry]) -> bool,
) -> Result<ListPage, StorageError> {
    paths::check_prefix(prefix).map_err(|e| StorageError(e.0))?;
    let mut all = ListPage::default();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        CallStats::bump(&stats.list_calls, 1);
        let page = storage.list(prefix, cursor.as_deref(), page_size).await?;
        if page.cursor.is_some() && page.cursor == cursor {
            return Err(StorageError("the store returned the same cursor twice".into()));
        }
        // A store must answer for the prefix it was asked about; anything else is dropped.
        all.entries
            .extend(page.entries.into_iter().filter(|e| e.key.starts_with(prefix) && paths::check_key(&e.key).is_ok()));
        all.warnings.extend(page.warnings);
        if stop(&all.entries) {
            return Ok(all);
        }
        match page.cursor {
            Some(c) => cursor = Some(c),
            None => return Ok(all),
        }
    }
    Err(StorageError(format!("listing {prefix:?} did not end after {MAX_PAGES} pages")))
}

/// Reads `key` after checking it.
pub async fn read_checked(
    storage: &dyn Storage,
    key: &str,
    max_bytes: Option<u32>,
    stats: &CallStats,
) -> Result<Option<Vec<u8>>, StorageError> {
    paths::check_key(key).map_err(|e| StorageError(e.0))?;
    CallStats::bump(&stats.read_calls, 1);
    let out = storage.read(key, max_bytes).await?;
    if let Some(b) = &out {
        CallStats::bump(&stats.bytes_read, b.len() as u64);
        if max_bytes.is_some_and(|m| b.len() > m as usize) {
            // A store that ignores maxBytes is still usable: cut what it sent.
            return Ok(Some(b[..max_bytes.unwrap_or_default() as usize].to_vec()));
        }
    }
    Ok(out)
}

/// An in-memory store, for Rust hosts and tests. Etags are a hash of the content.
#[derive(Debug, Default, Clone)]
pub struct MemoryStorage {
    files: std::rc::Rc<std::cell::RefCell<BTreeMap<String, Vec<u8>>>>,
}

impl MemoryStorage {
    pub fn new<K: Into<String>, V: Into<Vec<u8>>>(files: impl IntoIterator<Item = (K, V)>) -> Self {
        let s = Self::default();
        for (k, v) in files {
            s.put(k, v);
        }
        s
    }
    pub fn put(&self, key: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.files.borrow_mut().insert(key.into(), bytes.into());
    }
    pub fn remove(&self, key: &str) {
        self.files.borrow_mut().remove(key);
    }
}

fn fnv1a(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

impl Storage for MemoryStorage {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let files = self.files.borrow();
            let start = match cursor {
                Some(c) => std::ops::Bound::Excluded(c.to_string()),
                None => std::ops::Bound::Included(prefix.to_string()),
            };
            let mut entries = Vec::new();
            let mut more = false;
            for (k, v) in files.range((start, std::ops::Bound::Unbounded)) {
                if !k.starts_with(prefix) {
                    break;
                }
                if entries.len() as u32 >= limit.max(1) {
                    more = true;
                    break;
                }
                entries.push(ListEntry { key: k.clone(), size: Some(v.len() as u64), etag: Some(fnv1a(v)) });
            }
            let cursor = if more { entries.last().map(|e| e.key.clone()) } else { None };
            Ok(ListPage { entries, cursor, warnings: Vec::new() })
        })
    }

    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        Box::pin(async move {
            let files = self.files.borrow();
            Ok(files.get(key).map(|v| match max_bytes {
                Some(m) => v[..v.len().min(m as usize)].to_vec(),
                None => v.clone(),
            }))
        })
    }
}
