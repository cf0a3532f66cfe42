//! Reading `allowed-tools` entries into patterns.

use super::command::*;
use super::shell;
use super::*;
use crate::diagnostic::{codes, Diagnostic};

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
        if raw.matches('(').count() != raw.matches(')').count() {
            return Err(invalid(
                raw,
                "has unbalanced parentheses (entries are separated by spaces or commas outside parentheses)",
            ));
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
                CommandPattern::new(PatternKind::CommandPrefix, &prefix)
                    .map_err(|why| invalid(raw, &format!("has a command the matcher cannot read: it {why}")))?;
                return Ok(make(PatternKind::CommandPrefix, Some(&prefix)));
            }
            let cmd = collapse_ws(spec);
            let words = shell::read(&cmd, shell::Mode::Pattern)
                .map_err(|why| invalid(raw, &format!("has a command the matcher cannot read: it {why}")))?;
            let star = words.iter().flatten().flatten().any(|c| c.c == '*' && !c.quoted);
            let kind = if star { PatternKind::CommandGlob } else { PatternKind::CommandExact };
            CommandPattern::new(kind, &cmd)
                .map_err(|why| invalid(raw, &format!("has a command the matcher cannot read: it {why}")))?;
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

/// Parses a skill's `allowed-tools` list ([`crate::Skill::allowed_tools`], already split by
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
                        codes::ALLOWED_TOOLS_CASE,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activate::permissions::fixtures::*;

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
}
