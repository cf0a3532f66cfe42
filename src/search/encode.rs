//! The index as bytes, for snapshots: a magic line, the names with their lengths, then the
//! vocabulary front-coded (each term as the length it shares with the one before and the rest),
//! each with its count of postings (doubled, plus one for a term that occurs in a name) and its
//! postings as gaps between document ids and frequencies, every number a LEB128 varint. Reading checks every length, every id and
//! the order, so bytes that are not such an index are refused (the registry then builds one).

use super::index::SearchIndex;

/// Version 2 marks the terms that occur in names (version 1, which did not, is built again).
const MAGIC: &[u8] = b"skillwasm-search/2\n";

fn put(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, s: &[u8]) {
    put(out, s.len() as u64);
    out.extend_from_slice(s);
}

/// The index as bytes.
pub fn to_bytes(index: &SearchIndex) -> Vec<u8> {
    let mut out = Vec::with_capacity(index.docs.len() * 2 + index.terms.len() * 8 + index.names.len() * 16);
    out.extend_from_slice(MAGIC);
    put(&mut out, index.names.len() as u64);
    for (name, len) in index.names.iter().zip(&index.lens) {
        put_str(&mut out, name.as_bytes());
        put(&mut out, u64::from(*len));
    }
    put(&mut out, index.terms.len() as u64);
    let mut prev: &[u8] = &[];
    for (t, term) in index.terms.iter().enumerate() {
        let term = term.as_bytes();
        let shared = prev.iter().zip(term).take_while(|(a, b)| a == b).count();
        put(&mut out, shared as u64);
        put_str(&mut out, term.get(shared..).unwrap_or(&[]));
        prev = term;
        let from = index.starts.get(t).copied().unwrap_or(0) as usize;
        let to = index.starts.get(t + 1).copied().unwrap_or(0) as usize;
        let docs = index.docs.get(from..to).unwrap_or(&[]);
        let tfs = index.tfs.get(from..to).unwrap_or(&[]);
        // The count of postings, doubled, and 1 more for a term that occurs in a name.
        let in_name = index.name_terms.binary_search(&(t as u32)).is_ok();
        put(&mut out, (docs.len() as u64) << 1 | u64::from(in_name));
        let mut last = 0u32;
        for (i, (d, tf)) in docs.iter().zip(tfs).enumerate() {
            put(&mut out, u64::from(if i == 0 { *d } else { d.saturating_sub(last) }));
            put(&mut out, u64::from(*tf));
            last = *d;
        }
    }
    out
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn num(&mut self) -> Option<u64> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.at)?;
            self.at += 1;
            v |= u64::from(byte & 0x7f).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    fn small(&mut self, most: u64) -> Option<u32> {
        self.num().filter(|v| *v <= most).map(|v| v as u32)
    }

    fn bytes(&mut self) -> Option<&[u8]> {
        let n = self.num()? as usize;
        let end = self.at.checked_add(n)?;
        let s = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
}

/// Reads [`to_bytes`]'s output; None when `bytes` are not a whole, consistent index.
pub fn from_bytes(bytes: &[u8]) -> Option<SearchIndex> {
    let mut r = Reader { bytes: bytes.strip_prefix(MAGIC)?, at: 0 };
    // Every entry takes at least one byte, so no count may exceed the bytes left.
    let left = |r: &Reader| (r.bytes.len() - r.at) as u64;
    let n = r.small(left(&r))?;
    let mut index = SearchIndex::default();
    for _ in 0..n {
        let name = String::from_utf8(r.bytes()?.to_vec()).ok()?;
        index.names.push(name);
        index.lens.push(r.small(u64::from(u32::MAX))?);
    }
    let terms = r.small(left(&r))?;
    index.starts.push(0);
    let mut prev: Vec<u8> = Vec::new();
    for _ in 0..terms {
        let shared = r.small(prev.len() as u64)? as usize;
        let mut term = prev.get(..shared)?.to_vec();
        term.extend_from_slice(r.bytes()?);
        if term.as_slice() <= prev.as_slice() && !index.terms.is_empty() {
            return None; // not sorted, or repeated
        }
        index.terms.push(String::from_utf8(term.clone()).ok()?);
        prev = term;
        let flagged = r.num()?;
        if flagged & 1 == 1 {
            index.name_terms.push(index.terms.len() as u32 - 1);
        }
        let df = u32::try_from(flagged >> 1).ok().filter(|df| u64::from(*df) <= u64::from(n).min(left(&r)))?;
        let mut last: u32 = 0;
        for i in 0..df {
            let gap = r.small(u64::from(u32::MAX))?;
            if i > 0 && gap == 0 {
                return None;
            }
            let d = if i == 0 { gap } else { last.checked_add(gap)? };
            if d >= n {
                return None;
            }
            index.docs.push(d);
            index.tfs.push(r.small(u64::from(u16::MAX))? as u16);
            last = d;
        }
        index.starts.push(index.docs.len() as u32);
    }
    if r.at != r.bytes.len() {
        return None;
    }
    index.derive();
    Some(index)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Each byte's value in [`ALPHABET`], or `NOT_BASE64`: one lookup per character when reading.
const DECODE: [u8; 256] = {
    let mut table = [NOT_BASE64; 256];
    let mut i = 0;
    while i < ALPHABET.len() {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table
};
const NOT_BASE64: u8 = 0xff;

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((v >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Reads [`base64`]'s output; None on anything else.
pub fn unbase64(text: &str) -> Option<Vec<u8>> {
    let t = text.as_bytes();
    if t.len() % 4 != 0 {
        return None;
    }
    let value = |c: u8| Some(DECODE[usize::from(c)]).filter(|&d| d != NOT_BASE64).map(u32::from);
    let mut out = Vec::with_capacity(t.len() / 4 * 3);
    for (k, chunk) in t.chunks(4).enumerate() {
        let last = k + 1 == t.len() / 4;
        let pad = chunk.iter().rev().take_while(|c| **c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut v = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let d = if i >= 4 - pad { 0 } else { value(*c)? };
            v = (v << 6) | d;
        }
        let bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        out.extend_from_slice(bytes.get(..3 - pad)?);
    }
    Some(out)
}
