//! What the UI stream gets of a call (a stub, never a file's content) and the one rule for
//! repeated loads of a skill's instructions, whether the model (the tool) or the user (`/name`,
//! `$name`) asks for them.

use super::*;
use crate::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use crate::store::MemoryStorage;
use futures_executor::block_on;
use std::rc::Rc;

const GUIDE: &str = "# Guide\n\nEvery line of this file is for the model only.\n";

fn registry() -> SkillRegistry {
    let files = [
        (".agents/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Fill PDF forms.\n---\nFill the form.\n"),
        (".agents/skills/pdf/references/guide.md", GUIDE),
        (".agents/skills/rel/SKILL.md", "---\nname: rel\ndescription: Release.\n---\nRelease version $0.\n"),
    ];
    let store = MemoryStorage::new(files.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let scope = ScopeHandle {
        name: "user".into(),
        roots: vec![".agents/skills/".into()],
        trusted: true,
        storage: Rc::new(store),
    };
    block_on(SkillRegistry::discover(vec![scope], DiscoverOptions::default()))
}

fn names() -> Vec<String> {
    vec!["pdf".to_string(), "rel".to_string()]
}

fn call(reg: &SkillRegistry, session: &mut SkillSession, name: &str, path: Option<&str>, force: bool) -> ToolResult {
    let input = ToolInput { name: name.into(), path: path.map(str::to_string), force, query: None };
    block_on(execute(reg, session, &input, &names(), &ToolOptions::default(), 1.0))
}

fn slash(name: &str, arguments: &str) -> invoke::Invocation {
    invoke::Invocation {
        name: name.into(),
        kind: invoke::InvocationKind::Slash,
        arguments: arguments.into(),
        start: 0,
        end: name.len() + 1,
    }
}

/// The user's message, read as the invocation rules would read it, injected into `session`'s
/// conversation (and recorded there).
fn inject(reg: &SkillRegistry, session: &mut SkillSession, inv: invoke::Invocation, force: bool) -> Injected {
    let parsed = invoke::ParsedMessage { invocations: vec![inv], ..Default::default() };
    // The substitution of the invocation rules, in miniature: `$0` is the first argument, and a
    // body without it gets the arguments appended.
    let substitute = |_: &crate::parse::Skill, body: &str, args: &str| {
        Ok(match (body.contains("$0"), args.trim()) {
            (true, a) => body.replace("$0", a.split_whitespace().next().unwrap_or("")),
            (false, "") => body.to_string(),
            (false, a) => format!("{body}\n\nARGUMENTS: {a}"),
        })
    };
    let plan = plan_parsed_injection(reg, parsed).repeating(session, force);
    let out = block_on(run_injection_with(plan, &ToolOptions::default(), &substitute));
    session.record_injection(&out, 2.0);
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    out.injected.into_iter().next().unwrap_or_else(|| panic!("nothing injected"))
}

#[test]
fn a_file_read_reaches_the_model_and_the_ui_stream_gets_a_stub() {
    let reg = registry();
    let mut session = SkillSession::default();
    let r = call(&reg, &mut session, "pdf", Some("references/guide.md"), false);
    assert!(!r.is_error, "{}", r.content);
    assert_eq!(r.content, GUIDE);
    assert_eq!(
        r.client,
        ClientOutput {
            size: Some(GUIDE.len() as u64),
            ..ClientOutput::new("pdf", Some("references/guide.md".into()), FILE_READ.into())
        }
    );
    let json = serde_json::to_value(&r.client).unwrap_or_default();
    assert_eq!(
        json,
        serde_json::json!({ "name": "pdf", "skillName": "pdf", "path": "references/guide.md", "content": "File read.", "size": GUIDE.len() })
    );
    // An activation's stub is as it was: no size.
    let a = call(&reg, &mut session, "pdf", None, false);
    assert_eq!(
        serde_json::to_value(&a.client).unwrap_or_default(),
        serde_json::json!({ "name": "pdf", "skillName": "pdf", "path": null, "content": "Skill activated." })
    );
}

#[test]
fn the_user_gets_a_pointer_to_what_the_model_loaded_unless_forced() {
    let reg = registry();
    let mut session = SkillSession::default();
    let model = call(&reg, &mut session, "pdf", None, false);
    assert!(!model.already_loaded);
    let user = inject(&reg, &mut session, slash("pdf", ""), false);
    // The same pointer the model's own repeat gets.
    let repeat = call(&reg, &mut session.clone(), "pdf", None, false);
    assert!(user.already_loaded && repeat.already_loaded);
    assert_eq!(user.content, repeat.content);
    assert!(user.content.contains("status=\"already-loaded\"") && !user.content.contains("Fill the form."));
    assert_eq!(user.size, 0, "a pointer reads nothing");
    assert_eq!(session.activations.len(), 1, "a pointer loads nothing");

    let forced = inject(&reg, &mut session, slash("pdf", ""), true);
    assert!(!forced.already_loaded && forced.content.contains("Fill the form."));
    assert_eq!(forced.content, model.content, "a forced injection is the activation itself");
    assert_eq!(session.activations.len(), 2);
}

#[test]
fn repeated_user_invocations_get_a_pointer_and_the_model_then_too() {
    let reg = registry();
    let mut session = SkillSession::default();
    let first = inject(&reg, &mut session, slash("pdf", ""), false);
    assert!(!first.already_loaded && first.content.contains("Fill the form."));
    let mention = invoke::Invocation { kind: invoke::InvocationKind::Mention, ..slash("pdf", "") };
    for again in [slash("pdf", ""), mention] {
        let again = inject(&reg, &mut session, again, false);
        assert!(again.already_loaded, "{}", again.content);
        assert!(again.content.contains("(activation 1)"), "{}", again.content);
    }
    assert!(call(&reg, &mut session, "pdf", None, false).already_loaded, "the model's repeat of the user's load");
    // Arguments that only follow the instructions leave them as loaded: still a repeat (the
    // arguments go on in the message's remaining text).
    let with_args = inject(&reg, &mut session, slash("pdf", "form.pdf"), false);
    assert!(with_args.already_loaded, "{}", with_args.content);
    // Once the instructions left the conversation, the next invocation is full again.
    session.observe(&std::collections::HashSet::new());
    assert!(!inject(&reg, &mut session, slash("pdf", ""), false).already_loaded);
}

#[test]
fn arguments_that_fill_placeholders_are_new_instructions() {
    let reg = registry();
    let mut session = SkillSession::default();
    let one = inject(&reg, &mut session, slash("rel", "1.0"), false);
    assert!(one.content.contains("Release version 1.0."), "{}", one.content);
    let two = inject(&reg, &mut session, slash("rel", "2.0"), false);
    assert!(!two.already_loaded && two.content.contains("Release version 2.0."), "{}", two.content);
    // Without arguments the instructions are the ones loaded: a pointer.
    let mention = invoke::Invocation { kind: invoke::InvocationKind::Mention, ..slash("rel", "") };
    assert!(inject(&reg, &mut session, mention, false).already_loaded);
}
