//! Argument substitution and skill-directory checks for JS: `substituteArguments`,
//! `isInSkillDirectory` (pure functions, in the package's second module).

use super::convert;
use skillwasm::activate::invoke::{self, SubstituteOptions};
use skillwasm::activate::permissions;
use wasm_bindgen::prelude::*;

/// `$ARGUMENTS`, `$0`…`$9`, `$ARGUMENTS[N]` and the names of `argumentHint`, substituted in a
/// skill body outside code.
#[wasm_bindgen(js_name = substituteArguments)]
pub fn substitute_arguments(
    #[wasm_bindgen(unchecked_param_type = "string")] body: JsValue,
    #[wasm_bindgen(js_name = args, unchecked_param_type = "string")] arguments: JsValue,
    #[wasm_bindgen(js_name = argumentHint, unchecked_optional_param_type = "string | null")] hint: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "SubstituteOptions")] options: Option<JsValue>,
) -> Result<String, JsValue> {
    let body = convert::string(&body, "substituteArguments: body")?;
    let arguments = convert::string(&arguments, "substituteArguments: arguments")?;
    let argument_hint = convert::opt_string(&hint.unwrap_or_default(), "substituteArguments: argumentHint")?;
    let opts: SubstituteOptions = convert::options(&options.unwrap_or_default(), "substituteArguments: options")?;
    let names = argument_hint.as_deref().map(invoke::argument_names).unwrap_or_default();
    Ok(invoke::substitute_arguments_with(&body, &arguments, &names, &opts))
}

/// Whether `path` lies inside one of `skillDirectories` (lexically: `..`, encoded dots and NUL
/// refused), for hosts that allowlist reads of bundled resources.
#[wasm_bindgen(js_name = isInSkillDirectory)]
pub fn is_in_skill_directory(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(js_name = skillDirectories, unchecked_param_type = "string[]")] skill_directories: JsValue,
) -> Result<bool, JsValue> {
    let path = convert::string(&path, "isInSkillDirectory: path")?;
    let skill_directories = convert::string_array(&skill_directories, "isInSkillDirectory: skillDirectories")?;
    let dirs: Vec<&str> = skill_directories.iter().map(String::as_str).collect();
    Ok(permissions::is_in_skill_directory(&path, &dirs))
}
