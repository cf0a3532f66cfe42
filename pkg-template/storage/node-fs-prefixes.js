// `listSkillPrefixes` of nodeFsStorage: a listing whose skill-file entries carry their first bytes,
// made with synchronous calls (node:fs), so that one discovery costs one call per page and no
// promise, timer or thread-pool hop per file. The walk is node-fs-walk.js's; this file holds the
// options and the read of a head. The safety rules are those of the asynchronous
// `list` and `read` (node-fs.js): links are followed only while they stay inside the root, a
// descriptor is checked to be inside the root before a byte is read from it, nothing above the
// size cap is read, and what is left out is a warning.
import { closeSync, constants, fstatSync, openSync, readSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { keyProblem, objectTooLarge } from "./keys.js";
import { inside } from "./node-fs-walk.js";

// Linux names the file behind a descriptor here; elsewhere the descriptor is checked by dev/ino.
const FD_LINKS = "/proc/self/fd/";
// The most file names a request may ask heads for, and the longest such name.
const MAX_FILES = 16;
const MAX_FILE_NAME = 255;

const why = (e) => e?.code ?? e?.message ?? e;

/**
 * A listed file's entry from its stat: its size, and the etag nodeFsStorage gives every file,
 * `size-mtimeMs`.
 * @param {string} key
 * @param {import("node:fs").Stats} st
 */
export function statEntry(key, st) {
  return { key, size: st.size, etag: `${st.size}-${st.mtimeMs}` };
}

/**
 * The `files` option: the file names whose heads are wanted (whole last segments).
 * @param {unknown} files
 * @returns {Set<string>}
 */
export function filesOption(files) {
  if (files === undefined || files === null) return new Set(["SKILL.md"]);
  if (!Array.isArray(files) || files.length > MAX_FILES
    || files.some((f) => typeof f !== "string" || f === "" || f.length > MAX_FILE_NAME || f.includes("/") || keyProblem(f) !== null)) {
    throw new TypeError(`invalid listSkillPrefixes files: must be an array of at most ${MAX_FILES} file names`);
  }
  return new Set(files);
}

/**
 * The `listOnly` option: the only file names the listing holds (whole last segments), or null
 * for every file.
 * @param {unknown} names
 * @returns {Set<string> | null}
 */
export function listOnlyOption(names) {
  if (names === undefined || names === null) return null;
  if (!Array.isArray(names) || names.length > MAX_FILES
    || names.some((f) => typeof f !== "string" || f === "" || f.length > MAX_FILE_NAME || f.includes("/") || keyProblem(f) !== null)) {
    throw new TypeError(`invalid listSkillPrefixes listOnly: must be an array of at most ${MAX_FILES} file names`);
  }
  return new Set(names);
}

/**
 * The `packed` option: whether the page is answered packed (see `listSkillPrefixes`).
 * @param {unknown} packed
 */
export function packedOption(packed) {
  if (packed === undefined || packed === null) return false;
  if (typeof packed !== "boolean") throw new TypeError(`invalid listSkillPrefixes packed ${String(packed)}: must be a boolean`);
  return packed;
}

/**
 * The `prefixBytes` option: how many bytes of each file (1 to the cap).
 * @param {unknown} n
 * @param {number} cap
 */
export function prefixBytesOption(n, cap) {
  if (n === undefined || n === null) return Math.min(4096, cap);
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) {
    throw new TypeError(`invalid listSkillPrefixes prefixBytes ${String(n)}: must be a positive integer`);
  }
  return Math.min(n, cap);
}

/**
 * Whether the descriptor `fd` (fstat `st`) of the file opened at `real` is a file inside the root:
 * on Linux the kernel names it; elsewhere the path must resolve to itself around a stat that gives
 * the descriptor's dev/ino.
 */
function openedInside(fd, st, rootReal, real) {
  let named = null;
  try {
    named = readlinkSync(FD_LINKS + fd);
  } catch {
    named = null;
  }
  if (named !== null && path.isAbsolute(named)) return inside(rootReal, named);
  try {
    if (realpathSync(real) !== real) return false;
    const now = statSync(real);
    return now.dev === st.dev && now.ino === st.ino && realpathSync(real) === real;
  } catch {
    return false;
  }
}

/**
 * The listing entry of a skill file with its head: `{ key, size, etag, head }` when it was read,
 * `{ key, size, etag, headError }` when it is above the cap (nothing read), and `{ key, headError }`
 * when it could not be read. Never throws. With `into`, the head is read into `into.buf` at
 * `into.at` (which moves past it) and the entry says its `length` instead of holding it.
 * @param {{ key: string; real: string }} entry
 * @param {string} rootReal
 * @param {number} prefixBytes at most this many bytes (already within the cap)
 * @param {number} cap
 * @param {{ buf: Uint8Array; at: number }} [into] room for prefixBytes more bytes at `at`
 */
export function readHead(entry, rootReal, prefixBytes, cap, into) {
  const { key, real } = entry;
  let fd;
  try {
    // O_NOFOLLOW: the real path must not have become a link since the walk; O_NONBLOCK: opening a
    // FIFO must not wait for a writer (it is refused below).
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const what = e?.code === "ELOOP" ? "became a symbolic link while being opened"
      : e?.code === "ENXIO" ? "not a regular file"
      : "cannot read";
    return { key, headError: `${key}: ${what}: ${why(e)}` };
  }
  try {
    const st = fstatSync(fd);
    if (!openedInside(fd, st, rootReal, real)) {
      return { key, headError: `${key}: the file opened is outside the storage root (the path changed while it was opened)` };
    }
    if (!st.isFile()) return { key, headError: `${key}: not a regular file; it was not read` };
    const out = statEntry(key, st);
    // Above the cap: refused from the fstat size before a byte is read, as read() refuses it.
    if (st.size > cap) return { ...out, headError: objectTooLarge(key, st.size, cap).message };
    // The file as fstat saw it, to prefixBytes at most: a file shorter than that is read in one
    // call (no second read to find its end; what it grew by since is not part of what fstat
    // said). A size of 0 may be a file whose size reads 0 (procfs): read it to prefixBytes.
    const want = st.size === 0 ? prefixBytes : Math.min(prefixBytes, st.size);
    const buf = into === undefined ? new Uint8Array(want) : into.buf.subarray(into.at, into.at + want);
    let filled = 0;
    while (filled < want) {
      const n = readSync(fd, buf, filled, want - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    if (into !== undefined) {
      out.length = filled;
      into.at += filled;
    } else {
      out.head = filled === buf.length ? buf : buf.subarray(0, filled);
    }
    return out;
  } catch (e) {
    return { key, headError: `${key}: cannot read: ${why(e)}` };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing more to do with a descriptor that does not close.
    }
  }
}
