//! Discovery's scan rules over in-memory stores: the skip hint sent to stores, `.gitignore`, the
//! directory cap at its boundary, and the diagnostics about scopes and roots.

use futures_executor::block_on;
use skillwasm::discover::{skip_hint, DiscoverOptions, ScopeHandle, SkillRegistry};
use skillwasm::store::{ListPage, LocalFuture, MemoryStorage, SkipHint, Storage, StorageError};
use skillwasm::{Diagnostic, Severity};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\nDo it.\n")
}

fn scope_at(storage: impl Storage + 'static, roots: &[&str], trusted: bool) -> ScopeHandle {
    ScopeHandle {
        name: "user".into(),
        roots: roots.iter().map(|r| r.to_string()).collect(),
        trusted,
        storage: Rc::new(storage),
    }
}

fn find<'a>(diags: &'a [Diagnostic], code: &str) -> Option<&'a Diagnostic> {
    diags.iter().find(|d| d.code == code)
}

const ROOT_MISSING: &str = "the storage root directory /srv/x does not exist";

/// A store that walks like a filesystem: it honours the skip hint when `honour` is set, and
/// records the hints and how many entries it returned.
#[derive(Clone)]
struct Walking {
    inner: MemoryStorage,
    honour: bool,
    hints: Rc<RefCell<Vec<SkipHint>>>,
    returned: Rc<Cell<usize>>,
    reads: Rc<RefCell<Vec<String>>>,
    root_warning: Option<String>,
}

impl Walking {
    fn new(files: Vec<(String, String)>, honour: bool) -> Self {
        Walking {
            inner: MemoryStorage::new(files),
            honour,
            hints: Rc::default(),
            returned: Rc::default(),
            reads: Rc::default(),
            root_warning: None,
        }
    }
}

impl Storage for Walking {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let mut page = self.inner.list(prefix, cursor, limit).await?;
            self.returned.set(self.returned.get() + page.entries.len());
            if let Some(key) = &self.root_warning {
                page.warnings.push((key.clone(), ROOT_MISSING.into()));
            }
            Ok(page)
        })
    }

    fn list_skipping<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        skip: &'a SkipHint,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        self.hints.borrow_mut().push(skip.clone());
        if !self.honour {
            return self.list(prefix, cursor, limit);
        }
        Box::pin(async move {
            // A whole listing filtered and paged again, as a walk that never enters them would be.
            let mut all = self.inner.list(prefix, None, u32::MAX).await?.entries;
            all.retain(|e| !skip.skips_key(prefix, &e.key));
            let start = cursor.map_or(0, |c| all.partition_point(|e| e.key.as_str() <= c));
            let end = (start + limit as usize).min(all.len());
            let entries = all[start..end].to_vec();
            self.returned.set(self.returned.get() + entries.len());
            let cursor = (end < all.len()).then(|| entries.last().map(|e| e.key.clone())).flatten();
            let warnings = self.root_warning.iter().map(|k| (k.clone(), ROOT_MISSING.to_string())).collect();
            Ok(ListPage { entries, cursor, warnings, ..ListPage::default() })
        })
    }

    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.reads.borrow_mut().push(key.to_string());
        self.inner.read(key, max_bytes)
    }
}

fn heavy_tree() -> Vec<(String, String)> {
    let mut files = vec![
        ("pdf/SKILL.md".to_string(), skill_md("pdf")),
        ("pdf/scripts/run.js".to_string(), "run()".to_string()),
        ("csv/SKILL.md".to_string(), skill_md("csv")),
        ("csv/.gitignore".to_string(), "node_modules/\n".to_string()),
    ];
    for i in 0..300 {
        files.push((format!("pdf/scripts/node_modules/dep{i}/index.js"), String::new()));
        files.push((format!(".git/objects/{i:02x}/obj"), String::new()));
    }
    files.push(("pdf/scripts/node_modules/dep0/SKILL.md".into(), skill_md("dep")));
    files.push((".git/SKILL.md".into(), skill_md("git")));
    files
}

#[test]
fn stores_are_asked_to_skip_what_discovery_drops() {
    let opts = DiscoverOptions { page_size: 100, ..DiscoverOptions::default() };
    let mut outcomes = Vec::new();
    for honour in [false, true] {
        let store = Walking::new(heavy_tree(), honour);
        let (hints, returned) = (store.hints.clone(), store.returned.clone());
        let reg = block_on(SkillRegistry::discover(vec![scope_at(store, &[""], true)], opts.clone()));
        assert!(hints.borrow().iter().all(|h| *h == skip_hint()), "every page asks for the same hint");
        assert_eq!(hints.borrow()[0].names, [".git", "node_modules"]);
        assert!(hints.borrow()[0].dot_directories);
        outcomes.push((reg.names(), reg.stats().list_calls, returned.get()));
    }
    let (ignored, honoured) = (&outcomes[0], &outcomes[1]);
    // The same skills either way: the core filters what a store that ignores the hint sends.
    assert_eq!(ignored.0, ["csv", "pdf"]);
    assert_eq!(honoured.0, ignored.0);
    assert_eq!((ignored.1, ignored.2), (7, 606), "every key, in pages of 100");
    assert_eq!((honoured.1, honoured.2), (1, 4), "one page of the four keys discovery uses");
}

fn gitignore_tree() -> Vec<(String, String)> {
    vec![
        (".gitignore".into(), "# repository rules\n/.agents/skills/scratch-*/\n".into()),
        (".agents/skills/.gitignore".into(), "drafts/\n*.bak/\n".into()),
        (".agents/skills/pdf/SKILL.md".into(), skill_md("pdf")),
        (".agents/skills/pdf/.gitignore".into(), "SKILL.md\n".into()),
        (".agents/skills/scratch-1/SKILL.md".into(), skill_md("scratch-1")),
        (".agents/skills/drafts/new/SKILL.md".into(), skill_md("new")),
        (".agents/skills/old.bak/SKILL.md".into(), skill_md("old")),
        (".agents/skills/team/.gitignore".into(), "!drafts/\nwip-*\n".into()),
        (".agents/skills/team/drafts/kept/SKILL.md".into(), skill_md("kept")),
        (".agents/skills/team/wip-x/SKILL.md".into(), skill_md("wip-x")),
        (".agents/skills/team/done/SKILL.md".into(), skill_md("done")),
    ]
}

#[test]
fn gitignore_only_when_asked() {
    let reg = block_on(SkillRegistry::discover(
        vec![scope_at(MemoryStorage::new(gitignore_tree()), &[".agents/skills/"], true)],
        DiscoverOptions::default(),
    ));
    assert_eq!(reg.names().len(), 7, "by default .gitignore changes nothing");

    let store = Walking::new(gitignore_tree(), true);
    let reads = store.reads.clone();
    let opts = DiscoverOptions { respect_gitignore: true, ..DiscoverOptions::default() };
    let reg = block_on(SkillRegistry::discover(vec![scope_at(store, &[".agents/skills/"], true)], opts.clone()));
    // The skill directory's own .gitignore does not hide its SKILL.md: only parents' rules count.
    assert_eq!(reg.names(), ["done", "kept", "pdf"]);
    let d = reg.diagnostics();
    let note = find(&d, "scan-gitignored").expect("scan-gitignored");
    assert_eq!(note.severity, Severity::Info);
    assert!(note.message.starts_with("4 SKILL.md file(s)"), "{}", note.message);
    let mut gitignores: Vec<_> = reads.borrow().iter().filter(|k| k.ends_with(".gitignore")).cloned().collect();
    gitignores.sort();
    assert_eq!(
        gitignores,
        [".agents/.gitignore", ".agents/skills/.gitignore", ".agents/skills/team/.gitignore", ".gitignore"]
    );

    // An untrusted scope reads nothing, .gitignore included.
    let store = Walking::new(gitignore_tree(), true);
    let reads = store.reads.clone();
    let reg = block_on(SkillRegistry::discover(vec![scope_at(store, &[".agents/skills/"], false)], opts));
    assert!(reads.borrow().is_empty());
    assert!(find(&reg.diagnostics(), "scope-untrusted").unwrap().message.contains("holds 7 skill(s)"));
}

#[test]
fn gitignore_bounds_and_failures() {
    let mut big = "wip/\n".repeat(14_000);
    big.push_str("pdf/\n");
    let files = vec![
        ("s/.gitignore".to_string(), big),
        ("s/pdf/SKILL.md".to_string(), skill_md("pdf")),
        ("s/wip/SKILL.md".to_string(), skill_md("wip")),
    ];
    let opts = DiscoverOptions { respect_gitignore: true, ..DiscoverOptions::default() };
    let reg = block_on(SkillRegistry::discover(vec![scope_at(MemoryStorage::new(files), &["s/"], true)], opts));
    // Only the first 64 KiB count: the rule past them is not read.
    assert_eq!(reg.names(), ["pdf"]);
    let d = reg.diagnostics();
    assert_eq!(find(&d, "gitignore-too-large").unwrap().path.as_deref(), Some("user:s/.gitignore"));
}

#[test]
fn the_directory_cap_counts_directories_at_its_boundary() {
    // Five distinct directories below the root: a, a/b, a/b/c, d, e (files and skipped
    // directories do not count; nor does the root).
    let files = |extra: bool| {
        let mut f = vec![
            ("r/top.md".to_string(), "x".to_string()),
            ("r/a/SKILL.md".to_string(), skill_md("a")),
            ("r/a/one.md".to_string(), "x".to_string()),
            ("r/a/two.md".to_string(), "x".to_string()),
            ("r/a/b/c/SKILL.md".to_string(), skill_md("c")),
            ("r/a/b/c/more.md".to_string(), "x".to_string()),
            ("r/d/SKILL.md".to_string(), skill_md("d")),
            ("r/e/SKILL.md".to_string(), skill_md("e")),
            ("r/node_modules/x/y/SKILL.md".to_string(), skill_md("nm")),
            ("r/.cache/z/SKILL.md".to_string(), skill_md("cache")),
        ];
        if extra {
            f.push(("r/f/SKILL.md".to_string(), skill_md("f")));
        }
        f
    };
    let run = |extra: bool| {
        let opts = DiscoverOptions { max_directories: 5, ..DiscoverOptions::default() };
        block_on(SkillRegistry::discover(vec![scope_at(MemoryStorage::new(files(extra)), &["r/"], true)], opts))
    };
    let at_cap = run(false);
    assert_eq!(at_cap.names(), ["a", "c", "d", "e"]);
    assert!(find(&at_cap.diagnostics(), "scan-directory-cap").is_none(), "five directories fit a cap of five");
    let over = run(true);
    assert_eq!(over.names(), ["a", "c", "d", "e"], "the sixth directory is not scanned");
    let cap = over.diagnostics().into_iter().find(|d| d.code == "scan-directory-cap").expect("cap reported");
    assert!(cap.message.contains("after 5 directories"), "{}", cap.message);
}

#[test]
fn untrusted_scopes_with_skills_warn_and_root_warnings_read_well() {
    let with = MemoryStorage::new([(".agents/skills/a/SKILL.md", skill_md("a"))]);
    let without = MemoryStorage::new([("README.md", "x")]);
    let reg = block_on(SkillRegistry::discover(
        vec![
            ScopeHandle { name: "project".into(), ..scope_at(with, &[".agents/skills/"], false) },
            ScopeHandle { name: "org".into(), ..scope_at(without, &[".agents/skills/"], false) },
        ],
        DiscoverOptions::default(),
    ));
    let d = reg.diagnostics();
    let sev: Vec<_> = d
        .iter()
        .filter(|d| d.code == "scope-untrusted")
        .map(|d| (d.message.contains("'project'"), d.severity))
        .collect();
    assert_eq!(sev, [(true, Severity::Warning), (false, Severity::Info)]);

    for (root, key, want) in [
        ("", "", "listing the store's root in scope 'user': the storage root directory /srv/x does not exist"),
        ("s/", "s/", "listing root \"s/\" in scope 'user': the storage root directory /srv/x does not exist"),
        ("s/", "s/odd", "s/odd: the storage root directory /srv/x does not exist"),
    ] {
        let mut store = Walking::new(Vec::new(), true);
        store.root_warning = Some(key.to_string());
        let reg = block_on(SkillRegistry::discover(vec![scope_at(store, &[root], true)], DiscoverOptions::default()));
        let d = reg.diagnostics();
        let w = find(&d, "storage-skipped").expect("storage-skipped");
        assert_eq!((w.severity, w.message.as_str()), (Severity::Warning, want));
        assert_eq!(w.path.as_deref(), Some(format!("user:{key}").as_str()));
    }
}
