//! Same-named skills told apart: the first of a name in precedence order keeps it, every other one
//! is offered under `<scope>:<skill path>`, deterministically, the same after a refresh and a
//! snapshot, readable and served over MCP at a path of its own.

use futures_executor::block_on;
use skillwasm::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use skillwasm::host::{resolve_scopes, ScopeSpec, SkillHost, SkillsConfig};
use skillwasm::net::mcp::{McpOptions, SkillsMcp};
use skillwasm::store::{MemoryStorage, Storage};
use std::cell::RefCell;
use std::rc::Rc;

fn md(name: &str, desc: &str) -> String {
    format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n\n{desc} body.\n")
}

fn scope(name: &str, roots: &[&str], files: &[(&str, String)]) -> ScopeHandle {
    let storage: Rc<dyn Storage> = Rc::new(MemoryStorage::new(files.to_vec()));
    ScopeHandle { name: name.into(), roots: roots.iter().map(|r| r.to_string()).collect(), trusted: true, storage }
}

fn scopes() -> Vec<ScopeHandle> {
    vec![
        scope("project", &[".agents/skills/"], &[(".agents/skills/pdf/SKILL.md", md("pdf", "Project PDF"))]),
        scope(
            "user",
            &[".agents/skills/", ".claude/skills/"],
            &[
                (".agents/skills/pdf/SKILL.md", md("pdf", "User PDF")),
                (".agents/skills/team/pdf/SKILL.md", md("pdf", "Team PDF")),
                (".claude/skills/pdf/SKILL.md", md("pdf", "Claude PDF")),
                (".agents/skills/csv/SKILL.md", md("csv", "User CSV")),
            ],
        ),
    ]
}

#[test]
fn every_same_named_skill_is_offered_under_a_name_that_tells_it_apart() {
    let reg = block_on(SkillRegistry::discover(scopes(), DiscoverOptions::default()));
    assert_eq!(reg.names(), ["csv", "pdf", "user:.claude/skills/pdf", "user:pdf", "user:team/pdf"]);
    let described: Vec<(String, String)> =
        reg.list_metas(None).into_iter().map(|m| (m.skill.name.clone(), m.skill.description.clone())).collect();
    assert_eq!(
        described,
        [
            ("csv".into(), "User CSV".into()),
            ("pdf".into(), "Project PDF".into()),
            ("user:.claude/skills/pdf".into(), "Claude PDF".into()),
            ("user:pdf".into(), "User PDF".into()),
            ("user:team/pdf".into(), "Team PDF".into()),
        ]
    );
    let team = reg.get("user:team/pdf").expect("offered");
    assert_eq!(
        (team.scope.as_str(), team.directory.as_str(), team.shadowed_by),
        ("user", ".agents/skills/team/pdf", None)
    );
    let read = block_on(reg.read_file("user:team/pdf", None));
    assert!(read.text.as_deref().is_some_and(|c| c.contains("Team PDF body.")), "{read:?}");
    // Reported once each, naming the name it is offered under.
    let shadowed: Vec<String> =
        reg.diagnostics().into_iter().filter(|d| d.code == "skill-shadowed").map(|d| d.message).collect();
    assert_eq!(shadowed.len(), 3, "{shadowed:?}");
    assert!(shadowed.iter().any(|m| m.ends_with("offered as 'user:team/pdf'")), "{shadowed:?}");
    // A scope's own listing still names each skill as its file does.
    assert!(reg.list_metas(Some("user")).iter().all(|m| !m.skill.name.contains(':')));
}

#[test]
fn qualified_names_are_stable_across_refreshes_snapshots_and_new_rivals() {
    let mut reg = block_on(SkillRegistry::discover(scopes(), DiscoverOptions::default()));
    let before = reg.names();
    block_on(reg.refresh());
    assert_eq!(reg.names(), before);
    let back = SkillRegistry::from_snapshot(reg.snapshot(), scopes(), DiscoverOptions::default()).expect("snapshot");
    assert_eq!(back.names(), before);
    assert_eq!(back.get("user:pdf").map(|m| m.skill.description.clone()).as_deref(), Some("User PDF"));
    // A new rival of lower precedence takes a name of its own; nobody else's moves.
    let mut more = scopes();
    more.push(scope("org", &[".agents/skills/"], &[(".agents/skills/pdf/SKILL.md", md("pdf", "Org PDF"))]));
    let reg = block_on(SkillRegistry::discover(more, DiscoverOptions::default()));
    let names = reg.names();
    assert!(before.iter().all(|n| names.contains(n)) && names.contains(&"org:pdf".to_string()), "{names:?}");
}

#[test]
fn one_listing_with_one_name_twice_is_told_apart_and_served_at_paths_of_its_own() {
    let storage: Rc<dyn Storage> = Rc::new(MemoryStorage::new([
        ("a/pdf/SKILL.md", md("pdf", "A's PDF")),
        ("b/pdf/SKILL.md", md("pdf", "B's PDF")),
    ]));
    let spec =
        ScopeSpec { name: "docs".into(), storage, roots: Some(vec![String::new()]), trusted: None, location: None };
    let config = SkillsConfig::default();
    let host = block_on(SkillHost::discover(resolve_scopes(&[spec], &config).unwrap(), config));
    assert_eq!(host.registry().names(), ["docs:b/pdf", "pdf"]);
    let mcp = SkillsMcp::new(Rc::new(RefCell::new(host)), McpOptions::default());
    let listed = block_on(mcp.list_skills(None)).expect("list");
    let uris: Vec<&str> = listed.skills.iter().map(|s| s.uri.as_str()).collect();
    assert_eq!(uris, ["skill://docs/b/pdf/SKILL.md", "skill://a/pdf/SKILL.md"]);
    assert!(listed.skills.iter().all(|s| s.frontmatter["name"] == "pdf"));
    let got = block_on(mcp.get_skill("skill://docs/b/pdf/SKILL.md")).expect("get");
    assert_eq!(got.skill.frontmatter["description"], "B's PDF");
    let read = block_on(mcp.read_resource("skill://docs/b/pdf/SKILL.md")).expect("read");
    assert!(read.contents[0].text.as_deref().is_some_and(|t| t.contains("B's PDF")));
}
