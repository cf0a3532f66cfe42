//! The case tables in `tests/cases/`, shared with the JS tests (`tests/js/cases.test.mjs`): rules
//! that JS repeats (storage keys, the memory store's etag) or calls (the token estimate) are held
//! to one table on both sides.

use futures_executor::block_on;
use serde::Deserialize;
use skillwasm::store::keys::{key_problem, prefix_problem, KeyProblem};
use skillwasm::store::{MemoryStorage, Storage};
use std::collections::BTreeMap;
use std::path::Path;

fn table<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[derive(Deserialize)]
struct KeyTable {
    reasons: BTreeMap<String, String>,
    cases: Vec<KeyCase>,
}

#[derive(Deserialize)]
struct KeyCase {
    input: String,
    kind: String,
    valid: bool,
    #[serde(default)]
    reason: Option<String>,
}

const ALL: [KeyProblem; 8] = [
    KeyProblem::Empty,
    KeyProblem::Absolute,
    KeyProblem::Backslash,
    KeyProblem::Control,
    KeyProblem::Encoded,
    KeyProblem::EmptySegment,
    KeyProblem::DotSegment,
    KeyProblem::NotAPrefix,
];

#[test]
fn keys_and_prefixes_follow_the_table() {
    let t: KeyTable = table("keys.json");
    let words: BTreeMap<String, String> = ALL.iter().map(|p| (p.code().to_string(), p.phrase().to_string())).collect();
    assert_eq!(words, t.reasons, "every rule, worded as the table words it");
    assert!(t.cases.len() >= 50);
    for c in &t.cases {
        let got = match c.kind.as_str() {
            "key" => key_problem(&c.input),
            "prefix" => prefix_problem(&c.input),
            other => panic!("unknown kind {other}"),
        };
        assert_eq!(got.is_none(), c.valid, "{} {:?}", c.kind, c.input);
        assert_eq!(got.map(|p| p.code().to_string()), c.reason, "{} {:?}", c.kind, c.input);
    }
    for p in ALL {
        assert!(t.cases.iter().any(|c| c.reason.as_deref() == Some(p.code())), "no case for {}", p.code());
    }
}

#[derive(Deserialize)]
struct EtagTable {
    cases: Vec<EtagCase>,
}

#[derive(Deserialize)]
struct EtagCase {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    hex: Option<String>,
    etag: String,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

#[test]
fn the_memory_store_etag_follows_the_table() {
    let t: EtagTable = table("etag.json");
    for c in &t.cases {
        let bytes = match (&c.text, &c.hex) {
            (Some(text), None) => text.as_bytes().to_vec(),
            (None, Some(hex)) => unhex(hex),
            _ => panic!("a case has text or hex"),
        };
        let store = MemoryStorage::new([("k", bytes)]);
        let page = block_on(store.list("", None, 10)).expect("list");
        assert_eq!(page.entries[0].etag.as_deref(), Some(c.etag.as_str()), "{:?}", c.text.as_ref().or(c.hex.as_ref()));
    }
}

#[derive(Deserialize)]
struct TokenTable {
    cases: Vec<TokenCase>,
}

#[derive(Deserialize)]
struct TokenCase {
    text: String,
    tokens: u32,
}

#[test]
fn the_token_estimate_follows_the_table() {
    let t: TokenTable = table("tokens.json");
    for c in &t.cases {
        assert_eq!(skillwasm::text::estimate_tokens(&c.text), c.tokens, "{:?}", c.text);
    }
}

#[derive(Deserialize)]
struct LowercaseTable {
    cases: Vec<LowercaseCase>,
}

#[derive(Deserialize)]
struct LowercaseCase {
    text: String,
    lower: String,
}

#[test]
fn lowercase_follows_the_table() {
    let t: LowercaseTable = table("lowercase.json");
    assert!(t.cases.len() >= 10);
    for c in &t.cases {
        assert_eq!(skillwasm::text::lowercase(&c.text), c.lower, "{:?}", c.text);
    }
}
