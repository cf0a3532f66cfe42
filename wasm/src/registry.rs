//! The `SkillRegistry` class for JS. It holds the core registry behind `Rc<RefCell<..>>` and never
//! keeps it borrowed across an await, so calls may overlap (a `readFile` during a `refresh`).

use super::storage::JsStorage;
use super::{convert, options_error, to_js};
use js_sys::Promise;
use serde_json::Value;
use skillwasm::discover::DiscoverOptions;
use skillwasm::discover::SkillRegistry;
use skillwasm::discover::{default_roots, normalize_root, ScopeHandle};
use skillwasm::store::keys;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_REGISTRY: &'static str = r#"
/** One scope: a name, a store, the roots to search in it, and whether it is trusted. */
export interface ScopeConfig {
  name: string;
  storage: SkillStorage;
  /** List prefixes to search; default `.agents/skills/` and `.<client>/skills/`. */
  roots?: string[];
  /** Default: true, except for a scope named "project" (trusted only with `trustProject`). */
  trusted?: boolean;
}
/**
 * Where the skills are and how to find them. Either `scopes` (in precedence order, first wins),
 * or the named default scopes `project`, `user`, `org`, `builtin` (in that precedence).
 */
export interface RegistryOptions extends DiscoverOptions {
  scopes?: ScopeConfig[];
  project?: SkillStorage;
  user?: SkillStorage;
  org?: SkillStorage;
  builtin?: SkillStorage;
}
"#;

const DEFAULT_SCOPES: [&str; 4] = ["project", "user", "org", "builtin"];

/// Splits the JS options into the discovery options (plain data) and the scopes (with stores).
/// The options are read once, within the bounds; the stores are handed back unread.
fn parse_options(options: &JsValue, what: &str) -> Result<(Vec<ScopeHandle>, DiscoverOptions), JsValue> {
    if !options.is_object() {
        return Err(options_error(&format!(
            "{what} must be an object with scopes or project/user/org/builtin stores, not {}",
            convert::kind_of(options)
        )));
    }
    let holes = ["scopes.*.storage", "project", "user", "org", "builtin", "!scopes.*.roots.*"];
    let (mut value, taken) = convert::options_value(options, what, &holes)?;
    let scope_list = value.as_object_mut().and_then(|o| o.remove("scopes")).unwrap_or_default();
    let opts: DiscoverOptions = convert::deserialize(value, what)?;
    let storage = |path: &str| taken.iter().find(|(p, _)| p == path).map(|(_, v)| v.clone()).unwrap_or_default();
    let mut scopes = Vec::new();
    if let Value::Array(list) = scope_list {
        for (i, s) in list.into_iter().enumerate() {
            let at = format!("{what}.scopes[{i}]");
            let Value::Object(mut s) = s else { return Err(options_error(&format!("{at} must be an object"))) };
            let name = match s.remove("name") {
                Some(Value::String(name)) => name,
                _ => return Err(options_error(&format!("{at}.name: every scope needs a string name"))),
            };
            let roots = match s.remove("roots") {
                None | Some(Value::Null) => default_roots(opts.client.as_deref()),
                Some(Value::Array(roots)) => roots
                    .into_iter()
                    .map(|v| match v {
                        Value::String(r) => Ok(r),
                        _ => Err(options_error(&format!("{at}.roots: roots must be strings"))),
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                Some(_) => return Err(options_error(&format!("{at}.roots must be an array of strings"))),
            };
            let trusted = match s.remove("trusted") {
                None | Some(Value::Null) => name != "project" || opts.trust_project,
                Some(Value::Bool(t)) => t,
                Some(_) => return Err(options_error(&format!("{at}.trusted must be a boolean"))),
            };
            scopes.push(handle(name, storage(&format!("scopes.{i}.storage")), roots, trusted, &opts)?);
        }
    } else if !scope_list.is_null() {
        return Err(options_error(&format!("{what}.scopes must be an array of scopes")));
    } else {
        for name in DEFAULT_SCOPES {
            let storage = storage(name);
            if storage.is_undefined() || storage.is_null() {
                continue;
            }
            let trusted = name != "project" || opts.trust_project;
            scopes.push(handle(name.to_string(), storage, default_roots(opts.client.as_deref()), trusted, &opts)?);
        }
    }
    if scopes.is_empty() {
        return Err(options_error(&format!(
            "{what}: SkillRegistry needs at least one scope (scopes: [...] or project/user/org/builtin)"
        )));
    }
    Ok((scopes, opts))
}

fn handle(
    name: String,
    storage: JsValue,
    roots: Vec<String>,
    trusted: bool,
    opts: &DiscoverOptions,
) -> Result<ScopeHandle, JsValue> {
    let storage = JsStorage::new(storage, opts.timeout_ms.max(1), opts.max_object_bytes.max(1))
        .map_err(|e| options_error(&format!("scope '{name}': {e}")))?;
    let roots = roots
        .iter()
        .map(|r| {
            let r = normalize_root(r);
            keys::check_prefix(&r).map(|_| r).map_err(|e| options_error(&format!("scope '{name}': root {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ScopeHandle { name, roots, trusted, storage: Rc::new(storage) })
}

/// The skills of every scope, discovered once and kept: metadata, diagnostics, file reads,
/// refresh and snapshots.
#[wasm_bindgen(js_name = SkillRegistry)]
pub struct JsSkillRegistry {
    pub(crate) inner: Rc<RefCell<SkillRegistry>>,
}

#[wasm_bindgen(js_class = SkillRegistry)]
impl JsSkillRegistry {
    /// Lists every scope's roots and reads each SKILL.md (a prefix of it). A store that fails
    /// costs the skills it touches a diagnostic each; the registry is always returned.
    pub async fn discover(
        #[wasm_bindgen(unchecked_param_type = "RegistryOptions")] options: JsValue,
    ) -> Result<JsSkillRegistry, JsValue> {
        let (scopes, opts) = parse_options(&options, "SkillRegistry.discover: options")?;
        let registry = SkillRegistry::discover(scopes, opts).await;
        Ok(JsSkillRegistry { inner: Rc::new(RefCell::new(registry)) })
    }

    /// Starts from `snapshot()` bytes with no store call; the options must name the same scopes,
    /// roots and trust. Throws when the snapshot does not fit them (then discover afresh).
    #[wasm_bindgen(js_name = fromSnapshot)]
    pub fn from_snapshot(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RegistryOptions")] options: JsValue,
    ) -> Result<JsSkillRegistry, JsValue> {
        let bytes = match convert::bytes(&bytes, convert::MAX_SNAPSHOT_BYTES) {
            Ok(b) if !bytes.is_string() => b.into_vec(),
            Err(convert::BytesError::TooLarge(n)) => {
                return Err(js_sys::Error::new(&format!(
                    "snapshot-invalid: the snapshot is {n} bytes, more than {}",
                    convert::MAX_SNAPSHOT_BYTES
                ))
                .into())
            }
            _ => {
                return Err(options_error(&format!(
                    "SkillRegistry.fromSnapshot: bytes must be a Uint8Array (a snapshot), not {}",
                    convert::kind_of(&bytes)
                )))
            }
        };
        let (scopes, opts) = parse_options(&options, "SkillRegistry.fromSnapshot: options")?;
        let registry = SkillRegistry::from_snapshot(&bytes, scopes, opts)
            .map_err(|d| JsValue::from(js_sys::Error::new(&format!("{}: {}", d.code, d.message))))?;
        Ok(JsSkillRegistry { inner: Rc::new(RefCell::new(registry)) })
    }

    /// The visible skills, one per name (the one of highest precedence), sorted by name.
    #[wasm_bindgen(js_name = listMetas, unchecked_return_type = "SkillMeta[]")]
    pub fn list_metas(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] scope: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let scope = convert::opt_string(&scope.unwrap_or_default(), "SkillRegistry.listMetas: scope")?;
        to_js(&self.inner.borrow().list_metas(scope.as_deref())).map_err(JsValue::from)
    }

    /// Every loaded skill of every scope, shadowed ones too (with `shadowedBy`), in precedence order.
    #[wasm_bindgen(js_name = listMetasAcross, unchecked_return_type = "SkillMeta[]")]
    pub fn list_metas_across(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.borrow().list_metas_across())
    }

    /// The skill that wins `name`, or null.
    #[wasm_bindgen(unchecked_return_type = "SkillMeta | null")]
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> Result<JsValue, JsValue> {
        let name = convert::string(&name, "SkillRegistry.get: name")?;
        to_js(&self.inner.borrow().get(&name)).map_err(JsValue::from)
    }

    /// The names of the visible skills.
    pub fn names(&self) -> Vec<String> {
        self.inner.borrow().names()
    }

    /// Everything found, scope-level and per skill (with `path` = `scope:location`).
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.borrow().diagnostics())
    }

    /// Store calls made so far (discovery, refreshes and file reads).
    #[wasm_bindgen(unchecked_return_type = "StorageStats")]
    pub fn stats(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.borrow().stats())
    }

    /// Without `relPath`: the SKILL.md body, frontmatter stripped. With it: that file of the
    /// skill (text, or bytes when it is not UTF-8). Unknown skills and paths that leave the skill
    /// directory are answered with an `error` before the store is touched; never rejects.
    #[wasm_bindgen(js_name = readFile, unchecked_return_type = "Promise<FileResult>")]
    pub fn read_file(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] rel_path: Option<JsValue>,
    ) -> Promise {
        let (name, rel_path) = match (
            convert::string(&name, "SkillRegistry.readFile: name"),
            convert::opt_string(&rel_path.unwrap_or_default(), "SkillRegistry.readFile: relPath"),
        ) {
            (Ok(n), Ok(p)) => (n, p),
            (Err(e), _) | (_, Err(e)) => return Promise::reject(&e),
        };
        let planned = self.inner.borrow().file_request(&name, rel_path.as_deref());
        wasm_bindgen_futures::future_to_promise(async move {
            let result = match planned {
                Ok(req) => req.fetch().await,
                Err(refused) => *refused,
            };
            to_js(&result).map_err(JsValue::from)
        })
    }

    /// Re-lists every scope, re-reads only SKILL.md files whose size or etag changed, and says
    /// what was added, changed and removed. Never rejects.
    #[wasm_bindgen(unchecked_return_type = "Promise<RefreshReport>")]
    pub fn refresh(&self) -> Promise {
        let inner = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let (scopes, opts, records, stats) = inner.borrow().refresh_inputs();
            let found = skillwasm::discover::discover(&scopes, &opts, &records, &stats).await;
            let report = inner.borrow_mut().apply(found);
            to_js(&report).map_err(JsValue::from)
        })
    }

    /// The registry as bytes, for `SkillRegistry.fromSnapshot`.
    pub fn snapshot(&self) -> Vec<u8> {
        self.inner.borrow().snapshot()
    }
}
