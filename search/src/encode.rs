//! The index as bytes, for snapshots and for searching in place: a magic line; the names, each
//! with its length in weighted terms; the vocabulary, sorted, each term with its count of
//! postings (doubled, plus one for a term that occurs in a name) and its postings (their byte
//! length, then gaps between document ids and frequencies); then the trigram tables of the names
//! and of the name terms ([`super::fuzzy::write_table`]). Every number is a LEB128 varint.
//! [`SearchIndex::load`] checks every length, count and order and decodes no list: a search
//! reads the lists it needs where they are. Base64, for indexes carried in JSON, is here too.

use super::index::SearchIndex;

pub use super::format::MAGIC;

/// The index as bytes.
pub fn to_bytes(index: &SearchIndex) -> Vec<u8> {
    index.bytes().to_vec()
}

/// Reads [`to_bytes`]'s output; None when `bytes` are not a whole, consistent index.
pub fn from_bytes(bytes: &[u8]) -> Option<SearchIndex> {
    SearchIndex::load(bytes.to_vec())
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
