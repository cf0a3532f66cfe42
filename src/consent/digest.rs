//! The content digest of a skill, the one definition every part of the package uses (approvals
//! now, lockfiles later). It is computable from per-file digests alone, so that a host that has
//! only a manifest (an MCP Skills `skills/get` answer gives a `sha256:` digest per file) gets the
//! same value as one that reads the bytes:
//!
//! 1. For each file of the skill (SKILL.md and every resource), its path relative to the skill
//!    directory, `/`-separated, and the lowercase hex SHA-256 of its bytes.
//! 2. One line per file, `<hex>  <path>\n` (two spaces, as `sha256sum` writes), the lines sorted
//!    by the paths' UTF-8 bytes: the manifest text ([`manifest_text`]).
//! 3. The digest is `sha256:` and the lowercase hex SHA-256 of the manifest text's UTF-8 bytes.
//!
//! A path must be a valid store key (relative, no `.` or `..` segment, no empty segment, no
//! backslash, no control character, so no line break), given once; SKILL.md must be among them.

use crate::store::keys;
use sha2::{Digest, Sha256};

/// The prefix of every digest this module writes (and of the per-file digests it reads).
pub use crate::store::sha256::PREFIX;

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

/// The lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `sha256:<hex>` of `bytes`: a file's digest as an MCP manifest or a discovery index gives it.
pub fn file_digest(bytes: &[u8]) -> String {
    format!("{PREFIX}{}", sha256_hex(bytes))
}

pub use crate::store::sha256::is_sha256_digest as is_digest;

/// The manifest text of a skill's files, given as `(path, file digest)` pairs (each digest
/// `sha256:<64 lowercase hex>`, see [`file_digest`]), in any order: one `<hex>  <path>\n` line per
/// file, sorted by path. Refused (with the reason): a bad path or digest, a path given twice, no
/// SKILL.md.
pub fn manifest_text<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<String, String> {
    let mut lines: Vec<(&str, &str)> = Vec::new();
    for (path, digest) in files {
        if let Some(p) = keys::key_problem(path) {
            return Err(format!("the path {path:?} {}", p.phrase()));
        }
        if !is_digest(digest) {
            return Err(format!("the digest of {path:?} is not sha256:<64 lowercase hex>"));
        }
        lines.push((path, &digest[PREFIX.len()..]));
    }
    // Paths compare by their UTF-8 bytes (str's order).
    lines.sort_unstable_by(|a, b| a.0.cmp(b.0));
    if let Some(w) = lines.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!("the path {:?} is given twice", w[0].0));
    }
    if !lines.iter().any(|(p, _)| *p == "SKILL.md") {
        return Err("a skill's files include its SKILL.md".into());
    }
    let mut text = String::with_capacity(lines.iter().map(|(p, _)| p.len() + 67).sum());
    for (path, hex) in lines {
        text.push_str(hex);
        text.push_str("  ");
        text.push_str(path);
        text.push('\n');
    }
    Ok(text)
}

/// The content digest of a skill from its files' digests (`(path, sha256:<hex>)` pairs, any
/// order; see the module docs): `sha256:` and the hex SHA-256 of [`manifest_text`].
pub fn skill_digest<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<String, String> {
    manifest_text(files).map(|text| file_digest(text.as_bytes()))
}

/// The content digest of a skill from its files' bytes (`(path, bytes)` pairs).
pub fn skill_digest_of_bytes<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> Result<String, String> {
    let digests: Vec<(&str, String)> = files.into_iter().map(|(p, b)| (p, file_digest(b))).collect();
    skill_digest(digests.iter().map(|(p, d)| (*p, d.as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the consent guide (docs/guides/consent.md). The expected values were
    /// computed apart from this code, by `sha256sum` over the two files and over the manifest text
    /// written out by hand (`printf '...  SKILL.md\n...  scripts/hello.sh\n' | sha256sum`).
    #[test]
    fn the_documented_example() {
        let skill_md = b"---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n";
        let script = b"echo hello\n";
        let skill_hex = "08c8f137d4861a5ff58eef886dca3974930410920e0b886883a58b22c5ac2264";
        let script_hex = "5dbad7dd0b9b122dcd9956884390f4aac4738caba8ff53498a7ab6718b176c30";
        assert_eq!((sha256_hex(skill_md).as_str(), sha256_hex(script).as_str()), (skill_hex, script_hex));
        let expected_text = format!("{skill_hex}  SKILL.md\n{script_hex}  scripts/hello.sh\n");
        let (a, b) = (format!("sha256:{script_hex}"), format!("sha256:{skill_hex}"));
        let text = manifest_text([("scripts/hello.sh", a.as_str()), ("SKILL.md", b.as_str())]);
        assert_eq!(text.as_deref(), Ok(expected_text.as_str()));
        let expected = "sha256:475219899a0c0943ffa17216644f00f7a0c1c979c5d41fcd8d2a829c969b954d";
        assert_eq!(skill_digest([("SKILL.md", b.as_str()), ("scripts/hello.sh", a.as_str())]).as_deref(), Ok(expected));
        let from_bytes = skill_digest_of_bytes([("scripts/hello.sh", &script[..]), ("SKILL.md", &skill_md[..])]);
        assert_eq!(from_bytes.as_deref(), Ok(expected));
    }

    #[test]
    fn order_is_by_utf8_bytes_and_bad_input_is_refused() {
        let d = file_digest(b"x");
        // "B" (0x42) < "SKILL.md" < "a" (0x61) < "é" (0xc3 0xa9): bytes, not locale order.
        let text = manifest_text([("é", d.as_str()), ("a", d.as_str()), ("SKILL.md", d.as_str()), ("B", d.as_str())]);
        let paths: Vec<String> = text.unwrap().lines().map(|l| l[66..].to_string()).collect();
        assert_eq!(paths, ["B", "SKILL.md", "a", "é"]);
        for (files, why) in [
            (vec![("a", d.as_str())], "SKILL.md"),
            (vec![("SKILL.md", d.as_str()), ("SKILL.md", d.as_str())], "twice"),
            (vec![("SKILL.md", d.as_str()), ("../x", d.as_str())], "../x"),
            (vec![("SKILL.md", d.as_str()), ("a\nb", d.as_str())], "a\\nb"),
            (vec![("SKILL.md", "sha256:ABC")], "not sha256"),
        ] {
            let e = skill_digest(files).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
    }
}
