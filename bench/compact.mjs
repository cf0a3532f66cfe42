#!/usr/bin/env node
// Transcript benchmark: a 10,000-message conversation with 200 skill activations of corpus skills
// (plus file reads, other tools and chat), in each format; times every operation through the JS
// API and reports the tokens compaction saves. A script, not a test.
//
//   node bench/compact.mjs [--runs N]

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { FORMATS } from "../tests/js/support/transcripts.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const PKG_ENTRY = join(REPO, "pkg", "node.js");
const i = process.argv.indexOf("--runs");
const RUNS = i > 0 ? Math.max(1, Number(process.argv[i + 1]) | 0) : 5;
if (!existsSync(PKG_ENTRY) || !existsSync(CORPUS)) {
  console.error(existsSync(PKG_ENTRY) ? `no corpus at ${CORPUS}` : "build first: make build");
  process.exit(1);
}
const pkg = await import(pathToFileURL(PKG_ENTRY).href);

const registry = await pkg.SkillRegistry.discover({
  scopes: [{ name: "builtin", storage: pkg.nodeFsStorage(CORPUS), roots: ["skills/"] }],
  maxDepth: 12,
  maxDirectories: 100000,
});
const tool = new pkg.SkillTool(registry);
const names = registry.names().slice(0, 40);

// 200 activations of 40 skills, each followed by chat and other tool calls: about 10,000 messages.
const steps = [{ kind: "system", text: "You are a helpful agent." }];
let call = 0;
for (let a = 0; a < 200; a++) {
  const name = names[a % names.length];
  steps.push({ kind: "user", text: `Task ${a}: ${name}` });
  const r = await tool.execute({ name, force: true });
  steps.push({ kind: "skill", id: `c${call++}`, input: { name }, output: r.content });
  for (let k = 0; k < 16; k++) {
    steps.push({ kind: "other", id: `c${call++}`, tool: "bash", input: { command: `step ${a}.${k}` }, output: `output of step ${a}.${k}\n`.repeat(3) });
    steps.push({ kind: "assistant", text: `Working on ${a}.${k}.` });
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
function time(fn) {
  const ts = [];
  let out;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    out = fn();
    ts.push(performance.now() - t);
  }
  return [median(ts), out];
}
async function timeAsync(fn) {
  const ts = [];
  let out;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    out = await fn();
    ts.push(performance.now() - t);
  }
  return [median(ts), out];
}

console.log(`transcript: ${200} activations of ${names.length} corpus skills, other tools and chat; median of ${RUNS} runs`);
console.log("");
console.log(`${"format".padEnd(10)} ${"messages".padStart(8)} ${"find".padStart(8)} ${"compact".padStart(8)} ${"protect".padStart(8)} ${"prune".padStart(8)} ${"reattach".padStart(9)} ${"dedupe".padStart(8)}   tokens before -> after compaction`);
for (const [format, build] of Object.entries(FORMATS)) {
  const t = build(steps);
  const [find, found] = time(() => pkg.findSkillContent(t));
  const [compact, c] = time(() => pkg.compactSkillContent(t));
  const [protect] = time(() => pkg.protectedMessages(t));
  const [prune] = time(() => pkg.pruneTranscript(t, Math.floor(c.report.tokensBefore / 2)));
  const [reattach] = await timeAsync(() => tool.reattach(c.transcript));
  const [dedupe] = time(() => pkg.dedupeSkillContent(t));
  const acts = found.uses.filter((u) => u.kind === "activation").length;
  const ms = (x) => `${x.toFixed(1)}ms`.padStart(8);
  console.log(
    `${format.padEnd(10)} ${String(t.length).padStart(8)} ${ms(find)} ${ms(compact)} ${ms(protect)} ${ms(prune)} ${ms(reattach).padStart(9)} ${ms(dedupe)}   ${c.report.tokensBefore} -> ${c.report.tokensAfter} (${(100 * (1 - c.report.tokensAfter / c.report.tokensBefore)).toFixed(1)}% saved; ${acts} activations)`,
  );
}
