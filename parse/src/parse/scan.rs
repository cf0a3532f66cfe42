//! Word-at-a-time byte scans for the parse's hot paths: eight bytes a step, in plain integer
//! arithmetic (no `unsafe`, no SIMD: the module is built for plain wasm32, where `core`'s byte and
//! pointer-sized loops are several times slower over a body of a few kilobytes).

/// A byte repeated in every byte of a word.
const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// The high bit of every byte.
const HIGH: u64 = splat(0x80);

/// Whether any byte of `w` is below `n` (`n` at most 0x80). Exact as a yes or no, which is all
/// it is used for.
const fn any_below(w: u64, n: u8) -> bool {
    w.wrapping_sub(splat(n)) & !w & HIGH != 0
}

/// Whether any byte of `w` equals `b`.
const fn any_equal(w: u64, b: u8) -> bool {
    any_below(w ^ splat(b), 1)
}

/// The eight bytes of `chunk` as a word (`chunk` has eight bytes).
fn word(chunk: &[u8]) -> Option<u64> {
    chunk.try_into().ok().map(u64::from_le_bytes)
}

/// Whether `bytes` is UTF-8 with no `\r`: text a body can be as it is. ASCII is read four words
/// at a time; each run of other bytes is checked by `std::str::from_utf8` (a run of them ends
/// where a character does, since no byte of a longer character is ASCII).
pub fn utf8_without_cr(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(rest) = bytes.get(i..) {
        let Some(&first) = rest.first() else { return true };
        if first.is_ascii() {
            let words = ascii_words(rest);
            let Some(tail) = rest.get(words..) else { return false };
            let ascii = tail.iter().take_while(|b| b.is_ascii()).count();
            if tail.get(..ascii).is_some_and(|a| a.contains(&b'\r')) {
                return false;
            }
            i += words + ascii;
        } else {
            let run = rest.iter().take_while(|b| !b.is_ascii()).count();
            if rest.get(..run).is_none_or(|r| std::str::from_utf8(r).is_err()) {
                return false;
            }
            i += run;
        }
    }
    true
}

/// The length of the leading run of `bytes`, in whole words, that is ASCII with no `\r`: four
/// words a step while it lasts, then one.
fn ascii_words(bytes: &[u8]) -> usize {
    let mut n = 0;
    for chunk in bytes.chunks_exact(32) {
        let at = |k: usize| chunk.get(k..k + 8).and_then(word).unwrap_or(HIGH);
        let (a, b, c, d) = (at(0), at(8), at(16), at(24));
        if (a | b | c | d) & HIGH != 0 || (cr_bits(a) | cr_bits(b) | cr_bits(c) | cr_bits(d)) != 0 {
            break;
        }
        n += 32;
    }
    for chunk in bytes.get(n..).unwrap_or_default().chunks_exact(8) {
        match word(chunk) {
            Some(w) if w & HIGH == 0 && cr_bits(w) == 0 => n += 8,
            _ => break,
        }
    }
    n
}

/// Non-zero when a byte of `w`, a word of ASCII, is `\r`.
const fn cr_bits(w: u64) -> u64 {
    let x = w ^ splat(b'\r');
    x.wrapping_sub(splat(1)) & !x & HIGH
}

/// Where `text` (UTF-8) is once trimmed as `str::trim` trims it: the range of its bytes between
/// white space at either end. Only the characters at the ends are decoded.
pub fn trimmed(text: &[u8]) -> std::ops::Range<usize> {
    let mut start = 0;
    while let Some(c) = char_at(text, start) {
        if !c.is_whitespace() {
            break;
        }
        start += c.len_utf8();
    }
    let mut end = text.len();
    while end > start {
        // The first byte of the last character: at most three continuation bytes back.
        let from =
            (end.saturating_sub(4).max(start)..end).rev().find(|&k| text.get(k).is_some_and(|&b| (b as i8) >= -0x40));
        let Some(from) = from else { break };
        match char_at(text, from) {
            Some(c) if c.is_whitespace() => end = from,
            _ => break,
        }
    }
    start..end
}

/// The character that starts at byte `at` of `text`, if one does.
fn char_at(text: &[u8], at: usize) -> Option<char> {
    let window = text.get(at..text.len().min(at + 4))?;
    let valid = match std::str::from_utf8(window) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(window.get(..e.valid_up_to())?).ok()?,
    };
    valid.chars().next()
}

/// Where the first `b` in `bytes` is.
pub fn find_byte(bytes: &[u8], b: u8) -> Option<usize> {
    let mut n = 0;
    for chunk in bytes.chunks_exact(8) {
        match word(chunk) {
            Some(w) if !any_equal(w, b) => n += 8,
            _ => break,
        }
    }
    bytes.get(n..)?.iter().position(|&x| x == b).map(|i| n + i)
}

/// The pieces of `text` between `\n`s, as `text.split('\n')` gives them.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        match find_byte(t.as_bytes(), b'\n') {
            Some(i) => {
                rest = t.get(i + 1..);
                t.get(..i)
            }
            None => {
                rest = None;
                Some(t)
            }
        }
    })
}

/// The length of the leading run of `bytes` that a JSON string holds as it is: printable ASCII
/// (0x20 to 0x7e) but `"` and `\`.
pub fn json_plain(bytes: &[u8]) -> usize {
    let mut n = 0;
    for chunk in bytes.chunks_exact(8) {
        match word(chunk) {
            Some(w)
                if w & HIGH == 0
                    && !any_below(w, 0x20)
                    && !any_equal(w, b'"')
                    && !any_equal(w, b'\\')
                    && !any_equal(w, 0x7f) =>
            {
                n += 8
            }
            _ => break,
        }
    }
    n + bytes.get(n..).map_or(0, |rest| rest.iter().take_while(|&&b| json_plain_byte(b)).count())
}

/// Whether a JSON string holds `b` as it is: printable ASCII but `"` and `\`.
pub const fn json_plain_byte(b: u8) -> bool {
    b >= 0x20 && b < 0x7f && b != b'"' && b != b'\\'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8_without_cr_slow(bytes: &[u8]) -> bool {
        std::str::from_utf8(bytes).is_ok_and(|s| !s.contains('\r'))
    }

    fn trimmed_slow(bytes: &[u8]) -> Option<std::ops::Range<usize>> {
        let text = std::str::from_utf8(bytes).ok()?;
        let start = text.len() - text.trim_start().len();
        Some(start..start + text.trim().len())
    }

    /// Pieces of text the scans must agree on: ASCII, white space of every kind, characters of
    /// every length, and bytes that are not UTF-8.
    const PIECES: &[&[u8]] = &[
        b"a",
        b"#",
        b" ",
        b"\t",
        b"\n",
        b"\r",
        b"\x0b",
        b"\x0c",
        b"\x1f",
        b"\x7f",
        "é".as_bytes(),
        "\u{85}".as_bytes(),
        "\u{a0}".as_bytes(),
        "\u{2028}".as_bytes(),
        "\u{3000}".as_bytes(),
        "—".as_bytes(),
        "中".as_bytes(),
        "😀".as_bytes(),
        b"\xff",
        b"\xc2",
        b"\xe2\x80",
        b"\xf0\x9f",
        b"\x80",
        b"abcdefgh",
        b"        ",
    ];

    fn text_of(pieces: &[usize]) -> Vec<u8> {
        pieces.iter().flat_map(|&i| PIECES[i % PIECES.len()].iter().copied()).collect()
    }

    fn json_plain_slow(bytes: &[u8]) -> usize {
        bytes.iter().take_while(|&&b| json_plain_byte(b)).count()
    }

    #[test]
    fn every_byte_at_every_place_stops_the_run_where_the_byte_loop_stops() {
        for len in 0..40 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut v = vec![b'a'; len];
                    v[at] = b;
                    assert_eq!(utf8_without_cr(&v), utf8_without_cr_slow(&v), "{v:?}");
                    assert_eq!(json_plain(&v), json_plain_slow(&v), "{v:?}");
                }
            }
        }
    }

    #[test]
    fn lines_are_what_split_gives() {
        for text in ["", "\n", "a", "a\n", "\na", "abcdefghij\nklmnopqrstuvwxyz\n\n é\n", "x\n\n\n"] {
            assert_eq!(lines(text).collect::<Vec<_>>(), text.split('\n').collect::<Vec<_>>(), "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn lines_and_bytes_are_found_as_std_finds_them(pieces in proptest::collection::vec(0usize..100, 0..40)) {
            let v = text_of(&pieces);
            proptest::prop_assert_eq!(find_byte(&v, b'\r'), v.iter().position(|&b| b == b'\r'));
            proptest::prop_assert_eq!(find_byte(&v, b'\n'), v.iter().position(|&b| b == b'\n'));
            let text = String::from_utf8_lossy(&v);
            proptest::prop_assert_eq!(lines(&text).collect::<Vec<_>>(), text.split('\n').collect::<Vec<_>>());
        }

        #[test]
        fn scans_agree_with_byte_loops(v in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            proptest::prop_assert_eq!(utf8_without_cr(&v), utf8_without_cr_slow(&v));
            proptest::prop_assert_eq!(json_plain(&v), json_plain_slow(&v));
        }

        #[test]
        fn scans_agree_on_text_of_every_kind(pieces in proptest::collection::vec(0usize..100, 0..40)) {
            let v = text_of(&pieces);
            proptest::prop_assert_eq!(utf8_without_cr(&v), utf8_without_cr_slow(&v));
            if let Some(range) = trimmed_slow(&v) {
                proptest::prop_assert_eq!(trimmed(&v), range);
            }
        }

        #[test]
        fn scans_agree_on_mostly_plain_text(v in proptest::collection::vec(
            proptest::prop_oneof![8 => 0x20u8..0x7f, 1 => proptest::prelude::any::<u8>()], 0..96)) {
            proptest::prop_assert_eq!(utf8_without_cr(&v), utf8_without_cr_slow(&v));
            proptest::prop_assert_eq!(json_plain(&v), json_plain_slow(&v));
        }
    }
}
