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

/**
 * Why `key` is not a valid storage key, or null when it is.
 * @param {unknown} key
 * @returns {string | null}
 */
export function keyProblem(key) {
  if (typeof key !== "string") return `must be a string, got ${key === null ? "null" : typeof key}`;
  if (key === "") return "must not be empty";
  if (key.startsWith("/")) return "must be relative (it starts with '/')";
  if (key.includes("\\")) return "must not contain a backslash";
  if (CONTROL.test(key)) return "must not contain control characters";
  if (ENCODED.test(key)) return "must not contain a percent-encoded '.', '/' or '\\'";
  if (LONE_SURROGATE.test(key)) return "must not contain a lone surrogate (it has no UTF-8 form)";
  for (const segment of key.split("/")) {
    if (segment === "") return "must not contain an empty segment ('//' or a trailing '/')";
    if (segment === "." || segment === "..") return `must not contain a '${segment}' segment`;
  }
  return null;
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

/**
 * The options object of `fn`: `{}` for undefined (and null when `optional`), the object itself when
 * it is a plain (non-array, non-function) object; anything else is a TypeError naming `param`.
 * @param {unknown} value
 * @param {string} fn the function's name, for the message
 * @param {{ param?: string; optional?: boolean }} [how]
 * @returns {Record<string, any>}
 */
export function optionsObject(value, fn, { param = "options", optional = true } = {}) {
  if (optional && (value === undefined || value === null)) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`${fn}: ${param} must be an options object, got ${show(value)}`);
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
  if (prefix === "") return;
  if (typeof prefix !== "string") {
    throw new TypeError(`invalid storage prefix ${show(prefix)}: must be a string`);
  }
  if (!prefix.endsWith("/")) {
    throw new TypeError(`invalid storage prefix ${show(prefix)}: must be "" or end with '/'`);
  }
  const problem = keyProblem(prefix.slice(0, -1));
  if (problem !== null) throw new TypeError(`invalid storage prefix ${show(prefix)}: ${problem}`);
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
 * FNV-1a (32-bit) of the bytes, as 8 hex digits: a cheap content tag for etags.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
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
