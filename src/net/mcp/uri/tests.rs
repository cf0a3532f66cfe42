use super::*;
use crate::diagnostic::codes;

fn code(r: Result<String, Diagnostic>) -> String {
    r.err().map(|d| d.code).unwrap_or_default()
}

#[test]
fn formats_the_seps_examples() {
    assert_eq!(format_skill_uri("git-workflow"), "skill://git-workflow/SKILL.md");
    assert_eq!(format_file_uri("pdf-processing", "references/FORMS.md"), "skill://pdf-processing/references/FORMS.md");
    assert_eq!(format_skill_uri("acme/billing/refunds"), "skill://acme/billing/refunds/SKILL.md");
    assert_eq!(
        format_file_uri("acme/billing/refunds", "examples/email.md"),
        "skill://acme/billing/refunds/examples/email.md"
    );
    assert_eq!(format_directory_uri("pdf-processing", ""), "skill://pdf-processing");
    assert_eq!(format_directory_uri("pdf-processing", "templates"), "skill://pdf-processing/templates");
}

#[test]
fn encodes_what_must_be_encoded() {
    assert_eq!(format_file_uri("s", "a b/c#d?.md"), "skill://s/a%20b/c%23d%3F.md");
    assert_eq!(format_file_uri("s", "100%.txt"), "skill://s/100%25.txt");
    assert_eq!(format_file_uri("s", "é.md"), "skill://s/%C3%A9.md");
    assert_eq!(format_skill_uri("team:x@y/s"), "skill://team%3Ax%40y/s/SKILL.md");
}

#[test]
fn parses_back_what_it_formats() {
    for (skill, file) in [
        ("git-workflow", "SKILL.md"),
        ("acme/billing/refunds", "examples/email.md"),
        ("s", "a b/c#d?.md"),
        ("s", "100%.txt"),
        ("s", "é/ü.md"),
        ("team:x@y/s", "x"),
    ] {
        let uri = format_file_uri(skill, file);
        let path = parse_resource_uri(&uri).unwrap_or_default();
        assert_eq!(path, format!("{skill}/{file}"), "{uri}");
        assert_eq!(relative_to(&path, skill), Some(file));
    }
    assert_eq!(parse_skill_uri("skill://acme/billing/refunds/SKILL.md").ok().as_deref(), Some("acme/billing/refunds"));
    assert_eq!(parse_skill_uri("SKILL://git-workflow/SKILL.md").ok().as_deref(), Some("git-workflow"));
    assert_eq!(parse_resource_uri("skill://pdf-processing").ok().as_deref(), Some("pdf-processing"));
}

#[test]
fn refuses_what_the_rules_refuse() {
    for uri in [
        "https://git-workflow/SKILL.md",
        "skill:/git-workflow/SKILL.md",
        "skill:git-workflow/SKILL.md",
        "skill://",
        "skill:///SKILL.md",
        "skill://a//SKILL.md",
        "skill://a/",
        "skill://a/../b/SKILL.md",
        "skill://a/./SKILL.md",
        "skill://a/%2e%2E/SKILL.md",
        "skill://a/%2F/SKILL.md",
        "skill://a/%5c/SKILL.md",
        "skill://a/%00/SKILL.md",
        "skill://a/%zz/SKILL.md",
        "skill://a/%4/SKILL.md",
        "skill://a/%FF/SKILL.md",
        "skill://a/b c/SKILL.md",
        "skill://a/b\\c/SKILL.md",
        "skill://a/SKILL.md?x=1",
        "skill://a/SKILL.md#top",
        "skill://user@a/SKILL.md",
        "skill://a:80/SKILL.md",
    ] {
        assert_eq!(code(parse_resource_uri(uri)), codes::SKILL_URI_INVALID, "{uri}");
        assert_eq!(code(parse_skill_uri(uri)), codes::SKILL_URI_INVALID, "{uri}");
    }
}

#[test]
fn a_skill_uri_names_skill_md_below_a_valid_name() {
    for uri in [
        "skill://SKILL.md",
        "skill://a/b/README.md",
        "skill://a/skill.md",
        "skill://acme/Refunds/SKILL.md",
        "skill://acme/-refunds/SKILL.md",
        "skill://acme/re--funds/SKILL.md",
        "skill://acme/re_funds/SKILL.md",
        "skill://acme/billing",
    ] {
        assert_eq!(code(parse_skill_uri(uri)), codes::SKILL_URI_INVALID, "{uri}");
    }
    // A prefix segment is the server's to choose; only the last one is a name.
    assert!(parse_skill_uri("skill://Acme_Corp/v2.1/refunds/SKILL.md").is_ok());
}

#[test]
fn bounds_length_and_depth() {
    let long = format!("skill://{}/SKILL.md", "a".repeat(MAX_URI_BYTES));
    assert_eq!(code(parse_resource_uri(&long)), codes::SKILL_URI_INVALID);
    let deep = format!("skill://{}SKILL.md", "a/".repeat(MAX_URI_SEGMENTS));
    assert_eq!(code(parse_resource_uri(&deep)), codes::SKILL_URI_INVALID);
    let ok = format!("skill://{}SKILL.md", "a/".repeat(MAX_URI_SEGMENTS - 1));
    assert!(parse_skill_uri(&ok).is_ok());
}

#[test]
fn names_must_match_the_last_segment() {
    assert!(check_name("acme/billing/refunds", "refunds").is_ok());
    let err = check_name("acme/billing/refunds", "chargebacks").err().map(|d| d.code);
    assert_eq!(err.as_deref(), Some(codes::SKILL_URI_NAME_MISMATCH));
    assert_eq!(skill_name("acme/billing/refunds"), "refunds");
    assert_eq!(skill_name("git-workflow"), "git-workflow");
}

#[test]
fn relative_paths_stay_inside_the_skill() {
    assert_eq!(relative_to("acme/refunds/a.md", "acme/refunds"), Some("a.md"));
    assert_eq!(relative_to("acme/refunds", "acme/refunds"), Some(""));
    assert_eq!(relative_to("acme/refunds-old/a.md", "acme/refunds"), None);
    assert_eq!(relative_to("acme/a.md", "acme/refunds"), None);
}
