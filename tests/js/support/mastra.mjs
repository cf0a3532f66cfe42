// Mastra (@mastra/core) for its framework test: it asks for Node >= 22.13, so it is not among the
// dev dependencies (the project's own install runs on Node 20); it is installed once under
// target/mastra with the npm registry's ordinary client, and its test runs under the Node 22 of
// node22.mjs. `make setup` runs this file; the test calls mastra() and skips, saying why, only
// when it cannot be had.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const MASTRA_VERSION = "1.71.0";
// The zod it takes as a peer (the same version as the project's own).
const ZOD_VERSION = "4.6.7";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const MASTRA_DIR = path.join(ROOT, "target", "mastra");

function installed() {
  try {
    const pkg = JSON.parse(readFileSync(path.join(MASTRA_DIR, "node_modules", "@mastra", "core", "package.json"), "utf8"));
    return pkg.version === MASTRA_VERSION;
  } catch {
    return false;
  }
}

/** `{ dir }` (a project directory with @mastra/core installed), or `{ skip }` saying why not. */
export function mastra() {
  if (installed()) return { dir: MASTRA_DIR };
  mkdirSync(MASTRA_DIR, { recursive: true });
  if (!existsSync(path.join(MASTRA_DIR, "package.json"))) {
    writeFileSync(path.join(MASTRA_DIR, "package.json"), JSON.stringify({ private: true, type: "module" }));
  }
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `@mastra/core@${MASTRA_VERSION}`, `zod@${ZOD_VERSION}`], {
    cwd: MASTRA_DIR,
    encoding: "utf8",
    timeout: 600_000,
  });
  if (r.status !== 0) return { skip: `npm install @mastra/core@${MASTRA_VERSION} failed (offline?): ${(r.stderr || String(r.error ?? "")).trim().split("\n").pop()}` };
  return installed() ? { dir: MASTRA_DIR } : { skip: `@mastra/core@${MASTRA_VERSION} is not in ${MASTRA_DIR} after npm install` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const got = mastra();
  console.log(got.dir ? `setup: @mastra/core ${MASTRA_VERSION} in ${path.relative(ROOT, got.dir)}` : `setup: @mastra/core ${MASTRA_VERSION} not available: ${got.skip} (its test will be skipped)`);
}
