//! `JsStorage`: a JS object with `list` and `read` seen as a [`Storage`]. Whatever the object
//! does (throws, rejects, answers with the wrong type, never answers) becomes a `StorageError`.

use super::convert::{self, BytesError, StoreAnswer};
use super::page_lines;
use js_sys::{Function, Object, Reflect};
use serde_json::Value;
use skillwasm::consent::is_content_digest;
use skillwasm::store::{
    heads, lines, Head, HeadPage, HeadRequest, ListEntry, ListPage, ListedPage, LocalFuture, SkipHint, Storage,
    StorageError,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A JS store seen as a [`Storage`]. Every answer is read through the bounded converter.
pub struct JsStorage {
    this: JsValue,
    list: Function,
    read: Function,
    /// `listSkillPrefixes`, when the store offers it.
    heads: Option<Function>,
    timeout_ms: u32,
    max_object_bytes: u32,
    remote: bool,
    /// `origin`: where the store's skills come from, for the host's consent (read once).
    origin: Option<String>,
    /// `headsCostReads: true` (with `listSkillPrefixes`): see [`Storage::heads_cost_reads`].
    heads_cost_reads: bool,
    /// `roots`: where the store's skills are, when it says (see [`Storage::roots`]).
    roots: Option<Vec<String>>,
}

/// Most roots a store may declare.
const MAX_DECLARED_ROOTS: u32 = 64;
/// Longest root a store may declare, in UTF-16 code units.
const MAX_ROOT_CHARS: u32 = 4096;

/// The store's `roots` (read once, through a catching `Reflect.get`): absent or null is none; an
/// array of at most [`MAX_DECLARED_ROOTS`] strings is the store's layout; anything else is a
/// mistake of the store's author, said as such.
fn declared_roots(obj: &JsValue) -> Result<Option<Vec<String>>, String> {
    let v = Reflect::get(obj, &JsValue::from_str("roots")).map_err(|_| "reading storage.roots threw".to_string())?;
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    let bad = || {
        format!("storage.roots must be an array of at most {MAX_DECLARED_ROOTS} strings, not {}", convert::kind_of(&v))
    };
    let array: &js_sys::Array = v.dyn_ref().ok_or_else(bad)?;
    if array.length() > MAX_DECLARED_ROOTS {
        return Err(bad());
    }
    let mut roots = Vec::with_capacity(array.length() as usize);
    for item in array.iter() {
        let s: &js_sys::JsString = item.dyn_ref().ok_or_else(bad)?;
        if s.length() > MAX_ROOT_CHARS {
            return Err(format!("storage.roots holds a root longer than {MAX_ROOT_CHARS} characters"));
        }
        roots.push(String::from(s));
    }
    Ok(Some(roots))
}

/// The longest `origin` a store may give, in UTF-16 units.
const MAX_ORIGIN_CHARS: u32 = 2048;

/// A store's `origin` (a string of at most [`MAX_ORIGIN_CHARS`], or absent), read once through
/// the catching `Reflect.get`; another value, or a getter that throws, is refused.
fn origin_of(obj: &JsValue) -> Result<Option<String>, String> {
    let v = Reflect::get(obj, &JsValue::from_str("origin"))
        .map_err(|e| format!("reading the storage's origin threw: {}", convert::describe_error(e)))?;
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.dyn_ref::<js_sys::JsString>() {
        Some(s) if s.length() > 0 && s.length() <= MAX_ORIGIN_CHARS => Ok(Some(String::from(s))),
        Some(_) => Err(format!("a storage's origin must be 1 to {MAX_ORIGIN_CHARS} characters")),
        None => Err(format!("a storage's origin must be a string, not {}", convert::kind_of(&v))),
    }
}

/// Most entries (and warnings) one page may hold.
pub const MAX_PAGE_ENTRIES: usize = 250_000;

impl JsStorage {
    /// Wraps `obj`, which must have `list` and `read` functions. Calls wait at most `timeout_ms`;
    /// no read brings more than `max_object_bytes` (+1, to tell an object at the cap from one above).
    pub fn new(obj: JsValue, timeout_ms: u32, max_object_bytes: u32) -> Result<JsStorage, String> {
        let function = |key: &str| {
            // Reflect.get is a catching import: a throwing getter or trap is an Err here.
            Reflect::get(&obj, &JsValue::from_str(key)).ok().and_then(|f| f.dyn_into::<Function>().ok())
        };
        let list = function("list").ok_or_else(|| "a storage must have a list(prefix, opts) function".to_string())?;
        let read = function("read").ok_or_else(|| "a storage must have a read(key, opts) function".to_string())?;
        // Flags are read once, through a catching Reflect.get, and only `true` sets one.
        let flag =
            |key: &str| Reflect::get(&obj, &JsValue::from_str(key)).ok().is_some_and(|v| v.as_bool() == Some(true));
        // `remote: true`: a store over the network.
        let remote = flag("remote");
        let heads = function("listSkillPrefixes");
        let heads_cost_reads = heads.is_some() && flag("headsCostReads");
        let roots = declared_roots(&obj)?;
        let origin = origin_of(&obj)?;
        Ok(JsStorage {
            this: obj,
            list,
            read,
            heads,
            timeout_ms,
            max_object_bytes,
            remote,
            origin,
            heads_cost_reads,
            roots,
        })
    }

    /// The store's `location` (where its keys are, for the locations the model is shown), when it
    /// is a string; read through `Reflect.get`, a catching import, so a throwing getter is none.
    pub fn current_location(&self) -> Option<String> {
        let v = Reflect::get(&self.this, &JsValue::from_str("location")).ok()?;
        convert::opt_string(&v, "location").ok().flatten()
    }

    /// Calls `f(a, b)` and waits for its answer, at most `timeout_ms`.
    async fn call(&self, what: &str, f: &Function, a: &JsValue, b: &JsValue) -> Result<JsValue, StorageError> {
        match convert::call_store(f, &self.this, a, b, self.timeout_ms).await {
            StoreAnswer::Value(v) => Ok(v),
            StoreAnswer::Failed(e) => Err(StorageError(format!("{what} {e}"))),
            StoreAnswer::TimedOut => Err(StorageError(format!("{what} did not answer within {} ms", self.timeout_ms))),
        }
    }

    /// Calls the store's `list(prefix, { cursor?, limit, skip?, unlessVersion? })` and waits for
    /// its answer.
    async fn list_call(
        &self,
        prefix: &str,
        cursor: Option<&str>,
        limit: u32,
        skip: Option<&SkipHint>,
        unless_version: Option<&str>,
    ) -> Result<JsValue, StorageError> {
        let opts = list_options(cursor, limit, skip);
        if let Some(version) = unless_version {
            let _ = Reflect::set(&opts, &"unlessVersion".into(), &JsValue::from_str(version));
        }
        self.call(&format!("list({prefix:?})"), &self.list, &JsValue::from_str(prefix), &opts).await
    }
}

/// A page as JSON (read once, within the bounds) to a [`ListPage`].
fn parse_page(v: &JsValue) -> Result<ListPage, StorageError> {
    parse_page_with(v, None).map(|p| p.page)
}

/// Longest `headError` message kept.
const MAX_HEAD_ERROR_CHARS: usize = 1000;

/// A page of `listSkillPrefixes`: the page, and each entry's `head` (bytes, at most
/// `prefix_bytes`) or `headError` (a message).
fn parse_page_with(v: &JsValue, heads: Option<u32>) -> Result<HeadPage, StorageError> {
    let not_a_page = |what: &str| StorageError(format!("list answered with {what} instead of {{ entries, cursor? }}"));
    if !v.is_object() {
        return Err(not_a_page(&convert::kind_of(v)));
    }
    // The usual page, as lines: no JSON value per entry.
    let lines =
        page_lines::read(v, heads.is_some(), MAX_PAGE_ENTRIES as u32, convert::MAX_JSON_CHARS, MAX_HEAD_ERROR_CHARS);
    if let Some(lines) = lines {
        return Ok(with_heads(lines.page, lines.head_errors, lines.taken, heads));
    }
    // Keys with a lone surrogate get a NUL, which the key check refuses: that entry is dropped.
    // Heads are handed back unread (bytes are not JSON).
    let (value, taken) = convert::page(v, heads.is_some()).map_err(|e| StorageError(e.describe("the page")))?;
    let Value::Object(mut page) = value else { return Err(not_a_page("an array")) };
    let Some(Value::Array(entries)) = page.remove("entries") else { return Err(not_a_page("no entries array")) };
    if entries.len() > MAX_PAGE_ENTRIES {
        return Err(StorageError(format!(
            "list answered with {} entries in one page, more than {MAX_PAGE_ENTRIES}",
            entries.len()
        )));
    }
    let mut out = ListPage::default();
    let mut head_errors = Vec::new();
    for e in entries {
        let Some(key) = e.get("key").and_then(Value::as_str) else {
            let shown = serde_json::to_string(&e).unwrap_or_default();
            let shown: String = shown.chars().take(80).collect();
            return Err(StorageError(format!("a list entry has no string key: {shown}")));
        };
        let size = e.get("size").and_then(Value::as_f64).filter(|s| *s >= 0.0 && s.is_finite()).map(|s| s as u64);
        let etag = e.get("etag").and_then(Value::as_str).map(str::to_string);
        let digest = e.get("digest").and_then(Value::as_str).filter(|d| is_content_digest(d)).map(str::to_string);
        if heads.is_some() {
            if let Some(message) = e.get("headError").filter(|m| !m.is_null()) {
                let text = message.as_str().map(str::to_string).unwrap_or_else(|| "a read that failed".to_string());
                let text: String = text.chars().take(MAX_HEAD_ERROR_CHARS).collect();
                head_errors.push((key.to_string(), Head::Failed(text)));
            }
        }
        out.entries.push(ListEntry { key: key.to_string(), size, etag, digest });
    }
    match page.remove("cursor") {
        None | Some(Value::Null) => {}
        Some(Value::String(c)) => out.cursor = Some(c).filter(|c| !c.is_empty()),
        Some(other) => {
            let kind = match other {
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::Array(_) => "an array",
                _ => "an object",
            };
            return Err(StorageError(format!("list answered with a cursor that is {kind}")));
        }
    }
    if heads.is_some() {
        if let Some(Value::Array(directories)) = page.remove("directories") {
            let left = MAX_PAGE_ENTRIES.saturating_sub(out.entries.len());
            out.directories =
                directories.into_iter().take(left).filter_map(|d| d.as_str().map(str::to_string)).collect();
        }
    }
    if let Some(Value::Array(warnings)) = page.remove("warnings") {
        for w in warnings.into_iter().take(MAX_PAGE_ENTRIES) {
            let text = |k: &str| w.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            out.warnings.push((text("key"), text("message")));
        }
    }
    Ok(with_heads(out, head_errors, taken, heads))
}

/// A page and its heads: those handed back unread (`taken`), read now as bytes of at most `heads`
/// each, then the failed ones.
fn with_heads(out: ListPage, head_errors: Vec<(String, Head)>, taken: convert::Taken, heads: Option<u32>) -> HeadPage {
    let mut got = HeadPage::default();
    if let Some(most) = heads {
        for (path, value) in taken {
            // Paths this module asked for: entries.<index>.head.
            let index = path.split('.').nth(1).and_then(|i| i.parse::<usize>().ok());
            let Some(entry) = index.and_then(|i| out.entries.get(i)) else { continue };
            if value.is_null() || value.is_undefined() {
                continue;
            }
            let head = match convert::bytes(&value, most) {
                Ok(b) => Head::Bytes(b.into_vec()),
                Err(BytesError::TooLarge(n)) => {
                    Head::Failed(format!("the head came with {n} bytes, more than the {most} asked for"))
                }
                Err(BytesError::Lying(why)) => Head::Failed(format!("the head is {why}")),
                Err(BytesError::NotBytes) => {
                    Head::Failed(format!("the head is {} instead of bytes or a string", convert::kind_of(&value)))
                }
            };
            got.heads.push((entry.key.clone(), head));
        }
    }
    // After the bytes: an entry with both a head and a headError counts as failed (the last
    // head of a key is the one kept).
    got.heads.extend(head_errors);
    got.page = out;
    got
}

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = packedLines)]
    fn packed_lines(v: &JsValue, max: u32) -> Result<JsValue, JsValue>;
}

/// Most UTF-16 units of a packed page's `lines`.
const MAX_PACKED_CHARS: u32 = 64 * 1024 * 1024;

/// A page of `listSkillPrefixes` answered packed (asked with `packed: true`): `{ packed: { lines,
/// heads }, cursor?, warnings? }`, where `lines` holds one line per entry (`key`, or
/// `key\tsize\tetag\tN` with the entry's head the next `N` bytes of `heads`, or
/// `key\tsize\tetag\t!message` with a headError; size and etag may be empty) and `heads` the
/// heads one after the other. One string and one copy of bytes per page instead of a value per
/// entry. None when the page has no `packed` (it is read the ordinary way).
fn packed_page(v: &JsValue, most: u32) -> Option<Result<HeadPage, StorageError>> {
    if !v.is_object() {
        return None;
    }
    let packed = Reflect::get(v, &JsValue::from_str("packed")).ok().filter(|p| !p.is_undefined())?;
    Some(read_packed(v, &packed, most))
}

fn read_packed(v: &JsValue, packed: &JsValue, most: u32) -> Result<HeadPage, StorageError> {
    let refused = |what: &str| StorageError(format!("listSkillPrefixes answered with a packed page whose {what}"));
    if !packed.is_object() {
        return Err(refused("packed is not an object"));
    }
    let field =
        |k: &str| Reflect::get(packed, &JsValue::from_str(k)).map_err(|_| refused(&format!("{k} cannot be read")));
    let text = packed_lines(&field("lines")?, MAX_PACKED_CHARS)
        .ok()
        .and_then(convert::utf8_text)
        .ok_or_else(|| refused(&format!("lines is not a string of at most {MAX_PACKED_CHARS} characters")))?;
    let heads = field("heads")?;
    let heads = match convert::bytes(&heads, heads::MAX_HEAD_BYTES as u32) {
        Ok(b) => b.into_vec(),
        Err(BytesError::TooLarge(n)) => {
            return Err(refused(&format!("heads hold {n} bytes, more than one listing may")))
        }
        Err(_) => return Err(refused(&format!("heads are {} instead of bytes", convert::kind_of(&heads)))),
    };
    // The cursor and warnings, read as an ordinary page's are.
    let rest = Object::new();
    let _ = Reflect::set(&rest, &"entries".into(), &js_sys::Array::new());
    for k in ["cursor", "warnings"] {
        let value = Reflect::get(v, &JsValue::from_str(k)).map_err(|_| refused(&format!("{k} cannot be read")))?;
        if !value.is_undefined() {
            let _ = Reflect::set(&rest, &JsValue::from_str(k), &value);
        }
    }
    let mut got = parse_page_with(&rest, None)?;
    let mut at = 0usize;
    for line in text.split('\n').filter(|l| !l.is_empty()) {
        if got.page.entries.len() + got.page.directories.len() >= MAX_PAGE_ENTRIES {
            return Err(refused(&format!("lines are more than {MAX_PAGE_ENTRIES} entries")));
        }
        // A directory the store entered (asked with listOnly): a key and its `/`, nothing else.
        if line.ends_with('/') && !line.contains('\t') {
            got.page.directories.push(line.to_string());
            continue;
        }
        let entry = lines::entry_line(line).map_err(refused)?;
        let key = entry.key.to_string();
        let (size, etag, digest) = (entry.size, entry.etag.map(str::to_string), entry.digest.map(str::to_string));
        match entry.head {
            None => {}
            Some(head) => {
                if let Some(failed) = lines::head_error(head, MAX_HEAD_ERROR_CHARS) {
                    got.heads.push((key.clone(), failed));
                } else {
                    let n = head.parse::<usize>().map_err(|_| refused("head lengths are not numbers"))?;
                    let bytes = at
                        .checked_add(n)
                        .and_then(|end| heads.get(at..end))
                        .ok_or_else(|| refused("heads are shorter than their lengths say"))?;
                    at += n;
                    let head = if n > most as usize {
                        Head::Failed(format!("the head came with {n} bytes, more than the {most} asked for"))
                    } else {
                        Head::Bytes(bytes.to_vec())
                    };
                    got.heads.push((key.clone(), head));
                }
            }
        }
        got.page.entries.push(ListEntry { key, size, etag, digest });
    }
    Ok(got)
}

/// The `opts` of a listing call: `{ cursor?, limit, skip? }`.
fn list_options(cursor: Option<&str>, limit: u32, skip: Option<&SkipHint>) -> Object {
    let opts = Object::new();
    if let Some(c) = cursor {
        let _ = Reflect::set(&opts, &"cursor".into(), &JsValue::from_str(c));
    }
    let _ = Reflect::set(&opts, &"limit".into(), &JsValue::from(limit));
    if let Some(skip) = skip {
        let _ = Reflect::set(&opts, &"skip".into(), &super::rules::skip_to_js(skip));
    }
    opts
}

impl Storage for JsStorage {
    fn roots(&self) -> Option<Vec<String>> {
        self.roots.clone()
    }

    fn location(&self) -> Option<String> {
        self.current_location()
    }

    fn remote(&self) -> bool {
        self.remote
    }

    fn origin(&self) -> Option<String> {
        self.origin.clone()
    }

    fn heads_cost_reads(&self) -> bool {
        self.heads_cost_reads
    }

    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move { parse_page(&self.list_call(prefix, cursor, limit, None, None).await?) })
    }

    /// As `list`, with the skip hint as `opts.skip` (see `ListSkip` in the types).
    fn list_skipping<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        skip: &'a SkipHint,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move { parse_page(&self.list_call(prefix, cursor, limit, Some(skip), None).await?) })
    }

    /// As `list_skipping`, a page of the usual shape handed on as its lines, unread, with the
    /// store's `version`; with `unless_version` as `opts.unlessVersion`, and `unchanged: true`
    /// taken at its word. None when the store lists with heads (discovery asks for those instead).
    fn list_lines<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        skip: &'a SkipHint,
        unless_version: Option<&'a str>,
    ) -> Option<LocalFuture<'a, Result<ListedPage, StorageError>>> {
        if self.heads.is_some() {
            return None;
        }
        Some(Box::pin(async move {
            let v = self.list_call(prefix, cursor, limit, Some(skip), unless_version).await?;
            if unless_version.is_some() && page_lines::unchanged(&v) {
                return Ok(ListedPage::Unchanged);
            }
            // Any page pageLines declines (another shape, warnings, not an object) is read as JSON,
            // which says what is wrong with it.
            match page_lines::text(&v, MAX_PAGE_ENTRIES as u32, convert::MAX_JSON_CHARS) {
                Some(text) => Ok(ListedPage::Lines { text, version: page_lines::version(&v) }),
                None => parse_page(&v).map(ListedPage::Page),
            }
        }))
    }

    /// `listSkillPrefixes(prefix, { cursor, limit, skip, files, prefixBytes, packed, listOnly? })`,
    /// when the store has it.
    fn list_with_heads<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        skip: &'a SkipHint,
        request: &'a HeadRequest,
    ) -> Option<LocalFuture<'a, Result<HeadPage, StorageError>>> {
        let f = self.heads.as_ref()?;
        Some(Box::pin(async move {
            let opts = list_options(cursor, limit, Some(skip));
            let files: js_sys::Array = request.names.iter().map(|n| JsValue::from_str(n)).collect();
            let _ = Reflect::set(&opts, &"files".into(), &files);
            let _ = Reflect::set(&opts, &"prefixBytes".into(), &JsValue::from(request.prefix_bytes));
            let _ = Reflect::set(&opts, &"packed".into(), &JsValue::TRUE);
            if !request.listed.is_empty() {
                let listed: js_sys::Array = request.listed.iter().map(|n| JsValue::from_str(n)).collect();
                let _ = Reflect::set(&opts, &"listOnly".into(), &listed);
            }
            let what = format!("listSkillPrefixes({prefix:?})");
            let v = self.call(&what, f, &JsValue::from_str(prefix), &opts).await?;
            match packed_page(&v, request.prefix_bytes) {
                Some(page) => page,
                None => parse_page_with(&v, Some(request.prefix_bytes)),
            }
        }))
    }

    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>> {
        Box::pin(async move {
            let opts = Object::new();
            if let Some(m) = max_bytes {
                let _ = Reflect::set(&opts, &"maxBytes".into(), &JsValue::from(m));
            }
            let what = format!("read({key:?})");
            let v = self.call(&what, &self.read, &JsValue::from_str(key), &opts).await?;
            if v.is_null() || v.is_undefined() {
                return Ok(None);
            }
            // Never more than was asked for, nor more than the cap (+1: the caller tells "at the
            // cap" from "above it"), and nothing copied before the length is known.
            let most = max_bytes.unwrap_or(u32::MAX).min(self.max_object_bytes.saturating_add(1));
            match convert::bytes(&v, most) {
                Ok(b) => Ok(Some(b.into_vec())),
                Err(BytesError::TooLarge(n)) => Err(StorageError(format!(
                    "{what} answered with {n} bytes (or characters), more than the {most} asked for"
                ))),
                Err(BytesError::Lying(why)) => Err(StorageError(format!("{what} answered with {why}"))),
                Err(BytesError::NotBytes) => Err(StorageError(format!(
                    "{what} answered with {} instead of bytes, a string or null",
                    convert::kind_of(&v)
                ))),
            }
        })
    }
}
