// mcpStorage against the package's own publisher, skillsMcpServer, over the SDK's
// InMemoryTransport: every corpus skill a registry over ../shared/corpus offers is listed through
// MCP, verified on read against the server's manifests, and found again by a second registry
// with the same names, descriptions and file contents. Requests are counted at the client.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { CLI, importPkg, PKG } from "./helpers.mjs";
import { CORPUS_SKILLS } from "./support/corpus.mjs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectInProcess, countRequests } from "./support/mcp-connect.mjs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const pkg = await importPkg();
const { SkillRegistry, mcpStorage, nodeFsStorage } = pkg;
const { skillsMcpServer } = await import(pathToFileURL(path.join(PKG, "mcp-server.js")).href);

/** A client counting its requests by method. */
async function connected(server) {
  const client = await connectInProcess(server, "skillwasm-interop");
  return { client, counts: countRequests(client) };
}

test("the corpus served by skillsMcpServer is discovered and read through mcpStorage, verified", async () => {
  const source = await SkillRegistry.discover({
    scopes: [{ name: "corpus", storage: nodeFsStorage(CORPUS_SKILLS), roots: [""], trusted: true }],
    maxDepth: 12,
  });
  const offered = source.listMetas();
  assert.ok(offered.length > 100, `only ${offered.length} corpus skills offered`);
  const server = skillsMcpServer(source, { pageSize: 100, name: "corpus-server" });
  const { client, counts } = await connected(server);
  // The server hashes each page's files on the first listing: generous bounds for a loaded machine.
  const storage = mcpStorage(client, { server: "corpus", timeoutMs: 120_000 });
  assert.equal(storage.server, "corpus", "the host's label, not the name the server reports");
  const t0 = performance.now();
  const registry = await SkillRegistry.discover({ scopes: [{ name: storage.server, storage, roots: [""], trusted: true }], timeoutMs: 600_000 });
  const ms = performance.now() - t0;
  const listed = registry.listMetas();
  console.log(`# ${listed.length} skills over MCP in ${ms.toFixed(0)} ms: ${JSON.stringify(counts)}`);
  assert.deepEqual(Object.keys(counts), ["skills/list"], "listing sends only skills/list");
  assert.ok(counts["skills/list"] >= Math.ceil(listed.length / 100));
  // Same-named skills are offered under qualified names on both sides, each side qualifying by
  // its own scopes and paths: a skill is found again by its frontmatter name and description.
  const base = (n) => n.split(/[:/]/).at(-1);
  const described = new Map();
  for (const m of offered) described.set(base(m.name), [...(described.get(base(m.name)) ?? []), m.description]);
  const refused = registry.diagnostics().filter((d) => d.severity === "error");
  assert.deepEqual(refused, [], "every served entry is taken");
  assert.ok(listed.length > 100 && listed.length <= offered.length, `${listed.length} of ${offered.length}`);
  for (const m of listed) {
    assert.ok(described.get(base(m.name))?.includes(m.description), m.name);
    assert.match(m.path, /^mcp:\/\/corpus\//);
  }
  // Reading a sample: each SKILL.md is fetched once, verified in the core, and is the file.
  const sample = listed.filter((m, i) => i % 25 === 0 && source.get(m.name)?.description === m.description);
  assert.ok(sample.length > 3, `${sample.length} skills sampled`);
  for (const m of sample) {
    const got = await registry.readFile(m.name);
    assert.equal(got.error, undefined, `${m.name}: ${JSON.stringify(got.error)}`);
    const want = await source.readFile(m.name);
    assert.equal(got.text, want.text, m.name);
  }
  assert.equal(counts["resources/read"], sample.length, "one read per SKILL.md read");
  assert.equal(counts["skills/get"], undefined, "nothing failed verification");
  assert.equal(storage.stats().mismatches, 0);
  // A refresh of the unchanged server changes nothing and reads no file.
  const before = counts["resources/read"];
  assert.deepEqual(await registry.refresh(), { added: [], changed: [], removed: [] });
  assert.equal(counts["resources/read"], before);
});

test("over stdio: mcpStorage against `skillwasm mcp` spawned on a project directory", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-mcp-stdio-"));
  const md = (name) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\nDo the ${name} thing; see references/notes.md.\n`;
  for (const name of ["alpha", "bravo", "charlie"]) {
    mkdirSync(path.join(dir, ".agents/skills", name, "references"), { recursive: true });
    writeFileSync(path.join(dir, ".agents/skills", name, "SKILL.md"), md(name));
    writeFileSync(path.join(dir, ".agents/skills", name, "references/notes.md"), `# Notes of ${name}\n`);
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", dir, "--no-user", "--page-size", "2"], stderr: "pipe" });
  const client = new Client({ name: "skillwasm-stdio", version: "1.0.0" });
  await client.connect(transport);
  try {
    const counts = {};
    const request = client.request.bind(client);
    client.request = (req, schema, opts) => {
      counts[req.method] = (counts[req.method] ?? 0) + 1;
      return request(req, schema, opts);
    };
    const storage = mcpStorage(client);
    // The label comes from the host's own stdio command (`node cli.js mcp ...`), not the server.
    assert.equal(storage.server, `${path.basename(process.execPath)} cli.js`);
    const registry = await SkillRegistry.discover({ scopes: [{ name: storage.server, storage, roots: [""], trusted: true }] });
    assert.deepEqual(registry.names().sort(), ["alpha", "bravo", "charlie"]);
    assert.deepEqual(counts, { "skills/list": 2 }, "two pages of two, no file read");
    const notes = await registry.readScopedFile(storage.server, "bravo", "references/notes.md");
    assert.deepEqual(Buffer.from(notes.content), readFileSync(path.join(dir, ".agents/skills/bravo/references/notes.md")));
    assert.equal(counts["resources/read"], 1, "one read, verified against the listed digest");
  } finally {
    await client.close();
  }
});
