// Declares one node:test test per hostile case of a group (see hostile-cases.mjs), run in worker
// threads by runCases, plus a last test that the test process itself saw no uncaught exception.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { recordProcessErrors, runCases } from "./hostile.mjs";
import { allCases } from "./hostile-cases.mjs";

export function hostileSuite(filter) {
  const seen = recordProcessErrors();
  const cases = allCases().filter(filter);
  const results = runCases(cases);
  for (const c of cases) {
    test(c.id, async () => {
      const r = await results.get(c.id);
      // SKILLWASM_HOSTILE_REPORT=file: one JSON line per case (for tabulating what fails and why).
      if (process.env.SKILLWASM_HOSTILE_REPORT) {
        appendFileSync(process.env.SKILLWASM_HOSTILE_REPORT, `${JSON.stringify({ id: c.id, export: c.export, param: c.param, label: c.label, ...r })}\n`);
      }
      if (r.problems.length > 0) assert.fail(`${c.export} (${c.param}) given ${c.label}:\n  ${r.problems.join("\n  ")}`);
    });
  }
  test("the test process saw no uncaught exception or unhandled rejection", () => {
    assert.deepEqual(seen, []);
  });
  return cases;
}
