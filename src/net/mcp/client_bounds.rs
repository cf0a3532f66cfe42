//! What one server's listing may cost a host: the bounds every `skills/list` page and `skills/get`
//! result is read within, and the state a listing carries from one page to the next.
//!
//! A server chooses its page sizes and its cursors; without bounds a server that answers every page
//! with a fresh megabyte-long cursor makes the host keep and resend each one, page after page,
//! until the process runs out of memory. Here every message is measured (the length of its JSON
//! text) before its entries are read, every cursor is measured before it is sent back, and the
//! listing keeps a running total and a page count. The state kept between pages is constant in
//! size: a page count, a byte total, and the digest of one earlier cursor, against which a cycle
//! of cursors is found (Brent's method: the mark moves to the current cursor at every power of
//! two, so a cycle is found within twice its own length plus the pages before it).
//!
//! The defaults and why:
//! - [`DEFAULT_MAX_MESSAGE_BYTES`], 4 MiB: one `skills/get` of the largest skill the extension
//!   allows (512 files, each URI up to 4 KiB, a digest and a size) is about 2.2 MiB with its
//!   frontmatter; a page of a thousand ordinary entries is well under 1 MiB.
//! - [`DEFAULT_MAX_CURSOR_BYTES`], 8 KiB: a cursor names a position. A server that encodes the last
//!   skill URI it listed (as this package's own server does, in base64 after a prefix) needs up to
//!   4/3 of [`super::uri::MAX_URI_BYTES`] (4 KiB) plus its prefix; 8 KiB holds that with room, and
//!   is 1/128 of a megabyte cursor.
//! - [`DEFAULT_MAX_LISTING_BYTES`], 64 MiB: 100,000 skills with entries of ~500 bytes (a name,
//!   a description, a few files) are ~50 MiB of JSON.
//! - [`DEFAULT_MAX_PAGES`], 10,000: with the per-request timeout, the bound on a listing's time.
//!
//! Reaching a bound is [`codes::MCP_LISTING_BOUND`]: the listing stops there, the entries of the
//! pages read before are kept.

use super::client::{parse_get_result, parse_list_result, McpPage, McpSkill, ReadOptions};
use crate::diagnostic::{codes, Diagnostic};
use crate::net::digest::sha256_digest;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most bytes of JSON one `skills/list` page or `skills/get` result may have, by default.
pub const DEFAULT_MAX_MESSAGE_BYTES: u64 = 4 * 1024 * 1024;
/// Most bytes one cursor may have, by default.
pub const DEFAULT_MAX_CURSOR_BYTES: u64 = 8 * 1024;
/// Most bytes of JSON all the messages of one listing may have together, by default.
pub const DEFAULT_MAX_LISTING_BYTES: u64 = 64 * 1024 * 1024;
/// Most `skills/list` pages one listing may ask for, by default.
pub const DEFAULT_MAX_PAGES: u64 = 10_000;

/// The host's bounds on one listing of one server (each option of `mcpStorage` of the same name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ListingBounds {
    /// Most bytes of JSON in one page or `skills/get` result.
    pub max_message_bytes: u64,
    /// Most bytes in one cursor.
    pub max_cursor_bytes: u64,
    /// Most bytes of JSON in all the messages of one listing.
    pub max_listing_bytes: u64,
    /// Most pages in one listing.
    pub max_pages: u64,
}

impl Default for ListingBounds {
    fn default() -> Self {
        ListingBounds {
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            max_cursor_bytes: DEFAULT_MAX_CURSOR_BYTES,
            max_listing_bytes: DEFAULT_MAX_LISTING_BYTES,
            max_pages: DEFAULT_MAX_PAGES,
        }
    }
}

/// What a listing carries from one page to the next: constant in size, whatever the server sends.
/// The first page starts from the default (zero pages, zero bytes, no mark).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ListingState {
    /// Messages read so far (pages, and `skills/get` results counted against the listing).
    pub pages: u64,
    /// Bytes of JSON read so far.
    pub bytes: u64,
    /// The digest of the cursor a cycle is looked for against.
    pub mark: Option<String>,
}

/// A message as the host measured it: its value and the length of its JSON text, or `Over` when
/// its JSON text is longer than the budget it was read within ([`message_budget`]).
#[derive(Debug, Clone, Copy)]
pub enum Measured<'a> {
    /// Read within the budget: the value and its length in bytes of JSON.
    Read(&'a Value, u64),
    /// Longer than the budget: not read.
    Over,
}

/// The longest the next message of the listing may be: the per-message bound, or what is left of
/// the listing's total when that is less. Read the message within it, then hand it to
/// [`list_page`] or [`get_result`].
pub fn message_budget(bounds: &ListingBounds, state: &ListingState) -> u64 {
    bounds.max_message_bytes.min(bounds.max_listing_bytes.saturating_sub(state.bytes))
}

fn bound(message: String) -> Diagnostic {
    Diagnostic::warning(codes::MCP_LISTING_BOUND, message)
}

/// Why a message over the budget is refused.
fn over(bounds: &ListingBounds, state: &ListingState, what: &str) -> Diagnostic {
    if message_budget(bounds, state) < bounds.max_message_bytes {
        bound(format!(
            "the listing is over maxListingBytes ({} bytes) at this {what}: the rest is not read",
            bounds.max_listing_bytes
        ))
    } else {
        bound(format!("a {what} over maxMessageBytes ({} bytes): not read", bounds.max_message_bytes))
    }
}

fn counted(state: &ListingState, bytes: u64) -> ListingState {
    ListingState { pages: state.pages.saturating_add(1), bytes: state.bytes.saturating_add(bytes), ..state.clone() }
}

/// Reads one `skills/list` page of a listing in `state`: the message against its budget, its
/// entries ([`parse_list_result`]), then its cursor against the bounds and the cursors before it.
/// The page's `next_cursor` is `None` when the listing ends, or stops at a bound (then with a
/// [`codes::MCP_LISTING_BOUND`] diagnostic); the state to read the next page with comes back.
pub fn list_page(
    measured: Measured<'_>,
    bounds: &ListingBounds,
    state: &ListingState,
    opts: &ReadOptions,
) -> (McpPage, ListingState) {
    let (value, bytes) = match measured {
        Measured::Read(value, bytes) if bytes <= message_budget(bounds, state) => (value, bytes),
        _ => {
            let d = over(bounds, state, "skills/list page");
            return (McpPage { diagnostics: vec![d], ..McpPage::default() }, counted(state, 0));
        }
    };
    let mut page = parse_list_result(value, opts);
    let mut next = counted(state, bytes);
    let Some(cursor) = page.next_cursor.take() else { return (page, next) };
    let stop = if cursor.len() as u64 > bounds.max_cursor_bytes {
        Some(bound(format!(
            "the page's cursor is {} bytes, over maxCursorBytes ({}): the rest is not read",
            cursor.len(),
            bounds.max_cursor_bytes
        )))
    } else if next.pages >= bounds.max_pages {
        Some(bound(format!("the listing has more than maxPages ({}) pages: the rest is not read", bounds.max_pages)))
    } else {
        let digest = sha256_digest(cursor.as_bytes());
        if next.mark.as_deref() == Some(digest.as_str()) {
            Some(bound("the page's cursor was given before (the cursors cycle): the rest is not read".to_string()))
        } else {
            // Brent: the mark moves at every power of two.
            if next.pages.is_power_of_two() {
                next.mark = Some(digest);
            }
            None
        }
    };
    match stop {
        Some(d) => page.diagnostics.push(d),
        None => page.next_cursor = Some(cursor),
    }
    (page, next)
}

/// Reads one `skills/get` result within the budget ([`parse_get_result`]), counted against the
/// listing in `state`.
pub fn get_result(
    measured: Measured<'_>,
    bounds: &ListingBounds,
    state: &ListingState,
    opts: &ReadOptions,
) -> (Result<McpSkill, Diagnostic>, ListingState) {
    match measured {
        Measured::Read(value, bytes) if bytes <= message_budget(bounds, state) => {
            (parse_get_result(value, opts), counted(state, bytes))
        }
        _ => (Err(over(bounds, state, "skills/get result")), counted(state, 0)),
    }
}

#[cfg(test)]
#[path = "client_bounds_tests.rs"]
mod tests;
