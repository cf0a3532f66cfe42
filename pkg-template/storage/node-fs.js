// Storage over a directory of the local filesystem (Node only: node:fs/promises).
import { constants } from "node:fs";
import { open, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import {
  assertKey, assertPrefix, byteLimit, cursorOption, keyProblem, objectCap, objectTooLarge, overCap, pageLimit,
  skipOption,
} from "./keys.js";
import { optionsObject, show } from "./keys.js";
import { filesOption, listOnlyOption, packedOption, prefixBytesOption, readHead, statEntry } from "./node-fs-prefixes.js";
import { inside, openWalk, pageAsync, pageSync, runAsync, runSync, walkStart } from "./node-fs-walk.js";

/**
 * @typedef {import("../index.js").SkillStorage} SkillStorage
 * @typedef {import("../index.js").ListPage} ListPage
 * @typedef {import("../index.js").ListEntry} ListEntry
 * @typedef {{ key: string; message: string }} ListWarning
 */

const DEFAULT_LIMIT = 1000;
// A packed page holds at most this many bytes of heads (room for all of them is taken at once);
// a page that could need more is answered with its heads in its entries.
const MAX_PACKED_HEAD_BYTES = 32 * 1024 * 1024;
// What a headError line of a packed page must not hold (its separators among them).
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
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

/** What `list` makes of a regular file: its key, size and etag, from an lstat (a link's target: a stat). */
const STAT_FILES = { stats: true, make: (key, name, real, st) => statEntry(key, st) };

/**
 * What `listSkillPrefixes` makes of a regular file: the files `files` names keep the real path
 * their head is read from (`real`, not sent to the caller), with no stat; with `only` (listOnly),
 * the other files it names get a size and an etag from a stat (a refresh asks with no `files`,
 * and tells the unchanged skill files by them), the files it does not name are not listed, and
 * each directory entered is; without, the other files carry their key alone.
 * @param {Set<string>} files
 * @param {Set<string> | null} only
 */
const headFiles = (files, only) => {
  const names = only === null ? [] : [...only].filter((n) => !files.has(n));
  const statNames = names.length > 0 ? new Set(names) : null;
  return {
    stats: false,
    statNames,
    make: (key, name, real, st) => {
      if (files.has(name)) return { key, real };
      return st !== null && statNames?.has(name) ? statEntry(key, st) : { key };
    },
    only: only === null ? null : new Set([...only, ...files]),
    directories: only !== null,
  };
};

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
 * - `list(prefix)` walks the subtree under `prefix` depth first, in key order, a page at a time
 *   (readdir per directory, stat per symbolic link, stat per file for its size and mtime; the calls
 *   of a directory's entries overlap, and so do those of the next directories the walk enters).
 *   Each call walks only as far as its page needs (and reads at most 4096 directories), and keeps
 *   where it stopped for the next page: the cursor names it. Costs of one listing: a realpath and a
 *   stat of the root, one readdir per directory + one stat per file and per link, whatever the
 *   page size. (The stat per file gives the size that the core and the size cap use, and the etag
 *   that `refresh()` compares.) The warnings of a page are those the walk met while making it.
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
  options = optionsObject(options, "nodeFsStorage", { keys: ["maxEntries", "maxObjectBytes", "listSkillPrefixes"] });
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
   * The walk a page of `list` or `listSkillPrefixes` continues: `{ id, w }`, the kept walk when the
   * cursor names one (same prefix, skip hint and kind, not serving another page now), else a fresh
   * walk that starts after the cursor's last key (from the start for a first page). A cursor is
   * "<walk id>:<pages served>:<last key returned, or empty before the first key>".
   */
  function walkFor(prefix, cursor, skipId, kind) {
    let last;
    if (cursor !== undefined) {
      const m = /^(\d+):(\d+):(.*)$/s.exec(cursor);
      // The last key returned: a file's, or a directory's (`dir/`, a listing with listOnly).
      const lastKey = m?.[3].endsWith("/") ? m[3].slice(0, -1) : m?.[3];
      if (m === null || (m[3] !== "" && (keyProblem(lastKey) !== null || !m[3].startsWith(prefix)))) {
        throw new TypeError(`invalid list cursor for prefix ${JSON.stringify(prefix)}`);
      }
      last = m[3] === "" ? undefined : m[3];
      const w = walks.get(m[1]);
      if (w !== undefined && w.kind === kind && w.prefix === prefix && w.skipId === skipId && !w.busy
        && String(w.pages) === m[2] && w.last === m[3]) {
        walks.delete(m[1]);
        return { id: m[1], w };
      }
    }
    const w = { kind, prefix, skipId, pages: 0, last: last ?? "", busy: false, expires: 0, walk: undefined, rootReal: null, warnings: [] };
    return { id: String(++walkCounter), w };
  }

  /**
   * Starts the fresh walk `w` from what {@link walkStart} found: the walk after its last key, or
   * none, with the warnings that say why.
   */
  function begin(w, begun, skip, fileEntry) {
    if (begun.warnings !== undefined) {
      w.walk = null;
      w.warnings = begun.warnings;
      return;
    }
    w.walk = openWalk({ ...begun, prefix: w.prefix, after: w.last === "" ? undefined : w.last, skip, maxEntries, fileEntry });
    w.rootReal = begun.rootReal;
  }

  /**
   * `page` (what the walk's page `got` holds, as entries or packed) with the warnings and the
   * cursor of `got`; the walk is kept when more follow.
   */
  function served(id, w, got, page) {
    const warnings = w.warnings.length > 0 ? [...w.warnings.splice(0), ...got.warnings] : got.warnings;
    if (warnings.length > 0) page.warnings = warnings;
    if (!got.done) {
      const now = Date.now();
      w.pages += 1;
      if (got.entries.length > 0) w.last = got.entries[got.entries.length - 1].key;
      page.cursor = `${id}:${w.pages}:${w.last}`;
      dropExpired(now);
      w.expires = now + WALK_TTL_MS;
      walks.set(id, w);
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
      const { id, w } = walkFor(prefix, cursor, skip?.id ?? "", "list");
      if (w.walk === undefined) begin(w, await runAsync(walkStart(root, prefix)), skip, STAT_FILES);
      w.busy = true;
      let got;
      try {
        got = w.walk === null ? { entries: [], warnings: [], done: true } : await pageAsync(w.walk, limit);
      } finally {
        w.busy = false;
      }
      return served(id, w, got, { entries: got.entries });
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
  if (offerPrefixes) {
    store.listSkillPrefixes = listSkillPrefixes;
    // Each head is a read of the file, and the files listOnly names get a stat: a refresh asks
    // for no heads and reads only what changed.
    store.headsCostReads = true;
  }
  return store;

  /**
   * A page of the listing under `prefix` whose entries for the files `files` names carry their
   * first `prefixBytes` bytes (`head`) or why they could not be read (`headError`); other entries
   * carry only their key. Made with synchronous calls: it answers a page, not a promise, and holds
   * the event loop while it walks its page and reads the heads of it. With `packed: true` the
   * page is `{ packed: { lines, heads }, cursor?, warnings? }` (PackedSkillPrefixPage in the
   * types): one line per entry and the heads read straight into one buffer, so a page crosses into
   * the core as one string and one buffer. With `listOnly` (file names), only the files with
   * those names (and the `files`) are listed: the other files of a directory cost no call, no
   * check and no entry, and each directory entered below the prefix is named instead (its key
   * and a `/`: in `directories`, or as a line of a packed page), so a caller still counts them.
   * @param {string} prefix
   * @param {{ cursor?: string; limit?: number; skip?: import("../index.js").ListSkip; files?: string[]; prefixBytes?: number;
   *   packed?: boolean; listOnly?: string[] }} [opts]
   */
  function listSkillPrefixes(prefix, opts = {}) {
    assertPrefix(prefix);
    opts = optionsObject(opts, "listSkillPrefixes", { param: "opts" });
    const limit = pageLimit(opts.limit, DEFAULT_LIMIT);
    const cursor = cursorOption(opts.cursor);
    const skip = skipOption(opts.skip);
    const files = filesOption(opts.files);
    const prefixBytes = prefixBytesOption(opts.prefixBytes, cap);
    const packed = packedOption(opts.packed);
    const only = listOnlyOption(opts.listOnly);
    const skipId = `${skip?.id ?? ""}|${[...files].sort().join("/")}|${only === null ? "*" : [...only].sort().join("/")}`;
    const { id, w } = walkFor(prefix, cursor, skipId, "prefixes");
    if (w.walk === undefined) begin(w, runSync(walkStart(root, prefix)), skip, headFiles(files, only));
    const got = w.walk === null ? { entries: [], warnings: [], done: true } : pageSync(w.walk, limit);
    let heads = 0;
    for (const e of got.entries) if (e.real !== undefined) heads++;
    if (!packed || heads * prefixBytes > MAX_PACKED_HEAD_BYTES) {
      const entries = [];
      const directories = [];
      for (const e of got.entries) {
        if (e.directory) directories.push(e.key);
        else if (e.real !== undefined) entries.push(readHead(e, w.rootReal, prefixBytes, cap));
        else entries.push(e.size === undefined ? { key: e.key } : { key: e.key, size: e.size, etag: e.etag });
      }
      return served(id, w, got, only === null ? { entries } : { entries, directories });
    }
    // Packed: one line per entry (a directory's key ends with "/"), and every head read straight
    // into one buffer.
    const into = { buf: Buffer.allocUnsafe(heads * prefixBytes), at: 0 };
    const lines = [];
    for (const e of got.entries) {
      if (e.real === undefined) {
        lines.push(e.size === undefined ? e.key : `${e.key}\t${e.size}\t${e.etag}`);
        continue;
      }
      const h = readHead(e, w.rootReal, prefixBytes, cap, into);
      const meta = `${h.key}\t${h.size ?? ""}\t${h.etag ?? ""}\t`;
      lines.push(h.headError === undefined ? meta + h.length : `${meta}!${h.headError.replace(CONTROLS, " ")}`);
    }
    return served(id, w, got, { packed: { lines: lines.join("\n"), heads: into.buf.subarray(0, into.at) } });
  }
}
