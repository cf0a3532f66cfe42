//! Digests as the discovery index writes them: `sha256:` and 64 lowercase hex digits of the
//! SHA-256 of the raw bytes; the one definition is [`crate::consent::digest`]'s.

/// `sha256:<hex>` of `bytes`.
pub fn sha256_digest(bytes: &[u8]) -> String {
    crate::consent::digest::file_digest(bytes)
}

pub use crate::store::sha256::is_sha256_digest as is_digest;

/// Whether `bytes` have the digest `expected` (compared in constant time over the digest's text).
pub fn matches(bytes: &[u8], expected: &str) -> bool {
    let actual = sha256_digest(bytes);
    actual.len() == expected.len() && actual.bytes().zip(expected.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests() {
        let d = sha256_digest(b"# Hello\n");
        assert_eq!(d, "sha256:90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be");
        assert!(is_digest(&d));
        assert!(matches(b"# Hello\n", &d));
        assert!(!matches(b"# Hello", &d));
        assert!(!is_digest("sha256:ABC"));
        assert!(!is_digest(&d.to_uppercase()));
    }
}
