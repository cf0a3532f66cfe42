// Storage over IndexedDB (browsers; in Node with an implementation such as fake-indexeddb).
import {
  assertKey, assertPrefix, byteLimit, cursorOption, fileEntries, fnv1a, keyProblem, objectCap, objectTooLarge, pageLimit,
  toBytes,
} from "./keys.js";
import { optionsObject, show } from "./keys.js";

/**
 * @typedef {import("../index.js").SkillStorage} SkillStorage
 * @typedef {import("../index.js").ListPage} ListPage
 * @typedef {import("../index.js").ListEntry} ListEntry
 */

const DEFAULT_LIMIT = 1000;
const META_SUFFIX = ":meta";
const VERSION_SUFFIX = ":version";
// The one record of the version store: `{ id, n }`, a random id given when the record is made
// (so that a database deleted and made again never gives an old version back) and the count of
// writes since.
const VERSION_KEY = "version";
// How long an open may wait on other connections that do not close for an upgrade.
const BLOCKED_MS = 5_000;
/**
 * The most keys one `putSkillFiles` or `deleteKeys` call takes (one transaction each): a larger
 * batch is refused with a TypeError before anything is written, so a call always settles in
 * bounded time. Split larger sets into several calls.
 */
export const MAX_KEYS_PER_CALL = 10_000;

/** @type {WeakMap<object, { write(puts: [string, Uint8Array][], deletes: string[]): Promise<void> }>} */
const writers = new WeakMap();

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}

// The smallest string greater than every string starting with `prefix` ("a/" -> "a0"), or null
// for "" (no upper bound).
function prefixEnd(prefix) {
  if (prefix === "") return null;
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** The version a version record gives, or undefined for a record that is not one. */
function versionOf(record) {
  const id = record?.id;
  const n = record?.n;
  return typeof id === "string" && Number.isSafeInteger(n) ? `${id}:${n}` : undefined;
}

/** The version record after one more write. */
function nextVersion(record) {
  if (versionOf(record) !== undefined) return { id: record.id, n: record.n + 1 };
  const bytes = new Uint8Array(8);
  if (typeof globalThis.crypto?.getRandomValues === "function") globalThis.crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return { id: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""), n: 1 };
}

/**
 * A store in an IndexedDB database. Three object stores, created together in one upgrade:
 * `storeName` holds `{ data: Uint8Array, size, etag }` per key, `storeName + ":meta"` holds
 * `{ size, etag }` per key, so that listing never loads file contents, and
 * `storeName + ":version"` holds one record that every write through this adapter moves, in the
 * write's own transaction: each page carries it as `version`, and a listing asked with
 * `unlessVersion` equal to it answers `{ entries: [], unchanged: true }` without reading a key.
 * (A database written before there was a version store gives no version until its next write.)
 *
 * Costs: opening the database once per storage object (plus one version upgrade the first time, to
 * create the stores). `list` is one read-only transaction on the metadata and version stores: a
 * `get` of the version, then (unless the version is the one asked with) two requests,
 * `getAllKeys` and `getAll`, over the key range [prefix, prefix-end) starting after the cursor,
 * each fetching at most limit + 1 records (the extra one tells whether more follow); a first page
 * that comes back empty for a prefix other than `""` costs one more transaction with a
 * `getAllKeys` of one key, to tell an empty subtree from an object store that holds nothing (that
 * page then carries a warning saying so). `read` is one read-only transaction over both stores: a
 * `get` of the key's metadata, then, unless the read is refused, one `get` of the whole value
 * (IndexedDB cannot read part of a value; `maxBytes` trims what is returned). Writes (`put`,
 * `delete`, `putSkillFiles`, `deleteKeys`) are one read-write transaction over the three stores,
 * whatever the number of files. The etag is an FNV-1a hash of the content, computed once per
 * write; the cursor is the last key returned.
 *
 * Size cap: since a read loads the whole value, any read of an object whose metadata size is above
 * `maxObjectBytes` is refused, a prefix read too, with an `object-too-large` Error, before the
 * value is loaded; other reads return at most min(maxBytes, size) bytes. (A record without
 * metadata, put into the data store directly, is checked after it is loaded.)
 *
 * Failures: a request or transaction error rejects the call; an open that other connections
 * block for more than 5 s rejects rather than waiting forever.
 *
 * Write through these helpers: a record put into the data store directly has no metadata and is
 * not listed.
 *
 * @param {{ dbName: string; storeName?: string; indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange; maxObjectBytes?: number }} options
 *   `indexedDB` and `IDBKeyRange` default to the globals; `storeName` defaults to `"skills"`;
 *   `maxObjectBytes` is the size cap (default 16 MiB, `DEFAULT_MAX_OBJECT_BYTES`).
 * @returns {SkillStorage & {
 *   put(key: string, content: string | Uint8Array): Promise<void>;
 *   delete(key: string): Promise<void>;
 *   close(): void;
 *   readonly dbName: string;
 *   readonly storeName: string;
 *   readonly maxObjectBytes: number;
 * }}
 */
export function indexedDbStorage(options) {
  options = optionsObject(options, "indexedDbStorage", { optional: false, keys: ["dbName", "storeName", "indexedDB", "IDBKeyRange", "maxObjectBytes"] });
  const { dbName, storeName = "skills" } = options;
  const factory = options.indexedDB ?? globalThis.indexedDB;
  if (typeof dbName !== "string" || dbName === "") throw new TypeError("indexedDbStorage: dbName must be a non-empty string");
  if (typeof storeName !== "string" || storeName === "") throw new TypeError("indexedDbStorage: storeName must be a non-empty string");
  if (factory === undefined || factory === null || typeof factory.open !== "function") {
    throw new TypeError("indexedDbStorage: no IndexedDB here; pass { indexedDB } (e.g. from fake-indexeddb)");
  }
  const cap = objectCap(options?.maxObjectBytes, "indexedDbStorage");
  const metaName = storeName + META_SUFFIX;
  const versionName = storeName + VERSION_SUFFIX;
  const IDBKeyRange = options.IDBKeyRange ?? globalThis.IDBKeyRange;
  if (IDBKeyRange === undefined || IDBKeyRange === null || typeof IDBKeyRange.bound !== "function"
      || typeof IDBKeyRange.lowerBound !== "function") {
    throw new TypeError("indexedDbStorage: no IDBKeyRange here; pass { IDBKeyRange } (e.g. from fake-indexeddb)");
  }

  /** @type {Promise<IDBDatabase> | null} */
  let opening = null;

  function openDb(version) {
    return new Promise((resolve, reject) => {
      let settled = false;
      let timer;
      const req = version === undefined ? factory.open(dbName) : factory.open(dbName, version);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(storeName)) db.createObjectStore(storeName);
        if (!db.objectStoreNames.contains(metaName)) db.createObjectStore(metaName);
        if (!db.objectStoreNames.contains(versionName)) db.createObjectStore(versionName);
      };
      req.onsuccess = () => {
        clearTimeout(timer);
        // Opened after the wait was given up: nobody holds this connection, so close it.
        if (settled) req.result.close();
        else resolve(req.result);
        settled = true;
      };
      req.onerror = () => {
        clearTimeout(timer);
        if (!settled) reject(req.error);
        settled = true;
      };
      // Other connections close on versionchange (ours do); one that does not must not leave this
      // open pending forever.
      req.onblocked = () => {
        timer ??= setTimeout(() => {
          if (settled) return;
          settled = true;
          reject(new Error(`IndexedDB ${JSON.stringify(dbName)}: the upgrade is blocked by another open connection`));
        }, BLOCKED_MS);
      };
    });
  }

  async function connect() {
    let db = await openDb(undefined);
    const names = db.objectStoreNames;
    if (!names.contains(storeName) || !names.contains(metaName) || !names.contains(versionName)) {
      const next = db.version + 1;
      db.close();
      db = await openDb(next);
    }
    // Another connection wants to upgrade (another tab, another storage object): step aside and
    // reconnect on the next call.
    db.onversionchange = () => {
      db.close();
      opening = null;
    };
    db.onclose = () => {
      opening = null;
    };
    return db;
  }

  function database() {
    if (opening === null) {
      opening = connect().catch((e) => {
        opening = null;
        throw e;
      });
    }
    return opening;
  }

  function range(prefix, after) {
    const end = prefixEnd(prefix);
    const lower = after ?? prefix;
    const open = after !== undefined;
    if (!IDBKeyRange) throw new TypeError("indexedDbStorage: IDBKeyRange is not available; pass { IDBKeyRange }");
    return end === null ? IDBKeyRange.lowerBound(lower, open) : IDBKeyRange.bound(lower, end, open, true);
  }

  /**
   * @param {[string, Uint8Array][]} puts
   * @param {string[]} deletes
   */
  async function write(puts, deletes) {
    const db = await database();
    const tx = db.transaction([storeName, metaName, versionName], "readwrite");
    const finished = done(tx);
    const data = tx.objectStore(storeName);
    const meta = tx.objectStore(metaName);
    const versions = tx.objectStore(versionName);
    const current = versions.get(VERSION_KEY);
    current.onsuccess = () => versions.put(nextVersion(current.result), VERSION_KEY);
    for (const key of deletes) {
      data.delete(key);
      meta.delete(key);
    }
    for (const [key, bytes] of puts) {
      const etag = fnv1a(bytes);
      data.put({ data: bytes, size: bytes.length, etag }, key);
      meta.put({ size: bytes.length, etag }, key);
    }
    await finished;
  }

  const storage = {
    dbName,
    storeName,
    /** Where the keys are, as the model is shown it: `indexeddb://<dbName>/<storeName>/<key>`. */
    location: `indexeddb://${encodeURIComponent(dbName)}/${encodeURIComponent(storeName)}/`,
    maxObjectBytes: cap,

    /**
     * @param {string} prefix
     * @param {{ cursor?: string; limit?: number; unlessVersion?: string }} [opts]
     * @returns {Promise<ListPage>}
     */
    async list(prefix, opts = {}) {
      assertPrefix(prefix);
      const limit = pageLimit(opts?.limit, DEFAULT_LIMIT);
      const cursor = cursorOption(opts?.cursor);
      if (cursor !== undefined && !cursor.startsWith(prefix)) {
        throw new TypeError(`invalid list cursor for prefix ${JSON.stringify(prefix)}`);
      }
      const unlessVersion = opts?.unlessVersion;
      const db = await database();
      const tx = db.transaction([metaName, versionName], "readonly");
      const store = tx.objectStore(metaName);
      const r = range(prefix, cursor);
      // The keys are asked for from the version's success callback, in the same transaction, so
      // that the version is the one of the keys listed.
      const got = await new Promise((resolve, reject) => {
        const current = tx.objectStore(versionName).get(VERSION_KEY);
        current.onerror = () => reject(current.error);
        current.onsuccess = () => {
          const version = versionOf(current.result);
          if (version !== undefined && version === unlessVersion) {
            resolve({ version, unchanged: true });
            return;
          }
          try {
            const keys = request(store.getAllKeys(r, limit + 1));
            const values = request(store.getAll(r, limit + 1));
            Promise.all([keys, values]).then(([k, v]) => resolve({ version, keys: k, values: v }), reject);
          } catch (e) {
            reject(e);
          }
        };
      });
      if (got.unchanged) return { entries: [], unchanged: true, version: got.version };
      const { keys, values } = got;
      /** @type {ListEntry[]} */
      const entries = [];
      /** @type {{ key: string; message: string }[]} */
      const warnings = [];
      const n = Math.min(limit, keys.length);
      for (let i = 0; i < n; i++) {
        const key = keys[i];
        if (typeof key !== "string") continue;
        const problem = keyProblem(key);
        if (problem !== null) {
          warnings.push({ key, message: `not a valid storage key: ${problem}` });
          continue;
        }
        /** @type {ListEntry} */
        const entry = { key };
        const v = values[i];
        if (typeof v?.size === "number") entry.size = v.size;
        if (typeof v?.etag === "string") entry.etag = v.etag;
        entries.push(entry);
      }
      /** @type {ListPage} */
      const page = { entries };
      if (keys.length > limit && typeof keys[limit - 1] === "string") page.cursor = keys[limit - 1];
      if (got.version !== undefined) page.version = got.version;
      if (keys.length === 0 && cursor === undefined) {
        // Nothing under prefix: say so when the object store holds nothing at all (a mistyped
        // dbName or storeName gives a new, empty database).
        const empty = prefix === "" || (await request(
          db.transaction(metaName, "readonly").objectStore(metaName).getAllKeys(null, 1),
        )).length === 0;
        if (empty) {
          warnings.push({
            key: prefix,
            message: `the object store ${JSON.stringify(storeName)} of IndexedDB database ${JSON.stringify(dbName)} holds nothing`,
          });
        }
      }
      if (warnings.length > 0) page.warnings = warnings;
      return page;
    },

    /**
     * @param {string} key
     * @param {{ maxBytes?: number }} [opts]
     * @returns {Promise<Uint8Array | null>}
     */
    async read(key, opts = {}) {
      assertKey(key);
      const maxBytes = byteLimit(opts?.maxBytes);
      const db = await database();
      const tx = db.transaction([metaName, storeName], "readonly");
      const value = await new Promise((resolve, reject) => {
        // The value is asked for from the metadata's success callback, in the same transaction,
        // and only when the size it records is within the cap.
        const meta = tx.objectStore(metaName).get(key);
        meta.onerror = () => reject(meta.error);
        meta.onsuccess = () => {
          const size = meta.result?.size;
          if (typeof size === "number" && size > cap) {
            reject(objectTooLarge(key, size, cap));
            return;
          }
          let data;
          try {
            data = tx.objectStore(storeName).get(key);
          } catch (e) {
            reject(e);
            return;
          }
          data.onerror = () => reject(data.error);
          data.onsuccess = () => resolve(data.result);
        };
      });
      if (value === undefined || value === null) return null;
      let bytes = value.data ?? value;
      if (typeof bytes === "string") bytes = new TextEncoder().encode(bytes);
      else if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
      else if (ArrayBuffer.isView(bytes) && !(bytes instanceof Uint8Array)) {
        bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      }
      if (!(bytes instanceof Uint8Array)) throw new TypeError(`${key}: stored value holds no bytes`);
      if (bytes.length > cap) throw objectTooLarge(key, bytes.length, cap);
      // The value is a fresh structured clone: handing out a view of it shares nothing.
      return maxBytes === undefined || bytes.length <= maxBytes ? bytes : bytes.subarray(0, maxBytes);
    },

    /** Add or replace one object (strings are stored as UTF-8). */
    async put(key, content) {
      assertKey(key);
      await write([[key, toBytes(content)]], []);
    },

    /** Remove one object (nothing happens when it does not exist). */
    async delete(key) {
      assertKey(key);
      await write([], [key]);
    },

    /** Close the connection (the next call opens it again). */
    close() {
      if (opening !== null) {
        const p = opening;
        opening = null;
        p.then((db) => db.close(), () => {});
      }
    },
  };
  writers.set(storage, { write });
  return storage;
}

function writerOf(storage) {
  const w = writers.get(storage);
  if (w === undefined) throw new TypeError("expected a storage made by indexedDbStorage()");
  return w;
}

/**
 * Write many files in one read-write transaction: `prefix + path` -> content for every entry of
 * `files` (e.g. a skill folder: `{ "SKILL.md": "...", "scripts/run.py": bytes }` with
 * `prefix: ".agents/skills/pdf/"`). Every key is checked before anything is written; either all
 * files are written or none. At most `MAX_KEYS_PER_CALL` (10,000) files per call: more is a
 * TypeError, and nothing is written.
 *
 * @param {ReturnType<typeof indexedDbStorage>} storage
 * @param {Record<string, string | Uint8Array> | Map<string, string | Uint8Array>} files
 * @param {{ prefix?: string }} [options]
 * @returns {Promise<string[]>} the keys written, in the order given
 */
export async function putSkillFiles(storage, files, options = {}) {
  const { write } = writerOf(storage);
  let prefix = optionsObject(options, "putSkillFiles", { keys: ["prefix"] }).prefix ?? "";
  if (prefix !== "" && typeof prefix === "string" && !prefix.endsWith("/")) prefix += "/";
  assertPrefix(prefix);
  /** @type {[string, Uint8Array][]} */
  const puts = [];
  const entries = fileEntries(files);
  if (entries.length > MAX_KEYS_PER_CALL) {
    throw new TypeError(`putSkillFiles: files holds ${entries.length} keys, more than ${MAX_KEYS_PER_CALL} in one call`);
  }
  for (const entry of entries) {
    if (!Array.isArray(entry) || typeof entry[0] !== "string") {
      throw new TypeError(`putSkillFiles: files must map string keys to contents, got a key that is ${show(entry?.[0])}`);
    }
    const [path, content] = entry;
    const key = prefix + path;
    assertKey(key);
    puts.push([key, toBytes(content)]);
  }
  await write(puts, []);
  return puts.map(([k]) => k);
}

/**
 * Delete many keys in one read-write transaction (keys that do not exist are ignored). `keys` is
 * an array or an iterable of at most `MAX_KEYS_PER_CALL` (10,000) valid keys; anything else is a
 * TypeError naming `keys`, and nothing is deleted.
 *
 * @param {ReturnType<typeof indexedDbStorage>} storage
 * @param {Iterable<string>} keys
 * @returns {Promise<number>} the number of keys given
 */
export async function deleteKeys(storage, keys) {
  const { write } = writerOf(storage);
  const list = keyList(keys);
  await write([], list);
  return list.length;
}

/**
 * The keys of `deleteKeys`, checked: an array or another iterable (not a string) of at most
 * MAX_KEYS_PER_CALL valid keys. Read by index (an array) or by one bounded iteration, so a length
 * that lies or an endless iterator is refused rather than followed.
 * @param {unknown} keys
 * @returns {string[]}
 */
function keyList(keys) {
  const tooMany = () => new TypeError(`deleteKeys: keys holds more than ${MAX_KEYS_PER_CALL} keys in one call`);
  const bad = (i, key) => {
    const problem = keyProblem(key);
    return problem === null ? null : new TypeError(`deleteKeys: keys[${i}] ${show(key)} is not a valid storage key: ${problem}`);
  };
  /** @type {string[]} */
  const list = [];
  if (Array.isArray(keys)) {
    const n = keys.length;
    if (typeof n !== "number" || !(n <= MAX_KEYS_PER_CALL)) throw tooMany();
    for (let i = 0; i < n; i++) {
      const key = keys[i];
      const e = bad(i, key);
      if (e !== null) throw e;
      list.push(key);
    }
    return list;
  }
  if (typeof keys !== "object" || keys === null || typeof keys[Symbol.iterator] !== "function") {
    throw new TypeError(`deleteKeys: keys must be an array or an iterable of storage keys, got ${show(keys)}`);
  }
  for (const key of keys) {
    if (list.length === MAX_KEYS_PER_CALL) throw tooMany();
    const e = bad(list.length, key);
    if (e !== null) throw e;
    list.push(key);
  }
  return list;
}
