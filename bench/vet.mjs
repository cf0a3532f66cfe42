#!/usr/bin/env node
// Vetting's cost: discovery of ../shared/corpus from disk (nodeFsStorage, what bench/discover.mjs
// times) with `vet: "off"` and with the default `vet: "report"`, which vets the SKILL.md bytes
// discovery reads anyway (no other read), round-robin, after one warm-up round; then the full vet
// of every skill (`registry.vet(name)`: SKILL.md and resources read and vetted), once.
//
//   node bench/vet.mjs [--runs N]
//
// A script that prints numbers, not a test (tests/js/vet.test.mjs holds a generous bound).

import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { stats } from "./corpus.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const PKG_ENTRY = join(REPO, "pkg", "node.js");
const i = process.argv.indexOf("--runs");
const RUNS = i > 0 ? Math.max(1, Number(process.argv[i + 1]) | 0) : 15;

if (!existsSync(PKG_ENTRY)) {
  console.error("build first: make build");
  process.exit(1);
}
if (!existsSync(CORPUS)) {
  console.error(`no corpus at ${CORPUS}`);
  process.exit(1);
}
const { SkillRegistry, nodeFsStorage } = await import(pathToFileURL(PKG_ENTRY).href);
v8.setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc");

const options = (vet) => ({
  scopes: [{ name: "builtin", storage: nodeFsStorage(CORPUS), roots: ["skills/"] }],
  maxDepth: 12,
  maxDirectories: 1_000_000,
  vet,
});

async function discover(vet) {
  const registry = await SkillRegistry.discover(options(vet));
  const findings = registry.diagnostics().filter((d) => d.code.startsWith("vet-")).length;
  const skills = registry.names().length;
  registry.free();
  return { findings, skills };
}

const times = { off: [], report: [] };
const last = {};
for (let r = -1; r < RUNS; r++) {
  for (const vet of r % 2 ? ["off", "report"] : ["report", "off"]) {
    collect();
    const t = performance.now();
    last[vet] = await discover(vet);
    if (r >= 0) times[vet].push(performance.now() - t);
  }
}
const off = stats(times.off);
const report = stats(times.report);
console.log(`discovery of ../shared/corpus from disk (${last.off.skills} skills), ${RUNS} rounds after one warm-up; node ${process.version}`);
console.log(`1-minute load average: ${loadavg()[0].toFixed(2)}`);
console.log(`${"".padEnd(44)} ${"min ms".padStart(9)} ${"median".padStart(9)}`);
console.log(`${'vet: "off"'.padEnd(44)} ${off.min.toFixed(2).padStart(9)} ${off.median.toFixed(2).padStart(9)}`);
console.log(`${'vet: "report" (the default)'.padEnd(44)} ${report.min.toFixed(2).padStart(9)} ${report.median.toFixed(2).padStart(9)}  ${last.report.findings} findings`);
console.log(`vetting at discovery costs ${(((report.min / off.min) - 1) * 100).toFixed(1)}% (mins), ${(((report.median / off.median) - 1) * 100).toFixed(1)}% (medians)`);

// The full vet of every skill: what `skillwasm vet` and a host that vets before it installs do.
const registry = await SkillRegistry.discover(options("off"));
const t = performance.now();
let files = 0;
let bytes = 0;
let high = 0;
for (const name of registry.names()) {
  const r = await registry.vet(name);
  files += r.files;
  bytes += r.size;
  if (r.findings.some((f) => f.level === "high")) high++;
}
const full = performance.now() - t;
console.log(`registry.vet(name) of every skill: ${full.toFixed(0)} ms for ${files} files, ${(bytes / 1048576).toFixed(1)} MiB; a high finding on ${high} skills`);
registry.free();
