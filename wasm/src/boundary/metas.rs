//! Lists of skills' metadata (a registry's `listMetas`, up to one per skill of 100,000 and more)
//! handed to JS as JSON text a few MiB at a time, the values of each meta in one flat array
//! (`skillwasm::discover::metas_json`), which `boundary.js`'s `takeMetas` reads with one
//! `JSON.parse` and builds into the objects. Made field by field from wasm instead (one crossing
//! per key and per value, each string decoded alone), a list of 100,000 skills took over a second.

use super::parsed::{closed_array, js_error};
use js_sys::Array;
use skillwasm::discover::{metas_json, SkillMeta};
use wasm_bindgen::prelude::*;

/// JSON text held before it is handed over: what a list costs in wasm memory, whatever its length.
const CHUNK_JSON: usize = 4 << 20;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = takeMetas)]
    fn take_metas(json: &str, count: u32, out: &Array) -> bool;
}

/// Hands the `count` metas written so far (`json`, an array without its closing bracket) to `out`.
fn flush(json: &mut Vec<u8>, count: &mut u32, out: &Array) -> Result<(), JsValue> {
    if *count == 0 {
        return Ok(());
    }
    if !take_metas(closed_array(json)?, *count, out) {
        return Err(js_error("the skills could not be handed over"));
    }
    json.clear();
    *count = 0;
    Ok(())
}

/// `metas` as a JS array of `SkillMeta` objects.
pub fn to_js(metas: &[SkillMeta]) -> Result<JsValue, JsValue> {
    let out = Array::new();
    let mut json = Vec::new();
    let mut count = 0u32;
    for meta in metas {
        json.push(if count == 0 { b'[' } else { b',' });
        metas_json::write_meta(&mut json, meta);
        count += 1;
        if json.len() >= CHUNK_JSON {
            flush(&mut json, &mut count, &out)?;
        }
    }
    flush(&mut json, &mut count, &out)?;
    Ok(out.into())
}
