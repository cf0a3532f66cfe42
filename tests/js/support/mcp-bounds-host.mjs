// A host process for the MCP bounds tests, run as a child (`node --max-old-space-size=512
// mcp-bounds-host.mjs <scenario> <v1|v2>`) so that a server that could exhaust its heap kills only
// it: one registry over a local memory store and stores over hostile servers
// (mcp-hostile-server.mjs, each spawned over stdio by the SDK's client of line v1 or v2). Prints one
// line of JSON: what the registry found and said, the stores' stats, the heap, the time.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importPkg } from "../helpers.mjs";

const [scenario, line] = process.argv.slice(2);
const HOSTILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "mcp-hostile-server.mjs");
const { SkillRegistry, memoryStorage, mcpStorage } = await importPkg();

const sdk = line === "v2"
  ? { ...(await import("@modelcontextprotocol/client")), ...(await import("@modelcontextprotocol/client/stdio")) }
  : { ...(await import("@modelcontextprotocol/sdk/client/index.js")), ...(await import("@modelcontextprotocol/sdk/client/stdio.js")) };

const clients = [];
/** A client of the SDK line `line` connected over stdio to a hostile server in `mode`. */
async function connect(mode) {
  const client = new sdk.Client({ name: "bounds-host", version: "1.0.0" });
  await client.connect(new sdk.StdioClientTransport({ command: process.execPath, args: [HOSTILE, mode], stderr: "ignore" }));
  clients.push(client);
  return client;
}

const local = memoryStorage({ "local-skill/SKILL.md": "---\nname: local-skill\ndescription: A local skill.\n---\nBody.\n" });
const out = { scenario, line };
const started = Date.now();
const stores = {};
const scope = (name, storage) => ({ name, storage, roots: [""], trusted: true });

if (scenario === "cursor") {
  // Default bounds: the 1 MiB cursor stops the listing at its first page.
  stores.cursor = mcpStorage(await connect("cursor"));
  // A host that allows such cursors: the listing's total stops it.
  stores.total = mcpStorage(await connect("cursor"), { server: "total", maxCursorBytes: 2 * 1024 * 1024, maxListingBytes: 24 * 1024 * 1024 });
  stores.cycle = mcpStorage(await connect("cycle"), { server: "cycle" });
} else if (scenario === "oversized") {
  stores.reconnecting = mcpStorage(await connect("oversized"), { server: "reconnecting", reconnect: () => connect("oversized") });
  stores.plain = mcpStorage(await connect("oversized"), { server: "plain" });
  stores.bigPage = mcpStorage(await connect("big-page"), { server: "big-page" });
}
out.labels = Object.fromEntries(Object.entries(stores).map(([k, s]) => [k, s.server]));
const registry = await SkillRegistry.discover({ scopes: [scope("local", local), ...Object.values(stores).map((s) => scope(s.server, s))] });
out.discoverMs = Date.now() - started;
out.names = registry.names().sort();
out.diagnostics = registry.diagnostics().map((d) => ({ code: d.code, message: d.message.slice(0, 400) }));
out.listing = Object.fromEntries(Object.entries(stores).map(([k, s]) => [k, s.diagnostics().listing.map((d) => ({ code: d.code, message: d.message.slice(0, 400) }))]));
out.local = (await registry.readFile("local-skill")).error ?? "ok";

if (scenario === "oversized") {
  // The connection closed under page 2: a read reconnects (or says why it cannot).
  const read = async (store, name) => {
    try {
      const bytes = await store.read(`${name}/SKILL.md`);
      return bytes === null ? "null" : new TextDecoder().decode(bytes).includes(`name: ${name}`) ? "ok" : "wrong bytes";
    } catch (e) {
      return String(e?.message ?? e).slice(0, 400);
    }
  };
  out.readReconnecting = await read(stores.reconnecting, "hostile-1");
  out.readPlain = await read(stores.plain, "hostile-1");
  // A result over maxMessageBytes costs only its request: the connection stays.
  const big = await stores.reconnecting.addSkill("skill://big/SKILL.md");
  out.addBig = { key: big.key, codes: big.diagnostics.map((d) => d.code), error: big.error };
  out.readBigPage = await read(stores.bigPage, "hostile-1");
}
out.stats = Object.fromEntries(Object.entries(stores).map(([k, s]) => [k, s.stats()]));
out.heapMiB = Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
out.ms = Date.now() - started;
await Promise.all(clients.map((c) => c.close().catch(() => {})));
console.log(JSON.stringify(out));
process.exit(0);
