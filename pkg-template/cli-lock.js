// The CLI's pinning commands over a project's `skills-lock.json`: `add` fetches a skill into
// `.agents/skills/<name>/` and pins it, `remove` drops it, `lock` pins what is there, `verify`
// lists any drift, `install` restores the pinned skills from their sources (`--frozen`: exactly),
// `update` fetches them again and shows what changed. Files and wiring only: the content digest,
// the lockfile's format and the check of a registry against it are the core's
// (`SkillRegistry.discover({ lock })`, `registry.lockfile()`, `contentDigest`).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError, readFlags } from "./cli-agent.js";
import { SourceError, fetchSource, readTree, sourceOf } from "./cli-sources.js";
import { diagnosticLine, stylesFor } from "./cli-style.js";
import { SkillRegistry, memoryStorage, nodeFsStorage, parseSkill } from "./node.js";
import { assertKey } from "./storage/keys.js";

export const LOCK_USAGE = `  add <source> [dir] [--name N] [--path P] [--ref R] [--force]
      [--severity high|medium|low] [--allow-findings]
                                     Fetch a skill, vet it (refused on a finding at or above
                                     --severity, default high, unless --allow-findings), copy
                                     it into [dir]/.agents/skills/<name>/ and pin it in
                                     [dir]/skills-lock.json. <source>: a directory, a
                                     git repository (local, or a URL ending .git; --ref,
                                     --path for its folder), a .zip/.tar.gz (file or URL),
                                     an https discovery index (--name of the entry), or
                                     npm:<package> (--path).
  remove <name> [dir]                Delete the skill and its pin.
  lock [dir]                         Pin the project's skills as they are.
  verify [dir]                       Compare the project's skills with their pins; exit 1
                                     on any drift (changed, unpinned, missing), listed.
  install [dir] --frozen             Restore every pinned skill from its source; exit 1 on
                                     any difference from its pin (for CI).
  update [name] [dir] [--dry-run]    Fetch pinned skills again, show files added, removed
                                     and changed, then write them and their new pins.
  These take --json.
`;

const LOCKFILE = "skills-lock.json";
const SKILLS_DIR = ".agents/skills";
const PIN_CODES = new Set(["skill-pin-mismatch", "skill-unpinned", "skill-pin-missing"]);

const out = (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
const note = (text) => process.stderr.write(`${text}\n`);

function readLock(dir) {
  const file = path.join(dir, LOCKFILE);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new SourceError(`${file} is not JSON: ${e.message}`);
  }
}

/** Writes the lockfile through a temporary file, so that a reader never sees half of it. */
function writeLock(dir, lockfile) {
  const file = path.join(dir, LOCKFILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(lockfile, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** The project's skills (its `.agents/skills`), trusted, with `lock` when given. */
async function projectRegistry(dir, lock) {
  const options = { project: nodeFsStorage(dir), trustProject: true };
  try {
    return await SkillRegistry.discover(lock ? { ...options, lock } : options);
  } catch (e) {
    throw new SourceError(`${path.join(dir, LOCKFILE)}: ${e.message}`);
  }
}

/**
 * A fetched skill as the core sees it, over a store in memory: its content digest, and (`vet`) the
 * findings of vetting every file of it.
 */
async function inspect(name, files, { vet = false } = {}) {
  const storage = memoryStorage(Object.fromEntries(files.map((f) => [`${name}/${f.path}`, f.bytes])));
  const registry = await SkillRegistry.discover({ scopes: [{ name: "fetched", storage, roots: [""], trusted: true }], vet: "off" });
  try {
    const d = await registry.contentDigest(name);
    if (d.digest === undefined) throw new SourceError(`'${name}': ${d.error?.message ?? "no digest"}`);
    const report = vet ? await registry.vet(name) : null;
    return { digest: d.digest, report };
  } finally {
    registry.free();
  }
}

async function digestOf(name, files) {
  return (await inspect(name, files)).digest;
}

const LEVELS = ["low", "medium", "high"];

/** The skill's name, from its SKILL.md (the core parses it). */
function nameOf(files, what) {
  const md = files.find((f) => f.path === "SKILL.md");
  const parsed = md && parseSkill(md.bytes, { includeBody: false });
  if (!parsed?.skill) throw new SourceError(`${what}: its SKILL.md gives no skill`);
  return parsed.skill.name;
}

/** Replaces `<dir>/<location>` by `files`, written beside it first and moved into place. */
function placeFiles(dir, location, files) {
  assertKey(location);
  const target = path.join(dir, ...location.split("/"));
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
function changes(before, after) {
  const sha = (b) => createHash("sha256").update(b).digest("hex");
  const old = new Map(before.map((f) => [f.path, sha(f.bytes)]));
  const now = new Map(after.map((f) => [f.path, sha(f.bytes)]));
  return {
    added: [...now.keys()].filter((p) => !old.has(p)),
    removed: [...old.keys()].filter((p) => !now.has(p)),
    changed: [...now.keys()].filter((p) => old.has(p) && old.get(p) !== now.get(p)),
  };
}

/** Pins the project's skills again, keeping each pinned skill's source; `extra` adds entries. */
async function repin(dir, extra = []) {
  const previous = readLock(dir) ?? { lockfileVersion: 1, skills: [] };
  const merged = { lockfileVersion: 1, skills: [...previous.skills.filter((e) => !extra.some((x) => x.scope === e.scope && x.name === e.name)), ...extra] };
  const registry = await projectRegistry(dir);
  const { lockfile, diagnostics } = await registry.lockfile(merged);
  for (const d of diagnostics) note(diagnosticLine(d, { project: dir }, stylesFor(process.stderr)));
  writeLock(dir, lockfile);
  return lockfile;
}

function dirArg(rest, max) {
  if (rest.length > max) throw new UsageError(`expected at most ${max} argument${max === 1 ? "" : "s"}`);
  return path.resolve(rest[max - 1] ?? ".");
}

/** Runs `fn`, turning a source or lockfile problem into its message and exit code 1. */
async function guarded(command, fn) {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof SourceError || e instanceof TypeError) {
      note(`skillwasm ${command}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

/**
 * A local path of a source as the lockfile keeps it: relative to the project when inside it (the
 * lockfile travels with the project), else absolute. URLs are kept as they are.
 */
function recordPath(dir, p) {
  if (/^[a-z+]+:\/\/|^git@/i.test(p)) return p;
  const abs = path.resolve(p);
  const rel = path.relative(dir, abs);
  return rel === "" ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel;
}

function recordedSource(dir, source) {
  switch (source.type) {
    case "directory":
      return { ...source, path: recordPath(dir, source.path) };
    case "git":
      return { ...source, repository: recordPath(dir, source.repository) };
    case "archive":
      return { ...source, url: recordPath(dir, source.url) };
    default:
      return source;
  }
}

/** `add <source> [dir]`. */
export async function cmdAdd(args) {
  const { flags, rest } = readFlags(args, {
    "--name": "string", "--path": "string", "--ref": "string", "--force": "bool", "--json": "bool", "--severity": "string", "--allow-findings": "bool",
  });
  if (rest.length < 1 || rest.length > 2) throw new UsageError("expected a source and at most one directory");
  const severity = flags.severity ?? "high";
  if (!LEVELS.includes(severity)) throw new UsageError(`--severity must be high, medium or low, not ${severity}`);
  const dir = path.resolve(rest[1] ?? ".");
  return guarded("add", async () => {
    const asked = sourceOf(rest[0], flags, process.cwd());
    const { files, source } = await fetchSource(asked, process.cwd());
    const name = nameOf(files, rest[0]);
    if (flags.name !== undefined && asked.type !== "discovery" && flags.name !== name) {
      throw new SourceError(`the skill is named '${name}', not '${flags.name}'`);
    }
    const location = `${SKILLS_DIR}/${name}`;
    if (existsSync(path.join(dir, location)) && !flags.force) {
      throw new SourceError(`${location} exists; remove it first, or --force to replace it`);
    }
    const recorded = recordedSource(dir, source);
    // Vetted before anything is written: the core reads every file as text, runs nothing.
    const { digest, report } = await inspect(name, files, { vet: true });
    const over = report.findings.filter((f) => LEVELS.indexOf(f.level) >= LEVELS.indexOf(severity));
    for (const f of report.findings) note(`${rest[0]}: ${f.path}:${f.line}: ${f.level}: ${f.code}: ${f.message}`);
    if (report.error) throw new SourceError(`'${name}' could not be vetted whole: ${report.error.message}`);
    if (over.length > 0 && !flags["allow-findings"]) {
      throw new SourceError(`'${name}' is not added: ${over.length} finding${over.length === 1 ? "" : "s"} at or above ${severity} (listed above); --allow-findings adds it anyway`);
    }
    placeFiles(dir, location, files);
    const lockfile = await repin(dir, [{ name, scope: "project", source: recorded, location, digest }]);
    const entry = lockfile.skills.find((e) => e.scope === "project" && e.name === name);
    if (flags.json) out(JSON.stringify(entry, null, 2));
    else out(`added ${name} (${files.length} file${files.length === 1 ? "" : "s"}) to ${location}, pinned ${entry?.digest ?? digest}`);
    return entry ? 0 : 1;
  });
}

/** `remove <name> [dir]`. */
export async function cmdRemove(args) {
  const { flags, rest } = readFlags(args, { "--json": "bool" });
  if (rest.length < 1 || rest.length > 2) throw new UsageError("expected a skill name and at most one directory");
  const [name] = rest;
  const dir = path.resolve(rest[1] ?? ".");
  return guarded("remove", async () => {
    const lock = readLock(dir);
    const entry = lock?.skills.find((e) => e.scope === "project" && e.name === name);
    const location = entry?.location ?? `${SKILLS_DIR}/${name}`;
    assertKey(location);
    if (!entry && !existsSync(path.join(dir, location))) throw new SourceError(`no skill '${name}' in ${path.join(dir, SKILLS_DIR)} or ${LOCKFILE}`);
    rmSync(path.join(dir, ...location.split("/")), { recursive: true, force: true });
    if (lock) writeLock(dir, { ...lock, skills: lock.skills.filter((e) => e !== entry) });
    if (flags.json) out(JSON.stringify({ removed: name, location }));
    else out(`removed ${name} (${location})`);
    return 0;
  });
}

/** `lock [dir]`. */
export async function cmdLock(args) {
  const { flags, rest } = readFlags(args, { "--json": "bool" });
  const dir = dirArg(rest, 1);
  return guarded("lock", async () => {
    const lockfile = await repin(dir);
    if (flags.json) out(JSON.stringify(lockfile, null, 2));
    else out(`pinned ${lockfile.skills.length} skill${lockfile.skills.length === 1 ? "" : "s"} in ${path.join(dir, LOCKFILE)}`);
    return 0;
  });
}

/** `verify [dir]`. */
export async function cmdVerify(args) {
  const { flags, rest } = readFlags(args, { "--json": "bool" });
  const dir = dirArg(rest, 1);
  return guarded("verify", async () => {
    const lock = readLock(dir);
    if (lock === null) throw new SourceError(`no ${LOCKFILE} in ${dir}`);
    const registry = await projectRegistry(dir, lock);
    const drift = registry.diagnostics().filter((d) => PIN_CODES.has(d.code));
    if (flags.json) out(JSON.stringify({ ok: drift.length === 0, skills: lock.skills.length, drift }, null, 2));
    else {
      const style = stylesFor(process.stdout);
      for (const d of drift) out(diagnosticLine(d, { project: dir }, style));
      out(drift.length === 0 ? `${lock.skills.length} pinned skill${lock.skills.length === 1 ? "" : "s"}, no drift` : `${drift.length} difference${drift.length === 1 ? "" : "s"} from ${LOCKFILE}`);
    }
    return drift.length === 0 ? 0 : 1;
  });
}

/** `install [dir] --frozen`. */
export async function cmdInstall(args) {
  const { flags, rest } = readFlags(args, { "--frozen": "bool", "--json": "bool" });
  if (!flags.frozen) throw new UsageError("install restores exactly what is pinned: pass --frozen (update re-pins)");
  const dir = dirArg(rest, 1);
  return guarded("install", async () => {
    const lock = readLock(dir);
    if (lock === null) throw new SourceError(`no ${LOCKFILE} in ${dir}`);
    await projectRegistry(dir, lock); // the core checks the lockfile's form before anything is fetched
    const results = [];
    for (const entry of lock.skills) {
      if (entry.scope !== "project") {
        results.push({ name: entry.name, ok: false, error: `scope '${entry.scope}' is not installed by the CLI` });
        continue;
      }
      try {
        const { files } = await fetchSource(entry.source, dir, { frozen: true });
        const digest = await digestOf(entry.name, files);
        if (digest !== entry.digest) {
          results.push({ name: entry.name, ok: false, error: `its source now gives ${digest}, not ${entry.digest} as pinned` });
          continue;
        }
        placeFiles(dir, entry.location, files);
        results.push({ name: entry.name, ok: true, files: files.length });
      } catch (e) {
        if (!(e instanceof SourceError || e instanceof TypeError)) throw e;
        results.push({ name: entry.name, ok: false, error: e.message });
      }
    }
    // What is on disk now, against the pins: a skill present but not pinned fails too.
    const drift = (await projectRegistry(dir, lock)).diagnostics().filter((d) => PIN_CODES.has(d.code));
    const ok = results.every((r) => r.ok) && drift.length === 0;
    if (flags.json) out(JSON.stringify({ ok, skills: results, drift }, null, 2));
    else {
      for (const r of results) out(r.ok ? `installed ${r.name} (${r.files} files)` : `failed ${r.name}: ${r.error}`);
      for (const d of drift) out(diagnosticLine(d, { project: dir }, stylesFor(process.stdout)));
    }
    return ok ? 0 : 1;
  });
}

/** `update [name] [dir] [--dry-run]`. */
export async function cmdUpdate(args) {
  const { flags, rest } = readFlags(args, { "--dry-run": "bool", "--json": "bool" });
  if (rest.length > 2) throw new UsageError("expected at most a skill name and a directory");
  const dir = path.resolve(rest[1] ?? ".");
  const only = rest[0];
  return guarded("update", async () => {
    const lock = readLock(dir);
    if (lock === null) throw new SourceError(`no ${LOCKFILE} in ${dir}`);
    const entries = lock.skills.filter((e) => e.scope === "project" && (only === undefined || e.name === only));
    if (only !== undefined && entries.length === 0) throw new SourceError(`'${only}' is not pinned in ${LOCKFILE}`);
    const report = [];
    const renewed = [];
    for (const entry of entries) {
      const { files, source } = await fetchSource(entry.source, dir);
      const at = path.join(dir, ...entry.location.split("/"));
      const before = existsSync(at) ? readTree(at) : [];
      const diff = changes(before, files);
      const digest = await digestOf(entry.name, files);
      report.push({ name: entry.name, from: entry.digest, to: digest, ...diff });
      if (!flags["dry-run"] && digest !== entry.digest) {
        placeFiles(dir, entry.location, files);
        renewed.push({ ...entry, source, digest });
      }
    }
    if (renewed.length > 0) await repin(dir, renewed);
    if (flags.json) out(JSON.stringify({ dryRun: flags["dry-run"] === true, skills: report }, null, 2));
    else {
      for (const r of report) {
        if (r.from === r.to) {
          out(`${r.name}: unchanged`);
          continue;
        }
        out(`${r.name}: ${r.from} -> ${r.to}${flags["dry-run"] ? " (not written: --dry-run)" : ""}`);
        for (const [mark, list] of [["+", r.added], ["-", r.removed], ["~", r.changed]]) for (const p of list) out(`  ${mark} ${p}`);
      }
    }
    return 0;
  });
}
