// Where the CLI fetches a skill from, for `add` and `install`: a directory, a git repository
// (through the `git` binary), a zip or tar.gz (a file or an http(s) URL), an entry of an Agent
// Skills Discovery index, or a folder of an npm package (through `npm pack`). Each gives the
// skill's files in memory and its lockfile source. Fetching only: the archive formats, the index,
// its digests and every path check are the core's (unpackSkillArtifact, parseSkillsIndex,
// assertKey).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseSkillsIndex, unpackSkillArtifact } from "./node.js";
import { assertKey, DEFAULT_MAX_OBJECT_BYTES } from "./storage/keys.js";

/** The most files and bytes a fetched skill may hold (the core's per-skill limits). */
const MAX_FILES = 512;
const MAX_BYTES = DEFAULT_MAX_OBJECT_BYTES;
/** Folders never taken into a skill. */
const SKIPPED = new Set([".git", "node_modules"]);

/** A source that cannot be fetched: the message is printed, exit code 1. */
export class SourceError extends Error {}

/**
 * The files under `dir` (`{ path, bytes }`, `/`-separated paths relative to it), bounded.
 * @param {string} dir
 */
export function readTree(dir) {
  const files = [];
  let total = 0;
  const walk = (rel) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(child);
      } else if (entry.isFile()) {
        assertKey(child);
        const bytes = new Uint8Array(readFileSync(path.join(dir, child)));
        total += bytes.length;
        files.push({ path: child, bytes });
        if (files.length > MAX_FILES || total > MAX_BYTES) {
          throw new SourceError(`${dir} holds more than ${MAX_FILES} files or ${MAX_BYTES} bytes, the most a skill may`);
        }
      }
    }
  };
  walk("");
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function run(cmd, args, options = {}) {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options }).trim();
  } catch (e) {
    const why = String(e?.stderr ?? "").trim() || e?.message;
    throw new SourceError(`${cmd} ${args[0]} failed: ${why}`);
  }
}

function withTemp(fn) {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillwasm-fetch-"));
  try {
    return fn(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The folder `sub` of `root`, which must hold a SKILL.md. */
function skillFolder(root, sub, what) {
  if (sub !== "") assertKey(sub);
  const dir = path.join(root, ...(sub === "" ? [] : sub.split("/")));
  if (!existsSync(path.join(dir, "SKILL.md"))) {
    throw new SourceError(`${what} has no SKILL.md${sub === "" ? " at its top (name the skill's folder with --path)" : ` in ${sub}`}`);
  }
  return readTree(dir);
}

async function fetchBytes(url) {
  const res = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new SourceError(`${url}: HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_BYTES) throw new SourceError(`${url} is larger than ${MAX_BYTES} bytes`);
  return bytes;
}

function unpacked(result, what) {
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || result.files.length === 0) {
    throw new SourceError(`${what}: ${errors.map((d) => `${d.code}: ${d.message}`).join("; ") || "no files"}`);
  }
  return result.files.map((f) => ({ path: f.path, bytes: f.bytes }));
}

const isUrl = (s) => /^https?:\/\//i.test(s);
const isArchive = (s) => /\.(zip|tar\.gz|tgz)$/i.test(new URL(s, "file:///").pathname);
const isGitUrl = (s) => /^(git\+|git@|ssh:\/\/|git:\/\/)/.test(s) || /\.git\/?$/.test(s);

/**
 * What `add <spec>` names: a lockfile source (without the parts only a fetch learns: a git
 * commit, an npm version). `flags`: `ref`, `path`, `name`.
 */
export function sourceOf(spec, flags, cwd) {
  const sub = flags.path ?? "";
  if (spec.startsWith("npm:")) return { type: "npm", package: spec.slice(4), path: sub };
  if (isGitUrl(spec)) return { type: "git", repository: spec.replace(/^git\+/, ""), ref: flags.ref ?? "HEAD", commit: "", path: sub };
  if (isUrl(spec) && isArchive(spec)) return { type: "archive", url: spec };
  if (isUrl(spec)) {
    if (flags.name === undefined) throw new SourceError("a discovery index needs the entry's --name");
    return { type: "discovery", url: spec, name: flags.name };
  }
  const local = path.resolve(cwd, spec);
  if (!existsSync(local)) throw new SourceError(`${spec}: no such file or directory`);
  if (statSync(local).isFile()) {
    if (!isArchive(spec)) throw new SourceError(`${spec}: a file source is a .zip, .tar.gz or .tgz archive`);
    return { type: "archive", url: spec };
  }
  // A git repository's own folder is taken at a commit, which the lockfile records.
  if (flags.ref !== undefined || existsSync(path.join(local, ".git"))) {
    return { type: "git", repository: spec, ref: flags.ref ?? "HEAD", commit: "", path: sub };
  }
  return { type: "directory", path: sub === "" ? spec : `${spec.replace(/\/+$/, "")}/${sub}` };
}

/**
 * Fetches `source` (a lockfile source; relative paths against `cwd`): `{ files, source }`, the
 * source completed (a git commit, an npm package's version). `frozen`: a git source is checked
 * out at its pinned commit.
 */
export async function fetchSource(source, cwd, { frozen = false } = {}) {
  switch (source.type) {
    case "directory": {
      const dir = path.resolve(cwd, source.path);
      return { files: skillFolder(dir, "", source.path), source };
    }
    case "git":
      return withTemp((tmp) => {
        const repo = /^[a-z+]+:\/\/|^git@/.test(source.repository) ? source.repository : path.resolve(cwd, source.repository);
        const checkout = path.join(tmp, "repo");
        run("git", ["clone", "--quiet", "--no-checkout", repo, checkout]);
        const want = frozen && source.commit ? source.commit : source.ref === "HEAD" ? "HEAD" : `origin/${source.ref}`;
        const commit = run("git", ["-C", checkout, "rev-parse", "--verify", `${want}^{commit}`]);
        run("git", ["-C", checkout, "-c", "advice.detachedHead=false", "checkout", "--quiet", commit]);
        return { files: skillFolder(checkout, source.path, `${source.repository}@${commit.slice(0, 12)}`), source: { ...source, commit } };
      });
    case "archive": {
      const bytes = isUrl(source.url) ? await fetchBytes(source.url) : new Uint8Array(readFileSync(path.resolve(cwd, source.url)));
      return { files: unpacked(unpackSkillArtifact(bytes, { type: "archive", unverified: true }), source.url), source };
    }
    case "discovery": {
      const indexUrl = new URL(".well-known/agent-skills/index.json", source.url.endsWith("/") ? source.url : `${source.url}/`).href;
      const index = parseSkillsIndex(await fetchBytes(indexUrl), indexUrl);
      const entry = index.skills.find((s) => s.name === source.name);
      if (!entry) throw new SourceError(`${indexUrl} has no skill '${source.name}'`);
      if (entry.type === "files") throw new SourceError(`${indexUrl}: '${source.name}' is a v0.1.0 entry, which carries no digest to verify`);
      const bytes = await fetchBytes(entry.url);
      const result = unpackSkillArtifact(bytes, { type: entry.type, digest: entry.digest, name: source.name });
      return { files: unpacked(result, `${entry.url}`), source };
    }
    case "npm":
      return withTemp((tmp) => {
        const spec = source.package;
        const tarball = run("npm", ["pack", spec, "--pack-destination", tmp, "--silent", "--ignore-scripts"]).split("\n").pop();
        run("tar", ["-xzf", path.join(tmp, tarball), "-C", tmp]);
        const manifest = JSON.parse(readFileSync(path.join(tmp, "package", "package.json"), "utf8"));
        const files = skillFolder(path.join(tmp, "package"), source.path, spec);
        return { files, source: { ...source, package: `${manifest.name}@${manifest.version}` } };
      });
    default:
      throw new SourceError(`a ${source.type} source cannot be fetched by the CLI`);
  }
}
