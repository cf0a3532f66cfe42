//! The MCP client's rules over every SKILL.md of the corpus (../shared/corpus): an entry listing
//! the file (its frontmatter as a server renders it: every scalar as text, or typed the way a
//! YAML 1.2 reader types it) is taken, the file verifies against it, one changed byte does not,
//! and the head the store lists instead of the file gives discovery the same skill as the file.

mod common;

use serde_json::{json, Map, Value};
use skillwasm::diagnostic::codes;
use skillwasm::net::digest::sha256_digest;
use skillwasm::net::mcp::client::{parse_entry, parse_list_result, ReadOptions};
use skillwasm::net::mcp::verify::{compare_frontmatter, verify_file};
use skillwasm::parse::{fence, parse_frontmatter, validate::name_rules, Mode, ParseOptions};

/// The frontmatter of `bytes` with every scalar as its text (null as null).
fn text_frontmatter(bytes: &[u8]) -> Option<Map<String, Value>> {
    let split = fence::split(bytes, false).ok()?;
    let (fields, _) = parse_frontmatter(split.frontmatter(), split.first_line, Mode::Lenient).ok()?;
    Some(fields.into_iter().map(|f| (f.key, f.value.to_json())).collect())
}

/// The frontmatter of `bytes` typed by serde_yaml (numbers, booleans, null), when it parses as is.
fn typed_frontmatter(bytes: &[u8]) -> Option<Map<String, Value>> {
    let split = fence::split(bytes, false).ok()?;
    match serde_yaml::from_str::<Value>(split.frontmatter()).ok()? {
        Value::Object(m) => Some(m),
        _ => None,
    }
}

fn entry(path: &str, frontmatter: &Map<String, Value>, bytes: &[u8]) -> Value {
    let uri = format!("skill://{path}/SKILL.md");
    json!({ "uri": uri, "frontmatter": frontmatter, "resources": [{ "uri": uri, "digest": sha256_digest(bytes), "size": bytes.len() }] })
}

#[test]
fn every_corpus_skill_verifies_against_its_entry_and_its_head_is_the_file_for_discovery() {
    let Some(shared) = common::shared_dir() else {
        eprintln!("../shared is missing: skipped");
        return;
    };
    let files = common::skill_files(&shared.join("corpus").join("skills"));
    assert!(files.len() > 700, "only {} SKILL.md files", files.len());
    let (mut served, mut typed, mut failures) = (0usize, 0usize, Vec::new());
    let opts = ReadOptions::default();
    for file in &files {
        let bytes = std::fs::read(file).unwrap_or_default();
        let Some(fm) = text_frontmatter(&bytes) else { continue };
        // A server serves a skill under its name; names the specification refuses are not served.
        let Some(name) = fm.get("name").and_then(Value::as_str).filter(|n| name_rules(n, None).is_empty()) else {
            continue;
        };
        if !fm.get("description").is_some_and(Value::is_string) {
            continue;
        }
        let path = format!("corpus/{name}");
        let skill = match parse_entry(&entry(&path, &fm, &bytes), &opts) {
            Ok(s) => s,
            Err(d) => {
                failures.push(format!("{}: entry refused: {}", file.display(), d.message));
                continue;
            }
        };
        served += 1;
        if let Err(d) = verify_file(&skill, &skill.key, &bytes) {
            failures.push(format!("{}: {}", file.display(), d.message));
        }
        let mut changed = bytes.clone();
        if let Some(b) = changed.last_mut() {
            *b ^= 1;
        }
        let refused = verify_file(&skill, &skill.key, &changed).err().map(|d| d.code);
        if refused.as_deref() != Some(codes::MCP_DIGEST_MISMATCH) {
            failures.push(format!("{}: a changed byte was not refused ({refused:?})", file.display()));
        }
        // The head discovery reads stands for the file: the same skill, field for field.
        let meta =
            ParseOptions { dir_name: Some(name.to_string()), include_body: Some(false), ..ParseOptions::default() };
        // (Only the body's line differs: the head is not the file's text.)
        let without_line = |s: Option<skillwasm::Skill>| s.map(|s| skillwasm::Skill { body_line: None, ..s });
        let from_file = without_line(skillwasm::parse_skill(&bytes, &meta).skill);
        let from_head = without_line(skillwasm::parse_skill(skill.head.as_bytes(), &meta).skill);
        if from_file != from_head {
            failures.push(format!(
                "{}: the head gives another skill:\n{:?}\n{:?}",
                file.display(),
                from_file,
                from_head
            ));
        }
        // A server that types scalars (numbers, booleans) lists a frontmatter that still verifies.
        if let Some(t) = typed_frontmatter(&bytes) {
            typed += 1;
            if let Err(why) = compare_frontmatter(&t, &bytes) {
                failures.push(format!("{}: typed frontmatter: {why}", file.display()));
            }
        }
    }
    eprintln!("{served} corpus skills served, {typed} with typed frontmatter too");
    assert!(served > 600, "only {served} corpus skills could be served");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_page_of_the_whole_corpus_keeps_every_entry_apart() {
    let Some(shared) = common::shared_dir() else { return };
    let files = common::skill_files(&shared.join("corpus").join("skills"));
    let mut entries = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let bytes = std::fs::read(file).unwrap_or_default();
        let Some(fm) = text_frontmatter(&bytes) else { continue };
        let Some(name) = fm.get("name").and_then(Value::as_str).filter(|n| name_rules(n, None).is_empty()) else {
            continue;
        };
        if fm.get("description").is_some_and(Value::is_string) {
            // Same-named skills of the corpus sit at distinct paths, as a server would serve them.
            entries.push(entry(&format!("s{i}/{name}"), &fm, &bytes));
        }
    }
    let n = entries.len();
    let page = parse_list_result(
        &json!({ "resultType": "complete", "skills": entries, "ttlMs": 0, "cacheScope": "public" }),
        &ReadOptions::default(),
    );
    assert!(page.diagnostics.is_empty(), "{:?}", page.diagnostics.first());
    assert_eq!(page.skills.len(), n);
    assert!(page.next_cursor.is_none());
}
