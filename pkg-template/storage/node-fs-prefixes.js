// `listSkillPrefixes` of nodeFsStorage: a listing whose skill-file entries carry their first bytes,
// made with synchronous calls (node:fs), so that one discovery costs one call per page and no
// promise, timer or thread-pool hop per file. The safety rules are those of the asynchronous
// `list` and `read` (node-fs.js): links are followed only while they stay inside the root, a
// descriptor is checked to be inside the root before a byte is read from it, nothing above the
// size cap is read, and what is left out is a warning.
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { keyProblem, objectTooLarge } from "./keys.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
// Linux names the file behind a descriptor here; elsewhere the descriptor is checked by dev/ino.
const FD_LINKS = "/proc/self/fd/";
// The most file names a request may ask heads for, and the longest such name.
const MAX_FILES = 16;
const MAX_FILE_NAME = 255;

const why = (e) => e?.code ?? e?.message ?? e;

function inside(rootReal, real) {
  return real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
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
 * Every regular file under `prefix`, sorted, with the warnings of the walk; directories `skip`
 * names are not entered. An entry of a file `files` names keeps the real path it can be opened by
 * (`real`, not sent to the caller); other entries carry only their key.
 * @param {string} root the absolute root directory
 * @param {string} prefix
 * @param {{ skips(name: string): boolean } | null} skip
 * @param {Set<string>} files
 * @param {number} maxEntries
 */
export function walkSync(root, prefix, skip, files, maxEntries) {
  /** @type {{ key: string; real?: string }[]} */
  const entries = [];
  /** @type {{ key: string; message: string }[]} */
  const warnings = [];
  const done = () => {
    entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    warnings.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { entries, warnings, rootReal };
  };
  let rootReal = null;
  try {
    rootReal = realpathSync(root);
  } catch (e) {
    if (e?.code !== "ENOENT" && e?.code !== "ENOTDIR") throw e;
  }
  if (rootReal === null) {
    warnings.push({ key: prefix, message: `the storage root directory ${root} does not exist` });
    return done();
  }
  if (!statSync(rootReal).isDirectory()) {
    warnings.push({ key: prefix, message: `the storage root ${root} is not a directory` });
    return done();
  }
  const parts = prefix.split("/").filter((s) => s !== "");
  const ancestors = [rootReal];
  try {
    for (let i = 1; i <= parts.length; i++) ancestors.push(realpathSync(path.join(root, ...parts.slice(0, i))));
  } catch (e) {
    if (e?.code === "ENOENT" || e?.code === "ENOTDIR") return done();
    warnings.push({ key: prefix, message: e?.code === "ELOOP" ? "symbolic link loop" : `cannot resolve the prefix: ${why(e)}` });
    return done();
  }
  const startReal = ancestors[ancestors.length - 1];
  if (ancestors.some((a) => !inside(rootReal, a))) {
    warnings.push({ key: prefix, message: "symbolic link leads outside the storage root" });
    return done();
  }
  try {
    if (!statSync(startReal).isDirectory()) return done();
  } catch (e) {
    warnings.push({ key: prefix, message: `cannot stat the prefix: ${why(e)}` });
    return done();
  }

  let truncated = false;
  // Directories still to read: [real path, key prefix of its children, real paths on the way].
  const stack = [[startReal, prefix, ancestors]];
  while (stack.length > 0 && !truncated) {
    const [dirReal, keyPrefix, up] = stack.pop();
    let dirents;
    try {
      dirents = readDir(dirReal);
    } catch (e) {
      warnings.push({ key: keyPrefix, message: `cannot read directory: ${why(e)}` });
      continue;
    }
    for (const d of dirents) {
      const name = d.name;
      if (d.notUtf8) {
        warnings.push({ key: keyPrefix + name, message: "file name is not valid UTF-8" });
        continue;
      }
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
      let real = dirReal.endsWith(path.sep) ? dirReal + name : dirReal + path.sep + name;
      let isDir = d.isDirectory();
      let isFile = d.isFile();
      if (d.isSymbolicLink()) {
        try {
          real = realpathSync(real);
        } catch (e) {
          const message = e?.code === "ELOOP" ? "symbolic link loop"
            : e?.code === "ENOENT" ? "dangling symbolic link"
            : `cannot resolve symbolic link: ${why(e)}`;
          warnings.push({ key, message });
          continue;
        }
        if (!inside(rootReal, real)) {
          warnings.push({ key, message: "symbolic link leads outside the storage root" });
          continue;
        }
        let st;
        try {
          st = statSync(real);
        } catch (e) {
          warnings.push({ key, message: `cannot stat link target: ${why(e)}` });
          continue;
        }
        isDir = st.isDirectory();
        isFile = st.isFile();
        if (isDir && up.includes(real)) {
          warnings.push({ key, message: "symbolic link loop" });
          continue;
        }
      }
      if (isDir) {
        if (skip !== null && skip.skips(name)) continue;
        stack.push([real, `${key}/`, [...up, real]]);
      } else if (isFile) {
        if (entries.length >= maxEntries) {
          truncated = true;
          break;
        }
        entries.push(files.has(name) ? { key, real } : { key });
      } else {
        warnings.push({ key, message: "not a regular file or directory" });
      }
    }
  }
  if (truncated) warnings.push({ key: prefix, message: `listing stopped after ${maxEntries} files (maxEntries)` });
  return done();
}

/**
 * The entries of a directory, names as strings. Names are read as text (far cheaper than one
 * Buffer per name); a directory where one holds U+FFFD (what Node makes of bytes that are not
 * UTF-8) is read again as bytes, and the names that do not decode are marked `notUtf8` (shown
 * with U+FFFD), as a walk over bytes would find them.
 * @param {string} dir
 * @returns {{ name: string; notUtf8?: boolean; isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }[]}
 */
function readDir(dir) {
  const dirents = readdirSync(dir, { withFileTypes: true });
  if (!dirents.some((d) => d.name.includes("\uFFFD"))) return dirents;
  return readdirSync(dir, { withFileTypes: true, encoding: "buffer" }).map((d) => {
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
 * when it could not be read. Never throws.
 * @param {{ key: string; real: string }} entry
 * @param {string} rootReal
 * @param {number} prefixBytes at most this many bytes (already within the cap)
 * @param {number} cap
 */
export function readHead(entry, rootReal, prefixBytes, cap) {
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
    const out = { key, size: st.size, etag: `${st.size}-${st.mtimeMs}` };
    // Above the cap: refused from the fstat size before a byte is read, as read() refuses it.
    if (st.size > cap) return { ...out, headError: objectTooLarge(key, st.size, cap).message };
    // A file that grew since fstat is read to prefixBytes at most: a prefix read, as asked.
    const buf = new Uint8Array(prefixBytes);
    let filled = 0;
    while (filled < buf.length) {
      const n = readSync(fd, buf, filled, buf.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    out.head = filled === buf.length ? buf : buf.subarray(0, filled);
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
