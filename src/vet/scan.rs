//! The one pass over a file: its lines with their context (Markdown fences, comments, hidden
//! elements, a script's heredocs), each line's words looked up in the trigger table
//! ([`super::words`]) as they are read, and the checks the line calls for, each given that line.
//! Every check reads only its line (and a few lines of state), so the pass is linear in the bytes.
//!
//! The line's context is in [`super::context`], its first reading in [`super::line`], and what the
//! command checks read of it in [`super::shell`].

use super::context::{trim_ascii, Ctx, Markdown};
use super::finding::{FileKind, Finding, RULES};
use super::line::{read_line, read_line_into, LineInfo};
use super::shell::{blank_quotes, is_comment, is_shell, lower_into};
use super::sink::{Cmd, Sink};
use super::words::{COMMANDS, CUE, EXEC, OUTPUT};
use super::{exfil, hidden, instructions, obfuscation, scripts};

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
            FileKind::Data => Ctx::Data,
            FileKind::Script => {
                if let Some(end) = &self.heredoc {
                    if trim_ascii(line) == end.as_str() {
                        self.heredoc = None;
                    }
                } else {
                    self.heredoc = obfuscation::heredoc_start(line);
                }
                Ctx::Script
            }
            FileKind::Markdown => self.md.context(no, line),
        }
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
