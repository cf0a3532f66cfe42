//! The core module's bindings (the feature `core-module`): parsing, discovery, registries,
//! catalogs and the skill tool, with [`crate::boundary`] (what it shares with the second module).

mod approve;
mod commands;
mod hook;
mod page_lines;
mod promise;
mod registry;
mod rules;
mod seam;
mod seam_invoke;
mod served;
mod storage;
// The TypeScript declarations of the store interface (a section of the generated .d.ts).
mod storage_ts;
mod tool;
// Frontmatter beyond the fast path, read by the second module.
mod beyond;

// What this module shares with the second one: the bounded converter of caller values, the
// handover of parse results and of lists of skills' metadata, results as JS values, the options
// TypeError, what it hands over about a served skill.
pub(crate) use crate::boundary::{batch, metas, parsed};
pub(crate) use crate::{convert, options_error, served_types, to_js};

use convert::BytesError;
use skillwasm::store::DEFAULT_MAX_OBJECT_BYTES;
use skillwasm::{host, Diagnostic, ParseResult};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** The bytes of a SKILL.md (a string is taken as its text). */
export type SkillInput = string | Uint8Array;
/** One file of a batch: its bytes and the name of the directory that holds it. */
export interface SkillBatchItem { input: SkillInput; dirName?: string }
"#;

/// What the start function hands the core besides the host's NFKC and lowercase mappings: the
/// second module's reader of frontmatter beyond the fast path and its finder of commands.
pub(crate) fn install_hooks() {
    beyond::install();
    commands::install_finder();
    skillwasm::discover::set_index_buildable(rest_arrived);
}

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = restArrived)]
    fn rest_arrived_js() -> Result<bool, JsValue>;
}

/// Whether the rest of the package (the core's cold code, where the search index is built) can
/// run now: not in a page while it is still loading (`rest.js`), nor when it failed to load.
fn rest_arrived() -> bool {
    rest_arrived_js().unwrap_or(false)
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
    let (opts, _) =
        convert::options_by(&opts.unwrap_or_default(), "parseSkill: opts", &[], host::parse_options_from_json)?;
    let mut results = parsed::Results::default();
    let buf = match convert::bytes(&input, DEFAULT_MAX_OBJECT_BYTES) {
        Ok(bytes) => {
            let size = bytes.size();
            let prefix = parsed::prefix_for(&opts) as usize;
            // Without bodies, the first bytes; the rest only when the frontmatter does not end in them.
            let (buf, rest) = if prefix > 0 { (bytes.prefix(prefix), Some(bytes)) } else { (bytes.into_vec(), None) };
            results.parse(&buf, 0, buf.len(), size, &opts, |n| {
                let n = if n > 0 { n as usize } else { usize::MAX };
                rest.as_ref().map(|b| b.prefix(n)).ok_or_else(|| JsError::new("the input is gone").into())
            })?;
            buf
        }
        Err(BytesError::TooLarge(n)) => {
            results.push(&too_large(n), None, &[])?;
            Vec::new()
        }
        Err(BytesError::NotBytes) => return Err(not_bytes("parseSkill: input", &input)),
        Err(BytesError::Lying(why)) => return Err(convert::type_error(&format!("parseSkill: input is {why}"))),
    };
    Ok(results.finish(&buf)?.get(0))
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
    let (opts, _) =
        convert::options_by(&opts.unwrap_or_default(), "parseSkills: opts", &[], host::parse_options_from_json)?;
    let mut batch = batch::skill_batch(&inputs, MAX_BATCH, DEFAULT_MAX_OBJECT_BYTES)
        .map_err(|e| convert::type_error(&format!("parseSkills: inputs {e}")))?;
    let invalid = |message: String| ParseResult {
        diagnostics: vec![Diagnostic::error(skillwasm::diagnostic::codes::INPUT_INVALID, message)],
        ..ParseResult::default()
    };
    let other = |item: &batch::SkillItem| match item {
        batch::SkillItem::Unreadable(message) => invalid(format!("this item cannot be read: {message}")),
        batch::SkillItem::TooLarge(n) => too_large(*n),
        batch::SkillItem::Lying(why) => invalid(format!("this item is {why}")),
        batch::SkillItem::NotBytes | batch::SkillItem::Bytes { .. } => {
            invalid("this item is neither a string, a Uint8Array nor { input, dirName }".to_string())
        }
    };
    Ok(parsed::parse_batch(&mut batch, &opts, other)?.into())
}

/// The package version.
#[wasm_bindgen]
pub fn version() -> String {
    skillwasm::VERSION.to_string()
}
