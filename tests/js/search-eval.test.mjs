// The search evaluation (bench/search-eval.json: 238 requests written in a user's words for corpus
// skills) run against the corpus: the rank of the intended skill among the first 10 results gives
// recall@1, recall@5 and MRR@10, printed; recall@5 must stay at the 0.9 or above.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, SHARED, importPkg } from "./helpers.mjs";

const pkg = await importPkg();
const CORPUS = path.join(SHARED, "corpus");
const skip = !existsSync(CORPUS) && "no ../shared/corpus";

test("the search evaluation over the corpus: recall@5 at least 0.9", { skip }, async () => {
  const evaluation = JSON.parse(readFileSync(path.join(ROOT, "bench", "search-eval.json"), "utf8"));
  const registry = await pkg.SkillRegistry.discover({
    scopes: [{ name: "builtin", storage: pkg.nodeFsStorage(CORPUS), roots: ["skills/"] }],
    maxDepth: 12,
    maxDirectories: 100_000,
  });
  const names = new Set(registry.listMetas().map((m) => m.name));
  const queries = evaluation.queries.filter((q) => names.has(q.name));
  assert.equal(queries.length, evaluation.queries.length, "every request names a skill the corpus has");
  let at1 = 0;
  let at5 = 0;
  let rr = 0;
  for (const { name, query } of queries) {
    const rank = registry.search(query, { limit: 10 }).findIndex((hit) => hit.name === name) + 1;
    if (rank === 1) at1++;
    if (rank >= 1 && rank <= 5) at5++;
    if (rank >= 1) rr += 1 / rank;
  }
  const n = queries.length;
  console.log(`# search over ${n} requests: recall@1 ${(at1 / n).toFixed(3)}, recall@5 ${(at5 / n).toFixed(3)}, MRR@10 ${(rr / n).toFixed(3)}`);
  assert.ok(at5 / n >= 0.9, `recall@5 ${(at5 / n).toFixed(3)} is below 0.9`);
});
