//! The host's side: one configuration read by the catalog, the tool, user invocation and
//! autocomplete (the visibility table in tests/cases/visibility.json, shared with the JS tests),
//! the predicate called once per skill per generation, and the session that follows compaction.

use futures_executor::block_on;
use skillwasm::activate::CallArguments;
use skillwasm::compact::{self, CompactOptions, UseKind};
use skillwasm::host::{resolve_scopes, Permitted, ScopeSpec, SkillHost, SkillTool, SkillsConfig};
use skillwasm::store::{MemoryStorage, Storage};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

const TABLE: &str = include_str!("cases/visibility.json");

fn table() -> serde_json::Value {
    serde_json::from_str(TABLE).expect("the table is JSON")
}

fn skill_md(name: &str, front: &serde_json::Map<String, serde_json::Value>) -> String {
    let mut fm = format!("name: {name}\ndescription: The {name} skill.\n");
    for (k, v) in front {
        fm.push_str(&format!("{k}: {}\n", v.as_str().unwrap_or_default()));
    }
    format!("---\n{fm}---\n# {name}\n\nDo the {name} thing.\n")
}

/// The table's skills in a user scope, its configuration, and a predicate that counts its calls.
fn table_host() -> (Rc<RefCell<SkillHost>>, Rc<Cell<usize>>, serde_json::Value) {
    let t = table();
    let mut files = Vec::new();
    for s in t["skills"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        files.push((format!(".agents/skills/{name}/SKILL.md"), skill_md(name, s["front"].as_object().unwrap())));
    }
    let mut config: SkillsConfig = serde_json::from_value(t["config"].clone()).unwrap();
    let calls = Rc::new(Cell::new(0));
    let refused: Vec<String> = serde_json::from_value(t["refused"].clone()).unwrap();
    let counter = calls.clone();
    let permitted: Permitted = Rc::new(move |m| {
        counter.set(counter.get() + 1);
        Ok(!refused.contains(&m.skill.name))
    });
    config.permitted = Some(permitted);
    let storage: Rc<dyn Storage> = Rc::new(MemoryStorage::new(files));
    let spec = ScopeSpec { name: "user".into(), storage, roots: None, trusted: None, location: None };
    let scopes = resolve_scopes(&[spec], &config).unwrap();
    let host = block_on(SkillHost::discover(scopes, config));
    (Rc::new(RefCell::new(host)), calls, t)
}

#[test]
fn one_visibility_for_catalog_tool_invocation_and_autocomplete() {
    let (host, calls, t) = table_host();
    let tool = SkillTool::new(host.clone());
    let catalog = host.borrow().catalog();
    let enum_names = tool.definition().unwrap().input_schema["properties"]["name"]["enum"].clone();
    for s in t["skills"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        let (model, user) = (s["model"].as_bool().unwrap(), s["user"].as_bool().unwrap());
        assert_eq!(catalog.skills.iter().any(|n| n == name), model, "{name}: catalog");
        assert_eq!(enum_names.as_array().unwrap().iter().any(|n| n == name), model, "{name}: enum");
        let served =
            block_on(tool.execute(Ok(skillwasm::activate::ToolInput { name: name.into(), ..Default::default() }), 0.0));
        assert_eq!(!served.is_error, model, "{name}: tool");
        assert_eq!(block_on(tool.subagent_prompt(name, "x")).is_some(), model, "{name}: subagent");
        let h = host.borrow();
        assert_eq!(h.parse_message(&format!("/{name} now")).invocations.len() == 1, user, "{name}: /name");
        assert_eq!(h.parse_message(&format!("see ${name} here")).invocations.len() == 1, user, "{name}: $name");
        assert_eq!(h.autocomplete(name, 0).iter().any(|x| x.name == name), user, "{name}: autocomplete");
        drop(h);
        let injected = block_on(tool.invoke(&format!("/{name}"), false, 0.0));
        assert_eq!(injected.injected.len() == 1, user, "{name}: injected");
        let hidden = catalog.hidden.iter().find(|h| h.name == name).map(|h| h.reason.as_str());
        assert_eq!(hidden, s["reason"].as_str(), "{name}: reason");
    }
    // The predicate ran once per skill it matters for, however often the parts read visibility.
    let once = t["skills"].as_array().unwrap().iter().filter(|s| s["predicate"] == true).count();
    assert_eq!(calls.get(), once);
    // A refresh is a new generation: once more per skill.
    block_on(SkillHost::refresh_shared(&host));
    let _ = tool.definition();
    let _ = host.borrow().catalog();
    assert_eq!(calls.get(), 2 * once);
}

#[test]
fn per_call_and_per_tool_overrides() {
    let (host, _, _) = table_host();
    let h = host.borrow();
    let over = serde_json::json!({ "format": "json", "disabled": ["plain"] });
    let cfg = h.config().with_overrides(over.as_object().unwrap(), None).unwrap();
    let r = h.render_catalog(&cfg);
    assert!(!r.skills.contains(&"plain".to_string()) && r.text.unwrap().starts_with('['));
    drop(h);
    let tool = SkillTool::with_config(host.clone(), cfg);
    assert!(
        block_on(tool.execute(Ok(skillwasm::activate::ToolInput { name: "plain".into(), ..Default::default() }), 0.0))
            .is_error
    );
    assert!(block_on(tool.invoke("/plain", false, 0.0)).injected.is_empty());
    assert_eq!(block_on(tool.invoke("/free-text", false, 0.0)).injected.len(), 1);
}

fn small_tool(tool_name: &str) -> SkillTool {
    let files = [
        (".agents/skills/a/SKILL.md".to_string(), "---\nname: a\ndescription: A.\n---\nAlpha steps.\n".to_string()),
        (".agents/skills/b/SKILL.md".to_string(), "---\nname: b\ndescription: B.\n---\nBravo steps.\n".to_string()),
    ];
    let storage: Rc<dyn Storage> = Rc::new(MemoryStorage::new(files));
    let config = SkillsConfig { tool_name: tool_name.into(), ..Default::default() };
    let spec = ScopeSpec { name: "user".into(), storage, roots: None, trusted: None, location: None };
    let scopes = resolve_scopes(&[spec], &config).unwrap();
    SkillTool::new(Rc::new(RefCell::new(block_on(SkillHost::discover(scopes, config)))))
}

fn call(
    tool: &SkillTool,
    id: &str,
    name: &str,
) -> (serde_json::Value, serde_json::Value, skillwasm::activate::ToolResult) {
    let r = block_on(tool.execute_call(None, &CallArguments::Json(format!("{{\"name\":\"{name}\"}}")), 0.0));
    let tool_name = tool.config().tool_name.clone();
    let a = serde_json::json!({ "role": "assistant", "content": null, "tool_calls": [
        { "id": id, "type": "function", "function": { "name": tool_name, "arguments": format!("{{\"name\":\"{name}\"}}") } }] });
    let t = serde_json::json!({ "role": "tool", "tool_call_id": id, "content": r.content });
    (a, t, r)
}

#[test]
fn the_session_follows_compaction_and_pruning() {
    let tool = small_tool("activate_skill");
    let (a1, t1, r1) = call(&tool, "c1", "a");
    assert!(!r1.is_error && !r1.already_loaded);
    let (a2, t2, r2) = call(&tool, "c2", "a");
    assert!(r2.already_loaded && r2.content.contains("force: true"));
    // The pointer's advice is part of the schema.
    assert_eq!(tool.definition().unwrap().input_schema["properties"]["force"]["type"], "boolean");
    let (b1, tb, _) = call(&tool, "c3", "b");
    let transcript = serde_json::json!([{ "role": "user", "content": "go" }, a1, t1, a2, t2, b1, tb]);
    // Compacted through the tool (its name is used without being passed): a leaves, b stays.
    let out = tool.compact(&transcript, &CompactOptions { keep_recent: 1, ..Default::default() }).unwrap();
    assert_eq!(out.report.changes.len(), 1);
    assert!(tool.session().borrow().loaded("a").is_none());
    assert!(tool.session().borrow().loaded("b").is_some());
    let (_, _, again) = call(&tool, "c4", "a");
    assert!(!again.already_loaded && again.content.contains("Alpha steps."));
    // Re-attachment puts a and b back and the session counts them as loaded again.
    let back = block_on(tool.reattach(&out.transcript, &CompactOptions::default())).unwrap();
    assert_eq!(back.report.changes.iter().filter(|c| c.skill.as_deref() == Some("a")).count(), 1);
    assert!(tool.session().borrow().loaded("a").is_some());
    // A host's own pruning, told to the session.
    let change = tool
        .observe(&serde_json::json!([{ "role": "user", "content": "fresh start" }]), &CompactOptions::default())
        .unwrap();
    assert_eq!(change.forgotten, ["a", "b"]);
    assert!(!call(&tool, "c5", "b").2.already_loaded);
}

#[test]
fn answers_to_other_tools_and_bad_json_are_errors_compaction_reads_as_errors() {
    let tool = small_tool("view_skill");
    let other = block_on(tool.execute_call(Some("web_search"), &CallArguments::Json("{}".into()), 0.0));
    assert!(other.is_error && other.error.as_ref().unwrap().code == "tool-unknown");
    assert!(other.content.contains("'web_search'") && !other.content.contains("no skill named ''"));
    let bad = block_on(tool.execute_call(Some("view_skill"), &CallArguments::Json("{\"name\": ".into()), 0.0));
    assert!(bad.is_error && bad.content.contains("not JSON"));
    let t = serde_json::json!([
        { "role": "assistant", "content": null, "tool_calls": [{ "id": "x", "type": "function", "function": { "name": "view_skill", "arguments": "{\"name\": " } }] },
        { "role": "tool", "tool_call_id": "x", "content": bad.content },
    ]);
    let found = compact::find(&t, &CompactOptions::default()).unwrap();
    assert_eq!(found.uses.iter().map(|u| u.kind).collect::<Vec<_>>(), [UseKind::Error]);
    let ok =
        block_on(tool.execute_call(Some("view_skill"), &CallArguments::Value(serde_json::json!({ "name": "a" })), 0.0));
    assert!(!ok.is_error);
    assert_eq!(tool.session().borrow().activations.len(), 1);
}

#[test]
fn locations_the_model_is_shown_are_usable_and_agree() {
    let files = || {
        vec![
            (".agents/skills/pdf/SKILL.md".to_string(), "---\nname: pdf\ndescription: P.\n---\nBody.\n".to_string()),
            (".agents/skills/pdf/forms.md".to_string(), "# Forms\n".to_string()),
        ]
    };
    let store = |f: Vec<(String, String)>| -> Rc<dyn Storage> { Rc::new(MemoryStorage::new(f)) };
    let specs = [
        ScopeSpec {
            name: "project".into(),
            storage: store(files()),
            roots: None,
            trusted: Some(true),
            location: Some("/srv/app".into()),
        },
        ScopeSpec {
            name: "user".into(),
            storage: store(files()),
            roots: None,
            trusted: None,
            location: Some("memory:/".into()),
        },
        ScopeSpec { name: "org".into(), storage: store(files()), roots: None, trusted: None, location: None },
    ];
    let config = SkillsConfig::default();
    let host = block_on(SkillHost::discover(resolve_scopes(&specs, &config).unwrap(), config));
    let reg = host.registry();
    let paths: Vec<String> = reg.list_metas_across().into_iter().map(|m| m.path).collect();
    assert_eq!(
        paths,
        [
            "/srv/app/.agents/skills/pdf/SKILL.md",
            "memory:/.agents/skills/pdf/SKILL.md",
            "store://org/.agents/skills/pdf/SKILL.md"
        ]
    );
    let catalog = host.catalog();
    assert!(catalog.text.as_deref().unwrap().contains("<location>/srv/app/.agents/skills/pdf/SKILL.md</location>"));
    let tool = SkillTool::new(Rc::new(RefCell::new(host)));
    let r =
        block_on(tool.execute(Ok(skillwasm::activate::ToolInput { name: "pdf".into(), ..Default::default() }), 0.0));
    assert!(r.content.contains("\nSkill directory: /srv/app/.agents/skills/pdf\n"), "{}", r.content);
}

#[test]
fn scoped_listing_and_reads_reach_shadowed_skills() {
    let md = |d: &str| format!("---\nname: pdf\ndescription: {d}\n---\n{d} body.\n");
    let project: Rc<dyn Storage> =
        Rc::new(MemoryStorage::new([(".agents/skills/pdf/SKILL.md".to_string(), md("Project"))]));
    let user: Rc<dyn Storage> = Rc::new(MemoryStorage::new([
        (".agents/skills/pdf/SKILL.md".to_string(), md("User")),
        (".agents/skills/pdf/notes.md".to_string(), "user notes".to_string()),
    ]));
    let specs = [
        ScopeSpec {
            name: "project".into(),
            storage: project,
            roots: None,
            trusted: Some(true),
            location: Some("/p".into()),
        },
        ScopeSpec { name: "user".into(), storage: user, roots: None, trusted: None, location: Some("/u/".into()) },
    ];
    let config = SkillsConfig::default();
    let host = block_on(SkillHost::discover(resolve_scopes(&specs, &config).unwrap(), config));
    let reg = host.registry();
    let user_metas = reg.list_metas(Some("user"));
    assert_eq!(user_metas.len(), 1);
    assert_eq!(user_metas[0].shadowed_by.as_deref(), Some("project:.agents/skills/pdf/SKILL.md"));
    let body = block_on(reg.read_scoped_file("user", "pdf", None)).unwrap();
    assert_eq!(body.content, skillwasm::discover::FileContent::Text("User body.".into()));
    assert_eq!(body.path, "/u/.agents/skills/pdf/SKILL.md");
    let notes = block_on(reg.read_scoped_file("user", "pdf", Some("notes.md"))).unwrap();
    assert_eq!(
        (notes.content, notes.path.as_str()),
        (skillwasm::discover::FileContent::Text("user notes".into()), "/u/.agents/skills/pdf/notes.md")
    );
    assert!(block_on(reg.read_scoped_file("project", "pdf", Some("notes.md"))).is_none());
    assert!(block_on(reg.read_scoped_file("org", "pdf", None)).is_none());
    assert!(block_on(reg.read_scoped_file("user", "pdf", Some("../x"))).is_none());
}
