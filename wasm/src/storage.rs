//! `JsStorage`: a JS object with `list` and `read` seen as a [`Storage`]. Whatever the object
//! does (throws, rejects, answers with the wrong type, never answers) becomes a `StorageError`.

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use skillwasm::store::{ListEntry, ListPage, LocalFuture, SkipHint, Storage, StorageError};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(typescript_custom_section)]
const TS_STORAGE: &'static str = r#"
/** One object in a listing. */
export interface ListEntry {
  /** `/`-separated, relative to the store's root (see assertKey). */
  key: string;
  /** Size in bytes, when the store knows it without reading. */
  size?: number;
  /** Changes whenever the content changes (a hash, a version, size + mtime ...). */
  etag?: string;
}

/** One page of a listing. */
export interface ListPage {
  /** Keys in lexicographic (UTF-16 code unit, JS `<`) order. May hold fewer than `limit`. */
  entries: ListEntry[];
  /** Present when more keys follow: pass it back to get the next page. Opaque. */
  cursor?: string;
  /** What the adapter left out and why (a link leaving the root, an unreadable directory ...). */
  warnings?: { key: string; message: string }[];
}

/**
 * Where skills come from. Keys are `/`-separated and relative to the store's root: non-empty
 * segments, no leading `/`, no `.` or `..` segment, no backslash, no control character, no
 * `%2e`/`%2f`/`%5c` percent-encoding. A prefix is `""` or a valid key followed by `/`. An adapter
 * rejects (TypeError) a bad key or prefix before touching anything.
 */
export interface SkillStorage {
  /**
   * Every key under prefix, at any depth, in pages. A page may hold fewer keys than asked. `skip`
   * (see {@link ListSkip}) names directories the caller will drop: a store may leave them out.
   */
  list(prefix: string, opts?: { cursor?: string; limit?: number; skip?: ListSkip }): Promise<ListPage>;
  /**
   * The bytes of one object, or null when it does not exist. `maxBytes` asks for a prefix only:
   * at most that many bytes from the start.
   */
  read(key: string, opts?: { maxBytes?: number }): Promise<Uint8Array | string | null>;
}
"#;

pub struct JsStorage {
    this: JsValue,
    list: Function,
    read: Function,
    timeout_ms: u32,
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn describe(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if v.is_undefined() {
        "undefined".into()
    } else if let Some(s) = v.as_string() {
        format!("the string {s:?}")
    } else if let Some(e) = v.dyn_ref::<js_sys::Error>() {
        String::from(e.message())
    } else {
        v.js_typeof().as_string().map(|t| format!("a {t}")).unwrap_or_else(|| "a value".into())
    }
}

impl JsStorage {
    /// Wraps `obj`, which must have `list` and `read` functions.
    pub fn new(obj: JsValue, timeout_ms: u32) -> Result<JsStorage, String> {
        let list = get(&obj, "list")
            .dyn_into::<Function>()
            .map_err(|_| "a storage must have a list(prefix, opts) function".to_string())?;
        let read = get(&obj, "read")
            .dyn_into::<Function>()
            .map_err(|_| "a storage must have a read(key, opts) function".to_string())?;
        Ok(JsStorage { this: obj, list, read, timeout_ms })
    }

    /// Calls `f(a, b)` and waits for its answer, at most `timeout_ms`.
    async fn call(&self, what: &str, f: &Function, a: &JsValue, b: &JsValue) -> Result<JsValue, StorageError> {
        let ret = f.call2(&self.this, a, b).map_err(|e| StorageError(format!("{what} threw: {}", describe(&e))))?;
        if !ret.has_type::<Promise>() && !get(&ret, "then").is_function() {
            return Ok(ret);
        }
        let answer = Promise::resolve(&ret);
        let timer: Rc<RefCell<Option<JsValue>>> = Rc::default();
        let ms = self.timeout_ms;
        let timer_slot = timer.clone();
        let timeout = Promise::new(&mut |_resolve, reject| {
            let set_timeout = get(&js_sys::global(), "setTimeout");
            if let Ok(set_timeout) = set_timeout.dyn_into::<Function>() {
                let message = JsValue::from_str("__skillwasm_timeout__");
                let bound = reject.bind1(&JsValue::NULL, &message);
                *timer_slot.borrow_mut() = set_timeout.call2(&JsValue::NULL, &bound, &JsValue::from(ms)).ok();
            }
        });
        let raced = Promise::race(&Array::of2(&answer, &timeout));
        let result = JsFuture::from(raced).await;
        if let Some(id) = timer.borrow_mut().take() {
            if let Ok(clear) = get(&js_sys::global(), "clearTimeout").dyn_into::<Function>() {
                let _ = clear.call1(&JsValue::NULL, &id);
            }
        }
        result.map_err(|e| {
            if e.as_string().as_deref() == Some("__skillwasm_timeout__") {
                StorageError(format!("{what} did not answer within {ms} ms"))
            } else {
                StorageError(format!("{what} rejected: {}", describe(&e)))
            }
        })
    }
}

fn parse_page(v: &JsValue) -> Result<ListPage, StorageError> {
    let bad = || StorageError(format!("list answered with {} instead of {{ entries, cursor? }}", describe(v)));
    if !v.is_object() {
        return Err(bad());
    }
    let entries = get(v, "entries").dyn_into::<Array>().map_err(|_| bad())?;
    let mut page = ListPage::default();
    for e in entries.iter() {
        let key = get(&e, "key")
            .as_string()
            .ok_or_else(|| StorageError(format!("a list entry has no string key: {}", describe(&e))))?;
        let size = get(&e, "size").as_f64().filter(|s| *s >= 0.0 && s.is_finite()).map(|s| s as u64);
        let etag = get(&e, "etag").as_string();
        page.entries.push(ListEntry { key, size, etag });
    }
    let cursor = get(v, "cursor");
    page.cursor = cursor.as_string().filter(|c| !c.is_empty());
    if page.cursor.is_none() && !cursor.is_undefined() && !cursor.is_null() && cursor.as_string().is_none() {
        return Err(StorageError(format!("list answered with a cursor that is {}", describe(&cursor))));
    }
    if let Ok(warnings) = get(v, "warnings").dyn_into::<Array>() {
        for w in warnings.iter() {
            page.warnings.push((
                get(&w, "key").as_string().unwrap_or_default(),
                get(&w, "message").as_string().unwrap_or_default(),
            ));
        }
    }
    Ok(page)
}

impl Storage for JsStorage {
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let opts = Object::new();
            if let Some(c) = cursor {
                let _ = Reflect::set(&opts, &"cursor".into(), &JsValue::from_str(c));
            }
            let _ = Reflect::set(&opts, &"limit".into(), &JsValue::from(limit));
            let v = self.call(&format!("list({prefix:?})"), &self.list, &JsValue::from_str(prefix), &opts).await?;
            parse_page(&v)
        })
    }

    /// As `list`, with the skip hint as `opts.skip` (see `ListSkip` in the types).
    fn list_skipping<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        skip: &'a SkipHint,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let opts = Object::new();
            if let Some(c) = cursor {
                let _ = Reflect::set(&opts, &"cursor".into(), &JsValue::from_str(c));
            }
            let _ = Reflect::set(&opts, &"limit".into(), &JsValue::from(limit));
            let _ = Reflect::set(&opts, &"skip".into(), &crate::rules::skip_to_js(skip));
            let v = self.call(&format!("list({prefix:?})"), &self.list, &JsValue::from_str(prefix), &opts).await?;
            parse_page(&v)
        })
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
            let v = self.call(&format!("read({key:?})"), &self.read, &JsValue::from_str(key), &opts).await?;
            if v.is_null() || v.is_undefined() {
                Ok(None)
            } else if let Some(a) = v.dyn_ref::<Uint8Array>() {
                Ok(Some(a.to_vec()))
            } else if let Some(s) = v.as_string() {
                Ok(Some(s.into_bytes()))
            } else if let Some(b) = v.dyn_ref::<js_sys::ArrayBuffer>() {
                Ok(Some(Uint8Array::new(b).to_vec()))
            } else {
                Err(StorageError(format!(
                    "read({key:?}) answered with {} instead of bytes, a string or null",
                    describe(&v)
                )))
            }
        })
    }
}
