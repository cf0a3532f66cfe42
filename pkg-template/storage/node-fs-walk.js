// The walk behind nodeFsStorage's listings (`list` and `listSkillPrefixes`): depth first, in key
// order, a page at a time. Each directory's entries are sorted by name with "/" appended to the
// directories' names, so the walk meets the keys in the contract's order (JS `<` on the whole key)
// without sorting the listing: a file `a.md` comes before the directory `a/`'s keys, which come
// before `a0`. A call serves one page and keeps where it stopped, so no single call walks a whole
// large tree: a call reads the directories its page needs (and one more key, to know whether
// another page follows), at most MAX_DIRS_PER_CALL of them.
//
// The walk is written once, as generators that name the file-system calls they need; `list` runs
// them with node:fs/promises (calls of the next directories overlap in libuv's thread pool) and
// `listSkillPrefixes` with node:fs's synchronous calls (no promise, timer or thread-pool hop per
// file). The rules: links are followed while their real path stays inside the root; loops, links
// leaving the root, dangling links, unreadable directories, names that are not valid keys or not
// UTF-8, and what is neither a regular file nor a directory are warnings.
import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { keyProblem } from "./keys.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
// Directories read ahead of the asynchronous walk, looked for among at most READ_AHEAD_SCAN of
// the items the walk meets next.
const READ_AHEAD = 24;
const READ_AHEAD_SCAN = 256;
/** Most directories one call reads before it answers with the page it has. */
export const MAX_DIRS_PER_CALL = 4096;

const why = (e) => e?.code ?? e?.message ?? e;
const byOrder = (a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0);
const byKey = (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Whether the real path `real` is the root or inside it. */
export function inside(rootReal, real) {
  return real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
}

/**
 * A directory's entries, names as strings: read as text (far cheaper than one Buffer per name);
 * a directory where one holds U+FFFD (what Node makes of bytes that are not UTF-8) is read again
 * as bytes, and the names that do not decode are marked `notUtf8` (shown with U+FFFD).
 */
function namedEntries(dirents, again) {
  if (!dirents.some((d) => d.name.includes("\uFFFD"))) return dirents;
  return again().map((d) => {
    let name;
    let notUtf8 = false;
    try {
      name = utf8.decode(d.name);
    } catch {
      name = d.name.toString("utf8");
      notUtf8 = true;
    }
    return { name, notUtf8, isDirectory: () => d.isDirectory(), isFile: () => d.isFile(), isSymbolicLink: () => d.isSymbolicLink() };
  });
}

const SYNC = {
  readdir: (p) => namedEntries(readdirSync(p, { withFileTypes: true }), () => readdirSync(p, { withFileTypes: true, encoding: "buffer" })),
  realpath: (p) => realpathSync(p),
  stat: (p) => statSync(p),
  lstat: (p) => lstatSync(p),
};
const ASYNC = {
  readdir: async (p) => {
    const first = await readdir(p, { withFileTypes: true });
    if (!first.some((d) => d.name.includes("\uFFFD"))) return first;
    const again = await readdir(p, { withFileTypes: true, encoding: "buffer" });
    return namedEntries(first, () => again);
  },
  realpath: (p) => realpath(p),
  stat: (p) => stat(p),
  lstat: (p) => lstat(p),
};

/** Runs a walk generator with synchronous calls: each `yield [op, path]` gets `{ ok }` or `{ err }`. */
export function runSync(gen) {
  let r = gen.next();
  while (!r.done) {
    let answer;
    try {
      answer = { ok: SYNC[r.value[0]](r.value[1]) };
    } catch (e) {
      answer = { err: e };
    }
    r = gen.next(answer);
  }
  return r.value;
}

/** As {@link runSync}, with node:fs/promises. Never rejects for a failed call. */
export async function runAsync(gen) {
  let r = gen.next();
  while (!r.done) {
    let answer;
    try {
      answer = { ok: await ASYNC[r.value[0]](r.value[1]) };
    } catch (e) {
      answer = { err: e };
    }
    r = gen.next(answer);
  }
  return r.value;
}

/**
 * The start of a listing under `prefix` below the root directory `root`: `{ rootReal, ancestors }`
 * (the real paths from the root down to the prefix's directory), or `{ warnings }` when there is
 * nothing to walk (each warning says why; none for a prefix that names no directory).
 * @param {string} root
 * @param {string} prefix
 */
export function* walkStart(root, prefix) {
  const none = (message) => ({ warnings: message === undefined ? [] : [{ key: prefix, message }] });
  const rootReal = yield ["realpath", root];
  if (rootReal.err !== undefined) {
    const code = rootReal.err?.code;
    if (code === "ENOENT" || code === "ENOTDIR") return none(`the storage root directory ${root} does not exist`);
    throw rootReal.err;
  }
  const rootStat = yield ["stat", rootReal.ok];
  if (rootStat.err !== undefined) throw rootStat.err;
  if (!rootStat.ok.isDirectory()) return none(`the storage root ${root} is not a directory`);
  // The directories the prefix names: each may itself be a link, so resolve each and check that
  // it stays inside the root; a link below that leads back to any of them is a loop.
  const parts = prefix.split("/").filter((s) => s !== "");
  const ancestors = [rootReal.ok];
  for (let i = 1; i <= parts.length; i++) {
    const r = yield ["realpath", path.join(root, ...parts.slice(0, i))];
    if (r.err !== undefined) {
      const code = r.err?.code;
      if (code === "ENOENT" || code === "ENOTDIR") return none();
      return none(code === "ELOOP" ? "symbolic link loop" : `cannot resolve the prefix: ${why(r.err)}`);
    }
    ancestors.push(r.ok);
  }
  if (ancestors.some((a) => !inside(rootReal.ok, a))) return none("symbolic link leads outside the storage root");
  const st = yield ["stat", ancestors[ancestors.length - 1]];
  if (st.err !== undefined) return none(`cannot stat the prefix: ${why(st.err)}`);
  if (!st.ok.isDirectory()) return none();
  return { rootReal: rootReal.ok, ancestors };
}

/**
 * One directory's entries, sorted: `{ order, key, entry }` for a file (its listing entry) and
 * `{ order, key, real, up }` for a directory to walk (`key` ends with "/", `up` the real paths
 * down to it), and the warnings about what was left out.
 * @param {{ rootReal: string; skip: { skips(name: string): boolean } | null; fileEntry: FileEntry }} walk
 * @param {string} dirReal the directory's real path
 * @param {string} keyPrefix the keys' prefix for its children ("" or ends with "/")
 * @param {string[]} up real paths of the directories from the root down to it (loop detection)
 */
function* readDirectory(walk, dirReal, keyPrefix, up) {
  const { rootReal, skip, fileEntry } = walk;
  const items = [];
  const warnings = [];
  const listed = yield ["readdir", dirReal];
  if (listed.err !== undefined) {
    warnings.push({ key: keyPrefix, message: `cannot read directory: ${why(listed.err)}` });
    return { items, warnings };
  }
  const sep = dirReal.endsWith(path.sep) ? "" : path.sep;
  const only = fileEntry.only ?? null;
  for (const d of listed.ok) {
    const name = d.name;
    // A file the listing does not want is passed over unseen: no check, no call, no warning.
    if (only !== null && d.isFile() && !only.has(name)) continue;
    if (d.notUtf8) {
      warnings.push({ key: keyPrefix + name, message: "file name is not valid UTF-8" });
      continue;
    }
    // A directory the caller drops anyway is not entered (a link to one is checked below).
    if (skip !== null && d.isDirectory() && skip.skips(name)) continue;
    const key = keyPrefix + name;
    // The prefix is a valid key prefix (ends with "/"), so the key is valid when its last
    // segment is: the rule is checked on the name alone.
    const problem = keyProblem(name);
    if (problem !== null) {
      warnings.push({ key, message: `not a valid storage key: ${problem}` });
      continue;
    }
    // dirReal is a real path (absolute, normalised) and name one segment: no join needed.
    let real = dirReal + sep + name;
    let isDir = d.isDirectory();
    let isFile = d.isFile();
    let st = null;
    if (d.isSymbolicLink()) {
      const r = yield ["realpath", real];
      if (r.err !== undefined) {
        const code = r.err?.code;
        const message = code === "ELOOP" ? "symbolic link loop"
          : code === "ENOENT" ? "dangling symbolic link"
          : `cannot resolve symbolic link: ${why(r.err)}`;
        warnings.push({ key, message });
        continue;
      }
      real = r.ok;
      if (!inside(rootReal, real)) {
        warnings.push({ key, message: "symbolic link leads outside the storage root" });
        continue;
      }
      const s = yield ["stat", real];
      if (s.err !== undefined) {
        warnings.push({ key, message: `cannot stat link target: ${why(s.err)}` });
        continue;
      }
      st = s.ok;
      isDir = st.isDirectory();
      isFile = st.isFile();
      if (isDir && up.includes(real)) {
        warnings.push({ key, message: "symbolic link loop" });
        continue;
      }
    }
    if (isDir) {
      if (skip !== null && skip.skips(name)) continue;
      items.push({ order: `${name}/`, key: `${key}/`, real, up: [...up, real] });
    } else if (isFile) {
      // A link to a file the listing does not want (a link to a directory is walked).
      if (only !== null && !only.has(name)) continue;
      if (st === null && (fileEntry.stats || fileEntry.statNames?.has(name))) {
        const s = yield ["lstat", real];
        if (s.err !== undefined) {
          warnings.push({ key, message: `cannot stat file: ${why(s.err)}` });
          continue;
        }
        st = s.ok;
      }
      items.push({ order: name, key, entry: fileEntry.make(key, name, real, st) });
    } else if (only === null || only.has(name)) {
      warnings.push({ key, message: "not a regular file or directory" });
    }
  }
  items.sort(byOrder);
  return { items, warnings };
}

/**
 * @typedef {{ stats: boolean; statNames?: Set<string> | null;
 *   make(key: string, name: string, real: string, st: import("node:fs").Stats | null): object;
 *   only?: Set<string> | null; directories?: boolean }} FileEntry
 * What a listing makes of a regular file: `stats` asks for an lstat of each, `statNames` of each
 * file with one of those names (a link's target is always stat'ed), `make` the entry. With `only`, the files with other names are left out
 * (unchecked, unwarned; what is neither file nor directory too); with `directories`, each
 * directory entered below the prefix is an entry `{ key: "<dir>/", directory: true }`, in key
 * order, before what it holds.
 */

/**
 * A walk of the subtree under a prefix, started by {@link walkStart}, serving its files a page at
 * a time in key order, after the key `after` (from the start when undefined). Use it with
 * {@link pageSync} or {@link pageAsync}.
 * @param {{ rootReal: string; ancestors: string[]; prefix: string; after?: string;
 *   skip: { skips(name: string): boolean } | null; maxEntries: number; fileEntry: FileEntry }} init
 */
export function openWalk({ rootReal, ancestors, prefix, after, skip, maxEntries, fileEntry }) {
  const top = { key: prefix, real: ancestors[ancestors.length - 1], up: ancestors };
  return {
    dir: { rootReal, skip, fileEntry },
    prefix,
    after,
    maxEntries,
    // Frames of the depth-first walk: a directory's sorted items and the index of the next one.
    frames: [{ items: [top], i: 0 }],
    listed: 0,
    // The first entry of the next page, met while finding out whether one follows.
    peeked: null,
    finished: false,
  };
}

/** Whether a directory item (its key ends with "/") may hold keys after `after`. */
const wanted = (walk, key) => walk.after === undefined || key > walk.after || walk.after.startsWith(key);

/**
 * The page maker shared by both ways of running a walk: yields each directory item it must enter
 * (answered with what {@link readDirectory} made of it) and returns the page: `{ entries,
 * warnings, done }`.
 */
function* fill(walk, limit) {
  const entries = walk.peeked === null ? [] : [walk.peeked];
  walk.peeked = null;
  const warnings = [];
  let dirs = 0;
  while (!walk.finished && entries.length <= limit && dirs < MAX_DIRS_PER_CALL) {
    const frame = walk.frames[walk.frames.length - 1];
    if (frame === undefined) {
      walk.finished = true;
      break;
    }
    if (frame.i >= frame.items.length) {
      walk.frames.pop();
      continue;
    }
    const item = frame.items[frame.i++];
    if (item.entry !== undefined) {
      if (walk.after !== undefined && item.key <= walk.after) continue;
      if (walk.listed >= walk.maxEntries) {
        warnings.push({ key: walk.prefix, message: `listing stopped after ${walk.maxEntries} files (maxEntries)` });
        walk.finished = true;
        break;
      }
      walk.listed++;
      entries.push(item.entry);
      continue;
    }
    if (!wanted(walk, item.key)) continue;
    if (walk.dir.fileEntry.directories && item.key !== walk.prefix && (walk.after === undefined || item.key > walk.after)) {
      if (walk.listed >= walk.maxEntries) {
        warnings.push({ key: walk.prefix, message: `listing stopped after ${walk.maxEntries} files (maxEntries)` });
        walk.finished = true;
        break;
      }
      walk.listed++;
      entries.push({ key: item.key, directory: true });
    }
    const got = yield item;
    dirs++;
    for (const w of got.warnings) warnings.push(w);
    if (got.items.length > 0) walk.frames.push({ items: got.items, i: 0 });
  }
  // One key more than the page holds: the next page's first, and the proof that one follows.
  if (entries.length > limit) {
    walk.peeked = entries.pop();
    walk.listed--;
  }
  warnings.sort(byKey);
  return { entries, warnings, done: walk.finished && walk.peeked === null };
}

/** The next page of `walk`, made with synchronous calls. */
export function pageSync(walk, limit) {
  const gen = fill(walk, limit);
  let r = gen.next();
  while (!r.done) r = gen.next(runSync(readDirectory(walk.dir, r.value.real, r.value.key, r.value.up)));
  return r.value;
}

/** The next page of `walk`, made with node:fs/promises; the next directories are read ahead. */
export async function pageAsync(walk, limit) {
  const begin = (item) => {
    item.read ??= runAsync(readDirectory(walk.dir, item.real, item.key, item.up));
    return item.read;
  };
  const gen = fill(walk, limit);
  let r = gen.next();
  while (!r.done) {
    const item = r.value;
    const read = begin(item);
    readAhead(walk, begin);
    const got = await read;
    item.read = undefined;
    r = gen.next(got);
  }
  return r.value;
}

/** Starts reading the next directories the walk will enter, so that their calls overlap. */
function readAhead(walk, begin) {
  let started = 0;
  let scanned = 0;
  for (let f = walk.frames.length - 1; f >= 0 && started < READ_AHEAD && scanned < READ_AHEAD_SCAN; f--) {
    const { items, i } = walk.frames[f];
    for (let j = i; j < items.length && started < READ_AHEAD && scanned < READ_AHEAD_SCAN; j++, scanned++) {
      const it = items[j];
      if (it.entry === undefined && wanted(walk, it.key)) {
        begin(it);
        started++;
      }
    }
  }
}
