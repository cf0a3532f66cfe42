// The terminal demo (make demo) runs on the bundled examples and shows each step of the main job.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, assertBuilt } from "./helpers.mjs";

test("examples/demo.mjs: discovery, catalog, activation, /skill, compaction", () => {
  assertBuilt();
  const r = spawnSync(process.execPath, [path.join(ROOT, "examples", "demo.mjs")], { encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /=== discovered 7 skills ===/);
  assert.match(r.stdout, /needs-repair\s+user\s+warning:crlf warning:yaml-repair-colon/);
  assert.match(r.stdout, /<available_skills>\n<skill><name>changelog-writer<\/name>/);
  assert.match(r.stdout, /<skill_content name="csv-profiler">\n# CSV profiler/);
  assert.match(r.stdout, /UI stream gets: \{"name":"csv-profiler","skillName":"csv-profiler","path":null,"content":"Skill activated."\}/);
  assert.match(r.stdout, /remaining message: "2\.1\.0"/);
  const [, before, after] = r.stdout.match(/compacted: (\d+) -> (\d+) tokens/);
  assert.ok(Number(after) < Number(before));
  assert.match(r.stdout, /re-attached: \d+ tokens; appended csv-profiler/);
});
