//! Store keys for the skills of an MCP server: a skill's key directory is its URI's decoded skill
//! path (`skill://acme/refunds/SKILL.md` is the directory `acme/refunds`), a file's key that
//! directory and the file's path inside the skill. URIs are read by [`super::uri`]'s rules; every
//! key is also a valid store key, so the registry's own rules (and its checks before every store
//! call) apply to MCP skills unchanged.

use super::uri::{format_file_uri, parse_resource_uri, parse_skill_uri, relative_to, skill_name};
use crate::diagnostic::{codes, Diagnostic};
use crate::store::keys::check_key;

/// Where a skill is, from the URI of its `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillRoot {
    /// Its decoded skill path, which is also its directory as a store key (`acme/refunds`).
    pub key_dir: String,
    /// The path's last segment: the skill's name.
    pub name: String,
}

fn not_a_key(uri: &str, e: impl std::fmt::Display) -> Diagnostic {
    let shown: String = uri.chars().take(200).collect();
    Diagnostic::warning(codes::MCP_ENTRY_INVALID, format!("'{shown}' gives no store key: {e}"))
}

/// The skill whose `SKILL.md` is at `uri`, or why `uri` is not a skill's `SKILL.md` URI.
pub fn skill_root(uri: &str) -> Result<SkillRoot, Diagnostic> {
    let path = parse_skill_uri(uri)?;
    check_key(&format!("{path}/SKILL.md")).map_err(|e| not_a_key(uri, e))?;
    Ok(SkillRoot { name: skill_name(&path).to_string(), key_dir: path })
}

/// The key of the file at `file_uri`, which must be inside the skill at `dir` (its skill path).
pub fn file_key(dir: &str, file_uri: &str) -> Result<String, Diagnostic> {
    let path = parse_resource_uri(file_uri)?;
    let rel = relative_to(&path, dir)
        .filter(|r| !r.is_empty())
        .ok_or_else(|| not_a_key(file_uri, format_args!("it is not a file inside the skill {dir}")))?;
    let key = format!("{dir}/{rel}");
    check_key(&key).map_err(|e| not_a_key(file_uri, e))?;
    Ok(key)
}

/// The URI of the file at `key` in the skill at `dir` (its skill path), or `None` when `key` is
/// not inside that skill.
pub fn file_uri(dir: &str, key: &str) -> Option<String> {
    let rel = key.strip_prefix(dir)?.strip_prefix('/')?;
    (!rel.is_empty()).then(|| format_file_uri(dir, rel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_and_files() {
        let r = skill_root("skill://acme/billing/refunds/SKILL.md").unwrap();
        assert_eq!((r.key_dir.as_str(), r.name.as_str()), ("acme/billing/refunds", "refunds"));
        assert_eq!(skill_root("skill://git-workflow/SKILL.md").unwrap().name, "git-workflow");
        for bad in [
            "https://x/SKILL.md",
            "skill://x/README.md",
            "skill:///SKILL.md",
            "skill://a/../b/SKILL.md",
            "skill://a/%2e%2e/SKILL.md",
            "skill://a/SKILL.md?x",
            "skill://SKILL.md",
        ] {
            assert!(skill_root(bad).is_err(), "{bad}");
        }
        assert_eq!(file_key("acme/refunds", "skill://acme/refunds/a/b.md").unwrap(), "acme/refunds/a/b.md");
        assert_eq!(file_key("acme/refunds", "skill://acme/refunds/a%20b.md").unwrap(), "acme/refunds/a b.md");
        for bad in ["skill://acme/other/x.md", "skill://acme/refunds", "skill://acme/refunds/../x", "skill://x"] {
            assert!(file_key("acme/refunds", bad).is_err(), "{bad}");
        }
        assert_eq!(file_uri("acme/refunds", "acme/refunds/a/b.md").as_deref(), Some("skill://acme/refunds/a/b.md"));
        assert_eq!(file_uri("acme/refunds", "acme/refundsx/a.md"), None);
    }
}
