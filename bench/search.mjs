#!/usr/bin/env node
// Search benchmark: how well `SkillRegistry.search` finds the skill a request is about, and how
// fast, against a plain substring baseline on the same skills.
//
//   node bench/search.mjs [--sizes 2500,100000]
//
// Quality: bench/search-queries.json holds 615 requests written from each skill's SKILL.md in a
// user's words (tasks, symptoms, product names, short autocomplete-style phrases), each with the
// skill names a correct search returns first, split by skill into a development half (what tuning
// may look at) and a held-out half (what it never does). For each half: recall@1, recall@5 and
// MRR@10 of SkillRegistry.search (names, descriptions and the words of each body's opening), of
// the same search over skills whose SKILL.md bodies are emptied (names and descriptions only),
// and of a substring baseline that ranks skills by how many of the
// request's words (3 characters or more) occur in the name and description. `--misses` lists the
// held-out misses too (reading them is looking at the held-out half: tune on dev only).

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { corpusOptions, readCorpus, storeOf, syntheticOptions, syntheticSkills } from "./synthetic.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const PKG_ENTRY = join(REPO, "pkg", "node.js");
const at = process.argv.indexOf("--sizes");
const SIZES = at > 0 ? process.argv[at + 1].split(",").map(Number).filter((n) => n > 0) : [2500, 100000];

if (!existsSync(PKG_ENTRY)) {
  console.error("build first: make build");
  process.exit(1);
}
const pkg = await import(pathToFileURL(PKG_ENTRY).href);
const { SkillRegistry, memoryStorage } = pkg;
const EVAL = JSON.parse(readFileSync(join(REPO, "bench", "search-queries.json"), "utf8"));

// The corpus, and the same skills with every SKILL.md body emptied: what names and descriptions
// alone find. Each body's first 4 KiB are kept for the synthetic registries below.
const corpus = await readCorpus(pkg, CORPUS);
const { reg, metas } = corpus;
const byName = new Map(metas.map((m) => [m.name, m]));
const queries = EVAL.queries.filter((q) => q.expected.some((n) => byName.has(n)));
const regFront = await SkillRegistry.discover(corpusOptions(corpus.frontOnly));

const textOf = (m) => [m.name, m.description, ...Object.values(m.localizedDescriptions ?? {})].join(" ").toLowerCase();
const texts = metas.map((m) => ({ name: m.name, text: textOf(m) }));
const words = (q) => q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => [...w].length >= 3);

function baseline(query, limit = 10) {
  const ws = words(query);
  const scored = [];
  for (const t of texts) {
    let s = 0;
    for (const w of ws) if (t.text.includes(w)) s++;
    if (s > 0) scored.push([s, t.name]);
  }
  scored.sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return scored.slice(0, limit).map((x) => x[1]);
}

/** The rank (1-based, 0 when not in the first 10) of the first expected skill among `found`. */
const rankIn = (found, q) => {
  const i = found.findIndex((n) => q.expected.includes(n));
  return i + 1;
};

function score(list, ranked) {
  const n = list.length;
  const ranks = list.map((q) => rankIn(ranked(q), q));
  return {
    n,
    r1: ranks.filter((r) => r === 1).length / n,
    r5: ranks.filter((r) => r > 0 && r <= 5).length / n,
    mrr: ranks.reduce((a, r) => a + (r > 0 ? 1 / r : 0), 0) / n,
  };
}

const t0 = performance.now();
const searched = new Map(queries.map((q) => [q, reg.search(q.query, { limit: 10 }).map((h) => h.name)]));
const searchMs = performance.now() - t0;
const searchedFront = new Map(queries.map((q) => [q, regFront.search(q.query, { limit: 10 }).map((h) => h.name)]));
const based = new Map(queries.map((q) => [q, baseline(q.query)]));

const f = (x) => x.toFixed(3);
console.log(`corpus: ${metas.length} visible skills; ${queries.length} of ${EVAL.queries.length} requests name a skill found; ${searchMs.toFixed(0)} ms for them all`);
for (const split of ["dev", "heldout"]) {
  const list = queries.filter((q) => q.split === split);
  for (const [label, ranked] of [["search", (q) => searched.get(q)], ["names+descriptions", (q) => searchedFront.get(q)], ["substring", (q) => based.get(q)]]) {
    const r = score(list, ranked);
    console.log(`${split.padEnd(8)} ${label.padEnd(19)} recall@1 ${f(r.r1)}  recall@5 ${f(r.r5)}  MRR@10 ${f(r.mrr)}  (${r.n} requests)`);
  }
}
for (const kind of ["task", "symptom", "product", "short"]) {
  const r = score(queries.filter((q) => q.split === "dev" && q.kind === kind), (q) => searched.get(q));
  console.log(`dev ${kind.padEnd(8)} recall@1 ${f(r.r1)}  recall@5 ${f(r.r5)}  (${r.n})`);
}
if (process.argv.includes("--misses")) {
  const which = process.argv.includes("--heldout") ? "heldout" : "dev";
  for (const q of queries.filter((x) => x.split === which)) {
    const r = rankIn(searched.get(q), q);
    if (r === 0 || r > 5) console.log(`  miss (${r || ">10"}) [${q.kind}]: ${q.expected.join("|")} <- "${q.query}" got ${searched.get(q).slice(0, 3).join(", ")}`);
  }
}

// ---- scale ----------------------------------------------------------------------------------
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
// Synthetic registries: the corpus's visible skills copied under new names into a memory store
// (bench/synthetic.mjs), discovered (discovery builds the index before it returns).
for (const n of SIZES) {
  const store = storeOf(memoryStorage, syntheticSkills(corpus, n));
  const sized = (storage) => syntheticOptions(storage, n);
  let t = performance.now();
  const big = await SkillRegistry.discover(sized(store));
  const buildMs = performance.now() - t;
  if (big.names().length !== n) throw new Error(`${n} skills made, ${big.names().length} discovered`);
  t = performance.now();
  big.search(queries.find((q) => q.kind === "task").query);
  const firstAfterDiscoveryMs = performance.now() - t;
  // Warm up, then time every request a few times.
  for (const q of queries.slice(0, 20)) big.search(q.query);
  const times = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      t = performance.now();
      big.search(q.query, { limit: 10 });
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  const snapshot = big.snapshot();
  t = performance.now();
  const cold = SkillRegistry.fromSnapshot(snapshot, sized(store));
  const coldMs = performance.now() - t;
  t = performance.now();
  cold.search(queries.find((q) => q.kind === "task").query);
  const firstMs = performance.now() - t;
  // The first name-like request (a few words) builds the names' typo table; the first with a
  // misspelt word, the name words' one.
  t = performance.now();
  cold.search(queries.find((q) => q.kind === "short").query);
  const firstShortMs = performance.now() - t;
  t = performance.now();
  cold.search("merge pdf fiels into one documnet");
  const firstTypoMs = performance.now() - t;
  const mib = (b) => (b / 1048576).toFixed(2);
  console.log(
    `${n} skills: search p50 ${pct(times, 0.5).toFixed(3)} ms, p95 ${pct(times, 0.95).toFixed(3)} ms (${times.length} queries); ` +
      `a ${mib(snapshot.length)} MiB snapshot with the index; ` +
      `discovery ${buildMs.toFixed(0)} ms, then the first search ${firstAfterDiscoveryMs.toFixed(1)} ms; start from its snapshot ${coldMs.toFixed(0)} ms, then the first search ${firstMs.toFixed(1)} ms ` +
      `(the index loaded with the snapshot), the first short one ${firstShortMs.toFixed(1)} ms, the first with typos ${firstTypoMs.toFixed(1)} ms`,
  );
  big.free();
  cold.free();
}
