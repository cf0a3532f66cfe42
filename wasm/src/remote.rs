//! `publishRegistry` for JS: a registry's skills published as a discovery index. Conversion
//! only; the rules are `skillwasm::remote`'s. The index's other functions (reading an index,
//! unpacking an artifact, publishing files) are in the package's second module.

use super::registry::JsSkillRegistry;
use super::{convert, to_js};
use js_sys::Promise;
use serde::Deserialize;
use skillwasm::remote::{self, PublishOptions};
use wasm_bindgen::prelude::*;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct PublishOpts {
    base_url: Option<String>,
}

/// An index and its artifacts for the skills `registry` offers the model, each with every file of
/// its directory read through its store. Skills left out (over the limits, a failing store) are in
/// the result's diagnostics.
#[wasm_bindgen(js_name = publishRegistry, unchecked_return_type = "Promise<PublishedIndex>")]
pub fn publish_registry(
    registry: &JsSkillRegistry,
    #[wasm_bindgen(unchecked_optional_param_type = "{ baseUrl?: string }")] opts: Option<JsValue>,
) -> Result<Promise, JsValue> {
    let o: PublishOpts = convert::options(&opts.unwrap_or_default(), "publishRegistry: opts")?;
    let host = registry.inner.clone();
    Ok(wasm_bindgen_futures::future_to_promise(async move {
        let published = remote::publish_registry(&host, &PublishOptions { base_url: o.base_url }).await;
        to_js(&published).map_err(JsValue::from)
    }))
}
