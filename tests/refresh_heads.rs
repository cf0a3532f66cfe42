//! A refresh over a store whose heads cost reads ([`Storage::heads_cost_reads`], a directory on
//! disk) asks it for no heads: the skill files whose size and etag are as before are not read at
//! all, and each changed or added one is read once. A store whose heads come with its listing is
//! asked for them on every refresh, and reads nothing.

use futures_executor::block_on;
use skillwasm::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use skillwasm::store::{
    Head, HeadPage, HeadRequest, ListPage, LocalFuture, MemoryStorage, SkipHint, Storage, StorageError,
};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

const ROOT: &str = ".agents/skills/";

fn skill_md(name: &str, desc: &str) -> String {
    format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n")
}

/// A memory store whose listing with heads brings the heads of the files `request.names` names
/// and a size and an etag for every file, recording each request's names and counting reads.
struct Headed {
    inner: MemoryStorage,
    cost_reads: bool,
    asked: RefCell<Vec<Vec<String>>>,
    reads: Cell<u32>,
}

impl Storage for Headed {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        self.inner.list(prefix, cursor, limit)
    }

    fn list_with_heads<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        _skip: &'a SkipHint,
        request: &'a HeadRequest,
    ) -> Option<LocalFuture<'a, Result<HeadPage, StorageError>>> {
        self.asked.borrow_mut().push(request.names.clone());
        Some(Box::pin(async move {
            let page = self.inner.list(prefix, cursor, limit).await?;
            let mut heads = Vec::new();
            for e in &page.entries {
                if request.names.iter().any(|n| e.key.rsplit('/').next() == Some(n.as_str())) {
                    let bytes = self.inner.read(&e.key, Some(request.prefix_bytes)).await?.unwrap_or_default();
                    heads.push((e.key.clone(), Head::Bytes(bytes)));
                }
            }
            Ok(HeadPage { page, heads })
        }))
    }

    fn heads_cost_reads(&self) -> bool {
        self.cost_reads
    }

    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.reads.set(self.reads.get() + 1);
        self.inner.read(key, max_bytes)
    }
}

/// A registry over a store of three skills, and the store.
fn discovered(cost_reads: bool) -> (SkillRegistry, Rc<Headed>) {
    let files = ["a", "b", "c"].map(|n| (format!("{ROOT}{n}/SKILL.md"), skill_md(n, &format!("The {n} skill."))));
    let store = Rc::new(Headed {
        inner: MemoryStorage::new(files),
        cost_reads,
        asked: RefCell::default(),
        reads: Cell::new(0),
    });
    let scope = ScopeHandle { name: "user".into(), roots: vec![ROOT.into()], trusted: true, storage: store.clone() };
    let reg = block_on(SkillRegistry::discover(vec![scope], DiscoverOptions::default()));
    (reg, store)
}

/// The file names each listing call since the last look asked heads of, and the reads since.
fn since(store: &Headed) -> (Vec<Vec<String>>, u32) {
    (store.asked.take(), store.reads.replace(0))
}

fn description(reg: &SkillRegistry, name: &str) -> String {
    reg.get(name).map(|m| m.skill.description.clone()).unwrap_or_default()
}

#[test]
fn a_refresh_asks_a_store_whose_heads_cost_reads_for_none_and_reads_what_changed() {
    let (mut reg, store) = discovered(true);
    let (asked, reads) = since(&store);
    assert!(asked.iter().all(|names| names.contains(&"SKILL.md".to_string())), "discovery asks heads: {asked:?}");
    assert_eq!(reads, 0, "discovery takes the heads");
    assert_eq!(reg.names(), ["a", "b", "c"]);

    let report = block_on(reg.refresh());
    let (asked, reads) = since(&store);
    assert!(!asked.is_empty() && asked.iter().all(Vec::is_empty), "a refresh asks no heads: {asked:?}");
    assert_eq!(reads, 0, "nothing changed: nothing read");
    assert!(report.changed.is_empty() && report.added.is_empty() && report.removed.is_empty());

    store.inner.put(format!("{ROOT}b/SKILL.md"), skill_md("b", "The b skill, edited."));
    store.inner.put(format!("{ROOT}d/SKILL.md"), skill_md("d", "The d skill."));
    let report = block_on(reg.refresh());
    let (asked, reads) = since(&store);
    assert!(asked.iter().all(Vec::is_empty), "{asked:?}");
    assert_eq!(reads, 2, "the changed skill and the added one are read, once each");
    assert_eq!(report.changed.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["b"]);
    assert_eq!(report.added.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["d"]);
    assert_eq!(description(&reg, "b"), "The b skill, edited.");
    assert_eq!(reg.names(), ["a", "b", "c", "d"]);

    store.inner.remove(&format!("{ROOT}a/SKILL.md"));
    let report = block_on(reg.refresh());
    assert_eq!(since(&store).1, 0, "a removal reads nothing");
    assert_eq!(report.removed.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["a"]);
    assert_eq!(reg.names(), ["b", "c", "d"]);
}

#[test]
fn a_refresh_asks_a_store_whose_heads_come_with_its_listing_for_them() {
    let (mut reg, store) = discovered(false);
    since(&store);
    store.inner.put(format!("{ROOT}b/SKILL.md"), skill_md("b", "The b skill, edited."));
    let report = block_on(reg.refresh());
    let (asked, reads) = since(&store);
    assert!(!asked.is_empty() && asked.iter().all(|names| names.contains(&"SKILL.md".to_string())), "{asked:?}");
    assert_eq!(reads, 0, "the changed skill comes with its head");
    assert_eq!(report.changed.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["b"]);
    assert_eq!(description(&reg, "b"), "The b skill, edited.");
}
