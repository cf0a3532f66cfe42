//! Search at scale: the catalog that cannot list every skill says how many it leaves out and how
//! to find them (every format), the tool then takes a `query` and any offered skill's name,
//! unknown names are answered with the nearest ones, and the index lives in snapshots. Below the
//! threshold the catalog and the tool are as without search.

use futures_executor::block_on;
use skillwasm::activate::ToolInput;
use skillwasm::disclose::CatalogFormat;
use skillwasm::host::{resolve_scopes, ScopeSpec, SearchMode, SkillHost, SkillTool, SkillsConfig};
use skillwasm::search::SearchOptions;
use skillwasm::store::{MemoryStorage, Storage};
use std::cell::RefCell;
use std::rc::Rc;

const NAMED: [(&str, &str); 4] = [
    ("pdf", "Extract text and tables from PDF files, fill forms, merge and split documents."),
    ("xlsx", "Spreadsheet work in Excel files: formulas, formatting, charts."),
    ("webapp-testing", "Test local web applications with Playwright: screenshots, browser logs."),
    ("zh-report", "用于数据分析和生成报告的技能"),
];

fn files(extra: usize) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = NAMED
        .iter()
        .map(|(n, d)| {
            (
                format!(".agents/skills/{n}/SKILL.md"),
                format!("---\nname: {n}\ndescription: {d}\n---\n# {n}\nBody of {n}.\n"),
            )
        })
        .collect();
    for i in 0..extra {
        let n = format!("filler-{i:04}");
        out.push((
            format!(".agents/skills/{n}/SKILL.md"),
            format!(
                "---\nname: {n}\ndescription: Routine number {i} for the widget assembly line.\n---\nFiller {i}.\n"
            ),
        ));
    }
    out
}

fn host_with(storage: Rc<MemoryStorage>, config: SkillsConfig) -> Rc<RefCell<SkillHost>> {
    let storage: Rc<dyn Storage> = storage;
    let spec = ScopeSpec { name: "user".into(), storage, roots: None, trusted: None, location: None };
    let scopes = resolve_scopes(&[spec], &config).unwrap();
    Rc::new(RefCell::new(block_on(SkillHost::discover(scopes, config))))
}

fn host(extra: usize, config: SkillsConfig) -> Rc<RefCell<SkillHost>> {
    host_with(Rc::new(MemoryStorage::new(files(extra))), config)
}

fn tight() -> SkillsConfig {
    SkillsConfig { budget_tokens: Some(400), ..SkillsConfig::default() }
}

fn call(tool: &SkillTool, input: ToolInput) -> skillwasm::activate::ToolResult {
    block_on(tool.execute(Ok(input), 0.0))
}

#[test]
fn below_the_threshold_nothing_changes() {
    let h = host(20, SkillsConfig::default());
    let catalog = h.borrow().catalog();
    assert!(!catalog.search && catalog.dropped.is_empty());
    assert!(!catalog.text.as_deref().unwrap().contains("not listed"));
    let json = serde_json::to_value(&*catalog).unwrap();
    assert!(json.get("search").is_none(), "the result's shape is as before");
    let def = SkillTool::new(h.clone()).definition().unwrap();
    assert_eq!(def.input_schema["properties"]["name"]["enum"].as_array().unwrap().len(), 24);
    assert!(def.input_schema["properties"].get("query").is_none());
    // The same configuration with search switched off renders byte for byte the same.
    let never = host(20, SkillsConfig { search: SearchMode::Never, ..SkillsConfig::default() });
    assert_eq!(never.borrow().catalog().text, catalog.text);
}

#[test]
fn a_catalog_at_budget_says_what_it_leaves_out_in_every_format() {
    for format in [CatalogFormat::Xml, CatalogFormat::Reference, CatalogFormat::Json, CatalogFormat::Markdown] {
        let h = host(120, SkillsConfig { format, ..tight() });
        let c = h.borrow().catalog();
        let text = c.text.as_deref().unwrap();
        assert!(c.search && !c.dropped.is_empty(), "{format:?}");
        assert!(c.tokens <= 400, "{format:?}: {} tokens over the budget", c.tokens);
        let note = format!("{} more skills are not listed here", c.dropped.len());
        if format == CatalogFormat::Json {
            let v: serde_json::Value = serde_json::from_str(text).expect("the JSON catalog stays JSON");
            let last = v.as_array().unwrap().last().unwrap();
            assert_eq!(last["notListed"].as_u64(), Some(c.dropped.len() as u64));
        } else {
            assert!(text.trim_end().ends_with("listed or not."), "{format:?}: {text}");
        }
        assert!(text.contains(&note) && text.contains("`view_skill` with `query`"), "{format:?}");
        assert!(c.instructions.as_deref().unwrap().contains("`query` to search the others"));
        assert_eq!(c.skills.len() + c.dropped.len(), 124);
    }
    // Never: dropped silently, as before.
    let h = host(120, SkillsConfig { search: SearchMode::Never, ..tight() });
    assert!(!h.borrow().catalog().search && !h.borrow().catalog().text.clone().unwrap().contains("not listed"));
    // searchAbove: search although everything fits.
    let h = host(10, SkillsConfig { search_above: Some(5), ..SkillsConfig::default() });
    let c = h.borrow().catalog();
    assert!(c.search && c.dropped.is_empty() && c.text.clone().unwrap().contains("can also be searched"));
    // A budget not even the note fits: no catalog, as without search.
    let h = host(20, SkillsConfig { budget_chars: Some(10), ..SkillsConfig::default() });
    let c = h.borrow().catalog();
    assert!(c.text.is_none() && !c.search);
}

#[test]
fn the_tool_reaches_skills_the_catalog_does_not_list() {
    let h = host(120, tight());
    let tool = SkillTool::new(h.clone());
    let def = tool.definition().unwrap();
    let props = &def.input_schema["properties"];
    assert!(props["name"].get("enum").is_none() && props["query"]["type"] == "string");
    assert!(def.description.contains("124 skills are available"));
    let catalog = h.borrow().catalog();
    let unlisted = catalog.dropped.iter().find(|n| n.starts_with("filler")).unwrap().to_string();
    let r = call(&tool, ToolInput { name: unlisted.clone(), ..Default::default() });
    assert!(
        !r.is_error && r.content.contains(&format!("Filler {}", &unlisted[7..].trim_start_matches('0'))),
        "{}",
        r.content
    );
    // A query finds by meaning words, best first; the answer loads nothing.
    let r = call(&tool, ToolInput { query: Some("merge two pdf documents".into()), ..Default::default() });
    assert!(!r.is_error && r.content.starts_with("Skills found for \"merge two pdf documents\""));
    assert!(r.content.lines().nth(1).unwrap().starts_with("- pdf: "), "{}", r.content);
    assert!(tool.session().borrow().activations.iter().all(|a| !a.name.is_empty()));
    let r = call(&tool, ToolInput { query: Some("生成报告".into()), ..Default::default() });
    assert!(r.content.lines().nth(1).unwrap().starts_with("- zh-report: "), "{}", r.content);
    let r = call(&tool, ToolInput { query: Some("quantum zebra".into()), ..Default::default() });
    assert!(!r.is_error && r.content.contains(": none."));
    // An unknown name is answered with the nearest ones.
    let r = call(&tool, ToolInput { name: "webap-testing".into(), ..Default::default() });
    assert!(r.is_error && r.content.starts_with("There is no skill named 'webap-testing'"));
    assert!(r.content.contains("- webapp-testing: "), "{}", r.content);
    // Subagents reach unlisted skills too.
    assert!(block_on(tool.subagent_prompt(&unlisted, "do it")).is_some());
}

#[test]
fn search_follows_visibility_scope_and_limit() {
    let h = host(50, SkillsConfig { disabled: vec!["pdf".into()], ..SkillsConfig::default() });
    let host = h.borrow();
    let hits = host.search("pdf documents", &SearchOptions::default());
    assert!(hits.iter().all(|x| x.name != "pdf"), "a disabled skill is not found");
    let hits = host.search("widget routine", &SearchOptions { limit: Some(3), ..Default::default() });
    assert_eq!(hits.len(), 3);
    assert!(hits[0].score >= hits[2].score && hits[0].location.ends_with("SKILL.md"));
    assert!(host.search("widget", &SearchOptions { scope: Some("project".into()), ..Default::default() }).is_empty());
    assert_eq!(
        host.search("xlsx", &SearchOptions { scope: Some("user".into()), ..Default::default() })[0].name,
        "xlsx"
    );
}

#[test]
fn the_index_is_in_the_snapshot_and_refresh_keeps_it_current() {
    let storage = Rc::new(MemoryStorage::new(files(30)));
    let h = host_with(storage.clone(), SkillsConfig::default());
    let bytes = h.borrow().registry().snapshot();
    // The index is in it (an index that does not fit is replaced: the snapshot module's tests).
    let index = skillwasm::search::encode::to_bytes(&h.borrow().registry().search_index());
    // Last but for the counts of approvals and digests (none here).
    assert!(index.len() > 100 && bytes.strip_suffix(&[0, 0]).is_some_and(|b| b.ends_with(&index)));
    let spec = |s: Rc<MemoryStorage>| {
        let storage: Rc<dyn Storage> = s;
        resolve_scopes(
            &[ScopeSpec { name: "user".into(), storage, roots: None, trusted: None, location: None }],
            &SkillsConfig::default(),
        )
        .unwrap()
    };
    let cold = SkillHost::from_snapshot(&bytes, spec(storage.clone()), SkillsConfig::default()).unwrap();
    let q = SearchOptions::default();
    assert_eq!(cold.search("spreadsheet formulas", &q), h.borrow().search("spreadsheet formulas", &q));
    // A refresh that adds a skill makes it findable.
    storage.put(".agents/skills/tarot/SKILL.md", "---\nname: tarot\ndescription: Read tarot cards.\n---\nx\n");
    assert!(h.borrow().search("tarot cards", &q).is_empty());
    block_on(SkillHost::refresh_shared(&h));
    assert_eq!(h.borrow().search("tarot cards", &q)[0].name, "tarot");
}
