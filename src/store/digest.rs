//! A fast 64-bit digest of bytes, for telling whether something is as it was (a page of a
//! listing, a directory key counted): eight bytes at a time, rotated, xored and multiplied. Not a
//! cryptographic hash: the keys and etags it digests are the store's own, which the core trusts
//! already (an etag that stays when the content changes hides the change as well). Each step is a
//! bijection of the state for a given word, so inputs of one length that differ in one word never
//! collide.

/// The multiplier (odd, so that each step can be undone).
const K: u64 = 0x517c_c1b7_2722_0a95;

/// One step: `state` with `word` mixed in.
pub fn mix(state: u64, word: u64) -> u64 {
    (state.rotate_left(5) ^ word).wrapping_mul(K)
}

/// The digest of `bytes`, starting from `seed` (the length is mixed in first, so that inputs that
/// differ only by trailing zero bytes differ).
pub fn bytes(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = mix(seed, bytes.len() as u64);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = mix(h, le_word(c));
    }
    h = mix(h, le_word(chunks.remainder()));
    h ^ (h >> 29)
}

/// Up to eight bytes as a little-endian word, the missing high bytes zero (what
/// `u64::from_le_bytes` of them zero-padded gives), without a copy into a buffer.
fn le_word(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |word, &b| (word << 8) | u64::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_little_endian_and_zero_padded() {
        let text: Vec<u8> = (1..=8u8).collect();
        for n in 0..=8 {
            let mut word = [0u8; 8];
            word[..n].copy_from_slice(&text[..n]);
            assert_eq!(le_word(&text[..n]), u64::from_le_bytes(word), "{n} bytes");
        }
    }

    #[test]
    fn one_changed_byte_or_length_changes_the_digest() {
        let text: Vec<u8> = (0..200u8).collect();
        let base = bytes(7, &text);
        assert_eq!(base, bytes(7, &text));
        assert_ne!(base, bytes(8, &text));
        for i in 0..text.len() {
            let mut t = text.clone();
            t[i] ^= 1;
            assert_ne!(base, bytes(7, &t), "byte {i}");
        }
        assert_ne!(bytes(0, b"ab"), bytes(0, b"ab\0"));
        assert_ne!(bytes(0, b""), bytes(0, b"\0"));
    }
}
