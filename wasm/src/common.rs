//! What both façade crates of the package need alike: the one way results become JS values, the
//! TypeError of a call with options of the wrong shape, and the start function that hands the core
//! the host's NFKC normalisation and lowercase mapping (and what the module's own `install_hooks`
//! installs).
//! `wasm-extra/` compiles this same file.

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Results become plain objects (maps as objects, absent values as null, bytes as Uint8Array). Parse
/// results, many to a call, go over as one JSON text instead (see `skillwasm_boundary::parsed`):
/// measured on the corpus, that is faster once bodies are not in the text.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let serializer =
        serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true).serialize_missing_as_null(true);
    value.serialize(&serializer).map_err(|e| JsError::new(&e.to_string()))
}

/// A TypeError for a call with options of the wrong shape (a programming error, so it throws).
pub(crate) fn options_error(message: &str) -> JsValue {
    super::convert::type_error(message)
}

/// NFKC through the host's `String.prototype.normalize`.
fn normalize_nfkc(s: &str) -> String {
    js_sys::JsString::from(s).normalize("NFKC").into()
}

/// Lowercase through the host's `String.prototype.toLowerCase`.
fn to_lower_case(s: &str) -> String {
    js_sys::JsString::from(s).to_lower_case().into()
}

/// Runs once when the module is instantiated: the core normalises and lowers text with the host's
/// tables, and the module installs what else it hands the core (`install_hooks` in its lib.rs).
#[wasm_bindgen(start, private)]
fn start() {
    skillwasm::text::set_nfkc(normalize_nfkc);
    skillwasm::text::set_lowercase(to_lower_case);
    super::install_hooks();
}
