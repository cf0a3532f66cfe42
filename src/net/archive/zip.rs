//! A zip reader: the central directory, stored and deflate entries, CRCs checked, symbolic links
//! recognised from the Unix mode. Zip64, encryption and other methods are refused. Every entry
//! goes through a [`Collector`]; the declared entry count is checked before any entry is read, and
//! each entry inflates within the skill's remaining byte budget.

use super::crc32::crc32;
use super::entries::{refuse, too_big, too_many, Collector, EntryKind};
use super::inflate::inflate_raw;
use crate::diagnostic::codes;
use crate::Diagnostic;

const EOCD: u32 = 0x0605_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const LOCAL: u32 = 0x0403_4b50;

fn invalid(why: impl Into<String>) -> Diagnostic {
    refuse(codes::ARCHIVE_INVALID, format!("the zip archive {}", why.into()))
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]]))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Whether `bytes` start like a zip archive (a local header, or the end record of an empty one).
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

fn find_eocd(zip: &[u8]) -> Option<usize> {
    let lowest = zip.len().saturating_sub(22 + 0xFFFF);
    (lowest..=zip.len().checked_sub(22)?).rev().find(|&i| u32_at(zip, i) == Some(EOCD))
}

/// Reads every entry of `zip` into `into`; `max_entries` is checked against the declared count
/// first.
pub fn read_zip(zip: &[u8], max_entries: u32, into: &mut Collector) -> Result<(), Diagnostic> {
    let e = find_eocd(zip).ok_or_else(|| invalid("has no end of central directory record"))?;
    let trunc = || invalid("is truncated");
    let count = u16_at(zip, e + 10).ok_or_else(trunc)?;
    let cd_offset = u32_at(zip, e + 16).ok_or_else(trunc)?;
    if count == 0xFFFF || cd_offset == 0xFFFF_FFFF {
        return Err(invalid("is zip64, which this reader does not take"));
    }
    if u32::from(count) > max_entries {
        return Err(too_many(max_entries));
    }
    let mut pos = cd_offset as usize;
    for _ in 0..count {
        if u32_at(zip, pos) != Some(CENTRAL) {
            return Err(invalid("has a damaged central directory"));
        }
        let made_by = u16_at(zip, pos + 4).ok_or_else(trunc)?;
        let flags = u16_at(zip, pos + 8).ok_or_else(trunc)?;
        let method = u16_at(zip, pos + 10).ok_or_else(trunc)?;
        let crc = u32_at(zip, pos + 16).ok_or_else(trunc)?;
        let csize = u32_at(zip, pos + 20).ok_or_else(trunc)? as usize;
        let usize_declared = u64::from(u32_at(zip, pos + 24).ok_or_else(trunc)?);
        let name_len = usize::from(u16_at(zip, pos + 28).ok_or_else(trunc)?);
        let extra_len = usize::from(u16_at(zip, pos + 30).ok_or_else(trunc)?);
        let comment_len = usize::from(u16_at(zip, pos + 32).ok_or_else(trunc)?);
        let external = u32_at(zip, pos + 38).ok_or_else(trunc)?;
        let local = u32_at(zip, pos + 42).ok_or_else(trunc)? as usize;
        let name = zip.get(pos + 46..pos + 46 + name_len).ok_or_else(trunc)?;
        let name = String::from_utf8_lossy(name).into_owned();
        pos += 46 + name_len + extra_len + comment_len;
        if flags & 1 != 0 {
            return Err(invalid(format!("encrypts '{name}'")));
        }
        let unix_mode = if made_by >> 8 == 3 { external >> 16 } else { 0 };
        let kind = if unix_mode & 0o170000 == 0o120000 {
            EntryKind::Link
        } else if name.ends_with('/') || unix_mode & 0o170000 == 0o040000 {
            EntryKind::Directory
        } else if unix_mode & 0o170000 != 0 && unix_mode & 0o170000 != 0o100000 {
            EntryKind::Other
        } else {
            EntryKind::File
        };
        if kind != EntryKind::File && kind != EntryKind::Link {
            into.add(&name, kind, Vec::new())?;
            continue;
        }
        if u32_at(zip, local) != Some(LOCAL) {
            return Err(invalid(format!("has no local header for '{name}'")));
        }
        let lname = usize::from(u16_at(zip, local + 26).ok_or_else(trunc)?);
        let lextra = usize::from(u16_at(zip, local + 28).ok_or_else(trunc)?);
        let start = local + 30 + lname + lextra;
        let raw = zip.get(start..start.checked_add(csize).ok_or_else(trunc)?).ok_or_else(trunc)?;
        if usize_declared > into.remaining() {
            return Err(too_big(into_limit(into)));
        }
        let data = match method {
            0 => raw.to_vec(),
            8 => match inflate_raw(raw, into.remaining()) {
                Ok(d) => d,
                Err(None) => return Err(too_big(into_limit(into))),
                Err(Some(why)) => return Err(invalid(format!("has a corrupt entry '{name}' ({why})"))),
            },
            m => return Err(invalid(format!("compresses '{name}' with method {m}, which this reader does not take"))),
        };
        if data.len() as u64 != usize_declared || crc32(&data) != crc {
            return Err(invalid(format!("has an entry '{name}' that fails its size or CRC check")));
        }
        into.add(&name, kind, data)?;
    }
    Ok(())
}

/// The skill's byte bound, for the message (what remains plus what was kept).
fn into_limit(into: &Collector) -> u64 {
    into.limit()
}
