// fromSnapshot makes room for the copy of the snapshot's bytes at once, then, once the snapshot is
// found good, for what the registry it starts holds beside those bytes, which it keeps and reads
// in place (two ninths of their size, its first catalog and search included), each in one grow of
// the module's memory: a refused one (damaged, or taken with other scopes) grows the memory by its
// copy alone, which never shrinks. Run in a fresh process, so that the memory is the one this
// snapshot alone grows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertBuilt, runFreshModule } from "./helpers.mjs";

assertBuilt();

const SCRIPT = `
const { SkillRegistry, memoryStorage } = await import(process.env.PKG_NODE);
const glue = await import(process.env.PKG_GLUE);
const memory = () => glue.initSync().memory.buffer.byteLength;
const store = memoryStorage({ ".agents/skills/a/SKILL.md": "---\\nname: a\\ndescription: A.\\n---\\n" });
const reg = await SkillRegistry.discover({ user: store });
const good = reg.snapshot();
// A damaged snapshot of 64 MiB: the good one's header, then bytes its checksum does not cover.
const bad = new Uint8Array(64 * 1024 * 1024);
bad.set(good.subarray(0, Math.min(good.length, 64)));
const before = memory();
let refused = "";
try { SkillRegistry.fromSnapshot(bad, { user: store }); } catch (e) { refused = String(e.message); }
console.log(JSON.stringify({ before, after: memory(), refused, again: SkillRegistry.fromSnapshot(good, { user: store }).names() }));
`;

test("a snapshot that is refused does not grow the memory for the registry it would hold", () => {
  const { before, after, refused, again } = runFreshModule(SCRIPT);
  assert.match(refused, /^snapshot-invalid: /);
  const mib = 1024 * 1024;
  // The bytes themselves are copied in (64 MiB, in one grow: not followed by the allocator's step
  // of growth, up to 8 MiB); room for a registry would be 14 MiB more.
  assert.ok(after - before < 66 * mib, `the memory grew by ${((after - before) / mib).toFixed(1)} MiB`);
  assert.deepEqual(again, ["a"], "a good snapshot still starts a registry");
});
