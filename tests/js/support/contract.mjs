// The storage contract as a list of checks that run anywhere (Node, workerd through a proxy, a
// browser page): no node: imports and no test framework, only a tiny assertion helper. Each check
// gets { storage, touches?, exactPages?, capped, empty, wholeValueReads? } for a store holding FIXTURE:
//   touches: optional async () => number, how many calls reached the underlying store so far
//   exactPages: the adapter fills every page but the last (true for every shipped adapter)
//   capped: async (maxObjectBytes) => a store holding FIXTURE made with that size cap
//   empty: async () => a store of the same adapter whose root does not exist or holds nothing
//   wholeValueReads: the adapter cannot read part of an object (IndexedDB), so it refuses every
//     read of an object above the cap, prefix reads included

const enc = new TextEncoder();

function bigFile() {
  const b = new Uint8Array(10_000);
  for (let i = 0; i < b.length; i++) b[i] = (i * 31 + 7) & 0xff;
  return b;
}

/** key -> content of the store every check runs against. */
export const FIXTURE = {
  "a-c": "dash sorts before slash",
  "a/x": "ax",
  "a/y/w": "ayw",
  "a/y/z": "ayz",
  "ab/x": "not under a/",
  b: "the target of a/../b",
  "big.bin": bigFile(),
  empty: "",
  "skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Fill PDF forms.\n---\n\n# PDF\n",
  "skills/pdf/scripts/run.py": "print('hello')\n",
  "\u00fc/stra\u00dfe.md": "a key outside ASCII",
};

export function fixtureBytes(key) {
  const v = FIXTURE[key];
  return typeof v === "string" ? enc.encode(v) : v;
}

export const FIXTURE_KEYS = Object.keys(FIXTURE).sort();

export const BAD_KEYS = [
  "", "/abs", "a/../b", "a/./b", "a\\b", "a/%2e%2e/b", "a/%2E%2e/b", "a%2fb", "a%5Cb", "a\u0000b",
  "a\u001fb", "a\u007fb", "..", ".", "a//b", "a/", "../b", "b/..",
];
export const BAD_PREFIXES = ["a", "/a/", "a/../", "../", "./", "a//", "/", "a\\b/", "%2e%2e/", "a\u0000/"];

// --- assertions -------------------------------------------------------------------------------

function show(v) {
  try {
    return JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? `<${x.length} bytes>` : x));
  } catch {
    return String(v);
  }
}

function fail(message) {
  throw new Error(message);
}

function eq(actual, expected, what) {
  if (!Object.is(actual, expected)) fail(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

function deepEq(actual, expected, what) {
  const a = show(actual);
  const e = show(expected);
  if (a !== e) fail(`${what}:\n  expected ${e}\n  got      ${a}`);
}

function ok(value, what) {
  if (!value) fail(what);
}

function hex(bytes) {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

function asBytes(v, what) {
  if (typeof v === "string") return enc.encode(v);
  if (v instanceof Uint8Array) return v;
  // A Uint8Array from another realm (a test page, a proxy) still counts.
  if (v && Object.prototype.toString.call(v) === "[object Uint8Array]") return new Uint8Array(v);
  fail(`${what}: expected bytes or a string, got ${show(v)}`);
}

function bytesEq(actual, expected, what) {
  const a = asBytes(actual, what);
  if (a.length !== expected.length) fail(`${what}: expected ${expected.length} bytes, got ${a.length}`);
  if (hex(a) !== hex(expected)) fail(`${what}: bytes differ`);
}

async function rejectsType(fn, what) {
  let result;
  try {
    result = await fn();
  } catch (e) {
    if (e?.name !== "TypeError") fail(`${what}: expected a TypeError, got ${e?.name}: ${e?.message}`);
    return e;
  }
  fail(`${what}: expected a TypeError, got ${show(result)}`);
}

async function rejectsError(fn, what) {
  let result;
  try {
    result = await fn();
  } catch (e) {
    if (e?.name === "TypeError") fail(`${what}: expected an Error that is not a TypeError, got ${e.message}`);
    ok(typeof e?.message === "string" && e.message !== "", `${what}: the error has a message`);
    return e;
  }
  fail(`${what}: expected a rejection, got ${show(result)}`);
}

/** Calls fn, failing if it throws synchronously; the promise it returns is awaited to its settlement. */
async function settlesWithoutThrowing(fn, what) {
  let p;
  try {
    p = fn();
  } catch (e) {
    fail(`${what} threw synchronously instead of rejecting: ${e?.message}`);
  }
  ok(p !== null && typeof p?.then === "function", `${what} did not return a promise`);
  return p.then(() => "resolved", () => "rejected");
}

/** Every page of a listing: { pages, entries }. Stops after maxPages (a cursor that never ends). */
export async function listAll(storage, prefix, opts = {}, maxPages = 10_000) {
  const pages = [];
  let cursor;
  do {
    const page = await storage.list(prefix, cursor === undefined ? { ...opts } : { ...opts, cursor });
    ok(page && Array.isArray(page.entries), `list(${show(prefix)}) returned no entries array: ${show(page)}`);
    pages.push(page);
    cursor = page.cursor;
    if (cursor !== undefined) ok(typeof cursor === "string" && cursor !== "", `cursor must be a non-empty string: ${show(cursor)}`);
    if (pages.length > maxPages) fail(`list(${show(prefix)}) did not end after ${maxPages} pages`);
  } while (cursor !== undefined);
  return { pages, entries: pages.flatMap((p) => p.entries) };
}

function keysOf(entries) {
  return entries.map((e) => e.key);
}

function assertSorted(keys, what) {
  for (let i = 1; i < keys.length; i++) {
    if (!(keys[i - 1] < keys[i])) fail(`${what}: ${show(keys[i - 1])} then ${show(keys[i])} is not strictly ascending`);
  }
}

// --- the checks ---------------------------------------------------------------------------------

/** @type {{ name: string; run: (ctx: { storage: any; touches?: () => Promise<number>; exactPages?: boolean }) => Promise<void> }[]} */
export const CONTRACT = [
  {
    name: "lists every key once, sorted, with sizes and etags",
    async run({ storage }) {
      const { entries } = await listAll(storage, "");
      const keys = keysOf(entries);
      deepEq(keys, FIXTURE_KEYS, "keys of list('')");
      assertSorted(keys, "list('')");
      for (const e of entries) {
        if (e.size !== undefined) eq(e.size, fixtureBytes(e.key).length, `size of ${e.key}`);
        if (e.etag !== undefined) ok(typeof e.etag === "string" && e.etag !== "", `etag of ${e.key} is a non-empty string`);
      }
    },
  },
  {
    name: "paginates with limit 2 across several pages",
    async run({ storage, exactPages = true }) {
      const { pages, entries } = await listAll(storage, "", { limit: 2 });
      deepEq(keysOf(entries), FIXTURE_KEYS, "keys over pages of 2");
      for (const [i, p] of pages.entries()) {
        ok(p.entries.length <= 2, `page ${i} holds ${p.entries.length} entries, more than the limit 2`);
        if (i < pages.length - 1) ok(p.cursor !== undefined, `page ${i} has no cursor`);
      }
      eq(pages[pages.length - 1].cursor, undefined, "cursor of the last page");
      if (exactPages) eq(pages.length, Math.ceil(FIXTURE_KEYS.length / 2), "number of pages");
      else ok(pages.length >= Math.ceil(FIXTURE_KEYS.length / 2), "at least ceil(n / 2) pages");
      // limit 1: one key per page
      const one = await listAll(storage, "a/", { limit: 1 });
      deepEq(one.pages.map((p) => keysOf(p.entries)), [["a/x"], ["a/y/w"], ["a/y/z"]], "pages of 1 under a/");
    },
  },
  {
    name: "a prefix selects its subtree only (a/ does not return ab/x or a-c)",
    async run({ storage }) {
      deepEq(keysOf((await listAll(storage, "a/")).entries), ["a/x", "a/y/w", "a/y/z"], "list('a/')");
      deepEq(keysOf((await listAll(storage, "a/y/")).entries), ["a/y/w", "a/y/z"], "list('a/y/')");
      deepEq(keysOf((await listAll(storage, "ab/")).entries), ["ab/x"], "list('ab/')");
      deepEq(
        keysOf((await listAll(storage, "skills/")).entries),
        ["skills/pdf/SKILL.md", "skills/pdf/scripts/run.py"],
        "list('skills/')",
      );
      deepEq(keysOf((await listAll(storage, "\u00fc/")).entries), ["\u00fc/stra\u00dfe.md"], "list('\u00fc/')");
      const page = await storage.list("a/y/", { limit: 1 });
      deepEq(keysOf(page.entries), ["a/y/w"], "first page of a/y/ with limit 1");
      ok(page.cursor !== undefined, "a cursor after the first of two keys");
    },
  },
  {
    name: "an empty prefix result has no cursor",
    async run({ storage }) {
      for (const prefix of ["zzz/", "a/x/", "b/", "a/y/w/"]) {
        const page = await storage.list(prefix);
        deepEq(keysOf(page.entries), [], `list(${show(prefix)})`);
        eq(page.cursor, undefined, `cursor of list(${show(prefix)})`);
      }
      const last = await storage.list("a/y/", { limit: 2 });
      deepEq(keysOf(last.entries), ["a/y/w", "a/y/z"], "list('a/y/', limit 2)");
      eq(last.cursor, undefined, "no cursor when the page holds exactly the remaining keys");
    },
  },
  {
    name: "reads the bytes of every key",
    async run({ storage }) {
      for (const key of FIXTURE_KEYS) {
        const got = await storage.read(key);
        ok(got !== null, `read(${show(key)}) returned null`);
        bytesEq(got, fixtureBytes(key), `read(${show(key)})`);
      }
    },
  },
  {
    name: "read with maxBytes returns only a prefix",
    async run({ storage }) {
      const big = fixtureBytes("big.bin");
      for (const n of [1, 100, 4096, 9_999, 10_000]) {
        bytesEq(await storage.read("big.bin", { maxBytes: n }), big.subarray(0, n), `read(big.bin, maxBytes ${n})`);
      }
      bytesEq(await storage.read("big.bin", { maxBytes: 50_000 }), big, "read(big.bin, maxBytes past the end)");
      bytesEq(await storage.read("a/x", { maxBytes: 1 }), fixtureBytes("a/x").subarray(0, 1), "read(a/x, maxBytes 1)");
      bytesEq(await storage.read("big.bin", { maxBytes: 0 }), new Uint8Array(0), "read(big.bin, maxBytes 0)");
      bytesEq(await storage.read("empty", { maxBytes: 10 }), new Uint8Array(0), "read(empty, maxBytes 10)");
      bytesEq(await storage.read("empty"), new Uint8Array(0), "read(empty)");
      eq(await storage.read("missing", { maxBytes: 10 }), null, "read(missing, maxBytes 10)");
      eq(await storage.read("missing", { maxBytes: 0 }), null, "read(missing, maxBytes 0)");
    },
  },
  {
    name: "a missing key reads as null",
    async run({ storage }) {
      for (const key of ["nope", "a/nope", "a", "a/y", "skills/pdf", "a/x/deeper", "A/X"]) {
        eq(await storage.read(key), null, `read(${show(key)})`);
      }
    },
  },
  {
    name: "bad keys, prefixes and options are rejected without touching the store",
    async run({ storage, touches }) {
      const before = touches ? await touches() : 0;
      for (const key of BAD_KEYS) {
        await rejectsType(() => storage.read(key), `read(${show(key)})`);
        await rejectsType(() => storage.read(key, { maxBytes: 10 }), `read(${show(key)}, maxBytes 10)`);
      }
      for (const prefix of BAD_PREFIXES) {
        await rejectsType(() => storage.list(prefix), `list(${show(prefix)})`);
      }
      for (const limit of [0, -1, 1.5, "2"]) {
        await rejectsType(() => storage.list("", { limit }), `list('', limit ${show(limit)})`);
      }
      for (const maxBytes of [-1, 1.5, "10"]) {
        await rejectsType(() => storage.read("a/x", { maxBytes }), `read(a/x, maxBytes ${show(maxBytes)})`);
      }
      if (touches) eq(await touches(), before, "calls that reached the store while rejecting bad input");
    },
  },
  {
    name: "a read above maxObjectBytes is refused before it is read; reads within the cap are served",
    async run({ capped, touches, wholeValueReads = false }) {
      const CAP = 5_000;
      const big = fixtureBytes("big.bin"); // 10,000 bytes
      const storage = await capped(CAP);
      // The listing is not affected: the object is there, with its size.
      const { entries } = await listAll(storage, "");
      deepEq(keysOf(entries), FIXTURE_KEYS, "keys of list('') under a cap");
      const listed = entries.find((e) => e.key === "big.bin");
      if (listed.size !== undefined) eq(listed.size, big.length, "listed size of big.bin");

      const before = touches ? await touches() : 0;
      for (const opts of [undefined, { maxBytes: CAP + 1 }, { maxBytes: 50_000 }]) {
        const e = await rejectsError(() => storage.read("big.bin", opts), `read(big.bin, ${show(opts)}) with cap ${CAP}`);
        ok(e.message.includes("big.bin"), `the refusal names the key: ${e.message}`);
        ok(e.message.includes(String(big.length)), `the refusal names the size: ${e.message}`);
        ok(e.message.includes(String(CAP)), `the refusal names the cap: ${e.message}`);
        eq(e.code, "object-too-large", "code of the refusal");
      }
      // One store call at most per refused read: the size came from metadata, not from the bytes.
      if (touches) ok((await touches()) - before <= 3, `store calls for 3 refused reads: ${(await touches()) - before}`);

      for (const n of [CAP, 100, 1]) {
        if (wholeValueReads) {
          await rejectsError(() => storage.read("big.bin", { maxBytes: n }), `read(big.bin, maxBytes ${n}) loads the value`);
        } else {
          bytesEq(await storage.read("big.bin", { maxBytes: n }), big.subarray(0, n), `read(big.bin, maxBytes ${n}) under cap ${CAP}`);
        }
      }
      bytesEq(await storage.read("skills/pdf/SKILL.md"), fixtureBytes("skills/pdf/SKILL.md"), "a file under the cap reads whole");
      eq(await storage.read("missing"), null, "a missing key under a cap");

      // Cap 0: only empty objects and zero-byte prefixes.
      const zero = await capped(0);
      bytesEq(await zero.read("empty"), new Uint8Array(0), "read(empty) with cap 0");
      const e = await rejectsError(() => zero.read("a/x"), "read(a/x) with cap 0");
      eq(e.code, "object-too-large", "code of the refusal with cap 0");
      if (!wholeValueReads) bytesEq(await zero.read("a/x", { maxBytes: 0 }), new Uint8Array(0), "read(a/x, maxBytes 0) with cap 0");
    },
  },
  {
    name: "a store root that does not exist lists as an empty page with a warning; reads are null",
    async run({ storage, empty }) {
      const none = await empty();
      for (const prefix of ["", "skills/"]) {
        const page = await none.list(prefix);
        deepEq(page.entries, [], `entries of list(${show(prefix)}) of an empty root`);
        eq(page.cursor, undefined, `cursor of list(${show(prefix)}) of an empty root`);
        ok(Array.isArray(page.warnings) && page.warnings.length === 1, `one warning for list(${show(prefix)}): ${show(page.warnings)}`);
        eq(page.warnings[0].key, prefix, "the warning's key is the prefix listed");
        ok(typeof page.warnings[0].message === "string" && page.warnings[0].message.length > 10, "the warning says why");
      }
      eq(await none.read("skills/pdf/SKILL.md"), null, "read in an empty root");
      // A store that holds something says nothing about a prefix that happens to be empty.
      eq((await storage.list("zzz/")).warnings, undefined, "warnings of an empty prefix in a filled store");
    },
  },
  {
    name: "list and read never throw synchronously and always settle",
    async run({ storage }) {
      const calls = [
        ["read('')", () => storage.read("")],
        ["read(42)", () => storage.read(42)],
        ["read(null)", () => storage.read(null)],
        ["read(a/x, maxBytes -1)", () => storage.read("a/x", { maxBytes: -1 })],
        ["read(a/x, opts null)", () => storage.read("a/x", null)],
        ["list('a')", () => storage.list("a")],
        ["list(undefined)", () => storage.list(undefined)],
        ["list('', cursor 7)", () => storage.list("", { cursor: 7 })],
        ["list('', opts null)", () => storage.list("", null)],
      ];
      for (const [what, fn] of calls) await settlesWithoutThrowing(fn, what);
      // Answers that must resolve, not reject.
      eq(await settlesWithoutThrowing(() => storage.read("a/x", null), "read(a/x, null)"), "resolved", "read with null opts");
      eq(await settlesWithoutThrowing(() => storage.list("", null), "list('', null)"), "resolved", "list with null opts");
    },
  },
  {
    name: "returns Uint8Array from read",
    async run({ storage }) {
      const got = await storage.read("a/x");
      eq(Object.prototype.toString.call(got), "[object Uint8Array]", "type of read(a/x)");
    },
  },
  {
    name: "a version, when the store keeps one, holds on every page and answers unchanged when named",
    async run({ storage }) {
      const { pages, entries } = await listAll(storage, "", { limit: 3 });
      // An unknown version is no reason to answer less: the listing is whole.
      const asked = await listAll(storage, "", { limit: 3, unlessVersion: "no-such-version" });
      deepEq(keysOf(asked.entries), keysOf(entries), "keys listed with an unknown unlessVersion");
      ok(asked.pages.every((p) => p.unchanged === undefined), "no unchanged for a version the store never gave");
      const version = pages[0].version;
      if (version === undefined) {
        ok(pages.every((p) => p.version === undefined), "a store without versions gives none on any page");
        return;
      }
      ok(typeof version === "string" && version !== "" && version.length <= 1024, `version ${show(version)}`);
      ok(pages.every((p) => p.version === version), "every page carries the same version while nothing is written");
      for (const prefix of ["", "a/", "skills/pdf/"]) {
        const page = await storage.list(prefix, { unlessVersion: version });
        eq(page.unchanged, true, `list(${show(prefix)}) named the store's version`);
        deepEq(page.entries, [], `entries of list(${show(prefix)}) answered unchanged`);
        eq(page.cursor, undefined, `cursor of list(${show(prefix)}) answered unchanged`);
      }
    },
  },
];

// --- the optional listSkillPrefixes ------------------------------------------------------------

/** Every page of a listSkillPrefixes listing (it may answer a page or a promise of one). */
async function prefixPages(storage, prefix, opts = {}, maxPages = 10_000) {
  const pages = [];
  let cursor;
  do {
    const page = await storage.listSkillPrefixes(prefix, cursor === undefined ? { ...opts } : { ...opts, cursor });
    ok(page && Array.isArray(page.entries), `listSkillPrefixes(${show(prefix)}) returned no entries array: ${show(page)}`);
    pages.push(page);
    cursor = page.cursor;
    if (pages.length > maxPages) fail(`listSkillPrefixes(${show(prefix)}) did not end after ${maxPages} pages`);
  } while (cursor !== undefined);
  return { pages, entries: pages.flatMap((p) => p.entries) };
}

const lastSegment = (key) => key.slice(key.lastIndexOf("/") + 1);

/** Checks for a store that offers listSkillPrefixes (ctx as for CONTRACT). */
export const PREFIX_CONTRACT = [
  {
    name: "listSkillPrefixes lists what list lists; the files it names carry their first bytes",
    async run({ storage }) {
      const listed = keysOf((await listAll(storage, "")).entries);
      for (const [files, prefixBytes] of [[["SKILL.md"], 4096], [["SKILL.md"], 4], [["x", "big.bin"], 100], [["big.bin"], 10_000]]) {
        const { entries } = await prefixPages(storage, "", { files, prefixBytes });
        deepEq(keysOf(entries), listed, `keys of listSkillPrefixes('', ${show(files)})`);
        for (const e of entries) {
          if (!files.includes(lastSegment(e.key))) {
            eq(e.head, undefined, `head of ${e.key}, which ${show(files)} does not name`);
            continue;
          }
          ok(e.headError === undefined, `headError of ${e.key}: ${e.headError}`);
          const want = fixtureBytes(e.key);
          bytesEq(e.head, want.subarray(0, prefixBytes), `head of ${e.key} (prefixBytes ${prefixBytes})`);
          bytesEq(e.head, await storage.read(e.key, { maxBytes: prefixBytes }), `head of ${e.key} against read`);
          if (e.size !== undefined) eq(e.size, want.length, `size of ${e.key}`);
        }
      }
      const sub = await prefixPages(storage, "skills/", { files: ["SKILL.md"], prefixBytes: 4096 });
      deepEq(keysOf(sub.entries), ["skills/pdf/SKILL.md", "skills/pdf/scripts/run.py"], "listSkillPrefixes('skills/')");
      bytesEq(sub.entries[0].head, fixtureBytes("skills/pdf/SKILL.md"), "the SKILL.md's head");
    },
  },
  {
    name: "listSkillPrefixes pages with cursors as list does",
    async run({ storage }) {
      const { pages, entries } = await prefixPages(storage, "", { limit: 2, files: ["x"], prefixBytes: 1 });
      deepEq(keysOf(entries), FIXTURE_KEYS, "keys over pages of 2");
      for (const [i, p] of pages.entries()) ok(p.entries.length <= 2, `page ${i} holds ${p.entries.length} entries`);
      eq(pages.length, Math.ceil(FIXTURE_KEYS.length / 2), "number of pages");
      const heads = entries.filter((e) => e.head !== undefined).map((e) => [e.key, new TextDecoder().decode(e.head)]);
      deepEq(heads, [["a/x", "a"], ["ab/x", "n"]], "heads over the pages");
    },
  },
  {
    name: "listSkillPrefixes: bad prefixes and options are TypeErrors",
    async run({ storage }) {
      const call = async (fn, what) => rejectsType(async () => fn(), what);
      for (const prefix of BAD_PREFIXES) await call(() => storage.listSkillPrefixes(prefix, {}), `listSkillPrefixes(${show(prefix)})`);
      const bad = [
        ["files a string", { files: "SKILL.md" }],
        ["files with a slash", { files: ["a/SKILL.md"] }],
        ["files with a number", { files: [5] }],
        ["files with ..", { files: [".."] }],
        ["prefixBytes 0", { prefixBytes: 0 }],
        ["prefixBytes -1", { prefixBytes: -1 }],
        ["prefixBytes a string", { prefixBytes: "4096" }],
        ["prefixBytes 1.5", { prefixBytes: 1.5 }],
        ["limit 0", { limit: 0 }],
        ["cursor 7", { cursor: 7 }],
        ["skip a string", { skip: "node_modules" }],
      ];
      for (const [what, opts] of bad) await call(() => storage.listSkillPrefixes("", opts), `listSkillPrefixes('', ${what})`);
      await call(() => storage.listSkillPrefixes("", 5), "listSkillPrefixes('', 5)");
    },
  },
  {
    name: "listSkillPrefixes: a file above the size cap is listed with its size and a headError, no byte of it",
    async run({ capped }) {
      const storage = await capped(100);
      const { entries } = await prefixPages(storage, "", { files: ["big.bin", "x"], prefixBytes: 4096 });
      deepEq(keysOf(entries), FIXTURE_KEYS, "keys of the capped store");
      const big = entries.find((e) => e.key === "big.bin");
      eq(big.head, undefined, "head of big.bin (10,000 bytes, above the cap of 100)");
      ok(/size cap|maxObjectBytes/.test(big.headError ?? ""), `headError of big.bin: ${show(big.headError)}`);
      eq(big.size, 10_000, "size of big.bin");
      bytesEq(entries.find((e) => e.key === "a/x").head, fixtureBytes("a/x"), "a/x, within the cap");
    },
  },
  {
    name: "listSkillPrefixes on an empty or missing root is an empty listing",
    async run({ empty }) {
      const storage = await empty();
      const { entries } = await prefixPages(storage, "", { files: ["SKILL.md"], prefixBytes: 10 });
      deepEq(keysOf(entries), [], "entries of an empty store");
    },
  },
];

/**
 * Run every check; resolves to [{ name, ok, error? }] (for runners without a test framework, such
 * as a browser page).
 */
export async function runContract(ctx) {
  const results = [];
  for (const c of CONTRACT) {
    try {
      await c.run(ctx);
      results.push({ name: c.name, ok: true });
    } catch (e) {
      results.push({ name: c.name, ok: false, error: String(e?.stack ?? e) });
    }
  }
  return results;
}
