// pageLines (boundary.js) writes a store's listing page of the usual shape as lines, which the
// engine splits without a JSON parse; anything else it declines (null), and the page is read as
// JSON (pageJson, then boundedJson). Each case below states the exact text or the refusal, and
// every page it reads must mean what pageJson's JSON of the same page means: the same entries,
// sizes, etags, cursor, head errors and heads handed back.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { assertBuilt, PKG } from "./helpers.mjs";

assertBuilt();
const { boundedJson, pageJson, pageLines } = await import(pathToFileURL(path.join(PKG, "boundary.js")).href);

const MAX_ENTRIES = 250_000;
const MAX_NODES = 1_000_000;
const MAX_CHARS = 64 * 1024 * 1024;
const head = new Uint8Array([0x2d, 0x2d, 0x2d]);

/** [what, page, heads, the lines pageLines writes, or null when it declines the page] */
const CASES = [
  ["an empty page", { entries: [] }, false, ""],
  ["entries, a cursor", { entries: [{ key: "a/SKILL.md", size: 3, etag: "e1" }], cursor: "c" }, false, "=c\na/SKILL.md\t3\te1"],
  ["an empty cursor, an entry of a key alone", { entries: [{ key: "k" }], cursor: "" }, false, "=\nk\t\t"],
  ["a null cursor", { entries: [], cursor: null }, false, ""],
  ["keys in another order", { cursor: "z", entries: [{ etag: "e", size: 1, key: "k" }] }, false, "=z\nk\t1\te"],
  ["a key with a lone surrogate", { entries: [{ key: "a\ud800b", size: 1, etag: "e" }] }, false, "\na\u0000b\t1\te"],
  ["an etag with a lone surrogate", { entries: [{ key: "k", size: 1, etag: "e\udc00" }] }, false, "\nk\t1\te\ufffd"],
  ["sizes that are none", { entries: [{ key: "k", size: NaN }, { key: "l", size: Infinity }, { key: "m", size: -3 }, { key: "n", size: null }] }, false, "\nk\t\t\nl\t\t\nm\t\t\nn\t\t"],
  ["a size of -0", { entries: [{ key: "k", size: -0, etag: "e" }] }, false, "\nk\t0\te"],
  ["undefined fields", { entries: [{ key: "k", size: 1, etag: undefined }], cursor: undefined, warnings: undefined }, false, "\nk\t1\t"],
  ["non-ASCII text", { entries: [{ key: "ü/SKILL.md", size: 1, etag: "—" }] }, false, "\nü/SKILL.md\t1\t—"],
  ["a carriage return in a key (the key check refuses it later)", { entries: [{ key: "a\rb", size: 1, etag: "e" }] }, false, "\na\rb\t1\te"],
  [
    "heads and head errors",
    { entries: [{ key: "a/SKILL.md", size: 3, etag: "e", head }, { key: "b/SKILL.md", size: 9, etag: "f", headError: "gone\tfor good" }, { key: "c", size: 1, etag: "g", headError: null }] },
    true,
    "\na/SKILL.md\t3\te\nb/SKILL.md\t9\tf\t!gone\tfor good\nc\t1\tg",
  ],
  [
    "a listed SHA-256, before a head error",
    { entries: [{ key: "a", size: 1, etag: "e", digest: `sha256:${"a".repeat(64)}` }, { key: "b", size: 1, digest: `sha256:${"b".repeat(64)}`, headError: "x" }] },
    true,
    `\na\t1\te\tsha256:${"a".repeat(64)}\nb\t1\t\tsha256:${"b".repeat(64)}\t!x`,
  ],
  // The engine drops a malformed digest from the lines as from JSON (see the discovery test below).
  ["a malformed sha256 digest (the engine drops it)", { entries: [{ key: "k", size: 1, etag: "e", digest: "sha256:ABC" }] }, false, "\nk\t1\te\tsha256:ABC"],
  ["a digest of another start (read as JSON, which drops it)", { entries: [{ key: "k", size: 1, etag: "e", digest: "md5:abc" }] }, false, null],
  ["a digest that would read as a head error", { entries: [{ key: "k", size: 1, etag: "e", digest: "!gone" }] }, true, null],
  ["a tab in a digest", { entries: [{ key: "k", size: 1, etag: "e", digest: "sha256:a\t!x" }] }, true, null],
  ["a line feed in a digest", { entries: [{ key: "k", size: 1, etag: "e", digest: "sha256:a\nb" }] }, false, null],
  ["an empty head error", { entries: [{ key: "k", size: 1, etag: "e", headError: "" }] }, true, "\nk\t1\te\t!"],
  ["a version and unchanged, left to the engine", { entries: [{ key: "k", size: 1, etag: "e" }], version: "v7", unchanged: true }, false, "\nk\t1\te"],
  [
    "a version whose getter throws, never read here",
    Object.defineProperty({ entries: [{ key: "k", size: 1, etag: "e" }] }, "version", { enumerable: true, get() { throw new Error("no"); } }),
    false,
    "\nk\t1\te",
  ],
  ["warnings", { entries: [], warnings: [{ key: "x", message: "m" }] }, false, null],
  ["a fractional size", { entries: [{ key: "k", size: 1.5, etag: "e" }] }, false, null],
  ["a size past 2^53", { entries: [{ key: "k", size: 2 ** 60, etag: "e" }] }, false, null],
  ["an empty etag", { entries: [{ key: "k", size: 1, etag: "" }] }, false, null],
  ["a tab in a key", { entries: [{ key: "a\tb", size: 1, etag: "e" }] }, false, null],
  ["a line feed in a key", { entries: [{ key: "a\nb/SKILL.md", size: 1, etag: "e" }] }, false, null],
  ["a line feed in an etag", { entries: [{ key: "k", size: 1, etag: "e\nx" }] }, false, null],
  ["a line feed in a cursor", { entries: [], cursor: "c\nd" }, false, null],
  ["a line feed in a head error", { entries: [{ key: "k", size: 1, etag: "e", headError: "a\nb" }] }, true, null],
  ["a head error that is a number", { entries: [{ key: "k", size: 1, etag: "e", headError: 5 }] }, true, null],
  ["a head without heads", { entries: [{ key: "a", size: 1, etag: "e", head }] }, false, null],
  ["a page with directories", { entries: [], directories: ["a/"] }, true, null],
  ["an unknown page key", { entries: [], more: 1 }, false, null],
  ["an unknown entry key", { entries: [{ key: "k", size: 1, etag: "e", extra: true }] }, false, null],
  ["an entry without a key", { entries: [{ size: 1, etag: "e" }] }, false, null],
  ["a key that is not a string", { entries: [{ key: 5, size: 1, etag: "e" }] }, false, null],
  ["a size that is a string", { entries: [{ key: "k", size: "1", etag: "e" }] }, false, null],
  ["an entry that is an array", { entries: [["k", 1, "e"]] }, false, null],
  ["entries that are not an array", { entries: {} }, false, null],
  ["a numeric cursor", { entries: [], cursor: 5 }, false, null],
  ["an entry with toJSON", { entries: [{ key: "k", size: 1, etag: "e", toJSON: () => ({}) }] }, false, null],
  ["a page that is an array", [], false, null],
  ["null", null, false, null],
];

/** The lines as the engine reads them (wasm/src/core_module/page_lines.rs). */
function readLines(text) {
  const [first, ...lines] = text.split("\n");
  const cursor = first.startsWith("=") && first.length > 1 ? first.slice(1) : undefined;
  const entries = [];
  const headErrors = [];
  for (const line of lines) {
    const [key, size, etag, ...rest] = line.split("\t");
    const entry = { key };
    if (size !== "") entry.size = Number(size);
    if (etag !== "") entry.etag = etag;
    if (rest[0]?.startsWith("sha256:")) {
      const digest = rest.shift();
      if (/^sha256:[0-9a-f]{64}$/.test(digest)) entry.digest = digest;
    }
    if (rest.length > 0) headErrors.push([key, rest.join("\t").slice(1)]);
    entries.push(entry);
  }
  return { entries, cursor, headErrors };
}

/** pageJson's JSON of the same page, read as the engine reads JSON (wasm/src/core_module/storage.rs). */
function readJson(text) {
  const page = JSON.parse(text);
  const entries = page.entries.map((e) => {
    const entry = { key: e.key };
    if (typeof e.size === "number" && e.size >= 0) entry.size = Math.trunc(e.size);
    if (typeof e.etag === "string") entry.etag = e.etag;
    if (typeof e.digest === "string" && /^sha256:[0-9a-f]{64}$/.test(e.digest)) entry.digest = e.digest;
    return entry;
  });
  const headErrors = page.entries.filter((e) => typeof e.headError === "string").map((e) => [e.key, e.headError]);
  const cursor = typeof page.cursor === "string" && page.cursor !== "" ? page.cursor : undefined;
  return { entries, cursor, headErrors };
}

for (const [what, page, heads, expected] of CASES) {
  test(`pageLines: ${what}`, () => {
    const taken = [];
    const text = pageLines(page, MAX_ENTRIES, MAX_CHARS, heads, taken);
    assert.equal(text, expected);
    if (expected === null) {
      assert.deepEqual(taken, [], "a declined page hands nothing back");
      return;
    }
    // As JSON: by pageJson, or (a null size, which pageJson leaves to it) by boundedJson.
    let jsonTaken = [];
    let json = pageJson(page, MAX_NODES, MAX_CHARS, heads, jsonTaken);
    if (json === null) {
      jsonTaken = [];
      const holes = heads ? ["~entries.*.key", "entries.*.head"] : ["~entries.*.key"];
      const read = boundedJson(page, 64, MAX_NODES, MAX_CHARS, holes, jsonTaken);
      assert.equal(read[0], "J", read);
      json = read.slice(1);
    }
    assert.deepEqual(readLines(text), readJson(json), "the lines mean what the JSON means");
    assert.deepEqual(taken, jsonTaken, "the same heads are handed back unread");
  });
}

test("pageLines declines a page whose getter throws, and one over the bounds", () => {
  const throwing = { entries: [{ key: "k", size: 1, etag: "e" }] };
  Object.defineProperty(throwing.entries[0], "etag", { enumerable: true, get() { throw new Error("no"); } });
  assert.equal(pageLines(throwing, MAX_ENTRIES, MAX_CHARS, false, []), null);
  const page = { entries: Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, size: i, etag: "e" })) };
  assert.equal(pageLines(page, 5, MAX_CHARS, false, []), null, "more entries than maxEntries");
  assert.equal(pageLines(page, MAX_ENTRIES, 20, false, []), null, "more characters than maxChars");
  assert.equal(typeof pageLines(page, MAX_ENTRIES, MAX_CHARS, false, []), "string");
});

test("a listed digest the engine cannot use reaches it in the lines and is dropped there: the file is read instead", async () => {
  const { SkillRegistry, memoryStorage } = await import(pathToFileURL(path.join(PKG, "node.js")).href);
  const files = { "notes/SKILL.md": "---\nname: notes\ndescription: Take notes.\n---\nBody\n", "notes/references/r.md": "# R\n" };
  const enc = new TextEncoder();
  const digestOf = async (storage) => {
    const registry = await SkillRegistry.discover({ scopes: [{ name: "s", storage, roots: [""], trusted: true }] });
    try {
      return (await registry.contentDigest("notes")).digest;
    } finally {
      registry.free();
    }
  };
  const want = await digestOf(memoryStorage(files));
  /** A store listing every file with `digest`, counting its reads. */
  const listing = (digest) => {
    const reads = [];
    const entry = (key) => ({ key, size: enc.encode(files[key]).length, etag: `e${files[key].length}`, digest });
    const page = (prefix) => ({ entries: Object.keys(files).sort().filter((k) => k.startsWith(prefix)).map(entry) });
    return {
      reads,
      page,
      list: async (prefix) => page(prefix),
      read: async (key) => (reads.push(key), key in files ? enc.encode(files[key]) : null),
    };
  };
  for (const malformed of ["sha256:ABC", `sha256:${"A".repeat(64)}`, `sha256:${"a".repeat(63)}`]) {
    const store = listing(malformed);
    assert.equal(typeof pageLines(store.page(""), MAX_ENTRIES, MAX_CHARS, false, []), "string", `${malformed}: the page crosses as lines`);
    assert.equal(await digestOf(store), want, malformed);
    assert.ok(store.reads.includes("notes/references/r.md"), `${malformed}: the file is read, its listed digest dropped`);
  }
  // A digest of the right form is taken as listed: the file is not read for it.
  const wellFormed = listing(`sha256:${"b".repeat(64)}`);
  assert.notEqual(await digestOf(wellFormed), want);
  assert.ok(!wellFormed.reads.includes("notes/references/r.md"), "a listed digest of the right form saves the read");
});

/**
 * A store whose listings (plain and with heads) answer pages of the usual shape, or, with
 * `asJson`, the same pages with an empty `warnings` list, which pageLines declines and pageJson
 * reads: discovery must come out the same either way.
 */
function storeOf(files, asJson) {
  const keys = Object.keys(files).sort();
  const enc = new TextEncoder();
  const reads = [];
  const entry = (key) => ({ key, size: enc.encode(files[key]).length, etag: `e-${files[key].length}` });
  const page = (prefix, opts, withHead) => {
    const listed = keys.filter((k) => k.startsWith(prefix) && (opts.cursor === undefined || k > opts.cursor));
    const limit = opts.limit ?? 1000;
    const entries = listed.slice(0, limit).map((key) => {
      const e = entry(key);
      if (!withHead || !key.endsWith("/SKILL.md")) return e;
      if (files[key].includes("unreadable")) return { ...e, headError: "permission denied\tEACCES" };
      return { ...e, head: enc.encode(files[key]).subarray(0, opts.prefixBytes) };
    });
    const out = { entries };
    if (listed.length > limit) out.cursor = entries[entries.length - 1].key;
    if (asJson) out.warnings = [];
    return out;
  };
  return {
    reads,
    list: async (prefix, opts = {}) => page(prefix, opts, false),
    listSkillPrefixes: async (prefix, opts) => page(prefix, opts, true),
    read: async (key) => {
      reads.push(key);
      return key in files ? enc.encode(files[key]) : null;
    },
  };
}

test("discovery reads a store's pages as lines exactly as it reads them as JSON", async () => {
  const { SkillRegistry } = await import(pathToFileURL(path.join(PKG, "node.js")).href);
  const files = { ".agents/skills/zz/notes.md": "n" };
  for (let i = 0; i < 30; i++) {
    const name = `skill-${String(i).padStart(2, "0")}`;
    files[`.agents/skills/g${i % 3}/${name}/SKILL.md`] = `---\nname: ${name}\ndescription: Skill ${i}.\n---\nBody ${i}\n`;
    files[`.agents/skills/g${i % 3}/${name}/references/r.md`] = "r";
  }
  files[".agents/skills/locked/SKILL.md"] = "---\nname: locked\ndescription: unreadable\n---\n";
  const outcome = async (asJson) => {
    const store = storeOf(files, asJson);
    const reg = await SkillRegistry.discover({ scopes: [{ name: "project", storage: store, trusted: true }], pageSize: 7 });
    const names = reg.names();
    const diagnostics = reg.diagnostics().map((d) => `${d.code} ${d.message}`);
    const reads = store.reads.length;
    const refreshed = await reg.refresh();
    return { names, diagnostics, reads, changed: refreshed.changed.length, readsAfterRefresh: store.reads.length };
  };
  const asLines = await outcome(false);
  const asJson = await outcome(true);
  assert.deepEqual(asLines, asJson);
  assert.equal(asLines.names.length, 30, "every readable skill, from the heads the listing brought");
  assert.equal(asLines.reads, 0, "the heads stand in for reads");
  assert.equal(asLines.changed, 0);
  assert.equal(asLines.readsAfterRefresh, 0, "a refresh with nothing changed reads nothing");
  assert.ok(asLines.diagnostics.some((d) => d.includes("permission denied\tEACCES")), asLines.diagnostics.join("\n"));
});
