// The MCP Skills extension's server side against the official SDK's own Client: in process
// (InMemoryTransport) and over stdio (the CLI spawned, StdioClientTransport). The capability is
// declared, skills/list pages through a registry larger than a page, every listed digest and size
// is that of the bytes resources/read returns, skills/get answers for a skill the listing leaves
// out, directories list their children, what is not served is -32602, and the skill tool is an
// ordinary MCP tool with the catalog in the instructions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import { CLI, PKG, importPkg } from "./helpers.mjs";
import { connectInProcess } from "./support/mcp-connect.mjs";

const pkg = await importPkg();
const { skillsMcpServer, SKILLS_EXTENSION } = await import(path.join(PKG, "mcp-server.js"));

const EXT = "io.modelcontextprotocol/skills";
const sha = (b) => `sha256:${createHash("sha256").update(b).digest("hex")}`;
const md = (name, extra = "") => `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n\n# ${name}\n\nDo the ${name} thing.\n`;
const Loose = z.looseObject({});

const NAMES = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"];

/** The files of a registry with more skills than a page, a user-only one, text and binary files. */
function files() {
  const f = {};
  for (const n of NAMES) f[`.agents/skills/${n}/SKILL.md`] = md(n, n === "alpha" ? "license: MIT\nmetadata:\n  version: \"1.2\"\n" : "");
  f[".agents/skills/alpha/references/guide.md"] = "# Guide\r\nUse é.\n";
  f[".agents/skills/alpha/scripts/run.py"] = "print('hi')\n";
  f[".agents/skills/alpha/assets/logo.png"] = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe]);
  f[".agents/skills/alpha/.secret"] = "not served";
  f[".agents/skills/manual/SKILL.md"] = md("manual", "disable-model-invocation: true\n");
  return f;
}

function connect(server) {
  return connectInProcess(server, "test-host");
}

async function inProcess(options = {}) {
  const registry = await pkg.SkillRegistry.discover({ user: pkg.memoryStorage(files()) });
  return connect(skillsMcpServer(registry, { pageSize: 3, tool: true, ...options }));
}

/** Every page of skills/list. */
async function listAll(client) {
  const pages = [];
  let cursor;
  do {
    const page = await client.request({ method: "skills/list", params: cursor === undefined ? {} : { cursor } }, Loose);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

const bytesOf = (c) => (c.text !== undefined ? new TextEncoder().encode(c.text) : Buffer.from(c.blob, "base64"));

/** Reads every file of every entry and checks it against the entry's size and digest. */
async function verifyEntries(client, entries) {
  let files = 0;
  for (const s of entries) {
    assert.equal(s.resources[0].uri, s.uri, "SKILL.md comes first");
    assert.equal(s.uri, `skill://${s.frontmatter.name}/SKILL.md`);
    for (const r of s.resources) {
      const read = await client.readResource({ uri: r.uri });
      const bytes = bytesOf(read.contents[0]);
      assert.equal(bytes.length, r.size, r.uri);
      assert.equal(sha(bytes), r.digest, r.uri);
      files++;
    }
  }
  return files;
}

async function rpcCode(promise) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof McpError, `an McpError, got ${e}`);
    return e.code;
  }
  assert.fail("the request succeeded");
}

test("the server declares the extension with directoryRead, and resources", async () => {
  const client = await inProcess();
  const caps = client.getServerCapabilities();
  assert.equal(SKILLS_EXTENSION, EXT);
  assert.deepEqual(caps.extensions, { [EXT]: { directoryRead: true } });
  assert.ok(caps.resources);
  assert.ok(caps.tools);
  const plain = await connect(skillsMcpServer(await pkg.SkillRegistry.discover({ user: pkg.memoryStorage(files()) }), { directoryRead: false }));
  assert.deepEqual(plain.getServerCapabilities().extensions, { [EXT]: {} });
  assert.equal(plain.getServerCapabilities().tools, undefined);
  assert.equal(await rpcCode(plain.request({ method: "resources/directory/read", params: { uri: "skill://alpha" } }, Loose)), -32601);
});

test("skills/list pages through every offered skill; every digest and size is of the bytes served", async () => {
  const client = await inProcess();
  const pages = await listAll(client);
  assert.equal(pages.length, 3, "seven skills at three a page");
  for (const p of pages) {
    assert.equal(p.resultType, "complete");
    assert.equal(typeof p.ttlMs, "number");
    assert.ok(["public", "private"].includes(p.cacheScope));
    assert.ok(p.skills.length <= 3);
  }
  const entries = pages.flatMap((p) => p.skills);
  assert.deepEqual(entries.map((s) => s.frontmatter.name), NAMES, "manual (user-only) is not listed");
  const alpha = entries[0];
  assert.deepEqual(alpha.frontmatter, { name: "alpha", description: "The alpha skill.", license: "MIT", metadata: { version: "1.2" } });
  assert.deepEqual(alpha.resources.map((r) => r.uri), [
    "skill://alpha/SKILL.md", "skill://alpha/assets/logo.png", "skill://alpha/references/guide.md", "skill://alpha/scripts/run.py",
  ]);
  for (const r of alpha.resources) assert.match(r.digest, /^sha256:[0-9a-f]{64}$/);
  assert.equal(await verifyEntries(client, entries), NAMES.length + 3);
  const png = await client.readResource({ uri: "skill://alpha/assets/logo.png" });
  assert.deepEqual([png.contents[0].mimeType, png.contents[0].text], ["image/png", undefined]);
  const guide = await client.readResource({ uri: "skill://alpha/references/guide.md" });
  assert.equal(guide.contents[0].text, "# Guide\r\nUse é.\n");
});

test("skills/get answers for a listed skill and for one the listing leaves out", async () => {
  const client = await inProcess();
  const got = await client.request({ method: "skills/get", params: { uri: "skill://alpha/SKILL.md" } }, Loose);
  assert.equal(got.resultType, "complete");
  const listed = (await listAll(client)).flatMap((p) => p.skills);
  assert.deepEqual(got.skill, listed[0]);
  const manual = await client.request({ method: "skills/get", params: { uri: "skill://manual/SKILL.md" } }, Loose);
  assert.equal(manual.skill.frontmatter.name, "manual");
  assert.equal(manual.skill.frontmatter["disable-model-invocation"], true);
  assert.equal(await verifyEntries(client, [manual.skill]), 1);
});

test("resources/directory/read lists a directory's direct children", async () => {
  const client = await inProcess();
  const root = await client.request({ method: "resources/directory/read", params: { uri: "skill://alpha" } }, Loose);
  assert.equal(root.resultType, "complete");
  assert.deepEqual(root.resources.slice(0, 3).map((r) => [r.name, r.mimeType]), [["SKILL.md", "text/markdown"], ["assets", "inode/directory"], ["references", "inode/directory"]]);
  assert.ok(root.nextCursor, "four children at three a page");
  const rest = await client.request({ method: "resources/directory/read", params: { uri: "skill://alpha", cursor: root.nextCursor } }, Loose);
  assert.deepEqual(rest.resources.map((r) => r.uri), ["skill://alpha/scripts"]);
  const scripts = await client.request({ method: "resources/directory/read", params: { uri: "skill://alpha/scripts" } }, Loose);
  assert.deepEqual(scripts.resources, [{ uri: "skill://alpha/scripts/run.py", name: "run.py", mimeType: "text/x-python", size: 12 }]);
});

test("what is not served is -32602", async () => {
  const client = await inProcess();
  const get = (uri) => rpcCode(client.request({ method: "skills/get", params: { uri } }, Loose));
  for (const uri of ["skill://nope/SKILL.md", "skill://alpha/references/guide.md", "skill://a/../alpha/SKILL.md", "https://alpha/SKILL.md"]) {
    assert.equal(await get(uri), -32602, uri);
  }
  assert.equal(await rpcCode(client.request({ method: "skills/get", params: {} }, Loose)), -32602);
  for (const uri of ["skill://alpha/missing.md", "skill://nope/SKILL.md", "skill://alpha/.secret", "skill://alpha"]) {
    assert.equal(await rpcCode(client.readResource({ uri })), -32602, uri);
  }
  for (const uri of ["skill://alpha/SKILL.md", "skill://alpha/nothing"]) {
    assert.equal(await rpcCode(client.request({ method: "resources/directory/read", params: { uri } }, Loose)), -32602, uri);
  }
  assert.equal(await rpcCode(client.request({ method: "skills/list", params: { cursor: "bogus" } }, Loose)), -32602);
});

test("resources/list gives each offered SKILL.md with its name and description", async () => {
  const client = await inProcess({ pageSize: 50 });
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.name), NAMES);
  assert.deepEqual(resources[0], { uri: "skill://alpha/SKILL.md", name: "alpha", description: "The alpha skill.", mimeType: "text/markdown" });
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.equal(resourceTemplates[0].uriTemplate, "skill://{name}/{+path}");
});

test("SkillsMcp reads its registry's stores through the registry, and answers -32603 once it is freed", async () => {
  const registry = await pkg.SkillRegistry.discover({ user: pkg.memoryStorage(files()) });
  const mcp = new pkg.SkillsMcp(registry, { pageSize: 50 });
  assert.ok(mcp instanceof pkg.SkillsMcp);
  const before = registry.stats();
  const page = await mcp.listSkills();
  assert.deepEqual(page.skills.map((s) => s.frontmatter.name), NAMES);
  const after = registry.stats();
  // One listing and one read per file of each listed skill, counted in the registry's counters.
  const served = page.skills.reduce((n, s) => n + s.resources.length, 0);
  assert.equal(after.listCalls - before.listCalls, NAMES.length);
  assert.equal(after.readCalls - before.readCalls, served);
  registry.free();
  for (const answer of [await mcp.listSkills(), await mcp.getSkill("skill://alpha/SKILL.md"), mcp.listResources()]) {
    assert.equal(answer.error?.code, -32603);
    assert.match(answer.error.message, /freed/);
  }
  assert.throws(() => new pkg.SkillsMcp(registry), (e) => e instanceof TypeError && /registry/.test(e.message));
  await assert.rejects(pkg.publishRegistry(registry), (e) => e instanceof TypeError && /registry/.test(e.message));
  mcp.free();
});

test("the skill tool is an ordinary MCP tool, the catalog in the instructions", async () => {
  const client = await inProcess();
  const { tools } = await client.listTools();
  assert.equal(tools.length, 1);
  assert.deepEqual(tools[0].inputSchema.properties.name.enum, NAMES);
  const instructions = client.getInstructions();
  for (const n of NAMES) assert.ok(instructions.includes(n), n);
  const called = await client.callTool({ name: tools[0].name, arguments: { name: "alpha" } });
  assert.equal(called.isError, undefined);
  assert.match(called.content[0].text, /Do the alpha thing/);
  const unknown = await client.callTool({ name: tools[0].name, arguments: { name: "zulu" } });
  assert.equal(unknown.isError, true);
});

test("skillwasm mcp serves a directory's skills over stdio", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-mcp-"));
  for (const [key, content] of Object.entries(files())) {
    const file = path.join(dir, ...key.split("/"));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", dir, "--no-user", "--page-size", "2"], stderr: "pipe" });
  const client = new Client({ name: "stdio-host", version: "1.0.0" });
  await client.connect(transport);
  try {
    assert.deepEqual(client.getServerCapabilities().extensions, { [EXT]: { directoryRead: true } });
    const pages = await listAll(client);
    assert.equal(pages.length, 4);
    const entries = pages.flatMap((p) => p.skills);
    assert.deepEqual(entries.map((s) => s.frontmatter.name), NAMES);
    await verifyEntries(client, entries);
    // The digests are those of the files on disk.
    const guide = entries[0].resources.find((r) => r.uri.endsWith("guide.md"));
    assert.equal(guide.digest, sha(readFileSync(path.join(dir, ".agents/skills/alpha/references/guide.md"))));
    const manual = await client.request({ method: "skills/get", params: { uri: "skill://manual/SKILL.md" } }, Loose);
    assert.equal(manual.skill.resources[0].digest, sha(readFileSync(path.join(dir, ".agents/skills/manual/SKILL.md"))));
    assert.equal(await rpcCode(client.readResource({ uri: "skill://alpha/nope.md" })), -32602);
  } finally {
    await client.close();
  }
});
