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

use crate::diagnostic::Diagnostic;
use crate::parse::Skill;
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
    pub patterns: Vec<ToolPattern>,
    /// `allowed-tools-invalid` (error: the entry was dropped) and `allowed-tools-case` (warning).
    pub diagnostics: Vec<Diagnostic>,
}

/// Whether a call is pre-approved, and by what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ToolDecision {
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
#[serde(rename_all = "camelCase", default)]
pub struct PermissionContext {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub cwd: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
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
    Diagnostic::error("allowed-tools-invalid", format!("allowed-tools entry '{entry}' {why}; it was ignored"))
}

impl ToolPattern {
    /// Parses one `allowed-tools` entry. Never panics; an entry that cannot be read is an
    /// `allowed-tools-invalid` error diagnostic.
    pub fn parse(entry: &str) -> Result<ToolPattern, Diagnostic> {
        let raw = entry.trim();
        if raw.is_empty() {
            return Err(invalid(raw, "is empty"));
        }
        if raw.contains('\0') {
            return Err(invalid(raw, "contains a NUL character"));
        }
        let (name, spec) = match raw.find('(') {
            Some(open) => {
                let Some(inner) = raw[open + 1..].strip_suffix(')') else {
                    return Err(invalid(raw, "has no closing ')' at its end"));
                };
                (raw[..open].trim(), Some(inner.trim()))
            }
            None => {
                if raw.contains(')') {
                    return Err(invalid(raw, "has a ')' without '('"));
                }
                (raw, None)
            }
        };
        if name.is_empty() {
            return Err(invalid(raw, "has no tool name"));
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '*')) {
            return Err(invalid(
                raw,
                "has a tool name with characters other than letters, digits, '_', '-', '.' and '*'",
            ));
        }
        let tool = canonical_tool(name).map(str::to_string).unwrap_or_else(|| name.to_string());
        let make = |kind, argument: Option<&str>| ToolPattern {
            raw: raw.to_string(),
            tool: tool.clone(),
            kind,
            argument: argument.map(str::to_string),
        };
        let Some(spec) = spec else {
            if tool.contains('*') {
                return Ok(make(PatternKind::ToolGlob, None));
            }
            if let Some(rest) = tool.strip_prefix("mcp__") {
                if rest.is_empty() {
                    return Err(invalid(raw, "names no MCP server"));
                }
                if !rest.contains("__") {
                    return Ok(make(PatternKind::McpServer, Some(rest)));
                }
            }
            return Ok(make(PatternKind::Any, None));
        };
        if spec.is_empty() {
            return Err(invalid(raw, "has an empty specifier"));
        }
        if tool.contains('*') {
            return Err(invalid(raw, "has both a tool-name glob and a specifier"));
        }
        if spec == "*" {
            return Ok(make(PatternKind::Any, None));
        }
        if tool.starts_with("mcp__") && spec.contains("__") {
            return Err(invalid(raw, "mixes an MCP tool name with a specifier that looks like one"));
        }
        if tool == "Bash" {
            if let Some(prefix) = spec.strip_suffix(":*") {
                let prefix = collapse_ws(prefix);
                if prefix.is_empty() {
                    return Ok(make(PatternKind::Any, None));
                }
                return Ok(make(PatternKind::CommandPrefix, Some(&prefix)));
            }
            let cmd = collapse_ws(spec);
            let kind = if has_unescaped_star(&cmd) { PatternKind::CommandGlob } else { PatternKind::CommandExact };
            return Ok(make(kind, Some(&cmd)));
        }
        if is_file_tool(&tool) {
            if spec.split(['/', '\\']).filter(|s| !s.is_empty()).count() > MAX_PATTERN_SEGMENTS {
                return Err(invalid(raw, "has a path pattern that is too long"));
            }
            return Ok(make(PatternKind::Path, Some(spec)));
        }
        if tool == "WebFetch" {
            let Some(domain) = spec.strip_prefix("domain:") else {
                return Err(invalid(raw, "is not of the form WebFetch(domain:<host>)"));
            };
            let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
            let bare = domain.strip_prefix("*.").unwrap_or(&domain);
            if bare.is_empty()
                || !bare.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | ':' | '[' | ']'))
            {
                return Err(invalid(raw, "has a domain that is not a host name"));
            }
            return Ok(make(PatternKind::Domain, Some(&domain)));
        }
        match spec.split_once(':') {
            Some((key, _)) if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                Ok(make(PatternKind::Param, Some(spec)))
            }
            _ => Err(invalid(raw, &format!("has a specifier that {tool} does not take (expected param:value)"))),
        }
    }

    /// Whether this pattern names `tool` (the input is not looked at).
    pub fn covers_tool(&self, tool: &str) -> bool {
        match self.kind {
            PatternKind::ToolGlob => wildcard_match(&self.tool, tool, false),
            PatternKind::McpServer => {
                let server = self.argument.as_deref().unwrap_or("");
                tool.strip_prefix("mcp__")
                    .and_then(|r| r.strip_prefix(server))
                    .is_some_and(|r| r.is_empty() || r.starts_with("__"))
            }
            _ => match canonical_tool(&self.tool) {
                Some(known) => {
                    let call = canonical_tool(tool).unwrap_or("");
                    call == known
                        || (known == "Read" && READ_FAMILY.contains(&call))
                        || (known == "Edit" && EDIT_FAMILY.contains(&call))
                }
                None => self.tool == tool,
            },
        }
    }
}

/// Parses a skill's `allowed-tools` list ([`Skill::allowed_tools`], already split by
/// [`crate::parse::validate::split_tools`]). Entries that cannot be read are left out with an error
/// diagnostic; a built-in tool written in another case is kept with a warning.
pub fn parse_allowed_tools(entries: &[String]) -> AllowedTools {
    let mut out = AllowedTools::default();
    for e in entries {
        match ToolPattern::parse(e) {
            Ok(p) => {
                let written = p.raw.split('(').next().unwrap_or("").trim();
                if written != p.tool && canonical_tool(written).is_some() {
                    out.diagnostics.push(Diagnostic::warning(
                        "allowed-tools-case",
                        format!("allowed-tools entry '{}' is read as the tool '{}'", p.raw, p.tool),
                    ));
                }
                out.patterns.push(p);
            }
            Err(d) => out.diagnostics.push(d),
        }
    }
    out
}

/// Whether one of the `active` skills pre-approves a call of `tool` with `input` (paths relative
/// to nothing; see [`is_tool_allowed_with`]).
pub fn is_tool_allowed(active: &[&Skill], tool: &str, input: Option<&serde_json::Value>) -> ToolDecision {
    is_tool_allowed_with(active, tool, input, &PermissionContext::default())
}

/// Whether one of the `active` skills pre-approves a call of `tool` with `input`.
///
/// - An entry that allows every call of the tool wins at once.
/// - `Bash`: the input's `command` is split on the shell's `&&`, `||`, `;`, `|`, `|&`, `&` and
///   newlines (outside quotes), and every part must be allowed by some entry of some active
///   skill: `Bash(git:*)` does not allow `git status && rm -rf /`. A command with `$(...)`,
///   backticks or `<(...)`/`>(...)` outside single quotes runs commands no entry can see, so only
///   an entry that allows every command allows it. Whitespace runs count as one space.
///   Redirections stay part of their command (`git log > out.txt` is a `git` command).
/// - File tools: `Read`, `Edit`, `Write`, `MultiEdit` check `file_path`; `NotebookEdit` and
///   `NotebookRead` `notebook_path`; `Grep`, `Glob` and `LS` check `path` (the working directory
///   when absent) and are allowed only when the pattern covers that whole directory (it matches
///   the directory, or is `<dir>/**` of it or of a directory above). `Grep`'s `pattern` is a regex
///   and is not a path; `Glob`'s `pattern` must not be absolute nor contain `..`. Paths are
///   normalised lexically (see [`normalize_path`]); a path with `..` above its start, NUL or
///   percent-encoded dots and slashes is never allowed.
/// - `WebFetch`: the host of the input's `url` (http or https; user info, port, a trailing dot
///   and case ignored; `\` ends the host as in browsers).
/// - `Tool(param:value)`: the input field `param`.
/// - Skills are tried in order, entries in order; the first that allows the call is reported.
pub fn is_tool_allowed_with(
    active: &[&Skill],
    tool: &str,
    input: Option<&serde_json::Value>,
    ctx: &PermissionContext,
) -> ToolDecision {
    let mut grants: Vec<(&str, ToolPattern)> = Vec::new();
    for s in active {
        for p in parse_allowed_tools(&s.allowed_tools).patterns {
            if p.covers_tool(tool) {
                grants.push((s.name.as_str(), p));
            }
        }
    }
    let allow = |skill: &str, p: &ToolPattern, reason: String| ToolDecision {
        allowed: true,
        skill: Some(skill.to_string()),
        pattern: Some(p.raw.clone()),
        reason,
    };
    let deny = |reason: String| ToolDecision { allowed: false, skill: None, pattern: None, reason };
    if grants.is_empty() {
        return deny(format!("no active skill lists {tool} in allowed-tools"));
    }
    if let Some((s, p)) =
        grants.iter().find(|(_, p)| matches!(p.kind, PatternKind::Any | PatternKind::ToolGlob | PatternKind::McpServer))
    {
        return allow(s, p, format!("'{}' of skill '{}' allows every {tool} call", p.raw, s));
    }
    let field = |k: &str| input.and_then(|v| v.get(k));
    let str_field = |k: &str| field(k).and_then(serde_json::Value::as_str);

    // Shell commands.
    let command_grants: Vec<&(&str, ToolPattern)> = grants
        .iter()
        .filter(|(_, p)| {
            matches!(p.kind, PatternKind::CommandExact | PatternKind::CommandPrefix | PatternKind::CommandGlob)
        })
        .collect();
    if !command_grants.is_empty() {
        match str_field("command") {
            None => return deny(format!("the {tool} call has no command to check against the skills' patterns")),
            Some(cmd) => match split_command(cmd) {
                Err(why) => return deny(format!("the command {why}; only an entry allowing every command allows it")),
                Ok(parts) if parts.is_empty() => return deny("the command is empty".to_string()),
                Ok(parts) => {
                    let mut first: Option<&(&str, ToolPattern)> = None;
                    for part in &parts {
                        match command_grants.iter().find(|(_, p)| command_matches(p, part)) {
                            Some(g) => {
                                first.get_or_insert(g);
                            }
                            None => {
                                return deny(format!("no active skill allows the command '{}'", truncate(part, 200)))
                            }
                        }
                    }
                    if let Some((s, p)) = first {
                        let reason = if parts.len() == 1 {
                            format!("'{}' of skill '{}' allows the command", p.raw, s)
                        } else {
                            format!("each of the {} commands is allowed by an active skill ('{}' of skill '{}' allows the first)", parts.len(), p.raw, s)
                        };
                        return allow(s, p, reason);
                    }
                }
            },
        }
    }

    // Paths.
    let path_grants: Vec<&(&str, ToolPattern)> = grants.iter().filter(|(_, p)| p.kind == PatternKind::Path).collect();
    if !path_grants.is_empty() {
        let canon = canonical_tool(tool).unwrap_or("");
        let is_dir_tool = DIRECTORY_TOOLS.contains(&canon);
        let raw_path = match canon {
            "NotebookEdit" | "NotebookRead" => str_field("notebook_path"),
            "Grep" | "Glob" | "LS" => Some(str_field("path").unwrap_or(".")),
            _ => str_field("file_path").or_else(|| str_field("path")),
        };
        let Some(raw_path) = raw_path else {
            return deny(format!("the {tool} call has no path to check against the skills' patterns"));
        };
        if canon == "Glob" {
            if let Some(g) = str_field("pattern") {
                let g = g.replace('\\', "/");
                if g.starts_with('/') || g.starts_with('~') || g.split('/').any(|s| s == "..") || is_drive_path(&g) {
                    return deny("the Glob pattern reaches outside its directory".to_string());
                }
            }
        }
        let Some(path) = resolve(raw_path, ctx) else {
            return deny(format!(
                "the path '{}' is not allowed (traversal, encoding or an unknown base)",
                truncate(raw_path, 200)
            ));
        };
        for (s, p) in &path_grants {
            let Some(glob) = p.argument.as_deref().and_then(|a| resolve_pattern(a, ctx)) else { continue };
            if path_glob_covers(&glob, &path, is_dir_tool) {
                return allow(s, p, format!("'{}' of skill '{}' allows the path", p.raw, s));
            }
        }
        return deny(format!("no active skill allows {tool} on '{}'", truncate(&path, 200)));
    }

    // Domains.
    let domain_grants: Vec<&(&str, ToolPattern)> =
        grants.iter().filter(|(_, p)| p.kind == PatternKind::Domain).collect();
    if !domain_grants.is_empty() {
        let Some(host) = str_field("url").and_then(url_host) else {
            return deny(format!("the {tool} call has no http(s) URL with a host"));
        };
        for (s, p) in &domain_grants {
            if domain_matches(p.argument.as_deref().unwrap_or(""), &host) {
                return allow(s, p, format!("'{}' of skill '{}' allows the host {host}", p.raw, s));
            }
        }
        return deny(format!("no active skill allows {tool} for the host {host}"));
    }

    // Input fields.
    for (s, p) in grants.iter().filter(|(_, p)| p.kind == PatternKind::Param) {
        let Some((key, want)) = p.argument.as_deref().and_then(|a| a.split_once(':')) else { continue };
        let got = match field(key) {
            Some(serde_json::Value::String(v)) => Some(v.clone()),
            Some(v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_))) => Some(v.to_string()),
            _ => None,
        };
        if got.is_some_and(|g| wildcard_match(want, &g, true)) {
            return allow(s, p, format!("'{}' of skill '{}' allows this {key}", p.raw, s));
        }
    }
    deny(format!("no active skill's {tool} entry matches this call"))
}

fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Shell commands
// ---------------------------------------------------------------------------------------------

fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn has_unescaped_star(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| b[i] == b'*' && b[..i].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 0)
}

/// Splits a shell command into the commands it runs, or says why it cannot be checked.
fn split_command(cmd: &str) -> Result<Vec<String>, &'static str> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut chars = cmd.chars().peekable();
    let mut prev: Option<char> = None;
    let flush = |cur: &mut String, parts: &mut Vec<String>| {
        let p = collapse_ws(cur);
        if !p.is_empty() {
            parts.push(p);
        }
        cur.clear();
    };
    while let Some(c) = chars.next() {
        match quote {
            Some('\'') => {
                cur.push(c);
                if c == '\'' {
                    quote = None;
                }
            }
            Some(q) => {
                if c == '\\' {
                    cur.push(c);
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                    prev = None;
                    continue;
                }
                if c == '`' || (c == '$' && chars.peek() == Some(&'(')) {
                    return Err("has command substitution");
                }
                cur.push(c);
                if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\\' => {
                    match chars.next() {
                        Some('\n') => cur.push(' '),
                        Some(n) => {
                            cur.push(c);
                            cur.push(n);
                        }
                        None => cur.push(c),
                    }
                    prev = None;
                    continue;
                }
                '\'' | '"' => {
                    quote = Some(c);
                    cur.push(c);
                }
                '`' => return Err("has command substitution"),
                '$' if chars.peek() == Some(&'(') => return Err("has command substitution"),
                '<' | '>' if chars.peek() == Some(&'(') => return Err("has process substitution"),
                ';' | '\n' => flush(&mut cur, &mut parts),
                '|' => {
                    if matches!(chars.peek(), Some('|') | Some('&')) {
                        chars.next();
                    }
                    if prev == Some('>') {
                        // `>|` is a redirection (clobber), not a pipe.
                        cur.push(c);
                    } else {
                        flush(&mut cur, &mut parts);
                    }
                }
                '&' => {
                    if chars.peek() == Some(&'&') {
                        chars.next();
                        flush(&mut cur, &mut parts);
                    } else if matches!(prev, Some('>') | Some('<')) || chars.peek() == Some(&'>') {
                        // `2>&1`, `<&3`, `&>file`: redirections.
                        cur.push(c);
                    } else {
                        flush(&mut cur, &mut parts);
                    }
                }
                _ => cur.push(c),
            },
        }
        prev = Some(c);
    }
    if quote.is_some() {
        return Err("has an unclosed quote");
    }
    flush(&mut cur, &mut parts);
    Ok(parts)
}

fn command_matches(p: &ToolPattern, part: &str) -> bool {
    let arg = p.argument.as_deref().unwrap_or("");
    match p.kind {
        PatternKind::CommandExact => part == unescape_stars(arg),
        PatternKind::CommandPrefix => {
            let prefix = unescape_stars(arg);
            part == prefix || part.strip_prefix(prefix.as_str()).is_some_and(|r| r.starts_with(' '))
        }
        PatternKind::CommandGlob => {
            if wildcard_match(arg, part, true) {
                return true;
            }
            // A single wildcard at the end after a space may match nothing: `ls *` allows `ls`.
            let stars = (0..arg.len())
                .filter(|&i| {
                    arg.as_bytes()[i] == b'*'
                        && arg.as_bytes()[..i].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 0
                })
                .count();
            stars == 1 && arg.ends_with(" *") && !arg.ends_with("\\ *") && part == unescape_stars(&arg[..arg.len() - 2])
        }
        _ => false,
    }
}

fn unescape_stars(s: &str) -> String {
    s.replace("\\*", "*")
}

/// `*` matches any text (with `escapes`, `\*` is a literal star); everything else literally.
fn wildcard_match(pattern: &str, text: &str, escapes: bool) -> bool {
    // Tokens: Some(c) a literal character, None a star.
    let mut toks: Vec<Option<char>> = Vec::new();
    let mut it = pattern.chars().peekable();
    while let Some(c) = it.next() {
        if escapes && c == '\\' && it.peek() == Some(&'*') {
            it.next();
            toks.push(Some('*'));
        } else if c == '*' {
            if toks.last() != Some(&None) {
                toks.push(None);
            }
        } else {
            toks.push(Some(c));
        }
    }
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match toks.get(pi) {
            Some(Some(c)) if *c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            Some(None) => {
                star = Some((pi, ti));
                pi += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    toks[pi.min(toks.len())..].iter().all(Option::is_none)
}

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

fn is_drive_path(p: &str) -> bool {
    let b = p.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b.len() == 2 || b[2] == b'/' || b[2] == b'\\')
}

/// Normalises a path lexically, without a filesystem: `\` becomes `/`, repeated slashes and `.`
/// segments go, `..` removes the segment before it. An absolute path (`/…` or `C:/…`) keeps its
/// root (`..` at the root stays at the root, as in POSIX); a relative path whose `..` would climb
/// above its start is refused. Also refused: NUL, and percent-encoded dots, slashes, backslashes
/// or NUL (`%2e`, `%2f`, `%5c`, `%00`, any case), which no legitimate path needs and which
/// decode into traversal elsewhere. `None` means refused.
pub fn normalize_path(path: &str) -> Option<String> {
    if path.contains('\0') {
        return None;
    }
    let lower = path.to_ascii_lowercase();
    if ["%2e", "%2f", "%5c", "%00"].iter().any(|e| lower.contains(e)) {
        return None;
    }
    let p = path.replace('\\', "/");
    let (root, rest) = if let Some(r) = p.strip_prefix('/') {
        ("/".to_string(), r)
    } else if is_drive_path(&p) {
        (format!("{}/", &p[..2]), p.get(2..).unwrap_or(""))
    } else {
        (String::new(), p.as_str())
    };
    let mut segs: Vec<&str> = Vec::new();
    for s in rest.split('/') {
        match s {
            "" | "." => {}
            ".." => {
                if segs.pop().is_none() && root.is_empty() {
                    return None;
                }
            }
            s => segs.push(s),
        }
        if segs.len() > MAX_PATH_SEGMENTS {
            return None;
        }
    }
    Some(format!("{root}{}", segs.join("/")))
}

fn is_absolute(p: &str) -> bool {
    p.starts_with('/') || is_drive_path(p)
}

fn join(base: &str, rel: &str) -> String {
    if base.ends_with('/') {
        format!("{base}{rel}")
    } else {
        format!("{base}/{rel}")
    }
}

/// An input path, absolute when the context allows it, normalised.
fn resolve(path: &str, ctx: &PermissionContext) -> Option<String> {
    let path = path.trim();
    if path.is_empty() {
        return None;
    }
    let joined = if path == "~" || path.starts_with("~/") || path.starts_with("~\\") {
        join(ctx.home.as_deref()?, path.get(2..).unwrap_or(""))
    } else if is_absolute(&path.replace('\\', "/")) {
        path.to_string()
    } else if let Some(cwd) = &ctx.cwd {
        normalize_path(path)?; // a relative path may not climb above its own start
        join(cwd, path)
    } else {
        path.to_string()
    };
    normalize_path(&joined)
}

/// A path pattern, resolved like an input path (see the module documentation).
fn resolve_pattern(pattern: &str, ctx: &PermissionContext) -> Option<String> {
    let p = pattern.trim().replace('\\', "/");
    let base = |rel: &str| -> Option<String> {
        let rel = if rel.contains('/') { rel.to_string() } else { format!("**/{rel}") };
        match &ctx.cwd {
            Some(cwd) => normalize_path(&join(cwd, &rel)),
            None => normalize_path(&rel),
        }
    };
    if let Some(abs) = p.strip_prefix("//") {
        normalize_path(&format!("/{abs}"))
    } else if p == "~" || p.starts_with("~/") {
        normalize_path(&join(ctx.home.as_deref()?, p.get(2..).unwrap_or("")))
    } else if is_drive_path(&p) {
        normalize_path(&p)
    } else if let Some(rel) = p.strip_prefix('/') {
        // Relative to where the rules come from: the working directory for a skill.
        base(&format!("./{rel}"))
    } else {
        base(p.strip_prefix("./").unwrap_or(&p))
    }
}

fn path_glob_covers(glob: &str, path: &str, directory: bool) -> bool {
    if is_absolute(glob) != is_absolute(path) {
        return false;
    }
    let g: Vec<&str> = glob.split('/').filter(|s| !s.is_empty()).collect();
    let s: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if glob_segments(&g, &s) {
        return true;
    }
    if directory {
        // `<base>/**` covers every directory at or below `<base>`.
        if let Some((last, base)) = g.split_last() {
            if *last == "**" && base.iter().all(|seg| !seg.contains(['*', '?'])) {
                return s.len() >= base.len() && s.iter().zip(base.iter()).all(|(a, b)| a == b);
            }
        }
    }
    false
}

/// Segment-wise glob match: `**` is any number of segments, other segments use `*`/`?`.
fn glob_segments(p: &[&str], s: &[&str]) -> bool {
    let n = s.len();
    // next[j]: does p[i+1..] match s[j..]?
    let mut next = vec![false; n + 1];
    next[n] = true;
    for seg in p.iter().rev() {
        let mut cur = vec![false; n + 1];
        if *seg == "**" {
            for j in (0..=n).rev() {
                cur[j] = next[j] || (j < n && cur[j + 1]);
            }
        } else {
            for j in (0..n).rev() {
                cur[j] = next[j + 1] && segment_match(seg, s[j]);
            }
        }
        next = cur;
    }
    next[0]
}

fn segment_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = name.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(c) if *c == '?' || *c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi.min(p.len())..].iter().all(|c| *c == '*')
}

/// Whether `path` is one of `skill_dirs` or inside one, after normalising both lexically (see
/// [`normalize_path`]): `/a/skills/pdf` contains `/a/skills/pdf/x.md` but not
/// `/a/skills/pdf-evil/x.md` nor `/a/skills/pdf/../other`. Relative paths compare with relative
/// directories (storage keys; `""` is the store's root), absolute with absolute. Refused
/// (false): NUL, percent-encoded dots and slashes, a relative path climbing above its start.
pub fn is_in_skill_directory(path: &str, skill_dirs: &[&str]) -> bool {
    let Some(p) = normalize_path(path.trim()) else { return false };
    skill_dirs.iter().any(|d| {
        let Some(dir) = normalize_path(d.trim()) else { return false };
        if is_absolute(&dir) != is_absolute(&p) {
            return false;
        }
        if dir.is_empty() {
            return true;
        }
        if dir.ends_with('/') {
            // A root (`/` or `C:/`).
            return p.starts_with(&dir);
        }
        p == dir || p.strip_prefix(&dir).is_some_and(|r| r.starts_with('/'))
    })
}

// ---------------------------------------------------------------------------------------------
// URLs
// ---------------------------------------------------------------------------------------------

/// The lower-cased host of an http(s) URL.
fn url_host(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if hostport.starts_with('[') {
        &hostport[..hostport.find(']')? + 1]
    } else {
        hostport.split(':').next().unwrap_or("")
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() || host.contains(['%', '\0', ' ']) {
        return None;
    }
    Some(host)
}

fn domain_matches(domain: &str, host: &str) -> bool {
    match domain.strip_prefix("*.") {
        Some(base) => host.strip_suffix(base).is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
        None => host == domain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn skill(name: &str, tools: &[&str]) -> Skill {
        Skill { name: name.into(), allowed_tools: tools.iter().map(|s| s.to_string()).collect(), ..Default::default() }
    }

    fn allowed(tools: &[&str], tool: &str, input: serde_json::Value) -> bool {
        let s = skill("s", tools);
        is_tool_allowed(&[&s], tool, Some(&input)).allowed
    }

    fn bash(tools: &[&str], cmd: &str) -> bool {
        allowed(tools, "Bash", json!({ "command": cmd }))
    }

    fn pat(entry: &str) -> ToolPattern {
        ToolPattern::parse(entry).unwrap_or_else(|d| panic!("{entry}: {}", d.message))
    }

    // ---- parsing

    #[test]
    fn parse_kinds() {
        let k = |e: &str| {
            let p = pat(e);
            (p.tool, p.kind, p.argument)
        };
        assert_eq!(k("Read"), ("Read".into(), PatternKind::Any, None));
        assert_eq!(k("Bash(*)"), ("Bash".into(), PatternKind::Any, None));
        assert_eq!(k("Bash(:*)"), ("Bash".into(), PatternKind::Any, None));
        assert_eq!(k("Bash(git:*)"), ("Bash".into(), PatternKind::CommandPrefix, Some("git".into())));
        assert_eq!(k("Bash( git  add :*)"), ("Bash".into(), PatternKind::CommandPrefix, Some("git add".into())));
        assert_eq!(k("Bash(npm run test)"), ("Bash".into(), PatternKind::CommandExact, Some("npm run test".into())));
        assert_eq!(k("Bash(git * main)"), ("Bash".into(), PatternKind::CommandGlob, Some("git * main".into())));
        assert_eq!(k(r"Bash(echo \*)"), ("Bash".into(), PatternKind::CommandExact, Some(r"echo \*".into())));
        assert_eq!(k("Read(./src/**)"), ("Read".into(), PatternKind::Path, Some("./src/**".into())));
        assert_eq!(k("Edit(docs/*.md)"), ("Edit".into(), PatternKind::Path, Some("docs/*.md".into())));
        assert_eq!(
            k("WebFetch(domain:Example.COM.)"),
            ("WebFetch".into(), PatternKind::Domain, Some("example.com".into()))
        );
        assert_eq!(k("mcp__github__create_issue"), ("mcp__github__create_issue".into(), PatternKind::Any, None));
        assert_eq!(k("mcp__github"), ("mcp__github".into(), PatternKind::McpServer, Some("github".into())));
        assert_eq!(k("mcp__github__*"), ("mcp__github__*".into(), PatternKind::ToolGlob, None));
        assert_eq!(k("mcp__*"), ("mcp__*".into(), PatternKind::ToolGlob, None));
        assert_eq!(k("*"), ("*".into(), PatternKind::ToolGlob, None));
        assert_eq!(
            k("mcp__db__query(table:users)"),
            ("mcp__db__query".into(), PatternKind::Param, Some("table:users".into()))
        );
        assert_eq!(k("bash(git:*)"), ("Bash".into(), PatternKind::CommandPrefix, Some("git".into())));
    }

    #[test]
    fn parse_errors_are_diagnostics() {
        for bad in [
            "",
            "Bash(git:*",
            "Bash)",
            "(x)",
            "Bash()",
            "Two Words",
            "WebFetch(example.com)",
            "mcp__",
            "mcp__*(x:y)",
            "Skill(pdf)",
            "Read\0",
            "Bash(git(:*)x",
        ] {
            let d = ToolPattern::parse(bad).err().unwrap_or_else(|| panic!("{bad:?} parsed"));
            assert_eq!(d.code, "allowed-tools-invalid", "{bad:?}");
            assert!(d.is_error());
        }
        let long = format!("Read({})", "a/".repeat(100));
        assert!(ToolPattern::parse(&long).is_err());
    }

    #[test]
    fn parse_list_with_diagnostics() {
        let entries: Vec<String> = ["Read", "bash(git:*)", "Bash(oops", "Grep"].iter().map(|s| s.to_string()).collect();
        let a = parse_allowed_tools(&entries);
        assert_eq!(a.patterns.iter().map(|p| p.raw.as_str()).collect::<Vec<_>>(), vec!["Read", "bash(git:*)", "Grep"]);
        assert_eq!(
            a.diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(),
            vec!["allowed-tools-case", "allowed-tools-invalid"]
        );
    }

    #[test]
    fn split_tools_output_parses() {
        let entries = crate::parse::validate::split_tools("Read, Bash(git add:*), Bash(npm run test), mcp__github");
        let a = parse_allowed_tools(&entries);
        assert!(a.diagnostics.is_empty());
        assert_eq!(a.patterns.len(), 4);
    }

    // ---- bare tools, globs, MCP

    #[test]
    fn bare_tools() {
        assert!(allowed(&["Read"], "Read", json!({ "file_path": "/etc/passwd" })));
        assert!(!allowed(&["Read"], "Edit", json!({})));
        assert!(allowed(&["WebFetch"], "WebFetch", json!({ "url": "https://x.y" })));
        let s = skill("s", &["Grep"]);
        assert!(is_tool_allowed(&[&s], "Grep", None).allowed);
        assert!(allowed(&["Bash"], "Bash", json!({ "command": "rm -rf / && $(x)" })));
        // Case of built-in names does not matter; other names are exact.
        assert!(allowed(&["read"], "Read", json!({})));
        assert!(allowed(&["Read"], "read", json!({})));
        assert!(!allowed(&["mcp__gh__x"], "mcp__GH__x", json!({})));
    }

    #[test]
    fn families() {
        assert!(allowed(&["Read"], "Grep", json!({})));
        assert!(allowed(&["Read"], "LS", json!({})));
        assert!(allowed(&["Edit"], "Write", json!({})));
        assert!(allowed(&["Edit"], "MultiEdit", json!({})));
        assert!(!allowed(&["Edit"], "Read", json!({})));
        assert!(!allowed(&["Write"], "Edit", json!({})));
    }

    #[test]
    fn mcp_patterns() {
        assert!(allowed(&["mcp__github__create_issue"], "mcp__github__create_issue", json!({})));
        assert!(!allowed(&["mcp__github__create_issue"], "mcp__github__delete_repo", json!({})));
        assert!(allowed(&["mcp__github"], "mcp__github__delete_repo", json!({})));
        assert!(!allowed(&["mcp__github"], "mcp__githubx__a", json!({})));
        assert!(!allowed(&["mcp__github"], "mcp__github", json!({})) || pat("mcp__github").covers_tool("mcp__github"));
        assert!(allowed(&["mcp__github__*"], "mcp__github__x", json!({})));
        assert!(!allowed(&["mcp__github__*"], "mcp__gitlab__x", json!({})));
        assert!(allowed(&["mcp__*"], "mcp__any__thing", json!({})));
        assert!(!allowed(&["mcp__*"], "Bash", json!({ "command": "ls" })));
        assert!(allowed(&["*"], "Bash", json!({ "command": "anything; at all" })));
    }

    #[test]
    fn param_patterns() {
        assert!(allowed(&["mcp__db__query(table:users)"], "mcp__db__query", json!({ "table": "users" })));
        assert!(!allowed(&["mcp__db__query(table:users)"], "mcp__db__query", json!({ "table": "secrets" })));
        assert!(allowed(&["mcp__db__query(table:log_*)"], "mcp__db__query", json!({ "table": "log_2024" })));
        assert!(allowed(&["mcp__db__query(limit:10)"], "mcp__db__query", json!({ "limit": 10 })));
        assert!(!allowed(&["mcp__db__query(table:users)"], "mcp__db__query", json!({})));
    }

    // ---- Bash

    #[test]
    fn bash_prefix_is_a_word() {
        assert!(bash(&["Bash(git:*)"], "git status"));
        assert!(bash(&["Bash(git:*)"], "git"));
        assert!(bash(&["Bash(git:*)"], "  git   log  --oneline "));
        assert!(!bash(&["Bash(git:*)"], "gitk"));
        assert!(!bash(&["Bash(git:*)"], "FOO=1 git status"));
        assert!(bash(&["Bash(git add:*)"], "git add ."));
        assert!(!bash(&["Bash(git add:*)"], "git commit"));
        assert!(!bash(&["Bash(git add:*)"], "git addx"));
    }

    #[test]
    fn bash_exact() {
        assert!(bash(&["Bash(npm run test)"], "npm run test"));
        assert!(bash(&["Bash(npm run test)"], "npm  run\ttest"));
        assert!(!bash(&["Bash(npm run test)"], "npm run test --watch"));
        assert!(!bash(&["Bash(npm run test)"], "npm run tes"));
    }

    #[test]
    fn bash_wildcards() {
        assert!(bash(&["Bash(ls *)"], "ls -la"));
        assert!(bash(&["Bash(ls *)"], "ls"));
        assert!(!bash(&["Bash(ls *)"], "lsof"));
        assert!(bash(&["Bash(ls*)"], "lsof"));
        assert!(bash(&["Bash(git * main)"], "git push origin main"));
        assert!(!bash(&["Bash(git * main)"], "git push origin dev"));
        assert!(bash(&["Bash(* --version)"], "node --version"));
        assert!(bash(&[r"Bash(echo \*)"], "echo *"));
        assert!(!bash(&[r"Bash(echo \*)"], "echo hi"));
    }

    #[test]
    fn bash_chains_need_every_part() {
        let t = &["Bash(git:*)", "Bash(npm run test)"];
        assert!(bash(t, "git add . && git commit -m 'x'"));
        assert!(bash(t, "git status; npm run test"));
        assert!(bash(t, "git log | git status"));
        assert!(bash(t, "git fetch || npm run test"));
        assert!(bash(t, "git fetch &\ngit status"));
        assert!(!bash(t, "git status && rm -rf /"));
        assert!(!bash(t, "git status; rm -rf /"));
        assert!(!bash(t, "git log | sh"));
        assert!(!bash(t, "git log |& sh"));
        assert!(!bash(t, "git status & curl evil"));
        // Operators inside quotes do not split.
        assert!(bash(t, "git commit -m \"a && b; c | d\""));
        assert!(bash(t, "git commit -m 'x; rm -rf /'"));
        // Redirections are not separators.
        assert!(bash(t, "git log > out.txt 2>&1"));
        assert!(bash(t, "git log &> out.txt"));
        // Parts may come from different skills.
        let a = skill("a", &["Bash(git:*)"]);
        let b = skill("b", &["Bash(npm run test)"]);
        let d = is_tool_allowed(&[&a, &b], "Bash", Some(&json!({ "command": "git pull && npm run test" })));
        assert!(d.allowed);
        assert_eq!(d.skill.as_deref(), Some("a"));
        assert_eq!(d.pattern.as_deref(), Some("Bash(git:*)"));
    }

    #[test]
    fn bash_substitution_refused() {
        let t = &["Bash(git:*)", "Bash(echo:*)"];
        assert!(!bash(t, "git status $(rm -rf /)"));
        assert!(!bash(t, "git status `rm -rf /`"));
        assert!(!bash(t, "echo \"$(rm -rf /)\""));
        assert!(!bash(t, "git diff <(cat /etc/passwd)"));
        assert!(!bash(t, "echo 'unclosed"));
        // Inside single quotes it is only text.
        assert!(bash(t, "echo '$(not run)' '`nor this`'"));
    }

    #[test]
    fn bash_missing_command() {
        let s = skill("s", &["Bash(git:*)"]);
        let d = is_tool_allowed(&[&s], "Bash", None);
        assert!(!d.allowed);
        assert!(d.reason.contains("no command"));
        assert!(!bash(&["Bash(git:*)"], " ; ; "));
    }

    // ---- paths

    #[test]
    fn read_path_globs() {
        let t = &["Read(./src/**)"];
        assert!(allowed(t, "Read", json!({ "file_path": "src/a.rs" })));
        assert!(allowed(t, "Read", json!({ "file_path": "./src/deep/er/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "srcx/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "src/../secret" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "../src/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "/abs/src/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "src/%2e%2e/x" })));
        assert!(!allowed(t, "Read", json!({})));
        // Family: Grep is a read.
        assert!(allowed(t, "Grep", json!({ "pattern": "fn .*", "path": "src/x" })));
        assert!(!allowed(t, "Grep", json!({ "pattern": "fn" })));
        assert!(!allowed(t, "Edit", json!({ "file_path": "src/a.rs" })));
    }

    #[test]
    fn single_star_stays_in_segment() {
        let t = &["Edit(docs/*.md)"];
        assert!(allowed(t, "Edit", json!({ "file_path": "docs/a.md" })));
        assert!(allowed(t, "Write", json!({ "file_path": "docs/b.md" })));
        assert!(!allowed(t, "Edit", json!({ "file_path": "docs/sub/a.md" })));
        assert!(!allowed(t, "Edit", json!({ "file_path": "docs/a.txt" })));
        let t = &["Edit(docs/**/*.md)"];
        assert!(allowed(t, "Edit", json!({ "file_path": "docs/a.md" })));
        assert!(allowed(t, "Edit", json!({ "file_path": "docs/x/y/a.md" })));
        let t = &["Read(*.env)"];
        // As in gitignore, `*` also matches a leading dot.
        assert!(allowed(t, "Read", json!({ "file_path": "a/b/.env" })));
        assert!(allowed(t, "Read", json!({ "file_path": "a/b/prod.env" })));
        assert!(allowed(t, "Read", json!({ "file_path": "x.env" })));
        let t = &["Read(src/?.rs)"];
        assert!(allowed(t, "Read", json!({ "file_path": "src/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "src/ab.rs" })));
    }

    #[test]
    fn paths_with_context() {
        let ctx = PermissionContext { cwd: Some("/home/u/proj".into()), home: Some("/home/u".into()) };
        let check = |tools: &[&str], tool: &str, input: serde_json::Value| {
            let s = skill("s", tools);
            is_tool_allowed_with(&[&s], tool, Some(&input), &ctx).allowed
        };
        assert!(check(&["Read(./src/**)"], "Read", json!({ "file_path": "/home/u/proj/src/a.rs" })));
        assert!(check(&["Read(./src/**)"], "Read", json!({ "file_path": "src/a.rs" })));
        assert!(!check(&["Read(./src/**)"], "Read", json!({ "file_path": "/home/u/proj/src/../../other/a" })));
        assert!(check(&["Read(/src/**)"], "Read", json!({ "file_path": "/home/u/proj/src/a.rs" })));
        assert!(check(&["Read(//etc/hosts)"], "Read", json!({ "file_path": "/etc/hosts" })));
        assert!(!check(&["Read(//etc/hosts)"], "Read", json!({ "file_path": "/etc/passwd" })));
        assert!(check(&["Read(~/notes/**)"], "Read", json!({ "file_path": "/home/u/notes/a.md" })));
        assert!(check(&["Read(~/notes/**)"], "Read", json!({ "file_path": "~/notes/a.md" })));
        assert!(check(&["Read(C:\\data\\**)"], "Read", json!({ "file_path": "C:\\data\\x\\y.txt" })));
        // Directory tools need the whole directory covered.
        assert!(check(&["Read(./src/**)"], "Grep", json!({ "pattern": "x", "path": "/home/u/proj/src" })));
        assert!(check(&["Read(./src/**)"], "Glob", json!({ "pattern": "**/*.rs", "path": "src/lib" })));
        assert!(!check(&["Read(./src/**)"], "Glob", json!({ "pattern": "**/*.rs" })));
        assert!(!check(&["Read(./src/**)"], "Glob", json!({ "pattern": "../**", "path": "src" })));
        assert!(!check(&["Read(./src/*.rs)"], "LS", json!({ "path": "src" })));
        assert!(check(&["Read(./**)"], "Glob", json!({ "pattern": "*.rs" })));
        // No home: `~` patterns match nothing.
        let s = skill("s", &["Read(~/x/**)"]);
        assert!(!is_tool_allowed(&[&s], "Read", Some(&json!({ "file_path": "~/x/a" }))).allowed);
    }

    #[test]
    fn notebook_paths() {
        assert!(allowed(&["Edit(nb/**)"], "NotebookEdit", json!({ "notebook_path": "nb/a.ipynb" })));
        assert!(!allowed(&["Edit(nb/**)"], "NotebookEdit", json!({ "notebook_path": "other/a.ipynb" })));
    }

    // ---- WebFetch

    #[test]
    fn webfetch_domains() {
        let t = &["WebFetch(domain:example.com)"];
        let f = |url: &str| allowed(t, "WebFetch", json!({ "url": url }));
        assert!(f("https://example.com/a?b"));
        assert!(f("http://EXAMPLE.com:8080"));
        assert!(f("https://user:pw@example.com./x"));
        assert!(!f("https://www.example.com/"));
        assert!(!f("https://example.com.evil.net/"));
        assert!(!f("https://evil.net/?example.com"));
        assert!(!f("https://example.com@evil.net/"));
        assert!(!f("https://evil.net\\@example.com/"));
        assert!(f("https://example.com\\@evil.net/"));
        assert!(!f("ftp://example.com/"));
        assert!(!f("example.com"));
        assert!(!allowed(t, "WebFetch", json!({})));
        let w = &["WebFetch(domain:*.example.com)"];
        assert!(allowed(w, "WebFetch", json!({ "url": "https://docs.example.com/" })));
        assert!(allowed(w, "WebFetch", json!({ "url": "https://a.b.example.com/" })));
        assert!(!allowed(w, "WebFetch", json!({ "url": "https://example.com/" })));
        assert!(!allowed(w, "WebFetch", json!({ "url": "https://badexample.com/" })));
    }

    // ---- decisions

    #[test]
    fn decision_reports_skill_and_pattern() {
        let a = skill("a", &["Read"]);
        let b = skill("b", &["Bash(git:*)"]);
        let d = is_tool_allowed(&[&a, &b], "Bash", Some(&json!({ "command": "git status" })));
        assert_eq!(
            d,
            ToolDecision {
                allowed: true,
                skill: Some("b".into()),
                pattern: Some("Bash(git:*)".into()),
                reason: "'Bash(git:*)' of skill 'b' allows the command".into()
            }
        );
        let d = is_tool_allowed(&[&a], "Bash", Some(&json!({ "command": "git status" })));
        assert_eq!(
            d,
            ToolDecision {
                allowed: false,
                skill: None,
                pattern: None,
                reason: "no active skill lists Bash in allowed-tools".into()
            }
        );
        let d = is_tool_allowed(&[], "Read", None);
        assert!(!d.allowed);
        let d = is_tool_allowed(&[&b], "Bash", Some(&json!({ "command": "rm x" })));
        assert_eq!(d.reason, "no active skill allows the command 'rm x'");
    }

    #[test]
    fn bad_entries_grant_nothing() {
        assert!(!bash(&["Bash(git:*"], "git status"));
        assert!(!allowed(&["Read(", "Read)"], "Read", json!({ "file_path": "a" })));
    }

    // ---- normalize_path and is_in_skill_directory

    #[test]
    fn normalizes() {
        assert_eq!(normalize_path("/a//b/./c/../d/").as_deref(), Some("/a/b/d"));
        assert_eq!(normalize_path("a\\b\\..\\c").as_deref(), Some("a/c"));
        assert_eq!(normalize_path("/../../etc").as_deref(), Some("/etc"));
        assert_eq!(normalize_path("C:\\x\\..\\y").as_deref(), Some("C:/y"));
        assert_eq!(normalize_path("./").as_deref(), Some(""));
        assert_eq!(normalize_path("a/../../b"), None);
        assert_eq!(normalize_path("../x"), None);
        assert_eq!(normalize_path("a/%2E%2e/b"), None);
        assert_eq!(normalize_path("a/%2fb"), None);
        assert_eq!(normalize_path("a\0b"), None);
    }

    #[test]
    fn skill_directory_containment() {
        let dirs = ["/a/skills/pdf"];
        let inside = |p: &str| is_in_skill_directory(p, &dirs);
        assert!(inside("/a/skills/pdf/x.md"));
        assert!(inside("/a/skills/pdf/scripts/run.py"));
        assert!(inside("/a/skills/pdf"));
        assert!(inside("/a/skills/pdf/"));
        assert!(inside("/a/skills//pdf/./refs/../x.md"));
        assert!(inside("\\a\\skills\\pdf\\x.md"));
        assert!(!inside("/a/skills/pdf-evil/x.md"));
        assert!(!inside("/a/skills/pdf/../other"));
        assert!(!inside("/a/skills/pdf/../pdf-evil/x.md"));
        assert!(!inside("/a/skills/pdf/..\\..\\secrets"));
        assert!(!inside("/a/skills/pdf/%2e%2e/other"));
        assert!(!inside("/a/skills/pdf/%2E%2E%2Fother"));
        assert!(!inside("/etc/passwd"));
        assert!(!inside("/a/skills/pdf/x.md\0"));
        assert!(!inside("a/skills/pdf/x.md"));
        assert!(!inside(""));
        assert!(!is_in_skill_directory("/a/skills/pdf/x.md", &[]));
    }

    #[test]
    fn relative_skill_directories() {
        let dirs = ["skills/pdf", "skills/docx/"];
        assert!(is_in_skill_directory("skills/pdf/x.md", &dirs));
        assert!(is_in_skill_directory("skills/docx/a/b.md", &dirs));
        assert!(!is_in_skill_directory("../skills/pdf/x.md", &dirs));
        assert!(!is_in_skill_directory("..\\skills\\pdf\\x.md", &dirs));
        assert!(!is_in_skill_directory("a/../../skills/pdf/x.md", &dirs));
        assert!(!is_in_skill_directory("skills/pdf/../../b", &dirs));
        assert!(!is_in_skill_directory("/skills/pdf/x.md", &dirs));
        assert!(is_in_skill_directory("skills/pdf/../docx/x.md", &dirs));
        // The store's root contains every relative path, no absolute one.
        assert!(is_in_skill_directory("x.md", &[""]));
        assert!(!is_in_skill_directory("/x.md", &[""]));
        // A bad directory contains nothing.
        assert!(!is_in_skill_directory("x/a", &["x/%2e%2e"]));
    }

    #[test]
    fn huge_inputs_are_bounded() {
        let deep = "a/".repeat(100_000);
        assert!(!is_in_skill_directory(&deep, &["a"]));
        let cmd = "git status && ".repeat(10_000) + "git log";
        assert!(bash(&["Bash(git:*)"], &cmd));
        let star = format!("Bash({}x)", "*a".repeat(50));
        assert!(!bash(&[&star], &"a".repeat(100_000)));
    }

    proptest::proptest! {
        #[test]
        fn never_panics(entry in "[ -~]{0,40}", value in "[ -~é\\n]{0,80}", tool in "(Bash|Read|Grep|Glob|WebFetch|mcp__a__b|LS|X)") {
            let s = skill("s", &[&entry, "Bash(git:*)", "Read(src/**)", "WebFetch(domain:a.b)"]);
            let input = json!({ "command": value, "file_path": value, "path": value, "pattern": value, "url": value });
            let ctx = PermissionContext { cwd: Some("/w".into()), home: Some("/h".into()) };
            let _ = is_tool_allowed_with(&[&s], &tool, Some(&input), &ctx);
            let _ = is_tool_allowed(&[&s], &tool, Some(&input));
            let _ = is_in_skill_directory(&value, &[&entry, "/a/b", ""]);
            let _ = normalize_path(&value);
        }
    }
}
