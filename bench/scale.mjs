#!/usr/bin/env node
// Scale benchmark: synthetic skills in memory stores (memoryStorage) at 1,000, 10,000 and 100,000
// skills, two scopes (every fifth name also in the second scope, shadowed), every tenth skill
// nested inside another, each with a reference file and frontmatter as real skills write it.
// Times, per size: discovery, refresh with nothing changed and with one SKILL.md changed,
// the same list calls from JS alone (the floor of a refresh with nothing changed; the memory store
// keeps a version, so that is one call per root) and the full listing those calls save, listMetas
// (and its floor: the same objects copied by plain JS),
// budgeted catalogs in three formats, the skill tool's construction and definition, search after
// discovery and after fromSnapshot (the first query, then the median and 95th percentile of the
// requests of bench/search-queries.json), snapshot and fromSnapshot; then the ratio of the largest size to the smallest per operation
// (linear growth would be the ratio of the sizes; n log n a little more), the store calls (per
// refresh), and the wasm memory after the largest size. Every figure is the least of three: the
// refreshes and the listing run three times on one registry; discovery and the operations that
// build on what a registry computed (which a second run on the same registry could meet cached)
// run once on each of three registries discovered anew.
//
//   node bench/scale.mjs                  sizes 1000, 10000, 100000
//   SCALE_MAX=20000 node bench/scale.mjs  a quicker run: the largest size is 20000
//
// A script that prints numbers, not a test. bench/scale-workerd.mjs measures real-sized skills
// started from a snapshot kept in R2, inside workerd: the latency and memory of a Worker.

import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PKG_ENTRY = join(REPO, "pkg", "node.js");
if (!existsSync(PKG_ENTRY)) {
  console.error("build first: make build");
  process.exit(1);
}
const pkg = await import(pathToFileURL(PKG_ENTRY).href);
const { SkillRegistry, SkillTool, memoryStorage, renderCatalog } = pkg;
// The generated module, for its memory: initSync answers with the instance's exports once the
// package has instantiated it.
const glue = await import(pathToFileURL(join(REPO, "pkg", "skillwasm.js")).href);
const wasmMemory = () => glue.initSync()?.memory?.buffer?.byteLength;

const MAX = Number(process.env.SCALE_MAX ?? 100_000);
if (!Number.isInteger(MAX) || MAX < 1000) {
  console.error("SCALE_MAX must be an integer of at least 1000");
  process.exit(1);
}
// Runs of each operation that caches nothing, the least time kept (see `least`).
const ROUNDS = 3;
const SIZES = [...new Set([1_000, 10_000, MAX].filter((n) => n <= MAX))].sort((a, b) => a - b);
const ROOT = ".agents/skills/";

const directory = (i) => {
  const group = Math.floor(i / 50);
  return i % 10 === 9 ? `${ROOT}g${group}/s${i - 1}/nested/s${i}` : `${ROOT}g${group}/s${i}`;
};
const name = (i) => `skill-${String(i).padStart(6, "0")}`;
const skillMd = (i, edit = "") =>
  `---\nname: ${name(i)}\ndescription: Handles task number ${i} of the synthetic set: reads the inputs, checks ` +
  `them against the rules of group ${Math.floor(i / 50)} and writes a short report.${edit}\nlicense: MIT\n` +
  `allowed-tools: Bash(git:*) Read\nmetadata:\n  author: bench\n  version: "1.${i % 7}"\n---\n# ${name(i)}\n\n` +
  `Step one. Step two.\n`;

function stores(n) {
  const user = recordable(memoryStorage());
  const org = recordable(memoryStorage());
  for (let i = 0; i < n; i++) {
    const dir = directory(i);
    user.put(`${dir}/SKILL.md`, skillMd(i));
    user.put(`${dir}/references/notes.md`, `# Notes for ${name(i)}\n`);
    if (i % 5 === 0) org.put(`${ROOT}org/${name(i)}/SKILL.md`, skillMd(i, " (org copy)"));
  }
  return { user, org };
}

const options = (s, n) => ({
  scopes: [
    { name: "user", storage: s.user },
    { name: "org", storage: s.org },
  ],
  maxDirectories: n * 4 + 100,
  maxDepth: 12,
});

// The list calls being recorded (see `refreshCalls`), or null.
let listLog = null;

/**
 * `store` with its `list` recorded while `listLog` is a list: each call's function, store, prefix
 * and options (cursor, limit, skip) as the engine passed them. Installed before discovery, as the
 * engine takes a store's functions once.
 */
function recordable(store) {
  const list = store.list;
  store.list = function (prefix, opts) {
    if (listLog !== null) listLog.push([list, this, prefix, opts]);
    return list.call(this, prefix, opts);
  };
  return store;
}

/** The list calls a refresh of `reg` makes, recorded in one untimed refresh. */
async function refreshCalls(reg) {
  listLog = [];
  try {
    await reg.refresh();
    return listLog;
  } finally {
    listLog = null;
  }
}

/**
 * The recorded list calls made again from JS, one after another, each page's entries counted.
 * With `full`, each call without its `unlessVersion`, and the pages that follow it: the listing
 * a refresh makes of a store that keeps no version.
 */
async function listAgain(log, full = false) {
  let keys = 0;
  for (const [list, store, prefix, opts] of log) {
    if (!full) {
      keys += (await list.call(store, prefix, opts)).entries.length;
      continue;
    }
    const { unlessVersion: _, ...rest } = opts ?? {};
    let page = await list.call(store, prefix, rest);
    keys += page.entries.length;
    while (rest.cursor === undefined && page.cursor !== undefined) {
      page = await list.call(store, prefix, { ...rest, cursor: page.cursor });
      keys += page.entries.length;
    }
  }
  return keys;
}

async function time(fn) {
  const t = performance.now();
  const out = await fn();
  return [performance.now() - t, out];
}

/**
 * The least time of `ROUNDS` runs of `fn` (a pause of the JS collector lands in one run, not in
 * the figure), and the last run's result. Used for what caches nothing: a refresh, a listing.
 */
async function least(fn) {
  let best = Infinity;
  let out;
  for (let r = 0; r < ROUNDS; r++) {
    const [ms, got] = await time(fn);
    best = Math.min(best, ms);
    out = got;
  }
  return [best, out];
}

const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(" ");
const rows = new Map();
// Each operation's time at each size: the least of the rounds (see below).
const put = (label, n, ms) => {
  const row = rows.get(label) ?? new Map();
  row.set(n, Math.min(row.get(n) ?? Infinity, ms));
  rows.set(label, row);
};
const calls = [];
let memoryAfter;

/** A deep copy of plain data (objects, arrays, primitives), made by JS alone. */
function copyOf(v) {
  if (Array.isArray(v)) return v.map(copyOf);
  if (v === null || typeof v !== "object") return v;
  const out = {};
  for (const k in v) out[k] = copyOf(v[k]);
  return out;
}

/**
 * The operations that build on what the registry computed (listMetas, catalogs, the tool,
 * snapshot, fromSnapshot), timed on `reg` in this order: each round runs them on a registry
 * discovered anew, so that every round computes what the first did.
 */
async function computed(reg, opts, n) {
  const [metasMs, metas] = await time(() => reg.listMetas());
  put("listMetas", n, metasMs);
  // Its floor: the same objects built by plain JS (a deep copy of the answer), no wasm at all.
  put("  the same objects copied by plain JS", n, (await time(() => copyOf(metas)))[0]);
  for (const format of ["xml", "json", "markdown"]) {
    put(`renderCatalog ${format}, budget`, n, (await time(() => renderCatalog(reg, { format, budgetTokens: 8000 })))[0]);
  }
  put("renderCatalog xml, no budget", n, (await time(() => renderCatalog(reg, { format: "xml" })))[0]);
  // The tool holds the registry: freed here, so that the memory figures below are the largest
  // size's alone, not also those of the smaller sizes' registries a tool kept alive.
  const [toolMs, tool] = await time(() => {
    const t = new SkillTool(reg);
    t.definition();
    return t;
  });
  put("SkillTool + definition()", n, toolMs);
  tool.free?.();
  searches(reg, n, "discovery");
  const [snapMs, snap] = await time(() => reg.snapshot());
  put("snapshot", n, snapMs);
  const [fromMs, back] = await time(() => SkillRegistry.fromSnapshot(snap, opts));
  put("fromSnapshot", n, fromMs);
  if (back.listMetas().length !== reg.listMetas().length) throw new Error("fromSnapshot lost skills");
  searches(back, n, "fromSnapshot");
  back.free?.();
  return snap;
}

// The requests of the search evaluation (what users ask), as queries at every size.
const QUERIES = JSON.parse(readFileSync(join(REPO, "bench", "search-queries.json"), "utf8")).queries.map((q) => q.query);

/**
 * Search on `reg` after `start`: the first query (any warm-up: the index is built at discovery and
 * loaded with a snapshot), then the median and 95th percentile of every query of the evaluation.
 */
function searches(reg, n, start) {
  const [firstMs] = timeSync(() => reg.search(QUERIES[0], { limit: 10 }));
  put(`search after ${start}: the first query`, n, firstMs);
  const ms = QUERIES.map((q) => timeSync(() => reg.search(q, { limit: 10 }))[0]).sort((a, b) => a - b);
  put(`search after ${start}: median of ${QUERIES.length}`, n, ms[ms.length >> 1]);
  put(`search after ${start}: 95th percentile`, n, ms[Math.floor(ms.length * 0.95)]);
}

function timeSync(fn) {
  const t = performance.now();
  const out = fn();
  return [performance.now() - t, out];
}

// One untimed round at the smallest size first, so that the engine has compiled the hot code
// before the first timed one. Every size runs ROUNDS rounds, each on a registry discovered anew,
// and keeps each operation's least time (a pause of the JS collector lands in one round, not in
// the figure); the refreshes and the listing run ROUNDS times on the first round's registry.
for (const [i, n] of [SIZES[0], ...SIZES].entries()) {
  const warmup = i === 0;
  const s = stores(n);
  const opts = options(s, n);
  const [discoverMs, reg] = await time(() => SkillRegistry.discover(opts));
  put("discover", n, discoverMs);
  const memoryDiscovered = wasmMemory();
  const cold = reg.stats();
  const [refreshMs] = await least(() => reg.refresh());
  put("refresh, nothing changed", n, refreshMs);
  const still = reg.stats();
  // The floor of that refresh: the same list calls (prefixes, cursors, options) made from JS,
  // nothing else. Recording them takes one more refresh, which the call counts leave out.
  const log = await refreshCalls(reg);
  put("  listing alone (the refresh's list calls, from JS)", n, (await least(() => listAgain(log)))[0]);
  // What a store that keeps no version would list: every page, as discovery listed them.
  put("  a full listing (the same calls without a version, from JS)", n, (await least(() => listAgain(log, true)))[0]);
  const recorded = reg.stats();
  // Each round edits another skill, so that each refresh finds one changed.
  let edited = n >> 1;
  const [oneMs, report] = await least(() => {
    s.user.put(`${directory(edited)}/SKILL.md`, skillMd(edited, " Edited."));
    edited += 1;
    return reg.refresh();
  });
  put("refresh, one changed", n, oneMs);
  const one = reg.stats();
  const names = reg.names().length;
  const snap = await computed(reg, opts, n);
  reg.free?.();
  for (let r = 1; r < ROUNDS && !warmup; r++) {
    const [ms, again] = await time(() => SkillRegistry.discover(opts));
    put("discover", n, ms);
    await computed(again, opts, n);
    again.free?.();
  }
  if (warmup) {
    rows.clear();
    continue;
  }
  calls.push({
    n,
    keys: s.user.size + s.org.size,
    cold: `${cold.listCalls} list / ${cold.readCalls} read`,
    nothing: `${(still.listCalls - cold.listCalls) / ROUNDS} list / ${(still.readCalls - cold.readCalls) / ROUNDS} read`,
    one: `${(one.listCalls - recorded.listCalls) / ROUNDS} list / ${(one.readCalls - recorded.readCalls) / ROUNDS} read (changed: ${report.changed.length})`,
    names,
    snapshotMiB: (snap.length / 2 ** 20).toFixed(1),
    discoveredMiB: (memoryDiscovered / 2 ** 20).toFixed(1),
    peakMiB: (wasmMemory() / 2 ** 20).toFixed(1),
  });
  memoryAfter = wasmMemory();
}

const first = SIZES[0];
const last = SIZES[SIZES.length - 1];
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`\nload average at the start: ${loadAtStart}; at the end: ${load()}`);
console.log(`\nScale, memory stores (ms; ratio = ${last} / ${first}; linear would be ${last / first}x)\n`);
console.log(`| operation | ${SIZES.map((n) => n.toLocaleString("en")).join(" | ")} | ratio |`);
console.log(`|---|${SIZES.map(() => "---:").join("|")}|---:|`);
for (const [label, bySize] of rows) {
  const ms = SIZES.map((n) => bySize.get(n));
  const ratio = ms[ms.length - 1] / Math.max(ms[0], 0.01);
  console.log(`| ${label} | ${ms.map((m) => m.toFixed(1)).join(" | ")} | ${ratio.toFixed(0)}x |`);
}
console.log("\nStore calls (memory stores; page size 1000)\n");
console.log(
  "| skills | keys | discover | refresh, nothing changed | refresh, one changed | names | snapshot MiB | wasm MiB after discover | wasm MiB after snapshot + fromSnapshot |",
);
console.log("|---:|---:|---|---|---|---:|---:|---:|---:|");
for (const c of calls) {
  console.log(
    `| ${c.n} | ${c.keys} | ${c.cold} | ${c.nothing} | ${c.one} | ${c.names} | ${c.snapshotMiB} | ${c.discoveredMiB} | ${c.peakMiB} |`,
  );
}
const mib = (b) => (b === undefined ? "unknown" : `${(b / 2 ** 20).toFixed(1)} MiB`);
console.log(`\nwasm memory after ${last.toLocaleString("en")} skills: ${mib(memoryAfter)} (memory.buffer.byteLength; it never shrinks)`);
