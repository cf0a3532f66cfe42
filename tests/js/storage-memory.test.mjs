// memoryStorage keeps its listing in key order through any mix of puts and deletes: a put that
// replaces an object keeps the sorted keys (its entry shows the new size and etag at once), a put
// of a new key or a delete rebuilds them. Each step's full listing, paged, must equal a plain
// model's: the keys of a Map, sorted, with their sizes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { importPkg } from "./helpers.mjs";

const { memoryStorage } = await importPkg();

/** Every entry under `prefix`, paged `limit` at a time. */
async function listAll(storage, prefix, limit) {
  const out = [];
  let cursor;
  do {
    const page = await storage.list(prefix, cursor === undefined ? { limit } : { limit, cursor });
    out.push(...page.entries);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return out;
}

/** A small deterministic generator (xorshift). */
function rng(seed) {
  let x = seed;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

test("puts and deletes keep the listing in key order, with each object's size and etag", async () => {
  const next = rng(0x2545f491);
  const storage = memoryStorage();
  const model = new Map();
  // The etag listed for each content: one content, one etag; two contents, two etags.
  const etagOf = new Map();
  for (let step = 0; step < 400; step++) {
    const key = `skills/s${next(40)}/${next(3) === 0 ? "notes.md" : "SKILL.md"}`;
    const op = next(10);
    if (op < 2) {
      assert.equal(storage.delete(key), model.delete(key), `step ${step}: delete ${key}`);
    } else {
      const content = "x".repeat(1 + next(50));
      storage.put(key, content);
      model.set(key, content);
    }
    // A listing after most steps, so that the sorted keys are built and then kept or rebuilt.
    if (op % 3 === 0) continue;
    const listed = await listAll(storage, "skills/", 1 + next(7));
    const expected = [...model.keys()].sort().map((k) => [k, model.get(k).length]);
    assert.deepEqual(listed.map((e) => [e.key, e.size]), expected, `step ${step}`);
    for (const e of listed) {
      const content = model.get(e.key);
      assert.equal(etagOf.get(content) ?? e.etag, e.etag, `step ${step}: ${e.key}'s etag follows its content`);
      etagOf.set(content, e.etag);
    }
  }
  assert.equal(new Set(etagOf.values()).size, etagOf.size, "different contents, different etags");
});

test("a replaced object shows its new size and etag in the next listing", async () => {
  const storage = memoryStorage({ "a/SKILL.md": "one", "b/SKILL.md": "two" });
  const first = await listAll(storage, "", 10);
  storage.put("a/SKILL.md", "three!");
  const second = await listAll(storage, "", 10);
  assert.deepEqual(second.map((e) => e.key), ["a/SKILL.md", "b/SKILL.md"]);
  assert.equal(second[0].size, 6);
  assert.notEqual(second[0].etag, first[0].etag);
  assert.deepEqual(second[1], first[1]);
  storage.put("0/SKILL.md", "new");
  assert.deepEqual((await listAll(storage, "", 1)).map((e) => e.key), ["0/SKILL.md", "a/SKILL.md", "b/SKILL.md"]);
});
