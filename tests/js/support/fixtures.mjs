// Node-side helpers for the storage tests: temp directories, writing a key -> content map to disk.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export function tempDir(tag) {
  return mkdtempSync(path.join(tmpdir(), `skillwasm-${tag}-`));
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Write key -> content (string or bytes) under dir, creating directories. */
export function writeTree(dir, files) {
  for (const [key, content] of Object.entries(files)) {
    const file = path.join(dir, ...key.split("/"));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}
