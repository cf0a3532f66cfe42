//! The `SkillRegistry` class for JS. It holds the core registry behind `Rc<RefCell<..>>` and never
//! keeps it borrowed across an await, so calls may overlap (a `readFile` during a `refresh`).

use super::storage::JsStorage;
use super::{convert, metas, options_error, to_js};
use js_sys::{Function, Promise};
use serde_json::Value;
use skillwasm::consent;
use skillwasm::discover::SkillMeta;
use skillwasm::host::{self, resolve_scopes, Permitted, ScopeSpec, Scopes, SkillHost, SkillsConfig, DEFAULT_SCOPES};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS_REGISTRY: &'static str = r#"
/**
 * A store for a scope. `location` says where its keys are, so that the model is shown locations
 * it can use: an absolute directory (`nodeFsStorage`), or a URI (`r2:/prefix/`,
 * `indexeddb://db/store/`, `memory:/`). `origin` says where its skills come from over the network
 * (`wellKnownStorage`: the index URL's origin; `mcpStorage`: `mcp:<server>`): a store with one is
 * remote for consent (the `approve` hook is told it; its skills' `allowed-tools` count only once
 * their content is approved). Both are read once, when the scope is configured.
 */
export type ScopeStorage = SkillStorage & { readonly location?: string; readonly origin?: string };
/** One scope: a name, a store, the roots to search in it, and whether it is trusted. */
export interface ScopeConfig {
  name: string;
  storage: ScopeStorage;
  /**
   * List prefixes to search; default: the store's own `roots` when it declares them, else
   * `.agents/skills/` and `.<client>/skills/`.
   */
  roots?: string[];
  /** Default: true, except for a scope named "project" (trusted only with `trustProject`). */
  trusted?: boolean;
  /**
   * List the scope on first access instead of at `discover()` (default false): discovery does not
   * wait for its store; the catalog notes the scope, and the first tool call that needs it (a
   * skill not offered yet, a search) or `listLazyScopes()` lists it. A store that fails or does
   * not answer within `timeoutMs` then costs diagnostics, never the registry.
   */
  lazy?: boolean;
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
  /**
   * Runs the `` !`command` `` lines of skill bodies where they are served (the tool, `/name`,
   * subagents). Off by default: without it commands stay as written. Waits at most `timeoutMs`.
   */
  commands?: CommandRunner;
  /**
   * Consent bound to content: asked before a skill is served with content the host has not
   * approved (see `SkillApprover`); waits at most `approvalTimeoutMs`. Without it local skills are
   * served as they are, and a remote skill's `allowed-tools` count only once `approvals` holds its
   * current content.
   */
  approve?: SkillApprover;
  /**
   * Approvals to start with: what `registry.approvals()` returned; or, for `fromSnapshot` only,
   * `"snapshot"`: those the snapshot holds (written by `snapshot({ approvals: true })`).
   */
  approvals?: Approval[] | "snapshot";
  /**
   * A lockfile (`skills-lock.json`, parsed): after discovery and every refresh each offered
   * skill's content digest is computed, and a pinned skill whose content differs from its pin is
   * refused (`skill-pin-mismatch`); unpinned and missing skills are reported. `discover` only.
   */
  lock?: Lockfile;
};
"#;

/// The `permitted` function among the values an options conversion left unread, as the core
/// wants it: a non-boolean answer counts as "no", a throw as a failure the core reports (the call
/// is caught by wasm-bindgen's `catch` on `Function::call1`, so nothing unwinds through Rust).
pub(crate) fn predicate(taken: &convert::Taken, what: &str) -> Result<Option<Permitted>, JsValue> {
    let Some((_, f)) = taken.iter().find(|(path, _)| path == "permitted") else { return Ok(None) };
    if f.is_undefined() || f.is_null() {
        return Ok(None);
    }
    let f: Function = f
        .clone()
        .dyn_into()
        .map_err(|_| options_error(&format!("{what}.permitted must be a function, not {}", convert::kind_of(f))))?;
    Ok(Some(Rc::new(move |m: &SkillMeta| match to_js(m) {
        Ok(v) => match f.call1(&JsValue::NULL, &v) {
            Ok(r) => Ok(r.as_bool().unwrap_or(false)),
            Err(e) => Err(format!("it threw {}", convert::describe_error(convert::pass_traps(e)))),
        },
        Err(_) => Err("the skill could not be given to it".to_string()),
    })))
}

/// Splits the JS options into the configuration (plain data and the predicate) and the scopes.
/// The options are read once, within the bounds; the stores and the predicate are handed back
/// unread.
/// What a registry's options hold besides its scopes and configuration.
struct RegistryExtras {
    approvals: consent::ApprovalsOption,
    lock: Option<skillwasm::lock::Lockfile>,
}

fn parse_options(options: &JsValue, what: &str) -> Result<(Scopes, SkillsConfig, RegistryExtras), JsValue> {
    if !options.is_object() {
        return Err(options_error(&format!(
            "{what} must be an object with scopes or project/user/org/builtin stores, not {}",
            convert::kind_of(options)
        )));
    }
    let holes = [
        "scopes.*.storage",
        "project",
        "user",
        "org",
        "builtin",
        "permitted",
        "commands",
        "approve",
        "!scopes.*.roots.*",
    ];
    let (mut value, taken) = convert::options_value(options, what, &holes)?;
    if let Some((key, message)) = value.as_object().and_then(|o| host::unknown_key(o, &host::registry_keys())) {
        return Err(options_error(&format!("{what}.{key}: {message}")));
    }
    let scope_list = value.as_object_mut().and_then(|o| o.remove("scopes")).unwrap_or_default();
    let approvals = value.as_object_mut().and_then(|o| o.remove("approvals")).unwrap_or_default();
    let approvals = consent::approvals_option(&approvals).map_err(|e| {
        let sep = if e.starts_with('[') { "" } else { " " };
        options_error(&format!("{what}.approvals{sep}{e}"))
    })?;
    let lock = match value.as_object_mut().and_then(|o| o.remove("lock")) {
        None | Some(Value::Null) => None,
        Some(v) => {
            Some(skillwasm::lock::lockfile_from_json(&v).map_err(|e| options_error(&format!("{what}.lock: {e}")))?)
        }
    };
    let mut config = SkillsConfig::from_json_keyed(&value).map_err(|e| convert::keyed_error(what, e))?;
    config.permitted = predicate(&taken, what)?;
    let timeout = config.discover.timeout_ms.max(1);
    config.commands = super::commands::runner(&taken, what, timeout)?;
    config.approve = super::approve::approver(&taken, what, config.approval_timeout_ms.max(1))?;
    let cap = config.discover.max_object_bytes.max(1);
    let storage = |path: &str| taken.iter().find(|(p, _)| p == path).map(|(_, v)| v.clone()).unwrap_or_default();
    let mut specs = Vec::new();
    let mut lazy = Vec::new();
    match scope_list {
        Value::Array(list) => {
            for (i, s) in list.into_iter().enumerate() {
                let at = format!("{what}.scopes[{i}]");
                let Value::Object(mut s) = s else { return Err(options_error(&format!("{at} must be an object"))) };
                let scope_keys: Vec<String> = host::SCOPE_KEYS.iter().map(|k| k.to_string()).collect();
                if let Some((key, message)) = host::unknown_key(&s, &scope_keys) {
                    return Err(options_error(&format!("{at}.{key}: {message}")));
                }
                let name = match s.remove("name") {
                    Some(Value::String(name)) => name,
                    _ => return Err(options_error(&format!("{at}.name: every scope needs a string name"))),
                };
                let roots = match s.remove("roots") {
                    None | Some(Value::Null) => None,
                    Some(Value::Array(roots)) => Some(
                        roots
                            .into_iter()
                            .map(|v| match v {
                                Value::String(r) => Ok(r),
                                _ => Err(options_error(&format!("{at}.roots: roots must be strings"))),
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                    ),
                    Some(_) => return Err(options_error(&format!("{at}.roots must be an array of strings"))),
                };
                let trusted = match s.remove("trusted") {
                    None | Some(Value::Null) => None,
                    Some(Value::Bool(t)) => Some(t),
                    Some(_) => return Err(options_error(&format!("{at}.trusted must be a boolean"))),
                };
                match s.remove("lazy") {
                    None | Some(Value::Null) | Some(Value::Bool(false)) => {}
                    Some(Value::Bool(true)) => lazy.push(name.clone()),
                    Some(_) => return Err(options_error(&format!("{at}.lazy must be a boolean"))),
                }
                let at = format!("{at}.storage");
                specs.push(spec(&at, name, storage(&format!("scopes.{i}.storage")), roots, trusted, timeout, cap)?);
            }
        }
        Value::Null => {
            for name in DEFAULT_SCOPES {
                let storage = storage(name);
                if !storage.is_undefined() && !storage.is_null() {
                    let at = format!("{what}.{name}");
                    specs.push(spec(&at, name.to_string(), storage, None, None, timeout, cap)?);
                }
            }
        }
        _ => return Err(options_error(&format!("{what}.scopes must be an array of scopes"))),
    }
    let scopes = resolve_scopes(&specs, &config)
        .and_then(|s| s.with_lazy(lazy))
        .map_err(|e| options_error(&format!("{what}: {e}")))?;
    Ok((scopes, config, RegistryExtras { approvals, lock }))
}

/// One scope's spec; a store that is none is a TypeError naming it at `at`.
fn spec(
    at: &str,
    name: String,
    storage: JsValue,
    roots: Option<Vec<String>>,
    trusted: Option<bool>,
    timeout_ms: u32,
    max_object_bytes: u32,
) -> Result<ScopeSpec, JsValue> {
    let storage =
        JsStorage::new(storage, timeout_ms, max_object_bytes).map_err(|e| options_error(&format!("{at}: {e}")))?;
    let location = storage.current_location();
    Ok(ScopeSpec { name, storage: Rc::new(storage), roots, trusted, location })
}

/// The registry a snapshot starts keeps the snapshot's bytes (the copy made of the caller's) and
/// reads its records, its skills and its index there; beside them it holds about a sixth of their
/// size (at 100,000 real-sized skills: 10.9 MiB beside 63.4), and its first budgeted catalog
/// (most of it the names it drops) and first search up to about a twelfth more: room for two
/// ninths of the snapshot's size is reserved, so that those need no grow of the memory.
#[cfg(target_arch = "wasm32")]
const fn room_beside(snapshot: usize) -> usize {
    snapshot / 9 * 2
}

/// The skills of every scope, discovered once and kept: metadata, diagnostics, file reads,
/// refresh and snapshots.
#[wasm_bindgen(js_name = SkillRegistry)]
pub struct JsSkillRegistry {
    pub(crate) inner: Rc<RefCell<SkillHost>>,
    /// What the second module keeps this registry's invocable skills under (see
    /// `seam_invoke.rs`): an object of its own, so that they go when the registry does.
    pub(crate) owner: js_sys::Object,
}

#[wasm_bindgen(js_class = SkillRegistry)]
impl JsSkillRegistry {
    /// Lists every scope's roots and reads each SKILL.md (a prefix of it). A store that fails
    /// costs the skills it touches a diagnostic each; the registry is always returned.
    #[wasm_bindgen(unchecked_return_type = "Promise<SkillRegistry>")]
    pub fn discover(#[wasm_bindgen(unchecked_param_type = "RegistryOptions")] options: JsValue) -> Promise {
        super::promise::spawn(Box::pin(async move {
            let what = "SkillRegistry.discover: options";
            let (scopes, config, RegistryExtras { approvals, lock }) = parse_options(&options, what)?;
            let consent::ApprovalsOption::Given(approvals) = approvals else {
                return Err(options_error(&format!(
                    "{what}.approvals: \"snapshot\" takes a snapshot's approvals, so it is for SkillRegistry.fromSnapshot only"
                )));
            };
            let mut host = SkillHost::discover(scopes, config).await;
            *host.approvals_mut() = approvals;
            host.set_lock(lock);
            let inner = Rc::new(RefCell::new(host));
            host::lock::verify_lock_shared(&inner).await;
            Ok(JsSkillRegistry { inner, owner: js_sys::Object::new() }.into())
        }))
    }

    /// Starts from `snapshot()` bytes with no store call; the options must name the same scopes,
    /// roots and trust. Throws when the snapshot does not fit them (then discover afresh).
    #[wasm_bindgen(js_name = fromSnapshot)]
    pub fn from_snapshot(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RegistryOptions")] options: JsValue,
    ) -> Result<JsSkillRegistry, JsValue> {
        let bytes = match convert::bytes(&bytes, convert::MAX_SNAPSHOT_BYTES) {
            Ok(b) if !bytes.is_string() => {
                // Room for the copy made at once: grown by the copy's allocation, the allocator
                // would add its step of growth (8 MiB at this size) that the room reserved below
                // for the registry then comes on top of rather than in.
                #[cfg(target_arch = "wasm32")]
                crate::boundary::grow::reserve(b.size());
                b.into_vec()
            }
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
        let what = "SkillRegistry.fromSnapshot: options";
        let (scopes, config, RegistryExtras { approvals, lock }) = parse_options(&options, what)?;
        if lock.is_some() {
            return Err(options_error(&format!(
                "{what}.lock: checking a lockfile reads every skill's files, which fromSnapshot does not; use SkillRegistry.discover with lock"
            )));
        }
        // Room for what the registry holds beside the snapshot's bytes in one grow of the memory,
        // not a grow (and a JS garbage collection) every step of the way; made once the snapshot
        // is found good, so that one refused never grows the memory beyond its copy.
        let reserve = |len: usize| {
            #[cfg(target_arch = "wasm32")]
            crate::boundary::grow::reserve(room_beside(len));
            #[cfg(not(target_arch = "wasm32"))]
            let _ = len;
        };
        let from_snapshot = approvals == consent::ApprovalsOption::FromSnapshot;
        let mut host = SkillHost::from_snapshot_approved(bytes, scopes, config, reserve, from_snapshot)
            .map_err(|d| JsValue::from(js_sys::Error::new(&format!("{}: {}", d.code, d.message))))?;
        if let consent::ApprovalsOption::Given(approvals) = approvals {
            *host.approvals_mut() = approvals;
        }
        Ok(JsSkillRegistry { inner: Rc::new(RefCell::new(host)), owner: js_sys::Object::new() })
    }

    /// The visible skills, one per name (the one of highest precedence), sorted by name. With
    /// `scope`: every skill of that scope, shadowed ones included (with `shadowedBy`).
    #[wasm_bindgen(js_name = listMetas, unchecked_return_type = "SkillMeta[]")]
    pub fn list_metas(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] scope: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let scope = convert::opt_string(&scope.unwrap_or_default(), "SkillRegistry.listMetas: scope")?;
        // Up to one per skill: handed over as JSON text (see `crate::boundary::metas`).
        let host = self.inner.borrow();
        metas::to_js(&host.list_metas(scope.as_deref()))
    }

    /// Every loaded skill of every scope, shadowed ones too (with `shadowedBy`), in precedence order.
    #[wasm_bindgen(js_name = listMetasAcross, unchecked_return_type = "SkillMeta[]")]
    pub fn list_metas_across(&self) -> Result<JsValue, JsValue> {
        let host = self.inner.borrow();
        metas::to_js(&host.list_metas_across())
    }

    /// The skill that wins `name`, or null.
    #[wasm_bindgen(unchecked_return_type = "SkillMeta | null")]
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> Result<JsValue, JsValue> {
        let name = convert::string(&name, "SkillRegistry.get: name")?;
        let host = self.inner.borrow();
        to_js(&host.get(&name)).map_err(JsValue::from)
    }

    /// The names of the visible skills.
    pub fn names(&self) -> Vec<String> {
        self.inner.borrow().registry().names()
    }

    /// The visible skill that a skill named `name` would be hidden by as a look-alike (`PDF` or
    /// Cyrillic `сор` beside `pdf` or `cop`), or null: a host that adds skills refuses an
    /// impostor with it before storing it. Null for a plain name (lowercase ASCII letters,
    /// digits, hyphens), which is never hidden.
    #[wasm_bindgen(unchecked_return_type = "string | null")]
    pub fn lookalike(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    ) -> Result<JsValue, JsValue> {
        let name = convert::string(&name, "SkillRegistry.lookalike: name")?;
        Ok(self.inner.borrow().registry().lookalike(&name).map_or(JsValue::NULL, |n| JsValue::from_str(&n)))
    }

    /// Everything found, scope-level and per skill (with `path` = `scope:location`).
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> Result<JsValue, JsError> {
        let host = self.inner.borrow();
        let mut all = host.registry().diagnostics();
        all.extend(host.lock_report().diagnostics.iter().cloned());
        to_js(&all)
    }

    /// A lockfile of every skill offered, each pinned to its content digest computed now (see
    /// `SkillRegistry.discover`'s `lock`), with a diagnostic for each skill whose digest could not
    /// be computed. An entry of `previous` (a lockfile) for the same scope and name keeps its
    /// `source`; other sources are the scope's store (a directory, a discovery index, an MCP
    /// server). Never rejects.
    #[wasm_bindgen(unchecked_return_type = "Promise<LockfileResult>")]
    pub fn lockfile(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "Lockfile")] previous: Option<JsValue>,
    ) -> Promise {
        let previous = match previous.filter(|v| !v.is_undefined() && !v.is_null()) {
            None => None,
            Some(v) => {
                let parsed = convert::options_value(&v, "SkillRegistry.lockfile: previous", &[]).and_then(|(v, _)| {
                    skillwasm::lock::lockfile_from_json(&v)
                        .map_err(|e| options_error(&format!("SkillRegistry.lockfile: previous: {e}")))
                });
                match parsed {
                    Ok(l) => Some(l),
                    Err(e) => return Promise::reject(&e),
                }
            }
        };
        let inner = self.inner.clone();
        super::promise::promise(async move { host::lock::lockfile_shared(&inner, previous.as_ref()).await })
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
    pub fn read_file(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(js_name = relPath, unchecked_optional_param_type = "string")] rel_path: Option<JsValue>,
    ) -> Promise {
        let (name, rel_path) = match (
            convert::string(&name, "SkillRegistry.readFile: name"),
            convert::opt_string(&rel_path.unwrap_or_default(), "SkillRegistry.readFile: relPath"),
        ) {
            (Ok(n), Ok(p)) => (n, p),
            (Err(e), _) | (_, Err(e)) => return Promise::reject(&e),
        };
        let planned = self.inner.borrow().registry().file_request(&name, rel_path.as_deref());
        super::promise::promise(async move {
            match planned {
                Ok(req) => req.fetch().await,
                Err(refused) => *refused,
            }
        })
    }

    /// A file of the skill `name` of `scope` (the one that scope holds, shadowed or not): without
    /// `relPath` the SKILL.md body, frontmatter stripped. Resolves to `{ content, path }` (text,
    /// or bytes when it is not UTF-8; `path` as the model is shown it), or null when the scope
    /// holds no such skill, the path is refused or the file cannot be read (`readFile` says why).
    #[wasm_bindgen(js_name = readScopedFile, unchecked_return_type = "Promise<ScopedFile | null>")]
    pub fn read_scoped_file(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] scope: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(js_name = relPath, unchecked_optional_param_type = "string")] rel_path: Option<JsValue>,
    ) -> Promise {
        let what = "SkillRegistry.readScopedFile";
        let (scope, name, rel_path) = match (
            convert::string(&scope, &format!("{what}: scope")),
            convert::string(&name, &format!("{what}: name")),
            convert::opt_string(&rel_path.unwrap_or_default(), &format!("{what}: relPath")),
        ) {
            (Ok(s), Ok(n), Ok(p)) => (s, n, p),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return Promise::reject(&e),
        };
        let inner = self.inner.clone();
        super::promise::promise(async move {
            SkillHost::read_scoped_file_shared(&inner, &scope, &name, rel_path.as_deref()).await
        })
    }

    /// Re-lists every scope, re-reads only SKILL.md files whose size or etag changed, decides
    /// who sees which skill again (`permitted` is called once per skill), and says what was added,
    /// changed and removed. Never rejects.
    #[wasm_bindgen(unchecked_return_type = "Promise<RefreshReport>")]
    pub fn refresh(&self) -> Promise {
        let inner = self.inner.clone();
        super::promise::promise(async move { host::lock::refresh_verified(&inner).await })
    }

    /// Lists the `lazy` scopes not listed yet (a host that wants them in its next catalog awaits
    /// this first) and says what they added; `null` when every scope is listed. Never rejects: a
    /// store that fails or does not answer within `timeoutMs` costs diagnostics.
    #[wasm_bindgen(js_name = listLazyScopes, unchecked_return_type = "Promise<RefreshReport | null>")]
    pub fn list_lazy_scopes(&self) -> Promise {
        let inner = self.inner.clone();
        super::promise::promise(async move { host::lock::list_pending_verified(&inner).await })
    }

    /// The skills the model is offered that best match `query`, best first: BM25 over names,
    /// descriptions in every locale and the words of each body's opening (weighted in that
    /// order), names found through typos; each hit says where the words were found (`matched`).
    /// `limit` (default 10, at most 100) and `scope` (only that scope's skills) are optional.
    #[wasm_bindgen(unchecked_return_type = "SearchHit[]")]
    pub fn search(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SearchOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let query = convert::string(&query, "SkillRegistry.search: query")?;
        let (opts, _) = convert::options_by(
            &options.unwrap_or_default(),
            "SkillRegistry.search: options",
            &[],
            host::search_options_from_json,
        )?;
        to_js(&self.inner.borrow().search(&query, &opts)).map_err(JsValue::from)
    }

    /// The approvals the registry holds, `{ name, scope, digest }` each (the host's `approve` gave
    /// them, or `approvals` restored them): to keep, and give back as `approvals` to
    /// `SkillRegistry.discover` or `fromSnapshot`.
    #[wasm_bindgen(unchecked_return_type = "Approval[]")]
    pub fn approvals(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.borrow().approvals().list())
    }

    /// The content digest of the skill that wins `name`: `sha256:` over its files' SHA-256 (see
    /// the consent guide), computed now from its store within the per-skill limits (512 files,
    /// `maxObjectBytes` together). Never rejects: an unknown skill, one beyond the limits or a
    /// failed read gives an `error` instead of a `digest`.
    #[wasm_bindgen(js_name = contentDigest, unchecked_return_type = "Promise<ContentDigest>")]
    pub fn content_digest(&self, #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> Promise {
        let name = match convert::string(&name, "SkillRegistry.contentDigest: name") {
            Ok(n) => n,
            Err(e) => return Promise::reject(&e),
        };
        let inner = self.inner.clone();
        super::promise::promise(async move { host::consent::content_digest(&inner, &name).await })
    }

    /// Vets the skill that wins `name` in full: its SKILL.md and every resource within the
    /// per-skill limits (512 files, `maxObjectBytes` together), text only, nothing run. Never
    /// rejects: an unknown skill has an `error`; one beyond the limits or with a failed read has
    /// the findings of what was read and a `vet-incomplete` error.
    /// With `{ severity }` (default `high`), the report's `refusal` says whether a finding at or
    /// above it refuses the skill.
    #[wasm_bindgen(unchecked_return_type = "Promise<VetReport>")]
    pub fn vet(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "VetOptions")] options: Option<JsValue>,
    ) -> Promise {
        let name = match convert::string(&name, "SkillRegistry.vet: name") {
            Ok(n) => n,
            Err(e) => return Promise::reject(&e),
        };
        let opts = match convert::options_by(
            &options.unwrap_or_default(),
            "SkillRegistry.vet: options",
            &[],
            host::vet_options_from_json,
        ) {
            Ok((o, _)) => o,
            Err(e) => return Promise::reject(&e),
        };
        let threshold = opts.severity.unwrap_or_default();
        let inner = self.inner.clone();
        super::promise::promise(async move { host::vet::vet_skill(&inner, &name, threshold).await })
    }

    /// The registry as bytes, for `SkillRegistry.fromSnapshot`; with `{ approvals: true }` the
    /// registry's approvals too (restored only by `fromSnapshot(bytes, { approvals: "snapshot" })`).
    pub fn snapshot(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "SnapshotOptions")] options: Option<JsValue>,
    ) -> Result<Vec<u8>, JsValue> {
        let (opts, _) = convert::options_by(
            &options.unwrap_or_default(),
            "SkillRegistry.snapshot: options",
            &[],
            host::snapshot_options_from_json,
        )?;
        Ok(self.inner.borrow().snapshot(opts.approvals.unwrap_or(false)))
    }
}
