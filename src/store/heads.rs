//! Listings that bring the first bytes of the skill files they list (the optional
//! `list_with_heads` of a [`Storage`]): one call per page instead of a listing plus one read per
//! SKILL.md, for stores where a call costs more than the bytes (a directory in Node).
//!
//! What the core keeps of them is bounded: a head longer than asked for is refused (the read is
//! made the ordinary way), and at most [`MAX_HEAD_BYTES`] of heads are held for one listing; the
//! skill files past that are read with ordinary prefix reads.

use super::{CallStats, ListPage, LocalFuture, SkipHint, Storage, StorageError};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// Most bytes of heads held at once for one listing.
pub const MAX_HEAD_BYTES: usize = 64 * 1024 * 1024;

/// Which files a listing with heads brings the first bytes of, and how many bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadRequest {
    /// File names (a whole last segment: `SKILL.md`) whose first bytes are wanted.
    pub names: Vec<String>,
    /// At most this many bytes of each, from the start.
    pub prefix_bytes: u32,
}

/// What a store says about one file's first bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// At most `prefix_bytes` bytes from the start of the file.
    Bytes(Vec<u8>),
    /// Reading it failed; the message says why.
    Failed(String),
}

/// A page of a listing with heads: the page, and the heads of the files in it that were asked
/// for (by key). A listed file without a head is read the ordinary way.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeadPage {
    /// The listing's page.
    pub page: ListPage,
    /// `(key, head)` of files of this page.
    pub heads: Vec<(String, Head)>,
}

/// A store seen through its listing with heads: `list` answers the page and keeps the heads, so
/// the ordinary paged listing (with its checks) drives it.
pub struct HeadCollector<'s> {
    inner: &'s dyn Storage,
    hint: &'s SkipHint,
    request: &'s HeadRequest,
    stats: &'s CallStats,
    heads: RefCell<HashMap<String, Head>>,
    held: RefCell<usize>,
}

impl<'s> HeadCollector<'s> {
    /// A collector over `inner`; a store without `list_with_heads` is listed the ordinary way.
    pub fn new(inner: &'s dyn Storage, hint: &'s SkipHint, request: &'s HeadRequest, stats: &'s CallStats) -> Self {
        HeadCollector { inner, hint, request, stats, heads: RefCell::new(HashMap::new()), held: RefCell::new(0) }
    }

    /// The heads kept, by key.
    pub fn into_heads(self) -> HashMap<String, Head> {
        self.heads.into_inner()
    }

    /// Keeps the heads of `page` that were asked for, within the bounds.
    fn keep(&self, page: &ListPage, heads: Vec<(String, Head)>) {
        let listed: HashSet<&str> = page.entries.iter().map(|e| e.key.as_str()).collect();
        let mut kept = self.heads.borrow_mut();
        let mut held = self.held.borrow_mut();
        let most = self.request.prefix_bytes as usize;
        for (key, head) in heads {
            // Only the files asked for, of this page; a head longer than asked is not used.
            let asked = key.rsplit('/').next().is_some_and(|n| self.request.names.iter().any(|w| w == n));
            if !asked || !listed.contains(key.as_str()) {
                continue;
            }
            let size = match &head {
                Head::Bytes(b) if b.len() > most => continue,
                Head::Bytes(b) => b.len(),
                Head::Failed(m) => m.len(),
            };
            if *held + size > MAX_HEAD_BYTES {
                continue;
            }
            if let Head::Bytes(b) = &head {
                CallStats::bump(&self.stats.bytes_read, b.len() as u64);
            }
            *held += size;
            kept.insert(key, head);
        }
    }
}

impl Storage for HeadCollector<'_> {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let Some(call) = self.inner.list_with_heads(prefix, cursor, limit, self.hint, self.request) else {
                return self.inner.list_skipping(prefix, cursor, limit, self.hint).await;
            };
            let HeadPage { page, heads } = call.await?;
            self.keep(&page, heads);
            Ok(page)
        })
    }

    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.inner.read(key, max_bytes)
    }
}
