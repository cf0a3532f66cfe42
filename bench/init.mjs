#!/usr/bin/env node
// Init time of the package's modules, in Node and in workerd (through miniflare).
//
//   node bench/init.mjs [--runs N]
//
// Node: fresh processes, each timing `await import("pkg/node.js")` (the core module compiled and
// instantiated at import), the first call of a second-module function (that module compiled and
// instantiated on first use), then a second such call (the module already there), then the first
// and second call of the core's cold code (a snapshot: the cold module compiled and instantiated
// over the core on first use).
// workerd: a Worker that imports the package's workerd entry, started N times; from outside
// (clocks inside a Worker do not advance while it runs), the time from `new Miniflare` to the
// answer of a first request that parses a skill, and of one that also calls a second-module
// function, against the same Worker without the package. Prints medians and minima; a script
// that prints numbers, not a test.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";
import { Miniflare } from "miniflare";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PKG = join(REPO, "pkg");
const i = process.argv.indexOf("--runs");
const RUNS = Math.max(3, Number(i === -1 ? 10 : process.argv[i + 1]) | 0);
const MODULES = ["skillwasm_bg.wasm", "skillwasm_cold_bg.wasm", "skillwasm_extra_bg.wasm"];

for (const f of ["node.js", "workerd.js", ...MODULES]) {
  if (!existsSync(join(PKG, f))) {
    console.error(`build first: make build (pkg/${f} is missing)`);
    process.exit(1);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs) => `median ${median(xs).toFixed(1)} ms, min ${Math.min(...xs).toFixed(1)} ms`;

console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}; ${RUNS} runs each`);
for (const f of MODULES) {
  const bytes = readFileSync(join(PKG, f));
  console.log(`${f}: ${bytes.length} bytes raw, ${gzipSync(bytes, { level: 9 }).length} gzip -9`);
}

// ---------------------------------------------------------------------------------------------
// Node

const entry = pathToFileURL(join(PKG, "node.js")).href;
const script = `
const t0 = performance.now();
const sw = await import(${JSON.stringify(entry)});
const t1 = performance.now();
sw.parseSkill("---\\nname: a\\ndescription: d\\n---\\n");
const t2 = performance.now();
sw.detectTranscriptFormat([]);
const t3 = performance.now();
sw.detectTranscriptFormat([]);
const t4 = performance.now();
// The core's cold code (skillwasm_cold_bg.wasm): a snapshot is never taken by the usual work.
const storage = sw.memoryStorage({ "skills/a/SKILL.md": "---\\nname: a\\ndescription: d\\n---\\n" });
const registry = await sw.SkillRegistry.discover({ scopes: [{ name: "p", storage, roots: ["skills/"], trusted: true }] });
const t5 = performance.now();
registry.snapshot();
const t6 = performance.now();
registry.snapshot();
const t7 = performance.now();
console.log(JSON.stringify({ core: t1 - t0, parse: t2 - t1, extra: t3 - t2, again: t4 - t3, cold: t6 - t5, coldAgain: t7 - t6 }));
`;
const node = { core: [], parse: [], extra: [], again: [], cold: [], coldAgain: [] };
for (let r = 0; r < RUNS; r++) {
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  if (out.status !== 0) {
    console.error(out.stderr);
    process.exit(1);
  }
  const t = JSON.parse(out.stdout);
  for (const k of Object.keys(node)) node[k].push(t[k]);
}
console.log("\nNode (fresh process each run)");
console.log(`  import pkg/node.js (core module compiled + instantiated): ${fmt(node.core)}`);
console.log(`  first parseSkill:                                        ${fmt(node.parse)}`);
console.log(`  first second-module call (compiled + instantiated):      ${fmt(node.extra)}`);
console.log(`  next second-module call:                                 ${fmt(node.again)}`);
console.log(`  first cold-code call (snapshot; compiled + instantiated): ${fmt(node.cold)}`);
console.log(`  next cold-code call:                                     ${fmt(node.coldAgain)}`);

// ---------------------------------------------------------------------------------------------
// workerd

function packageModules() {
  const modules = MODULES.map((f) => ({ type: "CompiledWasm", path: join(PKG, f) }));
  for (const f of readdirSync(PKG).sort()) {
    if (f.endsWith(".js") && !["node.js", "cli.js", "browser.js"].includes(f) && !f.startsWith("__")) {
      modules.push({ type: "ESModule", path: join(PKG, f) });
    }
  }
  // And those of its folders: the storage adapters, and the files boundary.js is made of.
  for (const dir of ["storage", "boundary"]) {
    for (const f of readdirSync(join(PKG, dir)).sort()) {
      if (f.endsWith(".js") && f !== "node-fs.js" && statSync(join(PKG, dir, f)).isFile()) {
        modules.push({ type: "ESModule", path: join(PKG, dir, f) });
      }
    }
  }
  return modules;
}

const WORKER = `
import * as sw from "./workerd.js";
export default {
  async fetch(request) {
    const url = new URL(request.url);
    const r = sw.parseSkill("---\\nname: a\\ndescription: d\\n---\\n");
    const format = url.pathname === "/extra" ? sw.detectTranscriptFormat([]) : null;
    return new Response(JSON.stringify({ name: r.skill.name, format }));
  },
};
`;
const BARE = `export default { async fetch() { return new Response(JSON.stringify({ name: "a" })); } };`;

async function start(source, withPackage, path) {
  const t0 = performance.now();
  const mf = new Miniflare({
    modules: [{ type: "ESModule", path: join(PKG, "__bench_init.js"), contents: source }, ...(withPackage ? packageModules() : [])],
    modulesRoot: PKG,
    compatibilityDate: "2025-01-01",
  });
  try {
    await mf.ready;
    const res = await mf.dispatchFetch(`http://worker${path}`);
    const body = await res.json();
    if (body.name !== "a") throw new Error(`unexpected answer ${JSON.stringify(body)}`);
    return performance.now() - t0;
  } finally {
    await mf.dispose();
  }
}

const cases = [
  ["a Worker without the package", BARE, false, "/"],
  ["the package, core module only (parseSkill)", WORKER, true, "/"],
  ["the package, both modules (parseSkill + a second-module call)", WORKER, true, "/extra"],
];
const times = cases.map(() => []);
// Round-robin, so that a busy moment of the machine falls on every case alike.
for (let r = 0; r < RUNS; r++) {
  for (const [k, [, source, withPackage, path]] of cases.entries()) times[k].push(await start(source, withPackage, path));
}
console.log("\nworkerd (miniflare: new Miniflare to the first answer)");
for (const [k, [label]] of cases.entries()) console.log(`  ${label.padEnd(62)} ${fmt(times[k])}`);
const base = median(times[0]);
console.log(`  the package adds: core ${(median(times[1]) - base).toFixed(1)} ms, both modules ${(median(times[2]) - base).toFixed(1)} ms (medians)`);
