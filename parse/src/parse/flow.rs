//! Strict mode's refusal of YAML flow collections (`[a, b]`, `{a: 1}`), as the reference
//! implementation's YAML reader (strictyaml) refuses them, with its message. Lenient mode reads
//! them (real files use them for tags and tool lists).
//!
//! The check is a scan of the frontmatter's lines that knows where a YAML node can start in block
//! context (after `key: `, after `- `, at the start of a line that is not a continuation) and
//! skips what cannot hold one: quoted scalars (also over several lines), block scalars (`|`, `>`),
//! the continuation lines of multi-line plain scalars, and comments. It runs in one pass over the
//! text.

use crate::diagnostic::{codes, Diagnostic};

/// What the line before leaves open for the lines after it.
#[derive(Clone, Copy)]
enum Open {
    /// Nothing: the next line may start a node.
    Nothing,
    /// A plain scalar whose continuation lines are indented more than `parent`.
    Plain { parent: usize },
    /// A block scalar whose content lines are indented more than `parent` (or blank).
    Block { parent: usize },
    /// A quoted scalar not yet closed.
    Quoted { quote: char },
}

/// What a scan of one line found.
enum Scan {
    /// A flow collection opens at this (0-based, in characters) column.
    Flow(usize),
    /// What the line leaves open.
    Open(Open),
}

/// Where the first flow collection of `src` opens: its 0-based line and 0-based column (in
/// characters), or None when there is none.
pub fn find(src: &str) -> Option<(usize, usize)> {
    let mut open = Open::Nothing;
    let mut chars: Vec<char> = Vec::new();
    for (i, raw) in src.split('\n').enumerate() {
        chars.clear();
        chars.extend(raw.chars());
        let indent = chars.iter().take_while(|&&c| c == ' ').count();
        let rest = chars.get(indent..).unwrap_or_default();
        let blank = rest.iter().all(|c| c.is_whitespace());
        let comment = rest.first() == Some(&'#');
        match open {
            Open::Block { parent } if blank || indent > parent => continue,
            Open::Plain { parent } if blank || comment || indent > parent => continue,
            Open::Quoted { quote } => {
                if close_quote(&chars, 0, quote).is_some() {
                    open = Open::Nothing;
                }
                continue;
            }
            _ => {}
        }
        open = Open::Nothing;
        if blank || comment {
            continue;
        }
        match scan_node(&chars, indent, indent.saturating_sub(1)) {
            Scan::Flow(col) => return Some((i, col)),
            Scan::Open(o) => open = o,
        }
    }
    None
}

/// Scans from `pos`, where a node may start; `parent` is the indentation the node's plain or
/// block scalar continuation lines must pass.
fn scan_node(chars: &[char], mut pos: usize, mut parent: usize) -> Scan {
    let at = |p: usize| chars.get(p).copied();
    let ends_token = |p: usize| matches!(at(p), None | Some(' '));
    loop {
        while at(pos) == Some(' ') {
            pos += 1;
        }
        let Some(c) = at(pos) else { return Scan::Open(Open::Nothing) };
        match c {
            '#' => return Scan::Open(Open::Nothing),
            '[' | '{' => return Scan::Flow(pos),
            '-' | '?' if ends_token(pos + 1) => {
                parent = pos;
                pos += 1;
            }
            // An anchor or a tag before the node.
            '&' | '!' => {
                while !ends_token(pos) {
                    pos += 1;
                }
            }
            '|' | '>' => return Scan::Open(Open::Block { parent }),
            '"' | '\'' => match close_quote(chars, pos + 1, c) {
                None => return Scan::Open(Open::Quoted { quote: c }),
                Some(end) => {
                    let mut after = end + 1;
                    while at(after) == Some(' ') {
                        after += 1;
                    }
                    // A quoted key: its value follows.
                    if at(after) == Some(':') && ends_token(after + 1) {
                        parent = pos;
                        pos = after + 1;
                    } else {
                        return Scan::Open(Open::Nothing);
                    }
                }
            },
            _ => match key_colon(chars, pos) {
                // A plain key: its value follows.
                Some(colon) => {
                    parent = pos;
                    pos = colon + 1;
                }
                None => return Scan::Open(Open::Plain { parent }),
            },
        }
    }
}

/// The colon that ends a plain key starting at `pos` (`: ` or `:` at the end of the line, before
/// any ` #` comment), if the text is a key.
fn key_colon(chars: &[char], pos: usize) -> Option<usize> {
    let mut prev = ' ';
    for (i, &c) in chars.iter().enumerate().skip(pos) {
        if c == '#' && prev == ' ' && i > pos {
            return None;
        }
        if c == ':' && matches!(chars.get(i + 1), None | Some(' ')) {
            return Some(i);
        }
        prev = c;
    }
    None
}

/// The index of the quote that closes a scalar quoted with `quote` whose text starts at `from`.
fn close_quote(chars: &[char], from: usize, quote: char) -> Option<usize> {
    let mut i = from;
    while let Some(&c) = chars.get(i) {
        if quote == '"' && c == '\\' {
            i += 2;
            continue;
        }
        if c == quote {
            if quote == '\'' && chars.get(i + 1) == Some(&'\'') {
                i += 2;
                continue;
            }
            return Some(i);
        }
        i += 1;
    }
    None
}

/// One mark as the reference's YAML reader prints it: where, then the line with a caret.
fn mark(line: &[char], pointer: usize, file_line: u32) -> String {
    // The snippet: at most 75 characters around the pointer, cut with " ... " on either side.
    let half = 75.0 / 2.0 - 1.0;
    let (mut start, mut head) = (pointer, "");
    while start > 0 {
        start -= 1;
        if (pointer - start) as f64 > half {
            head = " ... ";
            start += 5;
            break;
        }
    }
    let (mut end, mut tail) = (pointer, "");
    while end < line.len() {
        end += 1;
        if (end - pointer) as f64 > half {
            tail = " ... ";
            end -= 5;
            break;
        }
    }
    let snippet: String = line.get(start..end).unwrap_or_default().iter().collect();
    let caret_at = 4 + pointer.saturating_sub(start) + head.len();
    format!(
        "  in \"<unicode string>\", line {file_line}, column {}:\n    {head}{snippet}{tail}\n{}^ (line: {file_line})",
        pointer + 1,
        " ".repeat(caret_at)
    )
}

/// The strict refusal of the first flow collection in `src` (frontmatter whose first line is file
/// line `first_line`), worded as the reference words it; None when there is none.
pub fn refusal(src: &str, first_line: u32) -> Option<Diagnostic> {
    let (i, col) = find(src)?;
    let line: Vec<char> = src.split('\n').nth(i).unwrap_or_default().chars().collect();
    let file_line = first_line + i as u32;
    let message = format!(
        "Invalid YAML in frontmatter: While scanning\n{}\nFound ugly disallowed JSONesque flow mapping \
         (surround with ' and ' to make text appear literally)\n{}",
        mark(&line, col, file_line),
        mark(&line, col + 1, file_line)
    );
    Some(Diagnostic::error(codes::YAML_FLOW_COLLECTION, message).at_line(Some(file_line)))
}

#[cfg(test)]
mod tests {
    use super::find;

    #[test]
    fn flow_collections_where_a_node_starts() {
        assert_eq!(find("name: a\ntags: [a, b]\n"), Some((1, 6)));
        assert_eq!(find("metadata:\n  a: {}\n"), Some((1, 5)));
        assert_eq!(find("allowed-tools:\n  - [Read]\n"), Some((1, 4)));
        assert_eq!(find("tags:\n  [a,\n   b]\n"), Some((1, 2)));
        assert_eq!(find("\"quoted key\": [x]\n"), Some((0, 14)));
        assert_eq!(find("a: &anchor [x]\n"), Some((0, 11)));
    }

    #[test]
    fn no_flow_collection_in_scalars_or_comments() {
        for src in [
            "description: use [this] when {that}\n",
            "description: \"[a, b]\"\nname: '{x}'\n",
            "description: |\n  [a, b]\n  {c: d}\nname: a\n",
            "description: >-\n\n  [folded]\n",
            "description: a plain\n  [continued] scalar\nname: a\n",
            "description:\n  text on its own line\n  [more]\n",
            "description: \"a quoted\n  [multi-line] value\"\nname: b\n",
            "name: a # [not] a list\n# [comment]\n",
            "description: it's 'quoted' [x]\n",
            "key:value [x]\n",
        ] {
            assert_eq!(find(src), None, "{src}");
        }
        assert_eq!(find("description: |\n  [a]\ntags: [b]\n"), Some((2, 6)));
    }

    #[test]
    fn the_message_is_the_references() {
        let d = super::refusal("name: s\ndescription: d\ntags: [a, b]\n", 2).unwrap();
        assert_eq!(
            d.message,
            "Invalid YAML in frontmatter: While scanning\n  in \"<unicode string>\", line 4, column 7:\n    tags: [a, b]\n          ^ (line: 4)\nFound ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)\n  in \"<unicode string>\", line 4, column 8:\n    tags: [a, b]\n           ^ (line: 4)"
        );
        assert_eq!(d.line, Some(4));
    }
}
