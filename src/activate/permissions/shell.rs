//! A strict reader of shell command lines, for the `Bash(...)` patterns.
//!
//! It accepts only what it can prove bash runs as a list of simple commands whose words are
//! literal text: words in any of bash's quoting forms (`'…'`, `"…"`, `$'…'`, `$"…"`, backslash
//! escapes, line continuations), joined by `&&`, `||`, `;`, `|`, `|&` and newlines, with comments.
//! Everything else is refused with the reason: expansions and substitutions of every kind, globs,
//! brace expansion, tilde expansion, assignments, background jobs, compound commands, reserved
//! words in command position, here-documents, and every redirection except duplicating a file
//! descriptor (`2>&1`) or sending a stream to or from `/dev/null`. Bash's own grammar is far
//! larger; a command outside this subset is not one a pattern can be shown to allow.
//!
//! The words it gives are what bash passes to the program after quote removal: a differential
//! test (tests/js/permissions-bash.test.mjs) runs each command it accepts in real bash with
//! recording programs on `PATH` and compares.
//!
//! Patterns are read by the same rules, where an unquoted `*` is a wildcard instead of a glob.

/// Longest command line read, in characters; a longer one is refused.
pub(super) const MAX_COMMAND_CHARS: usize = 256 * 1024;

/// One character of a word, and whether quoting made it literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Ch {
    pub c: char,
    pub quoted: bool,
}

/// A word as read: its characters after quote removal, with their quoting.
pub(super) type Word = Vec<Ch>;

/// The words of each simple command of a line, in order.
pub(super) type Commands = Vec<Vec<Word>>;

/// How unquoted `*` reads: a glob in a command (refused), a wildcard in a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Command,
    Pattern,
}

/// Reads `src` into its simple commands, or says why it cannot be shown to be a list of them.
pub(super) fn read(src: &str, mode: Mode) -> Result<Commands, String> {
    if src.chars().count() > MAX_COMMAND_CHARS {
        return Err(format!("is longer than {MAX_COMMAND_CHARS} characters"));
    }
    let mut r = Reader { s: src.chars().collect(), i: 0, commands: Vec::new(), words: Vec::new(), word: None };
    r.run()?;
    if mode == Mode::Command {
        for words in &r.commands {
            check_command(words)?;
        }
    }
    Ok(r.commands)
}

/// The literal text of a word.
pub(super) fn text(word: &[Ch]) -> String {
    word.iter().map(|c| c.c).collect()
}

struct Reader {
    s: Vec<char>,
    i: usize,
    commands: Commands,
    /// The words of the command being read.
    words: Vec<Word>,
    /// The word being read (Some once any part of it, even an empty quote, was seen).
    word: Option<Word>,
}

/// What a redirection does, as far as the check needs.
enum Redirect {
    /// `N>&M`, `N<&M`: duplicates (or, with `-`, closes) a descriptor.
    Duplicate,
    /// `>`, `>>`, `>|`, `&>`, `&>>`, `<`: a file, allowed only when it is `/dev/null`.
    File,
}

impl Reader {
    fn peek(&self, k: usize) -> Option<char> {
        self.s.get(self.i + k).copied()
    }

    fn push(&mut self, c: char, quoted: bool) {
        self.word.get_or_insert_with(Vec::new).push(Ch { c, quoted });
    }

    fn end_word(&mut self) {
        if let Some(w) = self.word.take() {
            self.words.push(w);
        }
    }

    /// Ends the command being read at an operator; `needs_more` for `&&`, `||`, `|`, `|&`.
    fn end_command(&mut self, op: &str) -> Result<(), String> {
        self.end_word();
        if self.words.is_empty() {
            return Err(format!("has '{op}' with no command before it"));
        }
        self.commands.push(std::mem::take(&mut self.words));
        Ok(())
    }

    fn run(&mut self) -> Result<(), String> {
        // After `&&`, `||`, `|`, `|&`: a command must follow (newlines may come first).
        let mut pending: Option<&'static str> = None;
        while let Some(c) = self.peek(0) {
            match c {
                ' ' | '\t' => {
                    self.end_word();
                    self.i += 1;
                }
                '\n' => {
                    self.end_word();
                    self.i += 1;
                    if !self.words.is_empty() {
                        self.commands.push(std::mem::take(&mut self.words));
                    }
                }
                '#' if self.word.is_none() => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.i += 1;
                    }
                }
                ';' => {
                    if matches!(self.peek(1), Some(';') | Some('&')) {
                        return Err("has ';;' or ';&', which belong to a case statement".into());
                    }
                    if pending.is_some() {
                        return Err("has ';' where a command must follow an operator".into());
                    }
                    self.end_command(";")?;
                    self.i += 1;
                }
                '&' => match self.peek(1) {
                    Some('&') => {
                        self.end_command("&&")?;
                        self.i += 2;
                        pending = Some("&&");
                        continue;
                    }
                    Some('>') => {
                        self.end_word();
                        let append = self.peek(2) == Some('>');
                        self.i += if append { 3 } else { 2 };
                        self.redirect(Redirect::File)?;
                    }
                    _ => return Err("runs a command in the background ('&')".into()),
                },
                '|' => {
                    let op = match self.peek(1) {
                        Some('|') => "||",
                        Some('&') => "|&",
                        _ => "|",
                    };
                    self.end_command(op)?;
                    self.i += op.len();
                    pending = Some(op);
                    continue;
                }
                '(' | ')' => return Err("has a subshell, function or other compound command ('(' or ')')".into()),
                '<' | '>' => self.redirection()?,
                c => self.word_piece(c)?,
            }
            if self.word.is_some() || !self.words.is_empty() {
                pending = None;
            }
        }
        self.end_word();
        if let Some(op) = pending {
            return Err(format!("ends with '{op}'"));
        }
        if !self.words.is_empty() {
            self.commands.push(std::mem::take(&mut self.words));
        }
        Ok(())
    }

    /// One piece of a word at `c` (not an operator or a blank): an escaped character, a quoted
    /// string, or a plain character; what would expand is refused.
    fn word_piece(&mut self, c: char) -> Result<(), String> {
        match c {
            '\\' => {
                match self.peek(1) {
                    Some('\n') => {}
                    Some(n) => self.push(n, true),
                    None => return Err("ends with a lone backslash".into()),
                }
                self.i += 2;
            }
            '\'' => self.single_quoted()?,
            '"' => self.double_quoted()?,
            '$' => match self.peek(1) {
                Some('\'') => {
                    self.i += 1;
                    self.ansi_c_quoted()?;
                }
                Some('"') => {
                    self.i += 1;
                    self.double_quoted()?;
                }
                _ => return Err("has a parameter expansion or substitution ('$')".into()),
            },
            '`' => return Err("has a command substitution ('`')".into()),
            c if c.is_control() => return Err(control(c)),
            c => {
                self.push(c, false);
                self.i += 1;
            }
        }
        Ok(())
    }

    fn single_quoted(&mut self) -> Result<(), String> {
        self.i += 1;
        self.word.get_or_insert_with(Vec::new);
        loop {
            match self.peek(0) {
                None => return Err("has an unclosed quote".into()),
                Some('\'') => break,
                Some(c) if c.is_control() && c != '\n' && c != '\t' => return Err(control(c)),
                Some(c) => self.push(c, true),
            }
            self.i += 1;
        }
        self.i += 1;
        Ok(())
    }

    fn double_quoted(&mut self) -> Result<(), String> {
        self.i += 1;
        self.word.get_or_insert_with(Vec::new);
        loop {
            match self.peek(0) {
                None => return Err("has an unclosed quote".into()),
                Some('"') => break,
                Some('$') => return Err("has a parameter expansion or substitution ('$') inside double quotes".into()),
                Some('`') => return Err("has a command substitution ('`') inside double quotes".into()),
                Some('\\') => match self.peek(1) {
                    Some(n @ ('$' | '`' | '"' | '\\')) => {
                        self.push(n, true);
                        self.i += 1;
                    }
                    Some('\n') => self.i += 1,
                    _ => self.push('\\', true),
                },
                Some(c) if c.is_control() && c != '\n' && c != '\t' => return Err(control(c)),
                Some(c) => self.push(c, true),
            }
            self.i += 1;
        }
        self.i += 1;
        Ok(())
    }

    /// `$'…'`, at its opening quote: bash's ANSI-C escapes that name one character are decoded;
    /// escapes by number (`\x`, `\u`, `\U`, octal) and control escapes (`\c`) are refused.
    fn ansi_c_quoted(&mut self) -> Result<(), String> {
        self.i += 1;
        self.word.get_or_insert_with(Vec::new);
        loop {
            match self.peek(0) {
                None => return Err("has an unclosed quote".into()),
                Some('\'') => break,
                Some('\\') => {
                    let decoded = match self.peek(1) {
                        Some(c @ ('\\' | '\'' | '"' | '?')) => c,
                        Some('a') => '\u{7}',
                        Some('b') => '\u{8}',
                        Some('e' | 'E') => '\u{1b}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('v') => '\u{b}',
                        _ => return Err("has a $'…' escape the matcher does not decode (by number or control)".into()),
                    };
                    self.push(decoded, true);
                    self.i += 1;
                }
                Some(c) if c.is_control() && c != '\n' && c != '\t' => return Err(control(c)),
                Some(c) => self.push(c, true),
            }
            self.i += 1;
        }
        self.i += 1;
        Ok(())
    }

    /// At `<` or `>`: the operator, an optional descriptor number written just before it, and
    /// the word after it.
    fn redirection(&mut self) -> Result<(), String> {
        if let Some(w) = self.word.take() {
            if w.is_empty() || !w.iter().all(|c| !c.quoted && c.c.is_ascii_digit()) {
                return Err("has a redirection joined to a word".into());
            }
        }
        let first = self.peek(0);
        let second = self.peek(1);
        if second == Some('(') {
            return Err("has a process substitution ('<(' or '>(')".into());
        }
        let kind = match (first, second) {
            (Some('<'), Some('<')) => return Err("has a here-document or here-string ('<<')".into()),
            (Some('<'), Some('>')) => return Err("opens a file for reading and writing ('<>')".into()),
            (Some(_), Some('&')) => {
                self.i += 2;
                Redirect::Duplicate
            }
            (Some('>'), Some('>' | '|')) => {
                self.i += 2;
                Redirect::File
            }
            _ => {
                self.i += 1;
                Redirect::File
            }
        };
        self.redirect(kind)
    }

    /// Reads a redirection's target word and checks what it does.
    fn redirect(&mut self, kind: Redirect) -> Result<(), String> {
        while matches!(self.peek(0), Some(' ' | '\t')) {
            self.i += 1;
        }
        let outer = std::mem::take(&mut self.words);
        let held = self.word.take();
        // The target: one word, read by the same rules.
        loop {
            match self.peek(0) {
                None | Some(' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>') => break,
                Some(c) => self.word_piece(c)?,
            }
        }
        let target = self.word.take();
        self.words = outer;
        self.word = held;
        let Some(target) = target else {
            return Err("has a redirection with no target".into());
        };
        let t = text(&target);
        let ok = match kind {
            Redirect::Duplicate => {
                (t == "-" || (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())))
                    && target.iter().all(|c| !c.quoted)
                    || t == "/dev/null"
            }
            Redirect::File => t == "/dev/null",
        };
        if ok {
            Ok(())
        } else {
            Err(format!("redirects to or from the file '{}' (only /dev/null and descriptors are allowed)", t))
        }
    }
}

/// Why a control character is refused.
fn control(c: char) -> String {
    format!("has the control character U+{:04X}", c as u32)
}

/// Words bash reads as syntax when they start a command.
const RESERVED: &[&str] = &[
    "!", "{", "}", "[[", "]]", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if",
    "in", "select", "then", "time", "until", "while",
];

/// What bash would expand in a command's words, or treat as other than a plain command.
fn check_command(words: &[Word]) -> Result<(), String> {
    let Some(first) = words.first() else {
        return Ok(());
    };
    if first.iter().all(|c| !c.quoted) && RESERVED.contains(&text(first).as_str()) {
        return Err(format!("starts with the reserved word '{}'", text(first)));
    }
    if is_assignment(first) {
        return Err(format!("sets a variable ('{}')", text(first)));
    }
    for w in words {
        check_word(w)?;
    }
    Ok(())
}

/// `NAME=` or `NAME+=` with an unquoted name and `=`.
fn is_assignment(w: &[Ch]) -> bool {
    let Some(eq) = w.iter().position(|c| !c.quoted && c.c == '=') else {
        return false;
    };
    let name = w[..eq].strip_suffix(&[Ch { c: '+', quoted: false }]).unwrap_or(&w[..eq]);
    !name.is_empty()
        && name.iter().all(|c| !c.quoted && (c.c.is_ascii_alphanumeric() || c.c == '_'))
        && !name[0].c.is_ascii_digit()
}

fn check_word(w: &[Ch]) -> Result<(), String> {
    let word = || text(w);
    let mut open_brace: Option<usize> = None;
    for (i, ch) in w.iter().enumerate() {
        if ch.quoted {
            continue;
        }
        match ch.c {
            '*' | '?' | '[' => return Err(format!("has a glob in '{}' (quote it to pass it literally)", word())),
            '~' if i == 0 || matches!(w[i - 1], Ch { c: '=' | ':', quoted: false }) => {
                return Err(format!("has a tilde expansion in '{}'", word()))
            }
            '{' => {
                open_brace.get_or_insert(i);
            }
            '}' => {
                if let Some(o) = open_brace {
                    let inner = &w[o + 1..i];
                    let comma = inner.iter().any(|c| c.c == ',');
                    let range = inner.windows(2).any(|p| p[0].c == '.' && p[1].c == '.');
                    if comma || range {
                        return Err(format!("has a brace expansion in '{}'", word()));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Result<Vec<Vec<String>>, String> {
        read(src, Mode::Command).map(|cs| cs.iter().map(|ws| ws.iter().map(|w| text(w)).collect()).collect())
    }

    fn ok(src: &str) -> Vec<Vec<String>> {
        words(src).unwrap_or_else(|e| panic!("{src:?} refused: {e}"))
    }

    fn refused(src: &str) -> String {
        match words(src) {
            Ok(w) => panic!("{src:?} accepted as {w:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn quote_removal_as_bash_does_it() {
        assert_eq!(ok("git log --oneline -5"), [["git", "log", "--oneline", "-5"]]);
        assert_eq!(ok("git commit -m 'a b'"), [["git", "commit", "-m", "a b"]]);
        assert_eq!(ok(r#"echo "a \"b\" \$c \q""#), [["echo", r#"a "b" $c \q"#]]);
        assert_eq!(ok(r"echo a\ b \' \\"), [["echo", "a b", "'", "\\"]]);
        assert_eq!(ok("echo $'a\\'b\\n'"), [["echo", "a'b\n"]]);
        assert_eq!(ok("echo $\"x y\""), [["echo", "x y"]]);
        assert_eq!(ok("g\"i\"'t' status"), [["git", "status"]]);
        assert_eq!(ok("echo '' \"\""), [["echo", "", ""]]);
        assert_eq!(ok("git \\\nstatus"), [["git", "status"]]);
        assert_eq!(ok("echo a\\\nb"), [["echo", "ab"]]);
        assert_eq!(ok("git log HEAD~1 a=b x,y {} @{u}"), [["git", "log", "HEAD~1", "a=b", "x,y", "{}", "@{u}"]]);
    }

    #[test]
    fn lists_and_comments() {
        assert_eq!(ok("a && b || c; d | e |& f\ng"), [["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]]);
        assert_eq!(ok("a &&\n\n b"), [["a"], ["b"]]);
        assert_eq!(ok("git status # a comment; rm -rf /"), [["git", "status"]]);
        assert_eq!(ok("echo a#b"), [["echo", "a#b"]]);
        assert_eq!(ok("git status;"), [["git", "status"]]);
        assert_eq!(
            ok("git log 2>&1 | head -5 >/dev/null 2> /dev/null </dev/null 3>&-"),
            [["git", "log"], ["head", "-5"]]
        );
    }

    #[test]
    fn the_ansi_c_injection_is_a_chain() {
        assert_eq!(ok("git log $'\\'' ; touch /tmp/x ; #'"), [vec!["git", "log", "'"], vec!["touch", "/tmp/x"]]);
    }

    #[test]
    fn what_is_refused() {
        for (src, why) in [
            ("git status > out.txt", "redirects"),
            ("git status >> f", "redirects"),
            ("git log &> f", "redirects"),
            ("cat < /etc/passwd", "redirects"),
            ("git log >& f", "redirects"),
            ("git log 2>&1x", "redirects"),
            ("echo a>f", "joined"),
            ("cat <<EOF\nx\nEOF", "here-document"),
            ("cat <<< x", "here-document"),
            ("echo $(id)", "'$'"),
            ("echo $HOME", "'$'"),
            ("echo \"$HOME\"", "'$'"),
            ("echo `id`", "'`'"),
            ("echo \"`id`\"", "'`'"),
            ("diff <(a) b", "process substitution"),
            ("tee >(sh)", "process substitution"),
            ("FOO=1 git status", "sets a variable"),
            ("X+=1 git", "sets a variable"),
            ("git status &", "background"),
            ("git status & rm x", "background"),
            ("(git status)", "subshell"),
            ("{ git status; }", "reserved word"),
            ("if true; then x; fi", "reserved word"),
            ("! git status", "reserved word"),
            ("time git status", "reserved word"),
            ("ls *.txt", "glob"),
            ("ls a?", "glob"),
            ("ls [ab]", "glob"),
            ("echo {a,b}", "brace expansion"),
            ("echo x{1..3}", "brace expansion"),
            ("cat ~/.ssh/id_rsa", "tilde"),
            ("echo a=~/x", "tilde"),
            ("echo 'unclosed", "unclosed"),
            ("echo \"unclosed", "unclosed"),
            ("echo $'\\x41'", "does not decode"),
            ("echo $'\\101'", "does not decode"),
            ("echo a\\", "lone backslash"),
            ("echo a\rb", "control character"),
            ("echo a\0b", "control character"),
            ("&& x", "no command"),
            ("x &&", "ends with"),
            ("x | ;", "';'"),
            ("case a in a) x;; esac", "compound"),
            ("x ;; y", "case"),
        ] {
            let e = refused(src);
            assert!(e.contains(why), "{src:?}: {e}");
        }
    }

    #[test]
    fn patterns_keep_their_stars() {
        let p = read("git * main", Mode::Pattern).unwrap_or_default();
        assert_eq!(p.len(), 1);
        assert!(p[0][1].iter().all(|c| c.c == '*' && !c.quoted));
        let q = read(r"echo \* '*'", Mode::Pattern).unwrap_or_default();
        assert!(q[0][1].iter().chain(&q[0][2]).all(|c| c.quoted));
    }

    #[test]
    fn long_lines_are_refused() {
        let long = "a ".repeat(MAX_COMMAND_CHARS);
        assert!(refused(&long).contains("longer than"));
    }
}
