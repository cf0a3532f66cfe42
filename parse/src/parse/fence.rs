//! Finding the frontmatter: BOM, line endings, the opening and closing `---` fences.

use super::scan;
use crate::diagnostic::{codes, Diagnostic};
use std::borrow::Cow;

/// A SKILL.md split at its fences. Only the frontmatter is decoded up front: the body is
/// decoded when it is asked for, so a metadata-only parse never touches the rest of the file.
#[derive(Debug)]
pub struct Split<'a> {
    frontmatter: Cow<'a, str>,
    /// 1-based file line of the first frontmatter line (the line after the opening fence).
    pub first_line: u32,
    body: &'a [u8],
    /// 1-based file line of the line after the closing fence.
    body_first_line: u32,
    partial: bool,
    /// Warnings about the layout (BOM, CRLF, blank lines before the fence).
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Split<'a> {
    /// The frontmatter text, between the fences.
    pub fn frontmatter(&self) -> &str {
        &self.frontmatter
    }

    /// The 1-based line where the body's text starts (after blank lines), without decoding it.
    pub fn body_line(&self) -> u32 {
        let leading_newlines =
            self.body.iter().take_while(|b| b.is_ascii_whitespace()).filter(|&&b| b == b'\n').count();
        self.body_first_line + leading_newlines as u32
    }

    /// Where the body lies in the bytes after the closing fence when it is those bytes unchanged (valid
    /// UTF-8 with no `\r`, trimmed): its range; `None` when it must be decoded and normalised
    /// ([`Split::body`]). The same check, and the same error, as `body`.
    ///
    /// A body that is UTF-8 with no `\r` (most are) is checked and trimmed by the word-at-a-time
    /// scans; any other goes the way of [`Split::body`].
    pub fn body_range(&self) -> Result<Option<std::ops::Range<usize>>, Diagnostic> {
        if scan::utf8_without_cr(self.body) {
            return Ok(Some(scan::trimmed(self.body)));
        }
        let text = self.body_str()?;
        let trimmed = text.trim();
        if trimmed.contains('\r') {
            return Ok(None);
        }
        let start = text.len() - text.trim_start().len();
        Ok(Some(start..start + trimmed.len()))
    }

    /// The body's bytes as text: valid UTF-8 (a prefix may end inside a character).
    fn body_str(&self) -> Result<&'a str, Diagnostic> {
        let bytes = self.body;
        match std::str::from_utf8(bytes) {
            Ok(t) => Ok(t),
            Err(e) if self.partial && e.error_len().is_none() => {
                Ok(std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default())
            }
            Err(e) => {
                let line =
                    self.body_first_line + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() as u32;
                Err(not_utf8(e.valid_up_to(), line))
            }
        }
    }

    /// The body, decoded, line endings normalised, trimmed.
    pub fn body(&self) -> Result<String, Diagnostic> {
        let text = self.body_str()?.trim();
        Ok(if text.contains('\r') { normalize_newlines(text) } else { text.to_string() })
    }

    /// Where the body's bytes start in `input`, when they are a part of it (not of a copy).
    pub fn body_offset_in(&self, input: &[u8]) -> Option<usize> {
        let offset = (self.body.as_ptr() as usize).checked_sub(input.as_ptr() as usize)?;
        (offset.checked_add(self.body.len())? <= input.len()).then_some(offset)
    }
}

/// Why the fences could not be found.
#[derive(Debug, PartialEq)]
pub enum FenceError {
    /// The input was a prefix and the closing fence was not in it.
    Incomplete,
    /// A diagnostic that refuses the file.
    Refused(Diagnostic),
}

/// The reference's message for a missing opening fence.
pub const MSG_MISSING: &str = "SKILL.md must start with YAML frontmatter (---)";
/// The reference's message for a missing closing fence.
pub const MSG_UNCLOSED: &str = "SKILL.md frontmatter not properly closed with ---";

fn not_utf8(offset: usize, line: u32) -> Diagnostic {
    Diagnostic::error(codes::NOT_UTF8, format!("SKILL.md is not valid UTF-8 (invalid byte at offset {offset})"))
        .at_line(Some(line))
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| b == b' ' || b == b'\t' || b == b'\r')
}

fn is_fence(line: &[u8]) -> bool {
    line.strip_prefix(b"---").is_some_and(is_blank)
}

fn normalize_newlines(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// The lines of `bytes` from `start`: (line start, line end without the newline, next start).
fn lines(bytes: &[u8], mut start: usize) -> impl Iterator<Item = (usize, usize, Option<usize>)> + '_ {
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        match bytes.get(start..).and_then(|rest| scan::find_byte(rest, b'\n')) {
            Some(i) => {
                let item = (start, start + i, Some(start + i + 1));
                start += i + 1;
                Some(item)
            }
            None => {
                done = true;
                Some((start, bytes.len(), None))
            }
        }
    })
}

/// What strict mode refuses in a split that lenient mode reads: blank lines before the opening
/// fence (the reference's file must start with `---`), with the reference's message.
pub fn strict_refusal(split: &Split<'_>) -> Option<Diagnostic> {
    split
        .diagnostics
        .iter()
        .any(|d| d.code == codes::LEADING_BLANK_LINES)
        .then(|| Diagnostic::error(codes::FRONTMATTER_MISSING, MSG_MISSING).at_line(Some(1)))
}

/// Splits `bytes` into frontmatter and body. `partial` says the bytes are only a prefix of the
/// file: then a missing closing fence means "read more", not "broken".
pub fn split(bytes: &[u8], partial: bool) -> Result<Split<'_>, FenceError> {
    let mut diagnostics = Vec::new();
    let mut bytes = bytes;
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        bytes = rest;
        diagnostics.push(
            Diagnostic::warning(codes::BOM, "the file starts with a UTF-8 byte order mark; it was ignored")
                .at_line(Some(1)),
        );
    }
    let mut it = lines(bytes, 0);
    let mut line_no = 1u32;
    // Blank lines before the opening fence.
    let (open_start, open_end, open_next) = loop {
        // `lines` yields at least one line, even for empty input.
        let Some((s, e, next)) = it.next() else {
            return Err(FenceError::Refused(Diagnostic::error(codes::FRONTMATTER_MISSING, MSG_MISSING)));
        };
        if !is_blank(&bytes[s..e]) || next.is_none() {
            break (s, e, next);
        }
        line_no += 1;
    };
    if line_no > 1 {
        diagnostics.push(
            Diagnostic::warning(
                codes::LEADING_BLANK_LINES,
                format!("{} blank line(s) before the opening ---; they were ignored", line_no - 1),
            )
            .at_line(Some(1)),
        );
    }
    let first = &bytes[open_start..open_end];
    if !is_fence(first) {
        if partial && open_next.is_none() && b"---".starts_with(first) {
            return Err(FenceError::Incomplete);
        }
        return Err(FenceError::Refused(
            Diagnostic::error(codes::FRONTMATTER_MISSING, MSG_MISSING).at_line(Some(line_no)),
        ));
    }
    let Some(fm_start) = open_next else {
        return Err(if partial {
            FenceError::Incomplete
        } else {
            FenceError::Refused(Diagnostic::error(codes::FRONTMATTER_UNCLOSED, MSG_UNCLOSED).at_line(Some(line_no)))
        });
    };
    let first_line = line_no + 1;
    for (cur_line, (s, e, next)) in (first_line..).zip(it) {
        // In a prefix, the last line may be cut short: only a terminated line counts as a fence.
        if is_fence(&bytes[s..e]) && (next.is_some() || !partial) {
            let fm = &bytes[fm_start..s];
            let fm = match std::str::from_utf8(fm) {
                Ok(t) => t,
                Err(err) => {
                    let line = first_line + fm[..err.valid_up_to()].iter().filter(|&&b| b == b'\n').count() as u32;
                    return Err(FenceError::Refused(not_utf8(fm_start + err.valid_up_to(), line)));
                }
            };
            let has_cr = scan::find_byte(fm.as_bytes(), b'\r').is_some();
            let crlf = first.ends_with(b"\r") || has_cr;
            let frontmatter = if has_cr { Cow::Owned(normalize_newlines(fm)) } else { Cow::Borrowed(fm) };
            if crlf {
                diagnostics.push(
                    Diagnostic::warning(codes::CRLF, "the file uses CRLF line endings; they were read as LF")
                        .at_line(Some(1)),
                );
            }
            return Ok(Split {
                frontmatter,
                first_line,
                body: &bytes[next.unwrap_or(bytes.len())..],
                body_first_line: cur_line + 1,
                partial,
                diagnostics,
            });
        }
    }
    if partial {
        Err(FenceError::Incomplete)
    } else {
        Err(FenceError::Refused(Diagnostic::error(codes::FRONTMATTER_UNCLOSED, MSG_UNCLOSED).at_line(Some(line_no))))
    }
}

/// Where the frontmatter sits in a file: the 1-based lines of its fences, as [`split`] finds them
/// (after a BOM and blank lines; a fence may carry trailing spaces). For views that mark it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct FrontmatterSpan {
    /// The line of the opening `---`.
    pub open_line: u32,
    /// The line of the closing `---`; `None` when it is missing (the frontmatter runs to the end).
    pub close_line: Option<u32>,
}

/// The fences of `bytes`, or `None` when the file does not open with one. Bytes that are not
/// UTF-8 are read as their lossy decoding, which keeps the lines where they are.
pub fn span(bytes: &[u8]) -> Option<FrontmatterSpan> {
    match split(bytes, false) {
        Ok(s) => Some(FrontmatterSpan { open_line: s.first_line - 1, close_line: Some(s.body_first_line - 1) }),
        Err(FenceError::Refused(d)) if d.code == codes::FRONTMATTER_UNCLOSED => {
            Some(FrontmatterSpan { open_line: d.line.unwrap_or(1), close_line: None })
        }
        Err(FenceError::Refused(d)) if d.code == codes::NOT_UTF8 => match String::from_utf8_lossy(bytes) {
            std::borrow::Cow::Owned(text) => span(text.as_bytes()),
            std::borrow::Cow::Borrowed(_) => None,
        },
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> Split<'_> {
        split(s.as_bytes(), false).expect("split")
    }
    fn refused(s: &[u8]) -> Diagnostic {
        match split(s, false) {
            Err(FenceError::Refused(d)) => d,
            other => panic!("expected refusal, got {other:?}"),
        }
    }

    #[test]
    fn plain_fences() {
        let s = ok("---\nname: a\ndescription: b\n---\n\n# Title\n\nText\n");
        assert_eq!(s.frontmatter(), "name: a\ndescription: b\n");
        assert_eq!(s.first_line, 2);
        assert_eq!(s.body().unwrap(), "# Title\n\nText");
        assert_eq!(s.body_line(), 6);
        assert!(s.diagnostics.is_empty());
    }

    #[test]
    fn dashes_inside_a_value_or_a_rule_in_the_body_are_not_fences() {
        let s = ok("---\ndescription: foo---bar\n----\n---\nbody\n\n---\nmore\n");
        assert_eq!(s.frontmatter(), "description: foo---bar\n----\n");
        assert_eq!(s.body().unwrap(), "body\n\n---\nmore");
    }

    #[test]
    fn trailing_spaces_after_fences_are_allowed() {
        let s = ok("---  \nname: a\n--- \t\nbody");
        assert_eq!(s.frontmatter(), "name: a\n");
        assert_eq!(s.body().unwrap(), "body");
    }

    #[test]
    fn bom_crlf_and_leading_blank_lines_warn() {
        let s = ok("\u{feff}\r\n\r\n---\r\nname: a\r\n---\r\nbody\r\n");
        assert_eq!(s.frontmatter(), "name: a\n");
        assert_eq!(s.first_line, 4);
        let codes: Vec<_> = s.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["bom", "leading-blank-lines", "crlf"]);
        assert_eq!(s.body().unwrap(), "body");
        assert_eq!(s.body_line(), 6);
    }

    #[test]
    fn missing_and_unclosed() {
        let d = refused(b"# No frontmatter here");
        assert_eq!((d.code.as_str(), d.message.as_str()), ("frontmatter-missing", MSG_MISSING));
        let d = refused(b"---\nname: a\ndescription: b\n");
        assert_eq!((d.code.as_str(), d.message.as_str()), ("frontmatter-unclosed", MSG_UNCLOSED));
        assert_eq!(refused(b"").code, "frontmatter-missing");
        assert_eq!(refused(b"---").code, "frontmatter-unclosed");
        assert_eq!(refused(b"----\nname: a\n---\n").code, "frontmatter-missing");
    }

    #[test]
    fn non_utf8_is_refused_with_its_line() {
        let d = refused(b"---\nname: a\ndescription: \xff\xfe\n---\n");
        assert_eq!(d.code, "not-utf8");
        assert_eq!(d.line, Some(3));
        // In the body, the error comes when the body is asked for.
        let s = split(b"---\nname: a\n---\n\nok\n\xff\n", false).unwrap();
        assert_eq!(s.body().unwrap_err().line, Some(6));
    }

    #[test]
    fn a_prefix_asks_for_more_only_when_the_fence_is_not_in_it() {
        assert_eq!(split(b"---\nname: a\ndescr", true).unwrap_err(), FenceError::Incomplete);
        assert_eq!(split(b"---\nname: a\n---", true).unwrap_err(), FenceError::Incomplete);
        assert_eq!(split(b"--", true).unwrap_err(), FenceError::Incomplete);
        // A character cut in two at the end of a prefix is not an encoding error.
        let mut bytes = b"---\nname: a\n---\nbody \xe6\x8a".to_vec();
        let s = split(&bytes, true).expect("prefix with a cut character");
        assert_eq!(s.frontmatter(), "name: a\n");
        assert_eq!(s.body().unwrap(), "body");
        bytes.truncate(4);
        assert_eq!(split(&bytes, true).unwrap_err(), FenceError::Incomplete);
        assert!(matches!(split(b"# title\n", true), Err(FenceError::Refused(_))));
    }

    #[test]
    fn spans() {
        let at = |s: &[u8]| span(s).map(|x| (x.open_line, x.close_line));
        assert_eq!(at(b"---\nname: a\n---\nbody\n"), Some((1, Some(3))));
        assert_eq!(at(b"\xEF\xBB\xBF\n\n---  \r\nname: a\r\n--- \r\nbody"), Some((3, Some(5))));
        assert_eq!(at(b"---\nname: a\n"), Some((1, None)));
        assert_eq!(at(b"---"), Some((1, None)));
        assert_eq!(at(b"---\nname: \xff\n---\n"), Some((1, Some(3))));
        assert_eq!(at(b"# title\n---\n"), None);
        assert_eq!(at(b""), None);
    }

    /// `body_range` as it was before the word-at-a-time scan: the whole body checked as UTF-8.
    fn body_range_slow(s: &Split<'_>) -> Result<Option<std::ops::Range<usize>>, Diagnostic> {
        let text = s.body_str()?;
        let trimmed = text.trim();
        if trimmed.contains('\r') {
            return Ok(None);
        }
        let start = text.len() - text.trim_start().len();
        Ok(Some(start..start + trimmed.len()))
    }

    proptest::proptest! {
        #[test]
        fn body_range_agrees_with_the_whole_text_check(
            body in proptest::collection::vec(proptest::prop_oneof![
                6 => proptest::sample::select(b"ab \t\n\r\x0b\x0c#-".to_vec()),
                2 => proptest::sample::select(vec![0xc2u8, 0xa0, 0x85, 0xe2, 0x80, 0x94, 0xa8, 0xe3, 0xff, 0xf0, 0x9f]),
            ], 0..40),
            partial in proptest::prelude::any::<bool>(),
        ) {
            let mut file = b"---\nname: a\n---\n".to_vec();
            file.extend_from_slice(&body);
            let Ok(s) = split(&file, partial) else { return Ok(()) };
            proptest::prop_assert_eq!(s.body_range(), body_range_slow(&s));
        }
    }
}
