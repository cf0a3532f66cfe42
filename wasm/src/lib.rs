//! The wasm-bindgen façade over the skillwasm core: the only code that knows about JsValue. Typed options in, typed
//! results out (TypeScript declarations from tsify); bad skill input is a diagnostic, never an
//! exception. Only a call with arguments of the wrong type (a programming error) throws.

mod compact;
mod invoke;
mod registry;
mod rules;
mod storage;
mod tool;

use js_sys::{Array, Uint8Array};
use serde::Serialize;
use skillwasm::disclose::CatalogEntry;
use skillwasm::{Diagnostic, ParseOptions, ParseResult};
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** The bytes of a SKILL.md (a string is taken as its text). */
export type SkillInput = string | Uint8Array;
/** One file of a batch: its bytes and the name of the directory that holds it. */
export interface SkillBatchItem { input: SkillInput; dirName?: string }
/** What `readProperties` returns: the reference CLI's properties, or why there are none. */
export interface PropertiesResult { properties: Record<string, unknown> | null; errors: string[] }
"#;

/// Results become plain objects (maps as objects, absent values as null, bytes as Uint8Array). Measured against
/// serialising to JSON text and `JSON.parse`, building the objects directly is faster on the
/// corpus, by far when bodies are included.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let serializer =
        serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true).serialize_missing_as_null(true);
    value.serialize(&serializer).map_err(|e| JsError::new(&e.to_string()))
}

/// Without bodies, a parse needs only the frontmatter: copy this much of each file into wasm
/// first, and the whole file only when the closing fence is not in it.
const PREFIX_BYTES: u32 = 2 * 1024;

/// Parses a string, Uint8Array or ArrayBuffer; None for any other value.
fn parse_input(input: &JsValue, opts: &ParseOptions) -> Option<ParseResult> {
    let array = if let Some(a) = input.dyn_ref::<Uint8Array>() {
        a.clone()
    } else if let Some(s) = input.as_string() {
        return Some(skillwasm::parse_skill(s.as_bytes(), opts));
    } else {
        Uint8Array::new(input.dyn_ref::<js_sys::ArrayBuffer>()?)
    };
    if !opts.include_body() && !opts.partial && array.length() > PREFIX_BYTES {
        let prefix = array.subarray(0, PREFIX_BYTES).to_vec();
        let result = skillwasm::parse_skill(&prefix, &ParseOptions { partial: true, ..opts.clone() });
        if !result.incomplete {
            return Some(result);
        }
    }
    Some(skillwasm::parse_skill(&array.to_vec(), opts))
}

/// The bytes of a string, Uint8Array or ArrayBuffer argument.
fn input_bytes(input: &JsValue) -> Option<Vec<u8>> {
    if let Some(s) = input.as_string() {
        return Some(s.into_bytes());
    }
    if let Some(a) = input.dyn_ref::<Uint8Array>() {
        return Some(a.to_vec());
    }
    if let Some(b) = input.dyn_ref::<js_sys::ArrayBuffer>() {
        return Some(Uint8Array::new(b).to_vec());
    }
    None
}

fn options(opts: Option<Ts<ParseOptions>>) -> Result<ParseOptions, JsError> {
    match opts {
        Some(o) => serde_wasm_bindgen::from_value(defined(o.js_value()))
            .map_err(|e| JsError::new(&format!("parse options: {e}"))),
        None => Ok(ParseOptions::default()),
    }
}

/// A shallow copy of a plain object without the keys whose value is `undefined`, so that
/// `{ path: undefined }` means what it means in JS: no path. Other values are returned as they are.
pub(crate) fn defined(v: JsValue) -> JsValue {
    if !v.is_object() || js_sys::Array::is_array(&v) || v.is_function() {
        return v;
    }
    let out = js_sys::Object::new();
    for entry in js_sys::Object::entries(v.unchecked_ref()).iter() {
        let pair: js_sys::Array = entry.unchecked_into();
        let value = pair.get(1);
        if !value.is_undefined() {
            let _ = js_sys::Reflect::set(&out, &pair.get(0), &value);
        }
    }
    out.into()
}

#[wasm_bindgen]
extern "C" {
    /// `{ input, dirName }`, read through plain property getters.
    type BatchItem;
    #[wasm_bindgen(method, getter)]
    fn input(this: &BatchItem) -> JsValue;
    #[wasm_bindgen(method, getter, js_name = dirName)]
    fn dir_name(this: &BatchItem) -> Option<String>;
}

/// Parses and validates one SKILL.md.
#[wasm_bindgen(js_name = parseSkill, unchecked_return_type = "ParseResult")]
pub fn parse_skill(
    #[wasm_bindgen(unchecked_param_type = "SkillInput")] input: JsValue,
    opts: Option<Ts<ParseOptions>>,
) -> Result<JsValue, JsError> {
    let opts = options(opts)?;
    let result =
        parse_input(&input, &opts).ok_or_else(|| JsError::new("parseSkill: input must be a string or a Uint8Array"))?;
    to_js(&result)
}

/// Parses many SKILL.md files in one call (one crossing of the JS/wasm boundary). `opts` apply
/// to every item; an item's own `dirName` wins. A bad item gets an error diagnostic of its own.
#[wasm_bindgen(js_name = parseSkills, unchecked_return_type = "ParseResult[]")]
pub fn parse_skills(
    #[wasm_bindgen(unchecked_param_type = "Array<SkillInput | SkillBatchItem>")] inputs: Array,
    opts: Option<Ts<ParseOptions>>,
) -> Result<JsValue, JsError> {
    let opts = options(opts)?;
    let mut results = Vec::with_capacity(inputs.length() as usize);
    for item in inputs.iter() {
        let parsed = match parse_input(&item, &opts) {
            Some(r) => Some(r),
            None if item.is_object() => {
                let item: &BatchItem = item.unchecked_ref();
                match item.dir_name() {
                    Some(dir) => parse_input(&item.input(), &ParseOptions { dir_name: Some(dir), ..opts.clone() }),
                    None => parse_input(&item.input(), &opts),
                }
            }
            None => None,
        };
        let result = match parsed {
            Some(r) => r,
            None => ParseResult {
                diagnostics: vec![Diagnostic::error(
                    skillwasm::diagnostic::codes::INPUT_INVALID,
                    "this item is neither a string, a Uint8Array nor { input, dirName }",
                )],
                ..ParseResult::default()
            },
        };
        results.push(result);
    }
    to_js(&results)
}

/// The reference CLI's `read-properties` for one SKILL.md.
#[wasm_bindgen(js_name = readProperties, unchecked_return_type = "PropertiesResult")]
pub fn read_properties(
    #[wasm_bindgen(unchecked_param_type = "SkillInput")] input: JsValue,
) -> Result<JsValue, JsError> {
    let bytes =
        input_bytes(&input).ok_or_else(|| JsError::new("readProperties: input must be a string or a Uint8Array"))?;
    #[derive(Serialize)]
    struct Out {
        properties: Option<skillwasm::SkillProperties>,
        errors: Vec<String>,
    }
    let out = match skillwasm::read_properties(&bytes) {
        Ok(p) => Out { properties: Some(p), errors: Vec::new() },
        Err(errors) => Out { properties: None, errors },
    };
    to_js(&out)
}

/// The reference `<available_skills>` XML for the given entries.
#[wasm_bindgen(js_name = toPrompt)]
pub fn to_prompt(entries: Vec<Ts<CatalogEntry>>) -> Result<String, JsError> {
    let entries = entries.iter().map(|e| e.to_rust()).collect::<Result<Vec<_>, _>>()?;
    Ok(skillwasm::to_prompt(&entries))
}

/// A TypeError for a call with options of the wrong shape (a programming error, so it throws).
pub(crate) fn options_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// NFKC through the host's `String.prototype.normalize`.
fn normalize_nfkc(s: &str) -> String {
    js_sys::JsString::from(s).normalize("NFKC").into()
}

/// Runs once when the module is instantiated: the core normalises names with the host's tables.
#[wasm_bindgen(start, private)]
fn start() {
    skillwasm::text::set_nfkc(normalize_nfkc);
}

/// The package version.
#[wasm_bindgen]
pub fn version() -> String {
    skillwasm::VERSION.to_string()
}
