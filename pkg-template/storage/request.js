// One GET of a network store under the host's origin policy and timeout. Which URL may be
// requested, and whether the host's headers go with it, is the core's rule (checkRequestUrl, the
// origin policy of src/net/origin.rs, where an index's URLs are resolved too): this module
// only performs what it decides. Redirects are followed by hand, one hop at a time, each hop
// checked; every request has its own AbortController, and the timeout bounds the whole request:
// its redirects, its answer and the reading of its body.
import { checkRequestUrl } from "../guarded.js";
import { codedError, show } from "./keys.js";

/** The default of `timeoutMs`: 30 s. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Most origins `allowOrigins` may name (the core's bound). */
const MAX_ALLOWED_ORIGINS = 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * `allowOrigins` of `fn`, checked for its type: an array of absolute http(s) URL strings (the core
 * decides, at the first request, whether each is an origin). Absent is `[]`.
 * @param {unknown} value
 * @param {string} fn
 * @returns {string[]}
 */
export function allowOriginsOption(value, fn) {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_ALLOWED_ORIGINS) {
    throw new TypeError(`${fn}: options.allowOrigins must be an array of at most ${MAX_ALLOWED_ORIGINS} origins, got ${show(value)}`);
  }
  return value.map((o, i) => {
    let u = null;
    try {
      u = typeof o === "string" && o.length <= 2048 ? new URL(o) : null;
    } catch {
      u = null;
    }
    if (u === null || (u.protocol !== "http:" && u.protocol !== "https:")) {
      throw new TypeError(`${fn}: options.allowOrigins[${i}] must be an http(s) origin such as "https://cdn.example.com", got ${show(o)}`);
    }
    return o;
  });
}

/** Lets the body of `res` go without waiting for it. */
function discard(res) {
  try {
    res.body?.cancel().catch(() => {});
  } catch {
    // A body of a host's own fetch that cannot be cancelled: the abort closes it.
  }
}

/** The body of `res`, refused past `max` bytes without reading further. */
async function boundedBody(res, max, url) {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    discard(res);
    throw codedError(`GET ${url}: ${declared} bytes, more than the ${max} taken`, "artifact-too-large");
  }
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      reader.cancel().catch(() => {});
      throw codedError(`GET ${url}: more than the ${max} bytes taken`, "artifact-too-large");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * A GET function for one store: `get(url, { headers, maxBytes })` answers `{ status, url, etag,
 * bytes }` (`url` the one that answered after redirects; `bytes` the body of a 2xx answer, at most
 * `maxBytes`, else null) or throws an Error with a `code`: `origin-refused` or `redirect-invalid`
 * (the core's diagnostic, its message naming the URL and origin), `fetch-timeout`, `fetch-failed`,
 * `artifact-too-large`.
 *
 * @param {{ fetch: typeof fetch; headers: Record<string, string>; origin: string;
 *   allowOrigins: string[]; timeoutMs: number }} how `headers` go only to `origin`'s origin.
 */
export function originGet({ fetch: fetchFn, headers, origin, allowOrigins, timeoutMs }) {
  /** The core's decision on `url` (or on a redirect from `base` to `url`), or its diagnostic thrown. */
  function decide(url, base, redirects) {
    const opts = base === undefined ? { origin, allowOrigins } : { origin, allowOrigins, base, redirects };
    const target = checkRequestUrl(url, opts);
    if (target.error) {
      const d = target.error;
      throw codedError(`${d.code}: ${d.message}`, d.code, { url: base ?? url });
    }
    return target;
  }

  return async function get(url, { headers: extra = {}, maxBytes }) {
    const controller = new AbortController();
    let timer;
    const expired = new Promise((_, reject) => {
      timer = setTimeout(() => {
        const e = codedError(`fetch-timeout: GET ${url}: no complete answer within ${timeoutMs} ms; the request was aborted`, "fetch-timeout", { url });
        controller.abort(e);
        reject(e);
      }, timeoutMs);
    });
    expired.catch(() => {});
    // Whatever a host's fetch does with the signal, the request settles at its timeout.
    const within = (p) => Promise.race([p, expired]);
    try {
      let target = decide(url);
      for (let redirects = 0; ; ) {
        let res;
        try {
          const sent = target.credentials ? { ...headers, ...extra } : { ...extra };
          res = await within(fetchFn(target.url, { headers: sent, redirect: "manual", signal: controller.signal }));
        } catch (e) {
          if (controller.signal.aborted) throw controller.signal.reason;
          throw codedError(`GET ${target.url}: ${e?.message ?? e}`, "fetch-failed", { url: target.url });
        }
        if (typeof res !== "object" || res === null || typeof res.status !== "number" || typeof res.headers?.get !== "function") {
          throw codedError(`GET ${target.url}: the fetch function answered ${show(res)}, not a Response`, "fetch-failed", { url: target.url });
        }
        if (res.type === "opaqueredirect") {
          throw codedError(`redirect-invalid: ${target.url} redirects, and this runtime does not show where (an opaque redirect); give the store the URL it redirects to`, "redirect-invalid", { url: target.url });
        }
        if (REDIRECTS.has(res.status)) {
          discard(res);
          redirects++;
          target = decide(res.headers.get("location"), target.url, redirects);
          continue;
        }
        let bytes = null;
        if (res.ok && maxBytes !== undefined) {
          const at = target.url;
          bytes = await within(boundedBody(res, maxBytes, at)).catch((e) => {
            throw typeof e?.code === "string" ? e : codedError(`GET ${at}: ${e?.message ?? e}`, "fetch-failed", { url: at });
          });
        }
        else discard(res);
        return { status: res.status, url: target.url, etag: res.headers.get("etag"), bytes };
      }
    } catch (e) {
      // Whatever went wrong, the connection goes with it.
      if (!controller.signal.aborted) controller.abort(e);
      throw e;
    } finally {
      clearTimeout(timer);
    }
  };
}
