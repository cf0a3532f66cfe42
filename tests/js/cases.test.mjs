// The case tables in tests/cases/, shared with the Rust tests (tests/cases.rs): the storage key
// check that every adapter repeats in JS (it must work before init()), the memory store's etag,
// and the package's token estimate, each held to the same table as the core.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { PKG, ROOT, importPkg } from "./helpers.mjs";

const table = (name) => JSON.parse(readFileSync(path.join(ROOT, "tests", "cases", name), "utf8"));
// The adapters' own module: no wasm behind it.
const keys = await import(pathToFileURL(path.join(PKG, "storage", "keys.js")).href);

test("storage keys and prefixes follow the shared table, reason and wording", () => {
  const { reasons, cases } = table("keys.json");
  assert.ok(cases.length >= 50);
  for (const c of cases) {
    const issue = c.kind === "key" ? keys.keyIssue(c.input) : keys.prefixIssue(c.input);
    const what = `${c.kind} ${JSON.stringify(c.input)}`;
    assert.equal(issue === null, c.valid, what);
    if (!c.valid) {
      assert.equal(issue.reason, c.reason, what);
      assert.equal(issue.message, reasons[c.reason], what);
    }
    // The asserting forms agree, and name the rule broken.
    const assertIt = () => (c.kind === "key" ? keys.assertKey(c.input) : keys.assertPrefix(c.input));
    if (c.valid) assertIt();
    else assert.throws(assertIt, (e) => e instanceof TypeError && e.message.endsWith(reasons[c.reason]), what);
  }
});

test("the memory store's etag follows the shared table", async () => {
  const { memoryStorage } = await importPkg();
  for (const c of table("etag.json").cases) {
    const bytes = c.hex !== undefined ? Uint8Array.from(Buffer.from(c.hex, "hex")) : new TextEncoder().encode(c.text);
    assert.equal(keys.fnv1a(bytes), c.etag, c.text ?? c.hex);
    const page = await memoryStorage({ k: bytes }).list("");
    assert.equal(page.entries[0].etag, c.etag);
  }
});

test("the package's token estimate follows the shared table", async () => {
  const { estimateTokens } = await importPkg();
  for (const c of table("tokens.json").cases) assert.equal(estimateTokens(c.text), c.tokens, JSON.stringify(c.text.slice(0, 40)));
  assert.throws(() => estimateTokens(42), TypeError);
});
