//! Listing in pages and checked reads: every key is checked before the store sees it, and a store
//! that misbehaves (repeats a cursor, never ends, ignores `maxBytes`) is bounded here.

use super::keys;
use super::{CallStats, ListEntry, ListPage, Storage, StorageError};

/// Most pages a single listing may take, so a store that always answers with a cursor cannot
/// keep the core busy forever.
pub const MAX_PAGES: usize = 100_000;

/// Lists every key under `prefix`, page by page. `stop` is asked after each page and ends the
/// listing early when it says so (a scan bound was hit).
pub async fn list_all(
    storage: &dyn Storage,
    prefix: &str,
    page_size: u32,
    stats: &CallStats,
    mut stop: impl FnMut(&[ListEntry]) -> bool,
) -> Result<ListPage, StorageError> {
    keys::check_prefix(prefix).map_err(|e| StorageError(e.0))?;
    let mut all = ListPage::default();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        CallStats::bump(&stats.list_calls, 1);
        let page = storage.list(prefix, cursor.as_deref(), page_size).await?;
        if page.cursor.is_some() && page.cursor == cursor {
            return Err(StorageError("the store returned the same cursor twice".into()));
        }
        // A store must answer for the prefix it was asked about; anything else is dropped.
        all.entries
            .extend(page.entries.into_iter().filter(|e| e.key.starts_with(prefix) && keys::check_key(&e.key).is_ok()));
        all.warnings.extend(page.warnings);
        if stop(&all.entries) {
            return Ok(all);
        }
        match page.cursor {
            Some(c) => cursor = Some(c),
            None => return Ok(all),
        }
    }
    Err(StorageError(format!("listing {prefix:?} did not end after {MAX_PAGES} pages")))
}

/// Reads `key` after checking it.
pub async fn read_checked(
    storage: &dyn Storage,
    key: &str,
    max_bytes: Option<u32>,
    stats: &CallStats,
) -> Result<Option<Vec<u8>>, StorageError> {
    keys::check_key(key).map_err(|e| StorageError(e.0))?;
    CallStats::bump(&stats.read_calls, 1);
    let out = storage.read(key, max_bytes).await?;
    if let Some(b) = &out {
        CallStats::bump(&stats.bytes_read, b.len() as u64);
        if max_bytes.is_some_and(|m| b.len() > m as usize) {
            // A store that ignores maxBytes is still usable: cut what it sent.
            return Ok(Some(b[..max_bytes.unwrap_or_default() as usize].to_vec()));
        }
    }
    Ok(out)
}
