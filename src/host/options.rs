//! Checks of a host's options that serde's derives cannot make: the keys each options object
//! takes (the configuration flattens its discovery part into it, which rules out
//! `deny_unknown_fields`), and the rule for the tool's name. The key lists are constants that
//! tests hold to the types' serialised forms, so a field added to a type fails them until its key
//! is listed (the lists are not read from serialised values at run time: that compiled each
//! type's `Serialize` into the module for a handful of names).

use super::config::DEFAULT_SCOPES;
use serde_json::{Map, Value};

/// The registry options' keys that are not the configuration's serialised form: the scopes, the
/// host's three functions (the `permitted` predicate, the `commands` runner, the `approve` hook)
/// and the approvals to restore.
pub const REGISTRY_ONLY_KEYS: [&str; 6] = ["scopes", "permitted", "commands", "approve", "approvals", "lock"];

/// The configuration's keys a tool's options also take at their top level: the agent the tool is
/// for (its catalog, enum, search and invocations follow it).
pub const TOOL_CONFIG_KEYS: [&str; 1] = ["agent"];

/// The keys of a scope in `scopes`.
pub const SCOPE_KEYS: [&str; 5] = ["name", "storage", "roots", "trusted", "lazy"];

/// The configuration's keys (camelCase), every field, the optional ones too, in the order of
/// its serialised form (a test holds the list to it).
pub const CONFIG_KEYS: [&str; 37] = [
    "client",
    "trustProject",
    "concurrency",
    "prefixBytes",
    "maxObjectBytes",
    "maxDepth",
    "maxDirectories",
    "pageSize",
    "acceptLowercaseSkillMd",
    "respectGitignore",
    "mode",
    "timeoutMs",
    "vet",
    "vetSeverity",
    "disabled",
    "modelTier",
    "tiers",
    "hostVersion",
    "agent",
    "format",
    "includeLocation",
    "locale",
    "budgetChars",
    "budgetTokens",
    "priority",
    "minDescriptionChars",
    "activation",
    "instructions",
    "toolName",
    "embedCatalog",
    "keepFrontmatter",
    "maxResources",
    "maxFileBytes",
    "scopePaths",
    "search",
    "searchAbove",
    "approvalTimeoutMs",
];

/// The keys of a catalog's options' serialised form (a test holds the list to it).
const CATALOG_OPTION_KEYS: [&str; 16] = [
    "format",
    "includeLocation",
    "locale",
    "disabled",
    "modelTier",
    "tiers",
    "hostVersion",
    "agent",
    "budgetChars",
    "budgetTokens",
    "priority",
    "minDescriptionChars",
    "activation",
    "toolName",
    "instructions",
    "scopePaths",
];

/// The keys of a tool's options' serialised form (a test holds the list to it).
const TOOL_OPTION_KEYS: [&str; 6] =
    ["toolName", "embedCatalog", "keepFrontmatter", "maxResources", "maxFileBytes", "scopePaths"];

fn owned(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| k.to_string()).collect()
}

/// The configuration's keys (camelCase): every field, the optional ones too.
pub fn config_keys() -> Vec<String> {
    owned(&CONFIG_KEYS)
}

/// The keys of `SkillRegistry.discover` and `fromSnapshot` options: the configuration's, the
/// default scopes' stores, `scopes` and `permitted`.
pub fn registry_keys() -> Vec<String> {
    let mut keys = config_keys();
    keys.extend(DEFAULT_SCOPES.iter().chain(REGISTRY_ONLY_KEYS.iter()).map(|k| k.to_string()));
    keys
}

/// The configuration's keys a catalog's options also take: how the tool searches, which the
/// catalog's note on the skills it leaves out follows.
pub const CATALOG_SEARCH_KEYS: [&str; 2] = ["search", "searchAbove"];

/// The keys of a catalog's options (`renderCatalog`, a tool's `catalog`).
pub fn catalog_keys() -> Vec<String> {
    let mut keys = owned(&CATALOG_OPTION_KEYS);
    keys.extend(CATALOG_SEARCH_KEYS.iter().map(|k| k.to_string()));
    keys
}

/// The keys of a tool's own options (`SkillTool` takes these, `catalog` and `permitted`).
pub fn tool_keys() -> Vec<String> {
    let mut keys = owned(&TOOL_OPTION_KEYS);
    keys.extend(TOOL_CONFIG_KEYS.iter().map(|k| k.to_string()));
    keys
}

/// The first key of `map` that is not in `valid`, as the message that names it and lists the
/// valid ones (serde's wording for an unknown field): `(key, message)`.
pub fn unknown_key(map: &Map<String, Value>, valid: &[String]) -> Option<(String, String)> {
    let key = map.keys().find(|k| !valid.iter().any(|v| v == *k))?;
    let listed: Vec<String> = valid.iter().map(|v| format!("`{v}`")).collect();
    Some((key.clone(), format!("unknown field `{key}`, expected one of {}", listed.join(", "))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activate::ToolOptions;
    use crate::disclose::CatalogOptions;
    use crate::discover::DiscoverOptions;
    use crate::host::SkillsConfig;
    use serde::Serialize;

    /// The keys of `value`'s serialised form (an object), in declaration order.
    fn keys_of<T: Serialize>(value: &T) -> Vec<String> {
        match serde_json::to_value(value) {
            Ok(Value::Object(map)) => map.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }

    /// The key lists are the serialised forms' keys, the optional fields' too: a field added to a
    /// type is a key the checks take once it is listed.
    #[test]
    fn key_lists_are_the_serialised_keys() {
        let full = SkillsConfig {
            discover: DiscoverOptions { client: Some(String::new()), ..DiscoverOptions::default() },
            model_tier: Some(String::new()),
            tiers: Some(Vec::new()),
            host_version: Some(String::new()),
            locale: Some(String::new()),
            budget_chars: Some(0),
            budget_tokens: Some(0),
            instructions: Some(String::new()),
            search_above: Some(0),
            agent: Some(String::new()),
            ..SkillsConfig::default()
        };
        assert_eq!(keys_of(&full), config_keys());
        let catalog = CatalogOptions {
            locale: Some(String::new()),
            model_tier: Some(String::new()),
            tiers: Some(Vec::new()),
            host_version: Some(String::new()),
            budget_chars: Some(0),
            budget_tokens: Some(0),
            instructions: Some(String::new()),
            agent: Some(String::new()),
            ..CatalogOptions::default()
        };
        assert_eq!(keys_of(&catalog), owned(&CATALOG_OPTION_KEYS));
        assert_eq!(keys_of(&ToolOptions::default()), owned(&TOOL_OPTION_KEYS));
    }

    /// Fails to compile when a field is added to the configuration: then the optional ones must
    /// be set in `key_lists_are_the_serialised_keys` (a field left `None` is not serialised, so
    /// its key would not be compared).
    #[allow(dead_code)]
    fn every_field_is_listed(c: SkillsConfig, d: DiscoverOptions) {
        let SkillsConfig {
            discover: _,
            disabled: _,
            model_tier: _,
            tiers: _,
            host_version: _,
            format: _,
            include_location: _,
            locale: _,
            budget_chars: _,
            budget_tokens: _,
            priority: _,
            min_description_chars: _,
            activation: _,
            instructions: _,
            tool_name: _,
            embed_catalog: _,
            keep_frontmatter: _,
            max_resources: _,
            max_file_bytes: _,
            scope_paths: _,
            search: _,
            search_above: _,
            permitted: _,
            agent: _,
            commands: _,
            approval_timeout_ms: _,
            approve: _,
        } = c;
        let DiscoverOptions {
            client: _,
            trust_project: _,
            concurrency: _,
            prefix_bytes: _,
            max_object_bytes: _,
            max_depth: _,
            max_directories: _,
            page_size: _,
            accept_lowercase_skill_md: _,
            respect_gitignore: _,
            mode: _,
            timeout_ms: _,
            vet: _,
            vet_severity: _,
        } = d;
    }

    #[test]
    fn key_lists() {
        let keys = config_keys();
        for k in [
            "client",
            "trustProject",
            "timeoutMs",
            "modelTier",
            "budgetTokens",
            "toolName",
            "searchAbove",
            "scopePaths",
        ] {
            assert!(keys.iter().any(|x| x == k), "{k} in {keys:?}");
        }
        assert_eq!(keys.len(), 27 + 14 - 4, "every field but the flattened discover and the three functions: {keys:?}");
        let reg = registry_keys();
        assert!(reg.iter().any(|k| k == "project") && reg.iter().any(|k| k == "scopes"));
        assert!(catalog_keys().iter().any(|k| k == "budgetChars"));
        assert_eq!(
            tool_keys(),
            ["toolName", "embedCatalog", "keepFrontmatter", "maxResources", "maxFileBytes", "scopePaths", "agent"]
        );
        let map: Map<String, Value> = [("dirname".to_string(), Value::Null)].into_iter().collect();
        let (key, message) = unknown_key(&map, &tool_keys()).unwrap();
        assert_eq!(key, "dirname");
        assert!(message.starts_with("unknown field `dirname`, expected one of `toolName`, `embedCatalog`"));
    }
}
