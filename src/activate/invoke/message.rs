//! Finding `/skill-name args` and `$skill-name` mentions in a user's message.

#[cfg(feature = "invocation")]
use crate::parse::Skill;
#[cfg(feature = "invocation")]
use crate::text::{code_ranges, CodeCursor, Utf16Cursor};
use serde::{Deserialize, Serialize};
#[cfg(feature = "invocation")]
use std::collections::{HashMap, HashSet};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// How a skill was named in a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum InvocationKind {
    /// `/name args` at the start of the message.
    Slash,
    /// `$name` anywhere outside code.
    Mention,
}

/// One skill the user invoked or mentioned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Invocation {
    /// The skill's name.
    pub name: String,
    /// A `/name` at the start or a `$name` mention.
    pub kind: InvocationKind,
    /// For a slash invocation, everything after the name to the end of the message, trimmed
    /// (it may span lines); empty for a mention.
    pub arguments: String,
    /// UTF-16 code unit offset of the `/` or `$` (JavaScript string index).
    pub start: usize,
    /// UTF-16 code unit offset just past the name.
    pub end: usize,
}

/// What [`parse_message`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ParsedMessage {
    /// The slash invocation first (when there is one), then mentions in order of appearance,
    /// one per skill.
    pub invocations: Vec<Invocation>,
    /// The text to send on as the user's message: after a slash invocation, its arguments (the
    /// message without the leading `/name`); otherwise the message unchanged. Mentions stay in
    /// place: they are part of the user's sentence.
    pub remaining: String,
    /// A leading `/name` that is not a user-invocable skill ("no such skill"). Mentions of unknown
    /// names are not reported: `$HOME` or `$5` in a message is not a typo for a skill.
    pub unknown: Vec<String>,
}

#[cfg(feature = "invocation")]
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Characters a `/name` token may consist of for it to be reported as an unknown skill
/// (`/usr/bin` or `/?` are not).
#[cfg(feature = "invocation")]
fn is_name_shaped(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
}

/// Finds the skills a user's message invokes.
///
/// - `/name args`: only at the very start of the message (after leading whitespace). The name runs
///   to the first whitespace; it must be the exact name of a user-invocable skill, otherwise the
///   message is left as it is and a name-shaped token is reported in `unknown`.
/// - `$name`: anywhere outside fenced code blocks and inline code spans (the slash arguments
///   included). The `$` must not follow a letter, digit, `_`, `$` or `\` (`US$5`, `$$x`, `\$x`),
///   and the name is the longest run of letters, digits, `_` and `-` after it (trailing hyphens
///   dropped), which must be exactly a user-invocable skill's name: `$pdf-tools,` mentions
///   `pdf-tools`, `$pdf-toolsX` mentions nothing unless that skill exists. Repeated mentions, and
///   a mention of the slash-invoked skill, count once.
/// - When several skills share a name, the first in `skills` is the one meant.
#[cfg(feature = "invocation")]
pub fn parse_message(text: &str, skills: &[impl std::borrow::Borrow<Skill>]) -> ParsedMessage {
    let mut by_name: HashMap<&str, &Skill> = HashMap::new();
    for s in skills.iter().map(|s| s.borrow()).filter(|s| s.user_invocable) {
        by_name.entry(s.name.as_str()).or_insert(s);
    }
    let mut out = ParsedMessage { remaining: text.to_string(), ..Default::default() };
    let mut seen: HashSet<&str> = HashSet::new();

    // The leading slash command.
    let lead = text.len() - text.trim_start().len();
    if let Some(after) = text.get(lead..).and_then(|t| t.strip_prefix('/')) {
        let token_len = after.find(char::is_whitespace).unwrap_or(after.len());
        let token = &after[..token_len];
        if let Some(skill) = by_name.get(token) {
            let args = after[token_len..].trim();
            let mut u = Utf16Cursor::new(text);
            let start = u.at(lead);
            let end = u.at(lead + 1 + token_len);
            out.invocations.push(Invocation {
                name: skill.name.clone(),
                kind: InvocationKind::Slash,
                arguments: args.to_string(),
                start,
                end,
            });
            out.remaining = args.to_string();
            seen.insert(skill.name.as_str());
        } else if is_name_shaped(token) {
            out.unknown.push(token.to_string());
        }
    }

    // Mentions.
    let ranges = code_ranges(text);
    let mut code = CodeCursor::new(&ranges);
    let mut u = Utf16Cursor::new(text);
    let bytes = text.as_bytes();
    let mut i = 0usize;
    while i < bytes.len() {
        if bytes[i] != b'$' || code.in_code(i) {
            i += 1;
            continue;
        }
        let prev_ok = match text[..i].chars().next_back() {
            None => true,
            Some(p) => !(p.is_alphanumeric() || p == '_' || p == '$' || p == '\\'),
        };
        let rest = &text[i + 1..];
        let run_len = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
        let name = rest[..run_len].trim_end_matches('-');
        if prev_ok && !name.is_empty() {
            if let Some(skill) = by_name.get(name) {
                if seen.insert(skill.name.as_str()) {
                    let start = u.at(i);
                    let end = u.at(i + 1 + name.len());
                    out.invocations.push(Invocation {
                        name: skill.name.clone(),
                        kind: InvocationKind::Mention,
                        arguments: String::new(),
                        start,
                        end,
                    });
                }
            }
        }
        i += 1 + run_len;
    }
    out
}

#[cfg(all(test, feature = "invocation"))]
mod tests {
    use super::*;
    use crate::activate::invoke::fixtures::{names, skill, skills};

    #[test]
    fn slash_with_arguments() {
        let p = parse_message("  /review src/a.rs  --fast\nsecond line ", &skills());
        assert_eq!(names(&p), vec![("review", InvocationKind::Slash)]);
        assert_eq!(p.invocations[0].arguments, "src/a.rs  --fast\nsecond line");
        assert_eq!((p.invocations[0].start, p.invocations[0].end), (2, 9));
        assert_eq!(p.remaining, "src/a.rs  --fast\nsecond line");
        assert!(p.unknown.is_empty());
    }

    #[test]
    fn slash_without_arguments() {
        let p = parse_message("/pdf", &skills());
        assert_eq!(names(&p), vec![("pdf", InvocationKind::Slash)]);
        assert_eq!(p.invocations[0].arguments, "");
        assert_eq!(p.remaining, "");
    }

    #[test]
    fn slash_longest_name_and_unknown() {
        let p = parse_message("/pdf-tools merge", &skills());
        assert_eq!(names(&p), vec![("pdf-tools", InvocationKind::Slash)]);
        let p = parse_message("/pdfx now", &skills());
        assert!(p.invocations.is_empty());
        assert_eq!(p.unknown, vec!["pdfx"]);
        assert_eq!(p.remaining, "/pdfx now");
    }

    #[test]
    fn slash_not_user_invocable_is_unknown() {
        let p = parse_message("/hidden x", &skills());
        assert!(p.invocations.is_empty());
        assert_eq!(p.unknown, vec!["hidden"]);
    }

    #[test]
    fn slash_only_at_start_and_paths_not_reported() {
        let p = parse_message("please /review this", &skills());
        assert!(p.invocations.is_empty() && p.unknown.is_empty());
        let p = parse_message("/usr/bin/env is broken", &skills());
        assert!(p.invocations.is_empty() && p.unknown.is_empty());
        let p = parse_message("/ review", &skills());
        assert!(p.invocations.is_empty() && p.unknown.is_empty());
    }

    #[test]
    fn mentions_delimited_and_longest() {
        let p = parse_message("use $pdf-tools, then $pdf. Not US$5 nor $pdf-toolsX nor $pdfx", &skills());
        assert_eq!(names(&p), vec![("pdf-tools", InvocationKind::Mention), ("pdf", InvocationKind::Mention)]);
        assert_eq!((p.invocations[0].start, p.invocations[0].end), (4, 14));
        assert_eq!(p.remaining, "use $pdf-tools, then $pdf. Not US$5 nor $pdf-toolsX nor $pdfx");
        assert!(p.unknown.is_empty());
    }

    #[test]
    fn mentions_at_start_end_and_trailing_hyphen() {
        let p = parse_message("$review", &skills());
        assert_eq!(names(&p), vec![("review", InvocationKind::Mention)]);
        let p = parse_message("try $pdf- ok", &skills());
        assert_eq!(names(&p), vec![("pdf", InvocationKind::Mention)]);
        let p = parse_message("x_$pdf $$pdf \\$pdf", &skills());
        assert!(p.invocations.is_empty());
    }

    #[test]
    fn mentions_ignored_in_code() {
        let text = "run `$pdf` and ``$review`` here\n```sh\necho $deploy\n```\n~~~\n$pdf-tools\n~~~\nbut $deploy";
        let p = parse_message(text, &skills());
        assert_eq!(names(&p), vec![("deploy", InvocationKind::Mention)]);
    }

    #[test]
    fn mentions_dedupe_and_skip_hidden() {
        let p = parse_message("$pdf and $pdf and $hidden", &skills());
        assert_eq!(names(&p), vec![("pdf", InvocationKind::Mention)]);
    }

    #[test]
    fn slash_plus_mentions() {
        let p = parse_message("/review check with $pdf and $review", &skills());
        assert_eq!(names(&p), vec![("review", InvocationKind::Slash), ("pdf", InvocationKind::Mention)]);
        assert_eq!(p.remaining, "check with $pdf and $review");
    }

    #[test]
    fn utf16_offsets() {
        // "é" is one UTF-16 unit (two bytes), "😀" two units (four bytes).
        let p = parse_message("é😀 $pdf", &skills());
        assert_eq!((p.invocations[0].start, p.invocations[0].end), (4, 8));
        let p = parse_message("\u{3000}/pdf x", &skills());
        assert_eq!((p.invocations[0].start, p.invocations[0].end), (1, 5));
    }

    #[test]
    fn first_skill_of_a_name_wins() {
        let mut s = skills();
        let mut dup = skill("pdf", false);
        dup.description = "other".into();
        s.insert(0, dup);
        // The non-invocable copy does not shadow: only user-invocable skills are considered.
        assert_eq!(names(&parse_message("$pdf", &s)), vec![("pdf", InvocationKind::Mention)]);
    }

    #[test]
    fn big_message_is_fine() {
        let text = "$".repeat(1 << 20) + &"a".repeat(1 << 20) + &"`".repeat(1000);
        let p = parse_message(&text, &skills());
        assert!(p.invocations.is_empty());
    }
}
