//! How every async export of the façade becomes a promise: one executor glue for them all.

use super::to_js;
use js_sys::Promise;
use wasm_bindgen::prelude::*;

/// Runs `f` as a promise. Every async export hands its future here boxed, so one instance of
/// the executor glue serves them all instead of one per export.
#[inline(never)]
pub(crate) fn spawn(
    f: std::pin::Pin<Box<dyn std::future::Future<Output = Result<JsValue, JsValue>>>>,
) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(f)
}

/// `f`'s outcome as a promise of its JS value.
pub(crate) fn promise<F, T>(f: F) -> Promise
where
    F: std::future::Future<Output = T> + 'static,
    T: serde::Serialize,
{
    spawn(Box::pin(async move { to_js(&f.await).map_err(JsValue::from) }))
}
