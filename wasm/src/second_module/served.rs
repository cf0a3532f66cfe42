//! The skills a core module's registry serves, seen from this module: [`Port`] implements
//! [`ServedSkills`] over the port object extra.js makes for a registry (its functions call the
//! core module's `__sw_served*` exports), and [`PortStorage`] reads a served skill's store
//! through it, so that the registry's store wrappers, limits and call counters stay the core's.
//! Every call into JS is caught: a port that throws (a freed registry, a lost core instance) is
//! an error value.

use super::served_types::{ServedPage, ServedSkill};
use js_sys::{Array, Function, Promise, Reflect, Uint8Array};
use skillwasm::host::{ServedSkills, SkillSource};
use skillwasm::store::{CallStats, ListPage, LocalFuture, Storage, StorageError};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Most names one registry serves here.
const MAX_NAMES: u32 = 10_000_000;

/// The port object of one registry: `{ generation, names, skill, descriptions, list, read }`
/// (cheap to clone: clones share the functions).
#[derive(Clone)]
pub struct Port {
    fns: Rc<Functions>,
}

/// The port's functions.
struct Functions {
    this: JsValue,
    generation: Function,
    names: Function,
    skill: Function,
    descriptions: Function,
    list: Function,
    read: Function,
}

/// The message of what a JS call threw or rejected with.
fn message(e: &JsValue) -> String {
    if let Some(s) = e.as_string() {
        return s;
    }
    Reflect::get(e, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| "the call failed".to_string())
}

fn list_of_strings(v: &JsValue, what: &str) -> Result<Vec<String>, String> {
    let array: &Array = v.dyn_ref().ok_or_else(|| format!("{what} is not an array"))?;
    if array.length() > MAX_NAMES {
        return Err(format!("{what} has more than {MAX_NAMES} entries"));
    }
    array.iter().map(|s| s.as_string().ok_or_else(|| format!("{what} holds a value that is not a string"))).collect()
}

impl Port {
    /// The port `obj`, which must have the six functions.
    pub fn new(obj: JsValue) -> Result<Port, String> {
        Functions::new(obj).map(|fns| Port { fns: Rc::new(fns) })
    }
}

impl Functions {
    fn new(obj: JsValue) -> Result<Functions, String> {
        let function = |key: &str| {
            Reflect::get(&obj, &JsValue::from_str(key))
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
                .ok_or_else(|| format!("the registry's port has no {key} function"))
        };
        Ok(Functions {
            generation: function("generation")?,
            names: function("names")?,
            skill: function("skill")?,
            descriptions: function("descriptions")?,
            list: function("list")?,
            read: function("read")?,
            this: obj,
        })
    }

    /// `f(args...)`, synchronously; what it throws is the error.
    fn call(&self, f: &Function, args: &[JsValue]) -> Result<JsValue, String> {
        let args: Array = args.iter().collect();
        f.apply(&self.this, &args).map_err(|e| message(&e))
    }

    /// `f(args...)`'s promise, awaited; what it throws or rejects with is the error.
    async fn wait(&self, f: &Function, args: &[JsValue]) -> Result<JsValue, StorageError> {
        let promise = self.call(f, args).map_err(StorageError)?;
        let promise: Promise =
            promise.dyn_into().map_err(|_| StorageError("the port did not answer with a promise".into()))?;
        JsFuture::from(promise).await.map_err(|e| StorageError(message(&e)))
    }
}

impl ServedSkills for Port {
    fn generation(&self) -> Result<u64, String> {
        let v = self.fns.call(&self.fns.generation, &[])?;
        v.as_f64().filter(|g| *g >= 0.0).map(|g| g as u64).ok_or_else(|| "the generation is not a number".into())
    }

    fn offered_names(&self) -> Result<Vec<String>, String> {
        list_of_strings(&self.fns.call(&self.fns.names, &[])?, "the names")
    }

    fn source(&self, name: &str) -> Result<Option<SkillSource>, String> {
        let v = self.fns.call(&self.fns.skill, &[JsValue::from_str(name)])?;
        if v.is_null() || v.is_undefined() {
            return Ok(None);
        }
        let skill: ServedSkill = serde_wasm_bindgen::from_value(v).map_err(|e| e.to_string())?;
        let storage = PortStorage { port: self.clone(), name: skill.name.clone() };
        Ok(Some(SkillSource {
            name: skill.name,
            path: skill.path,
            scope: skill.scope,
            directory: skill.directory,
            storage: Rc::new(storage),
            // The core module counts the calls, in the registry's counters.
            stats: Rc::new(CallStats::default()),
            page_size: skill.page_size,
            max_object_bytes: skill.max_object_bytes,
            mode: skill.mode,
        }))
    }

    fn descriptions(&self, names: &[String]) -> Result<Vec<Option<String>>, String> {
        let asked: Array = names.iter().map(|n| JsValue::from_str(n)).collect();
        let v = self.fns.call(&self.fns.descriptions, &[asked.into()])?;
        let array: &Array = v.dyn_ref().ok_or("the descriptions are not an array")?;
        if array.length() as usize != names.len() {
            return Err("the descriptions do not match the names".into());
        }
        Ok(array.iter().map(|d| d.as_string()).collect())
    }
}

/// The store of one served skill, read through the core module.
struct PortStorage {
    port: Port,
    /// The skill's name: the core finds its store again by it on every call.
    name: String,
}

impl Storage for PortStorage {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let cursor = cursor.map_or(JsValue::UNDEFINED, JsValue::from_str);
            let args = [JsValue::from_str(&self.name), JsValue::from_str(prefix), cursor, JsValue::from(limit)];
            let v = self.port.fns.wait(&self.port.fns.list, &args).await?;
            let page: ServedPage = serde_wasm_bindgen::from_value(v).map_err(|e| StorageError(e.to_string()))?;
            Ok(ListPage { entries: page.entries, cursor: page.cursor, warnings: page.warnings, ..ListPage::default() })
        })
    }

    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        Box::pin(async move {
            let most = max_bytes.map_or(JsValue::UNDEFINED, JsValue::from);
            let args = [JsValue::from_str(&self.name), JsValue::from_str(key), most];
            let v = self.port.fns.wait(&self.port.fns.read, &args).await?;
            if v.is_null() {
                return Ok(None);
            }
            let bytes: Uint8Array =
                v.dyn_into().map_err(|_| StorageError("the port did not answer with bytes".into()))?;
            Ok(Some(bytes.to_vec()))
        })
    }
}
