// `skillwasm vet <dir>...`: every skill under each directory (a skill directory, or a directory
// of skills) vetted in full, its SKILL.md and resources read as text, nothing run. Only argument
// handling and printing here: discovery and the checks are the core's (`SkillRegistry#vet`).
import { statSync } from "node:fs";
import path from "node:path";
import { SkillRegistry, nodeFsStorage } from "./node.js";
import { UsageError, readFlags } from "./cli-agent.js";
import { stylesFor } from "./cli-style.js";

/** The synopsis, for the dispatcher's COMMANDS and USAGE. */
export const VET_USAGE = "vet <dir>... [--severity high|medium|low] [--json]";

const LEVELS = ["low", "medium", "high"];

/**
 * The severity `--severity` asks for (default `high`): a finding at or above it refuses the
 * skill. Any other value is a usage error.
 * @param {{ severity?: string }} flags
 */
export function severityOf(flags) {
  const severity = flags.severity ?? "high";
  if (!LEVELS.includes(severity)) throw new UsageError(`--severity must be high, medium or low, not ${severity}`);
  return severity;
}

/** A finding's level in its colour: high red, medium yellow, low cyan. */
function levelIn(style, level) {
  return level === "high" ? style.red(level) : level === "medium" ? style.yellow(level) : style.cyan(level);
}

/** The directory a path argument names: itself, or the directory of the SKILL.md it names. */
function dirOf(arg) {
  let st;
  try {
    st = statSync(arg);
  } catch {
    throw new UsageError(`no such file or directory: ${arg}`);
  }
  if (st.isDirectory()) return arg;
  if (st.isFile() && path.basename(arg).toLowerCase() === "skill.md") return path.dirname(arg);
  throw new UsageError(`not a directory: ${arg}`);
}

/**
 * The vet of every skill under `dir` at `severity` (each report's `refusal` is the core's
 * decision): `{ dir, skills: [{ name, directory, report }], refused }`.
 */
async function vetDir(dir, severity) {
  const registry = await SkillRegistry.discover({
    scopes: [{ name: "vet", storage: nodeFsStorage(path.resolve(dir)), roots: [""], trusted: true }],
    vet: "off",
  });
  try {
    const skills = [];
    for (const name of registry.names()) {
      const meta = registry.get(name);
      skills.push({ name, directory: meta?.directory ?? "", report: await registry.vet(name, { severity }) });
    }
    // Skills the parser refused cannot be vetted as skills: they are named with why.
    const refused = registry.diagnostics().filter((d) => d.severity === "error");
    return { dir, skills, refused };
  } finally {
    registry.free();
  }
}

/** `vet <dir>...`: exit 0 when no finding is at or above `--severity` (default high), else 1. */
export async function cmdVet(args) {
  const { flags, rest } = readFlags(args, { "--severity": "string", "--json": "bool" });
  if (rest.length === 0) throw new UsageError("expected at least one directory");
  const threshold = severityOf(flags);
  const results = [];
  for (const arg of rest) results.push(await vetDir(dirOf(arg), threshold));
  let over = 0;
  let count = 0;
  for (const r of results) {
    for (const s of r.skills) {
      count++;
      if (s.report.refusal) over++;
    }
  }
  if (flags.json) {
    const skills = results.flatMap((r) => r.skills.map((s) => ({ ...s.report, path: path.join(r.dir, s.directory) })));
    const refused = results.flatMap((r) => r.refused);
    process.stdout.write(`${JSON.stringify({ severity: threshold, skills, refused, failed: over > 0 }, null, 2)}\n`);
    return over > 0 ? 1 : 0;
  }
  const out = stylesFor(process.stdout);
  const err = stylesFor(process.stderr);
  for (const r of results) {
    for (const s of r.skills) {
      const base = path.join(r.dir, s.directory);
      for (const f of s.report.findings) {
        process.stdout.write(`${path.join(base, f.path)}:${f.line}: ${levelIn(out, f.level)}: ${f.code}: ${f.message}\n`);
      }
      if (s.report.error) process.stderr.write(`${base}: ${err.severity("error")}: ${s.report.error.code}: ${s.report.error.message}\n`);
    }
    for (const d of r.refused) {
      process.stderr.write(`${path.join(r.dir, (d.path ?? "").replace(/^vet:/, ""))}: ${err.severity("error")}: ${d.code}: ${d.message} (not vetted)\n`);
    }
  }
  const summary = `${count} skill${count === 1 ? "" : "s"} vetted: ${over} with a finding at or above ${threshold}`;
  process.stdout.write(`${over > 0 ? out.red(summary) : out.green(summary)}\n`);
  return over > 0 ? 1 : 0;
}
