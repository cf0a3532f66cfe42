//! Reading the options of parsing ([`ParseOptions`]) and of a search ([`SearchOptions`]) from
//! their JSON form, key by key, with the readers of [`crate::read`]: the same values and the same
//! errors as their `Deserialize`, without compiling the derive for each deserialiser.

use crate::activate::InvokeOptions;
use crate::parse::ParseOptions;
use crate::read::{self, fields};
use crate::search::SearchOptions;
use serde::de::Error as _;
use serde_json::{Error, Value};

/// The keys of [`ParseOptions`], as its `Deserialize` names them.
const PARSE_KEYS: &[&str] = &["dirName", "mode", "includeBody", "partial"];

/// [`ParseOptions`] from `value` (an object): a missing key keeps its default, an unknown key is
/// an error, and so is a value of the wrong type; the error names the key.
pub fn parse_options_from_json(value: &Value) -> Result<ParseOptions, (String, Error)> {
    let mut o = ParseOptions::default();
    fields(value, "struct ParseOptions", |key, v| {
        match key {
            "dirName" => o.dir_name = read::opt_string(v)?,
            "mode" => o.mode = read::mode(v)?,
            "includeBody" => o.include_body = read::opt_bool(v)?,
            "partial" => o.partial = read::bool(v)?,
            _ => return Err(Error::unknown_field(key, PARSE_KEYS)),
        }
        Ok(())
    })?;
    Ok(o)
}

/// The keys of [`InvokeOptions`], as its `Deserialize` names them.
const INVOKE_KEYS: &[&str] = &["force"];

/// [`InvokeOptions`] from `value` (an object): a missing key keeps its default, an unknown key
/// is an error, and so is a value of the wrong type; the error names the key.
pub fn invoke_options_from_json(value: &Value) -> Result<InvokeOptions, (String, Error)> {
    let mut o = InvokeOptions::default();
    fields(value, "struct InvokeOptions", |key, v| {
        match key {
            "force" => o.force = read::opt_bool(v)?.unwrap_or_default(),
            _ => return Err(Error::unknown_field(key, INVOKE_KEYS)),
        }
        Ok(())
    })?;
    Ok(o)
}

/// The keys of [`SearchOptions`], as its `Deserialize` names them.
const SEARCH_KEYS: &[&str] = &["limit", "scope"];

/// [`SearchOptions`] from `value` (an object): a missing key keeps its default, an unknown key is
/// an error, and so is a value of the wrong type; the error names the key.
pub fn search_options_from_json(value: &Value) -> Result<SearchOptions, (String, Error)> {
    let mut o = SearchOptions::default();
    fields(value, "struct SearchOptions", |key, v| {
        match key {
            "limit" => o.limit = read::opt_u32(v)?,
            "scope" => o.scope = read::opt_string(v)?,
            _ => return Err(Error::unknown_field(key, SEARCH_KEYS)),
        }
        Ok(())
    })?;
    Ok(o)
}

/// What `snapshot()` is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SnapshotOptions {
    /// Write the registry's approvals into the snapshot too (default false), for a host whose
    /// snapshots are kept where its settings are; `fromSnapshot` takes them only with
    /// `approvals: "snapshot"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub approvals: Option<bool>,
}

/// [`SnapshotOptions`] from `value`, as [`search_options_from_json`] reads its options.
pub fn snapshot_options_from_json(value: &Value) -> Result<SnapshotOptions, (String, Error)> {
    let mut o = SnapshotOptions::default();
    fields(value, "struct SnapshotOptions", |key, v| {
        match key {
            "approvals" => o.approvals = read::opt_bool(v)?,
            _ => return Err(Error::unknown_field(key, &["approvals"])),
        }
        Ok(())
    })?;
    Ok(o)
}

/// What `SkillRegistry#vet(name, options)` is asked for besides the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct VetOptions {
    /// The level from which a finding refuses the skill (default `high`): the report's `refusal`
    /// is then the error `vet: "refuse"` would refuse it with.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub severity: Option<crate::vet::Level>,
}

/// [`VetOptions`] from `value`, as [`search_options_from_json`] reads its options.
pub fn vet_options_from_json(value: &Value) -> Result<VetOptions, (String, Error)> {
    let mut o = VetOptions::default();
    fields(value, "struct VetOptions", |key, v| {
        match key {
            "severity" if v.is_null() => o.severity = None,
            "severity" => o.severity = Some(super::config_json::vet_level(v)?),
            _ => return Err(Error::unknown_field(key, &["severity"])),
        }
        Ok(())
    })?;
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    /// Option objects of every kind: right, wrong in one key, unknown keys, not an object. (An
    /// array, which the derive reads as the fields in order, never reaches these readers: options
    /// are objects.)
    fn cases() -> Vec<Value> {
        vec![
            json!({}),
            json!({ "dirName": "a", "mode": "strict", "includeBody": false, "partial": true }),
            json!({ "dirName": null, "includeBody": null }),
            json!({ "dirName": 3 }),
            json!({ "mode": "loose" }),
            json!({ "mode": null }),
            json!({ "partial": null }),
            json!({ "includeBody": "no" }),
            json!({ "nope": 1, "mode": "x" }),
            json!({ "limit": 5, "scope": "user" }),
            json!({ "limit": -1 }),
            json!({ "limit": 2.5 }),
            json!({ "limit": null, "scope": null }),
            json!({ "scope": ["user"] }),
            json!("x"),
        ]
    }

    #[test]
    fn parse_options_read_as_serde_reads_them() {
        for v in cases() {
            let mine = parse_options_from_json(&v).map_err(|(_, e)| e.to_string());
            let theirs = ParseOptions::deserialize(&v).map_err(|e| e.to_string());
            assert_eq!(mine, theirs, "{v}");
        }
    }

    #[test]
    fn search_options_read_as_serde_reads_them() {
        for v in cases() {
            let mine = search_options_from_json(&v).map_err(|(_, e)| e.to_string());
            let theirs = SearchOptions::deserialize(&v).map_err(|e| e.to_string());
            assert_eq!(mine, theirs, "{v}");
        }
    }

    #[test]
    fn invoke_options_take_force_only() {
        let read = |v: Value| invoke_options_from_json(&v).map(|o| o.force).map_err(|(k, e)| (k, e.to_string()));
        assert_eq!(read(json!({})), Ok(false));
        assert_eq!(read(json!({ "force": true })), Ok(true));
        assert_eq!(read(json!({ "force": null })), Ok(false));
        let (key, e) = read(json!({ "forced": true })).unwrap_err();
        assert_eq!(key, "forced");
        assert!(e.contains("unknown field `forced`"), "{e}");
        assert_eq!(read(json!({ "force": "yes" })).unwrap_err().0, "force");
    }

    #[test]
    fn the_error_names_the_key() {
        let e = parse_options_from_json(&json!({ "mode": "strict", "partial": 1 })).err().map(|(k, _)| k);
        assert_eq!(e.as_deref(), Some("partial"));
        let e = parse_options_from_json(&json!({ "extra": 1 })).err().map(|(k, _)| k);
        assert_eq!(e.as_deref(), Some("extra"));
    }
}
