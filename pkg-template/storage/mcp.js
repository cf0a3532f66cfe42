// A store over an MCP server of the Skills extension (SEP-2640, io.modelcontextprotocol/skills),
// through a connected client of the official TypeScript SDK. JS holds only the requests: whether
// the server declares the extension, every entry of skills/list and skills/get, which URI a key
// may be read from and whether the bytes read are the ones listed are decided by the core
// (mcpSkillsExtension, parseMcpSkills, mcpFileUri, verifyMcpFile).
// What a server may cost the host is bounded in the core too (parseMcpSkills reads each page within
// the listing's bounds, see src/net/mcp/client_bounds.rs); the connection, its label and reconnecting
// are in mcp-connection.js.
import { mcpFileUri, mcpSkillsExtension, parseMcpSkills, verifyMcpFile } from "../guarded.js";
import {
  assertKey, assertPrefix, byteLimit, codedError, cursorOption, objectCap, objectTooLarge, optionsObject, overCap, pageLimit, positiveOption, sharedLoad, show,
} from "./keys.js";
import { mcpConnection, transportLabel } from "./mcp-connection.js";

const DEFAULT_LIMIT = 1000;
const DEFAULT_TIMEOUT_MS = 10_000;
const BOUND_KEYS = ["maxPages", "maxMessageBytes", "maxCursorBytes", "maxListingBytes"];
const OPTION_KEYS = new Set(["server", "dynamic", "timeoutMs", "maxObjectBytes", "reconnect", ...BOUND_KEYS]);

const failure = codedError;
const positive = (value, name, fallback) => positiveOption(value, name, fallback, "mcpStorage", 0x7fffffff);

const encoder = new TextEncoder();

/** The bytes of a `resources/read` content for `uri`, refused past `cap` before decoding. */
function contentBytes(result, uri, cap) {
  const contents = Array.isArray(result?.contents) ? result.contents : [];
  const c = contents.find((x) => x?.uri === uri) ?? contents[0];
  if (c && typeof c.text === "string") {
    if (c.text.length > cap) throw failure(`${uri}: more than ${cap} bytes`, "object-too-large");
    return encoder.encode(c.text);
  }
  if (c && typeof c.blob === "string") {
    if (c.blob.length > Math.ceil(cap / 3) * 4 + 4) throw failure(`${uri}: more than ${cap} bytes`, "object-too-large");
    let bin;
    try {
      bin = atob(c.blob);
    } catch {
      throw failure(`${uri}: the blob is not base64`, "mcp-result-invalid");
    }
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  throw failure(`resources/read ${uri}: no text or blob content`, "mcp-result-invalid");
}

/** A diagnostic as a listing warning: the code first, then the entry, then the message. */
function warning(d, key) {
  return { key, message: `${d.code}: ${d.path ? `${d.path}: ` : ""}${d.message}` };
}

/**
 * A read-only store over an MCP server that declares the Skills extension. Keys are each skill's
 * URI path (`skill://acme/refunds/SKILL.md` is `acme/refunds/SKILL.md`, its files beside it); the
 * store's `location` is `mcp://<server>/`, so every path the model is shown names the server.
 *
 * Costs: a listing from the start (no cursor) pages through `skills/list` (one request per page)
 * and `skills/get` for each skill added by URI, and reads no file: each SKILL.md entry comes with
 * its listed frontmatter as its head (see listSkillPrefixes). A read sends one `resources/read`
 * for a URI the retained manifest lists (any other key is null, nothing sent), verified in the
 * core; a verified file is kept by digest. On a mismatch the entry is fetched again with
 * `skills/get` and the file read once more.
 *
 * Bounds: what one server may cost the host. Each `skills/list` page and `skills/get` result is
 * measured as the core reads it (`maxMessageBytes`, 4 MiB of JSON), each cursor before it is sent
 * back (`maxCursorBytes`, 8 KiB), and a listing in all (`maxListingBytes`, 64 MiB; `maxPages`,
 * 10,000); a cycle of cursors is found. A bound reached stops the listing with
 * `mcp-listing-bound`; the skills of the pages read before are kept. A file is refused past
 * `maxObjectBytes`. A connection that closes under a request (a stdio transport does on one
 * message over its buffer bound) costs that request `mcp-connection-closed`; with `reconnect`
 * the store reconnects before its next request.
 *
 * @param {any} client a connected `Client` of `@modelcontextprotocol/sdk` or
 *   `@modelcontextprotocol/client` (or anything with its `request(request, resultSchema, options)`
 *   and `getServerCapabilities()`).
 * @param {{ server?: string; dynamic?: boolean; timeoutMs?: number; maxPages?: number;
 *   maxMessageBytes?: number; maxCursorBytes?: number; maxListingBytes?: number;
 *   maxObjectBytes?: number; reconnect?: () => unknown }} [options] `server`: the host's label for
 *   the server; required unless the client's transport was configured with a command or URL (see
 *   transportLabel): the name the server reports is never used.
 */
export function mcpStorage(client, options = {}) {
  options = optionsObject(options, "mcpStorage");
  for (const k of Object.keys(options)) {
    if (!OPTION_KEYS.has(k)) throw new TypeError(`mcpStorage: unknown option ${show(k)}; the options are ${[...OPTION_KEYS].join(", ")}`);
  }
  if (typeof client !== "object" || client === null || typeof client.request !== "function") {
    throw new TypeError(`mcpStorage: client must be a connected MCP Client (with request()), got ${show(client)}`);
  }
  // The label is the host's: given, or from the host's own transport configuration, never the
  // name the server reports (SEP-2640).
  const label = options.server === undefined ? transportLabel(client) : options.server;
  if (label === undefined) {
    throw new TypeError("mcpStorage: options.server is required: the client's transport was configured with no command or URL to label the server by (the name a server reports is never used)");
  }
  if (typeof label !== "string" || label === "" || label.length > 256) {
    throw new TypeError(`mcpStorage: options.server must be a non-empty string of at most 256 characters, got ${show(label)}`);
  }
  if (options.reconnect !== undefined && typeof options.reconnect !== "function") {
    throw new TypeError(`mcpStorage: options.reconnect must be a function resolving to a connected client, got ${show(options.reconnect)}`);
  }
  if (options.dynamic !== undefined && typeof options.dynamic !== "boolean") {
    throw new TypeError(`mcpStorage: options.dynamic must be a boolean, got ${show(options.dynamic)}`);
  }
  const dynamic = options.dynamic === true;
  const timeout = positive(options.timeoutMs, "timeoutMs", DEFAULT_TIMEOUT_MS);
  /** The host's bounds on a listing, passed to the core with every page (absent: the core's defaults). */
  const bounds = {};
  for (const k of BOUND_KEYS) {
    const v = positive(options[k], k, undefined);
    if (v !== undefined) bounds[k] = v;
  }
  const cap = objectCap(options.maxObjectBytes, "mcpStorage");
  const location = `mcp://${encodeURIComponent(label)}/`;
  const conn = mcpConnection(client, label, { timeout, reconnect: options.reconnect });

  const counts = { listRequests: 0, getRequests: 0, readRequests: 0, readBytes: 0, mismatches: 0, listBytes: 0 };
  /** @type {null | { skills: Map<string, any>; files: Map<string, any>; entries: any[]; diagnostics: any[] }} */
  let listing = null;
  /** Skills loaded by URI (addSkill): skill directory -> entry. Kept across listings. */
  const added = new Map();
  /** Verified bytes: `${digest} ${key}` -> Uint8Array. */
  const verified = new Map();
  const skillDiagnostics = new Map();

  // One request at a time through the connection: aborted at the timeout (the SDK cancels it at
  // the server); a client that ignores both the timeout and the signal still settles then.
  const request = conn.request;

  /** `skills/get` of `uri`, read within the bounds (counted against `listing`, a listing's state, when given). */
  async function getEntry(uri, listing) {
    counts.getRequests++;
    const result = await request("skills/get", { uri });
    return parseMcpSkills(result, { get: true, dynamic, bounds, ...(listing ? { listing } : {}) });
  }

  /** The extension's declaration by the server, as the core reads its capabilities. */
  const declaration = () => mcpSkillsExtension(conn.capabilities() ?? undefined);

  /** The listing built from entries: skill dir -> entry, file key -> entry, sorted entries. */
  function build(skills, diagnostics) {
    const byDir = new Map();
    const files = new Map();
    for (const s of skills) {
      const dir = s.key.slice(0, -"/SKILL.md".length);
      if (byDir.has(dir)) {
        diagnostics.push({ severity: "warning", code: "mcp-entry-duplicate", message: "an entry with this URI is already listed: skipped", path: s.uri });
        continue;
      }
      byDir.set(dir, s);
    }
    /** key -> listing entry; a skill's own SKILL.md entry wins over the same file listed by an enclosing skill. */
    const byKey = new Map();
    for (const s of byDir.values()) {
      for (const f of s.files) {
        const owner = files.get(f.key);
        // A nested skill's files are also its enclosing skill's: the deepest skill reads them.
        if (!owner || owner.key.length < s.key.length) files.set(f.key, s);
        // A SKILL.md below a skill's root is that skill's file, not a skill of its own: the server's
        // entries say which skills there are, so it is readable but not listed (discovery would
        // otherwise fetch it ahead of need, as a nested candidate).
        if (f.key !== s.key && (f.key === "SKILL.md" || f.key.endsWith("/SKILL.md"))) continue;
        // The manifest's digest is the file's etag and its listed SHA-256: every read is checked against it.
        if (!byKey.has(f.key)) byKey.set(f.key, { key: f.key, size: f.size, etag: f.digest, digest: f.digest });
      }
    }
    for (const s of byDir.values()) {
      const own = s.dynamic ? undefined : s.files.find((f) => f.key === s.key);
      byKey.set(s.key, { key: s.key, ...(own ? { size: own.size, digest: own.digest } : {}), etag: s.etag, head: s.head });
    }
    const unique = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { skills: byDir, files, entries: unique, diagnostics };
  }

  async function loadListing() {
    const declared = declaration();
    if (!declared.declared) {
      listing = build([], [...declared.diagnostics]);
      return;
    }
    const skills = [];
    const diagnostics = [];
    const keep = (read) => {
      for (const s of read.skills) skills.push(s);
      for (const d of read.diagnostics) diagnostics.push(d);
    };
    // The core checks each page against the bounds and carries the listing's state (constant in
    // size) from page to page; a bound reached ends the listing with a diagnostic, no cursor.
    let state;
    let cursor;
    for (let page = 0; ; page++) {
      counts.listRequests++;
      let result;
      try {
        result = await request("skills/list", cursor === undefined ? {} : { cursor });
      } catch (e) {
        // A connection lost after the first page costs the rest of the listing, not the pages read.
        if (page === 0 || e?.code !== "mcp-connection-closed") throw e;
        diagnostics.push({ severity: "error", code: "mcp-connection-closed", message: `${e.message}; the rest of the listing is not read` });
        break;
      }
      const read = parseMcpSkills(result, { dynamic, bounds, ...(state ? { listing: state } : {}) });
      state = read.listing;
      keep(read);
      if (read.nextCursor === null) break;
      cursor = read.nextCursor;
    }
    // Skills loaded by URI: fetched again, so a changed digest is a changed skill here too.
    for (const [dir, s] of added) {
      try {
        const got = await getEntry(s.uri, state);
        state = got.listing;
        if (got.skills.length === 1) added.set(dir, got.skills[0]);
        else keep(got);
      } catch (e) {
        diagnostics.push({ severity: "error", code: e?.code ?? "mcp-request-failed", message: String(e?.message ?? e), path: s.uri });
      }
    }
    counts.listBytes = state?.bytes ?? 0;
    const listed = new Set(skills.map((s) => s.key));
    for (const s of added.values()) if (!listed.has(s.key)) skills.push(s);
    listing = build(skills, diagnostics);
    // Keep only the verified files the new listing still lists with the same digest.
    const live = new Set();
    for (const s of listing.skills.values()) for (const f of s.files) live.add(`${f.digest} ${f.key}`);
    for (const k of verified.keys()) if (!live.has(k)) verified.delete(k);
  }

  const loadOnce = sharedLoad(loadListing);
  async function ensureListing() {
    if (listing === null) await loadOnce();
    return /** @type {NonNullable<typeof listing>} */ (listing);
  }

  /** The skill whose manifest a read of `key` is verified against, or undefined. */
  function ownerOf(l, key) {
    const listed = l.files.get(key);
    if (listed) return listed;
    // A dynamic skill lists no files: the nearest enclosing dynamic skill owns the key.
    for (let at = key.lastIndexOf("/"); at > 0; at = key.lastIndexOf("/", at - 1)) {
      const s = l.skills.get(key.slice(0, at));
      if (s) return s.dynamic ? s : undefined;
    }
    return undefined;
  }

  /** Replaces one skill's entry in the listing (after skills/get). */
  function replace(old, fresh) {
    const l = /** @type {NonNullable<typeof listing>} */ (listing);
    const skills = [...l.skills.values()].map((s) => (s === old ? fresh : s));
    if (!skills.includes(fresh)) skills.push(fresh);
    const dir = fresh.key.slice(0, -"/SKILL.md".length);
    if (added.has(dir)) added.set(dir, fresh);
    listing = build(skills, l.diagnostics);
  }

  async function fetchVerified(skill, key) {
    const uri = mcpFileUri(skill, key);
    if (uri === null) return { bytes: null };
    const file = skill.files.find((f) => f.key === key);
    if (file) {
      if (file.size > cap) throw objectTooLarge(key, file.size, cap);
      const kept = verified.get(`${file.digest} ${key}`);
      if (kept) return { bytes: kept };
    }
    counts.readRequests++;
    const result = await request("resources/read", { uri });
    const bytes = contentBytes(result, uri, cap);
    counts.readBytes += bytes.length;
    const check = verifyMcpFile(skill, key, bytes);
    if (!check.verified) return { bytes: null, failed: check.diagnostics[0] };
    if (file) verified.set(`${file.digest} ${key}`, bytes);
    return { bytes };
  }

  async function readVerified(key) {
    const l = await ensureListing();
    const skill = ownerOf(l, key);
    if (!skill) return null;
    let out = await fetchVerified(skill, key);
    if (!out.failed) return out.bytes;
    // The content is not what the entry said: fetch the entry again and read once more.
    counts.mismatches++;
    const got = await getEntry(skill.uri);
    const fresh = got.skills[0];
    if (fresh) {
      replace(skill, fresh);
      const owner = ownerOf(/** @type {any} */ (listing), key);
      if (!owner) return null;
      out = await fetchVerified(owner, key);
      if (!out.failed) return out.bytes;
    }
    const d = out.failed;
    skillDiagnostics.set(skill.key, [d]);
    throw failure(`${d.code}: ${d.message}`, d.code, { key, uri: skill.uri, server: label });
  }

  function page(all, prefix, opts, withHeads) {
    const limit = pageLimit(opts.limit, DEFAULT_LIMIT);
    const cursor = cursorOption(opts.cursor);
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
    while (i < all.length && entries.length < limit && all[i].key.startsWith(prefix)) {
      const { head, ...entry } = all[i++];
      // The listed frontmatter stands for the SKILL.md's first bytes: the file itself is read
      // (and verified against it) only when the skill is used.
      if (withHeads && head !== undefined && withHeads.files.includes("SKILL.md")) {
        const bytes = encoder.encode(head);
        if (bytes.length <= withHeads.prefixBytes) entry.head = bytes;
      }
      entries.push(entry);
    }
    const out = { entries };
    if (entries.length > 0 && i < all.length && all[i].key.startsWith(prefix)) out.cursor = entries[entries.length - 1].key;
    return out;
  }

  async function listing_(prefix, opts, withHeads) {
    if ((opts.cursor === undefined && prefix === "") || listing === null) await loadOnce();
    const l = await ensureListing();
    const out = page(l.entries, prefix, opts, withHeads);
    if (opts.cursor === undefined && l.diagnostics.length > 0) out.warnings = l.diagnostics.map((d) => warning(d, prefix));
    return out;
  }

  return {
    /** Where the keys are: `mcp://<server>/`. */
    location,
    /** The server's label: the `server` option, or one from the transport's command or URL (never the name the server reports). */
    server: label,
    /** Where its skills come from, for the host's consent: `mcp:` and the server's label. */
    origin: `mcp:${label}`,
    /** A remote store: its scope is untrusted unless the host says otherwise. */
    remote: true,
    /** Its skills are at its root (each at its skill path): a scope without roots searches there. */
    roots: Object.freeze([""]),
    /** The size cap of this store, in bytes. */
    maxObjectBytes: cap,

    async list(prefix, opts = {}) {
      assertPrefix(prefix);
      opts = optionsObject(opts, "list", { param: "opts" });
      return listing_(prefix, opts, null);
    },

    /** As list, each SKILL.md entry with its listed frontmatter as its head: no file is read. */
    async listSkillPrefixes(prefix, opts = {}) {
      assertPrefix(prefix);
      opts = optionsObject(opts, "listSkillPrefixes", { param: "opts" });
      const files = Array.isArray(opts.files) ? opts.files : [];
      const prefixBytes = Number.isInteger(opts.prefixBytes) ? opts.prefixBytes : 0;
      return listing_(prefix, opts, { files, prefixBytes });
    },

    async read(key, opts = {}) {
      assertKey(key);
      const maxBytes = byteLimit(optionsObject(opts, "read", { param: "opts" }).maxBytes);
      const bytes = await readVerified(key);
      if (bytes === null) return null;
      if (overCap(bytes.length, maxBytes, cap)) throw objectTooLarge(key, bytes.length, cap);
      return maxBytes === undefined ? bytes.slice() : bytes.slice(0, maxBytes);
    },

    /**
     * Loads a skill by the URI of its SKILL.md (one `skills/get`), whether or not the server lists
     * it; it is kept in every later listing. Resolves to `{ key, name, uri, diagnostics }`, `key`
     * null when the entry was refused (its diagnostics) or the request failed (`error`).
     * `registry.refresh()` then finds it.
     * @param {string} uri
     */
    async addSkill(uri) {
      if (typeof uri !== "string" || uri === "" || uri.length > 4096) {
        throw new TypeError(`addSkill: uri must be a skill's SKILL.md URI, got ${show(uri)}`);
      }
      // Only a server that declared the extension is asked for skills/get.
      const declared = declaration();
      if (!declared.declared) return { key: null, name: null, uri, diagnostics: declared.diagnostics };
      let got;
      try {
        got = await getEntry(uri);
      } catch (e) {
        return { key: null, name: null, uri, diagnostics: [], error: String(e?.message ?? e) };
      }
      const s = got.skills[0];
      if (!s) return { key: null, name: null, uri, diagnostics: got.diagnostics };
      added.set(s.key.slice(0, -"/SKILL.md".length), s);
      if (listing !== null) {
        const skills = [...listing.skills.values()].filter((x) => x.key !== s.key);
        listing = build([...skills, s], listing.diagnostics);
      }
      return { key: s.key, name: s.name, uri: s.uri, diagnostics: got.diagnostics };
    },

    /** The retained entry of the skill at `key` (its SKILL.md key), or null. */
    entry(key) {
      const s = listing?.files.get(key) ?? listing?.skills.get(String(key).replace(/\/SKILL\.md$/, ""));
      return s ? structuredClone(s) : null;
    },

    /** What the last listing and reads said: `{ listing: Diagnostic[], skills: { key: Diagnostic[] } }`. */
    diagnostics() {
      return { listing: listing ? [...listing.diagnostics] : [], skills: Object.fromEntries(skillDiagnostics) };
    },

    /**
     * Requests made so far: skills/list pages, skills/get, resources/read (and their bytes),
     * mismatches; the bytes of JSON the last listing read, and how often the store reconnected.
     */
    stats() {
      return { ...counts, reconnects: conn.reconnects() };
    },
  };
}
