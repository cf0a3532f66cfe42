use super::*;
use crate::net::digest::sha256_digest;
use serde_json::json;

fn res(uri: &str, body: &str) -> Value {
    json!({ "uri": uri, "digest": sha256_digest(body.as_bytes()), "size": body.len() })
}

fn skill(path: &str, name: &str) -> Value {
    let uri = format!("skill://{path}/SKILL.md");
    json!({
        "uri": uri,
        "frontmatter": { "name": name, "description": "d", "license": "MIT" },
        "resources": [res(&uri, "x"), res(&format!("skill://{path}/refs/a.md"), "a")],
        "somethingNew": { "ignored": true },
    })
}

const OPTS: ReadOptions = ReadOptions { dynamic: false };

#[test]
fn a_page_is_read_into_entries_with_keys() {
    let page = parse_list_result(
        &json!({ "resultType": "complete", "skills": [skill("acme/refunds", "refunds"), skill("git", "git")], "nextCursor": "2", "ttlMs": 1 }),
        &OPTS,
    );
    assert!(page.diagnostics.is_empty(), "{:?}", page.diagnostics);
    assert_eq!(page.next_cursor.as_deref(), Some("2"));
    let s = page.skills.first().unwrap();
    assert_eq!((s.key.as_str(), s.name.as_str()), ("acme/refunds/SKILL.md", "refunds"));
    assert_eq!(
        s.files.iter().map(|f| f.key.as_str()).collect::<Vec<_>>(),
        ["acme/refunds/SKILL.md", "acme/refunds/refs/a.md"]
    );
    assert!(s.head.starts_with("---\nname: refunds\n") && s.head.ends_with("---\n"), "{}", s.head);
    // The head parses to the listed frontmatter.
    assert_eq!(crate::net::mcp::verify::compare_frontmatter(&s.frontmatter, s.head.as_bytes()), Ok(()));
}

#[test]
fn a_bad_entry_costs_only_itself() {
    let mut wrong_name = skill("a/b", "b");
    wrong_name["frontmatter"]["name"] = json!("c");
    let mut outside = skill("x", "x");
    outside["resources"][1]["uri"] = json!("skill://y/a.md");
    let mut bad_digest = skill("d", "d");
    bad_digest["resources"][0]["digest"] = json!("sha256:ABC");
    let mut no_md = skill("e", "e");
    no_md["resources"].as_array_mut().unwrap().remove(0);
    let mut too_many = skill("f", "f");
    too_many["resources"] =
        Value::Array((0..=MAX_SKILL_FILES).map(|i| res(&format!("skill://f/{i}.md"), "x")).collect());
    let mut too_big = skill("g", "g");
    too_big["resources"][1]["size"] = json!(MAX_SKILL_BYTES);
    let mut dynamic = skill("h", "h");
    dynamic["resources"] = json!("dynamic");
    let mut none = skill("i", "i");
    none.as_object_mut().unwrap().remove("resources");
    let entries = vec![
        wrong_name,
        outside,
        bad_digest,
        no_md,
        too_many,
        too_big,
        dynamic.clone(),
        none,
        json!({ "uri": "https://x/SKILL.md", "frontmatter": {}, "resources": [] }),
        json!(7),
        skill("ok", "ok"),
        skill("ok", "ok"),
    ];
    let page = parse_list_result(&json!({ "skills": entries }), &OPTS);
    assert_eq!(page.skills.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["ok"]);
    let codes_of: Vec<&str> = page.diagnostics.iter().map(|d| d.code.as_str()).collect();
    use codes::*;
    assert_eq!(
        codes_of,
        [
            SKILL_URI_NAME_MISMATCH,
            MCP_ENTRY_INVALID,
            MCP_ENTRY_INVALID,
            MCP_ENTRY_INVALID,
            MCP_SKILL_TOO_LARGE,
            MCP_SKILL_TOO_LARGE,
            MCP_SKILL_DYNAMIC,
            MCP_ENTRY_INVALID,
            SKILL_URI_INVALID,
            MCP_ENTRY_INVALID,
            MCP_ENTRY_DUPLICATE
        ]
    );
    assert_eq!(page.diagnostics.first().and_then(|d| d.path.as_deref()), Some("skill://a/b/SKILL.md"));
    // Dynamic entries are taken when asked for, with no files.
    let taken = parse_list_result(&json!({ "skills": [dynamic] }), &ReadOptions { dynamic: true });
    let d = taken.skills.first().unwrap();
    assert!(d.dynamic && d.files.is_empty());
    assert_eq!(parse_list_result(&json!({ "skill": [] }), &OPTS).diagnostics.first().unwrap().code, MCP_RESULT_INVALID);
}

#[test]
fn a_changed_digest_is_a_changed_etag() {
    let a = parse_entry(&skill("s", "s"), &OPTS).unwrap();
    let mut changed = skill("s", "s");
    changed["resources"][1] = res("skill://s/refs/a.md", "b");
    let b = parse_entry(&changed, &OPTS).unwrap();
    assert_ne!(a.etag, b.etag);
    assert_eq!(a.etag, parse_entry(&skill("s", "s"), &OPTS).unwrap().etag);
}

#[test]
fn get_results() {
    let got = parse_get_result(&json!({ "resultType": "complete", "skill": skill("a/b", "b") }), &OPTS).unwrap();
    assert_eq!(got.uri, "skill://a/b/SKILL.md");
    assert_eq!(parse_get_result(&json!({}), &OPTS).err().map(|d| d.code).as_deref(), Some(codes::MCP_RESULT_INVALID));
}
