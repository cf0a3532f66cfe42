// Storage over a directory of the local filesystem (Node only: node:fs/promises).
import { constants } from "node:fs";
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { assertKey, assertPrefix, byteLimit, cursorOption, keyProblem, pageLimit } from "./keys.js";

/**
 * @typedef {import("../index.js").SkillStorage} SkillStorage
 * @typedef {import("../index.js").ListPage} ListPage
 * @typedef {import("../index.js").ListEntry} ListEntry
 * @typedef {{ key: string; message: string }} ListWarning
 */

const DEFAULT_LIMIT = 1000;
// Walks kept for their next pages: at most this many, each for at most WALK_TTL_MS after its last
// page was served. A cursor whose walk is gone is still honoured: the directory is walked again and
// the listing resumes after the last key returned.
const MAX_WALKS = 16;
const WALK_TTL_MS = 5 * 60_000;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A store over the directory `dir`. Keys are paths relative to `dir` with `/` separators.
 *
 * - `list(prefix)` walks the subtree under `prefix` once (readdir per directory, stat per symbolic
 *   link, stat per file for its size and mtime; the calls of a directory's entries overlap), sorts
 *   the keys, serves the first page, and keeps the
 *   walk for the following pages: the cursor names it, so later pages cost no I/O. Costs of one
 *   listing: one readdir per directory + one stat per file and per link, whatever the page size.
 * - Symbolic links (to files and to directories) are followed when their real path stays inside the
 *   real path of `dir`. A link leaving the root, a dangling link, a link loop, an unreadable
 *   directory, a name that is not a valid key or not UTF-8, and anything that is not a regular file
 *   or a directory (FIFO, socket, device) are left out and reported in the page's `warnings`.
 * - `size` comes from stat, `etag` is `${size}-${mtimeMs}`.
 * - `read(key, { maxBytes })`: realpath + open + fstat + one read of at most `maxBytes` bytes (the
 *   whole file only without `maxBytes`). A missing key or a directory is `null`; a key that resolves
 *   outside the root, a non-regular file or an unreadable file throws (the core turns that into a
 *   diagnostic for the skill).
 *
 * @param {string} dir the root directory
 * @param {{ maxEntries?: number }} [options] `maxEntries` (default 1,000,000) bounds one listing, so
 *   a tree of links that multiplies paths cannot exhaust memory; hitting it is a warning.
 * @returns {SkillStorage & { readonly root: string }}
 */
export function nodeFsStorage(dir, options = {}) {
  if (typeof dir !== "string" || dir === "") throw new TypeError("nodeFsStorage: dir must be a non-empty path");
  const root = path.resolve(dir);
  const maxEntries = options.maxEntries ?? 1_000_000;

  /** @type {Map<string, { prefix: string; entries: ListEntry[]; warnings: ListWarning[]; expires: number }>} */
  const walks = new Map();
  let walkCounter = 0;

  function dropExpired(now) {
    for (const [id, w] of walks) if (w.expires < now) walks.delete(id);
    while (walks.size >= MAX_WALKS) walks.delete(walks.keys().next().value);
  }

  async function rootReal() {
    try {
      return await realpath(root);
    } catch (e) {
      if (e?.code === "ENOENT" || e?.code === "ENOTDIR") return null;
      throw e;
    }
  }

  function inside(rootRealPath, real) {
    return real === rootRealPath || real.startsWith(rootRealPath + path.sep);
  }

  /**
   * Every regular file under `prefix`, sorted, with the warnings of the walk.
   * @param {string} prefix
   */
  async function walk(prefix) {
    /** @type {ListEntry[]} */
    const entries = [];
    /** @type {ListWarning[]} */
    const warnings = [];
    const rootRealPath = await rootReal();
    if (rootRealPath === null) return { entries, warnings };

    // The directory the prefix names: each component may itself be a link, so resolve it and check
    // that it stays inside the root.
    const start = path.join(root, ...prefix.split("/").filter((s) => s !== ""));
    let startReal;
    try {
      startReal = await realpath(start);
    } catch (e) {
      if (e?.code === "ENOENT" || e?.code === "ENOTDIR") return { entries, warnings };
      if (e?.code === "ELOOP") {
        warnings.push({ key: prefix, message: "symbolic link loop" });
        return { entries, warnings };
      }
      throw e;
    }
    if (!inside(rootRealPath, startReal)) {
      warnings.push({ key: prefix, message: "symbolic link leads outside the storage root" });
      return { entries, warnings };
    }
    const startStat = await stat(startReal);
    if (!startStat.isDirectory()) return { entries, warnings };
    // The real paths of the directories from the root down to the start: a link below the start
    // that leads back to any of them is a loop, as it would be in a walk from the root.
    const ancestors = [rootRealPath];
    const parts = prefix.split("/").filter((s) => s !== "");
    for (let i = 1; i <= parts.length; i++) {
      ancestors.push(i === parts.length ? startReal : await realpath(path.join(root, ...parts.slice(0, i))));
    }

    let truncated = false;
    /**
     * @param {string} fsDir the directory's path through the links followed so far
     * @param {string} keyPrefix the keys' prefix for its children ("" or ends with "/")
     * @param {string[]} ancestors real paths of the directories on the way here (loop detection)
     */
    async function visit(fsDir, keyPrefix, ancestors) {
      let dirents;
      try {
        dirents = await readdir(fsDir, { withFileTypes: true, encoding: "buffer" });
      } catch (e) {
        warnings.push({ key: keyPrefix, message: `cannot read directory: ${e?.code ?? e?.message ?? e}` });
        return;
      }
      // The entries of a directory are handled concurrently (readdir and stat calls overlap in
      // libuv's thread pool); the keys are sorted at the end.
      await Promise.all(dirents.map(async (d) => {
        if (truncated) return;
        let name;
        try {
          name = utf8.decode(d.name);
        } catch {
          warnings.push({ key: keyPrefix + d.name.toString("utf8"), message: "file name is not valid UTF-8" });
          return;
        }
        const key = keyPrefix + name;
        const problem = keyProblem(key);
        if (problem !== null) {
          warnings.push({ key, message: `not a valid storage key: ${problem}` });
          return;
        }
        const fsPath = path.join(fsDir, name);
        let isDir = d.isDirectory();
        let isFile = d.isFile();
        let real = null;
        if (d.isSymbolicLink()) {
          try {
            real = await realpath(fsPath);
          } catch (e) {
            const message = e?.code === "ELOOP" ? "symbolic link loop"
              : e?.code === "ENOENT" ? "dangling symbolic link"
              : `cannot resolve symbolic link: ${e?.code ?? e?.message ?? e}`;
            warnings.push({ key, message });
            return;
          }
          if (!inside(rootRealPath, real)) {
            warnings.push({ key, message: "symbolic link leads outside the storage root" });
            return;
          }
          let st;
          try {
            st = await stat(real);
          } catch (e) {
            warnings.push({ key, message: `cannot stat link target: ${e?.code ?? e?.message ?? e}` });
            return;
          }
          isDir = st.isDirectory();
          isFile = st.isFile();
          if (isDir && ancestors.includes(real)) {
            warnings.push({ key, message: "symbolic link loop" });
            return;
          }
          if (isFile) {
            if (entries.length >= maxEntries) { truncated = true; return; }
            entries.push({ key, size: st.size, etag: `${st.size}-${st.mtimeMs}` });
            return;
          }
        }
        if (isDir) {
          const dirReal = real ?? path.join(ancestors[ancestors.length - 1], name);
          await visit(fsPath, `${key}/`, [...ancestors, dirReal]);
        } else if (isFile) {
          let st;
          try {
            st = await lstat(fsPath);
          } catch (e) {
            warnings.push({ key, message: `cannot stat file: ${e?.code ?? e?.message ?? e}` });
            return;
          }
          if (entries.length >= maxEntries) { truncated = true; return; }
          entries.push({ key, size: st.size, etag: `${st.size}-${st.mtimeMs}` });
        } else {
          warnings.push({ key, message: "not a regular file or directory" });
        }
      }));
    }

    await visit(start, prefix, ancestors);
    if (truncated) {
      warnings.push({ key: prefix, message: `listing stopped after ${maxEntries} files (maxEntries)` });
    }
    entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    warnings.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { entries, warnings };
  }

  function firstAfter(entries, key) {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entries[mid].key <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  return {
    root,

    /**
     * @param {string} prefix
     * @param {{ cursor?: string; limit?: number }} [opts]
     * @returns {Promise<ListPage>}
     */
    async list(prefix, opts = {}) {
      assertPrefix(prefix);
      const limit = pageLimit(opts?.limit, DEFAULT_LIMIT);
      const cursor = cursorOption(opts?.cursor);
      const now = Date.now();
      let id;
      let w;
      let start = 0;
      let firstPage = true;
      if (cursor !== undefined) {
        // cursor = "<walk id>:<index of the next entry>:<last key returned>"
        const m = /^(\d+):(\d+):(.+)$/s.exec(cursor);
        if (m === null || keyProblem(m[3]) !== null || !m[3].startsWith(prefix)) {
          throw new TypeError(`invalid list cursor for prefix ${JSON.stringify(prefix)}`);
        }
        const last = m[3];
        firstPage = false;
        id = m[1];
        w = walks.get(id);
        if (w !== undefined && w.prefix === prefix && w.entries[Number(m[2]) - 1]?.key === last) {
          start = Number(m[2]);
        } else {
          w = undefined;
          const fresh = await walk(prefix);
          id = String(++walkCounter);
          w = { prefix, ...fresh, expires: 0 };
          start = firstAfter(w.entries, last);
        }
      } else {
        const fresh = await walk(prefix);
        id = String(++walkCounter);
        w = { prefix, ...fresh, expires: 0 };
      }
      const end = Math.min(start + limit, w.entries.length);
      /** @type {ListPage} */
      const page = { entries: w.entries.slice(start, end) };
      if (firstPage && w.warnings.length > 0) page.warnings = w.warnings;
      if (end < w.entries.length) {
        page.cursor = `${id}:${end}:${w.entries[end - 1].key}`;
        dropExpired(now);
        w.expires = now + WALK_TTL_MS;
        walks.set(id, w);
      } else {
        walks.delete(id);
      }
      return page;
    },

    /**
     * @param {string} key
     * @param {{ maxBytes?: number }} [opts]
     * @returns {Promise<Uint8Array | null>}
     */
    async read(key, opts = {}) {
      assertKey(key);
      const maxBytes = byteLimit(opts?.maxBytes);
      const rootRealPath = await rootReal();
      if (rootRealPath === null) return null;
      let real;
      try {
        real = await realpath(path.join(root, ...key.split("/")));
      } catch (e) {
        if (e?.code === "ENOENT" || e?.code === "ENOTDIR") return null;
        throw e;
      }
      if (!inside(rootRealPath, real)) {
        throw new Error(`${key}: symbolic link leads outside the storage root`);
      }
      let fh;
      try {
        // O_NOFOLLOW: the resolved path must not have become a link since; O_NONBLOCK: opening a
        // FIFO must not wait for a writer (it is refused below).
        fh = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      } catch (e) {
        if (e?.code === "ENOENT") return null;
        if (e?.code === "EISDIR") return null;
        throw e;
      }
      try {
        const st = await fh.stat();
        if (st.isDirectory()) return null;
        if (!st.isFile()) throw new Error(`${key}: not a regular file`);
        const want = maxBytes === undefined ? st.size : Math.min(maxBytes, st.size);
        let buf = new Uint8Array(want);
        let filled = 0;
        while (filled < want) {
          const { bytesRead } = await fh.read(buf, filled, want - filled, filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        if (maxBytes === undefined) {
          // The file may have grown since fstat: read on to the end.
          const chunks = [buf.subarray(0, filled)];
          let total = filled;
          for (;;) {
            const more = new Uint8Array(64 * 1024);
            const { bytesRead } = await fh.read(more, 0, more.length, total);
            if (bytesRead === 0) break;
            chunks.push(more.subarray(0, bytesRead));
            total += bytesRead;
          }
          if (chunks.length > 1) {
            buf = new Uint8Array(total);
            let at = 0;
            for (const c of chunks) { buf.set(c, at); at += c.length; }
            return buf;
          }
        }
        return filled === buf.length ? buf : buf.slice(0, filled);
      } finally {
        await fh.close();
      }
    },
  };
}
