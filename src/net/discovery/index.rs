//! Reading a discovery index: v0.2.0 (`$schema`, entries of `type` `skill-md` or `archive` with a
//! digest) and v0.1.0 (no `$schema`, `files` arrays, no digests). Unknown fields are ignored; an
//! unknown `$schema` is reported and the index is not processed; an unknown `type` is skipped; a
//! malformed entry costs only itself a diagnostic.

use super::SCHEMA_V0_2_0;
use crate::diagnostic::codes;
use crate::net::origin::{self, OriginPolicy};
use crate::net::{digest, url};
use crate::parse::validate::name_rules;
use crate::{Diagnostic, Severity};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Most entries one index may hold; the rest are reported and left out.
pub const MAX_INDEX_ENTRIES: usize = 1_000_000;
/// Most files one v0.1.0 entry may list.
pub const MAX_ENTRY_FILES: usize = 512;

/// How a skill of an index is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkillKind {
    /// v0.2.0: the artifact is the SKILL.md itself.
    SkillMd,
    /// v0.2.0: the artifact is a `.tar.gz` or `.zip` with `SKILL.md` at its root.
    Archive,
    /// v0.1.0: each file of `files` is served at `<name>/<path>` beside the index, unverified.
    Files,
}

/// One file of a v0.1.0 entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IndexFile {
    /// Relative to the skill directory.
    pub path: String,
    /// Absolute, resolved against the index URL.
    pub url: String,
}

/// One usable entry of an index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexSkill {
    /// The skill's name (checked against the specification's rules).
    pub name: String,
    /// How it is served.
    #[serde(rename = "type")]
    pub kind: SkillKind,
    /// The index's description.
    pub description: String,
    /// The artifact's absolute URL (v0.1.0: the SKILL.md's).
    pub url: String,
    /// `sha256:<hex>` of the artifact's bytes; `None` for v0.1.0.
    pub digest: Option<String>,
    /// v0.1.0 only: every file of the skill.
    pub files: Vec<IndexFile>,
}

/// What an index says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParsedIndex {
    /// `"0.2.0"` or `"0.1.0"`; `None` when the index was not processed.
    pub version: Option<String>,
    /// The usable entries, in index order.
    pub skills: Vec<IndexSkill>,
    /// What was wrong, entry by entry (`path` is the entry's name or `skills[i]`).
    pub diagnostics: Vec<Diagnostic>,
}

fn at(mut d: Diagnostic, path: String) -> Diagnostic {
    d.path = Some(path);
    d
}

/// Reads the index `bytes` fetched from `index_url` (an absolute URL, against which the entries'
/// URLs resolve). An entry whose URL is on an origin `policy` refuses is skipped with an
/// [`codes::ORIGIN_REFUSED`] warning naming that origin.
pub fn parse_index(bytes: &[u8], index_url: &str, policy: &OriginPolicy) -> ParsedIndex {
    let mut out = ParsedIndex::default();
    let invalid = |message: String| ParsedIndex {
        diagnostics: vec![Diagnostic::error(codes::INDEX_INVALID, message)],
        ..ParsedIndex::default()
    };
    if url::resolve(index_url, "").is_none() {
        return invalid(format!("the index URL '{index_url}' is not absolute"));
    }
    let value = match crate::json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => return invalid(format!("the index at {index_url} is not JSON: {e}")),
    };
    let Some(top) = value.as_object() else {
        return invalid(format!("the index at {index_url} is not a JSON object"));
    };
    let version = match top.get("$schema") {
        None => "0.1.0",
        Some(Value::String(s)) if s == SCHEMA_V0_2_0 => "0.2.0",
        Some(other) => {
            out.diagnostics.push(Diagnostic::warning(
                codes::INDEX_SCHEMA_UNKNOWN,
                format!("the index at {index_url} has the $schema {other}, which this version does not know; it is not processed"),
            ));
            return out;
        }
    };
    let Some(skills) = top.get("skills").and_then(Value::as_array) else {
        return invalid(format!("the index at {index_url} has no `skills` array"));
    };
    if version == "0.1.0" {
        out.diagnostics.push(Diagnostic::warning(
            codes::INDEX_UNVERIFIED,
            format!("the index at {index_url} has no $schema: read as v0.1.0, whose files have no digests to verify"),
        ));
    }
    out.version = Some(version.to_string());
    let mut seen: HashSet<String> = HashSet::with_capacity(skills.len().min(MAX_INDEX_ENTRIES));
    for (i, entry) in skills.iter().enumerate() {
        if i >= MAX_INDEX_ENTRIES {
            out.diagnostics.push(Diagnostic::warning(
                codes::INDEX_ENTRY_INVALID,
                format!(
                    "the index lists {} entries; those after the first {MAX_INDEX_ENTRIES} are left out",
                    skills.len()
                ),
            ));
            break;
        }
        let place = format!("skills[{i}]");
        let Some(obj) = entry.as_object() else {
            out.diagnostics
                .push(at(Diagnostic::warning(codes::INDEX_ENTRY_INVALID, "the entry is not an object"), place));
            continue;
        };
        let read = if version == "0.2.0" { entry_v2(obj, index_url, policy) } else { entry_v1(obj, index_url, policy) };
        match read {
            Ok(skill) => {
                if seen.insert(skill.name.clone()) {
                    out.skills.push(skill);
                } else {
                    out.diagnostics.push(at(
                        Diagnostic::warning(
                            codes::INDEX_ENTRY_DUPLICATE,
                            format!("'{}' is listed again; the first entry is kept", skill.name),
                        ),
                        skill.name,
                    ));
                }
            }
            Err(d) => {
                let path = obj.get("name").and_then(Value::as_str).map_or(place, str::to_string);
                out.diagnostics.push(at(d, path));
            }
        }
    }
    out
}

fn skip_entry(message: String) -> Diagnostic {
    Diagnostic::warning(codes::INDEX_ENTRY_INVALID, message)
}

fn string_field<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<&'a str, Diagnostic> {
    match obj.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(skip_entry(format!("`{key}` is not a string; the entry is skipped"))),
        None => Err(skip_entry(format!("the entry has no `{key}`; it is skipped"))),
    }
}

/// Why `name` cannot name an index entry (the specification's rules, lowercase ASCII as the RFC
/// writes them), or `None` when it can. Readers and publishers apply the same rule.
pub fn entry_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("`name` is empty".to_string());
    }
    if let Some((_, message)) = name_rules(name, None).into_iter().next() {
        return Some(message);
    }
    if !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        return Some(format!("Skill name '{name}' is not lowercase ASCII"));
    }
    None
}

fn name_field(obj: &Map<String, Value>) -> Result<String, Diagnostic> {
    let name = string_field(obj, "name")?;
    match entry_name_problem(name) {
        Some(why) => Err(skip_entry(format!("{why}; the entry is skipped"))),
        None => Ok(name.to_string()),
    }
}

/// `reference` resolved against the index URL, an http(s) URL on an origin `policy` allows.
fn resolved(index_url: &str, reference: &str, policy: &OriginPolicy) -> Result<String, Diagnostic> {
    let u = match url::resolve(index_url, reference) {
        Some(u) if origin::origin(&u).is_some() => u,
        _ => {
            return Err(skip_entry(format!(
                "the URL '{reference}' does not resolve to an http(s) URL; the entry is skipped"
            )))
        }
    };
    match policy.check(&u) {
        Ok(_) => Ok(u),
        Err(mut d) => {
            d.severity = Severity::Warning;
            d.message.push_str("; the entry is skipped");
            Err(d)
        }
    }
}

fn entry_v2(obj: &Map<String, Value>, index_url: &str, policy: &OriginPolicy) -> Result<IndexSkill, Diagnostic> {
    let name = name_field(obj)?;
    let kind = match string_field(obj, "type")? {
        "skill-md" => SkillKind::SkillMd,
        "archive" => SkillKind::Archive,
        other => {
            return Err(Diagnostic::info(
                codes::INDEX_ENTRY_TYPE_UNKNOWN,
                format!("'{name}' is of the type '{other}', which this version does not know; it is skipped"),
            ))
        }
    };
    let description = string_field(obj, "description")?.to_string();
    let url = resolved(index_url, string_field(obj, "url")?, policy)?;
    let digest = string_field(obj, "digest")?;
    if !digest::is_digest(digest) {
        return Err(skip_entry(format!(
            "the digest '{digest}' is not sha256:<64 lowercase hex>; the entry is skipped"
        )));
    }
    Ok(IndexSkill { name, kind, description, url, digest: Some(digest.to_string()), files: Vec::new() })
}

/// Whether a v0.1.0 file path is one the RFC allows: relative, `/`-separated, no `.` or `..`
/// segment, printable ASCII without `\ ? # [ ]`.
fn file_path_ok(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && path.bytes().all(|b| (0x20..=0x7E).contains(&b) && !matches!(b, b'\\' | b'?' | b'#' | b'[' | b']'))
        && path.split('/').all(|s| !s.is_empty() && s != "." && s != "..")
}

fn entry_v1(obj: &Map<String, Value>, index_url: &str, policy: &OriginPolicy) -> Result<IndexSkill, Diagnostic> {
    let name = name_field(obj)?;
    let description = string_field(obj, "description")?.to_string();
    let Some(list) = obj.get("files").and_then(Value::as_array) else {
        return Err(skip_entry("the entry has no `files` array; it is skipped".to_string()));
    };
    if list.len() > MAX_ENTRY_FILES {
        return Err(skip_entry(format!(
            "the entry lists {} files, more than {MAX_ENTRY_FILES}; it is skipped",
            list.len()
        )));
    }
    let mut files = Vec::with_capacity(list.len());
    let mut seen = HashSet::with_capacity(list.len());
    for f in list {
        let path = match f {
            Value::String(s) => s.as_str(),
            Value::Object(o) => string_field(o, "path")?,
            _ => {
                return Err(skip_entry(
                    "a file of `files` is neither a string nor { path }; the entry is skipped".into(),
                ))
            }
        };
        if !file_path_ok(path) {
            return Err(skip_entry(format!(
                "the file path '{path}' is not a safe relative path; the entry is skipped"
            )));
        }
        if seen.insert(path) {
            files.push(IndexFile {
                path: path.to_string(),
                url: resolved(index_url, &format!("{name}/{path}"), policy)?,
            });
        }
    }
    let Some(skill_md) = files.iter().find(|f| f.path == "SKILL.md") else {
        return Err(skip_entry("`files` does not list SKILL.md; the entry is skipped".to_string()));
    };
    let url = skill_md.url.clone();
    Ok(IndexSkill { name, kind: SkillKind::Files, description, url, digest: None, files })
}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
