//! What a host checks before it uses a file of an MCP-served skill: that the retained manifest
//! lists it (reads resolve only to listed URIs), that its bytes have the listed size and SHA-256,
//! and, for the `SKILL.md`, that its parsed frontmatter equals the listed one field by field.
//! Also: whether a server declared the extension at all.

use super::client::McpSkill;
use super::client_keys::file_uri;
use super::EXTENSION_ID;
use crate::diagnostic::{codes, Diagnostic};
use crate::net::digest::matches;
use crate::parse::node::{resolve_plain, Node, Resolved, Style};
use crate::parse::{fence, parse_frontmatter, Mode};
use serde::Serialize;
use serde_json::{Map, Value};

/// What a server's capabilities say of the extension.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Declared {
    /// The server declares the extension (in `extensions`, or in `experimental`).
    pub declared: bool,
    /// It declares `directoryRead: true`.
    pub directory_read: bool,
    /// Why it does not count as declared.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a server's capabilities (the initialize result's): the extension's settings under
/// `extensions`, or under `experimental` for servers whose SDK carries only that; either is taken.
pub fn declared(capabilities: &Value) -> Declared {
    let settings = ["extensions", "experimental"]
        .iter()
        .find_map(|field| capabilities.get(field).and_then(|m| m.get(EXTENSION_ID)).filter(|s| s.is_object()));
    match settings {
        Some(s) => Declared {
            declared: true,
            directory_read: s.get("directoryRead").and_then(Value::as_bool) == Some(true),
            diagnostics: Vec::new(),
        },
        None => Declared {
            declared: false,
            directory_read: false,
            diagnostics: vec![Diagnostic::error(
                codes::MCP_EXTENSION_MISSING,
                format!("the server does not declare the {EXTENSION_ID} extension: it lists no skill"),
            )],
        },
    }
}

/// The URI to read for `key`, which must be a file the entry lists (for a dynamic skill, any
/// file inside its directory); otherwise nothing may be fetched.
pub fn file_target(skill: &McpSkill, key: &str) -> Result<String, Diagnostic> {
    if let Some(f) = skill.files.iter().find(|f| f.key == key) {
        return Ok(f.uri.clone());
    }
    let dir = skill.key.strip_suffix("/SKILL.md").unwrap_or(&skill.key);
    match (skill.dynamic, file_uri(dir, key)) {
        (true, Some(uri)) => Ok(uri),
        _ => Err(Diagnostic::error(
            codes::MCP_FILE_UNLISTED,
            format!("{key} is not a file the manifest of {} lists: not fetched", skill.uri),
        )
        .with_path(key)),
    }
}

trait WithPath {
    fn with_path(self, path: &str) -> Self;
}

impl WithPath for Diagnostic {
    fn with_path(self, path: &str) -> Self {
        Diagnostic { path: Some(path.to_string()), ..self }
    }
}

/// Checks the bytes read for `key` against the entry: listed, of the listed size and digest
/// (dynamic skills have neither), and for the SKILL.md the frontmatter field by field.
pub fn verify_file(skill: &McpSkill, key: &str, bytes: &[u8]) -> Result<(), Diagnostic> {
    file_target(skill, key)?;
    if let Some(f) = skill.files.iter().find(|f| f.key == key) {
        if bytes.len() as u64 != f.size {
            return Err(Diagnostic::error(
                codes::MCP_DIGEST_MISMATCH,
                format!("{} is {} bytes; the manifest says {}", f.uri, bytes.len(), f.size),
            )
            .with_path(key));
        }
        if !matches(bytes, &f.digest) {
            return Err(Diagnostic::error(
                codes::MCP_DIGEST_MISMATCH,
                format!("{} does not have the digest the manifest gives ({})", f.uri, f.digest),
            )
            .with_path(key));
        }
    }
    if key == skill.key {
        compare_frontmatter(&skill.frontmatter, bytes).map_err(|why| {
            Diagnostic::error(
                codes::MCP_FRONTMATTER_MISMATCH,
                format!("the frontmatter of {} differs from the listed one: {why}", skill.uri),
            )
            .with_path(key)
        })?;
    }
    Ok(())
}

/// Compares a SKILL.md's frontmatter with the listed one, field by field: the same keys, and
/// each value equal (a listed string equals a scalar of that text, a number or boolean a plain
/// scalar of that value, null a null scalar; lists and mappings element by element).
pub fn compare_frontmatter(listed: &Map<String, Value>, skill_md: &[u8]) -> Result<(), String> {
    let split = fence::split(skill_md, false).map_err(|_| "the SKILL.md has no frontmatter fences".to_string())?;
    let (fields, _) = parse_frontmatter(split.frontmatter(), split.first_line, Mode::Lenient)
        .map_err(|d| format!("its frontmatter does not parse ({})", d.code))?;
    for f in &fields {
        match listed.get(&f.key) {
            None => return Err(format!("the file has the field {:?}, the entry does not", f.key)),
            Some(v) if !same(&f.value, v, 0) => return Err(format!("the field {:?} differs", f.key)),
            Some(_) => {}
        }
    }
    if let Some(k) = listed.keys().find(|k| !fields.iter().any(|f| &f.key == *k)) {
        return Err(format!("the entry has the field {k:?}, the file does not"));
    }
    Ok(())
}

/// Deeper values than this are not compared (the parsers bound depth far below it).
const MAX_DEPTH: u32 = 128;

fn same(node: &Node, value: &Value, depth: u32) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match (node, value) {
        (n, Value::Null) => n.is_null(),
        (Node::Scalar { text, .. }, Value::String(s)) => text == s,
        (Node::Scalar { text, style: Style::Plain }, Value::Bool(b)) => resolve_plain(text) == Resolved::Bool(*b),
        (Node::Scalar { text, style: Style::Plain }, Value::Number(n)) => {
            resolve_plain(text) == Resolved::Number && number(text).zip(n.as_f64()).is_some_and(|(a, b)| a == b)
        }
        (Node::Seq(items), Value::Array(values)) => {
            items.len() == values.len() && items.iter().zip(values).all(|(n, v)| same(n, v, depth + 1))
        }
        (Node::Map(entries), Value::Object(map)) => {
            entries.len() == map.len() && entries.iter().all(|(k, n)| map.get(k).is_some_and(|v| same(n, v, depth + 1)))
        }
        _ => false,
    }
}

/// A YAML number's value (decimal, `0x`, `0o`, `.inf` are the ones real frontmatter has).
fn number(text: &str) -> Option<f64> {
    let t = text.trim().replace('_', "");
    if let Some(h) = t.strip_prefix("0x") {
        return i64::from_str_radix(h, 16).ok().map(|v| v as f64);
    }
    if let Some(o) = t.strip_prefix("0o") {
        return i64::from_str_radix(o, 8).ok().map(|v| v as f64);
    }
    t.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::digest::sha256_digest;
    use crate::net::mcp::client::{parse_entry, ReadOptions};
    use serde_json::json;

    const DOC: &str = "---\nname: pdf\ndescription: Fill PDF forms\nmetadata:\n  version: 1.10\n  tags: [a, b]\nlicense: MIT\n---\n# PDF\n";

    fn entry(frontmatter: Value, resources: Value) -> McpSkill {
        let e = json!({ "uri": "skill://docs/pdf/SKILL.md", "frontmatter": frontmatter, "resources": resources });
        parse_entry(&e, &ReadOptions { dynamic: true }).unwrap()
    }

    fn listed() -> Value {
        json!([
            { "uri": "skill://docs/pdf/SKILL.md", "digest": sha256_digest(DOC.as_bytes()), "size": DOC.len() },
            { "uri": "skill://docs/pdf/forms.md", "digest": sha256_digest(b"forms"), "size": 5 },
        ])
    }

    fn fm() -> Value {
        json!({ "name": "pdf", "description": "Fill PDF forms", "metadata": { "version": "1.10", "tags": ["a", "b"] }, "license": "MIT" })
    }

    #[test]
    fn files_are_verified_against_the_manifest() {
        let s = entry(fm(), listed());
        assert_eq!(verify_file(&s, "docs/pdf/SKILL.md", DOC.as_bytes()), Ok(()));
        assert_eq!(verify_file(&s, "docs/pdf/forms.md", b"forms"), Ok(()));
        let code = |r: Result<(), Diagnostic>| r.err().map(|d| d.code);
        assert_eq!(code(verify_file(&s, "docs/pdf/forms.md", b"forms!")).as_deref(), Some(codes::MCP_DIGEST_MISMATCH));
        assert_eq!(code(verify_file(&s, "docs/pdf/forms.md", b"FORMS")).as_deref(), Some(codes::MCP_DIGEST_MISMATCH));
        assert_eq!(code(verify_file(&s, "docs/pdf/other.md", b"x")).as_deref(), Some(codes::MCP_FILE_UNLISTED));
        assert_eq!(file_target(&s, "docs/pdf/forms.md").as_deref(), Ok("skill://docs/pdf/forms.md"));
        assert!(file_target(&s, "docs/pdf/other.md").is_err());
    }

    #[test]
    fn frontmatter_is_compared_field_by_field() {
        let bytes = DOC.as_bytes();
        assert_eq!(compare_frontmatter(fm().as_object().unwrap(), bytes), Ok(()));
        // Typed JSON values equal plain scalars of that value.
        let typed = json!({ "name": "pdf", "description": "Fill PDF forms", "metadata": { "version": 1.1, "tags": ["a", "b"] }, "license": "MIT" });
        assert_eq!(compare_frontmatter(typed.as_object().unwrap(), bytes), Ok(()));
        for changed in [
            json!({ "name": "pdf", "description": "Fill PDF forms!", "metadata": { "version": "1.10", "tags": ["a", "b"] }, "license": "MIT" }),
            json!({ "name": "pdf", "description": "Fill PDF forms", "metadata": { "version": "1.10", "tags": ["a"] }, "license": "MIT" }),
            json!({ "name": "pdf", "description": "Fill PDF forms", "metadata": { "version": "1.10", "tags": ["a", "b"] } }),
            json!({ "name": "pdf", "description": "Fill PDF forms", "metadata": { "version": "1.10", "tags": ["a", "b"] }, "license": "MIT", "x": 1 }),
            json!({ "name": "pdf", "description": "Fill PDF forms", "metadata": { "version": true, "tags": ["a", "b"] }, "license": "MIT" }),
        ] {
            assert!(compare_frontmatter(changed.as_object().unwrap(), bytes).is_err(), "{changed}");
        }
        // A dynamic skill has no digests, but its SKILL.md is still compared.
        let d = entry(json!({ "name": "pdf", "description": "other" }), json!("dynamic"));
        assert_eq!(verify_file(&d, "docs/pdf/any/file.md", b"x"), Ok(()));
        let err = verify_file(&d, "docs/pdf/SKILL.md", bytes).err().map(|d| d.code);
        assert_eq!(err.as_deref(), Some(codes::MCP_FRONTMATTER_MISMATCH));
        assert!(compare_frontmatter(fm().as_object().unwrap(), b"# no frontmatter").is_err());
    }

    #[test]
    fn the_extension_is_taken_from_extensions_or_experimental() {
        let ext = declared(&json!({ "extensions": { EXTENSION_ID: { "directoryRead": true } }, "resources": {} }));
        assert!(ext.declared && ext.directory_read);
        let exp = declared(&json!({ "experimental": { EXTENSION_ID: {} } }));
        assert!(exp.declared && !exp.directory_read);
        let none = declared(&json!({ "resources": {}, "extensions": { "other": {} } }));
        assert!(!none.declared);
        assert_eq!(none.diagnostics.first().map(|d| d.code.as_str()), Some(codes::MCP_EXTENSION_MISSING));
        assert!(!declared(&json!(null)).declared);
    }
}
