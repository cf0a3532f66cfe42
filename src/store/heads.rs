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
    /// When not empty, the store may list only the files with these names (whole last segments;
    /// `names` among them) and name each directory it enters in [`ListPage::directories`]
    /// instead: a walk of a large tree then hands over a key per skill file and per directory,
    /// not one per file. A store that lists everything is still right.
    pub listed: Vec<String>,
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
    /// `(key, head)` of files of this page; of two heads for one key, the later is kept.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{list_all, ListEntry};
    use futures_executor::block_on;

    /// One page of `keys`, with the given heads; `offers` says whether it lists with heads.
    struct Headed {
        keys: Vec<&'static str>,
        heads: Vec<(&'static str, Head)>,
        offers: bool,
    }

    impl Headed {
        fn page(&self) -> ListPage {
            let entries = self
                .keys
                .iter()
                .map(|k| ListEntry { key: k.to_string(), size: None, etag: None, digest: None })
                .collect();
            ListPage { entries, ..ListPage::default() }
        }
    }

    impl Storage for Headed {
        fn list<'a>(
            &'a self,
            _p: &'a str,
            _c: Option<&'a str>,
            _l: u32,
        ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
            Box::pin(async move { Ok(self.page()) })
        }
        fn list_with_heads<'a>(
            &'a self,
            _p: &'a str,
            _c: Option<&'a str>,
            _l: u32,
            _s: &'a SkipHint,
            _r: &'a HeadRequest,
        ) -> Option<LocalFuture<'a, Result<HeadPage, StorageError>>> {
            let heads = self.heads.iter().map(|(k, h)| (k.to_string(), h.clone())).collect();
            self.offers
                .then(|| -> LocalFuture<'a, _> { Box::pin(async move { Ok(HeadPage { page: self.page(), heads }) }) })
        }
        fn read<'a>(&'a self, _k: &'a str, _m: Option<u32>) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
            Box::pin(async { Ok(None) })
        }
    }

    fn collect(store: &Headed) -> (HashMap<String, Head>, u64) {
        let hint = SkipHint::default();
        let request = HeadRequest { names: vec!["SKILL.md".into()], prefix_bytes: 4, listed: Vec::new() };
        let stats = CallStats::default();
        let collector = HeadCollector::new(store, &hint, &request, &stats);
        let listed = block_on(list_all(&collector, "", 10, &stats, |_| false)).map(|p| p.entries.len());
        assert_eq!(listed, Ok(store.keys.len()));
        (collector.into_heads(), stats.bytes_read.get())
    }

    #[test]
    fn only_the_heads_asked_for_within_the_prefix_are_kept() {
        let store = Headed {
            keys: vec!["a/SKILL.md", "b/SKILL.md", "c/SKILL.md", "d/notes.md"],
            heads: vec![
                ("a/SKILL.md", Head::Bytes(b"---\n".to_vec())),
                ("b/SKILL.md", Head::Bytes(b"longer than four".to_vec())),
                ("c/SKILL.md", Head::Failed("unreadable".into())),
                ("d/notes.md", Head::Bytes(b"note".to_vec())),
                ("e/SKILL.md", Head::Bytes(b"gone".to_vec())),
            ],
            offers: true,
        };
        let (heads, bytes) = collect(&store);
        let mut keys: Vec<&str> = heads.keys().map(String::as_str).collect();
        keys.sort_unstable();
        // b's head is longer than asked, d is not a skill file, e is not on the page.
        assert_eq!(keys, ["a/SKILL.md", "c/SKILL.md"]);
        assert_eq!(heads.get("c/SKILL.md"), Some(&Head::Failed("unreadable".into())));
        assert_eq!(bytes, 4);
    }

    #[test]
    fn a_store_without_heads_is_listed_the_ordinary_way() {
        let store =
            Headed { keys: vec!["a/SKILL.md"], heads: vec![("a/SKILL.md", Head::Bytes(b"x".to_vec()))], offers: false };
        let (heads, bytes) = collect(&store);
        assert!(heads.is_empty());
        assert_eq!(bytes, 0);
    }
}
