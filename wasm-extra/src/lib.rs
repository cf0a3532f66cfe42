//! The second wasm-bindgen façade over the skillwasm core: what only some hosts use, in a module
//! of its own so that the module every host loads (`wasm/`) stays small. Transcripts (find,
//! compact, protect, prune, re-attach, dedupe, and the skill tool's transcript operations through
//! [`seam`]), argument substitution and skill-directory checks, the discovery index's reading,
//! unpacking and publishing of files, and the MCP client's checks. Conversion only, as in the
//! core's façade: the rules are the core's, and the bounded converter of caller values is the
//! core façade's own file (`wasm/src/convert.rs`), compiled into this crate as well.

// The one bounded converter of caller values, shared with the core's façade; this module uses
// only part of it.
#[allow(dead_code)]
#[path = "../../wasm/src/convert.rs"]
mod convert;

mod compact;
mod invoke;
mod mcp_client;
mod remote;
mod seam;

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Results become plain objects (maps as objects, absent values as null, bytes as Uint8Array),
/// as the core's façade makes them.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let serializer =
        serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true).serialize_missing_as_null(true);
    value.serialize(&serializer).map_err(|e| JsError::new(&e.to_string()))
}

/// A TypeError for a call with options of the wrong shape (a programming error, so it throws).
pub(crate) fn options_error(message: &str) -> JsValue {
    convert::type_error(message)
}

/// NFKC through the host's `String.prototype.normalize`.
fn normalize_nfkc(s: &str) -> String {
    js_sys::JsString::from(s).normalize("NFKC").into()
}

/// Runs once when the module is instantiated: the core normalises names with the host's tables.
#[wasm_bindgen(start, private)]
fn start() {
    skillwasm::text::set_nfkc(normalize_nfkc);
}
