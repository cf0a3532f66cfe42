//! The first reading of a line: its words against the trigger table ([`super::words`]) as they
//! are read, the code spans and quotes a phrase aimed at the model cannot be in, and what the
//! other checks look for (bytes that may begin a hidden character, markup, base64 runs, `\x`
//! escapes). One pass, eight bytes at a time.

use super::words::{hash_of, lookup, may_trigger, Families, CUE, INSTR};

/// The most phrase-starting words of a line that are tried.
pub(super) const MAX_ANCHORS: usize = 12;

/// What the first reading of a line found.
#[derive(Default)]
pub(super) struct LineInfo {
    /// The families of checks its words call for.
    pub families: Families,
    /// Words outside code and quotes that start phrases: byte offset and phrase group (the first
    /// `anchor_count`).
    pub anchors: [(u32, u8); MAX_ANCHORS],
    /// How many of `anchors` are set.
    pub anchor_count: usize,
    /// Bytes that may begin a character [`crate::text::hides`] hides (controls, format
    /// characters, variation selectors): the line's characters need a look.
    pub suspect: bool,
    /// A `<`, `[` or `!`: markup a rendered view may hide.
    pub markup: bool,
    /// The longest run of base64 characters.
    pub b64_run: usize,
    /// `\x` escapes.
    pub hex_escapes: usize,
}

impl LineInfo {
    /// The phrase-starting words found.
    pub fn anchors(&self) -> &[(u32, u8)] {
        self.anchors.get(..self.anchor_count).unwrap_or_default()
    }
}

/// Byte classes of the first reading: a word byte, a base64 byte that is no word byte, and a byte
/// that needs a look of its own (quotes, markup, escapes, controls, the first byte of a character
/// outside ASCII; the bytes that continue one need none).
const WORD: u8 = 1;
const B64: u8 = 2;
const SPECIAL: u8 = 4;

const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c.is_ascii_alphanumeric() || c == b'_' {
            WORD
        } else if matches!(c, b'+' | b'/' | b'=' | b'-') {
            B64
        } else if matches!(c, b'`' | b'"' | b'\'' | b'<' | b'[' | b'!' | b'\\')
            || c >= 0xC0
            || (c < 0x20 && c != b'\t')
            || c == 0x7F
        {
            SPECIAL
        } else {
            0
        };
        b += 1;
    }
    t
};

/// Reads a line once: its words against the trigger table, code spans and quotes (a phrase in
/// them is not aimed at the model, unless `quotes_count`), and what the other checks need.
pub(super) fn read_line(line: &str, quotes_count: bool) -> LineInfo {
    let mut info = LineInfo::default();
    read_line_into(line, quotes_count, &mut info);
    info
}

/// A word of the line ends: looked up when some trigger word may have its shape (most words have
/// none, and cost no more than that test).
#[inline(always)]
fn word_ends(b: &[u8], start: usize, end: usize, info: &mut LineInfo, quoted: bool) {
    if let Some(w) = b.get(start..end) {
        if may_trigger(w) {
            look_up_word(b, start, end, info, quoted);
        }
    }
}

/// Looks a word up in the trigger table and records what it calls for.
#[inline(never)]
fn look_up_word(b: &[u8], start: usize, end: usize, info: &mut LineInfo, quoted: bool) {
    let Some(w) = b.get(start..end) else { return };
    let (families, g) = lookup(w, hash_of(w));
    if families != 0 {
        info.families |= if quoted { families & !(INSTR | CUE) } else { families };
        if g != 0 && !quoted && info.anchor_count < MAX_ANCHORS {
            if let Some(slot) = info.anchors.get_mut(info.anchor_count) {
                *slot = (start as u32, g);
                info.anchor_count += 1;
            }
        }
    }
}

/// Eight bytes at a time: [`ONES`] has a 1 in each byte, [`HIGH`] the high bit of each.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` (bytes below 0x80) that is in `lo..=hi`: no byte's sum
/// carries into the next.
#[inline(always)]
fn in_range(x: u64, lo: u8, hi: u8) -> u64 {
    (x.wrapping_add(ONES * u64::from(0x80 - lo)) & !x.wrapping_add(ONES * u64::from(0x7F - hi))) & HIGH
}

/// The high bit of each byte of `x` that is a word byte (an ASCII letter, digit or `_`).
#[inline(always)]
fn word_bytes(x: u64) -> u64 {
    let ascii = !x & HIGH;
    let y = x & !HIGH;
    (in_range(y | (ONES * 0x20), b'a', b'z') | in_range(y, b'0', b'9') | in_range(y, b'_', b'_')) & ascii
}

/// [`read_line`] into `info` (reset first). Eight bytes at a time, the bytes that are no word's
/// are found (spaces and punctuation, about one in five); the words are the gaps between them,
/// each tested for a trigger's first letter and length, and each byte found has a table lookup.
pub(super) fn read_line_into(line: &str, quotes_count: bool, info: &mut LineInfo) {
    info.families = 0;
    info.anchor_count = 0;
    info.suspect = false;
    info.markup = false;
    info.b64_run = 0;
    info.hex_escapes = 0;
    let b = line.as_bytes();
    let (mut in_tick, mut in_dq, mut in_sq) = (false, false, false);
    // The position after the last byte that is no word's, and where the current run of base64
    // bytes began.
    let mut next = 0usize;
    let mut run = 0usize;
    let mut at = 0usize;
    for chunk in b.chunks(8) {
        let (word, valid) = match <[u8; 8]>::try_from(chunk) {
            Ok(full) => (u64::from_le_bytes(full), HIGH),
            Err(_) => {
                let mut bytes = [0u8; 8];
                for (d, s) in bytes.iter_mut().zip(chunk) {
                    *d = *s;
                }
                (u64::from_le_bytes(bytes), HIGH & ((1u64 << (8 * chunk.len())) - 1))
            }
        };
        let mut others = !word_bytes(word) & valid;
        while others != 0 {
            let i = at + (others.trailing_zeros() / 8) as usize;
            others &= others - 1;
            let c = b.get(i).copied().unwrap_or(0);
            let after_word = i > next;
            if after_word {
                word_ends(b, next, i, info, in_tick || ((in_dq || in_sq) && !quotes_count));
            }
            next = i + 1;
            let k = CLASS[c as usize];
            if k == B64 {
                continue;
            }
            // A byte that is neither a word's nor base64's ends a run of base64.
            info.b64_run = info.b64_run.max(i - run);
            run = i + 1;
            if k != SPECIAL {
                continue;
            }
            match c {
                b'`' => in_tick = !in_tick,
                b'"' => in_dq ^= !in_tick,
                b'\'' => {
                    // An apostrophe inside a word (don't, users') is no quote.
                    if !in_tick && !in_dq && (in_sq || !after_word) {
                        in_sq = !in_sq;
                    }
                }
                b'<' | b'[' | b'!' => info.markup = true,
                b'\\' => info.hex_escapes += usize::from(b.get(i + 1) == Some(&b'x')),
                0xC0..=0xFF => {
                    if c == 0xE2 && b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0x9C) | Some(0x9D)) {
                        // Curly double quotes open and close a quote.
                        in_dq = b.get(i + 2) == Some(&0x9C);
                    } else {
                        info.suspect |= crate::unseen::may_begin_hidden(b, i);
                    }
                }
                // Bytes that continue a character outside ASCII.
                0x80..=0xBF => {}
                // Controls.
                _ => info.suspect = true,
            }
        }
        at += chunk.len();
    }
    if b.len() > next {
        word_ends(b, next, b.len(), info, in_tick || ((in_dq || in_sq) && !quotes_count));
    }
    info.b64_run = info.b64_run.max(b.len().saturating_sub(run));
}
