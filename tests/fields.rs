//! Fields and substitutions other clients use (tests/cases/fields.json, shared with
//! tests/js/fields.test.mjs): the skill directory placeholders where bodies are served, `` !`cmd` ``
//! handed to the host's runner, `context: fork` with `agent`, and per-agent scoping across the
//! catalog, the tool's enum, search, `/name` and subagents.

use futures_executor::block_on;
use serde_json::Value;
use skillwasm::activate::{CommandRequest, CommandRunner, ToolInput, MAX_OUTPUT_CHARS};
use skillwasm::host::{resolve_scopes, ScopeSpec, SkillHost, SkillTool, SkillsConfig};
use skillwasm::search::SearchOptions;
use skillwasm::store::{MemoryStorage, Storage};
use skillwasm::{parse_skill, Mode, ParseOptions};
use std::cell::RefCell;
use std::rc::Rc;

const CASES: &str = include_str!("cases/fields.json");

fn cases() -> Value {
    serde_json::from_str(CASES).expect("the table is JSON")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// The table's skills in a project scope whose store says it is at `location`, configured by
/// `config`.
fn tool_with(location: Option<&str>, config: SkillsConfig) -> (Rc<RefCell<SkillHost>>, SkillTool) {
    let t = cases();
    let files: Vec<(String, String)> = t["files"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (format!(".agents/skills/{k}"), v.as_str().unwrap().to_string()))
        .collect();
    let storage: Rc<dyn Storage> = Rc::new(MemoryStorage::new(files));
    let spec = ScopeSpec {
        name: "project".into(),
        storage,
        roots: None,
        trusted: Some(true),
        location: location.map(str::to_string),
    };
    let scopes = resolve_scopes(&[spec], &config).unwrap();
    let host = Rc::new(RefCell::new(block_on(SkillHost::discover(scopes, config))));
    let tool = SkillTool::new(host.clone());
    (host, tool)
}

fn activate(tool: &SkillTool, name: &str) -> skillwasm::activate::ToolResult {
    block_on(tool.execute(Ok(ToolInput { name: name.into(), force: true, ..Default::default() }), 0.0))
}

fn echo_runner() -> CommandRunner {
    Rc::new(|r: CommandRequest| {
        Box::pin(async move {
            match r.command.as_str() {
                "fail" => Err("threw: no shell here".to_string()),
                "huge" => Ok("y".repeat(MAX_OUTPUT_CHARS * 2)),
                c => Ok(format!("[{c} @ {}]", r.skill)),
            }
        })
    })
}

#[test]
fn placeholders_resolve_where_bodies_are_served() {
    let t = cases();
    // A directory store (its absolute root), and a store with no disk path (a URI).
    for (location, dir) in
        [(Some("/srv/project"), "/srv/project/.agents/skills/dirs"), (None, "store://project/.agents/skills/dirs")]
    {
        let (_, tool) = tool_with(location, SkillsConfig::default());
        let expected: Vec<String> = strings(&t["resolved"]).iter().map(|l| l.replace("<DIR>", dir)).collect();
        let served = [
            activate(&tool, "dirs").content,
            block_on(tool.invoke("/dirs", true, 0.0)).injected[0].content.clone(),
            block_on(tool.subagent_prompt("dirs", "run it")).unwrap(),
        ];
        for (i, content) in served.iter().enumerate() {
            for line in &expected {
                assert!(content.contains(line.as_str()), "{i} at {dir}: {line} not in\n{content}");
            }
        }
        // A resolved path reads through the tool as the relative path it names.
        let read = block_on(tool.execute(
            Ok(ToolInput { name: "dirs".into(), path: Some(format!("{dir}/scripts/run.sh")), ..Default::default() }),
            0.0,
        ));
        assert!(!read.is_error, "{}", read.content);
        assert_eq!((read.content.as_str(), read.path.as_deref()), ("echo run\n", Some("scripts/run.sh")));
    }
    // scopePaths set the base per scope, over what the store says.
    let mut config = SkillsConfig::default();
    config.scope_paths.insert("project".into(), "/home/me/work".into());
    let (_, tool) = tool_with(Some("/srv/project"), config);
    assert!(activate(&tool, "dirs").content.contains("Claude Code: /home/me/work/.agents/skills/dirs/scripts/run.sh"));
}

#[test]
fn commands_stay_as_written_without_a_runner_and_go_to_the_host_with_one() {
    let t = cases();
    let (_, tool) = tool_with(Some("/srv/p"), SkillsConfig::default());
    let plain = activate(&tool, "dirs");
    for line in strings(&t["asWritten"]) {
        assert!(plain.content.contains(&line), "{line}");
    }
    assert!(plain.diagnostics.is_empty());

    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    let inner = echo_runner();
    let runner: CommandRunner = Rc::new(move |r: CommandRequest| {
        log.borrow_mut().push(r.clone());
        inner(r)
    });
    let config = SkillsConfig { commands: Some(runner), ..Default::default() };
    let (_, tool) = tool_with(Some("/srv/p"), config);
    let ran = activate(&tool, "dirs");
    for line in strings(&t["ran"]) {
        assert!(ran.content.contains(&line), "{line} not in\n{}", ran.content);
    }
    let got: Vec<String> = seen.borrow().iter().map(|r| r.command.clone()).collect();
    assert_eq!(got, strings(&t["commands"]));
    assert!(seen.borrow().iter().all(|r| r.skill == "dirs" && r.dir == "/srv/p/.agents/skills/dirs"));
    // The same preprocessing for /name and subagents.
    assert!(block_on(tool.invoke("/dirs", true, 0.0)).injected[0]
        .content
        .contains("[git branch --show-current @ dirs]"));
    assert!(block_on(tool.subagent_prompt("dirs", "x")).unwrap().contains("[echo one\necho two @ dirs]"));
}

#[test]
fn a_failing_or_huge_runner_answer_is_contained() {
    let files = vec![(
        ".agents/skills/cmds/SKILL.md".to_string(),
        "---\nname: cmds\ndescription: Commands that fail.\n---\nA !`fail` B\n\n!`huge`\n".to_string(),
    )];
    let storage: Rc<dyn Storage> = Rc::new(MemoryStorage::new(files));
    let config = SkillsConfig { commands: Some(echo_runner()), ..Default::default() };
    let spec = ScopeSpec { name: "user".into(), storage, roots: None, trusted: None, location: None };
    let scopes = resolve_scopes(&[spec], &config).unwrap();
    let tool = SkillTool::new(Rc::new(RefCell::new(block_on(SkillHost::discover(scopes, config)))));
    let r = activate(&tool, "cmds");
    assert!(!r.is_error);
    assert!(r.content.contains("A [command failed: threw: no shell here] B"), "{}", r.content);
    assert!(r.content.contains(&format!("[output cut at {MAX_OUTPUT_CHARS} characters]")));
    assert!(r.content.len() < MAX_OUTPUT_CHARS + 4096);
    assert_eq!(r.diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["command-failed"]);
    let inj = block_on(tool.invoke("/cmds", true, 0.0));
    assert_eq!(inj.diagnostics.len(), 1);
}

#[test]
fn context_fork_and_agent_feed_the_subagent_plan() {
    let t = cases();
    let fork = &t["fork"];
    let name = fork["name"].as_str().unwrap();
    let md = t["files"][format!("{name}/SKILL.md")].as_str().unwrap();
    let parsed = parse_skill(md.as_bytes(), &ParseOptions::default()).skill.unwrap();
    assert_eq!((parsed.context.as_deref(), parsed.agent.as_deref()), (Some("fork"), fork["agent"].as_str()));
    let lenient = parse_skill(md.as_bytes(), &ParseOptions::default());
    assert!(lenient.diagnostics.iter().all(|d| d.code != "unknown-field"), "known extensions");
    let strict = parse_skill(md.as_bytes(), &ParseOptions { mode: Mode::Strict, ..Default::default() });
    assert!(
        strict.diagnostics.iter().any(|d| d.code == "unexpected-fields"),
        "strict: the specification's fields only"
    );

    let (_, tool) = tool_with(Some("/srv/p"), SkillsConfig::default());
    let plan = block_on(tool.subagent_task(name, "Why is the build slow?")).unwrap();
    assert_eq!(plan.agent.as_deref(), fork["agent"].as_str());
    assert_eq!(plan.context.as_deref(), Some("fork"));
    assert_eq!(plan.resources, strings(&fork["resources"]));
    assert!(plan.resources_complete);
    assert_eq!(plan.directory, "/srv/p/.agents/skills/forked");
    assert!(plan.prompt.contains("<task>\nWhy is the build slow?\n</task>"));
    assert!(plan.prompt.contains("references/guide.md\nscripts/find.sh\n</skill_resources>"), "{}", plan.prompt);
    // The model's activation says where it is meant to run; the host sees fork.
    let r = activate(&tool, name);
    assert_eq!(r.fork.as_ref().and_then(|f| f.agent.as_deref()), fork["agent"].as_str());
    assert!(r.content.contains("meant to run in a subagent (agent: Explore)"));
    assert!(skillwasm::content::answer(&r.content).is_some_and(|b| b.is_written_by_tool(&r.content)));
    assert!(activate(&tool, "dirs").fork.is_none());
    assert_eq!(
        block_on(tool.invoke("/forked", false, 0.0)).injected[0].fork.as_ref().map(|f| f.agent.clone()),
        Some(Some("Explore".into()))
    );
}

#[test]
fn per_agent_scoping_follows_one_visibility() {
    let t = cases();
    for (agent, want) in t["agents"].as_object().unwrap() {
        let want = strings(want);
        let config = SkillsConfig {
            agent: (!agent.is_empty()).then(|| agent.clone()),
            search: skillwasm::host::SearchMode::Always,
            ..Default::default()
        };
        let (host, tool) = tool_with(None, config);
        let catalog = tool.catalog();
        let mut listed = catalog.skills.clone();
        listed.sort();
        assert_eq!(listed, want, "{agent}: catalog");
        let all = ["dirs", "everyone", "forked", "review-only", "top-level", "two-agents"];
        for name in all {
            let offered = want.iter().any(|w| w == name);
            assert_eq!(!activate(&tool, name).is_error, offered, "{agent}: tool {name}");
            assert_eq!(
                block_on(tool.invoke(&format!("/{name}"), false, 0.0)).injected.len() == 1,
                offered,
                "{agent}: /{name}"
            );
            assert_eq!(block_on(tool.subagent_task(name, "x")).is_some(), offered, "{agent}: subagent {name}");
            let hits = host.borrow().search(name, &SearchOptions::default());
            assert_eq!(hits.iter().any(|h| h.name == name), offered, "{agent}: search {name}");
        }
        let hidden: Vec<&str> = catalog.hidden.iter().map(|h| h.reason.as_str()).collect();
        assert!(hidden.iter().all(|r| *r == "agent"), "{agent}: {hidden:?}");
    }
    // The tool's enum, without search, is the catalog's names.
    let config = SkillsConfig { agent: Some("reviewer".into()), ..Default::default() };
    let (_, tool) = tool_with(None, config);
    let names = strings(&tool.definition().unwrap().input_schema["properties"]["name"]["enum"]);
    assert_eq!(names, strings(&t["agents"]["reviewer"]));
    // A per-tool agent over a registry without one.
    let (host, _) = tool_with(None, SkillsConfig::default());
    let over = serde_json::json!({ "agent": "planner" });
    let cfg = host.borrow().config().with_overrides(over.as_object().unwrap(), None).unwrap();
    let planner = SkillTool::with_config(host.clone(), cfg);
    let mut listed = planner.catalog().skills.clone();
    listed.sort();
    assert_eq!(listed, strings(&t["agents"]["planner"]));
    assert_eq!(host.borrow().catalog().skills.len(), 6, "the registry's own view is unchanged");
}
