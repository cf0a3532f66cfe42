// `node mcp-skills-stdio.mjs <dir>`: the skills of <dir> (its folders holding a SKILL.md) served
// over MCP on stdio by the package's own publisher (skillsMcpServer, the SDK's stdio entry), read
// afresh at each start, until stdin ends. For the tests of the CLI's `mcp+stdio:` source.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PKG } from "../helpers.mjs";

const dir = process.argv[2];
if (!dir) {
  process.stderr.write("usage: node mcp-skills-stdio.mjs <dir>\n");
  process.exit(2);
}
const { SkillRegistry, nodeFsStorage } = await import(pathToFileURL(path.join(PKG, "node.js")).href);
const { skillsMcpServer } = await import(pathToFileURL(path.join(PKG, "mcp-server.js")).href);
const { serveStdio } = await import("@modelcontextprotocol/server/stdio");

const registry = await SkillRegistry.discover({ scopes: [{ name: "served", storage: nodeFsStorage(path.resolve(dir)), roots: [""], trusted: true }] });
const handle = serveStdio(() => skillsMcpServer(registry, { tool: false }), {
  onerror: (e) => process.stderr.write(`mcp-skills-stdio: ${e?.message ?? e}\n`),
});
await new Promise((resolve) => {
  process.stdin.once("end", resolve);
  process.stdin.once("close", resolve);
});
await handle.close();
