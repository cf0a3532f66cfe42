//! Escaping per output format: XML element text and attributes, Markdown text, JSON inside
//! markup, and the neutralisation of a protocol's tags.

use super::hidden::{one_line, one_line_cow};
use std::borrow::Cow;

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
