//! gzip (RFC 1952) around raw deflate, read and written through miniz_oxide. Reading stops at a
//! bound on the inflated size, so a decompression bomb costs at most that bound.

use super::crc32::crc32;
use super::entries::refuse;
use crate::diagnostic::codes;
use crate::Diagnostic;
use miniz_oxide::inflate::{decompress_to_vec_with_limit, TINFLStatus};

const FTEXT_MASK: u8 = 0xE0;
const FHCRC: u8 = 0x02;
const FEXTRA: u8 = 0x04;
const FNAME: u8 = 0x08;
const FCOMMENT: u8 = 0x10;

/// Whether `bytes` start like a gzip member.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1F, 0x8B])
}

fn invalid(why: &str) -> Diagnostic {
    refuse(codes::ARCHIVE_INVALID, format!("the gzip stream {why}"))
}

/// Raw deflate data inflated, at most `limit` bytes; `Err(None)` when it would inflate to more,
/// `Err(Some(why))` when it is corrupt.
pub fn inflate_raw(data: &[u8], limit: u64) -> Result<Vec<u8>, Option<String>> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    match decompress_to_vec_with_limit(data, limit) {
        Ok(out) => Ok(out),
        Err(e) if e.status == TINFLStatus::HasMoreOutput => Err(None),
        Err(e) => Err(Some(format!("{:?}", e.status))),
    }
}

/// The content of one gzip member, at most `limit` bytes, its CRC and size checked against the
/// trailer. `too_large` is the diagnostic for more than `limit`.
pub fn gunzip(bytes: &[u8], limit: u64, too_large: Diagnostic) -> Result<Vec<u8>, Diagnostic> {
    if bytes.len() < 18 || !is_gzip(bytes) {
        return Err(invalid("is too short or has no gzip header"));
    }
    if bytes[2] != 8 {
        return Err(invalid("uses a compression method other than deflate"));
    }
    let flags = bytes[3];
    if flags & FTEXT_MASK != 0 {
        return Err(invalid("sets reserved flags"));
    }
    let mut pos = 10usize;
    if flags & FEXTRA != 0 {
        let len = bytes.get(pos..pos + 2).map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])));
        pos = len.map(|l| pos + 2 + l).ok_or_else(|| invalid("is truncated"))?;
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            let end =
                bytes.get(pos..).and_then(|b| b.iter().position(|&c| c == 0)).ok_or_else(|| invalid("is truncated"))?;
            pos += end + 1;
        }
    }
    if flags & FHCRC != 0 {
        pos += 2;
    }
    let trailer_at = bytes.len() - 8;
    let body = bytes.get(pos..trailer_at).ok_or_else(|| invalid("is truncated"))?;
    let out = match inflate_raw(body, limit) {
        Ok(out) => out,
        Err(None) => return Err(too_large),
        Err(Some(why)) => return Err(invalid(&format!("is corrupt ({why})"))),
    };
    let t = &bytes[trailer_at..];
    let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
    let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
    if crc != crc32(&out) || size != out.len() as u32 {
        return Err(invalid("fails its CRC or size check (or holds more than one member)"));
    }
    Ok(out)
}

/// `data` as one gzip member: deflate at level 9, no name, mtime 0, OS unknown, so the same bytes
/// always give the same member.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let body = miniz_oxide::deflate::compress_to_vec(data, 9);
    let mut out = Vec::with_capacity(body.len() + 18);
    out.extend_from_slice(&[0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 2, 0xFF]);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big() -> Diagnostic {
        refuse(codes::ARCHIVE_TOO_LARGE, "big")
    }

    #[test]
    fn round_trip_and_bounds() {
        let data = b"hello hello hello hello".repeat(100);
        let gz = gzip(&data);
        assert_eq!(gzip(&data), gz);
        assert_eq!(gunzip(&gz, 1 << 20, big()).ok(), Some(data.clone()));
        assert_eq!(gunzip(&gz, 100, big()).err().map(|d| d.code), Some(codes::ARCHIVE_TOO_LARGE.to_string()));
        let mut bad = gz.clone();
        let n = bad.len();
        bad[n - 5] ^= 1;
        assert_eq!(gunzip(&bad, 1 << 20, big()).err().map(|d| d.code), Some(codes::ARCHIVE_INVALID.to_string()));
        assert!(gunzip(&gz[..12], 1 << 20, big()).is_err());
    }
}
