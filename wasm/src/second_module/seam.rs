//! The skill tool's transcript operations, on the data the core's module hands over: the package
//! calls these with what a `SkillTool` of the core module holds (its tool name; for a
//! re-attachment, the contents it read and its catalog) and gives the skills still present in
//! full back to the tool's session. The rules (which tool names count, what the session follows)
//! are the core's; these functions convert and run them, so that the module every host loads
//! carries no transcript code. Internal to the package: not exported by its entry points.

use super::compact::{options as transcript_options, out, transcript_value};
use super::{convert, options_error, to_js};
use skillwasm::compact::{self, CompactOptions, Compacted, SkillContent};
use skillwasm::{host, Diagnostic};
use wasm_bindgen::prelude::*;

/// `{ result, present }`: the operation's result (or `{ error }`), and the skills whose
/// instructions the result holds in full, which the session follows (null after an error).
fn followed(result: Result<Compacted, Diagnostic>, opts: &CompactOptions) -> Result<JsValue, JsValue> {
    let (result, present) = match result.and_then(|c| host::present_skills(&c.transcript, opts).map(|p| (c, p))) {
        Ok((c, present)) => {
            let mut present: Vec<String> = present.into_iter().collect();
            present.sort_unstable();
            (Ok(c), Some(present))
        }
        Err(d) => (Err(d), None),
    };
    let obj = js_sys::Object::new();
    js_sys::Reflect::set(&obj, &"result".into(), &out(result)?)?;
    js_sys::Reflect::set(&obj, &"present".into(), &to_js(&present)?)?;
    Ok(obj.into())
}

/// One transcript operation of a skill tool named `toolName`: `op` is `compact`, `prune`
/// (`budgetTokens`), `dedupe` or `reattach` (`contents`, `catalog`); `what` names the method in
/// errors.
#[wasm_bindgen(js_name = __sw_toolTranscript)]
#[allow(clippy::too_many_arguments)]
pub fn tool_transcript(
    op: &str,
    what: &str,
    transcript: JsValue,
    tool_name: &str,
    options: JsValue,
    budget_tokens: JsValue,
    contents: JsValue,
    catalog: JsValue,
) -> Result<JsValue, JsValue> {
    let budget = if op == "prune" {
        let budget = convert::number(&budget_tokens, &format!("{what}: budgetTokens"))?;
        if budget.is_finite() && budget > 0.0 {
            budget as u64
        } else {
            0
        }
    } else {
        0
    };
    let opts = compact::with_tool_name(&transcript_options(&options, what)?, tool_name);
    let reattach = if op == "reattach" {
        let value = convert::data(&contents).map_err(|e| options_error(&e.describe(&format!("{what}: contents"))))?;
        let contents: Vec<SkillContent> = convert::deserialize_list(value, &format!("{what}: contents"))?;
        Some((contents, convert::opt_string(&catalog, &format!("{what}: catalog"))?))
    } else {
        None
    };
    let t = match transcript_value(&transcript) {
        Ok(t) => t,
        Err(d) => return followed(Err(d), &opts),
    };
    let result = match (op, reattach) {
        ("compact", _) => compact::compact_to_metadata(&t, &opts),
        ("prune", _) => compact::prune(&t, budget, &opts),
        ("dedupe", _) => compact::dedupe(&t, &opts),
        ("reattach", Some((contents, catalog))) => compact::reattach(&t, &contents, catalog.as_deref(), &opts),
        _ => return Err(options_error(&format!("{what}: no transcript operation {op}"))),
    };
    followed(result, &opts)
}

/// The skills whose instructions `transcript` holds in full, for `SkillSession.observe`:
/// `{ present }`, or `{ error }` for a transcript that cannot be read.
#[wasm_bindgen(js_name = __sw_presentSkills)]
pub fn present_skills(what: &str, transcript: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    #[derive(serde::Serialize)]
    struct Present {
        present: Vec<String>,
    }
    let opts = transcript_options(&options, what)?;
    out(transcript_value(&transcript).and_then(|t| host::present_skills(&t, &opts)).map(|p| {
        let mut present: Vec<String> = p.into_iter().collect();
        present.sort_unstable();
        Present { present }
    }))
}
