// Where the pinning commands act: a scope's skills and its lockfile. The project scope is
// `<dir>/.agents/skills/` pinned in `<dir>/skills-lock.json`; the user scope is
// `$HOME/.agents/skills/` pinned in `$HOME/.agents/skills-lock.json`. Each is read back by the
// core as an agent would find it (`SkillRegistry.discover` with that scope's store, and `lock`),
// so the CLI's checks are the library's. Also the files of a fetched skill: its digest and
// vetting (the core's, over a store in memory), placing it, and what changed.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { UsageError } from "./cli-agent.js";
import { SourceError } from "./cli-sources.js";
import { diagnosticLine, stylesFor } from "./cli-style.js";
import { SkillRegistry, memoryStorage, nodeFsStorage } from "./node.js";
import { assertKey } from "./storage/keys.js";

/** The skills' folder in a scope's base directory. */
export const SKILLS_DIR = ".agents/skills";
/** The codes of a registry's differences from its lockfile. */
export const PIN_CODES = new Set(["skill-pin-mismatch", "skill-unpinned", "skill-pin-missing"]);
const SCOPES = ["project", "user"];

/**
 * The scope a command acts on: `{ scope, base, client, skillsDir, file, name }`. `base` is the
 * directory the scope's keys (`<skillsDir>/<name>`) and the sources' relative paths are relative
 * to: the project (`dir`, default the current directory) or the user's home (`HOME`); `skillsDir`
 * `.agents/skills`, or the client's `.<client>/skills` with `--client`; `file` its lockfile,
 * `name` that file as messages show it.
 * @param {string | undefined} scope the `--scope` flag
 * @param {string | undefined} dir the directory argument
 * @param {string | undefined} client the `--client` flag
 */
export function scopeOf(scope = "project", dir, client) {
  if (!SCOPES.includes(scope)) throw new UsageError(`--scope must be project or user, not ${scope}`);
  if (client !== undefined && !CLIENT.test(client)) throw new UsageError(`--client must be a client's name (claude, cursor ...), not ${client}`);
  // A client's own folder, `.<client>/skills`, which discovery reads beside `.agents/skills` when
  // it is told the client (the `client` option).
  const skillsDir = client === undefined || client === "agents" ? SKILLS_DIR : `.${client}/skills`;
  if (scope === "user") {
    if (dir !== undefined) throw new UsageError(`--scope user acts on ${path.join(os.homedir(), skillsDir)}: a directory is not taken`);
    const base = os.homedir();
    return { scope, base, client, skillsDir, file: path.join(base, ".agents", "skills-lock.json"), name: "~/.agents/skills-lock.json" };
  }
  const base = path.resolve(dir ?? ".");
  return { scope, base, client, skillsDir, file: path.join(base, "skills-lock.json"), name: "skills-lock.json" };
}

/** Where the scope keeps the skill named `name`: `<skillsDir>/<name>`, relative to its base. */
export const locationOf = (where, name) => `${where.skillsDir}/${name}`;

/**
 * The location of a lockfile entry of the scope, which must be exactly where `add` puts a skill
 * of its name (`locationOf`), the name one path segment: install and update replace what is
 * there, and remove deletes it, so an entry of `.git`, `src`, `../x` (or `.ssh` in the home) is
 * refused before anything is fetched, written or deleted.
 * @param {{ skillsDir: string; name: string }} where
 * @param {{ name?: unknown; location?: unknown }} entry
 */
export function entryLocation(where, entry) {
  const name = typeof entry.name === "string" ? entry.name : "";
  const want = locationOf(where, name);
  const segment = name !== "" && name !== "." && name !== ".." && !name.includes("/") && !name.includes("\\");
  if (!segment || entry.location !== want) {
    throw new SourceError(
      `${where.name}: the entry ${JSON.stringify(entry.name)} has the location ${JSON.stringify(entry.location)}, not ${JSON.stringify(want)} where its skill belongs; nothing is written or deleted for it`,
    );
  }
  return want;
}

/** A client's name as `--client` takes it. */
const CLIENT = /^[a-z][a-z0-9-]{0,31}$/;

/** The scope's roots for diagnostic lines (`project:<key>` shown under its directory). */
export const rootsOf = (where) => ({ [where.scope]: where.base });

/** The scope's lockfile, parsed, or null when there is none. */
export function readLock(where) {
  if (!existsSync(where.file)) return null;
  try {
    return JSON.parse(readFileSync(where.file, "utf8"));
  } catch (e) {
    throw new SourceError(`${where.file} is not JSON: ${e.message}`);
  }
}

/** The scope's lockfile, which must exist. */
export function requireLock(where) {
  const lock = readLock(where);
  if (lock === null) throw new SourceError(`no ${where.name} in ${path.dirname(where.file)}`);
  return lock;
}

/** Writes the lockfile through a temporary file, so that a reader never sees half of it. */
export function writeLock(where, lockfile) {
  mkdirSync(path.dirname(where.file), { recursive: true });
  writeFileSync(`${where.file}.tmp`, `${JSON.stringify(lockfile, null, 2)}\n`);
  renameSync(`${where.file}.tmp`, where.file);
}

/**
 * The scope's skills as an agent finds them (the project's store, trusted; or the user's), with
 * `lock` when given: the core checks every skill against its pin.
 */
export async function scopeRegistry(where, lock) {
  const store = nodeFsStorage(where.base);
  const options = where.scope === "user" ? { user: store } : { project: store, trustProject: true };
  if (where.client !== undefined) options.client = where.client;
  try {
    return await SkillRegistry.discover(lock ? { ...options, lock } : options);
  } catch (e) {
    throw new SourceError(`${where.file}: ${e.message}`);
  }
}

/** The scope's differences from `lock`, as the core finds them. */
export async function driftOf(where, lock) {
  const registry = await scopeRegistry(where, lock);
  try {
    return registry.diagnostics().filter((d) => PIN_CODES.has(d.code));
  } finally {
    registry.free();
  }
}

/** Pins the scope's skills again, keeping each pinned skill's source; `extra` adds entries. */
export async function repin(where, extra = []) {
  const previous = readLock(where) ?? { lockfileVersion: 1, skills: [] };
  const pinKey = (e) => `${e.scope}\0${e.name}`;
  const replaced = new Set(extra.map(pinKey));
  const kept = previous.skills.filter((e) => !replaced.has(pinKey(e)));
  const registry = await scopeRegistry(where);
  try {
    const { lockfile, diagnostics } = await registry.lockfile({ lockfileVersion: 1, skills: [...kept, ...extra] });
    for (const d of diagnostics) process.stderr.write(`${diagnosticLine(d, rootsOf(where), stylesFor(process.stderr))}\n`);
    writeLock(where, lockfile);
    return lockfile;
  } finally {
    registry.free();
  }
}

/**
 * A fetched skill as the core sees it, over a store in memory: its content digest, and (with
 * `vet`, a severity) the vetting of every file of it, with the refusal the core decides at it.
 */
export async function inspect(name, files, { vet } = {}) {
  const storage = memoryStorage(Object.fromEntries(files.map((f) => [`${name}/${f.path}`, f.bytes])));
  const registry = await SkillRegistry.discover({ scopes: [{ name: "fetched", storage, roots: [""], trusted: true }], vet: "off" });
  try {
    const d = await registry.contentDigest(name);
    if (d.digest === undefined) throw new SourceError(`'${name}': ${d.error?.message ?? "no digest"}`);
    const report = vet ? await registry.vet(name, { severity: vet }) : null;
    return { digest: d.digest, report };
  } finally {
    registry.free();
  }
}

/** The content digest of a fetched skill's files. */
export async function digestOf(name, files) {
  return (await inspect(name, files)).digest;
}

/** Replaces `<base>/<location>` by `files`, written beside it first and moved into place. */
export function placeFiles(where, location, files) {
  assertKey(location);
  const target = path.join(where.base, ...location.split("/"));
  const staging = `${target}.skillwasm-new`;
  rmSync(staging, { recursive: true, force: true });
  for (const f of files) {
    assertKey(f.path);
    const file = path.join(staging, ...f.path.split("/"));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.bytes);
  }
  rmSync(target, { recursive: true, force: true });
  mkdirSync(path.dirname(target), { recursive: true });
  renameSync(staging, target);
}

/** Files added, removed and changed from `before` to `after` (`{ path, bytes }` lists). */
export function changes(before, after) {
  const sha = (b) => createHash("sha256").update(b).digest("hex");
  const old = new Map(before.map((f) => [f.path, sha(f.bytes)]));
  const now = new Map(after.map((f) => [f.path, sha(f.bytes)]));
  return {
    added: [...now.keys()].filter((p) => !old.has(p)),
    removed: [...old.keys()].filter((p) => !now.has(p)),
    changed: [...now.keys()].filter((p) => old.has(p) && old.get(p) !== now.get(p)),
  };
}

/**
 * A local path of a source as the lockfile keeps it: relative to the scope's base directory when
 * inside it (a project's lockfile travels with the project), else absolute. URLs are kept as they
 * are.
 */
function recordPath(base, p) {
  if (/^[a-z+]+:\/\/|^git@/i.test(p)) return p;
  const abs = path.resolve(p);
  const rel = path.relative(base, abs);
  return rel === "" ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel;
}

/** The source as the scope's lockfile records it (see recordPath). */
export function recordedSource(where, source) {
  switch (source.type) {
    case "directory":
      return { ...source, path: recordPath(where.base, source.path) };
    case "git":
      return { ...source, repository: recordPath(where.base, source.repository) };
    case "archive":
      return { ...source, url: recordPath(where.base, source.url) };
    default:
      return source;
  }
}
