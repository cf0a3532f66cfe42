use super::*;

fn set_of(files: &[(&str, &str)]) -> IgnoreSet {
    let mut set = IgnoreSet::default();
    for (base, text) in files {
        set.add(Gitignore::parse(base, text));
    }
    set
}

fn ignored(text: &str, path: &str, is_dir: bool) -> bool {
    Gitignore::parse("", text).decide(path, is_dir) == Some(true)
}

#[test]
fn names_match_at_any_depth_and_anchors_pin_them() {
    assert!(ignored("build", "build", true));
    assert!(ignored("build", "a/b/build", true));
    assert!(ignored("build", "a/build", false));
    assert!(ignored("/build", "build", true));
    assert!(!ignored("/build", "a/build", true));
    assert!(ignored("a/build", "a/build", true));
    assert!(!ignored("a/build", "x/a/build", true), "a middle slash anchors");
    assert!(ignored("*.log", "logs/x.log", false));
    assert!(!ignored("*.log", "x.log.txt", false));
    assert!(ignored("draft-?", "s/draft-1", true));
    assert!(!ignored("draft-?", "s/draft-12", true));
}

#[test]
fn directories_only_with_a_trailing_slash() {
    assert!(ignored("cache/", "cache", true));
    assert!(!ignored("cache/", "cache", false));
    assert!(ignored("skills/wip/", "skills/wip", true));
}

#[test]
fn double_stars() {
    assert!(ignored("**/tmp", "tmp", true));
    assert!(ignored("**/tmp", "a/b/tmp", true));
    assert!(ignored("a/**/b", "a/b", true));
    assert!(ignored("a/**/b", "a/x/y/b", true));
    assert!(!ignored("a/**/b", "c/a/x/b", true));
    assert!(ignored("a/**", "a/x", true));
    assert!(ignored("a/**", "a/x/y/SKILL.md", false));
    assert!(!ignored("a/**", "a", true), "a/** is what is inside a, not a");
    assert!(ignored("a**b", "axyb", false), "** inside a segment is a star");
}

#[test]
fn classes_escapes_comments_and_spaces() {
    assert!(ignored("[abc]-skill", "b-skill", true));
    assert!(!ignored("[!abc]-skill", "b-skill", true));
    assert!(ignored("[!abc]-skill", "d-skill", true));
    assert!(ignored("v[0-9]", "v7", true));
    assert!(ignored("\\#hash", "#hash", true));
    assert!(ignored("\\!bang", "!bang", true));
    assert!(!ignored("# a comment", "# a comment", true));
    assert!(ignored("trail   ", "trail", true));
    assert!(ignored("sp\\ ", "sp ", true));
    assert!(ignored("[unclosed", "[unclosed", true));
    assert!(ignored("x\r", "x", true), "CRLF files");
}

#[test]
fn negation_later_rule_wins() {
    let g = Gitignore::parse("", "*\n!keep\n");
    assert_eq!(g.decide("keep", true), Some(false));
    assert_eq!(g.decide("drop", true), Some(true));
    let g = Gitignore::parse("", "!keep\n*\n");
    assert_eq!(g.decide("keep", true), Some(true));
    assert_eq!(Gitignore::parse("", "# nothing\n\n").decide("x", true), None);
}

#[test]
fn a_path_inside_an_excluded_directory_stays_ignored() {
    let mut set = set_of(&[("", "wip/\n!wip/keep/\n")]);
    assert!(set.is_ignored("wip/keep/SKILL.md"));
    let mut set = set_of(&[("", "wip/*\n!wip/keep/\n")]);
    assert!(!set.is_ignored("wip/keep/SKILL.md"), "the directory itself was not excluded");
    assert!(set.is_ignored("wip/other/SKILL.md"));
}

#[test]
fn deeper_files_override_and_apply_only_below_themselves() {
    let mut set = set_of(&[("s/team", "!drafts/\nold-*\n"), ("", "drafts/\n")]);
    assert!(set.is_ignored("s/drafts/x/SKILL.md"));
    assert!(!set.is_ignored("s/team/drafts/x/SKILL.md"));
    assert!(set.is_ignored("s/team/old-pdf/SKILL.md"));
    assert!(!set.is_ignored("s/old-pdf/SKILL.md"), "a file applies only below its directory");
    assert!(!set.is_ignored("s/teamx/old-pdf/SKILL.md"));
}

#[test]
fn which_files_are_read() {
    let listed = vec![
        ".agents/skills".to_string(),
        ".agents/skills/group".to_string(),
        ".agents/skills/other".to_string(),
        ".agents/skills/group/pdf".to_string(),
    ];
    let dirs = directories_to_read(".agents/skills/", &[".agents/skills/group/pdf"], &listed);
    // Above the root (tried), the root and the parents of the skill directory (listed); not the
    // skill's own directory, nor a sibling.
    assert_eq!(dirs, ["", ".agents", ".agents/skills", ".agents/skills/group"]);
    assert_eq!(directories_to_read("", &["a"], &["".to_string()]), [""]);
}

#[test]
fn hostile_patterns_stay_cheap() {
    let text = format!("{}\n", "*a".repeat(2000));
    let g = Gitignore::parse("", &text);
    let name = "a".repeat(3000) + "b";
    assert_eq!(g.decide(&name, false), None);
    let deep = vec!["**"; 500].join("/") + "/x";
    let g = Gitignore::parse("", &deep);
    assert_eq!(g.decide(&["d"; 200].join("/"), true), None);
}

#[test]
fn many_files_and_skills_stay_linear() {
    // 20,000 skills, each group with a .gitignore of its own: the lookups go by directory.
    let mut set = IgnoreSet::default();
    let mut listed = Vec::new();
    let mut dirs = Vec::new();
    for g in 0..2000 {
        set.add(Gitignore::parse(&format!("s/g{g}"), "wip-*\n"));
        listed.push(format!("s/g{g}"));
        for k in 0..10 {
            dirs.push(format!("s/g{g}/{}-{k}", if k == 0 { "wip" } else { "ok" }));
        }
    }
    let refs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    assert_eq!(directories_to_read("s/", &refs, &listed).len(), 2001, "\"\" above the root, then each group");
    let ignored = dirs.iter().filter(|d| set.is_ignored(&format!("{d}/SKILL.md"))).count();
    assert_eq!(ignored, 2000);
}
