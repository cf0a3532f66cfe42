// What the tests of the pinning commands share: the CLI run through bash in a real directory, a
// skill's files, and the lockfile read back.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, ROOT } from "../helpers.mjs";

/** `s` quoted for bash. */
export const quote = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;

/** `skillwasm <args>` through bash in `cwd`, with `env` added: { status, stdout, stderr, ms } (never throws). */
export function swWith(env, cwd, ...args) {
  const line = [process.execPath, CLI, ...args].map(quote).join(" ");
  const start = Date.now();
  return new Promise((resolve) => {
    execFile("bash", ["-c", line], { cwd, env: { ...process.env, ...env }, encoding: "utf8", timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (error.code ?? 1) : 0, stdout, stderr, ms: Date.now() - start });
    });
  });
}

/** `skillwasm <args>` through bash in `cwd`. */
export const sw = (cwd, ...args) => swWith({}, cwd, ...args);

/** A skill of three files: SKILL.md, a script and a reference. */
export const SKILL = {
  "SKILL.md": "---\nname: csv-profile\ndescription: Profile CSV files: columns, types, nulls.\n---\n\nRun `scripts/profile.sh <file>`.\n",
  "scripts/profile.sh": "#!/bin/sh\nhead -1 \"$1\"\n",
  "references/types.md": "# Types\n\nint, float, date, text.\n",
};

/** Writes `files` ({ relative path: text }) under `dir`. */
export function writeTree(dir, files) {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
}

/** The project's skills-lock.json, parsed. */
export const lockOf = (dir) => JSON.parse(readFileSync(path.join(dir, "skills-lock.json"), "utf8"));

/** `node mcp-skills-stdio.mjs <dir>`: the skills of <dir> served over MCP on stdio. */
export const STDIO_SERVER = path.join(ROOT, "tests", "js", "support", "mcp-skills-stdio.mjs");
