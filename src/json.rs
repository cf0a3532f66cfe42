//! JSON text to [`serde_json::Value`]: the one reader of JSON text in the engine and its wasm
//! façades (options and store answers as the façades' boundary writes them, tool arguments a
//! model wrote, the second module's answers).
//!
//! It reads RFC 8259 JSON into the values serde_json's own reader gives (objects keep their
//! order; a key given twice keeps its first place and its last value; integers are `u64`, `i64`
//! when negative, else `f64`; `-0` is `-0.0`), with errors in serde_json's words and places
//! (`expected value at line 1 column 5`). What it does not share is serde_json's generic
//! deserialiser, which every caller of this reader would otherwise carry for one use; numbers
//! with a fraction or an exponent are read by the standard library, correctly rounded.
//! Nesting is bounded at [`MAX_DEPTH`] levels, as serde_json bounds it.

use serde_json::{Map, Number, Value};
use std::fmt;

/// Most levels of nested arrays and objects read (serde_json refuses its 128th level too).
pub const MAX_DEPTH: usize = 127;

/// Why text is not JSON, and where: a 1-based line and column (bytes), as serde_json says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// What was wrong, in serde_json's words.
    pub message: &'static str,
    /// The line of the text where it was found, from 1.
    pub line: usize,
    /// The column (in bytes) of that line, from 1; 0 for an empty line.
    pub column: usize,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.message, self.line, self.column)
    }
}

impl std::error::Error for JsonError {}

/// Reads `text` as one JSON value, surrounded by nothing but whitespace.
pub fn from_str(text: &str) -> Result<Value, JsonError> {
    let mut r = Reader { text, bytes: text.as_bytes(), at: 0, depth: 0 };
    let value = r.value().map_err(|m| r.error(m))?;
    r.skip_space();
    if r.at < r.bytes.len() {
        r.at += 1;
        return Err(r.error("trailing characters"));
    }
    Ok(value)
}

/// Reads `bytes` as UTF-8 JSON text; bytes that are not UTF-8 are an error at the first of them.
pub fn from_slice(bytes: &[u8]) -> Result<Value, JsonError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => from_str(text),
        Err(e) => {
            let r = Reader { text: "", bytes, at: e.valid_up_to() + 1, depth: 0 };
            Err(r.error("invalid unicode code point"))
        }
    }
}

type Read<T> = Result<T, &'static str>;

struct Reader<'a> {
    /// The text read; `bytes` is its bytes (an error's place in bytes that are not UTF-8 has
    /// bytes alone).
    text: &'a str,
    bytes: &'a [u8],
    /// The next byte to read; on an error, one past the byte that was wrong.
    at: usize,
    depth: usize,
}

impl Reader<'_> {
    /// The error `message` at the byte before `at` (the one that was wrong), as serde_json
    /// places it: the line it is on and its column there.
    fn error(&self, message: &'static str) -> JsonError {
        let upto = &self.bytes[..self.at.min(self.bytes.len())];
        let line = 1 + upto.iter().filter(|&&b| b == b'\n').count();
        let column = upto.iter().rev().take_while(|&&b| b != b'\n').count();
        JsonError { message, line, column }
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// The next byte that is not whitespace, not consumed.
    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.at).copied()
    }

    fn value(&mut self) -> Read<Value> {
        let Some(b) = self.peek() else { return Err("EOF while parsing a value") };
        match b {
            b'"' => {
                self.at += 1;
                self.string().map(Value::String)
            }
            b'{' | b'[' => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    self.at += 1;
                    return Err("recursion limit exceeded");
                }
                self.at += 1;
                let value = if b == b'{' { self.object() } else { self.array() };
                self.depth -= 1;
                value
            }
            b'-' | b'0'..=b'9' => self.number().map(Value::Number),
            b't' => self.word(b"true", Value::Bool(true)),
            b'f' => self.word(b"false", Value::Bool(false)),
            b'n' => self.word(b"null", Value::Null),
            _ => {
                self.at += 1;
                Err("expected value")
            }
        }
    }

    fn word(&mut self, word: &[u8], value: Value) -> Read<Value> {
        self.exact(word, "expected ident", "EOF while parsing a value")?;
        Ok(value)
    }

    /// The bytes `want`, one by one with no whitespace between: `wrong` at the first that
    /// differs, `eof` when the text ends first.
    fn exact(&mut self, want: &[u8], wrong: &'static str, eof: &'static str) -> Read<()> {
        for &w in want {
            let Some(&b) = self.bytes.get(self.at) else { return Err(eof) };
            self.at += 1;
            if b != w {
                return Err(wrong);
            }
        }
        Ok(())
    }

    /// The items after `[`, through `]`.
    fn array(&mut self) -> Read<Value> {
        let mut items = Vec::new();
        match self.peek() {
            Some(b']') => {
                self.at += 1;
                return Ok(Value::Array(items));
            }
            None => return Err("EOF while parsing a list"),
            Some(_) => {}
        }
        loop {
            items.push(self.value()?);
            if self.after_item(b']', "expected `,` or `]`", "EOF while parsing a list")? {
                return Ok(Value::Array(items));
            }
        }
    }

    /// The members after `{`, through `}`.
    fn object(&mut self) -> Read<Value> {
        const EOF: &str = "EOF while parsing an object";
        let mut map = Map::new();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(map));
        }
        loop {
            self.expect(b'"', "key must be a string", EOF)?;
            let key = self.string()?;
            self.expect(b':', "expected `:`", EOF)?;
            let value = self.value()?;
            map.insert(key, value);
            if self.after_item(b'}', "expected `,` or `}`", EOF)? {
                return Ok(Value::Object(map));
            }
        }
    }

    /// The byte `want` next (after whitespace), consumed; `wrong` when another byte is there,
    /// `eof` when none is.
    fn expect(&mut self, want: u8, wrong: &'static str, eof: &'static str) -> Read<()> {
        let Some(b) = self.peek() else { return Err(eof) };
        self.at += 1;
        if b == want {
            Ok(())
        } else {
            Err(wrong)
        }
    }

    /// What follows an item of an array or object: `,` and another item (false), or `close`
    /// (true). A `,` right before `close` is a trailing comma.
    fn after_item(&mut self, close: u8, wrong: &'static str, eof: &'static str) -> Read<bool> {
        let Some(b) = self.peek() else { return Err(eof) };
        self.at += 1;
        if b == close {
            return Ok(true);
        }
        if b != b',' {
            return Err(wrong);
        }
        if self.peek() == Some(close) {
            self.at += 1;
            return Err("trailing comma");
        }
        Ok(false)
    }

    /// The text after an opening `"`, through the closing one.
    fn string(&mut self) -> Read<String> {
        let mut out = String::new();
        loop {
            let start = self.at;
            let rest = self.bytes.get(start..).unwrap_or_default();
            let run = rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(rest.len());
            // The run is whole characters: it ends before an ASCII byte or at the text's end.
            out.push_str(self.text.get(start..start + run).ok_or("invalid unicode code point")?);
            self.at = start + run;
            let Some(&b) = self.bytes.get(self.at) else { return Err("EOF while parsing a string") };
            self.at += 1;
            match b {
                b'"' => return Ok(out),
                b'\\' => self.escape(&mut out)?,
                _ => return Err("control character (\\u0000-\\u001F) found while parsing a string"),
            }
        }
    }

    /// One escape, after its `\`.
    fn escape(&mut self, out: &mut String) -> Read<()> {
        let Some(&b) = self.bytes.get(self.at) else { return Err("EOF while parsing a string") };
        self.at += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => self.unicode_escape()?,
            _ => return Err("invalid escape"),
        };
        out.push(c);
        Ok(())
    }

    /// The character of a `\uXXXX` escape (after its `u`), with the low half of a surrogate pair.
    fn unicode_escape(&mut self) -> Read<char> {
        let high = self.hex4()?;
        if !(0xD800..0xE000).contains(&high) {
            return char::from_u32(high).ok_or("invalid unicode code point");
        }
        if high >= 0xDC00 {
            return Err("lone leading surrogate in hex escape");
        }
        self.exact(b"\\u", "unexpected end of hex escape", "EOF while parsing a string")?;
        let low = self.hex4()?;
        if !(0xDC00..0xE000).contains(&low) {
            return Err("lone leading surrogate in hex escape");
        }
        char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)).ok_or("invalid unicode code point")
    }

    /// Four hex digits (all four are read before any is looked at, as serde_json does).
    fn hex4(&mut self) -> Read<u32> {
        let Some(digits) = self.bytes.get(self.at..self.at + 4) else {
            self.at = self.bytes.len();
            return Err("EOF while parsing a string");
        };
        self.at += 4;
        let mut n = 0;
        for &b in digits {
            n = n * 16 + (b as char).to_digit(16).ok_or("invalid escape")?;
        }
        Ok(n)
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.bytes.get(self.at) {
            self.at += 1;
        }
        self.at - start
    }

    /// A number: an integer as `u64` (`i64` when negative) when it fits, else as `f64`.
    fn number(&mut self) -> Read<Number> {
        let start = self.at;
        let negative = self.bytes.get(self.at) == Some(&b'-');
        if negative {
            self.at += 1;
        }
        let int_start = self.at;
        match self.digits() {
            0 => return Err(self.number_end()),
            n if n > 1 && self.bytes.get(int_start) == Some(&b'0') => {
                self.at = int_start + 2;
                return Err("invalid number");
            }
            _ => {}
        }
        let int_end = self.at;
        let mut float = false;
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            float = true;
            if self.digits() == 0 {
                return Err(self.number_end());
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
            float = true;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.number_end());
            }
        }
        let text = self.text.get(start..self.at).ok_or("invalid number")?;
        if !float {
            if let Some(n) = text.get(int_start - start..int_end - start).and_then(integer) {
                if !negative {
                    return Ok(Number::from(n));
                }
                if n == 0 {
                    return Number::from_f64(-0.0).ok_or("invalid number");
                }
                if n <= i64::MAX as u64 + 1 {
                    return Ok(Number::from((n as i64).wrapping_neg()));
                }
            }
        }
        float_number(text)
    }

    /// The error of a number cut short at `at`: the end of the text, or a byte that cannot go on.
    fn number_end(&mut self) -> &'static str {
        if self.at >= self.bytes.len() {
            return "EOF while parsing a value";
        }
        self.at += 1;
        "invalid number"
    }
}

/// Decimal digits as a `u64`, or None past it.
fn integer(digits: &str) -> Option<u64> {
    let mut n: u64 = 0;
    for d in digits.bytes() {
        n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    Some(n)
}

/// A number with a fraction or an exponent (or an integer past 64 bits), correctly rounded.
/// Apart from the integer path: the standard library's float reading is large, and only such
/// numbers reach it.
#[cold]
#[inline(never)]
fn float_number(text: &str) -> Read<Number> {
    let f: f64 = text.parse().map_err(|_| "invalid number")?;
    Number::from_f64(f).ok_or("number out of range")
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
