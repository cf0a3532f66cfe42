// Paths and small utilities shared by the JS tests. The tests run against the BUILT package in
// pkg/ (make build); shared data lives in ../shared beside the repository.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { spawnSync } from "node:child_process";

export const ROOT = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));
// SKILLWASM_PKG: test another build of the package instead of ./pkg
export const PKG = path.resolve(process.env.SKILLWASM_PKG ?? path.join(ROOT, "pkg"));
export const CLI = path.join(PKG, "cli.js");
export const SHARED = path.resolve(ROOT, "..", "shared");

export function assertBuilt() {
  for (const f of ["skillwasm.js", "skillwasm_bg.wasm", "skillwasm_extra.js", "skillwasm_extra_bg.wasm", "node.js", "cli.js", "package.json"]) {
    if (!existsSync(path.join(PKG, f))) {
      throw new Error(`pkg/${f} is missing: run \`make build\` before the JS tests`);
    }
  }
}

/** The built package's node entry point, imported in this process. */
export async function importPkg() {
  assertBuilt();
  return import(pathToFileURL(path.join(PKG, "node.js")).href);
}

/** Run the CLI: { status, stdout, stderr }. */
export function runCli(args, opts = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    timeout: 60_000,
    ...opts,
  });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs `script` (an ES module's source) in a fresh Node process, so that what it measures of the
 * package (its wasm memory, say) is its own: `PKG_NODE` and `PKG_GLUE` in its environment are the
 * URLs of the built package's entry point and of the core module's glue. The last line it prints,
 * read as JSON; throws with its stderr when it fails.
 */
export function runFreshModule(script) {
  const env = {
    PATH: process.env.PATH,
    PKG_NODE: pathToFileURL(path.join(PKG, "node.js")).href,
    PKG_GLUE: pathToFileURL(path.join(PKG, "skillwasm.js")).href,
  };
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env, encoding: "utf8", timeout: 120_000 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`the script failed (status ${r.status}, signal ${r.signal}):\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}
