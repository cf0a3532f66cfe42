//! What the package's second module needs of a registry or a skill tool for user invocation and
//! permissions, as plain data: the skills the user may invoke (for `parseMessage`, `autocomplete`
//! and `SkillTool.invoke`, handed over once per visibility: the second module keeps them), the
//! active skills' `allowed-tools` (for `isToolAllowed`), and the skill tool's side of `invoke`
//! (reading, wrapping and recording the skills a message the second module read names). The rules
//! run in the second module; internal to the package: not exported by its entry points.

use super::promise::promise;
use super::registry::JsSkillRegistry;
use super::tool::JsSkillTool;
use super::{convert, options_error};
use js_sys::{Function, Promise};
use serde::Serialize;
use skillwasm::activate::invoke::ParsedMessage;
use skillwasm::diagnostic::codes;
use skillwasm::host::{self, View};
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

/// `null` when `known` is the view's serial (the second module holds its skills already), else
/// `[serial, json]`: the serial and the user-invocable skills of the view as JSON text.
fn invocables(view: &View, known: &JsValue) -> Result<JsValue, JsValue> {
    // Serials count up from 1 and stay far below 2^53: exact as JS numbers.
    let serial = view.serial() as f64;
    if known.as_f64() == Some(serial) {
        return Ok(JsValue::NULL);
    }
    let skills: Vec<Invocable> = view
        .user_skills()
        .iter()
        .filter(|s| s.user_invocable)
        .map(|s| Invocable { name: &s.name, description: &s.description, argument_hint: s.argument_hint.as_deref() })
        .collect();
    let json = serde_json::to_string(&skills).map_err(|e| options_error(&e.to_string()))?;
    Ok(js_sys::Array::of2(&serial.into(), &json.into()).into())
}

/// The skills the registry's configuration lets the user invoke (see [`invocables`]).
#[wasm_bindgen(js_name = __sw_registryInvocables)]
pub fn registry_invocables(registry: &JsSkillRegistry, known: JsValue) -> Result<JsValue, JsValue> {
    let view = registry.inner.borrow().view();
    invocables(&view, &known)
}

/// The skills the tool lets the user invoke (see [`invocables`]).
#[wasm_bindgen(js_name = __sw_toolInvocables)]
pub fn tool_invocables(tool: &JsSkillTool, known: JsValue) -> Result<JsValue, JsValue> {
    invocables(&tool.inner.user_view(), &known)
}

/// The active skills of `isToolAllowed` that the registry holds, in the order named, as JSON
/// text: `[{ name, allowedTools }]`. A remote skill whose current content the host has not
/// approved has no `allowedTools` (see `SkillHost::allowed_tools_apply`).
#[wasm_bindgen(js_name = __sw_activeSkills)]
pub fn active_skills(registry: &JsSkillRegistry, active_skills: JsValue) -> Result<String, JsValue> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Active<'a> {
        name: &'a str,
        allowed_tools: &'a [String],
    }
    let names = convert::string_array(&active_skills, "isToolAllowed: activeSkills")?;
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

/// `SkillTool.invoke` for a message the second module read: `parsed` is its `ParsedMessage` as
/// JSON text, `substitute(body, arguments, fields)` the second module's argument substitution
/// (see [`substitution_fields`]). Reads, wraps and records the skills as the tool does; never
/// rejects once started (a substitution that throws costs its skill a `tool-failed` error).
/// `options` are the caller's `{ force? }` (read before anything else: a wrong one is a
/// `TypeError`).
#[wasm_bindgen(js_name = __sw_toolInvoke)]
pub fn tool_invoke(tool: &JsSkillTool, parsed: &str, substitute: Function, options: JsValue) -> Promise {
    let options = convert::options_by(&options, "SkillTool.invoke: options", &[], host::invoke_options_from_json);
    let force = match options {
        Ok((o, _)) => o.force,
        Err(e) => return Promise::reject(&e),
    };
    let parsed = skillwasm::json::from_str(parsed)
        .map_err(|e| e.to_string())
        .and_then(|v| ParsedMessage::from_json(&v).map_err(|e| e.to_string()));
    let parsed = match parsed {
        Ok(p) => p,
        Err(e) => return Promise::reject(&options_error(&format!("SkillTool.invoke: {e}"))),
    };
    let tool = tool.inner.clone();
    promise(async move {
        let substitute = |skill: &Skill, body: &str, arguments: &str| -> Result<String, Diagnostic> {
            let fields = substitution_fields(skill);
            match substitute.call3(&JsValue::UNDEFINED, &body.into(), &arguments.into(), &fields.into()) {
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
