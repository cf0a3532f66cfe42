use crate::diagnostic::Severity;
use crate::parse::{Mode, ParseOptions, ParseResult};

fn run(src: &str, dir: Option<&str>, mode: Mode) -> ParseResult {
    let opts = ParseOptions { dir_name: dir.map(str::to_string), mode, ..Default::default() };
    crate::parse::parse_skill(src.as_bytes(), &opts)
}
fn errors(r: &ParseResult) -> Vec<&str> {
    r.diagnostics.iter().filter(|d| d.severity == Severity::Error).map(|d| d.message.as_str()).collect()
}
fn warnings(r: &ParseResult) -> Vec<&str> {
    r.diagnostics.iter().filter(|d| d.severity == Severity::Warning).map(|d| d.code.as_str()).collect()
}

const BAD_NAME: &str = "---\nname: My--Skill_\ndescription: d\nfoo: 1\nbar: 2\ncompatibility: COMPAT\n---\n";

#[test]
fn strict_reports_the_reference_messages_in_order() {
    let src = BAD_NAME.replace("COMPAT", &"c".repeat(501));
    let r = run(&src, Some("other"), Mode::Strict);
    assert!(r.skill.is_none());
    assert_eq!(
        errors(&r),
        [
            "Unexpected fields in frontmatter: bar, foo. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
            "Skill name 'My--Skill_' must be lowercase",
            "Skill name cannot contain consecutive hyphens",
            "Skill name 'My--Skill_' contains invalid characters. Only letters, digits, and hyphens are allowed.",
            "Directory name 'other' must match skill name 'My--Skill_'",
            "Compatibility exceeds 500 character limit (501 chars)",
        ]
    );
}

#[test]
fn lenient_loads_the_same_skill_with_warnings() {
    let src = BAD_NAME.replace("COMPAT", &"c".repeat(501));
    let r = run(&src, Some("other"), Mode::Lenient);
    let s = r.skill.as_ref().expect("lenient loads it");
    assert_eq!(s.name, "My--Skill_");
    assert_eq!(
        warnings(&r),
        [
            "name-not-lowercase",
            "name-consecutive-hyphens",
            "name-invalid-chars",
            "name-dir-mismatch",
            "compatibility-too-long",
            "unknown-field",
            "unknown-field"
        ]
    );
    assert!(errors(&r).is_empty());
}

#[test]
fn lenient_refuses_only_without_a_description() {
    for src in ["---\nname: a\n---\n", "---\nname: a\ndescription: '  '\n---\n", "---\nname: a\ndescription:\n---\n"] {
        let r = run(src, Some("a"), Mode::Lenient);
        assert!(r.skill.is_none(), "{src}");
        assert_eq!(errors(&r).len(), 1, "{src}");
    }
    // A missing name falls back to the directory name, with a warning.
    let r = run("---\ndescription: d\n---\n", Some("dir-name"), Mode::Lenient);
    assert_eq!(r.skill.as_ref().map(|s| s.name.as_str()), Some("dir-name"));
    assert_eq!(warnings(&r), ["name-missing"]);
    // Without a directory to take it from, it is refused.
    assert!(run("---\ndescription: d\n---\n", None, Mode::Lenient).skill.is_none());
}

#[test]
fn long_fields_and_unicode_names() {
    let long_name = "a".repeat(70);
    let r = run(
        &format!("---\nname: {long_name}\ndescription: {}\n---\n", "x".repeat(1100)),
        Some(&long_name),
        Mode::Strict,
    );
    assert_eq!(
        errors(&r),
        [
            format!("Skill name '{long_name}' exceeds 64 character limit (70 chars)").as_str(),
            "Description exceeds 1024 character limit (1100 chars)"
        ]
    );
    // NFKC: a decomposed name matches a precomposed directory name.
    assert!(errors(&run("---\nname: cafe\u{301}\ndescription: d\n---\n", Some("caf\u{e9}"), Mode::Strict)).is_empty());
    assert!(errors(&run("---\nname: мой-навык\ndescription: d\n---\n", Some("мой-навык"), Mode::Strict)).is_empty());
    assert_eq!(
        errors(&run("---\nname: НАВЫК\ndescription: d\n---\n", Some("НАВЫК"), Mode::Strict)),
        ["Skill name 'НАВЫК' must be lowercase"]
    );
    assert_eq!(
        errors(&run("---\nname: -a\ndescription: d\n---\n", None, Mode::Strict)),
        ["Skill name cannot start or end with a hyphen"]
    );
}

#[test]
fn strict_treats_extension_fields_as_unexpected_lenient_reads_them() {
    let src = "---\nname: a\ndescription: d\nuser-invocable: false\n---\n";
    assert_eq!(errors(&run(src, None, Mode::Strict)).len(), 1);
    let r = run(src, None, Mode::Lenient);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert!(!r.skill.unwrap().user_invocable);
}

#[test]
fn wrong_types_are_warnings_in_lenient_mode() {
    let r = run(
        "---\nname: a\ndescription: d\nuser-invocable: maybe\nmetadata: [x]\ntools: Read\nlicense: [MIT]\n---\n",
        None,
        Mode::Lenient,
    );
    let s = r.skill.as_ref().unwrap();
    assert!(s.user_invocable);
    assert!(s.metadata.is_empty() && s.license.is_none());
    assert_eq!(warnings(&r), ["field-not-boolean", "metadata-not-mapping", "unknown-field", "field-not-string"]);
    assert!(r.diagnostics[2].message.contains("did you mean 'allowed-tools'"));
    assert_eq!(r.diagnostics[0].line, Some(4));
}

#[test]
fn metadata_values_that_are_not_strings_warn_and_keep_their_text() {
    let r = run("---\nname: a\ndescription: d\nmetadata:\n  version: 1.0\n  author: me\n---\n", None, Mode::Strict);
    assert!(errors(&r).is_empty());
    assert_eq!(r.skill.unwrap().metadata.get("version").map(String::as_str), Some("1.0"));
    assert_eq!(
        warnings(&run("---\nname: a\ndescription: d\nmetadata:\n  version: 1.0\n---\n", None, Mode::Lenient)),
        ["metadata-not-string"]
    );
}

#[test]
fn tools_split_on_spaces_or_commas_outside_parentheses() {
    assert_eq!(super::split_tools("Bash(git add:*) Read"), ["Bash(git add:*)", "Read"]);
    assert_eq!(super::split_tools(" Read,Write , Bash(a, b) "), ["Read", "Write", "Bash(a, b)"]);
    assert_eq!(super::split_tools(""), Vec::<String>::new());
    assert_eq!(super::split_tools("Bash(unclosed Read"), ["Bash(unclosed Read"]);
}

#[test]
fn unbalanced_allowed_tools_entries_are_reported_with_their_line() {
    let r = run(
        "---\nname: s\ndescription: d\nallowed-tools: Bash(git:* Read WebFetch(example.com)\n---\n",
        None,
        Mode::Lenient,
    );
    let d = r.diagnostics.iter().find(|d| d.code == "allowed-tools-invalid").expect("a diagnostic");
    assert_eq!(d.line, Some(4));
    assert!(d.message.contains("unbalanced"), "{}", d.message);
}
