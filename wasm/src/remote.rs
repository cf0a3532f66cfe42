//! `publishRegistry` for JS: a registry's skills published as a discovery index. Conversion
//! only; the rules are `skillwasm::remote`'s. The index's other functions (reading an index,
//! unpacking an artifact, publishing files) are in the package's second module.

use super::registry::JsSkillRegistry;
use super::{convert, to_js};
use js_sys::Promise;
use serde::Deserialize;
use skillwasm::remote::{self, PublishOptions};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_REMOTE: &'static str = r#"
/** One usable entry of a discovery index (`parseSkillsIndex`). */
export interface IndexSkill {
  name: string;
  /** v0.2.0: `skill-md` or `archive`; v0.1.0: `files`. */
  type: "skill-md" | "archive" | "files";
  description: string;
  /** Absolute, resolved against the index URL. */
  url: string;
  /** `sha256:<hex>` of the artifact's bytes; null for v0.1.0. */
  digest: string | null;
  /** v0.1.0 only: every file of the skill. */
  files: { path: string; url: string }[];
}
/** What a discovery index says. */
export interface ParsedIndex { version: "0.2.0" | "0.1.0" | null; skills: IndexSkill[]; diagnostics: Diagnostic[] }
/** The options of `unpackSkillArtifact`. */
export interface UnpackOptions {
  type: "skill-md" | "archive";
  /** The index's digest; required unless `unverified` (v0.1.0 files have none). */
  digest?: string;
  unverified?: boolean;
  maxArtifactBytes?: number;
  maxSkillBytes?: number;
  maxEntries?: number;
}
/** A skill's files from its artifact, or (empty) why there are none. */
export interface UnpackedSkill { files: { path: string; bytes: Uint8Array }[]; diagnostics: Diagnostic[] }
/** One artifact to serve beside the index. */
export interface PublishedArtifact { path: string; contentType: string; digest: string; bytes: Uint8Array }
/** An index (`index.json`'s bytes) and its artifacts. */
export interface PublishedIndex { index: Uint8Array; artifacts: PublishedArtifact[]; diagnostics: Diagnostic[] }
"#;

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
