//! The consuming side of the MCP Skills extension: a `skills/list` page or a `skills/get` result,
//! read with bounds into the entries a host retains (the manifest it verifies every read against).
//!
//! Each entry is checked on its own, so a bad entry costs only itself a diagnostic: its `uri` must
//! be a skill's `SKILL.md` ([`super::uri`]'s rules), its frontmatter an object whose `name` is the
//! URI's last directory segment and whose `description` is a string, its `resources` either
//! `"dynamic"` or an array of `{ uri, digest, size }` inside the skill, holding the `SKILL.md`,
//! within 512 files and 16 MiB. Unknown fields are ignored. A skill's store keys are its URI's
//! path (`skill://acme/refunds/SKILL.md` is `acme/refunds/SKILL.md`); the server's identity is
//! the scope the host gives the store, never part of the key.

use super::client_keys::{file_key, skill_root};
use super::uri::check_name;
use super::{MAX_RESOURCES_PER_SKILL, MAX_SKILL_BYTES};
use crate::diagnostic::{codes, Diagnostic};
use crate::net::digest::{is_digest, sha256_digest};
use crate::parse::MAX_FRONTMATTER_BYTES;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Most files one skill may list (the extension's per-skill limit).
pub const MAX_SKILL_FILES: usize = MAX_RESOURCES_PER_SKILL as usize;
/// Most entries one page may hold (a page larger than that is cut, with a diagnostic).
pub const MAX_PAGE_SKILLS: usize = 100_000;

/// One file of a retained manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpFile {
    /// Its resource URI, as the server listed it.
    pub uri: String,
    /// Its store key (the skill's key directory and the file's path in the skill).
    pub key: String,
    /// `sha256:<hex>` of its bytes.
    pub digest: String,
    /// Its length in bytes.
    pub size: u64,
}

/// A skill entry as retained: what every read of the skill is verified against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpSkill {
    /// The URI of its SKILL.md.
    pub uri: String,
    /// The store key of its SKILL.md.
    pub key: String,
    /// Its name (the URI's last directory segment, equal to `frontmatter.name`).
    pub name: String,
    /// The frontmatter the server listed, verbatim.
    pub frontmatter: Map<String, Value>,
    /// Its resources are `"dynamic"`: no digests, nothing to verify but the frontmatter.
    pub dynamic: bool,
    /// Every file the entry lists, the SKILL.md included (empty when dynamic).
    pub files: Vec<McpFile>,
    /// Changes whenever a file's digest or size does (or, when dynamic, the frontmatter).
    pub etag: String,
    /// The listed frontmatter as the first bytes of a SKILL.md (`---`, YAML, `---`): what
    /// discovery reads instead of fetching the file.
    pub head: String,
}

/// A `skills/list` page, read.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpPage {
    /// The usable entries, in the page's order.
    pub skills: Vec<McpSkill>,
    /// Where the next page starts, when the server says more follow.
    pub next_cursor: Option<String>,
    /// What was wrong with the page or its entries (each with the entry's URI as `path`).
    pub diagnostics: Vec<Diagnostic>,
}

/// How entries are taken.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Take entries whose resources are `"dynamic"` (declined by default).
    pub dynamic: bool,
}

fn at(d: Diagnostic, path: Option<&str>) -> Diagnostic {
    Diagnostic { path: path.map(str::to_string), ..d }
}

/// Reads a `skills/list` result. A result that is not an object with a `skills` array gives no
/// entry and one `mcp-result-invalid`; an entry whose URI an earlier one of the page has is
/// skipped (`mcp-entry-duplicate`).
pub fn parse_list_result(result: &Value, opts: &ReadOptions) -> McpPage {
    let mut page = McpPage::default();
    let Some(skills) = result.get("skills").and_then(Value::as_array) else {
        page.diagnostics
            .push(Diagnostic::error(codes::MCP_RESULT_INVALID, "the skills/list result has no skills array"));
        return page;
    };
    page.next_cursor = result.get("nextCursor").and_then(Value::as_str).filter(|c| !c.is_empty()).map(str::to_string);
    if skills.len() > MAX_PAGE_SKILLS {
        page.diagnostics.push(Diagnostic::warning(
            codes::MCP_RESULT_INVALID,
            format!("the page holds {} entries; the first {MAX_PAGE_SKILLS} are read", skills.len()),
        ));
    }
    let mut seen = HashSet::new();
    for (i, entry) in skills.iter().take(MAX_PAGE_SKILLS).enumerate() {
        match parse_entry(entry, opts) {
            Ok(skill) if !seen.insert(skill.uri.clone()) => page.diagnostics.push(at(
                Diagnostic::warning(codes::MCP_ENTRY_DUPLICATE, "an entry with this URI is already listed: skipped"),
                Some(&skill.uri),
            )),
            Ok(skill) => page.skills.push(skill),
            Err(d) => {
                let uri = entry.get("uri").and_then(Value::as_str).map(|u| truncate(u, 200));
                let d = match uri {
                    Some(u) => at(d, Some(&u)),
                    None => Diagnostic { message: format!("entry {i}: {}", d.message), ..d },
                };
                page.diagnostics.push(d);
            }
        }
    }
    page
}

/// Reads a `skills/get` result: the entry, or the diagnostic that refuses it.
pub fn parse_get_result(result: &Value, opts: &ReadOptions) -> Result<McpSkill, Diagnostic> {
    let Some(entry) = result.get("skill").filter(|s| s.is_object()) else {
        return Err(Diagnostic::error(codes::MCP_RESULT_INVALID, "the skills/get result has no skill object"));
    };
    let uri = entry.get("uri").and_then(Value::as_str).map(|u| truncate(u, 200));
    parse_entry(entry, opts).map_err(|d| at(d, uri.as_deref()))
}

fn truncate(s: &str, most: usize) -> String {
    let mut end = s.len().min(most);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or_default().to_string()
}

fn invalid(message: impl Into<String>) -> Diagnostic {
    Diagnostic::warning(codes::MCP_ENTRY_INVALID, message)
}

/// One entry, checked.
pub fn parse_entry(entry: &Value, opts: &ReadOptions) -> Result<McpSkill, Diagnostic> {
    let uri = entry.get("uri").and_then(Value::as_str).ok_or_else(|| invalid("the entry has no uri string"))?;
    let root = skill_root(uri)?;
    let frontmatter = entry
        .get("frontmatter")
        .and_then(Value::as_object)
        .ok_or_else(|| invalid("the entry has no frontmatter object"))?;
    let name =
        frontmatter.get("name").and_then(Value::as_str).ok_or_else(|| invalid("frontmatter.name is not a string"))?;
    check_name(&root.key_dir, name)?;
    if !frontmatter.get("description").is_some_and(Value::is_string) {
        return Err(invalid("frontmatter.description is not a string"));
    }
    let head = render_head(frontmatter)?;
    let key = format!("{}/SKILL.md", root.key_dir);
    let (dynamic, files) = match entry.get("resources") {
        Some(Value::String(s)) if s == "dynamic" => {
            if !opts.dynamic {
                return Err(Diagnostic::info(
                    codes::MCP_SKILL_DYNAMIC,
                    "its resources are \"dynamic\" (no digests to verify): declined without dynamic: true",
                ));
            }
            (true, Vec::new())
        }
        Some(Value::Array(items)) => (false, resources(uri, &root.key_dir, items)?),
        Some(_) => return Err(invalid("resources is neither an array nor \"dynamic\"")),
        None => return Err(invalid("the entry has no resources")),
    };
    let etag = if dynamic { sha256_digest(head.as_bytes()) } else { set_digest(&files) };
    Ok(McpSkill {
        uri: uri.to_string(),
        key,
        name: name.to_string(),
        frontmatter: frontmatter.clone(),
        dynamic,
        files,
        etag,
        head,
    })
}

/// The resources of the skill at `uri` (store directory `dir`), checked and sorted by key.
fn resources(uri: &str, dir: &str, items: &[Value]) -> Result<Vec<McpFile>, Diagnostic> {
    if items.len() > MAX_SKILL_FILES {
        return Err(Diagnostic::warning(
            codes::MCP_SKILL_TOO_LARGE,
            format!("it lists {} files, more than the {MAX_SKILL_FILES} a skill may have", items.len()),
        ));
    }
    let mut files = Vec::with_capacity(items.len());
    let mut total: u64 = 0;
    for (i, item) in items.iter().enumerate() {
        let file_uri =
            item.get("uri").and_then(Value::as_str).ok_or_else(|| invalid(format!("resources[{i}] has no uri")))?;
        let key = file_key(dir, file_uri)
            .map_err(|d| Diagnostic { message: format!("resources[{i}]: {}", d.message), ..d })?;
        let digest = item
            .get("digest")
            .and_then(Value::as_str)
            .filter(|d| is_digest(d))
            .ok_or_else(|| invalid(format!("resources[{i}]: digest is not sha256:<64 lowercase hex>")))?;
        let size = item
            .get("size")
            .and_then(Value::as_u64)
            .ok_or_else(|| invalid(format!("resources[{i}]: size is not a non-negative integer")))?;
        total = total.saturating_add(size);
        files.push(McpFile { uri: file_uri.to_string(), key, digest: digest.to_string(), size });
    }
    if total > MAX_SKILL_BYTES {
        return Err(Diagnostic::warning(
            codes::MCP_SKILL_TOO_LARGE,
            format!("its files are {total} bytes, more than the {MAX_SKILL_BYTES} a skill may have"),
        ));
    }
    crate::sort::sort_by(&mut files, |a, b| a.key.cmp(&b.key));
    if files.windows(2).any(|w| w.first().map(|f| &f.key) == w.get(1).map(|f| &f.key)) {
        return Err(invalid("a file is listed twice"));
    }
    if !files.iter().any(|f| f.uri == uri) {
        return Err(invalid("the resources do not list the SKILL.md itself"));
    }
    Ok(files)
}

/// A digest of the whole resource set: any file's digest or size changing changes it.
fn set_digest(files: &[McpFile]) -> String {
    let mut text = String::with_capacity(files.len() * 100);
    for f in files {
        text.push_str(&f.key);
        text.push(' ');
        text.push_str(&f.digest);
        text.push(' ');
        text.push_str(&f.size.to_string());
        text.push('\n');
    }
    sha256_digest(text.as_bytes())
}

/// The listed frontmatter as a SKILL.md's opening ([`super::client_head`]), within the bound the
/// parser reads.
fn render_head(frontmatter: &Map<String, Value>) -> Result<String, Diagnostic> {
    let head = super::client_head::render(frontmatter);
    if head.len() > MAX_FRONTMATTER_BYTES {
        return Err(invalid(format!(
            "the frontmatter is {} bytes as YAML, more than {MAX_FRONTMATTER_BYTES}",
            head.len()
        )));
    }
    Ok(head)
}

#[cfg(test)]
#[path = "client_tests.rs"]
mod tests;
