// One configuration, one visibility, through the built package: the table of tests/cases/visibility.json
// (also run by tests/host.rs) checked against the catalog, the tool, subagents, /name, $name and
// autocomplete; the predicate called once per skill per generation; the session following compaction.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { importPkg, ROOT } from "./helpers.mjs";

const { SkillRegistry, SkillTool, SkillSession, memoryStorage, renderCatalog, parseMessage, autocomplete, openAiToolMessage, anthropicToolResult, findSkillContent } = await importPkg();
const table = JSON.parse(readFileSync(path.join(ROOT, "tests", "cases", "visibility.json"), "utf8"));

const skillMd = (name, front) =>
  `---\nname: ${name}\ndescription: The ${name} skill.\n${Object.entries(front).map(([k, v]) => `${k}: ${v}\n`).join("")}---\n# ${name}\n\nDo the ${name} thing.\n`;

async function tableRegistry() {
  const files = Object.fromEntries(table.skills.map((s) => [`.agents/skills/${s.name}/SKILL.md`, skillMd(s.name, s.front)]));
  const calls = [];
  const permitted = (m) => {
    calls.push(m.name);
    return !table.refused.includes(m.name);
  };
  const registry = await SkillRegistry.discover({ user: memoryStorage(files), ...table.config, permitted });
  return { registry, calls };
}

test("the visibility table: the catalog, the tool, subagents, /name, $name and autocomplete agree", async () => {
  const { registry, calls } = await tableRegistry();
  const tool = new SkillTool(registry);
  const catalog = renderCatalog(registry);
  const offered = tool.definition().inputSchema.properties.name.enum;
  for (const s of table.skills) {
    const { name } = s;
    assert.equal(catalog.skills.includes(name), s.model, `${name}: catalog`);
    assert.equal(offered.includes(name), s.model, `${name}: tool enum`);
    assert.equal((await tool.execute({ name })).isError, !s.model, `${name}: tool`);
    assert.equal((await tool.subagentPrompt(name, "x")) !== null, s.model, `${name}: subagent`);
    assert.equal(parseMessage(registry, `/${name} now`).invocations.length === 1, s.user, `${name}: /name`);
    assert.equal(parseMessage(registry, `see $${name} here`).invocations.length === 1, s.user, `${name}: $name`);
    assert.equal(autocomplete(registry, name, 0).some((x) => x.name === name), s.user, `${name}: autocomplete`);
    assert.equal((await tool.invoke(`/${name}`)).injected.length === 1, s.user, `${name}: injected`);
    assert.equal(catalog.hidden.find((h) => h.name === name)?.reason, s.reason, `${name}: reason`);
  }
  const once = table.skills.filter((s) => s.predicate).map((s) => s.name).sort();
  assert.deepEqual([...calls].sort(), once, "the predicate ran once per skill");
  renderCatalog(registry, { format: "json" }); // a presentation override reuses the visibility
  assert.equal(calls.length, once.length);
  await registry.refresh();
  tool.definition();
  renderCatalog(registry);
  assert.equal(calls.length, 2 * once.length, "once more per skill after a refresh");
});

test("the registry guide's pattern: the filter given once hides the skill from the catalog, the tool and mentions", async () => {
  const files = {
    ".agents/skills/deploy/SKILL.md": skillMd("deploy", {}),
    ".agents/skills/pdf/SKILL.md": skillMd("pdf", {}),
  };
  const registry = await SkillRegistry.discover({ user: memoryStorage(files), permitted: (s) => s.name !== "deploy", budgetTokens: 2000 });
  const tool = new SkillTool(registry, { toolName: "activate_skill" });
  assert.deepEqual(renderCatalog(registry, { format: "markdown" }).skills, ["pdf"]);
  assert.deepEqual(tool.definition().inputSchema.properties.name.enum, ["pdf"]);
  assert.equal((await tool.execute({ name: "deploy" })).isError, true);
  assert.deepEqual((await tool.invoke("/deploy and $deploy")).injected, []);
  assert.deepEqual(autocomplete(registry, "dep"), []);
  // Per-tool overrides keep the registry's filters and follow into invoke.
  assert.match(tool.catalog().instructions, /activate_skill/);
});

test("the session follows the transcript: compacted away means the next activation is full", async () => {
  const files = { ".agents/skills/a/SKILL.md": skillMd("a", {}), ".agents/skills/b/SKILL.md": skillMd("b", {}) };
  const registry = await SkillRegistry.discover({ user: memoryStorage(files), toolName: "activate_skill" });
  const tool = new SkillTool(registry);
  const call = async (id, name) => {
    const assistant = { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "activate_skill", arguments: JSON.stringify({ name }) } }] };
    return [assistant, await openAiToolMessage(tool, assistant.tool_calls[0])];
  };
  const t = [{ role: "user", content: "go" }, ...(await call("c1", "a")), ...(await call("c2", "a")), ...(await call("c3", "b"))];
  assert.match(t[4].content, /status="already-loaded".*force: true/);
  assert.equal(tool.definition().inputSchema.properties.force.type, "boolean");
  const c = tool.compactSkillContent(t, { keepRecent: 1 });
  assert.equal(c.report.changes.length, 1);
  assert.equal(tool.session.isLoaded("a"), false);
  assert.equal(tool.session.isLoaded("b"), true);
  const again = await tool.execute({ name: "a" });
  assert.equal(again.alreadyLoaded, false);
  assert.match(again.content, /Do the a thing\./);
  // Re-attached, the skill counts as loaded again; a host's own pruning is told with observe.
  const back = await tool.reattach(c.transcript);
  assert.ok(back.report.changes.some((x) => x.skill === "a"));
  assert.equal(tool.session.isLoaded("a"), true);
  assert.deepEqual(tool.session.observe([{ role: "user", content: "new" }], { toolName: "activate_skill" }), { forgotten: ["a", "b"], restored: [] });
  assert.equal((await tool.execute({ name: "b" })).alreadyLoaded, false);
  // pruneTranscript and dedupeSkillContent run through the tool too.
  assert.equal(tool.pruneTranscript(t, 1_000_000).report.fits, true);
  assert.deepEqual(tool.dedupeSkillContent(t).report.changes, []);
  const shared = new SkillSession();
  assert.deepEqual(shared.observe([]), { forgotten: [], restored: [] });
});

test("framework answers take their text from the core: other tools and bad JSON are errors", async () => {
  const registry = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/a/SKILL.md": skillMd("a", {}) }) });
  const tool = new SkillTool(registry);
  const other = await openAiToolMessage(tool, { id: "x", function: { name: "web_search", arguments: '{"q":"x"}' } });
  assert.match(other.content, /^The input must be a call of view_skill \(this call is for 'web_search'/);
  const bad = await openAiToolMessage(tool, { id: "y", function: { name: "view_skill", arguments: "{oops" } });
  assert.match(bad.content, /^The input must be \{ name, path\? \} \(the tool arguments are not JSON/);
  const t = [
    { role: "assistant", content: null, tool_calls: [{ id: "y", type: "function", function: { name: "view_skill", arguments: "{oops" } }] },
    { role: "tool", tool_call_id: "y", content: bad.content },
  ];
  assert.deepEqual(findSkillContent(t).uses.map((u) => u.kind), ["error"]);
  const block = await anthropicToolResult(tool, { type: "tool_use", id: "z", name: "calculator", input: { x: 1 } });
  assert.equal(block.is_error, true);
  assert.match(block.content, /'calculator'/);
  assert.deepEqual(tool.session.activations(), []);
});

test("every location the model is shown is usable: absolute on disk, a URI naming the store otherwise", async () => {
  const { nodeFsStorage, r2Storage, indexedDbStorage } = await importPkg();
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-loc-"));
  try {
    mkdirSync(path.join(dir, ".agents", "skills", "disk"), { recursive: true });
    writeFileSync(path.join(dir, ".agents", "skills", "disk", "SKILL.md"), skillMd("disk", {}));
    writeFileSync(path.join(dir, ".agents", "skills", "disk", "notes.md"), "disk notes");
    const fsStore = nodeFsStorage(path.relative(process.cwd(), dir) || ".");
    assert.equal(fsStore.location, dir);
    const registry = await SkillRegistry.discover({
      project: fsStore,
      user: memoryStorage({ ".agents/skills/mem/SKILL.md": skillMd("mem", {}), ".agents/skills/disk/SKILL.md": skillMd("disk", {}) }),
      trustProject: true,
      activation: "read",
    });
    const disk = registry.get("disk");
    assert.equal(disk.path, path.join(dir, ".agents/skills/disk/SKILL.md"));
    assert.equal(registry.get("mem").path, "memory:/.agents/skills/mem/SKILL.md");
    // The file-read catalog shows paths that exist from anywhere.
    const catalog = renderCatalog(registry, { format: "json" });
    for (const e of JSON.parse(catalog.text)) assert.equal(e.location, registry.get(e.name).path);
    assert.ok(existsSync(JSON.parse(catalog.text).find((e) => e.name === "disk").location));
    const tool = new SkillTool(registry);
    assert.match((await tool.execute({ name: "disk" })).content, new RegExp(`^Skill directory: ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/\\.agents/skills/disk$`, "m"));
    // scopePaths still overrides, in the catalog and the tool alike.
    const over = new SkillTool(registry, { scopePaths: { user: "/srv/user" } });
    assert.match((await over.execute({ name: "mem" })).content, /^Skill directory: \/srv\/user\/\.agents\/skills\/mem$/m);
    assert.match(over.catalog().text, /<location>\/srv\/user\/\.agents\/skills\/mem\/SKILL\.md<\/location>/);
    // Scoped listings and reads reach the shadowed copy.
    assert.deepEqual(registry.listMetas("user").map((m) => [m.name, m.shadowedBy ?? null]), [["disk", "project:.agents/skills/disk/SKILL.md"], ["mem", null]]);
    assert.deepEqual(await registry.readScopedFile("project", "disk", "notes.md"), { content: "disk notes", path: path.join(dir, ".agents/skills/disk/notes.md") });
    assert.deepEqual(await registry.readScopedFile("user", "disk"), { content: "# disk\n\nDo the disk thing.", path: "memory:/.agents/skills/disk/SKILL.md" });
    assert.equal(await registry.readScopedFile("user", "disk", "notes.md"), null);
    assert.equal(await registry.readScopedFile("org", "disk"), null);
    assert.equal(await registry.readScopedFile("project", "disk", "../../x"), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const bucket = { list: async () => ({ objects: [], truncated: false }), get: async () => null, head: async () => null };
  assert.equal(r2Storage(bucket, { prefix: "skills" }).location, "r2:/skills/");
  assert.equal(r2Storage(bucket, { prefix: "skills/", bucketName: "team-skills" }).location, "r2://team-skills/skills/");
  assert.throws(() => r2Storage(bucket, { bucketName: "Bad Name" }), TypeError);
  assert.equal(indexedDbStorage({ dbName: "my db", storeName: "skills", indexedDB: { open() {} }, IDBKeyRange: { bound() {}, lowerBound() {} } }).location, "indexeddb://my%20db/skills/");
});
