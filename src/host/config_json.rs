//! Reading a [`SkillsConfig`] from its JSON form, field by field. serde's derive would read it
//! with `#[serde(flatten)]` for the discovery part, which buffers every key of the object as
//! serde `Content` before the discovery options are read from the buffer, and would be compiled
//! again in every crate that deserialises a configuration; this reader is one function of this
//! crate. Each value is read by the reader of its type (see [`crate::read`]), so a value of the
//! wrong type is the same error serde's derive gives (`invalid type: string "many", expected u32`).

use super::config::{SearchMode, SkillsConfig};
use crate::disclose::{ActivationStyle, CatalogFormat};
use crate::read::{self, variant};
use crate::vet::{Level, VetPolicy};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::{Error, Value};

fn format(v: &Value) -> Result<CatalogFormat, Error> {
    Ok(match variant(v, &["xml", "reference", "json", "markdown"])? {
        0 => CatalogFormat::Xml,
        1 => CatalogFormat::Reference,
        2 => CatalogFormat::Json,
        _ => CatalogFormat::Markdown,
    })
}

fn activation(v: &Value) -> Result<ActivationStyle, Error> {
    Ok(if variant(v, &["tool", "read"])? == 0 { ActivationStyle::Tool } else { ActivationStyle::Read })
}

fn search(v: &Value) -> Result<SearchMode, Error> {
    Ok(match variant(v, &["auto", "always", "never"])? {
        0 => SearchMode::Auto,
        1 => SearchMode::Always,
        _ => SearchMode::Never,
    })
}

fn vet_policy(v: &Value) -> Result<VetPolicy, Error> {
    Ok(match variant(v, &["off", "report", "refuse"])? {
        0 => VetPolicy::Off,
        1 => VetPolicy::Report,
        _ => VetPolicy::Refuse,
    })
}

/// A vetting level named by the caller (`low`, `medium`, `high`).
pub(super) fn vet_level(v: &Value) -> Result<Level, Error> {
    Ok(match variant(v, &["low", "medium", "high"])? {
        0 => Level::Low,
        1 => Level::Medium,
        _ => Level::High,
    })
}

impl SkillsConfig {
    /// The configuration `value` (an object with camelCase keys, the discovery options among the
    /// others) describes: a key that is missing keeps its default, a key it does not know is
    /// ignored, and a value of the wrong type is serde's error for that value. The functions
    /// (`permitted`, `commands`) are not part of the JSON form: they stay unset.
    pub fn from_json(value: &Value) -> Result<SkillsConfig, Error> {
        SkillsConfig::from_json_keyed(value).map_err(|(_, e)| e)
    }

    /// [`SkillsConfig::from_json`], whose error also names the key whose value is wrong (empty
    /// when `value` is no object).
    pub fn from_json_keyed(value: &Value) -> Result<SkillsConfig, (String, Error)> {
        let mut c = SkillsConfig::default();
        read::fields(value, "struct SkillsConfig", |key, v| c.read_key(key, v))?;
        Ok(c)
    }

    /// Sets the fields `overrides` name, as [`SkillsConfig::from_json`] reads them (the others
    /// keep their values).
    pub(crate) fn read_overrides(&mut self, overrides: &serde_json::Map<String, Value>) -> Result<(), Error> {
        for (key, v) in overrides {
            self.read_key(key, v)?;
        }
        Ok(())
    }

    /// Sets the field `key` names from `v`; a key it does not know is ignored (the unknown-key
    /// check is [`super::options::CONFIG_KEYS`]'s).
    fn read_key(&mut self, key: &str, v: &Value) -> Result<(), Error> {
        let c = self;
        match key {
            "client" => c.discover.client = read::opt_string(v)?,
            "trustProject" => c.discover.trust_project = read::bool(v)?,
            "concurrency" => c.discover.concurrency = read::u32(v)?,
            "prefixBytes" => c.discover.prefix_bytes = read::u32(v)?,
            "maxObjectBytes" => c.discover.max_object_bytes = read::u32(v)?,
            "maxDepth" => c.discover.max_depth = read::u32(v)?,
            "maxDirectories" => c.discover.max_directories = read::u32(v)?,
            "pageSize" => c.discover.page_size = read::u32(v)?,
            "acceptLowercaseSkillMd" => c.discover.accept_lowercase_skill_md = read::bool(v)?,
            "respectGitignore" => c.discover.respect_gitignore = read::bool(v)?,
            "mode" => c.discover.mode = read::mode(v)?,
            "timeoutMs" => c.discover.timeout_ms = read::u32(v)?,
            "vet" => c.discover.vet = vet_policy(v)?,
            "vetSeverity" => c.discover.vet_severity = vet_level(v)?,
            "disabled" => c.disabled = read::strings(v)?,
            "modelTier" => c.model_tier = read::opt_string(v)?,
            "tiers" => c.tiers = read::opt_strings(v)?,
            "hostVersion" => c.host_version = read::opt_string(v)?,
            "agent" => c.agent = read::opt_string(v)?,
            "format" => c.format = format(v)?,
            "includeLocation" => c.include_location = read::bool(v)?,
            "locale" => c.locale = read::opt_string(v)?,
            "budgetChars" => c.budget_chars = read::opt_u32(v)?,
            "budgetTokens" => c.budget_tokens = read::opt_u32(v)?,
            "priority" => c.priority = read::strings(v)?,
            "minDescriptionChars" => c.min_description_chars = read::u32(v)?,
            "activation" => c.activation = activation(v)?,
            "instructions" => c.instructions = read::opt_string(v)?,
            "toolName" => c.tool_name = read::string(v)?,
            "embedCatalog" => c.embed_catalog = read::bool(v)?,
            "keepFrontmatter" => c.keep_frontmatter = read::bool(v)?,
            "maxResources" => c.max_resources = read::u32(v)?,
            "maxFileBytes" => c.max_file_bytes = read::u32(v)?,
            "scopePaths" => c.scope_paths = read::string_map(v)?,
            "search" => c.search = search(v)?,
            "searchAbove" => c.search_above = read::opt_u32(v)?,
            "approvalTimeoutMs" => c.approval_timeout_ms = read::u32(v)?,
            _ => {}
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for SkillsConfig {
    /// Reads the JSON form as [`SkillsConfig::from_json`] does (by way of a JSON value).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        SkillsConfig::from_json(&value).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::DiscoverOptions;
    use crate::parse::Mode;

    /// A configuration whose every field differs from its default.
    fn changed() -> SkillsConfig {
        let d = DiscoverOptions::default();
        let c = SkillsConfig::default();
        SkillsConfig {
            discover: DiscoverOptions {
                client: Some("agent".into()),
                trust_project: !d.trust_project,
                concurrency: d.concurrency + 1,
                prefix_bytes: d.prefix_bytes + 1,
                max_object_bytes: d.max_object_bytes + 1,
                max_depth: d.max_depth + 1,
                max_directories: d.max_directories + 1,
                page_size: d.page_size + 1,
                accept_lowercase_skill_md: !d.accept_lowercase_skill_md,
                respect_gitignore: !d.respect_gitignore,
                mode: Mode::Strict,
                timeout_ms: d.timeout_ms + 1,
                vet: crate::vet::VetPolicy::Refuse,
                vet_severity: crate::vet::Level::Medium,
            },
            disabled: vec!["x".into()],
            model_tier: Some("pro".into()),
            tiers: Some(vec!["a".into(), "b".into()]),
            host_version: Some("1.2.3".into()),
            agent: Some("reviewer".into()),
            format: CatalogFormat::Json,
            include_location: !c.include_location,
            locale: Some("zh".into()),
            budget_chars: Some(100),
            budget_tokens: Some(50),
            priority: vec!["p".into()],
            min_description_chars: c.min_description_chars + 1,
            activation: ActivationStyle::Read,
            instructions: Some("use them".into()),
            tool_name: "activate_skill".into(),
            embed_catalog: !c.embed_catalog,
            keep_frontmatter: !c.keep_frontmatter,
            max_resources: c.max_resources + 1,
            max_file_bytes: c.max_file_bytes + 1,
            scope_paths: [("user".to_string(), "/home/me".to_string())].into_iter().collect(),
            search: SearchMode::Never,
            search_above: Some(7),
            approval_timeout_ms: c.approval_timeout_ms + 1,
            permitted: None,
            commands: None,
            approve: None,
        }
    }

    #[test]
    fn reads_every_field_it_writes() {
        let full = serde_json::to_value(changed()).unwrap();
        let back = SkillsConfig::from_json(&full).unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), full, "a key the reader does not take");
        let via_serde: SkillsConfig = serde_json::from_str(&full.to_string()).unwrap();
        assert_eq!(serde_json::to_value(via_serde).unwrap(), full);
        let defaults = SkillsConfig::from_json(&serde_json::json!({ "unknown": [1] })).unwrap();
        assert_eq!(serde_json::to_value(defaults).unwrap(), serde_json::to_value(SkillsConfig::default()).unwrap());
    }

    #[test]
    fn enums_read_as_serde_reads_them() {
        let values = [
            serde_json::json!("strict"),
            serde_json::json!("read"),
            serde_json::json!("never"),
            serde_json::json!("markdown"),
            serde_json::json!("XML"),
            serde_json::json!({ "always": null }),
            serde_json::json!({ "tool": 1 }),
            serde_json::json!(3),
        ];
        for v in values {
            let m =
                |key: &str| SkillsConfig::from_json(&serde_json::json!({ key: v.clone() })).map_err(|e| e.to_string());
            assert_eq!(
                m("mode").map(|c| serde_json::json!(c.discover.mode)),
                Mode::deserialize(&v).map(|x| serde_json::json!(x)).map_err(|e| e.to_string()),
                "{v}"
            );
            assert_eq!(
                m("format").map(|c| serde_json::json!(c.format)),
                CatalogFormat::deserialize(&v).map(|x| serde_json::json!(x)).map_err(|e| e.to_string()),
                "{v}"
            );
            assert_eq!(
                m("activation").map(|c| serde_json::json!(c.activation)),
                ActivationStyle::deserialize(&v).map(|x| serde_json::json!(x)).map_err(|e| e.to_string()),
                "{v}"
            );
            assert_eq!(
                m("search").map(|c| serde_json::json!(c.search)),
                SearchMode::deserialize(&v).map(|x| serde_json::json!(x)).map_err(|e| e.to_string()),
                "{v}"
            );
        }
    }

    #[test]
    fn wrong_types_are_serdes_errors() {
        let cases = [
            (serde_json::json!({ "maxResources": "many" }), r#"invalid type: string "many", expected u32"#),
            (serde_json::json!({ "concurrency": -1 }), "invalid value: integer `-1`, expected u32"),
            (serde_json::json!({ "pageSize": 1.5 }), "invalid type: floating point `1.5`, expected u32"),
            (serde_json::json!({ "disabled": null }), "invalid type: null, expected a sequence"),
            (serde_json::json!({ "mode": "loose" }), "unknown variant `loose`, expected `lenient` or `strict`"),
            (serde_json::json!({ "trustProject": "yes" }), r#"invalid type: string "yes", expected a boolean"#),
            (serde_json::json!([]), "invalid type: sequence, expected struct SkillsConfig"),
        ];
        for (value, message) in cases {
            let e = SkillsConfig::from_json(&value).err().map(|e| e.to_string());
            assert_eq!(e.as_deref(), Some(message), "{value}");
        }
    }
}
