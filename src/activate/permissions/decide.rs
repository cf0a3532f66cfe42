//! Whether the active skills pre-approve a tool call.

use super::command::*;
use super::path::*;
use super::pattern::*;
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
