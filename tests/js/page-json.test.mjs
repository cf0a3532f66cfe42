// pageJson (boundary.js) reads a store's listing page of the usual shape in one loop; anything
// else it declines (null), and the page is read by boundedJson, the general bounded reader. The
// two must agree: for every page pageJson reads, its JSON is the same value boundedJson gives with
// the holes the engine passes for a page, and the values it hands back unread are the same pairs.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { assertBuilt, PKG } from "./helpers.mjs";

assertBuilt();
const { boundedJson, pageJson } = await import(pathToFileURL(path.join(PKG, "boundary.js")).href);

const MAX_DEPTH = 64;
const MAX_NODES = 1_000_000;
const MAX_CHARS = 64 * 1024 * 1024;
const head = new Uint8Array([0x2d, 0x2d, 0x2d]);

/** [what, page, heads, pageJson must read it (true) or decline it (false)] */
const CASES = [
  ["an empty page", { entries: [] }, false, true],
  ["entries, a cursor", { entries: [{ key: "a/SKILL.md", size: 3, etag: "e1" }], cursor: "c" }, false, true],
  ["a null cursor, warnings", { entries: [], cursor: null, warnings: [{ key: "x", message: "m" }] }, false, true],
  ["keys in another order", { cursor: "z", entries: [{ etag: "e", size: 1, key: "k" }] }, false, true],
  ["a key with a lone surrogate", { entries: [{ key: "a\ud800b", size: 1, etag: "e" }] }, false, true],
  ["an etag with a lone surrogate", { entries: [{ key: "k", size: 1, etag: "e\udc00" }] }, false, true],
  ["a size that is not finite", { entries: [{ key: "k", size: NaN, etag: "e" }, { key: "l", size: Infinity, etag: "f" }] }, false, true],
  ["undefined fields", { entries: [{ key: "k", size: 1, etag: undefined }], cursor: undefined }, false, true],
  ["non-ASCII text", { entries: [{ key: "ü/SKILL.md", size: 1, etag: "—" }], warnings: [{ key: "ü", message: "ça" }] }, false, true],
  ["heads and head errors", { entries: [{ key: "a/SKILL.md", size: 3, etag: "e", head }, { key: "b/SKILL.md", size: 9, etag: "f", headError: "gone" }, { key: "c", size: 1, etag: "g", headError: null }] }, true, true],
  ["a head without heads", { entries: [{ key: "a", size: 1, etag: "e", head }] }, false, false],
  ["an unknown page key", { entries: [], more: 1 }, false, false],
  ["an unknown entry key", { entries: [{ key: "k", size: 1, etag: "e", extra: true }] }, false, false],
  ["a key that is not a string", { entries: [{ key: 5, size: 1, etag: "e" }] }, false, false],
  ["a size that is a string", { entries: [{ key: "k", size: "1", etag: "e" }] }, false, false],
  ["an entry that is an array", { entries: [["k", 1, "e"]] }, false, false],
  ["entries that are not an array", { entries: {} }, false, false],
  ["a numeric cursor", { entries: [], cursor: 5 }, false, false],
  ["an entry with toJSON", { entries: [{ key: "k", size: 1, etag: "e", toJSON: () => ({}) }] }, false, false],
  ["a version and unchanged (the engine reads them apart)", { entries: [{ key: "k", size: 1, etag: "e" }], warnings: [], version: "v7", unchanged: false }, false, true],
  ["a page that is an array", [], false, false],
  ["null", null, false, false],
];

const holes = (heads) => (heads ? ["~entries.*.key", "entries.*.head"] : ["~entries.*.key"]);

for (const [what, page, heads, readsIt] of CASES) {
  test(`pageJson and boundedJson agree: ${what}`, () => {
    const fastTaken = [];
    const fast = pageJson(page, MAX_NODES, MAX_CHARS, heads, fastTaken);
    if (!readsIt) {
      assert.equal(fast, null, "pageJson declines the page, so the general reader reads it");
      assert.deepEqual(fastTaken, [], "a declined page hands nothing back");
      return;
    }
    assert.equal(typeof fast, "string", "pageJson reads a page of the usual shape");
    const slowTaken = [];
    const slow = boundedJson(page, MAX_DEPTH, MAX_NODES, MAX_CHARS, holes(heads), slowTaken);
    assert.equal(slow[0], "J", slow);
    // `version` and `unchanged` are not in pageJson's text: the engine reads them from the page.
    const { version: _v, unchanged: _u, ...general } = JSON.parse(slow.slice(1));
    assert.ok(!("version" in JSON.parse(fast)) && !("unchanged" in JSON.parse(fast)));
    assert.deepEqual(JSON.parse(fast), general);
    assert.deepEqual(fastTaken, slowTaken);
  });
}

test("pageJson declines a page whose getter throws, and one over the bounds", () => {
  const throwing = { entries: [{ key: "k", size: 1, etag: "e" }] };
  Object.defineProperty(throwing.entries[0], "etag", { enumerable: true, get() { throw new Error("no"); } });
  assert.equal(pageJson(throwing, MAX_NODES, MAX_CHARS, false, []), null);
  const page = { entries: Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, size: i, etag: "e" })) };
  assert.equal(pageJson(page, 5, MAX_CHARS, false, []), null, "more values than maxNodes");
  assert.equal(pageJson(page, MAX_NODES, 20, false, []), null, "more characters than maxChars");
  assert.equal(typeof pageJson(page, MAX_NODES, MAX_CHARS, false, []), "string");
});
