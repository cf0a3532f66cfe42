//! The core's small rules for JS code that needs them outside a registry (the CLI, the
//! playground, benchmark scripts): which directories are skipped, which file names make a skill,
//! where the frontmatter sits, the token estimate. Also the skip hint as JS stores receive it.

use super::{convert, options_error};
use js_sys::{Array, Object, Reflect};
use serde::Deserialize;
use serde_json::Value;
use skillwasm::discover;
use skillwasm::parse::fence::{self, FrontmatterSpan};
use skillwasm::read;
use skillwasm::store::SkipHint;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_RULES: &'static str = r#"
/**
 * The skip hint discovery sends with `list` (`opts.skip`): directories below the listed prefix
 * whose keys the core drops anyway. A store that walks directories should not enter them; a store
 * that ignores the hint is still correct, as the core filters what comes back.
 */
export interface ListSkip {
  /** Directory names (whole segments) to leave out: `[".git", "node_modules"]`. */
  names: string[];
  /** Leave out every directory whose name starts with `.`; files starting with `.` stay listed. */
  dotDirectories: boolean;
}
"#;

/// The options of `skillFileNames`.
#[derive(Debug, Default, Deserialize, Tsify)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SkillFileOptions {
    /// Also `skill.md`, as discovery's `acceptLowercaseSkillMd` does (and the reference CLI).
    #[tsify(optional)]
    pub accept_lowercase_skill_md: bool,
}

impl SkillFileOptions {
    /// The options `value` (an object) gives: an unknown key or a value of the wrong type is an
    /// error naming its key (serde's error, as the derive gives).
    fn from_json(value: &Value) -> Result<SkillFileOptions, (String, serde_json::Error)> {
        let mut o = SkillFileOptions::default();
        read::fields(value, "struct SkillFileOptions", |key, v| {
            if key != "acceptLowercaseSkillMd" {
                return Err(serde::de::Error::unknown_field(key, &["acceptLowercaseSkillMd"]));
            }
            o.accept_lowercase_skill_md = read::bool(v)?;
            Ok(())
        })?;
        Ok(o)
    }
}

/// The hint as the JS object stores receive: `{ names, dotDirectories }`.
pub(crate) fn skip_to_js(hint: &SkipHint) -> JsValue {
    let out = Object::new();
    let names: Array = hint.names.iter().map(|n| JsValue::from_str(n)).collect();
    let _ = Reflect::set(&out, &"names".into(), &names);
    let _ = Reflect::set(&out, &"dotDirectories".into(), &JsValue::from_bool(hint.dot_directories));
    out.into()
}

fn string_arg(value: &JsValue, what: &str) -> Result<String, JsValue> {
    convert::string(value, what)
}

/// Whether discovery skips a directory of this name (and never takes its files as a skill's):
/// `.git`, `node_modules` and every other name starting with `.`.
#[wasm_bindgen(js_name = isSkippedDirectory)]
pub fn is_skipped_directory(#[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> Result<bool, JsValue> {
    Ok(discover::is_skipped_dir(&string_arg(&name, "isSkippedDirectory: name")?))
}

/// The file names that make a directory a skill, preferred first: `["SKILL.md"]`, and
/// `"skill.md"` after it with `acceptLowercaseSkillMd`.
#[wasm_bindgen(js_name = skillFileNames)]
pub fn skill_file_names(
    #[wasm_bindgen(unchecked_optional_param_type = "SkillFileOptions")] opts: Option<JsValue>,
) -> Result<Vec<String>, JsValue> {
    let (opts, _) =
        convert::options_by(&opts.unwrap_or_default(), "skillFileNames: opts", &[], SkillFileOptions::from_json)?;
    Ok(discover::skill_file_names(opts.accept_lowercase_skill_md).into_iter().map(str::to_string).collect())
}

/// Where the frontmatter of a SKILL.md sits: the 1-based lines of its opening and closing fences
/// (`closeLine` null when it is not closed), or null when the file does not open with `---`.
#[wasm_bindgen(js_name = frontmatterSpan, unchecked_return_type = "FrontmatterSpan | null")]
pub fn frontmatter_span(
    #[wasm_bindgen(unchecked_param_type = "SkillInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    // The fences sit within the frontmatter's limit of the start (a longer frontmatter is refused
    // anyway): only that much is copied, whatever the input's size.
    let scan = skillwasm::parse::MAX_FRONTMATTER_BYTES + 4096;
    let bytes = match convert::bytes(&input, u32::MAX) {
        Ok(b) => b.prefix(scan),
        Err(_) => {
            return Err(options_error(&format!(
                "frontmatterSpan: input must be a string or a Uint8Array, not {}",
                convert::kind_of(&input)
            )))
        }
    };
    let span: Option<FrontmatterSpan> = fence::span(&bytes);
    super::to_js(&span).map_err(JsValue::from)
}

/// The token estimate every budget of the package uses (catalogs, re-attachment): about four
/// characters of ASCII text per token, one per character of other scripts.
#[wasm_bindgen(js_name = estimateTokens)]
pub fn estimate_tokens(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<u32, JsValue> {
    Ok(skillwasm::text::estimate_tokens(&string_arg(&text, "estimateTokens: text")?))
}
