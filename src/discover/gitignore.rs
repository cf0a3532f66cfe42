//! `.gitignore` files, for discovery that is asked to honour them (`respectGitignore`).
//!
//! The pattern language of gitignore(5) that real repositories use: blank lines and `#` comments,
//! `!` negation (a later rule wins; a path inside an excluded directory cannot be re-included),
//! a trailing `/` for directories only, a `/` at the start or in the middle anchoring the pattern
//! to the file's directory (otherwise it matches a name at any depth), `*`, `?`, `[a-z]` / `[!a-z]`
//! classes, `\` escapes, and `**` as a whole segment: `**/x` (at any depth), `a/**/b` (zero or more
//! directories), `a/**` (everything inside `a`). Trailing spaces are dropped unless escaped.
//!
//! Rules of a deeper `.gitignore` override those of a shallower one. Files are read through the
//! store like any other object, at most [`MAX_GITIGNORE_BYTES`] of each.

use crate::diagnostic::{codes, Diagnostic};
use crate::store::{self, CallStats, Storage};
use futures_util::stream::{self, StreamExt};
use std::collections::{HashMap, HashSet};

/// The most bytes of one `.gitignore` that are read and used.
pub const MAX_GITIGNORE_BYTES: u32 = 64 * 1024;

/// The file name.
pub const GITIGNORE: &str = ".gitignore";

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Lit(char),
    Any,
    One,
    Class { negated: bool, ranges: Vec<(char, char)> },
}

#[derive(Debug, Clone, PartialEq)]
enum Seg {
    /// `**`: zero or more path segments.
    AnyDirs,
    Glob(Vec<Tok>),
}

#[derive(Debug, Clone, PartialEq)]
struct Rule {
    negated: bool,
    dir_only: bool,
    segs: Vec<Seg>,
}

/// The rules of one `.gitignore`, for paths relative to the directory that holds it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Gitignore {
    base: String,
    rules: Vec<Rule>,
}

fn glob(seg: &str) -> Seg {
    if seg == "**" {
        return Seg::AnyDirs;
    }
    let chars: Vec<char> = seg.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' if i + 1 < chars.len() => {
                toks.push(Tok::Lit(chars[i + 1]));
                i += 2;
                continue;
            }
            '*' => {
                if toks.last() != Some(&Tok::Any) {
                    toks.push(Tok::Any);
                }
            }
            '?' => toks.push(Tok::One),
            '[' => {
                if let Some((tok, next)) = class(&chars, i) {
                    toks.push(tok);
                    i = next;
                    continue;
                }
                toks.push(Tok::Lit('['));
            }
            c => toks.push(Tok::Lit(c)),
        }
        i += 1;
    }
    Seg::Glob(toks)
}

/// A `[...]` class starting at `chars[at]`, and the index after it; None when it is not closed.
fn class(chars: &[char], at: usize) -> Option<(Tok, usize)> {
    let mut i = at + 1;
    let negated = matches!(chars.get(i), Some('!') | Some('^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    while i < chars.len() {
        let mut c = chars[i];
        if c == ']' && !first {
            return Some((Tok::Class { negated, ranges }, i + 1));
        }
        first = false;
        if c == '\\' && i + 1 < chars.len() {
            i += 1;
            c = chars[i];
        }
        if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|&e| e != ']') {
            let mut end = chars[i + 2];
            let mut skip = 3;
            if end == '\\' && i + 3 < chars.len() {
                end = chars[i + 3];
                skip = 4;
            }
            ranges.push((c, end));
            i += skip;
        } else {
            ranges.push((c, c));
            i += 1;
        }
    }
    None
}

fn tok_matches(t: &Tok, &c: &char) -> bool {
    match t {
        Tok::Lit(l) => *l == c,
        Tok::One => true,
        Tok::Class { negated, ranges } => ranges.iter().any(|(a, b)| *a <= c && c <= *b) != *negated,
        Tok::Any => true,
    }
}

/// Wildcard matching with one remembered star: linear in practice, quadratic at worst.
fn star_match<P, T>(pat: &[P], text: &[T], is_star: impl Fn(&P) -> bool, one: impl Fn(&P, &T) -> bool) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pat.len() && is_star(&pat[p]) {
            star = Some((p, t));
            p += 1;
        } else if p < pat.len() && one(&pat[p], &text[t]) {
            p += 1;
            t += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pat[p..].iter().all(is_star)
}

fn seg_matches(seg: &Seg, name: &str) -> bool {
    match seg {
        Seg::AnyDirs => true,
        Seg::Glob(toks) => {
            let chars: Vec<char> = name.chars().collect();
            star_match(toks, &chars, |t| *t == Tok::Any, tok_matches)
        }
    }
}

fn segs_match(segs: &[Seg], path: &[&str]) -> bool {
    star_match(segs, path, |s| *s == Seg::AnyDirs, |s, name| seg_matches(s, name))
}

impl Rule {
    fn parse(line: &str) -> Option<Rule> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        // Trailing spaces go, unless the last one is escaped.
        let mut text = line.trim_end_matches(' ').to_string();
        if text.ends_with('\\') && line.len() > text.len() {
            text.push(' ');
        }
        if text.is_empty() || text.starts_with('#') {
            return None;
        }
        let (negated, text) = match text.strip_prefix('!') {
            Some(rest) => (true, rest.to_string()),
            None => (false, text.strip_prefix('\\').filter(|r| r.starts_with(['#', '!'])).unwrap_or(&text).to_string()),
        };
        let dir_only = text.ends_with('/') && !text.ends_with("\\/");
        let body = text.trim_end_matches('/');
        if body.is_empty() {
            return None;
        }
        let anchored = body.contains('/');
        let body = body.strip_prefix('/').unwrap_or(body);
        let mut segs: Vec<Seg> = body.split('/').filter(|s| !s.is_empty()).map(glob).collect();
        if !anchored {
            segs.insert(0, Seg::AnyDirs);
        }
        segs.dedup_by(|a, b| *a == Seg::AnyDirs && *b == Seg::AnyDirs);
        Some(Rule { negated, dir_only, segs })
    }

    fn matches(&self, path: &[&str], is_dir: bool) -> bool {
        if self.dir_only && !is_dir {
            return false;
        }
        match self.segs.split_last() {
            // `a/**` matches what is inside `a`, not `a` itself.
            Some((Seg::AnyDirs, init)) if !init.is_empty() => (0..path.len()).any(|n| segs_match(init, &path[..n])),
            _ => segs_match(&self.segs, path),
        }
    }
}

impl Gitignore {
    /// The rules of a `.gitignore` held by the directory `base` (a store key, `""` for the root).
    pub fn parse(base: &str, text: &str) -> Gitignore {
        Gitignore {
            base: base.trim_end_matches('/').to_string(),
            rules: text.lines().filter_map(Rule::parse).collect(),
        }
    }

    /// What the last matching rule says of `rel` (relative to this file's directory): `Some(true)`
    /// ignored, `Some(false)` re-included by a negation, `None` when no rule matches.
    pub fn decide(&self, rel: &str, is_dir: bool) -> Option<bool> {
        let path: Vec<&str> = rel.split('/').filter(|s| !s.is_empty()).collect();
        self.rules.iter().rev().find(|r| r.matches(&path, is_dir)).map(|r| !r.negated)
    }

    /// `key` relative to this file's directory, when the file applies to it.
    fn relative<'k>(&self, key: &'k str) -> Option<&'k str> {
        if self.base.is_empty() {
            return Some(key);
        }
        key.strip_prefix(self.base.as_str())?.strip_prefix('/')
    }
}

/// The `.gitignore` files that apply to a scan, by the directory holding each, and the verdicts
/// already reached per directory: a path costs a lookup per directory above it, whatever the
/// number of files.
#[derive(Debug, Default)]
pub(crate) struct IgnoreSet {
    files: HashMap<String, Gitignore>,
    dirs: HashMap<String, bool>,
}

impl IgnoreSet {
    /// Adds a file (a later one for the same directory replaces it).
    pub(crate) fn add(&mut self, file: Gitignore) {
        self.files.insert(file.base.clone(), file);
    }

    /// What the files above `path` say of it, the deepest one that has a matching rule winning.
    fn excluded(&self, path: &str, is_dir: bool) -> bool {
        let mut verdict = None;
        let mut base = "";
        loop {
            if let Some(f) = self.files.get(base) {
                if let Some(v) = f.relative(path).and_then(|rel| f.decide(rel, is_dir)) {
                    verdict = Some(v);
                }
            }
            let rest = if base.is_empty() { path } else { &path[base.len() + 1..] };
            match rest.find('/') {
                Some(i) => base = &path[..path.len() - rest.len() + i],
                None => break,
            }
        }
        verdict == Some(true)
    }

    /// Whether the file `key` is ignored: it or one of its directories is excluded.
    pub(crate) fn is_ignored(&mut self, key: &str) -> bool {
        let mut at = 0;
        while let Some(i) = key[at..].find('/') {
            let dir = &key[..at + i];
            let ignored = match self.dirs.get(dir) {
                Some(v) => *v,
                None => {
                    let v = self.excluded(dir, true);
                    self.dirs.insert(dir.to_string(), v);
                    v
                }
            };
            if ignored {
                return true;
            }
            at += i + 1;
        }
        self.excluded(key, false)
    }
}

/// The directories whose `.gitignore` is read for a root: those above the root (always tried;
/// a missing file costs one read answered with nothing), the root, and every directory between
/// the root and a skill directory that listed a `.gitignore`.
pub(crate) fn directories_to_read(root: &str, skill_dirs: &[&str], listed: &[String]) -> Vec<String> {
    let root = root.trim_end_matches('/');
    let mut out: Vec<String> = Vec::new();
    let mut above = String::new();
    for part in root.split('/').filter(|s| !s.is_empty()) {
        out.push(above.clone());
        above = if above.is_empty() { part.to_string() } else { format!("{above}/{part}") };
    }
    // Every directory strictly above a skill directory: a set, so that the filter is linear.
    let mut parents: HashSet<&str> = HashSet::new();
    for s in skill_dirs {
        let mut at = s.len();
        while let Some(i) = s[..at].rfind('/') {
            if !parents.insert(&s[..i]) {
                break;
            }
            at = i;
        }
        parents.insert("");
    }
    let mut wanted: Vec<&String> = listed.iter().filter(|d| parents.contains(d.as_str())).collect();
    crate::sort::sort_by_key(&mut wanted, |d| (d.matches('/').count(), d.len()));
    wanted.dedup();
    out.extend(wanted.into_iter().cloned());
    out
}

/// Reads the `.gitignore` of each directory, `concurrency` at a time. A read that fails is a
/// warning (with the key it is about); the others still apply.
pub(crate) async fn load(
    storage: &dyn Storage,
    dirs: Vec<String>,
    concurrency: usize,
    stats: &CallStats,
) -> (IgnoreSet, Vec<(String, Diagnostic)>) {
    let read = stream::iter(dirs.into_iter().enumerate())
        .map(|(i, dir)| async move {
            let key = if dir.is_empty() { GITIGNORE.to_string() } else { format!("{dir}/{GITIGNORE}") };
            let got = store::read_checked(storage, &key, Some(MAX_GITIGNORE_BYTES + 1), stats).await;
            (i, dir, key, got)
        })
        .buffer_unordered(concurrency.max(1))
        .collect::<Vec<_>>()
        .await;
    let mut read = read;
    crate::sort::sort_by_key(&mut read, |r| r.0);
    let mut set = IgnoreSet::default();
    let mut diagnostics = Vec::new();
    for (_, dir, key, got) in read {
        match got {
            Ok(Some(mut bytes)) => {
                if bytes.len() > MAX_GITIGNORE_BYTES as usize {
                    // The cut line is dropped with what follows it.
                    bytes.truncate(MAX_GITIGNORE_BYTES as usize);
                    bytes.truncate(bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1));
                    let message = format!("only the first {MAX_GITIGNORE_BYTES} bytes of this .gitignore were used");
                    diagnostics.push((key.clone(), Diagnostic::warning(codes::GITIGNORE_TOO_LARGE, message)));
                }
                let text = String::from_utf8_lossy(&bytes);
                set.add(Gitignore::parse(&dir, &text));
            }
            Ok(None) => {}
            Err(e) => diagnostics.push((
                key,
                Diagnostic::warning(codes::GITIGNORE_UNREADABLE, format!("reading this .gitignore failed: {e}")),
            )),
        }
    }
    (set, diagnostics)
}

#[cfg(test)]
#[path = "gitignore_tests.rs"]
mod tests;
