//! Vetting measured: recall per class over the labelled malicious skills of
//! `tests/fixtures/vet/malicious/<class>/<skill>/`, no high finding on the benign look-alikes of
//! `tests/fixtures/vet/benign/`, and high findings on at most 1% of the real corpus
//! (../shared/corpus), each of them printed. A skill is read as `SkillRegistry#vet` reads it: its
//! SKILL.md and every resource (nested skills and hidden files left out), text files only.

mod common;

use skillwasm::discover::resource_paths;
use skillwasm::vet::{vet_text, Finding, Level};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The codes of each class of the labelled set.
const CLASSES: [(&str, &[&str]); 5] = [
    ("hidden", &["vet-tag-characters", "vet-bidi-controls", "vet-invisible-run", "vet-hidden-instructions"]),
    (
        "instructions",
        &[
            "vet-instruction-override",
            "vet-conceal-from-user",
            "vet-skip-confirmation",
            "vet-disable-safety",
            "vet-reveal-system-prompt",
            "vet-hidden-instructions",
        ],
    ),
    ("exfiltration", &["vet-exfiltration", "vet-remote-script", "vet-remote-script-insecure"]),
    ("scripts", &["vet-destructive-delete", "vet-permission-change", "vet-persistence", "vet-history-tampering"]),
    ("obfuscation", &["vet-exec-decoded", "vet-encoded-blob"]),
];

/// Every file of the skill at `dir` (relative paths), as the registry lists its resources.
fn skill_files(dir: &Path) -> Vec<String> {
    let mut rel = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file() {
                if let Ok(r) = p.strip_prefix(dir) {
                    rel.push(r.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    rel.sort();
    let mut out = vec!["SKILL.md".to_string()];
    out.extend(resource_paths(rel.iter().map(String::as_str).collect()).into_iter().map(str::to_string));
    out.truncate(512);
    out
}

/// The findings of the skill at `dir`.
fn vet_dir(dir: &Path) -> Vec<Finding> {
    let mut out = Vec::new();
    for rel in skill_files(dir) {
        let Ok(bytes) = std::fs::read(dir.join(&rel)) else { continue };
        if let Ok(text) = std::str::from_utf8(&bytes) {
            out.extend(vet_text(&rel, text));
        }
    }
    out
}

/// The skill directories under `root` (each holds a SKILL.md).
fn skill_dirs(root: &Path) -> Vec<PathBuf> {
    common::skill_files(root).into_iter().filter_map(|f| f.parent().map(Path::to_path_buf)).collect()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vet")
}

#[test]
fn recall_per_class_on_the_labelled_set() {
    let mut total = 0;
    for (class, codes) in CLASSES {
        let dirs = skill_dirs(&fixtures().join("malicious").join(class));
        assert!(dirs.len() >= 12, "{class}: {} skills", dirs.len());
        let mut missed = Vec::new();
        let mut high = 0;
        for dir in &dirs {
            let f = vet_dir(dir);
            let hit = f.iter().any(|x| codes.contains(&x.code.as_str()) && x.level >= Level::Medium);
            high += usize::from(f.iter().any(|x| x.level == Level::High));
            if !hit {
                missed.push(format!("{}: {:?}", dir.display(), f.iter().map(|x| &x.code).collect::<Vec<_>>()));
            }
        }
        let recall = (dirs.len() - missed.len()) as f64 / dirs.len() as f64;
        println!(
            "vet recall {class}: {}/{} = {recall:.2} (a finding of the class at medium or above); a high finding: {high}/{}",
            dirs.len() - missed.len(),
            dirs.len(),
            dirs.len()
        );
        for m in &missed {
            println!("  missed {m}");
        }
        assert!(recall >= 0.9, "{class}: recall {recall:.2}; missed {missed:#?}");
        total += dirs.len();
    }
    assert!(total >= 60, "{total} malicious skills");
}

#[test]
fn benign_look_alikes_have_no_high_finding() {
    let dirs = skill_dirs(&fixtures().join("benign"));
    assert!(dirs.len() >= 8, "{} benign skills", dirs.len());
    for dir in dirs {
        let high: Vec<Finding> = vet_dir(&dir).into_iter().filter(|f| f.level == Level::High).collect();
        assert!(high.is_empty(), "{}: {high:#?}", dir.display());
    }
}

#[test]
fn corpus_high_findings_on_at_most_one_percent() {
    let Some(shared) = common::shared_dir() else {
        eprintln!("../shared is not beside the repository; corpus test skipped");
        return;
    };
    let root = shared.join("corpus/skills");
    let dirs = skill_dirs(&root);
    assert!(dirs.len() > 700, "{} skills", dirs.len());
    let (mut with_high, mut with_any) = (0usize, 0usize);
    let mut by_code: BTreeMap<String, usize> = BTreeMap::new();
    let mut lines = Vec::new();
    for dir in &dirs {
        let f = vet_dir(dir);
        with_any += usize::from(!f.is_empty());
        for x in &f {
            *by_code.entry(format!("{} ({})", x.code, x.level.as_str())).or_default() += 1;
        }
        if std::env::var_os("VET_PRINT_ALL").is_some() {
            let name = dir.strip_prefix(&root).unwrap_or(dir).display().to_string();
            for x in &f {
                println!("  {} {name}/{}:{}: {}: {}", x.level.as_str(), x.path, x.line, x.code, x.message);
            }
        }
        let high: Vec<&Finding> = f.iter().filter(|x| x.level == Level::High).collect();
        if !high.is_empty() {
            with_high += 1;
            let name = dir.strip_prefix(&root).unwrap_or(dir).display().to_string();
            for x in high {
                lines.push(format!("{name}/{}:{}: {}: {}", x.path, x.line, x.code, x.message));
            }
        }
    }
    let rate = with_high as f64 / dirs.len() as f64;
    println!(
        "vet corpus: {} skills; a high finding on {with_high} ({:.2}%); any finding on {with_any}",
        dirs.len(),
        rate * 100.0
    );
    for (code, n) in &by_code {
        println!("  {code}: {n}");
    }
    for l in &lines {
        println!("  HIGH {l}");
    }
    assert!(rate <= 0.01, "a high finding on {with_high} of {} skills", dirs.len());
}
