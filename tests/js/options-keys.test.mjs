// Every options key is checked, whatever its value: a misspelt callback (`permited`) is a
// TypeError naming it, not an option silently left out (which would disable the permission
// filter), in SkillTool, SkillRegistry.discover, fromSnapshot and renderCatalog alike; a known key
// holding a function where data belongs is a TypeError too. A `permitted` predicate that throws
// hides its skill (default deny) and says so: a `permitted-failed` warning naming the skill.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, importPkg } from "./helpers.mjs";

const { SkillRegistry, SkillTool, memoryStorage, parseSkill, renderCatalog } = await importPkg();

const md = (n) => `---\nname: ${n}\ndescription: The ${n} skill.\n---\nDo the ${n} thing.\n`;
const store = () => memoryStorage({ ".agents/skills/alpha/SKILL.md": md("alpha"), ".agents/skills/beta/SKILL.md": md("beta") });
const typeError = (key) => (e) => e instanceof TypeError && e.message.includes(key);
const VALUES = { function: () => false, number: 1, string: "x", boolean: false, null: null, object: {}, array: [], symbol: Symbol("s") };

test("a misspelt permitted is a TypeError, whatever its value, in every entry that takes options", async () => {
  const registry = await SkillRegistry.discover({ user: store() });
  const snapshot = registry.snapshot();
  for (const [kind, value] of Object.entries(VALUES)) {
    const opts = { permited: value };
    assert.throws(() => new SkillTool(registry, opts), typeError("permited"), `SkillTool, ${kind}`);
    assert.throws(() => new SkillTool(registry, { catalog: opts }), typeError("permited"), `SkillTool catalog, ${kind}`);
    assert.throws(() => renderCatalog(registry, opts), typeError("permited"), `renderCatalog, ${kind}`);
    await assert.rejects(SkillRegistry.discover({ user: store(), ...opts }), typeError("permited"), `discover, ${kind}`);
    assert.throws(() => SkillRegistry.fromSnapshot(snapshot, { user: store(), ...opts }), typeError("permited"), `fromSnapshot, ${kind}`);
  }
  // Left undefined, a key is absent (as JSON has it).
  assert.ok(new SkillTool(registry, { permited: undefined }));
});

test("permitted itself must be a function; a function where data belongs is a TypeError naming the key", async () => {
  const registry = await SkillRegistry.discover({ user: store() });
  for (const value of [1, "yes", true, {}, []]) {
    assert.throws(() => new SkillTool(registry, { permitted: value }), typeError("permitted"));
    await assert.rejects(SkillRegistry.discover({ user: store(), permitted: value }), typeError("permitted"));
  }
  assert.throws(() => new SkillTool(registry, { toolName: () => "x" }), typeError("toolName"));
  assert.throws(() => renderCatalog(registry, { format: () => "xml" }), typeError("format"));
  assert.throws(() => parseSkill(md("alpha"), { mode: () => "strict" }), typeError("mode"));
  await assert.rejects(SkillRegistry.discover({ user: store(), trustProject: () => true }), typeError("trustProject"));
  await assert.rejects(SkillRegistry.discover({ scopes: [{ name: "s", storage: store(), trusetd: () => true }] }), typeError("trusetd"));
  // The real predicate filters.
  const tool = new SkillTool(registry, { permitted: (m) => m.name !== "beta" });
  assert.deepEqual(tool.definition().inputSchema.properties.name.enum, ["alpha"]);
});

test("a permitted predicate that throws hides the skill and says so in a warning naming it", async () => {
  const permitted = (m) => {
    if (m.name === "beta") throw new Error("the policy service is down");
    return true;
  };
  const registry = await SkillRegistry.discover({ user: store() });
  const r = renderCatalog(registry, { permitted });
  assert.deepEqual(r.skills, ["alpha"]);
  assert.deepEqual(r.hidden.map((h) => [h.name, h.reason]), [["beta", "not-permitted"]]);
  const d = r.diagnostics.filter((x) => x.code === "permitted-failed");
  assert.equal(d.length, 1);
  assert.equal(d[0].severity, "warning");
  assert.match(d[0].message, /'beta'/);
  assert.match(d[0].message, /the policy service is down/);
  // The same through the registry's own configuration and a tool: still hidden.
  const guarded = await SkillRegistry.discover({ user: store(), permitted });
  assert.deepEqual(guarded.names().sort(), ["alpha", "beta"], "discovered, but not shown");
  assert.deepEqual(new SkillTool(guarded).definition().inputSchema.properties.name.enum, ["alpha"]);
  assert.ok(renderCatalog(guarded).diagnostics.some((x) => x.code === "permitted-failed" && /'beta'/.test(x.message)));
  const refused = await new SkillTool(guarded).execute({ name: "beta" });
  assert.equal(refused.isError, true);
  // A predicate that answers no, or something else than a boolean, hides without a warning.
  const quiet = renderCatalog(registry, { permitted: (m) => (m.name === "beta" ? "yes" : true) });
  assert.deepEqual(quiet.skills, ["alpha"]);
  assert.ok(!quiet.diagnostics.some((x) => x.code === "permitted-failed"));
});

test("the MCP server helpers refuse unknown options too", async () => {
  const { skillsMcpServer, skillsMcpHandler } = await import(pathToFileURL(path.join(PKG, "mcp-server.js")).href);
  const registry = await SkillRegistry.discover({ user: store() });
  for (const f of [skillsMcpServer, skillsMcpHandler]) {
    for (const value of Object.values(VALUES)) assert.throws(() => f(registry, { pageSise: value }), typeError("pageSise"));
  }
  assert.ok(skillsMcpServer(registry, { pageSize: 10, tool: true }));
});
