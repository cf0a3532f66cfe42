//! The registry, the catalog and the tool at many skills: what large stores must give (the same
//! orderings, nesting, shadowing and refresh reports as small ones, and the same store calls per
//! key), and, ignored by default, a timing table from 1,000 skills up:
//!
//! `cargo test --release --test scale -- --ignored --nocapture` (`SCALE_MAX=20000` for a quicker
//! run; the default largest size is 100,000).

use futures_executor::block_on;
use skillwasm::disclose::CatalogFormat;
use skillwasm::discover::DiscoverOptions;
use skillwasm::host::{resolve_scopes, ScopeSpec, SkillHost, SkillTool, SkillsConfig};
use skillwasm::store::{MemoryStorage, Storage};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The system allocator, counting: bytes live, the most live at once, and allocations made, so
/// that the memory table below can say where the bytes go per skill.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's layout is passed on as it came.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= layout.size() {
            let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const ROOT: &str = ".agents/skills/";

/// The directory of skill `i`: 50 skills per group, every tenth inside the skill before it.
fn directory(i: usize) -> String {
    let group = i / 50;
    if i % 10 == 9 {
        format!("{ROOT}g{group}/s{}/nested/s{i}", i - 1)
    } else {
        format!("{ROOT}g{group}/s{i}")
    }
}

fn skill_md(name: &str, i: usize, edit: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Handles task number {i} of the synthetic set: reads the inputs, checks \
         them against the rules of group {} and writes a short report.{edit}\nlicense: MIT\nallowed-tools: Bash(git:*) \
         Read\nmetadata:\n  author: bench\n  version: \"1.{}\"\n---\n# {name}\n\nStep one. Step two.\n",
        i / 50,
        i % 7
    )
}

/// `n` skills in the user scope (each with a reference file), and a copy of every fifth one in
/// the org scope, which the user scope shadows.
fn stores(n: usize) -> (MemoryStorage, MemoryStorage) {
    let user = MemoryStorage::default();
    let org = MemoryStorage::default();
    for i in 0..n {
        let name = format!("skill-{i:06}");
        let dir = directory(i);
        user.put(format!("{dir}/SKILL.md"), skill_md(&name, i, ""));
        user.put(format!("{dir}/references/notes.md"), format!("# Notes for {name}\n"));
        if i % 5 == 0 {
            org.put(format!("{ROOT}org/{name}/SKILL.md"), skill_md(&name, i, " (org copy)"));
        }
    }
    (user, org)
}

fn config(n: usize) -> SkillsConfig {
    SkillsConfig {
        discover: DiscoverOptions {
            max_directories: (n * 4 + 100) as u32,
            max_depth: 12,
            ..DiscoverOptions::default()
        },
        ..SkillsConfig::default()
    }
}

fn host(user: &MemoryStorage, org: &MemoryStorage, n: usize) -> SkillHost {
    let config = config(n);
    let specs = [("user", user), ("org", org)].map(|(name, s)| ScopeSpec {
        name: name.into(),
        storage: Rc::new(s.clone()) as Rc<dyn Storage>,
        roots: None,
        trusted: Some(true),
        location: None,
    });
    let scopes = resolve_scopes(&specs, &config).expect("scopes");
    block_on(SkillHost::discover(scopes, config))
}

#[test]
fn many_skills_keep_orderings_nesting_shadowing_and_store_calls() {
    let n = 6000;
    let (user, org) = stores(n);
    let mut h = host(&user, &org, n);
    let reg = h.registry();
    let keys = 2 * n; // SKILL.md and one reference per skill
    let stats = reg.stats();
    assert_eq!(stats.list_calls as usize, keys.div_ceil(1000) + (n / 5).div_ceil(1000), "one list call per 1000 keys");
    assert_eq!(stats.read_calls as usize, n + n / 5, "one read per SKILL.md");

    // One skill per name, by name; the org copies are shadowed by the user's, and offered under
    // their qualified names.
    let names: Vec<String> = reg.list_metas(None).into_iter().map(|m| m.skill.name.clone()).collect();
    let qualified = (0..n).step_by(5).map(|i| format!("org:org/skill-{i:06}"));
    assert_eq!(names, qualified.chain((0..n).map(|i| format!("skill-{i:06}"))).collect::<Vec<_>>());
    let org_metas = reg.list_metas(Some("org"));
    assert_eq!(org_metas.len(), n / 5);
    assert!(org_metas.iter().all(|m| m.shadowed_by.as_deref().is_some_and(|s| s.starts_with("user:"))));
    let across = reg.list_metas_across();
    assert!(across[..n].iter().all(|m| m.scope == "user") && across[n..].iter().all(|m| m.scope == "org"));
    // Within a scope: shallower directories first, then keys in order.
    let depth = |l: &str| l.matches('/').count();
    assert!(across[..n]
        .windows(2)
        .all(|w| (depth(&w[0].location), &w[0].location) < (depth(&w[1].location), &w[1].location)));

    // Every tenth skill is inside the one before it, and only those are said to be nested.
    let nested = |h: &SkillHost| -> BTreeSet<String> {
        h.registry().diagnostics().into_iter().filter(|d| d.code == "skill-nested").filter_map(|d| d.path).collect()
    };
    let want: BTreeSet<String> =
        (0..n).filter(|i| i % 10 == 9).map(|i| format!("user:{}/SKILL.md", directory(i))).collect();
    assert_eq!(nested(&h), want);
    let shadowed = reg.diagnostics().iter().filter(|d| d.code == "skill-shadowed").count();
    assert_eq!(shadowed, n / 5);

    // Refresh with nothing changed: one list call per root (each store is still at the version its
    // listing gave, so it answers without listing) and no read; the nesting marks do not pile up.
    let report = block_on(h.refresh());
    assert!(report.added.is_empty() && report.changed.is_empty() && report.removed.is_empty());
    let after = h.registry().stats();
    assert_eq!(after.read_calls, stats.read_calls, "no read");
    assert_eq!(after.list_calls, stats.list_calls + 2, "one call per root");
    let marks = h.registry().diagnostics().iter().filter(|d| d.code == "skill-nested").count();
    assert_eq!(marks, want.len(), "one mark per nested skill after a refresh");

    // One changed, one added, one removed: one read each for the first two.
    let changed = format!("{}/SKILL.md", directory(1234));
    user.put(changed.clone(), skill_md("skill-001234", 1234, " Edited."));
    user.put(format!("{ROOT}new/SKILL.md"), skill_md("brand-new", 1, ""));
    user.remove(&format!("{}/SKILL.md", directory(4320)));
    let report = block_on(h.refresh());
    let refs = |v: &[skillwasm::discover::SkillRef]| v.iter().map(|r| r.location.clone()).collect::<Vec<_>>();
    assert_eq!(refs(&report.changed), [changed]);
    assert_eq!(refs(&report.added), [format!("{ROOT}new/SKILL.md")]);
    assert_eq!(refs(&report.removed), [format!("{}/SKILL.md", directory(4320))]);
    assert_eq!(h.registry().stats().read_calls, after.read_calls + 2);
    // Skill 4320's org copy wins its name now.
    assert_eq!(h.registry().get("skill-004320").map(|m| m.scope), Some("org".into()));

    // The snapshot starts a registry with the same metas and no store call.
    let snap = h.registry().snapshot();
    let (user2, org2) = (user.clone(), org.clone());
    let specs = [("user", &user2), ("org", &org2)].map(|(name, s)| ScopeSpec {
        name: name.into(),
        storage: Rc::new(s.clone()) as Rc<dyn Storage>,
        roots: None,
        trusted: Some(true),
        location: None,
    });
    let config = config(n);
    let scopes = resolve_scopes(&specs, &config).expect("scopes");
    let cold = SkillHost::from_snapshot(&snap, scopes, config).expect("snapshot");
    assert_eq!(cold.registry().list_metas_across(), h.registry().list_metas_across());
    assert_eq!(cold.registry().diagnostics(), h.registry().diagnostics());
    assert_eq!(cold.registry().stats().read_calls + cold.registry().stats().list_calls, 0);

    // An unknown name is answered with a bounded list of names.
    let unknown = block_on(h.registry().read_file("no-such-skill", None));
    let message = unknown.error.map(|d| d.message).unwrap_or_default();
    // (n + 1 names, and the n / 5 - 1 shadowed skills, offered under their qualified names: the
    // org's skill 4320 has its name since the user's was removed.)
    let offered = n + 1 + n / 5 - 1;
    assert!(message.len() < 4000 && message.ends_with(&format!(" and {} more", offered - 100)), "{}", &message[..200]);
    // So is the tool's answer to a name it does not offer.
    let tool = SkillTool::new(Rc::new(RefCell::new(h)));
    let input = skillwasm::activate::ToolInput { name: "no-such-skill".into(), path: None, force: false, query: None };
    let answer = block_on(tool.execute(Ok(input), 0.0));
    assert!(answer.is_error && answer.content.len() < 4000, "{} bytes", answer.content.len());
    assert!(answer.content.contains(&format!(" and {} more", offered - 100)), "{}", &answer.content[..200]);
}

/// A memory store whose listings fail while `down` is set (a store call that timed out).
struct Flaky {
    inner: MemoryStorage,
    down: std::cell::Cell<bool>,
}

impl Storage for Flaky {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> skillwasm::store::LocalFuture<'a, Result<skillwasm::store::ListPage, skillwasm::store::StorageError>> {
        if self.down.get() {
            let e = skillwasm::store::StorageError(format!("list({prefix:?}) did not answer within 10 ms"));
            return Box::pin(async move { Err(e) });
        }
        self.inner.list(prefix, cursor, limit)
    }
    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> skillwasm::store::LocalFuture<'a, Result<Option<Vec<u8>>, skillwasm::store::StorageError>> {
        self.inner.read(key, max_bytes)
    }
}

#[test]
fn a_refresh_whose_listing_fails_keeps_the_skills_and_says_so() {
    let n = 300;
    let (user, _) = stores(n);
    let flaky = Rc::new(Flaky { inner: user, down: std::cell::Cell::new(false) });
    let config = config(n);
    let specs = [ScopeSpec {
        name: "user".into(),
        storage: flaky.clone() as Rc<dyn Storage>,
        roots: None,
        trusted: Some(true),
        location: None,
    }];
    let scopes = resolve_scopes(&specs, &config).expect("scopes");
    let mut h = block_on(SkillHost::discover(scopes, config));
    let before = h.registry().list_metas(None);
    let reads = h.registry().stats().read_calls;
    flaky.down.set(true);
    let report = block_on(h.refresh());
    // Nothing is said removed, nothing is read again, and the failure names what was kept.
    assert!(report.removed.is_empty() && report.added.is_empty() && report.changed.is_empty());
    assert_eq!(h.registry().list_metas(None), before);
    assert_eq!(h.registry().stats().read_calls, reads);
    let failed: Vec<String> =
        h.registry().diagnostics().into_iter().filter(|d| d.code == "storage-list-failed").map(|d| d.message).collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(failed[0].contains(&format!("the {n} skill(s) it held before are kept")), "{}", failed[0]);
    // Once the store answers again, the refresh is as usual (the failure is gone).
    flaky.down.set(false);
    let report = block_on(h.refresh());
    assert!(report.removed.is_empty());
    assert!(h.registry().diagnostics().iter().all(|d| d.code != "storage-list-failed"));
}

fn time<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t = Instant::now();
    let out = f();
    (t.elapsed().as_secs_f64() * 1000.0, out)
}

#[test]
#[ignore = "a timing table, not a test: cargo test --release --test scale -- --ignored --nocapture"]
fn timing_table() {
    let max: usize = std::env::var("SCALE_MAX").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let sizes: Vec<usize> =
        [1_000, 10_000, max].into_iter().filter(|&s| s <= max).collect::<BTreeSet<_>>().into_iter().collect();
    let mut rows: Vec<(&str, Vec<f64>)> = Vec::new();
    let mut put = |name: &'static str, ms: f64| match rows.iter_mut().find(|r| r.0 == name) {
        Some(r) => r.1.push(ms),
        None => rows.push((name, vec![ms])),
    };
    for &n in &sizes {
        let (user, org) = stores(n);
        let (ms, h) = time(|| host(&user, &org, n));
        put("discover", ms);
        let mut h = h;
        put("refresh, nothing changed", time(|| block_on(h.refresh())).0);
        user.put(format!("{}/SKILL.md", directory(n / 2)), skill_md(&format!("skill-{:06}", n / 2), n / 2, " Edited."));
        put("refresh, one changed", time(|| block_on(h.refresh())).0);
        put("list_metas", time(|| h.registry().list_metas(None).len()).0);
        for (label, format) in [
            ("catalog xml, budget", CatalogFormat::Xml),
            ("catalog json, budget", CatalogFormat::Json),
            ("catalog markdown, budget", CatalogFormat::Markdown),
        ] {
            let mut c = config(n);
            c.format = format;
            c.budget_tokens = Some(8000);
            put(label, time(|| h.render_catalog(&c).skills.len()).0);
        }
        let shared = Rc::new(RefCell::new(h));
        put("tool definition", time(|| SkillTool::new(shared.clone()).definition().is_some()).0);
        let h = shared.borrow();
        let (ms, snap) = time(|| h.registry().snapshot());
        put("snapshot", ms);
        let specs = [("user", &user), ("org", &org)].map(|(name, s)| ScopeSpec {
            name: name.into(),
            storage: Rc::new(s.clone()) as Rc<dyn Storage>,
            roots: None,
            trusted: Some(true),
            location: None,
        });
        let scopes = resolve_scopes(&specs, &config(n)).expect("scopes");
        put("from_snapshot", time(|| SkillHost::from_snapshot(&snap, scopes, config(n)).is_ok()).0);
    }
    let head: Vec<String> = sizes.iter().map(|s| format!("{s:>10}")).collect();
    println!("\n{:<28}{}  {:>8}", "ms (native, release)", head.join(""), "ratio");
    for (name, ms) in rows {
        let cells: Vec<String> = ms.iter().map(|m| format!("{m:>10.1}")).collect();
        let ratio = match (ms.first(), ms.last()) {
            (Some(a), Some(b)) if *a > 0.0 => b / a,
            _ => 0.0,
        };
        println!("{name:<28}{}  {ratio:>7.0}x", cells.join(""));
    }
}

/// Live bytes, peak bytes (since the last reset) and allocations, and a reset of the peak.
fn counters() -> (usize, usize, usize) {
    (LIVE.load(Ordering::Relaxed), PEAK.load(Ordering::Relaxed), ALLOCATIONS.load(Ordering::Relaxed))
}

fn reset_peak() {
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
}

#[test]
#[ignore = "a memory table, not a test: cargo test --release --test scale memory_table -- --ignored --nocapture"]
fn memory_table() {
    let n: usize = std::env::var("SCALE_MAX").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let (user, org) = stores(n);
    let specs = |user: &MemoryStorage, org: &MemoryStorage| {
        [("user", user), ("org", org)].map(|(name, s)| ScopeSpec {
            name: name.into(),
            storage: Rc::new(s.clone()) as Rc<dyn Storage>,
            roots: None,
            trusted: Some(true),
            location: None,
        })
    };
    let per = |bytes: usize| bytes as f64 / n as f64;
    println!("\nnative heap at {n} skills (bytes; per skill)");
    let step = |label: &str, start: (usize, usize, usize)| {
        let (live, peak, allocs) = counters();
        println!(
            "{label:<36} live +{:>12} ({:>8.0}/skill)  peak +{:>12} ({:>8.0}/skill)  allocations {:>10} ({:>6.1}/skill)",
            live as isize - start.0 as isize,
            per(live.saturating_sub(start.0)),
            peak - start.0,
            per(peak.saturating_sub(start.0)),
            allocs - start.2,
            per(allocs - start.2),
        );
        reset_peak();
        counters()
    };
    reset_peak();
    let start = counters();
    let config = config(n);
    let scopes = resolve_scopes(&specs(&user, &org), &config).expect("scopes");
    let registry = block_on(skillwasm::discover::SkillRegistry::discover(scopes.handles, config.discover.clone()));
    let after_registry = step("registry (discovery)", start);
    let h = SkillHost::new(registry, config.clone());
    let after_view = step("view", after_registry);
    let metas = h.registry().list_metas(None);
    step("list_metas (held)", after_view);
    drop(metas);
    let before = counters();
    let snap = h.registry().snapshot();
    let after_snap = step("snapshot (held)", before);
    let scopes = resolve_scopes(&specs(&user, &org), &config).expect("scopes");
    let back = SkillHost::from_snapshot(&snap, scopes, config.clone()).expect("snapshot");
    step("from_snapshot (held)", after_snap);
    drop(back);
    drop(snap);
    drop(h);
    step("everything dropped", start);
}
