//! The `SkillRegistry` class for JS. It holds the core registry behind `Rc<RefCell<..>>` and never
//! keeps it borrowed across an await, so calls may overlap (a `readFile` during a `refresh`).

use super::storage::JsStorage;
use super::{options_error, to_js};
use js_sys::{Array, Promise, Reflect, Uint8Array};
use skillwasm::host::{resolve_scopes, ScopeSpec, Scopes, SkillHost, SkillsConfig, DEFAULT_SCOPES};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS_REGISTRY: &'static str = r#"
/**
 * A store for a scope. `location` says where its keys are, so that the model is shown locations
 * it can use: an absolute directory (`nodeFsStorage`), or a URI (`r2:/prefix/`,
 * `indexeddb://db/store/`, `memory:/`). Read once, when the scope is configured.
 */
export type ScopeStorage = SkillStorage & { readonly location?: string };
/** One scope: a name, a store, the roots to search in it, and whether it is trusted. */
export interface ScopeConfig {
  name: string;
  storage: ScopeStorage;
  /** List prefixes to search; default `.agents/skills/` and `.<client>/skills/`. */
  roots?: string[];
  /** Default: true, except for a scope named "project" (trusted only with `trustProject`). */
  trusted?: boolean;
}
/**
 * The one configuration of a host's skills: where they are (either `scopes`, in precedence
 * order, first wins, or the named default scopes `project`, `user`, `org`, `builtin`, in that
 * precedence), how they are found, who sees which (`disabled`, `permitted`, `modelTier`,
 * `hostVersion`), how the catalog is written and how the tool answers. The catalog, the tool,
 * `/name` and `$name`, autocomplete, subagent prompts and the transcript operations run through
 * the tool all read it.
 */
export type RegistryOptions = SkillsConfig & {
  scopes?: ScopeConfig[];
  project?: ScopeStorage;
  user?: ScopeStorage;
  org?: ScopeStorage;
  builtin?: ScopeStorage;
  /** The host's permission check, called once per skill per discovery or refresh. */
  permitted?: SkillPredicate;
};
"#;

fn field(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Splits the JS options into the configuration (plain data and the predicate) and the scopes.
fn parse_options(options: &JsValue) -> Result<(Scopes, SkillsConfig), JsValue> {
    if !options.is_object() {
        return Err(options_error(
            "SkillRegistry options must be an object with scopes or project/user/org/builtin stores",
        ));
    }
    let drop = ["scopes", "project", "user", "org", "builtin", "permitted"];
    let mut config: SkillsConfig = super::tool::plain_options(options, &drop, "SkillRegistry options")?;
    config.permitted = super::tool::predicate(options);
    let timeout = config.discover.timeout_ms.max(1);
    let mut specs = Vec::new();
    let scope_list = field(options, "scopes");
    if let Some(list) = scope_list.dyn_ref::<Array>() {
        for s in list.iter() {
            let name = field(&s, "name").as_string().ok_or_else(|| options_error("every scope needs a string name"))?;
            let roots = match field(&s, "roots").dyn_into::<Array>() {
                Ok(r) => Some(
                    r.iter()
                        .map(|v| v.as_string().ok_or_else(|| options_error("roots must be strings")))
                        .collect::<Result<Vec<_>, _>>()?,
                ),
                Err(_) => None,
            };
            specs.push(spec(name, field(&s, "storage"), roots, field(&s, "trusted").as_bool(), timeout)?);
        }
    } else {
        for name in DEFAULT_SCOPES {
            let storage = field(options, name);
            if !storage.is_undefined() && !storage.is_null() {
                specs.push(spec(name.to_string(), storage, None, None, timeout)?);
            }
        }
    }
    let scopes = resolve_scopes(&specs, &config).map_err(|e| options_error(&e))?;
    Ok((scopes, config))
}

fn spec(
    name: String,
    storage: JsValue,
    roots: Option<Vec<String>>,
    trusted: Option<bool>,
    timeout_ms: u32,
) -> Result<ScopeSpec, JsValue> {
    let location = field(&storage, "location").as_string();
    let storage = JsStorage::new(storage, timeout_ms).map_err(|e| options_error(&format!("scope '{name}': {e}")))?;
    Ok(ScopeSpec { name, storage: Rc::new(storage), roots, trusted, location })
}

/// The skills of every scope, discovered once and kept: metadata, diagnostics, file reads,
/// refresh and snapshots.
#[wasm_bindgen(js_name = SkillRegistry)]
pub struct JsSkillRegistry {
    pub(crate) inner: Rc<RefCell<SkillHost>>,
}

#[wasm_bindgen(js_class = SkillRegistry)]
impl JsSkillRegistry {
    /// Lists every scope's roots and reads each SKILL.md (a prefix of it). A store that fails
    /// costs the skills it touches a diagnostic each; the registry is always returned.
    pub async fn discover(
        #[wasm_bindgen(unchecked_param_type = "RegistryOptions")] options: JsValue,
    ) -> Result<JsSkillRegistry, JsValue> {
        let (scopes, config) = parse_options(&options)?;
        let host = SkillHost::discover(scopes, config).await;
        Ok(JsSkillRegistry { inner: Rc::new(RefCell::new(host)) })
    }

    /// Starts from `snapshot()` bytes with no store call; the options must name the same scopes,
    /// roots and trust. Throws when the snapshot does not fit them (then discover afresh).
    #[wasm_bindgen(js_name = fromSnapshot)]
    pub fn from_snapshot(
        bytes: Uint8Array,
        #[wasm_bindgen(unchecked_param_type = "RegistryOptions")] options: JsValue,
    ) -> Result<JsSkillRegistry, JsValue> {
        let (scopes, config) = parse_options(&options)?;
        let host = SkillHost::from_snapshot(&bytes.to_vec(), scopes, config)
            .map_err(|d| JsValue::from(js_sys::Error::new(&format!("{}: {}", d.code, d.message))))?;
        Ok(JsSkillRegistry { inner: Rc::new(RefCell::new(host)) })
    }

    /// The visible skills, one per name (the one of highest precedence), sorted by name. With
    /// `scope`: every skill of that scope, shadowed ones included (with `shadowedBy`).
    #[wasm_bindgen(js_name = listMetas, unchecked_return_type = "SkillMeta[]")]
    pub fn list_metas(&self, scope: Option<String>) -> Result<JsValue, JsError> {
        to_js(&self.inner.borrow().registry().list_metas(scope.as_deref()))
    }

    /// Every loaded skill of every scope, shadowed ones too (with `shadowedBy`), in precedence order.
    #[wasm_bindgen(js_name = listMetasAcross, unchecked_return_type = "SkillMeta[]")]
    pub fn list_metas_across(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.borrow().registry().list_metas_across())
    }

    /// The skill that wins `name`, or null.
    #[wasm_bindgen(unchecked_return_type = "SkillMeta | null")]
    pub fn get(&self, name: &str) -> Result<JsValue, JsError> {
        to_js(&self.inner.borrow().registry().get(name))
    }

    /// The names of the visible skills.
    pub fn names(&self) -> Vec<String> {
        self.inner.borrow().registry().names()
    }

    /// Everything found, scope-level and per skill (with `path` = `scope:location`).
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.borrow().registry().diagnostics())
    }

    /// Store calls made so far (discovery, refreshes and file reads).
    #[wasm_bindgen(unchecked_return_type = "StorageStats")]
    pub fn stats(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.borrow().registry().stats())
    }

    /// Without `relPath`: the SKILL.md body, frontmatter stripped. With it: that file of the
    /// skill (text, or bytes when it is not UTF-8). Unknown skills and paths that leave the skill
    /// directory are answered with an `error` before the store is touched; never rejects.
    #[wasm_bindgen(js_name = readFile, unchecked_return_type = "Promise<FileResult>")]
    pub fn read_file(&self, name: &str, rel_path: Option<String>) -> Promise {
        let planned = self.inner.borrow().registry().file_request(name, rel_path.as_deref());
        wasm_bindgen_futures::future_to_promise(async move {
            let result = match planned {
                Ok(req) => req.fetch().await,
                Err(refused) => *refused,
            };
            to_js(&result).map_err(JsValue::from)
        })
    }

    /// A file of the skill `name` of `scope` (the one that scope holds, shadowed or not): without
    /// `relPath` the SKILL.md body, frontmatter stripped. Resolves to `{ content, path }` (text,
    /// or bytes when it is not UTF-8; `path` as the model is shown it), or null when the scope
    /// holds no such skill, the path is refused or the file cannot be read (`readFile` says why).
    #[wasm_bindgen(js_name = readScopedFile, unchecked_return_type = "Promise<ScopedFile | null>")]
    pub fn read_scoped_file(&self, scope: String, name: String, rel_path: Option<String>) -> Promise {
        let inner = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let got = SkillHost::read_scoped_file_shared(&inner, &scope, &name, rel_path.as_deref()).await;
            to_js(&got).map_err(JsValue::from)
        })
    }

    /// Re-lists every scope, re-reads only SKILL.md files whose size or etag changed, decides
    /// who sees which skill again (`permitted` is called once per skill), and says what was added,
    /// changed and removed. Never rejects.
    #[wasm_bindgen(unchecked_return_type = "Promise<RefreshReport>")]
    pub fn refresh(&self) -> Promise {
        let inner = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let report = SkillHost::refresh_shared(&inner).await;
            to_js(&report).map_err(JsValue::from)
        })
    }

    /// The registry as bytes, for `SkillRegistry.fromSnapshot`.
    pub fn snapshot(&self) -> Vec<u8> {
        self.inner.borrow().registry().snapshot()
    }
}
