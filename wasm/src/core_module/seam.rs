//! What the package's second module needs of a skill tool for its transcript operations, as
//! plain data: the tool's name, the contents a re-attachment puts back (read through the
//! registry's stores), and the skills a transcript still holds in full, which the tool's session
//! (or a session) then follows. Internal to the package: not exported by its entry points.

use super::tool::{JsSkillSession, JsSkillTool};
use super::{convert, to_js};
use js_sys::Promise;
use serde::Serialize;
use std::collections::HashSet;
use wasm_bindgen::prelude::*;

/// Most skills a transcript can name as present (one per skill of a registry, at most).
const MAX_PRESENT: usize = 1_000_000;

fn present(value: &JsValue) -> Result<Vec<String>, JsValue> {
    let names = convert::string_array(value, "present")?;
    if names.len() > MAX_PRESENT {
        return Err(convert::type_error("present: too many names"));
    }
    Ok(names)
}

/// The name the tool goes by (its uses in transcripts are the ones it follows).
#[wasm_bindgen(js_name = __sw_toolName)]
pub fn tool_name(tool: &JsSkillTool) -> String {
    tool.inner.config().tool_name.clone()
}

/// What a re-attachment by `tool` puts back: `{ toolName, contents: [{ name, content }], catalog }`.
#[wasm_bindgen(js_name = __sw_reattachContents)]
pub fn reattach_contents(tool: &JsSkillTool) -> Promise {
    #[derive(Serialize)]
    struct Content {
        name: String,
        content: String,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Contents {
        tool_name: String,
        contents: Vec<Content>,
        catalog: Option<String>,
    }
    let tool = tool.inner.clone();
    super::promise::spawn(Box::pin(async move {
        let (contents, catalog) = tool.reattach_contents().await;
        let contents = contents.into_iter().map(|(name, content)| Content { name, content }).collect();
        to_js(&Contents { tool_name: tool.config().tool_name.clone(), contents, catalog }).map_err(JsValue::from)
    }))
}

/// The tool's session follows a transcript that holds the instructions of `present` in full.
#[wasm_bindgen(js_name = __sw_toolFollow)]
pub fn tool_follow(tool: &JsSkillTool, present_names: JsValue) -> Result<JsValue, JsValue> {
    let names = present(&present_names)?;
    let set: HashSet<&str> = names.iter().map(String::as_str).collect();
    to_js(&tool.inner.follow(&set)).map_err(JsValue::from)
}

/// `session` follows a transcript that holds the instructions of `present` in full.
#[wasm_bindgen(js_name = __sw_sessionFollow)]
pub fn session_follow(session: &JsSkillSession, present_names: JsValue) -> Result<JsValue, JsValue> {
    let names = present(&present_names)?;
    let set: HashSet<&str> = names.iter().map(String::as_str).collect();
    to_js(&session.inner.borrow_mut().observe(&set)).map_err(JsValue::from)
}
