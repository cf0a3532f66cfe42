// Storage over a directory of the local filesystem (Node only: node:fs/promises).
import { constants } from "node:fs";
import { lstat, open, readdir, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import {
  assertKey, assertPrefix, byteLimit, cursorOption, keyProblem, objectCap, objectTooLarge, overCap, pageLimit,
  skipOption,
} from "./keys.js";
import { optionsObject, show } from "./keys.js";
import { filesOption, prefixBytesOption, readHead, walkSync } from "./node-fs-prefixes.js";

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
// The most bytes one read call asks for (far below Node's int32 limit on a read's length).
const READ_CHUNK = 8 * 1024 * 1024;
// A file longer than fstat said is read on in pieces of this size.
const GROW_CHUNK = 64 * 1024;
// Linux names the file behind a descriptor here; elsewhere the descriptor is checked by dev/ino.
const FD_LINKS = "/proc/self/fd/";

/** What kind of file a stat describes, for messages. */
function kindOf(st) {
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** An error for `key` that keeps the system error's code (EACCES, ELOOP, ...). */
function keyed(key, e, what = "cannot read") {
  const err = /** @type {any} */ (new Error(`${key}: ${what}: ${e?.code ?? e?.message ?? e}`));
  if (e?.code !== undefined) err.code = e.code;
  return err;
}

/**
 * A store over the directory `dir`. Keys are paths relative to `dir` with `/` separators.
 *
 * - `list(prefix)` walks the subtree under `prefix` once (readdir per directory, stat per symbolic
 *   link, stat per file for its size and mtime; the calls of a directory's entries overlap), sorts
 *   the keys, serves the first page, and keeps the walk for the following pages: the cursor names
 *   it, so later pages cost no I/O. Costs of one listing: a realpath and a stat of the root, one
 *   readdir per directory + one stat per file and per link, whatever the page size. (The stat per
 *   file gives the size that the core and the size cap use, and the etag that `refresh()` compares.)
 * - Symbolic links (to files and to directories) are followed when their real path stays inside the
 *   real path of `dir`. A link leaving the root, a dangling link, a link loop, an unreadable
 *   directory, a name that is not a valid key or not UTF-8, and anything that is not a regular file
 *   or a directory (FIFO, socket, character or block device) are left out and reported in the
 *   page's `warnings`. A root that does not exist, or is not a directory, is an empty listing with
 *   a warning saying so (keyed by the prefix listed).
 * - `list(prefix, { skip })`: the directories the skip hint names (`names`, and with
 *   `dotDirectories` every name starting with `.`) are not entered below the prefix: no readdir,
 *   no stat of what they hold, nothing listed from them. Discovery sends its own rule this way,
 *   so a skill tree full of `node_modules/` and `.git/` costs a readdir for each of those
 *   directories' parents and nothing more.
 * - `size` comes from stat, `etag` is `${size}-${mtimeMs}`.
 * - `read(key, { maxBytes })`: realpath of the root and of the key's path, one `open` (`O_NOFOLLOW`,
 *   and `O_NONBLOCK` so that opening a FIFO never waits for a writer), one `fstat` of the opened
 *   descriptor, one check that the descriptor is inside the root (on Linux a readlink of
 *   `/proc/self/fd/<fd>`, exact; elsewhere realpath + stat + realpath of the path, the stat
 *   compared with the descriptor's dev/ino, which narrows the window of a swap race to a swap and
 *   a swap back between those calls), then reads of at most min(maxBytes, cap) bytes in all. Without `maxBytes` the file
 *   is read to its end, as it is then, with one more read to find that end, and at most one byte
 *   past the cap to tell a file that grew past it.
 * - What a read answers: `null` for a missing key or a directory. It rejects for a key that is not
 *   a valid key (TypeError), a path that resolves outside the root, a descriptor that turns out to
 *   be outside the root (the path was swapped for a link while it was opened), a FIFO, socket or
 *   device, an unreadable file (the error keeps the system `code`, e.g. EACCES or ELOOP), and a
 *   read that would return more than the cap (`object-too-large`, refused from the fstat size before
 *   a byte is read). The core turns each rejection into a diagnostic for the skill.
 *
 * @param {string} dir the root directory
 * @param {{ maxEntries?: number; maxObjectBytes?: number }} [options] `maxEntries` (default
 *   1,000,000) bounds one listing, so a tree of links that multiplies paths cannot exhaust memory;
 *   hitting it is a warning. `maxObjectBytes`: the size cap (default 16 MiB,
 *   `DEFAULT_MAX_OBJECT_BYTES`).
 * @returns {SkillStorage & { readonly root: string; readonly location: string; readonly maxObjectBytes: number }}
 *   `root` and `location`: the absolute directory (what the model is shown skills' paths under)
 */
export function nodeFsStorage(dir, options = {}) {
  if (typeof dir !== "string" || dir === "") throw new TypeError("nodeFsStorage: dir must be a non-empty path");
  const root = path.resolve(dir);
  options = optionsObject(options, "nodeFsStorage");
  const maxEntries = options.maxEntries ?? 1_000_000;
  if (typeof maxEntries !== "number" || Number.isNaN(maxEntries) || maxEntries < 1) {
    throw new TypeError(`nodeFsStorage: maxEntries must be a positive number, got ${show(maxEntries)}`);
  }
  const cap = objectCap(options.maxObjectBytes, "nodeFsStorage");
  const offerPrefixes = options.listSkillPrefixes ?? true;
  if (typeof offerPrefixes !== "boolean") {
    throw new TypeError(`nodeFsStorage: listSkillPrefixes must be a boolean, got ${show(offerPrefixes)}`);
  }

  /** @type {Map<string, { prefix: string; skipId: string; entries: ListEntry[]; warnings: ListWarning[]; expires: number }>} */
  const walks = new Map();
  let walkCounter = 0;

  function dropExpired(now) {
    for (const [id, w] of walks) if (w.expires < now) walks.delete(id);
    while (walks.size >= MAX_WALKS) walks.delete(walks.keys().next().value);
  }

  /**
   * The kept walk a page of `list` or `listSkillPrefixes` is served from: `{ id, w, start }` when
   * the cursor names one still kept (same prefix, skip hint and kind), else `{ last }`, the key to
   * resume after in a fresh walk (undefined for a first page).
   */
  function keptWalk(prefix, cursor, skipId, kind) {
    if (cursor === undefined) return { last: undefined };
    // cursor = "<walk id>:<index of the next entry>:<last key returned>"
    const m = /^(\d+):(\d+):(.+)$/s.exec(cursor);
    if (m === null || keyProblem(m[3]) !== null || !m[3].startsWith(prefix)) {
      throw new TypeError(`invalid list cursor for prefix ${JSON.stringify(prefix)}`);
    }
    const w = walks.get(m[1]);
    if (w !== undefined && w.prefix === prefix && w.skipId === skipId && w.kind === kind && w.entries[Number(m[2]) - 1]?.key === m[3]) {
      return { id: m[1], w, start: Number(m[2]) };
    }
    return { last: m[3] };
  }

  /** A fresh walk's result as a walk to serve pages from, resuming after `last`. */
  function freshWalk(prefix, skipId, kind, result, last) {
    const w = { prefix, skipId, kind, ...result, expires: 0 };
    return { id: String(++walkCounter), w, start: last === undefined ? 0 : firstAfter(w.entries, last) };
  }

  /** The page of `w` from `start`: at most `limit` entries, its cursor, and the walk kept or dropped. */
  function servePage(id, w, start, limit, firstPage, now, entry = (e) => e) {
    const end = Math.min(start + limit, w.entries.length);
    /** @type {ListPage} */
    const page = { entries: w.entries.slice(start, end).map(entry) };
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
    return real === rootRealPath || real.startsWith(rootRealPath.endsWith(path.sep) ? rootRealPath : rootRealPath + path.sep);
  }

  /**
   * Whether the opened descriptor is a file inside the root. On Linux the kernel says which file
   * the descriptor names (a readlink of /proc/self/fd/<fd>): exact, whatever happened to the path.
   * Elsewhere the path is resolved again around a stat: it must resolve to the same path before
   * and after, and the stat must give the descriptor's dev/ino. That leaves a window only for a
   * swap and a swap back between those calls (no portable Node API opens a path relative to a
   * directory descriptor, which would close it).
   * @param {import("node:fs/promises").FileHandle} fh
   * @param {import("node:fs").Stats} st fstat of fh
   * @param {string} rootRealPath
   * @param {string} real the path that was opened (a real path inside the root)
   */
  async function openedInside(fh, st, rootRealPath, real) {
    let named;
    try {
      named = await readlink(FD_LINKS + fh.fd);
    } catch {
      named = null;
    }
    if (named !== null && path.isAbsolute(named)) return inside(rootRealPath, named);
    try {
      if ((await realpath(real)) !== real) return false;
      const now = await stat(real);
      if (now.dev !== st.dev || now.ino !== st.ino) return false;
      return (await realpath(real)) === real;
    } catch {
      return false;
    }
  }

  /**
   * The first bytes of the opened regular file: at most min(maxBytes, cap), refused when the file
   * turns out to hold more than the cap and the read asked for more than the cap.
   * @param {import("node:fs/promises").FileHandle} fh
   * @param {number} size the fstat size
   * @param {number | undefined} maxBytes
   * @param {string} key
   */
  async function readOpened(fh, size, maxBytes, key) {
    const limit = Math.min(maxBytes ?? Infinity, cap);
    let buf = new Uint8Array(Math.min(size, limit));
    let filled = 0;
    while (filled < buf.length) {
      const { bytesRead } = await fh.read(buf, filled, Math.min(buf.length - filled, READ_CHUNK), filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled < buf.length) return buf.slice(0, filled);
    if (maxBytes !== undefined && maxBytes <= cap) return buf;
    // A whole read (or one asking for more than the cap): the file may be longer than fstat said
    // (it grew, or it is a file whose size reads 0); read on to its end, never past the cap.
    const chunks = [buf];
    let total = filled;
    while (total < limit) {
      const more = new Uint8Array(Math.min(GROW_CHUNK, limit - total));
      const { bytesRead } = await fh.read(more, 0, more.length, total);
      if (bytesRead === 0) break;
      chunks.push(more.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total === limit && (maxBytes === undefined || maxBytes > limit)) {
      const probe = new Uint8Array(1);
      const { bytesRead } = await fh.read(probe, 0, 1, total);
      if (bytesRead > 0) throw objectTooLarge(key, null, cap);
    }
    if (chunks.length === 1) return buf;
    buf = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      buf.set(c, at);
      at += c.length;
    }
    return buf;
  }

  /**
   * Every regular file under `prefix`, sorted, with the warnings of the walk; directories `skip`
   * names are not entered.
   * @param {string} prefix
   * @param {{ skips(name: string): boolean } | null} skip
   */
  async function walk(prefix, skip) {
    /** @type {ListEntry[]} */
    const entries = [];
    /** @type {ListWarning[]} */
    const warnings = [];
    const rootRealPath = await rootReal();
    if (rootRealPath === null) {
      warnings.push({ key: prefix, message: `the storage root directory ${root} does not exist` });
      return { entries, warnings };
    }
    const rootStat = await stat(rootRealPath);
    if (!rootStat.isDirectory()) {
      warnings.push({ key: prefix, message: `the storage root ${root} is not a directory` });
      return { entries, warnings };
    }

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
      warnings.push({ key: prefix, message: `cannot resolve the prefix: ${e?.code ?? e?.message ?? e}` });
      return { entries, warnings };
    }
    if (!inside(rootRealPath, startReal)) {
      warnings.push({ key: prefix, message: "symbolic link leads outside the storage root" });
      return { entries, warnings };
    }
    let startStat;
    try {
      startStat = await stat(startReal);
    } catch (e) {
      warnings.push({ key: prefix, message: `cannot stat the prefix: ${e?.code ?? e?.message ?? e}` });
      return { entries, warnings };
    }
    if (!startStat.isDirectory()) return { entries, warnings };
    // The real paths of the directories from the root down to the start: a link below the start
    // that leads back to any of them is a loop, as it would be in a walk from the root.
    const ancestors = [rootRealPath];
    const parts = prefix.split("/").filter((s) => s !== "");
    try {
      for (let i = 1; i <= parts.length; i++) {
        ancestors.push(i === parts.length ? startReal : await realpath(path.join(root, ...parts.slice(0, i))));
      }
    } catch (e) {
      // The tree changed under the listing.
      warnings.push({ key: prefix, message: `cannot resolve the prefix: ${e?.code ?? e?.message ?? e}` });
      return { entries, warnings };
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
        // A directory the caller drops anyway is not entered (a link to one is checked below).
        if (skip !== null && d.isDirectory() && skip.skips(name)) return;
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
          if (skip !== null && skip.skips(name)) return;
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

  const store = {
    root,
    /** Where the keys are: the absolute root directory (read once when a scope is configured). */
    location: root,
    maxObjectBytes: cap,

    /**
     * @param {string} prefix
     * @param {{ cursor?: string; limit?: number; skip?: import("../index.js").ListSkip }} [opts]
     * @returns {Promise<ListPage>}
     */
    async list(prefix, opts = {}) {
      assertPrefix(prefix);
      opts = optionsObject(opts, "list", { param: "opts" });
      const limit = pageLimit(opts.limit, DEFAULT_LIMIT);
      const cursor = cursorOption(opts.cursor);
      const skip = skipOption(opts.skip);
      const skipId = skip?.id ?? "";
      let k = keptWalk(prefix, cursor, skipId, "list");
      if (k.w === undefined) k = freshWalk(prefix, skipId, "list", await walk(prefix, skip), k.last);
      const { id, w, start } = k;
      return servePage(id, w, start, limit, cursor === undefined, Date.now());
    },

    /**
     * @param {string} key
     * @param {{ maxBytes?: number }} [opts]
     * @returns {Promise<Uint8Array | null>}
     */
    async read(key, opts = {}) {
      assertKey(key);
      const maxBytes = byteLimit(optionsObject(opts, "read", { param: "opts" }).maxBytes);
      const rootRealPath = await rootReal();
      if (rootRealPath === null) return null;
      let real;
      try {
        real = await realpath(path.join(root, ...key.split("/")));
      } catch (e) {
        if (e?.code === "ENOENT" || e?.code === "ENOTDIR") return null;
        throw keyed(key, e, e?.code === "ELOOP" ? "symbolic link loop" : "cannot resolve");
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
        if (e?.code === "ENOENT" || e?.code === "ENOTDIR" || e?.code === "EISDIR") return null;
        if (e?.code === "ELOOP") throw keyed(key, e, "became a symbolic link while being opened");
        if (e?.code === "ENXIO") {
          // Linux refuses to open a socket (and a device with no driver behind it) with ENXIO.
          const kind = await stat(real).then(kindOf, () => "a socket or a device");
          throw new Error(`${key}: not a regular file (${kind}); it was not read`);
        }
        throw keyed(key, e);
      }
      try {
        const st = await fh.stat();
        // Checked on the descriptor: a directory of the path swapped for a link between the
        // realpath and the open must not serve a file from outside.
        if (!(await openedInside(fh, st, rootRealPath, real))) {
          throw new Error(`${key}: the file opened is outside the storage root (the path changed while it was opened)`);
        }
        if (st.isDirectory()) return null;
        if (!st.isFile()) throw new Error(`${key}: not a regular file (${kindOf(st)}); it was not read`);
        if (overCap(st.size, maxBytes, cap)) throw objectTooLarge(key, st.size, cap);
        return await readOpened(fh, st.size, maxBytes, key);
      } catch (e) {
        // A system error of fstat or read (EIO, EISDIR ...) is named for the key; the refusals
        // above are already.
        throw typeof e?.syscall === "string" ? keyed(key, e) : e;
      } finally {
        await fh.close().catch(() => {});
      }
    },
  };
  if (offerPrefixes) store.listSkillPrefixes = listSkillPrefixes;
  return store;

  /**
   * A page of the listing under `prefix` whose entries for the files `files` names carry their
   * first `prefixBytes` bytes (`head`) or why they could not be read (`headError`); other entries
   * carry only their key. Made with synchronous calls: it answers a page, not a promise, and holds
   * the event loop while it walks (on the first page) and reads the heads of its page.
   * @param {string} prefix
   * @param {{ cursor?: string; limit?: number; skip?: import("../index.js").ListSkip; files?: string[]; prefixBytes?: number }} [opts]
   */
  function listSkillPrefixes(prefix, opts = {}) {
    assertPrefix(prefix);
    opts = optionsObject(opts, "listSkillPrefixes", { param: "opts" });
    const limit = pageLimit(opts.limit, DEFAULT_LIMIT);
    const cursor = cursorOption(opts.cursor);
    const skip = skipOption(opts.skip);
    const files = filesOption(opts.files);
    const prefixBytes = prefixBytesOption(opts.prefixBytes, cap);
    const skipId = `${skip?.id ?? ""}|${[...files].sort().join("/")}`;
    let k = keptWalk(prefix, cursor, skipId, "prefixes");
    if (k.w === undefined) k = freshWalk(prefix, skipId, "prefixes", walkSync(root, prefix, skip, files, maxEntries), k.last);
    const { id, w, start } = k;
    return servePage(id, w, start, limit, cursor === undefined, Date.now(), (e) => (
      e.real === undefined ? { key: e.key } : readHead(e, w.rootReal, prefixBytes, cap)
    ));
  }
}
