// A store over a site's Agent Skills Discovery index (/.well-known/agent-skills/index.json, with
// the v0.1.0 /.well-known/skills/index.json as fallback). JS holds only the fetching: the index is
// read, every artifact verified and unpacked, by the core (parseSkillsIndex, unpackSkillArtifact).
import { parseSkillsIndex, unpackSkillArtifact } from "../exports.js";
import {
  assertKey, assertPrefix, byteLimit, codedError, cursorOption, objectCap, objectTooLarge, optionsObject, overCap, pageLimit, positiveOption, sharedLoad, show,
} from "./keys.js";

const DEFAULT_LIMIT = 1000;
const DEFAULT_MAX_INDEX_BYTES = 16 * 1024 * 1024;
const INDEX_V2 = "/.well-known/agent-skills/index.json";
const INDEX_V1 = "/.well-known/skills/index.json";

/** Where an artifact is kept: its digest, and its URL (a failed fetch of one URL is not another's). */
function artifactKey(skill) {
  return `${skill.digest} ${skill.url}`;
}

const failure = codedError;
const positive = (value, name, fallback) => positiveOption(value, name, fallback, "wellKnownStorage", 0xffffffff);

/** The body of `res`, refused past `max` bytes without reading further. */
async function boundedBody(res, max, url) {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {});
    throw failure(`GET ${url}: ${declared} bytes, more than the ${max} taken`, "artifact-too-large");
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
      await reader.cancel().catch(() => {});
      throw failure(`GET ${url}: more than the ${max} bytes taken`, "artifact-too-large");
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
 * @param {string | URL} baseUrl the site (`https://example.com`), or the index's own URL (ending
 *   in `.json`).
 * @param {{ fetch?: typeof fetch; maxSkillBytes?: number; maxArtifactBytes?: number;
 *   maxEntries?: number; maxIndexBytes?: number; maxObjectBytes?: number; fallback?: boolean;
 *   headers?: Record<string, string> }} [options]
 */
export function wellKnownStorage(baseUrl, options = {}) {
  options = optionsObject(options, "wellKnownStorage", {
    keys: ["fetch", "headers", "maxSkillBytes", "maxArtifactBytes", "maxEntries", "maxIndexBytes", "maxObjectBytes", "fallback"],
  });
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

  /** @type {{ url: string; etag: string | null; parsed: any; byName: Map<string, any>; keys: string[] | null } | null} */
  let index = null;
  /** digest (or url for v0.1.0 files) -> Promise<Map<path, Uint8Array>> */
  const artifacts = new Map();
  /** name -> diagnostics of its last artifact */
  const skillDiagnostics = new Map();
  const counts = { indexRequests: 0, indexNotModified: 0, artifactRequests: 0, artifactBytes: 0 };

  async function get(url, extraHeaders = {}) {
    try {
      return await fetchFn(url, { headers: { ...headers, ...extraHeaders } });
    } catch (e) {
      throw failure(`GET ${url}: ${e?.message ?? e}`, "fetch-failed", { url });
    }
  }

  async function loadIndex() {
    for (const [i, url] of candidates.entries()) {
      const conditional = index && index.url === url && index.etag ? { "if-none-match": index.etag } : {};
      counts.indexRequests++;
      const res = await get(url, conditional);
      if (res.status === 304 && index && index.url === url) {
        counts.indexNotModified++;
        await res.body?.cancel().catch(() => {});
        return;
      }
      if (res.status === 404 && i + 1 < candidates.length) {
        await res.body?.cancel().catch(() => {});
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw failure(`GET ${url}: HTTP ${res.status}`, "http-error", { url, status: res.status });
      }
      const bytes = await boundedBody(res, maxIndexBytes, url);
      const parsed = parseSkillsIndex(bytes, url);
      const byName = new Map(parsed.skills.map((s) => [s.name, s]));
      // Keep only the artifacts the new index still names: memory follows the index.
      const live = new Set(parsed.skills.map(artifactKey));
      // v0.1.0 files have no digest to tell a change: they are fetched again after each new index.
      for (const k of artifacts.keys()) if (!live.has(k) || k.startsWith("file:")) artifacts.delete(k);
      index = { url, etag: res.headers.get("etag"), parsed, byName, keys: null };
      return;
    }
  }

  /** One index request at a time: concurrent listings share it. */
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
      return fetchOnce(`file:${file.url}`, file.url, (bytes) => new Map([[rel, bytes]]), skill.name);
    }
    return fetchOnce(artifactKey(skill), skill.url, (bytes) => {
      const out = unpackSkillArtifact(bytes, { ...limits, type: skill.type, digest: skill.digest });
      skillDiagnostics.set(skill.name, out.diagnostics);
      const error = out.diagnostics.find((d) => d.severity === "error");
      if (error) throw failure(`${skill.name}: ${error.code}: ${error.message}`, error.code, { url: skill.url });
      if (index) index.keys = null;
      return new Map(out.files.map((f) => [f.path, f.bytes]));
    }, skill.name);
  }

  function fetchOnce(cacheKey, url, unpack, name) {
    let pending = artifacts.get(cacheKey);
    if (pending === undefined) {
      pending = (async () => {
        counts.artifactRequests++;
        const res = await get(url);
        if (!res.ok) {
          await res.body?.cancel().catch(() => {});
          throw failure(`${name}: GET ${url}: HTTP ${res.status}`, "http-error", { url, status: res.status });
        }
        const bytes = await boundedBody(res, limits.maxArtifactBytes, url);
        counts.artifactBytes += bytes.length;
        return unpack(bytes);
      })();
      // A failure is not kept: the next read tries again.
      pending.catch(() => artifacts.delete(cacheKey));
      artifacts.set(cacheKey, pending);
    }
    return pending;
  }

  /** Every key, sorted: each skill's SKILL.md, and the files of artifacts already unpacked. */
  async function sortedEntries(idx) {
    if (idx.keys !== null) return idx.keys;
    const entries = [];
    for (const s of idx.parsed.skills) {
      const cached = s.digest ? artifacts.get(artifactKey(s)) : undefined;
      const files = cached ? await cached.catch(() => null) : null;
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
    /** A remote store: its scope is untrusted unless the host says otherwise. */
    remote: true,
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
      const all = await sortedEntries(idx);
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
