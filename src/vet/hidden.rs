//! Hidden text: characters no view shows, and Markdown a rendered view hides.
//!
//! Characters: the rule of [`crate::text::hides`] (format characters, controls, variation
//! selectors that vary nothing), sorted by what they can do: Unicode tag characters spell ASCII
//! nobody sees (their text is decoded into the message), bidi controls reorder what a line shows,
//! a run of invisible characters carries data; a few alone are a note. Joiners between letters
//! outside ASCII (emoji sequences, Indic and Persian text) and the tags of a flag emoji are text.
//!
//! Markup: HTML comments, elements hidden by `hidden`, `display:none` and the like (and collapsed
//! `<details>`), image alt text, link and attribute titles, link reference definitions
//! (`[//]: # (…)`). Their text is handed back as spans; the scanner checks it as hidden text.

use super::finding::excerpt;
use super::sink::{Rule, Sink};
use crate::text::hides;

/// Invisible characters in a row from which they are a run that can carry data.
pub const MIN_RUN: usize = 8;

fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Checks the characters of a line (one with bytes outside ASCII or controls).
pub(super) fn characters(line: &str, no: u32, sink: &mut Sink) {
    let mut prev: Option<char> = None;
    let mut chars = line.chars().peekable();
    let (mut tags, mut spelled) = (0usize, String::new());
    let mut run_tags: Vec<char> = Vec::new();
    let mut flag_base = false;
    let (mut bidi, mut first_bidi) = (0usize, None);
    let (mut invisible, mut first_invisible) = (0usize, None);
    let (mut run, mut longest) = (0usize, 0usize);
    // A run of tag characters ends: counted unless it is the tail of a flag emoji (U+1F3F4, a few
    // tags, U+E007F).
    let end_tags = |run_tags: &mut Vec<char>, flag_base: bool, tags: &mut usize, spelled: &mut String| {
        let flag = flag_base && run_tags.len() <= 8 && run_tags.last() == Some(&'\u{E007F}');
        if !flag {
            *tags += run_tags.len();
            spelled.extend(run_tags.iter().filter_map(|&t| {
                let a = u32::from(t) - 0xE0000;
                (0x20..0x7F).contains(&a).then(|| char::from_u32(a)).flatten()
            }));
        }
        run_tags.clear();
    };
    while let Some(c) = chars.next() {
        if is_tag(c) {
            if run_tags.is_empty() {
                flag_base = prev == Some('\u{1F3F4}');
            }
            run_tags.push(c);
            prev = Some(c);
            continue;
        }
        if !run_tags.is_empty() {
            end_tags(&mut run_tags, flag_base, &mut tags, &mut spelled);
        }
        if is_bidi(c) {
            bidi += 1;
            first_bidi.get_or_insert(c);
            run += 1;
        } else if hides(prev, c) {
            let joiner = matches!(c, '\u{200C}' | '\u{200D}')
                && prev.is_some_and(|p| !p.is_ascii() && !hides(None, p))
                && chars.peek().is_some_and(|n| !n.is_ascii());
            if !joiner {
                invisible += 1;
                first_invisible.get_or_insert(c);
                run += 1;
            }
        } else {
            run = 0;
        }
        longest = longest.max(run);
        prev = Some(c);
    }
    if !run_tags.is_empty() {
        end_tags(&mut run_tags, flag_base, &mut tags, &mut spelled);
    }
    if tags > 0 {
        sink.push(Rule::TagCharacters, no, || {
            format!(
                "{tags} Unicode tag character{} (shown by no view) spell {:?}",
                if tags == 1 { "" } else { "s" },
                excerpt(&spelled, 120)
            )
        });
    }
    if bidi > 0 {
        sink.push(Rule::BidiControls, no, || {
            format!(
                "{bidi} bidirectional control character{} ({}) reorder how the line reads",
                if bidi == 1 { "" } else { "s" },
                code_point(first_bidi)
            )
        });
    }
    if longest >= MIN_RUN {
        sink.push(Rule::InvisibleRun, no, || {
            format!(
                "a run of {longest} invisible characters ({} ...) can carry hidden text",
                code_point(first_invisible)
            )
        });
    } else if invisible > 0 {
        sink.push(Rule::InvisibleCharacters, no, || {
            format!(
                "{invisible} invisible character{} ({})",
                if invisible == 1 { "" } else { "s" },
                code_point(first_invisible)
            )
        });
    }
}

fn code_point(c: Option<char>) -> String {
    c.map_or_else(String::new, |c| format!("U+{:04X}", u32::from(c)))
}

/// Text of a line that a rendered view hides: byte offsets and what hides it.
pub(super) struct Span {
    pub start: usize,
    pub end: usize,
    pub what: &'static str,
}

const COMMENT: &str = "an HTML comment";
const ELEMENT: &str = "a hidden HTML element";
const DETAILS: &str = "a collapsed <details> element";
const ALT: &str = "an image's alt text";
const TITLE: &str = "a link or element title";
const REFERENCE: &str = "a link reference definition";

/// Elements whose hidden content is followed to their closing tag on later lines.
const ELEMENTS: [&str; 10] =
    ["div", "span", "p", "section", "details", "template", "noscript", "aside", "font", "small"];

/// Styles and attributes that hide an element's content.
const HIDING: [&str; 9] = [
    "display:none",
    "visibility:hidden",
    "font-size:0",
    "opacity:0",
    "height:0",
    "width:0",
    "color:transparent",
    "position:absolute;left:-",
    "clip:rect(0",
];

fn find_ci(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    if n.is_empty() || from > h.len() {
        return None;
    }
    (from..=h.len().saturating_sub(n.len())).find(|&i| h.get(i..i + n.len()).is_some_and(|w| w.eq_ignore_ascii_case(n)))
}

/// The spans of `line` a rendered view hides. `comment` and `hidden` carry an HTML comment or a
/// hidden element open at the end of a line to the next.
pub(super) fn spans(line: &str, comment: &mut bool, hidden: &mut Option<&'static str>) -> Vec<Span> {
    let mut out = Vec::new();
    let mut at = 0usize;
    if *comment {
        match line.find("-->") {
            Some(end) => {
                out.push(Span { start: 0, end, what: COMMENT });
                *comment = false;
                at = end + 3;
            }
            None => {
                out.push(Span { start: 0, end: line.len(), what: COMMENT });
                return out;
            }
        }
    }
    if let Some(tag) = *hidden {
        let close = format!("</{tag}");
        let what = if tag == "details" { DETAILS } else { ELEMENT };
        match find_ci(line, &close, at) {
            Some(end) => {
                out.push(Span { start: at, end, what });
                *hidden = None;
                at = end + close.len();
            }
            None => {
                out.push(Span { start: at, end: line.len(), what });
                return out;
            }
        }
    }
    // A link reference definition (`[id]: url "title"`, `[//]: # (text)`) is not rendered at all.
    let trimmed = line.trim_start();
    if at == 0 && line.len() - trimmed.len() <= 3 && trimmed.starts_with('[') {
        if let Some(close) = trimmed.find("]:") {
            let start = line.len() - trimmed.len() + close + 2;
            if close > 1 {
                out.push(Span { start, end: line.len(), what: REFERENCE });
                return out;
            }
        }
    }
    let b = line.as_bytes();
    while at < b.len() {
        let Some(rel) = b.get(at..).and_then(|r| r.iter().position(|&c| matches!(c, b'<' | b'!' | b']'))) else {
            break;
        };
        let i = at + rel;
        at = i + 1;
        match b[i] {
            b'<' if line.get(i..).is_some_and(|r| r.starts_with("<!--")) => {
                match line.get(i + 4..).and_then(|r| r.find("-->")) {
                    Some(end) => {
                        out.push(Span { start: i + 4, end: i + 4 + end, what: COMMENT });
                        at = i + 4 + end + 3;
                    }
                    None => {
                        out.push(Span { start: i + 4, end: line.len(), what: COMMENT });
                        *comment = true;
                        return out;
                    }
                }
            }
            b'<' => {
                if let Some(next) = element(line, i, &mut out, hidden) {
                    at = next;
                    if hidden.is_some() {
                        return out;
                    }
                }
            }
            b'!' if b.get(i + 1) == Some(&b'[') => {
                if let Some(close) = line.get(i + 2..).and_then(|r| r.find("](")) {
                    let (start, end) = (i + 2, i + 2 + close);
                    if end > start {
                        out.push(Span { start, end, what: ALT });
                    }
                    at = end;
                }
            }
            b']' if b.get(i + 1) == Some(&b'(') => {
                // A title inside the destination's parentheses: `(url "title")`.
                let Some(close) = line.get(i + 2..).and_then(|r| r.find(')')) else { continue };
                let dest = line.get(i + 2..i + 2 + close).unwrap_or_default();
                if let Some(q) = dest.find([' ', '\t']).and_then(|s| dest.get(s..)).and_then(|r| r.find(['"', '\''])) {
                    let space = dest.find([' ', '\t']).unwrap_or(0);
                    let start = i + 2 + space + q + 1;
                    let end = (i + 2 + close).saturating_sub(1).max(start);
                    out.push(Span { start, end, what: TITLE });
                }
                at = i + 2 + close;
            }
            _ => {}
        }
    }
    out
}

/// Reads the tag at `i` (a `<`): its `alt` and `title` attributes become spans, and the content
/// of an element that hides it a span too (to its closing tag, or to the end of the line with
/// `hidden` set to the tag). Returns where reading goes on.
fn element(line: &str, i: usize, out: &mut Vec<Span>, hidden: &mut Option<&'static str>) -> Option<usize> {
    let rest = line.get(i + 1..)?;
    let name_len = rest.bytes().take_while(|c| c.is_ascii_alphanumeric()).count();
    if name_len == 0 {
        return None;
    }
    let name = rest.get(..name_len)?.to_ascii_lowercase();
    let close = rest.find('>')?;
    let attrs = rest.get(name_len..close)?;
    for (attr, what) in [("alt=", ALT), ("title=", TITLE)] {
        if let Some(a) = find_ci(attrs, attr, 0) {
            let q = attrs.as_bytes().get(a + attr.len()).copied();
            if matches!(q, Some(b'"') | Some(b'\'')) {
                let from = a + attr.len() + 1;
                if let Some(len) = attrs.get(from..).and_then(|r| r.find(char::from(q.unwrap_or(b'"')))) {
                    let start = i + 1 + name_len + from;
                    out.push(Span { start, end: start + len, what });
                }
            }
        }
    }
    let squeezed: String = attrs.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    let hides = name == "details"
        || name == "template"
        || HIDING.iter().any(|h| squeezed.contains(h))
        || attrs.split(|c: char| c.is_whitespace() || c == '/').any(|a| a.eq_ignore_ascii_case("hidden"));
    let content = i + 1 + close + 1;
    if !hides {
        return Some(content);
    }
    let what = if name == "details" { DETAILS } else { ELEMENT };
    let closing = format!("</{name}");
    match find_ci(line, &closing, content) {
        Some(end) => {
            out.push(Span { start: content, end, what });
            Some(end + closing.len())
        }
        None => {
            out.push(Span { start: content, end: line.len(), what });
            *hidden = ELEMENTS.iter().find(|e| **e == name).copied();
            Some(line.len())
        }
    }
}

/// Words that address the model.
const ADDRESSES: [&str; 10] =
    ["ai", "assistant", "claude", "llm", "chatgpt", "gpt", "copilot", "gemini", "model", "codex"];

/// A note on hidden markup itself: an element a style hides that holds text, or a comment that
/// addresses the model (what the other checks find in it is theirs).
pub(super) fn markup_note(text: &str, what: &'static str, no: u32, sink: &mut Sink) {
    let mut words_in = 0usize;
    let mut addresses = false;
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()) {
        words_in += 1;
        addresses |= ADDRESSES.iter().any(|a| w.eq_ignore_ascii_case(a));
    }
    let noted = match what {
        ELEMENT => words_in >= 3,
        COMMENT | REFERENCE => addresses && words_in >= 4,
        _ => false,
    };
    if noted {
        let prev = sink.hidden.take();
        sink.push(Rule::HiddenMarkup, no, || {
            format!(
                "{what} (not shown when the Markdown is rendered) holds text for the model: {:?}",
                excerpt(text, 100)
            )
        });
        sink.hidden = prev;
    }
}
