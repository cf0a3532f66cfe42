//! A store's listing page of the usual shape read as lines: `pageLines` (boundary.js) writes one
//! string per page, which crosses as UTF-8 bytes and is split here into entries, without a JSON
//! value per entry. A page of any other shape is read as JSON (see `storage::parse_page_with`),
//! which says what is wrong with it.

use super::convert::{self, Taken};
use js_sys::Array;
use skillwasm::store::{Head, ListEntry, ListPage};
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

/// The page `v`, when it has the usual shape (at most `max_entries` entries, `max_chars` UTF-16
/// units of text); `head_chars` bounds each `headError` kept. None for any other page.
pub fn read(v: &JsValue, heads: bool, max_entries: u32, max_chars: u32, head_chars: usize) -> Option<LinesPage> {
    let taken_list = Array::new();
    let text = page_lines(v, max_entries, max_chars, heads, &taken_list).map_err(convert::pass_traps).ok()?;
    let text = convert::utf8_text(text)?;
    let b = text.as_bytes();
    let first_end = b.iter().position(|&c| c == b'\n').unwrap_or(b.len());
    let cursor = text.get(..first_end)?.strip_prefix('=').filter(|c| !c.is_empty()).map(str::to_string);
    let count = b.iter().filter(|&&c| c == b'\n').count();
    let mut page = ListPage { entries: Vec::with_capacity(count), cursor, ..ListPage::default() };
    let mut head_errors = Vec::new();
    // One pass over the bytes: each line's first three tabs end its key, size and etag; a head
    // error, the fourth field, keeps any tab of its own.
    let mut next = (first_end < b.len()).then_some(first_end + 1);
    while let Some(start) = next {
        let mut tabs = [0usize; 3];
        let mut found = 0;
        let mut end = start;
        while end < b.len() && b[end] != b'\n' {
            if b[end] == b'\t' && found < 3 {
                tabs[found] = end;
                found += 1;
            }
            end += 1;
        }
        next = (end < b.len()).then_some(end + 1);
        if found < 2 {
            return None;
        }
        let key = text.get(start..tabs[0])?;
        let size = match text.get(tabs[0] + 1..tabs[1])? {
            "" => None,
            n => Some(n.parse::<u64>().ok()?),
        };
        let etag_end = if found == 3 { tabs[2] } else { end };
        let etag = Some(text.get(tabs[1] + 1..etag_end)?).filter(|e| !e.is_empty()).map(str::to_string);
        if found == 3 {
            let error = text.get(tabs[2] + 1..end)?;
            let message: String = error.strip_prefix('!')?.chars().take(head_chars).collect();
            head_errors.push((key.to_string(), Head::Failed(message)));
        }
        page.entries.push(ListEntry { key: key.to_string(), size, etag });
    }
    let taken = (0..taken_list.length())
        .map(|i| {
            let pair: Array = taken_list.get(i).unchecked_into();
            (pair.get(0).as_string().unwrap_or_default(), pair.get(1))
        })
        .collect();
    Some(LinesPage { page, head_errors, taken })
}
