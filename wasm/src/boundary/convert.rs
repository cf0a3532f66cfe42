//! Bounded conversion of every caller-supplied value, once, at the top of each export, before any
//! Rust state is borrowed. The reading itself happens in `boundary.js` (shipped beside the glue):
//! getters, Proxy traps, `toJSON` and thenables run there inside try/catch with an explicit stack,
//! so no JS exception ever unwinds through a Rust frame. Rust gets JSON text (then [`skillwasm::json`]),
//! a fresh Uint8Array view read through the intrinsic typed-array getters, or a tagged error.
//!
//! The bounds, for every value read this way:
//! - [`MAX_DEPTH`] levels of nesting (arrays and objects),
//! - [`MAX_NODES`] values in all, and [`MAX_JSON_CHARS`] characters of JSON text,
//! - [`MAX_STRING_CHARS`] UTF-16 units for a string argument,
//! - bytes: [`skillwasm::store::DEFAULT_MAX_OBJECT_BYTES`] (16 MiB) per SKILL.md input and per
//!   store answer (the discovery option `maxObjectBytes` raises or lowers it for stores).
//!
//! Beyond a bound, or with the wrong type, an argument or option (a programming error) is a
//! `TypeError` that names it; data (tool input, transcripts, store answers, skill bytes) becomes an
//! error value or a diagnostic. Lone surrogates in text become U+FFFD, as UTF-8 encoding does.

use js_sys::{Array, Function, Promise, Uint8Array};
use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Most levels of nesting in a value read from a caller.
pub const MAX_DEPTH: u32 = 64;
/// Most values (every string, number, array, object ... counts one) in a value read from a caller.
pub const MAX_NODES: u32 = 1_000_000;
/// Most characters of JSON text a value read from a caller may take.
pub const MAX_JSON_CHARS: u32 = 64 * 1024 * 1024;
/// Most UTF-16 units in a string argument.
pub const MAX_STRING_CHARS: u32 = 64 * 1024 * 1024;
/// Largest snapshot `SkillRegistry.fromSnapshot` reads.
pub const MAX_SNAPSHOT_BYTES: u32 = 512 * 1024 * 1024;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = boundedJson)]
    fn bounded_json(
        v: &JsValue,
        depth: u32,
        nodes: u32,
        chars: u32,
        holes: &Array,
        taken: &Array,
    ) -> Result<String, JsValue>;
    #[wasm_bindgen(catch, js_name = pageJson)]
    fn page_json(v: &JsValue, nodes: u32, chars: u32, heads: bool, taken: &Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = boundedBytes)]
    fn bounded_bytes(v: &JsValue, max: u32, strict: bool) -> Result<JsValue, JsValue>;
    /// The length of `v` in UTF-16 units when it is a string, else -1.
    #[wasm_bindgen(js_name = stringLength)]
    pub fn string_length(v: &JsValue) -> f64;
    #[wasm_bindgen(catch, js_name = callStore)]
    fn call_store_js(f: &Function, this: &JsValue, a: &JsValue, b: &JsValue, ms: u32) -> Result<JsValue, JsValue>;
}

/// A trap of a wasm instance met while reading (a getter that re-entered the package and trapped)
/// is not data: it goes on to the package's guard, which replaces the instance.
pub fn pass_traps(e: JsValue) -> JsValue {
    if e.has_type::<js_sys::WebAssembly::RuntimeError>() {
        wasm_bindgen::throw_val(e);
    }
    e
}

/// Why a value could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep(String),
    /// More than [`MAX_NODES`] values or [`MAX_JSON_CHARS`] characters.
    TooLarge(String),
    /// A value JSON has no form for (a bigint), or an array without a valid length.
    Unsupported(String),
    /// A getter, a Proxy trap or `toJSON` threw.
    Threw(String),
}

/// Values handed back unread (stores, callbacks): `(dotted path, value)`.
pub type Taken = Vec<(String, JsValue)>;

impl Unreadable {
    fn from_tagged(text: &str) -> Unreadable {
        let mut parts = text.splitn(3, '|');
        let kind = parts.next().unwrap_or_default();
        let path = parts.next().unwrap_or_default();
        let message = parts.next().unwrap_or_default();
        let full = format!("{path}\u{0}{message}");
        match kind {
            "d" => Unreadable::TooDeep(full),
            "n" => Unreadable::TooLarge(full),
            "t" => Unreadable::Unsupported(full),
            _ => Unreadable::Threw(full),
        }
    }

    fn parts(&self) -> (&str, &str) {
        let s = match self {
            Unreadable::TooDeep(s) | Unreadable::TooLarge(s) | Unreadable::Unsupported(s) | Unreadable::Threw(s) => {
                s.as_str()
            }
        };
        s.split_once('\u{0}').unwrap_or(("", s))
    }

    /// `name` + the path inside it + what was wrong: `opts.mode: reading it threw ...`.
    pub fn describe(&self, name: &str) -> String {
        let (path, message) = self.parts();
        format!("{name}{path}: {message}")
    }
}

/// Reads `v` as JSON within the bounds. `holes` are dotted paths (`*` for any key or index) whose
/// values are handed back unread.
pub fn json(v: &JsValue, holes: &[&str]) -> Result<(Value, Taken), Unreadable> {
    let hole_list = Array::new();
    for h in holes {
        hole_list.push(&JsValue::from_str(h));
    }
    let taken_list = Array::new();
    let text = bounded_json(v, MAX_DEPTH, MAX_NODES, MAX_JSON_CHARS, &hole_list, &taken_list)
        .map_err(|e| Unreadable::Threw(format!("\u{0}{}", describe_error(pass_traps(e)))))?;
    let Some(body) = text.strip_prefix('J') else {
        return Err(Unreadable::from_tagged(text.get(1..).unwrap_or_default()));
    };
    let value = skillwasm::json::from_str(body).map_err(|e| Unreadable::Unsupported(format!("\u{0}{e}")))?;
    Ok((value, taken_pairs(&taken_list)))
}

/// Reads data as JSON within the bounds, its JSON text at most `chars` long (and
/// [`MAX_JSON_CHARS`]): the value and the length of its JSON text in bytes. Longer is
/// [`Unreadable::TooLarge`], found before more than `chars` characters are written.
pub fn data_within(v: &JsValue, chars: u32) -> Result<(Value, u64), Unreadable> {
    let taken_list = Array::new();
    let text = bounded_json(v, MAX_DEPTH, MAX_NODES, chars.min(MAX_JSON_CHARS), &Array::new(), &taken_list)
        .map_err(|e| Unreadable::Threw(format!("\u{0}{}", describe_error(pass_traps(e)))))?;
    let Some(body) = text.strip_prefix('J') else {
        return Err(Unreadable::from_tagged(text.get(1..).unwrap_or_default()));
    };
    let value = skillwasm::json::from_str(body).map_err(|e| Unreadable::Unsupported(format!("\u{0}{e}")))?;
    Ok((value, body.len() as u64))
}

/// The `[path, value]` pairs boundary.js handed back unread, as (path, value).
pub fn taken_pairs(list: &Array) -> Taken {
    let mut taken = Vec::new();
    for pair in list.iter() {
        // Pairs this module made: [path, value].
        let pair: Array = pair.unchecked_into();
        taken.push((pair.get(0).as_string().unwrap_or_default(), pair.get(1)));
    }
    taken
}

/// A store's listing page as [`json`] reads it with the holes `["~entries.*.key"]`, plus
/// `"entries.*.head"` when `heads`: the same value and the same values handed back, read in one
/// loop when the page has the usual shape (see `pageJson` in boundary.js), else by [`json`].
pub fn page(v: &JsValue, heads: bool) -> Result<(Value, Taken), Unreadable> {
    let taken_list = Array::new();
    let fast = page_json(v, MAX_NODES, MAX_JSON_CHARS, heads, &taken_list).map_err(pass_traps);
    if let Some(text) = fast.ok().and_then(|t| t.as_string()) {
        if let Ok(value) = skillwasm::json::from_str(&text) {
            return Ok((value, taken_pairs(&taken_list)));
        }
    }
    let holes: &[&str] = if heads { &["~entries.*.key", "entries.*.head"] } else { &["~entries.*.key"] };
    json(v, holes)
}

/// Reads data (tool input, a transcript) as JSON within the bounds.
pub fn data(v: &JsValue) -> Result<Value, Unreadable> {
    json(v, &[]).map(|(value, _)| value)
}

/// Text boundary.js encoded as UTF-8 (a Uint8Array it made): copied into this module in one
/// call, where a string crosses one UTF-16 unit at a time. None for anything else, or bytes that
/// are not UTF-8.
pub fn utf8_text(v: JsValue) -> Option<String> {
    let view: Uint8Array = v.dyn_into().ok()?;
    String::from_utf8(view.to_vec()).ok()
}

/// A `TypeError` (what a wrong argument or option throws).
pub fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// Options of type `T`: `undefined` or `null` give the defaults; anything but an object is a
/// `TypeError` naming `name`, and so is an option of the wrong type (naming its key).
pub fn options<T: DeserializeOwned + Default>(v: &JsValue, name: &str) -> Result<T, JsValue> {
    options_with(v, name, &[]).map(|(o, _)| o)
}

/// [`options`], with the values under `holes` (stores, callbacks) handed back unread.
pub fn options_with<T: DeserializeOwned + Default>(
    v: &JsValue,
    name: &str,
    holes: &[&str],
) -> Result<(T, Taken), JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok((T::default(), Vec::new()));
    }
    let (value, taken) = options_value(v, name, holes)?;
    Ok((deserialize(value, name)?, taken))
}

/// Options read by `read` (a reader whose error names the key whose value is wrong), with the
/// values under `holes` handed back unread: `undefined` or `null` give the defaults; anything but
/// an object is a `TypeError` naming `name`, and so is an option of the wrong type (naming its
/// key). One reader per options type, not serde's derive for each.
pub fn options_by<T: Default>(
    v: &JsValue,
    name: &str,
    holes: &[&str],
    read: fn(&Value) -> Result<T, (String, serde_json::Error)>,
) -> Result<(T, Taken), JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok((T::default(), Vec::new()));
    }
    let (value, taken) = options_value(v, name, holes)?;
    Ok((read(&value).map_err(|e| keyed_error(name, e))?, taken))
}

/// The `TypeError` for a value of the wrong type under `key` of the options `name`.
pub fn keyed_error(name: &str, (key, e): (String, serde_json::Error)) -> JsValue {
    let dot = if key.is_empty() { "" } else { "." };
    type_error(&format!("{name}{dot}{key}: {e}"))
}

/// An options object as JSON (an object, never an array), with the values under `holes` unread.
/// A function or symbol anywhere else in it is a `TypeError` naming its key: JSON would leave it
/// out, and a misspelt callback (`permited`) would then silently do nothing.
pub fn options_value(v: &JsValue, name: &str, holes: &[&str]) -> Result<(Value, Taken), JsValue> {
    if !v.is_object() {
        return Err(type_error(&format!("{name} must be an object, not {}", kind_of(v))));
    }
    let marked: Vec<&str> = holes.iter().copied().chain(["?"]).collect();
    let (value, taken) = json(v, &marked).map_err(|e| type_error(&e.describe(name)))?;
    if !value.is_object() {
        return Err(type_error(&format!("{name} must be a plain object, not an array")));
    }
    Ok((value, taken))
}

/// `value` as a `T`; a mismatch is a `TypeError` naming `name` and the key inside it.
pub fn deserialize<T: DeserializeOwned>(value: Value, name: &str) -> Result<T, JsValue> {
    T::deserialize(&value).map_err(|e| type_error(&format!("{name}{}: {e}", locate::<T>(&value))))
}

/// `value` as a list of `T`; a mismatch is a `TypeError` naming `name`, the index and the key.
pub fn deserialize_list<T: DeserializeOwned>(value: Value, name: &str) -> Result<Vec<T>, JsValue> {
    let Value::Array(items) = value else { return Err(type_error(&format!("{name} must be an array"))) };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            T::deserialize(item).map_err(|e| type_error(&format!("{name}[{i}]{}: {e}", locate::<T>(item))))
        })
        .collect()
}

/// The key of `value` (an object) that makes it no `T`: each key is tried alone (a missing other
/// field aside). Empty when no single key is to blame.
fn locate<T: DeserializeOwned>(value: &Value) -> String {
    let Value::Object(map) = value else { return String::new() };
    for (k, v) in map {
        let single = Value::Object(std::iter::once((k.clone(), v.clone())).collect());
        if let Err(e) = T::deserialize(&single) {
            if !e.to_string().starts_with("missing field") {
                return format!(".{k}");
            }
        }
    }
    String::new()
}

/// What `typeof` says, for messages.
pub fn kind_of(v: &JsValue) -> String {
    if v.is_null() {
        return "null".into();
    }
    v.js_typeof().as_string().map(|t| format!("a {t}")).unwrap_or_else(|| "a value".into())
}

/// A string argument; a `TypeError` naming `name` for anything else or one longer than
/// [`MAX_STRING_CHARS`]. Lone surrogates become U+FFFD.
pub fn string(v: &JsValue, name: &str) -> Result<String, JsValue> {
    let len = string_length(v);
    if len < 0.0 {
        return Err(type_error(&format!("{name} must be a string, not {}", kind_of(v))));
    }
    if len > f64::from(MAX_STRING_CHARS) {
        return Err(type_error(&format!("{name} is longer than {MAX_STRING_CHARS} characters")));
    }
    v.as_string().ok_or_else(|| type_error(&format!("{name} must be a string")))
}

/// An optional string argument (`undefined` and `null` are none).
pub fn opt_string(v: &JsValue, name: &str) -> Result<Option<String>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    string(v, name).map(Some)
}

/// An array of strings; a `TypeError` naming `name` (and the index) for anything else.
pub fn string_array(v: &JsValue, name: &str) -> Result<Vec<String>, JsValue> {
    if !v.is_object() {
        return Err(type_error(&format!("{name} must be an array of strings, not {}", kind_of(v))));
    }
    let value = data(v).map_err(|e| type_error(&e.describe(name)))?;
    let Value::Array(items) = value else {
        return Err(type_error(&format!("{name} must be an array of strings")));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s),
            _ => Err(type_error(&format!("{name}[{i}] must be a string"))),
        })
        .collect()
}

/// An optional number argument; a `TypeError` naming `name` for anything but a number.
pub fn opt_number(v: &JsValue, name: &str) -> Result<Option<f64>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.as_f64().map(Some).ok_or_else(|| type_error(&format!("{name} must be a number, not {}", kind_of(v))))
}

/// A number argument; a `TypeError` naming `name` for anything but a number.
pub fn number(v: &JsValue, name: &str) -> Result<f64, JsValue> {
    opt_number(v, name)?.ok_or_else(|| type_error(&format!("{name} must be a number, not {}", kind_of(v))))
}

/// Bytes given by a caller or a store, read within a cap.
pub enum Bytes {
    /// A string, as its UTF-8 bytes.
    Text(Vec<u8>),
    /// A fresh view over the caller's bytes (read through the intrinsic getters), and its length.
    View(Uint8Array, u32),
}

/// Why bytes could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BytesError {
    /// Not a string, a Uint8Array or an ArrayBuffer.
    NotBytes,
    /// Longer than the cap (the length it claims, in bytes or UTF-16 units).
    TooLarge(u64),
    /// A store's Uint8Array whose own `length` lies or throws (why).
    Lying(String),
}

impl Bytes {
    /// The length in bytes.
    pub fn size(&self) -> usize {
        match self {
            Bytes::Text(b) => b.len(),
            Bytes::View(_, n) => *n as usize,
        }
    }

    /// The first `n` bytes (all of them when there are fewer).
    pub fn prefix(&self, n: usize) -> Vec<u8> {
        match self {
            Bytes::Text(b) => b[..n.min(b.len())].to_vec(),
            Bytes::View(view, len) => {
                let n = n.min(*len as usize) as u32;
                view.subarray(0, n).to_vec()
            }
        }
    }

    /// Every byte.
    pub fn into_vec(self) -> Vec<u8> {
        match self {
            Bytes::Text(b) => b,
            Bytes::View(view, _) => view.to_vec(),
        }
    }
}

/// A string, Uint8Array or ArrayBuffer of at most `max` bytes. Nothing is copied before its
/// length is known to be within the cap; the caller's own `length`, `subarray` or `set` are never
/// used for the copy, and a Uint8Array whose own `length` disagrees with its bytes (or throws) is
/// refused ([`BytesError::Lying`]).
pub fn bytes(v: &JsValue, max: u32) -> Result<Bytes, BytesError> {
    let got = bounded_bytes(v, max, true).map_err(pass_traps).map_err(|_| BytesError::NotBytes)?;
    if Array::is_array(&got) {
        // [why], made by boundary.js.
        let why: Array = got.unchecked_into();
        return Err(BytesError::Lying(why.get(0).as_string().unwrap_or_default()));
    }
    if let Some(n) = got.as_f64() {
        return Err(BytesError::TooLarge(n.max(0.0) as u64));
    }
    if got.is_string() {
        let text = got.as_string().unwrap_or_default().into_bytes();
        if text.len() > max as usize {
            return Err(BytesError::TooLarge(text.len() as u64));
        }
        return Ok(Bytes::Text(text));
    }
    match got.dyn_into::<Uint8Array>() {
        // A view this module made, over at most `max` bytes.
        Ok(view) => {
            let n = view.length();
            Ok(Bytes::View(view, n))
        }
        Err(_) => Err(BytesError::NotBytes),
    }
}

/// How a store call ended.
pub enum StoreAnswer {
    /// It answered (not yet read: see [`json`] and [`bytes`]).
    Value(JsValue),
    /// It threw or rejected.
    Failed(String),
    /// It did not answer within the time.
    TimedOut,
}

/// Calls `f(a, b)` on `this` and waits at most `ms` for the answer; never fails otherwise.
pub async fn call_store(f: &Function, this: &JsValue, a: &JsValue, b: &JsValue, ms: u32) -> StoreAnswer {
    let answer = match call_store_js(f, this, a, b, ms) {
        Ok(p) => p,
        Err(e) => return StoreAnswer::Failed(describe_error(pass_traps(e))),
    };
    // A synchronous answer is the pair itself; otherwise a promise boundary.js made, which always
    // resolves, to [tag, value].
    let settled = if Array::is_array(&answer) {
        answer
    } else {
        match wasm_bindgen_futures::JsFuture::from(Promise::unchecked_from_js(answer)).await {
            Ok(v) => v,
            Err(e) => return StoreAnswer::Failed(describe_error(e)),
        }
    };
    let pair: Array = settled.unchecked_into();
    match pair.get(0).as_f64().map(|t| t as u8) {
        Some(0) => StoreAnswer::Value(pair.get(1)),
        Some(2) => StoreAnswer::TimedOut,
        _ => StoreAnswer::Failed(pair.get(1).as_string().unwrap_or_else(|| "failed".into())),
    }
}

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = describeError)]
    fn describe_error_js(e: &JsValue) -> String;
}

/// A caught exception as text (read in JS, inside try/catch).
pub fn describe_error(e: JsValue) -> String {
    describe_error_js(&e)
}
