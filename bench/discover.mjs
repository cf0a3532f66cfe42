#!/usr/bin/env node
// Discovery benchmark: find every skill on disk and render the <available_skills> catalog,
// skillwasm (SkillRegistry over nodeFsStorage, then renderCatalog in the reference format, what a
// host calls) against skills-ref's toPrompt on the same directories, and against the floor: a synchronous walk plus a 4 KiB prefix read of every
// SKILL.md (what any discovery from disk must at least do). Two corpora: ../shared/corpus, and a
// larger one made from it (its skills copied ten times under new names, in a temporary directory
// removed at the end). skills-ref has no discovery of its own: it is handed the skill directories
// (and, in a second row, finds them with an ordinary async walk first). Handed them, it walks
// nothing, while the floor and skillwasm read every directory of the tree (about 3.4 per skill in
// the corpus): the row "walk alone" prints what that costs, so the ratio against the directories
// handed over is bounded by the floor's own ratio, and the row with skills-ref's own walk is the
// one that does the same work. A refresh with nothing changed of a registry discovered once is
// timed against its own listing (the same listSkillPrefixes calls made from JS).
//
//   node bench/discover.mjs [--runs N] [--times N]
//
// A script that prints ratios against peers measured in the same run, not a test.

import { closeSync, existsSync, lstatSync, openSync, readSync, readdirSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { multipliedCorpus, skillFiles, stats } from "./corpus.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(REPO, "..", "shared", "corpus");
const PKG_ENTRY = join(REPO, "pkg", "node.js");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Math.max(1, Number(process.argv[i + 1]) | 0) : fallback;
};
const RUNS = arg("--runs", 9);
const TIMES = arg("--times", 10);

if (!existsSync(PKG_ENTRY)) {
  console.error("build first: make build");
  process.exit(1);
}
if (!existsSync(CORPUS)) {
  console.error(`no corpus at ${CORPUS}`);
  process.exit(1);
}

const { SkillRegistry, nodeFsStorage, renderCatalog, toPrompt } = await import(pathToFileURL(PKG_ENTRY).href);
const skillsRef = await import("skills-ref");

/** The contenders over one corpus: `base` holds `skills/`. */
async function contenders(base) {
  const skillsDir = join(base, "skills");
  const options = (storageOptions) => ({
    scopes: [{ name: "builtin", storage: nodeFsStorage(base, storageOptions), roots: ["skills/"] }],
    maxDepth: 12,
    maxDirectories: 1_000_000,
    format: "reference",
  });
  // The catalog a host renders: the visible skills, in the reference's layout, one string.
  const catalog = (reg) => {
    const xml = renderCatalog(reg).text ?? "";
    return { xml, count: xml.split("<skill>").length - 1 };
  };
  // The same catalog made in JS from every loaded skill's metadata (listMetasAcross + toPrompt).
  const catalogInJs = (reg) => {
    const entries = reg.listMetasAcross().map((m) => ({ name: m.name, description: m.description, location: join(base, m.location) }));
    return { xml: toPrompt(entries), count: entries.length };
  };
  // nodeFsStorage as a store that ignores listOnly would be: every file of the tree listed.
  const listingEveryFile = () => {
    const storage = nodeFsStorage(base);
    const batched = storage.listSkillPrefixes;
    storage.listSkillPrefixes = (prefix, { listOnly, ...opts }) => batched(prefix, opts);
    return storage;
  };
  const discover = async (storageOptions, storage = nodeFsStorage(base, storageOptions)) => {
    const reg = await SkillRegistry.discover({ ...options(storageOptions), scopes: [{ name: "builtin", storage, roots: ["skills/"] }] });
    const out = catalog(reg);
    reg.free();
    return out;
  };

  // The directories skills-ref can render (its toPrompt throws on the first one it cannot read).
  const dirs = [];
  for (const f of skillFiles(skillsDir)) {
    try {
      await skillsRef.readProperties(dirname(f));
      dirs.push(dirname(f));
    } catch {
      // left out: skills-ref would throw for the whole catalog
    }
  }
  const accepted = new Set(dirs);
  async function walkDirs(dir, out = []) {
    const entries = await readdir(dir, { withFileTypes: true });
    await Promise.all(entries.map(async (e) => {
      if (e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules") await walkDirs(join(dir, e.name), out);
      else if (e.name === "SKILL.md") out.push(dir);
    }));
    return out;
  }

  // The floor: a synchronous walk and a 4 KiB prefix read of every SKILL.md, nothing parsed.
  const head = new Uint8Array(4096);
  function floor(dir = skillsDir) {
    let n = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith(".") && e.name !== "node_modules") n += floor(p);
      } else if (e.name === "SKILL.md") {
        const fd = openSync(p, "r");
        try {
          readSync(fd, head, 0, head.length, 0);
        } finally {
          closeSync(fd);
        }
        n++;
      }
    }
    return n;
  }

  // The floor's walk alone: the same readdir of every directory, no file opened.
  function walkOnly(dir = skillsDir) {
    let n = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (!e.name.startsWith(".") && e.name !== "node_modules") n += walkOnly(join(dir, e.name));
      } else if (e.name === "SKILL.md") {
        n++;
      }
    }
    return n;
  }

  // A snapshot start that checks the disk: a stat of every skill's SKILL.md and directory (a
  // host compares them with the snapshot's etags and discovers again when one differs).
  const reg0 = await SkillRegistry.discover(options());
  const snapshot = reg0.snapshot();
  const checked = reg0.listMetasAcross().map((m) => join(base, m.location));
  // The directories that hold skill directories: a skill added, removed or renamed beside the
  // others changes one of their mtimes (a skill directory's own mtime says only that an entry of
  // it changed, and its SKILL.md's stat says more: the file's size and mtime, its etag).
  const parents = [...new Set(checked.map((f) => dirname(dirname(f))))];
  reg0.free();
  const fromSnapshot = (check, render = catalog) => {
    if (check === "parents") {
      for (const f of checked) lstatSync(f, { throwIfNoEntry: false });
      for (const d of parents) statSync(d, { throwIfNoEntry: false });
    } else if (check) {
      for (const f of checked) {
        statSync(f);
        statSync(dirname(f));
      }
    }
    const reg = SkillRegistry.fromSnapshot(snapshot, options());
    const out = render(reg);
    reg.free();
    return out;
  };

  // A refresh with nothing changed, of a registry discovered once, and its floor: the same
  // listSkillPrefixes calls (recorded in one untimed refresh) made again from JS.
  const refreshStore = nodeFsStorage(base);
  const prefixes = refreshStore.listSkillPrefixes;
  let recording = null;
  refreshStore.listSkillPrefixes = function (prefix, opts) {
    recording?.push([prefix, opts]);
    return prefixes.call(this, prefix, opts);
  };
  const refreshed = await SkillRegistry.discover({ ...options(), scopes: [{ name: "builtin", storage: refreshStore, roots: ["skills/"] }] });
  recording = [];
  await refreshed.refresh();
  const refreshCalls = recording;
  recording = null;
  // The skills of its catalog, as the rows above count them.
  const shown = catalog(refreshed).count;
  const refresh = async () => {
    const before = refreshed.stats().bytesRead;
    await refreshed.refresh();
    if (refreshed.stats().bytesRead !== before) throw new Error("a refresh with nothing changed read a file");
    return { count: shown };
  };
  const listAgain = () => {
    for (const [prefix, opts] of refreshCalls) prefixes.call(refreshStore, prefix, opts);
    return { count: shown };
  };

  return [
    { id: "floor", label: "floor: sync walk + 4 KiB read of each SKILL.md", run: () => ({ count: floor() }) },
    { id: "walk", label: "  the floor's walk alone (readdir of every directory)", run: () => ({ count: walkOnly() }) },
    { id: "ref", label: "skills-ref toPrompt(dirs)", run: async () => ({ xml: await skillsRef.toPrompt(dirs), count: dirs.length }) },
    { id: "refwalk", label: "skills-ref: async directory walk + toPrompt", run: async () => {
      const found = (await walkDirs(skillsDir)).filter((d) => accepted.has(d)).sort();
      return { xml: await skillsRef.toPrompt(found), count: found.length };
    } },
    { id: "ours", label: "skillwasm discover (nodeFsStorage) + renderCatalog", run: () => discover() },
    { id: "oursEvery", label: "  same, every file listed (listOnly ignored)", run: () => discover(undefined, listingEveryFile()) },
    { id: "oursAsync", label: "  same, listSkillPrefixes: false (async list + reads)", run: () => discover({ listSkillPrefixes: false }) },
    { id: "snapStat", label: "skillwasm fromSnapshot + stat of each skill + renderCatalog", run: () => fromSnapshot(true) },
    { id: "snapParents", label: "  same, lstat of each SKILL.md + stat of each parent dir", run: () => fromSnapshot("parents") },
    { id: "refresh", label: "skillwasm refresh, nothing changed (no file read)", run: refresh },
    { id: "refreshList", label: "  its listing alone (its listSkillPrefixes calls, from JS)", run: listAgain },
    { id: "snap", label: "skillwasm fromSnapshot + renderCatalog (no I/O)", run: () => fromSnapshot(false) },
    { id: "snapJs", label: "  same, listMetasAcross + toPrompt in JS instead", run: () => fromSnapshot(false, catalogInJs) },
  ];
}

// A full garbage collection before each timed run, so that no row pays for the garbage of the
// row before it (skills-ref's async walk leaves tens of MiB behind, and the row after it used to
// take up to twice its time collecting them).
v8.setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc");

/** Times every contender round-robin, `RUNS` rounds after one warm-up round. */
async function measure(list) {
  const times = list.map(() => []);
  const last = list.map(() => null);
  for (let r = -1; r < RUNS; r++) {
    for (let i = 0; i < list.length; i++) {
      last[i] = null;
      collect();
      const t = performance.now();
      last[i] = await list[i].run();
      if (r >= 0) times[i].push(performance.now() - t);
    }
  }
  return list.map((c, i) => ({ ...c, ...stats(times[i]), count: last[i]?.count }));
}

function report(title, rows) {
  const ref = rows.find((r) => r.id === "ref");
  const fl = rows.find((r) => r.id === "floor");
  console.log(title);
  console.log(`${"".padEnd(58)} ${"min ms".padStart(9)} ${"median".padStart(9)}  ${"vs skills-ref".padStart(13)}  ${"vs floor".padStart(9)}  skills`);
  for (const r of rows) {
    console.log(
      `${r.label.padEnd(58)} ${r.min.toFixed(2).padStart(9)} ${r.median.toFixed(2).padStart(9)}  ` +
      `${`${(ref.min / r.min).toFixed(1)}x`.padStart(13)}  ${`${(r.min / fl.min).toFixed(2)}x`.padStart(9)}  ${r.count ?? ""}`,
    );
  }
  const refresh = rows.find((r) => r.id === "refresh");
  const listing = rows.find((r) => r.id === "refreshList");
  console.log(`refresh with nothing changed / its listing alone: ${(refresh.min / listing.min).toFixed(2)}x (mins)`);
  console.log(`(1-minute load average after these rounds: ${loadavg()[0].toFixed(2)})`);
  console.log("");
}

console.log("discover + render the <available_skills> catalog from disk");
console.log(`node ${process.version}; ${RUNS} round-robin rounds after one warm-up; vs skills-ref: its min / the row's min`);
console.log("(higher is better); vs floor: the row's min / the floor's min (lower is better)");
console.log(`1-minute load average at the start: ${loadavg()[0].toFixed(2)}. skills-ref's async fs calls get faster when the`);
console.log("machine is busy (the thread pool's workers are already awake), so a loaded machine flatters it.");
console.log("Each timed run starts after a full garbage collection (no row pays for another's garbage).");
console.log("");

report(`../shared/corpus (${skillFiles(join(CORPUS, "skills")).length} SKILL.md files)`, await measure(await contenders(CORPUS)));
const big = multipliedCorpus(join(CORPUS, "skills"), TIMES);
try {
  report(`${TIMES}x corpus, generated (${skillFiles(big.skills).length} SKILL.md files)`, await measure(await contenders(big.root)));
} finally {
  big.remove();
}
console.log(`1-minute load average at the end: ${loadavg()[0].toFixed(2)}`);
