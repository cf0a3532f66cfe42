// A real MCP server of the SDK (`Server`) serving skills through handlers registered here, the
// Skills extension's shapes kept exactly (SEP-2640): skills/list (paged), skills/get and
// resources/read. The test holds the server's state and may change it (tamper a file, change an
// entry) between requests; every request is counted by method.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpError, ErrorCode, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CORPUS_SKILLS } from "./support/corpus.mjs";
import { connectInProcess } from "./support/mcp-connect.mjs";

export const EXTENSION = "io.modelcontextprotocol/skills";

const sha = (bytes) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** A skill's entry from its files (`{ rel: Buffer }`), at `skillPath`, frontmatter from its SKILL.md. */
export function entryOf(skillPath, files, frontmatter) {
  const base = `skill://${skillPath}/`;
  return {
    uri: `${base}SKILL.md`,
    frontmatter,
    resources: Object.entries(files).map(([rel, bytes]) => ({ uri: base + rel, digest: sha(bytes), size: bytes.length })),
  };
}

/** The frontmatter of a SKILL.md as JSON (gray-matter's YAML), or null when it has none JSON can hold. */
export function frontmatterOf(bytes) {
  let data;
  try {
    data = matter(bytes.toString("utf8")).data;
  } catch {
    return null;
  }
  if (typeof data?.name !== "string" || typeof data.description !== "string") return null;
  const text = JSON.stringify(data);
  // Dates and other values JSON turns into something else are left out of the served set.
  if (JSON.stringify(JSON.parse(text)) !== text || /\d{4}-\d\d-\d\dT\d\d:/.test(text)) return null;
  return JSON.parse(text);
}

/** Every file of the directory `dir`: `{ rel: Buffer }`. */
function filesOf(dir) {
  const out = {};
  const walk = (rel) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = statSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else if (st.isFile()) out[r] = readFileSync(path.join(dir, r));
    }
  };
  walk("");
  return out;
}

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Up to `count` skills of the corpus that a server can serve as they are: a SKILL.md whose
 * frontmatter JSON can hold, a name that is its directory's, no nested skill, within 512 files
 * and 16 MiB, file names that need no escaping. `[{ name, dir, files, frontmatter }]`, by name.
 */
export function corpusSkills(count) {
  const out = [];
  const seen = new Set();
  const walk = (dir, depth) => {
    if (out.length >= count * 4 || depth > 6) return;
    let names;
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    if (names.includes("SKILL.md")) {
      const name = path.basename(dir);
      const files = filesOf(dir);
      const rels = Object.keys(files);
      const fm = frontmatterOf(files["SKILL.md"]);
      const size = Object.values(files).reduce((n, b) => n + b.length, 0);
      const plain = rels.every((r) => r.split("/").every((s) => /^[A-Za-z0-9._-]+$/.test(s) && s !== "." && s !== ".."));
      const nested = rels.some((r) => r !== "SKILL.md" && r.endsWith("/SKILL.md"));
      if (fm && fm.name === name && NAME.test(name) && !seen.has(name) && plain && !nested && rels.length <= 512 && size <= 16 << 20) {
        seen.add(name);
        out.push({ name, dir, files, frontmatter: fm });
      }
      return;
    }
    for (const n of names) {
      if (n.startsWith(".") || n === "node_modules") continue;
      const p = path.join(dir, n);
      if (statSync(p).isDirectory()) walk(p, depth + 1);
    }
  };
  walk(CORPUS_SKILLS, 0);
  return out.sort((a, b) => (a.name < b.name ? -1 : 1)).slice(0, count);
}

const ListSkills = z.object({ method: z.literal("skills/list"), params: z.object({ cursor: z.string().optional() }).passthrough().optional() });
const GetSkill = z.object({ method: z.literal("skills/get"), params: z.object({ uri: z.string() }).passthrough() });

/**
 * A server over `skills` (`[{ path, files, frontmatter, resources? }]`): `state.listed` are the
 * entries skills/list pages through (`pageSize` a page), `state.entries` what skills/get answers
 * (by URI), `state.files` what resources/read serves (by URI). `declare`: where the extension is
 * declared ("extensions", "experimental" or null). `hooks[method]` may replace a handler.
 */
export function skillsServer(skills, { name = "skills-test", pageSize = 50, declare = "extensions", hooks = {} } = {}) {
  const state = { listed: [], entries: new Map(), files: new Map(), counts: {} };
  for (const s of skills) {
    const entry = { ...entryOf(s.path, s.files, s.frontmatter), ...(s.resources ? { resources: s.resources } : {}) };
    if (s.listed !== false) state.listed.push(entry);
    state.entries.set(entry.uri, entry);
    for (const [rel, bytes] of Object.entries(s.files)) state.files.set(`skill://${s.path}/${rel}`, bytes);
  }
  const capabilities = { resources: {} };
  if (declare) capabilities[declare] = { [EXTENSION]: {} };
  const server = new Server({ name, version: "1.0.0" }, { capabilities });
  const count = (m) => { state.counts[m] = (state.counts[m] ?? 0) + 1; };
  server.setRequestHandler(ListSkills, async (req, extra) => {
    count("skills/list");
    if (hooks["skills/list"]) return hooks["skills/list"](req, extra);
    const start = req.params?.cursor ? Number(req.params.cursor) : 0;
    const page = state.listed.slice(start, start + pageSize);
    const next = start + pageSize < state.listed.length ? { nextCursor: String(start + pageSize) } : {};
    return { resultType: "complete", skills: page, ...next, ttlMs: 60000, cacheScope: "public" };
  });
  server.setRequestHandler(GetSkill, async (req, extra) => {
    count("skills/get");
    if (hooks["skills/get"]) return hooks["skills/get"](req, extra);
    const entry = state.entries.get(req.params.uri);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `unknown skill ${req.params.uri}`);
    return { resultType: "complete", skill: entry, ttlMs: 60000, cacheScope: "public" };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    count("resources/read");
    if (hooks["resources/read"]) return hooks["resources/read"](req, extra);
    const bytes = state.files.get(req.params.uri);
    if (!bytes) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${req.params.uri}`);
    const text = bytes.toString("utf8");
    const content = Buffer.from(text, "utf8").equals(bytes)
      ? { uri: req.params.uri, mimeType: "text/markdown", text }
      : { uri: req.params.uri, mimeType: "application/octet-stream", blob: bytes.toString("base64") };
    return { contents: [content] };
  });
  return { server, state };
}

/** A client of the SDK connected to `server` in process. */
export { connectInProcess as connect };
