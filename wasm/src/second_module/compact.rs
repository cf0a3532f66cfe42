//! Transcript operations for JS: find, compact, protect, prune, re-attach, dedupe. Transcripts
//! cross the boundary as JSON text (one `JSON.stringify` in, one `JSON.parse` out), which is far
//! cheaper for long conversations than converting message by message.

use super::{convert, options_error};
use serde::Serialize;
use skillwasm::compact::{self, CompactOptions, SkillContent};
use skillwasm::Diagnostic;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_COMPACT: &'static str = r#"
/** A transcript in one of the three formats (AI SDK model messages, OpenAI Chat Completions, Anthropic Messages). */
export type Transcript = unknown[];
/**
 * An operation's result, or the error that stopped it (naming the message index). `M` is the
 * message type of the transcript given (the package's declarations make the functions generic).
 */
export type CompactResult<M = unknown> =
  | (Compacted & { transcript: M[]; error?: undefined })
  | { error: Diagnostic; transcript?: undefined; report?: undefined };
/** What `findSkillContent` gives: the uses, or the error that stopped it; narrows on `error`. */
export type FoundResult =
  | (Found & { error?: undefined })
  | { error: Diagnostic; format?: undefined; uses?: undefined; skipped?: undefined; notes?: undefined };
"#;

/// A transcript as the core reads it. A value that is no object goes on as it is (the core
/// answers `transcript-not-array`); an object that cannot be read within the bounds (too deep, too
/// large, cyclic, a getter that throws) is an `{ error }` of its own.
pub(crate) fn transcript_value(transcript: &JsValue) -> Result<serde_json::Value, Diagnostic> {
    use serde_json::Value;
    if !transcript.is_object() {
        return Ok(if let Some(s) = transcript.as_string() {
            Value::String(s)
        } else if let Some(b) = transcript.as_bool() {
            Value::Bool(b)
        } else {
            transcript.as_f64().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
        });
    }
    convert::data(transcript).map_err(|e| {
        Diagnostic::error(skillwasm::diagnostic::codes::TRANSCRIPT_UNREADABLE, e.describe("the transcript"))
    })
}

pub(crate) fn options(options: &JsValue, what: &str) -> Result<CompactOptions, JsValue> {
    convert::options(options, &format!("{what}: opts"))
}

pub(crate) fn out<T: Serialize>(result: Result<T, Diagnostic>) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Failed {
        error: Diagnostic,
    }
    let text = match result {
        Ok(v) => serde_json::to_string(&v),
        Err(error) => serde_json::to_string(&Failed { error }),
    }
    .map_err(|e| options_error(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

/// `"ai-sdk"`, `"openai"`, `"anthropic"`, or null when nothing in the transcript tells.
#[wasm_bindgen(js_name = detectTranscriptFormat, unchecked_return_type = "TranscriptFormat | null")]
pub fn detect_transcript_format(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
) -> Result<JsValue, JsValue> {
    let format = transcript_value(&transcript).ok().and_then(|t| compact::detect_format(&t));
    out::<Option<compact::TranscriptFormat>>(Ok(format))
}

/// Every skill tool call and result, and `<skill_content>` that arrived otherwise, with positions and sizes.
#[wasm_bindgen(js_name = findSkillContent, unchecked_return_type = "FoundResult")]
pub fn find_skill_content(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let opts = options(&opts.unwrap_or_default(), "findSkillContent")?;
    out(transcript_value(&transcript).and_then(|t| compact::find(&t, &opts)))
}

/// Replaces activations (not file reads) with `{ name, path, totalChars, totalLines }`,
/// keeping the `keepRecent` latest whole.
#[wasm_bindgen(js_name = compactSkillContent, unchecked_return_type = "CompactResult")]
pub fn compact_skill_content(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let opts = options(&opts.unwrap_or_default(), "compactSkillContent")?;
    out(transcript_value(&transcript).and_then(|t| compact::compact_to_metadata(&t, &opts)))
}

/// Indexes of the messages that hold skill content (and the calls paired with them): a host's
/// pruning should skip them.
#[wasm_bindgen(js_name = protectedMessages, unchecked_return_type = "number[] | { error: Diagnostic }")]
pub fn protected_messages(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let opts = options(&opts.unwrap_or_default(), "protectedMessages")?;
    out(transcript_value(&transcript).and_then(|t| compact::protect(&t, &opts)))
}

/// Drops the oldest unprotected messages (calls and results together) until the transcript fits
/// `budgetTokens`; never cuts skill content.
#[wasm_bindgen(js_name = pruneTranscript, unchecked_return_type = "CompactResult")]
pub fn prune_transcript(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(js_name = budgetTokens, unchecked_param_type = "number")] budget_tokens: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let budget_tokens = convert::number(&budget_tokens, "pruneTranscript: budgetTokens")?;
    let opts = options(&opts.unwrap_or_default(), "pruneTranscript")?;
    let budget = if budget_tokens.is_finite() && budget_tokens > 0.0 { budget_tokens as u64 } else { 0 };
    out(transcript_value(&transcript).and_then(|t| compact::prune(&t, budget, &opts)))
}

/// Puts back the latest instructions of skills that were in use (within `perSkillTokens` and
/// `totalTokens`), after the catalog, as one user message.
#[wasm_bindgen(js_name = reattachSkills, unchecked_return_type = "CompactResult")]
pub fn reattach_skills(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SkillContent[]")] contents: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | null")] catalog: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    if !contents.is_object() {
        return Err(options_error(&format!(
            "reattachSkills: contents must be an array of {{ name, content }}, not {}",
            convert::kind_of(&contents)
        )));
    }
    let value = convert::data(&contents).map_err(|e| options_error(&e.describe("reattachSkills: contents")))?;
    let contents: Vec<SkillContent> = convert::deserialize_list(value, "reattachSkills: contents")?;
    let catalog = convert::opt_string(&catalog.unwrap_or_default(), "reattachSkills: catalog")?;
    let opts = options(&opts.unwrap_or_default(), "reattachSkills")?;
    out(transcript_value(&transcript).and_then(|t| compact::reattach(&t, &contents, catalog.as_deref(), &opts)))
}

/// Replaces later repeats of an activation with a pointer to the first.
#[wasm_bindgen(js_name = dedupeSkillContent, unchecked_return_type = "CompactResult")]
pub fn dedupe_skill_content(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CompactOptions")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let opts = options(&opts.unwrap_or_default(), "dedupeSkillContent")?;
    out(transcript_value(&transcript).and_then(|t| compact::dedupe(&t, &opts)))
}
