#!/usr/bin/env node
// Discovery benchmark: find every skill of ../shared/corpus on disk and render the plain
// <available_skills> catalog, skillwasm (SkillRegistry over nodeFsStorage, then toPrompt) against
// skills-ref's toPrompt on the same directories, in one Node process. skills-ref is handed the list
// of skill directories (it has no discovery of its own), so its side does less work than ours.
//
//   node bench/discover.mjs [--runs N]
//
// A script that prints ratios against a peer measured in the same run, not a test.

import { existsSync, readdirSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const PKG_ENTRY = join(REPO, "pkg", "node.js");
const i = process.argv.indexOf("--runs");
const RUNS = i > 0 ? Math.max(1, Number(process.argv[i + 1]) | 0) : 10;

if (!existsSync(PKG_ENTRY)) {
  console.error("build first: make build");
  process.exit(1);
}
if (!existsSync(CORPUS)) {
  console.error(`no corpus at ${CORPUS}`);
  process.exit(1);
}

const { SkillRegistry, nodeFsStorage, toPrompt } = await import(pathToFileURL(PKG_ENTRY).href);
const skillsRef = await import("skills-ref");

const options = () => ({
  scopes: [{ name: "builtin", storage: nodeFsStorage(CORPUS), roots: ["skills/"] }],
  maxDepth: 12,
  maxDirectories: 100000,
});

async function skillwasmCatalog() {
  const reg = await SkillRegistry.discover(options());
  const entries = reg.listMetasAcross().map((m) => ({ name: m.name, description: m.description, location: join(CORPUS, m.location) }));
  return { xml: toPrompt(entries), count: entries.length, reg };
}

function snapshotCatalog(snapshot) {
  const reg = SkillRegistry.fromSnapshot(snapshot, options());
  const entries = reg.listMetasAcross().map((m) => ({ name: m.name, description: m.description, location: join(CORPUS, m.location) }));
  return { xml: toPrompt(entries), count: entries.length };
}

// The directories skills-ref can render (its toPrompt throws on the first one it cannot read).
function skillDirs(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules") skillDirs(join(dir, e.name), out);
    else if (e.name === "SKILL.md") out.push(dir);
  }
  return out;
}
const candidates = skillDirs(join(CORPUS, "skills"));
const dirs = [];
for (const d of candidates) {
  try {
    await skillsRef.readProperties(d);
    dirs.push(d);
  } catch {
    // left out: skills-ref would throw for the whole catalog
  }
}
const accepted = new Set(dirs);

async function time(fn) {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Warm the page cache and both code paths once.
const first = await skillwasmCatalog();
await skillsRef.toPrompt(dirs);
const snapshot = first.reg.snapshot();

// What a skills-ref user has to do to get the same catalog from a directory: find the skill
// directories (an ordinary async walk), then toPrompt.
async function walkDirs(dir, out = []) {
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(entries.map(async (e) => {
    if (e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules") await walkDirs(join(dir, e.name), out);
    else if (e.name === "SKILL.md") out.push(dir);
  }));
  return out;
}
async function skillsRefWithWalk() {
  const found = (await walkDirs(join(CORPUS, "skills"))).filter((d) => accepted.has(d)).sort();
  return skillsRef.toPrompt(found);
}

const t = { ours: [], refs: [], snap: [], walk: [] };
let oursCount = 0;
let refsLen = 0;
for (let r = 0; r < RUNS; r++) {
  const [a, ours] = await time(skillwasmCatalog);
  const [b, xml] = await time(() => skillsRef.toPrompt(dirs));
  const [c] = await time(() => snapshotCatalog(snapshot));
  const [d] = await time(skillsRefWithWalk);
  t.walk.push(d);
  t.ours.push(a);
  t.refs.push(b);
  t.snap.push(c);
  oursCount = ours.count;
  refsLen = xml.split("<skill>").length - 1;
}

const stats = first.reg.stats();
const ref = median(t.refs);
console.log("discover + render the <available_skills> catalog of ../shared/corpus from disk");
console.log(`node ${process.version}; ${RUNS} runs each, interleaved; medians`);
console.log(`skills in the catalog: skillwasm ${oursCount} (found by listing), skills-ref ${refsLen} (given its directories)`);
console.log(`skillwasm store calls per discovery: ${stats.listCalls} list, ${stats.readCalls} reads, ${stats.bytesRead} bytes read`);
console.log("");
const row = (label, ms) => console.log(`${label.padEnd(52)} ${ms.toFixed(2).padStart(9)} ms   ${(ref / ms).toFixed(1).padStart(6)}x`);
console.log(`${"".padEnd(52)} ${"median".padStart(12)}   vs skills-ref`);
row("skills-ref toPrompt(dirs)", ref);
row("skills-ref: async directory walk + toPrompt", median(t.walk));
row("skillwasm discover (nodeFsStorage) + toPrompt", median(t.ours));
row("skillwasm fromSnapshot + toPrompt (no I/O)", median(t.snap));
