//! Paths: lexical normalisation, resolution against the working and home directories, path globs,
//! and containment in a skill's directory.

use super::*;

pub(super) fn is_drive_path(p: &str) -> bool {
    let b = p.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b.len() == 2 || b[2] == b'/' || b[2] == b'\\')
}

/// Normalises a path lexically, without a filesystem: `\` becomes `/`, repeated slashes and `.`
/// segments go, `..` removes the segment before it. An absolute path (`/…` or `C:/…`) keeps its
/// root (`..` at the root stays at the root, as in POSIX); a relative path whose `..` would climb
/// above its start is refused. Also refused: NUL, and percent-encoded dots, slashes, backslashes
/// or NUL (`%2e`, `%2f`, `%5c`, `%00`, any case), which no legitimate path needs and which
/// decode into traversal elsewhere. `None` means refused.
pub fn normalize_path(path: &str) -> Option<String> {
    if path.contains('\0') {
        return None;
    }
    let lower = path.to_ascii_lowercase();
    if ["%2e", "%2f", "%5c", "%00"].iter().any(|e| lower.contains(e)) {
        return None;
    }
    let p = path.replace('\\', "/");
    let (root, rest) = if let Some(r) = p.strip_prefix('/') {
        ("/".to_string(), r)
    } else if is_drive_path(&p) {
        (format!("{}/", &p[..2]), p.get(2..).unwrap_or(""))
    } else {
        (String::new(), p.as_str())
    };
    let mut segs: Vec<&str> = Vec::new();
    for s in rest.split('/') {
        match s {
            "" | "." => {}
            ".." => {
                if segs.pop().is_none() && root.is_empty() {
                    return None;
                }
            }
            s => segs.push(s),
        }
        if segs.len() > MAX_PATH_SEGMENTS {
            return None;
        }
    }
    Some(format!("{root}{}", segs.join("/")))
}

pub(super) fn is_absolute(p: &str) -> bool {
    p.starts_with('/') || is_drive_path(p)
}

pub(super) fn join(base: &str, rel: &str) -> String {
    if base.ends_with('/') {
        format!("{base}{rel}")
    } else {
        format!("{base}/{rel}")
    }
}

/// An input path, absolute when the context allows it, normalised.
pub(super) fn resolve(path: &str, ctx: &PermissionContext) -> Option<String> {
    let path = path.trim();
    if path.is_empty() {
        return None;
    }
    let joined = if path == "~" || path.starts_with("~/") || path.starts_with("~\\") {
        join(ctx.home.as_deref()?, path.get(2..).unwrap_or(""))
    } else if is_absolute(&path.replace('\\', "/")) {
        path.to_string()
    } else if let Some(cwd) = &ctx.cwd {
        normalize_path(path)?; // a relative path may not climb above its own start
        join(cwd, path)
    } else {
        path.to_string()
    };
    normalize_path(&joined)
}

/// A path pattern, resolved like an input path (see the module documentation).
pub(super) fn resolve_pattern(pattern: &str, ctx: &PermissionContext) -> Option<String> {
    let p = pattern.trim().replace('\\', "/");
    let base = |rel: &str| -> Option<String> {
        let rel = if rel.contains('/') { rel.to_string() } else { format!("**/{rel}") };
        match &ctx.cwd {
            Some(cwd) => normalize_path(&join(cwd, &rel)),
            None => normalize_path(&rel),
        }
    };
    if let Some(abs) = p.strip_prefix("//") {
        normalize_path(&format!("/{abs}"))
    } else if p == "~" || p.starts_with("~/") {
        normalize_path(&join(ctx.home.as_deref()?, p.get(2..).unwrap_or("")))
    } else if is_drive_path(&p) {
        normalize_path(&p)
    } else if let Some(rel) = p.strip_prefix('/') {
        // Relative to where the rules come from: the working directory for a skill.
        base(&format!("./{rel}"))
    } else {
        base(p.strip_prefix("./").unwrap_or(&p))
    }
}

pub(super) fn path_glob_covers(glob: &str, path: &str, directory: bool) -> bool {
    if is_absolute(glob) != is_absolute(path) {
        return false;
    }
    let g: Vec<&str> = glob.split('/').filter(|s| !s.is_empty()).collect();
    let s: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if glob_segments(&g, &s) {
        return true;
    }
    if directory {
        // `<base>/**` covers every directory at or below `<base>`.
        if let Some((last, base)) = g.split_last() {
            if *last == "**" && base.iter().all(|seg| !seg.contains(['*', '?'])) {
                return s.len() >= base.len() && s.iter().zip(base.iter()).all(|(a, b)| a == b);
            }
        }
    }
    false
}

/// Segment-wise glob match: `**` is any number of segments, other segments use `*`/`?`.
pub(super) fn glob_segments(p: &[&str], s: &[&str]) -> bool {
    let n = s.len();
    // next[j]: does p[i+1..] match s[j..]?
    let mut next = vec![false; n + 1];
    next[n] = true;
    for seg in p.iter().rev() {
        let mut cur = vec![false; n + 1];
        if *seg == "**" {
            for j in (0..=n).rev() {
                cur[j] = next[j] || (j < n && cur[j + 1]);
            }
        } else {
            for j in (0..n).rev() {
                cur[j] = next[j + 1] && segment_match(seg, s[j]);
            }
        }
        next = cur;
    }
    next[0]
}

pub(super) fn segment_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = name.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(c) if *c == '?' || *c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi.min(p.len())..].iter().all(|c| *c == '*')
}

/// Whether `path` is one of `skill_dirs` or inside one, after normalising both lexically (see
/// [`normalize_path`]): `/a/skills/pdf` contains `/a/skills/pdf/x.md` but not
/// `/a/skills/pdf-evil/x.md` nor `/a/skills/pdf/../other`. Relative paths compare with relative
/// directories (storage keys; `""` is the store's root), absolute with absolute. Refused
/// (false): NUL, percent-encoded dots and slashes, a relative path climbing above its start.
pub fn is_in_skill_directory(path: &str, skill_dirs: &[&str]) -> bool {
    let Some(p) = normalize_path(path.trim()) else { return false };
    skill_dirs.iter().any(|d| {
        let Some(dir) = normalize_path(d.trim()) else { return false };
        if is_absolute(&dir) != is_absolute(&p) {
            return false;
        }
        if dir.is_empty() {
            return true;
        }
        if dir.ends_with('/') {
            // A root (`/` or `C:/`).
            return p.starts_with(&dir);
        }
        p == dir || p.strip_prefix(&dir).is_some_and(|r| r.starts_with('/'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activate::permissions::fixtures::*;
    use serde_json::json;

    // ---- paths

    #[test]
    fn read_path_globs() {
        let t = &["Read(./src/**)"];
        assert!(allowed(t, "Read", json!({ "file_path": "src/a.rs" })));
        assert!(allowed(t, "Read", json!({ "file_path": "./src/deep/er/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "srcx/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "src/../secret" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "../src/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "/abs/src/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "src/%2e%2e/x" })));
        assert!(!allowed(t, "Read", json!({})));
        // Family: Grep is a read.
        assert!(allowed(t, "Grep", json!({ "pattern": "fn .*", "path": "src/x" })));
        assert!(!allowed(t, "Grep", json!({ "pattern": "fn" })));
        assert!(!allowed(t, "Edit", json!({ "file_path": "src/a.rs" })));
    }

    #[test]
    fn single_star_stays_in_segment() {
        let t = &["Edit(docs/*.md)"];
        assert!(allowed(t, "Edit", json!({ "file_path": "docs/a.md" })));
        assert!(allowed(t, "Write", json!({ "file_path": "docs/b.md" })));
        assert!(!allowed(t, "Edit", json!({ "file_path": "docs/sub/a.md" })));
        assert!(!allowed(t, "Edit", json!({ "file_path": "docs/a.txt" })));
        let t = &["Edit(docs/**/*.md)"];
        assert!(allowed(t, "Edit", json!({ "file_path": "docs/a.md" })));
        assert!(allowed(t, "Edit", json!({ "file_path": "docs/x/y/a.md" })));
        let t = &["Read(*.env)"];
        // As in gitignore, `*` also matches a leading dot.
        assert!(allowed(t, "Read", json!({ "file_path": "a/b/.env" })));
        assert!(allowed(t, "Read", json!({ "file_path": "a/b/prod.env" })));
        assert!(allowed(t, "Read", json!({ "file_path": "x.env" })));
        let t = &["Read(src/?.rs)"];
        assert!(allowed(t, "Read", json!({ "file_path": "src/a.rs" })));
        assert!(!allowed(t, "Read", json!({ "file_path": "src/ab.rs" })));
    }

    #[test]
    fn paths_with_context() {
        let ctx = PermissionContext { cwd: Some("/home/u/proj".into()), home: Some("/home/u".into()) };
        let check = |tools: &[&str], tool: &str, input: serde_json::Value| {
            let s = skill("s", tools);
            is_tool_allowed_with(&[&s], tool, Some(&input), &ctx).allowed
        };
        assert!(check(&["Read(./src/**)"], "Read", json!({ "file_path": "/home/u/proj/src/a.rs" })));
        assert!(check(&["Read(./src/**)"], "Read", json!({ "file_path": "src/a.rs" })));
        assert!(!check(&["Read(./src/**)"], "Read", json!({ "file_path": "/home/u/proj/src/../../other/a" })));
        assert!(check(&["Read(/src/**)"], "Read", json!({ "file_path": "/home/u/proj/src/a.rs" })));
        assert!(check(&["Read(//etc/hosts)"], "Read", json!({ "file_path": "/etc/hosts" })));
        assert!(!check(&["Read(//etc/hosts)"], "Read", json!({ "file_path": "/etc/passwd" })));
        assert!(check(&["Read(~/notes/**)"], "Read", json!({ "file_path": "/home/u/notes/a.md" })));
        assert!(check(&["Read(~/notes/**)"], "Read", json!({ "file_path": "~/notes/a.md" })));
        assert!(check(&["Read(C:\\data\\**)"], "Read", json!({ "file_path": "C:\\data\\x\\y.txt" })));
        // Directory tools need the whole directory covered.
        assert!(check(&["Read(./src/**)"], "Grep", json!({ "pattern": "x", "path": "/home/u/proj/src" })));
        assert!(check(&["Read(./src/**)"], "Glob", json!({ "pattern": "**/*.rs", "path": "src/lib" })));
        assert!(!check(&["Read(./src/**)"], "Glob", json!({ "pattern": "**/*.rs" })));
        assert!(!check(&["Read(./src/**)"], "Glob", json!({ "pattern": "../**", "path": "src" })));
        assert!(!check(&["Read(./src/*.rs)"], "LS", json!({ "path": "src" })));
        assert!(check(&["Read(./**)"], "Glob", json!({ "pattern": "*.rs" })));
        // No home: `~` patterns match nothing.
        let s = skill("s", &["Read(~/x/**)"]);
        assert!(!is_tool_allowed(&[&s], "Read", Some(&json!({ "file_path": "~/x/a" }))).allowed);
    }

    #[test]
    fn notebook_paths() {
        assert!(allowed(&["Edit(nb/**)"], "NotebookEdit", json!({ "notebook_path": "nb/a.ipynb" })));
        assert!(!allowed(&["Edit(nb/**)"], "NotebookEdit", json!({ "notebook_path": "other/a.ipynb" })));
    }

    // ---- normalize_path and is_in_skill_directory

    #[test]
    fn normalizes() {
        assert_eq!(normalize_path("/a//b/./c/../d/").as_deref(), Some("/a/b/d"));
        assert_eq!(normalize_path("a\\b\\..\\c").as_deref(), Some("a/c"));
        assert_eq!(normalize_path("/../../etc").as_deref(), Some("/etc"));
        assert_eq!(normalize_path("C:\\x\\..\\y").as_deref(), Some("C:/y"));
        assert_eq!(normalize_path("./").as_deref(), Some(""));
        assert_eq!(normalize_path("a/../../b"), None);
        assert_eq!(normalize_path("../x"), None);
        assert_eq!(normalize_path("a/%2E%2e/b"), None);
        assert_eq!(normalize_path("a/%2fb"), None);
        assert_eq!(normalize_path("a\0b"), None);
    }

    #[test]
    fn skill_directory_containment() {
        let dirs = ["/a/skills/pdf"];
        let inside = |p: &str| is_in_skill_directory(p, &dirs);
        assert!(inside("/a/skills/pdf/x.md"));
        assert!(inside("/a/skills/pdf/scripts/run.py"));
        assert!(inside("/a/skills/pdf"));
        assert!(inside("/a/skills/pdf/"));
        assert!(inside("/a/skills//pdf/./refs/../x.md"));
        assert!(inside("\\a\\skills\\pdf\\x.md"));
        assert!(!inside("/a/skills/pdf-evil/x.md"));
        assert!(!inside("/a/skills/pdf/../other"));
        assert!(!inside("/a/skills/pdf/../pdf-evil/x.md"));
        assert!(!inside("/a/skills/pdf/..\\..\\secrets"));
        assert!(!inside("/a/skills/pdf/%2e%2e/other"));
        assert!(!inside("/a/skills/pdf/%2E%2E%2Fother"));
        assert!(!inside("/etc/passwd"));
        assert!(!inside("/a/skills/pdf/x.md\0"));
        assert!(!inside("a/skills/pdf/x.md"));
        assert!(!inside(""));
        assert!(!is_in_skill_directory("/a/skills/pdf/x.md", &[]));
    }

    #[test]
    fn relative_skill_directories() {
        let dirs = ["skills/pdf", "skills/docx/"];
        assert!(is_in_skill_directory("skills/pdf/x.md", &dirs));
        assert!(is_in_skill_directory("skills/docx/a/b.md", &dirs));
        assert!(!is_in_skill_directory("../skills/pdf/x.md", &dirs));
        assert!(!is_in_skill_directory("..\\skills\\pdf\\x.md", &dirs));
        assert!(!is_in_skill_directory("a/../../skills/pdf/x.md", &dirs));
        assert!(!is_in_skill_directory("skills/pdf/../../b", &dirs));
        assert!(!is_in_skill_directory("/skills/pdf/x.md", &dirs));
        assert!(is_in_skill_directory("skills/pdf/../docx/x.md", &dirs));
        // The store's root contains every relative path, no absolute one.
        assert!(is_in_skill_directory("x.md", &[""]));
        assert!(!is_in_skill_directory("/x.md", &[""]));
        // A bad directory contains nothing.
        assert!(!is_in_skill_directory("x/a", &["x/%2e%2e"]));
    }

    #[test]
    fn huge_inputs_are_bounded() {
        let deep = "a/".repeat(100_000);
        assert!(!is_in_skill_directory(&deep, &["a"]));
        let cmd = "git status && ".repeat(10_000) + "git log";
        assert!(bash(&["Bash(git:*)"], &cmd));
        let star = format!("Bash({}x)", "*a".repeat(50));
        assert!(!bash(&[&star], &"a".repeat(100_000)));
    }

    proptest::proptest! {
        #[test]
        fn never_panics(entry in "[ -~]{0,40}", value in "[ -~é\\n]{0,80}", tool in "(Bash|Read|Grep|Glob|WebFetch|mcp__a__b|LS|X)") {
            let s = skill("s", &[&entry, "Bash(git:*)", "Read(src/**)", "WebFetch(domain:a.b)"]);
            let input = json!({ "command": value, "file_path": value, "path": value, "pattern": value, "url": value });
            let ctx = PermissionContext { cwd: Some("/w".into()), home: Some("/h".into()) };
            let _ = is_tool_allowed_with(&[&s], &tool, Some(&input), &ctx);
            let _ = is_tool_allowed(&[&s], &tool, Some(&input));
            let _ = is_in_skill_directory(&value, &[&entry, "/a/b", ""]);
            let _ = normalize_path(&value);
        }
    }
}
