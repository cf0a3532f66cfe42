// A Cloudflare Worker that serves Agent Skills kept in an R2 bucket: the catalog, the skill tool,
// diagnostics, an upload endpoint (writes need the bearer secret WRITE_SECRET), the skills as an
// Agent Skills Discovery index (/.well-known/agent-skills/) and over MCP (/mcp, the Skills
// extension over Streamable HTTP, stateless). See ../README.md for the endpoints.
//
// `skillwasm` resolves to the package's `workerd` entry: the .wasm is imported as a compiled
// module and instantiated at global scope, so no request pays for it.
import { SkillRegistry, SkillTool, publishWellKnown, r2Storage, renderCatalog, version } from "skillwasm";
import { HttpError, json, readCapped } from "./http.js";
import { mcpRefused, serveMcp } from "./mcp.js";
import { remove, serially, upload, writeSnapshot } from "./writes.js";

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
 * @typedef {{ root: string, snapshotKey: string, scope: string, toolName: string, checkSeconds: number, vet: string, vetSeverity: string }} Config
 */

/**
 * Settings from `[vars]` (wrangler.toml) for the registry and the routes; an invalid one throws,
 * which the routes answer with a JSON 500. The CORS origins are read on their own (corsOrigins):
 * a preflight and the CORS headers need nothing else.
 */
function readConfig(env) {
  const prefix = String(env.SKILLS_PREFIX ?? "skills").replace(/^\/+|\/+$/g, "");
  return {
    root: prefix === "" ? "" : `${prefix}/`, // the store's root: skills are <root><name>/SKILL.md
    snapshotKey: `${prefix === "" ? "skills" : prefix}.snapshot`, // beside the root, never listed by discovery
    scope: String(env.SKILLS_SCOPE ?? "org"),
    toolName: String(env.TOOL_NAME ?? "activate_skill"),
    checkSeconds: Number(env.SNAPSHOT_CHECK_SECONDS ?? 30),
    // What an upload's vetting decides: "refuse" (a finding at or above VET_SEVERITY refuses it;
    // the default), "report" (stored, the findings in the answer) or "off".
    vet: oneOf(env.VET, ["refuse", "report", "off"], "VET"),
    vetSeverity: oneOf(env.VET_SEVERITY, ["high", "medium", "low"], "VET_SEVERITY"),
  };
}

/** `v` when it is one of `allowed`, the first of them when unset; anything else fails the start. */
function oneOf(v, allowed, name) {
  if (v === undefined || v === "") return allowed[0];
  if (!allowed.includes(v)) throw new Error(`${name} must be one of ${allowed.join(", ")}, not ${JSON.stringify(v)}`);
  return v;
}

/**
 * The origins browsers may read the well-known routes from (`WELL_KNOWN_CORS_ORIGINS`): `*` (the
 * default: the index and its artifacts are public), a list of origins separated by spaces or
 * commas, or "" (none). Never throws: a route's CORS headers do not depend on the rest of the
 * configuration.
 */
function corsOrigins(env) {
  return String(env.WELL_KNOWN_CORS_ORIGINS ?? "*").split(/[\s,]+/).filter((o) => o !== "");
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
 * reads, so browsers of `origins` (corsOrigins) may read them (never sent on other routes).
 */
function corsHeaders(request, origins) {
  if (origins.includes("*")) return { "access-control-allow-origin": "*", "access-control-expose-headers": "ETag" };
  const origin = request.headers.get("origin");
  const out = { vary: "Origin" };
  if (origin !== null && origins.includes(origin)) {
    Object.assign(out, { "access-control-allow-origin": origin, "access-control-expose-headers": "ETag" });
  }
  return out;
}

/** The answer to a CORS preflight (OPTIONS) of a well-known route. */
function preflight(request, origins) {
  const headers = corsHeaders(request, origins);
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
    if (wellKnownPath && request.method === "OPTIONS") return preflight(request, corsOrigins(env));
    const head = request.method === "HEAD";
    let response = await routes.fetch(head ? new Request(request, { method: "GET" }) : request, env);
    if (wellKnownPath) {
      response = new Response(response.body, response);
      for (const [k, v] of Object.entries(corsHeaders(request, corsOrigins(env)))) response.headers.set(k, v);
    }
    return head ? headOf(response) : response;
  },
};
