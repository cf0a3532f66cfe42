// LangChain.js: examples/langchain.mjs gives the skill tool to LangChain's offline chat model
// (FakeStreamingChatModel from @langchain/core/utils/testing, scripted to call it), and the
// model's tool call goes through LangChain's own tool machinery (bindTools, tool(), ToolMessage).
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, assertBuilt, importPkg } from "./helpers.mjs";

test("examples/langchain.mjs: the fake model's tool call activates the skill", () => {
  assertBuilt();
  const r = spawnSync(process.execPath, [path.join(ROOT, "examples", "langchain.mjs")], { encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^tool call: view_skill \{"name":"csv-profiler"\}$/m);
  assert.match(r.stdout, /^tool message for call_1:\n<skill_content name="csv-profiler">\n# CSV profiler/m);
  assert.match(r.stdout, /^activated: csv-profiler$/m);
});

test("LangChain tool over the skill tool: schema checked by LangChain, errors answered by the tool", async () => {
  const { tool } = await import("@langchain/core/tools");
  const { SkillRegistry, SkillTool, memoryStorage } = await importPkg();
  const registry = await SkillRegistry.discover({
    user: memoryStorage({ ".agents/skills/a/SKILL.md": "---\nname: a\ndescription: b\n---\nAlpha body\n" }),
  });
  const skills = new SkillTool(registry);
  const d = skills.definition();
  const t = tool(async (input) => (await skills.execute(input)).content, { name: d.name, description: d.description, schema: d.inputSchema });
  const message = await t.invoke({ type: "tool_call", id: "c1", name: d.name, args: { name: "a" } });
  assert.equal(message.tool_call_id, "c1");
  assert.match(message.content, /Alpha body/);
  // A name outside the schema's enum is refused by LangChain before the tool runs.
  await assert.rejects(t.invoke({ type: "tool_call", id: "c2", name: d.name, args: { name: "nope" } }), /did not match expected schema/);
  assert.deepEqual(skills.session.activations().map((a) => a.name), ["a"]);
});
