use super::*;
use crate::net::OriginPolicy;

const BASE: &str = "https://example.com/.well-known/agent-skills/index.json";
const D: &str = "sha256:90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be";

/// The policy of a store at `u` that allows no other origin.
fn own(u: &str) -> OriginPolicy {
    OriginPolicy::new::<&str>(u, &[]).expect("an http(s) URL")
}

fn codes_of(p: &ParsedIndex) -> Vec<&str> {
    p.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn v2_entries_resolve_and_bad_ones_cost_only_themselves() {
    let index = serde_json::json!({
        "$schema": SCHEMA_V0_2_0,
        "extra": true,
        "skills": [
            { "name": "pdf", "type": "skill-md", "description": "PDFs", "url": "pdf/SKILL.md", "digest": D, "x": 1 },
            { "name": "big", "type": "archive", "description": "Big", "url": "/files/big.tar.gz", "digest": D },
            { "name": "odd", "type": "plugin", "description": "?", "url": "odd", "digest": D },
            { "name": "Bad_Name", "type": "skill-md", "description": "?", "url": "x", "digest": D },
            { "name": "nodigest", "type": "skill-md", "description": "?", "url": "x", "digest": "md5:00" },
            { "name": "evil", "type": "skill-md", "description": "?", "url": "javascript:alert(1)", "digest": D },
            { "name": "pdf", "type": "skill-md", "description": "again", "url": "p", "digest": D },
            7
        ]
    });
    let p = parse_index(index.to_string().as_bytes(), BASE, &own(BASE));
    assert_eq!(p.version.as_deref(), Some("0.2.0"));
    let names: Vec<_> = p.skills.iter().map(|s| (s.name.as_str(), s.kind, s.url.as_str())).collect();
    assert_eq!(
        names,
        [
            ("pdf", SkillKind::SkillMd, "https://example.com/.well-known/agent-skills/pdf/SKILL.md"),
            ("big", SkillKind::Archive, "https://example.com/files/big.tar.gz"),
        ]
    );
    assert_eq!(
        codes_of(&p),
        [
            codes::INDEX_ENTRY_TYPE_UNKNOWN,
            codes::INDEX_ENTRY_INVALID,
            codes::INDEX_ENTRY_INVALID,
            codes::INDEX_ENTRY_INVALID,
            codes::INDEX_ENTRY_DUPLICATE,
            codes::INDEX_ENTRY_INVALID,
        ]
    );
    assert_eq!(p.diagnostics[0].path.as_deref(), Some("odd"));
    assert_eq!(p.diagnostics[5].path.as_deref(), Some("skills[7]"));
}

#[test]
fn unknown_schema_is_not_processed() {
    let index = serde_json::json!({ "$schema": "https://schemas.agentskills.io/discovery/9.0.0/schema.json",
        "skills": [{ "name": "pdf", "type": "skill-md", "description": "d", "url": "u", "digest": D }] });
    let p = parse_index(index.to_string().as_bytes(), BASE, &own(BASE));
    assert_eq!(p.version, None);
    assert!(p.skills.is_empty());
    assert_eq!(codes_of(&p), [codes::INDEX_SCHEMA_UNKNOWN]);
}

#[test]
fn v1_files_arrays() {
    let index = serde_json::json!({ "skills": [
        { "name": "pdf", "description": "PDFs", "files": ["SKILL.md", "references/forms.md"] },
        { "name": "up", "description": "d", "files": ["SKILL.md", "../secret"] },
        { "name": "none", "description": "d", "files": ["README.md"] },
    ]});
    let p = parse_index(index.to_string().as_bytes(), "https://example.com/.well-known/skills/index.json", &own(BASE));
    assert_eq!(p.version.as_deref(), Some("0.1.0"));
    assert_eq!(p.skills.len(), 1);
    let s = &p.skills[0];
    assert_eq!((s.kind, s.digest.as_deref()), (SkillKind::Files, None));
    assert_eq!(s.url, "https://example.com/.well-known/skills/pdf/SKILL.md");
    assert_eq!(s.files[1].url, "https://example.com/.well-known/skills/pdf/references/forms.md");
    assert_eq!(codes_of(&p), [codes::INDEX_UNVERIFIED, codes::INDEX_ENTRY_INVALID, codes::INDEX_ENTRY_INVALID]);
}

#[test]
fn not_an_index() {
    for bytes in [&b"nope"[..], b"[]", b"{\"skills\": 3}"] {
        let p = parse_index(bytes, BASE, &own(BASE));
        assert_eq!(codes_of(&p).last().copied(), Some(codes::INDEX_INVALID));
        assert!(p.skills.is_empty());
    }
    assert_eq!(codes_of(&parse_index(b"{}", "relative/index.json", &own(BASE))), [codes::INDEX_INVALID]);
}

#[test]
fn entries_on_other_origins_are_refused_unless_allowed() {
    let index = serde_json::json!({ "$schema": SCHEMA_V0_2_0, "skills": [
        { "name": "home", "type": "skill-md", "description": "d", "url": "home/SKILL.md", "digest": D },
        { "name": "cdn", "type": "skill-md", "description": "d", "url": "https://cdn.example.net/cdn/SKILL.md", "digest": D },
        { "name": "meta", "type": "skill-md", "description": "d", "url": "http://169.254.169.254/latest/meta-data", "digest": D },
        { "name": "port", "type": "skill-md", "description": "d", "url": "https://example.com:8443/x", "digest": D },
        { "name": "sneaky", "type": "skill-md", "description": "d", "url": "https://example.com\\@evil.test/x", "digest": D },
    ]});
    let bytes = index.to_string();
    let p = parse_index(bytes.as_bytes(), BASE, &own(BASE));
    assert_eq!(p.skills.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["home"]);
    assert_eq!(
        codes_of(&p),
        [codes::ORIGIN_REFUSED, codes::ORIGIN_REFUSED, codes::ORIGIN_REFUSED, codes::INDEX_ENTRY_INVALID]
    );
    assert!(p.diagnostics[0].message.contains("https://cdn.example.net"), "{}", p.diagnostics[0].message);
    assert!(p.diagnostics[1].message.contains("http://169.254.169.254"));
    assert_eq!(p.diagnostics[0].severity, Severity::Warning);
    assert_eq!(p.diagnostics[0].path.as_deref(), Some("cdn"));

    let allowing = OriginPolicy::new(BASE, &["https://CDN.example.net/"]).expect("an origin");
    let p = parse_index(bytes.as_bytes(), BASE, &allowing);
    assert_eq!(p.skills.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["home", "cdn"]);
}
