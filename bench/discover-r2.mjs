#!/usr/bin/env node
// R2 discovery benchmark: SkillRegistry inside workerd (miniflare, a real local R2 binding, the
// package's workerd entry) over every file of ../shared/corpus/skills.
//
//   node bench/discover-r2.mjs [--runs N] [--concurrency N]
//
// One run: start the Worker, upload the corpus into R2 (N puts in flight), then time inside the
// Worker a cold discovery (a fresh registry each time), a start from a snapshot kept in R2 (one R2
// get, then fromSnapshot and listMetas), and a refresh when nothing changed; the median of --runs
// each, with the R2 calls each one made. Times are taken with performance.now() inside the Worker
// (workerd advances its clock on I/O, so it covers the R2 round trips) and around the request in
// Node. A script, not a test: it fails only when something errs, never because a machine is slow.

import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { corpusFiles, CORPUS_SKILLS, expectedDiscovery, uploadCorpus } from "../tests/js/support/corpus.mjs";
import { startWorker } from "../tests/js/support/workerd.mjs";

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? Math.max(1, Number(process.argv[i + 1]) | 0) : fallback;
}
const RUNS = arg("--runs", 5);
const CONCURRENCY = arg("--concurrency", 32);

const ROOT = "corpus/";
const KEY_PREFIX = `${ROOT}skills/`;
const SNAPSHOT_KEY = "snapshots/corpus.bin";
const REQUEST = { root: ROOT, roots: ["skills/"], options: { maxDepth: 12, maxDirectories: 100000 } };

if (!existsSync(CORPUS_SKILLS)) {
  console.error("no corpus: ../shared/corpus/skills (relative to the repository root) is missing");
  process.exit(1);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const worker = await startWorker({ script: "registry-worker.js" });
async function post(route, body) {
  const t0 = performance.now();
  const reply = await worker.post(route, body);
  const nodeMs = performance.now() - t0;
  if (reply.error) throw new Error(`${route}: ${reply.error.message}`);
  return { ...reply.ok, nodeMs };
}

/** Runs `step` RUNS times; the R2 calls must be the same every time. */
async function timed(label, step) {
  const results = [];
  for (let i = 0; i < RUNS; i++) results.push(await step(i));
  const calls = results.map((r) => `${r.r2.list}/${r.r2.get}/${r.r2.head}`);
  if (new Set(calls).size !== 1) throw new Error(`${label}: R2 calls differ between runs: ${calls.join(", ")}`);
  return {
    label,
    worker: median(results.map((r) => r.ms.perf ?? r.ms.date)),
    node: median(results.map((r) => r.nodeMs)),
    r2: results[0].r2,
    last: results.at(-1),
  };
}

try {
  const files = corpusFiles();
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const expected = expectedDiscovery(files);
  const uploadMs = await uploadCorpus(worker.bucket, files, KEY_PREFIX, { concurrency: CONCURRENCY });

  // The snapshot the snapshot starts read: taken by a discovery before the timed runs.
  const first = await post("/discover", { ...REQUEST, snapshotKey: SNAPSHOT_KEY, keep: "bench" });
  const cold = await timed("cold discovery", () => post("/discover", REQUEST));
  const snap = await timed("snapshot start (1 R2 get + fromSnapshot + listMetas)", () => post("/from-snapshot", { ...REQUEST, snapshotKey: SNAPSHOT_KEY }));
  const refresh = await timed("refresh, nothing changed", () => post("/refresh", { id: "bench" }));
  if (refresh.last.report.changed.length + refresh.last.report.added.length + refresh.last.report.removed.length !== 0) {
    throw new Error("refresh reported changes in an unchanged bucket");
  }
  if (snap.last.metaCount !== cold.last.names) throw new Error(`the snapshot start has ${snap.last.metaCount} skills, the cold discovery ${cold.last.names}`);

  console.log(`skillwasm ${await worker.version()} in workerd (miniflare), local R2; ${cpus().length} CPUs, node ${process.version}`);
  console.log(
    `corpus: ${files.length} objects, ${(bytes / 1e6).toFixed(1)} MB, ${expected.visible.length} SKILL.md to read; ` +
      `${cold.last.across} skills loaded, ${cold.last.refused} refused, ${cold.last.names} visible names; snapshot ${first.snapshotBytes} bytes`,
  );
  console.log(`upload from Node: ${(uploadMs / 1000).toFixed(1)} s (${CONCURRENCY} puts in flight, ${(files.length / (uploadMs / 1000)).toFixed(0)} objects/s)`);
  console.log("");
  const rows = [cold, snap, refresh];
  const w = Math.max(...rows.map((r) => r.label.length));
  console.log(`${"step".padEnd(w)}  ${"Worker ms".padStart(10)}  ${"request ms".padStart(10)}  ${"R2 list".padStart(7)}  ${"R2 get".padStart(6)}  ${"R2 head".padStart(7)}`);
  for (const r of rows) {
    console.log(
      `${r.label.padEnd(w)}  ${r.worker.toFixed(1).padStart(10)}  ${r.node.toFixed(1).padStart(10)}  ${String(r.r2.list).padStart(7)}  ${String(r.r2.get).padStart(6)}  ${String(r.r2.head).padStart(7)}`,
    );
  }
  console.log("");
  console.log(`medians of ${RUNS} runs; Worker ms: performance.now() around the step inside the Worker; request ms: the whole request seen from Node`);
  console.log(`cold / snapshot start: ${(cold.worker / snap.worker).toFixed(1)}x (Worker time), R2 calls ${cold.r2.list + cold.r2.get + cold.r2.head} -> ${snap.r2.list + snap.r2.get + snap.r2.head}`);
} catch (e) {
  console.error(e?.stack ?? e);
  process.exitCode = 1;
} finally {
  await worker.dispose();
}
