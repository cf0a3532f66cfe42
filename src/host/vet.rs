//! A skill vetted in full on request (`SkillRegistry#vet(name)`): its SKILL.md read whole and every
//! resource (nested skills and hidden files left out) within the per-skill limits, each text file
//! vetted ([`crate::vet`]). Discovery vets only the SKILL.md bytes it reads anyway; reading a
//! skill's resources costs a store read per file, so it is done only when the host asks (before
//! it installs or approves a skill, in the CLI's `vet`).

use super::skills::SkillHost;
use crate::content::plain_line;
use crate::diagnostic::{codes, Diagnostic};
use crate::discover::{resource_paths, CappedRead, SkillSource};
use crate::vet::{vet_text, Finding};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// The most files of a skill that are vetted (the per-skill limit of content digests and of the
/// MCP Skills extension); the rest are named in the report's error.
pub const MAX_VETTED_FILES: usize = 512;

/// What `vet(name)` found in a skill's files.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct VetReport {
    /// The skill's name.
    pub name: String,
    /// Its scope (absent for an unknown skill).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub scope: Option<String>,
    /// The text files vetted (SKILL.md included).
    pub files: u32,
    /// The files left out because they are not UTF-8 text (images, archives).
    pub skipped: u32,
    /// The bytes read.
    pub size: u64,
    /// Every finding, file by file (SKILL.md first, then the resources in key order).
    pub findings: Vec<Finding>,
    /// Why not every file was vetted, when one was not (`vet-incomplete`), or why nothing was
    /// (`skill-unknown`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub error: Option<Diagnostic>,
    /// When a finding is at or above the severity asked for (default `high`): the error that
    /// refuses the skill (`vet-refused`, naming the first such finding and how many more), as
    /// `vet: "refuse"` would. A host that installs or accepts skills refuses on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub refusal: Option<Diagnostic>,
}

fn incomplete(message: String) -> Diagnostic {
    Diagnostic::error(codes::VET_INCOMPLETE, message)
}

/// Reads `key` with at most `left` bytes: its bytes, or what was not vetted.
async fn read_within(src: &SkillSource, key: &str, path: &str, left: u64) -> Result<Vec<u8>, Diagnostic> {
    src.read_capped(key, left).await.map_err(|why| match why {
        CappedRead::TooLarge => incomplete(format!(
            "the skill's files hold more than {} bytes, the most a vet reads (reading {path}); the files after it were not vetted",
            src.max_bytes
        )),
        CappedRead::Missing => incomplete(format!("{path} is listed but could not be found")),
        CappedRead::Failed(e) => incomplete(format!("reading {path} failed: {e}")),
    })
}

/// Vets the files of the skill at `src` into `out`; the error says what was not vetted.
async fn vet_files(src: &SkillSource, out: &mut VetReport) -> Result<(), Diagnostic> {
    let cap = u64::from(src.max_bytes);
    let vet = |path: &str, bytes: &[u8], out: &mut VetReport| {
        out.size += bytes.len() as u64;
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                out.files += 1;
                out.findings.extend(vet_text(path, text));
            }
            Err(_) => out.skipped += 1,
        }
    };
    let skill_md = read_within(src, &src.instructions, "SKILL.md", cap).await?;
    vet("SKILL.md", &skill_md, out);
    drop(skill_md);
    let prefix = src.prefix();
    let limit = MAX_VETTED_FILES.saturating_mul(8);
    let (listed, stopped) = src
        .list_files(limit)
        .await
        .map_err(|e| incomplete(format!("listing the skill's files failed: {e}; only SKILL.md was vetted")))?;
    let mut rel: Vec<&str> = listed.entries.iter().filter_map(|e| e.key.strip_prefix(&prefix)).collect();
    crate::sort::sort_by(&mut rel, |a, b| a.cmp(b));
    let paths = resource_paths(rel);
    let mut error = stopped.then(|| {
        incomplete(format!("the skill's directory holds more than {limit} keys; the files after them were not vetted"))
    });
    if paths.len() + 1 > MAX_VETTED_FILES {
        error = Some(incomplete(format!(
            "the skill has {} files; the first {MAX_VETTED_FILES} were vetted",
            paths.len() + 1
        )));
    }
    for path in paths.into_iter().take(MAX_VETTED_FILES - 1) {
        let bytes = read_within(src, &format!("{prefix}{path}"), path, cap.saturating_sub(out.size)).await?;
        vet(path, &bytes, out);
    }
    error.map_or(Ok(()), Err)
}

/// Vets the skill that wins `name`: every text file within the per-skill limits, with the
/// refusal a finding at or above `threshold` makes. An unknown skill has an error and no
/// findings; a skill beyond the limits, or one whose file could not be read, has the findings of
/// what was read and a `vet-incomplete` error.
pub async fn vet_skill(cell: &RefCell<SkillHost>, name: &str, threshold: crate::vet::Level) -> VetReport {
    let src = cell.borrow().registry().skill_source(name);
    let Some(src) = src else {
        let message = format!("no skill named '{}'", plain_line(name));
        return VetReport {
            name: name.to_string(),
            error: Some(Diagnostic::error(codes::SKILL_UNKNOWN, message)),
            ..VetReport::default()
        };
    };
    let mut out = VetReport { name: name.to_string(), scope: Some(src.scope.clone()), ..VetReport::default() };
    if let Err(e) = vet_files(&src, &mut out).await {
        out.error = Some(e);
    }
    out.refusal = crate::vet::refusal(&out.findings, threshold);
    out
}
