//! What a line is for the checks ([`Ctx`]), and the Markdown state carried from line to line that
//! tells it for a Markdown file: the frontmatter, fences (and whether their language is data),
//! and the comment or hidden element a line is inside.

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
    pub(super) fn prose(self) -> bool {
        matches!(self, Ctx::Prose | Ctx::Script)
    }
}

/// Markdown state carried from line to line.
#[derive(Default)]
pub(super) struct Markdown {
    /// The open fence: its character, length and whether its language is data.
    pub(super) fence: Option<(u8, usize, bool)>,
    /// Inside an HTML comment that started on an earlier line.
    pub(super) comment: bool,
    /// Inside a hidden element that started on an earlier line: its closing tag.
    pub(super) hidden: Option<&'static str>,
    /// 0 before the frontmatter, 1 inside it, 2 after.
    pub(super) frontmatter: u8,
}

/// Languages of a fence that say its lines are data.
const DATA_LANGUAGES: [&str; 14] =
    ["json", "jsonc", "json5", "jsonl", "yaml", "yml", "toml", "csv", "tsv", "xml", "svg", "text", "txt", "diff"];

/// `s` without the spaces and tabs at its ends (bytes: no character decoding).
pub(super) fn trim_ascii(s: &str) -> &str {
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

impl Markdown {
    /// The context of the next line of a Markdown file (`no`: its number), with the state moved
    /// past it.
    pub(super) fn context(&mut self, no: u32, line: &str) -> Ctx {
        if self.frontmatter == 0 {
            self.frontmatter = if no == 1 && trim_ascii(line) == "---" { 1 } else { 2 };
            if self.frontmatter == 1 {
                return Ctx::FenceMark;
            }
        } else if self.frontmatter == 1 {
            if matches!(trim_ascii(line), "---" | "...") {
                self.frontmatter = 2;
                return Ctx::FenceMark;
            }
            return Ctx::Prose;
        }
        if let Some((c, n, data)) = self.fence {
            if fence_close(line, c, n) {
                self.fence = None;
                return Ctx::FenceMark;
            }
            return Ctx::Fence { data };
        }
        if !self.comment && self.hidden.is_none() {
            if let Some(open) = fence_open(line) {
                self.fence = Some(open);
                return Ctx::FenceMark;
            }
        }
        Ctx::Prose
    }
}
