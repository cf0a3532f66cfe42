//! Findings: [`Diagnostic`] and [`Severity`], shared by every stage. A diagnostic's `code` is
//! stable and meant for programs (every one is a constant in [`codes`]); its `message` is for
//! people.

pub mod codes;

use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// How bad a diagnostic is. `error` means the skill (or the operation) was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The skill or the operation was refused.
    Error,
    /// Something is wrong but the skill loads.
    Warning,
    /// Worth knowing; nothing is wrong.
    Info,
}

/// One finding about an input. `code` is stable and meant for programs; `message` is for people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// Stable, for programs (`name-invalid`, `yaml-repair-colon` ...).
    pub code: String,
    /// For people.
    pub message: String,
    /// 1-based line in the SKILL.md file, where the finding has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub line: Option<u32>,
    /// The file or skill-relative path the finding is about, where it is not the SKILL.md itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub path: Option<String>,
}

impl Diagnostic {
    /// A diagnostic without a line or a path.
    #[cold]
    #[inline(never)]
    pub fn new(severity: Severity, code: &str, message: impl Into<String>) -> Self {
        Diagnostic { severity, code: code.to_string(), message: message.into(), line: None, path: None }
    }
    /// An error: the skill or the operation is refused.
    #[cold]
    #[inline(never)]
    pub fn error(code: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }
    /// A warning: something is wrong, the skill loads.
    #[cold]
    #[inline(never)]
    pub fn warning(code: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }
    /// A note.
    #[cold]
    #[inline(never)]
    pub fn info(code: &str, message: impl Into<String>) -> Self {
        Self::new(Severity::Info, code, message)
    }
    /// The same diagnostic, at `line` of the SKILL.md.
    pub fn at_line(mut self, line: Option<u32>) -> Self {
        self.line = line;
        self
    }
    /// Whether the severity is `error`.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// Whether it says something about the moment rather than the input ([`codes::TRANSIENT`]).
    pub fn is_transient(&self) -> bool {
        codes::TRANSIENT.contains(&self.code.as_str())
    }
}
