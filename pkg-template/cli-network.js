// The CLI's network commands: `publish` writes a directory of skills as an Agent Skills Discovery
// index and its artifacts, `mcp` serves them over MCP on stdio. Files and wiring only: the index,
// the artifacts and the MCP methods are the core's (publishWellKnown, skillsMcpServer).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError, discoverFor, printDiagnostics, readFlags } from "./cli-agent.js";
import { diagnosticLine, stylesFor } from "./cli-style.js";
import { SkillTool, nodeFsStorage, publishWellKnown } from "./node.js";

export const NETWORK_USAGE = `  publish <dir> --out <dir> [--base-url <url>]
                                     Write the skills of <dir> (its directories holding a
                                     SKILL.md) as <out>/.well-known/agent-skills/index.json
                                     and its artifacts.
  mcp [dir] [--client NAME] [--no-user] [--no-trust] [--page-size N] [--no-tool]
                                     Serve the skills an agent in [dir] would find over MCP
                                     on stdio: the Skills extension (skills/list, skills/get,
                                     skill:// resources) and, for clients that do not speak
                                     it, the skill tool (tools/list, with the catalog in the
                                     server's instructions). --no-tool serves the extension
                                     alone: a client without it then sees no tools.
                                     Needs @modelcontextprotocol/sdk installed.
`;

/** A publish that could not be written: the message on stderr, exit code 1. */
function fail(message) {
  process.stderr.write(`skillwasm publish: ${message}\n`);
  return 1;
}

/** `skillwasm publish <dir> --out <dir> [--base-url <url>]`; resolves to the exit code. */
export async function cmdPublish(args) {
  const { flags, rest } = readFlags(args, { "--out": "string", "--base-url": "string" });
  if (rest.length !== 1 || flags.out === undefined) throw new UsageError("expected one directory and --out <dir>");
  const [dir] = rest;
  const outDir = flags.out;
  const baseUrl = flags["base-url"];
  try {
    const published = await publishWellKnown(nodeFsStorage(dir), baseUrl === undefined ? {} : { baseUrl });
    const root = path.join(outDir, ".well-known", "agent-skills");
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, "index.json"), published.index);
    for (const a of published.artifacts) {
      const file = path.join(root, ...a.path.split("/"));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, a.bytes);
    }
    for (const d of published.diagnostics) {
      // The index's paths are relative to <dir>: the line names the file under it.
      const file = typeof d.path === "string" && d.path !== "" ? { ...d, path: path.join(dir, d.path) } : d;
      process.stderr.write(`${diagnosticLine(file, {}, stylesFor(process.stderr))}\n`);
    }
    process.stdout.write(`${JSON.stringify({
      index: path.join(root, "index.json"),
      artifacts: published.artifacts.map((a) => ({ path: a.path, digest: a.digest, bytes: a.bytes.length })),
      skipped: published.diagnostics.length,
    }, null, 2)}\n`);
    return published.artifacts.length === 0 ? 1 : 0;
  } catch (e) {
    return fail(e?.message ?? String(e));
  }
}

/**
 * `skillwasm mcp [dir]`: the skills `list` would find, served over stdio until stdin ends. The
 * skill tool is offered unless --no-tool: few MCP clients speak the Skills extension yet, and one
 * that does not would otherwise see a server with nothing to call. (--tool, the default, is
 * accepted.)
 */
export async function cmdMcp(args) {
  const { flags, rest } = readFlags(args, {
    "--client": "string", "--no-user": "bool", "--no-trust": "bool", "--page-size": "string", "--tool": "bool", "--no-tool": "bool",
  });
  if (flags.tool && flags["no-tool"]) throw new UsageError("--tool and --no-tool together");
  if (rest.length > 1) throw new UsageError("expected at most one directory");
  const pageSize = flags["page-size"] === undefined ? undefined : Number(flags["page-size"]);
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000)) {
    throw new UsageError("--page-size must be an integer from 1 to 1000");
  }
  let mcp, stdio;
  try {
    mcp = await import("./mcp-server.js");
    stdio = await import("@modelcontextprotocol/server/stdio");
  } catch (e) {
    process.stderr.write(`skillwasm mcp: needs @modelcontextprotocol/server (npm install @modelcontextprotocol/server): ${e?.message ?? e}\n`);
    return 1;
  }
  const found = await discoverFor(rest[0], flags);
  const { registry } = found;
  // stdout carries the protocol: everything else goes to stderr.
  printDiagnostics(found, registry.diagnostics());
  const tool = flags["no-tool"] !== true;
  const options = { pageSize, tool };
  const skills = registry.listMetas().length;
  const toolName = tool ? new SkillTool(registry).definition()?.name : undefined;
  process.stderr.write(`skillwasm mcp: serving ${skills} skill${skills === 1 ? "" : "s"} from ${found.project.root} on stdio: ` +
    `the Skills extension (skills/list, skills/get, skill:// resources)${toolName ? ` and the tool '${toolName}' (tools/list)` : ""}` +
    `${tool ? "" : "; --no-tool: a client that does not speak the extension sees no tools"}\n`);
  // The connection's opening exchange picks the protocol era (2026-07-28, or a 2025 `initialize`);
  // the SDK's entry serves it with a server of its own from this factory.
  const handle = stdio.serveStdio(() => mcp.skillsMcpServer(registry, options), {
    onerror: (e) => process.stderr.write(`skillwasm mcp: ${e?.message ?? e}\n`),
  });
  const closed = new Promise((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await closed;
  await handle.close();
  return 0;
}
