//! An in-memory [`Storage`], for Rust hosts and tests.

use super::{lines, ListEntry, ListPage, ListedPage, LocalFuture, SkipHint, Storage, StorageError};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

/// An in-memory store, for Rust hosts and tests. Etags are a hash of the content; pages are
/// answered as lines too ([`Storage::list_lines`]), with a version that every put and removal
/// changes (clones share the objects and the version).
#[derive(Debug, Default, Clone)]
pub struct MemoryStorage {
    files: Rc<RefCell<BTreeMap<String, Vec<u8>>>>,
    version: Rc<Cell<u64>>,
}

impl MemoryStorage {
    /// A store holding `files` (key, bytes).
    pub fn new<K: Into<String>, V: Into<Vec<u8>>>(files: impl IntoIterator<Item = (K, V)>) -> Self {
        let s = Self::default();
        for (k, v) in files {
            s.put(k, v);
        }
        s
    }
    /// Adds or replaces an object.
    pub fn put(&self, key: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.files.borrow_mut().insert(key.into(), bytes.into());
        self.changed();
    }
    /// Removes an object.
    pub fn remove(&self, key: &str) {
        if self.files.borrow_mut().remove(key).is_some() {
            self.changed();
        }
    }
    /// The version its pages carry now.
    pub fn version(&self) -> String {
        format!("v{}", self.version.get())
    }
    fn changed(&self) {
        self.version.set(self.version.get() + 1);
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
                entries.push(ListEntry {
                    key: k.clone(),
                    size: Some(v.len() as u64),
                    etag: Some(fnv1a(v)),
                    digest: None,
                });
            }
            let cursor = if more { entries.last().map(|e| e.key.clone()) } else { None };
            Ok(ListPage { entries, cursor, ..ListPage::default() })
        })
    }

    /// Every page as lines, as the package's JS stores' pages cross into the wasm module, with
    /// the version; unchanged when asked with the version it still has.
    fn list_lines<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        _skip: &'a SkipHint,
        unless_version: Option<&'a str>,
    ) -> Option<LocalFuture<'a, Result<ListedPage, StorageError>>> {
        Some(Box::pin(async move {
            let version = self.version();
            if unless_version == Some(version.as_str()) {
                return Ok(ListedPage::Unchanged);
            }
            let page = self.list(prefix, cursor, limit).await?;
            Ok(ListedPage::Lines { text: lines::write(&page), version: Some(version) })
        }))
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
