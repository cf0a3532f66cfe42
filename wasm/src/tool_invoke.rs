//! The skill tool's `invoke(message)` for JS, present with the `invocation` feature.

use super::convert;
use super::tool::{promise, JsSkillTool};
use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(js_class = SkillTool)]
impl JsSkillTool {
    /// Handles a user's message: the skills it invokes (`/name args`, arguments substituted) or
    /// mentions (`$name`) among those the user may invoke, wrapped for the conversation and
    /// recorded in the session, and the text to send on. Never rejects.
    #[wasm_bindgen(unchecked_return_type = "Promise<Injection>")]
    pub fn invoke(&self, #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue) -> Promise {
        let message = match convert::string(&message, "SkillTool.invoke: message") {
            Ok(m) => m,
            Err(e) => return Promise::reject(&e),
        };
        let tool = self.inner.clone();
        promise(async move { tool.invoke(&message, js_sys::Date::now()).await })
    }
}
