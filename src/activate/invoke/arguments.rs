//! Arguments: shell-style splitting, names from `argument-hint` or `arguments`, and substitution
//! of `$ARGUMENTS`, `$N` and `$name` in a skill's body.

use crate::parse::Skill;
use crate::text::{code_ranges, CodeCursor};
use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

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
    /// The name, without `$` and braces.
    pub name: String,
    /// The 0-based argument it stands for.
    pub index: usize,
    /// It takes that argument and every one after it.
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
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
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
/// - An argument that was not given is replaced by the empty string, except `$N` in a skill that
///   declares no arguments (no `arguments`, no `argument-hint`): that stays as written, so `$5`
///   in prose survives.
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
            // A skill that declares no arguments may write `$5` as a price: a `$N` whose
            // argument was not given stays as written (as Claude Code leaves it).
            Placeholder::Digit(d)
                if names.is_empty() && positional.get(d.saturating_sub(usize::from(opts.one_based))).is_none() =>
            {
                i += len;
                continue;
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activate::invoke::fixtures::skill;

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
    fn undeclared_missing_digits_stay() {
        // No declared arguments: `$5` is prose unless a fifth argument was given.
        assert_eq!(substitute_arguments("It costs $5 and $0.", "x", None), "It costs $5 and x.");
        assert_eq!(substitute_arguments("It costs $5.", "", None), "It costs $5.");
        let one = SubstituteOptions { one_based: true, ..Default::default() };
        assert_eq!(substitute_arguments_with("$1 and $5", "a", &[], &one), "a and $5");
        // Declared arguments: a missing one is empty, as before.
        assert_eq!(substitute_arguments("[$5]", "x", Some("[file]")), "[]");
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
}
