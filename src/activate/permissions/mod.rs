//! Permissions: a skill's `allowed-tools` entries as patterns, whether the skills that are active
//! pre-approve a tool call, and whether a path lies inside a skill's directory.
//!
//! The pattern language is Claude Code's permission-rule syntax, which is what `allowed-tools`
//! entries are written in:
//! - `Read`, `Grep`, `WebFetch`: a bare tool name allows every call of that tool; `Tool(*)` too.
//! - `Bash(npm run test)`: exactly that command. `Bash(git:*)`: `git` alone or followed by a space
//!   (`git status` yes, `gitk` no); `Bash(git add:*)` likewise. `Bash(git * main)`, `Bash(ls *)`:
//!   `*` stands for any text (spaces included); a single trailing ` *` may also match nothing, so
//!   `ls *` allows `ls` and `ls -la` but not `lsof`. `\*` is a literal star.
//! - `Read(./src/**)`, `Edit(docs/*.md)`: path globs (`*` and `?` within one path segment, `**`
//!   any number of segments). `//abs` is an absolute path, `~/x` is under the home directory,
//!   `/x`, `./x` and `x` are relative to the working directory, and a pattern without a `/`
//!   (`*.env`) matches at any depth below it, as in gitignore. Character classes and braces are
//!   not supported (they match literally).
//! - `WebFetch(domain:example.com)`: the URL's host is exactly `example.com`;
//!   `domain:*.example.com` is any subdomain of it (not the domain itself).
//! - `mcp__server__tool` one MCP tool; `mcp__server` and `mcp__server__*` every tool of a server;
//!   tool-name globs such as `mcp__*` or `*` (every tool, any input).
//! - `Tool(param:value)` for any other tool: the call's input field `param` (a string, number or
//!   boolean) matches `value`, where `*` stands for any text.
//!
//! Tool families, as in Claude Code: a `Read` entry also covers the other reading tools (`Grep`,
//! `Glob`, `LS`, `NotebookRead`), an `Edit` entry the other editing tools (`Write`, `MultiEdit`,
//! `NotebookEdit`). Path specifiers are honoured on every one of those tools (Claude Code reads
//! them only on `Read` and `Edit`; here `Write(docs/**)` means what its author meant). Names of
//! these built-in tools are matched without regard to case (`bash(git:*)` works, with a warning
//! from [`parse_allowed_tools`]); every other tool name is case-sensitive.

mod command;
mod decide;
mod hazards;
mod path;
mod pattern;
mod shell;
mod url;

pub use decide::{is_tool_allowed, is_tool_allowed_with};
pub use path::{is_in_skill_directory, normalize_path};
pub use pattern::parse_allowed_tools;

use crate::diagnostic::{codes, Diagnostic};
use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// What an `allowed-tools` entry allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub enum PatternKind {
    /// Every call of the tool (`Read`, `Bash(*)`, `mcp__server__tool`).
    Any,
    /// Every call of every tool whose name matches the glob in `tool` (`mcp__*`, `*`).
    ToolGlob,
    /// Every tool of the MCP server named in `argument` (`mcp__github`, `mcp__github__*`).
    McpServer,
    /// A shell command that is exactly `argument`.
    CommandExact,
    /// A shell command that is `argument` or starts with `argument` and a space (`git:*`).
    CommandPrefix,
    /// A shell command matching the wildcard pattern `argument` (`git * main`).
    CommandGlob,
    /// A file path matching the glob `argument`.
    Path,
    /// A URL whose host is `argument` (or, for `*.example.com`, a subdomain of it).
    Domain,
    /// An input field matches: `argument` is `param:value`.
    Param,
}

/// One parsed `allowed-tools` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ToolPattern {
    /// The entry as written (trimmed).
    pub raw: String,
    /// The tool name (built-in tools in their canonical spelling), or a glob over tool names.
    pub tool: String,
    /// What the specifier means.
    pub kind: PatternKind,
    /// The specifier, as `kind` reads it: a command, a prefix, a path glob, a domain, a server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub argument: Option<String>,
}

/// The patterns of a list of `allowed-tools` entries, and what was wrong with the others.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct AllowedTools {
    /// The entries that could be read, in order.
    pub patterns: Vec<ToolPattern>,
    /// `allowed-tools-invalid` (error: the entry was dropped) and `allowed-tools-case` (warning).
    pub diagnostics: Vec<Diagnostic>,
}

/// Whether a call is pre-approved, and by what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ToolDecision {
    /// The call is pre-approved.
    pub allowed: bool,
    /// The skill whose entry allowed the call (for a chained command, the one that allowed its
    /// first part).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub skill: Option<String>,
    /// That entry, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub pattern: Option<String>,
    /// Why, for people (and logs).
    pub reason: String,
}

/// Where relative paths in patterns and inputs start from. Without `cwd`, relative patterns
/// only match relative input paths; without `home`, `~/` patterns and paths match nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct PermissionContext {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// The working directory, absolute.
    pub cwd: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// The user's home directory, absolute.
    pub home: Option<String>,
}

const KNOWN_TOOLS: &[&str] = &[
    "Bash",
    "Read",
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Task",
    "Agent",
    "TodoWrite",
    "Skill",
    "BashOutput",
    "KillShell",
];
const READ_FAMILY: &[&str] = &["Read", "Grep", "Glob", "LS", "NotebookRead"];
const EDIT_FAMILY: &[&str] = &["Edit", "Write", "MultiEdit", "NotebookEdit"];
const DIRECTORY_TOOLS: &[&str] = &["Grep", "Glob", "LS"];

/// Longest path glob, in segments, that is accepted.
const MAX_PATTERN_SEGMENTS: usize = 64;
/// Input paths with more segments than this are refused.
const MAX_PATH_SEGMENTS: usize = 4096;

fn canonical_tool(name: &str) -> Option<&'static str> {
    KNOWN_TOOLS.iter().copied().find(|k| k.eq_ignore_ascii_case(name))
}

fn is_file_tool(name: &str) -> bool {
    READ_FAMILY.contains(&name) || EDIT_FAMILY.contains(&name)
}

fn invalid(entry: &str, why: &str) -> Diagnostic {
    Diagnostic::error(codes::ALLOWED_TOOLS_INVALID, format!("allowed-tools entry '{entry}' {why}; it was ignored"))
}

#[cfg(test)]
mod fixtures {
    use super::*;
    use crate::parse::Skill;
    use serde_json::json;

    pub(super) fn skill(name: &str, tools: &[&str]) -> Skill {
        Skill { name: name.into(), allowed_tools: tools.iter().map(|s| s.to_string()).collect(), ..Default::default() }
    }

    pub(super) fn allowed(tools: &[&str], tool: &str, input: serde_json::Value) -> bool {
        let s = skill("s", tools);
        is_tool_allowed(&[&s], tool, Some(&input)).allowed
    }

    pub(super) fn bash(tools: &[&str], cmd: &str) -> bool {
        allowed(tools, "Bash", json!({ "command": cmd }))
    }

    pub(super) fn pat(entry: &str) -> ToolPattern {
        ToolPattern::parse(entry).unwrap_or_else(|d| panic!("{entry}: {}", d.message))
    }
}
