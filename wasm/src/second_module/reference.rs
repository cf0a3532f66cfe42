//! The reference implementation's own functions, which only some hosts use (the package's CLI,
//! tools that compare with the reference): `readProperties`, the reference CLI's
//! `read-properties`, and `toPrompt`, the reference `<available_skills>` XML. Conversion only: the
//! rules are the core's (`skillwasm::read_properties`, `skillwasm::to_prompt`).

use super::convert::{self, BytesError};
use super::to_js;
use serde::Serialize;
use skillwasm::disclose::CatalogEntry;
use skillwasm::store::DEFAULT_MAX_OBJECT_BYTES;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_REFERENCE: &'static str = r#"
/** The bytes of a SKILL.md (a string is taken as its text). */
export type SkillInput = string | Uint8Array;
/** What `readProperties` returns: the reference CLI's properties, or why there are none. */
export interface PropertiesResult { properties: Record<string, unknown> | null; errors: string[] }
"#;

fn not_bytes(what: &str, input: &JsValue) -> JsValue {
    convert::type_error(&format!(
        "{what} must be a string, a Uint8Array or an ArrayBuffer, not {}",
        convert::kind_of(input)
    ))
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
