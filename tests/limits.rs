//! Size limits across discovery and file reads: objects listed above the cap are refused before
//! any read, reads never ask for more than the cap (+1), and a store that sends more than it was
//! asked for is refused, not trusted.

use futures_executor::block_on;
use skillwasm::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use skillwasm::store::{ListPage, LocalFuture, MemoryStorage, Storage, StorageError};
use std::cell::RefCell;
use std::rc::Rc;

/// The reads a store was asked for: key and `max_bytes`.
type Asked = Rc<RefCell<Vec<(String, Option<u32>)>>>;

/// A memory store that can hide or fake listed sizes, ignore `max_bytes`, and records every
/// `max_bytes` it was asked for.
struct Odd {
    inner: MemoryStorage,
    listed_size: Option<Option<u64>>,
    ignore_max: bool,
    asked: Asked,
}

impl Odd {
    fn new(files: &[(&str, String)]) -> Self {
        Odd {
            inner: MemoryStorage::new(files.iter().map(|(k, v)| (k.to_string(), v.clone()))),
            listed_size: None,
            ignore_max: false,
            asked: Rc::default(),
        }
    }
}

impl Storage for Odd {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let mut page = self.inner.list(prefix, cursor, limit).await?;
            if let Some(size) = self.listed_size {
                for e in &mut page.entries {
                    e.size = size;
                }
            }
            Ok(page)
        })
    }
    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.asked.borrow_mut().push((key.to_string(), max_bytes));
        self.inner.read(key, if self.ignore_max { None } else { max_bytes })
    }
}

fn registry(store: Odd, opts: DiscoverOptions) -> SkillRegistry {
    let scope = ScopeHandle {
        name: "user".into(),
        roots: vec![".agents/skills/".into()],
        trusted: true,
        storage: Rc::new(store),
    };
    block_on(SkillRegistry::discover(vec![scope], opts))
}

fn codes(reg: &SkillRegistry) -> Vec<String> {
    reg.diagnostics().iter().map(|d| d.code.clone()).collect()
}

const SMALL: &str = "---\nname: small\ndescription: A small skill.\n---\nBody.\n";

fn long_frontmatter(name: &str, bytes: usize) -> String {
    format!("---\nname: {name}\ndescription: {}\n---\nBody.\n", "d".repeat(bytes))
}

#[test]
fn a_skill_listed_above_the_cap_is_refused_before_any_read() {
    let mut store = Odd::new(&[(".agents/skills/big/SKILL.md", SMALL.to_string())]);
    store.listed_size = Some(Some(520 * 1024 * 1024));
    let asked = store.asked.clone();
    let reg = registry(store, DiscoverOptions::default());
    assert!(reg.names().is_empty());
    assert!(codes(&reg).contains(&"skill-too-large".to_string()), "{:?}", codes(&reg));
    assert!(asked.borrow().is_empty(), "no read: {:?}", asked.borrow());
}

#[test]
fn the_cap_is_configurable_and_a_whole_read_asks_for_one_byte_more() {
    let files = [
        (".agents/skills/big/SKILL.md", long_frontmatter("big", 9000)),
        (".agents/skills/small/SKILL.md", SMALL.to_string()),
    ];
    // Sizes unknown: the prefix read decides nothing for `big`, the whole read is bounded.
    let mut store = Odd::new(&files);
    store.listed_size = Some(None);
    let asked = store.asked.clone();
    let reg = registry(store, DiscoverOptions { max_object_bytes: 8192, ..DiscoverOptions::default() });
    assert_eq!(reg.names(), ["small"]);
    assert!(codes(&reg).contains(&"skill-too-large".to_string()), "{:?}", codes(&reg));
    let asked = asked.borrow();
    assert!(asked.iter().all(|(_, m)| m.is_some_and(|m| m <= 8193)), "every read is bounded: {asked:?}");
    assert!(asked.contains(&(".agents/skills/big/SKILL.md".to_string(), Some(8193))));
    // With the default cap the same skill loads.
    let mut store = Odd::new(&files);
    store.listed_size = Some(None);
    assert_eq!(registry(store, DiscoverOptions::default()).names(), ["big", "small"]);
}

#[test]
fn a_store_that_sends_more_than_asked_is_refused() {
    let files = [(".agents/skills/a/SKILL.md", SMALL.to_string() + &"x".repeat(10_000))];
    let mut store = Odd::new(&files);
    store.ignore_max = true;
    let reg = registry(store, DiscoverOptions::default());
    assert!(reg.names().is_empty());
    let diags = reg.diagnostics();
    let d = diags.iter().find(|d| d.code == "storage-read-failed").map(|d| d.message.clone());
    assert!(d.as_deref().is_some_and(|m| m.contains("when at most 4096 were asked for")), "{d:?}");
}

#[test]
fn file_reads_are_bounded_by_the_cap() {
    let files = [
        (".agents/skills/a/SKILL.md", SMALL.replace("small", "a")),
        (".agents/skills/a/big.txt", "y".repeat(5000)),
        (".agents/skills/a/ok.txt", "fine".to_string()),
    ];
    let store = Odd::new(&files);
    let asked = store.asked.clone();
    let reg = registry(store, DiscoverOptions { max_object_bytes: 4096, ..DiscoverOptions::default() });
    let big = block_on(reg.read_file("a", Some("big.txt")));
    assert_eq!(big.error.map(|d| d.code).as_deref(), Some("file-too-large"));
    assert_eq!(block_on(reg.read_file("a", Some("ok.txt"))).text.as_deref(), Some("fine"));
    assert!(asked.borrow().iter().all(|(_, m)| m.is_some_and(|m| m <= 4097)), "{:?}", asked.borrow());
}

#[test]
fn the_instructions_of_a_skill_listed_above_the_cap_are_not_read() {
    let files = [(".agents/skills/a/SKILL.md", SMALL.replace("small", "a"))];
    // Listed larger than it is; under the default cap it is read as usual.
    let mut store = Odd::new(&files);
    store.listed_size = Some(Some(99_999));
    let asked = store.asked.clone();
    let reg = registry(store, DiscoverOptions::default());
    assert_eq!(reg.names(), ["a"]);
    assert_eq!(block_on(reg.read_file("a", None)).text.as_deref(), Some("Body."));
    // Started from its snapshot under a cap below the listed size (the snapshot keeps it): the
    // instructions are refused from the listed size, without a read.
    let mut again = Odd::new(&files);
    again.asked = asked.clone();
    let scope = ScopeHandle {
        name: "user".into(),
        roots: vec![".agents/skills/".into()],
        trusted: true,
        storage: Rc::new(again),
    };
    let opts = DiscoverOptions { max_object_bytes: 4096, ..DiscoverOptions::default() };
    let Ok(cold) = SkillRegistry::from_snapshot(reg.snapshot(), vec![scope], opts) else { panic!("snapshot") };
    let before = asked.borrow().len();
    let body = block_on(cold.read_file("a", None));
    assert_eq!(body.error.map(|d| d.code).as_deref(), Some("file-too-large"));
    assert_eq!(asked.borrow().len(), before, "not read");
}
