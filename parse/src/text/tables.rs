//! NFKC normalisation and lowercasing, by the host's tables when it installs them (the wasm
//! façades install JavaScript's), else by the built-in ones when their features are on.

use std::borrow::Cow;
use std::sync::OnceLock;

/// The NFKC normalisation a host installed with [`set_nfkc`].
static NFKC: OnceLock<fn(&str) -> String> = OnceLock::new();

/// Installs the NFKC normalisation [`nfkc`] uses instead of its built-in one. The wasm façade
/// installs the host's `String.prototype.normalize` at start (every JS runtime has the Unicode
/// tables, so the module does not carry them). The first installation wins; returns whether this
/// one was taken.
pub fn set_nfkc(normalize: fn(&str) -> String) -> bool {
    NFKC.set(normalize).is_ok()
}

/// Unicode NFKC normalisation, as the reference applies it to names: the installed function
/// ([`set_nfkc`]), else the unicode-normalization crate (the `nfkc-tables` feature, on by
/// default), else the text unchanged.
pub fn nfkc(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return Cow::Borrowed(s); // ASCII is NFKC-stable
    }
    match NFKC.get() {
        Some(normalize) => Cow::Owned(normalize(s)),
        None => builtin_nfkc(s),
    }
}

#[cfg(feature = "nfkc-tables")]
fn builtin_nfkc(s: &str) -> Cow<'_, str> {
    use unicode_normalization::UnicodeNormalization;
    Cow::Owned(s.nfkc().collect())
}

#[cfg(not(feature = "nfkc-tables"))]
fn builtin_nfkc(s: &str) -> Cow<'_, str> {
    Cow::Borrowed(s)
}

/// The lowercase mapping a host installed with [`set_lowercase`].
static LOWERCASE: OnceLock<fn(&str) -> String> = OnceLock::new();

/// Installs the lowercase mapping [`lowercase`] uses for text that is not ASCII instead of the
/// standard library's. The wasm façade installs the host's `String.prototype.toLowerCase` at
/// start (the same Unicode mapping, final sigma included; every JS runtime has the tables, so the
/// module does not carry them). The first installation wins; returns whether this one was taken.
pub fn set_lowercase(lower: fn(&str) -> String) -> bool {
    LOWERCASE.set(lower).is_ok()
}

/// `s` in lowercase, as `str::to_lowercase` maps it: ASCII here, other text by the installed
/// function ([`set_lowercase`]), else by the standard library's tables (the `case-tables`
/// feature, on by default), else with only its ASCII letters lowered.
pub fn lowercase(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    match LOWERCASE.get() {
        Some(lower) => lower(s),
        None => builtin_lowercase(s),
    }
}

#[cfg(feature = "case-tables")]
fn builtin_lowercase(s: &str) -> String {
    s.to_lowercase()
}

#[cfg(not(feature = "case-tables"))]
fn builtin_lowercase(s: &str) -> String {
    s.to_ascii_lowercase()
}
