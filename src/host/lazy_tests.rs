//! Scopes listed on first access (`lazy`): discovery does not wait for their stores, the catalog
//! notes them, a refresh leaves them alone, and the first tool call that needs one lists it.

use super::*;
use crate::activate::ToolInput;
use crate::store::{LocalFuture, MemoryStorage, Storage, StorageError};
use futures_executor::block_on;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A store that never answers a call (a remote store that hangs), counting the calls it gets.
#[derive(Default)]
struct Silent {
    calls: Cell<u32>,
}

impl Storage for Silent {
    fn list<'a>(
        &'a self,
        _prefix: &'a str,
        _cursor: Option<&'a str>,
        _limit: u32,
    ) -> LocalFuture<'a, Result<crate::store::ListPage, StorageError>> {
        self.calls.set(self.calls.get() + 1);
        Box::pin(std::future::pending())
    }

    fn read<'a>(&'a self, _key: &'a str, _max: Option<u32>) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        self.calls.set(self.calls.get() + 1);
        Box::pin(std::future::pending())
    }
}

fn memory(name: &str) -> Rc<dyn Storage> {
    let key = format!(".agents/skills/{name}/SKILL.md");
    let text = format!("---\nname: {name}\ndescription: The {name} skill.\n---\nDo {name}.\n");
    Rc::new(MemoryStorage::new([(key, text)]))
}

fn spec(name: &str, storage: Rc<dyn Storage>) -> ScopeSpec {
    ScopeSpec { name: name.into(), storage, roots: None, trusted: Some(true), location: None }
}

fn host(remote: Rc<dyn Storage>, lazy: bool) -> Rc<RefCell<SkillHost>> {
    let config = SkillsConfig::default();
    let scopes = resolve_scopes(&[spec("user", memory("local")), spec("remote", remote)], &config)
        .and_then(|s| s.with_lazy(if lazy { vec!["remote".into()] } else { Vec::new() }))
        .unwrap_or_else(|e| panic!("{e}"));
    // A discovery that waited for the silent store would never finish: `now_or_never` says so.
    let host = futures_util::FutureExt::now_or_never(SkillHost::discover(scopes, config));
    Rc::new(RefCell::new(host.unwrap_or_else(|| panic!("discover() waited for the remote store"))))
}

#[test]
fn a_lazy_scope_whose_store_never_answers_does_not_delay_discovery() {
    let silent = Rc::new(Silent::default());
    let host = host(silent.clone(), true);
    assert_eq!(silent.calls.get(), 0, "discovery made no call to the lazy scope's store");
    let h = host.borrow();
    assert_eq!(h.registry().names(), ["local"]);
    assert_eq!(h.registry().pending_scopes(), ["remote"]);
    let note = h.registry().diagnostics().into_iter().find(|d| d.code == "scope-not-listed");
    assert!(note.is_some_and(|d| d.message.contains("'remote'") && d.severity == crate::Severity::Info));
    let text = h.catalog().text.clone().unwrap_or_default();
    assert!(text.contains("<name>local</name>") && text.contains("scope 'remote' are not listed yet"), "{text}");
    drop(h);
    // A refresh does not wait for it either; an offered skill's activation does not need it.
    assert!(futures_util::FutureExt::now_or_never(SkillHost::refresh_shared(&host)).is_some());
    let tool = SkillTool::new(host.clone());
    let input = ToolInput { name: "local".into(), ..Default::default() };
    let r = futures_util::FutureExt::now_or_never(tool.execute(Ok(input), 0.0));
    assert!(r.is_some_and(|r| !r.is_error));
    assert_eq!(silent.calls.get(), 0);
}

#[test]
fn an_eager_scope_whose_store_never_answers_delays_discovery() {
    // The test above would pass for nothing if discovery never called the store at all.
    let silent = Rc::new(Silent::default());
    let config = SkillsConfig::default();
    let scopes = resolve_scopes(&[spec("user", memory("local")), spec("remote", silent.clone())], &config);
    let scopes = scopes.unwrap_or_else(|e| panic!("{e}"));
    assert!(futures_util::FutureExt::now_or_never(SkillHost::discover(scopes, config)).is_none());
    assert!(silent.calls.get() > 0);
}

#[test]
fn the_first_call_that_needs_a_lazy_scope_lists_it_once() {
    let host = host(memory("far"), true);
    assert_eq!(host.borrow().registry().names(), ["local"]);
    let lists = || host.borrow().registry().stats().list_calls;
    let before = lists();
    let tool = SkillTool::new(host.clone());
    assert!(!tool.catalog().skills.contains(&"far".to_string()));
    let r = block_on(tool.execute(Ok(ToolInput { name: "far".into(), ..Default::default() }), 0.0));
    assert!(!r.is_error, "{}", r.content);
    assert!(r.content.contains("Do far."), "{}", r.content);
    let h = host.borrow();
    assert!(h.registry().pending_scopes().is_empty());
    assert_eq!(h.registry().names(), ["far", "local"]);
    assert!(!h.registry().diagnostics().iter().any(|d| d.code == "scope-not-listed"));
    let text = h.catalog().text.clone().unwrap_or_default();
    assert!(text.contains("<name>far</name>") && !text.contains("not listed yet"), "{text}");
    drop(h);
    assert!(tool.catalog().skills.contains(&"far".to_string()));
    let listed = lists();
    assert!(listed > before);
    // Listed once: a later call for an unknown name lists nothing more.
    let r = block_on(tool.execute(Ok(ToolInput { name: "nope".into(), ..Default::default() }), 0.0));
    assert!(r.is_error);
    assert_eq!(lists(), listed);
    assert!(block_on(SkillHost::list_pending_shared(&host)).is_none());
}

#[test]
fn lazy_names_must_be_scopes() {
    let scopes =
        resolve_scopes(&[spec("user", memory("a"))], &SkillsConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    let e = scopes.with_lazy(vec!["nope".into()]).err().unwrap_or_default();
    assert!(e.contains("lazy scope 'nope'"), "{e}");
}
