// The client the MCP conformance suite runs for its Skills client scenarios: a host reading a
// server's skills through mcpStorage, over the official SDK's v2 Client (Streamable HTTP, the
// protocol version negotiated with server/discover, or the one the suite asks for in
// MCP_CONFORMANCE_PROTOCOL_VERSION). It discovers the skills (skills/list, no file read), then
// loads each one the way an agent does (its SKILL.md, verified in the core) and, only when that
// verified, reads the files its manifest lists. Prints what it did as one JSON line on stderr.
//
//   node mcp-conformance-client.mjs <server-url>
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { importPkg } from "../helpers.mjs";

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const pinned = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const { SkillRegistry, mcpStorage } = await importPkg();

const modern = pinned === undefined || pinned >= "2026-07-28";
const client = new Client(
  { name: "skillwasm-conformance", version: "1.0.0" },
  modern ? { versionNegotiation: pinned === undefined ? { mode: "auto" } : { mode: { pin: pinned } } } : {},
);
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const storage = mcpStorage(client, { server: "conformance" });
const registry = await SkillRegistry.discover({ scopes: [{ name: "conformance", storage, roots: [""], trusted: true }] });
const report = { scenario, asked: pinned ?? null, era: client.getProtocolEra?.(), skills: registry.names(), loaded: [], refused: [] };
// Loading is what a host does when the model asks for a skill; listing alone reads no file.
if (scenario !== "sep-2640-client-no-prefetch") {
  for (const name of registry.names()) {
    const got = await registry.readFile(name);
    if (got.error !== undefined) {
      report.refused.push({ name, error: got.error });
      continue;
    }
    const entry = storage.entry(`${name}/SKILL.md`);
    for (const r of entry?.files ?? []) if (r.key !== `${name}/SKILL.md`) await storage.read(r.key);
    report.loaded.push(name);
  }
}
process.stderr.write(`${JSON.stringify(report)}\n`);
await client.close();
