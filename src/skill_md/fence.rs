//! Finding the frontmatter: BOM, line endings, the opening and closing `---` fences.

use crate::model::Diagnostic;
use std::borrow::Cow;

/// The text of a SKILL.md split at its fences.
#[derive(Debug)]
pub struct Split<'a> {
    /// The whole decoded text with line endings normalised to `\n`.
    pub text: Cow<'a, str>,
    /// Byte range of the frontmatter inside `text` (between the fences, without them).
    pub frontmatter: std::ops::Range<usize>,
    /// 1-based file line of the first frontmatter line (the line after the opening fence).
    pub first_line: u32,
    /// Byte offset in `text` where the body starts (just after the closing fence line).
    pub body_start: usize,
    /// 1-based file line of the line after the closing fence.
    pub body_first_line: u32,
    /// Warnings about the layout (BOM, CRLF, blank lines before the fence).
    pub diagnostics: Vec<Diagnostic>,
}

impl Split<'_> {
    pub fn frontmatter(&self) -> &str {
        &self.text[self.frontmatter.clone()]
    }
    /// The body, trimmed, and the 1-based line it starts on.
    pub fn body(&self) -> (&str, u32) {
        let rest = &self.text[self.body_start..];
        let trimmed_start = rest.trim_start();
        let skipped = &rest[..rest.len() - trimmed_start.len()];
        let line = self.body_first_line + skipped.matches('\n').count() as u32;
        (trimmed_start.trim_end(), line)
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

pub const CODE_NOT_UTF8: &str = "not-utf8";
pub const CODE_MISSING: &str = "frontmatter-missing";
pub const CODE_UNCLOSED: &str = "frontmatter-unclosed";
pub const MSG_MISSING: &str = "SKILL.md must start with YAML frontmatter (---)";
pub const MSG_UNCLOSED: &str = "SKILL.md frontmatter not properly closed with ---";

fn is_fence(line: &str) -> bool {
    line.strip_prefix("---").is_some_and(|rest| rest.bytes().all(|b| b == b' ' || b == b'\t'))
}

/// Splits `bytes` into frontmatter and body. `partial` says the bytes are only a prefix of the
/// file: then a missing closing fence means "read more", not "broken".
pub fn split(bytes: &[u8], partial: bool) -> Result<Split<'_>, FenceError> {
    let mut diagnostics = Vec::new();
    let mut bytes = bytes;
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        bytes = rest;
        diagnostics.push(Diagnostic::warning("bom", "the file starts with a UTF-8 byte order mark; it was ignored").at_line(Some(1)));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        // A ranged read may cut a character in two at its very end.
        Err(e) if partial && e.error_len().is_none() => {
            // valid_up_to is a char boundary by construction.
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() as u32;
            return Err(FenceError::Refused(
                Diagnostic::error(
                    CODE_NOT_UTF8,
                    format!("SKILL.md is not valid UTF-8 (invalid byte at offset {})", e.valid_up_to()),
                )
                .at_line(Some(line)),
            ));
        }
    };
    let text: Cow<str> = if text.contains('\r') {
        if text.contains("\r\n") {
            diagnostics.push(Diagnostic::warning("crlf", "the file uses CRLF line endings; they were read as LF").at_line(Some(1)));
        }
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    };

    // Skip blank lines before the opening fence.
    let mut pos = 0usize;
    let mut line_no = 1u32;
    loop {
        let end = text[pos..].find('\n').map(|i| pos + i);
        let line = &text[pos..end.unwrap_or(text.len())];
        if !line.trim().is_empty() || end.is_none() {
            break;
        }
        pos = end.map_or(text.len(), |e| e + 1);
        line_no += 1;
    }
    if line_no > 1 {
        diagnostics.push(
            Diagnostic::warning("leading-blank-lines", format!("{} blank line(s) before the opening ---; they were ignored", line_no - 1))
                .at_line(Some(1)),
        );
    }
    let first_end = text[pos..].find('\n').map(|i| pos + i);
    let first = &text[pos..first_end.unwrap_or(text.len())];
    if !is_fence(first) {
        if partial && first_end.is_none() && "---".starts_with(first) {
            return Err(FenceError::Incomplete);
        }
        return Err(FenceError::Refused(Diagnostic::error(CODE_MISSING, MSG_MISSING).at_line(Some(line_no))));
    }
    let fm_start = match first_end {
        Some(e) => e + 1,
        None if partial => return Err(FenceError::Incomplete),
        None => return Err(FenceError::Refused(Diagnostic::error(CODE_UNCLOSED, MSG_UNCLOSED).at_line(Some(line_no)))),
    };
    let first_line = line_no + 1;
    let mut cur = fm_start;
    let mut cur_line = first_line;
    loop {
        let end = text[cur..].find('\n').map(|i| cur + i);
        let line = &text[cur..end.unwrap_or(text.len())];
        // In a prefix, the last line may be cut short: only a terminated line counts as a fence.
        if is_fence(line) && (end.is_some() || !partial) {
            let body_start = end.map_or(text.len(), |e| e + 1);
            return Ok(Split {
                frontmatter: fm_start..cur,
                first_line,
                body_start,
                body_first_line: cur_line + 1,
                diagnostics,
                text,
            });
        }
        match end {
            Some(e) => {
                cur = e + 1;
                cur_line += 1;
            }
            None => break,
        }
    }
    if partial {
        Err(FenceError::Incomplete)
    } else {
        Err(FenceError::Refused(Diagnostic::error(CODE_UNCLOSED, MSG_UNCLOSED).at_line(Some(line_no))))
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
        assert_eq!(s.body(), ("# Title\n\nText", 6));
        assert!(s.diagnostics.is_empty());
    }

    #[test]
    fn dashes_inside_a_value_or_a_rule_in_the_body_are_not_fences() {
        let s = ok("---\ndescription: foo---bar\n----\n---\nbody\n\n---\nmore\n");
        assert_eq!(s.frontmatter(), "description: foo---bar\n----\n");
        assert_eq!(s.body().0, "body\n\n---\nmore");
    }

    #[test]
    fn trailing_spaces_after_fences_are_allowed() {
        let s = ok("---  \nname: a\n--- \t\nbody");
        assert_eq!(s.frontmatter(), "name: a\n");
        assert_eq!(s.body().0, "body");
    }

    #[test]
    fn bom_crlf_and_leading_blank_lines_warn() {
        let s = ok("\u{feff}\r\n\r\n---\r\nname: a\r\n---\r\nbody\r\n");
        assert_eq!(s.frontmatter(), "name: a\n");
        assert_eq!(s.first_line, 4);
        let codes: Vec<_> = s.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["bom", "crlf", "leading-blank-lines"]);
        assert_eq!(s.body(), ("body", 6));
    }

    #[test]
    fn missing_and_unclosed() {
        let d = refused(b"# No frontmatter here");
        assert_eq!((d.code.as_str(), d.message.as_str()), (CODE_MISSING, MSG_MISSING));
        let d = refused(b"---\nname: a\ndescription: b\n");
        assert_eq!((d.code.as_str(), d.message.as_str()), (CODE_UNCLOSED, MSG_UNCLOSED));
        assert_eq!(refused(b"").code, CODE_MISSING);
        assert_eq!(refused(b"---").code, CODE_UNCLOSED);
        assert_eq!(refused(b"----\nname: a\n---\n").code, CODE_MISSING);
    }

    #[test]
    fn non_utf8_is_refused_with_its_line() {
        let d = refused(b"---\nname: a\ndescription: \xff\xfe\n---\n");
        assert_eq!(d.code, CODE_NOT_UTF8);
        assert_eq!(d.line, Some(3));
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
        bytes.truncate(4);
        assert_eq!(split(&bytes, true).unwrap_err(), FenceError::Incomplete);
        assert!(matches!(split(b"# title\n", true), Err(FenceError::Refused(_))));
    }
}
