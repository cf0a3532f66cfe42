// parseSkills copies a batch into wasm memory a run of at most 8 MiB at a time: a run's buffer is
// freed before the next one is made, so a batch of large files never holds two runs' bytes at
// once (the memory, which never shrinks, would keep that peak). Run in a fresh process, so that
// the memory is the one this batch alone grows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertBuilt, runFreshModule } from "./helpers.mjs";

assertBuilt();

const SCRIPT = `
const { parseSkills } = await import(process.env.PKG_NODE);
const glue = await import(process.env.PKG_GLUE);
const memory = () => glue.initSync().memory.buffer.byteLength;
// Four files of 7 MiB: each fills a run of its own.
const body = "x".repeat(7 * 1024 * 1024);
const items = [0, 1, 2, 3].map((i) => ({ input: "---\\nname: s" + i + "\\ndescription: D.\\n---\\n" + body, dirName: "s" + i }));
const before = memory();
const results = parseSkills(items, { includeBody: true });
console.log(JSON.stringify({
  before,
  after: memory(),
  names: results.map((r) => r.skill?.name),
  bodies: results.map((r) => r.skill?.body?.length),
}));
`;

test("a batch of large files holds one run's bytes at a time", () => {
  const { before, after, names, bodies } = runFreshModule(SCRIPT);
  assert.deepEqual(names, ["s0", "s1", "s2", "s3"]);
  assert.deepEqual(bodies, [0, 1, 2, 3].map(() => 7 * 1024 * 1024));
  const mib = 1024 * 1024;
  // One run is 7 MiB of input; two held at once would grow the memory by 14 MiB and more.
  assert.ok(after - before < 12 * mib, `the memory grew by ${((after - before) / mib).toFixed(1)} MiB`);
});
