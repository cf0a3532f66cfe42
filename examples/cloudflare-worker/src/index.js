// A Cloudflare Worker that serves Agent Skills kept in an R2 bucket: the catalog, the skill tool,
// diagnostics, an upload endpoint (writes need the bearer secret WRITE_SECRET), the skills as an
// Agent Skills Discovery index (/.well-known/agent-skills/) and over MCP (/mcp, the Skills
// extension over Streamable HTTP, stateless). See ../README.md for the endpoints.
//
// `skillwasm` resolves to the package's `workerd` entry: the .wasm is imported as a compiled
// module and instantiated at global scope, so no request pays for it.
import {
  SkillRegistry, SkillTool, ZipError, assertKey, memoryStorage, parseSkill, publishWellKnown, r2Storage, renderCatalog, unzip, version,
} from "skillwasm";
import { mcpRefused, serveMcp } from "./mcp.js";

const MiB = 1024 * 1024;
const LIMITS = {
  fileBytes: 1 * MiB, // one file of an upload
  uploadBytes: 5 * MiB, // all files of an upload together
  files: 500, // files in one upload
};
// Room for the multipart boundaries and part headers around the files.
const ENVELOPE_BYTES = 256 * 1024;
// How much of an oversized body is read (and dropped) so that its sender gets the 413.
const DRAIN_BYTES = 32 * MiB;
const FORMATS = new Set(["xml", "json", "markdown", "reference"]);
// The most a POST /tool body may have: { name, path? } is small.
const TOOL_BODY_BYTES = 64 * 1024;
// The most a POST /mcp body may have: one JSON-RPC message (or a small batch) naming a URI.
const MCP_BODY_BYTES = 64 * 1024;
const WELL_KNOWN = "/.well-known/agent-skills/";
// The largest catalog budget (what renderCatalog takes: a 32-bit count).
const MAX_BUDGET = 2 ** 32 - 1;

// ---------------------------------------------------------------------------------------------
// State kept between requests (one per isolate).

/** R2 calls made by this isolate, by kind. */
const r2Calls = { list: 0, get: 0, head: 0, put: 0, delete: 0 };
/** @type {Promise<State> | null} */
let starting = null;
/** Changes to the bucket (uploads, deletes, refreshes) run one after another within an isolate. */
let changes = Promise.resolve();

/**
 * @typedef {{
 *   registry: import("skillwasm").SkillRegistry,
 *   options: import("skillwasm").RegistryOptions,
 *   config: Config,
 *   bucket: R2Bucket,
 *   startedFrom: "snapshot" | "discovery",
 *   startupMs: number,
 *   snapshotEtag: string | null,
 *   checkedAt: number,
 * }} State
 * @typedef {{ root: string, snapshotKey: string, scope: string, toolName: string, checkSeconds: number, corsOrigins: string[] }} Config
 */

/** Settings from `[vars]` (wrangler.toml). */
function readConfig(env) {
  const prefix = String(env.SKILLS_PREFIX ?? "skills").replace(/^\/+|\/+$/g, "");
  return {
    root: prefix === "" ? "" : `${prefix}/`, // the store's root: skills are <root><name>/SKILL.md
    snapshotKey: `${prefix === "" ? "skills" : prefix}.snapshot`, // beside the root, never listed by discovery
    scope: String(env.SKILLS_SCOPE ?? "org"),
    toolName: String(env.TOOL_NAME ?? "activate_skill"),
    checkSeconds: Number(env.SNAPSHOT_CHECK_SECONDS ?? 30),
    corsOrigins: corsOrigins(env.WELL_KNOWN_CORS_ORIGINS),
  };
}

/**
 * The origins browsers may read the well-known routes from: `*` (the default: the index and its
 * artifacts are public), a list of origins separated by spaces or commas, or "" (none).
 */
function corsOrigins(v) {
  return String(v ?? "*").split(/[\s,]+/).filter((o) => o !== "");
}

/** The binding, counting its calls (the /status endpoint reports them). */
function counted(bucket) {
  return {
    list: (o) => (r2Calls.list++, bucket.list(o)),
    get: (k, o) => (r2Calls.get++, bucket.get(k, o)),
    head: (k) => (r2Calls.head++, bucket.head(k)),
    put: (k, v, o) => (r2Calls.put++, bucket.put(k, v, o)),
    delete: (k) => (r2Calls.delete++, bucket.delete(k)),
  };
}

function registryOptions(config, bucket) {
  const storage = r2Storage(bucket, { prefix: config.root });
  return { scopes: [{ name: config.scope, storage, roots: [""], trusted: true }] };
}

/** Cold start: one R2 get of the snapshot when there is one, else discovery and a new snapshot. */
async function start(env) {
  const t0 = Date.now();
  const config = readConfig(env);
  const bucket = counted(env.SKILLS);
  const options = registryOptions(config, bucket);
  const obj = await bucket.get(config.snapshotKey);
  if (obj !== null) {
    const bytes = new Uint8Array(await obj.arrayBuffer());
    try {
      const registry = SkillRegistry.fromSnapshot(bytes, options);
      return { registry, options, config, bucket, startedFrom: "snapshot", startupMs: Date.now() - t0, snapshotEtag: obj.etag, checkedAt: Date.now() };
    } catch (e) {
      // Written for other options (another prefix or scope): discover afresh and replace it.
      console.warn(`snapshot ${config.snapshotKey} not used: ${e?.message ?? e}`);
    }
  }
  const registry = await SkillRegistry.discover(options);
  const etag = await writeSnapshot(bucket, config, registry);
  return { registry, options, config, bucket, startedFrom: "discovery", startupMs: Date.now() - t0, snapshotEtag: etag, checkedAt: Date.now() };
}

async function writeSnapshot(bucket, config, registry) {
  const written = await bucket.put(config.snapshotKey, registry.snapshot(), {
    httpMetadata: { contentType: "application/octet-stream" },
  });
  return written?.etag ?? null;
}

/**
 * The registry, started at the first request and kept. Another isolate's upload rewrites the
 * snapshot: at most every `SNAPSHOT_CHECK_SECONDS` a head of the snapshot notices and reloads it.
 */
async function state(env) {
  if (starting === null) {
    starting = start(env);
    starting.catch(() => (starting = null)); // a failed start is retried by the next request
    return starting;
  }
  const s = await starting;
  const now = Date.now();
  if (s.config.checkSeconds > 0 && now - s.checkedAt > s.config.checkSeconds * 1000) {
    s.checkedAt = now;
    const head = await s.bucket.head(s.config.snapshotKey);
    if (head !== null && head.etag !== s.snapshotEtag) {
      const obj = await s.bucket.get(s.config.snapshotKey);
      if (obj !== null) {
        try {
          s.registry = SkillRegistry.fromSnapshot(new Uint8Array(await obj.arrayBuffer()), s.options);
          s.snapshotEtag = obj.etag;
        } catch (e) {
          console.warn(`snapshot ${s.config.snapshotKey} not reloaded: ${e?.message ?? e}`);
        }
      }
    }
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Endpoints

class HttpError extends Error {
  constructor(status, message, extra = {}) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

const json = (value, status = 200) => Response.json(value, { status });

function catalog(s, url) {
  const q = url.searchParams;
  const format = q.get("format") ?? "xml";
  if (!FORMATS.has(format)) throw new HttpError(400, `format must be one of ${[...FORMATS].join(", ")}`);
  /** @type {import("skillwasm").RenderCatalogOptions} */
  const options = { format, toolName: s.config.toolName };
  for (const key of ["budgetTokens", "budgetChars"]) {
    if (!q.has(key)) continue;
    const n = Number(q.get(key));
    if (!/^\d+$/.test(q.get(key)) || !Number.isSafeInteger(n) || n > MAX_BUDGET) {
      throw new HttpError(400, `${key} must be an integer from 0 to ${MAX_BUDGET}`);
    }
    options[key] = n;
  }
  for (const key of ["locale", "modelTier", "hostVersion"]) if (q.has(key)) options[key] = q.get(key);
  if (q.has("includeLocation")) options.includeLocation = q.get("includeLocation") !== "false";
  const c = renderCatalog(s.registry, options);
  return json(c);
}

/** A fresh tool (and session) per call: a shared session would answer a repeat with a pointer. */
async function withTool(s, fn) {
  const tool = new SkillTool(s.registry, { toolName: s.config.toolName });
  try {
    return await fn(tool);
  } finally {
    tool.free();
  }
}

async function toolCall(s, request) {
  const body = await readCapped(request, TOOL_BODY_BYTES);
  let input;
  try {
    input = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new HttpError(400, "the body must be JSON: { name, path? }");
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new HttpError(400, "the body must be a JSON object: { name, path? }");
  return json(await withTool(s, (tool) => tool.execute(input)));
}

function diagnostics(s) {
  return json({
    skills: s.registry.names().length,
    diagnostics: s.registry.diagnostics(),
    stats: s.registry.stats(),
  });
}

function status(s) {
  return json({
    version: version(),
    startedFrom: s.startedFrom,
    startupMs: s.startupMs,
    skills: s.registry.names().length,
    snapshotKey: s.config.snapshotKey,
    root: s.config.root,
    r2: { ...r2Calls },
  });
}

/**
 * The body, refused with 413 as soon as it passes `max` bytes (Content-Length is not trusted, and
 * a body without one, chunked, is counted as it comes): at most `max` bytes are ever kept. The
 * rest of an oversized body is read and dropped, up to DRAIN_BYTES more, before the 413: a client
 * still sending (fetch, curl) sees its connection reset otherwise, not the answer. A body that
 * says or turns out to be larger than that is cut off at once.
 */
async function readCapped(request, max) {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  const tooLarge = () => new HttpError(413, `the body is larger than ${max} bytes`);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  if (Number.isFinite(declared) && declared > max) {
    await drain(reader, declared <= max + DRAIN_BYTES ? declared : 0);
    throw tooLarge();
  }
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await drain(reader, DRAIN_BYTES);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) out.set(c, (at += c.byteLength) - c.byteLength);
  return out;
}

/** Reads and drops at most `limit` more bytes of a body, then cancels what is left of it. */
async function drain(reader, limit) {
  let dropped = 0;
  try {
    while (dropped <= limit) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
  } catch {
    return; // the client went away
  }
  await reader.cancel().catch(() => {});
}

/** [{ path, bytes }] from a multipart/form-data body: every file part, its filename the path. */
async function multipartFiles(request) {
  const body = await readCapped(request, LIMITS.uploadBytes + ENVELOPE_BYTES);
  let form;
  try {
    form = await new Response(body, { headers: { "content-type": request.headers.get("content-type") } }).formData();
  } catch (e) {
    throw new HttpError(400, `not a multipart/form-data body: ${e?.message ?? e}`);
  }
  const files = [];
  for (const [, value] of form.entries()) {
    if (typeof value === "string") continue; // plain fields are ignored
    files.push({ path: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return files;
}

/** A folder picked in a browser arrives as `<folder>/SKILL.md` ...: drop that common first segment. */
function stripFolder(files) {
  if (files.some((f) => f.path === "SKILL.md")) return files;
  const first = files[0]?.path.split("/")[0];
  if (first && files.every((f) => f.path.startsWith(`${first}/`))) {
    return files.map((f) => ({ ...f, path: f.path.slice(first.length + 1) }));
  }
  return files;
}

function checkUpload(files) {
  if (files.length === 0) throw new HttpError(400, "no files in the upload");
  if (files.length > LIMITS.files) throw new HttpError(413, `more than ${LIMITS.files} files`);
  const seen = new Set();
  let total = 0;
  for (const f of files) {
    try {
      assertKey(f.path);
    } catch (e) {
      throw new HttpError(400, e.message, { path: f.path });
    }
    if (seen.has(f.path)) throw new HttpError(400, `${f.path} is given twice`, { path: f.path });
    seen.add(f.path);
    if (f.bytes.byteLength > LIMITS.fileBytes) {
      throw new HttpError(413, `${f.path} is larger than ${LIMITS.fileBytes} bytes`, { path: f.path });
    }
    total += f.bytes.byteLength;
  }
  if (total > LIMITS.uploadBytes) throw new HttpError(413, `the files add up to more than ${LIMITS.uploadBytes} bytes`);
}

/** Every key under prefix. */
async function keysUnder(bucket, prefix) {
  const keys = [];
  let cursor;
  do {
    const page = await bucket.list({ prefix, cursor });
    for (const o of page.objects) keys.push(o.key);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/**
 * Runs a change to the bucket, then refreshes the registry and writes a new snapshot; changes
 * run one after another within an isolate, so each refresh and snapshot sees a change whole.
 */
function serially(s, change) {
  const run = changes.then(async () => {
    const out = (await change?.()) ?? {};
    s.published = null; // the discovery index is published again on its next request
    const report = await s.registry.refresh();
    s.snapshotEtag = await writeSnapshot(s.bucket, s.config, s.registry);
    return { ...out, report };
  });
  changes = run.catch(() => {});
  return run;
}

async function remove(s, rawName) {
  const name = dirName(rawName);
  const dir = `${s.config.root}${name}/`;
  const { removed, report } = await serially(s, async () => {
    const removed = await keysUnder(s.bucket, dir);
    for (const key of removed) await s.bucket.delete(key);
    return { removed };
  });
  if (removed.length === 0) return json({ error: `no skill directory ${name}`, refresh: report }, 404);
  return json({ directory: name, removed: removed.map((k) => k.slice(dir.length)), refresh: report });
}

/** The `<dir>` of /skills/<dir>: one valid key segment. */
function dirName(raw) {
  let name;
  try {
    name = decodeURIComponent(raw);
    assertKey(name);
  } catch (e) {
    throw new HttpError(400, `not a skill directory name: ${e?.message ?? e}`);
  }
  if (name.includes("/")) throw new HttpError(400, "the skill directory name must be one path segment");
  return name;
}

/**
 * Puts `files` under `dir` in place of what is there, all or nothing: the previous files are read
 * first, and when a put fails every key is put back as it was (the new keys deleted), so a failed
 * upload never leaves the skill half new and half old. Returns the keys removed.
 */
async function replaceSkill(bucket, dir, files) {
  const keep = new Set(files.map((f) => dir + f.path));
  const previous = [];
  let held = 0;
  for (const key of await keysUnder(bucket, dir)) {
    const obj = await bucket.get(key);
    if (obj === null) continue;
    const bytes = new Uint8Array(await obj.arrayBuffer());
    held += bytes.byteLength;
    if (held > 4 * LIMITS.uploadBytes) throw new HttpError(409, `the stored ${dir} is too large to replace safely; delete it first`);
    previous.push({ key, bytes });
  }
  try {
    for (const f of files) await bucket.put(dir + f.path, f.bytes);
  } catch (e) {
    const old = new Set(previous.map((p) => p.key));
    for (const key of keep) if (!old.has(key)) await bucket.delete(key).catch(() => {});
    for (const p of previous) await bucket.put(p.key, p.bytes);
    throw new HttpError(503, `the upload could not be stored (${e?.message ?? e}); the previous version is unchanged`);
  }
  // Files of an earlier upload of this skill that this one no longer has.
  const stale = previous.map((p) => p.key).filter((k) => !keep.has(k));
  for (const key of stale) await bucket.delete(key);
  return { stale };
}

/**
 * A SKILL.md deeper in the upload is a skill of its own to discovery, found by its own name: an
 * upload to /skills/<name> may hold no skill but <name>, or `/skills/zzz` could serve
 * `deploy-prod`.
 */
function checkNestedSkills(name, files) {
  for (const f of files) {
    const parts = f.path.split("/");
    if (parts.length < 2 || (parts.at(-1) !== "SKILL.md" && parts.at(-1) !== "skill.md")) continue;
    const parsed = parseSkill(f.bytes, { dirName: parts.at(-2), includeBody: false });
    if (parsed.skill === null || parsed.skill.name === name) continue; // not another skill
    throw new HttpError(422, `${f.path} is the skill '${parsed.skill.name}'; an upload to ${name} holds no skill but '${name}'`, { path: f.path });
  }
}

/** The content digest of an upload's files: the core's one definition, over a store in memory. */
async function contentDigestOf(name, files) {
  const storage = memoryStorage(Object.fromEntries(files.map((f) => [`${name}/${f.path}`, f.bytes])));
  const registry = await SkillRegistry.discover({ scopes: [{ name: "upload", storage, roots: [""], trusted: true }] });
  try {
    const d = await registry.contentDigest(name);
    if (d.digest === undefined) throw new HttpError(422, `the upload's content digest could not be computed: ${d.error?.message}`);
    return d.digest;
  } finally {
    registry.free();
  }
}

async function upload(s, request, rawName) {
  const name = dirName(rawName);
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  let files;
  if (type.startsWith("multipart/form-data")) {
    files = await multipartFiles(request);
  } else if (type.startsWith("application/zip") || type.startsWith("application/x-zip-compressed")) {
    const zip = await readCapped(request, LIMITS.uploadBytes + ENVELOPE_BYTES);
    try {
      files = await unzip(zip, LIMITS);
    } catch (e) {
      if (e instanceof ZipError) throw new HttpError(e.status, e.message);
      throw e;
    }
  } else {
    throw new HttpError(415, "send the skill as multipart/form-data (each file's filename its path in the skill) or as application/zip; SKILL.md is required");
  }
  files = stripFolder(files);
  checkUpload(files);
  const skillMd = files.find((f) => f.path === "SKILL.md");
  if (!skillMd) throw new HttpError(400, "the upload has no SKILL.md at its top level");
  const parsed = parseSkill(skillMd.bytes, { dirName: name, includeBody: false });
  if (parsed.skill === null) {
    throw new HttpError(422, "SKILL.md has no usable skill", { diagnostics: parsed.diagnostics });
  }
  if (parsed.skill.name !== name) {
    throw new HttpError(422, `the skill is named '${parsed.skill.name}', not '${name}' like its directory`, { diagnostics: parsed.diagnostics });
  }
  checkNestedSkills(name, files);
  // `PDF` or Cyrillic `сор` beside `pdf` or `cop`: discovery would hide it, so it is not stored.
  const alike = s.registry.lookalike(name);
  if (alike !== null) {
    throw new HttpError(409, `the name '${name}' looks like the skill '${alike}' here, which it would pass for; choose another name`, { lookalike: alike });
  }
  // A client that pinned the skill says which content it sends: anything else is refused.
  const digest = await contentDigestOf(name, files);
  const expected = request.headers.get("x-skill-digest");
  if (expected !== null && expected !== digest) {
    throw new HttpError(412, `the upload's content digest is ${digest}, not ${expected} as X-Skill-Digest says`, { digest, expected });
  }

  const dir = `${s.config.root}${name}/`;
  const { stale, report } = await serially(s, () => replaceSkill(s.bucket, dir, files));
  return json({
    name: parsed.skill.name,
    directory: name,
    digest,
    description: parsed.skill.description,
    files: files.map((f) => ({ path: f.path, size: f.bytes.byteLength })).sort((a, b) => (a.path < b.path ? -1 : 1)),
    removed: stale.map((k) => k.slice(dir.length)),
    diagnostics: parsed.diagnostics,
    refresh: report,
  }, 201);
}

/**
 * Writes need `Authorization: Bearer <WRITE_SECRET>`; without the secret in the environment every
 * write is refused. The comparison takes the same time wherever the strings differ.
 */
function authorize(request, env) {
  const secret = typeof env.WRITE_SECRET === "string" ? env.WRITE_SECRET : "";
  if (secret === "") throw new HttpError(403, "writes are disabled: the Worker has no WRITE_SECRET");
  const enc = new TextEncoder();
  const want = enc.encode(`Bearer ${secret}`);
  const got = enc.encode(request.headers.get("authorization") ?? "");
  let diff = want.length ^ got.length;
  for (let i = 0; i < want.length; i++) diff |= want[i] ^ (got[i] ?? 0);
  if (diff !== 0) throw new HttpError(401, "this write needs Authorization: Bearer <WRITE_SECRET>", { authenticate: true });
}

/** The discovery index and its artifacts, published from R2 once per change of the bucket. */
async function published(s) {
  if (!s.published) {
    const result = await publishWellKnown(r2Storage(s.bucket, { prefix: s.config.root }));
    const byPath = new Map(result.artifacts.map((a) => [a.path, a]));
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", result.index));
    const hex = [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
    s.published = { index: result.index, indexEtag: `"${hex}"`, byPath, diagnostics: result.diagnostics };
  }
  return s.published;
}

/** GET /.well-known/agent-skills/index.json and the artifacts it names, with ETags (304 on a match). */
async function wellKnown(s, request, rel) {
  const p = await published(s);
  let body;
  let type;
  let etag;
  if (rel === "index.json") {
    [body, type, etag] = [p.index, "application/json", p.indexEtag];
  } else {
    const a = p.byPath.get(rel);
    if (!a) throw new HttpError(404, `no artifact ${rel}`);
    [body, type, etag] = [a.bytes, a.contentType, `"${a.digest.slice("sha256:".length)}"`];
  }
  const headers = { "content-type": type, etag, "cache-control": "public, max-age=60, must-revalidate" };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}

/** POST /mcp: the body read within MCP_BODY_BYTES, then one stateless MCP exchange (./mcp.js). */
async function mcp(s, request) {
  if (request.method !== "POST") return mcpRefused(405, -32000, "this server is stateless: only POST /mcp");
  const body = await readCapped(request, MCP_BODY_BYTES);
  return serveMcp(s.registry, request, body, s.config.toolName);
}

const ENDPOINTS = {
  "GET /catalog": "?format=xml|json|markdown|reference&budgetTokens=N&budgetChars=N&locale=..&modelTier=..&includeLocation=false",
  "GET /tool": "the skill tool's definition",
  "POST /tool": "{ name, path? } -> what the model sees",
  "GET /diagnostics": "the registry's diagnostics",
  "POST /skills/<dir>": "multipart/form-data (each file's filename its path in the skill) or application/zip",
  "DELETE /skills/<dir>": "removes the skill directory",
  "POST /refresh": "re-lists R2 (after changes made outside the Worker) and writes a new snapshot",
  "GET /status": "how this isolate started and the R2 calls it made",
  "GET /.well-known/agent-skills/index.json": "the skills as an Agent Skills Discovery index (v0.2.0), and its artifacts beside it",
  "POST /mcp": "the skills over MCP (the Skills extension, Streamable HTTP, stateless; the skill tool as an MCP tool)",
};
// Writes (uploads, DELETE, refresh) need the bearer secret.
const WRITES = "POST /skills/<dir>, DELETE /skills/<dir> and POST /refresh need Authorization: Bearer <WRITE_SECRET>";

/**
 * The CORS headers of a well-known route for `request`: the index and its artifacts are public
 * reads, so browsers of the configured origins may read them (never sent on other routes).
 */
function corsHeaders(request, config) {
  const origins = config.corsOrigins;
  if (origins.includes("*")) return { "access-control-allow-origin": "*", "access-control-expose-headers": "ETag" };
  const origin = request.headers.get("origin");
  const out = { vary: "Origin" };
  if (origin !== null && origins.includes(origin)) {
    Object.assign(out, { "access-control-allow-origin": origin, "access-control-expose-headers": "ETag" });
  }
  return out;
}

/** The answer to a CORS preflight (OPTIONS) of a well-known route. */
function preflight(request, config) {
  const headers = corsHeaders(request, config);
  if (headers["access-control-allow-origin"] !== undefined) {
    Object.assign(headers, {
      "access-control-allow-methods": "GET, HEAD, OPTIONS",
      "access-control-allow-headers": "If-None-Match, Cache-Control",
      "access-control-max-age": "86400",
    });
  }
  return new Response(null, { status: 204, headers: { ...headers, allow: "GET, HEAD, OPTIONS" } });
}

/**
 * The answer to `HEAD`: the GET route's status and headers, without the body, and the length
 * GET's body has (every GET answer here is made in memory).
 */
async function headOf(response) {
  const headers = new Headers(response.headers);
  if (response.body !== null && !headers.has("content-length")) {
    headers.set("content-length", String((await response.arrayBuffer()).byteLength));
  }
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}

/** The routes (GET, POST, DELETE); the default export adds HEAD, OPTIONS and CORS around them. */
const routes = {
  /**
   * @param {Request} request
   * @param {{ SKILLS: R2Bucket, SKILLS_PREFIX?: string }} env
   */
  async fetch(request, env) {
    const url = new URL(request.url);
    const route = `${request.method} ${url.pathname}`;
    try {
      if (route === "GET /") return json({ endpoints: ENDPOINTS, writes: WRITES });
      const s = await state(env);
      if (route === "GET /catalog") return catalog(s, url);
      if (route === "GET /tool") return json(await withTool(s, (tool) => tool.definition()));
      if (route === "POST /tool") return await toolCall(s, request);
      if (route === "GET /diagnostics") return diagnostics(s);
      if (route === "GET /status") return status(s);
      if (url.pathname === "/mcp") return await mcp(s, request);
      if (request.method === "GET" && url.pathname.startsWith(WELL_KNOWN)) {
        return await wellKnown(s, request, url.pathname.slice(WELL_KNOWN.length));
      }
      // The raw path (the URL parser has already resolved `..` and `%2e%2e` segments).
      const m = /^\/skills\/([^/]+)\/?$/.exec(url.pathname);
      const write = (m && (request.method === "POST" || request.method === "DELETE")) || route === "POST /refresh";
      if (write) authorize(request, env);
      if (m && request.method === "POST") return await upload(s, request, m[1]);
      if (m && request.method === "DELETE") return await remove(s, m[1]);
      if (route === "POST /refresh") {
        const { report } = await serially(s);
        return json({ refresh: report, skills: s.registry.names().length });
      }
      return json({ error: `no route ${route}`, endpoints: ENDPOINTS }, 404);
    } catch (e) {
      if (e instanceof HttpError) {
        const { authenticate, ...extra } = e.extra;
        const res = json({ error: e.message, ...extra }, e.status);
        if (authenticate) res.headers.set("www-authenticate", "Bearer");
        return res;
      }
      console.error(e);
      return json({ error: String(e?.message ?? e) }, 500);
    }
  },
};

export default {
  /**
   * Every GET route answers HEAD alike (no body); the well-known routes carry CORS headers and
   * answer OPTIONS preflights.
   * @param {Request} request
   * @param {{ SKILLS: R2Bucket, SKILLS_PREFIX?: string, WELL_KNOWN_CORS_ORIGINS?: string }} env
   */
  async fetch(request, env) {
    const pathname = new URL(request.url).pathname;
    const wellKnownPath = pathname.startsWith(WELL_KNOWN);
    if (wellKnownPath && request.method === "OPTIONS") return preflight(request, readConfig(env));
    const head = request.method === "HEAD";
    let response = await routes.fetch(head ? new Request(request, { method: "GET" }) : request, env);
    if (wellKnownPath) {
      response = new Response(response.body, response);
      for (const [k, v] of Object.entries(corsHeaders(request, readConfig(env)))) response.headers.set(k, v);
    }
    return head ? headOf(response) : response;
  },
};
