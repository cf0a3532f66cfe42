//! The MCP Skills extension's server side over a real registry (a memory store): complete
//! manifests whose digests and sizes are those of the bytes `resources/read` serves, pagination,
//! `skills/get` for a skill the listing leaves out, directory reads, the limits and `-32602`.

use futures_executor::block_on;
use serde_json::{json, Value};
use skillwasm::host::{resolve_scopes, ScopeSpec, SkillHost, SkillsConfig};
use skillwasm::net::digest::sha256_digest;
use skillwasm::net::mcp::{McpOptions, SkillsMcp, INVALID_PARAMS, MAX_RESOURCES_PER_SKILL};
use skillwasm::search::encode::unbase64;
use skillwasm::store::{MemoryStorage, Storage};
use std::cell::RefCell;
use std::rc::Rc;

fn md(name: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n{extra}---\n# {name}\n")
}

fn files() -> Vec<(String, Vec<u8>)> {
    let mut f: Vec<(String, Vec<u8>)> = vec![
        ("alpha/SKILL.md".into(), md("alpha", "license: MIT\nversion: 2\nmetadata:\n  team: docs\n").into()),
        ("alpha/references/guide.md".into(), b"# Guide\r\nline\n".to_vec()),
        ("alpha/scripts/run.py".into(), b"print('hi')\n".to_vec()),
        ("alpha/assets/logo.png".into(), b"\x89PNG\r\n\x1a\n\0\0\xff".to_vec()),
        ("alpha/node_modules/x/index.js".into(), b"skipped".to_vec()),
        ("alpha/.env".into(), b"SECRET=1".to_vec()),
        ("alpha/inner/SKILL.md".into(), md("inner", "").into()),
        ("user-only/SKILL.md".into(), md("user-only", "disable-model-invocation: true\n").into()),
    ];
    for n in ["beta", "gamma", "delta", "epsilon"] {
        f.push((format!("{n}/SKILL.md"), md(n, "").into()));
    }
    f.push(("huge/SKILL.md".into(), md("huge", "").into()));
    for i in 0..MAX_RESOURCES_PER_SKILL {
        f.push((format!("huge/f/{i:04}.txt"), b"x".to_vec()));
    }
    f
}

fn server(page_size: u32) -> SkillsMcp {
    let config = SkillsConfig::default();
    let storage: Rc<dyn Storage> = Rc::new(MemoryStorage::new(files()));
    let spec =
        ScopeSpec { name: "user".into(), storage, roots: Some(vec![String::new()]), trusted: None, location: None };
    let scopes = resolve_scopes(&[spec], &config).expect("scopes");
    let host = block_on(SkillHost::discover(scopes, config));
    SkillsMcp::new(Rc::new(RefCell::new(host)), McpOptions { page_size, ..McpOptions::default() })
}

fn to_json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("json")
}

/// The bytes a `resources/read` result carries.
fn served_bytes(mcp: &SkillsMcp, uri: &str) -> Vec<u8> {
    let read = block_on(mcp.read_resource(uri)).expect("read");
    let c = &read.contents[0];
    match (&c.text, &c.blob) {
        (Some(t), None) => t.as_bytes().to_vec(),
        (None, Some(b)) => unbase64(b).expect("base64"),
        _ => panic!("one of text or blob"),
    }
}

#[test]
fn pages_through_every_listed_skill_and_every_digest_is_of_the_served_bytes() {
    let mcp = server(2);
    let (mut names, mut cursor, mut pages) = (Vec::new(), None::<String>, 0);
    loop {
        let page = block_on(mcp.list_skills(cursor.as_deref())).expect("page");
        let v = to_json(&page);
        assert_eq!(v["resultType"], "complete");
        assert_eq!(v["ttlMs"], 60_000);
        assert_eq!(v["cacheScope"], "private");
        assert!(page.skills.len() <= 2);
        for s in &page.skills {
            names.push(s.frontmatter["name"].as_str().unwrap_or_default().to_string());
            assert_eq!(s.resources[0].uri, s.uri);
            for r in &s.resources {
                let bytes = served_bytes(&mcp, &r.uri);
                assert_eq!(r.size, bytes.len() as u64, "{}", r.uri);
                assert_eq!(r.digest, sha256_digest(&bytes), "{}", r.uri);
            }
        }
        pages += 1;
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    // The user-only skill is not listed; the skill over the limits is left out and noted.
    // inner, nested in alpha, is a skill of its own after being one of alpha's files.
    assert_eq!(names, ["alpha", "beta", "delta", "epsilon", "gamma", "inner"]);
    // Seven skills are offered at two a page; huge is dropped from its page, not moved.
    assert_eq!(pages, 4);
    let noted = mcp.diagnostics();
    assert!(noted.iter().any(|d| d.code == "mcp-skill-too-large" && d.path.as_deref() == Some("huge")), "{noted:?}");
}

#[test]
fn an_entry_is_a_complete_manifest_with_the_frontmatter_verbatim() {
    let mcp = server(50);
    let got = to_json(&block_on(mcp.get_skill("skill://alpha/SKILL.md")).expect("alpha"));
    assert_eq!(got["resultType"], "complete");
    assert_eq!(
        got["skill"]["frontmatter"],
        json!({ "name": "alpha", "description": "The alpha skill.", "license": "MIT", "version": 2, "metadata": { "team": "docs" } })
    );
    let uris: Vec<&str> =
        got["skill"]["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(
        uris,
        [
            "skill://alpha/SKILL.md",
            "skill://alpha/assets/logo.png",
            "skill://alpha/inner/SKILL.md",
            "skill://alpha/references/guide.md",
            "skill://alpha/scripts/run.py"
        ]
    );
    let png = block_on(mcp.read_resource("skill://alpha/assets/logo.png")).expect("png");
    assert_eq!((png.contents[0].mime_type, png.contents[0].text.is_none()), ("image/png", true));
    let guide = block_on(mcp.read_resource("skill://alpha/references/guide.md")).expect("guide");
    assert_eq!(guide.contents[0].text.as_deref(), Some("# Guide\r\nline\n"));
    assert_eq!(guide.contents[0].mime_type, "text/markdown");
}

#[test]
fn a_nested_skill_is_a_file_of_its_parent_and_a_skill_of_its_own() {
    let mcp = server(50);
    // inner first: its SKILL.md's digest and frontmatter are cached under the key alpha reads too.
    // Its skill path is where it lies, alpha/inner: the SEP's `skill://<skill-path>/SKILL.md`.
    let inner = block_on(mcp.get_skill("skill://alpha/inner/SKILL.md")).expect("inner");
    assert_eq!(inner.skill.frontmatter["name"], "inner");
    assert_eq!(inner.skill.uri, "skill://alpha/inner/SKILL.md");
    let alpha = block_on(mcp.get_skill("skill://alpha/SKILL.md")).expect("alpha");
    assert_eq!(alpha.skill.frontmatter["name"], "alpha");
    let nested = alpha.skill.resources.iter().find(|r| r.uri == "skill://alpha/inner/SKILL.md").expect("listed");
    assert_eq!(nested.digest, inner.skill.resources[0].digest);
    // One URI per file: the flat path that named it twice serves nothing.
    assert_eq!(block_on(mcp.get_skill("skill://inner/SKILL.md")).expect_err("flat").code, INVALID_PARAMS);
    assert_eq!(block_on(mcp.read_resource("skill://inner/SKILL.md")).expect_err("flat").code, INVALID_PARAMS);
    // Every URI any entry lists names one file, the same one in every entry that lists it.
    let listed = block_on(mcp.list_skills(None)).expect("list");
    let mut by_uri = std::collections::BTreeMap::new();
    for r in listed.skills.iter().flat_map(|s| &s.resources) {
        assert_eq!(*by_uri.entry(r.uri.clone()).or_insert(r.digest.clone()), r.digest, "{}", r.uri);
    }
    assert!(by_uri.contains_key("skill://alpha/inner/SKILL.md") && !by_uri.contains_key("skill://inner/SKILL.md"));
    assert_eq!(served_bytes(&mcp, "skill://alpha/inner/SKILL.md"), md("inner", "").into_bytes());
    // Its directory is its root, read as its own.
    let dir = block_on(mcp.read_directory("skill://alpha/inner", None)).expect("dir");
    assert_eq!(to_json(&dir)["resources"][0]["uri"], "skill://alpha/inner/SKILL.md");
    let resources = mcp.list_resources(None).expect("resources");
    assert!(resources.resources.iter().any(|r| r.uri == "skill://alpha/inner/SKILL.md" && r.name == "inner"));
}

#[test]
fn get_answers_for_a_skill_the_listing_leaves_out() {
    let mcp = server(50);
    let got = block_on(mcp.get_skill("skill://user-only/SKILL.md")).expect("user-only");
    assert_eq!(got.skill.uri, "skill://user-only/SKILL.md");
    let listed = block_on(mcp.list_skills(None)).expect("list");
    assert!(listed.skills.iter().all(|s| s.uri != got.skill.uri));
}

#[test]
fn unknown_skills_files_directories_and_cursors_are_invalid_params() {
    let mcp = server(50);
    for uri in [
        "skill://nope/SKILL.md",
        "skill://alpha/beta/SKILL.md",
        "skill://alpha/README.md",
        "skill://huge/SKILL.md",
        "https://alpha/SKILL.md",
        "skill://alpha/../beta/SKILL.md",
    ] {
        let e = block_on(mcp.get_skill(uri)).expect_err(uri);
        assert_eq!(e.code, INVALID_PARAMS, "{uri}");
    }
    assert!(block_on(mcp.get_skill("skill://huge/SKILL.md")).err().unwrap().message.starts_with("mcp-skill-too-large"));
    for uri in [
        "skill://nope/SKILL.md",
        "skill://alpha/missing.md",
        "skill://alpha/.env",
        "skill://alpha/node_modules/x/index.js",
        "skill://alpha",
        "skill://alpha/references",
    ] {
        assert_eq!(block_on(mcp.read_resource(uri)).expect_err(uri).code, INVALID_PARAMS, "{uri}");
    }
    for uri in ["skill://alpha/SKILL.md", "skill://alpha/nothing", "skill://nope"] {
        assert_eq!(block_on(mcp.read_directory(uri, None)).expect_err(uri).code, INVALID_PARAMS, "{uri}");
    }
    assert_eq!(block_on(mcp.list_skills(Some("not-a-cursor"))).expect_err("cursor").code, INVALID_PARAMS);
}

#[test]
fn directories_list_their_direct_children() {
    let mcp = server(50);
    let size = md("alpha", "license: MIT\nversion: 2\nmetadata:\n  team: docs\n").len();
    let root = to_json(&block_on(mcp.read_directory("skill://alpha", None)).expect("root"));
    assert_eq!(root["resultType"], "complete");
    assert_eq!(
        root["resources"],
        json!([
            { "uri": "skill://alpha/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown", "size": size },
            { "uri": "skill://alpha/assets", "name": "assets", "mimeType": "inode/directory" },
            { "uri": "skill://alpha/inner", "name": "inner", "mimeType": "inode/directory" },
            { "uri": "skill://alpha/references", "name": "references", "mimeType": "inode/directory" },
            { "uri": "skill://alpha/scripts", "name": "scripts", "mimeType": "inode/directory" }
        ])
    );
    let scripts = to_json(&block_on(mcp.read_directory("skill://alpha/scripts", None)).expect("scripts"));
    assert_eq!(scripts["resources"][0]["uri"], "skill://alpha/scripts/run.py");
    let small = server(1);
    let first = block_on(small.read_directory("skill://alpha", None)).expect("page 1");
    let second = block_on(small.read_directory("skill://alpha", first.next_cursor.as_deref())).expect("page 2");
    assert_eq!((first.resources[0].name.as_str(), second.resources[0].name.as_str()), ("SKILL.md", "assets"));
}

#[test]
fn resources_list_names_each_listed_skill_md() {
    let mcp = server(3);
    let first = to_json(&mcp.list_resources(None).expect("list"));
    assert_eq!(
        first["resources"][0],
        json!({ "uri": "skill://alpha/SKILL.md", "name": "alpha", "description": "The alpha skill.", "mimeType": "text/markdown" })
    );
    assert!(first["nextCursor"].is_string());
}
