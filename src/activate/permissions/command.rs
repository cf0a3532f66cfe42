//! Shell commands: splitting a command line into the commands it runs, and matching each against
//! `Bash(...)` patterns.

use super::*;

pub(super) fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(super) fn has_unescaped_star(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| b[i] == b'*' && b[..i].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 0)
}

/// Splits a shell command into the commands it runs, or says why it cannot be checked.
pub(super) fn split_command(cmd: &str) -> Result<Vec<String>, &'static str> {
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

pub(super) fn command_matches(p: &ToolPattern, part: &str) -> bool {
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

pub(super) fn unescape_stars(s: &str) -> String {
    s.replace("\\*", "*")
}

/// `*` matches any text (with `escapes`, `\*` is a literal star); everything else literally.
pub(super) fn wildcard_match(pattern: &str, text: &str, escapes: bool) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activate::permissions::fixtures::*;
    use serde_json::json;

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
}
