//! The MCP Skills extension's server methods for JS (`SkillsMcp`), over the skills a core
//! module's registry serves (read through its port, [`super::served`]; extra.js makes the port
//! and the class users construct with a registry): conversion only; the methods, their results
//! and their errors are `skillwasm::net::mcp`'s.

use super::served::Port;
use super::{convert, to_js};
use js_sys::Promise;
use serde::Serialize;
use skillwasm::net::mcp::{McpOptions, RpcError, SkillsMcp};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_MCP: &'static str = r#"
/** How `SkillsMcp` pages and what caching its results announce. */
export interface SkillsMcpOptions {
  /** Entries per page of `skills/list`, `resources/list` and directory reads (default 50, at most 1000). */
  pageSize?: number;
  /** The results' `ttlMs` (default 60000). */
  ttlMs?: number;
  /** The results' `cacheScope` (default "private"). */
  cacheScope?: "public" | "private";
}
/** A JSON-RPC error to answer with: -32602 for what is not served, -32603 for a store that failed. */
export interface McpMethodError { error: { code: number; message: string } }
/** One file of a skill entry's manifest. */
export interface McpSkillResource { uri: string; digest: string; size: number }
/** A skill entry of `skills/list` and `skills/get`. */
export interface McpSkillEntry {
  uri: string;
  frontmatter: { name: string; description: string; [key: string]: unknown };
  resources: McpSkillResource[];
}
/** Caching fields every result carries. */
export interface McpCacheable { resultType: "complete"; ttlMs: number; cacheScope: "public" | "private" }
/** `skills/list`'s result. */
export interface McpListSkillsResult extends McpCacheable { skills: McpSkillEntry[]; nextCursor?: string }
/** `skills/get`'s result. */
export interface McpGetSkillResult extends McpCacheable { skill: McpSkillEntry }
/** `resources/read`'s result: `text` for UTF-8 files, `blob` (base64) for others. */
export interface McpReadResourceResult extends McpCacheable {
  contents: { uri: string; mimeType: string; text?: string; blob?: string }[];
}
/** A resource of `resources/list` or `resources/directory/read`. */
export interface McpResource { uri: string; name: string; description?: string; mimeType: string; size?: number }
/** `resources/list`'s and `resources/directory/read`'s result. */
export interface McpResourcesResult extends McpCacheable { resources: McpResource[]; nextCursor?: string }
"#;

/// The extension's methods over a registry.
#[wasm_bindgen(js_name = SkillsMcp)]
pub struct JsSkillsMcp {
    inner: SkillsMcp,
}

#[derive(Serialize)]
struct Failed {
    error: RpcError,
}

fn answer<T: Serialize>(r: Result<T, RpcError>) -> Result<JsValue, JsValue> {
    match r {
        Ok(v) => to_js(&v),
        Err(error) => to_js(&Failed { error }),
    }
    .map_err(JsValue::from)
}

fn arg(v: &JsValue, what: &str) -> Result<Option<String>, JsValue> {
    convert::opt_string(v, what)
}

#[wasm_bindgen(js_class = SkillsMcp)]
impl JsSkillsMcp {
    /// The methods over the registry whose port `port` is (made by extra.js).
    #[wasm_bindgen(constructor)]
    pub fn new(
        port: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SkillsMcpOptions")] options: Option<JsValue>,
    ) -> Result<JsSkillsMcp, JsValue> {
        let options: McpOptions = convert::options(&options.unwrap_or_default(), "SkillsMcp: options")?;
        let port = Port::new(port).map_err(|e| convert::type_error(&format!("SkillsMcp: {e}")))?;
        Ok(JsSkillsMcp { inner: SkillsMcp::over(Rc::new(port), options) })
    }

    /// `skills/list`: a page of entries. Never rejects but for an argument of the wrong type: a method error is `{ error: { code, message } }`.
    #[wasm_bindgen(js_name = listSkills, unchecked_return_type = "Promise<McpListSkillsResult | McpMethodError>")]
    pub fn list_skills(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] cursor: Option<JsValue>,
    ) -> Promise {
        let cursor = arg(&cursor.unwrap_or_default(), "SkillsMcp.listSkills: cursor");
        let mcp = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move { answer(mcp.list_skills(cursor?.as_deref()).await) })
    }

    /// `skills/get`: the entry of the skill at `uri` (listed or not).
    #[wasm_bindgen(js_name = getSkill, unchecked_return_type = "Promise<McpGetSkillResult | McpMethodError>")]
    pub fn get_skill(&self, #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue) -> Promise {
        let uri = convert::string(&uri, "SkillsMcp.getSkill: uri");
        let mcp = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move { answer(mcp.get_skill(&uri?).await) })
    }

    /// `resources/read` of a `skill://` file: its bytes as `text` or `blob`.
    #[wasm_bindgen(js_name = readResource, unchecked_return_type = "Promise<McpReadResourceResult | McpMethodError>")]
    pub fn read_resource(&self, #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue) -> Promise {
        let uri = convert::string(&uri, "SkillsMcp.readResource: uri");
        let mcp = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move { answer(mcp.read_resource(&uri?).await) })
    }

    /// `resources/directory/read`: a page of a skill directory's direct children.
    #[wasm_bindgen(js_name = readDirectory, unchecked_return_type = "Promise<McpResourcesResult | McpMethodError>")]
    pub fn read_directory(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] cursor: Option<JsValue>,
    ) -> Promise {
        let uri = convert::string(&uri, "SkillsMcp.readDirectory: uri");
        let cursor = arg(&cursor.unwrap_or_default(), "SkillsMcp.readDirectory: cursor");
        let mcp = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(
            async move { answer(mcp.read_directory(&uri?, cursor?.as_deref()).await) },
        )
    }

    /// `resources/list`: a page of the listed skills' SKILL.md resources (no store call).
    #[wasm_bindgen(js_name = listResources, unchecked_return_type = "McpResourcesResult | McpMethodError")]
    pub fn list_resources(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] cursor: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let cursor = arg(&cursor.unwrap_or_default(), "SkillsMcp.listResources: cursor")?;
        answer(self.inner.list_resources(cursor.as_deref()))
    }

    /// Why skills were left out of listings, oldest first.
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.diagnostics()).map_err(JsValue::from)
    }
}
