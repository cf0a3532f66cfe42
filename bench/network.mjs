#!/usr/bin/env node
// Skills over the network against the same skills from disk: the corpus (../shared/corpus)
// discovered from its directory; published by publishWellKnown(registry) and discovered through
// wellKnownStorage from a real HTTP server on 127.0.0.1; and served by skillsMcpServer and
// discovered through mcpStorage over the MCP SDK's in-process transport. Requests are counted at
// the HTTP server and at the MCP client.
//
//   node bench/network.mjs [--runs N]
//
// Prints the median of the runs and each way's requests; no assertions.

import { existsSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { routesOf, serve } from "../tests/js/support/well-known-server.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus", "skills");
const PKG = join(REPO, "pkg");
const at = process.argv.indexOf("--runs");
const RUNS = at > 0 ? Math.max(1, Number(process.argv[at + 1]) | 0) : 5;
if (!existsSync(join(PKG, "node.js")) || !existsSync(CORPUS)) {
  console.error("needs a build (make build) and ../shared/corpus");
  process.exit(1);
}

const pkg = await import(pathToFileURL(join(PKG, "node.js")).href);
const { skillsMcpServer } = await import(pathToFileURL(join(PKG, "mcp-server.js")).href);
const { connectInProcess, countRequests } = await import("../tests/js/support/mcp-connect.mjs");

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const scope = (name, storage) => ({ scopes: [{ name, storage, roots: [""], trusted: true }], maxDepth: 12, timeoutMs: 600_000 });
async function timed(f) {
  const t = performance.now();
  const value = await f();
  return [performance.now() - t, value];
}

/** An SDK client of `server` counting its requests by method. */
async function connected(server) {
  const client = await connectInProcess(server, "bench");
  return { client, counts: countRequests(client) };
}

const times = { disk: [], http: [], httpAgain: [], httpRead: [], mcpCold: [], mcp: [], mcpRead: [] };
let shape;
for (let run = 0; run < RUNS; run++) {
  const [disk, source] = await timed(() => pkg.SkillRegistry.discover(scope("corpus", pkg.nodeFsStorage(CORPUS))));
  times.disk.push(disk);
  const offered = source.listMetas().length;

  // HTTP: listing fetches the index; reading each SKILL.md fetches its artifact once.
  const published = await pkg.publishWellKnown(source);
  const server = await serve(routesOf(published));
  const store = pkg.wellKnownStorage(server.url);
  const [http, overHttp] = await timed(() => pkg.SkillRegistry.discover(scope("site", store)));
  const httpListing = { index: server.count() - server.artifacts(), artifacts: server.artifacts() };
  const [httpRead] = await timed(() => Promise.all(overHttp.names().map((n) => overHttp.readFile(n))));
  const httpReadRequests = server.count() - httpListing.index - httpListing.artifacts;
  const before = server.count();
  const [httpAgain, again] = await timed(() => pkg.SkillRegistry.discover(scope("site", store)));
  const httpAgainRequests = server.count() - before;
  times.http.push(http);
  times.httpRead.push(httpRead);
  times.httpAgain.push(httpAgain);
  await server.close();

  // MCP: the first listing makes the server hash every file; a second server-side pass is warm.
  const mcpServer = skillsMcpServer(source, { pageSize: 100, name: "corpus" });
  const cold = await connected(mcpServer);
  const [mcpCold, overMcpCold] = await timed(() => pkg.SkillRegistry.discover(scope("corpus", pkg.mcpStorage(cold.client, { server: "corpus", timeoutMs: 600_000 }))));
  // The same server again, through a new store: its digests are cached, the client's are not.
  const warm = cold;
  for (const k of Object.keys(warm.counts)) delete warm.counts[k];
  const [mcp, overMcp] = await timed(() => pkg.SkillRegistry.discover(scope("corpus", pkg.mcpStorage(warm.client, { server: "corpus", timeoutMs: 600_000 }))));
  const mcpListing = { ...warm.counts };
  const [mcpRead] = await timed(async () => {
    for (const n of overMcp.names()) await overMcp.readFile(n);
  });
  times.mcpCold.push(mcpCold);
  times.mcp.push(mcp);
  times.mcpRead.push(mcpRead);
  shape = {
    offered, http: overHttp.names().length, httpAgain: again.names().length, mcp: overMcp.names().length, mcpCold: overMcpCold.names().length,
    artifacts: published.artifacts.length, leftOut: published.diagnostics.length, httpListing, httpReadRequests, httpAgainRequests, mcpListing, mcpReads: warm.counts["resources/read"] ?? 0,
  };
  await cold.client.close();
}

const ms = (x) => `${x.toFixed(0).padStart(7)} ms`;
const ratio = (x) => `${(x / median(times.disk)).toFixed(2)}x disk`;
console.log(`node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}, median of ${RUNS} runs`);
console.log(`corpus: ${shape.offered} skills offered from disk; ${shape.artifacts} artifacts published, ${shape.leftOut} skills left out (over 512 files / 16 MiB)`);
console.log(`| way | skills | time | vs disk | requests |`);
console.log(`|---|---:|---:|---:|---|`);
console.log(`| disk: discover | ${shape.offered} | ${ms(median(times.disk))} | 1.00x disk | (no network) |`);
console.log(`| HTTP: discover | ${shape.http} | ${ms(median(times.http))} | ${ratio(median(times.http))} | ${shape.httpListing.index} index + ${shape.httpListing.artifacts} artifacts (a trusted scope reads each SKILL.md) |`);
console.log(`| HTTP: read every SKILL.md | ${shape.http} | ${ms(median(times.httpRead))} | | ${shape.httpReadRequests} more (served from the verified artifacts) |`);
console.log(`| HTTP: discover again | ${shape.httpAgain} | ${ms(median(times.httpAgain))} | ${ratio(median(times.httpAgain))} | ${shape.httpAgainRequests} (index, 304) |`);
console.log(`| MCP: discover, server cold | ${shape.mcpCold} | ${ms(median(times.mcpCold))} | ${ratio(median(times.mcpCold))} | skills/list only |`);
console.log(`| MCP: discover, server warm | ${shape.mcp} | ${ms(median(times.mcp))} | ${ratio(median(times.mcp))} | ${JSON.stringify(shape.mcpListing)} |`);
console.log(`| MCP: read every SKILL.md | ${shape.mcp} | ${ms(median(times.mcpRead))} | | ${shape.mcpReads} resources/read |`);
