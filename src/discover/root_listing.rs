//! One root's listing, and what a discovery keeps of it for the next refresh: the digest of its
//! pages and the store's version. A store that lists as lines ([`Storage::list_lines`]) answers
//! each page as one text; when the previous discovery found the same digest, a refresh reads none
//! of those pages (no entry made, no key scanned, no skill compared) and takes the root's skills
//! as they were. A store that keeps a version is asked with the one it gave, and one that still
//! has it answers without listing at all.

use crate::diagnostic::Diagnostic;
use crate::store::{self, digest, lines, CallStats, ListPage, ListedPage, Pager, SkipHint, Storage, StorageError};

/// What a discovery keeps of one root's listing, so that the next refresh can tell it unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootListing {
    /// The scope's name.
    pub scope: String,
    /// The root (a list prefix).
    pub root: String,
    /// The digest of its pages, when each came as lines and the listing alone decided the root's
    /// skills (no `.gitignore` was read for them).
    pub digest: Option<u64>,
    /// The store's version as its first page gave it, when the listing has a digest and the store
    /// keeps one: the next refresh asks with it.
    pub version: Option<String>,
    /// The skill files its scan found, for the count of an untrusted scope.
    pub found: usize,
    /// The records it gave, which follow those of the roots listed before it.
    pub records: usize,
    /// What its scan reported (a bound hit), when it has a digest.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether each of its records says what its file holds and has an etag or a size to tell a
    /// change by: none holds a failure to read it, to be read again.
    pub settled: bool,
}

impl RootListing {
    /// A root without a digest (its listing failed, or came in another form): the next refresh
    /// reads its listing whatever it holds.
    pub fn undigested(scope: &str, root: &str, records: usize) -> RootListing {
        RootListing {
            scope: scope.to_string(),
            root: root.to_string(),
            digest: None,
            version: None,
            found: 0,
            records,
            diagnostics: Vec::new(),
            settled: false,
        }
    }
}

/// Most bytes of a root's pages held while its listing runs: past them, the pages held are read
/// and the rest as they come (the root is then read as if its digest had changed).
const MAX_HELD_BYTES: usize = 64 * 1024 * 1024;

/// How a root's listing ended.
pub(super) enum Pages {
    /// The pages have the digest the previous discovery found, or the store said that nothing
    /// changed since the version it gave then: none was read. `version` is the store's now, to
    /// keep for the next refresh.
    Same { version: Option<String> },
    /// The pages were handed to the scan; `digest` is theirs when every one came as lines, and
    /// `version` the store's as its first page gave it (only with a digest).
    Fed { digest: Option<u64>, version: Option<String> },
}

/// Lists `root` of `storage` in pages of `page_size` keys and hands each page, checked, to `each`
/// (which ends the listing early by answering true), unless the listing is as `before` (the
/// previous discovery's) found it: the store's version is still the one it gave then, or the pages
/// have the same digest. A store that does not list as lines is listed through `lister`, the
/// ordinary way. While a digest is expected, the pages are held (as text) until the last one, then
/// read when it differs.
#[allow(clippy::too_many_arguments)]
pub(super) async fn list_root(
    storage: &dyn Storage,
    lister: &dyn Storage,
    root: &str,
    hint: &SkipHint,
    page_size: u32,
    stats: &CallStats,
    before: Option<&RootListing>,
    each: &mut dyn FnMut(ListPage) -> bool,
) -> Result<Pages, StorageError> {
    let pager = Pager::new(root)?;
    let expected = before.and_then(|b| b.digest);
    // A version was kept only with a digest: the root's skills then depend on its listing alone.
    let unless_version = before.filter(|b| b.digest.is_some()).and_then(|b| b.version.as_deref());
    let Some(first) = storage.list_lines(root, None, page_size, hint, unless_version) else {
        store::list_pages(lister, root, page_size, stats, each).await?;
        return Ok(Pages::Fed { digest: None, version: None });
    };
    let mut reader = Reader { pager, each, stopped: false };
    let mut held: Vec<String> = Vec::new();
    let mut held_bytes = 0usize;
    // Holding the pages is worth it only when they may turn out the same.
    let mut holding = expected.is_some();
    let mut sum = Some(0u64);
    let mut first = Some(first);
    // The store's version as the first page gave it.
    let mut version: Option<String> = None;
    let mut cursor: Option<String> = None;
    loop {
        reader.pager.call(stats)?;
        let first_page = first.is_some();
        let page = match first.take() {
            Some(f) => f.await?,
            None => match storage.list_lines(root, cursor.as_deref(), page_size, hint, None) {
                Some(call) => call.await?,
                None => return Err(StorageError("the store stopped answering its listing as lines".to_string())),
            },
        };
        let next = match page {
            ListedPage::Unchanged if first_page && unless_version.is_some() => {
                return Ok(Pages::Same { version: unless_version.map(str::to_string) })
            }
            ListedPage::Unchanged => {
                return Err(StorageError(
                    "the store answered 'unchanged' to a listing that named no version".to_string(),
                ))
            }
            ListedPage::Lines { text, version: given } => {
                if first_page {
                    version = given;
                }
                let next = lines::cursor(&text).map(str::to_string);
                reader.pager.cursor(next.as_deref())?;
                sum = sum.map(|s| digest::mix(s, digest::bytes(0, text.as_bytes())));
                if holding {
                    held_bytes += text.len();
                    held.push(text);
                    if held_bytes > MAX_HELD_BYTES {
                        holding = false;
                        reader.feed_all(&mut held)?;
                    }
                } else {
                    reader.feed_text(&text)?;
                }
                next
            }
            ListedPage::Page(mut page) => {
                sum = None;
                reader.pager.cursor(page.cursor.as_deref())?;
                holding = false;
                reader.feed_all(&mut held)?;
                let next = page.cursor.take();
                reader.feed(page)?;
                next
            }
        };
        if reader.stopped {
            return Ok(Pages::Fed { digest: None, version: None });
        }
        match next {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    if sum.is_some() && sum == expected && !held.is_empty() {
        // The version moved (a change elsewhere in the store) but not this root's pages.
        return Ok(Pages::Same { version });
    }
    reader.feed_all(&mut held)?;
    if reader.stopped || sum.is_none() {
        return Ok(Pages::Fed { digest: None, version: None });
    }
    Ok(Pages::Fed { digest: sum, version })
}

/// Reads pages into entries and hands them on, until `each` says stop.
struct Reader<'p, 'e> {
    pager: Pager<'p>,
    each: &'e mut dyn FnMut(ListPage) -> bool,
    stopped: bool,
}

impl Reader<'_, '_> {
    fn feed(&mut self, mut page: ListPage) -> Result<(), StorageError> {
        if self.stopped {
            return Ok(());
        }
        self.pager.check(&mut page)?;
        page.cursor = None;
        self.stopped = (self.each)(page);
        Ok(())
    }

    fn feed_text(&mut self, text: &str) -> Result<(), StorageError> {
        if self.stopped {
            return Ok(());
        }
        // No head was asked for: a fourth field is refused with the page.
        let page = match lines::page(text, 0) {
            Some((page, errors)) if errors.is_empty() => page,
            _ => return Err(StorageError("the store answered a page of lines that are not a listing".to_string())),
        };
        self.feed(page)
    }

    fn feed_all(&mut self, held: &mut Vec<String>) -> Result<(), StorageError> {
        for text in held.drain(..) {
            self.feed_text(&text)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{list_all, ListEntry, LocalFuture, MemoryStorage};
    use futures_executor::block_on;
    use std::cell::Cell;

    /// A memory store that lists as lines, but answers page `json_page` (counted from 0) read,
    /// with `garbled` answers lines that are no listing, and with `versioned` answers as the
    /// memory store does, with its version (`Unchanged` from call `unchanged_from` on).
    struct Mixed {
        inner: MemoryStorage,
        json_page: Option<u32>,
        garbled: bool,
        versioned: bool,
        unchanged_from: Option<u32>,
        calls: Cell<u32>,
    }

    impl Storage for Mixed {
        fn list<'a>(
            &'a self,
            prefix: &'a str,
            cursor: Option<&'a str>,
            limit: u32,
        ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
            self.inner.list(prefix, cursor, limit)
        }
        fn list_lines<'a>(
            &'a self,
            prefix: &'a str,
            cursor: Option<&'a str>,
            limit: u32,
            skip: &'a SkipHint,
            unless_version: Option<&'a str>,
        ) -> Option<LocalFuture<'a, Result<ListedPage, StorageError>>> {
            let n = self.calls.get();
            self.calls.set(n + 1);
            if self.unchanged_from.is_some_and(|from| n >= from) {
                return Some(Box::pin(async { Ok(ListedPage::Unchanged) }));
            }
            if self.versioned {
                return self.inner.list_lines(prefix, cursor, limit, skip, unless_version);
            }
            let json = self.json_page == Some(n);
            Some(Box::pin(async move {
                let page = self.inner.list(prefix, cursor, limit).await?;
                Ok(match (json, self.garbled) {
                    (true, _) => ListedPage::Page(page),
                    (false, true) => ListedPage::Lines { text: "\nr/a\tnot a size\t".into(), version: None },
                    (false, false) => ListedPage::Lines { text: lines::write(&page), version: None },
                })
            }))
        }
        fn read<'a>(
            &'a self,
            key: &'a str,
            max: Option<u32>,
        ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
            self.inner.read(key, max)
        }
    }

    fn store(json_page: Option<u32>) -> Mixed {
        let inner = MemoryStorage::default();
        for i in 0..25 {
            inner.put(format!("r/s{i:02}/SKILL.md"), format!("skill {i}"));
        }
        inner.put("other/SKILL.md", "not under the root");
        Mixed { inner, json_page, garbled: false, versioned: false, unchanged_from: None, calls: Cell::new(0) }
    }

    /// What a listing of `r/` kept: its digest and version.
    fn kept(digest: Option<u64>, version: Option<String>) -> RootListing {
        RootListing { digest, version, ..RootListing::undigested("s", "r/", 0) }
    }

    /// Lists `r/` in pages of 10 as `before` kept it (by its digest alone): how it ended, the keys
    /// fed, the list calls.
    fn list(s: &Mixed, expected: Option<u64>) -> (Result<Pages, StorageError>, Vec<ListEntry>, u64) {
        list_after(s, expected.map(|d| kept(Some(d), None)).as_ref())
    }

    fn list_after(s: &Mixed, before: Option<&RootListing>) -> (Result<Pages, StorageError>, Vec<ListEntry>, u64) {
        let stats = CallStats::default();
        let mut fed = Vec::new();
        let mut each = |page: ListPage| {
            fed.extend(page.entries);
            false
        };
        let hint = SkipHint::default();
        let got = block_on(list_root(s, s, "r/", &hint, 10, &stats, before, &mut each));
        (got, fed, stats.list_calls.get())
    }

    fn all(s: &Mixed) -> Vec<ListEntry> {
        block_on(list_all(&s.inner, "r/", 10, &CallStats::default(), |_| false)).map(|p| p.entries).unwrap_or_default()
    }

    #[test]
    fn a_listing_with_the_expected_digest_is_not_read() {
        let s = store(None);
        let (got, fed, calls) = list(&s, None);
        let Ok(Pages::Fed { digest: Some(digest), version: None }) = got else { panic!("a digest") };
        assert_eq!((fed, calls), (all(&s), 3));
        // The same pages: nothing handed on, the same three calls.
        let (got, fed, calls) = list(&s, Some(digest));
        assert!(matches!(got, Ok(Pages::Same { version: None })));
        assert_eq!((fed.len(), calls), (0, 3));
        // One etag changed: every page is read, and the digest is another.
        s.inner.put("r/s17/SKILL.md", "skill 17, edited");
        let (got, fed, _) = list(&s, Some(digest));
        let Ok(Pages::Fed { digest: Some(changed), .. }) = got else { panic!("a digest") };
        assert_ne!(changed, digest);
        assert_eq!(fed, all(&s));
        // A key added after the last page is a page more.
        s.inner.put("r/s99/SKILL.md", "new");
        let (got, fed, _) = list(&s, Some(changed));
        assert!(matches!(got, Ok(Pages::Fed { digest: Some(d), .. }) if d != changed));
        assert_eq!(fed.len(), 26);
    }

    #[test]
    fn a_store_still_at_the_version_it_gave_answers_in_one_call() {
        let s = Mixed { versioned: true, ..store(None) };
        let (got, fed, calls) = list_after(&s, None);
        let Ok(Pages::Fed { digest: Some(digest), version: Some(version) }) = got else { panic!("a version") };
        assert_eq!((fed, calls, version.as_str()), (all(&s), 3, s.inner.version().as_str()));
        // Asked with it: one call, nothing handed on.
        let before = kept(Some(digest), Some(version.clone()));
        let (got, fed, calls) = list_after(&s, Some(&before));
        assert!(matches!(got, Ok(Pages::Same { version: Some(ref v) }) if *v == version));
        assert_eq!((fed.len(), calls), (0, 1));
        // An edit elsewhere in the store moves the version: every page is listed, and found the
        // same by its digest (held, not read), the new version to keep.
        s.inner.put("other/SKILL.md", "edited outside the root");
        let (got, fed, calls) = list_after(&s, Some(&before));
        let Ok(Pages::Same { version: Some(v) }) = got else { panic!("the same, at a new version") };
        assert_eq!((fed.len(), calls, v.as_str()), (0, 3, s.inner.version().as_str()));
        assert_ne!(v, version);
        s.inner.put("r/s03/SKILL.md", "edited");
        let (got, fed, _) = list_after(&s, Some(&kept(Some(digest), Some(v.clone()))));
        assert!(matches!(got, Ok(Pages::Fed { digest: Some(changed), .. }) if changed != digest));
        assert_eq!(fed, all(&s));
        // A version kept without a digest is not asked with (the root depends on more than its
        // listing): the listing runs in full.
        let (got, fed, calls) = list_after(&s, Some(&kept(None, Some(s.inner.version()))));
        assert!(matches!(got, Ok(Pages::Fed { .. })));
        assert_eq!((fed, calls), (all(&s), 3));
    }

    #[test]
    fn unchanged_to_a_listing_that_named_no_version_fails_it() {
        let s = Mixed { unchanged_from: Some(0), ..store(None) };
        let (got, fed, _) = list_after(&s, None);
        assert!(got.is_err_and(|e| e.0.contains("no version")));
        assert!(fed.is_empty());
        // Asked with a version, the first page may say so; a later one may not.
        let before = kept(Some(1), Some("v1".to_string()));
        assert!(matches!(list_after(&s, Some(&before)).0, Ok(Pages::Same { .. })));
        let s = Mixed { unchanged_from: Some(1), ..store(None) };
        assert!(list_after(&s, Some(&before)).0.is_err_and(|e| e.0.contains("no version")));
    }

    #[test]
    fn a_page_in_another_form_is_read_in_its_place_and_leaves_no_digest() {
        for json_page in 0..3 {
            let s = store(Some(json_page));
            let (got, fed, calls) = list(&s, Some(1));
            assert!(matches!(got, Ok(Pages::Fed { digest: None, version: None })), "page {json_page}");
            assert_eq!((fed, calls), (all(&s), 3), "page {json_page}");
        }
    }

    #[test]
    fn lines_that_are_no_listing_fail_the_listing() {
        let s = Mixed { garbled: true, ..store(None) };
        for expected in [None, Some(1)] {
            let (got, fed, _) = list(&s, expected);
            assert!(got.is_err(), "expected {expected:?}");
            assert!(fed.is_empty());
        }
    }
}
