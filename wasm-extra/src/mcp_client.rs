//! The MCP Skills extension's client rules for `mcpStorage`: whether a server declares the
//! extension, a `skills/list` page or `skills/get` result read into retained entries, the URI a
//! key may be read from, and a file's bytes verified against its entry. Conversion only; the
//! rules are `skillwasm::mcp`'s.

use super::{convert, to_js};
use convert::BytesError;
use serde::Deserialize;
use skillwasm::diagnostic::codes;
use skillwasm::mcp::client::{self, McpPage, McpSkill, ReadOptions};
use skillwasm::mcp::verify;
use skillwasm::mcp::MAX_SKILL_BYTES;
use skillwasm::Diagnostic;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_MCP_CLIENT: &'static str = r#"
/** One file of a retained MCP skill entry. */
export interface McpFile { uri: string; key: string; digest: string; size: number }
/** A skill entry of an MCP server, as retained: what every read of it is verified against. */
export interface McpSkill {
  /** The URI of its SKILL.md. */
  uri: string;
  /** The store key of its SKILL.md (the URI's path: `acme/refunds/SKILL.md`). */
  key: string;
  name: string;
  /** The frontmatter the server listed, verbatim. */
  frontmatter: Record<string, unknown>;
  /** Its resources are "dynamic": nothing to verify but the frontmatter. */
  dynamic: boolean;
  files: McpFile[];
  /** Changes when any file's digest or size does. */
  etag: string;
  /** The listed frontmatter as a SKILL.md's first bytes. */
  head: string;
}
/** A `skills/list` page (or a `skills/get` result) read: its usable entries and what was wrong. */
export interface McpSkillsPage { skills: McpSkill[]; nextCursor: string | null; diagnostics: Diagnostic[] }
/** What a server's capabilities say of the skills extension. */
export interface McpSkillsDeclared { declared: boolean; directoryRead: boolean; diagnostics: Diagnostic[] }
/** A file's bytes checked against its entry. */
export interface McpVerified { verified: boolean; diagnostics: Diagnostic[] }
"#;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PageOptions {
    #[serde(default)]
    dynamic: bool,
    /// The result is a `skills/get` result (`{ skill }`), not a `skills/list` page.
    #[serde(default)]
    get: bool,
}

fn data(v: &JsValue, name: &str) -> Result<serde_json::Value, JsValue> {
    convert::data(v).map_err(|e| convert::type_error(&e.describe(name)))
}

fn skill_arg(v: &JsValue, name: &str) -> Result<McpSkill, JsValue> {
    if !v.is_object() {
        return Err(convert::type_error(&format!(
            "{name} must be an entry of parseMcpSkills, not {}",
            convert::kind_of(v)
        )));
    }
    convert::deserialize(data(v, name)?, name)
}

/// Whether a server's capabilities declare the skills extension (`extensions` or `experimental`).
#[wasm_bindgen(js_name = mcpSkillsExtension, unchecked_return_type = "McpSkillsDeclared")]
pub fn mcp_skills_extension(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | undefined")] capabilities: JsValue,
) -> Result<JsValue, JsValue> {
    // Capabilities come from the server: what cannot be read declares nothing.
    let caps = convert::data(&capabilities).unwrap_or(serde_json::Value::Null);
    to_js(&verify::declared(&caps)).map_err(JsValue::from)
}

/// Reads a `skills/list` result (or, with `get: true`, a `skills/get` result) into entries; a
/// result that cannot be read is a page of one `mcp-result-invalid`.
#[wasm_bindgen(js_name = parseMcpSkills, unchecked_return_type = "McpSkillsPage")]
pub fn parse_mcp_skills(
    #[wasm_bindgen(unchecked_param_type = "unknown")] result: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "{ dynamic?: boolean; get?: boolean }")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let o: PageOptions = convert::options(&opts.unwrap_or_default(), "parseMcpSkills: opts")?;
    let read = ReadOptions { dynamic: o.dynamic };
    // The result comes from the server: what cannot be read within the bounds is a diagnostic.
    let value = match convert::data(&result) {
        Ok(v) => v,
        Err(e) => {
            let d = Diagnostic::error(codes::MCP_RESULT_INVALID, e.describe("the result"));
            return to_js(&McpPage { diagnostics: vec![d], ..McpPage::default() }).map_err(JsValue::from);
        }
    };
    let page = if o.get {
        match client::parse_get_result(&value, &read) {
            Ok(skill) => McpPage { skills: vec![skill], ..McpPage::default() },
            Err(d) => McpPage { diagnostics: vec![d], ..McpPage::default() },
        }
    } else {
        client::parse_list_result(&value, &read)
    };
    to_js(&page).map_err(JsValue::from)
}

/// The URI `key` is read from, when the entry lists it; `null` otherwise (nothing may be fetched).
#[wasm_bindgen(js_name = mcpFileUri, unchecked_return_type = "string | null")]
pub fn mcp_file_uri(
    #[wasm_bindgen(unchecked_param_type = "McpSkill")] skill: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
) -> Result<JsValue, JsValue> {
    let skill = skill_arg(&skill, "mcpFileUri: skill")?;
    let key = convert::string(&key, "mcpFileUri: key")?;
    Ok(verify::file_target(&skill, &key).map_or(JsValue::NULL, |u| JsValue::from_str(&u)))
}

/// Checks the bytes read for `key` against the entry: listed, size, digest, and for the SKILL.md
/// the frontmatter field by field.
#[wasm_bindgen(js_name = verifyMcpFile, unchecked_return_type = "McpVerified")]
pub fn verify_mcp_file(
    #[wasm_bindgen(unchecked_param_type = "McpSkill")] skill: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] bytes: JsValue,
) -> Result<JsValue, JsValue> {
    let skill = skill_arg(&skill, "verifyMcpFile: skill")?;
    let key = convert::string(&key, "verifyMcpFile: key")?;
    let most = u32::try_from(MAX_SKILL_BYTES).unwrap_or(u32::MAX);
    #[derive(serde::Serialize)]
    struct Verified {
        verified: bool,
        diagnostics: Vec<Diagnostic>,
    }
    let refused = |d: Diagnostic| Verified { verified: false, diagnostics: vec![d] };
    let out = match convert::bytes(&bytes, most) {
        Ok(b) => match verify::verify_file(&skill, &key, &b.into_vec()) {
            Ok(()) => Verified { verified: true, diagnostics: Vec::new() },
            Err(d) => refused(d),
        },
        // More than any skill may have: not the listed bytes, whatever the manifest says.
        Err(BytesError::TooLarge(n)) => refused(verify::file_target(&skill, &key).err().unwrap_or_else(|| {
            Diagnostic::error(
                codes::MCP_DIGEST_MISMATCH,
                format!("{key} is {n} bytes, more than the {most} a skill may have: not the listed file"),
            )
        })),
        Err(BytesError::NotBytes) => {
            return Err(convert::type_error(&format!(
                "verifyMcpFile: bytes must be a string, a Uint8Array or an ArrayBuffer, not {}",
                convert::kind_of(&bytes)
            )))
        }
        Err(BytesError::Lying(why)) => return Err(convert::type_error(&format!("verifyMcpFile: bytes is {why}"))),
    };
    to_js(&out).map_err(JsValue::from)
}
