//! The host's functions given in options (`commands`, `approve`): taken from the values an options
//! conversion left unread, and called through the boundary's catching, time-bounded call, so that
//! nothing the host's function does unwinds through Rust.

use super::convert::{self, StoreAnswer};
use super::options_error;
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The function under `key` among the unread option values, None when absent (or null); another
/// value is a TypeError naming `what.key`.
pub(crate) fn taken_function(taken: &convert::Taken, key: &str, what: &str) -> Result<Option<Function>, JsValue> {
    let Some((_, f)) = taken.iter().find(|(path, _)| path == key) else { return Ok(None) };
    if f.is_undefined() || f.is_null() {
        return Ok(None);
    }
    f.clone()
        .dyn_into()
        .map(Some)
        .map_err(|_| options_error(&format!("{what}.{key} must be a function, not {}", convert::kind_of(f))))
}

/// Calls `f(arg)` and waits at most `timeout_ms` for its value (a promise is awaited); a throw, a
/// rejection or silence is the reason as text.
pub(crate) async fn call(f: &Function, arg: &JsValue, timeout_ms: u32) -> Result<JsValue, String> {
    match convert::call_store(f, &JsValue::NULL, arg, &JsValue::UNDEFINED, timeout_ms).await {
        StoreAnswer::Value(v) => Ok(v),
        StoreAnswer::Failed(e) => Err(e),
        StoreAnswer::TimedOut => Err(format!("no answer within {timeout_ms} ms")),
    }
}
