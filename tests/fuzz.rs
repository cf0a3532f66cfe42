//! Property tests over parse + repair + validate: no input panics, every result is a skill or an
//! error, and whatever the fast YAML path accepts it reads exactly as serde_yaml does.
//! `PROPTEST_CASES` raises the number of cases for a longer run.

mod common;

use proptest::prelude::*;
use skillwasm::{Mode, ParseOptions, Severity};

/// Pieces real frontmatter is made of, and the characters that trip YAML up.
fn yaml_line() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("name".to_string()),
        Just("description".to_string()),
        Just("allowed-tools".to_string()),
        Just("metadata".to_string()),
        Just("license".to_string()),
        Just("user-invocable".to_string()),
        "[a-z_]{1,8}",
    ];
    let value = prop_oneof![
        "[a-zA-Z0-9 .,()*_-]{0,20}",
        "[ -~]{0,24}",
        Just("|".to_string()),
        Just(">-".to_string()),
        Just("| text".to_string()),
        Just("[a, b]".to_string()),
        Just("[x] [y]".to_string()),
        Just("*".to_string()),
        Just("'q''s'".to_string()),
        Just("\"a\\\"b\" tail".to_string()),
        Just("Use when: asked".to_string()),
        Just("1.10".to_string()),
        Just("~".to_string()),
        Just("true".to_string()),
        Just("&a [*a]".to_string()),
        Just("{k: v}".to_string()),
        "\\PC{0,12}",
    ];
    let indent = prop_oneof![Just(""), Just("  "), Just("    "), Just("\t"), Just("- "), Just("  - ")];
    prop_oneof![
        (indent.clone(), key, value).prop_map(|(i, k, v)| format!("{i}{k}: {v}")),
        (indent, "[ -~]{0,16}").prop_map(|(i, t)| format!("{i}{t}")),
        Just(String::new()),
        Just("# comment".to_string()),
    ]
}

fn frontmatter() -> impl Strategy<Value = String> {
    prop::collection::vec(yaml_line(), 0..12).prop_map(|lines| lines.join("\n") + "\n")
}

fn check(bytes: &[u8]) {
    for mode in [Mode::Lenient, Mode::Strict] {
        for partial in [false, true] {
            let opts = ParseOptions { dir_name: Some("x".into()), mode, partial, ..Default::default() };
            let r = skillwasm::parse_skill(bytes, &opts);
            let has_error = r.diagnostics.iter().any(|d| d.severity == Severity::Error);
            assert!(r.skill.is_some() != has_error || r.incomplete, "skill xor error: {:?}", r.diagnostics);
        }
    }
    let _ = skillwasm::read_properties(bytes);
}

/// 3,000 cases each in `make test`; `PROPTEST_CASES=...` for a longer run.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(3000);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn structured_frontmatter_never_panics_and_the_fast_path_agrees(fm in frontmatter(), body in "\\PC{0,40}") {
        let file = format!("---\n{fm}---\n{body}");
        check(file.as_bytes());
        common::differential(&fm);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check(&bytes);
        let mut framed = b"---\n".to_vec();
        framed.extend_from_slice(&bytes);
        framed.extend_from_slice(b"\n---\n");
        check(&framed);
    }

    #[test]
    fn any_prefix_of_a_file_is_safe(fm in frontmatter(), cut in 0usize..400) {
        let file = format!("---\n{fm}---\nbody");
        let bytes = file.as_bytes();
        let cut = cut.min(bytes.len());
        check(&bytes[..cut]);
    }
}
