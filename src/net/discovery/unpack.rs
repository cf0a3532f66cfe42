//! An artifact from its raw bytes to a skill's files: the size bound and the digest first (of
//! exactly the bytes served), then, for an archive, gzip'd tar or zip by its leading bytes, under
//! the entry rules of [`crate::net::archive::entries`], and a `SKILL.md` at the root.

use crate::diagnostic::codes;
pub use crate::net::archive::entries::UnpackedFile;
use crate::net::archive::entries::{refuse, too_big, Collector};
use crate::net::archive::{inflate, tar, zip, Limits};
use crate::net::digest;
use crate::Diagnostic;
use serde::Serialize;

/// What an artifact is, as its index entry says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArtifactKind {
    /// The SKILL.md itself.
    SkillMd,
    /// A `.tar.gz` or `.zip` with `SKILL.md` at its root.
    Archive,
}

/// A skill's files, or why there are none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Unpacked {
    /// The files, `SKILL.md` first, then in archive order; empty when the artifact is refused.
    pub files: Vec<UnpackedFile>,
    /// Errors (the artifact is refused) and warnings (entries left out).
    pub diagnostics: Vec<Diagnostic>,
}

impl Unpacked {
    fn refused(d: Diagnostic) -> Self {
        Unpacked { files: Vec::new(), diagnostics: vec![d] }
    }
}

/// Tar's own bytes besides the files' contents: a header and at most a block of padding per entry,
/// and the end blocks.
fn tar_overhead(limits: &Limits) -> u64 {
    (u64::from(limits.max_entries) + 4) * 1024 + 1024
}

/// Verifies and unpacks `bytes`, then, when `name` (the index entry's) is given, checks that its
/// SKILL.md names that skill ([`named_as`]). `expected` is the index's digest (`None` only for
/// v0.1.0 files, which have none).
pub fn unpack_entry(
    bytes: &[u8],
    kind: ArtifactKind,
    expected: Option<&str>,
    name: Option<&str>,
    limits: &Limits,
) -> Unpacked {
    let out = unpack_artifact(bytes, kind, expected, limits);
    match (name, out.files.first()) {
        (Some(name), Some(skill_md)) => named_as(&skill_md.bytes, name).map_or(out, Unpacked::refused),
        _ => out,
    }
}

/// Refuses a SKILL.md whose frontmatter names another skill than `entry` (the index entry's
/// name): served as `entry`, it would load as, and replace, that other skill. A SKILL.md without
/// a name, or whose frontmatter does not read, is left to discovery, which reports it.
pub fn named_as(skill_md: &[u8], entry: &str) -> Option<Diagnostic> {
    let fields = crate::net::frontmatter::frontmatter_json(skill_md, crate::parse::Mode::Lenient).ok()?;
    let named = fields.get("name")?.as_str()?.trim();
    (named != entry.trim()).then(|| {
        refuse(
            codes::ARTIFACT_NAME_MISMATCH,
            format!(
                "the SKILL.md of index entry '{}' names the skill '{}'; it is not used",
                crate::text::one_line(entry),
                crate::text::one_line(named)
            ),
        )
    })
}

/// Verifies and unpacks `bytes`. `expected` is the index's digest (`None` only for v0.1.0 files,
/// which have none).
pub fn unpack_artifact(bytes: &[u8], kind: ArtifactKind, expected: Option<&str>, limits: &Limits) -> Unpacked {
    if bytes.len() as u64 > limits.max_artifact_bytes {
        return Unpacked::refused(refuse(
            codes::ARTIFACT_TOO_LARGE,
            format!("the artifact is {} bytes, more than the {} allowed", bytes.len(), limits.max_artifact_bytes),
        ));
    }
    if let Some(want) = expected {
        if !digest::matches(bytes, want) {
            return Unpacked::refused(refuse(
                codes::ARTIFACT_DIGEST_MISMATCH,
                format!(
                    "the artifact's digest is {}, not the index's {want}; it is not used",
                    digest::sha256_digest(bytes)
                ),
            ));
        }
    }
    if kind == ArtifactKind::SkillMd {
        if bytes.len() as u64 > limits.max_skill_bytes {
            return Unpacked::refused(too_big(limits.max_skill_bytes));
        }
        return Unpacked {
            files: vec![UnpackedFile { path: "SKILL.md".to_string(), bytes: bytes.to_vec() }],
            diagnostics: Vec::new(),
        };
    }
    let mut into = Collector::new(*limits);
    let read = if inflate::is_gzip(bytes) {
        let limit = limits.max_skill_bytes.saturating_add(tar_overhead(limits));
        inflate::gunzip(bytes, limit, too_big(limits.max_skill_bytes)).and_then(|t| tar::read_tar(&t, &mut into))
    } else if zip::is_zip(bytes) {
        zip::read_zip(bytes, limits.max_entries, &mut into)
    } else {
        Err(refuse(codes::ARCHIVE_INVALID, "the artifact is neither a gzip'd tar nor a zip archive"))
    };
    if let Err(d) = read {
        return Unpacked::refused(d);
    }
    let Some(at) = into.files.iter().position(|f| f.path == "SKILL.md") else {
        return Unpacked::refused(refuse(codes::ARCHIVE_SKILL_MD_MISSING, "the archive has no SKILL.md at its root"));
    };
    let mut files = into.files;
    let skill_md = files.remove(at);
    files.insert(0, skill_md);
    Unpacked { files, diagnostics: into.warnings }
}

#[cfg(test)]
#[path = "unpack_tests.rs"]
mod tests;
