//! A tar reader (ustar, with GNU long names and pax `path`/`linkpath`/`size` records) and a
//! deterministic ustar writer. The reader hands every entry to a [`Collector`], which applies the
//! safety rules; it never trusts a size beyond the bytes it has.

use super::entries::{refuse, Collector, EntryKind};
use crate::diagnostic::codes;
use crate::Diagnostic;

const BLOCK: usize = 512;

fn invalid(why: impl Into<String>) -> Diagnostic {
    refuse(codes::ARCHIVE_INVALID, format!("the tar archive {}", why.into()))
}

fn field(h: &[u8], from: usize, len: usize) -> &[u8] {
    let f = h.get(from..from + len).unwrap_or(&[]);
    let end = f.iter().position(|&b| b == 0).unwrap_or(f.len());
    &f[..end]
}

fn octal(h: &[u8], from: usize, len: usize) -> Option<u64> {
    let f = h.get(from..from + len)?;
    if f.first().is_some_and(|b| b & 0x80 != 0) {
        return None;
    }
    let text = std::str::from_utf8(field(h, from, len)).ok()?.trim_matches(|c| c == ' ' || c == '\0');
    if text.is_empty() {
        return Some(0);
    }
    u64::from_str_radix(text, 8).ok()
}

fn checksum_ok(h: &[u8]) -> bool {
    let Some(stored) = octal(h, 148, 8) else { return false };
    let sum: u64 = h.iter().enumerate().map(|(i, &b)| if (148..156).contains(&i) { 32 } else { u64::from(b) }).sum();
    sum == stored
}

/// The value of `key` in a pax extended header's records (`<len> <key>=<value>\n`).
fn pax_value(records: &[u8], key: &str) -> Option<String> {
    let mut rest = records;
    while !rest.is_empty() {
        let space = rest.iter().position(|&b| b == b' ')?;
        let len: usize = std::str::from_utf8(&rest[..space]).ok()?.parse().ok()?;
        let record = rest.get(space + 1..len)?;
        let record = record.strip_suffix(b"\n").unwrap_or(record);
        if let Some(eq) = record.iter().position(|&b| b == b'=') {
            if &record[..eq] == key.as_bytes() {
                return String::from_utf8(record[eq + 1..].to_vec()).ok();
            }
        }
        rest = rest.get(len..)?;
    }
    None
}

/// Reads every entry of `tar` into `into`.
pub fn read_tar(tar: &[u8], into: &mut Collector) -> Result<(), Diagnostic> {
    let mut pos = 0usize;
    let (mut long_name, mut long_link, mut pax_path, mut pax_link, mut pax_size) = (None, None, None, None, None);
    loop {
        let Some(h) = tar.get(pos..pos + BLOCK) else {
            return if pos >= tar.len() { Ok(()) } else { Err(invalid("is truncated")) };
        };
        if h.iter().all(|&b| b == 0) {
            return Ok(());
        }
        if !checksum_ok(h) {
            return Err(invalid(format!("has a header with a bad checksum at byte {pos}")));
        }
        let size = match pax_size.take() {
            Some(s) => s,
            None => octal(h, 124, 12).ok_or_else(|| invalid("has a header with an unreadable size"))?,
        };
        let start = pos + BLOCK;
        let data = usize::try_from(size)
            .ok()
            .and_then(|s| tar.get(start..start.checked_add(s)?))
            .ok_or_else(|| invalid("is truncated inside an entry"))?;
        pos = start + data.len().div_ceil(BLOCK) * BLOCK;
        let kind = h.get(156).copied().unwrap_or(0);
        match kind {
            b'L' => {
                long_name = Some(String::from_utf8_lossy(field(data, 0, data.len())).into_owned());
                continue;
            }
            b'K' => {
                long_link = Some(String::from_utf8_lossy(field(data, 0, data.len())).into_owned());
                continue;
            }
            b'x' => {
                pax_path = pax_value(data, "path");
                pax_link = pax_value(data, "linkpath");
                pax_size = pax_value(data, "size").and_then(|s| s.parse().ok());
                continue;
            }
            b'g' => continue,
            _ => {}
        }
        let name = match (pax_path.take(), long_name.take()) {
            (Some(p), _) | (None, Some(p)) => p,
            (None, None) => {
                let base = String::from_utf8_lossy(field(h, 0, 100)).into_owned();
                let ustar = h.get(257..262) == Some(b"ustar");
                let prefix =
                    if ustar { String::from_utf8_lossy(field(h, 345, 155)).into_owned() } else { String::new() };
                if prefix.is_empty() {
                    base
                } else {
                    format!("{prefix}/{base}")
                }
            }
        };
        let link = pax_link.take().or(long_link.take());
        let (entry, bytes) = match kind {
            b'0' | 0 | b'7' => (EntryKind::File, data.to_vec()),
            b'5' => (EntryKind::Directory, Vec::new()),
            b'1' | b'2' => {
                let target = link.unwrap_or_else(|| String::from_utf8_lossy(field(h, 157, 100)).into_owned());
                (EntryKind::Link, target.into_bytes())
            }
            _ => (EntryKind::Other, Vec::new()),
        };
        into.add(&name, entry, bytes)?;
    }
}

/// A ustar archive of `files` (`(path, bytes)`, written in the order given): mode 0644, owner 0,
/// mtime 0, no user or group names, so the same files always give the same bytes. A path longer
/// than ustar holds (155 + 100 bytes, split at a `/`) is an error.
pub fn write_tar(files: &[(&str, &[u8])]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(files.iter().map(|(_, b)| b.len() + 2 * BLOCK).sum::<usize>() + 2 * BLOCK);
    for (path, bytes) in files {
        let mut h = [0u8; BLOCK];
        let (prefix, name) =
            split_name(path).ok_or_else(|| format!("the path '{path}' is too long for a tar header"))?;
        h[..name.len()].copy_from_slice(name.as_bytes());
        h[100..108].copy_from_slice(b"0000644\0");
        h[108..116].copy_from_slice(b"0000000\0");
        h[116..124].copy_from_slice(b"0000000\0");
        let size = format!("{:011o}\0", bytes.len());
        if size.len() != 12 {
            return Err(format!("'{path}' is too large for a tar header"));
        }
        h[124..136].copy_from_slice(size.as_bytes());
        h[136..148].copy_from_slice(b"00000000000\0");
        h[156] = b'0';
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[345..345 + prefix.len()].copy_from_slice(prefix.as_bytes());
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
        h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
        out.extend_from_slice(&h);
        out.extend_from_slice(bytes);
        out.resize(out.len().div_ceil(BLOCK) * BLOCK, 0);
    }
    out.resize(out.len() + 2 * BLOCK, 0);
    Ok(out)
}

/// `(prefix, name)` of a ustar header for `path`.
fn split_name(path: &str) -> Option<(&str, &str)> {
    if path.len() <= 100 {
        return Some(("", path));
    }
    path.char_indices()
        .filter(|&(i, c)| c == '/' && i <= 155 && path.len() - i - 1 <= 100)
        .map(|(i, _)| (&path[..i], &path[i + 1..]))
        .next()
}
