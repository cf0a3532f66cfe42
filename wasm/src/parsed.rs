//! Parse results handed to JS a batch at a time. Building result objects field by field from wasm
//! (one crossing per key and per value) was most of a metadata-only parse; here the results of a
//! batch become one JSON text, which `boundary.js` turns into objects with one `JSON.parse`.
//!
//! A body that is a range of its input unchanged (valid UTF-8, no `\r`, trimmed: the core decides)
//! is not serialised: the input was copied into the batch's buffer for the parse, and the body's
//! range in that buffer goes to JS with the text, where the body is made from those very bytes.
//! Any other body (line endings normalised) is the core's own string, in the JSON.

use crate::convert::Bytes;
use js_sys::Array;
use skillwasm::store::{limits, PREFIX_BYTES};
use skillwasm::{ParseOptions, ParseResult};
use wasm_bindgen::prelude::*;

/// Input bytes a batch holds in wasm memory before its results are handed over (one input may
/// take more: up to the cap of a SKILL.md).
const BATCH_BYTES: usize = 8 << 20;
/// JSON text a batch holds before its results are handed over.
const BATCH_JSON: usize = 4 << 20;
/// A result without a body range.
const NO_RANGE: u32 = u32::MAX;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = takeResults)]
    fn take_results(json: &str, bytes: &[u8], ranges: &[u32], out: &Array) -> bool;
}

/// Results in the making: JSON text and body ranges of the current batch, and the array of the
/// objects already made.
pub struct Results {
    out: Array,
    json: Vec<u8>,
    count: usize,
    buf: Vec<u8>,
    ranges: Vec<u32>,
}

impl Results {
    /// No results yet.
    pub fn new() -> Results {
        Results { out: Array::new(), json: Vec::new(), count: 0, buf: Vec::new(), ranges: Vec::new() }
    }

    /// Parses one SKILL.md input (already read within the cap) and adds its result. Without
    /// bodies only the frontmatter is needed: the core's prefix-read policy decides from the first
    /// bytes, and the whole input is copied only when the closing fence is not in them. With
    /// bodies, the input is copied into the batch's buffer once and a body that is a range of it
    /// is handed over as that range.
    pub fn parse(&mut self, bytes: Bytes, opts: &ParseOptions) -> Result<(), JsValue> {
        if !opts.include_body() && !opts.partial {
            let first = bytes.prefix(PREFIX_BYTES as usize);
            if let Some(result) = limits::parse_prefix(&first, PREFIX_BYTES, Some(bytes.size() as u64), opts) {
                return self.push(&result, None);
            }
        }
        match bytes {
            Bytes::View(view, n) if opts.include_body() && !opts.partial && view.length() == n => {
                let start = self.buf.len();
                self.buf.resize(start + n as usize, 0);
                let range = match self.buf.get_mut(start..) {
                    Some(dst) => {
                        view.copy_to(dst);
                        let (result, range) = skillwasm::parse_skill_in_place(&self.buf[start..], opts);
                        let range = range.map(|r| (start + r.start, start + r.end));
                        if range.is_none() {
                            self.buf.truncate(start);
                        }
                        (result, range)
                    }
                    None => (skillwasm::parse_skill(&view.to_vec(), opts), None),
                };
                self.push(&range.0, range.1)
            }
            other => self.push(&skillwasm::parse_skill(&other.into_vec(), opts), None),
        }
    }

    /// Adds a result; `range` is where its body is in the batch's buffer.
    pub fn push(&mut self, result: &ParseResult, range: Option<(usize, usize)>) -> Result<(), JsValue> {
        self.json.push(if self.count == 0 { b'[' } else { b',' });
        let mut ser = serde_json::Serializer::with_formatter(&mut self.json, AsciiJson);
        serde::Serialize::serialize(result, &mut ser).map_err(|e| JsValue::from(JsError::new(&e.to_string())))?;
        self.count += 1;
        let (start, end) = match range {
            Some((s, e)) => (u32::try_from(s).unwrap_or(NO_RANGE), u32::try_from(e).unwrap_or(NO_RANGE)),
            None => (NO_RANGE, NO_RANGE),
        };
        self.ranges.extend([start, end]);
        if self.buf.len() >= BATCH_BYTES || self.json.len() >= BATCH_JSON {
            self.flush()?;
        }
        Ok(())
    }

    /// Hands the batch's results over to JS.
    fn flush(&mut self) -> Result<(), JsValue> {
        if self.count == 0 {
            return Ok(());
        }
        self.json.push(b']');
        let text = std::str::from_utf8(&self.json).map_err(|e| JsValue::from(JsError::new(&e.to_string())))?;
        if !take_results(text, &self.buf, &self.ranges, &self.out) {
            return Err(JsError::new("the parse results could not be handed over").into());
        }
        self.json.clear();
        self.buf.clear();
        self.ranges.clear();
        self.count = 0;
        // A batch that was large gives its memory back to the allocator.
        if self.buf.capacity() > BATCH_BYTES * 2 {
            self.buf = Vec::new();
        }
        Ok(())
    }

    /// Every result, in order.
    pub fn finish(mut self) -> Result<Array, JsValue> {
        self.flush()?;
        Ok(self.out)
    }
}

/// JSON with every character beyond ASCII written as a `\u` escape: the text then crosses into JS
/// as a one-byte string, which `TextDecoder` makes several times faster than one with a few
/// non-ASCII characters (measured on the corpus: 0.5 ms against 1.5 ms for its 500 KB), and
/// `JSON.parse` reads no slower.
struct AsciiJson;

impl serde_json::ser::Formatter for AsciiJson {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        while let Some(i) = rest.bytes().position(|b| !b.is_ascii()) {
            let (ascii, tail) = rest.split_at(i);
            writer.write_all(ascii.as_bytes())?;
            let mut chars = tail.chars();
            let Some(c) = chars.next() else { break };
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(writer, "\\u{unit:04x}")?;
            }
            rest = chars.as_str();
        }
        writer.write_all(rest.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::AsciiJson;

    #[test]
    fn ascii_json_escapes_beyond_ascii_and_reads_back_the_same() {
        let value = serde_json::json!({ "d": "a — b 😀 c\u{7f}\u{80}\n\"", "k—": ["é", "plain"] });
        let mut out = Vec::new();
        serde::Serialize::serialize(&value, &mut serde_json::Serializer::with_formatter(&mut out, AsciiJson)).unwrap();
        assert!(out.is_ascii(), "{}", String::from_utf8_lossy(&out));
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\\u2014") && text.contains("\\ud83d\\ude00"), "{text}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
    }
}
