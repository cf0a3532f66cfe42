#!/usr/bin/env node
// Fails when the files of a folder import each other in a circle. For every folder of the Rust
// crates (src/, parse/src/, search/src/, the wasm façades' src/) and of pkg-template/, the folder's entries (its
// files, and each subfolder taken whole) and the imports between them must form a DAG, so that
// the folder reads in one order: what a file builds on comes before it. `make lint` runs it.
//
//   node scripts/import-dag.mjs              check the repository; exit 1 naming each circle
//   node scripts/import-dag.mjs --edges DIR  print the edges among DIR's entries (DIR as printed)
//   node scripts/import-dag.mjs --self-test  check the checker on fixtures with and without circles

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { edgesOf } from "./import-dag/edges.mjs";
import { circles } from "./import-dag/graph.mjs";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The report for `found` (from graph.mjs's `circles`), one block per circle. */
export function report(found) {
  return found
    .map((c) => `${c.folder}: ${c.nodes.join(" -> ")}${c.size > c.nodes.length - 1 ? ` (one of ${c.size} files in a circle)` : ""}\n  ${c.steps.join("\n  ")}`)
    .join("\n");
}

async function main(args) {
  if (args[0] === "--self-test") {
    const { selfTest } = await import("./import-dag/self-test.mjs");
    return selfTest();
  }
  const edges = edgesOf(REPO);
  if (args[0] === "--edges") {
    for (const e of edges.filter((e) => e.folder === args[1])) console.log(`${e.from} -> ${e.to} (${e.where})`);
    return 0;
  }
  const found = circles(edges);
  if (found.length === 0) {
    const folders = new Set(edges.map((e) => e.folder)).size;
    console.log(`import-dag: no circle among the imports of ${folders} folders`);
    return 0;
  }
  console.error(`import-dag: ${found.length} circle(s) of imports within a folder:\n${report(found)}`);
  return 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
