//! The real corpus (../shared/corpus): every SKILL.md yields a skill or a clear diagnostic, and the
//! fast YAML path reads every frontmatter it accepts exactly as serde_yaml does.

mod common;

use skillwasm::parse::fence;
use skillwasm::{Mode, ParseOptions, Severity};
use std::collections::BTreeMap;

#[test]
fn corpus_parses_and_the_fast_path_agrees_with_serde_yaml() {
    let Some(shared) = common::shared_dir() else {
        eprintln!("../shared is not beside the repository; corpus test skipped");
        return;
    };
    let files = common::skill_files(&shared.join("corpus/skills"));
    assert!(files.len() > 700, "expected the corpus's 776 SKILL.md files, found {}", files.len());

    let (mut skills, mut refused, mut fast_hits, mut with_frontmatter) = (0, 0, 0, 0);
    let mut codes: BTreeMap<String, usize> = BTreeMap::new();
    let mut strict_valid = 0;
    for path in &files {
        let bytes = std::fs::read(path).expect("read");
        let dir = path.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
        let opts = ParseOptions { dir_name: dir.clone(), ..Default::default() };
        let r = skillwasm::parse_skill(&bytes, &opts);
        match &r.skill {
            Some(s) => {
                skills += 1;
                assert!(!s.name.is_empty() && !s.description.is_empty(), "{}", path.display());
                assert!(s.body.is_some());
            }
            None => {
                refused += 1;
                assert!(
                    r.diagnostics.iter().any(|d| d.severity == Severity::Error && !d.message.is_empty()),
                    "refused without an error: {}",
                    path.display()
                );
            }
        }
        for d in &r.diagnostics {
            *codes.entry(format!("{:?}:{}", d.severity, d.code)).or_default() += 1;
        }
        let strict = skillwasm::parse_skill(&bytes, &ParseOptions { mode: Mode::Strict, ..opts });
        strict_valid += usize::from(strict.skill.is_some());

        if let Ok(split) = fence::split(&bytes, false) {
            with_frontmatter += 1;
            if common::differential(split.frontmatter()) {
                fast_hits += 1;
            }
        }
    }
    println!(
        "corpus: {} files, {} skills, {} refused (lenient); {} strictly valid; fast path took {}/{} frontmatters",
        files.len(),
        skills,
        refused,
        strict_valid,
        fast_hits,
        with_frontmatter
    );
    for (code, n) in &codes {
        println!("  {n:5}  {code}");
    }
    assert_eq!(skills + refused, files.len());
    // Nearly every real frontmatter is in the subset; a drop here is a speed regression.
    assert!(fast_hits * 100 >= with_frontmatter * 90, "fast path took only {fast_hits}/{with_frontmatter}");
    // Most real skills load in lenient mode.
    assert!(skills * 100 >= files.len() * 90, "only {skills} of {} loaded", files.len());
}

/// The repairs on real text: every corpus description that is quoted because it holds `: ` (or
/// starts with a bracketed word) is written unquoted, the fault the repairs are for, and must load
/// with the same description, each repair reported; none of the corpus's skills loads otherwise.
#[test]
fn corpus_descriptions_unquoted_are_repaired_to_the_same_text() {
    let Some(shared) = common::shared_dir() else {
        eprintln!("../shared is not beside the repository; corpus test skipped");
        return;
    };
    let (mut tried, mut repaired) = (0, 0);
    for path in common::skill_files(&shared.join("corpus/skills")) {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let dir = path.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
        let opts = ParseOptions { dir_name: dir, ..Default::default() };
        let Some(before) = skillwasm::parse_skill(text.as_bytes(), &opts).skill else { continue };
        // A one-line description in double quotes, without escapes, that needs its quotes.
        let Some(line) = text.lines().find(|l| l.starts_with("description: \"") && l.ends_with('"')) else { continue };
        let inner = &line["description: \"".len()..line.len() - 1];
        let needs_quotes = inner.contains(": ") || inner.starts_with('[');
        if inner.contains(['"', '\\', '#']) || !needs_quotes || inner.ends_with(':') {
            continue;
        }
        tried += 1;
        let sloppy = text.replacen(line, &format!("description: {inner}"), 1);
        let r = skillwasm::parse_skill(sloppy.as_bytes(), &opts);
        let after = r.skill.as_ref().unwrap_or_else(|| panic!("{}: {:?}", path.display(), r.diagnostics));
        assert_eq!(after.description, before.description, "{}", path.display());
        if r.diagnostics.iter().any(|d| d.code.starts_with("yaml-repair-")) {
            repaired += 1;
        }
    }
    println!("corpus: {tried} quoted descriptions written unquoted, {repaired} repaired, all loaded as before");
    assert!(tried >= 10, "only {tried} descriptions to try");
    assert_eq!(repaired, tried);
}
