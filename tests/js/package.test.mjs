// The package as a user gets it: `import ... from "skillwasm"` resolved through package.json
// exports, the entry points, and the wasm instance surviving hostile input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, assertBuilt } from "./helpers.mjs";
import { NODE22_VERSION, node22 } from "./support/node22.mjs";

// The tests that differ by Node version run on this Node (20) and on Node 22 (fetched under
// target/node22 by `make setup`; skipped, saying why, only when it cannot be had).
const NODE22 = node22();
const NODES = [
  { label: `Node ${process.versions.node}`, bin: process.execPath },
  { label: `Node ${NODE22_VERSION}`, bin: NODE22.bin, skip: NODE22.skip ?? false },
];

function runNode(cwd, file, source, timeout = 60_000, bin = process.execPath) {
  writeFileSync(path.join(cwd, file), source);
  const r = spawnSync(bin, [file], { cwd, encoding: "utf8", timeout });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `${file} failed (status ${r.status}, signal ${r.signal}):\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

function withConsumerProject(fn) {
  assertBuilt();
  const dir = mkdtempSync(path.join(os.tmpdir(), "skillwasm-consumer-"));
  try {
    mkdirSync(path.join(dir, "node_modules"));
    symlinkSync(PKG, path.join(dir, "node_modules", "skillwasm"), "dir");
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("package.json: exports conditions, and every file they name exists", () => {
  assertBuilt();
  const pkg = JSON.parse(readFileSync(path.join(PKG, "package.json"), "utf8"));
  assert.equal(pkg.name, "skillwasm");
  assert.equal(pkg.version, "0.1.0");
  assert.equal(pkg.type, "module");
  assert.equal(pkg.license, "MIT OR Apache-2.0");
  const dot = pkg.exports["."];
  assert.deepEqual(Object.keys(dot), ["types", "workerd", "node", "browser", "default"]);
  assert.deepEqual(dot, {
    types: "./index.d.ts",
    workerd: "./workerd.js",
    node: "./node.js",
    browser: "./browser.js",
    default: "./browser.js",
  });
  assert.equal(pkg.exports["./package.json"], "./package.json");
  assert.equal(pkg.exports["./skillwasm_bg.wasm"], "./skillwasm_bg.wasm", "bundlers that do not copy the .wasm can import it");
  for (const key of ["description", "homepage", "keywords"]) assert.ok(pkg[key]?.length > 0, `package.json lacks ${key}`);
  assert.equal(pkg.repository?.type, "git");
  assert.match(pkg.repository?.url ?? "", /^git\+https:\/\//);
  assert.match(pkg.bugs?.url ?? "", /^https:\/\//);
  // engines says what is tested: Node 20 from 20.19 and Node 22 from 22.12 (the first of each
  // where require() of an ES module needs no flag); the tests run on this Node and on Node 22.
  assert.equal(pkg.engines.node, "^20.19.0 || ^22.12.0");
  for (const v of [process.versions.node, NODE22_VERSION]) {
    const [major, minor] = v.split(".").map(Number);
    assert.ok((major === 20 && minor >= 19) || (major === 22 && minor >= 12), `the tests run on Node ${v}, outside engines`);
  }
  assert.equal(pkg.types, "./index.d.ts");
  assert.equal(pkg.bin.skillwasm, "./cli.js");
  const named = [...Object.values(dot), pkg.types, pkg.bin.skillwasm, ...pkg.files];
  for (const rel of named) {
    assert.ok(existsSync(path.join(PKG, rel)), `package.json names ${rel}, which is not in pkg/`);
  }
  assert.equal(pkg.exports["./skillwasm_extra_bg.wasm"], "./skillwasm_extra_bg.wasm", "the second module can be imported too");
  assert.equal(pkg.exports["./skillwasm_cold_bg.wasm"], "./skillwasm_cold_bg.wasm", "the core's cold code can be imported too");
  for (const generated of ["skillwasm.js", "skillwasm.d.ts", "skillwasm_bg.wasm", "skillwasm_cold_bg.wasm", "skillwasm_extra.js", "skillwasm_extra.d.ts", "skillwasm_extra_bg.wasm", "extra.js", "cold.js"]) {
    assert.ok(pkg.files.includes(generated), `files must ship ${generated}`);
  }
  assert.match(readFileSync(path.join(PKG, "cli.js"), "utf8"), /^#!\/usr\/bin\/env node\n/);
  const dts = readFileSync(path.join(PKG, "index.d.ts"), "utf8");
  assert.match(dts, /export \* from "\.\/skillwasm\.js"/);
  assert.match(dts, /export function init\(/);
  const generatedDts = readFileSync(path.join(PKG, "skillwasm.d.ts"), "utf8");
  for (const fn of ["parseSkill", "parseSkills", "version"]) {
    assert.match(generatedDts, new RegExp(`export function ${fn}\\(`), `skillwasm.d.ts lacks ${fn}`);
  }
  const extraDts = readFileSync(path.join(PKG, "skillwasm_extra.d.ts"), "utf8");
  for (const fn of ["readProperties", "toPrompt"]) {
    assert.match(extraDts, new RegExp(`export function ${fn}\\(`), `skillwasm_extra.d.ts lacks ${fn}`);
  }
});

for (const { label, bin, skip } of NODES) test(`import { parseSkill, parseSkills } from "skillwasm" in a consumer project (node condition), ${label}`, { skip }, () => {
  const result = withConsumerProject((dir) =>
    runNode(
      dir,
      "consumer.mjs",
      `
import { parseSkill, parseSkills, version, init } from "skillwasm";
await init();
const doc = "---\\nname: demo-skill\\ndescription: Does demo things.\\nmetadata:\\n  author: me\\n  version: \\"1.0\\"\\n---\\n# Demo\\n\\nBody text.\\n";
const bytes = new TextEncoder().encode(doc);
const crlf = "---\\r\\nname: demo-skill\\r\\ndescription: CRLF file\\r\\n---\\r\\nBody\\r\\n";
const out = {
  resolved: import.meta.resolve("skillwasm"),
  version: version(),
  fromBytes: parseSkill(bytes, { dirName: "demo-skill" }),
  fromString: parseSkill(doc, { dirName: "demo-skill" }),
  noBody: parseSkill(doc, { dirName: "demo-skill", includeBody: false }),
  crlf: parseSkill(crlf, { dirName: "demo-skill" }),
  many: parseSkills([bytes, doc, { input: crlf, dirName: "demo-skill" }, "no frontmatter"], { mode: "lenient" }),
};
out.metadataIsPlainObject = Object.getPrototypeOf(out.fromBytes.skill?.metadata ?? null) === Object.prototype;
console.log(JSON.stringify(out));
`,
      60_000,
      bin,
    ),
  );

  assert.ok(result.resolved.endsWith("/node.js"), `"skillwasm" resolved to ${result.resolved}, not node.js`);
  assert.equal(result.version, "0.1.0");

  for (const key of ["fromBytes", "fromString"]) {
    const { skill, diagnostics } = result[key];
    assert.ok(skill, `${key}: no skill: ${JSON.stringify(diagnostics)}`);
    assert.equal(skill.name, "demo-skill");
    assert.equal(skill.description, "Does demo things.");
    assert.equal(skill.body, "# Demo\n\nBody text.");
    if (skill.bodyLine !== undefined) assert.equal(skill.bodyLine, 8);
    assert.equal(skill.metadata.author, "me");
    assert.equal(skill.metadata.version, "1.0");
    assert.equal(skill.disableModelInvocation, false);
    assert.equal(skill.userInvocable, true);
    assert.deepEqual(
      diagnostics.filter((d) => d.severity !== "info"),
      [],
      `${key}: a clean file gave diagnostics`,
    );
  }
  assert.ok(result.metadataIsPlainObject, "skill.metadata must be a plain object (Record<string, string>), not a Map");
  assert.deepEqual(result.fromString, result.fromBytes, "string and bytes input must parse alike");

  assert.equal(result.noBody.skill.name, "demo-skill");
  assert.equal(result.noBody.skill.body, undefined, "includeBody: false must leave body out");

  const crlf = result.crlf;
  assert.ok(crlf.skill, `CRLF file rejected: ${JSON.stringify(crlf.diagnostics)}`);
  assert.equal(crlf.skill.name, "demo-skill");
  assert.equal(crlf.skill.description, "CRLF file");
  assert.equal(crlf.skill.body, "Body");
  assert.deepEqual(
    crlf.diagnostics.map((d) => [d.severity, d.code]),
    [["warning", "crlf"]],
    `CRLF file must give exactly the crlf warning, got ${JSON.stringify(crlf.diagnostics)}`,
  );
  for (const d of crlf.diagnostics) {
    assert.match(d.code, /^[a-z0-9][a-z0-9._-]*$/i, `diagnostic code ${JSON.stringify(d.code)}`);
    assert.ok(d.message.length > 0);
  }

  assert.equal(result.many.length, 4);
  assert.equal(result.many[0].skill.name, "demo-skill");
  assert.equal(result.many[1].skill.name, "demo-skill");
  assert.equal(result.many[2].skill.description, "CRLF file");
  assert.deepEqual(result.many[2].diagnostics, crlf.diagnostics);
  assert.equal(result.many[3].skill, null);
  assert.ok(result.many[3].diagnostics.some((d) => d.severity === "error" && d.message.length > 0));
});

test("browser entry: init(bytes) once, memoised", () => {
  assertBuilt();
  const dir = mkdtempSync(path.join(os.tmpdir(), "skillwasm-browser-"));
  try {
    const browserUrl = pathToFileURL(path.join(PKG, "browser.js")).href;
    const wasmPath = path.join(PKG, "skillwasm_bg.wasm");
    const result = runNode(
      dir,
      "browser.mjs",
      `
import { readFileSync } from "node:fs";
const m = await import(${JSON.stringify(browserUrl)});
let before;
try { before = m.parseSkill("---\\nname: a\\ndescription: b\\n---\\n"); } catch (e) { before = "threw"; }
const bytes = readFileSync(${JSON.stringify(wasmPath)});
const p1 = m.init(new WebAssembly.Module(bytes));
const p2 = m.init();
await p1;
const after = m.parseSkill("---\\nname: a\\ndescription: b\\n---\\nhi\\n", { dirName: "a" });
console.log(JSON.stringify({ before, same: p1 === p2, after, initType: typeof m.init }));
`,
    );
    assert.equal(result.before, "threw", "using the browser entry before init() must fail");
    assert.equal(result.same, true, "init() must be memoised");
    assert.equal(result.after.skill.name, "a");
    assert.equal(result.after.skill.body, "hi");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the wasm instance survives hostile input, each rejected quickly", () => {
  assertBuilt();
  const dir = mkdtempSync(path.join(os.tmpdir(), "skillwasm-hostile-"));
  try {
    const nodeUrl = pathToFileURL(path.join(PKG, "node.js")).href;
    const result = runNode(
      dir,
      "hostile.mjs",
      `
const { parseSkill, parseSkills } = await import(${JSON.stringify(nodeUrl)});
const enc = new TextEncoder();
// deterministic pseudo-random bytes
let seed = 0x2545f491;
function rand(n) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; out[i] = seed & 0xff; }
  return out;
}
function concat(...parts) {
  const bs = parts.map((p) => typeof p === "string" ? enc.encode(p) : p);
  const out = new Uint8Array(bs.reduce((n, b) => n + b.length, 0));
  let o = 0; for (const b of bs) { out.set(b, o); o += b.length; }
  return out;
}
const laughs = ["a: &a [\\"lol\\",\\"lol\\",\\"lol\\",\\"lol\\",\\"lol\\",\\"lol\\",\\"lol\\",\\"lol\\",\\"lol\\"]"];
const letters = "abcdefghij";
for (let i = 1; i < letters.length; i++) {
  const prev = letters[i - 1];
  laughs.push(letters[i] + ": &" + letters[i] + " [" + Array(9).fill("*" + prev).join(",") + "]");
}
const cases = {
  "1 MiB frontmatter": "---\\nname: big\\ndescription: big frontmatter\\nfiller: " + "a".repeat(1 << 20) + "\\n---\\nbody\\n",
  "1 MiB frontmatter of keys": "---\\nname: big\\ndescription: many keys\\n" + Array.from({ length: 60000 }, (_, i) => "key" + i + ": v" + i).join("\\n") + "\\n---\\nbody\\n",
  "5000-deep open nesting": "---\\nname: deep\\ndescription: deep\\na: " + "[".repeat(5000) + "\\n---\\nbody\\n",
  "5000-deep closed nesting": "---\\nname: deep\\ndescription: deep\\na: " + "[".repeat(5000) + "]".repeat(5000) + "\\n---\\nbody\\n",
  "5000-deep flow mappings": "---\\nname: deep\\ndescription: deep\\na: " + "{k: ".repeat(5000) + "v" + "}".repeat(5000) + "\\n---\\nbody\\n",
  "billion laughs": "---\\nname: laughs\\ndescription: aliases\\n" + laughs.join("\\n") + "\\n---\\nbody\\n",
  "random binary": rand(256 * 1024),
  "random binary in fences": concat("---\\n", rand(64 * 1024), "\\n---\\nbody\\n"),
};
const results = {};
for (const [label, input] of Object.entries(cases)) {
  const t0 = performance.now();
  let r, threw = null;
  try { r = parseSkill(input, { dirName: "x" }); } catch (e) { threw = String(e && e.stack || e); }
  const ms = performance.now() - t0;
  results[label] = {
    ms, threw,
    skill: r ? r.skill : undefined,
    errors: r ? r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code + ": " + d.message.slice(0, 200)) : [],
  };
}
const after = parseSkill("---\\nname: after\\ndescription: still works\\n---\\nok\\n", { dirName: "after" });
const batch = parseSkills([cases["billion laughs"], "---\\nname: good\\ndescription: fine\\n---\\n", cases["5000-deep closed nesting"]]);
console.log(JSON.stringify({ results, after, batch: batch.map((r) => r.skill && r.skill.name) }));
`,
      120_000,
    );
    const failures = [];
    for (const [label, r] of Object.entries(result.results)) {
      if (r.threw) failures.push(`${label}: threw ${r.threw}`);
      else if (r.skill !== null) failures.push(`${label}: accepted (skill ${JSON.stringify(r.skill).slice(0, 120)}...)`);
      else if (r.errors.length === 0) failures.push(`${label}: rejected without an error diagnostic`);
      // The time is printed below, never asserted: a loaded machine is no failure of the parser.
    }
    for (const [label, r] of Object.entries(result.results)) {
      console.log(`${label}: ${Math.round(r.ms)} ms, ${r.threw ? "threw" : JSON.stringify((r.errors[0] ?? "no error").slice(0, 100))}`);
    }
    assert.deepEqual(failures, []);
    assert.equal(result.after.skill?.name, "after", "a normal parse after hostile input must still work");
    assert.equal(result.after.skill.body, "ok");
    assert.deepEqual(result.batch, [null, "good", null]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the tarball npm would publish holds the module, types, CLI, README and licence files", () => {
  assertBuilt();
  const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: PKG, encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const [info] = JSON.parse(r.stdout);
  const files = info.files.map((f) => f.path).sort();
  for (const need of ["README.md", "LICENSE-MIT", "LICENSE-APACHE", "package.json", "skillwasm_bg.wasm", "skillwasm_cold_bg.wasm", "cold.js", "skillwasm.js", "skillwasm_extra_bg.wasm", "skillwasm_extra.js", "extra.js", "index.d.ts", "cli.js", "node.js", "browser.js", "workerd.js", "tools.js"]) {
    assert.ok(files.includes(need), `the tarball lacks ${need} (has ${files.join(", ")})`);
  }
  assert.ok(!files.some((f) => f.startsWith("src/") || f.endsWith(".rs")), "no sources of the build in the tarball");
  // Every module a shipped module imports is shipped too (a file missing from `files` breaks the
  // installed package while pkg/ itself still works).
  const shipped = new Set(files);
  for (const f of files.filter((f) => f.endsWith(".js"))) {
    // Comments left out: JSDoc names types with import("./index.js"), which nothing loads.
    const text = readFileSync(path.join(PKG, f), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const [, rel] of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(f), rel));
      assert.ok(shipped.has(target), `${f} imports ${rel}, which the tarball lacks`);
    }
  }
  const readme = readFileSync(path.join(PKG, "README.md"), "utf8");
  assert.match(readme, /## Install\n\n```sh\nnpm install skillwasm\n```/);
  // The README's links into docs/ work in the installed package (npm shows the README; its
  // relative links resolve against the package).
  const linked = [...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]);
  assert.ok(linked.length > 10, `${linked.length} links into docs/`);
  for (const rel of linked) assert.ok(shipped.has(rel), `the README links ${rel}, which the tarball lacks`);
});

for (const { label, bin, skip } of NODES) test(`require("skillwasm") from CommonJS (Node >= 20.19: require of an ES module), ${label}`, { skip }, () => {
  const result = withConsumerProject((dir) => {
    writeFileSync(path.join(dir, "consumer.cjs"), `
const { parseSkill, version } = require("skillwasm");
const wasmPath = require.resolve("skillwasm/skillwasm_bg.wasm");
const pkg = require("skillwasm/package.json");
console.log(JSON.stringify({ name: parseSkill("---\\nname: a\\ndescription: b\\n---\\n").skill.name, version: version(), wasm: wasmPath.endsWith("skillwasm_bg.wasm"), pkg: pkg.name }));
`);
    const r = spawnSync(bin, ["consumer.cjs"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  });
  assert.deepEqual(result, { name: "a", version: "0.1.0", wasm: true, pkg: "skillwasm" });
});
