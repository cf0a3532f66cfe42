//! A skill's content digest from its store: its SKILL.md read first (a network store may fetch
//! the skill's artifact on that read, and list its files only then), its directory listed, every
//! resource read, each file's SHA-256 taken as it arrives (the bytes are not kept), and the
//! digest computed over the paths and file digests ([`super::digest`]). Bounded by the per-skill
//! limits: at most [`MAX_SKILL_FILES`] files and the size cap (`maxObjectBytes`, 16 MiB by
//! default) for the files together; a skill beyond them is refused with a diagnostic before its
//! files are read, where the listing gives their sizes, or as soon as the reads pass the cap.

use super::digest::{file_digest, skill_digest};
use crate::diagnostic::{codes, Diagnostic};
use crate::discover::{resource_paths, SkillSource};
use crate::store;
use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// The most files a skill's digest covers (the MCP Skills extension's per-skill limit).
pub const MAX_SKILL_FILES: usize = 512;

/// A skill's content digest as the registry gives it (`contentDigest(name)`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ContentDigest {
    /// The skill's name.
    pub name: String,
    /// Its scope (absent for an unknown skill).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub scope: Option<String>,
    /// `sha256:<hex>` over its files (see the consent guide); absent when it could not be computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub digest: Option<String>,
    /// How many files it covers (SKILL.md included).
    pub files: u32,
    /// Their bytes together.
    pub size: u64,
    /// Why there is no digest, when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub error: Option<Diagnostic>,
}

fn failed(message: String) -> Diagnostic {
    Diagnostic::error(codes::CONTENT_DIGEST_FAILED, message)
}

/// Reads `key` with at most `left` bytes: its bytes, or why not.
async fn read_within(src: &SkillSource, key: &str, path: &str, left: u64) -> Result<Vec<u8>, Diagnostic> {
    let ask = u32::try_from(left.saturating_add(1)).unwrap_or(u32::MAX);
    match store::read_checked(&*src.storage, key, Some(ask), &src.stats).await {
        Ok(Some(b)) if b.len() as u64 > left => Err(failed(format!(
            "its files hold more than {} bytes, the most a skill's digest covers (reading {path})",
            src.max_bytes
        ))),
        Ok(Some(b)) => Ok(b),
        Ok(None) => Err(failed(format!("{path} is listed but could not be found"))),
        Err(e) => Err(failed(format!("reading {path} failed: {e}"))),
    }
}

/// Computes the content digest of the skill at `src`: `(digest, files, bytes)`, or the
/// diagnostic that says why not.
pub async fn compute(src: &SkillSource) -> Result<(String, u32, u64), Diagnostic> {
    let cap = u64::from(src.max_bytes);
    let skill_md = read_within(src, &src.instructions, "SKILL.md", cap).await?;
    let mut total = skill_md.len() as u64;
    let mut digests = vec![("SKILL.md".to_string(), file_digest(&skill_md))];
    drop(skill_md);
    let prefix = if src.directory.is_empty() { String::new() } else { format!("{}/", src.directory) };
    // Enough keys for the most files with room for hidden ones; a bigger directory is refused.
    let limit = MAX_SKILL_FILES.saturating_mul(8);
    let mut stopped = false;
    let listed = store::list_all(&*src.storage, &prefix, src.page_size, &src.stats, |e| {
        stopped = e.len() > limit;
        stopped
    })
    .await
    .map_err(|e| failed(format!("listing the skill's files failed: {e}")))?;
    if stopped {
        return Err(failed(format!(
            "its directory holds more than {limit} keys; a skill's digest covers at most {MAX_SKILL_FILES} files"
        )));
    }
    let rel: Vec<(&str, &store::ListEntry)> =
        listed.entries.iter().filter_map(|e| e.key.strip_prefix(&prefix).map(|r| (r, e))).collect();
    let paths = resource_paths(rel.iter().map(|(r, _)| *r).collect());
    if paths.len() + 1 > MAX_SKILL_FILES {
        return Err(failed(format!(
            "it has {} files, more than the {MAX_SKILL_FILES} a skill's digest covers",
            paths.len() + 1
        )));
    }
    let wanted: std::collections::HashSet<&str> = paths.iter().copied().collect();
    let listed_size: u64 = rel.iter().filter(|(r, _)| wanted.contains(r)).filter_map(|(_, e)| e.size).sum();
    if total.saturating_add(listed_size) > cap {
        return Err(failed(format!(
            "its files hold {} bytes, more than the {cap} a skill's digest covers",
            total.saturating_add(listed_size)
        )));
    }
    for path in paths {
        let key = format!("{prefix}{path}");
        let bytes = read_within(src, &key, path, cap - total).await?;
        total += bytes.len() as u64;
        digests.push((path.to_string(), file_digest(&bytes)));
    }
    let digest = skill_digest(digests.iter().map(|(p, d)| (p.as_str(), d.as_str()))).map_err(failed)?;
    Ok((digest, digests.len() as u32, total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{CallStats, MemoryStorage, Storage};
    use futures_executor::block_on;
    use std::rc::Rc;

    fn source(files: &[(&str, &str)], max_bytes: u32) -> SkillSource {
        let storage: Rc<dyn Storage> =
            Rc::new(MemoryStorage::new(files.iter().map(|(k, v)| (k.to_string(), v.to_string()))));
        SkillSource {
            scope: "user".into(),
            directory: "skills/hello".into(),
            instructions: "skills/hello/SKILL.md".into(),
            storage,
            stats: Rc::new(CallStats::default()),
            page_size: 2,
            max_bytes,
        }
    }

    const SKILL: &str = "---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n";

    #[test]
    fn the_store_gives_the_documented_digest() {
        let src = source(
            &[
                ("skills/hello/SKILL.md", SKILL),
                ("skills/hello/scripts/hello.sh", "echo hello\n"),
                // Not the skill's content: hidden files, a nested skill, a sibling.
                ("skills/hello/.DS_Store", "x"),
                ("skills/hello/inner/SKILL.md", "---\nname: inner\ndescription: x\n---\n"),
                ("skills/hello/inner/x.md", "x"),
                ("skills/hello2/SKILL.md", "x"),
            ],
            16 << 20,
        );
        let (digest, files, size) = block_on(compute(&src)).unwrap();
        assert_eq!(digest, "sha256:475219899a0c0943ffa17216644f00f7a0c1c979c5d41fcd8d2a829c969b954d");
        assert_eq!((files, size), (2, (SKILL.len() + 11) as u64));
    }

    #[test]
    fn limits_refuse_with_a_diagnostic() {
        let big = "x".repeat(100);
        let src = source(&[("skills/hello/SKILL.md", SKILL), ("skills/hello/big.txt", &big)], 120);
        let e = block_on(compute(&src)).unwrap_err();
        assert_eq!(e.code, codes::CONTENT_DIGEST_FAILED);
        assert!(e.message.contains("more than the 120"), "{}", e.message);
        let many: Vec<(String, String)> =
            (0..MAX_SKILL_FILES).map(|i| (format!("skills/hello/f{i}"), "x".into())).collect();
        let mut files: Vec<(&str, &str)> = many.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        files.push(("skills/hello/SKILL.md", SKILL));
        let e = block_on(compute(&source(&files, 16 << 20))).unwrap_err();
        assert!(e.message.contains("513 files"), "{}", e.message);
        let e = block_on(compute(&source(&[], 100))).unwrap_err();
        assert!(e.message.contains("SKILL.md"), "{}", e.message);
    }
}
