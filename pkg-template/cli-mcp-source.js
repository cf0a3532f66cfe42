// An MCP server of the Skills extension as a source for `add`, `install --frozen` and `update`:
// `mcp+http://…` / `mcp+https://…` (Streamable HTTP) or `mcp+stdio:<command line>` (the command
// spawned, speaking MCP on its stdin and stdout), through a client of the official SDK
// (`@modelcontextprotocol/sdk`, imported only here). Connecting and closing only (one connection
// a server per command: mcpSession): the skill is found and its files read through the library's
// store (`mcpStorage`), so every entry is checked and every file verified against its listed
// digest by the core, as for any host. A lockfile's stdio command runs only when the user allows.
import { digestOf } from "./cli-lock-scope.js";
import { SourceError } from "./cli-sources.js";
import { SkillRegistry, mcpStorage } from "./node.js";
import { within } from "./storage/mcp-connection.js";

const HTTP = /^mcp\+(https?:\/\/.*)$/is;
const STDIO = /^mcp\+stdio:(.*)$/is;
/** How long connecting (and the server's first answer) may take. */
const CONNECT_TIMEOUT_MS = 30_000;
/** How long ending an HTTP session may take: a server that never answers does not hold the CLI. */
const CLOSE_TIMEOUT_MS = 5_000;
/** The most of a stdio server's stderr kept, to say why it failed. */
const STDERR_TAIL = 2000;
/** The scope the server's skills are discovered in. */
const SCOPE = "mcp";

/** True when `spec` names an MCP server (`mcp+http(s)://…` or `mcp+stdio:…`). */
export const isMcpSpec = (spec) => HTTP.test(spec) || STDIO.test(spec);

/**
 * The words of a command line: split at whitespace; `'…'` keeps its text as it is, `"…"` too but
 * for `\"` and `\\`, and a backslash outside quotes keeps the next character. Nothing else is
 * expanded (no variables, no globs): the command is spawned without a shell.
 * @param {string} line
 */
export function commandWords(line) {
  const words = [];
  let word = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      const end = c === "'" ? line.indexOf("'", i + 1) : closingQuote(line, i + 1);
      if (end === -1) throw new SourceError(`mcp+stdio: the command line has an unclosed ${c}`);
      const inner = line.slice(i + 1, end);
      word = (word ?? "") + (c === "'" ? inner : inner.replace(/\\(["\\])/g, "$1"));
      i = end;
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

function closingQuote(line, from) {
  for (let i = from; i < line.length; i++) {
    if (line[i] === "\\") i++;
    else if (line[i] === '"') return i;
  }
  return -1;
}

/**
 * The HTTP URL of an `mcp+http(s)://` spec. Credentials and a query string are refused: the
 * lockfile keeps the URL, and a token (`?api_key=…`) would be committed with the project.
 */
function httpUrl(spec) {
  let url;
  try {
    url = new URL(HTTP.exec(spec)[1]);
  } catch {
    throw new SourceError(`${spec}: not a URL`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new SourceError(`${url.host}: a user or password in the URL would be written to the lockfile; give the server without them`);
  }
  if (url.search !== "") {
    throw new SourceError(`${url.host}: a query string in the URL (${url.search.length - 1} characters) would be written to the lockfile; give the server without it`);
  }
  return url;
}

/**
 * What `add <spec>` names: an MCP lockfile source without its `uri` (the connection tells it).
 * `flags`: `name` (required: the skill), `server` (the host's label for the server; by default
 * the one mcpStorage gives the transport: the URL's host, or the command's program and script).
 * `add` refuses `--path` and `--ref` with an MCP source before it gets here.
 */
export function mcpSourceOf(spec, flags) {
  if (flags.name === undefined) throw new SourceError("an MCP source needs the skill's --name");
  if (HTTP.test(spec)) httpUrl(spec);
  else if (commandWords(STDIO.exec(spec)[1]).length === 0) throw new SourceError("mcp+stdio: needs a command");
  return { type: "mcp", server: flags.server ?? "", uri: "", connection: spec };
}

async function sdk() {
  try {
    const [{ Client }, { StreamableHTTPClientTransport }, { StdioClientTransport }] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
      import("@modelcontextprotocol/sdk/client/stdio.js"),
    ]);
    return { Client, StreamableHTTPClientTransport, StdioClientTransport };
  } catch (e) {
    throw new SourceError(`an MCP source needs @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk): ${e?.message ?? e}`);
  }
}

/**
 * The words of an `mcp+stdio:` source's command (the program first), or null for any other
 * source.
 * @param {{ type?: string; connection?: unknown }} source
 */
export function stdioCommandOf(source) {
  if (source?.type !== "mcp" || typeof source.connection !== "string") return null;
  const m = STDIO.exec(source.connection);
  return m ? commandWords(m[1]) : null;
}

/**
 * A connected client for `connection` (a spec); a stdio command runs in `base` with the
 * environment the SDK gives a server by default (the user's PATH, HOME and a few more: not the
 * CLI's secrets). `{ client, close }`: close ends the session and the server's process.
 */
async function connect(connection, base) {
  const { Client, StreamableHTTPClientTransport, StdioClientTransport } = await sdk();
  let transport;
  let stderr = "";
  if (HTTP.test(connection)) {
    transport = new StreamableHTTPClientTransport(httpUrl(connection));
  } else {
    const words = commandWords(STDIO.exec(connection)[1]);
    const [command, ...args] = words;
    // A lockfile's command is run by install and update too: it is said, word by word and quoted
    // (a control character in it shows as an escape, not as what it does to the terminal), and
    // where it runs.
    process.stderr.write(`skillwasm: running the MCP server ${JSON.stringify(words)} in ${base}\n`);
    transport = new StdioClientTransport({ command, args, cwd: base, stderr: "pipe" });
    transport.stderr?.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
  }
  const client = new Client({ name: "skillwasm-cli", version: "1" });
  const close = async () => {
    try {
      if (typeof transport.terminateSession === "function") {
        await within(transport.terminateSession(), CLOSE_TIMEOUT_MS, `${connection}: ending the session`);
      }
    } catch {
      // A server without sessions (or one already gone, or one that does not answer in time) has
      // none to end.
    }
    await client.close().catch(() => {});
  };
  try {
    await within(client.connect(transport), CONNECT_TIMEOUT_MS, connection);
  } catch (e) {
    await close();
    const said = stderr.trim() === "" ? "" : `\n${stderr.trim()}`;
    throw new SourceError(`${connection}: connecting failed: ${e?.message ?? e}${said}`);
  }
  return { client, close };
}

/** The keys the store lists under `prefix`, every page. */
async function keysUnder(storage, prefix) {
  const keys = [];
  let cursor;
  do {
    const page = await storage.list(prefix, cursor === undefined ? {} : { cursor });
    keys.push(...page.entries.map((e) => e.key));
    cursor = page.cursor;
  } while (cursor !== undefined && cursor !== null);
  return keys;
}

/** The skill's files: every key under its directory but those of a skill nested in it. */
function filesOf(dir, keys) {
  const prefix = dir === "" ? "" : `${dir}/`;
  const rel = keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  const nested = new Set(rel.filter((k) => k !== "SKILL.md" && k.endsWith("/SKILL.md")).map((k) => k.slice(0, -"/SKILL.md".length)));
  const inNested = (k) => [...k.matchAll(/\//g)].some((m) => nested.has(k.slice(0, m.index)));
  return rel.filter((k) => !inNested(k));
}

/**
 * A server's skills as one command sees them: its store and the registry discovered over it once,
 * with each listed skill's location by the URI of its entry (built on first use, again after a
 * refresh). `close` frees the registry and ends the connection.
 */
async function openServer(connection, label, base) {
  const { client, close } = await connect(connection, base);
  try {
    const storage = mcpStorage(client, label === "" ? {} : { server: label });
    const registry = await SkillRegistry.discover({ scopes: [{ name: SCOPE, storage, roots: [""], trusted: true }], vet: "off" });
    return {
      storage,
      registry,
      byUri: null,
      async close() {
        registry.free();
        await close();
      },
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * The skill `source.uri` names (or, before it is known, the one named `name`) among the server's:
 * a listed skill by the URI of its entry, another by loading its URI (addSkill), which gives its
 * key. The URIs are the server's and the keys the core's: nothing here maps one to the other.
 */
async function findSkill(server, source, name) {
  const { registry, storage } = server;
  const metas = () => registry.listMetasAcross();
  if (source.uri === "") {
    const meta = metas().find((m) => m.name === name);
    if (!meta) throw new SourceError(`${storage.server} has no skill '${name}' (it lists ${metas().map((m) => m.name).join(", ") || "none"})`);
    return meta;
  }
  server.byUri ??= new Map(metas().map((m) => [storage.entry(m.location)?.uri, m.location]));
  let location = server.byUri.get(source.uri);
  if (location === undefined) {
    // A server may serve a skill it does not list: asked for by its URI.
    const added = await storage.addSkill(source.uri);
    if (added.key === null) throw new SourceError(`${storage.server} has no skill ${source.uri}${added.error ? `: ${added.error}` : ""}`);
    await registry.refresh();
    server.byUri = null;
    location = added.key;
  }
  const meta = metas().find((m) => m.location === location);
  if (!meta) throw new SourceError(`${storage.server} has no skill ${source.uri}`);
  return meta;
}

/** The skill `meta` of `server`: its files, read and verified, and its entry's URI. */
async function readSkill(server, meta) {
  const { registry, storage } = server;
  // The core computes the content digest first, within its per-skill limits (files and bytes),
  // from the digests the server lists: it reads no file for it. The reads below are the only
  // resources/read requests, each file verified by the store against its listed digest.
  const served = await registry.contentDigest(meta.name);
  if (served.digest === undefined) throw new SourceError(`${storage.server}: '${meta.name}': ${served.error?.message ?? "no digest"}`);
  const listed = filesOf(meta.directory, await keysUnder(storage, meta.directory === "" ? "" : `${meta.directory}/`));
  const files = [];
  for (const rel of listed) {
    const key = meta.directory === "" ? rel : `${meta.directory}/${rel}`;
    let bytes;
    try {
      bytes = await storage.read(key);
    } catch (e) {
      throw new SourceError(`${storage.server}: reading ${key} failed: ${e?.message ?? e}`);
    }
    if (bytes === null) {
      const why = storage.diagnostics().skills[meta.location]?.map((d) => `${d.code}: ${d.message}`).join("; ");
      throw new SourceError(`${storage.server}: ${key} could not be read verified${why ? `: ${why}` : ""}`);
    }
    files.push({ path: rel, bytes });
  }
  // The files as they will be written give the digest the core computed over the server's store.
  const local = await digestOf(meta.name, files);
  if (local !== served.digest) throw new SourceError(`${storage.server}: '${meta.name}' read as ${local}, but its store gives ${served.digest}`);
  const uri = storage.entry(meta.location)?.uri;
  if (typeof uri !== "string") throw new SourceError(`${storage.server}: '${meta.name}' has no entry to record its URI from`);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, uri };
}

/**
 * The MCP servers one command fetches from: each distinct connection (with the label its entries
 * give the server) is connected to and discovered once, on first use, and every server is closed
 * by `close()` (a stdio server's process ended). A stdio command runs in `base`, and only with
 * `allowStdio` (a command a lockfile gives is run only when the user says so).
 * @param {string} base
 * @param {{ allowStdio?: boolean }} [options]
 */
export function mcpSession(base, { allowStdio = false } = {}) {
  /** `${connection}\0${label}` -> the server, as a promise (a failed connection fails every entry of it alike). */
  const servers = new Map();
  return {
    /**
     * Fetches a skill from an MCP server (a lockfile source whose `connection` says how to reach
     * it): `{ files, source }`, the source completed with the skill's `uri` and the server's
     * label. The skill is the one at `source.uri`, or before it is known (`add`) the one named
     * `name`. Each file is read through mcpStorage, verified by the core against its listed
     * digest, and the files together must give the content digest the core computes over the
     * server's store.
     * @param {{ type: "mcp"; server: string; uri: string; connection?: string }} source
     * @param {{ name?: string }} [options]
     */
    async fetch(source, { name } = {}) {
      if (typeof source.connection !== "string" || !isMcpSpec(source.connection)) {
        throw new SourceError(`the MCP source ${source.uri || ""} records no connection (mcp+http(s)://… or mcp+stdio:…) to fetch it again; add it again with one`);
      }
      const words = stdioCommandOf(source);
      if (words !== null && !allowStdio) throw new SourceError(`the command ${JSON.stringify(words)} is not run without --allow-stdio`);
      const key = `${source.connection}\0${source.server}`;
      if (!servers.has(key)) {
        const opening = openServer(source.connection, source.server, base);
        opening.catch(() => {});
        servers.set(key, opening);
      }
      const server = await servers.get(key);
      const { files, uri } = await readSkill(server, await findSkill(server, source, name));
      return { files, source: { ...source, server: server.storage.server, uri } };
    },
    /** Closes every server this session opened. */
    async close() {
      const opened = [...servers.values()];
      servers.clear();
      await Promise.all(opened.map((p) => p.then((s) => s.close(), () => {})));
    },
  };
}

/**
 * Fetches one skill from an MCP server (see mcpSession's `fetch`), the connection (and a stdio
 * server's process) closed before this returns. For `add`: a stdio command is the one the user
 * typed, and runs.
 * @param {{ type: "mcp"; server: string; uri: string; connection?: string }} source
 * @param {string} base the directory a stdio command runs in
 * @param {{ name?: string }} [options]
 */
export async function fetchMcpSource(source, base, options = {}) {
  const session = mcpSession(base, { allowStdio: true });
  try {
    return await session.fetch(source, options);
  } finally {
    await session.close();
  }
}
