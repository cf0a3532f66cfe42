//! A refresh ends where a discovery from scratch would: after every kind of edit (a description,
//! a name, a skill broken and mended, a skill added or removed, nested and shadowed ones among
//! them), the refreshed registry answers exactly as a new one over the same stores, whether the
//! stores list as lines (a root found as it was is not read) or the ordinary way.

use futures_executor::block_on;
use skillwasm::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use skillwasm::store::{ListPage, LocalFuture, MemoryStorage, Storage, StorageError};
use std::rc::Rc;

const ROOT: &str = ".agents/skills/";
/// A second root of each scope.
const CLIENT_ROOT: &str = ".claude/skills/";

fn skill_md(name: &str, desc: &str) -> String {
    format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n")
}

/// Skill `i`'s directory: every seventh is nested in the one before, every fifth in the second root.
fn directory(i: usize) -> String {
    if i % 5 == 4 {
        format!("{CLIENT_ROOT}d{i}")
    } else if i % 7 == 6 {
        format!("{ROOT}d{}/inner{i}", i - 1)
    } else {
        format!("{ROOT}d{i}")
    }
}

/// A small deterministic generator (xorshift), so the test needs no dependency.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn scopes(project: &Rc<MemoryStorage>, user: &Rc<MemoryStorage>) -> Vec<ScopeHandle> {
    scopes_listed(project, user, true)
}

/// The scopes over the two stores; `lines`: listed as lines, as a memory store lists, else the
/// ordinary way.
fn scopes_listed(project: &Rc<MemoryStorage>, user: &Rc<MemoryStorage>, lines: bool) -> Vec<ScopeHandle> {
    let scope = |name: &str, storage: &Rc<MemoryStorage>| ScopeHandle {
        name: name.into(),
        roots: vec![ROOT.into(), CLIENT_ROOT.into()],
        trusted: true,
        storage: if lines { storage.clone() } else { Rc::new(Ordinary(storage.as_ref().clone())) },
    };
    vec![scope("project", project), scope("user", user)]
}

/// A memory store that lists only the ordinary way (no lines).
struct Ordinary(MemoryStorage);

impl Storage for Ordinary {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        self.0.list(prefix, cursor, limit)
    }
    fn read<'a>(&'a self, key: &'a str, max: Option<u32>) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.0.read(key, max)
    }
}

/// Everything a host reads of a registry, as one comparable value.
fn answers(reg: &SkillRegistry) -> String {
    let metas = reg.list_metas_across();
    let mut diagnostics: Vec<String> = reg.diagnostics().iter().map(|d| format!("{d:?}")).collect();
    diagnostics.sort();
    format!("{:?}\n{metas:?}\n{diagnostics:?}", reg.names())
}

#[test]
fn every_refresh_answers_as_a_new_discovery_would() {
    for lines in [true, false] {
        every_refresh_answers_as_a_new_discovery(lines);
    }
}

fn every_refresh_answers_as_a_new_discovery(lines: bool) {
    const SKILLS: usize = 40;
    let project = Rc::new(MemoryStorage::default());
    let user = Rc::new(MemoryStorage::default());
    for i in 0..SKILLS {
        project.put(format!("{}/SKILL.md", directory(i)), skill_md(&format!("s{i}"), "First."));
        if i % 4 == 0 {
            user.put(format!("{}/SKILL.md", directory(i)), skill_md(&format!("s{i}"), "User copy."));
        }
    }
    let mut reg = block_on(SkillRegistry::discover(scopes_listed(&project, &user, lines), DiscoverOptions::default()));
    let mut rng = Rng(7);
    let mut kinds = [0usize; 6];
    for round in 0..120 {
        // None to three edits per round, to one file each.
        for _ in 0..rng.below(4) {
            let i = rng.below(SKILLS as u64) as usize;
            let store = if rng.below(4) == 0 { &user } else { &project };
            let key = format!("{}/SKILL.md", directory(i));
            let kind = rng.below(6) as usize;
            kinds[kind] += 1;
            match kind {
                0 => store.put(key, skill_md(&format!("s{i}"), &format!("Edited in round {round}."))),
                // Another skill's name: one shadows the other.
                1 => store.put(key, skill_md(&format!("s{}", rng.below(SKILLS as u64)), "Renamed.")),
                2 => store.put(key, "---\nname: [broken\n"),
                3 => store.remove(&key),
                4 => store.put(key, skill_md(&format!("s{i}"), "First.")),
                _ => store.put(key, skill_md(&format!("fresh{i}"), "A new name.")),
            }
        }
        let report = block_on(reg.refresh());
        let fresh = block_on(SkillRegistry::discover(scopes(&project, &user), DiscoverOptions::default()));
        assert_eq!(answers(&reg), answers(&fresh), "round {round} (lines: {lines}): {report:?}");
        for name in fresh.names() {
            assert_eq!(reg.get(&name).map(|m| m.location), fresh.get(&name).map(|m| m.location), "round {round}");
        }
    }
    assert!(kinds.iter().all(|&k| k > 10), "every kind of edit was made: {kinds:?}");
}

#[test]
fn an_edited_nested_skill_keeps_one_nesting_mark() {
    let project = Rc::new(MemoryStorage::default());
    let user = Rc::new(MemoryStorage::default());
    project.put(format!("{ROOT}outer/SKILL.md"), skill_md("outer", "Outer."));
    project.put(format!("{ROOT}outer/inner/SKILL.md"), skill_md("inner", "Inner."));
    let mut reg = block_on(SkillRegistry::discover(scopes(&project, &user), DiscoverOptions::default()));
    let nested = |reg: &SkillRegistry| reg.diagnostics().iter().filter(|d| d.code == "skill-nested").count();
    assert_eq!(nested(&reg), 1);
    for round in 0..3 {
        project.put(format!("{ROOT}outer/inner/SKILL.md"), skill_md("inner", &format!("Inner, edit {round}.")));
        let report = block_on(reg.refresh());
        assert_eq!(report.changed.len(), 1);
        assert_eq!(nested(&reg), 1, "round {round}");
        assert_eq!(reg.get("inner").unwrap().skill.description, format!("Inner, edit {round}."));
    }
}

#[test]
fn a_refresh_that_ran_alongside_another_is_applied_whole() {
    let project = Rc::new(MemoryStorage::default());
    let user = Rc::new(MemoryStorage::default());
    for i in 0..6 {
        project.put(format!("{}/SKILL.md", directory(i)), skill_md(&format!("s{i}"), "First."));
    }
    let mut reg = block_on(SkillRegistry::discover(scopes(&project, &user), DiscoverOptions::default()));
    // Refresh A lists while s2 is being renamed: the same keys as the records it compares with.
    let inputs_a = reg.refresh_inputs();
    project.put(format!("{}/SKILL.md", directory(2)), skill_md("renamed", "Renamed."));
    let found_a = block_on(inputs_a.discover());
    assert!(found_a.reread.is_some(), "A found the keys it compared with");
    // Refresh B, after a skill was added, installs records of another layout first.
    project.put(format!("{ROOT}added/SKILL.md"), skill_md("added", "Added."));
    block_on(reg.refresh());
    assert!(reg.names().contains(&"added".to_string()));
    // A is applied to records it was not compared with: whole, as a listing of its own.
    let report = reg.apply(found_a);
    drop(inputs_a);
    let mut names = reg.names();
    names.sort();
    assert_eq!(names, ["renamed", "s0", "s1", "s3", "s4", "s5"]);
    assert_eq!(report.removed.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["added"]);
    for name in reg.names() {
        assert_eq!(reg.get(&name).map(|m| m.skill.name.clone()), Some(name.clone()));
    }
    // And the next refresh finds what the stores hold.
    block_on(reg.refresh());
    let fresh = block_on(SkillRegistry::discover(scopes(&project, &user), DiscoverOptions::default()));
    assert_eq!(answers(&reg), answers(&fresh));
}
