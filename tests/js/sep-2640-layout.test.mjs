// SEP-2640 and the Discovery index as written, against the official MCP SDK's Client and real HTTP
// servers on 127.0.0.1: a nested skill is served at the path where it lies (one URI per file),
// quoted metadata strings over MCP earn no warning, a v0.1.0 index shows the model the path that
// serves its files, network stores are listed at their own root without the host naming roots,
// and a scope whose roots hold nothing is told where its store's skills are.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import path from "node:path";
import * as z from "zod/v4";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { PKG, importPkg } from "./helpers.mjs";
import { connectInProcess } from "./support/mcp-connect.mjs";
import { routesOf, serve } from "./support/well-known-server.mjs";

const pkg = await importPkg();
const { SkillRegistry, memoryStorage, mcpStorage, wellKnownStorage, publishWellKnown } = pkg;
const { skillsMcpServer } = await import(path.join(PKG, "mcp-server.js"));

const Loose = z.looseObject({});
const sha = (b) => `sha256:${createHash("sha256").update(b).digest("hex")}`;
const md = (name, extra = "") => `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n\n# ${name}\n`;
const codesOf = (registry) => registry.diagnostics().map((d) => d.code);

async function listAll(client) {
  const skills = [];
  let cursor;
  do {
    const page = await client.request({ method: "skills/list", params: cursor === undefined ? {} : { cursor } }, Loose);
    skills.push(...page.skills);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return skills;
}

test("a nested skill is served at skill://<enclosing path>/<name>/SKILL.md, and each file has one URI", async () => {
  const files = {
    ".agents/skills/beta/SKILL.md": md("beta"),
    ".agents/skills/beta/notes.md": "# Notes\n",
    ".agents/skills/beta/nested/SKILL.md": md("nested"),
    ".agents/skills/beta/nested/ref.md": "# Ref\n",
  };
  const registry = await SkillRegistry.discover({ user: memoryStorage(files) });
  const client = await connectInProcess(skillsMcpServer(registry));
  const skills = await listAll(client);
  assert.deepEqual(skills.map((s) => s.uri).sort(), ["skill://beta/SKILL.md", "skill://beta/nested/SKILL.md"]);
  // One URI per file: every URI of every entry names one file, its digest the same wherever listed.
  const byUri = new Map();
  for (const r of skills.flatMap((s) => s.resources)) {
    if (byUri.has(r.uri)) assert.equal(byUri.get(r.uri), r.digest, r.uri);
    byUri.set(r.uri, r.digest);
  }
  assert.deepEqual([...byUri.keys()].sort(), [
    "skill://beta/SKILL.md", "skill://beta/nested/SKILL.md", "skill://beta/nested/ref.md", "skill://beta/notes.md",
  ]);
  const read = await client.readResource({ uri: "skill://beta/nested/SKILL.md" });
  assert.equal(read.contents[0].text, files[".agents/skills/beta/nested/SKILL.md"]);
  assert.equal(sha(read.contents[0].text), byUri.get("skill://beta/nested/SKILL.md"));
  const got = await client.request({ method: "skills/get", params: { uri: "skill://beta/nested/SKILL.md" } }, Loose);
  assert.equal(got.skill.uri, "skill://beta/nested/SKILL.md");
  // The flat URI that gave the same file a second name serves nothing.
  for (const uri of ["skill://nested/SKILL.md"]) {
    await assert.rejects(client.request({ method: "skills/get", params: { uri } }, Loose), (e) => e instanceof McpError && e.code === -32602);
    await assert.rejects(client.readResource({ uri }), (e) => e instanceof McpError && e.code === -32602);
  }
  const listed = await client.listResources();
  assert.deepEqual(listed.resources.map((r) => [r.uri, r.name]).sort(), [
    ["skill://beta/SKILL.md", "beta"], ["skill://beta/nested/SKILL.md", "nested"],
  ]);
  // Consumed back over MCP, the nested skill keeps its place.
  const back = await SkillRegistry.discover({ scopes: [{ name: "srv", storage: mcpStorage(client, { server: "srv" }), trusted: true }] });
  assert.deepEqual(back.names(), ["beta", "nested"]);
  assert.equal(back.get("nested").location, "beta/nested/SKILL.md");
});

test("quoted metadata strings come over MCP without a metadata-not-string warning", async () => {
  const files = { ".agents/skills/pdf/SKILL.md": md("pdf", 'metadata:\n  version: "1.10"\n  build: "7"\n  author: docs\n') };
  const local = await SkillRegistry.discover({ user: memoryStorage(files) });
  assert.ok(!codesOf(local).includes("metadata-not-string"), "the file itself earns none");
  const client = await connectInProcess(skillsMcpServer(local));
  const storage = mcpStorage(client, { server: "srv" });
  const registry = await SkillRegistry.discover({ scopes: [{ name: storage.server, storage, roots: [""], trusted: true }] });
  assert.deepEqual(registry.names(), ["pdf"]);
  assert.deepEqual(registry.diagnostics().filter((d) => d.code.startsWith("metadata-")), []);
  assert.deepEqual(registry.get("pdf").metadata, { version: "1.10", build: "7", author: "docs" });
  // The file read later is the one listed: no mismatch either.
  const read = await registry.readFile("pdf");
  assert.ok(read.text?.includes("# pdf") && read.error === undefined, JSON.stringify(read));
});

test("a v0.1.0 index shows the model the path that serves its files", async (t) => {
  const site = await serve(new Map([
    ["/.well-known/skills/index.json", {
      body: JSON.stringify({ skills: [{ name: "old", description: "Old.", files: ["SKILL.md", "notes/a.md"] }] }),
    }],
    ["/.well-known/skills/old/SKILL.md", { body: md("old") }],
    ["/.well-known/skills/old/notes/a.md", { body: "notes" }],
  ]));
  t.after(() => site.close());
  const registry = await SkillRegistry.discover({ scopes: [{ name: "site", storage: wellKnownStorage(site.url), roots: [""], trusted: true }] });
  assert.deepEqual(registry.names(), ["old"]);
  const shown = registry.get("old").path;
  assert.equal(shown, `${site.url}/.well-known/skills/old/SKILL.md`);
  // The path answers, and so does the catalog's location of the skill.
  const res = await fetch(shown);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), md("old"));
  const catalog = new pkg.SkillTool(registry).catalog().text;
  assert.ok(catalog.includes(shown) && !catalog.includes("/agent-skills/"), catalog);
});

test("a discovery index and an MCP server are listed at their own root without the host naming roots", async (t) => {
  const site = await serve(routesOf(await publishWellKnown({ "pdf/SKILL.md": md("pdf"), "csv/SKILL.md": md("csv") })));
  t.after(() => site.close());
  const store = wellKnownStorage(site.url);
  assert.deepEqual(store.roots, [""]);
  const registry = await SkillRegistry.discover({ scopes: [{ name: "site", storage: store, trusted: true }] });
  assert.deepEqual(registry.names(), ["csv", "pdf"]);
  assert.deepEqual(registry.diagnostics(), []);
  assert.equal(registry.stats().listCalls, 1, "one listing, nothing looked for elsewhere");

  const source = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/acme/refunds/SKILL.md": md("refunds") }) });
  const mcp = mcpStorage(await connectInProcess(skillsMcpServer(source)), { server: "docs" });
  assert.deepEqual(mcp.roots, [""]);
  const viaMcp = await SkillRegistry.discover({ scopes: [{ name: mcp.server, storage: mcp, trusted: true }] });
  assert.deepEqual(viaMcp.names(), ["refunds"]);
  assert.equal(viaMcp.get("refunds").location, "acme/refunds/SKILL.md");
  assert.deepEqual(viaMcp.diagnostics(), []);
  // The host's roots still win over the store's.
  const narrowed = await SkillRegistry.discover({ scopes: [{ name: "site", storage: store, roots: ["csv/"], trusted: true }] });
  assert.deepEqual(narrowed.names(), ["csv"]);
});

test("roots that hold nothing while the store holds skills elsewhere say where, for one list call more", async (t) => {
  const site = await serve(routesOf(await publishWellKnown({ "pdf/SKILL.md": md("pdf") })));
  t.after(() => site.close());
  const known = wellKnownStorage(site.url);
  // A store of the host's own that does not declare its layout.
  const plain = { list: (p, o) => known.list(p, o), read: (k, o) => known.read(k, o), remote: true };
  const registry = await SkillRegistry.discover({ scopes: [{ name: "site", storage: plain, trusted: true }] });
  assert.deepEqual(registry.names(), []);
  const found = registry.diagnostics().filter((d) => d.code === "skills-outside-roots");
  assert.equal(found.length, 1, JSON.stringify(registry.diagnostics()));
  assert.equal(found[0].severity, "warning");
  assert.match(found[0].message, /"pdf\/SKILL\.md"/);
  assert.match(found[0].message, /roots: \[""\]/);
  assert.match(found[0].message, /"\.agents\/skills\/"/);
  assert.equal(registry.stats().listCalls, 2, "the default root, then the store's root once");
  // A refresh looks again while the roots still hold nothing, and only then.
  await registry.refresh();
  assert.equal(registry.stats().listCalls, 4);
  const full = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/a/SKILL.md": md("a"), "b/SKILL.md": md("b") }) });
  assert.deepEqual(full.names(), ["a"]);
  assert.deepEqual(full.diagnostics(), []);
  assert.equal(full.stats().listCalls, 1);
});

test("a store's roots must be an array of strings", async () => {
  const bad = { list: async () => ({ entries: [] }), read: async () => null, roots: "" };
  await assert.rejects(SkillRegistry.discover({ scopes: [{ name: "x", storage: bad }] }), (e) => e instanceof TypeError && /roots/.test(e.message));
  const many = { ...bad, roots: Array.from({ length: 65 }, () => "") };
  await assert.rejects(SkillRegistry.discover({ scopes: [{ name: "x", storage: many }] }), TypeError);
  const throws = { ...bad, get roots() { throw new Error("no"); } };
  await assert.rejects(SkillRegistry.discover({ scopes: [{ name: "x", storage: throws }] }), TypeError);
});
