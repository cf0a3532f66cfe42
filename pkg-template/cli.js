#!/usr/bin/env node
// skillwasm CLI: the commands of the Agent Skills reference CLI (skills-ref) plus `parse`.
// This file only touches the filesystem (finding and reading SKILL.md). Every skill rule (fences,
// YAML, names, limits, escaping) lives in the wasm core and is reached through its exports.
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { parseSkill, readProperties, skillFileNames, toPrompt, version } from "./node.js";
import { DEFAULT_MAX_OBJECT_BYTES } from "./storage/keys.js";
import { UsageError as AgentUsageError, cmdActivate, cmdCatalog, cmdList, cmdRead } from "./cli-agent.js";
import { NETWORK_USAGE, cmdMcp, cmdPublish } from "./cli-network.js";
import { LOCK_USAGE, cmdAdd, cmdInstall, cmdLock, cmdRemove, cmdUpdate, cmdVerify } from "./cli-lock.js";
import { progress, stylesFor } from "./cli-style.js";
import { VET_USAGE, cmdVet } from "./cli-vet.js";

const USAGE = `Usage: skillwasm <command> [arguments]

Commands:
  validate <path>... [--progress]    Check skill directories (or their SKILL.md) against the
                                     reference rules (strict); a directory of skills checks
                                     each, with a summary. Exit 1 when any is invalid.
                                     Fields a client defines (Claude Code's argument-hint,
                                     context, hooks ...) are named in a note.
  read-properties <path>             Print the skill's frontmatter properties as JSON.
  to-prompt [<path>...]              Print the <available_skills> block for these skills.
  parse <path> [--strict] [--no-body]
                                     Print the parsed skill and all diagnostics as JSON
                                     (lenient unless --strict). Exit 1 when no skill results.

As an agent sees a project (its .agents/skills, and the user's ~/.agents/skills):
  list [dir]                         The skills found, by scope, shadowing and diagnostics.
  catalog [dir] [--format F] [--budget N]
                                     The catalog the model is shown (xml, markdown, json),
                                     with its instructions; --format json prints the JSON
                                     alone, --json the whole result (instructions, budget).
  list and catalog name each diagnostic's file and line on stderr (file:line: severity:
  code: message).
  list and catalog take --watch (print again on every change, until Ctrl-C) and
  --progress (discovery on stderr; shown on a terminal anyway, never on stdout).
  activate <name> [dir]              The skill tool's answer: the skill's instructions.
  read <name> <path> [dir]           The skill tool's answer: one file of the skill.
  These take --client NAME (also .NAME/skills), --no-user, --no-trust (the project's skills
  are not read), --json. Exit 1 when the tool loaded nothing.

Vetting:
  ${VET_USAGE}
                                     Vet every skill under each directory (its SKILL.md and
                                     resources, read as text, nothing run): file:line: level:
                                     code: message. Exit 1 when a finding is at or above
                                     --severity (default high).

Publishing:
${NETWORK_USAGE}
Pinning (skills-lock.json):
${LOCK_USAGE}
Exit codes: 0 success, 1 invalid skill or nothing loaded, 2 usage error.
Colour only on a terminal; NO_COLOR turns it off, FORCE_COLOR on.

Options:
  -h, --help                         Show this help.
  -V, --version                      Show the version.
`;

// The names the reference looks for, in its order (SKILL.md, then skill.md): the core's list with
// the lowercase spelling accepted.
const SKILL_MD_NAMES = skillFileNames({ acceptLowercaseSkillMd: true });

// The largest SKILL.md the CLI reads: the storage adapters' default cap (16 MiB).
const MAX_FILE_BYTES = DEFAULT_MAX_OBJECT_BYTES;

// An error the reference reports as "Error: {message}" (a message may span several lines).
class CliError extends Error {
  constructor(...messages) {
    super(messages.join("\n"));
    this.messages = messages;
  }
}

// A path as Python's pathlib prints it (the reference CLI's messages quote pathlib paths):
// empty and "." segments and trailing slashes dropped, ".." kept.
function pyPath(p) {
  const absolute = p.startsWith("/");
  const joined = p.split("/").filter((s) => s !== "" && s !== ".").join("/");
  return absolute ? `/${joined}` : joined || ".";
}

function joinPath(dir, name) {
  return pyPath(`${dir}/${name}`);
}

function statOrNull(p) {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

// The reference takes a path argument naming the SKILL.md itself in any case (`Skill.MD` too).
function isSkillMdFile(p) {
  const st = statOrNull(p);
  const base = path.basename(p).toLowerCase();
  return st !== null && st.isFile() && SKILL_MD_NAMES.some((n) => n.toLowerCase() === base);
}

// A path argument that is a FIFO, socket or device is refused before anything opens it.
function refuseSpecial(p) {
  const st = statOrNull(p);
  if (st !== null && !st.isFile() && !st.isDirectory()) {
    throw new CliError(`Not a regular file or directory: ${p} (${kindOf(st)})`);
  }
}

// A CLI path argument names a skill directory, or that directory's SKILL.md.
function skillDirOf(arg) {
  const p = pyPath(arg);
  return isSkillMdFile(p) ? pyPath(path.dirname(p)) : p;
}

// The reference looks for SKILL.md, then skill.md, and nothing else.
function findSkillMd(dir) {
  for (const name of SKILL_MD_NAMES) {
    const candidate = joinPath(dir, name);
    if (statOrNull(candidate) !== null) return candidate;
  }
  return null;
}

function kindOf(st) {
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isDirectory()) return "a directory";
  return "not a regular file";
}

// The bytes of a regular file of at most MAX_FILE_BYTES. The file is opened without blocking (a
// FIFO would wait for a writer) and checked on the descriptor: anything but a regular file, or a
// file above the cap, is refused before a byte is read; a file that grows past the cap while it
// is read is refused too (at most one byte past the cap is read).
function readBytes(file) {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`not a regular file (${kindOf(st)}); it was not read`);
    const tooLarge = (size) => new Error(
      `${size === null ? "more than" : size} bytes, above the ${MAX_FILE_BYTES}-byte limit for a SKILL.md; it was not read`,
    );
    if (st.size > MAX_FILE_BYTES) throw tooLarge(st.size);
    let buf = new Uint8Array(Math.max(st.size, 4096));
    let filled = 0;
    for (;;) {
      if (filled === buf.length) {
        if (filled === MAX_FILE_BYTES) {
          if (readSync(fd, new Uint8Array(1), 0, 1, filled) > 0) throw tooLarge(null);
          break;
        }
        const bigger = new Uint8Array(Math.min(buf.length * 2, MAX_FILE_BYTES));
        bigger.set(buf);
        buf = bigger;
      }
      const n = readSync(fd, buf, filled, buf.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return buf.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

// The directory's own name, also for "." and "..".
function dirNameOf(dir) {
  return path.basename(path.resolve(dir));
}

// Python's json.dumps(..., indent=2): ensure_ascii escapes everything outside printable ASCII.
function pyJson(value) {
  return JSON.stringify(value, null, 2).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function out(text) {
  process.stdout.write(`${text}\n`);
}

function err(text) {
  process.stderr.write(`${text}\n`);
}

function validateDir(dir) {
  const st = statOrNull(dir);
  if (st === null) return [`Path does not exist: ${dir}`];
  if (!st.isDirectory()) return [st.isFile() ? `Not a directory: ${dir}` : `Not a directory: ${dir} (${kindOf(st)})`];
  const file = findSkillMd(dir);
  if (file === null) return ["Missing required file: SKILL.md"];
  let bytes;
  try {
    bytes = readBytes(file);
  } catch (e) {
    return [`Cannot read ${file}: ${e.message}`];
  }
  const result = parseSkill(bytes, { mode: "strict", dirName: dirNameOf(dir) });
  const errors = result.diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
  // The core's notes on what the errors are (fields a client such as Claude Code defines).
  errors.notes = result.diagnostics.filter((d) => d.code === "known-extension-fields").map((d) => d.message);
  return errors;
}

// The skill directories directly under `dir` (a directory of skills: it has no SKILL.md itself),
// in name order; null when `dir` is not such a directory.
function skillDirsUnder(dir) {
  const st = statOrNull(dir);
  if (st === null || !st.isDirectory() || findSkillMd(dir) !== null) return null;
  let names;
  try {
    names = readdirSync(dir).sort();
  } catch {
    return null;
  }
  const dirs = names.map((n) => joinPath(dir, n)).filter((d) => statOrNull(d)?.isDirectory() && findSkillMd(d) !== null);
  return dirs.length > 0 ? dirs : null;
}

function reportValidation(dir, before = () => {}) {
  const errors = validateDir(dir);
  before();
  if (errors.length > 0) {
    const style = stylesFor(process.stderr);
    err(style.red(`Validation failed for ${dir}:`));
    for (const e of errors) err(`  - ${e}`);
    for (const n of errors.notes ?? []) err(style.dim(`  note: ${n}`));
    return false;
  }
  out(stylesFor(process.stdout).green(`Valid skill: ${dir}`));
  return true;
}

// One path as the reference takes it; several paths, or a directory of skills, each skill in
// turn and a summary. Exit 1 when any skill is invalid.
function cmdValidate(args) {
  const wanted = args.includes("--progress");
  const paths = positional(args.filter((a) => a !== "--progress"), 1, Infinity, "validate <path>... [--progress]");
  const dirs = [];
  for (const arg of paths) {
    const dir = skillDirOf(arg);
    dirs.push(...(skillDirsUnder(dir) ?? [dir]));
  }
  // Progress on stderr for a large tree on a TTY, or with --progress; cleared before each report.
  const shown = progress({ wanted, large: dirs.length >= 50 });
  let invalid = 0;
  dirs.forEach((dir, i) => {
    shown.update(`skillwasm validate: ${i + 1}/${dirs.length} ${dir}`);
    if (!reportValidation(dir, () => shown.tty && shown.done())) invalid++;
  });
  shown.done();
  if (dirs.length > 1) {
    const line = `${dirs.length} skills: ${dirs.length - invalid} valid, ${invalid} invalid`;
    if (invalid > 0) err(line);
    else out(line);
  }
  return invalid > 0 ? 1 : 0;
}

// readProperties of the SKILL.md in dir; throws CliError with the reference's message.
function propertiesOf(dir) {
  const file = findSkillMd(dir);
  if (file === null) throw new CliError(`SKILL.md not found in ${dir}`);
  let bytes;
  try {
    bytes = readBytes(file);
  } catch (e) {
    throw new CliError(`Cannot read ${file}: ${e.message}`);
  }
  const { properties, errors } = readProperties(bytes);
  if (errors.length > 0 || properties == null) {
    throw new CliError(...(errors.length > 0 ? errors : [`Cannot read properties of ${file}`]));
  }
  return { file, properties };
}

function cmdReadProperties(args) {
  const [arg] = positional(args, 1, 1, "read-properties <path>");
  refuseSpecial(pyPath(arg));
  const { properties } = propertiesOf(skillDirOf(arg));
  out(pyJson(properties));
  return 0;
}

function realDir(dir) {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function cmdToPrompt(args) {
  const paths = positional(args, 0, Infinity, "to-prompt [<path>...]");
  // A name listed twice (the same skill in two directories, `a/* b/*`) is listed once, the first
  // path winning, as discovery's shadowing does; the others are named on stderr.
  const seen = new Map();
  const entries = [];
  for (const arg of paths) {
    refuseSpecial(pyPath(arg));
    const dir = realDir(skillDirOf(arg));
    const { file, properties } = propertiesOf(dir);
    if (seen.has(properties.name)) {
      err(`skillwasm to-prompt: ${file} is left out: '${properties.name}' is listed from ${seen.get(properties.name)}`);
      continue;
    }
    seen.set(properties.name, file);
    entries.push({ name: properties.name, description: properties.description, location: file });
  }
  out(toPrompt(entries));
  return 0;
}

function cmdParse(args) {
  let mode = "lenient";
  let includeBody = true;
  const rest = [];
  for (const a of args) {
    if (a === "--strict") mode = "strict";
    else if (a === "--lenient") mode = "lenient";
    else if (a === "--no-body") includeBody = false;
    else rest.push(a);
  }
  const [arg] = positional(rest, 1, 1, "parse <path> [--strict] [--no-body]");
  const p = pyPath(arg);
  const st = statOrNull(p);
  if (st === null) throw new CliError(`Path does not exist: ${p}`);
  let file;
  let dir;
  if (st.isDirectory()) {
    dir = p;
    file = findSkillMd(dir);
    if (file === null) throw new CliError(`SKILL.md not found in ${dir}`);
  } else if (st.isFile()) {
    file = p;
    dir = pyPath(path.dirname(p));
  } else {
    throw new CliError(`Not a regular file or directory: ${p} (${kindOf(st)})`);
  }
  let bytes;
  try {
    bytes = readBytes(file);
  } catch (e) {
    throw new CliError(`Cannot read ${file}: ${e.message}`);
  }
  const result = parseSkill(bytes, { mode, dirName: dirNameOf(dir), includeBody });
  const report = { file, skill: result.skill ?? null, diagnostics: result.diagnostics };
  if (result.incomplete) report.incomplete = true;
  out(JSON.stringify(report, null, 2));
  return result.skill ? 0 : 1;
}

class UsageError extends Error {}

function positional(args, min, max, synopsis) {
  const unknown = args.find((a) => a.startsWith("-") && a !== "-");
  if (unknown !== undefined) throw new UsageError(`unknown option ${unknown}\nusage: skillwasm ${synopsis}`);
  if (args.length < min || args.length > max) {
    throw new UsageError(`expected ${min === max ? min : `${min} or more`} path argument${max === 1 ? "" : "s"}\nusage: skillwasm ${synopsis}`);
  }
  return args;
}

// One entry per command: its function (sync or async, resolving to the exit code) and synopsis.
const COMMANDS = {
  validate: { run: cmdValidate, usage: "validate <path>... [--progress]" },
  "read-properties": { run: cmdReadProperties, usage: "read-properties <path>" },
  "to-prompt": { run: cmdToPrompt, usage: "to-prompt [<path>...]" },
  parse: { run: cmdParse, usage: "parse <path> [--strict] [--no-body]" },
  list: { run: cmdList, usage: "list [dir] [--client NAME] [--no-user] [--no-trust] [--json] [--watch] [--progress]" },
  catalog: { run: cmdCatalog, usage: "catalog [dir] [--format xml|markdown|json] [--budget TOKENS] [--client NAME] [--no-user] [--no-trust] [--json] [--watch] [--progress]" },
  activate: { run: cmdActivate, usage: "activate <name> [dir] [--client NAME] [--no-user] [--no-trust]" },
  read: { run: cmdRead, usage: "read <name> <path> [dir] [--client NAME] [--no-user] [--no-trust]" },
  publish: { run: cmdPublish, usage: "publish <dir> --out <dir> [--base-url <url>]" },
  mcp: { run: cmdMcp, usage: "mcp [dir] [--client NAME] [--no-user] [--no-trust] [--page-size N] [--no-tool]" },
  add: { run: cmdAdd, usage: "add <source> [dir] [--scope project|user] [--client NAME] [--name N] [--path P] [--ref R] [--server LABEL] [--force] [--severity high|medium|low] [--allow-findings] [--progress] [--json]" },
  remove: { run: cmdRemove, usage: "remove <name> [dir] [--scope project|user] [--client NAME] [--json]" },
  lock: { run: cmdLock, usage: "lock [dir] [--scope project|user] [--client NAME] [--json]" },
  verify: { run: cmdVerify, usage: "verify [dir] [--scope project|user] [--client NAME] [--json]" },
  install: { run: cmdInstall, usage: "install [dir] --frozen [--scope project|user] [--client NAME] [--allow-stdio] [--progress] [--json]" },
  update: { run: cmdUpdate, usage: "update [name] [dir] [--dry-run] [--scope project|user] [--client NAME] [--allow-stdio] [--severity high|medium|low] [--allow-findings] [--progress] [--json]" },
  vet: { run: cmdVet, usage: VET_USAGE },
};

async function main(argv) {
  if (argv.length === 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  const [command, ...args] = argv;
  if (command === "-h" || command === "--help" || command === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === "-V" || command === "--version") {
    out(`skillwasm ${version()}`);
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (entry === undefined) {
    err(`skillwasm: unknown command '${command}'\n`);
    process.stderr.write(USAGE);
    return 2;
  }
  if (args.includes("-h") || args.includes("--help")) {
    process.stdout.write(`Usage: skillwasm ${entry.usage}\n\n${USAGE}`);
    return 0;
  }
  try {
    return await entry.run(args);
  } catch (e) {
    if (e instanceof CliError) {
      for (const message of e.messages) err(`Error: ${message}`);
      return 1;
    }
    if (e instanceof UsageError) {
      err(`skillwasm ${command}: ${e.message}`);
      return 2;
    }
    if (e instanceof AgentUsageError) {
      err(`skillwasm ${command}: ${e.message}\nusage: skillwasm ${entry.usage}`);
      return 2;
    }
    throw e;
  }
}

process.stdout.on("error", (e) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

process.exitCode = await main(process.argv.slice(2));
