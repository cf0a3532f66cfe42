//! Listing in pages and checked reads: every key is checked before the store sees it, and a store
//! that misbehaves (repeats a cursor, never ends, sends more than asked) is bounded here.

use super::keys;
use super::{CallStats, ListEntry, ListPage, Storage, StorageError};
use std::collections::HashSet;

/// Most pages a single listing may take, so a store that always answers with a new cursor cannot
/// keep the core busy forever.
pub const MAX_PAGES: usize = 100_000;

/// Most keys a single listing may gather (a store that answers huge pages cannot fill memory).
pub const MAX_LISTED_KEYS: usize = 2_000_000;

/// Lists every key under `prefix`, page by page. `stop` is asked after each page and ends the
/// listing early when it says so (a scan bound was hit). A cursor the store gave before (at any
/// earlier page, not only the last) ends the listing with an error: the store goes round in a
/// cycle.
pub async fn list_all(
    storage: &dyn Storage,
    prefix: &str,
    page_size: u32,
    stats: &CallStats,
    mut stop: impl FnMut(&[ListEntry]) -> bool,
) -> Result<ListPage, StorageError> {
    let mut all = ListPage::default();
    list_pages(storage, prefix, page_size, stats, |page| {
        all.entries.extend(page.entries);
        all.warnings.extend(page.warnings);
        stop(&all.entries)
    })
    .await?;
    Ok(all)
}

/// As [`list_all`], handing each page to `each` instead of gathering them (a listing of many
/// keys is not held at once): `each` gets the page's checked entries and its warnings, and ends
/// the listing early by answering true. The bounds are those of [`list_all`].
pub async fn list_pages(
    storage: &dyn Storage,
    prefix: &str,
    page_size: u32,
    stats: &CallStats,
    mut each: impl FnMut(ListPage) -> bool,
) -> Result<(), StorageError> {
    let mut pager = Pager::new(prefix)?;
    let mut cursor: Option<String> = None;
    loop {
        pager.call(stats)?;
        let mut page = storage.list(prefix, cursor.as_deref(), page_size).await?;
        pager.cursor(page.cursor.as_deref())?;
        pager.check(&mut page)?;
        let next = page.cursor.take();
        if each(page) {
            return Ok(());
        }
        match next {
            Some(c) => cursor = Some(c),
            None => return Ok(()),
        }
    }
}

/// The bounds of one listing, page by page: at most [`MAX_PAGES`] calls, no cursor twice, at most
/// `MAX_LISTED_KEYS` keys (two million), and only checked keys under the prefix.
pub struct Pager<'a> {
    prefix: &'a str,
    seen: HashSet<String>,
    pages: usize,
    listed: usize,
}

impl<'a> Pager<'a> {
    /// A listing of `prefix`, after checking it.
    pub fn new(prefix: &'a str) -> Result<Self, StorageError> {
        keys::check_prefix(prefix).map_err(|e| StorageError(e.0))?;
        Ok(Pager { prefix, seen: HashSet::new(), pages: 0, listed: 0 })
    }

    /// Counts a store call; Err once the listing has taken [`MAX_PAGES`] pages.
    pub fn call(&mut self, stats: &CallStats) -> Result<(), StorageError> {
        if self.pages >= MAX_PAGES {
            return Err(StorageError(format!("listing {:?} did not end after {MAX_PAGES} pages", self.prefix)));
        }
        self.pages += 1;
        CallStats::bump(&stats.list_calls, 1);
        Ok(())
    }

    /// Takes the cursor a page gave; Err when the store gave it before (at any earlier page, not
    /// only the last): the listing goes round in a cycle.
    pub fn cursor(&mut self, cursor: Option<&str>) -> Result<(), StorageError> {
        let Some(c) = cursor else { return Ok(()) };
        if !self.seen.insert(c.to_string()) {
            return Err(StorageError(format!(
                "the store returned the cursor {:?} a second time (after {} pages): the listing goes round in a cycle",
                clip(c),
                self.seen.len() + 1
            )));
        }
        Ok(())
    }

    /// Drops what a page holds that is not under the prefix or not a valid key (a store must
    /// answer for the prefix it was asked about), and counts the rest.
    pub fn check(&mut self, page: &mut ListPage) -> Result<(), StorageError> {
        let prefix = self.prefix;
        page.entries.retain(|e| e.key.starts_with(prefix) && keys::check_key(&e.key).is_ok());
        page.directories.retain(|d| d.len() > prefix.len() && d.starts_with(prefix) && keys::check_prefix(d).is_ok());
        self.listed += page.entries.len() + page.directories.len();
        if self.listed > MAX_LISTED_KEYS {
            return Err(StorageError(format!("listing {prefix:?} gave more than {MAX_LISTED_KEYS} keys")));
        }
        Ok(())
    }
}

fn clip(s: &str) -> &str {
    match s.char_indices().nth(80) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Reads `key` after checking it. A store that sends more than `max_bytes` is refused: it either
/// ignores the contract or the object is not the one asked about.
pub async fn read_checked(
    storage: &dyn Storage,
    key: &str,
    max_bytes: Option<u32>,
    stats: &CallStats,
) -> Result<Option<Vec<u8>>, StorageError> {
    keys::check_key(key).map_err(|e| StorageError(e.0))?;
    CallStats::bump(&stats.read_calls, 1);
    let out = storage.read(key, max_bytes).await?;
    if let Some(b) = &out {
        CallStats::bump(&stats.bytes_read, b.len() as u64);
        if let Some(m) = max_bytes.filter(|m| b.len() > *m as usize) {
            return Err(StorageError(format!("the store sent {} bytes when at most {m} were asked for", b.len())));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::LocalFuture;
    use futures_executor::block_on;
    use std::cell::Cell;

    /// Pages `a`, `b`, `c`, ... whose cursors cycle after `period` pages.
    struct Cycling {
        period: u32,
        calls: Cell<u32>,
    }

    impl Storage for Cycling {
        fn list<'a>(
            &'a self,
            _prefix: &'a str,
            _cursor: Option<&'a str>,
            _limit: u32,
        ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
            let n = self.calls.get();
            self.calls.set(n + 1);
            let period = self.period;
            Box::pin(async move {
                Ok(ListPage {
                    entries: vec![ListEntry { key: format!("k{n}"), size: None, etag: None, digest: None }],
                    cursor: Some(format!("c{}", n % period)),
                    ..ListPage::default()
                })
            })
        }
        fn read<'a>(
            &'a self,
            _key: &'a str,
            _max: Option<u32>,
        ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
            Box::pin(async { Ok(Some(vec![0; 100])) })
        }
    }

    #[test]
    fn any_repeated_cursor_ends_the_listing() {
        for period in [1, 2, 5] {
            let store = Cycling { period, calls: Cell::new(0) };
            let err = block_on(list_all(&store, "", 10, &CallStats::default(), |_| false)).err();
            assert!(err.is_some_and(|e| e.0.contains("cycle")), "period {period}");
            assert_eq!(store.calls.get(), period + 1, "period {period}");
        }
    }

    #[test]
    fn a_read_above_what_was_asked_is_refused() {
        let store = Cycling { period: 1, calls: Cell::new(0) };
        let stats = CallStats::default();
        assert!(block_on(read_checked(&store, "a", Some(10), &stats)).is_err());
        assert_eq!(block_on(read_checked(&store, "a", Some(100), &stats)).ok().flatten().map(|b| b.len()), Some(100));
        assert!(block_on(read_checked(&store, "a", None, &stats)).is_ok());
    }
}
