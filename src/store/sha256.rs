//! The form of a SHA-256 digest as the package writes and reads it everywhere (a listed object's,
//! a file's in an MCP manifest or a discovery index, a skill's content digest): `sha256:` and 64
//! lowercase hex digits.

/// The prefix of every digest.
pub const PREFIX: &str = "sha256:";

/// Whether `digest` is `sha256:` followed by 64 lowercase hex digits.
pub fn is_sha256_digest(digest: &str) -> bool {
    digest
        .strip_prefix(PREFIX)
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}
