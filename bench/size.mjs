#!/usr/bin/env node
// Module size: each wasm module of the package built as `make build` builds it, raw and gzip -9,
// and what takes its space. For each module it builds the façade crate for wasm32 (release, the
// Makefile's flags), runs wasm-bindgen twice (once as shipped, without the name section and then
// through the Makefile's wasm-opt; once keeping the names) and reads the named build with twiggy:
// the top items by own size, the dominator tree (what keeps what alive), and the own sizes summed
// per crate and module path. The named build is wasm-bindgen's output before wasm-opt, so its
// items add up to somewhat more than the shipped module.
// twiggy is installed under target/tools when it is missing (a pinned version).
//
//   node bench/size.mjs [--top N] [--module core|extra]... [--no-twiggy]
//
// `core` and `extra` are the two modules the crates build: the core is what a host that parses,
// discovers, renders catalogs and answers the skill tool needs. `make build` then splits the core
// by a profile of that work (binaryen's wasm-split) into the module every host loads and the core's cold
// code; the last table gives the three modules as pkg/ holds them. A script that prints numbers;
// it is not part of make test.

import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TARGET = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(REPO, "target");
const OUT = join(TARGET, "size");
const TOOLS = join(TARGET, "tools");
// 0.8.0 reads the SIMD instructions of the release builds (0.7.0 stops at the first one).
const TWIGGY_VERSION = "0.8.0";
const TWIGGY = join(TOOLS, "bin", "twiggy");
const WASM_TARGET = "wasm32-unknown-unknown";

function argValues(name) {
  const out = [];
  process.argv.forEach((a, i) => {
    if (a === name && i + 1 < process.argv.length) out.push(process.argv[i + 1]);
  });
  return out;
}
const TOP = Math.max(1, Number(argValues("--top")[0] ?? 25) | 0);
const TWIGGY_ON = !process.argv.includes("--no-twiggy");

// The modules: the crate, its cargo feature arguments, and the output name wasm-bindgen gives it.
const MODULES = {
  core: { crate: "skillwasm-wasm", features: [], out: "skillwasm" },
  extra: { crate: "skillwasm-wasm", features: ["--no-default-features", "--features", "second-module"], out: "skillwasm_extra" },
};
const chosen = argValues("--module");
const names = chosen.length > 0 ? chosen : ["core", "extra"];
for (const n of names) {
  if (!MODULES[n]) {
    console.error(`unknown module ${n}: one of ${Object.keys(MODULES).join(", ")}`);
    process.exit(2);
  }
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: REPO, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    console.error(r.stderr || r.stdout);
    throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}`);
  }
  return r.stdout;
}

const env = {
  ...process.env,
  PATH: `${join(homedir(), ".cargo", "bin")}:${process.env.PATH}`,
  // The Makefile's flags for the release wasm builds, so that the sizes are the shipped ones.
  RUSTFLAGS: run("make", ["-s", "--no-print-directory", "wasm-rustflags"]).trim(),
};

// The Makefile's wasm-opt and its flags: the sizes printed are those of the modules `make build` ships.
const WASM_OPT = join(REPO, "node_modules", ".bin", "wasm-opt");
const WASM_OPT_FLAGS = run("make", ["-s", "--no-print-directory", "wasm-opt-flags"]).trim().split(/\s+/);
const shippedOf = (dir, out) => join(dir, "shipped", `${out}_bg.wasm`);

function gzip9(file) {
  return spawnSync("gzip", ["-9c", file], { maxBuffer: 256 * 1024 * 1024 }).stdout.length;
}

function ensureTwiggy() {
  const installed = existsSync(TWIGGY) ? spawnSync(TWIGGY, ["--version"], { encoding: "utf8" }).stdout ?? "" : "";
  if (installed.trim().endsWith(` ${TWIGGY_VERSION}`)) return true;
  console.log(`installing twiggy ${TWIGGY_VERSION} under ${TOOLS}`);
  const r = spawnSync("cargo", ["install", "--locked", "--version", TWIGGY_VERSION, "twiggy", "--root", TOOLS], {
    cwd: REPO,
    env,
    stdio: "inherit",
  });
  return r.status === 0 && existsSync(TWIGGY);
}

// A crate and module path for an item of twiggy's listing: `skillwasm::parse::fast`,
// `serde_json::de`, or a kind of section (data segments, the function table, imports).
function owner(name) {
  if (typeof name !== "string") return "(other)";
  if (/^data\[\d+\]$|^data segment/.test(name)) return "(data segments: .rodata, string literals, tables)";
  if (/^(type|table|elem|import|export|custom section)/.test(name) || /subsection$/.test(name)) return `(${name.replace(/\[\d+\]$/, "")})`;
  // Drop crate disambiguators (`core[c5930c85a12de822]::fmt`) and the leading `<` of trait impls.
  name = name.replace(/\[[0-9a-f]{8,}\]/g, "");
  const m = /([a-zA-Z_][a-zA-Z0-9_]*)::([a-zA-Z_][a-zA-Z0-9_]*)(?:::([a-z_][a-z0-9_]*))?/.exec(name.replace(/^[<&\s]*(?:dyn |mut )*/, ""));
  if (m === null) return "(exported functions, with what was inlined into them, and other unqualified items)";
  const [, krate, second, third] = m;
  // The core's modules are worth telling apart; for the rest the crate (and its first module) say enough.
  if (krate === "skillwasm" && third !== undefined) return `${krate}::${second}::${third}`;
  return /^[a-z]/.test(second) ? `${krate}::${second}` : krate;
}

function byOwner(csv) {
  const sums = new Map();
  let total = 0;
  for (const line of csv.split("\n").slice(1)) {
    if (line.trim() === "") continue;
    // Name,ShallowSize,ShallowSizePercent ; the name may hold commas (quoted).
    const m = /^(?:"((?:[^"]|"")*)"|([^,]*)),(\d+),/.exec(line);
    if (m === null) continue;
    const name = (m[1] ?? m[2]).replace(/""/g, '"');
    const size = Number(m[3]);
    total += size;
    const key = owner(name);
    sums.set(key, (sums.get(key) ?? 0) + size);
  }
  return { total, rows: [...sums].sort((a, b) => b[1] - a[1]) };
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const results = [];
mkdirSync(OUT, { recursive: true });
const twiggy = TWIGGY_ON && ensureTwiggy();
if (TWIGGY_ON && !twiggy) console.log("twiggy could not be installed: sizes only");

for (const name of names) {
  const { crate, features, out } = MODULES[name];
  run("cargo", ["build", "-p", crate, "--target", WASM_TARGET, "--release", ...features], { env, stdio: ["ignore", "ignore", "pipe"] });
  const built = join(TARGET, WASM_TARGET, "release", `${crate.replace(/-/g, "_")}.wasm`);
  const dir = join(OUT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(built, join(dir, "input.wasm"));
  const common = ["--remove-producers-section", "--experimental-reset-state-function", "--target", "web"];
  run("wasm-bindgen", ["--remove-name-section", ...common, "--out-dir", join(dir, "shipped"), "--out-name", out, join(dir, "input.wasm")], { env });
  // As `make build` ships it: wasm-opt over wasm-bindgen's output.
  run(WASM_OPT, [...WASM_OPT_FLAGS, shippedOf(dir, out), "-o", shippedOf(dir, out)], { env });
  run("wasm-bindgen", [...common, "--out-dir", join(dir, "names"), "--out-name", out, join(dir, "input.wasm")], { env });
  const shipped = shippedOf(dir, out);
  const raw = readFileSync(shipped).length;
  const gz = gzip9(shipped);
  results.push({ name, raw, gz });
  console.log(`\n== ${name} (${crate}${features.length ? " " + features.join(" ") : ""}): ${raw} bytes raw (${kib(raw)}), gzip -9 ${gz} bytes (${kib(gz)})`);
  if (!twiggy) continue;
  const named = join(dir, "names", `${out}_bg.wasm`);
  console.log(`\n-- twiggy top -n ${TOP} (own size of each item)`);
  console.log(run(TWIGGY, ["top", "-n", String(TOP), named]).trimEnd());
  console.log(`\n-- twiggy dominators -d 3 -r ${TOP} (retained size: what an item keeps alive)`);
  console.log(run(TWIGGY, ["dominators", "-d", "3", "-r", String(TOP), named]).trimEnd());
  const { total, rows } = byOwner(run(TWIGGY, ["top", "-f", "csv", "-n", "1000000", named]));
  console.log(`\n-- own sizes summed by crate / module path (raw, of ${total} bytes in items)`);
  for (const [key, size] of rows.slice(0, TOP)) {
    console.log(`${String(size).padStart(9)}  ${((100 * size) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
}

console.log("\n| module | raw bytes | gzip -9 bytes |");
console.log("|---|---|---|");
for (const r of results) console.log(`| ${r.name} | ${r.raw} (${kib(r.raw)}) | ${r.gz} (${kib(r.gz)}) |`);

// `make build` then splits the core by the profile of the usual work (wasm-split): the module a
// host loads and the cold one, as pkg/ holds them.
const PKG = join(REPO, "pkg");
const shippedFiles = [
  ["core as shipped (the split's primary)", "skillwasm_bg.wasm"],
  ["the core's cold code", "skillwasm_cold_bg.wasm"],
  ["extra as shipped", "skillwasm_extra_bg.wasm"],
].filter(([, f]) => existsSync(join(PKG, f)));
if (shippedFiles.length > 0) {
  console.log("\n| pkg/ (make build) | raw bytes | gzip -9 bytes |");
  console.log("|---|---|---|");
  for (const [label, f] of shippedFiles) {
    const path = join(PKG, f);
    const raw = readFileSync(path).length;
    const gz = gzip9(path);
    console.log(`| ${label} | ${raw} (${kib(raw)}) | ${gz} (${kib(gz)}) |`);
  }
} else {
  console.log("\n(pkg/ is not built: run make build for the split core's sizes)");
}
