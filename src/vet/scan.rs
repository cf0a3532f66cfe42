//! The one pass over a file: its lines with their context (Markdown fences, comments, hidden
//! elements, a script's heredocs), each line's words looked up in the trigger table
//! ([`super::words`]) as they are read, and the checks the line calls for, each given that line.
//! Every check reads only its line (and a few lines of state), so the pass is linear in the bytes.

use super::words::{self, lookup, step, COMMANDS, CUE, EXEC, HASH_START, INSTR, OUTPUT};
use super::{exfil, hidden, instructions, obfuscation, scripts, FileKind, Finding, MAX_PER_CODE, RULES};

/// Every rule, in the order of [`RULES`] (its index there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rule {
    TagCharacters,
    BidiControls,
    InvisibleRun,
    InvisibleCharacters,
    HiddenInstructions,
    HiddenMarkup,
    InstructionOverride,
    ConcealFromUser,
    SkipConfirmation,
    DisableSafety,
    RevealSystemPrompt,
    Exfiltration,
    RemoteScript,
    RemoteScriptInsecure,
    DestructiveDelete,
    PermissionChange,
    Persistence,
    HistoryTampering,
    ExecDecoded,
    EncodedBlob,
}

impl Rule {
    /// Whether a finding of this rule inside hidden markup is a hidden instruction: what the
    /// phrase and command checks find, not characters or blobs.
    fn hides_instructions(self) -> bool {
        !matches!(
            self,
            Rule::TagCharacters
                | Rule::BidiControls
                | Rule::InvisibleRun
                | Rule::InvisibleCharacters
                | Rule::HiddenInstructions
                | Rule::HiddenMarkup
                | Rule::EncodedBlob
        )
    }
}

/// Where the findings of a file go: at most [`MAX_PER_CODE`] per code, one per code and line.
pub(super) struct Sink<'p> {
    path: &'p str,
    out: Vec<Finding>,
    counts: [u8; RULES.len()],
    /// Set while hidden markup is checked: what hides it (`an HTML comment` ...).
    pub hidden: Option<&'static str>,
}

impl Sink<'_> {
    /// Records a finding of `rule` at `line`; `message` is called only when it is kept.
    pub fn push(&mut self, rule: Rule, line: u32, message: impl FnOnce() -> String) {
        let (rule, what) = match self.hidden {
            Some(what) if rule.hides_instructions() => (Rule::HiddenInstructions, Some(what)),
            _ => (rule, None),
        };
        let i = rule as usize;
        let Some(&(code, level)) = RULES.get(i) else { return };
        let Some(count) = self.counts.get_mut(i) else { return };
        if usize::from(*count) >= MAX_PER_CODE
            || self.out.iter().rev().take(4).any(|f| f.code == code && f.line == line)
        {
            return;
        }
        *count += 1;
        let message = match what {
            Some(what) => format!("{what} (not shown when the Markdown is rendered) holds: {}", message()),
            None => message(),
        };
        self.out.push(Finding { code: code.to_string(), level, path: self.path.to_string(), line, message });
    }
}

/// What a line is, for the checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    /// Markdown prose (and a SKILL.md's frontmatter).
    Prose,
    /// A line of a fenced code block; `data` when its language is plainly data (JSON, CSV ...).
    Fence { data: bool },
    /// A line that opens or closes a fence.
    FenceMark,
    /// A line of a script (or of a shell heredoc, read as text the script writes).
    Script,
    /// A line of a data file.
    Data,
}

impl Ctx {
    /// Whether phrases aimed at the model are looked for (prose, and a script's comments and
    /// printed text).
    fn prose(self) -> bool {
        matches!(self, Ctx::Prose | Ctx::Script)
    }
}

/// What the first reading of a line found.
#[derive(Default)]
pub(super) struct LineInfo {
    /// The families of checks its words call for.
    pub families: u16,
    /// Words outside code and quotes that start phrases: byte offset and phrase group.
    pub anchors: Vec<(usize, u8)>,
    /// Bytes outside ASCII.
    pub non_ascii: bool,
    /// Control bytes other than tab.
    pub control: bool,
    /// A `<`, `[` or `!`: markup a rendered view may hide.
    pub markup: bool,
    /// The longest run of base64 characters.
    pub b64_run: usize,
    /// `\x` escapes.
    pub hex_escapes: usize,
}

/// Reads a line once: its words against the trigger table, code spans and quotes (a phrase in
/// them is not aimed at the model, unless `quotes_count`), and what the other checks need.
pub(super) fn read_line(line: &str, quotes_count: bool) -> LineInfo {
    let b = line.as_bytes();
    let mut info = LineInfo::default();
    let (mut in_tick, mut in_dq, mut in_sq) = (false, false, false);
    let mut run = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if words::is_word(c) {
            let start = i;
            let mut h = HASH_START;
            while i < b.len() && words::is_word(b[i]) {
                h = step(h, b[i]);
                i += 1;
            }
            run += i - start;
            if i - start <= 32 {
                let (families, g) = lookup(&b[start..i], h);
                if families != 0 {
                    let quoted = in_tick || ((in_dq || in_sq) && !quotes_count);
                    let f = if quoted { families & !(INSTR | CUE) } else { families };
                    info.families |= f;
                    if g != 0 && !quoted && info.anchors.len() < 16 {
                        info.anchors.push((start, g));
                    }
                }
            }
            continue;
        }
        match c {
            b'+' | b'/' | b'=' | b'-' => run += 1,
            _ => {
                info.b64_run = info.b64_run.max(run);
                run = 0;
            }
        }
        match c {
            b'`' => in_tick = !in_tick,
            b'"' if !in_tick => in_dq = !in_dq,
            b'\'' if !in_tick && !in_dq => {
                // An apostrophe inside a word (don't, users') is no quote.
                let after_word = i > 0 && b.get(i - 1).is_some_and(|&p| words::is_word(p));
                if in_sq || !after_word {
                    in_sq = !in_sq;
                }
            }
            b'<' | b'[' | b'!' => info.markup = true,
            b'\\' if b.get(i + 1) == Some(&b'x') => info.hex_escapes += 1,
            0xE2 if b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0x9C) | Some(0x9D)) => {
                in_dq = b.get(i + 2) == Some(&0x9C);
                info.non_ascii = true;
            }
            0x80..=0xFF => info.non_ascii = true,
            0..=0x08 | 0x0B..=0x0C | 0x0E..=0x1F | 0x7F => info.control = true,
            _ => {}
        }
        i += 1;
    }
    info.b64_run = info.b64_run.max(run);
    info
}

/// Markdown state carried from line to line.
#[derive(Default)]
struct Markdown {
    /// The open fence: its character, length and whether its language is data.
    fence: Option<(u8, usize, bool)>,
    /// Inside an HTML comment that started on an earlier line.
    comment: bool,
    /// Inside a hidden element that started on an earlier line: its closing tag.
    hidden: Option<&'static str>,
    /// 0 before the frontmatter, 1 inside it, 2 after.
    frontmatter: u8,
}

/// Languages of a fence that say its lines are data.
const DATA_LANGUAGES: [&str; 14] =
    ["json", "jsonc", "json5", "jsonl", "yaml", "yml", "toml", "csv", "tsv", "xml", "svg", "text", "txt", "diff"];

/// The fence a line opens: `(char, length, data)`, or None.
fn fence_open(line: &str) -> Option<(u8, usize, bool)> {
    let t = line.trim_start();
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|&b| b == c).count();
    if n < 3 {
        return None;
    }
    let info = t.get(n..).unwrap_or_default().trim();
    if c == b'`' && info.contains('`') {
        return None;
    }
    let lang = info.split(|ch: char| ch.is_whitespace() || ch == '{' || ch == ',').next().unwrap_or_default();
    Some((c, n, DATA_LANGUAGES.iter().any(|d| lang.eq_ignore_ascii_case(d))))
}

/// Whether `line` closes the fence of `c` opened with `n` characters.
fn fence_close(line: &str, c: u8, n: usize) -> bool {
    let t = line.trim();
    t.len() >= n && t.bytes().all(|b| b == c)
}

/// The state of a file's pass.
pub(super) struct Scanner<'p> {
    pub sink: Sink<'p>,
    kind: FileKind,
    /// A script of the shell (or of no language the extension tells): its quoted text is
    /// commands too.
    shell: bool,
    md: Markdown,
    /// A shell heredoc's closing word, while inside one.
    heredoc: Option<String>,
    /// Whether a line since the last blank line had a cue that it documents a danger.
    prev_cue: bool,
    /// What the command checks keep between lines (a secret read a few lines before a send ...).
    pub commands: exfil::Window,
    /// Variables that hold decoded text, for [`obfuscation`].
    pub decoded: obfuscation::Decoded,
    /// The line lowercased, for the command checks (kept to reuse its buffer).
    lower: String,
}

/// Vets `text`, the file at `path` of a skill, read as `kind`.
pub(super) fn scan(path: &str, text: &str, kind: FileKind) -> Vec<Finding> {
    let mut s = Scanner {
        sink: Sink { path, out: Vec::new(), counts: [0; RULES.len()], hidden: None },
        kind,
        shell: kind != FileKind::Script || is_shell(path, text),
        md: Markdown::default(),
        heredoc: None,
        prev_cue: false,
        commands: exfil::Window::default(),
        decoded: obfuscation::Decoded::default(),
        lower: String::new(),
    };
    // A byte order mark at the start is the file's encoding, not hidden text.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut no = 0u32;
    for line in text.split('\n') {
        no = no.saturating_add(1);
        s.line(no, line.strip_suffix('\r').unwrap_or(line));
    }
    s.sink.out
}

impl Scanner<'_> {
    /// The context of the next line, with the Markdown state moved past it.
    fn context(&mut self, no: u32, line: &str) -> Ctx {
        match self.kind {
            FileKind::Data => return Ctx::Data,
            FileKind::Script => {
                if let Some(end) = &self.heredoc {
                    if line.trim() == end.as_str() {
                        self.heredoc = None;
                    }
                } else {
                    self.heredoc = obfuscation::heredoc_start(line);
                }
                return Ctx::Script;
            }
            FileKind::Markdown => {}
        }
        let md = &mut self.md;
        if md.frontmatter == 0 {
            md.frontmatter = if no == 1 && line.trim_end() == "---" { 1 } else { 2 };
            if md.frontmatter == 1 {
                return Ctx::FenceMark;
            }
        } else if md.frontmatter == 1 {
            if matches!(line.trim_end(), "---" | "...") {
                md.frontmatter = 2;
                return Ctx::FenceMark;
            }
            return Ctx::Prose;
        }
        if let Some((c, n, data)) = md.fence {
            if fence_close(line, c, n) {
                md.fence = None;
                return Ctx::FenceMark;
            }
            return Ctx::Fence { data };
        }
        if !md.comment && md.hidden.is_none() {
            if let Some(open) = fence_open(line) {
                md.fence = Some(open);
                return Ctx::FenceMark;
            }
        }
        Ctx::Prose
    }

    /// Checks one line.
    fn line(&mut self, no: u32, line: &str) {
        let ctx = self.context(no, line);
        if line.trim().is_empty() || ctx == Ctx::FenceMark {
            if ctx == Ctx::FenceMark {
                self.commands.reset();
            }
            if line.trim().is_empty() {
                self.prev_cue = false;
            }
            return;
        }
        let mut info = read_line(line, false);
        // A script's line that prints: its quoted text is what the model reads.
        if ctx == Ctx::Script && info.families & OUTPUT != 0 {
            info = read_line(line, true);
        }
        if info.non_ascii || info.control {
            hidden::characters(line, no, &mut self.sink);
        }
        // Markdown a rendered view hides: its text is checked apart, as hidden text.
        if ctx == Ctx::Prose && (info.markup || self.md.comment || self.md.hidden.is_some()) {
            let spans = hidden::spans(line, &mut self.md.comment, &mut self.md.hidden);
            if !spans.is_empty() {
                let mut visible = line.to_string();
                for span in &spans {
                    if let Some(text) = line.get(span.start..span.end) {
                        self.hidden_text(no, text, span.what);
                        hidden::markup_note(text, span.what, no, &mut self.sink);
                    }
                    // Blanked, so that the visible text is checked without it.
                    if span.start <= span.end
                        && visible.is_char_boundary(span.start)
                        && visible.is_char_boundary(span.end)
                    {
                        visible.replace_range(span.start..span.end, &" ".repeat(span.end - span.start));
                    }
                }
                let info = read_line(&visible, false);
                self.checks(no, &visible, ctx, &info);
                return;
            }
        }
        self.checks(no, line, ctx, &info);
    }

    /// The phrase, command and blob checks of a line's text.
    fn checks(&mut self, no: u32, line: &str, ctx: Ctx, info: &LineInfo) {
        let cue = info.families & CUE != 0;
        if ctx.prose() && !info.anchors.is_empty() && self.kind != FileKind::Data {
            instructions::check(line, &info.anchors, no, &mut self.sink);
        }
        if info.families & COMMANDS != 0 {
            lower_into(&mut self.lower, line, ctx == Ctx::Prose);
            let documented = cue || self.prev_cue;
            let lower = std::mem::take(&mut self.lower);
            // In a script of a language other than the shell's, a quoted command is data unless
            // the line runs something (system, exec, subprocess ...).
            let code = if self.kind == FileKind::Script && !self.shell && info.families & EXEC == 0 {
                blank_quotes(&lower)
            } else {
                lower.clone()
            };
            let c = Cmd {
                line,
                lower: &lower,
                code: &code,
                families: info.families,
                no,
                documented,
                prose: ctx == Ctx::Prose,
                comment: is_comment(line),
                shell: matches!(ctx, Ctx::Fence { .. }) || (ctx == Ctx::Script && self.shell),
            };
            exfil::check(&c, &mut self.commands, &mut self.sink);
            scripts::check(&c, &mut self.sink);
            obfuscation::check(&c, &mut self.decoded, &mut self.sink);
            instructions::agent_flags(&c, &mut self.sink);
            self.lower = lower;
        }
        let data = matches!(ctx, Ctx::Data | Ctx::Fence { data: true });
        if !data && (info.b64_run >= obfuscation::MIN_BLOB || info.hex_escapes >= obfuscation::MIN_ESCAPES) {
            obfuscation::blobs(line, no, &mut self.sink);
        }
        // A cue holds for the lines after it up to a blank line (a comment over a block of
        // examples); a line of its own renews it.
        self.prev_cue = cue || self.prev_cue;
    }

    /// Checks text a rendered view hides: what the phrase and command checks find in it is a
    /// hidden instruction.
    fn hidden_text(&mut self, no: u32, text: &str, what: &'static str) {
        let info = read_line(text, false);
        self.sink.hidden = Some(what);
        if !info.anchors.is_empty() {
            instructions::check(text, &info.anchors, no, &mut self.sink);
        }
        if info.families & COMMANDS != 0 {
            let mut lower = String::new();
            lower_into(&mut lower, text, true);
            let c = Cmd {
                line: text,
                lower: &lower,
                code: &lower,
                families: info.families,
                no,
                documented: false,
                prose: true,
                comment: false,
                shell: false,
            };
            let mut window = exfil::Window::default();
            exfil::check(&c, &mut window, &mut self.sink);
            scripts::check(&c, &mut self.sink);
            obfuscation::check(&c, &mut obfuscation::Decoded::default(), &mut self.sink);
        }
        self.sink.hidden = None;
    }
}

/// `line` lowercased into `out`; in prose, a sentence's punctuation (`: `, `, `, `. `) ends a
/// command as `;` does, so that "Run: curl …" reads as a command.
fn lower_into(out: &mut String, line: &str, prose: bool) {
    out.clear();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let ends = prose && matches!(c, ':' | ',' | '.') && chars.peek().is_some_and(|n| *n == ' ');
        out.push(if ends { ';' } else { c.to_ascii_lowercase() });
    }
}

/// Whether the script at `path` is a shell's (by its extension, else by its `#!` line).
fn is_shell(path: &str, text: &str) -> bool {
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
fn blank_quotes(lower: &str) -> String {
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
fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    ["#", "//", "/*", "* ", "\"\"\"", "'''", "--", "rem "].iter().any(|p| t.starts_with(p)) && !t.starts_with("#!")
}

/// A line as the command checks read it.
pub(super) struct Cmd<'a> {
    /// The line as written (for messages).
    pub line: &'a str,
    /// The line, ASCII lowercase.
    pub lower: &'a str,
    /// The line as its commands are read: lowercase, and in a script of another language than
    /// the shell's, with quoted text blanked when the line runs nothing.
    pub code: &'a str,
    /// A comment or docstring line of code.
    pub comment: bool,
    /// A line of shell (a shell script's, or a fence's): variables carry data from line to line.
    pub shell: bool,
    /// The families its words call for.
    pub families: u16,
    /// Its number.
    pub no: u32,
    /// The line (or the one before it) says it documents a danger (never, avoid, blocked ...).
    pub documented: bool,
    /// A line of Markdown prose (not code).
    pub prose: bool,
}

impl Cmd<'_> {
    /// Whether the line's words call for any of `families`.
    pub fn has(&self, families: u16) -> bool {
        self.families & families != 0
    }
}
