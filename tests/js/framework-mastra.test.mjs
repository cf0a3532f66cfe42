// Mastra (@mastra/core): the skill tool given to a Mastra Agent through Mastra's own createTool
// (mastraTool), run with Mastra's scripted model (MastraLanguageModelV2Mock from
// @mastra/core/test-utils/llm-mock), which calls the tool and then answers. Mastra asks for
// Node >= 22.13: it is installed under target/mastra (support/mastra.mjs) and run under the Node 22
// of support/node22.mjs; the tests skip, saying why, only when either cannot be had.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { spawnSync } from "node:child_process";
import { PKG, ROOT, assertBuilt, importPkg } from "./helpers.mjs";
import { node22 } from "./support/node22.mjs";
import { MASTRA_VERSION, mastra } from "./support/mastra.mjs";

const NODE22 = node22();
const MASTRA = NODE22.bin ? mastra() : { skip: NODE22.skip };
const skip = NODE22.skip ?? MASTRA.skip ?? false;

/** Runs support/mastra-agent.mjs under Node 22 with the model calling the tool with `call`. */
function runAgent(call) {
  assertBuilt();
  const script = path.join(MASTRA.dir, "mastra-agent.mjs");
  copyFileSync(path.join(ROOT, "tests", "js", "support", "mastra-agent.mjs"), script);
  const r = spawnSync(NODE22.bin, [script, pathToFileURL(path.join(PKG, "node.js")).href, JSON.stringify(call)], { encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

test(`Mastra ${MASTRA_VERSION}: the mock model calls the skill tool and gets the skill's instructions`, { skip }, () => {
  const out = runAgent({ name: "csv-profiler" });
  assert.equal(out.text, "Profiled.");
  assert.equal(out.calls, 2);
  assert.deepEqual(out.offered, [{ name: "view_skill", enum: ["csv-profiler", "pdf"] }]);
  assert.equal(out.toolResults.length, 1);
  assert.equal(out.toolResults[0].toolName, "view_skill");
  assert.match(out.toolResults[0].output.value, /^<skill_content name="csv-profiler">\n# CSV profiler\nCount the rows/);
  assert.deepEqual(out.activations, ["csv-profiler"]);
});

test(`Mastra ${MASTRA_VERSION}: a call the tool cannot serve is answered with the tool's error text`, { skip }, () => {
  const out = runAgent({ name: "pdf", path: "../../etc/passwd" });
  assert.equal(out.text, "Profiled.");
  assert.match(JSON.stringify(out.toolResults[0].output), /leaves the skill directory/);
  assert.deepEqual(out.activations, []);
});

test("mastraTool: createTool's options; null with no visible skill; a TypeError for what is no SkillTool", async () => {
  const { SkillRegistry, SkillTool, memoryStorage, mastraTool } = await importPkg();
  const skills = new SkillTool(await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/a/SKILL.md": "---\nname: a\ndescription: b\n---\nAlpha\n" }) }));
  const shape = mastraTool(skills);
  assert.deepEqual(Object.keys(shape).sort(), ["description", "execute", "id", "inputSchema"]);
  assert.equal(shape.id, "view_skill");
  assert.deepEqual(shape.inputSchema, skills.definition().inputSchema);
  assert.match(await shape.execute({ name: "a" }), /^<skill_content name="a">\nAlpha/);
  assert.equal(mastraTool(new SkillTool(await SkillRegistry.discover({ user: memoryStorage() }))), null);
  assert.throws(() => mastraTool(undefined), { name: "TypeError", message: /mastraTool: tool must be a SkillTool/ });
});
