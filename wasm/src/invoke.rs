//! User invocation and permissions for JS: `/skill` and `$skill` in messages, argument
//! substitution, autocomplete, allowed-tools decisions, skill-directory checks.

use super::registry::JsSkillRegistry;
use super::{options_error, to_js};
use skillwasm::activate::invoke::{self, SubstituteOptions};
use skillwasm::activate::permissions::{self, PermissionContext};
use skillwasm::Skill;
use wasm_bindgen::prelude::*;

/// The `/name args` at the start of a message and the `$name` mentions in it (outside code),
/// among the skills the registry's configuration lets the user invoke.
#[wasm_bindgen(js_name = parseMessage, unchecked_return_type = "ParsedMessage")]
pub fn parse_message(registry: &JsSkillRegistry, text: &str) -> Result<JsValue, JsValue> {
    to_js(&registry.inner.borrow().parse_message(text)).map_err(JsValue::from)
}

/// Ranked suggestions for a partial `/name` (exact, prefix, word, then fuzzy matches), among the
/// skills the registry's configuration lets the user invoke.
#[wasm_bindgen(unchecked_return_type = "Suggestion[]")]
pub fn autocomplete(registry: &JsSkillRegistry, partial: &str, limit: Option<u32>) -> Result<JsValue, JsValue> {
    to_js(&registry.inner.borrow().autocomplete(partial, limit.unwrap_or(10) as usize)).map_err(JsValue::from)
}

/// `$ARGUMENTS`, `$0`…`$9`, `$ARGUMENTS[N]` and the names of `argumentHint`, substituted in a
/// skill body outside code.
#[wasm_bindgen(js_name = substituteArguments)]
pub fn substitute_arguments(
    body: &str,
    arguments: &str,
    argument_hint: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "SubstituteOptions")] options: JsValue,
) -> Result<String, JsValue> {
    let opts: SubstituteOptions = if options.is_undefined() || options.is_null() {
        SubstituteOptions::default()
    } else {
        serde_wasm_bindgen::from_value(super::defined(options))
            .map_err(|e| options_error(&format!("substituteArguments options: {e}")))?
    };
    let names = argument_hint.as_deref().map(invoke::argument_names).unwrap_or_default();
    Ok(invoke::substitute_arguments_with(body, arguments, &names, &opts))
}

/// Whether one of the active skills' `allowed-tools` pre-approves this call (and which entry).
#[wasm_bindgen(js_name = isToolAllowed, unchecked_return_type = "ToolDecision")]
pub fn is_tool_allowed(
    registry: &JsSkillRegistry,
    active_skills: Vec<String>,
    tool: &str,
    input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PermissionContext")] context: JsValue,
) -> Result<JsValue, JsValue> {
    let input: Option<serde_json::Value> = if input.is_undefined() || input.is_null() {
        None
    } else {
        Some(serde_wasm_bindgen::from_value(input).map_err(|e| options_error(&format!("isToolAllowed input: {e}")))?)
    };
    let ctx: PermissionContext = if context.is_undefined() || context.is_null() {
        PermissionContext::default()
    } else {
        serde_wasm_bindgen::from_value(super::defined(context))
            .map_err(|e| options_error(&format!("isToolAllowed context: {e}")))?
    };
    let host = registry.inner.borrow();
    let metas: Vec<_> = active_skills.iter().filter_map(|n| host.registry().get(n)).collect();
    let active: Vec<&Skill> = metas.iter().map(|m| &m.skill).collect();
    to_js(&permissions::is_tool_allowed_with(&active, tool, input.as_ref(), &ctx)).map_err(JsValue::from)
}

/// Whether `path` lies inside one of `skillDirectories` (lexically: `..`, encoded dots and NUL
/// refused), for hosts that allowlist reads of bundled resources.
#[wasm_bindgen(js_name = isInSkillDirectory)]
pub fn is_in_skill_directory(path: &str, skill_directories: Vec<String>) -> bool {
    let dirs: Vec<&str> = skill_directories.iter().map(String::as_str).collect();
    permissions::is_in_skill_directory(path, &dirs)
}
