//! Transcript operations for JS: find, compact, protect, prune, re-attach, dedupe. Transcripts
//! cross the boundary as JSON text (one `JSON.stringify` in, one `JSON.parse` out), which is far
//! cheaper for long conversations than converting message by message.

use super::options_error;
use serde::Serialize;
use skillwasm::compact::{self, CompactOptions, SkillContent};
use skillwasm::Diagnostic;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_COMPACT: &'static str = r#"
/** A transcript in one of the three formats (AI SDK model messages, OpenAI Chat Completions, Anthropic Messages). */
export type Transcript = unknown[];
/** An operation's result, or the error that stopped it (naming the message index). */
export type CompactResult = (Compacted & { error?: undefined }) | { error: Diagnostic; transcript?: undefined; report?: undefined };
"#;

pub(crate) fn transcript_value(transcript: &JsValue) -> Result<serde_json::Value, JsValue> {
    let text = js_sys::JSON::stringify(transcript)
        .map_err(|_| options_error("the transcript cannot be serialised to JSON"))?;
    let text: String = text.into();
    serde_json::from_str(&text).map_err(|e| options_error(&format!("the transcript is not JSON: {e}")))
}

pub(crate) fn options(options: JsValue) -> Result<CompactOptions, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(CompactOptions::default());
    }
    serde_wasm_bindgen::from_value(super::defined(options))
        .map_err(|e| options_error(&format!("transcript options: {e}")))
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
    out::<Option<compact::TranscriptFormat>>(Ok(compact::detect_format(&transcript_value(&transcript)?)))
}

/// Every skill tool call and result, and `<skill_content>` that arrived otherwise, with positions and sizes.
#[wasm_bindgen(js_name = findSkillContent, unchecked_return_type = "Found | { error: Diagnostic }")]
pub fn find_skill_content(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CompactOptions")] opts: JsValue,
) -> Result<JsValue, JsValue> {
    out(compact::find(&transcript_value(&transcript)?, &options(opts)?))
}

/// Replaces activations (not file reads) with `{ skillName, path, totalChars, totalLines }`,
/// keeping the `keepRecent` latest whole.
#[wasm_bindgen(js_name = compactSkillContent, unchecked_return_type = "CompactResult")]
pub fn compact_skill_content(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CompactOptions")] opts: JsValue,
) -> Result<JsValue, JsValue> {
    out(compact::compact_to_metadata(&transcript_value(&transcript)?, &options(opts)?))
}

/// Indexes of the messages that hold skill content (and the calls paired with them): a host's
/// pruning should skip them.
#[wasm_bindgen(js_name = protectedMessages, unchecked_return_type = "number[] | { error: Diagnostic }")]
pub fn protected_messages(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CompactOptions")] opts: JsValue,
) -> Result<JsValue, JsValue> {
    out(compact::protect(&transcript_value(&transcript)?, &options(opts)?))
}

/// Drops the oldest unprotected messages (calls and results together) until the transcript fits
/// `budgetTokens`; never cuts skill content.
#[wasm_bindgen(js_name = pruneTranscript, unchecked_return_type = "CompactResult")]
pub fn prune_transcript(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    budget_tokens: f64,
    #[wasm_bindgen(unchecked_param_type = "CompactOptions")] opts: JsValue,
) -> Result<JsValue, JsValue> {
    let budget = if budget_tokens.is_finite() && budget_tokens > 0.0 { budget_tokens as u64 } else { 0 };
    out(compact::prune(&transcript_value(&transcript)?, budget, &options(opts)?))
}

/// Puts back the latest instructions of skills that were in use (within `perSkillTokens` and
/// `totalTokens`), after the catalog, as one user message.
#[wasm_bindgen(js_name = reattachSkills, unchecked_return_type = "CompactResult")]
pub fn reattach_skills(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SkillContent[]")] contents: JsValue,
    catalog: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "CompactOptions")] opts: JsValue,
) -> Result<JsValue, JsValue> {
    let contents: Vec<SkillContent> = serde_wasm_bindgen::from_value(contents)
        .map_err(|e| options_error(&format!("reattachSkills contents: {e}")))?;
    out(compact::reattach(&transcript_value(&transcript)?, &contents, catalog.as_deref(), &options(opts)?))
}

/// Replaces later repeats of an activation with a pointer to the first.
#[wasm_bindgen(js_name = dedupeSkillContent, unchecked_return_type = "CompactResult")]
pub fn dedupe_skill_content(
    #[wasm_bindgen(unchecked_param_type = "Transcript")] transcript: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CompactOptions")] opts: JsValue,
) -> Result<JsValue, JsValue> {
    out(compact::dedupe(&transcript_value(&transcript)?, &options(opts)?))
}
