//! The items of a batch (`parseSkills`, `publishSkillFiles`), read once through `boundary.js`: each
//! item's bytes within the cap, or why it cannot be read; for `parseSkills`, the bytes copied
//! into this module in one pass ([`SkillBatch`]).

use super::convert::{describe_error, pass_traps};
use js_sys::Array;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = batchItems)]
    fn batch_items(inputs: &JsValue, max: u32) -> Result<JsValue, JsValue>;
}

/// One item of a `parseSkills` batch.
pub enum BatchItem {
    /// Its input (not yet read: see [`crate::convert::bytes`]) and the `dirName` it came with.
    Input {
        /// The SKILL.md bytes or text.
        input: JsValue,
        /// The name of the directory that holds it.
        dir_name: Option<String>,
    },
    /// It could not be read (a getter threw, `dirName` is no string ...).
    Unreadable(String),
}

/// The items of a batch; the error says what is wrong with `inputs` as a whole.
pub fn batch(inputs: &JsValue, max: u32) -> Result<Vec<BatchItem>, String> {
    let got = batch_items(inputs, max).map_err(|e| describe_error(pass_traps(e)))?;
    if let Some(message) = got.as_string() {
        return Err(message);
    }
    // An array of arrays that boundary.js made.
    let list: Array = got.unchecked_into();
    let mut out = Vec::with_capacity(list.length() as usize);
    for item in list.iter() {
        let item: Array = item.unchecked_into();
        let problem = item.get(2);
        out.push(match problem.as_string() {
            Some(message) => BatchItem::Unreadable(message),
            None => BatchItem::Input { input: item.get(0), dir_name: item.get(1).as_string() },
        });
    }
    Ok(out)
}

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = batchPlan)]
    fn batch_plan(inputs: &JsValue, max_items: u32, max: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = batchFill)]
    fn batch_fill(dst: &mut [u8], from: u32, to: u32, prefix: u32) -> bool;
    #[wasm_bindgen(js_name = batchDone)]
    fn batch_done();
}

/// One item of a `parseSkills` batch, as read (its bytes are copied later: [`SkillBatch::fill`]).
#[derive(Debug, Clone, PartialEq)]
pub enum SkillItem {
    /// Bytes within the cap: how many, and the `dirName` the item came with.
    Bytes {
        /// Its length in bytes.
        size: u32,
        /// The name of the directory that holds it.
        dir_name: Option<String>,
    },
    /// Longer than the cap (the length it claims, in bytes or UTF-16 units).
    TooLarge(u64),
    /// Not a string, a Uint8Array, an ArrayBuffer nor `{ input, dirName }`.
    NotBytes,
    /// A Uint8Array whose own `length` lies or throws (why).
    Lying(String),
    /// It could not be read (a getter threw, `dirName` is no string ...).
    Unreadable(String),
}

/// The items of a batch, read once, whose bytes are copied into wasm memory a run of items at a
/// time: one crossing per run, not several per item. Dropping it lets the caller's bytes go.
pub struct SkillBatch {
    /// Every item, in order.
    pub items: Vec<SkillItem>,
}

impl SkillBatch {
    /// Copies the bytes of items `from..to` (those that are [`SkillItem::Bytes`]) into `dst`, one
    /// after the other, each cut to its first `prefix` bytes when `prefix` is above 0. `dst` must
    /// be exactly as long as they are (see [`SkillBatch::span`]).
    pub fn fill(&self, dst: &mut [u8], from: usize, to: usize, prefix: u32) -> Result<(), String> {
        let (from, to) =
            (u32::try_from(from).map_err(|e| e.to_string())?, u32::try_from(to).map_err(|e| e.to_string())?);
        if batch_fill(dst, from, to, prefix) {
            Ok(())
        } else {
            Err("the batch's bytes could not be copied".to_string())
        }
    }

    /// How many bytes [`SkillBatch::fill`] copies for items `from..to`.
    pub fn span(&self, from: usize, to: usize, prefix: u32) -> usize {
        self.items.get(from..to).unwrap_or_default().iter().map(|item| copied(item, prefix)).sum()
    }
}

/// How many bytes [`SkillBatch::fill`] copies for `item`.
pub fn copied(item: &SkillItem, prefix: u32) -> usize {
    match item {
        SkillItem::Bytes { size, .. } if prefix > 0 => (*size).min(prefix) as usize,
        SkillItem::Bytes { size, .. } => *size as usize,
        _ => 0,
    }
}

impl Drop for SkillBatch {
    fn drop(&mut self) {
        batch_done();
    }
}

/// The items of a `parseSkills` batch of at most `max_items`, each of at most `max` bytes; the error says what
/// is wrong with `inputs` as a whole.
pub fn skill_batch(inputs: &JsValue, max_items: u32, max: u32) -> Result<SkillBatch, String> {
    let got = batch_plan(inputs, max_items, max).map_err(|e| describe_error(pass_traps(e)))?;
    if let Some(message) = got.as_string() {
        return Err(message);
    }
    // [info, texts], made by boundary.js.
    let pair: Array = got.unchecked_into();
    let info: js_sys::Float64Array = pair.get(0).unchecked_into();
    let info = info.to_vec();
    // An array of strings and nulls, made by boundary.js.
    let texts = skillwasm::json::from_str(&pair.get(1).as_string().unwrap_or_default()).map_err(|e| e.to_string())?;
    let Value::Array(texts) = texts else { return Err("was read inconsistently".to_string()) };
    let texts: Vec<Option<String>> = texts
        .into_iter()
        .map(|t| match t {
            Value::String(s) => Some(s),
            _ => None,
        })
        .collect();
    if info.len() != 2 * texts.len() {
        return Err("was read inconsistently".to_string());
    }
    let items = info
        .chunks_exact(2)
        .zip(texts)
        .map(|(pair, text)| {
            let (kind, size) = match pair {
                [kind, size] => (*kind as u8, *size),
                _ => (2, 0.0),
            };
            match kind {
                0 => SkillItem::Bytes { size: size as u32, dir_name: text },
                1 => SkillItem::TooLarge(size.max(0.0) as u64),
                3 => SkillItem::Lying(text.unwrap_or_default()),
                4 => SkillItem::Unreadable(text.unwrap_or_default()),
                _ => SkillItem::NotBytes,
            }
        })
        .collect();
    Ok(SkillBatch { items })
}
