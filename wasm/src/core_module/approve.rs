//! The host's `approve` hook (consent bound to content) as the core wants it: a JS function called
//! through the boundary's catching, time-bounded call. `true` approves; `false`, a throw, a
//! rejection, an answer that is no boolean or none within `approvalTimeoutMs` refuses (the core
//! then answers the model with `skill-not-approved`); nothing unwinds through Rust.

use super::convert;
use super::hook;
use super::to_js;
use skillwasm::consent::{ApprovalRequest, Approver};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_APPROVE: &'static str = r#"
/**
 * Asked before a skill is served (activated or read through the skill tool, or invoked with
 * `/name`) with content the host has not approved: `true` approves that content (its `digest`)
 * for the whole registry until it changes; `false`, a throw, a rejection, any answer that is not
 * a boolean or none within `approvalTimeoutMs` refuses (the model gets a `skill-not-approved`
 * error result).
 */
export type SkillApprover = (request: ApprovalRequest) => boolean | Promise<boolean>;
"#;

/// The `approve` function among the values an options conversion left unread; each call waits
/// at most `timeout_ms`.
pub(crate) fn approver(taken: &convert::Taken, what: &str, timeout_ms: u32) -> Result<Option<Approver>, JsValue> {
    let Some(f) = hook::taken_function(taken, "approve", what)? else { return Ok(None) };
    Ok(Some(Rc::new(move |request: ApprovalRequest| {
        let f = f.clone();
        Box::pin(async move {
            let arg = to_js(&request).map_err(|_| "the request could not be converted".to_string())?;
            let v = hook::call(&f, &arg, timeout_ms).await?;
            v.as_bool().ok_or_else(|| format!("it answered with {} instead of a boolean", convert::kind_of(&v)))
        })
    })))
}
