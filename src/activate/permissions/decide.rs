//! Whether the active skills pre-approve a tool call.

use super::command::*;
use super::path::*;
use super::pattern::*;
use super::shell;
use super::url::*;
use super::*;
use crate::parse::Skill;

/// Whether one of the `active` skills pre-approves a call of `tool` with `input` (paths relative
/// to nothing; see [`is_tool_allowed_with`]).
pub fn is_tool_allowed(active: &[&Skill], tool: &str, input: Option<&serde_json::Value>) -> ToolDecision {
    is_tool_allowed_with(active, tool, input, &PermissionContext::default())
}

/// Whether one of the `active` skills pre-approves a call of `tool` with `input`.
///
/// - An entry that allows every call of the tool wins at once.
/// - `Bash`: the input's `command` is read as bash reads it (see the `shell` module): it must be
///   a list of simple commands (joined by `&&`, `||`, `;`, `|`, `|&` or newlines) whose words are
///   literal after quote removal, with no expansion, substitution, glob, assignment, background
///   job, compound command or redirection other than `2>&1`-style duplicates and `/dev/null`.
///   Anything else is denied with the reason, unless an entry allows every command. Each simple
///   command must be allowed by some entry of some active skill, word by word (`Bash(git:*)`
///   does not allow `git status && rm -rf /`), and an option or program that makes it run
///   another program (git's `-c`, `find -exec`, `xargs`, `sh`, ...) must be named by the entry.
/// - File tools: `Read`, `Edit`, `Write`, `MultiEdit` check `file_path`; `NotebookEdit` and
///   `NotebookRead` `notebook_path`; `Grep`, `Glob` and `LS` check `path` (the working directory
///   when absent) and are allowed only when the pattern covers that whole directory (it matches
///   the directory, or is `<dir>/**` of it or of a directory above). `Grep`'s `pattern` is a regex
///   and is not a path; `Glob`'s `pattern` must not be absolute nor contain `..`. Paths are
///   normalised lexically (see [`normalize_path`]); a path with `..` above its start, NUL or
///   percent-encoded dots and slashes is never allowed.
/// - `WebFetch`: the host of the input's `url` (http or https; port, a trailing dot and case
///   ignored). A URL that parsers read differently is denied: one with user info or `@` in its
///   authority, a backslash, whitespace or a control character anywhere.
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
        let Some(cmd) = str_field("command") else {
            return deny(format!("the {tool} call has no command to check against the skills' patterns"));
        };
        let commands = match shell::read(cmd, shell::Mode::Command) {
            Err(why) => {
                return deny(format!("the command {why}; only an entry allowing every command allows it"));
            }
            Ok(c) if c.is_empty() => return deny("the command is empty".to_string()),
            Ok(c) => c,
        };
        let patterns: Vec<(&str, &ToolPattern, CommandPattern)> = command_grants
            .iter()
            .filter_map(|(s, p)| {
                let arg = p.argument.as_deref()?;
                Some((*s, p, CommandPattern::new(p.kind, arg).ok()?))
            })
            .collect();
        let mut first: Option<(&str, &ToolPattern)> = None;
        for words in &commands {
            let words: Vec<String> = words.iter().map(|w| shell::text(w)).collect();
            let shown = truncate(&words.join(" "), 200);
            let mut hazard: Option<String> = None;
            let mut allowed_by = None;
            for (s, p, cp) in &patterns {
                match cp.verdict(&words) {
                    Verdict::Allows => {
                        allowed_by = Some((*s, *p));
                        break;
                    }
                    Verdict::Hazard(why) => {
                        hazard.get_or_insert(format!("{why} ('{}' of skill '{s}')", p.raw));
                    }
                    Verdict::NoMatch => {}
                }
            }
            match (allowed_by, hazard) {
                (Some(g), _) => {
                    first.get_or_insert(g);
                }
                (None, Some(why)) => return deny(format!("the command '{shown}' is not allowed: {why}")),
                (None, None) => return deny(format!("no active skill allows the command '{shown}'")),
            }
        }
        if let Some((s, p)) = first {
            let reason = if commands.len() == 1 {
                format!("'{}' of skill '{}' allows the command", p.raw, s)
            } else {
                format!(
                    "each of the {} commands is allowed by an active skill ('{}' of skill '{}' allows the first)",
                    commands.len(),
                    p.raw,
                    s
                )
            };
            return allow(s, p, reason);
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
        let Some(url) = str_field("url") else {
            return deny(format!("the {tool} call has no URL"));
        };
        let host = match url_host(url) {
            Ok(host) => host,
            Err(why) => return deny(format!("the URL '{}' {why}", truncate(url, 200))),
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

pub(super) fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activate::permissions::fixtures::*;
    use serde_json::json;

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
}
