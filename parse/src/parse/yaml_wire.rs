//! [`load`](super::yaml::load)'s answer as bytes, for a host whose YAML parser lives elsewhere
//! (the wasm package's second module parses, its core module reads the answer).
//!
//! Layout: `O` and a value, or `E`, a flags byte (1: a resource limit, 2: a line follows), the
//! line as a varint when there is one, and the message. A value is a tag byte: `0` null, `1`
//! false, `2` true, `3` a number and `4` a string (each a varint length and UTF-8 bytes), `5` a
//! sequence and `6` a mapping (a varint count, then the items, or each key before its value).
//! Reading checks every tag, length and count against what is left, and nesting to
//! [`MAX_DEPTH`]: damaged bytes are an error, never a panic.

use super::yaml::{Yaml, YamlError};

/// Deepest nesting read (serde_yaml refuses deeper documents long before this).
pub const MAX_DEPTH: usize = 256;

/// The most items a list or mapping makes room for before they are read: a count is bounded only
/// by the bytes left, and a damaged answer that claims that many at every level of nesting would
/// otherwise reserve the bytes left times the depth, in values.
const RESERVE: usize = 64;

/// The answer as bytes.
pub fn encode(answer: &Result<Yaml, YamlError>) -> Vec<u8> {
    let mut out = Vec::new();
    match answer {
        Ok(value) => {
            out.push(b'O');
            value_to(&mut out, value);
        }
        Err(e) => {
            out.push(b'E');
            out.push(
                u8::from(e.resource_limit) | if e.line.is_some() { 2 } else { 0 } | if e.unavailable { 4 } else { 0 },
            );
            if let Some(line) = e.line {
                varint(&mut out, u64::from(line));
            }
            text(&mut out, &e.message);
        }
    }
    out
}

fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn text(out: &mut Vec<u8>, s: &str) {
    varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn value_to(out: &mut Vec<u8>, value: &Yaml) {
    match value {
        Yaml::Null => out.push(0),
        Yaml::Bool(b) => out.push(1 + u8::from(*b)),
        Yaml::Number(n) => {
            out.push(3);
            text(out, n);
        }
        Yaml::String(s) => {
            out.push(4);
            text(out, s);
        }
        Yaml::Seq(items) => {
            out.push(5);
            varint(out, items.len() as u64);
            for item in items {
                value_to(out, item);
            }
        }
        Yaml::Map(entries) => {
            out.push(6);
            varint(out, entries.len() as u64);
            for (k, v) in entries {
                value_to(out, k);
                value_to(out, v);
            }
        }
    }
}

/// Reads an answer [`encode`] wrote. Damaged bytes are an error that says so.
pub fn decode(bytes: &[u8]) -> Result<Yaml, YamlError> {
    let damaged = || YamlError::unavailable("the YAML parser's answer is damaged".to_string());
    let mut r = Reader { bytes, at: 0 };
    let answer = match r.byte().ok_or_else(damaged)? {
        b'O' => Ok(r.value(0).ok_or_else(damaged)?),
        b'E' => {
            let flags = r.byte().ok_or_else(damaged)?;
            let line = if flags & 2 != 0 {
                Some(u32::try_from(r.varint().ok_or_else(damaged)?).map_err(|_| damaged())?)
            } else {
                None
            };
            let message = r.text().ok_or_else(damaged)?;
            Err(YamlError { message, line, resource_limit: flags & 1 != 0, unavailable: flags & 4 != 0 })
        }
        _ => return Err(damaged()),
    };
    if r.at != bytes.len() {
        return Err(damaged());
    }
    answer
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b < 0x80 {
                return Some(n);
            }
        }
        None
    }

    /// A count or length, at most the bytes left (every item takes one byte at least).
    fn count(&mut self) -> Option<usize> {
        let n = usize::try_from(self.varint()?).ok()?;
        (n <= self.bytes.len() - self.at).then_some(n)
    }

    fn text(&mut self) -> Option<String> {
        let len = self.count()?;
        let slice = self.bytes.get(self.at..self.at + len)?;
        self.at += len;
        String::from_utf8(slice.to_vec()).ok()
    }

    fn value(&mut self, depth: usize) -> Option<Yaml> {
        Some(match self.byte()? {
            0 => Yaml::Null,
            1 => Yaml::Bool(false),
            2 => Yaml::Bool(true),
            3 => Yaml::Number(self.text()?),
            4 => Yaml::String(self.text()?),
            5 if depth < MAX_DEPTH => {
                let n = self.count()?;
                let mut items = Vec::with_capacity(n.min(RESERVE));
                for _ in 0..n {
                    items.push(self.value(depth + 1)?);
                }
                Yaml::Seq(items)
            }
            6 if depth < MAX_DEPTH => {
                let n = self.count()?;
                let mut entries = Vec::with_capacity(n.min(RESERVE));
                for _ in 0..n {
                    entries.push((self.value(depth + 1)?, self.value(depth + 1)?));
                }
                Yaml::Map(entries)
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Yaml {
        let s = |t: &str| Yaml::String(t.to_string());
        Yaml::Map(vec![
            (s("name"), s("déjà-vu")),
            (s("n"), Yaml::Number("1.5".to_string())),
            (s("l"), Yaml::Seq(vec![Yaml::Null, Yaml::Bool(true), Yaml::Bool(false), s(&"x".repeat(300))])),
            (Yaml::Number("7".to_string()), Yaml::Map(Vec::new())),
        ])
    }

    #[test]
    fn answers_round_trip() {
        let ok = Ok(sample());
        assert_eq!(decode(&encode(&ok)), ok);
        for line in [None, Some(3), Some(u32::MAX)] {
            let err = Err(YamlError {
                message: "bad: here".to_string(),
                line,
                resource_limit: line.is_some(),
                unavailable: line.is_none(),
            });
            assert_eq!(decode(&encode(&err)), err);
        }
    }

    #[test]
    fn damaged_answers_are_errors() {
        let bytes = encode(&Ok(sample()));
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut b = bytes.clone();
                b[i] ^= 1 << bit;
                let _ = decode(&b);
            }
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(decode(&long).is_err());
        // A count far beyond the bytes is refused before anything is allocated.
        assert!(decode(&[b'O', 5, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err());
        let deep: Vec<u8> = std::iter::once(b'O').chain([5, 1].repeat(MAX_DEPTH + 1)).chain([0]).collect();
        assert!(decode(&deep).is_err());
        // Every level of a deep answer claims about as many items as there are bytes left: each
        // makes room for a few, not for all (which would be gigabytes), and the answer is refused.
        let nulls = 1 << 20;
        let claim = [5u8, 0x80, 0x80, 0x40]; // a list of 2^20 items
        let mut claims: Vec<u8> = std::iter::once(b'O').chain(claim.repeat(MAX_DEPTH - 1)).collect();
        claims.resize(claims.len() + nulls, 0);
        assert!(decode(&claims).is_err());
    }
}
