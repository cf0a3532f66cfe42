//! What discovery and the registry hand out: skill metadata, file reads, refresh reports, options.

use crate::diagnostic::Diagnostic;
use crate::parse::{Mode, Skill};
use serde::{Deserialize, Serialize};
use std::rc::Rc;

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// A skill as the registry knows it: its fields (no body), where it lives, what was found wrong
/// with it, and whether a skill of higher precedence with the same name hides it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SkillMeta {
    #[serde(flatten)]
    /// The skill's fields (without the body), shared with the registry's record of it.
    pub skill: Rc<Skill>,
    /// The scope it was found in (`project`, `user`, `org`, `builtin` or one the host named).
    pub scope: String,
    /// The key of its SKILL.md in the scope's store.
    pub location: String,
    /// Where its SKILL.md is, as the model is shown it: an absolute path when the scope's store
    /// is a directory, a URI naming the store otherwise (`memory:/…`, `r2:/…`, `indexeddb://…`;
    /// `store://<scope>/…` for a store that does not say where it is).
    #[serde(default)]
    pub path: String,
    /// The key of its directory (`""` for a skill at the store's root).
    pub directory: String,
    /// What was found wrong with it (shared with the registry's record of it).
    #[cfg_attr(feature = "tsify", tsify(type = "Diagnostic[]"))]
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// `scope:location` of the skill that hides this one, when one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub shadowed_by: Option<String>,
    /// Its content digest (`sha256:…`, see the pinning guide) when one is known: computed since
    /// the last refresh (`contentDigest`, a lockfile check, an approval) or carried by the
    /// snapshot the registry started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub digest: Option<String>,
}

impl SkillMeta {
    /// Where the SKILL.md is as the model is shown it, with `scope_paths` (scope -> the path its
    /// keys are relative to) overriding the store's location.
    pub fn shown_path(&self, scope_paths: &std::collections::BTreeMap<String, String>) -> String {
        shown_location(scope_paths, &self.scope, &self.location, || self.path.clone())
    }

    /// Where the skill's directory is as the model is shown it (see [`SkillMeta::shown_path`]).
    pub fn shown_directory(&self, scope_paths: &std::collections::BTreeMap<String, String>) -> String {
        let file = self.shown_path(scope_paths);
        let base = file.strip_suffix(self.location.as_str()).unwrap_or(file.as_str());
        join_location(Some(base), &self.scope, &self.directory)
    }
}

/// A file of a skill, as `readFile` returns it: text when it is UTF-8, bytes otherwise, or the
/// reason there is none.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct FileResult {
    /// The skill's name.
    pub name: String,
    /// The skill-relative path (`SKILL.md` for the instructions).
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// The contents, when they are UTF-8 (for SKILL.md, the body without the frontmatter).
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "serde_bytes")]
    #[cfg_attr(feature = "tsify", tsify(optional, type = "Uint8Array"))]
    /// The contents, when they are not UTF-8.
    pub bytes: Option<Vec<u8>>,
    /// Size in bytes of what was read.
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// Why there are no contents, when there are none.
    pub error: Option<Diagnostic>,
}

/// A file's contents: text when it is UTF-8, bytes otherwise (`string | Uint8Array` in JS).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FileContent {
    /// UTF-8 text (for SKILL.md, the body without the frontmatter).
    Text(String),
    /// Anything else.
    Bytes(#[serde(with = "serde_bytes")] Vec<u8>),
}

/// A file of one scope's skill, as `readScopedFile` returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ScopedFile {
    /// The contents.
    #[cfg_attr(feature = "tsify", tsify(type = "string | Uint8Array"))]
    pub content: FileContent,
    /// Where the file is, as the model is shown it (see [`SkillMeta::path`]).
    pub path: String,
}

/// Where the SKILL.md at `location` of `scope` is as the model is shown it: under the scope's entry
/// in `scope_paths` when it has one, else `path` (where its store says it is).
pub(crate) fn shown_location(
    scope_paths: &std::collections::BTreeMap<String, String>,
    scope: &str,
    location: &str,
    path: impl FnOnce() -> String,
) -> String {
    match scope_paths.get(scope) {
        Some(base) => join_location(Some(base), scope, location),
        None => path(),
    }
}

/// Where a key of a scope's store is, as the model is shown it: `base` (an absolute directory or
/// a URI) joined with the key, or `store://<scope>/<key>` without one.
pub fn join_location(base: Option<&str>, scope: &str, key: &str) -> String {
    match base {
        None => format!("store://{scope}/{key}"),
        Some(b) if key.is_empty() => b.to_string(),
        Some(b) if b.ends_with('/') => format!("{b}{key}"),
        Some(b) => format!("{b}/{key}"),
    }
}

/// One skill named in a refresh report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SkillRef {
    /// The skill's name.
    pub name: String,
    /// The scope it is in.
    pub scope: String,
    /// The key of its SKILL.md.
    pub location: String,
}

/// What `refresh()` found changed since the last discovery (or the snapshot it started from).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RefreshReport {
    /// Skills that were not there before.
    pub added: Vec<SkillRef>,
    /// Skills whose SKILL.md changed.
    pub changed: Vec<SkillRef>,
    /// Skills that are gone.
    pub removed: Vec<SkillRef>,
}

/// How discovery scans and reads. Every field has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct DiscoverOptions {
    /// The host's client name: adds `.<client>/skills/` to the default roots.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub client: Option<String>,
    /// Trust the project scope (it is not read otherwise).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub trust_project: bool,
    /// SKILL.md reads in flight at once (default 8).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub concurrency: u32,
    /// Bytes of each SKILL.md read first (default 4096); the rest only when the frontmatter is longer.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub prefix_bytes: u32,
    /// Largest SKILL.md or resource read, in bytes (default 16 MiB). A file listed as larger is
    /// refused before it is read; a read that brings more is refused too.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub max_object_bytes: u32,
    /// Directory levels below a root that are searched (default 6).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub max_depth: u32,
    /// Directories per root after which the scan stops (default 2000).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub max_directories: u32,
    /// Keys per list call (default 1000).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub page_size: u32,
    /// Accept `skill.md` (with a warning) where there is no `SKILL.md`.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub accept_lowercase_skill_md: bool,
    /// Leave out skills that `.gitignore` files ignore: those above each root, at the root, and
    /// in the directories between the root and a skill (default false; trusted scopes only, as
    /// it reads files).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub respect_gitignore: bool,
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// How SKILL.md files are parsed (default lenient).
    pub mode: Mode,
    /// Milliseconds a store call may take before it counts as failed (JS stores; default 10000).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub timeout_ms: u32,
    /// What is done with what vetting finds in the SKILL.md bytes discovery reads (default
    /// `report`: diagnostics; `refuse`: a skill with a finding at or above `vetSeverity` is
    /// refused; `off`). See [`crate::vet`].
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub vet: crate::vet::VetPolicy,
    /// The level from which `vet: "refuse"` refuses a skill (default `high`).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub vet_severity: crate::vet::Level,
}

impl Default for DiscoverOptions {
    fn default() -> Self {
        DiscoverOptions {
            client: None,
            trust_project: false,
            concurrency: 8,
            prefix_bytes: crate::store::PREFIX_BYTES,
            max_object_bytes: crate::store::DEFAULT_MAX_OBJECT_BYTES,
            max_depth: 6,
            max_directories: 2000,
            page_size: 1000,
            accept_lowercase_skill_md: false,
            respect_gitignore: false,
            mode: Mode::Lenient,
            timeout_ms: 10_000,
            vet: crate::vet::VetPolicy::Report,
            vet_severity: crate::vet::Level::High,
        }
    }
}
