//! The skill tool's and the session's transcript methods (`SkillTool#compactSkillContent`,
//! `#pruneTranscript`, `#dedupeSkillContent`, `#reattach`, `SkillSession#observe`): methods of
//! this module's classes whose work is done by the package's second module, which holds the
//! transcript code (`SkillTool#invoke` is in `seam_invoke.rs`). Each hands over what the object holds as plain data (the tool's name; for a
//! re-attachment, the contents it read and its catalog) through [`ask_second_module`], the one
//! function this module imports to reach the second, and follows the skills the answer says the
//! transcript still holds in full. No other code of the package reaches into these objects.

use super::tool::{JsSkillSession, JsSkillTool};
use super::{convert, to_js};
use js_sys::{Array, Promise, Reflect};
use std::collections::HashSet;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    /// Asks the second module for `op` (an operation of `extra.js`'s table: `toolTranscript`,
    /// `presentSkills`, `parseMessage`, ...) with `args`. Throws what the second module throws.
    /// (In browsers the methods that ask are not the usual work: the guard of this module's
    /// exports has them wait for, or refuse to run before, the rest of the package.)
    #[wasm_bindgen(catch, js_name = askSecondModule)]
    pub(super) fn ask_second_module(op: &str, args: &Array) -> Result<JsValue, JsValue>;
}

/// Most skills a transcript can name as present (one per skill of a registry, at most).
const MAX_PRESENT: usize = 1_000_000;

/// The names of an answer's `present`, bounded; `None` when it is null (an error result).
fn present(answer: &JsValue) -> Result<Option<Vec<String>>, JsValue> {
    let value = Reflect::get(answer, &"present".into())?;
    if value.is_null() || value.is_undefined() {
        return Ok(None);
    }
    let names = convert::string_array(&value, "present")?;
    if names.len() > MAX_PRESENT {
        return Err(convert::type_error("present: too many names"));
    }
    Ok(Some(names))
}

/// The answer's `result`, after `tool`'s session follows the skills it says are present.
fn followed(tool: &skillwasm::host::SkillTool, answer: &JsValue) -> Result<JsValue, JsValue> {
    if let Some(names) = present(answer)? {
        tool.follow(&names.iter().map(String::as_str).collect::<HashSet<&str>>());
    }
    Reflect::get(answer, &"result".into())
}

/// The arguments of the second module's `toolTranscript` (see its `tool_transcript`).
fn transcript_args(op: &str, what: &str, transcript: &JsValue, tool_name: &str, options: &JsValue) -> Array {
    Array::of5(&op.into(), &what.into(), transcript, &tool_name.into(), options)
}

impl JsSkillTool {
    /// A synchronous transcript operation `op` of this tool, `extra` the arguments after its
    /// options.
    fn transcript_operation(
        &self,
        op: &str,
        what: &str,
        transcript: &JsValue,
        options: &JsValue,
        extra: &[JsValue],
    ) -> Result<JsValue, JsValue> {
        let args = transcript_args(op, what, transcript, &self.inner.config().tool_name, options);
        for value in extra {
            args.push(value);
        }
        let answer = ask_second_module("toolTranscript", &args)?;
        followed(&self.inner, &answer)
    }
}

#[wasm_bindgen(js_class = SkillTool)]
impl JsSkillTool {
    /// Cuts the bodies of skills loaded more than once (or no longer needed) out of `transcript`,
    /// keeping a pointer; the session forgets the skills whose instructions are gone.
    #[wasm_bindgen(js_name = compactSkillContent, skip_typescript)]
    pub fn compact_skill_content(&self, transcript: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        self.transcript_operation("compact", "SkillTool.compactSkillContent", &transcript, &options, &[])
    }

    /// Drops the oldest skill content until `transcript` fits `budgetTokens`; the session follows.
    #[wasm_bindgen(js_name = pruneTranscript, skip_typescript)]
    pub fn prune_transcript(
        &self,
        transcript: JsValue,
        budget_tokens: JsValue,
        options: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.transcript_operation("prune", "SkillTool.pruneTranscript", &transcript, &options, &[budget_tokens])
    }

    /// Keeps only the latest full copy of each skill's instructions; the session follows.
    #[wasm_bindgen(js_name = dedupeSkillContent, skip_typescript)]
    pub fn dedupe_skill_content(&self, transcript: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        self.transcript_operation("dedupe", "SkillTool.dedupeSkillContent", &transcript, &options, &[])
    }

    /// Puts the instructions of the skills the session holds back into a compacted `transcript`
    /// (read through the registry's stores), with the catalog; the session follows.
    #[wasm_bindgen(skip_typescript)]
    pub fn reattach(&self, transcript: JsValue, options: JsValue) -> Promise {
        let tool = self.inner.clone();
        super::promise::spawn(Box::pin(async move {
            const WHAT: &str = "SkillTool.reattach";
            let (contents, catalog) = tool.reattach_contents().await;
            #[derive(serde::Serialize)]
            struct Content {
                name: String,
                content: String,
            }
            let contents: Vec<Content> =
                contents.into_iter().map(|(name, content)| Content { name, content }).collect();
            let args = transcript_args("reattach", WHAT, &transcript, &tool.config().tool_name, &options);
            args.push(&JsValue::UNDEFINED);
            args.push(&to_js(&contents)?);
            args.push(&catalog.map_or(JsValue::NULL, |c| c.into()));
            let answer = ask_second_module("toolTranscript", &args)?;
            followed(&tool, &answer)
        }))
    }
}

#[wasm_bindgen(js_class = SkillSession)]
impl JsSkillSession {
    /// Follows a transcript the host keeps (after its own compaction or pruning): the skills whose
    /// instructions are no longer in it are forgotten. `{ error }` for a transcript that cannot
    /// be read.
    #[wasm_bindgen(skip_typescript)]
    pub fn observe(&self, transcript: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        const WHAT: &str = "SkillSession.observe";
        let answer = ask_second_module("presentSkills", &Array::of3(&WHAT.into(), &transcript, &options))?;
        if !Reflect::get(&answer, &"error".into())?.is_undefined() {
            return Ok(answer);
        }
        let names = present(&answer)?.unwrap_or_default();
        let set: HashSet<&str> = names.iter().map(String::as_str).collect();
        to_js(&self.inner.borrow_mut().observe(&set)).map_err(JsValue::from)
    }
}
