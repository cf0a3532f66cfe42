//! A refresh over a store that keeps a version (the memory store does): the registry keeps the
//! version each root's listing gave and asks with it, so that a store with nothing changed answers
//! in one call per root, listing no key and reading nothing. A change anywhere in the store moves
//! the version; the registry then lists in full, reads only what changed, and keeps the new version
//! even when the root's own pages turn out the same.

use futures_executor::block_on;
use skillwasm::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use skillwasm::store::{ListPage, ListedPage, LocalFuture, MemoryStorage, SkipHint, Storage, StorageError};
use std::cell::RefCell;
use std::rc::Rc;

const ROOT: &str = ".agents/skills/";
/// Keys listed per call: 30 skills are five pages.
const PAGE: u32 = 7;

fn skill_md(name: &str, desc: &str) -> String {
    format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n")
}

/// A memory store recording the version each listing call named.
struct Recorded {
    inner: MemoryStorage,
    asked: RefCell<Vec<Option<String>>>,
}

impl Storage for Recorded {
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
        self.asked.borrow_mut().push(unless_version.map(str::to_string));
        self.inner.list_lines(prefix, cursor, limit, skip, unless_version)
    }

    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.inner.read(key, max_bytes)
    }
}

fn discovered() -> (SkillRegistry, Rc<Recorded>) {
    let files = (0..30).map(|i| (format!("{ROOT}s{i:02}/SKILL.md"), skill_md(&format!("s{i}"), "A skill.")));
    let store = Rc::new(Recorded { inner: MemoryStorage::new(files), asked: RefCell::default() });
    let scope = ScopeHandle { name: "user".into(), roots: vec![ROOT.into()], trusted: true, storage: store.clone() };
    let options = DiscoverOptions { page_size: PAGE, ..DiscoverOptions::default() };
    let reg = block_on(SkillRegistry::discover(vec![scope], options));
    (reg, store)
}

/// A refresh: its report's (added, changed, removed) counts, the versions its list calls named,
/// and its reads.
fn refresh(reg: &mut SkillRegistry, store: &Recorded) -> ((usize, usize, usize), Vec<Option<String>>, u64) {
    let reads = reg.stats().read_calls;
    store.asked.take();
    let r = block_on(reg.refresh());
    ((r.added.len(), r.changed.len(), r.removed.len()), store.asked.take(), reg.stats().read_calls - reads)
}

#[test]
fn a_refresh_names_the_version_the_listing_gave_and_a_store_still_at_it_lists_nothing() {
    let (mut reg, store) = discovered();
    assert_eq!(store.asked.take(), vec![None; 5], "discovery names no version");
    assert_eq!(reg.names().len(), 30);

    let at = Some(store.inner.version());
    assert_eq!(refresh(&mut reg, &store), ((0, 0, 0), vec![at.clone()], 0), "one call, nothing read");

    // An edit under the root: the full listing, the changed file read.
    store.inner.put(format!("{ROOT}s04/SKILL.md"), skill_md("s4", "Edited."));
    let mut full = vec![None; 5];
    full[0] = at;
    assert_eq!(refresh(&mut reg, &store), ((0, 1, 0), full, 1));
    assert_eq!(reg.get("s4").map(|m| m.skill.description.clone()), Some("Edited.".into()));
    let at = Some(store.inner.version());
    assert_eq!(refresh(&mut reg, &store), ((0, 0, 0), vec![at.clone()], 0));

    // An edit elsewhere in the store: the root's pages are the same, so nothing is read, and the
    // registry keeps the new version, which the next refresh names.
    store.inner.put("elsewhere/notes.md", "outside the root");
    let (report, asked, reads) = refresh(&mut reg, &store);
    assert_eq!((report, asked.len(), asked[0].clone(), reads), ((0, 0, 0), 5, at, 0));
    assert_eq!(refresh(&mut reg, &store), ((0, 0, 0), vec![Some(store.inner.version())], 0));

    // Added and removed skills: one read for the new one.
    store.inner.remove(&format!("{ROOT}s09/SKILL.md"));
    store.inner.put(format!("{ROOT}zz/SKILL.md"), skill_md("zz", "Added."));
    let (report, _, reads) = refresh(&mut reg, &store);
    assert_eq!((report, reads), ((1, 0, 1), 1));
    assert_eq!(reg.names().len(), 30);
}

#[test]
fn an_unchanged_refresh_that_ends_after_another_keeps_the_listings_of_the_other() {
    let (mut reg, store) = discovered();
    let key = format!("{ROOT}s04/SKILL.md");
    let original = skill_md("s4", "A skill.");
    // Refresh A lists while nothing has changed (one call, answered unchanged), and ends late.
    let late = block_on(reg.refresh_inputs().discover());
    assert!(late.unchanged);
    // Meanwhile s4 is edited and refresh B installs it.
    store.inner.put(key.clone(), skill_md("s4", "Edited."));
    assert_eq!(refresh(&mut reg, &store).0, (0, 1, 0));
    // A ends now. It found the records B replaced unchanged: it says nothing, and the registry
    // keeps B's listings (A's have the version and the pages of before the edit).
    let report = reg.apply(late);
    assert!(report.added.is_empty() && report.changed.is_empty() && report.removed.is_empty());
    assert_eq!(reg.get("s4").map(|m| m.skill.description.clone()), Some("Edited.".into()));
    // The edit is undone: the pages are byte for byte those A listed. Told by B's listings, the
    // refresh reads s4 again; told by A's, it would take the root as A found it and keep the edit.
    store.inner.put(key, original);
    let (report, _, reads) = refresh(&mut reg, &store);
    assert_eq!((report, reads), ((0, 1, 0), 1));
    assert_eq!(reg.get("s4").map(|m| m.skill.description.clone()), Some("A skill.".into()));
}
