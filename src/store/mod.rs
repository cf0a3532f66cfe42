//! The storage port: what the core needs from a store, and nothing else. Shaped like an object
//! store (R2, IndexedDB and HTTP are; a directory is easy to present so): list keys under a prefix
//! in pages, read an object's bytes (optionally only the first bytes).
//!
//! What an implementation promises:
//! - `list` returns every key under `prefix`, at any depth, in lexicographic order, in pages; a
//!   page may hold fewer keys than `limit`; `cursor` is set exactly when more keys follow.
//! - `read` returns the object's bytes, at most `max_bytes` of them from the start when asked, or
//!   `None` when there is no such object.
//! - Keys are relative and `/`-separated; the core checks every key and prefix
//!   ([`keys`]) before it calls, and implementations check again.
//! - Failures are `Err(StorageError)`; the core turns them into diagnostics on the skills they
//!   touch and carries on.
//! - `list_with_heads` (optional) is a listing whose pages also bring the first bytes of the
//!   skill files listed, so a store where each call is costly answers a discovery in one call
//!   per page. Asked so, it may list only the files discovery uses and name the directories it
//!   entered instead of every other file in them.
//! - `list_skipping` may leave out the directories a [`SkipHint`] names; the default ignores the
//!   hint, which is always correct (callers filter what comes back).
//! - `list_lines` (optional) is a listing whose pages come as the store wrote them, as
//!   [`lines`], read into entries only by a caller that needs them: a refresh that finds a root's
//!   listing as it was (by its [`digest`]) reads none of it.
//! - A store that knows where its skills are says so ([`Storage::roots`]): a scope over it
//!   without roots of its own searches those, not the default roots.
//! - A store that keeps a version (a string it changes whenever an object under the listed prefix
//!   is put, replaced or deleted; a counter of the whole store will do) gives it with each page of
//!   `list_lines`. Asked again with that version as `unless_version`, while it still holds, it may
//!   answer [`ListedPage::Unchanged`] instead of pages: a refresh with nothing changed then costs
//!   one call per root, answered without listing a key.

use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;

#[cfg(feature = "tsify")]
use tsify::Tsify;

pub mod digest;
pub mod heads;
mod hint;
pub mod keys;
pub mod limits;
pub mod lines;
mod memory;
mod paging;
pub mod sha256;

pub use heads::{Head, HeadCollector, HeadPage, HeadRequest};
pub use hint::SkipHint;
pub use limits::{DEFAULT_MAX_OBJECT_BYTES, PREFIX_BYTES};
pub use memory::MemoryStorage;
pub use paging::{list_all, list_pages, read_checked, Pager, MAX_PAGES};

/// A boxed future that need not be `Send` (wasm is single-threaded; JS promises are not `Send`).
pub type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
/// One key of a listing, with what the store knows of the object.
pub struct ListEntry {
    /// The object's key.
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Its size in bytes, when the store knows it.
    pub size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Its etag (any string that changes when the content does), when the store has one.
    pub etag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// `sha256:<64 lowercase hex>` of its bytes, when the store knows it and holds its reads to
    /// it (an MCP server's manifest gives one per file, and the MCP store checks every read
    /// against it): a skill's content digest is then computed without a read. Any other form is
    /// dropped where a page is read.
    pub digest: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
/// One page of a listing.
pub struct ListPage {
    /// The keys of this page, in lexicographic order.
    pub entries: Vec<ListEntry>,
    /// Where the next page starts; set exactly when more keys follow.
    pub cursor: Option<String>,
    /// What the store skipped and why (a symlink loop, an unreadable directory ...).
    pub warnings: Vec<(String, String)>,
    /// The directories the store entered for this page (keys ending in `/`, in key order) when it
    /// listed only the files a [`HeadRequest`] names in `listed`, so that the caller still counts
    /// every directory; empty for an ordinary listing (its keys name their directories).
    pub directories: Vec<String>,
}

/// A page of [`Storage::list_lines`]: the store's lines ([`lines::page`] reads them, the cursor
/// line first), a page it answered in another form, read already, or word that nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListedPage {
    /// The page as lines, not read yet, and the store's version when it keeps one.
    Lines {
        /// The lines.
        text: String,
        /// The store's version as of this page (see the module docs), when it keeps one.
        version: Option<String>,
    },
    /// The page, read.
    Page(ListPage),
    /// The answer to a listing asked with `unless_version` while that version still holds: every
    /// key under the prefix is as it was when the store gave it, and no page follows.
    Unchanged,
}

/// A store call that failed: threw, rejected, answered with the wrong type, or timed out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageError(pub String);

impl std::fmt::Display for StorageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A store: list keys under a prefix in pages, read an object (see the module docs).
pub trait Storage {
    /// Keys under `prefix`, at any depth, from `cursor` on, at most `limit` of them.
    fn list<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>>;
    /// As [`Storage::list`], where the store may leave out the keys in directories `skip` names
    /// (below `prefix`). A store that walks directories implements it to save the walk; the
    /// default lists everything, which is always correct: callers filter what comes back.
    fn list_skipping<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        skip: &'a SkipHint,
    ) -> LocalFuture<'a, Result<ListPage, StorageError>> {
        let _ = skip;
        self.list(prefix, cursor, limit)
    }
    /// As [`Storage::list_skipping`], each page as the store's lines when it writes them so
    /// ([`ListedPage::Lines`]), so that a caller that may not need the entries does not read
    /// them. `None` (the default) when the store does not list so, or would rather list with
    /// heads ([`Storage::list_with_heads`]): the caller lists the ordinary way. With
    /// `unless_version` (a version an earlier page of this store gave), a store whose version is
    /// still that one may answer [`ListedPage::Unchanged`]; any other store ignores it.
    fn list_lines<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        skip: &'a SkipHint,
        unless_version: Option<&'a str>,
    ) -> Option<LocalFuture<'a, Result<ListedPage, StorageError>>> {
        let _ = (prefix, cursor, limit, skip, unless_version);
        None
    }
    /// As [`Storage::list_skipping`], bringing the first `request.prefix_bytes` bytes of the
    /// listed files `request.names` names, in the same call (see [`heads`]). `None` (the
    /// default) when the store does not offer it: the caller lists and reads the ordinary way.
    fn list_with_heads<'a>(
        &'a self,
        prefix: &'a str,
        cursor: Option<&'a str>,
        limit: u32,
        skip: &'a SkipHint,
        request: &'a HeadRequest,
    ) -> Option<LocalFuture<'a, Result<HeadPage, StorageError>>> {
        let _ = (prefix, cursor, limit, skip, request);
        None
    }
    /// Whether the store is over the network (a discovery index, an MCP server): its scope is then
    /// untrusted unless the host says otherwise. Default false.
    fn remote(&self) -> bool {
        false
    }
    /// Where the store's skills come from, as the host's consent prompt names it (a discovery
    /// index's origin, `mcp:<server>`); a store with one is remote for consent: its skills'
    /// `allowed-tools` count only once their content is approved. Default None (a local store).
    fn origin(&self) -> Option<String> {
        None
    }
    /// Where this store's skills are, when it knows its layout: the roots a scope over it searches
    /// when the host names none (a discovery index or an MCP server lists its skills at its own
    /// root: `[""]`). `None` (the default): the default roots (`.agents/skills/` ...).
    fn roots(&self) -> Option<Vec<String>> {
        None
    }
    /// Where the store's keys are now, for the locations the model is shown (an absolute
    /// directory or a URI), when the store says; asked again after each discovery, since a store
    /// may learn it by listing (a discovery index found at its fallback URL). Default `None`: the
    /// location the scope was configured with stands.
    fn location(&self) -> Option<String> {
        None
    }
    /// Whether each head of [`Storage::list_with_heads`] costs the store a read of the file (a
    /// directory on disk), and its listing gives each listed file a size and an etag without one
    /// (a stat). A refresh then asks such a store for no heads: the files whose size and etag are
    /// as before are not read at all, the others are read the ordinary way. Default false: the
    /// heads come with the listing (an MCP server's listed frontmatter), asked every time.
    fn heads_cost_reads(&self) -> bool {
        false
    }
    /// The bytes of `key` (at most `max_bytes` of them from the start), or `None` when there is no
    /// such object.
    fn read<'a>(
        &'a self,
        key: &'a str,
        max_bytes: Option<u32>,
    ) -> LocalFuture<'a, Result<Option<Vec<u8>>, StorageError>>;
}

/// Calls made to the stores, for hosts that watch their costs (and for tests that bound them).
#[derive(Debug, Default)]
pub struct CallStats {
    /// List calls.
    pub list_calls: Cell<u64>,
    /// Read calls.
    pub read_calls: Cell<u64>,
    /// Bytes read.
    pub bytes_read: Cell<u64>,
}

impl CallStats {
    pub(crate) fn bump(c: &Cell<u64>, n: u64) {
        c.set(c.get() + n);
    }
}

/// Store calls made so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct StorageStats {
    /// List calls.
    pub list_calls: u64,
    /// Read calls.
    pub read_calls: u64,
    /// Bytes read.
    pub bytes_read: u64,
}
