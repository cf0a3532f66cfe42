// The CLI commands that see a project's skills as an agent does: discovery over the project's
// directory and the user's home (`.agents/skills`, plus `.<client>/skills` for each `--client`),
// the catalog the model would be shown, and the skill tool's answers. Only argument handling and
// printing here: discovery, shadowing, visibility, the catalog and the tool are the core's.
import os from "node:os";
import path from "node:path";
import { SkillRegistry, SkillTool, nodeFsStorage, renderCatalog } from "./node.js";
import { diagnosticLine, progress, stylesFor } from "./cli-style.js";
import { watch } from "./watch.js";

/** A usage error (exit 2); the dispatcher prints it with the command's synopsis. */
export class UsageError extends Error {}

/**
 * Reads `args` against `spec` (`--name` -> "bool" | "string"); the rest are positional.
 * @param {string[]} args
 * @param {Record<string, "bool" | "string">} spec
 */
export function readFlags(args, spec) {
  const flags = {};
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("--")) {
      if (a.startsWith("-") && a !== "-") throw new UsageError(`unknown option ${a}`);
      rest.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq === -1 ? a : a.slice(0, eq);
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (kind === undefined) throw new UsageError(`unknown option ${name} (options: ${Object.keys(spec).join(", ")})`);
    const key = name.slice(2);
    if (kind === "bool") {
      if (eq !== -1) throw new UsageError(`${name} takes no value`);
      flags[key] = true;
      continue;
    }
    let value = eq === -1 ? args[++i] : a.slice(eq + 1);
    if (value === undefined) throw new UsageError(`${name} needs a value`);
    flags[key] = value;
  }
  return { flags, rest };
}

const DISCOVERY_FLAGS = { "--client": "string", "--no-user": "bool", "--no-trust": "bool", "--json": "bool" };
// `list` and `catalog` also re-print on change (--watch) and report discovery on stderr (--progress).
const LISTING_FLAGS = { ...DISCOVERY_FLAGS, "--watch": "bool", "--progress": "bool" };

/**
 * The registry an agent started in `dir` would have: the project (trusted unless --no-trust) and
 * the user's home; with the stores, for --watch. Discovery is reported on stderr with --progress
 * (or on a TTY), never on stdout.
 */
export async function discoverFor(dir, flags) {
  const project = nodeFsStorage(path.resolve(dir ?? "."));
  const options = { project, trustProject: !flags["no-trust"] };
  if (!flags["no-user"]) options.user = nodeFsStorage(os.homedir());
  if (flags.client !== undefined) options.client = flags.client;
  const shown = progress({ wanted: flags.progress === true, large: !flags.json });
  shown.update(`skillwasm: discovering skills under ${project.root}${options.user ? ` and ${options.user.root}` : ""} ...`, true);
  const t0 = Date.now();
  const registry = await SkillRegistry.discover(options);
  shown.done(`skillwasm: ${registry.listMetasAcross().length} skills, ${registry.diagnostics().length} diagnostics in ${Date.now() - t0} ms`);
  return { registry, project, user: options.user };
}

/**
 * Prints `render(registry)` once, or with --watch again after every change the watcher reports
 * (a header line says what changed), until SIGINT or SIGTERM, which end it with exit code 0.
 */
async function printListing(found, flags, render) {
  const { registry, project, user } = found;
  render(registry);
  if (!flags.watch) return 0;
  const style = stylesFor(process.stdout);
  const names = (refs) => refs.map((r) => r.name).join(", ");
  const common = {
    onChange: (r) => {
      const parts = [["added", r.added], ["changed", r.changed], ["removed", r.removed]].filter(([, l]) => l.length > 0);
      print(style.dim(`--- ${new Date().toISOString()}: ${parts.map(([k, l]) => `${k} ${names(l)}`).join("; ")}`));
      render(registry);
    },
    onError: (e) => process.stderr.write(`skillwasm: watching: ${e?.message ?? e}\n`),
  };
  // The project directory through fs.watch; the home directory (too large to watch recursively)
  // by a refresh every 2 s, which re-lists only the scopes' skill roots.
  const watchers = [watch(registry, { ...common, roots: [project] })];
  if (user) watchers.push(watch(registry, { ...common, roots: [user], poll: true, intervalMs: 2000 }));
  return new Promise((resolve) => {
    const what = [project.root, ...(user ? [`${user.root} (every 2 s)`] : [])];
    process.stderr.write(`skillwasm: watching ${what.join(", ")} (Ctrl-C to stop)\n`);
    const stop = () => {
      for (const w of watchers) w.close();
      resolve(0);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

/**
 * Diagnostics on stderr, one line each, naming the file (the project's or the user's directory
 * joined with the skill's key) and the line where the core knows it.
 */
export function printDiagnostics(found, diagnostics) {
  const roots = { project: found.project.root };
  if (found.user) roots.user = found.user.root;
  const style = stylesFor(process.stderr);
  for (const d of diagnostics) process.stderr.write(`${diagnosticLine(d, roots, style)}\n`);
}

function print(text) {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** `list [dir]`: every skill found, by scope, with shadowing and diagnostics. */
export async function cmdList(args) {
  const { flags, rest } = readFlags(args, LISTING_FLAGS);
  if (rest.length > 1) throw new UsageError("expected at most one directory");
  const out = stylesFor(process.stdout);
  const found = await discoverFor(rest[0], flags);
  return printListing(found, flags, (registry) => {
    const metas = registry.listMetasAcross();
    const diagnostics = registry.diagnostics();
    if (flags.json) {
      print(JSON.stringify({ skills: metas, diagnostics }, null, 2));
      return;
    }
    if (metas.length === 0) print("No skills found.");
    for (const m of metas) {
      const shadowed = m.shadowedBy ? out.yellow(` (shadowed by ${m.shadowedBy})`) : "";
      print(`${out.bold(m.name)}\t${m.scope}${shadowed}\t${out.dim(m.path ?? m.location)}`);
      print(`  ${m.description}`);
    }
    printDiagnostics(found, diagnostics);
  });
}

/** `catalog [dir]`: the catalog the model is shown. */
export async function cmdCatalog(args) {
  const { flags, rest } = readFlags(args, { ...LISTING_FLAGS, "--format": "string", "--budget": "string" });
  if (rest.length > 1) throw new UsageError("expected at most one directory");
  const opts = {};
  if (flags.format !== undefined) opts.format = flags.format;
  if (flags.budget !== undefined) {
    const n = Number(flags.budget);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--budget must be a positive whole number of tokens, not ${flags.budget}`);
    opts.budgetTokens = n;
  }
  const found = await discoverFor(rest[0], flags);
  const catalogOf = (registry) => {
    try {
      return renderCatalog(registry, opts);
    } catch (e) {
      if (e instanceof TypeError) throw new UsageError(e.message);
      throw e;
    }
  };
  catalogOf(found.registry); // a bad --format is a usage error before anything is printed
  return printListing(found, flags, (registry) => {
    const catalog = catalogOf(registry);
    if (flags.json) {
      print(JSON.stringify(catalog, null, 2));
      return;
    }
    // The JSON format is for programs: the catalog's JSON alone, which any JSON reader takes (the
    // instructions are in --json's object). The others are shown as the model sees them.
    print(opts.format === "json" ? catalog.text : [catalog.instructions, catalog.text].filter(Boolean).join("\n\n"));
    printDiagnostics(found, [...registry.diagnostics(), ...catalog.diagnostics]);
  });
}

/** What the skill tool answers for `input`; exit 1 when it loaded nothing. */
async function answer(registry, input) {
  const result = await new SkillTool(registry).execute(input);
  if (result.isError) {
    process.stderr.write(`${result.content}\n`);
    return 1;
  }
  print(result.content);
  return 0;
}

/** `activate <name> [dir]`: the skill tool's answer for the skill's instructions. */
export async function cmdActivate(args) {
  const { flags, rest } = readFlags(args, DISCOVERY_FLAGS);
  if (rest.length < 1 || rest.length > 2) throw new UsageError("expected a skill name and at most one directory");
  return answer((await discoverFor(rest[1], flags)).registry, { name: rest[0] });
}

/** `read <name> <path> [dir]`: the skill tool's answer for one of the skill's files. */
export async function cmdRead(args) {
  const { flags, rest } = readFlags(args, DISCOVERY_FLAGS);
  if (rest.length < 2 || rest.length > 3) throw new UsageError("expected a skill name, a path and at most one directory");
  return answer((await discoverFor(rest[2], flags)).registry, { name: rest[0], path: rest[1] });
}
