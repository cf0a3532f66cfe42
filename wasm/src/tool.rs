//! The catalog and the skill tool for JS: `renderCatalog`, `SkillSession`, `SkillTool`. Each
//! export converts its arguments, calls the core (`skillwasm::host`) and converts the result; the
//! host's permission predicate is a JS function the core calls once per skill per generation.

use super::compact::{options as transcript_options, out, transcript_value};
use super::registry::JsSkillRegistry;
use super::{options_error, to_js};
use js_sys::{Function, Object, Promise, Reflect};
use skillwasm::activate::{CallArguments, SkillSession, ToolInput};
use skillwasm::discover::SkillMeta;
use skillwasm::host::{self, Permitted, SkillTool};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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
}
"#;

/// The `permitted` function of an options object, as the core wants it: a throwing or
/// non-boolean answer counts as "no".
pub(crate) fn predicate(options: &JsValue) -> Option<Permitted> {
    let f = Reflect::get(options, &"permitted".into()).ok()?.dyn_into::<Function>().ok()?;
    Some(Rc::new(move |m: &SkillMeta| match to_js(m) {
        Ok(v) => f.call1(&JsValue::NULL, &v).ok().and_then(|r| r.as_bool()).unwrap_or(false),
        Err(_) => false,
    }))
}

/// The plain-data keys of an options object (without `drop` and undefined values), as `T`.
pub(crate) fn plain_options<T: serde::de::DeserializeOwned + Default>(
    options: &JsValue,
    drop: &[&str],
    what: &str,
) -> Result<T, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(T::default());
    }
    if !options.is_object() {
        return Err(options_error(&format!("{what} must be an object")));
    }
    let plain = Object::assign(&Object::new(), options.unchecked_ref());
    for k in drop {
        let _ = Reflect::delete_property(&plain, &JsValue::from_str(k));
    }
    serde_wasm_bindgen::from_value(super::defined(plain.into())).map_err(|e| options_error(&format!("{what}: {e}")))
}

/// An options object as overrides of the configuration: its plain keys, `nested` keys first.
fn overrides(options: &JsValue, nested: Option<&str>) -> Result<serde_json::Map<String, serde_json::Value>, JsValue> {
    let mut map: serde_json::Map<String, serde_json::Value> = match nested {
        Some(k) if options.is_object() => plain_options(&Reflect::get(options, &k.into()).unwrap_or_default(), &[], k)?,
        _ => serde_json::Map::new(),
    };
    let own: serde_json::Map<String, serde_json::Value> = plain_options(options, &["catalog", "permitted"], "options")?;
    map.extend(own);
    Ok(map)
}

/// Renders the catalog of a registry's visible skills (filtered, localised, within the budget),
/// as the registry's configuration says, with `options` overriding parts of it for this call.
/// `text` is null when no skill is visible: then there is no catalog, no instructions, no tool.
#[wasm_bindgen(js_name = renderCatalog, unchecked_return_type = "CatalogResult")]
pub fn render_catalog(
    registry: &JsSkillRegistry,
    #[wasm_bindgen(unchecked_optional_param_type = "RenderCatalogOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options.unwrap_or_default();
    let over = overrides(&options, None)?;
    let permitted = if options.is_object() { predicate(&options) } else { None };
    let host = registry.inner.borrow();
    if over.is_empty() && permitted.is_none() {
        return to_js(&*host.catalog()).map_err(JsValue::from);
    }
    let config = host.config().with_overrides(&over, permitted).map_err(|e| options_error(&format!("options: {e}")))?;
    to_js(&host.render_catalog(&config)).map_err(JsValue::from)
}

/// What one conversation has loaded: repeated activations get a short pointer instead of the
/// body again, until the instructions leave the conversation. Also the record of activations
/// (name, path, when, size) for analytics.
#[wasm_bindgen(js_name = SkillSession)]
#[derive(Default)]
pub struct JsSkillSession {
    inner: Rc<RefCell<SkillSession>>,
}

#[wasm_bindgen(js_class = SkillSession)]
impl JsSkillSession {
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsSkillSession {
        JsSkillSession::default()
    }

    /// Every activation and file read so far, oldest first.
    #[wasm_bindgen(unchecked_return_type = "Activation[]")]
    pub fn activations(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.borrow().activations).map_err(JsValue::from)
    }

    /// Whether the conversation holds the instructions of `name` (loaded, and not compacted or
    /// pruned away since).
    #[wasm_bindgen(js_name = isLoaded)]
    pub fn is_loaded(&self, name: &str) -> bool {
        self.inner.borrow().loaded(name).is_some()
    }

    /// Forgets everything (for a host that drops the whole conversation).
    pub fn clear(&self) {
        self.inner.borrow_mut().clear();
    }

    /// Follows a transcript the host keeps (after its own compaction or pruning): skills whose
    /// instructions are no longer in it are forgotten, so their next activation is full. Pass the
    /// tool's `toolName` when it is not the default. Gives `{ forgotten, restored }`, or
    /// `{ error }` for a transcript that cannot be read.
    #[wasm_bindgen(unchecked_return_type = "SessionChange | { error: Diagnostic }")]
    pub fn observe(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let t = transcript_value(&transcript)?;
        out(host::observe(&mut self.inner.borrow_mut(), &t, &transcript_options(options.unwrap_or_default())?))
    }
}

/// The skill tool over a registry: its definition for the model, and `execute` for its calls.
#[wasm_bindgen(js_name = SkillTool)]
pub struct JsSkillTool {
    inner: SkillTool,
}

fn promise<F, T>(f: F) -> Promise
where
    F: std::future::Future<Output = T> + 'static,
    T: serde::Serialize,
{
    wasm_bindgen_futures::future_to_promise(async move { to_js(&f.await).map_err(JsValue::from) })
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
        let options = options.unwrap_or_default();
        let over = overrides(&options, Some("catalog"))?;
        let permitted = if options.is_object() { predicate(&options) } else { None };
        let host = registry.inner.clone();
        let inner = if over.is_empty() && permitted.is_none() {
            SkillTool::new(host)
        } else {
            let config = host
                .borrow()
                .config()
                .with_overrides(&over, permitted)
                .map_err(|e| options_error(&format!("options: {e}")))?;
            SkillTool::with_config(host, config)
        };
        Ok(JsSkillTool { inner })
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
        to_js(&*self.inner.catalog()).map_err(JsValue::from)
    }

    /// Runs one call. Never rejects: an unknown skill, a refused path or a missing file is a
    /// result with `isError` and a message that lists what exists.
    #[wasm_bindgen(unchecked_return_type = "Promise<ToolResult>")]
    pub fn execute(&self, #[wasm_bindgen(unchecked_param_type = "ToolInput")] input: JsValue) -> Promise {
        let input: Result<ToolInput, String> =
            serde_wasm_bindgen::from_value(super::defined(input)).map_err(|e| e.to_string());
        let tool = self.inner.clone();
        promise(async move { tool.execute(input, js_sys::Date::now()).await })
    }

    /// Runs a call as a model API hands it over: the name of the tool called (a call of another
    /// tool is an error result) and its arguments, JSON text (OpenAI) or a value (Anthropic).
    /// Never rejects; arguments that are not JSON are an error result.
    #[wasm_bindgen(js_name = executeCall, unchecked_return_type = "Promise<ToolResult>")]
    pub fn execute_call(
        &self,
        tool_name: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "string | unknown")] arguments: JsValue,
    ) -> Promise {
        let args = match arguments.as_string() {
            Some(text) => CallArguments::Json(text),
            None => CallArguments::Value(
                serde_wasm_bindgen::from_value(super::defined(arguments)).unwrap_or(serde_json::Value::Null),
            ),
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
    /// the skill is not offered.
    #[wasm_bindgen(js_name = subagentPrompt, unchecked_return_type = "Promise<string | null>")]
    pub fn subagent_prompt(&self, name: String, task: String) -> Promise {
        let tool = self.inner.clone();
        promise(async move { tool.subagent_prompt(&name, &task).await })
    }

    /// Handles a user's message: the skills it invokes (`/name args`, arguments substituted) or
    /// mentions (`$name`) among those the user may invoke, wrapped for the conversation and
    /// recorded in the session, and the text to send on. Never rejects.
    #[wasm_bindgen(unchecked_return_type = "Promise<Injection>")]
    pub fn invoke(&self, message: String) -> Promise {
        let tool = self.inner.clone();
        promise(async move { tool.invoke(&message, js_sys::Date::now()).await })
    }

    /// After the host compacted a transcript: puts back the current instructions of each skill
    /// this session activated (newest first, within `perSkillTokens` and `totalTokens`) after the
    /// current catalog, as one user message in the transcript's format. Never rejects; a
    /// transcript that cannot be read gives `{ error }`.
    #[wasm_bindgen(unchecked_return_type = "Promise<CompactResult>")]
    pub fn reattach(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] options: Option<JsValue>,
    ) -> Promise {
        let tool = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let (t, opts) = (transcript_value(&transcript)?, transcript_options(options.unwrap_or_default())?);
            out(tool.reattach(&t, &opts).await)
        })
    }

    /// `compactSkillContent` with this tool's name, and the session forgets what it compacted
    /// away (the next activation of such a skill is full).
    #[wasm_bindgen(js_name = compactSkillContent, unchecked_return_type = "CompactResult")]
    pub fn compact_skill_content(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        out(self.inner.compact(&transcript_value(&transcript)?, &transcript_options(options.unwrap_or_default())?))
    }

    /// `pruneTranscript` with this tool's name, and the session follows what is left.
    #[wasm_bindgen(js_name = pruneTranscript, unchecked_return_type = "CompactResult")]
    pub fn prune_transcript(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
        budget_tokens: f64,
        #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let budget = if budget_tokens.is_finite() && budget_tokens > 0.0 { budget_tokens as u64 } else { 0 };
        out(self.inner.prune(
            &transcript_value(&transcript)?,
            budget,
            &transcript_options(options.unwrap_or_default())?,
        ))
    }

    /// `dedupeSkillContent` with this tool's name, and the session follows the result.
    #[wasm_bindgen(js_name = dedupeSkillContent, unchecked_return_type = "CompactResult")]
    pub fn dedupe_skill_content(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        out(self.inner.dedupe(&transcript_value(&transcript)?, &transcript_options(options.unwrap_or_default())?))
    }
}
