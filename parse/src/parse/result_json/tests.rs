use super::{value, write_result, SKILL_FIELDS, SKILL_VALUES};
use crate::parse::wire::{read_values, shapes};
use crate::parse::FieldMap;
use crate::{Diagnostic, ParseOptions, ParseResult, Skill};

use serde_json::{Map, Value};

/// The object `takeResults` (boundary.js) builds from a result's values, built the same way.
fn object_of(values: &[Value]) -> Value {
    let flags = values[0].as_u64().unwrap();
    assert!(flags < 4, "{flags}");
    let mut result = Map::new();
    let skill = if flags & 1 != 0 { Some(&values[1..=SKILL_VALUES]) } else { None };
    result.insert("skill".into(), skill.map_or(Value::Null, skill_of));
    let rest = &values[1 + skill.map_or(0, <[Value]>::len)..];
    assert_eq!(rest.len(), 1, "the diagnostics end the result");
    result.insert("diagnostics".into(), or_empty(&rest[0], Value::Array(Vec::new())));
    if flags & 2 != 0 {
        result.insert("incomplete".into(), Value::Bool(true));
    }
    Value::Object(result)
}

fn skill_of(a: &[Value]) -> Value {
    let mut s = Map::new();
    read_values(&shapes(SKILL_FIELDS), a, &mut s).expect("the values the declarations read");
    Value::Object(s)
}

/// `value`, or `empty` for the `0` that stands for an empty map or list.
fn or_empty(value: &Value, empty: Value) -> Value {
    if value == &Value::from(0) {
        empty
    } else {
        assert!(value.is_object() || value.is_array(), "{value}");
        value.clone()
    }
}

/// The text serde writes for `result`, and the object built from the array written here: the
/// same keys in the same order and the same values.
fn assert_same(result: &ParseResult) {
    let mut mine = Vec::new();
    write_result(&mut mine, result);
    assert!(mine.is_ascii(), "{}", String::from_utf8_lossy(&mine));
    let theirs = serde_json::to_string(result).unwrap();
    let values: Vec<Value> = serde_json::from_slice(&[b"[", mine.as_slice(), b"]"].concat()).unwrap();
    let a = object_of(&values);
    let b: serde_json::Value = serde_json::from_str(&theirs).unwrap();
    // preserve_order: the texts of the values read back compare the key order too.
    assert_eq!(a.to_string(), b.to_string());
}

#[test]
fn every_field_reads_back_as_serde_writes_it() {
    let odd = "a — b 😀 c\u{7f}\u{80}\u{0}\u{1f}\u{8}\u{c}\n\r\t\"\\/ end";
    let mut metadata = FieldMap::new();
    metadata.insert("__proto__".to_string(), odd.to_string());
    metadata.insert("é".to_string(), "1".to_string());
    let mut structured = FieldMap::new();
    structured.insert("x".to_string(), serde_json::json!({ "n": 1.5, "list": [1, "é", null, true] }));
    let skill = Skill {
        name: "n".into(),
        description: odd.into(),
        localized_descriptions: [("zh".to_string(), "中文".to_string())].into(),
        license: Some("MIT".into()),
        compatibility: Some(odd.into()),
        metadata,
        metadata_structured: structured.clone(),
        allowed_tools: vec!["Bash(git add:*)".into(), odd.into()],
        argument_hint: Some("[x]".into()),
        min_tier: Some("t".into()),
        disable_model_invocation: true,
        user_invocable: false,
        context: Some("fork".into()),
        agent: Some("Explore".into()),
        extra: structured,
        body: Some(odd.into()),
        body_line: Some(4_294_967_295),
    };
    let mut d = Diagnostic::warning("code-x", odd).at_line(Some(0));
    d.path = Some("a/b é".into());
    let full = ParseResult {
        skill: Some(skill),
        diagnostics: vec![d, Diagnostic::error("e", "m"), Diagnostic::new(crate::Severity::Info, "i", "")],
        incomplete: true,
    };
    assert_same(&full);
    assert_same(&ParseResult::default());
    assert_same(&ParseResult { skill: Some(Skill::default()), ..ParseResult::default() });
}

#[test]
fn the_corpus_reads_back_as_serde_writes_it() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/skills");
    let mut stack = vec![root];
    let mut seen = 0;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "SKILL.md") {
                let bytes = std::fs::read(&p).unwrap();
                for mode in [crate::Mode::Lenient, crate::Mode::Strict] {
                    let opts = ParseOptions { mode, dir_name: Some("x".into()), ..ParseOptions::default() };
                    assert_same(&crate::parse_skill(&bytes, &opts));
                }
                seen += 1;
            }
        }
    }
    eprintln!("{seen} corpus files compared");
}

#[test]
fn free_form_values_are_the_text_serde_json_writes() {
    let values = [
        serde_json::json!(null),
        serde_json::json!(true),
        serde_json::json!([false, 0, -1, u64::MAX, i64::MIN, 1.5, -0.0, 0.1, 1e300, 2.5e-8, 12345678.9]),
        serde_json::json!({ "d": "a — b 😀 c\u{7f}\u{80}\u{0}\n\"\\/", "k—": ["é", "plain", {}], "e": [], "z": { "a": { "b": [null] } } }),
        serde_json::json!("only text"),
    ];
    for v in &values {
        let mut ours = Vec::new();
        value(&mut ours, v, 0);
        let mut theirs = Vec::new();
        serde::Serialize::serialize(v, &mut serde_json::Serializer::with_formatter(&mut theirs, AsciiJson)).unwrap();
        // The one difference: DEL is escaped here too (as `string` writes every text).
        let theirs = String::from_utf8(theirs).unwrap().replace('\u{7f}', "\\u007f");
        assert_eq!(String::from_utf8(ours).unwrap(), theirs);
    }
    // Past the depth bound a list or map is null, and the writer does not recurse further.
    let mut deep = serde_json::json!(1);
    for _ in 0..100 {
        deep = serde_json::json!([deep]);
    }
    let mut out = Vec::new();
    value(&mut out, &deep, 0);
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with(&"[".repeat(64)) && text.contains("null") && !text.contains('1'), "{text}");
}

#[test]
fn ascii_json_escapes_beyond_ascii_and_reads_back_the_same() {
    let value = serde_json::json!({ "d": "a — b 😀 c\u{7f}\u{80}\n\"", "k—": ["é", "plain"] });
    let mut out = Vec::new();
    serde::Serialize::serialize(&value, &mut serde_json::Serializer::with_formatter(&mut out, AsciiJson)).unwrap();
    assert!(out.is_ascii(), "{}", String::from_utf8_lossy(&out));
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("\\u2014") && text.contains("\\ud83d\\ude00"), "{text}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
}

/// serde_json's own writer with every character beyond ASCII written as a `\u` escape: the
/// oracle the writer's free-form values are checked against.
struct AsciiJson;

impl serde_json::ser::Formatter for AsciiJson {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        while let Some(i) = rest.bytes().position(|b| !b.is_ascii()) {
            let (ascii, tail) = rest.split_at(i);
            writer.write_all(ascii.as_bytes())?;
            let mut chars = tail.chars();
            let Some(c) = chars.next() else { break };
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(writer, "\\u{unit:04x}")?;
            }
            rest = chars.as_str();
        }
        writer.write_all(rest.as_bytes())
    }
}
