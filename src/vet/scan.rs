//! The one pass over a file: its lines with their context (Markdown fences, comments, hidden
//! elements, a script's heredocs), each line's words looked up in the trigger table
//! ([`super::words`]) as they are read, and the checks the line calls for, each given that line.
//! Every check reads only its line (and a few lines of state), so the pass is linear in the bytes.

use super::finding::{FileKind, Finding, RULES};
use super::sink::{Cmd, Sink};
use super::words::{hash_of, lookup, may_trigger, Families, COMMANDS, CUE, EXEC, INSTR, OUTPUT};
use super::{exfil, hidden, instructions, obfuscation, scripts};

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

/// The most phrase-starting words of a line that are tried.
pub(super) const MAX_ANCHORS: usize = 12;

/// What the first reading of a line found.
#[derive(Default)]
pub(super) struct LineInfo {
    /// The families of checks its words call for.
    pub families: Families,
    /// Words outside code and quotes that start phrases: byte offset and phrase group (the first
    /// `anchor_count`).
    pub anchors: [(u32, u8); MAX_ANCHORS],
    /// How many of `anchors` are set.
    pub anchor_count: usize,
    /// Bytes that may begin a character [`crate::text::hides`] hides (controls, format
    /// characters, variation selectors): the line's characters need a look.
    pub suspect: bool,
    /// A `<`, `[` or `!`: markup a rendered view may hide.
    pub markup: bool,
    /// The longest run of base64 characters.
    pub b64_run: usize,
    /// `\x` escapes.
    pub hex_escapes: usize,
}

impl LineInfo {
    /// The phrase-starting words found.
    pub fn anchors(&self) -> &[(u32, u8)] {
        self.anchors.get(..self.anchor_count).unwrap_or_default()
    }
}

/// Byte classes of the first reading: a word byte, a base64 byte that is no word byte, and a byte
/// that needs a look of its own (quotes, markup, escapes, controls, the first byte of a character
/// outside ASCII; the bytes that continue one need none).
const WORD: u8 = 1;
const B64: u8 = 2;
const SPECIAL: u8 = 4;

const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c.is_ascii_alphanumeric() || c == b'_' {
            WORD
        } else if matches!(c, b'+' | b'/' | b'=' | b'-') {
            B64
        } else if matches!(c, b'`' | b'"' | b'\'' | b'<' | b'[' | b'!' | b'\\')
            || c >= 0xC0
            || (c < 0x20 && c != b'\t')
            || c == 0x7F
        {
            SPECIAL
        } else {
            0
        };
        b += 1;
    }
    t
};

/// Reads a line once: its words against the trigger table, code spans and quotes (a phrase in
/// them is not aimed at the model, unless `quotes_count`), and what the other checks need.
pub(super) fn read_line(line: &str, quotes_count: bool) -> LineInfo {
    let mut info = LineInfo::default();
    read_line_into(line, quotes_count, &mut info);
    info
}

/// A word of the line ends: looked up when some trigger word may have its shape (most words have
/// none, and cost no more than that test).
#[inline(always)]
fn word_ends(b: &[u8], start: usize, end: usize, info: &mut LineInfo, quoted: bool) {
    if let Some(w) = b.get(start..end) {
        if may_trigger(w) {
            look_up_word(b, start, end, info, quoted);
        }
    }
}

/// Looks a word up in the trigger table and records what it calls for.
#[inline(never)]
fn look_up_word(b: &[u8], start: usize, end: usize, info: &mut LineInfo, quoted: bool) {
    let Some(w) = b.get(start..end) else { return };
    let (families, g) = lookup(w, hash_of(w));
    if families != 0 {
        info.families |= if quoted { families & !(INSTR | CUE) } else { families };
        if g != 0 && !quoted && info.anchor_count < MAX_ANCHORS {
            if let Some(slot) = info.anchors.get_mut(info.anchor_count) {
                *slot = (start as u32, g);
                info.anchor_count += 1;
            }
        }
    }
}

/// Eight bytes at a time: [`ONES`] has a 1 in each byte, [`HIGH`] the high bit of each.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` (bytes below 0x80) that is in `lo..=hi`: no byte's sum
/// carries into the next.
#[inline(always)]
fn in_range(x: u64, lo: u8, hi: u8) -> u64 {
    (x.wrapping_add(ONES * u64::from(0x80 - lo)) & !x.wrapping_add(ONES * u64::from(0x7F - hi))) & HIGH
}

/// The high bit of each byte of `x` that is a word byte (an ASCII letter, digit or `_`).
#[inline(always)]
fn word_bytes(x: u64) -> u64 {
    let ascii = !x & HIGH;
    let y = x & !HIGH;
    (in_range(y | (ONES * 0x20), b'a', b'z') | in_range(y, b'0', b'9') | in_range(y, b'_', b'_')) & ascii
}

/// [`read_line`] into `info` (reset first). Eight bytes at a time, the bytes that are no word's
/// are found (spaces and punctuation, about one in five); the words are the gaps between them,
/// each tested for a trigger's first letter and length, and each byte found has a table lookup.
pub(super) fn read_line_into(line: &str, quotes_count: bool, info: &mut LineInfo) {
    info.families = 0;
    info.anchor_count = 0;
    info.suspect = false;
    info.markup = false;
    info.b64_run = 0;
    info.hex_escapes = 0;
    let b = line.as_bytes();
    let (mut in_tick, mut in_dq, mut in_sq) = (false, false, false);
    // The position after the last byte that is no word's, and where the current run of base64
    // bytes began.
    let mut next = 0usize;
    let mut run = 0usize;
    let mut at = 0usize;
    for chunk in b.chunks(8) {
        let (word, valid) = match <[u8; 8]>::try_from(chunk) {
            Ok(full) => (u64::from_le_bytes(full), HIGH),
            Err(_) => {
                let mut bytes = [0u8; 8];
                for (d, s) in bytes.iter_mut().zip(chunk) {
                    *d = *s;
                }
                (u64::from_le_bytes(bytes), HIGH & ((1u64 << (8 * chunk.len())) - 1))
            }
        };
        let mut others = !word_bytes(word) & valid;
        while others != 0 {
            let i = at + (others.trailing_zeros() / 8) as usize;
            others &= others - 1;
            let c = b.get(i).copied().unwrap_or(0);
            let after_word = i > next;
            if after_word {
                word_ends(b, next, i, info, in_tick || ((in_dq || in_sq) && !quotes_count));
            }
            next = i + 1;
            let k = CLASS[c as usize];
            if k == B64 {
                continue;
            }
            // A byte that is neither a word's nor base64's ends a run of base64.
            info.b64_run = info.b64_run.max(i - run);
            run = i + 1;
            if k != SPECIAL {
                continue;
            }
            match c {
                b'`' => in_tick = !in_tick,
                b'"' => in_dq ^= !in_tick,
                b'\'' => {
                    // An apostrophe inside a word (don't, users') is no quote.
                    if !in_tick && !in_dq && (in_sq || !after_word) {
                        in_sq = !in_sq;
                    }
                }
                b'<' | b'[' | b'!' => info.markup = true,
                b'\\' => info.hex_escapes += usize::from(b.get(i + 1) == Some(&b'x')),
                0xC0..=0xFF => {
                    if c == 0xE2 && b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0x9C) | Some(0x9D)) {
                        // Curly double quotes open and close a quote.
                        in_dq = b.get(i + 2) == Some(&0x9C);
                    } else {
                        info.suspect |= crate::unseen::may_begin_hidden(b, i);
                    }
                }
                // Bytes that continue a character outside ASCII.
                0x80..=0xBF => {}
                // Controls.
                _ => info.suspect = true,
            }
        }
        at += chunk.len();
    }
    if b.len() > next {
        word_ends(b, next, b.len(), info, in_tick || ((in_dq || in_sq) && !quotes_count));
    }
    info.b64_run = info.b64_run.max(b.len().saturating_sub(run));
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

/// `s` without the spaces and tabs at its ends (bytes: no character decoding).
fn trim_ascii(s: &str) -> &str {
    let b = s.as_bytes();
    let blank = |c: &u8| *c == b' ' || *c == b'\t';
    let Some(start) = b.iter().position(|c| !blank(c)) else { return "" };
    let end = b.iter().rposition(|c| !blank(c)).map_or(start, |e| e + 1);
    s.get(start..end).unwrap_or_default()
}

/// The fence a line opens: `(char, length, data)`, or None.
fn fence_open(line: &str) -> Option<(u8, usize, bool)> {
    let b = line.as_bytes();
    let at = b.iter().position(|&c| c != b' ' && c != b'\t')?;
    let c = *b.get(at)?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let t = line.get(at..)?;
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
    let t = trim_ascii(line);
    t.len() >= n && t.bytes().all(|b| b == c)
}

/// How much of a file is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Every check on every line.
    Full,
    /// The checks of hidden text only (characters, and markup a rendered view hides, with every
    /// check on its text): what discovery runs over the SKILL.md bytes it reads when a look at
    /// them finds something that may hide text.
    Hidden,
}

/// Bytes of a line the discovery pass looks for: one that may begin a hidden character (outside
/// ASCII, or a control) and one of the markup a rendered view may hide (`<`, `[`, `!`).
const FLAG_SUSPECT: u8 = 1;
const FLAG_MARKUP: u8 = 2;
const FLAGS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c >= 0xC0 || (c < 0x20 && c != b'\t') || c == 0x7F {
            FLAG_SUSPECT
        } else if matches!(c, b'<' | b'[' | b'!') {
            FLAG_MARKUP
        } else {
            0
        };
        b += 1;
    }
    t
};

/// The state of a file's pass.
pub(super) struct Scanner<'p> {
    depth: Depth,
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
    /// What the first reading of a line found (kept to reuse it).
    info: LineInfo,
}

/// Vets `text`, the file at `path` of a skill, read as `kind`.
pub(super) fn scan(path: &str, text: &str, kind: FileKind, depth: Depth) -> Vec<Finding> {
    let mut s = Scanner {
        depth,
        sink: Sink { path, out: Vec::new(), counts: [0; RULES.len()], hidden: None },
        kind,
        shell: kind != FileKind::Script || is_shell(path, text),
        md: Markdown::default(),
        heredoc: None,
        prev_cue: false,
        commands: exfil::Window::default(),
        decoded: obfuscation::Decoded::default(),
        lower: String::new(),
        info: LineInfo::default(),
    };
    // A byte order mark at the start is the file's encoding, not hidden text.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut no = 0u32;
    for line in text.split('\n') {
        no = no.saturating_add(1);
        let line = match line.as_bytes().last() {
            Some(b'\r') => line.get(..line.len() - 1).unwrap_or_default(),
            _ => line,
        };
        s.line(no, line);
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
                    if trim_ascii(line) == end.as_str() {
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
            md.frontmatter = if no == 1 && trim_ascii(line) == "---" { 1 } else { 2 };
            if md.frontmatter == 1 {
                return Ctx::FenceMark;
            }
        } else if md.frontmatter == 1 {
            if matches!(trim_ascii(line), "---" | "...") {
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
        let blank = trim_ascii(line).is_empty();
        if blank || ctx == Ctx::FenceMark {
            if ctx == Ctx::FenceMark {
                self.commands.reset();
            }
            if blank {
                self.prev_cue = false;
            }
            return;
        }
        if self.depth == Depth::Hidden {
            return self.body_line(no, line, ctx);
        }
        let mut info = std::mem::take(&mut self.info);
        read_line_into(line, false, &mut info);
        // A script's line that prints: its quoted text is what the model reads.
        if ctx == Ctx::Script && info.families & OUTPUT != 0 {
            read_line_into(line, true, &mut info);
        }
        if info.suspect {
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
                read_line_into(&visible, false, &mut info);
                self.checks(no, &visible, ctx, &info);
                self.info = info;
                return;
            }
        }
        self.checks(no, line, ctx, &info);
        self.info = info;
    }

    /// A line at [`Depth::Hidden`]: one look at each byte for what may hide text, and the checks
    /// of hidden text where it is found.
    fn body_line(&mut self, no: u32, line: &str, ctx: Ctx) {
        let b = line.as_bytes();
        let mut flags = 0u8;
        for &c in b {
            flags |= FLAGS[c as usize];
        }
        if flags & FLAG_SUSPECT != 0
            && b.iter().enumerate().any(|(i, &c)| {
                (c < 0x20 && c != b'\t') || c == 0x7F || (c >= 0xC0 && crate::unseen::may_begin_hidden(b, i))
            })
        {
            hidden::characters(line, no, &mut self.sink);
        }
        let body = self.md.frontmatter == 2;
        if body && ctx == Ctx::Prose && (flags & FLAG_MARKUP != 0 || self.md.comment || self.md.hidden.is_some()) {
            for span in hidden::spans(line, &mut self.md.comment, &mut self.md.hidden) {
                if let Some(text) = line.get(span.start..span.end) {
                    self.hidden_text(no, text, span.what);
                    hidden::markup_note(text, span.what, no, &mut self.sink);
                }
            }
        }
    }

    /// The phrase, command and blob checks of a line's text.
    fn checks(&mut self, no: u32, line: &str, ctx: Ctx, info: &LineInfo) {
        let cue = info.families & CUE != 0;
        if ctx.prose() && info.anchor_count > 0 && self.kind != FileKind::Data {
            instructions::check(line, info.anchors(), no, &mut self.sink);
        }
        // What runs text (sh, eval ...) matters only beside another family (a fetch, a decoder)
        // or a variable of decoded text.
        if info.families & COMMANDS & !EXEC != 0 || (info.families & EXEC != 0 && self.decoded.pending()) {
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
                cmds: Default::default(),
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
        if info.anchor_count > 0 {
            instructions::check(text, info.anchors(), no, &mut self.sink);
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
                cmds: Default::default(),
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
