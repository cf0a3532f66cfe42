// The CLI's pinning commands over a scope's lockfile (the project's `skills-lock.json`, or with
// `--scope user` the user's `~/.agents/skills-lock.json`): `add` fetches a skill into the scope's
// `.agents/skills/<name>/` and pins it, `remove` drops it, `lock` pins what is there, `verify`
// lists any drift, `install` restores the pinned skills from their sources (`--frozen`: exactly),
// `update` fetches them again and shows what changed. Commands only: where a scope's files and
// lockfile are is cli-lock-scope.js, the sources cli-sources.js and cli-mcp-source.js; the content
// digest, the lockfile's format and the check of a registry against it are the core's
// (`SkillRegistry.discover({ lock })`, `registry.lockfile()`, `contentDigest`).
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { UsageError, readFlags } from "./cli-agent.js";
import {
  changes, digestOf, driftOf, entryLocation, inspect, locationOf, placeFiles, readLock, recordedSource, repin, requireLock, rootsOf, scopeOf,
  writeLock,
} from "./cli-lock-scope.js";
import { fetchMcpSource, isMcpSpec, mcpSession, mcpSourceOf, stdioCommandOf } from "./cli-mcp-source.js";
import { SourceError, fetchSource, readTree, sourceOf } from "./cli-sources.js";
import { diagnosticLine, progress, stylesFor } from "./cli-style.js";
import { severityOf } from "./cli-vet.js";
import { parseSkill } from "./node.js";
import { assertKey } from "./storage/keys.js";

export const LOCK_USAGE = `  add <source> [dir] [--scope project|user] [--name N] [--path P] [--ref R]
      [--server LABEL] [--force] [--severity high|medium|low] [--allow-findings]
                                     Fetch a skill, vet it (refused on a finding at or above
                                     --severity, default high, unless --allow-findings), copy
                                     it into [dir]/.agents/skills/<name>/ and pin it in
                                     [dir]/skills-lock.json (--scope user: into
                                     ~/.agents/skills/<name>/, pinned in
                                     ~/.agents/skills-lock.json). <source>: a directory, a
                                     git repository (local, or a URL ending .git; --ref,
                                     --path for its folder), a .zip/.tar.gz (file or URL),
                                     an https discovery index (--name of the entry),
                                     npm:<package> (--path), or an MCP server of the Skills
                                     extension (--name of the skill; --server its label):
                                     mcp+https://host/path (Streamable HTTP) or
                                     "mcp+stdio:<command line>" (run in [dir], or ~ with
                                     --scope user). Needs @modelcontextprotocol/sdk for MCP.
  remove <name> [dir]                Delete the skill and its pin.
  lock [dir]                         Pin the scope's skills as they are.
  verify [dir]                       Compare the scope's skills with their pins; exit 1
                                     on any drift (changed, unpinned, missing), listed.
  install [dir] --frozen [--allow-stdio]
                                     Restore every pinned skill from its source; exit 1 on
                                     any difference from its pin (for CI).
  update [name] [dir] [--dry-run] [--allow-stdio] [--severity high|medium|low]
      [--allow-findings]             Fetch pinned skills again, show files added, removed
                                     and changed, vet what changed as add does (a refused
                                     skill is left as it was; exit 1), then write the
                                     others and their new pins.
  install and update run the command of an "mcp+stdio:" pin only with --allow-stdio
  (a lockfile comes with the project: review its commands first).
  These take --json, --scope project|user (default project; user: the user's
  ~/.agents/skills and ~/.agents/skills-lock.json, no [dir]) and --client NAME (the
  client's own .<NAME>/skills instead of .agents/skills; pass it to every command). add, install and update
  report their steps on stderr on a terminal (without --json), or anywhere with --progress.
`;

const out = (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
const note = (text) => process.stderr.write(`${text}\n`);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Progress on stderr: on a terminal unless --json, or wherever --progress asks for it. */
const stepsOf = (flags) => progress({ wanted: flags.progress === true, large: !flags.json });

/** The skill's name, from its SKILL.md (the core parses it). */
function nameOf(files, what) {
  const md = files.find((f) => f.path === "SKILL.md");
  const parsed = md && parseSkill(md.bytes, { includeBody: false });
  if (!parsed?.skill) throw new SourceError(`${what}: its SKILL.md gives no skill`);
  return parsed.skill.name;
}

/** Where a skill's location is, as messages show it: the key in a project, the path for the user. */
const shown = (where, location) => (where.scope === "project" ? location : path.join(where.base, ...location.split("/")));

/**
 * Fetches a pinned source again; its relative paths (and a stdio command's directory) are the
 * scope's base. An MCP source goes through `mcp`, the command's session (one connection a server).
 */
function fetchPinned(source, where, mcp, options = {}) {
  return source.type === "mcp" ? mcp.fetch(source) : fetchSource(source, where.base, options);
}

/**
 * Refuses, before anything is fetched, to run the command of an `mcp+stdio:` entry of the
 * lockfile without `--allow-stdio`: a lockfile comes with the project, and its command would run
 * as the user. The command is named word by word, quoted.
 */
function requireStdioOptIn(where, entries, flags) {
  if (flags["allow-stdio"]) return;
  for (const e of entries) {
    const words = stdioCommandOf(e.source);
    if (words !== null) {
      throw new SourceError(`'${e.name}' in ${where.name} is fetched by running the command ${JSON.stringify(words)}; review it, then pass --allow-stdio to run it`);
    }
  }
}

/** The scope of `--scope` and the directory argument at `index` of `rest` (of at most `max`). */
function whereOf(flags, rest, max) {
  if (rest.length > max) throw new UsageError(`expected at most ${plural(max, "argument")}`);
  return scopeOf(flags.scope, rest[max - 1], flags.client);
}

/**
 * The vetting of fetched files before they are written, as add and update do it: every file read
 * as text by the core, nothing run; each finding listed on stderr as `<label>: path:line: level:
 * code: message`. `{ digest, refusal }`: `refusal` says why the skill is not `verb` (a skill not
 * vetted whole, or a finding at or above `severity` without --allow-findings: the core decides
 * which, as `vet: "refuse"` would), or is null.
 */
async function vetted(label, name, files, { severity, flags, verb }) {
  const { digest, report } = await inspect(name, files, { vet: severity });
  for (const f of report.findings) note(`${label}: ${f.path}:${f.line}: ${f.level}: ${f.code}: ${f.message}`);
  if (report.error) return { digest, refusal: `'${name}' could not be vetted whole: ${report.error.message}` };
  if (report.refusal && !flags["allow-findings"]) {
    const anyway = verb === "added" ? "adds" : "writes";
    return { digest, refusal: `'${name}' is not ${verb}: ${report.refusal.message} (findings listed above); --allow-findings ${anyway} it anyway` };
  }
  return { digest, refusal: null };
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

const SCOPE_FLAGS = { "--scope": "string", "--client": "string", "--json": "bool" };

/** `add <source> [dir]`. */
export async function cmdAdd(args) {
  const { flags, rest } = readFlags(args, {
    ...SCOPE_FLAGS, "--name": "string", "--path": "string", "--ref": "string", "--server": "string", "--force": "bool", "--severity": "string", "--allow-findings": "bool", "--progress": "bool",
  });
  if (rest.length < 1 || rest.length > 2) throw new UsageError("expected a source and at most one directory");
  const severity = severityOf(flags);
  const mcp = isMcpSpec(rest[0]);
  if (flags.server !== undefined && !mcp) throw new UsageError("--server labels an MCP server: it goes with an mcp+http(s):// or mcp+stdio: source");
  if (mcp && (flags.path !== undefined || flags.ref !== undefined)) throw new UsageError("--path and --ref do not apply to an MCP source");
  const where = scopeOf(flags.scope, rest[1], flags.client);
  const steps = stepsOf(flags);
  return guarded("add", async () => {
    const asked = mcp ? mcpSourceOf(rest[0], flags) : sourceOf(rest[0], flags, process.cwd());
    steps.update(`fetching ${rest[0]}`, true);
    // A stdio server runs in the scope's directory, as it will for install and update.
    const { files, source } = mcp ? await fetchMcpSource(asked, where.base, { name: flags.name }) : await fetchSource(asked, process.cwd());
    const name = nameOf(files, rest[0]);
    if (flags.name !== undefined && asked.type !== "discovery" && flags.name !== name) {
      throw new SourceError(`the skill is named '${name}', not '${flags.name}'`);
    }
    const location = locationOf(where, name);
    if (existsSync(path.join(where.base, location)) && !flags.force) {
      throw new SourceError(`${shown(where, location)} exists; remove it first, or --force to replace it`);
    }
    const recorded = recordedSource(where, source);
    // Vetted before anything is written: the core reads every file as text, runs nothing.
    steps.update(`vetting ${name} (${plural(files.length, "file")})`, true);
    const { digest, refusal } = await vetted(rest[0], name, files, { severity, flags, verb: "added" });
    steps.done();
    if (refusal) throw new SourceError(refusal);
    placeFiles(where, location, files);
    const lockfile = await repin(where, [{ name, scope: where.scope, source: recorded, location, digest }]);
    const entry = lockfile.skills.find((e) => e.scope === where.scope && e.name === name);
    if (flags.json) out(JSON.stringify(entry, null, 2));
    else out(`added ${name} (${plural(files.length, "file")}) to ${shown(where, location)}, pinned ${entry?.digest ?? digest}`);
    return entry ? 0 : 1;
  });
}

/** `remove <name> [dir]`. */
export async function cmdRemove(args) {
  const { flags, rest } = readFlags(args, SCOPE_FLAGS);
  if (rest.length < 1 || rest.length > 2) throw new UsageError("expected a skill name and at most one directory");
  const [name] = rest;
  const where = scopeOf(flags.scope, rest[1], flags.client);
  return guarded("remove", async () => {
    const lock = readLock(where);
    const entry = lock?.skills.find((e) => e.scope === where.scope && e.name === name);
    // A pinned skill is where its entry says, which must be where add puts it: nothing else is deleted.
    const location = entry ? entryLocation(where, entry) : locationOf(where, name);
    assertKey(location);
    if (!entry && !existsSync(path.join(where.base, location))) {
      throw new SourceError(`no skill '${name}' in ${path.join(where.base, where.skillsDir)} or ${where.name}`);
    }
    rmSync(path.join(where.base, ...location.split("/")), { recursive: true, force: true });
    if (lock) writeLock(where, { ...lock, skills: lock.skills.filter((e) => e !== entry) });
    if (flags.json) out(JSON.stringify({ removed: name, scope: where.scope, location }));
    else out(`removed ${name} (${shown(where, location)})`);
    return 0;
  });
}

/** `lock [dir]`. */
export async function cmdLock(args) {
  const { flags, rest } = readFlags(args, SCOPE_FLAGS);
  const where = whereOf(flags, rest, 1);
  return guarded("lock", async () => {
    const lockfile = await repin(where);
    if (flags.json) out(JSON.stringify(lockfile, null, 2));
    else out(`pinned ${plural(lockfile.skills.length, "skill")} in ${where.file}`);
    return 0;
  });
}

/** `verify [dir]`. */
export async function cmdVerify(args) {
  const { flags, rest } = readFlags(args, SCOPE_FLAGS);
  const where = whereOf(flags, rest, 1);
  return guarded("verify", async () => {
    const lock = requireLock(where);
    const drift = await driftOf(where, lock);
    if (flags.json) out(JSON.stringify({ ok: drift.length === 0, scope: where.scope, skills: lock.skills.length, drift }, null, 2));
    else {
      const style = stylesFor(process.stdout);
      for (const d of drift) out(diagnosticLine(d, rootsOf(where), style));
      out(drift.length === 0 ? `${plural(lock.skills.length, "pinned skill")}, no drift` : `${plural(drift.length, "difference")} from ${where.name}`);
    }
    return drift.length === 0 ? 0 : 1;
  });
}

/** `install [dir] --frozen`. */
export async function cmdInstall(args) {
  const { flags, rest } = readFlags(args, { ...SCOPE_FLAGS, "--frozen": "bool", "--progress": "bool", "--allow-stdio": "bool" });
  if (!flags.frozen) throw new UsageError("install restores exactly what is pinned: pass --frozen (update re-pins)");
  const where = whereOf(flags, rest, 1);
  return guarded("install", async () => {
    const lock = requireLock(where);
    await driftOf(where, lock); // the core checks the lockfile's form before anything is fetched
    const own = lock.skills.filter((e) => e.scope === where.scope);
    for (const e of own) entryLocation(where, e);
    requireStdioOptIn(where, own, flags);
    const results = [];
    const steps = stepsOf(flags);
    const mcp = mcpSession(where.base, { allowStdio: flags["allow-stdio"] === true });
    try {
      for (const [i, entry] of lock.skills.entries()) {
        steps.update(`[${i + 1}/${lock.skills.length}] ${entry.name}: fetching`, true);
        if (entry.scope !== where.scope) {
          results.push({ name: entry.name, ok: false, error: `scope '${entry.scope}' is not installed from ${where.name} (--scope ${where.scope})` });
          continue;
        }
        try {
          const { files } = await fetchPinned(entry.source, where, mcp, { frozen: true });
          const digest = await digestOf(entry.name, files);
          if (digest !== entry.digest) {
            results.push({ name: entry.name, ok: false, error: `its source now gives ${digest}, not ${entry.digest} as pinned` });
            continue;
          }
          placeFiles(where, entry.location, files);
          results.push({ name: entry.name, ok: true, files: files.length });
        } catch (e) {
          if (!(e instanceof SourceError || e instanceof TypeError)) throw e;
          results.push({ name: entry.name, ok: false, error: e.message });
        }
      }
    } finally {
      steps.done();
      await mcp.close();
    }
    // What is on disk now, against the pins: a skill present but not pinned fails too.
    const drift = await driftOf(where, lock);
    const ok = results.every((r) => r.ok) && drift.length === 0;
    if (flags.json) out(JSON.stringify({ ok, scope: where.scope, skills: results, drift }, null, 2));
    else {
      for (const r of results) out(r.ok ? `installed ${r.name} (${plural(r.files, "file")})` : `failed ${r.name}: ${r.error}`);
      for (const d of drift) out(diagnosticLine(d, rootsOf(where), stylesFor(process.stdout)));
    }
    return ok ? 0 : 1;
  });
}

/**
 * One pinned skill fetched again for update: what changed (`{ name, from, to, added, removed,
 * changed }`, with `refused` when vetting refuses the new content), shown before anything is
 * written; then, unless --dry-run or refused, written, with its new pin pushed to `renewed`.
 */
async function updateOne(entry, { where, mcp, flags, severity, steps, renewed }) {
  const { files, source } = await fetchPinned(entry.source, where, mcp);
  const at = path.join(where.base, ...entry.location.split("/"));
  const before = existsSync(at) ? readTree(at) : [];
  const diff = changes(before, files);
  const digest = await digestOf(entry.name, files);
  const r = { name: entry.name, from: entry.digest, to: digest, ...diff };
  // New content is vetted as add vets it: a refused skill is left as it was.
  if (digest !== entry.digest) {
    steps.done();
    const { refusal } = await vetted(entry.name, entry.name, files, { severity, flags, verb: "updated" });
    if (refusal) r.refused = refusal;
  }
  // What changed is shown before the files are written.
  if (!flags.json) {
    steps.done();
    if (r.from === r.to) out(`${r.name}: unchanged`);
    else {
      const held = r.refused ? " (not written: refused by vetting)" : flags["dry-run"] ? " (not written: --dry-run)" : "";
      out(`${r.name}: ${r.from} -> ${r.to}${held}`);
      for (const [mark, list] of [["+", r.added], ["-", r.removed], ["~", r.changed]]) for (const p of list) out(`  ${mark} ${p}`);
    }
  }
  if (r.refused) note(`skillwasm update: ${r.refused}`);
  if (!flags["dry-run"] && digest !== entry.digest && !r.refused) {
    placeFiles(where, entry.location, files);
    renewed.push({ ...entry, source, digest });
  }
  return r;
}

/** `update [name] [dir] [--dry-run]`. */
export async function cmdUpdate(args) {
  const { flags, rest } = readFlags(args, {
    ...SCOPE_FLAGS, "--dry-run": "bool", "--progress": "bool", "--allow-stdio": "bool", "--severity": "string", "--allow-findings": "bool",
  });
  if (rest.length > 2) throw new UsageError("expected at most a skill name and a directory");
  const severity = severityOf(flags);
  const where = scopeOf(flags.scope, rest[1], flags.client);
  const only = rest[0];
  return guarded("update", async () => {
    const lock = requireLock(where);
    const entries = lock.skills.filter((e) => e.scope === where.scope && (only === undefined || e.name === only));
    if (only !== undefined && entries.length === 0) throw new SourceError(`'${only}' is not pinned in ${where.name}`);
    for (const e of entries) entryLocation(where, e);
    requireStdioOptIn(where, entries, flags);
    const report = [];
    const renewed = [];
    const steps = stepsOf(flags);
    const mcp = mcpSession(where.base, { allowStdio: flags["allow-stdio"] === true });
    try {
      for (const [i, entry] of entries.entries()) {
        steps.update(`[${i + 1}/${entries.length}] ${entry.name}: fetching`, true);
        // Each skill on its own, as install does: a source that fails leaves its skill as it was.
        try {
          report.push(await updateOne(entry, { where, mcp, flags, severity, steps, renewed }));
        } catch (e) {
          if (!(e instanceof SourceError || e instanceof TypeError)) throw e;
          report.push({ name: entry.name, from: entry.digest, error: e.message });
          if (!flags.json) {
            steps.done();
            out(`failed ${entry.name}: ${e.message}`);
          }
        }
      }
    } finally {
      steps.done();
      await mcp.close();
      // What was written is pinned, whatever stopped the others.
      if (renewed.length > 0) await repin(where, renewed);
    }
    if (flags.json) out(JSON.stringify({ dryRun: flags["dry-run"] === true, scope: where.scope, skills: report }, null, 2));
    // A skill refused by vetting, or whose source failed, fails the command.
    return report.some((r) => r.refused || r.error) ? 1 : 0;
  });
}
