#!/usr/bin/env node
// Skills over MCP: the corpus (../shared/corpus) discovered from disk as `skillwasm list` does
// (SkillRegistry over nodeFsStorage), against the same skills listed over MCP in process: the
// official SDK's Client, through an InMemoryTransport, paging skills/list from skillsMcpServer over
// that registry. A first listing reads and hashes every file of every skill (complete manifests);
// a second finds the digests again by etag and size. Then every listed file is read back with
// resources/read.
//
//   node bench/mcp.mjs [--runs N] [--page-size N]
//
// Prints times (median of the runs); no assertions.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const PKG = join(REPO, "pkg");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Math.max(1, Number(process.argv[i + 1]) | 0) : fallback;
};
const RUNS = arg("--runs", 5);
const PAGE = arg("--page-size", 50);

if (!existsSync(join(PKG, "node.js"))) {
  console.error("build first: make build");
  process.exit(1);
}
if (!existsSync(CORPUS)) {
  console.error(`no corpus at ${CORPUS}`);
  process.exit(1);
}

const { SkillRegistry, nodeFsStorage } = await import(pathToFileURL(join(PKG, "node.js")).href);
const { skillsMcpServer } = await import(pathToFileURL(join(PKG, "mcp-server.js")).href);
const { connectInProcess } = await import("../tests/js/support/mcp-connect.mjs");
const z = await import("zod/v4");
const Loose = z.looseObject({});

const options = () => ({
  scopes: [{ name: "builtin", storage: nodeFsStorage(CORPUS), roots: ["skills/"] }],
  maxDepth: 12,
  maxDirectories: 1_000_000,
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

async function listAll(client) {
  const skills = [];
  let cursor;
  let pages = 0;
  do {
    const page = await client.request({ method: "skills/list", params: cursor === undefined ? {} : { cursor } }, Loose);
    skills.push(...page.skills);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { skills, pages };
}

const rows = { disk: [], first: [], again: [], reads: [] };
let shape;
for (let run = 0; run < RUNS; run++) {
  let t = performance.now();
  const registry = await SkillRegistry.discover(options());
  const names = registry.names().length;
  rows.disk.push(performance.now() - t);

  const client = await connectInProcess(skillsMcpServer(registry, { pageSize: PAGE }), "bench");
  t = performance.now();
  const first = await listAll(client);
  rows.first.push(performance.now() - t);
  t = performance.now();
  await listAll(client);
  rows.again.push(performance.now() - t);
  const files = first.skills.reduce((n, s) => n + s.resources.length, 0);
  const bytes = first.skills.reduce((n, s) => n + s.resources.reduce((m, r) => m + r.size, 0), 0);
  t = performance.now();
  for (const s of first.skills) for (const r of s.resources) await client.readResource({ uri: r.uri });
  rows.reads.push(performance.now() - t);
  shape = { names, listed: first.skills.length, pages: first.pages, files, bytes };
  await client.close();
  registry.free();
}

console.log(`corpus: ${shape.names} skills discovered, ${shape.listed} listed over MCP in ${shape.pages} pages of ${PAGE}; ${shape.files} files, ${shape.bytes} bytes`);
console.log(`median of ${RUNS} runs:`);
console.log(`  discovery from disk (skillwasm list):            ${ms(median(rows.disk))}`);
console.log(`  skills/list over MCP, first (every file hashed):  ${ms(median(rows.first))}`);
console.log(`  skills/list over MCP, again (digests by etag):    ${ms(median(rows.again))}`);
console.log(`  resources/read of every listed file:              ${ms(median(rows.reads))}`);
