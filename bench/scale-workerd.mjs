#!/usr/bin/env node
// A registry of real-sized skills started from one snapshot kept in R2, measured inside workerd
// (miniflare, a real local R2 binding, the package's workerd entry; the Worker is
// bench/scale-worker.js): what a Worker holds and how soon it answers, at 10,000, 50,000 and
// 100,000 skills, and the largest split by name range into two shards.
//
//   node bench/scale-workerd.mjs [--sizes 10000,50000,100000] [--runs 5] [--queries 30]
//
// Per size: the skills (copies of the corpus's visible skills under new names, bench/synthetic.mjs)
// are discovered in Node with the built package, and the snapshot alone is put into the Worker's
// bucket (fromSnapshot reads no skill; the Worker's scope has the name and roots the snapshot was
// taken with). Then, in a fresh workerd per size, --runs requests each make one R2 get of the
// snapshot, fromSnapshot, the first budgeted catalog (8000 tokens), the first search ("merge pdf
// files") and --queries more searches (requests of bench/search-queries.json, timed together: the
// Worker's clock counts whole milliseconds), timed with performance.now() inside the Worker. The first request is the isolate's first (its code not yet
// compiled by V8's optimiser, as a Worker's cold start); the others are the median of the rest. The
// wasm memory (memory.buffer.byteLength, which never shrinks) is the first request's. One more
// request, untimed, finds what the allocator holds after each step (the memory less its free
// blocks), and the snapshot's search index is measured in its bytes.
//
// Two shards: the largest size split by name range into two snapshots (two R2 objects), each
// started by a Worker of its own (two isolates, service bindings), and a front Worker that sends
// each search to both at once and merges the answers by score; its answers are compared with
// the single registry's. A script that prints numbers, not a test.

import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { Miniflare } from "miniflare";
import { PKG } from "../tests/js/helpers.mjs";
import { packageModules, startWorker } from "../tests/js/support/workerd.mjs";
import { readCorpus, storeOf, syntheticOptions, syntheticSkills } from "./synthetic.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const WORKER = join(REPO, "bench", "scale-worker.js");
if (!existsSync(join(PKG, "node.js"))) {
  console.error("build first: make build");
  process.exit(1);
}
if (!existsSync(join(CORPUS, "skills"))) {
  console.error("no corpus: ../shared/corpus/skills (relative to the repository root) is missing");
  process.exit(1);
}

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const SIZES = arg("--sizes", "10000,50000,100000")
  .split(",")
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0)
  .sort((a, b) => a - b);
const RUNS = Math.max(2, Number(arg("--runs", 5)) | 0);
const QUERIES = Math.max(1, Number(arg("--queries", 30)) | 0);
const BUDGET = 8000;
const FIRST = "merge pdf files";
const MAX = SIZES.at(-1);

const pkg = await import(pathToFileURL(join(PKG, "node.js")).href);
const { SkillRegistry, memoryStorage, version } = pkg;
const corpus = await readCorpus(pkg, CORPUS);
const evaluation = JSON.parse(readFileSync(join(REPO, "bench", "search-queries.json"), "utf8")).queries;
// Requests spread over the evaluation (it is ordered by skill).
const queries = Array.from({ length: QUERIES }, (_, i) => evaluation[Math.floor((i * evaluation.length) / QUERIES)].query);
const all = syntheticSkills(corpus, MAX);

const MiB = (b) => b / 2 ** 20;
const f1 = (x) => (x === null || x === undefined ? "-" : x.toFixed(1));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

/**
 * The snapshot's search index, in bytes: it is the last section but the two empty lists of
 * approvals and digests (one zero byte each), and opens with its format's magic.
 */
function indexBytes(snapshot) {
  const magic = Buffer.from("skillwasm-search/3\n");
  const at = Buffer.from(snapshot.buffer, snapshot.byteOffset, snapshot.length).lastIndexOf(magic);
  if (at < 0 || snapshot.at(-1) !== 0 || snapshot.at(-2) !== 0) return null;
  return snapshot.length - 2 - at;
}

/** Discovers `skills` in Node; the registry's snapshot, and its answers to `asked` when given. */
async function snapshotOf(skills, asked = null) {
  const t0 = performance.now();
  const reg = await SkillRegistry.discover(syntheticOptions(storeOf(memoryStorage, skills), skills.length));
  const discoverMs = performance.now() - t0;
  try {
    if (reg.names().length !== skills.length) throw new Error(`${skills.length} skills made, ${reg.names().length} discovered`);
    const answers = asked && asked.map((q) => reg.search(q, { limit: 10 }).map((h) => h.name));
    return { snapshot: reg.snapshot(), discoverMs, answers };
  } finally {
    reg.free();
  }
}

async function call(post, route, body) {
  const t0 = performance.now();
  const reply = await post(route, body);
  if (reply.error) throw new Error(`${route}: ${reply.error.message}`);
  return { ...reply.ok, requestMs: performance.now() - t0 };
}

/** One size: the snapshot in a fresh workerd, --runs requests and the untimed anatomy. */
async function measure(n, asked) {
  const { snapshot, discoverMs, answers } = await snapshotOf(all.slice(0, n), asked);
  const worker = await startWorker({ script: WORKER });
  try {
    const key = `snapshots/registry-${n}.bin`;
    await worker.bucket.put(key, snapshot);
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await call(worker.post, "/run", { key, budgetTokens: BUDGET, first: FIRST, queries }));
    const anatomy = await call(worker.post, "/anatomy", { key, budgetTokens: BUDGET, first: FIRST });
    if (runs[0].skills !== n) throw new Error(`the Worker started ${runs[0].skills} skills of ${n}`);
    const warm = (k) => median(runs.slice(1).map((r) => r.ms[k]));
    return { n, discoverMs, snapshotBytes: snapshot.length, index: indexBytes(snapshot), first: runs[0], warm, anatomy, answers };
  } finally {
    await worker.dispose();
  }
}

/** The largest size in two shards by name range, each in a Worker of its own, and a front. */
async function shards(single) {
  const names = all.map((s) => s.name).sort();
  const boundary = names[names.length >> 1];
  const halves = [all.filter((s) => s.name < boundary), all.filter((s) => s.name >= boundary)];
  const snaps = [];
  for (const half of halves) snaps.push((await snapshotOf(half)).snapshot);
  const modules = packageModules(WORKER);
  const common = { modules, modulesRoot: PKG, compatibilityDate: "2025-01-01" };
  const mf = new Miniflare({
    workers: [
      { name: "front", ...common, serviceBindings: { SHARD_A: "shard-a", SHARD_B: "shard-b" } },
      { name: "shard-a", ...common, r2Buckets: ["SKILLS"] },
      { name: "shard-b", ...common, r2Buckets: ["SKILLS"] },
    ],
  });
  try {
    await mf.ready;
    const bucket = await mf.getR2Bucket("SKILLS", "shard-a");
    const keys = ["snapshots/shard-a.bin", "snapshots/shard-b.bin"];
    for (const [i, key] of keys.entries()) await bucket.put(key, snaps[i]);
    const post = async (fetcher, route, body) => {
      const res = await fetcher.fetch(`http://worker${route}`, { method: "POST", body: JSON.stringify(body) });
      return res.json();
    };
    const shardWorkers = [await mf.getWorker("shard-a"), await mf.getWorker("shard-b")];
    const front = await mf.getWorker("front");
    // Both shards start at once, as a front's first request would start them.
    const t0 = performance.now();
    const started = await Promise.all(shardWorkers.map((w, i) => call((r, b) => post(w, r, b), "/start", { key: keys[i] })));
    const startMs = performance.now() - t0;
    const asked = [FIRST, ...queries];
    const answers = [];
    for (const query of asked) answers.push(await call((r, b) => post(front, r, b), "/fanout", { query, limit: 10 }));
    const later = answers.slice(1);
    // Compared by the corpus skill each name copies: the copies of one skill tie, and which of
    // them comes first is the tie's order, not the ranking.
    const copied = (names) => names.map((x) => x.replace(/^s\d+-/, ""));
    const agree = asked.map((_, i) => {
      const got = copied(answers[i].names);
      const want = copied(single[i]);
      const left = [...want];
      let shared = 0;
      for (const x of got) {
        const at = left.indexOf(x);
        if (at >= 0) {
          left.splice(at, 1);
          shared++;
        }
      }
      return { top1: got[0] === want[0], overlap: shared / Math.max(1, want.length) };
    });
    return {
      boundary,
      sizes: halves.map((h) => h.length),
      snapshotBytes: snaps.map((s) => s.length),
      started,
      startMs,
      first: answers[0],
      laterMedian: median(later.map((a) => a.ms)),
      laterRequest: median(later.map((a) => a.requestMs)),
      shardLater: [0, 1].map((i) => median(later.map((a) => a.shards[i].ms))),
      memoryAfter: answers.at(-1).shards.map((s) => s.memory),
      top1: agree.filter((a) => a.top1).length,
      overlap: agree.reduce((a, x) => a + x.overlap, 0) / agree.length,
      asked: asked.length,
    };
  } finally {
    await mf.dispose();
  }
}

/** The bytes of a skill's text fields, on average over the largest size: what a record holds as strings. */
function fieldBytes() {
  const sum = { name: 0, description: 0, "localized descriptions": 0, location: 0 };
  for (const [i, s] of all.entries()) {
    const m = corpus.metas[i % corpus.metas.length];
    sum.name += Buffer.byteLength(s.name);
    sum.description += Buffer.byteLength(m.description);
    sum["localized descriptions"] += Object.values(m.localizedDescriptions ?? {}).reduce((n, d) => n + Buffer.byteLength(d), 0);
    sum.location += Buffer.byteLength(s.key);
  }
  const total = Object.values(sum).reduce((x, y) => x + y, 0);
  const parts = Object.entries(sum).map(([k, v]) => `${k} ${(v / all.length).toFixed(0)}`);
  return `${(total / all.length).toFixed(0)} B: ${parts.join(", ")}`;
}

const loadAtStart = load();
const results = [];
for (const n of SIZES) results.push(await measure(n, n === MAX ? [FIRST, ...queries] : null));
const split = await shards(results.at(-1).answers);

console.log(`skillwasm ${version()} in workerd (miniflare), local R2; ${cpus().length} CPUs, node ${process.version}; load average ${loadAtStart} at the start, ${load()} at the end`);
console.log(`synthetic skills: copies of the corpus's ${corpus.metas.length} visible skills (name, descriptions, the body's first 4 KiB); budget ${BUDGET} tokens; first search "${FIRST}", then ${queries.length} requests of bench/search-queries.json`);
console.log(`first: the isolate's first request; later: the median of the ${RUNS - 1} that follow (each request starts a registry anew)\n`);
console.log("| skills | snapshot MiB | index MiB | R2 get ms | fromSnapshot ms | first catalog ms | first search ms | later searches, mean ms | catalog + search after fromSnapshot ms |");
console.log("|---:|---:|---:|---|---|---|---|---|---|");
for (const r of results) {
  const cell = (k) => `${f1(r.first.ms[k])} / ${f1(r.warm(k))}`;
  const both = `${f1(r.first.ms.firstCatalog + r.first.ms.firstSearch)} / ${f1(r.warm("firstCatalog") + r.warm("firstSearch"))}`;
  console.log(
    `| ${r.n.toLocaleString("en")} | ${f1(MiB(r.snapshotBytes))} | ${r.index === null ? "-" : f1(MiB(r.index))} | ${cell("get")} | ${cell("fromSnapshot")} | ${cell("firstCatalog")} | ${cell("firstSearch")} | ${cell("laterMean")} | ${both} |`,
  );
}
console.log("(first / later)\n");
console.log("| skills | wasm MiB at start | after fromSnapshot | after first catalog + search | after the searches | held MiB at start | held after fromSnapshot | after first catalog | after first search | after free |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results) {
  const m = r.first.memory;
  const h = r.anatomy.held;
  console.log(
    `| ${r.n.toLocaleString("en")} | ${f1(MiB(m.start))} | ${f1(MiB(m.fromSnapshot))} | ${f1(MiB(m.firstCatalogAndSearch))} | ${f1(MiB(m.afterSearches))} | ` +
      `${f1(MiB(h.start))} | ${f1(MiB(h.fromSnapshot))} | ${f1(MiB(h.firstCatalog))} | ${f1(MiB(h.firstSearch))} | ${f1(MiB(h.freed))} |`,
  );
}
console.log("(wasm: memory.buffer.byteLength in the first request; held: what the allocator holds, in the untimed request)\n");

if (results.length > 1) {
  const a = results[0];
  const b = results.at(-1);
  const per = (x, y) => MiB(y - x) / ((b.n - a.n) / 1000);
  const bytesPer = (x, y) => (y - x) / (b.n - a.n);
  console.log(`growth from ${a.n.toLocaleString("en")} to ${b.n.toLocaleString("en")} skills, per 1,000 skills:`);
  console.log(`  snapshot ${per(a.snapshotBytes, b.snapshotBytes).toFixed(3)} MiB (${bytesPer(a.snapshotBytes, b.snapshotBytes).toFixed(0)} B a skill), of it the search index ${per(a.index, b.index).toFixed(3)} MiB (${bytesPer(a.index, b.index).toFixed(0)} B)`);
  console.log(`  wasm memory after fromSnapshot ${per(a.first.memory.fromSnapshot, b.first.memory.fromSnapshot).toFixed(3)} MiB; after the first catalog + search ${per(a.first.memory.firstCatalogAndSearch, b.first.memory.firstCatalogAndSearch).toFixed(3)} MiB`);
  const held = (r) => r.anatomy.held.fromSnapshot - r.anatomy.held.start;
  console.log(
    `  held by the registry after fromSnapshot ${per(held(a), held(b)).toFixed(3)} MiB (${bytesPer(held(a), held(b)).toFixed(0)} B a skill; ` +
      `the snapshot's own ${bytesPer(a.snapshotBytes, b.snapshotBytes).toFixed(0)} B, which the registry keeps and reads in place, and ` +
      `${bytesPer(held(a) - a.snapshotBytes, held(b) - b.snapshotBytes).toFixed(0)} B beside it; the text of a skill's fields is ${fieldBytes()})`,
  );
}
const top = results.at(-1);
const mem = MiB(top.first.memory.firstCatalogAndSearch);
const ms = top.first.ms.firstCatalog + top.first.ms.firstSearch;
console.log(`\ntargets at ${top.n.toLocaleString("en")} skills: wasm memory ${f1(mem)} MiB after the first catalog + search (target 80 MiB: ${mem > 80 ? `${f1(mem - 80)} MiB over, ${(mem / 80).toFixed(1)}x` : "met"}); ` +
  `first catalog + first search ${f1(ms)} ms after fromSnapshot (target 50 ms: ${ms > 50 ? `${f1(ms - 50)} ms over, ${(ms / 50).toFixed(0)}x` : "met"}; the later requests ${f1(top.warm("firstCatalog") + top.warm("firstSearch"))} ms); ` +
  `the catalog shows ${top.first.catalog.skills} skills in ${top.first.catalog.chars} characters`);

console.log(`\ntwo shards of ${top.n.toLocaleString("en")} by name range (names below "${split.boundary}" and from it: ${split.sizes.join(" + ")} skills; snapshots ${split.snapshotBytes.map((b) => f1(MiB(b))).join(" + ")} MiB), a Worker each, a front Worker merging by score:`);
for (const [i, s] of split.started.entries()) {
  console.log(
    `  shard ${"ab"[i]}: R2 get ${f1(s.ms.get)} ms, fromSnapshot ${f1(s.ms.fromSnapshot)} ms, wasm ${f1(MiB(s.memory.fromSnapshot))} MiB after fromSnapshot, ${f1(MiB(split.memoryAfter[i]))} MiB after the searches`,
  );
}
console.log(`  both started at once: ${f1(split.startMs)} ms (requests from Node)`);
console.log(
  `  first search across both: ${f1(split.first.ms)} ms in the front (shards ${split.first.shards.map((s) => f1(s.ms)).join(" / ")} ms), ${f1(split.first.requestMs)} ms the request; ` +
    `later: median ${f1(split.laterMedian)} ms in the front (shards ${split.shardLater.map(f1).join(" / ")} ms), ${f1(split.laterRequest)} ms the request`,
);
console.log(`  the merged answers against the single registry's, ${split.asked} searches: the same first skill in ${split.top1}, ${(split.overlap * 100).toFixed(0)} % of the first ten the same (compared by the corpus skill each copies)`);
