//! The code regions of Markdown (fenced blocks and inline spans), and cursors that walk them.

use std::collections::HashMap;

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
