//! Discovery and the registry over in-memory stores: scopes, precedence, trust, scan bounds,
//! call counts, file reads, refresh, snapshots, and stores that fail.

mod common;

use futures_executor::block_on;
use skillwasm::discover::DiscoverOptions;
use skillwasm::discover::ScopeHandle;
use skillwasm::discover::SkillRegistry;
use skillwasm::store::{ListPage, ListedPage, LocalFuture, MemoryStorage, SkipHint, Storage, StorageError};
use skillwasm::Severity;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

fn skill_md(name: &str, desc: &str) -> String {
    format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n\nDo the thing.\n")
}

fn scope(name: &str, storage: impl Storage + 'static, trusted: bool) -> ScopeHandle {
    ScopeHandle { name: name.into(), roots: vec![".agents/skills/".into()], trusted, storage: Rc::new(storage) }
}

fn codes(diags: &[skillwasm::Diagnostic]) -> Vec<&str> {
    diags.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn precedence_shadowing_nesting_and_skipped_directories() {
    let project = MemoryStorage::new([
        (".agents/skills/pdf/SKILL.md", skill_md("pdf", "Project PDF")),
        (".agents/skills/pdf/references/forms.md", "# Forms".to_string()),
        (".agents/skills/pdf/inner/SKILL.md", skill_md("inner", "Nested one")),
        (".agents/skills/.hidden/SKILL.md", skill_md("hidden", "Dot dir")),
        (".agents/skills/x/node_modules/dep/SKILL.md", skill_md("dep", "In node_modules")),
        (".agents/skills/.git/SKILL.md", skill_md("git", "In .git")),
        ("elsewhere/skills/other/SKILL.md", skill_md("other", "Not under a root")),
    ]);
    let user = MemoryStorage::new([
        (".agents/skills/pdf/SKILL.md", skill_md("pdf", "User PDF")),
        (".agents/skills/csv/SKILL.md", skill_md("csv", "User CSV")),
    ]);
    let reg = block_on(SkillRegistry::discover(
        vec![scope("project", project, true), scope("user", user, true)],
        DiscoverOptions::default(),
    ));
    let names: Vec<_> = reg.list_metas(None).into_iter().map(|m| (m.skill.name.clone(), m.scope)).collect();
    assert_eq!(
        names,
        [
            ("csv".into(), "user".into()),
            ("inner".into(), "project".into()),
            ("pdf".into(), "project".into()),
            // The user's pdf is offered too, under its qualified name.
            ("user:pdf".into(), "user".into())
        ]
    );
    assert_eq!(reg.get("pdf").unwrap().skill.description, "Project PDF");
    // A scope's own listing has its shadowed skills too, flagged.
    let user: Vec<_> =
        reg.list_metas(Some("user")).into_iter().map(|m| (m.skill.name.clone(), m.shadowed_by)).collect();
    assert_eq!(user, [("csv".into(), None), ("pdf".into(), Some("project:.agents/skills/pdf/SKILL.md".into()))]);
    let across = reg.list_metas_across();
    assert_eq!(across.len(), 4);
    let shadowed = across.iter().find(|m| m.scope == "user" && m.skill.name == "pdf").unwrap();
    assert_eq!(shadowed.shadowed_by.as_deref(), Some("project:.agents/skills/pdf/SKILL.md"));
    let diags = reg.diagnostics();
    let shadow = diags.iter().find(|d| d.code == "skill-shadowed").expect("shadowing reported");
    assert!(
        shadow.message.contains("user:.agents/skills/pdf/SKILL.md")
            && shadow.message.contains("project:.agents/skills/pdf/SKILL.md")
    );
    assert!(reg.get("inner").unwrap().diagnostics.iter().any(|d| d.code == "skill-nested"));
    // One list call per scope (a page holds them all), one prefix read per SKILL.md.
    let stats = reg.stats();
    assert_eq!((stats.list_calls, stats.read_calls), (2, 4));
}

#[test]
fn untrusted_project_is_listed_not_read() {
    let project = Faulty::new(MemoryStorage::new([
        (".agents/skills/a/SKILL.md", skill_md("a", "A")),
        (".agents/skills/b/SKILL.md", skill_md("b", "B")),
    ]));
    let counter = project.reads.clone();
    let user = MemoryStorage::new([(".agents/skills/c/SKILL.md", skill_md("c", "C"))]);
    let reg = block_on(SkillRegistry::discover(
        vec![scope("project", project, false), scope("user", user, true)],
        DiscoverOptions::default(),
    ));
    assert_eq!(reg.names(), ["c"]);
    assert_eq!(counter.get(), 0, "no read of an untrusted scope");
    let d = reg.diagnostics().into_iter().find(|d| d.code == "scope-untrusted").unwrap();
    assert!(d.message.contains("holds 2 skill(s)"), "{}", d.message);
}

#[test]
fn client_roots_depth_and_directory_bounds() {
    let mut files: Vec<(String, String)> = vec![
        (".myagent/skills/m/SKILL.md".into(), skill_md("m", "Client root")),
        (".agents/skills/a/b/c/d/e/f/SKILL.md".into(), skill_md("f", "Depth 6")),
        (".agents/skills/a/b/c/d/e/f/g/SKILL.md".into(), skill_md("g", "Depth 7")),
    ];
    let reg = block_on(SkillRegistry::discover(
        vec![ScopeHandle {
            name: "user".into(),
            roots: skillwasm::discover::default_roots(Some("myagent")),
            trusted: true,
            storage: Rc::new(MemoryStorage::new(files.clone())),
        }],
        DiscoverOptions::default(),
    ));
    assert_eq!(reg.names(), ["f", "m"]);
    assert!(codes(&reg.diagnostics()).contains(&"scan-depth-limit"));

    // 2,500 directories: the scan stops at the cap and says so.
    files.clear();
    for i in 0..2500 {
        files.push((format!(".agents/skills/s{i:04}/SKILL.md"), skill_md(&format!("s{i:04}"), "Many")));
    }
    let opts = DiscoverOptions { page_size: 500, ..DiscoverOptions::default() };
    let reg = block_on(SkillRegistry::discover(vec![scope("user", MemoryStorage::new(files), true)], opts));
    assert_eq!(reg.names().len(), 2000);
    assert!(codes(&reg.diagnostics()).contains(&"scan-directory-cap"));
    // 500 keys a page, one directory each: the fifth page brings directory 2,001, and listing stops.
    assert_eq!(reg.stats().list_calls, 5, "listing stops once the cap is hit");
}

#[test]
fn lowercase_skill_md_only_when_asked() {
    let files = [(".agents/skills/low/skill.md", skill_md("low", "Lower"))];
    let reg = block_on(SkillRegistry::discover(
        vec![scope("user", MemoryStorage::new(files.clone()), true)],
        DiscoverOptions::default(),
    ));
    assert!(reg.names().is_empty());
    let opts = DiscoverOptions { accept_lowercase_skill_md: true, ..DiscoverOptions::default() };
    let reg = block_on(SkillRegistry::discover(vec![scope("user", MemoryStorage::new(files), true)], opts));
    assert_eq!(reg.names(), ["low"]);
    assert_eq!(codes(&reg.get("low").unwrap().diagnostics), ["skill-md-lowercase"]);
}

#[test]
fn prefix_reads_and_a_second_read_only_for_long_frontmatter() {
    let long = format!("---\nname: long\ndescription: {}\n---\nbody\n", "x".repeat(900));
    let files = [
        (".agents/skills/long/SKILL.md".to_string(), long),
        (".agents/skills/short/SKILL.md".to_string(), skill_md("short", "S") + &"body line\n".repeat(2000)),
    ];
    let opts = DiscoverOptions { prefix_bytes: 512, ..DiscoverOptions::default() };
    let reg = block_on(SkillRegistry::discover(vec![scope("user", MemoryStorage::new(files), true)], opts));
    assert_eq!(reg.names(), ["long", "short"]);
    let s = reg.stats();
    assert_eq!(s.read_calls, 3, "two prefix reads and one full read");
    assert!(s.bytes_read < 512 * 2 + 1000, "the long body of 'short' was not read: {}", s.bytes_read);
}

#[test]
fn read_file_body_resources_and_refusals() {
    let storage = Faulty::new(MemoryStorage::new([
        (".agents/skills/pdf/SKILL.md", skill_md("pdf", "PDF").into_bytes()),
        (".agents/skills/pdf/references/forms.md", b"# Forms\n".to_vec()),
        (".agents/skills/pdf/assets/logo.png", vec![0x89, b'P', b'N', b'G', 0xff, 0x00]),
        (".agents/skills/secret.txt", b"outside".to_vec()),
    ]));
    let reads = storage.reads.clone();
    let reg = block_on(SkillRegistry::discover(vec![scope("user", storage, true)], DiscoverOptions::default()));
    let body = block_on(reg.read_file("pdf", None));
    assert_eq!(body.text.as_deref(), Some("# pdf\n\nDo the thing."));
    let r = block_on(reg.read_file("pdf", Some("./references//forms.md")));
    assert_eq!((r.path.as_str(), r.text.as_deref()), ("references/forms.md", Some("# Forms\n")));
    let r = block_on(reg.read_file("pdf", Some("assets/logo.png")));
    assert_eq!((r.text.is_none(), r.bytes.as_ref().map(Vec::len), r.size), (true, Some(6), 6));
    let before = reads.get();
    for bad in ["../secret.txt", "/etc/passwd", "references/../../secret.txt", "a\\..\\b"] {
        let r = block_on(reg.read_file("pdf", Some(bad)));
        assert_eq!(r.error.as_ref().map(|d| d.code.as_str()), Some("path-invalid"), "{bad}");
    }
    assert_eq!(reads.get(), before, "refused paths never reach the store");
    let r = block_on(reg.read_file("pdf", Some("missing.md")));
    assert_eq!(r.error.unwrap().code, "file-not-found");
    let r = block_on(reg.read_file("nope", None));
    let e = r.error.unwrap();
    assert_eq!(e.code, "skill-unknown");
    assert!(e.message.contains("pdf"));
}

#[test]
fn refresh_rereads_only_what_changed_and_reports_it() {
    let store = MemoryStorage::new([
        (".agents/skills/a/SKILL.md", skill_md("a", "A")),
        (".agents/skills/b/SKILL.md", skill_md("b", "B")),
        (".agents/skills/c/SKILL.md", skill_md("c", "C")),
    ]);
    let handle = store.clone();
    let mut reg = block_on(SkillRegistry::discover(vec![scope("user", store, true)], DiscoverOptions::default()));
    assert_eq!(reg.stats().read_calls, 3);
    handle.put(".agents/skills/b/SKILL.md", skill_md("b", "B, now better"));
    handle.remove(".agents/skills/c/SKILL.md");
    handle.put(".agents/skills/d/SKILL.md", skill_md("d", "D"));
    let report = block_on(reg.refresh());
    let names = |v: &[skillwasm::discover::SkillRef]| v.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
    assert_eq!(
        (names(&report.added), names(&report.changed), names(&report.removed)),
        (vec!["d".to_string()], vec!["b".to_string()], vec!["c".to_string()])
    );
    assert_eq!(reg.stats().read_calls, 5, "only b and d were read again");
    assert_eq!(reg.get("b").unwrap().skill.description, "B, now better");
    assert_eq!(block_on(reg.refresh()), Default::default());
}

#[test]
fn snapshot_starts_with_no_store_call_and_refresh_finds_it_stale() {
    let store = MemoryStorage::new([
        (".agents/skills/a/SKILL.md", skill_md("a", "A")),
        (".agents/skills/b/SKILL.md", skill_md("b", "B")),
    ]);
    let handle = store.clone();
    let reg = block_on(SkillRegistry::discover(vec![scope("user", store.clone(), true)], DiscoverOptions::default()));
    let bytes = reg.snapshot();
    let faulty = Faulty::new(store);
    let (lists, reads) = (faulty.lists.clone(), faulty.reads.clone());
    let mut cold =
        SkillRegistry::from_snapshot(&bytes, vec![scope("user", faulty, true)], DiscoverOptions::default()).unwrap();
    assert_eq!((lists.get(), reads.get()), (0, 0));
    assert_eq!(cold.list_metas(None), reg.list_metas(None));
    handle.put(".agents/skills/a/SKILL.md", skill_md("a", "A2"));
    let report = block_on(cold.refresh());
    assert_eq!(report.changed.len(), 1);
    assert_eq!(reads.get(), 1);
    // Another configuration, or garbage, is refused with a diagnostic.
    let other = vec![scope("project", MemoryStorage::default(), true)];
    assert_eq!(
        SkillRegistry::from_snapshot(&bytes, other, DiscoverOptions::default()).err().unwrap().code,
        "snapshot-mismatch"
    );
    let e = SkillRegistry::from_snapshot(b"\x00garbage", vec![], DiscoverOptions::default()).err().unwrap();
    assert_eq!(e.code, "snapshot-invalid");
}

#[test]
fn failing_stores_cost_only_what_they_touch() {
    let store = MemoryStorage::new([
        (".agents/skills/good/SKILL.md", skill_md("good", "Good")),
        (".agents/skills/bad/SKILL.md", skill_md("bad", "Bad")),
        (".myagent/skills/x/SKILL.md", skill_md("x", "X")),
    ]);
    let mut faulty = Faulty::new(store);
    *faulty.fail_read.borrow_mut() = Some(".agents/skills/bad/SKILL.md".into());
    faulty.fail_list = Some(".myagent/skills/".into());
    let user = MemoryStorage::new([(".agents/skills/u/SKILL.md", skill_md("u", "U"))]);
    let scopes = vec![
        ScopeHandle {
            name: "project".into(),
            roots: skillwasm::discover::default_roots(Some("myagent")),
            trusted: true,
            storage: Rc::new(faulty),
        },
        scope("user", user, true),
    ];
    let reg = block_on(SkillRegistry::discover(scopes, DiscoverOptions::default()));
    assert_eq!(reg.names(), ["good", "u"]);
    let diags = reg.diagnostics();
    let failed_read = diags.iter().find(|d| d.code == "storage-read-failed").unwrap();
    assert_eq!(failed_read.path.as_deref(), Some("project:.agents/skills/bad/SKILL.md"));
    assert!(diags.iter().any(|d| d.code == "storage-list-failed" && d.severity == Severity::Error));
    // The registry keeps answering.
    assert_eq!(block_on(reg.read_file("good", None)).text.as_deref(), Some("# good\n\nDo the thing."));
}

#[test]
fn a_read_that_failed_is_tried_again_at_the_next_refresh() {
    // Listed the ordinary way, and as lines: a listing found as it was still has a file whose
    // read failed read again.
    for lines in [false, true] {
        a_read_that_failed_is_tried_again(lines);
    }
}

fn a_read_that_failed_is_tried_again(lines: bool) {
    let store = MemoryStorage::new([
        (".agents/skills/good/SKILL.md", skill_md("good", "Good")),
        (".agents/skills/flaky/SKILL.md", skill_md("flaky", "Flaky")),
    ]);
    let faulty = Faulty { lines, ..Faulty::new(store) };
    let (fail, reads) = (faulty.fail_read.clone(), faulty.reads.clone());
    *fail.borrow_mut() = Some(".agents/skills/flaky/SKILL.md".into());
    let mut reg = block_on(SkillRegistry::discover(vec![scope("project", faulty, true)], DiscoverOptions::default()));
    assert_eq!(reg.names(), ["good"]);
    assert!(codes(&reg.diagnostics()).contains(&"storage-read-failed"));
    // Still failing: read again (and only that file), still refused.
    let before = reads.get();
    let report = block_on(reg.refresh());
    assert_eq!(reads.get() - before, 1);
    assert!(report.added.is_empty() && report.changed.is_empty() && report.removed.is_empty());
    assert_eq!(reg.names(), ["good"]);
    // The store answers again: the skill is there, though the file never changed (its record
    // changed: it holds a skill now).
    *fail.borrow_mut() = None;
    let report = block_on(reg.refresh());
    assert_eq!(report.changed.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["flaky"]);
    assert_eq!(reg.names(), ["flaky", "good"]);
    assert!(!codes(&reg.diagnostics()).contains(&"storage-read-failed"));
    // And once read, a refresh reads nothing.
    let before = reads.get();
    block_on(reg.refresh());
    assert_eq!(reads.get(), before);
}

#[test]
fn the_whole_corpus_from_one_store() {
    let Some(shared) = common::shared_dir() else { return };
    let root = shared.join("corpus/skills");
    let store = MemoryStorage::default();
    let mut stack = vec![root.clone()];
    let mut keys = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(bytes) = std::fs::read(&p) {
                let key = format!("skills/{}", p.strip_prefix(&root).unwrap().to_string_lossy());
                store.put(key, bytes);
                keys += 1;
            }
        }
    }
    // SKILL.md files under dot-directories (such as .claude/) are skipped by the rules.
    let files = common::skill_files(&root)
        .iter()
        .filter(|p| {
            !p.strip_prefix(&root).unwrap().components().any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
        })
        .count();
    let scopes = vec![ScopeHandle {
        name: "builtin".into(),
        roots: vec!["skills/".into()],
        trusted: true,
        storage: Rc::new(store),
    }];
    let opts = DiscoverOptions { max_depth: 12, max_directories: 100_000, ..DiscoverOptions::default() };
    let reg = block_on(SkillRegistry::discover(scopes, opts));
    let s = reg.stats();
    let loaded = reg.list_metas_across().len();
    println!(
        "corpus: {keys} keys, {files} SKILL.md, {loaded} loaded, {} visible; {} list calls, {} reads, {} bytes read",
        reg.names().len(),
        s.list_calls,
        s.read_calls,
        s.bytes_read
    );
    assert_eq!(s.list_calls, (keys as u64).div_ceil(1000));
    assert!(
        s.read_calls >= files as u64 && s.read_calls <= files as u64 + 20,
        "{} reads for {files} files",
        s.read_calls
    );
    let mut refused: Vec<_> =
        reg.diagnostics().into_iter().filter(|d| d.severity == Severity::Error).filter_map(|d| d.path).collect();
    refused.dedup();
    assert_eq!(loaded + refused.len(), files, "every SKILL.md is a skill or an error");
    assert!(loaded * 100 >= files * 95);
}

/// A store that counts its calls and fails on demand.
struct Faulty {
    inner: MemoryStorage,
    lists: Rc<Cell<u32>>,
    reads: Rc<Cell<u32>>,
    fail_read: Rc<RefCell<Option<String>>>,
    fail_list: Option<String>,
    /// List as lines, as the inner store does (else the ordinary way only).
    lines: bool,
}

impl Faulty {
    fn new(inner: MemoryStorage) -> Self {
        Faulty {
            inner,
            lists: Rc::default(),
            reads: Rc::default(),
            fail_read: Rc::default(),
            fail_list: None,
            lines: false,
        }
    }
}

impl Storage for Faulty {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        self.lists.set(self.lists.get() + 1);
        if self.fail_list.as_deref() == Some(prefix) {
            return Box::pin(async { Err(StorageError("bucket unavailable".into())) });
        }
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
        if !self.lines || self.fail_list.is_some() {
            return None;
        }
        self.lists.set(self.lists.get() + 1);
        self.inner.list_lines(prefix, cursor, limit, skip, unless_version)
    }
    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.reads.set(self.reads.get() + 1);
        if self.fail_read.borrow().as_deref() == Some(key) {
            return Box::pin(async { Err(StorageError("permission denied".into())) });
        }
        self.inner.read(key, max_bytes)
    }
}
