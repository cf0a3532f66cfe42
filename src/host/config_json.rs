//! Reading a [`SkillsConfig`] from its JSON form, field by field. serde's derive would read it
//! with `#[serde(flatten)]` for the discovery part, which buffers every key of the object as
//! serde `Content` before the discovery options are read from the buffer, and would be compiled
//! again in every crate that deserialises a configuration; this reader is one function of this
//! crate. Each value is read by its type's own `Deserialize`, so a value of the wrong type is the
//! same error serde's derive gives (`invalid type: string "many", expected u32`).

use super::config::SkillsConfig;
use serde::de::{DeserializeOwned, Error as _, Unexpected};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// One value as a `T`.
fn read<T: DeserializeOwned>(v: &Value) -> Result<T, serde_json::Error> {
    T::deserialize(v)
}

/// What a value is, for serde's "invalid type" message.
fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

impl SkillsConfig {
    /// The configuration `value` (an object with camelCase keys, the discovery options among the
    /// others) describes: a key that is missing keeps its default, a key it does not know is
    /// ignored, and a value of the wrong type is serde's error for that value. The functions
    /// (`permitted`, `commands`) are not part of the JSON form: they stay unset.
    pub fn from_json(value: &Value) -> Result<SkillsConfig, serde_json::Error> {
        let Value::Object(map) = value else {
            return Err(serde_json::Error::invalid_type(unexpected(value), &"struct SkillsConfig"));
        };
        let mut c = SkillsConfig::default();
        for (key, v) in map {
            let d = &mut c.discover;
            match key.as_str() {
                "client" => d.client = read(v)?,
                "trustProject" => d.trust_project = read(v)?,
                "concurrency" => d.concurrency = read(v)?,
                "prefixBytes" => d.prefix_bytes = read(v)?,
                "maxObjectBytes" => d.max_object_bytes = read(v)?,
                "maxDepth" => d.max_depth = read(v)?,
                "maxDirectories" => d.max_directories = read(v)?,
                "pageSize" => d.page_size = read(v)?,
                "acceptLowercaseSkillMd" => d.accept_lowercase_skill_md = read(v)?,
                "respectGitignore" => d.respect_gitignore = read(v)?,
                "mode" => d.mode = read(v)?,
                "timeoutMs" => d.timeout_ms = read(v)?,
                "disabled" => c.disabled = read(v)?,
                "modelTier" => c.model_tier = read(v)?,
                "tiers" => c.tiers = read(v)?,
                "hostVersion" => c.host_version = read(v)?,
                "agent" => c.agent = read(v)?,
                "format" => c.format = read(v)?,
                "includeLocation" => c.include_location = read(v)?,
                "locale" => c.locale = read(v)?,
                "budgetChars" => c.budget_chars = read(v)?,
                "budgetTokens" => c.budget_tokens = read(v)?,
                "priority" => c.priority = read(v)?,
                "minDescriptionChars" => c.min_description_chars = read(v)?,
                "activation" => c.activation = read(v)?,
                "instructions" => c.instructions = read(v)?,
                "toolName" => c.tool_name = read(v)?,
                "embedCatalog" => c.embed_catalog = read(v)?,
                "keepFrontmatter" => c.keep_frontmatter = read(v)?,
                "maxResources" => c.max_resources = read(v)?,
                "maxFileBytes" => c.max_file_bytes = read(v)?,
                "scopePaths" => c.scope_paths = read(v)?,
                "search" => c.search = read(v)?,
                "searchAbove" => c.search_above = read(v)?,
                _ => {}
            }
        }
        Ok(c)
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
    use crate::disclose::{ActivationStyle, CatalogFormat};
    use crate::discover::DiscoverOptions;
    use crate::host::SearchMode;
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
            permitted: None,
            commands: None,
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
