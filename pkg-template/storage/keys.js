// The storage key rule, shared by every adapter. The core validates keys before it calls a store;
// adapters check again so that a store used on its own is just as safe.
//
// A key is `/`-separated and relative to the store's root: non-empty segments, no leading `/`,
// no `.` or `..` segment, no backslash, no control character (C0, DEL, C1), and no `%2e`, `%2f`
// or `%5c` percent-encoding in any case (a dot, slash or backslash that a later decoding step could
// turn into a traversal). A prefix is `""` or a valid key followed by `/`.

// Control characters as Unicode defines them (general category Cc), like Rust's char::is_control.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const ENCODED = /%(2e|2f|5c)/i;
// A lone surrogate cannot be written as UTF-8: the key a store would see differs from the caller's.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Each rule, by its stable name, worded as the core words it (src/store/keys.rs). Both are held
// to one table of cases (tests/cases/keys.json).
const PHRASES = {
  empty: "must not be empty",
  absolute: "must be relative (it starts with '/')",
  backslash: "must not contain a backslash",
  control: "must not contain control characters",
  encoded: "must not contain a percent-encoded '.', '/' or '\\'",
  "empty-segment": "must not contain an empty segment ('//' or a trailing '/')",
  "dot-segment": "must not contain a '.' or '..' segment",
  "not-a-prefix": `must be "" or end with '/'`,
  // JS only: a Rust string cannot hold one, so the core never sees such a key.
  "lone-surrogate": "must not contain a lone surrogate (it has no UTF-8 form)",
};

const PLAIN_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/**
 * The first rule a string breaks as a storage key, by name (see PHRASES), or null.
 * @param {string} key
 * @returns {keyof typeof PHRASES | null}
 */
function keyRule(key) {
  // Most keys: segments of letters, digits, `.`, `_` and `-` not starting with `.`, which no rule
  // refuses (one regular expression instead of the checks below, for every listed file).
  if (PLAIN_KEY.test(key)) return null;
  if (key === "") return "empty";
  if (key.startsWith("/")) return "absolute";
  if (key.includes("\\")) return "backslash";
  if (CONTROL.test(key)) return "control";
  if (ENCODED.test(key)) return "encoded";
  if (LONE_SURROGATE.test(key)) return "lone-surrogate";
  for (const segment of key.split("/")) {
    if (segment === "") return "empty-segment";
    if (segment === "." || segment === "..") return "dot-segment";
  }
  return null;
}

/**
 * Why `key` is not a valid storage key, or null when it is: `{ reason, message }`, `reason` the
 * rule's stable name (`empty`, `absolute`, `backslash`, `control`, `encoded`, `empty-segment`,
 * `dot-segment`; `not-a-string` for a value that is not a string).
 * @param {unknown} key
 * @returns {{ reason: string; message: string } | null}
 */
export function keyIssue(key) {
  if (typeof key !== "string") {
    return { reason: "not-a-string", message: `must be a string, got ${key === null ? "null" : typeof key}` };
  }
  const rule = keyRule(key);
  return rule === null ? null : { reason: rule, message: PHRASES[rule] };
}

/**
 * Why `prefix` is not a valid list prefix (`""` or a valid key followed by `/`), or null.
 * @param {unknown} prefix
 * @returns {{ reason: string; message: string } | null}
 */
export function prefixIssue(prefix) {
  if (prefix === "") return null;
  if (typeof prefix !== "string") return keyIssue(prefix);
  if (!prefix.endsWith("/")) return { reason: "not-a-prefix", message: PHRASES["not-a-prefix"] };
  return keyIssue(prefix.slice(0, -1));
}

/**
 * Why `key` is not a valid storage key, or null when it is.
 * @param {unknown} key
 * @returns {string | null}
 */
export function keyProblem(key) {
  return keyIssue(key)?.message ?? null;
}

/**
 * A short description of `value` for a message. Never converts an object (a deep array would
 * recurse through toString, a hostile one could throw): objects are named by their kind.
 * @param {unknown} value
 * @returns {string}
 */
export function show(value) {
  if (typeof value === "string") return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}...` : value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  return String(value);
}

/** `load` made single-flight: calls while one is in progress share its promise. */
export function sharedLoad(load) {
  let pending = null;
  return () => {
    if (pending === null) pending = load().finally(() => { pending = null; });
    return pending;
  };
}

/** An Error with a stable `code` (a core diagnostic code where the core decided) and `extra` fields. */
export function codedError(message, code, extra = {}) {
  const e = /** @type {any} */ (new Error(message));
  e.code = code;
  Object.assign(e, extra);
  return e;
}

/** The positive integer option `name` of `fn` (at most `max`), or `fallback` when it is absent. */
export function positiveOption(value, name, fallback, fn, max = 0xffffffff) {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0 || value > max) {
    throw new TypeError(`${fn}: ${name} must be a positive integer, got ${show(value)}`);
  }
  return value;
}

/**
 * The options object of `fn`: `{}` for undefined (and null when `optional`), the object itself when
 * it is a plain (non-array, non-function) object; anything else is a TypeError naming `param`.
 * @param {unknown} value
 * @param {string} fn the function's name, for the message
 * @param {{ param?: string; optional?: boolean; keys?: string[] | null }} [how] `keys`: the options
 *   it takes; any other key (not set to undefined) is a TypeError naming it
 * @returns {Record<string, any>}
 */
export function optionsObject(value, fn, { param = "options", optional = true, keys = null } = {}) {
  if (optional && (value === undefined || value === null)) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`${fn}: ${param} must be an options object, got ${show(value)}`);
  }
  if (keys !== null) {
    // Every own key, whatever its value (a misspelt callback must not silently do nothing); a key
    // set to undefined counts as left out.
    for (const key of Object.keys(value)) {
      if (!keys.includes(key) && value[key] !== undefined) {
        throw new TypeError(`${fn}: unknown option ${param}.${key} (the options are ${keys.join(", ")})`);
      }
    }
  }
  return value;
}

/**
 * Throw a TypeError unless `key` is a valid storage key.
 * @param {unknown} key
 * @returns {asserts key is string}
 */
export function assertKey(key) {
  const problem = keyProblem(key);
  if (problem !== null) throw new TypeError(`invalid storage key ${show(key)}: ${problem}`);
}

/**
 * Throw a TypeError unless `prefix` is `""` or a valid key followed by `/`.
 * @param {unknown} prefix
 * @returns {asserts prefix is string}
 */
export function assertPrefix(prefix) {
  const issue = prefixIssue(prefix);
  if (issue !== null) throw new TypeError(`invalid storage prefix ${show(prefix)}: ${issue.message}`);
}

/**
 * The page size to use: `limit` when given (a positive integer), else `fallback`; at most `max`.
 * @param {unknown} limit
 * @param {number} fallback
 * @param {number} [max]
 * @returns {number}
 */
export function pageLimit(limit, fallback, max = Infinity) {
  if (limit === undefined || limit === null) return Math.min(fallback, max);
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    throw new TypeError(`invalid list limit ${show(limit)}: must be a positive integer`);
  }
  return Math.min(limit, max);
}

/**
 * `maxBytes` when given (a non-negative integer), else undefined (read everything).
 * @param {unknown} maxBytes
 * @returns {number | undefined}
 */
export function byteLimit(maxBytes) {
  if (maxBytes === undefined || maxBytes === null) return undefined;
  if (typeof maxBytes !== "number" || !Number.isInteger(maxBytes) || maxBytes < 0) {
    throw new TypeError(`invalid maxBytes ${show(maxBytes)}: must be a non-negative integer`);
  }
  return maxBytes;
}

/**
 * The default size cap of every shipped adapter: 16 MiB, the MCP Skills extension's per-skill limit.
 * A read that would return more bytes than the cap is refused before any byte is read.
 */
export const DEFAULT_MAX_OBJECT_BYTES = 16 * 1024 * 1024;

// The largest cap an adapter takes: one Node read, one buffer and one R2 range stay within int32.
const MAX_CAP = 2 ** 31 - 1;

/**
 * The `maxObjectBytes` option of an adapter: undefined gives the default cap; otherwise a
 * non-negative integer of at most 2^31 - 1 (a TypeError names the adapter when it is not).
 * @param {unknown} value
 * @param {string} adapter the adapter's name, for the message
 * @returns {number}
 */
export function objectCap(value, adapter) {
  if (value === undefined || value === null) return DEFAULT_MAX_OBJECT_BYTES;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_CAP) {
    throw new TypeError(`${adapter}: maxObjectBytes must be an integer from 0 to ${MAX_CAP}, got ${show(value)}`);
  }
  return value;
}

/**
 * Whether a read of an object of `size` bytes with this `maxBytes` would return more than `cap`
 * bytes: such a read is refused (a prefix read of at most `cap` bytes is not).
 * @param {number} size
 * @param {number | undefined} maxBytes
 * @param {number} cap
 * @returns {boolean}
 */
export function overCap(size, maxBytes, cap) {
  return Math.min(size, maxBytes ?? Infinity) > cap;
}

/**
 * The error a refused read rejects with: an `Error` whose message names the key, the size and the
 * cap, with `code: "object-too-large"`, `key`, `size` (null when only "more than the cap" is known)
 * and `maxObjectBytes`. The core turns it into a `storage-read-failed` diagnostic.
 * @param {string} key
 * @param {number | null} size
 * @param {number} cap
 * @returns {Error & { code: "object-too-large"; key: string; size: number | null; maxObjectBytes: number }}
 */
export function objectTooLarge(key, size, cap) {
  const what = size === null ? `holds more than ${cap} bytes` : `is ${size} bytes`;
  const e = /** @type {any} */ (new Error(
    `${key} ${what}, above the size cap of ${cap} bytes (maxObjectBytes); it was not read`,
  ));
  e.code = "object-too-large";
  e.key = key;
  e.size = size;
  e.maxObjectBytes = cap;
  return e;
}

/**
 * The cursor option: undefined, or a non-empty string.
 * @param {unknown} cursor
 * @returns {string | undefined}
 */
export function cursorOption(cursor) {
  if (cursor === undefined || cursor === null) return undefined;
  if (typeof cursor !== "string" || cursor === "") {
    throw new TypeError(`invalid list cursor ${show(cursor)}: must be a string from a previous page`);
  }
  return cursor;
}

// The most directory names a skip hint may carry.
const MAX_SKIP_NAMES = 1024;

/**
 * The `skip` option of `list`: the directories the caller drops anyway (the core sends
 * `{ names: [".git", "node_modules"], dotDirectories: true }`). Returns null when it skips
 * nothing, else `{ id, skips(name) }`, where `id` tells two hints apart and `skips` says whether a
 * directory of that name (below the listed prefix) may be left out. A store may ignore the hint.
 * @param {unknown} skip
 * @returns {{ id: string; skips(name: string): boolean } | null}
 */
export function skipOption(skip) {
  if (skip === undefined || skip === null) return null;
  const bad = (why) => new TypeError(`invalid list skip ${show(skip)}: ${why}`);
  if (typeof skip !== "object" || Array.isArray(skip)) throw bad("must be { names?: string[]; dotDirectories?: boolean }");
  const names = skip.names ?? [];
  const dots = skip.dotDirectories ?? false;
  if (!Array.isArray(names) || names.length > MAX_SKIP_NAMES || names.some((n) => typeof n !== "string" || n === "" || n.includes("/"))) {
    throw bad(`names must be an array of at most ${MAX_SKIP_NAMES} directory names`);
  }
  if (typeof dots !== "boolean") throw bad("dotDirectories must be a boolean");
  if (names.length === 0 && !dots) return null;
  const set = new Set(names);
  return {
    id: JSON.stringify([dots, [...set].sort()]),
    skips: (name) => (dots && name.startsWith(".")) || set.has(name),
  };
}

const encoder = new TextEncoder();

/**
 * File content as bytes: strings are encoded as UTF-8; typed arrays and ArrayBuffers are copied.
 * @param {string | Uint8Array | ArrayBuffer | ArrayBufferView} value
 * @returns {Uint8Array}
 */
export function toBytes(value) {
  if (typeof value === "string") return encoder.encode(value);
  if (value instanceof Uint8Array) return value.slice();
  if (value instanceof ArrayBuffer) return new Uint8Array(value.slice(0));
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  }
  throw new TypeError(`file content must be a string or bytes, got ${value === null ? "null" : typeof value}`);
}

/**
 * FNV-1a (64-bit) of the bytes, as 16 lowercase hex digits: the memory stores' etag, the same in
 * Rust (MemoryStorage) and here (tests/cases/etag.json holds both to it). The 64-bit state is
 * kept in two 32-bit halves; the prime is 2^40 + 0x1b3.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function fnv1a(bytes) {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < bytes.length; i++) {
    lo ^= bytes[i];
    // (hi:lo) * 0x1b3, plus (lo << 40): lo's low 24 bits shifted into hi by 8.
    const l = (lo >>> 0) * 0x1b3;
    const carry = Math.floor(l / 0x100000000);
    hi = (Math.imul(hi, 0x1b3) + carry + ((lo << 8) >>> 0)) >>> 0;
    lo = l >>> 0;
  }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}

/**
 * The entries of a `Record<string, V>` or a `Map<string, V>`.
 * @template V
 * @param {Record<string, V> | Map<string, V> | Iterable<[string, V]>} files
 * @returns {[string, V][]}
 */
export function fileEntries(files) {
  if (files === undefined || files === null) return [];
  if (files instanceof Map) return [...files.entries()];
  if (typeof files === "object" && typeof files[Symbol.iterator] === "function") return [...files];
  if (typeof files === "object") return Object.entries(files);
  throw new TypeError("files must be an object or a Map of key -> content");
}
