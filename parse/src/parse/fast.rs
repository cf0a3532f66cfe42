//! A fast parser for the YAML subset that nearly every real frontmatter uses: block mappings of
//! `key: value` lines with plain, quoted, block (`|`, `>`) or multi-line plain scalars, block
//! lists of scalars, one-line flow lists of scalars, nested block mappings, comments.
//!
//! It either returns exactly what serde_yaml would (a differential test on the corpus and under
//! random inputs holds it to that) or gives up with `None`, and the caller asks serde_yaml.

use super::node::{resolve_plain, Node, Resolved, Style};

const MAX_DEPTH: usize = 16;

/// A top-level entry and the 0-based frontmatter line of its key.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key.
    pub key: String,
    /// Its value.
    pub value: Node,
    /// The 0-based frontmatter line of the key.
    pub line: usize,
}

struct Line<'a> {
    indent: usize,
    /// The text after the indentation, without trailing spaces.
    text: &'a str,
    /// Blank or a comment only.
    skip: bool,
    /// Spaces or tabs followed the text (content inside a block scalar).
    trailing_ws: bool,
}

/// Why the fast path did not read a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The text goes beyond the subset: serde_yaml decides.
    Beyond,
    /// The text is surely invalid YAML, and serde_yaml would refuse it too: a plain scalar on a
    /// key's line holds `: ` ("mapping values are not allowed in this context"), the commonest
    /// mistake in real frontmatter (an unquoted `description: Use when: ...`).
    Invalid,
}

/// Parses frontmatter written in the subset (see the module docs): exactly what serde_yaml would
/// return, or `None` when the text goes beyond the subset or is invalid.
pub fn parse(src: &str) -> Option<Vec<Entry>> {
    read(src).ok()
}

/// Like [`parse`], and when it gives up, says whether the text is surely invalid YAML, so that
/// the caller repairs it without asking serde_yaml first.
pub fn read(src: &str) -> Result<Vec<Entry>, Refusal> {
    let mut p = Parser { lines: Vec::new(), pos: 0, invalid: false };
    match p.document(src) {
        Some(entries) => Ok(entries),
        None if p.invalid => Err(Refusal::Invalid),
        None => Err(Refusal::Beyond),
    }
}

impl<'a> Parser<'a> {
    fn document(&mut self, src: &'a str) -> Option<Vec<Entry>> {
        let mut lines = Vec::with_capacity(32);
        for raw in super::scan::lines(src) {
            let indent = raw.bytes().take_while(|&b| b == b' ').count();
            let content = &raw[indent..];
            let trimmed = content.bytes().rev().take_while(|&b| b == b' ' || b == b'\t').count();
            let text = &content[..content.len() - trimmed];
            if content.starts_with('\t') {
                return None; // tabs in indentation, even on a blank line: serde_yaml decides
            }
            let skip = text.is_empty() || text.starts_with('#');
            if !skip && indent == 0 && (text.starts_with("...") || text.starts_with("---")) {
                return None;
            }
            let trailing_ws = text.len() != content.len();
            lines.push(Line { indent, text, skip, trailing_ws });
        }
        self.lines = lines;
        self.skip_blank();
        if self.pos >= self.lines.len() {
            return Some(Vec::new());
        }
        if self.lines[self.pos].indent != 0 {
            return None;
        }
        let entries = self.map(0, 0)?;
        self.skip_blank();
        if self.pos < self.lines.len() {
            return None;
        }
        Some(entries)
    }
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
    /// Set where the parser gave up on text that is surely invalid YAML (see [`Refusal::Invalid`]).
    invalid: bool,
}

fn is_key_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.'
}

/// Splits `key: rest` for a simple key; None when the line is not such an entry.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    if b.is_empty() || !(b[0].is_ascii_alphanumeric() || b[0] == b'_') {
        return None;
    }
    let end = b.iter().position(|&c| !is_key_char(c))?;
    if b[end] != b':' {
        return None;
    }
    let rest = &text[end + 1..];
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some((&text[..end], rest.trim_start_matches(' ')))
}

impl<'a> Parser<'a> {
    fn skip_blank(&mut self) {
        while self.pos < self.lines.len() && self.lines[self.pos].skip {
            self.pos += 1;
        }
    }

    /// The next line that is not blank or a comment, without consuming it.
    fn peek(&mut self) -> Option<&Line<'a>> {
        self.skip_blank();
        self.lines.get(self.pos)
    }

    fn map(&mut self, indent: usize, depth: usize) -> Option<Vec<Entry>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(8);
        while let Some(line) = self.peek() {
            if line.indent < indent {
                break;
            }
            if line.indent > indent {
                return None;
            }
            let (key, rest) = split_key(line.text)?;
            // `0:`, `true:` and `null:` are keys of another type in YAML; serde_yaml's reading of them
            // is what the rest of the parser expects.
            if resolve_plain(key) != Resolved::String {
                return None;
            }
            let line_no = self.pos;
            if entries.iter().any(|e| e.key == key) {
                return None; // duplicate keys are serde_yaml's (and the repair's) business
            }
            self.pos += 1;
            let value = self.value(rest, indent, depth)?;
            entries.push(Entry { key: key.to_string(), value, line: line_no });
        }
        Some(entries)
    }

    /// The value after `key:` on a line at `indent`.
    fn value(&mut self, rest: &'a str, indent: usize, depth: usize) -> Option<Node> {
        let first = rest.as_bytes().first().copied();
        match first {
            None | Some(b'#') => {
                let next = self.peek().map(|l| (l.indent, l.text));
                match next {
                    Some((i, t)) if i >= indent && is_seq_item(t) => Some(Node::Seq(self.seq(i, depth + 1)?)),
                    Some((i, _)) if i > indent => {
                        let entries = self.map(i, depth + 1)?;
                        Some(Node::Map(entries.into_iter().map(|e| (e.key, e.value)).collect()))
                    }
                    _ => Some(Node::plain("")),
                }
            }
            Some(b'|') | Some(b'>') => self.block_scalar(rest, indent),
            Some(b'"') => self.after_scalar(double_quoted(rest)?),
            Some(b'\'') => self.after_scalar(single_quoted(rest)?),
            Some(b'[') => self.after_scalar(flow_seq(rest)?),
            _ => self.plain(rest, indent),
        }
    }

    /// A one-line value must not be followed by more-indented lines.
    fn after_scalar(&mut self, (node, tail): (Node, &str)) -> Option<Node> {
        let tail = tail.trim_start_matches(' ');
        if !(tail.is_empty() || tail.starts_with('#')) {
            return None;
        }
        Some(node)
    }

    fn seq(&mut self, indent: usize, depth: usize) -> Option<Vec<Node>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut items = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent != indent || !is_seq_item(line.text) {
                break;
            }
            let item = line.text[1..].trim_start_matches(' ');
            // `- key: value` starts a mapping whose entries line up with `key`.
            if split_key(item).is_some() {
                let child_indent = indent + (line.text.len() - item.len());
                let pos = self.pos;
                self.lines[pos].indent = child_indent;
                self.lines[pos].text = item;
                let entries = self.map(child_indent, depth + 1)?;
                items.push(Node::Map(entries.into_iter().map(|e| (e.key, e.value)).collect()));
                continue;
            }
            self.pos += 1;
            let node = match item.as_bytes().first() {
                None => return None,
                Some(b'"') => self.after_scalar(double_quoted(item)?)?,
                Some(b'\'') => self.after_scalar(single_quoted(item)?)?,
                Some(_) => {
                    let text = plain_one_line(item)?;
                    Node::plain(text)
                }
            };
            // Continuation lines of an item are left to serde_yaml.
            if let Some(next) = self.peek() {
                if next.indent > indent {
                    return None;
                }
            }
            items.push(node);
        }
        Some(items)
    }

    fn plain(&mut self, rest: &'a str, indent: usize) -> Option<Node> {
        let Some(first) = plain_one_line(rest) else {
            // Every line before this one was read within the subset, so nothing (a quoted or
            // block scalar left open) can make this line anything but a key's plain value.
            self.invalid = holds_value_indicator(rest);
            return None;
        };
        let mut text = first.to_string();
        // Multi-line plain scalar: following lines indented deeper than the key fold with spaces;
        // blank lines between them become newlines.
        let mut pending_newlines = 0usize;
        let mut look = self.pos;
        while look < self.lines.len() {
            let l = &self.lines[look];
            if l.text.is_empty() {
                pending_newlines += 1;
                look += 1;
                continue;
            }
            if l.indent <= indent {
                break;
            }
            if l.text.starts_with('#') {
                return None; // a comment inside a multi-line scalar ends it; leave that to serde_yaml
            }
            let cont = plain_continuation(l.text)?;
            if pending_newlines > 0 {
                for _ in 0..pending_newlines {
                    text.push('\n');
                }
            } else {
                text.push(' ');
            }
            text.push_str(cont);
            pending_newlines = 0;
            look += 1;
            self.pos = look;
        }
        Some(Node::plain(text))
    }

    fn block_scalar(&mut self, header: &'a str, indent: usize) -> Option<Node> {
        let b = header.as_bytes();
        let literal = b[0] == b'|';
        let mut chomp = b'c';
        let mut i = 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            chomp = b[i];
            i += 1;
        }
        let tail = header[i..].trim_start_matches(' ');
        if !(tail.is_empty() || (tail.starts_with('#') && i < header.len() && header.as_bytes()[i] == b' ')) {
            return None; // indentation indicators, or text after the indicator
        }
        // Content: lines indented deeper than the key, and blank lines between them.
        let start = self.pos;
        let mut end = start;
        let mut block_indent = None;
        while end < self.lines.len() {
            let l = &self.lines[end];
            if l.text.is_empty() {
                end += 1;
                continue;
            }
            if l.indent <= indent {
                break;
            }
            match block_indent {
                None => block_indent = Some(l.indent),
                Some(bi) if l.indent < bi => return None,
                _ => {}
            }
            end += 1;
        }
        let Some(bi) = block_indent else {
            return None; // empty block scalar: rare, leave to serde_yaml
        };
        // Trailing blank lines belong to the block only for chomping.
        let mut last = end;
        while last > start && self.lines[last - 1].text.is_empty() {
            last -= 1;
        }
        // A whitespace-only line deeper than the block is content (its extra spaces), trailing or
        // not: leave it to serde_yaml.
        if self.lines.get(start..end).unwrap_or_default().iter().any(|l| l.text.is_empty() && l.indent > bi) {
            return None;
        }
        if self.lines[start].text.is_empty() {
            return None; // leading blank lines: leave to serde_yaml
        }
        let mut out = String::new();
        let mut prev_blank = false;
        let mut first = true;
        for l in &self.lines[start..last] {
            if l.text.is_empty() {
                out.push('\n');
                prev_blank = true;
                continue;
            }
            let extra = l.indent - bi;
            if literal {
                if !first {
                    out.push('\n');
                }
                for _ in 0..extra {
                    out.push(' ');
                }
            } else {
                if extra > 0 || l.text.starts_with('\t') {
                    return None; // more-indented lines in a folded block: leave to serde_yaml
                }
                if !first && !prev_blank {
                    out.push(' ');
                }
            }
            out.push_str(l.text);
            prev_blank = false;
            first = false;
        }
        // Trailing spaces were cut from `text`; in a block scalar they are content.
        if self.lines[start..last].iter().any(|l| !l.text.is_empty() && l.trailing_ws) {
            return None;
        }
        let trailing_blank = end - last;
        match chomp {
            b'-' => {}
            b'+' => {
                out.push('\n');
                for _ in 0..trailing_blank {
                    out.push('\n');
                }
            }
            _ => out.push('\n'),
        }
        self.pos = end;
        // A folded block's blank lines: each one stands for a newline, and the line break before
        // them is dropped; `out` already has exactly one '\n' per blank line and no space.
        Some(Node::Scalar { text: out, style: Style::Block })
    }
}

fn is_seq_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// Whether `rest` starts a plain scalar: not with an indicator, nor with `-`, `?` or `:` and a
/// space.
fn starts_plain(b: &[u8]) -> bool {
    match b.first() {
        None
        | Some(
            b'[' | b']' | b'{' | b'}' | b',' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%' | b'@'
            | b'`',
        ) => false,
        Some(b'-' | b'?' | b':') => !(b.len() == 1 || b[1] == b' ' || b[1] == b'\t'),
        Some(_) => true,
    }
}

/// A one-line plain scalar (comment removed), or None when the text is not plainly a scalar.
fn plain_one_line(rest: &str) -> Option<&str> {
    if !starts_plain(rest.as_bytes()) {
        return None;
    }
    plain_text(rest, true)
}

/// Whether a key's value on the key's own line is a plain scalar holding `: ` before any comment
/// (or tab, which this does not judge). After a key's `:`, YAML allows no second key on the same
/// line, so serde_yaml refuses such a line.
fn holds_value_indicator(rest: &str) -> bool {
    let b = rest.as_bytes();
    if !starts_plain(b) {
        return false;
    }
    for i in 0..b.len() {
        match b[i] {
            b'\t' => return false,
            b'#' if i > 0 && b[i - 1] == b' ' => return false,
            b':' if b.get(i + 1) == Some(&b' ') => return true,
            _ => {}
        }
    }
    false
}

/// A continuation line of a multi-line plain scalar.
fn plain_continuation(text: &str) -> Option<&str> {
    plain_text(text, false)
}

/// One pass over a plain scalar's line: refuses `: `, a trailing `:` and tabs; cuts a ` #`
/// comment where `comments` allows it (a comment inside a multi-line scalar is refused).
fn plain_text(text: &str, comments: bool) -> Option<&str> {
    let b = text.as_bytes();
    let mut end = b.len();
    for i in 0..b.len() {
        match b[i] {
            b'\t' => return None,
            b':' if i + 1 == b.len() || b[i + 1] == b' ' => return None,
            b'#' if i > 0 && b[i - 1] == b' ' => {
                if !comments {
                    return None;
                }
                end = i;
                break;
            }
            _ => {}
        }
    }
    let out = text[..end].trim_end_matches(' ');
    if out.ends_with(':') {
        return None;
    }
    Some(out)
}

fn double_quoted(s: &str) -> Option<(Node, &str)> {
    let mut out = String::new();
    let b = s.as_bytes();
    let mut i = 1;
    let mut run = 1; // start of the current run of plain characters
    while i < b.len() {
        match b[i] {
            b'"' => {
                out.push_str(&s[run..i]);
                return Some((Node::Scalar { text: out, style: Style::Quoted }, &s[i + 1..]));
            }
            b'\t' => return None,
            b'\\' => {
                out.push_str(&s[run..i]);
                let e = *b.get(i + 1)?;
                i += 2;
                match e {
                    b'\\' => out.push('\\'),
                    b'"' => out.push('"'),
                    b'/' => out.push('/'),
                    b'n' => out.push('\n'),
                    b't' => out.push('\t'),
                    b'r' => out.push('\r'),
                    b'0' => out.push('\0'),
                    b' ' => out.push(' '),
                    b'u' => {
                        let hex = s.get(i..i + 4)?;
                        let v = u32::from_str_radix(hex, 16).ok()?;
                        if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                            return None;
                        }
                        out.push(char::from_u32(v)?);
                        i += 4;
                    }
                    _ => return None,
                }
                run = i;
            }
            _ => i += 1,
        }
    }
    None // not closed on this line: a multi-line quoted scalar, leave to serde_yaml
}

fn single_quoted(s: &str) -> Option<(Node, &str)> {
    let mut out = String::new();
    let body = &s[1..];
    let mut rest = body;
    loop {
        let i = rest.find('\'')?;
        out.push_str(&rest[..i]);
        if rest[i + 1..].starts_with('\'') {
            out.push('\'');
            rest = &rest[i + 2..];
        } else {
            if out.contains('\t') {
                return None;
            }
            return Some((Node::Scalar { text: out, style: Style::Quoted }, &rest[i + 1..]));
        }
    }
}

/// `[a, "b", 'c']` on one line, scalars only.
fn flow_seq(s: &str) -> Option<(Node, &str)> {
    let close = s.find(']')?;
    let inner = &s[1..close];
    let tail = &s[close + 1..];
    if inner.contains(['[', '{', '}', '#', '\t']) {
        return None;
    }
    let mut items = Vec::new();
    if !inner.trim().is_empty() {
        for part in inner.split(',') {
            let item = part.trim_matches(' ');
            if item.is_empty() {
                return None;
            }
            let node = match item.as_bytes()[0] {
                b'"' => {
                    let (n, t) = double_quoted(item)?;
                    if !t.is_empty() {
                        return None;
                    }
                    n
                }
                b'\'' => {
                    let (n, t) = single_quoted(item)?;
                    if !t.is_empty() {
                        return None;
                    }
                    n
                }
                _ => {
                    if item.contains(['"', '\'', ':']) {
                        return None;
                    }
                    Node::plain(plain_one_line(item)?)
                }
            };
            items.push(node);
        }
    }
    Some((Node::Seq(items), tail))
}
