// A session's memory is bounded however long the conversation: it keeps the last 1000
// activations (SkillSession#activations) and a count per skill (SkillSession#counts), not every
// activation. Measured in a fresh process on the wasm instance's memory: 100,000 forced
// activations (about 120 bytes each when every one was kept: 12 MB) grow it by far less.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertBuilt, runFreshModule } from "./helpers.mjs";

assertBuilt();

const SCRIPT = `
const { SkillRegistry, SkillTool, memoryStorage } = await import(process.env.PKG_NODE);
const glue = await import(process.env.PKG_GLUE);
const memory = () => glue.initSync().memory.buffer.byteLength;
const md = (n) => "---\\nname: " + n + "\\ndescription: The " + n + " skill.\\n---\\nDo the " + n + " thing.\\n";
const registry = await SkillRegistry.discover({
  user: memoryStorage({ ".agents/skills/alpha/SKILL.md": md("alpha"), ".agents/skills/beta/SKILL.md": md("beta"), ".agents/skills/beta/notes.md": "notes" }),
});
const tool = new SkillTool(registry);
const N = 100000;
// Warm up (the first calls grow the memory for what every call needs), then measure.
for (let i = 0; i < 1000; i++) await tool.invoke(i % 2 ? "/alpha go" : "/beta go", { force: true });
const before = memory();
for (let i = 0; i < N; i++) await tool.invoke(i % 2 ? "/alpha go" : "/beta go", { force: true });
const reads = [];
for (let i = 0; i < 10; i++) reads.push((await tool.execute({ name: "beta", path: "notes.md" })).isError);
const acts = tool.session.activations();
console.log(JSON.stringify({
  before,
  after: memory(),
  kept: acts.length,
  lastIndex: acts[acts.length - 1].index,
  lastPath: acts[acts.length - 1].path,
  counts: tool.session.counts(),
  loaded: tool.session.isLoaded("alpha"),
  reads,
}));
`;

test("100,000 forced activations: the session keeps the last 1000 and a count per skill; its memory stays small", () => {
  const r = runFreshModule(SCRIPT);
  assert.deepEqual(r.reads, Array(10).fill(false));
  assert.equal(r.kept, 1000);
  assert.equal(r.lastIndex, 101_010, "every activation is numbered, also those no longer kept");
  assert.equal(r.lastPath, "notes.md");
  assert.deepEqual(r.counts.map((c) => [c.name, c.activations, c.reads]), [["alpha", 50_500, 0], ["beta", 50_500, 10]]);
  assert.ok(r.counts.every((c) => c.bytes > 0 && typeof c.lastAt === "number"));
  assert.equal(r.loaded, true);
  const grew = r.after - r.before;
  console.log(`wasm memory: ${(r.before / 2 ** 20).toFixed(1)} MiB before, grew by ${(grew / 2 ** 20).toFixed(2)} MiB over 100,000 activations`);
  assert.ok(grew < 2 * 2 ** 20, `the memory grew by ${(grew / 2 ** 20).toFixed(2)} MiB`);
});
