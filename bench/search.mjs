#!/usr/bin/env node
// Search benchmark: how well `SkillRegistry.search` finds the skill a request is about, and how
// fast, against a plain substring baseline on the same skills.
//
//   node bench/search.mjs [--sizes 2500,100000]
//
// Quality: bench/search-eval.json holds requests written for skills of ../shared/corpus (in the
// user's words, not the description's); for each, the rank of the intended skill among the first
// 10 results gives recall@1, recall@5 and MRR@10. The baseline ranks skills by how many of the
// request's words (3 characters or more) occur in the name and description as substrings.
// Scale: synthetic registries of the corpus's skills under new names (2,500 and 100,000 skills):
// query latency over the evaluation's requests, the snapshot's size, the discovery that builds the
// index and the start that reads it from the snapshot. A script that prints numbers, not a test.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const PKG_ENTRY = join(REPO, "pkg", "node.js");
const at = process.argv.indexOf("--sizes");
const SIZES = at > 0 ? process.argv[at + 1].split(",").map(Number).filter((n) => n > 0) : [2500, 100000];

if (!existsSync(PKG_ENTRY)) {
  console.error("build first: make build");
  process.exit(1);
}
const { SkillRegistry, nodeFsStorage, memoryStorage } = await import(pathToFileURL(PKG_ENTRY).href);
const EVAL = JSON.parse(readFileSync(join(REPO, "bench", "search-eval.json"), "utf8"));

const reg = await SkillRegistry.discover({
  scopes: [{ name: "builtin", storage: nodeFsStorage(CORPUS), roots: ["skills/"] }],
  maxDepth: 12,
  maxDirectories: 100000,
});
const metas = reg.listMetas();
const byName = new Map(metas.map((m) => [m.name, m]));
const queries = EVAL.queries.filter((q) => byName.has(q.name));
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

function score(rank) {
  const n = queries.length;
  const r1 = queries.filter((q) => rank(q) === 1).length / n;
  const r5 = queries.filter((q) => rank(q) > 0 && rank(q) <= 5).length / n;
  const mrr = queries.reduce((a, q) => a + (rank(q) > 0 ? 1 / rank(q) : 0), 0) / n;
  return { r1, r5, mrr };
}

const rankIn = (list, name) => list.indexOf(name) + 1;
const searched = new Map(queries.map((q) => [q, reg.search(q.query, { limit: 10 }).map((h) => h.name)]));
const based = new Map(queries.map((q) => [q, baseline(q.query)]));
const ours = score((q) => rankIn(searched.get(q), q.name));
const base = score((q) => rankIn(based.get(q), q.name));
// How much each request repeats its skill's own words (1 would be a copied description).
const overlap =
  queries.reduce((a, q) => {
    const ws = words(q.query);
    const t = textOf(byName.get(q.name));
    return a + (ws.length ? ws.filter((w) => t.includes(w)).length / ws.length : 0);
  }, 0) / queries.length;

const f = (x) => x.toFixed(3);
console.log(`corpus: ${metas.length} visible skills; evaluation: ${queries.length} of ${EVAL.queries.length} requests name a skill found`);
console.log(`request words also in the skill's name or description: ${(overlap * 100).toFixed(1)}% on average`);
console.log(`search     recall@1 ${f(ours.r1)}  recall@5 ${f(ours.r5)}  MRR@10 ${f(ours.mrr)}`);
console.log(`substring  recall@1 ${f(base.r1)}  recall@5 ${f(base.r5)}  MRR@10 ${f(base.mrr)}`);
if (process.argv.includes("--misses")) {
  for (const q of queries) {
    const r = rankIn(searched.get(q), q.name);
    if (r === 0 || r > 5) console.log(`  miss (${r || ">10"}): ${q.name} <- "${q.query}" got ${searched.get(q).slice(0, 3).join(", ")}`);
  }
}

// ---- scale ----------------------------------------------------------------------------------
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
// Synthetic registries: the corpus's visible skills copied under new names into a memory store
// (a SKILL.md of the name, the description and the localized descriptions, which are what the
// index reads), discovered, which builds the index.
const yamlString = (s) => JSON.stringify(s);
function skillText(m, name) {
  const lines = ["---", `name: ${name}`, `description: ${yamlString(m.description)}`];
  for (const [lang, d] of Object.entries(m.localizedDescriptions ?? {})) lines.push(`description_${lang}: ${yamlString(d)}`);
  return `${lines.join("\n")}\n---\nbody\n`;
}
for (const n of SIZES) {
  const store = memoryStorage({});
  for (let i = 0; i < n; i++) {
    const m = metas[i % metas.length];
    const name = `s${i}-${m.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "skill"}`.slice(0, 64).replace(/-$/, "");
    store.put(`skills/synthetic/${name}/SKILL.md`, skillText(m, name));
  }
  const options = (storage) => ({ scopes: [{ name: "builtin", storage, roots: ["skills/"] }], maxDirectories: 4 * n + 100 });
  let t = performance.now();
  const big = await SkillRegistry.discover(options(store));
  const buildMs = performance.now() - t;
  if (big.names().length !== n) throw new Error(`${n} skills made, ${big.names().length} discovered`);
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
  const cold = SkillRegistry.fromSnapshot(snapshot, options(store));
  const coldMs = performance.now() - t;
  t = performance.now();
  cold.search(queries[0].query);
  const firstMs = performance.now() - t;
  const mib = (b) => (b / 1048576).toFixed(2);
  console.log(
    `${n} skills: search p50 ${pct(times, 0.5).toFixed(3)} ms, p95 ${pct(times, 0.95).toFixed(3)} ms (${times.length} queries); ` +
      `a ${mib(snapshot.length)} MiB snapshot with the index; ` +
      `discovery (index built) ${buildMs.toFixed(0)} ms, start from its snapshot (index read) ${coldMs.toFixed(0)} ms, first search after it ${firstMs.toFixed(2)} ms`,
  );
  big.free();
  cold.free();
}
