//! Where a skill's body asks for commands: Claude Code's `` !`command` `` (the `!` at the start of
//! a line or after whitespace, outside code) and the fenced block opened with ```` ```! ````.
//!
//! Only hosts that give a [`super::CommandRunner`] need this, so a host may keep the recognition
//! elsewhere: the wasm package's core module leaves it out (the `commands` feature) and asks the
//! package's second module, which runs [`find_commands`] there, through [`set_finder`] and the
//! spans' wire form ([`encode`], [`decode`]). Natively the feature is on and nothing is installed.

use std::ops::Range;
use std::sync::OnceLock;

/// A command found in a body: the byte range it replaces and the command's own bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpan {
    /// Where the `!` (or the block's opening fence) starts.
    pub start: usize,
    /// Just past the closing backtick (or the block's closing fence line).
    pub end: usize,
    /// The command (between the backticks, or the block's lines without the fences), within
    /// `start..end`.
    pub command: Range<usize>,
}

/// What finds the commands of a body: the spans, in order and disjoint, or why there are none.
pub type Finder = fn(&str) -> Result<Vec<CommandSpan>, String>;

/// The finder a host installed with [`set_finder`].
static FINDER: OnceLock<Finder> = OnceLock::new();

/// Installs the finder used instead of the built-in one ([`find_commands`], with the `commands`
/// feature). The first installation wins; returns whether this one was taken.
pub fn set_finder(finder: Finder) -> bool {
    FINDER.set(finder).is_ok()
}

/// The commands of `body`: the installed finder's ([`set_finder`]), else [`find_commands`] (the
/// `commands` feature), else why none can be found.
pub fn find(body: &str) -> Result<Vec<CommandSpan>, String> {
    match FINDER.get() {
        Some(finder) => finder(body),
        None => builtin(body),
    }
}

#[cfg(feature = "commands")]
fn builtin(body: &str) -> Result<Vec<CommandSpan>, String> {
    Ok(find_commands(body))
}

#[cfg(not(feature = "commands"))]
fn builtin(_body: &str) -> Result<Vec<CommandSpan>, String> {
    Err("no command finder is installed".to_string())
}

/// Numbers per span in the wire form (after their count).
const WIRE_WORDS: usize = 4;

/// The wire form of `spans`: their number, then four numbers each (start, end, the command's
/// start and end). A span past `u32::MAX` cannot be written; the caller's body is smaller than
/// that (a SKILL.md is capped far below).
pub fn encode(spans: &[CommandSpan]) -> Vec<u32> {
    let word = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let each = spans.iter().flat_map(|s| [word(s.start), word(s.end), word(s.command.start), word(s.command.end)]);
    std::iter::once(word(spans.len())).chain(each).collect()
}

/// The spans of `body` from their wire form ([`encode`]), checked: as many as it says, each
/// within the body, on character boundaries, its command within it and not empty, the spans in
/// order and disjoint. Anything else is damaged, and says how.
pub fn decode(body: &str, wire: &[u32]) -> Result<Vec<CommandSpan>, String> {
    let Some((&count, spans)) = wire.split_first() else { return Err("the answer is empty".to_string()) };
    if spans.len() / WIRE_WORDS != count as usize || spans.len() % WIRE_WORDS != 0 {
        return Err(format!("{} numbers are not {count} spans of {WIRE_WORDS}", spans.len()));
    }
    let mut out = Vec::with_capacity(count as usize);
    let mut last = 0usize;
    for w in spans.chunks_exact(WIRE_WORDS) {
        let &[start, end, from, to] = w else { continue };
        let [start, end, from, to] = [start, end, from, to].map(|n| n as usize);
        let ordered = last <= start && start <= from && from < to && to <= end;
        if !ordered || body.get(start..end).is_none() || body.get(from..to).is_none() {
            return Err(format!("the span {start}..{end} (command {from}..{to}) is not one of this body"));
        }
        out.push(CommandSpan { start, end, command: from..to });
        last = end;
    }
    Ok(out)
}

/// The fence a line opens or closes: its character, its length and what follows it.
#[cfg(feature = "commands")]
fn fence(line: &str) -> Option<(u8, usize, &str)> {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 {
        return None;
    }
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|b| *b == c).count();
    (n >= 3).then(|| (c, n, t.get(n..).unwrap_or("")))
}

/// The `` !`command` `` spans of one line outside code blocks: `!` at the start of the line or
/// after whitespace, a single-backtick span, a command that is not blank.
#[cfg(feature = "commands")]
fn inline_commands(line: &str, offset: usize, out: &mut Vec<CommandSpan>) {
    let b = line.as_bytes();
    // A `!` inside an inline code span (`` !`x` ``, the syntax shown) is text.
    let code = crate::text::code_ranges(line);
    // The ranges are sorted and disjoint: the last one starting at or before `i`, if any, holds it.
    let in_code = |i: usize| {
        let at = code.partition_point(|(a, _)| *a <= i);
        at > 0 && code.get(at - 1).is_some_and(|(_, z)| i < *z)
    };
    let mut i = 0;
    while i + 1 < b.len() {
        let starts = b.get(i) == Some(&b'!')
            && !in_code(i)
            && b.get(i + 1) == Some(&b'`')
            && b.get(i + 2) != Some(&b'`')
            && (i == 0 || b.get(i - 1).is_some_and(|c| c.is_ascii_whitespace()));
        if starts {
            if let Some(close) = line.get(i + 2..).and_then(|rest| rest.find('`')) {
                let command = line.get(i + 2..i + 2 + close).unwrap_or("");
                if !command.trim().is_empty() {
                    let from = offset + i + 2;
                    out.push(CommandSpan {
                        start: offset + i,
                        end: offset + i + 3 + close,
                        command: from..from + close,
                    });
                }
                i += 3 + close;
                continue;
            }
        }
        i += 1;
    }
}

/// Every command of `body`, in order: inline `` !`command` `` outside code blocks and inline code,
/// and ```` ```! ```` blocks (their lines, the fences left out). Linear in the body.
#[cfg(feature = "commands")]
pub fn find_commands(body: &str) -> Vec<CommandSpan> {
    let mut out = Vec::new();
    // (fence char, fence length, where the block starts, whether it is a command block)
    let mut open: Option<(u8, usize, usize, bool)> = None;
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let text = line.trim_end_matches(['\n', '\r']);
        match (open, fence(text)) {
            (None, Some((c, n, info))) => open = Some((c, n, start, c == b'`' && info.trim() == "!")),
            (Some((c, n, from, command)), Some((c2, n2, rest))) if c2 == c && n2 >= n && rest.trim().is_empty() => {
                if command {
                    // The block's lines: from the line after the opening fence to the closing
                    // fence's line, without the line break (and `\r`) before it.
                    let inner_from = body.get(from..start).and_then(|b| b.find('\n')).map(|n| from + n + 1);
                    let inner = inner_from.and_then(|a| body.get(a..start).map(|s| (a, s)));
                    if let Some((a, s)) = inner {
                        let s = s.strip_suffix('\n').unwrap_or(s);
                        let s = s.strip_suffix('\r').unwrap_or(s);
                        if !s.trim().is_empty() {
                            out.push(CommandSpan { start: from, end: start + text.len(), command: a..a + s.len() });
                        }
                    }
                }
                open = None;
            }
            (None, None) if text.contains("!`") => inline_commands(text, start, &mut out),
            _ => {}
        }
    }
    out
}

#[cfg(all(test, feature = "commands"))]
mod tests {
    use super::*;

    fn commands(body: &str) -> Vec<&str> {
        find_commands(body).into_iter().filter_map(|s| body.get(s.command)).collect()
    }

    #[test]
    fn commands_are_recognised_as_claude_code_defines_them() {
        assert_eq!(commands("Branch: !`git branch --show-current`\n!`date`"), ["git branch --show-current", "date"]);
        assert_eq!(commands("KEY=!`cmd` and a!`b` stay"), Vec::<&str>::new());
        assert_eq!(commands("```\n!`inside a fence`\n```\n"), Vec::<&str>::new());
        assert_eq!(commands("``!`shown` ``"), Vec::<&str>::new());
        assert_eq!(commands("!`` ``  !` ` wow!"), Vec::<&str>::new());
        assert_eq!(commands("```!\necho a\necho b\n```\nafter !`x`"), ["echo a\necho b", "x"]);
        assert_eq!(commands("```!\r\necho a\r\n```\r\n"), ["echo a"]);
        let body = "a\n```!\necho hi\n```\nb";
        let s = &find_commands(body)[0];
        assert_eq!(body.get(s.start..s.end), Some("```!\necho hi\n```"));
        // An unclosed span or block is text.
        assert_eq!(commands("!`open\n```!\nnever closed"), Vec::<&str>::new());
    }

    #[test]
    fn recognition_is_linear_on_hostile_lines() {
        // One long line of code spans that show the syntax, each `!` inside one; one of commands.
        let spans = "`` !`a` `` ".repeat(100_000);
        assert!(find_commands(&spans).is_empty());
        let many = " !`a`".repeat(100_000);
        assert_eq!(find_commands(&many).len(), 100_000);
    }

    #[test]
    fn the_wire_form_gives_the_same_spans_back() {
        for body in ["é !`ls ü` x\n```!\nécho\n```\n!`b`", "no commands", "", "```!\n\u{1F600}\n```"] {
            let spans = find_commands(body);
            assert_eq!(decode(body, &encode(&spans)), Ok(spans), "{body:?}");
        }
    }

    #[test]
    fn damaged_wire_is_refused() {
        let body = "é !`ls` and !`pwd`";
        let good = encode(&find_commands(body));
        assert_eq!(good.len(), 9);
        let (first, second) = (&good[1..5], &good[5..]);
        let damaged: [(&str, Vec<u32>); 10] = [
            ("empty", vec![]),
            ("cut short", good[..8].to_vec()),
            ("more than it says", [&[1], first, second].concat()),
            ("fewer than it says", [&[3], first, second].concat()),
            ("past the end", vec![1, 0, 99, 1, 2]),
            ("inside a character", vec![1, 1, 6, 3, 5]),
            ("an empty command", vec![1, 3, 8, 5, 5]),
            ("a command outside its span", vec![1, 3, 8, 2, 7]),
            ("out of order", [&[2], second, first].concat()),
            ("overlapping", [&[2], first, first].concat()),
        ];
        for (what, wire) in damaged {
            assert!(decode(body, &wire).is_err(), "{what}");
        }
    }
}
