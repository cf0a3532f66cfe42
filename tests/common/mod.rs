//! Helpers shared by the integration tests.
#![allow(dead_code)]

use serde_yaml::Value;
use skillwasm::parse::fast;
use skillwasm::parse::node::{resolve_plain, Node, Resolved, Style};
use std::path::{Path, PathBuf};

/// `../shared` beside the repository, where the corpus and the conformance cases live.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    dir.is_dir().then_some(dir)
}

/// Every SKILL.md under `dir`, sorted.
pub fn skill_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "SKILL.md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A fast-path node as serde_yaml would type it (plain scalars resolved by serde_yaml itself).
pub fn to_value(node: &Node) -> Value {
    match node {
        Node::Scalar { text, style: Style::Plain } => {
            let v: Value = serde_yaml::from_str(text)
                .unwrap_or_else(|e| panic!("plain scalar {text:?} does not parse alone: {e}"));
            // The library's own resolver must agree with serde_yaml on the type.
            let expected = match &v {
                Value::Null => Resolved::Null,
                Value::Bool(b) => Resolved::Bool(*b),
                Value::Number(_) => Resolved::Number,
                _ => Resolved::String,
            };
            assert_eq!(resolve_plain(text), expected, "type of plain scalar {text:?}");
            match v {
                Value::String(_) => Value::String(text.clone()),
                other => other,
            }
        }
        Node::Scalar { text, .. } => Value::String(text.clone()),
        Node::Seq(items) => Value::Sequence(items.iter().map(to_value).collect()),
        Node::Map(entries) => {
            Value::Mapping(entries.iter().map(|(k, v)| (Value::String(k.clone()), to_value(v))).collect())
        }
    }
}

/// Checks that whatever the fast path accepts, it reads exactly as serde_yaml does, and that what
/// it calls invalid, serde_yaml refuses.
/// Returns whether the fast path accepted the input.
pub fn differential(src: &str) -> bool {
    let entries = match fast::read(src) {
        Ok(entries) => entries,
        Err(fast::Refusal::Invalid) => {
            let refused = serde_yaml::from_str::<Value>(src).is_err();
            assert!(refused, "fast path called invalid what serde_yaml reads:\n{src}");
            return false;
        }
        Err(fast::Refusal::Beyond) => return false,
    };
    let ours = Value::Mapping(entries.iter().map(|e| (Value::String(e.key.clone()), to_value(&e.value))).collect());
    let theirs: Value = serde_yaml::from_str(src)
        .unwrap_or_else(|e| panic!("fast path accepted what serde_yaml refuses ({e}):\n{src}"));
    let theirs = if theirs.is_null() { Value::Mapping(Default::default()) } else { theirs };
    assert_eq!(ours, theirs, "fast path and serde_yaml disagree on:\n{src}");
    true
}
