//! Shell commands: whether a `Bash(...)` pattern allows each simple command a command line runs
//! (the line is read by [`shell`]; what a command may run besides is [`hazards`]).

use super::*;
use super::{hazards, shell};

pub(super) fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A `Bash(...)` pattern read into tokens: literal characters, word boundaries and wildcards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Lit(char),
    Sep,
    Star,
}

/// Whether a command's words match a pattern, and if not quite, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Verdict {
    /// The pattern allows the command.
    Allows,
    /// The pattern does not match the command.
    NoMatch,
    /// The pattern matches, but the command does more than the pattern names (the reason).
    Hazard(String),
}

/// A `Bash(...)` pattern ready to match commands.
pub(super) struct CommandPattern {
    toks: Vec<Tok>,
    kind: PatternKind,
    /// The pattern's words with their wildcards, for naming hazards.
    words: Vec<String>,
}

impl CommandPattern {
    /// Reads the pattern's command by the shell's rules (see [`shell`]), or says why it cannot.
    pub(super) fn new(kind: PatternKind, argument: &str) -> Result<CommandPattern, String> {
        let commands = shell::read(argument, shell::Mode::Pattern)?;
        if commands.len() != 1 {
            return Err("names more than one command".into());
        }
        let words: Vec<&shell::Word> = commands[0].iter().collect();
        let mut toks = Vec::new();
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                toks.push(Tok::Sep);
            }
            for ch in w.iter() {
                toks.push(if ch.c == '*' && !ch.quoted { Tok::Star } else { Tok::Lit(ch.c) });
            }
        }
        Ok(CommandPattern { toks, kind, words: words.iter().map(|w| shell::text(w)).collect() })
    }

    /// Whether the pattern allows one simple command (its words after quote removal).
    pub(super) fn verdict(&self, words: &[String]) -> Verdict {
        let mut text: Vec<Option<char>> = Vec::new();
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                text.push(None);
            }
            text.extend(w.chars().map(Some));
        }
        let matched = match self.kind {
            PatternKind::CommandExact => tokens_match(&self.toks, &text),
            PatternKind::CommandPrefix => {
                tokens_match(&self.toks, &text) || {
                    let mut longer = self.toks.clone();
                    longer.extend([Tok::Sep, Tok::Star]);
                    tokens_match(&longer, &text)
                }
            }
            PatternKind::CommandGlob => {
                tokens_match(&self.toks, &text)
                    || (self.toks.ends_with(&[Tok::Sep, Tok::Star])
                        && tokens_match(&self.toks[..self.toks.len() - 2], &text))
            }
            _ => false,
        };
        if !matched {
            return Verdict::NoMatch;
        }
        match hazards::hazards(words).into_iter().find(|h| !hazards::named(&self.words, h)) {
            Some(h) => Verdict::Hazard(format!(
                "'{h}' makes '{}' run or write more than the pattern names",
                words.first().map(String::as_str).unwrap_or("")
            )),
            None => Verdict::Allows,
        }
    }
}

/// `Star` matches any run of the text (word boundaries included); the rest one for one.
fn tokens_match(toks: &[Tok], text: &[Option<char>]) -> bool {
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < text.len() {
        let here = match (toks.get(pi), text[ti]) {
            (Some(Tok::Star), _) => {
                star = Some((pi, ti));
                pi += 1;
                continue;
            }
            (Some(Tok::Lit(c)), Some(t)) => *c == t,
            (Some(Tok::Sep), None) => true,
            _ => false,
        };
        if here {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    toks[pi.min(toks.len())..].iter().all(|t| *t == Tok::Star)
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
        assert!(bash(&["Bash(git add:*)"], "git add -- a.txt"));
        assert!(!bash(&["Bash(git add:*)"], "git commit"));
        assert!(!bash(&["Bash(git add:*)"], "git addx"));
        // Words after quote removal: quoting does not hide or fake a word.
        assert!(bash(&["Bash(git add:*)"], "'git' \"add\" x"));
        assert!(!bash(&["Bash(git add:*)"], "'git add' x"), "one word 'git add' is another program");
    }

    #[test]
    fn bash_exact() {
        assert!(bash(&["Bash(npm run test)"], "npm run test"));
        assert!(bash(&["Bash(npm run test)"], "npm  run\ttest"));
        assert!(!bash(&["Bash(npm run test)"], "npm run test --watch"));
        assert!(!bash(&["Bash(npm run test)"], "npm run tes"));
        assert!(!bash(&["Bash(npm run test)"], "npm 'run test'"));
    }

    #[test]
    fn bash_wildcards() {
        assert!(bash(&["Bash(ls *)"], "ls -la"));
        assert!(bash(&["Bash(ls *)"], "ls"));
        assert!(!bash(&["Bash(ls *)"], "lsof"));
        assert!(bash(&["Bash(ls*)"], "lsof"));
        assert!(bash(&["Bash(git * main)"], "git push origin main"));
        assert!(!bash(&["Bash(git * main)"], "git push origin dev"));
        assert!(!bash(&["Bash(git * main)"], "git push 'origin main'"), "a word boundary is not a space");
        assert!(bash(&["Bash(* --version)"], "cargo --version"));
        assert!(bash(&[r"Bash(echo \*)"], "echo '*'"));
        assert!(bash(&[r"Bash(echo '*')"], r"echo \*"));
        assert!(!bash(&[r"Bash(echo \*)"], "echo hi"));
        assert!(!bash(&[r"Bash(echo \*)"], "echo *"), "an unquoted glob is refused");
    }

    #[test]
    fn wildcards_name_no_program() {
        assert!(!bash(&["Bash(* --version)"], "sh -c 'rm -rf ~' --version"));
        assert!(!bash(&["Bash(* --version)"], "node --version"), "an interpreter runs code it is given");
        assert!(!bash(&["Bash(* status)"], "xargs status"));
        assert!(bash(&["Bash(xargs:*)"], "xargs echo"), "the pattern names xargs");
    }

    #[test]
    fn options_that_run_other_programs() {
        let git = &["Bash(git:*)"];
        assert!(!bash(git, "git -c alias.x='!touch pwned' x"));
        assert!(!bash(git, "git -c core.pager='touch pwned' -p log"));
        assert!(!bash(git, "git --config-env=core.pager=PAGER log"));
        assert!(!bash(git, "git fetch --upload-pack='touch pwned' origin"));
        assert!(!bash(git, "git rebase --exec 'make test' main"));
        assert!(bash(&["Bash(git rebase -x:*)"], "git rebase -x 'make test' main"), "named by the pattern");
        assert!(!bash(&["Bash(find:*)"], "find . -exec rm {} +"));
        assert!(bash(&["Bash(find:*)"], "find . -name '*.md'"));
        let s = skill("s", &["Bash(git:*)"]);
        let d = is_tool_allowed(&[&s], "Bash", Some(&json!({ "command": "git -c core.pager=x log" })));
        assert!(d.reason.contains("'-c'"), "{}", d.reason);
    }

    #[test]
    fn bash_chains_need_every_part() {
        let t = &["Bash(git:*)", "Bash(npm run test)"];
        assert!(bash(t, "git add . && git commit -m 'x'"));
        assert!(bash(t, "git status; npm run test"));
        assert!(bash(t, "git log | git status"));
        assert!(bash(t, "git fetch || npm run test"));
        assert!(bash(t, "git fetch\ngit status"));
        assert!(!bash(t, "git fetch &\ngit status"), "a background job");
        assert!(!bash(t, "git status && rm -rf /"));
        assert!(!bash(t, "git status; rm -rf /"));
        assert!(!bash(t, "git log | sh"));
        assert!(!bash(t, "git log |& sh"));
        assert!(!bash(t, "git status & curl evil"));
        // Operators inside quotes do not split.
        assert!(bash(t, "git commit -m \"a && b; c | d\""));
        assert!(bash(t, "git commit -m 'x; rm -rf /'"));
        // ANSI-C quoting does not hide a chained command.
        assert!(!bash(t, "git log $'\\'' ; touch /tmp/x ; #'"));
        // Redirections: descriptors and /dev/null only.
        assert!(bash(t, "git log 2>&1 | git status"));
        assert!(bash(t, "git log >/dev/null 2>/dev/null"));
        assert!(!bash(t, "git log > out.txt 2>&1"));
        assert!(!bash(t, "git status > FILE"));
        assert!(!bash(t, "git log &> out.txt"));
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
        assert!(!bash(t, "echo $HOME"));
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
        assert!(!bash(&["Bash(git:*)"], ""));
    }

    #[test]
    fn the_useful_cases_stay_allowed() {
        let git = &["Bash(git:*)"];
        for cmd in ["git status", "git log --oneline -5", "git add -- a.txt", "git diff HEAD~1", "git log @{u}.."] {
            assert!(bash(git, cmd), "{cmd}");
        }
    }
}
