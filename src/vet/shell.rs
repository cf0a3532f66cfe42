//! Lines as the command checks ([`super::exfil`], [`super::scripts`], [`super::obfuscation`])
//! read them: a shell line split into commands, each a name (past `sudo`, `env`, assignments ...)
//! and its arguments; the line lowercased, with a sentence's punctuation ending a command in
//! prose; quoted text blanked in a script of another language; comments told apart; and whether a
//! script is a shell's.

use super::words::is_word;

/// One command of a shell line: its name (without a path or the words that run it: `sudo`,
/// `env`, assignments ...) and its arguments, and whether a pipe feeds it.
pub struct Command<'a> {
    /// The command's name, as written (lowercase when the line is).
    pub name: &'a str,
    /// Its arguments, split at whitespace, quotes left on.
    pub args: Vec<&'a str>,
    /// The command follows a `|`.
    pub piped: bool,
}

/// Words that run the command after them.
const PREFIXES: [&str; 14] =
    ["sudo", "env", "nohup", "time", "exec", "command", "builtin", "xargs", "then", "do", "else", "!", "$", ">"];

/// The commands of a shell line: its text split at `|`, `;`, `&`, parentheses, braces and
/// backticks (so `$(curl …)` is a command), each read as a name and arguments.
pub fn commands(line: &str) -> Vec<Command<'_>> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut start = 0usize;
    let mut piped = false;
    for end in 0..=b.len() {
        let sep = b.get(end).copied();
        if !matches!(sep, None | Some(b'|' | b';' | b'&' | b'(' | b')' | b'`' | b'{' | b'}')) {
            continue;
        }
        let seg = line.get(start..end).unwrap_or_default();
        let mut tokens = seg.split_whitespace().map(|t| t.trim_start_matches(['"', '\\', '\'']));
        let mut name = None;
        let mut prefix = None;
        for t in tokens.by_ref() {
            let assignment =
                !t.starts_with('-') && t.split_once('=').is_some_and(|(v, _)| !v.is_empty() && v.bytes().all(is_word));
            if t.is_empty() || assignment {
                continue;
            }
            if PREFIXES.contains(&t) {
                prefix = Some(t);
                continue;
            }
            name = Some(t.rsplit('/').next().unwrap_or(t));
            break;
        }
        // A prefix with nothing after it is the command (`env | …`).
        let name = name.or(prefix);
        if let Some(name) = name {
            out.push(Command { name, args: tokens.collect(), piped });
        }
        // A single `|` feeds the next command; `||` does not.
        piped = sep == Some(b'|') && b.get(end + 1) != Some(&b'|') && (end == 0 || b.get(end - 1) != Some(&b'|'));
        start = end + 1;
    }
    out
}

/// An argument without its quotes.
pub fn unquoted(arg: &str) -> &str {
    arg.trim_matches(['"', '\'', '\\'])
}

/// `line` lowercased into `out`; in prose, a sentence's punctuation (`: `, `, `, `. `) ends a
/// command as `;` does, so that "Run: curl …" reads as a command.
pub(super) fn lower_into(out: &mut String, line: &str, prose: bool) {
    out.clear();
    out.push_str(line);
    out.make_ascii_lowercase();
    if !prose {
        return;
    }
    // ASCII bytes replaced by an ASCII byte: the text stays UTF-8.
    let ends: Vec<usize> = out
        .as_bytes()
        .windows(2)
        .enumerate()
        .filter(|(_, w)| matches!(w, [b':' | b',' | b'.', b' ']))
        .map(|(i, _)| i)
        .collect();
    for i in ends {
        out.replace_range(i..i + 1, ";");
    }
}

/// Whether the script at `path` is a shell's (by its extension, else by its `#!` line).
pub(super) fn is_shell(path: &str, text: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()) {
        Some(e) => {
            matches!(e.as_str(), "sh" | "bash" | "zsh" | "ksh" | "fish" | "ps1" | "psm1" | "bat" | "cmd" | "command")
        }
        None => {
            let first = text.lines().next().unwrap_or_default();
            !first.starts_with("#!") || ["sh", "bash", "zsh", "ksh", "dash", "fish"].iter().any(|s| first.ends_with(s))
        }
    }
}

/// `lower` with the text inside quotes blanked (quotes kept).
pub(super) fn blank_quotes(lower: &str) -> String {
    let mut out = String::with_capacity(lower.len());
    let mut quote: Option<char> = None;
    for c in lower.chars() {
        match quote {
            Some(q) if c == q => {
                quote = None;
                out.push(c);
            }
            Some(_) => out.push(' '),
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
}

/// Whether a line of code is a comment or a docstring (what it names is not what it does).
pub(super) fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    ["#", "//", "/*", "* ", "\"\"\"", "'''", "--", "rem "].iter().any(|p| t.starts_with(p)) && !t.starts_with("#!")
}
