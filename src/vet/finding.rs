//! The findings' vocabulary, shared by the pass and every check: levels, the rules and their
//! codes, a finding, the kinds of file, and the excerpt a message quotes.

use crate::diagnostic::codes;
use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// How much a finding matters. Each code has one level ([`RULES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Worth a look: common in honest skills too.
    Low,
    /// Risky, and honest skills do it at times (an installer piped to a shell, a crontab entry).
    Medium,
    /// What an honest skill has no reason to do (hidden instructions, secrets sent away).
    #[default]
    High,
}

impl Level {
    /// The level's name: `high`, `medium` or `low`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Low => "low",
            Level::Medium => "medium",
            Level::High => "high",
        }
    }
}

/// What the host does with the findings (the registry option `vet`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum VetPolicy {
    /// No vetting.
    Off,
    /// The findings are diagnostics of the skill (warnings; low ones notes); the skill loads.
    #[default]
    Report,
    /// As `report`, and a skill with a finding at or above `vetSeverity` is refused.
    Refuse,
}

/// One finding of a vet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// Stable, for programs (`vet-exfiltration` ...).
    pub code: String,
    /// The code's level.
    pub level: Level,
    /// The file, as a path within the skill (`SKILL.md`, `scripts/install.sh`).
    pub path: String,
    /// 1-based line in that file.
    pub line: u32,
    /// For people: what was found, with the text that shows it.
    pub message: String,
}

/// Every vet code with its level, in the order of [`codes::ALL`].
pub const RULES: [(&str, Level); 20] = [
    (codes::VET_TAG_CHARACTERS, Level::High),
    (codes::VET_BIDI_CONTROLS, Level::High),
    (codes::VET_INVISIBLE_RUN, Level::High),
    (codes::VET_INVISIBLE_CHARACTERS, Level::Low),
    (codes::VET_HIDDEN_INSTRUCTIONS, Level::High),
    (codes::VET_HIDDEN_MARKUP, Level::Low),
    (codes::VET_INSTRUCTION_OVERRIDE, Level::High),
    (codes::VET_CONCEAL_FROM_USER, Level::High),
    (codes::VET_SKIP_CONFIRMATION, Level::Medium),
    (codes::VET_DISABLE_SAFETY, Level::High),
    (codes::VET_REVEAL_SYSTEM_PROMPT, Level::High),
    (codes::VET_EXFILTRATION, Level::High),
    (codes::VET_REMOTE_SCRIPT, Level::Medium),
    (codes::VET_REMOTE_SCRIPT_INSECURE, Level::High),
    (codes::VET_DESTRUCTIVE_DELETE, Level::High),
    (codes::VET_PERMISSION_CHANGE, Level::Medium),
    (codes::VET_PERSISTENCE, Level::Medium),
    (codes::VET_HISTORY_TAMPERING, Level::High),
    (codes::VET_EXEC_DECODED, Level::High),
    (codes::VET_ENCODED_BLOB, Level::Medium),
];

/// The level of a vet code; None for a code that is not a vet finding.
pub fn level_of(code: &str) -> Option<Level> {
    RULES.iter().find(|(c, _)| *c == code).map(|(_, l)| *l)
}

/// The most findings of one code kept per file: a file that repeats a pattern is named a few
/// times, not once per line.
pub const MAX_PER_CODE: usize = 5;

/// How a file is read: as Markdown (SKILL.md, references), as a script, or as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Markdown and plain text: prose, fences, inline code, markup a rendered view hides.
    Markdown,
    /// A script or source file: every line is code; comments and printed text are prose.
    Script,
    /// Structured data (JSON, YAML, TOML, CSV ...): commands in it are checked, prose is not,
    /// and encoded runs are data.
    Data,
}

/// The kind of the file at `path` (a path within the skill), by its extension; a file with
/// none is a script when its text starts with `#!`.
pub fn file_kind(path: &str, text: &str) -> FileKind {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
        _ => String::new(),
    };
    match ext.as_str() {
        "md" | "markdown" | "mdx" | "txt" | "rst" | "html" | "htm" | "adoc" => FileKind::Markdown,
        "json" | "jsonc" | "json5" | "jsonl" | "yaml" | "yml" | "toml" | "csv" | "tsv" | "xml" | "svg" | "lock"
        | "ini" | "cfg" | "conf" | "plist" | "map" | "d" | "sum" | "bib" => FileKind::Data,
        "" if text.starts_with("#!") => FileKind::Script,
        "" if matches!(name, "Makefile" | "Dockerfile" | "Justfile" | "makefile") => FileKind::Script,
        "" => FileKind::Markdown,
        _ => FileKind::Script,
    }
}

/// Text for a message: on one line, hidden characters made visible ([`crate::text::one_line`]),
/// at most `max` characters (then `…`).
pub(crate) fn excerpt(s: &str, max: usize) -> String {
    let line = crate::text::one_line(s);
    match line.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", line.get(..at).unwrap_or_default()),
        None => line,
    }
}
