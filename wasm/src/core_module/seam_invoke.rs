//! User invocation and permissions, whose rules run in the package's second module:
//! `parseMessage`, `autocomplete`, `isToolAllowed` and `SkillTool#invoke` are this module's, and
//! ask the second through [`ask_second_module`] with what it needs as plain data (the skills the
//! user may invoke, handed over once per visibility and kept there under an object the registry or
//! tool owns; the active skills' `allowed-tools`). `invoke` reads, wraps and records the skills the
//! message names itself, substituting arguments through the second module.

use super::promise::promise;
use super::registry::JsSkillRegistry;
use super::seam::ask_second_module;
use super::tool::JsSkillTool;
use super::{convert, options_error};
use js_sys::Promise;
use serde::Serialize;
use skillwasm::activate::invoke::ParsedMessage;
use skillwasm::diagnostic::codes;
use skillwasm::host::{self, SkillTool, View};
use skillwasm::{Diagnostic, Skill};
use wasm_bindgen::prelude::*;

/// Most names `isToolAllowed` may call active (one per skill of a registry, at most).
const MAX_ACTIVE: usize = 1_000_000;

/// One skill the user may invoke, with the fields the invocation rules read.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocable<'a> {
    name: &'a str,
    description: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    argument_hint: Option<&'a str>,
}

/// The active skills of `isToolAllowed` that the registry holds, in the order named, as JSON
/// text: `[{ name, allowedTools }]`. A remote skill whose current content the host has not
/// approved has no `allowedTools` (see `SkillHost::allowed_tools_apply`).
fn active_skills(registry: &JsSkillRegistry, active_skills: &JsValue) -> Result<String, JsValue> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Active<'a> {
        name: &'a str,
        allowed_tools: &'a [String],
    }
    let names = convert::string_array(active_skills, "isToolAllowed: activeSkills")?;
    if names.len() > MAX_ACTIVE {
        return Err(convert::type_error("isToolAllowed: activeSkills: too many names"));
    }
    let host = registry.inner.borrow();
    let metas: Vec<_> = names.iter().filter_map(|n| host.registry().get(n)).collect();
    let active: Vec<Active> = metas
        .iter()
        .map(|m| {
            let allowed_tools: &[String] = if host.allowed_tools_apply(m) { &m.skill.allowed_tools } else { &[] };
            Active { name: &m.skill.name, allowed_tools }
        })
        .collect();
    serde_json::to_string(&active).map_err(|e| options_error(&e.to_string()))
}

/// The second module's answer to `op` over the user-invocable skills of `view`, kept there under
/// `owner` at the view's serial: asked with the serial only, and again with the skills as JSON
/// when it answers null (it does not hold them: a new visibility, or a second module started
/// anew after a trap). `rest` follows `[owner, serial, skills]` in the arguments.
fn over_invocables(owner: &js_sys::Object, view: &View, op: &str, rest: &[&JsValue]) -> Result<JsValue, JsValue> {
    // Serials count up from 1 and stay far below 2^53: exact as JS numbers.
    let serial = JsValue::from(view.serial() as f64);
    let ask = |skills: &JsValue| {
        let args = js_sys::Array::of3(owner, &serial, skills);
        for value in rest {
            args.push(value);
        }
        ask_second_module(op, &args)
    };
    let answer = ask(&JsValue::NULL)?;
    if !answer.is_null() {
        return Ok(answer);
    }
    ask(&invocables_json(view)?.into())
}

/// Reads a user's message over the skills `registry` lets the user invoke: the skills it invokes
/// (`/name args`) or mentions (`$name`), and the text to send on.
#[wasm_bindgen(js_name = parseMessage, skip_typescript)]
pub fn parse_message(registry: &JsSkillRegistry, text: JsValue) -> Result<JsValue, JsValue> {
    let view = registry.inner.borrow().view();
    over_invocables(&registry.owner, &view, "parseMessage", &[&text, &"parseMessage: text".into(), &false.into()])
}

/// Ranked suggestions for a partial `/name` among the skills `registry` lets the user invoke (at
/// most `limit`, 10 when absent).
#[wasm_bindgen(skip_typescript)]
pub fn autocomplete(registry: &JsSkillRegistry, partial: JsValue, limit: JsValue) -> Result<JsValue, JsValue> {
    let view = registry.inner.borrow().view();
    over_invocables(&registry.owner, &view, "autocomplete", &[&partial, &limit])
}

/// Whether the active skills' `allowed-tools` pre-approve a call of `tool` with `input`.
#[wasm_bindgen(js_name = isToolAllowed, skip_typescript)]
pub fn is_tool_allowed(
    registry: &JsSkillRegistry,
    active: JsValue,
    tool: JsValue,
    input: JsValue,
    context: JsValue,
) -> Result<JsValue, JsValue> {
    let active = active_skills(registry, &active)?;
    ask_second_module("isToolAllowed", &js_sys::Array::of4(&active.into(), &tool, &input, &context))
}

/// What the argument substitution of a skill reads besides the body: `{ argumentHint, arguments }`
/// (its `argument-hint` and its declared `arguments`), as JSON text.
fn substitution_fields(skill: &Skill) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Fields<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        argument_hint: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        arguments: Option<&'a serde_json::Value>,
    }
    let fields = Fields { argument_hint: skill.argument_hint.as_deref(), arguments: skill.extra.get("arguments") };
    serde_json::to_string(&fields).unwrap_or_else(|_| "{}".to_string())
}

/// The user-invocable skills of `view` as the second module reads them: JSON text.
fn invocables_json(view: &View) -> Result<String, JsValue> {
    let skills: Vec<Invocable> = view
        .user_skills()
        .iter()
        .filter(|s| s.user_invocable)
        .map(|s| Invocable { name: &s.name, description: &s.description, argument_hint: s.argument_hint.as_deref() })
        .collect();
    serde_json::to_string(&skills).map_err(|e| options_error(&e.to_string()))
}

#[wasm_bindgen(js_class = SkillTool)]
impl JsSkillTool {
    /// Handles a user's message: the skills it invokes or mentions among those the user may
    /// invoke, read, wrapped and recorded as the tool does, with the text to send on. The second
    /// module reads the message (it keeps the tool's invocable skills, handed over once per
    /// visibility) and substitutes the arguments. `options` are the caller's `{ force? }`.
    /// Rejects on arguments of the wrong type; never once started (a substitution that fails
    /// costs its skill a `tool-failed` error).
    #[wasm_bindgen(skip_typescript)]
    pub fn invoke(&self, message: JsValue, options: JsValue) -> Promise {
        match self.read_message(&message).and_then(|parsed| {
            let options =
                convert::options_by(&options, "SkillTool.invoke: options", &[], host::invoke_options_from_json)?;
            Ok((parsed, options.0.force))
        }) {
            Ok((parsed, force)) => invoke_parsed(self.inner.clone(), parsed, force),
            Err(e) => Promise::reject(&e),
        }
    }
}

impl JsSkillTool {
    /// The second module's reading of `message` (`parseMessage`, see [`over_invocables`]).
    fn read_message(&self, message: &JsValue) -> Result<ParsedMessage, JsValue> {
        let view = self.inner.user_view();
        let what: JsValue = "SkillTool.invoke: message".into();
        let answer = over_invocables(&self.owner, &view, "parseMessage", &[message, &what, &true.into()])?;
        let text = answer.as_string().ok_or_else(|| options_error("SkillTool.invoke: the message was not read"))?;
        skillwasm::json::from_str(&text)
            .map_err(|e| e.to_string())
            .and_then(|v| ParsedMessage::from_json(&v).map_err(|e| e.to_string()))
            .map_err(|e| options_error(&format!("SkillTool.invoke: {e}")))
    }
}

/// Reads, wraps and records the skills `parsed` names as `tool` does, substituting arguments
/// through the second module (see [`substitution_fields`]).
fn invoke_parsed(tool: SkillTool, parsed: ParsedMessage, force: bool) -> Promise {
    promise(async move {
        let substitute = |skill: &Skill, body: &str, arguments: &str| -> Result<String, Diagnostic> {
            let args = js_sys::Array::of3(&body.into(), &arguments.into(), &substitution_fields(skill).into());
            match ask_second_module("substituteInvocation", &args) {
                Ok(v) => v.as_string().ok_or_else(|| substitution_failed(skill, "it did not return text")),
                Err(e) => Err(substitution_failed(skill, &convert::describe_error(e))),
            }
        };
        tool.invoke_parsed(parsed, &substitute, force, js_sys::Date::now()).await
    })
}

fn substitution_failed(skill: &Skill, why: &str) -> Diagnostic {
    Diagnostic::error(
        codes::TOOL_FAILED,
        format!("the arguments of skill '{}' could not be substituted: {why}", skill.name),
    )
}
