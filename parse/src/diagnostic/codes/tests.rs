//! The codes are all here, all used, all documented: the sources of the core and the façade give
//! every code through a constant of this module (no code literal, no literal as the code of a
//! diagnostic), every constant is used, [`ALL`] lists every constant, and the code lists of the
//! reference (`docs/reference/diagnostic-codes.md`) name every code.

use super::ALL;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const MODULE: &str = include_str!("../codes.rs");

/// `(NAME, value)` of every `pub const NAME: &str = "value";` in the module, in order.
fn declared() -> Vec<(String, String)> {
    MODULE
        .lines()
        .filter_map(|l| l.strip_prefix("pub const "))
        .filter_map(|l| {
            let (name, rest) = l.split_once(": &str = \"")?;
            let value = rest.strip_suffix("\";")?;
            Some((name.to_string(), value.to_string()))
        })
        .collect()
}

fn is_code(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// Byte ranges of a source text.
type Spans = Vec<(usize, usize)>;

/// The string literals of Rust source (byte ranges of their contents, raw strings included) and
/// its `//` comments, in order; char literals that hold a quote are stepped over.
fn lex(src: &str) -> (Spans, Spans) {
    let b = src.as_bytes();
    let (mut strings, mut comments) = (Vec::new(), Vec::new());
    let ident = |i: usize| i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let start = i;
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                comments.push((start, i));
            }
            b'r' if !ident(i) && matches!(b.get(i + 1), Some(b'"') | Some(b'#')) => {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let start = i + 2 + hashes;
                let close = format!("\"{}", "#".repeat(hashes));
                let end = src[start..].find(&close).map_or(b.len(), |e| start + e);
                strings.push((start, end));
                i = (end + close.len()).min(b.len());
            }
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                strings.push((start, i.min(b.len())));
                i += 1;
            }
            b'\'' if b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') => i += 4,
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 3,
            _ => i += 1,
        }
    }
    (strings, comments)
}

/// The text with its `//` comments blanked out (offsets kept).
fn strip_comments(src: &str) -> String {
    let mut out = src.to_string();
    for (start, end) in lex(src).1 {
        out.replace_range(start..end, &" ".repeat(end - start));
    }
    out
}

/// Every string literal of `code` with the byte offset of its contents.
fn literals(code: &str) -> Vec<(usize, &str)> {
    lex(code).0.into_iter().map(|(start, end)| (start, &code[start..end])).collect()
}

/// The non-test code of every Rust file of the core and the façade, comments stripped, outside
/// this module.
fn sources() -> Vec<(PathBuf, String)> {
    // The workspace: this crate is `parse/` in it.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    let mut dirs = vec![root.join("src"), root.join("parse/src"), root.join("wasm/src")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    let own = root.join("parse/src/diagnostic/codes");
    files
        .into_iter()
        .filter(|p| !p.starts_with(&own) && *p != root.join("parse/src/diagnostic/codes.rs"))
        .filter(|p| p.file_stem().is_some_and(|s| s != "tests" && !s.to_string_lossy().ends_with("_tests")))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            // Tests pin the public strings as literals: what follows the first test module is theirs.
            let text = match text.find("#[cfg(test)]") {
                Some(i) => &text[..i],
                None => &text[..],
            };
            (p.strip_prefix(&root).unwrap().to_path_buf(), strip_comments(text))
        })
        .collect()
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

#[test]
fn all_lists_every_constant_once_in_order() {
    let declared = declared();
    assert!(declared.len() >= 70, "the module's constants were not found ({})", declared.len());
    let values: Vec<&str> = declared.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(ALL, values.as_slice(), "ALL must list every constant of the module, in order");
    let unique: BTreeSet<&str> = values.iter().copied().collect();
    assert_eq!(unique.len(), values.len(), "a code is declared twice");
    for (name, value) in &declared {
        assert!(is_code(value), "{name} = {value:?} is not a lower-case, hyphenated code");
        assert_eq!(*name, value.to_uppercase().replace('-', "_"), "the constant for {value:?} is named after it");
    }
}

#[test]
fn sources_give_codes_through_the_constants() {
    let known: BTreeSet<&str> = ALL.iter().copied().collect();
    // The first argument that is a code, per call that makes one (`new` takes the severity first).
    let makers = [
        ("Diagnostic::error(", 0),
        ("Diagnostic::warning(", 0),
        ("Diagnostic::info(", 0),
        ("Diagnostic::new(", 1),
        ("bad(", 0),
    ];
    let mut problems = Vec::new();
    for (path, code) in sources() {
        let path = path.display();
        for (at, lit) in literals(&code) {
            if known.contains(lit) {
                let name = lit.to_uppercase().replace('-', "_");
                problems.push(format!("{path}:{}: the literal {lit:?}: use codes::{name}", line_of(&code, at)));
            }
        }
        for (maker, skip) in makers {
            for (at, _) in code.match_indices(maker) {
                let before = code[..at].chars().next_back().unwrap_or(' ');
                if before.is_alphanumeric() || before == '_' {
                    continue;
                }
                let mut args = &code[at + maker.len()..];
                if skip == 1 {
                    args = args.split_once(',').map_or("", |(_, rest)| rest);
                }
                if args.trim_start().starts_with('"') {
                    problems.push(format!(
                        "{path}:{}: {maker}...) with a literal code: add it to diagnostic::codes",
                        line_of(&code, at)
                    ));
                }
            }
        }
        for cmp in [".code == \"", ".code != \"", "code.as_str() == \""] {
            for (at, _) in code.match_indices(cmp) {
                problems.push(format!("{path}:{}: a code compared with a literal", line_of(&code, at)));
            }
        }
    }
    assert!(problems.is_empty(), "codes outside diagnostic::codes:\n{}", problems.join("\n"));
}

#[test]
fn every_constant_is_used() {
    let sources = sources();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let used = |name: &str| {
        sources.iter().any(|(_, code)| {
            let path = format!("codes::{name}");
            code.match_indices(&path).any(|(at, _)| !code[at + path.len()..].starts_with(ident))
                || code
                    .split("codes::{")
                    .skip(1)
                    .any(|group| group.split('}').next().unwrap_or("").split(',').any(|item| item.trim() == name))
        })
    };
    let unused: Vec<String> = declared().into_iter().map(|(name, _)| name).filter(|n| !used(n)).collect();
    assert!(unused.is_empty(), "codes no source uses (remove them, or use them): {unused:?}");
}

/// The sections of a Markdown page whose heading speaks of codes, each running to the next heading of its
/// level or above, without their fenced blocks.
fn code_sections(readme: &str) -> Vec<String> {
    let mut sections = Vec::new();
    let mut current: Option<(usize, String)> = None;
    let mut fenced = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let level = line.bytes().take_while(|&b| b == b'#').count();
        if level > 0 && line.as_bytes().get(level) == Some(&b' ') {
            if current.as_ref().is_some_and(|(l, _)| level <= *l) {
                sections.push(current.take().unwrap().1);
            }
            if current.is_none() && line.to_lowercase().contains("code") {
                current = Some((level, String::new()));
                continue;
            }
        }
        if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    sections.extend(current.map(|(_, t)| t));
    sections
}

/// The inline code spans of Markdown text: a run of backticks opens one, the next run of as many
/// closes it; the span is trimmed, as Markdown renders it.
fn backticked(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let ticks = rest[open..].bytes().take_while(|&b| b == b'`').count();
        let body = &rest[open + ticks..];
        let mut at = 0;
        let close = loop {
            let Some(i) = body[at..].find('`') else { break None };
            let run = body[at + i..].bytes().take_while(|&b| b == b'`').count();
            if run == ticks {
                break Some(at + i);
            }
            at += i + run;
        };
        match close {
            Some(c) => {
                out.push(body[..c].trim());
                rest = &body[c + ticks..];
            }
            None => rest = body,
        }
    }
    out
}

#[test]
fn the_reference_lists_every_code() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reference/diagnostic-codes.md");
    let text = std::fs::read_to_string(&page).unwrap();
    let sections = code_sections(&text);
    assert!(!sections.is_empty(), "the codes reference has no section about diagnostic codes");
    let listed: BTreeSet<&str> = sections.iter().flat_map(|s| backticked(s)).collect();
    let missing: Vec<&str> = ALL.iter().copied().filter(|c| !listed.contains(c)).collect();
    assert!(missing.is_empty(), "codes the reference's code sections do not list: {missing:?}");
    // The first cell of a table row in those sections is a code; it must be one that exists.
    let known: BTreeSet<&str> = ALL.iter().copied().collect();
    let stale: Vec<&str> = sections
        .iter()
        .flat_map(|s| s.lines())
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|c| !known.contains(c))
        .collect();
    assert!(stale.is_empty(), "the reference lists codes that do not exist: {stale:?}");
}

#[test]
fn the_scanners_see_what_they_look_for() {
    let src =
        "let a = \"x\"; // \"bom\"\nlet c = ['\"', '\\\"']; let r = r#\"a\"b\"#;\nDiagnostic::error(\"new-code\", m);";
    let code = strip_comments(src);
    let lits: Vec<&str> = literals(&code).into_iter().map(|(_, l)| l).collect();
    assert_eq!(lits, ["x", "a\"b", "new-code"]);
    let readme =
        "# t\n## Diagnostic codes\n| `bom` | `` ` `` |\n```\n# not a heading\n`x`\n```\n`crlf`\n## Next\n`not-utf8`\n";
    let sections = code_sections(readme);
    assert_eq!(sections.len(), 1);
    assert_eq!(backticked(&sections[0]), ["bom", "`", "crlf"]);
}
