// Storage over a Cloudflare R2 bucket binding (Workers), optionally under a key prefix.
import {
  assertKey, assertPrefix, byteLimit, cursorOption, keyProblem, objectCap, objectTooLarge, overCap, pageLimit,
} from "./keys.js";
import { optionsObject } from "./keys.js";

/**
 * @typedef {import("../index.js").SkillStorage} SkillStorage
 * @typedef {import("../index.js").ListPage} ListPage
 * @typedef {import("../index.js").ListEntry} ListEntry
 * @typedef {import("../index.js").R2BucketLike} R2BucketLike
 */

const MAX_LIMIT = 1000;

/**
 * A store over an R2 bucket binding. Keys are the object keys with `prefix` stripped.
 *
 * Costs: `list` is one `bucket.list({ prefix, cursor, limit })` call per page (limit capped at
 * 1000, R2's maximum); the next cursor is returned only when R2 says `truncated` (an R2 page may
 * hold fewer objects than asked even when more follow), so a listing of n keys costs
 * ceil(n / limit) calls. A first page that comes back empty costs one more `bucket.list` of one key
 * under the store's prefix, to tell an empty subtree from a store prefix that holds nothing (that
 * page then carries a warning saying so; an empty bucket with no prefix says so without the extra
 * call). `read` is one `bucket.get` (a ranged get of `maxBytes` bytes when given; `bucket.head` for
 * `maxBytes: 0`; a ranged get of an empty object fails in R2, so that case costs a `bucket.head`
 * more). Size and etag come from the list result, no extra call.
 * Object keys that are not valid storage keys (e.g. `a//b`) are left out with a warning.
 *
 * Size cap: a read that would return more than `maxObjectBytes` bytes rejects with an
 * `object-too-large` Error. The size comes from the object metadata that `bucket.get` answers with
 * before the body is read: the body of a refused object is cancelled unread (a binding whose
 * answer has no `size` is checked on the bytes instead). A ranged get never asks R2 for more than
 * min(maxBytes, cap + 1) bytes (the one byte past the cap tells an object above it from one at it
 * when the binding reports no size).
 *
 * Failures: every call is awaited inside the adapter, so a binding that throws or rejects makes
 * the `list` or `read` promise reject (with the binding's error); nothing is thrown synchronously.
 *
 * @param {R2BucketLike} bucket the binding (`env.MY_BUCKET`)
 * @param {{ prefix?: string; bucketName?: string; maxObjectBytes?: number }} [options] `prefix`: the
 *   store's root inside the bucket, e.g. `"skills/"` (a trailing `/` is added when missing);
 *   `bucketName`: the bucket's name, for the locations the model is shown (`r2://<bucketName>/<prefix>`;
 *   without it `r2:/<prefix>`); `maxObjectBytes`: the size cap (default 16 MiB, `DEFAULT_MAX_OBJECT_BYTES`)
 * @returns {SkillStorage & { readonly prefix: string; readonly location: string; readonly maxObjectBytes: number }}
 */
export function r2Storage(bucket, options = {}) {
  if (bucket === null || typeof bucket !== "object" && typeof bucket !== "function"
      || typeof bucket.list !== "function" || typeof bucket.get !== "function") {
    throw new TypeError("r2Storage: bucket must be an R2 bucket binding (with list and get)");
  }
  // A binding is a plain object: a Proxy whose traps throw fails here, when the store is made,
  // rather than on the first list or read.
  for (const m of ["list", "get", "head"]) {
    if (m in bucket) Object.getOwnPropertyDescriptor(bucket, m);
  }
  Object.keys(bucket);
  options = optionsObject(options, "r2Storage", { keys: ["prefix", "bucketName", "maxObjectBytes"] });
  let root = options.prefix ?? "";
  if (typeof root !== "string") throw new TypeError(`r2Storage: prefix must be a string, got ${typeof root}`);
  if (root !== "" && typeof root === "string" && !root.endsWith("/")) root += "/";
  assertPrefix(root);
  const cap = objectCap(options?.maxObjectBytes, "r2Storage");

  /**
   * The bytes of a `bucket.get` answer, refused unread when its size is above what may be returned.
   * @param {string} key
   * @param {any} obj
   * @param {number | undefined} maxBytes
   */
  async function bodyOf(key, obj, maxBytes) {
    if (typeof obj?.size === "number" && overCap(obj.size, maxBytes, cap)) {
      try {
        await obj.body?.cancel?.();
      } catch {
        // the body is dropped either way
      }
      throw objectTooLarge(key, obj.size, cap);
    }
    if (typeof obj?.arrayBuffer !== "function") {
      throw new TypeError(`${key}: bucket.get answered with an object that has no arrayBuffer()`);
    }
    const bytes = new Uint8Array(await obj.arrayBuffer());
    if (typeof obj.size !== "number" && overCap(bytes.length, maxBytes, cap)) {
      throw objectTooLarge(key, bytes.length, cap);
    }
    // A binding that ignored the range still gives no more than was asked for.
    return maxBytes !== undefined && bytes.length > maxBytes ? bytes.slice(0, maxBytes) : bytes;
  }

  if (options.bucketName !== undefined && (typeof options.bucketName !== "string" || !/^[a-z0-9][a-z0-9-]{0,62}$/.test(options.bucketName))) {
    throw new TypeError("r2Storage: bucketName must be an R2 bucket name (lowercase letters, digits, hyphens)");
  }
  const location = options.bucketName === undefined ? `r2:/${root}` : `r2://${options.bucketName}/${root}`;

  return {
    prefix: root,
    /** Where the keys are, as the model is shown it: `r2://<bucketName>/<prefix>` or `r2:/<prefix>`. */
    location,
    maxObjectBytes: cap,

    /**
     * @param {string} prefix
     * @param {{ cursor?: string; limit?: number }} [opts]
     * @returns {Promise<ListPage>}
     */
    async list(prefix, opts = {}) {
      assertPrefix(prefix);
      opts = optionsObject(opts, "list", { param: "opts" });
      const limit = pageLimit(opts.limit, MAX_LIMIT, MAX_LIMIT);
      const cursor = cursorOption(opts.cursor);
      /** @type {{ prefix: string; limit: number; cursor?: string }} */
      const req = { prefix: root + prefix, limit };
      if (cursor !== undefined) req.cursor = cursor;
      const res = await bucket.list(req);
      if (res === null || typeof res !== "object") {
        throw new TypeError(`bucket.list answered with ${res === null ? "null" : typeof res}, not a listing`);
      }
      /** @type {ListEntry[]} */
      const entries = [];
      /** @type {{ key: string; message: string }[]} */
      const warnings = [];
      for (const obj of res.objects ?? []) {
        if (typeof obj?.key !== "string" || !obj.key.startsWith(root)) continue;
        const key = obj.key.slice(root.length);
        const problem = keyProblem(key);
        if (problem !== null) {
          warnings.push({ key, message: `not a valid storage key: ${problem}` });
          continue;
        }
        /** @type {ListEntry} */
        const entry = { key };
        if (typeof obj.size === "number") entry.size = obj.size;
        const etag = obj.etag ?? obj.httpEtag;
        if (typeof etag === "string") entry.etag = etag;
        entries.push(entry);
      }
      /** @type {ListPage} */
      const page = { entries };
      if (res.truncated === true && typeof res.cursor === "string" && res.cursor !== "") {
        page.cursor = res.cursor;
      }
      if (entries.length === 0 && cursor === undefined && page.cursor === undefined && warnings.length === 0) {
        // Nothing under prefix: say so when nothing is under the store's root either (a mistyped
        // prefix or an unfilled bucket would otherwise look like a store without skills).
        const empty = prefix === "" || ((await bucket.list({ prefix: root, limit: 1 }))?.objects ?? []).length === 0;
        if (empty) {
          warnings.push({
            key: prefix,
            message: root === ""
              ? "the bucket holds no objects"
              : `nothing is stored under the prefix ${JSON.stringify(root)} of the bucket`,
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
      const maxBytes = byteLimit(optionsObject(opts, "read", { param: "opts" }).maxBytes);
      if (maxBytes === 0) {
        const head = await bucket.head(root + key);
        return head === null ? null : new Uint8Array(0);
      }
      let obj;
      if (maxBytes === undefined) {
        obj = await bucket.get(root + key);
      } else {
        // Never more than the cap: a larger range of a larger object is refused from its size.
        const length = Math.min(maxBytes, cap + 1);
        try {
          obj = await bucket.get(root + key, { range: { offset: 0, length } });
        } catch (e) {
          // R2 refuses any range of an empty object (416): tell that apart from a real failure.
          const head = await bucket.head(root + key).catch(() => undefined);
          if (head === null) return null;
          if (head !== undefined && head.size === 0) return new Uint8Array(0);
          throw e;
        }
      }
      if (obj === null || obj === undefined) return null;
      return bodyOf(key, obj, maxBytes);
    },
  };
}
