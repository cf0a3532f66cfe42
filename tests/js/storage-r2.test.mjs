// r2Storage inside workerd (miniflare, real R2 binding) with real skills from ../shared/corpus,
// counting the R2 calls that reach the bucket; plus unit checks against a scripted bucket for what
// workerd will not do on demand (short truncated pages, full final pages).
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { SHARED, importPkg } from "./helpers.mjs";
import { listAll } from "./support/contract.mjs";
import { startWorker } from "./support/workerd.mjs";

const { r2Storage } = await importPkg();

// A few real skill folders (every file in them).
const CORPUS_SKILLS = [
  "anthropics__claude-plugins-official/plugins/mcp-server-dev/skills/build-mcp-server",
  "anthropics__claude-plugins-official/plugins/mcp-server-dev/skills/build-mcpb",
  "anthropics__claude-plugins-official/plugins/mcp-server-dev/skills/build-mcp-app",
];

function filesUnder(dir, rel = "") {
  const out = [];
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    const st = statSync(path.join(dir, r));
    if (st.isDirectory()) out.push(...filesUnder(dir, r));
    else if (st.isFile()) out.push(r);
  }
  return out;
}

describe("r2Storage in workerd with a real R2 binding", () => {
  const SYNTHETIC = 2_345;
  let worker;
  /** key (under skills/) -> local file */
  const local = new Map();
  before(async () => {
    worker = await startWorker();
    for (const rel of CORPUS_SKILLS) {
      const dir = path.join(SHARED, "corpus", "skills", rel);
      const name = path.basename(rel);
      for (const f of filesUnder(dir)) {
        const key = `${name}/${f}`;
        local.set(key, path.join(dir, f));
        await worker.bucket.put(`skills/${key}`, new Uint8Array(readFileSync(path.join(dir, f))));
      }
    }
    assert.equal((await worker.seed("many/", SYNTHETIC, 16)).written, SYNTHETIC);
  });
  after(() => worker?.dispose());

  test("the Worker imports the package's workerd entry (wasm included)", async () => {
    const pkgJson = JSON.parse(readFileSync(new URL("../../pkg-template/package.json", import.meta.url)));
    assert.equal(await worker.version(), pkgJson.version);
  });

  test("lists the uploaded skills under the adapter's prefix, keys stripped, sizes and etags from R2", async () => {
    await worker.resetCounts();
    const storage = worker.storage("skills/");
    const { pages, entries } = await listAll(storage, "");
    assert.deepEqual(entries.map((e) => e.key), [...local.keys()].sort());
    for (const e of entries) {
      assert.equal(e.size, statSync(local.get(e.key)).size, e.key);
      assert.match(e.etag, /^[0-9a-f]{32}$/, e.key);
    }
    const c = await worker.counts();
    assert.equal(c.list, pages.length);
    assert.equal(c.list, Math.ceil(local.size / 1000));
    assert.equal(c.get + c.head, 0, "listing reads no object");
  });

  test(`list pages = ceil(keys / limit) for ${SYNTHETIC} keys; limit capped at 1000`, async () => {
    const storage = worker.storage("");
    for (const limit of [1000, 250, 7, 5000, undefined]) {
      await worker.resetCounts();
      const { pages, entries } = await listAll(storage, "many/", limit === undefined ? {} : { limit });
      const effective = Math.min(limit ?? 1000, 1000);
      assert.equal(entries.length, SYNTHETIC, `limit ${limit}`);
      assert.equal(new Set(entries.map((e) => e.key)).size, SYNTHETIC);
      const c = await worker.counts();
      assert.equal(pages.length, Math.ceil(SYNTHETIC / effective), `pages with limit ${limit}`);
      assert.equal(c.list, pages.length, `R2 list calls with limit ${limit}`);
      assert.ok(c.listLimits.every((l) => l === effective), `limits sent to R2: ${[...new Set(c.listLimits)]}`);
    }
  });

  test("one get per read; a maxBytes read fetches only maxBytes bytes from R2", async () => {
    const storage = worker.storage("skills/");
    const skillMds = [...local.keys()].filter((k) => k.endsWith("/SKILL.md"));
    assert.equal(skillMds.length, CORPUS_SKILLS.length);
    await worker.resetCounts();
    let expectedBytes = 0;
    for (const key of skillMds) {
      const whole = readFileSync(local.get(key));
      assert.ok(whole.length > 512, `${key} is larger than the prefix asked for`);
      const head = await storage.read(key, { maxBytes: 512 });
      assert.deepEqual(Buffer.from(head), whole.subarray(0, 512));
      expectedBytes += 512;
    }
    let c = await worker.counts();
    assert.equal(c.get, skillMds.length, "one R2 get per prefix read");
    assert.equal(c.head, 0);
    assert.deepEqual(c.getRanges, skillMds.map(() => ({ offset: 0, length: 512 })));
    assert.equal(c.bytesFromR2, expectedBytes, "R2 returned only the ranges");

    await worker.resetCounts();
    const resources = [...local.keys()].filter((k) => !k.endsWith("/SKILL.md"));
    assert.ok(resources.length > 5);
    let total = 0;
    for (const key of resources) {
      const got = await storage.read(key);
      const want = readFileSync(local.get(key));
      assert.deepEqual(Buffer.from(got), want, key);
      total += want.length;
    }
    c = await worker.counts();
    assert.equal(c.get, resources.length, "one R2 get per full read");
    assert.deepEqual(new Set(c.getRanges), new Set([null]), "full reads ask for no range");
    assert.equal(c.bytesFromR2, total);

    await worker.resetCounts();
    assert.equal(await storage.read("no-such-skill/SKILL.md", { maxBytes: 512 }), null);
    assert.equal(await storage.read("no-such-skill/SKILL.md"), null);
    assert.equal((await storage.read(skillMds[0], { maxBytes: 0 })).length, 0);
    c = await worker.counts();
    assert.equal(c.get + c.head, 3, "one call per read, also for missing keys and maxBytes 0");
  });
});

describe("r2Storage size cap and failures in workerd", () => {
  let worker;
  before(async () => {
    worker = await startWorker();
    await worker.bucket.put("capped/big/SKILL.md", new Uint8Array(300_000).fill(65));
    await worker.bucket.put("capped/small/SKILL.md", "---\nname: small\ndescription: d\n---\n");
  });
  after(() => worker?.dispose());

  test("a read above the cap is refused from the get's metadata: one get, no body bytes from R2", async () => {
    const storage = worker.storage("capped/", { maxObjectBytes: 100_000 });
    for (const opts of [undefined, { maxBytes: 200_000 }]) {
      await worker.resetCounts();
      await assert.rejects(storage.read("big/SKILL.md", opts), {
        code: "object-too-large",
        message: /big\/SKILL\.md is 300000 bytes, above the size cap of 100000 bytes/,
      });
      const c = await worker.counts();
      assert.deepEqual([c.list, c.get, c.head, c.bytesFromR2], [0, 1, 0, 0], JSON.stringify(c));
      if (opts) assert.deepEqual(c.getRanges, [{ offset: 0, length: 100_001 }], "never more than the cap + 1 asked for");
    }
    await worker.resetCounts();
    assert.equal((await storage.read("big/SKILL.md", { maxBytes: 4096 })).length, 4096);
    assert.equal((await worker.counts()).bytesFromR2, 4096);
  });

  test("an empty prefix of a filled bucket costs one more list and no warning; a prefix holding nothing warns", async () => {
    await worker.resetCounts();
    const page = await worker.storage("capped/").list("nothing/");
    assert.deepEqual([page.entries, page.warnings], [[], undefined]);
    assert.equal((await worker.counts()).list, 2);
    const none = await worker.storage("no-such-root/").list(".agents/skills/");
    assert.deepEqual(none.entries, []);
    assert.match(none.warnings?.[0]?.message ?? "", /nothing is stored under the prefix "no-such-root\/"/);
  });
});

/** A bucket that fails in every way a binding can: throwing, rejecting, answering garbage. */
function failingBucket(how) {
  const fail = (what) => {
    if (how === "throw") throw new Error(`${what} threw`);
    if (how === "reject") return Promise.reject(new Error(`${what} rejected`));
    return Promise.resolve(how === "null" ? null : 42);
  };
  return { list: () => fail("list"), get: () => fail("get"), head: () => fail("head") };
}

describe("r2Storage never throws synchronously", () => {
  for (const how of ["throw", "reject", "null", "number"]) {
    test(`a bucket whose calls ${how === "throw" || how === "reject" ? how : `answer ${how}`}: list and read reject or answer`, async () => {
      const storage = r2Storage(failingBucket(how), { prefix: "p/" });
      const calls = [() => storage.list(""), () => storage.read("a"), () => storage.read("a", { maxBytes: 10 })];
      for (const call of calls) {
        let p;
        assert.doesNotThrow(() => { p = call(); });
        const outcome = await p.then((v) => ({ v }), (e) => ({ e }));
        if (how === "null" && outcome.v === null) continue; // get answering null is "missing"
        assert.ok(outcome.e instanceof Error, `${how}: ${JSON.stringify(outcome)}`);
      }
    });
  }
});

/** A bucket whose list answers are scripted, recording what it was asked. */
function scriptedBucket(pages) {
  const calls = [];
  return {
    calls,
    async list(options) {
      calls.push(options);
      const page = pages[calls.length - 1];
      if (page === undefined) throw new Error("listed past the last page");
      return page;
    },
    async get() {
      return null;
    },
    async head() {
      return null;
    },
  };
}

const obj = (key, extra = {}) => ({ key, size: 1, etag: `e-${key}`, ...extra });

describe("r2Storage pagination follows `truncated`, never the page length", () => {
  test("a short page that is truncated has a cursor; a full page that is not has none", async () => {
    const bucket = scriptedBucket([
      { objects: [obj("root/a")], truncated: true, cursor: "c1" },
      { objects: [obj("root/b"), obj("root/c")], truncated: false, cursor: "ignored" },
    ]);
    const storage = r2Storage(bucket, { prefix: "root" });
    const p1 = await storage.list("", { limit: 2 });
    assert.deepEqual(p1.entries.map((e) => e.key), ["a"]);
    assert.equal(p1.cursor, "c1");
    const p2 = await storage.list("", { limit: 2, cursor: p1.cursor });
    assert.deepEqual(p2.entries.map((e) => e.key), ["b", "c"]);
    assert.equal(p2.cursor, undefined);
    assert.deepEqual(bucket.calls, [
      { prefix: "root/", limit: 2 },
      { prefix: "root/", limit: 2, cursor: "c1" },
    ]);
  });

  test("an empty truncated page still has a cursor; limits above 1000 are capped", async () => {
    const bucket = scriptedBucket([
      { objects: [], truncated: true, cursor: "next" },
      { objects: [obj("x/1")], truncated: false },
    ]);
    const storage = r2Storage(bucket);
    const { pages, entries } = await listAll(storage, "x/", { limit: 10_000 });
    assert.equal(pages.length, 2);
    assert.deepEqual(entries.map((e) => e.key), ["x/1"]);
    assert.deepEqual(bucket.calls.map((c) => c.limit), [1000, 1000]);
  });

  test("etag falls back to httpEtag; keys that break the key rule are warnings", async () => {
    const bucket = scriptedBucket([
      {
        objects: [
          obj("p/ok", { etag: undefined, httpEtag: '"h1"' }),
          obj("p/a//b"),
          obj("p/./c"),
        ],
        truncated: false,
      },
    ]);
    const page = await r2Storage(bucket, { prefix: "p/" }).list("");
    assert.deepEqual(page.entries, [{ key: "ok", size: 1, etag: '"h1"' }]);
    assert.deepEqual(page.warnings.map((w) => w.key), ["a//b", "./c"]);
  });

  test("a bad bucket or root prefix is refused at construction", () => {
    assert.throws(() => r2Storage({}), TypeError);
    assert.throws(() => r2Storage(scriptedBucket([]), { prefix: "../x/" }), TypeError);
    assert.throws(() => r2Storage(scriptedBucket([]), { prefix: "/abs/" }), TypeError);
  });
});
