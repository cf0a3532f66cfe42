#!/usr/bin/env node
// Parse + validate benchmark: skillwasm against skills-ref and gray-matter, in one process, on
// two corpora: ../shared/corpus/skills, and a larger one made from it (its skills copied ten times
// under new names, in a temporary directory removed at the end; --times N for another count).
//
//   node bench/parse.mjs [--runs N] [--warmup N] [--times N] [--corpus DIR]
//
// Every SKILL.md is read into a Uint8Array before any timing starts, so what is measured is the
// in-memory work that begins with the bytes a store returns: decode, split the frontmatter, parse
// the YAML, validate. The floor of a parse that returns bodies is decoding every file in JS (a
// TextDecoder over each file's bytes): printed as its own row. This is a script that prints
// ratios against peers measured in the same run, not a test: it never fails because a machine is
// slow.

import { readFileSync, readdirSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { multipliedCorpus } from "./corpus.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "..");
const PKG = join(REPO, "pkg");
const PKG_ENTRY = join(PKG, "node.js");
const PKG_WASM = join(PKG, "skillwasm_bg.wasm");

// ---------------------------------------------------------------------------------------------
// Arguments

function argValue(name, fallback) {
  const i = process.argv.indexOf(name);
  if (i === -1 || i + 1 >= process.argv.length) return fallback;
  return process.argv[i + 1];
}
const RUNS = Math.max(7, Number(argValue("--runs", 30)) | 0);
const TIMES = Math.max(1, Number(argValue("--times", 10)) | 0);
const WARMUP = Math.max(0, Number(argValue("--warmup", 5)) | 0);
const CORPUS = resolve(argValue("--corpus", join(REPO, "..", "shared", "corpus", "skills")));
const INIT_SPAWNS = 10;

if (!existsSync(PKG_ENTRY) || !existsSync(PKG_WASM)) {
  console.error("build first: make build");
  process.exit(1);
}
if (!existsSync(CORPUS)) {
  console.error(`corpus not found: ${CORPUS}`);
  process.exit(1);
}

// Peers are dev dependencies of the repository (package.json at the root).
let skillsRef, matter;
try {
  skillsRef = await import("skills-ref");
  matter = (await import("gray-matter")).default;
} catch (e) {
  console.error(`peers missing (${e.message}); run npm install at the repository root`);
  process.exit(1);
}
const { parseFrontmatter, validateMetadata } = skillsRef;

const sw = await import(pathToFileURL(PKG_ENTRY).href);

// ---------------------------------------------------------------------------------------------
// Load the corpus (not timed)

function findSkillFiles(root) {
  const out = [];
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop();
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const ent of entries) {
      const p = join(dir, ent.name);
      if (ent.isDirectory()) stack.push(p);
      else if (ent.isFile() && ent.name === "SKILL.md") out.push(p);
    }
  }
  return out.sort();
}

// Length in bytes of the text between the opening `---` line and the next `---` line.
// Approximate on purpose (no BOM, CRLF or indentation subtleties); only used for the MB/s context.
function frontmatterBytes(bytes) {
  const text = new TextDecoder().decode(bytes);
  const lines = text.split("\n");
  if (lines.length === 0 || lines[0].replace(/\r$/, "").trim() !== "---") return 0;
  let n = 0;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].replace(/\r$/, "").trim() === "---") return n;
    n += Buffer.byteLength(lines[i], "utf8") + 1;
  }
  return 0; // never closed
}

// The corpus being measured (set by load()).
let files = [];
let totalBytes = 0;
let totalFrontmatter = 0;
// Inputs for the batch API are built once, outside the timing, as a host would keep them.
let batchInputs = [];

function load(dir) {
  files = findSkillFiles(dir).map((path) => {
    const bytes = new Uint8Array(readFileSync(path));
    const dirPath = relative(dir, dirname(path)).split(sep).join("/");
    const dirName = dirPath.split("/").pop();
    return { path, bytes, dirPath, dirName };
  });
  if (files.length === 0) {
    console.error(`no SKILL.md under ${dir}`);
    process.exit(1);
  }
  totalBytes = files.reduce((s, f) => s + f.bytes.length, 0);
  totalFrontmatter = files.reduce((s, f) => s + frontmatterBytes(f.bytes), 0);
  batchInputs = files.map((f) => ({ input: f.bytes, dirName: f.dirName }));
}

// ---------------------------------------------------------------------------------------------
// Contenders. Each `run` does one full pass over the corpus and returns an outcome summary, so
// that no work can be optimised away and the rejection counts come from the timed code itself.

const decoder = new TextDecoder(); // one decoder reused, as a careful host would

const contenders = [
  {
    id: "floor-decode",
    label: "floor: TextDecoder over every file (no parse)",
    validates: false,
    run() {
      let chars = 0;
      for (const f of files) chars += decoder.decode(f.bytes).length;
      return { threw: 0, invalid: null, chars };
    },
  },
  {
    id: "skills-ref",
    label: "skills-ref parseFrontmatter+validateMetadata",
    validates: true,
    run() {
      let threw = 0;
      let invalid = 0;
      for (const f of files) {
        try {
          const text = decoder.decode(f.bytes);
          const [meta] = parseFrontmatter(text);
          // validateMetadata only takes path.basename(skillDir) for the name/directory check and
          // never touches the filesystem, so the corpus-relative directory path is enough.
          const errors = validateMetadata(meta, f.dirPath);
          if (errors.length > 0) invalid++;
        } catch {
          threw++;
        }
      }
      return { threw, invalid };
    },
  },
  {
    id: "gray-matter",
    label: "gray-matter matter(text, {})",
    validates: false,
    run() {
      let threw = 0;
      let keys = 0;
      for (const f of files) {
        try {
          const text = decoder.decode(f.bytes);
          // gray-matter memoises results by content string in `matter.cache`, but only when it is
          // called without options. Passing an options object (even an empty one) skips both the
          // cache lookup and the cache store, so every run really parses. Cleared anyway below.
          const out = matter(text, {});
          keys += Object.keys(out.data).length;
        } catch {
          threw++;
        }
      }
      return { threw, invalid: null, keys };
    },
  },
  {
    id: "sw-batch",
    label: "skillwasm parseSkills (includeBody: false)",
    validates: true,
    run() {
      return summarise(sw.parseSkills(batchInputs, { includeBody: false }));
    },
  },
  {
    id: "sw-batch-body",
    label: "skillwasm parseSkills (includeBody: true)",
    validates: true,
    run() {
      return summarise(sw.parseSkills(batchInputs, { includeBody: true }));
    },
  },
  {
    // Bodies are made when first read (see the README): this row reads every one, as a host that
    // shows them all would, so the cost of the text itself is in it.
    id: "sw-batch-body-read",
    label: "skillwasm parseSkills (includeBody: true), every body read",
    validates: true,
    run() {
      const results = sw.parseSkills(batchInputs, { includeBody: true });
      let chars = 0;
      for (const r of results) if (r.skill) chars += r.skill.body.length;
      return { ...summarise(results), chars };
    },
  },
  {
    id: "sw-single",
    label: "skillwasm parseSkill per file (includeBody: false)",
    validates: true,
    run() {
      const results = new Array(files.length);
      for (let i = 0; i < files.length; i++) {
        results[i] = sw.parseSkill(files[i].bytes, { dirName: files[i].dirName, includeBody: false });
      }
      return summarise(results);
    },
  },
  {
    id: "sw-strict",
    label: "skillwasm parseSkills (strict, includeBody: false)",
    validates: true,
    run() {
      return summarise(sw.parseSkills(batchInputs, { mode: "strict", includeBody: false }));
    },
  },
];

// skillwasm never throws on bad skill input: a file it cannot use has `skill: null`, and a usable
// skill can still carry error diagnostics. Both are reported.
function summarise(results) {
  let threw = 0; // stays 0 unless the result shape is wrong
  let nullSkill = 0;
  let withErrors = 0;
  if (!Array.isArray(results) || results.length !== files.length) {
    return { threw: files.length, invalid: null, nullSkill: null };
  }
  for (const r of results) {
    if (!r || typeof r !== "object") {
      threw++;
      continue;
    }
    if (r.skill == null) nullSkill++;
    const diags = Array.isArray(r.diagnostics) ? r.diagnostics : [];
    if (diags.some((d) => d && d.severity === "error")) withErrors++;
  }
  return { threw, invalid: withErrors, nullSkill };
}

// ---------------------------------------------------------------------------------------------
// Timing

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// No forced GC between passes: tried, and a full collection before each pass made the JS peers
// 2-4x slower (the heap and young generation shrink and must grow again), which is not a fair
// picture of steady-state use. Garbage is left to V8, as in a real host.

// Contenders are timed round-robin (one pass of each per round) rather than one after the other,
// so that load from other processes on a shared machine spreads evenly over all of them.
function measureAll(list) {
  const state = list.map((c) => ({ c, times: [], outcome: undefined, failed: undefined }));
  const pass = (s, timed) => {
    if (s.failed) return;
    matter.cache = {}; // belt and braces: nothing gray-matter memoised may serve the next pass
    try {
      const t0 = performance.now();
      s.outcome = s.c.run();
      const dt = performance.now() - t0;
      if (timed) s.times.push(dt);
    } catch (e) {
      // A contender that throws out of a whole pass is reported, not allowed to end the benchmark.
      s.failed = String(e && e.message ? e.message : e).split("\n")[0];
    }
  };
  for (const s of state) for (let i = 0; i < WARMUP; i++) pass(s, false);
  for (let r = 0; r < RUNS; r++) for (const s of state) pass(s, true);
  return state.map((s) =>
    s.failed
      ? { ...s.c, failed: s.failed, median: NaN, min: NaN }
      : { ...s.c, outcome: s.outcome, median: median(s.times), min: Math.min(...s.times) },
  );
}

// ---------------------------------------------------------------------------------------------
// Module size and init time

function wasmSizes() {
  const raw = readFileSync(PKG_WASM);
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
}

function initTimes() {
  const url = pathToFileURL(PKG_ENTRY).href;
  const code =
    "const t0 = performance.now();\n" +
    `await import(${JSON.stringify(url)});\n` +
    "console.log(String(performance.now() - t0));\n";
  const times = [];
  const failures = [];
  for (let i = 0; i < INIT_SPAWNS; i++) {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
      encoding: "utf8",
      cwd: REPO,
    });
    const ms = Number(String(r.stdout).trim().split("\n").pop());
    if (r.status === 0 && Number.isFinite(ms)) times.push(ms);
    else failures.push((r.stderr || r.stdout || `exit ${r.status}`).trim().split("\n")[0]);
  }
  return { times, failures };
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (x, d = 2) => (x == null || !Number.isFinite(x) ? "-" : x.toFixed(d));
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

function table(headers, rows, alignLeft = new Set([0])) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => (alignLeft.has(i) ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
      .join("  ");
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

let version = "?";
try {
  version = sw.version();
} catch {}

console.log("skillwasm parse benchmark");
console.log(`node ${process.version}, skillwasm ${version}, ${process.platform}/${process.arch}, ${cpus().length} CPUs`);
console.log(
  `method: ${WARMUP} warm-up passes each, then ${RUNS} timed rounds of one pass per contender ` +
    "(round-robin, performance.now); one pass = every file once",
);
console.log("");

function benchCorpus(dir, title) {
load(dir);
const loadBefore = loadavg()[0];
console.log(`corpus: ${title}`);
console.log(
  `files: ${files.length}, total bytes: ${totalBytes} (${kib(totalBytes)}), ` +
    `frontmatter bytes (approx.): ${totalFrontmatter} (${kib(totalFrontmatter)})`,
);
const results = measureAll(contenders);
const ref = results.find((r) => r.id === "skills-ref");
const gm = results.find((r) => r.id === "gray-matter");
const MB = 1024 * 1024;

console.log(
  table(
    ["contender", "median ms", "min ms", "files/s", "MB/s", "vs skills-ref", "vs gray-matter", "vs skills-ref (min)"],
    results.map((r) => [
      r.failed ? `${r.label} (FAILED)` : r.label,
      fmt(r.median),
      fmt(r.min),
      r.failed ? "-" : Math.round(files.length / (r.median / 1000)).toLocaleString("en-US"),
      fmt(totalBytes / MB / (r.median / 1000), 1),
      r.failed ? "-" : `${fmt(ref.median / r.median)}x`,
      r.failed ? "-" : `${fmt(gm.median / r.median)}x`,
      r.failed ? "-" : `${fmt(ref.min / r.min)}x`,
    ]),
  ),
);
console.log(
  "files/s and MB/s from the median. ratios: peer median / contender median (last column: mins);\n" +
    `higher is better. 1-minute load average ${loadBefore.toFixed(2)} before and ${loadavg()[0].toFixed(2)} after ` +
    "the timing;\non a busy machine trust the min columns more than the medians (skills-ref's and gray-matter's\n" +
    "JS gains less from a quiet machine than wasm does, so load tends to flatter them).",
);
console.log("");

console.log(
  table(
    ["contender", "threw", "unusable", "with errors", "validates"],
    results.map((r) => {
      if (r.failed) return [r.label, "pass threw", "-", "-", r.validates ? "yes" : "no"];
      const o = r.outcome;
      return [
        r.label,
        o.threw,
        r.id === "skills-ref" || r.id === "gray-matter" || r.id === "floor-decode" ? o.threw : o.nullSkill ?? "-",
        o.invalid ?? "-",
        r.validates ? "yes" : "no",
      ];
    }),
  ),
);
for (const r of results.filter((x) => x.failed)) console.log(`${r.label} failed: ${r.failed}`);
console.log(
  "unusable: skills-ref / gray-matter threw; skillwasm returned skill: null. with errors: files\n" +
    "whose validation reported at least one error (skills-ref: non-empty error list).\n" +
    "skills-ref throws on a file it cannot parse and returns error strings for invalid metadata;\n" +
    "skillwasm never throws: an unusable file has skill: null, a usable one may still carry error\n" +
    "diagnostics (lenient mode repairs what it can). gray-matter only splits and parses YAML: it\n" +
    "does no validation at all, so its time is a floor for parsing, not a like-for-like peer.",
);
console.log("");

// Agreement (not timed): does skillwasm's strict mode reject the same files as skills-ref, with the
// same messages? Strict errors follow the reference CLI (the Python skills-ref), which prints the
// allowed-field list of "Unexpected fields" as a Python list; the npm port joins it with commas.
// That one known formatting difference is normalised away before messages are compared.
{
  const strict = sw.parseSkills(batchInputs, { mode: "strict", includeBody: false });
  const norm = (m) => String(m).replace(/ Only (\[[^\]]*\]|[a-z, -]+) are allowed\.$/, " Only <fields> are allowed.");
  let verdictDiffers = 0;
  let rawDiffer = 0;
  let normDiffer = 0;
  const examples = [];
  files.forEach((f, i) => {
    let refErrors;
    try {
      const [meta] = parseFrontmatter(decoder.decode(f.bytes));
      refErrors = validateMetadata(meta, f.dirPath);
    } catch (e) {
      refErrors = [e && e.message ? e.message : String(e)];
    }
    const swErrors = (strict[i]?.diagnostics ?? []).filter((d) => d.severity === "error").map((d) => d.message);
    if ((refErrors.length === 0) !== (swErrors.length === 0)) verdictDiffers++;
    if (refErrors.join("\n") !== swErrors.join("\n")) rawDiffer++;
    if (refErrors.map(norm).join("\n") !== swErrors.map(norm).join("\n")) {
      normDiffer++;
      if (examples.length < 3) examples.push({ file: f.dirPath, ref: refErrors, sw: swErrors });
    }
  });
  console.log(
    `agreement with skills-ref (skillwasm strict mode): valid/invalid verdict differs on ${verdictDiffers} of ` +
      `${files.length} files; error messages differ on ${normDiffer} (${rawDiffer} before normalising the ` +
      "allowed-field list format)",
  );
  for (const x of examples) {
    console.log(`  ${x.file}\n    skills-ref: ${JSON.stringify(x.ref)}\n    skillwasm:  ${JSON.stringify(x.sw)}`);
  }
  console.log("");
}

}

benchCorpus(CORPUS, relative(REPO, CORPUS) || ".");
if (!process.argv.includes("--corpus")) {
  const big = multipliedCorpus(CORPUS, TIMES);
  try {
    benchCorpus(big.skills, `${TIMES}x ${relative(REPO, CORPUS)}, generated (renamed copies)`);
  } finally {
    big.remove();
  }
}

const size = wasmSizes();
console.log(`wasm: pkg/skillwasm_bg.wasm ${size.raw} bytes (${kib(size.raw)}), gzip -9 ${size.gzip} bytes (${kib(size.gzip)})`);
const init = initTimes();
if (init.times.length > 0) {
  console.log(
    `init: await import(pkg/node.js) in a fresh node, median ${fmt(median(init.times))} ms, ` +
      `min ${fmt(Math.min(...init.times))} ms over ${init.times.length} processes`,
  );
}
if (init.failures.length > 0) {
  console.log(`init: ${init.failures.length} of ${INIT_SPAWNS} child processes failed: ${init.failures[0]}`);
}
