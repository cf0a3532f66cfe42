//! Consent bound to content, natively: the host's `approve` hook asked once per content digest,
//! asked again when a file changed (after a refresh), its refusal an error result, and a remote
//! skill's `allowed-tools` counting only once its current content is approved.

use futures_executor::block_on;
use skillwasm::activate::ToolInput;
use skillwasm::consent::{digest, ApprovalRequest, Approver};
use skillwasm::diagnostic::codes;
use skillwasm::host::{resolve_scopes, ScopeSpec, SkillHost, SkillTool, SkillsConfig};
use skillwasm::store::{LocalFuture, MemoryStorage, Storage};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

const SKILL: &str = "---\nname: hello\ndescription: Says hello.\nallowed-tools: Bash(echo:*)\n---\nSay hello.\n";

/// A memory store that says it comes from the network.
struct Remote(MemoryStorage);

impl Storage for Remote {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<skillwasm::store::ListPage, skillwasm::store::StorageError>> {
        self.0.list(prefix, cursor, limit)
    }
    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, skillwasm::store::StorageError>> {
        self.0.read(key, max_bytes)
    }
    fn origin(&self) -> Option<String> {
        Some("https://skills.example".into())
    }
}

fn host(storage: Rc<dyn Storage>, approve: Option<Approver>) -> Rc<RefCell<SkillHost>> {
    let config = SkillsConfig { approve, ..SkillsConfig::default() };
    let spec = ScopeSpec {
        name: "user".into(),
        storage,
        roots: Some(vec![String::new()]),
        trusted: Some(true),
        location: None,
    };
    let scopes = resolve_scopes(&[spec], &config).unwrap();
    Rc::new(RefCell::new(block_on(SkillHost::discover(scopes, config))))
}

fn call(tool: &SkillTool, path: Option<&str>) -> skillwasm::activate::ToolResult {
    let input = ToolInput { name: "hello".into(), path: path.map(str::to_string), ..ToolInput::default() };
    block_on(tool.execute(Ok(input), 0.0))
}

/// A hook that records its requests and answers `answer`.
fn recording(answer: Rc<Cell<bool>>) -> (Approver, Rc<RefCell<Vec<ApprovalRequest>>>) {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let seen = asked.clone();
    let approver: Approver = Rc::new(move |req| {
        seen.borrow_mut().push(req);
        let a = answer.get();
        Box::pin(async move { Ok(a) })
    });
    (approver, asked)
}

#[test]
fn asked_once_per_digest_and_again_when_a_file_changes() {
    let store = Rc::new(MemoryStorage::new([("hello/SKILL.md", SKILL), ("hello/run.sh", "echo hi\n")]));
    let (approver, asked) = recording(Rc::new(Cell::new(true)));
    let host = host(store.clone(), Some(approver));
    let tool = SkillTool::new(host.clone());
    let expected =
        digest::skill_digest_of_bytes([("SKILL.md", SKILL.as_bytes()), ("run.sh", &b"echo hi\n"[..])]).unwrap();
    let r = call(&tool, None);
    assert!(!r.is_error, "{}", r.content);
    assert_eq!(r.digest.as_deref(), Some(expected.as_str()));
    assert!(!call(&tool, Some("run.sh")).is_error);
    assert_eq!(asked.borrow().len(), 1);
    assert_eq!(asked.borrow()[0].digest, expected);
    assert_eq!(asked.borrow()[0].origin, None);
    assert!(host.borrow().approvals().approved("user", "hello", &expected));

    store.put("hello/run.sh", "echo changed\n");
    block_on(SkillHost::refresh_shared(&host));
    assert!(!call(&tool, Some("run.sh")).is_error);
    assert_eq!(asked.borrow().len(), 2, "new content, asked again");
    assert_eq!(asked.borrow()[1].previous.as_deref(), Some(expected.as_str()));
    assert_ne!(asked.borrow()[1].digest, expected);
}

#[test]
fn a_refusal_is_an_error_result_and_remote_tools_wait_for_approval() {
    let store: Rc<dyn Storage> = Rc::new(Remote(MemoryStorage::new([("hello/SKILL.md", SKILL)])));
    let answer = Rc::new(Cell::new(false));
    let (approver, asked) = recording(answer.clone());
    let host = host(store, Some(approver));
    let tool = SkillTool::new(host.clone());
    let meta = host.borrow().registry().get("hello").unwrap();
    assert!(!host.borrow().allowed_tools_apply(&meta), "remote, not approved");
    let r = call(&tool, None);
    assert!(r.is_error);
    assert_eq!(r.error.as_ref().map(|d| d.code.as_str()), Some(codes::SKILL_NOT_APPROVED));
    assert!(r.content.contains("'hello'") && !r.content.contains("Say hello"), "{}", r.content);
    assert!(!host.borrow().allowed_tools_apply(&meta), "refused");
    assert_eq!(asked.borrow()[0].origin.as_deref(), Some("https://skills.example"));
    assert_eq!(asked.borrow()[0].allowed_tools, ["Bash(echo:*)"]);
    answer.set(true);
    assert!(!call(&tool, None).is_error);
    assert!(host.borrow().allowed_tools_apply(&meta), "approved");
    // Without a hook a local skill's tools apply as always.
    let local = self::host(Rc::new(MemoryStorage::new([("hello/SKILL.md", SKILL)])), None);
    let meta = local.borrow().registry().get("hello").unwrap();
    assert!(local.borrow().allowed_tools_apply(&meta));
}
