//! The discovery index's rules for the package's network adapters: reading an index, verifying
//! and unpacking an artifact, publishing files as an index. Conversion only; the rules are
//! `skillwasm::net::discovery`'s.

use super::served::Port;
use super::{convert, to_js};
use crate::boundary::batch::{self, BatchItem};
use convert::BytesError;
use js_sys::Promise;
use serde::Deserialize;
use skillwasm::net::discovery::{self, ArtifactKind, Limits, PublishOptions};
use skillwasm::net::OriginPolicy;
use skillwasm::store::DEFAULT_MAX_OBJECT_BYTES;
use wasm_bindgen::prelude::*;

/// Most bytes of an index or artifact handed in (the core's own limits, 16 MiB by default, then
/// refuse what is larger with a diagnostic).
const MAX_INPUT: u32 = 256 * 1024 * 1024;
/// Most files one publication takes.
const MAX_FILES: u32 = 1_000_000;

fn input(v: &JsValue, what: &str) -> Result<Vec<u8>, JsValue> {
    match convert::bytes(v, MAX_INPUT) {
        Ok(b) => Ok(b.into_vec()),
        Err(BytesError::TooLarge(n)) => {
            Err(convert::type_error(&format!("{what} is {n} bytes, more than the {MAX_INPUT} taken")))
        }
        Err(BytesError::NotBytes) => Err(convert::type_error(&format!(
            "{what} must be a string, a Uint8Array or an ArrayBuffer, not {}",
            convert::kind_of(v)
        ))),
        Err(BytesError::Lying(why)) => Err(convert::type_error(&format!("{what} is {why}"))),
    }
}

/// The origin options of `parseSkillsIndex` and `checkRequestUrl`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OriginOptions {
    /// The store's home origin (a URL on it); `parseSkillsIndex` defaults to the index URL.
    origin: Option<String>,
    /// Origins allowed beside home.
    #[serde(default)]
    allow_origins: Vec<String>,
    /// `checkRequestUrl`: the URL that answered with a redirect (the reference resolves against it).
    base: Option<String>,
    /// `checkRequestUrl`: which redirect of its request this is (1 for the first).
    #[serde(default)]
    redirects: u32,
}

/// The policy `o` describes, for a store at `fallback` when `o.origin` is absent.
fn policy(o: &OriginOptions, fallback: Option<&str>, what: &str) -> Result<OriginPolicy, JsValue> {
    let Some(home) = o.origin.as_deref().or(fallback) else {
        return Err(convert::type_error(&format!("{what}.origin is required")));
    };
    OriginPolicy::new(home, &o.allow_origins).map_err(|e| convert::type_error(&format!("{what}: {e}")))
}

/// Reads a discovery index fetched from `indexUrl`; entries on origins other than the store's
/// (`opts.origin`, by default the index's) and those of `opts.allowOrigins` are refused.
#[wasm_bindgen(js_name = parseSkillsIndex, unchecked_return_type = "ParsedIndex")]
pub fn parse_skills_index(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] bytes: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] index_url: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "OriginOptions")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let bytes = input(&bytes, "parseSkillsIndex: bytes")?;
    let index_url = convert::string(&index_url, "parseSkillsIndex: indexUrl")?;
    let o: OriginOptions = convert::options(&opts.unwrap_or_default(), "parseSkillsIndex: opts")?;
    let policy = if o.origin.is_none() && o.allow_origins.is_empty() {
        OriginPolicy::own(&index_url)
    } else {
        policy(&o, Some(&index_url), "parseSkillsIndex: opts")?
    };
    to_js(&discovery::parse_index(&bytes, &index_url, &policy)).map_err(JsValue::from)
}

/// Whether a network store may request `url` (resolved against `opts.base` when that is a
/// redirect's Location), and with the host's headers: `{ url, credentials }`, or `{ error }` (an
/// `origin-refused` or `redirect-invalid` diagnostic).
#[wasm_bindgen(js_name = checkRequestUrl, unchecked_return_type = "RequestTarget")]
pub fn check_request_url(
    #[wasm_bindgen(unchecked_param_type = "string | null")] url: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OriginOptions & { origin: string }")] opts: JsValue,
) -> Result<JsValue, JsValue> {
    let reference =
        if url.is_null() || url.is_undefined() { None } else { Some(convert::string(&url, "checkRequestUrl: url")?) };
    let o: OriginOptions = convert::options(&opts, "checkRequestUrl: opts")?;
    let policy = policy(&o, None, "checkRequestUrl: opts")?;
    let checked = match (&o.base, reference.as_deref()) {
        (Some(base), location) => policy.redirect(base, location, o.redirects.max(1)),
        (None, Some(u)) => policy.check(u),
        (None, None) => return Err(convert::type_error("checkRequestUrl: url must be a string without opts.base")),
    };
    match checked {
        Ok(target) => to_js(&target).map_err(JsValue::from),
        Err(error) => to_js(&serde_json::json!({ "error": error })).map_err(JsValue::from),
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UnpackOptions {
    #[serde(rename = "type")]
    kind: Option<String>,
    digest: Option<String>,
    #[serde(default)]
    unverified: bool,
    name: Option<String>,
    max_artifact_bytes: Option<u32>,
    max_skill_bytes: Option<u32>,
    max_entries: Option<u32>,
}

/// Verifies an artifact's digest and unpacks it within the limits; with `name` (the index entry's),
/// refuses a SKILL.md that names another skill.
#[wasm_bindgen(js_name = unpackSkillArtifact, unchecked_return_type = "UnpackedSkill")]
pub fn unpack_skill_artifact(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    #[wasm_bindgen(unchecked_param_type = "UnpackOptions")] opts: JsValue,
) -> Result<JsValue, JsValue> {
    let bytes = input(&bytes, "unpackSkillArtifact: bytes")?;
    let o: UnpackOptions = convert::options(&opts, "unpackSkillArtifact: opts")?;
    let kind = match o.kind.as_deref() {
        Some("skill-md") => ArtifactKind::SkillMd,
        Some("archive") => ArtifactKind::Archive,
        _ => return Err(convert::type_error("unpackSkillArtifact: opts.type must be \"skill-md\" or \"archive\"")),
    };
    if o.digest.is_none() && !o.unverified {
        return Err(convert::type_error("unpackSkillArtifact: opts.digest is required (or unverified: true)"));
    }
    let d = Limits::default();
    let limits = Limits {
        max_artifact_bytes: o.max_artifact_bytes.map_or(d.max_artifact_bytes, u64::from),
        max_skill_bytes: o.max_skill_bytes.map_or(d.max_skill_bytes, u64::from),
        max_entries: o.max_entries.unwrap_or(d.max_entries),
    };
    let unpacked = discovery::unpack::unpack_entry(&bytes, kind, o.digest.as_deref(), o.name.as_deref(), &limits);
    to_js(&unpacked).map_err(JsValue::from)
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PublishOpts {
    base_url: Option<String>,
}

/// An index and its artifacts for `files` (`[{ input, dirName: key }]`).
#[wasm_bindgen(js_name = publishSkillFiles, unchecked_return_type = "PublishedIndex")]
pub fn publish_skill_files(
    #[wasm_bindgen(unchecked_param_type = "Array<{ input: string | Uint8Array; dirName: string }>")] files: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "{ baseUrl?: string }")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let o: PublishOpts = convert::options(&opts.unwrap_or_default(), "publishSkillFiles: opts")?;
    let list = keyed_files(&files, "publishSkillFiles: files")?;
    to_js(&discovery::publish_well_known(&list, &PublishOptions { base_url: o.base_url })).map_err(JsValue::from)
}

/// The files of a publication, `[{ input, dirName: key }]`, as `(key, bytes)`: only the files of
/// skills are read across the boundary. `what` names the parameter in errors.
fn keyed_files(files: &JsValue, what: &str) -> Result<Vec<(String, Vec<u8>)>, JsValue> {
    let items = batch::batch(files, MAX_FILES).map_err(|e| convert::type_error(&format!("{what} {e}")))?;
    let mut keyed = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let BatchItem::Input { input: content, dir_name: Some(key) } = item else {
            return Err(convert::type_error(&format!("{what}[{i}] must be {{ input, dirName }}")));
        };
        keyed.push((key, content));
    }
    let used = discovery::publish::published_keys(&keyed.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>());
    let mut list = Vec::new();
    for (i, ((key, content), used)) in keyed.into_iter().zip(used).enumerate() {
        if !used {
            continue;
        }
        let bytes = match convert::bytes(&content, DEFAULT_MAX_OBJECT_BYTES) {
            Ok(b) => b.into_vec(),
            Err(_) => {
                return Err(convert::type_error(&format!(
                    "{what}[{i}].input must be a string or bytes of at most {DEFAULT_MAX_OBJECT_BYTES}"
                )))
            }
        };
        list.push((key, bytes));
    }
    Ok(list)
}

/// `publishRegistry(registry, opts)` over the registry whose port `port` is (made by extra.js):
/// an index and its artifacts for the skills it offers the model, each with every file of its
/// directory read through its store; the options are checked before any read. Internal to the
/// package.
#[wasm_bindgen(js_name = __sw_publishServed, unchecked_return_type = "Promise<PublishedIndex>")]
pub fn publish_served(port: JsValue, opts: JsValue) -> Result<Promise, JsValue> {
    let o: PublishOpts = convert::options(&opts, "publishRegistry: opts")?;
    let port = Port::new(port).map_err(|e| convert::type_error(&format!("publishRegistry: {e}")))?;
    Ok(wasm_bindgen_futures::future_to_promise(async move {
        let published = discovery::publish_registry(&port, &PublishOptions { base_url: o.base_url })
            .await
            .map_err(|e| JsValue::from(js_sys::Error::new(&format!("publishRegistry: {e}"))))?;
        to_js(&published).map_err(JsValue::from)
    }))
}
