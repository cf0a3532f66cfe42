#!/usr/bin/env node
// A registry's start from a snapshot, as a Worker's cold request meets it, in fresh Node processes:
// fromSnapshot over the snapshot of N real-sized skills (bench/synthetic.mjs's copies of the
// corpus), then the first budgeted catalog (8,000 tokens) and the first search. Each process is
// new, so the wasm code runs as an isolate's first request runs it (V8's baseline tier first).
//
//   node bench/start.mjs [--skills N] [--runs R] [--pkg DIR[,DIR...]]
//
// With several package directories (each a built pkg/, e.g. a copy of an older build), the runs
// alternate between them, so that a busy moment of the machine falls on each alike; the snapshot
// is written once, by the first, and read by all (its format must be one they all read). Prints
// medians and minima. A script that prints numbers, not a test; bench/scale-workerd.mjs measures
// the same steps inside workerd.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readCorpus, storeOf, syntheticOptions, syntheticSkills, SCOPE } from "./synthetic.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
};
const N = Math.max(1, Number(arg("--skills", 100000)) | 0);
const RUNS = Math.max(1, Number(arg("--runs", 8)) | 0);
const PKGS = arg("--pkg", join(REPO, "pkg")).split(",").map((p) => resolve(p));
for (const p of PKGS) {
  if (!existsSync(join(p, "node.js"))) {
    console.error(`no built package at ${p} (make build)`);
    process.exit(1);
  }
}

// The snapshot, written by the first package.
const snapshotPath = join(REPO, "target", "bench", `start-${N}.bin`);
{
  const pkg = await import(pathToFileURL(join(PKGS[0], "node.js")).href);
  const skills = syntheticSkills(await readCorpus(pkg, CORPUS), N);
  const reg = await pkg.SkillRegistry.discover(syntheticOptions(storeOf(pkg.memoryStorage, skills), N));
  mkdirSync(dirname(snapshotPath), { recursive: true });
  writeFileSync(snapshotPath, reg.snapshot());
  reg.free();
}

// One cold start: the three steps timed inside a fresh process.
const script = (pkgDir) => `
import { readFileSync } from "node:fs";
const pkg = await import(${JSON.stringify(pathToFileURL(join(pkgDir, "node.js")).href)});
const bytes = readFileSync(${JSON.stringify(snapshotPath)});
const options = { scopes: [{ name: ${JSON.stringify(SCOPE.name)}, storage: pkg.memoryStorage({}), roots: ${JSON.stringify(SCOPE.roots)} }] };
const t0 = performance.now();
const reg = pkg.SkillRegistry.fromSnapshot(bytes, options);
const t1 = performance.now();
const catalog = pkg.renderCatalog(reg, { budgetTokens: 8000 });
const t2 = performance.now();
const hits = reg.search("merge pdf files", { limit: 10 });
const t3 = performance.now();
if (catalog.skills.length === 0 || hits.length === 0) throw new Error("no catalog or no hit");
console.log(JSON.stringify({ fromSnapshot: t1 - t0, catalog: t2 - t1, search: t3 - t2 }));
`;

const times = PKGS.map(() => ({ fromSnapshot: [], catalog: [], search: [] }));
const loadBefore = loadavg()[0];
for (let r = 0; r < RUNS; r++) {
  for (const [k, dir] of PKGS.entries()) {
    const out = spawnSync(process.execPath, ["--input-type=module", "-e", script(dir)], { encoding: "utf8", maxBuffer: 1 << 20 });
    if (out.status !== 0) {
      console.error(out.stderr);
      process.exit(1);
    }
    const t = JSON.parse(out.stdout);
    for (const key of Object.keys(t)) times[k][key].push(t[key]);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)})`.padStart(14);
console.log(`${N} skills, ${RUNS} fresh processes per package, node ${process.version}; load ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`);
console.log(`ms, median (min)   fromSnapshot   first catalog   first search   package`);
for (const [k, dir] of PKGS.entries()) {
  const t = times[k];
  console.log(`                 ${fmt(t.fromSnapshot)}  ${fmt(t.catalog)}  ${fmt(t.search)}   ${dir}`);
}
