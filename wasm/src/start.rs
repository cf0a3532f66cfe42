//! The start function of both façade crates' modules: it hands the core the host's NFKC
//! normalisation and lowercase mapping, and what the module's own `install_hooks` installs.
//! `wasm-extra/` compiles this same file.

use wasm_bindgen::prelude::*;

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
