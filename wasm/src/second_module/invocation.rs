//! User invocation and permissions over a registry, on the data the core's module hands over
//! (see its `seam_invoke`): `parseMessage`, `autocomplete` and the message side of
//! `SkillTool.invoke` read the skills the user may invoke, kept here once per visibility
//! ([`Invocables`]); `isToolAllowed` reads the active skills' `allowed-tools`; a slash
//! invocation's arguments are substituted into a body here. The rules are the core's, run as they
//! are; internal to the package: not exported by its entry points (extra.js puts the public
//! functions together).

use super::{convert, options_error, to_js};
use serde::Deserialize;
use skillwasm::activate::invoke::{self, SubstituteOptions};
use skillwasm::activate::permissions::{self, PermissionContext};
use skillwasm::Skill;
use wasm_bindgen::prelude::*;

/// One skill the user may invoke, as the core's module writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Invocable {
    name: String,
    description: String,
    #[serde(default)]
    argument_hint: Option<String>,
}

/// The skills one visibility of a registry lets the user invoke, in its order (by name), with the
/// fields the invocation rules read.
#[wasm_bindgen(js_name = __sw_Invocables)]
pub struct Invocables {
    skills: Vec<Skill>,
    /// The search index over their names and descriptions, built by the first autocomplete that
    /// searches descriptions and kept as long as this visibility is.
    described: std::cell::OnceCell<skillwasm::search::SearchIndex>,
}

#[wasm_bindgen(js_class = __sw_Invocables)]
impl Invocables {
    /// The skills from the core module's JSON text.
    #[wasm_bindgen(constructor)]
    pub fn new(json: &str) -> Result<Invocables, JsValue> {
        let list: Vec<Invocable> = serde_json::from_str(json).map_err(|e| options_error(&e.to_string()))?;
        let skills = list
            .into_iter()
            .map(|i| Skill {
                name: i.name,
                description: i.description,
                argument_hint: i.argument_hint,
                user_invocable: true,
                ..Skill::default()
            })
            .collect();
        Ok(Invocables { skills, described: std::cell::OnceCell::new() })
    }
}

/// The `/name args` and `$name` of `text` among `skills`: the `ParsedMessage`, or (`json`) its
/// JSON text for the core's `SkillTool.invoke`. `what` names the parameter in errors.
#[wasm_bindgen(js_name = __sw_parseMessage)]
pub fn parse_message(skills: &Invocables, text: JsValue, what: &str, json: bool) -> Result<JsValue, JsValue> {
    let text = convert::string(&text, what)?;
    let parsed = invoke::parse_message(&text, &skills.skills);
    if json {
        return serde_json::to_string(&parsed).map(JsValue::from).map_err(|e| options_error(&e.to_string()));
    }
    to_js(&parsed).map_err(JsValue::from)
}

/// Ranked suggestions for a partial `/name` among `skills` (at most `limit`, 10 when absent).
#[wasm_bindgen(js_name = __sw_autocomplete)]
pub fn autocomplete(skills: &Invocables, partial: JsValue, limit: JsValue) -> Result<JsValue, JsValue> {
    let partial = convert::string(&partial, "autocomplete: partial")?;
    let limit = convert::opt_number(&limit, "autocomplete: limit")?.map_or(10, |n| {
        if n.is_finite() && n > 0.0 {
            n.min(u32::MAX.into()) as usize
        } else {
            0
        }
    });
    to_js(&invoke::autocomplete_described(&partial, &skills.skills, limit, Some(&skills.described)))
        .map_err(JsValue::from)
}

/// Whether one of the active skills (`active`: the core module's `[{ name, allowedTools }]` JSON
/// text) pre-approves this call of `tool` (and which entry).
#[wasm_bindgen(js_name = __sw_isToolAllowed)]
pub fn is_tool_allowed(active: &str, tool: JsValue, input: JsValue, context: JsValue) -> Result<JsValue, JsValue> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Active {
        name: String,
        allowed_tools: Vec<String>,
    }
    let active: Vec<Active> = serde_json::from_str(active).map_err(|e| options_error(&e.to_string()))?;
    let tool = convert::string(&tool, "isToolAllowed: tool")?;
    let ctx: PermissionContext = convert::options(&context, "isToolAllowed: context")?;
    // The input comes from the model: one that cannot be read is never pre-approved.
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
    let skills: Vec<Skill> = active
        .into_iter()
        .map(|a| Skill { name: a.name, allowed_tools: a.allowed_tools, ..Skill::default() })
        .collect();
    let refs: Vec<&Skill> = skills.iter().collect();
    to_js(&permissions::is_tool_allowed_with(&refs, &tool, input.as_ref(), &ctx)).map_err(JsValue::from)
}

/// A slash invocation's `arguments` substituted into a skill's `body`, with the argument names
/// its `fields` give (`{ argumentHint, arguments }`, JSON text from the core's module).
#[wasm_bindgen(js_name = __sw_substituteInvocation)]
pub fn substitute_invocation(body: &str, arguments: &str, fields: &str) -> Result<String, JsValue> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Fields {
        #[serde(default)]
        argument_hint: Option<String>,
        #[serde(default)]
        arguments: Option<serde_json::Value>,
    }
    let fields: Fields = serde_json::from_str(fields).map_err(|e| options_error(&e.to_string()))?;
    let mut skill = Skill { argument_hint: fields.argument_hint, ..Skill::default() };
    if let Some(declared) = fields.arguments {
        skill.extra.insert("arguments".to_string(), declared);
    }
    let names = invoke::skill_argument_names(&skill);
    Ok(invoke::substitute_arguments_with(body, arguments, &names, &SubstituteOptions::default()))
}
