//! Publishing skills as a discovery index: a `skill-md` entry for a skill that is only a SKILL.md,
//! a deterministic `.tar.gz` (the same files always give the same bytes) for a skill with
//! resources, and every digest computed from exactly the bytes served.

use super::SCHEMA_V0_2_0;
use crate::diagnostic::codes;
use crate::net::archive::entries::safe_path;
use crate::net::archive::{inflate, tar};
use crate::net::{digest, url};
use crate::{parse_skill, Diagnostic, ParseOptions};
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;

/// How to publish.
#[derive(Debug, Clone, Default)]
pub struct PublishOptions {
    /// The URL of the index's directory (`https://example.com/.well-known/agent-skills/`); with it
    /// the entries' URLs are absolute, without it relative to the index.
    pub base_url: Option<String>,
}

/// One artifact to serve beside the index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishedArtifact {
    /// Relative to the index's directory (`pdf/SKILL.md`, `forms.tar.gz`).
    pub path: String,
    /// `text/markdown; charset=utf-8` or `application/gzip`.
    pub content_type: String,
    /// `sha256:<hex>` of `bytes`, as the index gives it.
    pub digest: String,
    /// Exactly the bytes to serve.
    #[serde(with = "serde_bytes")]
    pub bytes: Vec<u8>,
}

/// An index and its artifacts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Published {
    /// `index.json`, as UTF-8 JSON text.
    #[serde(with = "serde_bytes")]
    pub index: Vec<u8>,
    /// The artifacts, in the index's order.
    pub artifacts: Vec<PublishedArtifact>,
    /// Skills left out (a SKILL.md that does not parse, an unsafe path) and why.
    pub diagnostics: Vec<Diagnostic>,
}

fn skipped(dir: &str, d: Diagnostic) -> Diagnostic {
    let mut d = d;
    d.path = Some(format!("{dir}/{}", d.path.take().unwrap_or_else(|| "SKILL.md".to_string())));
    d
}

/// Which of `keys` [`publish_well_known`] uses: those below a top-level directory that holds a
/// `SKILL.md`. A caller holding the bytes elsewhere converts only these.
pub fn published_keys<S: AsRef<str>>(keys: &[S]) -> Vec<bool> {
    let skills: std::collections::HashSet<&str> =
        keys.iter().filter_map(|k| k.as_ref().strip_suffix("/SKILL.md")).filter(|d| !d.contains('/')).collect();
    keys.iter().map(|k| k.as_ref().split_once('/').is_some_and(|(dir, _)| skills.contains(dir))).collect()
}

/// The index and artifacts for `files` (`(key, bytes)`; a skill is a top-level directory holding a
/// `SKILL.md`, and every file below that directory is one of its resources). Skills are published
/// in name order.
pub fn publish_well_known(files: &[(String, Vec<u8>)], options: &PublishOptions) -> Published {
    let mut skills: BTreeMap<&str, Vec<(&str, &[u8])>> = BTreeMap::new();
    for (key, bytes) in files {
        if let Some((dir, rest)) = key.split_once('/') {
            skills.entry(dir).or_default().push((rest, bytes.as_slice()));
        }
    }
    let mut diagnostics = Vec::new();
    let mut entries: Vec<(String, serde_json::Value, PublishedArtifact)> = Vec::new();
    for (dir, mut list) in skills {
        let Some(&(_, skill_md)) = list.iter().find(|(p, _)| *p == "SKILL.md") else { continue };
        let opts = ParseOptions { dir_name: Some(dir.to_string()), ..ParseOptions::default() };
        let parsed = parse_skill(skill_md, &opts);
        let Some(skill) = parsed.skill.filter(|_| !parsed.diagnostics.iter().any(Diagnostic::is_error)) else {
            diagnostics.extend(parsed.diagnostics.into_iter().filter(Diagnostic::is_error).map(|d| skipped(dir, d)));
            continue;
        };
        // The index's name is the skill's directory (the RFC): a skill named otherwise is left out.
        if let Some(why) = super::index::entry_name_problem(&skill.name) {
            diagnostics
                .push(skipped(dir, Diagnostic::error(codes::NAME_INVALID, format!("{why}; it is not published"))));
            continue;
        }
        if skill.name != dir {
            let why =
                format!("the skill is named '{}', not '{dir}' like its directory; it is not published", skill.name);
            diagnostics.push(skipped(dir, Diagnostic::error(codes::NAME_DIR_MISMATCH, why)));
            continue;
        }
        if let Some(bad) = list.iter().find_map(|(p, _)| safe_path(p).err()) {
            diagnostics.push(skipped(dir, bad));
            continue;
        }
        crate::sort::sort_by(&mut list, |a, b| a.0.cmp(b.0));
        let artifact = if list.len() == 1 {
            let bytes = skill_md.to_vec();
            PublishedArtifact {
                path: format!("{}/SKILL.md", skill.name),
                content_type: "text/markdown; charset=utf-8".to_string(),
                digest: digest::sha256_digest(&bytes),
                bytes,
            }
        } else {
            let tarball = match tar::write_tar(&list) {
                Ok(t) => t,
                Err(why) => {
                    diagnostics.push(skipped(dir, Diagnostic::error(codes::ARCHIVE_INVALID, why)));
                    continue;
                }
            };
            let bytes = inflate::gzip(&tarball);
            PublishedArtifact {
                path: format!("{}.tar.gz", skill.name),
                content_type: "application/gzip".to_string(),
                digest: digest::sha256_digest(&bytes),
                bytes,
            }
        };
        let href = match options.base_url.as_deref() {
            Some(base) => url::resolve(base, &artifact.path).unwrap_or_else(|| artifact.path.clone()),
            None => artifact.path.clone(),
        };
        let kind = if list.len() == 1 { "skill-md" } else { "archive" };
        let entry = json!({
            "name": skill.name,
            "type": kind,
            "description": skill.description,
            "url": href,
            "digest": artifact.digest,
        });
        entries.push((skill.name.clone(), entry, artifact));
    }
    crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
    let index = json!({
        "$schema": SCHEMA_V0_2_0,
        "skills": entries.iter().map(|(_, e, _)| e.clone()).collect::<Vec<_>>(),
    });
    let mut text = serde_json::to_vec_pretty(&index).unwrap_or_default();
    text.push(b'\n');
    Published { index: text, artifacts: entries.into_iter().map(|(_, _, a)| a).collect(), diagnostics }
}
