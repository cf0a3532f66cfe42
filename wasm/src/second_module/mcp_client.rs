//! The MCP Skills extension's client rules for `mcpStorage`: whether a server declares the
//! extension, a `skills/list` page or `skills/get` result read into retained entries, the URI a
//! key may be read from, and a file's bytes verified against its entry. Conversion only; the
//! rules are `skillwasm::net::mcp`'s.

use super::{convert, to_js};
use convert::{BytesError, Unreadable};
use serde::Deserialize;
use skillwasm::diagnostic::codes;
use skillwasm::net::mcp::client::{McpPage, McpSkill, ReadOptions};
use skillwasm::net::mcp::client_bounds::{self, ListingBounds, ListingState, Measured};
use skillwasm::net::mcp::verify;
use skillwasm::net::mcp::MAX_SKILL_BYTES;
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
/**
 * A `skills/list` page (or a `skills/get` result) read: its usable entries and what was wrong.
 * `nextCursor` is null when the listing ends or stops at a bound (`mcp-listing-bound`); `listing`
 * is the state to read the listing's next message with.
 */
export interface McpSkillsPage { skills: McpSkill[]; nextCursor: string | null; diagnostics: Diagnostic[]; listing: McpListingState }
/** The host's bounds on one listing of one server, in bytes of JSON (defaults 4 MiB, 8 KiB, 64 MiB, 10,000). */
export interface McpListingBounds { maxMessageBytes?: number; maxCursorBytes?: number; maxListingBytes?: number; maxPages?: number }
/** What a listing carries from one message to the next (constant in size): pass back what the last page gave. */
export interface McpListingState { pages: number; bytes: number; mark: string | null }
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
    /// The host's bounds on the listing.
    #[serde(default)]
    bounds: ListingBounds,
    /// The listing's state after its previous message (absent for the first).
    #[serde(default)]
    listing: ListingState,
}

/// A page read, with the listing's state after it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct BoundedPage {
    #[serde(flatten)]
    page: McpPage,
    listing: ListingState,
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

/// Reads a `skills/list` result (or, with `get: true`, a `skills/get` result) into entries, as
/// one message of a listing in the state `listing` (the one the previous page gave back) within
/// `bounds`: the message is measured as it is read and not read past its budget, its cursor
/// checked. A result that cannot be read is a page of one `mcp-result-invalid`; a bound reached,
/// `mcp-listing-bound` and no cursor.
#[wasm_bindgen(js_name = parseMcpSkills, unchecked_return_type = "McpSkillsPage")]
pub fn parse_mcp_skills(
    #[wasm_bindgen(unchecked_param_type = "unknown")] result: JsValue,
    #[wasm_bindgen(
        unchecked_optional_param_type = "{ dynamic?: boolean; get?: boolean; bounds?: McpListingBounds; listing?: McpListingState }"
    )]
    opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let o: PageOptions = convert::options(&opts.unwrap_or_default(), "parseMcpSkills: opts")?;
    let read = ReadOptions { dynamic: o.dynamic };
    let budget = client_bounds::message_budget(&o.bounds, &o.listing);
    // The result comes from the server: what cannot be read within the bounds is a diagnostic.
    let measured = convert::data_within(&result, u32::try_from(budget).unwrap_or(u32::MAX));
    let value;
    let m = match measured {
        Ok((v, bytes)) => {
            value = v;
            Measured::Read(&value, bytes)
        }
        Err(Unreadable::TooLarge(_)) => Measured::Over,
        Err(e) => {
            let d = Diagnostic::error(codes::MCP_RESULT_INVALID, e.describe("the result"));
            let page = McpPage { diagnostics: vec![d], ..McpPage::default() };
            return to_js(&BoundedPage { page, listing: o.listing }).map_err(JsValue::from);
        }
    };
    let (page, listing) = if o.get {
        let (got, listing) = client_bounds::get_result(m, &o.bounds, &o.listing, &read);
        let page = match got {
            Ok(skill) => McpPage { skills: vec![skill], ..McpPage::default() },
            Err(d) => McpPage { diagnostics: vec![d], ..McpPage::default() },
        };
        (page, listing)
    } else {
        client_bounds::list_page(m, &o.bounds, &o.listing, &read)
    };
    to_js(&BoundedPage { page, listing }).map_err(JsValue::from)
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
