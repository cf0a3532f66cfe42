//! The catalog and the skill tool for JS: `renderCatalog`, `SkillSession`, `SkillTool`. The host's
//! permission predicate is a JS function called once per skill; everything else runs in the core.

use super::registry::JsSkillRegistry;
use super::{convert, options_error, to_js};
use js_sys::{Function, Promise};
use skillwasm::activate::{self, SkillSession, ToolInput, ToolOptions};
use skillwasm::disclose::{self, CatalogOptions};
use skillwasm::discover::SkillMeta;
use skillwasm::discover::SkillRegistry;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS_TOOL: &'static str = r#"
/** Decides whether a skill may be shown and used (called once per skill, with its metadata). */
export type SkillPredicate = (skill: SkillMeta) => boolean;
/** Catalog options, plus the host's permission predicate. */
export interface RenderCatalogOptions extends CatalogOptions { permitted?: SkillPredicate }
/** The skill tool's options: how it is named and answers, and which skills it offers. */
export interface SkillToolOptions extends ToolOptions {
  /** Filters and format of the catalog the tool offers (and embeds, with `embedCatalog`). */
  catalog?: CatalogOptions;
  permitted?: SkillPredicate;
}
"#;

/// The `permitted` predicate among the values the options conversion left unread.
fn predicate(taken: &convert::Taken, what: &str) -> Result<Option<Function>, JsValue> {
    match taken.iter().find(|(path, _)| path == "permitted") {
        None => Ok(None),
        Some((_, f)) if f.is_undefined() || f.is_null() => Ok(None),
        Some((_, f)) => {
            f.clone().dyn_into::<Function>().map(Some).map_err(|_| {
                options_error(&format!("{what}.permitted must be a function, not {}", convert::kind_of(f)))
            })
        }
    }
}

/// The predicate as the core wants it: a throwing or non-boolean answer counts as "no".
fn permitted_by(f: &Option<Function>) -> impl Fn(&SkillMeta) -> bool + '_ {
    move |m: &SkillMeta| match f {
        None => true,
        Some(f) => match to_js(m) {
            Ok(v) => f.call1(&JsValue::NULL, &v).ok().and_then(|r| r.as_bool()).unwrap_or(false),
            Err(_) => false,
        },
    }
}

/// Renders the catalog of a registry's visible skills (filtered, localised, within the budget).
/// `text` is null when no skill is visible: then there is no catalog, no instructions, no tool.
#[wasm_bindgen(js_name = renderCatalog, unchecked_return_type = "CatalogResult")]
pub fn render_catalog(
    registry: &JsSkillRegistry,
    #[wasm_bindgen(unchecked_param_type = "RenderCatalogOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let (opts, taken): (CatalogOptions, _) = convert::options_with(&options, "renderCatalog: options", &["permitted"])?;
    let f = predicate(&taken, "renderCatalog: options")?;
    let metas = registry.inner.borrow().list_metas(None);
    let result = disclose::render_catalog(&metas, &opts, &permitted_by(&f));
    to_js(&result).map_err(JsValue::from)
}

/// What one conversation has loaded: repeated activations get a short pointer instead of the
/// body again. Also the record of activations (name, path, when, size) for analytics.
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

    /// Whether the instructions of `name` were loaded in this session.
    #[wasm_bindgen(js_name = isLoaded)]
    pub fn is_loaded(&self, #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> Result<bool, JsValue> {
        let name = convert::string(&name, "SkillSession.isLoaded: name")?;
        Ok(self.inner.borrow().loaded(&name).is_some())
    }

    /// Forgets everything (e.g. after the transcript was compacted without the skill content).
    pub fn clear(&self) {
        self.inner.borrow_mut().activations.clear();
    }
}

/// The skill tool over a registry: its definition for the model, and `execute` for its calls.
#[wasm_bindgen(js_name = SkillTool)]
pub struct JsSkillTool {
    registry: Rc<RefCell<SkillRegistry>>,
    session: Rc<RefCell<SkillSession>>,
    tool: ToolOptions,
    catalog: CatalogOptions,
    permitted: Option<Function>,
}

impl JsSkillTool {
    /// The visible skills (the tool's enum) and the catalog, computed now: the registry may have
    /// been refreshed since the last call.
    fn visible(&self) -> (Vec<String>, disclose::CatalogResult) {
        let metas = self.registry.borrow().list_metas(None);
        let mut opts = self.catalog.clone();
        opts.tool_name = self.tool.tool_name.clone();
        let result = disclose::render_catalog(&metas, &opts, &permitted_by(&self.permitted));
        (result.skills.clone(), result)
    }
}

#[wasm_bindgen(js_class = SkillTool)]
impl JsSkillTool {
    #[wasm_bindgen(constructor)]
    pub fn new(
        registry: &JsSkillRegistry,
        #[wasm_bindgen(unchecked_param_type = "SkillToolOptions")] options: JsValue,
    ) -> Result<JsSkillTool, JsValue> {
        let (mut value, taken) = if options.is_undefined() || options.is_null() {
            (serde_json::Value::Object(Default::default()), Vec::new())
        } else {
            convert::options_value(&options, "SkillTool: options", &["permitted"])?
        };
        let catalog = value.as_object_mut().and_then(|o| o.remove("catalog")).unwrap_or_default();
        let tool: ToolOptions = convert::deserialize(value, "SkillTool: options")?;
        let catalog: CatalogOptions = match catalog {
            serde_json::Value::Null => CatalogOptions::default(),
            c @ serde_json::Value::Object(_) => convert::deserialize(c, "SkillTool: options.catalog")?,
            _ => return Err(options_error("SkillTool: options.catalog must be an object")),
        };
        let permitted = predicate(&taken, "SkillTool: options")?;
        let session = Rc::default();
        Ok(JsSkillTool { registry: registry.inner.clone(), session, tool, catalog, permitted })
    }

    /// The tool for the model: `{ name, description, inputSchema }` with the visible skills as the
    /// `name` enum; null when no skill is visible (offer no tool then).
    #[wasm_bindgen(unchecked_return_type = "ToolDefinition | null")]
    pub fn definition(&self) -> Result<JsValue, JsValue> {
        let (visible, catalog) = self.visible();
        let embedded = if self.tool.embed_catalog { catalog.text.as_deref() } else { None };
        to_js(&activate::tool_definition(&visible, embedded, &self.tool)).map_err(JsValue::from)
    }

    /// The catalog the tool offers (its filters, its format), with instructions for the tool.
    #[wasm_bindgen(unchecked_return_type = "CatalogResult")]
    pub fn catalog(&self) -> Result<JsValue, JsValue> {
        to_js(&self.visible().1).map_err(JsValue::from)
    }

    /// Runs one call. Never rejects: an unknown skill, a refused path or a missing file is a
    /// result with `isError` and a message that lists what exists.
    #[wasm_bindgen(unchecked_return_type = "Promise<ToolResult>")]
    pub fn execute(&self, #[wasm_bindgen(unchecked_param_type = "ToolInput")] input: JsValue) -> Promise {
        // The input comes from the model: whatever it is, the answer is a result, never a throw.
        let parsed: Result<ToolInput, String> = convert::data(&input)
            .map_err(|e| e.describe("the input"))
            .and_then(|v| serde_json::from_value(v).map_err(|e| e.to_string()));
        let (visible, _) = self.visible();
        let plan = match parsed {
            Ok(input) => Ok((
                activate::plan(&self.registry.borrow(), &self.session.borrow(), &input, &visible, &self.tool),
                input,
            )),
            Err(e) => Err(e),
        };
        let session = self.session.clone();
        let tool = self.tool.clone();
        let visible = visible.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let result = match plan {
                Ok((plan, _)) => activate::run(plan, &tool).await,
                Err(e) => activate::invalid_input(&e, &visible),
            };
            if !result.is_error && !result.already_loaded {
                session.borrow_mut().record(
                    &result.skill_name,
                    result.path.as_deref(),
                    js_sys::Date::now(),
                    result.size,
                );
            }
            to_js(&result).map_err(JsValue::from)
        })
    }

    /// The session this tool records into (shared: activations show in both).
    #[wasm_bindgen(getter)]
    pub fn session(&self) -> JsSkillSession {
        JsSkillSession { inner: self.session.clone() }
    }

    /// Records into `session` from now on (to share one conversation's session between tools).
    #[wasm_bindgen(js_name = setSession)]
    pub fn set_session(&mut self, session: &JsSkillSession) {
        self.session = session.inner.clone();
    }

    /// The prompt for a subagent that runs the skill `name` on `task` and reports back; null when
    /// the skill is not offered.
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
        let (visible, _) = self.visible();
        let registry = self.registry.borrow();
        let planned = if visible.contains(&name) {
            registry.get(&name).zip(registry.file_request(&name, None).ok())
        } else {
            None
        };
        drop(registry);
        let tool = self.tool.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let Some((meta, file)) = planned else { return Ok(JsValue::NULL) };
            let fetched = file.fetch().await;
            Ok(match fetched.text {
                Some(body) => JsValue::from_str(&activate::subagent_prompt(&meta, &body, &task, &tool)),
                None => JsValue::NULL,
            })
        })
    }

    /// Handles a user's message: the skills it invokes (`/name args`, arguments substituted) or
    /// mentions (`$name`), wrapped for the conversation and recorded in the session, and the text
    /// to send on. Never rejects.
    #[wasm_bindgen(unchecked_return_type = "Promise<Injection>")]
    pub fn invoke(&self, #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue) -> Promise {
        let message = match convert::string(&message, "SkillTool.invoke: message") {
            Ok(m) => m,
            Err(e) => return Promise::reject(&e),
        };
        let plan = activate::plan_injection(&self.registry.borrow(), &message);
        let session = self.session.clone();
        let tool = self.tool.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let injection = activate::run_injection(plan, &tool).await;
            let now = js_sys::Date::now();
            for i in &injection.injected {
                session.borrow_mut().record(&i.name, None, now, i.size);
            }
            to_js(&injection).map_err(JsValue::from)
        })
    }

    /// After the host compacted a transcript: puts back the current instructions of each skill
    /// this session activated (newest first, within `perSkillTokens` and `totalTokens`) after the
    /// current catalog, as one user message in the transcript's format. Never rejects; a
    /// transcript that cannot be read gives `{ error }`.
    #[wasm_bindgen(unchecked_return_type = "Promise<CompactResult>")]
    pub fn reattach(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CompactOptions")] options: JsValue,
    ) -> Promise {
        let opts = match super::compact::options(&options, "SkillTool.reattach") {
            Ok(o) => o,
            Err(e) => return Promise::reject(&e),
        };
        let transcript = super::compact::transcript_value(&transcript);
        let (visible, catalog) = self.visible();
        let mut names: Vec<String> = Vec::new();
        for a in self.session.borrow().activations.iter().rev() {
            if a.path.is_none() && !names.contains(&a.name) {
                names.push(a.name.clone());
            }
        }
        names.reverse();
        let plans: Vec<_> = {
            let registry = self.registry.borrow();
            let session = SkillSession::default();
            names
                .iter()
                .map(|n| {
                    activate::plan(
                        &registry,
                        &session,
                        &ToolInput { name: n.clone(), path: None, force: true },
                        &visible,
                        &self.tool,
                    )
                })
                .collect()
        };
        let catalog_text = match (catalog.instructions, catalog.text) {
            (Some(i), Some(t)) => Some(format!("{i}\n\n{t}")),
            (_, t) => t,
        };
        let tool = self.tool.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let mut contents = Vec::new();
            for plan in plans {
                let r = activate::run(plan, &tool).await;
                if !r.is_error {
                    contents.push(skillwasm::compact::SkillContent { name: r.skill_name, content: r.content });
                }
            }
            super::compact::out(
                transcript.and_then(|t| skillwasm::compact::reattach(&t, &contents, catalog_text.as_deref(), &opts)),
            )
        })
    }
}
