//! Text helpers shared by every stage.

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
