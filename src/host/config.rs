//! The host's configuration of its skills, given once: discovery (stores and trust, client, scan
//! bounds), who sees which skill (disabled names, the permission predicate, tiers, compatibility),
//! the catalog (format, locale, budget), the tool (name, limits, scope paths). Everything that
//! shows or serves skills reads it; per-call options may override parts of it.

use crate::activate::{CommandRunner, ToolOptions};
use crate::consent::Approver;
use crate::content::DEFAULT_TOOL_NAME;
use crate::disclose::{ActivationStyle, CatalogFormat, CatalogOptions, Verdict};
use crate::discover::{default_roots, normalize_root, DiscoverOptions, ScopeHandle, SkillMeta};
use crate::store::{keys, Storage};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::rc::Rc;

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// The host's permission check: whether a skill may be shown and used at all. Called once per
/// skill per registry generation. It answers whether the skill is allowed, or why it could not
/// answer (a JS predicate that threw): such a skill is hidden, with a `permitted-failed` warning.
pub type Permitted = Rc<dyn Fn(&SkillMeta) -> Verdict>;

/// The names of the default scopes, in precedence order (the first that has a name wins it).
pub const DEFAULT_SCOPES: [&str; 4] = ["project", "user", "org", "builtin"];

/// One configuration for a host's skills. Every field has a default; the JS options of
/// `SkillRegistry.discover` are this object plus the stores (and `permitted`). It is read from
/// its JSON form by [`SkillsConfig::from_json`] (its `Deserialize` as well).
#[derive(Clone, Serialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct SkillsConfig {
    /// How discovery finds and reads skills (client roots, trust, scan bounds, parse mode).
    #[serde(flatten)]
    pub discover: DiscoverOptions,
    /// Names the host has switched off: hidden from the model and the user.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub disabled: Vec<String>,
    /// The tier of the model; skills whose `min_tier` is higher are hidden.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub model_tier: Option<String>,
    /// Tier names, lowest first (default: lite, standard, pro, ultra).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub tiers: Option<Vec<String>>,
    /// The host's version, checked against `compatibility` values that are version ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub host_version: Option<String>,
    /// The agent the skills are offered to: a skill whose `metadata.agents` lists agents is
    /// offered only to those (catalog, tool, search, `/name`, subagents); a skill without the
    /// list, to every agent. Unset: no per-agent scoping.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub agent: Option<String>,
    /// How the catalog is written (default `xml`).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub format: CatalogFormat,
    /// Show each skill's location in the catalog (default true).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub include_location: bool,
    /// `zh`, `zh-CN` ...: `description_zh` is shown where a skill has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub locale: Option<String>,
    /// The most characters the catalog may take.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub budget_chars: Option<u32>,
    /// The most estimated tokens the catalog may take.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub budget_tokens: Option<u32>,
    /// Names to keep when the budget drops skills, most important first.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub priority: Vec<String>,
    /// Descriptions are not cut below this many characters (default 60).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub min_description_chars: u32,
    /// How the model loads a skill, for the catalog's instructions (default: through the tool).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub activation: ActivationStyle,
    /// Replaces the catalog's built-in instructions.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub instructions: Option<String>,
    /// The skill tool's name (default `view_skill`), in its definition, the catalog's
    /// instructions and the transcript operations run through the tool.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub tool_name: String,
    /// Put the catalog in the tool's description.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub embed_catalog: bool,
    /// Keep the frontmatter in the instructions the tool returns.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub keep_frontmatter: bool,
    /// Files listed in `<skill_resources>` at most (default 50).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub max_resources: u32,
    /// Largest file a `path` call returns, in bytes (default 256 KiB).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub max_file_bytes: u32,
    /// Per scope, the path (or URI) its keys are relative to, as the model is shown it; overrides
    /// the location the scope's store gives.
    #[cfg_attr(feature = "tsify", tsify(optional, type = "Record<string, string>"))]
    pub scope_paths: BTreeMap<String, String>,
    /// When the skill tool searches (takes `query` and any offered skill's name) and the
    /// catalog says how to find the skills it does not list: `auto` (default) when the catalog
    /// cannot list every skill the model is offered or more than `searchAbove` are offered,
    /// `always`, or `never`.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub search: SearchMode,
    /// With `search: "auto"`: search also when the model is offered more than this many skills,
    /// even if the catalog lists them all.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub search_above: Option<u32>,
    /// How long the host's `approve` hook may take to answer, in milliseconds (default 300,000:
    /// a person may be asked); no answer in time refuses.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub approval_timeout_ms: u32,
    /// The host's permission check (a function, so not part of the serialised form).
    #[serde(skip)]
    pub permitted: Option<Permitted>,
    /// The host's runner for the `` !`command` `` preprocessing of bodies (a function, so not
    /// part of the serialised form). None (the default): commands stay as written.
    #[serde(skip)]
    pub commands: Option<CommandRunner>,
    /// The host's consent hook (a function, so not part of the serialised form): asked before a
    /// skill is served with content it has not approved (see [`crate::consent`]). None (the
    /// default): local skills are served as they are; a remote skill's `allowed-tools` count only
    /// once an approval of its content is restored.
    #[serde(skip)]
    pub approve: Option<Approver>,
}

/// The default of [`SkillsConfig::approval_timeout_ms`].
pub const DEFAULT_APPROVAL_TIMEOUT_MS: u32 = 300_000;

/// When the skill tool searches ([`SkillsConfig::search`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    /// When the catalog cannot list every offered skill, or more than `searchAbove` are offered.
    #[default]
    Auto,
    /// Always (the catalog still lists what fits).
    Always,
    /// Never: the tool takes only the names its catalog lists, as without search.
    Never,
}

impl Default for SkillsConfig {
    fn default() -> Self {
        let catalog = CatalogOptions::default();
        let tool = ToolOptions::default();
        SkillsConfig {
            discover: DiscoverOptions::default(),
            disabled: Vec::new(),
            model_tier: None,
            tiers: None,
            host_version: None,
            agent: None,
            format: catalog.format,
            include_location: catalog.include_location,
            locale: None,
            budget_chars: None,
            budget_tokens: None,
            priority: Vec::new(),
            min_description_chars: catalog.min_description_chars,
            activation: catalog.activation,
            instructions: None,
            tool_name: DEFAULT_TOOL_NAME.to_string(),
            embed_catalog: tool.embed_catalog,
            keep_frontmatter: tool.keep_frontmatter,
            max_resources: tool.max_resources,
            max_file_bytes: tool.max_file_bytes,
            scope_paths: BTreeMap::new(),
            search: SearchMode::Auto,
            search_above: None,
            approval_timeout_ms: DEFAULT_APPROVAL_TIMEOUT_MS,
            permitted: None,
            commands: None,
            approve: None,
        }
    }
}

impl std::fmt::Debug for SkillsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plain = serde_json::to_string(self).unwrap_or_default();
        write!(
            f,
            "SkillsConfig({plain}, permitted: {}, commands: {}, approve: {})",
            self.permitted.is_some(),
            self.commands.is_some(),
            self.approve.is_some()
        )
    }
}

impl SkillsConfig {
    /// The catalog's part.
    pub fn catalog_options(&self) -> CatalogOptions {
        CatalogOptions {
            format: self.format,
            include_location: self.include_location,
            locale: self.locale.clone(),
            disabled: self.disabled.clone(),
            model_tier: self.model_tier.clone(),
            tiers: self.tiers.clone(),
            host_version: self.host_version.clone(),
            agent: self.agent.clone(),
            budget_chars: self.budget_chars,
            budget_tokens: self.budget_tokens,
            priority: self.priority.clone(),
            min_description_chars: self.min_description_chars,
            activation: self.activation,
            tool_name: self.tool_name.clone(),
            instructions: self.instructions.clone(),
            scope_paths: self.scope_paths.clone(),
        }
    }

    /// Whether the tool searches, for `offered` skills of which the catalog dropped `dropped`.
    pub fn search_active(&self, offered: usize, dropped: usize) -> bool {
        match self.search {
            SearchMode::Never => false,
            SearchMode::Always => offered > 0,
            SearchMode::Auto => dropped > 0 || self.search_above.is_some_and(|n| offered > n as usize),
        }
    }

    /// The tool's part.
    pub fn tool_options(&self) -> ToolOptions {
        ToolOptions {
            tool_name: self.tool_name.clone(),
            embed_catalog: self.embed_catalog,
            keep_frontmatter: self.keep_frontmatter,
            max_resources: self.max_resources,
            max_file_bytes: self.max_file_bytes,
            scope_paths: self.scope_paths.clone(),
        }
    }

    /// This configuration with the fields `overrides` names replaced (camelCase keys, as in the
    /// serialised form; unknown keys are ignored), and `permitted` replaced when one is given.
    pub fn with_overrides(
        &self,
        overrides: &serde_json::Map<String, serde_json::Value>,
        permitted: Option<Permitted>,
    ) -> Result<SkillsConfig, String> {
        let mut out = self.clone();
        out.read_overrides(overrides).map_err(|e| e.to_string())?;
        out.permitted = permitted.or_else(|| self.permitted.clone());
        out.commands = self.commands.clone();
        out.approve = self.approve.clone();
        super::tool_name::check_tool_name(&out.tool_name).map_err(|e| format!("toolName: {e}"))?;
        Ok(out)
    }

    /// Whether `other` decides visibility as this one does (same filters, same predicate).
    pub fn same_filters(&self, other: &SkillsConfig) -> bool {
        let same_predicate = match (&self.permitted, &other.permitted) {
            (None, None) => true,
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            _ => false,
        };
        same_predicate
            && self.disabled == other.disabled
            && self.model_tier == other.model_tier
            && self.tiers == other.tiers
            && self.host_version == other.host_version
            && self.agent == other.agent
    }
}

/// One scope as the host names it: its store and, where the defaults do not fit, its roots and
/// trust. `location` is where the store is (an absolute directory, or a URI such as
/// `r2://bucket/prefix/`), read once from the store when the scope is configured.
#[derive(Clone)]
pub struct ScopeSpec {
    /// The scope's name (`project`, `user`, `org`, `builtin` or one the host picks).
    pub name: String,
    /// Its store.
    pub storage: Rc<dyn Storage>,
    /// List prefixes to search; default: the store's own ([`Storage::roots`]), else
    /// `.agents/skills/` and `.<client>/skills/`.
    pub roots: Option<Vec<String>>,
    /// Default: true, except for a scope named `project` (trusted only with `trustProject`) and one
    /// whose store is remote ([`Storage::remote`]), untrusted until the host says otherwise.
    pub trusted: Option<bool>,
    /// Where the store's keys are, for the locations the model is shown.
    pub location: Option<String>,
}

/// The scopes discovery searches, and where each one's keys are for the model.
#[derive(Clone)]
pub struct Scopes {
    /// In precedence order.
    pub handles: Vec<ScopeHandle>,
    /// Scope name -> absolute directory or URI: `scopePaths` where the host gives one, else the
    /// store's `location`.
    pub locations: BTreeMap<String, String>,
    /// The scopes listed on first access rather than at discovery (`lazy: true`).
    pub lazy: Vec<String>,
}

impl Scopes {
    /// The scopes with those named in `names` listed on first access; a name that is no scope
    /// here is refused.
    pub fn with_lazy(mut self, names: Vec<String>) -> Result<Scopes, String> {
        if let Some(n) = names.iter().find(|n| !self.handles.iter().any(|h| &h.name == *n)) {
            return Err(format!("lazy scope '{n}' is not among the scopes"));
        }
        self.lazy = names;
        Ok(self)
    }
}

/// The scopes discovery searches, with the defaults applied: roots from the client, trust from
/// `trustProject` for the project scope, locations from `scopePaths` or the stores. Roots are
/// normalised and checked. An empty list, a repeated name or a bad root is refused (a
/// programming error of the host).
pub fn resolve_scopes(specs: &[ScopeSpec], config: &SkillsConfig) -> Result<Scopes, String> {
    if specs.is_empty() {
        return Err("at least one scope is needed (scopes: [...] or project/user/org/builtin)".into());
    }
    super::tool_name::check_tool_name(&config.tool_name).map_err(|e| format!("toolName: {e}"))?;
    let mut out: Vec<ScopeHandle> = Vec::with_capacity(specs.len());
    let mut locations = BTreeMap::new();
    for s in specs {
        if let Some(l) = config.scope_paths.get(&s.name).or(s.location.as_ref()).filter(|l| !l.is_empty()) {
            locations.insert(s.name.clone(), l.clone());
        }
        if out.iter().any(|o| o.name == s.name) {
            return Err(format!("scope '{}' is given twice", s.name));
        }
        // The host's roots, else the ones the store declares (it knows its layout), else the defaults.
        let roots = s
            .roots
            .clone()
            .or_else(|| s.storage.roots())
            .unwrap_or_else(|| default_roots(config.discover.client.as_deref()));
        let roots = roots
            .iter()
            .map(|r| {
                let r = normalize_root(r);
                keys::check_prefix(&r).map(|_| r).map_err(|e| format!("scope '{}': root {e}", s.name))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let trusted =
            s.trusted.unwrap_or(if s.name == "project" { config.discover.trust_project } else { !s.storage.remote() });
        out.push(ScopeHandle { name: s.name.clone(), roots, trusted, storage: s.storage.clone() });
    }
    Ok(Scopes { handles: out, locations, lazy: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStorage;

    fn spec(name: &str) -> ScopeSpec {
        let storage: Rc<dyn Storage> = Rc::new(MemoryStorage::new(Vec::<(String, String)>::new()));
        ScopeSpec { name: name.into(), storage, roots: None, trusted: None, location: None }
    }

    #[test]
    fn scope_defaults_and_trust() {
        let mut config = SkillsConfig::default();
        config.discover.client = Some("myagent".into());
        let user = ScopeSpec { location: Some("/home/me".into()), ..spec("user") };
        let resolved = resolve_scopes(&[spec("project"), user], &config).unwrap();
        assert_eq!(resolved.locations.get("user").map(String::as_str), Some("/home/me"));
        assert!(!resolved.locations.contains_key("project"));
        let scopes = resolved.handles;
        assert_eq!(scopes[0].roots, [".agents/skills/", ".myagent/skills/"]);
        assert_eq!((scopes[0].trusted, scopes[1].trusted), (false, true));
        config.discover.trust_project = true;
        assert!(resolve_scopes(&[spec("project")], &config).unwrap().handles[0].trusted);
        let own = ScopeSpec { roots: Some(vec!["skills".into()]), trusted: Some(false), ..spec("org") };
        config.scope_paths.insert("org".into(), "/srv/org".into());
        let resolved = resolve_scopes(&[ScopeSpec { location: Some("memory:/".into()), ..own }], &config).unwrap();
        assert_eq!(resolved.locations.get("org").map(String::as_str), Some("/srv/org"), "scopePaths win");
        let scopes = resolved.handles;
        assert_eq!((scopes[0].roots.as_slice(), scopes[0].trusted), (["skills/".to_string()].as_slice(), false));
        assert!(resolve_scopes(&[], &config).is_err());
        assert!(resolve_scopes(&[spec("a"), spec("a")], &config).is_err());
        let bad = ScopeSpec { roots: Some(vec!["../x".into()]), ..spec("b") };
        assert!(resolve_scopes(&[bad], &config).err().is_some_and(|e| e.contains("scope 'b': root")));
    }

    #[test]
    fn one_config_projects_and_overrides() {
        let config =
            SkillsConfig { tool_name: "activate_skill".into(), disabled: vec!["x".into()], ..Default::default() };
        assert_eq!(config.catalog_options().tool_name, "activate_skill");
        assert_eq!(config.tool_options().tool_name, "activate_skill");
        assert_eq!(config.catalog_options().disabled, ["x"]);
        let over = serde_json::json!({ "budgetTokens": 10, "format": "json", "unknown": 1 });
        let merged = config.with_overrides(over.as_object().unwrap(), None).unwrap();
        assert_eq!(
            (merged.budget_tokens, merged.format, merged.tool_name.as_str()),
            (Some(10), CatalogFormat::Json, "activate_skill")
        );
        assert!(merged.same_filters(&config));
        let over = serde_json::json!({ "disabled": [] });
        assert!(!config.with_overrides(over.as_object().unwrap(), None).unwrap().same_filters(&config));
        let p: Permitted = Rc::new(|_| Ok(true));
        assert!(!config.with_overrides(&Default::default(), Some(p)).unwrap().same_filters(&config));
        let bad = serde_json::json!({ "maxResources": "many" });
        assert!(config.with_overrides(bad.as_object().unwrap(), None).is_err());
        // The serialised form is flat: discovery options sit beside the others.
        let v = serde_json::to_value(SkillsConfig::default()).unwrap();
        assert!(v.get("trustProject").is_some() && v.get("toolName").is_some() && v.get("permitted").is_none());
    }
}
