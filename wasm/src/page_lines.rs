//! A store's listing page of the usual shape read as lines: `pageLines` (boundary.js) writes one
//! string per page, split here into entries without a JSON value per entry. A page of any other
//! shape is read as JSON (see `storage::parse_page_with`), which says what is wrong with it.

use super::convert::{self, Taken};
use js_sys::Array;
use skillwasm::store::{Head, ListEntry, ListPage};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = pageLines)]
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
    let text = text.as_string()?;
    let mut lines = text.split('\n');
    let cursor = lines.next()?.strip_prefix('=').filter(|c| !c.is_empty()).map(str::to_string);
    let count = text.bytes().filter(|&b| b == b'\n').count();
    let mut page = ListPage { entries: Vec::with_capacity(count), cursor, ..ListPage::default() };
    let mut head_errors = Vec::new();
    for line in lines {
        let mut fields = line.splitn(4, '\t');
        let key = fields.next()?;
        let size = match fields.next()? {
            "" => None,
            n => Some(n.parse::<u64>().ok()?),
        };
        let etag = Some(fields.next()?).filter(|e| !e.is_empty()).map(str::to_string);
        if let Some(error) = fields.next() {
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
