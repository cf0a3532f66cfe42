//! The `skill://` URIs of the MCP Skills extension, both directions, in one place.
//!
//! A skill's files are resources at `skill://<skill path>/<file path>`: the skill path is one or
//! more `/`-separated segments locating the skill in the server's namespace (the first one in the
//! URI's authority), its final segment is the skill's `name`, and the file path is the file's path
//! relative to the skill's root. The skill itself is addressed by its `SKILL.md`
//! (`skill://<skill path>/SKILL.md`), its directories by their path without a trailing slash
//! (`skill://<skill path>` for the root).
//!
//! Formatting percent-encodes every byte of a segment that is not unreserved (RFC 3986: letters,
//! digits, `-._~`), so any segment gives a valid authority and path segment. Parsing takes the
//! scheme in any case, refuses a query, a fragment, userinfo or a port, an empty segment (so no
//! trailing slash), a `.` or `..` segment (encoded or not), a malformed escape, an escape that
//! decodes to a separator, a control character or invalid UTF-8, and bounds the URI's length and
//! depth. Paths come back decoded, their segments joined by `/`; since no decoded segment holds a
//! `/`, that join is unambiguous.

use super::{SCHEME, SKILL_FILE};
use crate::diagnostic::{codes, Diagnostic};
use crate::parse::validate::name_rules;

/// Longest URI parsed, in bytes.
pub const MAX_URI_BYTES: usize = 4096;

/// Most segments (authority included) a parsed URI may have.
pub const MAX_URI_SEGMENTS: usize = 64;

/// The URI of a skill: `skill://<skill path>/SKILL.md`.
pub fn format_skill_uri(skill_path: &str) -> String {
    format_file_uri(skill_path, SKILL_FILE)
}

/// The URI of the file at `file_path` (relative to the skill's root) of the skill at
/// `skill_path`: `skill://<skill path>/<file path>`, each segment percent-encoded.
pub fn format_file_uri(skill_path: &str, file_path: &str) -> String {
    let mut out = format_directory_uri(skill_path, "");
    push_segments(&mut out, file_path, true);
    out
}

/// The URI of the directory at `dir_path` (relative to the skill's root, `""` for the root) of
/// the skill at `skill_path`, without a trailing slash.
pub fn format_directory_uri(skill_path: &str, dir_path: &str) -> String {
    let mut out = String::with_capacity(SCHEME.len() + 3 + skill_path.len() + dir_path.len() + 1);
    out.push_str(SCHEME);
    out.push_str("://");
    push_segments(&mut out, skill_path, false);
    if !dir_path.is_empty() {
        push_segments(&mut out, dir_path, true);
    }
    out
}

fn push_segments(out: &mut String, path: &str, leading_slash: bool) {
    for (i, segment) in path.split('/').enumerate() {
        if leading_slash || i > 0 {
            out.push('/');
        }
        encode_segment(out, segment);
    }
}

fn encode_segment(out: &mut String, segment: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in segment.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xF)]));
        }
    }
}

fn invalid(uri: &str, why: &str) -> Diagnostic {
    let shown: String = uri.chars().take(200).collect();
    Diagnostic::error(codes::SKILL_URI_INVALID, format!("'{shown}' is not a skill resource URI: {why}"))
}

/// The decoded path of a `skill://` resource URI (a file's or a directory's): its authority and
/// path segments joined by `/`, or why the URI breaks the rules (`skill-uri-invalid`).
pub fn parse_resource_uri(uri: &str) -> Result<String, Diagnostic> {
    if uri.len() > MAX_URI_BYTES {
        return Err(invalid(uri, &format!("it is longer than {MAX_URI_BYTES} bytes")));
    }
    let rest = match uri.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case(SCHEME) => rest,
        _ => return Err(invalid(uri, &format!("the scheme is not {SCHEME}://"))),
    };
    if rest.contains('?') {
        return Err(invalid(uri, "it has a query"));
    }
    if rest.contains('#') {
        return Err(invalid(uri, "it has a fragment"));
    }
    let authority = rest.split('/').next().unwrap_or_default();
    if authority.contains('@') {
        return Err(invalid(uri, "its authority has userinfo"));
    }
    if authority.contains(':') {
        return Err(invalid(uri, "its authority has a port"));
    }
    let mut path = String::with_capacity(rest.len());
    for (i, raw) in rest.split('/').enumerate() {
        if i >= MAX_URI_SEGMENTS {
            return Err(invalid(uri, &format!("it has more than {MAX_URI_SEGMENTS} segments")));
        }
        let segment = decode_segment(raw).map_err(|why| invalid(uri, why))?;
        if i > 0 {
            path.push('/');
        }
        path.push_str(&segment);
    }
    Ok(path)
}

fn decode_segment(raw: &str) -> Result<String, &'static str> {
    if raw.is_empty() {
        return Err("it has an empty segment (a '//' or a trailing '/')");
    }
    let b = raw.as_bytes();
    let mut bytes = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let hi = b.get(i + 1).and_then(|&h| char::from(h).to_digit(16));
            let lo = b.get(i + 2).and_then(|&l| char::from(l).to_digit(16));
            match (hi, lo) {
                (Some(hi), Some(lo)) => bytes.push(u8::try_from(hi * 16 + lo).unwrap_or(0)),
                _ => return Err("it has a malformed percent escape"),
            }
            i += 3;
            continue;
        }
        if c <= b' ' || matches!(c, b'\\' | b'"' | b'<' | b'>' | b'^' | b'`' | b'{' | b'|' | b'}' | 0x7F) {
            return Err("it has a character a URI must escape");
        }
        bytes.push(c);
        i += 1;
    }
    let segment = String::from_utf8(bytes).map_err(|_| "an escape decodes to invalid UTF-8")?;
    if segment.contains('/') || segment.contains('\\') {
        return Err("an escape decodes to a path separator");
    }
    if segment.chars().any(char::is_control) {
        return Err("a segment holds a control character");
    }
    if segment == "." || segment == ".." {
        return Err("it has a '.' or '..' segment");
    }
    Ok(segment)
}

/// The skill path of a skill's URI (`skill://<skill path>/SKILL.md`), decoded, or why the URI is
/// not one (`skill-uri-invalid`): it must name `SKILL.md` below at least one segment, and the
/// skill path's final segment, the skill's name, must follow the specification's naming rules.
pub fn parse_skill_uri(uri: &str) -> Result<String, Diagnostic> {
    let path = parse_resource_uri(uri)?;
    let skill_path = match path.rsplit_once('/') {
        Some((skill_path, SKILL_FILE)) => skill_path,
        _ => return Err(invalid(uri, &format!("it does not name the skill's {SKILL_FILE}"))),
    };
    if let Some((_, why)) = name_rules(skill_name(skill_path), None).into_iter().next() {
        return Err(invalid(uri, &format!("its last directory segment is not a skill name ({why})")));
    }
    Ok(skill_path.to_string())
}

/// The skill's name as its path gives it: the path's final segment.
pub fn skill_name(skill_path: &str) -> &str {
    skill_path.rsplit('/').next().unwrap_or(skill_path)
}

/// `Ok` when the skill path's final segment equals the `name` of the skill's frontmatter, as the
/// extension requires; otherwise `skill-uri-name-mismatch`.
pub fn check_name(skill_path: &str, name: &str) -> Result<(), Diagnostic> {
    let last = skill_name(skill_path);
    if last == name {
        return Ok(());
    }
    Err(Diagnostic::error(
        codes::SKILL_URI_NAME_MISMATCH,
        format!("the skill path '{skill_path}' ends in '{last}', but the skill's name is '{name}'"),
    ))
}

/// The path of `resource_path` (a decoded resource path) relative to the skill at `skill_path`,
/// `""` for the skill's root directory, or `None` when the resource is not inside that skill.
pub fn relative_to<'a>(resource_path: &'a str, skill_path: &str) -> Option<&'a str> {
    let rest = resource_path.strip_prefix(skill_path)?;
    if rest.is_empty() {
        return Some("");
    }
    rest.strip_prefix('/')
}

#[cfg(test)]
mod tests;
