//! A store's listing page of the usual shape read as lines: `pageLines` (boundary.js) writes one
//! string per page, which crosses as UTF-8 bytes and is read by `store::lines::page`, without a
//! JSON value per entry. A page of any other shape is read as JSON (see `storage::parse_page_with`),
//! which says what is wrong with it.

use super::convert::{self, Taken};
use js_sys::{Array, Reflect};
use skillwasm::store::{lines, Head, ListPage};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = pageLinesUtf8)]
    fn page_lines(
        v: &JsValue,
        max_entries: u32,
        max_chars: u32,
        heads: bool,
        taken: &Array,
    ) -> Result<JsValue, JsValue>;
}

/// A page read from its lines: the entries and cursor, each `headError` as a failed head, and the
/// `head` values handed back unread (`["entries.<i>.head", value]`).
pub struct LinesPage {
    /// The entries and the cursor (no warnings: a page with warnings is read as JSON).
    pub page: ListPage,
    /// `(key, Head::Failed(message))` for each entry with a `headError`, in entry order.
    pub head_errors: Vec<(String, Head)>,
    /// The heads, unread.
    pub taken: Taken,
}

/// The lines of the page `v` (no heads asked), not read into entries, when it has the usual
/// shape (at most `max_entries` entries, `max_chars` UTF-16 units of text); None for any other
/// page.
pub fn text(v: &JsValue, max_entries: u32, max_chars: u32) -> Option<String> {
    let taken_list = Array::new();
    let text = page_lines(v, max_entries, max_chars, false, &taken_list).map_err(convert::pass_traps).ok()?;
    convert::utf8_text(text)
}

/// The page `v`, when it has the usual shape (at most `max_entries` entries, `max_chars` UTF-16
/// units of text); `head_chars` bounds each `headError` kept. None for any other page.
pub fn read(v: &JsValue, heads: bool, max_entries: u32, max_chars: u32, head_chars: usize) -> Option<LinesPage> {
    let taken_list = Array::new();
    let text = page_lines(v, max_entries, max_chars, heads, &taken_list).map_err(convert::pass_traps).ok()?;
    let text = convert::utf8_text(text)?;
    let (page, head_errors) = lines::page(&text, head_chars)?;
    Some(LinesPage { page, head_errors, taken: convert::taken_pairs(&taken_list) })
}

/// Longest `version` kept: a longer one is as none (the next refresh lists the root again).
const MAX_VERSION_CHARS: f64 = 1024.0;

/// The page's `version`, when it is a non-empty string of at most [`MAX_VERSION_CHARS`] UTF-16
/// units; read through the catching `Reflect.get`, so a throwing getter is none.
pub fn version(v: &JsValue) -> Option<String> {
    let version = Reflect::get(v, &JsValue::from_str("version")).ok()?;
    if !(1.0..=MAX_VERSION_CHARS).contains(&convert::string_length(&version)) {
        return None;
    }
    version.as_string()
}

/// Whether the page says `unchanged: true` (read as [`version`] is).
pub fn unchanged(v: &JsValue) -> bool {
    Reflect::get(v, &JsValue::from_str("unchanged")).ok().is_some_and(|u| u.as_bool() == Some(true))
}
