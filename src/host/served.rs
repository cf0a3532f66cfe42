//! What a host serves of its registry to readers outside the tool (the MCP Skills server,
//! publishing a discovery index): the names of the skills the model is offered, and for a skill
//! anyone may use, where its files are and how to read them ([`SkillSource`]). The rule of which
//! skill is served is here, once; the server and the publisher read it through [`ServedSkills`],
//! which the package's second module implements over the core module's registry.

use super::SkillHost;
use crate::discover::{skill_path, RefreshInputs, SkillMeta, QUALIFIER};
use crate::parse::Mode;
use crate::store::{self, CallStats, ListPage, Storage, StorageError};
use std::cell::RefCell;
use std::rc::Rc;

/// A skill a host serves: where its files are and how to read them, taken from the registry so
/// that nothing holds the registry across an await.
#[derive(Clone)]
pub struct SkillSource {
    /// The name it is served as.
    pub name: String,
    /// Its skill path in a server's namespace ([`skill_path`]): `beta/nested` for a skill found at
    /// `beta/nested/` below its root, so that every file has one URI; `user/pdf` for a skill
    /// offered as `user:pdf` (a same-named skill told apart by its scope).
    pub path: String,
    /// The scope it was found in.
    pub scope: String,
    /// The key of its directory (`""` at the store's root).
    pub directory: String,
    /// The scope's store.
    pub storage: Rc<dyn Storage>,
    /// The call counters the reads are counted in.
    pub stats: Rc<CallStats>,
    /// Keys per list call.
    pub page_size: u32,
    /// Largest file read (the registry's `maxObjectBytes`).
    pub max_object_bytes: u32,
    /// How its SKILL.md is parsed.
    pub mode: Mode,
}

impl SkillHost {
    /// The skill served as `name`, when it is offered to the model or the user; None for an
    /// unknown name or a skill the host's filters hide.
    pub fn served_source(&self, name: &str) -> Option<SkillSource> {
        let registry = self.registry();
        let meta = registry.get(name)?;
        let audience = self.view().audience(name);
        if !(audience.model || audience.user) {
            return None;
        }
        let RefreshInputs { scopes, options, stats, .. } = registry.refresh_inputs();
        let scope = scopes.into_iter().find(|s| s.name == meta.scope)?;
        Some(SkillSource {
            name: meta.skill.name.clone(),
            path: served_path(&scope.roots, &meta),
            scope: meta.scope,
            directory: meta.directory,
            storage: scope.storage,
            stats,
            page_size: options.page_size,
            max_object_bytes: options.max_object_bytes,
            mode: options.mode,
        })
    }

    /// The names of the skills the model is offered, sorted (before a catalog budget drops any).
    pub fn offered_names(&self) -> Vec<String> {
        self.view().model_names()
    }

    /// The descriptions of the skills `names` name, in order; None for a name the registry no
    /// longer holds.
    pub fn descriptions(&self, names: &[String]) -> Vec<Option<String>> {
        let registry = self.registry();
        names.iter().map(|n| registry.get(n).map(|m| m.skill.description.clone())).collect()
    }
}

/// Where the skill `meta` describes is served: its [`skill_path`], under its scope's name when it
/// is offered under a qualified name (`user:pdf` is served at `user/pdf`), so that same-named
/// skills have paths of their own.
fn served_path(roots: &[String], meta: &SkillMeta) -> String {
    let name = meta.skill.name.as_str();
    match name.strip_prefix(meta.scope.as_str()).and_then(|rest| rest.strip_prefix(QUALIFIER)) {
        Some(rest) => format!("{}/{rest}", meta.scope),
        None => skill_path(roots, &meta.directory, name),
    }
}

/// What a reader of a registry sees of it: [`SkillHost`]'s served skills, or the same read
/// through another module. Every method may fail when the registry behind it is gone (the
/// message says why); a host held here never fails.
pub trait ServedSkills {
    /// Which content this is: a new number after every discovery, refresh or snapshot load.
    fn generation(&self) -> Result<u64, String>;
    /// [`SkillHost::offered_names`].
    fn offered_names(&self) -> Result<Vec<String>, String>;
    /// [`SkillHost::served_source`].
    fn source(&self, name: &str) -> Result<Option<SkillSource>, String>;
    /// [`SkillHost::descriptions`].
    fn descriptions(&self, names: &[String]) -> Result<Vec<Option<String>>, String>;
}

impl ServedSkills for RefCell<SkillHost> {
    fn generation(&self) -> Result<u64, String> {
        Ok(self.borrow().registry().generation())
    }

    fn offered_names(&self) -> Result<Vec<String>, String> {
        Ok(self.borrow().offered_names())
    }

    fn source(&self, name: &str) -> Result<Option<SkillSource>, String> {
        Ok(self.borrow().served_source(name))
    }

    fn descriptions(&self, names: &[String]) -> Result<Vec<Option<String>>, String> {
        Ok(self.borrow().descriptions(names))
    }
}

impl SkillSource {
    /// One page of the listing of `prefix` from the skill's store, counted in its call counters.
    pub async fn list_page(&self, prefix: &str, cursor: Option<&str>, limit: u32) -> Result<ListPage, StorageError> {
        CallStats::bump(&self.stats.list_calls, 1);
        self.storage.list(prefix, cursor, limit).await
    }

    /// `key` read from the skill's store ([`store::read_checked`]: checked and counted).
    pub async fn read_key(&self, key: &str, max_bytes: Option<u32>) -> Result<Option<Vec<u8>>, StorageError> {
        store::read_checked(&*self.storage, key, max_bytes, &self.stats).await
    }
}
