// FastMCP (PyPI `fastmcp`, the Python MCP framework) in a virtual environment under
// target/fastmcp-venv, pinned, for the MCP interop tests: its server and its client speak the
// Skills extension at MCP 2026-07-28. `make setup` runs this file (one line; exit 1, saying why,
// when it cannot be installed); the tests call fastmcp(), which installs it when missing and
// skips, saying why, only when it cannot be had and CI is not set.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const FASTMCP_VERSION = "4.2.3";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const VENV = path.join(ROOT, "target", "fastmcp-venv");
const PYTHON = path.join(VENV, "bin", "python");

function installed() {
  if (!existsSync(PYTHON)) return null;
  const r = spawnSync(PYTHON, ["-c", "import fastmcp; print(fastmcp.__version__)"], { encoding: "utf8", timeout: 60_000 });
  return r.status === 0 ? r.stdout.trim() : null;
}

function tail(r) {
  return `${r.error?.message ?? ""}${r.stderr ?? ""}`.trim().split("\n").pop();
}

/** `{ python }` of a venv with fastmcp==FASTMCP_VERSION (installed once), or `{ error }`. */
export function installFastmcp() {
  if (installed() === FASTMCP_VERSION) return { python: PYTHON };
  if (!existsSync(PYTHON)) {
    rmSync(VENV, { recursive: true, force: true });
    const venv = spawnSync("python3", ["-m", "venv", VENV], { encoding: "utf8", timeout: 120_000 });
    if (venv.status !== 0) return { error: `python3 -m venv failed: ${tail(venv)}` };
  }
  const pip = spawnSync(PYTHON, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `fastmcp==${FASTMCP_VERSION}`], { encoding: "utf8", timeout: 600_000 });
  if (pip.status !== 0) return { error: `pip install fastmcp==${FASTMCP_VERSION} failed (offline?): ${tail(pip)}` };
  const got = installed();
  return got === FASTMCP_VERSION ? { python: PYTHON } : { error: `fastmcp ${got ?? "(none)"} imports, not ${FASTMCP_VERSION}` };
}

/** For the tests: `{ python }`, or `{ skip }` when FastMCP cannot be had outside CI (in CI, it throws). */
export function fastmcp() {
  const got = installFastmcp();
  if (got.python) return got;
  if (process.env.CI) throw new Error(`FastMCP ${FASTMCP_VERSION} is needed in CI: ${got.error}`);
  return { skip: `FastMCP ${FASTMCP_VERSION} not available: ${got.error}` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const got = installFastmcp();
  if (got.python) {
    console.log(`setup: fastmcp ${FASTMCP_VERSION} in ${path.relative(ROOT, VENV)}`);
  } else {
    console.log(`setup: fastmcp ${FASTMCP_VERSION} could not be installed in ${path.relative(ROOT, VENV)}: ${got.error}`);
    process.exit(1);
  }
}
