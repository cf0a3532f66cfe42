//! Parsing and repair, end to end through `parse_skill`, with the exact resulting values.

use super::fast;
use super::{parse_skill, parse_skill_in_place, Mode, ParseOptions, ParseResult, Skill};

fn lenient(src: &str) -> ParseResult {
    parse_skill(src.as_bytes(), &ParseOptions::default())
}

fn skill(src: &str) -> Skill {
    let r = lenient(src);
    r.skill.unwrap_or_else(|| panic!("no skill: {:?}", r.diagnostics))
}

fn codes(r: &ParseResult) -> Vec<&str> {
    r.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

fn fm(frontmatter: &str) -> String {
    format!("---\n{frontmatter}---\nBody\n")
}

#[test]
fn scalars_keep_their_own_text() {
    let s = skill(&fm("name: yes\ndescription: 123\nlicense: 1.10\nmetadata: {updated: 2026-01-02, version: 1.10}\n"));
    assert_eq!(s.name, "yes");
    assert_eq!(s.description, "123");
    assert_eq!(s.license.as_deref(), Some("1.10"));
    assert_eq!(s.metadata.get("updated").map(String::as_str), Some("2026-01-02"));
    let s = skill(&fm("name: 123\ndescription: d\nmetadata:\n  version: 1.10\n  enabled: true\n  nothing: ~\n"));
    assert_eq!(s.name, "123");
    assert_eq!(s.metadata.get("version").map(String::as_str), Some("1.10"));
    assert_eq!(s.metadata.get("enabled").map(String::as_str), Some("true"));
    assert_eq!(s.metadata.get("nothing").map(String::as_str), Some("~"));
}

#[test]
fn the_same_values_through_serde_yaml() {
    // A flow mapping at the top sends the file down the serde_yaml path; the text survives there too.
    let r = lenient(&fm("name: x\ndescription: d\nlicense: 1.10\nmetadata:\n  version: 2.0\nextra_map: {a: 1}\n"));
    let s = r.skill.clone().unwrap();
    assert_eq!(s.license.as_deref(), Some("1.10"));
    assert_eq!(s.metadata.get("version").map(String::as_str), Some("2.0"));
    assert_eq!(s.extra.get("extra_map"), Some(&serde_json::json!({"a": "1"})));
}

#[test]
fn keys_of_other_yaml_types_are_read_by_serde_yaml() {
    // `0:`, `true:` and `null:` are not string keys in YAML; the fast path leaves them to serde_yaml,
    // which the property test compares it with.
    for key in ["0", "1.5", "true", "null", "~"] {
        assert!(fast::read(&format!("{key}:\n")).is_err(), "{key}");
        let r = lenient(&fm(&format!("name: x\ndescription: d\nmetadata:\n  {key}: v\n")));
        assert!(r.skill.is_some(), "{key}: {:?}", codes(&r));
    }
    assert!(fast::read("yes:\n").is_ok(), "YAML 1.2: yes is a string");
}

#[test]
fn a_block_scalars_trailing_line_of_extra_spaces_is_read_by_serde_yaml() {
    // The four spaces are two of content past the block's indentation: `"- x\n  \n"`.
    let src = "name: |\n  - x\n    \n# comment\n";
    assert!(fast::read(src).is_err());
    assert!(fast::read("name: |\n  - x\n  \n# comment\n").is_ok(), "spaces to the block's indentation are blank");
    let r = lenient(&fm("name: x\ndescription: |\n  Does x.\n    \n"));
    assert_eq!(r.skill.map(|s| s.description), Some("Does x.".to_string()), "read, then trimmed as any description");
}

#[test]
fn all_fields_are_read() {
    let s = skill(&fm(concat!(
        "name: pdf-tools\n",
        "description: >\n  Work with PDF files.\n  Use when asked about PDFs.\n",
        "description_zh: 处理 PDF 文件\n",
        "license: MIT\n",
        "compatibility: Requires Python 3.11+\n",
        "allowed-tools: Bash(git add:*) Read Write\n",
        "argument-hint: \"[file] [mode]\"\n",
        "min_tier: ultra\n",
        "disable-model-invocation: true\n",
        "user-invocable: false\n",
        "model: opus\n",
        "metadata:\n  author: someone\n  zapvol:\n    dependencies:\n      python: [pandas]\n",
    )));
    assert_eq!(s.name, "pdf-tools");
    assert_eq!(s.description, "Work with PDF files. Use when asked about PDFs.");
    assert_eq!(s.localized_descriptions.get("zh").map(String::as_str), Some("处理 PDF 文件"));
    assert_eq!(s.license.as_deref(), Some("MIT"));
    assert_eq!(s.compatibility.as_deref(), Some("Requires Python 3.11+"));
    assert_eq!(s.allowed_tools, ["Bash(git add:*)", "Read", "Write"]);
    assert_eq!(s.argument_hint.as_deref(), Some("[file] [mode]"));
    assert_eq!(s.min_tier.as_deref(), Some("ultra"));
    assert!(s.disable_model_invocation);
    assert!(!s.user_invocable);
    assert_eq!(s.extra.get("model"), Some(&serde_json::json!("opus")));
    assert_eq!(s.metadata.get("author").map(String::as_str), Some("someone"));
    assert_eq!(s.metadata_structured.get("zapvol"), Some(&serde_json::json!({"dependencies": {"python": ["pandas"]}})));
    assert_eq!(s.metadata.get("zapvol").map(String::as_str), Some(r#"{"dependencies":{"python":["pandas"]}}"#));
    assert_eq!(s.body.as_deref(), Some("Body"));
}

#[test]
fn allowed_tools_in_every_shape() {
    let tools = |v: &str| skill(&fm(&format!("name: a\ndescription: d\nallowed-tools: {v}\n"))).allowed_tools;
    assert_eq!(tools("Read, Grep, Bash(git status:*)"), ["Read", "Grep", "Bash(git status:*)"]);
    assert_eq!(tools("[Read, \"Bash(npm run:*)\"]"), ["Read", "Bash(npm run:*)"]);
    assert_eq!(tools("Bash(jq:*) Bash(git:*)"), ["Bash(jq:*)", "Bash(git:*)"]);
    assert_eq!(tools("\n  - Read\n  - Edit"), ["Read", "Edit"]);
    assert_eq!(tools("\n- Read\n- Edit"), ["Read", "Edit"]);
}

#[test]
fn block_scalars_and_multiline_plain() {
    let d = |v: &str| skill(&fm(&format!("name: a\ndescription: {v}\n"))).description;
    assert_eq!(d("|\n  line one\n  line two\n\n  para"), "line one\nline two\n\npara");
    assert_eq!(d(">-\n  folded\n  text\n\n  next"), "folded text\nnext");
    assert_eq!(d("first line\n  continues here\n  and here"), "first line continues here and here");
    assert_eq!(d("'it''s quoted'"), "it's quoted");
    assert_eq!(d("\"esc \\\"q\\\" \\u00e9\""), "esc \"q\" é");
}

#[test]
fn repair_colon_in_value() {
    let r = lenient(&fm("name: pdf\ndescription: Use this skill when: the user asks about PDFs\n"));
    assert_eq!(r.skill.as_ref().unwrap().description, "Use this skill when: the user asks about PDFs");
    assert_eq!(codes(&r), ["yaml-repair-colon"]);
    assert_eq!(r.diagnostics[0].line, Some(3));
}

#[test]
fn repair_colon_with_continuation_lines() {
    let r = lenient(&fm(
        "name: pdf\ndescription: Use when: the user asks\n  about PDFs: forms, tables\n  and more\nlicense: MIT\n",
    ));
    let s = r.skill.clone().unwrap();
    assert_eq!(s.description, "Use when: the user asks about PDFs: forms, tables and more");
    assert_eq!(s.license.as_deref(), Some("MIT"));
}

#[test]
fn repair_values_starting_with_indicators() {
    let r = lenient(&fm("name: a\ndescription: d\nallowed-tools: *\nargument-hint: [file] [mode]\n"));
    let s = r.skill.as_ref().unwrap();
    assert_eq!(s.allowed_tools, ["*"]);
    assert_eq!(s.argument_hint.as_deref(), Some("[file] [mode]"));
    assert_eq!(codes(&r), ["yaml-repair-indicator", "yaml-repair-indicator"]);
    assert_eq!(r.diagnostics.iter().map(|d| d.line).collect::<Vec<_>>(), [Some(4), Some(5)]);

    let s = skill(&fm("name: a\ndescription: `code` is the topic\n"));
    assert_eq!(s.description, "`code` is the topic");
    let s = skill(&fm("name: a\ndescription: @mention the bot\n"));
    assert_eq!(s.description, "@mention the bot");
    let s = skill(&fm("name: a\ndescription: {braces} then text\n"));
    assert_eq!(s.description, "{braces} then text");
}

#[test]
fn repair_text_after_closing_quote() {
    let r = lenient(&fm("name: a\ndescription: \"Fill PDF forms\" when asked\n"));
    assert_eq!(r.skill.clone().unwrap().description, "\"Fill PDF forms\" when asked");
    assert_eq!(codes(&r), ["yaml-repair-text-after-quote"]);
}

#[test]
fn repair_block_indicator_with_text() {
    let r = lenient(&fm("name: a\ndescription: | Summarise logs\n  line two\nlicense: MIT\n"));
    let s = r.skill.clone().unwrap();
    assert_eq!(s.description, "Summarise logs\nline two");
    assert_eq!(s.license.as_deref(), Some("MIT"));
    assert_eq!(codes(&r), ["yaml-repair-block-indicator"]);
}

#[test]
fn repair_tab_indentation() {
    let r = lenient(&fm("name: a\ndescription: d\nmetadata:\n\tauthor: me\n\tversion: \"1\"\n"));
    let s = r.skill.clone().unwrap();
    assert_eq!(s.metadata.get("author").map(String::as_str), Some("me"));
    assert_eq!(s.metadata.get("version").map(String::as_str), Some("1"));
    assert_eq!(codes(&r), ["yaml-repair-tab-indent", "yaml-repair-tab-indent"]);
    assert_eq!(r.diagnostics[0].line, Some(5));
}

#[test]
fn repair_duplicate_keys_keeps_the_first() {
    let r = lenient(&fm("name: first\ndescription: d\nname: second\n"));
    assert_eq!(r.skill.as_ref().unwrap().name, "first");
    assert_eq!(codes(&r), ["yaml-duplicate-key"]);
    assert_eq!(r.diagnostics[0].line, Some(4));
    assert!(r.diagnostics[0].message.contains("line 2"), "{}", r.diagnostics[0].message);
}

#[test]
fn repair_inside_nested_metadata() {
    let r = lenient(&fm("name: a\ndescription: d\nmetadata:\n  short-description: Use when: asked\n  author: me\n"));
    let s = r.skill.clone().unwrap();
    assert_eq!(s.metadata.get("short-description").map(String::as_str), Some("Use when: asked"));
    assert_eq!(s.metadata.get("author").map(String::as_str), Some("me"));
    assert_eq!(r.diagnostics[0].line, Some(5));
}

#[test]
fn a_file_that_parses_is_never_repaired() {
    // Each of these is valid YAML that a repair pattern would otherwise match.
    let s = skill(&fm("name: a\ndescription: \"Use when: asked\"\nallowed-tools: [Read, Write]\n"));
    assert_eq!(s.description, "Use when: asked");
    assert_eq!(s.allowed_tools, ["Read", "Write"]);
    let r = lenient(&fm("name: a\ndescription: 'x' # comment\n"));
    assert_eq!(r.skill.clone().unwrap().description, "x");
    assert!(r.diagnostics.is_empty());
}

#[test]
fn strict_mode_does_not_repair() {
    let r = parse_skill(
        fm("name: a\ndescription: Use when: asked\n").as_bytes(),
        &ParseOptions { mode: Mode::Strict, ..Default::default() },
    );
    assert!(r.skill.is_none());
    assert_eq!(codes(&r), ["yaml-invalid"]);
    assert!(r.diagnostics[0].message.starts_with("Invalid YAML in frontmatter: "));
}

#[test]
fn unrepairable_yaml_is_an_error_with_a_line() {
    let r = lenient(&fm("name: a\ndescription: \"never closed\nlicense: MIT\n"));
    assert!(r.skill.is_none());
    assert_eq!(codes(&r), ["yaml-invalid"]);
    assert!(r.diagnostics[0].line.is_some());
    // The message counts lines of the file, as the diagnostic's line does.
    let strict = ParseOptions { mode: Mode::Strict, ..Default::default() };
    let r = parse_skill(b"---\n\nname: \"invalid\ndescription: broken\n---\n", &strict);
    let d = &r.diagnostics[0];
    assert_eq!(d.code, "yaml-invalid");
    assert!(d.message.contains("line 3 column 7"), "{}", d.message);
    // Strict mode refuses a blank line before the fence, as the reference does; lenient warns.
    let r = parse_skill(b"\n---\nname: a\ndescription: b\n---\n", &strict);
    assert_eq!(codes(&r), ["frontmatter-missing"]);
    assert_eq!(r.diagnostics[0].message, "SKILL.md must start with YAML frontmatter (---)");
    assert_eq!(codes(&lenient("\n---\nname: a\ndescription: b\n---\n")), ["leading-blank-lines"]);
    // Strict mode refuses flow collections with the reference's message; lenient reads them.
    let r = parse_skill(b"---\nname: a\ndescription: b\nmetadata:\n  tags: [x, y]\n---\n", &strict);
    assert_eq!(codes(&r), ["yaml-flow-collection"]);
    assert!(
        r.diagnostics[0].message.contains("line 5, column 9:\n      tags: [x, y]\n"),
        "{}",
        r.diagnostics[0].message
    );
    assert!(lenient("---\nname: a\ndescription: b\nmetadata:\n  tags: [x, y]\n---\n").skill.is_some());
    assert!(crate::parse::read_properties(b"---\nname: a\ndescription: b\ntags: [x]\n---\n").is_err());
}

#[test]
fn not_a_mapping() {
    let r = lenient("---\n- just\n- a\n- list\n---\nBody\n");
    assert_eq!(codes(&r), ["frontmatter-not-mapping"]);
    assert_eq!(r.diagnostics[0].message, "SKILL.md frontmatter must be a YAML mapping");
}

#[test]
fn hostile_inputs_are_refused_quickly() {
    let deep = format!("---\nname: a\ndescription: d\nx: {}{}\n---\n", "[".repeat(5000), "]".repeat(5000));
    let r = lenient(&deep);
    assert!(r.skill.is_none() && codes(&r) == ["yaml-invalid"], "{:?}", r.diagnostics);

    let mut laughs = String::from("---\nname: a\ndescription: d\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    let mut prev = 'a';
    for c in 'b'..='j' {
        laughs.push_str(&format!(
            "{c}: &{c} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
        ));
        prev = c;
    }
    laughs.push_str("---\n");
    let t = std::time::Instant::now();
    let r = lenient(&laughs);
    assert!(r.skill.is_none(), "{:?}", r.diagnostics);
    assert!(t.elapsed().as_secs() < 2);

    let big = format!("---\nname: a\ndescription: {}\n---\n", "x".repeat(1 << 20));
    assert_eq!(codes(&lenient(&big)), ["frontmatter-too-large"]);

    let garbage: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    let r = parse_skill(&garbage, &ParseOptions::default());
    assert!(r.skill.is_none() && !r.diagnostics.is_empty());
}

#[test]
fn prefix_parsing() {
    let file = fm("name: a\ndescription: d\n") + &"more body\n".repeat(1000);
    let opts = ParseOptions { partial: true, ..Default::default() };
    let r = parse_skill(&file.as_bytes()[..40], &opts);
    assert_eq!(r.skill.as_ref().map(|s| s.name.as_str()), Some("a"));
    assert_eq!(r.skill.as_ref().unwrap().body, None, "a prefix does not hand back a body fragment");
    let r = parse_skill(&file.as_bytes()[..15], &opts);
    assert!(r.incomplete && r.skill.is_none() && r.diagnostics.is_empty());
}

#[test]
fn include_body_false_leaves_the_body_out() {
    let r = parse_skill(
        fm("name: a\ndescription: d\n").as_bytes(),
        &ParseOptions { include_body: Some(false), ..Default::default() },
    );
    let s = r.skill.clone().unwrap();
    assert_eq!(s.body, None);
    assert_eq!(s.body_line, Some(5));
}

#[test]
fn a_body_in_place_is_the_range_of_the_input_that_parse_skill_copies() {
    let cases: [&[u8]; 6] = [
        b"---\nname: a\ndescription: d\n---\n\n  Body text.\n\n",
        b"\xef\xbb\xbf---\nname: a\ndescription: d\n---\nBody \xc3\xa9\n",
        b"---\r\nname: a\r\ndescription: d\r\n---\r\nline 1\r\nline 2\r\n",
        b"---\nname: a\ndescription: d\n---\nbad \xff byte\n",
        b"---\nname: a\ndescription: d\n---\n",
        b"---\nname: a\n---\nno description\n",
    ];
    for input in cases {
        let opts = ParseOptions { dir_name: Some("a".into()), ..ParseOptions::default() };
        let copied = parse_skill(input, &opts);
        let (mut placed, range) = parse_skill_in_place(input, &opts);
        if let (Some(r), Some(s)) = (range.clone(), placed.skill.as_mut()) {
            assert_eq!(s.body.as_deref(), Some(""), "the body is left for the caller to fill");
            s.body = std::str::from_utf8(&input[r]).ok().map(str::to_string);
        }
        assert_eq!(placed, copied, "{:?}", String::from_utf8_lossy(input));
        // A body with \r is normalised, so it is copied, never given as a range.
        if input.contains(&b'\r') {
            assert_eq!(range, None);
        }
    }
}

#[test]
fn read_properties_keeps_the_metadata_order_and_an_allowed_tools_list() {
    let props = super::read_properties(
        fm("name: a\ndescription: d\nallowed-tools:\n  - Read\n  - Bash(git:*)\nmetadata:\n  zeta: \"1\"\n  alpha: two\n").as_bytes(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let json = serde_json::to_string(&props).unwrap_or_default();
    assert_eq!(
        json,
        r#"{"name":"a","description":"d","allowed-tools":["Read","Bash(git:*)"],"metadata":{"zeta":"1","alpha":"two"}}"#
    );
    let props = super::read_properties(fm("name: a\ndescription: d\nallowed-tools: Read Write\n").as_bytes())
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        serde_json::to_string(&props).unwrap_or_default(),
        r#"{"name":"a","description":"d","allowed-tools":"Read Write"}"#
    );
}

#[test]
fn the_fast_path_calls_an_unquoted_colon_in_a_value_invalid_and_nothing_else() {
    use super::fast::{read, Refusal};
    for invalid in [
        "description: Use when: asked\n",
        "name: a\ndescription: a : b\n",
        "list:\n  - key: a: b\n",
        "metadata:\n  short: Use when: asked # note\n",
        "description: a#b: c\n",
    ] {
        assert_eq!(read(invalid).err(), Some(Refusal::Invalid), "{invalid:?}");
    }
    for beyond in [
        "description: \"Use when: asked\n  more\"\n",
        "description: [a: b]\n",
        "description: a\t: b\n",
        "description: &x a: b\n",
        "? description\n: a: b\n",
        "description: |2\n   x\nother: a: b\n",
    ] {
        assert_eq!(read(beyond).err(), Some(Refusal::Beyond), "{beyond:?}");
    }
    for fine in ["description: 'Use when: asked'\n", "description: a #b: c\n", "description: a:b\n", "d: |\n  a: b\n"] {
        assert!(read(fine).is_ok(), "{fine:?}");
    }
}

#[test]
fn an_unquoted_colon_is_repaired_as_before_and_refused_in_strict_mode() {
    let r = lenient(&fm("name: a\ndescription: Use when: asked\n"));
    assert_eq!(r.skill.as_ref().map(|s| s.description.as_str()), Some("Use when: asked"));
    assert_eq!(codes(&r), ["yaml-repair-colon"]);
    let strict = ParseOptions { mode: Mode::Strict, ..Default::default() };
    let r = parse_skill(fm("name: a\ndescription: Use when: asked\n").as_bytes(), &strict);
    assert!(r.skill.is_none());
    let d = r.diagnostics.iter().find(|d| d.code == "yaml-invalid").unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    assert!(d.message.contains("mapping values"), "{}", d.message);
    assert_eq!(d.line, Some(3));
}

#[test]
fn yaml_the_repairs_cannot_explain_is_refused_not_loaded_as_junk() {
    for junk in [
        // An unclosed flow sequence with a broken line under it, as one value or as two keys.
        "name: a\ndescription: [a, b\n  c: : :\n",
        "name: a\ndescription: [a, b\nc: : :\n",
        "name: a\ndescription: d\nc: : :\n",
        "name: a\ndescription: {a: b\n",
        "name: a\ndescription: `never closed\n",
        "name: a\ndescription: [a, b\n",
    ] {
        let r = lenient(&fm(junk));
        assert!(r.skill.is_none(), "{junk:?} loaded as {:?}", r.skill.as_ref().map(|s| &s.description));
        let e = r.diagnostics.iter().find(|d| d.is_error()).unwrap_or_else(|| panic!("{junk:?}: {:?}", r.diagnostics));
        assert_eq!(e.code, "yaml-invalid", "{junk:?}");
        assert!(e.line.is_some(), "{junk:?}");
    }
    // The faults the repairs are for still load, each as the text it meant.
    let d = |v: &str| skill(&fm(&format!("name: a\ndescription: {v}\n"))).description;
    assert_eq!(d("[WIP] Fill forms: any PDF"), "[WIP] Fill forms: any PDF");
    assert_eq!(d("{braces} then text"), "{braces} then text");
    assert_eq!(d("[a] [b]\n  more: text"), "[a] [b] more: text");
    assert_eq!(d("`code` is: the topic"), "`code` is: the topic");
    assert_eq!(d("Use when: x\n  or: y"), "Use when: x or: y");
}
