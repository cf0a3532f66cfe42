//! [`beyond::read`]'s answer as bytes, for a host that reads frontmatter
//! beyond the fast path elsewhere (the wasm package's second module reads it, its core module
//! takes the answer).
//!
//! Layout: `O`, a count of fields, each a key, a line and a value, then a count of diagnostics
//! and each diagnostic; or `E` and one diagnostic. A text is a varint length and UTF-8 bytes; an
//! optional line a varint, 0 for none and n + 1 for line n. A value is a tag byte: `0`, `1` and
//! `2` a plain, quoted and block scalar (its text follows), `3` a sequence and `4` a mapping (a
//! varint count, then the items, or each key text before its value). A diagnostic is a severity
//! byte (`0` error, `1` warning, `2` info), its code, its message, its line, and `0` or `1` and a
//! path. Reading checks every tag, length and count against what is left, and nesting to
//! [`MAX_DEPTH`]: damaged bytes are an error, never a panic.

use super::beyond::{self, Answer};
use super::field::Field;
use super::node::{Node, Style};
use crate::diagnostic::{Diagnostic, Severity};

/// Deepest nesting read (serde_yaml refuses deeper documents long before this).
pub const MAX_DEPTH: usize = 256;

/// The most items a list or mapping makes room for before they are read: a count is bounded only
/// by the bytes left, and a damaged answer that claims that many at every level of nesting would
/// otherwise reserve the bytes left times the depth, in values.
const RESERVE: usize = 64;

/// The answer as bytes.
pub fn encode(answer: &Answer) -> Vec<u8> {
    let mut out = Vec::new();
    match answer {
        Ok((fields, notes)) => {
            out.push(b'O');
            varint(&mut out, fields.len() as u64);
            for f in fields {
                text(&mut out, &f.key);
                line(&mut out, f.line);
                node(&mut out, &f.value);
            }
            varint(&mut out, notes.len() as u64);
            for d in notes {
                diagnostic(&mut out, d);
            }
        }
        Err(d) => {
            out.push(b'E');
            diagnostic(&mut out, d);
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

fn line(out: &mut Vec<u8>, line: Option<u32>) {
    varint(out, line.map_or(0, |n| u64::from(n) + 1));
}

fn node(out: &mut Vec<u8>, value: &Node) {
    match value {
        Node::Scalar { text: t, style } => {
            out.push(match style {
                Style::Plain => 0,
                Style::Quoted => 1,
                Style::Block => 2,
            });
            text(out, t);
        }
        Node::Seq(items) => {
            out.push(3);
            varint(out, items.len() as u64);
            for item in items {
                node(out, item);
            }
        }
        Node::Map(entries) => {
            out.push(4);
            varint(out, entries.len() as u64);
            for (k, v) in entries {
                text(out, k);
                node(out, v);
            }
        }
    }
}

fn diagnostic(out: &mut Vec<u8>, d: &Diagnostic) {
    out.push(match d.severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    });
    text(out, &d.code);
    text(out, &d.message);
    line(out, d.line);
    match &d.path {
        Some(path) => {
            out.push(1);
            text(out, path);
        }
        None => out.push(0),
    }
}

/// Reads an answer [`encode`] wrote for frontmatter whose first line is file line `first_line`.
/// Damaged bytes refuse the file with a diagnostic that says so.
pub fn decode(bytes: &[u8], first_line: u32) -> Answer {
    let damaged = || beyond::unavailable("the YAML parser's answer is damaged", first_line);
    let mut r = Reader { bytes, at: 0 };
    let answer = r.answer().ok_or_else(damaged)?;
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
    fn answer(&mut self) -> Option<Answer> {
        Some(match self.byte()? {
            b'O' => {
                let n = self.count()?;
                let mut fields = Vec::with_capacity(n.min(RESERVE));
                for _ in 0..n {
                    let key = self.text()?;
                    let line = self.line()?;
                    fields.push(Field { key, line, value: self.node(0)? });
                }
                let n = self.count()?;
                let mut notes = Vec::with_capacity(n.min(RESERVE));
                for _ in 0..n {
                    notes.push(self.diagnostic()?);
                }
                Ok((fields, notes))
            }
            b'E' => Err(self.diagnostic()?),
            _ => return None,
        })
    }

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

    fn line(&mut self) -> Option<Option<u32>> {
        match self.varint()? {
            0 => Some(None),
            n => u32::try_from(n - 1).ok().map(Some),
        }
    }

    fn node(&mut self, depth: usize) -> Option<Node> {
        let scalar = |style, text| Node::Scalar { text, style };
        Some(match self.byte()? {
            0 => scalar(Style::Plain, self.text()?),
            1 => scalar(Style::Quoted, self.text()?),
            2 => scalar(Style::Block, self.text()?),
            3 if depth < MAX_DEPTH => {
                let n = self.count()?;
                let mut items = Vec::with_capacity(n.min(RESERVE));
                for _ in 0..n {
                    items.push(self.node(depth + 1)?);
                }
                Node::Seq(items)
            }
            4 if depth < MAX_DEPTH => {
                let n = self.count()?;
                let mut entries = Vec::with_capacity(n.min(RESERVE));
                for _ in 0..n {
                    entries.push((self.text()?, self.node(depth + 1)?));
                }
                Node::Map(entries)
            }
            _ => return None,
        })
    }

    fn diagnostic(&mut self) -> Option<Diagnostic> {
        let severity = match self.byte()? {
            0 => Severity::Error,
            1 => Severity::Warning,
            2 => Severity::Info,
            _ => return None,
        };
        let code = self.text()?;
        let message = self.text()?;
        let line = self.line()?;
        let path = match self.byte()? {
            0 => None,
            1 => Some(self.text()?),
            _ => return None,
        };
        Some(Diagnostic { severity, code, message, line, path })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::codes;

    fn sample() -> Answer {
        let s = |t: &str, style| Node::Scalar { text: t.to_string(), style };
        let fields = vec![
            Field { key: "name".to_string(), value: s("déjà-vu", Style::Plain), line: Some(2) },
            Field {
                key: "l".to_string(),
                value: Node::Seq(vec![s("1.5", Style::Quoted), s(&"x".repeat(300), Style::Block)]),
                line: None,
            },
            Field {
                key: "m".to_string(),
                value: Node::Map(vec![
                    ("k".to_string(), Node::Map(Vec::new())),
                    ("e".to_string(), Node::Seq(Vec::new())),
                ]),
                line: Some(u32::MAX),
            },
        ];
        let mut note = Diagnostic::warning(codes::YAML_INVALID, "repaired: here").at_line(Some(4));
        note.path = Some("scripts/a.sh".to_string());
        Ok((fields, vec![note, Diagnostic::info("x", "y")]))
    }

    #[test]
    fn answers_round_trip() {
        let ok = sample();
        assert_eq!(decode(&encode(&ok), 1), ok);
        for line in [None, Some(3), Some(u32::MAX)] {
            let err = Err(Diagnostic::error(codes::YAML_INVALID, "bad: here").at_line(line));
            assert_eq!(decode(&encode(&err), 1), err);
        }
    }

    #[test]
    fn damaged_answers_are_errors() {
        let is_damaged =
            |answer: &Answer| matches!(answer, Err(d) if d.code == codes::YAML_PARSER_UNAVAILABLE && d.line == Some(7));
        let bytes = encode(&sample());
        for cut in 0..bytes.len() {
            assert!(is_damaged(&decode(&bytes[..cut], 7)), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut b = bytes.clone();
                b[i] ^= 1 << bit;
                let _ = decode(&b, 7);
            }
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(is_damaged(&decode(&long, 7)));
        // A count far beyond the bytes is refused before anything is allocated.
        assert!(is_damaged(&decode(&[b'O', 0xff, 0xff, 0xff, 0xff, 0x0f], 7)));
        let field = [1u8, b'k', 0];
        let deep: Vec<u8> =
            [b'O', 1].into_iter().chain(field).chain([3, 1].repeat(MAX_DEPTH + 1)).chain([0, 0, 0]).collect();
        assert!(is_damaged(&decode(&deep, 7)));
        // Every level of a deep answer claims about as many items as there are bytes left: each
        // makes room for a few, not for all (which would be gigabytes), and the answer is refused.
        let claim = [3u8, 0x80, 0x80, 0x40]; // a list of 2^20 items
        let mut claims: Vec<u8> = [b'O', 1].into_iter().chain(field).chain(claim.repeat(MAX_DEPTH - 1)).collect();
        claims.resize(claims.len() + (1 << 20), 0);
        assert!(is_damaged(&decode(&claims, 7)));
    }
}
