//! The wasm-bindgen façade over the skillwasm core: the only code that knows about JsValue. Typed options in, typed
//! results out (TypeScript declarations from tsify); bad skill input is a diagnostic, never an
//! exception. Only a call with arguments of the wrong type (a programming error) throws.

mod commands;
// The bounded converter of caller values; the package's second module (wasm-extra/) compiles this
// same file, and uses the converters this module does not.
#[allow(dead_code)]
mod convert;
#[cfg(all(feature = "invocation", feature = "permissions"))]
mod invoke;
#[cfg(feature = "mcp")]
mod mcp;
mod registry;
#[cfg(feature = "mcp")]
mod remote;
mod rules;
mod seam;
mod storage;
mod tool;
#[cfg(feature = "invocation")]
mod tool_invoke;

use convert::BytesError;
use serde::Serialize;
use skillwasm::disclose::CatalogEntry;
use skillwasm::store::{limits, DEFAULT_MAX_OBJECT_BYTES, PREFIX_BYTES};
use skillwasm::{Diagnostic, ParseOptions, ParseResult};
use std::ops::Range;
use wasm_bindgen::prelude::*;

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

/// A parse result, and where its body is in the caller's bytes when the body is those bytes
/// unchanged: then the result's body is filled in JS from them ([`Parsed::into_js`]), not copied
/// out of wasm.
struct Parsed {
    result: ParseResult,
    in_place: Option<(js_sys::Uint8Array, Range<usize>, Vec<u8>)>,
}

impl From<ParseResult> for Parsed {
    fn from(result: ParseResult) -> Parsed {
        Parsed { result, in_place: None }
    }
}

impl Parsed {
    /// The result object; a body in place is decoded from the caller's bytes (or, when that
    /// cannot be done, from the copy the core parsed).
    fn into_js(self) -> Result<JsValue, JsError> {
        let obj = to_js(&self.result)?;
        if let Some((view, range, copy)) = self.in_place {
            let (start, end) = (range.start as u32, range.end as u32);
            if !convert::put_body(&obj, &view, start, end) {
                let text = copy.get(range).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default();
                let skill = js_sys::Reflect::get(&obj, &"skill".into()).unwrap_or_default();
                let _ = js_sys::Reflect::set(&skill, &"body".into(), &JsValue::from_str(text));
            }
        }
        Ok(obj)
    }
}

/// Parses one SKILL.md input (already read within the cap). Without bodies only the frontmatter
/// is needed: the core's prefix-read policy decides from the first bytes, and the whole input is
/// copied only when the closing fence is not in them. With bodies, the input is copied into wasm
/// once and a body that is a range of it is handed back as that range.
fn parse_bytes(bytes: convert::Bytes, opts: &ParseOptions) -> Parsed {
    if !opts.include_body() && !opts.partial {
        let first = bytes.prefix(PREFIX_BYTES as usize);
        if let Some(result) = limits::parse_prefix(&first, PREFIX_BYTES, Some(bytes.size() as u64), opts) {
            return result.into();
        }
    }
    match bytes {
        convert::Bytes::View(view, _) if opts.include_body() && !opts.partial => {
            let copy = view.to_vec();
            let (result, range) = skillwasm::parse_skill_in_place(&copy, opts);
            Parsed { result, in_place: range.map(|r| (view, r, copy)) }
        }
        other => skillwasm::parse_skill(&other.into_vec(), opts).into(),
    }
}

/// The result for an input above the cap: an error diagnostic, nothing parsed.
fn too_large(size: u64) -> ParseResult {
    let message = format!(
        "the input is {size} bytes (or characters), more than the {DEFAULT_MAX_OBJECT_BYTES} a SKILL.md may have"
    );
    ParseResult {
        diagnostics: vec![Diagnostic::error(skillwasm::diagnostic::codes::SKILL_TOO_LARGE, message)],
        ..ParseResult::default()
    }
}

fn not_bytes(what: &str, input: &JsValue) -> JsValue {
    convert::type_error(&format!(
        "{what} must be a string, a Uint8Array or an ArrayBuffer, not {}",
        convert::kind_of(input)
    ))
}

/// Parses and validates one SKILL.md.
#[wasm_bindgen(js_name = parseSkill, unchecked_return_type = "ParseResult")]
pub fn parse_skill(
    #[wasm_bindgen(unchecked_param_type = "SkillInput")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ParseOptions")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let opts: ParseOptions = convert::options(&opts.unwrap_or_default(), "parseSkill: opts")?;
    let parsed = match convert::bytes(&input, DEFAULT_MAX_OBJECT_BYTES) {
        Ok(bytes) => parse_bytes(bytes, &opts),
        Err(BytesError::TooLarge(n)) => too_large(n).into(),
        Err(BytesError::NotBytes) => return Err(not_bytes("parseSkill: input", &input)),
        Err(BytesError::Lying(why)) => return Err(convert::type_error(&format!("parseSkill: input is {why}"))),
    };
    parsed.into_js().map_err(JsValue::from)
}

/// Most items in one `parseSkills` batch.
const MAX_BATCH: u32 = 1_000_000;

/// Parses many SKILL.md files in one call (one crossing of the JS/wasm boundary). `opts` apply
/// to every item; an item's own `dirName` wins. A bad item gets an error diagnostic of its own.
#[wasm_bindgen(js_name = parseSkills, unchecked_return_type = "ParseResult[]")]
pub fn parse_skills(
    #[wasm_bindgen(unchecked_param_type = "Array<SkillInput | SkillBatchItem>")] inputs: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ParseOptions")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let opts: ParseOptions = convert::options(&opts.unwrap_or_default(), "parseSkills: opts")?;
    let items =
        convert::batch(&inputs, MAX_BATCH).map_err(|e| convert::type_error(&format!("parseSkills: inputs {e}")))?;
    let invalid = |message: String| ParseResult {
        diagnostics: vec![Diagnostic::error(skillwasm::diagnostic::codes::INPUT_INVALID, message)],
        ..ParseResult::default()
    };
    let results = js_sys::Array::new();
    for item in items {
        let result: Parsed = match item {
            convert::BatchItem::Unreadable(message) => invalid(format!("this item cannot be read: {message}")).into(),
            convert::BatchItem::Input { input, dir_name } => {
                let opts = match dir_name {
                    Some(dir) => ParseOptions { dir_name: Some(dir), ..opts.clone() },
                    None => opts.clone(),
                };
                match convert::bytes(&input, DEFAULT_MAX_OBJECT_BYTES) {
                    Ok(bytes) => parse_bytes(bytes, &opts),
                    Err(BytesError::TooLarge(n)) => too_large(n).into(),
                    Err(BytesError::Lying(why)) => invalid(format!("this item is {why}")).into(),
                    Err(BytesError::NotBytes) => {
                        invalid("this item is neither a string, a Uint8Array nor { input, dirName }".to_string()).into()
                    }
                }
            }
        };
        // Each result becomes its object at once: the copy of its input lives no longer.
        results.push(&result.into_js().map_err(JsValue::from)?);
    }
    Ok(results.into())
}

/// The reference CLI's `read-properties` for one SKILL.md.
#[wasm_bindgen(js_name = readProperties, unchecked_return_type = "PropertiesResult")]
pub fn read_properties(
    #[wasm_bindgen(unchecked_param_type = "SkillInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Out {
        properties: Option<skillwasm::SkillProperties>,
        errors: Vec<String>,
    }
    let out = match convert::bytes(&input, DEFAULT_MAX_OBJECT_BYTES) {
        Ok(bytes) => match skillwasm::read_properties(&bytes.into_vec()) {
            Ok(p) => Out { properties: Some(p), errors: Vec::new() },
            Err(errors) => Out { properties: None, errors },
        },
        Err(BytesError::TooLarge(n)) => Out {
            properties: None,
            errors: vec![format!(
                "the input is {n} bytes, more than the {DEFAULT_MAX_OBJECT_BYTES} a SKILL.md may have"
            )],
        },
        Err(BytesError::NotBytes) => return Err(not_bytes("readProperties: input", &input)),
        Err(BytesError::Lying(why)) => return Err(convert::type_error(&format!("readProperties: input is {why}"))),
    };
    to_js(&out).map_err(JsValue::from)
}

/// The reference `<available_skills>` XML for the given entries.
#[wasm_bindgen(js_name = toPrompt)]
pub fn to_prompt(#[wasm_bindgen(unchecked_param_type = "CatalogEntry[]")] entries: JsValue) -> Result<String, JsValue> {
    if !entries.is_object() {
        return Err(convert::type_error(&format!(
            "toPrompt: entries must be an array of {{ name, description, location }}, not {}",
            convert::kind_of(&entries)
        )));
    }
    let value = convert::data(&entries).map_err(|e| convert::type_error(&e.describe("toPrompt: entries")))?;
    let entries: Vec<CatalogEntry> = convert::deserialize_list(value, "toPrompt: entries")?;
    Ok(skillwasm::to_prompt(&entries))
}

/// A TypeError for a call with options of the wrong shape (a programming error, so it throws).
pub(crate) fn options_error(message: &str) -> JsValue {
    convert::type_error(message)
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
