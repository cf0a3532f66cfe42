//! Repairs for frontmatter that does not parse as YAML, in the ways real SKILL.md files get it
//! wrong. Only ever called after a parse failed, so a file that parses is never changed.
//!
//! Each top-level entry (a key line and the lines indented under it) is checked on its own; an
//! entry that does not parse is rewritten by the first pattern that explains it, and each rewrite
//! is reported with its line and what changed. A pattern applies only to the fault it is for
//! (an open `[a, b` is no `[WIP] text`, `c: : :` no text with a colon in it): an entry no
//! pattern explains is left as written, so the file stays invalid and is refused with the
//! parser's error rather than loaded with a value made of its debris.

use crate::diagnostic::{codes, Diagnostic};

const MAX_NESTING: usize = 4;

/// A repaired frontmatter and one diagnostic per repair, with file lines.
#[derive(Debug)]
pub struct Repaired {
    /// The repaired frontmatter text.
    pub text: String,
    /// One warning per repair.
    pub notes: Vec<Diagnostic>,
}

/// Whether serde_yaml accepts `text`: the fast path answers first, since what it reads serde_yaml
/// reads alike, what it calls invalid serde_yaml refuses, and most entries of a sloppy
/// frontmatter are one or the other.
fn parses(text: &str) -> bool {
    match super::fast::read(text) {
        Ok(_) => true,
        Err(super::fast::Refusal::Invalid) => false,
        Err(super::fast::Refusal::Beyond) => super::yaml::load(text).is_ok(),
    }
}

/// Tries to repair `src`, whose first line is line `first_line` of the file. Returns None when
/// no pattern applied.
pub fn repair(src: &str, first_line: u32) -> Option<Repaired> {
    let note = |code: &str, line: usize, message: String| {
        Diagnostic::warning(code, message).at_line(Some(first_line + line as u32))
    };
    let mut notes = Vec::new();
    let mut lines: Vec<String> = src.split('\n').map(str::to_string).collect();

    for (i, line) in lines.iter_mut().enumerate() {
        let ws_len = line.len() - line.trim_start_matches([' ', '\t']).len();
        let ws = &line[..ws_len];
        if ws.contains('\t') && ws_len < line.len() {
            let spaces = ws.chars().map(|c| if c == '\t' { 2 } else { 1 }).sum::<usize>();
            let tabs = ws.matches('\t').count();
            *line = format!("{}{}", " ".repeat(spaces), &line[ws_len..]);
            notes.push(note(
                codes::YAML_REPAIR_TAB_INDENT,
                i,
                format!("{tabs} tab(s) in the indentation replaced by 2 spaces each"),
            ));
        }
    }

    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut seen: Vec<(String, usize)> = Vec::new();
    for (start, end) in entries(&lines, 0) {
        let entry = &lines[start..end];
        let key = key_of(&entry[0]).map(str::to_string);
        let fixed = if key.is_some() && !parses(&entry.join("\n")) {
            repair_entry(entry, start, 0, &mut |code, line, message| notes.push(note(code, line, message)))
        } else {
            None
        };
        if let Some(k) = &key {
            if let Some((_, first)) = seen.iter().find(|(s, _)| s == k) {
                notes.push(note(
                    codes::YAML_DUPLICATE_KEY,
                    start,
                    format!("duplicate key '{k}' ignored; the value from line {} is kept", first_line + *first as u32),
                ));
                continue;
            }
            seen.push((k.clone(), start));
        }
        match fixed {
            Some(new_lines) => out.extend(new_lines),
            None => out.extend(entry.iter().cloned()),
        }
    }
    if notes.is_empty() {
        return None;
    }
    Some(Repaired { text: out.join("\n"), notes })
}

/// Splits lines into entries at `indent`: (start, end) ranges. Lines before the first key line
/// (comments, blanks) form an entry of their own.
fn entries(lines: &[String], indent: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, line) in lines.iter().enumerate() {
        let ind = line.len() - line.trim_start_matches(' ').len();
        if i > start && ind == indent && key_of(&line[ind..]).is_some() {
            out.push((start, i));
            start = i;
        }
    }
    if start < lines.len() {
        out.push((start, lines.len()));
    }
    out
}

/// The key of a `key: value` line (already dedented), for a key that is not YAML syntax itself.
fn key_of(line: &str) -> Option<&str> {
    let line = line.trim_start_matches(' ');
    if line.is_empty() || line.starts_with(['#', '-', '[', '{', '"', '\'', '?', '&', '*', '!', '|', '>', '%', '@', '`'])
    {
        return None;
    }
    let b = line.as_bytes();
    let colon = (0..b.len()).find(|&i| b[i] == b':' && (i + 1 == b.len() || b[i + 1] == b' ' || b[i + 1] == b'\t'))?;
    let key = line[..colon].trim_end();
    if key.is_empty() || key.contains(": ") {
        return None;
    }
    Some(key)
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Rewrites one entry that does not parse on its own. `first` is the entry's 0-based line.
fn repair_entry(
    entry: &[String],
    first: usize,
    depth: usize,
    note: &mut dyn FnMut(&str, usize, String),
) -> Option<Vec<String>> {
    let head = &entry[0];
    let indent = indent_of(head);
    let key = key_of(head)?;
    let after_key = &head[indent + key.len()..];
    let rest = after_key.strip_prefix(':')?.trim();
    let cont = &entry[1..];
    let prefix = format!("{}{}:", " ".repeat(indent), key);

    // A nested mapping: repair its entries one by one.
    if rest.is_empty() {
        if depth >= MAX_NESTING {
            return None;
        }
        let child_indent = cont.iter().find(|l| !l.trim().is_empty()).map(|l| indent_of(l))?;
        if child_indent <= indent {
            return None;
        }
        let mut changed = false;
        let mut out = vec![head.clone()];
        for (s, e) in entries(cont, child_indent) {
            let child = &cont[s..e];
            let dedented: Vec<String> =
                child.iter().map(|l| l.get(child_indent.min(indent_of(l))..).unwrap_or("").to_string()).collect();
            if key_of(&child[0]).is_some() && !parses(&dedented.join("\n")) {
                if let Some(fixed) = repair_entry(&dedented, first + 1 + s, depth + 1, note) {
                    out.extend(fixed.into_iter().map(|l| format!("{}{}", " ".repeat(child_indent), l)));
                    changed = true;
                    continue;
                }
            }
            out.extend(child.iter().cloned());
        }
        return changed.then_some(out);
    }

    // `key: | text`: the text was meant as the first line of the block.
    if let Some(header_len) = block_header_len(rest) {
        let text = rest[header_len..].trim();
        if !text.is_empty() && !text.starts_with('#') {
            let child_indent = cont
                .iter()
                .find(|l| !l.trim().is_empty())
                .map(|l| indent_of(l))
                .filter(|&i| i > indent)
                .unwrap_or(indent + 2);
            let mut out =
                vec![format!("{prefix} {}", &rest[..header_len]), format!("{}{}", " ".repeat(child_indent), text)];
            out.extend(cont.iter().cloned());
            if parses(&dedent_all(&out, indent)) {
                note(
                    codes::YAML_REPAIR_BLOCK_INDICATOR,
                    first,
                    format!(
                        "text after the block indicator '{}' of '{key}' moved to the block's first line",
                        &rest[..header_len]
                    ),
                );
                return Some(out);
            }
        }
        return None;
    }

    // Lines under a plain value continue it only when indented under its key: one that is not is
    // a second fault, which no repair here explains.
    if cont.iter().any(|l| !l.trim().is_empty() && indent_of(l) <= indent) {
        return None;
    }
    let value = fold(rest, cont);
    let (code, message) = if let Some(after) = closing_quote_tail(rest) {
        if after.is_empty() || after.starts_with('#') {
            return None;
        }
        (
            codes::YAML_REPAIR_TEXT_AFTER_QUOTE,
            format!("text after the closing quote of '{key}'; the whole value was quoted as text"),
        )
    } else if let Some(c) = rest.chars().next().filter(|c| "`@*&!%[{".contains(*c)) {
        // Text that begins with a bracketed or quoted word (`[WIP] ...`, `` `code` is ... ``):
        // the group closes on the line. An open `[a, b` is a broken collection, not text.
        if !opens_a_closed_group(rest) {
            return None;
        }
        (
            codes::YAML_REPAIR_INDICATOR,
            format!("'{key}' starts with '{c}', which YAML reads as syntax; the value was quoted as text"),
        )
    } else if (value.contains(": ") || value.contains(":\t")) && !value.starts_with(':') {
        // Words, then `: ` inside them (`Use when: ...`); a value that starts with the mapping
        // indicator itself (`c: : :`) is no text with a colon in it.
        (codes::YAML_REPAIR_COLON, format!("'{key}' contains ': ' in an unquoted value; the value was quoted"))
    } else {
        return None;
    };
    let line = format!("{prefix} {}", double_quote(&value));
    if !parses(line.trim_start()) {
        return None;
    }
    note(code, first, message);
    Some(vec![line])
}

/// Whether `rest` starts with a group that closes on the line: a `[...]`, `{...}` (nested groups
/// counted) or `` `...` `` whose end is there. Other indicators (`*`, `@`, `&`, `!`, `%`) begin
/// text by themselves.
fn opens_a_closed_group(rest: &str) -> bool {
    let (open, close) = match rest.as_bytes().first() {
        Some(b'[') => (b'[', b']'),
        Some(b'{') => (b'{', b'}'),
        Some(b'`') => return rest[1..].contains('`'),
        _ => return true,
    };
    let mut depth = 0usize;
    for &b in rest.as_bytes() {
        if b == open {
            depth += 1;
        } else if b == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return true;
            }
        }
    }
    false
}

fn dedent_all(lines: &[String], n: usize) -> String {
    lines.iter().map(|l| l.get(n.min(indent_of(l))..).unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Length of a block scalar header (`|`, `>-`, `|2+` ...) at the start of `rest`.
fn block_header_len(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    if !matches!(b.first(), Some(b'|') | Some(b'>')) {
        return None;
    }
    let mut i = 1;
    while i < b.len() && i < 3 && (b[i] == b'-' || b[i] == b'+' || b[i].is_ascii_digit()) {
        i += 1;
    }
    if i < b.len() && b[i] != b' ' && b[i] != b'\t' {
        return None; // `|foo` is not a header
    }
    Some(i)
}

/// For a value starting with a quote that closes on the line: the text after the closing quote.
fn closing_quote_tail(rest: &str) -> Option<&str> {
    let q = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let b = rest.as_bytes();
    let mut i = 1;
    while i < b.len() {
        if q == '"' && b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == q as u8 {
            if q == '\'' && b.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            return Some(rest[i + 1..].trim());
        }
        i += 1;
    }
    None
}

/// The value as a plain multi-line scalar would read: lines trimmed, joined by spaces, a blank
/// line standing for a newline.
fn fold(first: &str, cont: &[String]) -> String {
    let mut out = first.to_string();
    let mut blanks = 0;
    for l in cont {
        let t = l.trim();
        if t.is_empty() {
            blanks += 1;
            continue;
        }
        if out.is_empty() {
            // nothing yet
        } else if blanks > 0 {
            out.push_str(&"\n".repeat(blanks));
        } else {
            out.push(' ');
        }
        blanks = 0;
        out.push_str(t);
    }
    out
}

fn double_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
