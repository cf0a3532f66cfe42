//! Text helpers shared by every stage: neutralising per output format, the token estimate used
//! by every budget, code regions of Markdown, and NFKC normalisation.
//!
//! Every value that goes into output passes one function of its format, so no value can open or
//! close markup, start another entry, or hide what it says:
//! - [`xml_text`] (element text: the XML catalog, the lines of the `<skill_content>` wrapper) and
//!   [`xml_attr`] (attribute values, the reference layout);
//! - [`markdown_text`] (Markdown text) and [`markdown_code`] (inside a code span);
//! - [`json_for_markup`] (JSON that stands in a prompt);
//! - every single-line field first goes through [`one_line`]; multi-line text (bodies, files)
//!   through [`clean_lines`] and the protocol's tag neutralisation ([`neutralize_tags`],
//!   `content::neutralize_markup`).
//!
//! One rule says which characters no output shows as they are ([`hides`]): the format characters
//! (general category Cf: bidi marks, embeddings, overrides and isolates, zero-width characters,
//! tag characters, the invisible operators), the other default-ignorable characters that show
//! nothing (fillers, the combining grapheme joiner), C0/C1 controls, and a variation selector that
//! varies nothing (one after another, or after nothing visible: hidden data, not presentation).
//! They are made visible as U+FFFD rather than removed: removing them would join what they
//! separated (`pd\u{200B}f` would read as `pdf`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Characters counted for a token estimate: ASCII and other. Counts add up (`+`), so a text can
/// be measured piece by piece and estimated once at the end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenCount {
    /// ASCII characters.
    pub ascii: u64,
    /// Characters of other scripts.
    pub other: u64,
}

impl TokenCount {
    /// The characters of `s`, counted by their bytes: an ASCII byte is a character, and every
    /// other character has exactly one leading byte (`0xC0` and above) in UTF-8. One pass with no
    /// decoding, as fast built for size as for speed.
    pub fn of(s: &str) -> Self {
        let (mut ascii, mut other) = (0u64, 0u64);
        for &b in s.as_bytes() {
            ascii += u64::from(b < 0x80);
            other += u64::from(b >= 0xC0);
        }
        TokenCount { ascii, other }
    }

    /// The estimate: about four characters of ASCII text per token, one per character of other
    /// scripts (CJK text runs close to one token per character).
    pub fn tokens(self) -> u64 {
        self.ascii.div_ceil(4) + self.other
    }
}

impl std::ops::Add for TokenCount {
    type Output = TokenCount;

    fn add(self, more: TokenCount) -> TokenCount {
        TokenCount { ascii: self.ascii + more.ascii, other: self.other + more.other }
    }
}

/// A rough token count of `s`, for budgets ([`TokenCount`]'s estimate, capped at `u32::MAX`).
pub fn estimate_tokens(s: &str) -> u32 {
    TokenCount::of(s).tokens().min(u32::MAX as u64) as u32
}

/// What a character that would be invisible or would steer the display stands as in output:
/// U+FFFD (�). Visible, one character, and markup in no format.
pub const HIDDEN_CHAR: char = '\u{FFFD}';

/// Characters no output shows as they are, whatever stands before them:
/// - every format character (general category Cf, Unicode 15.1): the soft hyphen, the Arabic,
///   Syriac and Egyptian format marks, U+061C, U+180E, U+200B–U+200F (zero-width characters and
///   the bidi marks), U+202A–U+202E and U+2066–U+2069 (bidi embeddings, overrides, isolates),
///   U+2060–U+2064 and U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB, the shorthand and musical format
///   controls, and the tag characters U+E0001, U+E0020–U+E007F;
/// - the other default-ignorable code points outside the variation selectors (the combining
///   grapheme joiner, the Hangul fillers, the Khmer inherent vowels, U+FFF0–U+FFF8, the rest of
///   U+E0000–U+E0FFF), which show nothing;
/// - the C0 and C1 control characters and DEL other than tab and the line breaks.
///
/// Variation selectors depend on what precedes them: see [`hides`].
pub fn is_hidden_char(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{E}'..='\u{1F}' | '\u{7F}'..='\u{84}' | '\u{86}'..='\u{9F}'
        | '\u{AD}' | '\u{34F}' | '\u{600}'..='\u{605}' | '\u{61C}' | '\u{6DD}' | '\u{70F}' | '\u{890}'..='\u{891}'
        | '\u{8E2}' | '\u{115F}'..='\u{1160}' | '\u{17B4}'..='\u{17B5}' | '\u{180E}' | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{3164}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{110BD}' | '\u{110CD}' | '\u{13430}'..='\u{1343F}'
        | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E00FF}' | '\u{E01F0}'..='\u{E0FFF}')
}

/// The variation selectors: U+180B–U+180D and U+180F (Mongolian), U+FE00–U+FE0F, U+E0100–U+E01EF.
pub fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{180B}'..='\u{180D}' | '\u{180F}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// The one rule of every output: whether `c`, after `prev` (the character before it in the
/// original text; None at its start), is shown as [`HIDDEN_CHAR`]. A [hidden
/// character](is_hidden_char) always is; a variation selector is unless it follows a character it
/// can vary (visible, not whitespace, not itself a selector), as `\u{2764}\u{FE0F}` does: a run of
/// selectors carries data nobody sees.
pub fn hides(prev: Option<char>, c: char) -> bool {
    if is_variation_selector(c) {
        return prev.is_none_or(|p| p.is_whitespace() || is_hidden_char(p) || is_variation_selector(p));
    }
    is_hidden_char(c)
}

/// Whether [`hides`] could hide `c` in some text: a quick test for text that needs no change.
fn may_hide(c: char) -> bool {
    is_hidden_char(c) || is_variation_selector(c)
}

/// Line breaks other than `\n`: CR, VT, FF, NEL, U+2028 and U+2029.
fn is_other_line_break(c: char) -> bool {
    matches!(c, '\r' | '\u{B}' | '\u{C}' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// A value on one line, the first step of every single-line field in every format: line breaks
/// (`\n`, CR, VT, FF, NEL, U+2028, U+2029) and other whitespace runs become one space, the ends
/// are trimmed, and what [`hides`] hides becomes [`HIDDEN_CHAR`].
pub fn one_line(s: &str) -> String {
    one_line_cow(s).into_owned()
}

/// [`one_line`], borrowed when the value is already on one line: printable ASCII with single
/// spaces between words (most names, descriptions and locations), checked byte by byte.
fn one_line_cow(s: &str) -> Cow<'_, str> {
    // One pass: `prev` starts as a space, so a leading space (or an empty value) is not plain.
    let mut prev = b' ';
    let mut plain = true;
    for &c in s.as_bytes() {
        if (c == b' ' && prev == b' ') || (c != b' ' && !(0x21..0x7f).contains(&c)) {
            plain = false;
            break;
        }
        prev = c;
    }
    if plain && prev != b' ' {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    let bytes = s.as_bytes();
    let mut at = 0;
    let mut prev: Option<char> = None;
    while at < bytes.len() {
        // A run of printable ASCII other than the space is copied in one piece.
        let run = bytes.get(at..).unwrap_or_default().iter().take_while(|b| (0x21..0x7f).contains(*b)).count();
        if run > 0 {
            if space {
                out.push(' ');
                space = false;
            }
            out.push_str(s.get(at..at + run).unwrap_or_default());
            prev = bytes.get(at + run - 1).map(|&b| char::from(b));
            at += run;
            continue;
        }
        let Some(c) = s.get(at..).and_then(|rest| rest.chars().next()) else { break };
        at += c.len_utf8();
        let before = prev.replace(c);
        if c.is_whitespace() || is_other_line_break(c) {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(if hides(before, c) { HIDDEN_CHAR } else { c });
    }
    Cow::Owned(out)
}

/// A multi-line text (a skill's body, a file) with its lines kept: CRLF and the other line
/// breaks become `\n`, tabs stay, and [hidden characters](is_hidden_char) become
/// [`HIDDEN_CHAR`] ([`hides`]). Borrowed when nothing changes.
pub fn clean_lines(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| may_hide(c) || is_other_line_break(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    let mut prev = None;
    while let Some(c) = chars.next() {
        let before = prev.replace(c);
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' | '\u{85}' | '\u{2028}' | '\u{2029}' => out.push('\n'),
            c if hides(before, c) || is_other_line_break(c) => out.push(HIDDEN_CHAR),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A text with its bytes kept as far as possible (a skill's file, shown as written): only
/// what [`hides`] hides becomes [`HIDDEN_CHAR`]; line breaks stay as they are.
pub fn clean_hidden(s: &str) -> Cow<'_, str> {
    if !s.chars().any(may_hide) {
        return Cow::Borrowed(s);
    }
    let mut prev = None;
    Cow::Owned(s.chars().map(|c| if hides(prev.replace(c), c) { HIDDEN_CHAR } else { c }).collect())
}

/// XML (and HTML) escaping of `&`, `<`, `>`, `"` and `'`, as the reference's `html.escape`, of the
/// text as it is. Prefer [`xml_attr`] for anything that goes on one line.
pub fn escape_html(s: &str) -> String {
    escape(s, true)
}

/// A single-line value as XML element text (the XML catalog, the lines of the `<skill_content>`
/// wrapper): [`one_line`], then `&`, `<` and `>` escaped (quotes need none there, and each escaped
/// quote would cost tokens). No tag can open or close in it.
pub fn xml_text(s: &str) -> String {
    escape(&one_line_cow(s), false)
}

/// A single-line value as an XML attribute value or in the reference layout: [`one_line`], then
/// `&`, `<`, `>`, `"` and `'` escaped.
pub fn xml_attr(s: &str) -> String {
    escape(&one_line_cow(s), true)
}

fn escape(s: &str, quotes: bool) -> String {
    let mut out = String::with_capacity(s.len());
    // The text between two escaped characters is copied in one piece (each is ASCII, so every
    // cut is on a character boundary).
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' if quotes => "&quot;",
            b'\'' if quotes => "&#x27;",
            _ => continue,
        };
        out.push_str(s.get(from..i).unwrap_or_default());
        out.push_str(entity);
        from = i + 1;
    }
    out.push_str(s.get(from..).unwrap_or_default());
    out
}

/// A single-line value as Markdown text (a name, a description in a bullet): [`one_line`], then
/// `&`, `<` and `>` as entities (so no HTML and no protocol tag appears, even to a plain scan),
/// a backslash before every other character inline Markdown reads as syntax (`` \ ` * _ [ ] # | ~ ``),
/// and before a leading `-`, `+`, `=` or the `.`/`)` of a leading number, so the value cannot start
/// a list, a heading rule or a new item.
pub fn markdown_text(s: &str) -> String {
    let line = one_line(s);
    let mut out = String::with_capacity(line.len() + 8);
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    for (i, c) in line.char_indices() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '-' | '+' | '=' if i == 0 => {
                out.push('\\');
                out.push(c);
            }
            '.' | ')' if i == digits && digits > 0 => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// A single-line value inside a Markdown code span (a location): [`one_line`], backticks as `'`
/// (nothing can be escaped inside a span, so a backtick would end it) and the protocol's tags
/// neutralised ([`neutralize_tags`]).
pub fn markdown_code(s: &str) -> String {
    neutralize_tags(&one_line(s).replace('`', "'"), crate::content::PROTOCOL_TAGS).into_owned()
}

/// JSON text made safe to stand inside markup: `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026`
/// and U+2028/U+2029 as `\u2028`/`\u2029`. The JSON means the same (outside strings, serialised
/// JSON holds none of them); no tag can open or close in it. Values that are single-line fields
/// go through [`one_line`] before they are serialised.
pub fn json_for_markup(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// `text` with every tag named in `tags` unable to open or close: the `<` of `<name`, `</name`,
/// and their spellings with whitespace (`< /name >`, `</name\n>`), in any case, becomes `&lt;`
/// (and the `>` that ends a bare `</name>` or `<name>`, `&gt;`). A tag name must end there:
/// `<skill_contents>` is left alone. Borrowed when there is nothing to neutralise.
pub fn neutralize_tags<'a>(text: &'a str, tags: &[&str]) -> Cow<'a, str> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = bytes.get(i..).and_then(|r| r.iter().position(|&b| b == b'<')) {
        let lt = i + off;
        i = lt + 1;
        let mut j = lt + 1;
        let skip_ws = |mut j: usize| {
            while bytes.get(j).is_some_and(|b| b.is_ascii_whitespace()) {
                j += 1;
            }
            j
        };
        j = skip_ws(j);
        if bytes.get(j) == Some(&b'/') {
            j = skip_ws(j + 1);
        }
        let Some(len) = tags.iter().map(|t| t.as_bytes()).find_map(|t| {
            let name = bytes.get(j..j + t.len())?;
            let ends = bytes.get(j + t.len()).is_none_or(|&b| !(b.is_ascii_alphanumeric() || b"_-:.".contains(&b)));
            (name.eq_ignore_ascii_case(t) && ends).then_some(t.len())
        }) else {
            continue;
        };
        let o = out.get_or_insert_with(|| String::with_capacity(text.len() + 16));
        o.push_str(text.get(copied..lt).unwrap_or(""));
        o.push_str("&lt;");
        let after = skip_ws(j + len);
        match bytes.get(after) {
            Some(b'>') => {
                o.push_str(text.get(lt + 1..after).unwrap_or(""));
                o.push_str("&gt;");
                copied = after + 1;
            }
            _ => copied = lt + 1,
        }
        i = copied.max(i);
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut o) => {
            o.push_str(text.get(copied..).unwrap_or(""));
            Cow::Owned(o)
        }
    }
}

/// Byte ranges `[start, end)` of `text` that are code: fenced code blocks (``` or ~~~, three or
/// more, indented up to three spaces, with or without an info string; an unclosed fence runs to
/// the end, as in CommonMark) and inline code spans (a run of N backticks closed by the next run
/// of exactly N backticks within the same paragraph; a backslash before the opening run escapes
/// its first backtick). Sorted and disjoint. Indented code blocks, and fences inside block quotes
/// or list items, are not recognised.
pub fn code_ranges(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let len = bytes.len();
    let mut out = Vec::new();
    let mut pos = 0usize;
    // (fence char, fence length, start of the opening line)
    let mut fence: Option<(u8, usize, usize)> = None;
    let mut prose_start = 0usize;
    while pos < len {
        let line_end = bytes[pos..].iter().position(|&b| b == b'\n').map_or(len, |i| pos + i);
        let next = if line_end < len { line_end + 1 } else { len };
        let line = &bytes[pos..line_end];
        match fence {
            Some((ch, n, start)) => {
                if is_closing_fence(line, ch, n) {
                    out.push((start, next));
                    fence = None;
                    prose_start = next;
                }
            }
            None => {
                if let Some((ch, n)) = opening_fence(line) {
                    inline_spans(bytes, prose_start, pos, &mut out);
                    fence = Some((ch, n, pos));
                } else if line.iter().all(|b| b.is_ascii_whitespace()) {
                    inline_spans(bytes, prose_start, pos, &mut out);
                    prose_start = next;
                }
            }
        }
        pos = next;
    }
    match fence {
        Some((_, _, start)) => out.push((start, len)),
        None => inline_spans(bytes, prose_start, len, &mut out),
    }
    out
}

fn fence_indent(line: &[u8]) -> Option<usize> {
    let spaces = line.iter().take_while(|&&b| b == b' ').count();
    (spaces <= 3).then_some(spaces)
}

fn opening_fence(line: &[u8]) -> Option<(u8, usize)> {
    let i = fence_indent(line)?;
    let ch = *line.get(i)?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let n = line[i..].iter().take_while(|&&b| b == ch).count();
    if n < 3 {
        return None;
    }
    // A backtick fence's info string may not contain a backtick (that is an inline span).
    if ch == b'`' && line[i + n..].contains(&b'`') {
        return None;
    }
    Some((ch, n))
}

fn is_closing_fence(line: &[u8], ch: u8, n: usize) -> bool {
    let Some(i) = fence_indent(line) else { return false };
    let run = line[i..].iter().take_while(|&&b| b == ch).count();
    run >= n && line[i + run..].iter().all(|b| b.is_ascii_whitespace())
}

/// Inline code spans within `[a, b)`, appended to `out` in order.
fn inline_spans(bytes: &[u8], a: usize, b: usize, out: &mut Vec<(usize, usize)>) {
    if a >= b {
        return;
    }
    // Backtick runs: (start, length, first backtick escaped by a backslash).
    let mut runs: Vec<(usize, usize, bool)> = Vec::new();
    let mut i = a;
    while i < b {
        if bytes[i] == b'`' {
            let start = i;
            while i < b && bytes[i] == b'`' {
                i += 1;
            }
            let slashes = bytes[a..start].iter().rev().take_while(|&&c| c == b'\\').count();
            runs.push((start, i - start, slashes % 2 == 1));
        } else {
            i += 1;
        }
    }
    if runs.len() < 2 {
        return;
    }
    // For each length, the indices of the runs of that length, and a cursor into them.
    let mut by_len: HashMap<usize, (Vec<usize>, usize)> = HashMap::new();
    for (idx, r) in runs.iter().enumerate() {
        by_len.entry(r.1).or_default().0.push(idx);
    }
    let mut idx = 0usize;
    while idx < runs.len() {
        let (start, n, escaped) = runs[idx];
        let (open_start, open_len) = if escaped { (start + 1, n - 1) } else { (start, n) };
        if open_len == 0 {
            idx += 1;
            continue;
        }
        let close = by_len.get_mut(&open_len).and_then(|(list, cur)| {
            while *cur < list.len() && list[*cur] <= idx {
                *cur += 1;
            }
            list.get(*cur).copied()
        });
        match close {
            Some(j) => {
                let (cs, cl, _) = runs[j];
                out.push((open_start, cs + cl));
                idx = j + 1;
            }
            None => idx += 1,
        }
    }
}

/// Walks increasing byte positions and tells whether each is inside one of `ranges`.
#[cfg(feature = "invocation")]
pub struct CodeCursor<'a> {
    ranges: &'a [(usize, usize)],
    i: usize,
}

#[cfg(feature = "invocation")]
impl<'a> CodeCursor<'a> {
    /// A cursor over `ranges` (sorted, not overlapping), before the first position.
    pub fn new(ranges: &'a [(usize, usize)]) -> Self {
        CodeCursor { ranges, i: 0 }
    }
    /// `pos` must not decrease between calls.
    pub fn in_code(&mut self, pos: usize) -> bool {
        while let Some(&(_, end)) = self.ranges.get(self.i) {
            if end <= pos {
                self.i += 1;
            } else {
                break;
            }
        }
        matches!(self.ranges.get(self.i), Some(&(start, _)) if start <= pos)
    }
}

/// Converts increasing byte offsets into UTF-16 code unit offsets.
#[cfg(feature = "invocation")]
pub struct Utf16Cursor<'a> {
    text: &'a str,
    byte: usize,
    units: usize,
}

#[cfg(feature = "invocation")]
impl<'a> Utf16Cursor<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        Utf16Cursor { text, byte: 0, units: 0 }
    }
    /// The UTF-16 offset of byte offset `byte` (offsets are to increase between calls).
    pub fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            // Not expected; recount from the start rather than fail.
            self.byte = 0;
            self.units = 0;
        }
        let end = byte.min(self.text.len());
        if let Some(slice) = self.text.get(self.byte..end) {
            self.units += slice.chars().map(char::len_utf16).sum::<usize>();
            self.byte = end;
        }
        self.units
    }
}

/// The NFKC normalisation a host installed with [`set_nfkc`].
static NFKC: OnceLock<fn(&str) -> String> = OnceLock::new();

/// Installs the NFKC normalisation [`nfkc`] uses instead of its built-in one. The wasm façade
/// installs the host's `String.prototype.normalize` at start (every JS runtime has the Unicode
/// tables, so the module does not carry them). The first installation wins; returns whether this
/// one was taken.
pub fn set_nfkc(normalize: fn(&str) -> String) -> bool {
    NFKC.set(normalize).is_ok()
}

/// Unicode NFKC normalisation, as the reference applies it to names: the installed function
/// ([`set_nfkc`]), else the unicode-normalization crate (the `nfkc-tables` feature, on by
/// default), else the text unchanged.
pub fn nfkc(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return Cow::Borrowed(s); // ASCII is NFKC-stable
    }
    match NFKC.get() {
        Some(normalize) => Cow::Owned(normalize(s)),
        None => builtin_nfkc(s),
    }
}

#[cfg(feature = "nfkc-tables")]
fn builtin_nfkc(s: &str) -> Cow<'_, str> {
    use unicode_normalization::UnicodeNormalization;
    Cow::Owned(s.nfkc().collect())
}

#[cfg(not(feature = "nfkc-tables"))]
fn builtin_nfkc(s: &str) -> Cow<'_, str> {
    Cow::Borrowed(s)
}

/// The lowercase mapping a host installed with [`set_lowercase`].
static LOWERCASE: OnceLock<fn(&str) -> String> = OnceLock::new();

/// Installs the lowercase mapping [`lowercase`] uses for text that is not ASCII instead of the
/// standard library's. The wasm façade installs the host's `String.prototype.toLowerCase` at
/// start (the same Unicode mapping, final sigma included; every JS runtime has the tables, so the
/// module does not carry them). The first installation wins; returns whether this one was taken.
pub fn set_lowercase(lower: fn(&str) -> String) -> bool {
    LOWERCASE.set(lower).is_ok()
}

/// `s` in lowercase, as `str::to_lowercase` maps it: ASCII here, other text by the installed
/// function ([`set_lowercase`]), else by the standard library's tables (the `case-tables`
/// feature, on by default), else with only its ASCII letters lowered.
pub fn lowercase(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    match LOWERCASE.get() {
        Some(lower) => lower(s),
        None => builtin_lowercase(s),
    }
}

#[cfg(feature = "case-tables")]
fn builtin_lowercase(s: &str) -> String {
    s.to_lowercase()
}

#[cfg(not(feature = "case-tables"))]
fn builtin_lowercase(s: &str) -> String {
    s.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `one_line` as one character at a time: what the run-copying loop must equal.
    fn one_line_by_chars(s: &str) -> String {
        let mut out = String::new();
        let mut space = false;
        let mut prev = None;
        for c in s.chars() {
            let before = prev.replace(c);
            if c.is_whitespace() || is_other_line_break(c) {
                space = !out.is_empty();
                continue;
            }
            if space {
                out.push(' ');
                space = false;
            }
            out.push(if hides(before, c) { HIDDEN_CHAR } else { c });
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn one_line_copies_runs_as_it_would_copy_characters(
            s in "[a-z .,\t\n\r\u{b}\u{85}\u{a0}\u{2028}\u{200b}\u{202e}\u{7f}\u{1}é中\u{fe0f}\u{e0041}\u{e0100}\u{200e}]{0,40}"
        ) {
            proptest::prop_assert_eq!(one_line(&s), one_line_by_chars(&s));
        }

        #[test]
        fn token_counts_by_bytes_are_counts_of_characters(s in "\\PC{0,60}") {
            let ascii = s.chars().filter(char::is_ascii).count() as u64;
            let other = s.chars().count() as u64 - ascii;
            proptest::prop_assert_eq!(TokenCount::of(&s), TokenCount { ascii, other });
        }
    }

    #[test]
    fn one_line_and_escaping_give_the_same_text_on_the_quick_path_and_the_long_one() {
        let cases = [
            ("a plain description.", "a plain description."),
            ("", ""),
            (" lead", "lead"),
            ("trail ", "trail"),
            ("two  spaces", "two spaces"),
            ("tab\there", "tab here"),
            ("line\nbreak\r\n", "line break"),
            ("caf\u{e9} \u{200B}x", "caf\u{e9} \u{FFFD}x"),
            ("del\u{7f}", "del\u{FFFD}"),
        ];
        for (input, want) in cases {
            assert_eq!(one_line(input), want, "{input:?}");
        }
        assert_eq!(xml_attr("a<b & 'c' \"d\">"), "a&lt;b &amp; &#x27;c&#x27; &quot;d&quot;&gt;");
        assert_eq!(xml_text("a<b & 'c'\n>"), "a&lt;b &amp; 'c' &gt;");
        assert_eq!(xml_attr("\u{e9}&\u{e9}"), "\u{e9}&amp;\u{e9}");
    }

    #[test]
    fn code_ranges_fences_and_spans() {
        let t = "a `b` c\n```js\nx\n```\nd ``e ` f`` g";
        let r = code_ranges(t);
        let parts: Vec<&str> = r.iter().map(|&(a, b)| &t[a..b]).collect();
        assert_eq!(parts, vec!["`b`", "```js\nx\n```\n", "``e ` f``"]);
    }

    #[test]
    fn code_ranges_tilde_indented_unclosed_and_longer_close() {
        let t = "x\n   ~~~~ info\n~~~\nstill\n~~~~~\ny";
        let r = code_ranges(t);
        assert_eq!(r.len(), 1);
        assert_eq!(&t[r[0].0..r[0].1], "   ~~~~ info\n~~~\nstill\n~~~~~\n");
        let t = "x\n```\nnever closed $pdf";
        let r = code_ranges(t);
        assert_eq!(&t[r[0].0..r[0].1], "```\nnever closed $pdf");
        // Four spaces: not a fence.
        assert!(code_ranges("    ```\nx").is_empty());
    }

    #[test]
    fn code_ranges_unmatched_and_escaped_backticks() {
        assert!(code_ranges("a `b c").is_empty());
        assert!(code_ranges("a ``b` c").is_empty());
        // Escaped opening backtick: the span starts at the next one.
        let t = r"\``x`";
        let r = code_ranges(t);
        assert_eq!(r.iter().map(|&(a, b)| &t[a..b]).collect::<Vec<_>>(), vec!["`x`"]);
        // A blank line ends the paragraph: no span across it.
        assert!(code_ranges("a `b\n\nc` d").is_empty());
        assert_eq!(code_ranges("a `b\nc` d").len(), 1);
    }

    #[test]
    fn code_ranges_many_backticks_is_linear() {
        let t: String = (1..2000).map(|n| "`".repeat(n % 50 + 1) + " x ").collect();
        let _ = code_ranges(&t);
    }

    #[test]
    fn neutralisers_per_format() {
        assert_eq!(xml_text(" a <b>\n& c "), "a &lt;b&gt; &amp; c");
        assert_eq!(xml_attr("it's \"x\""), "it&#x27;s &quot;x&quot;");
        assert_eq!(markdown_text("- **x** [y](z) <b> & 1."), "\\- \\*\\*x\\*\\* \\[y\\](z) &lt;b&gt; &amp; 1.");
        assert_eq!(markdown_text("12. item | `c`"), "12\\. item \\| \\`c\\`");
        assert_eq!(markdown_code("a`b</skill_content>"), "a'b&lt;/skill_content&gt;");
        assert_eq!(json_for_markup("\"<a>&\u{2028}\""), "\"\\u003ca\\u003e\\u0026\\u2028\"");
        assert_eq!(one_line("p\u{200B}d\u{202E}f"), "p\u{FFFD}d\u{FFFD}f");
        assert_eq!(clean_hidden("a\r\nb\u{0}"), "a\r\nb\u{FFFD}");
        let tags = &["skill_content"];
        assert_eq!(neutralize_tags("x </Skill_Content > y", tags), "x &lt;/Skill_Content &gt; y");
        assert_eq!(neutralize_tags("<skill_content name=\"a\">", tags), "&lt;skill_content name=\"a\">");
        assert!(matches!(neutralize_tags("<skill_contents> a < b", tags), Cow::Borrowed(_)));
    }

    /// One character of each kind no output shows, with what it is.
    const INVISIBLE_KINDS: [(char, &str); 44] = [
        ('\u{AD}', "soft hyphen"),
        ('\u{34F}', "combining grapheme joiner"),
        ('\u{600}', "Arabic number sign"),
        ('\u{61C}', "Arabic letter mark"),
        ('\u{6DD}', "Arabic end of ayah"),
        ('\u{70F}', "Syriac abbreviation mark"),
        ('\u{890}', "Arabic pound mark above"),
        ('\u{8E2}', "Arabic disputed end of ayah"),
        ('\u{115F}', "Hangul choseong filler"),
        ('\u{1160}', "Hangul jungseong filler"),
        ('\u{17B4}', "Khmer inherent vowel"),
        ('\u{180E}', "Mongolian vowel separator"),
        ('\u{200B}', "zero-width space"),
        ('\u{200C}', "zero-width non-joiner"),
        ('\u{200D}', "zero-width joiner"),
        ('\u{200E}', "left-to-right mark"),
        ('\u{200F}', "right-to-left mark"),
        ('\u{202A}', "left-to-right embedding"),
        ('\u{202B}', "right-to-left embedding"),
        ('\u{202C}', "pop directional formatting"),
        ('\u{202D}', "left-to-right override"),
        ('\u{202E}', "right-to-left override"),
        ('\u{2060}', "word joiner"),
        ('\u{2062}', "invisible times"),
        ('\u{2066}', "left-to-right isolate"),
        ('\u{2067}', "right-to-left isolate"),
        ('\u{2068}', "first strong isolate"),
        ('\u{2069}', "pop directional isolate"),
        ('\u{206A}', "inhibit symmetric swapping"),
        ('\u{3164}', "Hangul filler"),
        ('\u{FEFF}', "zero-width no-break space"),
        ('\u{FFA0}', "halfwidth Hangul filler"),
        ('\u{FFF9}', "interlinear annotation anchor"),
        ('\u{110BD}', "Kaithi number sign"),
        ('\u{13430}', "Egyptian hieroglyph vertical joiner"),
        ('\u{1BCA0}', "shorthand format letter overlap"),
        ('\u{1D173}', "musical symbol begin beam"),
        ('\u{E0001}', "language tag"),
        ('\u{E0041}', "tag Latin capital letter A"),
        ('\u{E007F}', "cancel tag"),
        ('\u{1}', "C0 control"),
        ('\u{7F}', "delete"),
        ('\u{9B}', "C1 control"),
        ('\u{E0FFF}', "unassigned default-ignorable"),
    ];

    #[test]
    fn every_kind_of_invisible_character_is_shown_as_the_replacement_character() {
        for (c, what) in INVISIBLE_KINDS {
            let text = format!("p{c}df");
            let want = format!("p{HIDDEN_CHAR}df");
            assert_eq!(one_line(&text), want, "{what}");
            assert_eq!(clean_lines(&text), want, "{what}");
            assert_eq!(clean_hidden(&text), want, "{what}");
            assert_eq!(xml_text(&text), want, "{what}");
            assert_eq!(markdown_text(&text), want, "{what}");
        }
        // A variation selector stays after what it varies; a run of them, or one after nothing
        // visible, carries data nobody sees.
        assert_eq!(one_line("ok \u{2764}\u{FE0F}"), "ok \u{2764}\u{FE0F}");
        assert_eq!(clean_lines("\u{845B}\u{E0100}"), "\u{845B}\u{E0100}");
        assert_eq!(one_line("x\u{FE0F}\u{FE0E}\u{E0100}"), "x\u{FE0F}\u{FFFD}\u{FFFD}");
        assert_eq!(clean_hidden("\u{FE0F}a \u{FE0F}"), "\u{FFFD}a \u{FFFD}");
        assert_eq!(one_line("\u{200B}\u{FE0F}"), "\u{FFFD}\u{FFFD}");
    }

    #[test]
    fn token_estimate() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens("日本語"), 3);
        let parts = TokenCount::of("ab") + TokenCount::of("cd日");
        assert_eq!(parts, TokenCount::of("abcd日"));
        assert_eq!(parts.tokens(), 2);
    }
}
