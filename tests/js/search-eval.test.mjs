// The search evaluation (bench/search-queries.json: 615 requests written from each corpus skill's
// SKILL.md in a user's words, split by skill into a development half and a held-out half) run
// against the corpus: the rank of the first acceptable skill among the first 10 results gives
// recall@1, recall@5 and MRR@10 per half, printed. The held-out half must keep recall@1 at 0.8 and
// recall@5 at 0.9 or above (0.859 and 0.934 when it was written).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, SHARED, importPkg } from "./helpers.mjs";

const pkg = await importPkg();
const CORPUS = path.join(SHARED, "corpus");
const skip = !existsSync(CORPUS) && "no ../shared/corpus";

test("the search evaluation over the corpus, both halves; the held-out half keeps recall@1 0.8 and recall@5 0.9", { skip }, async () => {
  const evaluation = JSON.parse(readFileSync(path.join(ROOT, "bench", "search-queries.json"), "utf8"));
  const registry = await pkg.SkillRegistry.discover({
    scopes: [{ name: "builtin", storage: pkg.nodeFsStorage(CORPUS), roots: ["skills/"] }],
    maxDepth: 12,
    maxDirectories: 100_000,
  });
  const names = new Set(registry.listMetas().map((m) => m.name));
  const queries = evaluation.queries.filter((q) => q.expected.some((n) => names.has(n)));
  assert.ok(queries.length >= 600, `${queries.length} requests name a skill the corpus offers`);
  const scores = {};
  for (const split of ["dev", "heldout"]) {
    const list = queries.filter((q) => q.split === split);
    let at1 = 0;
    let at5 = 0;
    let rr = 0;
    for (const { expected, query } of list) {
      const rank = registry.search(query, { limit: 10 }).findIndex((hit) => expected.includes(hit.name)) + 1;
      if (rank === 1) at1++;
      if (rank >= 1 && rank <= 5) at5++;
      if (rank >= 1) rr += 1 / rank;
    }
    const n = list.length;
    scores[split] = { r1: at1 / n, r5: at5 / n };
    console.log(`# ${split}: ${n} requests: recall@1 ${(at1 / n).toFixed(3)}, recall@5 ${(at5 / n).toFixed(3)}, MRR@10 ${(rr / n).toFixed(3)}`);
  }
  assert.ok(scores.heldout.r1 >= 0.8, `held-out recall@1 ${scores.heldout.r1.toFixed(3)} is below 0.8`);
  assert.ok(scores.heldout.r5 >= 0.9, `held-out recall@5 ${scores.heldout.r5.toFixed(3)} is below 0.9`);
});
