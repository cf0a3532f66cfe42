//! Discovery over a store that lists only the files it is asked to (`HeadRequest::listed`) and
//! names the directories it enters instead of every other file: the same skills, diagnostics,
//! `.gitignore` rules and directory cap as over a store that lists every key.

use futures_executor::block_on;
use skillwasm::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use skillwasm::store::{
    HeadPage, HeadRequest, ListEntry, ListPage, LocalFuture, MemoryStorage, SkipHint, Storage, StorageError,
};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\nDo it.\n")
}

/// A store over `files` whose listing with heads keeps only the files named in
/// `request.listed`, with a `dir/` item for every directory below the prefix (skipped ones left
/// out), paged over both in key order. It brings no heads: SKILL.md files are read as usual.
struct ListingOnly {
    inner: MemoryStorage,
    requests: Rc<RefCell<Vec<HeadRequest>>>,
    /// Keys (files and directories) handed over, over all pages.
    handed: Rc<RefCell<usize>>,
}

impl ListingOnly {
    fn new(files: &[(String, String)]) -> Self {
        ListingOnly { inner: MemoryStorage::new(files.to_vec()), requests: Rc::default(), handed: Rc::default() }
    }

    /// Every item of the filtered listing under `prefix`: `(key, is_directory)`, in key order.
    async fn items(
        &self,
        prefix: &str,
        skip: &SkipHint,
        listed: &[String],
    ) -> Result<Vec<(String, bool)>, StorageError> {
        let all = self.inner.list(prefix, None, u32::MAX).await?.entries;
        let mut items = BTreeSet::new();
        for e in all.iter().filter(|e| !skip.skips_key(prefix, &e.key)) {
            let rel = &e.key[prefix.len()..];
            for (end, _) in rel.match_indices('/') {
                items.insert((format!("{prefix}{}", &rel[..=end]), true));
            }
            if listed.is_empty() || listed.iter().any(|n| e.key.rsplit('/').next() == Some(n.as_str())) {
                items.insert((e.key.clone(), false));
            }
        }
        Ok(items.into_iter().collect())
    }
}

impl Storage for ListingOnly {
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
        skip: &'a SkipHint,
        request: &'a HeadRequest,
    ) -> Option<LocalFuture<'a, Result<HeadPage, StorageError>>> {
        self.requests.borrow_mut().push(request.clone());
        Some(Box::pin(async move {
            let items = self.items(prefix, skip, &request.listed).await?;
            let start = cursor.map_or(0, |c| items.partition_point(|(k, _)| k.as_str() <= c));
            let end = (start + limit as usize).min(items.len());
            let mut page = ListPage::default();
            for (key, dir) in items.get(start..end).unwrap_or_default() {
                if *dir {
                    page.directories.push(key.clone());
                } else {
                    page.entries.push(ListEntry { key: key.clone(), size: None, etag: None, digest: None });
                }
            }
            *self.handed.borrow_mut() += end - start;
            page.cursor = (end < items.len()).then(|| items.get(end - 1).map(|(k, _)| k.clone())).flatten();
            Ok(HeadPage { page, heads: Vec::new() })
        }))
    }

    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.inner.read(key, max_bytes)
    }
}

fn scope(storage: impl Storage + 'static, root: &str) -> ScopeHandle {
    ScopeHandle { name: "user".into(), roots: vec![root.to_string()], trusted: true, storage: Rc::new(storage) }
}

/// Names and diagnostics (code and message) of a discovery.
fn outcome(reg: &SkillRegistry) -> (Vec<String>, Vec<(String, String)>) {
    let names = reg.names().into_iter().map(|n| n.to_string()).collect();
    let mut diags: Vec<_> = reg.diagnostics().into_iter().map(|d| (d.code.to_string(), d.message)).collect();
    diags.sort();
    (names, diags)
}

fn tree() -> Vec<(String, String)> {
    let mut files = vec![
        ("r/top.md".to_string(), "x".to_string()),
        ("r/a/SKILL.md".to_string(), skill_md("a")),
        ("r/a/one.md".to_string(), "x".to_string()),
        ("r/a/b/c/SKILL.md".to_string(), skill_md("c")),
        ("r/a/b/c/more.md".to_string(), "x".to_string()),
        ("r/d/SKILL.md".to_string(), skill_md("d")),
        ("r/d/scripts/x/y/run.sh".to_string(), "x".to_string()),
        ("r/e/skill.md".to_string(), skill_md("e")),
        ("r/f/SKILL.md".to_string(), skill_md("f")),
        ("r/g/.gitignore".to_string(), "wip/\n".to_string()),
        ("r/g/wip/SKILL.md".to_string(), skill_md("wip")),
        ("r/g/done/SKILL.md".to_string(), skill_md("done")),
        ("r/deep/1/2/3/4/SKILL.md".to_string(), skill_md("deep")),
        ("r/node_modules/x/SKILL.md".to_string(), skill_md("nm")),
        ("r/.cache/z/SKILL.md".to_string(), skill_md("cache")),
    ];
    for i in 0..40 {
        files.push((format!("r/d/assets/{i:02}.png"), "x".to_string()));
    }
    files
}

#[test]
fn a_listing_of_only_the_skill_files_discovers_the_same() {
    let cases = [
        DiscoverOptions::default(),
        DiscoverOptions { page_size: 3, ..DiscoverOptions::default() },
        DiscoverOptions { respect_gitignore: true, accept_lowercase_skill_md: true, ..DiscoverOptions::default() },
        DiscoverOptions { max_depth: 3, page_size: 2, ..DiscoverOptions::default() },
    ];
    for opts in cases {
        let plain = block_on(SkillRegistry::discover(vec![scope(MemoryStorage::new(tree()), "r/")], opts.clone()));
        let store = ListingOnly::new(&tree());
        let (requests, handed) = (store.requests.clone(), store.handed.clone());
        let only = block_on(SkillRegistry::discover(vec![scope(store, "r/")], opts.clone()));
        assert_eq!(outcome(&only), outcome(&plain), "page size {}", opts.page_size);
        let mut want = vec!["SKILL.md".to_string()];
        if opts.accept_lowercase_skill_md {
            want.push("skill.md".into());
        }
        if opts.respect_gitignore {
            want.push(".gitignore".into());
        }
        // Discovery listed through the filtered listing, not the plain one.
        assert!(!requests.borrow().is_empty(), "no listing asked for the files it lists");
        assert!(requests.borrow().iter().all(|r| r.listed == want), "{:?}", requests.borrow());
        // Skill files and directories, not the 40 assets and the other files.
        assert!(*handed.borrow() > 0, "nothing handed over");
        assert!(*handed.borrow() < 35, "{} keys handed over", handed.borrow());
    }
}

#[test]
fn the_directory_cap_counts_the_directories_named() {
    // Directories below r/, in key order: a, a/b, a/b/c, d, d/assets, d/scripts, d/scripts/x,
    // d/scripts/x/y, deep, deep/1, ...: a cap of 5 stops inside d/, at the same point either way.
    for cap in [1, 3, 5, 8, 12, 40] {
        let opts = DiscoverOptions { max_directories: cap, page_size: 4, ..DiscoverOptions::default() };
        let plain = block_on(SkillRegistry::discover(vec![scope(MemoryStorage::new(tree()), "r/")], opts.clone()));
        let only = block_on(SkillRegistry::discover(vec![scope(ListingOnly::new(&tree()), "r/")], opts));
        assert_eq!(outcome(&only), outcome(&plain), "cap {cap}");
    }
    let opts = DiscoverOptions { max_directories: 5, ..DiscoverOptions::default() };
    let only = block_on(SkillRegistry::discover(vec![scope(ListingOnly::new(&tree()), "r/")], opts));
    assert_eq!(only.names(), ["a", "c", "d"]);
    assert!(only.diagnostics().iter().any(|d| d.code == "scan-directory-cap" && d.message.contains("after 5")));
}

#[test]
fn directories_outside_the_prefix_or_not_keys_are_dropped() {
    /// Hands over directory items that are not the prefix's: none of them counts or breaks.
    struct Odd;
    impl Storage for Odd {
        fn list<'a>(
            &'a self,
            _: &'a str,
            _: Option<&'a str>,
            _: u32,
        ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
            Box::pin(async { Ok(ListPage::default()) })
        }
        fn list_with_heads<'a>(
            &'a self,
            _: &'a str,
            _: Option<&'a str>,
            _: u32,
            _: &'a SkipHint,
            _: &'a HeadRequest,
        ) -> Option<LocalFuture<'a, Result<HeadPage, StorageError>>> {
            let directories = ["elsewhere/", "r/", "r/../", "r/x", "r//", "r/ok/"].map(str::to_string).to_vec();
            let entries = vec![ListEntry { key: "r/ok/SKILL.md".into(), size: None, etag: None, digest: None }];
            Some(Box::pin(async move {
                Ok(HeadPage { page: ListPage { entries, directories, ..ListPage::default() }, heads: Vec::new() })
            }))
        }
        fn read<'a>(&'a self, _: &'a str, _: Option<u32>) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
            Box::pin(async { Ok(Some(skill_md("ok").into_bytes())) })
        }
    }
    // Only r/ok/ counts: a cap of one directory holds it.
    let opts = DiscoverOptions { max_directories: 1, ..DiscoverOptions::default() };
    let reg = block_on(SkillRegistry::discover(vec![scope(Odd, "r/")], opts));
    assert_eq!(reg.names(), ["ok"]);
    assert!(reg.diagnostics().iter().all(|d| d.code != "scan-directory-cap"), "{:?}", reg.diagnostics());
}
