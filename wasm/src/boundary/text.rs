//! The host's text tables for the core: both modules' start functions install them first, so the
//! modules carry no NFKC or lowercase tables of their own.

/// NFKC through the host's `String.prototype.normalize`.
fn normalize_nfkc(s: &str) -> String {
    js_sys::JsString::from(s).normalize("NFKC").into()
}

/// Lowercase through the host's `String.prototype.toLowerCase`.
fn to_lower_case(s: &str) -> String {
    js_sys::JsString::from(s).to_lower_case().into()
}

/// Hands the core the host's NFKC normalisation and lowercase mapping.
pub fn install_host_text() {
    skillwasm::text::set_nfkc(normalize_nfkc);
    skillwasm::text::set_lowercase(to_lower_case);
}
