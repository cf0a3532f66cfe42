#!/usr/bin/env node
// Catalog and activation benchmark on every skill of ../shared/corpus (nodeFsStorage, root skills/):
//   - time to render the catalog of all visible skills in each format (median of --runs, default 20);
//   - every visible skill activated once through SkillTool.execute: total and per activation, with
//     the storage calls the activations made;
//   - catalog tokens per skill beyond name and description, per format, with and without locations:
//     (tokens(catalog) - sum tokens(name) - sum tokens(description)) / skills, with the core's
//     estimate (the package's estimateTokens) applied to each string.
// The goal: at most 15 estimated tokens of overhead per skill in the compact formats.
//
//   node bench/activate.mjs [--runs N]
//
// A script that prints numbers, not a test.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const PKG_ENTRY = join(REPO, "pkg", "node.js");
const i = process.argv.indexOf("--runs");
const RUNS = i > 0 ? Math.max(1, Number(process.argv[i + 1]) | 0) : 20;
const FORMATS = ["xml", "reference", "json", "markdown"];
const COMPACT = new Set(["xml", "json", "markdown"]);
const GOAL = 15;

if (!existsSync(PKG_ENTRY)) {
  console.error("build first: make build");
  process.exit(1);
}
if (!existsSync(CORPUS)) {
  console.error("no corpus at ../shared/corpus");
  process.exit(1);
}

// The package's own token estimate: the one every budget and catalog count uses.
const { SkillRegistry, SkillTool, estimateTokens, nodeFsStorage, renderCatalog } = await import(pathToFileURL(PKG_ENTRY).href);
const { oneLine } = await import("../tests/js/support/skill-tool.mjs");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// The store, counting its calls.
const calls = { lists: 0, reads: 0 };
const fs = nodeFsStorage(CORPUS);
const storage = {
  list: (p, o) => (calls.lists++, fs.list(p, o)),
  read: (k, o) => (calls.reads++, fs.read(k, o)),
};

const t0 = performance.now();
const registry = await SkillRegistry.discover({ scopes: [{ name: "builtin", storage, roots: ["skills/"] }], maxDepth: 12, maxDirectories: 100000 });
const discoverMs = performance.now() - t0;
const discoverCalls = { ...calls };

// Catalog rendering, each format, with and without locations.
const rows = [];
for (const format of FORMATS) {
  for (const includeLocation of [true, false]) {
    const opts = { format, includeLocation };
    renderCatalog(registry, opts); // warm
    const times = [];
    let r;
    for (let k = 0; k < RUNS; k++) {
      const s = performance.now();
      r = renderCatalog(registry, opts);
      times.push(performance.now() - s);
    }
    const names = r.skills;
    const nameTokens = names.reduce((n, name) => n + estimateTokens(name), 0);
    const descTokens = names.reduce((n, name) => n + estimateTokens(oneLine(registry.get(name).description)), 0);
    const tokens = estimateTokens(r.text);
    if (tokens !== r.tokens) throw new Error(`${format}: the core says ${r.tokens} tokens, the estimate here ${tokens}`);
    rows.push({ format, includeLocation, ms: median(times), skills: names.length, chars: r.chars, tokens, overhead: (tokens - nameTokens - descTokens) / names.length });
  }
}

// Every visible skill activated once.
const tool = new SkillTool(registry, {});
const names = tool.definition().inputSchema.properties.name.enum;
const before = { ...calls };
const statsBefore = registry.stats();
let errors = 0;
let bytes = 0;
const s = performance.now();
for (const name of names) {
  const r = await tool.execute({ name });
  if (r.isError) errors++;
  bytes += r.content.length;
}
const activateMs = performance.now() - s;
const statsAfter = registry.stats();
const act = { lists: calls.lists - before.lists, reads: calls.reads - before.reads };

const f = (x, d = 2) => x.toFixed(d);
console.log(`corpus: ${names.length} visible skills (${registry.names().length} names); discovery ${f(discoverMs, 0)} ms, ${discoverCalls.lists} list + ${discoverCalls.reads} read calls`);
console.log(`catalog rendering: median of ${RUNS} runs per format\n`);
console.log(`${"format".padEnd(10)} ${"locations".padEnd(10)} ${"ms/catalog".padStart(11)} ${"chars".padStart(8)} ${"tokens".padStart(7)} ${"tok/skill".padStart(10)} ${"overhead tok/skill".padStart(19)}  goal <= ${GOAL} (compact formats)`);
for (const r of rows) {
  const verdict = COMPACT.has(r.format) ? (r.overhead <= GOAL ? "met" : "MISSED") : "(reference layout)";
  console.log(
    `${r.format.padEnd(10)} ${(r.includeLocation ? "yes" : "no").padEnd(10)} ${f(r.ms, 3).padStart(11)} ${String(r.chars).padStart(8)} ${String(r.tokens).padStart(7)} ${f(r.tokens / r.skills, 1).padStart(10)} ${f(r.overhead).padStart(19)}  ${verdict}`,
  );
}
console.log(`\nactivations: ${names.length} skills through SkillTool.execute, ${errors} errors, ${(bytes / 1024).toFixed(0)} KiB of content`);
console.log(`  total ${f(activateMs, 1)} ms, ${f((activateMs / names.length) * 1000, 0)} µs per activation`);
console.log(`  storage calls: ${act.lists} list + ${act.reads} read (${f(act.lists / names.length)} list and ${f(act.reads / names.length)} read per activation); registry stats agree: ${statsAfter.listCalls - statsBefore.listCalls} list, ${statsAfter.readCalls - statsBefore.readCalls} read`);
