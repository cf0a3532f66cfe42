// A store over a site's Agent Skills Discovery index (/.well-known/agent-skills/index.json, with
// the v0.1.0 /.well-known/skills/index.json as fallback). JS holds only the fetching: the index is
// read, every artifact verified and unpacked, by the core (parseSkillsIndex, unpackSkillArtifact).
import { parseSkillsIndex, unpackSkillArtifact } from "../guarded.js";
import {
  assertKey, assertPrefix, byteLimit, codedError, cursorOption, objectCap, objectTooLarge, optionsObject, overCap, pageLimit, positiveOption, sharedLoad, show,
} from "./keys.js";
import { DEFAULT_TIMEOUT_MS, allowOriginsOption, originGet } from "./request.js";

const DEFAULT_LIMIT = 1000;
const DEFAULT_MAX_INDEX_BYTES = 16 * 1024 * 1024;
const INDEX_V2 = "/.well-known/agent-skills/index.json";
const INDEX_V1 = "/.well-known/skills/index.json";
const OPTION_KEYS = new Set([
  "fetch", "headers", "allowOrigins", "timeoutMs", "maxSkillBytes", "maxArtifactBytes", "maxEntries", "maxIndexBytes", "maxObjectBytes", "fallback",
]);

/** Where an artifact is kept: its digest, and its URL (a failed fetch of one URL is not another's). */
function artifactKey(skill) {
  return `${skill.digest} ${skill.url}`;
}

const failure = codedError;
const positive = (value, name, fallback) => positiveOption(value, name, fallback, "wellKnownStorage", 0xffffffff);

/**
 * A read-only store over a discovery index. Keys are `<name>/SKILL.md` and, once a skill's
 * artifact has been fetched, `<name>/<path>` for each of its files.
 *
 * Costs: a listing from the start (no cursor) fetches the index once, conditionally (`If-None-Match`
 * with the ETag of the last answer; a 304 keeps what was read), and fetches no artifact. The first
 * read of a skill fetches its artifact once (concurrent reads share the request), verifies its
 * digest and unpacks it in the core; the files are kept by digest, so an unchanged skill is never
 * downloaded again, and the listing's etag of a SKILL.md is its digest (a changed digest is a
 * changed skill for `refresh()`). A v0.1.0 index has no digests: each file is fetched on its first
 * read, unverified (the listing says so).
 *
 * Trust: the host's `headers` go only to the origin of `baseUrl`. An index entry or a redirect to
 * another origin is refused (`origin-refused`, naming it) unless `allowOrigins` lists that origin,
 * and then it is requested without the headers. Redirects are followed by hand (at most 5), each
 * hop checked alike. Every request is aborted at `timeoutMs` (30 s), the reading of its body
 * included, and nothing failed is kept: the next call asks again. A listing never waits for an
 * artifact.
 *
 * @param {string | URL} baseUrl the site (`https://example.com`), or the index's own URL (ending
 *   in `.json`).
 * @param {{ fetch?: typeof fetch; maxSkillBytes?: number; maxArtifactBytes?: number;
 *   maxEntries?: number; maxIndexBytes?: number; maxObjectBytes?: number; fallback?: boolean;
 *   headers?: Record<string, string>; allowOrigins?: string[]; timeoutMs?: number }} [options]
 */
export function wellKnownStorage(baseUrl, options = {}) {
  options = optionsObject(options, "wellKnownStorage", { keys: [...OPTION_KEYS] });
  if (typeof baseUrl !== "string" && !(baseUrl instanceof URL)) {
    throw new TypeError(`wellKnownStorage: baseUrl must be a string or a URL, got ${show(baseUrl)}`);
  }
  let base;
  try {
    base = new URL(typeof baseUrl === "string" ? baseUrl : baseUrl.href);
  } catch {
    throw new TypeError(`wellKnownStorage: baseUrl must be an absolute URL, got ${show(baseUrl)}`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new TypeError(`wellKnownStorage: baseUrl must be http(s), got ${show(String(baseUrl))}`);
  }
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== "function") throw new TypeError("wellKnownStorage: options.fetch must be a function");
  const headers = optionsObject(options.headers, "wellKnownStorage", { param: "options.headers" });
  const allowOrigins = allowOriginsOption(options.allowOrigins, "wellKnownStorage");
  const timeoutMs = positive(options.timeoutMs, "timeoutMs", DEFAULT_TIMEOUT_MS);
  if (options.fallback !== undefined && typeof options.fallback !== "boolean") {
    throw new TypeError(`wellKnownStorage: options.fallback must be a boolean, got ${show(options.fallback)}`);
  }
  const limits = {
    maxSkillBytes: positive(options.maxSkillBytes, "maxSkillBytes", 16 * 1024 * 1024),
    maxArtifactBytes: positive(options.maxArtifactBytes, "maxArtifactBytes", 16 * 1024 * 1024),
    maxEntries: positive(options.maxEntries, "maxEntries", 512),
  };
  const maxIndexBytes = positive(options.maxIndexBytes, "maxIndexBytes", DEFAULT_MAX_INDEX_BYTES);
  const cap = objectCap(options.maxObjectBytes, "wellKnownStorage");
  const explicit = base.pathname.endsWith(".json");
  const candidates = explicit
    ? [base.href]
    : [new URL(INDEX_V2, base).href, ...(options.fallback === false ? [] : [new URL(INDEX_V1, base).href])];

  /** @type {{ url: string; etag: string | null; parsed: any; byName: Map<string, any>; keys: any[] | null } | null} */
  let index = null;
  /** Artifacts being fetched: digest and url (or url for v0.1.0 files) -> Promise<Map<path, Uint8Array>>. */
  const pending = new Map();
  /** Artifacts fetched, verified and unpacked: the same keys -> Map<path, Uint8Array>. */
  const unpacked = new Map();
  /** name -> diagnostics of its last artifact */
  const skillDiagnostics = new Map();
  const counts = { indexRequests: 0, indexNotModified: 0, artifactRequests: 0, artifactBytes: 0 };
  // The host's headers go to the origin of baseUrl only; the core decides each URL (request.js).
  const get = originGet({ fetch: fetchFn, headers, origin: base.href, allowOrigins, timeoutMs });

  async function loadIndex() {
    for (const [i, url] of candidates.entries()) {
      const conditional = index && index.url === url && index.etag ? { "if-none-match": index.etag } : {};
      counts.indexRequests++;
      const res = await get(url, { headers: conditional, maxBytes: maxIndexBytes });
      if (res.status === 304 && index && index.url === url) {
        counts.indexNotModified++;
        return;
      }
      if (res.status === 404 && i + 1 < candidates.length) continue;
      if (res.bytes === null) throw failure(`GET ${res.url}: HTTP ${res.status}`, "http-error", { url: res.url, status: res.status });
      // Entries resolve against the URL that answered; their origins are checked by the same policy.
      const parsed = parseSkillsIndex(res.bytes, res.url, { origin: base.href, allowOrigins });
      const byName = new Map(parsed.skills.map((s) => [s.name, s]));
      // Keep only the artifacts the new index still names: memory follows the index.
      const live = new Set(parsed.skills.map(artifactKey));
      // v0.1.0 files have no digest to tell a change: they are fetched again after each new index.
      for (const m of [pending, unpacked]) for (const k of m.keys()) if (!live.has(k) || k.startsWith("file:")) m.delete(k);
      index = { url, etag: res.etag, parsed, byName, keys: null };
      return;
    }
  }

  /** One index request at a time: concurrent listings share it (it settles by its timeout). */
  const loadOnce = sharedLoad(loadIndex);

  async function ensureIndex() {
    if (index === null) await loadOnce();
    return /** @type {NonNullable<typeof index>} */ (index);
  }

  /** The files of `skill`, fetched, verified and unpacked once per digest. */
  function skillFiles(skill, rel) {
    if (skill.type === "files") {
      const file = skill.files.find((f) => f.path === rel);
      if (!file) return Promise.resolve(null);
      if (rel !== "SKILL.md") return fetchOnce(`file:${file.url}`, file.url, (bytes) => new Map([[rel, bytes]]), skill.name);
      // The SKILL.md is checked as an artifact's is: it must name this entry's skill.
      return fetchOnce(`file:${file.url}`, file.url, (bytes) => {
        const out = unpackSkillArtifact(bytes, { ...limits, type: "skill-md", unverified: true, name: skill.name });
        const error = out.diagnostics.find((d) => d.severity === "error");
        if (error) throw failure(`${skill.name}: ${error.code}: ${error.message}`, error.code, { url: file.url });
        return new Map([[rel, bytes]]);
      }, skill.name);
    }
    return fetchOnce(artifactKey(skill), skill.url, (bytes) => {
      const out = unpackSkillArtifact(bytes, { ...limits, type: skill.type, digest: skill.digest, name: skill.name });
      skillDiagnostics.set(skill.name, out.diagnostics);
      const error = out.diagnostics.find((d) => d.severity === "error");
      if (error) throw failure(`${skill.name}: ${error.code}: ${error.message}`, error.code, { url: skill.url });
      return new Map(out.files.map((f) => [f.path, f.bytes]));
    }, skill.name);
  }

  function fetchOnce(cacheKey, url, unpack, name) {
    const done = unpacked.get(cacheKey);
    if (done !== undefined) return Promise.resolve(done);
    let request = pending.get(cacheKey);
    if (request === undefined) {
      request = (async () => {
        counts.artifactRequests++;
        let res;
        try {
          res = await get(url, { maxBytes: limits.maxArtifactBytes });
        } catch (e) {
          e.message = `${name}: ${e.message}`;
          throw e;
        }
        if (res.bytes === null) throw failure(`${name}: GET ${res.url}: HTTP ${res.status}`, "http-error", { url: res.url, status: res.status });
        counts.artifactBytes += res.bytes.length;
        return unpack(res.bytes);
      })();
      const mine = request;
      pending.set(cacheKey, mine);
      // Only what arrived whole is kept; a failure or a timeout is forgotten: the next read asks again.
      mine.then((files) => {
        if (pending.get(cacheKey) !== mine) return;
        pending.delete(cacheKey);
        unpacked.set(cacheKey, files);
        if (index) index.keys = null;
      }, () => {
        if (pending.get(cacheKey) === mine) pending.delete(cacheKey);
      });
    }
    return request;
  }

  /** Every key, sorted: each skill's SKILL.md, and the files of artifacts already unpacked (a
   * listing never waits for an artifact still on its way). */
  function sortedEntries(idx) {
    if (idx.keys !== null) return idx.keys;
    const entries = [];
    for (const s of idx.parsed.skills) {
      const files = s.digest ? unpacked.get(artifactKey(s)) : undefined;
      if (files) {
        for (const [path, bytes] of files) {
          // The SKILL.md is listed alike before and after its artifact arrives: its etag is the digest.
          entries.push(path === "SKILL.md" ? { key: `${s.name}/${path}`, etag: s.digest } : { key: `${s.name}/${path}`, size: bytes.length });
        }
      } else {
        entries.push(s.digest ? { key: `${s.name}/SKILL.md`, etag: s.digest } : { key: `${s.name}/SKILL.md` });
        if (s.type === "files") for (const f of s.files) if (f.path !== "SKILL.md") entries.push({ key: `${s.name}/${f.path}` });
      }
    }
    entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    idx.keys = entries;
    return entries;
  }

  return {
    /** Where the keys are: the index's directory. */
    get location() {
      return new URL("./", index?.url ?? candidates[0]).href;
    },
    /** Where its skills come from, for the host's consent: the index URL's origin. */
    get origin() {
      return new URL(index?.url ?? candidates[0]).origin;
    },
    /** A remote store: its scope is untrusted unless the host says otherwise. */
    remote: true,
    /** Its skills are at its root (`<name>/SKILL.md`): a scope without roots searches there. */
    roots: Object.freeze([""]),
    /** The size cap of this store, in bytes. */
    maxObjectBytes: cap,

    async list(prefix, opts = {}) {
      assertPrefix(prefix);
      opts = optionsObject(opts, "list", { param: "opts" });
      const limit = pageLimit(opts.limit, DEFAULT_LIMIT);
      const cursor = cursorOption(opts.cursor);
      // A listing of the whole store from its start (a discovery, a refresh) asks for the index again.
      if ((cursor === undefined && prefix === "") || index === null) await loadOnce();
      const idx = await ensureIndex();
      const all = sortedEntries(idx);
      let lo = 0;
      let hi = all.length;
      const from = cursor !== undefined && cursor > prefix ? cursor : prefix;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (all[mid].key < from || (from === cursor && all[mid].key === cursor)) lo = mid + 1;
        else hi = mid;
      }
      const entries = [];
      let i = lo;
      while (i < all.length && entries.length < limit && all[i].key.startsWith(prefix)) entries.push({ ...all[i++] });
      const page = { entries };
      if (entries.length > 0 && i < all.length && all[i].key.startsWith(prefix)) page.cursor = entries[entries.length - 1].key;
      if (cursor === undefined) {
        const warnings = idx.parsed.diagnostics.map((d) => ({ key: prefix, message: `${d.code}: ${d.path ? `${d.path}: ` : ""}${d.message}` }));
        if (idx.parsed.skills.length === 0 && warnings.length === 0) warnings.push({ key: prefix, message: `the index at ${idx.url} lists no skills` });
        if (warnings.length > 0) page.warnings = warnings;
      }
      return page;
    },

    async read(key, opts = {}) {
      assertKey(key);
      const maxBytes = byteLimit(optionsObject(opts, "read", { param: "opts" }).maxBytes);
      const slash = key.indexOf("/");
      if (slash < 0) return null;
      const idx = await ensureIndex();
      const skill = idx.byName.get(key.slice(0, slash));
      if (!skill) return null;
      const rel = key.slice(slash + 1);
      const files = await skillFiles(skill, rel);
      const bytes = files?.get(rel);
      if (bytes === undefined) return null;
      if (overCap(bytes.length, maxBytes, cap)) throw objectTooLarge(key, bytes.length, cap);
      return maxBytes === undefined ? bytes.slice() : bytes.slice(0, maxBytes);
    },

    /** What the last index and artifacts said: `{ index, skills: { name: Diagnostic[] } }`. */
    diagnostics() {
      return { index: index ? [...index.parsed.diagnostics] : [], skills: Object.fromEntries(skillDiagnostics) };
    },

    /** Requests made so far: index fetches (and how many were answered 304), artifact fetches and their bytes. */
    stats() {
      return { ...counts };
    },
  };
}
