//! The TypeScript declarations of what a JS store is (`SkillStorage`, its pages and entries), as a
//! custom section of the generated `.d.ts`; [`crate::storage::JsStorage`] reads such a store.

use wasm_bindgen::prelude::*;

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
  /**
   * `sha256:<64 lowercase hex>` of the object's bytes, only when the store holds its reads to it
   * (as the MCP store does with a server's manifest): a skill's content digest is then computed
   * without reading its files. Any other form is ignored.
   */
  digest?: string;
}

/** One page of a listing. */
export interface ListPage {
  /** Keys in lexicographic (UTF-16 code unit, JS `<`) order. May hold fewer than `limit`. */
  entries: ListEntry[];
  /** Present when more keys follow: pass it back to get the next page. Opaque. */
  cursor?: string;
  /** What the adapter left out and why (a link leaving the root, an unreadable directory ...). */
  warnings?: { key: string; message: string }[];
  /**
   * The store's version, when it keeps one: a string (at most 1024 characters) that it changes
   * whenever an object under the listed prefix is put, replaced or deleted (a counter of the
   * whole store will do). A refresh passes it back as `unlessVersion`.
   */
  version?: string;
  /**
   * `true` in the answer to a listing asked with `unlessVersion` while the store is still at that
   * version: every key under the prefix is as it was then. `entries` may be empty and no page
   * follows.
   */
  unchanged?: boolean;
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
   * `unlessVersion` (only ever a `version` this store gave, on a first page) lets a store still at
   * that version answer `{ entries: [], unchanged: true }`; a store without versions ignores it.
   */
  list(
    prefix: string,
    opts?: { cursor?: string; limit?: number; skip?: ListSkip; unlessVersion?: string },
  ): Promise<ListPage>;
  /**
   * The bytes of one object, or null when it does not exist. `maxBytes` asks for a prefix only:
   * at most that many bytes from the start.
   */
  read(key: string, opts?: { maxBytes?: number }): Promise<Uint8Array | string | null>;
  /**
   * Optional: a listing (as `list`, with the same options) whose entries for the files `files`
   * names (`["SKILL.md"]`) also carry their first bytes: `head`, at most `prefixBytes` of them,
   * or `headError`, why they could not be read. Discovery uses it, when a store has it, instead
   * of one read per SKILL.md. It may answer synchronously (a page, not a promise). With
   * `packed: true` (discovery asks so) it may answer a {@link PackedSkillPrefixPage} instead.
   * With `listOnly` (discovery sends the skill file names, and `.gitignore` when it reads those)
   * it may list only the files with those names and name every directory it enters in
   * `directories` instead of listing the other files in them; a store that lists everything is
   * still right. See `headsCostReads` for what a refresh asks.
   */
  listSkillPrefixes?(
    prefix: string,
    opts: {
      cursor?: string; limit?: number; skip?: ListSkip; files: string[]; prefixBytes: number; packed?: boolean;
      listOnly?: string[];
    },
  ): Promise<SkillPrefixPage | PackedSkillPrefixPage> | SkillPrefixPage | PackedSkillPrefixPage;
  /**
   * Optional, with `listSkillPrefixes`: `true` when each head costs the store a read of the file
   * (a directory on disk) and its `listSkillPrefixes` gives every file it lists that `files` does
   * not name a `size` and an `etag` (from a stat). A refresh then asks it with `files: []`: the
   * skill files whose size and etag are as before are not read at all, and the others are read
   * with `read`. Left out (or not `true`), a refresh asks for the heads as discovery does, as
   * suits a store that has them without reading (an MCP server's listed frontmatter).
   */
  readonly headsCostReads?: boolean;
  /**
   * Optional: where this store's skills are, when it knows its layout (a discovery index or an
   * MCP server lists them at its own root: `[""]`). A scope over it that names no `roots`
   * searches these instead of the default roots. Read once, when the scope is configured.
   */
  readonly roots?: readonly string[];
}

/** A page of `listSkillPrefixes`: a {@link ListPage} whose skill-file entries carry a head. */
export interface SkillPrefixPage extends ListPage {
  entries: (ListEntry & { head?: Uint8Array | string; headError?: string })[];
  /**
   * Asked with `listOnly`: the directories entered for this page below the prefix, each a key
   * followed by `/`, in key order.
   */
  directories?: string[];
}

/**
 * A page of `listSkillPrefixes` asked with `packed: true`, in two values instead of one per entry:
 * `lines` holds one line per entry, in order, separated by `\n`: `key` alone, or
 * `key\tsize\tetag` for a file without a head (what a store whose heads cost reads lists for the
 * files `listOnly` names and `files` does not), or `key\tsize\tetag\tN` whose head is the next `N`
 * bytes of `heads`, or `key\tsize\tetag\t!message` for a headError (size and etag may be empty),
 * or, asked with `listOnly`, `dir/` for a directory entered. A key holds no control character, so neither separator can be part of one.
 */
export interface PackedSkillPrefixPage {
  packed: { lines: string; heads: Uint8Array };
  cursor?: string;
  warnings?: { key: string; message: string }[];
}
"#;
