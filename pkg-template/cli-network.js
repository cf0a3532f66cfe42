// The CLI's network commands: `publish` writes a directory of skills as an Agent Skills Discovery
// index and its artifacts, `mcp` serves them over MCP on stdio. Files and wiring only: the index,
// the artifacts and the MCP methods are the core's (publishWellKnown, skillsMcpServer).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError, discoverFor, readFlags } from "./cli-agent.js";
import { nodeFsStorage, publishWellKnown } from "./node.js";

export const NETWORK_USAGE = `  publish <dir> --out <dir> [--base-url <url>]
                                     Write the skills of <dir> (its directories holding a
                                     SKILL.md) as <out>/.well-known/agent-skills/index.json
                                     and its artifacts.
  mcp [dir] [--client NAME] [--no-user] [--no-trust] [--page-size N] [--tool]
                                     Serve the skills an agent in [dir] would find over MCP
                                     on stdio (the Skills extension; --tool also offers the
                                     skill tool). Needs @modelcontextprotocol/sdk installed.
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
      process.stderr.write(`${d.severity}: ${d.path ?? ""}: ${d.code}: ${d.message}\n`);
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

/** `skillwasm mcp [dir]`: the skills `list` would find, served over stdio until stdin ends. */
export async function cmdMcp(args) {
  const { flags, rest } = readFlags(args, {
    "--client": "string", "--no-user": "bool", "--no-trust": "bool", "--page-size": "string", "--tool": "bool",
  });
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
  const { registry } = await discoverFor(rest[0], flags);
  // stdout carries the protocol: everything else goes to stderr.
  for (const d of registry.diagnostics()) process.stderr.write(`${d.severity}: ${d.code}: ${d.message}\n`);
  const options = { pageSize, tool: flags.tool === true };
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
