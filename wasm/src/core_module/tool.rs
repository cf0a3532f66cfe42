//! The catalog and the skill tool for JS: `renderCatalog`, `SkillSession`, `SkillTool`. Each
//! export converts its arguments, calls the core (`skillwasm::host`) and converts the result; the
//! host's permission predicate is a JS function the core calls once per skill per generation.

use super::promise::promise;
use super::registry::{predicate, JsSkillRegistry};
use super::{convert, options_error, to_js};
use crate::boundary::catalog::catalog_to_js;
use js_sys::Promise;
use serde_json::{Map, Value};
use skillwasm::activate::{CallArguments, SkillSession, ToolInput};
use skillwasm::disclose::CatalogResult;
use skillwasm::host::{self, Permitted, SkillTool, SkillsConfig};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TOOL: &'static str = r#"
/** Decides whether a skill may be shown and used (called once per skill, with its metadata). */
export type SkillPredicate = (skill: SkillMeta) => boolean;
/**
 * Per-call overrides of the registry's configuration for one catalog (format, budget, locale ...;
 * filters given here apply to this catalog only, so give them in the registry's options for the
 * tool and user invocation to agree).
 */
export interface RenderCatalogOptions extends CatalogOptions { permitted?: SkillPredicate }
/**
 * Overrides of the registry's configuration for one tool (its name, limits, scope paths) and,
 * under `catalog`, of the catalog it offers; the tool's `invoke` and transcript operations follow
 * the same overrides.
 */
export interface SkillToolOptions extends ToolOptions {
  catalog?: CatalogOptions;
  permitted?: SkillPredicate;
  /** The agent this tool serves: skills whose `metadata.agents` does not name it are left out. */
  agent?: string;
}
/** A {@link ToolResult} that narrows on `isError`: a call that loaded nothing always says why. */
export type ToolOutcome =
  | (ToolResult & { isError: false; error?: undefined })
  | (ToolResult & { isError: true; error: Diagnostic });
"#;

/// An options object as overrides of the configuration (its plain keys, the keys under `nested`
/// first) and its `permitted` predicate; read once, within the bounds.
fn overrides(
    options: &JsValue,
    nested: Option<&str>,
    what: &str,
) -> Result<(Map<String, Value>, Option<Permitted>), JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok((Map::new(), None));
    }
    let (value, taken) = convert::options_value(options, what, &["permitted"])?;
    let Value::Object(mut own) = value else { return Ok((Map::new(), None)) };
    // The keys each level takes: a tool's own and `catalog` (the catalog's), or the catalog's.
    let mut own_keys = if nested.is_some() { host::tool_keys() } else { host::catalog_keys() };
    own_keys.extend(nested.into_iter().chain(["permitted"]).map(str::to_string));
    if let Some((key, message)) = host::unknown_key(&own, &own_keys) {
        return Err(options_error(&format!("{what}.{key}: {message}")));
    }
    let mut map = match nested.and_then(|k| own.remove(k)) {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => {
            if let Some((key, message)) = host::unknown_key(&m, &host::catalog_keys()) {
                return Err(options_error(&format!("{what}.{}.{key}: {message}", nested.unwrap_or_default())));
            }
            m
        }
        Some(_) => return Err(options_error(&format!("{what}.{} must be an object", nested.unwrap_or_default()))),
    };
    own.remove("permitted");
    map.extend(own);
    // Checked alone first, so that a value of the wrong type is a TypeError naming its key.
    let map = Value::Object(map);
    SkillsConfig::from_json_keyed(&map).map_err(|e| convert::keyed_error(what, e))?;
    let Value::Object(map) = map else { return Ok((Map::new(), None)) };
    Ok((map, predicate(&taken, what)?))
}

/// Renders the catalog of a registry's visible skills (filtered, localised, within the budget),
/// as the registry's configuration says, with `options` overriding parts of it for this call.
/// `text` is null when no skill is visible: then there is no catalog, no instructions, no tool.
#[wasm_bindgen(js_name = renderCatalog, unchecked_return_type = "CatalogResult")]
pub fn render_catalog(
    registry: &JsSkillRegistry,
    #[wasm_bindgen(unchecked_optional_param_type = "RenderCatalogOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let (over, permitted) = overrides(&options.unwrap_or_default(), None, "renderCatalog: options")?;
    let host = registry.inner.borrow();
    if over.is_empty() && permitted.is_none() {
        // The host keeps its catalog: handed over as a copy (its dropped names shared, not copied).
        return catalog_to_js(CatalogResult::clone(&host.catalog()));
    }
    let config = host
        .config()
        .with_overrides(&over, permitted)
        .map_err(|e| options_error(&format!("renderCatalog: options: {e}")))?;
    catalog_to_js(host.render_catalog(&config))
}

/// What one conversation has loaded: repeated activations get a short pointer instead of the
/// body again, until the instructions leave the conversation. Also the record of activations
/// (name, path, when, size) for analytics.
#[wasm_bindgen(js_name = SkillSession)]
#[derive(Default)]
pub struct JsSkillSession {
    pub(crate) inner: Rc<RefCell<SkillSession>>,
}

#[wasm_bindgen(js_class = SkillSession)]
impl JsSkillSession {
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsSkillSession {
        JsSkillSession::default()
    }

    /// The latest activations and file reads, oldest first: at most 1000 (the oldest go first),
    /// so that a long conversation's session stays small. `counts()` counts them all.
    #[wasm_bindgen(unchecked_return_type = "Activation[]")]
    pub fn activations(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.borrow().activations).map_err(JsValue::from)
    }

    /// How often each skill was loaded (instructions and files, bytes, the last time), by name:
    /// every load of this session, also those `activations()` no longer keeps.
    #[wasm_bindgen(unchecked_return_type = "SkillCount[]")]
    pub fn counts(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.borrow().counts()).map_err(JsValue::from)
    }

    /// Whether the conversation holds the instructions of `name` (loaded, and not compacted or
    /// pruned away since).
    #[wasm_bindgen(js_name = isLoaded)]
    pub fn is_loaded(&self, #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> Result<bool, JsValue> {
        let name = convert::string(&name, "SkillSession.isLoaded: name")?;
        Ok(self.inner.borrow().loaded(&name).is_some())
    }

    /// Forgets everything (for a host that drops the whole conversation).
    pub fn clear(&self) {
        self.inner.borrow_mut().clear();
    }
}

/// The skill tool over a registry: its definition for the model, and `execute` for its calls.
#[wasm_bindgen(js_name = SkillTool)]
pub struct JsSkillTool {
    pub(crate) inner: SkillTool,
    /// What the second module keeps this tool's invocable skills under (see `seam_invoke.rs`):
    /// an object of its own, so that they go when the tool does.
    pub(crate) owner: js_sys::Object,
}

#[wasm_bindgen(js_class = SkillTool)]
impl JsSkillTool {
    /// The tool over `registry`, configured as the registry is; `options` override parts of the
    /// configuration for this tool.
    #[wasm_bindgen(constructor)]
    pub fn new(
        registry: &JsSkillRegistry,
        #[wasm_bindgen(unchecked_optional_param_type = "SkillToolOptions")] options: Option<JsValue>,
    ) -> Result<JsSkillTool, JsValue> {
        let (over, permitted) = overrides(&options.unwrap_or_default(), Some("catalog"), "SkillTool: options")?;
        let host = registry.inner.clone();
        let inner = if over.is_empty() && permitted.is_none() {
            SkillTool::new(host)
        } else {
            let config = host
                .borrow()
                .config()
                .with_overrides(&over, permitted)
                .map_err(|e| options_error(&format!("SkillTool: options: {e}")))?;
            SkillTool::with_config(host, config)
        };
        Ok(JsSkillTool { inner, owner: js_sys::Object::new() })
    }

    /// The tool for the model: `{ name, description, inputSchema }` with the visible skills as the
    /// `name` enum; null when no skill is visible (offer no tool then).
    #[wasm_bindgen(unchecked_return_type = "ToolDefinition | null")]
    pub fn definition(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.definition()).map_err(JsValue::from)
    }

    /// The catalog the tool offers (its filters, its format), with instructions for the tool.
    #[wasm_bindgen(unchecked_return_type = "CatalogResult")]
    pub fn catalog(&self) -> Result<JsValue, JsValue> {
        catalog_to_js(CatalogResult::clone(&self.inner.catalog()))
    }

    /// Runs one call. Never rejects: an unknown skill, a refused path or a missing file is a
    /// result with `isError` and a message that lists what exists.
    #[wasm_bindgen(unchecked_return_type = "Promise<ToolOutcome>")]
    pub fn execute(&self, #[wasm_bindgen(unchecked_param_type = "ToolInput")] input: JsValue) -> Promise {
        // The input comes from the model: one that cannot be read is an error result, not a throw.
        let input: Result<ToolInput, String> = match convert::data(&input) {
            Ok(v) => ToolInput::from_json(&v).map_err(|e| e.to_string()),
            Err(e) => Err(e.describe("the tool input")),
        };
        let tool = self.inner.clone();
        promise(async move { tool.execute(input, js_sys::Date::now()).await })
    }

    /// Runs a call as a model API hands it over: the name of the tool called (a call of another
    /// tool is an error result) and its arguments, JSON text (OpenAI) or a value (Anthropic).
    /// Never rejects; arguments that are not JSON are an error result.
    #[wasm_bindgen(js_name = executeCall, unchecked_return_type = "Promise<ToolOutcome>")]
    pub fn execute_call(
        &self,
        #[wasm_bindgen(js_name = toolName, unchecked_param_type = "string | undefined")] tool_name: JsValue,
        #[wasm_bindgen(js_name = args, unchecked_param_type = "string | unknown")] arguments: JsValue,
    ) -> Promise {
        let tool_name = match convert::opt_string(&tool_name, "SkillTool.executeCall: toolName") {
            Ok(n) => n,
            Err(e) => return Promise::reject(&e),
        };
        // Arguments come from the model: unreadable ones are read as null (an error result).
        let args = if arguments.is_string() {
            CallArguments::Json(convert::string(&arguments, "arguments").unwrap_or_default())
        } else {
            CallArguments::Value(convert::data(&arguments).unwrap_or(Value::Null))
        };
        let tool = self.inner.clone();
        promise(async move { tool.execute_call(tool_name.as_deref(), &args, js_sys::Date::now()).await })
    }

    /// The session this tool records into (shared: activations show in both).
    #[wasm_bindgen(getter)]
    pub fn session(&self) -> JsSkillSession {
        JsSkillSession { inner: self.inner.session().clone() }
    }

    /// Records into `session` from now on (to share one conversation's session between tools).
    #[wasm_bindgen(js_name = setSession)]
    pub fn set_session(&mut self, session: &JsSkillSession) {
        self.inner.set_session(session.inner.clone());
    }

    /// The prompt for a subagent that runs the skill `name` on `task` and reports back; null when
    /// the skill is not offered, its instructions cannot be read, or the host's vetting policy
    /// (`vet: "refuse"`) refuses them (`registry.vet(name)` says why).
    #[wasm_bindgen(js_name = subagentPrompt, unchecked_return_type = "Promise<string | null>")]
    pub fn subagent_prompt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] task: JsValue,
    ) -> Promise {
        let (name, task) = match (
            convert::string(&name, "SkillTool.subagentPrompt: name"),
            convert::string(&task, "SkillTool.subagentPrompt: task"),
        ) {
            (Ok(n), Ok(t)) => (n, t),
            (Err(e), _) | (_, Err(e)) => return Promise::reject(&e),
        };
        let tool = self.inner.clone();
        promise(async move { tool.subagent_prompt(&name, &task).await })
    }

    /// What a host needs to run the skill `name` on `task` in a subagent: `{ name, context?,
    /// agent?, directory, prompt, resources, resourcesComplete, diagnostics }` (for a `context:
    /// fork` skill, `agent` is the subagent type it names); null when the skill is not offered,
    /// its instructions cannot be read, or the host's vetting policy (`vet: "refuse"`) refuses
    /// them (`registry.vet(name)` says why).
    #[wasm_bindgen(js_name = subagentPlan, unchecked_return_type = "Promise<SubagentTask | null>")]
    pub fn subagent_plan(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] task: JsValue,
    ) -> Promise {
        let (name, task) = match (
            convert::string(&name, "SkillTool.subagentPlan: name"),
            convert::string(&task, "SkillTool.subagentPlan: task"),
        ) {
            (Ok(n), Ok(t)) => (n, t),
            (Err(e), _) | (_, Err(e)) => return Promise::reject(&e),
        };
        let tool = self.inner.clone();
        promise(async move { tool.subagent_task(&name, &task).await })
    }
}
