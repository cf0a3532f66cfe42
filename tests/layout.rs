//! Stores that know their layout, and scopes whose roots miss it: a store's declared roots are
//! searched when the host names none, and a scope whose roots hold nothing while its store holds
//! SKILL.md files elsewhere is told where they are, for one list call more.

use futures_executor::block_on;
use skillwasm::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use skillwasm::host::{resolve_scopes, ScopeSpec, SkillsConfig};
use skillwasm::store::{ListPage, LocalFuture, MemoryStorage, Storage, StorageError};
use std::rc::Rc;

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n")
}

/// A store whose skills are at its root, and which says so.
struct AtRoot(MemoryStorage);

impl Storage for AtRoot {
    fn list<'a>(&'a self, p: &'a str, c: Option<&'a str>, l: u32) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        self.0.list(p, c, l)
    }
    fn read<'a>(&'a self, k: &'a str, m: Option<u32>) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.0.read(k, m)
    }
    fn roots(&self) -> Option<Vec<String>> {
        Some(vec![String::new()])
    }
}

fn site() -> MemoryStorage {
    MemoryStorage::new([("pdf/SKILL.md", skill_md("pdf")), ("docs/csv/SKILL.md", skill_md("csv"))])
}

fn discover(specs: Vec<ScopeSpec>) -> SkillRegistry {
    let scopes = resolve_scopes(&specs, &SkillsConfig::default()).unwrap();
    block_on(SkillRegistry::discover(scopes.handles, DiscoverOptions::default()))
}

fn spec(storage: Rc<dyn Storage>, roots: Option<Vec<String>>) -> ScopeSpec {
    ScopeSpec { name: "site".into(), storage, roots, trusted: Some(true), location: None }
}

#[test]
fn a_store_that_declares_its_roots_is_searched_there_without_the_host_naming_them() {
    let reg = discover(vec![spec(Rc::new(AtRoot(site())), None)]);
    assert_eq!(reg.names(), ["csv", "pdf"]);
    assert!(reg.diagnostics().is_empty(), "{:?}", reg.diagnostics());
    assert_eq!(reg.stats().list_calls, 1, "one root, one page, no look elsewhere");
    // The host's roots still win over the store's.
    let reg = discover(vec![spec(Rc::new(AtRoot(site())), Some(vec!["docs/".into()]))]);
    assert_eq!(reg.names(), ["csv"]);
}

#[test]
fn roots_that_hold_nothing_while_the_store_holds_skills_elsewhere_say_where_they_are() {
    let reg = discover(vec![spec(Rc::new(site()), None)]);
    assert!(reg.names().is_empty());
    let diags = reg.diagnostics();
    let d = diags.iter().find(|d| d.code == "skills-outside-roots").expect("a diagnostic");
    assert_eq!(d.severity, skillwasm::Severity::Warning);
    assert!(d.message.contains("\"pdf/SKILL.md\"") && d.message.contains("\"docs/csv/SKILL.md\""), "{}", d.message);
    assert!(d.message.contains("roots: [\"\"]"), "{}", d.message);
    // Skills further down are named by the directory above theirs.
    let deep = MemoryStorage::new([("x/skills/a/SKILL.md", skill_md("a")), ("y/b/SKILL.md", skill_md("b"))]);
    let reg = discover(vec![spec(Rc::new(deep), None)]);
    let d = reg.diagnostics().into_iter().find(|d| d.code == "skills-outside-roots").expect("a diagnostic");
    assert!(d.message.contains("roots: [\"x/skills/\", \"y/\"]"), "{}", d.message);
    assert!(d.message.contains("\".agents/skills/\""), "{}", d.message);
    // The default root, then one listing of the store's root.
    assert_eq!(reg.stats().list_calls, 2);
}

#[test]
fn roots_that_find_skills_or_a_store_without_skills_cost_nothing_more() {
    let mut files: Vec<(String, String)> = vec![(".agents/skills/a/SKILL.md".into(), skill_md("a"))];
    files.push(("pdf/SKILL.md".into(), skill_md("pdf")));
    let reg = discover(vec![spec(Rc::new(MemoryStorage::new(files)), None)]);
    assert_eq!((reg.names(), reg.stats().list_calls), (vec!["a".to_string()], 1));
    assert!(reg.diagnostics().is_empty());
    // Nothing anywhere: the look costs its one call and says nothing.
    let empty = MemoryStorage::new([("README.md", "# nothing".to_string()), (".git/x/SKILL.md", skill_md("x"))]);
    let reg = discover(vec![spec(Rc::new(empty), None)]);
    assert!(reg.diagnostics().is_empty(), "{:?}", reg.diagnostics());
    assert_eq!(reg.stats().list_calls, 2);
    // A refresh looks again only while the roots still hold nothing.
    let handle = ScopeHandle {
        name: "s".into(),
        roots: vec!["skills/".into()],
        trusted: true,
        storage: Rc::new(MemoryStorage::new([("skills/a/SKILL.md", skill_md("a"))])),
    };
    let mut reg = block_on(SkillRegistry::discover(vec![handle], DiscoverOptions::default()));
    block_on(reg.refresh());
    assert_eq!(reg.stats().list_calls, 2);
}
