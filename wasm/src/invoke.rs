//! User invocation and permissions over a registry for JS: `/skill` and `$skill` in messages,
//! autocomplete, allowed-tools decisions. Argument substitution and skill-directory checks are
//! in the package's second module.

use super::registry::JsSkillRegistry;
use super::{convert, to_js};
use skillwasm::activate::permissions::{self, PermissionContext};
use skillwasm::Skill;
use wasm_bindgen::prelude::*;

/// The `/name args` at the start of a message and the `$name` mentions in it (outside code),
/// among the skills the registry's configuration lets the user invoke.
#[wasm_bindgen(js_name = parseMessage, unchecked_return_type = "ParsedMessage")]
pub fn parse_message(
    registry: &JsSkillRegistry,
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsValue> {
    let text = convert::string(&text, "parseMessage: text")?;
    to_js(&registry.inner.borrow().parse_message(&text)).map_err(JsValue::from)
}

/// Ranked suggestions for a partial `/name` (exact, prefix, word, then fuzzy matches), among the
/// skills the registry's configuration lets the user invoke.
#[wasm_bindgen(unchecked_return_type = "Suggestion[]")]
pub fn autocomplete(
    registry: &JsSkillRegistry,
    #[wasm_bindgen(unchecked_param_type = "string")] partial: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] limit: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let partial = convert::string(&partial, "autocomplete: partial")?;
    let limit = convert::opt_number(&limit.unwrap_or_default(), "autocomplete: limit")?.map_or(10, |n| {
        if n.is_finite() && n > 0.0 {
            n.min(u32::MAX.into()) as usize
        } else {
            0
        }
    });
    to_js(&registry.inner.borrow().autocomplete(&partial, limit)).map_err(JsValue::from)
}

/// Whether one of the active skills' `allowed-tools` pre-approves this call (and which entry).
#[wasm_bindgen(js_name = isToolAllowed, unchecked_return_type = "ToolDecision")]
pub fn is_tool_allowed(
    registry: &JsSkillRegistry,
    #[wasm_bindgen(js_name = activeSkills, unchecked_param_type = "string[]")] active_skills: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "unknown")] input: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "PermissionContext")] context: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let active_skills = convert::string_array(&active_skills, "isToolAllowed: activeSkills")?;
    let tool = convert::string(&tool, "isToolAllowed: tool")?;
    let ctx: PermissionContext = convert::options(&context.unwrap_or_default(), "isToolAllowed: context")?;
    // The input comes from the model: one that cannot be read is never pre-approved.
    let input = input.unwrap_or_default();
    let input = if input.is_undefined() || input.is_null() {
        None
    } else {
        match convert::data(&input) {
            Ok(v) => Some(v),
            Err(e) => {
                let reason = format!("not pre-approved: {}", e.describe("the tool input"));
                let denied = permissions::ToolDecision { allowed: false, skill: None, pattern: None, reason };
                return to_js(&denied).map_err(JsValue::from);
            }
        }
    };
    let host = registry.inner.borrow();
    let metas: Vec<_> = active_skills.iter().filter_map(|n| host.registry().get(n)).collect();
    let active: Vec<&Skill> = metas.iter().map(|m| &*m.skill).collect();
    to_js(&permissions::is_tool_allowed_with(&active, &tool, input.as_ref(), &ctx)).map_err(JsValue::from)
}
