//! What other clients do to a skill's body before the model sees it, done where bodies are served
//! (the tool's activation, the `/name` injection, subagent prompts), after argument substitution:
//!
//! - **The skill directory placeholders** ([`resolve_skill_dir`]): `${CLAUDE_SKILL_DIR}` (Claude
//!   Code), `{baseDir}` (OpenClaw) and `{{skill_dir}}` (written by published skills) become the
//!   skill's directory as the model is shown it. Every other `${...}` stays as written.
//! - **Command preprocessing** ([`find_commands`], [`run_commands`]): Claude Code's
//!   `` !`command` `` (the `!` at the start of a line or after whitespace) and the fenced block
//!   opened with ```` ```! ````. The library runs nothing: each command goes to the host's
//!   [`CommandRunner`], whose answer replaces it; without one the text stays as written.

use crate::diagnostic::{codes, Diagnostic};
use crate::store::LocalFuture;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::rc::Rc;

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// The placeholders that name a skill's directory, and the client each comes from.
pub const SKILL_DIR_PLACEHOLDERS: [(&str, &str); 3] =
    [("${CLAUDE_SKILL_DIR}", "Claude Code"), ("{baseDir}", "OpenClaw"), ("{{skill_dir}}", "published skills")];

/// Most commands run for one body; later ones stay as written (with a diagnostic).
pub const MAX_COMMANDS: usize = 32;
/// Longest command handed to the host, in bytes; a longer one stays as written.
pub const MAX_COMMAND_BYTES: usize = 8 * 1024;
/// Most characters of one command's output kept; the rest is cut with a note.
pub const MAX_OUTPUT_CHARS: usize = 64 * 1024;

/// One command a skill's body asks to run, as the host's [`CommandRunner`] receives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CommandRequest {
    /// The command as written between the backticks (or in the ```` ```! ```` block).
    pub command: String,
    /// The skill's name.
    pub skill: String,
    /// The skill's directory, as the model is shown it (an absolute path for a directory store).
    pub dir: String,
}

/// The host's command runner: the output that replaces a command, or why there is none.
pub type CommandRunner = Rc<dyn Fn(CommandRequest) -> LocalFuture<'static, Result<String, String>>>;

/// Replaces every skill directory placeholder ([`SKILL_DIR_PLACEHOLDERS`]) in `body` with `dir`,
/// in prose and code alike (as Claude Code does). Other `${...}` forms are left untouched.
pub fn resolve_skill_dir<'a>(body: &'a str, dir: &str) -> Cow<'a, str> {
    if !SKILL_DIR_PLACEHOLDERS.iter().any(|(p, _)| body.contains(p)) {
        return Cow::Borrowed(body);
    }
    let mut out = body.to_string();
    for (p, _) in SKILL_DIR_PLACEHOLDERS {
        if out.contains(p) {
            out = out.replace(p, dir);
        }
    }
    Cow::Owned(out)
}

/// A command found in a body: the byte range it replaces and the command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpan {
    /// Where the `!` (or the block's opening fence) starts.
    pub start: usize,
    /// Just past the closing backtick (or the block's closing fence line).
    pub end: usize,
    /// The command.
    pub command: String,
}

/// The fence a line opens or closes: its character, its length and what follows it.
fn fence(line: &str) -> Option<(u8, usize, &str)> {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 {
        return None;
    }
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|b| *b == c).count();
    (n >= 3).then(|| (c, n, t.get(n..).unwrap_or("")))
}

/// The `` !`command` `` spans of one line outside code blocks: `!` at the start of the line or
/// after whitespace, a single-backtick span, a command that is not blank.
fn inline_commands(line: &str, offset: usize, out: &mut Vec<CommandSpan>) {
    let b = line.as_bytes();
    // A `!` inside an inline code span (`` !`x` ``, the syntax shown) is text.
    let code = crate::text::code_ranges(line);
    // The ranges are sorted and disjoint: the last one starting at or before `i`, if any, holds it.
    let in_code = |i: usize| {
        let at = code.partition_point(|(a, _)| *a <= i);
        at > 0 && code.get(at - 1).is_some_and(|(_, z)| i < *z)
    };
    let mut i = 0;
    while i + 1 < b.len() {
        let starts = b.get(i) == Some(&b'!')
            && !in_code(i)
            && b.get(i + 1) == Some(&b'`')
            && b.get(i + 2) != Some(&b'`')
            && (i == 0 || b.get(i - 1).is_some_and(|c| c.is_ascii_whitespace()));
        if starts {
            if let Some(close) = line.get(i + 2..).and_then(|rest| rest.find('`')) {
                let command = line.get(i + 2..i + 2 + close).unwrap_or("");
                if !command.trim().is_empty() {
                    out.push(CommandSpan {
                        start: offset + i,
                        end: offset + i + 3 + close,
                        command: command.to_string(),
                    });
                }
                i += 3 + close;
                continue;
            }
        }
        i += 1;
    }
}

/// Every command of `body`, in order: inline `` !`command` `` outside code blocks and inline code,
/// and ```` ```! ```` blocks (their lines, the fences left out). Linear in the body.
pub fn find_commands(body: &str) -> Vec<CommandSpan> {
    let mut out = Vec::new();
    // (fence char, fence length, where the block starts, whether it is a command block)
    let mut open: Option<(u8, usize, usize, bool)> = None;
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let text = line.trim_end_matches(['\n', '\r']);
        match (open, fence(text)) {
            (None, Some((c, n, info))) => open = Some((c, n, start, c == b'`' && info.trim() == "!")),
            (Some((c, n, from, command)), Some((c2, n2, rest))) if c2 == c && n2 >= n && rest.trim().is_empty() => {
                if command {
                    let inner = body.get(from..start).and_then(|b| b.split_once('\n')).map(|(_, r)| r).unwrap_or("");
                    let inner = inner.strip_suffix('\n').unwrap_or(inner);
                    let inner = inner.strip_suffix('\r').unwrap_or(inner);
                    if !inner.trim().is_empty() {
                        out.push(CommandSpan { start: from, end: start + text.len(), command: inner.to_string() });
                    }
                }
                open = None;
            }
            (None, None) if text.contains("!`") => inline_commands(text, start, &mut out),
            _ => {}
        }
    }
    out
}

/// What a command's output becomes in the body: on its own lines as given, cut at
/// [`MAX_OUTPUT_CHARS`] with a note.
fn bounded(output: &str) -> String {
    let output = output.strip_suffix('\n').unwrap_or(output);
    match output.char_indices().nth(MAX_OUTPUT_CHARS) {
        None => output.to_string(),
        Some((cut, _)) => {
            format!("{}\n[output cut at {MAX_OUTPUT_CHARS} characters]", output.get(..cut).unwrap_or_default())
        }
    }
}

/// Runs the commands of `body` through `runner`, one after another, and puts each answer in
/// place of its command (answers are not scanned again). A command the runner refuses (an error,
/// a throw, no answer in time) becomes `[command failed: <why>]` with a warning; without a runner
/// the body is returned as written. Never fails.
pub async fn run_commands(
    body: &str,
    skill: &str,
    dir: &str,
    runner: Option<&CommandRunner>,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let Some(runner) = runner else { return body.to_string() };
    let spans = find_commands(body);
    if spans.is_empty() {
        return body.to_string();
    }
    let mut out = String::with_capacity(body.len());
    let mut last = 0;
    for (i, span) in spans.iter().enumerate() {
        out.push_str(body.get(last..span.start).unwrap_or_default());
        last = span.end;
        let written = body.get(span.start..span.end).unwrap_or_default();
        if i >= MAX_COMMANDS {
            if i == MAX_COMMANDS {
                diagnostics.push(Diagnostic::warning(
                    codes::COMMAND_FAILED,
                    format!("skill '{skill}' has more than {MAX_COMMANDS} commands; the rest were left as written"),
                ));
            }
            out.push_str(written);
            continue;
        }
        if span.command.len() > MAX_COMMAND_BYTES {
            diagnostics.push(Diagnostic::warning(
                codes::COMMAND_FAILED,
                format!(
                    "a command of skill '{skill}' is longer than {MAX_COMMAND_BYTES} bytes; it was left as written"
                ),
            ));
            out.push_str(written);
            continue;
        }
        let request = CommandRequest { command: span.command.clone(), skill: skill.to_string(), dir: dir.to_string() };
        match runner(request).await {
            Ok(output) => out.push_str(&bounded(&output)),
            Err(why) => {
                let why: String = crate::text::one_line(&why).chars().take(500).collect();
                diagnostics.push(Diagnostic::warning(
                    codes::COMMAND_FAILED,
                    format!("a command of skill '{skill}' failed: {why}"),
                ));
                out.push_str(&format!("[command failed: {why}]"));
            }
        }
    }
    out.push_str(body.get(last..).unwrap_or_default());
    out
}

/// A body as it is served: the skill directory placeholders resolved, then the commands run
/// (when the host gives a runner).
pub async fn expand_body(
    body: &str,
    skill: &str,
    dir: &str,
    runner: Option<&CommandRunner>,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let resolved = resolve_skill_dir(body, dir);
    run_commands(&resolved, skill, dir, runner, diagnostics).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands(body: &str) -> Vec<String> {
        find_commands(body).into_iter().map(|s| s.command).collect()
    }

    #[test]
    fn placeholders_resolve_and_others_stay() {
        let body = "run ${CLAUDE_SKILL_DIR}/a.sh, {baseDir}/b, {{skill_dir}}/c; ${CLAUDE_PLUGIN_ROOT} ${HOME} {base}";
        assert_eq!(
            resolve_skill_dir(body, "/s/pdf"),
            "run /s/pdf/a.sh, /s/pdf/b, /s/pdf/c; ${CLAUDE_PLUGIN_ROOT} ${HOME} {base}"
        );
        assert!(matches!(resolve_skill_dir("no placeholder", "/x"), Cow::Borrowed(_)));
    }

    #[test]
    fn commands_are_recognised_as_claude_code_defines_them() {
        assert_eq!(commands("Branch: !`git branch --show-current`\n!`date`"), ["git branch --show-current", "date"]);
        assert_eq!(commands("KEY=!`cmd` and a!`b` stay"), Vec::<String>::new());
        assert_eq!(commands("```\n!`inside a fence`\n```\n"), Vec::<String>::new());
        assert_eq!(commands("``!`shown` ``"), Vec::<String>::new());
        assert_eq!(commands("!`` ``  !` ` wow!"), Vec::<String>::new());
        assert_eq!(commands("```!\necho a\necho b\n```\nafter !`x`"), ["echo a\necho b", "x"]);
        let body = "a\n```!\necho hi\n```\nb";
        let s = &find_commands(body)[0];
        assert_eq!(body.get(s.start..s.end), Some("```!\necho hi\n```"));
        // An unclosed span or block is text.
        assert_eq!(commands("!`open\n```!\nnever closed"), Vec::<String>::new());
    }

    #[test]
    fn recognition_is_linear_on_hostile_lines() {
        // One long line of code spans that show the syntax, each `!` inside one; one of commands.
        let spans = "`` !`a` `` ".repeat(100_000);
        assert!(find_commands(&spans).is_empty());
        let many = " !`a`".repeat(100_000);
        assert_eq!(find_commands(&many).len(), 100_000);
    }

    #[test]
    fn runner_answers_replace_and_failures_are_marked() {
        let runner: CommandRunner = Rc::new(|r: CommandRequest| {
            Box::pin(async move {
                match r.command.as_str() {
                    "fail" => Err("boom\nline".to_string()),
                    "big" => Ok("x".repeat(MAX_OUTPUT_CHARS + 10)),
                    c => Ok(format!("<{c} in {} for {}>\n", r.dir, r.skill)),
                }
            })
        });
        let mut d = Vec::new();
        let body = "A !`ls ${CLAUDE_SKILL_DIR}` B !`fail` C";
        let out = futures_executor::block_on(expand_body(body, "s", "/d", Some(&runner), &mut d));
        assert_eq!(out, "A <ls /d in /d for s> B [command failed: boom line] C");
        assert_eq!(d.len(), 1);
        let out = futures_executor::block_on(run_commands("!`big`", "s", "/d", Some(&runner), &mut d));
        assert!(out.ends_with(&format!("[output cut at {MAX_OUTPUT_CHARS} characters]")));
        let out = futures_executor::block_on(run_commands("!`x`", "s", "/d", None, &mut d));
        assert_eq!(out, "!`x`");
        let many = "!`a` ".repeat(MAX_COMMANDS + 2);
        let mut d = Vec::new();
        let out = futures_executor::block_on(run_commands(&many, "s", "/d", Some(&runner), &mut d));
        assert_eq!(out.matches("!`a`").count(), 2);
        assert_eq!(d.len(), 1);
    }
}
