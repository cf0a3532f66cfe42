// In-memory storage: a sorted map of key -> bytes. For tests, for skills bundled with the host, and
// as the reference for what the storage contract means.
import {
  assertKey, assertPrefix, byteLimit, cursorOption, fileEntries, fnv1a, objectCap, objectTooLarge, overCap, pageLimit,
  toBytes,
} from "./keys.js";
import { optionsObject } from "./keys.js";

/**
 * @typedef {import("../index.js").SkillStorage} SkillStorage
 * @typedef {import("../index.js").ListPage} ListPage
 * @typedef {import("../index.js").ListEntry} ListEntry
 */

const DEFAULT_LIMIT = 1000;

/**
 * A store held in memory.
 *
 * Costs: no I/O. `list` is a binary search plus one entry per key returned, read in key order from
 * arrays (the sorted keys and their objects are rebuilt once after a put of a new key or a delete,
 * O(n log n); a put that replaces an object keeps them); `read` is a map lookup plus a copy of the
 * bytes returned. The etag is an FNV-1a hash of the content, computed once per put; the cursor is the last
 * key returned. Every page carries the store's `version`, which each put and each delete changes:
 * asked with `unlessVersion` equal to it, `list` answers `{ entries: [], unchanged: true }` at
 * once, so a refresh with nothing changed lists no key.
 *
 * Size cap: a read that would return more than `maxObjectBytes` bytes (an object above the cap read
 * whole, or with a `maxBytes` above the cap) rejects with an `object-too-large` Error (see
 * `objectTooLarge` in keys.js) and copies nothing; a prefix read of at most the cap is served.
 * Objects above the cap may still be put and are listed with their size. A listing of a store that
 * holds no object at all carries a warning saying so.
 *
 * @param {Record<string, string | Uint8Array> | Map<string, string | Uint8Array>} [files]
 *   key -> content; strings are stored as UTF-8.
 * @param {{ maxObjectBytes?: number }} [options] `maxObjectBytes`: the size cap (default 16 MiB,
 *   `DEFAULT_MAX_OBJECT_BYTES`).
 * @returns {SkillStorage & {
 *   put(key: string, content: string | Uint8Array): void;
 *   delete(key: string): boolean;
 *   readonly size: number;
 * }}
 */
export function memoryStorage(files, options = {}) {
  const cap = objectCap(optionsObject(options, "memoryStorage", { keys: ["maxObjectBytes"] }).maxObjectBytes, "memoryStorage");
  /** @type {Map<string, { bytes: Uint8Array; etag: string }>} */
  const objects = new Map();
  /**
   * The keys in order and their objects at the same index, rebuilt lazily after a key is added or
   * deleted (a listing then reads the objects in order, with no lookup per key).
   * @type {{ keys: string[]; objects: { bytes: Uint8Array; etag: string }[] } | null}
   */
  let sorted = null;
  // Changed by every put and delete; the version pages carry is its decimal form.
  let generation = 0;

  function put(key, content) {
    assertKey(key);
    const bytes = toBytes(content);
    const etag = fnv1a(bytes);
    generation += 1;
    const held = objects.get(key);
    if (held !== undefined) {
      // Replaced in place: the key keeps its place, and the sorted objects stand.
      held.bytes = bytes;
      held.etag = etag;
      return;
    }
    objects.set(key, { bytes, etag });
    sorted = null;
  }

  for (const [key, content] of fileEntries(files)) put(key, content);

  function sortedListing() {
    if (sorted === null) {
      const keys = [...objects.keys()].sort();
      sorted = { keys, objects: keys.map((k) => /** @type {{ bytes: Uint8Array; etag: string }} */ (objects.get(k))) };
    }
    return sorted;
  }

  // Index of the first key >= value (> value when exclusive).
  function lowerBound(keys, value, exclusive) {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < value || (exclusive && keys[mid] === value)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  return {
    /** Where the keys are, as the model is shown it: `memory:/<key>`. */
    location: "memory:/",
    /** The size cap of this store, in bytes. */
    maxObjectBytes: cap,

    /**
     * @param {string} prefix
     * @param {{ cursor?: string; limit?: number; unlessVersion?: string }} [opts]
     * @returns {Promise<ListPage>}
     */
    async list(prefix, opts = {}) {
      assertPrefix(prefix);
      opts = optionsObject(opts, "list", { param: "opts" });
      const limit = pageLimit(opts.limit, DEFAULT_LIMIT);
      const cursor = cursorOption(opts.cursor);
      const version = `${generation}`;
      if (opts.unlessVersion === version) return { entries: [], unchanged: true, version };
      const { keys, objects: held } = sortedListing();
      let i = cursor !== undefined && cursor > prefix
        ? lowerBound(keys, cursor, true)
        : lowerBound(keys, prefix, false);
      /** @type {ListEntry[]} */
      const entries = [];
      while (i < keys.length && entries.length < limit && keys[i].startsWith(prefix)) {
        const obj = held[i];
        entries.push({ key: keys[i++], size: obj.bytes.length, etag: obj.etag });
      }
      /** @type {ListPage} */
      const page = { entries, version };
      if (entries.length > 0 && i < keys.length && keys[i].startsWith(prefix)) {
        page.cursor = entries[entries.length - 1].key;
      }
      if (keys.length === 0) page.warnings = [{ key: prefix, message: "the memory store holds no objects" }];
      return page;
    },

    /**
     * @param {string} key
     * @param {{ maxBytes?: number }} [opts]
     * @returns {Promise<Uint8Array | null>}
     */
    async read(key, opts = {}) {
      assertKey(key);
      const maxBytes = byteLimit(optionsObject(opts, "read", { param: "opts" }).maxBytes);
      const obj = objects.get(key);
      if (obj === undefined) return null;
      if (overCap(obj.bytes.length, maxBytes, cap)) throw objectTooLarge(key, obj.bytes.length, cap);
      return maxBytes === undefined ? obj.bytes.slice() : obj.bytes.slice(0, maxBytes);
    },

    /** Add or replace one object (strings are stored as UTF-8). */
    put,

    /** Remove one object; true when it existed. */
    delete(key) {
      assertKey(key);
      const existed = objects.delete(key);
      if (existed) {
        sorted = null;
        generation += 1;
      }
      return existed;
    },

    /** The number of objects. */
    get size() {
      return objects.size;
    },
  };
}
