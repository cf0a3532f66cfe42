// Same-named skills told apart, as the MCP Skills extension asks of hosts: every skill of a name is
// offered to the model (catalog, tool) under a name of its own, across scopes, across MCP servers
// (the official SDK's Client, in process) and within one server's listing. The rule is the core's
// (docs/guides/naming.md): the first of a name in precedence order keeps it, every other is offered
// as <scope>:<skill path>.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import * as z from "zod/v4";
import { PKG, importPkg } from "./helpers.mjs";
import { connectInProcess } from "./support/mcp-connect.mjs";

const pkg = await importPkg();
const { SkillRegistry, SkillTool, memoryStorage, mcpStorage } = pkg;
const { skillsMcpServer } = await import(path.join(PKG, "mcp-server.js"));

const Loose = z.looseObject({});
const md = (name, who) => `---\nname: ${name}\ndescription: ${who}'s ${name} skill.\n---\n\n# ${name}\n\nThe ${who} way.\n`;

test("same-named skills of two scopes are both offered: the catalog lists both, the tool loads either", async () => {
  const registry = await SkillRegistry.discover({
    project: memoryStorage({ ".agents/skills/pdf/SKILL.md": md("pdf", "Project") }),
    user: memoryStorage({ ".agents/skills/pdf/SKILL.md": md("pdf", "User"), ".agents/skills/team/pdf/SKILL.md": md("pdf", "Team") }),
    trustProject: true,
  });
  assert.deepEqual(registry.names(), ["pdf", "user:pdf", "user:team/pdf"]);
  const tool = new SkillTool(registry, {});
  assert.deepEqual(tool.definition().inputSchema.properties.name.enum, ["pdf", "user:pdf", "user:team/pdf"]);
  const catalog = tool.catalog().text;
  for (const who of ["Project", "User", "Team"]) assert.ok(catalog.includes(`${who}'s pdf skill.`), catalog);
  assert.ok(catalog.includes("user:team/pdf"), catalog);
  for (const [name, who] of [["pdf", "Project"], ["user:pdf", "User"], ["user:team/pdf", "Team"]]) {
    const r = await tool.execute({ name });
    assert.ok(!r.isError && r.content.includes(`The ${who} way.`), `${name}: ${r.content}`);
  }
  const shadowed = registry.diagnostics().filter((d) => d.code === "skill-shadowed").map((d) => d.message);
  assert.ok(shadowed.some((m) => m.endsWith("offered as 'user:team/pdf'")), shadowed.join("\n"));
  // The same names after a refresh.
  await registry.refresh();
  assert.deepEqual(registry.names(), ["pdf", "user:pdf", "user:team/pdf"]);
});

test("two MCP servers that both serve pdf: the model reaches both", async () => {
  const serverOf = async (who) => {
    const source = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/pdf/SKILL.md": md("pdf", who) }) });
    return mcpStorage(await connectInProcess(skillsMcpServer(source)), { server: who.toLowerCase() });
  };
  const [docs, legal] = [await serverOf("Docs"), await serverOf("Legal")];
  const registry = await SkillRegistry.discover({
    scopes: [{ name: docs.server, storage: docs, trusted: true }, { name: legal.server, storage: legal, trusted: true }],
  });
  assert.deepEqual(registry.names(), ["legal:pdf", "pdf"]);
  const tool = new SkillTool(registry, {});
  const r = await tool.execute({ name: "legal:pdf" });
  assert.ok(!r.isError && r.content.includes("The Legal way."), r.content);
  assert.equal(registry.get("legal:pdf").path, "mcp://legal/pdf/SKILL.md");
});

test("one listing with one name twice: both entries are served, and the consumer tells them apart", async () => {
  // A server whose registry offers pdf and user:pdf lists two entries named pdf, at paths of their own.
  const source = await SkillRegistry.discover({
    project: memoryStorage({ ".agents/skills/pdf/SKILL.md": md("pdf", "Project") }),
    user: memoryStorage({ ".agents/skills/pdf/SKILL.md": md("pdf", "User") }),
    trustProject: true,
  });
  const client = await connectInProcess(skillsMcpServer(source));
  const listed = await client.request({ method: "skills/list", params: {} }, Loose);
  assert.deepEqual(listed.skills.map((s) => [s.uri, s.frontmatter.name]), [
    ["skill://pdf/SKILL.md", "pdf"], ["skill://user/pdf/SKILL.md", "pdf"],
  ]);
  const read = await client.readResource({ uri: "skill://user/pdf/SKILL.md" });
  assert.equal(read.contents[0].text, md("pdf", "User"));
  const storage = mcpStorage(client, { server: "srv" });
  const registry = await SkillRegistry.discover({ scopes: [{ name: "srv", storage, trusted: true }] });
  assert.deepEqual(registry.names(), ["pdf", "srv:user/pdf"]);
  const r = await new SkillTool(registry, {}).execute({ name: "srv:user/pdf" });
  assert.ok(!r.isError && r.content.includes("The User way."), r.content);
});

test("a published discovery index keeps one skill per name", async () => {
  const registry = await SkillRegistry.discover({
    project: memoryStorage({ ".agents/skills/pdf/SKILL.md": md("pdf", "Project") }),
    user: memoryStorage({ ".agents/skills/pdf/SKILL.md": md("pdf", "User") }),
    trustProject: true,
  });
  const published = await pkg.publishRegistry(registry);
  const index = JSON.parse(new TextDecoder().decode(published.index));
  assert.deepEqual(index.skills.map((s) => s.name), ["pdf"]);
  assert.deepEqual(published.diagnostics, []);
});
