//! User invocation: `/skill-name args` and `$skill-name` mentions in a user's message, argument
//! substitution in a skill's body, and autocomplete for a partial `/pd`.
//!
//! Only skills with `user_invocable: true` can be invoked or mentioned; everything here runs in
//! linear (or near-linear) time in the size of its input and never panics.
//!
//! The conventions follow Claude Code's skills where it has one (it is the best-known host that
//! substitutes arguments into SKILL.md bodies), and say so where they deliberately differ:
//! - `$ARGUMENTS` is the whole argument string as typed (trimmed), `$ARGUMENTS[N]` and `$N` are
//!   the shell-split arguments, **0-based** (`$0` is the first argument, `$1` the second), as in
//!   Claude Code's skills; [`SubstituteOptions::one_based`] switches `$N` to the older
//!   slash-command convention (`$1` is the first).
//! - When the body uses no argument placeholder at all and arguments were given, they are
//!   appended as `\n\nARGUMENTS: <args>` (Claude Code does this for bodies without `$ARGUMENTS`).
//! - Unlike Claude Code, nothing is substituted inside fenced code blocks or inline code spans,
//!   so documentation examples in a body are left as written, and `$1.50`, `$1M`, `$1,000` are
//!   read as amounts of money, not placeholders.

use crate::model::Skill;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

#[cfg(feature = "tsify")]
use tsify::Tsify;

// ---------------------------------------------------------------------------------------------
// Code regions (fenced blocks and inline code spans)
// ---------------------------------------------------------------------------------------------

/// Byte ranges `[start, end)` of `text` that are code: fenced code blocks (``` or ~~~, three or
/// more, indented up to three spaces, with or without an info string; an unclosed fence runs to
/// the end, as in CommonMark) and inline code spans (a run of N backticks closed by the next run
/// of exactly N backticks within the same paragraph; a backslash before the opening run escapes
/// its first backtick). Sorted and disjoint. Indented code blocks, and fences inside block quotes
/// or list items, are not recognised.
pub fn code_ranges(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let len = bytes.len();
    let mut out = Vec::new();
    let mut pos = 0usize;
    // (fence char, fence length, start of the opening line)
    let mut fence: Option<(u8, usize, usize)> = None;
    let mut prose_start = 0usize;
    while pos < len {
        let line_end = bytes[pos..].iter().position(|&b| b == b'\n').map_or(len, |i| pos + i);
        let next = if line_end < len { line_end + 1 } else { len };
        let line = &bytes[pos..line_end];
        match fence {
            Some((ch, n, start)) => {
                if is_closing_fence(line, ch, n) {
                    out.push((start, next));
                    fence = None;
                    prose_start = next;
                }
            }
            None => {
                if let Some((ch, n)) = opening_fence(line) {
                    inline_spans(bytes, prose_start, pos, &mut out);
                    fence = Some((ch, n, pos));
                } else if line.iter().all(|b| b.is_ascii_whitespace()) {
                    inline_spans(bytes, prose_start, pos, &mut out);
                    prose_start = next;
                }
            }
        }
        pos = next;
    }
    match fence {
        Some((_, _, start)) => out.push((start, len)),
        None => inline_spans(bytes, prose_start, len, &mut out),
    }
    out
}

fn fence_indent(line: &[u8]) -> Option<usize> {
    let spaces = line.iter().take_while(|&&b| b == b' ').count();
    (spaces <= 3).then_some(spaces)
}

fn opening_fence(line: &[u8]) -> Option<(u8, usize)> {
    let i = fence_indent(line)?;
    let ch = *line.get(i)?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let n = line[i..].iter().take_while(|&&b| b == ch).count();
    if n < 3 {
        return None;
    }
    // A backtick fence's info string may not contain a backtick (that is an inline span).
    if ch == b'`' && line[i + n..].contains(&b'`') {
        return None;
    }
    Some((ch, n))
}

fn is_closing_fence(line: &[u8], ch: u8, n: usize) -> bool {
    let Some(i) = fence_indent(line) else { return false };
    let run = line[i..].iter().take_while(|&&b| b == ch).count();
    run >= n && line[i + run..].iter().all(|b| b.is_ascii_whitespace())
}

/// Inline code spans within `[a, b)`, appended to `out` in order.
fn inline_spans(bytes: &[u8], a: usize, b: usize, out: &mut Vec<(usize, usize)>) {
    if a >= b {
        return;
    }
    // Backtick runs: (start, length, first backtick escaped by a backslash).
    let mut runs: Vec<(usize, usize, bool)> = Vec::new();
    let mut i = a;
    while i < b {
        if bytes[i] == b'`' {
            let start = i;
            while i < b && bytes[i] == b'`' {
                i += 1;
            }
            let slashes = bytes[a..start].iter().rev().take_while(|&&c| c == b'\\').count();
            runs.push((start, i - start, slashes % 2 == 1));
        } else {
            i += 1;
        }
    }
    if runs.len() < 2 {
        return;
    }
    // For each length, the indices of the runs of that length, and a cursor into them.
    let mut by_len: HashMap<usize, (Vec<usize>, usize)> = HashMap::new();
    for (idx, r) in runs.iter().enumerate() {
        by_len.entry(r.1).or_default().0.push(idx);
    }
    let mut idx = 0usize;
    while idx < runs.len() {
        let (start, n, escaped) = runs[idx];
        let (open_start, open_len) = if escaped { (start + 1, n - 1) } else { (start, n) };
        if open_len == 0 {
            idx += 1;
            continue;
        }
        let close = by_len.get_mut(&open_len).and_then(|(list, cur)| {
            while *cur < list.len() && list[*cur] <= idx {
                *cur += 1;
            }
            list.get(*cur).copied()
        });
        match close {
            Some(j) => {
                let (cs, cl, _) = runs[j];
                out.push((open_start, cs + cl));
                idx = j + 1;
            }
            None => idx += 1,
        }
    }
}

/// Walks increasing byte positions and tells whether each is inside one of `ranges`.
struct CodeCursor<'a> {
    ranges: &'a [(usize, usize)],
    i: usize,
}

impl<'a> CodeCursor<'a> {
    fn new(ranges: &'a [(usize, usize)]) -> Self {
        CodeCursor { ranges, i: 0 }
    }
    /// `pos` must not decrease between calls.
    fn in_code(&mut self, pos: usize) -> bool {
        while let Some(&(_, end)) = self.ranges.get(self.i) {
            if end <= pos {
                self.i += 1;
            } else {
                break;
            }
        }
        matches!(self.ranges.get(self.i), Some(&(start, _)) if start <= pos)
    }
}

/// Converts increasing byte offsets into UTF-16 code unit offsets.
struct Utf16Cursor<'a> {
    text: &'a str,
    byte: usize,
    units: usize,
}

impl<'a> Utf16Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Utf16Cursor { text, byte: 0, units: 0 }
    }
    fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            // Not expected; recount from the start rather than fail.
            self.byte = 0;
            self.units = 0;
        }
        let end = byte.min(self.text.len());
        if let Some(slice) = self.text.get(self.byte..end) {
            self.units += slice.chars().map(char::len_utf16).sum::<usize>();
            self.byte = end;
        }
        self.units
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing a message
// ---------------------------------------------------------------------------------------------

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
    pub name: String,
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

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Characters a `/name` token may consist of for it to be reported as an unknown skill
/// (`/usr/bin` or `/?` are not).
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
pub fn parse_message(text: &str, skills: &[Skill]) -> ParsedMessage {
    let mut by_name: HashMap<&str, &Skill> = HashMap::new();
    for s in skills.iter().filter(|s| s.user_invocable) {
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

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

/// Splits an argument string the way a shell would, minus expansion: whitespace separates,
/// `"double"` and `'single'` quotes group (and are removed; `""` is an empty argument), quoted
/// and unquoted parts next to each other join (`a"b c"` is `ab c`). A backslash escapes a quote,
/// a backslash or whitespace after it (outside single quotes); before anything else it is kept,
/// so `C:\dir\file` stays as typed. An unclosed quote runs to the end.
pub fn split_arguments(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_arg = false;
    let mut quote: Option<char> = None;
    let mut chars = args.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some('\'') => {
                if c == '\'' {
                    quote = None;
                } else {
                    cur.push(c);
                }
            }
            Some(q) => {
                if c == q {
                    quote = None;
                } else if c == '\\' && matches!(chars.peek(), Some('"') | Some('\\')) {
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                } else {
                    cur.push(c);
                }
            }
            None => {
                if c.is_whitespace() {
                    if in_arg {
                        out.push(std::mem::take(&mut cur));
                        in_arg = false;
                    }
                } else if c == '"' || c == '\'' {
                    quote = Some(c);
                    in_arg = true;
                } else if c == '\\' && chars.peek().is_some_and(|n| matches!(n, '"' | '\'' | '\\') || n.is_whitespace())
                {
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                    in_arg = true;
                } else {
                    cur.push(c);
                    in_arg = true;
                }
            }
        }
    }
    if in_arg {
        out.push(cur);
    }
    out
}

/// One named argument: `$name` / `${name}` stands for the argument at `index` (with `rest`, for a
/// hint like `<files...>`, for that argument and every one after it, joined by spaces).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ArgumentName {
    pub name: String,
    pub index: usize,
    pub rest: bool,
}

/// Argument slots read from a hint or an `arguments` list; the rest are ignored.
const MAX_NAMED_ARGUMENTS: usize = 64;

fn valid_arg_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && name != "ARGUMENTS"
}

/// The named arguments of an `argument-hint`: each `[...]` or `<...>` group is one positional
/// slot, in order; the group names its slot when its content is a plain identifier (letters,
/// digits, `_`, `-`, starting with a letter or `_`; a trailing `...` makes it take the rest).
/// Groups like `[--force]` or `<create|update>` hold a slot without naming it. Text outside
/// brackets names nothing. `"[file] [mode]"` and `"<file> <mode>"` give `file` = 0, `mode` = 1.
pub fn argument_names(hint: &str) -> Vec<ArgumentName> {
    let mut out = Vec::new();
    let mut index = 0usize;
    let mut rest = hint;
    while let Some(open) = rest.find(['[', '<']).filter(|_| index < MAX_NAMED_ARGUMENTS) {
        let close_ch = if rest.as_bytes()[open] == b'[' { ']' } else { '>' };
        let after = &rest[open + 1..];
        let Some(close) = after.find(close_ch) else { break };
        let content = after[..close].trim();
        let (name, is_rest) = match content.strip_suffix("...").or_else(|| content.strip_suffix('…')) {
            Some(n) => (n.trim(), true),
            None => (content, false),
        };
        if valid_arg_name(name) && !out.iter().any(|a: &ArgumentName| a.name == name) {
            out.push(ArgumentName { name: name.to_string(), index, rest: is_rest });
        }
        index += 1;
        rest = &after[close + 1..];
    }
    out
}

/// The named arguments of a skill: its `arguments` frontmatter list (Claude Code's field: a YAML
/// list of names, or one string of space-separated names), else its `argument-hint`.
pub fn skill_argument_names(skill: &Skill) -> Vec<ArgumentName> {
    let declared: Option<Vec<String>> = match skill.extra.get("arguments") {
        Some(serde_json::Value::Array(items)) => {
            Some(items.iter().filter_map(|v| v.as_str().map(|s| s.trim().to_string())).collect())
        }
        Some(serde_json::Value::String(s)) => Some(s.split_whitespace().map(str::to_string).collect()),
        _ => None,
    };
    match declared {
        Some(names) if !names.is_empty() => {
            let mut out: Vec<ArgumentName> = Vec::new();
            for (index, n) in names.iter().enumerate().take(MAX_NAMED_ARGUMENTS) {
                if valid_arg_name(n) && !out.iter().any(|a| &a.name == n) {
                    out.push(ArgumentName { name: n.clone(), index, rest: false });
                }
            }
            out
        }
        _ => skill.argument_hint.as_deref().map(argument_names).unwrap_or_default(),
    }
}

/// How [`substitute_arguments_with`] substitutes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct SubstituteOptions {
    /// `$1` is the first argument (the old slash-command convention) instead of `$0` (Claude
    /// Code's skills). `$ARGUMENTS[N]` is 0-based either way. Default false.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub one_based: bool,
    /// Append `\n\nARGUMENTS: <args>` when the body uses no argument placeholder and the
    /// arguments are not empty. Default true.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub append_if_unused: bool,
    /// Stop substituting (leave the remaining placeholders as written) once the output reaches
    /// this many bytes, so a large argument string times many placeholders stays bounded.
    /// Default 16 MiB.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub max_output_bytes: usize,
}

impl Default for SubstituteOptions {
    fn default() -> Self {
        SubstituteOptions { one_based: false, append_if_unused: true, max_output_bytes: 16 << 20 }
    }
}

/// Substitutes a user's arguments into a skill body, with the default options and the named
/// arguments of `argument_hint` (see [`argument_names`]).
///
/// Placeholders, outside fenced code blocks and inline code spans only:
/// - `$ARGUMENTS` / `${ARGUMENTS}`: the whole argument string, trimmed, quotes as typed.
/// - `$ARGUMENTS[N]`: the Nth argument of [`split_arguments`], 0-based.
/// - `$0` … `$9` / `${0}` … `${9}`: the same, 0-based (see [`SubstituteOptions::one_based`]). A
///   digit followed by a letter, digit or `_`, or by `.`/`,` and a digit, is not a placeholder:
///   `$10`, `$1M`, `$1.50`, `$1,000` stay as written.
/// - `$name` / `${name}` for each named argument: the positional argument at its index. `$name`
///   must not be followed by a letter, digit or `_` (`$file` is not in `$filename`); the longest
///   name wins (`$file-path` is `file-path` when that is a name, else `$file` then `-path`).
/// - An argument that was not given is replaced by the empty string.
/// - Escapes: `\$` or `$$` before a placeholder writes it literally (`\$ARGUMENTS` and
///   `$$ARGUMENTS` both give `$ARGUMENTS`). Elsewhere `\$` and `$$` are left alone (a shell's
///   `$$`, a price in `\$5`).
///
/// If no placeholder was substituted and the arguments are not blank, `\n\nARGUMENTS: <args>`
/// is appended, so the arguments are never lost.
pub fn substitute_arguments(body: &str, arguments: &str, argument_hint: Option<&str>) -> String {
    let names = argument_hint.map(argument_names).unwrap_or_default();
    substitute_arguments_with(body, arguments, &names, &SubstituteOptions::default())
}

/// [`substitute_arguments`] with explicit named arguments (e.g. [`skill_argument_names`]) and
/// options.
pub fn substitute_arguments_with(
    body: &str,
    arguments: &str,
    names: &[ArgumentName],
    opts: &SubstituteOptions,
) -> String {
    let whole = arguments.trim();
    let positional = split_arguments(whole);
    let get = |i: usize| positional.get(i).map(String::as_str).unwrap_or("");
    let ranges = code_ranges(body);
    let mut code = CodeCursor::new(&ranges);
    let bytes = body.as_bytes();
    let mut out = String::with_capacity(body.len() + whole.len());
    let mut used = false;
    let mut copied = 0usize; // body[..copied] is in `out` already
    let mut i = 0usize;
    while i < bytes.len() {
        let b = bytes[i];
        if (b != b'$' && b != b'\\') || code.in_code(i) {
            i += 1;
            continue;
        }
        // Escapes: `\$placeholder` and `$$placeholder`.
        let escaped = (b == b'\\' || (b == b'$' && bytes.get(i + 1) == Some(&b'$')))
            && bytes.get(i + 1) == Some(&b'$')
            && placeholder_at(body, i + 1, names).is_some();
        if escaped {
            out.push_str(&body[copied..i]);
            let (_, len) = placeholder_at(body, i + 1, names).unwrap_or((Placeholder::All, 1));
            out.push_str(&body[i + 1..i + 1 + len]);
            i += 1 + len;
            copied = i;
            continue;
        }
        if b != b'$' {
            i += 1;
            continue;
        }
        let Some((ph, len)) = placeholder_at(body, i, names) else {
            i += 1;
            continue;
        };
        if out.len() >= opts.max_output_bytes {
            i += len;
            continue;
        }
        let value: String = match ph {
            Placeholder::All => whole.to_string(),
            Placeholder::Index(n) => get(n).to_string(),
            Placeholder::Digit(d) => {
                if opts.one_based {
                    if d == 0 {
                        // `$0` has no meaning one-based; leave it.
                        i += len;
                        continue;
                    }
                    get(d - 1).to_string()
                } else {
                    get(d).to_string()
                }
            }
            Placeholder::Named(k) => match names.get(k) {
                Some(a) if a.rest => positional.get(a.index..).map(|r| r.join(" ")).unwrap_or_default(),
                Some(a) => get(a.index).to_string(),
                None => String::new(),
            },
        };
        out.push_str(&body[copied..i]);
        out.push_str(&value);
        used = true;
        i += len;
        copied = i;
    }
    out.push_str(&body[copied..]);
    if !used && opts.append_if_unused && !whole.is_empty() {
        out.push_str("\n\nARGUMENTS: ");
        out.push_str(whole);
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placeholder {
    All,
    Index(usize),
    Digit(usize),
    /// Index into the names slice.
    Named(usize),
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The placeholder starting at the `$` at byte `i`, and its length in bytes.
fn placeholder_at(body: &str, i: usize, names: &[ArgumentName]) -> Option<(Placeholder, usize)> {
    let bytes = body.as_bytes();
    if bytes.get(i) != Some(&b'$') {
        return None;
    }
    let rest = body.get(i + 1..)?;
    let rb = rest.as_bytes();
    // `${...}`
    if let Some(inner) = rest.strip_prefix('{') {
        // Only a short key is looked for, so a body full of `${` stays linear.
        let close = inner.bytes().take(65).position(|b| b == b'}')?;
        let key = &inner[..close];
        let len = 1 + 1 + close + 1;
        if key == "ARGUMENTS" {
            return Some((Placeholder::All, len));
        }
        if key.len() == 1 && key.as_bytes()[0].is_ascii_digit() {
            return Some((Placeholder::Digit((key.as_bytes()[0] - b'0') as usize), len));
        }
        return names.iter().position(|a| a.name == key).map(|k| (Placeholder::Named(k), len));
    }
    if let Some(after) = rest.strip_prefix("ARGUMENTS") {
        let ab = after.as_bytes();
        if ab.first() == Some(&b'[') {
            let digits = ab[1..].iter().take_while(|b| b.is_ascii_digit()).count();
            if (1..=6).contains(&digits) && ab.get(1 + digits) == Some(&b']') {
                let n: usize = after[1..1 + digits].parse().ok()?;
                return Some((Placeholder::Index(n), 1 + 9 + 1 + digits + 1));
            }
        }
        if !ab.first().is_some_and(|&b| is_ident_byte(b)) {
            return Some((Placeholder::All, 1 + 9));
        }
    }
    if let Some(&d) = rb.first() {
        if d.is_ascii_digit() {
            let next = rb.get(1).copied();
            let money = match next {
                Some(n) if is_ident_byte(n) => true,
                Some(b'.') | Some(b',') => rb.get(2).is_some_and(u8::is_ascii_digit),
                _ => false,
            };
            return (!money).then_some((Placeholder::Digit((d - b'0') as usize), 2));
        }
    }
    // Named: the longest name that the text continues with, followed by a non-identifier byte.
    let mut best: Option<(usize, usize)> = None;
    for (k, a) in names.iter().enumerate() {
        if rest.starts_with(a.name.as_str())
            && !rb.get(a.name.len()).is_some_and(|&b| is_ident_byte(b))
            && best.is_none_or(|(_, l)| a.name.len() > l)
        {
            best = Some((k, a.name.len()));
        }
    }
    best.map(|(k, l)| (Placeholder::Named(k), 1 + l))
}

// ---------------------------------------------------------------------------------------------
// Autocomplete
// ---------------------------------------------------------------------------------------------

/// How a suggestion matched what was typed, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum MatchKind {
    /// The name, exactly.
    Exact,
    /// The name starts with it (also every name for an empty partial).
    Prefix,
    /// A later word of the name (after `-`, `_`, `:` or `.`) starts with it.
    Word,
    /// Its characters appear in the name in order.
    Fuzzy,
}

/// One autocomplete entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub name: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub argument_hint: Option<String>,
    pub match_kind: MatchKind,
    /// Higher is better, 0..=1000: exact 1000; prefix 900 and word 700 minus the characters the
    /// name has beyond what was typed (at most 99); fuzzy 500 minus the gaps between the matched
    /// characters (at least 1). An empty partial scores every name 0.
    pub score: u32,
}

/// Names longer than this are only considered for exact, prefix and word matches.
const FUZZY_MAX_NAME: usize = 256;

/// Suggestions for a partial skill name as typed (`/pd`, `$pd` or `pd`; one leading `/` or `$`
/// and surrounding whitespace are ignored, matching is case-insensitive). Only user-invocable
/// skills, one per name. Ordered by kind (exact, prefix, word, fuzzy), then score, then shorter
/// names, then alphabetically. An empty partial lists every skill alphabetically. `limit` 0
/// means no limit.
pub fn autocomplete(partial: &str, skills: &[Skill], limit: usize) -> Vec<Suggestion> {
    let p = partial.trim();
    let p = p.strip_prefix('/').or_else(|| p.strip_prefix('$')).unwrap_or(p);
    let q: Vec<char> = p.to_lowercase().chars().collect();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out: Vec<Suggestion> = Vec::new();
    for s in skills.iter().filter(|s| s.user_invocable) {
        if !seen.insert(s.name.as_str()) {
            continue;
        }
        let Some((kind, score)) = rank(&q, &s.name) else { continue };
        out.push(Suggestion {
            name: s.name.clone(),
            description: s.description.clone(),
            argument_hint: s.argument_hint.clone(),
            match_kind: kind,
            score,
        });
    }
    if q.is_empty() {
        out.sort_by(|a, b| a.name.cmp(&b.name));
    } else {
        out.sort_by(|a, b| {
            a.match_kind
                .cmp(&b.match_kind)
                .then(b.score.cmp(&a.score))
                .then(a.name.chars().count().cmp(&b.name.chars().count()))
                .then(a.name.cmp(&b.name))
        });
    }
    if limit > 0 {
        out.truncate(limit);
    }
    out
}

fn rank(q: &[char], name: &str) -> Option<(MatchKind, u32)> {
    if q.is_empty() {
        return Some((MatchKind::Prefix, 0));
    }
    let n: Vec<char> = name.to_lowercase().chars().collect();
    let extra = n.len().saturating_sub(q.len()).min(99) as u32;
    if n == q {
        return Some((MatchKind::Exact, 1000));
    }
    if n.starts_with(q) {
        return Some((MatchKind::Prefix, 900 - extra));
    }
    let word_start = |i: usize| i > 0 && matches!(n.get(i - 1), Some('-' | '_' | ':' | '.'));
    if (1..n.len()).any(|i| word_start(i) && n[i..].starts_with(q)) {
        return Some((MatchKind::Word, 700 - extra));
    }
    if n.len() > FUZZY_MAX_NAME {
        return None;
    }
    // Fuzzy: the smallest number of skipped characters between the first and last matched one,
    // plus the position of the first match, over every starting point (greedy from each).
    let mut best: Option<usize> = None;
    for start in (0..n.len()).filter(|&i| n[i] == q[0]) {
        let mut qi = 1usize;
        let mut last = start;
        for (i, c) in n.iter().enumerate().skip(start + 1) {
            if qi == q.len() {
                break;
            }
            if *c == q[qi] {
                qi += 1;
                last = i;
            }
        }
        if qi == q.len() {
            let gaps = (last - start + 1 - q.len()) + start;
            best = Some(best.map_or(gaps, |b: usize| b.min(gaps)));
        }
    }
    best.map(|g| (MatchKind::Fuzzy, 500u32.saturating_sub(g.min(499) as u32).max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str, invocable: bool) -> Skill {
        Skill {
            name: name.into(),
            description: format!("{name} skill"),
            user_invocable: invocable,
            ..Default::default()
        }
    }

    fn skills() -> Vec<Skill> {
        vec![
            skill("pdf", true),
            skill("pdf-tools", true),
            skill("review", true),
            skill("hidden", false),
            skill("deploy", true),
        ]
    }

    fn names(p: &ParsedMessage) -> Vec<(&str, InvocationKind)> {
        p.invocations.iter().map(|i| (i.name.as_str(), i.kind)).collect()
    }

    // ---- code ranges

    #[test]
    fn code_ranges_fences_and_spans() {
        let t = "a `b` c\n```js\nx\n```\nd ``e ` f`` g";
        let r = code_ranges(t);
        let parts: Vec<&str> = r.iter().map(|&(a, b)| &t[a..b]).collect();
        assert_eq!(parts, vec!["`b`", "```js\nx\n```\n", "``e ` f``"]);
    }

    #[test]
    fn code_ranges_tilde_indented_unclosed_and_longer_close() {
        let t = "x\n   ~~~~ info\n~~~\nstill\n~~~~~\ny";
        let r = code_ranges(t);
        assert_eq!(r.len(), 1);
        assert_eq!(&t[r[0].0..r[0].1], "   ~~~~ info\n~~~\nstill\n~~~~~\n");
        let t = "x\n```\nnever closed $pdf";
        let r = code_ranges(t);
        assert_eq!(&t[r[0].0..r[0].1], "```\nnever closed $pdf");
        // Four spaces: not a fence.
        assert!(code_ranges("    ```\nx").is_empty());
    }

    #[test]
    fn code_ranges_unmatched_and_escaped_backticks() {
        assert!(code_ranges("a `b c").is_empty());
        assert!(code_ranges("a ``b` c").is_empty());
        // Escaped opening backtick: the span starts at the next one.
        let t = r"\``x`";
        let r = code_ranges(t);
        assert_eq!(r.iter().map(|&(a, b)| &t[a..b]).collect::<Vec<_>>(), vec!["`x`"]);
        // A blank line ends the paragraph: no span across it.
        assert!(code_ranges("a `b\n\nc` d").is_empty());
        assert_eq!(code_ranges("a `b\nc` d").len(), 1);
    }

    #[test]
    fn code_ranges_many_backticks_is_linear() {
        let t: String = (1..2000).map(|n| "`".repeat(n % 50 + 1) + " x ").collect();
        let _ = code_ranges(&t);
    }

    // ---- parse_message

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

    // ---- split_arguments

    #[test]
    fn split_quotes_and_escapes() {
        assert_eq!(split_arguments(r#"a "b c" 'd e' f"#), vec!["a", "b c", "d e", "f"]);
        assert_eq!(split_arguments(r#"  x""  a"b c"d  "#), vec!["x", "ab cd"]);
        assert_eq!(split_arguments(r#""" ''"#), vec!["", ""]);
        assert_eq!(split_arguments(r#"say \"hi\" a\ b"#), vec!["say", "\"hi\"", "a b"]);
        assert_eq!(split_arguments(r#""a \" b" 'it\'"#), vec!["a \" b", "it\\"]);
        assert_eq!(split_arguments(r"C:\dir\file"), vec![r"C:\dir\file"]);
        assert_eq!(split_arguments(r#"open "unclosed rest"#), vec!["open", "unclosed rest"]);
        assert!(split_arguments("   ").is_empty());
    }

    // ---- argument names

    #[test]
    fn names_from_hints() {
        let n = argument_names("[file] [mode]");
        assert_eq!(
            n,
            vec![
                ArgumentName { name: "file".into(), index: 0, rest: false },
                ArgumentName { name: "mode".into(), index: 1, rest: false }
            ]
        );
        let n = argument_names("<create|update> [--force] <pr-number> <files...>");
        assert_eq!(
            n,
            vec![
                ArgumentName { name: "pr-number".into(), index: 2, rest: false },
                ArgumentName { name: "files".into(), index: 3, rest: true }
            ]
        );
        assert!(argument_names("file mode").is_empty());
        assert!(argument_names("[unclosed").is_empty());
    }

    #[test]
    fn names_are_bounded() {
        let hint: String = (0..10_000).map(|i| format!("[a{i}] ")).collect();
        assert_eq!(argument_names(&hint).len(), MAX_NAMED_ARGUMENTS);
        let body = "${".repeat(200_000) + &"$a1 ".repeat(100_000);
        let out = substitute_arguments(&body, "x y", Some(&hint));
        assert!(out.ends_with("y "));
    }

    #[test]
    fn names_from_arguments_field() {
        let mut s = skill("x", true);
        s.argument_hint = Some("[a]".into());
        s.extra.insert("arguments".into(), serde_json::json!(["component", "from", "to"]));
        let n = skill_argument_names(&s);
        assert_eq!(
            n.iter().map(|a| (a.name.as_str(), a.index)).collect::<Vec<_>>(),
            vec![("component", 0), ("from", 1), ("to", 2)]
        );
        s.extra.clear();
        assert_eq!(skill_argument_names(&s)[0].name, "a");
    }

    // ---- substitute_arguments

    #[test]
    fn substitutes_all_forms() {
        let body = "All: $ARGUMENTS. First: $0, second: $1, ${1}, idx: $ARGUMENTS[2], ${ARGUMENTS}!";
        let out = substitute_arguments(body, r#"  one "two words" three  "#, None);
        assert_eq!(
            out,
            r#"All: one "two words" three. First: one, second: two words, two words, idx: three, one "two words" three!"#
        );
    }

    #[test]
    fn one_based_option() {
        let opts = SubstituteOptions { one_based: true, ..Default::default() };
        let out = substitute_arguments_with("$1 then $2; $0 stays; $ARGUMENTS[0]", "a b", &[], &opts);
        assert_eq!(out, "a then b; $0 stays; a");
    }

    #[test]
    fn named_arguments() {
        let out = substitute_arguments(
            "Open $file in ${mode} mode; $filename stays; $mode.",
            "a.txt fast",
            Some("[file] [mode]"),
        );
        assert_eq!(out, "Open a.txt in fast mode; $filename stays; fast.");
        let out =
            substitute_arguments("$pr-number / $files / $pr", "x 12 a b c", Some("<action> <pr-number> <files...>"));
        assert_eq!(out, "12 / a b c / $pr");
    }

    #[test]
    fn missing_arguments_are_empty() {
        assert_eq!(
            substitute_arguments("[$0][$3][$ARGUMENTS[9]][$mode]", "only", Some("[file] [mode]")),
            "[only][][][]"
        );
        assert_eq!(substitute_arguments("Fix $ARGUMENTS.", "", None), "Fix .");
    }

    #[test]
    fn code_is_left_alone() {
        let body = "Use $0.\n```sh\necho $0 $ARGUMENTS\n```\nInline `$1` and ``$ARGUMENTS`` too; but $1.";
        assert_eq!(
            substitute_arguments(body, "a b", None),
            "Use a.\n```sh\necho $0 $ARGUMENTS\n```\nInline `$1` and ``$ARGUMENTS`` too; but b."
        );
    }

    #[test]
    fn money_and_non_placeholders() {
        let body = "Costs $1.50 or $1,000 or $1M or $10 or $2k; $ARGUMENTSX; $$ shell; \\$ price; $1.";
        assert_eq!(
            substitute_arguments(body, "a b", None),
            "Costs $1.50 or $1,000 or $1M or $10 or $2k; $ARGUMENTSX; $$ shell; \\$ price; b."
        );
    }

    #[test]
    fn escapes() {
        let body = r"Literal \$ARGUMENTS and $$ARGUMENTS and \$0 and $$1, real $ARGUMENTS";
        assert_eq!(substitute_arguments(body, "x", None), "Literal $ARGUMENTS and $ARGUMENTS and $0 and $1, real x");
    }

    #[test]
    fn appends_when_unused() {
        assert_eq!(substitute_arguments("Do it.", " a b ", None), "Do it.\n\nARGUMENTS: a b");
        // Only inside code: still unused.
        assert_eq!(substitute_arguments("`$ARGUMENTS`", "a", None), "`$ARGUMENTS`\n\nARGUMENTS: a");
        // Escaped only: unused.
        assert_eq!(substitute_arguments(r"\$ARGUMENTS", "a", None), "$ARGUMENTS\n\nARGUMENTS: a");
        // Blank arguments: nothing appended.
        assert_eq!(substitute_arguments("Do it.", "  ", None), "Do it.");
        // A positional placeholder counts as used.
        assert_eq!(substitute_arguments("Deploy $0", "prod", None), "Deploy prod");
        let opts = SubstituteOptions { append_if_unused: false, ..Default::default() };
        assert_eq!(substitute_arguments_with("Do it.", "a", &[], &opts), "Do it.");
    }

    #[test]
    fn output_is_bounded() {
        let opts = SubstituteOptions { max_output_bytes: 10, ..Default::default() };
        let out = substitute_arguments_with("$ARGUMENTS $ARGUMENTS $ARGUMENTS", "abcdefgh", &[], &opts);
        assert_eq!(out, "abcdefgh abcdefgh $ARGUMENTS");
    }

    #[test]
    fn unicode_and_edges_do_not_panic() {
        assert_eq!(substitute_arguments("é$0€ ${ ${} $ \\", "ü", None), "éü€ ${ ${} $ \\");
        assert_eq!(substitute_arguments("$", "", None), "$");
        assert_eq!(substitute_arguments("$ARGUMENTS[", "a", None), "a[");
        assert_eq!(substitute_arguments("$ARGUMENTS[99999999999]", "a", None), "a[99999999999]");
    }

    // ---- autocomplete

    fn ac_skills() -> Vec<Skill> {
        let mut v = vec![
            skill("pdf", true),
            skill("pdf-tools", true),
            skill("pd", true),
            skill("export-pdf", true),
            skill("pandoc-doc", true),
            skill("hidden-pdf", false),
            skill("zeta", true),
            skill("apdf", true),
        ];
        v[1].argument_hint = Some("[file]".into());
        v
    }

    #[test]
    fn autocomplete_order() {
        let got: Vec<(String, MatchKind, u32)> =
            autocomplete("/pd", &ac_skills(), 0).into_iter().map(|s| (s.name, s.match_kind, s.score)).collect();
        assert_eq!(
            got,
            vec![
                ("pd".into(), MatchKind::Exact, 1000),
                ("pdf".into(), MatchKind::Prefix, 899),
                ("pdf-tools".into(), MatchKind::Prefix, 893),
                ("export-pdf".into(), MatchKind::Word, 692),
                ("apdf".into(), MatchKind::Fuzzy, 499),
                ("pandoc-doc".into(), MatchKind::Fuzzy, 498),
            ]
        );
    }

    #[test]
    fn autocomplete_details() {
        let s = autocomplete("$PDF-T", &ac_skills(), 5);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].name, "pdf-tools");
        assert_eq!(s[0].argument_hint.as_deref(), Some("[file]"));
        assert_eq!(s[0].description, "pdf-tools skill");
        assert_eq!(autocomplete("pd", &ac_skills(), 2).len(), 2);
        assert!(autocomplete("qqq", &ac_skills(), 0).is_empty());
        assert!(autocomplete("hidden", &ac_skills(), 0).is_empty());
    }

    #[test]
    fn autocomplete_empty_lists_alphabetically() {
        let got: Vec<String> = autocomplete("/", &ac_skills(), 4).into_iter().map(|s| s.name).collect();
        assert_eq!(got, vec!["apdf", "export-pdf", "pandoc-doc", "pd"]);
        assert_eq!(autocomplete("", &ac_skills(), 0).len(), 7);
    }

    #[test]
    fn autocomplete_fuzzy_prefers_tighter() {
        let v = vec![skill("a-x-b-x-c", true), skill("abc-long-name", true), skill("xabc", true)];
        let got: Vec<String> = autocomplete("abc", &v, 0).into_iter().map(|s| s.name).collect();
        assert_eq!(got, vec!["abc-long-name", "xabc", "a-x-b-x-c"]);
    }

    #[test]
    fn autocomplete_dedupes_names() {
        let v = vec![skill("pdf", true), skill("pdf", true)];
        assert_eq!(autocomplete("p", &v, 0).len(), 1);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(text in "[ -~\\n`$/é😀\\[\\]<>{}\"']{0,200}", args in "[ -~é\"'\\\\]{0,40}", hint in "[ -~]{0,40}") {
            let p = parse_message(&text, &skills());
            for inv in &p.invocations {
                proptest::prop_assert!(inv.start < inv.end);
            }
            let _ = substitute_arguments(&text, &args, Some(&hint));
            let _ = autocomplete(&text, &skills(), 3);
            let _ = split_arguments(&args);
            for (a, b) in code_ranges(&text) {
                proptest::prop_assert!(a < b && b <= text.len());
            }
        }
    }
}
