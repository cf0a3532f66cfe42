#!/usr/bin/env node
// The skip hint, measured: discovery over nodeFsStorage of a repository of skills whose scripts
// carry big node_modules/ trees and whose .git/ holds thousands of objects, once as shipped (the
// store gets `skip` and never enters those directories) and once with the hint taken out of every
// list call (the store walks everything; the core drops the same keys afterwards). Prints, for each,
// the list calls, the keys the store returned, the readdir calls and the median time.
//
//   node bench/discover-skip.mjs [--runs N] [--modules N]
//
// A script that prints numbers, not a test (tests/js/discovery.test.mjs checks the behaviour).

import fsp from "node:fs/promises";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PKG_ENTRY = join(REPO, "pkg", "node.js");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Math.max(1, Number(process.argv[i + 1]) | 0) : fallback;
};
const RUNS = arg("--runs", 7);
const MODULES = arg("--modules", 300); // packages per skill's node_modules/
const SKILLS = 40;
const GIT_OBJECTS = 6000;

if (!existsSync(PKG_ENTRY)) {
  console.error("build first: make build");
  process.exit(1);
}

// readdir calls, counted through the builtin module (the adapter imports it by name).
let readdirs = 0;
const readdir = fsp.readdir;
fsp.readdir = (...args) => {
  readdirs++;
  return readdir(...args);
};
syncBuiltinESMExports();

const { SkillRegistry, nodeFsStorage } = await import(pathToFileURL(PKG_ENTRY).href);

function file(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const base = mkdtempSync(join(os.tmpdir(), "skillwasm-skip-bench-"));
let keys = 0;
for (let s = 0; s < SKILLS; s++) {
  const dir = join(base, "skills", `skill-${s}`);
  file(join(dir, "SKILL.md"), `---\nname: skill-${s}\ndescription: Skill number ${s}.\n---\nRun scripts/run.js.\n`);
  file(join(dir, "scripts", "run.js"), "console.log(1)\n");
  keys += 2;
  if (s % 2 === 0) {
    for (let m = 0; m < MODULES; m++) {
      file(join(dir, "scripts", "node_modules", `pkg-${m}`, "package.json"), "{}");
      file(join(dir, "scripts", "node_modules", `pkg-${m}`, "index.js"), "module.exports = 1;\n");
      keys += 2;
    }
  }
}
for (let o = 0; o < GIT_OBJECTS; o++) {
  file(join(base, ".git", "objects", (o % 256).toString(16).padStart(2, "0"), `obj${o}`), "x");
  keys++;
}
file(join(base, ".git", "HEAD"), "ref: refs/heads/main\n");
keys++;

/** The store with every list call's `skip` removed: what a store that ignores the hint does. */
function withoutHint(storage) {
  return {
    list: (prefix, opts = {}) => {
      const { skip, ...rest } = opts;
      return storage.list(prefix, rest);
    },
    read: (key, opts) => storage.read(key, opts),
  };
}

async function measure(label, wrap) {
  const times = [];
  let last;
  for (let r = 0; r < RUNS; r++) {
    let returned = 0;
    const inner = wrap(nodeFsStorage(base));
    const storage = {
      list: async (prefix, opts) => {
        const page = await inner.list(prefix, opts);
        returned += page.entries.length;
        return page;
      },
      read: (key, opts) => inner.read(key, opts),
    };
    readdirs = 0;
    const t0 = performance.now();
    const reg = await SkillRegistry.discover({ scopes: [{ name: "repo", storage, roots: [""] }] });
    times.push(performance.now() - t0);
    last = { skills: reg.names().length, lists: reg.stats().listCalls, returned, readdirs };
    reg.free();
  }
  times.sort((a, b) => a - b);
  return { label, ...last, ms: times[times.length >> 1] };
}

try {
  const rows = [await measure("without the hint", withoutHint), await measure("with the hint", (s) => s)];
  console.log(`${keys} files: ${SKILLS} skills, ${SKILLS / 2} with ${MODULES} packages in node_modules/, ${GIT_OBJECTS} objects in .git/`);
  console.log(`${"".padEnd(18)} ${"skills".padStart(6)} ${"lists".padStart(6)} ${"keys returned".padStart(14)} ${"readdir".padStart(8)} ${"median ms".padStart(10)}`);
  for (const r of rows) {
    console.log(`${r.label.padEnd(18)} ${String(r.skills).padStart(6)} ${String(r.lists).padStart(6)} ${String(r.returned).padStart(14)} ${String(r.readdirs).padStart(8)} ${r.ms.toFixed(1).padStart(10)}`);
  }
  console.log(`the hint: ${(rows[0].ms / rows[1].ms).toFixed(1)}x faster, ${rows[0].readdirs - rows[1].readdirs} fewer readdir calls`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
