//! The byte level of the snapshot format: LEB128 varints, length-prefixed UTF-8 strings, JSON
//! values, and a checksum. A [`Sink`] is written twice by the encoder, once to count the bytes
//! ([`Count`]) and once into a buffer of exactly that size; the [`Reader`] checks every length
//! and count against the bytes that remain before it uses it, so that no allocation is sized by
//! a number read from the input alone.

use serde_json::{Map, Number, Value};

/// Where the encoder puts bytes.
pub trait Sink {
    /// Appends `b`.
    fn put(&mut self, b: &[u8]);
    /// Appends one byte.
    fn byte(&mut self, b: u8);
}

/// A sink that only counts.
pub struct Count(pub usize);

impl Sink for Count {
    fn put(&mut self, b: &[u8]) {
        self.0 = self.0.saturating_add(b.len());
    }
    fn byte(&mut self, _: u8) {
        self.0 = self.0.saturating_add(1);
    }
}

impl Sink for Vec<u8> {
    fn put(&mut self, b: &[u8]) {
        self.extend_from_slice(b);
    }
    fn byte(&mut self, b: u8) {
        self.push(b);
    }
}

/// Nesting of JSON values (metadata maps and lists) beyond which the encoder writes `null` and
/// the reader refuses the snapshot. The frontmatter parsers nest far less.
pub const MAX_JSON_DEPTH: usize = 64;

/// Writes `v` as a LEB128 varint (7 bits a byte, low bits first).
pub fn varint<S: Sink>(s: &mut S, mut v: u64) {
    while v >= 0x80 {
        s.byte((v as u8) | 0x80);
        v >>= 7;
    }
    s.byte(v as u8);
}

/// Writes `b` as its length (a varint), then the bytes.
pub fn bytes<S: Sink>(s: &mut S, b: &[u8]) {
    varint(s, b.len() as u64);
    s.put(b);
}

/// Writes a string as [`bytes`] does.
pub fn str<S: Sink>(s: &mut S, t: &str) {
    bytes(s, t.as_bytes());
}

const JSON_NULL: u8 = 0;
const JSON_FALSE: u8 = 1;
const JSON_TRUE: u8 = 2;
const JSON_UINT: u8 = 3;
const JSON_NEG: u8 = 4;
const JSON_FLOAT: u8 = 5;
const JSON_STRING: u8 = 6;
const JSON_ARRAY: u8 = 7;
const JSON_OBJECT: u8 = 8;

/// Writes a JSON value: a tag byte, then its content (numbers as varints, negative integers
/// as the varint of their complement, other numbers as 8 bytes of an f64, strings, arrays and
/// objects as a count and their items; object entries in the map's order).
pub fn json<S: Sink>(s: &mut S, v: &Value, depth: usize) {
    match v {
        Value::Null => s.byte(JSON_NULL),
        Value::Bool(false) => s.byte(JSON_FALSE),
        Value::Bool(true) => s.byte(JSON_TRUE),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                s.byte(JSON_UINT);
                varint(s, u);
            } else if let Some(i) = n.as_i64() {
                s.byte(JSON_NEG);
                varint(s, !(i as u64));
            } else {
                s.byte(JSON_FLOAT);
                s.put(&n.as_f64().unwrap_or(0.0).to_le_bytes());
            }
        }
        Value::String(t) => {
            s.byte(JSON_STRING);
            str(s, t);
        }
        Value::Array(_) | Value::Object(_) if depth >= MAX_JSON_DEPTH => s.byte(JSON_NULL),
        Value::Array(items) => {
            s.byte(JSON_ARRAY);
            varint(s, items.len() as u64);
            for item in items {
                json(s, item, depth + 1);
            }
        }
        Value::Object(map) => {
            s.byte(JSON_OBJECT);
            varint(s, map.len() as u64);
            for (k, item) in map {
                str(s, k);
                json(s, item, depth + 1);
            }
        }
    }
}

/// Why bytes are not a snapshot: what was being read when they stopped making sense.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bad(pub &'static str);

/// Reads what the functions above write, every step checked.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    /// The bytes not read yet.
    pub fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    /// Where the reader is, in bytes from the start.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// One byte.
    pub fn byte(&mut self) -> Result<u8, Bad> {
        let b = *self.bytes.get(self.at).ok_or(Bad("the snapshot ends early"))?;
        self.at += 1;
        Ok(b)
    }

    /// A varint of at most 64 bits.
    pub fn varint(&mut self) -> Result<u64, Bad> {
        let first = self.byte()?;
        if first < 0x80 {
            return Ok(u64::from(first));
        }
        let mut v = u64::from(first & 0x7f);
        let mut shift = 7u32;
        loop {
            let b = self.byte()?;
            let part = u64::from(b & 0x7f);
            if shift == 63 && part > 1 {
                return Err(Bad("a number is too large"));
            }
            v |= part << shift;
            if b < 0x80 {
                return Ok(v);
            }
            shift += 7;
            if shift > 63 {
                return Err(Bad("a number is too long"));
            }
        }
    }

    /// A varint of at most `most`.
    pub fn at_most(&mut self, most: u64) -> Result<u64, Bad> {
        self.varint().and_then(|v| if v <= most { Ok(v) } else { Err(Bad("a number is out of range")) })
    }

    /// A count of items that take at least `each` bytes apiece: refused when the bytes left
    /// cannot hold that many.
    pub fn count(&mut self, each: usize) -> Result<usize, Bad> {
        let most = self.left() / each.max(1);
        self.at_most(most as u64).map(|n| n as usize).map_err(|_| Bad("a count is larger than the snapshot"))
    }

    /// `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Bad> {
        let end = self.at.checked_add(n).ok_or(Bad("a length is too large"))?;
        let b = self.bytes.get(self.at..end).ok_or(Bad("a length is larger than the snapshot"))?;
        self.at = end;
        Ok(b)
    }

    /// A length-prefixed run of bytes.
    pub fn bytes(&mut self) -> Result<&'a [u8], Bad> {
        let n = self.varint()?;
        self.take(usize::try_from(n).map_err(|_| Bad("a length is too large"))?)
    }

    /// A length-prefixed UTF-8 string, borrowed from the input.
    pub fn str(&mut self) -> Result<&'a str, Bad> {
        std::str::from_utf8(self.bytes()?).map_err(|_| Bad("a string is not UTF-8"))
    }

    /// A length-prefixed UTF-8 string.
    pub fn string(&mut self) -> Result<String, Bad> {
        self.str().map(str::to_string)
    }

    /// A JSON value as [`json`] writes it, at most [`MAX_JSON_DEPTH`] levels deep.
    pub fn json(&mut self, depth: usize) -> Result<Value, Bad> {
        self.json_value(depth, true).map(Option::unwrap_or_default)
    }

    /// Reads past a JSON value as [`Self::json`] would read it, every step checked the same, but
    /// building nothing.
    pub fn skip_json(&mut self, depth: usize) -> Result<(), Bad> {
        self.json_value(depth, false).map(drop)
    }

    /// A JSON value, built when `build` (else `None`, the bytes checked all the same).
    fn json_value(&mut self, depth: usize, build: bool) -> Result<Option<Value>, Bad> {
        let value = match self.byte()? {
            JSON_NULL => Value::Null,
            JSON_FALSE => Value::Bool(false),
            JSON_TRUE => Value::Bool(true),
            JSON_UINT => Value::Number(Number::from(self.varint()?)),
            JSON_NEG => {
                let i = !self.varint()? as i64;
                if i >= 0 {
                    return Err(Bad("a negative number is not negative"));
                }
                Value::Number(Number::from(i))
            }
            JSON_FLOAT => {
                let raw: [u8; 8] = self.take(8)?.try_into().map_err(|_| Bad("the snapshot ends early"))?;
                Value::Number(Number::from_f64(f64::from_le_bytes(raw)).ok_or(Bad("a number is not finite"))?)
            }
            JSON_STRING => {
                let text = self.str()?;
                if !build {
                    return Ok(None);
                }
                Value::String(text.to_string())
            }
            JSON_ARRAY | JSON_OBJECT if depth >= MAX_JSON_DEPTH => return Err(Bad("values are nested too deep")),
            JSON_ARRAY => {
                let n = self.count(1)?;
                let mut items = Vec::with_capacity(if build { n.min(16) } else { 0 });
                for _ in 0..n {
                    items.extend(self.json_value(depth + 1, build)?);
                }
                Value::Array(items)
            }
            JSON_OBJECT => {
                let n = self.count(2)?;
                let mut map = Map::new();
                for _ in 0..n {
                    let k = self.str()?;
                    if let Some(v) = self.json_value(depth + 1, build)? {
                        map.insert(k.to_string(), v);
                    }
                }
                Value::Object(map)
            }
            _ => return Err(Bad("a value has an unknown kind")),
        };
        Ok(build.then_some(value))
    }
}

const K0: u64 = 0x9e37_79b9_7f4a_7c15;
const K1: u64 = 0xc2b2_ae3d_27d4_eb4f;

/// One step of the checksum: a bijection of the state for every word, and for every state an
/// injection of the word, so that changing any one word always changes the result.
fn mix(h: u64, w: u64) -> u64 {
    (h ^ w).wrapping_mul(K0).rotate_left(31)
}

/// A 64-bit checksum of `b`: four lanes of 8-byte words (for speed), folded with the length.
/// Not a cryptographic hash: it tells a damaged or truncated snapshot from a whole one.
pub fn checksum(b: &[u8]) -> u64 {
    let mut lanes = [K1, K1.rotate_left(16), K1.rotate_left(32), K1.rotate_left(48)];
    let mut blocks = b.chunks_exact(32);
    for block in &mut blocks {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            // A whole word read at once (what `word_of` gives for eight bytes).
            *lane = mix(*lane, <[u8; 8]>::try_from(word).map_or(0, u64::from_le_bytes));
        }
    }
    let mut h = b.len() as u64;
    for lane in lanes {
        h = mix(h, lane);
    }
    for word in blocks.remainder().chunks(8) {
        h = mix(h, word_of(word));
    }
    mix(h, K1)
}

/// Up to 8 bytes as a little-endian word, zeros after them.
fn word_of(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    for (d, s) in w.iter_mut().zip(b) {
        *d = *s;
    }
    u64::from_le_bytes(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_values_read_back() {
        let values = [
            serde_json::json!(null),
            serde_json::json!([true, false, 0, 1, 127, 128, u64::MAX, -1, i64::MIN, 1.5, -0.25, "é"]),
            serde_json::json!({"z": {"a": [1, {"b": "c"}]}, "a": ""}),
        ];
        for v in &values {
            let mut out = Vec::new();
            json(&mut out, v, 0);
            let mut count = Count(0);
            json(&mut count, v, 0);
            assert_eq!(count.0, out.len());
            let mut r = Reader::new(&out);
            assert_eq!(r.json(0).as_ref(), Ok(v));
            assert_eq!(r.left(), 0);
        }
        for n in [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            varint(&mut out, n);
            assert_eq!(Reader::new(&out).varint(), Ok(n));
        }
    }

    #[test]
    fn bad_numbers_and_lengths_are_refused() {
        // Eleven continuation bytes; a 64th bit and more; a length past the end; a count past it.
        assert!(Reader::new(&[0xff; 11]).varint().is_err());
        assert!(Reader::new(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]).varint().is_err());
        assert!(Reader::new(&[5, b'a', b'b']).str().is_err());
        assert!(Reader::new(&[2, 0xff, 0xfe]).str().is_err());
        assert!(Reader::new(&[JSON_ARRAY, 9, JSON_NULL]).json(0).is_err());
        assert!(Reader::new(&[JSON_FLOAT, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f]).json(0).is_err());
        let deep: Vec<u8> = [JSON_ARRAY, 1].repeat(MAX_JSON_DEPTH + 1);
        assert_eq!(Reader::new(&deep).json(0), Err(Bad("values are nested too deep")));
    }

    #[test]
    fn the_checksum_sees_every_one_byte_change_and_every_cut() {
        let b: Vec<u8> = (0..200u32).map(|i| (i * 7 + 3) as u8).collect();
        let whole = checksum(&b);
        for i in 0..b.len() {
            for bit in 0..8 {
                let mut c = b.clone();
                c[i] ^= 1 << bit;
                assert_ne!(checksum(&c), whole, "byte {i} bit {bit}");
            }
            assert_ne!(checksum(&b[..i]), whole, "cut at {i}");
        }
    }
}
