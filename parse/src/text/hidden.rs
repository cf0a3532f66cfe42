//! Characters no output shows as they are ([`hides`]), made visible as U+FFFD, and the
//! single-line and multi-line cleaning every value goes through ([`one_line`], [`clean_lines`],
//! [`clean_hidden`]).

use std::borrow::Cow;

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
pub(super) fn is_other_line_break(c: char) -> bool {
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
pub(super) fn one_line_cow(s: &str) -> Cow<'_, str> {
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
