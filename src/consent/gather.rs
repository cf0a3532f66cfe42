//! A skill's content digest from its store: its SKILL.md read first (a network store may fetch
//! the skill's artifact on that read, and list its files only then), its directory listed, every
//! resource read, each file's SHA-256 taken as it arrives (the bytes are not kept), and the
//! digest computed over the paths and file digests ([`super::digest`]). Bounded by the per-skill
//! limits: at most [`MAX_SKILL_FILES`] files and the size cap (`maxObjectBytes`, 16 MiB by
//! default) for the files together; a skill beyond them is refused with a diagnostic before its
//! files are read, where the listing gives their sizes, or as soon as the reads pass the cap.

use super::digest::{file_digest, skill_digest};
use crate::diagnostic::{codes, Diagnostic};
use crate::discover::{resource_paths, CappedRead, SkillSource};
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
    src.read_capped(key, left).await.map_err(|why| match why {
        CappedRead::TooLarge => failed(format!(
            "its files hold more than {} bytes, the most a skill's digest covers (reading {path})",
            src.max_bytes
        )),
        CappedRead::Missing => failed(format!("{path} is listed but could not be found")),
        CappedRead::Failed(e) => failed(format!("reading {path} failed: {e}")),
    })
}

/// Lists the skill's directory: its entries, or why not (a directory far beyond the most files).
async fn list_skill(src: &SkillSource) -> Result<store::ListPage, Diagnostic> {
    // Enough keys for the most files with room for hidden ones; a bigger directory is refused.
    let limit = MAX_SKILL_FILES.saturating_mul(8);
    let (listed, stopped) =
        src.list_files(limit).await.map_err(|e| failed(format!("listing the skill's files failed: {e}")))?;
    if stopped {
        return Err(failed(format!(
            "its directory holds more than {limit} keys; a skill's digest covers at most {MAX_SKILL_FILES} files"
        )));
    }
    Ok(listed)
}

/// Computes the content digest of the skill at `src`: `(digest, files, bytes)`, or the
/// diagnostic that says why not. A file the store lists with its SHA-256
/// ([`store::ListEntry::digest`]: an MCP server's manifest) is not read; when the SKILL.md is
/// listed so, the listing comes first and a skill whose every file is listed so costs no read;
/// otherwise the SKILL.md is read and the listing taken again only when it held nothing else.
pub async fn compute(src: &SkillSource) -> Result<(String, u32, u64), Diagnostic> {
    let cap = u64::from(src.max_bytes);
    let prefix = src.prefix();
    let first = list_skill(src).await?;
    let listed_md =
        first.entries.iter().find(|e| e.key == src.instructions).and_then(|e| Some((e.digest.clone()?, e.size)));
    let (listed, skill_md, mut total) = match listed_md {
        Some((digest, size)) => (first, digest, size.unwrap_or(0)),
        None => {
            let bytes = read_within(src, &src.instructions, "SKILL.md", cap).await?;
            // A network store may list a skill's files only once its SKILL.md was read (a
            // discovery index's artifact arrives with it): a listing that held nothing but the
            // SKILL.md is taken again. One that held other files stands.
            let alone = first.entries.iter().all(|e| e.key == src.instructions);
            let listed = if alone { list_skill(src).await? } else { first };
            (listed, file_digest(&bytes), bytes.len() as u64)
        }
    };
    let mut digests = vec![("SKILL.md".to_string(), skill_md)];
    let rel: Vec<(&str, &store::ListEntry)> =
        listed.entries.iter().filter_map(|e| e.key.strip_prefix(&prefix).map(|r| (r, e))).collect();
    let paths = resource_paths(rel.iter().map(|(r, _)| *r).collect());
    let rel: std::collections::HashMap<&str, &store::ListEntry> = rel.into_iter().collect();
    if paths.len() + 1 > MAX_SKILL_FILES {
        return Err(failed(format!(
            "it has {} files, more than the {MAX_SKILL_FILES} a skill's digest covers",
            paths.len() + 1
        )));
    }
    let listed_size: u64 = paths.iter().filter_map(|p| rel.get(p).and_then(|e| e.size)).sum();
    if total.saturating_add(listed_size) > cap {
        return Err(failed(format!(
            "its files hold {} bytes, more than the {cap} a skill's digest covers",
            total.saturating_add(listed_size)
        )));
    }
    for path in paths {
        let entry = rel.get(path);
        if let Some(digest) = entry.and_then(|e| e.digest.clone()) {
            total += entry.and_then(|e| e.size).unwrap_or(0);
            digests.push((path.to_string(), digest));
            continue;
        }
        let key = format!("{prefix}{path}");
        let bytes = read_within(src, &key, path, cap.saturating_sub(total)).await?;
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

    const FILES: [(&str, &str); 6] = [
        ("skills/hello/SKILL.md", SKILL),
        ("skills/hello/scripts/hello.sh", "echo hello\n"),
        // Not the skill's content: hidden files, a nested skill, a sibling.
        ("skills/hello/.DS_Store", "x"),
        ("skills/hello/inner/SKILL.md", "---\nname: inner\ndescription: x\n---\n"),
        ("skills/hello/inner/x.md", "x"),
        ("skills/hello2/SKILL.md", "x"),
    ];

    #[test]
    fn the_store_gives_the_documented_digest() {
        let src = source(&FILES, 16 << 20);
        let (digest, files, size) = block_on(compute(&src)).unwrap();
        assert_eq!(digest, "sha256:475219899a0c0943ffa17216644f00f7a0c1c979c5d41fcd8d2a829c969b954d");
        assert_eq!((files, size), (2, (SKILL.len() + 11) as u64));
        let once = source(&FILES, 16 << 20);
        block_on(list_skill(&once)).unwrap();
        let one_listing = once.stats.list_calls.get();
        assert_eq!(src.stats.list_calls.get(), one_listing, "a listing that held the skill's files is taken once");
        // A skill of a SKILL.md alone: listed again after the read, as a network store may list
        // files only once the SKILL.md arrived.
        let alone = source(&[("skills/hello/SKILL.md", SKILL)], 16 << 20);
        block_on(list_skill(&alone)).unwrap();
        let one_listing = alone.stats.list_calls.get();
        let alone = source(&[("skills/hello/SKILL.md", SKILL)], 16 << 20);
        block_on(compute(&alone)).unwrap();
        assert_eq!(alone.stats.list_calls.get(), 2 * one_listing);
    }

    /// A store that lists each object with its SHA-256, as the MCP store lists a manifest's files
    /// (the listed digest of `lie` is of other bytes), and serves reads from memory.
    struct Listed {
        inner: MemoryStorage,
        files: Vec<(String, String)>,
        lie: Option<&'static str>,
    }

    impl Storage for Listed {
        fn list<'a>(
            &'a self,
            prefix: &'a str,
            cursor: Option<&'a str>,
            limit: u32,
        ) -> store::LocalFuture<'a, Result<store::ListPage, store::StorageError>> {
            Box::pin(async move {
                let mut page = self.inner.list(prefix, cursor, limit).await?;
                for e in &mut page.entries {
                    let bytes =
                        self.files.iter().find(|(k, _)| *k == e.key).map(|(_, v)| v.as_bytes()).unwrap_or_default();
                    e.digest = Some(file_digest(if self.lie == Some(e.key.as_str()) { b"other" } else { bytes }));
                }
                Ok(page)
            })
        }
        fn read<'a>(
            &'a self,
            key: &'a str,
            max_bytes: Option<u32>,
        ) -> store::LocalFuture<'a, Result<Option<Vec<u8>>, store::StorageError>> {
            self.inner.read(key, max_bytes)
        }
    }

    #[test]
    fn listed_digests_give_the_same_digest_without_a_read() {
        let files: Vec<(String, String)> =
            [("skills/hello/SKILL.md", SKILL), ("skills/hello/scripts/hello.sh", "echo hello\n")]
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
        let read =
            block_on(compute(&source(&[(&files[0].0, SKILL), (&files[1].0, "echo hello\n")], 16 << 20))).unwrap();
        let mut src = source(&[], 16 << 20);
        src.storage = Rc::new(Listed { inner: MemoryStorage::new(files.clone()), files: files.clone(), lie: None });
        assert_eq!(block_on(compute(&src)).unwrap(), read);
        assert_eq!(src.stats.read_calls.get(), 0, "no file was read");
        assert_eq!(src.stats.list_calls.get(), 1, "one listing");
        // The listed digest is what the digest covers: a store that lists another file's digest
        // gives another digest (the MCP store refuses any read that does not match it).
        let mut lying = source(&[], 16 << 20);
        lying.storage = Rc::new(Listed {
            inner: MemoryStorage::new(files.clone()),
            files,
            lie: Some("skills/hello/scripts/hello.sh"),
        });
        assert_ne!(block_on(compute(&lying)).unwrap().0, read.0);
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
