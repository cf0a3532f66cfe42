//! Text a reader may not see, at a glance: one look at each byte says whether a text may hold a
//! character [`crate::text::hides`] hides or Markdown a rendered view hides (an HTML comment, an
//! element a style hides, alt text, a title, a link reference definition). Most texts hold none,
//! and cost no more than the look; a text that may is read line by line by the caller (the
//! engine's vetting reads what discovery read of every SKILL.md with it). Built for speed with the
//! parse path, which runs over the same bytes.

/// Whether the bytes at `i` (the first one of a character outside ASCII) may begin a character
/// [`crate::text::hides`] hides: the lead bytes (and the next byte) of the format characters, the
/// fillers, the variation selectors and the tag characters. Most text outside ASCII (accents,
/// CJK, emoji) is passed over by it.
pub fn may_begin_hidden(b: &[u8], i: usize) -> bool {
    let n = b.get(i + 1).copied().unwrap_or(0);
    let t = b.get(i + 2).copied().unwrap_or(0);
    match b.get(i).copied().unwrap_or(0) {
        0xC2 => (0x80..=0x9F).contains(&n) || n == 0xAD,
        0xCD => n == 0x8F,
        0xD8 => (0x80..=0x85).contains(&n) || n == 0x9C,
        0xDB => n == 0x9D,
        0xDC => n == 0x8F,
        0xE0 => n == 0xA2 || n == 0xA3,
        0xE1 => matches!(n, 0x85 | 0x9E | 0xA0),
        0xE2 => (n == 0x80 && ((0x8B..=0x8F).contains(&t) || (0xAA..=0xAE).contains(&t))) || (n == 0x81 && t >= 0xA0),
        0xE3 => n == 0x85,
        0xEF => {
            (n == 0xB8 && t <= 0x8F)
                || (n == 0xBB && t == 0xBF)
                || (n == 0xBE && t == 0xA0)
                || (n == 0xBF && (0xB0..=0xBB).contains(&t))
        }
        0xF0 => matches!(n, 0x91 | 0x93 | 0x9B | 0x9D),
        0xF3 => n == 0xA0,
        _ => false,
    }
}

/// What a byte may begin: nothing (0), a look at a character outside ASCII or a control, or a
/// look at markup.
const CHAR: u8 = 1;
const MARKUP: u8 = 2;

const LOOK: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c >= 0xC0 || (c < 0x20 && c != b'\t' && c != b'\n' && c != b'\r') || c == 0x7F {
            CHAR
        } else if matches!(c, b'<' | b'[') {
            MARKUP
        } else {
            0
        };
        b += 1;
    }
    t
};

/// The most bytes a tag or a link destination is looked through for what hides text.
const REACH: usize = 512;

/// Eight bytes at a time: a 1 in each byte, the high bit of each byte.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that is zero, or may be (a borrow from a zero byte may mark
/// the byte after it: a mark is a reason to look, never a finding).
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGH
}

/// The high bit of each byte of eight that may need a look: a byte that begins a character
/// outside ASCII (0xC0 and above), a control, `<` or `[` (alt text, titles and link reference
/// definitions all have a `[`).
#[inline(always)]
fn marks(x: u64) -> u64 {
    let lead = x & (x << 1) & HIGH;
    let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
    lead | control | zero_bytes(x ^ (ONES * u64::from(b'<'))) | zero_bytes(x ^ (ONES * u64::from(b'[')))
}

/// Whether `bytes` may hold text a reader does not see: sixteen bytes at a time, and a look at
/// each byte they mark.
pub fn may_hide_text(bytes: &[u8]) -> bool {
    let mut blocks = bytes.chunks_exact(16);
    let mut at = 0usize;
    for block in &mut blocks {
        let (lo, hi) = block.split_at(8);
        let lo = marks(u64::from_le_bytes(lo.try_into().unwrap_or([0; 8])));
        let hi = marks(u64::from_le_bytes(hi.try_into().unwrap_or([0; 8])));
        if (lo | hi) != 0 && (looks(bytes, at, lo) || looks(bytes, at + 8, hi)) {
            return true;
        }
        at += 16;
    }
    let rest = blocks.remainder();
    (0..rest.len()).any(|k| LOOK[rest[k] as usize] != 0 && looks_hidden(bytes, at + k))
}

/// Whether one of the bytes `m` marks (the high bits of the eight from `at`) begins something
/// that hides text.
fn looks(bytes: &[u8], at: usize, mut m: u64) -> bool {
    while m != 0 {
        let i = at + (m.trailing_zeros() / 8) as usize;
        m &= m - 1;
        if looks_hidden(bytes, i) {
            return true;
        }
    }
    false
}

/// Whether the byte at `i` begins something that hides text.
fn looks_hidden(bytes: &[u8], i: usize) -> bool {
    let Some(&c) = bytes.get(i) else { return false };
    match LOOK[c as usize] {
        CHAR => c < 0xC0 || may_begin_hidden(bytes, i),
        MARKUP => markup_at(bytes, i),
        _ => false,
    }
}

/// Whether the byte at `i` (`<` or `[`) begins markup a rendered view hides.
fn markup_at(b: &[u8], i: usize) -> bool {
    let rest = b.get(i + 1..).unwrap_or_default();
    let near = rest.get(..rest.len().min(REACH)).unwrap_or_default();
    if b.get(i) == Some(&b'<') {
        return match rest.first() {
            Some(b'!') => rest.starts_with(b"!--"),
            Some(c) if c.is_ascii_alphabetic() => {
                let tag = near.split(|&c| c == b'>').next().unwrap_or_default();
                let name_len = tag.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
                let name = tag.get(..name_len).unwrap_or_default();
                name.eq_ignore_ascii_case(b"details")
                    || name.eq_ignore_ascii_case(b"template")
                    || ["hidden", "display", "visibility", "font-size", "opacity", "alt=", "title=", "clip", "color"]
                        .iter()
                        .any(|w| contains_ci(tag, w.as_bytes()))
            }
            _ => false,
        };
    }
    let line = near.split(|&c| c == b'\n').next().unwrap_or_default();
    // `![alt](…)` with some alt text.
    if i > 0 && b.get(i - 1) == Some(&b'!') && rest.first().is_some_and(|&c| c != b']') {
        return true;
    }
    // A link reference definition: `[id]: …` at the start of a line.
    let spaces = b.get(..i).unwrap_or_default().iter().rev().take_while(|&&c| c == b' ').count();
    let at_start = i == spaces || b.get(i - spaces - 1) == Some(&b'\n');
    if at_start && spaces <= 3 && line.windows(2).any(|w| w == b"]:") {
        return true;
    }
    // `[text](url "title")`: a quote after a space before the destination's closing parenthesis.
    let Some(open) = line.windows(2).position(|w| w == b"](") else { return false };
    let dest = line.get(open + 2..).unwrap_or_default();
    let dest = dest.split(|&c| c == b')').next().unwrap_or_default();
    dest.windows(2).any(|w| matches!(w, [b' ' | b'\t', b'"' | b'\'']))
}

fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_only_where_text_may_hide() {
        for plain in [
            "# Title\n\nPlain text, a [link](https://x.example) and `code` <value>.\n",
            "Emoji \u{2705} and caf\u{E9}, CJK \u{4E2D}\u{6587}. Not! [a] b\n",
            "![](empty-alt.png) and <div class=\"x\">shown</div>\n",
        ] {
            assert!(!may_hide_text(plain.as_bytes()), "{plain}");
        }
        for hidden in [
            "a <!-- b --> c",
            "<div hidden>x</div>",
            "<span style=\"display:none\">x</span>",
            "<details><summary>s</summary>x</details>",
            "![alt text](a.png)",
            "[x](https://x.example \"title\")",
            "text\n  [//]: # (comment)\n",
            "zero\u{200B}width",
            "tag\u{E0041}",
            "bell\u{7}",
        ] {
            assert!(may_hide_text(hidden.as_bytes()), "{hidden}");
        }
    }
}
