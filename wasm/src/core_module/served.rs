//! The skills a registry serves, for the package's second module, which runs `SkillsMcp` and
//! `publishRegistry` over them (see `served.rs` there and `installServing` in extra.js): the names
//! the model is offered, a served skill's source, descriptions, and its store's listing and reads
//! (counted in the registry's call counters). Conversion only: which skill is served is
//! `skillwasm::host`'s rule. Internal to the package.

use super::registry::JsSkillRegistry;
use super::served_types::{ServedPage, ServedSkill};
use super::to_js;
use js_sys::{Array, Promise, Uint8Array};
use skillwasm::host::SkillSource;
use wasm_bindgen::prelude::*;

fn source(registry: &JsSkillRegistry, name: &str) -> Option<SkillSource> {
    registry.inner.borrow().served_source(name)
}

/// A promise rejected with why the skill cannot be read (a string, as a store's error reads).
fn not_served(name: &str) -> Promise {
    Promise::reject(&JsValue::from_str(&format!("the skill '{name}' is no longer served")))
}

/// The registry's generation.
#[wasm_bindgen(js_name = __sw_servedGeneration)]
pub fn served_generation(registry: &JsSkillRegistry) -> f64 {
    registry.inner.borrow().registry().generation() as f64
}

/// The names of the skills the model is offered, sorted.
#[wasm_bindgen(js_name = __sw_servedNames)]
pub fn served_names(registry: &JsSkillRegistry) -> Vec<String> {
    registry.inner.borrow().offered_names()
}

/// The skill served as `name` (`ServedSkill`), or null.
#[wasm_bindgen(js_name = __sw_servedSkill)]
pub fn served_skill(registry: &JsSkillRegistry, name: &str) -> Result<JsValue, JsValue> {
    let Some(s) = source(registry, name) else { return Ok(JsValue::NULL) };
    let skill = ServedSkill {
        name: s.name,
        path: s.path,
        scope: s.scope,
        directory: s.directory,
        page_size: s.page_size,
        max_object_bytes: s.max_object_bytes,
        mode: s.mode,
    };
    to_js(&skill).map_err(JsValue::from)
}

/// The descriptions of the skills `names` name, in order (null for a name no longer held).
#[wasm_bindgen(js_name = __sw_servedDescriptions)]
pub fn served_descriptions(registry: &JsSkillRegistry, names: Vec<String>) -> Array {
    let host = registry.inner.borrow();
    host.descriptions(&names).into_iter().map(|d| d.map_or(JsValue::NULL, JsValue::from)).collect()
}

/// One page of the listing of `prefix` in the store of the skill served as `name`: a promise of a
/// `ServedPage`, rejected with the store's error as a string.
#[wasm_bindgen(js_name = __sw_servedList)]
pub fn served_list(
    registry: &JsSkillRegistry,
    name: &str,
    prefix: String,
    cursor: Option<String>,
    limit: u32,
) -> Promise {
    let Some(source) = source(registry, name) else { return not_served(name) };
    super::promise::spawn(Box::pin(async move {
        let page = source.list_page(&prefix, cursor.as_deref(), limit).await.map_err(|e| JsValue::from_str(&e.0))?;
        let page = ServedPage { entries: page.entries, cursor: page.cursor, warnings: page.warnings };
        to_js(&page).map_err(JsValue::from)
    }))
}

/// `key` read from the store of the skill served as `name`, at most `maxBytes`: a promise of its
/// bytes or null (no such key), rejected with the store's error as a string.
#[wasm_bindgen(js_name = __sw_servedRead)]
pub fn served_read(registry: &JsSkillRegistry, name: &str, key: String, max_bytes: Option<u32>) -> Promise {
    let Some(source) = source(registry, name) else { return not_served(name) };
    super::promise::spawn(Box::pin(async move {
        match source.read_key(&key, max_bytes).await {
            Ok(Some(bytes)) => Ok(Uint8Array::from(bytes.as_slice()).into()),
            Ok(None) => Ok(JsValue::NULL),
            Err(e) => Err(JsValue::from_str(&e.0)),
        }
    }))
}
